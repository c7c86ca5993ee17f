//! Shader Model 5 interfaces (functional spec 7.19, 22.3.49–22.3.51, 22.7.19, 22.7.20):
//! `fcall` runs the body of the function table the bound class instance chooses
//! (`Resources::class_instances`; an unbound slot takes the first table listed), with
//! static and register array indices, nested calls and the call-depth limit; `this[]`
//! holds the bound instance's data (immediate and relative reads) and leads to
//! constant-buffer and uniformly indexed texture reads (spec 7.11); bindings that do
//! not fit the declarations are typed errors.

mod common_interp;
use common_interp::*;
use exec::compute::Limits;
use exec::pixel::{self, Quad, QuadPixel};
use exec::resources::{AddressMode, Dimension, Sampler, Srv, TextureView, Uav};
use exec::{ClassInstance, ClassInstances, ExecErrorKind, Format, Machine, Plan, Resources};
use tpf::interfaces::InterfaceError;

/// A 1×1 `R32_FLOAT` 2D texture over `data`.
fn view(data: &[u8]) -> TextureView<'_> {
    TextureView {
        dimension: Dimension::Texture2D,
        format: Format::R32_FLOAT,
        width: 1,
        height: 1,
        depth: 1,
        array_size: 1,
        mip_levels: 1,
        data,
    }
}

/// A vertex shader with the declarations `decls` (after the interface ones) and `body`;
/// output o0, input v0, 4 temps.
fn vs_with(decls: &str, body: &str) -> String {
    format!("vs_5_0\n{decls}dcl_input v0.xyzw\ndcl_output o0.xyzw\ndcl_temps 4\n{body}")
}

fn instances(bound: &[(u32, u32, [u32; 4])]) -> ClassInstances {
    let mut c = ClassInstances::new();
    for &(slot, table, this) in bound {
        c.bind(slot, ClassInstance { table, this });
    }
    c
}

fn run(p: &Plan, v0: [u32; 4], res: &mut Resources<'_>) -> Result<[u32; 4], exec::ExecError> {
    let mut m = Machine::new(p);
    m.run_vertex(p, &[v0], res).map(|o| o[0])
}

/// Two implementations of one interface: the binding chooses the body.
const TWO_TABLES: &str = "dcl_function_body fb0
dcl_function_body fb1
dcl_function_body fb2
dcl_function_table ft0 = {fb0}
dcl_function_table ft1 = {fb1}
dcl_function_table ft2 = {fb2}
dcl_interface fp0[1][1] = {ft0, ft1}
";

#[test]
fn the_bound_table_chooses_the_body() {
    let p = plan(&vs_with(
        TWO_TABLES,
        "mov r0.x, l(1)
fcall fp0[0][0]
mov o0.xyzw, r0.xyzw
ret
label fb0
iadd r0.x, r0.x, l(10)
ret
label fb1
imul null, r0.x, r0.x, l(20)
ret
label fb2
mov r0.x, l(99)
ret
",
    ));
    // Unbound: the first table listed (ft0).
    assert_eq!(run(&p, [0; 4], &mut Resources::default()).unwrap(), [11, 0, 0, 0]);
    let mut res = Resources { class_instances: instances(&[(0, 1, [0; 4])]), ..Resources::default() };
    assert_eq!(run(&p, [0; 4], &mut res).unwrap(), [20, 0, 0, 0]);
    let mut res = Resources { class_instances: instances(&[(0, 0, [0; 4])]), ..Resources::default() };
    assert_eq!(run(&p, [0; 4], &mut res).unwrap(), [11, 0, 0, 0]);
    // ft2 is declared but not listed by fp0: the runtime refuses such an instance.
    let mut res = Resources { class_instances: instances(&[(0, 2, [0; 4])]), ..Resources::default() };
    let e = run(&p, [0; 4], &mut res).unwrap_err();
    assert_eq!(
        e.kind,
        ExecErrorKind::ClassInstance(InterfaceError::TableNotListed { slot: 0, table: 2, interface: 0 })
    );
    assert_eq!(e.instruction, Some(11), "{e}");
    // A table that is not declared at all.
    let mut res = Resources { class_instances: instances(&[(0, 7, [0; 4])]), ..Resources::default() };
    assert!(matches!(run(&p, [0; 4], &mut res).unwrap_err().kind, ExecErrorKind::ClassInstance(_)));
}

#[test]
fn call_sites_and_register_indices() {
    // fp0 is slot 0 (two call sites); fp1[3] slots 1–3, indexed by a register.
    let decls = "dcl_function_body fb0
dcl_function_body fb1
dcl_function_body fb2
dcl_function_body fb3
dcl_function_body fb4
dcl_function_body fb5
dcl_function_table ft0 = {fb0, fb1}
dcl_function_table ft1 = {fb1, fb0}
dcl_function_table ft2 = {fb2}
dcl_function_table ft3 = {fb3}
dcl_function_table ft4 = {fb4}
dcl_function_table ft5 = {fb5}
dcl_interface fp0[1][2] = {ft0, ft1}
dcl_interface_dynamicindexed fp1[3][1] = {ft2, ft3, ft4}
";
    let body = "fcall fp0[0][1]
mov r1.x, v0.x
fcall fp1[r1.x + 0][0]
fcall fp1[2][0]
mov o0.xyzw, r0.xyzw
ret
label fb0
mov r0.x, l(100)
ret
label fb1
mov r0.x, l(200)
ret
label fb2
iadd r0.y, r0.y, l(2)
ret
label fb3
iadd r0.y, r0.y, l(30)
ret
label fb4
iadd r0.z, r0.z, l(400)
ret
label fb5
mov r0.w, l(5)
ret
";
    let p = plan(&vs_with(decls, body));
    // Slot 1 ft3, slot 2 ft4, slot 3 unbound (ft2); fp0 bound to ft1, whose second
    // call site is fb0.
    let bound = instances(&[(0, 1, [0; 4]), (1, 3, [0; 4]), (2, 4, [0; 4])]);
    let mut res = Resources { class_instances: bound.clone(), ..Resources::default() };
    // `fcall fp1[2][0]` is slot 3 (unbound: ft2, +2); the register index k is slot 1 + k.
    assert_eq!(run(&p, [0, 0, 0, 0], &mut res).unwrap(), [100, 32, 0, 0]);
    assert_eq!(run(&p, [1, 0, 0, 0], &mut res).unwrap(), [100, 2, 400, 0]);
    assert_eq!(run(&p, [2, 0, 0, 0], &mut res).unwrap(), [100, 4, 0, 0]);
    // An index past the interface's slots calls nothing (the spec leaves it undefined).
    assert_eq!(run(&p, [3, 0, 0, 0], &mut res).unwrap(), [100, 2, 0, 0]);
    assert_eq!(run(&p, [u32::MAX, 0, 0, 0], &mut res).unwrap(), [100, 2, 0, 0]);
    // Unbound fp0: ft0, whose second call site is fb1.
    let mut res = Resources::default();
    assert_eq!(run(&p, [0, 0, 0, 0], &mut res).unwrap(), [200, 4, 0, 0]);
    // ft5 is not listed by fp1.
    let mut res = Resources { class_instances: instances(&[(2, 5, [0; 4])]), ..Resources::default() };
    let e = run(&p, [1, 0, 0, 0], &mut res).unwrap_err();
    assert_eq!(
        e.kind,
        ExecErrorKind::ClassInstance(InterfaceError::TableNotListed { slot: 2, table: 5, interface: 1 })
    );
}

#[test]
fn this_data_reaches_constant_buffers_and_textures() {
    let decls = "dcl_constantbuffer cb0[8], dynamicIndexed
dcl_resource_texture2d (float,float,float,float) t1
dcl_resource_texture2d (float,float,float,float) t2
dcl_function_body fb0
dcl_function_table ft0 = {fb0}
dcl_interface_dynamicindexed fp0[2][1] = {ft0}
";
    // The body reads its instance's data at this[k].y in cb0 and its texture at
    // t[this[k].z]; this[1].w is read by an immediate index, this[v0.y] relatively
    // outside the body.
    let body = "mov r3.x, v0.x
fcall fp0[r3.x + 0][0]
mov r1.x, v0.y
mov r0.w, this[r1.x + 0].w
mov o0.xyzw, r0.xyzw
ret
label fb0
mov r1.xyzw, this[r3.x + 0].xyzw
mov r0.x, cb0[r1.y + 1].x
ld_indexable(texture2d)(float,float,float,float) r2.xyzw, l(0, 0, 0, 0), t[r1.z + 0].xyzw
mov r0.y, r2.x
mov r0.z, this[1].w
ret
";
    let p = plan(&vs_with(decls, body));
    let cb: Vec<[u32; 4]> = (0..8).map(|e| [e * 100, 0, 0, 0]).collect();
    let texel = |v: f32| v.to_le_bytes().to_vec();
    let (t0, t1) = (texel(5.0), texel(6.0));
    let mut res = Resources {
        srvs: vec![None, Some(Srv::Texture(view(&t0))), Some(Srv::Texture(view(&t1)))],
        class_instances: instances(&[(0, 0, [0, 2, 2, 0]), (1, 0, [0, 4, 1, 7])]),
        ..Resources::default()
    };
    res.constant_buffers[0] = Some(&cb);
    let six = 6.0f32.to_bits();
    let five = 5.0f32.to_bits();
    assert_eq!(run(&p, [0, 0, 0, 0], &mut res).unwrap(), [300, six, 7, 0]);
    assert_eq!(run(&p, [1, 0, 0, 0], &mut res).unwrap(), [500, five, 7, 0]);
    assert_eq!(run(&p, [1, 1, 0, 0], &mut res).unwrap(), [500, five, 7, 7]);
    // A relative this[] past the declared slots reads 0 (the spec: undefined).
    assert_eq!(run(&p, [1, 2, 0, 0], &mut res).unwrap(), [500, five, 7, 0]);
    // Unbound: this = zeros, so cb0[1] and t0 (unbound: 0).
    let mut res = Resources { srvs: vec![None, Some(Srv::Texture(view(&t0)))], ..Resources::default() };
    res.constant_buffers[0] = Some(&cb);
    assert_eq!(run(&p, [0, 0, 0, 0], &mut res).unwrap(), [100, 0, 0, 0]);
    // t0 and t3 are bound but not declared: the class instances name them (this.z), as
    // fxc leaves a class's textures undeclared, so the index reaches them (exec and
    // translate read the slots the instances name; spec 7.11 leaves the rest undefined).
    let mut res = Resources {
        srvs: vec![Some(Srv::Texture(view(&t1))), None, None, Some(Srv::Texture(view(&t1)))],
        class_instances: instances(&[(0, 0, [0, 2, 0, 0]), (1, 0, [0, 2, 3, 0])]),
        ..Resources::default()
    };
    res.constant_buffers[0] = Some(&cb);
    assert_eq!(run(&p, [0, 0, 0, 0], &mut res).unwrap(), [300, six, 0, 0]);
    assert_eq!(run(&p, [1, 0, 0, 0], &mut res).unwrap(), [300, six, 0, 0]);
}

#[test]
fn an_undeclared_texture_no_instance_names_reads_as_unbound() {
    // t[r0.x + 1] with one interface slot whose instance names t5 (this.z = 4, + 1):
    // t5 and the declared t2 are read, the bound but undeclared t3 is not.
    let decls = "dcl_function_body fb0
dcl_function_table ft0 = {fb0}
dcl_interface fp0[1][1] = {ft0}
dcl_resource_texture2d (float,float,float,float) t2
";
    let body = "mov r0.x, v0.x
ld_indexable(texture2d)(float,float,float,float) r0.xyzw, l(0, 0, 0, 0), t[r0.x + 1].xyzw
mov o0.xyzw, r0.xyzw
ret
label fb0
ret
";
    let p = plan(&vs_with(decls, body));
    let texel = |v: f32| v.to_le_bytes().to_vec();
    let (a, b, c) = (texel(2.0), texel(3.0), texel(5.0));
    let mut res = Resources {
        srvs: vec![
            None,
            None,
            Some(Srv::Texture(view(&a))),
            Some(Srv::Texture(view(&b))),
            None,
            Some(Srv::Texture(view(&c))),
        ],
        class_instances: instances(&[(0, 0, [0, 0, 4, 0])]),
        ..Resources::default()
    };
    let x = |v: f32| v.to_bits();
    assert_eq!(run(&p, [1, 0, 0, 0], &mut res).unwrap()[0], x(2.0), "declared t2");
    assert_eq!(run(&p, [2, 0, 0, 0], &mut res).unwrap()[0], 0, "t3: bound, undeclared, not named");
    assert_eq!(run(&p, [4, 0, 0, 0], &mut res).unwrap()[0], x(5.0), "t5: named by this[0].z + 1");
}

#[test]
fn uniformly_indexed_samplers_and_uavs_reach_declared_slots_only() {
    // s[r1.x] and u[r1.y]: a declared slot reads what is bound, an undeclared one reads
    // as unbound even when something is bound there (spec 7.11 leaves it undefined).
    let decls = "dcl_sampler s1, mode_default
dcl_resource_texture2d (float,float,float,float) t0
dcl_uav_typed_texture2d (uint,uint,uint,uint) u1
";
    let body = "mov r1.xy, v0.xyxx
sample_l_indexable(texture2d)(float,float,float,float) r2.xyzw, l(5.0, 0.5, 0, 0), t0.xyzw, s[r1.x + 0], l(0)
mov r0.x, r2.x
ld_uav_typed_indexable(texture2d)(uint,uint,uint,uint) r2.xyzw, l(0, 0, 0, 0), u[r1.y + 0].xyzw
mov r0.y, r2.x
mov o0.xyzw, r0.xyzw
ret
";
    let p = plan(&vs_with(decls, body));
    let texels: Vec<u8> = [1.0f32, 3.0].iter().flat_map(|v| v.to_le_bytes()).collect();
    let tex = TextureView {
        dimension: Dimension::Texture2D,
        format: Format::R32_FLOAT,
        width: 2,
        height: 1,
        depth: 1,
        array_size: 1,
        mip_levels: 1,
        data: &texels,
    };
    let uav_view = TextureView { format: Format::R32_UINT, width: 1, ..tex };
    let border = Sampler { address: [AddressMode::Border; 3], border_color: [7.0; 4], ..Sampler::default() };
    let (mut u0, mut u1) = (9u32.to_le_bytes().to_vec(), 8u32.to_le_bytes().to_vec());
    let mut res = Resources {
        srvs: vec![Some(Srv::Texture(tex))],
        uavs: vec![
            Some(Uav::Texture { view: uav_view, data: &mut u0 }),
            Some(Uav::Texture { view: uav_view, data: &mut u1 }),
        ],
        ..Resources::default()
    };
    res.samplers[0] = Some(border);
    res.samplers[1] = Some(border);
    // s1, u1: declared and bound (the border colour; 8).
    assert_eq!(run(&p, [1, 1, 0, 0], &mut res).unwrap(), [7.0f32.to_bits(), 8, 0, 0]);
    // s0, u0: bound but not declared: the default sampler (clamp: texel 1) and 0.
    assert_eq!(run(&p, [0, 0, 0, 0], &mut res).unwrap(), [3.0f32.to_bits(), 0, 0, 0]);
}

#[test]
fn nested_fcalls_and_the_call_depth_limit() {
    let decls = "dcl_function_body fb0
dcl_function_body fb1
dcl_function_body fb2
dcl_function_table ft0 = {fb0}
dcl_function_table ft1 = {fb1}
dcl_function_table ft2 = {fb2}
dcl_interface fp0[1][1] = {ft0, ft2}
dcl_interface fp1[1][1] = {ft1}
";
    let body = "fcall fp0[0][0]
mov o0.xyzw, r0.xyzw
ret
label fb0
iadd r0.x, r0.x, l(1)
fcall fp1[0][0]
iadd r0.x, r0.x, l(1000)
ret
label fb1
iadd r0.y, r0.y, l(7)
retc_nz v0.x
iadd r0.y, r0.y, l(7)
ret
label fb2
iadd r0.z, r0.z, l(1)
fcall fp0[0][0]
ret
";
    let p = plan(&vs_with(decls, body));
    assert_eq!(run(&p, [0; 4], &mut Resources::default()).unwrap(), [1001, 14, 0, 0]);
    assert_eq!(run(&p, [1, 0, 0, 0], &mut Resources::default()).unwrap(), [1001, 7, 0, 0]);
    // fb2 calls itself through fp0: calls stop with 32 return addresses (spec 7.12),
    // as `call` does.
    let mut res = Resources { class_instances: instances(&[(0, 2, [0; 4])]), ..Resources::default() };
    assert_eq!(run(&p, [0; 4], &mut res).unwrap(), [0, 0, 32, 0]);
    // The step limit bounds it too.
    let mut m = Machine::new(&p);
    m.set_step_limit(20);
    let e = m.run_vertex(&p, &[[0; 4]], &mut res).unwrap_err();
    assert!(matches!(e.kind, ExecErrorKind::StepLimit(_)), "{e}");
}

#[test]
fn declarations_that_do_not_fit_are_refused() {
    let ret = "ret\nlabel fb0\nret\nlabel fb1\nret\nlabel fb2\nret\n";
    // A call site the interface does not declare.
    let e = try_plan(&vs_with(TWO_TABLES, &format!("fcall fp0[0][1]\n{ret}"))).unwrap_err();
    assert!(matches!(&e.kind, ExecErrorKind::Malformed(m) if m.contains("call site 1")), "{e}");
    // A static index past the declaration's array (spec 22.7.19), whether or not
    // another declaration covers the slot it would name.
    let e = try_plan(&vs_with(TWO_TABLES, &format!("fcall fp0[1][0]\n{ret}"))).unwrap_err();
    assert!(matches!(&e.kind, ExecErrorKind::Malformed(m) if m.contains("fp0 is an array of 1")), "{e}");
    let two = format!("{TWO_TABLES}dcl_interface fp1[1][1] = {{ft2}}\n");
    assert!(try_plan(&vs_with(&two, &format!("fcall fp1[0][0]\n{ret}"))).is_ok());
    let e = try_plan(&vs_with(&two, &format!("fcall fp0[1][0]\n{ret}"))).unwrap_err();
    assert!(matches!(&e.kind, ExecErrorKind::Malformed(m) if m.contains("fp0 is an array of 1")), "{e}");
    // A register index into an interface not declared dynamically indexed.
    let e = try_plan(&vs_with(TWO_TABLES, &format!("fcall fp0[r0.x + 0][0]\n{ret}"))).unwrap_err();
    assert!(matches!(&e.kind, ExecErrorKind::Malformed(m) if m.contains("dynamicindexed")), "{e}");
    // A table whose body has no label.
    let e = try_plan(&vs_with(TWO_TABLES, "fcall fp0[0][0]\nret\nlabel fb0\nret\nlabel fb1\nret\n")).unwrap_err();
    assert!(matches!(&e.kind, ExecErrorKind::Malformed(m) if m.contains("fb2")), "{e}");
    // A table with fewer bodies than the call site: refused when the call runs.
    let decls = "dcl_function_body fb0
dcl_function_table ft0 = {fb0}
dcl_interface fp0[1][2] = {ft0}
";
    let p = plan(&vs_with(decls, "fcall fp0[0][1]\nret\nlabel fb0\nret\n"));
    let e = run(&p, [0; 4], &mut Resources::default()).unwrap_err();
    assert_eq!(
        e.kind,
        ExecErrorKind::ClassInstance(InterfaceError::CallSiteOutOfRange { table: 0, site: 1, bodies: 1 })
    );
}

#[test]
fn pixel_shaders_read_the_binding() {
    let text = "ps_5_0
dcl_function_body fb0
dcl_function_body fb1
dcl_function_table ft0 = {fb0}
dcl_function_table ft1 = {fb1}
dcl_interface fp0[1][1] = {ft0, ft1}
dcl_input_ps linear v0.x
dcl_output o0.xyzw
dcl_temps 1
fcall fp0[0][0]
mov o0.xyz, r0.xxxx
mov o0.w, this[0].y
ret
label fb0
mov r0.x, v0.x
ret
label fb1
add r0.x, v0.x, v0.x
ret
";
    let p = plan(text);
    let inputs = [[3.0f32.to_bits(), 0, 0, 0]];
    let px = QuadPixel { covered: true, inputs: &inputs, z: 0.0, w: 1.0 };
    let quad = Quad { x: 0, y: 0, front_face: true, pixels: [px; 4] };
    let shade = |res: &mut Resources<'_>| pixel::shade(&p, &[quad], res, &Limits::default()).unwrap().quads[0][3];
    let out = shade(&mut Resources::default());
    assert_eq!(out.targets[0], [3.0f32.to_bits(), 3.0f32.to_bits(), 3.0f32.to_bits(), 0]);
    let mut res = Resources { class_instances: instances(&[(0, 1, [0, 42, 0, 0])]), ..Resources::default() };
    let out = shade(&mut res);
    assert_eq!(out.targets[0], [6.0f32.to_bits(), 6.0f32.to_bits(), 6.0f32.to_bits(), 42]);
}

#[test]
fn constant_buffer_slots_indexed_by_this() {
    // this[k].x names the constant buffer and .y the element, as fxc reads a class's
    // members (spec 22.7.20: `cb[r0.x][r0.y + member_offset]`).
    let decls = "dcl_constantbuffer cb0[4], dynamicIndexed
dcl_constantbuffer cb3[4], dynamicIndexed
dcl_function_body fb0
dcl_function_table ft0 = {fb0}
dcl_interface_dynamicindexed fp0[2][1] = {ft0}
";
    let body = "mov r3.x, v0.x
fcall fp0[r3.x + 0][0]
mov o0.xyzw, r0.xyzw
ret
label fb0
mov r1.xy, this[r3.x + 0].xyxx
mov r0.xyzw, cb[r1.x + 0][r1.y + 1].xyzw
mov r0.w, cb[r1.x + 1][2].x
ret
";
    let p = plan(&vs_with(decls, body));
    let cb0: Vec<[u32; 4]> = (0..4).map(|e| [e, e, e, e]).collect();
    let cb3: Vec<[u32; 4]> = (0..4).map(|e| [30 + e, 30 + e, 30 + e, 30 + e]).collect();
    let cb4: Vec<[u32; 4]> = (0..4).map(|e| [40 + e; 4]).collect();
    let mut res =
        Resources { class_instances: instances(&[(0, 0, [0, 1, 0, 0]), (1, 0, [3, 0, 0, 0])]), ..Resources::default() };
    res.constant_buffers[0] = Some(&cb0);
    res.constant_buffers[3] = Some(&cb3);
    res.constant_buffers[4] = Some(&cb4);
    // Slot 0: cb0[2], then cb1 (unbound: 0).
    assert_eq!(run(&p, [0, 0, 0, 0], &mut res).unwrap(), [2, 2, 2, 0]);
    // Slot 1: cb3[1], then cb4[2]: cb4 is bound but not declared, so it reads as
    // unbound (spec 7.11 leaves it undefined; exec and translate read 0).
    assert_eq!(run(&p, [1, 0, 0, 0], &mut res).unwrap(), [31, 31, 31, 0]);
    // this = (2, 0): cb2 (neither declared nor bound: 0), then the declared cb3[2].
    let mut res2 = Resources { class_instances: instances(&[(0, 0, [2, 0, 0, 0])]), ..Resources::default() };
    res2.constant_buffers[3] = Some(&cb3);
    res2.constant_buffers[4] = Some(&cb4);
    assert_eq!(run(&p, [0, 0, 0, 0], &mut res2).unwrap(), [0, 0, 0, 32]);
    // A slot past the 14 reads as unbound (spec 7.11.2).
    let mut res = Resources { class_instances: instances(&[(0, 0, [20, 1, 0, 0])]), ..Resources::default() };
    res.constant_buffers[0] = Some(&cb0);
    assert_eq!(run(&p, [0, 0, 0, 0], &mut res).unwrap(), [0, 0, 0, 0]);
}
