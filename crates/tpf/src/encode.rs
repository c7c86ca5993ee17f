//! Encoding the IR into tokens: the exact inverse of [`crate::decode()`].

use crate::enums::*;
use crate::error::EncodeError;
use crate::ir::*;
use crate::layout as L;
use crate::table::{Controls, Opcode, Shape};

/// Encodes a whole program (version token, length token, instructions) as bytes.
pub fn encode(program: &Program<'_>) -> Result<Vec<u8>, EncodeError> {
    let mut tokens = Vec::with_capacity(2 + program.instructions.len() * 6);
    tokens.push(encode_version(program.version));
    tokens.push(0);
    for (index, ins) in program.iter().enumerate() {
        encode_instruction(ins, index, &mut tokens)?;
    }
    tokens[1] = u32::try_from(tokens.len()).map_err(|_| EncodeError::ProgramTooLong)?;
    let mut bytes = Vec::with_capacity(tokens.len() * 4);
    for t in tokens {
        bytes.extend_from_slice(&t.to_le_bytes());
    }
    Ok(bytes)
}

/// The version token.
pub fn encode_version(v: Version) -> u32 {
    ((v.ty.raw() as u32) << 16) | ((v.reserved as u32) << 8) | (((v.major & 0xf) as u32) << 4) | (v.minor & 0xf) as u32
}

/// Appends one instruction's tokens to `out`. `index` is only used in errors.
pub fn encode_instruction(ins: InstructionRef<'_, '_>, index: usize, out: &mut Vec<u32>) -> Result<(), EncodeError> {
    let start = out.len();
    let info = ins.opcode.info();
    let mismatch = || EncodeError::BodyMismatch { index, mnemonic: info.mnemonic };
    let pool = ins.pool();
    if !pool.holds(&ins) {
        return Err(EncodeError::BadHandle { index, mnemonic: info.mnemonic });
    }
    let operand = |o: &Operand, out: &mut Vec<u32>| {
        encode_operand(o, pool, out).map_err(|e| match e {
            OperandError::BadHandle => EncodeError::BadHandle { index, mnemonic: info.mnemonic },
            OperandError::NestedRelative => EncodeError::NestedRelative { index, mnemonic: info.mnemonic },
        })
    };

    if let Some((class, data)) = ins.custom_data() {
        if ins.opcode != Opcode::CustomData {
            return Err(mismatch());
        }
        out.push(Opcode::CustomData as u32 | (class.raw() << 11));
        out.push(u32::try_from(data.len() + 2).map_err(|_| EncodeError::ProgramTooLong)?);
        out.extend(data.iter());
        return Ok(());
    }

    out.push(0); // opcode token, written last
    if ins.length == LengthEncoding::Separate {
        out.push(0);
    }
    let ext = ins.ext();
    for (i, e) in ext.iter().enumerate() {
        let more = if i + 1 < ext.len() { 0x8000_0000 } else { 0 };
        out.push(encode_ext_opcode(e) | more);
    }

    let controls = match (&ins.body, info.shape) {
        (Body::Op(op), Shape::Ops) => {
            let operands = ins.operands();
            if operands.len() != info.operand_count() {
                return Err(EncodeError::OperandCount {
                    index,
                    mnemonic: info.mnemonic,
                    found: operands.len(),
                    expected: info.operand_count(),
                });
            }
            for o in operands {
                operand(o, out)?;
            }
            encode_controls(info.controls, op)
        }
        (Body::InterfaceCall { function, interface }, Shape::InterfaceCall) => {
            out.push(*function);
            operand(ins.operand(*interface), out)?;
            0
        }
        (Body::Decl(d), Shape::Decl(kind)) if d.kind() == kind => encode_decl(d, pool, out, operand)?,
        _ => return Err(mismatch()),
    };
    out.extend(ins.trailing().iter());

    let length = out.len() - start;
    let mut tok0 = ins.opcode as u32 | ((controls | ins.reserved) & 0x00ff_f800);
    if !ext.is_empty() {
        tok0 |= 0x8000_0000;
    }
    match ins.length {
        LengthEncoding::Inline => {
            if length > 127 {
                return Err(EncodeError::InstructionTooLong { index, mnemonic: info.mnemonic, length });
            }
            tok0 |= (length as u32) << 24;
        }
        LengthEncoding::Separate => out[start + 1] = length as u32,
    }
    out[start] = tok0;
    Ok(())
}

fn encode_controls(kind: Controls, op: &Op) -> u32 {
    let sat_precise = L::SATURATE.put(op.saturate as u32) | L::PRECISE.put(op.precise.0 as u32);
    let control = match op.control {
        OpControl::None => 0,
        OpControl::Test(Test::Zero) => 0,
        OpControl::Test(Test::NonZero) => L::TEST_NONZERO.put(1),
        OpControl::ResInfo(rt) => L::RETURN_TYPE.put(rt.raw() as u32),
        OpControl::ReturnType(rt) => L::RETURN_TYPE.put(rt.raw() as u32),
        OpControl::Sync(f) => L::SYNC_FLAGS.put(f.0 as u32),
    };
    match kind {
        Controls::Plain | Controls::ResInfo | Controls::ReturnType => sat_precise | control,
        Controls::Test | Controls::Sync | Controls::None => control,
    }
}

fn encode_ext_opcode(e: &ExtOpcode) -> u32 {
    match *e {
        ExtOpcode::SampleControls { offsets, reserved } => {
            let o = |v: i8, shift: u32| ((v as u32) & 0xf) << shift;
            ExtendedOpcodeKind::SampleControls.raw() as u32
                | o(offsets[0], 9)
                | o(offsets[1], 13)
                | o(offsets[2], 17)
                | reserved
        }
        ExtOpcode::ResourceDim { dim, stride, reserved } => {
            ExtendedOpcodeKind::ResourceDim.raw() as u32
                | ((dim.raw() as u32 & 0x1f) << 6)
                | ((stride as u32 & 0xfff) << 11)
                | reserved
        }
        ExtOpcode::ReturnType { types, reserved } => {
            let mut t = ExtendedOpcodeKind::ResourceReturnType.raw() as u32 | reserved;
            for (c, rt) in types.iter().enumerate() {
                t |= (rt.raw() as u32 & 0xf) << (6 + 4 * c);
            }
            t
        }
        ExtOpcode::Other { kind, raw } => (kind.raw() as u32 & 0x3f) | (raw & 0x7fff_ffc0),
    }
}

/// Why an operand could not be encoded.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OperandError {
    /// A relative index names an operand `pool` does not hold.
    BadHandle,
    /// A relative index's register is itself relatively indexed.
    NestedRelative,
}

/// Appends an operand's tokens (its relative-index registers read from `pool`).
pub fn encode_operand(o: &Operand, pool: Pool<'_, '_>, out: &mut Vec<u32>) -> Result<(), OperandError> {
    encode_operand_at(o, pool, out, true)
}

fn encode_operand_at(o: &Operand, pool: Pool<'_, '_>, out: &mut Vec<u32>, top: bool) -> Result<(), OperandError> {
    out.push(o.token());
    if let Some(e) = o.ext() {
        out.push(e.token());
    }
    for d in 0..o.dims() {
        let Some(index) = o.index(d) else { continue };
        match index {
            Index::Imm32(v) | Index::Imm32Relative(v, _) => out.push(v),
            Index::Imm64(v) | Index::Imm64Relative(v, _) => out.extend([(v >> 32) as u32, v as u32]),
            Index::Relative(_) => {}
        }
        if let Some(r) = index.relative() {
            if !top {
                return Err(OperandError::NestedRelative);
            }
            let reg = pool.operands.get(r.0 as usize).ok_or(OperandError::BadHandle)?;
            encode_operand_at(reg, pool, out, false)?;
        }
    }
    out.extend_from_slice(&o.imm[..o.immediate_count()]);
    Ok(())
}

/// Appends a declaration's tokens after the opcode token by its kind's layout
/// ([`crate::table::DeclKind::layout`]), its register through `operand`; returns its
/// opcode-token bits.
fn encode_decl<E>(
    d: &Decl,
    pool: Pool<'_, '_>,
    out: &mut Vec<u32>,
    operand: impl Fn(&Operand, &mut Vec<u32>) -> Result<(), E>,
) -> Result<u32, E> {
    let layout = d.kind().layout();
    let v = d.values();
    let bits = layout.fields.iter().zip(v.fields).fold(0, |bits, (field, value)| bits | field.put(value));
    for (token, value) in layout.tokens.iter().zip(v.tokens) {
        match token {
            L::DeclToken::Operand => operand(pool.operand(OperandId(value.unwrap_or(0))), out)?,
            L::DeclToken::Word(_) | L::DeclToken::ReturnTypes | L::DeclToken::SystemName => {
                out.push(value.unwrap_or(0))
            }
            L::DeclToken::Optional(_) => out.extend(value),
            L::DeclToken::CountedWords(_) => {
                let words = pool.words(v.words);
                out.push(words.len() as u32);
                out.extend(words.iter());
            }
            L::DeclToken::InterfaceTables => {
                let words = pool.words(v.words);
                out.push((words.len() as u32 & 0xffff) | (value.unwrap_or(0) << 16));
                out.extend(words.iter());
            }
        }
    }
    Ok(bits)
}
