//! Shared helpers of the pipeline tests: shaders from listings, vertex data, one draw
//! with or without stream output, and the captured primitives as plain numbers.

#![allow(dead_code)]

use exec::pipeline::{
    self, DrawCall, DrawResult, IndexBuffer, IndexFormat, InputElement, Pipeline, SoTarget, StreamOutput,
    StreamPrimitives, Topology, VertexBuffer,
};
use exec::{ExecError, Format, Plan, Resources};

/// Assembles a listing (fxc's syntax, signature tables in the header comment) and
/// compiles it.
pub fn plan(text: &str) -> Plan {
    let bytes = match listing::asm::assemble(text, &listing::asm::AsmOptions::default()) {
        Ok(a) => a.bytes,
        Err(e) => panic!("assembling:\n{text}\n{e:#?}"),
    };
    match Plan::from_bytecode(&bytes) {
        Ok(p) => p,
        Err(e) => panic!("compiling:\n{text}\n{e}"),
    }
}

/// A signature table for a listing header: `(name, index, mask, register, sysvalue,
/// format)` rows.
pub fn signature(title: &str, rows: &[(&str, u32, &str, u32, &str, &str)]) -> String {
    let mut s = format!(
        "//\n// {title}:\n//\n// Name                 Index   Mask Register SysValue  Format   Used\n// -------------------- ----- ------ -------- -------- ------- ------\n"
    );
    for (name, index, mask, register, sv, format) in rows {
        s += &format!("// {name:<20} {index:>5}   {mask:<4} {register:>8} {sv:>8} {format:>7}   {mask:<4}\n");
    }
    s += "//\n";
    s
}

/// A per-vertex element.
pub fn element(name: &str, index: u32, format: Format, slot: u32, offset: u32) -> InputElement {
    InputElement {
        semantic_name: name.into(),
        semantic_index: index,
        format,
        input_slot: slot,
        aligned_byte_offset: offset,
        per_instance: false,
        instance_data_step_rate: 0,
    }
}

/// A per-instance element.
pub fn instance_element(name: &str, index: u32, format: Format, slot: u32, offset: u32, rate: u32) -> InputElement {
    InputElement { per_instance: true, instance_data_step_rate: rate, ..element(name, index, format, slot, offset) }
}

pub fn u32_bytes(values: &[u32]) -> Vec<u8> {
    values.iter().flat_map(|v| v.to_le_bytes()).collect()
}

pub fn f32_bytes(values: &[f32]) -> Vec<u8> {
    values.iter().flat_map(|v| v.to_le_bytes()).collect()
}

pub fn u16_bytes(values: &[u16]) -> Vec<u8> {
    values.iter().flat_map(|v| v.to_le_bytes()).collect()
}

pub fn words(bytes: &[u8]) -> Vec<u32> {
    bytes.chunks_exact(4).map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]])).collect()
}

/// One draw's state, owned.
pub struct Setup<'a> {
    pub layout: Vec<InputElement>,
    pub buffers: Vec<Option<VertexBuffer<'a>>>,
    pub index: Option<IndexBuffer<'a>>,
    pub topology: Topology,
    pub vs: Option<&'a Plan>,
    pub gs: Option<&'a Plan>,
    pub vs_resources: Resources<'a>,
    pub gs_resources: Resources<'a>,
    pub capture: bool,
    pub checking: bool,
    pub step_limit: u64,
}

impl<'a> Setup<'a> {
    pub fn new(topology: Topology, vs: Option<&'a Plan>, gs: Option<&'a Plan>) -> Setup<'a> {
        Setup {
            layout: Vec::new(),
            buffers: Vec::new(),
            index: None,
            topology,
            vs,
            gs,
            vs_resources: Resources::default(),
            gs_resources: Resources::default(),
            capture: true,
            checking: false,
            step_limit: exec::Machine::DEFAULT_STEP_LIMIT,
        }
    }

    /// Binds `data` at `slot` with `stride` and `offset`.
    pub fn buffer(mut self, slot: usize, data: &'a [u8], stride: u32, offset: u32) -> Setup<'a> {
        if self.buffers.len() <= slot {
            self.buffers.resize(slot + 1, None);
        }
        self.buffers[slot] = Some(VertexBuffer { data, stride, offset });
        self
    }

    pub fn layout(mut self, layout: Vec<InputElement>) -> Setup<'a> {
        self.layout = layout;
        self
    }

    pub fn indices(mut self, data: &'a [u8], format: IndexFormat, offset: u32) -> Setup<'a> {
        self.index = Some(IndexBuffer { data, format, offset });
        self
    }

    /// Runs `call` without stream output.
    pub fn draw(&mut self, call: DrawCall) -> Result<DrawResult, ExecError> {
        self.draw_so(call, None, &mut [], &mut [0; 4])
    }

    /// Runs `call` with stream output `so` to `memory` (one buffer per slot; an empty
    /// one is unbound) from `offsets` (updated).
    pub fn draw_so(
        &mut self,
        call: DrawCall,
        so: Option<&streamout::StreamOutputDesc>,
        memory: &mut [Vec<u8>],
        offsets: &mut [u32; 4],
    ) -> Result<DrawResult, ExecError> {
        let mut it = memory.iter_mut();
        let mut targets: [Option<SoTarget<'_>>; 4] = Default::default();
        for (slot, t) in targets.iter_mut().enumerate() {
            if let Some(m) = it.next() {
                if !m.is_empty() {
                    *t = Some(SoTarget { data: m.as_mut_slice(), offset: offsets[slot] });
                }
            }
        }
        let mut state = Pipeline {
            input_layout: &self.layout,
            vertex_buffers: &self.buffers,
            index_buffer: self.index,
            topology: self.topology,
            vs: self.vs,
            gs: self.gs,
            vs_resources: std::mem::take(&mut self.vs_resources),
            gs_resources: std::mem::take(&mut self.gs_resources),
            stream_output: so.map(|declaration| StreamOutput { declaration, targets }),
            capture: self.capture,
            step_limit: self.step_limit,
            checking: self.checking,
        };
        let result = pipeline::draw(&mut state, call);
        if let Some(so) = &state.stream_output {
            for (slot, t) in so.targets.iter().enumerate() {
                if let Some(t) = t {
                    offsets[slot] = t.offset;
                }
            }
        }
        result
    }
}

/// `Draw(n, 0)`.
pub fn draw(n: u32) -> DrawCall {
    DrawCall::Draw { vertex_count: n, start_vertex: 0 }
}

/// The stream `s` of a result.
pub fn stream(result: &DrawResult, s: u32) -> &StreamPrimitives {
    result.streams.iter().find(|p| p.stream == s).unwrap_or_else(|| panic!("no stream {s} in {:?}", result.streams))
}

/// Each primitive of a stream as the values of register `r`, component `c`, of its
/// vertices.
pub fn component(stream: &StreamPrimitives, r: usize, c: usize) -> Vec<Vec<u32>> {
    stream.primitives.iter().map(|p| p.iter().map(|v| v.registers[r][c]).collect()).collect()
}

/// Each primitive of a stream as register `r` of its vertices.
pub fn register(stream: &StreamPrimitives, r: usize) -> Vec<Vec<[u32; 4]>> {
    stream.primitives.iter().map(|p| p.iter().map(|v| v.registers[r]).collect()).collect()
}

/// The identity vertex shader of the tests: `VALUE` (uint4, register 0) to
/// `TEXCOORD0` (uint4), and `SV_VertexID` and `SV_InstanceID` to `TEXCOORD1.xy`.
pub fn ids_vs() -> Plan {
    plan(&format!(
        "{}{}vs_4_0\ndcl_input v0.xyzw\ndcl_input_sgv v1.x, vertex_id\ndcl_input_sgv v2.x, instance_id\n\
         dcl_output o0.xyzw\ndcl_output o1.xy\nmov o0.xyzw, v0.xyzw\nmov o1.x, v1.x\nmov o1.y, v2.x\nret\n",
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
    ))
}

/// A geometry shader taking `input` primitives of `n` vertices that emits each input
/// vertex as a point, in order: `o0` = the vertex's `v[k][0]`, `o1` = (`vPrim`,
/// `vGSInstanceID`, k); `instances` GS instances.
pub fn echo_gs(input: &str, n: usize, instances: u32) -> Plan {
    let mut body = String::new();
    for k in 0..n {
        body += &format!(
            "mov o0.xyzw, v[{k}][0].xyzw\nmov o1.x, vPrim\nmov o1.y, vGSInstanceID.x\nmov o1.z, l({k})\nemit\n"
        );
    }
    plan(&format!(
        "{}{}gs_5_0\ndcl_input v[{n}][0].xyzw\ndcl_input vPrim\ndcl_input vGSInstanceID\ndcl_inputprimitive {input}\n\
         dcl_outputtopology pointlist\ndcl_output o0.xyzw\ndcl_output o1.xyz\ndcl_maxout {n}\ndcl_gsinstances {instances}\n{body}ret\n",
        signature("Input signature", &[("TEXCOORD", 0, "xyzw", 0, "NONE", "uint")]),
        signature("Output signature", &[("TEXCOORD", 0, "xyzw", 0, "NONE", "uint"), ("TEXCOORD", 1, "xyz", 1, "NONE", "uint")]),
    ))
}

/// `n` vertices of `VALUE` = (100 + i, 0, 0, 0), uint4 (stride 16).
pub fn value_data(n: u32) -> Vec<u8> {
    u32_bytes(&(0..n).flat_map(|i| [100 + i, 0, 0, 0]).collect::<Vec<_>>())
}

/// The layout of [`value_data`].
pub fn value_layout() -> Vec<InputElement> {
    vec![element("VALUE", 0, Format::R32G32B32A32_UINT, 0, 0)]
}

/// Four point streams: stream 0 `A` = o0.x = VALUE; stream 1 `B` = o0.xy = (10, vPrim);
/// stream 2 `C` = o1.x = 20 (emitted twice); stream 3 `D` = o0.x = 30 and `E` =
/// o2.xyzw = (1, 2, 3, 4).
pub fn four_streams_gs() -> Plan {
    plan(&format!(
        "{}{}gs_5_0\ndcl_input v[1][0].x\ndcl_input vPrim\ndcl_inputprimitive point\n\
         dcl_stream m0\ndcl_outputtopology pointlist\ndcl_output o0.x\n\
         dcl_stream m1\ndcl_outputtopology pointlist\ndcl_output o0.xy\n\
         dcl_stream m2\ndcl_outputtopology pointlist\ndcl_output o1.x\n\
         dcl_stream m3\ndcl_outputtopology pointlist\ndcl_output o0.x\ndcl_output o2.xyzw\n\
         dcl_maxout 5\n\
         mov o0.x, v[0][0].x\nemit_stream m0\n\
         mov o0.x, l(10)\nmov o0.y, vPrim\nemit_stream m1\n\
         mov o1.x, l(20)\nemit_stream m2\ncut_stream m2\nmov o1.x, l(20)\nemit_stream m2\n\
         mov o0.x, l(30)\nmov o2.xyzw, l(1,2,3,4)\nemit_then_cut_stream m3\nret\n",
        signature("Input signature", &[("TEXCOORD", 0, "xyzw", 0, "NONE", "uint")]),
        signature(
            "Output signature",
            &[
                ("m0:A", 0, "x", 0, "NONE", "uint"),
                ("m1:B", 0, "xy", 0, "NONE", "uint"),
                ("m2:C", 0, "x", 1, "NONE", "uint"),
                ("m3:D", 0, "x", 0, "NONE", "uint"),
                ("m3:E", 0, "xyzw", 2, "NONE", "uint"),
            ]
        ),
    ))
}

/// `SV_Position` (float4, register 0) through unchanged; `POSITION` in.
pub fn passthrough_vs() -> Plan {
    plan(&format!(
        "{}{}vs_4_0\ndcl_input v0.xyzw\ndcl_output_siv o0.xyzw, position\nmov o0.xyzw, v0.xyzw\nret\n",
        signature("Input signature", &[("POSITION", 0, "xyzw", 0, "NONE", "float")]),
        signature("Output signature", &[("SV_Position", 0, "xyzw", 0, "POS", "float")]),
    ))
}

/// Each input point becomes a quad: a 4-vertex triangle strip at `p + (±0.5, ±0.5)`
/// (`(-,-)`, `(+,-)`, `(-,+)`, `(+,+)`), then a cut; `TEXCOORD0.x` = the corner 0..3.
pub fn quad_gs() -> Plan {
    let mut body = String::new();
    for (k, (dx, dy)) in [(-0.5, -0.5), (0.5, -0.5), (-0.5, 0.5), (0.5, 0.5)].iter().enumerate() {
        body +=
            &format!("add o0.xyzw, v[0][0].xyzw, l({dx:.6}, {dy:.6}, 0.000000, 0.000000)\nmov o1.x, l({k})\nemit\n");
    }
    plan(&format!(
        "{}{}gs_4_0\ndcl_input_siv v[1][0].xyzw, position\ndcl_inputprimitive point\ndcl_outputtopology trianglestrip\n\
         dcl_output_siv o0.xyzw, position\ndcl_output o1.x\ndcl_maxout 4\n{body}cut\nret\n",
        signature("Input signature", &[("SV_Position", 0, "xyzw", 0, "POS", "float")]),
        signature(
            "Output signature",
            &[("SV_Position", 0, "xyzw", 0, "POS", "float"), ("TEXCOORD", 0, "x", 1, "NONE", "uint")]
        ),
    ))
}

/// Float4 positions as vertex data (stride 16).
pub fn positions(points: &[[f32; 4]]) -> Vec<u8> {
    f32_bytes(&points.concat())
}

/// The layout of [`positions`].
pub fn position_layout() -> Vec<InputElement> {
    vec![element("POSITION", 0, Format::R32G32B32A32_FLOAT, 0, 0)]
}

/// A stream-output declaration from the `--so` text, with strides and rasterized stream.
pub fn so_decl(text: &str, strides: &[u32], rasterized: u32) -> streamout::StreamOutputDesc {
    let mut d: streamout::StreamOutputDesc = text.parse().unwrap_or_else(|e| panic!("{text}: {e}"));
    d.strides = strides.to_vec();
    d.rasterized_stream = rasterized;
    d
}
