//! Every corpus geometry shader lowered to compute ([`translate::lower`]) behind a
//! vertex shader that passes its inputs through, with stream output of every output
//! element (stream `s` to slot `s`): each of the four passes is validated by
//! naga and written in every language, the SPIR-V through `spirv-val`. Each shader and
//! pass has one line in `tests/expect/gs_lowering.txt` (`ok`, or the error's code and
//! the instruction at fault). Corrupted geometry shaders never panic the lowering.
//! The corpus is optional: without it the tests print SKIP and pass (unless
//! `DXREF_REQUIRE_CORPUS=1`).

mod common;
#[path = "support/gs_shaders.rs"]
mod gs_shaders;

use std::collections::BTreeMap;

use gs_shaders::{corpus_geometry_shaders, every_output};
use translate::{GsOptions, Options, Target, Topology};

/// A vertex shader with `n` inputs moved to `n` outputs, as a container.
fn passthrough_vs(n: u32) -> Vec<u8> {
    let mut text = String::from("vs_4_0\n");
    for r in 0..n {
        text += &format!("dcl_input v{r}.xyzw\n");
    }
    for r in 0..n {
        text += &format!("dcl_output o{r}.xyzw\n");
    }
    for r in 0..n {
        text += &format!("mov o{r}.xyzw, v{r}.xyzw\n");
    }
    text += "ret\n";
    listing::asm::assemble(&text, &listing::asm::AsmOptions::default()).map(|a| a.bytes).unwrap_or_default()
}

fn options(topology: Topology) -> GsOptions {
    GsOptions { topology, stream_output: None, vs: Options::default(), gs: Options::default() }
}

#[test]
fn corpus_geometry_shaders_lower_and_write() {
    let Some(entries) = corpus::dxbc_entries("gs_lowering") else { return };
    let Some(spirv_val) = common::spirv_val("gs_lowering") else { return };
    let vs = passthrough_vs(32);
    let mut got = BTreeMap::new();
    let shaders = corpus_geometry_shaders(&entries);
    for (id, bytes, topology) in shaders {
        let Some(topology) = topology else {
            got.insert(id, "no input primitive".to_string());
            continue;
        };
        let options = GsOptions { stream_output: every_output(&bytes), ..options(topology) };
        let lowered = match translate::lower(&vs, &bytes, &options) {
            Ok(l) => l,
            Err(e) => {
                got.insert(id, common::outcome(&e));
                continue;
            }
        };
        for (pass, module) in lowered.passes() {
            for target in Target::ALL {
                let outcome = match translate::write(module, target) {
                    Err(err) => common::outcome(&err),
                    Ok(out) if target == Target::Spirv => match spirv_val(&out) {
                        Ok(()) => "ok".to_string(),
                        Err(message) => format!("spirv-val: {}", corpus::expect::one_line(&message)),
                    },
                    Ok(_) => "ok".to_string(),
                };
                got.insert(format!("{id}:{pass}:{}", target.name()), outcome);
            }
        }
    }
    corpus::expect::check(corpus::expect_file!("gs_lowering.txt"), &got);
}

#[test]
fn corrupted_geometry_shaders_give_errors_not_panics() {
    let Some(entries) = corpus::dxbc_entries("corrupted_geometry_shaders_give_errors_not_panics") else { return };
    let vs = passthrough_vs(32);
    let mut rng = corpus::Rng(0x6773_6c6f_7765_7221);
    let (mut tried, mut lowered) = (0, 0);
    let shaders = corpus_geometry_shaders(&entries);
    let count = shaders.len();
    for (id, bytes, _) in shaders {
        let container = dxbc::Container::parse(&bytes).unwrap_or_else(|e| panic!("{id}: {e}"));
        let chunk = container
            .chunk_any(&[dxbc::FourCc::SHEX, dxbc::FourCc::SHDR])
            .unwrap_or_else(|| panic!("{id}: a geometry shader without a program chunk"));
        let (start, len) = (chunk.data_offset(), chunk.data.len());
        for _ in 0..64 {
            let mutated = common::mutated(&bytes, (start, len), &mut rng);
            tried += 1;
            let topology = [Topology::PointList, Topology::TriangleList, Topology::LineStrip][rng.below(3)];
            let result = std::panic::catch_unwind(|| {
                translate::lower(&vs, &mutated, &options(topology)).map(|l| {
                    for (_, m) in l.passes() {
                        let _ = translate::write(m, Target::Spirv);
                    }
                })
            });
            match result {
                Ok(Ok(())) => lowered += 1,
                Ok(Err(_)) => {}
                Err(_) => panic!("{id}: a mutation panicked: {:02x?}", &mutated[start..start + len]),
            }
        }
    }
    println!("{tried} mutations, {lowered} lowered");
    // Every corpus geometry shader got its 64 mutations (the expectation file of
    // `corpus_geometry_shaders_lower_and_write` names each of them).
    assert_eq!(tried, 64 * count);
}
