//! Review: `dxref run` input edge cases — an empty file, whitespace only, `[]`, CSV
//! with blank lines and CRLF line ends, a `NaN` cell (refused, exit status 2), values
//! beyond the float range (±inf), and `--instances`.

use std::process::{Command, Output};

mod common;
use common::*;

fn run(input: &str, extra: &[&str]) -> Output {
    let vs = example("passthrough_vs.asm");
    let gs = example("point_to_quad_gs.asm");
    let mut args = vec!["run", "--vs", &vs, "--gs", &gs, "--input", input, "--out", "-"];
    args.extend_from_slice(extra);
    Command::new(env!("CARGO_BIN_EXE_dxref")).args(&args).output().unwrap()
}

fn json(out: &Output) -> serde_json::Value {
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    serde_json::from_slice(&out.stdout).unwrap()
}

const HEADER: &str = "POSITION.x,POSITION.y,POSITION.z,POSITION.w,COLOR.x,COLOR.y,COLOR.z,COLOR.w";

#[test]
fn review_no_vertices() {
    for (name, text) in [("empty.csv", ""), ("blank.csv", "\n \n\t\n"), ("zero.json", "[]"), ("header.csv", HEADER)] {
        let v = json(&run(&temp_file(name, text), &[]));
        assert_eq!(v["statistics"]["IAVertices"], 0, "{name}");
        assert_eq!(v["statistics"]["GSInvocations"], 0, "{name}");
        let prims = v["streams"][0]["primitives"].as_array().map_or(0, |a| a.len());
        assert_eq!(prims, 0, "{name}");
    }
}

#[test]
fn review_csv_blank_lines_and_crlf() {
    let text = format!("\n{HEADER}\r\n\r\n0,0,0,1,1,1,1,1\r\n\n\n0.5,0.5,0,1,0,0,0,1\n\n");
    let v = json(&run(&temp_file("blanks.csv", &text), &[]));
    assert_eq!(v["statistics"]["IAVertices"], 2);
    assert_eq!(v["statistics"]["GSPrimitives"], 4);
    // A bad row names its line in the file (blank lines counted).
    let text = format!("{HEADER}\n\n0,0,0,1,1,1,1\n");
    let out = run(&temp_file("short.csv", &text), &[]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains(":3:"), "{}", String::from_utf8_lossy(&out.stderr));
}

#[test]
fn review_nan_and_out_of_range_values() {
    // NaN (and inf) can be given, in CSV as in JSON; JSON writes NaN as "NaN".
    let v = json(&run(&temp_file("nan.csv", &format!("{HEADER}\nNaN,0,0,1,1,1,1,1\n")), &[]));
    assert_eq!(v["streams"][0]["primitives"][0][0]["SV_Position"][0], "NaN");
    // Text that is not a number is refused.
    let out = run(&temp_file("word.csv", &format!("{HEADER}\nabc,0,0,1,1,1,1,1\n")), &[]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("is not a number"));
    // 1e39 does not fit a float: +inf (and -inf), passed through unchanged; JSON writes
    // them as the strings "inf" and "-inf".
    let v = json(&run(&temp_file("big.csv", &format!("{HEADER}\n1e39,-1e39,0,1,1,1,1,1\n")), &[]));
    let p = &v["streams"][0]["primitives"][0][0]["SV_Position"];
    assert_eq!((p[0].as_str(), p[1].as_str()), (Some("inf"), Some("-inf")), "{p}");
}

#[test]
fn review_instances_repeat_the_draw() {
    let v = json(&run(&example("points.json"), &["--instances", "3"]));
    assert_eq!(v["statistics"]["IAVertices"], 12);
    assert_eq!(v["statistics"]["GSInvocations"], 12);
    assert_eq!(v["streams"][0]["primitives"].as_array().unwrap().len(), 24);
}
