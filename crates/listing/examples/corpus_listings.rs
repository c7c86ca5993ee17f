//! Every corpus blob's listing through [`listing::disassemble`], one blob at a time,
//! PASSES times (default 1): the work of the `disasm/listings` benchmark with nothing
//! else linked in, for `valgrind --tool=callgrind` (instruction counts are steady on a
//! loaded machine where times are not).
//!
//! ```text
//! cargo build --release -p dxref-listing --example corpus_listings
//! valgrind --tool=callgrind target/release/examples/corpus_listings [PASSES]
//! ```

fn main() {
    let entries = corpus::dxbc_entries("corpus_listings").expect("the corpus (../shared/corpus or $DXREF_CORPUS)");
    let blobs: Vec<Vec<u8>> = entries.iter().map(|e| e.bytes()).collect();
    let passes: usize = std::env::args().nth(1).map_or(1, |n| n.parse().expect("a number of passes"));
    let options = listing::Options::default();
    let mut n = 0usize;
    for _ in 0..passes {
        for blob in std::hint::black_box(&blobs) {
            n += listing::disassemble(blob, &options).expect("a corpus blob's listing").text.len();
        }
    }
    println!("{} blobs, {n} bytes of listings", blobs.len());
}
