//! Subroutines (`call`, `callc`, `label`) and interfaces (`dcl_function_body`,
//! `dcl_function_table`, `dcl_interface`, `fcall`): each `label` starts a WGSL
//! function, the registers become module-scope so that every function shares them,
//! and `fcall fp#[index][site]` calls body `site` of the function table bound to slot
//! `fp# + index` (`Options::class_instances`, by default the first table the
//! declaration lists), switching over the slots for a register index; `this[]` reads
//! are the bound instances' data (zeros unbound); uniformly indexed `t[r# + k]` and
//! `cb[r# + k][e]` (with or without interfaces) read the declared slots, 0 for any
//! other. The SPIR-V passes `spirv-val`.

mod common;

use translate::{ClassInstance, ClassInstances, Options, Target, TranslateError};

/// Slot → table bindings, `this` = 0.
fn bound(tables: &[(u32, u32)]) -> ClassInstances {
    let mut c = ClassInstances::new();
    for &(slot, table) in tables {
        c.bind(slot, ClassInstance { table, this: [0; 4] });
    }
    c
}

fn translated(text: &str, options: &Options) -> Result<String, TranslateError> {
    let p = tpf::parse::parse_program(text).unwrap_or_else(|d| panic!("{d:?}\n{text}")).program;
    let m = translate::module_from_program(&p, &[], &[], options)?;
    if let Some(val) = common::spirv_val("subroutines_and_interfaces") {
        let spirv = translate::write(&m, Target::Spirv).unwrap();
        val(&spirv).unwrap_or_else(|e| panic!("spirv-val: {e}\n{text}"));
    }
    translate::wgsl_source_of_program(&p, &[], &[], options)
}

#[test]
fn labels_are_functions_sharing_module_scope_registers() {
    let s = translated(
        "ps_4_0\ndcl_input_ps constant v0.xy\ndcl_output o0.xyzw\ndcl_temps 1\ncall l0\ncallc_nz v0.y, l1\n\
         mov o0.xyzw, r0.xyzw\nret \nlabel l0\nmov r0.xyzw, v0.xxxx\nret \nlabel l1\n\
         retc_z r0.x\nadd r0.xyzw, r0.xyzw, r0.xyzw\nret \n",
        &Options::default(),
    )
    .unwrap();
    assert!(s.contains("var<private> r0: vec4<u32>;"), "{s}");
    assert!(s.contains("    dx_l0();") && s.contains("if (v[0u].yyyy.x != 0u) { dx_l1(); }"), "{s}");
    assert!(s.contains("fn dx_l0() {") && s.contains("fn dx_l1() {"), "{s}");
    assert!(s.contains("if (r0.xxxx.x == 0u) { return; }"), "retc in a subroutine returns from it: {s}");
}

const INTERFACES: &str = "ps_5_0\ndcl_function_body fb0\ndcl_function_body fb1\ndcl_function_body fb2\n\
    dcl_function_body fb3\ndcl_function_table ft0 = {fb0, fb1}\ndcl_function_table ft1 = {fb2, fb3}\n\
    dcl_interface fp0[1][2] = {ft0, ft1}\ndcl_interface_dynamicindexed fp1[2][2] = {ft0, ft1}\n\
    dcl_input_ps constant v0.x\ndcl_output o0.xyzw\ndcl_temps 1\nfcall fp0[0][1]\nfcall fp1[v0.x + 0][0]\n\
    mov o0.xyzw, r0.xyzw\nret \nlabel fb0\nmov r0.xyzw, l(0,0,0,0)\nret \nlabel fb1\n\
    mov r0.xyzw, l(1,1,1,1)\nret \nlabel fb2\nmov r0.xyzw, l(2,2,2,2)\nret \nlabel fb3\n\
    mov r0.xyzw, l(3,3,3,3)\nret \n";

#[test]
fn an_interface_calls_the_body_of_its_first_table_by_default() {
    let s = translated(INTERFACES, &Options::default()).unwrap();
    // fp0, call site 1, table ft0: fb1.
    assert!(s.contains("    dx_fb1();\n"), "{s}");
    // fp1[v0.x]: slots 1 and 2, call site 0 of ft0: fb0.
    assert!(s.contains("switch (v[0u].xxxx.x) {"), "{s}");
    assert!(s.contains("case 0u: { dx_fb0(); }") && s.contains("case 1u: { dx_fb0(); }"), "{s}");
}

#[test]
fn the_options_bind_each_slot_to_a_table() {
    let options = Options { class_instances: bound(&[(0, 1), (2, 1)]), ..Options::default() };
    let s = translated(INTERFACES, &options).unwrap();
    // fp0 (slot 0) on ft1: site 1 is fb3; fp1[1] is slot 2, on ft1: site 0 is fb2.
    assert!(s.contains("    dx_fb3();\n"), "{s}");
    assert!(s.contains("case 0u: { dx_fb0(); }") && s.contains("case 1u: { dx_fb2(); }"), "{s}");
    let options = Options { class_instances: bound(&[(0, 7)]), ..Options::default() };
    let e = translated(INTERFACES, &options).unwrap_err();
    assert_eq!((e.code(), e.mnemonic()), ("unsupported", Some("fcall")), "{e}");
    assert!(e.to_string().contains("ft7"), "{e}");
}

const THIS: &str = "ps_5_0\ndcl_function_body fb0\ndcl_function_table ft0 = {fb0}\n\
    dcl_interface_dynamicindexed fp0[2][1] = {ft0}\ndcl_input_ps constant v0.x\ndcl_output o0.xyzw\ndcl_temps 1\n\
    fcall fp0[0][0]\nmov o0.xyzw, r0.xyzw\nret \nlabel fb0\nmov r0.xy, this[1].xyxx\n\
    mov r0.zw, this[v0.x + 0].zzzw\nret \n";

#[test]
fn this_reads_are_the_bound_instances_data() {
    let mut instances = ClassInstances::new();
    instances.bind(0, ClassInstance { table: 0, this: [1, 2, 3, 4] });
    instances.bind(1, ClassInstance { table: 0, this: [5, 6, 7, 8] });
    let s = translated(THIS, &Options { class_instances: instances, ..Options::default() }).unwrap();
    // An immediate index is a constant; a register index reads the slots' array (0
    // past them, as `exec` reads).
    assert!(s.contains("vec4<u32>(0x5u, 0x6u, 0x7u, 0x8u).xyxx"), "{s}");
    assert!(
        s.contains("array<vec4<u32>, 2>(vec4<u32>(0x1u, 0x2u, 0x3u, 0x4u), vec4<u32>(0x5u, 0x6u, 0x7u, 0x8u))"),
        "{s}"
    );
    assert!(s.contains("select(vec4<u32>(0u), dx_this[min(v[0u].xxxx.x, 1u)], v[0u].xxxx.x < 2u)"), "{s}");
    // Unbound: zeros.
    let s = translated(THIS, &Options::default()).unwrap();
    assert!(s.contains("vec4<u32>(0x0u, 0x0u, 0x0u, 0x0u).xyxx"), "{s}");
}

#[test]
fn a_uniformly_indexed_constant_buffer_selects_among_the_declared_ones() {
    let s = translated(
        "ps_5_0\ndcl_constantbuffer cb0[4], dynamicIndexed\ndcl_constantbuffer cb2[4], dynamicIndexed\n\
         dcl_input_ps constant v0.xy\ndcl_output o0.xyzw\nmov o0.xyzw, cb[v0.x + 1][v0.y + 2].xyzw\nret \n",
        &Options::default(),
    )
    .unwrap();
    // Slot v0.x + 1 is cb0 or cb2 (any other: 0); element v0.y + 2.
    assert!(
        s.contains(
            "select(select(vec4<u32>(0u), cb2[(v[0u].yyyy.x + 2u)], (v[0u].xxxx.x + 1u) == 2u), \
             cb0[(v[0u].yyyy.x + 2u)], (v[0u].xxxx.x + 1u) == 0u)"
        ),
        "{s}"
    );
}

/// A uniformly indexed `t[r# + k]` without interfaces: the switch covers the declared
/// slots (what `exec` reads), any other index reads 0.
#[test]
fn a_uniformly_indexed_texture_switches_over_the_declared_slots() {
    let s = translated(
        "ps_5_0\ndcl_resource_texture2d (float,float,float,float) t0\n\
         dcl_resource_texture2d (float,float,float,float) t1\ndcl_input_ps constant v0.x\n\
         dcl_output o0.xyzw\ndcl_temps 1\nmov r0.x, v0.x\n\
         ld_indexable(texture2d)(float,float,float,float) o0.xyzw, l(0, 0, 0, 0), t[r0.x + 0].xyzw\nret \n",
        &Options::default(),
    )
    .unwrap();
    assert!(s.contains("case 0u: {") && s.contains("case 1u: {"), "{s}");
    assert!(s.contains("textureLoad(t0,") && s.contains("textureLoad(t1,"), "{s}");
    assert!(s.contains("default: {"), "{s}");
}

/// A comparison through a uniformly indexed `t[r# + k]` makes every candidate a depth
/// texture.
#[test]
fn a_uniformly_indexed_comparison_types_its_candidates_as_depth() {
    let s = translated(
        "ps_5_0\ndcl_sampler s0, mode_comparison\ndcl_resource_texture2d (float,float,float,float) t0\n\
         dcl_resource_texture2d (float,float,float,float) t1\ndcl_input_ps linear v0.xy\n\
         dcl_input_ps constant v1.x\ndcl_output o0.xyzw\ndcl_temps 1\nmov r0.x, v1.x\n\
         sample_c_indexable(texture2d)(float,float,float,float) o0.x, v0.xyxx, t[r0.x + 0].xxxx, s0, l(0.5)\n\
         ret \n",
        &Options::default(),
    )
    .unwrap();
    assert!(s.contains("var t0: texture_depth_2d;") && s.contains("var t1: texture_depth_2d;"), "{s}");
}

/// Every declared slot a uniformly indexed `t[r# + k]` may name must be of the
/// instruction's kind.
#[test]
fn a_uniformly_indexed_texture_declared_as_another_kind_is_refused() {
    let e = translated(
        "ps_5_0\ndcl_resource_texture2d (float,float,float,float) t0\n\
         dcl_resource_texture3d (float,float,float,float) t1\ndcl_input_ps constant v0.x\n\
         dcl_output o0.xyzw\ndcl_temps 1\nmov r0.x, v0.x\n\
         ld_indexable(texture2d)(float,float,float,float) o0.xyzw, l(0, 0, 0, 0), t[r0.x + 0].xyzw\nret \n",
        &Options::default(),
    )
    .unwrap_err();
    assert_eq!((e.code(), e.mnemonic()), ("unsupported", Some("ld")), "{e}");
    assert!(e.to_string().contains("t1"), "{e}");
}

/// An index naming no declared slot reads an unbound slot: 0, and the `_s` forms'
/// status "fully mapped", 1, as `exec` gives it.
#[test]
fn a_uniformly_indexed_read_of_no_declared_slot_sets_value_and_status() {
    let s = translated(
        "ps_5_0\ndcl_input_ps constant v0.x\ndcl_output o0.xyzw\ndcl_temps 2\nmov r0.x, v0.x\n\
         ld_s_indexable(texture2d)(float,float,float,float) r1.xyzw, r0.y, l(0, 0, 0, 0), t[r0.x + 0].xyzw\n\
         mov o0.xyzw, r1.xyzw\nmov o0.x, r0.y\nret \n",
        &Options::default(),
    )
    .unwrap();
    // No case: every index reads the unbound slot.
    assert!(s.contains("switch (r0.xxxx.x) {\n    default: {\n"), "{s}");
    assert!(s.contains("        r1.w = 0u;\n        r0.y = 1u;\n    }"), "{s}");
}

#[test]
fn recursion_and_calls_of_missing_labels_are_refused_naming_the_call() {
    let e = translated(
        "ps_4_0\ndcl_output o0.xyzw\ndcl_temps 1\ncall l0\nmov o0.xyzw, r0.xyzw\nret \nlabel l0\ncall l1\nret \n\
         label l1\ncall l0\nret \n",
        &Options::default(),
    )
    .unwrap_err();
    assert_eq!((e.code(), e.mnemonic()), ("structure", Some("call")), "{e}");
    assert!(e.to_string().contains("recursion"), "{e}");
    let e = translated("ps_4_0\ndcl_output o0.xyzw\ndcl_temps 1\ncall l3\nret \n", &Options::default()).unwrap_err();
    assert_eq!((e.code(), e.mnemonic()), ("structure", Some("call")), "{e}");
}

/// A chain of subroutines each calling the next is checked for recursion in one walk
/// of the call graph: 3,000 labels translate (a check per call that searched the graph
/// again took about a minute), and the same chain closed into a cycle is refused.
#[test]
fn a_long_call_chain_is_checked_in_one_walk() {
    let n = 3000;
    let mut text = String::from("ps_4_0\ndcl_output o0.xyzw\ndcl_temps 1\ncall l0\nmov o0.xyzw, r0.xyzw\nret \n");
    for k in 0..n {
        text.push_str(&format!("label l{k}\nadd r0.xyzw, r0.xyzw, l(1.0, 1.0, 1.0, 1.0)\n"));
        if k + 1 < n {
            text.push_str(&format!("call l{}\n", k + 1));
        }
        text.push_str("ret \n");
    }
    let p = tpf::parse::parse_program(&text).unwrap_or_else(|d| panic!("{d:?}")).program;
    translate::module_from_program(&p, &[], &[], &Options::default()).unwrap();
    let cyclic = text.replacen(
        &format!("label l{}\nadd r0.xyzw, r0.xyzw, l(1.0, 1.0, 1.0, 1.0)\nret \n", n - 1),
        &format!("label l{}\ncall l0\nret \n", n - 1),
        1,
    );
    assert_ne!(cyclic, text);
    let p = tpf::parse::parse_program(&cyclic).unwrap_or_else(|d| panic!("{d:?}")).program;
    let e = translate::module_from_program(&p, &[], &[], &Options::default()).unwrap_err();
    assert_eq!((e.code(), e.mnemonic()), ("structure", Some("call")), "{e}");
    assert!(e.to_string().contains("recursion"), "{e}");
}
