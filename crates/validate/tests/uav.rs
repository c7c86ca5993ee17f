//! The UAV rule of the seed `CreateGeometryShader` page (004): the UAV declarations and
//! instructions it lists are refused outside pixel and compute shaders on the 11.0
//! runtime, accepted in every stage on the 11.1 runtime when the device supports UAVs
//! at every stage, refused otherwise; a UAV slot beyond the device's range is refused.

mod common;
use common::*;
use validate::{Caps, Code, FeatureLevel, Location, Runtime};

/// A minimal shader of `stage` with extra declarations and instructions.
fn shader(stage: &str, decls: &str, ops: &str) -> String {
    match stage {
        "vs" | "ps" => format!("{stage}_5_0\n{decls}{ops}ret \n"),
        "cs" => format!("cs_5_0\ndcl_thread_group 1, 1, 1\n{decls}{ops}ret \n"),
        "gs" => format!(
            "gs_5_0\ndcl_input v[1][0].x\ndcl_inputprimitive point \ndcl_outputtopology pointlist \ndcl_output o0.x\ndcl_maxout 1\n{decls}{ops}emit \nret \n"
        ),
        "ds" => format!("ds_5_0\ndcl_input_control_point_count 1\ndcl_tessellator_domain domain_tri\n{decls}{ops}ret \n"),
        "hs" => format!(
            "hs_5_0\nhs_decls \ndcl_input_control_point_count 1\ndcl_output_control_point_count 1\ndcl_tessellator_domain domain_tri\ndcl_tessellator_partitioning partitioning_integer\ndcl_tessellator_output_primitive output_triangle_cw\n{decls}hs_fork_phase \n{ops}ret \n"
        ),
        _ => unreachable!(),
    }
}

const STAGES: [&str; 6] = ["vs", "hs", "ds", "gs", "ps", "cs"];
const RAW: &str = "dcl_uav_raw u0\ndcl_temps 1\n";
const STRUCTURED: &str = "dcl_uav_structured u0, 4\ndcl_temps 1\n";
const COUNTER: &str = "dcl_uav_structured_opc u0, 4\ndcl_temps 1\n";
const TYPED: &str = "dcl_uav_typed_buffer (float,float,float,float) u0\ndcl_temps 1\n";

/// Every declaration and instruction the seed lists: (the mnemonic the diagnostic
/// names, declarations, instructions).
fn seed_list() -> Vec<(&'static str, &'static str, String)> {
    let mut v: Vec<(&'static str, &'static str, String)> = vec![
        ("dcl_uav_typed", TYPED, String::new()),
        ("dcl_uav_raw", RAW, String::new()),
        ("dcl_uav_structured", STRUCTURED, String::new()),
        ("ld_raw", RAW, "ld_raw r0.x, l(0), u0.xxxx\n".into()),
        ("ld_structured", STRUCTURED, "ld_structured r0.x, l(0), l(0), u0.xxxx\n".into()),
        ("ld_uav_typed", TYPED, "ld_uav_typed r0.x, l(0, 0, 0, 0), u0.xxxx\n".into()),
        ("store_raw", RAW, "store_raw u0.x, l(0), l(1)\n".into()),
        ("store_structured", STRUCTURED, "store_structured u0.x, l(0), l(0), l(1)\n".into()),
        ("store_uav_typed", TYPED, "store_uav_typed u0.xyzw, l(0, 0, 0, 0), l(1, 1, 1, 1)\n".into()),
        ("sync", RAW, "sync_uglobal\n".into()),
        ("imm_atomic_alloc", COUNTER, "imm_atomic_alloc r0.x, u0\n".into()),
        ("imm_atomic_consume", COUNTER, "imm_atomic_consume r0.x, u0\n".into()),
    ];
    for op in ["and", "or", "xor", "iadd", "imax", "imin", "umax", "umin"] {
        let name: &'static str = Box::leak(format!("atomic_{op}").into_boxed_str());
        v.push((name, RAW, format!("atomic_{op} u0, l(0), l(1)\n")));
        let name: &'static str = Box::leak(format!("imm_atomic_{op}").into_boxed_str());
        v.push((name, RAW, format!("imm_atomic_{op} r0.x, u0, l(0), l(1)\n")));
    }
    v.push(("atomic_cmp_store", RAW, "atomic_cmp_store u0, l(0), l(1), l(2)\n".into()));
    v.push(("imm_atomic_exch", RAW, "imm_atomic_exch r0.x, u0, l(0), l(1)\n".into()));
    v.push(("imm_atomic_cmp_exch", RAW, "imm_atomic_cmp_exch r0.x, u0, l(0), l(1), l(2)\n".into()));
    v
}

/// The codes of `text` on `target`, and whether one of them names `mnemonic`.
fn outcome(text: &str, target: &validate::Target, mnemonic: &str) -> (Vec<Code>, bool) {
    let report = validate::validate(&asm(text), target);
    let names = report
        .diagnostics
        .iter()
        .any(|d| matches!(d.location, Location::Instruction { mnemonic: m, .. } if m == mnemonic));
    (codes(&report), names)
}

#[test]
fn every_listed_instruction_in_every_stage_on_both_runtimes() {
    let r110 = device(FeatureLevel::L11_0, Runtime::D3D11_0);
    let r111_all = device(FeatureLevel::L11_1, Runtime::D3D11_1);
    let r111_none = device(FeatureLevel::L11_0, Runtime::D3D11_1);
    let list = seed_list();
    assert_eq!(
        list.len(),
        31,
        "3 declarations, 6 loads/stores, sync, alloc/consume, 9 atomics, 10 other immediate atomics"
    );
    for stage in STAGES {
        for (mnemonic, decls, ops) in &list {
            let text = shader(stage, decls, ops);
            let pixel_or_compute = matches!(stage, "ps" | "cs");
            // 11.0 runtime.
            let (codes, names) = outcome(&text, &r110, mnemonic);
            if pixel_or_compute {
                assert!(codes.is_empty(), "{stage} {mnemonic} on 11.0: {codes:?}");
            } else {
                assert!(
                    !codes.is_empty() && codes.iter().all(|c| *c == Code::UavStageRuntime),
                    "{stage} {mnemonic}: {codes:?}"
                );
                assert!(names, "{stage}: a diagnostic names `{mnemonic}`");
            }
            // 11.1 runtime, UAVs at every stage.
            let (codes, _) = outcome(&text, &r111_all, mnemonic);
            assert!(codes.is_empty(), "{stage} {mnemonic} on 11.1 with UAVs at every stage: {codes:?}");
            // 11.1 runtime, device without UAVs at every stage.
            let (codes, names) = outcome(&text, &r111_none, mnemonic);
            if pixel_or_compute {
                assert!(codes.is_empty(), "{stage} {mnemonic}: {codes:?}");
            } else {
                assert!(
                    !codes.is_empty() && codes.iter().all(|c| *c == Code::UavStageDevice),
                    "{stage} {mnemonic}: {codes:?}"
                );
                assert!(names, "{stage}: a diagnostic names `{mnemonic}`");
            }
        }
    }
}

/// Loads of raw and structured *shader resources* are not UAV instructions.
#[test]
fn raw_and_structured_srv_loads_are_allowed_everywhere() {
    let r110 = device(FeatureLevel::L11_0, Runtime::D3D11_0);
    for stage in STAGES {
        let text = shader(
            stage,
            "dcl_resource_raw t0\ndcl_resource_structured t1, 4\ndcl_temps 1\n",
            "ld_raw r0.x, l(0), t0.xxxx\nld_structured r0.x, l(0), l(0), t1.xxxx\n",
        );
        accepted(&text, &r110);
    }
}

/// A driver may report UAVs at every stage on an 11_0 device with the 11.1 runtime.
#[test]
fn the_capability_decides_on_the_11_1_runtime() {
    let caps = Caps { uavs_at_every_stage: true, ..Caps::typical(FeatureLevel::L11_0, Runtime::D3D11_1) };
    let target = device_caps(FeatureLevel::L11_0, Runtime::D3D11_1, caps);
    accepted(&shader("gs", RAW, "store_raw u0.x, l(0), l(1)\n"), &target);
    // ... but never on the 11.0 runtime.
    let caps = Caps { uavs_at_every_stage: true, ..Caps::typical(FeatureLevel::L11_0, Runtime::D3D11_0) };
    let target = device_caps(FeatureLevel::L11_0, Runtime::D3D11_0, caps);
    refused(
        &shader("gs", RAW, "store_raw u0.x, l(0), l(1)\n"),
        &target,
        &[Code::UavStageRuntime, Code::UavStageRuntime],
    );
}

/// Thread-group scoped `sync` stays a compute-shader instruction.
#[test]
fn group_sync_is_compute_only() {
    accepted(&shader("cs", "", "sync_g_t\n"), &fl11_1());
    refused(&shader("ps", "", "sync_g_t\n"), &fl11_1(), &[Code::InstructionStage]);
    accepted(&shader("ps", RAW, "sync_uglobal\n"), &fl11_1());
}

/// UAV slots: 8 (u0..u7) on 11_0 devices and on the 11.0 runtime, 64 on 11_1 with 11.1.
#[test]
fn uav_slot_range() {
    let slot = |n: u32| shader("ps", &format!("dcl_uav_raw u{n}\n"), &format!("store_raw u{n}.x, l(0), l(1)\n"));
    for runtime in [Runtime::D3D11_0, Runtime::D3D11_1] {
        accepted(&slot(7), &device(FeatureLevel::L11_0, runtime));
        let codes = check(&slot(8), &device(FeatureLevel::L11_0, runtime));
        assert!(codes.contains(&Code::UavSlot), "{codes:?}");
        let codes = check(&slot(8), &device(FeatureLevel::L11_1, Runtime::D3D11_0));
        assert!(codes.contains(&Code::UavSlot), "{codes:?}");
    }
    accepted(&slot(8), &fl11_1());
    accepted(&slot(63), &fl11_1());
    // u64 does not assemble: patch u63 to u64.
    let mut bytes = asm(&slot(63));
    patch_after_opcode(&mut bytes, 157, 63, 64);
    let report = validate::validate(&bytes, &fl11_1());
    assert_eq!(codes(&report), [Code::UavSlot], "{:#?}", report.diagnostics);
}

/// Shader Model 4.x compute shaders: one raw or structured UAV, u0; on 10.x devices
/// only with the compute option.
#[test]
fn cs_4_x_uavs() {
    let cs4 = |decl: &str| {
        format!("cs_4_0\ndcl_globalFlags enableRawAndStructuredBuffers\ndcl_thread_group 4, 4, 1\n{decl}ret \n")
    };
    let fl10 = device(FeatureLevel::L10_0, Runtime::D3D11_1);
    accepted(&cs4("dcl_uav_raw u0\n"), &fl10);
    accepted(&cs4("dcl_uav_structured u0, 16\n"), &fl10);
    refused(&cs4("dcl_uav_raw u1\n"), &fl10, &[Code::Cs4xUav]);
    let codes = check(&cs4("dcl_uav_typed_buffer (float,float,float,float) u0\n"), &fl10);
    assert!(codes.contains(&Code::InstructionModel), "{codes:?}");
    let no_option = Caps { compute_on_10_x: false, ..Caps::typical(FeatureLevel::L10_0, Runtime::D3D11_1) };
    let codes = check(&cs4("dcl_uav_raw u0\n"), &device_caps(FeatureLevel::L10_0, Runtime::D3D11_1, no_option));
    assert!(codes.contains(&Code::StageFeatureLevel), "{codes:?}");
    // Atomics are not Shader Model 4.x instructions.
    let codes = check(&cs4("dcl_uav_raw u0\natomic_iadd u0, l(0), l(1)\n"), &fl10);
    assert_eq!(codes, [Code::InstructionModel], "{codes:?}");
}
