//! Where finished primitives go: stream output, the rasterizer's counters, and the
//! capture of [`DrawResult::streams`](super::DrawResult::streams).

use super::so::SoWriter;
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
    /// The input primitive and GS instance of the primitives being produced, set by the
    /// draw before each geometry-shader invocation (or IA primitive without one) and
    /// read by the capture.
    pub origin: Provenance,
}

impl OutputStage<'_, '_, '_> {
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
