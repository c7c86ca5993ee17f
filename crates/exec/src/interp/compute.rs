//! A compute shader's dispatch: thread groups one after another, the threads of a
//! group one after another, each run to its end — or, in a program with a
//! thread-group barrier, each run to the barrier, then each on to the next one
//! (phases), its registers and return addresses kept per thread meanwhile.
//!
//! Everything is allocated once per dispatch (the group's shared memory and, with
//! barriers, each thread's saved registers); nothing while threads run.

use super::compile::CALL_DEPTH;
use super::exec::{Core, Resume, Stop};
use super::Code;
use crate::compute::GroupOrder;
use crate::error::{ExecError, ExecErrorKind};
use crate::resources::Resources;

/// What a dispatch did.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Counts {
    pub invocations: u64,
    pub groups: u64,
    /// Barriers the groups went through (one per group per `sync_*_t` reached).
    pub barriers: u64,
    pub steps: u64,
}

/// The most memory a dispatch keeps for its threads' saved registers.
const MAX_SAVED_BYTES: u64 = 1 << 28;

/// A thread's state between phases.
#[derive(Debug, Clone, Copy)]
enum Thread {
    /// Waiting at the barrier of compiled instruction `pc`, to go on from `at`.
    Waiting { pc: u32, at: Resume },
    /// Ended.
    Done,
}

/// The thread-ID registers of thread `t` (flattened) of group `g`, as the layout
/// places them: `vThreadID`, `vThreadGroupID`, `vThreadIDInGroup`,
/// `vThreadIDInGroupFlattened` (functional spec 18.5: `SV_DispatchThreadID` =
/// `SV_GroupID` × the group size + `SV_GroupThreadID`; the flattened index
/// `z·X·Y + y·X + x`). The fourth component of the vectors is 0; the flattened index
/// is in every component.
fn ids(size: [u32; 3], g: [u32; 3], t: u32) -> [[u32; 4]; 4] {
    let (x, y) = (size[0].max(1), size[1].max(1));
    let local = [t % x, (t / x) % y, t / (x * y)];
    let global = [0, 1, 2].map(|k| g[k].wrapping_mul(size[k]).wrapping_add(local[k]));
    [[global[0], global[1], global[2], 0], [g[0], g[1], g[2], 0], [local[0], local[1], local[2], 0], [t; 4]]
}

fn place(core: &mut Core, code: &Code, ids: &[[u32; 4]; 4]) {
    let base = code.layout.inputs_base as usize;
    if let Some(r) = core.regs.get_mut(base..base + ids.len()) {
        r.copy_from_slice(ids);
    }
}

/// Where thread `t` is, for messages: `thread (1, 0, 0) of group (2, 0, 0)`.
fn who(size: [u32; 3], g: [u32; 3], t: u32) -> String {
    let l = ids(size, g, t)[2];
    format!("thread ({}, {}, {}) of group ({}, {}, {})", l[0], l[1], l[2], g[0], g[1], g[2])
}

/// Runs `groups` thread groups of `code` (a compute shader) with `res` bound, each
/// thread bounded by `limit` instructions, in `order`.
pub(crate) fn dispatch(
    core: &mut Core,
    code: &Code,
    groups: [u32; 3],
    res: &mut Resources<'_>,
    limit: u64,
    order: GroupOrder,
) -> Result<Counts, ExecError> {
    let reverse = order == GroupOrder::Reverse;
    // The threads of a group in flattened order, or last first.
    let thread = |n: u32, threads: u32| if order == GroupOrder::ReverseThreads { threads - 1 - n } else { n };
    core.load(code);
    let size = code.thread_group;
    let threads = size.iter().fold(1u32, |a, &n| a.saturating_mul(n));
    let mut counts = Counts::default();
    if groups.contains(&0) || threads == 0 {
        return Ok(counts);
    }
    let mut tgsm = vec![0u32; code.tgsm_words as usize];
    let writable = (code.layout.writable as usize).min(core.regs.len());
    let barriers = code.has_barrier;
    let (mut saved, mut stacks, mut state) = (Vec::new(), Vec::new(), Vec::new());
    if barriers {
        let bytes = threads as u64 * writable as u64 * 16;
        if bytes > MAX_SAVED_BYTES {
            return Err(ExecError::new(ExecErrorKind::Unsupported(format!(
                "a thread group of {threads} threads with {writable} registers each around barriers \
                 ({bytes} bytes; the interpreter keeps at most {MAX_SAVED_BYTES})"
            ))));
        }
        saved = vec![[0u32; 4]; threads as usize * writable];
        stacks = vec![[0u32; CALL_DEPTH as usize]; threads as usize];
        state = vec![Thread::Done; threads as usize];
    }
    let origin = |pc: u32| code.origin.get(pc as usize).map_or(0, |&i| i as usize);
    let [nx, ny, nz] = groups.map(u64::from);
    let total = nx * ny * nz;
    for n in 0..total {
        // Groups in x, then y, then z order (or the reverse of it).
        let k = if reverse { total - 1 - n } else { n };
        let g = [(k % nx) as u32, (k / nx % ny) as u32, (k / (nx * ny)) as u32];
        tgsm.fill(0);
        counts.groups += 1;
        counts.invocations += u64::from(threads);
        if !barriers {
            for n in 0..threads {
                let t = thread(n, threads);
                let id = ids(size, g, t);
                core.start(code, &id, 0, 0);
                let mut at = Resume::default();
                core.run_at(code, res, None, limit, &mut tgsm, &mut at)?;
                counts.steps += at.steps;
            }
            continue;
        }
        // Phase 0 from the start; then from the barrier every thread waits at.
        let mut first = true;
        loop {
            for n in 0..threads {
                let t = thread(n, threads) as usize;
                let id = ids(size, g, t as u32);
                let mut at = if first {
                    core.start(code, &id, 0, 0);
                    Resume::default()
                } else {
                    let Thread::Waiting { at, .. } = state[t] else { continue };
                    core.regs[..writable].copy_from_slice(&saved[t * writable..(t + 1) * writable]);
                    place(core, code, &id);
                    let depth = (at.depth as usize).min(CALL_DEPTH as usize);
                    core.stack[..depth].copy_from_slice(&stacks[t][..depth]);
                    at
                };
                state[t] = match core.run_at(code, res, None, limit, &mut tgsm, &mut at)? {
                    Stop::End(_) => {
                        counts.steps += at.steps;
                        Thread::Done
                    }
                    Stop::Barrier { pc } => {
                        saved[t * writable..(t + 1) * writable].copy_from_slice(&core.regs[..writable]);
                        let depth = (at.depth as usize).min(CALL_DEPTH as usize);
                        stacks[t][..depth].copy_from_slice(&core.stack[..depth]);
                        Thread::Waiting { pc, at }
                    }
                    // Quad operations compile in pixel shaders only.
                    Stop::Quad { pc } => {
                        return Err(ExecError::at(
                            origin(pc),
                            ExecErrorKind::Malformed("a quad operation in a compute shader".into()),
                        ))
                    }
                };
            }
            first = false;
            // Every thread at the same barrier: the next phase; every thread
            // ended: the group is done; anything else diverged.
            let mut waiting = None;
            let mut done = None;
            for (t, s) in state.iter().enumerate() {
                match *s {
                    Thread::Done => done = done.or(Some(t)),
                    Thread::Waiting { pc, .. } => match waiting {
                        None => waiting = Some((t, pc)),
                        Some((w, other)) if other != pc => {
                            return Err(ExecError::at(
                                origin(pc),
                                ExecErrorKind::DivergentBarrier(format!(
                                    "{} waits at the barrier of instruction {} and {} at that of \
                                     instruction {}",
                                    who(size, g, w as u32),
                                    origin(other),
                                    who(size, g, t as u32),
                                    origin(pc)
                                )),
                            ))
                        }
                        Some(_) => {}
                    },
                }
            }
            match (waiting, done) {
                (None, _) => break,
                (Some((w, pc)), Some(d)) => {
                    return Err(ExecError::at(
                        origin(pc),
                        ExecErrorKind::DivergentBarrier(format!(
                            "{} ended while {} waits at the barrier of instruction {}",
                            who(size, g, d as u32),
                            who(size, g, w as u32),
                            origin(pc)
                        )),
                    ))
                }
                (Some(_), None) => counts.barriers += 1,
            }
        }
    }
    Ok(counts)
}
