//! Pull-model attribute evaluation (`eval_centroid`, `eval_sample_index`,
//! `eval_snapped`) proven on lavapipe: triangles drawn with a translated vertex shader
//! and translated pixel shaders using each instruction, compared pixel for pixel with
//! `exec`'s vertex shader (`exec::pipeline::draw`), rasterizer and pull-model
//! evaluation (`exec::raster::draw`), in both forms the translation has for them:
//! its SPIR-V (`GLSL.std.450` `InterpolateAt*`, through `spirv-val` first) and its
//! GLSL (`interpolateAt*`), compiled for Vulkan by `glslangValidator -V`.
//!
//! The draw is `tests/lavapipe_interpolation.rs`'s (the same triangles: clip w from
//! 0.25 to 5, edges through pixel centres, one clipped at the target's side, one
//! back-facing; a 32 × 32 single-sample target, here three `R32G32B32A32_FLOAT` ones)
//! with five attribute registers and the position last, and so is the bound: every
//! component within 2⁻¹⁶ · (1 + |value|), the evaluations of constant inputs exact.
//! Single-sample, `eval_centroid` and `eval_sample_index` of sample 0 evaluate at the
//! pixel centre, `eval_snapped` at the centre moved by its offset's sixteenths of a
//! pixel (D3D11.3 functional spec 16.5 "Pull Model Attribute Evaluation"), outside the
//! triangle too (extrapolated) near its edges; an offset of ±1/2 pixel moving a
//! perspective value off the plane evaluation's centre makes the largest differences.
//!
//! The corpus's `hlslcc/ps5__evaluateAttrib` is drawn the same way (its `o0` from
//! `eval_centroid` and `o2` from `eval_snapped` compared; its `o1` evaluates sample 2 of
//! a single-sample target, which Direct3D leaves undefined, 16.5.2).
//!
//! Without a lavapipe adapter, `spirv-val` or `glslangValidator` the test prints SKIP
//! and passes, unless `DXREF_REQUIRE_CORPUS=1`.

mod common;

use translate::{Options, Target, TranslateError};

#[path = "support/lavapipe.rs"]
mod lavapipe;
#[path = "support/triangles.rs"]
mod triangles;
use lavapipe::{one_lavapipe_thread, Gpu};
use triangles::{assembled, compare, Tally};

/// Attribute registers (`v0`–`v4`); the position is the register after them.
const ATTRIBUTES: usize = 5;
/// Render targets.
const TARGETS: usize = 3;

const VS: &str = "vs_4_0
dcl_input v0.xyzw
dcl_input v1.xyzw
dcl_input v2.xyzw
dcl_input v3.xyzw
dcl_input v4.xyzw
dcl_input v5.xyzw
dcl_output o0.xyzw
dcl_output o1.xyzw
dcl_output o2.xyzw
dcl_output o3.xyzw
dcl_output o4.xyzw
dcl_output_siv o5.xyzw, position
mov o0.xyzw, v0.xyzw
mul o1.xyzw, v1.xyzw, l(2.000000, 2.000000, 2.000000, 2.000000)
mov o2.xyzw, v2.xyzw
mov o3.xyzw, v3.xyzw
mov o4.xyzw, v4.xyzw
mov o5.xyzw, v5.xyzw
ret
";

/// A pixel shader: its name, its listing, the (target, component)s that must be exact.
type Shader = (&'static str, &'static str, &'static [(usize, usize)]);

const ALL_OF_O2: &[(usize, usize)] = &[(2, 0), (2, 1), (2, 2), (2, 3)];

/// The hand-written pixel shaders.
const PIXEL_SHADERS: [Shader; 4] = [
    (
        "eval_centroid of linear, noperspective centroid and sample inputs",
        "ps_5_0
dcl_input_ps linear v0.xyzw
dcl_input_ps linear noperspective centroid v1.xyzw
dcl_input_ps linear sample v2.xyzw
dcl_output o0.xyzw
dcl_output o1.xyzw
dcl_output o2.xyzw
eval_centroid o0.xyzw, v0.xyzw
eval_centroid o1.xyzw, v1.wzyx
eval_centroid o2.xyzw, -v2.xyzw
ret
",
        &[],
    ),
    (
        "eval_sample_index with a literal and a register index, of a constant input too",
        "ps_5_0
dcl_input_ps linear v0.xyzw
dcl_input_ps linear noperspective v1.xyzw
dcl_input_ps constant v3.xyzw
dcl_output o0.xyzw
dcl_output o1.xyzw
dcl_output o2.xyzw
dcl_temps 1
eval_sample_index o0.xyzw, v0.xyzw, l(0)
and r0.x, v3.x, l(0)
eval_sample_index o1.xyzw, v1.yxwz, r0.x
eval_sample_index o2.xyzw, v3.xyzw, r0.x
ret
",
        ALL_OF_O2,
    ),
    (
        "eval_snapped at literal and register offsets, negative ones, high bits ignored",
        "ps_5_0
dcl_input_ps linear noperspective v0.xyzw
dcl_input_ps linear noperspective centroid v2.xyzw
dcl_input_ps linear noperspective v4.xyzw
dcl_output o0.xyzw
dcl_output o1.xyzw
dcl_output o2.xyzw
dcl_temps 1
eval_snapped o0.xyzw, v0.xyzw, l(-8, 7, 0, 0)
mov r0.xy, l(19, -3, 0, 0)
eval_snapped o1.xyzw, v4.xyzw, r0.xyxx
eval_snapped o2.xy, v2.xyxx, r0.yxxx
eval_snapped_sat o2.zw, v0.zzzw, l(-4, -8, 0, 0)
ret
",
        &[],
    ),
    (
        "the three of one input, a register's value as the offset and index",
        "ps_5_0
dcl_input_ps linear noperspective sample v1.xyzw
dcl_input_ps constant v3.xyzw
dcl_output o0.xyzw
dcl_output o1.xyzw
dcl_output o2.xyzw
dcl_temps 2
ftoi r0.xy, v3.xyxx
eval_snapped r1.xyzw, v1.xyzw, r0.xyxx
mov o0.xyzw, r1.xyzw
eval_centroid r1.xyzw, v1.yzwx
add o1.xyzw, r1.xyzw, l(1.000000, 1.000000, 1.000000, 1.000000)
and r0.x, r0.x, l(0)
eval_sample_index o2.xyzw, |v1.xyzw|, r0.x
ret
",
        &[],
    ),
];

/// `eval_snapped` of a perspective input: drawn on lavapipe with [`VS`].
const PERSPECTIVE_SNAPPED: &str = "ps_5_0
dcl_input_ps linear v0.xyzw
dcl_output o0.xyzw
dcl_output o1.xyzw
dcl_output o2.xyzw
eval_snapped o0.xyzw, v0.xyzw, l(-8, 7, 0, 0)
eval_snapped o1.xyzw, v0.xyzw, l(19, -3, 0, 0)
eval_snapped o2.xyzw, v0.xyzw, l(4, 7, 0, 0)
ret
";

/// What lavapipe computes for [`PERSPECTIVE_SNAPPED`], run by the reference with
/// [`VS_MODEL`]: a / w interpolated without perspective at the offset point, divided
/// by 1 / w interpolated at the pixel centre (the perspective divide by the centre's w).
const MODEL_SNAPPED: &str = "ps_5_0
dcl_input_ps linear noperspective v0.xyzw
dcl_input_ps linear noperspective v1.xyzw
dcl_output o0.xyzw
dcl_output o1.xyzw
dcl_output o2.xyzw
dcl_temps 1
eval_snapped r0.xyzw, v0.xyzw, l(-8, 7, 0, 0)
div o0.xyzw, r0.xyzw, v1.xxxx
eval_snapped r0.xyzw, v0.xyzw, l(19, -3, 0, 0)
div o1.xyzw, r0.xyzw, v1.xxxx
eval_snapped r0.xyzw, v0.xyzw, l(4, 7, 0, 0)
div o2.xyzw, r0.xyzw, v1.xxxx
ret
";

/// The vertex shader of [`MODEL_SNAPPED`]: `v0 / w` and `1 / w`.
const VS_MODEL: &str = "vs_4_0
dcl_input v0.xyzw
dcl_input v5.xyzw
dcl_output o0.xyzw
dcl_output o1.xyzw
dcl_output_siv o5.xyzw, position
dcl_temps 1
div r0.x, l(1.000000), v5.w
mul o0.xyzw, v0.xyzw, r0.xxxx
mov o1.xyzw, r0.xxxx
mov o5.xyzw, v5.xyzw
ret
";

/// The vertex buffer: per vertex `ATTRIBUTES` registers, then the clip-space position.
fn vertex_data() -> Vec<[f32; 4]> {
    triangles::vertex_data(ATTRIBUTES, true)
}

/// The post-VS triangles by exec's pipeline: each vertex's output registers.
fn reference_vertices(vs: &[u8], data: &[[f32; 4]]) -> Vec<Vec<Vec<[u32; 4]>>> {
    triangles::reference_vertices(vs, data, ATTRIBUTES)
}

/// Per pixel the targets' values, `None` where unwritten.
type Pixels = Vec<Option<[[f32; 4]; TARGETS]>>;

/// exec's render targets.
fn reference_pixels(ps: &[u8], vertices: &[Vec<Vec<[u32; 4]>>]) -> Pixels {
    triangles::reference_pixels(ps, vertices, ATTRIBUTES as u32)
}

fn words(bytes: &[u8]) -> Vec<u32> {
    bytes.chunks_exact(4).map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]])).collect()
}

/// The vertex shader's SPIR-V: wgpu's Vulkan back end flips y with the viewport (a
/// negative height), so the position is written as WGSL has it (no
/// `ADJUST_COORDINATE_SPACE`), as `tests/lavapipe_interpolation.rs` does.
fn vertex_spirv(module: &naga::Module) -> Vec<u32> {
    let info = translate::validate(module).expect("the vertex shader validates");
    let mut options = naga::back::spv::Options::default();
    options.flags &= !naga::back::spv::WriterFlags::ADJUST_COORDINATE_SPACE;
    naga::back::spv::write_vec(module, &info, &options, None).expect("vertex SPIR-V")
}

/// The two forms of a translated pixel shader.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Form {
    /// `translate`'s SPIR-V.
    Spirv,
    /// `translate`'s GLSL compiled by `glslangValidator -V`.
    Glsl,
}

/// `glslangValidator -V -S frag` of `text`: the SPIR-V words, or the first error line.
fn glslang_fragment(text: &str) -> Result<Vec<u32>, String> {
    static COUNTER: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(0);
    let n = COUNTER.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let dir = std::env::temp_dir();
    let src = dir.join(format!("dxref-pull-model-{}-{n}.frag", std::process::id()));
    let spv = dir.join(format!("dxref-pull-model-{}-{n}.spv", std::process::id()));
    std::fs::write(&src, text).map_err(|e| e.to_string())?;
    let out = std::process::Command::new("glslangValidator")
        .args(["-V", "--target-env", "vulkan1.1", "-S", "frag", "-o"])
        .arg(&spv)
        .arg(&src)
        .output()
        .map_err(|e| e.to_string());
    let _ = std::fs::remove_file(&src);
    let bytes = std::fs::read(&spv).unwrap_or_default();
    let _ = std::fs::remove_file(&spv);
    let out = out?;
    if !out.status.success() {
        let text = String::from_utf8_lossy(&out.stdout).to_string();
        return Err(text.lines().find(|l| l.starts_with("ERROR")).unwrap_or("failed").to_string());
    }
    Ok(words(&bytes))
}

/// The pixel shader's words in `form` (its SPIR-V checked by `spirv-val`).
fn pixel_spirv(ps: &[u8], form: Form, spirv_val: &dyn Fn(&[u8]) -> Result<(), String>) -> Vec<u32> {
    match form {
        Form::Spirv => {
            let bytes = translate::translate(ps, &Options::default(), Target::Spirv).expect("SPIR-V");
            spirv_val(&bytes).unwrap_or_else(|e| panic!("spirv-val: {e}"));
            words(&bytes)
        }
        Form::Glsl => {
            let text = translate::translate(ps, &Options::default(), Target::Glsl).expect("GLSL");
            let text = String::from_utf8(text).expect("UTF-8");
            assert!(text.contains("interpolateAt"), "{text}");
            glslang_fragment(&text).unwrap_or_else(|e| panic!("glslangValidator: {e}\n{text}"))
        }
    }
}

/// Draws the triangle list `data` with the SPIR-V shaders into `TARGETS` targets.
fn render(gpu: &Gpu, vs: Vec<u32>, fs: Vec<u32>, data: &[[f32; 4]]) -> Vec<[[f32; 4]; TARGETS]> {
    triangles::render(gpu, vs, fs, data, ATTRIBUTES)
}

/// `spirv-val` over SPIR-V bytes.
type Validator = Box<dyn Fn(&[u8]) -> Result<(), String>>;

/// The tools the test needs, or SKIP.
fn setup(test: &str) -> Option<(Gpu, Validator)> {
    one_lavapipe_thread();
    let gpu = lavapipe::device_or_skip(test)?;
    let spirv_val = common::spirv_val_with(test, &["--target-env", "vulkan1.1"])?;
    let found =
        std::process::Command::new("glslangValidator").arg("--version").output().is_ok_and(|o| o.status.success());
    if !found {
        assert!(!corpus::required(), "{test}: glslangValidator (Debian package glslang-tools) is not installed");
        println!("SKIP {test}: glslangValidator (Debian package glslang-tools) is not installed");
        return None;
    }
    Some((gpu, Box::new(spirv_val)))
}

#[test]
fn eval_instructions_on_lavapipe_match_the_rasterizer() {
    let Some((gpu, spirv_val)) = setup("lavapipe_pull_model") else { return };
    let vs_bytes = assembled(VS);
    let data = vertex_data();
    let vertices = reference_vertices(&vs_bytes, &data);
    assert_eq!(vertices.len(), triangles::triangles().len());
    let vs = translate::module(&vs_bytes, &Options::default()).expect("the vertex shader translates");
    let mut tally = Tally::default();
    for (name, text, exact) in PIXEL_SHADERS {
        let ps = assembled(text);
        let expected = reference_pixels(&ps, &vertices);
        for form in [Form::Spirv, Form::Glsl] {
            let got = render(&gpu, vertex_spirv(&vs), pixel_spirv(&ps, form, &spirv_val), &data);
            compare(&format!("{name} ({form:?})"), &expected, &got, &[0, 1, 2], exact, &mut tally);
        }
    }
    println!("lavapipe_pull_model: {} pixels compared, {} written by both", tally.pixels, tally.written);
    // The coverage of lavapipe_interpolation's triangles (2930 pixels written of 1024
    // per shader: 586 per draw), per shader and form.
    assert_eq!((tally.pixels, tally.written), (8 * 1024, 8 * 586), "(pixels compared, written by both)");
    let f = &tally.failures;
    assert!(f.is_empty(), "{} differences:\n{}", f.len(), f[..f.len().min(40)].join("\n"));
}

#[test]
fn the_corpus_evaluate_attrib_shader_on_lavapipe_matches_the_rasterizer() {
    let Some(entries) = corpus::dxbc_entries("lavapipe_pull_model") else { return };
    let Some((gpu, spirv_val)) = setup("lavapipe_pull_model") else { return };
    let entry = entries.iter().find(|e| e.id() == "hlslcc/ps5__evaluateAttrib").expect("the corpus has the shader");
    let ps = entry.bytes();
    let vs_bytes = assembled(VS);
    let data = vertex_data();
    let vertices = reference_vertices(&vs_bytes, &data);
    let vs = translate::module(&vs_bytes, &Options::default()).expect("the vertex shader translates");
    let expected = reference_pixels(&ps, &vertices);
    // Its o2 is eval_snapped of a perspective input at (4, 7): lavapipe's is the model's o2.
    let model = reference_pixels(&assembled(MODEL_SNAPPED), &reference_vertices(&assembled(VS_MODEL), &data));
    let mut tally = Tally::default();
    for form in [Form::Spirv, Form::Glsl] {
        let got = render(&gpu, vertex_spirv(&vs), pixel_spirv(&ps, form, &spirv_val), &data);
        // o1 evaluates sample 2 of a single-sample target: undefined (16.5.2).
        compare(&format!("ps5__evaluateAttrib ({form:?})"), &expected, &got, &[0], &[], &mut tally);
        compare(&format!("ps5__evaluateAttrib o2 with the model ({form:?})"), &model, &got, &[2], &[], &mut tally);
    }
    assert_eq!((tally.pixels, tally.written), (4 * 1024, 4 * 586), "(pixels compared, written by both)");
    let f = &tally.failures;
    assert!(f.is_empty(), "{} differences:\n{}", f.len(), f[..f.len().min(40)].join("\n"));
}

#[test]
fn a_perspective_input_at_an_offset_is_divided_by_the_centre_w_on_lavapipe() {
    let Some((gpu, spirv_val)) = setup("lavapipe_pull_model") else { return };
    let data = vertex_data();
    let vs = translate::module(&assembled(VS), &Options::default()).expect("the vertex shader translates");
    let ps = assembled(PERSPECTIVE_SNAPPED);
    let exact = reference_pixels(&ps, &reference_vertices(&assembled(VS), &data));
    let model = reference_pixels(&assembled(MODEL_SNAPPED), &reference_vertices(&assembled(VS_MODEL), &data));
    let mut tally = Tally::default();
    let mut off_the_exact = 0;
    for form in [Form::Spirv, Form::Glsl] {
        let got = render(&gpu, vertex_spirv(&vs), pixel_spirv(&ps, form, &spirv_val), &data);
        compare(
            &format!("perspective eval_snapped with the model ({form:?})"),
            &model,
            &got,
            &[0, 1, 2],
            &[],
            &mut tally,
        );
        let mut exact_tally = Tally::default();
        compare(&format!("perspective eval_snapped ({form:?})"), &exact, &got, &[0, 1, 2], &[], &mut exact_tally);
        off_the_exact += exact_tally.failures.len();
    }
    println!("lavapipe_pull_model: {off_the_exact} components differ from the perspective-correct evaluation");
    // The exact evaluation (exec's, Direct3D's) is not lavapipe's: the model is needed.
    assert!(off_the_exact > 1000, "{off_the_exact} components differ from the exact evaluation");
    assert_eq!((tally.pixels, tally.written), (2 * 1024, 2 * 586), "(pixels compared, written by both)");
    let f = &tally.failures;
    assert!(f.is_empty(), "{} differences:\n{}", f.len(), f[..f.len().min(40)].join("\n"));
}

/// A pixel shader's module with and without [`Options::pull_model`].
fn modules(text: &str) -> (Result<naga::Module, TranslateError>, Result<naga::Module, TranslateError>) {
    let bytes = assembled(text);
    let on = Options { pull_model: true, ..Options::default() };
    (translate::module(&bytes, &Options::default()), translate::module(&bytes, &on))
}

#[test]
fn targets_without_interpolate_at_refuse_naming_the_instruction() {
    let text = "ps_5_0
dcl_input_ps linear v0.xyzw
dcl_output o0.xyzw
dcl_temps 1
mov r0.xy, l(1, 2, 0, 0)
eval_snapped o0.xyzw, v0.xyzw, r0.xyxx
eval_centroid o0.x, v0.x
ret
";
    let (off, on) = modules(text);
    // Without the option the module refuses the first one, as before.
    let e = off.expect_err("refused without pull_model");
    assert_eq!((e.code(), e.mnemonic()), ("unsupported", Some("eval_snapped")));
    assert!(e.to_string().starts_with("instruction 4 (eval_snapped)"), "{e}");
    let m = on.expect("translated with pull_model");
    for target in [Target::Wgsl, Target::Msl, Target::Hlsl] {
        let e = translate::write(&m, target).expect_err("refused");
        assert_eq!((e.code(), e.mnemonic()), ("unsupported", Some("eval_snapped")), "{target:?}");
        assert!(e.to_string().starts_with("instruction 4 (eval_snapped)"), "{e}");
        let e = translate::translate(&assembled(text), &Options::default(), target).expect_err("refused");
        assert_eq!(e.mnemonic(), Some("eval_snapped"), "{target:?}");
    }
    let spirv = translate::write(&m, Target::Spirv).expect("SPIR-V");
    let glsl = String::from_utf8(translate::write(&m, Target::Glsl).expect("GLSL")).unwrap();
    assert!(glsl.contains("return interpolateAtOffset(_vs2fs_location0, "), "{glsl}");
    assert!(glsl.contains("return interpolateAtCentroid(_vs2fs_location0);"), "{glsl}");
    // OpCapability InterpolationFunction, two OpExtInst of GLSL.std.450 76 and 78.
    let w = words(&spirv);
    assert!(w.windows(2).any(|p| p == [(2 << 16) | 17, 52]), "the capability");
    let ext: Vec<u32> =
        w.windows(5).filter(|p| p[0] == (6 << 16) | 12 || p[0] == (7 << 16) | 12).map(|p| p[4]).collect();
    assert!(ext.contains(&76) && ext.contains(&78), "{ext:?}");
}

#[test]
fn constant_and_integer_inputs_read_the_register_and_other_programs_are_unchanged() {
    // eval_* of a constant or integer input is the input itself: no marker.
    let constant = "ps_5_0
dcl_input_ps constant v0.xyzw
dcl_output o0.xyzw
eval_sample_index o0.xyzw, v0.xyzw, l(3)
ret
";
    let (off, on) = modules(constant);
    assert!(off.is_err());
    let m = on.expect("translated");
    assert!(translate::pull_model::markers(&m).is_empty());
    translate::write(&m, Target::Wgsl).expect("no marker: every target");
    // A program without eval_*: the same module and outputs with the option.
    let plain = "ps_5_0
dcl_input_ps linear v0.xyzw
dcl_input_ps linear centroid v1.xyzw
dcl_output o0.xyzw
add o0.xyzw, v0.xyzw, v1.xyzw
ret
";
    let (off, on) = modules(plain);
    let (off, on) = (off.expect("translated"), on.expect("translated"));
    for target in Target::ALL {
        assert_eq!(translate::write(&off, target), translate::write(&on, target), "{target:?}");
    }
    // A position cannot be pulled, nor a relatively indexed input.
    let position = "ps_5_0
dcl_input_ps_siv linear noperspective v0.xyzw, position
dcl_output o0.xyzw
eval_centroid o0.xyzw, v0.xyzw
ret
";
    let e = modules(position).1.expect_err("refused");
    assert_eq!(e.mnemonic(), Some("eval_centroid"));
}
