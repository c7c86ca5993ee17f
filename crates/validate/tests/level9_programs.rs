//! The Level 9 program of Microsoft-compiled `*_4_0_level_9_3` blobs on feature level
//! 9_1, 9_2 and 9_3 devices (the oracle archives of `crates/listing/tests/oracle/`,
//! compiled by d3dcompiler_47). fxc gives every such blob a vs_2_x / ps_2_x program,
//! whatever it uses; Windows creates one whose program uses only 2_0 features on 9_1
//! and 9_2 devices (the verdict recorded on Windows), so the rule reads what the
//! program uses, not its version token alone: accepted at 9_1 and 9_2 exactly when the
//! 2_x program passes the 2_x rules with the capabilities those levels promise
//! (`Caps9::for_level`: no arbitrary swizzle, no predication, no dynamic flow control,
//! no gradient instructions, 12 temporaries), which is what a 2_0 program has.

use validate::{validate, Caps9, Code, FeatureLevel, Runtime, Target};

fn at(level: FeatureLevel, profile: &str) -> Target {
    Target::d3d11(level, Runtime::D3D11_1).for_stage(validate::parse_stage(&profile[..2]).unwrap())
}

#[test]
fn level_9_3_blobs_on_9_1_and_9_2_devices() {
    let mut counts = Vec::new();
    for (archive, profile) in
        [("hlsl-ps_4_0_level_9_3.dxo", "ps_4_0_level_9_3"), ("hlsl-vs_4_0_level_9_3.dxo", "vs_4_0_level_9_3")]
    {
        let records = corpus::oracle::read(&corpus::oracle::data_dir().join(archive));
        let (mut accepted, mut refused) = (0, 0);
        for r in &records {
            assert_eq!(r.profile, profile);
            let container = dxbc::Container::parse(&r.blob).expect("a compiled blob");
            let chunk = container.chunk(dxbc::FourCc::AON9).expect("an Aon9 chunk");
            let (program, _) = validate::d3d9::aon9::program(chunk.data).expect("a Level 9 program");
            let version = u32::from_le_bytes([program[0], program[1], program[2], program[3]]);
            assert_eq!(version & 0xffff, 0x0201, "{}: fxc's 9_3 program is 2_x", r.name);
            assert!(validate(&r.blob, &at(FeatureLevel::L9_3, profile)).is_valid(), "{}", r.name);
            // What the program uses, read with the capabilities of a 9_1 device.
            let mut found = Vec::new();
            validate::d3d9::check(program, 0, &Caps9::for_level(FeatureLevel::L9_1), &mut found);
            let only_2_0 = found.is_empty();
            for level in [FeatureLevel::L9_1, FeatureLevel::L9_2] {
                let report = validate(&r.blob, &at(level, profile));
                assert_eq!(report.is_valid(), only_2_0, "{} at {level}: {:#?}", r.name, report.diagnostics);
                if !only_2_0 {
                    assert_eq!(report.diagnostics[0].code, Code::Level9Version, "{}", r.name);
                    let m = &report.diagnostics[0].message;
                    assert!(m.contains("uses what") && m.contains("_2_0 does not have"), "{m}");
                }
            }
            if only_2_0 {
                accepted += 1;
            } else {
                refused += 1;
            }
        }
        counts.push((archive, accepted, refused));
    }
    // Of 540 pixel shaders, 87 use 2_0 features only (the others: arbitrary swizzles,
    // dsx/dsy); of 529 vertex shaders, 514 (the others: if_comp, break_comp).
    assert_eq!(counts, [("hlsl-ps_4_0_level_9_3.dxo", 87, 453), ("hlsl-vs_4_0_level_9_3.dxo", 514, 15)]);
}

/// A `*_4_0_level_9_1` blob's 2_0 program runs on every 9_x device.
#[test]
fn level_9_1_blobs_everywhere() {
    for (archive, profile) in
        [("hlsl-ps_4_0_level_9_1.dxo", "ps_4_0_level_9_1"), ("hlsl-vs_4_0_level_9_1.dxo", "vs_4_0_level_9_1")]
    {
        let records = corpus::oracle::read(&corpus::oracle::data_dir().join(archive));
        assert!(!records.is_empty());
        for r in &records {
            for level in [FeatureLevel::L9_1, FeatureLevel::L9_2, FeatureLevel::L9_3] {
                let report = validate(&r.blob, &at(level, profile));
                assert!(report.is_valid(), "{} at {level}: {:#?}", r.name, report.diagnostics);
            }
        }
    }
}
