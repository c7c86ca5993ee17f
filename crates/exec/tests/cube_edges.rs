//! Cube maps at their faces' edges and corners (D3D11.3 functional spec 7.18.12,
//! TextureCube Edge and Corner Handling): bilinear taps and gathers past an edge read
//! the adjacent face, a corner's missing texel is the average of the other three,
//! point sampling clamps within the face. The neighbour texels expected are found
//! independently of `exec`'s remapping: the texel of the whole cube whose centre's
//! direction is nearest to the direction of the tap's centre off the face.

mod common_interp;
use common_interp::*;
use exec::resources::{AddressMode, Dimension, Filter, Sampler, Srv, TextureView};
use exec::{Format, Resources};

/// Texels per face edge.
const N: usize = 4;

/// Each face's (major axis, direction of increasing u, direction of increasing v):
/// Microsoft's cube face orientation (+X, -X, +Y, -Y, +Z, -Z).
const BASIS: [[[f64; 3]; 3]; 6] = [
    [[1.0, 0.0, 0.0], [0.0, 0.0, -1.0], [0.0, -1.0, 0.0]],
    [[-1.0, 0.0, 0.0], [0.0, 0.0, 1.0], [0.0, -1.0, 0.0]],
    [[0.0, 1.0, 0.0], [1.0, 0.0, 0.0], [0.0, 0.0, 1.0]],
    [[0.0, -1.0, 0.0], [1.0, 0.0, 0.0], [0.0, 0.0, -1.0]],
    [[0.0, 0.0, 1.0], [1.0, 0.0, 0.0], [0.0, -1.0, 0.0]],
    [[0.0, 0.0, -1.0], [-1.0, 0.0, 0.0], [0.0, -1.0, 0.0]],
];

/// The value stored at texel (x, y) of `face`: distinct for every texel.
fn value(face: usize, x: usize, y: usize) -> f32 {
    (face * 100 + y * N + x) as f32
}

/// The direction of face coordinates (u, v) (texel units may fall outside [0, N]).
fn dir(face: usize, u: f64, v: f64) -> [f64; 3] {
    let [m, du, dv] = BASIS[face];
    let (s, t) = (u * 2.0 - 1.0, v * 2.0 - 1.0);
    [0, 1, 2].map(|k| m[k] + s * du[k] + t * dv[k])
}

fn unit(d: [f64; 3]) -> [f64; 3] {
    let l = (d[0] * d[0] + d[1] * d[1] + d[2] * d[2]).sqrt();
    d.map(|c| c / l)
}

/// The texel (face, x, y) whose centre's direction is nearest to that of texel
/// (x, y) of `face` (integer coordinates that may lie one past the face's edge).
fn nearest(face: usize, x: i64, y: i64) -> (usize, usize, usize) {
    let p = unit(dir(face, (x as f64 + 0.5) / N as f64, (y as f64 + 0.5) / N as f64));
    let mut best = (0.0, (0, 0, 0));
    for f in 0..6 {
        for j in 0..N {
            for i in 0..N {
                let c = unit(dir(f, (i as f64 + 0.5) / N as f64, (j as f64 + 0.5) / N as f64));
                let dot = c[0] * p[0] + c[1] * p[1] + c[2] * p[2];
                if dot > best.0 {
                    best = (dot, (f, i, j));
                }
            }
        }
    }
    best.1
}

/// The neighbour of an off-face texel, checked to lie on an adjacent face (its major
/// axis perpendicular to `face`'s) on that face's edge.
fn neighbour(face: usize, x: i64, y: i64) -> f32 {
    let (f, i, j) = nearest(face, x, y);
    let (a, b) = (BASIS[face][0], BASIS[f][0]);
    assert_eq!(a[0] * b[0] + a[1] * b[1] + a[2] * b[2], 0.0, "face {face} ({x}, {y}) -> face {f}");
    assert!(i == 0 || j == 0 || i == N - 1 || j == N - 1);
    value(f, i, j)
}

fn texel(face: usize, x: i64, y: i64) -> f32 {
    if (0..N as i64).contains(&x) && (0..N as i64).contains(&y) {
        value(face, x as usize, y as usize)
    } else {
        neighbour(face, x, y)
    }
}

struct Cube {
    data: Vec<u8>,
}

impl Cube {
    fn new() -> Cube {
        let mut data = Vec::new();
        for f in 0..6 {
            for y in 0..N {
                for x in 0..N {
                    data.extend_from_slice(&value(f, x, y).to_le_bytes());
                }
            }
        }
        Cube { data }
    }

    /// Runs `op` (reading t0 at v0, sampler s0) with the sampler's filter `filter` at
    /// face coordinates (u, v) of `face`.
    fn run(&self, op: &str, filter: Filter, face: usize, u: f64, v: f64) -> [f32; 4] {
        let view = TextureView {
            dimension: Dimension::TextureCube,
            format: Format::R32_FLOAT,
            width: N as u32,
            height: N as u32,
            depth: 1,
            array_size: 6,
            mip_levels: 1,
            data: &self.data,
        };
        let mut res = Resources { srvs: vec![Some(Srv::Texture(view))], ..Resources::default() };
        res.samplers[0] = Some(Sampler {
            min: filter,
            mag: filter,
            mip: Filter::Point,
            address: [AddressMode::Wrap; 3],
            ..Sampler::default()
        });
        let text = format!(
            "vs_5_0\ndcl_sampler s0, mode_default\ndcl_resource_texturecube (float,float,float,float) t0\ndcl_input v0.xyzw\ndcl_output o0.xyzw\n{op}\nret\n"
        );
        let d = dir(face, u, v).map(|c| c as f32);
        run_vs_with(&text, &[f4([d[0], d[1], d[2], 0.0])], &mut res)[0].map(f32::from_bits)
    }

    fn sample(&self, filter: Filter, face: usize, u: f64, v: f64) -> f32 {
        let op = "sample_l_indexable(texturecube)(float,float,float,float) o0.xyzw, v0.xyzx, t0.xyzw, s0, l(0.000000)";
        self.run(op, filter, face, u, v)[0]
    }

    fn gather(&self, face: usize, u: f64, v: f64) -> [f32; 4] {
        self.run("gather4 o0.xyzw, v0.xyzx, t0.xyzw, s0.x", Filter::Point, face, u, v)
    }
}

/// Face coordinate whose bilinear footprint starts at texel `t0` with weight
/// `1 - frac` on it and `frac` on `t0 + 1`.
fn coord(t0: i64, frac: f64) -> f64 {
    (t0 as f64 + frac + 0.5) / N as f64
}

/// A linear sample a quarter texel inside each of the 4 edges of each face (so every
/// one of the 12 edges from both sides), at every row: 3/4 of the edge texel and 1/4
/// of the adjacent face's.
#[test]
fn linear_sample_blends_across_every_edge() {
    let cube = Cube::new();
    let n = N as i64;
    for face in 0..6 {
        for j in 0..n - 1 {
            // (footprint's first texel and weight along u, then along v), with
            // the second axis at a texel centre (weight 0 on the texel after it).
            let cases =
                [((-1, 0.75), (j, 0.0)), ((n - 1, 0.25), (j, 0.0)), ((j, 0.0), (-1, 0.75)), ((j, 0.0), (n - 1, 0.25))];
            for ((x0, fu), (y0, fv)) in cases {
                let got = cube.sample(Filter::Linear, face, coord(x0, fu), coord(y0, fv));
                let mut want = 0.0f64;
                for (x, wx) in [(x0, 1.0 - fu), (x0 + 1, fu)] {
                    for (y, wy) in [(y0, 1.0 - fv), (y0 + 1, fv)] {
                        if wx * wy != 0.0 {
                            want += wx * wy * texel(face, x, y) as f64;
                        }
                    }
                }
                assert!((got as f64 - want).abs() < 1e-3, "face {face} footprint ({x0}, {y0}): {got} != {want}");
                // Not what clamping to the face gives.
                let clamped = (x0.clamp(0, n - 1), y0.clamp(0, n - 1));
                assert_ne!(got, value(face, clamped.0 as usize, clamped.1 as usize), "face {face} ({x0}, {y0})");
            }
        }
    }
}

/// A linear sample a quarter texel inside a corner of each face: the corner's missing
/// texel is the average of the other three of the footprint.
#[test]
fn linear_sample_at_a_corner_averages_three_texels() {
    let cube = Cube::new();
    let n = N as i64;
    for face in 0..6 {
        for (x0, y0) in [(-1, -1), (n - 1, -1), (-1, n - 1), (n - 1, n - 1)] {
            let (fu, fv) = (if x0 < 0 { 0.75 } else { 0.25 }, if y0 < 0 { 0.75 } else { 0.25 });
            let got = cube.sample(Filter::Linear, face, coord(x0, fu), coord(y0, fv));
            let mut want = 0.0f64;
            let mut three = Vec::new();
            let mut corner_weight = 0.0;
            for (x, wx) in [(x0, 1.0 - fu), (x0 + 1, fu)] {
                for (y, wy) in [(y0, 1.0 - fv), (y0 + 1, fv)] {
                    let inside = |t: i64| (0..n).contains(&t);
                    if !inside(x) && !inside(y) {
                        corner_weight = wx * wy;
                    } else {
                        let t = texel(face, x, y) as f64;
                        three.push(t);
                        want += wx * wy * t;
                    }
                }
            }
            assert_eq!(three.len(), 3);
            want += corner_weight * three.iter().sum::<f64>() / 3.0;
            assert!((got as f64 - want).abs() < 1e-3, "face {face} corner ({x0}, {y0}): {got} != {want}");
        }
    }
}

/// `gather4` across an edge returns the adjacent face's texels; at a corner, the
/// missing texel is the average of the other three.
#[test]
fn gather_across_edges_and_corners() {
    let cube = Cube::new();
    let n = N as i64;
    for face in 0..6 {
        for (x0, y0) in [(-1, 1), (n - 1, 1), (1, -1), (1, n - 1), (-1, -1), (n - 1, n - 1)] {
            // Inside the face: a quarter texel from the edge.
            let frac = |t0: i64| if t0 < 0 { 0.75 } else { 0.25 };
            let got = cube.gather(face, coord(x0, frac(x0)), coord(y0, frac(y0)));
            // x = (u0, v1), y = (u1, v1), z = (u1, v0), w = (u0, v0).
            let taps = [(x0, y0 + 1), (x0 + 1, y0 + 1), (x0 + 1, y0), (x0, y0)];
            let inside = |t: i64| (0..n).contains(&t);
            let known: Vec<f32> =
                taps.iter().filter(|(x, y)| inside(*x) || inside(*y)).map(|&(x, y)| texel(face, x, y)).collect();
            let avg = known.iter().sum::<f32>() / known.len() as f32;
            let want = taps.map(|(x, y)| if inside(x) || inside(y) { texel(face, x, y) } else { avg });
            for k in 0..4 {
                assert!((got[k] - want[k]).abs() < 1e-3, "face {face} ({x0}, {y0}): {got:?} != {want:?}");
            }
        }
    }
}

/// Point sampling stays on the face: near an edge, and at a face coordinate of
/// exactly 1.0 (where the +Z face wins the tie with +X).
#[test]
fn point_sampling_clamps_within_the_face() {
    let cube = Cube::new();
    for face in 0..6 {
        assert_eq!(cube.sample(Filter::Point, face, 0.01, 0.99), value(face, 0, N - 1));
        assert_eq!(cube.sample(Filter::Point, face, 0.99, 0.01), value(face, N - 1, 0));
    }
    // +Z face, u = 1.0 exactly: the direction (1, 0.25, 1) ties x and z; Z wins.
    assert_eq!(cube.sample(Filter::Point, 4, 1.0, 0.375), value(4, N - 1, 1));
    // Linear at a face's centre is unchanged by the edges.
    assert_eq!(cube.sample(Filter::Linear, 2, 0.5, 0.375), (value(2, 1, 1) + value(2, 2, 1)) / 2.0);
}
