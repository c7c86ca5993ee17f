//! Several invocations of one program at a time, in lanes.
//!
//! [`Lanes`] runs up to [`W`] invocations of a [`Code`] together: registers are held
//! structure-of-arrays (`regs[register * 4 + component][lane]`), so that each
//! operation is a loop over the lanes that the compiler vectorizes. The constants
//! (zero register, immediate constant buffer, immediates) stay in the code and are
//! read as one value for every lane.
//!
//! Each lane has its own program counter, call stack, step count and emit count, and
//! runs exactly the instructions the one-invocation machine would run for it: while
//! the lanes agree on the next instruction it runs for all of them at once; when a
//! branch sends them different ways, the instruction with the lowest program counter
//! runs next for the lanes waiting at it (the others wait), until they meet again.
//! Lanes are independent (the programs that run here have no UAV accesses, so nothing
//! one lane does is visible to another), hence the order in which the lanes' steps
//! are taken does not change what each computes.
//!
//! The arithmetic calls the functions of [`crate::alu`] that the one-invocation
//! handlers call, so that results are bit for bit the same. What a geometry-shader
//! lane emits is kept per lane ([`Emits`]), for the pipeline to hand on in
//! invocation order. A lane that fails (step limit, `abort`) is only marked failed:
//! the caller runs that invocation again on the one-invocation machine, which
//! reports the error exactly.
//!
//! Not every program runs here ([`lane_capable`]): UAV accesses (their order between
//! invocations would be observable), doubles, and register files or outputs too
//! large for the lane buffers stay on the one-invocation machine.

// Loops over lanes and components index several arrays in step (what the
// vectorizer turns into vector operations).
#![allow(clippy::needless_range_loop)]

use super::compile::CALL_DEPTH;
use super::exec::cb_ref;
use super::res;
use super::{table_ops, Code, Dst, DstKind, Inst, Op, Rel, ResOp, Src, SrcKind, NO_REL};
use crate::alu;
use crate::resources::Resources;

/// Lanes run together.
pub(crate) const W: usize = 32;

/// One register component of every lane.
pub(crate) type L = [u32; W];

/// Registers of the varying part of the register file (everything below the
/// constants) a program may have to run in lanes.
const MAX_VARYING: u32 = 512;

/// `dcl_maxout` × output registers a geometry shader may have to run in lanes.
const MAX_EMITTED_REGISTERS: u64 = 4096;

/// Whether `code` can run in lanes (see the module documentation).
pub(crate) fn lane_capable(code: &Code) -> bool {
    if code.stage_cs || code.stage_ps {
        return false;
    }
    if code.layout.zero > MAX_VARYING {
        return false;
    }
    // Interfaces (`fcall`, the `this[]` registers the bound class instances fill) and
    // uniformly indexed resources stay on the one-invocation machine.
    if code.layout.this_count > 0 || code.rops.iter().any(|r| r.slot_rel != NO_REL || r.sampler_rel != NO_REL) {
        return false;
    }
    if code.stage_gs && code.max_vertex_count as u64 * code.layout.outputs.max(1) as u64 > MAX_EMITTED_REGISTERS {
        return false;
    }
    code.insts.iter().all(|x| match x.op {
        Op::Dadd
        | Op::Dmul
        | Op::Dmin
        | Op::Dmax
        | Op::Ddiv
        | Op::Dfma
        | Op::Drcp
        | Op::Deq
        | Op::Dge
        | Op::Dlt
        | Op::Dne
        | Op::Dmov
        | Op::Dmovc
        | Op::Dtof
        | Op::Ftod
        | Op::Dtoi
        | Op::Dtou
        | Op::Itod
        | Op::Utod
        | Op::LdUavTyped
        | Op::StoreUavTyped
        | Op::StoreRaw
        | Op::StoreStructured
        | Op::Atomic
        | Op::ImmAtomic
        | Op::ImmAtomicAlloc
        | Op::ImmAtomicConsume
        | Op::Sync
        | Op::Deriv
        | Op::SampleQuad
        | Op::LodQuad
        | Op::Eval
        | Op::FCall
        | Op::Discard => false,
        Op::Ld
        | Op::LdRaw
        | Op::LdStructured
        | Op::ResInfo
        | Op::BufInfo
        | Op::SampleL
        | Op::SampleCLz
        | Op::SampleD
        | Op::Gather4
        | Op::LdMs
        | Op::SampleInfo
        | Op::SamplePos => code.rops.get(x.a as usize).is_some_and(|r| !r.uav && !r.tgsm),
        _ => true,
    })
}

/// What each lane of a geometry shader emitted, in order: events (an emit or a cut,
/// and the stream) and the vertices of the emits.
///
/// While every lane has emitted the same sequence (`sync`: they ran their emits and
/// cuts together), the events are kept once; otherwise per lane. Vertices are kept
/// structure-of-arrays like the registers: vertex `k` of lane `l` is column `l` of
/// rows `(k * registers + r) * 4 + c`, so that an emit of every lane copies rows.
#[derive(Debug, Clone, Default)]
pub(crate) struct Emits {
    /// Output registers per vertex.
    pub registers: usize,
    /// Vertices a lane may emit (`dcl_maxout`).
    cap: usize,
    /// Events a lane may record (`2 * cap`: a cut is recorded only after an emit on
    /// its stream, since a cut of an empty strip changes nothing).
    ecap: usize,
    /// Every lane emitted the same (the events are `shared`).
    pub sync: bool,
    shared: Vec<u8>,
    shared_open: u8,
    shared_count: u32,
    /// Lane `l`'s events at `l * ecap..`: [`EMIT`] or [`CUT`] plus the stream.
    events: Vec<u8>,
    nevents: [u32; W],
    /// Per lane, the streams emitted on since their last recorded cut.
    open: [u8; W],
    rows: Vec<L>,
}

/// Event kinds of [`Emits`] (the low bits are the stream).
pub(crate) const EMIT: u8 = 0;
pub(crate) const CUT: u8 = 4;

impl Emits {
    fn size(&mut self, registers: usize, cap: usize) {
        if self.registers != registers || self.cap != cap || self.rows.is_empty() {
            self.registers = registers;
            self.cap = cap;
            self.ecap = 2 * cap;
            self.events = vec![0; W * self.ecap];
            self.shared = Vec::with_capacity(self.ecap);
            self.rows = vec![[0; W]; cap * registers * 4];
        }
    }

    fn clear(&mut self) {
        self.sync = true;
        self.shared.clear();
        self.shared_open = 0;
        self.shared_count = 0;
    }

    /// Lane `lane`'s events.
    pub fn events(&self, lane: usize) -> &[u8] {
        if self.sync {
            return &self.shared;
        }
        let n = self.nevents[lane & (W - 1)] as usize;
        &self.events[lane * self.ecap..][..n]
    }

    /// Register `r` of vertex `k` of lane `lane`.
    #[inline(always)]
    pub fn register(&self, lane: usize, k: u32, r: usize) -> [u32; 4] {
        let b = (k as usize * self.registers + r) * 4;
        match self.rows.get(b..b + 4) {
            Some(rows) => {
                let l = lane & (W - 1);
                [rows[0][l], rows[1][l], rows[2][l], rows[3][l]]
            }
            None => [0; 4],
        }
    }

    /// Register `r` of vertex `k`, every lane: its four component rows.
    #[inline(always)]
    pub fn rows(&self, k: u32, r: usize) -> Option<&[L; 4]> {
        let b = (k as usize * self.registers + r) * 4;
        self.rows.get(b..b + 4).and_then(|rows| rows.try_into().ok())
    }

    /// Lane `lane`'s vertices, `registers` registers each, into `out`.
    pub fn vertices(&self, lane: usize, out: &mut Vec<[u32; 4]>) {
        out.clear();
        let emitted = self.events(lane).iter().filter(|&&e| e & CUT == 0).count();
        for k in 0..emitted as u32 {
            for r in 0..self.registers {
                out.push(self.register(lane, k, r));
            }
        }
    }

    /// Gives every lane its own copy of the shared events.
    fn desync(&mut self, emitted: &mut [u32; W]) {
        if !self.sync {
            return;
        }
        self.sync = false;
        let n = self.shared.len();
        for l in 0..W {
            if let Some(e) = self.events.get_mut(l * self.ecap..l * self.ecap + n) {
                e.copy_from_slice(&self.shared);
            }
            self.nevents[l] = n as u32;
            self.open[l] = self.shared_open;
            emitted[l] = self.shared_count;
        }
    }

    #[inline]
    fn event(&mut self, lane: usize, e: u8) {
        let n = self.nevents[lane] as usize;
        if let Some(slot) = self.events.get_mut(lane * self.ecap + n) {
            *slot = e;
            self.nevents[lane] += 1;
        }
    }

    #[inline]
    fn cut(&mut self, lane: usize, stream: u8) {
        if self.open[lane] & (1 << stream) != 0 {
            self.open[lane] &= !(1 << stream);
            self.event(lane, CUT | stream);
        }
    }

    #[inline]
    fn shared_cut(&mut self, stream: u8) {
        if self.shared_open & (1 << stream) != 0 {
            self.shared_open &= !(1 << stream);
            self.shared.push(CUT | stream);
        }
    }
}

/// Registers and per-lane state, reused across batches.
#[derive(Debug, Clone)]
pub(crate) struct Lanes {
    /// The varying registers: `regs[r * 4 + c][lane]` for `r < layout.zero`.
    pub regs: Vec<L>,
    /// The code the registers are sized for (its id).
    loaded: u64,
    pc: [u32; W],
    steps: [u64; W],
    depth: [u32; W],
    stack: Box<[[u32; CALL_DEPTH as usize]; W]>,
    emitted: [u32; W],
    /// Lanes that failed in the last run.
    pub failed: u32,
    pub emits: Emits,
    /// Sources of the instruction running.
    tmp: Box<[[L; 4]; 4]>,
}

/// Bit mask of lanes `0..n`.
#[inline(always)]
pub(crate) fn lanes_below(n: usize) -> u32 {
    if n >= 32 {
        u32::MAX
    } else {
        (1u32 << n) - 1
    }
}

/// The lanes of a mask, in order.
#[inline(always)]
fn each(mut mask: u32) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        if mask == 0 {
            return None;
        }
        let l = mask.trailing_zeros() as usize;
        mask &= mask - 1;
        Some(l)
    })
}

const ZERO4: [L; 4] = [[0; W]; 4];

/// Per component and lane: every component (cheap operations: computing a component
/// the destination does not take costs less than deciding not to).
#[inline(always)]
fn per1(a: &[L; 4], f: impl Fn(u32) -> u32) -> [L; 4] {
    let mut r = ZERO4;
    for c in 0..4 {
        for l in 0..W {
            r[c][l] = f(a[c][l]);
        }
    }
    r
}

#[inline(always)]
fn per2(a: &[L; 4], b: &[L; 4], f: impl Fn(u32, u32) -> u32) -> [L; 4] {
    let mut r = ZERO4;
    for c in 0..4 {
        for l in 0..W {
            r[c][l] = f(a[c][l], b[c][l]);
        }
    }
    r
}

#[inline(always)]
fn per3(a: &[L; 4], b: &[L; 4], d: &[L; 4], f: impl Fn(u32, u32, u32) -> u32) -> [L; 4] {
    let mut r = ZERO4;
    for c in 0..4 {
        for l in 0..W {
            r[c][l] = f(a[c][l], b[c][l], d[c][l]);
        }
    }
    r
}

/// Per component and lane, the components of `need` only (costly operations).
#[inline(always)]
fn per1n(need: u8, a: &[L; 4], f: impl Fn(u32) -> u32) -> [L; 4] {
    let mut r = ZERO4;
    for c in 0..4 {
        if need & (1 << c) != 0 {
            for l in 0..W {
                r[c][l] = f(a[c][l]);
            }
        }
    }
    r
}

#[inline(always)]
fn per2n(need: u8, a: &[L; 4], b: &[L; 4], f: impl Fn(u32, u32) -> u32) -> [L; 4] {
    let mut r = ZERO4;
    for c in 0..4 {
        if need & (1 << c) != 0 {
            for l in 0..W {
                r[c][l] = f(a[c][l], b[c][l]);
            }
        }
    }
    r
}

/// `_sat` of a float result (already flushed), in place.
#[inline(always)]
fn saturate(need: u8, r: &mut [L; 4]) {
    for c in 0..4 {
        if need & (1 << c) != 0 {
            for v in &mut r[c] {
                *v = alu::sat(*v);
            }
        }
    }
}

/// A float result's bits (flushed, NaN made canonical: [`alu::bits`]).
#[inline(always)]
fn fb(v: f32) -> u32 {
    alu::bits(v)
}

/// What one run of an instruction reads: the code's constants and tables, the
/// resources.
struct Env<'c, 'r, 'a> {
    code: &'c Code,
    res: &'r Resources<'a>,
    /// First constant register.
    zero: u32,
}

impl Env<'_, '_, '_> {
    /// The code's relative index `i`.
    #[inline(always)]
    fn rel(&self, i: u32) -> Rel {
        self.code.rels.get(i as usize).copied().unwrap_or(Rel {
            base: 0,
            rel: 0,
            imm: 0,
            count: 0,
            stride: 0,
            rel_c: 0,
        })
    }
}

/// Component `c` of register `reg`, lane `l`: varying or constant.
#[inline(always)]
fn value(regs: &[L], env: &Env<'_, '_, '_>, reg: u32, c: usize, l: usize) -> u32 {
    if reg < env.zero {
        match regs.get(reg as usize * 4 + (c & 3)) {
            Some(row) => row[l & (W - 1)],
            None => 0,
        }
    } else {
        match env.code.constants.get((reg - env.zero) as usize) {
            Some(v) => v[c & 3],
            None => 0,
        }
    }
}

/// The register component a relative index reads, every lane.
#[inline(always)]
fn index_row(regs: &[L], env: &Env<'_, '_, '_>, r: &Rel) -> L {
    if r.rel < env.zero {
        regs.get(r.rel as usize * 4 + (r.rel_c as usize & 3)).copied().unwrap_or([0; W])
    } else {
        [value(regs, env, r.rel, r.rel_c as usize, 0); W]
    }
}

/// A source operand, every lane: a plain varying register is read where it is,
/// anything else is built in `t`.
#[inline(always)]
fn src<'s>(regs: &'s [L], env: &Env<'_, '_, '_>, s: &Src, t: &'s mut [L; 4]) -> &'s [L; 4] {
    match s.kind {
        SrcKind::Reg if s.reg < env.zero => {
            let b = s.reg as usize * 4;
            let Some(rows) = regs.get(b..b + 4) else { return &ZERO4 };
            if s.plain() {
                if let Ok(r) = <&[L; 4]>::try_from(rows) {
                    return r;
                }
            }
            for k in 0..4 {
                t[k] = rows[s.comp(k)];
            }
        }
        SrcKind::Reg => {
            let v = env.code.constants.get((s.reg - env.zero) as usize).copied().unwrap_or([0; 4]);
            for k in 0..4 {
                t[k] = [v[s.comp(k)]; W];
            }
        }
        SrcKind::Cb => {
            let v = *cb_ref(env.res, s.slot as u32, s.reg);
            for k in 0..4 {
                t[k] = [v[s.comp(k)]; W];
            }
        }
        SrcKind::Rel => {
            let r = env.rel(s.reg);
            let index = index_row(regs, env, &r);
            let sw = [s.comp(0), s.comp(1), s.comp(2), s.comp(3)];
            for l in 0..W {
                let i = r.imm.wrapping_add(index[l]);
                if i < r.count {
                    let reg = r.base.wrapping_add(i.wrapping_mul(r.stride));
                    for k in 0..4 {
                        t[k][l] = value(regs, env, reg, sw[k], l);
                    }
                } else {
                    for row in t.iter_mut() {
                        row[l] = 0;
                    }
                }
            }
        }
        SrcKind::CbDyn => {
            let (r, e) = (env.rel(s.reg), env.rel(s.reg.wrapping_add(1)));
            let (slots, elements) = (index_row(regs, env, &r), index_row(regs, env, &e));
            for l in 0..W {
                let slot = super::declared_or_unbound(env.code.declared.cb, r.imm.wrapping_add(slots[l]));
                let v = *cb_ref(env.res, slot, e.imm.wrapping_add(elements[l]));
                for k in 0..4 {
                    t[k][l] = v[s.comp(k)];
                }
            }
        }
        SrcKind::CbRel => {
            let r = env.rel(s.reg);
            let index = index_row(regs, env, &r);
            let sw = [s.comp(0), s.comp(1), s.comp(2), s.comp(3)];
            let cb: &[[u32; 4]] = match env.res.constant_buffers.get(s.slot as usize) {
                Some(Some(cb)) => cb,
                _ => &[],
            };
            if s.swz == super::IDENTITY {
                for l in 0..W {
                    let i = r.imm.wrapping_add(index[l]) as usize;
                    let v = *cb.get(i).unwrap_or(&[0; 4]);
                    t[0][l] = v[0];
                    t[1][l] = v[1];
                    t[2][l] = v[2];
                    t[3][l] = v[3];
                }
            } else {
                for l in 0..W {
                    let i = r.imm.wrapping_add(index[l]) as usize;
                    let v = *cb.get(i).unwrap_or(&[0; 4]);
                    for k in 0..4 {
                        t[k][l] = v[sw[k] & 3];
                    }
                }
            }
        }
    }
    if s.m != 0 {
        for (k, row) in t.iter_mut().enumerate() {
            let (and, xor) = s.fmask(k);
            let (iabs, ineg) = s.imask();
            for v in row.iter_mut() {
                let x = (*v & and) ^ xor;
                let a = ((x as i32 >> 31) as u32) & iabs;
                let x = (x ^ a).wrapping_sub(a);
                *v = (x ^ ineg).wrapping_sub(ineg);
            }
        }
    }
    t
}

/// Writes `v` through a destination for the lanes of `mask` (`full`: every lane
/// may be written).
#[inline(always)]
fn store(regs: &mut [L], env: &Env<'_, '_, '_>, d: &Dst, v: &[L; 4], mask: u32, full: bool) {
    match d.kind {
        DstKind::Null => {}
        DstKind::Reg => {
            let b = d.reg as usize * 4;
            let Some(rows) = regs.get_mut(b..b + 4) else { return };
            let lm: L = std::array::from_fn(|l| 0u32.wrapping_sub((mask >> l) & 1));
            for c in 0..4 {
                if d.mask & (1 << c) == 0 {
                    continue;
                }
                if full {
                    rows[c] = v[c];
                } else {
                    for l in 0..W {
                        rows[c][l] = (v[c][l] & lm[l]) | (rows[c][l] & !lm[l]);
                    }
                }
            }
        }
        DstKind::Rel => {
            let r = env.rel(d.reg);
            for l in each(mask) {
                let e = r.imm.wrapping_add(value(regs, env, r.rel, r.rel_c as usize, l));
                if e >= r.count {
                    continue;
                }
                let reg = r.base.wrapping_add(e.wrapping_mul(r.stride)) as usize;
                if reg >= env.zero as usize {
                    continue;
                }
                for c in 0..4 {
                    if d.mask & (1 << c) != 0 {
                        if let Some(row) = regs.get_mut(reg * 4 + c) {
                            row[l] = v[c][l];
                        }
                    }
                }
            }
        }
    }
}

impl Lanes {
    pub fn new() -> Lanes {
        Lanes {
            regs: Vec::new(),
            loaded: 0,
            pc: [0; W],
            steps: [0; W],
            depth: [0; W],
            stack: Box::new([[0; CALL_DEPTH as usize]; W]),
            emitted: [0; W],
            failed: 0,
            emits: Emits::default(),
            tmp: Box::new([ZERO4; 4]),
        }
    }

    /// Sizes the registers for `code` and clears the writable ones (all lanes).
    pub fn start(&mut self, code: &Code) {
        if self.loaded != code.id {
            self.regs = vec![[0; W]; code.layout.zero as usize * 4];
            self.loaded = code.id;
            if code.stage_gs {
                let cap = code.max_vertex_count as usize;
                self.emits.size(code.layout.outputs as usize, cap);
            }
        }
        let w = (code.layout.writable as usize * 4).min(self.regs.len());
        self.regs[..w].fill([0; W]);
    }

    /// The four component rows of register `reg` (every lane).
    #[inline(always)]
    pub fn rows_mut(&mut self, reg: u32) -> Option<&mut [L; 4]> {
        let b = reg as usize * 4;
        self.regs.get_mut(b..b + 4).and_then(|rows| rows.try_into().ok())
    }

    /// The four component rows of register `reg` (every lane).
    #[inline(always)]
    pub fn rows(&self, reg: u32) -> Option<&[L; 4]> {
        let b = reg as usize * 4;
        self.regs.get(b..b + 4).and_then(|rows| rows.try_into().ok())
    }

    /// Runs lanes `0..n` from the start (registers prepared by [`start`](Self::start)
    /// and [`rows_mut`](Self::rows_mut)). Afterwards `failed` names the lanes that failed;
    /// geometry-shader lanes' output is in `emits`.
    pub fn run(&mut self, code: &Code, res: &Resources<'_>, n: usize, limit: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            if std::arch::is_x86_feature_detected!("avx2") {
                // SAFETY: the CPU has AVX2 (detected just above), the one requirement of
                // calling a function compiled for it.
                unsafe { self.run_avx2(code, res, n, limit) };
                return;
            }
        }
        self.run_any(code, res, n, limit);
    }

    /// [`run`](Self::run) compiled for AVX2 (the lane loops twice as wide; the same
    /// IEEE operations, hence the same results).
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    fn run_avx2(&mut self, code: &Code, res: &Resources<'_>, n: usize, limit: u64) {
        self.run_any(code, res, n, limit);
    }

    #[inline(always)]
    fn run_any(&mut self, code: &Code, res: &Resources<'_>, n: usize, limit: u64) {
        let env = Env { code, res, zero: code.layout.zero };
        let all = lanes_below(n.min(W));
        let gs = code.stage_gs;
        let max = code.max_vertex_count;
        self.failed = 0;
        self.pc = [0; W];
        self.steps = [0; W];
        self.depth = [0; W];
        self.emitted = [0; W];
        self.emits.clear();
        let insts = code.insts.as_slice();
        let mut live = all;
        // While every live lane is at the same instruction: that instruction, the steps
        // taken since (not yet added to `steps`), and how many may be taken before a
        // lane reaches the limit.
        let mut uniform = true;
        let mut upc = 0u32;
        let mut run = 0u64;
        let mut budget = limit;
        while live != 0 {
            let (pc, mask) = if uniform {
                if run >= budget {
                    // Some lane reaches the step limit here.
                    self.flush_steps(live, &mut run);
                    for l in each(live) {
                        if self.steps[l] >= limit {
                            self.failed |= 1 << l;
                            live &= !(1 << l);
                        }
                    }
                    budget = self.budget(live, limit);
                    continue;
                }
                run += 1;
                (upc, live)
            } else {
                let pc = each(live).map(|l| self.pc[l]).min().unwrap_or(0);
                let mut mask = 0;
                for l in each(live) {
                    if self.pc[l] == pc {
                        if self.steps[l] >= limit {
                            self.failed |= 1 << l;
                            live &= !(1 << l);
                        } else {
                            self.steps[l] += 1;
                            mask |= 1 << l;
                        }
                    }
                }
                if mask == 0 {
                    continue;
                }
                (pc, mask)
            };
            let Some(x) = insts.get(pc as usize) else {
                // The end of the code ends the invocation.
                live &= !mask;
                continue;
            };
            let next = pc + 1;
            if x.op as u8 > Op::Abort as u8 {
                let full = if gs { mask == live } else { mask == all };
                self.exec(&env, x, mask, full);
                if uniform {
                    upc = next;
                } else {
                    for l in each(mask) {
                        self.pc[l] = next;
                    }
                    if mask != live && each(live).all(|l| self.pc[l] == next) {
                        uniform = true;
                        upc = next;
                        run = 0;
                        budget = self.budget(live, limit);
                    }
                }
                continue;
            }
            if uniform {
                // The lanes stay together through jumps, emits and cuts (a lane that
                // reaches `dcl_maxout` ends).
                match x.op {
                    Op::Jmp => {
                        upc = x.a;
                        continue;
                    }
                    Op::JmpIf => {
                        let taken = self.cond(&env, x, mask);
                        if taken == mask || taken == 0 {
                            upc = if taken == 0 { next } else { x.a };
                            continue;
                        }
                    }
                    Op::Emit | Op::EmitCut => {
                        let stream = (x.a & 3) as u8;
                        if self.emits.sync && mask == all {
                            // Every lane emits the same: rows are copied once.
                            if self.emits.shared_count >= max {
                                live = 0;
                                continue;
                            }
                            self.emit_all(stream);
                            if x.op == Op::EmitCut {
                                self.emits.shared_cut(stream);
                            }
                            if self.emits.shared_count >= max {
                                live = 0;
                            }
                            upc = next;
                            continue;
                        }
                        self.emits.desync(&mut self.emitted);
                        for l in each(mask) {
                            if self.emitted[l] >= max {
                                live &= !(1 << l);
                                continue;
                            }
                            self.emit(l, stream);
                            if x.op == Op::EmitCut {
                                self.emits.cut(l, stream);
                            }
                            if self.emitted[l] >= max {
                                live &= !(1 << l);
                            }
                        }
                        upc = next;
                        continue;
                    }
                    Op::Ret if self.depth.iter().all(|&d| d == 0) => {
                        // The end of the program for every lane (none is in a
                        // subroutine: depths start at 0 and only calls raise them).
                        live &= !mask;
                        continue;
                    }
                    Op::Cut => {
                        let stream = (x.a & 3) as u8;
                        if self.emits.sync && mask == all {
                            self.emits.shared_cut(stream);
                        } else {
                            self.emits.desync(&mut self.emitted);
                            for l in each(mask) {
                                self.emits.cut(l, stream);
                            }
                        }
                        upc = next;
                        continue;
                    }
                    _ => {}
                }
            }
            // Flow control: each lane's next instruction.
            if uniform {
                // Leave the shared counter for the lanes' own.
                self.flush_steps(live, &mut run);
                for l in each(live) {
                    self.pc[l] = upc;
                }
                uniform = false;
            }
            match x.op {
                Op::Jmp => {
                    for l in each(mask) {
                        self.pc[l] = x.a;
                    }
                }
                Op::JmpIf => {
                    let taken = self.cond(&env, x, mask);
                    for l in each(mask) {
                        self.pc[l] = if taken & (1 << l) != 0 { x.a } else { next };
                    }
                }
                Op::Switch => {
                    let v = self.fetch_x(&env, &x.src[0]);
                    let table = code.switches.get(x.a as usize);
                    for l in each(mask) {
                        self.pc[l] = match table {
                            Some(t) => t.cases.iter().find(|k| k.0 == v[l]).map_or(t.default, |k| k.1),
                            None => next,
                        };
                    }
                }
                Op::Call | Op::CallIf => {
                    let go = if x.op == Op::CallIf { self.cond(&env, x, mask) } else { mask };
                    for l in each(mask) {
                        let d = self.depth[l] as usize;
                        if go & (1 << l) != 0 && d < CALL_DEPTH as usize {
                            self.stack[l][d] = next;
                            self.depth[l] += 1;
                            self.pc[l] = x.a;
                        } else {
                            // Spec 7.12: with 32 entries on the return address stack,
                            // "the call is skipped over".
                            self.pc[l] = next;
                        }
                    }
                }
                Op::Ret | Op::RetIf => {
                    let go = if x.op == Op::RetIf { self.cond(&env, x, mask) } else { mask };
                    for l in each(mask) {
                        if go & (1 << l) == 0 {
                            self.pc[l] = next;
                        } else if self.depth[l] == 0 {
                            live &= !(1 << l);
                        } else {
                            self.depth[l] -= 1;
                            self.pc[l] = self.stack[l][self.depth[l] as usize];
                        }
                    }
                }
                Op::Emit | Op::EmitCut => {
                    let stream = (x.a & 3) as u8;
                    self.emits.desync(&mut self.emitted);
                    for l in each(mask) {
                        if self.emitted[l] >= max {
                            live &= !(1 << l);
                            continue;
                        }
                        self.emit(l, stream);
                        if x.op == Op::EmitCut {
                            self.emits.cut(l, stream);
                        }
                        if self.emitted[l] >= max {
                            live &= !(1 << l);
                            continue;
                        }
                        self.pc[l] = next;
                    }
                }
                Op::Cut => {
                    let stream = (x.a & 3) as u8;
                    self.emits.desync(&mut self.emitted);
                    for l in each(mask) {
                        self.emits.cut(l, stream);
                        self.pc[l] = next;
                    }
                }
                _ => {
                    // `abort`.
                    self.failed |= mask;
                    live &= !mask;
                }
            }
            // Together again?
            let mut lanes = each(live);
            if let Some(first) = lanes.next() {
                let p = self.pc[first];
                if lanes.all(|l| self.pc[l] == p) {
                    uniform = true;
                    upc = p;
                    run = 0;
                    budget = self.budget(live, limit);
                }
            }
        }
        self.flush_steps(0, &mut run);
    }

    /// Adds the shared step counter to the lanes' own.
    #[inline]
    fn flush_steps(&mut self, live: u32, run: &mut u64) {
        for l in each(live) {
            self.steps[l] += *run;
        }
        *run = 0;
    }

    /// Steps every live lane may take before one reaches the limit.
    fn budget(&self, live: u32, limit: u64) -> u64 {
        let most = each(live).map(|l| self.steps[l]).max().unwrap_or(0);
        limit.saturating_sub(most)
    }

    /// Records an emit of lane `l` on `stream`: the output registers.
    #[inline]
    fn emit(&mut self, l: usize, stream: u8) {
        let e = &mut self.emits;
        let n = e.registers * 4;
        let at = self.emitted[l] as usize * n;
        if let (Some(dst), Some(src)) = (e.rows.get_mut(at..at + n), self.regs.get(..n)) {
            for (d, s) in dst.iter_mut().zip(src) {
                d[l & (W - 1)] = s[l & (W - 1)];
            }
        }
        e.open[l] |= 1 << stream;
        e.event(l, EMIT | stream);
        self.emitted[l] += 1;
    }

    /// Records an emit of every lane on `stream` (while they emit the same).
    #[inline]
    fn emit_all(&mut self, stream: u8) {
        let e = &mut self.emits;
        let n = e.registers * 4;
        let at = e.shared_count as usize * n;
        if let (Some(dst), Some(src)) = (e.rows.get_mut(at..at + n), self.regs.get(..n)) {
            dst.copy_from_slice(src);
        }
        e.shared_open |= 1 << stream;
        e.shared.push(EMIT | stream);
        e.shared_count += 1;
    }

    /// The lanes of `mask` whose condition (`src0.x != 0` against `_nz`) holds.
    #[inline]
    fn cond(&self, env: &Env<'_, '_, '_>, x: &Inst, mask: u32) -> u32 {
        let v = self.fetch_x(env, &x.src[0]);
        let mut t = 0;
        for l in each(mask) {
            if (v[l] != 0) == x.nz() {
                t |= 1 << l;
            }
        }
        t
    }

    /// The `.x` (after swizzle and modifiers) of a source, every lane.
    #[inline]
    fn fetch_x(&self, env: &Env<'_, '_, '_>, s: &Src) -> L {
        let mut t = ZERO4;
        let v = src(&self.regs, env, s, &mut t);
        v[0]
    }

    /// Runs an instruction that is not flow control for the lanes of `mask`.
    #[inline(always)]
    fn exec(&mut self, env: &Env<'_, '_, '_>, x: &Inst, mask: u32, full: bool) {
        let need = x.dst[0].mask | x.dst[1].mask;
        let sat = x.sat();
        let regs = &mut self.regs;
        let [t0, t1, t2, t3] = &mut *self.tmp;
        macro_rules! s {
            (0) => {
                src(regs, env, &x.src[0], t0)
            };
            (1) => {
                src(regs, env, &x.src[1], t1)
            };
            (2) => {
                src(regs, env, &x.src[2], t2)
            };
            (3) => {
                src(regs, env, &x.src[3], t3)
            };
        }
        // A float operation: flushed result, `_sat` if asked.
        macro_rules! float {
            ($r:expr) => {{
                let mut r = $r;
                if sat {
                    saturate(need, &mut r);
                }
                r
            }};
        }
        let r = match x.op {
            super::alu_semantics!(table_ops) => alu_lanes(x, need, regs, env, [t0, t1, t2]),
            Op::Dp2 | Op::Dp3 | Op::Dp4 => {
                let n = match x.op {
                    Op::Dp2 => 2,
                    Op::Dp3 => 3,
                    _ => 4,
                };
                let (a, b) = (s!(0), s!(1));
                let mut s = [0f32; W];
                for l in 0..W {
                    s[l] = alu::dp_first(a[0][l], b[0][l]);
                }
                for c in 1..n {
                    for l in 0..W {
                        s[l] = alu::dp_step(s[l], a[c][l], b[c][l]);
                    }
                }
                let mut v: L = std::array::from_fn(|l| fb(s[l]));
                if sat {
                    for v in &mut v {
                        *v = alu::sat(*v);
                    }
                }
                [v; 4]
            }
            Op::Mov => {
                if sat {
                    per1(s!(0), alu::sat)
                } else {
                    *s!(0)
                }
            }
            Op::Movc => {
                let mut r = per3(s!(0), s!(1), s!(2), alu::movc);
                if sat {
                    saturate(need, &mut r);
                }
                r
            }
            Op::Bfi => {
                let (a, b, d, e) = (s!(0), s!(1), s!(2), s!(3));
                let mut r = ZERO4;
                for c in 0..4 {
                    if need & (1 << c) != 0 {
                        for l in 0..W {
                            r[c][l] = alu::bfi(a[c][l], b[c][l], d[c][l], e[c][l]);
                        }
                    }
                }
                r
            }
            Op::SinCos => {
                let a = s!(0);
                let s = float!(per1n(x.dst[0].mask, a, alu::sin));
                let c = float!(per1n(x.dst[1].mask, a, alu::cos));
                store(regs, env, &x.dst[0], &s, mask, full);
                store(regs, env, &x.dst[1], &c, mask, full);
                return;
            }
            Op::Swapc => {
                let (k, a, b) = (s!(0), s!(1), s!(2));
                let d0 = per3(k, b, a, alu::movc);
                let d1 = per3(k, a, b, alu::movc);
                store(regs, env, &x.dst[0], &d0, mask, full);
                store(regs, env, &x.dst[1], &d1, mask, full);
                return;
            }
            Op::Imul | Op::Umul | Op::Udiv | Op::Uaddc | Op::Usubb => {
                let f = match x.op {
                    Op::Imul => alu::imul,
                    Op::Umul => alu::umul,
                    Op::Udiv => alu::udiv,
                    Op::Uaddc => alu::uaddc,
                    _ => alu::usubb,
                };
                let (a, b) = (s!(0), s!(1));
                let d0 = per2(a, b, |a, b| f(a, b).0);
                let d1 = per2(a, b, |a, b| f(a, b).1);
                store(regs, env, &x.dst[0], &d0, mask, full);
                store(regs, env, &x.dst[1], &d1, mask, full);
                return;
            }
            Op::CheckAccess => per1(s!(0), |a| alu::mask(a != 0)),
            _ => {
                let r = env.code.rops.get(x.a as usize).copied().unwrap_or(ResOp::NONE);
                return resource(regs, [t0, t1, t2, t3], env, x, &r, mask, full);
            }
        };
        store(regs, env, &x.dst[0], &r, mask, full);
    }
}

/// The callback of [`super::alu_semantics`] that makes the lanes' arithmetic:
/// [`alu_lanes`], each operation of the table over every lane (every component, or
/// for `costly` ones those of `need`), `_sat` for float results.
macro_rules! lanes_alu {
    ($( [$($op:ident)|+] $kind:ident $cost:ident ($($arg:ident),+) => $body:expr; )*) => {
        /// An operation of the semantics table for every lane: its sources read into
        /// `t` where they are not plain varying registers.
        #[inline(always)]
        fn alu_lanes(x: &Inst, need: u8, regs: &[L], env: &Env<'_, '_, '_>, t: [&mut [L; 4]; 3]) -> [L; 4] {
            let [t0, t1, t2] = t;
            match x.op {
                $( $(Op::$op)|+ => {
                    let r = lanes_alu!(@per $cost x need regs env (t0 t1 t2) ($($arg),+) $body);
                    lanes_alu!(@sat $kind x need r)
                } )*
                _ => ZERO4,
            }
        }
    };
    (@sat float $x:ident $need:ident $r:ident) => {{
        let mut r = $r;
        if $x.sat() {
            saturate($need, &mut r);
        }
        r
    }};
    (@sat bits $x:ident $need:ident $r:ident) => {
        $r
    };
    (@per cheap $x:ident $need:ident $regs:ident $env:ident ($t0:ident $t1:ident $t2:ident) ($a:ident) $body:expr) => {
        per1(src($regs, $env, &$x.src[0], $t0), |$a: u32| $body)
    };
    (@per costly $x:ident $need:ident $regs:ident $env:ident ($t0:ident $t1:ident $t2:ident) ($a:ident) $body:expr) => {
        per1n($need, src($regs, $env, &$x.src[0], $t0), |$a: u32| $body)
    };
    (@per cheap $x:ident $need:ident $regs:ident $env:ident ($t0:ident $t1:ident $t2:ident) ($a:ident, $b:ident) $body:expr) => {
        per2(src($regs, $env, &$x.src[0], $t0), src($regs, $env, &$x.src[1], $t1), |$a: u32, $b: u32| $body)
    };
    (@per costly $x:ident $need:ident $regs:ident $env:ident ($t0:ident $t1:ident $t2:ident) ($a:ident, $b:ident) $body:expr) => {
        per2n($need, src($regs, $env, &$x.src[0], $t0), src($regs, $env, &$x.src[1], $t1), |$a: u32, $b: u32| $body)
    };
    (@per cheap $x:ident $need:ident $regs:ident $env:ident ($t0:ident $t1:ident $t2:ident) ($a:ident, $b:ident, $e:ident) $body:expr) => {
        per3(
            src($regs, $env, &$x.src[0], $t0),
            src($regs, $env, &$x.src[1], $t1),
            src($regs, $env, &$x.src[2], $t2),
            |$a: u32, $b: u32, $e: u32| $body,
        )
    };
}
super::alu_semantics!(lanes_alu);

/// A resource read (`ld`, samples, gathers, queries) for the lanes of `mask`.
#[inline(never)]
fn resource(regs: &mut [L], t: [&mut [L; 4]; 4], env: &Env<'_, '_, '_>, x: &Inst, r: &ResOp, mask: u32, full: bool) {
    let [t0, t1, t2, t3] = t;
    let a = src(regs, env, &x.src[0], t0);
    let b = src(regs, env, &x.src[1], t1);
    let d = src(regs, env, &x.src[2], t2);
    let e = src(regs, env, &x.src[3], t3);
    let lane = |v: &[L; 4], l: usize| [v[0][l], v[1][l], v[2][l], v[3][l]];
    let res = env.res;
    let mut out = ZERO4;
    // Each lane's result, through the resource operand's swizzle (and `_sat` for
    // samples and gathers).
    let mut each_lane = |sat: bool, f: &dyn Fn(usize) -> [u32; 4]| {
        let sat = sat && x.sat();
        for l in each(mask) {
            let v = f(l);
            let w = |k: usize| (r.swz >> (2 * k)) as usize & 3;
            let v = [v[w(0)], v[w(1)], v[w(2)], v[w(3)]];
            let v = if sat { v.map(alu::sat) } else { v };
            for c in 0..4 {
                out[c][l] = v[c];
            }
        }
    };
    match x.op {
        Op::Ld => each_lane(false, &|l| res::load(res, r, lane(a, l))),
        Op::LdRaw => each_lane(false, &|l| res::ld_raw(res, r, lane(a, l))),
        Op::LdStructured => each_lane(false, &|l| res::ld_structured(res, r, lane(a, l), lane(b, l))),
        Op::ResInfo => each_lane(false, &|l| res::resinfo(res, r, a[0][l])),
        Op::BufInfo => each_lane(false, &|_| res::bufinfo(res, r)),
        Op::SampleL => each_lane(true, &|l| res::sample(res, r, lane(a, l), res::Lod::Given(alu::f(b[0][l])), None)),
        Op::SampleCLz => {
            each_lane(true, &|l| res::sample(res, r, lane(a, l), res::Lod::Given(0.0), Some(alu::f(d[0][l]))))
        }
        Op::SampleD => each_lane(true, &|l| {
            let clamp = r.clamp.then(|| alu::f(e[0][l]));
            let lod = res::Lod::Gradients(lane(b, l).map(alu::f), lane(d, l).map(alu::f), clamp);
            res::sample(res, r, lane(a, l), lod, None)
        }),
        Op::Gather4 => each_lane(true, &|l| res::gather4(res, r, lane(a, l), lane(b, l), alu::f(d[0][l]))),
        Op::LdMs => each_lane(false, &|l| res::ldms(res, r, lane(a, l), b[0][l])),
        Op::SampleInfo => each_lane(false, &|_| res::sample_info(res, r)),
        Op::SamplePos => each_lane(false, &|l| res::sample_pos(res, r, a[0][l])),
        _ => {}
    }
    store(regs, env, &x.dst[0], &out, mask, full);
    if r.feedback {
        // Tiled-resource status of the `_s` forms: always fully mapped.
        store(regs, env, &x.dst[1], &[[1; W]; 4], mask, full);
    }
}
