//! Whole listings of the corpus blobs, best of N passes, dxref and the `d3dasm` crate
//! alternating in one run: for a machine shared with other work, where a median moves
//! with the load and the best pass is the steadier figure (criterion's
//! `benches/corpus.rs` gives the medians).
//!
//! ```text
//! taskset -c 1 cargo run --release -p dxref-benches --example listings_best_of [N]
//! cargo run --release -p dxref-benches --example listings_best_of -- single|batch [PASSES]
//! ```
//!
//! Each round times one pass of each, in turn: `listing::disassemble` one blob at a
//! time, `listing::disassemble_many` over the whole corpus in order, and every blob's
//! `d3dasm::Shader` printed whole into a `String` (as `disasm/d3dasm_listings`). It
//! prints each one's best pass in MB/s of blob bytes and the ratios to d3dasm. With
//! `single` or `batch` it runs only that path, PASSES times, untimed: the work to give
//! callgrind (`valgrind --tool=callgrind`).

use std::fmt::Write as _;
use std::hint::black_box;
use std::time::{Duration, Instant};

/// One pass over the blobs: the bytes of listing text made.
type Pass = fn(&[Vec<u8>]) -> usize;

fn single(blobs: &[Vec<u8>]) -> usize {
    let options = listing::Options::default();
    blobs.iter().map(|b| listing::disassemble(b, &options).unwrap().text.len()).sum()
}

fn batch(blobs: &[Vec<u8>]) -> usize {
    listing::disassemble_many(blobs, &listing::Options::default()).map(|l| l.unwrap().text.len()).sum()
}

fn d3dasm(blobs: &[Vec<u8>]) -> usize {
    let mut n = 0;
    for blob in blobs {
        let mut text = String::new();
        for shader in d3dasm::parse(blob) {
            write!(text, "{shader}").unwrap();
        }
        n += text.len();
    }
    n
}

fn main() {
    let entries = corpus::dxbc_entries("listings_best_of").expect("the corpus (../shared/corpus or $DXREF_CORPUS)");
    let blobs: Vec<Vec<u8>> = entries.iter().map(|e| e.bytes()).collect();
    let args: Vec<String> = std::env::args().skip(1).collect();
    if let Some(path @ ("single" | "batch")) = args.first().map(String::as_str) {
        let passes: usize = args.get(1).map_or(1, |n| n.parse().expect("a number of passes"));
        let run = if path == "single" { single } else { batch };
        let n: usize = (0..passes).map(|_| run(black_box(&blobs))).sum();
        println!("{n} bytes of listings");
        return;
    }
    let rounds: usize = args.first().map_or(100, |n| n.parse().expect("a number of rounds"));
    // The two paths give the same text.
    let options = listing::Options::default();
    for (b, l) in blobs.iter().zip(listing::disassemble_many(&blobs, &options)) {
        assert_eq!(l.unwrap().text, listing::disassemble(b, &options).unwrap().text);
    }
    let bytes: usize = blobs.iter().map(Vec::len).sum();
    let paths: [(&str, Pass); 3] =
        [("disasm/listings", single), ("disasm/listings_batch", batch), ("disasm/d3dasm_listings", d3dasm)];
    let mut best = [Duration::MAX; 3];
    for _ in 0..rounds {
        for ((_, run), best) in paths.iter().zip(&mut best) {
            let start = Instant::now();
            black_box(run(black_box(&blobs)));
            *best = (*best).min(start.elapsed());
        }
    }
    let mbps = |d: Duration| bytes as f64 / d.as_secs_f64() / 1e6;
    println!("{} blobs, {bytes} bytes, best of {rounds} rounds", blobs.len());
    for ((name, _), d) in paths.iter().zip(best) {
        println!(
            "{name:24} {:8.1} MB/s  {:7.3} ms  {:.2}x d3dasm",
            mbps(d),
            d.as_secs_f64() * 1e3,
            mbps(d) / mbps(best[2])
        );
    }
}
