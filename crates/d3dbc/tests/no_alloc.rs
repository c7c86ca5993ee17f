//! Decoding allocates nothing per instruction: walking every corpus program with
//! [`d3dbc::Decoder`] performs no heap allocation at all (parameters are inline, comment
//! blocks borrow the input).

mod common;

#[global_allocator]
static GLOBAL: corpus::CountingAllocator = corpus::CountingAllocator;

#[test]
fn decoding_does_not_allocate() {
    let Some(programs) = common::programs("decoding_does_not_allocate") else { return };
    let mut ins = d3dbc::Instruction::new(d3dbc::Opcode::Nop);
    let mut seen = 0usize;
    let before = corpus::allocations();
    for p in &programs {
        let mut dec = d3dbc::Decoder::new(&p.bytes).unwrap();
        while let Some(step) = dec.next_into(&mut ins) {
            let step = step.unwrap();
            seen += std::hint::black_box(&ins).srcs.len() + 1;
            std::hint::black_box(step);
        }
    }
    let after = corpus::allocations();
    assert!(seen > 4_000, "decoded {seen} instructions and sources");
    assert_eq!(after - before, 0, "decoding allocated");
}
