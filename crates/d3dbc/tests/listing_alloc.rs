//! `d3dbc::print::Printer` allocates nothing per instruction beyond the output
//! string's own growth: with the string's capacity reserved, printing every corpus
//! program (raw and Level9) makes no allocation.

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
fn printing_instructions_allocates_nothing() {
    let Some(entries) = corpus::entries("printing_instructions_allocates_nothing") else { return };
    let mut programs = Vec::new();
    for e in &entries {
        let bytes = e.bytes();
        if e.container == corpus::Container::D3dbc {
            programs.push(bytes);
        } else if e.is_level9() {
            let c = dxbc::Container::parse(&bytes).unwrap();
            let chunk = c.chunk(dxbc::FourCc(*b"Aon9")).unwrap();
            programs.push(dxbc::aon9::Aon9::parse(chunk.data).unwrap().program.to_vec());
        }
    }
    let mut n = 0;
    for bytes in &programs {
        let program = d3dbc::decode(bytes).unwrap();
        let mut out = String::with_capacity(1 << 16);
        let before = ALLOCATIONS.load(Ordering::Relaxed);
        let mut p = d3dbc::print::Printer::new(program.version);
        p.version_line(&mut out);
        for ins in program.instructions() {
            p.instruction(ins, &mut out);
            n += 1;
        }
        let after = ALLOCATIONS.load(Ordering::Relaxed);
        assert!(out.len() < 1 << 16);
        assert_eq!(after, before, "printing allocated");
    }
    println!("{n} instructions of {} programs printed without allocating", programs.len());
    assert!(n > 1000);
}
