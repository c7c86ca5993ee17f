//! Thread-group shared memory (`dcl_tgsm_raw`, `dcl_tgsm_structured`) with barriers: a
//! parallel reduction and a prefix sum over it, its out-of-bounds rules (exec's
//! choice: those of UAVs), its start at zero in every group, its size limit.

mod common_compute;
use common_compute::{run, try_plan, Mem};

/// Pseudo-random words for the inputs.
fn inputs(n: usize, seed: u32) -> Vec<u32> {
    (0..n as u32).map(|i| (i.wrapping_mul(2_654_435_761) ^ seed) % 1000).collect()
}

/// A tree reduction in structured shared memory: 64 threads, log2(64) steps with a
/// barrier each (inside a loop every thread runs the same number of times); the
/// listing is `examples/group_sum_cs.asm`.
#[test]
fn parallel_reduction_in_structured_shared_memory() {
    // The bundled example (`dxref run --cs examples/group_sum_cs.asm`), as users run it.
    let text = include_str!("../../../examples/group_sum_cs.asm");
    let data = inputs(4 * 64, 7);
    let mut uavs = [Mem::Raw(data.clone()), Mem::raw(4)];
    let stats = run(text, [4, 1, 1], &mut uavs);
    let sums: Vec<u32> = data.chunks(64).map(|c| c.iter().sum()).collect();
    assert_eq!(uavs[1].words(), sums.as_slice());
    // One barrier after the first store, one per step (6 steps).
    assert_eq!(stats.barriers, 4 * 7);
    assert_eq!(stats.cs_invocations, 256);
}

/// An inclusive prefix sum (Hillis and Steele) in raw shared memory: each step reads,
/// waits, writes, waits.
#[test]
fn prefix_sum_in_raw_shared_memory() {
    let text = "cs_5_0
dcl_uav_raw u0
dcl_uav_raw u1
dcl_input vThreadGroupID.x
dcl_input vThreadIDInGroupFlattened
dcl_temps 2
dcl_tgsm_raw g0, 256
dcl_thread_group 64, 1, 1
imad r0.x, vThreadGroupID.x, l(64), vThreadIDInGroupFlattened.x
ishl r0.x, r0.x, l(2)
ld_raw r0.y, r0.x, u0.xxxx
ishl r0.w, vThreadIDInGroupFlattened.x, l(2)
store_raw g0.x, r0.w, r0.y
sync_g_t
mov r0.z, l(1)
loop
  uge r1.x, r0.z, l(64)
  breakc_nz r1.x
  mov r1.w, l(0)
  uge r1.x, vThreadIDInGroupFlattened.x, r0.z
  if_nz r1.x
    iadd r1.y, vThreadIDInGroupFlattened.x, -r0.z
    ishl r1.y, r1.y, l(2)
    ld_raw r1.w, r1.y, g0.xxxx
  endif
  sync_g_t
  ld_raw r1.z, r0.w, g0.xxxx
  iadd r1.z, r1.z, r1.w
  store_raw g0.x, r0.w, r1.z
  sync_g_t
  ishl r0.z, r0.z, l(1)
endloop
ld_raw r1.x, r0.w, g0.xxxx
store_raw u1.x, r0.x, r1.x
ret
";
    let data = inputs(3 * 64, 99);
    let mut uavs = [Mem::Raw(data.clone()), Mem::raw(3 * 64)];
    let stats = run(text, [3, 1, 1], &mut uavs);
    let mut expected = Vec::new();
    for chunk in data.chunks(64) {
        let mut acc = 0;
        for v in chunk {
            acc += v;
            expected.push(acc);
        }
    }
    assert_eq!(uavs[1].words(), expected.as_slice());
    assert_eq!(stats.barriers, 3 * (1 + 2 * 6));
}

/// Out-of-bounds accesses of `g#` (undefined in Direct3D) follow the UAV rules here:
/// per 32-bit word, reads give 0 and writes are dropped; a structured access is out of
/// bounds past the structure count or past the stride, even where another structure's
/// memory is.
#[test]
fn out_of_bounds_shared_memory_reads_zero_and_drops_writes() {
    let text = "cs_5_0
dcl_uav_raw u0
dcl_temps 4
dcl_tgsm_raw g0, 16
dcl_tgsm_structured g1, 8, 2
dcl_thread_group 1, 1, 1
store_raw g0.xyzw, l(0), l(1, 2, 3, 4)
store_raw g0.xyzw, l(8), l(30, 40, 50, 60)
store_raw g0.x, l(16), l(99)
ld_raw r0.xyzw, l(0), g0.xyzw
ld_raw r1.xyzw, l(12), g0.xyzw
store_raw u0.xyzw, l(0), r0.xyzw
store_raw u0.xyzw, l(16), r1.xyzw
store_structured g1.xy, l(0), l(0), l(5, 6, 0, 0)
store_structured g1.xy, l(1), l(0), l(7, 8, 0, 0)
store_structured g1.xy, l(2), l(0), l(9, 9, 0, 0)
store_structured g1.xy, l(0), l(4), l(10, 11, 0, 0)
ld_structured r2.xyzw, l(0), l(0), g1.xyzw
ld_structured r3.xyzw, l(1), l(4), g1.xyzw
store_raw u0.xyzw, l(32), r2.xyzw
store_raw u0.xyzw, l(48), r3.xyzw
imm_atomic_iadd r0.x, g0, l(16), l(5)
imm_atomic_iadd r0.y, g0, l(12), l(5)
ld_raw r0.z, l(12), g0.xxxx
imm_atomic_exch r0.w, g1, l(2, 0, 0, 0), l(1)
store_raw u0.xyzw, l(64), r0.xyzw
ret
";
    let mut uavs = [Mem::raw(20)];
    run(text, [1, 1, 1], &mut uavs);
    let w = uavs[0].words();
    assert_eq!(&w[0..4], &[1, 2, 30, 40], "g0 after the partly out-of-bounds store");
    assert_eq!(&w[4..8], &[40, 0, 0, 0], "a read from the last word on");
    // g1: structure 0 = (5, 10) (the second store's word past the stride dropped),
    // structure 1 = (7, 8); structure 2 is past the count.
    assert_eq!(&w[8..12], &[5, 10, 0, 0], "structure 0 read whole: words past the stride read 0");
    assert_eq!(&w[12..16], &[8, 0, 0, 0], "structure 1 from byte 4");
    assert_eq!(&w[16..20], &[0, 40, 45, 0], "atomics: out of bounds returns 0 and writes nothing");
}

/// Shared memory starts at zero in every group (Direct3D: undefined), whatever the
/// group before wrote.
#[test]
fn shared_memory_starts_at_zero_in_each_group() {
    let text = "cs_5_0
dcl_uav_raw u0
dcl_input vThreadGroupID.x
dcl_temps 1
dcl_tgsm_raw g0, 4
dcl_thread_group 1, 1, 1
ld_raw r0.x, l(0), g0.xxxx
ishl r0.y, vThreadGroupID.x, l(2)
store_raw u0.x, r0.y, r0.x
store_raw g0.x, l(0), l(99)
ret
";
    let mut uavs = [Mem::Raw(vec![7; 3])];
    run(text, [3, 1, 1], &mut uavs);
    assert_eq!(uavs[0].words(), &[0, 0, 0]);
}

/// At most 32 KB of shared memory (`D3D11_CS_TGSM_REGISTER_COUNT` words), counted over
/// every `g#`.
#[test]
fn shared_memory_is_at_most_32_kilobytes() {
    let program = |decls: &str| format!("cs_5_0\n{decls}dcl_thread_group 1, 1, 1\nret\n");
    assert!(try_plan(&program("dcl_tgsm_raw g0, 32768\n")).is_ok());
    assert!(try_plan(&program("dcl_tgsm_structured g0, 16, 2048\n")).is_ok());
    for too_much in ["dcl_tgsm_raw g0, 32772\n", "dcl_tgsm_raw g0, 16384\ndcl_tgsm_structured g1, 4, 4097\n"] {
        let e = try_plan(&program(too_much)).unwrap_err();
        assert!(e.to_string().contains("shared memory"), "{e}");
    }
}
