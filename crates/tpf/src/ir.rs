//! The typed IR of an SM4/SM5 program.
//!
//! Every field of the token format is a typed field here; bits the format leaves
//! "ignored" or that carry values it does not define are kept (`reserved` fields and
//! `Unknown` enum variants), so that encoding a decoded program gives back its bytes.
//! Instructions hold their operands inline (no allocation per instruction); variable
//! runs of tokens ([`Words`]) borrow from the input.

use arrayvec::ArrayVec;

use crate::enums::*;
use crate::table::Opcode;
use crate::words::Words;

/// The most operands an instruction has (`sample_d_cl_s`: 2 destinations, 6 sources).
pub const MAX_OPERANDS: usize = 8;
/// The most extended opcode tokens kept for one instruction (see [`crate::limits`]).
pub use crate::limits::MAX_EXTENDED;

/// The version token: program type and shader model.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Version {
    pub ty: ProgramType,
    pub major: u8,
    pub minor: u8,
    /// Bits 15:8, not defined by the format.
    pub reserved: u8,
}

impl Version {
    pub fn new(ty: ProgramType, major: u8, minor: u8) -> Version {
        Version { ty, major, minor, reserved: 0 }
    }
    /// True for Shader Model 5.1 and later (register ranges and spaces).
    pub fn is_sm51(&self) -> bool {
        (self.major, self.minor) >= (5, 1)
    }
    /// The profile token fxc prints (`gs_5_0`).
    pub fn profile(&self) -> String {
        let prefix = self.ty.listing_name().unwrap_or("xx");
        format!("{prefix}_{}_{}", self.major, self.minor)
    }
}

/// Number of components of the data an operand refers to (operand token bits 1:0).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ComponentCount {
    Zero,
    One,
    Four,
    /// `N` components: defined by the format but unused.
    N,
}

/// How a four-component operand selects components (operand token bits 11:2).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Selection {
    /// Not a four-component operand.
    None,
    /// A write mask (destinations, declarations).
    Mask(Mask),
    /// A swizzle: source component for x, y, z, w.
    Swizzle([u8; 4]),
    /// One component.
    Select1(u8),
    /// Selection mode 3, which the format does not define.
    Mode3,
}

/// The extended operand token.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct ExtOperand {
    pub kind: ExtendedOperandKind,
    pub modifier: Modifier,
    pub min_precision: MinPrecision,
    pub non_uniform: bool,
    /// Bits not described by the fields above (for kinds other than `Modifier`,
    /// everything but the kind).
    pub reserved: u32,
}

impl ExtOperand {
    /// A modifier token carrying only `modifier`.
    pub fn modifier(modifier: Modifier) -> ExtOperand {
        ExtOperand {
            kind: ExtendedOperandKind::Modifier,
            modifier,
            min_precision: MinPrecision::Default,
            non_uniform: false,
            reserved: 0,
        }
    }
}

/// The register a relative index reads (`r0.x` in `cb0[r0.x + 1]`).
///
/// It is itself an operand, restricted to immediate indices: the format allows a
/// relatively-indexed index register in principle, no compiler emits one, and the
/// decoder reports it as an error rather than guessing.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct RelOperand {
    pub ty: OperandType,
    pub components: ComponentCount,
    pub selection: Selection,
    /// Immediate 32-bit indices, `dims` of them.
    pub index: [u32; 3],
    pub dims: u8,
    pub ext: Option<ExtOperand>,
    pub reserved: u32,
}

/// One index of an operand, in one of the five representations.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Index {
    Imm32(u32),
    Imm64(u64),
    Relative(RelOperand),
    Imm32Relative(u32, RelOperand),
    Imm64Relative(u64, RelOperand),
}

impl Index {
    /// The immediate part (0 for a purely relative index).
    pub fn immediate(&self) -> u64 {
        match *self {
            Index::Imm32(v) | Index::Imm32Relative(v, _) => v as u64,
            Index::Imm64(v) | Index::Imm64Relative(v, _) => v,
            Index::Relative(_) => 0,
        }
    }
    /// The relative part, if any.
    pub fn relative(&self) -> Option<&RelOperand> {
        match self {
            Index::Relative(r) | Index::Imm32Relative(_, r) | Index::Imm64Relative(_, r) => Some(r),
            _ => None,
        }
    }
}

/// An instruction operand.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Operand {
    pub ty: OperandType,
    pub components: ComponentCount,
    pub selection: Selection,
    /// One entry per index dimension (0 to 3).
    pub indices: ArrayVec<Index, 3>,
    pub ext: Option<ExtOperand>,
    /// Immediate values: `l(...)` uses 1 or 4 tokens, `d(...)` 2 or 4 (one or two doubles).
    pub imm: [u32; 4],
    /// Bits of the operand token not described by the fields above.
    pub reserved: u32,
}

impl Operand {
    /// A null operand with no fields set (a starting value to decode into).
    pub const EMPTY: Operand = Operand {
        ty: OperandType::Null,
        components: ComponentCount::Zero,
        selection: Selection::None,
        indices: ArrayVec::new_const(),
        ext: None,
        imm: [0; 4],
        reserved: 0,
    };

    /// A register operand with immediate indices and no selection (e.g. `vPrim`).
    pub fn new(ty: OperandType, components: ComponentCount, selection: Selection, indices: &[u32]) -> Operand {
        Operand {
            ty,
            components,
            selection,
            indices: indices.iter().map(|&i| Index::Imm32(i)).collect(),
            ext: None,
            imm: [0; 4],
            reserved: 0,
        }
    }

    /// The source modifier (`-`, `|abs|`), if any.
    pub fn modifier(&self) -> Modifier {
        self.ext.map_or(Modifier::None, |e| e.modifier)
    }

    /// The minimum precision, `Default` if none is given.
    pub fn min_precision(&self) -> MinPrecision {
        self.ext.map_or(MinPrecision::Default, |e| e.min_precision)
    }

    /// Number of immediate tokens this operand carries.
    pub fn immediate_count(&self) -> usize {
        match (self.ty, self.components) {
            (OperandType::Immediate32, ComponentCount::One) => 1,
            (OperandType::Immediate32, ComponentCount::Four) => 4,
            (OperandType::Immediate64, ComponentCount::One) => 2,
            (OperandType::Immediate64, ComponentCount::Four) => 4,
            _ => 0,
        }
    }

    /// The write mask of a destination (all four for a non-masked operand).
    pub fn mask(&self) -> Mask {
        match self.selection {
            Selection::Mask(m) => m,
            _ => Mask::XYZW,
        }
    }

    /// The immediate first index (register number), if the first index is immediate.
    pub fn register(&self) -> Option<u64> {
        match self.indices.first()? {
            Index::Imm32(v) => Some(*v as u64),
            Index::Imm64(v) => Some(*v),
            _ => None,
        }
    }
}

/// The per-component return types of a resource (ResourceReturnTypeToken).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct ReturnTypes {
    pub types: [ReturnType; 4],
    /// Bits 31:16 of the token.
    pub reserved: u16,
}

/// An extended opcode token.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ExtOpcode {
    /// Immediate texel offsets `(u,v,w)` of sample/load instructions (`_aoffimmi`).
    SampleControls { offsets: [i8; 3], reserved: u32 },
    /// The resource dimension (and structure stride) the instruction reads.
    ResourceDim { dim: ResourceDimension, stride: u16, reserved: u32 },
    /// The return type of the resource the instruction reads.
    ReturnType { types: [ReturnType; 4], reserved: u32 },
    /// Any other kind (`Empty`, or undefined), bits 30:0 as read.
    Other { kind: ExtendedOpcodeKind, raw: u32 },
}

/// Controls of an executable instruction beyond `_sat` and the precise mask.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum OpControl {
    None,
    /// `_z` / `_nz` of conditional instructions.
    Test(Test),
    /// Return type of `resinfo`.
    ResInfo(ResInfoReturnType),
    /// Return type of `sampleinfo` / `samplepos`.
    ReturnType(InstructionReturnType),
    /// Flags of `sync`.
    Sync(SyncFlags),
}

/// An executable instruction (everything that is not a declaration or data block).
#[derive(Debug, Clone, PartialEq)]
pub struct Op {
    /// `_sat`.
    pub saturate: bool,
    /// Components whose results must be computed precisely (`[precise(xyzw)]`).
    pub precise: Mask,
    pub control: OpControl,
    /// Destinations first, then sources, as the table row lists them.
    pub operands: ArrayVec<Operand, MAX_OPERANDS>,
}

impl Op {
    /// No modifiers, no operands.
    pub const EMPTY: Op =
        Op { saturate: false, precise: Mask::NONE, control: OpControl::None, operands: ArrayVec::new_const() };
}

/// A declaration.
#[derive(Debug, Clone, PartialEq)]
pub enum Decl<'a> {
    Resource {
        operand: Operand,
        dim: ResourceDimension,
        sample_count: u8,
        return_type: ReturnTypes,
        space: Option<u32>,
    },
    ConstantBuffer {
        operand: Operand,
        access: CbAccessPattern,
        size: Option<u32>,
        space: Option<u32>,
    },
    Sampler {
        operand: Operand,
        mode: SamplerMode,
        space: Option<u32>,
    },
    IndexRange {
        operand: Operand,
        count: u32,
    },
    OutputTopology(PrimitiveTopology),
    InputPrimitive(Primitive),
    MaxOutputVertexCount(u32),
    /// `dcl_input` / `dcl_output`.
    Register(Operand),
    /// `dcl_input_sgv/siv`, `dcl_output_sgv/siv`.
    RegisterName {
        operand: Operand,
        name: SystemName,
        reserved: u16,
    },
    InputPs {
        interpolation: InterpolationMode,
        operand: Operand,
    },
    InputPsName {
        interpolation: InterpolationMode,
        operand: Operand,
        name: SystemName,
        reserved: u16,
    },
    Temps(u32),
    IndexableTemp {
        register: u32,
        count: u32,
        components: u32,
    },
    GlobalFlags(GlobalFlags),
    Stream(Operand),
    FunctionBody(u32),
    FunctionTable {
        id: u32,
        bodies: Words<'a>,
    },
    Interface {
        dynamic: bool,
        id: u32,
        table_length: u32,
        array_length: u16,
        tables: Words<'a>,
    },
    ControlPointCount(u8),
    TessDomain(TessDomain),
    TessPartitioning(TessPartitioning),
    TessOutputPrimitive(TessOutputPrimitive),
    /// The float's bits.
    HsMaxTessFactor(u32),
    PhaseInstanceCount(u32),
    ThreadGroup([u32; 3]),
    UavTyped {
        operand: Operand,
        dim: ResourceDimension,
        flags: UavFlags,
        return_type: ReturnTypes,
        space: Option<u32>,
    },
    UavRaw {
        operand: Operand,
        flags: UavFlags,
        space: Option<u32>,
    },
    UavStructured {
        operand: Operand,
        flags: UavFlags,
        stride: u32,
        space: Option<u32>,
    },
    TgsmRaw {
        operand: Operand,
        byte_count: u32,
    },
    TgsmStructured {
        operand: Operand,
        stride: u32,
        count: u32,
    },
    ResourceRaw {
        operand: Operand,
        space: Option<u32>,
    },
    ResourceStructured {
        operand: Operand,
        stride: u32,
        space: Option<u32>,
    },
    GsInstanceCount(u32),
}

impl Decl<'_> {
    /// The declared register operand, for declarations that have one.
    pub fn operand(&self) -> Option<&Operand> {
        use Decl::*;
        match self {
            Resource { operand, .. }
            | ConstantBuffer { operand, .. }
            | Sampler { operand, .. }
            | IndexRange { operand, .. }
            | Register(operand)
            | RegisterName { operand, .. }
            | InputPs { operand, .. }
            | InputPsName { operand, .. }
            | Stream(operand)
            | UavTyped { operand, .. }
            | UavRaw { operand, .. }
            | UavStructured { operand, .. }
            | TgsmRaw { operand, .. }
            | TgsmStructured { operand, .. }
            | ResourceRaw { operand, .. }
            | ResourceStructured { operand, .. } => Some(operand),
            _ => None,
        }
    }
}

/// A custom-data block: comment, debug info, immediate constant buffer, ...
#[derive(Debug, Clone, PartialEq)]
pub struct CustomData<'a> {
    pub class: CustomDataClass,
    /// The block's tokens after its two header tokens (for an immediate constant
    /// buffer: the 4-tuples).
    pub data: Words<'a>,
}

/// What follows the opcode token(s).
///
/// `Op` is by far the largest variant (its operands are inline so that decoding
/// never allocates); instructions are decoded in place, so the size costs no copies.
#[allow(clippy::large_enum_variant)]
#[derive(Debug, Clone, PartialEq)]
pub enum Body<'a> {
    Op(Op),
    Decl(Decl<'a>),
    /// `fcall`: the function-table index and the interface operand.
    InterfaceCall {
        function: u32,
        interface: Operand,
    },
    CustomData(CustomData<'a>),
}

/// How an instruction's length was written.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum LengthEncoding {
    /// In the opcode token (bits 30:24), up to 127 tokens.
    #[default]
    Inline,
    /// Opcode-token length 0 and the length in the next token (long declarations).
    Separate,
}

/// One instruction, declaration or data block.
#[derive(Debug, Clone, PartialEq)]
pub struct Instruction<'a> {
    pub opcode: Opcode,
    pub body: Body<'a>,
    /// Extended opcode tokens, in order.
    pub ext: ArrayVec<ExtOpcode, MAX_EXTENDED>,
    /// Bits of the opcode token (23:11) that no field of `body` describes.
    pub reserved: u32,
    pub length: LengthEncoding,
    /// Tokens inside the instruction's declared length after its last operand
    /// (none in well-formed programs; kept so nothing is lost).
    pub trailing: Words<'a>,
}

impl<'a> Instruction<'a> {
    /// An instruction with no extended tokens or extra bits.
    pub fn new(opcode: Opcode, body: Body<'a>) -> Instruction<'a> {
        Instruction {
            opcode,
            body,
            ext: ArrayVec::new(),
            reserved: 0,
            length: LengthEncoding::Inline,
            trailing: Words::empty(),
        }
    }

    /// A `nop`: a starting value to decode into.
    pub fn placeholder() -> Instruction<'a> {
        Instruction::new(Opcode::Nop, Body::Op(Op::EMPTY))
    }

    /// The operands of an executable instruction (empty for others).
    pub fn operands(&self) -> &[Operand] {
        match &self.body {
            Body::Op(op) => &op.operands,
            Body::InterfaceCall { interface, .. } => std::slice::from_ref(interface),
            _ => &[],
        }
    }

    /// The sample-controls offsets, if the instruction has them.
    pub fn sample_offsets(&self) -> Option<[i8; 3]> {
        self.ext.iter().find_map(|e| match e {
            ExtOpcode::SampleControls { offsets, .. } => Some(*offsets),
            _ => None,
        })
    }
}

/// A whole program: the version token, then the instructions.
#[derive(Debug, Clone, PartialEq)]
pub struct Program<'a> {
    pub version: Version,
    pub instructions: Vec<Instruction<'a>>,
}
