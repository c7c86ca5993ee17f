//! Odd arguments to the pixel and compute stages of the context — NaN, infinite,
//! huge, zero and negative positions, w, viewports, cull states, target sizes, group
//! counts at and past the limits — give an `Ok` or a typed error, never a panic, and
//! leave the render target its size.

mod common;
use common::*;
use corpus::Rng;
use d3d11::context::{BindFlags, BufferDesc, BufferView, Cull, RasterizerDesc, Texture2DDesc, Viewport};
use d3d11::*;
use exec::Format;

const ODD: [f32; 14] =
    [0.0, 1.0, -1.0, 0.5, 3.0, 1e-30, 1e30, -1e30, 1e5, f32::NAN, f32::INFINITY, f32::NEG_INFINITY, -0.0, 2.0];

fn pick(rng: &mut Rng, values: &[f32]) -> f32 {
    values[rng.below(values.len())]
}

fn shader(device: &Device, stage: ProgramType, text: &str) -> Shader {
    let bytes = asm(text);
    let mut out = None;
    let created = create(device, stage, &bytes, bytes.len(), None, Some(&mut out));
    assert_eq!(created.hr, HResult::S_OK, "{:?}", created.diagnostics);
    out.unwrap()
}

const VS: &str = "//
// Input signature:
//
// Name                 Index   Mask Register SysValue  Format   Used
// -------------------- ----- ------ -------- -------- ------- ------
// POSITION                 0   xyzw        0     NONE   float   xyzw
//
//
// Output signature:
//
// Name                 Index   Mask Register SysValue  Format   Used
// -------------------- ----- ------ -------- -------- ------- ------
// SV_Position              0   xyzw        0      POS   float   xyzw
//
vs_4_0\ndcl_input v0.xyzw\ndcl_output_siv o0.xyzw, position\nmov o0.xyzw, v0.xyzw\nret\n";

const PS: &str = "//
// Input signature:
//
// Name                 Index   Mask Register SysValue  Format   Used
// -------------------- ----- ------ -------- -------- ------- ------
// SV_Position              0   xyzw        0      POS   float   xy
//
//
// Output signature:
//
// Name                 Index   Mask Register SysValue  Format   Used
// -------------------- ----- ------ -------- -------- ------- ------
// SV_Target                0   xyzw        0   TARGET   float   xyzw
//
ps_4_0\ndcl_input_ps_siv linear noperspective v0.xy, position\ndcl_output o0.xyzw\n\
mov o0.xy, v0.xyxx\nmov o0.zw, l(0, 0, 0.5, 1.0)\nret\n";

#[test]
fn odd_positions_viewports_and_states_never_panic() {
    let device = device_11_0();
    let vs = shader(&device, ProgramType::Vertex, VS);
    let ps = shader(&device, ProgramType::Pixel, PS);
    let layout = device
        .create_input_layout(
            &[InputElement {
                semantic_name: "POSITION".into(),
                semantic_index: 0,
                format: Format::R32G32B32A32_FLOAT,
                input_slot: 0,
                aligned_byte_offset: 0,
                per_instance: false,
                instance_data_step_rate: 0,
            }],
            vs.bytecode(),
        )
        .unwrap();
    let mut rng = Rng(0x5eed_0d0d);
    let (mut ok, mut refused) = (0, 0);
    for _ in 0..400 {
        let (w, h) = [(1, 1), (3, 5), (16, 16), (7, 2)][rng.below(4)];
        let format =
            [Format::R32G32B32A32_FLOAT, Format::R8G8B8A8_UNORM, Format::R16G16_SNORM, Format::R32_UINT][rng.below(4)];
        let texture =
            device.create_texture2d(&Texture2DDesc::new(w, h, format, BindFlags::RENDER_TARGET), None).unwrap();
        let size = texture.memory().bytes().len();
        let rtv = device.create_render_target_view(&texture, None).unwrap();
        let vertices: Vec<u8> = (0..6)
            .flat_map(|_| {
                let w = pick(&mut rng, &[1.0, 0.0, -1.0, 1e-20, 2.0, f32::NAN, 1.0, 1.0]);
                [pick(&mut rng, &ODD), pick(&mut rng, &ODD), pick(&mut rng, &ODD), w]
            })
            .flat_map(f32::to_le_bytes)
            .collect();
        let vb = device.create_buffer(&BufferDesc::new(96, BindFlags::VERTEX_BUFFER), Some(&vertices)).unwrap();
        let mut c = device.immediate_context();
        c.ia_set_input_layout(Some(&layout));
        c.ia_set_vertex_buffers(0, &[Some(vb)], &[16], &[0]);
        c.ia_set_primitive_topology([Topology::TriangleList, Topology::TriangleStrip][rng.below(2)]);
        c.vs_set_shader(Some(&vs), &[]).unwrap();
        c.ps_set_shader(Some(&ps), &[]).unwrap();
        c.om_set_render_targets(&[Some(rtv)]);
        if rng.below(8) != 0 {
            let mut v = Viewport {
                top_left_x: 0.0,
                top_left_y: 0.0,
                width: w as f32,
                height: h as f32,
                min_depth: 0.0,
                max_depth: 1.0,
            };
            match rng.below(4) {
                0 => v.top_left_x = pick(&mut rng, &ODD),
                1 => v.width = pick(&mut rng, &ODD),
                2 => v.min_depth = pick(&mut rng, &ODD),
                _ => {}
            }
            c.rs_set_viewports(&[v]);
        }
        let desc = RasterizerDesc {
            cull_mode: [Cull::None, Cull::Front, Cull::Back][rng.below(3)],
            front_counter_clockwise: rng.below(2) == 0,
            depth_clip_enable: rng.below(2) == 0,
            ..RasterizerDesc::default()
        };
        c.rs_set_state(Some(&device.create_rasterizer_state(&desc)));
        match c.draw(6, 0) {
            Ok(()) => ok += 1,
            Err(_) => refused += 1,
        }
        assert_eq!(texture.memory().bytes().len(), size);
    }
    // Both kinds of outcome occur.
    assert!(ok > 0 && refused > 0, "{ok} drawn, {refused} refused");
}

#[test]
fn group_counts_at_and_past_the_limits_never_panic() {
    let device = device_11_0();
    let cs = shader(
        &device,
        ProgramType::Compute,
        "cs_5_0\ndcl_uav_raw u0\ndcl_input vThreadID.x\ndcl_thread_group 1, 1, 1\n\
         atomic_iadd u0, l(0), l(1)\nret\n",
    );
    let desc = BufferDesc {
        byte_width: 4,
        bind_flags: BindFlags::UNORDERED_ACCESS,
        misc_flags: d3d11::context::RESOURCE_MISC_BUFFER_ALLOW_RAW_VIEWS,
        structure_byte_stride: 0,
    };
    let counter = device.create_buffer(&desc, None).unwrap();
    let uav =
        device.create_unordered_access_view(&counter, BufferView::Raw { first_element: 0, num_elements: 1 }).unwrap();
    let mut c = device.immediate_context();
    c.cs_set_shader(Some(&cs), &[]).unwrap();
    c.cs_set_unordered_access_views(0, &[Some(uav)], &[]).unwrap();
    let mut rng = Rng(0xd15_9a7c);
    let mut expected = 0u32;
    for _ in 0..200 {
        let mut g: [u32; 3] = std::array::from_fn(|_| [0, 1, 2, 3, 65535, 65536, u32::MAX][rng.below(7)]);
        // Keep the runs small: a dimension above 3 comes with a 0 elsewhere.
        if g.iter().any(|&n| n > 3) {
            g[rng.below(3)] = 0;
        }
        let within = g.iter().all(|&n| n <= 65535);
        let r = c.dispatch(g[0], g[1], g[2]);
        assert_eq!(r.is_ok(), within, "{g:?}");
        if within {
            expected += g.iter().map(|&n| n.min(3)).product::<u32>();
        }
    }
    assert_eq!(counter.bytes(), expected.to_le_bytes());
}
