//! Shader Model 1–3 (Direct3D 9) token streams: the raw `vs_*` / `ps_*` blobs fxc writes
//! for Direct3D 9 targets, and the Shader Model 2 program inside a Level9 DXBC
//! container's `Aon9` chunk.
//!
//! - [`table`]: the instruction table, the single source of truth for every opcode;
//! - [`ir`]: the typed IR ([`Program`], [`Instruction`], [`DstParam`], [`SrcParam`]...);
//! - [`decode()`] / [`Decoder`]: tokens to IR, zero-copy and allocation-free per instruction;
//! - [`encode()`]: IR to tokens, the exact inverse of decoding;
//! - [`ctab`]: the constant table (`CTAB` comment block), typed, re-encoded byte for byte;
//! - [`dbug`]: the debug information comment block;
//! - [`print`](mod@print) / [`parse`]: fxc's listing text, both ways.

pub mod ctab;
pub mod dbug;
pub mod decode;
pub mod encode;
pub mod error;
pub mod ir;
pub mod limits;
pub mod parse;
pub mod preprocess;
pub mod print;
pub mod rules;
pub mod table;

pub use decode::{decode, Decoder};
pub use encode::{encode, encode_into};
pub use error::{DecodeError, DecodeErrorKind, EncodeError};
pub use ir::*;
pub use table::{
    listing_slots, lookup, Flow, FlowClass, FlowOp, Layout, ListedSlots, OpInfo, Opcode, SlotClass, TABLE,
};
