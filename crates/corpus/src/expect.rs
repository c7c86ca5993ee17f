//! Per-entry expectation files: every entry's outcome, checked both ways.
//!
//! A test computes one outcome per entry (`exact`, or a one-line cause of difference)
//! and calls [`check`] with the file that records what is expected. Any difference
//! fails the test: an entry that starts to differ, an entry that starts to match, an
//! entry missing from the file or one the file has but the test no longer computed.
//! Running with `DXREF_BLESS=1` (`DXREF_BLESS=1 cargo test -p dxref-listing --test header`,
//! or the whole workspace) rewrites the file with the outcomes computed, after printing
//! the same list of changes; the change then shows in `git diff`.
//!
//! File format: one `id<TAB>outcome` line per entry, sorted by id. Lines starting with
//! `#` are comments; those starting with `#=` are a tally that blessing rewrites, the
//! others are kept as they are.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::Path;

/// The environment variable that makes [`check`] rewrite the file.
pub const BLESS_VAR: &str = "DXREF_BLESS";

/// The path of `tests/expect/<name>` in the calling crate.
#[macro_export]
macro_rules! expect_file {
    ($name:literal) => {
        concat!(env!("CARGO_MANIFEST_DIR"), "/tests/expect/", $name)
    };
}

/// True when `DXREF_BLESS=1`.
pub fn blessing() -> bool {
    std::env::var_os(BLESS_VAR).is_some_and(|v| v == "1")
}

/// `s` as one line for an outcome: every tab, carriage return and line break becomes a
/// space, and the result is trimmed.
pub fn one_line(s: &str) -> String {
    s.replace(['\t', '\r', '\n'], " ").trim().to_string()
}

/// An expectation file's entries and its kept comment lines.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct File {
    /// The comment lines (`#...`, not the `#=` tally), in order.
    pub comments: Vec<String>,
    /// Outcome by entry id.
    pub entries: BTreeMap<String, String>,
}

/// Parses an expectation file's text; the error names the line.
pub fn parse(text: &str) -> Result<File, String> {
    let mut f = File::default();
    for (i, line) in text.lines().enumerate() {
        if line.starts_with("#=") {
            continue;
        }
        if line.starts_with('#') {
            f.comments.push(line.to_string());
            continue;
        }
        let Some((id, outcome)) = line.split_once('\t') else {
            return Err(format!("line {}: expected `id<TAB>outcome`, found {line:?}", i + 1));
        };
        if id.is_empty() || outcome.is_empty() {
            return Err(format!("line {}: empty id or outcome", i + 1));
        }
        if f.entries.insert(id.to_string(), outcome.to_string()).is_some() {
            return Err(format!("line {}: {id} appears twice", i + 1));
        }
    }
    Ok(f)
}

/// The file's text: kept comments, the tally, then the entries.
pub fn render(comments: &[String], entries: &BTreeMap<String, String>) -> String {
    let mut out = String::new();
    for c in comments {
        out.push_str(c);
        out.push('\n');
    }
    let mut tally: BTreeMap<&str, usize> = BTreeMap::new();
    for o in entries.values() {
        *tally.entry(o.as_str()).or_default() += 1;
    }
    // The outcomes and how many entries have each (`exact`, `same`, causes...).
    let mut common: Vec<(&str, usize)> = tally.into_iter().collect();
    common.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(b.0)));
    let top: Vec<String> = common
        .iter()
        .take(3)
        .map(|(o, n)| format!("{n} {}", one_line(o).chars().take(40).collect::<String>()))
        .collect();
    let _ = writeln!(out, "#= {} entries; most frequent outcomes: {}", entries.len(), top.join(", "));
    for (id, o) in entries {
        let _ = writeln!(out, "{id}\t{o}");
    }
    out
}

/// The changes from `want` to `got`, one line each; empty when they agree.
pub fn diff(want: &BTreeMap<String, String>, got: &BTreeMap<String, String>) -> Vec<String> {
    let mut out = Vec::new();
    for (id, g) in got {
        match want.get(id) {
            Some(w) if w == g => {}
            Some(w) => out.push(format!("  {id}: expected {w:?}, got {g:?}")),
            None => out.push(format!("  {id}: not in the file, got {g:?}")),
        }
    }
    for (id, w) in want {
        if !got.contains_key(id) {
            out.push(format!("  {id}: in the file ({w:?}), not computed"));
        }
    }
    out
}

/// Compares `got` (entry id to one-line outcome) with the expectation file at `path`,
/// panicking with the list of every difference; with `DXREF_BLESS=1`, rewrites the
/// file instead. Panics on an unreadable or malformed file, on an empty `got`, and on
/// an id or outcome holding a tab or line break.
pub fn check(path: impl AsRef<Path>, got: &BTreeMap<String, String>) {
    if let Err(e) = check_with(path.as_ref(), got, blessing()) {
        panic!("{e}");
    }
}

/// As [`check`], for files that list only the entries that do not agree (large data
/// sets whose agreeing entries would make the file huge): `got` holds the outcome of
/// every entry that does not agree, and may be empty. Both ways still: an entry that
/// starts to disagree is missing from the file, one that starts to agree is in the file
/// but not computed.
pub fn check_differences(path: impl AsRef<Path>, got: &BTreeMap<String, String>) {
    if let Err(e) = check_inner(path.as_ref(), got, blessing(), true) {
        panic!("{e}");
    }
}

/// [`check`] with the bless decision passed in, returning the failure message.
pub fn check_with(path: &Path, got: &BTreeMap<String, String>, bless: bool) -> Result<(), String> {
    check_inner(path, got, bless, false)
}

fn check_inner(path: &Path, got: &BTreeMap<String, String>, bless: bool, differences_only: bool) -> Result<(), String> {
    let name = path.display();
    if got.is_empty() && !differences_only {
        return Err(format!("{name}: no outcome was computed"));
    }
    for (id, o) in got {
        if id.is_empty() || o.is_empty() || id.contains(['\t', '\n', '\r']) || o.contains(['\t', '\n', '\r']) {
            return Err(format!("{name}: entry {id:?} => {o:?} cannot be written as one line"));
        }
        if id.starts_with('#') {
            return Err(format!("{name}: entry id {id:?} starts with '#'"));
        }
    }
    let existing = match std::fs::read_to_string(path) {
        Ok(text) => Some(parse(&text).map_err(|e| format!("{name}: {e}"))?),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
        Err(e) => return Err(format!("{name}: {e}")),
    };
    let empty = File::default();
    let want = existing.as_ref().unwrap_or(&empty);
    let changes = diff(&want.entries, got);
    if bless {
        let comments = match &existing {
            Some(f) => f.comments.clone(),
            None if differences_only => vec![
                "# The entries that do not agree, each with its cause; every entry not listed agrees.".to_string(),
                format!("# `{BLESS_VAR}=1 cargo test` rewrites this file with the outcomes computed."),
            ],
            None => vec![
                "# Expected outcome of every entry (`exact`, or the cause of difference), checked both ways."
                    .to_string(),
                format!("# `{BLESS_VAR}=1 cargo test` rewrites this file with the outcomes computed."),
            ],
        };
        let text = render(&comments, got);
        if existing.is_none() || !changes.is_empty() || std::fs::read_to_string(path).ok().as_deref() != Some(&text) {
            if let Some(dir) = path.parent() {
                std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
            }
            std::fs::write(path, text).map_err(|e| format!("{name}: {e}"))?;
            use std::io::Write;
            let _ = writeln!(std::io::stderr(), "BLESS {name}: {} change(s)\n{}", changes.len(), changes.join("\n"));
        }
        return Ok(());
    }
    if existing.is_none() {
        return Err(format!("{name}: no expectation file; `{BLESS_VAR}=1 cargo test` writes it"));
    }
    if changes.is_empty() {
        return Ok(());
    }
    Err(format!(
        "{name}: {} entries differ from the expectation (after a deliberate change, `{BLESS_VAR}=1 cargo test` rewrites the file):\n{}",
        changes.len(),
        changes.join("\n")
    ))
}
