//! Microsoft's DXBC checksum: MD5's compression function with its own padding.
//!
//! The checksum covers every byte after the checksum field (from byte 20 to the end).
//! Whole 64-byte blocks are compressed as in MD5. The tail differs from RFC 1321:
//! the message length in bits is stored as a 32-bit word in front of the tail bytes
//! (when the tail and the `0x80` marker fit into one block with room for the final word)
//! or alone at the start of an extra block, and the block's last word holds
//! `(bits >> 2) | 1`. The four state words are the checksum, stored little-endian.

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
        block[..4].copy_from_slice(&bits.to_le_bytes());
        block[4..4 + tail.len()].copy_from_slice(tail);
        block[4 + tail.len()] = 0x80;
        block[60..].copy_from_slice(&last_word.to_le_bytes());
        compress(&mut state, &[block]);
    } else {
        block[..tail.len()].copy_from_slice(tail);
        block[tail.len()] = 0x80;
        compress(&mut state, &[block]);
        let mut last = [0u8; 64];
        last[..4].copy_from_slice(&bits.to_le_bytes());
        last[60..].copy_from_slice(&last_word.to_le_bytes());
        compress(&mut state, &[last]);
    }
    state
}

/// The checksum a container made of `bytes` should store: the checksum of
/// `bytes[20..]` (of nothing, if `bytes` is shorter than the header's first 20 bytes).
pub fn compute_checksum(bytes: &[u8]) -> [u32; 4] {
    checksum_of(bytes.get(CHECKSUM_START..).unwrap_or(&[]))
}

/// The checksum as the 16 bytes stored at offset 4 of the container.
pub fn checksum_bytes(sum: [u32; 4]) -> [u8; 16] {
    let mut out = [0u8; 16];
    for (i, w) in sum.iter().enumerate() {
        out[i * 4..i * 4 + 4].copy_from_slice(&w.to_le_bytes());
    }
    out
}
