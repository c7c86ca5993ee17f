//! Decoding allocates nothing per instruction: walking a program with [`tpf::Decoder`]
//! performs no heap allocation at all (operands are inline, data runs borrow the input).

mod common;
use common::shader_chunk;

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
    let Some(entries) = corpus::dxbc_entries("decoding_does_not_allocate") else {
        return;
    };
    let blobs: Vec<Vec<u8>> = entries.iter().map(|e| e.bytes()).collect();
    let programs: Vec<&[u8]> = blobs.iter().map(|b| shader_chunk(b).unwrap()).collect();
    let mut instructions = 0usize;
    let before = ALLOCATIONS.load(Ordering::Relaxed);
    for code in &programs {
        let decoder = tpf::Decoder::new(code).unwrap();
        for item in decoder {
            let (_, ins) = item.unwrap();
            instructions += std::hint::black_box(&ins).operands().len() + 1;
        }
    }
    let after = ALLOCATIONS.load(Ordering::Relaxed);
    assert!(instructions > 10_000, "decoded {instructions} instructions and operands");
    assert_eq!(after - before, 0, "decoding allocated");
}
