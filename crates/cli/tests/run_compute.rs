//! `dxref run --cs`: a compute shader's dispatch, its UAVs from files or zero-filled,
//! the words after it and CSInvocations, as text and JSON; its errors.

use std::path::PathBuf;

mod common;
use common::*;

fn temp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("dxref-run-compute-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

/// The README's example: two groups sum 64 numbers each in shared memory.
#[test]
fn the_bundled_group_sum() {
    let json = temp("sums.json");
    let out = dxref(&[
        "run",
        "--cs",
        &example("group_sum_cs.asm"),
        "--dispatch",
        "2,1,1",
        "--uav",
        &format!("0={}", example("numbers.json")),
        "--uav-size",
        "8",
        "--out",
        json.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    assert!(stdout.contains("u1 (raw, 8 bytes):\n  000000: 0x00000820 0x00001820\n"), "{stdout}");
    assert!(stdout.contains("CSInvocations=128 thread_groups=2 barriers=14"), "{stdout}");
    let stderr = text(&out.stderr);
    assert!(stderr.contains("u1 (UAV) is not bound (--uav 1=FILE): 8 zero bytes"), "{stderr}");
    let v: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    assert_eq!(v["statistics"]["CSInvocations"], 128);
    assert_eq!(v["uavs"][1]["words"], serde_json::json!([2080, 6176]));
    assert_eq!(v["uavs"][0]["words"][127], 128);
}

#[test]
fn dispatch_errors() {
    let cs = example("group_sum_cs.asm");
    let out = dxref(&["run", "--cs", &cs, "--dispatch", "2,1"]);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
    assert!(text(&out.stderr).contains("expected X,Y,Z"));
    let out = dxref(&["run", "--cs", &cs, "--dispatch", "65536,1,1"]);
    assert_eq!(out.status.code(), Some(2));
    let out = dxref(&["run", "--vs", &example("passthrough_vs.asm"), "--dispatch", "1,1,1"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("--dispatch and --uav go with --cs"), "{}", text(&out.stderr));
    let out = dxref(&["run", "--cs", &cs, "--uav", "gs:0=x.json"]);
    assert_eq!(out.status.code(), Some(2));
    // A vertex shader given as --cs: the device refuses it as a compute shader.
    let out = dxref(&["run", "--cs", &example("passthrough_vs.asm")]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
}

/// A barrier in divergent flow control: the dispatch fails with the error's kind.
#[test]
fn a_divergent_barrier_fails_the_run() {
    let listing = temp("divergent.asm");
    std::fs::write(
        &listing,
        "cs_5_0\ndcl_input vThreadIDInGroupFlattened\ndcl_thread_group 4, 1, 1\n\
         if_z vThreadIDInGroupFlattened.x\n  sync_g_t\nendif\nret\n",
    )
    .unwrap();
    let out = dxref(&["run", "--cs", listing.to_str().unwrap()]);
    // Microsoft's validation refuses a barrier in divergent flow control only in fxc;
    // the device takes the bytecode.
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("divergent flow control"), "{stderr}");
}
