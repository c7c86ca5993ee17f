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
    Byte {
        /// Bytes from the start of the bytecode.
        offset: usize,
    },
    /// A chunk of the container.
    Chunk {
        /// Its FourCC (`OSGN`).
        fourcc: String,
        /// The byte offset of its header in the bytecode.
        offset: usize,
    },
    /// An instruction of the program.
    Instruction {
        /// Instruction index (0 = the first after the version and length tokens).
        index: usize,
        /// Token index in the program (the version token is token 0).
        token: usize,
        /// Byte offset in the bytecode given to the validator.
        offset: usize,
        /// The instruction's mnemonic as fxc prints it.
        mnemonic: &'static str,
    },
    /// An entry of the stream-output declaration.
    StreamOutput {
        /// The entry's index in `pSODeclaration`; `None`: the declaration as a whole
        /// (its strides, its rasterized stream, its entry count).
        entry: Option<usize>,
    },
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
    /// The rule broken (its row of [`RULES`](crate::RULES)).
    pub code: Code,
    /// The particulars, for a person: values, names, limits.
    pub message: String,
    /// Where.
    pub location: Location,
}

impl Diagnostic {
    /// A diagnostic of `code` at `location`.
    pub fn new(code: Code, location: Location, message: impl Into<String>) -> Diagnostic {
        Diagnostic { code, message: message.into(), location }
    }
}

impl std::fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} {}: {}", self.code, self.location, self.message)
    }
}
