//! Test support: assemble a listing, validate it, list the codes.
#![allow(dead_code)]

use validate::{Api, Caps, Code, FeatureLevel, Report, Runtime, Target};

/// Assembles `text` (an fxc-style listing) into a container; panics with the
/// assembler's diagnostics if it does not assemble (a broken test, not a finding).
pub fn asm(text: &str) -> Vec<u8> {
    match listing::asm::assemble(text, &listing::asm::AsmOptions::default()) {
        Ok(a) => a.bytes,
        Err(d) => panic!("test listing does not assemble: {d:#?}\n{text}"),
    }
}

/// The codes of a report, in order.
pub fn codes(report: &Report) -> Vec<Code> {
    report.diagnostics.iter().map(|d| d.code).collect()
}

/// Validates `text` for `target` and returns the codes.
pub fn check(text: &str, target: &Target) -> Vec<Code> {
    let report = validate::validate(&asm(text), target);
    codes(&report)
}

/// Feature level 11_1, runtime 11.1, typical caps (UAVs at every stage).
pub fn fl11_1() -> Target {
    Target::default()
}

/// A device of `level` on `runtime` with typical caps.
pub fn device(level: FeatureLevel, runtime: Runtime) -> Target {
    Target::d3d11(level, runtime)
}

/// A device with explicit caps.
pub fn device_caps(level: FeatureLevel, runtime: Runtime, caps: Caps) -> Target {
    Target { api: Api::D3D11 { level, runtime, caps }, stage: None }
}

/// Asserts that `text` is accepted for `target`.
#[track_caller]
pub fn accepted(text: &str, target: &Target) {
    let report = validate::validate(&asm(text), target);
    assert!(report.is_valid(), "expected no diagnostics, got {:#?}\n{text}", report.diagnostics);
}

/// Asserts that `text` is refused for `target` with exactly the codes `expected`
/// (each diagnostic's code, in order).
#[track_caller]
pub fn refused(text: &str, target: &Target, expected: &[Code]) {
    let report = validate::validate(&asm(text), target);
    assert_eq!(codes(&report), expected, "diagnostics: {:#?}\n{text}", report.diagnostics);
}

/// Rewrites the first program token equal to `from` that follows an instruction with
/// opcode `opcode` (within its length) to `to`, and re-signs the container: for
/// programs the assembler (rightly) refuses to write.
pub fn patch_after_opcode(bytes: &mut [u8], opcode: u32, from: u32, to: u32) {
    let container = dxbc::Container::parse(bytes).unwrap();
    let program = container.chunk_any(&[dxbc::FourCc::SHEX, dxbc::FourCc::SHDR]).unwrap();
    let start = program.data_offset();
    let end = start + program.data.len();
    let word = |b: &[u8], at: usize| u32::from_le_bytes(b[at..at + 4].try_into().unwrap());
    let mut at = start + 8;
    while at < end {
        let token = word(bytes, at);
        let len = ((token >> 24) & 0x7f) as usize;
        if token & 0x7ff == opcode {
            for i in 1..len {
                if word(bytes, at + 4 * i) == from {
                    bytes[at + 4 * i..at + 4 * i + 4].copy_from_slice(&to.to_le_bytes());
                    resign(bytes);
                    return;
                }
            }
        }
        at += 4 * len.max(1);
    }
    panic!("no opcode {opcode} with a token {from}");
}

/// Stores the correct checksum.
pub fn resign(bytes: &mut [u8]) {
    let sum = dxbc::checksum_bytes(dxbc::compute_checksum(bytes));
    bytes[4..20].copy_from_slice(&sum);
}

/// Rebuilds `bytes` with its chunks passed through `edit` (which may drop, change or
/// add chunks), in fxc's layout with a correct checksum.
pub fn rebuild(bytes: &[u8], edit: impl FnOnce(&mut Vec<(dxbc::FourCc, Vec<u8>)>)) -> Vec<u8> {
    let container = dxbc::Container::parse(bytes).unwrap();
    let mut chunks: Vec<(dxbc::FourCc, Vec<u8>)> =
        container.chunks().iter().map(|c| (c.fourcc, c.data.to_vec())).collect();
    edit(&mut chunks);
    let mut b = dxbc::Builder::new();
    for (f, d) in chunks {
        b.push(f, d);
    }
    b.build().unwrap()
}

/// Changes the opcode of the first instruction with opcode `from` to `to` (keeping the
/// rest of the opcode token) and re-signs the container: for programs the parser
/// refuses to write (it checks flow-control structure itself).
pub fn patch_opcode(bytes: &mut [u8], from: u32, to: u32) {
    let container = dxbc::Container::parse(bytes).unwrap();
    let program = container.chunk_any(&[dxbc::FourCc::SHEX, dxbc::FourCc::SHDR]).unwrap();
    let (start, end) = (program.data_offset(), program.data_offset() + program.data.len());
    let mut at = start + 8;
    while at < end {
        let token = u32::from_le_bytes(bytes[at..at + 4].try_into().unwrap());
        if token & 0x7ff == from {
            let patched = (token & !0x7ff) | to;
            bytes[at..at + 4].copy_from_slice(&patched.to_le_bytes());
            resign(bytes);
            return;
        }
        at += 4 * (((token >> 24) & 0x7f) as usize).max(1);
    }
    panic!("no instruction with opcode {from}");
}

/// Rewrites the opcode token of the first instruction with opcode `opcode` through
/// `edit`, and re-signs the container (for declaration fields the parser refuses).
pub fn patch_opcode_token(bytes: &mut [u8], opcode: u32, edit: impl Fn(u32) -> u32) {
    let container = dxbc::Container::parse(bytes).unwrap();
    let program = container.chunk_any(&[dxbc::FourCc::SHEX, dxbc::FourCc::SHDR]).unwrap();
    let (start, end) = (program.data_offset(), program.data_offset() + program.data.len());
    let mut at = start + 8;
    while at < end {
        let token = u32::from_le_bytes(bytes[at..at + 4].try_into().unwrap());
        if token & 0x7ff == opcode {
            bytes[at..at + 4].copy_from_slice(&edit(token).to_le_bytes());
            resign(bytes);
            return;
        }
        at += 4 * (((token >> 24) & 0x7f) as usize).max(1);
    }
    panic!("no instruction with opcode {opcode}");
}
