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
//!
//! ```
//! use tpf::{decode, encode, Decoder, Opcode, OperandType, ProgramType, Style};
//!
//! fn main() -> Result<(), Box<dyn std::error::Error>> {
//!     // A program from its listing text (the inverse of the printer).
//!     let text = "vs_5_0\n\
//!                 dcl_globalFlags refactoringAllowed\n\
//!                 dcl_input v0.xyzw\n\
//!                 dcl_output_siv o0.xyzw, position\n\
//!                 dcl_temps 1\n\
//!                 mul r0.xyzw, v0.xyzw, l(2.000000, 2.000000, 2.000000, 1.000000)\n\
//!                 mov o0.xyzw, r0.xyzw\n\
//!                 ret \n";
//!     let parsed = tpf::parse::parse_program(text).map_err(|d| format!("{d:?}"))?;
//!     let program = parsed.program;
//!     assert_eq!((program.version.ty, program.version.major), (ProgramType::Vertex, 5));
//!
//!     // Tokens and back: encoding is the exact inverse of decoding.
//!     let tokens = encode(&program)?;
//!     let bytes: Vec<u8> = tokens.iter().flat_map(|t| t.to_le_bytes()).collect();
//!     let decoded = decode(&bytes)?;
//!     assert_eq!(encode(&decoded)?, tokens);
//!
//!     // Instructions are read through views that resolve their operands.
//!     let mul = decoded.iter().find(|i| i.instruction().opcode == Opcode::Mul).ok_or("no mul")?;
//!     let types: Vec<OperandType> = mul.operands().iter().map(|o| o.ty).collect();
//!     assert_eq!(types, [OperandType::Temp, OperandType::Input, OperandType::Immediate32]);
//!     assert_eq!(Opcode::Mul.info().mnemonic, "mul");
//!
//!     // The printer writes the listing text of the chosen compiler version.
//!     let mut listing = String::new();
//!     tpf::print::print_program(&decoded, Style::D3DCOMPILER_47, &mut listing);
//!     assert_eq!(listing, text);
//!
//!     // The streaming decoder lends one instruction at a time, allocating nothing.
//!     let mut decoder = Decoder::new(&bytes)?;
//!     let mut count = 0;
//!     while let Some(next) = decoder.next_instruction() {
//!         next?;
//!         count += 1;
//!     }
//!     assert_eq!(count, 7);
//!
//!     // Malformed input is an error naming the byte offset and token.
//!     let error = decode(&bytes[..bytes.len() - 4]).unwrap_err();
//!     assert_eq!(error.token, 1);
//!     Ok(())
//! }
//! ```

#![warn(missing_docs)]

pub mod blocks;
pub mod compute;
pub mod decode;
mod digits;
pub mod encode;
pub mod enums;
pub mod error;
mod folded;
pub mod interfaces;
pub mod ir;
pub mod layout;
pub mod limits;
pub mod parse;
pub mod print;
pub mod style;
pub mod table;
pub mod topology;
pub mod words;
mod written;

pub use decode::{decode, Decoder};
pub use encode::encode;
pub use enums::*;
pub use error::{DecodeError, DecodeErrorKind, EncodeError};
pub use ir::*;
pub use style::{CompilerVersion, Style};
pub use table::{OpFeatures, OpInfo, Opcode, StatClass, TABLE};
pub use topology::Topology;
pub use words::Words;
