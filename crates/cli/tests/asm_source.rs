//! `dxref asm` on hand-written Shader Model 1–3 source: the source is recognised, its
//! `#include`s are read beside the source file, errors in an included file name that
//! file, and `--lenient` is accepted.

use std::path::PathBuf;
use std::process::Command;

mod common;
use common::*;

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("dxref-asm-source-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn source_with_includes_beside_it() {
    let dir = scratch("include");
    std::fs::write(dir.join("body.inc"), "mov oPos, SRC ; the position\n").unwrap();
    std::fs::write(dir.join("main.vsh"), "#define SRC v0\nvs.1.1\ndcl_position v0\n#include \"body.inc\"\n").unwrap();
    let out_file = dir.join("out.vso");
    // From another working folder: the include is found beside the source.
    let o = Command::new(env!("CARGO_BIN_EXE_dxref"))
        .current_dir(std::env::temp_dir())
        .args(["asm", dir.join("main.vsh").to_str().unwrap(), "-o", out_file.to_str().unwrap()])
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let bytes = std::fs::read(&out_file).unwrap();
    let words: Vec<u32> = bytes.chunks_exact(4).map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]])).collect();
    // vs_1_1, dcl_position v0, mov oPos, v0, end.
    assert_eq!(words, [0xfffe0101, 0x0000001f, 0x80000000, 0x900f0000, 0x00000001, 0xc00f0000, 0x90e40000, 0x0000ffff]);
}

#[test]
fn an_error_in_an_included_file_names_it() {
    let dir = scratch("error");
    std::fs::write(dir.join("bad.inc"), "\nmov oPos, q0\n").unwrap();
    let main = dir.join("main.vsh");
    std::fs::write(&main, "vs.1.1\n#include \"bad.inc\"\n").unwrap();
    let o = dxref(&["asm", main.to_str().unwrap(), "-o", "-"]);
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("bad.inc:2:11: error: `q` is not a register"), "{err}");
    // A missing include, at the file name in the including file.
    std::fs::write(&main, "vs.1.1\n#include \"missing.inc\"\n").unwrap();
    let err = String::from_utf8_lossy(&dxref(&["asm", main.to_str().unwrap(), "-o", "-"]).stderr).into_owned();
    assert!(err.contains(":2:10: failed to open source file: 'missing.inc'"), "{err}");
}

#[test]
fn lenient_is_accepted() {
    let dir = scratch("lenient");
    let main = dir.join("main.vsh");
    std::fs::write(&main, "vs.2.0\nmov oPos, c0 ; fine in both\n").unwrap();
    for extra in [&[][..], &["--lenient"][..]] {
        let mut args = vec!["asm", main.to_str().unwrap(), "-o", "-"];
        args.extend_from_slice(extra);
        let o = dxref(&args);
        assert!(o.status.success(), "{extra:?}: {}", String::from_utf8_lossy(&o.stderr));
        assert_eq!(&o.stdout[..4], &[0x00, 0x02, 0xfe, 0xff]);
    }
}
