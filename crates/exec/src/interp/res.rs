//! Resource instructions: loads, samples, size queries, UAV stores and atomics.
//!
//! Every access is bounds-checked: out-of-range loads return the specified
//! out-of-bounds value (0 in the format's components, the defaults for missing ones;
//! 0 for raw and structured buffers), out-of-range stores and atomics do nothing, and
//! unbound or mismatched views read 0.

use super::{AtomicOp, Inst, Op, ResKind};
use crate::alu;
use crate::format::{Format, NumericType};
use crate::resources::{AddressMode, Dimension, Filter, Resources, Sampler, Srv, TextureView, Uav};

/// A bound view, read-only.
enum View<'r> {
    Buffer(&'r [u8], Format),
    Raw(&'r [u8]),
    Structured(&'r [u8], u32),
    /// The geometry and the memory (for UAVs, the writable memory).
    Texture(TextureView<'r>, &'r [u8]),
}

fn view<'r>(res: &'r Resources<'_>, x: &Inst) -> Option<View<'r>> {
    if x.flag & 4 != 0 {
        Some(match res.uavs.get(x.a as usize)?.as_ref()? {
            Uav::Buffer { data, format } => View::Buffer(data, *format),
            Uav::Raw { data } => View::Raw(data),
            Uav::Structured { data, stride, .. } => View::Structured(data, *stride),
            Uav::Texture { view, data } => View::Texture(*view, data),
        })
    } else {
        Some(match res.srvs.get(x.a as usize)?.as_ref()? {
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
    )
}

/// The 32-bit word at byte `at`, or 0 past the end.
fn word(data: &[u8], at: u64) -> u32 {
    match usize::try_from(at).ok().and_then(|a| data.get(a..a.checked_add(4)?)) {
        Some(b) => u32::from_le_bytes([b[0], b[1], b[2], b[3]]),
        None => 0,
    }
}

/// Reads for the load/query instructions (`a`, `b`: the first two sources).
pub(crate) fn read(res: &Resources<'_>, x: &Inst, a: [u32; 4], b: [u32; 4]) -> [u32; 4] {
    match x.op {
        Op::Ld | Op::LdUavTyped => load(res, x, a),
        Op::LdRaw => match view(res, x) {
            Some(View::Raw(data)) => {
                let base = (a[0] & !3) as u64;
                [0, 1, 2, 3].map(|k| word(data, base + 4 * k))
            }
            _ => [0; 4],
        },
        Op::LdStructured => match view(res, x) {
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
        },
        Op::ResInfo => resinfo(res, x, a[0]),
        Op::BufInfo => {
            let n = match view(res, x) {
                Some(View::Buffer(data, format)) => data.len() / format.size().max(1),
                Some(View::Raw(data)) => data.len(),
                Some(View::Structured(data, stride)) if stride > 0 => data.len() / stride as usize,
                _ => 0,
            };
            [u32::try_from(n).unwrap_or(u32::MAX); 4]
        }
        Op::SampleL => sample_l(res, x, a, b[0]),
        Op::CheckAccess => [alu::mask(a[0] != 0); 4],
        _ => [0; 4],
    }
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
fn load(res: &Resources<'_>, x: &Inst, a: [u32; 4]) -> [u32; 4] {
    match view(res, x) {
        Some(View::Buffer(data, format)) if matches!(x.dim, ResKind::Buffer | ResKind::Unknown) => {
            let size = format.size() as u64;
            let at = a[0] as u64 * size;
            match usize::try_from(at).ok().and_then(|s| data.get(s..s.checked_add(size as usize)?)) {
                Some(bytes) => format.decode(bytes),
                None => format.decode(&[]),
            }
        }
        Some(View::Texture(v, data)) if compatible(x.dim, v.dimension) => {
            let uav = x.flag & 4 != 0;
            let oob = v.format.decode(&[]);
            let Some([tx, ty, tz, slice]) = texel_address(x.dim, a, if uav { [0; 3] } else { x.offs }) else {
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
fn resinfo(res: &Resources<'_>, x: &Inst, mip: u32) -> [u32; 4] {
    let uav = x.flag & 4 != 0;
    // Which of x, y, z are sizes (reciprocated by _rcpFloat).
    let sizes: [bool; 3] = match x.dim {
        ResKind::Texture1D | ResKind::Texture1DArray => [true, false, false],
        ResKind::Texture3D => [true, true, true],
        _ => [true, true, false],
    };
    let mut v = [0u32; 4];
    if let Some(View::Texture(t, _)) = view(res, x) {
        if compatible(x.dim, t.dimension) {
            let mips = if uav { 1 } else { t.mip_levels };
            v[3] = mips;
            if mip < mips {
                let (w, h, d) = t.mip_size(if uav { 0 } else { mip });
                let arr = t.array_size;
                v[..3].copy_from_slice(&match x.dim {
                    ResKind::Texture1D => [w, 0, 0],
                    ResKind::Texture1DArray => [w, arr, 0],
                    ResKind::Texture2D | ResKind::TextureCube => [w, h, 0],
                    ResKind::Texture2DArray => [w, h, arr],
                    ResKind::TextureCubeArray => [w, h, arr / 6],
                    ResKind::Texture3D => [w, h, d],
                    _ => [0, 0, 0],
                });
            }
        }
    }
    match x.b {
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

/// Selects the cube face of direction `c` (+X, -X, +Y, -Y, +Z, -Z; ties prefer Z, then
/// Y) and the face coordinates in [0, 1].
fn cube_face(c: [f32; 3]) -> (u32, f32, f32) {
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

/// One filtered lookup in mip `level`: `coords` normalized, `dims` of them used.
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
    let float = v.format.numeric_type() == NumericType::Float;
    let size = v.format.size();
    let fetch = |t: [i64; 3]| -> Option<[u32; 4]> {
        let mut a = [0u32; 3];
        for k in 0..dims {
            a[k] = address(modes[k], t[k], sizes[k] as i64)? as u32;
        }
        let o = v.texel_offset(slice, level, a[0], a[1], a[2])?;
        Some(match data.get(o..o.checked_add(size)?) {
            Some(b) => v.format.decode(b),
            None => v.format.decode(&[]),
        })
    };
    if !float {
        // Integer formats are not filtered: the nearest texel, as stored.
        let t = [0, 1, 2].map(|k| taps[k][0].0);
        return fetch(t).unwrap_or_else(|| v.format.decode(&[]));
    }
    let bc = border(v.format, sampler);
    let mut sum = [0.0f32; 4];
    for i in 0..ntaps[0] {
        for j in 0..ntaps[1] {
            for l in 0..ntaps[2] {
                let wgt = taps[0][i].1 * taps[1][j].1 * taps[2][l].1;
                let texel = match fetch([taps[0][i].0, taps[1][j].0, taps[2][l].0]) {
                    Some(t) => t.map(alu::f),
                    None => bc,
                };
                for c in 0..4 {
                    sum[c] += texel[c] * wgt;
                }
            }
        }
    }
    sum.map(alu::bits)
}

/// `sample_l`.
fn sample_l(res: &Resources<'_>, x: &Inst, addr: [u32; 4], lod: u32) -> [u32; 4] {
    let Some(View::Texture(v, data)) = view(res, x) else { return [0; 4] };
    if !compatible(x.dim, v.dimension) {
        return [0; 4];
    }
    let sampler = res.samplers.get(x.b as usize).copied().flatten().unwrap_or_default();
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
    let (dims, coords, slice) = match x.dim {
        ResKind::Texture1D => (1, [c[0], 0.0, 0.0], 0),
        ResKind::Texture1DArray => (1, [c[0], 0.0, 0.0], arr(c[1], v.array_size)),
        ResKind::Texture2D => (2, [c[0], c[1], 0.0], 0),
        ResKind::Texture2DArray => (2, [c[0], c[1], 0.0], arr(c[2], v.array_size)),
        ResKind::Texture3D => (3, [c[0], c[1], c[2]], 0),
        ResKind::TextureCube | ResKind::TextureCubeArray => {
            let (face, u, w) = cube_face([c[0], c[1], c[2]]);
            let cube = if x.dim == ResKind::TextureCubeArray { arr(c[3], v.array_size / 6) } else { 0 };
            // Simplification: the face's edges clamp (no filtering across faces).
            modes = [AddressMode::Clamp; 3];
            (2, [u, w, 0.0], cube * 6 + face)
        }
        _ => return [0; 4],
    };
    let offs = if matches!(x.dim, ResKind::TextureCube | ResKind::TextureCubeArray) { [0; 3] } else { x.offs };
    // LOD: the given value plus the bias, clamped by the sampler's MinLOD/MaxLOD.
    let mut l = alu::f(lod) + sampler.mip_lod_bias;
    if l.is_nan() {
        l = 0.0;
    }
    if l < sampler.min_lod {
        l = sampler.min_lod;
    }
    if l > sampler.max_lod {
        l = sampler.max_lod;
    }
    let l = l.clamp(-64.0, 64.0);
    let filter = if l <= 0.0 { sampler.mag } else { sampler.min };
    let last = v.mip_levels.max(1) as i64 - 1;
    let fx = (l as f64 * 256.0).round_ties_even() as i64;
    let float = v.format.numeric_type() == NumericType::Float;
    let (m0, m1, wm) = match (sampler.mip, float) {
        (Filter::Linear, true) => {
            let f = (fx >> 8).clamp(0, last);
            let c = ((fx >> 8) + 1).clamp(0, last);
            (f as u32, c as u32, if fx < 0 { 0.0 } else { (fx & 255) as f32 / 256.0 })
        }
        _ => (((fx + 128) >> 8).clamp(0, last) as u32, 0, 0.0),
    };
    let filter = if float { filter } else { Filter::Point };
    let s0 = sample_level(&v, data, dims, coords, slice, m0, filter, &sampler, modes, offs);
    if wm == 0.0 || m1 == m0 {
        return s0;
    }
    let s1 = sample_level(&v, data, dims, coords, slice, m1, filter, &sampler, modes, offs);
    [0, 1, 2, 3].map(|k| alu::bits(alu::f(s0[k]) * (1.0 - wm) + alu::f(s1[k]) * wm))
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

/// Stores and atomics (`a`, `b`, `c`: the sources); returns the value an immediate
/// atomic writes to its destination (the memory's previous value).
pub(crate) fn write(res: &mut Resources<'_>, x: &Inst, a: [u32; 4], b: [u32; 4], c: [u32; 4]) -> u32 {
    let Some(Some(u)) = res.uavs.get_mut(x.a as usize) else { return 0 };
    match x.op {
        Op::StoreRaw => {
            if let Uav::Raw { data } = u {
                let base = (a[0] & !3) as u64;
                for (k, &v) in b.iter().enumerate() {
                    if x.umask & (1 << k) != 0 {
                        put(data, base + 4 * k as u64, v);
                    }
                }
            }
            0
        }
        Op::StoreStructured => {
            if let Uav::Structured { data, stride, .. } = u {
                let stride = *stride as u64;
                let base = a[0] as u64 * stride;
                for (k, &v) in c.iter().enumerate() {
                    let o = (b[0] & !3) as u64 + 4 * k as u64;
                    if x.umask & (1 << k) != 0 && o + 4 <= stride {
                        put(data, base + o, v);
                    }
                }
            }
            0
        }
        Op::StoreUavTyped => {
            match u {
                Uav::Buffer { data, format } => {
                    let size = format.size();
                    if let Some(e) = usize::try_from(a[0] as u64 * size as u64)
                        .ok()
                        .and_then(|s| data.get_mut(s..s.checked_add(size)?))
                    {
                        format.encode(b, e);
                    }
                }
                Uav::Texture { view, data } => {
                    if let Some([tx, ty, tz, slice]) = texel_address(x.dim, a, [0; 3]) {
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
            0
        }
        Op::ImmAtomicAlloc | Op::ImmAtomicConsume => match u {
            Uav::Structured { counter, .. } => {
                if x.op == Op::ImmAtomicAlloc {
                    let old = *counter;
                    *counter = counter.wrapping_add(1);
                    old
                } else {
                    *counter = counter.wrapping_sub(1);
                    *counter
                }
            }
            _ => 0,
        },
        Op::Atomic | Op::ImmAtomic => {
            let Some(at) = atomic_at(u, x.dim, a) else { return 0 };
            let data = uav_data(u);
            let old = word(data, at as u64);
            let (v, w) = (b[0], c[0]);
            let new = match AtomicOp::from_u32(x.b) {
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
            };
            put(data, at as u64, new);
            old
        }
        _ => 0,
    }
}
