//! Resources and flow control in the translated code: constant buffers indexed by a
//! register, raw and structured addressing (buffers and thread-group shared memory),
//! atomics, the switch's case labels, and the errors that name the instruction.

use translate::{Options, TranslateError};

fn source(text: &str) -> Result<String, TranslateError> {
    let p = tpf::parse::parse_program(text).unwrap_or_else(|d| panic!("{d:?}\n{text}")).program;
    translate::module_from_program(&p, &[], &[], &Options::default())?;
    translate::wgsl_source_of_program(&p, &[], &[], &Options::default())
}

fn cs(decls: &str, body: &str) -> String {
    format!("cs_5_0\n{decls}\ndcl_temps 2\ndcl_thread_group 4, 1, 1\n{body}\nret \n")
}

#[test]
fn constant_buffers_are_uniform_arrays_indexed_by_registers() {
    let s = source(
        "vs_4_0\ndcl_constantbuffer cb2[8], dynamicIndexed\ndcl_input v0.xyzw\ndcl_output_siv o0.xyzw, position\n\
         dcl_temps 1\nftou r0.x, v0.x\nmov o0.xyzw, cb2[r0.x + 3].xyzw\nret \n",
    )
    .unwrap();
    assert!(s.contains("@group(0) @binding(2) var<uniform> cb2: array<vec4<u32>, 8>;"), "{s}");
    assert!(s.contains("cb2[(r0.xxxx.x + 3u)]"), "{s}");
}

#[test]
fn structured_shared_memory_is_addressed_by_its_stride() {
    let s = source(&cs(
        "dcl_tgsm_structured g0, 16, 4\ndcl_uav_raw u0",
        "ld_structured r0.xyzw, vThreadIDInGroupFlattened.x, l(8), g0.xyzw\nstore_raw u0.xy, l(0), r0.xyxx",
    ))
    .unwrap();
    assert!(s.contains("var<workgroup> g0: array<u32, 16>;"), "16-byte structures times 4: {s}");
    assert!(s.contains("g0[(q0.x * 4u + (q1.x >> 2u)) + 1u]"), "{s}");
    assert!(s.contains("u0[(q0.x >> 2u) + 0u] = q1.x;") && s.contains("u0[(q0.x >> 2u) + 1u] = q1.y;"), "{s}");
    assert!(!s.contains("+ 2u] = "), "the write mask stops at y: {s}");
}

#[test]
fn atomics_make_the_memory_atomic() {
    let s = source(&cs(
        "dcl_tgsm_raw g0, 64\ndcl_uav_raw u0",
        "atomic_iadd g0, l(4), l(1)\nimm_atomic_imax r0.x, u0, l(0), vThreadID.x\nstore_raw u0.x, l(8), r0.x",
    ))
    .unwrap();
    assert!(s.contains("var<workgroup> g0: array<atomic<u32>, 16>;"), "{s}");
    assert!(s.contains("array<atomic<i32>>"), "imax: signed atomics: {s}");
    assert!(s.contains("atomicMax(&u0[(q0.x >> 2u)], bitcast<i32>(q1.x))"), "{s}");
    assert!(s.contains("atomicStore(&u0["), "plain stores to atomic memory: {s}");
}

#[test]
fn case_labels_without_code_share_a_body_and_a_default_is_added() {
    let s = source(
        "ps_4_0\ndcl_input_ps constant v0.x\ndcl_output o0.xyzw\ndcl_temps 1\nswitch v0.x\ncase l(1)\ncase l(2)\n\
         mov r0.xyzw, l(1,1,1,1)\nbreak\ncase l(3)\nmov r0.xyzw, l(0,0,0,0)\nbreak\nendswitch\nmov o0.xyzw, r0.xyzw\nret \n",
    )
    .unwrap();
    assert!(s.contains("case 1, 2: {"), "{s}");
    assert!(s.contains("case 3: {"), "{s}");
    assert!(s.contains("case default: {}"), "{s}");
}

#[test]
fn a_case_falling_through_after_code_is_refused_naming_it() {
    let e = source(
        "ps_4_0\ndcl_input_ps constant v0.x\ndcl_output o0.xyzw\ndcl_temps 1\nswitch v0.x\ncase l(1)\n\
         mov r0.xyzw, l(1,1,1,1)\ncase l(3)\nmov r0.xyzw, l(0,0,0,0)\nbreak\nendswitch\nmov o0.xyzw, r0.xyzw\nret \n",
    )
    .unwrap_err();
    assert_eq!((e.code(), e.mnemonic()), ("unsupported", Some("case")), "{e}");
    assert!(e.to_string().starts_with("instruction 6 (case)"), "{e}");
}

#[test]
fn what_is_not_translated_names_the_instruction() {
    let e = source(
        "ps_5_0\ndcl_input_ps linear v0.xyzw\ndcl_output o0.xyzw\ndcl_temps 1\neval_centroid r0.xyzw, v0.xyzw\n\
         mov o0.xyzw, r0.xyzw\nret \n",
    );
    let e = e.unwrap_err();
    assert_eq!((e.code(), e.mnemonic()), ("unsupported", Some("eval_centroid")), "{e}");
    // A program whose `if` is never closed (the parser would refuse the text).
    let text = "vs_4_0\ndcl_output_siv o0.xyzw, position\nif_nz l(1)\nret \nendif \n";
    let mut p = tpf::parse::parse_program(text).unwrap().program;
    p.instructions.pop();
    let e = translate::module_from_program(&p, &[], &[], &Options::default()).unwrap_err();
    assert_eq!(e.code(), "structure", "{e}");
}

#[test]
fn declarations_beyond_the_limits_are_refused_before_any_source_is_written() {
    for (decl, what) in [
        ("dcl_temps 4000000000", "more than 4096 temps"),
        ("dcl_indexableTemp x0[5000], 4", "indexable temp"),
        ("dcl_tgsm_raw g0, 65536", "32 KiB"),
        ("dcl_tgsm_structured g0, 16, 100000", "32 KiB"),
    ] {
        let text = format!("cs_5_0\n{decl}\ndcl_thread_group 1, 1, 1\nret \n");
        let e = source(&text).unwrap_err();
        assert_eq!(e.code(), "unsupported", "{decl}: {e}");
        assert!(e.to_string().contains(what), "{decl}: {e}");
    }
}

/// Blocks nest as deep as a runtime accepts (64, the functional spec's flow-control
/// nesting limit) and no deeper: a deeper program is refused at the block that goes
/// past the limit, before its text is written.
#[test]
fn blocks_nest_up_to_the_runtime_limit() {
    let nested = |depth: usize| {
        let mut text = String::from("vs_4_0\ndcl_input v0.x\ndcl_output o0.xyzw\n");
        for _ in 0..depth {
            text.push_str("loop \nbreakc_z v0.x\n");
        }
        text.push_str("mov o0.xyzw, v0.xxxx\n");
        for _ in 0..depth {
            text.push_str("break \nendloop \n");
        }
        text.push_str("ret \n");
        tpf::parse::parse_program(&text).unwrap_or_else(|d| panic!("{d:?}")).program
    };
    let limit = translate::limits::MAX_BLOCK_DEPTH;
    translate::module_from_program(&nested(limit), &[], &[], &translate::Options::default()).unwrap();
    let e = translate::module_from_program(&nested(limit + 1), &[], &[], &translate::Options::default()).unwrap_err();
    assert_eq!((e.code(), e.mnemonic()), ("structure", Some("loop")), "{e}");
    assert!(e.to_string().contains(&format!("instruction {} (loop)", 2 + 2 * limit)), "{e}");
    // Far deeper programs are refused as quickly.
    let e = translate::module_from_program(&nested(20_000), &[], &[], &translate::Options::default()).unwrap_err();
    assert_eq!(e.code(), "structure", "{e}");
}
