//! The dispatch loop.

use super::compile::CALL_DEPTH;
use super::res;
use super::{Code, Dst, DstKind, Inst, Op, Src, SrcKind};
use crate::alu::{self, ftz4};
use crate::error::{ExecError, ExecErrorKind};
use crate::machine::{EmitSink, ExecDiagnostic};
use crate::resources::Resources;

/// Most checking-mode findings kept between two `take_diagnostics` calls.
const MAX_DIAGNOSTICS: usize = 10_000;

/// Registers and per-invocation state, reused across invocations.
#[derive(Debug, Clone)]
pub(crate) struct Core {
    pub regs: Vec<[u32; 4]>,
    /// The code whose constants are loaded (its id).
    pub loaded: u64,
    pub stack: [u32; CALL_DEPTH as usize],
    pub checking: bool,
    /// Checking mode: components of each output register written since the last emit.
    pub written: Vec<u8>,
    pub diagnostics: Vec<ExecDiagnostic>,
    pub dropped: usize,
}

/// How an invocation ended.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Ended {
    pub emitted: u32,
    pub hit_max: bool,
}

#[inline(always)]
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
fn cb_read(res: &Resources<'_>, slot: u32, e: u32) -> [u32; 4] {
    match res.constant_buffers.get(slot as usize) {
        Some(Some(cb)) => cb.get(e as usize).copied().unwrap_or([0; 4]),
        _ => [0; 4],
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
        }
    }

    /// Sizes the register file for `code` and loads its constants (once per code).
    pub fn load(&mut self, code: &Code) {
        if self.loaded == code.id {
            return;
        }
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
    }

    #[inline(always)]
    fn reg(&self, i: u32) -> [u32; 4] {
        match self.regs.get(i as usize) {
            Some(r) => *r,
            None => [0; 4],
        }
    }

    #[inline(always)]
    fn comp(&self, i: u32, c: u8) -> u32 {
        self.reg(i)[c as usize & 3]
    }

    /// Reads a source operand: fetch, swizzle, modifiers.
    #[inline(always)]
    fn rd(&self, res: &Resources<'_>, s: &Src) -> [u32; 4] {
        let v = match s.kind {
            SrcKind::Reg => self.reg(s.reg),
            SrcKind::Rel => {
                let i = s.imm.wrapping_add(self.comp(s.rel, s.rel_c));
                if i < s.count {
                    self.reg(s.reg.wrapping_add(i.wrapping_mul(s.stride)))
                } else {
                    [0; 4]
                }
            }
            SrcKind::Cb => cb_read(res, s.slot, s.reg),
            SrcKind::CbRel => cb_read(res, s.slot, s.imm.wrapping_add(self.comp(s.rel, s.rel_c))),
        };
        let w = s.swz;
        let v = [v[w[0] as usize & 3], v[w[1] as usize & 3], v[w[2] as usize & 3], v[w[3] as usize & 3]];
        let v = [
            (v[0] & s.and[0]) ^ s.xor[0],
            (v[1] & s.and[1]) ^ s.xor[1],
            (v[2] & s.and[2]) ^ s.xor[2],
            (v[3] & s.and[3]) ^ s.xor[3],
        ];
        if s.imod == 0 {
            v
        } else {
            let abs = s.imod & 2 != 0;
            let neg = s.imod & 1 != 0;
            map4(v, |x| {
                let x = if abs { (x as i32).wrapping_abs() as u32 } else { x };
                if neg {
                    x.wrapping_neg()
                } else {
                    x
                }
            })
        }
    }

    /// Reads a float source with denormals flushed.
    #[inline(always)]
    fn rf(&self, res: &Resources<'_>, s: &Src) -> [u32; 4] {
        ftz4(self.rd(res, s))
    }

    /// Writes `v` through a destination's mask.
    #[inline(always)]
    fn wr(&mut self, d: &Dst, v: [u32; 4]) {
        let i = match d.kind {
            DstKind::Reg => d.reg,
            DstKind::Null => return,
            DstKind::Rel => {
                let e = d.imm.wrapping_add(self.comp(d.rel, d.rel_c));
                if e >= d.count {
                    return;
                }
                d.reg.wrapping_add(e.wrapping_mul(d.stride))
            }
        };
        if let Some(r) = self.regs.get_mut(i as usize) {
            let m = d.wm;
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

    /// Writes a float result: flushed, saturated if asked.
    #[inline(always)]
    fn wf(&mut self, x: &Inst, k: usize, v: [u32; 4]) {
        let v = ftz4(v);
        let v = if x.sat { sat4(v) } else { v };
        self.wr(&x.dst[k], v);
    }

    #[inline(always)]
    fn f1(&mut self, res: &Resources<'_>, x: &Inst, f: impl Fn(f32) -> f32) {
        let a = self.rf(res, &x.src[0]);
        let r = map4(a, |a| f(f32::from_bits(a)).to_bits());
        self.wf(x, 0, r);
    }

    #[inline(always)]
    fn f2(&mut self, res: &Resources<'_>, x: &Inst, f: impl Fn(f32, f32) -> f32) {
        let a = self.rf(res, &x.src[0]);
        let b = self.rf(res, &x.src[1]);
        let r = zip4(a, b, |a, b| f(f32::from_bits(a), f32::from_bits(b)).to_bits());
        self.wf(x, 0, r);
    }

    #[inline(always)]
    fn fcmp(&mut self, res: &Resources<'_>, x: &Inst, f: impl Fn(f32, f32) -> bool) {
        let a = self.rf(res, &x.src[0]);
        let b = self.rf(res, &x.src[1]);
        let r = zip4(a, b, |a, b| alu::mask(f(f32::from_bits(a), f32::from_bits(b))));
        self.wr(&x.dst[0], r);
    }

    #[inline(always)]
    fn dot(&mut self, res: &Resources<'_>, x: &Inst, n: usize) {
        let a = self.rf(res, &x.src[0]).map(f32::from_bits);
        let b = self.rf(res, &x.src[1]).map(f32::from_bits);
        let mut s = a[0] * b[0];
        for c in 1..n {
            s += a[c] * b[c];
        }
        self.wf(x, 0, [s.to_bits(); 4]);
    }

    #[inline(always)]
    fn i1(&mut self, res: &Resources<'_>, x: &Inst, f: impl Fn(u32) -> u32) {
        let a = self.rd(res, &x.src[0]);
        self.wr(&x.dst[0], map4(a, f));
    }

    #[inline(always)]
    fn i2(&mut self, res: &Resources<'_>, x: &Inst, f: impl Fn(u32, u32) -> u32) {
        let a = self.rd(res, &x.src[0]);
        let b = self.rd(res, &x.src[1]);
        self.wr(&x.dst[0], zip4(a, b, f));
    }

    #[inline(always)]
    fn i3(&mut self, res: &Resources<'_>, x: &Inst, f: impl Fn(u32, u32, u32) -> u32) {
        let a = self.rd(res, &x.src[0]);
        let b = self.rd(res, &x.src[1]);
        let c = self.rd(res, &x.src[2]);
        self.wr(&x.dst[0], zip34(a, b, c, f));
    }

    /// Two results per component (imul, umul, udiv, uaddc, usubb).
    #[inline(always)]
    fn i2x2(&mut self, res: &Resources<'_>, x: &Inst, f: impl Fn(u32, u32) -> (u32, u32)) {
        let a = self.rd(res, &x.src[0]);
        let b = self.rd(res, &x.src[1]);
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
        let r = if x.sat { r.map(alu::dsat) } else { r };
        self.wr(&x.dst[0], dwords(r));
    }

    #[inline]
    fn d2(&mut self, res: &Resources<'_>, x: &Inst, f: impl Fn(f64, f64) -> f64) {
        let a = dd(self.rd(res, &x.src[0]));
        let b = dd(self.rd(res, &x.src[1]));
        self.wd(x, [f(a[0], b[0]), f(a[1], b[1])]);
    }

    #[inline]
    fn dcmp(&mut self, res: &Resources<'_>, x: &Inst, f: impl Fn(f64, f64) -> bool) {
        let a = dd(self.rd(res, &x.src[0]));
        let b = dd(self.rd(res, &x.src[1]));
        let r = [alu::mask(f(a[0], b[0])), alu::mask(f(a[1], b[1]))];
        self.wr(&x.dst[0], scatter2(x.dst[0].mask, r));
    }

    /// The condition of a conditional instruction: true when `src0.x != 0` matches `_nz`.
    #[inline(always)]
    fn cond(&self, res: &Resources<'_>, x: &Inst) -> bool {
        (self.rd(res, &x.src[0])[0] != 0) == x.nz
    }

    fn diagnose(&mut self, instruction: usize, message: String) {
        if self.diagnostics.len() < MAX_DIAGNOSTICS {
            self.diagnostics.push(ExecDiagnostic { instruction, message });
        } else {
            self.dropped += 1;
        }
    }

    /// Checking mode at an emit on `stream`: every declared output component of the
    /// stream must have been written since the previous emit.
    #[cold]
    fn check_emit(&mut self, code: &Code, stream: u32, instruction: usize) {
        let mut findings = Vec::new();
        for o in code.declared_outputs.iter().filter(|o| o.stream == stream) {
            let written = self.written.get(o.register as usize).copied().unwrap_or(0);
            let missing = o.mask & !written & 15;
            if missing != 0 {
                let comps: String = (0..4).filter(|c| missing & (1 << c) != 0).map(|c| b"xyzw"[c] as char).collect();
                findings.push(format!(
                    "emit on stream {stream}: o{}.{comps} was not written since the previous emit (its value is undefined)",
                    o.register
                ));
            }
        }
        for f in findings {
            self.diagnose(instruction, f);
        }
        self.written.fill(0);
    }

    /// Runs the code from the start. `sink` receives emits and cuts (geometry shaders).
    pub fn run(
        &mut self,
        code: &Code,
        res: &mut Resources<'_>,
        mut sink: Option<&mut dyn EmitSink>,
        limit: u64,
    ) -> Result<Ended, ExecError> {
        let insts = code.insts.as_slice();
        let outputs = (code.layout.outputs as usize).min(self.regs.len());
        let max = code.max_vertex_count;
        let mut pc = 0usize;
        let mut steps = 0u64;
        let mut depth = 0usize;
        let mut emitted = 0u32;
        let at = |pc: usize| code.origin.get(pc).map_or(0, |&i| i as usize);
        loop {
            let Some(x) = insts.get(pc) else {
                return Ok(Ended { emitted, hit_max: false });
            };
            if steps >= limit {
                return Err(ExecError::at(at(pc), ExecErrorKind::StepLimit(steps)));
            }
            steps += 1;
            pc += 1;
            let r: &Resources<'_> = res;
            match x.op {
                Op::Jmp => pc = x.a as usize,
                Op::JmpIf => {
                    if self.cond(r, x) {
                        pc = x.a as usize;
                    }
                }
                Op::Switch => {
                    let v = self.rd(r, &x.src[0])[0];
                    if let Some(t) = code.switches.get(x.a as usize) {
                        pc = t.cases.iter().find(|c| c.0 == v).map_or(t.default, |c| c.1) as usize;
                    }
                }
                Op::Call | Op::CallIf => {
                    if x.op == Op::CallIf && !self.cond(r, x) {
                        continue;
                    }
                    if depth >= self.stack.len() {
                        return Err(ExecError::at(at(pc - 1), ExecErrorKind::CallDepth(CALL_DEPTH)));
                    }
                    self.stack[depth] = pc as u32;
                    depth += 1;
                    pc = x.a as usize;
                }
                Op::Ret | Op::RetIf => {
                    if x.op == Op::RetIf && !self.cond(r, x) {
                        continue;
                    }
                    if depth == 0 {
                        return Ok(Ended { emitted, hit_max: false });
                    }
                    depth -= 1;
                    pc = self.stack[depth] as usize;
                }
                Op::Emit | Op::EmitCut => {
                    if let Some(s) = sink.as_deref_mut() {
                        if emitted >= max {
                            return Ok(Ended { emitted, hit_max: true });
                        }
                        if self.checking {
                            self.check_emit(code, x.a, at(pc - 1));
                        }
                        s.emit(x.a, &self.regs[..outputs]);
                        emitted += 1;
                        if x.op == Op::EmitCut {
                            s.cut(x.a);
                        }
                        if emitted >= max {
                            return Ok(Ended { emitted, hit_max: true });
                        }
                    }
                }
                Op::Cut => {
                    if let Some(s) = sink.as_deref_mut() {
                        s.cut(x.a);
                    }
                }
                Op::Abort => {
                    return Err(ExecError::at(
                        at(pc - 1),
                        ExecErrorKind::Unsupported("abort (the program aborted)".into()),
                    ));
                }
                Op::Add => self.f2(r, x, |a, b| a + b),
                Op::Mul => self.f2(r, x, |a, b| a * b),
                Op::Div => self.f2(r, x, |a, b| a / b),
                Op::Mad => {
                    let a = self.rf(r, &x.src[0]);
                    let b = self.rf(r, &x.src[1]);
                    let c = self.rf(r, &x.src[2]);
                    let v =
                        zip34(a, b, c, |a, b, c| (f32::from_bits(a) * f32::from_bits(b) + f32::from_bits(c)).to_bits());
                    self.wf(x, 0, v);
                }
                Op::Dp2 => self.dot(r, x, 2),
                Op::Dp3 => self.dot(r, x, 3),
                Op::Dp4 => self.dot(r, x, 4),
                Op::Min => {
                    let a = self.rd(r, &x.src[0]);
                    let b = self.rd(r, &x.src[1]);
                    self.wf(x, 0, zip4(a, b, alu::fmin));
                }
                Op::Max => {
                    let a = self.rd(r, &x.src[0]);
                    let b = self.rd(r, &x.src[1]);
                    self.wf(x, 0, zip4(a, b, alu::fmax));
                }
                Op::Rcp => self.f1(r, x, alu::rcp),
                Op::Rsq => self.f1(r, x, alu::rsq),
                Op::Sqrt => self.f1(r, x, f32::sqrt),
                Op::Exp => self.f1(r, x, alu::exp2),
                Op::Log => self.f1(r, x, alu::log2),
                Op::Frc => self.f1(r, x, alu::frc),
                Op::RoundNe => self.f1(r, x, f32::round_ties_even),
                Op::RoundNi => self.f1(r, x, f32::floor),
                Op::RoundPi => self.f1(r, x, f32::ceil),
                Op::RoundZ => self.f1(r, x, f32::trunc),
                Op::SinCos => {
                    let a = self.rf(r, &x.src[0]);
                    if x.dst[0].kind != DstKind::Null {
                        self.wf(x, 0, map4(a, |a| f32::from_bits(a).sin().to_bits()));
                    }
                    if x.dst[1].kind != DstKind::Null {
                        self.wf(x, 1, map4(a, |a| f32::from_bits(a).cos().to_bits()));
                    }
                }
                Op::Eq => self.fcmp(r, x, |a, b| a == b),
                Op::Ne => self.fcmp(r, x, |a, b| a != b),
                Op::Lt => self.fcmp(r, x, |a, b| a < b),
                Op::Ge => self.fcmp(r, x, |a, b| a >= b),
                Op::Mov => {
                    let a = self.rd(r, &x.src[0]);
                    let a = if x.sat { sat4(a) } else { a };
                    self.wr(&x.dst[0], a);
                }
                Op::Movc => {
                    let c = self.rd(r, &x.src[0]);
                    let a = self.rd(r, &x.src[1]);
                    let b = self.rd(r, &x.src[2]);
                    let v = zip34(c, a, b, |c, a, b| if c != 0 { a } else { b });
                    let v = if x.sat { sat4(v) } else { v };
                    self.wr(&x.dst[0], v);
                }
                Op::Swapc => {
                    let c = self.rd(r, &x.src[0]);
                    let a = self.rd(r, &x.src[1]);
                    let b = self.rd(r, &x.src[2]);
                    let d0 = zip34(c, a, b, |c, a, b| if c != 0 { b } else { a });
                    let d1 = zip34(c, a, b, |c, a, b| if c != 0 { a } else { b });
                    self.wr(&x.dst[0], d0);
                    self.wr(&x.dst[1], d1);
                }
                Op::Iadd => self.i2(r, x, u32::wrapping_add),
                Op::Imad | Op::Umad => self.i3(r, x, |a, b, c| a.wrapping_mul(b).wrapping_add(c)),
                Op::Imul => self.i2x2(r, x, alu::imul),
                Op::Umul => self.i2x2(r, x, alu::umul),
                Op::Udiv => self.i2x2(r, x, alu::udiv),
                Op::Uaddc => self.i2x2(r, x, alu::uaddc),
                Op::Usubb => self.i2x2(r, x, alu::usubb),
                Op::Imax => self.i2(r, x, |a, b| (a as i32).max(b as i32) as u32),
                Op::Imin => self.i2(r, x, |a, b| (a as i32).min(b as i32) as u32),
                Op::Umax => self.i2(r, x, u32::max),
                Op::Umin => self.i2(r, x, u32::min),
                Op::Ieq => self.i2(r, x, |a, b| alu::mask(a == b)),
                Op::Ine => self.i2(r, x, |a, b| alu::mask(a != b)),
                Op::Ilt => self.i2(r, x, |a, b| alu::mask((a as i32) < (b as i32))),
                Op::Ige => self.i2(r, x, |a, b| alu::mask((a as i32) >= (b as i32))),
                Op::Ult => self.i2(r, x, |a, b| alu::mask(a < b)),
                Op::Uge => self.i2(r, x, |a, b| alu::mask(a >= b)),
                Op::Ineg => self.i1(r, x, u32::wrapping_neg),
                Op::Ishl => self.i2(r, x, alu::ishl),
                Op::Ishr => self.i2(r, x, alu::ishr),
                Op::Ushr => self.i2(r, x, alu::ushr),
                Op::And => self.i2(r, x, |a, b| a & b),
                Op::Or => self.i2(r, x, |a, b| a | b),
                Op::Xor => self.i2(r, x, |a, b| a ^ b),
                Op::Not => self.i1(r, x, |a| !a),
                Op::CountBits => self.i1(r, x, u32::count_ones),
                Op::FirstBitHi => self.i1(r, x, alu::firstbit_hi),
                Op::FirstBitLo => self.i1(r, x, alu::firstbit_lo),
                Op::FirstBitShi => self.i1(r, x, alu::firstbit_shi),
                Op::Ubfe => self.i3(r, x, alu::ubfe),
                Op::Ibfe => self.i3(r, x, alu::ibfe),
                Op::Bfi => {
                    let a = self.rd(r, &x.src[0]);
                    let b = self.rd(r, &x.src[1]);
                    let c = self.rd(r, &x.src[2]);
                    let d = self.rd(r, &x.src[3]);
                    let v = [0, 1, 2, 3].map(|k| alu::bfi(a[k], b[k], c[k], d[k]));
                    self.wr(&x.dst[0], v);
                }
                Op::Bfrev => self.i1(r, x, u32::reverse_bits),
                Op::Msad => self.i3(r, x, alu::msad),
                Op::Ftoi => {
                    let a = self.rf(r, &x.src[0]);
                    self.wr(&x.dst[0], map4(a, |a| alu::ftoi(f32::from_bits(a))));
                }
                Op::Ftou => {
                    let a = self.rf(r, &x.src[0]);
                    self.wr(&x.dst[0], map4(a, |a| alu::ftou(f32::from_bits(a))));
                }
                Op::Itof => {
                    let a = self.rd(r, &x.src[0]);
                    self.wf(x, 0, map4(a, alu::itof));
                }
                Op::Utof => {
                    let a = self.rd(r, &x.src[0]);
                    self.wf(x, 0, map4(a, alu::utof));
                }
                Op::F16ToF32 => {
                    let a = self.rd(r, &x.src[0]);
                    let v = map4(a, alu::f16tof32);
                    let v = if x.sat { sat4(v) } else { v };
                    self.wr(&x.dst[0], v);
                }
                Op::F32ToF16 => {
                    let a = self.rd(r, &x.src[0]);
                    self.wr(&x.dst[0], map4(a, alu::f32tof16));
                }
                Op::Dadd => self.d2(r, x, |a, b| a + b),
                Op::Dmul => self.d2(r, x, |a, b| a * b),
                Op::Ddiv => self.d2(r, x, |a, b| a / b),
                Op::Dmin => self.d2(r, x, alu::dmin),
                Op::Dmax => self.d2(r, x, alu::dmax),
                Op::Dfma => {
                    let a = dd(self.rd(r, &x.src[0]));
                    let b = dd(self.rd(r, &x.src[1]));
                    let c = dd(self.rd(r, &x.src[2]));
                    self.wd(x, [a[0].mul_add(b[0], c[0]), a[1].mul_add(b[1], c[1])]);
                }
                Op::Drcp => {
                    let a = dd(self.rd(r, &x.src[0]));
                    self.wd(x, [1.0 / a[0], 1.0 / a[1]]);
                }
                Op::Dmov => {
                    let a = self.rd(r, &x.src[0]);
                    if x.sat {
                        self.wd(x, dd(a));
                    } else {
                        self.wr(&x.dst[0], a);
                    }
                }
                Op::Dmovc => {
                    let c = self.rd(r, &x.src[0]);
                    let a = self.rd(r, &x.src[1]);
                    let b = self.rd(r, &x.src[2]);
                    let lo = if c[0] != 0 { [a[0], a[1]] } else { [b[0], b[1]] };
                    let hi = if c[1] != 0 { [a[2], a[3]] } else { [b[2], b[3]] };
                    let v = [lo[0], lo[1], hi[0], hi[1]];
                    if x.sat {
                        self.wd(x, dd(v));
                    } else {
                        self.wr(&x.dst[0], v);
                    }
                }
                Op::Deq => self.dcmp(r, x, |a, b| a == b),
                Op::Dge => self.dcmp(r, x, |a, b| a >= b),
                Op::Dlt => self.dcmp(r, x, |a, b| a < b),
                Op::Dne => self.dcmp(r, x, |a, b| a != b),
                Op::Dtof | Op::Dtoi | Op::Dtou => {
                    let a = dd(self.rd(r, &x.src[0]));
                    let f = match x.op {
                        Op::Dtof => alu::dtof,
                        Op::Dtoi => alu::dtoi,
                        _ => alu::dtou,
                    };
                    let v = scatter2(x.dst[0].mask, [f(a[0]), f(a[1])]);
                    let v = if x.sat && x.op == Op::Dtof { sat4(v) } else { v };
                    self.wr(&x.dst[0], v);
                }
                Op::Ftod | Op::Itod | Op::Utod => {
                    let a = self.rd(r, &x.src[0]);
                    let f = |v: u32| match x.op {
                        Op::Ftod => alu::ftod(v),
                        Op::Itod => v as i32 as f64,
                        _ => v as f64,
                    };
                    self.wd(x, [f(a[0]), f(a[1])]);
                }
                Op::Ld
                | Op::LdUavTyped
                | Op::LdRaw
                | Op::LdStructured
                | Op::ResInfo
                | Op::BufInfo
                | Op::SampleL
                | Op::CheckAccess => {
                    let a = self.rd(r, &x.src[0]);
                    let b = self.rd(r, &x.src[1]);
                    let v = res::read(r, x, a, b);
                    let v = [
                        v[x.rswz[0] as usize & 3],
                        v[x.rswz[1] as usize & 3],
                        v[x.rswz[2] as usize & 3],
                        v[x.rswz[3] as usize & 3],
                    ];
                    let v = if x.sat && x.op == Op::SampleL { sat4(ftz4(v)) } else { v };
                    self.wr(&x.dst[0], v);
                    if x.flag & 1 != 0 {
                        // Tiled-resource status of the `_s` forms: always fully mapped.
                        self.wr(&x.dst[1], [1; 4]);
                    }
                }
                Op::StoreUavTyped | Op::StoreRaw | Op::StoreStructured | Op::Atomic => {
                    let a = self.rd(r, &x.src[0]);
                    let b = self.rd(r, &x.src[1]);
                    let c = self.rd(r, &x.src[2]);
                    res::write(res, x, a, b, c);
                }
                Op::ImmAtomic | Op::ImmAtomicAlloc | Op::ImmAtomicConsume => {
                    let a = self.rd(r, &x.src[0]);
                    let b = self.rd(r, &x.src[1]);
                    let c = self.rd(r, &x.src[2]);
                    let old = res::write(res, x, a, b, c);
                    self.wr(&x.dst[0], [old; 4]);
                }
            }
        }
    }
}
