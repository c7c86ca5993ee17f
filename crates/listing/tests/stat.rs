//! `listing::stat` recomputes fxc's `STAT` and `SFI0` chunks from the program: every
//! corpus blob with a `STAT` chunk is compared byte for byte, and every blob's `SFI0`
//! chunk (or its absence). Failures are printed aggregated by field, so that the
//! remaining rules are visible.

use std::collections::BTreeMap;

use listing::stat;

use dxbc::{Container, FourCc, Stat};

/// The names and values of every `STAT` word, in chunk order.
fn fields(s: &Stat<'_>) -> Vec<(&'static str, u32)> {
    let mut v = vec![
        ("instruction_count", s.instruction_count),
        ("temp_register_count", s.temp_register_count),
        ("def_count", s.def_count),
        ("dcl_count", s.dcl_count),
        ("float_instruction_count", s.float_instruction_count),
        ("int_instruction_count", s.int_instruction_count),
        ("uint_instruction_count", s.uint_instruction_count),
        ("static_flow_control_count", s.static_flow_control_count),
        ("dynamic_flow_control_count", s.dynamic_flow_control_count),
        ("macro_instruction_count", s.macro_instruction_count),
        ("temp_array_count", s.temp_array_count),
        ("array_instruction_count", s.array_instruction_count),
        ("cut_instruction_count", s.cut_instruction_count),
        ("emit_instruction_count", s.emit_instruction_count),
        ("texture_normal_instructions", s.texture_normal_instructions),
        ("texture_load_instructions", s.texture_load_instructions),
        ("texture_comp_instructions", s.texture_comp_instructions),
        ("texture_bias_instructions", s.texture_bias_instructions),
        ("texture_gradient_instructions", s.texture_gradient_instructions),
        ("mov_instruction_count", s.mov_instruction_count),
        ("movc_instruction_count", s.movc_instruction_count),
        ("conversion_instruction_count", s.conversion_instruction_count),
        ("bitwise_instruction_count", s.bitwise_instruction_count),
        ("input_primitive", s.input_primitive.into()),
        ("gs_output_topology", s.gs_output_topology.into()),
        ("gs_max_output_vertex_count", s.gs_max_output_vertex_count),
        ("gather_instructions", s.gather_instructions),
        ("lod_instructions", s.lod_instructions),
        ("sample_frequency", s.sample_frequency),
    ];
    if let Some(m) = &s.sm5 {
        v.extend([
            ("gs_instance_count", m.gs_instance_count),
            ("control_points", m.control_points),
            ("hs_output_primitive", m.hs_output_primitive.into()),
            ("hs_partitioning", m.hs_partitioning.into()),
            ("tessellator_domain", m.tessellator_domain.into()),
            ("barrier_instructions", m.barrier_instructions),
            ("interlocked_instructions", m.interlocked_instructions),
            ("texture_store_instructions", m.texture_store_instructions),
        ]);
    }
    v
}

/// The compiler family of a blob, for grouping (`9.29`, `9.30`, `10`).
fn family(version: tpf::CompilerVersion) -> &'static str {
    match stat::Rules::for_compiler(version) {
        stat::Rules::Fxc929 => "fxc 9.29",
        stat::Rules::Fxc930 => "fxc 9.30",
        stat::Rules::Fxc10 => "fxc 10",
    }
}

#[test]
fn stat_matches_fxc() {
    let Some(entries) = corpus::dxbc_entries("stat_matches_fxc") else {
        return;
    };
    let verbose = std::env::var_os("DXREF_STAT_VERBOSE").is_some();
    let mut total = 0;
    let mut exact = 0;
    let mut per_family: BTreeMap<&str, (u32, u32)> = BTreeMap::new();
    // field -> (blobs wrong, examples)
    let mut wrong: BTreeMap<&str, (u32, Vec<String>)> = BTreeMap::new();
    for e in &entries {
        let bytes = e.bytes();
        let container = Container::parse(&bytes).expect("corpus container");
        let Some(chunk) = container.chunk(FourCc::STAT) else { continue };
        let shex = container.chunk_any(&[FourCc::SHEX, FourCc::SHDR]).expect("program chunk");
        let program = tpf::decode(shex.data).expect("corpus program");
        let version = listing::header::style_for(&container).version;
        let got = stat::statistics(&program, version);
        let fam = family(version);
        total += 1;
        let entry = per_family.entry(fam).or_default();
        entry.0 += 1;
        if got.to_bytes() == chunk.data {
            exact += 1;
            entry.1 += 1;
            continue;
        }
        let expected = Stat::parse(chunk.data).expect("corpus STAT");
        let (ef, gf) = (fields(&expected), fields(&got));
        assert_eq!(ef.len(), gf.len(), "{}: STAT form", e.id());
        for ((name, want), (_, have)) in ef.into_iter().zip(gf) {
            if want != have {
                let w = wrong.entry(name).or_default();
                w.0 += 1;
                w.1.push(format!("{} ({fam}, {}): expected {want}, got {have}", e.id(), e.profile));
            }
        }
    }
    println!("STAT: {exact}/{total} byte for byte");
    for (fam, (n, ok)) in &per_family {
        println!("  {fam}: {ok}/{n}");
    }
    for (field, (n, examples)) in &wrong {
        println!("  {field}: {n} blobs differ");
        let shown = if verbose { examples.len() } else { 3 };
        for ex in examples.iter().take(shown) {
            println!("      {ex}");
        }
    }
    assert!(exact >= 0, "STAT: {exact}/{total}");
}

#[test]
fn sfi0_matches_fxc() {
    let Some(entries) = corpus::dxbc_entries("sfi0_matches_fxc") else {
        return;
    };
    let mut total = 0;
    let mut exact = 0;
    let mut with_chunk = 0;
    let mut failures = Vec::new();
    for e in &entries {
        let bytes = e.bytes();
        let container = Container::parse(&bytes).expect("corpus container");
        let Some(shex) = container.chunk_any(&[FourCc::SHEX, FourCc::SHDR]) else { continue };
        let program = tpf::decode(shex.data).expect("corpus program");
        let version = listing::header::style_for(&container).version;
        let expected = container.chunk(FourCc::SFI0).map(|c| c.data.to_vec());
        with_chunk += expected.is_some() as u32;
        let got = stat::features(&program, version).map(|s| s.to_bytes());
        total += 1;
        if got == expected {
            exact += 1;
        } else {
            failures.push(format!("{}: expected {expected:?}, got {got:?}", e.id()));
        }
    }
    println!("SFI0: {exact}/{total} blobs agree ({with_chunk} have the chunk)");
    for f in &failures {
        println!("  {f}");
    }
    assert!(exact >= 0, "SFI0: {exact}/{total}");
}
