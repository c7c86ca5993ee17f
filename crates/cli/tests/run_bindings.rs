//! `dxref run --cb/--srv/--sampler/--interface/--api`: constant buffers from JSON words and raw
//! bytes (integers as their bits, other numbers as f32, hex strings), per stage; 2D
//! textures from PNG, typed, raw and structured buffers, samplers by name; warnings for
//! slots declared and left unbound (with the reflection's names) and for bindings
//! nothing reads; Shader Model 5.1 register spaces with `--api d3d12`; every malformed
//! binding file named with its position; class instances bound to interface slots.

use std::path::PathBuf;

mod common;
use common::*;

/// Writes a file in this run's folder (through a rename, so that tests running at the
/// same time never read a half-written file of the same name) and returns its path.
fn temp(name: &str, contents: impl AsRef<[u8]>) -> String {
    static COUNTER: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let dir = std::env::temp_dir().join(format!("dxref-run-bindings-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let p: PathBuf = dir.join(name);
    let n = COUNTER.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let part = dir.join(format!(".{name}.{n}"));
    std::fs::write(&part, contents).unwrap();
    std::fs::rename(&part, &p).unwrap();
    p.to_string_lossy().into_owned()
}

/// A signature table for a listing header: (name, index, mask, register, sysvalue, format).
fn signature(title: &str, rows: &[(&str, u32, &str, u32, &str, &str)]) -> String {
    let mut s = format!(
        "//\n// {title}:\n//\n// Name                 Index   Mask Register SysValue  Format   Used\n// -------------------- ----- ------ -------- -------- ------- ------\n"
    );
    for (name, index, mask, register, sv, format) in rows {
        s += &format!("// {name:<20} {index:>5}   {mask:<4} {register:>8} {sv:>8} {format:>7}   {mask:<4}\n");
    }
    s + "//\n"
}

/// Runs a draw of one point and returns the JSON output (exit status 0 required).
fn run_json(args: &[&str]) -> (serde_json::Value, String) {
    let mut all = vec!["run"];
    all.extend_from_slice(args);
    all.extend_from_slice(&["--out", "-"]);
    let out = dxref(&all);
    assert_eq!(out.status.code(), Some(0), "{args:?}: {}", text(&out.stderr));
    (serde_json::from_slice(&out.stdout).unwrap(), text(&out.stderr))
}

fn first_vertex(v: &serde_json::Value) -> &serde_json::Value {
    &v["streams"][0]["primitives"][0][0]
}

fn floats(v: &serde_json::Value) -> Vec<f64> {
    v.as_array().unwrap().iter().map(|x| x.as_f64().unwrap_or(f64::NAN)).collect()
}

/// `o0 = v0 * cb0[0] + cb0[1]` (position), `o1 = cb3[0]` as uint (ID); the reflection
/// names cb0 `Transform`.
fn cb_vs() -> String {
    temp(
        "cb_vs.asm",
        format!(
            "//\n// Resource Bindings:\n//\n// Name                                 Type  Format         Dim Slot Elements\n\
             // ------------------------------ ---------- ------- ----------- ---- --------\n\
             // Transform                         cbuffer      NA          NA    0        1\n\
             // Ids                               cbuffer      NA          NA    3        1\n//\n{}{}\
             vs_4_0\ndcl_constantbuffer cb0[2], immediateIndexed\ndcl_constantbuffer cb3[1], immediateIndexed\n\
             dcl_input v0.xyzw\ndcl_output_siv o0.xyzw, position\ndcl_output o1.xyzw\n\
             mad o0.xyzw, v0.xyzw, cb0[0].xyzw, cb0[1].xyzw\nmov o1.xyzw, cb3[0].xyzw\nret\n",
            signature("Input signature", &[("POSITION", 0, "xyzw", 0, "NONE", "float")]),
            signature(
                "Output signature",
                &[("SV_Position", 0, "xyzw", 0, "POS", "float"), ("ID", 0, "xyzw", 1, "NONE", "uint")]
            ),
        ),
    )
}

fn point() -> String {
    temp("point.json", r#"[{"POSITION": [1.0, 2.0, 3.0, 4.0]}]"#)
}

#[test]
fn constant_buffers_from_json_and_raw_bytes() {
    let vs = cb_vs();
    // Floats, an integer (bits), a hex word with a NaN payload, and -1 as i32 bits.
    let cb0 = temp("cb0.json", "[[0.5, 2.0, -1.0, 1.0], [0.25, 0, \"0x3f800000\", 1e1]]");
    let cb3 = temp("cb3.json", r#"[1, -1, "0x7fc00001", 4294967295]"#);
    let (v, stderr) =
        run_json(&["--vs", &vs, "--input", &point(), "--cb", &format!("0={cb0}"), "--cb", &format!("vs:b3={cb3}")]);
    assert!(!stderr.contains("warning"), "{stderr}");
    let p = floats(&first_vertex(&v)["SV_Position"]);
    // 1 * 0.5 + 0.25, 2 * 2 + 0 (integer 0 is 0.0), 3 * -1 + 1.0, 4 * 1 + 10.
    assert_eq!(p, vec![0.75, 4.0, -2.0, 14.0]);
    assert_eq!(first_vertex(&v)["ID"], serde_json::json!([1, 4294967295u32, 0x7fc0_0001, 4294967295u32]));

    // The same buffer as raw little-endian bytes: the same result.
    let bytes: Vec<u8> = [0.5f32, 2.0, -1.0, 1.0, 0.25, 0.0, 1.0, 10.0].iter().flat_map(|f| f.to_le_bytes()).collect();
    let bin = temp("cb0.bin", &bytes);
    let (w, _) =
        run_json(&["--vs", &vs, "--input", &point(), "--cb", &format!("0={bin}"), "--cb", &format!("3={cb3}")]);
    assert_eq!(floats(&first_vertex(&w)["SV_Position"]), p);
}

#[test]
fn unbound_slots_are_warnings_naming_them() {
    let vs = cb_vs();
    let cb = temp("one.json", "[1.0, 1.0, 1.0, 1.0]");
    let (v, stderr) = run_json(&["--vs", &vs, "--input", &point(), "--cb", &format!("0={cb}")]);
    // cb0 has one vector of the two it declares; cb3 nothing.
    assert!(stderr.contains("cb_vs.asm: cb0 (Transform, 2 vectors) is bound to "), "{stderr}");
    assert!(stderr.contains("one.json, which holds 1 vector: the rest read as zeros"), "{stderr}");
    assert!(
        stderr.contains("cb_vs.asm: cb3 (Ids, 1 vector) is not bound (--cb vs:3=FILE): it reads as zeros"),
        "{stderr}"
    );
    assert_eq!(floats(&first_vertex(&v)["SV_Position"]), vec![1.0, 2.0, 3.0, 4.0]);
    // A binding nothing declares.
    let (_, stderr) = run_json(&[
        "--vs",
        &vs,
        "--input",
        &point(),
        "--cb",
        &format!("0={cb}"),
        "--cb",
        &format!("5={cb}"),
        "--cb",
        &format!("3={cb}"),
    ]);
    assert!(stderr.contains("--cb 5="), "{stderr}");
    assert!(stderr.contains("cb_vs.asm declares no cb5: bound, but nothing reads it"), "{stderr}");
}

#[test]
fn each_stage_its_own_buffers() {
    // A GS adding gs's cb0[0] to the position; the VS adds its own cb0.
    let gs = temp(
        "cb_gs.asm",
        format!(
            "{}{}gs_4_0\ndcl_constantbuffer cb0[1], immediateIndexed\ndcl_input_siv v[1][0].xyzw, position\n\
             dcl_input v[1][1].xyzw\ndcl_inputprimitive point\ndcl_outputtopology pointlist\n\
             dcl_output_siv o0.xyzw, position\ndcl_output o1.xyzw\ndcl_maxout 1\n\
             add o0.xyzw, v[0][0].xyzw, cb0[0].xyzw\nmov o1.xyzw, v[0][1].xyzw\nemit\nret\n",
            signature(
                "Input signature",
                &[("SV_Position", 0, "xyzw", 0, "POS", "float"), ("ID", 0, "xyzw", 1, "NONE", "uint")]
            ),
            signature(
                "Output signature",
                &[("SV_Position", 0, "xyzw", 0, "POS", "float"), ("ID", 0, "xyzw", 1, "NONE", "uint")]
            ),
        ),
    );
    let vs_cb = temp("vs_cb.json", "[[1.0, 1.0, 1.0, 1.0], [0.0, 0.0, 0.0, 0.0]]");
    let gs_cb = temp("gs_cb.json", "[100.0, 200.0, 300.0, 400.0]");
    let ids = temp("ids.json", "[7, 8, 9, 10]");
    let (v, stderr) = run_json(&[
        "--vs",
        &cb_vs(),
        "--gs",
        &gs,
        "--input",
        &point(),
        "--cb",
        &format!("vs:0={vs_cb}"),
        "--cb",
        &format!("gs:0={gs_cb}"),
        "--cb",
        &format!("vs:3={ids}"),
    ]);
    assert!(!stderr.contains("warning"), "{stderr}");
    assert_eq!(floats(&first_vertex(&v)["SV_Position"]), vec![101.0, 202.0, 303.0, 404.0]);
    assert_eq!(first_vertex(&v)["ID"], serde_json::json!([7, 8, 9, 10]));
    // Without a stage prefix, both stages get the buffer.
    let (v, _) = run_json(&["--vs", &cb_vs(), "--gs", &gs, "--input", &point(), "--cb", &format!("0={gs_cb}")]);
    assert_eq!(floats(&first_vertex(&v)["SV_Position"]), vec![200.0, 600.0, 1200.0, 2000.0]);
    // gs: without --gs is refused.
    let out = dxref(&["run", "--vs", &cb_vs(), "--input", &point(), "--cb", &format!("gs:0={gs_cb}")]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("there is no gs shader"), "{}", text(&out.stderr));
}

#[test]
fn malformed_binding_files_and_arguments_say_where() {
    let vs = cb_vs();
    let cases: &[(&str, &str, &str)] = &[
        ("bad1.json", "[1.0,\n 2.0, 4294967296]", "bad1.json:2:7: 4294967296 is out of range"),
        ("bad2.json", "[1.0, 1e39]", "bad2.json:1:7: 1e39 is beyond the range of a 32-bit float"),
        ("bad3.json", "[1.0, \"0xZZ\"]", "bad3.json:1:7: \"0xZZ\" is neither a hex word"),
        ("bad4.json", "[1.0, 2.0", "bad4.json:1:10: the array is not closed"),
        ("bad5.json", "{\"a\": 1}", "bad5.json:1:1: expected an array of words"),
        ("bad6.bin", "abcde", "bad6.bin: 5 bytes: not a whole number of 32-bit words"),
    ];
    for (name, contents, expected) in cases {
        let file = temp(name, contents);
        let out = dxref(&["run", "--vs", &vs, "--input", &point(), "--cb", &format!("0={file}")]);
        assert_eq!(out.status.code(), Some(2), "{name}");
        assert!(text(&out.stderr).contains(expected), "{name}: {}", text(&out.stderr));
    }
    let big = temp("big.bin", vec![0u8; 16 * 4097]);
    let out = dxref(&["run", "--vs", &vs, "--input", &point(), "--cb", &format!("0={big}")]);
    assert!(text(&out.stderr).contains("a constant buffer holds at most 4096"), "{}", text(&out.stderr));
    let ok = temp("ok.json", "[1.0]");
    for (arg, expected) in [
        ("0", "found no `=`"),
        ("14=X", "past the last cb slot (13)"),
        ("ps:0=X", "expected vs, gs or spaceN"),
        ("t0=X", "is not a register number"),
    ] {
        let arg = arg.replace('X', &ok);
        let out = dxref(&["run", "--vs", &vs, "--input", &point(), "--cb", &arg]);
        assert_eq!(out.status.code(), Some(2), "{arg}");
        assert!(text(&out.stderr).contains(expected), "{arg}: {}", text(&out.stderr));
    }
    let missing = dxref(&["run", "--vs", &vs, "--input", &point(), "--cb", "0=/nonexistent/cb.json"]);
    assert_eq!(missing.status.code(), Some(2));
    assert!(text(&missing.stderr).contains("/nonexistent/cb.json"), "{}", text(&missing.stderr));
}

/// A PNG of `width × height` RGBA8 pixels.
fn png(width: u32, height: u32, rgba: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    {
        let mut e = png::Encoder::new(&mut out, width, height);
        e.set_color(png::ColorType::Rgba);
        e.set_depth(png::BitDepth::Eight);
        e.write_header().unwrap().write_image_data(rgba).unwrap();
    }
    out
}

/// A VS reading every kind of view: `ld` of texel (POSITION.xy) of t0, `sample_l` of
/// t0 at TEXCOORD with s0, element 1 of the typed buffer t1, bytes 4.. of the raw
/// buffer t2, element 1 of the 8-byte structured buffer t3.
fn views_vs() -> String {
    temp(
        "views_vs.asm",
        format!(
            "{}{}vs_5_0\ndcl_sampler s0, mode_default\ndcl_resource_texture2d (float,float,float,float) t0\n\
             dcl_resource_buffer (float,float,float,float) t1\ndcl_resource_raw t2\ndcl_resource_structured t3, 8\n\
             dcl_input v0.xyzw\ndcl_input v1.xy\ndcl_output_siv o0.xyzw, position\ndcl_output o1.xyzw\n\
             dcl_output o2.xyzw\ndcl_output o3.xyzw\ndcl_output o4.xyzw\ndcl_output o5.xy\ndcl_temps 1\n\
             mov o0.xyzw, l(0, 0, 0, 1.0)\nftoi r0.xy, v0.xyxx\nmov r0.zw, l(0, 0, 0, 0)\n\
             ld_indexable(texture2d)(float,float,float,float) o1.xyzw, r0.xyzw, t0.xyzw\n\
             sample_l_indexable(texture2d)(float,float,float,float) o2.xyzw, v1.xyxx, t0.xyzw, s0, l(0)\n\
             ld_indexable(buffer)(float,float,float,float) o3.xyzw, l(1, 1, 1, 1), t1.xyzw\n\
             ld_raw_indexable(raw_buffer)(mixed,mixed,mixed,mixed) o4.xyzw, l(4), t2.xyzw\n\
             ld_structured_indexable(structured_buffer, stride=8)(mixed,mixed,mixed,mixed) o5.xy, l(1), l(0), t3.xyxx\n\
             ret\n",
            signature(
                "Input signature",
                &[("POSITION", 0, "xyzw", 0, "NONE", "float"), ("TEXCOORD", 0, "xy", 1, "NONE", "float")]
            ),
            signature(
                "Output signature",
                &[
                    ("SV_Position", 0, "xyzw", 0, "POS", "float"),
                    ("TEXEL", 0, "xyzw", 1, "NONE", "float"),
                    ("SAMPLED", 0, "xyzw", 2, "NONE", "float"),
                    ("TYPED", 0, "xyzw", 3, "NONE", "float"),
                    ("RAW", 0, "xyzw", 4, "NONE", "uint"),
                    ("STRUCTURED", 0, "xy", 5, "NONE", "uint"),
                ]
            ),
        ),
    )
}

#[test]
fn textures_buffers_and_samplers() {
    let vs = views_vs();
    // 2 x 1: black, then (255, 51, 0, 255).
    let tex = temp("tex.png", png(2, 1, &[0, 0, 0, 255, 255, 51, 0, 255]));
    let typed = temp("typed.json", "[1.5, 2.5, 3.5, 4.5]");
    let raw = temp("raw.bin", [1u8, 0, 0, 0, 2, 0, 0, 0, 3, 0, 0, 0]);
    let structured = temp("structured.json", "[10, 11, 12, 13]");
    let input =
        |u: f64, x: u32| temp("views.json", format!("[{{\"POSITION\": [{x}, 0, 0, 1], \"TEXCOORD\": [{u}, 0.5]}}]"));
    let args = |input: &str, sampler: &str| -> Vec<String> {
        [
            "--vs",
            &vs,
            "--input",
            input,
            "--srv",
            &format!("0={tex}:R8G8B8A8_UNORM"),
            "--srv",
            &format!("t1={typed}:R32G32_FLOAT"),
            "--srv",
            &format!("2={raw}"),
            "--srv",
            &format!("3={structured}"),
            "--sampler",
            &format!("0={sampler}"),
        ]
        .map(String::from)
        .to_vec()
    };
    let run = |a: Vec<String>| run_json(&a.iter().map(String::as_str).collect::<Vec<_>>());
    let (v, stderr) = run(args(&input(1.25, 1), "point-wrap"));
    assert!(!stderr.contains("warning"), "{stderr}");
    let vertex = first_vertex(&v);
    assert_eq!(floats(&vertex["TEXEL"]), vec![1.0, 0.2, 0.0, 1.0]);
    // u = 1.25 wraps to 0.25: the first texel.
    assert_eq!(floats(&vertex["SAMPLED"]), vec![0.0, 0.0, 0.0, 1.0]);
    // Element 1 of R32G32_FLOAT: (3.5, 4.5), then 0 and 1.
    assert_eq!(floats(&vertex["TYPED"]), vec![3.5, 4.5, 0.0, 1.0]);
    assert_eq!(vertex["RAW"], serde_json::json!([2, 3, 0, 0]));
    assert_eq!(vertex["STRUCTURED"], serde_json::json!([12, 13]));
    // Clamped, the second texel; linear at u = 0.5, half of each.
    let (v, _) = run(args(&input(1.25, 0), "point-clamp"));
    assert_eq!(floats(&first_vertex(&v)["SAMPLED"]), vec![1.0, 0.2, 0.0, 1.0]);
    assert_eq!(floats(&first_vertex(&v)["TEXEL"]), vec![0.0, 0.0, 0.0, 1.0]);
    let (v, _) = run(args(&input(0.5, 0), "linear-clamp"));
    let s = floats(&first_vertex(&v)["SAMPLED"]);
    assert!((s[0] - 0.5).abs() < 1e-6 && (s[1] - 0.1).abs() < 1e-6 && s[3] == 1.0, "{s:?}");

    // Left unbound: a warning for each, naming how to bind it.
    let (_, stderr) = run_json(&["--vs", &vs, "--input", &input(0.5, 0)]);
    for expected in [
        "views_vs.asm: s0 (sampler) is not bound (--sampler vs:0=NAME): sampling with it uses D3D11's default sampler",
        "views_vs.asm: t0 (texture2d) is not bound (--srv vs:0=FILE)",
        "views_vs.asm: t1 (buffer) is not bound",
        "views_vs.asm: t2 (raw buffer) is not bound",
        "views_vs.asm: t3 (structured buffer, stride 8) is not bound",
    ] {
        assert!(stderr.contains(expected), "{expected}\n{stderr}");
    }
}

#[test]
fn views_refused_with_a_reason() {
    let vs = views_vs();
    let input = temp("views1.json", r#"[{"POSITION": [0, 0, 0, 1], "TEXCOORD": [0, 0]}]"#);
    let tex = temp("t.png", png(1, 1, &[1, 2, 3, 4]));
    let typed = temp("t.json", "[1.0]");
    for (arg, expected) in [
        (format!("0={tex}"), "a PNG needs the texture's format"),
        (format!("0={tex}:R8G8B8A8_SNORM"), "R8G8B8A8_SNORM is not filled from PNGs"),
        (format!("1={tex}:R8G8B8A8_UNORM"), "t1 is declared a buffer: a PNG makes a 2D texture"),
        (format!("0={typed}"), "t0 is declared texture2d: dxref run fills textures from PNG files"),
        (format!("1={typed}"), "t1 is declared a typed buffer: give the elements' format"),
        (format!("0={}:R8_UNORM", temp("broken.png", b"\x89PNG\r\n\x1a\nxx")), "broken.png: not a readable PNG"),
        ("200=x.bin".to_string(), "past the last t slot (127)"),
    ] {
        let out = dxref(&["run", "--vs", &vs, "--input", &input, "--srv", &arg]);
        assert_eq!(out.status.code(), Some(2), "{arg}");
        assert!(text(&out.stderr).contains(expected), "{arg}: {}", text(&out.stderr));
    }
    for (name, expected) in [("bilinear-clamp", "is not a sampler; expected FILTER-ADDRESS"), ("point-wrap", "")] {
        let out = dxref(&["run", "--vs", &vs, "--input", &input, "--sampler", &format!("0={name}")]);
        assert_eq!(out.status.code(), Some(if expected.is_empty() { 0 } else { 2 }), "{name}: {}", text(&out.stderr));
        assert!(text(&out.stderr).contains(expected), "{name}: {}", text(&out.stderr));
    }
    let out = dxref(&["run", "--vs", &vs, "--input", &input, "--sampler", "16=point-wrap"]);
    assert!(text(&out.stderr).contains("past the last s slot (15)"), "{}", text(&out.stderr));
}

/// A Shader Model 5.1 VS: position × CB0 (space 0, register 0), colour = CB1 (space 1,
/// register 2).
fn vs51() -> String {
    temp(
        "vs51.asm",
        format!(
            "{}{}vs_5_1\ndcl_globalFlags refactoringAllowed\n\
             dcl_constantbuffer CB0[0:0][1], immediateIndexed, space=0\n\
             dcl_constantbuffer CB1[2:2][1], immediateIndexed, space=1\n\
             dcl_input v0.xyzw\ndcl_output_siv o0.xyzw, position\ndcl_output o1.xyzw\n\
             mul o0.xyzw, v0.xyzw, CB0[0][0].xyzw\nmov o1.xyzw, CB1[2][0].xyzw\nret\n",
            signature("Input signature", &[("POSITION", 0, "xyzw", 0, "NONE", "float")]),
            signature(
                "Output signature",
                &[("SV_Position", 0, "xyzw", 0, "POS", "float"), ("COLOR", 0, "xyzw", 1, "NONE", "float")]
            ),
        ),
    )
}

#[test]
fn shader_model_5_1_with_register_spaces() {
    let vs = vs51();
    let scale = temp("scale.json", "[2.0, 3.0, 4.0, 0.5]");
    let colour = temp("colour.json", "[0.25, 0.5, 0.75, 1.0]");
    // Direct3D 11 refuses 5.1, saying which API runs it.
    let out = dxref(&["run", "--vs", &vs, "--input", &point()]);
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stderr).contains("--api d3d12"), "{}", text(&out.stderr));
    let (v, stderr) = run_json(&[
        "--api",
        "d3d12",
        "--vs",
        &vs,
        "--input",
        &point(),
        "--cb",
        &format!("space0:0={scale}"),
        "--cb",
        &format!("vs:space1:2={colour}"),
    ]);
    assert!(!stderr.contains("warning"), "{stderr}");
    assert_eq!(floats(&first_vertex(&v)["SV_Position"]), vec![2.0, 6.0, 12.0, 2.0]);
    assert_eq!(floats(&first_vertex(&v)["COLOR"]), vec![0.25, 0.5, 0.75, 1.0]);
    // Unbound: named with its space.
    let (_, stderr) = run_json(&["--api", "d3d12", "--vs", &vs, "--input", &point(), "--cb", &format!("0={scale}")]);
    assert!(stderr.contains("cb2 in space 1 (1 vector) is not bound (--cb vs:space1:2=FILE)"), "{stderr}");
    // The register in the wrong space.
    let out = dxref(&["run", "--api", "d3d12", "--vs", &vs, "--input", &point(), "--cb", &format!("2={colour}")]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("declares cb2 in space 1 (1 vector), not register 2 of space 0 (write space1:2)")
    );
    // Two spaces sharing a register cannot be folded into one set of slots.
    let clash =
        std::fs::read_to_string(&vs).unwrap().replace("CB1[2:2][1]", "CB1[0:0][1]").replace("CB1[2][0]", "CB1[0][0]");
    let clash = temp("vs51_clash.asm", clash);
    let out = dxref(&["run", "--api", "d3d12", "--vs", &clash, "--input", &point()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("share a register"), "{}", text(&out.stderr));
    let out = dxref(&["run", "--api", "d3d13", "--vs", &vs, "--input", &point()]);
    assert_eq!(out.status.code(), Some(2));
}

/// The bundled transform example: without its constant buffer every position is zero
/// (and the picture says why); with it, the points move as the matrix says.
#[test]
fn the_bundled_transform_example() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../examples");
    let example = |n: &str| root.join(n).to_string_lossy().into_owned();
    let svg = temp("transform.svg", "");
    let out = dxref(&[
        "run",
        "--vs",
        &example("transform_vs.asm"),
        "--input",
        &example("points.json"),
        "--svg",
        &svg,
        "--quiet",
    ]);
    let stderr = text(&out.stderr);
    assert!(stderr.contains("transform_vs.asm: cb0 (Transform, 5 vectors) is not bound"), "{stderr}");
    assert!(stderr.contains("nothing to draw: every position is (0, 0, 0, 0)"), "{stderr}");
    let (v, stderr) = run_json(&[
        "--vs",
        &example("transform_vs.asm"),
        "--input",
        &example("points.json"),
        "--cb",
        &format!("0={}", example("transform_cb.json")),
    ]);
    assert!(!stderr.contains("warning"), "{stderr}");
    // The first point (-0.6, -0.5, 0.5, 1), COLOR (1, 0.2, 0.2, 1): rotated by 30
    // degrees, moved 0.1 to the right, tinted (1, 0.9, 0.6, 1).
    let p = floats(&first_vertex(&v)["SV_Position"]);
    let (c, s) = (0.866025f64, 0.5f64);
    assert!((p[0] - (-0.6 * c + 0.5 * s + 0.1)).abs() < 1e-6 && (p[1] - (-0.6 * s - 0.5 * c)).abs() < 1e-6, "{p:?}");
    let colour = floats(&first_vertex(&v)["COLOR"]);
    assert!((colour[1] - 0.18).abs() < 1e-6 && (colour[2] - 0.12).abs() < 1e-6, "{colour:?}");
}

/// `--interface`: the class instance bound to a slot chooses the body `fcall` runs and
/// supplies `this[]` (here the vector of cb0 the body reads); unbound, the first table
/// listed; a table the interface does not list is an error naming it.
#[test]
fn interfaces_bound_to_class_instances() {
    let vs = temp(
        "interfaces_vs.asm",
        format!(
            "{}{}vs_5_0\ndcl_constantbuffer cb0[4], dynamicIndexed\ndcl_function_body fb0\ndcl_function_body fb1\n\
             dcl_function_table ft0 = {{fb0}}\ndcl_function_table ft1 = {{fb1}}\n\
             dcl_interface fp0[1][1] = {{ft0, ft1}}\ndcl_input v0.xyzw\ndcl_output_siv o0.xyzw, position\n\
             dcl_output o1.xyzw\ndcl_temps 2\nmov o0.xyzw, v0.xyzw\nfcall fp0[0][0]\nmov o1.xyzw, r0.xyzw\nret\n\
             label fb0\nmov r0.xyzw, l(7,7,7,7)\nret\nlabel fb1\nmov r1.xy, this[0].xyxx\n\
             mov r0.xyzw, cb0[r1.y + 0].xyzw\nret\n",
            signature("Input signature", &[("POSITION", 0, "xyzw", 0, "NONE", "float")]),
            signature(
                "Output signature",
                &[("SV_Position", 0, "xyzw", 0, "POS", "float"), ("ID", 0, "xyzw", 1, "NONE", "uint")]
            ),
        ),
    );
    let cb = temp("interfaces_cb.json", "[1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16]");
    let cb_arg = format!("0={cb}");
    let (v, _) = run_json(&["--vs", &vs, "--input", &point(), "--cb", &cb_arg]);
    assert_eq!(first_vertex(&v)["ID"], serde_json::json!([7, 7, 7, 7]));
    let (v, _) = run_json(&["--vs", &vs, "--input", &point(), "--cb", &cb_arg, "--interface", "vs:0=ft1:0,2,0,0"]);
    assert_eq!(first_vertex(&v)["ID"], serde_json::json!([9, 10, 11, 12]));
    let out = dxref(&["run", "--vs", &vs, "--input", &point(), "--interface", "0=ft2"]);
    assert_ne!(out.status.code(), Some(0));
    assert!(text(&out.stderr).contains("bound to ft2, which fp0 does not list"), "{}", text(&out.stderr));
    let out = dxref(&["run", "--vs", &vs, "--input", &point(), "--interface", "0=ft1:1,2"]);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
    assert!(text(&out.stderr).contains("TABLE:CB,OFFSET,TEXTURE,SAMPLER"), "{}", text(&out.stderr));
}
