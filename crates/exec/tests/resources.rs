//! Register files and resources: constant buffers, the immediate constant buffer,
//! indexable temps and relative outputs; `ld`, `ld_raw`, `ld_structured`, `resinfo`,
//! `bufinfo` and `sample_l` (filters, address modes, mips, offsets, cubes); UAV stores,
//! loads and atomics. Exact values.

#![allow(clippy::field_reassign_with_default, clippy::too_many_arguments)]

mod common_interp;
use common_interp::*;
use exec::machine::Machine;
use exec::resources::{AddressMode, ComparisonFunc, Dimension, Filter, Sampler, Srv, TextureView, Uav};
use exec::{ExecErrorKind, Format, Resources};

const T: u32 = u32::MAX;

fn words(v: &[u32]) -> Vec<u8> {
    v.iter().flat_map(|w| w.to_le_bytes()).collect()
}

fn floats(v: &[f32]) -> Vec<u8> {
    v.iter().flat_map(|w| w.to_le_bytes()).collect()
}

fn run(text: &str, inputs: &[[u32; 4]], res: &mut Resources<'_>) -> Vec<[u32; 4]> {
    run_vs_with(text, inputs, res)
}

/// A vs_5_0 program: `decls`, outputs o0..o{n-1}, 4 inputs, 4 temps, `body`.
fn prog(decls: &str, outputs: usize, body: &str) -> String {
    let mut s = format!("vs_5_0\n{decls}\n");
    for i in 0..4 {
        s += &format!("dcl_input v{i}.xyzw\n");
    }
    for i in 0..outputs {
        s += &format!("dcl_output o{i}.xyzw\n");
    }
    s + "dcl_temps 4\n" + body + "\nret\n"
}

#[test]
fn constant_buffers() {
    let cb0 = [[1, 2, 3, 4], [5, 6, 7, 8], [9, 10, 11, 12], [13, 14, 15, 16]];
    let mut res = Resources::default();
    res.constant_buffers[0] = Some(&cb0);
    let text = prog(
        "dcl_constantbuffer cb0[4], dynamicIndexed\ndcl_constantbuffer cb1[4], immediateIndexed",
        5,
        "mov o0.xyzw, cb0[1].wzyx\nmov o1.xyzw, cb0[v0.x + 1].xyzw\nmov o2.xyzw, cb0[v0.y + 0].xyzw\nmov o3.xyzw, cb1[0].xyzw\nmov o4.xyzw, cb0[v0.z + 2].xyzw",
    );
    let o = run(&text, &[[2, 4, T, 0]], &mut res);
    assert_eq!(o[0], [8, 7, 6, 5]);
    assert_eq!(o[1], cb0[3]);
    assert_eq!(o[2], [0; 4]); // past the bound buffer
    assert_eq!(o[3], [0; 4]); // unbound
    assert_eq!(o[4], cb0[1]); // -1 + 2
                              // Shader Model 5.1: ranges name the absolute register.
    let cb3 = [[7, 7, 7, 7], [8, 8, 8, 8]];
    res.constant_buffers[3] = Some(&cb3);
    let text = "vs_5_1\ndcl_constantbuffer CB0[0:0][4], immediateIndexed, space=0\ndcl_constantbuffer CB1[3:3][2], dynamicIndexed, space=0\ndcl_input v0.xyzw\ndcl_output o0.xyzw\ndcl_output o1.xyzw\nmov o0.xyzw, CB0[0][2].xyzw\nmov o1.xyzw, CB1[3][v0.x + 0].xyzw\nret\n";
    let o = run(text, &[[1, 0, 0, 0]], &mut res);
    assert_eq!(o, vec![cb0[2], cb3[1]]);
    let e = try_plan("vs_5_1\ndcl_constantbuffer CB0[0:0][4], immediateIndexed, space=1\ndcl_output o0.xyzw\nmov o0.xyzw, CB0[0][2].xyzw\nret\n").unwrap_err();
    assert!(matches!(e.kind, ExecErrorKind::Unsupported(_)), "{e}");
}

#[test]
fn immediate_constant_buffer() {
    let text = prog(
        "dcl_immediateConstantBuffer { { 1.000000, 0, 0, 0},\n { 2.000000, 1, 0x7fffffff, -3} }",
        3,
        "mov o0.xyzw, icb[1].xyzw\nmov o1.xyzw, icb[v0.x + 0].zyxw\nmov o2.xyzw, icb[v0.y + 1].xyzw",
    );
    let o = run(&text, &[[0, 1, 0, 0]], &mut Resources::default());
    assert_eq!(o[0], [fb(2.0), 1, 0x7fff_ffff, (-3i32) as u32]);
    assert_eq!(o[1], [0, 0, fb(1.0), 0]);
    assert_eq!(o[2], [0; 4]); // index 2 of 2
}

#[test]
fn indexable_temps_and_relative_outputs() {
    let text = prog(
        "dcl_indexableTemp x0[4], 4\ndcl_indexableTemp x1[2], 4\ndcl_indexrange o1.xyzw 3",
        4,
        "mov x1[0].xyzw, l(7, 7, 7, 7)
mov x0[v0.x + 0].xyzw, l(1, 2, 3, 4)
mov x0[v0.y + 0].xyzw, l(9, 9, 9, 9)
mov o0.xyzw, x0[v0.x + 0].xyzw
mov o1.xy, x1[0].xyxx
mov o1.zw, x0[v0.y + 0].xxxy
mov o[v0.z + 1].xyzw, l(5, 6, 7, 8)
mov o[v0.w + 1].xyzw, l(1, 1, 1, 1)",
    );
    // x0[3] written; x0[4] (v0.y) is out of range: dropped, x1[0] untouched, reads 0.
    let o = run(&text, &[[3, 4, 2, 3]], &mut Resources::default());
    assert_eq!(o[0], [1, 2, 3, 4]);
    assert_eq!(o[1], [7, 7, 0, 0]);
    assert_eq!(o[3], [5, 6, 7, 8]);
    assert_eq!(o[2], [0; 4]);
    // o[3 + 1] does not exist: dropped.
    let o = run(&text, &[[0, 1, 2, 9], [0; 4]], &mut Resources::default());
    assert_eq!(o[1][2..], [9, 9]);
    assert_eq!(o[1][..2], [7, 7]);
}

fn tex2d_u32(w: u32, h: u32, mips: u32, slices: u32, value: impl Fn(u32, u32, u32, u32) -> u32) -> Vec<u8> {
    let mut v = Vec::new();
    for s in 0..slices {
        for m in 0..mips {
            let (mw, mh) = ((w >> m).max(1), (h >> m).max(1));
            for y in 0..mh {
                for x in 0..mw {
                    v.push(value(s, m, x, y));
                }
            }
        }
    }
    words(&v)
}

fn view(
    dimension: Dimension,
    format: Format,
    w: u32,
    h: u32,
    depth: u32,
    array: u32,
    mips: u32,
    data: &[u8],
) -> TextureView<'_> {
    TextureView { dimension, format, width: w, height: h, depth, array_size: array, mip_levels: mips, data }
}

#[test]
fn ld_buffers() {
    let f32x4 = floats(&[1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0]);
    let unorm = [0u8, 128, 255, 51];
    let r32 = words(&[1, 0x8000_0001]); // a denormal stays a denormal
    let mut res = Resources::default();
    res.srvs = vec![
        Some(Srv::Buffer { data: &f32x4, format: Format::R32G32B32A32_FLOAT }),
        Some(Srv::Buffer { data: &unorm, format: Format::R8G8B8A8_UNORM }),
        Some(Srv::Buffer { data: &r32, format: Format::R32_FLOAT }),
    ];
    let text = prog(
        "dcl_resource_buffer (float,float,float,float) t0\ndcl_resource_buffer (float,float,float,float) t1\ndcl_resource_buffer (float,float,float,float) t2\ndcl_resource_buffer (float,float,float,float) t3",
        6,
        "ld_indexable(buffer)(float,float,float,float) o0.xyzw, v0.xxxx, t0.wzyx
ld_indexable(buffer)(float,float,float,float) o1.xyzw, v0.yyyy, t0.xyzw
ld_indexable(buffer)(float,float,float,float) o2.xyzw, l(0, 0, 0, 0), t1.xyzw
ld_indexable(buffer)(float,float,float,float) o3.xyzw, v0.xxxx, t2.xyzw
ld_indexable(buffer)(float,float,float,float) o4.xyzw, v0.yyyy, t2.xyzw
ld_indexable(buffer)(float,float,float,float) o5.xyzw, l(0, 0, 0, 0), t3.xyzw",
    );
    let o = run(&text, &[[1, 2, 0, 0]], &mut res);
    assert_eq!(o[0], f4([8.0, 7.0, 6.0, 5.0]));
    assert_eq!(o[1], [0; 4]); // out of range, all four components stored
    assert_eq!(o[2], f4([0.0, 128.0 / 255.0, 1.0, 51.0 / 255.0]));
    assert_eq!(o[3], [0x8000_0001, 0, 0, fb(1.0)]); // not flushed; defaults for missing
    assert_eq!(o[4], [0, 0, 0, fb(1.0)]); // out of range: 0 and the defaults
    assert_eq!(o[5], [0; 4]); // unbound
}

#[test]
fn ld_textures_with_mips_offsets_and_arrays() {
    let data = tex2d_u32(4, 4, 3, 2, |s, m, x, y| s * 1000 + m * 100 + y * 10 + x + 1);
    let mut res = Resources::default();
    res.srvs = vec![
        Some(Srv::Texture(view(Dimension::Texture2D, Format::R32_UINT, 4, 4, 1, 1, 3, &data))),
        Some(Srv::Texture(view(Dimension::Texture2DArray, Format::R32_UINT, 4, 4, 1, 2, 3, &data))),
    ];
    let text = prog(
        "dcl_resource_texture2d (uint,uint,uint,uint) t0\ndcl_resource_texture2darray (uint,uint,uint,uint) t1",
        5,
        "ld_indexable(texture2d)(uint,uint,uint,uint) o0.xyzw, v0.xyzw, t0.xyzw
ld_indexable(texture2d)(uint,uint,uint,uint) o1.xyzw, v1.xyzw, t0.xyzw
ld_aoffimmi_indexable(1,-1,0)(texture2d)(uint,uint,uint,uint) o2.xyzw, v0.xyzw, t0.xyzw
ld_indexable(texture2darray)(uint,uint,uint,uint) o3.xyzw, v2.xyzw, t1.xyzw
ld_indexable(texture2d)(uint,uint,uint,uint) o4.xyzw, v3.xyzw, t0.xyzw",
    );
    let o = run(&text, &[[0, 1, 0, 1], [3, 2, 7, 0], [0, 0, 1, 2], [4, 0, 0, 0]], &mut res);
    assert_eq!(o[0], [111, 0, 0, 1]); // mip 1, (0, 1); R32_UINT: missing components 0, 0, 1
    assert_eq!(o[1], [24, 0, 0, 1]); // z ignored
    assert_eq!(o[2], [102, 0, 0, 1]); // mip 1, (0+1, 1-1)
    assert_eq!(o[3], [1201, 0, 0, 1]); // slice 1, mip 2
    assert_eq!(o[4], [0, 0, 0, 1]); // x = 4 out of range
    let o = run(&text, &[[0, 0, 0, 3], [0, 0, 0, 0], [0, 0, 2, 0], [0, 0, 0, 0]], &mut res);
    assert_eq!(o[1], [1, 0, 0, 1]);
    assert_eq!(o[0], [0, 0, 0, 1]); // mip 3 does not exist
    assert_eq!(o[2], [0, 0, 0, 1]); // offset -1 wraps to a huge address
    assert_eq!(o[3], [0, 0, 0, 1]); // slice 2 does not exist
}

#[test]
fn ld_texture_1d_and_3d() {
    let d1 = words(&[10, 11, 12, 13, 20, 21]); // 4 texels, mip 1: 2 texels
    let d3: Vec<u8> = words(&(0..8).collect::<Vec<u32>>()); // 2x2x2
    let mut res = Resources::default();
    res.srvs = vec![
        Some(Srv::Texture(view(Dimension::Texture1D, Format::R32_UINT, 4, 1, 1, 1, 2, &d1))),
        Some(Srv::Texture(view(Dimension::Texture3D, Format::R32_UINT, 2, 2, 2, 1, 1, &d3))),
        Some(Srv::Texture(view(Dimension::Texture2D, Format::R32_UINT, 2, 2, 1, 1, 1, &d3))),
    ];
    let text = prog(
        "dcl_resource_texture1d (uint,uint,uint,uint) t0\ndcl_resource_texture3d (uint,uint,uint,uint) t1\ndcl_resource_texture3d (uint,uint,uint,uint) t2",
        3,
        "ld_indexable(texture1d)(uint,uint,uint,uint) o0.xyzw, v0.xyzw, t0.xyzw
ld_indexable(texture3d)(uint,uint,uint,uint) o1.xyzw, v1.xyzw, t1.xyzw
ld_indexable(texture3d)(uint,uint,uint,uint) o2.xyzw, v1.xyzw, t2.xyzw",
    );
    let o = run(&text, &[[1, 9, 9, 1], [1, 0, 1, 0]], &mut res);
    assert_eq!(o[0][0], 21); // y, z ignored for 1D
    assert_eq!(o[1][0], 5); // (1, 0, 1)
    assert_eq!(o[2], [0; 4]); // declared 3D, bound 2D: mismatch reads 0
}

#[test]
fn raw_and_structured_loads() {
    let raw = words(&[10, 11, 12, 13, 14]);
    let st = words(&(0..12).map(|x| 100 + x).collect::<Vec<u32>>()); // 3 elements of 16 bytes
    let mut uraw = words(&[20, 21, 22]);
    let mut ust = words(&[30, 31, 32, 33, 34, 35, 36, 37]); // 2 elements of 16 bytes
    let mut res = Resources::default();
    res.srvs = vec![Some(Srv::Raw { data: &raw }), Some(Srv::Structured { data: &st, stride: 16 })];
    res.uavs =
        vec![Some(Uav::Raw { data: &mut uraw }), Some(Uav::Structured { data: &mut ust, stride: 16, counter: 0 })];
    let text = prog(
        "dcl_resource_raw t0\ndcl_resource_structured t1, 16\ndcl_uav_raw u0\ndcl_uav_structured u1, 16",
        6,
        "ld_raw_indexable(raw_buffer)(mixed,mixed,mixed,mixed) o0.xyzw, l(4), t0.xyzw
ld_raw_indexable(raw_buffer)(mixed,mixed,mixed,mixed) o1.xyzw, v0.x, t0.wzyx
ld_structured_indexable(structured_buffer, stride=16)(mixed,mixed,mixed,mixed) o2.xyzw, l(1), l(4), t1.xyzw
ld_structured_indexable(structured_buffer, stride=16)(mixed,mixed,mixed,mixed) o3.xyzw, l(3), l(0), t1.xyzw
ld_raw_indexable(raw_buffer)(mixed,mixed,mixed,mixed) o4.xyzw, l(4), u0.xyzw
ld_structured_indexable(structured_buffer, stride=16)(mixed,mixed,mixed,mixed) o5.xy, l(1), l(8), u1.xyxx",
    );
    let o = run(&text, &[[12, 0, 0, 0]], &mut res);
    assert_eq!(o[0], [11, 12, 13, 14]);
    assert_eq!(o[1], [0, 0, 14, 13]); // words 3, 4, (5, 6 past the end)
    assert_eq!(o[2], [105, 106, 107, 0]); // the 4th word is past the structure
    assert_eq!(o[3], [0; 4]); // element 3 of 3
    assert_eq!(o[4], [21, 22, 0, 0]);
    assert_eq!(o[5], [36, 37, 0, 0]);
}

#[test]
fn resinfo_and_bufinfo() {
    let data = tex2d_u32(4, 4, 3, 2, |_, _, _, _| 0);
    let buf = vec![0u8; 40];
    let mut res = Resources::default();
    res.srvs = vec![
        Some(Srv::Texture(view(Dimension::Texture2D, Format::R32_UINT, 4, 4, 1, 1, 3, &data))),
        Some(Srv::Texture(view(Dimension::Texture2DArray, Format::R32_UINT, 4, 4, 1, 2, 3, &data))),
        Some(Srv::Buffer { data: &buf, format: Format::R32G32_FLOAT }),
        Some(Srv::Raw { data: &buf }),
        Some(Srv::Structured { data: &buf, stride: 12 }),
    ];
    let text = prog(
        "dcl_resource_texture2d (float,float,float,float) t0\ndcl_resource_texture2darray (float,float,float,float) t1\ndcl_resource_buffer (float,float,float,float) t2\ndcl_resource_raw t3\ndcl_resource_structured t4, 12\ndcl_resource_texture3d (float,float,float,float) t5",
        8,
        "resinfo_indexable(texture2d)(float,float,float,float)_uint o0.xyzw, v0.x, t0.xyzw
resinfo_indexable(texture2d)(float,float,float,float) o1.xyzw, v0.x, t0.xyzw
resinfo_indexable(texture2d)(float,float,float,float)_rcpFloat o2.xyzw, v0.y, t0.xyzw
resinfo_indexable(texture2darray)(float,float,float,float)_uint o3.xyzw, l(0), t1.wzyx
resinfo_indexable(texture3d)(float,float,float,float)_rcpFloat o4.xyzw, l(0), t5.xyzw
bufinfo o5.xyzw, t2.xyzw
bufinfo o6.xyzw, t3.xyzw
bufinfo o7.xyzw, t4.xyzw",
    );
    let o = run(&text, &[[1, 5, 0, 0]], &mut res);
    assert_eq!(o[0], [2, 2, 0, 3]);
    assert_eq!(o[1], f4([2.0, 2.0, 0.0, 3.0]));
    assert_eq!(o[2], [fb(f32::INFINITY), fb(f32::INFINITY), 0, fb(3.0)]); // mip 5 of 3
    assert_eq!(o[3], [3, 2, 4, 4]); // swizzled .wzyx: mips, array size, height, width
    assert_eq!(o[4], [fb(f32::INFINITY), fb(f32::INFINITY), fb(f32::INFINITY), 0]); // unbound
    assert_eq!(o[5], [5; 4]);
    assert_eq!(o[6], [40; 4]);
    assert_eq!(o[7], [3; 4]);
    let o = run(&text, &[[0, 0, 0, 0]], &mut res);
    assert_eq!(o[2], f4([0.25, 0.25, 0.0, 3.0]));
}

/// A 4x4 R32_FLOAT texture (texel x + 10y) with a 2x2 mip (100 + x + 10y) and a 1x1 one.
fn grid() -> Vec<u8> {
    let mut v = Vec::new();
    for y in 0..4 {
        for x in 0..4 {
            v.push((x + 10 * y) as f32);
        }
    }
    for y in 0..2 {
        for x in 0..2 {
            v.push((100 + x + 10 * y) as f32);
        }
    }
    v.push(200.0);
    floats(&v)
}

fn sampler(min: Filter, mag: Filter, mip: Filter, address: AddressMode) -> Sampler {
    Sampler { min, mag, mip, address: [address; 3], ..Sampler::default() }
}

const SAMPLE: &str = "sample_l_indexable(texture2d)(float,float,float,float) o0.xyzw, v0.xyxx, t0.xyzw, s0, v1.x";

fn sample(s: Sampler, uv: [f32; 2], lod: f32) -> [u32; 4] {
    let data = grid();
    let mut res = Resources::default();
    res.srvs = vec![Some(Srv::Texture(view(Dimension::Texture2D, Format::R32_FLOAT, 4, 4, 1, 1, 3, &data)))];
    res.samplers[0] = Some(s);
    let text = prog("dcl_sampler s0, mode_default\ndcl_resource_texture2d (float,float,float,float) t0", 1, SAMPLE);
    run(&text, &[f4([uv[0], uv[1], 0.0, 0.0]), f4([lod; 4])], &mut res)[0]
}

fn r(x: f32) -> [u32; 4] {
    f4([x, 0.0, 0.0, 1.0])
}

#[test]
fn sample_l_point_and_linear() {
    use AddressMode::*;
    use Filter::*;
    let point = sampler(Point, Point, Point, Clamp);
    assert_eq!(sample(point, [0.3, 0.6], 0.0), r(21.0));
    assert_eq!(sample(point, [0.0, 0.0], 0.0), r(0.0));
    assert_eq!(sample(point, [0.999, 0.999], 0.0), r(33.0));
    let linear = sampler(Linear, Linear, Point, Clamp);
    assert_eq!(sample(linear, [0.5, 0.5], 0.0), r(16.5)); // the four middle texels
    assert_eq!(sample(linear, [0.375, 0.5], 0.0), r(16.0)); // u exactly on texel 1's centre
    assert_eq!(sample(linear, [0.0, 0.0], 0.0), r(0.0)); // clamped: texel 0 both sides
    assert_eq!(sample(linear, [0.3125, 0.125], 0.0), r(0.75)); // u weight 0.75 between 0 and 1
}

#[test]
fn sample_l_address_modes() {
    use AddressMode::*;
    use Filter::*;
    let s = |a| sampler(Point, Point, Point, a);
    // u = 1.3: texel 5 of 4.
    assert_eq!(sample(s(Wrap), [1.3, 0.1], 0.0), r(1.0));
    assert_eq!(sample(s(Mirror), [1.3, 0.1], 0.0), r(2.0));
    assert_eq!(sample(s(Clamp), [1.3, 0.1], 0.0), r(3.0));
    assert_eq!(sample(s(MirrorOnce), [-0.3, 0.1], 0.0), r(1.0));
    assert_eq!(sample(s(Wrap), [-0.1, 0.1], 0.0), r(3.0));
    let mut b = s(Border);
    b.border_color = [0.5, 0.25, 0.125, 0.75];
    // R32_FLOAT has only red: the border's red, then the defaults.
    assert_eq!(sample(b, [1.3, 0.1], 0.0), r(0.5));
    assert_eq!(sample(b, [0.3, 0.1], 0.0), r(1.0));
    // Linear across the border: half texel 3, half border.
    let mut lb = sampler(Linear, Linear, Point, Border);
    lb.border_color = [100.0, 0.0, 0.0, 0.0];
    assert_eq!(sample(lb, [1.0, 0.125], 0.0), r((3.0 + 100.0) / 2.0));
}

#[test]
fn sample_l_mips_and_lod() {
    use AddressMode::*;
    use Filter::*;
    let point = sampler(Point, Point, Point, Clamp);
    assert_eq!(sample(point, [0.3, 0.6], 1.0), r(110.0));
    assert_eq!(sample(point, [0.3, 0.6], 0.4), r(21.0)); // nearest mip: 0
    assert_eq!(sample(point, [0.3, 0.6], 0.6), r(110.0)); // nearest mip: 1
    assert_eq!(sample(point, [0.3, 0.6], 7.0), r(200.0)); // clamped to the last mip
    assert_eq!(sample(point, [0.3, 0.6], -3.0), r(21.0));
    // Linear between mips (point within each).
    let mip = sampler(Point, Point, Linear, Clamp);
    assert_eq!(sample(mip, [0.3, 0.6], 0.5), r(0.5 * 21.0 + 0.5 * 110.0));
    assert_eq!(sample(mip, [0.3, 0.6], 1.25), r(0.75 * 110.0 + 0.25 * 200.0));
    // LOD <= 0 magnifies, above minifies.
    let mag_linear = sampler(Point, Linear, Point, Clamp);
    assert_eq!(sample(mag_linear, [0.5, 0.5], 0.0), r(16.5));
    assert_eq!(sample(mag_linear, [0.5, 0.5], 0.25), r(22.0));
    // Bias and MinLOD/MaxLOD.
    let mut biased = point;
    biased.mip_lod_bias = 1.0;
    assert_eq!(sample(biased, [0.3, 0.6], 0.0), r(110.0));
    let mut clamped = point;
    clamped.max_lod = 0.0;
    assert_eq!(sample(clamped, [0.3, 0.6], 2.0), r(21.0));
    clamped.max_lod = f32::MAX;
    clamped.min_lod = 2.0;
    assert_eq!(sample(clamped, [0.3, 0.6], 0.0), r(200.0));
}

#[test]
fn sample_l_offsets_formats_arrays_and_unbound() {
    use AddressMode::*;
    use Filter::*;
    let data = grid();
    let unorm = [0u8, 0, 0, 0, 255, 255, 255, 255];
    let slices = floats(&[1.0, 2.0, 3.0]); // three 1x1 slices
    let ints = words(&[5, 6]);
    let mut res = Resources::default();
    res.srvs = vec![
        Some(Srv::Texture(view(Dimension::Texture2D, Format::R32_FLOAT, 4, 4, 1, 1, 3, &data))),
        Some(Srv::Texture(view(Dimension::Texture1D, Format::R8G8B8A8_UNORM, 2, 1, 1, 1, 1, &unorm))),
        Some(Srv::Texture(view(Dimension::Texture2DArray, Format::R32_FLOAT, 1, 1, 1, 3, 1, &slices))),
        Some(Srv::Texture(view(Dimension::Texture1D, Format::R32_UINT, 2, 1, 1, 1, 1, &ints))),
    ];
    res.samplers[0] = Some(sampler(Point, Point, Point, Clamp));
    res.samplers[1] = Some(sampler(Linear, Linear, Linear, Clamp));
    let text = prog(
        "dcl_sampler s0, mode_default\ndcl_sampler s1, mode_default\ndcl_resource_texture2d (float,float,float,float) t0\ndcl_resource_texture1d (float,float,float,float) t1\ndcl_resource_texture2darray (float,float,float,float) t2\ndcl_resource_texture1d (uint,uint,uint,uint) t3\ndcl_resource_texture2d (float,float,float,float) t4",
        6,
        "sample_l_aoffimmi_indexable(1,0,0)(texture2d)(float,float,float,float) o0.xyzw, v0.xyxx, t0.xyzw, s0, l(0.000000)
sample_l_indexable(texture1d)(float,float,float,float) o1.xyzw, l(0.500000, 0, 0, 0), t1.xyzw, s1, l(0.000000)
sample_l_indexable(texture2darray)(float,float,float,float) o2.xyzw, v1.xyzx, t2.xyzw, s0, l(0.000000)
sample_l_indexable(texture2darray)(float,float,float,float) o3.xyzw, v2.xyzx, t2.xyzw, s0, l(0.000000)
sample_l_indexable(texture1d)(uint,uint,uint,uint) o4.xyzw, l(0.900000, 0, 0, 0), t3.xyzw, s1, l(0.000000)
sample_l_indexable(texture2d)(float,float,float,float) o5.xyzw, v0.xyxx, t4.xyzw, s0, l(0.000000)",
    );
    let o = run(&text, &[f4([0.3, 0.6, 0.0, 0.0]), f4([0.5, 0.5, 1.4, 0.0]), f4([0.5, 0.5, 7.0, 0.0])], &mut res);
    assert_eq!(o[0], r(22.0)); // texel (1 + 1, 2)
    assert_eq!(o[1], f4([0.5; 4])); // halfway between 0 and 1.0 (unorm 255)
    assert_eq!(o[2], r(2.0)); // slice round(1.4) = 1
    assert_eq!(o[3], r(3.0)); // slice clamped to 2
    assert_eq!(o[4], [6, 0, 0, 1]); // integer formats are not filtered
    assert_eq!(o[5], [0; 4]); // unbound
}

#[test]
fn sample_l_cube() {
    use AddressMode::*;
    use Filter::*;
    // Six 2x2 faces: face * 10 + y * 2 + x.
    let v: Vec<f32> = (0..6).flat_map(|f| (0..4).map(move |t| (f * 10 + t) as f32)).collect();
    let data = floats(&v);
    let mut res = Resources::default();
    res.srvs = vec![Some(Srv::Texture(view(Dimension::TextureCube, Format::R32_FLOAT, 2, 2, 1, 6, 1, &data)))];
    res.samplers[0] = Some(sampler(Point, Point, Point, Clamp));
    let text = prog(
        "dcl_sampler s0, mode_default\ndcl_resource_texturecube (float,float,float,float) t0",
        1,
        "sample_l_indexable(texturecube)(float,float,float,float) o0.xyzw, v0.xyzx, t0.xyzw, s0, l(0.000000)",
    );
    let p = plan(&text);
    let mut m = Machine::new(&p);
    let mut at = |d: [f32; 3]| m.run_vertex(&p, &[f4([d[0], d[1], d[2], 0.0])], &mut res).unwrap()[0];
    assert_eq!(at([1.0, 0.5, -0.25]), r(1.0)); // +X: (u, v) = (0.625, 0.25)
    assert_eq!(at([-1.0, 0.5, -0.25]), r(10.0)); // -X: (0.375, 0.25)
    assert_eq!(at([0.0, -1.0, 0.5]), r(31.0)); // -Y: (0.5, 0.25)
    assert_eq!(at([0.2, 0.3, -0.9]), r(50.0)); // -Z
    assert_eq!(at([0.5, 0.5, 0.5]), r(41.0)); // a tie picks Z: +Z (1.0, 0.0), clamped
}

#[test]
fn uav_stores_and_loads() {
    let mut raw = vec![0u8; 16];
    let mut st = vec![0u8; 32]; // 2 elements of 16 bytes
    let mut typed = vec![0u8; 8]; // 2 elements of R8G8B8A8_UNORM
    let mut tex = vec![0u8; 16]; // 2x2 R32_FLOAT
    let tex_view = view(Dimension::Texture2D, Format::R32_FLOAT, 2, 2, 1, 1, 1, &[]);
    {
        let mut res = Resources::default();
        res.uavs = vec![
            Some(Uav::Raw { data: &mut raw }),
            Some(Uav::Structured { data: &mut st, stride: 16, counter: 0 }),
            Some(Uav::Buffer { data: &mut typed, format: Format::R8G8B8A8_UNORM }),
            Some(Uav::Texture { view: tex_view, data: &mut tex }),
        ];
        let text = prog(
            "dcl_uav_raw u0\ndcl_uav_structured u1, 16\ndcl_uav_typed_buffer (float,float,float,float) u2\ndcl_uav_typed_texture2d (float,float,float,float) u3",
            3,
            "store_raw u0.xy, l(4), l(7, 8, 9, 10)
store_raw u0.xyzw, l(12), l(1, 2, 3, 4)
store_structured u1.xyz, l(1), l(4), l(5, 6, 7, 8)
store_structured u1.xyzw, l(2), l(0), l(9, 9, 9, 9)
store_uav_typed u2.xyzw, l(1, 0, 0, 0), l(1.000000, 0.500000, 0.000000, 2.000000)
store_uav_typed u2.xyzw, l(2, 0, 0, 0), l(1.000000, 1.000000, 1.000000, 1.000000)
store_uav_typed u3.xyzw, l(1, 1, 0, 0), l(3.500000, 0, 0, 0)
store_uav_typed u3.xyzw, l(2, 0, 0, 0), l(9.000000, 0, 0, 0)
ld_uav_typed_indexable(texture2d)(float,float,float,float) o0.xyzw, l(1, 1, 0, 0), u3.xyzw
ld_uav_typed_indexable(buffer)(float,float,float,float) o1.xyzw, l(1, 0, 0, 0), u2.xyzw
ld_raw_indexable(raw_buffer)(mixed,mixed,mixed,mixed) o2.xyzw, l(4), u0.xyzw",
        );
        let o = run(&text, &[], &mut res);
        assert_eq!(o[0], f4([3.5, 0.0, 0.0, 1.0]));
        assert_eq!(o[1], f4([1.0, 128.0 / 255.0, 0.0, 1.0]));
        assert_eq!(o[2], [7, 8, 1, 0]); // the store at 12 wrote its one word in bounds
    }
    assert_eq!(raw, words(&[0, 7, 8, 1]));
    assert_eq!(st, words(&[0, 0, 0, 0, 0, 5, 6, 7]));
    assert_eq!(typed, [0, 0, 0, 0, 255, 128, 0, 255]);
    assert_eq!(tex, floats(&[0.0, 0.0, 0.0, 3.5]));
}

#[test]
fn atomics() {
    let mut raw = words(&[10, 0xf0, 0xf0, 0xf0, 5, 5, (-5i32) as u32, 5, 7, 0]);
    let mut st = words(&[0, 0, 0, 0, 0, 0, 100, 0]); // 2 elements of 16 bytes
    let mut typed = words(&[1, 2]);
    {
        let mut res = Resources::default();
        res.uavs = vec![
            Some(Uav::Raw { data: &mut raw }),
            Some(Uav::Structured { data: &mut st, stride: 16, counter: 7 }),
            Some(Uav::Buffer { data: &mut typed, format: Format::R32_UINT }),
        ];
        let text = prog(
            "dcl_uav_raw u0\ndcl_uav_structured u1, 16\ndcl_uav_typed_buffer (uint,uint,uint,uint) u2",
            8,
            "atomic_iadd u0, l(0), l(5)
atomic_and u0, l(4), l(0x3c)
atomic_or u0, l(8), l(0x0f)
atomic_xor u0, l(12), l(0xff)
atomic_imax u0, l(16), l(-3)
atomic_umax u0, l(20), l(-3)
atomic_imin u0, l(24), l(-7)
atomic_umin u0, l(28), l(3)
atomic_cmp_store u0, l(32), l(7), l(70)
atomic_cmp_store u0, l(36), l(1), l(70)
atomic_iadd u0, l(40), l(1)
imm_atomic_iadd o0.x, u0, l(0), l(1)
imm_atomic_exch o0.y, u0, l(0), l(50)
imm_atomic_cmp_exch o0.z, u0, l(0), l(50), l(60)
imm_atomic_cmp_exch o0.w, u0, l(0), l(50), l(70)
imm_atomic_umax o1.x, u0, l(4), l(0x100)
imm_atomic_imin o1.y, u0, l(4), l(-1)
imm_atomic_and o1.z, u0, l(4), l(0)
imm_atomic_or o1.w, u0, l(4), l(6)
imm_atomic_xor o2.x, u0, l(4), l(3)
imm_atomic_imax o2.y, u0, l(4), l(9)
imm_atomic_umin o2.z, u0, l(4), l(8)
imm_atomic_iadd o2.w, u0, l(4000), l(1)
imm_atomic_iadd o3.x, u1, l(1, 8, 0, 0), l(1)
atomic_iadd u1, l(1, 16, 0, 0), l(1)
imm_atomic_alloc o4.x, u1
imm_atomic_alloc o4.y, u1
imm_atomic_consume o4.z, u1
imm_atomic_iadd o5.xy, u2, l(1, 0, 0, 0), l(40)",
        );
        let o = run(&text, &[], &mut res);
        assert_eq!(o[0], [15, 16, 50, 60]);
        assert_eq!(o[1], [0x30, 0x100, (-1i32) as u32, 0]);
        assert_eq!(o[2], [6, 5, 9, 0]); // the last one out of range
        assert_eq!(o[3][0], 100);
        assert_eq!(o[4][..3], [7, 8, 8]);
        assert_eq!(o[5], [2, 2, 0, 0]);
        assert_eq!(o[6], [0; 4]);
    }
    let want = [60, 8, 0xff, 0x0f, 5, (-3i32) as u32, (-7i32) as u32, 3, 70, 0];
    assert_eq!(raw, words(&want));
    assert_eq!(st, words(&[0, 0, 0, 0, 0, 0, 101, 0]));
    assert_eq!(typed, words(&[1, 42]));
}

#[test]
fn unbound_uavs_and_resources_are_harmless() {
    let text = prog(
        "dcl_uav_raw u0\ndcl_uav_structured u1, 4\ndcl_resource_raw t0",
        2,
        "store_raw u0.xyzw, l(0), l(1, 2, 3, 4)\nimm_atomic_iadd o0.x, u0, l(0), l(1)\nimm_atomic_alloc o0.y, u1\nld_raw_indexable(raw_buffer)(mixed,mixed,mixed,mixed) o1.xyzw, l(0), t0.xyzw",
    );
    let o = run(&text, &[], &mut Resources::default());
    assert_eq!(o, vec![[0; 4], [0; 4]]);
}

/// Every resource instruction against random (often inconsistent) bindings — huge
/// texture sizes over tiny memory, zero strides, no mips, the wrong kind of view — at
/// random addresses: results are whatever they are, but nothing panics.
#[test]
fn random_bindings_never_panic() {
    let mut rng = corpus::Rng(0x0dd_ba11_5eed);
    let text = prog(
        "dcl_sampler s0, mode_default
dcl_resource_buffer (float,float,float,float) t0
dcl_resource_texture2d (float,float,float,float) t1
dcl_resource_texture2darray (uint,uint,uint,uint) t2
dcl_resource_texture3d (float,float,float,float) t3
dcl_resource_texturecube (float,float,float,float) t4
dcl_resource_raw t5
dcl_resource_structured t6, 12
dcl_resource_texture1darray (float,float,float,float) t7
dcl_resource_texture2dms(4) (float,float,float,float) t8
dcl_resource_texture2dmsarray(2) (uint,uint,uint,uint) t9
dcl_uav_raw u0
dcl_uav_structured u1, 8
dcl_uav_typed_buffer (uint,uint,uint,uint) u2
dcl_uav_typed_texture2d (float,float,float,float) u3",
        8,
        "ld_indexable(buffer)(float,float,float,float) o0.xyzw, v0.xyzw, t0.xyzw
ld_indexable(texture2d)(float,float,float,float) o1.xyzw, v0.xyzw, t1.xyzw
ld_indexable(texture2darray)(uint,uint,uint,uint) o1.xyzw, v0.xyzw, t2.xyzw
ld_indexable(texture3d)(float,float,float,float) o1.xyzw, v0.xyzw, t3.xyzw
sample_l_indexable(texture2d)(float,float,float,float) o2.xyzw, v1.xyzw, t1.xyzw, s0, v2.x
sample_l_indexable(texture2darray)(uint,uint,uint,uint) o2.xyzw, v1.xyzw, t2.xyzw, s0, v2.y
sample_l_indexable(texture3d)(float,float,float,float) o2.xyzw, v1.xyzw, t3.xyzw, s0, v2.z
sample_l_indexable(texturecube)(float,float,float,float) o2.xyzw, v1.xyzw, t4.xyzw, s0, v2.w
sample_l_indexable(texture1darray)(float,float,float,float) o2.xyzw, v1.xyzw, t7.xyzw, s0, v2.w
sample_c_lz o2.xyzw, v1.xyzw, t1.xxxx, s0, v2.x
sample_c_lz o2.xyzw, v1.xyzw, t4.xxxx, s0, v2.y
sample_d o2.xyzw, v1.xyzw, t1.xyzw, s0, v2.xyzw, v3.xyzw
sample_d o2.xyzw, v1.xyzw, t3.xyzw, s0, v2.xyzw, v3.xyzw
sample_d o2.xyzw, v1.xyzw, t4.xyzw, s0, v2.xyzw, v3.xyzw
gather4 o2.xyzw, v1.xyzw, t1.xyzw, s0.w
gather4 o2.xyzw, v1.xyzw, t4.xyzw, s0.y
gather4_c o2.xyzw, v1.xyzw, t2.xyzw, s0.x, v2.z
gather4_po o2.xyzw, v1.xyzw, v3.xyzw, t1.xyzw, s0.z
gather4_po_c o2.xyzw, v1.xyzw, v3.xyzw, t1.xyzw, s0.x, v0.x
ldms o2.xyzw, v0.xyzw, t8.xyzw, v1.x
ldms o2.xyzw, v0.xyzw, t9.xyzw, v1.y
sampleinfo o2.x, t8.x
sampleinfo_uint o2.y, t9.x
samplepos o2.zw, t8.xxxy, v0.z
samplepos o2.zw, t1.xxxy, v0.z
resinfo_indexable(texture2dms)(float,float,float,float)_uint o3.xyzw, v0.x, t8.xyzw
resinfo_indexable(texture2d)(float,float,float,float)_rcpFloat o3.xyzw, v0.x, t1.xyzw
resinfo_indexable(texture3d)(float,float,float,float) o3.xyzw, v0.y, t3.xyzw
resinfo_indexable(texturecube)(float,float,float,float)_uint o3.xyzw, v0.z, t4.xyzw
bufinfo o4.x, t0.xxxx
bufinfo o4.y, t5.xxxx
bufinfo o4.z, t6.xxxx
bufinfo o4.w, u1.xxxx
ld_raw_indexable(raw_buffer)(mixed,mixed,mixed,mixed) o5.xyzw, v0.x, t5.xyzw
ld_structured_indexable(structured_buffer, stride=12)(mixed,mixed,mixed,mixed) o5.xyzw, v0.y, v0.z, t6.xyzw
store_raw u0.xyzw, v0.x, v1.xyzw
store_structured u1.xy, v0.y, v0.z, v1.xyzw
store_uav_typed u2.xyzw, v0.xyzw, v1.xyzw
store_uav_typed u3.xyzw, v0.xyzw, v1.xyzw
ld_uav_typed_indexable(texture2d)(float,float,float,float) o6.xyzw, v0.xyzw, u3.xyzw
ld_raw_indexable(raw_buffer)(mixed,mixed,mixed,mixed) o6.xyzw, v0.w, u0.xyzw
imm_atomic_iadd o7.x, u0, v0.x, l(1)
imm_atomic_cmp_exch o7.y, u1, v0.yzyy, v1.x, v1.y
imm_atomic_umax o7.z, u2, v0.xyzw, v1.z
atomic_or u3, v0.xyzw, v1.w
imm_atomic_alloc o7.w, u1
imm_atomic_consume o7.w, u1",
    );
    let p = plan(&text);
    let mut m = Machine::new(&p);
    let pick = |rng: &mut corpus::Rng, v: &[u32]| v[rng.below(v.len())];
    let formats = [
        Format::R32G32B32A32_FLOAT,
        Format::R8G8B8A8_UNORM,
        Format::R32_UINT,
        Format::R16G16_FLOAT,
        Format::R11G11B10_FLOAT,
    ];
    let dims = [
        Dimension::Texture2DMS { samples: 4 },
        Dimension::Texture2DMSArray { samples: u32::MAX },
        Dimension::Texture2DMS { samples: 0 },
        Dimension::Buffer,
        Dimension::Texture1D,
        Dimension::Texture1DArray,
        Dimension::Texture2D,
        Dimension::Texture2DArray,
        Dimension::Texture3D,
        Dimension::TextureCube,
    ];
    let sizes = [0, 1, 2, 3, 7, 64, 0x7fff_ffff, u32::MAX];
    for _ in 0..3000 {
        let mem: Vec<Vec<u8>> = (0..10).map(|_| (0..rng.below(200)).map(|_| rng.next_u64() as u8).collect()).collect();
        let mut umem: Vec<Vec<u8>> =
            (0..4).map(|_| (0..rng.below(200)).map(|_| rng.next_u64() as u8).collect()).collect();
        let mut views = Vec::new();
        for _ in 0..10 {
            views.push(TextureView {
                dimension: dims[rng.below(dims.len())],
                format: formats[rng.below(formats.len())],
                width: pick(&mut rng, &sizes),
                height: pick(&mut rng, &sizes),
                depth: pick(&mut rng, &sizes),
                array_size: pick(&mut rng, &sizes),
                mip_levels: pick(&mut rng, &[0, 1, 3, 40, u32::MAX]),
                data: &[],
            });
        }
        let mut res = Resources::default();
        for (k, data) in mem.iter().enumerate() {
            let f = formats[rng.below(formats.len())];
            res.srvs.push(Some(match rng.below(4) {
                0 => Srv::Buffer { data, format: f },
                1 => Srv::Raw { data },
                2 => Srv::Structured { data, stride: pick(&mut rng, &[0, 4, 12, 13, u32::MAX]) },
                _ => Srv::Texture(TextureView { data, ..views[k] }),
            }));
        }
        for (data, view) in umem.iter_mut().zip(&views) {
            let f = formats[rng.below(formats.len())];
            res.uavs.push(Some(match rng.below(4) {
                0 => Uav::Buffer { data, format: f },
                1 => Uav::Raw { data },
                2 => Uav::Structured {
                    data,
                    stride: pick(&mut rng, &[0, 4, 8, 13, u32::MAX]),
                    counter: rng.next_u64() as u32,
                },
                _ => Uav::Texture { view: *view, data },
            }));
        }
        let addr = [0, 1, 5, 63, 0x7fff_ffff, 0x8000_0000, u32::MAX, 0x3f80_0000, 0x7fc0_0000, 0xff80_0000];
        res.samplers[0] = Some(Sampler {
            min: if rng.below(2) == 0 { Filter::Point } else { Filter::Linear },
            mag: if rng.below(2) == 0 { Filter::Point } else { Filter::Linear },
            mip: if rng.below(2) == 0 { Filter::Point } else { Filter::Linear },
            address: [AddressMode::Wrap, AddressMode::Mirror, AddressMode::Border].map(|a| {
                if rng.below(2) == 0 {
                    a
                } else {
                    AddressMode::MirrorOnce
                }
            }),
            border_color: [f32::NAN, 2.0, -1.0, 0.5],
            mip_lod_bias: pick(&mut rng, &[0, 0x7fc0_0000, 0x4f00_0000]) as f32,
            min_lod: f32::from_bits(pick(&mut rng, &[0xff7f_ffff, 0, 0x7fc0_0000])),
            max_lod: f32::from_bits(pick(&mut rng, &[0x7f7f_ffff, 0, 0x7f80_0000])),
            comparison: [None, Some(ComparisonFunc::LessEqual), Some(ComparisonFunc::NotEqual)][rng.below(3)],
        });
        let input: Vec<[u32; 4]> = (0..4).map(|_| [0; 4].map(|_| pick(&mut rng, &addr))).collect();
        let _ = m.run_vertex(&p, &input, &mut res);
    }
}

fn cmp_sampler(filter: Filter, func: ComparisonFunc) -> Sampler {
    Sampler { comparison: Some(func), ..sampler(filter, filter, Filter::Point, AddressMode::Clamp) }
}

/// `sample_c_lz` on the 4x4 grid (x + 10y): `ref FUNC texel.r` per tap, then filtered.
fn sample_c_lz(s: Sampler, uv: [f32; 2], reference: f32) -> [u32; 4] {
    let data = grid();
    let mut res = Resources::default();
    res.srvs = vec![Some(Srv::Texture(view(Dimension::Texture2D, Format::R32_FLOAT, 4, 4, 1, 1, 3, &data)))];
    res.samplers[0] = Some(s);
    let text = prog(
        "dcl_sampler s0, mode_comparison\ndcl_resource_texture2d (float,float,float,float) t0",
        1,
        "sample_c_lz o0.xyzw, v0.xyxx, t0.xxxx, s0, v1.x",
    );
    run(&text, &[f4([uv[0], uv[1], 0.0, 0.0]), f4([reference; 4])], &mut res)[0]
}

#[test]
fn sample_c_lz_compares_each_tap_then_filters() {
    use ComparisonFunc::*;
    use Filter::*;
    // Linear at the centre: taps 11, 12, 21, 22 with weight 1/4 each.
    assert_eq!(sample_c_lz(cmp_sampler(Linear, LessEqual), [0.5, 0.5], 12.0), f4([0.75; 4]));
    assert_eq!(sample_c_lz(cmp_sampler(Linear, Less), [0.5, 0.5], 12.0), f4([0.5; 4]));
    assert_eq!(sample_c_lz(cmp_sampler(Linear, Greater), [0.5, 0.5], 12.0), f4([0.25; 4]));
    assert_eq!(sample_c_lz(cmp_sampler(Linear, NotEqual), [0.5, 0.5], 12.0), f4([0.75; 4]));
    assert_eq!(sample_c_lz(cmp_sampler(Linear, Never), [0.5, 0.5], 12.0), f4([0.0; 4]));
    assert_eq!(sample_c_lz(cmp_sampler(Linear, Always), [0.5, 0.5], 12.0), f4([1.0; 4]));
    // u weight 0.75 between texels 0 (pass) and 1 (fail) of row 0.
    assert_eq!(sample_c_lz(cmp_sampler(Linear, GreaterEqual), [0.3125, 0.125], 0.5), f4([0.25; 4]));
    // Point: texel 21.
    assert_eq!(sample_c_lz(cmp_sampler(Point, Equal), [0.3, 0.6], 21.0), f4([1.0; 4]));
    assert_eq!(sample_c_lz(cmp_sampler(Point, Equal), [0.3, 0.6], 21.5), f4([0.0; 4]));
    // NaN compares unequal: only NotEqual passes.
    assert_eq!(sample_c_lz(cmp_sampler(Point, Equal), [0.3, 0.6], f32::NAN), f4([0.0; 4]));
    assert_eq!(sample_c_lz(cmp_sampler(Point, NotEqual), [0.3, 0.6], f32::NAN), f4([1.0; 4]));
    // Border texels compare the border colour's red.
    let mut s = cmp_sampler(Point, Equal);
    s.address = [AddressMode::Border; 3];
    s.border_color = [7.0, 0.0, 0.0, 0.0];
    assert_eq!(sample_c_lz(s, [1.5, 0.5], 7.0), f4([1.0; 4]));
    // The LOD is 0 plus the bias: mip 1 (100 + x + 10y), texel (1, 0).
    let mut s = cmp_sampler(Point, Equal);
    s.mip_lod_bias = 1.0;
    assert_eq!(sample_c_lz(s, [0.75, 0.25], 101.0), f4([1.0; 4]));
    // A sampler without a comparison function: Never.
    let s = Sampler { comparison: None, ..cmp_sampler(Point, Always) };
    assert_eq!(sample_c_lz(s, [0.3, 0.6], 21.0), f4([0.0; 4]));
}

#[test]
fn sample_c_lz_quantizes_the_reference_to_the_format() {
    // R16_UNORM texels 0 and 65535: a reference of 2.0 clamps to 1.0, -1 to 0.
    let data = words(&[0xffff_0000]);
    let mut res = Resources::default();
    res.srvs = vec![Some(Srv::Texture(view(Dimension::Texture2D, Format::R16_UNORM, 2, 1, 1, 1, 1, &data)))];
    res.samplers[0] = Some(cmp_sampler(Filter::Point, ComparisonFunc::Equal));
    let text = prog(
        "dcl_sampler s0, mode_comparison\ndcl_resource_texture2d (unorm,unorm,unorm,unorm) t0",
        2,
        "sample_c_lz o0.xyzw, l(0.75, 0.5, 0, 0), t0.xxxx, s0, v0.x\nsample_c_lz o1.xyzw, l(0.25, 0.5, 0, 0), t0.xxxx, s0, v0.y",
    );
    let o = run(&text, &[f4([2.0, -1.0, 0.0, 0.0])], &mut res);
    assert_eq!(o, vec![f4([1.0; 4]), f4([1.0; 4])]);
    // Unbound: 0.
    let o = run(&text, &[f4([2.0, -1.0, 0.0, 0.0])], &mut Resources::default());
    assert_eq!(o, vec![[0; 4], [0; 4]]);
}

/// A 4x4 R32G32_FLOAT texture: (x + 10y, 100 + x + 10y).
fn grid_rg() -> Vec<u8> {
    let mut v = Vec::new();
    for y in 0..4 {
        for x in 0..4 {
            v.push((x + 10 * y) as f32);
            v.push((100 + x + 10 * y) as f32);
        }
    }
    floats(&v)
}

fn gather(s: Sampler, body: &str, inputs: &[[u32; 4]]) -> Vec<[u32; 4]> {
    let data = grid_rg();
    let mut res = Resources::default();
    res.srvs = vec![Some(Srv::Texture(view(Dimension::Texture2D, Format::R32G32_FLOAT, 4, 4, 1, 1, 1, &data)))];
    res.samplers[0] = Some(s);
    let text = prog("dcl_sampler s0, mode_default\ndcl_resource_texture2d (float,float,float,float) t0", 2, body);
    run(&text, inputs, &mut res)
}

#[test]
fn gather4_returns_the_footprint_counter_clockwise_from_lower_left() {
    use AddressMode::*;
    let s = sampler(Filter::Point, Filter::Point, Filter::Point, Clamp);
    let uv = f4([0.5, 0.5, 0.0, 0.0]);
    // Footprint texels (1..2, 1..2): x = (1, 2), y = (2, 2), z = (2, 1), w = (1, 1).
    let o = gather(s, "gather4 o0.xyzw, v0.xyxx, t0.xyzw, s0.x\ngather4 o1.xyzw, v0.xyxx, t0.wzyx, s0.y", &[uv]);
    assert_eq!(o[0], f4([21.0, 22.0, 12.0, 11.0]));
    assert_eq!(o[1], f4([111.0, 112.0, 122.0, 121.0])); // green, resource swizzle .wzyx
                                                        // Missing components read their defaults (0, and 1 for alpha).
    let o = gather(s, "gather4 o0.xyzw, v0.xyxx, t0.xyzw, s0.z\ngather4 o1.xyzw, v0.xyxx, t0.xyzw, s0.w", &[uv]);
    assert_eq!(o, vec![f4([0.0; 4]), f4([1.0; 4])]);
    // Immediate offsets.
    let o = gather(s, "gather4_aoffimmi(1,0,0) o0.xyzw, v0.xyxx, t0.xyzw, s0.x", &[uv]);
    assert_eq!(o[0], f4([22.0, 23.0, 13.0, 12.0]));
    // Address modes at the corner: footprint (-1..0, -1..0).
    let corner = f4([0.0, 0.0, 0.0, 0.0]);
    let o = gather(s, "gather4 o0.xyzw, v0.xyxx, t0.xyzw, s0.x", &[corner]);
    assert_eq!(o[0], f4([0.0; 4]));
    let o = gather(
        sampler(Filter::Point, Filter::Point, Filter::Point, Wrap),
        "gather4 o0.xyzw, v0.xyxx, t0.xyzw, s0.x",
        &[corner],
    );
    assert_eq!(o[0], f4([3.0, 0.0, 30.0, 33.0]));
    let mut b = sampler(Filter::Point, Filter::Point, Filter::Point, Border);
    b.border_color = [5.0, 6.0, 7.0, 8.0];
    let o = gather(b, "gather4 o0.xyzw, v0.xyxx, t0.xyzw, s0.y", &[corner]);
    assert_eq!(o[0], f4([6.0, 100.0, 6.0, 6.0]));
}

#[test]
fn gather4_po_and_comparing_gathers() {
    let s = Sampler {
        comparison: Some(ComparisonFunc::LessEqual),
        ..sampler(Filter::Point, Filter::Point, Filter::Point, AddressMode::Clamp)
    };
    let uv = f4([0.5, 0.5, 0.0, 0.0]);
    let i = |v: [i32; 4]| v.map(|x| x as u32);
    // Offsets (-1, 1); only their low 6 bits count: (63, 65) is the same.
    let o = gather(
        s,
        "gather4_po o0.xyzw, v0.xyxx, v1.xyxx, t0.xyzw, s0.x\ngather4_po o1.xyzw, v0.xyxx, v2.xyxx, t0.xyzw, s0.y",
        &[uv, i([-1, 1, 0, 0]), i([63, 65, 0, 0])],
    );
    assert_eq!(o[0], f4([30.0, 31.0, 21.0, 20.0]));
    assert_eq!(o[1], f4([130.0, 131.0, 121.0, 120.0]));
    // gather4_c: 12 <= (21, 22, 12, 11).
    let o = gather(
        s,
        "gather4_c o0.xyzw, v0.xyxx, t0.xyzw, s0.x, v1.x\ngather4_po_c o1.xyzw, v0.xyxx, v2.xyxx, t0.xyzw, s0.x, v1.y",
        &[uv, f4([12.0, 21.0, 0.0, 0.0]), i([-1, 1, 0, 0])],
    );
    assert_eq!(o[0], f4([1.0, 1.0, 1.0, 0.0]));
    // gather4_po_c: 21 <= (30, 31, 21, 20).
    assert_eq!(o[1], f4([1.0, 1.0, 1.0, 0.0]));
    // Unbound: 0.
    let text = prog(
        "dcl_sampler s0, mode_default\ndcl_resource_texture2d (float,float,float,float) t0",
        1,
        "gather4_c o0.xyzw, v0.xyxx, t0.xyzw, s0.x, l(1.0)",
    );
    assert_eq!(run(&text, &[uv], &mut Resources::default())[0], [0; 4]);
}

#[test]
fn gather4_on_integer_textures_and_arrays() {
    // Two 2x2 R32_UINT slices: slice * 100 + x + 10y.
    let data = tex2d_u32(2, 2, 1, 2, |s, _, x, y| s * 100 + x + 10 * y);
    let mut res = Resources::default();
    res.srvs = vec![Some(Srv::Texture(view(Dimension::Texture2DArray, Format::R32_UINT, 2, 2, 1, 2, 1, &data)))];
    res.samplers[0] = Some(Sampler::default());
    let text = prog(
        "dcl_sampler s0, mode_default\ndcl_resource_texture2darray (uint,uint,uint,uint) t0",
        1,
        "gather4 o0.xyzw, v0.xyzx, t0.xyzw, s0.x",
    );
    let o = run(&text, &[f4([0.5, 0.5, 1.0, 0.0])], &mut res);
    assert_eq!(o[0], [110, 111, 101, 100]);
}

#[test]
fn sample_d_lod_from_gradients() {
    // Point filtering, mips point: the LOD picks the level; (0.75, 0.25) is texel
    // (3, 1) = 13 in mip 0, (1, 0) = 101 in mip 1, 200 in mip 2.
    let run_d = |mip: Filter, dx: [f32; 4], dy: [f32; 4]| -> [u32; 4] {
        let data = grid();
        let mut res = Resources::default();
        res.srvs = vec![Some(Srv::Texture(view(Dimension::Texture2D, Format::R32_FLOAT, 4, 4, 1, 1, 3, &data)))];
        res.samplers[0] = Some(sampler(Filter::Point, Filter::Point, mip, AddressMode::Clamp));
        let text = prog(
            "dcl_sampler s0, mode_default\ndcl_resource_texture2d (float,float,float,float) t0",
            1,
            "sample_d o0.xyzw, v0.xyxx, t0.xyzw, s0, v1.xyzw, v2.xyzw",
        );
        run(&text, &[f4([0.75, 0.25, 0.0, 0.0]), f4(dx), f4(dy)], &mut res)[0]
    };
    use Filter::*;
    assert_eq!(run_d(Point, [0.25, 0.0, 0.0, 0.0], [0.0, 0.25, 0.0, 0.0]), r(13.0)); // LOD 0
    assert_eq!(run_d(Point, [0.0, 0.0, 0.0, 0.0], [0.0, 0.0, 0.0, 0.0]), r(13.0)); // log2(0): magnified
    assert_eq!(run_d(Point, [0.5, 0.0, 0.0, 9.0], [0.0, 0.25, 0.0, 0.0]), r(101.0)); // the longer: LOD 1
    assert_eq!(run_d(Point, [0.0, 0.0, 0.0, 0.0], [0.0, 1.0, 0.0, 0.0]), r(200.0)); // LOD 2
                                                                                    // LOD 1.5 between mips 1 and 2.
    assert_eq!(run_d(Linear, [std::f32::consts::SQRT_2 / 2.0, 0.0, 0.0, 0.0], [0.0, 0.0, 0.0, 0.0]), r(150.5));
    // Sheared footprint (texel-space dX = (1, 1), dY = (0, 1)): the orthogonal
    // Jacobian's longer axis is the golden ratio, LOD log2(1.618) = 0.694 (178/256),
    // not log2(sqrt 2) = 0.5.
    assert_eq!(run_d(Linear, [0.25, 0.25, 0.0, 0.0], [0.0, 0.25, 0.0, 0.0]), r(74.1875));
}

#[test]
fn ldms_samplepos_sampleinfo() {
    // 2x2 texels of 4 samples, R32_UINT: 1000 y + 100 x + sample; samples consecutive.
    let mut v = Vec::new();
    for slice in 0..2 {
        for y in 0..2 {
            for x in 0..2 {
                for s in 0..4 {
                    v.push(10000 * slice + 1000 * y + 100 * x + s);
                }
            }
        }
    }
    let data = words(&v);
    let ms = TextureView {
        dimension: Dimension::Texture2DMS { samples: 4 },
        format: Format::R32_UINT,
        width: 2,
        height: 2,
        depth: 1,
        array_size: 1,
        mip_levels: 1,
        data: &data,
    };
    let ms_array = TextureView { dimension: Dimension::Texture2DMSArray { samples: 4 }, array_size: 2, ..ms };
    let plain = view(Dimension::Texture2D, Format::R32_UINT, 2, 2, 1, 1, 1, &data);
    let mut res = Resources::default();
    res.srvs = vec![Some(Srv::Texture(ms)), Some(Srv::Texture(ms_array)), Some(Srv::Texture(plain))];
    let text = prog(
        "dcl_resource_texture2dms(4) (uint,uint,uint,uint) t0
dcl_resource_texture2dmsarray(4) (uint,uint,uint,uint) t1
dcl_resource_texture2d (uint,uint,uint,uint) t2",
        8,
        "ldms o0.xyzw, v0.xyzw, t0.xyzw, l(2)
ldms_aoffimmi(-1,0,0) o1.xyzw, v0.xyzw, t0.xyzw, l(3)
ldms o2.xyzw, v0.xyzw, t1.xyzw, v1.x
ldms o3.xyzw, v0.xyzw, t0.xyzw, l(4)
sampleinfo o4.xyzw, t0.xyzw
sampleinfo_uint o4.y, t1.x
sampleinfo_uint o5.xyzw, t2.xyzw
samplepos o6.xyzw, t0.xyzw, v1.y
samplepos o7.xyzw, t1.yxzw, v1.z",
    );
    let o = run(&text, &[[1, 1, 1, 0], [3, 1, 4, 0]], &mut res);
    assert_eq!(o[0], [1102, 0, 0, 1]);
    assert_eq!(o[1], [1003, 0, 0, 1]);
    assert_eq!(o[2], [11103, 0, 0, 1]);
    assert_eq!(o[3], [0, 0, 0, 1]); // sample 4 of 4: out of bounds
    assert_eq!(o[4], [fb(4.0), 4, 0, 0]); // float, then _uint in .y
    assert_eq!(o[5], [0; 4]); // not multisampled
    assert_eq!(o[6], f4([6.0 / 16.0, -2.0 / 16.0, 0.0, 0.0])); // sample 1 of the 4-sample pattern
    assert_eq!(o[7], [0; 4]); // index 4 of 4
                              // resinfo of a multisampled texture: 1 mip.
    let text = prog(
        "dcl_resource_texture2dmsarray(4) (uint,uint,uint,uint) t1",
        1,
        "resinfo_indexable(texture2dmsarray)(uint,uint,uint,uint)_uint o0.xyzw, l(0), t1.xyzw",
    );
    assert_eq!(run(&text, &[], &mut res)[0], [2, 2, 2, 1]);
}

#[test]
fn standard_sample_patterns() {
    for (count, idx, want) in [
        (1u32, 0u32, (0.0, 0.0)),
        (2, 1, (-0.25, -0.25)),
        (8, 7, (7.0 / 16.0, -7.0 / 16.0)),
        (16, 15, (-7.0 / 16.0, -0.5)),
    ] {
        let data = vec![0u8; 64 * 4];
        let ms = TextureView {
            dimension: Dimension::Texture2DMS { samples: count },
            format: Format::R32_UINT,
            width: 1,
            height: 1,
            depth: 1,
            array_size: 1,
            mip_levels: 1,
            data: &data,
        };
        let mut res = Resources::default();
        res.srvs = vec![Some(Srv::Texture(ms))];
        let text = prog("dcl_resource_texture2dms(0) (uint,uint,uint,uint) t0", 1, "samplepos o0.xyzw, t0.xyzw, v0.x");
        assert_eq!(run(&text, &[[idx, 0, 0, 0]], &mut res)[0], f4([want.0, want.1, 0.0, 0.0]), "{count}");
    }
}
