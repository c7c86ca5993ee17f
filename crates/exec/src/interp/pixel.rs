//! A pixel shader's quad: four invocations, one [`Core`] each, run in phases around
//! the quad operations (derivatives, implicit-LOD samples, `lod`) as a compute
//! shader's threads run around barriers (`interp/compute.rs`).
//!
//! Each lane runs until it ends or reaches a quad operation, which suspends it. Then
//! the lowest suspended instruction runs for the lanes waiting at it, reading its
//! source in all four lanes' registers, and those lanes go on. While the lanes agree
//! (no divergent flow control around a quad operation) every lane's source value is
//! the one it computed for that instruction. A lane that is not at the instruction
//! (it ended, or waits at another one) contributes the registers it has: Direct3D
//! leaves derivatives in divergent flow control undefined.

use super::exec::{general, res_out, rop, Core, Resume, Stop};
use super::{res, Code, Inst, Op, D_FINE, D_Y, EVAL_SNAPPED};
use crate::alu;
use crate::error::{ExecError, ExecErrorKind};
use crate::resources::Resources;

#[derive(Debug, Clone, Copy)]
enum Lane {
    /// Runs (on) from here.
    Ready(Resume),
    /// Suspended at the quad operation of compiled instruction `pc`; goes on from `at`.
    Waiting { pc: u32, at: Resume },
    /// Ended.
    Done,
}

/// Evaluates input register `v#` for lane `l` at an offset from the pixel centre in
/// sixteenths of a pixel (`eval_*`: the rasterizer's attribute planes).
pub(crate) type Eval<'e> = &'e dyn Fn(usize, u32, [i32; 2]) -> [u32; 4];

/// Runs the quad whose four lanes `cores` were started (inputs placed) by the
/// caller, in lane order (x, y), (x + 1, y), (x, y + 1), (x + 1, y + 1); each lane
/// is bounded by `limit` instructions; `eval` evaluates attributes for `Op::Eval`
/// (0 without it). Returns the instructions the lanes executed.
pub(crate) fn run_quad(
    cores: &mut [Core; 4],
    code: &Code,
    res: &mut Resources<'_>,
    limit: u64,
    eval: Option<Eval<'_>>,
) -> Result<u64, ExecError> {
    let origin = |pc: u32| code.origin.get(pc as usize).map_or(0, |&i| i as usize);
    let mut lanes = [Lane::Ready(Resume::default()); 4];
    let mut steps = 0u64;
    loop {
        for (l, core) in cores.iter_mut().enumerate() {
            let Lane::Ready(mut at) = lanes[l] else { continue };
            lanes[l] = match core.run_at(code, res, None, limit, &mut [], &mut at)? {
                Stop::End(_) => {
                    steps += at.steps;
                    Lane::Done
                }
                Stop::Quad { pc } => Lane::Waiting { pc, at },
                Stop::Barrier { pc } => {
                    return Err(ExecError::at(
                        origin(pc),
                        ExecErrorKind::Malformed("a thread-group barrier in a pixel shader".into()),
                    ))
                }
            };
        }
        let next = lanes
            .iter()
            .filter_map(|s| match s {
                Lane::Waiting { pc, .. } => Some(*pc),
                _ => None,
            })
            .min();
        let Some(pc) = next else { break };
        let here = lanes.map(|s| matches!(s, Lane::Waiting { pc: p, .. } if p == pc));
        let Some(x) = code.insts.get(pc as usize) else {
            return Err(ExecError::at(
                origin(pc),
                ExecErrorKind::Malformed("quad operation out of the program".into()),
            ));
        };
        quad_op(cores, code, res, x, here, eval);
        for s in lanes.iter_mut() {
            if let Lane::Waiting { pc: p, at } = *s {
                if p == pc {
                    *s = Lane::Ready(at);
                }
            }
        }
    }
    Ok(steps)
}

/// `b - a`, component by component, as a float subtraction (denormals flushed).
fn delta(a: [u32; 4], b: [u32; 4]) -> [f32; 4] {
    [0, 1, 2, 3].map(|k| alu::f(alu::bits(alu::f(b[k]) - alu::f(a[k]))))
}

/// The lanes whose difference is lane `l`'s derivative: (from, to). Coarse: the top
/// row for x, the left column for y, for every lane (Microsoft's deriv_rtx_coarse
/// page gives these as the example); fine: the row or column of lane `l` (the
/// deriv_rtx_fine page).
fn pair(l: usize, y: bool, fine: bool) -> (usize, usize) {
    match (y, fine) {
        (false, false) => (0, 1),
        (true, false) => (0, 2),
        (false, true) => (l & 2, (l & 2) | 1),
        (true, true) => (l & 1, (l & 1) | 2),
    }
}

/// Runs quad operation `x` for the lanes `here`.
fn quad_op(
    cores: &mut [Core; 4],
    code: &Code,
    res: &mut Resources<'_>,
    x: &Inst,
    here: [bool; 4],
    eval: Option<Eval<'_>>,
) {
    // The source (the address, for samples) in every lane.
    let mut v = [[0u32; 4]; 4];
    for (l, core) in cores.iter_mut().enumerate() {
        v[l] = core.with_ctx(code, res, |c| c.rd(&x.src[0]));
    }
    match x.op {
        Op::Deriv => {
            let (y, fine) = (x.a & D_Y != 0, x.a & D_FINE != 0);
            for (l, core) in cores.iter_mut().enumerate().filter(|(l, _)| here[*l]) {
                let (a, b) = pair(l, y, fine);
                let d = delta(v[a], v[b]).map(alu::bits);
                core.with_ctx(code, res, |c| c.wf(x, 0, d));
            }
        }
        Op::SampleQuad | Op::LodQuad => {
            // One LOD per quad: the coarse derivatives of the address (spec 7.18.11
            // computes the LOD from the address's derivatives in x and y).
            let dx = delta(v[0], v[1]);
            let dy = delta(v[0], v[2]);
            for (l, core) in cores.iter_mut().enumerate().filter(|(l, _)| here[*l]) {
                let addr = v[l];
                core.with_ctx(code, res, |c| {
                    let r = rop(c, x);
                    if x.op == Op::LodQuad {
                        let out = res::lod(c.res, &r, addr, dx, dy);
                        res_out(c, x, &r, out, false);
                        return;
                    }
                    let bias = if r.bias { res::sample_bias(alu::f(c.rd(&x.src[1])[0])) } else { 0.0 };
                    let reference = r.compare.then(|| alu::f(c.rd(&x.src[2])[0]));
                    let clamp = r.clamp.then(|| alu::f(c.rd(&x.src[3])[0]));
                    let lod = res::Lod::Implicit(dx, dy, bias, clamp);
                    let out = res::sample(c.res, &r, addr, lod, reference);
                    res_out(c, x, &r, out, true);
                });
            }
        }
        Op::Eval => {
            // eval_snapped: the low 4 bits of the offset's x and y, signed sixteenths
            // of a pixel (functional spec 22.4.25); eval_sample_index and
            // eval_centroid: one sample, at the centre.
            let (register, kind) = (x.a & 0xffff, x.a >> 16);
            for (l, core) in cores.iter_mut().enumerate().filter(|(l, _)| here[*l]) {
                core.with_ctx(code, res, |c| {
                    let offset = if kind == EVAL_SNAPPED {
                        let o = c.rd(&x.src[1]);
                        [((o[0] << 28) as i32) >> 28, ((o[1] << 28) as i32) >> 28]
                    } else {
                        [0, 0]
                    };
                    let value = eval.map_or([0; 4], |f| f(l, register, offset));
                    c.wf(x, 0, general(&value, &x.src[0]));
                });
            }
        }
        _ => {}
    }
}
