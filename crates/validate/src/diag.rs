//! Diagnostics: which rule, what exactly, and where.

use crate::codes::Code;
use serde::Serialize;

/// Where a diagnostic points.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Location {
    /// The call itself (its arguments) or the shader as a whole.
    Shader,
    /// A byte offset in the bytecode.
    Byte { offset: usize },
    /// A chunk of the container (its FourCC and the byte offset of its header).
    Chunk { fourcc: String, offset: usize },
    /// An instruction of the program: its index (0 = first after the version and
    /// length tokens), its token index in the program, and its byte offset in the
    /// bytecode given to the validator.
    Instruction { index: usize, token: usize, offset: usize, mnemonic: &'static str },
    /// An entry of the stream-output declaration (`None`: the declaration as a whole,
    /// e.g. its strides or rasterized stream).
    StreamOutput { entry: Option<usize> },
}

impl std::fmt::Display for Location {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Location::Shader => f.write_str("shader"),
            Location::Byte { offset } => write!(f, "byte {offset}"),
            Location::Chunk { fourcc, offset } => write!(f, "chunk {fourcc} at byte {offset}"),
            Location::Instruction { index, token, offset, mnemonic } => {
                write!(f, "instruction {index} `{mnemonic}` (token {token}, byte {offset})")
            }
            Location::StreamOutput { entry: Some(i) } => write!(f, "stream-output entry {i}"),
            Location::StreamOutput { entry: None } => f.write_str("stream-output declaration"),
        }
    }
}

/// One finding: the rule broken, a message with the particulars, and where.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Diagnostic {
    pub code: Code,
    pub message: String,
    pub location: Location,
}

impl Diagnostic {
    pub fn new(code: Code, location: Location, message: impl Into<String>) -> Diagnostic {
        Diagnostic { code, message: message.into(), location }
    }
}

impl std::fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} {}: {}", self.code, self.location, self.message)
    }
}
