//! Thread-group barriers (`sync_*_t`) and fences: threads meet at a barrier in every
//! form of it, fences alone do not stop a thread, a barrier in divergent flow control
//! is a typed error (never a hang), and every thread is bounded by the step limit.

mod common_compute;
use common_compute::{run, try_run, Mem};
use exec::compute::Limits;
use exec::ExecErrorKind;

/// Each thread writes its ID to shared memory, waits, and reads its neighbour's: only
/// a barrier makes every neighbour's write come first.
fn neighbour(sync: &str) -> String {
    format!(
        "cs_5_0
dcl_uav_raw u0
dcl_input vThreadIDInGroupFlattened
dcl_temps 1
dcl_tgsm_raw g0, 32
dcl_thread_group 8, 1, 1
ishl r0.x, vThreadIDInGroupFlattened.x, l(2)
iadd r0.y, vThreadIDInGroupFlattened.x, l(100)
store_raw g0.x, r0.x, r0.y
{sync}
iadd r0.z, r0.x, l(4)
and r0.z, r0.z, l(31)
ld_raw r0.w, r0.z, g0.xxxx
store_raw u0.x, r0.x, r0.w
ret
"
    )
}

#[test]
fn every_form_with_t_is_a_barrier() {
    let want: Vec<u32> = (0..8).map(|t| 100 + (t + 1) % 8).collect();
    for sync in ["sync_t", "sync_g_t", "sync_ugroup_t", "sync_uglobal_t", "sync_ugroup_g_t", "sync_uglobal_g_t"] {
        let mut uavs = [Mem::raw(8)];
        let stats = run(&neighbour(sync), [2, 1, 1], &mut uavs);
        assert_eq!(uavs[0].words(), want.as_slice(), "{sync}");
        assert_eq!(stats.barriers, 2, "{sync}");
    }
}

/// Without `_t` a `sync` is a memory fence: on the CPU's sequential run it changes
/// nothing, and each thread runs to its end before the next starts (so thread 7 alone
/// sees its neighbour's write).
#[test]
fn fences_without_t_do_not_stop_threads() {
    for sync in ["sync_g", "sync_ugroup", "sync_uglobal", "sync_uglobal_g", "nop"] {
        let mut uavs = [Mem::raw(8)];
        let stats = run(&neighbour(sync), [1, 1, 1], &mut uavs);
        let mut want = vec![0u32; 8];
        want[7] = 100;
        assert_eq!(uavs[0].words(), want.as_slice(), "{sync}");
        assert_eq!(stats.barriers, 0, "{sync}");
    }
}

/// A barrier that every thread reaches in a subroutine, and in a loop every thread
/// runs the same number of times.
#[test]
fn barriers_in_subroutines_and_uniform_loops() {
    let text = "cs_5_0
dcl_uav_raw u0
dcl_input vThreadIDInGroupFlattened
dcl_temps 2
dcl_tgsm_raw g0, 16
dcl_thread_group 4, 1, 1
mov r1.x, l(0)
loop
  uge r1.y, r1.x, l(3)
  breakc_nz r1.y
  call l1
  iadd r1.x, r1.x, l(1)
endloop
ishl r0.x, vThreadIDInGroupFlattened.x, l(2)
ld_raw r0.y, r0.x, g0.xxxx
store_raw u0.x, r0.x, r0.y
ret
label l1
ishl r0.x, vThreadIDInGroupFlattened.x, l(2)
ld_raw r0.y, r0.x, g0.xxxx
sync_g_t
iadd r0.z, r0.x, l(4)
and r0.z, r0.z, l(15)
ld_raw r0.w, r0.z, g0.xxxx
iadd r0.y, r0.y, r0.w
iadd r0.y, r0.y, l(1)
sync_g_t
store_raw g0.x, r0.x, r0.y
ret
";
    let mut uavs = [Mem::raw(4)];
    let stats = run(text, [1, 1, 1], &mut uavs);
    // Each round: g[t] = g[t] + g[t+1] + 1 (all reads before all writes).
    let mut g = [0u32; 4];
    for _ in 0..3 {
        g = [0, 1, 2, 3].map(|t| g[t] + g[(t + 1) % 4] + 1);
    }
    assert_eq!(uavs[0].words(), &g);
    assert_eq!(stats.barriers, 6);
}

fn divergent(text: &str) -> String {
    let e = try_run(text, [1, 1, 1], &mut [Mem::raw(4)], &Limits::default()).unwrap_err();
    match &e.kind {
        ExecErrorKind::DivergentBarrier(what) => what.clone(),
        other => panic!("{other:?}"),
    }
}

#[test]
fn a_thread_ending_while_others_wait_is_an_error() {
    let what = divergent(
        "cs_5_0
dcl_input vThreadIDInGroupFlattened
dcl_thread_group 4, 1, 1
if_z vThreadIDInGroupFlattened.x
  sync_g_t
endif
ret
",
    );
    assert!(what.contains("thread (1, 0, 0) of group (0, 0, 0) ended while thread (0, 0, 0)"), "{what}");
    // A return before the barrier in some threads: the same.
    let what = divergent(
        "cs_5_0
dcl_input vThreadIDInGroupFlattened
dcl_temps 1
dcl_thread_group 4, 1, 1
ult r0.x, vThreadIDInGroupFlattened.x, l(2)
retc_nz r0.x
sync_g_t
ret
",
    );
    assert!(what.contains("ended while"), "{what}");
}

#[test]
fn threads_waiting_at_different_barriers_is_an_error() {
    let text = "cs_5_0
dcl_input vThreadIDInGroupFlattened
dcl_thread_group 2, 1, 1
if_z vThreadIDInGroupFlattened.x
  sync_g_t
else
  sync_g_t
endif
ret
";
    let what = divergent(text);
    assert!(
        what.contains(
            "at the barrier of instruction 3 and thread (1, 0, 0) of group (0, 0, 0) at that of instruction 5"
        ),
        "{what}"
    );
    let e = try_run(text, [1, 1, 1], &mut [], &Limits::default()).unwrap_err();
    assert_eq!(e.instruction, Some(5), "the error names the second barrier");
}

/// A loop whose trip count differs between threads, a barrier in it: the threads
/// that leave early end while the others wait.
#[test]
fn a_barrier_in_a_divergent_loop_is_an_error() {
    let what = divergent(
        "cs_5_0
dcl_input vThreadIDInGroupFlattened
dcl_temps 1
dcl_thread_group 4, 1, 1
mov r0.x, l(0)
loop
  uge r0.y, r0.x, vThreadIDInGroupFlattened.x
  breakc_nz r0.y
  sync_g_t
  iadd r0.x, r0.x, l(1)
endloop
ret
",
    );
    assert!(what.contains("thread (0, 0, 0) of group (0, 0, 0) ended while thread (1, 0, 0)"), "{what}");
}

#[test]
fn step_limit_bounds_every_thread() {
    let endless = "cs_5_0
dcl_input vThreadIDInGroupFlattened
dcl_thread_group 4, 1, 1
if_nz vThreadIDInGroupFlattened.x
  loop
  endloop
endif
ret
";
    let limits = Limits { step_limit: 10_000 };
    let e = try_run(endless, [1, 1, 1], &mut [], &limits).unwrap_err();
    assert!(matches!(e.kind, ExecErrorKind::StepLimit(10_000)), "{e}");
    // An endless loop with a barrier every iteration, in every thread.
    let with_barrier = "cs_5_0
dcl_thread_group 4, 1, 1
loop
  sync_g_t
endloop
ret
";
    let e = try_run(with_barrier, [1, 1, 1], &mut [], &limits).unwrap_err();
    assert!(matches!(e.kind, ExecErrorKind::StepLimit(10_000)), "{e}");
    // The limit counts a thread's steps over all its phases: 4 instructions each (three
    // syncs and the ret) fit in 4, not in 3.
    let three = "cs_5_0\ndcl_thread_group 4, 1, 1\nsync_g_t\nsync_g_t\nsync_g_t\nret\n";
    assert!(try_run(three, [1, 1, 1], &mut [], &Limits { step_limit: 4 }).is_ok());
    let e = try_run(three, [1, 1, 1], &mut [], &Limits { step_limit: 3 }).unwrap_err();
    assert!(matches!(e.kind, ExecErrorKind::StepLimit(3)), "{e}");
}
