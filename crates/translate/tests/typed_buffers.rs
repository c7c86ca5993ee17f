//! Typed buffer views (`Buffer<T>`, `RWBuffer<T>`) as storage buffers converted in the
//! shader ([`translate::buffer_format`]): every format's load and store functions are
//! accepted by naga's validator and written to every target (the SPIR-V passes
//! `spirv-val`); the default formats; the format option per register, Shader Model 5.1
//! ranges included; what is refused. What the conversions compute is proven on
//! lavapipe against the reference (`lavapipe_typed_buffers.rs`).

mod common;

use translate::buffer_format::{self, Numeric};
use translate::{Bindings, Format, Options, Target, TranslateError};

fn program(text: &str) -> tpf::Program<'static> {
    let text: &'static str = Box::leak(text.to_string().into_boxed_str());
    tpf::parse::parse_program(text).unwrap_or_else(|d| panic!("{d:?}\n{text}")).program
}

fn with_formats(lines: &str) -> Options {
    Options { bindings: Bindings::parse(lines).unwrap(), ..Options::default() }
}

fn ty(f: Format) -> &'static str {
    match f.numeric() {
        Numeric::Float => "float",
        Numeric::Uint => "uint",
        Numeric::Sint => "sint",
    }
}

#[test]
fn every_format_validates_and_writes_to_every_target() {
    let val = common::spirv_val("typed_buffers");
    for f in buffer_format::formats() {
        let t = ty(f);
        let text = format!(
            "cs_5_0\ndcl_resource_buffer ({t},{t},{t},{t}) t0\ndcl_uav_typed_buffer ({t},{t},{t},{t}) u0\n\
             dcl_input vThreadID.x\ndcl_temps 2\ndcl_thread_group 64, 1, 1\n\
             ld_indexable(buffer)({t},{t},{t},{t}) r0.xyzw, vThreadID.xxxx, t0.zyxw\n\
             ld_uav_typed r1.xyzw, vThreadID.xxxx, u0.xyzw\nbufinfo r1.x, t0.xxxx\n\
             store_uav_typed u0.xyzw, vThreadID.xxxx, r0.xyzw\nret \n"
        );
        let p = program(&text);
        let options = with_formats(&format!("t0 = {f}\nu0 = {f}\n"));
        let m = translate::module_from_program(&p, &[], &[], &options).unwrap_or_else(|e| panic!("{f}: {e}"));
        for target in Target::ALL {
            let out = translate::write(&m, target).unwrap_or_else(|e| panic!("{f} {}: {e}", target.name()));
            if let (Target::Spirv, Some(val)) = (target, &val) {
                val(&out).unwrap_or_else(|e| panic!("{f}: spirv-val: {e}"));
            }
        }
    }
}

#[test]
fn a_view_without_a_format_is_four_32_bit_components_of_its_type() {
    let p = program(
        "cs_5_0\ndcl_resource_buffer (sint,sint,sint,sint) t2\ndcl_uav_typed_buffer (float,float,float,float) u1\n\
         dcl_uav_typed_buffer (uint,uint,uint,uint) u2\ndcl_input vThreadID.x\ndcl_temps 1\n\
         dcl_thread_group 1, 1, 1\nld r0.xyzw, vThreadID.xxxx, t2.xyzw\nstore_uav_typed u1.xyzw, vThreadID.xxxx, r0.xyzw\n\
         imm_atomic_iadd r0.x, u2, vThreadID.x, l(1)\nret \n",
    );
    let s = translate::wgsl_source_of_program(&p, &[], &[], &Options::default()).unwrap();
    // R32G32B32A32: four words an element, the bits as they are.
    assert!(s.contains("@group(1) @binding(2) var<storage, read> t2: array<u32>;"), "{s}");
    assert!(s.contains("if (i < arrayLength(&t2) / 4u)"), "{s}");
    assert!(s.contains("u1[i * 4u + 3u] = v.w;"), "{s}");
    // A UAV that atomics use: R32_UINT, one atomic word an element, bounds checked.
    assert!(s.contains("var<storage, read_write> u2: array<atomic<u32>>;"), "{s}");
    assert!(s.contains("if (q0.x < arrayLength(&u2)) { old = atomicAdd(&u2[q0.x], q1.x); }"), "{s}");
    translate::module_from_program(&p, &[], &[], &Options::default()).unwrap();
}

#[test]
fn shader_model_5_1_formats_follow_the_range_register() {
    let p = program(
        "cs_5_1\ndcl_resource_buffer (float,float,float,float) T0[3:3], space=0\n\
         dcl_uav_typed_buffer (float,float,float,float) U1[5:5], space=0\ndcl_input vThreadID.x\ndcl_temps 1\n\
         dcl_thread_group 1, 1, 1\nld r0.xyzw, vThreadID.xxxx, T0[3].xyzw\n\
         store_uav_typed U1[5].xyzw, vThreadID.xxxx, r0.xyzw\nret \n",
    );
    let options = with_formats("t3 = R16G16_UNORM\nu5 = R8_SNORM\n");
    let s = translate::wgsl_source_of_program(&p, &[], &[], &options).unwrap();
    assert!(s.contains("dx_udivf(extractBits(w0, 16u, 16u), 65535u)"), "{s}");
    assert!(s.contains("atomicAnd(&u1[i / 4u], ~m);"), "{s}");
    translate::module_from_program(&p, &[], &[], &options).unwrap();
}

#[test]
fn what_is_refused() {
    let resource = |e: TranslateError| match e {
        TranslateError::Resource { what, .. } => what,
        e => panic!("{e}"),
    };
    // A format of another numeric type than the declaration's.
    let p = program(
        "cs_5_0\ndcl_resource_buffer (float,float,float,float) t0\ndcl_input vThreadID.x\ndcl_temps 1\n\
         dcl_thread_group 1, 1, 1\nld r0.xyzw, vThreadID.xxxx, t0.xyzw\nret \n",
    );
    let e = translate::module_from_program(&p, &[], &[], &with_formats("t0 = R8G8B8A8_UINT")).unwrap_err();
    assert!(resource(e).contains("declared float"));
    // Atomics on a format that is not 32 bits.
    let p = program(
        "cs_5_0\ndcl_uav_typed_buffer (uint,uint,uint,uint) u0\ndcl_input vThreadID.x\n\
         dcl_thread_group 1, 1, 1\natomic_or u0, vThreadID.x, l(1)\nret \n",
    );
    let e = translate::module_from_program(&p, &[], &[], &with_formats("u0 = R16G16B16A16_UINT")).unwrap_err();
    assert!(resource(e).contains("32-bit formats only"));
    translate::module_from_program(&p, &[], &[], &with_formats("u0 = R8G8B8A8_UINT")).unwrap();
    // resinfo of a buffer (bufinfo gives its size), sampling a buffer.
    let p = program(
        "ps_5_0\ndcl_resource_buffer (float,float,float,float) t0\ndcl_output o0.xyzw\n\
         resinfo_uint o0.xyzw, l(0), t0.xyzw\nret \n",
    );
    let e = translate::module_from_program(&p, &[], &[], &Options::default()).unwrap_err();
    assert_eq!(e.code(), "unsupported", "{e}");
    // sRGB and depth formats are not among the converted ones, named or set directly.
    assert!(Bindings::parse("t0 = R8G8B8A8_UNORM_SRGB").is_err());
    assert!(Bindings::parse("t0 = D32_FLOAT").is_err());
    let p = program(
        "cs_5_0\ndcl_resource_buffer (float,float,float,float) t0\ndcl_input vThreadID.x\ndcl_temps 1\n\
         dcl_thread_group 1, 1, 1\nld r0.xyzw, vThreadID.xxxx, t0.xyzw\nret \n",
    );
    for f in [Format::B8G8R8A8_UNORM_SRGB, Format::D16_UNORM] {
        let mut options = Options::default();
        options.bindings.formats.insert((translate::Class::Srv, 0), f);
        let e = translate::module_from_program(&p, &[], &[], &options).unwrap_err();
        assert!(resource(e).contains("are not converted"), "{f}");
    }
}
