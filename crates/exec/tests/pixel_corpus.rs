//! Every pixel shader of the corpus compiles and runs on four quads (a 4×4 block of
//! pixels, the last quad with one helper pixel) on generated inputs (as `corpus_run`
//! makes them: every declared constant buffer full of pseudo-random floats, a buffer
//! or texture of pseudo-random data for every declared `t#`, default samplers,
//! pseudo-random attributes per pixel; again with small, then positive, integers when
//! the floats make a loop run past the step limit), or is refused with the
//! instruction named. Each entry's outcome (ran, with the pixels written and
//! discarded and a hash of every written pixel's outputs; what the interpreter refuses;
//! another stage) is checked against `tests/expect/pixel_corpus.txt`. The corpus is
//! optional: without it the test prints SKIP and passes (unless `DXREF_REQUIRE_CORPUS=1`).

use std::collections::BTreeMap;

use corpus::Rng;
use exec::compute::Limits;
use exec::pixel::{self, Quad, QuadPixel, Shaded};
use exec::{ExecErrorKind, Plan};
use tpf::ProgramType;

mod common_corpus_data;
use common_corpus_data::{bind, storage, value, Mode};

fn exercise(plan: &Plan, program: &tpf::Program<'_>, seed: u64, mode: Mode) -> Result<Shaded, exec::ExecError> {
    let mut rng = Rng(seed | 1);
    let mut store = storage(program, &mut rng, mode);
    let mut res = bind(&mut store);
    let n = plan.input_registers as usize;
    let attrs: Vec<Vec<[u32; 4]>> =
        (0..16).map(|_| (0..n).map(|_| [0; 4].map(|_| value(&mut rng, mode))).collect()).collect();
    let quads: Vec<Quad<'_>> = (0..4)
        .map(|q| {
            let p = |k: usize| QuadPixel { covered: !(q == 3 && k == 3), inputs: &attrs[q * 4 + k], z: 0.5, w: 1.0 };
            Quad { x: 2 * (q as u32 & 1), y: 2 * (q as u32 >> 1), front_face: q != 2, pixels: [p(0), p(1), p(2), p(3)] }
        })
        .collect();
    pixel::shade(plan, &quads, &mut res, &Limits { step_limit: 1 << 20 })
}

#[test]
fn corpus_pixel_shaders_run_or_are_refused_by_name() {
    let Some(entries) = corpus::dxbc_entries("exec::pixel_corpus") else { return };
    let mut outcomes: BTreeMap<String, String> = BTreeMap::new();
    let mut failures = Vec::new();
    let (mut shaders, mut ran, mut refused) = (0, 0, 0);
    for e in &entries {
        let bytes = e.bytes();
        let container = dxbc::Container::parse(&bytes).unwrap_or_else(|err| panic!("{}: {err}", e.id()));
        let chunk = container
            .chunk_any(&[dxbc::FourCc::SHEX, dxbc::FourCc::SHDR])
            .unwrap_or_else(|| panic!("{}: no program chunk", e.id()));
        let program = tpf::decode(chunk.data).unwrap_or_else(|err| panic!("{}: {err}", e.id()));
        if program.version.ty != ProgramType::Pixel {
            outcomes.insert(e.id(), "not a pixel shader".to_string());
            continue;
        }
        shaders += 1;
        let plan = match Plan::from_bytecode(&bytes) {
            Ok(p) => p,
            Err(err) => {
                let outcome = match &err.kind {
                    ExecErrorKind::Unsupported(what) => {
                        refused += 1;
                        format!("unsupported: {what}")
                    }
                    _ => {
                        failures.push(format!("{}: compile: {err}", e.id()));
                        format!("compile error: {err}")
                    }
                };
                outcomes.insert(e.id(), corpus::expect::one_line(&outcome));
                continue;
            }
        };
        let seed = e.id().bytes().fold(0xcbf2_9ce4_8422_2325u64, |h, b| (h ^ b as u64).wrapping_mul(0x100_0000_01b3));
        let mut result = exercise(&plan, &program, seed, 0);
        let mut data = "floats";
        for (mode, what) in [(1, "small integers"), (2, "positive integers")] {
            if matches!(&result, Err(err) if matches!(err.kind, ExecErrorKind::StepLimit(_))) {
                data = what;
                result = exercise(&plan, &program, seed, mode);
            }
        }
        let outcome = match result {
            Ok(s) => {
                ran += 1;
                assert_eq!(s.ps_invocations, 16, "{}", e.id());
                let written = s.quads.iter().flatten().filter(|p| p.written).count();
                let discarded = s.quads.iter().flatten().filter(|p| p.discarded).count();
                // Every written pixel's outputs, hashed (FNV-1a over their words), so
                // that a change in any value the program computes shows.
                let mut hash = 0xcbf2_9ce4_8422_2325u64;
                for p in s.quads.iter().flatten().filter(|p| p.written) {
                    let extra = [p.depth, p.coverage_mask, p.stencil_ref].map(|w| w.unwrap_or(0));
                    for w in p.targets.iter().flatten().chain(&extra) {
                        for b in w.to_le_bytes() {
                            hash = (hash ^ u64::from(b)).wrapping_mul(0x100_0000_01b3);
                        }
                    }
                }
                format!("ran on {data}: {written} pixels written, {discarded} discarded, outputs {hash:016x}")
            }
            Err(err) => {
                failures.push(format!("{}: run: {err}", e.id()));
                corpus::expect::one_line(&format!("run error on {data}: {err}"))
            }
        };
        outcomes.insert(e.id(), outcome);
    }
    println!("pixel_corpus: {shaders} pixel shaders, {ran} ran, {refused} refused");
    assert!(failures.is_empty(), "{} failures:\n{}", failures.len(), failures.join("\n"));
    corpus::expect::check(corpus::expect_file!("pixel_corpus.txt"), &outcomes);
}

/// Corrupted programs (random token changes in the corpus's pixel shaders) either fail
/// to decode or compile, or compile and shade a quad to an end or an error — never a
/// panic, never a hang.
#[test]
fn mutated_corpus_pixel_programs_never_panic() {
    let Some(entries) = corpus::dxbc_entries("exec::pixel_corpus (mutations)") else { return };
    let mut rng = Rng(0x5eed_c0de_0000_0002);
    let (mut tried, mut compiled, mut ran, mut errors) = (0, 0, 0, 0);
    for e in &entries {
        let bytes = e.bytes();
        let Ok(container) = dxbc::Container::parse(&bytes) else { continue };
        let Some(chunk) = container.chunk_any(&[dxbc::FourCc::SHEX, dxbc::FourCc::SHDR]) else { continue };
        let Ok(program) = tpf::decode(chunk.data) else { continue };
        if program.version.ty != ProgramType::Pixel {
            continue;
        }
        let words: Vec<u32> = chunk.data.chunks_exact(4).map(|c| u32::from_le_bytes(c.try_into().unwrap())).collect();
        for _ in 0..std::env::var("MUTATIONS").ok().and_then(|s| s.parse().ok()).unwrap_or(8) {
            let mut w = words.clone();
            for _ in 0..1 + rng.below(3) {
                let at = 2 + rng.below(w.len().saturating_sub(2).max(1));
                if at >= w.len() {
                    continue;
                }
                w[at] = match rng.below(3) {
                    0 => w[at] ^ (1 << rng.below(32)),
                    1 => rng.next_u64() as u32,
                    _ => w[at].wrapping_add(1 + rng.below(8) as u32),
                };
            }
            let bytes: Vec<u8> = w.iter().flat_map(|t| t.to_le_bytes()).collect();
            tried += 1;
            let Ok(p) = tpf::decode(&bytes) else { continue };
            let Ok(plan) = Plan::compile(&p, Vec::new(), Vec::new()) else { continue };
            compiled += 1;
            // Fixed memory (the declarations may be anything): constant buffers and raw
            // views in the first slots; other kinds read 0.
            let cb = vec![[0x3f80_0000u32, 1, 2, 0xffff_ffff]; 64];
            let srv = vec![7u8; 4096];
            let mut res = exec::Resources::default();
            for slot in res.constant_buffers.iter_mut() {
                *slot = Some(&cb);
            }
            res.srvs = (0..8).map(|_| Some(exec::resources::Srv::Raw { data: &srv })).collect();
            let attrs = vec![[0x3f00_0000u32, 3, 0xbf80_0000, 0]; 40];
            let p = |covered| QuadPixel { covered, inputs: &attrs, z: 0.5, w: 1.0 };
            let quad = Quad { x: 0, y: 0, front_face: true, pixels: [p(true), p(true), p(false), p(true)] };
            match pixel::shade(&plan, &[quad], &mut res, &Limits { step_limit: 20_000 }) {
                Ok(_) => ran += 1,
                Err(_) => errors += 1,
            }
        }
    }
    println!("mutated pixel shaders: {tried} tried, {compiled} compiled, {ran} ran, {errors} errors");
    assert!(compiled > 0 || tried == 0);
}
