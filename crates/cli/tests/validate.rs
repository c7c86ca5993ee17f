//! `dxref validate` and `dxref asm --validate`: verdicts, exit statuses, JSON.

use std::path::PathBuf;

mod common;
use common::*;

fn example() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../examples/point_sprite_gs.dxbc")
}

/// The example of Microsoft's dcl_maxOutputVertexCount page: position and colour (7 scalars), 147 vertices.
const TOO_MANY: &str = "gs_4_0\ndcl_input v[1][0].xyzw\ndcl_inputprimitive point \ndcl_outputtopology pointlist \ndcl_output_siv o0.xyzw, position\ndcl_output o1.xyz\ndcl_maxout 147\nemit \nret \n";

#[test]
fn valid_shader_prints_valid_and_exits_0() {
    let out = dxref_in(&["validate", example().to_str().unwrap()], None);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(text(&out.stdout), "valid\n");
}

#[test]
fn refused_shader_lists_diagnostics_and_exits_1() {
    let out = dxref_in(&["validate", "-"], Some(TOO_MANY.as_bytes()));
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    assert!(stdout.contains("V303"), "{stdout}");
    assert!(stdout.contains("dcl_maxout"), "{stdout}");
    assert!(stdout.contains("146"), "{stdout}");
    let ok = TOO_MANY.replace("147", "146");
    let out = dxref_in(&["validate", "-"], Some(ok.as_bytes()));
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stdout));
}

#[test]
fn stage_feature_level_and_runtime_options() {
    let gs = example();
    let gs = gs.to_str().unwrap();
    let out = dxref_in(&["validate", gs, "--stage", "vs"], None);
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stdout).contains("V109"), "{}", text(&out.stdout));
    let out = dxref_in(&["validate", gs, "--feature-level", "9_3"], None);
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stdout).contains("V111"), "{}", text(&out.stdout));
    // A geometry shader with a UAV store: 11.1 runtime with UAVs at every stage only.
    let uav = "gs_5_0\ndcl_input v[1][0].xyzw\ndcl_inputprimitive point \ndcl_outputtopology pointlist \ndcl_output o0.xyzw\ndcl_maxout 1\ndcl_uav_raw u0\nstore_raw u0.x, l(0), l(1)\nemit \nret \n";
    let out = dxref_in(&["validate", "-", "--runtime", "11.1", "--feature-level", "11_1"], Some(uav.as_bytes()));
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stdout));
    let out = dxref_in(&["validate", "-", "--runtime", "11.0"], Some(uav.as_bytes()));
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stdout).contains("V501"), "{}", text(&out.stdout));
    let out = dxref_in(&["validate", "-", "--no-uav-all-stages"], Some(uav.as_bytes()));
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stdout).contains("V502"), "{}", text(&out.stdout));
    let out = dxref_in(&["validate", "-", "--feature-level", "11_0", "--uav-all-stages"], Some(uav.as_bytes()));
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stdout));
}

#[test]
fn json_output() {
    let out = dxref_in(&["validate", "-", "--json"], Some(TOO_MANY.as_bytes()));
    assert_eq!(out.status.code(), Some(1));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["valid"], false);
    assert_eq!(v["shader"]["stage"], "gs");
    assert_eq!(v["diagnostics"][0]["code"], "V303");
    assert_eq!(v["diagnostics"][0]["location"]["kind"], "instruction");
    assert_eq!(v["diagnostics"][0]["location"]["mnemonic"], "dcl_maxout");
    assert!(v["diagnostics"][0]["location"]["offset"].as_u64().unwrap() > 0);
}

#[test]
fn unreadable_input_and_bad_options_exit_2() {
    let out = dxref_in(&["validate", "/nonexistent/shader.dxbc"], None);
    assert_eq!(out.status.code(), Some(2));
    let out = dxref_in(&["validate", "-"], Some(b"gs_5_0\nnot_an_instruction r0\n"));
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stdout));
    assert!(text(&out.stderr).contains("2:1"), "{}", text(&out.stderr));
    let out = dxref_in(&["validate", example().to_str().unwrap(), "--feature-level", "12_0"], None);
    assert_eq!(out.status.code(), Some(2));
    let out = dxref_in(&["validate", example().to_str().unwrap(), "--stage", "xs"], None);
    assert_eq!(out.status.code(), Some(2));
    // Binary garbage is a refused container (with its byte offset), not unreadable input.
    let out = dxref_in(&["validate", "-"], Some(&[0u8, 1, 2, 3, 0xff, 0xfe]));
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stdout).contains("V102 byte 0"), "{}", text(&out.stdout));
}

#[test]
fn list_rules_names_every_code() {
    let out = dxref_in(&["validate", "--list-rules"], None);
    assert_eq!(out.status.code(), Some(0));
    let listed = text(&out.stdout);
    for rule in validate::RULES {
        assert!(listed.contains(rule.id) && listed.contains(rule.title), "{}", rule.id);
    }
}

#[test]
fn asm_validate_writes_nothing_for_a_refused_shader() {
    let dir = std::env::temp_dir().join(format!("dxref-validate-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let out_path = dir.join("too_many.dxbc");
    let out = dxref_in(&["asm", "--validate", "-", "-o", out_path.to_str().unwrap()], Some(TOO_MANY.as_bytes()));
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    assert!(text(&out.stderr).contains("V303"));
    assert!(!out_path.exists());
    let ok = TOO_MANY.replace("147", "146");
    let out = dxref_in(&["asm", "--validate", "-", "-o", out_path.to_str().unwrap()], Some(ok.as_bytes()));
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(out_path.exists());
    // Without --validate the assembler writes what the runtime would refuse.
    let refused = dir.join("refused.dxbc");
    let out = dxref_in(&["asm", "-", "-o", refused.to_str().unwrap()], Some(TOO_MANY.as_bytes()));
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(refused.exists());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn shader_model_5_1_needs_api_d3d12() {
    let vs51 = "vs_5_1\ndcl_input v0.xyzw\ndcl_output_siv o0.xyzw, position\nmov o0.xyzw, v0.xyzw\nret \n";
    let out = dxref_in(&["validate", "-"], Some(vs51.as_bytes()));
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stdout).contains("V112"), "{}", text(&out.stdout));
    let out = dxref_in(&["validate", "-", "--api", "d3d12"], Some(vs51.as_bytes()));
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stdout));
    assert_eq!(text(&out.stdout), "valid\n");
    let out = dxref_in(&["validate", "-", "--api", "d3d13"], Some(vs51.as_bytes()));
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn stream_output_declaration() {
    let gs = "gs_5_0\ndcl_input v[1][0].xyzw\ndcl_inputprimitive point \ndcl_stream m0\ndcl_outputtopology pointlist \ndcl_output o0.xyzw\ndcl_output o1.xy\ndcl_stream m1\ndcl_outputtopology pointlist \ndcl_output o0.xyz\ndcl_maxout 4\nemit_stream m0\nemit_stream m1\nret \n";
    let listing = dxref_in(&["asm", "-", "-o", "-"], Some(gs.as_bytes()));
    assert!(listing.status.success(), "{}", text(&listing.stderr));
    let bytes = listing.stdout;
    // The derived signature names the outputs TEXCOORD<register> (see `dxref info`).
    let info = dxref_in(&["info", "-", "--json"], Some(&bytes));
    let info: serde_json::Value = serde_json::from_slice(&info.stdout).unwrap();
    let names: Vec<String> = info["signatures"]["OSG5"]
        .as_array()
        .map(|a| a.iter().map(|e| format!("{}{}", e["semantic"].as_str().unwrap_or(""), e["index"])).collect())
        .unwrap_or_default();
    // Stream 0's o0, o1 and stream 1's o0, in signature order.
    assert_eq!(names.len(), 3, "{names:?}");
    let (name0, name1) = (&names[0], &names[2]);
    let ok = format!("{name0}; s1:1:{name1}.xyz");
    let out = dxref_in(&["validate", "-", "--so", &ok, "--so-strides", "16,12", "--so-rasterized", "0"], Some(&bytes));
    assert_eq!(out.status.code(), Some(0), "{}\n{names:?}", text(&out.stdout));
    // The same buffer for both streams.
    let bad = format!("{name0}; s1:0:{name1}.xyz");
    let out = dxref_in(&["validate", "-", "--so", &bad], Some(&bytes));
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stdout).contains("V608"), "{}", text(&out.stdout));
    // A stride too small for the entries.
    let out = dxref_in(&["validate", "-", "--so", &ok, "--so-strides", "12,12"], Some(&bytes));
    assert!(text(&out.stdout).contains("V609"), "{}", text(&out.stdout));
    // Rasterized stream 4.
    let out = dxref_in(&["validate", "-", "--so", &ok, "--so-rasterized", "4"], Some(&bytes));
    assert!(text(&out.stdout).contains("V610"), "{}", text(&out.stdout));
    // A syntax error names its column; exit 2.
    let out = dxref_in(&["validate", "-", "--so", "s9x:POSITION"], Some(&bytes));
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("column"), "{}", text(&out.stderr));
}

/// A file in the temporary directory, unique to this test process.
fn temp_file(name: &str, contents: &str) -> PathBuf {
    let path = std::env::temp_dir().join(format!("dxref-validate-{}-{name}", std::process::id()));
    std::fs::write(&path, contents).unwrap();
    path
}

/// `--so-json FILE`: the raw arguments of CreateGeometryShaderWithStreamOutput (NULL
/// apart from an empty array, counts, gaps, strides, rasterized stream); `--api d3d10`
/// with Direct3D 10's OutputStreamStride.
#[test]
fn stream_output_as_raw_arguments() {
    let gs = "gs_4_0\ndcl_input v[1][0].xyzw\ndcl_inputprimitive point \ndcl_outputtopology pointlist \ndcl_output_siv o0.xyzw, position\ndcl_output o1.xyz\ndcl_maxout 1\nemit \nret \n";
    let gs_file = temp_file("gs.asm", gs);
    let gs_path = gs_file.to_str().unwrap();
    let run = |json: &str, extra: &[&str]| {
        let file = temp_file("so.json", json);
        let mut args = vec!["validate", gs_path, "--so-json", file.to_str().unwrap()];
        args.extend_from_slice(extra);
        let out = dxref_in(&args, None);
        let _ = std::fs::remove_file(&file);
        out
    };
    let ok = r#"{ "declaration": [ { "semantic_name": "SV_Position", "component_count": 4 },
                                  { "semantic_name": null, "component_count": 1 } ],
                  "strides": [20], "rasterized_stream": 4294967295 }"#;
    let out = run(ok, &[]);
    assert_eq!(out.status.code(), Some(0), "{}{}", text(&out.stdout), text(&out.stderr));
    // A pointer to no entries is refused; NULL is a geometry shader without stream output.
    let out = run(r#"{ "declaration": [] }"#, &[]);
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stdout).contains("V602"), "{}", text(&out.stdout));
    let out = run(r#"{ "declaration": null }"#, &[]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stdout));
    let out = run(r#"{ "declaration": null, "num_entries": 2 }"#, &[]);
    assert!(text(&out.stdout).contains("V602"), "{}", text(&out.stdout));
    // Malformed JSON or a missing field: exit 2 with its line and column.
    let out = run(r#"{ "declaration": [ { "semantic_name": "X" } ] }"#, &[]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("component_count") && text(&out.stderr).contains("column"),
        "{}",
        text(&out.stderr)
    );
    // --so and --so-json together, or --so-strides with --so-json: usage errors.
    let out = run(ok, &["--so", "SV_Position"]);
    assert_eq!(out.status.code(), Some(2));
    let out = run(ok, &["--so-strides", "16"]);
    assert_eq!(out.status.code(), Some(2));
    // Direct3D 10: OutputStreamStride; no strides array, streams or rasterized stream.
    let d10 = r#"{ "declaration": [ { "semantic_name": "SV_Position", "component_count": 4 } ], "output_stream_stride": 16 }"#;
    let out = run(d10, &["--api", "d3d10"]);
    assert_eq!(out.status.code(), Some(0), "{}{}", text(&out.stdout), text(&out.stderr));
    let out = run(&d10.replace("16", "12"), &["--api", "d3d10"]);
    assert!(text(&out.stdout).contains("V609"), "{}", text(&out.stdout));
    let out = run(d10, &[]);
    assert_eq!(out.status.code(), Some(2), "output_stream_stride is not Direct3D 11's");
    let out = run(ok, &["--api", "d3d10"]);
    assert_eq!(out.status.code(), Some(2), "strides are not Direct3D 10's");
    let gap5 = r#"{ "declaration": [ { "semantic_name": "SV_Position", "component_count": 4 }, { "semantic_name": null, "component_count": 5 } ] }"#;
    let out = run(gap5, &["--api", "d3d10"]);
    assert!(text(&out.stdout).contains("V605"), "{}", text(&out.stdout));
    let out = run(gap5, &["--feature-level", "10_0"]);
    assert_eq!(out.status.code(), Some(0), "Direct3D 11 at 10_0: {}", text(&out.stdout));
    // The text form with --api d3d10: one stride, no rasterized stream.
    let text_form = |extra: &[&str]| {
        let mut args = vec!["validate", gs_path, "--api", "d3d10", "--so", "SV_Position.xyzw"];
        args.extend_from_slice(extra);
        dxref_in(&args, None)
    };
    assert_eq!(text_form(&["--so-strides", "16"]).status.code(), Some(0));
    assert_eq!(text_form(&["--so-strides", "16,16"]).status.code(), Some(2));
    assert_eq!(text_form(&["--so-rasterized", "0"]).status.code(), Some(2));
    assert_eq!(text_form(&["--feature-level", "11_0"]).status.code(), Some(2));
    let _ = std::fs::remove_file(&gs_file);
}
