//! Execution errors, each naming where.

use thiserror::Error;

/// Something stopped a program or a draw.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("{}{kind}", match .instruction { Some(i) => format!("instruction {i}: "), None => String::new() })]
pub struct ExecError {
    /// The instruction (index in the program) where it happened, if in a program.
    pub instruction: Option<usize>,
    /// What happened.
    pub kind: ExecErrorKind,
}

impl ExecError {
    /// An error outside a program (bytecode, draw state).
    pub fn new(kind: ExecErrorKind) -> ExecError {
        ExecError { instruction: None, kind }
    }
    /// An error at instruction `instruction` (its index in the program).
    pub fn at(instruction: usize, kind: ExecErrorKind) -> ExecError {
        ExecError { instruction: Some(instruction), kind }
    }
}

/// What went wrong.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum ExecErrorKind {
    /// The bytecode is not a container with a decodable program.
    #[error("cannot read the shader: {0}")]
    Bytecode(String),
    /// The program uses something the interpreter does not run (named).
    #[error("not supported by the interpreter: {0}")]
    Unsupported(String),
    /// The program's structure is broken (unbalanced flow control, a call to a missing
    /// label...).
    #[error("malformed program: {0}")]
    Malformed(String),
    /// An invocation ran more than its step limit (an endless loop).
    #[error("the invocation ran {0} instructions without ending (step limit)")]
    StepLimit(u64),
    /// The draw's inputs do not match what the shaders need.
    #[error("draw: {0}")]
    Draw(String),
    /// A compute shader's threads did not meet at a thread-group barrier (`sync_*_t`):
    /// one ended while others waited, or they waited at different barriers — a
    /// barrier in flow control that diverges, which Direct3D leaves undefined.
    #[error("thread-group barrier in divergent flow control: {0}")]
    DivergentBarrier(String),
    /// The class instances bound to the shader do not fit its interface declarations
    /// (a table the slot's `dcl_interface` does not list, a call site beyond the
    /// bound table's bodies...), found when an `fcall` runs.
    #[error("class instances: {0}")]
    ClassInstance(tpf::interfaces::InterfaceError),
    /// A stage the pipeline does not run yet.
    #[error("not implemented: {0}")]
    NotImplemented(&'static str),
}
