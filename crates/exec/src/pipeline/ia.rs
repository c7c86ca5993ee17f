//! The input assembler (functional spec chapter 8): the input layout resolved against
//! the first stage's input signature, vertex fetch with the out-of-bounds rules, index
//! reads, and primitive assembly for every topology (strips, adjacency, cuts).

use super::{IndexBuffer, IndexFormat, InputElement, Topology, VertexBuffer, APPEND_ALIGNED};
use crate::error::{ExecError, ExecErrorKind};
use crate::format::{Convert, Encoding, Format};
use crate::plan::Plan;
use tpf::SystemName;

/// `D3D11_IA_VERTEX_INPUT_RESOURCE_SLOT_COUNT`.
pub const VERTEX_INPUT_SLOTS: u32 = 32;

fn draw_error(message: String) -> ExecError {
    ExecError::new(ExecErrorKind::Draw(message))
}

/// `TEXCOORD1`-style name of a semantic (`TEXCOORD` for index 0).
pub(crate) fn semantic_text(name: &str, index: u32) -> String {
    if index == 0 {
        name.to_string()
    } else {
        format!("{name}{index}")
    }
}

/// How one element is decoded: the 32-bit formats are copied, the others go through
/// [`Format::decode`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Decode {
    /// `n` 32-bit components, the missing ones (0, 0, 0, `one`).
    Words {
        n: usize,
        one: u32,
    },
    General,
}

impl Decode {
    fn one(self) -> u32 {
        match self {
            Decode::Words { one, .. } => one,
            Decode::General => 0,
        }
    }
}

/// One layout element feeding an input register.
#[derive(Debug, Clone, Copy)]
struct Fetch {
    slot: usize,
    /// Byte offset of the element within the vertex.
    offset: u32,
    format: Format,
    size: u32,
    decode: Decode,
    per_instance: bool,
    step_rate: u32,
    register: usize,
    /// Components of the register written (the signature element's mask).
    mask: u8,
}

/// A system value the IA writes into an input register (`SV_VertexID`,
/// `SV_InstanceID`).
#[derive(Debug, Clone, Copy)]
struct SystemFill {
    register: usize,
    mask: u8,
    instance: bool,
}

/// The input layout resolved for one draw: what to fetch into which register.
#[derive(Debug, Clone)]
pub(crate) struct InputFetch {
    fetches: Vec<Fetch>,
    systems: Vec<SystemFill>,
    /// Input registers per vertex.
    pub registers: usize,
    /// Every register is one whole per-vertex element of four 32-bit components
    /// (`R32G32B32A32_*`), and no system value is generated: what
    /// [`fetch_rows`](Self::fetch_rows) takes.
    plain: bool,
}

/// Element offsets with `APPEND_ALIGNED` resolved (per input slot: directly after the
/// previous element of the same slot, aligned to the element's alignment — the
/// nearest power of two ≥ its size, at most 4 — functional spec 4.4.6).
pub(crate) fn resolve_offsets(layout: &[InputElement]) -> Vec<u32> {
    let mut end = [0u32; VERTEX_INPUT_SLOTS as usize];
    layout
        .iter()
        .map(|e| {
            let size = e.format.size() as u32;
            let slot = (e.input_slot as usize).min(end.len() - 1);
            let offset = if e.aligned_byte_offset == APPEND_ALIGNED {
                let align = size.max(1).next_power_of_two().min(4);
                end[slot].div_ceil(align).saturating_mul(align)
            } else {
                e.aligned_byte_offset
            };
            end[slot] = offset.saturating_add(size);
            offset
        })
        .collect()
}

impl InputFetch {
    /// Resolves `layout` against `plan`'s input signature and declarations. `vertex`:
    /// the plan is a vertex shader (system values `SV_VertexID`/`SV_InstanceID` are
    /// generated); else a geometry shader fed by the IA directly.
    pub fn new(layout: &[InputElement], plan: &Plan, vertex: bool) -> Result<InputFetch, ExecError> {
        let stage = if vertex { "vertex" } else { "geometry" };
        let offsets = resolve_offsets(layout);
        for e in layout {
            if e.input_slot >= VERTEX_INPUT_SLOTS {
                return Err(draw_error(format!(
                    "input layout element {} uses input slot {} (slots are 0..{})",
                    semantic_text(&e.semantic_name, e.semantic_index),
                    e.input_slot,
                    VERTEX_INPUT_SLOTS - 1
                )));
            }
        }
        let registers = plan.input_registers as usize;
        let mut fetches = Vec::new();
        let mut systems = Vec::new();
        let mut fed = Vec::new(); // signature elements already given an element
        for decl in &plan.inputs {
            let register = decl.register as usize;
            if register >= registers {
                continue;
            }
            match decl.system {
                SystemName::VertexId | SystemName::InstanceId if vertex => {
                    systems.push(SystemFill {
                        register,
                        mask: decl.mask,
                        instance: decl.system == SystemName::InstanceId,
                    });
                    continue;
                }
                SystemName::PrimitiveId => continue,
                _ => {}
            }
            let elements: Vec<_> = plan
                .input_signature
                .iter()
                .enumerate()
                .filter(|(_, s)| s.register == decl.register && (s.mask & decl.mask != 0 || decl.mask == 0))
                .collect();
            if elements.is_empty() {
                return Err(draw_error(format!(
                    "the {stage} shader reads v{} but its input signature has no element in that register",
                    decl.register
                )));
            }
            for (index, sig) in elements {
                if fed.contains(&index) {
                    continue;
                }
                fed.push(index);
                // D3D_NAME_VERTEX_ID / D3D_NAME_INSTANCE_ID elements come from the IA's
                // counters, not from the layout.
                if vertex && (sig.system_value == 6 || sig.system_value == 8) {
                    continue;
                }
                let found = layout.iter().enumerate().find(|(_, e)| {
                    e.semantic_index == sig.semantic_index && e.semantic_name.eq_ignore_ascii_case(&sig.semantic_name)
                });
                let Some((i, element)) = found else {
                    return Err(draw_error(format!(
                        "the input layout has no element for {} (v{}), which the {stage} shader reads",
                        semantic_text(&sig.semantic_name, sig.semantic_index),
                        sig.register
                    )));
                };
                let format = element.format;
                // Formats of whole 32-bit words whose bits the shader reads as they are
                // are copied word by word.
                let words = format
                    .components()
                    .iter()
                    .all(|c| c.bits == 32 && matches!(c.encoding, Encoding::Float | Encoding::Uint | Encoding::Sint));
                let decode = if words {
                    Decode::Words { n: format.components().len(), one: format.defaults()[3] }
                } else {
                    Decode::General
                };
                fetches.push(Fetch {
                    slot: element.input_slot as usize,
                    offset: offsets[i],
                    format,
                    size: format.size() as u32,
                    decode,
                    per_instance: element.per_instance,
                    step_rate: element.instance_data_step_rate,
                    register: sig.register as usize,
                    mask: if sig.mask == 0 { 0xf } else { sig.mask & 0xf },
                });
            }
        }
        // Registers fetched in signature order; the IA writes system values after the
        // data (a generated value shares a register only with components after it).
        fetches.retain(|f| f.register < registers);
        let whole = |f: &Fetch| matches!(f.decode, Decode::Words { n: 4, .. }) && f.mask == 0xf && !f.per_instance;
        let plain = systems.is_empty()
            && fetches.iter().all(whole)
            && (0..registers).all(|r| fetches.iter().any(|f| f.register == r));
        Ok(InputFetch { fetches, systems, registers, plain })
    }

    /// The per-instance element index of every fetch for instance `instance` of a draw
    /// starting at `start_instance` (the step-rate rule of 8.4.1).
    pub fn instance_elements(&self, instance: u32, start_instance: u32, out: &mut Vec<u32>) {
        out.clear();
        out.extend(self.fetches.iter().map(|f| {
            if !f.per_instance {
                0
            } else {
                // A step rate of 0 never steps.
                start_instance.wrapping_add(instance.checked_div(f.step_rate).unwrap_or(0))
            }
        }));
    }

    /// Fetches `n` consecutive vertices (vertex buffer elements `element..element + n`,
    /// `n` at most [`W`](crate::machine::lanes::W)) into lanes: input register `r`
    /// of lane `l` is `regs[(base + r) * 4 + c][l]`, for the registers below
    /// `inputs`. Writes what [`fetch`](Self::fetch) gives, vertex by vertex, and
    /// returns true, when the layout is plain (see [`InputFetch::plain`]) and every
    /// element lies inside its buffer without wrapping; else writes nothing and
    /// returns false.
    pub fn fetch_rows(
        &self,
        buffers: &[Option<VertexBuffer<'_>>],
        element: u32,
        n: usize,
        regs: &mut [crate::machine::lanes::L],
        base: usize,
        inputs: usize,
    ) -> bool {
        if !self.plain || n == 0 {
            return false;
        }
        let last = element as u64 + n as u64 - 1;
        // Every element in its buffer, with the 32-bit address arithmetic not wrapping.
        let starts = self.fetches.iter().map(|f| {
            let vb = buffers.get(f.slot).copied().flatten()?;
            let first = vb.offset as u64 + vb.stride as u64 * element as u64 + f.offset as u64;
            let end = vb.offset as u64 + vb.stride as u64 * last + f.offset as u64 + 16;
            (last <= u32::MAX as u64 && end <= u32::MAX as u64 + 1 && end <= vb.data.len() as u64)
                .then_some((vb, first as usize))
        });
        for (f, start) in self.fetches.iter().zip(starts) {
            let Some((vb, first)) = start else { return false };
            if f.register >= inputs {
                continue;
            }
            let b = (base + f.register) * 4;
            let Some(rows) = regs.get_mut(b..b + 4) else { continue };
            let stride = vb.stride as usize;
            for l in 0..n.min(crate::machine::lanes::W) {
                let Some(bytes) = vb.data.get(first + l * stride..).and_then(|d| d.first_chunk::<16>()) else {
                    continue;
                };
                for (c, row) in rows.iter_mut().enumerate() {
                    row[l] = u32::from_le_bytes([bytes[4 * c], bytes[4 * c + 1], bytes[4 * c + 2], bytes[4 * c + 3]]);
                }
            }
        }
        true
    }

    /// Fetches one vertex into `out` (`registers` registers): `vertex` is the vertex
    /// buffer element index (start vertex + i, or base vertex + index, wrapping),
    /// `instance_elements` from [`instance_elements`](Self::instance_elements),
    /// `vertex_id`/`instance_id` the system values.
    #[inline(always)]
    pub fn fetch(
        &self,
        buffers: &[Option<VertexBuffer<'_>>],
        vertex: u32,
        instance_elements: &[u32],
        vertex_id: u32,
        instance_id: u32,
        out: &mut [[u32; 4]],
    ) {
        for (f, &element_index) in self.fetches.iter().zip(instance_elements) {
            let Some(reg) = out.get_mut(f.register) else { continue };
            let value = match buffers.get(f.slot).and_then(|b| b.as_ref()) {
                // An unbound slot reads 0 in every component, without defaults (8.20).
                None => [0; 4],
                Some(vb) => {
                    let index = if f.per_instance { element_index } else { vertex };
                    let address = vb.offset.wrapping_add(vb.stride.wrapping_mul(index)).wrapping_add(f.offset);
                    let end = address as u64 + f.size as u64;
                    // Out of bounds (8.19.2): below the binding's offset or past the end
                    // reads 0 in the format's components, defaults in the others.
                    let bytes: &[u8] = if address < vb.offset || end > vb.data.len() as u64 {
                        &[]
                    } else {
                        &vb.data[address as usize..end as usize]
                    };
                    if f.mask == 0xf && f.decode == (Decode::Words { n: 4, one: f.decode.one() }) && bytes.len() >= 16 {
                        // The common case, straight into the register (no temporary).
                        for (c, r) in reg.iter_mut().enumerate() {
                            *r = u32::from_le_bytes([
                                bytes[4 * c],
                                bytes[4 * c + 1],
                                bytes[4 * c + 2],
                                bytes[4 * c + 3],
                            ]);
                        }
                        continue;
                    }
                    decode(f.format, f.decode, bytes)
                }
            };
            if f.mask == 0xf {
                *reg = value;
            } else {
                for c in 0..4 {
                    if f.mask & (1 << c) != 0 {
                        reg[c] = value[c];
                    }
                }
            }
        }
        for s in &self.systems {
            if let Some(reg) = out.get_mut(s.register) {
                let v = if s.instance { instance_id } else { vertex_id };
                for (c, r) in reg.iter_mut().enumerate() {
                    if s.mask & (1 << c) != 0 {
                        *r = v;
                    }
                }
            }
        }
    }
}

#[inline]
fn decode(format: Format, how: Decode, bytes: &[u8]) -> [u32; 4] {
    #[inline(always)]
    fn word(b: &[u8], i: usize) -> u32 {
        u32::from_le_bytes([b[4 * i], b[4 * i + 1], b[4 * i + 2], b[4 * i + 3]])
    }
    match how {
        Decode::Words { n, one } => {
            if bytes.len() < 4 * n {
                // Out of bounds: zeros and the defaults.
                return if n == 4 { [0; 4] } else { [0, 0, 0, one] };
            }
            match n {
                4 => [word(bytes, 0), word(bytes, 1), word(bytes, 2), word(bytes, 3)],
                3 => [word(bytes, 0), word(bytes, 1), word(bytes, 2), one],
                2 => [word(bytes, 0), word(bytes, 1), 0, one],
                _ => [word(bytes, 0), 0, 0, one],
            }
        }
        Decode::General => format.decode(bytes),
    }
}

/// The strip-cut index of an index format (8.12).
pub(crate) fn cut_value(format: IndexFormat) -> u32 {
    match format {
        IndexFormat::U16 => 0xffff,
        IndexFormat::U32 => 0xffff_ffff,
    }
}

/// Bytes per index.
pub(crate) fn index_size(format: IndexFormat) -> u32 {
    match format {
        IndexFormat::U16 => 2,
        IndexFormat::U32 => 4,
    }
}

/// Reads index `i` of a draw starting at `start_index` (32-bit wrapping address
/// arithmetic, 8.19.1). A read past the end of the buffer, or with no buffer bound,
/// is 0 (8.19.2, 8.20).
#[inline]
pub(crate) fn read_index(ib: Option<&IndexBuffer<'_>>, start_index: u32, i: u32) -> u32 {
    let Some(ib) = ib else { return 0 };
    let size = index_size(ib.format);
    let address = ib.offset.wrapping_add(start_index.wrapping_add(i).wrapping_mul(size));
    let end = address as u64 + size as u64;
    if address < ib.offset || end > ib.data.len() as u64 {
        return 0;
    }
    let b = &ib.data[address as usize..end as usize];
    match ib.format {
        IndexFormat::U16 => u16::from_le_bytes([b[0], b[1]]) as u32,
        IndexFormat::U32 => u32::from_le_bytes([b[0], b[1], b[2], b[3]]),
    }
}

/// An assembled IA primitive: handles of its vertices, in the order a geometry shader
/// sees them (adjacent vertices included), and its `SV_PrimitiveID`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct IaPrimitive {
    pub vertices: [u32; 6],
    pub len: u8,
    pub id: u32,
}

impl IaPrimitive {
    pub fn handles(&self) -> &[u32] {
        &self.vertices[..self.len as usize]
    }
}

/// Ring of the last vertex handles of the current strip.
const RING: usize = 16;

/// Primitive assembly: vertices (handles) in, primitives out, in the order of 8.10.
///
/// - Lists take consecutive groups; a cut or the end of an instance discards an
///   incomplete group (8.13).
/// - Triangle strips: triangle `k` of a strip is `(k, k+1, k+2)` for even `k` and
///   `(k, k+2, k+1)` for odd `k` — the leading vertex (8.14: the first vertex, vertex
///   `k`) stays first and the winding alternates back.
/// - Line strips with adjacency: line `k` is `(k, k+1, k+2, k+3)`.
/// - Triangle strips with adjacency: triangle `i` is based at vertex `2i`; its six
///   vertices (GS order: vertex, adjacent, vertex, adjacent, vertex, adjacent) depend
///   on whether it is the first, the last, and even or odd (the table of the
///   functional spec's 8.10 figure, leading vertex first as in 8.14: for odd `i`
///   `(2i, 2i+3, 2i+4, 2i+6, 2i+2, 2i-2)`). Whether a triangle is the last of its
///   strip is known when the strip ends or the next one starts, so each is produced
///   one vertex late. A strip of `n ≥ 6` vertices has `(n - 4) / 2` triangles.
#[derive(Debug, Clone)]
pub(crate) struct Assembler {
    topology: Topology,
    /// Vertices in the current strip (since the last cut).
    n: u32,
    ring: [u32; RING],
    /// Triangle strip with adjacency: triangle `(n - 5) / 2` is complete but not yet
    /// produced (it may be the last one).
    pending: bool,
    /// The next primitive's `SV_PrimitiveID`.
    next_id: u32,
}

impl Assembler {
    pub fn new(topology: Topology) -> Assembler {
        Assembler { topology, n: 0, ring: [0; RING], pending: false, next_id: 0 }
    }

    /// A new instance: primitive IDs restart at 0 (8.17).
    pub fn start_instance(&mut self) {
        self.n = 0;
        self.pending = false;
        self.next_id = 0;
    }

    /// In a list topology, at the start of the instance: the first `vertices`
    /// vertices (whole primitives) were assembled elsewhere; go on after them.
    pub fn skip(&mut self, vertices: u32) {
        if vertices == 0 {
            return;
        }
        let group = match self.topology {
            Topology::PointList => 1,
            Topology::LineList => 2,
            Topology::TriangleList => 3,
            Topology::LineListAdj => 4,
            Topology::TriangleListAdj => 6,
            _ => return,
        };
        self.n = vertices;
        self.next_id = vertices / group;
    }

    #[inline]
    fn at(&self, position: u32) -> u32 {
        self.ring[position as usize % RING]
    }

    #[inline]
    fn make(&mut self, positions: &[u32]) -> IaPrimitive {
        let mut vertices = [0u32; 6];
        for (v, &p) in vertices.iter_mut().zip(positions) {
            *v = self.at(p);
        }
        let id = self.next_id;
        self.next_id = self.next_id.wrapping_add(1);
        IaPrimitive { vertices, len: positions.len() as u8, id }
    }

    /// Triangle `i` of a strip with adjacency.
    fn strip_adj(&mut self, i: u32, last: bool) -> IaPrimitive {
        let base = 2 * i as i64;
        let offsets = Topology::strip_adj_offsets(i == 0, i.is_multiple_of(2), last);
        let positions = offsets.map(|o| (base + o as i64) as u32);
        self.make(&positions)
    }

    /// Adds a vertex; returns the primitive it completes, if any.
    #[inline]
    pub fn push(&mut self, handle: u32) -> Option<IaPrimitive> {
        let p = self.n;
        self.ring[p as usize % RING] = handle;
        self.n = p.wrapping_add(1);
        match self.topology {
            Topology::PointList => Some(self.make(&[p])),
            Topology::LineList => (p % 2 == 1).then(|| self.make(&[p - 1, p])),
            Topology::LineStrip => (p >= 1).then(|| self.make(&[p - 1, p])),
            Topology::TriangleList => (p % 3 == 2).then(|| self.make(&[p - 2, p - 1, p])),
            Topology::TriangleStrip => {
                if p < 2 {
                    return None;
                }
                let k = p - 2;
                Some(if k.is_multiple_of(2) { self.make(&[k, k + 1, k + 2]) } else { self.make(&[k, k + 2, k + 1]) })
            }
            Topology::LineListAdj => (p % 4 == 3).then(|| self.make(&[p - 3, p - 2, p - 1, p])),
            Topology::LineStripAdj => (p >= 3).then(|| self.make(&[p - 3, p - 2, p - 1, p])),
            Topology::TriangleListAdj => (p % 6 == 5).then(|| self.make(&[p - 5, p - 4, p - 3, p - 2, p - 1, p])),
            Topology::TriangleStripAdj => {
                if p < 5 || p.is_multiple_of(2) {
                    return None;
                }
                let i = (p - 5) / 2;
                let previous = if self.pending && i > 0 { Some(self.strip_adj(i - 1, false)) } else { None };
                self.pending = true;
                previous
            }
        }
    }

    /// [`push`](Self::push) of the handles `first`, `first + 1`... (`count` of them,
    /// wrapping to 0 at `ring`; `first < ring`), the primitives completed into `out`.
    pub fn push_consecutive(&mut self, first: u32, count: u32, ring: u32, out: &mut Vec<IaPrimitive>) {
        let mut h = first;
        if self.topology == Topology::PointList {
            // Every vertex a primitive of its own (the ring is not read).
            out.reserve(count as usize);
            for _ in 0..count {
                out.push(IaPrimitive { vertices: [h, 0, 0, 0, 0, 0], len: 1, id: self.next_id });
                self.next_id = self.next_id.wrapping_add(1);
                h += 1;
                if h >= ring {
                    h = 0;
                }
            }
            self.n = self.n.wrapping_add(count);
            return;
        }
        for _ in 0..count {
            if let Some(p) = self.push(h) {
                out.push(p);
            }
            h += 1;
            if h >= ring {
                h = 0;
            }
        }
    }

    /// Ends the current strip (a cut index, the end of an instance): returns the last
    /// triangle of a strip with adjacency if one is pending.
    pub fn restart(&mut self) -> Option<IaPrimitive> {
        let pending = std::mem::replace(&mut self.pending, false);
        let n = std::mem::replace(&mut self.n, 0);
        if pending && n >= 6 {
            let i = (n - 6) / 2;
            return Some(self.strip_adj(i, true));
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(topology: Topology, stream: &[Option<u32>]) -> Vec<Vec<u32>> {
        let mut a = Assembler::new(topology);
        let mut out = Vec::new();
        for v in stream {
            let p = match v {
                Some(v) => a.push(*v),
                None => a.restart(),
            };
            out.extend(p.map(|p| p.handles().to_vec()));
        }
        out.extend(a.restart().map(|p| p.handles().to_vec()));
        out
    }

    fn seq(n: u32) -> Vec<Option<u32>> {
        (0..n).map(Some).collect()
    }

    #[test]
    fn lists_and_strips() {
        assert_eq!(run(Topology::PointList, &seq(3)), vec![vec![0], vec![1], vec![2]]);
        assert_eq!(run(Topology::LineList, &seq(5)), vec![vec![0, 1], vec![2, 3]]);
        assert_eq!(run(Topology::LineStrip, &seq(4)), vec![vec![0, 1], vec![1, 2], vec![2, 3]]);
        assert_eq!(run(Topology::TriangleList, &seq(8)), vec![vec![0, 1, 2], vec![3, 4, 5]]);
        assert_eq!(
            run(Topology::TriangleStrip, &seq(6)),
            vec![vec![0, 1, 2], vec![1, 3, 2], vec![2, 3, 4], vec![3, 5, 4]]
        );
        assert_eq!(run(Topology::LineListAdj, &seq(9)), vec![vec![0, 1, 2, 3], vec![4, 5, 6, 7]]);
        assert_eq!(run(Topology::LineStripAdj, &seq(6)), vec![vec![0, 1, 2, 3], vec![1, 2, 3, 4], vec![2, 3, 4, 5]]);
        assert_eq!(run(Topology::TriangleListAdj, &seq(13)), vec![vec![0, 1, 2, 3, 4, 5], vec![6, 7, 8, 9, 10, 11]]);
    }

    #[test]
    fn strip_cuts_restart_the_strip() {
        let s = [Some(0), Some(1), Some(2), Some(3), None, Some(4), Some(5), None, Some(6), Some(7), Some(8)];
        assert_eq!(run(Topology::TriangleStrip, &s), vec![vec![0, 1, 2], vec![1, 3, 2], vec![6, 7, 8]]);
        // A cut in a list discards the incomplete primitive.
        let s = [Some(0), Some(1), None, Some(2), Some(3), Some(4)];
        assert_eq!(run(Topology::TriangleList, &s), vec![vec![2, 3, 4]]);
    }

    #[test]
    fn triangle_strip_with_adjacency() {
        // Fewer than 6 vertices: nothing.
        assert!(run(Topology::TriangleStripAdj, &seq(5)).is_empty());
        // 6 or 7 vertices: the only triangle (the 7th vertex dangles).
        let only = vec![vec![0, 1, 2, 5, 4, 3]];
        assert_eq!(run(Topology::TriangleStripAdj, &seq(6)), only);
        assert_eq!(run(Topology::TriangleStripAdj, &seq(7)), only);
        // 8 vertices: first and last (odd).
        assert_eq!(run(Topology::TriangleStripAdj, &seq(8)), vec![vec![0, 1, 2, 6, 4, 3], vec![2, 5, 6, 7, 4, 0]]);
        // 12 vertices: first, odd middle, even middle, last (odd).
        assert_eq!(
            run(Topology::TriangleStripAdj, &seq(12)),
            vec![vec![0, 1, 2, 6, 4, 3], vec![2, 5, 6, 8, 4, 0], vec![4, 2, 6, 10, 8, 7], vec![6, 9, 10, 11, 8, 4],]
        );
        // 10 vertices: last is even.
        assert_eq!(run(Topology::TriangleStripAdj, &seq(10))[2], vec![4, 2, 6, 9, 8, 7]);
    }

    #[test]
    fn primitive_ids_count_across_cuts() {
        let mut a = Assembler::new(Topology::LineStrip);
        let mut ids = Vec::new();
        for v in [Some(0), Some(1), Some(2), None, Some(3), Some(4)] {
            let p = match v {
                Some(v) => a.push(v),
                None => a.restart(),
            };
            ids.extend(p.map(|p| p.id));
        }
        assert_eq!(ids, vec![0, 1, 2]);
        a.start_instance();
        a.push(0);
        assert_eq!(a.push(1).map(|p| p.id), Some(0));
    }

    #[test]
    fn append_aligned_offsets() {
        let e = |format, slot, offset| InputElement {
            semantic_name: "A".into(),
            semantic_index: 0,
            format,
            input_slot: slot,
            aligned_byte_offset: offset,
            per_instance: false,
            instance_data_step_rate: 0,
        };
        let layout = [
            e(Format::R8_UINT, 0, 0),
            e(Format::R16_UINT, 0, APPEND_ALIGNED),
            e(Format::R8_UINT, 0, APPEND_ALIGNED),
            e(Format::R32G32_FLOAT, 0, APPEND_ALIGNED),
            e(Format::R32_FLOAT, 1, APPEND_ALIGNED),
            e(Format::R8G8B8A8_UNORM, 0, 100),
            e(Format::R8_UINT, 0, APPEND_ALIGNED),
        ];
        assert_eq!(resolve_offsets(&layout), vec![0, 2, 4, 8, 0, 100, 104]);
    }
}
