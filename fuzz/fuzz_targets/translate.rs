//! `translate` on arbitrary bytes: as a DXBC container, or as a bare SM4/5 token
//! stream, with or without `Options::pull_model`; a module that translates is written
//! in every language.
#![no_main]
use libfuzzer_sys::fuzz_target;
use translate::{Options, Target};

fuzz_target!(|data: &[u8]| {
    let (a, data) = dxref_fuzz::split_flags(data);
    // Bit 1: the pull-model markers (`eval_*` for SPIR-V and GLSL, refused elsewhere).
    let options = Options { pull_model: a & 2 != 0, ..Options::default() };
    let module = if a & 1 == 0 {
        translate::module(data, &options)
    } else {
        match tpf::decode(data) {
            Ok(program) => translate::module_from_program(&program, &[], &[], &options),
            Err(_) => return,
        }
    };
    if let Ok(m) = module {
        for target in Target::ALL {
            let _ = translate::write(&m, target);
        }
    } else if let Err(e) = module {
        let _ = (e.to_string(), e.code(), e.mnemonic());
    }
});
