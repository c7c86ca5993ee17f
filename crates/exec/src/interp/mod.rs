//! The compiled form of a program and the interpreter's inner loop.
//!
//! [`compile`] turns a decoded program into [`Code`]: a flat vector of [`Inst`]s whose
//! operands are resolved to indices in one flat register file (`[u32; 4]` registers):
//!
//! ```text
//! [outputs][temps][indexable temps...][inputs][vPrim][vGSInstanceID][zero][icb...][immediates...]
//! ```
//!
//! Writable registers come first and are cleared at the start of every invocation;
//! inputs are copied in; the constants (a zero register, the immediate constant buffer
//! and every immediate operand) are loaded once per machine. An operand is then a
//! register index plus swizzle and modifier masks, so that reading `r0`, `v[0][1]`,
//! `l(1.0, 2.0, 0, 0)` or `icb[3]` is one array access; only relative indices,
//! constant buffers and resources take another path.
//!
//! - [`compile`]: declarations (pass 1, fixing the layout), then instructions (pass 2:
//!   operands resolved, flow control to jumps, a handler chosen for each).
//! - [`exec`]: the loop (flow control, emits and cuts, the step and call-depth limits)
//!   and the handlers. A handler is a small function per operation, in variants for
//!   the operand shapes that dominate real shaders (sources read as they are; a whole
//!   or a single-component destination; `_sat` or not), so that the common case does
//!   no swizzling, masking or dispatch on operand kinds at run time.
//! - [`res`]: resource instructions (loads, samples, size queries, UAV stores and
//!   atomics), bounds-checked.

pub(crate) mod compile;
pub(crate) mod exec;
pub(crate) mod res;

use std::sync::atomic::{AtomicU64, Ordering};

/// Where a source operand's value comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum SrcKind {
    /// `regs[reg]`.
    Reg,
    /// `regs[reg + (imm + regs[rel][rel_c]) * stride]` when `imm + rel < count`, else 0.
    Rel,
    /// `cb[slot][reg]` (0 outside the bound buffer).
    Cb,
    /// `cb[slot][imm + regs[rel][rel_c]]`.
    CbRel,
}

/// A source operand, resolved.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Src {
    pub kind: SrcKind,
    /// Source component of each result component.
    pub swz: [u8; 4],
    /// Integer modifier (I/U operands): bit 0 negate, bit 1 absolute value.
    pub imod: u8,
    /// Component of the relative-index register.
    pub rel_c: u8,
    /// The swizzle is `.xyzw`.
    pub ident: bool,
    /// `and`/`xor` change something.
    pub fmod: bool,
    /// Identity swizzle and no modifier: the value is the register as it is.
    pub plain: bool,
    /// Integer modifiers as masks (all ones when set): `_abs`, then negation.
    pub iabs: u32,
    pub ineg: u32,
    /// The swizzle as selection masks: `sel[k][c]` is all ones when result component
    /// `c` comes from component `k`.
    pub sel: [[u32; 4]; 4],
    /// Float modifier as bit masks, applied after the swizzle: `(v & and) ^ xor`
    /// (`_abs` clears sign bits, `-` flips them; for doubles only the high words').
    pub and: [u32; 4],
    pub xor: [u32; 4],
    pub reg: u32,
    pub slot: u32,
    pub rel: u32,
    pub imm: u32,
    pub count: u32,
    pub stride: u32,
}

/// Selection masks of the identity swizzle.
pub(crate) const SEL_IDENTITY: [[u32; 4]; 4] =
    [[u32::MAX, 0, 0, 0], [0, u32::MAX, 0, 0], [0, 0, u32::MAX, 0], [0, 0, 0, u32::MAX]];

impl Src {
    /// A plain register read.
    pub fn reg(reg: u32) -> Src {
        Src {
            kind: SrcKind::Reg,
            swz: [0, 1, 2, 3],
            imod: 0,
            rel_c: 0,
            ident: true,
            fmod: false,
            plain: true,
            iabs: 0,
            ineg: 0,
            sel: SEL_IDENTITY,
            and: [u32::MAX; 4],
            xor: [0; 4],
            reg,
            slot: 0,
            rel: 0,
            imm: 0,
            count: 0,
            stride: 1,
        }
    }
}

/// Where a destination operand writes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum DstKind {
    Null,
    Reg,
    /// `regs[reg + (imm + regs[rel][rel_c]) * stride]` when in range, else dropped.
    Rel,
}

/// A destination operand, resolved.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Dst {
    pub kind: DstKind,
    /// Write mask (bit 0 = x).
    pub mask: u8,
    /// The component, when the mask has exactly one.
    pub comp: u8,
    pub rel_c: u8,
    /// The destination is in the output region (checking mode tracks writes).
    pub out: bool,
    /// The write mask as per-component bit masks.
    pub wm: [u32; 4],
    pub reg: u32,
    pub rel: u32,
    pub imm: u32,
    pub count: u32,
    pub stride: u32,
}

impl Dst {
    pub const NULL: Dst = Dst {
        kind: DstKind::Null,
        mask: 0,
        comp: 0,
        rel_c: 0,
        out: false,
        wm: [0; 4],
        reg: 0,
        rel: 0,
        imm: 0,
        count: 0,
        stride: 1,
    };
}

/// The interpreter's operations.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[repr(u8)]
pub(crate) enum Op {
    // Flow control. `a` is the target.
    Jmp,
    /// Jump to `a` when `(src0.x != 0) == nz`.
    JmpIf,
    /// `switch`: table `a`.
    Switch,
    /// `call`/`callc`: to `a` (callc when `cond`).
    Call,
    CallIf,
    /// `ret`: return, or end the invocation outside a subroutine.
    Ret,
    RetIf,
    /// Geometry output on stream `a`.
    Emit,
    Cut,
    EmitCut,
    Abort,
    // 32-bit float.
    Add,
    Mul,
    Mad,
    Div,
    Dp2,
    Dp3,
    Dp4,
    Min,
    Max,
    Rcp,
    Rsq,
    Sqrt,
    Exp,
    Log,
    Frc,
    RoundNe,
    RoundNi,
    RoundPi,
    RoundZ,
    SinCos,
    Eq,
    Ne,
    Lt,
    Ge,
    // Moves.
    Mov,
    Movc,
    Swapc,
    // Integer.
    Iadd,
    Imad,
    Umad,
    Imul,
    Umul,
    Udiv,
    Imax,
    Imin,
    Umax,
    Umin,
    Ieq,
    Ine,
    Ilt,
    Ige,
    Ult,
    Uge,
    Ineg,
    Ishl,
    Ishr,
    Ushr,
    And,
    Or,
    Xor,
    Not,
    CountBits,
    FirstBitHi,
    FirstBitLo,
    FirstBitShi,
    Ubfe,
    Ibfe,
    Bfi,
    Bfrev,
    Uaddc,
    Usubb,
    Msad,
    // Conversions.
    Ftoi,
    Ftou,
    Itof,
    Utof,
    F16ToF32,
    F32ToF16,
    // Doubles.
    Dadd,
    Dmul,
    Dmin,
    Dmax,
    Ddiv,
    Dfma,
    Drcp,
    Deq,
    Dge,
    Dlt,
    Dne,
    Dmov,
    Dmovc,
    Dtof,
    Ftod,
    Dtoi,
    Dtou,
    Itod,
    Utod,
    // Resources: `a` is the slot, `rswz` the resource operand's swizzle, `dim` the
    // declared kind.
    Ld,
    LdUavTyped,
    LdRaw,
    LdStructured,
    ResInfo,
    BufInfo,
    /// `b` is the sampler slot.
    SampleL,
    /// `sample_c_lz`: `src[0]` the address, `src[2]` the reference; `b` the sampler.
    SampleCLz,
    /// `sample_d`: `src[0]` the address, `src[1]`/`src[2]` the x/y derivatives.
    SampleD,
    /// `gather4*`: `src[0]` the address, `src[1]` the programmable offset (`_po`),
    /// `src[2]` the reference (`_c`); `b` the sampler, `umask` the component gathered;
    /// `flag` bit 1: compare, bit 3: programmable offset.
    Gather4,
    /// `ldms`: `src[0]` the address, `src[1]` the sample index.
    LdMs,
    /// `sampleinfo` (`b` = 2: `_uint`).
    SampleInfo,
    /// `samplepos`: `src[0]` the sample index.
    SamplePos,
    StoreUavTyped,
    StoreRaw,
    StoreStructured,
    /// `b` is the [`AtomicOp`].
    Atomic,
    ImmAtomic,
    ImmAtomicAlloc,
    ImmAtomicConsume,
    CheckAccess,
}

/// The operation of an atomic instruction.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[repr(u8)]
pub(crate) enum AtomicOp {
    And,
    Or,
    Xor,
    /// Compare and store/exchange: stores the second value when memory equals the first.
    CmpStore,
    Iadd,
    Imax,
    Imin,
    Umax,
    Umin,
    Exch,
}

impl AtomicOp {
    pub fn from_u32(v: u32) -> AtomicOp {
        use AtomicOp::*;
        [And, Or, Xor, CmpStore, Iadd, Imax, Imin, Umax, Umin, Exch].get(v as usize).copied().unwrap_or(And)
    }
}

/// The declared kind of a `t#`/`u#` slot.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[repr(u8)]
pub(crate) enum ResKind {
    Unknown,
    Buffer,
    Texture1D,
    Texture1DArray,
    Texture2D,
    Texture2DArray,
    Texture3D,
    TextureCube,
    TextureCubeArray,
    /// Multisampled textures.
    Texture2DMS,
    Texture2DMSArray,
    Raw,
    Structured,
}

/// One compiled instruction.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Inst {
    /// The handler of everything but flow control and geometry output (chosen by
    /// [`exec::handler`] once the instruction is complete).
    pub f: exec::Handler,
    pub op: Op,
    /// `_sat`.
    pub sat: bool,
    /// Test of conditional instructions: true for `_nz`.
    pub nz: bool,
    /// Bit 0: has a feedback destination (`_s` forms: dst[1]); bit 1: gather
    /// compares; bit 2: the resource is a UAV; bit 3: gather with programmable offset.
    pub flag: u8,
    /// Declared resource kind.
    pub dim: ResKind,
    /// Write mask of a UAV destination (`store_raw u0.xy`); the component a gather
    /// reads.
    pub umask: u8,
    /// Swizzle of the resource operand.
    pub rswz: [u8; 4],
    /// Immediate texel offsets (`_aoffimmi`).
    pub offs: [i8; 3],
    pub a: u32,
    pub b: u32,
    pub dst: [Dst; 2],
    pub src: [Src; 4],
}

impl Inst {
    pub fn new(op: Op) -> Inst {
        Inst {
            f: exec::nop,
            op,
            sat: false,
            nz: false,
            flag: 0,
            dim: ResKind::Unknown,
            umask: 0,
            rswz: [0, 1, 2, 3],
            offs: [0; 3],
            a: 0,
            b: 0,
            dst: [Dst::NULL; 2],
            src: [Src::reg(0); 4],
        }
    }
}

/// A `switch` jump table.
#[derive(Debug, Clone, Default)]
pub(crate) struct SwitchTable {
    pub cases: Vec<(u32, u32)>,
    pub default: u32,
}

/// Where each register file lives in the flat register file.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Layout {
    /// Outputs start at 0.
    pub outputs: u32,
    pub temps_base: u32,
    pub temps: u32,
    /// Registers cleared at the start of an invocation: `0..writable`.
    pub writable: u32,
    pub inputs_base: u32,
    pub inputs: u32,
    pub prim: u32,
    pub gs_instance: u32,
    pub zero: u32,
    pub icb_base: u32,
    pub icb: u32,
    /// Total registers.
    pub size: u32,
}

/// An output declaration, as checking mode reads it.
#[derive(Debug, Clone, Copy)]
pub(crate) struct DeclaredOutput {
    pub stream: u32,
    pub register: u32,
    pub mask: u8,
}

/// The compiled instructions of a plan.
#[derive(Debug, Clone, Default)]
pub struct Code {
    /// Identifies the compilation (machines load its constants once).
    pub(crate) id: u64,
    pub(crate) insts: Vec<Inst>,
    /// Program instruction index of each compiled instruction (for errors).
    pub(crate) origin: Vec<u32>,
    pub(crate) layout: Layout,
    /// Registers from `layout.zero` to the end (zero, icb, immediates).
    pub(crate) constants: Vec<[u32; 4]>,
    pub(crate) switches: Vec<SwitchTable>,
    /// Output declarations, for checking mode.
    pub(crate) declared_outputs: Vec<DeclaredOutput>,
    pub(crate) max_vertex_count: u32,
    pub(crate) stage_gs: bool,
}

static NEXT_ID: AtomicU64 = AtomicU64::new(1);

pub(crate) fn next_id() -> u64 {
    NEXT_ID.fetch_add(1, Ordering::Relaxed)
}
