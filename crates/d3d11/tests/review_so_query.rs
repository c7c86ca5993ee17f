//! Review finding: `D3D11_QUERY_SO_STATISTICS` is stream 0's statistics (spec 20.4.9),
//! not the sum over the streams.

mod common;
use common::*;
use d3d11::context::{BindFlags, BufferDesc, QueryData, QueryKind};
use d3d11::*;

fn sig(title: &str, rows: &[(&str, u32, &str, u32, &str, &str)]) -> String {
    let mut s = format!("//\n// {title}:\n//\n// Name                 Index   Mask Register SysValue  Format   Used\n// -------------------- ----- ------ -------- -------- ------- ------\n");
    for (name, index, mask, register, sv, format) in rows {
        s += &format!("// {name:<20} {index:>5}   {mask:<4} {register:>8} {sv:>8} {format:>7}   {mask:<4}\n");
    }
    s + "//\n"
}

#[test]
fn so_statistics_query_is_stream0() {
    let device = device_11_0();
    let vs_text = format!(
        "{}{}vs_4_0\ndcl_input v0.x\ndcl_output o0.x\nmov o0.x, v0.x\nret\n",
        sig("Input signature", &[("A", 0, "x", 0, "NONE", "uint")]),
        sig("Output signature", &[("A", 0, "x", 0, "NONE", "uint")])
    );
    let gs_text = format!(
        "{}{}gs_5_0\ndcl_input v[1][0].x\ndcl_inputprimitive point\n\
        dcl_stream m0\ndcl_outputtopology pointlist\ndcl_output o0.x\n\
        dcl_stream m1\ndcl_outputtopology pointlist\ndcl_output o0.x\ndcl_maxout 3\n\
        mov o0.x, v[0][0].x\nemit_stream m0\nmov o0.x, l(7)\nemit_stream m1\nemit_stream m1\nret\n",
        sig("Input signature", &[("A", 0, "x", 0, "NONE", "uint")]),
        sig("Output signature", &[("m0:P", 0, "x", 0, "NONE", "uint"), ("m1:Q", 0, "x", 0, "NONE", "uint")])
    );
    let vsb = asm(&vs_text);
    let gsb = asm(&gs_text);
    let mut vs = None;
    assert_eq!(device.create_vertex_shader(&vsb, vsb.len(), None, Some(&mut vs)).hr, S_OK);
    let vs = vs.unwrap();
    let so = StreamOutputDesc {
        entries: vec![
            SoEntry {
                stream: 0,
                semantic_name: Some("P".into()),
                semantic_index: 0,
                start_component: 0,
                component_count: 1,
                output_slot: 0,
            },
            SoEntry {
                stream: 1,
                semantic_name: Some("Q".into()),
                semantic_index: 0,
                start_component: 0,
                component_count: 1,
                output_slot: 1,
            },
        ],
        strides: vec![4, 4],
        rasterized_stream: 0,
    };
    let mut gs = None;
    let c = device.create_geometry_shader_with_stream_output(&gsb, gsb.len(), &so, None, Some(&mut gs));
    assert_eq!(c.hr, S_OK, "{:?}", c.diagnostics);
    let gs = gs.unwrap();
    let layout = device
        .create_input_layout(
            &[exec::pipeline::InputElement {
                semantic_name: "A".into(),
                semantic_index: 0,
                format: exec::Format::R32_UINT,
                input_slot: 0,
                aligned_byte_offset: 0,
                per_instance: false,
                instance_data_step_rate: 0,
            }],
            vs.bytecode(),
        )
        .unwrap();
    let vb =
        device.create_buffer(&BufferDesc::new(8, BindFlags::VERTEX_BUFFER), Some(&[1, 0, 0, 0, 2, 0, 0, 0])).unwrap();
    let b0 = device.create_buffer(&BufferDesc::new(64, BindFlags::STREAM_OUTPUT), None).unwrap();
    let b1 = device.create_buffer(&BufferDesc::new(64, BindFlags::STREAM_OUTPUT), None).unwrap();
    let mut ctx = device.immediate_context();
    ctx.ia_set_input_layout(Some(&layout));
    ctx.ia_set_vertex_buffers(0, &[Some(vb)], &[4], &[0]);
    ctx.ia_set_primitive_topology(exec::pipeline::Topology::PointList);
    ctx.vs_set_shader(Some(&vs), &[]).unwrap();
    ctx.gs_set_shader(Some(&gs), &[]).unwrap();
    ctx.so_set_targets(&[Some(b0), Some(b1)], &[0, 0]);
    let mut q = device.create_query(QueryKind::SoStatistics).unwrap();
    let mut q0 = device.create_query(QueryKind::SoStatisticsStream(0)).unwrap();
    let mut q1 = device.create_query(QueryKind::SoStatisticsStream(1)).unwrap();
    ctx.begin(&mut q);
    ctx.begin(&mut q0);
    ctx.begin(&mut q1);
    ctx.draw(2, 0).unwrap();
    ctx.end(&mut q);
    ctx.end(&mut q0);
    ctx.end(&mut q1);
    let written = |n| {
        Some(QueryData::SoStatistics(exec::pipeline::SoStatistics {
            num_primitives_written: n,
            primitives_storage_needed: n,
        }))
    };
    // Two points: one vertex each on stream 0, two each on stream 1.
    assert_eq!(q0.data(), written(2));
    assert_eq!(q1.data(), written(4));
    assert_eq!(q.data(), q0.data(), "D3D10_QUERY_SO_STATISTICS is a synonym for _STREAM0 (20.4.9)");
}
