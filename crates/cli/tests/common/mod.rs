//! What the `dxref` command tests share: running the built binary, reading its output,
//! a scratch folder per test.
#![allow(dead_code)] // each test binary uses some of these

use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Output, Stdio};

/// Runs the `dxref` binary of this build with `args`, standard input empty.
pub fn dxref(args: &[&str]) -> Output {
    dxref_in(args, None)
}

/// Runs `dxref` with `args`, writing `stdin` (if any) to its standard input.
/// `NO_COLOR` is removed from its environment so that a test sees the same defaults
/// wherever it runs.
pub fn dxref_in(args: &[&str], stdin: Option<&[u8]>) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_dxref"))
        .args(args)
        .env_remove("NO_COLOR")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the dxref binary starts");
    let mut pipe = child.stdin.take().expect("a piped standard input");
    if let Some(bytes) = stdin {
        // The command may exit (usage error) before reading its input: a broken pipe
        // here is not the test's concern; the exit status is.
        let _ = pipe.write_all(bytes);
    }
    drop(pipe);
    child.wait_with_output().expect("dxref ends")
}

/// Output bytes as text (lossy: a test compares text).
pub fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

/// A fresh, empty folder for one test: `dxref-<test file>-<pid>-<name>` in the system's
/// temporary folder.
pub fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("dxref-{}-{}-{name}", env!("CARGO_CRATE_NAME"), std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("a scratch folder");
    dir
}

/// The path of the bundled example `name` (in the repository's `examples/`), as an
/// argument.
pub fn example(name: &str) -> String {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../examples").join(name).to_string_lossy().into_owned()
}

/// Writes `contents` to the file `name` in this test binary's scratch folder (written
/// aside and renamed, so that tests running in parallel never read a half-written
/// file); returns its path as an argument.
pub fn temp_file(name: &str, contents: &str) -> String {
    static COUNTER: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let dir = std::env::temp_dir().join(format!("dxref-{}-{}", env!("CARGO_CRATE_NAME"), std::process::id()));
    std::fs::create_dir_all(&dir).expect("a scratch folder");
    let n = COUNTER.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let (part, path) = (dir.join(format!(".{name}.{n}")), dir.join(name));
    std::fs::write(&part, contents).expect("a scratch file");
    std::fs::rename(&part, &path).expect("a scratch file renamed");
    path.to_string_lossy().into_owned()
}
