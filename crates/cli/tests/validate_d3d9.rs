//! `dxref validate` on Direct3D 9 programs: raw Shader Model 1–3 streams against their
//! profile, `--caps` for the vs_2_x / ps_2_x capabilities, the Level 9 program of a
//! corpus blob at feature level 9_x.

mod common;
use common::*;

/// A raw program: version token, instructions (opcode, controls, parameter tokens),
/// end token.
fn program(version: u32, body: &[(u16, u8, &[u32])]) -> Vec<u8> {
    let mut t = vec![version];
    for (op, ctl, params) in body {
        t.push(*op as u32 | (*ctl as u32) << 16 | (params.len() as u32) << 24);
        t.extend_from_slice(params);
    }
    t.push(0x0000_ffff);
    t.iter().flat_map(|w| w.to_le_bytes()).collect()
}

const I0: u32 = 0xf0e4_0000; // i0 (type 7), .xyzw
const C0X: u32 = 0xa000_0000; // c0.x
const R1X: u32 = 0x8000_0001; // r1.x
const R0: u32 = 0x800f_0000; // r0.xyzw
const C0: u32 = 0xa0e4_0000; // c0.xyzw

/// vs_2_x: rep / rep / mov / endrep / endrep.
fn two_reps() -> Vec<u8> {
    program(0xfffe_0201, &[(38, 0, &[I0]), (38, 0, &[I0]), (1, 0, &[R0, C0]), (39, 0, &[]), (39, 0, &[])])
}

#[test]
fn raw_program_with_caps() {
    let bytes = two_reps();
    let out = dxref_in(&["validate", "-"], Some(&bytes));
    assert_eq!(out.status.code(), Some(0), "{}{}", text(&out.stdout), text(&out.stderr));
    assert_eq!(text(&out.stdout), "valid\n");
    let out = dxref_in(&["validate", "-", "--caps", "static-flow-depth=1"], Some(&bytes));
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    assert!(stdout.contains("V916"), "{stdout}");
    assert!(stdout.contains("instruction 1 `rep` (token 3, byte 12)"), "{stdout}");
    assert!(
        stdout.contains("loop/rep nesting reaches 2") && stdout.contains("is 1 (StaticFlowControlDepth)"),
        "{stdout}"
    );
    let out = dxref_in(&["validate", "-", "--caps", "static-flow-depth=2,dynamic-flow-depth=0"], Some(&bytes));
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stdout));
}

#[test]
fn dynamic_flow_depth_zero_refuses_if_comp() {
    // if_gt c0.x, r1.x / endif
    let bytes = program(0xfffe_0201, &[(41, 1, &[C0X, R1X]), (43, 0, &[])]);
    let out = dxref_in(&["validate", "-", "--caps", "dynamic-flow-depth=24"], Some(&bytes));
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stdout));
    let out = dxref_in(&["validate", "-", "--caps", "dynamic-flow-depth=0", "--json"], Some(&bytes));
    assert_eq!(out.status.code(), Some(1));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let codes: Vec<&str> = v["diagnostics"].as_array().unwrap().iter().map(|d| d["code"].as_str().unwrap()).collect();
    assert_eq!(codes, ["V904", "V915"]);
    assert_eq!(v["diagnostics"][1]["location"]["mnemonic"], "if_gt");
    assert_eq!(v["d3d9_caps"]["dynamic_flow_depth"], 0);
    assert_eq!(v["d3d9_caps"]["static_flow_depth"], 4);
    assert_eq!(v["shader"]["stage"], "vs");
}

#[test]
fn bad_caps_are_usage_errors() {
    for caps in ["dynamic-flow-depth=25", "nonsense=1", "temps", "static-flow-depth=x"] {
        let out = dxref_in(&["validate", "-", "--caps", caps], Some(&two_reps()));
        assert_eq!(out.status.code(), Some(2), "{caps}");
        let err = text(&out.stderr);
        assert!(err.contains("--caps") && err.contains("dynamic-flow-depth=0..24"), "{err}");
    }
    let out = dxref_in(&["validate", "-", "--caps", "temps=12", "--so", "0:POSITION.xyzw"], Some(&two_reps()));
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn help_documents_caps() {
    let out = dxref_in(&["validate", "--help"], None);
    let help = text(&out.stdout);
    for word in ["--caps", "dynamic-flow-depth", "static-flow-depth", "Shader Model 1-3", "Level 9"] {
        assert!(help.contains(word), "{word} not in:\n{help}");
    }
}

/// Corpus entries as (path of the .bin, profile, container), read by the `corpus` crate
/// (which fails closed on a broken corpus); `None` with a visible SKIP when the corpus
/// is absent.
fn corpus_entries() -> Option<Vec<(std::path::PathBuf, String, String)>> {
    let entries = corpus::entries("cli::validate_d3d9::corpus_level9_and_raw_programs")?;
    Some(
        entries
            .into_iter()
            .map(|e| {
                let container = match e.container {
                    corpus::Container::Dxbc => "dxbc",
                    corpus::Container::D3dbc => "d3dbc",
                };
                (e.bin, e.profile, container.to_string())
            })
            .collect(),
    )
}

/// The corpus's Level 9 blobs at 9_1 (their vs_2_0 / ps_2_0 programs are validated),
/// and its raw programs as they are.
#[test]
fn corpus_level9_and_raw_programs() {
    let Some(entries) = corpus_entries() else { return };
    let mut level9 = 0;
    for (bin, _, _) in entries.iter().filter(|e| e.1.contains('+')).take(10) {
        let out = dxref_in(&["validate", bin.to_str().unwrap(), "--feature-level", "9_1"], None);
        assert_eq!(out.status.code(), Some(0), "{}: {}", bin.display(), text(&out.stdout));
        level9 += 1;
    }
    assert_eq!(level9, 10);
    let mut raw = 0;
    for (bin, profile, _) in entries.iter().filter(|e| e.2 == "d3dbc") {
        let out = dxref_in(&["validate", bin.to_str().unwrap(), "--json"], None);
        assert_eq!(out.status.code(), Some(0), "{}: {}", bin.display(), text(&out.stdout));
        let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(v["shader"]["stage"], &profile[..2]);
        raw += 1;
        // Its own stage only.
        let other = if profile.starts_with("vs") { "ps" } else { "vs" };
        let out = dxref_in(&["validate", bin.to_str().unwrap(), "--stage", other], None);
        assert_eq!(out.status.code(), Some(1));
        assert!(text(&out.stdout).contains("V109"), "{}", text(&out.stdout));
    }
    assert_eq!(raw, 21);
}

/// An effect (`fx_2_0`) holding one Shader Model 2 program: that program is validated.
#[test]
fn effect_with_one_program() {
    let mut fx: Vec<u8> = [0xfeff_0901u32, 7, 8].iter().flat_map(|t| t.to_le_bytes()).collect();
    fx.extend(two_reps());
    fx.extend([9u32, 10].iter().flat_map(|t| t.to_le_bytes()));
    let out = dxref_in(&["validate", "-"], Some(&fx));
    assert_eq!(out.status.code(), Some(0), "{}{}", text(&out.stdout), text(&out.stderr));
    let out = dxref_in(&["validate", "-", "--caps", "static-flow-depth=1"], Some(&fx));
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stdout).contains("V916"), "{}", text(&out.stdout));
}

/// A raw program is a Direct3D 9 device's (`--api d3d9`, the default for it); a
/// Direct3D 10 or 11 create call refuses it at every feature level (V116, Microsoft's
/// ID3D11Device::CreateVertexShader page: the bytecode is a compiled shader, a DXBC
/// container), and a Direct3D 9 call refuses a container.
#[test]
fn raw_programs_are_direct3d_9_programs() {
    let bytes = two_reps();
    let out = dxref_in(&["validate", "-", "--api", "d3d9"], Some(&bytes));
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stdout));
    for args in [
        &["--api", "d3d11"][..],
        &["--api", "d3d11", "--feature-level", "9_3"],
        &["--api", "d3d11", "--feature-level", "9_1", "--stage", "vs"],
        &["--api", "d3d10"],
        &["--api", "d3d10", "--feature-level", "10_1"],
        &["--api", "d3d12"],
    ] {
        let mut all = vec!["validate", "-", "--json"];
        all.extend_from_slice(args);
        let out = dxref_in(&all, Some(&bytes));
        assert_eq!(out.status.code(), Some(1), "{args:?}: {}", text(&out.stderr));
        let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        let codes: Vec<&str> =
            v["diagnostics"].as_array().unwrap().iter().map(|d| d["code"].as_str().unwrap()).collect();
        assert_eq!(codes, ["V116"], "{args:?}");
        assert!(v["diagnostics"][0]["message"].as_str().unwrap().contains("DXBC"), "{args:?}");
    }
    // The device options of another API are usage errors, and say why the API is d3d9.
    let out = dxref_in(&["validate", "-", "--feature-level", "9_3"], Some(&bytes));
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("--api"), "{}", text(&out.stderr));
    let out = dxref_in(&["validate", "-", "--api", "d3d10", "--feature-level", "11_0"], Some(&bytes));
    assert_eq!(out.status.code(), Some(2));
    let out = dxref_in(&["validate", "-", "--api", "d3d12", "--caps", "temps=12"], Some(&bytes));
    assert_eq!(out.status.code(), Some(2));
    // A container given to a Direct3D 9 call.
    let vs = "vs_4_0\ndcl_input v0.xyzw\ndcl_output_siv o0.xyzw, position\nmov o0.xyzw, v0.xyzw\nret \n";
    let out = dxref_in(&["validate", "-", "--api", "d3d9"], Some(vs.as_bytes()));
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stdout).contains("V116"), "{}", text(&out.stdout));
    let out = dxref_in(&["validate", "-"], Some(vs.as_bytes()));
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stdout));
}
