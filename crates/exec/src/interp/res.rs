//! Resource instructions: loads, samples, size queries, UAV stores and atomics.
//!
//! Every access is bounds-checked: out-of-range loads return the specified
//! out-of-bounds value (0 in the format's components, the defaults for missing ones;
//! 0 for raw and structured buffers), out-of-range stores and atomics do nothing, and
//! unbound or mismatched views read 0.

use super::{AtomicOp, ResKind, ResOp};
use crate::alu;
use crate::format::{Convert, Format, Numeric};
use crate::resources::{AddressMode, ComparisonFunc, Dimension, Filter, Resources, Sampler, Srv, TextureView, Uav};

/// A bound view, read-only.
enum View<'r> {
    Buffer(&'r [u8], Format),
    Raw(&'r [u8]),
    Structured(&'r [u8], u32),
    /// The geometry and the memory (for UAVs, the writable memory).
    Texture(TextureView<'r>, &'r [u8]),
}

fn view<'r>(res: &'r Resources<'_>, x: &ResOp) -> Option<View<'r>> {
    if x.uav {
        Some(match res.uavs.get(x.slot as usize)?.as_ref()? {
            Uav::Buffer { data, format } => View::Buffer(data, *format),
            Uav::Raw { data } => View::Raw(data),
            Uav::Structured { data, stride, .. } => View::Structured(data, *stride),
            Uav::Texture { view, data } => View::Texture(*view, data),
        })
    } else {
        Some(match res.srvs.get(x.slot as usize)?.as_ref()? {
            Srv::Buffer { data, format } => View::Buffer(data, *format),
            Srv::Raw { data } => View::Raw(data),
            Srv::Structured { data, stride } => View::Structured(data, *stride),
            Srv::Texture(v) => View::Texture(*v, v.data),
        })
    }
}

/// The declared kind matches the bound texture's dimension.
fn compatible(kind: ResKind, dim: Dimension) -> bool {
    matches!(
        (kind, dim),
        (ResKind::Texture1D, Dimension::Texture1D)
            | (ResKind::Texture1DArray, Dimension::Texture1DArray)
            | (ResKind::Texture2D, Dimension::Texture2D)
            | (ResKind::Texture2DArray, Dimension::Texture2DArray)
            | (ResKind::Texture3D, Dimension::Texture3D)
            | (ResKind::TextureCube, Dimension::TextureCube)
            | (ResKind::TextureCubeArray, Dimension::TextureCube)
            | (ResKind::Texture2DMS, Dimension::Texture2DMS { .. })
            | (ResKind::Texture2DMSArray, Dimension::Texture2DMSArray { .. })
    )
}

/// The 32-bit word at byte `at`, or 0 past the end.
fn word(data: &[u8], at: u64) -> u32 {
    match usize::try_from(at).ok().and_then(|a| data.get(a..a.checked_add(4)?)) {
        Some(b) => u32::from_le_bytes([b[0], b[1], b[2], b[3]]),
        None => 0,
    }
}

/// `ld_raw`: four words from byte `a.x` (rounded down to a word).
pub(crate) fn ld_raw(res: &Resources<'_>, x: &ResOp, a: [u32; 4]) -> [u32; 4] {
    match view(res, x) {
        Some(View::Raw(data)) => {
            let base = (a[0] & !3) as u64;
            [0, 1, 2, 3].map(|k| word(data, base + 4 * k))
        }
        _ => [0; 4],
    }
}

/// `ld_structured`: four words of element `a.x` from byte `b.x` of the element.
pub(crate) fn ld_structured(res: &Resources<'_>, x: &ResOp, a: [u32; 4], b: [u32; 4]) -> [u32; 4] {
    match view(res, x) {
        Some(View::Structured(data, stride)) => {
            let (index, offset) = (a[0], b[0] & !3);
            [0, 1, 2, 3].map(|k| {
                let o = offset as u64 + 4 * k;
                if o + 4 > stride as u64 {
                    0
                } else {
                    word(data, index as u64 * stride as u64 + o)
                }
            })
        }
        _ => [0; 4],
    }
}

/// `bufinfo`: the element count of a buffer view (bytes of a raw buffer).
pub(crate) fn bufinfo(res: &Resources<'_>, x: &ResOp) -> [u32; 4] {
    let n = match view(res, x) {
        Some(View::Buffer(data, format)) => data.len() / format.size().max(1),
        Some(View::Raw(data)) => data.len(),
        Some(View::Structured(data, stride)) if stride > 0 => data.len() / stride as usize,
        _ => 0,
    };
    [u32::try_from(n).unwrap_or(u32::MAX); 4]
}

/// Texture address of `ld`-like instructions: (x, y, z, slice) for the declared kind.
fn texel_address(kind: ResKind, a: [u32; 4], offs: [i8; 3]) -> Option<[u32; 4]> {
    let o = |k: usize| a[k].wrapping_add(offs[k] as i32 as u32);
    Some(match kind {
        ResKind::Texture1D => [o(0), 0, 0, 0],
        ResKind::Texture1DArray => [o(0), 0, 0, a[1]],
        ResKind::Texture2D => [o(0), o(1), 0, 0],
        ResKind::Texture2DArray => [o(0), o(1), 0, a[2]],
        ResKind::Texture3D => [o(0), o(1), o(2), 0],
        _ => return None,
    })
}

/// `ld` / `ld_uav_typed`.
pub(crate) fn load(res: &Resources<'_>, x: &ResOp, a: [u32; 4]) -> [u32; 4] {
    match view(res, x) {
        Some(View::Buffer(data, format)) if matches!(x.kind, ResKind::Buffer | ResKind::Unknown) => {
            let size = format.size() as u64;
            let at = a[0] as u64 * size;
            match usize::try_from(at).ok().and_then(|s| data.get(s..s.checked_add(size as usize)?)) {
                Some(bytes) => format.decode(bytes),
                None => format.decode(&[]),
            }
        }
        Some(View::Texture(v, data)) if compatible(x.kind, v.dimension) => {
            let uav = x.uav;
            let oob = v.format.decode(&[]);
            let Some([tx, ty, tz, slice]) = texel_address(x.kind, a, if uav { [0; 3] } else { x.offs }) else {
                return [0; 4];
            };
            let level = if uav { 0 } else { a[3] };
            let size = v.format.size();
            match v.texel_offset(slice, level, tx, ty, tz).and_then(|o| data.get(o..o.checked_add(size)?)) {
                Some(bytes) => v.format.decode(bytes),
                None => oob,
            }
        }
        _ => [0; 4],
    }
}

/// `resinfo`: [width, height, depth or array size, mip count] as floats, reciprocals or
/// integers.
pub(crate) fn resinfo(res: &Resources<'_>, x: &ResOp, mip: u32) -> [u32; 4] {
    let uav = x.uav;
    // Which of x, y, z are sizes (reciprocated by _rcpFloat).
    let sizes: [bool; 3] = match x.kind {
        ResKind::Texture1D | ResKind::Texture1DArray => [true, false, false],
        ResKind::Texture3D => [true, true, true],
        _ => [true, true, false],
    };
    let mut v = [0u32; 4];
    if let Some(View::Texture(t, _)) = view(res, x) {
        if compatible(x.kind, t.dimension) {
            let ms = matches!(x.kind, ResKind::Texture2DMS | ResKind::Texture2DMSArray);
            let mips = if uav || ms { 1 } else { t.mip_levels };
            v[3] = mips;
            if mip < mips {
                let (w, h, d) = t.mip_size(if uav { 0 } else { mip });
                let arr = t.array_size;
                v[..3].copy_from_slice(&match x.kind {
                    ResKind::Texture1D => [w, 0, 0],
                    ResKind::Texture1DArray => [w, arr, 0],
                    ResKind::Texture2D | ResKind::TextureCube | ResKind::Texture2DMS => [w, h, 0],
                    ResKind::Texture2DArray | ResKind::Texture2DMSArray => [w, h, arr],
                    ResKind::TextureCubeArray => [w, h, arr / 6],
                    ResKind::Texture3D => [w, h, d],
                    _ => [0, 0, 0],
                });
            }
        }
    }
    match x.ret {
        2 => v,
        1 => [0, 1, 2, 3].map(
            |c| {
                if c < 3 && sizes[c] {
                    (1.0 / v[c] as f32).to_bits()
                } else {
                    (v[c] as f32).to_bits()
                }
            },
        ),
        _ => v.map(|c| (c as f32).to_bits()),
    }
}

/// The components a format stores (bit c set: component c comes from memory).
fn present(format: Format) -> u8 {
    let a = format.decode(&[0u8; 16]);
    let b = format.decode(&[0xffu8; 16]);
    (0..4).filter(|&c| a[c] != b[c]).fold(0, |m, c| m | 1 << c)
}

/// The border color as the format sees it: clamped to the format's range, defaults
/// for the components it lacks.
fn border(format: Format, s: &Sampler) -> [f32; 4] {
    let p = present(format);
    let lo = match format.name() {
        n if n.contains("SNORM") => -1.0,
        n if n.contains("UNORM") => 0.0,
        _ => f32::NEG_INFINITY,
    };
    let hi = if format.name().contains("NORM") { 1.0 } else { f32::INFINITY };
    [0, 1, 2, 3].map(|c| {
        if p & (1 << c) != 0 {
            let v = s.border_color[c];
            if v.is_nan() {
                0.0
            } else {
                v.clamp(lo, hi)
            }
        } else if c == 3 {
            1.0
        } else {
            0.0
        }
    })
}

/// A float coordinate to 16.8-style fixed point (at least 8 fraction bits; round to
/// nearest even; NaN gives 0).
fn fixed(s: f32) -> i64 {
    if s.is_nan() {
        return 0;
    }
    let s = s.clamp(-16_777_216.0, 16_777_216.0) as f64;
    (s * 256.0).round_ties_even() as i64
}

/// Applies an address mode to texel coordinate `t` of a dimension of `n` texels;
/// `None` selects the border color.
fn address(mode: AddressMode, t: i64, n: i64) -> Option<i64> {
    if (0..n).contains(&t) {
        return Some(t);
    }
    Some(match mode {
        AddressMode::Wrap => t.rem_euclid(n),
        AddressMode::Mirror => {
            let t = if t < 0 { -t - 1 } else { t };
            let flip = (t / n) & 1 == 1;
            let t = t % n;
            if flip {
                n - t - 1
            } else {
                t
            }
        }
        AddressMode::Clamp => t.clamp(0, n - 1),
        AddressMode::MirrorOnce => (if t < 0 { -t - 1 } else { t }).clamp(0, n - 1),
        AddressMode::Border => return None,
    })
}

/// Defines a cube-face selection for one float type: the face of direction `c` (+X,
/// -X, +Y, -Y, +Z, -Z; ties prefer Z, then Y) and the face coordinates in [0, 1]
/// (spec 7.18.12; the table is Microsoft's TextureCube face orientation).
macro_rules! cube_face_fn {
    ($name:ident, $t:ty) => {
        fn $name(c: [$t; 3]) -> (u32, $t, $t) {
            let [x, y, z] = c;
            let (ax, ay, az) = (x.abs(), y.abs(), z.abs());
            let (face, sc, tc, ma) = if az >= ax && az >= ay {
                if z >= 0.0 {
                    (4, x, -y, az)
                } else {
                    (5, -x, -y, az)
                }
            } else if ay >= ax {
                if y >= 0.0 {
                    (2, x, z, ay)
                } else {
                    (3, x, -z, ay)
                }
            } else if x >= 0.0 {
                (0, -z, -y, ax)
            } else {
                (1, z, -y, ax)
            };
            if ma == 0.0 || ma.is_nan() {
                return (face, 0.5, 0.5);
            }
            (face, sc / ma * 0.5 + 0.5, tc / ma * 0.5 + 0.5)
        }
    };
}

cube_face_fn!(cube_face, f32);
// The same selection in f64, for moving a texel across a face's edge: the texel
// coordinates it gives must survive `floor` exactly on faces of up to 16384 texels.
cube_face_fn!(cube_face_f64, f64);

/// The direction of the point at face coordinates `s`, `t` (in [-1, 1] on the face;
/// outside it past the face's edges) of cube face `face`: the inverse of
/// `cube_face`'s table (+X: sc = -z, tc = -y; -X: sc = z, tc = -y; +Y: sc = x, tc = z;
/// -Y: sc = x, tc = -z; +Z: sc = x, tc = -y; -Z: sc = -x, tc = -y; major axis 1).
fn face_point(face: u32, s: f64, t: f64) -> [f64; 3] {
    match face {
        0 => [1.0, -t, -s],
        1 => [-1.0, -t, s],
        2 => [s, 1.0, t],
        3 => [s, -1.0, -t],
        4 => [s, -t, 1.0],
        _ => [-s, -t, -1.0],
    }
}

/// A bilinear tap `[i, j]` of a cube face `face` (`n` texels square) at `slice`
/// (spec 7.18.12, TextureCube Edge and Corner Handling): inside the face it stays;
/// one coordinate outside [0, n) moves it to the adjacent face (the texel whose
/// centre's direction is nearest: its centre's direction through `cube_face`); both
/// outside (a cube corner, where no texel exists) gives `None`.
fn cube_tap(face: u32, slice: u32, n: u32, t: [i64; 2]) -> Option<(u32, [i64; 3])> {
    let n64 = n as i64;
    let out = [0, 1].map(|k| !(0..n64).contains(&t[k]));
    match out {
        [false, false] => Some((slice, [t[0], t[1], 0])),
        [true, true] => None,
        _ => {
            let c = |i: i64| ((i as f64) + 0.5) / n as f64 * 2.0 - 1.0;
            let (f, u, v) = cube_face_f64(face_point(face, c(t[0]), c(t[1])));
            let texel = |x: f64| ((x * n as f64).floor() as i64).clamp(0, n64 - 1);
            let base = slice.saturating_sub(face % 6);
            Some((base.saturating_add(f), [texel(u), texel(v), 0]))
        }
    }
}

/// The value of each tap of a cube's 2x2 footprint, with the missing texel of a
/// corner replaced by the average of the other three (spec 7.18.12: its weight is
/// divided evenly among them).
fn fill_corner(vals: [Option<[f32; 4]>; 4]) -> [[f32; 4]; 4] {
    let mut sum = [0.0f32; 4];
    let mut count = 0u32;
    for t in vals.iter().flatten() {
        for c in 0..4 {
            sum[c] += t[c];
        }
        count += 1;
    }
    let avg = sum.map(|x| if count == 0 { 0.0 } else { x / count as f32 });
    vals.map(|t| t.unwrap_or(avg))
}

/// Flushes a denormal to zero (keeping the sign).
fn ftz(f: f32) -> f32 {
    if f.is_subnormal() {
        0.0f32.copysign(f)
    } else {
        f
    }
}

/// The comparison of comparison sampling: the function, and the reference value
/// quantized to the texture format (spec 22.4.19: as depth is before the depth test,
/// including the clamp to the format's range).
#[derive(Clone, Copy)]
struct Compare {
    func: ComparisonFunc,
    reference: f32,
}

impl Compare {
    fn new(format: Format, sampler: &Sampler, reference: f32) -> Compare {
        let n = format.size().min(16);
        let mut buf = [0u8; 16];
        format.encode([reference.to_bits(), 0, 0, 0], &mut buf[..n]);
        let q = if format.numeric() == Numeric::Float {
            alu::f(format.decode(&buf[..n])[0])
        } else {
            // Integer formats do not support comparison (undefined): compare as given.
            reference
        };
        Compare { func: sampler.comparison.unwrap_or(ComparisonFunc::Never), reference: ftz(q) }
    }

    /// 1.0 or 0.0: `reference FUNC texel`.
    fn test(&self, texel: f32) -> f32 {
        if self.func.passes(self.reference, ftz(texel)) {
            1.0
        } else {
            0.0
        }
    }
}

/// The texel at integer coordinates `t` (before addressing) of mip `level`; `None`
/// selects the border color. Memory past the end reads as the format's out-of-bounds
/// value.
#[allow(clippy::too_many_arguments)]
fn fetch(
    v: &TextureView<'_>,
    data: &[u8],
    dims: usize,
    slice: u32,
    level: u32,
    modes: [AddressMode; 3],
    t: [i64; 3],
) -> Option<[u32; 4]> {
    let (w, h, d) = v.mip_size(level);
    let sizes = [w, h, d];
    let mut a = [0u32; 3];
    for k in 0..dims.min(3) {
        a[k] = address(modes[k], t[k], sizes[k] as i64)? as u32;
    }
    let size = v.format.size();
    let o = v.texel_offset(slice, level, a[0], a[1], a[2])?;
    Some(match data.get(o..o.checked_add(size)?) {
        Some(b) => v.format.decode(b),
        None => v.format.decode(&[]),
    })
}

/// One filtered lookup in mip `level`: `coords` normalized, `dims` of them used.
/// With `cmp`, each texel's red component is compared and the 1.0/0.0 results are
/// filtered (replicated to all four components). `cube`: the cube face sampled,
/// whose bilinear taps past an edge come from the adjacent face (`cube_tap`).
#[allow(clippy::too_many_arguments)]
fn sample_level(
    v: &TextureView<'_>,
    data: &[u8],
    dims: usize,
    coords: [f32; 3],
    slice: u32,
    level: u32,
    filter: Filter,
    sampler: &Sampler,
    modes: [AddressMode; 3],
    offs: [i8; 3],
    cmp: Option<Compare>,
    cube: Option<u32>,
) -> [u32; 4] {
    let (w, h, d) = v.mip_size(level);
    let sizes = [w, h, d];
    // Per axis: up to two (texel, weight) taps.
    let mut taps = [[(0i64, 1.0f32); 2]; 3];
    let mut ntaps = [1usize; 3];
    for k in 0..3 {
        if k >= dims {
            continue;
        }
        let n = sizes[k] as f32;
        let off = offs[k] as i64;
        match filter {
            Filter::Point => {
                let fx = fixed(coords[k] * n);
                taps[k][0] = ((fx >> 8) + off, 1.0);
            }
            Filter::Linear => {
                let fx = fixed(coords[k] * n - 0.5);
                let wc = (fx & 255) as f32 / 256.0;
                let t = (fx >> 8) + off;
                taps[k] = [(t, 1.0 - wc), (t + 1, wc)];
                ntaps[k] = 2;
            }
        }
    }
    let float = v.format.numeric() == Numeric::Float;
    if !float && cmp.is_none() {
        // Integer formats are not filtered: the nearest texel, as stored.
        let t = [0, 1, 2].map(|k| taps[k][0].0);
        return fetch(v, data, dims, slice, level, modes, t).unwrap_or_else(|| v.format.decode(&[]));
    }
    let bc = border(v.format, sampler);
    let compared = |texel: [f32; 4]| match cmp {
        Some(c) => [c.test(texel[0]); 4],
        None => texel,
    };
    if let (Some(face), 2, [2, 2, _]) = (cube, dims, ntaps) {
        let (a, b) = (taps[0], taps[1]);
        let foot = [(a[0], b[0]), (a[0], b[1]), (a[1], b[0]), (a[1], b[1])];
        let vals = foot.map(|((i, _), (j, _))| {
            let (sl, t) = cube_tap(face, slice, w, [i, j])?;
            let texel = fetch(v, data, 2, sl, level, [AddressMode::Clamp; 3], t).map_or(bc, |t| t.map(alu::f));
            Some(compared(texel))
        });
        let vals = fill_corner(vals);
        let mut sum = [0.0f32; 4];
        for (((_, wi), (_, wj)), texel) in foot.iter().zip(vals) {
            for c in 0..4 {
                sum[c] += texel[c] * (wi * wj);
            }
        }
        return sum.map(alu::bits);
    }
    let mut sum = [0.0f32; 4];
    for i in 0..ntaps[0] {
        for j in 0..ntaps[1] {
            for l in 0..ntaps[2] {
                let wgt = taps[0][i].1 * taps[1][j].1 * taps[2][l].1;
                let texel = match fetch(v, data, dims, slice, level, modes, [taps[0][i].0, taps[1][j].0, taps[2][l].0])
                {
                    Some(t) => t.map(alu::f),
                    None => bc,
                };
                let texel = compared(texel);
                for c in 0..4 {
                    sum[c] += texel[c] * wgt;
                }
            }
        }
    }
    sum.map(alu::bits)
}

/// What the sampling instructions share: the bound texture, the sampler and the
/// address resolved for the declared kind.
struct Setup<'r> {
    v: TextureView<'r>,
    data: &'r [u8],
    sampler: Sampler,
    /// Coordinates used (1, 2 or 3) and the normalized coordinates.
    dims: usize,
    coords: [f32; 3],
    slice: u32,
    modes: [AddressMode; 3],
    offs: [i8; 3],
    /// Cube maps: the face (its texel size is the texture's width).
    face: Option<u32>,
}

fn setup<'r>(res: &'r Resources<'_>, x: &ResOp, addr: [u32; 4]) -> Option<Setup<'r>> {
    let Some(View::Texture(v, data)) = view(res, x) else { return None };
    if !compatible(x.kind, v.dimension) {
        return None;
    }
    let sampler = res.samplers.get(x.sampler as usize).copied().flatten().unwrap_or_default();
    let c = addr.map(alu::f);
    let arr = |f: f32, n: u32| -> u32 {
        let r = f.round_ties_even();
        if r.is_nan() || r <= 0.0 {
            0
        } else {
            (r as u32).min(n.saturating_sub(1))
        }
    };
    let mut modes = sampler.address;
    let mut face = None;
    let (dims, coords, slice) = match x.kind {
        ResKind::Texture1D => (1, [c[0], 0.0, 0.0], 0),
        ResKind::Texture1DArray => (1, [c[0], 0.0, 0.0], arr(c[1], v.array_size)),
        ResKind::Texture2D => (2, [c[0], c[1], 0.0], 0),
        ResKind::Texture2DArray => (2, [c[0], c[1], 0.0], arr(c[2], v.array_size)),
        ResKind::Texture3D => (3, [c[0], c[1], c[2]], 0),
        ResKind::TextureCube | ResKind::TextureCubeArray => {
            let (f, u, w) = cube_face([c[0], c[1], c[2]]);
            let cube = if x.kind == ResKind::TextureCubeArray { arr(c[3], v.array_size / 6) } else { 0 };
            // Within the face, coordinates clamp (a coordinate of exactly 1.0 stays on
            // the face); bilinear taps past an edge move to the adjacent face in
            // `sample_level` and `gather4` (spec 7.18.12).
            modes = [AddressMode::Clamp; 3];
            face = Some(f);
            (2, [u, w, 0.0], cube.saturating_mul(6).saturating_add(f))
        }
        _ => return None,
    };
    let offs = if face.is_some() { [0; 3] } else { x.offs };
    Some(Setup { v, data, sampler, dims, coords, slice, modes, offs, face })
}

/// How a sampling instruction gets its LOD.
pub(crate) enum Lod {
    /// `sample_l` (and `_lz`: 0).
    Given(f32),
    /// `sample_d`: the x and y derivatives of the address, and the `_cl` clamp.
    Gradients([f32; 4], [f32; 4], Option<f32>),
    /// `sample`, `sample_b`, `sample_c` (pixel shaders): the quad's x and y
    /// derivatives of the address, as `sample_d`'s, the bias (`sample_b`; 0 for the
    /// others) and the `_cl` clamp.
    Implicit([f32; 4], [f32; 4], f32, Option<f32>),
}

/// `sample_b`'s bias operand, clamped to [-16, 15.99] (Microsoft's sample_b page).
pub(crate) fn sample_bias(b: f32) -> f32 {
    if b.is_nan() {
        0.0
    } else {
        b.clamp(-16.0, 15.99)
    }
}

/// The LOD a sample uses: the computed one plus the sampler's bias, clamped to the
/// sampler's MinLOD/MaxLOD (NaN: 0).
fn sampler_lod(l: f32, sampler: &Sampler) -> f32 {
    let mut l = l + sampler.mip_lod_bias;
    if l.is_nan() {
        l = 0.0;
    }
    if l < sampler.min_lod {
        l = sampler.min_lod;
    }
    if l > sampler.max_lod {
        l = sampler.max_lod;
    }
    l.clamp(-64.0, 64.0)
}

/// `lod` (Microsoft's lod page): (the LOD `sample` would use, with the sampler's bias
/// and clamps and clamped to the texture's mip levels; the LOD computed from the
/// derivatives, unclamped; 0; 0). 0 without a texture bound.
pub(crate) fn lod(res: &Resources<'_>, x: &ResOp, addr: [u32; 4], dx: [f32; 4], dy: [f32; 4]) -> [u32; 4] {
    let Some(s) = setup(res, x, addr) else { return [0; 4] };
    let raw = gradient_lod(&s, addr.map(alu::f), dx, dy);
    let last = s.v.mip_levels.max(1).saturating_sub(1) as f32;
    let used = sampler_lod(raw, &s.sampler).clamp(0.0, last);
    [alu::bits(used), alu::bits(raw), 0, 0]
}

/// The components of `v` along a cube face's axes: (s, t, major), the major axis
/// with the sign that makes it positive for a direction into the face.
fn face_axes(face: u32, v: [f32; 4]) -> [f32; 3] {
    let [x, y, z, _] = v;
    match face {
        0 => [-z, -y, x],
        1 => [z, -y, -x],
        2 => [x, z, y],
        3 => [x, -z, -y],
        4 => [x, -y, z],
        _ => [-x, -y, -z],
    }
}

/// The LOD of `sample_d` (spec 7.18.11, isotropic): derivatives moved to the face of
/// a cube, scaled by the size of mip 0, made orthogonal (Heckbert) for 2D footprints
/// when the caveats allow, then log2 of the longer one.
fn gradient_lod(s: &Setup<'_>, addr: [f32; 4], dx: [f32; 4], dy: [f32; 4]) -> f32 {
    let (w, h, d) = s.v.mip_size(0);
    let (mut gx, mut gy) = ([0.0f32; 3], [0.0f32; 3]);
    if let Some(face) = s.face {
        let tc = face_axes(face, addr);
        let (ax, ay) = (face_axes(face, dx), face_axes(face, dy));
        let major = tc[2];
        let n = w as f32;
        for k in 0..2 {
            gx[k] = 0.5 * n * (major * ax[k] - tc[k] * ax[2]) / (major * major);
            gy[k] = 0.5 * n * (major * ay[k] - tc[k] * ay[2]) / (major * major);
        }
    } else {
        let size = [w as f32, h as f32, d as f32];
        for k in 0..s.dims {
            gx[k] = dx[k] * size[k];
            gy[k] = dy[k] * size[k];
        }
    }
    if s.dims >= 2 && gx[2] == 0.0 && gy[2] == 0.0 {
        // The orthogonal Jacobian (skipped when degenerate, as the spec allows).
        let (xu, xv, yu, yv) = (gx[0] as f64, gx[1] as f64, gy[0] as f64, gy[1] as f64);
        let a = xv * xv + yv * yv;
        let b = -2.0 * (xu * xv + yu * yv);
        let c = xu * xu + yu * yu;
        let f = (xu * yv - yu * xv).powi(2);
        let (p, q) = (a - c, a + c);
        let t = (p * p + b * b).sqrt();
        let finite = [xu, xv, yu, yv].iter().all(|v| v.is_finite());
        if finite && f != 0.0 && b != 0.0 && q != t {
            let sg = b.signum();
            let n = [
                (f * (t + p) / (t * (q + t))).sqrt(),
                (f * (t - p) / (t * (q + t))).sqrt() * sg,
                (f * (t - p) / (t * (q - t))).sqrt() * -sg,
                (f * (t + p) / (t * (q - t))).sqrt(),
            ];
            if n.iter().all(|v| v.is_finite()) {
                gx = [n[0] as f32, n[1] as f32, 0.0];
                gy = [n[2] as f32, n[3] as f32, 0.0];
            }
        }
    }
    let len = |g: [f32; 3]| (g[0] * g[0] + g[1] * g[1] + g[2] * g[2]).sqrt();
    len(gx).max(len(gy)).log2()
}

/// `sample_l`, `sample_c_lz`, `sample_d`: `reference` for the comparing forms.
pub(crate) fn sample(res: &Resources<'_>, x: &ResOp, addr: [u32; 4], lod: Lod, reference: Option<f32>) -> [u32; 4] {
    let Some(s) = setup(res, x, addr) else { return [0; 4] };
    let mut sampler = s.sampler;
    let l = match lod {
        Lod::Given(l) => l,
        Lod::Gradients(dx, dy, clamp) | Lod::Implicit(dx, dy, _, clamp) => {
            if let Some(c) = clamp {
                // `_cl`: no more detailed than the clamp.
                if c > sampler.min_lod {
                    sampler.min_lod = c;
                }
            }
            let bias = if let Lod::Implicit(_, _, b, _) = lod { b } else { 0.0 };
            gradient_lod(&s, addr.map(alu::f), dx, dy) + bias
        }
    };
    let Setup { v, data, dims, coords, slice, modes, offs, face, .. } = s;
    let cmp = reference.map(|r| Compare::new(v.format, &sampler, r));
    // LOD: the given value plus the bias, clamped by the sampler's MinLOD/MaxLOD.
    let l = sampler_lod(l, &sampler);
    let filter = if l <= 0.0 { sampler.mag } else { sampler.min };
    let last = v.mip_levels.max(1) as i64 - 1;
    let fx = (l as f64 * 256.0).round_ties_even() as i64;
    let float = v.format.numeric() == Numeric::Float || cmp.is_some();
    let (m0, m1, wm) = match (sampler.mip, float) {
        (Filter::Linear, true) => {
            let f = (fx >> 8).clamp(0, last);
            let c = ((fx >> 8) + 1).clamp(0, last);
            (f as u32, c as u32, if fx < 0 { 0.0 } else { (fx & 255) as f32 / 256.0 })
        }
        _ => (((fx + 128) >> 8).clamp(0, last) as u32, 0, 0.0),
    };
    let filter = if float { filter } else { Filter::Point };
    let s0 = sample_level(&v, data, dims, coords, slice, m0, filter, &sampler, modes, offs, cmp, face);
    if wm == 0.0 || m1 == m0 {
        return s0;
    }
    let s1 = sample_level(&v, data, dims, coords, slice, m1, filter, &sampler, modes, offs, cmp, face);
    [0, 1, 2, 3].map(|k| alu::bits(alu::f(s0[k]) * (1.0 - wm) + alu::f(s1[k]) * wm))
}

/// The low 6 bits of a programmable offset, sign-extended ([-32, 31]).
fn offset6(v: u32) -> i64 {
    ((v << 26) as i32 >> 26) as i64
}

/// `gather4`, `gather4_c`, `gather4_po`, `gather4_po_c` (`po`: the programmable
/// offset; `reference`: the comparing forms' reference value). The four texels of
/// the bilinear footprint in mip 0, in the spec's order — (-,+), (+,+), (+,-), (-,-)
/// half-texel deltas: x = (u0, v1), y = (u1, v1), z = (u1, v0), w = (u0, v0) — each
/// the sampler-selected component as stored (or its comparison result).
pub(crate) fn gather4(res: &Resources<'_>, x: &ResOp, addr: [u32; 4], po: [u32; 4], reference: f32) -> [u32; 4] {
    let programmable = x.programmable;
    let ok = match x.kind {
        ResKind::Texture2D | ResKind::Texture2DArray => true,
        ResKind::TextureCube | ResKind::TextureCubeArray => !programmable,
        _ => false,
    };
    if !ok {
        return [0; 4];
    }
    let Some(s) = setup(res, x, addr) else { return [0; 4] };
    let (w, h, _) = s.v.mip_size(0);
    let offs = if programmable { [offset6(po[0]), offset6(po[1])] } else { [s.offs[0] as i64, s.offs[1] as i64] };
    let fu = fixed(s.coords[0] * w as f32 - 0.5);
    let fv = fixed(s.coords[1] * h as f32 - 0.5);
    let (u0, v0) = ((fu >> 8) + offs[0], (fv >> 8) + offs[1]);
    let comp = (x.umask & 3) as usize;
    let cmp = x.compare.then(|| Compare::new(s.v.format, &s.sampler, reference));
    let bc = border(s.v.format, &s.sampler);
    let float = s.v.format.numeric() == Numeric::Float;
    let numeric = s.v.format.numeric();
    let one = |sl: u32, t: [i64; 3]| {
        let texel = fetch(&s.v, s.data, 2, sl, 0, s.modes, t);
        let texel = texel.unwrap_or_else(|| if float { bc.map(alu::bits) } else { bc.map(|c| c as u32) });
        match cmp {
            Some(c) => alu::bits(c.test(alu::f(texel[0]))),
            None => texel[comp],
        }
    };
    let foot = [(u0, v0 + 1), (u0 + 1, v0 + 1), (u0 + 1, v0), (u0, v0)];
    let Some(face) = s.face else { return foot.map(|(u, v)| one(s.slice, [u, v, 0])) };
    // A cube (spec 7.18.12): taps past an edge come from the adjacent face; the
    // corner's missing texel is the average of the other three.
    let vals = foot.map(|(u, v)| cube_tap(face, s.slice, w, [u, v]).map(|(sl, t)| one(sl, t)));
    let present = vals.iter().flatten();
    let count = present.clone().count().max(1);
    let avg = if cmp.is_some() || numeric == Numeric::Float {
        alu::bits(present.map(|&b| alu::f(b)).sum::<f32>() / count as f32)
    } else if numeric == Numeric::Sint {
        (present.map(|&b| b as i32 as i64).sum::<i64>() / count as i64) as i32 as u32
    } else {
        (present.map(|&b| b as u64).sum::<u64>() / count as u64) as u32
    };
    vals.map(|b| b.unwrap_or(avg))
}

/// `ldms`: sample `sample` of a texel of a multisampled texture (with the
/// immediate offsets); out of range reads the format's out-of-bounds value.
pub(crate) fn ldms(res: &Resources<'_>, x: &ResOp, a: [u32; 4], sample: u32) -> [u32; 4] {
    let Some(View::Texture(v, data)) = view(res, x) else { return [0; 4] };
    if !compatible(x.kind, v.dimension) {
        return [0; 4];
    }
    let o = |k: usize| a[k].wrapping_add(x.offs[k] as i32 as u32);
    let slice = if x.kind == ResKind::Texture2DMSArray { a[2] } else { 0 };
    let size = v.format.size();
    match v.sample_offset(slice, o(0), o(1), sample).and_then(|at| data.get(at..at.checked_add(size)?)) {
        Some(bytes) => v.format.decode(bytes),
        None => v.format.decode(&[]),
    }
}

/// The standard sample patterns (D3D11_STANDARD_MULTISAMPLE_PATTERN) in 1/16 pixel
/// units from the pixel centre, for 1, 2, 4, 8 and 16 samples.
const PATTERN_1: [(i8, i8); 1] = [(0, 0)];
const PATTERN_2: [(i8, i8); 2] = [(4, 4), (-4, -4)];
const PATTERN_4: [(i8, i8); 4] = [(-2, -6), (6, -2), (-6, 2), (2, 6)];
const PATTERN_8: [(i8, i8); 8] = [(1, -3), (-1, 3), (5, 1), (-3, -5), (-5, 5), (-7, -1), (3, 7), (7, -7)];
const PATTERN_16: [(i8, i8); 16] = [
    (1, 1),
    (-1, -3),
    (-3, 2),
    (4, -1),
    (-5, -2),
    (2, 5),
    (5, 3),
    (3, -5),
    (-2, 6),
    (0, -7),
    (-4, -6),
    (-6, 4),
    (-8, 0),
    (7, -4),
    (6, 7),
    (-7, -8),
];

/// The standard pattern of `count` samples (none for other counts).
pub(crate) fn sample_pattern(count: u32) -> &'static [(i8, i8)] {
    match count {
        1 => &PATTERN_1,
        2 => &PATTERN_2,
        4 => &PATTERN_4,
        8 => &PATTERN_8,
        16 => &PATTERN_16,
        _ => &[],
    }
}

/// The sample count of a multisampled texture view; 0 for a resource that is not
/// multisampled (the spec defines the queries only for multisampled ones).
fn sample_count(res: &Resources<'_>, x: &ResOp) -> u32 {
    match view(res, x) {
        Some(View::Texture(v, _))
            if compatible(x.kind, v.dimension)
                && matches!(v.dimension, Dimension::Texture2DMS { .. } | Dimension::Texture2DMSArray { .. }) =>
        {
            v.sample_count()
        }
        _ => 0,
    }
}

/// `sampleinfo`: (sample count, 0, 0, 0), float or `_uint`.
pub(crate) fn sample_info(res: &Resources<'_>, x: &ResOp) -> [u32; 4] {
    let count = sample_count(res, x);
    if x.ret == 2 {
        [count, 0, 0, 0]
    } else {
        [alu::bits(count as f32), 0, 0, 0]
    }
}

/// `samplepos`: (x, y, 0, 0) of sample `index` in the standard pattern, in pixels
/// from the centre; 0 for an index out of range, a count without a standard
/// pattern, or a resource that is not multisampled.
pub(crate) fn sample_pos(res: &Resources<'_>, x: &ResOp, index: u32) -> [u32; 4] {
    match sample_pattern(sample_count(res, x)).get(index as usize) {
        Some(&(sx, sy)) => [alu::bits(sx as f32 / 16.0), alu::bits(sy as f32 / 16.0), 0, 0],
        None => [0; 4],
    }
}

/// Byte offset of the 32-bit word an atomic addresses, if inside the UAV.
fn atomic_at(u: &Uav<'_>, kind: ResKind, a: [u32; 4]) -> Option<usize> {
    let (at, len) = match u {
        Uav::Raw { data } => ((a[0] & !3) as u64, data.len()),
        Uav::Structured { data, stride, .. } => {
            if (a[1] & !3) as u64 + 4 > *stride as u64 {
                return None;
            }
            (a[0] as u64 * *stride as u64 + (a[1] & !3) as u64, data.len())
        }
        Uav::Buffer { data, format } if format.size() == 4 => (a[0] as u64 * 4, data.len()),
        Uav::Texture { view, data } if view.format.size() == 4 => {
            let [x, y, z, slice] = texel_address(kind, a, [0; 3])?;
            (view.texel_offset(slice, 0, x, y, z)? as u64, data.len())
        }
        _ => return None,
    };
    let at = usize::try_from(at).ok()?;
    (at.checked_add(4)? <= len).then_some(at)
}

fn uav_data<'u>(u: &'u mut Uav<'_>) -> &'u mut [u8] {
    match u {
        Uav::Buffer { data, .. } | Uav::Raw { data } | Uav::Structured { data, .. } | Uav::Texture { data, .. } => data,
    }
}

fn put(data: &mut [u8], at: u64, v: u32) {
    if let Some(b) = usize::try_from(at).ok().and_then(|a| data.get_mut(a..a.checked_add(4)?)) {
        b.copy_from_slice(&v.to_le_bytes());
    }
}

/// `store_raw`: the words of `b` the mask selects, from byte `a.x`.
pub(crate) fn store_raw(res: &mut Resources<'_>, x: &ResOp, a: [u32; 4], b: [u32; 4]) {
    if let Some(Some(Uav::Raw { data })) = res.uavs.get_mut(x.slot as usize) {
        let base = (a[0] & !3) as u64;
        for (k, &v) in b.iter().enumerate() {
            if x.umask & (1 << k) != 0 {
                put(data, base + 4 * k as u64, v);
            }
        }
    }
}

/// `store_structured`: the words of `c` the mask selects, to element `a.x` from
/// byte `b.x` of the element (words past the stride are dropped).
pub(crate) fn store_structured(res: &mut Resources<'_>, x: &ResOp, a: [u32; 4], b: [u32; 4], c: [u32; 4]) {
    if let Some(Some(Uav::Structured { data, stride, .. })) = res.uavs.get_mut(x.slot as usize) {
        let stride = *stride as u64;
        let base = a[0] as u64 * stride;
        for (k, &v) in c.iter().enumerate() {
            let o = (b[0] & !3) as u64 + 4 * k as u64;
            if x.umask & (1 << k) != 0 && o + 4 <= stride {
                put(data, base + o, v);
            }
        }
    }
}

/// `store_uav_typed`: `b` encoded in the view's format at address `a`.
pub(crate) fn store_typed(res: &mut Resources<'_>, x: &ResOp, a: [u32; 4], b: [u32; 4]) {
    match res.uavs.get_mut(x.slot as usize) {
        Some(Some(Uav::Buffer { data, format })) => {
            let size = format.size();
            if let Some(e) =
                usize::try_from(a[0] as u64 * size as u64).ok().and_then(|s| data.get_mut(s..s.checked_add(size)?))
            {
                format.encode(b, e);
            }
        }
        Some(Some(Uav::Texture { view, data })) => {
            if let Some([tx, ty, tz, slice]) = texel_address(x.kind, a, [0; 3]) {
                let size = view.format.size();
                if let Some(e) =
                    view.texel_offset(slice, 0, tx, ty, tz).and_then(|o| data.get_mut(o..o.checked_add(size)?))
                {
                    view.format.encode(b, e);
                }
            }
        }
        _ => {}
    }
}

/// `imm_atomic_alloc` (`alloc`) / `imm_atomic_consume`: the hidden counter of a
/// structured UAV; returns the value written to the destination.
pub(crate) fn counter(res: &mut Resources<'_>, x: &ResOp, alloc: bool) -> u32 {
    match res.uavs.get_mut(x.slot as usize) {
        Some(Some(Uav::Structured { counter, .. })) => {
            if alloc {
                let old = *counter;
                *counter = counter.wrapping_add(1);
                old
            } else {
                *counter = counter.wrapping_sub(1);
                *counter
            }
        }
        _ => 0,
    }
}

/// `atomic_*` / `imm_atomic_*` at address `a` with operands `b.x` (and `c.x` for the
/// compare forms); returns the memory's previous value (0 when out of range).
pub(crate) fn atomic(res: &mut Resources<'_>, x: &ResOp, a: [u32; 4], b: [u32; 4], c: [u32; 4]) -> u32 {
    let Some(Some(u)) = res.uavs.get_mut(x.slot as usize) else { return 0 };
    let Some(at) = atomic_at(u, x.kind, a) else { return 0 };
    let data = uav_data(u);
    let old = word(data, at as u64);
    put(data, at as u64, atomic_result(x.atomic, old, b[0], c[0]));
    old
}

/// The value an atomic operation leaves in memory holding `old`, with operands `v`
/// (and `w`, the value the compare forms store).
pub(crate) fn atomic_result(op: AtomicOp, old: u32, v: u32, w: u32) -> u32 {
    match op {
        AtomicOp::And => old & v,
        AtomicOp::Or => old | v,
        AtomicOp::Xor => old ^ v,
        AtomicOp::CmpStore => {
            if old == v {
                w
            } else {
                old
            }
        }
        AtomicOp::Iadd => old.wrapping_add(v),
        AtomicOp::Imax => (old as i32).max(v as i32) as u32,
        AtomicOp::Imin => (old as i32).min(v as i32) as u32,
        AtomicOp::Umax => old.max(v),
        AtomicOp::Umin => old.min(v),
        AtomicOp::Exch => v,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `face_point` inverts `cube_face`'s table: points inside every face come back
    /// to the same face and coordinates, in f32 and f64.
    #[test]
    fn face_point_inverts_cube_face() {
        for face in 0..6 {
            for &(s, t) in &[(0.25, -0.5), (-0.75, 0.125), (0.0, 0.0), (0.875, 0.625)] {
                let p = face_point(face, s, t);
                let (f, u, v) = cube_face_f64(p);
                assert_eq!((f, u, v), (face, s * 0.5 + 0.5, t * 0.5 + 0.5));
                let (f, u, v) = cube_face(p.map(|c| c as f32));
                assert_eq!((f, u, v), (face, (s * 0.5 + 0.5) as f32, (t * 0.5 + 0.5) as f32));
            }
        }
    }

    /// A tap one texel past an edge lands on the adjacent face's edge row or column,
    /// one past in both axes is the corner, and large faces keep exact texels.
    #[test]
    fn cube_tap_crosses_one_edge() {
        for n in [1u32, 2, 4, 16384] {
            let m = n as i64;
            for face in 0..6 {
                assert_eq!(cube_tap(face, 6 + face, n, [-1, -1]), None);
                assert_eq!(cube_tap(face, 6 + face, n, [m, m]), None);
                for j in 0..m.min(64) {
                    for t in [[-1, j], [m, j], [j, -1], [j, m]] {
                        let (sl, [i2, j2, _]) = cube_tap(face, 6 + face, n, t).unwrap();
                        assert!((6..12).contains(&sl) && sl != 6 + face);
                        assert!(i2 == 0 || i2 == m - 1 || j2 == 0 || j2 == m - 1);
                        // And back: one texel past the new face's edge is the start.
                        let back = [[i2 - 1, j2], [i2 + 1, j2], [i2, j2 - 1], [i2, j2 + 1]];
                        let home = back
                            .iter()
                            .filter_map(|&b| cube_tap(sl - 6, sl, n, b))
                            .any(|(s, b)| s == 6 + face && b[..2] == [t[0].clamp(0, m - 1), t[1].clamp(0, m - 1)]);
                        assert!(home, "n {n} face {face} tap {t:?}");
                    }
                }
            }
        }
    }
}
