//! The create calls: HRESULTs, the out object, the diagnostics, the device's runtime
//! and capabilities (the UAV remarks of Microsoft's ID3D11Device::CreateGeometryShader page), stream output.

mod common;
use common::*;
use d3d11::*;

#[test]
fn hresult_values_and_display() {
    assert_eq!(S_OK.0, 0);
    assert_eq!(S_FALSE.0, 1);
    assert_eq!(E_INVALIDARG.0, 0x8007_0057);
    assert_eq!(E_OUTOFMEMORY.0, 0x8007_000E);
    assert_eq!(E_FAIL.0, 0x8000_4005);
    assert_eq!(E_NOTIMPL.0, 0x8000_4001);
    assert_eq!(DXGI_ERROR_UNSUPPORTED.0, 0x887A_0004);
    assert!(S_OK.succeeded() && S_FALSE.succeeded());
    for hr in [E_INVALIDARG, E_OUTOFMEMORY, E_FAIL, E_NOTIMPL, DXGI_ERROR_UNSUPPORTED] {
        assert!(hr.failed() && !hr.succeeded(), "{hr}");
    }
    assert_eq!(E_INVALIDARG.as_i32(), -2147024809);
    assert_eq!(HResult::from_i32(-2147024809), E_INVALIDARG);
    assert_eq!(E_INVALIDARG.to_string(), "E_INVALIDARG (0x80070057)");
    assert_eq!(S_FALSE.to_string(), "S_FALSE (0x00000001)");
    assert_eq!(DXGI_ERROR_UNSUPPORTED.to_string(), "DXGI_ERROR_UNSUPPORTED (0x887a0004)");
    assert_eq!(HResult(0x8000_FFFF).to_string(), "HRESULT 0x8000ffff");
    assert_eq!(format!("{:?}", S_OK), "S_OK (0x00000000)");
}

#[test]
fn device_accessors() {
    let desc = DeviceDesc::new(FeatureLevel::L10_1, Runtime::D3D11_0);
    assert_eq!(desc.caps, Caps::typical(FeatureLevel::L10_1, Runtime::D3D11_0));
    let device = Device::new(desc.doubles(true));
    assert_eq!(device.feature_level(), FeatureLevel::L10_1);
    assert_eq!(device.runtime(), Runtime::D3D11_0);
    assert!(device.desc().caps.doubles);
    assert_eq!(DeviceDesc::default(), DeviceDesc::new(FeatureLevel::L11_1, Runtime::D3D11_1));
    let on = DeviceDesc::new(FeatureLevel::L11_0, Runtime::D3D11_1).uavs_at_every_stage(true);
    assert!(on.caps.uavs_at_every_stage);
    assert!(!on.uavs_at_every_stage(false).caps.uavs_at_every_stage);
}

#[test]
fn objects_are_send_and_sync() {
    fn check<T: Send + Sync>() {}
    check::<Device>();
    check::<Shader>();
    check::<ClassLinkage>();
    check::<ClassInstance>();
    check::<Created>();
}

/// Seed 004: with no out parameter, a shader that passes validation gives S_FALSE.
#[test]
fn s_false_without_out_object() {
    let device = device_11_0();
    for stage in STAGES {
        let bytes = bytes_of(stage);
        let created = create(&device, stage, &bytes, bytes.len(), None, None);
        assert_eq!(created.hr, S_FALSE, "{stage:?}: {:#?}", created.diagnostics);
        assert!(created.diagnostics.is_empty());
        assert!(created.succeeded());
    }
}

/// With an out parameter: S_OK and the shader object.
#[test]
fn s_ok_and_shader_with_out_object() {
    let device = device_11_0();
    for stage in STAGES {
        let bytes = bytes_of(stage);
        let mut out = None;
        let created = create(&device, stage, &bytes, bytes.len(), None, Some(&mut out));
        assert_eq!(created.hr, S_OK, "{stage:?}: {:#?}", created.diagnostics);
        assert!(created.diagnostics.is_empty());
        let shader = out.expect("a shader object");
        assert_eq!(shader.stage(), stage);
        assert_eq!(shader.program_stage(), stage);
        assert_eq!(shader.model(), (5, 0));
        assert!(!shader.is_level9());
        assert_eq!(shader.bytecode(), &bytes[..]);
        assert_eq!(&shader.bytecode_arc()[..], &bytes[..]);
        assert_eq!(shader.facts().stage, stage);
        assert!(shader.stream_output().is_none());
        assert!(shader.class_linkage().is_none());
        let copy = shader.clone();
        assert!(copy.ptr_eq(&shader));
    }
}

/// Refused: E_INVALIDARG, diagnostics, and the out object emptied even when it held a
/// shader before the call.
#[test]
fn refused_leaves_out_object_empty() {
    let device = device_11_0();
    let vs = bytes_of(ProgramType::Vertex);
    let mut out = None;
    assert_eq!(device.create_vertex_shader(&vs, vs.len(), None, Some(&mut out)).hr, S_OK);
    assert!(out.is_some());
    // A vertex shader given to CreatePixelShader: the wrong stage (V109).
    let created = device.create_pixel_shader(&vs, vs.len(), None, Some(&mut out));
    assert_eq!(created.hr, E_INVALIDARG);
    assert!(created.failed());
    assert!(created.has(Code::WrongStage), "{:#?}", created.diagnostics);
    assert!(!created.diagnostics.is_empty());
    assert!(out.is_none(), "the out object must be left empty");
    // Without an out parameter the call validates all the same.
    let created = device.create_pixel_shader(&vs, vs.len(), None, None);
    assert_eq!(created.hr, E_INVALIDARG);
    assert!(created.has(Code::WrongStage));
}

/// Every create call refuses the other stages' shaders.
#[test]
fn each_call_refuses_other_stages() {
    let device = device_11_0();
    for given in STAGES {
        let bytes = bytes_of(given);
        for call in STAGES.into_iter().filter(|&s| s != given) {
            let mut out = None;
            let created = create(&device, call, &bytes, bytes.len(), None, Some(&mut out));
            assert_eq!(created.hr, E_INVALIDARG, "{given:?} to the {call:?} call");
            assert!(created.has(Code::WrongStage), "{given:?} to the {call:?} call: {:#?}", created.diagnostics);
            assert!(out.is_none());
        }
    }
}

/// Empty bytecode and a zero length are refused with a diagnostic.
#[test]
fn empty_bytecode_and_zero_length() {
    let device = device_11_0();
    let mut out = None;
    let created = device.create_vertex_shader(&[], 0, None, Some(&mut out));
    assert_eq!(created.hr, E_INVALIDARG);
    assert!(created.has(Code::ContainerUnreadable), "{:#?}", created.diagnostics);
    assert!(out.is_none());
    let vs = bytes_of(ProgramType::Vertex);
    let created = device.create_vertex_shader(&vs, 0, None, Some(&mut out));
    assert_eq!(created.hr, E_INVALIDARG);
    assert!(created.has(Code::BytecodeLength), "{:#?}", created.diagnostics);
    assert!(out.is_none());
}

/// `BytecodeLength` must be the container's size (V101), longer or shorter; so must the
/// bytes given.
#[test]
fn length_mismatch_refused() {
    let device = device_11_0();
    let vs = bytes_of(ProgramType::Vertex);
    for length in [vs.len() - 4, vs.len() - 1, vs.len() + 1, vs.len() + 4, usize::MAX] {
        let mut out = None;
        let created = device.create_vertex_shader(&vs, length, None, Some(&mut out));
        assert_eq!(created.hr, E_INVALIDARG, "length {length}");
        assert!(created.has(Code::BytecodeLength), "length {length}: {:#?}", created.diagnostics);
        assert!(out.is_none());
    }
    // Bytes past the container, with the length saying so.
    let mut longer = vs.clone();
    longer.extend_from_slice(&[0; 8]);
    let created = device.create_vertex_shader(&longer, longer.len(), None, None);
    assert_eq!(created.hr, E_INVALIDARG);
    assert!(created.has(Code::BytecodeLength), "{:#?}", created.diagnostics);
    // A modified byte: the checksum no longer matches (V103).
    let mut modified = vs.clone();
    let last = modified.len() - 1;
    modified[last] ^= 1;
    let created = device.create_vertex_shader(&modified, modified.len(), None, None);
    assert_eq!(created.hr, E_INVALIDARG);
    assert!(created.has(Code::Checksum), "{:#?}", created.diagnostics);
}

/// Stages that need a higher feature level are refused.
#[test]
fn feature_levels() {
    let fl10 = Device::new(DeviceDesc::new(FeatureLevel::L10_0, Runtime::D3D11_1));
    let hs = bytes_of(ProgramType::Hull);
    let created = fl10.create_hull_shader(&hs, hs.len(), None, None);
    assert_eq!(created.hr, E_INVALIDARG);
    assert!(created.has(Code::StageFeatureLevel), "{:#?}", created.diagnostics);
    // A vs_5_0 on a 10.0 device: the model needs 11_0.
    let vs = bytes_of(ProgramType::Vertex);
    let created = fl10.create_vertex_shader(&vs, vs.len(), None, None);
    assert_eq!(created.hr, E_INVALIDARG);
    assert!(created.has(Code::ModelFeatureLevel), "{:#?}", created.diagnostics);
    // A vs_4_0 is fine there.
    let vs40 = asm("vs_4_0\ndcl_input v0.xyzw\ndcl_output_siv o0.xyzw, position\nmov o0.xyzw, v0.xyzw\nret \n");
    let mut out = None;
    let created = fl10.create_vertex_shader(&vs40, vs40.len(), None, Some(&mut out));
    assert_eq!(created.hr, S_OK, "{:#?}", created.diagnostics);
    assert_eq!(out.unwrap().model(), (4, 0));
}

/// A gs_5_0 with a UAV declaration and a `store_raw`.
fn gs_with_uav() -> Vec<u8> {
    asm(&listing(ProgramType::Geometry, "dcl_uav_raw u0\n", "store_raw u0.x, l(0), l(1)\n"))
}

/// Seed 004: UAV instructions in a geometry shader are accepted on the 11.1 runtime on
/// a device with UAVs at every stage, and refused on the 11.0 runtime and on 11.1
/// without the capability.
#[test]
fn seed_004_gs_uavs_need_11_1_and_uavs_at_every_stage() {
    let gs = gs_with_uav();
    // 11.1 runtime, feature level 11_1: the typical caps have UAVs at every stage.
    let device = Device::new(DeviceDesc::new(FeatureLevel::L11_1, Runtime::D3D11_1));
    assert!(device.desc().caps.uavs_at_every_stage);
    let mut out = None;
    let created = device.create_geometry_shader(&gs, gs.len(), None, Some(&mut out));
    assert_eq!(created.hr, S_OK, "{:#?}", created.diagnostics);
    assert_eq!(out.as_ref().map(|s| s.stage()), Some(ProgramType::Geometry));
    assert_eq!(device.create_geometry_shader(&gs, gs.len(), None, None).hr, S_FALSE);
    // 11.1 runtime, feature level 11_0 with a driver that reports the capability.
    let device = Device::new(DeviceDesc::new(FeatureLevel::L11_0, Runtime::D3D11_1).uavs_at_every_stage(true));
    assert_eq!(device.create_geometry_shader(&gs, gs.len(), None, Some(&mut out)).hr, S_OK);

    // 11.0 runtime: refused.
    let device = Device::new(DeviceDesc::new(FeatureLevel::L11_0, Runtime::D3D11_0));
    let created = device.create_geometry_shader(&gs, gs.len(), None, Some(&mut out));
    assert_eq!(created.hr, E_INVALIDARG);
    assert!(created.has(Code::UavStageRuntime), "{:#?}", created.diagnostics);
    assert!(out.is_none());
    // 11.1 runtime without the capability: refused.
    let device = Device::new(DeviceDesc::new(FeatureLevel::L11_1, Runtime::D3D11_1).uavs_at_every_stage(false));
    let created = device.create_geometry_shader(&gs, gs.len(), None, Some(&mut out));
    assert_eq!(created.hr, E_INVALIDARG);
    assert!(created.has(Code::UavStageDevice), "{:#?}", created.diagnostics);
    assert!(out.is_none());
    let device = device_11_0();
    assert!(!device.desc().caps.uavs_at_every_stage);
    assert_eq!(device.create_geometry_shader(&gs, gs.len(), None, None).hr, E_INVALIDARG);

    // The same UAV use in a pixel shader is fine on the 11.0 runtime.
    let ps = asm(&listing(ProgramType::Pixel, "dcl_uav_raw u1\n", "store_raw u1.x, l(0), l(1)\n"));
    let device = Device::new(DeviceDesc::new(FeatureLevel::L11_0, Runtime::D3D11_0));
    let created = device.create_pixel_shader(&ps, ps.len(), None, None);
    assert_eq!(created.hr, S_FALSE, "{:#?}", created.diagnostics);
}

/// `CreateGeometryShaderWithStreamOutput`: a geometry shader, or a vertex or domain
/// shader, with a declaration; a pixel shader is refused.
#[test]
fn stream_output_accepted_and_refused() {
    let device = device_11_0();
    let gs = bytes_of(ProgramType::Geometry);
    let so = so_position();
    let mut out = None;
    let created = device.create_geometry_shader_with_stream_output(&gs, gs.len(), &so, None, Some(&mut out));
    assert_eq!(created.hr, S_OK, "{:#?}", created.diagnostics);
    let shader = out.take().unwrap();
    assert_eq!(shader.stage(), ProgramType::Geometry);
    assert_eq!(shader.stream_output(), Some(&so));
    let created = device.create_geometry_shader_with_stream_output(&gs, gs.len(), &so, None, None);
    assert_eq!(created.hr, S_FALSE);
    let created = device.create_geometry_shader_with_stream_output(&gs, gs.len(), &so_empty(), None, None);
    assert_eq!(created.hr, S_FALSE, "{:#?}", created.diagnostics);

    // A vertex shader: stream output without a geometry shader; the object is a
    // geometry shader.
    let vs = bytes_of(ProgramType::Vertex);
    let created = device.create_geometry_shader_with_stream_output(&vs, vs.len(), &so, None, Some(&mut out));
    assert_eq!(created.hr, S_OK, "{:#?}", created.diagnostics);
    let shader = out.take().unwrap();
    assert_eq!(shader.stage(), ProgramType::Geometry);
    assert_eq!(shader.program_stage(), ProgramType::Vertex);

    // A pixel shader: V601, out emptied.
    out = Some(shader);
    let ps = bytes_of(ProgramType::Pixel);
    let created = device.create_geometry_shader_with_stream_output(&ps, ps.len(), &so, None, Some(&mut out));
    assert_eq!(created.hr, E_INVALIDARG);
    assert!(created.has(Code::SoStage), "{:#?}", created.diagnostics);
    assert!(out.is_none());
    // The length rule holds here too.
    let created = device.create_geometry_shader_with_stream_output(&gs, gs.len() + 4, &so, None, None);
    assert_eq!(created.hr, E_INVALIDARG);
    assert!(created.has(Code::BytecodeLength));
}

/// Declarations the stream-output rules refuse: an unknown semantic (V606) and a
/// rasterized stream out of range (V610).
#[test]
fn stream_output_declaration_refused() {
    let device = device_11_0();
    let gs = bytes_of(ProgramType::Geometry);
    let mut so = so_position();
    so.entries[0].semantic_name = Some("NOT_AN_OUTPUT".into());
    let mut out = None;
    let created = device.create_geometry_shader_with_stream_output(&gs, gs.len(), &so, None, Some(&mut out));
    assert_eq!(created.hr, E_INVALIDARG, "unknown semantic");
    assert!(created.has(Code::SoSemanticNotFound), "{:#?}", created.diagnostics);
    assert!(out.is_none());
    let mut so = so_position();
    so.rasterized_stream = 7;
    let created = device.create_geometry_shader_with_stream_output(&gs, gs.len(), &so, None, Some(&mut out));
    assert_eq!(created.hr, E_INVALIDARG, "rasterized stream 7");
    assert!(created.has(Code::SoRasterizedStream), "{:#?}", created.diagnostics);
    assert!(out.is_none());
}

/// A shader keeps the linkage it was created with.
#[test]
fn shader_keeps_its_linkage() {
    let device = device_11_0();
    let linkage = device.create_class_linkage().unwrap();
    let vs = bytes_of(ProgramType::Vertex);
    let mut out = None;
    assert_eq!(device.create_vertex_shader(&vs, vs.len(), Some(&linkage), Some(&mut out)).hr, S_OK);
    let shader = out.unwrap();
    assert!(shader.class_linkage().unwrap().ptr_eq(&linkage));
    // A shader without IFCE registers nothing.
    assert!(linkage.class_types().is_empty());
    assert!(linkage.class_instances().is_empty());
}

/// `CreateGeometryShaderWithStreamOutput` given an output signature alone
/// (`D3DGetOutputSignatureBlob`): a stream-output object without a program.
#[test]
fn stream_output_from_an_output_signature_blob() {
    let device = device_11_0();
    let gs = bytes_of(ProgramType::Geometry);
    let container = dxbc::Container::parse(&gs).unwrap();
    let signature = container.chunk_any(&[dxbc::FourCc::OSGN, dxbc::FourCc::OSG5]).unwrap();
    let blob = dxbc::Builder::new().chunk(signature.fourcc, signature.data).build().unwrap();
    let mut out = None;
    let created =
        device.create_geometry_shader_with_stream_output(&blob, blob.len(), &so_position(), None, Some(&mut out));
    assert_eq!(created.hr, S_OK, "{:#?}", created.diagnostics);
    let shader = out.unwrap();
    assert!(!shader.has_program());
    assert_eq!(shader.stage(), ProgramType::Geometry);
    // Not a shader for any other call.
    let created = device.create_geometry_shader(&blob, blob.len(), None, None);
    assert_eq!(created.hr, E_INVALIDARG);
    assert!(created.has(Code::MissingProgram));
}
