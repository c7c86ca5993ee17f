//! Every Shader Model 4.0–5.1 vertex, pixel and compute shader of the corpus is
//! translated (with [`Options::pull_model`]), validated by naga and written as WGSL,
//! SPIR-V and MSL; the SPIR-V must pass `spirv-val` (Debian's `spirv-tools`). Each blob and target has one line in
//! `tests/expect/corpus_translate.txt`: `ok`, or the error's code and the mnemonic of
//! the instruction at fault. The corpus is optional: without it the test prints SKIP
//! and passes (unless `DXREF_REQUIRE_CORPUS=1`).

mod common;

use std::collections::BTreeMap;

use translate::{Options, Target};

/// True for the profiles translated (the last of `vs_2_0+vs_4_0`).
fn translated(profile: &str) -> bool {
    let last = profile.rsplit('+').next().unwrap_or("");
    let mut parts = last.split('_');
    let (Some(stage), Some(major), Some(minor)) = (parts.next(), parts.next(), parts.next()) else { return false };
    matches!(stage, "vs" | "ps" | "cs") && matches!((major, minor), ("4", "0") | ("4", "1") | ("5", "0") | ("5", "1"))
}

#[test]
fn corpus_translate() {
    let Some(entries) = corpus::dxbc_entries("corpus_translate") else { return };
    let Some(spirv_val) = common::spirv_val("corpus_translate") else { return };
    let mut got = BTreeMap::new();
    let mut count = 0;
    for e in entries.iter().filter(|e| translated(&e.profile)) {
        count += 1;
        let bytes = e.bytes();
        // With the pull-model markers: `eval_*` go to SPIR-V, and WGSL and MSL refuse them.
        let module = translate::module(&bytes, &Options { pull_model: true, ..Options::default() });
        for target in [Target::Wgsl, Target::Spirv, Target::Msl] {
            let outcome = match &module {
                Err(err) => common::outcome(err),
                Ok(m) => match translate::write(m, target) {
                    Err(err) => common::outcome(&err),
                    Ok(out) if target == Target::Spirv => match spirv_val(&out) {
                        Ok(()) => "ok".to_string(),
                        Err(message) => format!("spirv-val: {}", corpus::expect::one_line(&message)),
                    },
                    Ok(_) => "ok".to_string(),
                },
            };
            got.insert(format!("{}:{}", e.id(), target.name()), outcome);
        }
    }
    assert!(count > 200, "only {count} SM4.0-5.1 vs/ps/cs entries");
    corpus::expect::check(corpus::expect_file!("corpus_translate.txt"), &got);
}
