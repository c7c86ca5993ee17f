//! The Shader Model 4/4.1/5/5.1 tokenized program (the contents of a DXBC `SHDR` or
//! `SHEX` chunk).
//!
//! - [`table`]: the instruction table, the single source of truth for every opcode;
//! - [`layout`]: the declaration layouts as data (opcode-token fields, tokens, listing
//!   text), which the decoder, encoder, printer and parser all read;
//! - [`ir`]: the typed IR, an arena ([`Program`] with its operands, extended tokens and
//!   runs of tokens; [`Instruction`], [`Operand`], [`Decl`]... naming them by handle,
//!   read through [`InstructionRef`] views);
//! - [`decode()`] / [`Decoder`]: tokens to IR, zero-copy and allocation-free per instruction;
//! - [`encode()`]: IR to tokens, the exact inverse of decoding;
//! - [`print`](mod@print): fxc's listing text for the program.

pub mod blocks;
pub mod decode;
mod digits;
pub mod encode;
pub mod enums;
pub mod error;
mod folded;
pub mod ir;
pub mod layout;
pub mod limits;
pub mod parse;
pub mod print;
pub mod style;
pub mod table;
pub mod words;
mod written;

pub use decode::{decode, Decoder};
pub use encode::encode;
pub use enums::*;
pub use error::{DecodeError, DecodeErrorKind, EncodeError};
pub use ir::*;
pub use style::{CompilerVersion, Style};
pub use table::{OpFeatures, OpInfo, Opcode, StatClass, TABLE};
pub use words::Words;
