//! `VSSetShader` / `GSSetShader` / `PSSetShader` / `CSSetShader` with class instances
//! (`ppClassInstances`, `NumClassInstances`): the instances are checked as the runtime
//! does (count, class linkage, class type the slot's interface takes), resolved
//! through the shader's `IFCE` chunk to the function table and `this` data the
//! interpreter binds, reach the draw or the dispatch (and `exec::pixel` through
//! `Shader::resolve_class_instances`), and come back from `*GetShader`. D3D11.3 functional spec 7.19 "Subroutines /
//! Interfaces"; Microsoft's ID3D11DeviceContext::VSSetShader and PSSetShader pages.

mod common;
use common::*;
use d3d11::context::{BindFlags, BufferDesc, BufferView};
use d3d11::*;
use exec::compute::Limits;
use exec::pixel::{self, Quad, QuadPixel};
use exec::{ClassInstance as ExecInstance, ClassInstances, Format, Machine, Plan, Resources};

/// The `IFCE` part of the listing header: class types cAdd (0) and cMul (1), with one
/// vector of data each, and cOther (2), which the interface slot does not take; class
/// instances gAdd (cb0[0]) and gMul (cb0[1], no texture or sampler); one interface slot
/// taking cAdd through ft0 and cMul through ft1.
const IFCE_HEADER: &str = "//
// Available Class Types:
//
// Name                             ID CB Stride Texture Sampler
// ------------------------------ ---- --------- ------- -------
// cAdd                              0         1       0       0
// cMul                              1         1       0       0
// cOther                            2         1       0       0
//
// Available Class Instances:
//
// Name                        Type CB CB Offset Texture Sampler
// --------------------------- ---- -- --------- ------- -------
// gAdd                           0  0         0       0       0
// gMul                           1  0         1       -       -
//
// Interface slots, 1 total:
//
//             Slots
// +----------+---------+---------------------------------------
// | Type ID  |   0     |0    1    
// | Table ID |         |0    1    
// +----------+---------+---------------------------------------
";

/// The interface declarations and bodies: `r0 = r2 (+ or ×) cb0[this[0].y]`.
const DECLS: &str = "dcl_function_body fb0
dcl_function_body fb1
dcl_function_table ft0 = {fb0}
dcl_function_table ft1 = {fb1}
dcl_interface fp0[1][1] = {ft0, ft1}
dcl_constantbuffer cb0[4], dynamicIndexed
";
const BODIES: &str = "label fb0
add r0.xyzw, r2.xyzw, cb0[r1.x + 0].xyzw
ret 
label fb1
mul r0.xyzw, r2.xyzw, cb0[r1.x + 0].xyzw
ret 
";

const POSITION_SIGNATURES: &str = "//
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
";

const GS_SIGNATURES: &str = "//
// Input signature:
//
// Name                 Index   Mask Register SysValue  Format   Used
// -------------------- ----- ------ -------- -------- ------- ------
// SV_Position              0   xyzw        0      POS   float   xyzw
//
//
// Output signature:
//
// Name                 Index   Mask Register SysValue  Format   Used
// -------------------- ----- ------ -------- -------- ------- ------
// SV_Position              0   xyzw        0      POS   float   xyzw
//
";

/// A vs_5_0 calling its one interface slot on POSITION.
fn interface_vs() -> Vec<u8> {
    asm(&format!(
        "{POSITION_SIGNATURES}{IFCE_HEADER}vs_5_0\n{DECLS}dcl_input v0.xyzw\ndcl_output_siv o0.xyzw, position\n\
         dcl_temps 3\nmov r1.x, this[0].y\nmov r2.xyzw, v0.xyzw\nfcall fp0[0][0]\nmov o0.xyzw, r0.xyzw\nret \n{BODIES}"
    ))
}

/// A gs_5_0 (points to points) calling its one interface slot on the position.
fn interface_gs() -> Vec<u8> {
    asm(&format!(
        "{GS_SIGNATURES}{IFCE_HEADER}gs_5_0\n{DECLS}dcl_input_siv v[1][0].xyzw, position\ndcl_temps 3\n\
         dcl_inputprimitive point \ndcl_outputtopology pointlist \ndcl_output_siv o0.xyzw, position\ndcl_maxout 1\n\
         mov r1.x, this[0].y\nmov r2.xyzw, v[0][0].xyzw\nfcall fp0[0][0]\nmov o0.xyzw, r0.xyzw\nemit \nret \n{BODIES}"
    ))
}

fn passthrough_vs() -> Vec<u8> {
    asm(&format!(
        "{POSITION_SIGNATURES}vs_4_0\ndcl_input v0.xyzw\ndcl_output_siv o0.xyzw, position\nmov o0.xyzw, v0.xyzw\nret \n"
    ))
}

fn so_position() -> StreamOutputDesc {
    let mut d: StreamOutputDesc = "SV_Position.xyzw".parse().unwrap();
    d.strides = vec![16];
    d
}

fn bytes_f32(v: &[f32]) -> Vec<u8> {
    v.iter().flat_map(|x| x.to_le_bytes()).collect()
}

fn floats(b: &[u8]) -> Vec<f32> {
    b.chunks_exact(4).map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]])).collect()
}

const POINT: [f32; 4] = [1.0, 2.0, 3.0, 4.0];
/// cb0: [0] for gAdd, [1] for gMul, [2] for a created cAdd.
const CB: [[f32; 4]; 4] = [[10.0, 20.0, 30.0, 40.0], [2.0, 3.0, 4.0, 5.0], [100.0, 100.0, 100.0, 100.0], [0.0; 4]];

fn created(device: &Device, stage: ProgramType, bytes: &[u8], linkage: Option<&ClassLinkage>) -> Shader {
    let mut out = None;
    let c = create(device, stage, bytes, bytes.len(), linkage, Some(&mut out));
    assert_eq!(c.hr, S_OK, "{:#?}", c.diagnostics);
    out.unwrap()
}

/// A context drawing one point from a vertex buffer, cb0 bound for the VS and the GS,
/// stream output of SV_Position to `so`.
fn context(device: &Device, vs: &Shader, so: &Buffer) -> Context {
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
    let vb = device.create_buffer(&BufferDesc::new(16, BindFlags::VERTEX_BUFFER), Some(&bytes_f32(&POINT))).unwrap();
    let cb =
        device.create_buffer(&BufferDesc::new(64, BindFlags::CONSTANT_BUFFER), Some(&bytes_f32(&CB.concat()))).unwrap();
    let mut c = device.immediate_context();
    c.ia_set_input_layout(Some(&layout));
    c.ia_set_vertex_buffers(0, &[Some(vb)], &[16], &[0]);
    c.ia_set_primitive_topology(Topology::PointList);
    c.vs_set_constant_buffers(0, &[Some(cb.clone())]);
    c.gs_set_constant_buffers(0, &[Some(cb)]);
    c.so_set_targets(&[Some(so.clone())], &[0]);
    c
}

/// Draws one point and returns what stream output wrote (rewinding the target).
fn draw(c: &mut Context, so: &Buffer) -> Result<Vec<f32>, exec::ExecError> {
    c.so_set_targets(&[Some(so.clone())], &[0]);
    c.draw(1, 0)?;
    Ok(floats(&so.bytes()[..so.filled_size() as usize]))
}

/// What the interpreter computes for the vertex shader with an explicit binding of
/// slot 0 to `table` with `this`.
fn exec_vertex(bytes: &[u8], table: u32, this: [u32; 4]) -> Vec<f32> {
    let plan = Plan::from_bytecode(bytes).unwrap();
    let cb: Vec<[u32; 4]> = CB.iter().map(|v| v.map(f32::to_bits)).collect();
    let mut instances = ClassInstances::new();
    instances.bind(0, ExecInstance { table, this });
    let mut res = Resources { class_instances: instances, ..Resources::default() };
    res.constant_buffers[0] = Some(&cb);
    let mut m = Machine::new(&plan);
    let out = m.run_vertex(&plan, &[POINT.map(f32::to_bits)], &mut res).unwrap();
    out[0].map(f32::from_bits).to_vec()
}

#[test]
fn vertex_shader_draws_with_the_bound_instance() {
    let device = device_11_0();
    let linkage = device.create_class_linkage().unwrap();
    let bytes = interface_vs();
    let vs = created(&device, ProgramType::Vertex, &bytes, Some(&linkage));
    // The VS's output streamed out directly (a stream-output object without a GS).
    let so_object = {
        let mut out = None;
        let pass = passthrough_vs();
        let c =
            device.create_geometry_shader_with_stream_output(&pass, pass.len(), &so_position(), None, Some(&mut out));
        assert_eq!(c.hr, S_OK, "{:#?}", c.diagnostics);
        out.unwrap()
    };
    let so = device.create_buffer(&BufferDesc::new(64, BindFlags::STREAM_OUTPUT), None).unwrap();
    let mut c = context(&device, &vs, &so);
    c.gs_set_shader(Some(&so_object), &[]).unwrap();

    let add = linkage.get_class_instance("gAdd", 0).unwrap();
    let mul = linkage.get_class_instance("gMul", 0).unwrap();
    let add2 = linkage.create_class_instance("cAdd", 0, 2, 0, 0).unwrap();

    c.vs_set_shader(Some(&vs), &[Some(add.clone())]).unwrap();
    let (got, instances) = c.vs_get_shader();
    assert!(got.unwrap().ptr_eq(&vs));
    assert_eq!(instances.len(), 1);
    assert!(instances[0].as_ref().unwrap().ptr_eq(&add));
    let with_add = draw(&mut c, &so).unwrap();
    assert_eq!(with_add, [11.0, 22.0, 33.0, 44.0]);
    assert_eq!(with_add, exec_vertex(&bytes, 0, [0, 0, 0, 0]));

    c.vs_set_shader(Some(&vs), &[Some(mul)]).unwrap();
    let with_mul = draw(&mut c, &so).unwrap();
    assert_eq!(with_mul, [2.0, 6.0, 12.0, 20.0]);
    // gMul has no texture or sampler (0xFFFF in IFCE): `this` has 0 there.
    assert_eq!(with_mul, exec_vertex(&bytes, 1, [0, 1, 0, 0]));

    // A created instance: its `this` data from CreateClassInstance's arguments.
    c.vs_set_shader(Some(&vs), &[Some(add2)]).unwrap();
    let with_created = draw(&mut c, &so).unwrap();
    assert_eq!(with_created, [101.0, 102.0, 103.0, 104.0]);
    assert_eq!(with_created, exec_vertex(&bytes, 0, [0, 2, 0, 0]));
}

#[test]
fn geometry_shader_draws_with_the_bound_instance() {
    let device = device_11_0();
    let linkage = device.create_class_linkage().unwrap();
    let vs = created(&device, ProgramType::Vertex, &passthrough_vs(), None);
    let gs_bytes = interface_gs();
    let gs = {
        let mut out = None;
        let c = device.create_geometry_shader_with_stream_output(
            &gs_bytes,
            gs_bytes.len(),
            &so_position(),
            Some(&linkage),
            Some(&mut out),
        );
        assert_eq!(c.hr, S_OK, "{:#?}", c.diagnostics);
        out.unwrap()
    };
    let so = device.create_buffer(&BufferDesc::new(64, BindFlags::STREAM_OUTPUT), None).unwrap();
    let mut c = context(&device, &vs, &so);
    c.vs_set_shader(Some(&vs), &[]).unwrap();
    let add = linkage.get_class_instance("gAdd", 0).unwrap();
    let mul = linkage.get_class_instance("gMul", 0).unwrap();
    c.gs_set_shader(Some(&gs), &[Some(add)]).unwrap();
    assert_eq!(draw(&mut c, &so).unwrap(), [11.0, 22.0, 33.0, 44.0]);
    c.gs_set_shader(Some(&gs), &[Some(mul.clone())]).unwrap();
    assert_eq!(draw(&mut c, &so).unwrap(), [2.0, 6.0, 12.0, 20.0]);
    let (got, instances) = c.gs_get_shader();
    assert!(got.unwrap().ptr_eq(&gs));
    assert!(instances[0].as_ref().unwrap().ptr_eq(&mul));

    // No instance for the slot: the shader is disabled, the draw refused.
    c.gs_set_shader(Some(&gs), &[]).unwrap();
    let e = draw(&mut c, &so).unwrap_err();
    assert!(e.to_string().contains("interface slot 0 has no class instance"), "{e}");
    c.gs_set_shader(Some(&gs), &[None]).unwrap();
    assert!(draw(&mut c, &so).is_err());
    assert_eq!(c.gs_get_shader().1.len(), 1);
}

#[test]
fn refused_class_instances_leave_the_binding_unchanged() {
    let device = device_11_0();
    let linkage = device.create_class_linkage().unwrap();
    let bytes = interface_vs();
    let vs = created(&device, ProgramType::Vertex, &bytes, Some(&linkage));
    let add = linkage.get_class_instance("gAdd", 0).unwrap();
    let other_type = linkage.create_class_instance("cOther", 0, 0, 0, 0).unwrap();
    // The same shader created with another linkage: its instances are foreign.
    let foreign_linkage = device.create_class_linkage().unwrap();
    let _foreign_vs = created(&device, ProgramType::Vertex, &bytes, Some(&foreign_linkage));
    let foreign = foreign_linkage.get_class_instance("gAdd", 0).unwrap();
    // The shader created without a linkage: every instance is foreign to it.
    let unlinked = created(&device, ProgramType::Vertex, &bytes, None);
    let plain = created(&device, ProgramType::Vertex, &passthrough_vs(), None);

    let mut c = device.immediate_context();
    c.vs_set_shader(Some(&vs), &[Some(add.clone())]).unwrap();
    let refused = |c: &mut Context, shader: &Shader, instances: &[Option<ClassInstance>], says: &str| {
        let e = c.vs_set_shader(Some(shader), instances).unwrap_err();
        assert_eq!(e.hr, E_INVALIDARG);
        assert!(e.message.contains(says), "{}", e.message);
        let (s, i) = c.vs_get_shader();
        assert!(s.unwrap().ptr_eq(&vs), "the binding is unchanged");
        assert!(i.len() == 1 && i[0].as_ref().unwrap().ptr_eq(&add));
    };
    // Counts: not the shader's slot count (1); more than 256.
    refused(&mut c, &vs, &[Some(add.clone()), Some(add.clone())], "NumClassInstances is 2");
    refused(&mut c, &vs, &vec![Some(add.clone()); 257], "at most 256");
    refused(&mut c, &plain, &[Some(add.clone())], "0 interface slots");
    // From another linkage, or for a shader created without one.
    refused(&mut c, &vs, &[Some(foreign)], "another class linkage");
    refused(&mut c, &unlinked, &[Some(add.clone())], "another class linkage");
    // A class type the slot's interface cannot take.
    refused(&mut c, &vs, &[Some(other_type)], "cOther");
    // A wrong shader kind is refused before the instances are looked at.
    let gs = created(&device, ProgramType::Geometry, &interface_gs(), Some(&linkage));
    assert_eq!(c.vs_set_shader(Some(&gs), &[Some(add.clone())]).unwrap_err().hr, E_INVALIDARG);

    // NULL array: accepted (the shader is disabled at draw time); a NULL shader binds
    // no instances; ClearState unbinds them.
    c.vs_set_shader(Some(&vs), &[]).unwrap();
    assert!(c.vs_get_shader().1.is_empty());
    c.vs_set_shader(None, &[Some(add.clone())]).unwrap();
    assert!(c.vs_get_shader().0.is_none() && c.vs_get_shader().1.is_empty());
    c.vs_set_shader(Some(&vs), &[Some(add)]).unwrap();
    c.clear_state();
    assert!(c.vs_get_shader().0.is_none() && c.vs_get_shader().1.is_empty());
}

/// The corpus's interface pixel shader (three slots: fp0 and fp1 take cUnchangedColour,
/// cHalfColour, cDoubleColour through ft0–ft2 and ft3–ft5, fp2 takes TwoThirdsAlpha and
/// OneAlpha through ft6–ft7, as its listing's slot table says), created with a linkage
/// that already knows other class types, so the linkage's type IDs are not the
/// shader's: the instances resolve by class name to the tables of the slot records.
#[test]
fn corpus_interface_shader_resolves_instances_by_its_slot_records() {
    const TEST: &str = "corpus_interface_shader_resolves_instances_by_its_slot_records";
    let Some(first) = corpus_blob(TEST, "hlslcc", "apps__shaders__SubroutinesPS") else { return };
    let Some(bytes) = corpus_blob(TEST, "hlslcc", "ps5__interfaces") else { return };
    let device = device_11_0();
    let linkage = device.create_class_linkage().unwrap();
    let _first = created(&device, ProgramType::Pixel, &first, Some(&linkage));
    let ps = created(&device, ProgramType::Pixel, &bytes, Some(&linkage));
    let make = |t: &str| Some(linkage.create_class_instance(t, 0, 3, 0, 0).unwrap());
    assert_eq!(make("cHalfColour").unwrap().desc().type_id, 6, "the linkage numbers types differently");
    let resolved = ps.resolve_class_instances(&[make("cHalfColour"), make("cDoubleColour"), make("OneAlpha")]).unwrap();
    let tables: Vec<(u32, u32, [u32; 4])> = resolved.slots.iter().map(|(&s, i)| (s, i.table, i.this)).collect();
    assert_eq!(tables, [(0, 1, [0, 3, 0, 0]), (1, 5, [0, 3, 0, 0]), (2, 7, [0, 3, 0, 0])]);
    let resolved = ps.resolve_class_instances(&[make("cUnchangedColour"), None, make("TwoThirdsAlpha")]).unwrap();
    let tables: Vec<(u32, u32)> = resolved.slots.iter().map(|(&s, i)| (s, i.table)).collect();
    assert_eq!(tables, [(0, 0), (2, 6)], "a NULL entry leaves its slot out");
    // Shade a quad with `exec::pixel` directly (no rasterizer needed) under two
    // resolved bindings; each gives what the explicit binding of the same tables and
    // `this` gives, and the two differ.
    let plan = Plan::from_bytecode(&bytes).unwrap();
    let shade = |bound: ClassInstances| {
        let inputs = [[0.25f32.to_bits(), 0.5f32.to_bits(), 1.0f32.to_bits(), 0]];
        let px = QuadPixel { covered: true, inputs: &inputs, z: 0.0, w: 1.0 };
        let quad = Quad { x: 0, y: 0, front_face: true, pixels: [px; 4] };
        let mut res = Resources { class_instances: bound, ..Resources::default() };
        pixel::shade(&plan, &[quad], &mut res, &Limits::default()).unwrap().quads[0][0].targets[0]
    };
    let explicit = |tables: [u32; 3]| {
        let mut c = ClassInstances::new();
        for (slot, table) in (0..).zip(tables) {
            c.bind(slot, ExecInstance { table, this: [0, 3, 0, 0] });
        }
        c
    };
    let a = ps.resolve_class_instances(&[make("cHalfColour"), make("cDoubleColour"), make("OneAlpha")]).unwrap();
    let b =
        ps.resolve_class_instances(&[make("cUnchangedColour"), make("cHalfColour"), make("TwoThirdsAlpha")]).unwrap();
    let (out_a, out_b) = (shade(a), shade(b));
    assert_eq!(out_a, shade(explicit([1, 5, 7])));
    assert_eq!(out_b, shade(explicit([0, 4, 6])));
    assert_ne!(out_a, out_b);
    // fp2 does not take colour changers, fp0 no alpha choosers.
    let e = ps.resolve_class_instances(&[make("cHalfColour"), make("cHalfColour"), make("cHalfColour")]).unwrap_err();
    assert_eq!(e.hr, E_INVALIDARG);
    assert!(e.message.contains("slot 2"), "{}", e.message);
    assert!(ps.resolve_class_instances(&[make("OneAlpha"), make("cHalfColour"), make("OneAlpha")]).is_err());
    // A type of the linkage the shader does not know (registered by the other shader).
    assert!(ps.resolve_class_instances(&[make("cRedColour"), make("cHalfColour"), make("OneAlpha")]).is_err());
    assert!(ps.resolve_class_instances(&[make("cHalfColour")]).is_err());
}

/// Interface arrays: the corpus shader's slot records span slots 0–1 (fp0[2]), 2 (fp2)
/// and 3–5 (fp3[3]); each slot of a span takes the record's class types.
#[test]
fn corpus_interface_arrays_resolve_through_spanned_slot_records() {
    let Some(bytes) = corpus_blob("corpus_interface_arrays_resolve", "hlslcc", "ps5__interface_arrays") else { return };
    let device = device_11_0();
    let linkage = device.create_class_linkage().unwrap();
    let ps = created(&device, ProgramType::Pixel, &bytes, Some(&linkage));
    let make = |t: &str, offset: u32| Some(linkage.create_class_instance(t, 1, offset, 2, 3).unwrap());
    let set = [
        make("cDoubleColour", 0),
        make("cUnchangedColour", 1),
        make("cHalfColour", 2),
        make("OneAlpha", 3),
        make("TwoThirdsAlpha", 4),
        make("OneAlpha", 5),
    ];
    let resolved = ps.resolve_class_instances(&set).unwrap();
    let got: Vec<(u32, u32, [u32; 4])> = resolved.slots.iter().map(|(&s, i)| (s, i.table, i.this)).collect();
    assert_eq!(
        got,
        [
            (0, 2, [1, 0, 2, 3]),
            (1, 0, [1, 1, 2, 3]),
            (2, 4, [1, 2, 2, 3]),
            (3, 7, [1, 3, 2, 3]),
            (4, 6, [1, 4, 2, 3]),
            (5, 7, [1, 5, 2, 3])
        ]
    );
    // Slot 1 is still fp0's (colour changers only); slot 3 already fp3's.
    let mut wrong = set.clone();
    wrong[1] = make("OneAlpha", 0);
    assert!(ps.resolve_class_instances(&wrong).unwrap_err().message.contains("slot 1"));
    let mut wrong = set.clone();
    wrong[3] = make("cHalfColour", 0);
    assert!(ps.resolve_class_instances(&wrong).unwrap_err().message.contains("slot 3"));
    assert!(ps.resolve_class_instances(&set[..5]).unwrap_err().message.contains("6 interface slots"));
}

/// A cs_5_0 calling its one interface slot on (1, 2, 3, 4) and storing the result at
/// u0[0].
fn interface_cs() -> Vec<u8> {
    asm(&format!(
        "{IFCE_HEADER}cs_5_0\n{DECLS}dcl_uav_raw u0\ndcl_temps 3\ndcl_thread_group 1, 1, 1\nmov r1.x, this[0].y\n\
         mov r2.xyzw, l(1.000000, 2.000000, 3.000000, 4.000000)\nfcall fp0[0][0]\nstore_raw u0.xyzw, l(0), r0.xyzw\nret \n{BODIES}"
    ))
}

#[test]
fn compute_shader_dispatches_with_the_bound_instance() {
    let device = device_11_0();
    let linkage = device.create_class_linkage().unwrap();
    let cs = created(&device, ProgramType::Compute, &interface_cs(), Some(&linkage));
    let desc = BufferDesc {
        byte_width: 16,
        bind_flags: BindFlags::UNORDERED_ACCESS,
        misc_flags: d3d11::context::RESOURCE_MISC_BUFFER_ALLOW_RAW_VIEWS,
        structure_byte_stride: 0,
    };
    let out = device.create_buffer(&desc, None).unwrap();
    let uav = device.create_unordered_access_view(&out, BufferView::Raw { first_element: 0, num_elements: 4 }).unwrap();
    let cb =
        device.create_buffer(&BufferDesc::new(64, BindFlags::CONSTANT_BUFFER), Some(&bytes_f32(&CB.concat()))).unwrap();
    let mut c = device.immediate_context();
    c.cs_set_constant_buffers(0, &[Some(cb)]);
    c.cs_set_unordered_access_views(0, &[Some(uav)], &[]).unwrap();
    let add = linkage.get_class_instance("gAdd", 0).unwrap();
    let mul = linkage.get_class_instance("gMul", 0).unwrap();
    c.cs_set_shader(Some(&cs), &[Some(add)]).unwrap();
    c.dispatch(1, 1, 1).unwrap();
    assert_eq!(floats(&out.bytes()), [11.0, 22.0, 33.0, 44.0]);
    c.cs_set_shader(Some(&cs), &[Some(mul.clone())]).unwrap();
    c.dispatch(1, 1, 1).unwrap();
    assert_eq!(floats(&out.bytes()), [2.0, 6.0, 12.0, 20.0]);
    assert!(c.cs_get_shader().1[0].as_ref().unwrap().ptr_eq(&mul));
    // No instance: the shader is disabled, the dispatch refused.
    c.cs_set_shader(Some(&cs), &[]).unwrap();
    let e = c.dispatch(1, 1, 1).unwrap_err();
    assert!(e.to_string().contains("interface slot 0 has no class instance"), "{e}");
    // An instance of a class type the slot does not take.
    let other = linkage.create_class_instance("cOther", 0, 0, 0, 0).unwrap();
    assert_eq!(c.cs_set_shader(Some(&cs), &[Some(other)]).unwrap_err().hr, E_INVALIDARG);
}

const PS_SIGNATURES: &str = "//
// Input signature:
//
// Name                 Index   Mask Register SysValue  Format   Used
// -------------------- ----- ------ -------- -------- ------- ------
// SV_Position              0   xyzw        0      POS   float       
//
//
// Output signature:
//
// Name                 Index   Mask Register SysValue  Format   Used
// -------------------- ----- ------ -------- -------- ------- ------
// SV_Target                0   xyzw        0   TARGET   float   xyzw
//
";

#[test]
fn pixel_shader_draws_with_the_bound_instance() {
    let device = device_11_0();
    let linkage = device.create_class_linkage().unwrap();
    let ps_bytes = asm(&format!(
        "{PS_SIGNATURES}{IFCE_HEADER}ps_5_0\n{DECLS}dcl_output o0.xyzw\ndcl_temps 3\nmov r1.x, this[0].y\n\
         mov r2.xyzw, l(1.000000, 2.000000, 3.000000, 4.000000)\nfcall fp0[0][0]\nmov o0.xyzw, r0.xyzw\nret \n{BODIES}"
    ));
    let ps = created(&device, ProgramType::Pixel, &ps_bytes, Some(&linkage));
    let vs = created(&device, ProgramType::Vertex, &passthrough_vs(), None);
    // One triangle over the whole 2 x 2 target.
    let so = device.create_buffer(&BufferDesc::new(64, BindFlags::STREAM_OUTPUT), None).unwrap();
    let mut c = context(&device, &vs, &so);
    let vertices = bytes_f32(&[-1.0, 1.0, 0.0, 1.0, 3.0, 1.0, 0.0, 1.0, -1.0, -3.0, 0.0, 1.0]);
    let vb = device.create_buffer(&BufferDesc::new(48, BindFlags::VERTEX_BUFFER), Some(&vertices)).unwrap();
    c.ia_set_vertex_buffers(0, &[Some(vb)], &[16], &[0]);
    c.ia_set_primitive_topology(Topology::TriangleList);
    c.vs_set_shader(Some(&vs), &[]).unwrap();
    let cb =
        device.create_buffer(&BufferDesc::new(64, BindFlags::CONSTANT_BUFFER), Some(&bytes_f32(&CB.concat()))).unwrap();
    c.ps_set_constant_buffers(0, &[Some(cb)]);
    let texture = device
        .create_texture2d(
            &d3d11::context::Texture2DDesc::new(2, 2, Format::R32G32B32A32_FLOAT, BindFlags::RENDER_TARGET),
            None,
        )
        .unwrap();
    let rtv = device.create_render_target_view(&texture, None).unwrap();
    c.om_set_render_targets(&[Some(rtv)]);
    c.rs_set_viewports(&[d3d11::context::Viewport {
        top_left_x: 0.0,
        top_left_y: 0.0,
        width: 2.0,
        height: 2.0,
        min_depth: 0.0,
        max_depth: 1.0,
    }]);
    let add = linkage.get_class_instance("gAdd", 0).unwrap();
    c.ps_set_shader(Some(&ps), &[Some(add)]).unwrap();
    c.draw(3, 0).unwrap();
    assert_eq!(floats(&texture.memory().bytes()), [11.0, 22.0, 33.0, 44.0].repeat(4));
    let mul = linkage.get_class_instance("gMul", 0).unwrap();
    c.ps_set_shader(Some(&ps), &[Some(mul)]).unwrap();
    c.draw(3, 0).unwrap();
    assert_eq!(floats(&texture.memory().bytes()), [2.0, 6.0, 12.0, 20.0].repeat(4));
    c.ps_set_shader(Some(&ps), &[None]).unwrap();
    let e = c.draw(3, 0).unwrap_err();
    assert!(e.to_string().contains("pixel shader is disabled"), "{e}");
}
