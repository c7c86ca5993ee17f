//! The draw with invocations in lanes (`machine::lanes`): the same results as one
//! invocation at a time, bit for bit, in the same order.
//!
//! Each instance's indices are taken in chunks of [`CHUNK`]:
//!
//! 1. input assembly's bookkeeping for the chunk (index reads, the post-transform
//!    cache of indexed draws, `IAVertices`): which vertices need the vertex shader,
//!    and the sequence of vertex handles and strip cuts;
//! 2. the vertex shader for those vertices, [`W`] at a time, its outputs written once
//!    to the vertex store, where the geometry shader reads them;
//! 3. primitive assembly over the sequence;
//! 4. the geometry shader for each primitive and instance, [`W`] invocations at a
//!    time; each invocation's output is handed to the sink in invocation order, and
//!    strips are assembled from the emitted vertices where the lanes left them.
//!
//! Lanes have no side effects (programs with UAV accesses do not run in lanes), so
//! the only order that can be observed is the order of the output and of errors. A
//! lane that failed is run again on the one-invocation machine, which gives its
//! error (or its result, were the lanes wrong to give up); a vertex-shader error
//! stops the chunk where the one-invocation pipeline would have stopped: after the
//! geometry shader ran for every primitive completed before that vertex.

use super::ia::{self, IaPrimitive};
use super::so::SoBatch;
use super::{IndexBuffer, IndexMap, Params, Runner};
use crate::error::ExecError;
use crate::machine::lanes::{Lanes, W};
use crate::machine::Code;
use crate::plan::Plan;
use crate::resources::Resources;

/// Indices (vertices) per chunk.
const CHUNK: usize = 1024;

/// Indices per chunk when the geometry shader runs on several threads: enough
/// batches per chunk to spread, few enough to stay in the caches.
const PARALLEL_CHUNK: usize = 4096;

/// Vertex-store slots of non-indexed draws for chunks of `chunk` indices: a chunk,
/// and the vertices before it that primitive assembly may still refer to (at most
/// 10).
pub(super) const fn ring(chunk: usize) -> usize {
    chunk + 16
}

/// The vertices a chunk runs the vertex shader for.
enum Run {
    /// `LaneState::work` (indexed draws).
    Listed,
    /// `count` vertices in turn from `element` (`SV_VertexID` from `vertex_id`), in
    /// consecutive slots of the ring from `slot` (non-indexed draws).
    Consecutive { slot: u32, element: u32, vertex_id: u32, count: u32 },
}

/// A handle in the chunk's sequence that is a strip cut.
const CUT: u32 = u32::MAX;

/// A vertex the vertex shader runs for.
#[derive(Debug, Clone, Copy)]
struct Work {
    /// Its vertex-store slot.
    slot: u32,
    /// The vertex buffer element and `SV_VertexID`.
    element: u32,
    vertex_id: u32,
    /// Its position in the chunk's sequence.
    at: u32,
}

/// The lanes and the scratch of a batched draw.
pub(super) struct LaneState {
    /// Indices per chunk.
    chunk: usize,
    /// Run the geometry shader's batches on the current rayon pool's threads.
    parallel: bool,
    vs: Option<Lanes>,
    gs: Option<Lanes>,
    /// Parallel: one set of lanes per batch of a chunk's vertex-shader invocations.
    vs_pool: Vec<Lanes>,
    /// Parallel: one set of lanes per batch of a chunk's geometry-shader
    /// invocations, kept until the output is written in order.
    pool: Vec<GsJob>,
    work: Vec<Work>,
    seq: Vec<u32>,
    prims: Vec<IaPrimitive>,
    /// The primitives of a batch whose invocations all output the same.
    template: Vec<super::gs::Emitted>,
    /// One invocation's emitted vertices.
    vertices: Vec<[u32; 4]>,
}

impl LaneState {
    /// `parallel`: the geometry shader on the current rayon pool's threads (when it
    /// has more than one).
    pub fn new(vs: Option<&Plan>, gs: Option<&Plan>, parallel: bool) -> LaneState {
        let parallel = parallel && gs.is_some() && rayon::current_num_threads() > 1;
        let chunk = if parallel { PARALLEL_CHUNK } else { CHUNK };
        LaneState {
            chunk,
            parallel,
            vs: vs.map(|_| Lanes::new()),
            gs: gs.map(|_| Lanes::new()),
            vs_pool: Vec::new(),
            pool: Vec::new(),
            work: Vec::with_capacity(chunk),
            seq: Vec::with_capacity(chunk),
            prims: Vec::with_capacity(chunk),
            template: Vec::new(),
            vertices: Vec::new(),
        }
    }

    /// Vertex-store slots of a non-indexed draw.
    pub fn ring(&self) -> usize {
        ring(self.chunk)
    }
}

impl Runner<'_, '_, '_, '_, '_> {
    /// [`Runner::run`] with invocations in lanes.
    pub(super) fn run_batched(
        &mut self,
        params: Params,
        index_buffer: Option<&IndexBuffer<'_>>,
    ) -> Result<(), ExecError> {
        let Some(mut st) = self.lanes.take() else { return Ok(()) };
        let ran = self.batched(&mut st, params, index_buffer);
        self.lanes = Some(st);
        ran
    }

    fn batched(
        &mut self,
        st: &mut LaneState,
        params: Params,
        index_buffer: Option<&IndexBuffer<'_>>,
    ) -> Result<(), ExecError> {
        let mut assembler = ia::Assembler::new(self.topology);
        let cut = index_buffer.map_or(u32::MAX, |ib| ia::cut_value(ib.format));
        // Indexed draws: each distinct index gets a slot of the store, computed once
        // per instance (a post-transform cache without eviction).
        let mut slots = IndexMap::default();
        let mut stamps: Vec<u32> = Vec::new();
        let mut counter = 0usize;
        let (chunk, ring) = (st.chunk, st.ring());
        for instance in 0..params.instances {
            self.fetch.instance_elements(instance, params.start_instance, &mut self.instance_elements);
            assembler.start_instance();
            let stamp = instance.wrapping_add(1);
            // Whole segments of a list topology spread over the pool's threads, the
            // rest (and everything else) chunk by chunk.
            let mut i = 0u32;
            if st.parallel {
                i = self.spread(&params, instance, rayon::current_num_threads());
                assembler.skip(i);
            }
            while i < params.count {
                let end = (i as u64 + chunk as u64).min(params.count as u64) as u32;
                st.work.clear();
                st.seq.clear();
                let run = if params.indexed {
                    for j in i..end {
                        let at = st.seq.len() as u32;
                        let index = ia::read_index(index_buffer, params.start, j);
                        if index_buffer.is_some() && index == cut {
                            st.seq.push(CUT);
                            continue;
                        }
                        self.statistics.ia_vertices += 1;
                        let next = slots.len() as u32;
                        let slot = *slots.entry(index).or_insert(next);
                        if slot == next {
                            stamps.push(0);
                            self.store.resize(self.store.len() + self.vregs, [0; 4]);
                        }
                        if stamps[slot as usize] != stamp {
                            stamps[slot as usize] = stamp;
                            let element = params.base_vertex.wrapping_add(index);
                            st.work.push(Work { slot, element, vertex_id: index, at });
                        }
                        st.seq.push(slot);
                    }
                    Run::Listed
                } else {
                    // Every vertex in turn, in consecutive slots of the ring.
                    let n = end - i;
                    self.statistics.ia_vertices += n as u64;
                    let first = (counter % ring) as u32;
                    counter = counter.wrapping_add(n as usize);
                    Run::Consecutive { slot: first, element: params.start.wrapping_add(i), vertex_id: i, count: n }
                };
                let stop = self.shade(st, &run, instance);
                st.prims.clear();
                match run {
                    Run::Listed => {
                        let upto = stop.as_ref().map_or(st.seq.len(), |s| s.0 as usize);
                        for &h in &st.seq[..upto] {
                            let p = if h == CUT { assembler.restart() } else { assembler.push(h) };
                            if let Some(p) = p {
                                st.prims.push(p);
                            }
                        }
                    }
                    Run::Consecutive { slot, count, .. } => {
                        let upto = stop.as_ref().map_or(count, |s| s.0);
                        assembler.push_consecutive(slot, upto, ring as u32, &mut st.prims);
                    }
                }
                self.geometry(st)?;
                if let Some((_, e)) = stop {
                    return Err(e);
                }
                i = end;
            }
            // The end of an instance ends the strip (8.4.1's RestartTopology).
            st.prims.clear();
            if let Some(p) = assembler.restart() {
                st.prims.push(p);
            }
            self.geometry(st)?;
        }
        Ok(())
    }

    /// The vertex shader (or, without one, the input assembler's registers) for the
    /// chunk's vertices, into the store. Returns the first error and the sequence
    /// position of its vertex.
    fn shade(&mut self, st: &mut LaneState, run: &Run, instance: u32) -> Option<(u32, ExecError)> {
        let (vregs, ring) = (self.vregs, st.ring() as u32);
        let st = &mut *st;
        let (count, work) = match *run {
            Run::Listed => (st.work.len(), None),
            Run::Consecutive { slot, element, vertex_id, count } => (count as usize, Some((slot, element, vertex_id))),
        };
        let item = |k: usize| Items { work: &st.work, consecutive: work, ring }.get(k);
        let Some(vs) = self.vs else {
            for k in 0..count {
                let w = item(k);
                self.fetch.fetch(
                    self.buffers,
                    w.element,
                    &self.instance_elements,
                    w.vertex_id,
                    instance,
                    &mut self.inputs,
                );
                let dst = &mut self.store[w.slot as usize * vregs..][..vregs];
                super::gs::copy_registers(dst, &self.inputs);
            }
            return None;
        };
        let items = Items { work: &st.work, consecutive: work, ring };
        let batches = count.div_ceil(W);
        if st.parallel && batches > 1 {
            // Every batch on the pool's threads, each in its own lanes; then, in order,
            // the failed lanes and the stores.
            use rayon::prelude::*;
            if st.vs_pool.len() < batches {
                st.vs_pool.resize_with(batches, Lanes::new);
            }
            let job = VsBatch::new(self, vs, instance, items);
            st.vs_pool[..batches].par_iter_mut().enumerate().for_each(|(b, lanes)| {
                job.run(lanes, b * W, (count - b * W).min(W));
            });
            for (b, lanes) in st.vs_pool[..batches].iter().enumerate() {
                if let Some(error) = self.vs_store(lanes, items, b * W, (count - b * W).min(W), instance) {
                    return Some(error);
                }
            }
            return None;
        }
        let lanes = st.vs.as_mut()?;
        for b in 0..batches {
            let (first, n) = (b * W, (count - b * W).min(W));
            VsBatch::new(self, vs, instance, items).run(lanes, first, n);
            if let Some(error) = self.vs_store(lanes, items, first, n, instance) {
                return Some(error);
            }
        }
        None
    }

    /// The end of a batch of vertex-shader invocations (`items` `first..first + n`,
    /// in `lanes`): a lane that failed runs again on the one-invocation machine, which
    /// gives the error (or the outputs); the vertices before the first error are
    /// stored. Returns that error and the sequence position of its vertex.
    fn vs_store(
        &mut self,
        lanes: &Lanes,
        items: Items<'_>,
        first: usize,
        n: usize,
        instance: u32,
    ) -> Option<(u32, ExecError)> {
        let vregs = self.vregs;
        let outputs = self.vs.map_or(0, |vs| vs.code.layout.outputs as usize);
        let mut error = None;
        let mut done = n;
        for l in 0..n {
            if lanes.failed & (1 << l) != 0 {
                let w = items.get(first + l);
                if let Err(e) = self.vertex(w.slot as usize, w.element, w.vertex_id, instance) {
                    error = Some((w.at, e));
                    done = l;
                    break;
                }
            }
        }
        // The outputs, to the store: consecutive slots that do not wrap around the
        // ring, every lane done, a part of the store at a time.
        if let (Some((slot, _, _)), 0) = (items.consecutive, lanes.failed) {
            let s0 = items.get(first).slot as usize;
            if slot as usize + first == s0 && vregs != 0 {
                if let Some(dst) = self.store.get_mut(s0 * vregs..(s0 + done) * vregs) {
                    for r in 0..vregs {
                        let rows = if r < outputs { lanes.rows(r as u32) } else { None };
                        let parts = dst.chunks_exact_mut(vregs);
                        match rows {
                            Some([x, y, z, w]) => {
                                for (part, (((&x, &y), &z), &w)) in parts.zip(x.iter().zip(y).zip(z).zip(w)) {
                                    part[r] = [x, y, z, w];
                                }
                            }
                            None => parts.for_each(|part| part[r] = [0; 4]),
                        }
                    }
                    self.statistics.vs_invocations += n as u64;
                    return None;
                }
            }
        }
        for r in 0..vregs {
            let rows = if r < outputs { lanes.rows(r as u32) } else { None };
            for l in 0..done {
                if lanes.failed & (1 << l) != 0 {
                    continue;
                }
                let slot = items.get(first + l).slot as usize;
                self.store[slot * vregs + r] = match rows {
                    Some(rows) => [rows[0][l], rows[1][l], rows[2][l], rows[3][l]],
                    None => [0; 4],
                };
            }
        }
        if error.is_some() {
            return error;
        }
        self.statistics.vs_invocations += (n - lanes.failed.count_ones() as usize) as u64;
        None
    }

    /// The chunk's primitives through the geometry shader (or straight to the output
    /// without one).
    fn geometry(&mut self, st: &mut LaneState) -> Result<(), ExecError> {
        // The draw's IA primitive number of `st.prims[0]` (for the capture).
        let first = self.statistics.ia_primitives;
        self.statistics.ia_primitives += st.prims.len() as u64;
        let (Some(gs), Some(lanes)) = (self.gs, st.gs.as_mut()) else {
            for (k, p) in st.prims.iter().enumerate() {
                self.pass_through(p, first + k as u64);
            }
            return Ok(());
        };
        let instances = self.gs_instances.max(1) as usize;
        let total = st.prims.len() * instances;
        if st.parallel && total > W {
            // Every batch of the chunk on the pool's threads, each in its own lanes;
            // then their output, in order, on this one.
            use rayon::prelude::*;
            let batches = total.div_ceil(W);
            if st.pool.len() < batches {
                st.pool.resize_with(batches, || GsJob {
                    lanes: Lanes::new(),
                    uniform: false,
                    template: Vec::new(),
                    plan: Vec::new(),
                });
            }
            let b = GsBatch::new(self, gs, &st.prims, instances);
            let (shapes, track) = (self.sink.shapes(), self.sink.track);
            st.pool[..batches].par_iter_mut().enumerate().for_each(|(k, job)| {
                let next = k * W;
                let n = (total - next).min(W);
                b.run(&mut job.lanes, next, n);
                // Every invocation output the same primitives: assembled once, here.
                let e = &job.lanes.emits;
                job.uniform = !track && job.lanes.failed == 0 && (e.sync || (1..n).all(|l| e.events(l) == e.events(0)));
                if job.uniform {
                    job.template.clear();
                    super::gs::assemble(&shapes, e.events(0), |p| job.template.push(p));
                }
            });
            let jobs = &mut st.pool[..batches];
            if self.sink.out.parallel_ok() && jobs.iter().all(|j| j.uniform) {
                // Nothing to run again, nothing captured: the statistics in order, and
                // the stream-output writes of the batches in parallel, each at its
                // place.
                let mut so = Vec::with_capacity(batches);
                for (k, job) in jobs.iter_mut().enumerate() {
                    let n = (total - k * W).min(W);
                    let GsJob { lanes, template, plan, .. } = job;
                    so.push(SoBatch::new(template, n, &lanes.emits, plan));
                }
                self.sink.out.batches_parallel(&mut so);
                self.statistics.gs_invocations += total as u64;
                return Ok(());
            }
            for (k, job) in st.pool[..batches].iter().enumerate() {
                let next = k * W;
                let n = (total - next).min(W);
                self.gs_output(&job.lanes, &mut st.template, &mut st.vertices, &st.prims, first, next, n)?;
            }
            return Ok(());
        }
        let mut next = 0;
        while next < total {
            let n = (total - next).min(W);
            GsBatch::new(self, gs, &st.prims, instances).run(lanes, next, n);
            self.gs_output(lanes, &mut st.template, &mut st.vertices, &st.prims, first, next, n)?;
            next += n;
        }
        Ok(())
    }

    /// The output of geometry-shader invocations `next..next + n` of the chunk (in
    /// `lanes`), to the sink in invocation order; a failed lane runs again on the
    /// one-invocation machine. `first`: the draw's IA primitive number of `prims[0]`.
    #[allow(clippy::too_many_arguments)]
    fn gs_output(
        &mut self,
        lanes: &Lanes,
        template: &mut Vec<super::gs::Emitted>,
        vertices: &mut Vec<[u32; 4]>,
        prims: &[IaPrimitive],
        first: u64,
        next: usize,
        n: usize,
    ) -> Result<(), ExecError> {
        let instances = self.gs_instances.max(1) as usize;
        let e = &lanes.emits;
        // (A capture reads each invocation's provenance: one at a time.)
        let uniform = lanes.failed == 0 && (e.sync || (1..n).all(|l| e.events(l) == e.events(0)));
        if uniform && !self.sink.track {
            // Every invocation output the same primitives (of its own vertices):
            // assemble them once.
            template.clear();
            super::gs::assemble(&self.sink.shapes(), e.events(0), |p| template.push(p));
            self.sink.out.invocations(template, n, e);
            self.statistics.gs_invocations += n as u64;
            return Ok(());
        }
        for lane in 0..n {
            let k = next + lane;
            let (p, instance) = (k / instances, (k % instances) as u32);
            if lanes.failed & (1 << lane) != 0 {
                // The one-invocation machine gives the error (or the output).
                let prim = prims[p];
                self.gs_inputs_of(&prim);
                self.gs_invocation(&prim, first + p as u64, instance)?;
                continue;
            }
            self.set_origin(first + p as u64, instance);
            e.vertices(lane, vertices);
            self.sink.invocation(e.events(lane), vertices);
            self.statistics.gs_invocations += 1;
        }
        Ok(())
    }
}

/// The vertices a chunk runs the vertex shader for, by position: `work` (indexed
/// draws), or consecutive ones (`(slot, element, vertex_id)` of the first, slots in
/// a ring of `ring`).
#[derive(Clone, Copy)]
pub(super) struct Items<'w> {
    work: &'w [Work],
    consecutive: Option<(u32, u32, u32)>,
    ring: u32,
}

impl Items<'static> {
    /// No vertices.
    pub const NONE: Items<'static> = Items { work: &[], consecutive: None, ring: 1 };

    /// Consecutive vertices from `element` (`SV_VertexID` from `vertex_id`), in slots
    /// from 0.
    pub fn consecutive(element: u32, vertex_id: u32) -> Items<'static> {
        Items { work: &[], consecutive: Some((0, element, vertex_id)), ring: u32::MAX }
    }
}

impl Items<'_> {
    #[inline(always)]
    fn get(&self, k: usize) -> Work {
        match self.consecutive {
            None => self.work.get(k).copied().unwrap_or(Work { slot: 0, element: 0, vertex_id: 0, at: 0 }),
            Some((slot, element, vertex_id)) => Work {
                // (`slot < ring` and `k < ring`: one subtraction instead of a division.)
                slot: {
                    let s = slot.wrapping_add(k as u32);
                    if s >= self.ring {
                        s - self.ring
                    } else {
                        s
                    }
                },
                element: element.wrapping_add(k as u32),
                vertex_id: vertex_id.wrapping_add(k as u32),
                at: k as u32,
            },
        }
    }
}

/// What a batch of vertex-shader invocations reads: the input layout's fetches, the
/// vertex buffers, the shader and its resources. Shared by the threads of a parallel
/// draw.
#[derive(Clone, Copy)]
pub(super) struct VsBatch<'a> {
    pub code: &'a Code,
    pub fetch: &'a super::ia::InputFetch,
    pub buffers: &'a [Option<super::VertexBuffer<'a>>],
    pub instance_elements: &'a [u32],
    pub res: &'a Resources<'a>,
    pub limit: u64,
    pub instance: u32,
    pub items: Items<'a>,
}

impl<'a> VsBatch<'a> {
    fn new(runner: &'a Runner<'_, '_, '_, '_, '_>, vs: &'a Plan, instance: u32, items: Items<'a>) -> Self {
        VsBatch {
            code: &vs.code,
            fetch: &runner.fetch,
            buffers: runner.buffers,
            instance_elements: &runner.instance_elements,
            res: runner.vs_resources,
            limit: runner.step_limit,
            instance,
            items,
        }
    }

    /// Runs the vertex shader for `items` `first..first + n` (`n <= W`) in `lanes`:
    /// each vertex fetched (the input registers of one vertex), then moved to its
    /// lane.
    pub fn run(&self, lanes: &mut Lanes, first: usize, n: usize) {
        let code = self.code;
        let (base, inputs) = (code.layout.inputs_base, code.layout.inputs as usize);
        let registers = self.fetch.registers;
        // The fetch's scratch (32 registers: D3D11_VS_INPUT_REGISTER_COUNT).
        let mut stack = [[0u32; 4]; 32];
        let mut heap = Vec::new();
        let scratch: &mut [[u32; 4]] = if registers <= stack.len() {
            &mut stack[..registers]
        } else {
            heap.resize(registers, [0; 4]);
            &mut heap
        };
        lanes.start(code);
        if let Some((_, element, _)) = self.items.consecutive {
            // Consecutive vertices of a plain layout: straight into the lanes.
            let element = element.wrapping_add(first as u32);
            if self.fetch.fetch_rows(self.buffers, element, n, &mut lanes.regs, base as usize, inputs) {
                lanes.run(code, self.res, n, self.limit);
                return;
            }
        }
        for l in 0..n {
            let w = self.items.get(first + l);
            self.fetch.fetch(self.buffers, w.element, self.instance_elements, w.vertex_id, self.instance, scratch);
            for (r, v) in scratch.iter().enumerate().take(inputs) {
                if let Some(rows) = lanes.rows_mut(base + r as u32) {
                    for c in 0..4 {
                        rows[c][l] = v[c];
                    }
                }
            }
        }
        lanes.run(code, self.res, n, self.limit);
    }
}

/// One batch of a chunk's geometry-shader invocations in a parallel draw: its
/// lanes, whether every invocation output the same primitives (and then those,
/// `template`), and its stream-output scratch.
struct GsJob {
    lanes: Lanes,
    uniform: bool,
    template: Vec<super::gs::Emitted>,
    plan: Vec<super::so::Write>,
}

/// What a batch of geometry-shader invocations reads: the chunk's primitives, the
/// vertex store, the shader and its resources. Shared by the threads of a parallel
/// draw.
#[derive(Clone, Copy)]
pub(super) struct GsBatch<'a> {
    pub code: &'a Code,
    pub prims: &'a [IaPrimitive],
    pub store: &'a [[u32; 4]],
    pub vregs: usize,
    pub gs_regs: usize,
    pub copy: usize,
    pub input_vertices: usize,
    pub instances: usize,
    pub res: &'a Resources<'a>,
    pub limit: u64,
}

impl<'a> GsBatch<'a> {
    fn new(runner: &'a Runner<'_, '_, '_, '_, '_>, gs: &'a Plan, prims: &'a [IaPrimitive], instances: usize) -> Self {
        GsBatch {
            code: &gs.code,
            prims,
            store: &runner.store,
            vregs: runner.vregs,
            gs_regs: runner.gs_regs,
            copy: runner.copy_regs,
            input_vertices: gs.input_vertices as usize,
            instances,
            res: runner.gs_resources,
            limit: runner.step_limit,
        }
    }

    /// Runs invocations `next..next + n` of the chunk (`n <= W`; invocation `k` is
    /// instance `k % instances` of primitive `k / instances`) in `lanes`.
    pub fn run(&self, lanes: &mut Lanes, next: usize, n: usize) {
        let code = self.code;
        let l = &code.layout;
        let (base, prim, instance_reg) = (l.inputs_base, l.prim, l.gs_instance);
        let instances = self.instances;
        lanes.start(code);
        // Each lane's primitive (in `prims`) and instance.
        let (mut p, mut instance) = (next / instances, next % instances);
        let mut lane_prim = [0u32; W];
        let mut lane_instance = [0u32; W];
        for lane in 0..n {
            lane_prim[lane] = p as u32;
            lane_instance[lane] = instance as u32;
            instance += 1;
            if instance == instances {
                instance = 0;
                p += 1;
            }
        }
        // The input registers, read from the store where the vertex shader left its
        // outputs; the system values.
        let (prims, store, vregs) = (self.prims, self.store, self.vregs);
        let n = n.min(W);
        for v in 0..self.input_vertices.min(6) {
            // Each lane's vertex, as its first register's place in the store.
            let mut at = [0usize; W];
            for (a, &p) in at.iter_mut().zip(&lane_prim).take(n) {
                *a = prims[p as usize].vertices[v] as usize * vregs;
            }
            for r in 0..self.copy {
                let Some([x, y, z, w]) = lanes.rows_mut(base + (v * self.gs_regs + r) as u32) else { continue };
                let lanes = x.iter_mut().zip(y.iter_mut()).zip(z.iter_mut()).zip(w.iter_mut());
                for ((((x, y), z), w), &a) in lanes.zip(&at).take(n) {
                    let value = store[a + r];
                    (*x, *y, *z, *w) = (value[0], value[1], value[2], value[3]);
                }
            }
        }
        if let Some(rows) = lanes.rows_mut(prim) {
            for lane in 0..n {
                let id = prims[lane_prim[lane] as usize].id;
                for row in rows.iter_mut() {
                    row[lane] = id;
                }
            }
        }
        if let Some(rows) = lanes.rows_mut(instance_reg) {
            for row in rows.iter_mut() {
                row[..n].copy_from_slice(&lane_instance[..n]);
            }
        }
        lanes.run(code, self.res, n, self.limit);
    }
}
