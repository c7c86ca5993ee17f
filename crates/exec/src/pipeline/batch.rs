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
use super::{IndexBuffer, IndexMap, Params, Runner};
use crate::error::ExecError;
use crate::machine::lanes::{Lanes, W};
use crate::plan::Plan;

/// Indices (vertices) per chunk.
pub(super) const CHUNK: usize = 1024;

/// Vertex-store slots of non-indexed draws: a chunk, and the vertices before it
/// that primitive assembly may still refer to (at most 10).
pub(super) const RING: usize = CHUNK + 16;

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
    vs: Option<Lanes>,
    gs: Option<Lanes>,
    work: Vec<Work>,
    seq: Vec<u32>,
    prims: Vec<IaPrimitive>,
    /// The primitives of a batch whose invocations all output the same.
    template: Vec<super::gs::Emitted>,
    /// One invocation's emitted vertices.
    vertices: Vec<[u32; 4]>,
}

impl LaneState {
    pub fn new(vs: Option<&Plan>, gs: Option<&Plan>) -> LaneState {
        LaneState {
            vs: vs.map(|_| Lanes::new()),
            gs: gs.map(|_| Lanes::new()),
            work: Vec::with_capacity(CHUNK),
            seq: Vec::with_capacity(CHUNK),
            prims: Vec::with_capacity(CHUNK),
            template: Vec::new(),
            vertices: Vec::new(),
        }
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
        for instance in 0..params.instances {
            self.fetch.instance_elements(instance, params.start_instance, &mut self.instance_elements);
            assembler.start_instance();
            let stamp = instance.wrapping_add(1);
            let mut i = 0u32;
            while i < params.count {
                let end = (i as u64 + CHUNK as u64).min(params.count as u64) as u32;
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
                    let first = (counter % RING) as u32;
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
                        for k in 0..upto {
                            if let Some(p) = assembler.push((slot + k) % RING as u32) {
                                st.prims.push(p);
                            }
                        }
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
        let vregs = self.vregs;
        let (count, work) = match *run {
            Run::Listed => (st.work.len(), None),
            Run::Consecutive { slot, element, vertex_id, count } => (count as usize, Some((slot, element, vertex_id))),
        };
        let item = |k: usize| match work {
            None => st.work[k],
            Some((slot, element, vertex_id)) => Work {
                slot: (slot + k as u32) % RING as u32,
                element: element.wrapping_add(k as u32),
                vertex_id: vertex_id.wrapping_add(k as u32),
                at: k as u32,
            },
        };
        let (Some(vs), Some(lanes)) = (self.vs, st.vs.as_mut()) else {
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
        let code = &vs.code;
        let (base, inputs, outputs) =
            (code.layout.inputs_base, code.layout.inputs as usize, code.layout.outputs as usize);
        let mut first = 0;
        while first < count {
            let n = (count - first).min(W);
            lanes.start(code);
            // Each vertex fetched (the input registers of one vertex), then moved to
            // its lane.
            for l in 0..n {
                let w = item(first + l);
                self.fetch.fetch(
                    self.buffers,
                    w.element,
                    &self.instance_elements,
                    w.vertex_id,
                    instance,
                    &mut self.inputs,
                );
                for (r, v) in self.inputs.iter().enumerate().take(inputs) {
                    if let Some(rows) = lanes.rows_mut(base + r as u32) {
                        for c in 0..4 {
                            rows[c][l] = v[c];
                        }
                    }
                }
            }
            lanes.run(code, self.vs_resources, n, self.step_limit);
            // A lane that failed: the one-invocation machine gives the error (or the
            // outputs); the vertices before the first error are stored.
            let mut error = None;
            let mut done = n;
            for l in 0..n {
                if lanes.failed & (1 << l) != 0 {
                    let w = item(first + l);
                    if let Err(e) = self.vertex(w.slot as usize, w.element, w.vertex_id, instance) {
                        error = Some((w.at, e));
                        done = l;
                        break;
                    }
                }
            }
            // The outputs, to the store.
            for r in 0..vregs {
                let rows = if r < outputs { lanes.rows(r as u32) } else { None };
                for l in 0..done {
                    if lanes.failed & (1 << l) != 0 {
                        continue;
                    }
                    let slot = item(first + l).slot as usize;
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
            first += n;
        }
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
        let code = &gs.code;
        let l = &code.layout;
        let (base, prim, instance_reg) = (l.inputs_base, l.prim, l.gs_instance);
        let instances = self.gs_instances.max(1) as usize;
        let total = st.prims.len() * instances;
        let (vregs, gs_regs, copy) = (self.vregs, self.gs_regs, self.copy_regs);
        let input_vertices = gs.input_vertices as usize;
        let mut next = 0;
        while next < total {
            let n = (total - next).min(W);
            lanes.start(code);
            // Each lane's primitive (in `st.prims`) and instance.
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
            // The input registers, read from the store where the vertex shader left
            // its outputs; the system values.
            let (prims, store) = (&st.prims, &self.store);
            for v in 0..input_vertices {
                for r in 0..copy {
                    let Some(rows) = lanes.rows_mut(base + (v * gs_regs + r) as u32) else { continue };
                    for lane in 0..n {
                        let h = prims[lane_prim[lane] as usize].vertices[v] as usize;
                        let value = store[h * vregs + r];
                        for c in 0..4 {
                            rows[c][lane] = value[c];
                        }
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
            lanes.run(code, self.gs_resources, n, self.step_limit);
            let e = &lanes.emits;
            // (A capture reads each invocation's provenance: one at a time.)
            let uniform = lanes.failed == 0 && (e.sync || (1..n).all(|l| e.events(l) == e.events(0)));
            if uniform && !self.sink.track {
                // Every invocation output the same primitives (of its own vertices):
                // assemble them once.
                st.template.clear();
                super::gs::assemble(&self.sink.shapes(), e.events(0), |p| st.template.push(p));
                self.sink.out.invocations(&st.template, n, e);
                self.statistics.gs_invocations += n as u64;
                next += n;
                continue;
            }
            for lane in 0..n {
                let k = next + lane;
                if lanes.failed & (1 << lane) != 0 {
                    // The one-invocation machine gives the error (or the output).
                    let p = st.prims[k / instances];
                    self.gs_inputs_of(&p);
                    self.gs_invocation(&p, first + (k / instances) as u64, (k % instances) as u32)?;
                    continue;
                }
                self.set_origin(first + (k / instances) as u64, (k % instances) as u32);
                lanes.emits.vertices(lane, &mut st.vertices);
                self.sink.invocation(lanes.emits.events(lane), &st.vertices);
                self.statistics.gs_invocations += 1;
            }
            next += n;
        }
        Ok(())
    }
}
