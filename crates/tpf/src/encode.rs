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
    for (index, ins) in program.instructions.iter().enumerate() {
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
pub fn encode_instruction(ins: &Instruction<'_>, index: usize, out: &mut Vec<u32>) -> Result<(), EncodeError> {
    let start = out.len();
    let info = ins.opcode.info();
    let mismatch = || EncodeError::BodyMismatch { index, mnemonic: info.mnemonic };

    if let Body::CustomData(c) = &ins.body {
        if ins.opcode != Opcode::CustomData {
            return Err(mismatch());
        }
        out.push(Opcode::CustomData as u32 | (c.class.raw() << 11));
        out.push(u32::try_from(c.data.len() + 2).map_err(|_| EncodeError::ProgramTooLong)?);
        out.extend(c.data.iter());
        return Ok(());
    }

    out.push(0); // opcode token, written last
    if ins.length == LengthEncoding::Separate {
        out.push(0);
    }
    for (i, e) in ins.ext.iter().enumerate() {
        let more = if i + 1 < ins.ext.len() { 0x8000_0000 } else { 0 };
        out.push(encode_ext_opcode(e) | more);
    }

    let controls = match (&ins.body, info.shape) {
        (Body::Op(op), Shape::Ops) => {
            if op.operands.len() != info.operand_count() {
                return Err(EncodeError::OperandCount {
                    index,
                    mnemonic: info.mnemonic,
                    found: op.operands.len(),
                    expected: info.operand_count(),
                });
            }
            for o in &op.operands {
                encode_operand(o, out);
            }
            encode_controls(info.controls, op)
        }
        (Body::InterfaceCall { function, interface }, Shape::InterfaceCall) => {
            out.push(*function);
            encode_operand(interface, out);
            0
        }
        (Body::Decl(d), Shape::Decl(_)) => encode_decl(d, out),
        _ => return Err(mismatch()),
    };
    out.extend(ins.trailing.iter());

    let length = out.len() - start;
    let mut tok0 = ins.opcode as u32 | ((controls | ins.reserved) & 0x00ff_f800);
    if !ins.ext.is_empty() {
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

fn encode_head(
    ty: OperandType,
    components: ComponentCount,
    selection: Selection,
    reprs: &[u32],
    has_ext: bool,
    reserved: u32,
) -> u32 {
    let mut t = match components {
        ComponentCount::Zero => 0,
        ComponentCount::One => 1,
        ComponentCount::Four => 2,
        ComponentCount::N => 3,
    };
    if components == ComponentCount::Four {
        t |= match selection {
            Selection::Mask(m) => (m.0 as u32 & 0xf) << 4,
            Selection::Swizzle(s) => {
                (1 << 2) | s.iter().enumerate().fold(0, |acc, (c, &v)| acc | ((v as u32 & 3) << (4 + 2 * c)))
            }
            Selection::Select1(c) => (2 << 2) | ((c as u32 & 3) << 4),
            Selection::Mode3 | Selection::None => 3 << 2,
        };
    }
    t |= (ty.raw() as u32) << 12;
    t |= (reprs.len() as u32 & 3) << 20;
    for (d, r) in reprs.iter().enumerate() {
        t |= (r & 7) << (22 + 3 * d);
    }
    if has_ext {
        t |= 0x8000_0000;
    }
    t | reserved
}

fn encode_ext_operand(e: &ExtOperand) -> u32 {
    let mut t = e.kind.raw() as u32 & 0x3f;
    if e.kind == ExtendedOperandKind::Modifier {
        t |= (e.modifier.raw() as u32) << 6;
        t |= (e.min_precision.raw() as u32 & 7) << 14;
        t |= (e.non_uniform as u32) << 17;
    }
    t | e.reserved
}

/// Appends an operand's tokens.
pub fn encode_operand(o: &Operand, out: &mut Vec<u32>) {
    let mut reprs = [0u32; 3];
    for (d, index) in o.indices.iter().enumerate() {
        reprs[d] = match index {
            Index::Imm32(_) => 0,
            Index::Imm64(_) => 1,
            Index::Relative(_) => 2,
            Index::Imm32Relative(..) => 3,
            Index::Imm64Relative(..) => 4,
        };
    }
    out.push(encode_head(o.ty, o.components, o.selection, &reprs[..o.indices.len()], o.ext.is_some(), o.reserved));
    if let Some(e) = &o.ext {
        out.push(encode_ext_operand(e));
    }
    for index in &o.indices {
        match index {
            Index::Imm32(v) => out.push(*v),
            Index::Imm64(v) => out.extend([(*v >> 32) as u32, *v as u32]),
            Index::Relative(r) => encode_rel(r, out),
            Index::Imm32Relative(v, r) => {
                out.push(*v);
                encode_rel(r, out);
            }
            Index::Imm64Relative(v, r) => {
                out.extend([(*v >> 32) as u32, *v as u32]);
                encode_rel(r, out);
            }
        }
    }
    out.extend_from_slice(&o.imm[..o.immediate_count()]);
}

fn encode_rel(r: &RelOperand, out: &mut Vec<u32>) {
    let dims = r.dims.min(3) as usize;
    out.push(encode_head(r.ty, r.components, r.selection, &[0, 0, 0][..dims], r.ext.is_some(), r.reserved));
    if let Some(e) = &r.ext {
        out.push(encode_ext_operand(e));
    }
    out.extend_from_slice(&r.index[..dims]);
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

/// Appends a declaration's tokens after the opcode token; returns its opcode-token bits.
fn encode_decl(d: &Decl<'_>, out: &mut Vec<u32>) -> u32 {
    let name = |n: SystemName, reserved: u16| n.raw() as u32 | ((reserved as u32) << 16);
    match d {
        Decl::Resource { operand, dim, sample_count, return_type, space } => {
            encode_operand(operand, out);
            out.push(return_types(return_type));
            out.extend(*space);
            L::DIMENSION.put(dim.raw() as u32) | L::SAMPLE_COUNT.put(*sample_count as u32)
        }
        Decl::ConstantBuffer { operand, access, size, space } => {
            encode_operand(operand, out);
            out.extend(*size);
            out.extend(*space);
            L::CB_ACCESS.put(access.raw() as u32)
        }
        Decl::Sampler { operand, mode, space } => {
            encode_operand(operand, out);
            out.extend(*space);
            L::SAMPLER_MODE.put(mode.raw() as u32)
        }
        Decl::IndexRange { operand, count } => {
            encode_operand(operand, out);
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
        Decl::Register(operand) | Decl::Stream(operand) => {
            encode_operand(operand, out);
            0
        }
        Decl::RegisterName { operand, name: n, reserved } => {
            encode_operand(operand, out);
            out.push(name(*n, *reserved));
            0
        }
        Decl::InputPs { interpolation, operand } => {
            encode_operand(operand, out);
            L::INTERPOLATION.put(interpolation.raw() as u32)
        }
        Decl::InputPsName { interpolation, operand, name: n, reserved } => {
            encode_operand(operand, out);
            out.push(name(*n, *reserved));
            L::INTERPOLATION.put(interpolation.raw() as u32)
        }
        Decl::IndexableTemp { register, count, components } => {
            out.extend([*register, *count, *components]);
            0
        }
        Decl::GlobalFlags(f) => f.0 & L::GLOBAL_FLAGS.mask(),
        Decl::FunctionTable { id, bodies } => {
            out.extend([*id, bodies.len() as u32]);
            out.extend(bodies.iter());
            0
        }
        Decl::Interface { dynamic, id, table_length, array_length, tables } => {
            out.extend([*id, *table_length, (tables.len() as u32 & 0xffff) | ((*array_length as u32) << 16)]);
            out.extend(tables.iter());
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
        Decl::UavTyped { operand, dim, flags, return_type, space } => {
            encode_operand(operand, out);
            out.push(return_types(return_type));
            out.extend(*space);
            L::DIMENSION.put(dim.raw() as u32) | uav_bits(flags)
        }
        Decl::UavRaw { operand, flags, space } => {
            encode_operand(operand, out);
            out.extend(*space);
            uav_bits(flags)
        }
        Decl::UavStructured { operand, flags, stride, space } => {
            encode_operand(operand, out);
            out.push(*stride);
            out.extend(*space);
            uav_bits(flags)
        }
        Decl::TgsmRaw { operand, byte_count } => {
            encode_operand(operand, out);
            out.push(*byte_count);
            0
        }
        Decl::TgsmStructured { operand, stride, count } => {
            encode_operand(operand, out);
            out.extend([*stride, *count]);
            0
        }
        Decl::ResourceRaw { operand, space } => {
            encode_operand(operand, out);
            out.extend(*space);
            0
        }
        Decl::ResourceStructured { operand, stride, space } => {
            encode_operand(operand, out);
            out.push(*stride);
            out.extend(*space);
            0
        }
    }
}
