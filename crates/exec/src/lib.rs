//! The reference pipeline: Shader Model 4/5 vertex and geometry shaders run on the CPU
//! as the Direct3D 11 functional specification says.
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
//!
//! Nothing here panics on any input: a malformed program, an out-of-range access or a
//! runaway loop is an [`ExecError`] or the specified out-of-bounds result.

pub mod alu;
pub mod error;
pub mod format;
pub mod machine;
pub mod pipeline;
pub mod plan;
pub mod resources;

pub use error::{ExecError, ExecErrorKind};
pub use format::Format;
pub use machine::{EmitSink, GsRun, GsSystemValues, Machine};
pub use plan::{Binding, BindingKind, Plan};
pub use resources::Resources;
