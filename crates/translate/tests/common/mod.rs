//! Helpers shared by the translator's tests.

#![allow(dead_code)]

use std::io::Write as _;
use std::process::Command;

/// The outcome line of an error: its code and the mnemonic at fault (or the short
/// message when no instruction is).
pub fn outcome(err: &translate::TranslateError) -> String {
    match err.mnemonic() {
        Some(m) => format!("{} {m}", err.code()),
        None => {
            let message = corpus::expect::one_line(&err.to_string());
            let short: String = message.chars().take(160).collect();
            format!("{}: {short}", err.code())
        }
    }
}

/// The WGSL source of the listing `text` (which must parse), after checking that its
/// module writes SPIR-V that passes `spirv-val` (when installed; `test` names the SKIP
/// line) and, with `msl`, that it writes MSL.
pub fn checked_wgsl(test: &str, text: &str, msl: bool) -> Result<String, translate::TranslateError> {
    let options = translate::Options::default();
    let p = tpf::parse::parse_program(text).unwrap_or_else(|d| panic!("{d:?}\n{text}")).program;
    let m = translate::module_from_program(&p, &[], &[], &options)?;
    if let Some(val) = spirv_val(test) {
        let spirv = translate::write(&m, translate::Target::Spirv).unwrap_or_else(|e| panic!("SPIR-V: {e}\n{text}"));
        val(&spirv).unwrap_or_else(|e| panic!("spirv-val: {e}\n{text}"));
    }
    if msl {
        translate::write(&m, translate::Target::Msl).unwrap_or_else(|e| panic!("MSL: {e}\n{text}"));
    }
    translate::wgsl_source_of_program(&p, &[], &[], &options)
}

/// `bytes` (a container) with one to three words of its program chunk (`chunk`: the
/// chunk data's offset and length) after the version and length tokens changed, each
/// to a small integer, a random word or itself with one bit flipped, from `rng`.
pub fn mutated(bytes: &[u8], chunk: (usize, usize), rng: &mut corpus::Rng) -> Vec<u8> {
    let (start, len) = chunk;
    let mut mutated = bytes.to_vec();
    for _ in 0..1 + rng.below(3) {
        let at = start + 8 + 4 * rng.below(len.saturating_sub(8) / 4);
        let value = match rng.below(3) {
            0 => rng.below(16) as u32,
            1 => rng.next_u64() as u32,
            _ => u32::from_le_bytes(mutated[at..at + 4].try_into().unwrap()) ^ (1 << rng.below(32)),
        };
        mutated[at..at + 4].copy_from_slice(&value.to_le_bytes());
    }
    mutated
}

/// `spirv-val` as a function over SPIR-V bytes, if the tool is installed. Without it
/// the test prints SKIP and passes, unless the corpus is required (CI installs
/// `spirv-tools`), where its absence fails.
pub fn spirv_val(test: &str) -> Option<impl Fn(&[u8]) -> Result<(), String>> {
    spirv_val_with(test, &[])
}

/// [`spirv_val`] with more arguments (`--target-env vulkan1.1`).
pub fn spirv_val_with(test: &str, args: &'static [&'static str]) -> Option<impl Fn(&[u8]) -> Result<(), String>> {
    let found = Command::new("spirv-val").arg("--version").output().is_ok_and(|o| o.status.success());
    if !found {
        assert!(!corpus::required(), "{test}: spirv-val (Debian package spirv-tools) is not installed");
        println!("SKIP {test}: spirv-val (Debian package spirv-tools) is not installed");
        return None;
    }
    Some(move |bytes: &[u8]| -> Result<(), String> {
        let dir = std::env::temp_dir();
        let path = dir.join(format!("dxref-translate-{}-{:?}.spv", std::process::id(), std::thread::current().id()));
        let mut f = std::fs::File::create(&path).map_err(|e| e.to_string())?;
        f.write_all(bytes).map_err(|e| e.to_string())?;
        drop(f);
        let out = Command::new("spirv-val").args(args).arg(&path).output().map_err(|e| e.to_string())?;
        let _ = std::fs::remove_file(&path);
        if out.status.success() {
            Ok(())
        } else {
            let text = String::from_utf8_lossy(&out.stderr).to_string() + &String::from_utf8_lossy(&out.stdout);
            Err(text.lines().next().unwrap_or("failed").to_string())
        }
    })
}
