//! Geometry shaders as native SPIR-V geometry shaders ([`translate::geometry_spirv`]):
//! every corpus geometry shader, with transform feedback of every output element
//! (stream `s` to buffer `s`) and without stream output, and the two workloads of the
//! geometry-shader benchmarks with theirs, must pass `spirv-val --target-env
//! vulkan1.1`. Each outcome is a line of `tests/expect/gs_native.txt` (`ok`, the
//! error's code, or spirv-val's first line). Corrupted geometry shaders never panic.
//! The GLSL forms ([`translate::geometry_glsl`], Vulkan and desktop OpenGL) of the
//! same shaders must pass `glslangValidator` (`tests/expect/gs_native_glsl.txt`).
//! `tests/lavapipe_gs_native.rs` runs both on lavapipe.

mod common;

#[path = "support/glslang.rs"]
mod glslang;
#[path = "support/gs_shaders.rs"]
mod gs_shaders;

use std::collections::BTreeMap;

use translate::{NativeGsOptions, Target};

fn options(so: Option<streamout::StreamOutputDesc>) -> NativeGsOptions {
    NativeGsOptions { gs: translate::Options::default(), stream_output: so }
}

fn outcome(result: Result<Vec<u8>, translate::TranslateError>, val: &dyn Fn(&[u8]) -> Result<(), String>) -> String {
    match result {
        Err(e) => common::outcome(&e),
        Ok(spirv) => match val(&spirv) {
            Ok(()) => "ok".into(),
            Err(message) => format!("spirv-val: {}", corpus::expect::one_line(&message)),
        },
    }
}

#[test]
fn native_geometry_shaders_pass_spirv_val() {
    let Some(val) = common::spirv_val_with("gs_native", &["--target-env", "vulkan1.1"]) else { return };
    let mut got = BTreeMap::new();
    let quad = gs_shaders::so_decl("SV_Position.xyzw", &[16], 0);
    let cube = gs_shaders::so_decl("SV_Position.xyzw; FACE.x", &[20], 0);
    got.insert(
        "workload/quad".to_string(),
        outcome(translate::geometry_spirv(&gs_shaders::quad_gs(), &options(Some(quad))), &val),
    );
    got.insert(
        "workload/cube".to_string(),
        outcome(translate::geometry_spirv(&gs_shaders::cube_gs(), &options(Some(cube))), &val),
    );
    if let Some(entries) = corpus::dxbc_entries("gs_native") {
        let shaders = gs_shaders::corpus_geometry_shaders(&entries);
        for (id, bytes, _) in shaders {
            let so = gs_shaders::every_output(&bytes);
            got.insert(format!("{id}:xfb"), outcome(translate::geometry_spirv(&bytes, &options(so)), &val));
            got.insert(format!("{id}:plain"), outcome(translate::geometry_spirv(&bytes, &options(None)), &val));
        }
    }
    corpus::expect::check(corpus::expect_file!("gs_native.txt"), &got);
}

fn glsl_outcome(
    result: Result<String, translate::TranslateError>,
    flavor: translate::GlslFlavor,
    val: &dyn Fn(&[u8]) -> Result<(), String>,
) -> String {
    let vulkan = flavor == translate::GlslFlavor::Vulkan;
    match result {
        Err(e) => common::outcome(&e),
        Ok(text) => match glslang::geometry(&text, vulkan) {
            Ok(spirv) if vulkan => match val(&spirv) {
                Ok(()) => "ok".into(),
                Err(message) => format!("spirv-val: {}", corpus::expect::one_line(&message)),
            },
            Ok(_) => "ok".into(),
            Err(message) => format!("glslang: {}", corpus::expect::one_line(&message)),
        },
    }
}

/// The GLSL forms ([`translate::geometry_glsl`]) of the same shaders: the Vulkan form
/// must compile with `glslangValidator -V --target-env vulkan1.1 -S geom` (and its
/// SPIR-V pass `spirv-val --target-env vulkan1.1`), the desktop OpenGL form must pass
/// `glslangValidator -S geom`. Outcomes in
/// `tests/expect/gs_native_glsl.txt` (`ok`, the error's code, or glslang's first error).
#[test]
fn native_glsl_geometry_shaders_pass_glslang() {
    if !glslang::available_or_skip("gs_native glsl") {
        return;
    }
    let Some(val) = common::spirv_val_with("gs_native glsl", &["--target-env", "vulkan1.1"]) else { return };
    let mut got = BTreeMap::new();
    let mut add = |id: &str, bytes: &[u8], so: Option<streamout::StreamOutputDesc>| {
        for (flavor, name) in [(translate::GlslFlavor::Vulkan, "vulkan"), (translate::GlslFlavor::Desktop, "gl")] {
            let text = translate::geometry_glsl(bytes, &options(so.clone()), flavor);
            got.insert(format!("{id}:{name}"), glsl_outcome(text, flavor, &val));
        }
    };
    add("workload/quad", &gs_shaders::quad_gs(), Some(gs_shaders::so_decl("SV_Position.xyzw", &[16], 0)));
    add("workload/cube", &gs_shaders::cube_gs(), Some(gs_shaders::so_decl("SV_Position.xyzw; FACE.x", &[20], 0)));
    if let Some(entries) = corpus::dxbc_entries("gs_native glsl") {
        let shaders = gs_shaders::corpus_geometry_shaders(&entries);
        for (id, bytes, _) in shaders {
            add(&format!("{id}:xfb"), &bytes, gs_shaders::every_output(&bytes));
            add(&format!("{id}:plain"), &bytes, None);
        }
    }
    corpus::expect::check(corpus::expect_file!("gs_native_glsl.txt"), &got);
}

#[test]
fn the_quad_workload_in_glsl_has_its_layout_emits_and_transform_feedback() {
    let so = gs_shaders::so_decl("SV_Position.xyzw", &[16], 0);
    let text =
        translate::geometry_glsl(&gs_shaders::quad_gs(), &options(Some(so)), translate::GlslFlavor::Vulkan).unwrap();
    for line in [
        "layout(points) in;",
        "layout(triangle_strip, max_vertices = 4) out;",
        "    EmitVertex();",
        "    EndPrimitive();",
        "    gl_Position = dx_go_pos;",
    ] {
        assert!(text.lines().any(|l| l == line), "no `{line}` in\n{text}");
    }
    assert!(!text.contains("local_size"), "{text}");
    let xfb: Vec<&str> = text.lines().filter(|l| l.contains("xfb_buffer")).collect();
    assert_eq!(xfb.len(), 1, "{text}");
    assert!(xfb[0].starts_with("layout(location = 0, xfb_buffer = 0, xfb_stride = 16, xfb_offset = 0) out vec4 "));
    // Without stream output, no transform-feedback qualifier.
    let plain =
        translate::geometry_glsl(&gs_shaders::quad_gs(), &options(None), translate::GlslFlavor::Vulkan).unwrap();
    assert!(!plain.contains("xfb_"));
    // The desktop form takes depth from OpenGL's clip space and back.
    let gl = translate::geometry_glsl(&gs_shaders::quad_gs(), &options(None), translate::GlslFlavor::Desktop).unwrap();
    assert!(gl.contains("gl_Position.z = dx_go_pos.z * 2.0 - dx_go_pos.w;"), "{gl}");
}

/// Reads the words of SPIR-V bytes.
fn words(bytes: &[u8]) -> Vec<u32> {
    bytes.chunks_exact(4).map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]])).collect()
}

/// Each instruction's opcode and operands.
fn instructions(w: &[u32]) -> Vec<(u32, Vec<u32>)> {
    let mut out = Vec::new();
    let mut at = 5;
    while at < w.len() {
        let n = (w[at] >> 16) as usize;
        out.push((w[at] & 0xffff, w[at + 1..at + n].to_vec()));
        at += n;
    }
    out
}

#[test]
fn the_quad_workload_is_a_geometry_entry_point_with_its_modes() {
    let so = gs_shaders::so_decl("SV_Position.xyzw", &[16], 0);
    let spirv = translate::geometry_spirv(&gs_shaders::quad_gs(), &options(Some(so))).unwrap();
    let insts = instructions(&words(&spirv));
    let entry = insts.iter().find(|(op, _)| *op == 15).unwrap();
    assert_eq!(entry.1[0], 3, "execution model Geometry");
    let modes: Vec<Vec<u32>> = insts.iter().filter(|(op, _)| *op == 16).map(|(_, o)| o[1..].to_vec()).collect();
    // Invocations 1, InputPoints, OutputVertices 4, OutputTriangleStrip, Xfb.
    for m in [vec![0, 1], vec![19], vec![26, 4], vec![29], vec![11]] {
        assert!(modes.contains(&m), "{m:?} not in {modes:?}");
    }
    let capabilities: Vec<u32> = insts.iter().filter(|(op, _)| *op == 17).map(|(_, o)| o[0]).collect();
    assert!(capabilities.contains(&2) && capabilities.contains(&53), "{capabilities:?}");
    // Four emits and a cut; no function is left calling a marker.
    let count = |op: u32| insts.iter().filter(|(o, _)| *o == op).count();
    assert_eq!((count(218), count(219)), (1, 1), "dx_emit and dx_cut each emit once");
    // Transform feedback: buffer 0, stride 16, offset 0 on one output.
    let decorations: Vec<Vec<u32>> = insts.iter().filter(|(op, _)| *op == 71).map(|(_, o)| o.clone()).collect();
    let captured: Vec<u32> = decorations.iter().filter(|d| d[1] == 36 && d[2] == 0).map(|d| d[0]).collect();
    assert_eq!(captured.len(), 1);
    assert!(decorations.contains(&vec![captured[0], 37, 16]));
    assert!(decorations.contains(&vec![captured[0], 35, 0]));
}

#[test]
fn translate_writes_a_geometry_shader_as_native_spirv_or_glsl_only() {
    let gs = gs_shaders::quad_gs();
    let spirv = translate::translate(&gs, &translate::Options::default(), Target::Spirv).unwrap();
    assert_eq!(instructions(&words(&spirv)).iter().find(|(op, _)| *op == 15).unwrap().1[0], 3);
    let glsl = translate::translate(&gs, &translate::Options::default(), Target::Glsl).unwrap();
    assert!(String::from_utf8(glsl).unwrap().contains("layout(points) in;"));
    for target in [Target::Wgsl, Target::Msl, Target::Hlsl] {
        let e = translate::translate(&gs, &translate::Options::default(), target).unwrap_err();
        assert_eq!(e.code(), "stage", "{target:?}");
    }
    let vs = gs_shaders::passthrough_position_vs();
    let e = translate::geometry_spirv(&vs, &options(None)).unwrap_err();
    assert_eq!(e.code(), "stage");
    // A stream-output declaration naming what the shader does not write.
    let so = gs_shaders::so_decl("TEXCOORD5.xy", &[8], 0);
    let e = translate::geometry_spirv(&gs, &options(Some(so))).unwrap_err();
    assert_eq!(e.code(), "pipeline");
}

#[test]
fn corrupted_geometry_shaders_give_errors_not_panics() {
    let Some(entries) = corpus::dxbc_entries("gs_native::corrupted") else { return };
    let mut rng = corpus::Rng(0x6e61_7469_7665_6773);
    let (mut tried, mut written) = (0, 0);
    for (id, bytes, _) in gs_shaders::corpus_geometry_shaders(&entries) {
        let Ok(container) = dxbc::Container::parse(&bytes) else { continue };
        let Some(chunk) = container.chunk_any(&[dxbc::FourCc::SHEX, dxbc::FourCc::SHDR]) else { continue };
        let (start, len) = (chunk.data_offset(), chunk.data.len());
        let so = gs_shaders::every_output(&bytes);
        for _ in 0..48 {
            let mutated = common::mutated(&bytes, (start, len), &mut rng);
            tried += 1;
            let result = std::panic::catch_unwind(|| translate::geometry_spirv(&mutated, &options(so.clone())));
            match result {
                Ok(Ok(_)) => written += 1,
                Ok(Err(_)) => {}
                Err(_) => panic!("{id}: a mutation panicked: {:02x?}", &mutated[start..start + len]),
            }
            let glsl = std::panic::catch_unwind(|| {
                translate::geometry_glsl(&mutated, &options(so.clone()), translate::GlslFlavor::Vulkan)
            });
            assert!(glsl.is_ok(), "{id}: a mutation panicked in GLSL: {:02x?}", &mutated[start..start + len]);
        }
    }
    println!("gs_native: {written} of {tried} mutated geometry shaders written");
    assert!(tried > 0);
}
