//! Interpolation modes proven on lavapipe: triangles drawn with a translated vertex
//! shader and translated pixel shaders, compared pixel for pixel with `exec`'s vertex
//! shader (`exec::pipeline::draw`), rasterizer and pixel shader (`exec::raster::draw`).
//!
//! One vertex shader (assembled from its listing) passes a clip-space position and
//! eight attribute registers through (scaled, so that it computes something). The
//! pixel shaders read the attributes with every interpolation mode a float input can
//! declare — `constant`, `linear`, `linear centroid`, `linear sample`, `linear
//! noperspective` and its `centroid` and `sample` forms — and `SV_Position` and
//! `SV_IsFrontFace`, each writing two `R32G32B32A32_FLOAT` targets. The triangles
//! (a 32 × 32 target, cull none): one with clip w 1, 5 and 0.25 at its vertices;
//! a rectangle of two triangles whose shared diagonal, top and left edges pass through
//! pixel centres, w 2, 0.5, 3 and 1; a triangle sharing the rectangle's left edge (a
//! vertical edge through centres) and reaching past the target's left side (Vulkan
//! clips it, the reference does not: the guard band); a back-facing triangle. Vertex
//! positions are on the 16.8 grid, so that both snap them to the same points.
//!
//! - Coverage: the pixels each writes must be the same ones (exactly).
//! - Values: every component within |Δ| ≤ 2⁻¹⁶ · (1 + |value|) (≈ 1.5·10⁻⁵):
//!   lavapipe interpolates with float32 plane equations set up from the unclipped
//!   (or clipped) vertices (a0 + x·dadx + y·dady, then the perspective divide), the
//!   reference with float64 barycentrics of the snapped triangle rounded once; over
//!   a 32-pixel target with attributes in [−8, 8] and 1/w up to 4 the float32
//!   rounding of those terms is some ulps of the largest, which the bound covers with
//!   room (the largest seen is 5.0·10⁻⁶ · (1 + |value|), printed per shader), while
//!   a mode mistaken for another is far beyond it (`linear` taken as `noperspective`
//!   makes 11114 components differ, the Top-Left Rule's ties broken the other way
//!   makes 145 pixels' coverage differ). Constant attributes, `SV_IsFrontFace` and
//!   `SV_Position.xy` must be exact.
//!
//! Without a lavapipe adapter the test prints SKIP and passes, unless
//! `DXREF_REQUIRE_CORPUS=1`.

#[path = "support/lavapipe.rs"]
mod lavapipe;
#[path = "support/triangles.rs"]
mod triangles;
use lavapipe::{one_lavapipe_thread, Gpu};
use triangles::{assembled, compare, Tally};

/// Attribute registers after the position.
const ATTRIBUTES: usize = 8;

const VS: &str = "vs_4_0
dcl_input v0.xyzw
dcl_input v1.xyzw
dcl_input v2.xyzw
dcl_input v3.xyzw
dcl_input v4.xyzw
dcl_input v5.xyzw
dcl_input v6.xyzw
dcl_input v7.xyzw
dcl_input v8.xyzw
dcl_output_siv o0.xyzw, position
dcl_output o1.xyzw
dcl_output o2.xyzw
dcl_output o3.xyzw
dcl_output o4.xyzw
dcl_output o5.xyzw
dcl_output o6.xyzw
dcl_output o7.xyzw
dcl_output o8.xyzw
mov o0.xyzw, v0.xyzw
mul o1.xyzw, v1.xyzw, l(2.000000, 2.000000, 2.000000, 2.000000)
mov o2.xyzw, v2.xyzw
mov o3.xyzw, v3.xyzw
mov o4.xyzw, v4.xyzw
mov o5.xyzw, v5.xyzw
mov o6.xyzw, v6.xyzw
mov o7.xyzw, v7.xyzw
mov o8.xyzw, v8.xyzw
ret
";

/// A pixel shader: its name, its listing, the (target, component)s that must be exact.
type Shader = (&'static str, &'static str, &'static [(usize, usize)]);

/// The pixel shaders.
const PIXEL_SHADERS: [Shader; 5] = [
    (
        "constant and linear",
        "ps_4_0
dcl_input_ps constant v1.xyzw
dcl_input_ps linear v2.xyzw
dcl_output o0.xyzw
dcl_output o1.xyzw
mov o0.xyzw, v1.xyzw
mov o1.xyzw, v2.xyzw
ret
",
        &[(0, 0), (0, 1), (0, 2), (0, 3)],
    ),
    (
        "linear centroid and linear noperspective",
        "ps_4_0
dcl_input_ps linear centroid v3.xyzw
dcl_input_ps linear noperspective v4.xyzw
dcl_output o0.xyzw
dcl_output o1.xyzw
mov o0.xyzw, v3.xyzw
mov o1.xyzw, v4.xyzw
ret
",
        &[],
    ),
    (
        "linear sample and linear noperspective centroid",
        "ps_4_1
dcl_input_ps linear sample v5.xyzw
dcl_input_ps linear noperspective centroid v6.xyzw
dcl_output o0.xyzw
dcl_output o1.xyzw
mov o0.xyzw, v5.xyzw
mov o1.xyzw, v6.xyzw
ret
",
        &[],
    ),
    (
        "linear noperspective sample and SV_Position",
        "ps_4_1
dcl_input_ps_siv linear noperspective v0.xyzw, position
dcl_input_ps linear noperspective sample v7.xyzw
dcl_output o0.xyzw
dcl_output o1.xyzw
mov o0.xyzw, v7.xyzw
mov o1.xyzw, v0.xyzw
ret
",
        &[(1, 0), (1, 1)],
    ),
    (
        "SV_IsFrontFace and linear",
        "ps_4_0
dcl_input_ps linear v2.xyzw
dcl_input_ps_sgv v8.x, is_front_face
dcl_output o0.xyzw
dcl_output o1.xyzw
and o0.x, v8.x, l(0x3f800000)
mov o0.yzw, v2.yyzw
mov o1.xyzw, v2.wzyx
ret
",
        &[(0, 0)],
    ),
];

/// The vertex buffer: per vertex the clip-space position and `ATTRIBUTES` registers.
fn vertex_data() -> Vec<[f32; 4]> {
    triangles::vertex_data(ATTRIBUTES, false)
}

/// The post-VS triangles by exec's pipeline: each vertex's output registers.
fn reference_vertices(vs: &[u8], data: &[[f32; 4]]) -> Vec<Vec<Vec<[u32; 4]>>> {
    triangles::reference_vertices(vs, data, ATTRIBUTES)
}

/// exec's render targets: per pixel the two targets' values, `None` where unwritten.
fn reference_pixels(ps: &[u8], vertices: &[Vec<Vec<[u32; 4]>>]) -> Vec<Option<[[f32; 4]; 2]>> {
    triangles::reference_pixels(ps, vertices, 0)
}

/// The SPIR-V words of a translated shader.
fn spirv(module: &naga::Module) -> Vec<u32> {
    if module.entry_points.iter().any(|e| e.stage == naga::ShaderStage::Vertex) {
        // wgpu's Vulkan back end flips y with the viewport (a negative height), so the
        // position is written as WGSL has it (no `ADJUST_COORDINATE_SPACE`, which
        // `translate::write` sets for plain Vulkan), as `support/pixel_harness.rs` does.
        let info = naga::valid::Validator::new(naga::valid::ValidationFlags::all(), naga::valid::Capabilities::all())
            .validate(module)
            .expect("the vertex shader validates");
        let mut options = naga::back::spv::Options::default();
        options.flags &= !naga::back::spv::WriterFlags::ADJUST_COORDINATE_SPACE;
        naga::back::spv::write_vec(module, &info, &options, None).expect("vertex SPIR-V")
    } else {
        let bytes = translate::write(module, translate::Target::Spirv).expect("SPIR-V");
        bytes.chunks_exact(4).map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]])).collect()
    }
}

/// Draws the triangle list `data` with the translated shaders into two targets.
fn render(gpu: &Gpu, vs: &naga::Module, ps: &naga::Module, data: &[[f32; 4]]) -> Vec<[[f32; 4]; 2]> {
    triangles::render(gpu, spirv(vs), spirv(ps), data, ATTRIBUTES)
}

#[test]
fn interpolation_modes_on_lavapipe_match_the_rasterizer() {
    one_lavapipe_thread();
    let Some(gpu) = lavapipe::device_or_skip("lavapipe_interpolation") else { return };
    let vs_bytes = assembled(VS);
    let data = vertex_data();
    let vertices = reference_vertices(&vs_bytes, &data);
    assert_eq!(vertices.len(), triangles::triangles().len());
    let vs = translate::module(&vs_bytes, &translate::Options::default()).expect("the vertex shader translates");
    let mut tally = Tally::default();
    let mut back = 0usize;
    for (name, text, exact) in PIXEL_SHADERS {
        let ps_bytes = assembled(text);
        let expected = reference_pixels(&ps_bytes, &vertices);
        let ps = translate::module(&ps_bytes, &translate::Options::default()).expect("the pixel shader translates");
        let got = render(&gpu, &vs, &ps, &data);
        compare(name, &expected, &got, &[0, 1], exact, &mut tally);
        if name.starts_with("SV_IsFrontFace") {
            back += expected.iter().flatten().filter(|e| e[0][0] == 0.0).count();
        }
    }
    let (compared, written, failures) = (tally.pixels, tally.written, tally.failures);
    println!("lavapipe_interpolation: {compared} pixels compared, {written} written by both ({back} back-facing)");
    assert!(back > 0, "the back-facing triangle is drawn");
    // The exact counts: a change in coverage (exec's or lavapipe's) shows here even
    // when the two still agree.
    assert_eq!((compared, written, back), (5120, 2930, 45), "(pixels compared, written by both, back-facing)");
    assert!(failures.is_empty(), "{} differences:\n{}", failures.len(), failures[..failures.len().min(40)].join("\n"));
}
