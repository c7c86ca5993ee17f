//! `validate` on arbitrary bytes for a target (API, feature level, runtime, caps,
//! stage) the first two bytes pick.
#![no_main]
use libfuzzer_sys::fuzz_target;
use validate::{Api, Caps, FeatureLevel, Runtime, Target};

fuzz_target!(|data: &[u8]| {
    let (a, data) = dxref_fuzz::split_flags(data);
    let (b, data) = dxref_fuzz::split_flags(data);
    let level = FeatureLevel::ALL[usize::from(a & 7) % FeatureLevel::ALL.len()];
    let runtime = if a & 8 != 0 { Runtime::D3D11_1 } else { Runtime::D3D11_0 };
    let caps = Caps {
        uavs_at_every_stage: b & 1 != 0,
        doubles: b & 2 != 0,
        extended_doubles: b & 4 != 0,
        shader_extensions_11_1: b & 8 != 0,
        compute_on_10_x: b & 16 != 0,
        level9_comparison_filtering: b & 32 != 0,
    };
    let api = if a & 16 != 0 { Api::D3D12 } else { Api::D3D11 { level, runtime, caps } };
    let stage = match a >> 5 {
        0 | 1 => None,
        2 => Some(tpf::ProgramType::Vertex),
        3 => Some(tpf::ProgramType::Pixel),
        4 => Some(tpf::ProgramType::Geometry),
        5 => Some(tpf::ProgramType::Hull),
        6 => Some(tpf::ProgramType::Domain),
        _ => Some(tpf::ProgramType::Compute),
    };
    let report = validate::validate(data, &Target { api, stage });
    for d in &report.diagnostics {
        let _ = d.to_string();
    }
    if b & 64 != 0 {
        let _ = validate::validate_call(data, data.len() / 2, &Target { api, stage });
    }
});
