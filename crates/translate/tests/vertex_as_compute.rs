//! `Options::vertex_as_compute`: a vertex shader becomes a `@compute` entry point over
//! two storage buffers (inputs, outputs) in the documented layout; the module
//! validates, WGSL and SPIR-V are written, and `spirv-val` accepts the SPIR-V.

mod common;

use translate::{Options, Target};

fn compute_options() -> Options {
    Options { vertex_as_compute: true, ..Options::default() }
}

const VS: &str = "vs_4_0\n\
    dcl_constantbuffer cb0[2], immediateIndexed\n\
    dcl_input v0.xyzw\n\
    dcl_input v2.xy\n\
    dcl_input_sgv v3.x, vertex_id\n\
    dcl_input_sgv v4.x, instance_id\n\
    dcl_output_siv o0.xyzw, position\n\
    dcl_output o1.xyzw\n\
    dcl_output o3.xy\n\
    dcl_temps 1\n\
    mul r0.xyzw, v0.xyzw, cb0[1].xyzw\n\
    mov o0.xyzw, r0.xyzw\n\
    mov o1.xy, v2.xyxx\n\
    mov o1.z, v3.x\n\
    mov o1.w, v4.x\n\
    iadd o3.xy, v3.xxxx, l(1, 2, 0, 0)\n\
    ret \n";

#[test]
fn vertex_shader_as_compute_reads_and_writes_the_documented_layout() {
    let p = tpf::parse::parse_program(VS).expect("parses").program;
    let source = translate::wgsl_source_of_program(&p, &[], &[], &compute_options()).expect("translates");
    // Five input registers (v0..v4) and four output registers (o0..o3) per vertex.
    for line in [
        "@group(4) @binding(0) var<storage, read> dx_vin: array<vec4<u32>>;",
        "@group(4) @binding(1) var<storage, read_write> dx_vout: array<vec4<u32>>;",
        "@compute @workgroup_size(64)",
        "if dx_i >= arrayLength(&dx_vout) / 4u {",
        "v[0] = dx_vin[dx_i * 5u + 0u];",
        "v[2] = dx_vin[dx_i * 5u + 2u];",
        "v[3].x = dx_i;",
        "v[4].x = 0u;",
        "dx_vout[dx_i * 4u + 2u] = o[2];",
        "dx_vout[dx_i * 4u + 3u] = o[3];",
    ] {
        assert!(source.contains(line), "missing {line:?} in:\n{source}");
    }
    // System-value registers are not read from the buffer.
    assert!(!source.contains("dx_vin[dx_i * 5u + 3u]"), "{source}");
    assert!(!source.contains("@vertex"), "{source}");

    let m = translate::module_from_program(&p, &[], &[], &compute_options()).expect("validates");
    assert_eq!(m.entry_points.len(), 1);
    assert_eq!(m.entry_points[0].stage, naga::ShaderStage::Compute);
    assert_eq!(m.entry_points[0].workgroup_size, [translate::VERTEX_AS_COMPUTE_WORKGROUP, 1, 1]);
    let wgsl = String::from_utf8(translate::write(&m, Target::Wgsl).expect("WGSL")).expect("UTF-8");
    assert!(wgsl.contains("@compute"), "{wgsl}");
    let spirv = translate::write(&m, Target::Spirv).expect("SPIR-V");
    if let Some(val) = common::spirv_val("vertex_as_compute") {
        val(&spirv).unwrap_or_else(|e| panic!("spirv-val: {e}\n{wgsl}"));
    }

    // Without the option the same program is a vertex entry point.
    let m = translate::module_from_program(&p, &[], &[], &Options::default()).expect("validates");
    assert_eq!(m.entry_points[0].stage, naga::ShaderStage::Vertex);
}

#[test]
fn other_stages_ignore_vertex_as_compute() {
    let ps = "ps_4_0\ndcl_input_ps linear v1.xyzw\ndcl_output o0.xyzw\nmov o0.xyzw, v1.xyzw\nret \n";
    let p = tpf::parse::parse_program(ps).expect("parses").program;
    let m = translate::module_from_program(&p, &[], &[], &compute_options()).expect("validates");
    assert_eq!(m.entry_points[0].stage, naga::ShaderStage::Fragment);
}

#[test]
fn a_vertex_shader_without_inputs_or_outputs_still_translates() {
    let p = tpf::parse::parse_program("vs_4_0\nret \n").expect("parses").program;
    let m = translate::module_from_program(&p, &[], &[], &compute_options()).expect("validates");
    assert_eq!(m.entry_points[0].stage, naga::ShaderStage::Compute);
    translate::write(&m, Target::Spirv).expect("SPIR-V");
}

#[test]
fn an_unmapped_input_system_value_is_an_error_as_compute() {
    let vs = "vs_4_0\ndcl_input_siv v0.x, primitive_id\ndcl_output o0.xyzw\nmov o0.xyzw, v0.xxxx\nret \n";
    let p = tpf::parse::parse_program(vs).expect("parses").program;
    let e = translate::module_from_program(&p, &[], &[], &compute_options()).unwrap_err();
    assert_eq!(e.code(), "system-value", "{e}");
}
