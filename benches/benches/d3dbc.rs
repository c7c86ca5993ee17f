//! Shader Model 1–3 (d3dbc) throughput over the corpus, in bytes per second.
//!
//! The programs are the 21 raw d3dbc blobs and the Shader Model 2 program inside the
//! `Aon9` chunk of each of the 129 Level9 blobs.
//!
//! - `d3dbc-decode/programs`: every program through `d3dbc::Decoder::next_into` (MB/s
//!   of program bytes);
//! - `d3dbc-decode/encode`: every decoded program back to tokens with `d3dbc::encode`;
//! - `d3dbc-disasm/raw-listings`: the 21 raw blobs through `d3dbc::print::listing`
//!   (MB/s of blob bytes);
//! - `d3dbc-disasm/programs`: every program's instructions through the printer;
//! - `d3dbc-asm/programs`: the program text of every listing (the raw listings and the
//!   Level9 parts) through `d3dbc::parse::parse_program` (MB/s of text).
//!
//! The corpus is read from `$DXREF_CORPUS` or `../shared/corpus`; without it the
//! benchmarks are skipped with a message.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use std::hint::black_box;

struct Programs {
    /// Raw d3dbc blobs (whole files).
    raw: Vec<Vec<u8>>,
    /// Every program: the raw blobs and the Aon9 programs.
    programs: Vec<Vec<u8>>,
    /// The program text of every listing (raw listings; Level9 parts).
    texts: Vec<String>,
}

fn load() -> Option<Programs> {
    let entries = corpus::entries("d3dbc benchmarks")?;
    let mut p = Programs { raw: Vec::new(), programs: Vec::new(), texts: Vec::new() };
    for e in &entries {
        let bytes = e.bytes();
        let listing = e.listing();
        match e.container {
            corpus::Container::D3dbc => {
                p.raw.push(bytes.clone());
                p.programs.push(bytes);
                p.texts.push(listing);
            }
            corpus::Container::Dxbc if e.is_level9() => {
                let c = dxbc::Container::parse(&bytes).ok()?;
                let chunk = c.chunk(dxbc::FourCc::AON9)?;
                p.programs.push(dxbc::Aon9::parse(chunk.data).ok()?.program.to_vec());
                // The Level9 part: from the line after the bytecode title to the SM4 version line.
                let start = listing.find("// Level9 shader bytecode:")?;
                let part = &listing[start..];
                let end = part.lines().position(|l| l.starts_with("vs_4_0") || l.starts_with("ps_4_0"))?;
                p.texts.push(part.lines().skip(2).take(end - 2).collect::<Vec<_>>().join("\n"));
            }
            corpus::Container::Dxbc => {}
        }
    }
    Some(p)
}

fn benches(c: &mut Criterion) {
    let Some(p) = load() else { return };
    let program_bytes: usize = p.programs.iter().map(|b| b.len()).sum();
    let raw_bytes: usize = p.raw.iter().map(|b| b.len()).sum();
    let text_bytes: usize = p.texts.iter().map(|t| t.len()).sum();

    let mut g = c.benchmark_group("d3dbc-decode");
    g.throughput(Throughput::Bytes(program_bytes as u64));
    g.bench_function("programs", |b| {
        b.iter(|| {
            let mut n = 0usize;
            let mut ins = d3dbc::Instruction::new(d3dbc::Opcode::Nop);
            for bytes in &p.programs {
                let mut decoder = d3dbc::Decoder::new(bytes).unwrap();
                while let Some(step) = decoder.next_into(&mut ins) {
                    step.unwrap();
                    n += black_box(&ins).srcs.len();
                }
            }
            n
        })
    });
    let decoded: Vec<d3dbc::Program> = p.programs.iter().map(|b| d3dbc::decode(b).unwrap()).collect();
    g.bench_function("encode", |b| {
        b.iter(|| {
            let mut n = 0usize;
            let mut out = Vec::with_capacity(64 * 1024);
            for prog in &decoded {
                out.clear();
                d3dbc::encode_into(prog, &mut out).unwrap();
                n += out.len();
            }
            n
        })
    });
    g.finish();

    let mut g = c.benchmark_group("d3dbc-disasm");
    g.throughput(Throughput::Bytes(raw_bytes as u64));
    g.bench_function("raw-listings", |b| {
        b.iter(|| {
            let mut n = 0usize;
            for bytes in &p.raw {
                n += d3dbc::print::listing(bytes).unwrap().len();
            }
            n
        })
    });
    g.throughput(Throughput::Bytes(program_bytes as u64));
    g.bench_function("programs", |b| {
        b.iter(|| {
            let mut n = 0usize;
            for prog in &decoded {
                n += d3dbc::print::print_program(prog).len();
            }
            n
        })
    });
    g.finish();

    let mut g = c.benchmark_group("d3dbc-asm");
    g.throughput(Throughput::Bytes(text_bytes as u64));
    g.bench_function("programs", |b| {
        b.iter(|| {
            let mut n = 0usize;
            for t in &p.texts {
                n += d3dbc::parse::parse_program(t).unwrap().program.items.len();
            }
            n
        })
    });
    g.finish();
}

criterion_group!(d3dbc_benches, benches);
criterion_main!(d3dbc_benches);
