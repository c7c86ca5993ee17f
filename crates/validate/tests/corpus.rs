//! Every corpus shader against the create calls: each SM4.0–5.0 shader is accepted by
//! its own stage's call on a feature level 11_1 device with the 11.1 runtime, and
//! refused by every other stage's call; SM5.1 shaders are refused by every Direct3D 11
//! call (V112) and accepted by the Direct3D 12 rules.

use validate::{parse_stage, validate, Code, Target};

const STAGES: [&str; 6] = ["vs", "hs", "ds", "gs", "ps", "cs"];

#[test]
fn corpus_shaders_are_accepted_by_their_own_stage_only() {
    let Some(entries) = corpus::dxbc_entries("validate::corpus") else { return };
    let mut failures = Vec::new();
    let (mut accepted, mut sm51) = (0, 0);
    for e in &entries {
        let bytes = e.bytes();
        let own = &e.profile[e.profile.rfind('+').map_or(0, |i| i + 1)..];
        let own_stage = &own[..2];
        let is_51 = own.ends_with("5_1");
        for stage in STAGES {
            let target = Target::default().for_stage(parse_stage(stage).unwrap());
            let report = validate(&bytes, &target);
            let ok = report.is_valid();
            if is_51 {
                if ok || !report.has(Code::Direct3D12Only) {
                    failures.push(format!("{}: {stage} call on a 5.1 shader: {:?}", e.id(), report.diagnostics));
                }
            } else if stage == own_stage {
                if !ok {
                    failures.push(format!("{}: refused by its own stage: {:#?}", e.id(), report.diagnostics));
                } else {
                    accepted += 1;
                }
            } else if ok || !report.has(Code::WrongStage) {
                failures.push(format!("{}: {stage} call: {:?}", e.id(), report.diagnostics));
            }
        }
        if is_51 {
            let report = validate(&bytes, &Target::d3d12());
            if !report.is_valid() {
                failures.push(format!("{}: refused by the Direct3D 12 rules: {:#?}", e.id(), report.diagnostics));
            } else {
                sm51 += 1;
            }
        }
    }
    println!("{accepted} SM4.0-5.0 shaders accepted by their own stage at 11_1; {sm51} SM5.1 shaders accepted by the D3D12 rules");
    assert!(failures.is_empty(), "{} failures:\n{}", failures.len(), failures.join("\n"));
}
