//! The typed IR of an SM4/SM5 program.
//!
//! Every field of the token format is kept: typed where it is read, and bits the
//! format leaves "ignored" or values it does not define are kept too (`reserved`
//! fields and `Unknown` enum variants), so that encoding a decoded program gives back
//! its bytes.
//!
//! A [`Program`] holds its parts in arenas, as handles: the instructions in order, and
//! beside them the operands ([`OperandId`], [`Span`]), the extended opcode tokens and
//! the runs of tokens ([`WordsId`]: custom data, function tables, trailing tokens,
//! borrowed from the input when decoded). An [`Instruction`] is thus a small `Copy`
//! value (at most 64 bytes), and so is an [`Operand`] (its indices inline; the register
//! of a relative index is an operand of the same arena, named by its id).
//! [`Program::iter`] yields [`InstructionRef`]s, views that read an instruction with
//! its arenas (`ins.operands()`, `ins.ext()`, `ins.operand(id)`); the streaming
//! [`crate::Decoder`] hands out the same views over buffers of its own.

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
    /// The stage (bits 31:16).
    pub ty: ProgramType,
    /// Major shader model (bits 7:4).
    pub major: u8,
    /// Minor shader model (bits 3:0).
    pub minor: u8,
    /// Bits 15:8, not defined by the format.
    pub reserved: u8,
}

impl Version {
    /// `ty`'s shader model `major.minor`, no reserved bits.
    pub fn new(ty: ProgramType, major: u8, minor: u8) -> Version {
        Version { ty, major, minor, reserved: 0 }
    }
    /// True for Shader Model 5.1 and later (register ranges and spaces).
    pub fn is_sm51(&self) -> bool {
        (self.major, self.minor) >= (5, 1)
    }
    /// The profile token fxc prints (`gs_5_0`).
    pub fn profile(&self) -> String {
        let mut s = String::with_capacity(8);
        self.push_profile(&mut s);
        s
    }

    /// [`Version::profile`] appended to `out` (no `core::fmt`, nothing allocated).
    pub fn push_profile(&self, out: &mut String) {
        out.push_str(self.ty.listing_name().unwrap_or("xx"));
        out.push('_');
        crate::digits::push_u32(out, self.major.into());
        out.push('_');
        crate::digits::push_u32(out, self.minor.into());
    }
}

/// Number of components of the data an operand refers to (operand token bits 1:0).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ComponentCount {
    /// No components (samplers, labels...).
    Zero,
    /// One component (`vPrim`, `oDepth`...).
    One,
    /// Four components, with a mask, swizzle or one selected component.
    Four,
    /// `N` components: defined by the format but unused.
    N,
}

impl ComponentCount {
    /// The field's value (bits 1:0).
    pub fn raw(self) -> u32 {
        match self {
            ComponentCount::Zero => 0,
            ComponentCount::One => 1,
            ComponentCount::Four => 2,
            ComponentCount::N => 3,
        }
    }
    /// The count a field value stands for.
    pub fn from_raw(raw: u32) -> ComponentCount {
        match raw & 3 {
            0 => ComponentCount::Zero,
            1 => ComponentCount::One,
            2 => ComponentCount::Four,
            _ => ComponentCount::N,
        }
    }
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

impl Selection {
    /// Reads bits 11:2 of an operand token (of a four-component operand).
    fn from_bits(t: u32) -> Selection {
        match (t >> 2) & 3 {
            0 => Selection::Mask(Mask(((t >> 4) & 0xf) as u8)),
            1 => Selection::Swizzle([4, 6, 8, 10].map(|shift| ((t >> shift) & 3) as u8)),
            2 => Selection::Select1(((t >> 4) & 3) as u8),
            _ => Selection::Mode3,
        }
    }

    /// Bits 11:2 of an operand token (none for [`Selection::None`]).
    fn bits(self) -> u32 {
        match self {
            Selection::None => 0,
            Selection::Mask(m) => (m.0 as u32 & 0xf) << 4,
            Selection::Swizzle(s) => {
                (1 << 2) | s.iter().enumerate().fold(0, |acc, (c, &v)| acc | ((v as u32 & 3) << (4 + 2 * c)))
            }
            Selection::Select1(c) => (2 << 2) | ((c as u32 & 3) << 4),
            Selection::Mode3 => 3 << 2,
        }
    }

    /// The bits of 11:2 the mode of token `t` describes.
    fn known_bits(t: u32) -> u32 {
        0x3 << 2
            | match (t >> 2) & 3 {
                0 => 0xf << 4,
                1 => 0xff << 4,
                2 => 0x3 << 4,
                _ => 0,
            }
    }
}

/// The extended operand token.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct ExtOperand {
    /// What the token carries (bits 5:0).
    pub kind: ExtendedOperandKind,
    /// Negation and absolute value (bits 13:6).
    pub modifier: Modifier,
    /// Minimum precision (bits 16:14).
    pub min_precision: MinPrecision,
    /// `NonUniformResourceIndex` (bit 17).
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

    /// Reads an extended operand token (bit 31, which would chain another, included
    /// in `reserved`; the decoder refuses a chain before it gets here).
    pub fn from_token(e: u32) -> ExtOperand {
        let kind = ExtendedOperandKind::from_raw((e & 0x3f) as u8);
        if kind == ExtendedOperandKind::Modifier {
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
        }
    }

    /// The token.
    pub fn token(&self) -> u32 {
        let mut t = self.kind.raw() as u32 & 0x3f;
        if self.kind == ExtendedOperandKind::Modifier {
            t |= (self.modifier.raw() as u32) << 6;
            t |= (self.min_precision.raw() as u32 & 7) << 14;
            t |= (self.non_uniform as u32) << 17;
        }
        t | self.reserved
    }
}

/// An operand in a program's operand arena.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct OperandId(pub u32);

/// A run of token words in a program's arena (custom data, function tables, ...).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct WordsId(pub u32);

/// Consecutive entries of an arena (an instruction's operands or extended tokens).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Span {
    /// The first entry's index in the arena.
    pub start: u32,
    /// The number of entries.
    pub len: u32,
}

impl Span {
    /// No entries.
    pub const EMPTY: Span = Span { start: 0, len: 0 };

    /// The entries as a range of indices.
    pub fn range(self) -> std::ops::Range<usize> {
        let start = self.start as usize;
        start..start.saturating_add(self.len as usize)
    }

    /// Number of entries.
    pub fn len(self) -> usize {
        self.len as usize
    }

    /// True when there are none.
    pub fn is_empty(self) -> bool {
        self.len == 0
    }
}

/// One index of an operand, in one of the five representations.
///
/// The register of a relative index is an operand of the program's arena (restricted
/// to immediate indices: the format allows a relatively-indexed index register in
/// principle, no compiler emits one, and the decoder reports it as an error).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Index {
    /// A 32-bit immediate (`r3`, `cb0[2]`).
    Imm32(u32),
    /// A 64-bit immediate.
    Imm64(u64),
    /// A register's value (`x0[r1.x]`).
    Relative(OperandId),
    /// A 32-bit immediate plus a register's value (`cb0[r1.x + 2]`).
    Imm32Relative(u32, OperandId),
    /// A 64-bit immediate plus a register's value.
    Imm64Relative(u64, OperandId),
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

    /// The register of the relative part, if any (read it with [`Program::operand`]
    /// or [`InstructionRef::operand`]).
    pub fn relative(&self) -> Option<OperandId> {
        match *self {
            Index::Relative(r) | Index::Imm32Relative(_, r) | Index::Imm64Relative(_, r) => Some(r),
            _ => None,
        }
    }

    /// The representation field (operand token bits 24:22 for the first index).
    pub fn representation(&self) -> u32 {
        match self {
            Index::Imm32(_) => 0,
            Index::Imm64(_) => 1,
            Index::Relative(_) => 2,
            Index::Imm32Relative(..) => 3,
            Index::Imm64Relative(..) => 4,
        }
    }

    /// The index as stored in an operand: low and high words of the immediate, and the
    /// relative register's id.
    fn slot(self) -> [u32; 3] {
        let imm = self.immediate();
        [imm as u32, (imm >> 32) as u32, self.relative().map_or(0, |r| r.0)]
    }

    /// The index of representation `repr` stored as `slot`.
    fn from_slot(repr: u32, [lo, hi, rel]: [u32; 3]) -> Index {
        let imm = (lo as u64) | ((hi as u64) << 32);
        match repr {
            0 => Index::Imm32(lo),
            1 => Index::Imm64(imm),
            2 => Index::Relative(OperandId(rel)),
            3 => Index::Imm32Relative(lo, OperandId(rel)),
            _ => Index::Imm64Relative(imm, OperandId(rel)),
        }
    }
}

/// An operand's indices, by value.
pub type Indices = ArrayVec<Index, 3>;

/// Operand-token bits `ty` and `components` hold (19:12, 1:0); [`Operand`] keeps the others.
const TYPE_AND_COUNT: u32 = 0x000f_f003;
/// Bit 31: an extended operand token follows.
const EXTENDED: u32 = 0x8000_0000;

/// An instruction operand: 64 bytes, inline.
///
/// `ty`, `components` and the immediate values are fields. The rest of the operand
/// token (the selection, the index dimension and representations, bits the format
/// does not define) and the extended operand token are kept as their bits, read and
/// written through typed methods ([`Operand::selection`], [`Operand::ext`],
/// [`Operand::indices`], [`Operand::reserved`]...), so that an operand with three
/// 64-bit relative indices still fits inline.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Operand {
    /// The register file (operand token bits 19:12).
    pub ty: OperandType,
    /// How many components the data has (bits 1:0).
    pub components: ComponentCount,
    /// The operand token's bits but those of `ty` and `components` (which are zero here).
    bits: u32,
    /// The extended operand token; zero when bit 31 of `bits` is clear.
    ext: u32,
    /// Per index: the immediate's low and high words and the relative register's id;
    /// zero beyond the index dimension. (The decoder writes it in place.)
    pub(crate) index: [[u32; 3]; 3],
    /// Immediate values: `l(...)` uses 1 or 4 tokens, `d(...)` 2 or 4 (one or two doubles).
    pub imm: [u32; 4],
}

impl Operand {
    /// A null operand with no fields set (a starting value to build on).
    pub const EMPTY: Operand = Operand {
        ty: OperandType::Null,
        components: ComponentCount::Zero,
        bits: 0,
        ext: 0,
        index: [[0; 3]; 3],
        imm: [0; 4],
    };

    /// A register operand with immediate indices (e.g. `vPrim`, `r0.xyzw`).
    pub fn new(ty: OperandType, components: ComponentCount, selection: Selection, indices: &[u32]) -> Operand {
        let mut o = Operand { ty, components, ..Operand::EMPTY };
        o.set_selection(selection);
        let idx: Indices = indices.iter().take(3).map(|&i| Index::Imm32(i)).collect();
        o.set_indices(&idx);
        o
    }

    /// An operand read from its tokens: the operand token `token`, the extended
    /// operand token `ext` (ignored unless bit 31 of `token` says one follows), its
    /// indices (as many as the token's index dimension says, each of the
    /// representation the token gives) and immediate values.
    ///
    /// Returns `None` when `indices` does not match the token.
    pub fn from_tokens(token: u32, ext: u32, indices: &[Index], imm: [u32; 4]) -> Option<Operand> {
        let dims = ((token >> 20) & 3) as usize;
        if dims != indices.len() || dims > 3 {
            return None;
        }
        let mut o = Operand {
            ty: OperandType::from_raw(((token >> 12) & 0xff) as u8),
            components: ComponentCount::from_raw(token),
            bits: token & !TYPE_AND_COUNT,
            ext: if token & EXTENDED != 0 { ext } else { 0 },
            index: [[0; 3]; 3],
            imm,
        };
        for (d, (slot, index)) in o.index.iter_mut().zip(indices).enumerate() {
            if (token >> (22 + 3 * d)) & 7 != index.representation() {
                return None;
            }
            *slot = index.slot();
        }
        Some(o)
    }

    /// An operand from its tokens as the decoder reads them: `index` holds, per index
    /// of the token's dimension, the immediate's low and high words and the relative
    /// register's id, as the token's representations say (the caller checked them).
    #[inline]
    pub(crate) fn from_raw_parts(token: u32, ext: u32, index: [[u32; 3]; 3], imm: [u32; 4]) -> Operand {
        Operand {
            ty: OperandType::from_raw(((token >> 12) & 0xff) as u8),
            components: ComponentCount::from_raw(token),
            bits: token & !TYPE_AND_COUNT,
            ext: if token & EXTENDED != 0 { ext } else { 0 },
            index,
            imm,
        }
    }

    /// The operand token.
    #[inline]
    pub fn token(&self) -> u32 {
        self.bits | ((self.ty.raw() as u32) << 12) | self.components.raw()
    }

    /// How a four-component operand selects components ([`Selection::None`] for others).
    #[inline]
    pub fn selection(&self) -> Selection {
        if self.components == ComponentCount::Four {
            Selection::from_bits(self.bits)
        } else {
            Selection::None
        }
    }

    /// Sets the selection (bits 11:2; [`Selection::None`] clears them).
    pub fn set_selection(&mut self, s: Selection) {
        self.bits = (self.bits & !0xffc) | s.bits();
    }

    /// The extended operand token, if the operand has one.
    #[inline]
    pub fn ext(&self) -> Option<ExtOperand> {
        (self.bits & EXTENDED != 0).then(|| ExtOperand::from_token(self.ext))
    }

    /// Sets or removes the extended operand token.
    pub fn set_ext(&mut self, ext: Option<ExtOperand>) {
        match ext {
            Some(e) => {
                self.bits |= EXTENDED;
                self.ext = e.token();
            }
            None => {
                self.bits &= !EXTENDED;
                self.ext = 0;
            }
        }
    }

    /// The source modifier (`-`, `|abs|`), if any.
    pub fn modifier(&self) -> Modifier {
        self.ext().map_or(Modifier::None, |e| e.modifier)
    }

    /// The minimum precision, `Default` if none is given.
    pub fn min_precision(&self) -> MinPrecision {
        self.ext().map_or(MinPrecision::Default, |e| e.min_precision)
    }

    /// Number of indices (0 to 3).
    #[inline]
    pub fn dims(&self) -> usize {
        ((self.bits >> 20) & 3).min(3) as usize
    }

    /// Index `d`, if the operand has that many.
    #[inline]
    pub fn index(&self, d: usize) -> Option<Index> {
        if d >= self.dims() {
            return None;
        }
        let repr = (self.bits >> (22 + 3 * d)) & 7;
        Some(Index::from_slot(repr, *self.index.get(d)?))
    }

    /// The indices, in order.
    #[inline]
    pub fn indices(&self) -> Indices {
        (0..self.dims()).filter_map(|d| self.index(d)).collect()
    }

    /// Sets the indices (the first three of `indices`).
    pub fn set_indices(&mut self, indices: &[Index]) {
        let dims = indices.len().min(3);
        self.bits &= !(0x3 << 20 | 0x1ff << 22);
        self.bits |= (dims as u32) << 20;
        self.index = [[0; 3]; 3];
        for (d, (slot, index)) in self.index.iter_mut().zip(indices).enumerate() {
            self.bits |= index.representation() << (22 + 3 * d);
            *slot = index.slot();
        }
    }

    /// The operand-token bits no field describes: selection bits of an operand that
    /// is not four-component (or that its selection mode leaves unused), and the
    /// representation bits of absent indices.
    pub fn reserved(&self) -> u32 {
        self.bits & !self.known_bits()
    }

    /// Sets the bits [`Operand::reserved`] reads (others of `reserved` are ignored).
    pub fn set_reserved(&mut self, reserved: u32) {
        let known = self.known_bits();
        self.bits = (self.bits & known) | (reserved & !known & !TYPE_AND_COUNT);
    }

    /// The operand-token bits some field describes.
    fn known_bits(&self) -> u32 {
        let mut known = TYPE_AND_COUNT | (0x3 << 20) | EXTENDED;
        if self.components == ComponentCount::Four {
            known |= Selection::known_bits(self.bits);
        }
        for d in 0..self.dims() {
            known |= 7 << (22 + 3 * d);
        }
        known
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
        match self.selection() {
            Selection::Mask(m) => m,
            _ => Mask::XYZW,
        }
    }

    /// The immediate first index (register number), if the first index is immediate.
    pub fn register(&self) -> Option<u64> {
        match self.index(0)? {
            Index::Imm32(v) => Some(v as u64),
            Index::Imm64(v) => Some(v),
            _ => None,
        }
    }
}

impl std::fmt::Debug for Operand {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let mut s = f.debug_struct("Operand");
        s.field("ty", &self.ty).field("components", &self.components);
        if self.components == ComponentCount::Four {
            s.field("selection", &self.selection());
        }
        s.field("indices", &self.indices());
        if let Some(e) = self.ext() {
            s.field("ext", &e);
        }
        if self.immediate_count() > 0 || self.imm != [0; 4] {
            s.field("imm", &self.imm);
        }
        if self.reserved() != 0 {
            s.field("reserved", &format_args!("{:#x}", self.reserved()));
        }
        s.finish()
    }
}

/// The per-component return types of a resource (ResourceReturnTypeToken).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct ReturnTypes {
    /// x, y, z, w (4 bits each in the token).
    pub types: [ReturnType; 4],
    /// Bits 31:16 of the token.
    pub reserved: u16,
}

/// An extended opcode token.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ExtOpcode {
    /// Immediate texel offsets `(u,v,w)` of sample/load instructions (`_aoffimmi`).
    SampleControls {
        /// u, v, w, each -8..=7.
        offsets: [i8; 3],
        /// Bits the format leaves undefined.
        reserved: u32,
    },
    /// The resource dimension (and structure stride) the instruction reads.
    ResourceDim {
        /// The dimension.
        dim: ResourceDimension,
        /// The structure stride in bytes (structured buffers; 0 otherwise).
        stride: u16,
        /// Bits the format leaves undefined.
        reserved: u32,
    },
    /// The return type of the resource the instruction reads.
    ReturnType {
        /// x, y, z, w.
        types: [ReturnType; 4],
        /// Bits the format leaves undefined.
        reserved: u32,
    },
    /// Any other kind (`Empty`, or undefined), bits 30:0 as read.
    Other {
        /// The kind (bits 5:0).
        kind: ExtendedOpcodeKind,
        /// Bits 30:0.
        raw: u32,
    },
}

/// Controls of an executable instruction beyond `_sat` and the precise mask.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum OpControl {
    /// No control.
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
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Op {
    /// `_sat`.
    pub saturate: bool,
    /// Components whose results must be computed precisely (`[precise(xyzw)]`).
    pub precise: Mask,
    /// The instruction's own controls (test, return type, sync flags).
    pub control: OpControl,
    /// Destinations first, then sources, as the table row lists them (read them with
    /// [`InstructionRef::operands`]).
    pub operands: Span,
}

impl Op {
    /// No modifiers, no operands.
    pub const EMPTY: Op = Op { saturate: false, precise: Mask::NONE, control: OpControl::None, operands: Span::EMPTY };

    /// No modifiers, the operands of `operands`.
    pub fn new(operands: Span) -> Op {
        Op { operands, ..Op::EMPTY }
    }
}

/// A declaration. Its register operand, when it has one, is in the program's operand
/// arena ([`InstructionRef::decl_operand`]); its runs of tokens in the words arena.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Decl {
    /// `dcl_resource_<dimension>`: a typed texture or buffer, `t#`.
    Resource {
        /// The declared register (`t#`; from Shader Model 5.1 a range `T#[lo:hi]`).
        operand: OperandId,
        /// Its dimension.
        dim: ResourceDimension,
        /// Samples per texel of a multisampled texture (0 otherwise).
        sample_count: u8,
        /// What each component returns.
        return_type: ReturnTypes,
        /// The register space (Shader Model 5.1; `None` before).
        space: Option<u32>,
    },
    /// `dcl_constantbuffer`: `cb#`.
    ConstantBuffer {
        /// The declared register.
        operand: OperandId,
        /// Immediate or dynamic indexing.
        access: CbAccessPattern,
        /// The size in 16-byte vectors, as its own token (Shader Model 5.1; before, it
        /// is the register's second index).
        size: Option<u32>,
        /// The register space (Shader Model 5.1; `None` before).
        space: Option<u32>,
    },
    /// `dcl_sampler`: `s#`.
    Sampler {
        /// The declared register.
        operand: OperandId,
        /// Default, comparison or mono.
        mode: SamplerMode,
        /// The register space (Shader Model 5.1; `None` before).
        space: Option<u32>,
    },
    /// `dcl_indexrange`: registers indexed together as an array.
    IndexRange {
        /// The declared register.
        operand: OperandId,
        /// The registers in the range.
        count: u32,
    },
    /// `dcl_outputtopology` (geometry shaders).
    OutputTopology(PrimitiveTopology),
    /// `dcl_inputprimitive` (geometry shaders).
    InputPrimitive(Primitive),
    /// `dcl_maxout`: the most vertices one invocation emits (geometry shaders).
    MaxOutputVertexCount(u32),
    /// `dcl_input` / `dcl_output`.
    Register(OperandId),
    /// `dcl_input_sgv/siv`, `dcl_output_sgv/siv`.
    RegisterName {
        /// The declared register.
        operand: OperandId,
        /// The system value.
        name: SystemName,
        /// Bits of the name token the format leaves undefined.
        reserved: u16,
    },
    /// `dcl_input_ps`: a pixel-shader input with its interpolation.
    InputPs {
        /// The interpolation mode.
        interpolation: InterpolationMode,
        /// The declared register.
        operand: OperandId,
    },
    /// `dcl_input_ps_sgv` / `dcl_input_ps_siv`.
    InputPsName {
        /// The interpolation mode.
        interpolation: InterpolationMode,
        /// The declared register.
        operand: OperandId,
        /// The system value.
        name: SystemName,
        /// Bits of the name token the format leaves undefined.
        reserved: u16,
    },
    /// `dcl_temps`: the number of `r#` registers.
    Temps(u32),
    /// `dcl_indexableTemp x#[count], components`.
    IndexableTemp {
        /// The `x#` number.
        register: u32,
        /// Elements in the array.
        count: u32,
        /// Components per element (1 to 4).
        components: u32,
    },
    /// `dcl_globalFlags`.
    GlobalFlags(GlobalFlags),
    /// `dcl_stream m#`: the geometry-shader stream the output declarations after it
    /// belong to.
    Stream(OperandId),
    /// `dcl_function_body fb#`.
    FunctionBody(u32),
    /// `dcl_function_table ft# = {fb#, ...}`.
    FunctionTable {
        /// Its number.
        id: u32,
        /// The `fb#` numbers, in the words arena.
        bodies: WordsId,
    },
    /// `dcl_interface fp#[array][table_length] = {ft#, ...}`.
    Interface {
        /// `dcl_interface_dynamicindexed`: indexed by a register.
        dynamic: bool,
        /// Its number.
        id: u32,
        /// Function tables per interface instance.
        table_length: u32,
        /// Interface instances (the array's length).
        array_length: u16,
        /// The `ft#` numbers, in the words arena.
        tables: WordsId,
    },
    /// `dcl_input_control_point_count` / `dcl_output_control_point_count` (the opcode says which).
    ControlPointCount(u8),
    /// `dcl_tessellator_domain`.
    TessDomain(TessDomain),
    /// `dcl_tessellator_partitioning`.
    TessPartitioning(TessPartitioning),
    /// `dcl_tessellator_output_primitive`.
    TessOutputPrimitive(TessOutputPrimitive),
    /// The float's bits.
    HsMaxTessFactor(u32),
    /// `dcl_hs_fork_phase_instance_count` / `dcl_hs_join_phase_instance_count`.
    PhaseInstanceCount(u32),
    /// `dcl_thread_group x, y, z`.
    ThreadGroup([u32; 3]),
    /// `dcl_uav_typed_<dimension>`: `u#`.
    UavTyped {
        /// The declared register.
        operand: OperandId,
        /// Its dimension.
        dim: ResourceDimension,
        /// `_glc`, `_rov`, `_opc`.
        flags: UavFlags,
        /// What each component returns.
        return_type: ReturnTypes,
        /// The register space (Shader Model 5.1; `None` before).
        space: Option<u32>,
    },
    /// `dcl_uav_raw`: `u#`.
    UavRaw {
        /// The declared register.
        operand: OperandId,
        /// `_glc`, `_rov`, `_opc`.
        flags: UavFlags,
        /// The register space (Shader Model 5.1; `None` before).
        space: Option<u32>,
    },
    /// `dcl_uav_structured`: `u#`.
    UavStructured {
        /// The declared register.
        operand: OperandId,
        /// `_glc`, `_rov`, `_opc`.
        flags: UavFlags,
        /// The structure size in bytes.
        stride: u32,
        /// The register space (Shader Model 5.1; `None` before).
        space: Option<u32>,
    },
    /// `dcl_tgsm_raw`: `g#`.
    TgsmRaw {
        /// The declared register.
        operand: OperandId,
        /// Its size in bytes.
        byte_count: u32,
    },
    /// `dcl_tgsm_structured`: `g#`.
    TgsmStructured {
        /// The declared register.
        operand: OperandId,
        /// The structure size in bytes.
        stride: u32,
        /// Structures in the memory.
        count: u32,
    },
    /// `dcl_resource_raw`: `t#`.
    ResourceRaw {
        /// The declared register.
        operand: OperandId,
        /// The register space (Shader Model 5.1; `None` before).
        space: Option<u32>,
    },
    /// `dcl_resource_structured`: `t#`.
    ResourceStructured {
        /// The declared register.
        operand: OperandId,
        /// The structure size in bytes.
        stride: u32,
        /// The register space (Shader Model 5.1; `None` before).
        space: Option<u32>,
    },
    /// `dcl_gsinstances`: geometry-shader instances per primitive.
    GsInstanceCount(u32),
}

impl Decl {
    /// The declared register operand's id, for declarations that have one.
    pub fn operand(&self) -> Option<OperandId> {
        let mut d = *self;
        d.operand_mut().map(|o| *o)
    }

    /// The declared register operand's id, for declarations that have one.
    pub fn operand_mut(&mut self) -> Option<&mut OperandId> {
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

    /// The run of tokens (function bodies, function tables), for declarations with one.
    pub fn words_mut(&mut self) -> Option<&mut WordsId> {
        match self {
            Decl::FunctionTable { bodies, .. } => Some(bodies),
            Decl::Interface { tables, .. } => Some(tables),
            _ => None,
        }
    }
}

/// A custom-data block: comment, debug info, immediate constant buffer, ...
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct CustomData {
    /// What the block holds (bits 31:11 of its first token).
    pub class: CustomDataClass,
    /// The block's tokens after its two header tokens (for an immediate constant
    /// buffer: the 4-tuples), in the words arena.
    pub data: WordsId,
}

/// What follows the opcode token(s).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Body {
    /// An executable instruction's controls and operands.
    Op(Op),
    /// A declaration.
    Decl(Decl),
    /// `fcall`: the function-table index and the interface operand.
    InterfaceCall {
        /// The index into the interface's function tables.
        function: u32,
        /// The `fp#` operand.
        interface: OperandId,
    },
    /// A custom-data block.
    CustomData(CustomData),
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

/// One instruction, declaration or data block, with handles into its program's
/// arenas (read it through an [`InstructionRef`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Instruction {
    /// The opcode (bits 10:0).
    pub opcode: Opcode,
    /// Its controls and operands, declaration or data.
    pub body: Body,
    /// Extended opcode tokens, in order ([`InstructionRef::ext`]).
    pub ext: Span,
    /// Bits of the opcode token (23:11) that no field of `body` describes.
    pub reserved: u32,
    /// Where the instruction's length was written.
    pub length: LengthEncoding,
    /// Tokens inside the instruction's declared length after its last operand
    /// (none in well-formed programs; kept so nothing is lost).
    pub trailing: Option<WordsId>,
}

impl Instruction {
    /// An instruction with no extended tokens or extra bits.
    pub fn new(opcode: Opcode, body: Body) -> Instruction {
        Instruction { opcode, body, ext: Span::EMPTY, reserved: 0, length: LengthEncoding::Inline, trailing: None }
    }

    /// A `nop`: a starting value to decode into.
    pub fn placeholder() -> Instruction {
        Instruction::new(Opcode::Nop, Body::Op(Op::EMPTY))
    }
}

static EMPTY_WORDS: Words<'static> = Words::empty();

/// The arenas an instruction's handles point into: a program's, or the streaming
/// decoder's buffers for the current instruction. A handle outside them (only a
/// hand-built program's mistake; the encoder reports it) reads as a null operand or
/// no tokens.
#[derive(Debug, Clone, Copy)]
pub struct Pool<'p, 'a> {
    /// The operand arena ([`OperandId`]).
    pub operands: &'p [Operand],
    /// The extended opcode tokens ([`Instruction::ext`]).
    pub extended: &'p [ExtOpcode],
    /// The runs of tokens ([`WordsId`]).
    pub words: &'p [Words<'a>],
}

impl<'p, 'a> Pool<'p, 'a> {
    /// The operand `id`.
    #[inline]
    pub fn operand(&self, id: OperandId) -> &'p Operand {
        self.operands.get(id.0 as usize).unwrap_or(&Operand::EMPTY)
    }

    /// The operands of `span`.
    #[inline]
    pub fn operands(&self, span: Span) -> &'p [Operand] {
        self.operands.get(span.range()).unwrap_or(&[])
    }

    /// The extended opcode tokens of `span`.
    #[inline]
    pub fn extended(&self, span: Span) -> &'p [ExtOpcode] {
        self.extended.get(span.range()).unwrap_or(&[])
    }

    /// The run of tokens `id`.
    #[inline]
    pub fn words(&self, id: WordsId) -> &'p Words<'a> {
        self.words.get(id.0 as usize).unwrap_or(&EMPTY_WORDS)
    }

    /// True when operand `a` of these arenas and operand `b` of `other`'s are equal
    /// field by field, their relative-index registers compared by what they are.
    pub fn same_operand(&self, a: &Operand, other: Pool<'_, '_>, b: &Operand) -> bool {
        same_operand(*self, a, other, b, 0)
    }

    /// True when every handle of `ins` points into the arenas.
    pub fn holds(&self, ins: &Instruction) -> bool {
        let op = |id: OperandId| (id.0 as usize) < self.operands.len();
        let span_ok = |s: Span, len: usize| s.range().end <= len && s.start as usize <= len;
        let words = |id: WordsId| (id.0 as usize) < self.words.len();
        let body = match &ins.body {
            Body::Op(o) => span_ok(o.operands, self.operands.len()),
            Body::InterfaceCall { interface, .. } => op(*interface),
            Body::CustomData(c) => words(c.data),
            Body::Decl(d) => {
                let mut d = *d;
                d.operand().is_none_or(op) && d.words_mut().is_none_or(|w| words(*w))
            }
        };
        body && span_ok(ins.ext, self.extended.len()) && ins.trailing.is_none_or(words)
    }
}

/// An instruction with the arenas its handles point into: what [`Program::iter`] and
/// the streaming [`crate::Decoder`] hand out. It dereferences to the [`Instruction`]
/// (`ins.opcode`, `ins.body`).
#[derive(Clone, Copy)]
pub struct InstructionRef<'p, 'a> {
    ins: &'p Instruction,
    pool: Pool<'p, 'a>,
}

impl<'p, 'a> std::ops::Deref for InstructionRef<'p, 'a> {
    type Target = Instruction;
    fn deref(&self) -> &Instruction {
        self.ins
    }
}

impl<'p, 'a> InstructionRef<'p, 'a> {
    /// `ins` read with the arenas of `pool`.
    pub fn new(ins: &'p Instruction, pool: Pool<'p, 'a>) -> InstructionRef<'p, 'a> {
        InstructionRef { ins, pool }
    }

    /// The instruction itself.
    pub fn instruction(&self) -> &'p Instruction {
        self.ins
    }

    /// The arenas.
    pub fn pool(&self) -> Pool<'p, 'a> {
        self.pool
    }

    /// The operands of an executable instruction, or `fcall`'s interface (empty for
    /// declarations, whose register is [`InstructionRef::decl_operand`], and data).
    #[inline]
    pub fn operands(&self) -> &'p [Operand] {
        match &self.ins.body {
            Body::Op(op) => self.pool.operands(op.operands),
            Body::InterfaceCall { interface, .. } => std::slice::from_ref(self.pool.operand(*interface)),
            _ => &[],
        }
    }

    /// The operand `id` (a declaration's register, a relative index's register).
    #[inline]
    pub fn operand(&self, id: OperandId) -> &'p Operand {
        self.pool.operand(id)
    }

    /// The register of a relative index, if `index` is relative.
    pub fn relative(&self, index: &Index) -> Option<&'p Operand> {
        index.relative().map(|r| self.pool.operand(r))
    }

    /// The register a declaration declares, if it has one.
    pub fn decl_operand(&self) -> Option<&'p Operand> {
        match &self.ins.body {
            Body::Decl(d) => d.operand().map(|id| self.pool.operand(id)),
            _ => None,
        }
    }

    /// The extended opcode tokens, in order.
    #[inline]
    pub fn ext(&self) -> &'p [ExtOpcode] {
        self.pool.extended(self.ins.ext)
    }

    /// The run of tokens `id` (custom data, function bodies or tables).
    pub fn words(&self, id: WordsId) -> &'p Words<'a> {
        self.pool.words(id)
    }

    /// The tokens after the last operand, inside the instruction's length.
    pub fn trailing(&self) -> &'p Words<'a> {
        self.ins.trailing.map_or(&EMPTY_WORDS, |id| self.pool.words(id))
    }

    /// A custom-data block's class and tokens.
    pub fn custom_data(&self) -> Option<(CustomDataClass, &'p Words<'a>)> {
        match &self.ins.body {
            Body::CustomData(c) => Some((c.class, self.pool.words(c.data))),
            _ => None,
        }
    }

    /// The sample-controls offsets, if the instruction has them.
    pub fn sample_offsets(&self) -> Option<[i8; 3]> {
        self.ext().iter().find_map(|e| match e {
            ExtOpcode::SampleControls { offsets, .. } => Some(*offsets),
            _ => None,
        })
    }

    /// The instruction with its own copy of everything it refers to, as a
    /// one-instruction program.
    pub fn to_program(&self, version: Version) -> Program<'a> {
        let mut p = Program::new(version);
        p.push_from(*self);
        p
    }
}

impl PartialEq for InstructionRef<'_, '_> {
    /// Equal instructions with equal operands, tokens and runs of tokens, wherever
    /// their arenas hold them.
    fn eq(&self, other: &Self) -> bool {
        let (a, b) = (self.ins, other.ins);
        if a.opcode != b.opcode || a.reserved != b.reserved || a.length != b.length {
            return false;
        }
        if self.ext() != other.ext() || self.trailing() != other.trailing() {
            return false;
        }
        let same_ops = |x: &[Operand], y: &[Operand]| {
            x.len() == y.len() && x.iter().zip(y).all(|(p, q)| same_operand(self.pool, p, other.pool, q, 0))
        };
        match (&a.body, &b.body) {
            (Body::Op(x), Body::Op(y)) => {
                Op { operands: Span::EMPTY, ..*x } == Op { operands: Span::EMPTY, ..*y }
                    && same_ops(self.operands(), other.operands())
            }
            (Body::InterfaceCall { function: f, .. }, Body::InterfaceCall { function: g, .. }) => {
                f == g && same_ops(self.operands(), other.operands())
            }
            (Body::CustomData(x), Body::CustomData(y)) => {
                x.class == y.class && self.words(x.data) == other.words(y.data)
            }
            (Body::Decl(x), Body::Decl(y)) => {
                let (mut x, mut y) = (*x, *y);
                let ox = x.operand_mut().map(std::mem::take);
                let oy = y.operand_mut().map(std::mem::take);
                let wx = x.words_mut().map(std::mem::take);
                let wy = y.words_mut().map(std::mem::take);
                x == y
                    && match (ox, oy) {
                        (Some(p), Some(q)) => same_operand(self.pool, self.operand(p), other.pool, other.operand(q), 0),
                        (p, q) => p.is_none() && q.is_none(),
                    }
                    && match (wx, wy) {
                        (Some(p), Some(q)) => self.words(p) == other.words(q),
                        (p, q) => p.is_none() && q.is_none(),
                    }
            }
            _ => false,
        }
    }
}

/// Operands equal field by field, relative registers compared by what they are, not
/// by their ids. (A relative register has immediate indices; a hand-built chain of
/// relative registers is compared to a depth of 3.)
fn same_operand(pa: Pool<'_, '_>, a: &Operand, pb: Pool<'_, '_>, b: &Operand, depth: u32) -> bool {
    if a.ty != b.ty || a.components != b.components || a.bits != b.bits || a.ext != b.ext || a.imm != b.imm {
        return false;
    }
    (0..a.dims()).all(|d| match (a.index(d), b.index(d)) {
        (Some(x), Some(y)) => {
            x.immediate() == y.immediate()
                && match (x.relative(), y.relative()) {
                    (Some(p), Some(q)) => {
                        depth < 3 && same_operand(pa, pa.operand(p), pb, pb.operand(q), depth.saturating_add(1))
                    }
                    (p, q) => p.is_none() && q.is_none(),
                }
        }
        (x, y) => x.is_none() && y.is_none(),
    })
}

impl std::fmt::Debug for InstructionRef<'_, '_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let mut s = f.debug_struct("Instruction");
        s.field("opcode", &self.opcode).field("body", &self.body);
        let operands = self.operands();
        if !operands.is_empty() {
            s.field("operands", &operands);
        }
        if let Some(o) = self.decl_operand() {
            s.field("decl_operand", o);
        }
        let relative: Vec<&Operand> = operands
            .iter()
            .chain(self.decl_operand())
            .flat_map(|o| o.indices())
            .filter_map(|i| self.relative(&i))
            .collect();
        if !relative.is_empty() {
            s.field("relative", &relative);
        }
        if !self.ext().is_empty() {
            s.field("ext", &self.ext());
        }
        if let Some((_, w)) = self.custom_data() {
            s.field("data", w);
        }
        if let Body::Decl(d) = &self.body {
            let mut d = *d;
            if let Some(w) = d.words_mut() {
                s.field("words", self.words(*w));
            }
        }
        if self.reserved != 0 {
            s.field("reserved", &format_args!("{:#x}", self.reserved));
        }
        if self.length != LengthEncoding::Inline {
            s.field("length", &self.length);
        }
        if !self.trailing().is_empty() {
            s.field("trailing", self.trailing());
        }
        s.finish()
    }
}

/// A whole program: the version token, the instructions, and the arenas their
/// handles point into.
#[derive(Clone)]
pub struct Program<'a> {
    /// The version token.
    pub version: Version,
    /// The instructions, declarations and data blocks, in order.
    pub instructions: Vec<Instruction>,
    /// Every operand: instructions' operands (each instruction's consecutive),
    /// declared registers, relative-index registers.
    pub operands: Vec<Operand>,
    /// Every extended opcode token (each instruction's consecutive).
    pub extended: Vec<ExtOpcode>,
    /// Every run of tokens: custom data, function bodies and tables, trailing tokens.
    pub words: Vec<Words<'a>>,
}

impl<'a> Program<'a> {
    /// A program with no instructions.
    pub fn new(version: Version) -> Program<'a> {
        Program { version, instructions: Vec::new(), operands: Vec::new(), extended: Vec::new(), words: Vec::new() }
    }

    /// The arenas.
    #[inline]
    pub fn pool(&self) -> Pool<'_, 'a> {
        Pool { operands: &self.operands, extended: &self.extended, words: &self.words }
    }

    /// The instructions with their arenas, in order.
    pub fn iter(&self) -> impl DoubleEndedIterator<Item = InstructionRef<'_, 'a>> + ExactSizeIterator + Clone + '_ {
        let pool = self.pool();
        self.instructions.iter().map(move |ins| InstructionRef { ins, pool })
    }

    /// Instruction `i`.
    pub fn get(&self, i: usize) -> Option<InstructionRef<'_, 'a>> {
        self.instructions.get(i).map(|ins| InstructionRef { ins, pool: self.pool() })
    }

    /// Number of instructions.
    pub fn len(&self) -> usize {
        self.instructions.len()
    }

    /// True when the program has no instructions.
    pub fn is_empty(&self) -> bool {
        self.instructions.is_empty()
    }

    /// The operand `id` (a null operand for an id outside the arena).
    pub fn operand(&self, id: OperandId) -> &Operand {
        self.pool().operand(id)
    }

    /// The operand `id`, to change it.
    pub fn operand_mut(&mut self, id: OperandId) -> Option<&mut Operand> {
        self.operands.get_mut(id.0 as usize)
    }

    /// The operands of `span`, to change them.
    pub fn operands_mut(&mut self, span: Span) -> &mut [Operand] {
        self.operands.get_mut(span.range()).unwrap_or(&mut [])
    }

    /// The run of tokens `id`.
    pub fn words(&self, id: WordsId) -> &Words<'a> {
        self.pool().words(id)
    }

    /// Adds an operand to the arena.
    pub fn add_operand(&mut self, o: Operand) -> OperandId {
        let id = OperandId(self.operands.len() as u32);
        self.operands.push(o);
        id
    }

    /// Adds consecutive operands (an instruction's) to the arena.
    pub fn add_operands(&mut self, ops: &[Operand]) -> Span {
        let start = self.operands.len() as u32;
        self.operands.extend_from_slice(ops);
        Span { start, len: ops.len() as u32 }
    }

    /// Adds consecutive extended opcode tokens (an instruction's) to the arena.
    pub fn add_extended(&mut self, ext: &[ExtOpcode]) -> Span {
        let start = self.extended.len() as u32;
        self.extended.extend_from_slice(ext);
        Span { start, len: ext.len() as u32 }
    }

    /// Adds a run of tokens to the arena.
    pub fn add_words(&mut self, w: Words<'a>) -> WordsId {
        let id = WordsId(self.words.len() as u32);
        self.words.push(w);
        id
    }

    /// Appends an instruction (whose handles point into this program's arenas).
    pub fn push(&mut self, ins: Instruction) -> &mut Instruction {
        self.instructions.push(ins);
        let last = self.instructions.len() - 1;
        &mut self.instructions[last]
    }

    /// Appends an executable instruction with `operands` and no modifiers.
    pub fn push_op(&mut self, opcode: Opcode, operands: &[Operand]) -> &mut Instruction {
        let span = self.add_operands(operands);
        self.push(Instruction::new(opcode, Body::Op(Op::new(span))))
    }

    /// Appends a declaration.
    pub fn push_decl(&mut self, opcode: Opcode, decl: Decl) -> &mut Instruction {
        self.push(Instruction::new(opcode, Body::Decl(decl)))
    }

    /// Appends a copy of `ins` (from any program or decoder), with everything it
    /// refers to added to this program's arenas.
    pub fn push_from(&mut self, ins: InstructionRef<'_, 'a>) -> &mut Instruction {
        let mut copy = *ins.instruction();
        copy.ext = self.add_extended(ins.ext());
        copy.trailing = ins.trailing.map(|_| self.add_words(ins.trailing().clone()));
        let relocate = |p: &mut Program<'a>, o: &Operand| {
            let mut o = *o;
            let idx = o.indices();
            if idx.iter().any(|i| i.relative().is_some()) {
                let moved: Indices = idx
                    .iter()
                    .map(|i| match *i {
                        Index::Relative(r) => Index::Relative(p.add_operand(*ins.operand(r))),
                        Index::Imm32Relative(v, r) => Index::Imm32Relative(v, p.add_operand(*ins.operand(r))),
                        Index::Imm64Relative(v, r) => Index::Imm64Relative(v, p.add_operand(*ins.operand(r))),
                        other => other,
                    })
                    .collect();
                o.set_indices(&moved);
            }
            o
        };
        match &mut copy.body {
            Body::Op(op) => {
                let ops: ArrayVec<Operand, MAX_OPERANDS> =
                    ins.operands().iter().take(MAX_OPERANDS).map(|o| relocate(self, o)).collect();
                op.operands = self.add_operands(&ops);
            }
            Body::InterfaceCall { interface, .. } => {
                let o = relocate(self, ins.operand(*interface));
                *interface = self.add_operand(o);
            }
            Body::CustomData(c) => c.data = self.add_words(ins.words(c.data).clone()),
            Body::Decl(d) => {
                if let Some(id) = d.operand_mut() {
                    let o = relocate(self, ins.operand(*id));
                    *id = self.add_operand(o);
                }
                if let Some(w) = d.words_mut() {
                    *w = self.add_words(ins.words(*w).clone());
                }
            }
        }
        self.push(copy)
    }

    /// Appends copies of `other`'s instructions (see [`Program::push_from`]).
    pub fn append(&mut self, other: &Program<'a>) {
        for ins in other.iter() {
            self.push_from(ins);
        }
    }

    /// A copy that owns its runs of tokens (no borrow of the input).
    pub fn into_owned(self) -> Program<'static> {
        Program {
            version: self.version,
            instructions: self.instructions,
            operands: self.operands,
            extended: self.extended,
            words: self.words.into_iter().map(Words::into_owned).collect(),
        }
    }
}

impl PartialEq for Program<'_> {
    /// Equal versions and equal instructions ([`InstructionRef`]'s equality: the
    /// arenas may be laid out differently).
    fn eq(&self, other: &Self) -> bool {
        self.version == other.version && self.len() == other.len() && self.iter().zip(other.iter()).all(|(a, b)| a == b)
    }
}

impl std::fmt::Debug for Program<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Program")
            .field("version", &self.version)
            .field("instructions", &self.iter().collect::<Vec<_>>())
            .finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes() {
        assert!(std::mem::size_of::<Operand>() <= 64, "Operand is {} bytes", std::mem::size_of::<Operand>());
        assert!(
            std::mem::size_of::<Instruction>() <= 64,
            "Instruction is {} bytes",
            std::mem::size_of::<Instruction>()
        );
    }

    #[test]
    fn operand_fields_round_trip_through_bits() {
        let mut o =
            Operand::new(OperandType::ConstantBuffer, ComponentCount::Four, Selection::Swizzle([3, 2, 1, 0]), &[2]);
        o.set_indices(&[Index::Imm32(2), Index::Imm64Relative(u64::MAX - 5, OperandId(7))]);
        o.set_ext(Some(ExtOperand::modifier(Modifier::AbsNeg)));
        assert_eq!(o.selection(), Selection::Swizzle([3, 2, 1, 0]));
        assert_eq!(o.indices().as_slice(), &[Index::Imm32(2), Index::Imm64Relative(u64::MAX - 5, OperandId(7))]);
        assert_eq!(o.modifier(), Modifier::AbsNeg);
        assert_eq!(o.reserved(), 0);
        let back = Operand::from_tokens(o.token(), o.ext().unwrap().token(), &o.indices(), o.imm).unwrap();
        assert_eq!(back, o);
        o.set_reserved(1 << 25 | 1 << 2);
        assert_eq!(o.reserved(), 0, "bits some field describes are not reserved");
        o.set_indices(&[Index::Imm32(1)]);
        o.set_reserved(1 << 25);
        assert_eq!(o.reserved(), 1 << 25);
    }
}
