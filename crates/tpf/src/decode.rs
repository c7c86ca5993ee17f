//! Decoding tokens into the IR.
//!
//! [`Decoder`] walks a program one instruction at a time without allocating;
//! [`decode`] collects a whole [`Program`]. Every read is bounds-checked against the
//! end of the current instruction, and every failure is a [`DecodeError`] naming the
//! token where it happened.

#![deny(clippy::arithmetic_side_effects, clippy::indexing_slicing)]

use crate::enums::*;
use crate::error::{DecodeError, DecodeErrorKind as E};
use crate::ir::*;
use crate::layout as L;
use crate::table::{Controls, DeclKind, Opcode, Shape};
use crate::words::Words;
use arrayvec::ArrayVec;

/// Decodes a whole program (version token, length token, instructions).
///
/// `bytes` may be longer than the program (a chunk padded after it); the length token
/// decides where the program ends.
pub fn decode(bytes: &[u8]) -> Result<Program<'_>, DecodeError> {
    let (version, mut pos, end) = header(bytes)?;
    let mut program = Program::new(version);
    // Guesses from the token count (an instruction takes 4 to 5 tokens on average, an
    // operand 2), capped so that a huge program grows its arenas as it goes.
    let tokens = end.saturating_sub(pos);
    program.instructions.reserve((tokens / 4).min(1 << 16));
    program.operands.reserve((tokens / 2).min(1 << 17));
    while pos < end {
        let (ins, next) = decode_into(bytes, pos, end, &mut program)?;
        program.instructions.push(ins);
        pos = next;
    }
    Ok(program)
}

/// Reads the version token of a program.
pub fn decode_version(token: u32) -> Version {
    Version {
        ty: ProgramType::from_raw((token >> 16) as u16),
        major: ((token >> 4) & 0xf) as u8,
        minor: (token & 0xf) as u8,
        reserved: ((token >> 8) & 0xff) as u8,
    }
}

/// The version token, the index of the first instruction token and the token index
/// where the program ends.
fn header(bytes: &[u8]) -> Result<(Version, usize, usize), DecodeError> {
    let available = bytes.len() / 4;
    if available < 2 {
        return Err(DecodeError::at(0, E::MissingHeader));
    }
    let (Some(first), Some(declared)) = (token(bytes, 0), token(bytes, 1)) else {
        return Err(DecodeError::at(0, E::MissingHeader));
    };
    if declared < 2 {
        return Err(DecodeError::at(1, E::LengthTooSmall(declared)));
    }
    if declared as usize > available {
        return Err(DecodeError::at(1, E::LengthPastEnd { declared, available }));
    }
    Ok((decode_version(first), 2, declared as usize))
}

/// Where decoding puts what an instruction refers to: a [`Program`]'s arenas, or the
/// streaming decoder's fixed buffers. `None` when there is no room (which the
/// decoder's buffers, sized for the largest instruction, never run out of).
pub(crate) trait Sink<'a> {
    fn operand(&mut self, o: Operand) -> Option<OperandId>;
    fn operands(&mut self, ops: &[Operand]) -> Option<Span>;
    fn extended(&mut self, ext: &[ExtOpcode]) -> Option<Span>;
    fn words(&mut self, w: Words<'a>) -> Option<WordsId>;
}

impl<'a> Sink<'a> for Program<'a> {
    #[inline]
    fn operand(&mut self, o: Operand) -> Option<OperandId> {
        let id = OperandId(u32::try_from(self.operands.len()).ok()?);
        self.operands.push(o);
        Some(id)
    }
    #[inline]
    fn operands(&mut self, ops: &[Operand]) -> Option<Span> {
        let start = u32::try_from(self.operands.len()).ok()?;
        self.operands.extend_from_slice(ops);
        Some(Span { start, len: ops.len() as u32 })
    }
    fn extended(&mut self, ext: &[ExtOpcode]) -> Option<Span> {
        let start = u32::try_from(self.extended.len()).ok()?;
        self.extended.extend_from_slice(ext);
        Some(Span { start, len: ext.len() as u32 })
    }
    fn words(&mut self, w: Words<'a>) -> Option<WordsId> {
        let id = WordsId(u32::try_from(self.words.len()).ok()?);
        self.words.push(w);
        Some(id)
    }
}

/// The most operands one instruction refers to: its own and one register per
/// relative index of each.
const MAX_INSTRUCTION_OPERANDS: usize = MAX_OPERANDS * 4;

/// The streaming decoder's buffers: everything the current instruction refers to.
struct Scratch<'a> {
    operands: ArrayVec<Operand, MAX_INSTRUCTION_OPERANDS>,
    extended: ArrayVec<ExtOpcode, MAX_EXTENDED>,
    /// A declaration's or a data block's run of tokens, and trailing tokens.
    words: ArrayVec<Words<'a>, 2>,
}

impl<'a> Sink<'a> for Scratch<'a> {
    #[inline]
    fn operand(&mut self, o: Operand) -> Option<OperandId> {
        let id = OperandId(self.operands.len() as u32);
        self.operands.try_push(o).ok()?;
        Some(id)
    }
    #[inline]
    fn operands(&mut self, ops: &[Operand]) -> Option<Span> {
        let start = self.operands.len() as u32;
        self.operands.try_extend_from_slice(ops).ok()?;
        Some(Span { start, len: ops.len() as u32 })
    }
    fn extended(&mut self, ext: &[ExtOpcode]) -> Option<Span> {
        let start = self.extended.len() as u32;
        self.extended.try_extend_from_slice(ext).ok()?;
        Some(Span { start, len: ext.len() as u32 })
    }
    fn words(&mut self, w: Words<'a>) -> Option<WordsId> {
        let id = WordsId(self.words.len() as u32);
        self.words.try_push(w).ok()?;
        Some(id)
    }
}

/// Walks a program one instruction at a time, without allocating: each instruction is
/// decoded into the decoder's own buffers and handed out as an [`InstructionRef`]
/// that lives until the next one is asked for.
pub struct Decoder<'a> {
    bytes: &'a [u8],
    version: Version,
    /// Next token to read.
    pos: usize,
    /// Token index where the program ends (from the length token).
    end: usize,
    failed: bool,
    current: Instruction,
    scratch: Scratch<'a>,
}

impl<'a> Decoder<'a> {
    /// Reads the version and length tokens.
    pub fn new(bytes: &'a [u8]) -> Result<Decoder<'a>, DecodeError> {
        let (version, pos, end) = header(bytes)?;
        Ok(Decoder {
            bytes,
            version,
            pos,
            end,
            failed: false,
            current: Instruction::placeholder(),
            scratch: Scratch { operands: ArrayVec::new(), extended: ArrayVec::new(), words: ArrayVec::new() },
        })
    }

    /// The program's version token.
    pub fn version(&self) -> Version {
        self.version
    }

    /// Tokens not yet read.
    pub fn remaining_tokens(&self) -> usize {
        self.end.saturating_sub(self.pos)
    }

    /// Decodes the next instruction, reusing the decoder's buffers (nothing is
    /// allocated), and returns the token index it starts at with a view of it; `None`
    /// at the end of the program (or after an error).
    #[inline]
    pub fn next_instruction(&mut self) -> Option<Result<(usize, InstructionRef<'_, 'a>), DecodeError>> {
        if self.failed || self.pos >= self.end {
            return None;
        }
        let start = self.pos;
        self.scratch.operands.clear();
        self.scratch.extended.clear();
        self.scratch.words.clear();
        match decode_into(self.bytes, start, self.end, &mut self.scratch) {
            Ok((ins, next)) => {
                self.pos = next;
                self.current = ins;
                let pool = Pool {
                    operands: &self.scratch.operands,
                    extended: &self.scratch.extended,
                    words: &self.scratch.words,
                };
                Some(Ok((start, InstructionRef::new(&self.current, pool))))
            }
            Err(e) => {
                self.failed = true;
                Some(Err(e))
            }
        }
    }
}

/// A bounded cursor over the tokens of one instruction.
struct Cursor<'a> {
    bytes: &'a [u8],
    pos: usize,
    end: usize,
    mnemonic: &'static str,
}

impl<'a> Cursor<'a> {
    #[inline]
    fn read(&mut self) -> Result<u32, DecodeError> {
        if self.pos >= self.end {
            return Err(DecodeError::at(self.pos, E::InstructionTruncated(self.mnemonic)));
        }
        let t = token(self.bytes, self.pos)
            .ok_or_else(|| DecodeError::at(self.pos, E::InstructionTruncated(self.mnemonic)))?;
        // `pos < end <= token count`, so this cannot saturate.
        self.pos = self.pos.saturating_add(1);
        Ok(t)
    }

    #[inline]
    fn remaining(&self) -> usize {
        // The cursor never moves past `end`.
        self.end.saturating_sub(self.pos)
    }

    fn read_opt(&mut self) -> Result<Option<u32>, DecodeError> {
        if self.remaining() > 0 {
            self.read().map(Some)
        } else {
            Ok(None)
        }
    }

    fn words(&mut self, count: usize) -> Result<Words<'a>, DecodeError> {
        if count > self.remaining() {
            return Err(DecodeError::at(self.end, E::InstructionTruncated(self.mnemonic)));
        }
        let truncated = || DecodeError::at(self.end, E::InstructionTruncated(self.mnemonic));
        let from = self.pos.checked_mul(4).ok_or_else(truncated)?;
        let to = self.pos.checked_add(count).and_then(|e| e.checked_mul(4)).ok_or_else(truncated)?;
        let w = Words::borrowed(self.bytes.get(from..to).ok_or_else(truncated)?);
        // `count <= remaining`, checked above.
        self.pos = self.pos.saturating_add(count);
        Ok(w)
    }
}

/// Token `i` of `bytes`, if the bytes hold it.
#[inline]
fn token(bytes: &[u8], i: usize) -> Option<u32> {
    bytes.get(i.checked_mul(4)?..)?.first_chunk::<4>().map(|b| u32::from_le_bytes(*b))
}

/// Token `i` of an instruction being decoded. Callers read only tokens below the
/// program's end, which the length token was checked against, so the error (the
/// instruction is cut short) is not expected to arise.
#[inline]
fn token_at(bytes: &[u8], i: usize) -> Result<u32, DecodeError> {
    token(bytes, i).ok_or_else(|| DecodeError::at(i, E::InstructionTruncated("instruction")))
}

/// Decodes the instruction at token `start`, putting what it refers to in `sink`;
/// returns it and the index of the next one.
#[inline]
fn decode_into<'a, S: Sink<'a>>(
    bytes: &'a [u8],
    start: usize,
    end: usize,
    sink: &mut S,
) -> Result<(Instruction, usize), DecodeError> {
    let tok0 = token_at(bytes, start)?;
    let number = (tok0 & 0x7ff) as u16;

    if number == Opcode::CustomData as u16 {
        // The decoder calls with `start < end`.
        let remaining = end.saturating_sub(start);
        if remaining < 2 {
            return Err(DecodeError::at(start, E::CustomDataTooShort(remaining as u32)));
        }
        let length = token_at(bytes, start.saturating_add(1))?;
        if length < 2 {
            return Err(DecodeError::at(start.saturating_add(1), E::CustomDataTooShort(length)));
        }
        if length as usize > remaining {
            return Err(DecodeError::at(start.saturating_add(1), E::CustomDataPastEnd { length, remaining }));
        }
        // `length <= remaining`: `next <= end`.
        let next = start.saturating_add(length as usize);
        // `2 <= length <= remaining`: the block lies inside the program.
        let data_range = start.saturating_add(2).saturating_mul(4)..next.saturating_mul(4);
        let data = Words::borrowed(
            bytes
                .get(data_range)
                .ok_or_else(|| DecodeError::at(start.saturating_add(1), E::CustomDataPastEnd { length, remaining }))?,
        );
        let data = sink.words(data).ok_or_else(|| DecodeError::at(start, E::TooManyOperands("customdata")))?;
        let body = Body::CustomData(CustomData { class: CustomDataClass::from_raw(tok0 >> 11), data });
        return Ok((Instruction::new(Opcode::CustomData, body), next));
    }

    let opcode = Opcode::from_u16(number).ok_or_else(|| DecodeError::at(start, E::UnknownOpcode(number)))?;
    let info = opcode.info();
    let mut length = (tok0 >> 24) & 0x7f;
    let mut length_enc = LengthEncoding::Inline;
    let mut cur = Cursor { bytes, pos: start.saturating_add(1), end, mnemonic: info.mnemonic };
    if length == 0 {
        length = cur.read()?;
        length_enc = LengthEncoding::Separate;
        if length == 0 {
            return Err(DecodeError::at(start.saturating_add(1), E::ZeroLength(info.mnemonic)));
        }
    }
    let remaining = end.saturating_sub(start);
    if length as usize > remaining {
        return Err(DecodeError::at(start, E::InstructionPastEnd { mnemonic: info.mnemonic, length, remaining }));
    }
    // `length <= remaining`: `next <= end`.
    let next = start.saturating_add(length as usize);
    cur.end = next;
    if cur.pos > cur.end {
        return Err(DecodeError::at(start, E::InstructionTruncated(info.mnemonic)));
    }
    let full = |at: usize| DecodeError::at(at, E::TooManyOperands(info.mnemonic));

    let mut ext_span = Span::EMPTY;
    if tok0 & 0x8000_0000 != 0 {
        let mut ext: ArrayVec<ExtOpcode, MAX_EXTENDED> = ArrayVec::new();
        loop {
            let at = cur.pos;
            let t = cur.read()?;
            if ext.try_push(decode_ext_opcode(t)).is_err() {
                return Err(DecodeError::at(at, E::TooManyExtendedOpcodes(MAX_EXTENDED)));
            }
            if t & 0x8000_0000 == 0 {
                break;
            }
        }
        ext_span = sink.extended(&ext).ok_or_else(|| full(start))?;
    }

    let controls = tok0 & 0x00ff_f800;
    let (body, used) = match info.shape {
        Shape::Ops => {
            let (saturate, precise, control, used) = decode_controls(info.controls, tok0);
            let mut operands: ArrayVec<Operand, MAX_OPERANDS> = ArrayVec::new();
            for _ in 0..info.operand_count() {
                let o = decode_operand(&mut cur, sink)?;
                operands.try_push(o).map_err(|_| full(cur.pos))?;
            }
            let operands = sink.operands(&operands).ok_or_else(|| full(start))?;
            (Body::Op(Op { saturate, precise, control, operands }), used)
        }
        Shape::InterfaceCall => {
            let function = cur.read()?;
            let interface = decode_operand(&mut cur, sink)?;
            let interface = sink.operand(interface).ok_or_else(|| full(start))?;
            (Body::InterfaceCall { function, interface }, 0)
        }
        Shape::Decl(kind) => {
            let (decl, used) = decode_decl(kind, tok0, &mut cur, sink)?;
            (Body::Decl(decl), used)
        }
        Shape::CustomData => unreachable!("handled above"),
    };
    let rest = cur.words(cur.remaining())?;
    let trailing = if rest.is_empty() { None } else { Some(sink.words(rest).ok_or_else(|| full(start))?) };
    let ins = Instruction { opcode, body, ext: ext_span, reserved: controls & !used, length: length_enc, trailing };
    Ok((ins, next))
}

/// Decodes the opcode-specific controls of an executable instruction: saturate,
/// precise mask, other control, and the mask of bits they use.
fn decode_controls(kind: Controls, tok0: u32) -> (bool, Mask, OpControl, u32) {
    let used = kind.mask();
    // (`sync`'s flags cover bit 13: a field, not the mask, says whether `_sat` is there.)
    let has_sat = kind.fields().contains(&L::SATURATE);
    let sat = has_sat && L::SATURATE.get(tok0) != 0;
    let precise = if has_sat { Mask(L::PRECISE.get(tok0) as u8) } else { Mask::NONE };
    let control = match kind {
        Controls::Plain | Controls::None => OpControl::None,
        Controls::Test => OpControl::Test(if L::TEST_NONZERO.get(tok0) != 0 { Test::NonZero } else { Test::Zero }),
        Controls::ResInfo => OpControl::ResInfo(ResInfoReturnType::from_raw(L::RETURN_TYPE.get(tok0) as u8)),
        Controls::ReturnType => OpControl::ReturnType(InstructionReturnType::from_raw(L::RETURN_TYPE.get(tok0) as u8)),
        Controls::Sync => OpControl::Sync(SyncFlags(L::SYNC_FLAGS.get(tok0) as u8)),
    };
    (sat, precise, control, used)
}

fn decode_ext_opcode(t: u32) -> ExtOpcode {
    let kind = ExtendedOpcodeKind::from_raw((t & 0x3f) as u8);
    match kind {
        ExtendedOpcodeKind::SampleControls => {
            let off = |shift: u32| (((t >> shift) & 0xf) as i8) << 4 >> 4;
            ExtOpcode::SampleControls {
                offsets: [off(9), off(13), off(17)],
                reserved: t & !(0x3f | (0xfff << 9) | 0x8000_0000),
            }
        }
        ExtendedOpcodeKind::ResourceDim => ExtOpcode::ResourceDim {
            dim: ResourceDimension::from_raw(((t >> 6) & 0x1f) as u8),
            stride: ((t >> 11) & 0xfff) as u16,
            reserved: t & !(0x3f | (0x1f << 6) | (0xfff << 11) | 0x8000_0000),
        },
        ExtendedOpcodeKind::ResourceReturnType => ExtOpcode::ReturnType {
            types: [6, 10, 14, 18].map(|shift| ReturnType::from_raw(((t >> shift) & 0xf) as u8)),
            reserved: t & !(0x3f | (0xffff << 6) | 0x8000_0000),
        },
        _ => ExtOpcode::Other { kind, raw: t & 0x7fff_ffc0 },
    }
}

/// Where the representation of each index is in the operand token.
const REPR_SHIFTS: [u32; 3] = [22, 25, 28];

/// Reads the extended operand token, if the operand token `t` says one follows.
#[inline]
fn read_ext_operand(cur: &mut Cursor<'_>, t: u32) -> Result<u32, DecodeError> {
    if t & 0x8000_0000 == 0 {
        return Ok(0);
    }
    let at = cur.pos;
    let e = cur.read()?;
    if e & 0x8000_0000 != 0 {
        return Err(DecodeError::at(at, E::ExtendedOperandChain));
    }
    Ok(e)
}

/// Decodes an operand; the registers of its relative indices go to `sink`.
#[inline]
fn decode_operand<'a, S: Sink<'a>>(cur: &mut Cursor<'a>, sink: &mut S) -> Result<Operand, DecodeError> {
    let t = cur.read()?;
    let ext = read_ext_operand(cur, t)?;
    let dims = ((t >> 20) & 3) as usize;
    // Per index: the immediate's low and high words, the relative register's id.
    let mut index = [[0u32; 3]; 3];
    for ([lo, hi, rel], shift) in index.iter_mut().zip(REPR_SHIFTS).take(dims) {
        let at = cur.pos;
        let repr = (t >> shift) & 7;
        match repr {
            0 | 3 => *lo = cur.read()?,
            1 | 4 => {
                // 64-bit immediates are written high word first.
                *hi = cur.read()?;
                *lo = cur.read()?;
            }
            2 => {}
            r => return Err(DecodeError::at(at, E::BadIndexRepresentation(r as u8))),
        }
        if repr >= 2 {
            *rel = decode_rel(cur, sink)?.0;
        }
    }
    let mut imm = [0u32; 4];
    let count = match (OperandType::from_raw(((t >> 12) & 0xff) as u8), t & 3) {
        (OperandType::Immediate32, 1) => 1,
        (OperandType::Immediate64, 1) => 2,
        (OperandType::Immediate32 | OperandType::Immediate64, 2) => 4,
        _ => 0,
    };
    for slot in imm.iter_mut().take(count) {
        *slot = cur.read()?;
    }
    Ok(Operand::from_raw_parts(t, ext, index, imm))
}

/// Decodes the register of a relative index into `sink`: an operand that is not an
/// immediate, with immediate 32-bit indices only.
fn decode_rel<'a, S: Sink<'a>>(cur: &mut Cursor<'a>, sink: &mut S) -> Result<OperandId, DecodeError> {
    let at = cur.pos;
    let t = cur.read()?;
    let ty = OperandType::from_raw(((t >> 12) & 0xff) as u8);
    let dims = ((t >> 20) & 3) as usize;
    if matches!(ty, OperandType::Immediate32 | OperandType::Immediate64)
        || REPR_SHIFTS.iter().take(dims).any(|shift| (t >> shift) & 7 != 0)
    {
        return Err(DecodeError::at(at, E::BadRelativeOperand));
    }
    let ext = read_ext_operand(cur, t)?;
    let mut index = [[0u32; 3]; 3];
    for [lo, ..] in index.iter_mut().take(dims) {
        *lo = cur.read()?;
    }
    let o = Operand::from_raw_parts(t, ext, index, [0; 4]);
    sink.operand(o).ok_or_else(|| DecodeError::at(at, E::TooManyOperands(cur.mnemonic)))
}

/// Decodes a declaration by its kind's layout ([`DeclKind::layout`]): its opcode-token
/// fields, then its tokens; returns it with the mask of opcode-token bits the fields use.
fn decode_decl<'a, S: Sink<'a>>(
    kind: DeclKind,
    tok0: u32,
    cur: &mut Cursor<'a>,
    sink: &mut S,
) -> Result<(Decl, u32), DecodeError> {
    let layout = kind.layout();
    let (mnemonic, at) = (cur.mnemonic, cur.pos);
    let full = || DecodeError::at(at, E::TooManyOperands(mnemonic));
    let mut v = L::DeclValues::default();
    for (value, field) in v.fields.iter_mut().zip(layout.fields) {
        *value = field.get(tok0);
    }
    let mut words = None;
    for (value, token) in v.tokens.iter_mut().zip(layout.tokens) {
        *value = match token {
            L::DeclToken::Operand => {
                let o = decode_operand(cur, sink)?;
                Some(sink.operand(o).ok_or_else(full)?.0)
            }
            L::DeclToken::Word(_) | L::DeclToken::ReturnTypes | L::DeclToken::SystemName => Some(cur.read()?),
            L::DeclToken::Optional(_) => cur.read_opt()?,
            L::DeclToken::CountedWords(_) => {
                let count = cur.read()? as usize;
                words = Some(cur.words(count)?);
                None
            }
            L::DeclToken::InterfaceTables => {
                let packed = cur.read()?;
                words = Some(cur.words((packed & 0xffff) as usize)?);
                Some(packed >> 16)
            }
        };
    }
    if let Some(w) = words {
        v.words = sink.words(w).ok_or_else(full)?;
    }
    Ok((Decl::from_values(kind, &v), layout.mask()))
}
