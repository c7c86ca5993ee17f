//! Decoding allocates nothing per instruction: walking a program with [`tpf::Decoder`]
//! performs no heap allocation at all (each instruction is decoded into the decoder's
//! fixed buffers, data runs borrow the input).

mod common;
use common::shader_chunk;

#[global_allocator]
static GLOBAL: corpus::CountingAllocator = corpus::CountingAllocator;

#[test]
fn decoding_does_not_allocate() {
    let Some(entries) = corpus::dxbc_entries("decoding_does_not_allocate") else {
        return;
    };
    let blobs: Vec<Vec<u8>> = entries.iter().map(|e| e.bytes()).collect();
    let programs: Vec<&[u8]> = blobs.iter().map(|b| shader_chunk(b).unwrap()).collect();
    let mut instructions = 0usize;
    let before = corpus::allocations();
    for code in &programs {
        let mut decoder = tpf::Decoder::new(code).unwrap();
        while let Some(item) = decoder.next_instruction() {
            let (_, ins) = item.unwrap();
            instructions += std::hint::black_box(&ins).operands().len() + 1;
        }
    }
    let after = corpus::allocations();
    assert!(instructions > 10_000, "decoded {instructions} instructions and operands");
    assert_eq!(after - before, 0, "decoding allocated");
}
