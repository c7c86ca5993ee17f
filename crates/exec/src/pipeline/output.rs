//! Where finished primitives go: stream output, the rasterizer's counters, and the
//! capture of [`DrawResult::streams`](super::DrawResult::streams).

use super::gs::Emitted;
use super::so::{SoBatch, SoChain, SoWriter};
use super::{Provenance, StreamPrimitives, Vertex};
use crate::plan::Plan;
use tpf::PrimitiveTopology;

/// One stream's captured primitives and the registers (and components) its vertices
/// keep.
#[derive(Debug, Clone)]
pub(crate) struct Capture {
    pub primitives: StreamPrimitives,
    /// `(register, mask)` of the stream's output declarations.
    declared: Vec<(u32, u8)>,
    registers: usize,
    /// Geometry shaders: the register past the outputs where the sink's ring keeps each
    /// vertex's emission number (see `gs::GsSink`).
    emission_register: Option<usize>,
}

impl Capture {
    /// The capture of `stream` of `plan` (the stage feeding the rasterizer and stream
    /// output), whose primitives are `topology` lists.
    pub fn new(plan: &Plan, stream: u32, topology: PrimitiveTopology) -> Capture {
        let declared = plan.stream_outputs(stream).map(|o| (o.register, o.mask)).collect();
        let signature = plan.output_signature.iter().filter(|e| e.stream == stream).cloned().collect();
        Capture {
            primitives: StreamPrimitives { stream, topology, primitives: Vec::new(), signature },
            declared,
            registers: plan.output_registers as usize,
            emission_register: (plan.stage == tpf::ProgramType::Geometry).then_some(plan.output_registers as usize),
        }
    }

    fn vertex(&self, registers: &[[u32; 4]], origin: Provenance) -> Vertex {
        let mut out = vec![[0u32; 4]; self.registers];
        for &(r, mask) in &self.declared {
            let (Some(dst), Some(src)) = (out.get_mut(r as usize), registers.get(r as usize)) else { continue };
            for c in 0..4 {
                if mask & (1 << c) != 0 {
                    dst[c] = src[c];
                }
            }
        }
        let emission = self.emission_register.and_then(|r| registers.get(r)).map(|r| r[0]);
        Vertex { registers: out, provenance: Provenance { emission, ..origin } }
    }
}

/// The vertices several invocations emitted.
pub(crate) trait VertexSource {
    /// Registers per vertex.
    fn registers(&self) -> usize;
    /// Register `r` of vertex `k` (in emit order) of invocation `i`.
    fn register(&self, i: usize, k: u32, r: usize) -> [u32; 4];
    /// `f(i, register)` for register `r` of vertex `k` of invocations `0..n`.
    #[inline(always)]
    fn each(&self, k: u32, r: usize, n: usize, mut f: impl FnMut(usize, [u32; 4])) {
        for i in 0..n {
            f(i, self.register(i, k, r));
        }
    }
    /// Component `c` of register `r` of vertex `k` of invocations `0..n` to byte `at`
    /// of each `each`-byte part of `data` (as far as `data` goes).
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn write4(&self, k: u32, r: usize, c: usize, n: usize, data: &mut [u8], each: usize, at: usize) {
        self.each(k, r, n, |i, v| {
            if let Some(dst) = data.get_mut(i * each + at..).and_then(|d| d.first_chunk_mut::<4>()) {
                *dst = v[c & 3].to_le_bytes();
            }
        })
    }

    /// Register `r` of vertex `k` of invocations `0..n`, whole, to byte `at` of each
    /// `each`-byte part of `data` (as far as `data` goes).
    #[inline(always)]
    fn write16(&self, k: u32, r: usize, n: usize, data: &mut [u8], each: usize, at: usize) {
        self.each(k, r, n, |i, v| {
            if let Some(dst) = data.get_mut(i * each + at..).and_then(|d| d.first_chunk_mut::<16>()) {
                put16(dst, v);
            }
        })
    }
}

/// Writes `v` (one register, four components) little-endian.
#[inline(always)]
pub(crate) fn put16(dst: &mut [u8; 16], v: [u32; 4]) {
    let [a, b, c, d] = v.map(u32::to_le_bytes);
    *dst = [a[0], a[1], a[2], a[3], b[0], b[1], b[2], b[3], c[0], c[1], c[2], c[3], d[0], d[1], d[2], d[3]];
}

impl VertexSource for crate::machine::lanes::Emits {
    fn registers(&self) -> usize {
        self.registers
    }

    #[inline(always)]
    fn register(&self, i: usize, k: u32, r: usize) -> [u32; 4] {
        crate::machine::lanes::Emits::register(self, i, k, r)
    }

    #[inline(always)]
    fn each(&self, k: u32, r: usize, n: usize, mut f: impl FnMut(usize, [u32; 4])) {
        let Some(rows) = self.rows(k, r) else { return };
        #[allow(clippy::needless_range_loop)] // (the zipped iterators compile to twice the code)
        for i in 0..n.min(crate::machine::lanes::W) {
            f(i, [rows[0][i], rows[1][i], rows[2][i], rows[3][i]]);
        }
    }

    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn write4(&self, k: u32, r: usize, c: usize, n: usize, data: &mut [u8], each: usize, at: usize) {
        let Some(rows) = self.rows(k, r) else { return };
        let row = &rows[c & 3];
        let n = n.min(crate::machine::lanes::W);
        if each == 0 || at + 4 > each {
            for (i, &v) in row.iter().enumerate().take(n) {
                if let Some(dst) = data.get_mut(i * each + at..).and_then(|d| d.first_chunk_mut::<4>()) {
                    *dst = v.to_le_bytes();
                }
            }
            return;
        }
        // As `write16`.
        let mut parts = data.chunks_exact_mut(each);
        let mut done = 0;
        for (part, &v) in parts.by_ref().zip(row.iter().take(n)) {
            if let Some(dst) = part.get_mut(at..).and_then(|d| d.first_chunk_mut::<4>()) {
                *dst = v.to_le_bytes();
            }
            done += 1;
        }
        if done < n {
            if let Some(dst) = parts.into_remainder().get_mut(at..).and_then(|d| d.first_chunk_mut::<4>()) {
                *dst = row[done].to_le_bytes();
            }
        }
    }

    #[inline(always)]
    fn write16(&self, k: u32, r: usize, n: usize, data: &mut [u8], each: usize, at: usize) {
        let Some([x, y, z, w]) = self.rows(k, r) else { return };
        let n = n.min(crate::machine::lanes::W);
        if each == 0 || at + 16 > each {
            return self.each(k, r, n, |i, v| {
                if let Some(dst) = data.get_mut(i * each + at..).and_then(|d| d.first_chunk_mut::<16>()) {
                    put16(dst, v);
                }
            });
        }
        // Whole parts (each has the 16 bytes at `at`), each lane's components zipped
        // along; then the part cut short by the end of `data`, if any.
        let mut parts = data.chunks_exact_mut(each);
        let lanes = x.iter().zip(y).zip(z).zip(w).take(n);
        let mut done = 0;
        for (part, (((&x, &y), &z), &w)) in parts.by_ref().zip(lanes) {
            if let Some(dst) = part.get_mut(at..).and_then(|d| d.first_chunk_mut::<16>()) {
                put16(dst, [x, y, z, w]);
            }
            done += 1;
        }
        if done < n {
            if let Some(dst) = parts.into_remainder().get_mut(at..).and_then(|d| d.first_chunk_mut::<16>()) {
                put16(dst, [x[done], y[done], z[done], w[done]]);
            }
        }
    }
}

/// The end of the pipeline for one draw.
pub(crate) struct OutputStage<'w, 't, 'a> {
    pub so: Option<&'w mut SoWriter<'t, 'a>>,
    /// The stream sent to the rasterizer.
    pub rasterized: Option<u32>,
    /// Per stream, when capturing.
    pub capture: [Option<Capture>; 4],
    /// Primitives produced on all streams.
    pub primitives: u64,
    /// Primitives sent to the rasterizer (`CInvocations`, `CPrimitives`).
    pub rasterized_primitives: u64,
    /// Vertices gathered for [`primitive`](Self::primitive) by
    /// [`invocations`](Self::invocations).
    pub scratch: Vec<[u32; 4]>,
    /// The input primitive and GS instance of the primitives being produced, set by the
    /// draw before each geometry-shader invocation (or IA primitive without one) and
    /// read by the capture.
    pub origin: Provenance,
}

impl OutputStage<'_, '_, '_> {
    /// `count` invocations that output the same primitives, `template` (the emit
    /// indices of their vertices), in order: the same as [`primitive`](Self::primitive)
    /// for each primitive of each invocation, the vertices read from `source`. Not for
    /// a draw that captures (the capture needs each invocation's provenance, set
    /// before each).
    pub fn invocations(&mut self, template: &[Emitted], count: usize, source: &impl VertexSource) {
        let bulk = self.capture.iter().all(Option::is_none) && self.so.as_ref().is_none_or(|s| s.bulk());
        if !bulk {
            let regs = source.registers();
            let mut v = std::mem::take(&mut self.scratch);
            v.clear();
            v.resize(3 * regs, [0; 4]);
            for i in 0..count {
                for p in template {
                    for (j, &k) in p.vertices.iter().enumerate() {
                        for r in 0..regs {
                            v[j * regs + r] = source.register(i, k, r);
                        }
                    }
                    let (a, rest) = v.split_at(regs);
                    let (b, c) = rest.split_at(regs);
                    self.primitive(p.stream, &[a, b, c][..p.len as usize]);
                }
            }
            self.scratch = v;
            return;
        }
        let rasterized = template.iter().filter(|p| Some(p.stream) == self.rasterized).count();
        self.primitives += (template.len() * count) as u64;
        self.rasterized_primitives += (rasterized * count) as u64;
        if let Some(so) = self.so.as_deref_mut() {
            so.invocations(template, count, source);
        }
    }

    /// Whether [`batches_parallel`](Self::batches_parallel) may take a chunk's
    /// output: nothing is captured, and stream output (if any) writes in bulk.
    pub fn parallel_ok(&self) -> bool {
        self.capture.iter().all(Option::is_none) && self.so.as_ref().is_none_or(|s| s.bulk())
    }

    /// [`invocations`](Self::invocations) for each batch in order, the stream-output
    /// writes of the batches made on the current rayon pool
    /// ([`SoWriter::batches_parallel`]). Needs [`parallel_ok`](Self::parallel_ok).
    pub fn batches_parallel<S: VertexSource + Sync>(&mut self, batches: &mut [SoBatch<'_, S>]) {
        for b in batches.iter() {
            let rasterized = b.template.iter().filter(|p| Some(p.stream) == self.rasterized).count();
            self.primitives += (b.template.len() * b.count) as u64;
            self.rasterized_primitives += (rasterized * b.count) as u64;
        }
        if let Some(so) = self.so.as_deref_mut() {
            so.batches_parallel(batches);
        }
    }

    /// The output of a draw spread over threads in segments: `f` runs with the
    /// [`SoChain`] of this stage (over the stream-output buffers, or one that only
    /// counts without stream output); the claimed segments' primitives are counted.
    /// Returns `f`'s result and the number of segments claimed. Needs
    /// [`parallel_ok`](Self::parallel_ok).
    pub fn chain<R>(&mut self, f: impl FnOnce(&SoChain<'_>) -> R) -> (R, usize) {
        let (r, totals) = match self.so.as_deref_mut() {
            Some(so) => so.chain(self.rasterized, f),
            None => {
                let chain = SoChain::new(None, self.rasterized, [None; 4], [None, None, None, None]);
                let r = f(&chain);
                (r, chain.into_totals())
            }
        };
        self.primitives += totals.primitives;
        self.rasterized_primitives += totals.rasterized_primitives;
        (r, totals.segments)
    }

    /// One finished primitive of `stream`: each vertex is the output register file of
    /// the stage that produced it.
    #[inline]
    pub fn primitive(&mut self, stream: u32, vertices: &[&[[u32; 4]]]) {
        self.primitives += 1;
        if self.rasterized == Some(stream) {
            self.rasterized_primitives += 1;
        }
        if let Some(so) = self.so.as_deref_mut() {
            so.primitive(stream, vertices);
        }
        if let Some(Some(capture)) = self.capture.get_mut(stream as usize) {
            let origin = self.origin;
            let primitive = vertices.iter().map(|v| capture.vertex(v, origin)).collect();
            capture.primitives.primitives.push(primitive);
        }
    }
}
