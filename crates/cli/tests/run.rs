//! `dxref run`: the bundled point-to-quad example, JSON and CSV input, JSON output,
//! SVG, stream output, errors.

use std::path::PathBuf;
use std::process::Output;

mod common;
use common::*;

fn temp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("dxref-run-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

fn f(v: &serde_json::Value) -> f64 {
    v.as_f64().unwrap()
}

/// The README's first command: four points become four quads (two triangles each).
#[test]
fn the_bundled_example() {
    let svg = temp("quads.svg");
    let json = temp("quads.json");
    let out = dxref(&[
        "run",
        "--vs",
        &example("passthrough_vs.asm"),
        "--gs",
        &example("point_to_quad_gs.asm"),
        "--input",
        &example("points.json"),
        "--svg",
        svg.to_str().unwrap(),
        "--out",
        json.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    assert!(stdout.starts_with("stream 0 (trianglelist): 8 primitives"), "{stdout}");
    assert!(stdout.contains("GSInvocations=4"), "{stdout}");
    let picture = std::fs::read_to_string(&svg).unwrap();
    assert_eq!(picture.matches("<polygon").count(), 8, "{picture}");
    let v: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    let stream = &v["streams"][0];
    assert_eq!(stream["topology"], "trianglelist");
    let primitives = stream["primitives"].as_array().unwrap();
    assert_eq!(primitives.len(), 8);
    // The first quad: around (-0.6, -0.5), colour red, texture corners.
    let first = &primitives[0];
    let corners: Vec<(f64, f64)> =
        first.as_array().unwrap().iter().map(|v| (f(&v["SV_Position"][0]), f(&v["SV_Position"][1]))).collect();
    for (x, y) in &corners {
        assert!(((x + 0.6).abs() - 0.1).abs() < 1e-6 && ((y + 0.5).abs() - 0.1).abs() < 1e-6, "{corners:?}");
    }
    assert_eq!(first[0]["COLOR"].as_array().unwrap().len(), 4, "{first}");
    assert_eq!(f(&first[0]["COLOR"][0]), 1.0);
    assert_eq!(first[0]["TEXCOORD"].as_array().unwrap().len(), 2, "{first}");
    assert_eq!(v["statistics"]["GSInvocations"], 4);
    assert_eq!(v["statistics"]["GSPrimitives"], 8);
    assert_eq!(v["statistics"]["IAVertices"], 4);
    assert_eq!(v["rasterized_stream"], 0);
}

#[test]
fn csv_input_without_vs_and_stream_output() {
    let csv = temp("points.csv");
    std::fs::write(&csv, "SV_Position.x,SV_Position.y,SV_Position.z,SV_Position.w,COLOR.x,COLOR.y,COLOR.z,COLOR.w\n0,0,0,1,1,1,1,1\n0.5,0.5,0,1,0,0,0,1\n").unwrap();
    let out = dxref(&[
        "run",
        "--gs",
        &example("point_to_quad_gs.asm"),
        "--input",
        csv.to_str().unwrap(),
        "--so",
        "SV_Position.xy; $SKIP.x; TEXCOORD.xy",
        "--so-strides",
        "20",
        "--so-buffer-size",
        "200",
        "--out",
        "-",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["streams"][0]["primitives"].as_array().unwrap().len(), 4);
    let buffer = &v["stream_output"]["buffers"][0];
    assert_eq!(buffer["stride"], 20);
    // 200 bytes hold 10 vertices: 3 triangles (9 vertices) fit, the 4th does not.
    assert_eq!(buffer["bytes_written"], 180);
    assert_eq!(v["stream_output"]["statistics"][0]["NumPrimitivesWritten"], 3);
    assert_eq!(v["stream_output"]["statistics"][0]["PrimitivesStorageNeeded"], 4);
    let first = &buffer["vertices"][0];
    assert_eq!(first.as_array().unwrap().len(), 5);
    assert!(first[2].is_null(), "the gap: {first}");
    assert!((f(&first[0]) + 0.1).abs() < 1e-6, "{first}");
}

#[test]
fn errors() {
    // An input the shader does not have.
    let bad = temp("bad.json");
    std::fs::write(&bad, r#"[{"POSITION": [0, 0, 0, 1], "COLOR": [1, 1, 1, 1], "NORMAL": [0, 0, 1]}]"#).unwrap();
    let out = dxref(&["run", "--vs", &example("passthrough_vs.asm"), "--input", bad.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("NORMAL0 is not an input"), "{}", text(&out.stderr));
    // Malformed JSON names the line and column.
    std::fs::write(&bad, "[{\"POSITION\": [0, 0,]}]").unwrap();
    let out = dxref(&["run", "--vs", &example("passthrough_vs.asm"), "--input", bad.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains(":1:"), "{}", text(&out.stderr));
    // A shader the device refuses: exit 1 with its diagnostics.
    let gs = temp("too_many.asm");
    std::fs::write(&gs, "gs_4_0\ndcl_input v[1][0].xyzw\ndcl_inputprimitive point \ndcl_outputtopology pointlist \ndcl_output o0.xyzw\ndcl_output o1.xyz\ndcl_maxout 147\nemit \nret \n").unwrap();
    let out = dxref(&["run", "--gs", gs.to_str().unwrap(), "--input", &example("points.json")]);
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stderr).contains("V303"), "{}", text(&out.stderr));
    // Nothing to run.
    let out = dxref(&["run", "--input", &example("points.json")]);
    assert_eq!(out.status.code(), Some(2));
}

/// Review findings: zero instances draw nothing; a byte-order mark is ignored; NaN and
/// infinities can be given; integers out of range are refused; a draw too large to
/// keep in memory is refused up front.
#[test]
fn input_edges() {
    let vs = example("passthrough_vs.asm");
    let gs = example("point_to_quad_gs.asm");
    let points = example("points.json");
    let out = dxref(&["run", "--vs", &vs, "--gs", &gs, "--input", &points, "--instances", "0"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(text(&out.stdout).contains("0 primitives\nIAVertices=0 "), "{}", text(&out.stdout));

    let bom = temp("bom.json");
    std::fs::write(&bom, "\u{feff}[{\"POSITION\": [0, 0, 0, 1], \"COLOR\": [\"NaN\", \"inf\", \"-inf\", 1]}]").unwrap();
    let out = dxref(&["run", "--vs", &vs, "--input", bom.to_str().unwrap(), "--out", "-"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let colour = &v["streams"][0]["primitives"][0][0]["COLOR"];
    assert_eq!(colour[0], "NaN", "{colour}");
    assert_eq!(colour[1], "inf", "{colour}");
    assert_eq!(colour[2], "-inf", "{colour}");

    let csv = temp("bom.csv");
    std::fs::write(&csv, "\u{feff}POSITION.x,POSITION.y,COLOR.x\n0,0,nan\n").unwrap();
    let out = dxref(&["run", "--vs", &vs, "--input", csv.to_str().unwrap(), "--quiet"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));

    // A uint input out of range.
    let ivs = temp("int_vs.asm");
    std::fs::write(
        &ivs,
        "//\n// Input signature:\n//\n// Name                 Index   Mask Register SysValue  Format   Used\n// -------------------- ----- ------ -------- -------- ------- ------\n// ID                       0   x           0     NONE    uint   x   \n//\n//\n// Output signature:\n//\n// Name                 Index   Mask Register SysValue  Format   Used\n// -------------------- ----- ------ -------- -------- ------- ------\n// SV_Position              0   xyzw        0      POS   float   xyzw\n//\nvs_4_0\ndcl_input v0.x\ndcl_output_siv o0.xyzw, position\nutof o0.xyzw, v0.xxxx\nret \n",
    )
    .unwrap();
    for (value, ok) in [("4294967295", true), ("4294967296", false), ("-1", false), ("1.5", false)] {
        let input = temp("ids.json");
        std::fs::write(&input, format!("[{{\"ID\": [{value}]}}]")).unwrap();
        let out = dxref(&["run", "--vs", ivs.to_str().unwrap(), "--input", input.to_str().unwrap(), "--quiet"]);
        assert_eq!(out.status.code(), Some(if ok { 0 } else { 2 }), "{value}: {}", text(&out.stderr));
    }

    // A billion instances would keep billions of primitives: refused at once.
    let out = dxref(&["run", "--vs", &vs, "--gs", &gs, "--input", &points, "--instances", "1000000000"]);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
    assert!(text(&out.stderr).contains("--quiet"), "{}", text(&out.stderr));
}

#[test]
fn stream_output_buffer_size_is_bounded() {
    let gs = example("point_to_quad_gs.asm");
    let points = example("points.json");
    let out =
        dxref(&["run", "--gs", &gs, "--input", &points, "--so", "SV_Position.xyzw", "--so-buffer-size", "4294967295"]);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
    assert!(text(&out.stderr).contains("--so-buffer-size"), "{}", text(&out.stderr));
}

/// `--so-json`: the same declaration as raw arguments (the form of `dxref validate
/// --so-json`) writes the same buffer; a pointer to no entries is refused by the create
/// call (exit 1), a malformed file is an input error (exit 2).
#[test]
fn stream_output_as_raw_arguments() {
    let csv = temp("points-json.csv");
    std::fs::write(
        &csv,
        "SV_Position.x,SV_Position.y,SV_Position.z,SV_Position.w,COLOR.x,COLOR.y,COLOR.z,COLOR.w\n0,0,0,1,1,1,1,1\n",
    )
    .unwrap();
    let gs = example("point_to_quad_gs.asm");
    let run = |so: &[&str]| {
        let mut args = vec!["run", "--gs", &gs, "--input", csv.to_str().unwrap()];
        args.extend_from_slice(so);
        args.extend_from_slice(&["--out", "-"]);
        dxref(&args)
    };
    let text_form = run(&["--so", "SV_Position.xy; $SKIP.x; TEXCOORD.xy", "--so-strides", "20"]);
    assert_eq!(text_form.status.code(), Some(0), "{}", text(&text_form.stderr));
    let json = temp("so.json");
    std::fs::write(
        &json,
        r#"{ "declaration": [
              { "semantic_name": "SV_Position", "start_component": 0, "component_count": 2 },
              { "semantic_name": null, "component_count": 1 },
              { "semantic_name": "TEXCOORD", "component_count": 2 } ],
            "strides": [20] }"#,
    )
    .unwrap();
    let json_form = run(&["--so-json", json.to_str().unwrap()]);
    assert_eq!(json_form.status.code(), Some(0), "{}", text(&json_form.stderr));
    let buffers = |o: &Output| serde_json::from_slice::<serde_json::Value>(&o.stdout).unwrap()["stream_output"].clone();
    assert_eq!(buffers(&json_form), buffers(&text_form));
    std::fs::write(&json, r#"{ "declaration": [] }"#).unwrap();
    let out = run(&["--so-json", json.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    assert!(text(&out.stderr).contains("V602"), "{}", text(&out.stderr));
    std::fs::write(&json, r#"{ "declaration": [ { "semantic_name": "X" } ] }"#).unwrap();
    assert_eq!(run(&["--so-json", json.to_str().unwrap()]).status.code(), Some(2));
}
