//! What a compute shader's plan and dispatch check: `dcl_thread_group` and its limits
//! per profile, Direct3D 11.0's `cs_4_x` rules (one UAV `u0`, raw or structured;
//! structured shared memory of at most 16 KB), the dispatch's group counts and stage,
//! and `CSInvocations`.

mod common_compute;
use common_compute::{plan, try_plan, try_run, Mem};
use exec::compute::{self, Limits, MAX_GROUPS_PER_DIMENSION};
use exec::machine::Machine;
use exec::{ExecErrorKind, Resources};

fn cs(profile: &str, decls: &str, size: &str) -> String {
    format!("{profile}\n{decls}dcl_thread_group {size}\nret\n")
}

fn refused(text: &str) -> String {
    match try_plan(text) {
        Ok(_) => panic!("compiled:\n{text}"),
        Err(e) => {
            assert!(matches!(e.kind, ExecErrorKind::Malformed(_)), "{e}");
            e.to_string()
        }
    }
}

#[test]
fn thread_group_limits_per_profile() {
    for ok in ["1024, 1, 1", "1, 1024, 1", "16, 1, 64", "32, 32, 1"] {
        assert!(try_plan(&cs("cs_5_0", "", ok)).is_ok(), "cs_5_0 {ok}");
    }
    for bad in ["1025, 1, 1", "1, 1, 65", "32, 32, 2", "0, 1, 1"] {
        assert!(refused(&cs("cs_5_0", "", bad)).contains("cs_5_0 allows at most 1024, 1024, 64"), "{bad}");
    }
    for profile in ["cs_4_0", "cs_4_1"] {
        for ok in ["768, 1, 1", "1, 768, 1", "24, 32, 1"] {
            assert!(try_plan(&cs(profile, "", ok)).is_ok(), "{profile} {ok}");
        }
        for bad in ["769, 1, 1", "1, 1, 2", "32, 32, 1"] {
            assert!(refused(&cs(profile, "", bad)).contains("cs_4_x allows at most 768, 768, 1"), "{profile} {bad}");
        }
    }
    assert!(refused("cs_5_0\nret\n").contains("without dcl_thread_group"));
}

#[test]
fn cs_4_x_has_one_raw_or_structured_uav_and_16_kilobytes_of_structured_shared_memory() {
    for profile in ["cs_4_0", "cs_4_1"] {
        for ok in ["dcl_uav_raw u0\n", "dcl_uav_structured u0, 16\n", "dcl_tgsm_structured g0, 4, 4096\n"] {
            assert!(try_plan(&cs(profile, ok, "64, 1, 1")).is_ok(), "{profile}: {ok}");
        }
        let e = refused(&cs(profile, "dcl_uav_raw u1\n", "64, 1, 1"));
        assert!(e.contains("one UAV slot, u0"), "{e}");
        let e = refused(&cs(profile, "dcl_uav_typed_buffer (float,float,float,float) u0\n", "64, 1, 1"));
        assert!(e.contains("typed UAV"), "{e}");
        let e = refused(&cs(profile, "dcl_tgsm_structured g0, 4, 4097\n", "64, 1, 1"));
        assert!(e.contains("cs_4_x allows 16384"), "{e}");
        let e = refused(&cs(profile, "dcl_tgsm_raw g0, 16\n", "64, 1, 1"));
        assert!(e.contains("structured shared memory only"), "{e}");
    }
    // cs_5_0 has none of these limits.
    let decls = "dcl_uav_typed_buffer (float,float,float,float) u3\ndcl_tgsm_raw g0, 32768\n";
    assert!(try_plan(&cs("cs_5_0", decls, "64, 1, 1")).is_ok());
}

#[test]
fn cs_4_0_runs_with_structured_shared_memory() {
    let text = "cs_4_0
dcl_uav_structured u0, 4
dcl_input vThreadIDInGroupFlattened
dcl_temps 1
dcl_tgsm_structured g0, 4, 64
dcl_thread_group 64, 1, 1
store_structured g0.x, vThreadIDInGroupFlattened.x, l(0), vThreadIDInGroupFlattened.x
sync_g_t
iadd r0.x, vThreadIDInGroupFlattened.x, l(1)
and r0.x, r0.x, l(63)
ld_structured r0.x, r0.x, l(0), g0.xxxx
store_structured u0.x, vThreadIDInGroupFlattened.x, l(0), r0.x
ret
";
    let mut uavs = [Mem::Structured(vec![0; 64], 4)];
    let stats = try_run(text, [1, 1, 1], &mut uavs, &Limits::default()).unwrap();
    assert_eq!(uavs[0].words(), (0..64).map(|t| (t + 1) % 64).collect::<Vec<u32>>().as_slice());
    assert_eq!(stats.cs_invocations, 64);
}

#[test]
fn dispatch_checks_its_groups_and_stage() {
    let p = plan(&cs("cs_5_0", "", "8, 8, 1"));
    let mut res = Resources::default();
    let limits = Limits::default();
    // CSInvocations: threads per group x groups.
    let s = compute::dispatch(&p, [3, 2, 1], &mut res, &limits).unwrap();
    assert_eq!((s.cs_invocations, s.thread_groups, s.barriers), (384, 6, 0));
    // A dimension of 0 runs nothing.
    let s = compute::dispatch(&p, [4, 0, 1], &mut res, &limits).unwrap();
    assert_eq!(s, compute::ComputeStats::default());
    let m = MAX_GROUPS_PER_DIMENSION;
    assert_eq!(m, 65535);
    let e = compute::dispatch(&p, [1, m + 1, 1], &mut res, &limits).unwrap_err();
    assert!(matches!(e.kind, ExecErrorKind::Draw(_)) && e.to_string().contains("at most 65535"), "{e}");
    // The stages do not mix.
    let vs = plan("vs_5_0\ndcl_output_siv o0.xyzw, position\nmov o0.xyzw, l(0, 0, 0, 1)\nret\n");
    let e = compute::dispatch(&vs, [1, 1, 1], &mut res, &limits).unwrap_err();
    assert!(matches!(e.kind, ExecErrorKind::Draw(_)), "{e}");
    let e = Machine::new(&p).run_vertex(&p, &[], &mut res).unwrap_err();
    assert!(matches!(e.kind, ExecErrorKind::Draw(_)), "{e}");
    assert!(!p.runs_in_lanes());
}
