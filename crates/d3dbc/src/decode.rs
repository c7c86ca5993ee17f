//! Tokens to IR.
//!
//! [`Decoder`] walks a program item by item and decodes each instruction *into* a
//! caller's [`Instruction`] (no allocation per instruction: parameters are held inline,
//! comment blocks borrow the input); [`decode`] collects a whole [`Program`].
//!
//! A stream is the version token, instructions and comment blocks, and the end token
//! `0x0000ffff`, which must be the last token: a stream without it is
//! [`MissingEnd`](crate::DecodeErrorKind::MissingEnd), bytes after it are
//! [`TrailingData`](crate::DecodeErrorKind::TrailingData) (fxc writes none; a caller that wants
//! to accept them can stop at [`Decoder::end_offset`]).
//!
//! Shader Model 1 instruction tokens carry no length: the decoder takes the layout from
//! the table ([`OpInfo::operands`]). From Shader Model 2 on, the decoder follows the
//! length the stream states, reading a destination if the opcode has one, the
//! predicate if bit 28 is set, and then every remaining parameter as a source.
#![deny(clippy::arithmetic_side_effects, clippy::indexing_slicing)]

use crate::error::{DecodeError, DecodeErrorKind as K};
use crate::ir::*;
use crate::table::{self, Layout, OpInfo, Opcode};

/// Decodes a whole program.
pub fn decode(bytes: &[u8]) -> Result<Program<'_>, DecodeError> {
    let mut dec = Decoder::new(bytes)?;
    let mut items = Vec::with_capacity(dec.remaining_tokens() / 3);
    let mut ins = Instruction::new(Opcode::Nop);
    while let Some(step) = dec.next_into(&mut ins) {
        match step? {
            Step::Instruction(_) => items.push(Item::Instruction(ins.clone())),
            Step::Comment(_, c) => items.push(Item::Comment(c)),
        }
    }
    Ok(Program { version: dec.version(), items })
}

/// What [`Decoder::next_into`] found, with the token index where it starts.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Step<'a> {
    /// An instruction, decoded into the caller's [`Instruction`].
    Instruction(usize),
    /// A comment block.
    Comment(usize, Comment<'a>),
}

/// Walks a program one item at a time.
#[derive(Debug, Clone)]
pub struct Decoder<'a> {
    bytes: &'a [u8],
    /// Token index of the next item.
    pos: usize,
    ntokens: usize,
    version: Version,
    /// Token index of the end token, once read.
    end: Option<usize>,
    failed: bool,
}

/// Token `i` of `bytes`, if `bytes` holds it.
#[inline]
fn word(bytes: &[u8], i: usize) -> Option<u32> {
    let b = bytes.get(i.checked_mul(4)?..)?.first_chunk::<4>()?;
    Some(u32::from_le_bytes(*b))
}

/// Tokens `start..start + len` of `bytes` as bytes, if `bytes` holds them.
#[inline]
fn token_bytes(bytes: &[u8], start: usize, len: usize) -> Option<&[u8]> {
    let from = start.checked_mul(4)?;
    let to = start.checked_add(len)?.checked_mul(4)?;
    bytes.get(from..to)
}

impl<'a> Decoder<'a> {
    /// Starts decoding `bytes`: checks that it is whole tokens and reads the version token.
    pub fn new(bytes: &'a [u8]) -> Result<Decoder<'a>, DecodeError> {
        if !bytes.len().is_multiple_of(4) {
            return Err(DecodeError::at(bytes.len() / 4, K::NotTokenAligned(bytes.len())));
        }
        if bytes.is_empty() {
            return Err(DecodeError::at(0, K::Empty));
        }
        let vt = word(bytes, 0).ok_or(DecodeError::at(0, K::Empty))?;
        let version = Version::from_token(vt).ok_or(DecodeError::at(0, K::BadVersion(vt)))?;
        Ok(Decoder { bytes, pos: 1, ntokens: bytes.len() / 4, version, end: None, failed: false })
    }

    /// The program's version.
    pub fn version(&self) -> Version {
        self.version
    }

    /// Tokens not yet decoded.
    pub fn remaining_tokens(&self) -> usize {
        self.ntokens.saturating_sub(self.pos)
    }

    /// Byte offset just past the end token, once it has been read.
    pub fn end_offset(&self) -> Option<usize> {
        self.end.and_then(|t| t.checked_add(1)?.checked_mul(4))
    }

    /// Decodes the next item. An instruction is decoded into `ins` (every field is
    /// overwritten); a comment is returned. `None` once the end token has been read (or
    /// after an error).
    pub fn next_into(&mut self, ins: &mut Instruction) -> Option<Result<Step<'a>, DecodeError>> {
        if self.end.is_some() || self.failed {
            return None;
        }
        let r = self.step(ins);
        match r {
            Ok(Some(s)) => Some(Ok(s)),
            Ok(None) => None,
            Err(e) => {
                self.failed = true;
                Some(Err(e))
            }
        }
    }

    fn step(&mut self, ins: &mut Instruction) -> Result<Option<Step<'a>>, DecodeError> {
        let t = self.pos;
        let Some(tok) = word(self.bytes, t) else {
            return Err(DecodeError::at(t, K::MissingEnd));
        };
        // t < ntokens, which is at most usize::MAX / 4: t + 1 does not overflow, and
        // neither does anything up to ntokens.
        let next = t.saturating_add(1);
        let remaining = self.ntokens.saturating_sub(next);
        let code = tok as u16;
        match code {
            0xffff => {
                if tok != 0x0000_ffff {
                    return Err(DecodeError::at(t, K::BadEndToken(tok)));
                }
                if remaining != 0 {
                    return Err(DecodeError::at(next, K::TrailingData(remaining.saturating_mul(4))));
                }
                self.end = Some(t);
                return Ok(None);
            }
            0xfffe => {
                let length = (tok >> 16) & 0x7fff;
                let Some(data) = token_bytes(self.bytes, next, length as usize) else {
                    return Err(DecodeError::at(t, K::CommentPastEnd { length, remaining }));
                };
                self.pos = next.saturating_add(length as usize);
                let c = Comment { data: std::borrow::Cow::Borrowed(data), reserved: tok >> 31 != 0 };
                return Ok(Some(Step::Comment(t, c)));
            }
            _ => {}
        }
        let info = table::lookup(code).ok_or(DecodeError::at(t, K::UnknownOpcode(code)))?;
        let sm1 = self.version.is_sm1();
        ins.opcode = info.opcode;
        ins.controls = (tok >> 16) as u8;
        ins.coissue = tok >> 30 & 1 != 0;
        ins.dst = None;
        ins.predicate = None;
        ins.srcs.clear();
        ins.body = Body::None;
        let (params, predicated) = if sm1 {
            ins.reserved = tok & 0xbf00_0000;
            (token_bytes(self.bytes, next, remaining).unwrap_or(&[]), false)
        } else {
            ins.reserved = tok & 0xa000_0000;
            let len = (tok >> 24 & 0xf) as usize;
            let Some(params) = token_bytes(self.bytes, next, len) else {
                return Err(DecodeError::at(
                    t,
                    K::InstructionPastEnd { mnemonic: info.mnemonic, length: len, remaining },
                ));
            };
            (params, tok >> 28 & 1 != 0)
        };
        let mut cur = Cursor { bytes: params, pos: 0, sm1, mnemonic: info.mnemonic, at: t };
        decode_params(info, self.version, &mut cur, predicated, ins)?;
        if !sm1 && cur.pos != params.len() / 4 {
            return Err(DecodeError::at(
                t,
                K::BadLength { mnemonic: info.mnemonic, stated: (params.len() / 4) as u32, used: cur.pos },
            ));
        }
        self.pos = next.saturating_add(cur.pos);
        Ok(Some(Step::Instruction(t)))
    }
}

/// Reads the parameter tokens of one instruction.
struct Cursor<'b> {
    bytes: &'b [u8],
    pos: usize,
    sm1: bool,
    mnemonic: &'static str,
    /// Token index of the instruction token, for errors.
    at: usize,
}

impl Cursor<'_> {
    fn has_more(&self) -> bool {
        self.pos < self.bytes.len() / 4
    }

    fn next(&mut self) -> Result<u32, DecodeError> {
        let w = word(self.bytes, self.pos)
            .ok_or_else(|| DecodeError::at(self.at, K::Truncated { mnemonic: self.mnemonic }))?;
        self.pos = self.pos.saturating_add(1);
        Ok(w)
    }

    fn relative(&mut self, tok: u32) -> Result<Relative, DecodeError> {
        if tok & 0x2000 == 0 {
            Ok(Relative::None)
        } else if self.sm1 {
            Ok(Relative::Implicit)
        } else {
            Ok(Relative::Token(addr_from_token(self.next()?)))
        }
    }

    #[inline(always)]
    fn dst(&mut self) -> Result<DstParam, DecodeError> {
        let tok = self.next()?;
        Ok(DstParam {
            reg: reg_from_token(tok),
            mask: Mask((tok >> 16 & 0xf) as u8),
            modifiers: ResultModifiers((tok >> 20 & 0xf) as u8),
            shift: (tok >> 24 & 0xf) as u8,
            rel: self.relative(tok)?,
            reserved: param_reserved(tok),
        })
    }

    #[inline(always)]
    fn src(&mut self) -> Result<SrcParam, DecodeError> {
        let tok = self.next()?;
        Ok(SrcParam {
            reg: reg_from_token(tok),
            swizzle: Swizzle((tok >> 16) as u8),
            modifier: SrcModifier::from_u8((tok >> 24 & 0xf) as u8),
            rel: self.relative(tok)?,
            reserved: param_reserved(tok),
        })
    }
}

#[inline]
fn reg_from_token(tok: u32) -> Register {
    Register { ty: RegisterType::from_token(tok), num: (tok & 0x7ff) as u16 }
}

/// Bits 14–15 and bit 31 XOR 1.
#[inline]
fn param_reserved(tok: u32) -> u32 {
    (tok & 0xc000) | ((tok & 0x8000_0000) ^ 0x8000_0000)
}

/// Reads an address token (bits 13–15 and bit 31 XOR 1 go to `reserved`).
pub fn addr_from_token(tok: u32) -> AddrToken {
    AddrToken {
        reg: reg_from_token(tok),
        swizzle: Swizzle((tok >> 16) as u8),
        modifier: SrcModifier::from_u8((tok >> 24 & 0xf) as u8),
        reserved: (tok & 0xe000) | ((tok & 0x8000_0000) ^ 0x8000_0000),
    }
}

fn decode_params(
    info: &OpInfo,
    version: Version,
    cur: &mut Cursor<'_>,
    predicated: bool,
    ins: &mut Instruction,
) -> Result<(), DecodeError> {
    let raw4 = |cur: &mut Cursor<'_>| -> Result<[u32; 4], DecodeError> {
        Ok([cur.next()?, cur.next()?, cur.next()?, cur.next()?])
    };
    match info.layout {
        Layout::Dcl => {
            let t = cur.next()?;
            ins.body = Body::Dcl(DclToken::from_token(t));
            ins.dst = Some(cur.dst()?);
            if predicated {
                ins.predicate = Some(cur.src()?);
            }
        }
        Layout::Def | Layout::DefI => {
            ins.dst = Some(cur.dst()?);
            if predicated {
                ins.predicate = Some(cur.src()?);
            }
            let v = raw4(cur)?;
            ins.body = if info.layout == Layout::Def { Body::Def(v) } else { Body::DefI(v) };
        }
        Layout::DefB => {
            ins.dst = Some(cur.dst()?);
            if predicated {
                ins.predicate = Some(cur.src()?);
            }
            ins.body = Body::DefB(cur.next()?);
        }
        Layout::Comment | Layout::End => {
            // Handled by the caller before the table is consulted.
            return Err(DecodeError::at(cur.at, K::UnknownOpcode(info.opcode as u16)));
        }
        _ => {
            let (has_dst, nsrc) = info.operands(version.kind, version.ver()).unwrap_or((false, 0));
            if has_dst {
                ins.dst = Some(cur.dst()?);
            }
            if predicated {
                ins.predicate = Some(cur.src()?);
            }
            if cur.sm1 {
                for _ in 0..nsrc {
                    let s = cur.src()?;
                    ins.srcs.push(s);
                }
            } else {
                while cur.has_more() {
                    if ins.srcs.is_full() {
                        return Err(DecodeError::at(
                            cur.at,
                            K::TooManySources { mnemonic: info.mnemonic, max: MAX_SRCS },
                        ));
                    }
                    let s = cur.src()?;
                    ins.srcs.push(s);
                }
            }
        }
    }
    Ok(())
}
