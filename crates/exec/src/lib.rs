//! The reference pipeline: Shader Model 4/5 vertex, geometry, pixel and compute shaders
//! run on the CPU as the Direct3D 11 functional specification says.
//!
//! - [`plan`]: a program decoded once into a [`Plan`] — flat instructions with resolved
//!   operands and jump targets, plus what the pipeline needs to know (declarations,
//!   signatures, geometry-shader state).
//! - [`machine`]: the interpreter. A [`Machine`] holds one invocation's registers and is
//!   reused for every invocation (no allocation per invocation); every run is bounded
//!   by a step limit.
//! - [`alu`]: the arithmetic rules (denormal flushing, NaN cases, conversions...).
//! - [`resources`] and [`format`](mod@format): buffers, textures, samplers and UAVs bound to a stage,
//!   and the DXGI formats they are read and written in.
//! - [`pipeline`]: input assembly, vertex and geometry shader invocations, the
//!   geometry-shader output semantics (emit, cut, streams, strips to lists), stream
//!   output and the statistics, for one draw.
//! - [`compute`]: a compute shader's dispatch — thread groups in a fixed order, the
//!   thread-ID registers, thread-group shared memory, barriers (each thread run to the
//!   barrier, then the next phase; divergent barriers are an error) and `CSInvocations`.
//! - [`pixel`]: a pixel shader on 2×2 quads of pixels the caller describes:
//!   derivatives coarse and fine, `discard` and helper pixels, samples
//!   with the LOD from the quad's derivatives, render-target and depth outputs.
//! - [`raster`]: the rasterizer that makes those quads from post-VS/GS triangles, as
//!   the functional spec defines it (single-sample): perspective divide, viewport,
//!   16.8 snapping, the Top-Left Rule, face and culling, attributes interpolated by
//!   each pixel-shader input's declared mode; [`raster::draw`] shades the triangles
//!   into a render target's pixels.
//!
//! Nothing here panics on any input: a malformed program, an out-of-range access or a
//! runaway loop is an [`ExecError`] or the specified out-of-bounds result.
//!
//! ```
//! use exec::pipeline::{self, DrawCall, InputElement, Pipeline, Topology, VertexBuffer};
//! use exec::{Convert, Format, Plan, Resources};
//!
//! fn main() -> Result<(), Box<dyn std::error::Error>> {
//!     // A vertex shader that doubles x and y, assembled from its listing by the
//!     // `listing` crate (which names the input TEXCOORD in the signature it derives).
//!     let listing = "vs_4_0\n\
//!                    dcl_input v0.xyzw\n\
//!                    dcl_output_siv o0.xyzw, position\n\
//!                    mul o0.xyzw, v0.xyzw, l(2.000000, 2.000000, 1.000000, 1.000000)\n\
//!                    ret\n";
//!     let bytecode = listing::asm::assemble(listing, &Default::default()).map_err(|d| format!("{d:?}"))?.bytes;
//!     let vs = Plan::from_bytecode(&bytecode)?;
//!     assert_eq!((vs.input_registers, vs.output_registers), (1, 1));
//!
//!     // One triangle: three positions as R32G32B32A32_FLOAT vertices.
//!     let positions = [[0.0f32, 0.5, 0.0, 1.0], [0.5, -0.5, 0.0, 1.0], [-0.5, -0.5, 0.0, 1.0]];
//!     let vertices: Vec<u8> = positions.iter().flatten().flat_map(|f| f.to_le_bytes()).collect();
//!     let layout = [InputElement {
//!         semantic_name: "TEXCOORD".into(),
//!         semantic_index: 0,
//!         format: Format::R32G32B32A32_FLOAT,
//!         input_slot: 0,
//!         aligned_byte_offset: 0,
//!         per_instance: false,
//!         instance_data_step_rate: 0,
//!     }];
//!     let buffers = [Some(VertexBuffer { data: &vertices, stride: 16, offset: 0 })];
//!     let mut state = Pipeline {
//!         input_layout: &layout,
//!         vertex_buffers: &buffers,
//!         index_buffer: None,
//!         topology: Topology::TriangleList,
//!         vs: Some(&vs),
//!         gs: None,
//!         vs_resources: Resources::default(),
//!         gs_resources: Resources::default(),
//!         stream_output: None,
//!         capture: true,
//!         step_limit: 1 << 20,
//!         checking: false,
//!     };
//!     let result = pipeline::draw(&mut state, DrawCall::Draw { vertex_count: 3, start_vertex: 0 })?;
//!
//!     // Without a geometry shader, the vertex shader's triangle goes on as stream 0;
//!     // registers hold 32-bit patterns.
//!     let triangle = &result.streams[0].primitives[0];
//!     let position = triangle[0].registers[0].map(f32::from_bits);
//!     assert_eq!(position, [0.0, 1.0, 0.0, 1.0]);
//!     assert_eq!((result.statistics.ia_vertices, result.statistics.vs_invocations), (3, 3));
//!
//!     // The formats' conversions: UNORM bytes to the floats a shader reads.
//!     let texel = Format::R8G8B8A8_UNORM.decode(&[255, 0, 51, 255]).map(f32::from_bits);
//!     assert_eq!(texel, [1.0, 0.0, 0.2, 1.0]);
//!     Ok(())
//! }
//! ```

#![warn(missing_docs)]

pub mod alu;
pub mod compute;
pub mod error;
pub mod format;
pub mod machine;
pub mod pipeline;
pub mod pixel;
pub mod plan;
pub mod raster;
pub mod resources;

pub use error::{ExecError, ExecErrorKind};
pub use format::{Convert, Format};
pub use machine::{EmitSink, GsRun, GsSystemValues, Machine};
pub use plan::{Binding, BindingKind, Plan};
pub use resources::{ClassInstance, ClassInstances, Resources};
