//! Typed buffer views (`Buffer<T>`, `RWBuffer<T>`; [`translate::buffer_format`]) on
//! Mesa's lavapipe give what the reference interpreter gives, bit for bit.
//!
//! Every program is a vertex shader (listing text assembled with `listing::asm`)
//! written as a compute entry point ([`translate::Options::vertex_as_compute`]) and run
//! on lavapipe, and run vertex by vertex through `exec::Machine::run_vertex` (whose
//! typed-buffer loads and stores are `exec::Format::decode` / `encode`, the functional
//! spec's conversion rules): the output registers and the memory of every writable
//! view after the run must be equal bit for bit (no NaN is spared: every conversion is
//! integer arithmetic on both sides).
//!
//! - `load/FORMAT`: `ld` of every element of a view of FORMAT, whose components run
//!   through every value of their width (8-, 10-, 11- and 16-bit components: all of
//!   them; 32-bit components: zeros, denormals, infinities, NaNs, extremes, then
//!   pseudo-random words), then of elements past the end (the out-of-bounds rule).
//! - `store/FORMAT`: `store_uav_typed` of values chosen to hit every conversion rule
//!   (NaNs, -0, denormals, infinities, values beyond the range, the UNORM/SNORM rounding
//!   ties, half-float rounding and overflow, integers beyond a narrower range), one
//!   element per vertex, concurrently (neighbouring elements narrower than a word), into
//!   memory that starts non-zero; stores past the end must change nothing.
//! - `program/NAME`: a few programs mixing typed views of several formats with
//!   `ld_indexable`, `ld_uav_typed`, `bufinfo`, swizzles and atomics.
//!
//! Each outcome is a line of `tests/expect/lavapipe_typed_buffers.txt` (two-sided;
//! `DXREF_BLESS=1` rewrites it). Without a lavapipe adapter the test prints SKIP and
//! passes, unless `DXREF_REQUIRE_CORPUS=1`.

use std::collections::BTreeMap;

use corpus::Rng;
use exec::machine::Machine;
use exec::resources::{Srv, Uav};
use exec::{Plan, Resources};
use translate::buffer_format::{self, Numeric};
use translate::Format;

#[path = "support/lavapipe.rs"]
mod lavapipe;
use lavapipe::{bytes_vec4, run_compute, vec4_bytes, Bound, Buffer, Gpu};

/// A typed view of a program.
struct View {
    register: u32,
    uav: bool,
    format: Format,
    bytes: Vec<u8>,
}

/// One program and what it runs over.
struct Run {
    listing: String,
    views: Vec<View>,
    /// Per vertex, `inputs` registers.
    data: Vec<[u32; 4]>,
    inputs: usize,
}

impl Run {
    fn vertices(&self) -> usize {
        self.data.len() / self.inputs.max(1)
    }
}

/// Output registers and the memory of the writable views, in view order.
type Result2 = (Vec<[u32; 4]>, Vec<Vec<u8>>);

fn reference(plan: &Plan, run: &Run) -> Result<Result2, String> {
    let mut memories: Vec<Vec<u8>> = run.views.iter().filter(|v| v.uav).map(|v| v.bytes.clone()).collect();
    let mut res = Resources::default();
    for v in run.views.iter().filter(|v| !v.uav) {
        let slot = v.register as usize;
        if res.srvs.len() <= slot {
            res.srvs.resize(slot + 1, None);
        }
        res.srvs[slot] = Some(Srv::Buffer { data: &v.bytes, format: v.format });
    }
    let mut it = memories.iter_mut();
    for v in run.views.iter().filter(|v| v.uav) {
        let slot = v.register as usize;
        while res.uavs.len() <= slot {
            res.uavs.push(None);
        }
        let data = it.next().ok_or("views")?;
        res.uavs[slot] = Some(Uav::Buffer { data: data.as_mut_slice(), format: v.format });
    }
    let mut m = Machine::new(plan);
    let mut out = Vec::new();
    for vertex in 0..run.vertices() {
        let v = &run.data[vertex * run.inputs..(vertex + 1) * run.inputs];
        out.extend_from_slice(m.run_vertex(plan, v, &mut res).map_err(|e| e.to_string())?);
    }
    drop(res);
    Ok((out, memories))
}

fn on_device(gpu: &Gpu, module: naga::Module, run: &Run, n_out: usize) -> Result<Result2, String> {
    let mut bound: Vec<Bound> = run
        .views
        .iter()
        .map(|v| Bound {
            group: if v.uav { 3 } else { 1 },
            binding: v.register,
            buffer: if v.uav { Buffer::TypedReadWrite(v.bytes.clone()) } else { Buffer::Typed(v.bytes.clone()) },
        })
        .collect();
    let io = translate::VERTEX_AS_COMPUTE_GROUP;
    bound.push(Bound { group: io, binding: 0, buffer: Buffer::Storage(vec4_bytes(&run.data)) });
    let n = run.vertices();
    bound.push(Bound { group: io, binding: 1, buffer: Buffer::StorageReadWrite(vec![0u8; n_out.max(1) * 16 * n]) });
    let wg = translate::VERTEX_AS_COMPUTE_WORKGROUP;
    let mut written = run_compute(gpu, module, [wg, 1, 1], &bound, [(n as u32).div_ceil(wg), 1, 1])?;
    let outputs = written.pop().ok_or("no outputs")?;
    Ok((if n_out == 0 { Vec::new() } else { bytes_vec4(&outputs) }, written))
}

fn outcome(gpu: &Gpu, run: &Run) -> String {
    let bytes = match listing::asm::assemble(&run.listing, &listing::asm::AsmOptions::default()) {
        Ok(a) => a.bytes,
        Err(e) => return format!("assembling: {e:?}"),
    };
    let plan = match Plan::from_bytecode(&bytes) {
        Ok(p) => p,
        Err(e) => return format!("exec: {e}"),
    };
    let formats: String = run
        .views
        .iter()
        .map(|v| format!("{}{} = {}\n", if v.uav { "u" } else { "t" }, v.register, v.format.name()))
        .collect();
    let options = translate::Options {
        bindings: translate::Bindings::parse(&formats).expect("formats"),
        vertex_as_compute: true,
        ..Default::default()
    };
    let module = match translate::module(&bytes, &options) {
        Ok(m) => m,
        Err(e) => return format!("translate: {e}"),
    };
    let n_out = plan.output_registers as usize;
    let want = match reference(&plan, run) {
        Ok(w) => w,
        Err(e) => return format!("exec: {e}"),
    };
    let got = match on_device(gpu, module, run, n_out) {
        Ok(g) => g,
        Err(e) => return corpus::expect::one_line(&e),
    };
    for (k, (a, b)) in want.0.iter().zip(&got.0).enumerate() {
        if a != b {
            let (vertex, register) = (k / n_out.max(1), k % n_out.max(1));
            let input = &run.data[vertex * run.inputs..(vertex + 1) * run.inputs];
            return format!("vertex {vertex} o{register}: reference {a:08x?}, lavapipe {b:08x?} (inputs {input:08x?})");
        }
    }
    for (k, (a, b)) in want.1.iter().zip(&got.1).enumerate() {
        if let Some(i) = (0..a.len()).find(|&i| a[i] != b.get(i).copied().unwrap_or(!a[i])) {
            let from = i & !3;
            return format!(
                "view {k} byte {i}: reference {:02x?}, lavapipe {:02x?}",
                &a[from..(from + 4).min(a.len())],
                &b[from..(from + 4).min(b.len())]
            );
        }
    }
    "exact".into()
}

/// The return type a view of `f` is declared with.
fn ty(f: Format) -> &'static str {
    match f.numeric() {
        Numeric::Float => "float",
        Numeric::Uint => "uint",
        Numeric::Sint => "sint",
    }
}

/// The bits of each stored component, in storage order (`R10G10B10A2`: 10, 10, 10, 2).
fn widths(f: Format) -> Vec<u32> {
    f.components().iter().map(|c| u32::from(c.bits)).collect()
}

/// Float32 bits every conversion must get right.
const FLOAT_EDGES: &[u32] = &[
    0x0000_0000,
    0x8000_0000,
    0x0000_0001,
    0x8000_0001,
    0x007f_ffff,
    0x807f_ffff,
    0x0080_0000,
    0x8080_0000,
    0x7f80_0000,
    0xff80_0000,
    0x7fc0_0000,
    0xffc0_0000,
    0x7f80_0001,
    0x7fbf_ffff,
    0xff80_0001,
    0x3f80_0000,
    0xbf80_0000,
    0x3f00_0000,
    0xbf00_0000,
    0x4000_0000,
    0xc000_0000,
    0x3f7f_ffff,
    0x3f80_0001,
    0xbf7f_ffff,
    0xbf80_0001,
    0x477f_e000,
    0x477f_f000,
    0x477f_efff,
    0x4780_0000,
    0xc77f_f000,
    0x3380_0000,
    0x3300_0000,
    0x387f_c000,
    0x3880_0000,
    0x7f7f_ffff,
    0xff7f_ffff,
    0x4f80_0000,
    0xcf00_0000,
    0x4b00_0000,
    0x4f00_0000,
];

/// Integers every conversion must get right.
const INT_EDGES: &[u32] = &[
    0,
    1,
    2,
    3,
    4,
    127,
    128,
    129,
    255,
    256,
    511,
    512,
    1023,
    1024,
    2047,
    32767,
    32768,
    32769,
    65535,
    65536,
    0x7fff_ffff,
    0x8000_0000,
    0x8000_0001,
    0xffff_ffff,
    0xffff_fffe,
    0xffff_ff80,
    0xffff_ff7f,
    0xffff_8000,
    0xffff_7fff,
    0xffff_fe00,
    0xffff_fc00,
];

/// Pseudo-random words.
fn word(rng: &mut Rng) -> u32 {
    rng.next_u64() as u32
}

/// `load/FORMAT`: the elements, then five out-of-bounds indices.
fn load_run(f: Format) -> Run {
    let w = widths(f);
    let max = w.iter().copied().max().unwrap_or(8);
    let n: usize = match max {
        0..=8 => 256,
        9..=16 => 65536,
        _ => 4096,
    };
    let size = f.size();
    let mut rng = Rng(0x7970_6564 ^ f as u64);
    let mut bytes = Vec::with_capacity(n * size);
    for k in 0..n {
        let mut wide: u128 = 0;
        let mut at = 0;
        for (c, &b) in w.iter().enumerate() {
            let v: u32 = if b == 32 {
                let edges: Vec<u32> = FLOAT_EDGES.iter().chain(INT_EDGES).copied().collect();
                let i = (k + 7 * c) % n;
                if i < edges.len() {
                    edges[i]
                } else {
                    word(&mut rng)
                }
            } else {
                ((k as u64 * (2 * c as u64 + 1) + c as u64 * 0x9e37) % (1u64 << b)) as u32
            };
            wide |= (v as u128) << at;
            at += b;
        }
        bytes.extend_from_slice(&wide.to_le_bytes()[..size]);
    }
    let mut data: Vec<[u32; 4]> = (0..n as u32).map(|k| [k, 0, 0, 0]).collect();
    for oob in [n as u32, n as u32 + 1, n as u32 + 1000, 0x7fff_ffff, 0xffff_ffff] {
        data.push([oob, 0, 0, 0]);
    }
    let t = ty(f);
    Run {
        listing: format!(
            "vs_5_0\ndcl_resource_buffer ({t},{t},{t},{t}) t0\ndcl_input v0.x\ndcl_output o0.xyzw\ndcl_temps 1\n\
             ld r0.xyzw, v0.xxxx, t0.xyzw\nmov o0.xyzw, r0.xyzw\nret \n"
        ),
        views: vec![View { register: 0, uav: false, format: f, bytes }],
        data,
        inputs: 1,
    }
}

/// The values a store converts: the edges, the UNORM/SNORM ties of every width
/// (`(k + 0.5) / max` in float32, and its neighbours), pseudo-random floats in
/// [-1.5, 1.5] and words.
fn store_values(f: Format) -> Vec<u32> {
    let mut values: Vec<u32> = FLOAT_EDGES.iter().chain(INT_EDGES).copied().collect();
    for &b in &widths(f) {
        if b >= 32 {
            continue;
        }
        let maxes = [(1u32 << b) - 1, (1u32 << (b - 1)).saturating_sub(1).max(1)];
        for max in maxes {
            let step = (max / 64).max(1);
            let mut k = 0;
            while k < max {
                let tie = (k as f32 + 0.5) / max as f32;
                for v in [tie.to_bits(), tie.to_bits() - 1, tie.to_bits() + 1, (-tie).to_bits()] {
                    values.push(v);
                }
                k += step;
            }
        }
    }
    let mut rng = Rng(0x7374_6f72 ^ f as u64);
    for _ in 0..256 {
        values.push(((rng.below(3_000_001) as f32 - 1_500_000.0) / 1_000_000.0).to_bits());
        values.push(word(&mut rng));
    }
    values
}

/// `store/FORMAT`: element `k` gets values `k`, `k + 977`... of the list (each value in
/// each component), then stores past the end.
fn store_run(f: Format) -> Run {
    let values = store_values(f);
    let n = values.len().next_multiple_of(4);
    let size = f.size();
    let mut data = Vec::new();
    for k in 0..n {
        let v = [0, 1, 2, 3].map(|c| values[(k + 977 * c) % values.len()]);
        data.push([k as u32, 0, 0, 0]);
        data.push(v);
    }
    for oob in [n as u32, n as u32 + 1, 0xffff_ffff] {
        data.push([oob, 0, 0, 0]);
        data.push([0x3f80_0000; 4]);
    }
    let t = ty(f);
    Run {
        listing: format!(
            "vs_5_0\ndcl_uav_typed_buffer ({t},{t},{t},{t}) u0\ndcl_input v0.x\ndcl_input v1.xyzw\n\
             dcl_output o0.xyzw\nstore_uav_typed u0.xyzw, v0.xxxx, v1.xyzw\nmov o0.xyzw, v1.xyzw\nret \n"
        ),
        views: vec![View { register: 0, uav: true, format: f, bytes: vec![0xa5; n * size] }],
        data,
        inputs: 2,
    }
}

/// `bytes` as halves with the exponent's top bit cleared: finite, below 2 in magnitude.
fn finite_halves(mut bytes: Vec<u8>) -> Vec<u8> {
    for pair in bytes.chunks_exact_mut(2) {
        pair[1] &= 0xbf;
    }
    bytes
}

/// Programs mixing views, formats and instructions.
fn programs() -> Vec<(&'static str, Run)> {
    let mut rng = Rng(0x7072_6f67);
    let mut random_bytes = |n: usize| -> Vec<u8> { (0..n).map(|_| rng.below(256) as u8).collect() };
    let vertices = 300u32;
    vec![
        // A gather: an index from a R16G16_UINT view picks an element of a R8G8B8A8_UNORM
        // view (some past its end), swizzled; bufinfo of both.
        (
            "gather",
            Run {
                listing: "vs_5_0\ndcl_resource_buffer (float,float,float,float) t0\n\
                      dcl_resource_buffer (uint,uint,uint,uint) t1\ndcl_input v0.x\ndcl_output o0.xyzw\n\
                      dcl_output o1.xyzw\ndcl_temps 2\n\
                      ld_indexable(buffer)(uint,uint,uint,uint) r0.xy, v0.xxxx, t1.xyzw\n\
                      iadd r0.x, r0.x, r0.y\nushr r0.x, r0.x, l(7)\n\
                      ld_indexable(buffer)(float,float,float,float) r1.xyzw, r0.xxxx, t0.zxwy\n\
                      mov o0.xyzw, r1.xyzw\nbufinfo r0.x, t0.xxxx\nbufinfo r0.y, t1.xxxx\n\
                      mov o1.xy, r0.xyxx\nmov o1.zw, l(0,0,0,0)\nret \n"
                    .into(),
                views: vec![
                    View { register: 0, uav: false, format: Format::R8G8B8A8_UNORM, bytes: random_bytes(4 * 500) },
                    View {
                        register: 1,
                        uav: false,
                        format: Format::R16G16_UINT,
                        bytes: random_bytes(4 * vertices as usize),
                    },
                ],
                data: (0..vertices).map(|k| [k, 0, 0, 0]).collect(),
                inputs: 1,
            },
        ),
        // Read-modify-write of R16G16B16A16_FLOAT (each vertex its own element; finite
        // halves below 2, so that no NaN comes out of the arithmetic, whose bits the device
        // chooses), and a R8_SNORM view written by every vertex (four to a word).
        (
            "read_modify_write",
            Run {
                listing: "vs_5_0\ndcl_uav_typed_buffer (float,float,float,float) u0\n\
                      dcl_uav_typed_buffer (float,float,float,float) u1\ndcl_input v0.xy\ndcl_output o0.xyzw\n\
                      dcl_temps 1\nld_uav_typed r0.xyzw, v0.xxxx, u0.xyzw\n\
                      mad r0.xyzw, r0.xyzw, l(2.0, -3.0, 0.5, 65536.0), l(0.25, 0.0, -1.0, 0.0)\n\
                      store_uav_typed u0.xyzw, v0.xxxx, r0.xyzw\nmov o0.xyzw, r0.xyzw\n\
                      mul r0.x, v0.y, r0.x\nstore_uav_typed u1.xyzw, v0.xxxx, r0.xxxx\nret \n"
                    .into(),
                views: vec![
                    View {
                        register: 0,
                        uav: true,
                        format: Format::R16G16B16A16_FLOAT,
                        bytes: finite_halves(random_bytes(8 * vertices as usize)),
                    },
                    View { register: 1, uav: true, format: Format::R8_SNORM, bytes: random_bytes(vertices as usize) },
                ],
                data: (0..vertices).map(|k| [k, ((k as f32 - 150.0) / 37.0).to_bits(), 0, 0]).collect(),
                inputs: 1,
            },
        ),
        // Atomics on a RWBuffer<uint> (R32_UINT): counts per bucket, an exchange per vertex
        // (its own element: the old value is defined), a max past the end (nothing).
        (
            "atomics",
            Run {
                listing: "vs_5_0\ndcl_uav_typed_buffer (uint,uint,uint,uint) u0\ndcl_input v0.x\ndcl_output o0.xyzw\n\
                      dcl_temps 1\nand r0.x, v0.x, l(15)\natomic_iadd u0, r0.xxxx, l(1)\n\
                      atomic_umax u0, l(16), v0.x\nand r0.y, v0.x, l(31)\natomic_or u0, l(17), r0.y\n\
                      iadd r0.z, v0.x, l(32)\nimm_atomic_exch r0.w, u0, r0.zzzz, v0.x\n\
                      imm_atomic_iadd r0.y, u0, l(100000), l(5)\nbufinfo r0.z, u0.xxxx\n\
                      mov o0.xyzw, r0.xwzy\nret \n"
                    .into(),
                views: vec![View {
                    register: 0,
                    uav: true,
                    format: Format::R32_UINT,
                    bytes: random_bytes(4 * (32 + vertices as usize)),
                }],
                data: (0..vertices).map(|k| [k, 0, 0, 0]).collect(),
                inputs: 1,
            },
        ),
        // Three-component, packed 10/10/10/2 and 11/11/10 views; integers through an
        // R16G16B16A16_SINT UAV (clamped).
        (
            "packed",
            Run {
                listing: "vs_5_0\ndcl_resource_buffer (float,float,float,float) t0\n\
                      dcl_resource_buffer (float,float,float,float) t1\n\
                      dcl_resource_buffer (float,float,float,float) t2\n\
                      dcl_uav_typed_buffer (sint,sint,sint,sint) u0\ndcl_input v0.x\ndcl_output o0.xyzw\n\
                      dcl_output o1.xyzw\ndcl_output o2.xyzw\ndcl_temps 2\n\
                      ld r0.xyzw, v0.xxxx, t0.xyzw\nmov o0.xyzw, r0.xyzw\n\
                      ld r1.xyzw, v0.xxxx, t1.wzyx\nmov o1.xyzw, r1.xyzw\n\
                      ld r1.xyzw, v0.xxxx, t2.xyzw\nmov o2.xyzw, r1.xyzw\n\
                      mul r1.xyzw, r1.xyzw, l(40000.0, -40000.0, 1.0, 3.0)\nftoi r1.xyzw, r1.xyzw\n\
                      store_uav_typed u0.xyzw, v0.xxxx, r1.xyzw\nret \n"
                    .into(),
                views: vec![
                    View { register: 0, uav: false, format: Format::R32G32B32_FLOAT, bytes: random_bytes(12 * 250) },
                    View {
                        register: 1,
                        uav: false,
                        format: Format::R10G10B10A2_UNORM,
                        bytes: random_bytes(4 * vertices as usize),
                    },
                    View {
                        register: 2,
                        uav: false,
                        format: Format::R11G11B10_FLOAT,
                        bytes: random_bytes(4 * vertices as usize),
                    },
                    View {
                        register: 0,
                        uav: true,
                        format: Format::R16G16B16A16_SINT,
                        bytes: vec![0; 8 * vertices as usize],
                    },
                ],
                data: (0..vertices).map(|k| [k, 0, 0, 0]).collect(),
                inputs: 1,
            },
        ),
    ]
}

#[test]
fn typed_buffers_on_lavapipe_match_the_reference() {
    let Some(gpu) = lavapipe::device_or_skip("lavapipe_typed_buffers") else { return };
    let mut outcomes = BTreeMap::new();
    for f in buffer_format::formats() {
        outcomes.insert(format!("load/{}", f.name()), outcome(&gpu, &load_run(f)));
        outcomes.insert(format!("store/{}", f.name()), outcome(&gpu, &store_run(f)));
    }
    for (name, run) in programs() {
        outcomes.insert(format!("program/{name}"), outcome(&gpu, &run));
    }
    corpus::expect::check(corpus::expect_file!("lavapipe_typed_buffers.txt"), &outcomes);
}
