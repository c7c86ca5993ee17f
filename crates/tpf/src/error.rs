//! Typed errors, each naming where in the program it was found.

use thiserror::Error;

/// A program could not be decoded. `offset` is the byte offset from the start of the
/// program (the version token) and `token` the 32-bit token index there.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("byte {offset} (token {token}): {kind}")]
pub struct DecodeError {
    pub offset: usize,
    pub token: usize,
    pub kind: DecodeErrorKind,
}

impl DecodeError {
    pub(crate) fn at(token: usize, kind: DecodeErrorKind) -> DecodeError {
        DecodeError { offset: token * 4, token, kind }
    }

    /// The same error with `base` added to its byte offset (for a program found at
    /// `base` inside a container).
    pub fn rebased(mut self, base: usize) -> DecodeError {
        self.offset += base;
        self
    }
}

/// What went wrong while decoding.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum DecodeErrorKind {
    #[error("the program is {0} bytes, not a whole number of 32-bit tokens")]
    NotTokenAligned(usize),
    #[error("the program has no version and length tokens")]
    MissingHeader,
    #[error("the length token says {declared} tokens, but only {available} are present")]
    LengthPastEnd { declared: u32, available: usize },
    #[error("the length token says {0} tokens; at least 2 (version and length) are needed")]
    LengthTooSmall(u32),
    #[error("unknown opcode {0}")]
    UnknownOpcode(u16),
    #[error("instruction `{0}` has length 0")]
    ZeroLength(&'static str),
    #[error("instruction `{mnemonic}` of {length} tokens runs past the end of the program ({remaining} tokens left)")]
    InstructionPastEnd { mnemonic: &'static str, length: u32, remaining: usize },
    #[error("custom-data block of {length} tokens runs past the end of the program ({remaining} tokens left)")]
    CustomDataPastEnd { length: u32, remaining: usize },
    #[error("custom-data block length {0} is less than 2")]
    CustomDataTooShort(u32),
    #[error("`{0}` ends before all of its operands and fields are read")]
    InstructionTruncated(&'static str),
    #[error("index representation {0} is not defined")]
    BadIndexRepresentation(u8),
    #[error("a relative index must be a register with immediate indices")]
    BadRelativeOperand,
    #[error("more than {0} extended opcode tokens")]
    TooManyExtendedOpcodes(usize),
    #[error("an extended operand token is followed by another, which the format does not define")]
    ExtendedOperandChain,
    #[error("`{0}` has more operands than an instruction holds")]
    TooManyOperands(&'static str),
}

/// A program could not be encoded.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum EncodeError {
    #[error("instruction {index} (`{mnemonic}`) is {length} tokens long; an inline length holds at most 127")]
    InstructionTooLong { index: usize, mnemonic: &'static str, length: usize },
    #[error("instruction {index} (`{mnemonic}`) has {found} operands; its table row has {expected}")]
    OperandCount { index: usize, mnemonic: &'static str, found: usize, expected: usize },
    #[error("instruction {index} (`{mnemonic}`) has a body of the wrong kind for its opcode")]
    BodyMismatch { index: usize, mnemonic: &'static str },
    #[error("the program is longer than 2^32 tokens")]
    ProgramTooLong,
    #[error("instruction {index} (`{mnemonic}`) refers to an operand, extended token or run of tokens its program does not hold")]
    BadHandle { index: usize, mnemonic: &'static str },
    #[error("instruction {index} (`{mnemonic}`) has a relative-index register that is itself relatively indexed")]
    NestedRelative { index: usize, mnemonic: &'static str },
}
