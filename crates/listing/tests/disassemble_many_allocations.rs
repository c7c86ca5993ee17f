//! `listing::disassemble_many` allocates no more per blob than the listing itself: a test
//! alone in its binary, as the allocation count is the whole process's.

use listing::{disassemble, disassemble_many, Options};

#[global_allocator]
static GLOBAL: corpus::CountingAllocator = corpus::CountingAllocator;

/// The batch allocates what listing each blob alone allocates, and a few buffers per
/// window of blobs: far less than one more allocation per blob.
#[test]
fn no_allocation_per_blob_beyond_the_listing() {
    let Some(entries) = corpus::dxbc_entries("no_allocation_per_blob_beyond_the_listing") else {
        return;
    };
    let blobs: Vec<Vec<u8>> = entries.iter().map(|e| e.bytes()).collect();
    let options = Options::default();
    let before = corpus::allocations();
    for b in &blobs {
        drop(std::hint::black_box(disassemble(b, &options)));
    }
    let alone = corpus::allocations() - before;
    let before = corpus::allocations();
    for r in disassemble_many(&blobs, &options) {
        drop(std::hint::black_box(r));
    }
    let batched = corpus::allocations() - before;
    assert!(
        batched <= alone + blobs.len() / 8,
        "{batched} allocations in the batch, {alone} one at a time, for {} blobs",
        blobs.len()
    );
}
