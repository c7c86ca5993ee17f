//! Bad input through `dxref`: a directory of unreadable files, dangling links, a link
//! loop, a FIFO, names that are not UTF-8; a 10 GB file and an endless device (refused
//! at the size limit before being read); listings with 100,000 errors (the cap on
//! printed errors holds) and of 50 MB (positions are found in linear time: run in a
//! child process with a timeout of minutes, which a quadratic report would exceed). Each
//! bad input gets a clear message, the batch goes on, and the exit status says that
//! something failed; nothing panics.

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

mod common;
use common::*;

fn example() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../examples/point_sprite_gs.dxbc")
}

/// Runs dxref with `args`; fails the test if it has not ended after `limit` (the child
/// is killed), so a run that would take far longer than it should cannot hang the suite.
fn dxref_within<S: AsRef<std::ffi::OsStr>>(args: &[S], limit: Duration) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_dxref"))
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Drain the pipes on threads so that a large output cannot block the child.
    let mut stdout = child.stdout.take().unwrap();
    let mut stderr = child.stderr.take().unwrap();
    let out_thread = std::thread::spawn(move || {
        let mut b = Vec::new();
        std::io::Read::read_to_end(&mut stdout, &mut b).unwrap();
        b
    });
    let err_thread = std::thread::spawn(move || {
        let mut b = Vec::new();
        std::io::Read::read_to_end(&mut stderr, &mut b).unwrap();
        b
    });
    let start = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if start.elapsed() > limit {
            let _ = child.kill();
            let _ = child.wait();
            panic!("dxref {:?} still running after {limit:?}", args.iter().map(|a| a.as_ref()).collect::<Vec<_>>());
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    Output { status, stdout: out_thread.join().unwrap(), stderr: err_thread.join().unwrap() }
}

const MINUTE: Duration = Duration::from_secs(60);

#[cfg(unix)]
#[test]
fn a_directory_of_bad_inputs_is_reported_input_by_input() {
    use std::os::unix::ffi::OsStrExt;
    let dir = temp_dir("dir");
    let good = std::fs::read(example()).unwrap();
    std::fs::write(dir.join("a_good.bin"), &good).unwrap();
    // A name that is not UTF-8, holding a good shader.
    let odd = dir.join(std::ffi::OsStr::from_bytes(b"b_odd\xff.bin"));
    std::fs::write(&odd, &good).unwrap();
    // A link to nothing.
    std::os::unix::fs::symlink(dir.join("nowhere.bin"), dir.join("c_gone.bin")).unwrap();
    // A link back to the directory itself: a loop.
    std::os::unix::fs::symlink(&dir, dir.join("d_loop")).unwrap();
    // A file without read permission (root reads it anyway: then its bytes are not a
    // shader, and it fails all the same).
    let locked = dir.join("e_locked.bin");
    std::fs::write(&locked, b"\x01\x02\x03 not a shader").unwrap();
    std::fs::set_permissions(&locked, std::os::unix::fs::PermissionsExt::from_mode(0o000)).unwrap();
    // A FIFO nobody writes to: a walk must not open it (reading would wait forever).
    let fifo = dir.join("f_fifo.bin");
    let made = Command::new("mkfifo").arg(&fifo).status().map(|s| s.success()).unwrap_or(false);
    // A subdirectory that cannot be listed (root can: then it just holds a good file).
    std::fs::create_dir(dir.join("g_sub")).unwrap();
    std::fs::write(dir.join("g_sub/h_good.bin"), &good).unwrap();

    for command in ["disasm", "info", "validate", "check"] {
        let out = dxref_within(&[command, "-r", dir.to_str().unwrap()], MINUTE);
        let (stdout, stderr) = (text(&out.stdout), text(&out.stderr));
        assert_eq!(out.status.code(), Some(2), "{command}: {stderr}");
        assert!(!stderr.contains("panicked"), "{command}: {stderr}");
        // The good ones are all there, the odd name shown with U+FFFD.
        for name in ["a_good.bin", "b_odd\u{FFFD}.bin", "g_sub/h_good.bin"] {
            assert!(stdout.contains(&format!("{}/{name}", dir.display())), "{command}: no {name} in {stdout}");
        }
        // One line for each bad one, naming it.
        let gone = format!("dxref: {}/c_gone.bin: a symbolic link to nothing", dir.display());
        assert!(stderr.contains(&gone), "{command}: {stderr}");
        assert!(stderr.contains(&format!("{}/d_loop: a link back to", dir.display())), "{command}: {stderr}");
        // (validate: the runtime refuses those bytes, on standard output.)
        let locked = if command == "validate" {
            stdout.contains(&format!("{}/e_locked.bin: V", dir.display()))
        } else {
            stderr.contains(&format!("dxref: {}/e_locked.bin", dir.display()))
        };
        assert!(locked, "{command}: {stdout}\n{stderr}");
        if made {
            assert!(!stderr.contains("f_fifo"), "a FIFO in a directory is not an input: {stderr}");
        }
        assert!(stderr.contains("inputs failed"), "{command}: {stderr}");
    }
    // --out-dir keeps the name's bytes.
    let out_dir = temp_dir("dir-out");
    let out = dxref_within(&["disasm".as_ref(), odd.as_os_str(), "--out-dir".as_ref(), out_dir.as_os_str()], MINUTE);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(out_dir.join(std::ffi::OsStr::from_bytes(b"b_odd\xff.asm")).exists());
    // A missing file whose name is not UTF-8: one lossy line.
    let missing = dir.join(std::ffi::OsStr::from_bytes(b"missing\xfe.cso"));
    let out = dxref_within(&["info".as_ref(), missing.as_os_str()], MINUTE);
    assert_eq!(out.status.code(), Some(2));
    let err = text(&out.stderr);
    assert!(err.starts_with(&format!("dxref: {}/missing\u{FFFD}.cso: ", dir.display())), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    let _ = std::fs::remove_dir_all(dir);
    let _ = std::fs::remove_dir_all(out_dir);
}

#[test]
fn a_huge_file_is_refused_before_it_is_read() {
    let dir = temp_dir("huge");
    // 10 GB that take no disk space (a sparse file): reading it into memory would take
    // far longer than the limit below, and 10 GB of memory.
    let huge = dir.join("huge.bin");
    let file = std::fs::File::create(&huge).unwrap();
    file.set_len(10 << 30).unwrap();
    drop(file);
    std::fs::copy(example(), dir.join("ok.bin")).unwrap();
    for command in ["disasm", "info", "validate", "check", "asm"] {
        let out = dxref_within(&[command, huge.to_str().unwrap()], Duration::from_secs(20));
        assert_eq!(out.status.code(), Some(2), "{command}");
        let err = text(&out.stderr);
        assert!(err.contains("huge.bin: 10737418240 bytes, larger than the 256 MiB dxref reads"), "{command}: {err}");
    }
    // In a batch: the others are done.
    let out = dxref_within(&["validate", dir.to_str().unwrap()], Duration::from_secs(20));
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stdout).contains("ok.bin: valid"), "{}", text(&out.stdout));
    // A device that never ends is refused once the limit has come.
    if Path::new("/dev/zero").exists() {
        let out = dxref_within(&["info", "/dev/zero"], MINUTE);
        assert_eq!(out.status.code(), Some(2));
        assert!(text(&out.stderr).contains("/dev/zero: larger than the 256 MiB"), "{}", text(&out.stderr));
    }
    let _ = std::fs::remove_dir_all(dir);
}

/// The lines `asm` prints for errors (`error: FILE:LINE:COL: ...`).
fn error_lines(stderr: &str) -> usize {
    stderr.lines().filter(|l| l.starts_with("error: ")).count()
}

#[test]
fn a_listing_with_100000_errors_prints_the_first_100() {
    let dir = temp_dir("errors");
    let listing = dir.join("errors.asm");
    std::fs::write(&listing, format!("ps_5_0\n{}ret \n", "foo r0, r1\n".repeat(100_000))).unwrap();
    let out = dxref_within(&["asm", listing.to_str().unwrap(), "-o", dir.join("x.bin").to_str().unwrap()], MINUTE);
    assert_eq!(out.status.code(), Some(2));
    let err = text(&out.stderr);
    assert_eq!(error_lines(&err), diagnostic::MAX_PRINTED, "{}", &err[..err.len().min(2000)]);
    assert!(err.contains(&format!("{} more errors not shown", 100_000 - diagnostic::MAX_PRINTED)), "{err}");
    assert!(err.trim_end().ends_with("100000 errors; nothing written"), "{}", &err[err.len().saturating_sub(300)..]);
    assert!(!dir.join("x.bin").exists());
    // validate names the first and counts the rest, in one line; so does a batch.
    let out = dxref_within(&["validate", listing.to_str().unwrap()], MINUTE);
    assert_eq!(out.status.code(), Some(2));
    let err = text(&out.stderr);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains("2:1: unknown instruction `foo`, and 99999 more"), "{err}");
    let out = dxref_within(&["validate", "--jsonl", listing.to_str().unwrap(), example().to_str().unwrap()], MINUTE);
    assert_eq!(text(&out.stdout).lines().count(), 2);
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn a_50_mb_listing_of_errors_is_reported_in_linear_time() {
    // 450,000 lines of 110 bytes, each an error: finding each error's line and column
    // by scanning from the start would be some 10^13 steps (hours); the report is linear
    // and takes seconds. The limit is generous for a loaded machine and a debug build.
    let dir = temp_dir("big");
    let listing = dir.join("big.asm");
    let line = format!("foo r0, r1 // {}\n", "x".repeat(95));
    let mut text_ = String::with_capacity(50 << 20);
    text_.push_str("vs_5_0\n");
    while text_.len() < 50_000_000 {
        text_.push_str(&line);
    }
    text_.push_str("ret \n");
    let lines = text_.lines().count();
    std::fs::write(&listing, &text_).unwrap();
    drop(text_);
    let limit = Duration::from_secs(300);
    let out = dxref_within(&["asm", listing.to_str().unwrap(), "-o", dir.join("x.bin").to_str().unwrap()], limit);
    assert_eq!(out.status.code(), Some(2));
    let err = text(&out.stderr);
    assert_eq!(error_lines(&err), diagnostic::MAX_PRINTED);
    let errors = lines - 2;
    assert!(err.trim_end().ends_with(&format!("{errors} errors; nothing written")), "{}", &err[err.len() - 300..]);
    // The last error shown is on line MAX_PRINTED + 1 (after the version line).
    assert!(err.contains(&format!("big.asm:{}:1: ", diagnostic::MAX_PRINTED + 1)), "{}", &err[..2000]);
    let out = dxref_within(&["validate", listing.to_str().unwrap()], limit);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains(&format!("and {} more", errors - 1)), "{}", text(&out.stderr));
    let _ = std::fs::remove_dir_all(dir);
}
