//! Microsoft's DXBC checksum: MD5's compression function with its own padding.
//!
//! The checksum covers every byte after the checksum field (from byte 20 to the end).
//! Whole 64-byte blocks are compressed as in MD5. The tail differs from RFC 1321:
//! the message length in bits is stored as a 32-bit word in front of the tail bytes
//! (when the tail and the `0x80` marker fit into one block with room for the final word)
//! or alone at the start of an extra block, and the block's last word holds
//! `(bits >> 2) | 1`. The four state words are the checksum, stored little-endian.

#![deny(clippy::arithmetic_side_effects, clippy::indexing_slicing)]

use md5::block_api::compress;

const INIT: [u32; 4] = [0x6745_2301, 0xefcd_ab89, 0x98ba_dcfe, 0x1032_5476];

/// Where the checksummed bytes start in a container.
pub const CHECKSUM_START: usize = 20;

/// The checksum of `data`, the bytes a container's checksum covers.
pub fn checksum_of(data: &[u8]) -> [u32; 4] {
    let mut state = INIT;
    let whole = data.chunks_exact(64);
    let tail = whole.remainder();
    for c in whole {
        let mut block = [0u8; 64];
        block.copy_from_slice(c);
        compress(&mut state, &[block]);
    }
    // Lengths are 32-bit in the format; wrapping keeps huge inputs panic-free.
    let bits = (data.len() as u32).wrapping_mul(8);
    let last_word = (bits >> 2) | 1;
    let mut block = [0u8; 64];
    if tail.len() < 56 {
        put(&mut block, 0, &bits.to_le_bytes());
        put(&mut block, 4, tail);
        put(&mut block, tail.len().saturating_add(4), &[0x80]);
        put(&mut block, 60, &last_word.to_le_bytes());
        compress(&mut state, &[block]);
    } else {
        put(&mut block, 0, tail);
        put(&mut block, tail.len(), &[0x80]);
        compress(&mut state, &[block]);
        let mut last = [0u8; 64];
        put(&mut last, 0, &bits.to_le_bytes());
        put(&mut last, 60, &last_word.to_le_bytes());
        compress(&mut state, &[last]);
    }
    state
}

/// Copies `bytes` into `block` at `at`. Every caller's range lies inside the block: the
/// tail of a message is shorter than a block (`chunks_exact` leaves under 64 bytes), and
/// the marker byte follows it inside the block.
fn put(block: &mut [u8; 64], at: usize, bytes: &[u8]) {
    if let Some(slot) = at.checked_add(bytes.len()).and_then(|end| block.get_mut(at..end)) {
        slot.copy_from_slice(bytes);
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
