//! The checksum's own MD5 compression function and its multi-stream kernels, against
//! the `md-5` crate's compression function: random blocks and states, every length up
//! to past 4 KiB and the block-boundary lengths of Microsoft's padding, random batches
//! through every kernel this CPU can run, and `verify_many` against
//! `Container::checksum_ok` on the corpus.

use dxbc::checksum::{self, Kernel};
use dxbc::Container;
use md5::Digest as _;
use proptest::prelude::*;

/// Microsoft's checksum as it was computed before the crate had its own compression
/// function: `md-5`'s, one block per call, with the padding written out again here.
fn reference(data: &[u8]) -> [u32; 4] {
    let mut state = [0x6745_2301, 0xefcd_ab89, 0x98ba_dcfe, 0x1032_5476];
    let whole = data.chunks_exact(64);
    let tail = whole.remainder();
    for c in whole {
        md5::block_api::compress(&mut state, &[c.try_into().unwrap()]);
    }
    let bits = (data.len() as u32).wrapping_mul(8);
    let last_word = ((bits >> 2) | 1).to_le_bytes();
    let mut block = [0u8; 64];
    if tail.len() < 56 {
        block[..4].copy_from_slice(&bits.to_le_bytes());
        block[4..4 + tail.len()].copy_from_slice(tail);
        block[4 + tail.len()] = 0x80;
        block[60..].copy_from_slice(&last_word);
        md5::block_api::compress(&mut state, &[block]);
    } else {
        block[..tail.len()].copy_from_slice(tail);
        block[tail.len()] = 0x80;
        md5::block_api::compress(&mut state, &[block]);
        let mut last = [0u8; 64];
        last[..4].copy_from_slice(&bits.to_le_bytes());
        last[60..].copy_from_slice(&last_word);
        md5::block_api::compress(&mut state, &[last]);
    }
    state
}

/// SplitMix64: seeded bytes for the exhaustive tests.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    fn bytes(&mut self, n: usize) -> Vec<u8> {
        (0..n).map(|_| self.next() as u8).collect()
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// Lengths where the padding changes shape: the tail block holds the length word, the
/// tail and the marker up to 55 bytes of tail, and needs a second block from 56 on.
fn boundary_lengths() -> Vec<usize> {
    let mut v = Vec::new();
    for blocks in [0usize, 1, 2, 3, 7, 64, 1000] {
        for tail in [0usize, 1, 54, 55, 56, 57, 62, 63] {
            v.push(blocks * 64 + tail);
        }
    }
    v.extend([119, 120, 127, 128, 183, 184]);
    v
}

#[test]
fn compress_equals_md5_on_every_length_and_block_count() {
    let mut rng = Rng(1);
    let data = rng.bytes(64 * 70);
    let blocks: Vec<[u8; 64]> = data.chunks_exact(64).map(|c| c.try_into().unwrap()).collect();
    for n in 0..=blocks.len() {
        let start = [rng.next() as u32, rng.next() as u32, rng.next() as u32, rng.next() as u32];
        let (mut ours, mut theirs) = (start, start);
        checksum::compress(&mut ours, &blocks[..n]);
        md5::block_api::compress(&mut theirs, &blocks[..n]);
        assert_eq!(ours, theirs, "{n} blocks from state {start:08x?}");
    }
}

#[test]
fn checksum_equals_the_reference_on_every_length_to_4200() {
    let mut rng = Rng(2);
    let data = rng.bytes(4200);
    for len in 0..=data.len() {
        assert_eq!(dxbc::checksum_of(&data[..len]), reference(&data[..len]), "length {len}");
    }
}

#[test]
fn checksum_equals_the_reference_at_block_boundaries_and_long_lengths() {
    let mut rng = Rng(3);
    let mut lengths = boundary_lengths();
    lengths.extend((0..40).map(|_| 4096 + rng.below(300_000)));
    lengths.push(1 << 20);
    for len in lengths {
        let data = rng.bytes(len);
        assert_eq!(dxbc::checksum_of(&data), reference(&data), "length {len}");
    }
}

/// The same compression function under RFC 1321's own padding is MD5: the whole
/// digest of `md-5` agrees.
#[test]
fn compress_with_rfc_padding_is_md5() {
    let mut rng = Rng(4);
    for len in (0..300).chain(boundary_lengths()) {
        let data = rng.bytes(len);
        let mut padded = data.clone();
        padded.push(0x80);
        while padded.len() % 64 != 56 {
            padded.push(0);
        }
        padded.extend_from_slice(&(len as u64 * 8).to_le_bytes());
        let blocks: Vec<[u8; 64]> = padded.chunks_exact(64).map(|c| c.try_into().unwrap()).collect();
        let mut state = [0x6745_2301, 0xefcd_ab89, 0x98ba_dcfe, 0x1032_5476];
        checksum::compress(&mut state, &blocks);
        let digest: [u8; 16] = md5::Md5::digest(&data).into();
        assert_eq!(dxbc::checksum_bytes(state), digest, "length {len}");
    }
}

/// Every kernel this CPU can run; says which it cannot.
fn kernels() -> Vec<Kernel> {
    let (yes, no): (Vec<Kernel>, Vec<Kernel>) = Kernel::ALL.into_iter().partition(|k| k.is_available());
    if !no.is_empty() {
        eprintln!("SKIP checksum kernels this CPU lacks: {no:?}");
    }
    yes
}

fn check_batch(blobs: &[Vec<u8>], what: &str) {
    let refs: Vec<&[u8]> = blobs.iter().map(|b| b.as_slice()).collect();
    let expected: Vec<[u32; 4]> = refs.iter().map(|b| reference(b)).collect();
    for k in kernels() {
        assert_eq!(checksum::checksum_many_with(k, &refs), expected, "{k:?}: {what}");
    }
    assert_eq!(dxbc::checksum_many(&refs), expected, "best kernel: {what}");
}

#[test]
fn every_kernel_equals_the_reference_on_random_batches() {
    let mut rng = Rng(5);
    for batch in [0usize, 1, 2, 3, 4, 5, 7, 8, 9, 15, 16, 17, 31, 32, 33, 100, 300] {
        for shape in 0..4 {
            let blobs: Vec<Vec<u8>> = (0..batch)
                .map(|_| {
                    let len = match shape {
                        // Short: empty, single-block, the padding's boundaries.
                        0 => rng.below(130),
                        // Corpus-sized.
                        1 => rng.below(6000),
                        // Mixed: mostly short, a few long ones that outlive the rest.
                        2 if rng.below(10) == 0 => rng.below(40_000),
                        2 => rng.below(200),
                        // All the same length, so that every lane ends on the same block.
                        _ => 1000,
                    };
                    rng.bytes(len)
                })
                .collect();
            check_batch(&blobs, &format!("batch of {batch}, shape {shape}"));
        }
    }
}

#[test]
fn every_kernel_handles_empty_and_boundary_inputs_together() {
    let mut rng = Rng(6);
    let mut blobs: Vec<Vec<u8>> = boundary_lengths().into_iter().map(|n| rng.bytes(n)).collect();
    blobs.extend((0..20).map(|_| Vec::new()));
    blobs.extend((0..20).map(|_| rng.bytes(64)));
    check_batch(&blobs, "boundary lengths, empty and one-block inputs");
    // The same inputs borrowed more than once and in another order.
    let mut again: Vec<Vec<u8>> = blobs.iter().rev().cloned().collect();
    again.extend(blobs.iter().take(10).cloned());
    check_batch(&again, "the same, reversed, with repeats");
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn checksum_equals_the_reference(data in proptest::collection::vec(any::<u8>(), 0..5000)) {
        prop_assert_eq!(dxbc::checksum_of(&data), reference(&data));
    }

    #[test]
    fn batches_equal_the_reference(
        blobs in proptest::collection::vec(proptest::collection::vec(any::<u8>(), 0..700), 0..40)
    ) {
        check_batch(&blobs, "proptest batch");
    }
}

#[test]
fn kernel_names_are_consistent() {
    assert!(Kernel::Scalar.is_available());
    assert!(Kernel::best().is_available());
    assert_eq!(Kernel::ALL.map(Kernel::lanes), [1, 4, 8, 16]);
    if cfg!(target_arch = "x86_64") {
        assert!(Kernel::Sse2.is_available());
        assert_eq!(Kernel::Avx512.is_available(), std::arch::is_x86_feature_detected!("avx512f"));
    }
}

/// `verify_many` says of each corpus container, and of each with one byte of its checksum
/// or of its last chunk flipped, what `Container::checksum_ok` says.
#[test]
fn verify_many_agrees_with_checksum_ok_on_the_corpus() {
    let Some(entries) = corpus::dxbc_entries("verify_many_agrees_with_checksum_ok_on_the_corpus") else {
        return;
    };
    let mut blobs: Vec<Vec<u8>> = Vec::new();
    for (i, e) in entries.iter().enumerate() {
        let bytes = e.bytes();
        let mut bad_sum = bytes.clone();
        bad_sum[4 + i % 16] ^= 1 << (i % 8);
        let mut bad_body = bytes.clone();
        // Near the end, inside the last chunk's data, so that the container still parses.
        let at = bytes.len() - 1 - i % 16;
        bad_body[at] ^= 0x40;
        blobs.extend([bytes, bad_sum, bad_body]);
    }
    let refs: Vec<&[u8]> = blobs.iter().map(|b| b.as_slice()).collect();
    let got = dxbc::verify_many(&refs);
    let mut ok = 0;
    for (i, (b, got)) in blobs.iter().zip(got).enumerate() {
        let c = Container::parse(b).unwrap_or_else(|e| panic!("blob {i}: {e}"));
        assert_eq!(got, c.checksum_ok(), "blob {i} (entry {})", entries[i / 3].id());
        ok += usize::from(got);
    }
    // Every corpus blob is right; every flipped one is wrong.
    assert_eq!(ok, entries.len());
}

#[test]
fn verify_many_rejects_what_is_not_a_container_header() {
    let good = dxbc::Builder::new().chunk(dxbc::FourCc(*b"TEST"), vec![1, 2, 3, 4]).build().unwrap();
    let mut wrong_magic = good.clone();
    wrong_magic[0] = b'X';
    let mut total_too_big = good.clone();
    total_too_big[24..28].copy_from_slice(&(good.len() as u32 + 1).to_le_bytes());
    let mut total_too_small = good.clone();
    total_too_small[24..28].copy_from_slice(&31u32.to_le_bytes());
    let mut trailing = good.clone();
    trailing.extend_from_slice(b"after the total size");
    let inputs: [&[u8]; 7] = [&good, &[], &good[..20], &wrong_magic, &total_too_big, &total_too_small, &trailing];
    assert_eq!(dxbc::verify_many(&inputs), [true, false, false, false, false, false, true]);
}

/// `checksum::covered` reads the header alone, yet every container that parses has
/// covered bytes whose checksum is the container's computed one: on the corpus, on
/// each blob cut short at many lengths and with its total size rewritten, and on
/// trailing bytes.
#[test]
fn covered_bytes_give_the_computed_checksum_of_every_container_that_parses() {
    let Some(entries) = corpus::dxbc_entries("covered_bytes_give_the_computed_checksum_of_every_container_that_parses")
    else {
        return;
    };
    let (mut parsed, mut refused) = (0, 0);
    for (i, e) in entries.iter().enumerate() {
        let bytes = e.bytes();
        let mut variants = vec![bytes.clone()];
        for cut in [0, 4, 20, 27, 28, 31, 32, 33, bytes.len() / 2, bytes.len() - 1] {
            variants.push(bytes[..cut.min(bytes.len())].to_vec());
        }
        for total in [0u32, 31, 32, 33, bytes.len() as u32 - 4, bytes.len() as u32 + 1, u32::MAX] {
            let mut v = bytes.clone();
            v[24..28].copy_from_slice(&total.to_le_bytes());
            variants.push(v);
        }
        let mut trailing = bytes.clone();
        trailing.extend_from_slice(&[0x5a; 13][..1 + i % 13]);
        variants.push(trailing);
        for v in &variants {
            match Container::parse(v) {
                Ok(c) => {
                    let covered = checksum::covered(v).unwrap_or_else(|| panic!("{}: parsed, nothing covered", e.id()));
                    assert_eq!(checksum::checksum_of(covered), c.computed_checksum(), "{}", e.id());
                    parsed += 1;
                }
                Err(_) => refused += 1,
            }
        }
    }
    assert!(parsed >= entries.len() * 2 && refused > entries.len() * 10, "{parsed} parsed, {refused} refused");
}

/// The checksum computed a few blocks at a time (`Progress`) is `checksum_of`, for
/// every length around the padding's cases and every step size, stepped past the end.
#[test]
fn checksum_in_steps_is_the_checksum() {
    let data: Vec<u8> = (0..700u32).map(|i| (i.wrapping_mul(2_654_435_761) >> 13) as u8).collect();
    for len in (0..200).chain([255, 256, 257, 319, 320, 321, 699, 700]) {
        let bytes = &data[..len];
        let whole = dxbc::checksum_of(bytes);
        assert_eq!(dxbc::checksum::Progress::new(bytes).finish(), whole, "{len} bytes, no step");
        for step in [0, 1, 2, 3, 7, 64] {
            let mut p = dxbc::checksum::Progress::new(bytes);
            for _ in 0..(len / 64 + 3) {
                p.step(step);
            }
            assert_eq!(p.finish(), whole, "{len} bytes, steps of {step} blocks");
        }
    }
}
