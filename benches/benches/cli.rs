//! The batch validate path of the `dxref` command, in files per second: `dxref validate
//! -r DUMP --jsonl` (walking the tree, reading each file, validating it, one JSON line
//! per input, written to `/dev/null`) over a generated dump of 100,000 blobs, on one
//! core (a thread pool of one worker: `-j 1`) and on all cores (`-j 0`, one worker per
//! core).
//!
//! The dump is made at the start in a temporary folder (about 350 MB, removed at the
//! end): the corpus's DXBC containers in turn, each copy given a private chunk holding
//! its number and re-checksummed, so that no two files are the same, in 100 folders of
//! 1,000 files. Without the corpus the benchmark is skipped.

use std::ffi::OsString;
use std::path::{Path, PathBuf};

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use dxref::batch::{self, Mode};
use dxref::check::{Options, Validate};

const BLOBS: usize = 100_000;

/// Writes the dump into `dir`; returns the number of files.
fn generate(dir: &Path, entries: &[corpus::Entry]) -> usize {
    let blobs: Vec<Vec<u8>> =
        entries.iter().filter(|e| e.container == corpus::Container::Dxbc).map(|e| e.bytes()).collect();
    assert!(!blobs.is_empty(), "no DXBC container in the corpus");
    for k in 0..BLOBS {
        let original = &blobs[k % blobs.len()];
        let container = dxbc::Container::parse(original).expect("corpus container");
        let mut builder = container.to_builder();
        builder.push(dxbc::FourCc(*b"XDXR"), (k as u32).to_le_bytes().to_vec());
        let bytes = builder.build().expect("rebuilt container");
        let folder = dir.join(format!("{:03}", k / 1000));
        if k % 1000 == 0 {
            std::fs::create_dir_all(&folder).unwrap();
        }
        std::fs::write(folder.join(format!("{k:06}.bin")), bytes).unwrap();
    }
    BLOBS
}

fn options() -> Options {
    Options {
        stage: None,
        api: None,
        feature_level: None,
        runtime: None,
        uav_all_stages: None,
        no_doubles: false,
        so: None,
        so_json: None,
        so_strides: None,
        so_rasterized: None,
        caps: None,
    }
}

/// One run of `dxref validate -r DIR --jsonl -o /dev/null -j JOBS`.
fn validate_dump(dir: &Path, jobs: usize) {
    let plan = batch::Plan::new(
        batch::Args {
            paths: vec![OsString::from(dir)],
            recursive: true,
            ext: "bin".into(),
            output: Some(OsString::from("/dev/null")),
            out_dir: None,
            jobs,
            progress: Some(false),
        },
        Mode::Jsonl,
    )
    .expect("plan");
    assert_eq!(plan.inputs.len(), BLOBS);
    let command = Validate { options: options(), var: None };
    // Status 1: the corpus's Shader Model 5.1 shaders are refused for Direct3D 11.
    match batch::run(&command, plan) {
        Ok(()) => {}
        Err(f) => assert_eq!(f.status, dxref::status::REFUSED, "{}", f.message),
    }
}

fn bench(c: &mut Criterion) {
    let Some(entries) = corpus::entries("cli batch validate") else {
        eprintln!("SKIP cli: no corpus");
        return;
    };
    let dir: PathBuf = std::env::temp_dir().join(format!("dxref-bench-cli-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let files = generate(&dir, &entries);
    // The copies validate as their originals do (the private chunk changes nothing).
    let copy = std::fs::read(dir.join("000/000000.bin")).unwrap();
    let original = entries.iter().find(|e| e.container == corpus::Container::Dxbc).unwrap().bytes();
    let target = validate::Target::default();
    assert_eq!(
        validate::validate(&copy, &target).is_valid(),
        validate::validate(&original, &target).is_valid(),
        "a copy is judged as its original"
    );

    let mut group = c.benchmark_group("cli_batch_validate");
    group.sample_size(10);
    group.throughput(Throughput::Elements(files as u64));
    group.bench_function("one_core", |b| b.iter(|| validate_dump(&dir, 1)));
    group.bench_function("all_cores", |b| b.iter(|| validate_dump(&dir, 0)));
    group.finish();
    let _ = std::fs::remove_dir_all(&dir);
}

criterion_group!(benches, bench);
criterion_main!(benches);
