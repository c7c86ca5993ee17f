//! The scheduler of the multi-stream kernels: which blocks each lane runs, and what a
//! lane does when its stream ends.

use super::block::INIT;
use super::{compress, tail_blocks};

/// A kernel that runs the compression function on `L` streams at once.
pub(crate) trait Lanes<const L: usize> {
    /// Compresses `blocks` blocks of every lane: lane `l` reads the first `blocks`
    /// blocks of `segments[l]` into state words `state[0..4][l]`. Every segment holds at
    /// least `blocks` blocks.
    fn compress(&self, state: &mut [[u32; L]; 4], segments: &[Segment; L], blocks: usize);
}

/// Stands in for a block past the end of a segment; never read in practice (the
/// scheduler checks the lengths), and it keeps the kernels free of panics.
static ZERO_BLOCK: [u8; 64] = [0; 64];

/// The blocks a lane has still to run: the whole blocks of its input, read in place,
/// then the one or two padding blocks.
#[derive(Clone, Copy, Default)]
pub(crate) struct Segment<'a> {
    whole: &'a [[u8; 64]],
    pad: &'a [[u8; 64]],
}

impl<'a> Segment<'a> {
    /// Block `i` of the segment (a block of zeros past its end).
    #[inline]
    pub(crate) fn block(&self, i: usize) -> &'a [u8; 64] {
        match self.whole.get(i) {
            Some(b) => b,
            None => self.pad.get(i.wrapping_sub(self.whole.len())).unwrap_or(&ZERO_BLOCK),
        }
    }

    fn len(&self) -> usize {
        self.whole.len().saturating_add(self.pad.len())
    }

    /// The segment without its first `n` blocks.
    fn skip(self, n: usize) -> Segment<'a> {
        match self.whole.get(n..) {
            Some(whole) => Segment { whole, pad: self.pad },
            None => Segment { whole: &[], pad: self.pad.get(n.saturating_sub(self.whole.len())..).unwrap_or(&[]) },
        }
    }
}

/// A stream in a lane: where its result goes and the blocks it has still to run.
#[derive(Clone, Copy)]
struct Stream<'a> {
    index: usize,
    segment: Segment<'a>,
}

/// How many streams left at the end of a batch [`run`] finishes one at a time.
const ALONE: usize = 2;

/// Computes the checksums of `blobs` with the kernel `kernel`.
///
/// Each lane runs one stream at a time; a lane whose stream ends takes the next one, the
/// longest first, so that the lanes end close together. Each call of the kernel runs
/// as many blocks as the shortest stream in the lanes has left; lanes without a stream
/// repeat another lane's blocks and their results are dropped. The last [`ALONE`]
/// streams finish with the single-stream code.
pub(super) fn run<const L: usize, K: Lanes<L>>(kernel: &K, blobs: &[&[u8]]) -> Vec<[u32; 4]> {
    let pads: Vec<([[u8; 64]; 2], usize)> = blobs
        .iter()
        .map(|b| {
            let (_, tail) = b.as_chunks::<64>();
            tail_blocks(b.len(), tail)
        })
        .collect();
    let mut order: Vec<usize> = (0..blobs.len()).collect();
    order.sort_unstable_by_key(|&i| core::cmp::Reverse(blobs.get(i).map_or(0, |b| b.len())));
    let mut queue = order.into_iter().filter_map(|index| {
        let whole = blobs.get(index)?.as_chunks::<64>().0;
        let (pad, n) = pads.get(index)?;
        Some(Stream { index, segment: Segment { whole, pad: pad.get(..*n).unwrap_or(pad) } })
    });

    let mut out = vec![[0u32; 4]; blobs.len()];
    let mut lane: [Option<Stream>; L] = [None; L];
    let mut state = [[0u32; L]; 4];
    let mut segments = [Segment::default(); L];
    loop {
        for (l, slot) in lane.iter_mut().enumerate() {
            loop {
                match slot {
                    Some(s) if s.segment.len() > 0 => break,
                    Some(s) => {
                        if let Some(o) = out.get_mut(s.index) {
                            for (w, row) in o.iter_mut().zip(&state) {
                                *w = row.get(l).copied().unwrap_or_default();
                            }
                        }
                        *slot = None;
                    }
                    None => match queue.next() {
                        Some(s) => {
                            for (row, w) in state.iter_mut().zip(INIT) {
                                if let Some(v) = row.get_mut(l) {
                                    *v = w;
                                }
                            }
                            *slot = Some(s);
                        }
                        None => break,
                    },
                }
            }
        }
        // At the end of the batch, a stream or two left alone in their lanes run faster
        // one at a time: a kernel's step takes about as long as three blocks of one stream.
        if lane.iter().any(Option::is_none) && lane.iter().flatten().count() <= ALONE {
            for (l, s) in lane.iter().enumerate() {
                let Some(s) = s else { continue };
                let mut words = [0u32; 4];
                for (w, row) in words.iter_mut().zip(&state) {
                    *w = row.get(l).copied().unwrap_or_default();
                }
                compress(&mut words, s.segment.whole);
                compress(&mut words, s.segment.pad);
                if let Some(o) = out.get_mut(s.index) {
                    *o = words;
                }
            }
            break;
        }
        let Some(blocks) = lane.iter().flatten().map(|s| s.segment.len()).min() else { break };
        let filler = lane.iter().flatten().map(|s| s.segment).next().unwrap_or_default();
        for (seg, slot) in segments.iter_mut().zip(&lane) {
            *seg = slot.map_or(filler, |s| s.segment);
        }
        kernel.compress(&mut state, &segments, blocks);
        for s in lane.iter_mut().flatten() {
            s.segment = s.segment.skip(blocks);
        }
    }
    out
}
