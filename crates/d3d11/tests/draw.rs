//! The immediate context: buffers and input layouts (what `CreateBuffer` and
//! `CreateInputLayout` refuse), draws through the reference pipeline with stream
//! output, `SOSetTargets` offsets and appending, `DrawAuto`, queries (pipeline
//! statistics, stream-output statistics, overflow predicates), binding hazards,
//! constant buffers and buffer views, textures and their views, UAVs shared by the
//! vertex and geometry shaders (11.1), comparison samplers, and refused calls.

mod common;
use common::*;
use d3d11::context::{
    is_vertex_format, BindFlags, BufferDesc, BufferView, QueryData, QueryKind, RESOURCE_MISC_BUFFER_ALLOW_RAW_VIEWS,
    RESOURCE_MISC_BUFFER_STRUCTURED,
};
use d3d11::*;
use exec::pipeline::APPEND_ALIGNED;
use exec::Format;

/// A signature table for a listing header.
fn signature(title: &str, rows: &[(&str, u32, &str, u32, &str, &str)]) -> String {
    let mut s = format!(
        "//\n// {title}:\n//\n// Name                 Index   Mask Register SysValue  Format   Used\n// -------------------- ----- ------ -------- -------- ------- ------\n"
    );
    for (name, index, mask, register, sv, format) in rows {
        s += &format!("// {name:<20} {index:>5}   {mask:<4} {register:>8} {sv:>8} {format:>7}   {mask:<4}\n");
    }
    s + "//\n"
}

/// `VALUE` (uint4) + `cb0[0]` to `TEXCOORD0`; `SV_VertexID`, `SV_InstanceID` to
/// `TEXCOORD1.xy`.
fn ids_vs_text() -> String {
    format!(
        "{}{}vs_4_0\ndcl_constantbuffer cb0[1], immediateIndexed\ndcl_input v0.xyzw\ndcl_input_sgv v1.x, vertex_id\n\
         dcl_input_sgv v2.x, instance_id\ndcl_output o0.xyzw\ndcl_output o1.xy\niadd o0.xyzw, v0.xyzw, cb0[0].xyzw\n\
         mov o1.x, v1.x\nmov o1.y, v2.x\nret\n",
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

/// `POSITION` through to `SV_Position`.
fn passthrough_vs_text() -> String {
    format!(
        "{}{}vs_4_0\ndcl_input v0.xyzw\ndcl_output_siv o0.xyzw, position\nmov o0.xyzw, v0.xyzw\nret\n",
        signature("Input signature", &[("POSITION", 0, "xyzw", 0, "NONE", "float")]),
        signature("Output signature", &[("SV_Position", 0, "xyzw", 0, "POS", "float")]),
    )
}

/// Each point becomes a quad strip at `p + (±0.5, ±0.5)`.
fn quad_gs_text() -> String {
    let mut body = String::new();
    for (dx, dy) in [(-0.5, -0.5), (0.5, -0.5), (-0.5, 0.5), (0.5, 0.5)] {
        body += &format!("add o0.xyzw, v[0][0].xyzw, l({dx:.6}, {dy:.6}, 0.000000, 0.000000)\nemit\n");
    }
    format!(
        "{}{}gs_4_0\ndcl_input_siv v[1][0].xyzw, position\ndcl_inputprimitive point\ndcl_outputtopology trianglestrip\n\
         dcl_output_siv o0.xyzw, position\ndcl_maxout 4\n{body}cut\nret\n",
        signature("Input signature", &[("SV_Position", 0, "xyzw", 0, "POS", "float")]),
        signature("Output signature", &[("SV_Position", 0, "xyzw", 0, "POS", "float")]),
    )
}

fn vertex_shader(device: &Device, text: &str) -> Shader {
    let bytes = asm(text);
    let mut out = None;
    let created = device.create_vertex_shader(&bytes, bytes.len(), None, Some(&mut out));
    assert_eq!(created.hr, S_OK, "{:?}", created.diagnostics);
    out.unwrap()
}

fn geometry_shader_so(device: &Device, text: &str, so: &StreamOutputDesc) -> Shader {
    let bytes = asm(text);
    let mut out = None;
    let created = device.create_geometry_shader_with_stream_output(&bytes, bytes.len(), so, None, Some(&mut out));
    assert_eq!(created.hr, S_OK, "{:?}", created.diagnostics);
    out.unwrap()
}

fn element(name: &str, index: u32, format: Format, slot: u32, offset: u32) -> InputElement {
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

fn bytes_u32(v: &[u32]) -> Vec<u8> {
    v.iter().flat_map(|x| x.to_le_bytes()).collect()
}

fn bytes_f32(v: &[f32]) -> Vec<u8> {
    v.iter().flat_map(|x| x.to_le_bytes()).collect()
}

fn floats(b: &[u8]) -> Vec<f32> {
    b.chunks_exact(4).map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]])).collect()
}

fn words(b: &[u8]) -> Vec<u32> {
    b.chunks_exact(4).map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]])).collect()
}

fn buffer(device: &Device, bind: BindFlags, bytes: &[u8]) -> Buffer {
    device.create_buffer(&BufferDesc::new(bytes.len() as u32, bind), Some(bytes)).unwrap()
}

fn so_position() -> StreamOutputDesc {
    let mut d: StreamOutputDesc = "SV_Position.xyzw".parse().unwrap();
    d.strides = vec![16];
    d
}

#[test]
fn create_buffer_rules() {
    let device = device_11_0();
    let b = buffer(&device, BindFlags::VERTEX_BUFFER | BindFlags::STREAM_OUTPUT, &[1, 2, 3, 4, 5, 6, 7, 8]);
    assert_eq!(b.desc().byte_width, 8);
    assert_eq!(b.bytes(), vec![1, 2, 3, 4, 5, 6, 7, 8]);
    assert_eq!(b.filled_size(), 0);
    b.update(4, &[9, 9]).unwrap();
    assert_eq!(b.bytes(), vec![1, 2, 3, 4, 9, 9, 7, 8]);
    assert_eq!(b.update(7, &[0, 0]).unwrap_err().hr, E_INVALIDARG);
    assert!(b.ptr_eq(&b.clone()) && !b.ptr_eq(&buffer(&device, BindFlags::VERTEX_BUFFER, &[0; 8])));
    // Without initial data: zeros.
    let z = device.create_buffer(&BufferDesc::new(32, BindFlags::CONSTANT_BUFFER), None).unwrap();
    assert_eq!(z.bytes(), vec![0; 32]);

    let refused = |desc: BufferDesc, data: Option<&[u8]>| {
        let e = device.create_buffer(&desc, data).unwrap_err();
        assert_eq!(e.hr, E_INVALIDARG, "{desc:?}");
        e.message
    };
    refused(BufferDesc::new(0, BindFlags::VERTEX_BUFFER), None);
    refused(BufferDesc::new(16, BindFlags(0)), None);
    refused(BufferDesc::new(16, BindFlags(0x20)), None); // render target
    assert!(refused(BufferDesc::new(20, BindFlags::CONSTANT_BUFFER), None).contains("multiple of 16"));
    refused(BufferDesc::new(65536 + 16, BindFlags::CONSTANT_BUFFER), None);
    refused(BufferDesc::new(16, BindFlags::CONSTANT_BUFFER | BindFlags::VERTEX_BUFFER), None);
    assert!(refused(BufferDesc::new(16, BindFlags::VERTEX_BUFFER), Some(&[0; 8])).contains("pInitialData"));
    let structured = |stride, bind| BufferDesc {
        byte_width: 48,
        bind_flags: bind,
        misc_flags: RESOURCE_MISC_BUFFER_STRUCTURED,
        structure_byte_stride: stride,
    };
    assert!(device.create_buffer(&structured(12, BindFlags::SHADER_RESOURCE), None).is_ok());
    refused(structured(0, BindFlags::SHADER_RESOURCE), None);
    refused(structured(10, BindFlags::SHADER_RESOURCE), None);
    refused(structured(32, BindFlags::SHADER_RESOURCE), None);
    refused(structured(12, BindFlags::SHADER_RESOURCE | BindFlags::VERTEX_BUFFER), None);
    let raw = |bind| BufferDesc {
        byte_width: 16,
        bind_flags: bind,
        misc_flags: RESOURCE_MISC_BUFFER_ALLOW_RAW_VIEWS,
        structure_byte_stride: 0,
    };
    assert!(device.create_buffer(&raw(BindFlags::SHADER_RESOURCE), None).is_ok());
    refused(raw(BindFlags::VERTEX_BUFFER), None);
    refused(BufferDesc { misc_flags: 0x1000, ..BufferDesc::new(16, BindFlags::VERTEX_BUFFER) }, None);
}

#[test]
fn create_input_layout_rules() {
    let device = device_11_0();
    let vs = asm(&ids_vs_text());
    let value = element("VALUE", 0, Format::R32G32B32A32_UINT, 0, 0);
    // SV_VertexID / SV_InstanceID come from the IA; names compare case-insensitively.
    let layout = device.create_input_layout(&[element("value", 0, Format::R32G32B32A32_UINT, 0, 0)], &vs).unwrap();
    assert_eq!(layout.elements().len(), 1);
    let refused = |elements: &[InputElement], bytes: &[u8]| {
        let e = device.create_input_layout(elements, bytes).unwrap_err();
        assert_eq!(e.hr, E_INVALIDARG);
        e.message
    };
    assert!(refused(&[], &vs).contains("VALUE"));
    assert!(refused(&[element("VALUE", 1, Format::R32G32B32A32_UINT, 0, 0)], &vs).contains("VALUE"));
    assert!(refused(&[element("VALUE", 0, Format::D32_FLOAT, 0, 0)], &vs).contains("D32_FLOAT"));
    refused(&[element("VALUE", 0, Format::R32G32B32A32_UINT, 32, 0)], &vs);
    refused(&[InputElement { instance_data_step_rate: 1, ..value.clone() }], &vs);
    refused(
        &[value.clone(), InputElement { per_instance: true, ..element("EXTRA", 0, Format::R32_FLOAT, 0, 16) }],
        &vs,
    );
    assert!(refused(&[value.clone(), element("value", 0, Format::R32_UINT, 1, 0)], &vs).contains("twice"));
    refused(&[InputElement { aligned_byte_offset: 4096, ..value.clone() }], &vs);
    refused(&vec![value.clone(); 33], &vs);
    refused(std::slice::from_ref(&value), b"not a shader");
    // Extra elements and APPEND_ALIGNED are fine.
    let ok = [value, element("EXTRA", 0, Format::R8G8B8A8_UNORM, 0, APPEND_ALIGNED)];
    assert!(device.create_input_layout(&ok, &vs).is_ok());
    assert!(is_vertex_format(Format::R16G16_FLOAT) && !is_vertex_format(Format::B8G8R8A8_UNORM_SRGB));
}

/// A context drawing points through the passthrough VS and the quad GS with stream
/// output to `so_buffer`.
fn quad_context(device: &Device, points: &[[f32; 4]], so_buffer: &Buffer) -> Context {
    let vs = vertex_shader(device, &passthrough_vs_text());
    let gs = geometry_shader_so(device, &quad_gs_text(), &so_position());
    let layout =
        device.create_input_layout(&[element("POSITION", 0, Format::R32G32B32A32_FLOAT, 0, 0)], vs.bytecode()).unwrap();
    let vb = buffer(device, BindFlags::VERTEX_BUFFER, &bytes_f32(&points.concat()));
    let mut c = device.immediate_context();
    c.ia_set_input_layout(Some(&layout));
    c.ia_set_vertex_buffers(0, &[Some(vb)], &[16], &[0]);
    c.ia_set_primitive_topology(Topology::PointList);
    c.vs_set_shader(Some(&vs), &[]).unwrap();
    c.gs_set_shader(Some(&gs), &[]).unwrap();
    c.so_set_targets(&[Some(so_buffer.clone())], &[0]);
    c
}

fn quad(p: [f32; 4]) -> Vec<f32> {
    let corner = |dx: f32, dy: f32| [p[0] + dx, p[1] + dy, p[2], p[3]];
    let (a, b, c, d) = (corner(-0.5, -0.5), corner(0.5, -0.5), corner(-0.5, 0.5), corner(0.5, 0.5));
    [a, b, c, b, d, c].concat()
}

const POINTS: [[f32; 4]; 2] = [[1.0, 2.0, 0.0, 1.0], [-4.0, 8.0, 0.5, 1.0]];

#[test]
fn draw_with_stream_output_and_queries() {
    let device = device_11_0();
    let so = buffer(&device, BindFlags::STREAM_OUTPUT, &[0; 1024]);
    let mut c = quad_context(&device, &POINTS, &so);
    let mut pipeline = device.create_query(QueryKind::PipelineStatistics).unwrap();
    let mut so_all = device.create_query(QueryKind::SoStatistics).unwrap();
    let mut so0 = device.create_query(QueryKind::SoStatisticsStream(0)).unwrap();
    let mut so1 = device.create_query(QueryKind::SoStatisticsStream(1)).unwrap();
    let mut overflow = device.create_query(QueryKind::SoOverflowPredicate).unwrap();
    assert_eq!(pipeline.data(), None);
    for q in [&mut pipeline, &mut so_all, &mut so0, &mut so1, &mut overflow] {
        c.begin(q);
    }
    c.draw(2, 0).unwrap();
    for q in [&mut pipeline, &mut so_all, &mut so0, &mut so1, &mut overflow] {
        c.end(q);
    }
    assert_eq!(so.filled_size(), 192);
    assert_eq!(floats(&so.bytes()[..192]), [quad(POINTS[0]), quad(POINTS[1])].concat());
    assert_eq!(
        pipeline.data(),
        Some(QueryData::PipelineStatistics(PipelineStatistics {
            ia_vertices: 2,
            ia_primitives: 2,
            vs_invocations: 2,
            gs_invocations: 2,
            gs_primitives: 4,
            c_invocations: 4,
            c_primitives: 4,
            ..Default::default()
        }))
    );
    let written =
        |n| Some(QueryData::SoStatistics(SoStatistics { num_primitives_written: n, primitives_storage_needed: n }));
    assert_eq!((so_all.data(), so0.data(), so1.data()), (written(4), written(4), written(0)));
    assert_eq!(overflow.data(), Some(QueryData::Overflow(false)));
    assert_eq!(pipeline.kind(), QueryKind::PipelineStatistics);
    // The query counts only between begin and end.
    c.draw(1, 0).unwrap();
    c.begin(&mut pipeline);
    c.draw(1, 1).unwrap();
    c.end(&mut pipeline);
    match pipeline.data() {
        Some(QueryData::PipelineStatistics(s)) => assert_eq!((s.ia_vertices, s.gs_primitives), (1, 2)),
        other => panic!("{other:?}"),
    }
    // The last draw's whole result (capture off: no primitives kept).
    let last = c.last_draw().unwrap();
    assert!(last.streams.is_empty());
    assert_eq!(last.so_statistics[0].num_primitives_written, 2);
    // Capture on.
    c.set_capture(true);
    c.draw(1, 0).unwrap();
    assert_eq!(c.last_draw().unwrap().streams[0].primitives.len(), 2);
    assert_eq!(device.create_query(QueryKind::SoStatisticsStream(4)).unwrap_err().hr, E_INVALIDARG);
    // Ending a query never begun gives no data.
    let mut q = device.create_query(QueryKind::SoOverflowPredicateStream(0)).unwrap();
    c.end(&mut q);
    assert_eq!(q.data(), None);
}

#[test]
fn so_offsets_append_and_overflow() {
    let device = device_11_0();
    // Room for 5 triangles.
    let so = buffer(&device, BindFlags::STREAM_OUTPUT, &[0; 240]);
    let mut c = quad_context(&device, &POINTS, &so);
    c.draw(1, 0).unwrap();
    assert_eq!(so.filled_size(), 96);
    // -1: append at BufferFilledSize.
    c.so_set_targets(&[Some(so.clone())], &[u32::MAX]);
    c.draw(1, 1).unwrap();
    assert_eq!(so.filled_size(), 192);
    assert_eq!(floats(&so.bytes()[..192]), [quad(POINTS[0]), quad(POINTS[1])].concat());
    // Unbinding and binding again with -1 still appends; the third quad overflows:
    // one triangle fits, so 1 of 2 is written.
    c.so_set_targets(&[], &[]);
    c.so_set_targets(&[Some(so.clone())], &[u32::MAX]);
    let mut stats = device.create_query(QueryKind::SoStatisticsStream(0)).unwrap();
    let mut overflow = device.create_query(QueryKind::SoOverflowPredicateStream(0)).unwrap();
    let mut any = device.create_query(QueryKind::SoOverflowPredicate).unwrap();
    for q in [&mut stats, &mut overflow, &mut any] {
        c.begin(q);
    }
    c.draw(1, 0).unwrap();
    for q in [&mut stats, &mut overflow, &mut any] {
        c.end(q);
    }
    assert_eq!(
        stats.data(),
        Some(QueryData::SoStatistics(SoStatistics { num_primitives_written: 1, primitives_storage_needed: 2 }))
    );
    assert_eq!((overflow.data(), any.data()), (Some(QueryData::Overflow(true)), Some(QueryData::Overflow(true))));
    assert_eq!(so.filled_size(), 240);
    // An explicit offset redefines BufferFilledSize.
    c.so_set_targets(&[Some(so.clone())], &[48]);
    assert_eq!(so.filled_size(), 48);
    c.draw(1, 1).unwrap();
    assert_eq!(so.filled_size(), 144);
    assert_eq!(floats(&so.bytes()[48..144]), quad(POINTS[1]));
}

#[test]
fn draw_auto_replays_stream_output() {
    let device = device_11_0();
    let vs_text = ids_vs_text();
    let vs = vertex_shader(&device, &vs_text);
    // A stream-output object made from the vertex shader: no geometry shader runs, the
    // vertex shader's TEXCOORD0 is streamed out.
    let mut so_desc: StreamOutputDesc = "TEXCOORD0.xyzw".parse().unwrap();
    so_desc.strides = vec![16];
    let so_object = geometry_shader_so(&device, &vs_text, &so_desc);
    let layout =
        device.create_input_layout(&[element("VALUE", 0, Format::R32G32B32A32_UINT, 0, 0)], vs.bytecode()).unwrap();
    let data: Vec<u32> = (0..4).flat_map(|i| [100 + i, 0, 0, 0]).collect();
    let vb = buffer(&device, BindFlags::VERTEX_BUFFER, &bytes_u32(&data));
    let cb = buffer(&device, BindFlags::CONSTANT_BUFFER, &bytes_u32(&[1000, 0, 0, 7]));
    let target = buffer(&device, BindFlags::STREAM_OUTPUT | BindFlags::VERTEX_BUFFER, &[0; 256]);
    let mut c = device.immediate_context();
    c.ia_set_input_layout(Some(&layout));
    c.ia_set_vertex_buffers(0, &[Some(vb)], &[16], &[0]);
    c.ia_set_primitive_topology(Topology::PointList);
    c.vs_set_shader(Some(&vs), &[]).unwrap();
    c.vs_set_constant_buffers(0, &[Some(cb)]);
    c.gs_set_shader(Some(&so_object), &[]).unwrap();
    c.so_set_targets(&[Some(target.clone())], &[0]);
    c.draw(4, 0).unwrap();
    assert_eq!(target.filled_size(), 64);
    assert_eq!(words(&target.bytes()[..64]), vec![1100, 0, 0, 7, 1101, 0, 0, 7, 1102, 0, 0, 7, 1103, 0, 0, 7]);
    assert_eq!(c.last_draw().unwrap().statistics.gs_invocations, 0);
    // Replay it: unbind stream output, bind the buffer as vertex buffer, no GS.
    c.so_set_targets(&[], &[]);
    c.gs_set_shader(None, &[]).unwrap();
    c.ia_set_vertex_buffers(0, &[Some(target.clone())], &[16], &[16]);
    c.set_capture(true);
    c.draw_auto().unwrap();
    let last = c.last_draw().unwrap();
    assert_eq!(last.statistics.ia_vertices, 3);
    let values: Vec<u32> = last.streams[0].primitives.iter().map(|p| p[0].registers[0][0]).collect();
    assert_eq!(values, vec![2101, 2102, 2103]);
}

#[test]
fn binding_hazards() {
    let device = device_11_0();
    let vs = vertex_shader(&device, &passthrough_vs_text());
    let b = buffer(&device, BindFlags::STREAM_OUTPUT | BindFlags::VERTEX_BUFFER, &[0; 64]);
    let mut c = device.immediate_context();
    c.vs_set_shader(Some(&vs), &[]).unwrap();
    c.ia_set_vertex_buffers(0, &[Some(b.clone())], &[16], &[0]);
    // Bound for output: unbound from the inputs.
    c.so_set_targets(&[Some(b.clone())], &[0]);
    assert!(c.messages().last().unwrap().contains("forced to NULL"), "{:?}", c.messages());
    // Bound for input while an output: NULL.
    let n = c.messages().len();
    c.ia_set_vertex_buffers(0, &[Some(b.clone())], &[16], &[0]);
    assert_eq!(c.messages().len(), n + 1);
    // Missing bind flags.
    let plain = buffer(&device, BindFlags::CONSTANT_BUFFER, &[0; 16]);
    c.ia_set_vertex_buffers(1, &[Some(plain.clone())], &[16], &[0]);
    c.ia_set_index_buffer(Some(&plain), IndexFormat::U16, 0);
    c.so_set_targets(&[Some(plain.clone())], &[0]);
    assert!(c.so_targets().iter().all(|t| t.is_none()));
    // The same buffer at two stream-output slots: the second is NULL.
    c.so_set_targets(&[Some(b.clone()), Some(b.clone())], &[0, 0]);
    let targets = c.so_targets();
    assert!(targets[0].is_some() && targets[1].is_none());
    // Slots out of range: the call is ignored.
    let n = c.messages().len();
    c.ia_set_vertex_buffers(31, &[None, None], &[], &[]);
    c.vs_set_constant_buffers(14, &[None]);
    c.so_set_targets(&[None, None, None, None, None], &[]);
    assert_eq!(c.messages().len(), n + 3);
    c.clear_state();
    assert!(c.so_targets().iter().all(|t| t.is_none()));
}

#[test]
fn shader_resources_and_instanced_indexed_draws() {
    let device = device_11_0();
    // o0 = t0[SV_InstanceID] (a typed uint4 buffer), o1.x = SV_VertexID.
    let text = format!(
        "{}{}vs_4_0\ndcl_resource_buffer (uint,uint,uint,uint) t0\ndcl_input v0.x\ndcl_input_sgv v1.x, vertex_id\n\
         dcl_input_sgv v2.x, instance_id\ndcl_output o0.xyzw\ndcl_output o1.xy\ndcl_temps 1\n\
         ld r0.xyzw, v2.xxxx, t0.xyzw\nmov o0.xyzw, r0.xyzw\nmov o1.x, v1.x\nmov o1.y, v0.x\nret\n",
        signature(
            "Input signature",
            &[
                ("VALUE", 0, "x", 0, "NONE", "uint"),
                ("SV_VertexID", 0, "x", 1, "VERTID", "uint"),
                ("SV_InstanceID", 0, "x", 2, "INSTID", "uint"),
            ]
        ),
        signature(
            "Output signature",
            &[("TEXCOORD", 0, "xyzw", 0, "NONE", "uint"), ("TEXCOORD", 1, "xy", 1, "NONE", "uint")]
        ),
    );
    let vs = vertex_shader(&device, &text);
    let layout = device.create_input_layout(&[element("VALUE", 0, Format::R32_UINT, 0, 0)], vs.bytecode()).unwrap();
    let vb = buffer(&device, BindFlags::VERTEX_BUFFER, &bytes_u32(&[50, 51, 52, 53]));
    let ib = buffer(&device, BindFlags::INDEX_BUFFER, &[3, 0, 1, 0, 0xff, 0xff, 2, 0]);
    let table = buffer(&device, BindFlags::SHADER_RESOURCE, &bytes_u32(&[9, 9, 9, 9, 10, 11, 12, 13, 20, 21, 22, 23]));
    let view = BufferView::Typed { format: Format::R32G32B32A32_UINT, first_element: 1, num_elements: 2 };
    let srv = device.create_shader_resource_view(&table, view).unwrap();
    assert_eq!(srv.view(), Some(view));
    assert!(srv.texture().is_none());
    assert!(srv.buffer().ptr_eq(&table));
    let mut c = device.immediate_context();
    c.set_capture(true);
    c.ia_set_input_layout(Some(&layout));
    c.ia_set_vertex_buffers(0, &[Some(vb)], &[4], &[0]);
    c.ia_set_index_buffer(Some(&ib), IndexFormat::U16, 0);
    c.ia_set_primitive_topology(Topology::LineStrip);
    c.vs_set_shader(Some(&vs), &[]).unwrap();
    c.vs_set_shader_resources(0, &[Some(srv)]);
    c.draw_indexed_instanced(4, 2, 0, 0, 0).unwrap();
    let last = c.last_draw().unwrap();
    let prims: Vec<Vec<([u32; 4], [u32; 4])>> = last.streams[0]
        .primitives
        .iter()
        .map(|p| p.iter().map(|v| (v.registers[0], v.registers[1])).collect())
        .collect();
    let v = |inst: u32, index: u32| {
        let row = if inst == 0 { [10, 11, 12, 13] } else { [20, 21, 22, 23] };
        (row, [index, 50 + index, 0, 0])
    };
    // Indices 3 1 (cut) 2: one line per instance.
    assert_eq!(prims, vec![vec![v(0, 3), v(0, 1)], vec![v(1, 3), v(1, 1)]]);
    assert_eq!(last.statistics.vs_invocations, 6);
    // Out-of-range views are refused.
    let refused = |view| device.create_shader_resource_view(&table, view).unwrap_err().hr;
    assert_eq!(
        refused(BufferView::Typed { format: Format::R32G32B32A32_UINT, first_element: 2, num_elements: 2 }),
        E_INVALIDARG
    );
    assert_eq!(refused(BufferView::Raw { first_element: 0, num_elements: 1 }), E_INVALIDARG);
    assert_eq!(refused(BufferView::Structured { first_element: 0, num_elements: 1 }), E_INVALIDARG);
    let vb_only = buffer(&device, BindFlags::VERTEX_BUFFER, &[0; 16]);
    let typed = BufferView::Typed { format: Format::R32_UINT, first_element: 0, num_elements: 1 };
    assert_eq!(device.create_shader_resource_view(&vb_only, typed).unwrap_err().hr, E_INVALIDARG);
    let _ = device.create_sampler_state(exec::resources::Sampler::default());
}

#[test]
fn refused_draws_and_shaders() {
    let device = device_11_0();
    let vs = vertex_shader(&device, &ids_vs_text());
    let mut c = device.immediate_context();
    // No topology, then no vertex shader.
    assert!(c.draw(1, 0).is_err());
    c.ia_set_primitive_topology(Topology::PointList);
    assert!(c.draw(1, 0).is_err());
    // Shader objects of the wrong kind.
    let gs_bytes = bytes_of(ProgramType::Geometry);
    let mut gs = None;
    assert_eq!(device.create_geometry_shader(&gs_bytes, gs_bytes.len(), None, Some(&mut gs)).hr, S_OK);
    let gs = gs.unwrap();
    assert_eq!(c.vs_set_shader(Some(&gs), &[]).unwrap_err().hr, E_INVALIDARG);
    assert_eq!(c.gs_set_shader(Some(&vs), &[]).unwrap_err().hr, E_INVALIDARG);
    // The pipeline's refusal: no input layout for VALUE.
    c.vs_set_shader(Some(&vs), &[]).unwrap();
    let e = c.draw(1, 0).unwrap_err();
    assert!(e.to_string().contains("VALUE"), "{e}");
    assert!(c.last_draw().is_none());
    // The GS's input primitive does not match the topology.
    c.gs_set_shader(Some(&gs), &[]).unwrap();
    let layout = device.create_input_layout(&[element("VALUE", 0, Format::R32G32B32A32_UINT, 0, 0)], vs.bytecode());
    c.ia_set_input_layout(Some(&layout.unwrap()));
    c.ia_set_primitive_topology(Topology::TriangleList);
    assert!(c.draw(3, 0).is_err());
    // Without vertex buffers the reads are zeros, and the draw runs.
    c.ia_set_primitive_topology(Topology::PointList);
    c.gs_set_shader(None, &[]).unwrap();
    c.set_capture(true);
    c.draw_instanced(1, 2, 0, 0).unwrap();
    let last = c.last_draw().unwrap();
    assert_eq!(last.streams[0].primitives.len(), 2);
    assert_eq!(last.streams[0].primitives[1][0].registers[1], [0, 1, 0, 0]);
}

/// A 2x2 R32_FLOAT texture (1, 2 / 3, 4) with a 1x1 mip (10).
fn small_texture(device: &Device) -> d3d11::context::Texture2D {
    let desc = d3d11::context::Texture2DDesc {
        mip_levels: 0,
        ..d3d11::context::Texture2DDesc::new(2, 2, Format::R32_FLOAT, BindFlags::SHADER_RESOURCE)
    };
    device.create_texture2d(&desc, Some(&bytes_f32(&[1.0, 2.0, 3.0, 4.0, 10.0]))).unwrap()
}

#[test]
fn gs_samples_a_texture_and_writes_a_uav_shared_with_the_vs() {
    use d3d11::context::{TextureViewDesc, TextureViewDimension};
    use exec::resources::{ComparisonFunc, Filter, Sampler};
    let device = Device::new(DeviceDesc::default()); // 11_1 on the 11.1 runtime
                                                     // VS: TEXCOORD0 = the uv; TEXCOORD1.x = sample_c_lz(t0, uv) with `2.5 <= texel`;
                                                     // counts its invocations at u0 byte 16.
    let vs_text = format!(
        "{}{}vs_5_0\ndcl_globalFlags refactoringAllowed\ndcl_sampler s0, mode_comparison\n\
         dcl_resource_texture2d (float,float,float,float) t0\ndcl_uav_raw u0\ndcl_input v0.xy\n\
         dcl_output o0.xy\ndcl_output o1.x\nmov o0.xy, v0.xyxx\n\
         sample_c_lz o1.x, v0.xyxx, t0.xxxx, s0, l(2.5)\natomic_iadd u0, l(16), l(1)\nret\n",
        signature("Input signature", &[("POSITION", 0, "xy", 0, "NONE", "float")]),
        signature(
            "Output signature",
            &[("TEXCOORD", 0, "xy", 0, "NONE", "float"), ("TEXCOORD", 1, "x", 1, "NONE", "float")]
        ),
    );
    // GS: sample_l of t0 at the uv (LOD from cb0... no: LOD 0, then LOD 1), stores the
    // LOD-0 value at u0[vPrim] and emits (comparison, LOD 0, LOD 1, old count).
    let gs_text = format!(
        "{}{}gs_5_0\ndcl_globalFlags refactoringAllowed\ndcl_sampler s0, mode_default\n\
         dcl_resource_texture2d (float,float,float,float) t0\ndcl_uav_raw u0\ndcl_input v[1][0].xy\n\
         dcl_input v[1][1].x\ndcl_input vPrim\ndcl_temps 2\ndcl_inputprimitive point\ndcl_outputtopology pointlist\n\
         dcl_output o0.xyzw\ndcl_maxout 1\n\
         sample_l r0.x, v[0][0].xyxx, t0.xyzw, s0, l(0.0)\nsample_l r0.y, v[0][0].xyxx, t0.yxzw, s0, l(1.0)\n\
         ishl r1.x, vPrim, l(2)\nstore_raw u0.x, r1.x, r0.x\nld_raw r1.y, l(16), u0.xxxx\n\
         mov o0.x, v[0][1].x\nmov o0.yz, r0.xxyx\nutof o0.w, r1.y\nemit\nret\n",
        signature(
            "Input signature",
            &[("TEXCOORD", 0, "xy", 0, "NONE", "float"), ("TEXCOORD", 1, "x", 1, "NONE", "float")]
        ),
        signature("Output signature", &[("TEXCOORD", 0, "xyzw", 0, "NONE", "float")]),
    );
    let vs = vertex_shader(&device, &vs_text);
    let gs = {
        let bytes = asm(&gs_text);
        let mut out = None;
        let created = device.create_geometry_shader(&bytes, bytes.len(), None, Some(&mut out));
        assert_eq!(created.hr, S_OK, "{:?}", created.diagnostics);
        out.unwrap()
    };
    let texture = small_texture(&device);
    assert_eq!(texture.desc().mip_levels, 2);
    let whole = TextureViewDesc { dimension: TextureViewDimension::Texture2D, first_array_slice: 0, array_size: 1 };
    let srv = device.create_texture_shader_resource_view(&texture, whole).unwrap();
    assert!(srv.view().is_none() && srv.texture().is_some());
    let out = device
        .create_buffer(
            &BufferDesc {
                byte_width: 20,
                bind_flags: BindFlags::UNORDERED_ACCESS,
                misc_flags: RESOURCE_MISC_BUFFER_ALLOW_RAW_VIEWS,
                structure_byte_stride: 0,
            },
            None,
        )
        .unwrap();
    let uav = device.create_unordered_access_view(&out, BufferView::Raw { first_element: 0, num_elements: 5 }).unwrap();
    let point = Sampler { min: Filter::Point, mag: Filter::Point, mip: Filter::Point, ..Sampler::default() };
    let compare = Sampler { comparison: Some(ComparisonFunc::LessEqual), ..point };
    let layout =
        device.create_input_layout(&[element("POSITION", 0, Format::R32G32_FLOAT, 0, 0)], vs.bytecode()).unwrap();
    let vb = buffer(&device, BindFlags::VERTEX_BUFFER, &bytes_f32(&[0.25, 0.25, 0.75, 0.25, 0.25, 0.75, 0.75, 0.75]));
    let mut c = device.immediate_context();
    c.set_capture(true);
    c.ia_set_input_layout(Some(&layout));
    c.ia_set_vertex_buffers(0, &[Some(vb)], &[8], &[0]);
    c.ia_set_primitive_topology(Topology::PointList);
    c.vs_set_shader(Some(&vs), &[]).unwrap();
    c.gs_set_shader(Some(&gs), &[]).unwrap();
    c.vs_set_shader_resources(0, &[Some(srv.clone())]);
    c.gs_set_shader_resources(0, &[Some(srv)]);
    c.vs_set_samplers(0, &[Some(device.create_sampler_state(compare))]);
    c.gs_set_samplers(0, &[Some(device.create_sampler_state(point))]);
    c.om_set_unordered_access_views(0, &[Some(uav)], &[]).unwrap();
    c.draw(4, 0).unwrap();
    let prims: Vec<[f32; 4]> =
        c.last_draw().unwrap().streams[0].primitives.iter().map(|p| p[0].registers[0].map(f32::from_bits)).collect();
    // The VS of each vertex runs before its point's GS: the GS reads the count so far.
    assert_eq!(prims, vec![[0.0, 1.0, 10.0, 1.0], [0.0, 2.0, 10.0, 2.0], [1.0, 3.0, 10.0, 3.0], [1.0, 4.0, 10.0, 4.0]]);
    assert_eq!(floats(&out.bytes()[..16]), vec![1.0, 2.0, 3.0, 4.0]);
    assert_eq!(words(&out.bytes()[16..]), vec![4]);
}

#[test]
fn graphics_uav_slots_follow_the_feature_level_and_the_runtime() {
    // OMSetRenderTargetsAndUnorderedAccessViews: UAVStartSlot + NumUAVs within
    // D3D11_PS_CS_UAV_REGISTER_COUNT (8) at feature level 11_0 (pixel-shader UAVs), within
    // D3D11_1_UAV_SLOT_COUNT (64) at 11_1 on the 11.1 runtime; no UAVs below 11_0.
    let bind = |device: &Device, slot: u32| {
        let b = device
            .create_buffer(
                &BufferDesc {
                    byte_width: 16,
                    bind_flags: BindFlags::UNORDERED_ACCESS | BindFlags::VERTEX_BUFFER,
                    misc_flags: RESOURCE_MISC_BUFFER_ALLOW_RAW_VIEWS,
                    structure_byte_stride: 0,
                },
                None,
            )
            .unwrap();
        let uav =
            device.create_unordered_access_view(&b, BufferView::Raw { first_element: 0, num_elements: 4 }).unwrap();
        let mut c = device.immediate_context();
        c.ia_set_vertex_buffers(0, &[Some(b)], &[16], &[0]);
        let r = c.om_set_unordered_access_views(slot, &[Some(uav)], &[]);
        (r.map_err(|e| e.hr), c)
    };
    for (level, runtime, slots) in [
        (FeatureLevel::L10_1, Runtime::D3D11_1, 0),
        (FeatureLevel::L11_0, Runtime::D3D11_0, 8),
        (FeatureLevel::L11_0, Runtime::D3D11_1, 8),
        (FeatureLevel::L11_1, Runtime::D3D11_0, 8),
        (FeatureLevel::L11_1, Runtime::D3D11_1, 64),
    ] {
        let device = Device::new(DeviceDesc::new(level, runtime));
        assert_eq!(device.immediate_context().om_uav_slot_count(), slots, "{level:?} {runtime:?}");
        if slots > 0 {
            assert_eq!(bind(&device, slots - 1).0, Ok(()), "{level:?} {runtime:?}");
        }
        assert_eq!(bind(&device, slots).0, Err(E_INVALIDARG), "{level:?} {runtime:?}");
    }
    let (r, c) = bind(&Device::new(DeviceDesc::default()), 0);
    assert_eq!(r, Ok(()));
    // The vertex buffer binding of the same buffer was forced to NULL.
    assert!(c.messages().last().unwrap().contains("forced to NULL"), "{:?}", c.messages());
    assert!(c.om_unordered_access_views()[0].is_some());
}

#[test]
fn textures_and_texture_views_refused() {
    use d3d11::context::{Texture2DDesc, TextureViewDesc, TextureViewDimension as V};
    let device = Device::new(DeviceDesc::default());
    let srv = BindFlags::SHADER_RESOURCE;
    let refused = |d: Texture2DDesc| device.create_texture2d(&d, None).unwrap_err().hr;
    let base = Texture2DDesc::new(4, 4, Format::R32_FLOAT, srv);
    assert_eq!(refused(Texture2DDesc { width: 0, ..base }), E_INVALIDARG);
    assert_eq!(refused(Texture2DDesc { height: 16385, ..base }), E_INVALIDARG);
    assert_eq!(refused(Texture2DDesc { mip_levels: 4, ..base }), E_INVALIDARG); // 4x4 has 3
    assert_eq!(refused(Texture2DDesc { array_size: 0, ..base }), E_INVALIDARG);
    assert_eq!(refused(Texture2DDesc { sample_count: 3, ..base }), E_INVALIDARG);
    assert_eq!(refused(Texture2DDesc { sample_count: 4, mip_levels: 2, ..base }), E_INVALIDARG);
    assert_eq!(refused(Texture2DDesc { bind_flags: BindFlags::VERTEX_BUFFER, ..base }), E_INVALIDARG);
    assert_eq!(
        refused(Texture2DDesc { sample_count: 4, bind_flags: srv | BindFlags::UNORDERED_ACCESS, ..base }),
        E_INVALIDARG
    );
    assert_eq!(device.create_texture2d(&base, Some(&[0; 63])).unwrap_err().hr, E_INVALIDARG);
    // Sizes: 4x4 + 2x2 + 1x1 floats per slice; samples consecutive.
    let t = device.create_texture2d(&Texture2DDesc { mip_levels: 0, array_size: 6, ..base }, None).unwrap();
    assert_eq!(t.memory().bytes().len(), 6 * 21 * 4);
    let ms = device.create_texture2d(&Texture2DDesc { sample_count: 4, ..base }, None).unwrap();
    assert_eq!(ms.memory().bytes().len(), 16 * 4 * 4);
    let view = |dimension, first_array_slice, array_size| TextureViewDesc { dimension, first_array_slice, array_size };
    let srv_of = |t: &d3d11::context::Texture2D, v| device.create_texture_shader_resource_view(t, v).map_err(|e| e.hr);
    assert!(srv_of(&t, view(V::TextureCube, 0, 6)).is_ok());
    assert!(srv_of(&t, view(V::Texture2DArray, 2, 4)).is_ok());
    assert!(srv_of(&ms, view(V::Texture2DMS, 0, 1)).is_ok());
    assert_eq!(srv_of(&t, view(V::Texture2DArray, 2, 5)).unwrap_err(), E_INVALIDARG);
    assert_eq!(srv_of(&t, view(V::Texture2D, 0, 2)).unwrap_err(), E_INVALIDARG);
    assert_eq!(srv_of(&t, view(V::TextureCube, 0, 4)).unwrap_err(), E_INVALIDARG);
    assert_eq!(srv_of(&t, view(V::Texture2DMS, 0, 1)).unwrap_err(), E_INVALIDARG);
    assert_eq!(srv_of(&ms, view(V::Texture2D, 0, 1)).unwrap_err(), E_INVALIDARG);
    // No unordered-access bind flag: no UAV.
    assert_eq!(device.create_texture_unordered_access_view(&t, view(V::Texture2D, 0, 1)).unwrap_err().hr, E_INVALIDARG);
}

#[test]
fn texture_views_in_a_draw_cube_array_slices_and_multisampled() {
    use d3d11::context::{Texture2DDesc, TextureViewDesc, TextureViewDimension as V};
    let device = Device::new(DeviceDesc::default());
    // 1x1 R32_UINT, 8 slices of one texel: slice * 10; a 1x1 texture of 4 samples.
    let base = Texture2DDesc::new(1, 1, Format::R32_UINT, BindFlags::SHADER_RESOURCE);
    let t = device
        .create_texture2d(&Texture2DDesc { array_size: 8, ..base }, Some(&bytes_u32(&[0, 10, 20, 30, 40, 50, 60, 70])))
        .unwrap();
    let ms =
        device.create_texture2d(&Texture2DDesc { sample_count: 4, ..base }, Some(&bytes_u32(&[5, 6, 7, 8]))).unwrap();
    let view = |dimension, first_array_slice, array_size| TextureViewDesc { dimension, first_array_slice, array_size };
    let a = device.create_texture_shader_resource_view(&t, view(V::Texture2DArray, 3, 2)).unwrap();
    let m = device.create_texture_shader_resource_view(&ms, view(V::Texture2DMS, 0, 1)).unwrap();
    let text = format!(
        "{}{}vs_5_0\ndcl_resource_texture2darray (uint,uint,uint,uint) t0\ndcl_resource_texture2dms(4) (uint,uint,uint,uint) t1\n\
         dcl_input v0.x\ndcl_output o0.xyzw\n\
         ld_indexable(texture2darray)(uint,uint,uint,uint) o0.x, l(0, 0, 1, 0), t0.xyzw\n\
         ldms o0.y, l(0, 0, 0, 0), t1.yxzw, l(2)\nsampleinfo_uint o0.z, t1.x\n\
         resinfo_indexable(texture2darray)(uint,uint,uint,uint)_uint o0.w, l(0), t0.xyzz\nret\n",
        signature("Input signature", &[("VALUE", 0, "x", 0, "NONE", "uint")]),
        signature("Output signature", &[("TEXCOORD", 0, "xyzw", 0, "NONE", "uint")]),
    );
    let vs = vertex_shader(&device, &text);
    let layout = device.create_input_layout(&[element("VALUE", 0, Format::R32_UINT, 0, 0)], vs.bytecode()).unwrap();
    let vb = buffer(&device, BindFlags::VERTEX_BUFFER, &bytes_u32(&[0]));
    let mut c = device.immediate_context();
    c.set_capture(true);
    c.ia_set_input_layout(Some(&layout));
    c.ia_set_vertex_buffers(0, &[Some(vb)], &[4], &[0]);
    c.ia_set_primitive_topology(Topology::PointList);
    c.vs_set_shader(Some(&vs), &[]).unwrap();
    c.vs_set_shader_resources(0, &[Some(a), Some(m)]);
    c.draw(1, 0).unwrap();
    // Slice 1 of the view is slice 4 of the texture; the view has 2 slices.
    assert_eq!(c.last_draw().unwrap().streams[0].primitives[0][0].registers[0], [40, 7, 4, 2]);
}

/// Stream output of packed elements: `StartComponent` counts from the element's first
/// component (functional spec 14.3: "component counts / offets to identify data within
/// elements"), so `TEXCOORD1` in `o1.z` is written `StartComponent 0, ComponentCount 1`
/// and gives the register's z. The declaration is passed as raw arguments
/// (`SoArguments`); a pointer to no entries is refused and leaves no shader.
#[test]
fn stream_output_of_packed_elements() {
    let device = device_11_0();
    let vs_text = format!(
        "{}{}vs_4_0\ndcl_input v0.xyzw\ndcl_output_siv o0.xyzw, position\ndcl_output o1.xy\ndcl_output o1.z\ndcl_output o1.w\n\
         mov o0.xyzw, v0.xyzw\nmov o1.xyzw, l(10, 11, 12, 13)\nret\n",
        signature("Input signature", &[("POSITION", 0, "xyzw", 0, "NONE", "float")]),
        signature(
            "Output signature",
            &[
                ("SV_Position", 0, "xyzw", 0, "POS", "float"),
                ("TEXCOORD", 0, "xy", 1, "NONE", "uint"),
                ("TEXCOORD", 1, "z", 1, "NONE", "uint"),
                ("TEXCOORD", 2, "w", 1, "NONE", "uint"),
            ]
        ),
    );
    let vs = vertex_shader(&device, &vs_text);
    let e = |index, start, count| SoEntry {
        stream: 0,
        semantic_name: Some("TEXCOORD".into()),
        semantic_index: index,
        start_component: start,
        component_count: count,
        output_slot: 0,
    };
    let args = SoArguments {
        declaration: Some(vec![e(1, 0, 1), e(2, 0, 1), e(0, 1, 1), e(0, 0, 1)]),
        strides: Some(vec![16]),
        ..SoArguments::default()
    };
    let bytes = vs.bytecode().to_vec();
    let mut out = None;
    let created = device.create_geometry_shader_with_so_arguments(&bytes, bytes.len(), &args, None, Some(&mut out));
    assert_eq!(created.hr, S_OK, "{:?}", created.diagnostics);
    let so_gs = out.unwrap();
    // The register's z read as TEXCOORD1's component 2: refused (V607).
    let wrong = SoArguments { declaration: Some(vec![e(1, 2, 1)]), ..SoArguments::default() };
    let mut none = None;
    let created = device.create_geometry_shader_with_so_arguments(&bytes, bytes.len(), &wrong, None, Some(&mut none));
    assert_eq!(created.hr, E_INVALIDARG);
    assert!(created.has(Code::SoComponentsNotOutput), "{:?}", created.diagnostics);
    // A pointer to no entries, and NULL with a count: refused; NULL for a vertex shader too.
    for bad in [
        SoArguments { declaration: Some(vec![]), ..SoArguments::default() },
        SoArguments { num_entries: Some(1), ..SoArguments::default() },
        SoArguments::default(),
    ] {
        let mut slot = Some(so_gs.clone());
        let created = device.create_geometry_shader_with_so_arguments(&bytes, bytes.len(), &bad, None, Some(&mut slot));
        assert_eq!(created.hr, E_INVALIDARG, "{bad:?}");
        assert!(created.has(Code::SoEntryCount), "{:?}", created.diagnostics);
        assert!(slot.is_none());
    }
    // Direct3D 10's OutputStreamStride is not an argument of Direct3D 11's call.
    let d10 = SoArguments { output_stream_stride: Some(16), ..args.clone() };
    assert_eq!(device.create_geometry_shader_with_so_arguments(&bytes, bytes.len(), &d10, None, None).hr, E_INVALIDARG);
    // The draw writes the register components first + StartComponent onward.
    let layout =
        device.create_input_layout(&[element("POSITION", 0, Format::R32G32B32A32_FLOAT, 0, 0)], vs.bytecode()).unwrap();
    let vb = buffer(&device, BindFlags::VERTEX_BUFFER, &bytes_f32(&[0.0, 0.0, 0.0, 1.0]));
    let so = buffer(&device, BindFlags::STREAM_OUTPUT, &[0; 64]);
    let mut c = device.immediate_context();
    c.ia_set_input_layout(Some(&layout));
    c.ia_set_vertex_buffers(0, &[Some(vb)], &[16], &[0]);
    c.ia_set_primitive_topology(Topology::PointList);
    c.vs_set_shader(Some(&vs), &[]).unwrap();
    c.gs_set_shader(Some(&so_gs), &[]).unwrap();
    c.so_set_targets(&[Some(so.clone())], &[0]);
    c.draw(1, 0).unwrap();
    assert_eq!(so.filled_size(), 16);
    assert_eq!(words(&so.bytes()[..16]), [12, 13, 11, 10]);
}
