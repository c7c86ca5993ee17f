//! The Shader Model 1–3 family through the command line: `dxref asm` writes the raw
//! token stream of a listing, `dxref disasm` prints it back, `dxref info` describes it,
//! `dxref validate` reads the listing itself; an effect file holding one shader is
//! read as that shader; assembler errors name line and column.

use std::path::PathBuf;

mod common;
use common::*;

/// A fresh scratch directory for one test.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("dxref-d3dbc-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// A vs_2_x listing as fxc prints it (no constant table), with two nested `rep`s.
const NESTED_REPS: &str = "    vs_2_x
    defi i0, 4, 0, 1, 0
    dcl_position v0
    mov r0, v0
    rep i0
      rep i0
        add r0, r0, c0
      endrep
    endrep
    mov oPos, r0

// approximately 13 instruction slots used
";

#[test]
fn asm_disasm_info_validate() {
    let dir = scratch("roundtrip");
    let asm = dir.join("nested.asm");
    let vso = dir.join("nested.vso");
    std::fs::write(&asm, NESTED_REPS).unwrap();
    let out = dxref(&["asm", asm.to_str().unwrap(), "-o", vso.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let bytes = std::fs::read(&vso).unwrap();
    assert_eq!(&bytes[..4], &0xfffe_0201u32.to_le_bytes(), "a raw vs_2_x stream, no container");
    assert_eq!(&bytes[bytes.len() - 4..], &0x0000_ffffu32.to_le_bytes());

    // The listing comes back as it was written.
    let out = dxref(&["disasm", vso.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(text(&out.stdout), NESTED_REPS);

    let out = dxref(&["info", vso.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let info = text(&out.stdout);
    assert!(info.contains("Shader Model 1-3 (d3dbc) program") && info.contains("vs_2_x, 9 instructions"), "{info}");

    // Seed 002: nested reps are valid for vs_2_x with StaticFlowControlDepth 2 or more,
    // refused with 1 and always in vs_2_0; the listing is validated directly too.
    let out = dxref(&["validate", vso.to_str().unwrap()]);
    assert_eq!((out.status.code(), text(&out.stdout)), (Some(0), "valid\n".to_string()));
    let out = dxref(&["validate", asm.to_str().unwrap(), "--caps", "static-flow-depth=1"]);
    assert_eq!(out.status.code(), Some(1));
    let refused = text(&out.stdout);
    assert!(refused.contains("V916") && refused.contains("loop/rep nesting") && refused.contains("`rep`"), "{refused}");
    std::fs::write(&asm, NESTED_REPS.replace("vs_2_x", "vs_2_0")).unwrap();
    let out = dxref(&["validate", asm.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stdout));
    assert!(text(&out.stdout).contains("limit of vs_2_0 is 1"), "{}", text(&out.stdout));
}

#[test]
fn effects_with_one_shader_are_read() {
    let dir = scratch("effect");
    let asm = dir.join("ps.asm");
    let pso = dir.join("ps.pso");
    std::fs::write(&asm, "    ps_2_0\n    dcl t0\n    mov oC0, t0\n").unwrap();
    let out = dxref(&["asm", asm.to_str().unwrap(), "-o", pso.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    // An fx_2_0 effect: its version token, some effect data, the shader, more data.
    let mut fx: Vec<u8> = [0xfeff_0901u32, 16, 3, 7].iter().flat_map(|w| w.to_le_bytes()).collect();
    fx.extend(std::fs::read(&pso).unwrap());
    fx.extend([1u32, 2, 3].iter().flat_map(|w| w.to_le_bytes()));
    let fxo = dir.join("effect.fxo");
    std::fs::write(&fxo, &fx).unwrap();
    let out = dxref(&["disasm", fxo.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(text(&out.stdout).contains("    ps_2_0\n    dcl t0\n    mov oC0, t0\n"), "{}", text(&out.stdout));
    let out = dxref(&["validate", fxo.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stdout));
}

#[test]
fn assembler_errors_name_line_and_column() {
    let dir = scratch("errors");
    let asm = dir.join("bad.asm");
    std::fs::write(&asm, "    vs_2_0\n    dcl_position v0\n    mov oPos, q7\n").unwrap();
    let out = dxref(&["asm", asm.to_str().unwrap(), "-o", dir.join("bad.vso").to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    let err = text(&out.stderr);
    assert!(err.contains("bad.asm:3:15"), "{err}");
    assert!(!dir.join("bad.vso").exists(), "nothing is written on error");
}
