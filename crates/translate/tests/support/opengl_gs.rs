//! A desktop OpenGL 4.5 core pipeline on Mesa's llvmpipe for the GLSL geometry shaders
//! ([`translate::geometry_glsl`], desktop form): a headless context through EGL
//! (`EGL_MESA_platform_surfaceless`, no surface: `EGL_KHR_surfaceless_context`), the
//! translated vertex shader (naga's GLSL 4.50 core of it) and the geometry shader linked
//! into one program, the draw's stream output captured by transform feedback as the
//! geometry shader's `xfb_buffer` / `xfb_offset` / `xfb_stride` qualifiers say (the OpenGL
//! 4.6 core specification, "Transform Feedback"; GLSL 4.50, 4.4.2.1), rasterizer
//! discard, the first-vertex provoking convention (Direct3D's leading vertex, which
//! a strip's odd triangles keep first); one draw,
//! with per stream the queries `GL_TRANSFORM_FEEDBACK_PRIMITIVES_WRITTEN` and
//! `GL_PRIMITIVES_GENERATED` (indexed by stream) and the pipeline-statistics queries of
//! `GL_ARB_pipeline_statistics_query`, read back.
//!
//! The geometry shader's resources at the bindings the desktop form writes (binding =
//! register, one range per kind of binding point): constant buffers as uniform blocks,
//! typed buffers as shader storage blocks of their bytes, textures (naga's GLSL merges a
//! texture and its sampler) as `RGBA32F` textures on texture unit = register with a
//! point, clamp-to-edge sampler object (1D textures as 2D of height 1, as the
//! translation declares them).
//!
//! Included with `#[path = "support/opengl_gs.rs"] mod opengl_gs;` beside `vulkan_gs`
//! (whose [`Draw`], [`View`] and [`Outcome`] it uses).
#![allow(dead_code)]

use std::ffi::c_void;

use glow::HasContext;
use khronos_egl as egl;
use translate::Topology;

use super::vulkan_gs::{Draw, Outcome, View};

/// Why there is no context, for the SKIP line and the failure message.
pub const NO_LLVMPIPE: &str = "no OpenGL 4.5 core context on llvmpipe through EGL with geometry shaders, transform \
                               feedback streams and pipeline statistics (Debian packages libegl1, libegl-mesa0 and \
                               libgl1-mesa-dri)";

/// `EGL_PLATFORM_SURFACELESS_MESA` (`EGL_MESA_platform_surfaceless`).
const PLATFORM_SURFACELESS_MESA: egl::Enum = 0x31DD;

/// `GL_ARB_pipeline_statistics_query`'s targets, in the order of [`Outcome::stats`]
/// (IA vertices, IA primitives, VS invocations, GS invocations, GS primitives).
const STATISTICS: [u32; 5] = [
    0x82EE, // GL_VERTICES_SUBMITTED_ARB
    0x82EF, // GL_PRIMITIVES_SUBMITTED_ARB
    0x82F0, // GL_VERTEX_SHADER_INVOCATIONS_ARB
    0x887F, // GL_GEOMETRY_SHADER_INVOCATIONS
    0x82F3, // GL_GEOMETRY_SHADER_PRIMITIVES_EMITTED_ARB
];

type BeginQueryIndexed = unsafe extern "system" fn(u32, u32, u32);
type EndQueryIndexed = unsafe extern "system" fn(u32, u32);
type GetQueryObjectui64v = unsafe extern "system" fn(u32, u32, *mut u64);
type ProvokingVertex = unsafe extern "system" fn(u32);

/// The llvmpipe context, current on this thread.
pub struct Gl {
    egl: egl::DynamicInstance<egl::EGL1_5>,
    display: egl::Display,
    context: egl::Context,
    pub gl: glow::Context,
    /// `GL_RENDERER`.
    pub renderer: String,
    /// `GL_MAX_VERTEX_STREAMS`.
    pub streams: u32,
    /// `GL_MAX_TRANSFORM_FEEDBACK_INTERLEAVED_COMPONENTS` × 4 (bytes of one buffer's
    /// vertex).
    pub max_xfb_stride: u32,
    begin_query_indexed: BeginQueryIndexed,
    end_query_indexed: EndQueryIndexed,
    get_query_u64: GetQueryObjectui64v,
    provoking_vertex: ProvokingVertex,
}

impl Drop for Gl {
    fn drop(&mut self) {
        let _ = self.egl.make_current(self.display, None, None, None);
        let _ = self.egl.destroy_context(self.display, self.context);
        // The display stays initialized: it is one per process, and another test's
        // context on another thread may be using it.
    }
}

/// The context, or why there is none fit. llvmpipe runs on one thread
/// (`LP_NUM_THREADS=1` unless set), as the lavapipe tests do.
pub fn gl() -> Result<Gl, String> {
    if std::env::var_os("LP_NUM_THREADS").is_none() {
        std::env::set_var("LP_NUM_THREADS", "1");
    }
    let egl = unsafe { egl::DynamicInstance::<egl::EGL1_5>::load_required() }
        .map_err(|e| format!("no libEGL with EGL 1.5: {e}"))?;
    let display =
        unsafe { egl.get_platform_display(PLATFORM_SURFACELESS_MESA, egl::DEFAULT_DISPLAY, &[egl::ATTRIB_NONE]) }
            .map_err(|e| format!("eglGetPlatformDisplay(surfaceless): {e}"))?;
    egl.initialize(display).map_err(|e| format!("eglInitialize: {e}"))?;
    type Made = (
        egl::Context,
        glow::Context,
        String,
        u32,
        u32,
        (BeginQueryIndexed, EndQueryIndexed, GetQueryObjectui64v, ProvokingVertex),
    );
    let made = (|| -> Result<Made, String> {
        egl.bind_api(egl::OPENGL_API).map_err(|e| format!("eglBindAPI(OpenGL): {e}"))?;
        let config = egl
            .choose_first_config(
                display,
                &[egl::SURFACE_TYPE, egl::PBUFFER_BIT, egl::RENDERABLE_TYPE, egl::OPENGL_BIT, egl::NONE],
            )
            .map_err(|e| format!("eglChooseConfig: {e}"))?
            .ok_or("no EGL config for desktop OpenGL")?;
        let attributes = [
            egl::CONTEXT_MAJOR_VERSION,
            4,
            egl::CONTEXT_MINOR_VERSION,
            5,
            egl::CONTEXT_OPENGL_PROFILE_MASK,
            egl::CONTEXT_OPENGL_CORE_PROFILE_BIT,
            egl::NONE,
        ];
        let context = egl
            .create_context(display, config, None, &attributes)
            .map_err(|e| format!("eglCreateContext(OpenGL 4.5 core): {e}"))?;
        if let Err(e) = egl.make_current(display, None, None, Some(context)) {
            let _ = egl.destroy_context(display, context);
            return Err(format!("eglMakeCurrent without a surface: {e}"));
        }
        let proc = |name: &str| egl.get_proc_address(name).map_or(std::ptr::null(), |f| f as *const c_void);
        let gl = unsafe { glow::Context::from_loader_function(proc) };
        let missing = |name: &str| format!("no {name}");
        // The entry points glow does not wrap (OpenGL 4.0, 3.3 and 3.2).
        let (begin, end, get, provoking) = (
            proc("glBeginQueryIndexed"),
            proc("glEndQueryIndexed"),
            proc("glGetQueryObjectui64v"),
            proc("glProvokingVertex"),
        );
        let close = |why: String| {
            let _ = egl.make_current(display, None, None, None);
            let _ = egl.destroy_context(display, context);
            Err(why)
        };
        if begin.is_null() || end.is_null() || get.is_null() || provoking.is_null() {
            return close(missing(
                "glBeginQueryIndexed, glEndQueryIndexed, glGetQueryObjectui64v or glProvokingVertex",
            ));
        }
        let (renderer, version, streams, components) = unsafe {
            (
                gl.get_parameter_string(glow::RENDERER),
                gl.version().clone(),
                gl.get_parameter_i32(glow::MAX_VERTEX_STREAMS),
                gl.get_parameter_i32(glow::MAX_TRANSFORM_FEEDBACK_INTERLEAVED_COMPONENTS),
            )
        };
        if !renderer.contains("llvmpipe") {
            return close(format!("the renderer is {renderer}, not llvmpipe"));
        }
        if (version.major, version.minor) < (4, 5) || version.is_embedded {
            return close(format!("OpenGL {}.{}, not 4.5 core", version.major, version.minor));
        }
        if !gl.supported_extensions().contains("GL_ARB_pipeline_statistics_query") {
            return close(missing("GL_ARB_pipeline_statistics_query"));
        }
        // SAFETY: the addresses EGL gave for these names, of these OpenGL signatures.
        let queries = unsafe {
            (
                std::mem::transmute::<*const c_void, BeginQueryIndexed>(begin),
                std::mem::transmute::<*const c_void, EndQueryIndexed>(end),
                std::mem::transmute::<*const c_void, GetQueryObjectui64v>(get),
                std::mem::transmute::<*const c_void, ProvokingVertex>(provoking),
            )
        };
        Ok((context, gl, renderer, streams.max(1) as u32, 4 * components.max(0) as u32, queries))
    })();
    made.map(|(context, gl, renderer, streams, max_xfb_stride, queries)| Gl {
        egl,
        display,
        context,
        gl,
        renderer,
        streams,
        max_xfb_stride,
        begin_query_indexed: queries.0,
        end_query_indexed: queries.1,
        get_query_u64: queries.2,
        provoking_vertex: queries.3,
    })
}

/// The context for the test `test`; without one, prints a SKIP line and gives `None`,
/// or fails when `DXREF_REQUIRE_CORPUS=1` (as `.ci/run` sets it: CI installs Mesa's EGL and
/// llvmpipe).
pub fn gl_or_skip(test: &str) -> Option<Gl> {
    match gl() {
        Ok(g) => Some(g),
        Err(why) => {
            assert!(!corpus::required(), "{test}: {NO_LLVMPIPE}: {why}");
            println!("SKIP {test}: {NO_LLVMPIPE}: {why}");
            None
        }
    }
}

/// The OpenGL primitive mode of a Direct3D list topology.
fn mode(t: Topology) -> Result<u32, String> {
    Ok(match t {
        Topology::PointList => glow::POINTS,
        Topology::LineList => glow::LINES,
        Topology::LineStrip => glow::LINE_STRIP,
        Topology::TriangleList => glow::TRIANGLES,
        Topology::TriangleStrip => glow::TRIANGLE_STRIP,
        Topology::LineListAdj => glow::LINES_ADJACENCY,
        Topology::LineStripAdj => glow::LINE_STRIP_ADJACENCY,
        Topology::TriangleListAdj => glow::TRIANGLES_ADJACENCY,
        Topology::TriangleStripAdj => glow::TRIANGLE_STRIP_ADJACENCY,
        #[allow(unreachable_patterns)]
        other => return Err(format!("not compared: topology {other:?}")),
    })
}

/// The transform-feedback primitive mode of a geometry shader's output (its
/// `layout(OUTPUT, max_vertices = N) out;` line).
fn feedback_mode(gs: &str) -> Result<u32, String> {
    let line = gs
        .lines()
        .find(|l| l.starts_with("layout(") && l.contains("max_vertices"))
        .ok_or("no output layout in the geometry shader")?;
    Ok(if line.starts_with("layout(points") {
        glow::POINTS
    } else if line.starts_with("layout(line_strip") {
        glow::LINES
    } else {
        glow::TRIANGLES
    })
}

/// Everything one draw created, deleted together.
#[derive(Default)]
struct Objects {
    shaders: Vec<glow::Shader>,
    program: Option<glow::Program>,
    buffers: Vec<glow::Buffer>,
    textures: Vec<glow::Texture>,
    sampler: Option<glow::Sampler>,
    vertex_array: Option<glow::VertexArray>,
    feedback: Option<glow::TransformFeedback>,
    queries: Vec<glow::Query>,
    framebuffer: Option<(glow::Framebuffer, glow::Renderbuffer)>,
}

impl Gl {
    /// Compiles and links the vertex shader `vs` and the geometry shader `gs` (GLSL).
    fn program(&self, o: &mut Objects, vs: &str, gs: &str) -> Result<glow::Program, String> {
        let gl = &self.gl;
        unsafe {
            let program = gl.create_program()?;
            o.program = Some(program);
            for (stage, text, name) in [(glow::VERTEX_SHADER, vs, "vertex"), (glow::GEOMETRY_SHADER, gs, "geometry")] {
                let s = gl.create_shader(stage)?;
                o.shaders.push(s);
                gl.shader_source(s, text);
                gl.compile_shader(s);
                if !gl.get_shader_compile_status(s) {
                    return Err(format!("compiling the {name} shader: {}", gl.get_shader_info_log(s).trim()));
                }
                gl.attach_shader(program, s);
            }
            gl.link_program(program);
            if !gl.get_program_link_status(program) {
                return Err(format!("linking: {}", gl.get_program_info_log(program).trim()));
            }
            Ok(program)
        }
    }

    /// A buffer of `bytes` (zeros if `bytes` is empty: `size` of them).
    fn buffer(&self, o: &mut Objects, target: u32, bytes: &[u8], size: usize) -> Result<glow::Buffer, String> {
        let gl = &self.gl;
        unsafe {
            let b = gl.create_buffer()?;
            o.buffers.push(b);
            gl.bind_buffer(target, Some(b));
            if bytes.is_empty() {
                gl.buffer_data_u8_slice(target, &vec![0u8; size], glow::STATIC_DRAW);
            } else {
                gl.buffer_data_u8_slice(target, bytes, glow::STATIC_DRAW);
            }
            Ok(b)
        }
    }

    /// Runs the draw `d` with the geometry shader's desktop GLSL `gs` and reads back.
    pub fn draw(&self, d: &Draw, gs: &str) -> Result<Outcome, String> {
        let mut o = Objects::default();
        let r = self.draw_in(&mut o, d, gs);
        self.delete(o);
        r
    }

    fn delete(&self, o: Objects) {
        let gl = &self.gl;
        unsafe {
            gl.bind_transform_feedback(glow::TRANSFORM_FEEDBACK, None);
            gl.bind_vertex_array(None);
            gl.use_program(None);
            gl.bind_framebuffer(glow::FRAMEBUFFER, None);
            if let Some((f, r)) = o.framebuffer {
                gl.delete_framebuffer(f);
                gl.delete_renderbuffer(r);
            }
            for q in o.queries {
                gl.delete_query(q);
            }
            if let Some(f) = o.feedback {
                gl.delete_transform_feedback(f);
            }
            if let Some(v) = o.vertex_array {
                gl.delete_vertex_array(v);
            }
            if let Some(s) = o.sampler {
                gl.delete_sampler(s);
            }
            for t in o.textures {
                gl.delete_texture(t);
            }
            for b in o.buffers {
                gl.delete_buffer(b);
            }
            for s in o.shaders {
                gl.delete_shader(s);
            }
            if let Some(p) = o.program {
                gl.delete_program(p);
            }
        }
    }

    fn draw_in(&self, o: &mut Objects, d: &Draw, gs: &str) -> Result<Outcome, String> {
        let gl = &self.gl;
        d.strides_within(self.max_xfb_stride, "context")?;
        let vs = translate::translate(&d.vs, &translate::Options::default(), translate::Target::Glsl)
            .map_err(|e| format!("translate vs: {e}"))?;
        let vs = String::from_utf8(vs).map_err(|e| format!("translate vs: {e}"))?;
        let program = self.program(o, &vs, gs)?;
        let draw_mode = mode(d.topology)?;
        let feedback_mode = feedback_mode(gs)?;
        let streams = d.so.entries.iter().map(|e| e.stream + 1).max().unwrap_or(1).min(self.streams);
        unsafe {
            // A complete framebuffer (the context has no surface, so no default one):
            // one 1×1 colour renderbuffer, never drawn to (rasterizer discard).
            let (framebuffer, renderbuffer) = (gl.create_framebuffer()?, gl.create_renderbuffer()?);
            o.framebuffer = Some((framebuffer, renderbuffer));
            gl.bind_renderbuffer(glow::RENDERBUFFER, Some(renderbuffer));
            gl.renderbuffer_storage(glow::RENDERBUFFER, glow::RGBA8, 1, 1);
            gl.bind_framebuffer(glow::FRAMEBUFFER, Some(framebuffer));
            gl.framebuffer_renderbuffer(
                glow::FRAMEBUFFER,
                glow::COLOR_ATTACHMENT0,
                glow::RENDERBUFFER,
                Some(renderbuffer),
            );
            gl.use_program(Some(program));
            // Vertices: attribute location = register, at 16 × register.
            let va = gl.create_vertex_array()?;
            o.vertex_array = Some(va);
            gl.bind_vertex_array(Some(va));
            let bytes: Vec<u8> = d.data.iter().flatten().flat_map(|w| w.to_le_bytes()).collect();
            self.buffer(o, glow::ARRAY_BUFFER, &bytes, 16)?;
            let stride = 16 * d.stride.max(1) as i32;
            for &r in &d.input_registers {
                gl.enable_vertex_attrib_array(r);
                if d.float_input {
                    gl.vertex_attrib_pointer_f32(r, 4, glow::FLOAT, false, stride, 16 * r as i32);
                } else {
                    gl.vertex_attrib_pointer_i32(r, 4, glow::UNSIGNED_INT, stride, 16 * r as i32);
                }
            }
            // Constant buffers: uniform blocks at binding = register.
            for (&r, cb) in &d.cbs {
                let bytes: Vec<u8> = cb.iter().flatten().flat_map(|w| w.to_le_bytes()).collect();
                let b = self.buffer(o, glow::UNIFORM_BUFFER, &bytes, 16)?;
                gl.bind_buffer_base(glow::UNIFORM_BUFFER, r, Some(b));
            }
            // The draw's sampler: point filtering, clamp-to-edge addressing.
            let sampler = gl.create_sampler()?;
            o.sampler = Some(sampler);
            for (name, value) in [
                (glow::TEXTURE_MIN_FILTER, glow::NEAREST_MIPMAP_NEAREST),
                (glow::TEXTURE_MAG_FILTER, glow::NEAREST),
                (glow::TEXTURE_WRAP_S, glow::CLAMP_TO_EDGE),
                (glow::TEXTURE_WRAP_T, glow::CLAMP_TO_EDGE),
                (glow::TEXTURE_WRAP_R, glow::CLAMP_TO_EDGE),
            ] {
                gl.sampler_parameter_i32(sampler, name, value as i32);
            }
            gl.pixel_store_i32(glow::UNPACK_ALIGNMENT, 1);
            for (&r, v) in &d.views {
                match v {
                    View::Typed(_, bytes) => {
                        if bytes.is_empty() || bytes.len() % 4 != 0 {
                            return Err(format!("a typed buffer of {} bytes", bytes.len()));
                        }
                        let b = self.buffer(o, glow::SHADER_STORAGE_BUFFER, bytes, 0)?;
                        gl.bind_buffer_base(glow::SHADER_STORAGE_BUFFER, r, Some(b));
                    }
                    &View::Texture { width, height, layers, array, ref texels } => {
                        let want = 16 * width as usize * height as usize * layers as usize;
                        if texels.len() != want || want == 0 {
                            return Err(format!("a texture of {} bytes, not {want}", texels.len()));
                        }
                        let t = gl.create_texture()?;
                        o.textures.push(t);
                        gl.active_texture(glow::TEXTURE0 + r);
                        let data = glow::PixelUnpackData::Slice(Some(texels));
                        let (w, h) = (width as i32, height as i32);
                        if array {
                            gl.bind_texture(glow::TEXTURE_2D_ARRAY, Some(t));
                            gl.tex_image_3d(
                                glow::TEXTURE_2D_ARRAY,
                                0,
                                glow::RGBA32F as i32,
                                w,
                                h,
                                layers as i32,
                                0,
                                glow::RGBA,
                                glow::FLOAT,
                                data,
                            );
                            gl.tex_parameter_i32(glow::TEXTURE_2D_ARRAY, glow::TEXTURE_MAX_LEVEL, 0);
                        } else {
                            gl.bind_texture(glow::TEXTURE_2D, Some(t));
                            gl.tex_image_2d(
                                glow::TEXTURE_2D,
                                0,
                                glow::RGBA32F as i32,
                                w,
                                h,
                                0,
                                glow::RGBA,
                                glow::FLOAT,
                                data,
                            );
                            gl.tex_parameter_i32(glow::TEXTURE_2D, glow::TEXTURE_MAX_LEVEL, 0);
                        }
                        gl.bind_sampler(r, Some(sampler));
                    }
                }
            }
            // Transform feedback: buffer `slot` at binding `slot`, of the draw's size.
            let feedback = gl.create_transform_feedback()?;
            o.feedback = Some(feedback);
            gl.bind_transform_feedback(glow::TRANSFORM_FEEDBACK, Some(feedback));
            let mut captured = Vec::new();
            for (slot, &size) in d.so_sizes.iter().enumerate() {
                if size == 0 {
                    continue;
                }
                let b = self.buffer(o, glow::TRANSFORM_FEEDBACK_BUFFER, &[], size)?;
                gl.bind_buffer_range(glow::TRANSFORM_FEEDBACK_BUFFER, slot as u32, Some(b), 0, size as i32);
                captured.push((slot, b, size));
            }
            // Queries: statistics, and per stream the primitives written and generated.
            let mut stat_queries = Vec::new();
            for &target in &STATISTICS {
                let q = gl.create_query()?;
                o.queries.push(q);
                gl.begin_query(target, q);
                stat_queries.push(q);
            }
            let mut stream_queries = Vec::new();
            for s in 0..streams {
                let (written, generated) = (gl.create_query()?, gl.create_query()?);
                o.queries.extend([written, generated]);
                (self.begin_query_indexed)(glow::TRANSFORM_FEEDBACK_PRIMITIVES_WRITTEN, s, written.0.get());
                (self.begin_query_indexed)(glow::PRIMITIVES_GENERATED, s, generated.0.get());
                stream_queries.push((written, generated));
            }
            // Direct3D's provoking vertex is the first (the leading vertex, whose order
            // a strip's odd triangles keep): OpenGL's first-vertex convention.
            (self.provoking_vertex)(glow::FIRST_VERTEX_CONVENTION);
            gl.enable(glow::RASTERIZER_DISCARD);
            gl.begin_transform_feedback(feedback_mode);
            gl.draw_arrays(draw_mode, 0, d.vertices as i32);
            gl.end_transform_feedback();
            gl.disable(glow::RASTERIZER_DISCARD);
            for s in 0..streams {
                (self.end_query_indexed)(glow::TRANSFORM_FEEDBACK_PRIMITIVES_WRITTEN, s);
                (self.end_query_indexed)(glow::PRIMITIVES_GENERATED, s);
            }
            for &target in &STATISTICS {
                gl.end_query(target);
            }
            let error = gl.get_error();
            if error != glow::NO_ERROR {
                return Err(format!("OpenGL error {error:#x} drawing"));
            }
            let result = |q: glow::Query| -> u64 {
                let mut v = 0u64;
                (self.get_query_u64)(q.0.get(), glow::QUERY_RESULT, &mut v);
                v
            };
            let mut outcome = Outcome { so: Default::default(), so_stats: [(0, 0); 4], stats: [0; 5] };
            for (k, &q) in stat_queries.iter().enumerate() {
                outcome.stats[k] = result(q);
            }
            for (s, &(written, generated)) in stream_queries.iter().enumerate() {
                outcome.so_stats[s] = (result(written), result(generated));
            }
            for (slot, b, size) in captured {
                let mut v = vec![0u8; size];
                gl.bind_buffer(glow::TRANSFORM_FEEDBACK_BUFFER, Some(b));
                gl.get_buffer_sub_data(glow::TRANSFORM_FEEDBACK_BUFFER, 0, &mut v);
                outcome.so[slot] = v;
            }
            let error = gl.get_error();
            if error != glow::NO_ERROR {
                return Err(format!("OpenGL error {error:#x} reading back"));
            }
            Ok(outcome)
        }
    }
}
