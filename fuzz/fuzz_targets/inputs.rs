//! The command line's input readers (the `inputs` crate) on arbitrary bytes: the first
//! byte picks the reader, the rest is its file, decoded as the command line decodes
//! files where the reader takes text.
#![no_main]
use libfuzzer_sys::fuzz_target;
use validate::{Api, Caps, FeatureLevel, Runtime};

fuzz_target!(|data: &[u8]| {
    let (which, data) = dxref_fuzz::split_flags(data);
    match which % 4 {
        // Shader files: family detection, effect files and the programs inside them.
        0 => {
            let _ = inputs::family(data);
            let _ = inputs::is_effect(data);
            let _ = inputs::d3dbc_end(data);
            for e in inputs::embedded_shaders(data) {
                let _ = format!("{e:?}");
            }
            if let Err(e) = inputs::single_shader(data) {
                let _ = e.to_string();
            }
        }
        // Vertex files (JSON or CSV).
        1 => {
            let Some(text) = dxref_fuzz::as_cli_text(data) else { return };
            match inputs::vertices::read(&text) {
                Ok(v) => {
                    let _ = format!("{v:?}");
                }
                Err(e) => {
                    let _ = e.to_string();
                }
            }
        }
        // `--so` text, with `--so-strides` and `--so-rasterized` after NUL bytes.
        2 => {
            let Some(text) = dxref_fuzz::as_cli_text(data) else { return };
            let mut parts = text.split('\0');
            let decl = parts.next().unwrap_or("");
            let strides = parts.next();
            let rasterized = parts.next();
            match inputs::so::declaration(decl, strides, rasterized) {
                Ok(d) => {
                    let _ = format!("{d:?}");
                }
                Err(e) => {
                    let _ = e.to_string();
                }
            }
        }
        // `--so-json` for each API whose call has stream output.
        _ => {
            let Some(text) = dxref_fuzz::as_cli_text(data) else { return };
            let level = FeatureLevel::ALL[usize::from(which >> 2) % FeatureLevel::ALL.len()];
            for api in [
                Api::D3D10 { level },
                Api::D3D11 { level, runtime: Runtime::D3D11_0, caps: Caps::typical(level, Runtime::D3D11_0) },
                Api::D3D11 { level, runtime: Runtime::D3D11_1, caps: Caps::typical(level, Runtime::D3D11_1) },
            ] {
                match inputs::so::arguments_json(&text, api) {
                    Ok(a) => {
                        let _ = format!("{a:?}");
                    }
                    Err(e) => {
                        let _ = e.to_string();
                    }
                }
            }
        }
    }
});
