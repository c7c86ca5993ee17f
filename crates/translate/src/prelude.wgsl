// The arithmetic rules of the Direct3D 11.3 functional spec ("32-bit Floating Point
// Rules", "Integer Arithmetic", the instruction pages), written once on register bits.
// Unused helpers are removed from the module after parsing.

// A float32 denormal flushed to a zero of the same sign.
fn dx_ftz(x: u32) -> u32 {
    return select(x, x & 0x80000000u, (x & 0x7f800000u) == 0u);
}
// A float32 operand: its bits, denormals flushed.
fn dx_f(x: u32) -> f32 {
    return bitcast<f32>(dx_ftz(x));
}
// A float32 result's bits, denormals flushed.
fn dx_r(x: f32) -> u32 {
    return dx_ftz(bitcast<u32>(x));
}
fn dx_isnan(x: u32) -> bool {
    return (x & 0x7fffffffu) > 0x7f800000u;
}
// `_sat`: NaN gives 0, -0 and denormals +0.
fn dx_sat(x: f32) -> u32 {
    let b = dx_ftz(bitcast<u32>(x));
    if (dx_isnan(b) || (b & 0x80000000u) != 0u || b == 0u) {
        return 0u;
    }
    if (b >= 0x3f800000u) {
        return 0x3f800000u;
    }
    return b;
}
// `min`: NaN loses to a number; min(-0, +0) = -0.
fn dx_min(a0: u32, b0: u32) -> u32 {
    let a = dx_ftz(a0);
    let b = dx_ftz(b0);
    if (dx_isnan(a)) { return b; }
    if (dx_isnan(b)) { return a; }
    let x = bitcast<f32>(a);
    let y = bitcast<f32>(b);
    if (x < y) { return a; }
    if (y < x) { return b; }
    return a | b;
}
// `max`: NaN loses to a number; max(-0, +0) = +0.
fn dx_max(a0: u32, b0: u32) -> u32 {
    let a = dx_ftz(a0);
    let b = dx_ftz(b0);
    if (dx_isnan(a)) { return b; }
    if (dx_isnan(b)) { return a; }
    let x = bitcast<f32>(a);
    let y = bitcast<f32>(b);
    if (x > y) { return a; }
    if (y > x) { return b; }
    return a & b;
}
// `frc`: x - floor(x), kept below 1.0.
fn dx_frc(x: f32) -> f32 {
    let r = x - floor(x);
    return select(r, bitcast<f32>(0x3f7fffffu), r >= 1.0);
}
// `ftoi`: toward zero, saturated to the i32 range, NaN gives 0.
fn dx_ftoi(b: u32) -> u32 {
    let x = bitcast<f32>(dx_ftz(b));
    if (dx_isnan(b)) { return 0u; }
    if (x >= 2147483648.0) { return 0x7fffffffu; }
    if (x <= -2147483648.0) { return 0x80000000u; }
    return bitcast<u32>(i32(x));
}
// `ftou`: toward zero, saturated to the u32 range, NaN gives 0.
fn dx_ftou(b: u32) -> u32 {
    let x = bitcast<f32>(dx_ftz(b));
    if (dx_isnan(b) || x <= 0.0) { return 0u; }
    if (x >= 4294967296.0) { return 0xffffffffu; }
    return u32(x);
}
// `udiv`: division by zero gives 0xffffffff for quotient and remainder.
fn dx_udiv(a: u32, b: u32) -> u32 {
    return select(a / max(b, 1u), 0xffffffffu, b == 0u);
}
fn dx_urem(a: u32, b: u32) -> u32 {
    return select(a % max(b, 1u), 0xffffffffu, b == 0u);
}
// High 32 bits of the 64-bit products.
fn dx_umulhi(a: u32, b: u32) -> u32 {
    let al = a & 0xffffu;
    let ah = a >> 16u;
    let bl = b & 0xffffu;
    let bh = b >> 16u;
    let ll = al * bl;
    let lh = al * bh;
    let hl = ah * bl;
    let hh = ah * bh;
    let mid = (ll >> 16u) + (lh & 0xffffu) + (hl & 0xffffu);
    return hh + (lh >> 16u) + (hl >> 16u) + (mid >> 16u);
}
fn dx_imulhi(a: u32, b: u32) -> u32 {
    var hi = dx_umulhi(a, b);
    if (i32(a) < 0) { hi = hi - b; }
    if (i32(b) < 0) { hi = hi - a; }
    return hi;
}
// Bit fields: width and offset masked to 5 bits.
fn dx_ubfe(width: u32, offset: u32, v: u32) -> u32 {
    let w = width & 31u;
    let o = offset & 31u;
    if (w == 0u) { return 0u; }
    if (w + o < 32u) { return (v << (32u - (w + o))) >> (32u - w); }
    return v >> o;
}
fn dx_ibfe(width: u32, offset: u32, v: u32) -> u32 {
    let w = width & 31u;
    let o = offset & 31u;
    if (w == 0u) { return 0u; }
    if (w + o < 32u) { return bitcast<u32>(bitcast<i32>(v << (32u - (w + o))) >> (32u - w)); }
    return bitcast<u32>(bitcast<i32>(v) >> o);
}
fn dx_bfi(width: u32, offset: u32, insert: u32, base: u32) -> u32 {
    let w = width & 31u;
    let o = offset & 31u;
    let bitmask = select(((1u << w) - 1u) << o, 0u, w == 0u);
    return ((insert << o) & bitmask) | (base & ~bitmask);
}
// `firstbit_hi` counts from the most significant bit.
fn dx_firstbit_hi(v: u32) -> u32 {
    return select(31u - firstLeadingBit(v), 0xffffffffu, v == 0u);
}
fn dx_firstbit_lo(v: u32) -> u32 {
    return select(firstTrailingBit(v), 0xffffffffu, v == 0u);
}
fn dx_firstbit_shi(v: u32) -> u32 {
    return dx_firstbit_hi(select(v, ~v, i32(v) < 0));
}
// `msad`: for each byte of the reference that is not 0, the absolute difference with
// the source's byte is added to the accumulator, saturating at 0xffffffff (as the
// reference interpreter's `exec::alu::msad`).
fn dx_msad(r: u32, s: u32, accum: u32) -> u32 {
    var acc = accum;
    for (var i = 0u; i < 32u; i += 8u) {
        let rb = extractBits(r, i, 8u);
        let sb = extractBits(s, i, 8u);
        let d = select(sb - rb, rb - sb, rb > sb);
        if (rb != 0u) {
            acc = select(acc + d, 0xffffffffu, 0xffffffffu - acc < d);
        }
    }
    return acc;
}
// A texture array index: round to nearest even, then clamped by the sampler hardware.
fn dx_layer(x: f32) -> i32 {
    return i32(max(round(x), 0.0));
}
// `f32tof16`: the half in the low 16 bits, rounded toward zero; too large values give
// the largest half, infinities stay infinities, NaN stays NaN (quiet), results in the
// half denormal range are half denormals.
fn dx_f32tof16(x0: u32) -> u32 {
    let x = dx_ftz(x0);
    let sign = (x >> 16u) & 0x8000u;
    let e = i32((x >> 23u) & 0xffu);
    let man = x & 0x7fffffu;
    if (e == 255) {
        return sign | 0x7c00u | select(0u, 0x200u | (man >> 13u), man != 0u);
    }
    if (e == 0) { return sign; }
    let h = e - 112;
    if (h >= 31) { return sign | 0x7bffu; }
    if (h <= 0) {
        if (h < -10) { return sign; }
        return sign | ((man | 0x800000u) >> u32(14 - h));
    }
    return sign | (u32(h) << 10u) | (man >> 13u);
}
// Doubles (the functional spec's 64-bit rules): a register's two words, low first.
fn dx_d(lo: u32, hi: u32) -> f64 {
    return bitcast<f64>((u64(hi) << 32u) | u64(lo));
}
fn dx_dlo(x: f64) -> u32 {
    return u32(bitcast<u64>(x) & 0xfffffffflu);
}
fn dx_dhi(x: f64) -> u32 {
    return u32(bitcast<u64>(x) >> 32u);
}
fn dx_disnan(x: f64) -> bool {
    return (bitcast<u64>(x) & 0x7ffffffffffffffflu) > 0x7ff0000000000000lu;
}
// `dmin`/`dmax`: NaN loses to a number; dmin(-0, +0) = -0, dmax(-0, +0) = +0.
fn dx_dmin(a: f64, b: f64) -> f64 {
    if (dx_disnan(a)) { return b; }
    if (dx_disnan(b) || a < b) { return a; }
    if (b < a) { return b; }
    return bitcast<f64>(bitcast<u64>(a) | bitcast<u64>(b));
}
fn dx_dmax(a: f64, b: f64) -> f64 {
    if (dx_disnan(a)) { return b; }
    if (dx_disnan(b) || a > b) { return a; }
    if (b > a) { return b; }
    return bitcast<f64>(bitcast<u64>(a) & bitcast<u64>(b));
}
// `_sat` of a double: NaN and -0 give +0.
fn dx_dsat(x: f64) -> f64 {
    if (x > 0.0lf) { return min(x, 1.0lf); }
    return 0.0lf;
}
// `dtoi`/`dtou`: toward zero, saturated, NaN gives 0.
fn dx_dtoi(x: f64) -> u32 {
    if (dx_disnan(x)) { return 0u; }
    if (x >= 2147483647.0lf) { return 0x7fffffffu; }
    if (x <= -2147483648.0lf) { return 0x80000000u; }
    return bitcast<u32>(i32(x));
}
fn dx_dtou(x: f64) -> u32 {
    if (dx_disnan(x) || x <= 0.0lf) { return 0u; }
    if (x >= 4294967295.0lf) { return 0xffffffffu; }
    return u32(x);
}
// `samplepos`: sample `i` of the standard pattern of `count` samples
// (D3D11_STANDARD_MULTISAMPLE_PATTERN, 1/16 pixel from the centre; the patterns of 1, 2,
// 4, 8 and 16 samples start at entry count - 1); 0 for another count or i >= count.
fn dx_samplepos(count: u32, i: u32) -> vec2<f32> {
    var p = array<vec2<i32>, 31>(
        vec2(0, 0),
        vec2(4, 4), vec2(-4, -4),
        vec2(-2, -6), vec2(6, -2), vec2(-6, 2), vec2(2, 6),
        vec2(1, -3), vec2(-1, 3), vec2(5, 1), vec2(-3, -5), vec2(-5, 5), vec2(-7, -1), vec2(3, 7), vec2(7, -7),
        vec2(1, 1), vec2(-1, -3), vec2(-3, 2), vec2(4, -1), vec2(-5, -2), vec2(2, 5), vec2(5, 3), vec2(3, -5),
        vec2(-2, 6), vec2(0, -7), vec2(-4, -6), vec2(-6, 4), vec2(-8, 0), vec2(7, -4), vec2(6, 7), vec2(-7, -8),
    );
    let standard = count == 1u || count == 2u || count == 4u || count == 8u || count == 16u;
    if (!standard || i >= count) { return vec2<f32>(0.0); }
    return vec2<f32>(p[count - 1u + i]) / 16.0;
}
// `lod` (Microsoft's "lod (sm4.1 - asm)" page; D3D11.3 functional spec 7.18.11, the
// isotropic LOD), computed as the reference does: `gx`, `gy` are the address's x and y
// derivatives in texels of mip 0; for a 2D footprint (`two`, no z derivative) they are
// first made orthogonal (Heckbert's ellipse; skipped when degenerate or not finite, as
// the spec allows); the LOD is log2 of the longer one (a NaN length loses to the
// other). The orthogonal axes' longer one is sqrt((q + t) / 2) (the ellipse's
// semi-major axis: the reference's formula for its components, with q - t =
// 4 f / (q + t), sums to that), taken here without the reference's double precision
// and without the cancellation in q - t that float32 would suffer.
fn dx_finite(x: f32) -> bool {
    return (bitcast<u32>(x) & 0x7f800000u) != 0x7f800000u;
}
fn dx_lod_of(gx: vec3<f32>, gy: vec3<f32>, two: bool) -> f32 {
    if (two && gx.z == 0.0 && gy.z == 0.0) {
        let xu = gx.x;
        let xv = gx.y;
        let yu = gy.x;
        let yv = gy.y;
        let a = xv * xv + yv * yv;
        let b = -2.0 * (xu * xv + yu * yv);
        let c = xu * xu + yu * yu;
        let e = xu * yv - yu * xv;
        let p = a - c;
        let q = a + c;
        let t = sqrt(p * p + b * b);
        let finite = dx_finite(xu) && dx_finite(xv) && dx_finite(yu) && dx_finite(yv);
        let major = sqrt((q + t) * 0.5);
        if (finite && e != 0.0 && b != 0.0 && q != t && dx_finite(major)) {
            return log2(major);
        }
    }
    let lx = sqrt(gx.x * gx.x + gx.y * gx.y + gx.z * gx.z);
    let ly = sqrt(gy.x * gy.x + gy.y * gy.y + gy.z * gy.z);
    var l = select(ly, lx, lx > ly);
    if (dx_isnan(bitcast<u32>(lx))) { l = ly; }
    if (dx_isnan(bitcast<u32>(ly))) { l = lx; }
    return log2(l);
}
// The face of a cube a direction points into (+X, -X, +Y, -Y, +Z, -Z = 0..5; ties prefer
// Z, then Y; a NaN direction gives -X, as the reference's comparisons do).
fn dx_cube_face(c: vec3<f32>) -> u32 {
    let m = abs(c);
    if (m.z >= m.x && m.z >= m.y) { return select(5u, 4u, c.z >= 0.0); }
    if (m.y >= m.x) { return select(3u, 2u, c.y >= 0.0); }
    return select(1u, 0u, c.x >= 0.0);
}
// A vector's components along face `face`'s axes: (s, t, major), the major one positive
// for a direction into the face (Microsoft's TextureCube face orientation).
fn dx_face_axes(face: u32, v: vec3<f32>) -> vec3<f32> {
    switch face {
        case 0u: { return vec3<f32>(-v.z, -v.y, v.x); }
        case 1u: { return vec3<f32>(v.z, -v.y, -v.x); }
        case 2u: { return vec3<f32>(v.x, v.z, v.y); }
        case 3u: { return vec3<f32>(v.x, -v.z, -v.y); }
        case 4u: { return vec3<f32>(v.x, -v.y, v.z); }
        default: { return vec3<f32>(-v.x, -v.y, -v.z); }
    }
}
// `lod` of a cube of faces `n` texels wide: the derivatives of the face coordinates
// (the quotient rule on s / major, t / major, times n / 2), then `dx_lod_of`.
fn dx_lod_cube(n: f32, c: vec3<f32>, dx: vec3<f32>, dy: vec3<f32>) -> f32 {
    let face = dx_cube_face(c);
    let tc = dx_face_axes(face, c);
    let ax = dx_face_axes(face, dx);
    let ay = dx_face_axes(face, dy);
    let major = tc.z;
    let h = 0.5 * n;
    let mm = major * major;
    let gx = vec3<f32>(h * (major * ax.x - tc.x * ax.z) / mm, h * (major * ax.y - tc.y * ax.z) / mm, 0.0);
    let gy = vec3<f32>(h * (major * ay.x - tc.x * ay.z) / mm, h * (major * ay.y - tc.y * ay.z) / mm, 0.0);
    return dx_lod_of(gx, gy, true);
}
// A float vector with denormals flushed to zeros of the same sign.
fn dx_ftz4(v: vec4<f32>) -> vec4<f32> {
    return vec4<f32>(dx_f(bitcast<u32>(v.x)), dx_f(bitcast<u32>(v.y)), dx_f(bitcast<u32>(v.z)), dx_f(bitcast<u32>(v.w)));
}
// Typed buffer views (functional spec 3.2, "Data Conversion"; `buffer_format`), on
// integer bits so that no device rounding enters.
// `v / d` correctly rounded to float32 bits, for 0 <= v and 0 < d < 2^16 (`v >= d`
// gives 1.0): a long division of the 24 significant bits and the remainder's rounding
// to nearest even.
fn dx_udivf(v: u32, d: u32) -> u32 {
    if (v == 0u) { return 0u; }
    if (v >= d) { return 0x3f800000u; }
    var s = firstLeadingBit(d) - firstLeadingBit(v);
    var x = v << s;
    if (x < d) {
        s = s + 1u;
        x = x << 1u;
    }
    let r = x - d;
    let a = r << 12u;
    let q1 = a / d;
    let r1 = a - q1 * d;
    let b = r1 << 11u;
    let q2 = b / d;
    let r2 = b - q2 * d;
    let frac = (q1 << 11u) | q2;
    let up = 2u * r2 > d || (2u * r2 == d && (frac & 1u) == 1u);
    return ((127u - s) << 23u) + frac + select(0u, 1u, up);
}
// SNORM `max(c / d, -1)` (d = 2^(n-1) - 1) as float32 bits.
fn dx_snorm_bits(c: i32, d: u32) -> u32 {
    let m = dx_udivf(min(u32(abs(c)), d), d);
    return select(m, m | 0x80000000u, c < 0);
}
// A 16-bit float widened exactly: denormals normalised, NaN quiet with its payload.
fn dx_half_bits(h: u32) -> u32 {
    let sign = (h & 0x8000u) << 16u;
    let e = (h >> 10u) & 0x1fu;
    let m = h & 0x3ffu;
    if (e == 0u) {
        if (m == 0u) { return sign; }
        let l = firstLeadingBit(m);
        return sign | ((103u + l) << 23u) | ((m << (23u - l)) & 0x7fffffu);
    }
    if (e == 31u) {
        return sign | select(0x7fc00000u | (m << 13u), 0x7f800000u, m == 0u);
    }
    return sign | ((e + 112u) << 23u) | (m << 13u);
}
// An unsigned 11- or 10-bit float (5-bit exponent, `mb` mantissa bits) widened
// exactly; NaN gives 0x7fc00000.
fn dx_ufloat_bits(v: u32, mb: u32) -> u32 {
    let e = v >> mb;
    let m = v & ((1u << mb) - 1u);
    if (e == 0u) {
        if (m == 0u) { return 0u; }
        let l = firstLeadingBit(m);
        return ((113u + l - mb) << 23u) | ((m << (23u - l)) & 0x7fffffu);
    }
    if (e == 31u) { return select(0x7fc00000u, 0x7f800000u, m == 0u); }
    return ((e + 112u) << 23u) | (m << (23u - mb));
}
// Float to UNORM of maximum `m`: NaN gives 0, clamped to [0, 1], rounded to even.
fn dx_f_to_unorm(x: u32, m: u32) -> u32 {
    let f = select(bitcast<f32>(x), 0.0, dx_isnan(x));
    return u32(round(clamp(f, 0.0, 1.0) * f32(m)));
}
// Float to SNORM of maximum `m` (two's complement bits): NaN gives 0, clamped to
// [-1, 1], rounded to even.
fn dx_f_to_snorm(x: u32, m: u32) -> u32 {
    let f = select(bitcast<f32>(x), 0.0, dx_isnan(x));
    return bitcast<u32>(i32(round(clamp(f, -1.0, 1.0) * f32(m))));
}
// Float to an unsigned 11- or 10-bit float: NaN stays NaN, negative values and -0
// give 0, infinity stays, finite values round toward zero (the half's truncation,
// its mantissa truncated again), too large ones give the largest finite value.
fn dx_f_to_ufloat(x: u32, mb: u32) -> u32 {
    if (dx_isnan(x)) { return (0x1fu << mb) | 1u; }
    if ((x & 0x80000000u) != 0u || x == 0u) { return 0u; }
    if (x == 0x7f800000u) { return 0x1fu << mb; }
    return (dx_f32tof16(x) & 0x7fffu) >> (10u - mb);
}
