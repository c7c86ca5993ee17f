//! The instruction table: the single source of truth for every Shader Model 1–3 opcode.
//!
//! One row per `D3DSIO_*` opcode: its number, fxc's mnemonic (with the pixel 1.0–1.3
//! spelling where it differs), the operand layout ([`Layout`]), the vertex and pixel
//! shader versions that have it, its flow-control class ([`Flow`]), which opcode-specific
//! controls it carries ([`Controls`]), and two separate instruction-slot figures:
//!
//! - [`OpInfo::slots`] / [`OpInfo::class`]: Microsoft's documented per-instruction costs
//!   (the instruction tables of the asm reference), which the validator counts against
//!   the profiles' slot limits;
//! - [`OpInfo::listed`]: what Microsoft's disassembler and fxc count on the closing
//!   `// approximately N instruction slots used (T texture, A arithmetic)` line, measured
//!   on every opcode of every profile; [`listing_slots`] applies the instruction-level
//!   rules (predication, co-issue) to it. The printer writes that line and the parser
//!   checks it with this one function.
//!
//! The decoder, encoder, printer, parser and validator all read this table.
//!
//! Versions are written as `major << 8 | minor` ([`Ver`]): `2_x` is `0x0201` and the
//! software profiles `2_sw` / `3_sw` are `0x02ff` / `0x03ff`, so the numeric order is the
//! order of the profiles (`2_0 < 2_x < 2_sw < 3_0 < 3_sw`).

use crate::ir::ShaderKind;

/// A shader version as `major << 8 | minor` (`0x0300` is `3_0`).
pub type Ver = u16;

/// Version `1_0`.
pub const V1_0: Ver = 0x0100;
/// Version `1_1`.
pub const V1_1: Ver = 0x0101;
/// Version `1_2`.
pub const V1_2: Ver = 0x0102;
/// Version `1_3`.
pub const V1_3: Ver = 0x0103;
/// Version `1_4`.
pub const V1_4: Ver = 0x0104;
/// Version `2_0`.
pub const V2_0: Ver = 0x0200;
/// Version `2_x` (token minor 1).
pub const V2_X: Ver = 0x0201;
/// Version `2_sw` (token minor 0xff).
pub const V2_SW: Ver = 0x02ff;
/// Version `3_0`.
pub const V3_0: Ver = 0x0300;
/// Version `3_sw` (token minor 0xff).
pub const V3_SW: Ver = 0x03ff;

/// An inclusive range of versions in which an opcode exists for one shader kind.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct VerRange {
    /// The first version that has it.
    pub min: Ver,
    /// The last version that has it.
    pub max: Ver,
}

impl VerRange {
    /// True when `v` lies in the range.
    pub fn contains(self, v: Ver) -> bool {
        self.min <= v && v <= self.max
    }
}

/// How the tokens after the instruction token are laid out.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Layout {
    /// An optional destination parameter, then `srcs` source parameters (the count in
    /// the row; [`OpInfo::operands`] gives the count for a version).
    Ops {
        /// A destination parameter comes first.
        dst: bool,
        /// Source parameters after it.
        srcs: u8,
    },
    /// `dcl`: the usage / sampler-type token, then a destination parameter.
    Dcl,
    /// `def`: a destination, then four raw 32-bit values (floats).
    Def,
    /// `defi`: a destination, then four 32-bit signed integers.
    DefI,
    /// `defb`: a destination, then one 32-bit boolean token.
    DefB,
    /// `tex` / `texld`: destination only in pixel 1.0–1.3, destination + 1 source
    /// (coordinate register) in 1.4, destination + 2 sources (coordinate, sampler) in 2.0+.
    Tex,
    /// `texcoord` / `texcrd`: destination only in pixel 1.0–1.3, destination + 1 source in 1.4.
    TexCoord,
    /// `sincos`: destination + 3 sources in 2.x (the two extra are constants fxc sets up),
    /// destination + 1 source in 3.0.
    SinCos,
    /// The comment token: a length in bits 16–30, then that many raw tokens.
    Comment,
    /// The end token `0x0000ffff`.
    End,
}

/// Which opcode-specific controls (instruction token bits 16–23) an opcode carries.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Controls {
    /// None defined; any bits found are kept raw.
    None,
    /// A comparison in bits 16–18 (`ifc`, `breakc`, `setp`): see [`crate::ir::Comparison`].
    Compare,
    /// `texld`: bit 16 projects (`texldp`), bit 17 biases (`texldb`), in pixel 2.0+.
    TexLd,
}

/// The effect of an opcode on control flow, as fixed by the opcode alone. Where the
/// operands decide more (`if b0` against `if p0.x`), [`crate::ir::flow_class`] refines it
/// into a [`FlowClass`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Flow {
    /// No effect on control flow.
    None,
    /// `if` (boolean constant or predicate source).
    If,
    /// `if_gt` ... (`ifc`).
    IfComp,
    /// `else`.
    Else,
    /// `endif`.
    Endif,
    /// `rep`: repeats its block `i#.x` times.
    Rep,
    /// `endrep`.
    Endrep,
    /// `loop aL, i#`: repeats its block with the loop counter.
    Loop,
    /// `endloop`.
    Endloop,
    /// `break`.
    Break,
    /// `break_gt` ... (`breakc`).
    BreakComp,
    /// `breakp`.
    Breakp,
    /// `call`.
    Call,
    /// `callnz` (boolean constant or predicate source).
    Callnz,
    /// `ret`: ends a subroutine (or the main program).
    Ret,
    /// `setp_gt` ...
    Setp,
    /// `label`: starts a subroutine.
    Label,
}

/// The flow-control class of one instruction, for the validator (see
/// [`crate::ir::flow_class`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum FlowClass {
    /// One of the instructions of the flow-control tables.
    Op(FlowOp),
    /// `label`: starts a subroutine.
    Label,
    /// Anything else.
    None,
}

/// The seventeen flow-control instructions of the Direct3D 9 flow-control tables
/// (Microsoft's "Flow Control Limits" pages of the vs/ps reference), in the tables' row
/// order: [`Flow`] refined by the operands where the opcode alone does not decide
/// (`if` on a boolean constant or a predicate, `callnz` likewise).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum FlowOp {
    /// `if b#`.
    IfBool,
    /// `if_gt` ... (`ifc`).
    IfComp,
    /// `if p0.c`.
    IfPred,
    /// `else`.
    Else,
    /// `endif`.
    Endif,
    /// `rep`.
    Rep,
    /// `endrep`.
    Endrep,
    /// `loop`.
    Loop,
    /// `endloop`.
    Endloop,
    /// `break`.
    Break,
    /// `break_gt` ... (`breakc`).
    BreakComp,
    /// `breakp`.
    BreakP,
    /// `call`.
    Call,
    /// `callnz l#, b#`.
    CallnzBool,
    /// `callnz l#, p0.c`.
    CallnzPred,
    /// `ret`.
    Ret,
    /// `setp_gt` ...
    SetpComp,
}

impl FlowOp {
    /// Every row, in the tables' order.
    pub const ALL: [FlowOp; 17] = [
        FlowOp::IfBool,
        FlowOp::IfComp,
        FlowOp::IfPred,
        FlowOp::Else,
        FlowOp::Endif,
        FlowOp::Rep,
        FlowOp::Endrep,
        FlowOp::Loop,
        FlowOp::Endloop,
        FlowOp::Break,
        FlowOp::BreakComp,
        FlowOp::BreakP,
        FlowOp::Call,
        FlowOp::CallnzBool,
        FlowOp::CallnzPred,
        FlowOp::Ret,
        FlowOp::SetpComp,
    ];

    /// The row's name in Microsoft's tables (`if bool`, `if_comp`, `callnz pred`...).
    pub fn name(self) -> &'static str {
        match self {
            FlowOp::IfBool => "if bool",
            FlowOp::IfComp => "if_comp",
            FlowOp::IfPred => "if pred",
            FlowOp::Else => "else",
            FlowOp::Endif => "endif",
            FlowOp::Rep => "rep",
            FlowOp::Endrep => "endrep",
            FlowOp::Loop => "loop",
            FlowOp::Endloop => "endloop",
            FlowOp::Break => "break",
            FlowOp::BreakComp => "break_comp",
            FlowOp::BreakP => "breakp",
            FlowOp::Call => "call",
            FlowOp::CallnzBool => "callnz bool",
            FlowOp::CallnzPred => "callnz pred",
            FlowOp::Ret => "ret",
            FlowOp::SetpComp => "setp_comp",
        }
    }

    /// The row index (0..17).
    pub fn index(self) -> usize {
        self as usize
    }

    /// `call` or either `callnz`.
    pub fn is_call(self) -> bool {
        matches!(self, FlowOp::Call | FlowOp::CallnzBool | FlowOp::CallnzPred)
    }
}

/// How fxc's `(N texture, M arithmetic)` count classes an instruction in a pixel shader.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum SlotClass {
    /// Counts as arithmetic.
    Arithmetic,
    /// Counts as a texture instruction.
    Texture,
    /// Not counted (declarations, definitions, labels, phase).
    None,
}

/// One row of the table.
#[derive(Debug)]
pub struct OpInfo {
    /// The opcode.
    pub opcode: Opcode,
    /// fxc's spelling for vertex shaders and pixel 1.4+ (without comparison suffixes:
    /// `ifc` is `if`, `breakc` is `break`, `setp` is `setp`; fxc prints `if_gt` ...).
    pub mnemonic: &'static str,
    /// fxc's spelling in pixel shaders 1.0–1.3, where it differs (`tex`, `texcoord`).
    pub mnemonic_ps1: Option<&'static str>,
    /// The tokens after the instruction token.
    pub layout: Layout,
    /// Vertex shader versions that have the opcode.
    pub vs: Option<VerRange>,
    /// Pixel shader versions that have the opcode.
    pub ps: Option<VerRange>,
    /// Its effect on control flow.
    pub flow: Flow,
    /// The controls its instruction token carries.
    pub controls: Controls,
    /// Instruction slots in Microsoft's instruction tables, for the common case;
    /// [`OpInfo::slots`] applies the version-dependent exceptions. This is the
    /// documented figure the validator counts against slot limits, not what a listing
    /// prints (that is [`OpInfo::listed`]).
    pub slots: u8,
    /// Texture or arithmetic, for pixel shaders (documented class, for the validator).
    pub class: SlotClass,
    /// What the listing's slot line counts for the opcode (see [`ListedSlots`]).
    pub listed: ListedSlots,
}

/// The `(texture, arithmetic)` slots Microsoft's disassembler (and fxc) count for an
/// opcode on the listing's `// approximately N instruction slots used` line, measured on
/// every opcode of every profile (the oracle data, 1,809 well-formed streams) and on the
/// corpus (150 programs). It departs from the documented figures ([`OpInfo::slots`]) in
/// places: `lit`, `lrp`, `cmp`, `dp4` and `bem` count one slot in every version;
/// `texkill` and `texdepth` one arithmetic slot; `texbeml` one texture slot; `texldd`
/// 1 texture + 2 arithmetic; `texldl` 2 texture; `nop` nothing. Texture instructions
/// count as texture slots in either shader kind (`texldl` in a vertex shader too).
/// Instruction-level rules (predication, co-issue) are in [`listing_slots`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct ListedSlots {
    /// Texture slots.
    pub texture: u8,
    /// Arithmetic slots.
    pub arithmetic: u8,
    /// Arithmetic slots in vertex shaders 1.x, where the macro expands differently
    /// (`exp` / `log` 10, `frc` 3); `None` when the same as `arithmetic`.
    pub arithmetic_vs1: Option<u8>,
}

impl ListedSlots {
    /// `(texture, arithmetic)` in a shader of `kind` at version `v`.
    pub fn get(self, kind: ShaderKind, v: Ver) -> (u32, u32) {
        let a = match self.arithmetic_vs1 {
            Some(a) if kind == ShaderKind::Vertex && v < V2_0 => a,
            _ => self.arithmetic,
        };
        (self.texture as u32, a as u32)
    }
}

/// The `(texture, arithmetic)` slots one instruction adds to the listing's slot line, in
/// a program of `version`: the opcode's [`OpInfo::listed`] figure, plus one arithmetic
/// slot for a predicated instruction; a co-issued instruction (`+`) that follows another
/// (`after_another`) costs nothing. Both the printer's slot line
/// ([`crate::print::SlotCount`]) and the parser's check of a listing's slot line count
/// with this function.
pub fn listing_slots(version: crate::ir::Version, ins: &crate::ir::Instruction, after_another: bool) -> (u32, u32) {
    if ins.coissue && after_another {
        return (0, 0);
    }
    let (t, a) = ins.opcode.info().listed.get(version.kind, version.ver());
    (t, a + ins.predicate.is_some() as u32)
}

/// Whether `D3DDisassemble`'s instruction numbering gives the instruction a number
/// (learned from d3dcompiler_47): every instruction the closing line counts slots for
/// ([`OpInfo::listed`], the predicate's extra slot left out), and `phase`; not a
/// co-issued instruction, nor `nop`, `label`, `dcl` and the `def`s.
pub fn numbered_in_listing(version: crate::ir::Version, ins: &crate::ir::Instruction) -> bool {
    let (t, a) = ins.opcode.info().listed.get(version.kind, version.ver());
    !ins.coissue && (t + a > 0 || ins.opcode == Opcode::Phase)
}

impl OpInfo {
    /// True when the opcode exists in shaders of `kind` at version `v`.
    pub fn exists_in(&self, kind: ShaderKind, v: Ver) -> bool {
        let range = match kind {
            ShaderKind::Vertex => self.vs,
            ShaderKind::Pixel => self.ps,
        };
        range.is_some_and(|r| r.contains(v))
    }

    /// fxc's mnemonic in a shader of `kind` at version `v` (without comparison or
    /// `texld` control suffixes).
    pub fn mnemonic_for(&self, kind: ShaderKind, v: Ver) -> &'static str {
        match self.mnemonic_ps1 {
            Some(m) if kind == ShaderKind::Pixel && v < V1_4 => m,
            _ => self.mnemonic,
        }
    }

    /// Whether the instruction has a destination, and how many source parameters it
    /// has, in a shader of `kind` at version `v` (the layout the table gives; a Shader
    /// Model 2+ stream states its own length, which the decoder follows). `None` for
    /// layouts that are not destination + sources (`dcl`, `def*`, comment, end).
    pub fn operands(&self, kind: ShaderKind, v: Ver) -> Option<(bool, u8)> {
        let ps1 = kind == ShaderKind::Pixel && v < V1_4;
        Some(match self.layout {
            Layout::Ops { dst, srcs } => (dst, srcs),
            Layout::Tex if ps1 => (true, 0),
            Layout::Tex if v < V2_0 => (true, 1),
            Layout::Tex => (true, 2),
            Layout::TexCoord if ps1 => (true, 0),
            Layout::TexCoord => (true, 1),
            Layout::SinCos if v < V3_0 => (true, 3),
            Layout::SinCos => (true, 1),
            Layout::Dcl | Layout::Def | Layout::DefI | Layout::DefB | Layout::Comment | Layout::End => return None,
        })
    }

    /// Instruction slots the opcode takes in a shader of `kind` at version `v`, from
    /// Microsoft's per-version instruction tables (the figure the runtime's instruction
    /// limits count). Where the tables make the cost depend on the sampler's texture type
    /// (a cube map costs more for `texld`/`texldl`/`texldp` in 3.0) or on device caps,
    /// this gives the non-cube, no-caps figure.
    pub fn slots(&self, kind: ShaderKind, v: Ver) -> u32 {
        let ps = kind == ShaderKind::Pixel;
        let n = match self.opcode {
            // Vertex 1.1 expands these as macros.
            Opcode::Exp | Opcode::Log if !ps && v < V2_0 => 10,
            Opcode::Frc if !ps && v < V2_0 => 3,
            Opcode::Lit if !ps && v < V2_0 => 1,
            Opcode::Nop if ps && v < V2_0 => 0,
            // Pixel 1.x: a one-slot lrp; cmp and dp4 take two in 1.2 and 1.3.
            Opcode::Lrp if ps && v < V2_0 => 1,
            Opcode::Cmp | Opcode::Dp4 if ps && (V1_2..V1_4).contains(&v) => 2,
            // One arithmetic and one texture slot.
            Opcode::Texbeml => 2,
            Opcode::Texkill if ps && v >= V3_0 => 2,
            _ => self.slots,
        };
        n as u32
    }

    /// Instruction slots of one instruction: [`OpInfo::slots`], with the 3.0 costs of
    /// `texldp` (3) and `texldb` (6) that depend on the instruction's controls.
    pub fn slots_of(&self, kind: ShaderKind, v: Ver, controls: u8) -> u32 {
        if self.opcode == Opcode::Tex && kind == ShaderKind::Pixel && v >= V3_0 {
            if controls & 2 != 0 {
                return 6;
            }
            if controls & 1 != 0 {
                return 3;
            }
        }
        self.slots(kind, v)
    }
}

/// The texture / arithmetic class of an opcode; declarations and definitions are
/// not counted.
impl SlotClass {
    /// True when counted at all.
    pub fn counted(self) -> bool {
        self != SlotClass::None
    }
}

const fn r(min: Ver, max: Ver) -> Option<VerRange> {
    Some(VerRange { min, max })
}

const NONE: Option<VerRange> = None;
/// Every vertex shader version.
const VS_ALL: Option<VerRange> = r(V1_0, V3_SW);
/// Vertex 2.0 and later.
const VS2: Option<VerRange> = r(V2_0, V3_SW);
/// Vertex 2.x and later.
const VS2X: Option<VerRange> = r(V2_X, V3_SW);
/// Vertex 3.0 and later.
const VS3: Option<VerRange> = r(V3_0, V3_SW);
/// Every pixel shader version.
const PS_ALL: Option<VerRange> = r(V1_0, V3_SW);
/// Pixel 1.2 and later.
const PS12: Option<VerRange> = r(V1_2, V3_SW);
/// Pixel 2.0 and later.
const PS2: Option<VerRange> = r(V2_0, V3_SW);
/// Pixel 2.x and later.
const PS2X: Option<VerRange> = r(V2_X, V3_SW);
/// Pixel 3.0 and later.
const PS3: Option<VerRange> = r(V3_0, V3_SW);
/// Pixel 1.0–1.3.
const PS1: Option<VerRange> = r(V1_0, V1_3);
/// Pixel 1.2–1.3.
const PS12_13: Option<VerRange> = r(V1_2, V1_3);
/// Pixel 1.3.
const PS13: Option<VerRange> = r(V1_3, V1_3);
/// Pixel 1.0–1.4.
const PS1_14: Option<VerRange> = r(V1_0, V1_4);
/// Pixel 1.4.
const PS14: Option<VerRange> = r(V1_4, V1_4);

macro_rules! table {
    ($( $variant:ident = $num:literal, $mn:literal, $ps1:expr, $layout:expr, $vs:ident, $ps:ident, $flow:ident, $ctl:ident, $slots:literal, $class:ident, $listed:expr; )*) => {
        /// A `D3DSIO_*` opcode (instruction token bits 0–15).
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
        #[repr(u16)]
        pub enum Opcode {
            $( #[doc = concat!("`", $mn, "` (opcode ", stringify!($num), ").")] $variant = $num, )*
        }

        /// Every row, in opcode order.
        pub static TABLE: &[OpInfo] = &[
            $( OpInfo {
                opcode: Opcode::$variant,
                mnemonic: $mn,
                mnemonic_ps1: $ps1,
                layout: $layout,
                vs: $vs,
                ps: $ps,
                flow: Flow::$flow,
                controls: Controls::$ctl,
                slots: $slots,
                class: SlotClass::$class,
                listed: $listed,
            }, )*
        ];

        impl Opcode {
            /// The opcode with token value `code`, if there is one.
            pub fn from_u16(code: u16) -> Option<Opcode> {
                match code {
                    $( $num => Some(Opcode::$variant), )*
                    _ => None,
                }
            }
        }
    };
}

const fn ops(dst: bool, srcs: u8) -> Layout {
    Layout::Ops { dst, srcs }
}
const D0: Layout = ops(true, 0);
const D1: Layout = ops(true, 1);
const D2: Layout = ops(true, 2);
const D3: Layout = ops(true, 3);
const D4: Layout = ops(true, 4);
const S0: Layout = ops(false, 0);
const S1: Layout = ops(false, 1);
const S2: Layout = ops(false, 2);

/// Listing slots: nothing.
const L0: ListedSlots = ListedSlots { texture: 0, arithmetic: 0, arithmetic_vs1: None };
/// Listing slots: `n` arithmetic.
const fn a(n: u8) -> ListedSlots {
    ListedSlots { texture: 0, arithmetic: n, arithmetic_vs1: None }
}
/// Listing slots: `n` texture.
const fn t(n: u8) -> ListedSlots {
    ListedSlots { texture: n, arithmetic: 0, arithmetic_vs1: None }
}
/// Listing slots: `tex` texture and `alu` arithmetic.
const fn ta(tex: u8, alu: u8) -> ListedSlots {
    ListedSlots { texture: tex, arithmetic: alu, arithmetic_vs1: None }
}
/// Listing slots: `n` arithmetic, `vs1` in vertex shaders 1.x.
const fn vs1(n: u8, vs1: u8) -> ListedSlots {
    ListedSlots { texture: 0, arithmetic: n, arithmetic_vs1: Some(vs1) }
}

// Columns: opcode = value, mnemonic, pixel 1.0-1.3 mnemonic, layout, vertex versions,
// pixel versions, flow, controls, documented slots, documented class, listing slots.
table! {
    Nop = 0, "nop", None, S0, VS_ALL, PS_ALL, None, None, 1, Arithmetic, L0;
    Mov = 1, "mov", None, D1, VS_ALL, PS_ALL, None, None, 1, Arithmetic, a(1);
    Add = 2, "add", None, D2, VS_ALL, PS_ALL, None, None, 1, Arithmetic, a(1);
    Sub = 3, "sub", None, D2, VS_ALL, PS_ALL, None, None, 1, Arithmetic, a(1);
    Mad = 4, "mad", None, D3, VS_ALL, PS_ALL, None, None, 1, Arithmetic, a(1);
    Mul = 5, "mul", None, D2, VS_ALL, PS_ALL, None, None, 1, Arithmetic, a(1);
    Rcp = 6, "rcp", None, D1, VS_ALL, PS2, None, None, 1, Arithmetic, a(1);
    Rsq = 7, "rsq", None, D1, VS_ALL, PS2, None, None, 1, Arithmetic, a(1);
    Dp3 = 8, "dp3", None, D2, VS_ALL, PS_ALL, None, None, 1, Arithmetic, a(1);
    Dp4 = 9, "dp4", None, D2, VS_ALL, PS12, None, None, 1, Arithmetic, a(1);
    Min = 10, "min", None, D2, VS_ALL, PS2, None, None, 1, Arithmetic, a(1);
    Max = 11, "max", None, D2, VS_ALL, PS2, None, None, 1, Arithmetic, a(1);
    Slt = 12, "slt", None, D2, VS_ALL, NONE, None, None, 1, Arithmetic, a(1);
    Sge = 13, "sge", None, D2, VS_ALL, NONE, None, None, 1, Arithmetic, a(1);
    Exp = 14, "exp", None, D1, VS_ALL, PS2, None, None, 1, Arithmetic, vs1(1, 10);
    Log = 15, "log", None, D1, VS_ALL, PS2, None, None, 1, Arithmetic, vs1(1, 10);
    Lit = 16, "lit", None, D1, VS_ALL, NONE, None, None, 3, Arithmetic, a(1);
    Dst = 17, "dst", None, D2, VS_ALL, NONE, None, None, 1, Arithmetic, a(1);
    Lrp = 18, "lrp", None, D3, VS2, PS_ALL, None, None, 2, Arithmetic, a(1);
    Frc = 19, "frc", None, D1, VS_ALL, PS2, None, None, 1, Arithmetic, vs1(1, 3);
    M4x4 = 20, "m4x4", None, D2, VS_ALL, PS2, None, None, 4, Arithmetic, a(4);
    M4x3 = 21, "m4x3", None, D2, VS_ALL, PS2, None, None, 3, Arithmetic, a(3);
    M3x4 = 22, "m3x4", None, D2, VS_ALL, PS2, None, None, 4, Arithmetic, a(4);
    M3x3 = 23, "m3x3", None, D2, VS_ALL, PS2, None, None, 3, Arithmetic, a(3);
    M3x2 = 24, "m3x2", None, D2, VS_ALL, PS2, None, None, 2, Arithmetic, a(2);
    Call = 25, "call", None, S1, VS2, PS2X, Call, None, 2, Arithmetic, a(2);
    Callnz = 26, "callnz", None, S2, VS2, PS2X, Callnz, None, 3, Arithmetic, a(3);
    Loop = 27, "loop", None, S2, VS2, PS3, Loop, None, 3, Arithmetic, a(3);
    Ret = 28, "ret", None, S0, VS2, PS2X, Ret, None, 1, Arithmetic, a(1);
    Endloop = 29, "endloop", None, S0, VS2, PS3, Endloop, None, 2, Arithmetic, a(2);
    Label = 30, "label", None, S1, VS2, PS2X, Label, None, 0, None, L0;
    Dcl = 31, "dcl", None, Layout::Dcl, VS_ALL, PS2, None, None, 0, None, L0;
    Pow = 32, "pow", None, D2, VS2, PS2, None, None, 3, Arithmetic, a(3);
    Crs = 33, "crs", None, D2, VS2, PS2, None, None, 2, Arithmetic, a(2);
    Sgn = 34, "sgn", None, D3, VS2, NONE, None, None, 3, Arithmetic, a(3);
    Abs = 35, "abs", None, D1, VS2, PS2, None, None, 1, Arithmetic, a(1);
    Nrm = 36, "nrm", None, D1, VS2, PS2, None, None, 3, Arithmetic, a(3);
    Sincos = 37, "sincos", None, Layout::SinCos, VS2, PS2, None, None, 8, Arithmetic, a(8);
    Rep = 38, "rep", None, S1, VS2, PS2X, Rep, None, 3, Arithmetic, a(3);
    Endrep = 39, "endrep", None, S0, VS2, PS2X, Endrep, None, 2, Arithmetic, a(2);
    If = 40, "if", None, S1, VS2, PS2X, If, None, 3, Arithmetic, a(3);
    Ifc = 41, "if", None, S2, VS2X, PS2X, IfComp, Compare, 3, Arithmetic, a(3);
    Else = 42, "else", None, S0, VS2, PS2X, Else, None, 1, Arithmetic, a(1);
    Endif = 43, "endif", None, S0, VS2, PS2X, Endif, None, 1, Arithmetic, a(1);
    Break = 44, "break", None, S0, VS2X, PS2X, Break, None, 1, Arithmetic, a(1);
    Breakc = 45, "break", None, S2, VS2X, PS2X, BreakComp, Compare, 3, Arithmetic, a(3);
    Mova = 46, "mova", None, D1, VS2, NONE, None, None, 1, Arithmetic, a(1);
    Defb = 47, "defb", None, Layout::DefB, VS2, PS2X, None, None, 0, None, L0;
    Defi = 48, "defi", None, Layout::DefI, VS2, PS2X, None, None, 0, None, L0;
    Texcoord = 64, "texcrd", Some("texcoord"), Layout::TexCoord, NONE, PS1_14, None, None, 1, Texture, t(1);
    Texkill = 65, "texkill", None, D0, NONE, PS_ALL, None, None, 1, Texture, a(1);
    Tex = 66, "texld", Some("tex"), Layout::Tex, NONE, PS_ALL, None, TexLd, 1, Texture, t(1);
    Texbem = 67, "texbem", None, D1, NONE, PS1, None, None, 1, Texture, t(1);
    Texbeml = 68, "texbeml", None, D1, NONE, PS1, None, None, 1, Texture, t(1);
    Texreg2ar = 69, "texreg2ar", None, D1, NONE, PS1, None, None, 1, Texture, t(1);
    Texreg2gb = 70, "texreg2gb", None, D1, NONE, PS1, None, None, 1, Texture, t(1);
    Texm3x2pad = 71, "texm3x2pad", None, D1, NONE, PS1, None, None, 1, Texture, t(1);
    Texm3x2tex = 72, "texm3x2tex", None, D1, NONE, PS1, None, None, 1, Texture, t(1);
    Texm3x3pad = 73, "texm3x3pad", None, D1, NONE, PS1, None, None, 1, Texture, t(1);
    Texm3x3tex = 74, "texm3x3tex", None, D1, NONE, PS1, None, None, 1, Texture, t(1);
    Texm3x3spec = 76, "texm3x3spec", None, D2, NONE, PS1, None, None, 1, Texture, t(1);
    Texm3x3vspec = 77, "texm3x3vspec", None, D1, NONE, PS1, None, None, 1, Texture, t(1);
    Expp = 78, "expp", None, D1, VS_ALL, NONE, None, None, 1, Arithmetic, a(1);
    Logp = 79, "logp", None, D1, VS_ALL, NONE, None, None, 1, Arithmetic, a(1);
    Cnd = 80, "cnd", None, D3, NONE, PS1_14, None, None, 1, Arithmetic, a(1);
    Def = 81, "def", None, Layout::Def, VS_ALL, PS_ALL, None, None, 0, None, L0;
    Texreg2rgb = 82, "texreg2rgb", None, D1, NONE, PS12_13, None, None, 1, Texture, t(1);
    Texdp3tex = 83, "texdp3tex", None, D1, NONE, PS12_13, None, None, 1, Texture, t(1);
    Texm3x2depth = 84, "texm3x2depth", None, D1, NONE, PS13, None, None, 1, Texture, t(1);
    Texdp3 = 85, "texdp3", None, D1, NONE, PS12_13, None, None, 1, Texture, t(1);
    Texm3x3 = 86, "texm3x3", None, D1, NONE, PS12_13, None, None, 1, Texture, t(1);
    Texdepth = 87, "texdepth", None, D0, NONE, PS14, None, None, 1, Texture, a(1);
    Cmp = 88, "cmp", None, D3, NONE, PS12, None, None, 1, Arithmetic, a(1);
    Bem = 89, "bem", None, D2, NONE, PS14, None, None, 2, Arithmetic, a(1);
    Dp2add = 90, "dp2add", None, D3, NONE, PS2, None, None, 2, Arithmetic, a(2);
    Dsx = 91, "dsx", None, D1, NONE, PS2X, None, None, 2, Arithmetic, a(2);
    Dsy = 92, "dsy", None, D1, NONE, PS2X, None, None, 2, Arithmetic, a(2);
    Texldd = 93, "texldd", None, D4, NONE, PS2X, None, None, 3, Texture, ta(1, 2);
    Setp = 94, "setp", None, D2, VS2X, PS2X, Setp, Compare, 1, Arithmetic, a(1);
    Texldl = 95, "texldl", None, D2, VS3, PS3, None, None, 2, Texture, t(2);
    Breakp = 96, "breakp", None, S1, VS2X, PS2X, Breakp, None, 3, Arithmetic, a(3);
    Phase = 0xfffd, "phase", None, S0, NONE, PS14, None, None, 0, None, L0;
    Comment = 0xfffe, "comment", None, Layout::Comment, VS_ALL, PS_ALL, None, None, 0, None, L0;
    End = 0xffff, "end", None, Layout::End, VS_ALL, PS_ALL, None, None, 0, None, L0;
}

/// Index of each opcode 0..=96 into [`TABLE`] (`u8::MAX` for gaps).
static INDEX: [u8; 97] = {
    let mut idx = [u8::MAX; 97];
    let mut i = 0;
    while i < TABLE.len() {
        let code = TABLE[i].opcode as u16 as usize;
        if code < 97 {
            idx[code] = i as u8;
        }
        i += 1;
    }
    idx
};

impl Opcode {
    /// The opcode's table row.
    pub fn info(self) -> &'static OpInfo {
        // Every variant has a row: `lookup` of its own value cannot fail.
        lookup(self as u16).unwrap_or(&TABLE[0])
    }
}

/// The table row of token value `code` (instruction token bits 0–15), if it is an opcode.
pub fn lookup(code: u16) -> Option<&'static OpInfo> {
    match code {
        0xfffd => TABLE.iter().find(|r| r.opcode == Opcode::Phase),
        0xfffe => TABLE.iter().find(|r| r.opcode == Opcode::Comment),
        0xffff => TABLE.iter().find(|r| r.opcode == Opcode::End),
        c if (c as usize) < INDEX.len() => {
            let i = INDEX[c as usize];
            (i != u8::MAX).then(|| &TABLE[i as usize])
        }
        _ => None,
    }
}

/// A version's profile suffix as fxc writes it (`1_1`, `2_x`, `2_sw`, `3_0`).
pub fn version_name(v: Ver) -> String {
    let (major, minor) = (v >> 8, v & 0xff);
    match (major, minor) {
        (2, 1) => "2_x".to_string(),
        (_, 0xff) => format!("{major}_sw"),
        _ => format!("{major}_{minor}"),
    }
}

/// The table as the Markdown rows of `docs/INSTRUCTIONS.md` (a test keeps the file equal
/// to this text): one row per opcode with everything the table says about it.
pub fn markdown() -> String {
    use std::fmt::Write;
    let mut out = String::from(
        "| Code | Mnemonic | Layout | vs | ps | Flow | Controls | Slots | Class | Listed slots (tex, arith) |\n\
         |--:|---|---|---|---|---|---|--:|---|---|\n",
    );
    let range = |r: Option<VerRange>| match r {
        None => "-".to_string(),
        Some(r) if r.min == r.max => version_name(r.min),
        Some(r) => format!("{}..{}", version_name(r.min), version_name(r.max)),
    };
    for row in TABLE {
        let mnemonic = match row.mnemonic_ps1 {
            Some(ps1) => format!("`{}` (ps 1.0-1.3: `{ps1}`)", row.mnemonic),
            None => format!("`{}`", row.mnemonic),
        };
        let layout = match row.layout {
            Layout::Ops { dst, srcs } => format!("{}{srcs} src", if dst { "dst, " } else { "" }),
            other => format!("{other:?}"),
        };
        let l = row.listed;
        let listed = match l.arithmetic_vs1 {
            Some(a) => format!("{}, {} (vs 1.x: {a})", l.texture, l.arithmetic),
            None => format!("{}, {}", l.texture, l.arithmetic),
        };
        let _ = writeln!(
            out,
            "| {} | {mnemonic} | {layout} | {} | {} | {:?} | {:?} | {} | {:?} | {listed} |",
            row.opcode as u16,
            range(row.vs),
            range(row.ps),
            row.flow,
            row.controls,
            row.slots,
            row.class,
        );
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_row_is_found_by_its_value() {
        for row in TABLE {
            let found = lookup(row.opcode as u16).expect("row");
            assert_eq!(found.opcode, row.opcode);
            assert_eq!(Opcode::from_u16(row.opcode as u16), Some(row.opcode));
            assert_eq!(row.opcode.info().opcode, row.opcode);
        }
        // D3DSIO_RESERVED0 and the gap 49..=63 are not opcodes.
        assert!(lookup(75).is_none());
        assert!(lookup(49).is_none());
        assert!(lookup(97).is_none());
        assert_eq!(TABLE.len(), 49 + 32 + 3);
    }

    #[test]
    fn version_dependent_layouts() {
        let tex = Opcode::Tex.info();
        assert_eq!(tex.operands(ShaderKind::Pixel, V1_3), Some((true, 0)));
        assert_eq!(tex.operands(ShaderKind::Pixel, V1_4), Some((true, 1)));
        assert_eq!(tex.operands(ShaderKind::Pixel, V2_0), Some((true, 2)));
        assert_eq!(tex.mnemonic_for(ShaderKind::Pixel, V1_1), "tex");
        assert_eq!(tex.mnemonic_for(ShaderKind::Pixel, V1_4), "texld");
        let tc = Opcode::Texcoord.info();
        assert_eq!(tc.mnemonic_for(ShaderKind::Pixel, V1_3), "texcoord");
        assert_eq!(tc.mnemonic_for(ShaderKind::Pixel, V1_4), "texcrd");
        let sc = Opcode::Sincos.info();
        assert_eq!(sc.operands(ShaderKind::Vertex, V2_X), Some((true, 3)));
        assert_eq!(sc.operands(ShaderKind::Pixel, V3_0), Some((true, 1)));
        assert!(Opcode::Loop.info().exists_in(ShaderKind::Vertex, V2_0));
        assert!(!Opcode::Loop.info().exists_in(ShaderKind::Pixel, V2_X));
        assert!(Opcode::Texldl.info().exists_in(ShaderKind::Vertex, V3_0));
        assert!(!Opcode::Texldl.info().exists_in(ShaderKind::Vertex, V2_SW));
    }

    #[test]
    fn listing_slots_are_separate_from_the_documented_figures() {
        use crate::ir::{Instruction, Version};
        let ps12 = Version::new(ShaderKind::Pixel, 1, 2);
        let vs11 = Version::new(ShaderKind::Vertex, 1, 1);
        let vs30 = Version::new(ShaderKind::Vertex, 3, 0);
        let cmp = Instruction::new(Opcode::Cmp);
        // Documented: 2 slots in ps_1_2; listed: 1.
        assert_eq!(Opcode::Cmp.info().slots(ShaderKind::Pixel, V1_2), 2);
        assert_eq!(listing_slots(ps12, &cmp, false), (0, 1));
        // Co-issue after another instruction costs nothing; first in the program it counts.
        let mut co = Instruction::new(Opcode::Mov);
        co.coissue = true;
        assert_eq!(listing_slots(ps12, &co, true), (0, 0));
        assert_eq!(listing_slots(ps12, &co, false), (0, 1));
        // Vertex 1.x macro expansion; texldl counts as texture even in a vertex shader.
        assert_eq!(listing_slots(vs11, &Instruction::new(Opcode::Exp), false), (0, 10));
        assert_eq!(listing_slots(vs30, &Instruction::new(Opcode::Exp), false), (0, 1));
        assert_eq!(listing_slots(vs30, &Instruction::new(Opcode::Texldl), false), (2, 0));
        // Predication adds one arithmetic slot.
        let mut p = Instruction::new(Opcode::Texldl);
        let p0 = crate::ir::Register::new(crate::ir::RegisterType::Predicate, 0);
        p.predicate = Some(crate::ir::SrcParam::new(p0, crate::ir::Swizzle::IDENTITY));
        assert_eq!(listing_slots(vs30, &p, false), (2, 1));
        assert_eq!(listing_slots(vs30, &Instruction::new(Opcode::Nop), false), (0, 0));
    }
}
