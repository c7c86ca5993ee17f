//! `listing::disassemble_many` gives, blob for blob, what `listing::disassemble` gives:
//! the same text, the same warnings (a wrong checksum's stored and computed values
//! among them) and the same errors, each for its own blob, whatever the blobs around it.
//! On the whole corpus with damaged blobs mixed in (wrong checksums, changed bodies, cut
//! short, wrong total sizes, trailing bytes, raw Shader Model 1-3 streams, bytes that are
//! no shader), with every checksum kernel; and on random batches (proptest). Its
//! allocations are counted in `disassemble_many_allocations.rs`.

use dxbc::checksum::Kernel;
use listing::{disassemble, disassemble_many, Error, Listing, Options, Warning};
use proptest::prelude::*;

/// What a result says, in a form that compares.
type Outcome = Result<(String, Vec<Warning>), Error>;

fn outcome(r: Result<Listing, Error>) -> Outcome {
    r.map(|l| (l.text, l.warnings))
}

/// Every corpus blob (SM4/5 and Level9 containers, raw SM1-3 streams), and for each
/// container a few damaged copies, interleaved so that good and bad blobs share windows.
fn mixed_blobs(entries: &[corpus::Entry]) -> Vec<Vec<u8>> {
    let mut rng = corpus::Rng(0x6261_7463_685f_6c73);
    let mut blobs = Vec::new();
    for (i, e) in entries.iter().enumerate() {
        let bytes = e.bytes();
        blobs.push(bytes.clone());
        if e.container != corpus::Container::Dxbc {
            continue;
        }
        match i % 6 {
            0 => {
                let mut bad_sum = bytes.clone();
                bad_sum[4 + rng.below(16)] ^= 1 << rng.below(8);
                blobs.push(bad_sum);
            }
            1 => {
                // Inside the last chunk: the container still parses, its checksum is wrong.
                let mut bad_body = bytes.clone();
                let at = bytes.len() - 1 - rng.below(16);
                bad_body[at] ^= 0x20;
                blobs.push(bad_body);
            }
            2 => blobs.push(bytes[..rng.below(bytes.len())].to_vec()),
            3 => {
                let mut total = bytes.clone();
                let size = [0u32, 31, 32, bytes.len() as u32 - 4, bytes.len() as u32 + 4][rng.below(5)];
                total[24..28].copy_from_slice(&size.to_le_bytes());
                blobs.push(total);
            }
            4 => {
                let mut trailing = bytes.clone();
                trailing.extend_from_slice(b"trailing bytes");
                blobs.push(trailing);
            }
            _ => {
                // A byte anywhere: the header, the directory, a chunk.
                let mut changed = bytes.clone();
                let at = rng.below(bytes.len());
                changed[at] = changed[at].wrapping_add(1 + rng.below(255) as u8);
                blobs.push(changed);
            }
        }
        if i % 50 == 7 {
            blobs.extend([Vec::new(), b"DXBC".to_vec(), b"not a shader at all".to_vec()]);
        }
    }
    blobs
}

#[test]
fn batch_equals_one_at_a_time_on_the_corpus_with_damaged_blobs() {
    let Some(entries) = corpus::entries("batch_equals_one_at_a_time_on_the_corpus_with_damaged_blobs") else {
        return;
    };
    let blobs = mixed_blobs(&entries);
    let options = Options::default();
    let want: Vec<Outcome> = blobs.iter().map(|b| outcome(disassemble(b, &options))).collect();
    // The mix holds every kind of outcome the batch must keep apart.
    let bad_sums = want
        .iter()
        .filter(|o| matches!(o, Ok((_, w)) if w.iter().any(|w| matches!(w, Warning::BadChecksum { .. }))))
        .count();
    let errors = want.iter().filter(|o| o.is_err()).count();
    let good = want.iter().filter(|o| matches!(o, Ok((_, w)) if w.is_empty())).count();
    assert!(
        bad_sums > 100 && errors > 100 && good > entries.len(),
        "{bad_sums} bad sums, {errors} errors, {good} clean"
    );

    let batch = disassemble_many(&blobs, &options);
    assert_eq!(batch.len(), blobs.len());
    let got: Vec<Outcome> = batch.map(outcome).collect();
    compare(&want, &got, "best kernel");
    for kernel in Kernel::ALL {
        let got: Vec<Outcome> = disassemble_many(&blobs, &options).kernel(kernel).map(outcome).collect();
        compare(&want, &got, &format!("{kernel:?}"));
    }
    // Slices of blobs and vectors of them are both taken.
    let refs: Vec<&[u8]> = blobs.iter().map(Vec::as_slice).collect();
    let got: Vec<Outcome> = disassemble_many(&refs[..7], &options).map(outcome).collect();
    compare(&want[..7], &got, "slices");
}

fn compare(want: &[Outcome], got: &[Outcome], what: &str) {
    assert_eq!(got.len(), want.len(), "{what}: one result per blob");
    for (i, (w, g)) in want.iter().zip(got).enumerate() {
        assert!(w == g, "{what}: blob {i} differs:\none at a time: {w:?}\nbatch: {g:?}");
    }
}

#[test]
fn every_option_is_followed() {
    let Some(entries) = corpus::dxbc_entries("every_option_is_followed") else {
        return;
    };
    let blobs: Vec<Vec<u8>> = entries.iter().step_by(5).map(|e| e.bytes()).collect();
    for options in [
        Options { exact_floats: true, hex_literals: true, ..Options::default() },
        Options { number_instructions: true, byte_offsets: true, ..Options::default() },
        Options {
            style: Some(listing::Style::D3DCOMPILER_46),
            generated_by: Some(listing::header::DISASSEMBLER),
            ..Options::default()
        },
    ] {
        let want: Vec<Outcome> = blobs.iter().map(|b| outcome(disassemble(b, &options))).collect();
        let got: Vec<Outcome> = disassemble_many(&blobs, &options).map(outcome).collect();
        compare(&want, &got, &format!("{options:?}"));
    }
}

#[test]
fn the_iterator_counts_down_and_stays_done() {
    let blobs: [&[u8]; 3] = [b"one", b"two", b"three"];
    let mut batch = disassemble_many(&blobs, &Options::default());
    assert_eq!(batch.size_hint(), (3, Some(3)));
    assert!(batch.next().is_some_and(|r| r.is_err()));
    assert_eq!(batch.len(), 2);
    assert_eq!(batch.by_ref().count(), 2);
    assert!(batch.next().is_none() && batch.next().is_none());
    let none: [Vec<u8>; 0] = [];
    assert_eq!(disassemble_many(&none, &Options::default()).count(), 0);
}

/// A pool of blobs for the random batches: every tenth corpus entry, and each damaged.
fn pool() -> Option<&'static [Vec<u8>]> {
    static POOL: std::sync::OnceLock<Option<Vec<Vec<u8>>>> = std::sync::OnceLock::new();
    POOL.get_or_init(|| {
        let entries = corpus::entries("random_batches_equal_one_at_a_time")?;
        let some: Vec<corpus::Entry> = entries.into_iter().step_by(10).collect();
        Some(mixed_blobs(&some))
    })
    .as_deref()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    /// Random batches from the pool, blobs repeated and in any order, some cut or with a
    /// byte changed on the way: each result is the blob's own.
    #[test]
    fn random_batches_equal_one_at_a_time(
        picks in proptest::collection::vec((any::<prop::sample::Index>(), 0u8..8, any::<u16>()), 0..150),
        numbering in any::<bool>(),
    ) {
        let Some(pool) = pool() else { return Ok(()) };
        let blobs: Vec<Vec<u8>> = picks
            .iter()
            .map(|(pick, change, at)| {
                let mut b = pool[pick.index(pool.len())].clone();
                let at = usize::from(*at) % b.len().max(1);
                match change {
                    0 => b.truncate(at),
                    1 if !b.is_empty() => b[at] ^= 0x10,
                    _ => {}
                }
                b
            })
            .collect();
        let options = Options { number_instructions: numbering, ..Options::default() };
        let want: Vec<Outcome> = blobs.iter().map(|b| outcome(disassemble(b, &options))).collect();
        let got: Vec<Outcome> = disassemble_many(&blobs, &options).map(outcome).collect();
        prop_assert_eq!(got.len(), want.len());
        for (i, (w, g)) in want.iter().zip(&got).enumerate() {
            prop_assert!(w == g, "blob {} of {}: {:?} / {:?}", i, blobs.len(), w, g);
        }
    }
}
