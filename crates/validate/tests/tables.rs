//! Instruction and register tables (stage, shader model), register files and resource
//! limits, optional features.

mod common;
use common::*;
use validate::{Caps, Code, FeatureLevel, Runtime, Target};

fn program(version: &str, body: &str) -> String {
    let extra = if version.starts_with("cs") { "dcl_thread_group 1, 1, 1\n" } else { "" };
    format!("{version}\n{extra}{body}ret \n")
}

/// Instructions that exist in some stages only (Microsoft's instruction pages).
#[test]
fn instruction_by_stage() {
    let cases: &[(&str, &str, &[&str])] = &[
        // (body, the stages that have it, the version suffix)
        ("dcl_temps 1\nderiv_rtx r0.x, r0.x\n", "ps", &["vs", "gs", "cs"]),
        ("dcl_temps 1\nderiv_rty_coarse r0.x, r0.x\n", "ps", &["vs", "hs", "ds", "gs", "cs"]),
        ("dcl_temps 1\ndcl_resource_texture2d (float,float,float,float) t0\ndcl_sampler s0, mode_default\nsample r0.xyzw, r0.xyxx, t0.xyzw, s0\n", "ps", &["vs", "gs", "cs"]),
        ("dcl_temps 1\ndcl_resource_texture2d (float,float,float,float) t0\ndcl_sampler s0, mode_default\nsample_b r0.xyzw, r0.xyxx, t0.xyzw, s0, l(0)\n", "ps", &["vs", "gs"]),
        ("discard_nz l(0)\n", "ps", &["vs", "gs", "cs", "hs", "ds"]),
        ("emit \n", "gs", &["vs", "ps", "cs"]),
        ("dcl_tgsm_raw g0, 4\n", "cs", &["vs", "ps", "gs"]),
        ("dcl_maxout 1\n", "gs", &["vs", "ps"]),
        ("dcl_temps 1\neval_centroid r0.x, r0.x\n", "ps", &["vs", "cs"]),
    ];
    for (body, ok_stage, bad) in cases {
        let version = |s: &str| format!("{s}_5_0");
        // Accepted in its stage (ignore the stage's other requirements: gs declarations).
        let codes = check(&program(&version(ok_stage), body), &fl11_1());
        assert!(!codes.contains(&Code::InstructionStage), "{body} in {ok_stage}: {codes:?}");
        for stage in *bad {
            let codes = check(&program(&version(stage), body), &fl11_1());
            assert!(codes.contains(&Code::InstructionStage), "{body} in {stage}: {codes:?}");
        }
    }
}

/// Instructions by shader model.
#[test]
fn instruction_by_model() {
    let cases: &[(&str, &str, &str)] = &[
        // (body, first version that has it, a version that does not)
        ("dcl_temps 1\ncountbits r0.x, r0.x\n", "vs_5_0", "vs_4_1"),
        ("dcl_temps 1\nbfrev r0.x, r0.x\n", "vs_5_0", "vs_4_0"),
        ("dcl_temps 1\ndcl_resource_texture2d (float,float,float,float) t0\ndcl_sampler s0, mode_default\nlod r0.x, r0.xyxx, t0.xyzw, s0\n", "ps_4_1", "ps_4_0"),
        ("dcl_temps 1\ndcl_resource_texture2d (float,float,float,float) t0\ndcl_sampler s0, mode_default\ngather4 r0.xyzw, r0.xyxx, t0.xyzw, s0.x\n", "ps_4_1", "ps_4_0"),
        ("dcl_temps 1\nrcp r0.x, r0.x\n", "gs_5_0", "gs_4_1"),
        ("dcl_temps 1\ndadd r0.xy, r0.xyxx, r0.xyxx\n", "vs_5_0", "vs_4_1"),
        ("dcl_temps 1\nf32tof16 r0.x, r0.x\n", "ps_5_0", "ps_4_0"),
    ];
    for (body, ok, bad) in cases {
        let codes = check(&program(ok, body), &fl11_1());
        assert!(!codes.contains(&Code::InstructionModel), "{body} in {ok}: {codes:?}");
        let codes = check(&program(bad, body), &fl11_1());
        assert!(codes.contains(&Code::InstructionModel), "{body} in {bad}: {codes:?}");
    }
}

/// Register types by stage and model.
#[test]
fn register_types_by_stage_and_model() {
    // vGSInstanceID: gs_5_0 only.
    let codes = check(&program("vs_5_0", "dcl_temps 1\nmov r0.x, vGSInstanceID\n"), &fl11_1());
    assert!(codes.contains(&Code::OperandStage), "{codes:?}");
    // vThreadID: compute only.
    let codes = check(&program("ps_5_0", "dcl_temps 1\nmov r0.x, vThreadID.x\n"), &fl11_1());
    assert!(codes.contains(&Code::OperandStage), "{codes:?}");
    // oMask: ps_4_1 and later.
    let omask = "dcl_output oMask\nmov oMask, l(1)\n";
    assert_eq!(check(&program("ps_4_1", omask), &fl11_1()), []);
    let codes = check(&program("ps_4_0", omask), &fl11_1());
    assert!(codes.contains(&Code::OperandModel), "{codes:?}");
    // o# does not exist in compute shaders.
    let codes = check(&program("cs_5_0", "mov o0.x, l(1)\n"), &fl11_1());
    assert!(codes.contains(&Code::OperandStage), "{codes:?}");
    // g# in a pixel shader.
    let codes = check(&program("ps_5_0", "dcl_tgsm_raw g0, 4\n"), &fl11_1());
    assert!(codes.contains(&Code::OperandStage), "{codes:?}");
}

/// Register files: t0..t127, s0..s15, cb0..cb13, inputs and outputs per stage and model.
#[test]
fn register_files() {
    let srv = |n: u32| program("ps_4_0", &format!("dcl_resource_texture2d (float,float,float,float) t{n}\n"));
    accepted(&srv(127), &fl11_1());
    let mut bytes = asm(&srv(127));
    patch_after_opcode(&mut bytes, 88, 127, 128);
    assert_eq!(codes(&validate::validate(&bytes, &fl11_1())), [Code::RegisterRange]);
    let sampler = |n: u32| program("ps_4_0", &format!("dcl_sampler s{n}, mode_default\n"));
    accepted(&sampler(15), &fl11_1());
    let mut bytes = asm(&sampler(15));
    patch_after_opcode(&mut bytes, 90, 15, 16);
    assert_eq!(codes(&validate::validate(&bytes, &fl11_1())), [Code::RegisterRange]);
    let cb = |n: u32| program("vs_4_0", &format!("dcl_constantbuffer CB{n}[1], immediateIndexed\n"));
    accepted(&cb(13), &fl11_1());
    let mut bytes = asm(&cb(13));
    patch_after_opcode(&mut bytes, 89, 13, 14);
    assert_eq!(codes(&validate::validate(&bytes, &fl11_1())), [Code::RegisterRange]);
    // vs_4_0 has 16 inputs and outputs, vs_4_1 32.
    let input = |v: &str, n: u32| program(v, &format!("dcl_input v{n}.xyzw\n"));
    accepted(&input("vs_4_0", 15), &fl11_1());
    assert_eq!(check(&input("vs_4_0", 16), &fl11_1()), [Code::RegisterRange]);
    accepted(&input("vs_4_1", 31), &fl11_1());
    let output = |v: &str, n: u32| program(v, &format!("dcl_output o{n}.xyzw\n"));
    accepted(&output("vs_4_0", 15), &fl11_1());
    assert_eq!(check(&output("vs_4_0", 16), &fl11_1()), [Code::RegisterRange]);
    accepted(&output("vs_5_0", 31), &fl11_1());
    // Pixel shaders have 8 render-target outputs.
    accepted(&output("ps_5_0", 7), &fl11_1());
    assert_eq!(check(&output("ps_5_0", 8), &fl11_1()), [Code::RegisterRange]);
}

/// Temporaries (r# + x#) at most 4096; constant buffers at most 4096 vectors.
#[test]
fn temporaries_and_constant_buffer_size() {
    accepted(&program("vs_5_0", "dcl_temps 4096\n"), &fl11_1());
    assert_eq!(check(&program("vs_5_0", "dcl_temps 4097\n"), &fl11_1()), [Code::TempCount]);
    accepted(&program("vs_5_0", "dcl_temps 96\ndcl_indexableTemp x0[4000], 4\n"), &fl11_1());
    assert_eq!(
        check(&program("vs_5_0", "dcl_temps 97\ndcl_indexableTemp x0[4000], 4\n"), &fl11_1()),
        [Code::TempCount]
    );
    accepted(&program("vs_5_0", "dcl_constantbuffer CB0[4096], immediateIndexed\n"), &fl11_1());
    assert_eq!(
        check(&program("vs_5_0", "dcl_constantbuffer CB0[4097], immediateIndexed\n"), &fl11_1()),
        [Code::ConstantBufferSize]
    );
}

/// Compute thread groups: cs_5_0 x,y <= 1024, z <= 64, x*y*z <= 1024; cs_4_x x,y <=
/// 768, z = 1, x*y*z <= 768; shared memory 32 KiB (16 KiB in cs_4_x).
#[test]
fn compute_limits() {
    let cs = |v: &str, group: &str, body: &str| format!("{v}\ndcl_thread_group {group}\n{body}ret \n");
    for group in ["1024, 1, 1", "1, 1024, 1", "1, 1, 64", "32, 32, 1", "16, 8, 8"] {
        accepted(&cs("cs_5_0", group, ""), &fl11_1());
    }
    for group in ["1025, 1, 1", "1, 1, 65", "32, 32, 2", "0, 1, 1"] {
        assert_eq!(check(&cs("cs_5_0", group, ""), &fl11_1()), [Code::ThreadGroupSize], "{group}");
    }
    accepted(&cs("cs_4_0", "768, 1, 1", ""), &fl11_1());
    for group in ["769, 1, 1", "1, 1, 2", "32, 32, 1"] {
        assert_eq!(check(&cs("cs_4_0", group, ""), &fl11_1()), [Code::ThreadGroupSize], "{group}");
    }
    accepted(&cs("cs_5_0", "1, 1, 1", "dcl_tgsm_raw g0, 32768\n"), &fl11_1());
    assert_eq!(check(&cs("cs_5_0", "1, 1, 1", "dcl_tgsm_raw g0, 32772\n"), &fl11_1()), [Code::TgsmSize]);
    accepted(
        &cs("cs_5_0", "1, 1, 1", "dcl_tgsm_structured g0, 16, 1024\ndcl_tgsm_structured g1, 16, 1024\n"),
        &fl11_1(),
    );
    assert_eq!(
        check(
            &cs("cs_5_0", "1, 1, 1", "dcl_tgsm_structured g0, 16, 1024\ndcl_tgsm_structured g1, 16, 1025\n"),
            &fl11_1()
        ),
        [Code::TgsmSize]
    );
    accepted(&cs("cs_4_0", "1, 1, 1", "dcl_tgsm_raw g0, 16384\n"), &fl11_1());
    assert_eq!(check(&cs("cs_4_0", "1, 1, 1", "dcl_tgsm_raw g0, 16388\n"), &fl11_1()), [Code::TgsmSize]);
    assert_eq!(check("cs_5_0\nret \n", &fl11_1()), [Code::ThreadGroupMissing]);
}

/// Optional features: doubles, the 11.1 extensions, minimum precision.
#[test]
fn optional_features() {
    let doubles = program("cs_5_0", "dcl_temps 1\ndadd r0.xy, r0.xyxx, r0.xyxx\n");
    accepted(&doubles, &fl11_1());
    let no_doubles = Caps { doubles: false, ..Caps::typical(FeatureLevel::L11_0, Runtime::D3D11_0) };
    let target = device_caps(FeatureLevel::L11_0, Runtime::D3D11_0, no_doubles);
    assert_eq!(check(&doubles, &target), [Code::FeatureUnsupported]);
    // The 11.1 double extensions need the 11.1 runtime and the cap.
    let ddiv = program("cs_5_0", "dcl_temps 1\nddiv r0.xy, r0.xyxx, r0.xyxx\n");
    accepted(&ddiv, &device(FeatureLevel::L11_0, Runtime::D3D11_1));
    assert_eq!(check(&ddiv, &device(FeatureLevel::L11_0, Runtime::D3D11_0)), [Code::FeatureUnsupported]);
    // Minimum precision needs the 11.1 runtime.
    let min16 = program(
        "ps_5_0",
        "dcl_output o0.xyzw\nmov o0.xyzw {min16f}, l(1.000000, 1.000000, 1.000000, 1.000000) {min16f}\n",
    );
    let report = validate::validate(&asm(&min16), &device(FeatureLevel::L11_0, Runtime::D3D11_0));
    assert_eq!(codes(&report), [Code::FeatureUnsupported], "{:#?}", report.diagnostics);
    accepted(&min16, &device(FeatureLevel::L11_0, Runtime::D3D11_1));
}

/// The Direct3D 12 rules accept what Direct3D 12 accepts (UAVs everywhere) and still
/// check stages and geometry-shader limits.
#[test]
fn direct3d_12_rules() {
    let t = Target::d3d12();
    accepted("vs_5_1\ndcl_uav_raw U0[0:0], space=0\nret \n", &t);
    let gs = "gs_5_1\ndcl_input v[1][0].xyzw\ndcl_inputprimitive point \ndcl_outputtopology pointlist \ndcl_output o0.xyzw\ndcl_output o1.xyz\ndcl_maxout 147\nemit \nret \n";
    assert_eq!(check(gs, &t), [Code::GsOutputRecordSize]);
}

/// Flow control: constructs closed in order, break/continue/case inside theirs, one
/// `else` per `if` and one `default` per `switch`, at most 64 levels deep.
#[test]
fn flow_control_structure_and_nesting() {
    let vs = |body: &str| format!("vs_5_0\ndcl_temps 1\n{body}ret \n");
    accepted(&vs("if_nz r0.x\nloop \nbreakc_z r0.x\ncontinue \nendloop \nelse \nswitch r0.x\ncase l(0)\nbreak \ndefault \nbreak \nendswitch \nendif \n"), &fl11_1());
    // The parser refuses these, so valid programs are patched: (listing, opcode from,
    // opcode to, the instruction the diagnostic names).
    const NOP: u32 = 58;
    for (body, from, to, culprit) in [
        ("nop \n", NOP, 18, "else"),
        ("nop \n", NOP, 21, "endif"),
        ("loop \nendloop \n", 22, 21, "endif"),
        ("nop \n", NOP, 2, "break"),
        ("if_nz r0.x\nnop \nendif \n", NOP, 7, "continue"),
        ("loop \nbreakc_nz l(0)\nendloop \n", 3, 6, "case"),
        ("nop \n", NOP, 22, "endloop"),
        ("loop \nendloop \n", 22, NOP, "loop"),
        ("switch r0.x\ndefault \nbreak \nendswitch \n", 23, NOP, "switch"),
        ("if_nz r0.x\nendif \ncall l0\nret \nlabel l0\n", 21, NOP, "if"),
        ("switch r0.x\ndefault \nbreak \nnop \nbreak \nendswitch \n", NOP, 10, "default"),
    ] {
        let mut bytes = asm(&vs(body));
        patch_opcode(&mut bytes, from, to);
        let report = validate::validate(&bytes, &fl11_1());
        assert_eq!(codes(&report), [Code::FlowControlStructure], "{body}");
        assert!(
            matches!(report.diagnostics[0].location, validate::Location::Instruction { mnemonic, .. } if mnemonic == culprit),
            "{body}: {:?}",
            report.diagnostics[0].location
        );
    }
    // A subroutine body starts afresh, but an `if` left open before it is refused.
    accepted(&vs("call l0\nret \nlabel l0\nif_nz r0.x\nendif \n"), &fl11_1());
    let nested = |n: usize| vs(&format!("{}{}", "loop \n".repeat(n), "endloop \n".repeat(n)));
    accepted(&nested(64), &fl11_1());
    assert_eq!(check(&nested(65), &fl11_1()), [Code::FlowControlNesting]);
}
