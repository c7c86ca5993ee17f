//! `dxref run --hex` (every output component as its 32-bit pattern, NaN payloads and
//! negative zero included; `--input` takes the same hex strings) and `--provenance`
//! (each output vertex's input primitive, GS instance and emission number).

use std::process::Output;

use serde_json::{json, Value};

mod common;
use common::*;

fn ok(out: &Output) -> Value {
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    serde_json::from_slice(&out.stdout).unwrap()
}

/// NaN payloads, negative zero and denormals pass through the pass-through VS bit for
/// bit, and `--hex` shows them; without it NaN is only "NaN".
#[test]
fn hex_words_in_and_out() {
    let vs = example("passthrough_vs.asm");
    let input = temp_file(
        "bits.json",
        r#"[{"POSITION": ["0x7fc00001", "0x80000000", "0xffc12345", 1.5], "COLOR": ["0x00000001", 0.5, "0x7f800000", "0X3F800000"]}]"#,
    );
    let v = ok(&dxref(&["run", "--vs", &vs, "--input", &input, "--hex", "--out", "-"]));
    let vertex = &v["streams"][0]["primitives"][0][0];
    assert_eq!(vertex["SV_Position"], json!(["0x7fc00001", "0x80000000", "0xffc12345", "0x3fc00000"]));
    // The pass-through VS moves the denormal unchanged (mov does not flush).
    assert_eq!(vertex["COLOR"], json!(["0x00000001", "0x3f000000", "0x7f800000", "0x3f800000"]));
    let plain = ok(&dxref(&["run", "--vs", &vs, "--input", &input, "--out", "-"]));
    assert_eq!(plain["streams"][0]["primitives"][0][0]["SV_Position"][0], "NaN");
    // The printed primitives too.
    let out = dxref(&["run", "--vs", &vs, "--input", &input, "--hex"]);
    assert!(
        text(&out.stdout).contains("SV_Position=(0x7fc00001, 0x80000000, 0xffc12345, 0x3fc00000)"),
        "{}",
        text(&out.stdout)
    );
    // CSV cells take hex words as well.
    let csv = temp_file("bits.csv", "POSITION.x,POSITION.w,COLOR.x\n0x7fc00002,1,0xbf800000\n");
    let v = ok(&dxref(&["run", "--vs", &vs, "--input", &csv, "--hex", "--out", "-"]));
    let vertex = &v["streams"][0]["primitives"][0][0];
    assert_eq!(vertex["SV_Position"], json!(["0x7fc00002", "0x00000000", "0x00000000", "0x3f800000"]));
    assert_eq!(vertex["COLOR"][0], "0xbf800000");
    // A hex word longer than 32 bits is refused.
    let bad = temp_file("bad_bits.json", r#"[{"POSITION": ["0x100000000"]}]"#);
    let out = dxref(&["run", "--vs", &vs, "--input", &bad]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("0x3f800000"), "{}", text(&out.stderr));
}

/// Stream-output buffer words in hex.
#[test]
fn hex_stream_output() {
    let csv = temp_file("so.csv", "SV_Position.x,SV_Position.y,SV_Position.z,SV_Position.w,COLOR.x\n0,0,0,1,1\n");
    let out = dxref(&[
        "run",
        "--gs",
        &example("point_to_quad_gs.asm"),
        "--input",
        &csv,
        "--so",
        "SV_Position.xy",
        "--hex",
        "--out",
        "-",
    ]);
    let v = ok(&out);
    // -0.1 as f32: 0xbdcccccd.
    assert_eq!(v["stream_output"]["buffers"][0]["vertices"][0], json!(["0xbdcccccd", "0xbdcccccd"]));
}

/// The bundled example's quads: every vertex names its point (input primitive), GS
/// instance 0 and its emit (0..3; the strip's second triangle is emits 1, 3, 2).
#[test]
fn provenance_of_the_bundled_example() {
    let args = [
        "run",
        "--vs",
        &example("passthrough_vs.asm"),
        "--gs",
        &example("point_to_quad_gs.asm"),
        "--input",
        &example("points.json"),
        "--provenance",
    ];
    let v = ok(&dxref(&[&args[..], &["--out", "-"]].concat()));
    let primitives = v["streams"][0]["primitives"].as_array().unwrap();
    assert_eq!(primitives.len(), 8);
    for (i, p) in primitives.iter().enumerate() {
        let emits: Vec<Value> = p.as_array().unwrap().iter().map(|v| v["$provenance"]["emission"].clone()).collect();
        assert_eq!(
            emits,
            if i % 2 == 0 { vec![json!(0), json!(1), json!(2)] } else { vec![json!(1), json!(3), json!(2)] }
        );
        for vertex in p.as_array().unwrap() {
            assert_eq!(vertex["$provenance"]["input_primitive"], json!(i / 2), "{vertex}");
            assert_eq!(vertex["$provenance"]["gs_instance"], json!(0), "{vertex}");
        }
    }
    let out = dxref(&args);
    assert!(text(&out.stdout).contains("    [prim 3 inst 0 emit 3] SV_Position="), "{}", text(&out.stdout));
    // Without --provenance, no key.
    let v = ok(&dxref(&[&args[..7], &["--out", "-"]].concat()));
    assert!(v["streams"][0]["primitives"][0][0].get("$provenance").is_none());
}

/// A three-instance GS emitting a point per instance, and a VS-only draw.
#[test]
fn provenance_with_gs_instances_and_without_gs() {
    let gs = temp_file(
        "instanced_gs.asm",
        "//\n// Input signature:\n//\n// Name                 Index   Mask Register SysValue  Format   Used\n\
         // -------------------- ----- ------ -------- -------- ------- ------\n\
         // SV_Position              0   xyzw        0      POS   float   xyzw\n//\n//\n// Output signature:\n//\n\
         // Name                 Index   Mask Register SysValue  Format   Used\n\
         // -------------------- ----- ------ -------- -------- ------- ------\n\
         // SV_Position              0   xyzw        0      POS   float   xyzw\n//\n\
         gs_5_0\ndcl_input_siv v[1][0].xyzw, position\ndcl_input vGSInstanceID\ndcl_inputprimitive point\n\
         dcl_outputtopology pointlist\ndcl_output_siv o0.xyzw, position\ndcl_maxout 2\ndcl_gsinstances 3\n\
         dcl_temps 1\nutof r0.x, vGSInstanceID.x\nadd o0.xyzw, v[0][0].xyzw, r0.xxxx\nemit\nemit\nret\n",
    );
    let csv = temp_file("two.csv", "SV_Position.x,SV_Position.y,SV_Position.z,SV_Position.w\n0,0,0,1\n0.5,0,0,1\n");
    let v = ok(&dxref(&["run", "--gs", &gs, "--input", &csv, "--provenance", "--out", "-"]));
    let got: Vec<(u64, u64, u64)> = v["streams"][0]["primitives"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| {
            let q = &p[0]["$provenance"];
            (
                q["input_primitive"].as_u64().unwrap(),
                q["gs_instance"].as_u64().unwrap(),
                q["emission"].as_u64().unwrap(),
            )
        })
        .collect();
    let want: Vec<(u64, u64, u64)> =
        (0..2).flat_map(|p| (0..3).flat_map(move |i| (0..2).map(move |e| (p, i, e)))).collect();
    assert_eq!(got, want);
    // Without a GS: the input primitive only.
    let tri = temp_file(
        "tri.json",
        r#"[{"POSITION": [0, 0, 0, 1], "COLOR": 1}, {"POSITION": [1, 0, 0, 1], "COLOR": 1}, {"POSITION": [0, 1, 0, 1], "COLOR": 1},
            {"POSITION": [1, 1, 0, 1], "COLOR": 1}]"#,
    );
    let v = ok(&dxref(&[
        "run",
        "--vs",
        &example("passthrough_vs.asm"),
        "--input",
        &tri,
        "--topology",
        "trianglestrip",
        "--provenance",
        "--out",
        "-",
    ]));
    let p = &v["streams"][0]["primitives"];
    assert_eq!(p[1][2]["$provenance"], json!({"input_primitive": 1, "gs_instance": null, "emission": null}));
    let out = dxref(&["run", "--vs", &example("passthrough_vs.asm"), "--input", &tri, "--provenance"]);
    assert!(text(&out.stdout).contains("    [prim 3] SV_Position=(1.0, 1.0, 0.0, 1.0)"), "{}", text(&out.stdout));
}
