//! Native SPIR-V geometry shaders ([`translate::geometry_spirv`]) run through a real
//! Vulkan graphics pipeline on Mesa's lavapipe (through `ash`: wgpu has no geometry
//! stage) give what the reference pipeline (`exec::pipeline::draw` with stream output)
//! gives for the same draw: the transform-feedback buffers byte for byte (Direct3D's
//! stream output: `XfbBuffer` = output slot), the primitives written and needed of
//! every stream (`VK_QUERY_TYPE_TRANSFORM_FEEDBACK_STREAM_EXT`), and the pipeline
//! statistics `IAVertices`, `IAPrimitives`, `VSInvocations`, `GSInvocations`,
//! `GSPrimitives`. The pipeline: the translated vertex shader (naga's SPIR-V), the
//! native geometry shader, rasterizer discard, transform feedback of every output
//! element of every declared stream (stream `s` to buffer `s`, into buffers that fill
//! up part way, so that the overflow rule is exercised).
//!
//! The GLSL geometry shaders ([`translate::geometry_glsl`], Vulkan form) compiled by
//! `glslangValidator -V --target-env vulkan1.1` run through the same pipeline, compared
//! the same way (`tests/expect/lavapipe_gs_native_glsl.txt`).
//!
//! Draws: the two workloads of the geometry-shader benchmarks (*quad* at
//! [`gs_cases::QUAD_POINTS`] points, *cube* at [`gs_cases::CUBE_TRIANGLES`] triangles), a shader reading
//! every kind of resource the harness binds ([`gs_cases::resources`]: 2D texture, 2D texture
//! array, sampler, typed buffer, constant buffer) and every corpus
//! geometry shader behind a vertex shader fitted to its input signature,
//! [`gs_cases::CORPUS_PRIMITIVES`] primitives of the list topology of its `dcl_inputprimitive`,
//! with the inputs and resources `tests/lavapipe_gs.rs` binds
//! ([`gs_reference::corpus_resources`], [`gs_reference::corpus_inputs`]: flags 0.0 and
//! 1.0, small integers, pseudo-random floats; constant buffers, typed buffers, 1D
//! textures, point/clamp samplers), the GLSL form's textures as combined image
//! samplers (naga's GLSL merges a texture and its sampler). Each outcome is a
//! line of `tests/expect/lavapipe_gs_native.txt` (two-sided; `DXREF_BLESS=1` rewrites
//! it). Without lavapipe (or its transform feedback and geometry shaders) the test
//! prints SKIP and passes, unless `DXREF_REQUIRE_CORPUS=1`.

#[path = "support/glslang.rs"]
mod glslang;
#[path = "support/gs_cases.rs"]
mod gs_cases;
#[path = "support/gs_reference.rs"]
mod gs_reference;
#[path = "support/gs_shaders.rs"]
mod gs_shaders;
#[path = "support/vulkan_gs.rs"]
mod vulkan_gs;

use vulkan_gs::{Draw, Vk};

/// The draw with the geometry shader's GLSL ([`translate::geometry_glsl`], Vulkan form)
/// compiled by `glslangValidator -V --target-env vulkan1.1` in place of the SPIR-V one.
fn draw_glsl(vk: &Vk, d: &Draw) -> Result<vulkan_gs::Outcome, String> {
    let options = translate::NativeGsOptions { gs: d.gs_options(), stream_output: Some(d.so.clone()) };
    let text = translate::geometry_glsl(&d.gs, &options, translate::GlslFlavor::Vulkan)
        .map_err(|e| format!("glsl gs: {e}"))?;
    let spirv = glslang::geometry(&text, true).map_err(|e| format!("glslang: {e}"))?;
    // naga's GLSL merges each texture with its sampler: combined image samplers.
    vk.draw_with(d, Some(spirv), true)
}

#[test]
fn native_geometry_shaders_match_the_reference_pipeline() {
    let Some(vk) = vulkan_gs::vk_or_skip("lavapipe_gs_native") else { return };
    gs_cases::check("translate::lavapipe_gs_native", corpus::expect_file!("lavapipe_gs_native.txt"), |d| vk.draw(d));
}

#[test]
fn glsl_geometry_shaders_match_the_reference_pipeline() {
    let Some(vk) = vulkan_gs::vk_or_skip("lavapipe_gs_native glsl") else { return };
    if !glslang::available_or_skip("lavapipe_gs_native glsl") {
        return;
    }
    gs_cases::check("translate::lavapipe_gs_native glsl", corpus::expect_file!("lavapipe_gs_native_glsl.txt"), |d| {
        draw_glsl(&vk, d)
    });
}

#[test]
fn a_stride_over_the_device_limit_is_not_drawn() {
    let Some(vk) = vulkan_gs::vk_or_skip("lavapipe_gs_native stride") else { return };
    gs_cases::check_stride_over(vk.max_xfb_stride, |d| vk.draw(d));
}
