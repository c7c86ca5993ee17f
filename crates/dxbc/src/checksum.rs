//! Microsoft's DXBC checksum: MD5's compression function with its own padding.
//!
//! The checksum covers every byte after the checksum field (from byte 20 to the end).
//! Whole 64-byte blocks are compressed as in MD5. The tail differs from RFC 1321:
//! the message length in bits is stored as a 32-bit word in front of the tail bytes
//! (when the tail and the `0x80` marker fit into one block with room for the final word)
//! or alone at the start of an extra block, and the block's last word holds
//! `(bits >> 2) | 1`. The four state words are the checksum, stored little-endian.
//!
//! One checksum ([`checksum_of`], [`compute_checksum`], and so `Container::checksum_ok`)
//! runs the compression function of [`compress`], written for the latency of one
//! stream. Many checksums at once ([`checksum_many`], [`verify_many`]) run one stream
//! per lane of a vector register where the CPU has them (x86_64: SSE2, AVX2, AVX-512F,
//! picked at run time, see [`Kernel`]) and the single-stream code elsewhere.

#![deny(clippy::arithmetic_side_effects, clippy::indexing_slicing)]

mod block;
#[cfg(target_arch = "x86_64")]
mod lanes;
#[cfg(target_arch = "x86_64")]
mod schedule;

pub use block::compress;
use block::INIT;

/// Where the checksummed bytes start in a container.
pub const CHECKSUM_START: usize = 20;

/// The one or two blocks that end the checksum of a message of `len` bytes whose bytes
/// after the last whole block are `tail` (shorter than a block), and how many there are.
fn tail_blocks(len: usize, tail: &[u8]) -> ([[u8; 64]; 2], usize) {
    // Lengths are 32-bit in the format; wrapping keeps huge inputs panic-free.
    let bits = (len as u32).wrapping_mul(8);
    let last_word = (bits >> 2) | 1;
    let mut blocks = [[0u8; 64]; 2];
    let [first, second] = &mut blocks;
    if tail.len() < 56 {
        put(first, 0, &bits.to_le_bytes());
        put(first, 4, tail);
        put(first, tail.len().saturating_add(4), &[0x80]);
        put(first, 60, &last_word.to_le_bytes());
        (blocks, 1)
    } else {
        put(first, 0, tail);
        put(first, tail.len(), &[0x80]);
        put(second, 0, &bits.to_le_bytes());
        put(second, 60, &last_word.to_le_bytes());
        (blocks, 2)
    }
}

/// Copies `bytes` into `block` at `at`. Every caller's range lies inside the block: the
/// tail of a message is shorter than a block (`as_chunks` leaves under 64 bytes), and
/// the marker byte follows it inside the block.
fn put(block: &mut [u8; 64], at: usize, bytes: &[u8]) {
    if let Some(slot) = at.checked_add(bytes.len()).and_then(|end| block.get_mut(at..end)) {
        slot.copy_from_slice(bytes);
    }
}

/// The checksum of `data`, the bytes a container's checksum covers.
pub fn checksum_of(data: &[u8]) -> [u32; 4] {
    let (whole, tail) = data.as_chunks::<64>();
    let mut state = INIT;
    compress(&mut state, whole);
    let (pad, n) = tail_blocks(data.len(), tail);
    compress(&mut state, pad.get(..n).unwrap_or(&pad));
    state
}

/// The checksum of some bytes computed a few blocks at a time ([`Progress::step`]), so
/// that a caller can spread it over other work: MD5's compression function waits on
/// the latency of one chain of adds and rotations and leaves most of the core idle,
/// and the out-of-order core runs other instructions beside it when they come close
/// together. [`Progress::finish`] gives what [`checksum_of`] gives.
#[derive(Debug, Clone)]
pub struct Progress<'a> {
    state: [u32; 4],
    /// The whole blocks not compressed yet.
    whole: &'a [[u8; 64]],
    /// The bytes after the last whole block.
    tail: &'a [u8],
    /// The length of all the bytes.
    len: usize,
}

impl<'a> Progress<'a> {
    /// The checksum of `data` (the bytes a container's checksum covers), not started.
    pub fn new(data: &'a [u8]) -> Progress<'a> {
        let (whole, tail) = data.as_chunks::<64>();
        Progress { state: INIT, whole, tail, len: data.len() }
    }

    /// Compresses the next `blocks` whole blocks (fewer at the end).
    #[inline]
    pub fn step(&mut self, blocks: usize) {
        let (now, later) = self.whole.split_at(blocks.min(self.whole.len()));
        if !now.is_empty() {
            compress(&mut self.state, now);
        }
        self.whole = later;
    }

    /// The checksum: the blocks not stepped over yet, then the tail.
    pub fn finish(mut self) -> [u32; 4] {
        compress(&mut self.state, self.whole);
        let (pad, n) = tail_blocks(self.len, self.tail);
        compress(&mut self.state, pad.get(..n).unwrap_or(&pad));
        self.state
    }
}

/// The checksum a container made of `bytes` should store: the checksum of
/// `bytes[20..]` (of nothing, if `bytes` is shorter than the header's first 20 bytes).
pub fn compute_checksum(bytes: &[u8]) -> [u32; 4] {
    checksum_of(bytes.get(CHECKSUM_START..).unwrap_or(&[]))
}

/// The checksum as the 16 bytes stored at offset 4 of the container.
pub fn checksum_bytes(sum: [u32; 4]) -> [u8; 16] {
    let mut out = [0u8; 16];
    for (slot, w) in out.chunks_exact_mut(4).zip(sum) {
        slot.copy_from_slice(&w.to_le_bytes());
    }
    out
}

/// How [`checksum_many_with`] computes a batch: one stream at a time, or one stream per
/// lane of a vector register.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Kernel {
    /// One stream at a time with [`checksum_of`]; on every CPU.
    Scalar,
    /// 4 streams in SSE2 registers; on every x86_64 CPU.
    Sse2,
    /// 8 streams in AVX2 registers; on x86_64 CPUs with AVX2.
    Avx2,
    /// 16 streams in AVX-512 registers; on x86_64 CPUs with AVX-512F.
    Avx512,
}

impl Kernel {
    /// Every kernel, narrowest first.
    pub const ALL: [Kernel; 4] = [Kernel::Scalar, Kernel::Sse2, Kernel::Avx2, Kernel::Avx512];

    /// Whether this CPU can run the kernel (checked at run time).
    pub fn is_available(self) -> bool {
        match self {
            Kernel::Scalar => true,
            #[cfg(target_arch = "x86_64")]
            Kernel::Sse2 => true,
            #[cfg(target_arch = "x86_64")]
            Kernel::Avx2 => lanes::Avx2::detect().is_some(),
            #[cfg(target_arch = "x86_64")]
            Kernel::Avx512 => lanes::Avx512::detect().is_some(),
            #[cfg(not(target_arch = "x86_64"))]
            _ => false,
        }
    }

    /// The widest kernel this CPU can run: what [`checksum_many`] uses.
    pub fn best() -> Kernel {
        Kernel::ALL.into_iter().rev().find(|k| k.is_available()).unwrap_or(Kernel::Scalar)
    }

    /// How many streams one vector register of the kernel holds (a kernel runs a few
    /// registers' worth side by side).
    pub fn lanes(self) -> usize {
        match self {
            Kernel::Scalar => 1,
            Kernel::Sse2 => 4,
            Kernel::Avx2 => 8,
            Kernel::Avx512 => 16,
        }
    }
}

/// The checksums of many inputs, in order: `checksum_many(blobs)[i]` is
/// `checksum_of(blobs[i])` (each input is the bytes a checksum covers, as for
/// [`checksum_of`]; for whole containers see [`verify_many`]). Uses the widest
/// [`Kernel`] this CPU has, or one stream at a time for fewer than three inputs (a step
/// of every kernel takes about as long as a few blocks of one stream, so two streams
/// run faster one after the other).
pub fn checksum_many(blobs: &[&[u8]]) -> Vec<[u32; 4]> {
    let kernel = if blobs.len() < 3 { Kernel::Scalar } else { Kernel::best() };
    checksum_many_with(kernel, blobs)
}

/// [`checksum_many`] with the given kernel, or one stream at a time where the CPU
/// cannot run it ([`Kernel::is_available`]). The results do not depend on the kernel.
pub fn checksum_many_with(kernel: Kernel, blobs: &[&[u8]]) -> Vec<[u32; 4]> {
    #[cfg(target_arch = "x86_64")]
    match kernel {
        Kernel::Scalar => {}
        Kernel::Sse2 => return schedule::run(&lanes::Sse2, blobs),
        Kernel::Avx2 => {
            if let Some(k) = lanes::Avx2::detect() {
                return schedule::run(&k, blobs);
            }
        }
        Kernel::Avx512 => {
            if let Some(k) = lanes::Avx512::detect() {
                return schedule::run(&k, blobs);
            }
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = kernel;
    blobs.iter().map(|b| checksum_of(b)).collect()
}

/// For each container, whether the checksum stored in its header (bytes 4 to 20) is the
/// checksum of its bytes 20 to its total size, as `Container::checksum_ok` says of a
/// parsed container. Only the header is read: the bytes must begin with `DXBC` and a
/// 32-byte header whose total size (at byte 24) is at least 32 and at most the length
/// of the bytes, or the answer is `false`; the chunk directory is not checked.
pub fn verify_many(containers: &[&[u8]]) -> Vec<bool> {
    let covered: Vec<Option<(&[u8], &[u8])>> = containers.iter().map(|c| covered_bytes(c)).collect();
    let sums = checksum_many(&covered.iter().map(|c| c.map_or(&[][..], |(_, data)| data)).collect::<Vec<_>>());
    covered.iter().zip(sums).map(|(c, sum)| c.is_some_and(|(stored, _)| stored == checksum_bytes(sum))).collect()
}

/// The stored checksum of a container and the bytes it covers, if the header says
/// where they end (see [`verify_many`]).
fn covered_bytes(bytes: &[u8]) -> Option<(&[u8], &[u8])> {
    Some((bytes.get(4..CHECKSUM_START)?, covered(bytes)?))
}

/// The bytes a container's checksum covers, read from its header alone: bytes 20 to the
/// total size (at byte 24), when the bytes begin with `DXBC` and that size is at least
/// the header's 32 bytes and at most the length of the bytes (`None` otherwise; the
/// chunk directory is not read). Every container that `Container::parse` accepts
/// passes these checks, and its `Container::computed_checksum` is the checksum of these
/// bytes: so a batch's checksums can be computed side by side ([`checksum_many`])
/// before its containers are parsed one by one.
pub fn covered(bytes: &[u8]) -> Option<&[u8]> {
    if bytes.get(..4)? != b"DXBC" {
        return None;
    }
    let total = u32::from_le_bytes(*bytes.get(24..28)?.first_chunk::<4>()?) as usize;
    if total < crate::HEADER_SIZE {
        return None;
    }
    bytes.get(CHECKSUM_START..total)
}
