//! The desktop-OpenGL GLSL geometry shaders ([`translate::geometry_glsl`] with
//! [`translate::GlslFlavor::Desktop`], what `dxref translate GS --to glsl --opengl`
//! writes) run for real on Mesa's llvmpipe OpenGL (a headless 4.5 core context through
//! EGL, `support/opengl_gs.rs`) give what the reference pipeline (`exec::pipeline::draw`
//! with stream output) gives for the same draw: the transform-feedback buffers word for
//! word (Direct3D's stream output: `xfb_buffer` = output slot), per stream the
//! primitives written and generated (`GL_TRANSFORM_FEEDBACK_PRIMITIVES_WRITTEN`,
//! `GL_PRIMITIVES_GENERATED`, indexed by stream: Direct3D's `NumPrimitivesWritten` and
//! `PrimitivesStorageNeeded`), and the pipeline statistics `IAVertices`,
//! `IAPrimitives`, `VSInvocations`, `GSInvocations`, `GSPrimitives`
//! (`GL_ARB_pipeline_statistics_query`). The program: the translated vertex shader
//! (naga's GLSL 4.50 core of it, which writes OpenGL's clip space, as the desktop form
//! reads it) and the geometry shader, rasterizer discard.
//!
//! The draws are those of `tests/lavapipe_gs_native.rs` (`support/gs_cases.rs`): the
//! two workloads of the geometry-shader benchmarks, the shader reading every kind of
//! resource, every corpus geometry shader behind a vertex shader fitted to its input
//! signature, with the same inputs and resources. Where the Vulkan GLSL form is exact
//! the desktop form can differ in the last place or two: its geometry shader takes an
//! input position's depth back from OpenGL's `[-w, w]` (`(z + w) * 0.5` of the vertex
//! shader's `z * 2 - w`), which rounds. Each outcome is a line of
//! `tests/expect/opengl_gs_native.txt` (two-sided; `DXREF_BLESS=1` rewrites it).
//! Without an OpenGL 4.5 core context on llvmpipe (Debian packages `libegl1`,
//! `libegl-mesa0`, `libgl1-mesa-dri`) the test prints SKIP and passes, unless
//! `DXREF_REQUIRE_CORPUS=1` (as CI sets it).

#[path = "support/gs_cases.rs"]
mod gs_cases;
#[path = "support/gs_reference.rs"]
mod gs_reference;
#[path = "support/gs_shaders.rs"]
mod gs_shaders;
#[path = "support/opengl_gs.rs"]
mod opengl_gs;
#[path = "support/vulkan_gs.rs"]
mod vulkan_gs;

use opengl_gs::Gl;
use vulkan_gs::{Draw, Outcome};

/// The draw with the geometry shader's desktop GLSL.
fn draw(gl: &Gl, d: &Draw) -> Result<Outcome, String> {
    let options = translate::NativeGsOptions { gs: d.gs_options(), stream_output: Some(d.so.clone()) };
    let text = translate::geometry_glsl(&d.gs, &options, translate::GlslFlavor::Desktop)
        .map_err(|e| format!("glsl gs: {e}"))?;
    gl.draw(d, &text)
}

#[test]
fn desktop_glsl_geometry_shaders_match_the_reference_pipeline() {
    let Some(gl) = opengl_gs::gl_or_skip("opengl_gs_native") else { return };
    gs_cases::check("translate::opengl_gs_native", corpus::expect_file!("opengl_gs_native.txt"), |d| draw(&gl, d));
}

#[test]
fn a_stride_over_the_context_limit_is_not_drawn() {
    let Some(gl) = opengl_gs::gl_or_skip("opengl_gs_native stride") else { return };
    gs_cases::check_stride_over(gl.max_xfb_stride, |d| draw(&gl, d));
}
