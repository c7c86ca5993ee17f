//! Atomics in compute shaders, on UAVs and on thread-group shared memory: interlocked
//! add from every thread, compare-exchange, and each `imm_atomic_*` returning the
//! value before it (raw and structured addresses).

mod common_compute;
use common_compute::{run, Mem};

/// 4 groups of 64 threads add 1 to one UAV word; each gets the value before its add.
/// In exec's order the values are the threads' places in it.
#[test]
fn interlocked_add_on_a_uav_returns_each_thread_its_ticket() {
    let text = "cs_5_0
dcl_uav_raw u0
dcl_uav_raw u1
dcl_input vThreadID.x
dcl_temps 1
dcl_thread_group 64, 1, 1
imm_atomic_iadd r0.x, u0, l(4), l(1)
ishl r0.y, vThreadID.x, l(2)
store_raw u1.x, r0.y, r0.x
atomic_iadd u0, l(0), l(2)
ret
";
    let mut uavs = [Mem::raw(2), Mem::raw(256)];
    run(text, [4, 1, 1], &mut uavs);
    assert_eq!(uavs[0].words(), &[512, 256]);
    assert_eq!(uavs[1].words(), (0..256).collect::<Vec<u32>>().as_slice());
}

/// The same on shared memory, then thread 0 publishes the total per group.
#[test]
fn interlocked_add_on_shared_memory() {
    let text = "cs_5_0
dcl_uav_raw u0
dcl_uav_raw u1
dcl_input vThreadGroupID.x
dcl_input vThreadID.x
dcl_input vThreadIDInGroupFlattened
dcl_temps 1
dcl_tgsm_structured g0, 8, 1
dcl_thread_group 32, 1, 1
imm_atomic_iadd r0.x, g0, l(0, 4, 0, 0), vThreadIDInGroupFlattened.x
ishl r0.y, vThreadID.x, l(2)
store_raw u1.x, r0.y, r0.x
sync_g_t
if_z vThreadIDInGroupFlattened.x
  ld_structured r0.x, l(0), l(4), g0.xxxx
  ishl r0.y, vThreadGroupID.x, l(2)
  store_raw u0.x, r0.y, r0.x
endif
ret
";
    let mut uavs = [Mem::raw(2), Mem::raw(64)];
    run(text, [2, 1, 1], &mut uavs);
    let total: u32 = (0..32).sum();
    assert_eq!(uavs[0].words(), &[total, total]);
    // Each thread got the sum of the flattened IDs before it.
    let before: Vec<u32> = (0..64u32).map(|t| (0..t % 32).sum()).collect();
    assert_eq!(uavs[1].words(), before.as_slice());
}

/// `imm_atomic_cmp_exch`: only the first thread finds 0 and stores its ID + 1; every
/// thread gets the value it compared against memory.
#[test]
fn compare_exchange_lets_one_thread_win() {
    for (mem, decl) in [("u0", ""), ("g0", "dcl_tgsm_raw g0, 4\n")] {
        let text = format!(
            "cs_5_0
dcl_uav_raw u0
dcl_uav_raw u1
dcl_input vThreadIDInGroupFlattened
dcl_temps 1
{decl}dcl_thread_group 16, 1, 1
iadd r0.y, vThreadIDInGroupFlattened.x, l(1)
imm_atomic_cmp_exch r0.x, {mem}, l(0), l(0), r0.y
ishl r0.z, vThreadIDInGroupFlattened.x, l(2)
store_raw u1.x, r0.z, r0.x
sync_g_t
if_z vThreadIDInGroupFlattened.x
  atomic_cmp_store {mem}, l(0), l(1), l(77)
  ld_raw r0.x, l(0), {mem}.xxxx
  store_raw u0.x, l(0), r0.x
endif
ret
"
        );
        let mut uavs = [Mem::raw(1), Mem::raw(16)];
        run(&text, [1, 1, 1], &mut uavs);
        assert_eq!(uavs[0].words(), &[77], "{mem}: thread 0 stored 1, then the first atomic_cmp_store 77");
        let mut got = vec![1u32; 16];
        got[0] = 0;
        assert_eq!(uavs[1].words(), got.as_slice(), "{mem}");
    }
}

/// Every `imm_atomic_*` on a word holding `old`, with operand `v`: the destination gets
/// `old`, memory the operation's result, on a raw UAV, a structured UAV, raw and
/// structured shared memory.
#[test]
fn imm_atomics_return_the_value_before() {
    let old = 0xffff_fff0u32; // -16 as a signed integer
    let v = 5u32;
    let cases: [(&str, u32); 9] = [
        ("imm_atomic_iadd", old.wrapping_add(v)),
        ("imm_atomic_and", old & v),
        ("imm_atomic_or", old | v),
        ("imm_atomic_xor", old ^ v),
        ("imm_atomic_exch", v),
        ("imm_atomic_imax", v),
        ("imm_atomic_imin", old),
        ("imm_atomic_umax", old),
        ("imm_atomic_umin", v),
    ];
    for (op, new) in cases {
        for (mem, decl, addr, read) in [
            ("u2", "dcl_uav_raw u2\n", "l(8)", "ld_raw r1.x, l(8), u2.xxxx"),
            ("u3", "dcl_uav_structured u3, 12\n", "l(1, 4, 0, 0)", "ld_structured r1.x, l(1), l(4), u3.xxxx"),
            ("g0", "dcl_tgsm_raw g0, 16\n", "l(8)", "ld_raw r1.x, l(8), g0.xxxx"),
            ("g0", "dcl_tgsm_structured g0, 12, 2\n", "l(1, 4, 0, 0)", "ld_structured r1.x, l(1), l(4), g0.xxxx"),
        ] {
            let store = if decl.contains("structured") {
                format!("store_structured {mem}.x, l(1), l(4), l(0x{old:08x})")
            } else {
                format!("store_raw {mem}.x, l(8), l(0x{old:08x})")
            };
            let text = format!(
                "cs_5_0
dcl_uav_raw u0
dcl_uav_raw u1
{decl}dcl_temps 2
dcl_thread_group 1, 1, 1
{store}
{op} r0.x, {mem}, {addr}, l({v})
{read}
store_raw u0.x, l(0), r0.x
store_raw u0.x, l(4), r1.x
ret
"
            );
            let mut uavs = [Mem::raw(2), Mem::raw(1), Mem::raw(4), Mem::Structured(vec![0; 6], 12)];
            run(&text, [1, 1, 1], &mut uavs);
            assert_eq!(uavs[0].words(), &[old, new], "{op} on {decl}");
        }
    }
}

/// `imm_atomic_cmp_exch` that fails leaves memory and returns it; the non-returning
/// `atomic_*` forms change memory the same way.
#[test]
fn atomic_forms_without_a_result() {
    let text = "cs_5_0
dcl_uav_raw u0
dcl_temps 1
dcl_tgsm_raw g0, 32
dcl_thread_group 1, 1, 1
store_raw g0.xyzw, l(0), l(12, 12, 12, 12)
store_raw g0.xyzw, l(16), l(12, 12, 0xfffffff0, 12)
atomic_and g0, l(0), l(10)
atomic_or g0, l(4), l(3)
atomic_xor g0, l(8), l(5)
atomic_iadd g0, l(12), l(-20)
atomic_imax g0, l(16), l(-3)
atomic_imin g0, l(20), l(-3)
atomic_umax g0, l(24), l(3)
atomic_umin g0, l(28), l(3)
imm_atomic_cmp_exch r0.x, g0, l(0), l(1), l(2)
ld_raw r0.yzw, l(0), g0.xxyz
store_raw u0.xyzw, l(0), r0.xyzw
ld_raw r0.xyzw, l(12), g0.xyzw
store_raw u0.xyzw, l(16), r0.xyzw
ld_raw r0.xy, l(28), g0.xyxx
store_raw u0.x, l(32), r0.x
ret
";
    let mut uavs = [Mem::raw(9)];
    run(text, [1, 1, 1], &mut uavs);
    let w = uavs[0].words();
    assert_eq!(w[0], 8, "cmp_exch that fails returns the memory");
    assert_eq!(&w[1..4], &[8, 15, 9], "and, or, xor");
    assert_eq!(&w[4..9], &[(-8i32) as u32, 12, (-3i32) as u32, 0xffff_fff0, 3], "iadd, imax, imin, umax, umin");
}
