//! The compiled form of a program and the interpreter's inner loop.
//!
//! [`compile`] turns a decoded program into [`Code`]: a flat vector of [`Inst`]s whose
//! operands are resolved to indices in one flat register file (`[u32; 4]` registers):
//!
//! ```text
//! [outputs][temps][indexable temps...][inputs][vPrim][vGSInstanceID][this...][zero][icb...][immediates...]
//! ```
//!
//! Writable registers come first and are cleared at the start of every invocation;
//! inputs are copied in; the `this[]` registers of interface slots are filled from the
//! bound class instances when an invocation runs; the constants (a zero register, the immediate constant buffer
//! and every immediate operand) are loaded once per machine. An operand is then a
//! register index with its swizzle and modifiers packed in 8 bytes, so that reading
//! `r0`, `v[0][1]`, `l(1.0, 2.0, 0, 0)` or `icb[3]` is one array access; only relative
//! indices (out of line in [`Code::rels`]), constant buffers and resources (their
//! operands out of line in [`Code::rops`], each operation its own handler) take
//! another path. An [`Inst`] is at most 64 bytes.
//!
//! - [`compile`]: declarations (pass 1, fixing the layout), then instructions (pass 2:
//!   operands resolved, flow control to jumps, a handler chosen for each).
//! - [`exec`]: the loop (flow control, emits and cuts, the step and call-depth limits)
//!   and the handlers. A handler is a small function per operation, in variants for
//!   the operand shapes that dominate real shaders (sources read as they are; a whole
//!   or a single-component destination; `_sat` or not), so that the common case does
//!   no swizzling, masking or dispatch on operand kinds at run time.
//! - [`res`]: resource instructions (loads, samples, size queries, UAV stores and
//!   atomics), bounds-checked; [`tgsm`]: the same on thread-group shared memory.
//! - [`compute`]: a compute shader's dispatch (thread groups, barriers).
//! - [`pixel`]: a pixel shader's quads (derivatives, implicit-LOD sampling, discard).

pub(crate) mod compile;
pub(crate) mod compute;
pub(crate) mod exec;
pub(crate) mod lanes;
pub(crate) mod pixel;
pub(crate) mod res;
pub(crate) mod tgsm;

use std::sync::atomic::{AtomicU64, Ordering};

/// Where a source operand's value comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[repr(u8)]
pub(crate) enum SrcKind {
    /// `regs[reg]`.
    Reg,
    /// `rels[reg]`: `regs[base + (imm + regs[rel][rel_c]) * stride]` when
    /// `imm + regs[rel][rel_c] < count`, else 0.
    Rel,
    /// `cb[slot][reg]` (0 outside the bound buffer).
    Cb,
    /// `rels[reg]`: `cb[slot][imm + regs[rel][rel_c]]`.
    CbRel,
    /// A uniformly indexed constant buffer (`cb[r0.x + 1][r0.y + 2]`, spec 7.11):
    /// `rels[reg]` computes the slot, `rels[reg + 1]` the element (each `imm +
    /// regs[rel][rel_c]`; an immediate part alone reads the zero register).
    CbDyn,
}

/// The identity swizzle, packed (2 bits per component, x first).
pub(crate) const IDENTITY: u8 = 0b11_10_01_00;

/// Source modifier bits ([`Src::m`]): the float `_abs` and `-` (on all four
/// components, or with [`M_DOUBLE`] on the high words `.y`/`.w` only), the integer
/// ones.
pub(crate) const M_ABS: u8 = 1;
pub(crate) const M_NEG: u8 = 2;
pub(crate) const M_DOUBLE: u8 = 4;
pub(crate) const M_IABS: u8 = 8;
pub(crate) const M_INEG: u8 = 16;

/// A source operand, resolved: 8 bytes, each swizzle and modifier stored once.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Src {
    /// The register (`Reg`), the vector (`Cb`), or the entry of [`Code::rels`]
    /// (`Rel`, `CbRel`).
    pub reg: u32,
    pub kind: SrcKind,
    /// Source component of each result component, packed (see [`IDENTITY`]).
    pub swz: u8,
    /// Modifiers (`M_*` bits).
    pub m: u8,
    /// Constant-buffer slot (`Cb`, `CbRel`).
    pub slot: u8,
}

impl Src {
    /// A plain register read.
    pub const fn reg(reg: u32) -> Src {
        Src { reg, kind: SrcKind::Reg, swz: IDENTITY, m: 0, slot: 0 }
    }

    /// The source component of result component `k`.
    #[inline(always)]
    pub fn comp(&self, k: usize) -> usize {
        (self.swz >> (2 * (k & 3))) as usize & 3
    }

    /// The value is read as it is (identity swizzle, no modifier).
    #[inline(always)]
    pub fn plain(&self) -> bool {
        self.swz == IDENTITY && self.m == 0
    }

    /// The float modifier of component `k` as masks: `(v & and) ^ xor`.
    #[inline(always)]
    pub fn fmask(&self, k: usize) -> (u32, u32) {
        let on = self.m & M_DOUBLE == 0 || k & 1 == 1;
        let and = if on && self.m & M_ABS != 0 { 0x7fff_ffff } else { u32::MAX };
        let xor = if on && self.m & M_NEG != 0 { 0x8000_0000 } else { 0 };
        (and, xor)
    }

    /// The integer modifiers as masks (all ones when set): `_abs`, negation.
    #[inline(always)]
    pub fn imask(&self) -> (u32, u32) {
        (0u32.wrapping_sub((self.m & M_IABS != 0) as u32), 0u32.wrapping_sub((self.m & M_INEG != 0) as u32))
    }
}

/// A relative index: element `imm + regs[rel][rel_c]` of `count` elements of
/// `stride` registers at `base` (for constant buffers, of the bound buffer).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Rel {
    pub base: u32,
    pub rel: u32,
    pub imm: u32,
    pub count: u32,
    pub stride: u32,
    pub rel_c: u8,
}

/// Where a destination operand writes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[repr(u8)]
pub(crate) enum DstKind {
    Null,
    Reg,
    /// `rels[reg]`: `regs[base + (imm + regs[rel][rel_c]) * stride]` when in range,
    /// else dropped.
    Rel,
}

/// A destination operand, resolved: 8 bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Dst {
    /// The register (`Reg`) or the entry of [`Code::rels`] (`Rel`).
    pub reg: u32,
    pub kind: DstKind,
    /// Write mask (bit 0 = x).
    pub mask: u8,
    /// The destination is in the output region (checking mode tracks writes).
    pub out: bool,
}

impl Dst {
    pub const NULL: Dst = Dst { reg: 0, kind: DstKind::Null, mask: 0, out: false };

    /// The first component written (the component, when the mask has exactly one).
    #[inline(always)]
    pub fn comp(&self) -> usize {
        (self.mask.trailing_zeros() & 3) as usize
    }

    /// The write mask of component `c` as a bit mask.
    #[inline(always)]
    pub fn wm(&self, c: usize) -> u32 {
        0u32.wrapping_sub(((self.mask >> c) & 1) as u32)
    }
}

/// Declares [`Op`] with the arithmetic operations listed once, each named as the
/// `tpf::Opcode` it executes, and [`alu_op`], the opcode's operation: the interpreter's
/// only per-opcode list outside its semantics (`exec.rs`, `lanes.rs`).
macro_rules! interp_ops {
    (
        other { $($(#[$om:meta])* $other:ident,)* }
        alu { $($alu:ident,)* }
    ) => {
        /// The interpreter's operations.
        #[derive(Debug, Clone, Copy, PartialEq, Eq)]
        #[repr(u8)]
        pub(crate) enum Op {
            $($(#[$om])* $other,)*
            $($alu,)*
        }

        /// The arithmetic operation of an opcode compiled generically (destinations,
        /// then sources typed by the table row), if it is one: the opcode of the same
        /// name.
        pub(crate) fn alu_op(op: tpf::Opcode) -> Option<Op> {
            match op {
                $(tpf::Opcode::$alu => Some(Op::$alu),)*
                _ => None,
            }
        }
    };
}

interp_ops! {
    other {
        // Flow control. `a` is the target.
        Jmp,
        /// Jump to `a` when `(src0.x != 0) == nz`.
        JmpIf,
        /// `switch`: table `a`.
        Switch,
        /// `call`/`callc`: to `a` (callc when `cond`).
        Call,
        CallIf,
        /// `fcall fp#[k][site]`: `a` names the [`FCall`] (interface, call site, array
        /// index); `src[0]` the register component of a relative array index.
        FCall,
        /// `ret`: return, or end the invocation outside a subroutine.
        Ret,
        RetIf,
        /// Geometry output on stream `a`.
        Emit,
        Cut,
        EmitCut,
        /// `sync_*_t`: the thread-group barrier (compute shaders; the loop suspends the
        /// thread there). Fences without `_t` compile to nothing.
        Sync,
        /// `deriv_rt{x,y}[_coarse|_fine]` (pixel shaders): `a` is the `D_*` bits. The loop suspends the invocation there; the quad computes it
        /// (`interp/pixel.rs`).
        Deriv,
        /// `sample`, `sample_b`, `sample_c` and their `_cl_s` forms (pixel shaders):
        /// the LOD from the quad's derivatives of the address; `src[0]` the address,
        /// `src[1]` the bias (`sample_b`), `src[2]` the reference (`sample_c`),
        /// `src[3]` the LOD clamp (`_cl`). Suspends like [`Op::Deriv`].
        SampleQuad,
        /// `lod` (pixel shaders): `src[0]` the address. Suspends like [`Op::Deriv`].
        LodQuad,
        /// `eval_snapped`, `eval_sample_index`, `eval_centroid` (pixel shaders): `a` is
        /// the input register `v#` (below 4096, as declared inputs) and the
        /// [`EVAL_*`](EVAL_SNAPPED) kind in bits 16..;
        /// `src[0]` the input as read (swizzle, modifiers), `src[1]` the offset or
        /// sample index. Suspends like [`Op::Deriv`]; the quad evaluates it with the
        /// attribute planes of a rasterized draw (`interp/pixel.rs`).
        Eval,
        /// `discard`: the pixel's outputs are dropped when `src0.x != 0` matches
        /// `_nz`; it runs on as a helper (for its quad's derivatives).
        Discard,
        Abort,
        // Resources: `a` names the [`ResOp`] (slot, swizzle, declared kind, sampler...).
        Ld,
        LdUavTyped,
        LdRaw,
        LdStructured,
        ResInfo,
        BufInfo,
        SampleL,
        /// `sample_c_lz`: `src[0]` the address, `src[2]` the reference.
        SampleCLz,
        /// `sample_d`: `src[0]` the address, `src[1]`/`src[2]` the x/y derivatives.
        SampleD,
        /// `gather4*`: `src[0]` the address, `src[1]` the programmable offset (`_po`),
        /// `src[2]` the reference (`_c`).
        Gather4,
        /// `ldms`: `src[0]` the address, `src[1]` the sample index.
        LdMs,
        /// `sampleinfo`.
        SampleInfo,
        /// `samplepos`: `src[0]` the sample index.
        SamplePos,
        StoreUavTyped,
        StoreRaw,
        StoreStructured,
        /// `atomic_*` (the operation in the [`ResOp`]).
        Atomic,
        ImmAtomic,
        ImmAtomicAlloc,
        ImmAtomicConsume,
        CheckAccess,
    }
    alu {
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
    }
}

/// The per-component semantics of the arithmetic operations, written once: both
/// execution paths are generated from this table (the one-invocation handlers in
/// `exec.rs`, the lanes' arms in `lanes.rs`), so that they compute the same by
/// construction. Each row: the operations (`|`), the result kind, the cost, the
/// sources (one, two or three, read per component after swizzle and modifiers) and
/// the result component as a function of their bits, written with the rules of
/// [`crate::alu`] (which flushes float inputs in [`alu::f`](crate::alu::f) and makes
/// float results in [`alu::bits`](crate::alu::bits)).
///
/// - `float`: a float result (flushed, NaN canonical): `_sat` is honoured;
///   `bits`: an integer or mask result, no `_sat`.
/// - `cheap`: the lanes compute every component (cheaper than choosing);
///   `costly`: only the components the destination takes.
///
/// Operations with another shape (two destinations, a reduction, a fourth source, raw
/// moves with `_sat`, doubles) are written once per path, over one function of
/// [`crate::alu`] each. The table is handed to a macro (`$then`), which expands it at
/// its call site (where `alu` names `crate::alu`).
macro_rules! alu_semantics {
    ($then:ident) => {
        $then! {
            [Add] float cheap (a, b) => alu::bits(alu::f(a) + alu::f(b));
            [Mul] float cheap (a, b) => alu::bits(alu::f(a) * alu::f(b));
            [Mad] float cheap (a, b, c) => alu::bits(alu::f(a) * alu::f(b) + alu::f(c));
            [Div] float costly (a, b) => alu::bits(alu::f(a) / alu::f(b));
            [Min] float cheap (a, b) => alu::fmin(a, b);
            [Max] float cheap (a, b) => alu::fmax(a, b);
            [Rcp] float costly (a) => alu::bits(alu::rcp(alu::f(a)));
            [Rsq] float costly (a) => alu::bits(alu::rsq(alu::f(a)));
            [Sqrt] float costly (a) => alu::bits(alu::f(a).sqrt());
            [Exp] float costly (a) => alu::bits(alu::exp2(alu::f(a)));
            [Log] float costly (a) => alu::bits(alu::log2(alu::f(a)));
            [Frc] float costly (a) => alu::bits(alu::frc(alu::f(a)));
            [RoundNe] float cheap (a) => alu::bits(alu::f(a).round_ties_even());
            [RoundNi] float cheap (a) => alu::bits(alu::f(a).floor());
            [RoundPi] float cheap (a) => alu::bits(alu::f(a).ceil());
            [RoundZ] float cheap (a) => alu::bits(alu::f(a).trunc());
            [Itof] float cheap (a) => alu::result(alu::itof(a));
            [Utof] float cheap (a) => alu::result(alu::utof(a));
            [F16ToF32] float costly (a) => alu::f16tof32(a);
            [Eq] bits cheap (a, b) => alu::mask(alu::f(a) == alu::f(b));
            [Ne] bits cheap (a, b) => alu::mask(alu::f(a) != alu::f(b));
            [Lt] bits cheap (a, b) => alu::mask(alu::f(a) < alu::f(b));
            [Ge] bits cheap (a, b) => alu::mask(alu::f(a) >= alu::f(b));
            [Ftoi] bits cheap (a) => alu::ftoi(alu::f(a));
            [Ftou] bits cheap (a) => alu::ftou(alu::f(a));
            [F32ToF16] bits costly (a) => alu::f32tof16(a);
            [Iadd] bits cheap (a, b) => a.wrapping_add(b);
            [Imad | Umad] bits cheap (a, b, c) => a.wrapping_mul(b).wrapping_add(c);
            [Imax] bits cheap (a, b) => (a as i32).max(b as i32) as u32;
            [Imin] bits cheap (a, b) => (a as i32).min(b as i32) as u32;
            [Umax] bits cheap (a, b) => a.max(b);
            [Umin] bits cheap (a, b) => a.min(b);
            [Ieq] bits cheap (a, b) => alu::mask(a == b);
            [Ine] bits cheap (a, b) => alu::mask(a != b);
            [Ilt] bits cheap (a, b) => alu::mask((a as i32) < (b as i32));
            [Ige] bits cheap (a, b) => alu::mask((a as i32) >= (b as i32));
            [Ult] bits cheap (a, b) => alu::mask(a < b);
            [Uge] bits cheap (a, b) => alu::mask(a >= b);
            [Ineg] bits cheap (a) => a.wrapping_neg();
            [Ishl] bits cheap (a, b) => alu::ishl(a, b);
            [Ishr] bits cheap (a, b) => alu::ishr(a, b);
            [Ushr] bits cheap (a, b) => alu::ushr(a, b);
            [And] bits cheap (a, b) => a & b;
            [Or] bits cheap (a, b) => a | b;
            [Xor] bits cheap (a, b) => a ^ b;
            [Not] bits cheap (a) => !a;
            [CountBits] bits costly (a) => a.count_ones();
            [FirstBitHi] bits costly (a) => alu::firstbit_hi(a);
            [FirstBitLo] bits costly (a) => alu::firstbit_lo(a);
            [FirstBitShi] bits costly (a) => alu::firstbit_shi(a);
            [Bfrev] bits costly (a) => a.reverse_bits();
            [Ubfe] bits cheap (a, b, c) => alu::ubfe(a, b, c);
            [Ibfe] bits cheap (a, b, c) => alu::ibfe(a, b, c);
            [Msad] bits cheap (a, b, c) => alu::msad(a, b, c);
        }
    };
}
pub(crate) use alu_semantics;

/// A callback of [`alu_semantics`]: the pattern matching every operation of the
/// table (so that the hand-written `match`es stay exhaustive).
macro_rules! table_ops {
    ($( [$($op:ident)|+] $kind:ident $cost:ident ($($arg:ident),+) => $body:expr; )*) => {
        $( $(Op::$op)|+ )|*
    };
}
pub(crate) use table_ops;

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

/// One resource instruction's operands beyond its sources and destinations (an entry
/// of [`Code::rops`], named by the instruction's `a`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct ResOp {
    /// The `t#`/`u#` slot.
    pub slot: u32,
    /// The `s#` slot (samples and gathers).
    pub sampler: u32,
    /// Declared resource kind.
    pub kind: ResKind,
    /// The resource is a UAV.
    pub uav: bool,
    /// Swizzle of the resource operand, packed as [`Src::swz`].
    pub swz: u8,
    /// Immediate texel offsets (`_aoffimmi`).
    pub offs: [i8; 3],
    /// Write mask of a UAV destination (`store_raw u0.xy`); the component a gather
    /// reads.
    pub umask: u8,
    /// Has a feedback destination (`_s` forms: `dst[1]`).
    pub feedback: bool,
    /// `gather4_c*`: compares.
    pub compare: bool,
    /// `sample_d` with `_cl`: the LOD clamp (`src[3]`).
    pub clamp: bool,
    /// A uniformly indexed `t#`/`u#` (`t[r0.w + 2]`, spec 7.11): the entry of
    /// [`Code::rels`] whose `imm + regs[rel][rel_c]` is the slot ([`NO_REL`]: `slot`).
    pub slot_rel: u32,
    /// A uniformly indexed `s#`: as `slot_rel`, for `sampler`.
    pub sampler_rel: u32,
    /// `gather4_po*`: programmable offset (`src[1]`).
    pub programmable: bool,
    /// `sample_b*`: the bias (`src[1]`).
    pub bias: bool,
    /// `resinfo`: 0 float, 1 `_rcpFloat`, 2 `_uint`; `sampleinfo`: 2 `_uint`.
    pub ret: u8,
    pub atomic: AtomicOp,
    /// The operand is thread-group shared memory (`g#`, compute shaders): `kind` is
    /// `Raw` or `Structured`, and the `g_*` fields place it.
    pub tgsm: bool,
    /// `g#`: its first 32-bit word in the group's shared memory.
    pub g_base: u32,
    /// `g#`: its size in 32-bit words.
    pub g_words: u32,
    /// `g#`: the structure size in bytes (`dcl_tgsm_structured`; 0 for raw).
    pub g_stride: u32,
}

impl ResOp {
    pub const NONE: ResOp = ResOp {
        slot: 0,
        sampler: 0,
        kind: ResKind::Unknown,
        uav: false,
        swz: IDENTITY,
        offs: [0; 3],
        umask: 0,
        feedback: false,
        compare: false,
        clamp: false,
        programmable: false,
        bias: false,
        ret: 0,
        atomic: AtomicOp::And,
        tgsm: false,
        g_base: 0,
        g_words: 0,
        g_stride: 0,
        slot_rel: NO_REL,
        sampler_rel: NO_REL,
    };
}

/// [`ResOp::slot_rel`] of a slot given as an immediate.
pub(crate) const NO_REL: u32 = u32::MAX;

/// One `fcall` ([`Op::FCall`]'s `a`): body `site` of the function table bound to
/// interface slot `fp + index`, `index` = `imm` (+ the register component in the
/// instruction's `src[0]` when `dynamic`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct FCall {
    pub fp: u32,
    pub imm: u32,
    pub site: u32,
    pub dynamic: bool,
    /// The slots of `fp#`'s declaration: a dynamic index at or beyond it calls nothing.
    pub array_length: u32,
}

/// [`Op::Eval`]'s kind (`a >> 16`): `eval_snapped`.
pub(crate) const EVAL_SNAPPED: u32 = 0;
/// [`Op::Eval`]'s kind: `eval_sample_index`.
pub(crate) const EVAL_SAMPLE_INDEX: u32 = 1;
/// [`Op::Eval`]'s kind: `eval_centroid`.
pub(crate) const EVAL_CENTROID: u32 = 2;

/// [`Op::Deriv`]'s `a`: the y derivative (`deriv_rty*`; else x).
pub(crate) const D_Y: u32 = 1;
/// [`Op::Deriv`]'s `a`: fine (per row or column of the quad; else coarse, per quad).
pub(crate) const D_FINE: u32 = 2;

/// [`Code::ps_outputs`]: `oDepth` (or `oDepthGE`/`oDepthLE`), `oMask`, `oStencilRef`.
pub(crate) const PS_DEPTH: u8 = 1;
pub(crate) const PS_MASK: u8 = 2;
pub(crate) const PS_STENCIL: u8 = 4;

/// Instruction flags ([`Inst::flags`]).
pub(crate) const F_SAT: u8 = 1;
/// Conditional instructions: the test is `_nz`.
pub(crate) const F_NZ: u8 = 2;

/// One compiled instruction: 64 bytes (operands packed, relative indices and
/// resource operands out of line).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Inst {
    /// The handler of everything but flow control and geometry output (chosen by
    /// [`exec::handler`] once the instruction is complete).
    pub f: exec::Handler,
    pub op: Op,
    /// `F_*` bits.
    pub flags: u8,
    /// Jump target, stream, switch table, or resource operands ([`Code::rops`]).
    pub a: u32,
    pub dst: [Dst; 2],
    pub src: [Src; 4],
}

impl Inst {
    pub fn new(op: Op) -> Inst {
        Inst { f: exec::nop, op, flags: 0, a: 0, dst: [Dst::NULL; 2], src: [Src::reg(0); 4] }
    }

    /// `_sat`.
    #[inline(always)]
    pub fn sat(&self) -> bool {
        self.flags & F_SAT != 0
    }

    /// The test of a conditional instruction: true for `_nz`.
    #[inline(always)]
    pub fn nz(&self) -> bool {
        self.flags & F_NZ != 0
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
    /// `vPrim`; in pixel shaders `vCoverage`.
    pub prim: u32,
    pub gs_instance: u32,
    /// The `this[]` registers of the interface slots (`this_count` of them, filled from
    /// the bound class instances when an invocation runs).
    pub this_base: u32,
    pub this_count: u32,
    /// Pixel shaders: `oDepth` (and `oDepthGE`/`oDepthLE`), `oMask`, `oStencilRef`,
    /// three registers of the output region after the `o#`s (0 otherwise).
    pub depth: u32,
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
    /// Relative indices of operands ([`SrcKind::Rel`], [`SrcKind::CbRel`],
    /// [`DstKind::Rel`]).
    pub(crate) rels: Vec<Rel>,
    /// Resource operands of resource instructions.
    pub(crate) rops: Vec<ResOp>,
    /// Output declarations, for checking mode.
    pub(crate) declared_outputs: Vec<DeclaredOutput>,
    pub(crate) max_vertex_count: u32,
    pub(crate) stage_gs: bool,
    /// A compute shader: its inputs are the four thread-ID registers
    /// ([`Layout::inputs_base`]: `vThreadID`, `vThreadGroupID`, `vThreadIDInGroup`,
    /// `vThreadIDInGroupFlattened`).
    pub(crate) stage_cs: bool,
    /// `dcl_thread_group` (compute shaders).
    pub(crate) thread_group: [u32; 3],
    /// Thread-group shared memory, in 32-bit words (every `g#`, one after another).
    pub(crate) tgsm_words: u32,
    /// The program has a thread-group barrier (`Op::Sync`).
    pub(crate) has_barrier: bool,
    /// A pixel shader (its quad operations suspend the invocation: `Op::Deriv`,
    /// `Op::SampleQuad`, `Op::LodQuad`).
    pub(crate) stage_ps: bool,
    /// Pixel shaders: the outputs beyond `o#` declared (`PS_*` bits).
    pub(crate) ps_outputs: u8,
    /// The program evaluates attributes (`Op::Eval`): it needs a rasterized draw's
    /// attribute planes.
    pub(crate) has_eval: bool,
    /// The interface declarations (`dcl_function_table`, `dcl_interface`).
    pub(crate) interfaces: tpf::interfaces::Interfaces,
    /// The `fcall`s ([`Op::FCall`]'s `a`).
    pub(crate) fcalls: Vec<FCall>,
    /// `label fb#`: each function body's first compiled instruction.
    pub(crate) bodies: std::collections::BTreeMap<u32, u32>,
    /// The `t#`, `u#`, `s#` and `cb#` slots declared (register space 0), which a
    /// uniformly indexed operand may reach.
    pub(crate) declared: DeclaredSlots,
}

/// Declared slots, one bit each (bit `n`: slot `n`). 128 bits hold every slot the API
/// has (128 shader resource views, 64 UAVs, 16 samplers, 14 constant buffers).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct DeclaredSlots {
    pub srv: u128,
    pub uav: u128,
    pub sampler: u128,
    pub cb: u128,
    /// The interface slots the program declares (`dcl_interface`): a class instance
    /// bound to one names texture and sampler slots of its own (`this[].z`, `.w`),
    /// which fxc does not declare.
    pub interface_slots: u32,
}

impl DeclaredSlots {
    /// The slot `slot` of the file `mask` is declared.
    #[inline(always)]
    pub fn has(mask: u128, slot: u32) -> bool {
        slot < 128 && (mask >> slot) & 1 != 0
    }

    /// Marks slots `lo..=hi` of `mask` (those below 128) declared.
    pub fn mark(mask: &mut u128, lo: u32, hi: u32) {
        for slot in lo..=hi.min(127) {
            *mask |= 1 << slot;
        }
    }
}

/// The slot a uniformly indexed operand reads: `slot` when the program declares it,
/// else [`UNDECLARED`] (no resource is bound there: it reads as unbound).
#[inline(always)]
pub(crate) fn declared_or_unbound(mask: u128, slot: u32) -> u32 {
    if DeclaredSlots::has(mask, slot) {
        slot
    } else {
        UNDECLARED
    }
}

/// The slot an undeclared uniformly indexed slot becomes: past every binding array.
pub(crate) const UNDECLARED: u32 = u32::MAX;

static NEXT_ID: AtomicU64 = AtomicU64::new(1);

pub(crate) fn next_id() -> u64 {
    NEXT_ID.fetch_add(1, Ordering::Relaxed)
}

// The interpreter's instruction fits a cache line (operands packed; relative indices
// and resource operands out of line).
const _: () = assert!(std::mem::size_of::<Inst>() <= 64);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn compiled_instruction_sizes() {
        assert!(std::mem::size_of::<Inst>() <= 64, "Inst is {} bytes", std::mem::size_of::<Inst>());
        assert_eq!(std::mem::size_of::<Src>(), 8);
        assert_eq!(std::mem::size_of::<Dst>(), 8);
    }
}
