//! Shader Model 5.1's register ranges: a range of one register in space 0 is that
//! register (bound where the register is, whatever the range's ID), a constant
//! buffer's element is its operand's third index; larger ranges (arrays of bindings),
//! other spaces and operands outside their range are refused. The SPIR-V passes
//! `spirv-val`.

mod common;

use translate::{Options, Target, TranslateError};

fn translated(text: &str) -> Result<String, TranslateError> {
    let p = tpf::parse::parse_program(text).unwrap_or_else(|d| panic!("{d:?}\n{text}")).program;
    let m = translate::module_from_program(&p, &[], &[], &Options::default())?;
    if let Some(val) = common::spirv_val("shader_model_5_1") {
        let spirv = translate::write(&m, Target::Spirv).unwrap();
        val(&spirv).unwrap_or_else(|e| panic!("spirv-val: {e}\n{text}"));
    }
    translate::wgsl_source_of_program(&p, &[], &[], &Options::default())
}

fn ps(decls: &str, body: &str) -> String {
    format!("ps_5_1\n{decls}\ndcl_input_ps linear v0.xy\ndcl_output o0.xyzw\ndcl_temps 1\n{body}\nret \n")
}

#[test]
fn a_range_of_one_register_is_bound_at_that_register() {
    let s = translated(&ps(
        "dcl_constantbuffer CB1[3:3][4], immediateIndexed, space=0\ndcl_sampler S0[2:2], mode_default, space=0\n\
         dcl_resource_texture2d (float,float,float,float) T2[5:5], space=0",
        "sample r0.xyzw, v0.xyxx, T2[5].xyzw, S0[2]\nmul o0.xyzw, r0.xyzw, CB1[3][2].xyzw",
    ))
    .unwrap();
    assert!(s.contains("@group(0) @binding(3) var<uniform> cb1: array<vec4<u32>, 4>;"), "{s}");
    assert!(s.contains("@group(2) @binding(2) var s0: sampler;"), "{s}");
    assert!(s.contains("@group(1) @binding(5) var t2: texture_2d<f32>;"), "{s}");
    assert!(s.contains("cb1[2u]"), "the element is the third index: {s}");
}

#[test]
fn larger_ranges_and_other_spaces_are_refused() {
    let e =
        translated(&ps("dcl_resource_texture2d (float,float,float,float) T0[0:3], space=0", "mov o0.xyzw, l(0,0,0,0)"))
            .unwrap_err();
    assert_eq!(e.code(), "resource", "{e}");
    assert!(e.to_string().contains("more than one register"), "{e}");
    let e = translated(&ps("dcl_constantbuffer CB0[0:0][1], immediateIndexed, space=2", "mov o0.xyzw, CB0[0][0].xyzw"))
        .unwrap_err();
    assert!(e.to_string().contains("space 2"), "{e}");
    let e = translated(&ps("dcl_constantbuffer CB0[0:0][1], immediateIndexed, space=0", "mov o0.xyzw, CB0[1][0].xyzw"))
        .unwrap_err();
    assert_eq!((e.code(), e.mnemonic()), ("unsupported", Some("mov")), "{e}");
}
