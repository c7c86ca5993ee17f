//! The dispatch loop and the instruction handlers.
//!
//! Flow control and geometry output run in the loop itself; every other instruction
//! calls its handler, a small function chosen when the plan is compiled (one per
//! operation, plus variants for the common operand shapes), through the pointer in the
//! instruction. Small separate handlers keep their values in registers, which one big
//! `match` did not.

use super::compile::CALL_DEPTH;
use super::{
    declared_or_unbound, table_ops, Code, DeclaredSlots, Dst, DstKind, Inst, Op, Rel, ResOp, Src, SrcKind, NO_REL,
};
use super::{res, tgsm};
use crate::alu::{self, ftz4};
use crate::error::{ExecError, ExecErrorKind};
use crate::machine::{EmitSink, ExecDiagnostic};
use crate::resources::Resources;

/// Most checking-mode findings kept between two `take_diagnostics` calls.
const MAX_DIAGNOSTICS: usize = 10_000;

/// An instruction handler.
pub(crate) type Handler = fn(&mut Ctx<'_, '_>, &Inst);

/// What handlers work on: the registers and the resources of one invocation.
pub(crate) struct Ctx<'r, 'a> {
    pub regs: &'r mut [[u32; 4]],
    pub res: &'r mut Resources<'a>,
    /// The code's relative indices and resource operands.
    pub rels: &'r [Rel],
    pub rops: &'r [ResOp],
    /// The slots the code declares (uniformly indexed operands reach only those).
    pub declared: &'r DeclaredSlots,
    /// Checking mode: components of each output register written since the last emit.
    pub written: &'r mut [u8],
    pub checking: bool,
    /// The thread group's shared memory (compute shaders; empty otherwise).
    pub tgsm: &'r mut [u32],
    /// A pixel shader's helper pixel (not covered, or discarded): its UAV writes and
    /// atomics do nothing, and the returning forms give 0.
    pub helper: bool,
}

/// Registers and per-invocation state, reused across invocations.
#[derive(Debug, Clone)]
pub(crate) struct Core {
    pub regs: Vec<[u32; 4]>,
    /// The code whose constants are loaded (its id).
    pub loaded: u64,
    pub stack: [u32; CALL_DEPTH as usize],
    pub checking: bool,
    pub written: Vec<u8>,
    pub diagnostics: Vec<ExecDiagnostic>,
    pub dropped: usize,
    /// Pixel shaders: the invocation ran a `discard` that took effect.
    pub discarded: bool,
    /// Pixel shaders: the invocation is a helper pixel (see [`Ctx::helper`]).
    pub helper: bool,
}

/// How an invocation ended.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Ended {
    pub emitted: u32,
    pub hit_max: bool,
}

/// Where a suspended invocation stands (compute shaders stop at thread-group
/// barriers): the next instruction, the call depth (the return addresses are
/// [`Core::stack`]`[..depth]`) and the instructions executed so far.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Resume {
    pub pc: u32,
    pub depth: u32,
    pub steps: u64,
}

/// Why [`Core::run_at`] returned.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Stop {
    /// The invocation ended.
    End(Ended),
    /// It reached the thread-group barrier (`sync_*_t`) at instruction `pc` (of the
    /// compiled code); [`Resume`] holds where to go on.
    Barrier { pc: u32 },
    /// It reached a quad operation (pixel shaders: a derivative, an implicit-LOD
    /// sample, `lod`) at instruction `pc`, which the quad computes; [`Resume`] holds
    /// where to go on after it.
    Quad { pc: u32 },
}

static ZERO: [u32; 4] = [0; 4];

/// `_sat` on four components. Out of line and cold, so that the compiler does not
/// compute it where `_sat` is not asked for.
#[cold]
#[inline(never)]
fn sat4(v: [u32; 4]) -> [u32; 4] {
    [alu::sat(v[0]), alu::sat(v[1]), alu::sat(v[2]), alu::sat(v[3])]
}

#[inline(always)]
fn map4(v: [u32; 4], f: impl Fn(u32) -> u32) -> [u32; 4] {
    [f(v[0]), f(v[1]), f(v[2]), f(v[3])]
}

#[inline(always)]
fn zip4(a: [u32; 4], b: [u32; 4], f: impl Fn(u32, u32) -> u32) -> [u32; 4] {
    [f(a[0], b[0]), f(a[1], b[1]), f(a[2], b[2]), f(a[3], b[3])]
}

#[inline(always)]
fn zip34(a: [u32; 4], b: [u32; 4], c: [u32; 4], f: impl Fn(u32, u32, u32) -> u32) -> [u32; 4] {
    [f(a[0], b[0], c[0]), f(a[1], b[1], c[1]), f(a[2], b[2], c[2]), f(a[3], b[3], c[3])]
}

#[inline(always)]
pub(crate) fn cb_ref<'s>(res: &'s Resources<'_>, slot: u32, e: u32) -> &'s [u32; 4] {
    match res.constant_buffers.get(slot as usize) {
        Some(Some(cb)) => cb.get(e as usize).unwrap_or(&ZERO),
        _ => &ZERO,
    }
}

/// The doubles of a (swizzled) source: `.xy` and `.zw`.
#[inline(always)]
fn dd(v: [u32; 4]) -> [f64; 2] {
    [alu::d(v[0], v[1]), alu::d(v[2], v[3])]
}

#[inline(always)]
fn dwords(r: [f64; 2]) -> [u32; 4] {
    let (a, b) = alu::d_words(r[0]);
    let (c, d) = alu::d_words(r[1]);
    [a, b, c, d]
}

/// Scatters two 32-bit results to the first two components of a destination mask
/// (the rule of double comparisons and double-to-32-bit conversions).
#[inline]
fn scatter2(mask: u8, r: [u32; 2]) -> [u32; 4] {
    let mut out = [0; 4];
    let mut k = 0;
    for (c, o) in out.iter_mut().enumerate() {
        if mask & (1 << c) != 0 {
            *o = r[k.min(1)];
            k += 1;
        }
    }
    out
}

/// Component `k` of a source after swizzle and modifiers: the float modifiers are
/// masks (`_abs` clears the sign, `-` flips it), the integer ones too (`(v ^ m) - m`
/// with `m` all ones negates; with `m` the sign, takes the absolute value).
#[inline(always)]
fn modified(r: &[u32; 4], s: &Src, k: usize) -> u32 {
    let v = r[s.comp(k)];
    let (and, xor) = s.fmask(k);
    let v = (v & and) ^ xor;
    let (iabs, ineg) = s.imask();
    let a = ((v as i32 >> 31) as u32) & iabs;
    let v = (v ^ a).wrapping_sub(a);
    (v ^ ineg).wrapping_sub(ineg)
}

/// Swizzle and modifiers of a source.
#[inline(always)]
pub(crate) fn general(r: &[u32; 4], s: &Src) -> [u32; 4] {
    // (No `[_; 4].map` here: it is not always inlined.)
    [modified(r, s, 0), modified(r, s, 1), modified(r, s, 2), modified(r, s, 3)]
}

/// `_sat` of flushed floats, without branches.
#[inline(always)]
fn sat_inline(v: [u32; 4]) -> [u32; 4] {
    map4(v, |b| {
        let f = f32::from_bits(b);
        if f > 0.0 {
            if f >= 1.0 {
                0x3f80_0000
            } else {
                b
            }
        } else {
            0
        }
    })
}

/// Source classes of the handler variants: every source a register read as it is;
/// every source read as it is (registers, constant buffers, relative indices); any.
const PLAIN_REG: u8 = 2;
const PLAIN: u8 = 1;
const ANY: u8 = 0;

fn src_class(srcs: &[Src]) -> u8 {
    if srcs.iter().all(|s| s.plain() && s.kind == SrcKind::Reg) {
        PLAIN_REG
    } else if srcs.iter().all(|s| s.plain()) {
        PLAIN
    } else {
        ANY
    }
}

/// Destination classes of the handler variants.
const WHOLE: u8 = 0;
const SINGLE: u8 = 1;
const GENERAL: u8 = 2;

fn dst_class(d: &Dst) -> u8 {
    if d.kind == DstKind::Reg && d.mask == 15 {
        WHOLE
    } else if d.kind == DstKind::Reg && d.mask.count_ones() == 1 {
        SINGLE
    } else {
        GENERAL
    }
}

impl Ctx<'_, '_> {
    #[inline(always)]
    fn reg_ref(&self, i: u32) -> &[u32; 4] {
        self.regs.get(i as usize).unwrap_or(&ZERO)
    }

    #[inline(always)]
    fn comp(&self, i: u32, c: u8) -> u32 {
        self.reg_ref(i)[c as usize & 3]
    }

    /// The register (or constant-buffer vector) of a source that is not a plain register.
    #[inline(always)]
    fn src_ref_other(&self, s: &Src) -> &[u32; 4] {
        if s.kind == SrcKind::Cb {
            return cb_ref(self.res, s.slot as u32, s.reg);
        }
        let Some(r) = self.rels.get(s.reg as usize) else { return &ZERO };
        let i = r.imm.wrapping_add(self.comp(r.rel, r.rel_c));
        if s.kind == SrcKind::CbDyn {
            let Some(e) = self.rels.get(s.reg as usize + 1) else { return &ZERO };
            let slot = declared_or_unbound(self.declared.cb, i);
            return cb_ref(self.res, slot, e.imm.wrapping_add(self.comp(e.rel, e.rel_c)));
        }
        if s.kind == SrcKind::CbRel {
            cb_ref(self.res, s.slot as u32, i)
        } else if i < r.count {
            self.reg_ref(r.base.wrapping_add(i.wrapping_mul(r.stride)))
        } else {
            &ZERO
        }
    }

    /// The register (or constant-buffer vector) a source reads.
    #[inline(always)]
    fn ptr(&self, s: &Src) -> &[u32; 4] {
        if s.kind == SrcKind::Reg {
            self.reg_ref(s.reg)
        } else {
            self.src_ref_other(s)
        }
    }

    /// Reads a source operand: fetch, swizzle, modifiers.
    #[inline(always)]
    pub(crate) fn rd(&self, s: &Src) -> [u32; 4] {
        general(self.ptr(s), s)
    }

    /// Reads a source operand of a handler variant: `P` says whether every source of
    /// the instruction is read as it is ([`PLAIN`]), and from a register
    /// ([`PLAIN_REG`]).
    #[inline(always)]
    fn get<const P: u8>(&self, s: &Src) -> [u32; 4] {
        if P == PLAIN_REG {
            *self.reg_ref(s.reg)
        } else if P == PLAIN {
            *self.ptr(s)
        } else {
            general(self.ptr(s), s)
        }
    }

    /// Writes through a destination of class `D`.
    #[inline(always)]
    fn put<const D: u8>(&mut self, d: &Dst, v: [u32; 4]) {
        if D == GENERAL {
            return self.wr(d, v);
        }
        if let Some(r) = self.regs.get_mut(d.reg as usize) {
            if D == WHOLE {
                *r = v;
            } else {
                let k = d.comp();
                r[k] = v[k];
            }
        }
        if d.out && self.checking {
            if let Some(w) = self.written.get_mut(d.reg as usize) {
                *w |= d.mask;
            }
        }
    }

    /// Component `k` of a source operand (after swizzle and modifiers), for handler
    /// variants whose destination has one component: the operation is then computed
    /// for that component only.
    #[inline(always)]
    fn get1<const P: u8>(&self, s: &Src, k: usize) -> u32 {
        if P == PLAIN_REG {
            return self.reg_ref(s.reg)[k];
        }
        let r = self.ptr(s);
        if P == PLAIN {
            r[k]
        } else {
            modified(r, s, k)
        }
    }

    /// Writes the one component of a destination of class [`SINGLE`].
    #[inline(always)]
    fn put1(&mut self, d: &Dst, v: u32) {
        if let Some(r) = self.regs.get_mut(d.reg as usize) {
            r[d.comp()] = v;
        }
        if d.out && self.checking {
            if let Some(w) = self.written.get_mut(d.reg as usize) {
                *w |= d.mask;
            }
        }
    }

    /// Writes `v` through a destination's mask (a blend with the register's value:
    /// the value stays in vector registers; single-component destinations have their
    /// own handler variants, which store just the component).
    #[inline(always)]
    fn wr(&mut self, d: &Dst, v: [u32; 4]) {
        let i = if d.kind == DstKind::Reg {
            d.reg
        } else if d.kind == DstKind::Null {
            return;
        } else {
            let Some(r) = self.rels.get(d.reg as usize) else { return };
            let e = r.imm.wrapping_add(self.comp(r.rel, r.rel_c));
            if e >= r.count {
                return;
            }
            r.base.wrapping_add(e.wrapping_mul(r.stride))
        };
        if let Some(r) = self.regs.get_mut(i as usize) {
            let m = [d.wm(0), d.wm(1), d.wm(2), d.wm(3)];
            *r = [
                (v[0] & m[0]) | (r[0] & !m[0]),
                (v[1] & m[1]) | (r[1] & !m[1]),
                (v[2] & m[2]) | (r[2] & !m[2]),
                (v[3] & m[3]) | (r[3] & !m[3]),
            ];
        }
        if d.out && self.checking {
            if let Some(w) = self.written.get_mut(i as usize) {
                *w |= d.mask;
            }
        }
    }

    /// Writes a float result: flushed, saturated if asked (without a branch, which
    /// would send the value through memory).
    #[inline(always)]
    pub(crate) fn wf(&mut self, x: &Inst, k: usize, v: [u32; 4]) {
        let v = map4(v, alu::result);
        let s = sat_inline(v);
        let m = if x.sat() { u32::MAX } else { 0 };
        let v = zip4(s, v, |s, v| (s & m) | (v & !m));
        self.wr(&x.dst[k], v);
    }

    /// The condition of a conditional instruction: true when `src0.x != 0` matches `_nz`.
    #[inline(always)]
    fn cond(&self, x: &Inst) -> bool {
        (self.rd(&x.src[0])[0] != 0) == x.nz()
    }

    /// Two results per component (imul, umul, udiv, uaddc, usubb).
    #[inline(always)]
    fn i2x2(&mut self, x: &Inst, f: impl Fn(u32, u32) -> (u32, u32)) {
        let a = self.rd(&x.src[0]);
        let b = self.rd(&x.src[1]);
        let mut r0 = [0; 4];
        let mut r1 = [0; 4];
        for c in 0..4 {
            (r0[c], r1[c]) = f(a[c], b[c]);
        }
        self.wr(&x.dst[0], r0);
        self.wr(&x.dst[1], r1);
    }

    /// A double result (`.xy`, `.zw`), `_sat` honoured.
    #[inline]
    fn wd(&mut self, x: &Inst, r: [f64; 2]) {
        let r = if x.sat() { [alu::dsat(r[0]), alu::dsat(r[1])] } else { r };
        self.wr(&x.dst[0], dwords(r));
    }

    #[inline]
    fn d2(&mut self, x: &Inst, f: impl Fn(f64, f64) -> f64) {
        let a = dd(self.rd(&x.src[0]));
        let b = dd(self.rd(&x.src[1]));
        self.wd(x, [f(a[0], b[0]), f(a[1], b[1])]);
    }

    #[inline]
    fn dcmp(&mut self, x: &Inst, f: impl Fn(f64, f64) -> bool) {
        let a = dd(self.rd(&x.src[0]));
        let b = dd(self.rd(&x.src[1]));
        let r = [alu::mask(f(a[0], b[0])), alu::mask(f(a[1], b[1]))];
        self.wr(&x.dst[0], scatter2(x.dst[0].mask, r));
    }
}

/// Picks the variant of a generic handler for an instruction: `P` (the class of its
/// first `n` sources), `D` (the class of its first destination) and `S` (`_sat`).
macro_rules! pick_pds {
    ($f:ident, $x:expr, $n:expr) => {{
        macro_rules! by_d {
            ($p:expr) => {
                match (dst_class(&$x.dst[0]), $x.sat()) {
                    (WHOLE, false) => $f::<{ $p }, WHOLE, false> as Handler,
                    (WHOLE, true) => $f::<{ $p }, WHOLE, true> as Handler,
                    (SINGLE, false) => $f::<{ $p }, SINGLE, false> as Handler,
                    (SINGLE, true) => $f::<{ $p }, SINGLE, true> as Handler,
                    (_, false) => $f::<{ $p }, GENERAL, false> as Handler,
                    (_, true) => $f::<{ $p }, GENERAL, true> as Handler,
                }
            };
        }
        match src_class(&$x.src[..$n]) {
            PLAIN_REG => by_d!(PLAIN_REG),
            PLAIN => by_d!(PLAIN),
            _ => by_d!(ANY),
        }
    }};
}

/// As [`pick_pds`], for handlers without `_sat` (integer results).
macro_rules! pick_pd {
    ($f:ident, $x:expr, $n:expr) => {{
        macro_rules! by_d {
            ($p:expr) => {
                match dst_class(&$x.dst[0]) {
                    WHOLE => $f::<{ $p }, WHOLE> as Handler,
                    SINGLE => $f::<{ $p }, SINGLE> as Handler,
                    _ => $f::<{ $p }, GENERAL> as Handler,
                }
            };
        }
        match src_class(&$x.src[..$n]) {
            PLAIN_REG => by_d!(PLAIN_REG),
            PLAIN => by_d!(PLAIN),
            _ => by_d!(ANY),
        }
    }};
}

/// A float result component: flushed, saturated when `S`.
#[inline(always)]
fn fres<const S: bool>(v: f32) -> u32 {
    let v = alu::bits(v);
    if S {
        alu::sat(v)
    } else {
        v
    }
}

/// An operation of the semantics table (`alu_semantics`) of one source: `f` per
/// component (on the sources' bits, after swizzle and modifiers), `_sat` when `S`.
#[inline(always)]
fn op1<const P: u8, const D: u8, const S: bool>(c: &mut Ctx<'_, '_>, x: &Inst, f: impl Fn(u32) -> u32) {
    if D == SINGLE {
        let k = x.dst[0].comp();
        let r = f(c.get1::<P>(&x.src[0], k));
        return c.put1(&x.dst[0], if S { alu::sat(r) } else { r });
    }
    let v = map4(c.get::<P>(&x.src[0]), f);
    c.put::<D>(&x.dst[0], if S { sat_inline(v) } else { v });
}

/// [`op1`] of two sources.
#[inline(always)]
fn op2<const P: u8, const D: u8, const S: bool>(c: &mut Ctx<'_, '_>, x: &Inst, f: impl Fn(u32, u32) -> u32) {
    if D == SINGLE {
        let k = x.dst[0].comp();
        let r = f(c.get1::<P>(&x.src[0], k), c.get1::<P>(&x.src[1], k));
        return c.put1(&x.dst[0], if S { alu::sat(r) } else { r });
    }
    let v = zip4(c.get::<P>(&x.src[0]), c.get::<P>(&x.src[1]), f);
    c.put::<D>(&x.dst[0], if S { sat_inline(v) } else { v });
}

/// [`op1`] of three sources.
#[inline(always)]
fn op3<const P: u8, const D: u8, const S: bool>(c: &mut Ctx<'_, '_>, x: &Inst, f: impl Fn(u32, u32, u32) -> u32) {
    if D == SINGLE {
        let k = x.dst[0].comp();
        let r = f(c.get1::<P>(&x.src[0], k), c.get1::<P>(&x.src[1], k), c.get1::<P>(&x.src[2], k));
        return c.put1(&x.dst[0], if S { alu::sat(r) } else { r });
    }
    let v = zip34(c.get::<P>(&x.src[0]), c.get::<P>(&x.src[1]), c.get::<P>(&x.src[2]), f);
    c.put::<D>(&x.dst[0], if S { sat_inline(v) } else { v });
}

/// The callback of [`super::alu_semantics`] that makes the table's handlers: for each
/// operation a handler generic over the operand shapes (`P`, `D`, and `S` for float
/// results), picked by [`table_handler`].
macro_rules! scalar_alu {
    ($( [$($op:ident)|+] $kind:ident $cost:ident ($($arg:ident),+) => $body:expr; )*) => {
        /// The handler of an operation of the semantics table.
        fn table_handler(x: &Inst) -> Handler {
            match x.op {
                $( $(Op::$op)|+ => scalar_alu!(@pick x $kind ($($arg),+) $body), )*
                _ => nop,
            }
        }
    };
    (@pick $x:ident float ($($arg:ident),+) $body:expr) => {{
        fn h<const P: u8, const D: u8, const S: bool>(c: &mut Ctx<'_, '_>, x: &Inst) {
            scalar_alu!(@run c x P D S ($($arg),+) $body)
        }
        pick_pds!(h, $x, scalar_alu!(@n $($arg),+))
    }};
    (@pick $x:ident bits ($($arg:ident),+) $body:expr) => {{
        fn h<const P: u8, const D: u8>(c: &mut Ctx<'_, '_>, x: &Inst) {
            scalar_alu!(@run c x P D false ($($arg),+) $body)
        }
        pick_pd!(h, $x, scalar_alu!(@n $($arg),+))
    }};
    (@run $c:ident $x:ident $p:ident $d:ident $s:tt ($a:ident) $body:expr) => {
        op1::<$p, $d, $s>($c, $x, |$a: u32| $body)
    };
    (@run $c:ident $x:ident $p:ident $d:ident $s:tt ($a:ident, $b:ident) $body:expr) => {
        op2::<$p, $d, $s>($c, $x, |$a: u32, $b: u32| $body)
    };
    (@run $c:ident $x:ident $p:ident $d:ident $s:tt ($a:ident, $b:ident, $e:ident) $body:expr) => {
        op3::<$p, $d, $s>($c, $x, |$a: u32, $b: u32, $e: u32| $body)
    };
    (@n $a:ident) => { 1 };
    (@n $a:ident, $b:ident) => { 2 };
    (@n $a:ident, $b:ident, $e:ident) => { 3 };
}
super::alu_semantics!(scalar_alu);

/// `dp2`/`dp3`/`dp4`: left-to-right sum of products.
fn h_dot<const N: usize, const P: u8, const D: u8, const S: bool>(c: &mut Ctx<'_, '_>, x: &Inst) {
    let a = c.get::<P>(&x.src[0]);
    let b = c.get::<P>(&x.src[1]);
    let mut s = alu::dp_first(a[0], b[0]);
    for k in 1..N {
        s = alu::dp_step(s, a[k], b[k]);
    }
    let r = fres::<S>(s);
    if D == SINGLE {
        c.put1(&x.dst[0], r);
    } else {
        c.put::<D>(&x.dst[0], [r; 4]);
    }
}
fn h_dp2<const P: u8, const D: u8, const S: bool>(c: &mut Ctx<'_, '_>, x: &Inst) {
    h_dot::<2, P, D, S>(c, x)
}
fn h_dp3<const P: u8, const D: u8, const S: bool>(c: &mut Ctx<'_, '_>, x: &Inst) {
    h_dot::<3, P, D, S>(c, x)
}
fn h_dp4<const P: u8, const D: u8, const S: bool>(c: &mut Ctx<'_, '_>, x: &Inst) {
    h_dot::<4, P, D, S>(c, x)
}

/// `mov` moves bits; `_sat` reads them as floats.
fn h_mov<const P: u8, const D: u8, const S: bool>(c: &mut Ctx<'_, '_>, x: &Inst) {
    if D == SINGLE {
        let k = x.dst[0].comp();
        let a = c.get1::<P>(&x.src[0], k);
        return c.put1(&x.dst[0], if S { alu::sat(a) } else { a });
    }
    let a = c.get::<P>(&x.src[0]);
    let a = if S { sat_inline(ftz4(a)) } else { a };
    c.put::<D>(&x.dst[0], a);
}

fn h_movc<const P: u8, const D: u8, const S: bool>(c: &mut Ctx<'_, '_>, x: &Inst) {
    if D == SINGLE {
        let k = x.dst[0].comp();
        let v = alu::movc(c.get1::<P>(&x.src[0], k), c.get1::<P>(&x.src[1], k), c.get1::<P>(&x.src[2], k));
        return c.put1(&x.dst[0], if S { alu::sat(v) } else { v });
    }
    let k = c.get::<P>(&x.src[0]);
    let a = c.get::<P>(&x.src[1]);
    let b = c.get::<P>(&x.src[2]);
    let v = zip34(k, a, b, alu::movc);
    let v = if S { sat_inline(ftz4(v)) } else { v };
    c.put::<D>(&x.dst[0], v);
}

/// The handler of a complete instruction.
pub(crate) fn handler(x: &Inst) -> Handler {
    match x.op {
        super::alu_semantics!(table_ops) => table_handler(x),
        Op::Dp2 => pick_pds!(h_dp2, x, 2),
        Op::Dp3 => pick_pds!(h_dp3, x, 2),
        Op::Dp4 => pick_pds!(h_dp4, x, 2),
        Op::Mov => pick_pds!(h_mov, x, 1),
        Op::Movc => pick_pds!(h_movc, x, 3),
        Op::SinCos => |c, x| {
            let a = c.rd(&x.src[0]);
            if x.dst[0].kind != DstKind::Null {
                c.wf(x, 0, map4(a, alu::sin));
            }
            if x.dst[1].kind != DstKind::Null {
                c.wf(x, 1, map4(a, alu::cos));
            }
        },
        Op::Swapc => |c, x| {
            let k = c.rd(&x.src[0]);
            let a = c.rd(&x.src[1]);
            let b = c.rd(&x.src[2]);
            let d0 = zip34(k, b, a, alu::movc);
            let d1 = zip34(k, a, b, alu::movc);
            c.wr(&x.dst[0], d0);
            c.wr(&x.dst[1], d1);
        },
        Op::Imul => |c, x| c.i2x2(x, alu::imul),
        Op::Umul => |c, x| c.i2x2(x, alu::umul),
        Op::Udiv => |c, x| c.i2x2(x, alu::udiv),
        Op::Uaddc => |c, x| c.i2x2(x, alu::uaddc),
        Op::Usubb => |c, x| c.i2x2(x, alu::usubb),
        Op::Bfi => |c, x| {
            let a = c.rd(&x.src[0]);
            let b = c.rd(&x.src[1]);
            let d = c.rd(&x.src[2]);
            let e = c.rd(&x.src[3]);
            let v = [
                alu::bfi(a[0], b[0], d[0], e[0]),
                alu::bfi(a[1], b[1], d[1], e[1]),
                alu::bfi(a[2], b[2], d[2], e[2]),
                alu::bfi(a[3], b[3], d[3], e[3]),
            ];
            c.wr(&x.dst[0], v);
        },
        Op::Dadd => |c, x| c.d2(x, |a, b| a + b),
        Op::Dmul => |c, x| c.d2(x, |a, b| a * b),
        Op::Ddiv => |c, x| c.d2(x, |a, b| a / b),
        Op::Dmin => |c, x| c.d2(x, alu::dmin),
        Op::Dmax => |c, x| c.d2(x, alu::dmax),
        Op::Dfma => |c, x| {
            let a = dd(c.rd(&x.src[0]));
            let b = dd(c.rd(&x.src[1]));
            let d = dd(c.rd(&x.src[2]));
            c.wd(x, [a[0].mul_add(b[0], d[0]), a[1].mul_add(b[1], d[1])]);
        },
        Op::Drcp => |c, x| {
            let a = dd(c.rd(&x.src[0]));
            c.wd(x, [1.0 / a[0], 1.0 / a[1]]);
        },
        Op::Dmov => |c, x| {
            let a = c.rd(&x.src[0]);
            if x.sat() {
                c.wd(x, dd(a));
            } else {
                c.wr(&x.dst[0], a);
            }
        },
        Op::Dmovc => |c, x| {
            let k = c.rd(&x.src[0]);
            let a = c.rd(&x.src[1]);
            let b = c.rd(&x.src[2]);
            let lo = if k[0] != 0 { [a[0], a[1]] } else { [b[0], b[1]] };
            let hi = if k[1] != 0 { [a[2], a[3]] } else { [b[2], b[3]] };
            let v = [lo[0], lo[1], hi[0], hi[1]];
            if x.sat() {
                c.wd(x, dd(v));
            } else {
                c.wr(&x.dst[0], v);
            }
        },
        Op::Deq => |c, x| c.dcmp(x, |a, b| a == b),
        Op::Dge => |c, x| c.dcmp(x, |a, b| a >= b),
        Op::Dlt => |c, x| c.dcmp(x, |a, b| a < b),
        Op::Dne => |c, x| c.dcmp(x, |a, b| a != b),
        Op::Dtof => |c, x| {
            let a = dd(c.rd(&x.src[0]));
            let v = scatter2(x.dst[0].mask, [alu::dtof(a[0]), alu::dtof(a[1])]);
            let v = if x.sat() { sat4(v) } else { v };
            c.wr(&x.dst[0], v);
        },
        Op::Dtoi => |c, x| {
            let a = dd(c.rd(&x.src[0]));
            c.wr(&x.dst[0], scatter2(x.dst[0].mask, [alu::dtoi(a[0]), alu::dtoi(a[1])]));
        },
        Op::Dtou => |c, x| {
            let a = dd(c.rd(&x.src[0]));
            c.wr(&x.dst[0], scatter2(x.dst[0].mask, [alu::dtou(a[0]), alu::dtou(a[1])]));
        },
        Op::Ftod => |c, x| {
            let a = c.rd(&x.src[0]);
            c.wd(x, [alu::ftod(a[0]), alu::ftod(a[1])]);
        },
        Op::Itod => |c, x| {
            let a = c.rd(&x.src[0]);
            c.wd(x, [a[0] as i32 as f64, a[1] as i32 as f64]);
        },
        Op::Utod => |c, x| {
            let a = c.rd(&x.src[0]);
            c.wd(x, [a[0] as f64, a[1] as f64]);
        },
        Op::Ld | Op::LdUavTyped => |c, x| {
            let r = rop(c, x);
            let v = res::load(c.res, &r, c.rd(&x.src[0]));
            res_out(c, x, &r, v, false);
        },
        Op::LdRaw => |c, x| {
            let r = rop(c, x);
            let v = if r.tgsm {
                tgsm::load(c.tgsm, &r, c.rd(&x.src[0]), [0; 4])
            } else {
                res::ld_raw(c.res, &r, c.rd(&x.src[0]))
            };
            res_out(c, x, &r, v, false);
        },
        Op::LdStructured => |c, x| {
            let r = rop(c, x);
            let v = if r.tgsm {
                tgsm::load(c.tgsm, &r, c.rd(&x.src[0]), c.rd(&x.src[1]))
            } else {
                res::ld_structured(c.res, &r, c.rd(&x.src[0]), c.rd(&x.src[1]))
            };
            res_out(c, x, &r, v, false);
        },
        Op::ResInfo => |c, x| {
            let r = rop(c, x);
            let v = res::resinfo(c.res, &r, c.rd(&x.src[0])[0]);
            res_out(c, x, &r, v, false);
        },
        Op::BufInfo => |c, x| {
            let r = rop(c, x);
            let v = res::bufinfo(c.res, &r);
            res_out(c, x, &r, v, false);
        },
        Op::SampleL => |c, x| {
            let r = rop(c, x);
            let lod = res::Lod::Given(alu::f(c.rd(&x.src[1])[0]));
            let v = res::sample(c.res, &r, c.rd(&x.src[0]), lod, None);
            res_out(c, x, &r, v, true);
        },
        Op::SampleCLz => |c, x| {
            let r = rop(c, x);
            let reference = alu::f(c.rd(&x.src[2])[0]);
            let v = res::sample(c.res, &r, c.rd(&x.src[0]), res::Lod::Given(0.0), Some(reference));
            res_out(c, x, &r, v, true);
        },
        Op::SampleD => |c, x| {
            let r = rop(c, x);
            let clamp = r.clamp.then(|| alu::f(c.rd(&x.src[3])[0]));
            let lod = res::Lod::Gradients(c.rd(&x.src[1]).map(alu::f), c.rd(&x.src[2]).map(alu::f), clamp);
            let v = res::sample(c.res, &r, c.rd(&x.src[0]), lod, None);
            res_out(c, x, &r, v, true);
        },
        Op::Gather4 => |c, x| {
            let r = rop(c, x);
            let reference = alu::f(c.rd(&x.src[2])[0]);
            let v = res::gather4(c.res, &r, c.rd(&x.src[0]), c.rd(&x.src[1]), reference);
            res_out(c, x, &r, v, true);
        },
        Op::LdMs => |c, x| {
            let r = rop(c, x);
            let v = res::ldms(c.res, &r, c.rd(&x.src[0]), c.rd(&x.src[1])[0]);
            res_out(c, x, &r, v, false);
        },
        Op::SampleInfo => |c, x| {
            let r = rop(c, x);
            let v = res::sample_info(c.res, &r);
            res_out(c, x, &r, v, false);
        },
        Op::SamplePos => |c, x| {
            let r = rop(c, x);
            let v = res::sample_pos(c.res, &r, c.rd(&x.src[0])[0]);
            res_out(c, x, &r, v, false);
        },
        Op::CheckAccess => |c, x| {
            let v = [alu::mask(c.rd(&x.src[0])[0] != 0); 4];
            c.wr(&x.dst[0], v);
        },
        Op::StoreUavTyped => |c, x| {
            if c.helper {
                return;
            }
            let r = rop(c, x);
            res::store_typed(c.res, &r, c.rd(&x.src[0]), c.rd(&x.src[1]));
        },
        Op::StoreRaw => |c, x| {
            let r = rop(c, x);
            if r.tgsm {
                tgsm::store(c.tgsm, &r, c.rd(&x.src[0]), [0; 4], c.rd(&x.src[1]));
            } else if !c.helper {
                res::store_raw(c.res, &r, c.rd(&x.src[0]), c.rd(&x.src[1]));
            }
        },
        Op::StoreStructured => |c, x| {
            let r = rop(c, x);
            if r.tgsm {
                tgsm::store(c.tgsm, &r, c.rd(&x.src[0]), c.rd(&x.src[1]), c.rd(&x.src[2]));
            } else if !c.helper {
                res::store_structured(c.res, &r, c.rd(&x.src[0]), c.rd(&x.src[1]), c.rd(&x.src[2]));
            }
        },
        Op::Atomic => |c, x| {
            let r = rop(c, x);
            if r.tgsm {
                tgsm::atomic(c.tgsm, &r, c.rd(&x.src[0]), c.rd(&x.src[1]), c.rd(&x.src[2]));
            } else if !c.helper {
                res::atomic(c.res, &r, c.rd(&x.src[0]), c.rd(&x.src[1]), c.rd(&x.src[2]));
            }
        },
        Op::ImmAtomic => |c, x| {
            let r = rop(c, x);
            let old = if r.tgsm {
                tgsm::atomic(c.tgsm, &r, c.rd(&x.src[0]), c.rd(&x.src[1]), c.rd(&x.src[2]))
            } else if c.helper {
                0
            } else {
                res::atomic(c.res, &r, c.rd(&x.src[0]), c.rd(&x.src[1]), c.rd(&x.src[2]))
            };
            c.wr(&x.dst[0], [old; 4]);
        },
        Op::ImmAtomicAlloc => |c, x| {
            let r = rop(c, x);
            let old = if c.helper { 0 } else { res::counter(c.res, &r, true) };
            c.wr(&x.dst[0], [old; 4]);
        },
        Op::ImmAtomicConsume => |c, x| {
            let r = rop(c, x);
            let new = if c.helper { 0 } else { res::counter(c.res, &r, false) };
            c.wr(&x.dst[0], [new; 4]);
        },
        // Flow control and geometry output run in the loop.
        Op::Jmp
        | Op::JmpIf
        | Op::Switch
        | Op::Call
        | Op::CallIf
        | Op::FCall
        | Op::Ret
        | Op::RetIf
        | Op::Emit
        | Op::Cut
        | Op::EmitCut
        | Op::Sync
        | Op::Deriv
        | Op::SampleQuad
        | Op::LodQuad
        | Op::Eval
        | Op::Discard
        | Op::Abort => nop,
    }
}

/// A resource instruction's operands.
#[inline(always)]
pub(crate) fn rop(c: &Ctx<'_, '_>, x: &Inst) -> ResOp {
    let mut r = c.rops.get(x.a as usize).copied().unwrap_or(ResOp::NONE);
    if r.slot_rel != NO_REL || r.sampler_rel != NO_REL {
        uniform_slots(c, &mut r);
    }
    r
}

/// The slots of a uniformly indexed resource or sampler (`t[r0.w + 2]`): the immediate
/// part plus the register component (functional spec 7.11). A slot the program does
/// not declare (or past the API's) reads as unbound, whatever is bound there, unless
/// it is one a class instance names: `this[s].z + k` for a texture, `this[s].w + k` for
/// a sampler, over the program's interface slots `s` and the operand's immediate `k`
/// (the class's own textures and samplers, which fxc leaves undeclared; `translate`
/// switches over the same slots).
#[cold]
fn uniform_slots(c: &Ctx<'_, '_>, r: &mut ResOp) {
    let at = |e: u32| c.rels.get(e as usize).map(|x| (x.imm, x.imm.wrapping_add(c.comp(x.rel, x.rel_c))));
    let named = |word: usize, k: u32, slot: u32| {
        (0..c.declared.interface_slots).any(|s| c.res.class_instances.this(s)[word].wrapping_add(k) == slot)
    };
    if let Some((k, slot)) = at(r.slot_rel) {
        r.slot = if r.uav {
            declared_or_unbound(c.declared.uav, slot)
        } else if named(2, k, slot) {
            slot
        } else {
            declared_or_unbound(c.declared.srv, slot)
        };
    }
    if let Some((k, slot)) = at(r.sampler_rel) {
        r.sampler = if named(3, k, slot) { slot } else { declared_or_unbound(c.declared.sampler, slot) };
    }
}

/// Where `fcall` goes: the compiled instruction of the body the bound class instance
/// chooses, or `None` for a register index beyond the interface's slots (functional
/// spec 22.7.19 leaves it undefined; here the call does nothing).
fn fcall_target(c: &Ctx<'_, '_>, code: &Code, x: &Inst) -> Result<Option<u32>, ExecErrorKind> {
    let Some(f) = code.fcalls.get(x.a as usize) else { return Ok(None) };
    let k = if f.dynamic { f.imm.wrapping_add(c.rd(&x.src[0])[0]) } else { f.imm };
    if f.dynamic && k >= f.array_length {
        return Ok(None);
    }
    let body = code.interfaces.call(&c.res.class_instances, f.fp, k, f.site).map_err(ExecErrorKind::ClassInstance)?;
    match code.bodies.get(&body) {
        Some(&pc) => Ok(Some(pc)),
        None => Err(ExecErrorKind::Malformed(format!("fb{body} has no label"))),
    }
}

/// The end of a load, query or sample: the resource operand's swizzle, `_sat` where
/// the instruction honours it (`sat`: samples and gathers), the tiled-resource
/// status of the `_s` forms (always fully mapped).
#[inline(always)]
pub(crate) fn res_out(c: &mut Ctx<'_, '_>, x: &Inst, r: &ResOp, v: [u32; 4], sat: bool) {
    let w = |k: usize| (r.swz >> (2 * k)) as usize & 3;
    let v = [v[w(0)], v[w(1)], v[w(2)], v[w(3)]];
    let v = if sat && x.sat() { sat4(ftz4(v)) } else { v };
    c.wr(&x.dst[0], v);
    if r.feedback {
        c.wr(&x.dst[1], [1; 4]);
    }
}

/// The handler of instructions the loop runs itself.
pub(crate) fn nop(_: &mut Ctx<'_, '_>, _: &Inst) {}

impl Core {
    pub fn new() -> Core {
        Core {
            regs: Vec::new(),
            loaded: 0,
            stack: [0; CALL_DEPTH as usize],
            checking: false,
            written: Vec::new(),
            diagnostics: Vec::new(),
            dropped: 0,
            discarded: false,
            helper: false,
        }
    }

    /// Sizes the register file for `code` and loads its constants (once per code).
    #[inline(always)]
    pub fn load(&mut self, code: &Code) {
        if self.loaded != code.id {
            self.load_code(code);
        }
    }

    #[cold]
    #[inline(never)]
    fn load_code(&mut self, code: &Code) {
        let l = &code.layout;
        self.regs.clear();
        self.regs.resize(l.size as usize, [0; 4]);
        let z = l.zero as usize;
        let n = code.constants.len().min(self.regs.len().saturating_sub(z));
        self.regs[z..z + n].copy_from_slice(&code.constants[..n]);
        self.written.clear();
        self.written.resize(l.outputs as usize, 0);
        self.loaded = code.id;
    }

    /// Clears the writable registers, copies `inputs` in and sets the system values.
    #[inline]
    pub fn start(&mut self, code: &Code, inputs: &[[u32; 4]], prim: u32, instance: u32) {
        self.load(code);
        let l = &code.layout;
        let w = (l.writable as usize).min(self.regs.len());
        self.regs[..w].fill([0; 4]);
        let base = l.inputs_base as usize;
        let len = (l.inputs as usize).min(self.regs.len().saturating_sub(base));
        let dst = &mut self.regs[base..base + len];
        let n = inputs.len().min(len);
        dst[..n].copy_from_slice(&inputs[..n]);
        dst[n..].fill([0; 4]);
        if let Some(r) = self.regs.get_mut(l.prim as usize) {
            *r = [prim; 4];
        }
        if let Some(r) = self.regs.get_mut(l.gs_instance as usize) {
            *r = [instance; 4];
        }
        if self.checking {
            self.written.fill(0);
        }
        self.discarded = false;
        self.helper = false;
    }

    /// Fills the `this[]` registers from the class instances bound in `res` (zeros
    /// for an unbound slot).
    #[cold]
    fn load_this(&mut self, code: &Code, res: &Resources<'_>) {
        let l = &code.layout;
        for k in 0..l.this_count {
            if let Some(r) = self.regs.get_mut(l.this_base.wrapping_add(k) as usize) {
                *r = res.class_instances.this(k);
            }
        }
    }

    /// Runs `f` on the handlers' view of this invocation (its registers, `res`).
    pub(crate) fn with_ctx<T>(
        &mut self,
        code: &Code,
        res: &mut Resources<'_>,
        f: impl FnOnce(&mut Ctx<'_, '_>) -> T,
    ) -> T {
        let Core { regs, checking, written, helper, .. } = self;
        let mut c = Ctx {
            regs: regs.as_mut_slice(),
            res,
            rels: &code.rels,
            rops: &code.rops,
            declared: &code.declared,
            written: written.as_mut_slice(),
            checking: *checking,
            tgsm: &mut [],
            helper: *helper,
        };
        f(&mut c)
    }

    fn diagnose(diagnostics: &mut Vec<ExecDiagnostic>, dropped: &mut usize, instruction: usize, message: String) {
        if diagnostics.len() < MAX_DIAGNOSTICS {
            diagnostics.push(ExecDiagnostic { instruction, message });
        } else {
            *dropped += 1;
        }
    }

    /// Runs the code from the start. `sink` receives emits and cuts (geometry shaders).
    pub fn run(
        &mut self,
        code: &Code,
        res: &mut Resources<'_>,
        sink: Option<&mut dyn EmitSink>,
        limit: u64,
    ) -> Result<Ended, ExecError> {
        let mut at = Resume::default();
        match self.run_at(code, res, sink, limit, &mut [], &mut at)? {
            Stop::End(e) => Ok(e),
            // Only compute shaders have barriers (`Op::Sync`).
            Stop::Barrier { pc } => Err(ExecError::at(
                code.origin.get(pc as usize).map_or(0, |&i| i as usize),
                ExecErrorKind::Malformed("a thread-group barrier outside a compute shader".into()),
            )),
            // Only pixel shaders have quad operations, and they run in quads.
            Stop::Quad { pc } => Err(ExecError::at(
                code.origin.get(pc as usize).map_or(0, |&i| i as usize),
                ExecErrorKind::Draw("a pixel shader's quad operation outside a quad".into()),
            )),
        }
    }

    /// Runs the code from `at` (the start: `Resume::default()`), with `tgsm` the thread
    /// group's shared memory, until the invocation ends or reaches a thread-group
    /// barrier; `at` then says where it stands. The step limit counts from the start of
    /// the invocation (`at.steps`).
    #[inline(always)]
    pub fn run_at(
        &mut self,
        code: &Code,
        res: &mut Resources<'_>,
        mut sink: Option<&mut dyn EmitSink>,
        limit: u64,
        tgsm: &mut [u32],
        at_: &mut Resume,
    ) -> Result<Stop, ExecError> {
        let insts = code.insts.as_slice();
        let outputs = (code.layout.outputs as usize).min(self.regs.len());
        let max = code.max_vertex_count;
        if code.layout.this_count > 0 {
            self.load_this(code, res);
        }
        let Core { regs, stack, checking, written, diagnostics, dropped, discarded, helper, .. } = self;
        let mut c = Ctx {
            regs: regs.as_mut_slice(),
            res,
            rels: &code.rels,
            rops: &code.rops,
            declared: &code.declared,
            written: written.as_mut_slice(),
            checking: *checking,
            tgsm,
            helper: *helper,
        };
        let mut pc = at_.pc as usize;
        let mut steps = at_.steps;
        let mut depth = (at_.depth as usize).min(stack.len());
        let mut emitted = 0u32;
        let at = |pc: usize| code.origin.get(pc).map_or(0, |&i| i as usize);
        loop {
            let Some(x) = insts.get(pc) else {
                at_.steps = steps;
                return Ok(Stop::End(Ended { emitted, hit_max: false }));
            };
            if steps >= limit {
                return Err(ExecError::at(at(pc), ExecErrorKind::StepLimit(steps)));
            }
            steps += 1;
            pc += 1;
            if x.op as u8 > Op::Abort as u8 {
                (x.f)(&mut c, x);
                continue;
            }
            match x.op {
                Op::Jmp => pc = x.a as usize,
                Op::JmpIf => {
                    if c.cond(x) {
                        pc = x.a as usize;
                    }
                }
                Op::Switch => {
                    let v = c.rd(&x.src[0])[0];
                    if let Some(t) = code.switches.get(x.a as usize) {
                        pc = t.cases.iter().find(|k| k.0 == v).map_or(t.default, |k| k.1) as usize;
                    }
                }
                Op::Call | Op::CallIf => {
                    if x.op == Op::CallIf && !c.cond(x) {
                        continue;
                    }
                    if depth >= stack.len() {
                        // Spec 7.12: with 32 entries on the return address stack, "the
                        // call is skipped over".
                        continue;
                    }
                    stack[depth] = pc as u32;
                    depth += 1;
                    pc = x.a as usize;
                }
                Op::FCall => {
                    let target = match fcall_target(&c, code, x) {
                        Ok(Some(t)) => t,
                        Ok(None) => continue,
                        Err(kind) => return Err(ExecError::at(at(pc - 1), kind)),
                    };
                    if depth >= stack.len() {
                        // As `call` (spec 7.12): skipped with 32 return addresses.
                        continue;
                    }
                    stack[depth] = pc as u32;
                    depth += 1;
                    pc = target as usize;
                }
                Op::Ret | Op::RetIf => {
                    if x.op == Op::RetIf && !c.cond(x) {
                        continue;
                    }
                    if depth == 0 {
                        at_.steps = steps;
                        return Ok(Stop::End(Ended { emitted, hit_max: false }));
                    }
                    depth -= 1;
                    pc = stack[depth] as usize;
                }
                Op::Emit | Op::EmitCut => {
                    if let Some(s) = sink.as_deref_mut() {
                        if emitted >= max {
                            return Ok(Stop::End(Ended { emitted, hit_max: true }));
                        }
                        if c.checking {
                            check_emit(&mut c, code, x.a, at(pc - 1), diagnostics, dropped);
                        }
                        s.emit(x.a, &c.regs[..outputs]);
                        emitted += 1;
                        if x.op == Op::EmitCut {
                            s.cut(x.a);
                        }
                        if emitted >= max {
                            return Ok(Stop::End(Ended { emitted, hit_max: true }));
                        }
                    }
                }
                Op::Cut => {
                    if let Some(s) = sink.as_deref_mut() {
                        s.cut(x.a);
                    }
                }
                Op::Sync => {
                    *at_ = Resume { pc: pc as u32, depth: depth as u32, steps };
                    return Ok(Stop::Barrier { pc: (pc - 1) as u32 });
                }
                Op::Deriv | Op::SampleQuad | Op::LodQuad | Op::Eval => {
                    *at_ = Resume { pc: pc as u32, depth: depth as u32, steps };
                    return Ok(Stop::Quad { pc: (pc - 1) as u32 });
                }
                Op::Discard => {
                    if c.cond(x) {
                        *discarded = true;
                        *helper = true;
                        c.helper = true;
                    }
                }
                Op::Abort => {
                    return Err(ExecError::at(
                        at(pc - 1),
                        ExecErrorKind::Unsupported("abort (the program aborted)".into()),
                    ));
                }
                _ => (x.f)(&mut c, x),
            }
        }
    }
}

/// Checking mode at an emit on `stream`: every declared output component of the
/// stream must have been written since the previous emit.
#[cold]
fn check_emit(
    c: &mut Ctx<'_, '_>,
    code: &Code,
    stream: u32,
    instruction: usize,
    diagnostics: &mut Vec<ExecDiagnostic>,
    dropped: &mut usize,
) {
    for o in code.declared_outputs.iter().filter(|o| o.stream == stream) {
        let written = c.written.get(o.register as usize).copied().unwrap_or(0);
        let missing = o.mask & !written & 15;
        if missing != 0 {
            let comps: String = (0..4).filter(|k| missing & (1 << k) != 0).map(|k| b"xyzw"[k] as char).collect();
            let message = format!(
                "emit on stream {stream}: o{}.{comps} was not written since the previous emit (its value is undefined)",
                o.register
            );
            Core::diagnose(diagnostics, dropped, instruction, message);
        }
    }
    c.written.fill(0);
}
