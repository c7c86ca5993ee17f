//! The compute stage of the context: `CSSetShader`, `CSSetUnorderedAccessViews` (slot
//! counts per feature level, the hidden counter's initial counts, hazards), `Dispatch`
//! (what it writes, `CSInvocations`, the per-dimension limits, no shader bound) and
//! `DispatchIndirect`.

mod common;
use common::*;
use d3d11::context::{
    BindFlags, BufferDesc, BufferView, QueryData, QueryKind, RESOURCE_MISC_BUFFER_ALLOW_RAW_VIEWS,
    RESOURCE_MISC_BUFFER_STRUCTURED, RESOURCE_MISC_DRAWINDIRECT_ARGS,
};
use d3d11::*;
use exec::{ExecErrorKind, Format};

/// `u0[id] = id * 3` for each thread (groups of 4).
const TIMES_THREE: &str = "cs_5_0\n\
    dcl_uav_typed_buffer (uint,uint,uint,uint) u0\n\
    dcl_input vThreadID.x\n\
    dcl_temps 1\n\
    dcl_thread_group 4, 1, 1\n\
    imul null, r0.x, vThreadID.x, l(3)\n\
    store_uav_typed u0.xyzw, vThreadID.xxxx, r0.xxxx\n\
    ret\n";

/// Each thread appends its flattened ID (`imm_atomic_alloc` on the hidden counter).
const APPEND: &str = "cs_5_0\n\
    dcl_uav_structured u0, 4\n\
    dcl_input vThreadIDInGroupFlattened\n\
    dcl_temps 1\n\
    dcl_thread_group 8, 1, 1\n\
    imm_atomic_alloc r0.x, u0\n\
    store_structured u0.x, r0.x, l(0), vThreadIDInGroupFlattened.x\n\
    ret\n";

fn compute_shader(device: &Device, text: &str) -> Shader {
    let bytes = asm(text);
    let mut out = None;
    let created = device.create_compute_shader(&bytes, bytes.len(), None, Some(&mut out));
    assert_eq!(created.hr, HResult::S_OK, "{:?}", created.diagnostics);
    out.unwrap()
}

fn words(bytes: &[u8]) -> Vec<u32> {
    bytes.chunks_exact(4).map(|c| u32::from_le_bytes(c.try_into().unwrap())).collect()
}

/// A 16-word `R32_UINT` UAV buffer (with raw views allowed), its view.
fn typed_target(device: &Device) -> (d3d11::Buffer, d3d11::context::UnorderedAccessView) {
    let desc = BufferDesc::new(64, BindFlags::UNORDERED_ACCESS | BindFlags::SHADER_RESOURCE);
    let b = device.create_buffer(&desc, None).unwrap();
    let view = BufferView::Typed { format: Format::R32_UINT, first_element: 0, num_elements: 16 };
    let uav = device.create_unordered_access_view(&b, view).unwrap();
    (b, uav)
}

fn statistics(query: &Query) -> PipelineStatistics {
    match query.data() {
        Some(QueryData::PipelineStatistics(s)) => s,
        other => panic!("no pipeline statistics: {other:?}"),
    }
}

#[test]
fn dispatch_writes_the_bound_rwbuffer_and_counts_cs_invocations() {
    let device = device_11_0();
    let cs = compute_shader(&device, TIMES_THREE);
    let (b, uav) = typed_target(&device);
    let mut c = device.immediate_context();
    c.cs_set_shader(Some(&cs), &[]).unwrap();
    c.cs_set_unordered_access_views(0, &[Some(uav)], &[]).unwrap();
    let mut q = device.create_query(QueryKind::PipelineStatistics).unwrap();
    c.begin(&mut q);
    c.dispatch(3, 1, 1).unwrap();
    c.end(&mut q);
    let expected: Vec<u32> = (0..16).map(|i| if i < 12 { i * 3 } else { 0 }).collect();
    assert_eq!(words(&b.bytes()), expected);
    let s = statistics(&q);
    assert_eq!(s.cs_invocations, 12);
    assert_eq!(PipelineStatistics { cs_invocations: 0, ..s }, PipelineStatistics::default());
    // A dimension of 0 runs nothing.
    c.begin(&mut q);
    c.dispatch(0, 5, 1).unwrap();
    c.end(&mut q);
    assert_eq!(statistics(&q).cs_invocations, 0);
    let (shader, instances) = c.cs_get_shader();
    assert!(shader.unwrap().ptr_eq(&cs) && instances.is_empty());
}

#[test]
fn dispatch_above_65535_groups_per_dimension_is_refused() {
    let device = device_11_0();
    let cs = compute_shader(&device, TIMES_THREE);
    let (b, uav) = typed_target(&device);
    let mut c = device.immediate_context();
    c.cs_set_shader(Some(&cs), &[]).unwrap();
    c.cs_set_unordered_access_views(0, &[Some(uav)], &[]).unwrap();
    let mut q = device.create_query(QueryKind::PipelineStatistics).unwrap();
    c.begin(&mut q);
    for groups in [[65536, 1, 1], [1, 65536, 1], [1, 1, 65536]] {
        let e = c.dispatch(groups[0], groups[1], groups[2]).unwrap_err();
        assert!(matches!(&e.kind, ExecErrorKind::Draw(m) if m.contains("65535")), "{e:?}");
    }
    c.end(&mut q);
    assert_eq!(statistics(&q).cs_invocations, 0);
    assert_eq!(words(&b.bytes()), vec![0; 16]);
    assert!(c.messages().last().unwrap().contains("call ignored"), "{:?}", c.messages());
    // 65535 itself is within the limit (a dimension of 0 keeps the run empty).
    c.dispatch(65535, 0, 65535).unwrap();
}

#[test]
fn a_10_x_device_dispatches_one_layer_of_groups_in_z() {
    let device = Device::new(DeviceDesc::new(FeatureLevel::L10_0, Runtime::D3D11_1));
    let text = "cs_4_0\n\
        dcl_uav_raw u0\n\
        dcl_input vThreadID.x\n\
        dcl_temps 1\n\
        dcl_thread_group 4, 1, 1\n\
        ishl r0.x, vThreadID.x, l(2)\n\
        store_raw u0.x, r0.x, vThreadID.x\n\
        ret\n";
    let cs = compute_shader(&device, text);
    let desc = BufferDesc {
        byte_width: 64,
        bind_flags: BindFlags::UNORDERED_ACCESS,
        misc_flags: RESOURCE_MISC_BUFFER_ALLOW_RAW_VIEWS,
        structure_byte_stride: 0,
    };
    let b = device.create_buffer(&desc, None).unwrap();
    let uav = device.create_unordered_access_view(&b, BufferView::Raw { first_element: 0, num_elements: 16 }).unwrap();
    let mut c = device.immediate_context();
    assert_eq!(c.cs_uav_slot_count(), 1);
    // One UAV slot at 10_x.
    assert_eq!(c.cs_set_unordered_access_views(1, &[Some(uav.clone())], &[]).map_err(|e| e.hr), Err(E_INVALIDARG));
    c.cs_set_unordered_access_views(0, &[Some(uav)], &[]).unwrap();
    c.cs_set_shader(Some(&cs), &[]).unwrap();
    let e = c.dispatch(1, 1, 2).unwrap_err();
    assert!(matches!(&e.kind, ExecErrorKind::Draw(m) if m.contains("10_x")), "{e:?}");
    assert_eq!(words(&b.bytes()), vec![0; 16]);
    c.dispatch(2, 1, 1).unwrap();
    let expected: Vec<u32> = (0..16).map(|i| if i < 8 { i } else { 0 }).collect();
    assert_eq!(words(&b.bytes()), expected);
}

#[test]
fn dispatch_without_a_compute_shader_does_nothing() {
    let device = device_11_0();
    let (b, uav) = typed_target(&device);
    let mut c = device.immediate_context();
    c.cs_set_unordered_access_views(0, &[Some(uav)], &[]).unwrap();
    c.dispatch(1, 1, 1).unwrap();
    assert_eq!(words(&b.bytes()), vec![0; 16]);
    assert!(c.messages().last().unwrap().contains("no compute shader"), "{:?}", c.messages());
}

#[test]
fn cs_set_shader_takes_compute_shaders_only() {
    let device = device_11_0();
    let mut ps = None;
    let bytes = bytes_of(ProgramType::Pixel);
    assert_eq!(device.create_pixel_shader(&bytes, bytes.len(), None, Some(&mut ps)).hr, HResult::S_OK);
    let mut c = device.immediate_context();
    assert_eq!(c.cs_set_shader(ps.as_ref(), &[]).map_err(|e| e.hr), Err(E_INVALIDARG));
    assert!(c.cs_get_shader().0.is_none());
}

#[test]
fn initial_counts_set_keep_and_reset_the_hidden_counter() {
    let device = device_11_0();
    let cs = compute_shader(&device, APPEND);
    let desc = BufferDesc {
        byte_width: 64,
        bind_flags: BindFlags::UNORDERED_ACCESS,
        misc_flags: RESOURCE_MISC_BUFFER_STRUCTURED,
        structure_byte_stride: 4,
    };
    let b = device.create_buffer(&desc, None).unwrap();
    let uav =
        device.create_unordered_access_view(&b, BufferView::Structured { first_element: 0, num_elements: 16 }).unwrap();
    let mut c = device.immediate_context();
    c.cs_set_shader(Some(&cs), &[]).unwrap();
    // Start appending at 2.
    c.cs_set_unordered_access_views(0, &[Some(uav.clone())], &[2]).unwrap();
    c.dispatch(1, 1, 1).unwrap();
    assert_eq!(uav.counter(), 10);
    let mut expected = vec![0u32; 16];
    for (i, e) in expected.iter_mut().enumerate().skip(2).take(8) {
        *e = i as u32 - 2;
    }
    assert_eq!(words(&b.bytes()), expected);
    // -1 keeps the counter: the next dispatch appends after the first (the two past
    // the end are dropped, the counter still counts them).
    c.cs_set_unordered_access_views(0, &[Some(uav.clone())], &[u32::MAX]).unwrap();
    c.dispatch(1, 1, 1).unwrap();
    assert_eq!(uav.counter(), 18);
    for (i, e) in expected.iter_mut().enumerate().skip(10) {
        *e = i as u32 - 10;
    }
    assert_eq!(words(&b.bytes()), expected);
    // A count resets it; no counts (NULL) keep it.
    c.cs_set_unordered_access_views(0, &[Some(uav.clone())], &[0]).unwrap();
    assert_eq!(uav.counter(), 0);
    c.cs_set_unordered_access_views(0, &[Some(uav.clone())], &[]).unwrap();
    c.dispatch(1, 1, 1).unwrap();
    assert_eq!(uav.counter(), 8);
}

#[test]
fn uav_slot_counts_follow_the_feature_level() {
    let view = |device: &Device| typed_target(device).1;
    let d11_0 = device_11_0();
    let mut c = d11_0.immediate_context();
    assert_eq!(c.cs_uav_slot_count(), 8);
    assert!(c.cs_set_unordered_access_views(7, &[Some(view(&d11_0))], &[]).is_ok());
    assert_eq!(c.cs_set_unordered_access_views(8, &[Some(view(&d11_0))], &[]).map_err(|e| e.hr), Err(E_INVALIDARG));
    let d11_1 = Device::new(DeviceDesc::default());
    let mut c = d11_1.immediate_context();
    assert_eq!(c.cs_uav_slot_count(), 64);
    assert!(c.cs_set_unordered_access_views(63, &[Some(view(&d11_1))], &[]).is_ok());
    assert_eq!(c.cs_unordered_access_views().len(), 64);
}

#[test]
fn binding_a_cs_uav_unbinds_the_resource_from_shader_resource_slots() {
    let device = device_11_0();
    let (b, uav) = typed_target(&device);
    let srv = device
        .create_shader_resource_view(
            &b,
            BufferView::Typed { format: Format::R32_UINT, first_element: 0, num_elements: 16 },
        )
        .unwrap();
    let mut c = device.immediate_context();
    c.cs_set_shader_resources(0, &[Some(srv.clone())]);
    c.cs_set_unordered_access_views(0, &[Some(uav)], &[]).unwrap();
    assert!(c.messages().last().unwrap().contains("forced to NULL"), "{:?}", c.messages());
    // And a view of a resource bound as a UAV is bound as NULL.
    c.ps_set_shader_resources(0, &[Some(srv)]);
    assert!(c.messages().last().unwrap().contains("input forced to NULL"), "{:?}", c.messages());
}

#[test]
fn dispatch_indirect_reads_the_group_counts_from_the_buffer() {
    let device = device_11_0();
    let cs = compute_shader(&device, TIMES_THREE);
    let (b, uav) = typed_target(&device);
    let args: Vec<u8> = [7u32, 2, 1, 1].iter().flat_map(|w| w.to_le_bytes()).collect();
    let desc = BufferDesc {
        byte_width: 16,
        bind_flags: BindFlags::SHADER_RESOURCE,
        misc_flags: RESOURCE_MISC_DRAWINDIRECT_ARGS,
        structure_byte_stride: 0,
    };
    let indirect = device.create_buffer(&desc, Some(&args)).unwrap();
    let plain = device.create_buffer(&BufferDesc::new(16, BindFlags::SHADER_RESOURCE), Some(&args)).unwrap();
    let mut c = device.immediate_context();
    c.cs_set_shader(Some(&cs), &[]).unwrap();
    c.cs_set_unordered_access_views(0, &[Some(uav)], &[]).unwrap();
    let mut q = device.create_query(QueryKind::PipelineStatistics).unwrap();
    c.begin(&mut q);
    assert!(c.dispatch_indirect(&plain, 4).is_err()); // no DRAWINDIRECT_ARGS
    assert!(c.dispatch_indirect(&indirect, 2).is_err()); // unaligned
    assert!(c.dispatch_indirect(&indirect, 8).is_err()); // past the end
    c.dispatch_indirect(&indirect, 4).unwrap(); // (2, 1, 1)
    c.end(&mut q);
    assert_eq!(statistics(&q).cs_invocations, 8);
    let expected: Vec<u32> = (0..16).map(|i| if i < 8 { i * 3 } else { 0 }).collect();
    assert_eq!(words(&b.bytes()), expected);
}

/// Microsoft's "Compute Shaders on Downlevel Hardware": at 10_x, UAVs are raw or
/// structured buffers only (no typed or texture UAVs), a raw one starting on a
/// 256-byte boundary; at 11_0 each of these views is created.
#[test]
fn a_10_x_device_creates_raw_and_structured_buffer_uavs_only() {
    for (level, downlevel) in [(FeatureLevel::L10_0, true), (FeatureLevel::L10_1, true), (FeatureLevel::L11_0, false)] {
        let device = Device::new(DeviceDesc::new(level, Runtime::D3D11_1));
        let raw = device
            .create_buffer(
                &BufferDesc {
                    byte_width: 1024,
                    bind_flags: BindFlags::UNORDERED_ACCESS,
                    misc_flags: RESOURCE_MISC_BUFFER_ALLOW_RAW_VIEWS,
                    structure_byte_stride: 0,
                },
                None,
            )
            .unwrap();
        let created = |view| device.create_unordered_access_view(&raw, view).map(|_| ()).map_err(|e| e.hr);
        let refused = if downlevel { Err(E_INVALIDARG) } else { Ok(()) };
        assert_eq!(created(BufferView::Raw { first_element: 64, num_elements: 16 }), Ok(()), "{level:?}: 256 bytes in");
        assert_eq!(created(BufferView::Raw { first_element: 4, num_elements: 16 }), refused, "{level:?}: 16 bytes in");
        let typed = BufferView::Typed { format: Format::R32_UINT, first_element: 0, num_elements: 16 };
        assert_eq!(created(typed), refused, "{level:?}: typed");
        let structured = device
            .create_buffer(
                &BufferDesc {
                    byte_width: 64,
                    bind_flags: BindFlags::UNORDERED_ACCESS,
                    misc_flags: d3d11::context::RESOURCE_MISC_BUFFER_STRUCTURED,
                    structure_byte_stride: 16,
                },
                None,
            )
            .unwrap();
        let view = BufferView::Structured { first_element: 1, num_elements: 2 };
        assert!(device.create_unordered_access_view(&structured, view).is_ok(), "{level:?}: structured");
        let texture = device
            .create_texture2d(
                &d3d11::context::Texture2DDesc::new(4, 4, Format::R32_FLOAT, BindFlags::UNORDERED_ACCESS),
                None,
            )
            .unwrap();
        let view = d3d11::context::TextureViewDesc {
            dimension: d3d11::context::TextureViewDimension::Texture2D,
            first_array_slice: 0,
            array_size: 1,
        };
        let created = device.create_texture_unordered_access_view(&texture, view).map(|_| ()).map_err(|e| e.hr);
        assert_eq!(created, refused, "{level:?}: texture");
    }
}

/// UAVs of slices 0 and 1 of one texture array (different subresources, no hazard) at
/// slots 0 and 1: a dispatch writes through both.
#[test]
fn uavs_of_two_slices_of_one_texture_both_write() {
    let device = device_11_0();
    let text = "cs_5_0\n\
        dcl_globalFlags refactoringAllowed\n\
        dcl_uav_typed_texture2darray (uint,uint,uint,uint) u0\n\
        dcl_uav_typed_texture2darray (uint,uint,uint,uint) u1\n\
        dcl_thread_group 1, 1, 1\n\
        store_uav_typed u0.xyzw, l(1, 0, 0, 0), l(7, 7, 7, 7)\n\
        store_uav_typed u1.xyzw, l(2, 0, 0, 0), l(9, 9, 9, 9)\n\
        ret\n";
    let cs = compute_shader(&device, text);
    let mut desc = d3d11::context::Texture2DDesc::new(4, 1, Format::R32_UINT, BindFlags::UNORDERED_ACCESS);
    desc.array_size = 2;
    let texture = device.create_texture2d(&desc, None).unwrap();
    let slice = |first| {
        let view = d3d11::context::TextureViewDesc {
            dimension: d3d11::context::TextureViewDimension::Texture2DArray,
            first_array_slice: first,
            array_size: 1,
        };
        device.create_texture_unordered_access_view(&texture, view).unwrap()
    };
    let mut c = device.immediate_context();
    c.cs_set_unordered_access_views(0, &[Some(slice(0)), Some(slice(1))], &[]).unwrap();
    c.cs_set_shader(Some(&cs), &[]).unwrap();
    c.dispatch(1, 1, 1).unwrap();
    assert_eq!(words(&texture.memory().bytes()), [0, 7, 0, 0, 0, 0, 9, 0], "{:?}", c.messages());
}
