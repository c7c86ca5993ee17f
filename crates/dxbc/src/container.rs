//! The container: header, chunk directory, chunks; parsing, exact re-serialisation and
//! building.

#![deny(clippy::arithmetic_side_effects, clippy::indexing_slicing)]

use crate::checksum::{checksum_bytes, compute_checksum};
use crate::error::{Error, Result};
use crate::util::{write_at, Bytes, Coverage, Gap};
use crate::{ChunkData, FourCc};

/// Size of the fixed part of the header: magic, checksum, version, total size, count.
pub const HEADER_SIZE: usize = 32;

/// One chunk of a container, borrowing its data.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Chunk<'a> {
    /// The chunk's code.
    pub fourcc: FourCc,
    /// The chunk's data (after its 8-byte header), exactly `size` bytes.
    pub data: &'a [u8],
    /// Byte offset of the chunk's header (its FourCC) in the container.
    pub offset: usize,
}

impl<'a> Chunk<'a> {
    /// Byte offset of the chunk's data in the container.
    pub fn data_offset(&self) -> usize {
        self.offset.saturating_add(8)
    }

    /// Decodes the chunk with the codec its FourCC selects; errors name offsets in the
    /// container.
    pub fn decode(&self) -> Result<ChunkData<'a>> {
        ChunkData::decode(self.fourcc, self.data).map_err(|e| e.rebased(self.data_offset()))
    }
}

/// A parsed DXBC container borrowing the input bytes.
///
/// Parsing checks every size and offset against the buffer. [`Container::to_bytes`]
/// rebuilds the input exactly from the parsed parts, including bytes between or after
/// chunks that no chunk claims.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Container<'a> {
    raw: &'a [u8],
    checksum: [u8; 16],
    version: u32,
    total_size: u32,
    chunks: Vec<Chunk<'a>>,
    gaps: Vec<Gap<'a>>,
    trailing: &'a [u8],
}

impl<'a> Container<'a> {
    /// Parses a container. Bytes past the header's total size are kept as
    /// [`trailing`](Container::trailing) bytes.
    pub fn parse(bytes: &'a [u8]) -> Result<Container<'a>> {
        let b = Bytes::new(bytes);
        let magic: [u8; 4] = b.array_of(0, "container magic")?;
        if &magic != b"DXBC" {
            return Err(Error::BadMagic { offset: 0, found: magic });
        }
        b.slice(0, HEADER_SIZE, "container header")?;
        let checksum: [u8; 16] = b.array_of(4, "container checksum")?;
        let version = b.u32(20, "container version")?;
        if version != 1 {
            return Err(Error::BadVersion { offset: 20, version });
        }
        let total_size = b.u32(24, "total size")?;
        let total = total_size as usize;
        let bad_total = Error::BadTotalSize { offset: 24, declared: total_size, actual: bytes.len() };
        if total < HEADER_SIZE {
            return Err(bad_total);
        }
        let (within, trailing) = bytes.split_at_checked(total).ok_or(bad_total)?;
        let body = Bytes::new(within);
        let count = body.u32(28, "chunk count")?;
        let table_len = (count as usize).checked_mul(4).ok_or(Error::Truncated {
            offset: HEADER_SIZE,
            what: "chunk offset table",
            needed: usize::MAX,
            available: total.saturating_sub(HEADER_SIZE),
        })?;
        body.slice(HEADER_SIZE, table_len, "chunk offset table")?;
        // The table was just read from inside the body, so its end is at most `total`.
        let table_end = HEADER_SIZE.saturating_add(table_len);
        // The header's run and one per chunk (`count` fits the body: the table was read).
        let mut cover = Coverage::with_capacity(total, (count as usize).saturating_add(1));
        cover.mark(0, table_end);
        let mut chunks = Vec::with_capacity(count as usize);
        for field in (0..count as usize).map(|i| HEADER_SIZE.saturating_add(i.saturating_mul(4))) {
            let at = body.u32(field, "chunk offset")?;
            let off = at as usize;
            if !matches!(off.checked_add(8), Some(end) if end <= total) {
                return Err(Error::OffsetOutOfBounds { offset: field, what: "chunk", target: at as u64, len: total });
            }
            if off < table_end {
                return Err(Error::Invalid {
                    offset: field,
                    what: "chunk offset (inside the container header)",
                    value: at as u64,
                });
            }
            // `off + 8 <= total` was checked above.
            let fourcc = FourCc(body.array_of(off, "chunk fourcc")?);
            let size = body.u32(off.saturating_add(4), "chunk size")?;
            let data_at = off.saturating_add(8);
            let available = total.saturating_sub(data_at);
            let data = within
                .get(data_at..)
                .and_then(|rest| rest.get(..size as usize))
                .ok_or(Error::ChunkOutOfBounds { offset: off, fourcc, size, available })?;
            cover.mark(off, data.len().saturating_add(8));
            chunks.push(Chunk { fourcc, data, offset: off });
        }
        let gaps = cover.gaps(within);
        Ok(Container { raw: bytes, checksum, version, total_size, chunks, gaps, trailing })
    }

    /// The chunks in directory order.
    pub fn chunks(&self) -> &[Chunk<'a>] {
        &self.chunks
    }

    /// The first chunk with this FourCC.
    #[inline]
    pub fn chunk(&self, fourcc: FourCc) -> Option<&Chunk<'a>> {
        self.chunks.iter().find(|c| c.fourcc == fourcc)
    }

    /// The first chunk among `fourccs` found in directory order (e.g. the input
    /// signature in either of its forms).
    #[inline]
    pub fn chunk_any(&self, fourccs: &[FourCc]) -> Option<&Chunk<'a>> {
        self.chunks.iter().find(|c| fourccs.contains(&c.fourcc))
    }

    /// The checksum stored in the header.
    pub fn stored_checksum(&self) -> [u8; 16] {
        self.checksum
    }

    /// The header's version field (always 1 for a parsed container).
    pub fn version(&self) -> u32 {
        self.version
    }

    /// The header's total size field.
    pub fn total_size(&self) -> u32 {
        self.total_size
    }

    /// The input bytes the container was parsed from, including trailing bytes.
    pub fn as_bytes(&self) -> &'a [u8] {
        self.raw
    }

    /// Bytes inside the total size that neither the header, the offset table nor any
    /// chunk claims (none in fxc's layout).
    pub fn gaps(&self) -> &[Gap<'a>] {
        &self.gaps
    }

    /// Bytes after the header's total size (none in fxc's layout).
    pub fn trailing(&self) -> &'a [u8] {
        self.trailing
    }

    /// True when the chunks follow fxc's layout: right after the offset table, back to
    /// back in directory order, with nothing between, after or outside them.
    pub fn is_canonical_layout(&self) -> bool {
        self.gaps.is_empty()
            && self.trailing.is_empty()
            && self.chunks.iter().try_fold(self.chunks.len().saturating_mul(4).saturating_add(HEADER_SIZE), |pos, c| {
                (c.offset == pos && c.data.len().is_multiple_of(4))
                    .then_some(pos.saturating_add(8).saturating_add(c.data.len()))
            }) == Some(self.total_size as usize)
    }

    /// The checksum the container's bytes should carry (of bytes 20 to total size).
    pub fn computed_checksum(&self) -> [u32; 4] {
        compute_checksum(self.raw.get(..self.total_size as usize).unwrap_or(self.raw))
    }

    /// True when the stored checksum matches the bytes.
    pub fn checksum_ok(&self) -> bool {
        checksum_bytes(self.computed_checksum()) == self.checksum
    }

    /// Serialises the container from its parts: header, offset table, chunks at their
    /// offsets, unclaimed bytes and trailing bytes. For a parsed container this is the
    /// input, byte for byte.
    pub fn to_bytes(&self) -> Vec<u8> {
        let total = self.total_size as usize;
        let mut out = vec![0u8; total];
        // Every range below was checked against the total size when the container was
        // parsed (the parts are private and come only from `parse`); `write_at` skips any other.
        write_at(&mut out, 0, b"DXBC");
        write_at(&mut out, 4, &self.checksum);
        write_at(&mut out, 20, &self.version.to_le_bytes());
        write_at(&mut out, 24, &self.total_size.to_le_bytes());
        write_at(&mut out, 28, &(self.chunks.len() as u32).to_le_bytes());
        for (i, c) in self.chunks.iter().enumerate() {
            let f = HEADER_SIZE.saturating_add(i.saturating_mul(4));
            write_at(&mut out, f, &(c.offset as u32).to_le_bytes());
            write_at(&mut out, c.offset, &c.fourcc.0);
            write_at(&mut out, c.offset.saturating_add(4), &(c.data.len() as u32).to_le_bytes());
            write_at(&mut out, c.offset.saturating_add(8), c.data);
        }
        for g in &self.gaps {
            write_at(&mut out, g.offset, g.bytes);
        }
        out.extend_from_slice(self.trailing);
        out
    }

    /// A builder holding this container's chunks, to write them out in fxc's layout.
    pub fn to_builder(&self) -> Builder<'a> {
        let mut b = Builder::new();
        for c in &self.chunks {
            b.push(c.fourcc, c.data);
        }
        b
    }
}

/// Writes a container in fxc's layout: header, offset table, then the chunks back to
/// back in the order given, each starting on a 4-byte boundary, with a correct checksum.
#[derive(Debug, Clone, Default)]
pub struct Builder<'a> {
    chunks: Vec<(FourCc, std::borrow::Cow<'a, [u8]>)>,
}

impl<'a> Builder<'a> {
    /// An empty builder.
    pub fn new() -> Self {
        Builder { chunks: Vec::new() }
    }

    /// Appends a chunk (borrowed or owned data).
    pub fn push(&mut self, fourcc: FourCc, data: impl Into<std::borrow::Cow<'a, [u8]>>) -> &mut Self {
        self.chunks.push((fourcc, data.into()));
        self
    }

    /// Appends a chunk, builder style.
    pub fn chunk(mut self, fourcc: FourCc, data: impl Into<std::borrow::Cow<'a, [u8]>>) -> Self {
        self.push(fourcc, data);
        self
    }

    /// Writes the container. Chunk data whose length is not a multiple of four is
    /// followed by zero bytes up to the next boundary (the size field keeps the
    /// unpadded length). Fails if the result would exceed 4 GiB.
    pub fn build(&self) -> Result<Vec<u8>> {
        let too_big = |value: usize| Error::Invalid { offset: 24, what: "container size", value: value as u64 };
        let mut size = self.chunks.len().saturating_mul(4).saturating_add(HEADER_SIZE);
        for (_, d) in &self.chunks {
            size = size.checked_add(padded(d)).filter(|&s| s <= u32::MAX as usize).ok_or(too_big(usize::MAX))?;
        }
        if size > u32::MAX as usize {
            return Err(too_big(size));
        }
        let mut out = Vec::with_capacity(size);
        out.extend_from_slice(b"DXBC");
        out.extend_from_slice(&[0; 16]);
        out.extend_from_slice(&1u32.to_le_bytes());
        out.extend_from_slice(&(size as u32).to_le_bytes());
        out.extend_from_slice(&(self.chunks.len() as u32).to_le_bytes());
        // `size` bounds every position below (checked above).
        let mut pos = self.chunks.len().saturating_mul(4).saturating_add(HEADER_SIZE);
        for (_, d) in &self.chunks {
            out.extend_from_slice(&(pos as u32).to_le_bytes());
            pos = pos.saturating_add(padded(d));
        }
        for (fourcc, d) in &self.chunks {
            out.extend_from_slice(&fourcc.0);
            out.extend_from_slice(&(d.len() as u32).to_le_bytes());
            out.extend_from_slice(d);
            out.resize(out.len().next_multiple_of(4), 0);
        }
        let sum = checksum_bytes(compute_checksum(&out));
        write_at(&mut out, 4, &sum);
        Ok(out)
    }
}

/// Bytes a chunk takes in fxc's layout: its header and its data padded to four bytes
/// (saturating: `build` refuses any size past 4 GiB).
fn padded(d: &[u8]) -> usize {
    d.len().checked_next_multiple_of(4).unwrap_or(usize::MAX).saturating_add(8)
}
