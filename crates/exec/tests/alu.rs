//! ALU instructions: the special cases of the functional spec (chapter 3.1 and the
//! instruction pages of chapter 22), asserting exact result bits. Values go in through
//! the inputs (`v0`..`v3`, as bits) so that no listing number formatting is involved.

mod common_interp;
use common_interp::*;

const NAN: u32 = 0x7fc0_0000;
const INF: u32 = 0x7f80_0000;
const NINF: u32 = 0xff80_0000;
const NEG0: u32 = 0x8000_0000;
const DENORM: u32 = 0x0000_0001;
const NDENORM: u32 = 0x8000_0001;
const T: u32 = u32::MAX;

fn is_nan(x: u32) -> bool {
    f32::from_bits(x).is_nan()
}

/// Runs `op o0.xyzw, v0.xyzw, v1.xyzw` (`srcs` sources) on the given inputs.
fn op(name: &str, srcs: usize, v: &[[u32; 4]]) -> [u32; 4] {
    let args: Vec<String> = (0..srcs).map(|i| format!("v{i}.xyzw")).collect();
    eval(&format!("{name} o0.xyzw, {}", args.join(", ")), v)
}

fn dv(a: f64, b: f64) -> [u32; 4] {
    let (a, b) = (a.to_bits(), b.to_bits());
    [a as u32, (a >> 32) as u32, b as u32, (b >> 32) as u32]
}

fn dget(v: [u32; 4]) -> [f64; 2] {
    [f64::from_bits((v[1] as u64) << 32 | v[0] as u64), f64::from_bits((v[3] as u64) << 32 | v[2] as u64)]
}

#[test]
fn add_mul_mad_div_basics() {
    let a = f4([1.5, -2.0, 1e30, 0.1]);
    let b = f4([2.25, 2.0, 1e30, 0.2]);
    assert_eq!(op("add", 2, &[a, b]), f4([3.75, 0.0, 2e30, 0.1f32 + 0.2f32]));
    assert_eq!(op("mul", 2, &[a, b]), f4([3.375, -4.0, f32::INFINITY, 0.1f32 * 0.2f32]));
    assert_eq!(op("div", 2, &[a, b]), f4([1.5 / 2.25, -1.0, 1.0, 0.1f32 / 0.2f32]));
    // mad: a*b + c, two roundings (not fused).
    let c = f4([1.0, 4.0, -1e30, 0.3]);
    let want = [0, 1, 2, 3].map(|k| {
        let (a, b, c) = (f32::from_bits(a[k]), f32::from_bits(b[k]), f32::from_bits(c[k]));
        (a * b + c).to_bits()
    });
    assert_eq!(op("mad", 3, &[a, b, c]), want);
    // The unfused result differs from the fused one here.
    let x = 1.0f32 + 2f32.powi(-12);
    let m = op("mad", 3, &[[fb(x); 4], [fb(x); 4], [fb(-1.0); 4]]);
    assert_eq!(m[0], fb(x * x - 1.0));
    assert_ne!(m[0], fb(x.mul_add(x, -1.0)));
    // Special values.
    assert_eq!(op("add", 2, &[[INF, INF, NEG0, NEG0], [NINF, 0, 0, NEG0]])[1..], [INF, 0, NEG0]);
    assert!(is_nan(op("add", 2, &[[INF; 4], [NINF; 4]])[0]));
    assert!(is_nan(op("mul", 2, &[[INF; 4], [0; 4]])[0]));
    let q = op("div", 2, &[[fb(1.0), fb(-1.0), 0, fb(1.0)], [0, 0, 0, NEG0]]);
    assert_eq!([q[0], q[1], q[3]], [INF, NINF, NINF]);
    assert!(is_nan(q[2]));
}

#[test]
fn denormals_flush_on_input_and_output() {
    // Input: a denormal operand is a zero of its sign.
    assert_eq!(op("add", 2, &[[DENORM, NDENORM, NDENORM, fb(1.0)], [0, NEG0, 0, DENORM]]), [0, NEG0, 0, fb(1.0)]);
    assert_eq!(
        op("mul", 2, &[[DENORM, NDENORM, fb(2.0), fb(-2.0)], [fb(1.0), fb(1.0), NDENORM, DENORM]]),
        [0, NEG0, NEG0, NEG0]
    );
    // Output: a denormal result is flushed, sign kept.
    let tiny = fb(2f32.powi(-100));
    let small = fb(2f32.powi(-30));
    assert_eq!(op("mul", 2, &[[tiny, fb(-(2f32.powi(-100))), tiny, tiny], [small; 4]]), [0, NEG0, 0, 0]);
    let d = f32::from_bits(0x0080_0000); // smallest normal
    assert_eq!(op("add", 2, &[[fb(d * 1.5); 4], [fb(-d); 4]])[0], 0); // d/2 is a denormal
                                                                      // dp/mad/div results flush too.
    assert_eq!(op("dp4", 2, &[[tiny; 4], [small; 4]])[0], 0);
    assert_eq!(op("div", 2, &[[tiny; 4], [fb(2f32.powi(30)); 4]])[0], 0);
    // rcp of a denormal is rcp of zero.
    assert_eq!(op("rcp", 1, &[[DENORM, NDENORM, 0, NEG0]]), [INF, NINF, INF, NINF]);
    // ftoi/comparisons read flushed values: a denormal equals zero.
    assert_eq!(op("eq", 2, &[[DENORM, NDENORM, DENORM, fb(1.0)], [0, 0, NEG0, fb(1.0)]]), [T; 4]);
    assert_eq!(op("lt", 2, &[[0; 4], [DENORM; 4]])[0], 0);
}

#[test]
fn moves_do_not_flush() {
    let v = [DENORM, NDENORM, NAN | 0x1234, 0x7f80_0001];
    assert_eq!(op("mov", 1, &[v]), v);
    assert_eq!(op("movc", 3, &[[1, 0, 0x8000_0000, 0], v, [5, 6, 7, 8]]), [DENORM, 6, NAN | 0x1234, 8]);
    let o = run_vs(&vs("swapc o0.xyzw, o1.xyzw, v0.xyzw, v1.xyzw, v2.xyzw", 2), &[[1, 0, T, 0], v, [5, 6, 7, 8]]);
    assert_eq!(o[0], [5, NDENORM, 7, 0x7f80_0001]);
    assert_eq!(o[1], [DENORM, 6, NAN | 0x1234, 8]);
    // A negated mov flips the sign bit only.
    assert_eq!(eval("mov o0.xyzw, -v0.xyzw", &[v]), [0x8000_0001, DENORM, NAN | 0x1234 | NEG0, 0xff80_0001]);
    assert_eq!(eval("mov o0.xyzw, |v0.xyzw|", &[[NDENORM, NINF, NEG0, 3]]), [DENORM, INF, 0, 3]);
    // swapc with aliasing destinations and sources: sources are read first.
    let o = run_vs(&vs("mov r0.xyzw, v1.xyzw\nmov r1.xyzw, v2.xyzw\nswapc r0.xyzw, r1.xyzw, v0.xyzw, r0.xyzw, r1.xyzw\nmov o0.xyzw, r0.xyzw\nmov o1.xyzw, r1.xyzw", 2), &[[T, 0, T, 0], [1, 2, 3, 4], [5, 6, 7, 8]]);
    assert_eq!(o, vec![[5, 2, 7, 4], [1, 6, 3, 8]]);
}

#[test]
fn saturate() {
    let v = [NAN, NEG0, fb(2.0), fb(0.5)];
    assert_eq!(eval("mov_sat o0.xyzw, v0.xyzw", &[v]), [0, 0, fb(1.0), fb(0.5)]);
    assert_eq!(eval("add_sat o0.xyzw, v0.xyzw, l(0, 0, 0, 0)", &[[NINF, INF, DENORM, fb(-0.5)]]), [0, fb(1.0), 0, 0]);
    assert_eq!(eval("mul_sat o0.xyzw, v0.xyzw, v1.xyzw", &[[INF; 4], [0; 4]]), [0; 4]);
    // NaN → 0
}

#[test]
fn min_max_nan_and_signed_zero() {
    let a = [NAN, fb(1.0), NAN, NEG0];
    let b = [fb(1.0), NAN, NAN, 0];
    let mn = op("min", 2, &[a, b]);
    let mx = op("max", 2, &[a, b]);
    assert_eq!(mn[..2], [fb(1.0), fb(1.0)]);
    assert_eq!(mx[..2], [fb(1.0), fb(1.0)]);
    assert!(is_nan(mn[2]) && is_nan(mx[2]));
    assert_eq!((mn[3], mx[3]), (NEG0, 0));
    // Either order.
    assert_eq!(op("min", 2, &[[0; 4], [NEG0; 4]])[0], NEG0);
    assert_eq!(op("max", 2, &[[NEG0; 4], [0; 4]])[0], 0);
    // Infinities, and denormals compared (and returned) flushed.
    assert_eq!(
        op("min", 2, &[[NINF, INF, DENORM, NDENORM], [fb(-1e38), fb(1e38), fb(1.0), 0]]),
        [NINF, fb(1e38), 0, NEG0]
    );
    assert_eq!(op("max", 2, &[[NINF, INF, DENORM, NDENORM], [fb(-1e38), NAN, fb(-1.0), 0]]), [fb(-1e38), INF, 0, 0]);
}

#[test]
fn float_comparisons() {
    let a = [NAN, fb(1.0), NEG0, NINF];
    let b = [NAN, NAN, 0, fb(-1e38)];
    assert_eq!(op("eq", 2, &[a, b]), [0, 0, T, 0]);
    assert_eq!(op("ne", 2, &[a, b]), [T, T, 0, T]);
    assert_eq!(op("lt", 2, &[a, b]), [0, 0, 0, T]);
    assert_eq!(op("ge", 2, &[a, b]), [0, 0, T, 0]);
    assert_eq!(op("ge", 2, &[[INF, fb(2.0), fb(1.0), NINF], [INF, fb(1.0), fb(2.0), NINF]]), [T, T, 0, T]);
}

#[test]
fn unary_special_cases() {
    assert_eq!(op("rcp", 1, &[[fb(2.0), INF, NINF, fb(-4.0)]]), [fb(0.5), 0, NEG0, fb(-0.25)]);
    let r = op("rsq", 1, &[[fb(4.0), NEG0, 0, INF]]);
    assert_eq!(r, [fb(0.5), NINF, INF, 0]);
    assert!(is_nan(op("rsq", 1, &[[fb(-1.0); 4]])[0]));
    let s = op("sqrt", 1, &[[fb(16.0), NEG0, NDENORM, INF]]);
    assert_eq!(s, [fb(4.0), NEG0, NEG0, INF]);
    assert!(is_nan(op("sqrt", 1, &[[fb(-1.0); 4]])[0]) && is_nan(op("sqrt", 1, &[[NINF; 4]])[0]));
    let l = op("log", 1, &[[fb(8.0), 0, NEG0, DENORM]]);
    assert_eq!(l, [fb(3.0), NINF, NINF, NINF]);
    assert!(is_nan(op("log", 1, &[[fb(-1.0); 4]])[0]));
    assert_eq!(op("log", 1, &[[INF; 4]])[0], INF);
    assert_eq!(op("exp", 1, &[[fb(3.0), NINF, DENORM, NEG0]]), [fb(8.0), 0, fb(1.0), fb(1.0)]);
    assert_eq!(op("exp", 1, &[[INF; 4]])[0], INF);
    assert!(is_nan(op("exp", 1, &[[NAN; 4]])[0]));
    // frc: in [0, 1).
    let f = op("frc", 1, &[[fb(-0.25), fb(2.75), NEG0, fb(-1e-9)]]);
    assert_eq!(f, [fb(0.75), fb(0.75), 0, 0x3f7f_ffff]);
    assert!(is_nan(op("frc", 1, &[[INF; 4]])[0]) && is_nan(op("frc", 1, &[[NINF; 4]])[0]));
    // Rounding.
    let v = [[fb(2.5), fb(-2.5), fb(-0.3), fb(3.5)]];
    assert_eq!(op("round_ne", 1, &v), f4([2.0, -2.0, -0.0, 4.0]));
    assert_eq!(op("round_ni", 1, &v), f4([2.0, -3.0, -1.0, 3.0]));
    assert_eq!(op("round_pi", 1, &v), f4([3.0, -2.0, -0.0, 4.0]));
    assert_eq!(op("round_z", 1, &v), f4([2.0, -2.0, -0.0, 3.0]));
    assert_eq!(op("round_ne", 1, &[[NDENORM, INF, NINF, DENORM]]), [NEG0, INF, NINF, 0]);
}

#[test]
fn sincos_with_null_destinations() {
    let o = run_vs(&vs("sincos o0.xyzw, null, v0.xyzw\nsincos null, o1.xyzw, v0.xyzw", 2), &[[0, NEG0, DENORM, INF]]);
    assert_eq!(o[0][..3], [0, NEG0, 0]);
    assert!(is_nan(o[0][3]));
    assert_eq!(o[1][..3], [fb(1.0); 3]);
    assert!(is_nan(o[1][3]));
    let x = 0.5f32;
    let o = run_vs(&vs("sincos o0.xy, o1.xy, v0.xyxx", 2), &[[fb(x), fb(-x), 0, 0]]);
    assert_eq!(o[0], [fb(x.sin()), fb((-x).sin()), 0, 0]);
    assert_eq!(o[1], [fb(x.cos()), fb(x.cos()), 0, 0]);
}

#[test]
fn dot_products() {
    let a = f4([1.0, 2.0, 3.0, 4.0]);
    let b = f4([5.0, 6.0, 7.0, 8.0]);
    assert_eq!(eval("dp2 o0.xyzw, v0.xyzw, v1.xyzw", &[a, b]), [fb(17.0); 4]);
    assert_eq!(eval("dp3 o0.xz, v0.xyzw, v1.xyzw", &[a, b]), [fb(38.0), 0, fb(38.0), 0]);
    assert_eq!(eval("dp4 o0.y, v0.xyzw, -v1.wzyx", &[a, b]), [0, fb(-(8.0 + 14.0 + 18.0 + 20.0)), 0, 0]);
    // Left-to-right accumulation: (1e30 - 1e30) + 1 = 1.
    let o = eval("dp3 o0.x, v0.xyzw, v1.xyzw", &[f4([1e30, -1e30, 1.0, 0.0]), f4([1.0, 1.0, 1.0, 0.0])]);
    assert_eq!(o[0], fb(1.0));
}

#[test]
fn ftoi_ftou_saturate_and_nan() {
    let v = [fb(3.7), fb(-3.7), fb(1e10), fb(-1e10)];
    assert_eq!(op("ftoi", 1, &[v]), [3, (-3i32) as u32, 0x7fff_ffff, 0x8000_0000]);
    assert_eq!(op("ftoi", 1, &[[NAN, INF, NINF, fb(2147483520.0)]]), [0, 0x7fff_ffff, 0x8000_0000, 2147483520]);
    assert_eq!(op("ftou", 1, &[[fb(3.7), fb(-1.0), fb(4294967296.0), NAN]]), [3, 0, T, 0]);
    assert_eq!(op("ftou", 1, &[[INF, NINF, fb(4294967040.0), fb(0.999)]]), [T, 0, 4294967040, 0]);
    // Modifiers apply before the conversion.
    assert_eq!(eval("ftoi o0.xyzw, -|v0.xyzw|", &[[fb(2.5); 4]]), [(-2i32) as u32; 4]);
}

#[test]
fn itof_utof() {
    assert_eq!(
        op("itof", 1, &[[(-1i32) as u32, 16_777_217, 0x8000_0000, 7]]),
        f4([-1.0, 16_777_216.0, -2147483648.0, 7.0])
    );
    assert_eq!(op("utof", 1, &[[T, 16_777_219, 0x8000_0000, 0]]), f4([4294967296.0, 16_777_220.0, 2147483648.0, 0.0]));
    // Integer negate on an integer source.
    assert_eq!(eval("itof o0.xyzw, -v0.xyzw", &[[5, 0, 0x8000_0000, T]]), f4([-5.0, 0.0, -2147483648.0, 1.0]));
}

#[test]
fn f16_conversions() {
    let o = op("f32tof16", 1, &[[fb(1.0), fb(1.0 + 3.0 * 2f32.powi(-12)), fb(65519.0), fb(1e10)]]);
    assert_eq!(o, [0x3c00, 0x3c00, 0x7bff, 0x7bff]); // round toward zero; no overflow to inf
    let o = op("f32tof16", 1, &[[INF, NINF, fb(-2.0), fb(2f32.powi(-24) * 1.5)]]);
    assert_eq!(o, [0x7c00, 0xfc00, 0xc000, 0x0001]);
    let o = op("f32tof16", 1, &[[NAN, NDENORM, fb(2f32.powi(-25)), fb(-65504.0)]]);
    assert_eq!(o[0] & 0x7c00, 0x7c00);
    assert_ne!(o[0] & 0x3ff, 0);
    assert_eq!(o[1..], [0x8000, 0, 0xfbff]);
    // f16tof32: exact, upper 16 bits ignored, half denormals normalized.
    let o = op("f16tof32", 1, &[[0x3c00, 0xffff_3c00, 0x0001, 0x8400]]);
    assert_eq!(o, [fb(1.0), fb(1.0), fb(2f32.powi(-24)), fb(-(2f32.powi(-14)))]);
    let o = op("f16tof32", 1, &[[0x7c00, 0xfc00, 0x7e00, 0x7bff]]);
    assert_eq!([o[0], o[1], o[3]], [INF, NINF, fb(65504.0)]);
    assert!(is_nan(o[2]));
}

#[test]
fn integer_arithmetic() {
    assert_eq!(
        op("iadd", 2, &[[T, 0x7fff_ffff, 5, 0], [1, 1, (-7i32) as u32, 0]]),
        [0, 0x8000_0000, (-2i32) as u32, 0]
    );
    assert_eq!(
        eval("iadd o0.xyzw, v0.xyzw, -v1.xyzw", &[[10, 0, 3, 0], [3, 1, 0x8000_0000, 0]]),
        [7, T, 0x8000_0003, 0]
    );
    assert_eq!(op("imad", 3, &[[3, T, 0x10000, 0], [4, 5, 0x10000, 0], [1, 1, 7, 0]]), [13, (-4i32) as u32, 7, 0]);
    assert_eq!(op("umad", 3, &[[3, T, 0x10000, 0], [4, 2, 0x10000, 0], [1, 1, 7, 0]]), [13, T, 7, 0]);
    assert_eq!(op("imax", 2, &[[T, 5, 0x8000_0000, 0], [0, 3, 0x7fff_ffff, 0]]), [0, 5, 0x7fff_ffff, 0]);
    assert_eq!(op("imin", 2, &[[T, 5, 0x8000_0000, 0], [0, 3, 0x7fff_ffff, 0]]), [T, 3, 0x8000_0000, 0]);
    assert_eq!(op("umax", 2, &[[T, 5, 0x8000_0000, 0], [0, 3, 0x7fff_ffff, 0]]), [T, 5, 0x8000_0000, 0]);
    assert_eq!(op("umin", 2, &[[T, 5, 0x8000_0000, 0], [0, 3, 0x7fff_ffff, 0]]), [0, 3, 0x7fff_ffff, 0]);
    assert_eq!(op("ineg", 1, &[[1, 0, 0x8000_0000, T]]), [T, 0, 0x8000_0000, 1]);
    let a = [T, 3, 0x8000_0000, 7];
    let b = [0, 3, 0x7fff_ffff, 8];
    assert_eq!(op("ieq", 2, &[a, b]), [0, T, 0, 0]);
    assert_eq!(op("ine", 2, &[a, b]), [T, 0, T, T]);
    assert_eq!(op("ilt", 2, &[a, b]), [T, 0, T, T]);
    assert_eq!(op("ige", 2, &[a, b]), [0, T, 0, 0]);
    assert_eq!(op("ult", 2, &[a, b]), [0, 0, 0, T]);
    assert_eq!(op("uge", 2, &[a, b]), [T, T, T, 0]);
}

#[test]
fn imul_umul_hi_lo() {
    let o = run_vs(
        &vs("imul o0.xyzw, o1.xyzw, v0.xyzw, v1.xyzw", 2),
        &[[(-2i32) as u32, 0x8000_0000, 0x10000, 7], [3, 0x8000_0000, 0x10000, T]],
    );
    assert_eq!(o[0], [T, 0x4000_0000, 1, T]);
    assert_eq!(o[1], [(-6i32) as u32, 0, 0, (-7i32) as u32]);
    let o = run_vs(
        &vs("umul o0.xyzw, o1.xyzw, v0.xyzw, v1.xyzw", 2),
        &[[T, 0x8000_0000, 0x10000, 7], [2, 0x8000_0000, 0x10000, T]],
    );
    assert_eq!(o[0], [1, 0x4000_0000, 1, 6]);
    assert_eq!(o[1], [0xffff_fffe, 0, 0, (-7i32) as u32]);
    // Null destinations.
    let o =
        run_vs(&vs("imul null, o0.xyzw, v0.xyzw, v1.xyzw\numul o1.xyzw, null, v0.xyzw, v1.xyzw", 2), &[[T; 4], [T; 4]]);
    assert_eq!(o, vec![[1; 4], [0xffff_fffe; 4]]);
}

#[test]
fn udiv_by_zero() {
    let o = run_vs(&vs("udiv o0.xyzw, o1.xyzw, v0.xyzw, v1.xyzw", 2), &[[7, 0, T, 5], [2, 0, 0, 7]]);
    assert_eq!(o[0], [3, T, T, 0]);
    assert_eq!(o[1], [1, T, T, 5]);
    // Quotient and remainder into the registers the sources come from.
    let o = run_vs(&vs("mov r0.xy, v0.xyxx\nudiv r0.x, r0.y, r0.x, r0.y\nmov o0.xyzw, r0.xyxx", 1), &[[17, 5, 0, 0]]);
    assert_eq!(o[0], [3, 2, 3, 3]);
}

#[test]
fn uaddc_usubb_carries() {
    let o =
        run_vs(&vs("uaddc o0.xyzw, o1.xyzw, v0.xyzw, v1.xyzw", 2), &[[T, 1, 0x8000_0000, T], [1, 2, 0x8000_0000, T]]);
    assert_eq!(o[0], [0, 3, 0, 0xffff_fffe]);
    assert_eq!(o[1], [1, 0, 1, 1]);
    let o = run_vs(&vs("usubb o0.xyzw, o1.xyzw, v0.xyzw, v1.xyzw", 2), &[[0, 3, 5, 0], [1, 2, 5, T]]);
    assert_eq!(o[0], [T, 1, 0, 1]);
    assert_eq!(o[1], [1, 0, 0, 1]);
    let o = run_vs(&vs("uaddc o0.xyzw, null, v0.xyzw, v1.xyzw", 1), &[[T; 4], [2; 4]]);
    assert_eq!(o[0], [1; 4]);
}

#[test]
fn shifts_mask_the_count() {
    assert_eq!(op("ishl", 2, &[[1, 1, 1, 3], [1, 33, 32, 31]]), [2, 2, 1, 0x8000_0000]);
    assert_eq!(op("ushr", 2, &[[0x8000_0000; 4], [31, 63, 32, 4]]), [1, 1, 0x8000_0000, 0x0800_0000]);
    assert_eq!(op("ishr", 2, &[[0x8000_0000; 4], [31, 63, 32, 4]]), [T, T, 0x8000_0000, 0xf800_0000]);
}

#[test]
fn bitwise() {
    assert_eq!(op("and", 2, &[[0xff00_ff00; 4], [0x0ff0_0ff0; 4]])[0], 0x0f00_0f00);
    assert_eq!(op("or", 2, &[[0xff00_ff00; 4], [0x0ff0_0ff0; 4]])[0], 0xfff0_fff0);
    assert_eq!(op("xor", 2, &[[0xff00_ff00; 4], [0x0ff0_0ff0; 4]])[0], 0xf0f0_f0f0);
    assert_eq!(op("not", 1, &[[0xff00_ff00, 0, T, 1]]), [0x00ff_00ff, T, 0, 0xffff_fffe]);
    assert_eq!(op("countbits", 1, &[[0, T, 0x8000_0001, 0x1234_5678]]), [0, 32, 2, 13]);
    assert_eq!(op("bfrev", 1, &[[0x1234_5678, 1, 0, T]]), [0x1e6a_2c48, 0x8000_0000, 0, T]);
}

#[test]
fn firstbit_with_no_bit_set() {
    assert_eq!(op("firstbit_hi", 1, &[[0, 1, 0x1000_0000, T]]), [T, 31, 3, 0]);
    assert_eq!(op("firstbit_lo", 1, &[[0, 1, 0x1000_0000, 0x8000_0000]]), [T, 0, 28, 31]);
    // Signed: the first bit differing from the sign, from the MSB.
    assert_eq!(op("firstbit_shi", 1, &[[0, T, 0x7fff_ffff, 0xf000_0000]]), [T, T, 1, 4]);
}

#[test]
fn bitfield_extract_and_insert_edges() {
    // ubfe width, offset, value.
    let w = [8, 0, 32, 31];
    let o = [16, 3, 0, 4];
    let v = [0x1234_5678, T, 0xdead_beef, 0xdead_beef];
    assert_eq!(op("ubfe", 3, &[w, o, v]), [0x34, 0, 0, 0x0dea_dbee]);
    assert_eq!(op("ibfe", 3, &[w, o, [0x12f4_5678, T, 0xdead_beef, 0xdead_beef]]), [0xffff_fff4, 0, 0, 0xfdea_dbee]);
    // width + offset >= 32: a plain shift of the value.
    assert_eq!(op("ubfe", 3, &[[20; 4], [16, 44, 8, 0], [0x8000_0000; 4]]), [0x8000, 0x8_0000, 0, 0]);
    assert_eq!(op("ibfe", 3, &[[20; 4], [16, 44, 8, 0], [0x8000_0000; 4]]), [0xffff_8000, 0xfff8_0000, 0, 0]);
    // bfi width, offset, insert, base.
    let o = op("bfi", 4, &[[8, 0, 31, 4], [8, 8, 1, 30], [0xab, 0xab, T, 0xf], [0x1234_5678, 0x1234_5678, 0, 0]]);
    assert_eq!(o, [0x1234_ab78, 0x1234_5678, 0xffff_fffe, 0xc000_0000]);
    // Widths and offsets are masked to 5 bits.
    assert_eq!(op("bfi", 4, &[[40; 4], [33; 4], [T; 4], [0; 4]])[0], 0x0000_01fe);
}

#[test]
fn msad() {
    // Reference bytes of 0 are skipped.
    assert_eq!(
        op("msad", 3, &[[0x0102_0300, 0x1010_1010, 0, T], [0x0503_0000, 0x0020_2010, 5, 0], [10, 0, 7, T]]),
        [10 + 3 + 1 + 4, 0x10 + 0x10 + 0x10, 7, T]
    );
}

#[test]
fn integer_modifiers_are_twos_complement() {
    assert_eq!(
        eval("imax o0.xyzw, -v0.xyzw, v1.xyzw", &[[5, 0x8000_0000, 0, 1], [(-6i32) as u32, 0, 0, 0]]),
        [(-5i32) as u32, 0, 0, 0]
    );
    assert_eq!(eval("ushr o0.xyzw, -v0.xyzw, l(0, 0, 0, 0)", &[[1, 0, 0, 0]]), [T, 0, 0, 0]);
}

#[test]
fn doubles_arithmetic() {
    let a = dv(1.5, 1.0);
    let b = dv(2.25, 3.0);
    assert_eq!(dget(op("dadd", 2, &[a, b])), [3.75, 4.0]);
    assert_eq!(dget(op("dmul", 2, &[a, b])), [3.375, 3.0]);
    assert_eq!(dget(op("ddiv", 2, &[a, b])), [1.5 / 2.25, 1.0 / 3.0]);
    assert_eq!(dget(op("drcp", 1, &[dv(4.0, -0.0)])), [0.25, f64::NEG_INFINITY]);
    // dfma is fused.
    let x = 1.0 + 2f64.powi(-27);
    let f = dget(op("dfma", 3, &[dv(x, 2.0), dv(x, 3.0), dv(-1.0, 1.0)]));
    assert_eq!(f, [x.mul_add(x, -1.0), 7.0]);
    assert_ne!(f[0], x * x - 1.0);
    // Denormals are kept (no flushing for doubles).
    let tiny = f64::from_bits(1);
    assert_eq!(dget(op("dadd", 2, &[dv(tiny, 0.0), dv(tiny, 0.0)])), [2.0 * tiny, 0.0]);
    // Swizzles pick the doubles: .zwxy swaps them.
    assert_eq!(dget(eval("dadd o0.xyzw, v0.zwxy, v1.xyzw", &[a, b])), [1.0 + 2.25, 1.5 + 3.0]);
    // Modifiers act on the double's sign (the high word).
    assert_eq!(dget(eval("dadd o0.xyzw, -v0.xyzw, |v1.xyzw|", &[a, dv(-2.0, -3.0)])), [0.5, 2.0]);
    // Only the written double changes.
    assert_eq!(dget(eval("dadd o0.zw, v0.xyzw, v1.xyzw", &[a, b])), [0.0, 4.0]);
    // _sat.
    assert_eq!(dget(eval("dadd_sat o0.xyzw, v0.xyzw, v1.xyzw", &[dv(0.25, f64::NAN), dv(0.5, 0.0)])), [0.75, 0.0]);
}

#[test]
fn doubles_min_max_compare() {
    let n = f64::NAN;
    assert_eq!(dget(op("dmin", 2, &[dv(n, -0.0), dv(1.0, 0.0)])), [1.0, -0.0]);
    assert_eq!(dget(op("dmax", 2, &[dv(2.0, -0.0), dv(n, 0.0)])), [2.0, 0.0]);
    assert!(dget(op("dmax", 2, &[dv(n, n), dv(n, n)]))[0].is_nan());
    // Comparisons: the first double's result goes to the first masked component.
    let a = dv(1.0, n);
    let b = dv(1.0, 2.0);
    assert_eq!(eval("deq o0.xy, v0.xyzw, v1.xyzw", &[a, b]), [T, 0, 0, 0]);
    assert_eq!(eval("dne o0.yw, v0.xyzw, v1.xyzw", &[a, b]), [0, 0, 0, T]);
    assert_eq!(eval("dlt o0.z, v0.zwzw, v1.xyzw", &[dv(0.0, 0.5), b]), [0, 0, T, 0]);
    assert_eq!(eval("dge o0.xw, v0.xyzw, v1.xyzw", &[dv(-0.0, 3.0), dv(0.0, 2.0)]), [T, 0, 0, T]);
}

#[test]
fn doubles_moves_and_conversions() {
    let a = dv(1.5, -2.0);
    assert_eq!(op("dmov", 1, &[a]), a);
    assert_eq!(dget(eval("dmov o0.xyzw, -v0.xyzw", &[a])), [-1.5, 2.0]);
    assert_eq!(dget(eval("dmov o0.xyzw, v0.zwxy", &[a])), [-2.0, 1.5]);
    let o = eval("dmovc o0.xyzw, v0.xyzw, v1.xyzw, v2.xyzw", &[[0, 1, 0, 0], a, dv(7.0, 8.0)]);
    assert_eq!(dget(o), [7.0, -2.0]);
    // dtof: round to nearest even, first double to the first masked component.
    let o = eval("dtof o0.yz, v0.xyzw", &[dv(1.0 + 2f64.powi(-24), 1e300)]);
    assert_eq!(o, [0, fb(1.0), INF, 0]);
    assert_eq!(eval("dtof o0.x, v0.xyzw", &[dv(1.0 + 3.0 * 2f64.powi(-25), 0.0)])[0], fb(1.0 + 2f32.powi(-23)));
    // ftod / itod / utod: .xy gets the first source component, .zw the second.
    assert_eq!(dget(eval("ftod o0.xyzw, v0.xyxx", &[[fb(0.1), fb(-3.0), 0, 0]])), [0.1f32 as f64, -3.0]);
    assert_eq!(dget(eval("itod o0.xyzw, v0.xyxx", &[[T, 0x8000_0000, 0, 0]])), [-1.0, -2147483648.0]);
    assert_eq!(dget(eval("utod o0.xyzw, v0.xyxx", &[[T, 7, 0, 0]])), [4294967295.0, 7.0]);
    // dtoi / dtou: truncate, saturate, NaN → 0.
    assert_eq!(eval("dtoi o0.xy, v0.xyzw", &[dv(-3.9, 1e20)]), [(-3i32) as u32, 0x7fff_ffff, 0, 0]);
    assert_eq!(eval("dtoi o0.xy, v0.xyzw", &[dv(f64::NAN, -1e20)]), [0, 0x8000_0000, 0, 0]);
    assert_eq!(eval("dtou o0.xy, v0.xyzw", &[dv(-1.0, 4294967295.9)]), [0, T, 0, 0]);
    assert_eq!(eval("dtou o0.zw, v0.xyzw", &[dv(f64::NAN, 12.5)]), [0, 0, 0, 12]);
}

#[test]
fn swizzles_masks_and_immediates() {
    let o = eval("mov o0.yw, v0.wzyx", &[[1, 2, 3, 4]]);
    assert_eq!(o, [0, 3, 0, 1]);
    let o = eval("mov o0.xyzw, l(1, 2, 3, 4)", &[]);
    assert_eq!(o, [1, 2, 3, 4]);
    let o = eval("mov o0.xyzw, v0.z", &[[1, 2, 3, 4]]);
    assert_eq!(o, [3; 4]);
    // An output written in pieces keeps what it had.
    let o = eval("mov o0.x, l(9)\nmov o0.z, v0.w", &[[1, 2, 3, 4]]);
    assert_eq!(o, [9, 0, 4, 0]);
}
