//! The corpus reader fails closed on a corpus that is present but broken, and the
//! expectation files are checked both ways. Every case builds a small fake corpus in a
//! temporary folder and passes its root explicitly (never through `DXREF_CORPUS`, which
//! is process-global).

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};

const HEADER: &str = "name\tprofile\tbytes\tcontainer\tchunks\ttrailing_ws\tcreator";

/// A fresh empty folder under the system's temporary folder, removed on drop.
struct Temp(PathBuf);

impl Temp {
    fn new() -> Temp {
        static N: AtomicUsize = AtomicUsize::new(0);
        let p = std::env::temp_dir().join(format!(
            "dxref-corpus-test-{}-{}",
            std::process::id(),
            N.fetch_add(1, Ordering::Relaxed)
        ));
        let _ = fs::remove_dir_all(&p);
        fs::create_dir_all(&p).unwrap();
        Temp(p)
    }
}

impl Drop for Temp {
    fn drop(&mut self) {
        let _ = fs::remove_dir_all(&self.0);
    }
}

fn row(name: &str) -> String {
    format!("{name}\tps_4_0\t4\tdxbc\tSHDR\tintact\tMicrosoft (R) HLSL Shader Compiler 10.1")
}

/// A source folder with these manifest rows and a non-empty `.bin`/`.asm` per name.
fn source(root: &Path, source: &str, names: &[&str]) -> PathBuf {
    let dir = root.join(source);
    fs::create_dir_all(&dir).unwrap();
    let mut m = String::from(HEADER);
    m.push('\n');
    for n in names {
        m.push_str(&row(n));
        m.push('\n');
        fs::write(dir.join(format!("{n}.bin")), b"DXBC").unwrap();
        fs::write(dir.join(format!("{n}.asm")), "ps_4_0\n").unwrap();
    }
    fs::write(dir.join("MANIFEST.tsv"), m).unwrap();
    dir
}

/// A good two-source corpus: `a` with two entries, `b` with one.
fn good() -> Temp {
    let t = Temp::new();
    source(&t.0, "a", &["x", "y"]);
    source(&t.0, "b", &["z"]);
    fs::write(t.0.join("README.md"), "not a source\n").unwrap();
    t
}

const PINS: &[(&str, usize)] = &[("a", 2), ("b", 1)];

fn err(root: &Path) -> String {
    match corpus::entries_with(root, PINS) {
        Ok(v) => panic!("expected a failure, read {} entries", v.len()),
        Err(e) => e,
    }
}

#[test]
fn a_good_corpus_reads_every_entry() {
    let t = good();
    let v = corpus::entries_with(&t.0, PINS).unwrap();
    let ids: Vec<String> = v.iter().map(|e| e.id()).collect();
    assert_eq!(ids, ["a/x", "a/y", "b/z"]);
    assert_eq!(v[0].container, corpus::Container::Dxbc);
    assert_eq!(v[0].chunks, ["SHDR"]);
    assert_eq!(v[0].bytes(), b"DXBC");
}

#[test]
fn a_count_other_than_the_pinned_one_fails_naming_the_source() {
    let t = good();
    let e = corpus::entries_with(&t.0, &[("a", 3), ("b", 1)]).unwrap_err();
    assert!(e.contains("\"a\" has 2 entries, 3 are pinned"), "{e}");
    // The real pins refuse this fake corpus too: its folders are not the corpus's.
    let e = corpus::entries_in(&t.0).unwrap_err();
    assert!(e.contains("\"a\" is not one of the pinned sources"), "{e}");
}

#[test]
fn a_missing_or_extra_source_folder_fails() {
    let t = good();
    fs::remove_dir_all(t.0.join("b")).unwrap();
    let e = err(&t.0);
    assert!(e.contains("\"b\" is missing"), "{e}");
    let t = good();
    fs::create_dir_all(t.0.join("c")).unwrap();
    let e = err(&t.0);
    assert!(e.contains("\"c\" is not one of the pinned sources"), "{e}");
}

#[test]
fn a_missing_or_empty_file_fails_naming_the_row() {
    let t = good();
    fs::remove_file(t.0.join("a/y.asm")).unwrap();
    let e = err(&t.0);
    assert!(e.contains("MANIFEST.tsv:3: y:") && e.contains("y.asm"), "{e}");
    let t = good();
    fs::write(t.0.join("b/z.bin"), b"").unwrap();
    let e = err(&t.0);
    assert!(e.contains("MANIFEST.tsv:2: z:") && e.contains("z.bin is empty"), "{e}");
}

#[test]
fn a_malformed_manifest_fails_naming_the_line() {
    let cases: &[(&str, &str)] = &[
        // A row with a field too few.
        ("x\tps_4_0\t4\tdxbc\tSHDR\tintact", "MANIFEST.tsv:2: 6 fields, the header has 7"),
        // A row with a field too many.
        ("x\tps_4_0\t4\tdxbc\tSHDR\tintact\tfxc\textra", "MANIFEST.tsv:2: 8 fields, the header has 7"),
        // Unknown values.
        ("x\tps_4_0\t4\tdxil\tSHDR\tintact\tfxc", "MANIFEST.tsv:2: x: unknown container \"dxil\""),
        ("x\tps_4_0\t4\tdxbc\tSHDR\tsome\tfxc", "MANIFEST.tsv:2: x: unknown trailing_ws \"some\""),
        ("\tps_4_0\t4\tdxbc\tSHDR\tintact\tfxc", "MANIFEST.tsv:2: bad name \"\""),
    ];
    for (bad, want) in cases {
        let t = good();
        let m = format!("{HEADER}\n{bad}\n{}\n", row("y"));
        fs::write(t.0.join("a/MANIFEST.tsv"), m).unwrap();
        let e = err(&t.0);
        assert!(e.contains(want), "{bad:?}: {e}");
    }
    // A blank row in the middle, a repeated name.
    let t = good();
    fs::write(t.0.join("a/MANIFEST.tsv"), format!("{HEADER}\n{}\n\n{}\n", row("x"), row("y"))).unwrap();
    assert!(err(&t.0).contains("MANIFEST.tsv:3: empty row"));
    let t = good();
    fs::write(t.0.join("a/MANIFEST.tsv"), format!("{HEADER}\n{}\n{}\n", row("x"), row("x"))).unwrap();
    assert!(err(&t.0).contains("MANIFEST.tsv:3: name \"x\" appears twice"));
}

#[test]
fn a_missing_column_or_manifest_fails() {
    let t = good();
    let m = format!("{}\n{}\n", HEADER.replace("\tcreator", ""), row("x").rsplit_once('\t').unwrap().0);
    fs::write(t.0.join("a/MANIFEST.tsv"), m).unwrap();
    let e = err(&t.0);
    assert!(e.contains("MANIFEST.tsv:1: the header has no column \"creator\""), "{e}");
    let t = good();
    fs::write(t.0.join("a/MANIFEST.tsv"), "").unwrap();
    assert!(err(&t.0).contains("MANIFEST.tsv:1: no header line"));
    let t = good();
    fs::remove_file(t.0.join("b/MANIFEST.tsv")).unwrap();
    let e = err(&t.0);
    assert!(e.contains("b/MANIFEST.tsv"), "{e}");
}

#[test]
fn an_absent_root_is_an_error_not_an_empty_corpus() {
    let t = Temp::new();
    let gone = t.0.join("nothing");
    assert!(corpus::entries_with(&gone, PINS).is_err());
    // An empty folder has none of the pinned sources.
    assert!(err(&t.0).contains("\"a\" is missing"));
}

#[test]
fn the_pins_are_the_five_sources() {
    let names: Vec<&str> = corpus::SOURCES.iter().map(|s| s.0).collect();
    assert_eq!(names, ["dxtk", "hlslcc", "sdl", "slimshader", "xenia"]);
    assert!(corpus::SOURCES.iter().all(|s| s.1 > 0));
}

fn map(pairs: &[(&str, &str)]) -> BTreeMap<String, String> {
    pairs.iter().map(|(a, b)| (a.to_string(), b.to_string())).collect()
}

#[test]
fn expectations_fail_both_ways_and_bless_rewrites() {
    use corpus::expect::check_with;
    let t = Temp::new();
    let path = t.0.join("expect/e.txt");
    let got = map(&[("a/x", "exact"), ("a/y", "line 3")]);
    // No file: a failure, until blessed.
    let e = check_with(&path, &got, false).unwrap_err();
    assert!(e.contains("no expectation file"), "{e}");
    check_with(&path, &got, true).unwrap();
    let text = fs::read_to_string(&path).unwrap();
    assert!(
        text.contains("#= 2 entries; most frequent outcomes: 1 exact, 1 line 3\na/x\texact\na/y\tline 3\n"),
        "{text}"
    );
    check_with(&path, &got, false).unwrap();
    // An entry that starts to differ fails.
    let e = check_with(&path, &map(&[("a/x", "line 1"), ("a/y", "line 3")]), false).unwrap_err();
    assert!(e.contains("1 entries differ") && e.contains("a/x: expected \"exact\", got \"line 1\""), "{e}");
    // One that starts to match fails too.
    let e = check_with(&path, &map(&[("a/x", "exact"), ("a/y", "exact")]), false).unwrap_err();
    assert!(e.contains("a/y: expected \"line 3\", got \"exact\""), "{e}");
    // New and vanished entries fail.
    let e = check_with(&path, &map(&[("a/x", "exact"), ("a/w", "exact")]), false).unwrap_err();
    assert!(e.contains("a/w: not in the file") && e.contains("a/y: in the file (\"line 3\"), not computed"), "{e}");
    // Blessing keeps the comments and rewrites the entries.
    fs::write(&path, format!("# kept\n{text}")).unwrap();
    let now = map(&[("a/x", "exact"), ("a/y", "exact")]);
    check_with(&path, &now, true).unwrap();
    let text = fs::read_to_string(&path).unwrap();
    assert!(
        text.starts_with("# kept\n")
            && text.ends_with("#= 2 entries; most frequent outcomes: 2 exact\na/x\texact\na/y\texact\n"),
        "{text}"
    );
    check_with(&path, &now, false).unwrap();
}

#[test]
fn malformed_expectations_fail() {
    use corpus::expect::check_with;
    let t = Temp::new();
    let path = t.0.join("e.txt");
    let got = map(&[("a/x", "exact")]);
    fs::write(&path, "a/x exact\n").unwrap();
    assert!(check_with(&path, &got, false).unwrap_err().contains("line 1: expected `id<TAB>outcome`"));
    fs::write(&path, "a/x\texact\na/x\texact\n").unwrap();
    assert!(check_with(&path, &got, false).unwrap_err().contains("line 2: a/x appears twice"));
    assert!(check_with(&path, &BTreeMap::new(), false).unwrap_err().contains("no outcome"));
    assert!(check_with(&path, &map(&[("a/x", "two\nlines")]), true).unwrap_err().contains("one line"));
}

#[test]
fn the_real_corpus_matches_its_pins() {
    let Some(v) = corpus::entries("the_real_corpus_matches_its_pins") else {
        return;
    };
    for (s, n) in corpus::SOURCES {
        assert_eq!(v.iter().filter(|e| e.source == *s).count(), *n, "{s}");
    }
}

/// Runs this test binary's `absent_corpus_probe` in a child process with the given
/// environment; true when it passed.
fn probe(require: Option<&str>) -> (bool, String) {
    let mut cmd = std::process::Command::new(std::env::current_exe().unwrap());
    cmd.args(["--exact", "absent_corpus_probe", "--nocapture"])
        .env("DXREF_CORPUS", "/nonexistent/dxref-corpus")
        .env("DXREF_PROBE_CHILD", "1");
    match require {
        Some(v) => cmd.env("DXREF_REQUIRE_CORPUS", v),
        None => cmd.env_remove("DXREF_REQUIRE_CORPUS"),
    };
    let out = cmd.output().unwrap();
    (out.status.success(), String::from_utf8_lossy(&out.stderr).into_owned() + &String::from_utf8_lossy(&out.stdout))
}

/// Only does something in the child process of `an_absent_corpus_skips_unless_required`.
#[test]
fn absent_corpus_probe() {
    if std::env::var_os("DXREF_PROBE_CHILD").is_some() {
        assert!(corpus::entries("absent_corpus_probe").is_none());
    }
}

#[test]
fn an_absent_corpus_skips_unless_required() {
    let (ok, out) = probe(None);
    assert!(ok && out.contains("SKIP absent_corpus_probe: the fxc corpus was not found"), "{out}");
    let (ok, out) = probe(Some("0"));
    assert!(ok, "{out}");
    let (ok, out) = probe(Some("1"));
    assert!(!ok && out.contains("DXREF_REQUIRE_CORPUS=1 requires it"), "{out}");
}
