//! `glslangValidator` (Debian package glslang-tools) over GLSL text: the geometry
//! shaders of [`translate::geometry_glsl`] compiled to SPIR-V for Vulkan, or checked as
//! desktop OpenGL GLSL. Included with `#[path = "support/glslang.rs"] mod glslang;`.
//!
//! Every run passes a resource-limits file: glslang's default limits (`glslangValidator
//! -c`, read at test time) with the transform-feedback limits raised to what Direct3D 11
//! stream output allows (the `D3D11_SO_*` constants of the Direct3D 11 headers; D3D11.3
//! functional spec, 14 "Stream Output Stage"): 4 buffers
//! (`D3D11_SO_BUFFER_SLOT_COUNT`) and a stride of 2048 bytes
//! (`D3D11_SO_BUFFER_MAX_STRIDE_IN_BYTES`), 512 interleaved components, where glslang's
//! default of 64 components (256 bytes) refuses a shader Direct3D accepts.

#![allow(dead_code)]

use std::process::Command;
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::OnceLock;

/// `D3D11_SO_BUFFER_SLOT_COUNT`.
const SO_BUFFER_SLOT_COUNT: u32 = 4;
/// `D3D11_SO_BUFFER_MAX_STRIDE_IN_BYTES`.
const SO_BUFFER_MAX_STRIDE_IN_BYTES: u32 = 2048;

/// glslang's default resource limits (`glslangValidator -c`) with the transform-feedback
/// ones replaced by Direct3D 11's; `Err` if a limit to replace is not in the default.
pub fn limits() -> Result<String, String> {
    let out = Command::new("glslangValidator").arg("-c").output().map_err(|e| e.to_string())?;
    if !out.status.success() {
        return Err("glslangValidator -c failed".into());
    }
    let default = String::from_utf8_lossy(&out.stdout).to_string();
    let raised = [
        ("MaxTransformFeedbackBuffers", SO_BUFFER_SLOT_COUNT),
        ("MaxTransformFeedbackInterleavedComponents", SO_BUFFER_MAX_STRIDE_IN_BYTES / 4),
    ];
    let mut text = String::new();
    let mut replaced = 0;
    for line in default.lines() {
        let name = line.split_whitespace().next().unwrap_or("");
        match raised.iter().find(|(n, _)| *n == name) {
            Some((n, v)) => {
                text += &format!("{n} {v}\n");
                replaced += 1;
            }
            None => {
                text += line;
                text.push('\n');
            }
        }
    }
    if replaced != raised.len() {
        return Err(format!("glslangValidator -c has {replaced} of the {} transform-feedback limits", raised.len()));
    }
    Ok(text)
}

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

/// [`limits`], read once per test process.
fn limits_text() -> Result<String, String> {
    static TEXT: OnceLock<Result<String, String>> = OnceLock::new();
    TEXT.get_or_init(limits).clone()
}

static COUNTER: AtomicU32 = AtomicU32::new(0);

/// Runs `glslangValidator ARGS -S geom LIMITS FILE [-o OUT]` on `text` ([`limits`]): SPIR-V bytes with
/// `vulkan` (`-V --target-env vulkan1.1`), no bytes for desktop OpenGL; the first error
/// line otherwise.
pub fn geometry(text: &str, vulkan: bool) -> Result<Vec<u8>, String> {
    compile(text, "geom", vulkan)
}

/// [`geometry`] for the shader stage `stage` (glslang's `-S` name: `vert`, `frag`...).
pub fn compile(text: &str, stage: &str, vulkan: bool) -> Result<Vec<u8>, String> {
    let limits_text = limits_text()?;
    let n = COUNTER.fetch_add(1, Ordering::Relaxed);
    let dir = std::env::temp_dir();
    let base = format!("dxref-glslang-{}-{n}", std::process::id());
    let src = dir.join(format!("{base}.{stage}"));
    let spv = dir.join(format!("{base}.spv"));
    // glslang takes a file ending in `.conf` as its resource limits.
    let limits = dir.join(format!("{base}.conf"));
    std::fs::write(&limits, limits_text).map_err(|e| e.to_string())?;
    std::fs::write(&src, text).map_err(|e| e.to_string())?;
    let mut cmd = Command::new("glslangValidator");
    if vulkan {
        cmd.args(["-V", "--target-env", "vulkan1.1", "-o"]).arg(&spv);
    }
    let out = cmd.args(["-S", stage]).arg(&limits).arg(&src).output().map_err(|e| e.to_string());
    let _ = std::fs::remove_file(&src);
    let _ = std::fs::remove_file(&limits);
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
            .or_else(|| text.lines().find(|l| !l.trim().is_empty() && !l.ends_with(&format!(".{stage}"))))
            .unwrap_or("failed");
        // The temporary file's name is not part of the outcome.
        Err(first.replace(&src.display().to_string(), "0"))
    }
}
