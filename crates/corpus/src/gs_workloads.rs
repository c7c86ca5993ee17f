//! The inputs of the two geometry-shader workloads (`../shared/bench/GS-WORKLOADS.md`:
//! *quad* and *cube*), written once for the benchmarks and the tests that run them.

/// lowbias32, the workloads' hash (wrapping `u32` arithmetic).
pub fn lowbias32(mut k: u32) -> u32 {
    k ^= k >> 16;
    k = k.wrapping_mul(0x7feb_352d);
    k ^= k >> 15;
    k = k.wrapping_mul(0x846c_a68b);
    k ^= k >> 16;
    k
}

/// Vertex `i`'s position: component `c` is `(h(4i + c) >> 8) * 2^-23 - 1` for xyz (an
/// exact f32 in [-1, 1)), and w = 1.
pub fn position(i: u32) -> [f32; 4] {
    let c = |c: u32| (lowbias32(i.wrapping_mul(4).wrapping_add(c)) >> 8) as f32 * (1.0 / 8_388_608.0) - 1.0;
    [c(0), c(1), c(2), 1.0]
}

/// The vertex buffer of vertices `0..n`: one `R32G32B32A32_FLOAT` position each, stride 16.
pub fn vertex_buffer(n: u32) -> Vec<u8> {
    (0..n).flat_map(position).flat_map(f32::to_le_bytes).collect()
}

fn cross(a: [f64; 3], b: [f64; 3]) -> [f64; 3] {
    [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]]
}

/// *cube*'s `face_matrix[k] = P * V_k` in f64 (row-major, applied to column vectors):
/// `V_k` a look-at view from eye (0.25, -0.5, 0.125) along each face's (forward, up),
/// `P` an OpenGL-style perspective projection (90° field of view, aspect 1, near 0.1,
/// far 100).
pub fn face_matrices() -> [[[f64; 4]; 4]; 6] {
    let eye = [0.25, -0.5, 0.125];
    let faces: [([f64; 3], [f64; 3]); 6] = [
        ([1.0, 0.0, 0.0], [0.0, -1.0, 0.0]),
        ([-1.0, 0.0, 0.0], [0.0, -1.0, 0.0]),
        ([0.0, 1.0, 0.0], [0.0, 0.0, 1.0]),
        ([0.0, -1.0, 0.0], [0.0, 0.0, -1.0]),
        ([0.0, 0.0, 1.0], [0.0, -1.0, 0.0]),
        ([0.0, 0.0, -1.0], [0.0, -1.0, 0.0]),
    ];
    let (near, far) = (0.1, 100.0);
    let f = 1.0 / (std::f64::consts::FRAC_PI_4).tan();
    let p = [
        [f, 0.0, 0.0, 0.0],
        [0.0, f, 0.0, 0.0],
        [0.0, 0.0, (far + near) / (near - far), 2.0 * far * near / (near - far)],
        [0.0, 0.0, -1.0, 0.0],
    ];
    let mut out = [[[0.0; 4]; 4]; 6];
    for (m, (fwd, up)) in out.iter_mut().zip(faces) {
        let s = cross(fwd, up);
        let u = cross(s, fwd);
        let mut v = [[0.0; 4]; 4];
        for (vr, row) in v.iter_mut().zip([s, u, [-fwd[0], -fwd[1], -fwd[2]]]) {
            *vr = [row[0], row[1], row[2], -(row[0] * eye[0] + row[1] * eye[1] + row[2] * eye[2])];
        }
        v[3] = [0.0, 0.0, 0.0, 1.0];
        for (mr, pr) in m.iter_mut().zip(&p) {
            for (c, x) in mr.iter_mut().enumerate() {
                *x = (0..4).map(|i| pr[i] * v[i][c]).sum();
            }
        }
    }
    out
}

/// The constant buffer of *cube*: row `r` of face `k` at `cb0[4k + r]`, rounded to f32,
/// as bits.
pub fn face_matrix_rows() -> Vec<[u32; 4]> {
    face_matrices().iter().flatten().map(|row| row.map(|x| (x as f32).to_bits())).collect()
}
