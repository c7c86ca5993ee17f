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

/// Decodes a whole program (version token, length token, instructions).
///
/// `bytes` may be longer than the program (a chunk padded after it); the length token
/// decides where the program ends.
pub fn decode(bytes: &[u8]) -> Result<Program<'_>, DecodeError> {
    let mut decoder = Decoder::new(bytes)?;
    // A guess at the instruction count, capped: an instruction is large and a count
    // read from the input must not drive a huge reservation.
    let mut instructions: Vec<Instruction<'_>> = Vec::with_capacity((decoder.remaining_tokens() / 3).min(4096));
    loop {
        // Decode straight into the vector's new slot: no instruction is moved.
        instructions.push(Instruction::placeholder());
        let slot = instructions.last_mut().expect("just pushed");
        match decoder.next_into(slot) {
            Some(Ok(_)) => {}
            Some(Err(e)) => return Err(e),
            None => {
                instructions.pop();
                break;
            }
        }
    }
    Ok(Program { version: decoder.version(), instructions })
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

/// An iterator over a program's instructions, yielding each with its token index.
pub struct Decoder<'a> {
    bytes: &'a [u8],
    version: Version,
    /// Next token to read.
    pos: usize,
    /// Token index where the program ends (from the length token).
    end: usize,
    failed: bool,
}

impl<'a> Decoder<'a> {
    /// Reads the version and length tokens.
    pub fn new(bytes: &'a [u8]) -> Result<Decoder<'a>, DecodeError> {
        let available = bytes.len() / 4;
        if available < 2 {
            return Err(DecodeError::at(0, E::MissingHeader));
        }
        let (Some(first), Some(declared)) = (token(bytes, 0), token(bytes, 1)) else {
            return Err(DecodeError::at(0, E::MissingHeader));
        };
        let version = decode_version(first);
        if declared < 2 {
            return Err(DecodeError::at(1, E::LengthTooSmall(declared)));
        }
        if declared as usize > available {
            return Err(DecodeError::at(1, E::LengthPastEnd { declared, available }));
        }
        Ok(Decoder { bytes, version, pos: 2, end: declared as usize, failed: false })
    }

    /// The program's version token.
    pub fn version(&self) -> Version {
        self.version
    }

    /// Tokens not yet read.
    pub fn remaining_tokens(&self) -> usize {
        self.end.saturating_sub(self.pos)
    }

    /// Decodes the next instruction into `ins`, reusing its storage (the fastest
    /// way to walk a program: nothing is allocated or moved). Returns the token index
    /// the instruction starts at, `None` at the end of the program (or after an error).
    #[inline]
    pub fn next_into(&mut self, ins: &mut Instruction<'a>) -> Option<Result<usize, DecodeError>> {
        if self.failed || self.pos >= self.end {
            return None;
        }
        let start = self.pos;
        match decode_into(self.bytes, start, self.end, ins) {
            Ok(next) => {
                self.pos = next;
                Some(Ok(start))
            }
            Err(e) => {
                self.failed = true;
                Some(Err(e))
            }
        }
    }
}

impl<'a> Iterator for Decoder<'a> {
    type Item = Result<(usize, Instruction<'a>), DecodeError>;
    /// The next instruction with the token index it starts at. (Each instruction is
    /// returned by value; [`Decoder::next_into`] avoids that copy.)
    fn next(&mut self) -> Option<Self::Item> {
        let mut ins = Instruction::placeholder();
        self.next_into(&mut ins).map(|r| r.map(|start| (start, ins)))
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

/// Decodes the instruction at token `start`; returns it and the index of the next one.
/// Decodes the instruction at token `start` into `ins`; returns the index of the next.
fn decode_into<'a>(bytes: &'a [u8], start: usize, end: usize, ins: &mut Instruction<'a>) -> Result<usize, DecodeError> {
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
        ins.opcode = Opcode::CustomData;
        ins.body = Body::CustomData(CustomData { class: CustomDataClass::from_raw(tok0 >> 11), data });
        ins.ext.clear();
        ins.reserved = 0;
        ins.length = LengthEncoding::Inline;
        ins.trailing = Words::empty();
        return Ok(next);
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

    ins.opcode = opcode;
    ins.length = length_enc;
    ins.ext.clear();
    if tok0 & 0x8000_0000 != 0 {
        loop {
            let at = cur.pos;
            let t = cur.read()?;
            if ins.ext.try_push(decode_ext_opcode(t)).is_err() {
                return Err(DecodeError::at(at, E::TooManyExtendedOpcodes(MAX_EXTENDED)));
            }
            if t & 0x8000_0000 == 0 {
                break;
            }
        }
    }

    let controls = tok0 & 0x00ff_f800;
    let used = match info.shape {
        Shape::Ops => {
            let (saturate, precise, control, used) = decode_controls(info.controls, tok0);
            if !matches!(ins.body, Body::Op(_)) {
                ins.body = Body::Op(Op::EMPTY);
            }
            let Body::Op(op) = &mut ins.body else { unreachable!("set above") };
            op.saturate = saturate;
            op.precise = precise;
            op.control = control;
            op.operands.clear();
            for _ in 0..info.operand_count() {
                op.operands.push(Operand::EMPTY);
                let slot = op.operands.last_mut().expect("just pushed");
                decode_operand_into(&mut cur, slot)?;
            }
            used
        }
        Shape::InterfaceCall => {
            let function = cur.read()?;
            let interface = decode_operand(&mut cur)?;
            ins.body = Body::InterfaceCall { function, interface };
            0
        }
        Shape::Decl(kind) => {
            let (decl, used) = decode_decl(kind, tok0, &mut cur)?;
            ins.body = Body::Decl(decl);
            used
        }
        Shape::CustomData => unreachable!("handled above"),
    };
    ins.trailing = cur.words(cur.remaining())?;
    ins.reserved = controls & !used;
    Ok(next)
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

/// The operand-token fields common to operands and relative-index registers.
struct OperandHead {
    ty: OperandType,
    components: ComponentCount,
    selection: Selection,
    dims: u8,
    reprs: [u8; 3],
    reserved: u32,
}

fn decode_head(t: u32) -> OperandHead {
    let mut known: u32 = 0x3 | (0xff << 12) | (0x3 << 20) | 0x8000_0000;
    let components = match t & 3 {
        0 => ComponentCount::Zero,
        1 => ComponentCount::One,
        2 => ComponentCount::Four,
        _ => ComponentCount::N,
    };
    let selection = if components == ComponentCount::Four {
        known |= 0x3 << 2;
        match (t >> 2) & 3 {
            0 => {
                known |= 0xf << 4;
                Selection::Mask(Mask(((t >> 4) & 0xf) as u8))
            }
            1 => {
                known |= 0xff << 4;
                Selection::Swizzle([4, 6, 8, 10].map(|shift| ((t >> shift) & 3) as u8))
            }
            2 => {
                known |= 0x3 << 4;
                Selection::Select1(((t >> 4) & 3) as u8)
            }
            _ => Selection::Mode3,
        }
    } else {
        Selection::None
    };
    let dims = ((t >> 20) & 3) as u8;
    let mut reprs = [0u8; 3];
    for (shift, r) in [22u32, 25, 28].into_iter().zip(reprs.iter_mut()).take(dims as usize) {
        *r = ((t >> shift) & 7) as u8;
        known |= 7 << shift;
    }
    OperandHead {
        ty: OperandType::from_raw(((t >> 12) & 0xff) as u8),
        components,
        selection,
        dims,
        reprs,
        reserved: t & !known,
    }
}

fn decode_ext_operand(cur: &mut Cursor<'_>) -> Result<ExtOperand, DecodeError> {
    let at = cur.pos;
    let e = cur.read()?;
    if e & 0x8000_0000 != 0 {
        return Err(DecodeError::at(at, E::ExtendedOperandChain));
    }
    let kind = ExtendedOperandKind::from_raw((e & 0x3f) as u8);
    Ok(if kind == ExtendedOperandKind::Modifier {
        ExtOperand {
            kind,
            modifier: Modifier::from_raw(((e >> 6) & 0xff) as u8),
            min_precision: MinPrecision::from_raw(((e >> 14) & 7) as u8),
            non_uniform: e & (1 << 17) != 0,
            reserved: e & !(0x3f | (0xff << 6) | (7 << 14) | (1 << 17)),
        }
    } else {
        ExtOperand {
            kind,
            modifier: Modifier::None,
            min_precision: MinPrecision::Default,
            non_uniform: false,
            reserved: e & !0x3f,
        }
    })
}

fn decode_operand(cur: &mut Cursor<'_>) -> Result<Operand, DecodeError> {
    let mut operand = Operand::EMPTY;
    decode_operand_into(cur, &mut operand)?;
    Ok(operand)
}

/// Decodes an operand into `o`, overwriting every field.
#[inline]
fn decode_operand_into(cur: &mut Cursor<'_>, o: &mut Operand) -> Result<(), DecodeError> {
    let t = cur.read()?;
    let head = decode_head(t);
    o.ty = head.ty;
    o.components = head.components;
    o.selection = head.selection;
    o.reserved = head.reserved;
    o.ext = if t & 0x8000_0000 != 0 { Some(decode_ext_operand(cur)?) } else { None };
    o.indices.clear();
    for &repr in head.reprs.iter().take(head.dims as usize) {
        let at = cur.pos;
        let index = match repr {
            0 => Index::Imm32(cur.read()?),
            1 => Index::Imm64(read_u64(cur)?),
            2 => Index::Relative(decode_rel(cur)?),
            3 => {
                let imm = cur.read()?;
                Index::Imm32Relative(imm, decode_rel(cur)?)
            }
            4 => {
                let imm = read_u64(cur)?;
                Index::Imm64Relative(imm, decode_rel(cur)?)
            }
            r => return Err(DecodeError::at(at, E::BadIndexRepresentation(r))),
        };
        o.indices.push(index);
    }
    o.imm = [0; 4];
    let count = o.immediate_count();
    for slot in o.imm.iter_mut().take(count) {
        *slot = cur.read()?;
    }
    Ok(())
}

fn read_u64(cur: &mut Cursor<'_>) -> Result<u64, DecodeError> {
    let hi = cur.read()? as u64;
    let lo = cur.read()? as u64;
    Ok((hi << 32) | lo)
}

fn decode_rel(cur: &mut Cursor<'_>) -> Result<RelOperand, DecodeError> {
    let at = cur.pos;
    let t = cur.read()?;
    let head = decode_head(t);
    if matches!(head.ty, OperandType::Immediate32 | OperandType::Immediate64)
        || head.reprs.iter().take(head.dims as usize).any(|&r| r != 0)
    {
        return Err(DecodeError::at(at, E::BadRelativeOperand));
    }
    let ext = if t & 0x8000_0000 != 0 { Some(decode_ext_operand(cur)?) } else { None };
    let mut index = [0u32; 3];
    for slot in index.iter_mut().take(head.dims as usize) {
        *slot = cur.read()?;
    }
    Ok(RelOperand {
        ty: head.ty,
        components: head.components,
        selection: head.selection,
        index,
        dims: head.dims,
        ext,
        reserved: head.reserved,
    })
}

fn decode_return_types(t: u32) -> ReturnTypes {
    ReturnTypes {
        types: [0, 4, 8, 12].map(|shift| ReturnType::from_raw(((t >> shift) & 0xf) as u8)),
        reserved: (t >> 16) as u16,
    }
}

fn decode_name(t: u32) -> (SystemName, u16) {
    (SystemName::from_raw(t as u16), (t >> 16) as u16)
}

fn uav_flags(tok0: u32) -> UavFlags {
    UavFlags {
        globally_coherent: L::UAV_GLOBALLY_COHERENT.get(tok0) != 0,
        rasterizer_ordered: L::UAV_RASTERIZER_ORDERED.get(tok0) != 0,
        order_preserving_counter: L::UAV_COUNTER.get(tok0) != 0,
    }
}

/// Decodes a declaration; returns it with the mask of opcode-token bits it used.
fn decode_decl<'a>(kind: DeclKind, tok0: u32, cur: &mut Cursor<'a>) -> Result<(Decl<'a>, u32), DecodeError> {
    // The fields of the opcode token are those of the kind's layout; the bits no field
    // describes are the caller's reserved bits.
    let used = kind.layout().mask();
    let decl = match kind {
        DeclKind::Resource => {
            let operand = decode_operand(cur)?;
            let return_type = decode_return_types(cur.read()?);
            let space = cur.read_opt()?;
            Decl::Resource {
                operand,
                dim: ResourceDimension::from_raw(L::DIMENSION.get(tok0) as u8),
                sample_count: L::SAMPLE_COUNT.get(tok0) as u8,
                return_type,
                space,
            }
        }
        DeclKind::ConstantBuffer => {
            let operand = decode_operand(cur)?;
            let size = cur.read_opt()?;
            let space = cur.read_opt()?;
            Decl::ConstantBuffer {
                operand,
                access: CbAccessPattern::from_raw(L::CB_ACCESS.get(tok0) as u8),
                size,
                space,
            }
        }
        DeclKind::Sampler => {
            let operand = decode_operand(cur)?;
            let space = cur.read_opt()?;
            Decl::Sampler { operand, mode: SamplerMode::from_raw(L::SAMPLER_MODE.get(tok0) as u8), space }
        }
        DeclKind::IndexRange => {
            let operand = decode_operand(cur)?;
            Decl::IndexRange { operand, count: cur.read()? }
        }
        // Bits 16:11 (the header's mask 0x0001f800); bit 17 is reserved.
        DeclKind::OutputTopology => Decl::OutputTopology(PrimitiveTopology::from_raw(L::TOPOLOGY.get(tok0) as u8)),
        DeclKind::InputPrimitive => Decl::InputPrimitive(Primitive::from_raw(L::PRIMITIVE.get(tok0) as u8)),
        DeclKind::MaxOutputVertexCount => Decl::MaxOutputVertexCount(cur.read()?),
        DeclKind::Register => Decl::Register(decode_operand(cur)?),
        DeclKind::RegisterName => {
            let operand = decode_operand(cur)?;
            let (name, reserved) = decode_name(cur.read()?);
            Decl::RegisterName { operand, name, reserved }
        }
        DeclKind::InputPs => {
            let operand = decode_operand(cur)?;
            Decl::InputPs { interpolation: InterpolationMode::from_raw(L::INTERPOLATION.get(tok0) as u8), operand }
        }
        DeclKind::InputPsName => {
            let operand = decode_operand(cur)?;
            let (name, reserved) = decode_name(cur.read()?);
            Decl::InputPsName {
                interpolation: InterpolationMode::from_raw(L::INTERPOLATION.get(tok0) as u8),
                operand,
                name,
                reserved,
            }
        }
        DeclKind::Temps => Decl::Temps(cur.read()?),
        DeclKind::IndexableTemp => {
            let register = cur.read()?;
            let count = cur.read()?;
            let components = cur.read()?;
            Decl::IndexableTemp { register, count, components }
        }
        DeclKind::GlobalFlags => Decl::GlobalFlags(GlobalFlags(tok0 & L::GLOBAL_FLAGS.mask())),
        DeclKind::Stream => Decl::Stream(decode_operand(cur)?),
        DeclKind::FunctionBody => Decl::FunctionBody(cur.read()?),
        DeclKind::FunctionTable => {
            let id = cur.read()?;
            let count = cur.read()? as usize;
            Decl::FunctionTable { id, bodies: cur.words(count)? }
        }
        DeclKind::Interface => {
            let id = cur.read()?;
            let table_length = cur.read()?;
            let packed = cur.read()?;
            let tables = cur.words((packed & 0xffff) as usize)?;
            Decl::Interface {
                dynamic: L::INTERFACE_DYNAMIC.get(tok0) != 0,
                id,
                table_length,
                array_length: (packed >> 16) as u16,
                tables,
            }
        }
        DeclKind::ControlPointCount => Decl::ControlPointCount(L::CONTROL_POINTS.get(tok0) as u8),
        DeclKind::TessDomain => Decl::TessDomain(TessDomain::from_raw(L::TESS_DOMAIN.get(tok0) as u8)),
        DeclKind::TessPartitioning => {
            Decl::TessPartitioning(TessPartitioning::from_raw(L::TESS_PARTITIONING.get(tok0) as u8))
        }
        DeclKind::TessOutputPrimitive => {
            Decl::TessOutputPrimitive(TessOutputPrimitive::from_raw(L::TESS_OUTPUT.get(tok0) as u8))
        }
        DeclKind::HsMaxTessFactor => Decl::HsMaxTessFactor(cur.read()?),
        DeclKind::PhaseInstanceCount => Decl::PhaseInstanceCount(cur.read()?),
        DeclKind::ThreadGroup => Decl::ThreadGroup([cur.read()?, cur.read()?, cur.read()?]),
        DeclKind::UavTyped => {
            let operand = decode_operand(cur)?;
            let return_type = decode_return_types(cur.read()?);
            let space = cur.read_opt()?;
            let mut flags = uav_flags(tok0);
            flags.order_preserving_counter = false;
            Decl::UavTyped {
                operand,
                dim: ResourceDimension::from_raw(L::DIMENSION.get(tok0) as u8),
                flags,
                return_type,
                space,
            }
        }
        DeclKind::UavRaw => {
            let operand = decode_operand(cur)?;
            let space = cur.read_opt()?;
            let mut flags = uav_flags(tok0);
            flags.order_preserving_counter = false;
            Decl::UavRaw { operand, flags, space }
        }
        DeclKind::UavStructured => {
            let operand = decode_operand(cur)?;
            let stride = cur.read()?;
            let space = cur.read_opt()?;
            Decl::UavStructured { operand, flags: uav_flags(tok0), stride, space }
        }
        DeclKind::TgsmRaw => {
            let operand = decode_operand(cur)?;
            Decl::TgsmRaw { operand, byte_count: cur.read()? }
        }
        DeclKind::TgsmStructured => {
            let operand = decode_operand(cur)?;
            let stride = cur.read()?;
            Decl::TgsmStructured { operand, stride, count: cur.read()? }
        }
        DeclKind::ResourceRaw => {
            let operand = decode_operand(cur)?;
            Decl::ResourceRaw { operand, space: cur.read_opt()? }
        }
        DeclKind::ResourceStructured => {
            let operand = decode_operand(cur)?;
            let stride = cur.read()?;
            Decl::ResourceStructured { operand, stride, space: cur.read_opt()? }
        }
        DeclKind::GsInstanceCount => Decl::GsInstanceCount(cur.read()?),
    };
    Ok((decl, used))
}
