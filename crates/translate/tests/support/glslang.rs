//! `glslangValidator` (Debian package glslang-tools) over GLSL text: the geometry
//! shaders of [`translate::geometry_glsl`] compiled to SPIR-V for Vulkan, or checked as
//! desktop OpenGL GLSL. Included with `#[path = "support/glslang.rs"] mod glslang;`.

#![allow(dead_code)]

use std::process::Command;
use std::sync::atomic::{AtomicU32, Ordering};

/// Whether `glslangValidator` runs. Without it the test prints SKIP and passes, unless
/// the corpus is required (`DXREF_REQUIRE_CORPUS=1`), where its absence fails.
pub fn available_or_skip(test: &str) -> bool {
    let found = Command::new("glslangValidator").arg("--version").output().is_ok_and(|o| o.status.success());
    if !found {
        assert!(!corpus::required(), "{test}: glslangValidator (Debian package glslang-tools) is not installed");
        println!("SKIP {test}: glslangValidator (Debian package glslang-tools) is not installed");
    }
    found
}

static COUNTER: AtomicU32 = AtomicU32::new(0);

/// Runs `glslangValidator ARGS -S geom FILE [-o OUT]` on `text`: SPIR-V bytes with
/// `vulkan` (`-V --target-env vulkan1.1`), no bytes for desktop OpenGL; the first error
/// line otherwise.
pub fn geometry(text: &str, vulkan: bool) -> Result<Vec<u8>, String> {
    let n = COUNTER.fetch_add(1, Ordering::Relaxed);
    let dir = std::env::temp_dir();
    let base = format!("dxref-glslang-{}-{n}", std::process::id());
    let src = dir.join(format!("{base}.geom"));
    let spv = dir.join(format!("{base}.spv"));
    std::fs::write(&src, text).map_err(|e| e.to_string())?;
    let mut cmd = Command::new("glslangValidator");
    if vulkan {
        cmd.args(["-V", "--target-env", "vulkan1.1", "-o"]).arg(&spv);
    }
    let out = cmd.args(["-S", "geom"]).arg(&src).output().map_err(|e| e.to_string());
    let _ = std::fs::remove_file(&src);
    let out = out?;
    let bytes = if vulkan { std::fs::read(&spv).unwrap_or_default() } else { Vec::new() };
    let _ = std::fs::remove_file(&spv);
    if out.status.success() {
        Ok(bytes)
    } else {
        let text = String::from_utf8_lossy(&out.stdout).to_string() + &String::from_utf8_lossy(&out.stderr);
        let first = text
            .lines()
            .find(|l| l.starts_with("ERROR") && !l.contains("compilation errors"))
            .or_else(|| text.lines().find(|l| !l.trim().is_empty() && !l.ends_with(".geom")))
            .unwrap_or("failed");
        // The temporary file's name is not part of the outcome.
        Err(first.replace(&src.display().to_string(), "0"))
    }
}
