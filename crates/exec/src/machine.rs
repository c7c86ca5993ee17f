//! The interpreter: `compile` (behind [`Plan::compile`](crate::Plan::compile)) turns a
//! decoded program into the plan's [`Code`]; a [`Machine`] runs invocations of it.
//!
//! The compiled form and the dispatch loop are in `interp/` (declared here): operands
//! are resolved at compile time to indices in one flat register file (temps, indexable
//! temps, inputs, outputs, system values, the immediate constant buffer and every
//! immediate), so that an instruction reads its sources with one array access each;
//! structured flow control becomes jumps, each other instruction calls a handler
//! chosen at compile time for its operation and operand shapes, and nothing is looked
//! up or allocated while an invocation runs.
//!
//! What runs: every SM4.0–5.0 (and 5.1, register space 0) vertex-, geometry-, pixel-
//! and compute-shader instruction but those that need the tessellator or the
//! rasterizer register (`sampleinfo`/`samplepos` of `rasterizer`). Those are refused
//! when the plan is compiled, with [`ExecErrorKind::Unsupported`] naming them; the
//! pull-model `eval_*` compile in pixel shaders and run in [`crate::raster::draw`]
//! (the attribute planes are the rasterizer's), not in [`crate::pixel::shade`]. Compute shaders
//! run through [`crate::compute::dispatch`] (the thread IDs, shared memory `g#` and
//! barriers are theirs), pixel shaders through [`crate::pixel::shade`] (quads: the
//! quad operations — derivatives, `sample`, `sample_b`, `sample_c`, `lod` — suspend a
//! pixel until its quad computes them); a [`Machine`] runs the other two. Multisampled textures (`ldms`, `sampleinfo`, `samplepos`) carry their
//! sample count in [`Dimension`](crate::resources::Dimension) and keep the samples of
//! a texel consecutive ([`TextureView`](crate::resources::TextureView)).
//! Interfaces (functional spec 7.19): the class instances bound with the shader are
//! [`Resources::class_instances`] (`tpf::interfaces`, the type `translate` takes too):
//! `fcall fp#[k][site]` runs body `site` of the table bound to slot `fp# + k` like a
//! `call` (same return stack and limits), `this[]` reads the slot's instance data
//! (an unbound slot: see the choices below); a bound table the declaration does not
//! list is [`ExecErrorKind::ClassInstance`] when the call runs, and a static
//! `fcall fp#[k]` with `k` at or past the declaration's array length is refused when
//! the plan is compiled (spec 22.7.19). Uniformly indexed `t#`, `u#` and `s#`
//! (`t[r0.w + 2]`, spec 7.11) and constant buffers (`cb[r0.x][r0.y + 3]`, what
//! `this[].x` and `.y` are for) run (which slots read as unbound: see the choices).
//! The arithmetic is in [`crate::alu`], with the choices the spec leaves open.
//!
//! Choices where the spec leaves room, or that depart from it:
//! - Registers (temps, indexable temps, outputs) start every invocation at 0, and
//!   outputs keep their values across emits (the spec: undefined; checking mode
//!   reports emits of stale outputs).
//! - A call issued with 32 entries on the return address stack is skipped, as spec
//!   7.12 says (recursion, which the spec forbids, therefore ends instead of
//!   overflowing).
//! - A case block that falls into the next one with code in it runs on (C semantics;
//!   D3D11 forbids it, D3D10 allowed it).
//! - Out-of-range relative indices read 0 and drop writes; so do reads of
//!   undeclared inputs, and of `this[]` past the declared slots (spec 22.7.20:
//!   undefined). An `fcall` whose register index is past its interface's slots calls
//!   nothing (spec 22.7.19: undefined). `abort` ends the invocation with an `Unsupported` error.
//! - A uniformly indexed `t#`, `u#`, `s#` or `cb#` whose index lands on a slot the
//!   program does not declare reads as unbound (0, or the unbound-resource result; an
//!   undeclared `s#` samples with the default sampler), even when the caller bound
//!   something there; so does a slot past the API's (functional spec 7.11 "Uniform
//!   Indexing of Resources and Samplers": indexing out of the declared range is
//!   undefined). The one exception is a class's own textures and samplers, which fxc
//!   does not declare: a `t#` (`s#`) slot a bound class instance names, `this[s].z + k`
//!   (`.w + k`) for an interface slot `s` and the operand's immediate `k`, is read.
//!   `translate` applies the same rule (it translates no uniformly indexed samplers).
//! - An interface slot with no class instance bound runs the first function table its
//!   `dcl_interface` lists and reads `this[]` as (0, 0, 0, 0) (`tpf::interfaces`).
//!   Direct3D has no such case: the runtime requires an instance in every declared
//!   slot (the `d3d11` model refuses such a draw); the default lets a plan run
//!   without a binding.
//! - Cube maps (spec 7.18.12, TextureCube Edge and Corner Handling): bilinear taps
//!   and gathers past a face's edge read the adjacent face's texels, and a corner's
//!   missing texel is the average of the other three; point sampling and integer
//!   formats clamp within the face.
//! - `sample_d` computes the isotropic LOD of spec 7.18.11, with the orthogonal
//!   Jacobian for 2D footprints (skipped in the degenerate cases the spec lists, and
//!   for 3D derivatives); there is no anisotropic filter.
//! - Comparison sampling with a [`Sampler`](crate::resources::Sampler) that has no
//!   comparison function compares with `Never`; the reference is quantized to the
//!   texture's format (float formats only; integer formats compare it as given).
//! - `sampleinfo` of a resource that is not multisampled returns 0, `samplepos` of
//!   it, of a sample index out of range or of a count without a standard pattern
//!   (1, 2, 4, 8, 16) returns 0.
//! - The tiled-resource status of the `_s` forms is always "fully mapped".

#[path = "interp/mod.rs"]
mod interp;

use crate::error::{ExecError, ExecErrorKind};
use crate::plan::{Plan, SigElement};
use crate::resources::Resources;

pub(crate) use interp::compute;
pub(crate) use interp::exec::Core;
pub(crate) use interp::lanes;
pub(crate) use interp::pixel as quad;
pub use interp::Code;
pub(crate) use interp::{PS_DEPTH, PS_MASK, PS_STENCIL};

/// Compiles `program` (see [`Plan::compile`]).
pub(crate) fn compile(
    program: &tpf::Program<'_>,
    input_signature: Vec<SigElement>,
    output_signature: Vec<SigElement>,
) -> Result<Plan, ExecError> {
    interp::compile::compile(program, input_signature, output_signature)
}

/// The system values of one geometry-shader invocation.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct GsSystemValues {
    /// `vPrim` (`SV_PrimitiveID`).
    pub primitive_id: u32,
    /// `vGSInstanceID` (`SV_GSInstanceID`).
    pub gs_instance_id: u32,
}

/// Receives what a geometry shader emits.
pub trait EmitSink {
    /// `emit`/`emit_stream` (and the emit half of `emit_then_cut*`): `outputs` is the
    /// whole output register file (`plan.output_registers` registers) at the emit; the
    /// sink copies what the stream declares.
    fn emit(&mut self, stream: u32, outputs: &[[u32; 4]]);
    /// `cut`/`cut_stream` (and the cut half of `emit_then_cut*`).
    fn cut(&mut self, stream: u32);
}

/// What one geometry-shader invocation did.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct GsRun {
    /// Vertices emitted (all streams).
    pub emitted: u32,
    /// The invocation ended because it reached `dcl_maxout` (Microsoft's dcl_maxOutputVertexCount page).
    pub hit_max_vertex_count: bool,
}

/// A finding of the checking mode ([`Machine::set_checking`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ExecDiagnostic {
    /// The instruction (index in the program).
    pub instruction: usize,
    /// What was found (an emit of an output not written since the previous emit...).
    pub message: String,
}

/// Registers for one invocation at a time, reused across invocations.
#[derive(Debug, Clone)]
pub struct Machine {
    step_limit: u64,
    core: interp::exec::Core,
}

impl Machine {
    /// The default step limit: instructions one invocation may execute.
    pub const DEFAULT_STEP_LIMIT: u64 = 1 << 24;

    /// A machine with registers sized for `plan`. (A machine may run other plans too:
    /// its registers are resized, once, when the plan changes.)
    pub fn new(plan: &Plan) -> Machine {
        let mut core = interp::exec::Core::new();
        core.load(&plan.code);
        Machine { step_limit: Self::DEFAULT_STEP_LIMIT, core }
    }

    /// Bounds every invocation to `steps` executed instructions ([`ExecErrorKind::StepLimit`]).
    pub fn set_step_limit(&mut self, steps: u64) {
        self.step_limit = steps;
    }

    /// Checking mode: report (in [`take_diagnostics`](Self::take_diagnostics)) every
    /// emit of a declared output component that was not written since the previous
    /// emit — after an emit all outputs are undefined (functional spec 13.4) — instead
    /// of silently emitting the stale value.
    pub fn set_checking(&mut self, on: bool) {
        self.core.checking = on;
    }

    /// The checking mode's findings since the last call (at most 10,000 are kept
    /// between two calls; a last finding says how many more were dropped).
    pub fn take_diagnostics(&mut self) -> Vec<ExecDiagnostic> {
        let mut d = std::mem::take(&mut self.core.diagnostics);
        if self.core.dropped > 0 {
            let instruction = d.last().map_or(0, |l| l.instruction);
            d.push(ExecDiagnostic {
                instruction,
                message: format!("{} further findings were dropped", self.core.dropped),
            });
            self.core.dropped = 0;
        }
        d
    }

    /// Runs one vertex-shader invocation. `inputs` holds the `v#` registers
    /// (`plan.input_registers` of them), system values already placed by the caller
    /// where `plan.inputs` declares them (`SV_VertexID` ... as integers). Returns the
    /// output registers (`plan.output_registers` of them).
    ///
    /// Missing inputs read 0, extra ones are ignored. Temps and outputs start at 0.
    pub fn run_vertex(
        &mut self,
        plan: &Plan,
        inputs: &[[u32; 4]],
        resources: &mut Resources<'_>,
    ) -> Result<&[[u32; 4]], ExecError> {
        let code = &plan.code;
        if code.stage_gs || code.stage_cs || code.stage_ps {
            let what = if code.stage_gs {
                "a geometry"
            } else if code.stage_cs {
                "a compute"
            } else {
                "a pixel"
            };
            return Err(ExecError::new(ExecErrorKind::Draw(format!("run_vertex on {what} shader"))));
        }
        self.core.start(code, inputs, 0, 0);
        self.core.run(code, resources, None, self.step_limit)?;
        let n = (code.layout.outputs as usize).min(self.core.regs.len());
        Ok(&self.core.regs[..n])
    }

    /// Runs a compute shader's dispatch ([`crate::compute::dispatch`]).
    pub(crate) fn dispatch(
        &mut self,
        plan: &Plan,
        groups: [u32; 3],
        resources: &mut Resources<'_>,
        limit: u64,
        order: crate::compute::GroupOrder,
    ) -> Result<compute::Counts, ExecError> {
        compute::dispatch(&mut self.core, &plan.code, groups, resources, limit, order)
    }

    /// Runs one geometry-shader invocation. `inputs` is `v[vertex][register]` flattened:
    /// `plan.input_vertices` vertices of `plan.input_registers` registers each. Emits
    /// and cuts go to `sink`; the invocation ends after `plan.max_vertex_count` emits
    /// (Microsoft's dcl_maxOutputVertexCount page) or at its end.
    ///
    /// Missing inputs read 0; relative vertex indices out of range read 0. Temps and
    /// outputs start at 0, and keep their values across emits.
    pub fn run_geometry(
        &mut self,
        plan: &Plan,
        inputs: &[[u32; 4]],
        system: GsSystemValues,
        resources: &mut Resources<'_>,
        sink: &mut dyn EmitSink,
    ) -> Result<GsRun, ExecError> {
        let code = &plan.code;
        if !code.stage_gs {
            return Err(ExecError::new(ExecErrorKind::Draw("run_geometry on a shader of another stage".into())));
        }
        self.core.start(code, inputs, system.primitive_id, system.gs_instance_id);
        let end = self.core.run(code, resources, Some(sink), self.step_limit)?;
        Ok(GsRun { emitted: end.emitted, hit_max_vertex_count: end.hit_max })
    }
}
