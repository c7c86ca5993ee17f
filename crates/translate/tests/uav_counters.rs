//! The hidden counter of append, consume and counter UAVs: `imm_atomic_alloc` returns
//! the counter before its increment, `imm_atomic_consume` the counter after its
//! decrement (Microsoft's pages of the two instructions); each counter is a storage
//! buffer of one `atomic<u32>` at binding 64 + the UAV's register of the UAV group, or
//! where the bindings put `uc#`. The SPIR-V passes `spirv-val`.

mod common;

use translate::{Bindings, Options, Target, TranslateError};

fn translated(text: &str, options: &Options) -> Result<String, TranslateError> {
    let p = tpf::parse::parse_program(text).unwrap_or_else(|d| panic!("{d:?}\n{text}")).program;
    let m = translate::module_from_program(&p, &[], &[], options)?;
    if let Some(val) = common::spirv_val("uav_counters") {
        let spirv = translate::write(&m, Target::Spirv).unwrap();
        val(&spirv).unwrap_or_else(|e| panic!("spirv-val: {e}\n{text}"));
    }
    translate::wgsl_source_of_program(&p, &[], &[], options)
}

const PROGRAM: &str = "cs_5_0\ndcl_uav_structured_opc u1, 8\ndcl_uav_structured u2, 4\ndcl_temps 2\n\
                       dcl_thread_group 8, 1, 1\nimm_atomic_alloc r0.x, u1\nimm_atomic_consume r1.x, u2\n\
                       store_structured u1.x, r0.x, l(0), r1.x\nret \n";

#[test]
fn alloc_returns_the_old_count_and_consume_the_new_one() {
    let s = translated(PROGRAM, &Options::default()).unwrap();
    assert!(s.contains("@group(3) @binding(65) var<storage, read_write> uc1: atomic<u32>;"), "{s}");
    assert!(s.contains("@group(3) @binding(66) var<storage, read_write> uc2: atomic<u32>;"), "{s}");
    assert!(s.contains("r0.x = atomicAdd(&uc1, 1u);"), "{s}");
    assert!(s.contains("r1.x = (atomicSub(&uc2, 1u) - 1u);"), "{s}");
}

#[test]
fn counters_follow_the_bindings() {
    let options = Options { bindings: Bindings::parse("uc1 = 0:7").unwrap(), ..Options::default() };
    let s = translated(PROGRAM, &options).unwrap();
    assert!(s.contains("@group(0) @binding(7) var<storage, read_write> uc1: atomic<u32>;"), "{s}");
}

#[test]
fn a_counter_of_a_raw_uav_is_refused_naming_the_instruction() {
    let e = translated(
        "cs_5_0\ndcl_uav_raw u0\ndcl_temps 1\ndcl_thread_group 1, 1, 1\nimm_atomic_alloc r0.x, u0\nret \n",
        &Options::default(),
    )
    .unwrap_err();
    assert_eq!((e.code(), e.mnemonic()), ("unsupported", Some("imm_atomic_alloc")), "{e}");
}

/// A counter's place taken by another resource (here `u1` moved onto `uc1`'s default
/// slot) is an error naming both: a target binds one resource per slot.
#[test]
fn two_resources_on_one_slot_are_refused_naming_both() {
    let bindings = Bindings::parse("u1 = 3:65\n").unwrap();
    let e = translated(PROGRAM, &Options { bindings, ..Default::default() }).unwrap_err();
    assert_eq!(e.code(), "resource", "{e}");
    let text = e.to_string();
    assert!(text.contains("group 3 binding 65") && text.contains("u1") && text.contains("uc1"), "{text}");
}
