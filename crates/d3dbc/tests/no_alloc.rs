//! Decoding allocates nothing per instruction: walking every corpus program with
//! [`d3dbc::Decoder`] performs no heap allocation at all (parameters are inline, comment
//! blocks borrow the input).

mod common;

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};

struct Counting;
static ALLOCATIONS: AtomicUsize = AtomicUsize::new(0);

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

#[test]
fn decoding_does_not_allocate() {
    let Some(programs) = common::programs("decoding_does_not_allocate") else { return };
    let mut ins = d3dbc::Instruction::new(d3dbc::Opcode::Nop);
    let mut seen = 0usize;
    let before = ALLOCATIONS.load(Ordering::Relaxed);
    for p in &programs {
        let mut dec = d3dbc::Decoder::new(&p.bytes).unwrap();
        while let Some(step) = dec.next_into(&mut ins) {
            let step = step.unwrap();
            seen += std::hint::black_box(&ins).srcs.len() + 1;
            std::hint::black_box(step);
        }
    }
    let after = ALLOCATIONS.load(Ordering::Relaxed);
    assert!(seen > 4_000, "decoded {seen} instructions and sources");
    assert_eq!(after - before, 0, "decoding allocated");
}
