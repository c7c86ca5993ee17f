//! Batch work through `dxref`: many files and directories (`--recursive`, `--ext`),
//! labelled outputs, `--out-dir` mirroring the input tree, `--json` arrays, `--jsonl`
//! lines, parallel runs whose output is in input order, a progress bar only on a
//! terminal, and `dxref check` (disasm then asm gives back the same program).

use std::path::{Path, PathBuf};
use std::process::Command;

mod common;
use common::*;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn example() -> PathBuf {
    root().join("examples/point_sprite_gs.dxbc")
}

fn expected_listing() -> String {
    std::fs::read_to_string(example().with_extension("asm")).unwrap()
}

fn p(path: &Path) -> &str {
    path.to_str().unwrap()
}

/// The bundled example refused by the validator (a vertex-shader create call) — no:
/// a geometry shader with too many outputs, assembled.
const TOO_MANY: &str = "gs_4_0\ndcl_input v[1][0].xyzw\ndcl_inputprimitive point \ndcl_outputtopology pointlist \ndcl_output_siv o0.xyzw, position\ndcl_output o1.xyz\ndcl_maxout 147\nemit \nret \n";

/// A dump: `a.bin`, `sub/b.cso`, `sub/deeper/c.dxbc` (the example), `sub/notes.txt`
/// (not taken by default), `sub/refused.bin` (valid bytes the validator refuses),
/// `zz.bin` (not a shader).
fn dump(name: &str) -> PathBuf {
    let dir = temp_dir(name);
    let bytes = std::fs::read(example()).unwrap();
    std::fs::create_dir_all(dir.join("sub/deeper")).unwrap();
    std::fs::write(dir.join("a.bin"), &bytes).unwrap();
    std::fs::write(dir.join("sub/b.cso"), &bytes).unwrap();
    std::fs::write(dir.join("sub/deeper/c.dxbc"), &bytes).unwrap();
    std::fs::write(dir.join("sub/notes.txt"), "not a shader").unwrap();
    let refused = dir.join("refused.asm");
    std::fs::write(&refused, TOO_MANY).unwrap();
    let out = dxref_in(&["asm", p(&refused), "-o", p(&dir.join("sub/refused.bin"))], None);
    assert!(out.status.success(), "{}", text(&out.stderr));
    std::fs::remove_file(refused).unwrap();
    std::fs::write(dir.join("zz.bin"), b"\x00\x01\x02\xff not a shader").unwrap();
    dir
}

#[test]
fn directories_are_walked_in_name_order_and_each_listing_is_labelled() {
    let dir = dump("walk");
    // Without --recursive: the files directly inside.
    let out = dxref_in(&["disasm", p(&dir)], None);
    assert_eq!(out.status.code(), Some(2), "zz.bin cannot be listed: {}", text(&out.stderr));
    let listed = text(&out.stdout);
    let labels: Vec<&str> = listed.lines().filter(|l| l.starts_with("// file: ")).collect();
    assert_eq!(labels, [format!("// file: {}", p(&dir.join("a.bin")))]);
    assert!(listed.ends_with(&expected_listing()));
    let err = text(&out.stderr);
    assert!(err.contains(&format!("dxref: {}: ", p(&dir.join("zz.bin")))), "{err}");
    assert!(err.contains("1 of 2 inputs failed: 1 could not be read"), "{err}");
    // With --recursive: the whole tree in name order; notes.txt is not taken.
    let out = dxref_in(&["disasm", "-r", p(&dir)], None);
    let listed = text(&out.stdout);
    let labels: Vec<String> = listed.lines().filter_map(|l| l.strip_prefix("// file: ")).map(String::from).collect();
    let expect: Vec<String> = ["a.bin", "sub/b.cso", "sub/deeper/c.dxbc", "sub/refused.bin"]
        .iter()
        .map(|f| p(&dir.join(f)).to_string())
        .collect();
    assert_eq!(labels, expect);
    // --ext: the extensions taken from directories; `*` every file.
    let out = dxref_in(&["info", "-r", "--ext", "txt,CSO", p(&dir)], None);
    let info = text(&out.stdout);
    assert!(info.contains("sub/b.cso: DXBC container") && !info.contains("a.bin"), "{info}");
    assert!(text(&out.stderr).contains("notes.txt"), "{}", text(&out.stderr));
    let out = dxref_in(&["info", "-r", "--ext", "*", p(&dir), "--jsonl"], None);
    assert_eq!(text(&out.stdout).lines().count(), 6);
    // One directory with one file is still labelled (a directory was named).
    let one = temp_dir("walk-one");
    std::fs::copy(example(), one.join("only.bin")).unwrap();
    let out = dxref_in(&["disasm", p(&one)], None);
    assert!(text(&out.stdout).starts_with("// file: "), "{}", text(&out.stdout));
    let _ = std::fs::remove_dir_all(dir);
    let _ = std::fs::remove_dir_all(one);
}

#[test]
fn out_dir_mirrors_the_input_tree_and_refuses_clashes() {
    let dir = dump("outdir");
    let out_dir = temp_dir("outdir-out");
    let out = dxref_in(&["disasm", "-r", p(&dir), "--out-dir", p(&out_dir)], None);
    assert_eq!(out.status.code(), Some(2), "zz.bin: {}", text(&out.stderr));
    assert!(out.stdout.is_empty());
    for f in ["a.asm", "sub/b.asm", "sub/deeper/c.asm", "sub/refused.asm"] {
        let listing = std::fs::read_to_string(out_dir.join(f)).unwrap_or_else(|e| panic!("{f}: {e}"));
        assert!(listing.contains("gs_4_0"), "{f}");
    }
    assert_eq!(std::fs::read_to_string(out_dir.join("a.asm")).unwrap(), expected_listing(), "no label in a file");
    assert!(!out_dir.join("zz.asm").exists(), "nothing for an input that failed");
    // validate and info write .txt (and .json with --json).
    let out = dxref_in(&["validate", "-r", p(&dir), "--out-dir", p(&out_dir), "--json"], None);
    assert_eq!(out.status.code(), Some(1), "refused.bin and zz.bin are refused");
    let v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out_dir.join("sub/refused.json")).unwrap()).unwrap();
    assert_eq!(v["valid"], false);
    let out = dxref_in(&["info", p(&example()), "--out-dir", p(&out_dir)], None);
    assert!(out.status.success());
    assert!(std::fs::read_to_string(out_dir.join("point_sprite_gs.txt")).unwrap().contains("checksum: ok"));
    // Two inputs that would write the same file: refused before anything is written.
    let clash = temp_dir("outdir-clash");
    let out = dxref_in(&["disasm", p(&dir.join("a.bin")), p(&example()), p(&example()), "--out-dir", p(&clash)], None);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("would both be written to"), "{}", text(&out.stderr));
    assert_eq!(std::fs::read_dir(&clash).unwrap().count(), 0);
    for d in [dir, out_dir, clash] {
        let _ = std::fs::remove_dir_all(d);
    }
}

#[test]
fn jsonl_is_one_object_per_input() {
    let dir = dump("jsonl");
    for command in ["disasm", "info", "validate", "check"] {
        let out = dxref_in(&[command, "-r", p(&dir), "--jsonl"], None);
        assert!(out.stderr.is_empty(), "{command}: all is in the lines: {}", text(&out.stderr));
        let lines: Vec<serde_json::Value> =
            text(&out.stdout).lines().map(|l| serde_json::from_str(l).unwrap()).collect();
        assert_eq!(lines.len(), 5, "{command}");
        let paths: Vec<&str> = lines.iter().map(|l| l["path"].as_str().unwrap()).collect();
        let expect: Vec<String> = ["a.bin", "sub/b.cso", "sub/deeper/c.dxbc", "sub/refused.bin", "zz.bin"]
            .iter()
            .map(|f| p(&dir.join(f)).to_string())
            .collect();
        assert_eq!(paths, expect, "{command}");
        for l in &lines {
            for key in ["path", "ok", "status", "diagnostics", "summary"] {
                assert!(l.get(key).is_some(), "{command}: no {key} in {l}");
            }
        }
        // The input that is not a shader: not ok, an error diagnostic; status 2 (cannot
        // be read), except for validate, where the runtime refuses such bytes (status 1,
        // with the validator's code).
        let bad = &lines[4];
        let status = if command == "validate" { 1 } else { 2 };
        assert_eq!((bad["ok"].as_bool(), bad["status"].as_u64()), (Some(false), Some(status)), "{command}");
        assert_eq!(bad["diagnostics"][0]["severity"], "error", "{command}");
        if command == "validate" {
            assert!(bad["diagnostics"][0]["code"].as_str().is_some_and(|c| c.starts_with('V')), "{bad}");
        } else {
            assert!(bad["summary"].is_null());
        }
        assert_eq!(lines[0]["ok"], true, "{command}: {}", lines[0]);
        assert_eq!(out.status.code().map(|c| c as u64), Some(status), "{command}");
    }
    // validate: the refused one carries the validator's diagnostics and status 1.
    let out = dxref_in(&["validate", p(&dir.join("sub/refused.bin")), p(&example()), "--jsonl"], None);
    assert_eq!(out.status.code(), Some(1));
    let lines: Vec<serde_json::Value> = text(&out.stdout).lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!((lines[0]["ok"].as_bool(), lines[0]["status"].as_u64()), (Some(false), Some(1)));
    assert_eq!(lines[0]["diagnostics"][0]["code"], "V303");
    assert_eq!(lines[0]["summary"]["shader"]["stage"], "gs");
    assert_eq!(lines[1]["summary"]["valid"], true);
    // disasm's summary: the profile and size.
    let out = dxref_in(&["disasm", p(&example()), "--jsonl"], None);
    let line: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(line["summary"]["profile"], "gs_4_0");
    assert_eq!(line["summary"]["bytes"], 416);
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn json_of_several_inputs_is_an_array() {
    let ex = example();
    for command in ["info", "validate"] {
        let out = dxref_in(&[command, p(&ex), p(&ex), p(&ex), "--json"], None);
        assert!(out.status.success(), "{command}: {}", text(&out.stderr));
        let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(v.as_array().map(Vec::len), Some(3), "{command}");
    }
    // One input: the object itself.
    let out = dxref_in(&["info", p(&ex), "--json"], None);
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(v.is_object());
}

#[test]
fn validate_labels_each_verdict_among_several() {
    let dir = dump("validate");
    std::fs::write(dir.join("unreadable.bin"), b"").unwrap();
    std::fs::remove_file(dir.join("zz.bin")).unwrap();
    // A link to nothing: cannot be read (status 2).
    #[cfg(unix)]
    std::os::unix::fs::symlink(dir.join("nowhere"), dir.join("zz.bin")).unwrap();
    #[cfg(not(unix))]
    std::fs::create_dir(dir.join("zz.bin")).unwrap();
    let out = dxref_in(&["validate", "-r", p(&dir)], None);
    assert_eq!(out.status.code(), Some(2), "the highest status: an unreadable input");
    let stdout = text(&out.stdout);
    assert!(stdout.contains(&format!("{}: valid\n", p(&dir.join("a.bin")))), "{stdout}");
    assert!(stdout.contains(&format!("{}: V303 ", p(&dir.join("sub/refused.bin")))), "{stdout}");
    assert!(stdout.contains(&format!("{}: refused: 1 diagnostic\n", p(&dir.join("sub/refused.bin")))), "{stdout}");
    let err = text(&out.stderr);
    assert!(err.contains("3 of 6 inputs failed: 1 could not be read, 2 refused"), "{err}");
    // Without the unreadable one: status 1.
    let out = dxref_in(&["validate", p(&dir.join("a.bin")), p(&dir.join("sub/refused.bin"))], None);
    assert_eq!(out.status.code(), Some(1));
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn parallel_output_is_in_input_order_whatever_the_thread_count() {
    // Inputs of different sizes and kinds, so that they finish out of order.
    let dir = temp_dir("order");
    let bytes = std::fs::read(example()).unwrap();
    let mut args: Vec<String> = vec!["disasm".into()];
    for i in 0..120 {
        let path = dir.join(format!("{i:03}.bin"));
        if i % 7 == 3 {
            std::fs::write(&path, b"broken").unwrap();
        } else {
            std::fs::write(&path, &bytes).unwrap();
        }
        args.push(p(&path).to_string());
    }
    let refs: Vec<&str> = args.iter().map(String::as_str).collect();
    let one = dxref_in(&[&refs[..], &["-j", "1"]].concat(), None);
    let many = dxref_in(&[&refs[..], &["-j", "4"]].concat(), None);
    assert_eq!(one.status.code(), Some(2));
    assert_eq!(many.status.code(), Some(2));
    assert_eq!(text(&one.stdout), text(&many.stdout));
    assert_eq!(text(&one.stderr), text(&many.stderr), "messages too are in input order");
    let labels: Vec<String> =
        text(&many.stdout).lines().filter_map(|l| l.strip_prefix("// file: ")).map(String::from).collect();
    let expect: Vec<String> =
        (0..120).filter(|i| i % 7 != 3).map(|i| p(&dir.join(format!("{i:03}.bin"))).to_string()).collect();
    assert_eq!(labels, expect);
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn a_progress_bar_only_on_a_terminal() {
    // Not a terminal: standard error has nothing but what failed, however long it runs.
    let ex = example();
    let mut args = vec!["check"];
    let many = vec![p(&ex); 400];
    args.extend(&many);
    let out = dxref_in(&args, None);
    assert!(out.status.success());
    assert!(out.stderr.is_empty(), "{}", text(&out.stderr));
    // Under a pseudo-terminal a batch shows one (`N/M inputs`) once it has run for half a
    // second, or from the start with --progress; never with --no-progress.
    if Path::new("/usr/bin/script").exists() {
        let dir = temp_dir("progress");
        let bytes = std::fs::read(ex).unwrap();
        for i in 0..3000 {
            std::fs::write(dir.join(format!("{i:04}.bin")), &bytes).unwrap();
        }
        let screen = |option: &str| {
            let cmd = format!("{} check -j1 {option} {} -o /dev/null", env!("CARGO_BIN_EXE_dxref"), p(&dir));
            let out = Command::new("/usr/bin/script")
                .args(["-qec", &cmd, "/dev/null"])
                .env("TERM", "xterm")
                .output()
                .unwrap();
            text(&out.stdout)
        };
        let shown = screen("--progress");
        assert!(shown.contains("/3000 inputs"), "{shown}");
        let hidden = screen("--no-progress");
        assert!(hidden.is_empty(), "{hidden}");
        let _ = std::fs::remove_dir_all(dir);
    }
}

#[test]
fn check_says_same_or_where_it_differs() {
    let dir = temp_dir("check");
    let ex = example();
    let out = dxref_in(&["check", p(&ex)], None);
    assert_eq!((out.status.code(), text(&out.stdout)), (Some(0), format!("{}: same\n", p(&ex))));
    // A float whose six-decimal text names another float: differs without
    // --exact-floats (and says that option would keep it), same with it.
    let listing = "vs_4_0\ndcl_output o0.xyzw\nmov o0.xyzw, l(0.12345679, 0.000000, 0.000000, 1.000000)\nret \n";
    let src = dir.join("float.asm");
    std::fs::write(&src, listing).unwrap();
    let bin = dir.join("float.bin");
    let out = dxref_in(&["asm", p(&src), "-o", p(&bin)], None);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let out = dxref_in(&["check", p(&bin)], None);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stdout));
    let report = text(&out.stdout);
    assert!(report.starts_with(&format!("{}: differs: SHDR: token ", p(&bin))), "{report}");
    assert!(report.contains("with --exact-floats it comes back the same"), "{report}");
    let out = dxref_in(&["check", "--exact-floats", p(&bin)], None);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stdout));
    // The alias, and --jsonl.
    let out = dxref_in(&["roundtrip", p(&bin), p(&ex), "--jsonl"], None);
    assert_eq!(out.status.code(), Some(1));
    let lines: Vec<serde_json::Value> = text(&out.stdout).lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(lines[0]["summary"]["same"], false);
    assert!(lines[0]["summary"]["differences"][0].as_str().unwrap().starts_with("SHDR: token "));
    assert_eq!(lines[1]["summary"]["same"], true);
    let _ = std::fs::remove_dir_all(dir);
}

/// Over the corpus: `dxref check` says `same` exactly for the entries whose listing
/// gives back their program (`tests/expect/disasm_asm.txt`, the outcome of `disasm`
/// then `asm` one entry at a time), and with `--exact-floats` for every entry.
#[test]
fn check_agrees_with_disasm_then_asm_over_the_corpus() {
    let Some(entries) = corpus::entries("check_agrees_with_disasm_then_asm_over_the_corpus") else { return };
    let expect =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/expect/disasm_asm.txt")).unwrap();
    let same: std::collections::BTreeMap<&str, bool> =
        expect.lines().filter_map(|l| l.split_once('\t')).map(|(id, outcome)| (id, outcome == "same")).collect();
    let corpus_dir = entries[0].bin.parent().unwrap().parent().unwrap().to_path_buf();
    for (args, exact) in
        [(&["check", "-r", "--jsonl"][..], false), (&["check", "-r", "--jsonl", "--exact-floats"], true)]
    {
        let mut args = args.to_vec();
        args.push(p(&corpus_dir));
        let out = dxref_in(&args, None);
        let lines: Vec<serde_json::Value> =
            text(&out.stdout).lines().map(|l| serde_json::from_str(l).unwrap()).collect();
        assert_eq!(lines.len(), entries.len(), "{args:?}");
        for e in &entries {
            let line = lines.iter().find(|l| l["path"] == p(&e.bin)).unwrap_or_else(|| panic!("{}", e.id()));
            let want = exact || same[e.id().as_str()];
            assert_eq!(line["summary"]["same"], want, "{args:?} {}: {line}", e.id());
        }
        let any_differs = lines.iter().any(|l| l["ok"] == false);
        assert_eq!(out.status.code(), Some(if any_differs { 1 } else { 0 }), "{args:?}");
    }
}

/// `dxref disasm` over many files lists them together (their checksums computed side by
/// side): its output is still each file's own `dxref disasm FILE` output, labelled, in
/// order, and its messages each file's own, in order, whatever the thread count. Corpus
/// blobs with damaged ones among them: wrong checksums (a warning), cut short and not
/// shaders (errors), raw Shader Model 1-3 streams.
#[test]
fn many_files_list_as_each_file_alone() {
    let Some(entries) = corpus::entries("many_files_list_as_each_file_alone") else { return };
    let dir = temp_dir("many-alone");
    let mut paths = Vec::new();
    for (i, e) in entries.iter().step_by(5).enumerate() {
        let mut bytes = e.bytes();
        match i % 9 {
            2 if e.container == corpus::Container::Dxbc => bytes[5] ^= 0x11,
            5 => bytes.truncate(bytes.len() / 3),
            7 => bytes = format!("not a shader {i}").into_bytes(),
            _ => {}
        }
        let path = dir.join(format!("{i:03}.bin"));
        std::fs::write(&path, &bytes).unwrap();
        paths.push(p(&path).to_string());
    }
    let (mut want_out, mut want_err, mut failed) = (String::new(), String::new(), 0);
    for path in &paths {
        let alone = dxref_in(&["disasm", path], None);
        failed += usize::from(!alone.status.success());
        if alone.status.success() {
            want_out.push_str(&format!("// file: {path}\n{}", text(&alone.stdout)));
        }
        want_err.push_str(&text(&alone.stderr));
    }
    assert!(failed > 10 && want_err.contains("checksum is wrong"), "{failed} failed:\n{want_err}");
    want_err.push_str(&format!("dxref: {failed} of {} inputs failed: {failed} could not be read\n", paths.len()));
    let args: Vec<&str> = std::iter::once("disasm").chain(paths.iter().map(String::as_str)).collect();
    for jobs in ["1", "2", "3"] {
        let together = dxref_in(&[&args[..], &["-j", jobs]].concat(), None);
        assert_eq!(together.status.code(), Some(2));
        assert!(text(&together.stdout) == want_out, "-j {jobs}: the listings differ from each file's own");
        assert_eq!(text(&together.stderr), want_err, "-j {jobs}");
    }
    // A directory too: the same files in name order.
    let together = dxref_in(&["disasm", p(&dir)], None);
    assert!(text(&together.stdout) == want_out, "the directory's listings differ from each file's own");
    assert_eq!(text(&together.stderr), want_err);
    let _ = std::fs::remove_dir_all(dir);
}
