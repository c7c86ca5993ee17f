//! Typed errors, each naming where in the program it was found.

use thiserror::Error;

/// A program could not be decoded: [`diagnostic::DecodeError`] (byte offset from the
/// start of the program, i.e. the version token, and the 32-bit token index there) with
/// this family's [`DecodeErrorKind`].
pub type DecodeError = diagnostic::DecodeError<DecodeErrorKind>;

/// What went wrong while decoding.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum DecodeErrorKind {
    /// The program's length in bytes (the field) is not a multiple of 4.
    #[error("the program is {0} bytes, not a whole number of 32-bit tokens")]
    NotTokenAligned(usize),
    /// No bytes.
    #[error("the program is empty (no version token)")]
    Empty,
    /// The first token (the field) is not a vertex (`0xfffe....`) or pixel
    /// (`0xffff....`) shader version.
    #[error("{0:#010x} is not a version token (bits 16-31 must be 0xfffe or 0xffff)")]
    BadVersion(u32),
    /// An opcode (the field) the instruction table does not have.
    #[error("unknown opcode {0:#06x}")]
    UnknownOpcode(u16),
    /// The tokens end before the end token.
    #[error("the program ends without the end token 0x0000ffff")]
    MissingEnd,
    /// The end opcode carries other bits (the token is the field).
    #[error("the end token is {0:#010x}, not 0x0000ffff")]
    BadEndToken(u32),
    /// Bytes (the field counts them) after the end token.
    #[error("{0} bytes follow the end token")]
    TrailingData(usize),
    /// A comment block longer than what is left.
    #[error("comment of {length} tokens runs past the end of the program ({remaining} tokens left)")]
    CommentPastEnd {
        /// Its length field: the tokens after the comment token.
        length: u32,
        /// The tokens left after the comment token.
        remaining: usize,
    },
    /// An instruction longer than what is left.
    #[error("instruction `{mnemonic}` of {length} tokens runs past the end of the program ({remaining} tokens left)")]
    InstructionPastEnd {
        /// The instruction.
        mnemonic: &'static str,
        /// Its length field: the parameter tokens after the opcode token.
        length: usize,
        /// The tokens left after the opcode token.
        remaining: usize,
    },
    /// An instruction whose stated length is shorter than its parameters (Shader
    /// Model 1, with no length field: the program ends first).
    #[error("instruction `{mnemonic}` ends before all of its parameters are read")]
    Truncated {
        /// The instruction.
        mnemonic: &'static str,
    },
    /// An instruction whose length field disagrees with its layout.
    #[error("instruction `{mnemonic}` states {stated} tokens, but its layout takes {used}")]
    BadLength {
        /// The instruction.
        mnemonic: &'static str,
        /// Its length field, in tokens.
        stated: u32,
        /// The tokens its layout reads.
        used: usize,
    },
    /// More source parameters than any instruction has.
    #[error("instruction `{mnemonic}` has more than {max} source parameters")]
    TooManySources {
        /// The instruction.
        mnemonic: &'static str,
        /// The most sources an instruction has.
        max: usize,
    },
}

/// A program could not be encoded.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum EncodeError {
    /// An instruction too long for its length field (4 bits).
    #[error("instruction {index} (`{mnemonic}`) is {length} tokens long; the length field holds at most 15")]
    InstructionTooLong {
        /// The instruction's index in the program's items.
        index: usize,
        /// The instruction.
        mnemonic: &'static str,
        /// Its length in tokens.
        length: usize,
    },
    /// A comment too long for its length field (15 bits).
    #[error("comment {index} is {length} tokens long; the length field holds at most 32767")]
    CommentTooLong {
        /// The comment's index in the program's items.
        index: usize,
        /// Its length in tokens.
        length: usize,
    },
    /// A comment whose bytes are not whole tokens.
    #[error("comment {index} is {length} bytes, not a whole number of tokens")]
    CommentNotAligned {
        /// The comment's index in the program's items.
        index: usize,
        /// Its length in bytes.
        length: usize,
    },
    /// An instruction whose [`crate::Body`] does not fit its opcode's layout.
    #[error("instruction {index} (`{mnemonic}`) has a body of the wrong kind for its opcode")]
    BodyMismatch {
        /// The instruction's index in the program's items.
        index: usize,
        /// The instruction.
        mnemonic: &'static str,
    },
    /// An instruction with the comment or end opcode.
    #[error("instruction {index} (`{mnemonic}`) is a comment or end opcode; those are not instructions")]
    NotAnInstruction {
        /// The item's index in the program.
        index: usize,
        /// The opcode's name.
        mnemonic: &'static str,
    },
    /// A register number too large for a parameter token (11 bits).
    #[error("instruction {index} (`{mnemonic}`) names register number {num}; a parameter token holds at most 2047")]
    RegisterNumber {
        /// The instruction's index in the program's items.
        index: usize,
        /// The instruction.
        mnemonic: &'static str,
        /// The register number.
        num: u16,
    },
    /// Relative addressing in the wrong form for the version.
    #[error("instruction {index} (`{mnemonic}`): relative addressing must be implicit in Shader Model 1 and carry an address token from Shader Model 2 on")]
    RelativeMismatch {
        /// The instruction's index in the program's items.
        index: usize,
        /// The instruction.
        mnemonic: &'static str,
    },
    /// A predicated instruction in Shader Model 1.
    #[error("instruction {index} (`{mnemonic}`) is predicated; Shader Model 1 has no predication")]
    PredicateInSm1 {
        /// The instruction's index in the program's items.
        index: usize,
        /// The instruction.
        mnemonic: &'static str,
    },
    /// Operands that do not fit the opcode's layout for the version.
    #[error("instruction {index} (`{mnemonic}`) has {found} sources (or a destination where it has none); its layout for this version has {expected}")]
    OperandCount {
        /// The instruction's index in the program's items.
        index: usize,
        /// The instruction.
        mnemonic: &'static str,
        /// Sources given (counting a destination where the layout has none).
        found: usize,
        /// Sources the layout has.
        expected: usize,
    },
}
