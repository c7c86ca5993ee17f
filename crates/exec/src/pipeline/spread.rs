//! A draw spread over threads in segments (`draw_parallel`, non-indexed list
//! topologies with a geometry shader): the same results as one chunk after the other,
//! bit for bit.
//!
//! An instance's primitives are cut into segments of whole primitives (about
//! [`SEGMENT`] geometry-shader invocations each). In a list topology without an index
//! buffer, primitive `j` is vertices `j·n .. j·n + n` and its `SV_PrimitiveID` is `j`,
//! so a segment needs nothing from the segments before it: each thread of the pool
//! takes the next segment and runs the vertex shader for its vertices and the
//! geometry shader for its primitives in its own lanes. Segments are written in
//! order ([`SoChain`]: each claims the next bytes of the stream-output buffers): a
//! thread that finishes a segment and finds no one writing writes every finished
//! segment whose turn has come, so that no thread waits for a segment another is
//! still running (a thread that is descheduled does not hold the others up) unless
//! [`AHEAD`] finished segments wait to be written. One region of the pool per
//! instance and no serial stage between: what keeps the draw from scaling across
//! cores when it is cut into chunks whose stages meet on the calling thread.
//!
//! A segment that cannot go this way — a lane that failed (an error to report in
//! order, or a vertex-shader error), or invocations that did not all output the
//! same primitives — stops the chain: it and the later segments are not written or
//! counted, and the draw goes on from its first vertex chunk by chunk (`batch`).

use super::batch::{GsBatch, Items, VsBatch};
use super::gs::Emitted;
use super::ia::IaPrimitive;
use super::so::{SoBatch, SoChain, Write};
use super::{Params, Runner};
use crate::machine::lanes::{Emits, Lanes, W};
use std::sync::atomic::{AtomicUsize, Ordering};
use tpf::Topology;

/// Geometry-shader invocations per segment (a multiple of [`W`]; fewer when the
/// shader has more instances than this many per [`W`] primitives).
const SEGMENT: usize = 2048;

/// Vertices per primitive of the list topologies whose segments are independent.
fn group(topology: Topology) -> Option<u32> {
    match topology {
        Topology::PointList => Some(1),
        Topology::LineList => Some(2),
        Topology::TriangleList => Some(3),
        Topology::LineListAdj => Some(4),
        Topology::TriangleListAdj => Some(6),
        _ => None,
    }
}

/// One batch of a segment's geometry-shader invocations: what the lanes emitted,
/// the primitives each invocation output, and its stream-output scratch.
struct Job {
    emits: Emits,
    template: Vec<Emitted>,
    plan: Vec<Write>,
}

/// A thread's lanes and buffers, reused from segment to segment.
struct Scratch {
    vs: Lanes,
    gs: Lanes,
    /// The segment's vertices as the vertex shader left them.
    store: Vec<[u32; 4]>,
    prims: Vec<IaPrimitive>,
    inputs: Vec<[u32; 4]>,
}

/// What every segment of an instance reads.
struct Ctx<'a> {
    vs: Option<VsBatch<'a>>,
    gs: GsBatch<'a>,
    fetch: &'a super::ia::InputFetch,
    buffers: &'a [Option<super::VertexBuffer<'a>>],
    instance_elements: &'a [u32],
    instance: u32,
    /// Outputs of the vertex shader that reach the store.
    vs_outputs: usize,
    shapes: [super::gs::Shape; 4],
    /// Vertices per primitive, primitives per segment.
    group: usize,
    prims: usize,
    /// The draw's first vertex (`StartVertexLocation`).
    start: u32,
}

impl Runner<'_, '_, '_, '_, '_> {
    /// Instance `instance`'s whole segments over `threads` threads of the current
    /// rayon pool, when the draw allows (see the module documentation). Returns the
    /// vertices done (0 when nothing was spread), whole primitives from the
    /// instance's first: the draw goes on from there.
    pub(super) fn spread(&mut self, params: &Params, instance: u32, threads: usize) -> u32 {
        let (Some(g), Some(gs)) = (group(self.topology), self.gs) else { return 0 };
        if params.indexed || threads < 2 || self.sink.track || !self.sink.out.parallel_ok() {
            return 0;
        }
        let instances = self.gs_instances.max(1) as usize;
        let prims = W * (SEGMENT / (W * instances)).max(1);
        let segments = (params.count / g) as usize / prims;
        if segments < 2 {
            return 0;
        }
        let vregs = self.vregs;
        let ctx = Ctx {
            vs: self.vs.map(|vs| VsBatch {
                code: &vs.code,
                fetch: &self.fetch,
                buffers: self.buffers,
                instance_elements: &self.instance_elements,
                res: self.vs_resources,
                limit: self.step_limit,
                instance,
                items: Items::NONE,
            }),
            gs: GsBatch {
                code: &gs.code,
                prims: &[],
                store: &[],
                vregs,
                gs_regs: self.gs_regs,
                copy: self.copy_regs,
                input_vertices: gs.input_vertices as usize,
                instances,
                res: self.gs_resources,
                limit: self.step_limit,
            },
            fetch: &self.fetch,
            buffers: self.buffers,
            instance_elements: &self.instance_elements,
            instance,
            vs_outputs: self.vs.map_or(0, |vs| vs.code.layout.outputs as usize),
            shapes: self.sink.shapes(),
            group: g as usize,
            prims,
            start: params.start,
        };
        let shared = Shared {
            next: AtomicUsize::new(0),
            segments,
            drain: std::sync::Mutex::new(Drain {
                next: 0,
                ready: Default::default(),
                busy: false,
                stopped: false,
                free: Vec::new(),
            }),
            written: std::sync::Condvar::new(),
        };
        let ((), done) = self.sink.out.chain(|chain| {
            rayon::scope(|s| {
                for _ in 0..threads.min(segments) {
                    s.spawn(|_| ctx.work(chain, &shared));
                }
            })
        });
        let vertices = (done * prims) as u64 * g as u64;
        self.statistics.ia_vertices += vertices;
        self.statistics.ia_primitives += (done * prims) as u64;
        if self.vs.is_some() {
            self.statistics.vs_invocations += vertices;
        }
        self.statistics.gs_invocations += (done * prims * instances) as u64;
        vertices as u32
    }
}

/// The segments run but not yet written, and who writes them.
struct Drain {
    /// The next segment to write.
    next: usize,
    /// Segments run, by number: their jobs and batch count, or `None` for a segment
    /// that cannot be written from the lanes.
    ready: std::collections::BTreeMap<usize, Option<(Vec<Job>, usize)>>,
    /// A thread is writing (it takes every ready segment in turn before it stops).
    busy: bool,
    /// The chain stopped: nothing more is written.
    stopped: bool,
    /// Job lists to reuse.
    free: Vec<Vec<Job>>,
}

/// Segments a thread may run ahead of the writes (then it waits for them).
const AHEAD: usize = 16;

/// The threads' shared state: segment numbers handed out, and the writes.
struct Shared {
    next: AtomicUsize,
    segments: usize,
    drain: std::sync::Mutex<Drain>,
    /// Signalled when a segment is written or the chain stops.
    written: std::sync::Condvar,
}

impl Shared {
    fn lock(&self) -> std::sync::MutexGuard<'_, Drain> {
        self.drain.lock().unwrap_or_else(|e| e.into_inner())
    }
}

impl Ctx<'_> {
    /// A thread's part: segments in turn until none is left (or the chain stopped).
    /// Each segment run goes to the ready ones; the thread that finds no one writing
    /// writes every ready segment whose turn has come, in order, so that a thread
    /// never waits for another to finish a segment (unless [`AHEAD`] segments wait
    /// to be written).
    fn work<'x>(&self, chain: &SoChain<'x>, shared: &Shared) {
        let mut scratch = Scratch {
            vs: Lanes::new(),
            gs: Lanes::new(),
            store: Vec::new(),
            prims: Vec::new(),
            inputs: vec![[0; 4]; self.fetch.registers],
        };
        let mut windows: Vec<[&'x mut [u8]; 4]> = Vec::new();
        // Were this thread to unwind, the others must not wait for its segment.
        struct Unwind<'s>(&'s Shared);
        impl Drop for Unwind<'_> {
            fn drop(&mut self) {
                if std::thread::panicking() {
                    self.0.lock().stopped = true;
                    self.0.written.notify_all();
                }
            }
        }
        let _unwind = Unwind(shared);
        loop {
            let mut jobs = {
                let mut d = shared.lock();
                while !d.stopped && d.ready.len() >= AHEAD {
                    d = shared.written.wait(d).unwrap_or_else(|e| e.into_inner());
                }
                if d.stopped {
                    return;
                }
                d.free.pop().unwrap_or_default()
            };
            let k = shared.next.fetch_add(1, Ordering::Relaxed);
            if k >= shared.segments {
                return;
            }
            let result = self.segment(&mut scratch, &mut jobs, k).map(|batches| (jobs, batches));
            let mut d = shared.lock();
            d.ready.insert(k, result);
            if d.busy {
                continue;
            }
            d.busy = true;
            while !d.stopped {
                let next = d.next;
                let Some(entry) = d.ready.remove(&next) else { break };
                let Some((mut jobs, batches)) = entry else {
                    chain.stop(next);
                    d.stopped = true;
                    d.ready.clear();
                    break;
                };
                drop(d);
                let mut so: Vec<SoBatch<'_, Emits>> =
                    jobs[..batches].iter_mut().map(|j| SoBatch::new(&j.template, W, &j.emits, &mut j.plan)).collect();
                if chain.claim(next, &mut so, &mut windows) {
                    for (b, w) in so.iter_mut().zip(windows.iter_mut()) {
                        chain.write(b, w);
                    }
                }
                drop(so);
                d = shared.lock();
                d.free.push(jobs);
                d.next = next + 1;
                shared.written.notify_all();
            }
            d.busy = false;
            shared.written.notify_all();
        }
    }

    /// Runs segment `k`'s invocations into `jobs`. Returns the number of jobs, or
    /// `None` when the segment cannot be written from the lanes (a failed lane,
    /// invocations whose output differs).
    fn segment(&self, sc: &mut Scratch, jobs: &mut Vec<Job>, k: usize) -> Option<usize> {
        let (g, prims) = (self.group, self.prims);
        let vertices = prims * g;
        let v0 = (k * vertices) as u32;
        let vregs = self.gs.vregs;
        sc.store.resize(vertices * vregs, [0; 4]);
        // The vertex shader (or the input assembler's registers) into the store.
        let element = self.start.wrapping_add(v0);
        match &self.vs {
            Some(vs) => {
                let items = Items::consecutive(element, v0);
                let vs = VsBatch { items, ..*vs };
                for b in 0..vertices.div_ceil(W) {
                    let (first, n) = (b * W, (vertices - b * W).min(W));
                    vs.run(&mut sc.vs, first, n);
                    if sc.vs.failed != 0 {
                        return None;
                    }
                    for r in 0..vregs {
                        let rows = if r < self.vs_outputs { sc.vs.rows(r as u32) } else { None };
                        for l in 0..n {
                            sc.store[(first + l) * vregs + r] = match rows {
                                Some(rows) => [rows[0][l], rows[1][l], rows[2][l], rows[3][l]],
                                None => [0; 4],
                            };
                        }
                    }
                }
            }
            None => {
                for v in 0..vertices {
                    let (element, id) = (element.wrapping_add(v as u32), v0.wrapping_add(v as u32));
                    self.fetch.fetch(self.buffers, element, self.instance_elements, id, self.instance, &mut sc.inputs);
                    super::gs::copy_registers(&mut sc.store[v * vregs..][..vregs], &sc.inputs);
                }
            }
        }
        // The primitives: consecutive groups, numbered from the instance's first.
        sc.prims.clear();
        let id0 = (k * prims) as u32;
        for j in 0..prims {
            let mut vertices = [0u32; 6];
            for (t, v) in vertices.iter_mut().take(g).enumerate() {
                *v = (j * g + t) as u32;
            }
            sc.prims.push(IaPrimitive { vertices, len: g as u8, id: id0 + j as u32 });
        }
        // The geometry shader, a batch of lanes at a time.
        let gs = GsBatch { prims: &sc.prims, store: &sc.store, ..self.gs };
        let batches = prims * gs.instances / W;
        for b in 0..batches {
            gs.run(&mut sc.gs, b * W, W);
            let e = &sc.gs.emits;
            if sc.gs.failed != 0 || !(e.sync || (1..W).all(|l| e.events(l) == e.events(0))) {
                return None;
            }
            if jobs.len() <= b {
                // Sized as the lanes' own (what `Lanes::start` made them).
                jobs.push(Job { emits: e.clone(), template: Vec::new(), plan: Vec::new() });
            }
            let job = &mut jobs[b];
            std::mem::swap(&mut job.emits, &mut sc.gs.emits);
            job.template.clear();
            super::gs::assemble(&self.shapes, job.emits.events(0), |p| job.template.push(p));
        }
        Some(batches)
    }
}
