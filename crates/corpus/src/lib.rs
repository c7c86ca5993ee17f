//! Test support: locate and read the fxc shader corpus, and compare per-entry outcomes
//! with checked-in expectation files.
//!
//! The corpus is not part of dxref and is never copied into it. Tests find it at
//! `$DXREF_CORPUS` or at `../shared/corpus` beside the workspace.
//!
//! Reading fails closed:
//! - where the corpus is absent, [`entries`] prints a visible `SKIP` line and returns
//!   `None`, so a fresh clone elsewhere still passes its tests; with
//!   `DXREF_REQUIRE_CORPUS=1` in the environment (CI sets it) an absent corpus panics;
//! - where it is present, every problem panics with a message naming the file and the
//!   line: an unreadable or malformed `MANIFEST.tsv`, a missing column, a row with the
//!   wrong number of fields or an unknown value, a missing or empty `.bin`/`.asm`, a
//!   source folder that is missing or not known, or a number of rows per source other
//!   than the one pinned in [`SOURCES`].
//!
//! [`expect::check`] compares every entry's outcome with an expectation file, both ways;
//! `DXREF_BLESS=1` rewrites the file instead.
//!
//! ```
//! use std::collections::BTreeMap;
//!
//! fn main() -> Result<(), Box<dyn std::error::Error>> {
//!     // A corpus test computes one outcome per entry: `exact`, or the cause of a
//!     // difference (here the blob's size stands in for the work under test).
//!     let mut got = BTreeMap::new();
//!     if let Some(entries) = corpus::entries("doc example") {
//!         for e in entries.iter().take(3) {
//!             let outcome = if e.bytes().is_empty() { "empty".to_string() } else { "exact".to_string() };
//!             got.insert(e.id(), outcome);
//!         }
//!     }
//!     // ... then `corpus::expect::check(corpus::expect_file!("name.txt"), &got)`; the
//!     // same comparison on text held in memory:
//!     let file = corpus::expect::parse("# a comment\ndxtk/a\texact\ndxtk/b\tmissing dcl\n")?;
//!     let got = BTreeMap::from([
//!         ("dxtk/a".to_string(), "exact".to_string()),
//!         ("dxtk/b".to_string(), "exact".to_string()),
//!     ]);
//!     let changes = corpus::expect::diff(&file.entries, &got);
//!     assert_eq!(changes, ["  dxtk/b: expected \"missing dcl\", got \"exact\""]);
//!     let blessed = corpus::expect::render(&file.comments, &got);
//!     assert!(blessed.ends_with("dxtk/a\texact\ndxtk/b\texact\n"));
//!     Ok(())
//! }
//! ```

#![warn(missing_docs)]

pub mod expect;
pub mod gs_workloads;

mod archive;
pub mod asm_oracle;
pub mod oracle;

use std::fs;
use std::path::{Path, PathBuf};

/// Every source folder of the corpus and its number of entries (MANIFEST rows). A
/// corpus whose folders or counts differ is refused: a test must never pass on a part.
pub const SOURCES: &[(&str, usize)] =
    &[("dxtk", 173), ("hlslcc", 129), ("sdl", 21), ("slimshader", 27), ("xenia", 112)];

/// The environment variable that turns an absent corpus into a failure.
pub const REQUIRE_VAR: &str = "DXREF_REQUIRE_CORPUS";

/// The MANIFEST columns the reader uses.
const COLUMNS: [&str; 6] = ["name", "profile", "container", "chunks", "trailing_ws", "creator"];

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
    /// `intact`: the `.asm` is fxc's output byte for byte.
    Intact,
    /// `stripped`: the `.asm` lost the spaces fxc wrote at the ends of lines, so a
    /// comparison must ignore them.
    Stripped,
    /// `-`: no listing to compare.
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
    /// What the `.bin` holds.
    pub container: Container,
    /// DXBC chunk FourCCs in container order (empty for d3dbc).
    pub chunks: Vec<String>,
    /// Whether the `.asm` keeps fxc's trailing spaces.
    pub trailing_ws: TrailingWs,
    /// Compiler string found in the bytes, or `listing: ...`.
    pub creator: String,
    /// The blob's path.
    pub bin: PathBuf,
    /// The path of fxc's listing of the blob.
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

/// True when `DXREF_REQUIRE_CORPUS=1`: an absent corpus is then a failure.
pub fn required() -> bool {
    std::env::var_os(REQUIRE_VAR).is_some_and(|v| v == "1")
}

/// The corpus root for `test`, or `None` after a visible `SKIP` line when the corpus is
/// absent; panics instead of skipping when [`required`].
pub fn root_for(test: &str) -> Option<PathBuf> {
    if let Some(r) = root() {
        return Some(r);
    }
    let where_ = match std::env::var_os("DXREF_CORPUS") {
        Some(d) => format!("DXREF_CORPUS={} is not a folder", Path::new(&d).display()),
        None => "set DXREF_CORPUS or place it at ../shared/corpus".to_string(),
    };
    assert!(!required(), "{test}: the fxc corpus was not found ({where_}) and {REQUIRE_VAR}=1 requires it");
    // Written to the process's stderr directly, past the test harness's output capture,
    // so that the skip is visible in a passing run.
    use std::io::Write;
    let _ = writeln!(std::io::stderr(), "SKIP {test}: the fxc corpus was not found ({where_})");
    None
}

/// Every entry of the corpus, sorted by source then name; `None` (after printing a
/// `SKIP` line naming `test`) when the corpus is absent. Panics when the corpus is
/// present but broken (see the module documentation), or absent while [`required`].
pub fn entries(test: &str) -> Option<Vec<Entry>> {
    let root = root_for(test)?;
    Some(entries_in(&root).unwrap_or_else(|e| panic!("{test}: the fxc corpus at {} is broken: {e}", root.display())))
}

/// Only the DXBC entries.
pub fn dxbc_entries(test: &str) -> Option<Vec<Entry>> {
    entries(test).map(|v| v.into_iter().filter(|e| e.container == Container::Dxbc).collect())
}

/// Every entry of the corpus at `root`, checked against the pinned [`SOURCES`].
pub fn entries_in(root: &Path) -> Result<Vec<Entry>, String> {
    entries_with(root, SOURCES)
}

/// Every entry of the corpus at `root`, whose source folders must be exactly `sources`
/// with exactly that many MANIFEST rows each. The error names the file and line.
pub fn entries_with(root: &Path, sources: &[(&str, usize)]) -> Result<Vec<Entry>, String> {
    let listing = fs::read_dir(root).map_err(|e| format!("{}: {e}", root.display()))?;
    let mut found = Vec::new();
    for d in listing {
        let d = d.map_err(|e| format!("{}: {e}", root.display()))?;
        let path = d.path();
        if path.is_dir() {
            found.push(d.file_name().to_string_lossy().into_owned());
        }
    }
    found.sort();
    for f in &found {
        if !sources.iter().any(|(s, _)| s == f) {
            return Err(format!("{}: source folder {f:?} is not one of the pinned sources", root.join(f).display()));
        }
    }
    let mut sorted: Vec<(&str, usize)> = sources.to_vec();
    sorted.sort();
    let mut out = Vec::new();
    for (source, count) in sorted {
        let dir = root.join(source);
        if !dir.is_dir() {
            return Err(format!("{}: source folder {source:?} is missing", dir.display()));
        }
        let rows = read_manifest(source, &dir)?;
        if rows.len() != count {
            return Err(format!(
                "{}: source {source:?} has {} entries, {count} are pinned (corpus::SOURCES)",
                dir.join("MANIFEST.tsv").display(),
                rows.len()
            ));
        }
        out.extend(rows);
    }
    Ok(out)
}

/// One source folder's MANIFEST rows, each with a non-empty `.bin` and `.asm`.
fn read_manifest(source: &str, dir: &Path) -> Result<Vec<Entry>, String> {
    let path = dir.join("MANIFEST.tsv");
    let at = |line: usize| format!("{}:{line}", path.display());
    let text = fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
    let mut lines = text.lines().enumerate();
    let header: Vec<&str> = match lines.next() {
        Some((_, h)) if !h.is_empty() => h.split('\t').collect(),
        _ => return Err(format!("{}: no header line", at(1))),
    };
    let mut cols = [0usize; COLUMNS.len()];
    for (slot, name) in cols.iter_mut().zip(COLUMNS) {
        *slot = header
            .iter()
            .position(|h| *h == name)
            .ok_or_else(|| format!("{}: the header has no column {name:?}", at(1)))?;
    }
    let [c_name, c_profile, c_container, c_chunks, c_ws, c_creator] = cols;
    let mut out: Vec<Entry> = Vec::new();
    for (i, line) in lines {
        let n = i + 1;
        if line.is_empty() {
            return Err(format!("{}: empty row", at(n)));
        }
        let f: Vec<&str> = line.split('\t').collect();
        if f.len() != header.len() {
            return Err(format!("{}: {} fields, the header has {}", at(n), f.len(), header.len()));
        }
        let name = f[c_name];
        if name.is_empty() || name.contains(['/', '\\']) {
            return Err(format!("{}: bad name {name:?}", at(n)));
        }
        if out.iter().any(|e| e.name == name) {
            return Err(format!("{}: name {name:?} appears twice", at(n)));
        }
        let container = match f[c_container] {
            "dxbc" => Container::Dxbc,
            "d3dbc" => Container::D3dbc,
            v => return Err(format!("{}: {name}: unknown container {v:?}", at(n))),
        };
        let trailing_ws = match f[c_ws] {
            "intact" => TrailingWs::Intact,
            "stripped" => TrailingWs::Stripped,
            "-" => TrailingWs::NotApplicable,
            v => return Err(format!("{}: {name}: unknown trailing_ws {v:?}", at(n))),
        };
        let profile = f[c_profile];
        if profile.is_empty() {
            return Err(format!("{}: {name}: empty profile", at(n)));
        }
        let (bin, asm) = (dir.join(format!("{name}.bin")), dir.join(format!("{name}.asm")));
        for p in [&bin, &asm] {
            match fs::metadata(p) {
                Ok(m) if m.is_file() && m.len() > 0 => {}
                Ok(_) => return Err(format!("{}: {name}: {} is empty or not a file", at(n), p.display())),
                Err(e) => return Err(format!("{}: {name}: {}: {e}", at(n), p.display())),
            }
        }
        out.push(Entry {
            source: source.to_string(),
            name: name.to_string(),
            profile: profile.to_string(),
            container,
            chunks: match f[c_chunks] {
                "-" => Vec::new(),
                s => s.split(',').map(str::to_string).collect(),
            },
            trailing_ws,
            creator: f[c_creator].to_string(),
            bin,
            asm,
        });
    }
    out.sort_by(|a, b| a.name.cmp(&b.name));
    Ok(out)
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
