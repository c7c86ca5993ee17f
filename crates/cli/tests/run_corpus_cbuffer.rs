//! `dxref run` on real fxc shaders from the corpus with their constant buffers filled:
//! DirectXTK's `BasicEffect_VSBasicNoFog` (the diffuse colour in cb0[0], the
//! world-view-projection matrix in cb0[22..25], `dp4` per row) and hlslcc's
//! `vs4__matrix_array` (two matrices and an `int` index selecting one, read with a
//! relative index). The expected outputs are computed here from the matrices given;
//! the values are small binary fractions, so every product and sum is exact in f32 and
//! the order of the `dp4` additions cannot matter: the comparison is exact.

mod common;
use common::*;

/// The corpus blob `source/name`, or `None` (after a visible SKIP) without the corpus.
fn blob(test: &str, source: &str, name: &str) -> Option<String> {
    let entries = corpus::entries(test)?;
    let e = entries
        .iter()
        .find(|e| e.source == source && e.name == name)
        .unwrap_or_else(|| panic!("{source}/{name} is not in the corpus"));
    Some(e.bin.to_string_lossy().into_owned())
}

/// A float as JSON text that reads back as a float (`2.0`, not `2`, which would be
/// the integer 2's bits).
fn float(x: f32) -> String {
    format!("{x:?}")
}

fn vector(v: [f32; 4]) -> String {
    format!("[{}]", v.map(float).join(", "))
}

/// `dot(v, row)` in f64 (exact for the values used here).
fn dot(v: [f32; 4], row: [f32; 4]) -> f32 {
    (0..4).map(|i| v[i] as f64 * row[i] as f64).sum::<f64>() as f32
}

fn values(v: &serde_json::Value) -> Vec<f32> {
    v.as_array().unwrap().iter().map(|x| x.as_f64().unwrap() as f32).collect()
}

const VERTICES: [[f32; 4]; 3] = [[0.5, -1.0, 0.25, 1.0], [2.0, 0.75, -0.5, 1.0], [-1.5, 0.125, 1.0, 1.0]];

#[test]
fn basic_effect_transforms_by_its_world_view_projection() {
    let Some(vs) = blob("basic_effect_transforms_by_its_world_view_projection", "dxtk", "BasicEffect_VSBasicNoFog")
    else {
        return;
    };
    let diffuse = [0.25, 0.5, 0.75, 1.0];
    let m: [[f32; 4]; 4] = [[0.5, 0.0, 0.25, 1.0], [0.0, 2.0, 0.0, -0.5], [0.125, 0.0, 1.0, 0.0], [0.0, 0.0, 0.5, 1.0]];
    // cb0: DiffuseColor at vector 0, zeros (written as integers: their bits are 0.0),
    // WorldViewProj at vectors 22..25.
    let mut cb = vec![vector(diffuse)];
    cb.extend((1..22).map(|_| "[0, 0, 0, 0]".to_string()));
    cb.extend(m.iter().map(|r| vector(*r)));
    let cb = temp_file("basic_effect_cb0.json", &format!("[{}]", cb.join(",\n")));
    let input = temp_file(
        "basic_effect_vertices.json",
        &format!("[{}]", VERTICES.map(|v| format!("{{\"SV_Position\": {}}}", vector(v))).join(", ")),
    );
    let out = dxref(&[
        "run",
        "--vs",
        &vs,
        "--input",
        &input,
        "--topology",
        "trianglelist",
        "--cb",
        &format!("0={cb}"),
        "--out",
        "-",
    ]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    assert!(!stderr.contains("warning"), "every slot is bound: {stderr}");
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let triangle = v["streams"][0]["primitives"][0].as_array().unwrap();
    assert_eq!(triangle.len(), 3);
    for (vertex, input) in triangle.iter().zip(VERTICES) {
        let want: Vec<f32> = m.iter().map(|row| dot(input, *row)).collect();
        assert_eq!(values(&vertex["SV_Position"]), want, "{input:?}");
        assert_eq!(values(&vertex["COLOR"]), diffuse.to_vec());
    }
    // Without the buffer: zeros, and a warning naming it.
    let out = dxref(&["run", "--vs", &vs, "--input", &input, "--out", "-"]);
    assert!(String::from_utf8_lossy(&out.stderr).contains("cb0 (26 vectors) is not bound"));
}

#[test]
fn matrix_array_picks_the_matrix_its_int_index_names() {
    let Some(vs) = blob("matrix_array_picks_the_matrix_its_int_index_names", "hlslcc", "vs4__matrix_array") else {
        return;
    };
    let transforms: [[[f32; 4]; 4]; 2] = [
        [[1.0, 0.0, 0.0, 0.5], [0.0, 1.0, 0.0, 0.25], [0.0, 0.0, 1.0, 0.0], [0.0, 0.0, 0.0, 1.0]],
        [[0.0, -1.0, 0.0, 0.0], [1.0, 0.0, 0.0, 0.0], [0.0, 0.0, 0.5, 0.5], [0.25, 0.0, 0.0, 2.0]],
    ];
    let rows: Vec<String> = transforms.iter().flatten().map(|r| vector(*r)).collect();
    for index in [0usize, 1] {
        // `int transformsIndex` at offset 128 (vector 8): a JSON integer is its bits.
        let cb =
            temp_file(&format!("matrix_array_cb{index}.json"), &format!("[{}, [{index}, 0, 0, 0]]", rows.join(", ")));
        let input = temp_file(
            "matrix_array_vertices.json",
            &format!("[{}]", VERTICES.map(|v| format!("{{\"POSITION\": {}}}", vector(v))).join(", ")),
        );
        let out = dxref(&["run", "--vs", &vs, "--input", &input, "--cb", &format!("0={cb}"), "--out", "-"]);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(0), "{stderr}");
        assert!(!stderr.contains("warning"), "{stderr}");
        let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        let points = v["streams"][0]["primitives"].as_array().unwrap();
        assert_eq!(points.len(), 3);
        for (point, input) in points.iter().zip(VERTICES) {
            let want: Vec<f32> = transforms[index].iter().map(|row| dot(input, *row)).collect();
            assert_eq!(values(&point[0]["SV_Position"]), want, "transforms[{index}] × {input:?}");
        }
    }
}
