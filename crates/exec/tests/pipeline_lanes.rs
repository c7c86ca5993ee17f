//! Draws with invocations in lanes (`pipeline::draw`), and with the lanes' batches
//! on three threads (`pipeline::draw_parallel`), against the same draws one
//! invocation at a time (`pipeline::draw_one_at_a_time`): random vertex and geometry
//! shaders — straight-line and branching (branches that differ between invocations,
//! loops of per-invocation length, switches, subroutines with recursion, early
//! returns), relative indexing of temps, inputs, constant buffers (their slots too)
//! and the immediate constant buffer, `_sat` and source modifiers, emits and cuts on one or two streams
//! inside branches and loops, `dcl_maxout` reached mid-program, instances, small step
//! limits — over random draws (every input primitive, lists and strips, indices with
//! strip cuts, instancing). Stream output (bytes and offsets), captured primitives,
//! statistics and errors must be the same, bit for bit.

mod common_pipeline;
use common_pipeline::*;
use exec::pipeline::{self, DrawCall, DrawResult, IndexFormat, Pipeline, SoTarget, StreamOutput, Topology};
use exec::{ExecError, Format, Plan, Resources};

/// Register values: small integers, float bits (ones, halves, negative, NaN,
/// infinity, denormal, huge), all ones.
const VALUES: [u32; 16] = [
    0,
    1,
    2,
    3,
    5,
    0xffff_ffff,
    0x3f80_0000,
    0xbf80_0000,
    0x3f00_0000,
    0x4120_0000,
    0x7fc0_0000,
    0x7f80_0000,
    0x0000_0001,
    0x8000_0003,
    0x7f7f_ffff,
    0xc2c8_0000,
];

/// Draws compared.
const CASES: usize = 1500;

const FLOATS: [&str; 10] = ["0.5", "1.0", "-1.0", "2.0", "-0.25", "3.5", "100.0", "0.0", "-0.0", "0x00000003"];

struct Gen {
    rng: corpus::Rng,
    gs: bool,
    /// Vertices of each GS input primitive.
    vertices: usize,
    two_streams: bool,
    labels: bool,
}

impl Gen {
    fn pick<'a>(&mut self, items: &[&'a str]) -> &'a str {
        items[self.rng.below(items.len())]
    }

    fn comp(&mut self) -> &'static str {
        ["x", "y", "z", "w"][self.rng.below(4)]
    }

    fn swizzle(&mut self) -> String {
        match self.rng.below(4) {
            0 => "xyzw".into(),
            1 => self.comp().into(),
            _ => (0..4).map(|_| self.comp()).collect(),
        }
    }

    fn mask(&mut self) -> &'static str {
        ["x", "y", "z", "w", "xy", "xyz", "xyzw", "yw", "xz", "zw"][self.rng.below(10)]
    }

    fn imm(&mut self, float: bool) -> String {
        let one = |g: &mut Gen| {
            if float {
                g.pick(&FLOATS).to_string()
            } else {
                ["0", "1", "2", "3", "-1", "7", "31", "33", "0x7fffffff", "-2147483648"][g.rng.below(10)].to_string()
            }
        };
        if self.rng.below(3) == 0 {
            format!("l({})", one(self))
        } else {
            format!("l({}, {}, {}, {})", one(self), one(self), one(self), one(self))
        }
    }

    /// A source operand (`float`: of a float operation, which may take `-`/`|..|`).
    fn src(&mut self, float: bool) -> String {
        let base = match self.rng.below(if self.gs { 14 } else { 11 }) {
            0 | 1 => return self.imm(float),
            2 => format!("cb0[{}].{}", self.rng.below(8), self.swizzle()),
            3 if self.rng.below(4) == 0 => {
                // A uniformly indexed slot (cb[r# + k][r# + k]: spec 7.11).
                let (r, c, k) = (self.rng.below(5), self.comp(), self.rng.below(2));
                format!(
                    "cb[r{r}.{c} + {k}][r{}.{} + {}].{}",
                    self.rng.below(5),
                    self.comp(),
                    self.rng.below(4),
                    self.swizzle()
                )
            }
            3 => format!("cb0[r{}.{} + {}].{}", self.rng.below(5), self.comp(), self.rng.below(4), self.swizzle()),
            4 => format!("x0[r{}.{} + {}].{}", self.rng.below(5), self.comp(), self.rng.below(3), self.swizzle()),
            5 => format!("icb[r{}.{} + {}].{}", self.rng.below(5), self.comp(), self.rng.below(2), self.swizzle()),
            6 if !self.gs => format!("v{}.{}", self.rng.below(3), self.swizzle()),
            6 => format!("v[{}][{}].{}", self.rng.below(self.vertices), self.rng.below(2), self.swizzle()),
            7 if self.gs => "vPrim".into(),
            8 if self.gs => "vGSInstanceID.x".into(),
            9 if self.gs => {
                format!("v[r{}.{} + 0][{}].{}", self.rng.below(5), self.comp(), self.rng.below(2), self.swizzle())
            }
            10 if self.gs => format!("o{}.{}", self.rng.below(2), self.swizzle()),
            _ => format!("r{}.{}", self.rng.below(5), self.swizzle()),
        };
        if !base.starts_with('v') || base.starts_with("v[") {
            match self.rng.below(if float { 6 } else { 8 }) {
                0 => return format!("-{base}"),
                1 if float => return format!("|{base}|"),
                2 if float => return format!("-|{base}|"),
                _ => {}
            }
        }
        base
    }

    fn dst(&mut self) -> String {
        match self.rng.below(10) {
            0 => format!("x0[r{}.{} + {}].{}", self.rng.below(5), self.comp(), self.rng.below(3), self.mask()),
            1 => format!("x0[{}].{}", self.rng.below(4), self.mask()),
            2 | 3 => format!("o0.{}", self.mask()),
            4 => format!("o1.{}", ["x", "y", "xy"][self.rng.below(3)]),
            5 if self.two_streams => format!("o2.{}", self.mask()),
            _ => format!("r{}.{}", self.rng.below(5), self.mask()),
        }
    }

    fn cond(&mut self) -> String {
        match self.rng.below(5) {
            0 if self.gs => format!("v[{}][0].{}", self.rng.below(self.vertices), self.comp()),
            1 if self.gs => "vPrim".into(),
            1 => format!("v{}.{}", self.rng.below(3), self.comp()),
            _ => format!("r{}.{}", self.rng.below(5), self.comp()),
        }
    }

    fn alu(&mut self, out: &mut String) {
        let sat = |g: &mut Gen| if g.rng.below(5) == 0 { "_sat" } else { "" };
        match self.rng.below(12) {
            0..=2 => {
                let op = self.pick(&["add", "mul", "div", "min", "max", "lt", "ge", "eq", "ne", "dp2", "dp3", "dp4"]);
                let s = if op.len() == 2 || matches!(op, "lt" | "ge" | "eq" | "ne") { "" } else { sat(self) };
                *out += &format!("{op}{s} {}, {}, {}\n", self.dst(), self.src(true), self.src(true));
            }
            3 | 4 => {
                let op = self.pick(&[
                    "mov", "sqrt", "rsq", "rcp", "frc", "round_ne", "round_ni", "round_z", "exp", "log", "itof", "utof",
                ]);
                *out += &format!("{op}{} {}, {}\n", sat(self), self.dst(), self.src(op != "itof" && op != "utof"));
            }
            5 => {
                let op = self.pick(&[
                    "ftoi",
                    "ftou",
                    "f32tof16",
                    "f16tof32",
                    "ineg",
                    "not",
                    "countbits",
                    "firstbit_hi",
                    "bfrev",
                ]);
                *out += &format!("{op} {}, {}\n", self.dst(), self.src(op.starts_with('f')));
            }
            6 | 7 => {
                let op = self
                    .pick(&["iadd", "ishl", "ushr", "ishr", "and", "or", "xor", "imax", "umin", "ieq", "ilt", "uge"]);
                *out += &format!("{op} {}, {}, {}\n", self.dst(), self.src(false), self.src(false));
            }
            8 => {
                *out += &format!(
                    "mad{} {}, {}, {}, {}\n",
                    sat(self),
                    self.dst(),
                    self.src(true),
                    self.src(true),
                    self.src(true)
                );
            }
            9 => {
                let op = self.pick(&["movc", "imad", "ubfe", "ibfe"]);
                *out +=
                    &format!("{op} {}, {}, {}, {}\n", self.dst(), self.src(false), self.src(false), self.src(false));
            }
            10 => {
                let (a, b) = (self.rng.below(5), self.rng.below(5));
                match self.rng.below(4) {
                    0 => {
                        *out += &format!("imul null, r{a}.{}, {}, {}\n", self.mask(), self.src(false), self.src(false))
                    }
                    1 => *out += &format!("udiv r{a}.x, r{b}.y, {}, {}\n", self.src(false), self.src(false)),
                    2 => *out += &format!("sincos r{a}.xy, r{b}.zw, {}\n", self.src(true)),
                    _ => {
                        *out += &format!(
                            "swapc r{a}.xy, r{b}.xy, {}, {}, {}\n",
                            self.src(false),
                            self.src(false),
                            self.src(false)
                        )
                    }
                }
            }
            _ => {
                *out += &format!(
                    "bfi {}, {}, {}, {}, {}\n",
                    self.dst(),
                    self.src(false),
                    self.src(false),
                    self.src(false),
                    self.src(false)
                );
            }
        }
    }

    fn output(&mut self, out: &mut String) {
        if !self.gs {
            return self.alu(out);
        }
        let stream = if self.two_streams { self.rng.below(2) } else { 0 };
        let op = self.pick(&["emit", "emit", "emit", "cut", "emit_then_cut"]);
        if self.two_streams {
            *out += &format!("{op}_stream m{stream}\n");
        } else {
            *out += &format!("{op}\n");
        }
    }

    fn body(&mut self, depth: u32, in_loop: bool, out: &mut String) {
        for _ in 0..1 + self.rng.below(7) {
            match self.rng.below(16) {
                0..=5 => self.alu(out),
                6..=8 => {
                    // Write something an emit takes, then emit.
                    *out += &format!("mov o0.{}, {}\n", self.mask(), self.src(false));
                    self.output(out);
                }
                9 if depth < 3 => {
                    *out += &format!("if_{} {}\n", ["nz", "z"][self.rng.below(2)], self.cond());
                    self.body(depth + 1, in_loop, out);
                    if self.rng.below(2) == 0 {
                        *out += "else\n";
                        self.body(depth + 1, in_loop, out);
                    }
                    *out += "endif\n";
                }
                10 if depth < 3 && !in_loop => {
                    // A loop whose trip count may differ between invocations.
                    let limit = match self.rng.below(3) {
                        0 => format!("l({})", self.rng.below(5)),
                        1 if self.gs => "vPrim".into(),
                        _ => format!("r{}.{}", self.rng.below(5), self.comp()),
                    };
                    *out += &format!(
                        "and r5.y, {limit}, l(7)\nmov r5.w, l(0)\nloop\nuge r5.z, r5.w, r5.y\nbreakc_nz r5.z\n"
                    );
                    self.body(depth + 1, true, out);
                    if self.rng.below(3) == 0 {
                        *out += &format!("iadd r5.w, r5.w, l(1)\ncontinuec_z {}\nendloop\n", self.cond());
                    } else {
                        *out += "iadd r5.w, r5.w, l(1)\nendloop\n";
                    }
                }
                11 if depth < 3 => {
                    *out += &format!("switch {}\ncase l(0)\n", self.cond());
                    self.body(depth + 1, in_loop, out);
                    *out += "break\ncase l(1)\ncase l(3)\n";
                    self.body(depth + 1, in_loop, out);
                    *out += "break\ndefault\n";
                    self.body(depth + 1, in_loop, out);
                    *out += "break\nendswitch\n";
                }
                12 if self.labels && !in_loop => {
                    if self.rng.below(2) == 0 {
                        *out += &format!("call l{}\n", self.rng.below(2));
                    } else {
                        *out += &format!("callc_nz {}, l{}\n", self.cond(), self.rng.below(2));
                    }
                }
                13 if depth > 0 => *out += &format!("retc_{} {}\n", ["nz", "z"][self.rng.below(2)], self.cond()),
                _ => self.output(out),
            }
        }
    }

    /// The program's instructions: the main body, then (maybe) two subroutines that
    /// may call each other.
    fn program(&mut self) -> String {
        let mut s = String::new();
        self.body(0, false, &mut s);
        s += "ret\n";
        if self.labels {
            for l in 0..2 {
                s += &format!("label l{l}\n");
                self.body(1, false, &mut s);
                if self.rng.below(2) == 0 {
                    s += &format!("call l{}\n", 1 - l);
                }
                s += "ret\n";
            }
        }
        s
    }
}

const DECLS: &str = "dcl_constantbuffer cb0[8], dynamicIndexed\n\
    dcl_immediateConstantBuffer { { 1.0, 2, -1, 0x7fc00000 }, { 3, 0.5, 0, 1 }, { 0xffffffff, 5, 6, 7 }, { 2, 1, 0, 3 } }\n";

fn vertex_shader(g: &mut Gen) -> String {
    g.gs = false;
    g.labels = g.rng.below(3) == 0;
    let program = g.program();
    format!(
        "{}{}vs_5_0\n{DECLS}dcl_input v0.xyzw\ndcl_input_sgv v1.x, vertex_id\ndcl_input_sgv v2.x, instance_id\n\
         dcl_output o0.xyzw\ndcl_output o1.xy\ndcl_temps 6\ndcl_indexableTemp x0[4], 4\n{program}",
        signature(
            "Input signature",
            &[
                ("VALUE", 0, "xyzw", 0, "NONE", "uint"),
                ("SV_VertexID", 0, "x", 1, "VERTID", "uint"),
                ("SV_InstanceID", 0, "x", 2, "INSTID", "uint"),
            ]
        ),
        signature(
            "Output signature",
            &[("TEXCOORD", 0, "xyzw", 0, "NONE", "uint"), ("TEXCOORD", 1, "xy", 1, "NONE", "uint")]
        ),
    )
}

const GS_INPUTS: [(&str, usize); 5] = [("point", 1), ("line", 2), ("triangle", 3), ("lineadj", 4), ("triangleadj", 6)];

fn geometry_shader(g: &mut Gen, input: usize) -> String {
    let (primitive, vertices) = GS_INPUTS[input];
    g.gs = true;
    g.vertices = vertices;
    g.two_streams = g.rng.below(3) == 0;
    g.labels = g.rng.below(3) == 0;
    let program = g.program();
    let topology = |g: &mut Gen| g.pick(&["pointlist", "linestrip", "trianglestrip"]);
    let outputs = if g.two_streams {
        format!(
            "dcl_stream m0\ndcl_outputtopology {}\ndcl_output o0.xyzw\ndcl_output o1.xy\n\
             dcl_stream m1\ndcl_outputtopology {}\ndcl_output o2.xyzw\n",
            topology(g),
            topology(g)
        )
    } else {
        format!("dcl_outputtopology {}\ndcl_output o0.xyzw\ndcl_output o1.xy\n", topology(g))
    };
    let out_sig: Vec<(&str, u32, &str, u32, &str, &str)> = if g.two_streams {
        vec![
            ("m0:A", 0, "xyzw", 0, "NONE", "uint"),
            ("m0:B", 0, "xy", 1, "NONE", "uint"),
            ("m1:C", 0, "xyzw", 2, "NONE", "uint"),
        ]
    } else {
        vec![("A", 0, "xyzw", 0, "NONE", "uint"), ("B", 0, "xy", 1, "NONE", "uint")]
    };
    format!(
        "{}{}gs_5_0\n{DECLS}dcl_input v[{vertices}][0].xyzw\ndcl_input v[{vertices}][1].xy\ndcl_input vPrim\n\
         dcl_input vGSInstanceID\ndcl_temps 6\ndcl_indexableTemp x0[4], 4\ndcl_inputprimitive {primitive}\n{outputs}\
         dcl_maxout {}\ndcl_gsinstances {}\n{program}",
        signature(
            "Input signature",
            &[("TEXCOORD", 0, "xyzw", 0, "NONE", "uint"), ("TEXCOORD", 1, "xy", 1, "NONE", "uint")]
        ),
        signature("Output signature", &out_sig),
        1 + g.rng.below(8),
        1 + g.rng.below(4),
    )
}

fn assemble(text: &str) -> Option<Plan> {
    let bytes = listing::asm::assemble(text, &listing::asm::AsmOptions::default()).ok()?.bytes;
    Plan::from_bytecode(&bytes).ok()
}

/// One draw's result and stream-output memory.
struct Outcome {
    result: Result<DrawResult, ExecError>,
    memory: Vec<Vec<u8>>,
    offsets: [u32; 4],
}

/// Which draw function runs.
#[derive(Clone, Copy, PartialEq)]
enum How {
    OneAtATime,
    Lanes,
    /// `draw_parallel`, on the current rayon pool.
    Parallel,
}

#[allow(clippy::too_many_arguments)]
fn run(
    how: How,
    s: &Setup<'_>,
    constants: &[[u32; 4]],
    call: DrawCall,
    so: Option<&streamout::StreamOutputDesc>,
    sizes: &[usize],
    capture: bool,
    step_limit: u64,
) -> Outcome {
    let mut memory: Vec<Vec<u8>> = sizes.iter().map(|&n| vec![0xa5u8; n]).collect();
    let mut offsets = [4u32, 0, 0, 0];
    let mut targets: [Option<SoTarget<'_>>; 4] = Default::default();
    for ((t, m), &offset) in targets.iter_mut().zip(memory.iter_mut()).zip(&offsets) {
        *t = Some(SoTarget { data: m.as_mut_slice(), offset });
    }
    let mut resources = Resources::default();
    resources.constant_buffers[0] = Some(constants);
    let mut gs_resources = Resources::default();
    gs_resources.constant_buffers[0] = Some(constants);
    let mut state = Pipeline {
        input_layout: &s.layout,
        vertex_buffers: &s.buffers,
        index_buffer: s.index,
        topology: s.topology,
        vs: s.vs,
        gs: s.gs,
        vs_resources: resources,
        gs_resources,
        stream_output: so.map(|declaration| StreamOutput { declaration, targets }),
        capture,
        step_limit,
        checking: false,
    };
    let result = match how {
        How::OneAtATime => pipeline::draw_one_at_a_time(&mut state, call),
        How::Lanes => pipeline::draw(&mut state, call),
        How::Parallel => pipeline::draw_parallel(&mut state, call),
    };
    if let Some(so) = &state.stream_output {
        for (slot, t) in so.targets.iter().enumerate() {
            if let Some(t) = t {
                offsets[slot] = t.offset;
            }
        }
    }
    drop(state);
    Outcome { result, memory, offsets }
}

fn same(a: &Outcome, b: &Outcome, what: &str) {
    match (&a.result, &b.result) {
        (Ok(x), Ok(y)) => {
            assert_eq!(x.statistics, y.statistics, "{what}: statistics");
            assert_eq!(x.so_statistics, y.so_statistics, "{what}: stream-output statistics");
            assert_eq!(x.rasterized_stream, y.rasterized_stream, "{what}");
            assert_eq!(x.streams, y.streams, "{what}: captured primitives");
        }
        (Err(x), Err(y)) => assert_eq!(x.to_string(), y.to_string(), "{what}: errors"),
        (x, y) => {
            panic!("{what}: {:?} against {:?}", x.as_ref().map(|r| r.statistics), y.as_ref().map(|r| r.statistics))
        }
    }
    assert_eq!(a.offsets, b.offsets, "{what}: stream-output offsets");
    for (slot, (x, y)) in a.memory.iter().zip(&b.memory).enumerate() {
        if let Some(at) = x.iter().zip(y).position(|(p, q)| p != q) {
            panic!(
                "{what}: stream-output bytes of slot {slot} differ from byte {at}: {:?} against {:?} ({:?})",
                words(&x[at & !3..(at & !3) + 16]),
                words(&y[at & !3..(at & !3) + 16]),
                a.result.as_ref().map(|r| r.so_statistics)
            );
        }
    }
}

/// Topologies feeding each GS input primitive.
fn topologies(input: usize) -> &'static [Topology] {
    match input {
        0 => &[Topology::PointList],
        1 => &[Topology::LineList, Topology::LineStrip],
        2 => &[Topology::TriangleList, Topology::TriangleStrip],
        3 => &[Topology::LineListAdj, Topology::LineStripAdj],
        _ => &[Topology::TriangleListAdj, Topology::TriangleStripAdj],
    }
}

#[test]
fn lanes_match_one_invocation_at_a_time() {
    let mut g =
        Gen { rng: corpus::Rng(0x5eed_1a9e_5d1f_f003), gs: false, vertices: 1, two_streams: false, labels: false };
    let (mut compared, mut in_lanes, mut errors, mut refused) = (0, 0, 0, 0);
    let pool = rayon::ThreadPoolBuilder::new().num_threads(3).build().unwrap();
    for case in 0..CASES {
        let input = g.rng.below(5);
        let with_vs = g.rng.below(6) != 0;
        let with_gs = g.rng.below(8) != 0 || !with_vs;
        let vs_text = if with_vs { vertex_shader(&mut g) } else { String::new() };
        let gs_text = if with_gs { geometry_shader(&mut g, input) } else { String::new() };
        let vs = if with_vs { assemble(&vs_text) } else { None };
        let gs = if with_gs { assemble(&gs_text) } else { None };
        if (with_vs && vs.is_none()) || (with_gs && gs.is_none()) {
            refused += 1;
            continue;
        }
        let (vs, gs) = (vs.as_ref(), gs.as_ref());
        if vs.is_none_or(Plan::runs_in_lanes) && gs.is_none_or(Plan::runs_in_lanes) {
            in_lanes += 1;
        }
        // Vertex data (and, without a vertex shader, the GS reads the IA's registers,
        // so the layout feeds both TEXCOORD elements).
        let n = g.rng.below(70) as u32;
        let data = u32_bytes(&(0..4 * (n + 8)).map(|_| VALUES[g.rng.below(16)]).collect::<Vec<_>>());
        let layout = if with_vs {
            vec![element("VALUE", 0, Format::R32G32B32A32_UINT, 0, 0)]
        } else {
            vec![
                element("TEXCOORD", 0, Format::R32G32B32A32_UINT, 0, 0),
                element("TEXCOORD", 1, Format::R32G32_UINT, 0, 4),
            ]
        };
        let topology = if with_gs {
            let t = topologies(input);
            t[g.rng.below(t.len())]
        } else {
            Topology::ALL[g.rng.below(9)]
        };
        let mut s = Setup::new(topology, vs, gs).layout(layout).buffer(0, &data, 16, 0);
        let indices: Vec<u16> =
            (0..n).map(|_| if g.rng.below(10) == 0 { 0xffff } else { g.rng.below(n as usize + 4) as u16 }).collect();
        let index_bytes = u16_bytes(&indices);
        let call = match g.rng.below(4) {
            0 => DrawCall::Draw { vertex_count: n, start_vertex: g.rng.below(3) as u32 },
            1 => {
                s = s.indices(&index_bytes, IndexFormat::U16, 0);
                DrawCall::DrawIndexed { index_count: n, start_index: 0, base_vertex: g.rng.below(3) as i32 }
            }
            2 => DrawCall::DrawInstanced {
                vertex_count_per_instance: n / 2,
                instance_count: 1 + g.rng.below(3) as u32,
                start_vertex: 0,
                start_instance: 0,
            },
            _ => {
                s = s.indices(&index_bytes, IndexFormat::U16, 0);
                DrawCall::DrawIndexedInstanced {
                    index_count_per_instance: n / 2,
                    instance_count: 1 + g.rng.below(3) as u32,
                    start_index: 0,
                    base_vertex: 0,
                    start_instance: 0,
                }
            }
        };
        let constants: Vec<[u32; 4]> = (0..8).map(|_| [0; 4].map(|_: u32| VALUES[g.rng.below(16)])).collect();
        // Stream output of what the last stage declares, to buffers of various room.
        let two = gs.is_some_and(|p| p.streams == 0b11);
        let so = match (gs.is_some(), two, g.rng.below(3)) {
            (_, _, 0) => None,
            (true, true, _) => Some(so_decl("A.xyzw; B.xy; s1:1:C.xyzw", &[], 0)),
            (true, false, _) => Some(so_decl("A.xyzw; B.xy", &[], 0)),
            (false, _, _) => Some(so_decl("TEXCOORD0.xyzw; 1:TEXCOORD1.y", &[], 0)),
        };
        let room = [64, 700, 1 << 16][g.rng.below(3)];
        let sizes = [room, room / 3];
        let capture = g.rng.below(2) == 0;
        let step_limit =
            if g.rng.below(2) == 0 { exec::Machine::DEFAULT_STEP_LIMIT } else { 8 + g.rng.below(300) as u64 };
        let one = run(How::OneAtATime, &s, &constants, call, so.as_ref(), &sizes, capture, step_limit);
        let lanes = run(How::Lanes, &s, &constants, call, so.as_ref(), &sizes, capture, step_limit);
        // On three threads, so that batches finish out of order.
        let parallel =
            pool.install(|| run(How::Parallel, &s, &constants, call, so.as_ref(), &sizes, capture, step_limit));
        let what = format!(
            "case {case}: {topology:?} {call:?} capture {capture} step limit {step_limit}\n{vs_text}\n{gs_text}"
        );
        same(&one, &lanes, &what);
        same(&one, &parallel, &format!("parallel, {what}"));
        compared += 1;
        if one.result.is_err() {
            errors += 1;
        }
    }
    eprintln!("compared {compared} draws ({in_lanes} in lanes, {errors} ending in errors), {refused} refused");
    // The generator is seeded: these counts are what it draws. A change to the generator
    // or to what the assembler accepts changes them, on purpose only: every draw is
    // compared, each in lanes, and some end at a step limit.
    assert_eq!(
        (compared, in_lanes, errors, refused),
        (1343, 1343, 34, 157),
        "draws compared, in lanes, in errors, refused"
    );
}
