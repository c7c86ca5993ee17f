//! Stream output (functional spec chapter 14): a declaration compiled into copy
//! operations per stream, and the writer that appends whole primitives to the target
//! buffers with the overflow rule of 14.5.

use super::gs::Emitted;
use super::output::VertexSource;
use super::{SoStatistics, SoTarget};
use crate::error::{ExecError, ExecErrorKind};
use crate::plan::SigElement;
use streamout::StreamOutputDesc;

/// Streams and buffer slots (`D3D11_SO_STREAM_COUNT`, `D3D11_SO_BUFFER_SLOT_COUNT`).
const STREAMS: usize = 4;
const SLOTS: usize = 4;

fn draw_error(message: String) -> ExecError {
    ExecError::new(ExecErrorKind::Draw(message))
}

/// One declaration entry, resolved: copy `count` components of register `register`
/// from component `start` to byte `offset` of the vertex in buffer `slot`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct CopyOp {
    pub slot: u8,
    pub offset: u32,
    pub register: u32,
    pub start: u8,
    pub count: u8,
}

/// What one stream writes.
#[derive(Debug, Clone, Default)]
pub(crate) struct StreamLayout {
    /// The copies, grouped by slot (declaration order within a slot).
    pub ops: Vec<CopyOp>,
    /// Buffer slots the stream's entries (gaps included) go to, as a bit set.
    pub slots: u8,
    /// Per slot the stream uses: the slot and its range of `ops`.
    groups: Vec<(usize, std::ops::Range<usize>)>,
}

/// A declaration resolved against the output signature of the shader that feeds
/// stream output.
#[derive(Debug, Clone, Default)]
pub(crate) struct SoLayout {
    pub streams: [StreamLayout; STREAMS],
    /// Each slot's vertex stride in bytes: `pBufferStrides[slot]`, or, when the
    /// declaration gives none (or 0) for the slot, the size of the slot's entries
    /// (gaps included).
    pub strides: [u32; SLOTS],
}

impl SoLayout {
    /// Resolves `desc`: each entry's element is found by semantic name
    /// (case-insensitively) and index among `signature`'s elements of the entry's
    /// stream; its `StartComponent` counts from the element's first component (the
    /// register component written first is the element's first plus `StartComponent`);
    /// an entry without a component count takes the element's components from its
    /// start component on.
    pub fn new(desc: &StreamOutputDesc, signature: &[SigElement]) -> Result<SoLayout, ExecError> {
        let mut layout = SoLayout::default();
        let mut size = [0u32; SLOTS];
        for (i, e) in desc.entries.iter().enumerate() {
            let stream = e.stream as usize;
            let slot = e.output_slot as usize;
            if stream >= STREAMS {
                return Err(draw_error(format!("stream-output entry {i}: stream {} (streams are 0..3)", e.stream)));
            }
            if slot >= SLOTS {
                return Err(draw_error(format!(
                    "stream-output entry {i}: output slot {} (slots are 0..3)",
                    e.output_slot
                )));
            }
            let s = &mut layout.streams[stream];
            s.slots |= 1 << slot;
            match &e.semantic_name {
                None => {
                    // A gap: the position advances, nothing is written.
                    size[slot] = size[slot].saturating_add(4 * e.component_count as u32);
                }
                Some(name) => {
                    let element = signature
                        .iter()
                        .find(|s| {
                            s.stream == e.stream
                                && s.semantic_index == e.semantic_index
                                && s.semantic_name.eq_ignore_ascii_case(name)
                        })
                        .ok_or_else(|| {
                            draw_error(format!(
                                "stream-output entry {i}: no output element {} on stream {}",
                                super::ia::semantic_text(name, e.semantic_index),
                                e.stream
                            ))
                        })?;
                    // StartComponent counts from the element's first component: an
                    // element packed in `.z` is StartComponent 0, ComponentCount 1.
                    let (first, _) = streamout::element_span(element.mask);
                    let start = (first as u8).saturating_add(e.start_component).min(3);
                    let count = if e.component_count == 0 {
                        // Unresolved mask: the element's contiguous components from `start`.
                        let m = (element.mask & 0xf) >> start;
                        (m.trailing_ones() as u8).max(1)
                    } else {
                        e.component_count
                    };
                    let count = count.min(4 - start);
                    s.ops.push(CopyOp {
                        slot: slot as u8,
                        offset: size[slot],
                        register: element.register,
                        start,
                        count,
                    });
                    size[slot] = size[slot].saturating_add(4 * count as u32);
                }
            }
        }
        for s in &mut layout.streams {
            s.ops.sort_by_key(|op| op.slot);
            for slot in 0..SLOTS {
                if s.slots & (1 << slot) != 0 {
                    let first = s.ops.iter().position(|op| op.slot as usize == slot).unwrap_or(s.ops.len());
                    let count = s.ops[first..].iter().take_while(|op| op.slot as usize == slot).count();
                    s.groups.push((slot, first..first + count));
                }
            }
        }
        for (slot, (stride, size)) in layout.strides.iter_mut().zip(size).enumerate() {
            *stride = match desc.strides.get(slot) {
                Some(&s) if s != 0 => s,
                _ => size,
            };
        }
        Ok(layout)
    }
}

/// Writes components `start..` of `reg` to `dst` (4 bytes each, little-endian); the
/// whole-register case as one 16-byte write.
#[inline(always)]
fn write_components(dst: &mut [u8], reg: &[u32; 4], start: usize) {
    if let Ok(d) = <&mut [u8; 16]>::try_from(&mut *dst) {
        let mut b = [0u8; 16];
        for (c, w) in reg.iter().enumerate() {
            b[4 * c..4 * c + 4].copy_from_slice(&w.to_le_bytes());
        }
        *d = b;
        return;
    }
    for (c, out) in dst.chunks_exact_mut(4).enumerate() {
        out.copy_from_slice(&reg[(start + c) & 3].to_le_bytes());
    }
}

/// Writes a primitive of `n` vertices to `window` (its `n` strides).
#[inline(always)]
fn write_primitive<'v>(
    window: &mut [u8],
    stride: usize,
    ops: &[CopyOp],
    n: usize,
    vertex: impl Fn(usize) -> &'v [[u32; 4]],
) {
    for k in 0..n {
        let vertex = vertex(k);
        let base = k * stride;
        for op in ops {
            let at = base + op.offset as usize;
            // An entry beyond the stride (a declaration the validator refuses) is
            // written only where it fits.
            let Some(dst) = window.get_mut(at..at + 4 * op.count as usize) else { continue };
            let reg = match vertex.get(op.register as usize) {
                Some(r) => *r,
                None => [0; 4],
            };
            write_components(dst, &reg, op.start as usize);
        }
    }
}

/// Appends primitives to the bound buffers.
///
/// A primitive of `n` vertices goes to a stream's buffers only if each of them is bound
/// and has room for `n` strides from its current offset; otherwise none of it is written
/// (14.5: whole primitives only, all the stream's buffers or none; 14.6: a slot the
/// declaration uses with no buffer bound acts as a full buffer). Since every primitive
/// of a stream has the same vertex count within a draw, once one does not fit no later
/// one does either — writes to the stream stop, as 14.5 says, while
/// `PrimitivesStorageNeeded` keeps counting.
pub(crate) struct SoWriter<'t, 'a> {
    pub layout: SoLayout,
    targets: &'t mut [Option<SoTarget<'a>>; SLOTS],
    pub statistics: [SoStatistics; STREAMS],
    /// The writes of one invocation ([`invocations`](Self::invocations)).
    plan: Vec<Write>,
}

/// One write of an invocation's vertices: register `register` of its vertex `k`,
/// `count` components from `start`, at byte `at` of the invocation's part of the
/// buffer; `prim` is the primitive (of the stream, in the invocation) it belongs to.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Write {
    prim: u32,
    k: u32,
    register: usize,
    start: u8,
    count: u8,
    at: u32,
}

impl<'t, 'a> SoWriter<'t, 'a> {
    pub fn new(layout: SoLayout, targets: &'t mut [Option<SoTarget<'a>>; SLOTS]) -> SoWriter<'t, 'a> {
        SoWriter { layout, targets, statistics: [SoStatistics::default(); STREAMS], plan: Vec::new() }
    }

    /// Streams out one primitive of `stream` (each vertex: the output registers).
    /// Returns whether it was written.
    #[inline]
    pub fn primitive(&mut self, stream: u32, vertices: &[&[[u32; 4]]]) -> bool {
        let Some(s) = self.layout.streams.get(stream as usize) else { return false };
        if s.groups.is_empty() {
            return false;
        }
        let stats = &mut self.statistics[stream as usize];
        stats.primitives_storage_needed += 1;
        let n = vertices.len();
        // Room in every buffer of the stream?
        for (slot, _) in &s.groups {
            let Some(t) = &self.targets[*slot] else { return false };
            if t.offset as u64 + n as u64 * self.layout.strides[*slot] as u64 > t.data.len() as u64 {
                return false;
            }
        }
        for (slot, ops) in &s.groups {
            let stride = self.layout.strides[*slot] as usize;
            let Some(t) = &mut self.targets[*slot] else { continue };
            let start = t.offset as usize;
            // In range: checked above.
            let window = &mut t.data[start..start + n * stride];
            write_primitive(window, stride, &s.ops[ops.clone()], n, |k| vertices[k]);
            t.offset = (start + n * stride).min(u32::MAX as usize) as u32;
        }
        stats.num_primitives_written += 1;
        true
    }

    /// Whether [`invocations`](Self::invocations) may write streams one after the
    /// other: no buffer slot is written by two streams, and every bound buffer's
    /// offsets fit in 32 bits.
    pub fn bulk(&self) -> bool {
        let mut used = 0u8;
        for s in &self.layout.streams {
            if s.slots & used != 0 {
                return false;
            }
            used |= s.slots;
        }
        self.targets.iter().flatten().all(|t| t.data.len() <= u32::MAX as usize)
    }

    /// `count` invocations that output the same primitives, `template` (the emit
    /// indices of their vertices), in order, their vertices read from `source`. The
    /// same writes and statistics as [`primitive`](Self::primitive) for each, when
    /// [`bulk`](Self::bulk) holds: the writes of one invocation are planned once.
    pub fn invocations(&mut self, template: &[Emitted], count: usize, source: &impl VertexSource) {
        let SoWriter { layout, targets, statistics, plan } = self;
        for (stream, s) in layout.streams.iter().enumerate() {
            let Some((n, per)) = stream_shape(s, template, stream) else { continue };
            let total = (per * count) as u64;
            statistics[stream].primitives_storage_needed += total;
            let fit = fitting(s, &layout.strides, &rooms(targets), n, total);
            if fit == 0 {
                continue;
            }
            for (slot, ops) in &s.groups {
                let stride = layout.strides[*slot] as usize;
                let Some(t) = &mut targets[*slot] else { continue };
                if stride == 0 {
                    continue;
                }
                let start = t.offset as usize;
                let bytes = fit as usize * n * stride;
                // In range: checked by `fitting`.
                let data = &mut t.data[start..start + bytes];
                let mine = template.iter().filter(|p| p.stream == stream as u32);
                write_slot(plan, &s.ops[ops.clone()], stride, n, mine, per, fit as usize, data, source);
                t.offset = (start + bytes) as u32;
            }
            statistics[stream].num_primitives_written += fit;
        }
    }

    /// [`invocations`](Self::invocations) for each batch of `batches` in order (its
    /// template, its invocation count, its vertices), with the batches' writes made
    /// on the current rayon pool: each batch's primitives of a stream start where the
    /// previous batches' end (prefix sums of the counts), and the stream's first
    /// primitive that does not fit stops the writes of that batch and of every later
    /// one (14.5), as one batch after the other would. Needs [`bulk`](Self::bulk).
    pub fn batches_parallel<S: VertexSource + Sync>(&mut self, batches: &mut [SoBatch<'_, S>]) {
        use rayon::prelude::*;
        let SoWriter { layout, targets, statistics, .. } = self;
        let mut windows: Vec<[&mut [u8]; SLOTS]> = Vec::with_capacity(batches.len());
        let mut room = rooms(targets);
        let mut tails: [Option<&mut [u8]>; SLOTS] = {
            let [a, b, c, d] = &mut **targets;
            [a, b, c, d].map(|t| t.as_mut().map(|t| t.data.get_mut(t.offset as usize..).unwrap_or_default()))
        };
        let claimed = split_windows(layout, &mut room, &mut tails, statistics, batches, &mut windows);
        let layout = &*layout;
        batches.par_iter_mut().zip(windows.par_iter_mut()).for_each(|(b, w)| write_batch(layout, b, w));
        drop((windows, tails));
        for (t, bytes) in targets.iter_mut().zip(claimed) {
            if let Some(t) = t {
                t.offset = (t.offset as usize + bytes) as u32;
            }
        }
    }

    /// Stream output for a draw spread over threads in segments ([`SoChain`]): `f`
    /// runs with the chain over this writer's buffers (from their offsets on); the
    /// segments' claims then advance the offsets and statistics as writing the
    /// claimed segments one after the other would. Returns `f`'s result and the
    /// chain's totals. Needs [`bulk`](Self::bulk).
    pub fn chain<R>(&mut self, rasterized: Option<u32>, f: impl FnOnce(&SoChain<'_>) -> R) -> (R, ChainTotals) {
        let SoWriter { layout, targets, statistics, .. } = self;
        let room = rooms(targets);
        let (r, totals, claimed, stats) = {
            let tails: [Option<&mut [u8]>; SLOTS] = {
                let [a, b, c, d] = &mut **targets;
                [a, b, c, d].map(|t| t.as_mut().map(|t| t.data.get_mut(t.offset as usize..).unwrap_or_default()))
            };
            let chain = SoChain::new(Some(&*layout), rasterized, room, tails);
            let r = f(&chain);
            let state = chain.state.into_inner().unwrap_or_else(|e| e.into_inner());
            (r, state.totals, state.claimed, state.statistics)
        };
        for (t, bytes) in targets.iter_mut().zip(claimed) {
            if let Some(t) = t {
                t.offset = (t.offset as usize + bytes) as u32;
            }
        }
        for (s, add) in statistics.iter_mut().zip(stats) {
            s.num_primitives_written += add.num_primitives_written;
            s.primitives_storage_needed += add.primitives_storage_needed;
        }
        (r, totals)
    }
}

/// Each batch's windows of the buffers (for each stream, the slots' next bytes, from
/// `tails`, as far as `room` lets the stream's primitives fit: prefix sums of the
/// batches' counts, the first primitive that does not fit stopping the writes of
/// that batch and of every later one, 14.5), into `windows`; the statistics counted.
/// Returns the bytes taken from each slot (`room`'s offsets advance by as much).
fn split_windows<'x, S>(
    layout: &SoLayout,
    room: &mut [Option<(u64, u64)>; SLOTS],
    tails: &mut [Option<&'x mut [u8]>; SLOTS],
    statistics: &mut [SoStatistics; STREAMS],
    batches: &mut [SoBatch<'_, S>],
    windows: &mut Vec<[&'x mut [u8]; SLOTS]>,
) -> [usize; SLOTS] {
    // Per batch and stream: the primitives it writes.
    for b in batches.iter_mut() {
        b.write = [0; STREAMS];
    }
    windows.clear();
    windows.resize_with(batches.len(), || [&mut [], &mut [], &mut [], &mut []]);
    let mut claimed = [0usize; SLOTS];
    let start = *room;
    for (stream, s) in layout.streams.iter().enumerate() {
        let Some(n) = batches.iter().find_map(|b| stream_shape(s, b.template, stream)).map(|(n, _)| n) else {
            continue;
        };
        let mut total = 0u64;
        for b in batches.iter_mut() {
            let per = b.template.iter().filter(|p| p.stream == stream as u32).count();
            b.write[stream] = (per * b.count) as u64;
            total += b.write[stream];
        }
        statistics[stream].primitives_storage_needed += total;
        let fit = fitting(s, &layout.strides, &start, n, total);
        // Each batch's share of the first `fit`.
        let mut left = fit;
        for b in batches.iter_mut() {
            let w = b.write[stream].min(left);
            b.write[stream] = w;
            left -= w;
        }
        statistics[stream].num_primitives_written += fit;
        if fit == 0 {
            continue;
        }
        for (slot, _) in &s.groups {
            let stride = layout.strides[*slot] as usize;
            if stride == 0 {
                continue;
            }
            let Some(tail) = tails[*slot].take() else { continue };
            let size = n * stride;
            let bytes = fit as usize * size;
            // In range: checked by `fitting` (a slot is used by one stream only).
            let (mut rest, after) = tail.split_at_mut(bytes.min(tail.len()));
            tails[*slot] = Some(after);
            claimed[*slot] += bytes;
            if let Some((_, offset)) = &mut room[*slot] {
                *offset += bytes as u64;
            }
            for (b, w) in batches.iter().zip(windows.iter_mut()) {
                let take = (b.write[stream] as usize * size).min(rest.len());
                let (mine, after) = std::mem::take(&mut rest).split_at_mut(take);
                w[*slot] = mine;
                rest = after;
            }
        }
    }
    claimed
}

/// The writes of one batch into its windows (from [`split_windows`]).
fn write_batch<S: VertexSource>(layout: &SoLayout, b: &mut SoBatch<'_, S>, w: &mut [&mut [u8]; SLOTS]) {
    for (stream, s) in layout.streams.iter().enumerate() {
        let Some((n, per)) = stream_shape(s, b.template, stream) else { continue };
        let fit = b.write[stream] as usize;
        if fit == 0 {
            continue;
        }
        for (slot, ops) in &s.groups {
            let stride = layout.strides[*slot] as usize;
            let data = std::mem::take(&mut w[*slot]);
            if stride == 0 || data.is_empty() {
                continue;
            }
            let mine = b.template.iter().filter(|p| p.stream == stream as u32);
            write_slot(b.plan, &s.ops[ops.clone()], stride, n, mine, per, fit, data, b.source);
        }
    }
}

/// What the claimed segments of a [`SoChain`] produced, beyond stream output.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct ChainTotals {
    /// Segments claimed (written), from the first: those before the segment that
    /// stopped the chain, if one did.
    pub segments: usize,
    /// Primitives on all streams, and on the rasterized one.
    pub primitives: u64,
    pub rasterized_primitives: u64,
}

struct ChainState<'x> {
    /// The segment whose turn it is.
    next: usize,
    /// A segment stopped the chain: it and the later ones write nothing.
    stopped: bool,
    room: [Option<(u64, u64)>; SLOTS],
    tails: [Option<&'x mut [u8]>; SLOTS],
    claimed: [usize; SLOTS],
    statistics: [SoStatistics; STREAMS],
    totals: ChainTotals,
}

/// The output of a draw spread over threads in segments, in segment order: each
/// segment, once its invocations ran, [claims](Self::claim) its turn (waiting for the
/// segments before it to have claimed theirs), takes the next bytes of the buffers
/// and the statistics as the whole output of the segments before it would have left
/// them, and writes its windows while later segments run. A segment that cannot go
/// this way [stops](Self::stop) the chain: nothing of it or of a later segment is
/// written or counted (the draw goes on from there one chunk at a time).
pub(crate) struct SoChain<'x> {
    layout: Option<&'x SoLayout>,
    rasterized: Option<u32>,
    state: std::sync::Mutex<ChainState<'x>>,
    turn: std::sync::Condvar,
}

impl<'x> SoChain<'x> {
    /// A chain over `tails` (each slot's bytes from its offset; `None`: unbound) whose
    /// room is `room`; without `layout`, a chain that only counts (no stream output).
    pub fn new(
        layout: Option<&'x SoLayout>,
        rasterized: Option<u32>,
        room: [Option<(u64, u64)>; SLOTS],
        tails: [Option<&'x mut [u8]>; SLOTS],
    ) -> SoChain<'x> {
        SoChain {
            layout,
            rasterized,
            state: std::sync::Mutex::new(ChainState {
                next: 0,
                stopped: false,
                room,
                tails,
                claimed: [0; SLOTS],
                statistics: Default::default(),
                totals: ChainTotals::default(),
            }),
            turn: std::sync::Condvar::new(),
        }
    }

    /// The totals so far (after the draw: those of the claimed segments).
    pub fn into_totals(self) -> ChainTotals {
        self.state.into_inner().unwrap_or_else(|e| e.into_inner()).totals
    }

    /// Waits for segment `k`'s turn.
    fn wait(&self, k: usize) -> std::sync::MutexGuard<'_, ChainState<'x>> {
        let mut state = self.state.lock().unwrap_or_else(|e| e.into_inner());
        while state.next < k && !state.stopped {
            state = self.turn.wait(state).unwrap_or_else(|e| e.into_inner());
        }
        state
    }

    /// Segment `k` (after the segments before it) with its batches of invocations in
    /// order: their windows of the buffers into `windows`, the statistics and totals
    /// counted. Returns false (and nothing is taken) when the chain is stopped.
    pub fn claim<S>(&self, k: usize, batches: &mut [SoBatch<'_, S>], windows: &mut Vec<[&'x mut [u8]; SLOTS]>) -> bool {
        let mut guard = self.wait(k);
        let state = &mut *guard;
        let ok = !state.stopped;
        if ok {
            state.next = k + 1;
            for b in batches.iter() {
                let rasterized = b.template.iter().filter(|p| Some(p.stream) == self.rasterized).count();
                state.totals.primitives += (b.template.len() * b.count) as u64;
                state.totals.rasterized_primitives += (rasterized * b.count) as u64;
            }
            state.totals.segments += 1;
            windows.clear();
            if let Some(layout) = self.layout {
                let claimed =
                    split_windows(layout, &mut state.room, &mut state.tails, &mut state.statistics, batches, windows);
                for (c, add) in state.claimed.iter_mut().zip(claimed) {
                    *c += add;
                }
            }
        }
        drop(guard);
        self.turn.notify_all();
        ok
    }

    /// Segment `k` cannot be claimed: it stops the chain (once the segments before it
    /// have claimed their turns, or one of them stopped it).
    pub fn stop(&self, k: usize) {
        let mut state = self.wait(k);
        state.stopped = true;
        drop(state);
        self.turn.notify_all();
    }

    /// The writes of a claimed segment's batch into its windows.
    pub fn write<S: VertexSource>(&self, b: &mut SoBatch<'_, S>, w: &mut [&mut [u8]; SLOTS]) {
        if let Some(layout) = self.layout {
            write_batch(layout, b, w);
        }
    }
}

/// One batch of [`SoWriter::batches_parallel`]: `count` invocations that output
/// `template`, their vertices in `source`; `plan` is its scratch.
pub(crate) struct SoBatch<'b, S> {
    pub template: &'b [Emitted],
    pub count: usize,
    pub source: &'b S,
    pub plan: &'b mut Vec<Write>,
    /// Per stream, the primitives written (set by `batches_parallel`).
    write: [u64; STREAMS],
}

impl<'b, S> SoBatch<'b, S> {
    pub fn new(template: &'b [Emitted], count: usize, source: &'b S, plan: &'b mut Vec<Write>) -> Self {
        SoBatch { template, count, source, plan, write: [0; STREAMS] }
    }
}

/// A stream's vertices per primitive and primitives per invocation in `template`,
/// when the stream has declaration entries and primitives there.
fn stream_shape(s: &StreamLayout, template: &[Emitted], stream: usize) -> Option<(usize, usize)> {
    if s.groups.is_empty() {
        return None;
    }
    let mut mine = template.iter().filter(|p| p.stream == stream as u32);
    let first = mine.next()?;
    Some((first.len as usize, 1 + mine.count()))
}

/// Each slot's buffer length and offset (`None`: unbound).
fn rooms(targets: &[Option<SoTarget<'_>>; SLOTS]) -> [Option<(u64, u64)>; SLOTS] {
    let room = |t: &Option<SoTarget<'_>>| t.as_ref().map(|t| (t.data.len() as u64, t.offset as u64));
    [room(&targets[0]), room(&targets[1]), room(&targets[2]), room(&targets[3])]
}

/// How many of `total` primitives of `n` vertices of stream `s` fit in buffers of
/// `rooms`: every primitive of a stream has `n` vertices, so they are written up to
/// the first that does not fit (an unbound slot is a full buffer).
fn fitting(s: &StreamLayout, strides: &[u32; SLOTS], rooms: &[Option<(u64, u64)>; SLOTS], n: usize, total: u64) -> u64 {
    let mut fit = total;
    for (slot, _) in &s.groups {
        let Some((len, offset)) = rooms[*slot] else { return 0 };
        let size = n as u64 * strides[*slot] as u64;
        if offset > len {
            return 0;
        } else if let Some(room) = (len - offset).checked_div(size) {
            fit = fit.min(room);
        }
    }
    fit
}

/// Writes one stream's primitives to one slot's `data` (from where they start in the
/// buffer): every invocation outputs `mine` (`per` primitives of `n` vertices), and
/// the first `fit` primitives of the invocations in turn are written. The writes of
/// one invocation are planned once (in `plan`), each within its primitive's strides
/// (an entry beyond the stride is written only where it fits), then made for every
/// invocation, register by register.
#[allow(clippy::too_many_arguments)]
#[inline]
fn write_slot<'e>(
    plan: &mut Vec<Write>,
    ops: &[CopyOp],
    stride: usize,
    n: usize,
    mine: impl Iterator<Item = &'e Emitted>,
    per: usize,
    fit: usize,
    data: &mut [u8],
    source: &impl VertexSource,
) {
    plan.clear();
    let size = n * stride;
    for (j, p) in mine.enumerate() {
        for (v, &k) in p.vertices[..n].iter().enumerate() {
            for op in ops {
                let at = v * stride + op.offset as usize;
                if at + 4 * op.count as usize <= size {
                    plan.push(Write {
                        prim: j as u32,
                        k,
                        register: op.register as usize,
                        start: op.start,
                        count: op.count,
                        at: (j * size + at) as u32,
                    });
                }
            }
        }
    }
    let (whole, rest) = (fit / per, fit % per);
    let each = per * size;
    for w in plan.iter() {
        // Invocation `i`'s part starts at `i * each`; the last one, when not all of
        // its primitives fit, gets those that do.
        let n = if (w.prim as usize) < rest { whole + 1 } else { whole };
        let at = w.at as usize;
        match (w.count, w.start) {
            (4, _) => source.write16(w.k, w.register, n, data, each, at),
            (1, c) => source.write4(w.k, w.register, c as usize, n, data, each, at),
            _ => {
                let len = 4 * w.count as usize;
                source.each(w.k, w.register, n, |i, v| {
                    if let Some(dst) = data.get_mut(i * each + at..i * each + at + len) {
                        write_components(dst, &v, w.start as usize);
                    }
                })
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use streamout::SoEntry;

    fn sig(stream: u32, name: &str, index: u32, register: u32, mask: u8) -> SigElement {
        SigElement {
            stream,
            semantic_name: name.into(),
            semantic_index: index,
            register,
            mask,
            system_value: 0,
            component_type: 3,
        }
    }

    fn entry(stream: u32, name: Option<&str>, index: u32, start: u8, count: u8, slot: u8) -> SoEntry {
        SoEntry {
            stream,
            semantic_name: name.map(str::to_string),
            semantic_index: index,
            start_component: start,
            component_count: count,
            output_slot: slot,
        }
    }

    fn words(bytes: &[u8]) -> Vec<u32> {
        bytes.chunks_exact(4).map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]])).collect()
    }

    #[test]
    fn gaps_several_buffers_and_strides() {
        let signature = [sig(0, "SV_Position", 0, 0, 0xf), sig(0, "TEXCOORD", 1, 2, 0x3)];
        let desc = StreamOutputDesc {
            entries: vec![
                entry(0, Some("SV_POSITION"), 0, 1, 2, 0), // .yz
                entry(0, None, 0, 0, 1, 0),                // gap .x
                entry(0, Some("TEXCOORD"), 1, 0, 0, 0),    // unresolved: .xy
                entry(0, Some("texcoord"), 1, 1, 1, 1),    // .y to slot 1
            ],
            strides: vec![24, 0],
            rasterized_stream: 0,
        };
        let layout = SoLayout::new(&desc, &signature).unwrap();
        assert_eq!(layout.strides, [24, 4, 0, 0]);
        assert_eq!(layout.streams[0].slots, 0b11);
        let mut b0 = vec![0xeeu8; 60];
        let mut b1 = vec![0xeeu8; 8];
        let mut targets =
            [Some(SoTarget { data: &mut b0, offset: 4 }), Some(SoTarget { data: &mut b1, offset: 0 }), None, None];
        let mut w = SoWriter::new(layout, &mut targets);
        let v0 = [[1, 2, 3, 4], [0; 4], [5, 6, 0, 0]];
        let v1 = [[11, 12, 13, 14], [0; 4], [15, 16, 0, 0]];
        assert!(w.primitive(0, &[&v0, &v1]));
        // Buffer 0 has 8 bytes left: a third vertex would not fit; buffer 1 is full.
        assert!(!w.primitive(0, &[&v0]));
        assert_eq!(w.statistics[0], SoStatistics { num_primitives_written: 1, primitives_storage_needed: 2 });
        assert_eq!(targets[0].as_ref().unwrap().offset, 52);
        assert_eq!(targets[1].as_ref().unwrap().offset, 8);
        let e = 0xeeee_eeee;
        assert_eq!(words(&b0), vec![e, 2, 3, e, 5, 6, e, 12, 13, e, 15, 16, e, e, e]);
        assert_eq!(words(&b1), vec![6, 16]);
    }

    #[test]
    fn unbound_slot_is_a_full_buffer_and_streams_are_independent() {
        let signature = [sig(0, "A", 0, 0, 0xf), sig(1, "B", 0, 0, 0x1)];
        let desc = StreamOutputDesc {
            entries: vec![entry(0, Some("A"), 0, 0, 1, 0), entry(1, Some("B"), 0, 0, 1, 1)],
            strides: vec![],
            rasterized_stream: 0,
        };
        let layout = SoLayout::new(&desc, &signature).unwrap();
        let mut b1 = vec![0u8; 8];
        let mut targets = [None, Some(SoTarget { data: &mut b1, offset: 0 }), None, None];
        let mut w = SoWriter::new(layout, &mut targets);
        let v = [[7, 0, 0, 0]];
        assert!(!w.primitive(0, &[&v]));
        assert!(w.primitive(1, &[&v]));
        assert!(!w.primitive(2, &[&v]));
        assert_eq!(w.statistics[0], SoStatistics { num_primitives_written: 0, primitives_storage_needed: 1 });
        assert_eq!(w.statistics[1], SoStatistics { num_primitives_written: 1, primitives_storage_needed: 1 });
        assert_eq!(w.statistics[2], SoStatistics::default());
        assert_eq!(words(&b1), vec![7, 0]);
    }

    /// StartComponent counts from the element's first component (functional spec 14.3:
    /// the API identifies data by "component counts / offsets ... within elements"):
    /// `A` packed in `o1.z` is StartComponent 0, `B` in `o1.w` too, and the second
    /// component of `C` in `o2.yz` is StartComponent 1.
    #[test]
    fn start_component_is_relative_to_the_element() {
        let signature = [sig(0, "A", 0, 1, 0b0100), sig(0, "B", 0, 1, 0b1000), sig(0, "C", 0, 2, 0b0110)];
        let desc = StreamOutputDesc {
            entries: vec![
                entry(0, Some("A"), 0, 0, 1, 0),
                entry(0, Some("B"), 0, 0, 1, 0),
                entry(0, Some("C"), 0, 1, 1, 0),
                entry(0, Some("C"), 0, 0, 0, 0), // unresolved: all of C
            ],
            strides: vec![],
            rasterized_stream: 0,
        };
        let layout = SoLayout::new(&desc, &signature).unwrap();
        assert_eq!(layout.strides[0], 20);
        let mut b0 = vec![0u8; 20];
        let mut targets = [Some(SoTarget { data: &mut b0, offset: 0 }), None, None, None];
        let mut w = SoWriter::new(layout, &mut targets);
        let v = [[0; 4], [10, 11, 12, 13], [20, 21, 22, 23]];
        assert!(w.primitive(0, &[&v]));
        assert_eq!(words(&b0), vec![12, 13, 22, 21, 22]);
    }

    #[test]
    fn unknown_element_is_a_draw_error() {
        let desc = StreamOutputDesc {
            entries: vec![entry(0, Some("NOPE"), 0, 0, 1, 0)],
            strides: vec![],
            rasterized_stream: 0,
        };
        let e = SoLayout::new(&desc, &[sig(1, "NOPE", 0, 0, 1)]).unwrap_err();
        assert!(e.to_string().contains("no output element NOPE on stream 0"), "{e}");
    }
}
