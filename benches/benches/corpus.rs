//! Decode and disassembly throughput over the whole fxc corpus, in bytes of bytecode
//! per second.
//!
//! - `decode/programs`: every SHDR/SHEX chunk through `tpf::Decoder`, one instruction
//!   at a time in the decoder's own buffers (MB/s of program bytes);
//! - `decode/ir`: every program chunk through `tpf::decode` into a `tpf::Program`;
//! - `decode/containers`: every blob through `dxbc::Container::parse` plus the program decode;
//! - `disasm/listings`: every blob through `listing::disassemble`, header, checksum check
//!   and slot line included (MB/s of blob bytes);
//! - `disasm/listings_batch`: the same blobs, in corpus order, through
//!   `listing::disassemble_many` (the same listings, the checksums computed several at a
//!   time in vector lanes);
//!
//! and, in the same run, the peer: the `d3dasm` crate (MIT) on the same bytes:
//!
//! - `decode/d3dasm_ir`: every program chunk through `d3dasm::dxbc::shex::decode` (its
//!   only decoder builds the whole program);
//! - `decode/d3dasm_containers`: every blob through `d3dasm::parse` and its program;
//! - `disasm/d3dasm_listings`: every blob's `d3dasm::Shader` printed whole (its `Display`:
//!   header tables, program, statistics) into one `String`.
//!
//! `tools/bench-report.py` runs these and writes the README's table of ratios.
//! - `asm/listings`: every listing through `listing::asm::assemble` (MB/s of listing text);
//! - `asm/programs`: the program parts through `tpf::parse::parse_program`;
//! - `validate/containers`: every blob through `validate::validate` for its own stage
//!   (feature level 11_1, runtime 11.1; SM5.1 blobs with the Direct3D 12 rules), MB/s
//!   of blob bytes.
//!
//! The corpus is read from `$DXREF_CORPUS` or `../shared/corpus`; without it the
//! benchmarks are skipped with a message.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use std::fmt::Write as _;
use std::hint::black_box;

fn corpus_blobs() -> Option<Vec<Vec<u8>>> {
    let entries = corpus::dxbc_entries("benchmarks")?;
    Some(entries.iter().map(|e| e.bytes()).collect())
}

fn program(blob: &[u8]) -> &[u8] {
    let c = dxbc::Container::parse(blob).unwrap();
    c.chunk_any(&[dxbc::FourCc::SHEX, dxbc::FourCc::SHDR]).unwrap().data
}

/// The peer must read every blob the benchmarks time, or its figures would be for less
/// work: one container per blob, with its program, decoded without error.
fn check_peer(blobs: &[Vec<u8>], programs: &[&[u8]]) {
    for (blob, p) in blobs.iter().zip(programs) {
        let shaders = d3dasm::parse(blob);
        assert_eq!(shaders.len(), 1, "d3dasm found {} containers in one blob", shaders.len());
        assert!(shaders[0].program().is_some(), "d3dasm did not decode a corpus program");
        if let Err(e) = d3dasm::dxbc::shex::decode(p) {
            panic!("d3dasm could not decode a corpus program: {e}");
        }
    }
}

fn benches(c: &mut Criterion) {
    let Some(blobs) = corpus_blobs() else { return };
    let programs: Vec<&[u8]> = blobs.iter().map(|b| program(b)).collect();
    check_peer(&blobs, &programs);
    let program_bytes: usize = programs.iter().map(|p| p.len()).sum();
    let blob_bytes: usize = blobs.iter().map(|b| b.len()).sum();

    let mut g = c.benchmark_group("decode");
    g.throughput(Throughput::Bytes(program_bytes as u64));
    g.bench_function("programs", |b| {
        b.iter(|| {
            let mut n = 0usize;
            for p in &programs {
                let mut decoder = tpf::Decoder::new(p).unwrap();
                while let Some(r) = decoder.next_instruction() {
                    let (_, ins) = r.unwrap();
                    n += black_box(&ins).operands().len();
                }
            }
            n
        })
    });
    g.bench_function("ir", |b| {
        b.iter(|| {
            let mut n = 0usize;
            for p in &programs {
                n += black_box(tpf::decode(p).unwrap()).instructions.len();
            }
            n
        })
    });
    g.bench_function("d3dasm_ir", |b| {
        b.iter(|| {
            let mut n = 0usize;
            for p in &programs {
                n += black_box(d3dasm::dxbc::shex::decode(p).unwrap()).instructions.len();
            }
            n
        })
    });
    g.throughput(Throughput::Bytes(blob_bytes as u64));
    g.bench_function("containers", |b| {
        b.iter(|| {
            let mut n = 0usize;
            for blob in &blobs {
                let c = dxbc::Container::parse(blob).unwrap();
                let chunk = c.chunk_any(&[dxbc::FourCc::SHEX, dxbc::FourCc::SHDR]).unwrap();
                n += tpf::decode(chunk.data).unwrap().instructions.len();
            }
            n
        })
    });
    g.bench_function("d3dasm_containers", |b| {
        b.iter(|| {
            let mut n = 0usize;
            for blob in &blobs {
                let shaders = d3dasm::parse(blob);
                n += shaders[0].program().unwrap().instructions.len();
            }
            n
        })
    });
    g.finish();

    let mut g = c.benchmark_group("disasm");
    g.throughput(Throughput::Bytes(blob_bytes as u64));
    g.bench_function("listings", |b| {
        b.iter(|| {
            let mut n = 0usize;
            for blob in &blobs {
                n += listing::disassemble(blob, &listing::Options::default()).unwrap().text.len();
            }
            n
        })
    });
    g.bench_function("listings_batch", |b| {
        b.iter(|| {
            let mut n = 0usize;
            for listing in listing::disassemble_many(&blobs, &listing::Options::default()) {
                n += listing.unwrap().text.len();
            }
            n
        })
    });
    g.bench_function("d3dasm_listings", |b| {
        b.iter(|| {
            let mut n = 0usize;
            for blob in &blobs {
                let mut text = String::new();
                for shader in d3dasm::parse(blob) {
                    write!(text, "{shader}").unwrap();
                }
                n += text.len();
            }
            n
        })
    });
    g.finish();
}

/// Assembly throughput: every corpus listing through `listing::asm::assemble` (MB/s of
/// listing text), and the program parser alone.
fn assembly(c: &mut Criterion) {
    let Some(entries) = corpus::dxbc_entries("benchmarks") else { return };
    let listings: Vec<String> = entries.iter().map(|e| e.listing()).collect();
    let bytes: usize = listings.iter().map(|l| l.len()).sum();
    let mut g = c.benchmark_group("asm");
    g.throughput(Throughput::Bytes(bytes as u64));
    g.bench_function("listings", |b| {
        b.iter(|| {
            let mut n = 0usize;
            for l in &listings {
                n += listing::asm::assemble(l, &listing::asm::AsmOptions::default()).unwrap().bytes.len();
            }
            n
        })
    });
    let programs: Vec<&str> = listings.iter().map(|l| listing::asm::split_listing(l).1).collect();
    let program_bytes: usize = programs.iter().map(|p| p.len()).sum();
    g.throughput(Throughput::Bytes(program_bytes as u64));
    g.bench_function("programs", |b| {
        b.iter(|| {
            let mut n = 0usize;
            for p in &programs {
                n += tpf::parse::parse_program(p).unwrap().program.instructions.len();
            }
            n
        })
    });
    g.finish();
}

/// Create-time validation throughput.
fn validation(c: &mut Criterion) {
    let Some(blobs) = corpus_blobs() else { return };
    let bytes: usize = blobs.iter().map(|b| b.len()).sum();
    let targets: Vec<validate::Target> = blobs
        .iter()
        .map(|b| {
            let model = tpf::Decoder::new(program(b)).unwrap().version();
            if model.is_sm51() {
                validate::Target::d3d12()
            } else {
                validate::Target::default()
            }
        })
        .collect();
    let mut g = c.benchmark_group("validate");
    g.throughput(Throughput::Bytes(bytes as u64));
    g.bench_function("containers", |b| {
        b.iter(|| {
            let mut n = 0usize;
            for (blob, target) in blobs.iter().zip(&targets) {
                let report = validate::validate(blob, target);
                assert!(report.is_valid());
                n += report.facts.map_or(0, |f| f.instruction_count);
            }
            n
        })
    });
    g.finish();
}

criterion_group!(corpus_benches, benches, assembly, validation);
criterion_main!(corpus_benches);
