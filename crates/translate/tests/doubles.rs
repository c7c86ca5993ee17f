//! Double-precision instructions: two lanes per register (`.xy`, `.zw`, low word
//! first), source modifiers on the high word's sign bit, 32-bit results scattered to
//! the components the mask names, `dmin`/`dmax` with the IEEE-754R NaN and signed-zero
//! rules, `dtoi`/`dtou` saturating. Every module validates and its SPIR-V passes
//! `spirv-val`; MSL refuses doubles with a back-end error (Metal has none); GLSL and
//! HLSL answer without panicking.

mod common;

use translate::{Options, Target};

fn translated(body: &str) -> String {
    let text = format!(
        "cs_5_0\ndcl_globalFlags enableDoublePrecisionFloatOps | enable11_1DoubleExtensions\ndcl_uav_raw u0\n\
         dcl_temps 4\ndcl_thread_group 1, 1, 1\nld_raw r0.xyzw, l(0), u0.xyzw\nld_raw r1.xyzw, l(16), u0.xyzw\n\
         {body}\nstore_raw u0.xyzw, l(32), r2.xyzw\nret \n"
    );
    let p = tpf::parse::parse_program(&text).unwrap_or_else(|d| panic!("{d:?}\n{text}")).program;
    let m = translate::module_from_program(&p, &[], &[], &Options::default()).unwrap_or_else(|e| panic!("{e}\n{text}"));
    if let Some(val) = common::spirv_val("doubles") {
        let spirv = translate::write(&m, Target::Spirv).unwrap();
        val(&spirv).unwrap_or_else(|e| panic!("spirv-val: {e}\n{text}"));
    }
    let e = translate::write(&m, Target::Msl).unwrap_err();
    assert_eq!(e.code(), "backend", "{e}");
    assert!(e.to_string().contains("double"), "{e}");
    for target in [Target::Wgsl, Target::Glsl, Target::Hlsl] {
        let _ = translate::write(&m, target);
    }
    translate::wgsl_source_of_program(&p, &[], &[], &Options::default()).unwrap()
}

#[test]
fn lanes_are_word_pairs_low_word_first() {
    let s = translated("dadd r2.zw, r0.xyxy, -r1.zwzw\ndmul r2.xy, r0.xyxy, d(2.000000, 0.0)");
    assert!(s.contains("let q1 = (r1.zwzw ^ vec4<u32>(0u, 0x80000000u, 0u, 0x80000000u));"), "{s}");
    assert!(s.contains("let d1 = (dx_d(q0.z, q0.w) + dx_d(q1.z, q1.w));"), "{s}");
    assert!(s.contains("r2.z = dx_dlo(d1);") && s.contains("r2.w = dx_dhi(d1);"), "{s}");
    assert!(!s.contains("let d0 = (dx_d(q0.x, q0.y) +"), "the mask names lane 1 only: {s}");
    // d(2.0, 0.0): 2.0 = 0x4000000000000000, low word first, then 0.0.
    assert!(s.contains("vec4<u32>(0x0u, 0x40000000u, 0x0u, 0x0u)"), "{s}");
}

#[test]
fn every_double_instruction_translates() {
    for ins in [
        "dadd r2.xyzw, r0.xyzw, r1.xyzw",
        "dmul r2.xyzw, r0.xyzw, r1.xyzw",
        "ddiv r2.xyzw, r0.xyzw, r1.xyzw",
        "dfma r2.xyzw, r0.xyzw, r1.xyzw, r0.zwxy",
        "drcp r2.xy, r0.xyxy",
        "dmin r2.xyzw, |r0.xyzw|, r1.xyzw",
        "dmax_sat r2.xyzw, r0.xyzw, r1.xyzw",
        "dmov r2.xy, r1.zwzw",
        "dmovc r2.xyzw, r3.xyxx, r0.xyzw, r1.xyzw",
        "deq r2.xy, r0.xyzw, r1.xyzw",
        "dne r2.xy, r0.xyzw, r1.xyzw",
        "dlt r2.xy, r0.xyzw, r1.xyzw",
        "dge r2.xy, r0.xyzw, r1.xyzw",
        "dtof r2.xy, r0.xyzw",
        "dtoi r2.x, r0.xyxy",
        "dtou r2.y, r0.zwzw",
        "ftod r2.xyzw, r1.xyxx",
        "itod r2.xyzw, r1.xyxx",
        "utod r2.zw, r1.xxxx",
    ] {
        translated(ins);
    }
}

#[test]
fn comparisons_and_conversions_scatter_their_two_lanes_to_the_mask() {
    let s = translated("dlt r2.yw, r0.xyzw, r1.xyzw");
    assert!(s.contains("r2.y = select(0u, 0xffffffffu, (dx_d(q0.x, q0.y) < dx_d(q1.x, q1.y)));"), "{s}");
    assert!(s.contains("r2.w = select(0u, 0xffffffffu, (dx_d(q0.z, q0.w) < dx_d(q1.z, q1.w)));"), "{s}");
    let s = translated("dtof r2.x, r0.zwzw");
    assert!(s.contains("r2.x = dx_r(f32(dx_d(q0.x, q0.y)));"), "{s}");
    let s = translated("ftod r2.zw, r1.xyxx");
    assert!(s.contains("let d1 = f64(dx_f(q0.y));"), "lane 1 reads component y: {s}");
}

#[test]
fn saturate_min_max_and_conversions_keep_the_rules() {
    let s = translated("dmax_sat r2.xy, r0.xyxy, r1.xyxy\ndtoi r2.z, r0.xyxy\ndtou r2.w, r0.xyxy");
    assert!(s.contains("let d0 = dx_dsat(dx_dmax(dx_d(q0.x, q0.y), dx_d(q1.x, q1.y)));"), "{s}");
    assert!(s.contains("r2.z = dx_dtoi(dx_d(q0.x, q0.y));") && s.contains("r2.w = dx_dtou(dx_d(q0.x, q0.y));"), "{s}");
}
