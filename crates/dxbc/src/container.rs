//! The container: header, chunk directory, chunks; parsing, exact re-serialisation and
//! building.

use crate::checksum::{checksum_bytes, compute_checksum};
use crate::error::{Error, Result};
use crate::util::{Bytes, Coverage, Gap};
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
        let magic = b.slice(0, 4, "container magic")?;
        if magic != b"DXBC" {
            return Err(Error::BadMagic { offset: 0, found: [magic[0], magic[1], magic[2], magic[3]] });
        }
        b.slice(0, HEADER_SIZE, "container header")?;
        let mut checksum = [0u8; 16];
        checksum.copy_from_slice(&bytes[4..20]);
        let version = b.u32(20, "container version")?;
        if version != 1 {
            return Err(Error::BadVersion { offset: 20, version });
        }
        let total_size = b.u32(24, "total size")?;
        let total = total_size as usize;
        if total > bytes.len() || total < HEADER_SIZE {
            return Err(Error::BadTotalSize { offset: 24, declared: total_size, actual: bytes.len() });
        }
        let body = Bytes::new(&bytes[..total]);
        let count = body.u32(28, "chunk count")?;
        let table_len = (count as usize).checked_mul(4).ok_or(Error::Truncated {
            offset: HEADER_SIZE,
            what: "chunk offset table",
            needed: usize::MAX,
            available: total - HEADER_SIZE,
        })?;
        body.slice(HEADER_SIZE, table_len, "chunk offset table")?;
        let table_end = HEADER_SIZE + table_len;
        let mut cover = Coverage::new(total);
        cover.mark(0, table_end);
        let mut chunks = Vec::with_capacity(count as usize);
        for i in 0..count as usize {
            let field = HEADER_SIZE + 4 * i;
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
            let fourcc = FourCc([bytes[off], bytes[off + 1], bytes[off + 2], bytes[off + 3]]);
            let size = body.u32(off + 4, "chunk size")?;
            let available = total - off - 8;
            if size as usize > available {
                return Err(Error::ChunkOutOfBounds { offset: off, fourcc, size, available });
            }
            let data = &bytes[off + 8..off + 8 + size as usize];
            cover.mark(off, 8 + size as usize);
            chunks.push(Chunk { fourcc, data, offset: off });
        }
        let gaps = cover.gaps(&bytes[..total]);
        Ok(Container { raw: bytes, checksum, version, total_size, chunks, gaps, trailing: &bytes[total..] })
    }

    /// The chunks in directory order.
    pub fn chunks(&self) -> &[Chunk<'a>] {
        &self.chunks
    }

    /// The first chunk with this FourCC.
    pub fn chunk(&self, fourcc: FourCc) -> Option<&Chunk<'a>> {
        self.chunks.iter().find(|c| c.fourcc == fourcc)
    }

    /// The first chunk among `fourccs` found in directory order (e.g. the input
    /// signature in either of its forms).
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
            && self.chunks.iter().try_fold(HEADER_SIZE + 4 * self.chunks.len(), |pos, c| {
                (c.offset == pos && c.data.len() % 4 == 0).then_some(pos + 8 + c.data.len())
            }) == Some(self.total_size as usize)
    }

    /// The checksum the container's bytes should carry (of bytes 20 to total size).
    pub fn computed_checksum(&self) -> [u32; 4] {
        compute_checksum(&self.raw[..self.total_size as usize])
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
        out[0..4].copy_from_slice(b"DXBC");
        out[4..20].copy_from_slice(&self.checksum);
        out[20..24].copy_from_slice(&self.version.to_le_bytes());
        out[24..28].copy_from_slice(&self.total_size.to_le_bytes());
        out[28..32].copy_from_slice(&(self.chunks.len() as u32).to_le_bytes());
        for (i, c) in self.chunks.iter().enumerate() {
            let f = HEADER_SIZE + 4 * i;
            out[f..f + 4].copy_from_slice(&(c.offset as u32).to_le_bytes());
            out[c.offset..c.offset + 4].copy_from_slice(&c.fourcc.0);
            out[c.offset + 4..c.offset + 8].copy_from_slice(&(c.data.len() as u32).to_le_bytes());
            out[c.offset + 8..c.offset + 8 + c.data.len()].copy_from_slice(c.data);
        }
        for g in &self.gaps {
            out[g.offset..g.offset + g.bytes.len()].copy_from_slice(g.bytes);
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
        let mut size = HEADER_SIZE + 4 * self.chunks.len();
        for (_, d) in &self.chunks {
            size = size
                .checked_add(8 + d.len().next_multiple_of(4))
                .filter(|&s| s <= u32::MAX as usize)
                .ok_or(too_big(usize::MAX))?;
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
        let mut pos = HEADER_SIZE + 4 * self.chunks.len();
        for (_, d) in &self.chunks {
            out.extend_from_slice(&(pos as u32).to_le_bytes());
            pos += 8 + d.len().next_multiple_of(4);
        }
        for (fourcc, d) in &self.chunks {
            out.extend_from_slice(&fourcc.0);
            out.extend_from_slice(&(d.len() as u32).to_le_bytes());
            out.extend_from_slice(d);
            out.resize(out.len().next_multiple_of(4), 0);
        }
        let sum = checksum_bytes(compute_checksum(&out));
        out[4..20].copy_from_slice(&sum);
        Ok(out)
    }
}
