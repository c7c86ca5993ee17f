//! The compute shader's thread-ID registers (`vThreadID`, `vThreadGroupID`,
//! `vThreadIDInGroup`, `vThreadIDInGroupFlattened`) and the documented order of
//! threads and groups (groups x fastest, then y, then z; threads in flattened order).

mod common_compute;
use common_compute::{run, Mem};
use exec::compute::{GroupOrder, Limits};

/// Every thread writes its four ID registers to its own 64-byte structure, indexed by
/// (group number in x, y, z order) × threads per group + flattened ID.
#[test]
fn each_thread_id_register_holds_its_value() {
    let text = "cs_5_0
dcl_globalFlags refactoringAllowed
dcl_uav_structured u0, 64
dcl_input vThreadID.xyz
dcl_input vThreadGroupID.xyz
dcl_input vThreadIDInGroup.xyz
dcl_input vThreadIDInGroupFlattened
dcl_temps 1
dcl_thread_group 3, 2, 2
imad r0.x, vThreadGroupID.y, l(2), vThreadGroupID.x
imad r0.x, vThreadGroupID.z, l(6), r0.x
imad r0.x, r0.x, l(12), vThreadIDInGroupFlattened.x
store_structured u0.xyzw, r0.x, l(0), vThreadID.xyzw
store_structured u0.xyzw, r0.x, l(16), vThreadGroupID.xyzw
store_structured u0.xyzw, r0.x, l(32), vThreadIDInGroup.xyzw
store_structured u0.x, r0.x, l(48), vThreadIDInGroupFlattened.x
ret
";
    let groups = [2u32, 3, 2];
    let n = 12 * 12;
    let mut uavs = [Mem::Structured(vec![0xdead_beef; 16 * n], 64)];
    let stats = run(text, groups, &mut uavs);
    assert_eq!((stats.cs_invocations, stats.thread_groups), (144, 12));
    let w = uavs[0].words();
    let size = [3u32, 2, 2];
    for gz in 0..groups[2] {
        for gy in 0..groups[1] {
            for gx in 0..groups[0] {
                for tz in 0..2 {
                    for ty in 0..2 {
                        for tx in 0..3 {
                            let flat = tz * 6 + ty * 3 + tx;
                            let k = ((gz * 6 + gy * 2 + gx) * 12 + flat) as usize;
                            let s = &w[16 * k..16 * k + 16];
                            let g = [gx, gy, gz];
                            let t = [tx, ty, tz];
                            let tid: Vec<u32> = (0..3).map(|c| g[c] * size[c] + t[c]).collect();
                            assert_eq!(&s[0..4], &[tid[0], tid[1], tid[2], 0], "vThreadID of {g:?} {t:?}");
                            assert_eq!(&s[4..8], &[gx, gy, gz, 0], "vThreadGroupID of {g:?} {t:?}");
                            assert_eq!(&s[8..12], &[tx, ty, tz, 0], "vThreadIDInGroup of {g:?} {t:?}");
                            assert_eq!(s[12], flat, "vThreadIDInGroupFlattened of {g:?} {t:?}");
                            assert_eq!(&s[13..16], &[0xdead_beef; 3], "words not written");
                        }
                    }
                }
            }
        }
    }
}

/// Each thread takes a ticket from a UAV counter word (`imm_atomic_iadd` returns the
/// value before): the tickets give the order the threads ran in.
#[test]
fn threads_run_in_flattened_order_and_groups_x_then_y_then_z() {
    let text = "cs_5_0
dcl_uav_raw u0
dcl_uav_raw u1
dcl_input vThreadID.xyz
dcl_temps 2
dcl_thread_group 2, 2, 1
imm_atomic_iadd r0.x, u0, l(0), l(1)
imad r1.x, vThreadID.y, l(4), vThreadID.x
imad r1.x, vThreadID.z, l(16), r1.x
ishl r1.x, r1.x, l(2)
store_raw u1.x, r1.x, r0.x
ret
";
    // 2 x 2 x 3 groups of 2 x 2 threads: vThreadID spans x 0..4, y 0..4, z 0..3.
    let mut uavs = [Mem::raw(1), Mem::raw(48)];
    run(text, [2, 2, 3], &mut uavs);
    assert_eq!(uavs[0].words(), &[48]);
    let tickets = uavs[1].words();
    for z in 0..3u32 {
        for y in 0..4u32 {
            for x in 0..4u32 {
                let (g, t) = ((x / 2) + 2 * (y / 2) + 4 * z, (x % 2) + 2 * (y % 2));
                let expected = 4 * g + t;
                assert_eq!(tickets[(z * 16 + y * 4 + x) as usize], expected, "thread ({x}, {y}, {z})");
            }
        }
    }
}

/// `GroupOrder::Reverse` runs the last group first, threads still in flattened order.
#[test]
fn reverse_group_order_runs_the_last_group_first() {
    let text = "cs_5_0
dcl_uav_raw u0
dcl_uav_raw u1
dcl_input vThreadIDInGroupFlattened
dcl_input vThreadGroupID.xyz
dcl_temps 2
dcl_thread_group 2, 2, 1
imm_atomic_iadd r0.x, u0, l(0), l(1)
imad r1.x, vThreadGroupID.y, l(2), vThreadGroupID.x
imad r1.x, vThreadGroupID.z, l(4), r1.x
imad r1.x, r1.x, l(4), vThreadIDInGroupFlattened.x
ishl r1.x, r1.x, l(2)
store_raw u1.x, r1.x, r0.x
ret
";
    let mut uavs = [Mem::raw(1), Mem::raw(48)];
    let plan = common_compute::plan(text);
    common_compute::dispatch_plan_in_order(&plan, [2, 2, 3], GroupOrder::Reverse, &mut uavs, &Limits::default())
        .expect("dispatch");
    let tickets = uavs[1].words();
    for g in 0..12u32 {
        for t in 0..4u32 {
            assert_eq!(tickets[(4 * g + t) as usize], 4 * (11 - g) + t, "group {g}, thread {t}");
        }
    }
}

/// `vThreadID` can index: a relative index into an indexable temp.
#[test]
fn thread_ids_index_registers() {
    let text = "cs_5_0
dcl_uav_raw u0
dcl_input vThreadIDInGroupFlattened
dcl_temps 1
dcl_indexableTemp x0[4], 4
dcl_thread_group 4, 1, 1
mov x0[0].x, l(10)
mov x0[1].x, l(11)
mov x0[2].x, l(12)
mov x0[3].x, l(13)
mov r0.x, x0[vThreadIDInGroupFlattened.x + 0].x
ishl r0.y, vThreadIDInGroupFlattened.x, l(2)
store_raw u0.x, r0.y, r0.x
ret
";
    let mut uavs = [Mem::raw(4)];
    run(text, [1, 1, 1], &mut uavs);
    assert_eq!(uavs[0].words(), &[10, 11, 12, 13]);
}

/// `GroupOrder::ReverseThreads` runs the groups in order, the threads of each last
/// first; the same in a program with a barrier (each phase last thread first).
#[test]
fn reverse_thread_order_runs_the_last_thread_of_each_group_first() {
    for barrier in ["", "sync_g_t\n"] {
        let text = format!(
            "cs_5_0
dcl_uav_raw u0
dcl_uav_raw u1
dcl_input vThreadIDInGroupFlattened
dcl_input vThreadGroupID.xyz
dcl_temps 2
dcl_thread_group 2, 2, 1
{barrier}imm_atomic_iadd r0.x, u0, l(0), l(1)
imad r1.x, vThreadGroupID.y, l(2), vThreadGroupID.x
imad r1.x, r1.x, l(4), vThreadIDInGroupFlattened.x
ishl r1.x, r1.x, l(2)
store_raw u1.x, r1.x, r0.x
ret
"
        );
        let mut uavs = [Mem::raw(1), Mem::raw(16)];
        let plan = common_compute::plan(&text);
        common_compute::dispatch_plan_in_order(
            &plan,
            [2, 2, 1],
            GroupOrder::ReverseThreads,
            &mut uavs,
            &Limits::default(),
        )
        .expect("dispatch");
        let tickets = uavs[1].words();
        for g in 0..4u32 {
            for t in 0..4u32 {
                assert_eq!(tickets[(4 * g + t) as usize], 4 * g + 3 - t, "group {g}, thread {t} ({barrier:?})");
            }
        }
    }
}
