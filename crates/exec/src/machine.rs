//! The interpreter: [`compile`] turns a decoded program into the plan's [`Code`];
//! a [`Machine`] runs invocations of it.
//!
//! STUB: the interface below is fixed; the implementation is being written.

use crate::error::{ExecError, ExecErrorKind};
use crate::plan::{Plan, SigElement};
use crate::resources::Resources;

/// The compiled instructions of a plan (opaque outside this module).
#[derive(Debug, Clone, Default)]
pub struct Code {}

/// Compiles `program` (see [`Plan::compile`]).
pub(crate) fn compile(
    program: &tpf::Program<'_>,
    input_signature: Vec<SigElement>,
    output_signature: Vec<SigElement>,
) -> Result<Plan, ExecError> {
    let _ = (program, input_signature, output_signature);
    Err(ExecError::new(ExecErrorKind::NotImplemented("the interpreter")))
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
    /// The invocation ended because it reached `dcl_maxout` (seed 000).
    pub hit_max_vertex_count: bool,
}

/// A finding of the checking mode ([`Machine::set_checking`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ExecDiagnostic {
    /// The instruction (index in the program).
    pub instruction: usize,
    pub message: String,
}

/// Registers for one invocation at a time, reused across invocations.
#[derive(Debug, Clone)]
pub struct Machine {
    step_limit: u64,
}

impl Machine {
    /// The default step limit: instructions one invocation may execute.
    pub const DEFAULT_STEP_LIMIT: u64 = 1 << 24;

    /// A machine with registers sized for `plan`.
    pub fn new(plan: &Plan) -> Machine {
        let _ = plan;
        Machine { step_limit: Self::DEFAULT_STEP_LIMIT }
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
        let _ = on;
    }

    /// The checking mode's findings since the last call.
    pub fn take_diagnostics(&mut self) -> Vec<ExecDiagnostic> {
        Vec::new()
    }

    /// Runs one vertex-shader invocation. `inputs` holds the `v#` registers
    /// (`plan.input_registers` of them), system values already placed by the caller
    /// where `plan.inputs` declares them (`SV_VertexID` ... as integers). Returns the
    /// output registers (`plan.output_registers` of them).
    pub fn run_vertex(
        &mut self,
        plan: &Plan,
        inputs: &[[u32; 4]],
        resources: &mut Resources<'_>,
    ) -> Result<&[[u32; 4]], ExecError> {
        let _ = (plan, inputs, resources);
        Err(ExecError::new(ExecErrorKind::NotImplemented("the interpreter")))
    }

    /// Runs one geometry-shader invocation. `inputs` is `v[vertex][register]` flattened:
    /// `plan.input_vertices` vertices of `plan.input_registers` registers each. Emits
    /// and cuts go to `sink`; the invocation ends after `plan.max_vertex_count` emits
    /// (seed 000) or at its end.
    pub fn run_geometry(
        &mut self,
        plan: &Plan,
        inputs: &[[u32; 4]],
        system: GsSystemValues,
        resources: &mut Resources<'_>,
        sink: &mut dyn EmitSink,
    ) -> Result<GsRun, ExecError> {
        let _ = (plan, inputs, system, resources, sink);
        Err(ExecError::new(ExecErrorKind::NotImplemented("the interpreter")))
    }
}
