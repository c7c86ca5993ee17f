//! Every corpus program chunk (SHDR/SHEX) decoded PASSES times (default 1), one way:
//! `stream` through [`tpf::Decoder`] one instruction at a time (the work of the
//! `decode/programs` benchmark), `ir` through [`tpf::decode`] into a [`tpf::Program`]
//! (`decode/ir`), with nothing else linked in, for `valgrind --tool=callgrind`
//! (instruction counts are steady on a loaded machine where times are not). Each way
//! runs in its own function, so that callgrind can count it alone, without loading the
//! corpus; `stats` prints the arenas' sizes.
//!
//! ```text
//! cargo build --release -p dxref-tpf --example corpus_decode
//! valgrind --tool=callgrind --toggle-collect='corpus_decode::run_*' \
//!     target/release/examples/corpus_decode stream 5
//! valgrind --tool=callgrind --toggle-collect='corpus_decode::run_*' \
//!     target/release/examples/corpus_decode ir 5
//! ```

use std::hint::black_box;

/// The `decode/programs` benchmark's work.
#[inline(never)]
fn run_stream(programs: &[&[u8]], passes: usize) -> usize {
    let mut n = 0usize;
    for _ in 0..passes {
        for p in black_box(programs) {
            let mut decoder = tpf::Decoder::new(p).expect("a program header");
            while let Some(r) = decoder.next_instruction() {
                let (_, ins) = r.expect("a corpus instruction");
                n += black_box(&ins).operands().len();
            }
        }
    }
    n
}

/// The `decode/ir` benchmark's work.
#[inline(never)]
fn run_ir(programs: &[&[u8]], passes: usize) -> usize {
    let mut n = 0usize;
    for _ in 0..passes {
        for p in black_box(programs) {
            n += black_box(tpf::decode(p).expect("a corpus program")).instructions.len();
        }
    }
    n
}

fn stats(programs: &[&[u8]]) {
    let mut counts = [0usize; 6];
    for p in programs {
        let program = tpf::decode(p).expect("a corpus program");
        counts[0] += program.instructions.len();
        counts[1] += program.instructions.capacity();
        counts[2] += program.operands.len();
        counts[3] += program.operands.capacity();
        counts[4] += program.extended.len();
        counts[5] += program.words.len();
    }
    println!(
        "instructions {} (capacity {}), operands {} (capacity {}), extended {}, words {}",
        counts[0], counts[1], counts[2], counts[3], counts[4], counts[5]
    );
    println!(
        "size_of: Instruction {}, Body {}, Decl {}, Op {}, Operand {}, ExtOpcode {}, Words {}",
        std::mem::size_of::<tpf::Instruction>(),
        std::mem::size_of::<tpf::Body>(),
        std::mem::size_of::<tpf::Decl>(),
        std::mem::size_of::<tpf::Op>(),
        std::mem::size_of::<tpf::Operand>(),
        std::mem::size_of::<tpf::ExtOpcode>(),
        std::mem::size_of::<tpf::Words<'_>>(),
    );
}

fn main() {
    let mut args = std::env::args().skip(1);
    let way = args.next().unwrap_or_else(|| "ir".to_owned());
    let passes: usize = args.next().map_or(1, |n| n.parse().expect("a number of passes"));
    let entries = corpus::dxbc_entries("corpus_decode").expect("the corpus (../shared/corpus or $DXREF_CORPUS)");
    let blobs: Vec<Vec<u8>> = entries.iter().map(|e| e.bytes()).collect();
    let programs: Vec<&[u8]> = blobs
        .iter()
        .map(|b| {
            let c = dxbc::Container::parse(b).expect("a corpus container");
            c.chunk_any(&[dxbc::FourCc::SHEX, dxbc::FourCc::SHDR]).expect("a program chunk").data
        })
        .collect();
    let bytes: usize = programs.iter().map(|p| p.len()).sum();
    let n = match way.as_str() {
        "stream" => run_stream(&programs, passes),
        "ir" => run_ir(&programs, passes),
        "stats" => {
            stats(&programs);
            0
        }
        other => panic!("unknown way {other:?} (stream, ir or stats)"),
    };
    println!("{} programs, {bytes} bytes of programs, {passes} passes of {way}: {n}", programs.len());
}
