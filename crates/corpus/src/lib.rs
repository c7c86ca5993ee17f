//! Test support: locate and read the fxc shader corpus.
//!
//! The corpus is not part of dxref and is never copied into it. Tests find it at
//! `$DXREF_CORPUS` or at `../shared/corpus` beside the workspace; where it is absent,
//! [`entries`] prints a visible `SKIP` message and returns `None`, so a fresh clone
//! elsewhere still passes its tests.

pub mod oracle;

use std::fs;
use std::path::{Path, PathBuf};

/// The kind of bytes an entry's `.bin` holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Container {
    /// A DXBC container (Shader Model 4/5, or Level9 with an `Aon9` chunk).
    Dxbc,
    /// A raw Shader Model 1–3 token stream.
    D3dbc,
}

/// Whether the stored listing keeps fxc's trailing spaces.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TrailingWs {
    Intact,
    Stripped,
    NotApplicable,
}

/// One `.bin` / `.asm` pair with its MANIFEST row.
#[derive(Debug, Clone)]
pub struct Entry {
    /// Source folder (`dxtk`, `hlslcc`, ...).
    pub source: String,
    /// File stem.
    pub name: String,
    /// Target token(s) of the listing (`ps_4_0`, `ps_2_0+ps_4_0`, ...).
    pub profile: String,
    pub container: Container,
    /// DXBC chunk FourCCs in container order (empty for d3dbc).
    pub chunks: Vec<String>,
    pub trailing_ws: TrailingWs,
    /// Compiler string found in the bytes, or `listing: ...`.
    pub creator: String,
    pub bin: PathBuf,
    pub asm: PathBuf,
}

impl Entry {
    /// `source/name`, for messages.
    pub fn id(&self) -> String {
        format!("{}/{}", self.source, self.name)
    }
    /// The blob's bytes.
    pub fn bytes(&self) -> Vec<u8> {
        fs::read(&self.bin).unwrap_or_else(|e| panic!("reading {}: {e}", self.bin.display()))
    }
    /// Microsoft's listing, byte for byte.
    pub fn listing(&self) -> String {
        fs::read_to_string(&self.asm).unwrap_or_else(|e| panic!("reading {}: {e}", self.asm.display()))
    }
    /// True for `*_4_0_level_9_*` blobs (listing in two parts).
    pub fn is_level9(&self) -> bool {
        self.profile.contains('+')
    }
}

/// Where the corpus is, if it is there: `$DXREF_CORPUS`, else `../shared/corpus`
/// beside the workspace root.
pub fn root() -> Option<PathBuf> {
    if let Some(dir) = std::env::var_os("DXREF_CORPUS") {
        let p = PathBuf::from(dir);
        return p.is_dir().then_some(p);
    }
    let ws = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let p = ws.join("../shared/corpus");
    p.is_dir().then(|| p.canonicalize().unwrap_or(p))
}

/// Every entry of the corpus, sorted by source then name; `None` (after printing a
/// `SKIP` line naming `test`) when the corpus is absent.
pub fn entries(test: &str) -> Option<Vec<Entry>> {
    let Some(root) = root() else {
        // Written to the process's stderr directly, past the test harness's output
        // capture, so that the skip is visible in a passing run.
        use std::io::Write;
        let _ = writeln!(
            std::io::stderr(),
            "SKIP {test}: the fxc corpus was not found (set DXREF_CORPUS or place it at ../shared/corpus)"
        );
        return None;
    };
    let mut out = Vec::new();
    let mut dirs: Vec<_> = fs::read_dir(&root)
        .ok()?
        .filter_map(|e| e.ok())
        .map(|e| e.path())
        .filter(|p| p.join("MANIFEST.tsv").is_file())
        .collect();
    dirs.sort();
    for dir in dirs {
        let source = dir.file_name().unwrap().to_string_lossy().into_owned();
        let manifest = fs::read_to_string(dir.join("MANIFEST.tsv")).ok()?;
        let mut lines = manifest.lines();
        let header: Vec<&str> = lines.next()?.split('\t').collect();
        let col = |name: &str| header.iter().position(|h| *h == name);
        let (c_name, c_profile, c_container, c_chunks, c_ws, c_creator) =
            (col("name")?, col("profile")?, col("container")?, col("chunks")?, col("trailing_ws")?, col("creator")?);
        for line in lines.filter(|l| !l.is_empty()) {
            let f: Vec<&str> = line.split('\t').collect();
            let name = f[c_name].to_string();
            out.push(Entry {
                source: source.clone(),
                profile: f[c_profile].to_string(),
                container: if f[c_container] == "dxbc" { Container::Dxbc } else { Container::D3dbc },
                chunks: match f[c_chunks] {
                    "-" => Vec::new(),
                    s => s.split(',').map(str::to_string).collect(),
                },
                trailing_ws: match f[c_ws] {
                    "intact" => TrailingWs::Intact,
                    "stripped" => TrailingWs::Stripped,
                    _ => TrailingWs::NotApplicable,
                },
                creator: f[c_creator].to_string(),
                bin: dir.join(format!("{name}.bin")),
                asm: dir.join(format!("{name}.asm")),
                name,
            });
        }
    }
    Some(out)
}

/// Only the DXBC entries.
pub fn dxbc_entries(test: &str) -> Option<Vec<Entry>> {
    entries(test).map(|v| v.into_iter().filter(|e| e.container == Container::Dxbc).collect())
}

/// xorshift64*: a small deterministic generator for mutation tests, so that every
/// failure reproduces.
#[derive(Debug, Clone)]
pub struct Rng(pub u64);

impl Rng {
    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    /// A number in `0..n` (0 when `n` is 0).
    pub fn below(&mut self, n: usize) -> usize {
        if n == 0 {
            0
        } else {
            (self.next_u64() % n as u64) as usize
        }
    }
}

/// A global allocator that counts allocations, for the tests that check a hot path
/// allocates nothing. A test binary installs it with
/// `#[global_allocator] static GLOBAL: corpus::CountingAllocator = corpus::CountingAllocator;`
/// and reads [`allocations`] before and after the work.
pub struct CountingAllocator;

static ALLOCATIONS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);

/// Allocations made so far through [`CountingAllocator`] (not counting this function's
/// own check). Panics if the allocator is not the test binary's global one: a count that
/// never moves would prove nothing.
pub fn allocations() -> usize {
    use std::sync::atomic::Ordering::Relaxed;
    let before = ALLOCATIONS.load(Relaxed);
    std::hint::black_box(Box::new(0u64));
    let after = ALLOCATIONS.load(Relaxed);
    assert!(after > before, "corpus::CountingAllocator is not this test binary's #[global_allocator]");
    after - PROBES.fetch_add(1, Relaxed) - 1
}

/// The allocations [`allocations`] made itself.
static PROBES: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);

// SAFETY: every call is forwarded unchanged to the system allocator.
unsafe impl std::alloc::GlobalAlloc for CountingAllocator {
    unsafe fn alloc(&self, layout: std::alloc::Layout) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        unsafe { std::alloc::System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: std::alloc::Layout) {
        unsafe { std::alloc::System.dealloc(ptr, layout) }
    }
}
