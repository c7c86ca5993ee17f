//! The geometry shader's output semantics (functional spec 13.3–13.7, the `emit`,
//! `cut` and `emitThenCut` pages): per stream, emitted vertices are assembled into the
//! declared output topology and strips are turned into lists as they complete.
//!
//! - `pointlist`: every emit is a point; `cut` has no effect.
//! - `linestrip`: from the second vertex of a strip on, each emit completes the line
//!   (previous, current).
//! - `trianglestrip`: from the third vertex of a strip on, each emit completes a
//!   triangle; triangle `k` of the strip (counted from the strip's start, i.e. from the
//!   last cut) is `(k, k+1, k+2)` for even `k` and `(k, k+2, k+1)` for odd `k`: the
//!   leading vertex stays first (8.14) and the winding is made consistent.
//! - `cut` ends the current strip: an incomplete primitive (one vertex of a line, one
//!   or two of a triangle) is discarded and counted nowhere (13.7, Microsoft's cut_stream page).
//! - The end of an invocation (every GS instance is an invocation) is an implicit cut
//!   on every stream (Microsoft's cut_stream page: "as if a cut_stream were the last instruction").
//! - `dcl_maxout` is the machine's: it ends the invocation after that many emits
//!   (Microsoft's dcl_maxOutputVertexCount page); the sink never sees more.
//!
//! A stream whose topology is not declared ignores its emits.
//!
//! When the draw captures its primitives, each vertex in a stream's ring carries one
//! register more than the outputs: its emission number within the invocation (x),
//! which the capture reads into [`Provenance::emission`](super::Provenance::emission).

use super::output::OutputStage;
use crate::machine::EmitSink;
use tpf::PrimitiveTopology;

/// How a stream's emitted vertices form primitives.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Shape {
    /// Not declared: emits are dropped.
    None,
    Points,
    LineStrip,
    TriangleStrip,
    /// `linelist`/`trianglelist` (not GS output topologies, but assembled as lists).
    LineList,
    TriangleList,
}

impl Shape {
    pub fn of(topology: Option<PrimitiveTopology>) -> Shape {
        match topology {
            Some(PrimitiveTopology::PointList) => Shape::Points,
            Some(PrimitiveTopology::LineStrip) => Shape::LineStrip,
            Some(PrimitiveTopology::TriangleStrip) => Shape::TriangleStrip,
            Some(PrimitiveTopology::LineList) => Shape::LineList,
            Some(PrimitiveTopology::TriangleList) => Shape::TriangleList,
            _ => Shape::None,
        }
    }

    /// The list topology of the primitives.
    pub fn list(self) -> Option<PrimitiveTopology> {
        match self {
            Shape::None => None,
            Shape::Points => Some(PrimitiveTopology::PointList),
            Shape::LineStrip | Shape::LineList => Some(PrimitiveTopology::LineList),
            Shape::TriangleStrip | Shape::TriangleList => Some(PrimitiveTopology::TriangleList),
        }
    }
}

/// One stream's strip in progress: the last three vertices (a ring) and how many
/// vertices the strip has.
#[derive(Debug, Clone)]
struct StreamState {
    shape: Shape,
    /// Vertices emitted since the strip started.
    n: u32,
    /// Three vertices of `registers` registers each.
    ring: Vec<[u32; 4]>,
}

/// Receives a geometry shader's emits and cuts and hands finished primitives to the
/// output stage.
pub(crate) struct GsSink<'o, 'w, 't, 'a> {
    streams: [StreamState; 4],
    /// Registers per ring vertex: the outputs, and the emission number when `track`.
    registers: usize,
    /// The output stage captures: keep each vertex's emission number.
    pub track: bool,
    /// Tracking: emits of the current invocation (all streams), and the outputs of the
    /// current emit with its number.
    emits: u32,
    extended: Vec<[u32; 4]>,
    pub out: &'o mut OutputStage<'w, 't, 'a>,
}

impl<'o, 'w, 't, 'a> GsSink<'o, 'w, 't, 'a> {
    /// A sink for `registers` output registers, with each stream's declared topology.
    pub fn new(
        topologies: [Option<PrimitiveTopology>; 4],
        registers: usize,
        out: &'o mut OutputStage<'w, 't, 'a>,
    ) -> GsSink<'o, 'w, 't, 'a> {
        let track = out.capture.iter().any(Option::is_some);
        let registers = registers + track as usize;
        let state = |t: Option<PrimitiveTopology>| {
            let shape = Shape::of(t);
            let ring = if shape == Shape::None { Vec::new() } else { vec![[0u32; 4]; 3 * registers] };
            StreamState { shape, n: 0, ring }
        };
        GsSink {
            streams: [state(topologies[0]), state(topologies[1]), state(topologies[2]), state(topologies[3])],
            registers,
            track,
            emits: 0,
            extended: Vec::new(),
            out,
        }
    }

    /// The end of an invocation: an implicit cut on every stream.
    pub fn end_invocation(&mut self) {
        for s in &mut self.streams {
            s.n = 0;
        }
        self.emits = 0;
    }
}

/// Vertex `q` of a ring of three vertices of `regs` registers.
#[inline(always)]
fn at(ring: &[[u32; 4]], regs: usize, q: u32) -> &[[u32; 4]] {
    let i = (q % 3) as usize * regs;
    &ring[i..i + regs]
}

/// Copies registers (small counts: a loop rather than a `memcpy` call).
#[inline(always)]
pub(crate) fn copy_registers(dst: &mut [[u32; 4]], src: &[[u32; 4]]) {
    for (d, s) in dst.iter_mut().zip(src) {
        *d = *s;
    }
}

impl GsSink<'_, '_, '_, '_> {
    /// An emit when capturing: the outputs and, one register past them, the emission
    /// number.
    #[inline(never)]
    fn emit_tracked(&mut self, stream: u32, outputs: &[[u32; 4]]) {
        let mut extended = std::mem::take(&mut self.extended);
        extended.clear();
        extended.extend_from_slice(outputs);
        extended.resize(self.registers - 1, [0; 4]);
        extended.push([self.emits, 0, 0, 0]);
        self.emits = self.emits.wrapping_add(1);
        self.put(stream, &extended);
        self.extended = extended;
    }

    /// A vertex into `stream`'s strip; a primitive out when it completes one.
    #[inline(always)]
    fn put(&mut self, stream: u32, outputs: &[[u32; 4]]) {
        let regs = self.registers;
        let Some(s) = self.streams.get_mut(stream as usize) else { return };
        match s.shape {
            Shape::None => return,
            Shape::Points if outputs.len() >= regs => {
                self.out.primitive(stream, &[&outputs[..regs]]);
                return;
            }
            _ => {}
        }
        let p = s.n;
        s.n = s.n.wrapping_add(1);
        let i = (p % 3) as usize * regs;
        let slot = &mut s.ring[i..i + regs];
        let n = outputs.len().min(regs);
        copy_registers(&mut slot[..n], &outputs[..n]);
        slot[n..].fill([0; 4]);
        let ring = &s.ring;
        match s.shape {
            Shape::Points => self.out.primitive(stream, &[at(ring, regs, p)]),
            Shape::LineStrip if p >= 1 => self.out.primitive(stream, &[at(ring, regs, p - 1), at(ring, regs, p)]),
            Shape::LineList if p % 2 == 1 => self.out.primitive(stream, &[at(ring, regs, p - 1), at(ring, regs, p)]),
            Shape::TriangleStrip if p >= 2 => {
                let k = p - 2;
                let (a, b, c) = (at(ring, regs, k), at(ring, regs, k + 1), at(ring, regs, p));
                if k % 2 == 0 {
                    self.out.primitive(stream, &[a, b, c])
                } else {
                    self.out.primitive(stream, &[a, c, b])
                }
            }
            Shape::TriangleList if p % 3 == 2 => {
                self.out.primitive(stream, &[at(ring, regs, p - 2), at(ring, regs, p - 1), at(ring, regs, p)])
            }
            _ => {}
        }
    }
}

impl EmitSink for GsSink<'_, '_, '_, '_> {
    #[inline]
    fn emit(&mut self, stream: u32, outputs: &[[u32; 4]]) {
        if self.track {
            self.emit_tracked(stream, outputs)
        } else {
            self.put(stream, outputs)
        }
    }

    #[inline]
    fn cut(&mut self, stream: u32) {
        if let Some(s) = self.streams.get_mut(stream as usize) {
            s.n = 0;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::output::OutputStage;
    use super::super::so::{SoLayout, SoWriter};
    use super::super::{SoStatistics, SoTarget};
    use super::*;
    use crate::plan::SigElement;

    /// Runs a script and returns (all primitives, rasterized-stream primitives).
    fn count(topologies: [Option<PrimitiveTopology>; 4], script: &[(char, u32, u32)]) -> (u64, u64) {
        let mut out = OutputStage {
            so: None,
            rasterized: Some(0),
            capture: Default::default(),
            primitives: 0,
            rasterized_primitives: 0,
            origin: Default::default(),
        };
        let mut sink = GsSink::new(topologies, 1, &mut out);
        for &(op, stream, value) in script {
            match op {
                'e' => sink.emit(stream, &[[value, 0, 0, 0]]),
                'c' => sink.cut(stream),
                _ => sink.end_invocation(),
            }
        }
        (out.primitives, out.rasterized_primitives)
    }

    /// Runs a script of emits (`e`, stream, value), cuts (`c`, stream) and invocation
    /// ends (`x`) and returns each stream's primitives as lists of values, via stream
    /// output of register 0's x to a buffer per stream.
    fn primitives(topologies: [Option<PrimitiveTopology>; 4], script: &[(char, u32, u32)]) -> Vec<Vec<Vec<u32>>> {
        let signature: Vec<SigElement> = (0..4)
            .map(|s| SigElement {
                stream: s,
                semantic_name: "V".into(),
                semantic_index: 0,
                register: 0,
                mask: 1,
                system_value: 0,
                component_type: 1,
            })
            .collect();
        let desc = streamout::StreamOutputDesc {
            entries: (0..4)
                .filter(|&s| topologies[s as usize].is_some())
                .map(|s| streamout::SoEntry {
                    stream: s,
                    semantic_name: Some("V".into()),
                    semantic_index: 0,
                    start_component: 0,
                    component_count: 1,
                    output_slot: s as u8,
                })
                .collect(),
            strides: vec![],
            rasterized_stream: 0,
        };
        let layout = SoLayout::new(&desc, &signature).unwrap();
        let mut memory = vec![vec![0u8; 4096]; 4];
        let mut it = memory.iter_mut();
        let mut targets = [(); 4].map(|_| Some(SoTarget { data: it.next().unwrap().as_mut_slice(), offset: 0 }));
        let mut writer = SoWriter::new(layout, &mut targets);
        {
            let mut out = OutputStage {
                so: Some(&mut writer),
                rasterized: Some(0),
                capture: Default::default(),
                primitives: 0,
                rasterized_primitives: 0,
                origin: Default::default(),
            };
            let mut sink = GsSink::new(topologies, 1, &mut out);
            for &(op, stream, value) in script {
                match op {
                    'e' => sink.emit(stream, &[[value, 0, 0, 0]]),
                    'c' => sink.cut(stream),
                    _ => sink.end_invocation(),
                }
            }
        }
        let stats: Vec<SoStatistics> = writer.statistics.to_vec();
        let ends: Vec<u32> = targets.iter().map(|t| t.as_ref().unwrap().offset).collect();
        let per = |s: usize| match Shape::of(topologies[s]).list() {
            Some(PrimitiveTopology::PointList) => 1,
            Some(PrimitiveTopology::LineList) => 2,
            _ => 3,
        };
        (0..4)
            .map(|s| {
                let words: Vec<u32> = memory[s][..ends[s] as usize]
                    .chunks_exact(4)
                    .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
                    .collect();
                assert_eq!(stats[s].num_primitives_written as usize * per(s), words.len());
                words.chunks(per(s)).map(|c| c.to_vec()).collect()
            })
            .collect()
    }

    const TRI: [Option<PrimitiveTopology>; 4] = [Some(PrimitiveTopology::TriangleStrip), None, None, None];
    const LINE: [Option<PrimitiveTopology>; 4] = [Some(PrimitiveTopology::LineStrip), None, None, None];
    const POINTS: [Option<PrimitiveTopology>; 4] = [Some(PrimitiveTopology::PointList); 4];

    fn emits(values: &[u32]) -> Vec<(char, u32, u32)> {
        values.iter().map(|&v| ('e', 0, v)).collect()
    }

    #[test]
    fn triangle_strip_to_list_alternates_winding() {
        let p = primitives(TRI, &emits(&[0, 1, 2, 3, 4, 5]));
        assert_eq!(p[0], vec![vec![0, 1, 2], vec![1, 3, 2], vec![2, 3, 4], vec![3, 5, 4]]);
    }

    #[test]
    fn cut_discards_incomplete_and_restarts_parity() {
        // 2 vertices then a cut: nothing; the new strip starts even again.
        let mut s = emits(&[10, 11]);
        s.push(('c', 0, 0));
        s.extend(emits(&[0, 1, 2, 3]));
        s.push(('c', 0, 0));
        s.extend(emits(&[20, 21, 22]));
        let p = primitives(TRI, &s);
        assert_eq!(p[0], vec![vec![0, 1, 2], vec![1, 3, 2], vec![20, 21, 22]]);
    }

    #[test]
    fn end_of_invocation_is_a_cut() {
        let mut s = emits(&[0, 1]);
        s.push(('x', 0, 0));
        s.extend(emits(&[2, 3, 4]));
        s.push(('x', 0, 0));
        s.extend(emits(&[5]));
        let p = primitives(TRI, &s);
        assert_eq!(p[0], vec![vec![2, 3, 4]]);
        let p = primitives(LINE, &s);
        assert_eq!(p[0], vec![vec![0, 1], vec![2, 3], vec![3, 4]]);
    }

    #[test]
    fn points_ignore_cuts_and_streams_are_separate() {
        let s = vec![('e', 0, 1), ('c', 0, 0), ('e', 1, 2), ('e', 3, 3), ('e', 0, 4), ('c', 1, 0), ('e', 2, 5)];
        let p = primitives(POINTS, &s);
        assert_eq!(p[0], vec![vec![1], vec![4]]);
        assert_eq!(p[1], vec![vec![2]]);
        assert_eq!(p[2], vec![vec![5]]);
        assert_eq!(p[3], vec![vec![3]]);
    }

    #[test]
    fn undeclared_stream_and_counters() {
        let (all, rasterized) = count(
            [Some(PrimitiveTopology::PointList), None, None, Some(PrimitiveTopology::LineStrip)],
            &[('e', 0, 1), ('e', 1, 2), ('e', 3, 3), ('e', 3, 4), ('e', 3, 5), ('e', 7, 5)],
        );
        assert_eq!((all, rasterized), (3, 1));
    }
}
