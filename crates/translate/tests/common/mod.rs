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
