//! Typed errors, each naming where in the program it was found.

use thiserror::Error;

/// A program could not be decoded: [`diagnostic::DecodeError`] (byte offset from the
/// start of the program, i.e. the version token, and the 32-bit token index there) with
/// this family's [`DecodeErrorKind`].
pub type DecodeError = diagnostic::DecodeError<DecodeErrorKind>;

/// What went wrong while decoding.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum DecodeErrorKind {
    #[error("the program is {0} bytes, not a whole number of 32-bit tokens")]
    NotTokenAligned(usize),
    #[error("the program is empty (no version token)")]
    Empty,
    #[error("{0:#010x} is not a version token (bits 16-31 must be 0xfffe or 0xffff)")]
    BadVersion(u32),
    #[error("unknown opcode {0:#06x}")]
    UnknownOpcode(u16),
    #[error("the program ends without the end token 0x0000ffff")]
    MissingEnd,
    #[error("the end token is {0:#010x}, not 0x0000ffff")]
    BadEndToken(u32),
    #[error("{0} bytes follow the end token")]
    TrailingData(usize),
    #[error("comment of {length} tokens runs past the end of the program ({remaining} tokens left)")]
    CommentPastEnd { length: u32, remaining: usize },
    #[error("instruction `{mnemonic}` of {length} tokens runs past the end of the program ({remaining} tokens left)")]
    InstructionPastEnd { mnemonic: &'static str, length: usize, remaining: usize },
    #[error("instruction `{mnemonic}` ends before all of its parameters are read")]
    Truncated { mnemonic: &'static str },
    #[error("instruction `{mnemonic}` states {stated} tokens, but its layout takes {used}")]
    BadLength { mnemonic: &'static str, stated: u32, used: usize },
    #[error("instruction `{mnemonic}` has more than {max} source parameters")]
    TooManySources { mnemonic: &'static str, max: usize },
}

/// A program could not be encoded.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum EncodeError {
    #[error("instruction {index} (`{mnemonic}`) is {length} tokens long; the length field holds at most 15")]
    InstructionTooLong { index: usize, mnemonic: &'static str, length: usize },
    #[error("comment {index} is {length} tokens long; the length field holds at most 32767")]
    CommentTooLong { index: usize, length: usize },
    #[error("comment {index} is {length} bytes, not a whole number of tokens")]
    CommentNotAligned { index: usize, length: usize },
    #[error("instruction {index} (`{mnemonic}`) has a body of the wrong kind for its opcode")]
    BodyMismatch { index: usize, mnemonic: &'static str },
    #[error("instruction {index} (`{mnemonic}`) is a comment or end opcode; those are not instructions")]
    NotAnInstruction { index: usize, mnemonic: &'static str },
    #[error("instruction {index} (`{mnemonic}`) names register number {num}; a parameter token holds at most 2047")]
    RegisterNumber { index: usize, mnemonic: &'static str, num: u16 },
    #[error("instruction {index} (`{mnemonic}`): relative addressing must be implicit in Shader Model 1 and carry an address token from Shader Model 2 on")]
    RelativeMismatch { index: usize, mnemonic: &'static str },
    #[error("instruction {index} (`{mnemonic}`) is predicated; Shader Model 1 has no predication")]
    PredicateInSm1 { index: usize, mnemonic: &'static str },
    #[error("instruction {index} (`{mnemonic}`) has {found} sources (or a destination where it has none); its layout for this version has {expected}")]
    OperandCount { index: usize, mnemonic: &'static str, found: usize, expected: usize },
}
