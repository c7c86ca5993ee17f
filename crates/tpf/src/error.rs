//! Typed errors, each naming where in the program it was found.

use thiserror::Error;

/// A program could not be decoded: [`diagnostic::DecodeError`] (byte offset from the
/// start of the program, i.e. the version token, and the 32-bit token index there) with
/// this family's [`DecodeErrorKind`].
pub type DecodeError = diagnostic::DecodeError<DecodeErrorKind>;

/// What went wrong while decoding.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum DecodeErrorKind {
    /// The length in bytes (the field) is not a multiple of 4.
    #[error("the program is {0} bytes, not a whole number of 32-bit tokens")]
    NotTokenAligned(usize),
    /// Fewer than two tokens.
    #[error("the program has no version and length tokens")]
    MissingHeader,
    /// The length token counts more tokens than there are.
    #[error("the length token says {declared} tokens, but only {available} are present")]
    LengthPastEnd {
        /// The length token's value.
        declared: u32,
        /// The tokens present.
        available: usize,
    },
    /// The length token (the field) is below 2.
    #[error("the length token says {0} tokens; at least 2 (version and length) are needed")]
    LengthTooSmall(u32),
    /// An opcode number (the field) the instruction table does not have.
    #[error("unknown opcode {0}")]
    UnknownOpcode(u16),
    /// An instruction (the field) whose length is 0.
    #[error("instruction `{0}` has length 0")]
    ZeroLength(&'static str),
    /// An instruction longer than what is left.
    #[error("instruction `{mnemonic}` of {length} tokens runs past the end of the program ({remaining} tokens left)")]
    InstructionPastEnd {
        /// The instruction.
        mnemonic: &'static str,
        /// Its length in tokens, the opcode token included.
        length: u32,
        /// The tokens from its opcode token to the end of the program.
        remaining: usize,
    },
    /// A custom-data block longer than what is left.
    #[error("custom-data block of {length} tokens runs past the end of the program ({remaining} tokens left)")]
    CustomDataPastEnd {
        /// Its length in tokens, the first two included.
        length: u32,
        /// The tokens from its first token to the end of the program.
        remaining: usize,
    },
    /// A custom-data block whose length (the field, in tokens) is below 2.
    #[error("custom-data block length {0} is less than 2")]
    CustomDataTooShort(u32),
    /// An instruction (the field) whose length ends before its operands and fields.
    #[error("`{0}` ends before all of its operands and fields are read")]
    InstructionTruncated(&'static str),
    /// An operand index representation (the field) the format does not define.
    #[error("index representation {0} is not defined")]
    BadIndexRepresentation(u8),
    /// A relative index that is not a register with immediate indices.
    #[error("a relative index must be a register with immediate indices")]
    BadRelativeOperand,
    /// More extended opcode tokens than an instruction may have (the field).
    #[error("more than {0} extended opcode tokens")]
    TooManyExtendedOpcodes(usize),
    /// An extended operand token that says another follows.
    #[error("an extended operand token is followed by another, which the format does not define")]
    ExtendedOperandChain,
    /// An instruction (the field) with more operands than an instruction holds.
    #[error("`{0}` has more operands than an instruction holds")]
    TooManyOperands(&'static str),
}

/// A program could not be encoded.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum EncodeError {
    /// An instruction too long for the inline length field (7 bits) that it uses.
    #[error("instruction {index} (`{mnemonic}`) is {length} tokens long; an inline length holds at most 127")]
    InstructionTooLong {
        /// The instruction's index in the program.
        index: usize,
        /// The instruction.
        mnemonic: &'static str,
        /// Its length in tokens.
        length: usize,
    },
    /// An instruction whose operand count is not its table row's.
    #[error("instruction {index} (`{mnemonic}`) has {found} operands; its table row has {expected}")]
    OperandCount {
        /// The instruction's index in the program.
        index: usize,
        /// The instruction.
        mnemonic: &'static str,
        /// Operands it has.
        found: usize,
        /// Operands its row has.
        expected: usize,
    },
    /// An instruction whose [`crate::Body`] does not fit its opcode's shape.
    #[error("instruction {index} (`{mnemonic}`) has a body of the wrong kind for its opcode")]
    BodyMismatch {
        /// The instruction's index in the program.
        index: usize,
        /// The instruction.
        mnemonic: &'static str,
    },
    /// More tokens than the length token can count.
    #[error("the program is longer than 2^32 tokens")]
    ProgramTooLong,
    /// A handle that does not name an element of the program's arenas.
    #[error("instruction {index} (`{mnemonic}`) refers to an operand, extended token or run of tokens its program does not hold")]
    BadHandle {
        /// The instruction's index in the program.
        index: usize,
        /// The instruction.
        mnemonic: &'static str,
    },
    /// A relative index's register that is relatively indexed itself.
    #[error("instruction {index} (`{mnemonic}`) has a relative-index register that is itself relatively indexed")]
    NestedRelative {
        /// The instruction's index in the program.
        index: usize,
        /// The instruction.
        mnemonic: &'static str,
    },
}
