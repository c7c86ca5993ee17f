//! The draws of the native geometry-shader comparisons (`lavapipe_gs_native` on
//! Vulkan, `opengl_gs_native` on desktop OpenGL) and their reference side: the two
//! workloads of the geometry-shader benchmarks (*quad* at [`QUAD_POINTS`] points,
//! *cube* at [`CUBE_TRIANGLES`] triangles), a shader reading every kind of resource
//! ([`resources`]), every corpus geometry shader behind a vertex shader fitted to its
//! input signature ([`corpus_draw`]); each draw run through the reference pipeline
//! (`exec::pipeline::draw` with stream output, [`reference`]) and compared word for
//! word with what a native pipeline gave ([`compare`]).
//!
//! Included with `#[path = "support/gs_cases.rs"] mod gs_cases;` beside `gs_reference`,
//! `gs_shaders` and `vulkan_gs` (whose [`Draw`], [`View`] and [`Outcome`] it uses), by
//! the tests and by the native geometry-shader benchmark (its workloads at larger sizes,
//! [`quad_of`], [`cube_of`], checked with [`reference`]).
#![allow(dead_code)]

use std::collections::BTreeMap;

use corpus::{gs_workloads, Rng};
use exec::pipeline::Topology;
use tpf::{Body, Decl};

use super::gs_reference::{self, GsResources, GsSrv, ReferenceDraw};
use super::gs_shaders;
use super::vulkan_gs::{Draw, Outcome, View};

/// Points of the *quad* workload in the test.
pub const QUAD_POINTS: u32 = 1000;
/// Triangles of the *cube* workload in the test.
pub const CUBE_TRIANGLES: u32 = 200;
/// Input primitives per corpus shader.
pub const CORPUS_PRIMITIVES: u32 = 48;

/// Draw `d` through the reference pipeline with `res` bound.
pub fn reference(d: &Draw, res: &GsResources) -> Result<Outcome, String> {
    let (r, so) = gs_reference::draw(&ReferenceDraw {
        vs: &d.vs,
        gs: &d.gs,
        topology: d.topology,
        data: &d.data,
        stride: d.stride,
        registers: &d.input_registers,
        position: d.float_input,
        vertices: d.vertices,
        so: &d.so,
        so_sizes: d.so_sizes,
        res,
        capture: false,
    })?;
    let s = r.statistics;
    Ok(Outcome {
        so,
        so_stats: r.so_statistics.map(|x| (x.num_primitives_written, x.primitives_storage_needed)),
        stats: [s.ia_vertices, s.ia_primitives, s.vs_invocations, s.gs_invocations, s.gs_primitives],
    })
}

fn words(bytes: &[u8]) -> Vec<u32> {
    bytes.chunks_exact(4).map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]])).collect()
}

/// Equal, NaNs equal whatever their bits.
fn same(a: u32, b: u32) -> bool {
    a == b || (f32::from_bits(a).is_nan() && f32::from_bits(b).is_nan())
}

/// `exact`, or the first difference of the stream-output bytes or statistics, then each
/// pipeline statistic that differs.
pub fn compare(want: &Outcome, got: &Outcome) -> String {
    let mut diffs = Vec::new();
    if want.so.len() != got.so.len() {
        diffs.push(format!("stream-output slots: reference {}, native {}", want.so.len(), got.so.len()));
    }
    for (k, (a, b)) in want.so.iter().zip(&got.so).enumerate() {
        let (a, b) = (words(a), words(b));
        if a.len() != b.len() {
            diffs.push(format!("stream-output slot {k}: reference {} words, native {}", a.len(), b.len()));
            break;
        }
        if let Some(i) = (0..a.len()).find(|&i| !same(a[i], b[i])) {
            diffs.push(format!("stream-output slot {k} word {i}: reference {:#x}, native {:#x}", a[i], b[i]));
            break;
        }
    }
    if want.so_stats != got.so_stats {
        diffs.push(format!("stream-output statistics: reference {:?}, native {:?}", want.so_stats, got.so_stats));
    }
    let names = ["IAVertices", "IAPrimitives", "VSInvocations", "GSInvocations", "GSPrimitives"];
    for ((name, a), b) in names.iter().zip(want.stats).zip(got.stats) {
        if a != b {
            diffs.push(format!("{name}: reference {a}, native {b}"));
        }
    }
    if diffs.is_empty() {
        "exact".into()
    } else {
        diffs.join("; ")
    }
}

fn workload_vertex(i: u32) -> [u32; 4] {
    gs_workloads::position(i).map(f32::to_bits)
}

/// The *quad* workload at [`QUAD_POINTS`] points, with room for all but the last few
/// points' two triangles.
pub fn quad() -> Draw {
    quad_of(QUAD_POINTS, 6 * (QUAD_POINTS as usize - 5) * 16)
}

/// The *cube* workload at [`CUBE_TRIANGLES`] triangles, with room for all.
pub fn cube() -> Draw {
    cube_of(CUBE_TRIANGLES, 18 * CUBE_TRIANGLES as usize * 20)
}

/// The *quad* workload (point sprites: a 4-vertex strip per point) at `n` points,
/// stream output into `so_bytes` bytes.
pub fn quad_of(n: u32, so_bytes: usize) -> Draw {
    Draw {
        vs: gs_shaders::passthrough_position_vs(),
        gs: gs_shaders::quad_gs(),
        topology: Topology::PointList,
        data: (0..n).map(workload_vertex).collect(),
        stride: 1,
        input_registers: vec![0],
        float_input: true,
        vertices: n,
        cbs: BTreeMap::new(),
        views: BTreeMap::new(),
        samplers: Vec::new(),
        so: gs_shaders::so_decl("SV_Position.xyzw", &[16], 0),
        so_sizes: [so_bytes, 0, 0, 0],
    }
}

/// The *cube* workload (one triangle to six faces through `dcl_gsinstances 6`) at `n`
/// triangles, stream output into `so_bytes` bytes.
pub fn cube_of(n: u32, so_bytes: usize) -> Draw {
    Draw {
        vs: gs_shaders::passthrough_position_vs(),
        gs: gs_shaders::cube_gs(),
        topology: Topology::TriangleList,
        data: (0..3 * n).map(workload_vertex).collect(),
        stride: 1,
        input_registers: vec![0],
        float_input: true,
        vertices: 3 * n,
        cbs: BTreeMap::from([(0, gs_workloads::face_matrix_rows())]),
        views: BTreeMap::new(),
        samplers: Vec::new(),
        so: gs_shaders::so_decl("SV_Position.xyzw; FACE.x", &[20], 0),
        so_sizes: [so_bytes, 0, 0, 0],
    }
}

/// Resources of every kind the harness binds: a geometry shader sampling a 2D texture
/// and a 2D texture array (point, clamp sampler; texel centres, some past the edges,
/// slices past the ends) and loading from the array (`ld`, some texels and slices out
/// of range), a typed buffer (`R32G32B32A32_FLOAT`, indices past its end) and a
/// constant buffer, one point of four outputs per input point.
pub fn resources() -> (Draw, GsResources) {
    let rows = |n: usize| -> Vec<(&str, u32, &str, u32, &str, &str)> {
        (0..n as u32).map(|r| ("TEXCOORD", r, "xyzw", r, "NONE", "float")).collect()
    };
    let gs = gs_shaders::assemble(&format!(
        "{}{}gs_4_0
dcl_constantbuffer cb0[1], immediateIndexed
dcl_sampler s0, mode_default
dcl_resource_texture2d (float,float,float,float) t0
dcl_resource_texture2darray (float,float,float,float) t1
dcl_resource_buffer (float,float,float,float) t2
dcl_input v[1][0].xyzw
dcl_temps 3
dcl_inputprimitive point
dcl_outputtopology pointlist
dcl_output o0.xyzw
dcl_output o1.xyzw
dcl_output o2.xyzw
dcl_output o3.xyzw
dcl_maxout 1
sample_l r0.xyzw, v[0][0].xyxx, t0.xyzw, s0, l(0.000000)
mov o0.xyzw, r0.xyzw
sample_l r0.xyzw, v[0][0].xyzx, t1.xyzw, s0, l(0.000000)
mov o1.xyzw, r0.xyzw
mul r1.xyz, v[0][0].xyzx, l(8.000000, 8.000000, 1.000000, 0.000000)
ftoi r1.xyz, r1.xyzx
mov r1.w, l(0)
ld r2.xyzw, r1.xyzw, t1.xyzw
add o2.xyzw, r2.xyzw, cb0[0].xyzw
ftoi r1.x, v[0][0].w
ld r2.xyzw, r1.xxxx, t2.xyzw
mov o3.xyzw, r2.xyzw
emit
ret
",
        gs_shaders::signature("Input signature", &rows(1)),
        gs_shaders::signature("Output signature", &rows(4)),
    ));
    let mut rng = Rng(0x7265_736f);
    let mut texels = |n: usize| -> Vec<u8> {
        (0..4 * n).flat_map(|_| ((rng.below(2001) as f32 - 1000.0) / 1000.0).to_le_bytes()).collect()
    };
    let t0 = texels(8 * 8);
    let t1 = texels(8 * 8 * 3);
    let t2 = texels(64);
    let res = GsResources {
        cbs: BTreeMap::from([(0, vec![[0.25f32, -0.5, 1.0, 2.0].map(f32::to_bits)])]),
        srvs: BTreeMap::from([
            (
                0,
                GsSrv::Texture {
                    dimension: exec::resources::Dimension::Texture2D,
                    width: 8,
                    height: 8,
                    layers: 1,
                    bytes: t0,
                },
            ),
            (
                1,
                GsSrv::Texture {
                    dimension: exec::resources::Dimension::Texture2DArray,
                    width: 8,
                    height: 8,
                    layers: 3,
                    bytes: t1,
                },
            ),
            (2, GsSrv::Buffer(translate::Format::R32G32B32A32_FLOAT, t2)),
        ]),
        samplers: vec![0],
    };
    // Point k: texel centres from one before the first to one past the last column and
    // row, slices -1 to 3 of 3, buffer element k (of 64).
    let n = 100u32;
    let data = (0..n)
        .map(|k| {
            let centre = |i: u32| ((i % 10) as f32 - 1.0 + 0.5) / 8.0;
            [centre(k), centre(k / 10), (k % 5) as f32 - 1.0, k as f32].map(f32::to_bits)
        })
        .collect();
    let (vs, input_registers) = gs_shaders::fitted_vs(&gs).expect("vertex shader");
    let so = gs_shaders::so_decl("TEXCOORD0.xyzw; TEXCOORD1.xyzw; TEXCOORD2.xyzw; TEXCOORD3.xyzw", &[64], 0);
    let draw = Draw {
        vs,
        gs,
        topology: Topology::PointList,
        data,
        stride: 1,
        input_registers,
        float_input: false,
        vertices: n,
        cbs: res.cbs.clone(),
        views: views(&res),
        samplers: res.samplers.clone(),
        so,
        so_sizes: [64 * n as usize, 0, 0, 0],
    };
    (draw, res)
}

/// The Vulkan views of the resources: typed buffers as they are, 1D textures as 2D
/// textures of height 1 (as the translation declares them).
pub fn views(res: &GsResources) -> BTreeMap<u32, View> {
    res.srvs
        .iter()
        .map(|(&r, v)| {
            let view = match v {
                GsSrv::Buffer(f, bytes) => View::Typed(*f, bytes.clone()),
                GsSrv::Texture1D(texels) => View::Texture {
                    width: (texels.len() / 16) as u32,
                    height: 1,
                    layers: 1,
                    array: false,
                    texels: texels.clone(),
                },
                &GsSrv::Texture { dimension, width, height, layers, ref bytes } => View::Texture {
                    width,
                    height,
                    layers,
                    array: dimension == exec::resources::Dimension::Texture2DArray,
                    texels: bytes.clone(),
                },
            };
            (r, view)
        })
        .collect()
}

/// A corpus geometry shader's draw and its resources, or why it is not compared.
pub fn corpus_draw(bytes: &[u8], rng: &mut Rng) -> Result<(Draw, GsResources), String> {
    let c = dxbc::Container::parse(bytes).map_err(|e| e.to_string())?;
    let chunk = c.chunk_any(&[dxbc::FourCc::SHEX, dxbc::FourCc::SHDR]).ok_or("no program")?;
    let program = tpf::decode(chunk.data).map_err(|e| e.to_string())?;
    let mut input = None;
    for ins in program.iter() {
        if let Body::Decl(Decl::InputPrimitive(p)) = ins.body {
            input = Some(p);
        }
    }
    let res = gs_reference::corpus_resources(bytes, rng)?;
    let topology = input.and_then(Topology::list_for).ok_or("not compared: no list topology for its input")?;
    let (vs, input_registers) = gs_shaders::fitted_vs(bytes)?;
    let stride = input_registers.iter().max().map_or(1, |m| m + 1);
    let so = gs_shaders::every_output(bytes).ok_or("no output signature")?;
    let mut size = [0u32; 4];
    for e in &so.entries {
        size[e.stream as usize] += 4 * u32::from(e.component_count);
    }
    let prims = CORPUS_PRIMITIVES;
    let vertices = prims * topology.vertices_per_primitive();
    let data = gs_reference::corpus_inputs(bytes, vertices, stride, rng)?;
    let draw = Draw {
        vs,
        gs: bytes.to_vec(),
        topology,
        data,
        stride,
        input_registers,
        float_input: false,
        vertices,
        cbs: res.cbs.clone(),
        views: views(&res),
        samplers: res.samplers.clone(),
        so,
        // Room for 40 primitives of 3 vertices per slot: some shaders fill it.
        so_sizes: size.map(|s| s as usize * 3 * 40),
    };
    Ok((draw, res))
}

/// The outcome line of draw `d`: the reference's outcome compared with `native`'s, or
/// why they are not compared.
pub fn run(d: &Draw, res: &GsResources, native: impl FnOnce() -> Result<Outcome, String>) -> String {
    let want = match reference(d, res) {
        Ok(w) => w,
        Err(e) => return format!("not compared: {e}"),
    };
    match native() {
        Ok(got) => compare(&want, &got),
        Err(e) => e,
    }
}

/// Every draw's outcome line through `run`, by name: `workload/quad`, `workload/cube`,
/// `resources` and each corpus geometry shader's id (its draw from a generator seeded
/// by the id's length).
pub fn outcomes(test: &str, mut run: impl FnMut(&Draw, &GsResources) -> String) -> BTreeMap<String, String> {
    let mut outcomes = BTreeMap::new();
    for (name, d) in [("workload/quad", quad()), ("workload/cube", cube())] {
        let res = GsResources { cbs: d.cbs.clone(), ..Default::default() };
        outcomes.insert(name.to_string(), corpus::expect::one_line(&run(&d, &res)));
    }
    let (d, res) = resources();
    outcomes.insert("resources".to_string(), corpus::expect::one_line(&run(&d, &res)));
    if let Some(entries) = corpus::dxbc_entries(test) {
        for (id, bytes, _) in gs_shaders::corpus_geometry_shaders(&entries) {
            let mut rng = Rng(0x6753_0000 ^ id.len() as u64);
            let outcome = match corpus_draw(&bytes, &mut rng) {
                Ok((d, res)) => run(&d, &res),
                Err(why) => why,
            };
            outcomes.insert(id, corpus::expect::one_line(&outcome));
        }
    }
    outcomes
}

/// Checks every draw's outcome line ([`outcomes`] of `test`, each draw [`run`] with
/// `native` as the native side) against the expectation file `expect`.
pub fn check(test: &str, expect: &str, native: impl Fn(&Draw) -> Result<Outcome, String>) {
    let outcomes = outcomes(test, |d: &Draw, res: &GsResources| run(d, res, || native(d)));
    corpus::expect::check(expect, &outcomes);
}

/// Checks that `native` does not draw the *quad* workload with a stream-output stride
/// 4 bytes over `limit` (its transform-feedback limit), saying why.
pub fn check_stride_over(limit: u32, native: impl FnOnce(&Draw) -> Result<Outcome, String>) {
    let mut d = quad();
    d.so.strides = vec![limit + 4];
    let e = native(&d).expect_err("a stride over the limit drawn");
    assert!(e.starts_with("not compared: a transform-feedback stride of"), "{e}");
}
