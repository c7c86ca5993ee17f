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
        (Body::Decl(d), Shape::Decl(_)) => {
            if let Some(id) = d.operand() {
                // The operand is the first token after the opcode token of every
                // declaration that has one.
                let mut tokens = Vec::new();
                operand(ins.operand(id), &mut tokens)?;
                encode_decl(d, &tokens, pool, out)
            } else {
                encode_decl(d, &[], pool, out)
            }
        }
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

fn return_types(rt: &ReturnTypes) -> u32 {
    rt.types
        .iter()
        .enumerate()
        .fold((rt.reserved as u32) << 16, |acc, (c, t)| acc | ((t.raw() as u32 & 0xf) << (4 * c)))
}

fn uav_bits(f: &UavFlags) -> u32 {
    L::UAV_GLOBALLY_COHERENT.put(f.globally_coherent as u32)
        | L::UAV_RASTERIZER_ORDERED.put(f.rasterizer_ordered as u32)
        | L::UAV_COUNTER.put(f.order_preserving_counter as u32)
}

/// Appends a declaration's tokens after the opcode token (`operand`: its register's
/// tokens); returns its opcode-token bits.
fn encode_decl(d: &Decl, operand: &[u32], pool: Pool<'_, '_>, out: &mut Vec<u32>) -> u32 {
    let name = |n: SystemName, reserved: u16| n.raw() as u32 | ((reserved as u32) << 16);
    match d {
        Decl::Resource { operand: _, dim, sample_count, return_type, space } => {
            out.extend_from_slice(operand);
            out.push(return_types(return_type));
            out.extend(*space);
            L::DIMENSION.put(dim.raw() as u32) | L::SAMPLE_COUNT.put(*sample_count as u32)
        }
        Decl::ConstantBuffer { operand: _, access, size, space } => {
            out.extend_from_slice(operand);
            out.extend(*size);
            out.extend(*space);
            L::CB_ACCESS.put(access.raw() as u32)
        }
        Decl::Sampler { operand: _, mode, space } => {
            out.extend_from_slice(operand);
            out.extend(*space);
            L::SAMPLER_MODE.put(mode.raw() as u32)
        }
        Decl::IndexRange { operand: _, count } => {
            out.extend_from_slice(operand);
            out.push(*count);
            0
        }
        Decl::OutputTopology(t) => L::TOPOLOGY.put(t.raw() as u32),
        Decl::InputPrimitive(p) => L::PRIMITIVE.put(p.raw() as u32),
        Decl::MaxOutputVertexCount(n) | Decl::Temps(n) | Decl::FunctionBody(n) => {
            out.push(*n);
            0
        }
        Decl::PhaseInstanceCount(n) | Decl::GsInstanceCount(n) | Decl::HsMaxTessFactor(n) => {
            out.push(*n);
            0
        }
        Decl::Register(_) | Decl::Stream(_) => {
            out.extend_from_slice(operand);
            0
        }
        Decl::RegisterName { operand: _, name: n, reserved } => {
            out.extend_from_slice(operand);
            out.push(name(*n, *reserved));
            0
        }
        Decl::InputPs { interpolation, operand: _ } => {
            out.extend_from_slice(operand);
            L::INTERPOLATION.put(interpolation.raw() as u32)
        }
        Decl::InputPsName { interpolation, operand: _, name: n, reserved } => {
            out.extend_from_slice(operand);
            out.push(name(*n, *reserved));
            L::INTERPOLATION.put(interpolation.raw() as u32)
        }
        Decl::IndexableTemp { register, count, components } => {
            out.extend([*register, *count, *components]);
            0
        }
        Decl::GlobalFlags(f) => f.0 & L::GLOBAL_FLAGS.mask(),
        Decl::FunctionTable { id, bodies } => {
            out.extend([*id, pool.words(*bodies).len() as u32]);
            out.extend(pool.words(*bodies).iter());
            0
        }
        Decl::Interface { dynamic, id, table_length, array_length, tables } => {
            out.extend([
                *id,
                *table_length,
                (pool.words(*tables).len() as u32 & 0xffff) | ((*array_length as u32) << 16),
            ]);
            out.extend(pool.words(*tables).iter());
            L::INTERFACE_DYNAMIC.put(*dynamic as u32)
        }
        Decl::ControlPointCount(n) => L::CONTROL_POINTS.put(*n as u32),
        Decl::TessDomain(v) => L::TESS_DOMAIN.put(v.raw() as u32),
        Decl::TessPartitioning(v) => L::TESS_PARTITIONING.put(v.raw() as u32),
        Decl::TessOutputPrimitive(v) => L::TESS_OUTPUT.put(v.raw() as u32),
        Decl::ThreadGroup(xyz) => {
            out.extend_from_slice(xyz);
            0
        }
        Decl::UavTyped { operand: _, dim, flags, return_type, space } => {
            out.extend_from_slice(operand);
            out.push(return_types(return_type));
            out.extend(*space);
            L::DIMENSION.put(dim.raw() as u32) | uav_bits(flags)
        }
        Decl::UavRaw { operand: _, flags, space } => {
            out.extend_from_slice(operand);
            out.extend(*space);
            uav_bits(flags)
        }
        Decl::UavStructured { operand: _, flags, stride, space } => {
            out.extend_from_slice(operand);
            out.push(*stride);
            out.extend(*space);
            uav_bits(flags)
        }
        Decl::TgsmRaw { operand: _, byte_count } => {
            out.extend_from_slice(operand);
            out.push(*byte_count);
            0
        }
        Decl::TgsmStructured { operand: _, stride, count } => {
            out.extend_from_slice(operand);
            out.extend([*stride, *count]);
            0
        }
        Decl::ResourceRaw { operand: _, space } => {
            out.extend_from_slice(operand);
            out.extend(*space);
            0
        }
        Decl::ResourceStructured { operand: _, stride, space } => {
            out.extend_from_slice(operand);
            out.push(*stride);
            out.extend(*space);
            0
        }
    }
}
