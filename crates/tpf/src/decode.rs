//! Decoding tokens into the IR.
//!
//! [`Decoder`] walks a program one instruction at a time without allocating;
//! [`decode`] collects a whole [`Program`]. Both run the same code, which writes each
//! operand in place where it stays: the decoder's own buffer, or the end of the
//! program's operand arena (nothing is decoded into a buffer and copied after). Every
//! read is bounds-checked against the end of the current instruction, and every failure
//! is a [`DecodeError`] naming the token where it happened.

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
    let (version, mut rest, end) = header(bytes)?;
    let mut program = Program::new(version);
    // Guesses from the token count (an instruction takes 4 to 5 tokens on average, an
    // operand 2), capped so that a huge program grows its arenas as it goes.
    let tokens = rest.len() / 4;
    program.instructions.reserve((tokens / 4).min(1 << 16));
    program.operands.reserve((tokens / 2).min(1 << 17));
    let Program { instructions, operands, extended, words, .. } = &mut program;
    let mut arena = Arena { operands, base: 0, own: 0, relative: ArrayVec::new() };
    let mut sinks = Sinks { operands: &mut arena, extended, words, _input: std::marker::PhantomData };
    while !rest.is_empty() {
        // The arena's ids must hold the instruction's operands.
        sinks.operands.base = u32::try_from(sinks.operands.operands.len())
            .ok()
            .filter(|b| b.checked_add(MAX_INSTRUCTION_OPERANDS as u32).is_some())
            .ok_or_else(|| DecodeError::at(end.saturating_sub(rest.len() / 4), E::TooManyOperands("program")))?;
        rest = decode_into(rest, end, &mut sinks, |ins| instructions.push(ins))?;
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

/// The version token, the program's bytes after its two header tokens, and the token
/// index where the program ends.
fn header(bytes: &[u8]) -> Result<(Version, &[u8], usize), DecodeError> {
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
    let end = declared as usize;
    // `2 <= end <= available`: the program lies inside `bytes`.
    let program = bytes.get(8..end.saturating_mul(4)).ok_or_else(|| DecodeError::at(0, E::MissingHeader))?;
    Ok((decode_version(first), program, end))
}

/// The most operands one instruction refers to: its own and one register per
/// relative index of each.
const MAX_INSTRUCTION_OPERANDS: usize = MAX_OPERANDS * 4;

/// The most registers of relative indices one instruction has (three indices per operand).
const MAX_RELATIVE: usize = MAX_OPERANDS * 3;

/// Where decoding puts what an instruction refers to, but its operands: a
/// [`Program`]'s arenas, or the streaming decoder's fixed buffers (sized for the largest
/// instruction). `None` when there is no room.
pub(crate) trait Store<T> {
    /// Appends `items`, returning their span in the arena.
    fn put(&mut self, items: &[T]) -> Option<Span>;
}

impl<T: Clone> Store<T> for Vec<T> {
    #[inline]
    fn put(&mut self, items: &[T]) -> Option<Span> {
        let start = u32::try_from(self.len()).ok()?;
        self.extend_from_slice(items);
        Some(Span { start, len: items.len() as u32 })
    }
}

impl<T: Clone, const N: usize> Store<T> for ArrayVec<T, N> {
    #[inline]
    fn put(&mut self, items: &[T]) -> Option<Span> {
        let start = self.len() as u32;
        if self.remaining_capacity() < items.len() {
            return None;
        }
        self.extend(items.iter().cloned());
        Some(Span { start, len: items.len() as u32 })
    }
}

/// Where an instruction's operands go: its own first, consecutive and in order, then
/// the registers of their relative indices. Each operand is written in place: stored
/// with its token's fields, then its indices and immediates filled in.
trait Operands {
    /// Starts an instruction with `own` operands of its own (at most [`MAX_OPERANDS`]:
    /// every table row has at most that many and every declaration layout at most one
    /// operand, which `tests/operand_limits.rs` checks, so the clamp never cuts).
    fn begin(&mut self, own: usize);

    /// The arena id of the instruction's own operand `i`.
    fn id(&self, i: usize) -> OperandId;

    /// Stores the instruction's own operand `i` (they come in order) and returns it.
    fn own(&mut self, i: usize, operand: Operand) -> Option<&mut Operand>;

    /// Stores the register of a relative index; its arena id.
    fn relative(&mut self, register: Operand) -> Option<OperandId>;

    /// Ends the instruction.
    fn finish(&mut self) -> Option<()>;
}

/// A [`Program`]'s operand arena while [`decode`] appends an instruction's operands:
/// its own go straight in; the registers of their relative indices wait in
/// `relative` and follow them.
struct Arena<'s> {
    operands: &'s mut Vec<Operand>,
    /// The arena id of the instruction's first operand (`base + MAX_INSTRUCTION_OPERANDS`
    /// fits a `u32`: [`decode`] checks it).
    base: u32,
    /// The instruction's own operands.
    own: u32,
    /// Empty between instructions.
    relative: ArrayVec<Operand, MAX_RELATIVE>,
}

impl Operands for Arena<'_> {
    #[inline(always)]
    fn begin(&mut self, own: usize) {
        self.own = own.min(MAX_OPERANDS) as u32;
    }

    #[inline(always)]
    fn id(&self, i: usize) -> OperandId {
        OperandId(self.base.saturating_add(i as u32))
    }

    #[inline(always)]
    fn own(&mut self, _: usize, operand: Operand) -> Option<&mut Operand> {
        self.operands.push(operand);
        self.operands.last_mut()
    }

    #[inline]
    fn relative(&mut self, register: Operand) -> Option<OperandId> {
        let id = self.id((self.own as usize).saturating_add(self.relative.len()));
        self.relative.try_push(register).ok()?;
        Some(id)
    }

    #[inline(always)]
    fn finish(&mut self) -> Option<()> {
        if !self.relative.is_empty() {
            self.operands.extend_from_slice(&self.relative);
            self.relative.clear();
        }
        Some(())
    }
}

/// The streaming decoder's operand buffer while it decodes an instruction: slot `i`
/// holds operand id `i`; the first `own` are the instruction's own, and `used` slots
/// are in use.
struct Area<'s> {
    slots: &'s mut [Operand; MAX_INSTRUCTION_OPERANDS],
    used: usize,
}

impl Operands for Area<'_> {
    #[inline(always)]
    fn begin(&mut self, own: usize) {
        self.used = own.min(MAX_OPERANDS);
    }

    #[inline(always)]
    fn id(&self, i: usize) -> OperandId {
        OperandId(i as u32)
    }

    #[inline(always)]
    fn own(&mut self, i: usize, operand: Operand) -> Option<&mut Operand> {
        let slot = self.slots.get_mut(i)?;
        *slot = operand;
        Some(slot)
    }

    #[inline]
    fn relative(&mut self, register: Operand) -> Option<OperandId> {
        let i = self.used;
        *self.slots.get_mut(i)? = register;
        self.used = i.saturating_add(1);
        Some(self.id(i))
    }

    #[inline(always)]
    fn finish(&mut self) -> Option<()> {
        Some(())
    }
}

/// The places one instruction is decoded into.
struct Sinks<'s, 'a, O, X, W> {
    operands: &'s mut O,
    extended: &'s mut X,
    words: &'s mut W,
    _input: std::marker::PhantomData<&'a ()>,
}

impl<'a, O: Operands, X: Store<ExtOpcode>, W: Store<Words<'a>>> Sinks<'_, 'a, O, X, W> {
    fn word_run(&mut self, w: Words<'a>) -> Option<WordsId> {
        self.words.put(std::slice::from_ref(&w)).map(|s| WordsId(s.start))
    }
}

/// The streaming decoder's buffers: everything the current instruction refers to.
struct Scratch<'a> {
    operands: [Operand; MAX_INSTRUCTION_OPERANDS],
    /// Slots of `operands` the current instruction uses.
    used: usize,
    extended: ArrayVec<ExtOpcode, MAX_EXTENDED>,
    /// A declaration's or a data block's run of tokens, and trailing tokens.
    words: ArrayVec<Words<'a>, 2>,
}

/// Walks a program one instruction at a time, without allocating: each instruction is
/// decoded into the decoder's own buffers and handed out as an [`InstructionRef`]
/// that lives until the next one is asked for.
pub struct Decoder<'a> {
    version: Version,
    /// The program's bytes from the next instruction on.
    rest: &'a [u8],
    /// Token index where the program ends (from the length token).
    end: usize,
    failed: bool,
    current: Instruction,
    scratch: Scratch<'a>,
}

impl<'a> Decoder<'a> {
    /// Reads the version and length tokens.
    #[inline]
    pub fn new(bytes: &'a [u8]) -> Result<Decoder<'a>, DecodeError> {
        let (version, rest, end) = header(bytes)?;
        Ok(Decoder {
            version,
            rest,
            end,
            failed: false,
            current: Instruction::placeholder(),
            scratch: Scratch {
                operands: [Operand::EMPTY; MAX_INSTRUCTION_OPERANDS],
                used: 0,
                extended: ArrayVec::new(),
                words: ArrayVec::new(),
            },
        })
    }

    /// The program's version token.
    pub fn version(&self) -> Version {
        self.version
    }

    /// Tokens not yet read.
    pub fn remaining_tokens(&self) -> usize {
        self.rest.len() / 4
    }

    /// The token index of the next instruction.
    pub fn position(&self) -> usize {
        self.end.saturating_sub(self.rest.len() / 4)
    }

    /// The program's bytes from the next instruction on (none after an error).
    pub(crate) fn rest(&self) -> &'a [u8] {
        if self.failed {
            &[]
        } else {
            self.rest
        }
    }

    /// Steps over `bytes` bytes: whole instructions the caller has read from
    /// [`Decoder::rest`].
    pub(crate) fn skip(&mut self, bytes: usize) {
        self.rest = self.rest.get(bytes..).unwrap_or(&[]);
    }

    /// Decodes the next instruction, reusing the decoder's buffers (nothing is
    /// allocated), and returns the token index it starts at with a view of it; `None`
    /// at the end of the program (or after an error).
    #[inline]
    pub fn next_instruction(&mut self) -> Option<Result<(usize, InstructionRef<'_, 'a>), DecodeError>> {
        if self.failed || self.rest.is_empty() {
            return None;
        }
        let start = self.end.saturating_sub(self.rest.len() / 4);
        let scratch = &mut self.scratch;
        scratch.extended.clear();
        scratch.words.clear();
        let mut area = Area { slots: &mut scratch.operands, used: 0 };
        let mut sinks = Sinks {
            operands: &mut area,
            extended: &mut scratch.extended,
            words: &mut scratch.words,
            _input: std::marker::PhantomData,
        };
        let current = &mut self.current;
        match decode_into(self.rest, self.end, &mut sinks, |ins| *current = ins) {
            Ok(rest) => {
                self.rest = rest;
                scratch.used = area.used;
                let pool = Pool {
                    operands: scratch.operands.get(..scratch.used).unwrap_or(&[]),
                    extended: &scratch.extended,
                    words: &scratch.words,
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

/// A bounded reader over the tokens of one instruction.
struct Cursor<'a> {
    /// The bytes from the next token to where reading must stop (the end of the
    /// instruction once its length is known, before that of the program).
    rest: &'a [u8],
    /// The token index where `rest` ends.
    end: usize,
    mnemonic: &'static str,
}

impl<'a> Cursor<'a> {
    /// The token index of the next token.
    #[inline]
    fn pos(&self) -> usize {
        self.end.saturating_sub(self.rest.len() / 4)
    }

    #[inline(always)]
    fn read(&mut self) -> Result<u32, DecodeError> {
        match self.rest.split_first_chunk::<4>() {
            Some((t, rest)) => {
                self.rest = rest;
                Ok(u32::from_le_bytes(*t))
            }
            None => Err(self.truncated()),
        }
    }

    /// The instruction ends before a token it needs, at the cursor.
    #[cold]
    #[inline(never)]
    fn truncated(&self) -> DecodeError {
        DecodeError::at(self.pos(), E::InstructionTruncated(self.mnemonic))
    }

    #[inline]
    fn remaining(&self) -> usize {
        self.rest.len() / 4
    }

    fn read_opt(&mut self) -> Result<Option<u32>, DecodeError> {
        if self.remaining() > 0 {
            self.read().map(Some)
        } else {
            Ok(None)
        }
    }

    fn words(&mut self, count: usize) -> Result<Words<'a>, DecodeError> {
        let split = count.checked_mul(4).and_then(|n| self.rest.split_at_checked(n));
        let Some((w, rest)) = split else {
            return Err(DecodeError::at(self.end, E::InstructionTruncated(self.mnemonic)));
        };
        self.rest = rest;
        Ok(Words::borrowed(w))
    }
}

/// Decodes the instruction at the start of `prog` (the program's bytes from that
/// instruction to the program's end, token `end`) and hands it to `out`, putting what
/// it refers to in `sinks`; returns the bytes after it.
#[inline(always)]
fn decode_into<'a, O: Operands, X: Store<ExtOpcode>, W: Store<Words<'a>>>(
    prog: &'a [u8],
    end: usize,
    sinks: &mut Sinks<'_, 'a, O, X, W>,
    out: impl FnOnce(Instruction),
) -> Result<&'a [u8], DecodeError> {
    let start = end.saturating_sub(prog.len() / 4);
    let remaining = prog.len() / 4;
    let Some((tok0, after0)) = prog.split_first_chunk::<4>() else {
        return Err(DecodeError::at(start, E::InstructionTruncated("instruction")));
    };
    let tok0 = u32::from_le_bytes(*tok0);
    let number = (tok0 & 0x7ff) as u16;

    if number == Opcode::CustomData as u16 {
        return custom_data(prog, start, tok0, sinks, out);
    }

    let Some(opcode) = Opcode::from_u16(number) else {
        return Err(DecodeError::at(start, E::UnknownOpcode(number)));
    };
    let info = opcode.info();
    let mut length = (tok0 >> 24) & 0x7f;
    let mut length_enc = LengthEncoding::Inline;
    let mut cur = Cursor { rest: after0, end, mnemonic: info.mnemonic };
    if length == 0 {
        length = cur.read()?;
        length_enc = LengthEncoding::Separate;
        if length == 0 {
            return Err(DecodeError::at(start.saturating_add(1), E::ZeroLength(info.mnemonic)));
        }
    }
    if length as usize > remaining {
        return Err(DecodeError::at(start, E::InstructionPastEnd { mnemonic: info.mnemonic, length, remaining }));
    }
    // `length <= remaining`: the instruction lies inside `prog`.
    let Some((this, next)) = prog.split_at_checked((length as usize).saturating_mul(4)) else {
        return Err(DecodeError::at(start, E::InstructionPastEnd { mnemonic: info.mnemonic, length, remaining }));
    };
    let read = prog.len().saturating_sub(cur.rest.len());
    let Some(body) = this.get(read..) else {
        // A separate length token in an instruction of length 1.
        return Err(DecodeError::at(start, E::InstructionTruncated(info.mnemonic)));
    };
    cur.rest = body;
    cur.end = start.saturating_add(length as usize);
    let full = |at: usize| DecodeError::at(at, E::TooManyOperands(info.mnemonic));

    let mut ext_span = Span::EMPTY;
    if tok0 & 0x8000_0000 != 0 {
        let mut ext: ArrayVec<ExtOpcode, MAX_EXTENDED> = ArrayVec::new();
        loop {
            let at = cur.pos();
            let t = cur.read()?;
            if ext.try_push(decode_ext_opcode(t)).is_err() {
                return Err(DecodeError::at(at, E::TooManyExtendedOpcodes(MAX_EXTENDED)));
            }
            if t & 0x8000_0000 == 0 {
                break;
            }
        }
        ext_span = sinks.extended.put(&ext).ok_or_else(|| full(start))?;
    }

    let controls = tok0 & 0x00ff_f800;
    // Each shape writes its instruction whole (a body built apart and moved in would be
    // copied field by field).
    match info.shape {
        Shape::Ops => {
            let (saturate, precise, control, used) = decode_controls(info.controls, tok0);
            let count = info.operand_count();
            sinks.operands.begin(count);
            for i in 0..count {
                decode_operand(&mut cur, sinks.operands, i)?;
            }
            let operands = Span { start: sinks.operands.id(0).0, len: count as u32 };
            let trailing = end_of(&mut cur, sinks, start)?;
            out(Instruction {
                opcode,
                body: Body::Op(Op { saturate, precise, control, operands }),
                ext: ext_span,
                reserved: controls & !used,
                length: length_enc,
                trailing,
            });
        }
        Shape::InterfaceCall => {
            let function = cur.read()?;
            sinks.operands.begin(1);
            decode_operand(&mut cur, sinks.operands, 0)?;
            let interface = sinks.operands.id(0);
            let trailing = end_of(&mut cur, sinks, start)?;
            out(Instruction {
                opcode,
                body: Body::InterfaceCall { function, interface },
                ext: ext_span,
                reserved: controls,
                length: length_enc,
                trailing,
            });
        }
        Shape::Decl(kind) => {
            let (decl, used) = decode_decl(kind, tok0, &mut cur, sinks)?;
            let trailing = end_of(&mut cur, sinks, start)?;
            out(Instruction {
                opcode,
                body: Body::Decl(decl),
                ext: ext_span,
                reserved: controls & !used,
                length: length_enc,
                trailing,
            });
        }
        Shape::CustomData => unreachable!("handled above"),
    }
    Ok(next)
}

/// Ends the instruction that starts at token `start` once its operands are read:
/// stores the registers of its relative indices, and returns the tokens left inside
/// its length (none in well-formed programs).
#[inline(always)]
fn end_of<'a, O: Operands, X: Store<ExtOpcode>, W: Store<Words<'a>>>(
    cur: &mut Cursor<'a>,
    sinks: &mut Sinks<'_, 'a, O, X, W>,
    start: usize,
) -> Result<Option<WordsId>, DecodeError> {
    let mnemonic = cur.mnemonic;
    let full = || DecodeError::at(start, E::TooManyOperands(mnemonic));
    sinks.operands.finish().ok_or_else(full)?;
    if cur.rest.is_empty() {
        return Ok(None);
    }
    let rest = cur.words(cur.remaining())?;
    Ok(Some(sinks.word_run(rest).ok_or_else(full)?))
}

/// A custom-data block (opcode token, length token, data) at the start of `prog`.
#[cold]
fn custom_data<'a, O: Operands, X: Store<ExtOpcode>, W: Store<Words<'a>>>(
    prog: &'a [u8],
    start: usize,
    tok0: u32,
    sinks: &mut Sinks<'_, 'a, O, X, W>,
    out: impl FnOnce(Instruction),
) -> Result<&'a [u8], DecodeError> {
    let remaining = prog.len() / 4;
    if remaining < 2 {
        return Err(DecodeError::at(start, E::CustomDataTooShort(remaining as u32)));
    }
    let length = token(prog, 1).ok_or_else(|| DecodeError::at(start, E::CustomDataTooShort(remaining as u32)))?;
    if length < 2 {
        return Err(DecodeError::at(start.saturating_add(1), E::CustomDataTooShort(length)));
    }
    if length as usize > remaining {
        return Err(DecodeError::at(start.saturating_add(1), E::CustomDataPastEnd { length, remaining }));
    }
    // `2 <= length <= remaining`: the block lies inside the program.
    let Some((block, next)) = prog.split_at_checked((length as usize).saturating_mul(4)) else {
        return Err(DecodeError::at(start.saturating_add(1), E::CustomDataPastEnd { length, remaining }));
    };
    let data = Words::borrowed(block.get(8..).unwrap_or(&[]));
    let data = sinks.word_run(data).ok_or_else(|| DecodeError::at(start, E::TooManyOperands("customdata")))?;
    let body = Body::CustomData(CustomData { class: CustomDataClass::from_raw(tok0 >> 11), data });
    out(Instruction::new(Opcode::CustomData, body));
    Ok(next)
}

/// Token `i` of `bytes`, if the bytes hold it.
#[inline]
fn token(bytes: &[u8], i: usize) -> Option<u32> {
    bytes.get(i.checked_mul(4)?..)?.first_chunk::<4>().map(|b| u32::from_le_bytes(*b))
}

/// The bits of the opcode token a kind of controls describes, and whether `_sat` (with
/// the precise mask) is among its fields (`sync`'s flags cover bit 13: a field, not the
/// mask, says whether `_sat` is there).
const fn control_facts(kind: Controls) -> (u32, bool) {
    let mut rest = kind.fields();
    let mut sat = false;
    while let [f, tail @ ..] = rest {
        sat |= f.shift == L::SATURATE.shift && f.width == L::SATURATE.width;
        rest = tail;
    }
    (kind.mask(), sat)
}

/// Decodes the opcode-specific controls of an executable instruction: saturate,
/// precise mask, other control, and the mask of bits they use.
#[inline(always)]
fn decode_controls(kind: Controls, tok0: u32) -> (bool, Mask, OpControl, u32) {
    let (used, has_sat) = match kind {
        Controls::Plain => const { control_facts(Controls::Plain) },
        Controls::Test => const { control_facts(Controls::Test) },
        Controls::ResInfo => const { control_facts(Controls::ResInfo) },
        Controls::ReturnType => const { control_facts(Controls::ReturnType) },
        Controls::Sync => const { control_facts(Controls::Sync) },
        Controls::None => const { control_facts(Controls::None) },
    };
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
#[inline(always)]
fn read_ext_operand(cur: &mut Cursor<'_>, t: u32) -> Result<u32, DecodeError> {
    if t & 0x8000_0000 == 0 {
        return Ok(0);
    }
    let e = cur.read()?;
    if e & 0x8000_0000 != 0 {
        return Err(extended_chain(cur));
    }
    Ok(e)
}

/// An extended operand token that says another follows (the one just read).
#[cold]
#[inline(never)]
fn extended_chain(cur: &Cursor<'_>) -> DecodeError {
    DecodeError::at(cur.pos().saturating_sub(1), E::ExtendedOperandChain)
}

/// The shift of index `d`'s representation in the operand token.
#[inline(always)]
fn repr_shift(d: usize) -> u32 {
    match d {
        0 => 22,
        1 => 25,
        _ => 28,
    }
}

/// Decodes the instruction's own operand `i` into `operands`, where it is written in
/// place, field by field; the registers of its relative indices go after the
/// instruction's own operands.
#[inline(always)]
fn decode_operand<O: Operands>(cur: &mut Cursor<'_>, operands: &mut O, i: usize) -> Result<(), DecodeError> {
    let t = cur.read()?;
    let ext = read_ext_operand(cur, t)?;
    let dims = ((t >> 20) & 3) as usize;
    let o = if (0..dims).any(|d| matches!((t >> repr_shift(d)) & 7, 2..=4)) {
        // Relative indices (rare): their registers are stored before the operand.
        let index = relative_indices(cur, operands, t, dims)?;
        operands.own(i, Operand::from_raw_parts(t, ext, index, [0; 4]))
    } else {
        let Some(o) = operands.own(i, Operand::from_raw_parts(t, ext, [[0; 3]; 3], [0; 4])) else {
            return Err(too_many_operands(cur));
        };
        for d in 0..dims {
            // The immediate's low and high words.
            let index = match (t >> repr_shift(d)) & 7 {
                0 => [cur.read()?, 0, 0],
                // 64-bit immediates are written high word first.
                1 => {
                    let hi = cur.read()?;
                    [cur.read()?, hi, 0]
                }
                r => return Err(bad_representation(cur, r)),
            };
            if let Some(slot) = o.index.get_mut(d) {
                *slot = index;
            }
        }
        Some(o)
    };
    let Some(o) = o else {
        return Err(too_many_operands(cur));
    };
    let ty = (t >> 12) & 0xff;
    if ty == OperandType::Immediate32.raw() as u32 || ty == OperandType::Immediate64.raw() as u32 {
        let count = match (ty == OperandType::Immediate64.raw() as u32, t & 3) {
            (false, 1) => 1,
            (true, 1) => 2,
            (_, 2) => 4,
            _ => 0,
        };
        for i in 0..count {
            let v = cur.read()?;
            if let Some(x) = o.imm.get_mut(i) {
                *x = v;
            }
        }
    }
    Ok(())
}

/// The `dims` indices of an operand token `t` that has relative ones: per index, the
/// immediate's low and high words and the relative register's id (the registers stored
/// in `operands`).
#[inline(never)]
fn relative_indices<O: Operands>(
    cur: &mut Cursor<'_>,
    operands: &mut O,
    t: u32,
    dims: usize,
) -> Result<[[u32; 3]; 3], DecodeError> {
    let mut index = [[0u32; 3]; 3];
    for (d, slot) in index.iter_mut().enumerate().take(dims) {
        let repr = (t >> repr_shift(d)) & 7;
        let (lo, hi) = match repr {
            0 | 3 => (cur.read()?, 0),
            // 64-bit immediates are written high word first.
            1 | 4 => {
                let hi = cur.read()?;
                (cur.read()?, hi)
            }
            2 => (0, 0),
            r => return Err(bad_representation(cur, r)),
        };
        let rel = if repr >= 2 { decode_rel(cur, operands)?.0 } else { 0 };
        *slot = [lo, hi, rel];
    }
    Ok(index)
}

/// More operands than the decoder's buffers hold (which, sized for the largest
/// instruction, never happens).
#[cold]
#[inline(never)]
fn too_many_operands(cur: &Cursor<'_>) -> DecodeError {
    DecodeError::at(cur.pos(), E::TooManyOperands(cur.mnemonic))
}

/// An index representation the format does not define, read at the index's first
/// token (none of which is read yet).
#[cold]
#[inline(never)]
fn bad_representation(cur: &Cursor<'_>, r: u32) -> DecodeError {
    DecodeError::at(cur.pos(), E::BadIndexRepresentation(r as u8))
}

/// Decodes the register of a relative index: an operand that is not an immediate,
/// with immediate 32-bit indices only. It waits with the instruction's other such
/// registers, to follow its own operands in the arena.
fn decode_rel<O: Operands>(cur: &mut Cursor<'_>, operands: &mut O) -> Result<OperandId, DecodeError> {
    let at = cur.pos();
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
    operands
        .relative(Operand::from_raw_parts(t, ext, index, [0; 4]))
        .ok_or_else(|| DecodeError::at(at, E::TooManyOperands(cur.mnemonic)))
}

/// Decodes a declaration by its kind's layout ([`DeclKind::layout`]): its opcode-token
/// fields, then its tokens; returns it with the mask of opcode-token bits the fields use.
fn decode_decl<'a, O: Operands, X: Store<ExtOpcode>, W: Store<Words<'a>>>(
    kind: DeclKind,
    tok0: u32,
    cur: &mut Cursor<'a>,
    sinks: &mut Sinks<'_, 'a, O, X, W>,
) -> Result<(Decl, u32), DecodeError> {
    let layout = kind.layout();
    let (mnemonic, at) = (cur.mnemonic, cur.pos());
    let full = || DecodeError::at(at, E::TooManyOperands(mnemonic));
    let mut v = L::DeclValues::default();
    for (value, field) in v.fields.iter_mut().zip(layout.fields) {
        *value = field.get(tok0);
    }
    let mut words = None;
    for (value, token) in v.tokens.iter_mut().zip(layout.tokens) {
        *value = match token {
            L::DeclToken::Operand => {
                // A layout's one operand, its first token.
                sinks.operands.begin(1);
                decode_operand(cur, sinks.operands, 0)?;
                Some(sinks.operands.id(0).0)
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
        v.words = sinks.word_run(w).ok_or_else(full)?;
    }
    Ok((Decl::from_values(kind, &v), layout.mask()))
}
