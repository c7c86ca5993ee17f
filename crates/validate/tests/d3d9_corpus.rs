//! Every corpus Direct3D 9 program is accepted by its own profile: the 21 raw d3dbc
//! programs (validated as raw streams), and the Level 9 program of every `*_level_9_x`
//! container on the feature level its version needs (9_1 for 2_0 programs), while the
//! same containers stay accepted at 11_1 (where the SM4 program runs). Mutated programs
//! never panic the validator.

use validate::{validate, Caps9, Code, FeatureLevel, Runtime, Target};

#[test]
fn corpus_d3dbc_programs_are_accepted_by_their_profile() {
    let Some(entries) = corpus::entries("validate::d3d9_corpus") else { return };
    let mut failures = Vec::new();
    let (mut raw, mut level9) = (0, 0);
    for e in &entries {
        let bytes = e.bytes();
        if e.container == corpus::Container::D3dbc {
            let report = validate(&bytes, &Target::d3d9());
            if !report.is_valid() {
                failures.push(format!("{}: {:#?}", e.id(), report.diagnostics));
                continue;
            }
            let info = report.shader.expect("shader info");
            assert_eq!(info.stage.listing_name(), Some(&e.profile[..2]), "{}", e.id());
            // And with the vs_2_x / ps_2_x caps of feature level 9_1 and 9_3 devices.
            for level in [FeatureLevel::L9_1, FeatureLevel::L9_3] {
                let report =
                    validate::validate_with_d3d9_caps(&bytes, bytes.len(), &Target::d3d9(), &Caps9::for_level(level));
                if !report.is_valid() && !e.profile.ends_with("_x") {
                    failures.push(format!("{} with {level} caps: {:#?}", e.id(), report.diagnostics));
                }
            }
            raw += 1;
        } else if e.is_level9() {
            let stage = validate::parse_stage(&e.profile[..2]).unwrap();
            for level in [FeatureLevel::L9_1, FeatureLevel::L9_2, FeatureLevel::L9_3] {
                for runtime in [Runtime::D3D11_0, Runtime::D3D11_1] {
                    let report = validate(&bytes, &Target::d3d11(level, runtime).for_stage(stage));
                    if !report.is_valid() {
                        failures.push(format!("{} at {level}: {:#?}", e.id(), report.diagnostics));
                    }
                }
            }
            level9 += 1;
        }
    }
    println!("{raw} raw d3dbc programs and {level9} Level 9 programs accepted by their profiles");
    assert!(failures.is_empty(), "{} failures:\n{}", failures.len(), failures.join("\n"));
    if !entries.is_empty() {
        assert_eq!(raw, 21, "the corpus has 21 raw d3dbc programs");
        assert_eq!(level9, 129, "the corpus has 129 Level 9 containers");
    }
}

/// Mutated raw programs and Level 9 containers: the validator answers (never panics),
/// and both verdicts occur.
#[test]
fn mutated_d3d9_programs_never_panic() {
    let Some(entries) = corpus::entries("validate::d3d9_corpus mutations") else { return };
    let mut rng = corpus::Rng(0xd3d9_0001);
    let (mut valid, mut refused) = (0, 0);
    let d3d9 = Target::d3d9();
    let targets = [
        Target::default(),
        Target::d3d11(FeatureLevel::L9_1, Runtime::D3D11_1),
        Target::d3d11(FeatureLevel::L9_3, Runtime::D3D11_0),
    ];
    for e in entries.iter().filter(|e| e.container == corpus::Container::D3dbc || e.is_level9()) {
        let original = e.bytes();
        for round in 0..40 {
            let mut bytes = original.clone();
            let flips = 1 + rng.below(4);
            for _ in 0..flips {
                let i = rng.below(bytes.len());
                match rng.below(3) {
                    0 => bytes[i] ^= 1 << rng.below(8),
                    1 => bytes[i] = rng.next_u64() as u8,
                    _ => {
                        // A whole token.
                        let t = i / 4 * 4;
                        let v = rng.next_u64() as u32;
                        if t + 4 <= bytes.len() {
                            bytes[t..t + 4].copy_from_slice(&v.to_le_bytes());
                        }
                    }
                }
            }
            if round % 10 == 9 {
                bytes.truncate(rng.below(bytes.len() + 1));
            }
            // A raw program is a Direct3D 9 device's; a container is checked at 11_1 and 9_x.
            let target = if e.container == corpus::Container::D3dbc { &d3d9 } else { &targets[round % targets.len()] };
            let report = validate(&bytes, target);
            if report.is_valid() {
                valid += 1;
            } else {
                refused += 1;
                for d in &report.diagnostics {
                    assert!(!d.message.is_empty(), "{}: empty message for {}", e.id(), d.code);
                }
            }
            let caps = Caps9 { dynamic_flow_depth: 0, static_flow_depth: 1, ..Caps9::default() };
            let _ = validate::validate_with_d3d9_caps(&bytes, bytes.len(), target, &caps);
            let _ = validate::d3d9::walk_program(&bytes, &caps);
        }
    }
    println!("mutations: {valid} accepted, {refused} refused");
    if !entries.is_empty() {
        assert!(valid > 0 && refused > 0, "both verdicts occur ({valid} accepted, {refused} refused)");
    }
    let _ = Code::D3d9Unreadable;
}
