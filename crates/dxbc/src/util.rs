//! Bounds-checked little-endian reading, byte coverage tracking and layout-preserving
//! writing shared by the chunk codecs.

#![deny(clippy::arithmetic_side_effects, clippy::indexing_slicing)]

use crate::error::{Error, Result};

/// A bounds-checked view of a chunk's bytes. Every read names its offset on failure.
#[derive(Clone, Copy)]
pub(crate) struct Bytes<'a> {
    pub data: &'a [u8],
}

impl<'a> Bytes<'a> {
    pub fn new(data: &'a [u8]) -> Self {
        Bytes { data }
    }

    pub fn slice(&self, offset: usize, len: usize, what: &'static str) -> Result<&'a [u8]> {
        let available = self.data.len().saturating_sub(offset);
        match offset.checked_add(len) {
            Some(end) => self.data.get(offset..end).ok_or(Error::Truncated { offset, what, needed: len, available }),
            None => Err(Error::Truncated { offset, what, needed: len, available }),
        }
    }

    /// `N` bytes at `offset` as an array.
    pub fn array_of<const N: usize>(&self, offset: usize, what: &'static str) -> Result<[u8; N]> {
        let b = self.slice(offset, N, what)?;
        let mut out = [0u8; N];
        out.copy_from_slice(b);
        Ok(out)
    }

    pub fn u32(&self, offset: usize, what: &'static str) -> Result<u32> {
        Ok(u32::from_le_bytes(self.array_of(offset, what)?))
    }

    pub fn u16(&self, offset: usize, what: &'static str) -> Result<u16> {
        Ok(u16::from_le_bytes(self.array_of(offset, what)?))
    }

    pub fn u8(&self, offset: usize, what: &'static str) -> Result<u8> {
        Ok(u8::from_le_bytes(self.array_of(offset, what)?))
    }

    /// The start of an array of `count` records of `size` bytes at `offset`, checked to
    /// lie inside the data. `field` is where the offset was read from.
    pub fn array(&self, field: usize, offset: u32, count: u32, size: usize, what: &'static str) -> Result<usize> {
        let start = offset as usize;
        let total = (count as usize).checked_mul(size);
        match total.and_then(|t| start.checked_add(t)) {
            Some(end) if end <= self.data.len() => Ok(start),
            _ => Err(Error::OffsetOutOfBounds { offset: field, what, target: offset as u64, len: self.data.len() }),
        }
    }

    /// The NUL-terminated string at `offset`; `field` is where the offset was read from.
    /// Returns the string and its length including the NUL. Strings longer than
    /// [`MAX_STRING`] bytes are refused: names in fxc's chunks are identifiers, and since
    /// many records may point at one string, a long one would let a small blob expand
    /// into an enormous listing.
    pub fn cstr(&self, field: usize, offset: u32) -> Result<(&'a str, usize)> {
        let start = offset as usize;
        let rest = match self.data.get(start..) {
            Some(rest) if !rest.is_empty() => rest,
            _ => {
                return Err(Error::OffsetOutOfBounds {
                    offset: field,
                    what: "string",
                    target: offset as u64,
                    len: self.data.len(),
                })
            }
        };
        let window = rest.get(..MAX_STRING.saturating_add(1)).unwrap_or(rest);
        let s = d3dcommon::text::until_nul(window)
            .ok_or(if rest.len() > MAX_STRING {
                Error::StringTooLong { offset: start, limit: MAX_STRING }
            } else {
                Error::UnterminatedString { offset: start }
            })?
            .map_err(|_| Error::BadString { offset: start })?;
        // The NUL after the text is inside `rest`.
        Ok((s, s.len().saturating_add(1)))
    }
}

/// The longest name a chunk may hold (see [`crate::limits`]).
pub use crate::limits::MAX_STRING;

/// Records which bytes of a chunk a decoder interpreted; the rest are kept verbatim.
///
/// The interpreted ranges are kept as a list (a decoder marks one per record, string
/// or array, so far fewer than bytes) and sorted once when the gaps are asked for: the
/// cost follows the number of records, not the size of the chunk or container.
pub(crate) struct Coverage {
    len: usize,
    runs: Vec<(usize, usize)>,
}

impl Coverage {
    pub fn new(len: usize) -> Self {
        Coverage { len, runs: Vec::new() }
    }

    /// [`Coverage::new`] with room for `runs` marks (a container's header and chunks:
    /// one allocation rather than one per doubling).
    pub fn with_capacity(len: usize, runs: usize) -> Self {
        Coverage { len, runs: Vec::with_capacity(runs) }
    }

    /// Marks `len` bytes at `offset` (clamped to the data) as interpreted.
    #[inline]
    pub fn mark(&mut self, offset: usize, len: usize) {
        let end = offset.saturating_add(len).min(self.len);
        if offset < end {
            self.runs.push((offset, end));
        }
    }

    /// The runs of bytes no decoder interpreted, borrowed from `data`.
    pub fn gaps<'a>(&mut self, data: &'a [u8]) -> Vec<Gap<'a>> {
        self.runs.sort_unstable();
        let mut out = Vec::new();
        let mut pos = 0;
        // A last empty run at the end closes a gap that reaches it.
        for &(start, end) in self.runs.iter().chain(std::iter::once(&(self.len, self.len))) {
            if start > pos {
                if let Some(bytes) = data.get(pos..start) {
                    out.push(Gap { offset: pos, bytes });
                }
            }
            pos = pos.max(end);
        }
        out
    }
}

/// What a chunk decoder records of the bytes' layout for [`RawLayout`]: the bytes it
/// interpreted and the offsets of the items in traversal order. A log that is off
/// records nothing (for readers that want the values only).
pub(crate) struct LayoutLog {
    on: bool,
    cover: Coverage,
    offsets: Vec<u32>,
}

impl LayoutLog {
    /// A log for a chunk of `len` bytes; `on` false records nothing.
    pub fn new(len: usize, on: bool) -> Self {
        LayoutLog { on, cover: Coverage::new(if on { len } else { 0 }), offsets: Vec::new() }
    }

    /// Marks `len` bytes at `offset` as interpreted.
    pub fn mark(&mut self, offset: usize, len: usize) {
        self.cover.mark(offset, len);
    }

    /// Records the next item offset in traversal order.
    pub fn offset(&mut self, offset: u32) {
        if self.on {
            self.offsets.push(offset);
        }
    }

    /// The recorded layout of `data`.
    pub fn into_layout(mut self, data: &[u8]) -> RawLayout<'_> {
        let gaps = self.cover.gaps(data);
        RawLayout { size: data.len(), offsets: self.offsets, gaps }
    }
}

/// A run of bytes inside a chunk that no field describes (alignment padding, reserved
/// or uninitialised bytes), kept so that re-encoding reproduces the chunk exactly.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Gap<'a> {
    /// Offset of the run inside the chunk data.
    pub offset: usize,
    /// The bytes.
    pub bytes: &'a [u8],
}

/// The original layout of a decoded chunk whose bytes differ from the layout the
/// encoder would choose itself: the chunk's size, the offset of every item in the
/// decoder's traversal order, and the bytes no field describes. With it `to_bytes`
/// puts every item back where it was; if the value was edited so that the recorded
/// layout no longer fits, `to_bytes` falls back to a fresh layout.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct RawLayout<'a> {
    /// The chunk's original size in bytes.
    pub size: usize,
    /// Offsets of the items (strings, arrays, records) in traversal order.
    pub offsets: Vec<u32>,
    /// Bytes not described by any decoded field.
    pub gaps: Vec<Gap<'a>>,
}

/// A fixed-size output buffer that places items at given offsets and notices any
/// inconsistency (overlapping different bytes, writing out of range, bytes left
/// unwritten), in which case the caller falls back to a fresh layout.
pub(crate) struct Canvas {
    buf: Vec<u8>,
    written: Vec<bool>,
    ok: bool,
}

impl Canvas {
    pub fn new(size: usize) -> Self {
        Canvas { buf: vec![0; size], written: vec![false; size], ok: true }
    }

    pub fn put(&mut self, offset: usize, bytes: &[u8]) {
        if !self.ok {
            return;
        }
        let Some(end) = offset.checked_add(bytes.len()).filter(|&e| e <= self.buf.len()) else {
            self.ok = false;
            return;
        };
        let (Some(buf), Some(written)) = (self.buf.get_mut(offset..end), self.written.get_mut(offset..end)) else {
            self.ok = false;
            return;
        };
        for ((slot, w), &b) in buf.iter_mut().zip(written.iter_mut()).zip(bytes) {
            if *w && *slot != b {
                self.ok = false;
                return;
            }
            *slot = b;
            *w = true;
        }
    }

    pub fn u32(&mut self, offset: usize, v: u32) {
        self.put(offset, &v.to_le_bytes());
    }

    pub fn u16(&mut self, offset: usize, v: u16) {
        self.put(offset, &v.to_le_bytes());
    }

    /// Writes a NUL-terminated string.
    pub fn cstr(&mut self, offset: usize, s: &str) {
        self.put(offset, s.as_bytes());
        self.put(offset.saturating_add(s.len()), &[0]);
    }

    /// Fills the gaps and returns the bytes if every byte was written exactly once
    /// consistently.
    pub fn finish(mut self, gaps: &[Gap<'_>]) -> Option<Vec<u8>> {
        for g in gaps {
            self.put(g.offset, g.bytes);
        }
        (self.ok && self.written.iter().all(|&w| w)).then_some(self.buf)
    }
}

/// Copies `bytes` into `out` at `at` if the range lies inside `out`. Encoders write
/// only into space they reserved, so a range outside it is a bug in the encoder: a
/// debug build (the tests) stops on it, a release build skips the write rather than
/// abort.
pub(crate) fn write_at(out: &mut [u8], at: usize, bytes: &[u8]) {
    match at.checked_add(bytes.len()).and_then(|end| out.get_mut(at..end)) {
        Some(slot) => slot.copy_from_slice(bytes),
        None => debug_assert!(false, "write of {} bytes at {at} outside {} reserved bytes", bytes.len(), out.len()),
    }
}

/// Appending little-endian writer used for fresh (fxc-like) layouts.
#[derive(Default)]
pub(crate) struct Writer {
    pub buf: Vec<u8>,
}

impl Writer {
    pub fn pos(&self) -> u32 {
        self.buf.len() as u32
    }
    pub fn u32(&mut self, v: u32) {
        self.buf.extend_from_slice(&v.to_le_bytes());
    }
    pub fn u16(&mut self, v: u16) {
        self.buf.extend_from_slice(&v.to_le_bytes());
    }
    pub fn bytes(&mut self, b: &[u8]) {
        self.buf.extend_from_slice(b);
    }
    pub fn cstr(&mut self, s: &str) {
        self.buf.extend_from_slice(s.as_bytes());
        self.buf.push(0);
    }
    /// Pads with fxc's filler byte 0xAB to a multiple of four.
    pub fn align4(&mut self) {
        while self.buf.len() & 3 != 0 {
            self.buf.push(0xab);
        }
    }
    pub fn reserve(&mut self, n: usize) -> usize {
        let at = self.buf.len();
        self.buf.resize(at.saturating_add(n), 0);
        at
    }
    pub fn set_u32(&mut self, at: usize, v: u32) {
        write_at(&mut self.buf, at, &v.to_le_bytes());
    }
}

/// Declares a `#[non_exhaustive]`-free enum over a `u32` (or narrower) field with an
/// `Unknown` variant, plus lossless conversions.
macro_rules! code_enum {
    (
        $(#[$meta:meta])*
        $vis:vis enum $name:ident : $repr:ty {
            $( $(#[$vmeta:meta])* $variant:ident = $value:expr, )*
        }
    ) => {
        $(#[$meta])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        $vis enum $name {
            $( $(#[$vmeta])* $variant, )*
            /// A value this crate has no name for, kept as is.
            Unknown($repr),
        }

        impl From<$repr> for $name {
            fn from(v: $repr) -> Self {
                match v {
                    $( $value => $name::$variant, )*
                    other => $name::Unknown(other),
                }
            }
        }

        impl From<$name> for $repr {
            fn from(v: $name) -> $repr {
                match v {
                    $( $name::$variant => $value, )*
                    $name::Unknown(other) => other,
                }
            }
        }
    };
}
pub(crate) use code_enum;

/// Hands out recorded offsets in traversal order while re-encoding a raw layout.
pub(crate) struct Offsets<'l> {
    list: &'l [u32],
    next: usize,
    pub ok: bool,
}

impl<'l> Offsets<'l> {
    pub fn new(list: &'l [u32]) -> Self {
        Offsets { list, next: 0, ok: true }
    }
    pub fn next(&mut self) -> u32 {
        match self.list.get(self.next) {
            Some(&v) => {
                self.next = self.next.saturating_add(1);
                v
            }
            None => {
                self.ok = false;
                0
            }
        }
    }
    /// True if every offset was used exactly.
    pub fn done(&self) -> bool {
        self.ok && self.next == self.list.len()
    }
}

#[cfg(test)]
// Test code: the sums and indexes here are on the test's own small data.
#[allow(clippy::arithmetic_side_effects, clippy::indexing_slicing)]
mod tests {
    use super::*;

    /// The gaps of a byte map, one byte at a time: what the run list must agree with.
    fn gaps_by_bytes(len: usize, marks: &[(usize, usize)]) -> Vec<(usize, usize)> {
        let mut covered = vec![false; len];
        for &(at, n) in marks {
            for c in covered.iter_mut().skip(at).take(n) {
                *c = true;
            }
        }
        let mut out = Vec::new();
        let mut start = None;
        for (i, c) in covered.iter().copied().chain([true]).enumerate() {
            match (c, start) {
                (false, None) => start = Some(i),
                (true, Some(s)) => {
                    out.push((s, i - s));
                    start = None;
                }
                _ => {}
            }
        }
        out
    }

    #[test]
    fn coverage_gaps_match_a_byte_map() {
        let data: Vec<u8> = (0..64).collect();
        let cases: &[&[(usize, usize)]] = &[
            &[],
            &[(0, 64)],
            &[(0, 8), (8, 8)],
            &[(4, 4), (0, 2), (30, 100), (10, 0)],
            &[(10, 20), (12, 3), (25, 10), (40, 1), (41, 1), (63, 1)],
            &[(70, 4), (usize::MAX, 3), (5, usize::MAX)],
            &[(1, 1), (3, 1), (5, 1), (2, 1)],
        ];
        for marks in cases {
            let mut c = Coverage::new(data.len());
            for &(at, n) in *marks {
                c.mark(at, n);
            }
            let got: Vec<(usize, usize)> = c.gaps(&data).iter().map(|g| (g.offset, g.bytes.len())).collect();
            assert_eq!(got, gaps_by_bytes(data.len(), marks), "{marks:?}");
            for g in c.gaps(&data) {
                assert_eq!(g.bytes, &data[g.offset..g.offset + g.bytes.len()]);
            }
        }
    }
}
