//! `dxref asm` on listings with very many errors: the first ones are printed with
//! their source line, then one line says how many more there are, and the time taken
//! grows with the size of the file, not with the square of the number of errors.

use std::path::PathBuf;
use std::process::{Command, Output};
use std::time::{Duration, Instant};

fn asm(name: &str, text: &str) -> (Output, Duration) {
    let dir = std::env::temp_dir();
    let path: PathBuf = dir.join(format!("dxref-many-errors-{}-{name}", std::process::id()));
    std::fs::write(&path, text).unwrap();
    let out_path = path.with_extension("bin");
    let start = Instant::now();
    let out = Command::new(env!("CARGO_BIN_EXE_dxref"))
        .args(["asm", path.to_str().unwrap(), "-o", out_path.to_str().unwrap()])
        .output()
        .unwrap();
    let took = start.elapsed();
    let _ = std::fs::remove_file(&path);
    assert!(!out_path.exists(), "nothing is written");
    (out, took)
}

/// The `error:` lines of the output.
fn printed(out: &Output) -> Vec<String> {
    String::from_utf8_lossy(&out.stderr).lines().filter(|l| l.starts_with("error: ")).map(str::to_string).collect()
}

#[test]
fn sixteen_thousand_lines_without_a_version_line() {
    let (out, took) = asm("nover.asm", &"mov r0, r1\n".repeat(16_000));
    assert_eq!(out.status.code(), Some(2));
    let errors = printed(&out);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(errors.len(), diagnostic::MAX_PRINTED, "{}", &stderr[stderr.len().saturating_sub(500)..]);
    // The first is line 1, the last printed is line MAX_PRINTED.
    assert!(errors[0].contains("nover.asm:1:1:"), "{}", errors[0]);
    assert!(errors[diagnostic::MAX_PRINTED - 1].contains(&format!(":{}:1:", diagnostic::MAX_PRINTED)));
    // One error per line, and one for the missing version line at the end.
    let more = 16_001 - diagnostic::MAX_PRINTED;
    assert!(stderr.contains(&format!("{more} more errors not shown")), "{}", &stderr[stderr.len() - 300..]);
    // The summary still counts them all.
    assert!(stderr.trim_end().ends_with("16001 errors; nothing written"), "{}", &stderr[stderr.len() - 300..]);
    assert!(took < Duration::from_secs(5), "{took:?}");
}

#[test]
fn many_errors_in_a_shader_model_5_listing_are_capped() {
    let (out, took) = asm("many.asm", &format!("ps_5_0\n{}ret \n", "foo r0, r1\n".repeat(20_000)));
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(printed(&out).len(), diagnostic::MAX_PRINTED);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains(&format!("{} more errors not shown", 20_000 - diagnostic::MAX_PRINTED)));
    assert!(took < Duration::from_secs(5), "{took:?}");
}

#[test]
fn a_few_errors_are_all_printed_without_a_summary_line() {
    let (out, _) = asm("few.asm", "ps_5_0\nfoo r0\nbar r1\nret \n");
    assert_eq!(printed(&out).len(), 2);
    assert!(!String::from_utf8_lossy(&out.stderr).contains("more errors"));
}
