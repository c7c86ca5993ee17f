//! dxref's Microsoft oracle generator (docs/ORACLE.md). Never run by CI.
//!
//!   cargo run --release --manifest-path tools/oracle/Cargo.toml -- hlsl [--per-profile N] [--seed S] [--only PROFILE]
//!   cargo run --release --manifest-path tools/oracle/Cargo.toml -- tokens
//!   cargo run --release --manifest-path tools/oracle/Cargo.toml -- asm [grammar|rules]
//!
//! Each command asks Microsoft's d3dcompiler_47.dll (under wine, set up by
//! tools/oracle/setup.sh) about inputs generated here, and writes the answers as
//! archives under crates/listing/tests/oracle/ (the assembler's under
//! crates/d3dbc/tests/asm-oracle/), with their record counts pinned in that folder's
//! MANIFEST.tsv.

mod asm_grammar;
mod asm_rules;
mod hlsl;
mod tokens;
mod wine;

use corpus::oracle::{Record, Text, DISASM_HEX, DISASM_NUMBERING, DISASM_OFFSETS};
use std::collections::{BTreeMap, HashSet};
use std::path::{Path, PathBuf};

/// The disassembly flag sets every blob is listed under: default, instruction
/// numbering (/Ni), byte offsets (/No), hex literals (/Lx).
const DIS: [u32; 4] = [0, DISASM_NUMBERING, DISASM_OFFSETS, DISASM_HEX];

// D3DCompile's Flags1 (d3dcompiler.h).
const DEBUG: u32 = 1 << 0;
const SKIP_OPTIMIZATION: u32 = 1 << 2;
const PACK_MATRIX_ROW_MAJOR: u32 = 1 << 3;
const PARTIAL_PRECISION: u32 = 1 << 5;
const AVOID_FLOW_CONTROL: u32 = 1 << 9;
const PREFER_FLOW_CONTROL: u32 = 1 << 10;
const ENABLE_STRICTNESS: u32 = 1 << 11;
const ENABLE_BACKWARDS_COMPATIBILITY: u32 = 1 << 12;
const IEEE_STRICTNESS: u32 = 1 << 13;
const OPTIMIZATION_LEVEL0: u32 = 1 << 14;
const OPTIMIZATION_LEVEL3: u32 = 1 << 15;
const OPTIMIZATION_LEVEL2: u32 = (1 << 14) | (1 << 15);

// D3DStripShader's flags.
const STRIP_REFLECTION: u32 = 1;
const STRIP_DEBUG: u32 = 2;

/// The compile flags of the `i`-th program: a spread over optimisation levels, flow
/// control preferences (/Gfa, /Gfp), /Gec, /Gis, /Ges, /Gpp, /Zpr and /Zi, and which
/// parts are stripped afterwards.
fn flags_for(i: usize) -> (u32, u32) {
    const BASE: [u32; 9] = [
        0,
        SKIP_OPTIMIZATION,
        OPTIMIZATION_LEVEL0,
        OPTIMIZATION_LEVEL2,
        OPTIMIZATION_LEVEL3,
        AVOID_FLOW_CONTROL,
        PREFER_FLOW_CONTROL,
        IEEE_STRICTNESS,
        ENABLE_BACKWARDS_COMPATIBILITY,
    ];
    let mut f = BASE[i % BASE.len()];
    if i % 5 == 1 {
        f |= PACK_MATRIX_ROW_MAJOR;
    }
    if i % 11 == 3 {
        f |= PARTIAL_PRECISION;
    }
    if i % 13 == 4 {
        f |= ENABLE_STRICTNESS;
    }
    if i % 17 == 5 {
        f |= DEBUG;
    }
    let strip = match i % 10 {
        7 => STRIP_REFLECTION,
        8 => STRIP_REFLECTION | STRIP_DEBUG,
        _ if f & DEBUG != 0 && i % 2 == 0 => STRIP_DEBUG,
        _ => 0,
    };
    (f, strip)
}

fn out_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../crates/listing/tests/oracle")
}

fn write_archive(file: &str, records: &[Record]) {
    write_packed(&out_dir(), file, &corpus::oracle::encode(records), records.len());
}

/// Writes the compressed archive `raw` of `count` records as `dir/file` and pins the
/// count in `dir/MANIFEST.tsv`.
fn write_packed(dir: &Path, file: &str, raw: &[u8], count: usize) {
    std::fs::create_dir_all(dir).unwrap();
    let packed = zstd::bulk::compress(raw, 19).expect("zstd");
    std::fs::write(dir.join(file), &packed).unwrap();
    eprintln!("{file}: {count} records, {} bytes ({} uncompressed)", packed.len(), raw.len());
    // Pin the count in the manifest (one row per archive, sorted by file).
    let manifest = dir.join("MANIFEST.tsv");
    let mut rows: BTreeMap<String, usize> = BTreeMap::new();
    if let Ok(text) = std::fs::read_to_string(&manifest) {
        for line in text.lines().skip(1) {
            if let Some((f, n)) = line.split_once('\t') {
                rows.insert(f.to_string(), n.trim().parse().unwrap_or(0));
            }
        }
    }
    rows.insert(file.to_string(), count);
    let mut text = String::from("file\trecords\n");
    for (f, n) in rows {
        text.push_str(&format!("{f}\t{n}\n"));
    }
    std::fs::write(manifest, text).unwrap();
}

fn hlsl(per_profile: usize, seed: u64, only: Option<&str>) {
    for &profile in hlsl::PROFILES {
        if only.is_some_and(|o| o != profile) {
            continue;
        }
        let shaders = hlsl::generate(profile, seed, per_profile);
        let jobs: Vec<wine::Job> = shaders
            .iter()
            .enumerate()
            .map(|(i, s)| {
                let (flags1, strip) = flags_for(i);
                wine::Job::Compile {
                    source: s.source.clone(),
                    entry: s.entry.clone(),
                    profile: s.profile.to_string(),
                    flags1,
                    flags2: 0,
                    strip,
                    dis: DIS.to_vec(),
                }
            })
            .collect();
        eprint!("{profile}: {} programs ", jobs.len());
        let answers = wine::run(&jobs, 2, 200);
        let mut seen = HashSet::new();
        let mut records = Vec::new();
        let (mut failed, mut crashed) = (0, 0);
        for ((s, job), a) in shaders.iter().zip(&jobs).zip(answers) {
            let wine::Job::Compile { flags1, strip, .. } = job else { unreachable!() };
            if a.crashed {
                crashed += 1;
                continue;
            }
            if a.hr != 0 || a.blob.is_empty() {
                failed += 1;
                continue;
            }
            if !seen.insert(a.blob.clone()) {
                continue;
            }
            records.push(Record {
                name: s.name.clone(),
                profile: profile.to_string(),
                flags1: *flags1,
                flags2: 0,
                strip: *strip,
                blob: a.blob,
                texts: a.listings.into_iter().map(|(flags, hr, text)| Text { flags, hr, text }).collect(),
            });
        }
        eprintln!("{profile}: {} kept, {failed} did not compile, {crashed} crashed the runner", records.len());
        write_archive(&format!("hlsl-{profile}.dxo"), &records);
    }
}

fn tokens() {
    let listings = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../crates/tpf/tests/listings");
    let (base, mutants) = tokens::generate(&listings);
    for (file, streams) in [("tokens-sm4-5.dxo", base), ("mutants-sm4-5.dxo", mutants)] {
        let jobs: Vec<wine::Job> =
            streams.iter().map(|s| wine::Job::Disassemble { blob: s.blob.clone(), dis: DIS.to_vec() }).collect();
        eprint!("{file}: {} streams ", jobs.len());
        let answers = wine::run(&jobs, 2, 2000);
        let mut records = Vec::new();
        let mut seen = HashSet::new();
        for (s, a) in streams.into_iter().zip(answers) {
            if !seen.insert(s.blob.clone()) {
                continue;
            }
            records.push(Record {
                name: s.name,
                profile: s.profile,
                flags1: 0,
                flags2: 0,
                strip: 0,
                blob: s.blob,
                texts: a.listings.into_iter().map(|(flags, hr, text)| Text { flags, hr, text }).collect(),
            });
        }
        write_archive(file, &records);
    }
}

/// One generated assembly source for `D3DAssemble`.
pub struct AsmCase {
    /// `family/what/index`, unique within its archive.
    pub name: String,
    pub source: String,
    /// Files beside the source for `#include` (none: no include handler).
    pub includes: Vec<(String, String)>,
    /// `D3DAssemble`'s flags (corpus::asm_oracle::ASM_*).
    pub flags: u32,
}

/// Asks `D3DAssemble` about every case of the generator `which` and writes
/// `crates/d3dbc/tests/asm-oracle/asm-<which>.dxo`.
fn asm(which: &str) {
    let cases = match which {
        "grammar" => asm_grammar::generate(),
        "rules" => asm_rules::generate(),
        _ => {
            eprintln!("asm: unknown generator {which:?} (grammar, rules)");
            std::process::exit(2);
        }
    };
    let mut names = HashSet::new();
    for c in &cases {
        assert!(names.insert(c.name.as_str()), "asm-{which}: two cases named {}", c.name);
    }
    let jobs: Vec<wine::Job> = cases
        .iter()
        .map(|c| wine::Job::Assemble { source: c.source.clone(), includes: c.includes.clone(), flags: c.flags, dis: Vec::new() })
        .collect();
    eprint!("asm-{which}: {} sources ", jobs.len());
    let answers = wine::run(&jobs, 2, 500);
    let records: Vec<corpus::asm_oracle::Assembly> = cases
        .into_iter()
        .zip(answers)
        .map(|(c, a)| corpus::asm_oracle::Assembly {
            name: c.name,
            source: c.source,
            includes: c.includes,
            flags: c.flags,
            hr: a.hr,
            errors: a.errors,
            blob: a.blob,
        })
        .collect();
    let accepted = records.iter().filter(|r| r.accepted()).count();
    eprintln!("asm-{which}: {accepted} accepted, {} refused", records.len() - accepted);
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../crates/d3dbc/tests/asm-oracle");
    write_packed(&dir, &format!("asm-{which}.dxo"), &corpus::asm_oracle::encode(&records), records.len());
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let opt = |name: &str| args.iter().position(|a| a == name).and_then(|i| args.get(i + 1)).cloned();
    match args.first().map(String::as_str) {
        Some("hlsl") => hlsl(
            opt("--per-profile").map_or(600, |v| v.parse().expect("--per-profile N")),
            opt("--seed").map_or(1, |v| v.parse().expect("--seed S")),
            opt("--only").as_deref(),
        ),
        Some("tokens") => tokens(),
        Some("asm") => {
            let which: Vec<&str> = match args.get(1) {
                Some(w) => vec![w.as_str()],
                None => vec!["grammar", "rules"],
            };
            which.into_iter().for_each(asm);
        }
        _ => {
            eprintln!("usage: dxref-oracle hlsl [--per-profile N] [--seed S] [--only PROFILE] | tokens | asm [grammar|rules]");
            std::process::exit(2);
        }
    }
}
