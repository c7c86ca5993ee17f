//! The rasterizer (`exec::raster`): the Top-Left Rule on shared edges (every pixel of
//! a tiled rectangle covered exactly once, at any orientation), perspective-correct,
//! noperspective and constant attributes at known pixels, `SV_Position`, faces and
//! culling, helper pixels feeding derivatives, the depth clip, and the limits.

use exec::compute::Limits;
use exec::raster::{self, Cull, Drawn, RasterState, Setup, Viewport, MAX_TARGET_DIMENSION};
use exec::{ExecErrorKind, Plan, Resources};

fn plan(text: &str) -> Plan {
    let bytes = listing::asm::assemble(text, &listing::asm::AsmOptions::default())
        .unwrap_or_else(|e| panic!("assembling:\n{text}\n{e:#?}"))
        .bytes;
    Plan::from_bytecode(&bytes).unwrap_or_else(|e| panic!("compiling:\n{text}\n{e}"))
}

/// A `size` × `size` target, the viewport over it.
fn state(size: u32) -> RasterState {
    RasterState {
        viewport: Viewport {
            top_left_x: 0.0,
            top_left_y: 0.0,
            width: size as f32,
            height: size as f32,
            min_depth: 0.0,
            max_depth: 1.0,
        },
        target_width: size,
        target_height: size,
        cull: Cull::None,
        front_counter_clockwise: false,
        depth_clip: true,
        position_register: 0,
    }
}

/// A vertex at render-target position (x, y) of a `size` target, depth z, clip w:
/// the clip-space position (exact for w a power of two) then the attributes.
fn vertex(size: u32, x: f32, y: f32, z: f32, w: f32, attributes: &[[f32; 4]]) -> Vec<[u32; 4]> {
    let half = size as f32 / 2.0;
    let (nx, ny) = (x / half - 1.0, 1.0 - y / half);
    let mut v = vec![[nx * w, ny * w, z * w, w].map(f32::to_bits)];
    v.extend(attributes.iter().map(|a| a.map(f32::to_bits)));
    v
}

/// Pixels of a `size` target each triangle covers, counted over the triangles.
fn coverage(ps: &Plan, triangles: &[[Vec<[u32; 4]>; 3]], state: &RasterState) -> Vec<u32> {
    let size = state.target_width as usize;
    let mut count = vec![0u32; size * state.target_height as usize];
    for t in triangles {
        let Some(setup) = Setup::new(ps, [&t[0], &t[1], &t[2]], state).unwrap() else { continue };
        setup
            .quads(state, |q| {
                for k in 0..4 {
                    if q.covered[k] {
                        count[(q.y as usize + k / 2) * size + q.x as usize + k % 2] += 1;
                    }
                }
                Ok(())
            })
            .unwrap();
    }
    count
}

const PASS: &str = "ps_4_0\ndcl_input_ps linear v1.xyzw\ndcl_output o0.xyzw\nmov o0.xyzw, v1.xyzw\nret\n";

/// A 16 × 16 target tiled by triangles: a 4 × 4 grid of cells whose inner vertices sit
/// on pixel centres (rows and columns of them: horizontal, vertical and diagonal
/// edges through centres), on pixel corners and at odd 1/256 positions; each cell cut
/// along one diagonal or the other, each triangle given in either winding. Every pixel
/// is covered exactly once.
#[test]
fn triangles_sharing_edges_cover_every_pixel_once() {
    let ps = plan(PASS);
    let st = state(16);
    // Inner grid lines: on centres (x.5), on a pixel edge, at odd sub-pixel positions.
    let lines = [0.0f32, 4.5, 8.0, 11.5 + 3.0 / 256.0, 16.0];
    let ys = [0.0f32, 3.5, 8.5, 12.0 - 5.0 / 256.0, 16.0];
    let mut triangles = Vec::new();
    for j in 0..4 {
        for i in 0..4 {
            let p = |di: usize, dj: usize| {
                // Inner vertices move a little per cell corner, keeping edges shared.
                let (gi, gj) = (i + di, j + dj);
                let inner = gi % 4 != 0 && gj % 4 != 0;
                let wobble = if inner && (gi + gj) % 2 == 0 { 1.0 } else { 0.0 };
                vertex(16, lines[gi] + wobble, ys[gj], 0.5, 1.0, &[[1.0; 4]])
            };
            let (a, b, c, d) = (p(0, 0), p(1, 0), p(1, 1), p(0, 1));
            let flip = (i + j) % 2 == 0;
            let pair =
                if flip { [[a.clone(), b, c.clone()], [a, c, d]] } else { [[a, b.clone(), d.clone()], [b, c, d]] };
            for (k, [x, y, z]) in pair.into_iter().enumerate() {
                // Alternate clockwise and counter-clockwise windings.
                triangles.push(if (i + j + k) % 2 == 0 { [x, y, z] } else { [x, z, y] });
            }
        }
    }
    let count = coverage(&ps, &triangles, &st);
    let wrong: Vec<(usize, u32)> = count.iter().copied().enumerate().filter(|&(_, n)| n != 1).collect();
    assert!(wrong.is_empty(), "pixels not covered exactly once (index, count): {wrong:?}");
}

/// A fan of 16 triangles around a centre on a pixel centre, through pixel centres in
/// every direction, and the same fan at w = 4 (the same positions after the divide).
#[test]
fn a_fan_around_a_pixel_centre_covers_each_pixel_once() {
    let ps = plan(PASS);
    let st = state(16);
    let centre = (8.5f32, 7.5f32);
    // A ring of points on the target's border (so that the fan tiles the target).
    let mut ring: Vec<(f32, f32)> = Vec::new();
    for k in 0..4 {
        let t = k as f32 * 4.0;
        ring.push((t, 0.0));
    }
    for k in 0..4 {
        ring.push((16.0, k as f32 * 4.0));
    }
    for k in 0..4 {
        ring.push((16.0 - k as f32 * 4.0, 16.0));
    }
    for k in 0..4 {
        ring.push((0.0, 16.0 - k as f32 * 4.0));
    }
    for w in [1.0f32, 4.0] {
        let mut triangles = Vec::new();
        for k in 0..ring.len() {
            let (a, b) = (ring[k], ring[(k + 1) % ring.len()]);
            triangles.push([
                vertex(16, centre.0, centre.1, 0.5, w, &[]),
                vertex(16, a.0, a.1, 0.5, w, &[]),
                vertex(16, b.0, b.1, 0.5, w, &[]),
            ]);
        }
        let count = coverage(&ps, &triangles, &st);
        assert!(count.iter().all(|&n| n == 1), "w {w}: {count:?}");
    }
}

/// The Top-Left Rule on one triangle: the centres on its top and left edges are in,
/// those on its right and bottom edges out.
#[test]
fn centres_on_top_and_left_edges_are_in_and_on_bottom_and_right_edges_out() {
    let ps = plan(PASS);
    let st = state(8);
    // A rectangle's two triangles from (1.5, 1.5) to (5.5, 4.5): edges through centres.
    let v = |x: f32, y: f32| vertex(8, x, y, 0.5, 1.0, &[]);
    let upper = [v(1.5, 1.5), v(5.5, 1.5), v(5.5, 4.5)];
    let lower = [v(1.5, 1.5), v(5.5, 4.5), v(1.5, 4.5)];
    let count = coverage(&ps, &[upper, lower], &st);
    for y in 0..8 {
        for x in 0..8 {
            // Columns 1..=4 (x = 1.5 is left: in; x = 5.5 is right: out), rows 1..=3.
            let expected = u32::from((1..=4).contains(&x) && (1..=3).contains(&y));
            assert_eq!(count[y * 8 + x], expected, "pixel ({x}, {y})");
        }
    }
}

fn draw(ps: &Plan, triangles: &[[Vec<[u32; 4]>; 3]], st: &RasterState) -> Drawn {
    let t: Vec<[&[[u32; 4]]; 3]> = triangles.iter().map(|t| [&t[0][..], &t[1][..], &t[2][..]]).collect();
    raster::draw(ps, &t, st, &mut Resources::default(), &Limits::default()).unwrap_or_else(|e| panic!("{e}"))
}

fn out(d: &Drawn, x: u32, y: u32, target: usize) -> [f32; 4] {
    d.pixels[(y * d.width + x) as usize].unwrap_or_else(|| panic!("pixel ({x}, {y}) not written")).targets[target]
        .map(f32::from_bits)
}

const MODES: &str = "ps_4_0
dcl_input_ps_siv linear noperspective v0.xyzw, position
dcl_input_ps linear v1.xyzw
dcl_input_ps linear noperspective v2.xyzw
dcl_input_ps constant v3.xyzw
dcl_input_ps linear centroid v4.xyzw
dcl_output o0.xyzw
dcl_output o1.xyzw
dcl_output o2.xyzw
dcl_output o3.xyzw
dcl_output o4.xyzw
mov o0.xyzw, v0.xyzw
mov o1.xyzw, v1.xyzw
mov o2.xyzw, v2.xyzw
mov o3.xyzw, v3.xyzw
mov o4.xyzw, v4.xyzw
ret
";

/// The triangle (0, 0), (16, 0), (0, 16) with clip w 1, 2, 4 and depths 0, 0.5, 1: at
/// pixel (3, 5), centre (3.5, 5.5), the barycentrics are (7/16, 3.5/16, 5.5/16), so
/// b/w = (28, 7, 5.5) / 64. An attribute 0, 1, 0 is 7 / 40.5 with perspective and
/// 3.5/16 without; w = 64 / 40.5; z = 0.5 · 3.5/16 + 5.5/16.
#[test]
fn attributes_at_a_known_pixel_follow_their_interpolation_modes() {
    let ps = plan(MODES);
    let st = state(16);
    let a = |v: f32| [[v, 2.0 * v, -v, 10.0 + v]; 4];
    let v0 = vertex(16, 0.0, 0.0, 0.0, 1.0, &a(0.0));
    let mut v1 = vertex(16, 16.0, 0.0, 0.5, 2.0, &a(1.0));
    let v2 = vertex(16, 0.0, 16.0, 1.0, 4.0, &a(0.0));
    // The constant register of v0 has NaN bits that must pass untouched.
    let mut v0 = v0;
    v0[3] = [0x7fa0_0001, 1, 2, 3];
    v1[3] = [5, 6, 7, 8];
    let d = draw(&ps, &[[v0, v1, v2]], &st);
    let persp = (7.0f64 / 40.5) as f32;
    let linear = 3.5f32 / 16.0;
    assert_eq!(out(&d, 3, 5, 1), [persp, (2.0 * 7.0f64 / 40.5) as f32, -persp, (10.0 + 7.0f64 / 40.5) as f32]);
    assert_eq!(out(&d, 3, 5, 2), [linear, 2.0 * linear, -linear, 10.0 + linear]);
    assert_eq!(out(&d, 3, 5, 4), out(&d, 3, 5, 1), "centroid at one sample: the centre");
    let constant = d.pixels[5 * 16 + 3].unwrap().targets[3];
    assert_eq!(constant, [0x7fa0_0001, 1, 2, 3]);
    let position = out(&d, 3, 5, 0);
    let z = (0.5f64 * 3.5 / 16.0 + 5.5 / 16.0) as f32;
    assert_eq!(position, [3.5, 5.5, z, (64.0f64 / 40.5) as f32]);
    // Perspective differs from noperspective wherever w differs.
    assert_ne!(out(&d, 3, 5, 1)[0], out(&d, 3, 5, 2)[0]);
}

/// Constant attributes come from the leading (first) vertex, whichever it is.
#[test]
fn constant_attributes_are_the_first_vertex() {
    let ps = plan(MODES);
    let st = state(8);
    let v = |x: f32, y: f32, c: f32| {
        let mut v = vertex(8, x, y, 0.5, 1.0, &[[0.0; 4], [0.0; 4]]);
        v.push([c; 4].map(f32::to_bits));
        v.push([0; 4]);
        v
    };
    let (a, b, c) = (v(0.0, 0.0, 1.0), v(8.0, 0.0, 2.0), v(0.0, 8.0, 3.0));
    for (order, first) in [([&a, &b, &c], 1.0), ([&b, &c, &a], 2.0), ([&c, &a, &b], 3.0), ([&a, &c, &b], 1.0)] {
        let d = draw(&ps, &[order.map(|v| v.clone())], &st);
        let written: Vec<_> = d.pixels.iter().flatten().collect();
        assert_eq!(
            written.len(),
            28,
            "7 + 6 + ... + 1 centres inside (those on the hypotenuse, a right edge, are out)"
        );
        assert!(written.iter().all(|p| p.targets[3] == [first; 4].map(f32::to_bits)), "first {first}");
    }
}

/// Clockwise (render-target space) is front unless FrontCounterClockwise; culling drops
/// the faces asked; `SV_IsFrontFace` says which.
#[test]
fn faces_and_culling() {
    let ps = plan("ps_4_0\ndcl_input_ps_sgv v1.x, is_front_face\ndcl_output o0.x\nmov o0.x, v1.x\nret\n");
    let v = |x: f32, y: f32| vertex(4, x, y, 0.5, 1.0, &[]);
    let clockwise = [v(0.0, 0.0), v(4.0, 0.0), v(0.0, 4.0)];
    let counter = [v(0.0, 0.0), v(0.0, 4.0), v(4.0, 0.0)];
    for (ccw, cull, tri, drawn, front) in [
        (false, Cull::None, &clockwise, true, true),
        (false, Cull::None, &counter, true, false),
        (false, Cull::Back, &counter, false, false),
        (false, Cull::Back, &clockwise, true, true),
        (false, Cull::Front, &clockwise, false, true),
        (true, Cull::None, &counter, true, true),
        (true, Cull::Back, &clockwise, false, false),
    ] {
        let mut st = state(4);
        st.cull = cull;
        st.front_counter_clockwise = ccw;
        let d = draw(&ps, std::slice::from_ref(tri), &st);
        let written: Vec<_> = d.pixels.iter().flatten().collect();
        assert_eq!(!written.is_empty(), drawn, "{ccw} {cull:?}");
        assert!(written.iter().all(|p| p.targets[0][0] == if front { u32::MAX } else { 0 }), "{ccw} {cull:?}");
    }
}

/// A triangle covering one pixel: its quad's three helpers run with extrapolated
/// attributes, so a fine derivative is the attribute's gradient.
#[test]
fn helper_pixels_carry_extrapolated_attributes() {
    let ps = plan(
        "ps_5_0\ndcl_input_ps linear noperspective v1.x\ndcl_output o0.xy\n\
         deriv_rtx_fine o0.x, v1.x\nderiv_rty_fine o0.y, v1.x\nret\n",
    );
    let st = state(8);
    // Around pixel (2, 3)'s centre only; the attribute is 2x + 3y (pixels).
    let v = |x: f32, y: f32| vertex(8, x, y, 0.5, 1.0, &[[2.0 * x + 3.0 * y, 0.0, 0.0, 0.0]]);
    let d = draw(&ps, &[[v(2.25, 3.25), v(3.0, 3.25), v(2.25, 4.0)]], &st);
    assert_eq!(d.pixels.iter().flatten().count(), 1);
    assert_eq!((d.quads, d.ps_invocations), (1, 4));
    assert_eq!(out(&d, 2, 3, 0)[..2], [2.0, 3.0]);
}

/// The depth clip drops the pixels whose interpolated z/w is outside [0, 1]; without it
/// they are drawn with that depth.
#[test]
fn depth_clip_is_per_pixel() {
    let ps = plan(MODES);
    let v = |x: f32, y: f32, z: f32| vertex(4, x, y, z, 1.0, &[[0.0; 4]; 4]);
    // z from -1 at x = 0 to 1 at x = 4: z < 0 for the left two columns.
    let tri = [v(0.0, 0.0, -1.0), v(8.0, 0.0, 3.0), v(0.0, 8.0, -1.0)];
    let mut st = state(4);
    let d = draw(&ps, std::slice::from_ref(&tri), &st);
    let row: Vec<bool> = (0..4).map(|x| d.pixels[x].is_some()).collect();
    assert_eq!(row, [false, false, true, true]);
    st.depth_clip = false;
    let d = draw(&ps, &[tri], &st);
    assert_eq!(out(&d, 0, 0, 0)[2], -0.75);
}

#[test]
fn limits_and_clipping_are_errors_or_nothing_drawn() {
    let ps = plan(PASS);
    let v = |x: f32, y: f32, w: f32| vertex(4, x, y, 0.5, w, &[[1.0; 4]]);
    let tri = [v(0.0, 0.0, 1.0), v(4.0, 0.0, 1.0), v(0.0, 4.0, 1.0)];
    let t = [&tri[0][..], &tri[1][..], &tri[2][..]];
    let run = |st: &RasterState, t: &[[&[[u32; 4]]; 3]]| {
        raster::draw(&ps, t, st, &mut Resources::default(), &Limits::default()).map_err(|e| e.kind)
    };
    let mut st = state(4);
    st.target_width = MAX_TARGET_DIMENSION + 1;
    assert!(matches!(run(&st, &[t]), Err(ExecErrorKind::Draw(_))));
    st = state(4);
    st.target_width = 0;
    assert!(matches!(run(&st, &[t]), Err(ExecErrorKind::Draw(_))));
    st = state(4);
    st.target_width = 2048;
    st.target_height = 2048;
    assert!(matches!(run(&st, &[t]), Err(ExecErrorKind::Draw(_))), "more than MAX_TARGET_PIXELS");
    st = state(4);
    st.viewport.width = 40000.0;
    assert!(matches!(run(&st, &[t]), Err(ExecErrorKind::Draw(_))));
    st = state(4);
    st.viewport.min_depth = f32::NAN;
    assert!(matches!(run(&st, &[t]), Err(ExecErrorKind::Draw(_))));
    st = state(4);
    st.position_register = 9;
    assert!(matches!(run(&st, &[t]), Err(ExecErrorKind::Draw(_))));
    // w changing sign: no geometric clip.
    let crossing = [v(0.0, 0.0, 1.0), v(4.0, 0.0, -1.0), v(0.0, 4.0, 1.0)];
    let c = [&crossing[0][..], &crossing[1][..], &crossing[2][..]];
    assert!(matches!(run(&state(4), &[c]), Err(ExecErrorKind::Unsupported(_))));
    // Behind the viewer, NaN, degenerate: nothing.
    let behind = [v(0.0, 0.0, -1.0), v(4.0, 0.0, -1.0), v(0.0, 4.0, -1.0)];
    let mut nan = tri.clone();
    nan[1][0][0] = f32::NAN.to_bits();
    let flat = [v(0.0, 0.0, 1.0), v(4.0, 0.0, 1.0), v(2.0, 0.0, 1.0)];
    for t in [&behind, &nan, &flat] {
        let d = run(&state(4), &[[&t[0][..], &t[1][..], &t[2][..]]]).unwrap();
        assert!(d.pixels.iter().all(Option::is_none));
        assert_eq!(d.triangles, 0);
    }
    // A vertex outside the 16.8 range of render-target positions would need a clip
    // to the guard band (clamping it would change the triangle's shape): refused.
    let huge = [v(0.0, 0.0, 1.0), v(1e30, 0.0, 1.0), v(0.0, 1e30, 1.0)];
    let e = run(&state(4), &[[&huge[0][..], &huge[1][..], &huge[2][..]]]).unwrap_err();
    assert!(matches!(&e, ExecErrorKind::Unsupported(why) if why.contains("16.8")), "{e:?}");
    // Just inside the range (32767 px): drawn, and the shape kept.
    let edge = [v(0.0, 0.0, 1.0), v(32766.0, 0.0, 1.0), v(0.0, 4.0, 1.0)];
    let d = run(&state(4), &[[&edge[0][..], &edge[1][..], &edge[2][..]]]).unwrap();
    let drawn: Vec<bool> = d.pixels.iter().map(Option::is_some).collect();
    // Row y covers x + 0.5 < 32766 · (1 − (y + 0.5) / 4): every pixel of the target.
    assert_eq!(drawn, [true; 16]);
    // A huge triangle entirely outside one clip plane is dropped, not refused.
    let right = [v(8.0, 0.0, 1.0), v(1e30, 0.0, 1.0), v(8.0, 1e30, 1.0)];
    let d = run(&state(4), &[[&right[0][..], &right[1][..], &right[2][..]]]).unwrap();
    assert_eq!((d.triangles, d.pixels.iter().filter(|p| p.is_some()).count()), (0, 0));
    // What Drawn::pixels costs per pixel (the module documentation's figure).
    assert_eq!(std::mem::size_of::<Option<exec::pixel::PixelOutput>>(), 156);
}

/// A triangle whose w changes sign is refused only when something of it could be
/// visible: all three vertices beyond the same clip plane (x > w, x < −w, y > w,
/// y < −w, and with the depth clip z < 0 or z > w) is dropped without an error.
#[test]
fn triangles_crossing_w_zero_outside_a_clip_plane_are_dropped() {
    let ps = plan(PASS);
    let run = |st: &RasterState, t: &[[f32; 4]; 3]| {
        let t: Vec<Vec<[u32; 4]>> =
            t.iter().map(|c| vec![c.map(f32::to_bits), [1.0f32; 4].map(f32::to_bits)]).collect();
        raster::draw(&ps, &[[&t[0][..], &t[1][..], &t[2][..]]], st, &mut Resources::default(), &Limits::default())
            .map_err(|e| e.kind)
    };
    let outside = [
        [[2.0, 0.0, 0.5, 1.0], [3.0, 0.0, 0.5, -1.0], [2.0, 1.0, 0.5, 1.0]],
        [[-2.0, 0.0, 0.5, 1.0], [-3.0, 0.0, 0.5, -1.0], [-2.0, 1.0, 0.5, 1.0]],
        [[0.0, 2.0, 0.5, 1.0], [0.0, 3.0, 0.5, -1.0], [1.0, 2.0, 0.5, 1.0]],
        [[0.0, -2.0, 0.5, 1.0], [0.0, -3.0, 0.5, -1.0], [1.0, -2.0, 0.5, 1.0]],
    ];
    for t in &outside {
        let d = run(&state(4), t).unwrap_or_else(|e| panic!("{t:?}: {e:?}"));
        assert_eq!((d.triangles, d.quads), (0, 0), "{t:?}");
    }
    let near = [[0.0, 0.0, -0.5, 1.0], [1.0, 0.0, -2.0, -1.0], [0.0, 1.0, -0.5, 1.0]];
    let far = [[0.0, 0.0, 2.0, 1.0], [1.0, 0.0, 0.5, -1.0], [0.0, 1.0, 2.0, 1.0]];
    for t in [&near, &far] {
        assert_eq!(run(&state(4), t).map(|d| d.triangles), Ok(0), "{t:?}");
        // Without the depth clip, z bounds nothing: the crossing is refused.
        let mut st = state(4);
        st.depth_clip = false;
        assert!(matches!(run(&st, t), Err(ExecErrorKind::Unsupported(_))), "{t:?}");
    }
    // Crossing w = 0 and partly inside every plane: refused.
    let crossing = [[0.0, 0.0, 0.5, 1.0], [3.0, 0.0, 0.5, -1.0], [0.0, 1.0, 0.5, 1.0]];
    assert!(matches!(run(&state(4), &crossing), Err(ExecErrorKind::Unsupported(_))));
}

/// The implicit scissor of a fractional viewport (functional spec 15.7 "Scissor
/// Test": the viewport's extents rounded toward negative infinity): with TopLeftX =
/// 0.7 and Width = 2 the scissor is pixels 0 and 1, so pixel 0 (centre 0.5, in the
/// half-pixel "non-deterministic zone" of 15.6.1, drawn here as no geometric clip is
/// made) is drawn and pixel 2 (centre 2.5, inside the extent 2.7) is not.
#[test]
fn a_fractional_viewport_scissors_to_its_extents_rounded_down() {
    let ps = plan(PASS);
    let mut st = state(4);
    st.viewport.top_left_x = 0.7;
    st.viewport.width = 2.0;
    // Render-target x from −1.3 to 10.7, y from −4 to 20: over the whole target.
    let c = |x: f32, y: f32| vec![[x, y, 0.5, 1.0].map(f32::to_bits), [1.0f32; 4].map(f32::to_bits)];
    let d = draw(&ps, &[[c(-3.0, 3.0), c(9.0, 3.0), c(-3.0, -9.0)]], &st);
    for y in 0..4 {
        let row: Vec<bool> = (0..4).map(|x| d.pixels[y * 4 + x].is_some()).collect();
        assert_eq!(row, [true, true, false, false], "row {y}");
    }
    // The right extent exactly on a pixel edge (TopLeftX + Width = 3): pixel 2 is in.
    st.viewport.width = 2.3;
    let d = draw(&ps, &[[c(-3.0, 3.0), c(9.0, 3.0), c(-3.0, -9.0)]], &st);
    let row: Vec<bool> = (0..4).map(|x| d.pixels[x].is_some()).collect();
    assert_eq!(row, [true, true, true, false]);
}

/// The public entry points take any point without overflowing: far points give
/// barycentrics and evaluations, not panics.
#[test]
fn setup_queries_take_any_point() {
    let ps = plan(PASS);
    let st = state(16);
    let a = |v: f32| [[v; 4]];
    let t = [
        vertex(16, 0.0, 0.0, 0.0, 1.0, &a(0.0)),
        vertex(16, 16.0, 0.0, 0.5, 2.0, &a(1.0)),
        vertex(16, 0.0, 16.0, 1.0, 4.0, &a(0.0)),
    ];
    let setup = Setup::new(&ps, [&t[0], &t[1], &t[2]], &st).unwrap().unwrap();
    assert_eq!(setup.positions(), [[0, 0], [16 * 256, 0], [0, 16 * 256]]);
    assert!(setup.front_face() && setup.area2() > 0);
    for p in [[i64::MAX, i64::MAX], [i64::MIN, i64::MAX], [i64::MIN, i64::MIN], [0, i64::MIN]] {
        assert!(!setup.covers(p), "{p:?}");
        let b = setup.barycentrics(p);
        assert!(b.iter().all(|c| c.is_finite()), "{p:?}: {b:?}");
    }
    assert!(setup.covers([128, 128]));
    for (x, y) in [(u32::MAX, u32::MAX), (u32::MAX, 0), (0, u32::MAX)] {
        for offset in [[i32::MAX, i32::MIN], [0, 0], [i32::MIN, i32::MAX]] {
            setup.pull(1, x, y, offset);
            setup.pull(usize::MAX, x, y, offset);
        }
    }
    // Inside, pull agrees with the quads: pixel (3, 5) of the triangle of
    // `pull_model_evaluation_uses_the_triangle_planes`, noperspective-free `linear`.
    assert_eq!(f32::from_bits(setup.pull(1, 3, 5, [0, 0])[0]), (7.0f64 / 40.5) as f32);
}

/// `eval_*` of an input register past the limit of declared inputs (v4095) is
/// malformed, not read as another register (the assembler refuses such a register:
/// the index word of an assembled `v29` is patched).
#[test]
fn eval_of_an_input_register_past_the_limit_is_refused() {
    let text =
        "ps_5_0\ndcl_input_ps linear v1.xyzw\ndcl_output o0.xyzw\neval_snapped o0.xyzw, v29.xyzw, l(0, 0, 0, 0)\nret\n";
    let bytes = listing::asm::assemble(text, &listing::asm::AsmOptions::default())
        .unwrap_or_else(|e| panic!("assembling:\n{text}\n{e:#?}"))
        .bytes;
    let at: Vec<usize> =
        (0..bytes.len() / 4).map(|k| 4 * k).filter(|&o| bytes[o..o + 4] == 29u32.to_le_bytes()).collect();
    assert_eq!(at.len(), 1, "one word 29: the register index");
    assert!(Plan::from_bytecode(&bytes).is_ok());
    for register in [4096u32, 65537] {
        let mut patched = bytes.clone();
        patched[at[0]..at[0] + 4].copy_from_slice(&register.to_le_bytes());
        let e = Plan::from_bytecode(&patched).map(|_| ()).unwrap_err();
        assert!(matches!(&e.kind, ExecErrorKind::Malformed(why) if why.contains("eval_snapped")), "v{register}: {e}");
    }
}

const PULL: &str = "ps_5_0
dcl_input_ps linear v1.xyzw
dcl_input_ps linear noperspective v2.xyzw
dcl_input_ps constant v3.xyzw
dcl_output o0.xyzw
dcl_output o1.xyzw
dcl_output o2.xyzw
dcl_output o3.xyzw
eval_snapped o0.xyzw, v1.xyzw, l(8, 8, 0, 0)
eval_snapped o1.xyzw, v2.xyzw, l(-12, 4, 0, 0)
eval_centroid o2.xyzw, v1.xyzw
eval_sample_index o3.xyzw, v3.yxwz, l(0)
ret
";

/// Pull-model evaluation in a rasterized draw, on the triangle of
/// `attributes_at_a_known_pixel_follow_their_interpolation_modes`, at pixel (3, 5):
/// `eval_snapped` with offset 8 (the low 4 bits 1000: −8/16) moves to (3, 5), where
/// b = (8, 3, 5) / 16 and b/w = (32, 6, 5) / 64, so `linear` 0, 1, 0 is 6/43; offset
/// −12, 4 (low bits 0100: +4/16 both) moves to (3.75, 5.75), `noperspective` 3.75/16;
/// `eval_centroid` and `eval_sample_index` (one sample) read at the centre; constant
/// inputs ignore where.
#[test]
fn pull_model_evaluation_uses_the_triangle_planes() {
    let ps = plan(PULL);
    let st = state(16);
    let a = |v: f32| [[v, 2.0 * v, -v, 10.0 + v]; 3];
    let mut v0 = vertex(16, 0.0, 0.0, 0.0, 1.0, &a(0.0));
    let v1 = vertex(16, 16.0, 0.0, 0.5, 2.0, &a(1.0));
    let v2 = vertex(16, 0.0, 16.0, 1.0, 4.0, &a(0.0));
    v0[3] = [1.5f32, 2.5, 3.5, 4.5].map(f32::to_bits);
    let d = draw(&ps, &[[v0, v1, v2]], &st);
    let persp = (6.0f64 / 43.0) as f32;
    assert_eq!(out(&d, 3, 5, 0), [persp, (12.0f64 / 43.0) as f32, -persp, (10.0 + 6.0f64 / 43.0) as f32]);
    let linear = 3.75f32 / 16.0;
    assert_eq!(out(&d, 3, 5, 1), [linear, 2.0 * linear, -linear, 10.0 + linear]);
    assert_eq!(out(&d, 3, 5, 2)[0], (7.0f64 / 40.5) as f32);
    assert_eq!(out(&d, 3, 5, 3), [2.5, 1.5, 4.5, 3.5]);
    // Quads described by their caller have no planes: refused, with the reason.
    let e = exec::pixel::shade(&ps, &[], &mut Resources::default(), &Limits::default()).unwrap_err();
    assert!(matches!(&e.kind, ExecErrorKind::Unsupported(why) if why.contains("rasterized draw")), "{e}");
}

/// A target drawn band after band of rows (`draw_rows`, even first rows) gives the
/// pixels, quads and invocations of one `draw` of the whole target: two triangles
/// with helper pixels along every edge, including the bands' boundaries, and a
/// derivative (`deriv_rtx`/`deriv_rty` stay within a quad). Odd first rows, rows past
/// the target and bands of more than `MAX_TARGET_PIXELS` pixels are refused.
#[test]
fn a_target_drawn_in_bands_of_rows_equals_one_draw() {
    let ps = plan(
        "ps_4_0\ndcl_input_ps linear v1.xyzw\ndcl_output o0.xyzw\ndcl_output o1.xyzw\ndcl_temps 1\n\
         mov o0.xyzw, v1.xyzw\nderiv_rtx r0.xy, v1.xyxx\nderiv_rty r0.zw, v1.xxxy\nmov o1.xyzw, r0.xyzw\nret\n",
    );
    let st = RasterState { target_height: 30, ..state(32) };
    let triangles = [
        [
            vertex(32, 1.3, 0.7, 0.0, 1.0, &[[0.0, 1.0, 2.0, 3.0]]),
            vertex(32, 30.2, 5.1, 0.5, 2.0, &[[1.0, -1.0, 0.5, 0.0]]),
            vertex(32, 7.9, 29.4, 1.0, 4.0, &[[4.0, 2.0, -3.0, 1.0]]),
        ],
        [
            vertex(32, 30.2, 5.1, 0.5, 2.0, &[[1.0, -1.0, 0.5, 0.0]]),
            vertex(32, 31.0, 28.6, 0.0, 1.0, &[[0.5, 0.5, 0.5, 0.5]]),
            vertex(32, 7.9, 29.4, 1.0, 4.0, &[[4.0, 2.0, -3.0, 1.0]]),
        ],
    ];
    let whole = draw(&ps, &triangles, &st);
    let t: Vec<[&[[u32; 4]]; 3]> = triangles.iter().map(|t| [&t[0][..], &t[1][..], &t[2][..]]).collect();
    for band in [2u32, 6, 10, 30] {
        let mut pixels = Vec::new();
        let (mut quads, mut invocations) = (0, 0);
        for start in (0..30).step_by(band as usize) {
            let rows = start..(start + band).min(30);
            let d = raster::draw_rows(&ps, &t, &st, rows, &mut Resources::default(), &Limits::default()).unwrap();
            pixels.extend(d.pixels);
            (quads, invocations) = (quads + d.quads, invocations + d.ps_invocations);
        }
        assert_eq!(pixels, whole.pixels, "bands of {band} rows");
        assert_eq!((quads, invocations), (whole.quads, whole.ps_invocations), "bands of {band} rows");
    }
    let run = |rows| raster::draw_rows(&ps, &t, &st, rows, &mut Resources::default(), &Limits::default());
    #[allow(clippy::reversed_empty_ranges)]
    let refused = [1..5, 0..31, 6..4];
    for rows in refused {
        assert!(matches!(run(rows.clone()).map_err(|e| e.kind), Err(ExecErrorKind::Draw(_))), "{rows:?}");
        assert!(st.check_rows(rows).is_err());
    }
    // A 2048 × 1024 target: too many pixels for one draw, two bands of 512 rows each fit.
    let big = RasterState { target_width: 2048, target_height: 1024, ..state(32) };
    assert!(big.check().is_err());
    assert!(big.check_rows(0..512).is_ok() && big.check_rows(512..1024).is_ok());
    assert!(big.check_rows(0..514).is_err());
}
