//! The output hazards of the D3D11.3 functional spec's 5.3.9.4 "Hazard Tracking": a
//! call binding one subresource at two output slots (render targets, graphics UAVs,
//! compute UAVs) is ignored, and binding a subresource as a render target, UAV or
//! stream-output target unsets the other output binding of that subresource on the
//! same side of the pipeline.

mod common;
use common::*;
use d3d11::context::{
    BindFlags, Buffer, BufferDesc, BufferView, RenderTargetView, RenderTargetViewDesc, Texture2D, Texture2DDesc,
    TextureViewDesc, TextureViewDimension, UnorderedAccessView, RESOURCE_MISC_BUFFER_ALLOW_RAW_VIEWS,
};
use d3d11::*;
use exec::Format;

fn texture(device: &Device, slices: u32) -> Texture2D {
    let mut desc = Texture2DDesc::new(
        4,
        4,
        Format::R32_FLOAT,
        BindFlags::RENDER_TARGET | BindFlags::UNORDERED_ACCESS | BindFlags::SHADER_RESOURCE,
    );
    desc.array_size = slices;
    device.create_texture2d(&desc, None).unwrap()
}

fn rtv(device: &Device, texture: &Texture2D, slice: u32) -> RenderTargetView {
    let desc = RenderTargetViewDesc { mip_slice: 0, first_array_slice: slice };
    device.create_render_target_view(texture, Some(desc)).unwrap()
}

fn texture_uav(device: &Device, texture: &Texture2D, first: u32, count: u32) -> UnorderedAccessView {
    let desc = TextureViewDesc {
        dimension: TextureViewDimension::Texture2DArray,
        first_array_slice: first,
        array_size: count,
    };
    device.create_texture_unordered_access_view(texture, desc).unwrap()
}

fn raw_buffer(device: &Device, bind: BindFlags) -> Buffer {
    let desc = BufferDesc {
        byte_width: 64,
        bind_flags: bind,
        misc_flags: RESOURCE_MISC_BUFFER_ALLOW_RAW_VIEWS,
        structure_byte_stride: 0,
    };
    device.create_buffer(&desc, None).unwrap()
}

fn raw_uav(device: &Device, buffer: &Buffer, first: u32) -> UnorderedAccessView {
    device.create_unordered_access_view(buffer, BufferView::Raw { first_element: first, num_elements: 4 }).unwrap()
}

fn bound<T>(slots: &[Option<T>]) -> Vec<bool> {
    slots.iter().map(Option::is_some).collect()
}

#[test]
fn one_subresource_at_two_render_target_slots_ignores_the_call() {
    let device = device_11_0();
    let mut c = device.immediate_context();
    let t = texture(&device, 2);
    c.om_set_render_targets(&[Some(rtv(&device, &t, 1))]);
    // Slice 0 twice (two view objects of one subresource): ignored, slot 0 keeps slice 1.
    c.om_set_render_targets(&[Some(rtv(&device, &t, 0)), None, Some(rtv(&device, &t, 0))]);
    assert!(c.messages().last().unwrap().contains("call ignored"), "{:?}", c.messages());
    assert_eq!(c.om_render_targets().len(), 1);
    assert_eq!(c.om_render_targets()[0].as_ref().unwrap().desc().first_array_slice, 1);
    // Slices 0 and 1: two subresources, bound.
    c.om_set_render_targets(&[Some(rtv(&device, &t, 0)), Some(rtv(&device, &t, 1))]);
    assert_eq!(bound(c.om_render_targets()), [true, true]);
}

#[test]
fn one_subresource_under_two_uavs_of_one_call_ignores_the_call() {
    let device = device_11_0();
    let mut c = device.immediate_context();
    let b = raw_buffer(&device, BindFlags::UNORDERED_ACCESS);
    let other = raw_buffer(&device, BindFlags::UNORDERED_ACCESS);
    // A buffer is one subresource: two views of different ranges overlap.
    let twice = [Some(raw_uav(&device, &b, 0)), Some(raw_uav(&device, &b, 8))];
    c.om_set_unordered_access_views(0, &[Some(raw_uav(&device, &other, 0))], &[]).unwrap();
    c.om_set_unordered_access_views(0, &twice, &[]).unwrap();
    assert!(c.messages().last().unwrap().contains("call ignored"), "{:?}", c.messages());
    assert!(c.om_unordered_access_views()[0].as_ref().unwrap().buffer().ptr_eq(&other));
    assert!(c.om_unordered_access_views()[1].is_none());
    c.cs_set_unordered_access_views(0, &[Some(raw_uav(&device, &other, 0))], &[]).unwrap();
    c.cs_set_unordered_access_views(0, &twice, &[]).unwrap();
    assert!(c.messages().last().unwrap().contains("call ignored"), "{:?}", c.messages());
    assert!(c.cs_unordered_access_views()[0].as_ref().unwrap().buffer().ptr_eq(&other));
    assert!(c.cs_unordered_access_views()[1].is_none());
    // Texture UAVs of slices 0..2 and 1..2 overlap; 0..1 and 1..2 do not.
    let t = texture(&device, 2);
    let slices = [Some(texture_uav(&device, &t, 0, 2)), Some(texture_uav(&device, &t, 1, 1))];
    c.cs_set_unordered_access_views(0, &slices, &[]).unwrap();
    assert!(c.messages().last().unwrap().contains("call ignored"), "{:?}", c.messages());
    let slices = [Some(texture_uav(&device, &t, 0, 1)), Some(texture_uav(&device, &t, 1, 1))];
    c.cs_set_unordered_access_views(0, &slices, &[]).unwrap();
    assert_eq!(bound(&c.cs_unordered_access_views()[..2]), [true, true]);
}

#[test]
fn binding_an_output_unsets_the_other_output_binding_of_its_subresource() {
    let device = device_11_0();
    let mut c = device.immediate_context();
    let t = texture(&device, 2);
    // A render target, then a UAV of the same subresource: the render target is unset.
    c.om_set_render_targets(&[Some(rtv(&device, &t, 0)), Some(rtv(&device, &t, 1))]);
    c.om_set_unordered_access_views(2, &[Some(texture_uav(&device, &t, 1, 1))], &[]).unwrap();
    assert_eq!(bound(c.om_render_targets()), [true, false]);
    assert!(c.messages().last().unwrap().contains("render target slot 1 unset"), "{:?}", c.messages());
    // The render target again: the UAV is unset.
    c.om_set_render_targets(&[Some(rtv(&device, &t, 1))]);
    assert!(c.om_unordered_access_views()[2].is_none());
    // A UAV moved to another slot by a second call leaves the first slot.
    let b = raw_buffer(&device, BindFlags::UNORDERED_ACCESS | BindFlags::SHADER_RESOURCE);
    c.om_set_unordered_access_views(3, &[Some(raw_uav(&device, &b, 0))], &[]).unwrap();
    c.om_set_unordered_access_views(4, &[Some(raw_uav(&device, &b, 4))], &[]).unwrap();
    assert_eq!(bound(&c.om_unordered_access_views()[3..5]), [false, true]);
    // Rebinding the same slot is no hazard.
    c.om_set_unordered_access_views(4, &[Some(raw_uav(&device, &b, 0))], &[]).unwrap();
    assert!(c.om_unordered_access_views()[4].is_some());
    // The compute side among its own UAVs.
    c.cs_set_unordered_access_views(0, &[Some(raw_uav(&device, &b, 0))], &[]).unwrap();
    c.cs_set_unordered_access_views(1, &[Some(raw_uav(&device, &b, 0))], &[]).unwrap();
    assert_eq!(bound(&c.cs_unordered_access_views()[..2]), [false, true]);
    // Compute and graphics bindings are not hazards of each other here (not modelled).
    assert!(c.om_unordered_access_views()[4].is_some());
}

#[test]
fn stream_output_and_uav_bindings_of_one_buffer_unset_each_other() {
    let device = device_11_0();
    let mut c = device.immediate_context();
    let desc = BufferDesc::new(64, BindFlags::STREAM_OUTPUT | BindFlags::UNORDERED_ACCESS);
    let b = device.create_buffer(&desc, None).unwrap();
    let typed = BufferView::Typed { format: Format::R32_UINT, first_element: 0, num_elements: 16 };
    let uav = device.create_unordered_access_view(&b, typed).unwrap();
    c.om_set_unordered_access_views(0, &[Some(uav.clone())], &[]).unwrap();
    c.so_set_targets(&[Some(b.clone())], &[0]);
    assert!(c.om_unordered_access_views()[0].is_none());
    assert!(c.so_targets()[0].is_some());
    c.om_set_unordered_access_views(0, &[Some(uav)], &[]).unwrap();
    assert!(c.so_targets()[0].is_none());
    assert!(c.messages().last().unwrap().contains("stream-output slot 0 unset"), "{:?}", c.messages());
}
