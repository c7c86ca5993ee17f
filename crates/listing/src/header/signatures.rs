//! The signature tables: `// Patch Constant signature:`, `// Input signature:`,
//! `// Output signature:`.

use std::fmt::Write;

use dxbc::signature::{ComponentType, MinPrecision, SystemValue};
use dxbc::{Signature, SignatureElement};

use super::{Chunks, Flavor, Stage};

pub(super) fn write_signatures(out: &mut String, c: &Chunks<'_>, flavor: Flavor) {
    let mut blocks: Vec<(&str, &str, Option<&Signature<'_>>, bool)> = Vec::new();
    if let Some(p) = &c.patch {
        // The hull shader writes the patch constants, the domain shader reads them.
        blocks.push(("Patch Constant", "Patch Constant", Some(p), c.stage != Stage::Domain));
    }
    blocks.push(("Input", "Input", c.input.as_ref(), false));
    blocks.push(("Output", "Output", c.output.as_ref(), true));
    for (i, (title, none, sig, is_output)) in blocks.into_iter().enumerate() {
        if i > 0 {
            out.push_str("//\n");
        }
        let _ = writeln!(out, "// {title} signature:\n//");
        if flavor.fxc_9_29 {
            out.push_str("// Name                 Index   Mask Register SysValue Format   Used\n");
            out.push_str("// -------------------- ----- ------ -------- -------- ------ ------\n");
        } else {
            out.push_str("// Name                 Index   Mask Register SysValue  Format   Used\n");
            out.push_str("// -------------------- ----- ------ -------- -------- ------- ------\n");
        }
        let elements = sig.map(|s| &s.elements[..]).unwrap_or(&[]);
        if elements.is_empty() {
            let _ = writeln!(out, "// no {none}");
            continue;
        }
        let streams = elements.iter().any(|e| e.stream != 0);
        let pixel_output = is_output && c.stage == Stage::Pixel;
        for e in elements {
            write_row(out, e, is_output, pixel_output, streams, flavor);
        }
        out.push_str("//\n");
    }
}

fn components(mask: u8) -> String {
    ['x', 'y', 'z', 'w'].iter().enumerate().map(|(i, &c)| if mask & (1 << i) != 0 { c } else { ' ' }).collect()
}

fn write_row(
    out: &mut String,
    e: &SignatureElement<'_>,
    is_output: bool,
    pixel_output: bool,
    streams: bool,
    flavor: Flavor,
) {
    let name = if streams { format!("m{}:{}", e.stream, e.semantic_name) } else { e.semantic_name.to_string() };
    let sysval = system_value(e, pixel_output);
    let used = if is_output { e.mask & !e.rw_mask & 0xf } else { e.rw_mask & 0xf };
    let (mask, register, used) = if e.register == u32::MAX {
        let reg = match sysval {
            "DEPTH" => "oDepth",
            "DEPTHGE" => "oDepthGE",
            "DEPTHLE" => "oDepthLE",
            "COVERAGE" => "oMask",
            "STENCILREF" => "oStencilRef",
            _ => "N/A",
        };
        ("N/A".to_string(), reg.to_string(), if used != 0 { "YES" } else { "NO" }.to_string())
    } else {
        (components(e.mask), e.register.to_string(), components(used))
    };
    let width = if flavor.fxc_9_29 { 6 } else { 7 };
    let _ = writeln!(
        out,
        "// {name:<20} {:>5} {mask:>6} {register:>8} {sysval:>8} {:>width$} {used:>6}",
        e.semantic_index,
        format(e),
    );
}

fn format(e: &SignatureElement<'_>) -> String {
    match e.min_precision {
        MinPrecision::Float16 => return "min16f".into(),
        MinPrecision::Float2_8 => return "min2_8f".into(),
        MinPrecision::Sint16 => return "min16i".into(),
        MinPrecision::Uint16 => return "min16u".into(),
        MinPrecision::Any16 => return "any16".into(),
        MinPrecision::Any10 => return "any10".into(),
        _ => {}
    }
    match e.component_type {
        ComponentType::Float32 => "float".into(),
        ComponentType::Uint32 => "uint".into(),
        ComponentType::Sint32 => "int".into(),
        _ => "unknown".into(),
    }
}

/// The SysValue column. Pixel-shader outputs carry no system value in the chunk; the
/// column then follows the semantic name.
fn system_value(e: &SignatureElement<'_>, pixel_output: bool) -> &'static str {
    use SystemValue as S;
    let sv = if pixel_output && e.system_value == S::Undefined {
        match e.semantic_name.to_ascii_uppercase().as_str() {
            "SV_TARGET" => S::Target,
            "SV_DEPTH" => S::Depth,
            "SV_DEPTHGREATEREQUAL" => S::DepthGreaterEqual,
            "SV_DEPTHLESSEQUAL" => S::DepthLessEqual,
            "SV_COVERAGE" => S::Coverage,
            "SV_STENCILREF" => S::StencilRef,
            _ => S::Undefined,
        }
    } else {
        e.system_value
    };
    match sv {
        S::Undefined => "NONE",
        S::Position => "POS",
        S::ClipDistance => "CLIPDST",
        S::CullDistance => "CULLDST",
        S::RenderTargetArrayIndex => "RTINDEX",
        S::ViewportArrayIndex => "VPINDEX",
        S::VertexId => "VERTID",
        S::PrimitiveId => "PRIMID",
        S::InstanceId => "INSTID",
        S::IsFrontFace => "FFACE",
        S::SampleIndex => "SAMPLE",
        S::FinalQuadEdgeTessFactor => "QUADEDGE",
        S::FinalQuadInsideTessFactor => "QUADINT",
        S::FinalTriEdgeTessFactor => "TRIEDGE",
        S::FinalTriInsideTessFactor => "TRIINT",
        S::FinalLineDetailTessFactor => "LINEDET",
        S::FinalLineDensityTessFactor => "LINEDEN",
        S::Barycentrics => "BARYCEN",
        S::ShadingRate => "SHDINGRT",
        S::CullPrimitive => "CULLPRIM",
        S::Target => "TARGET",
        S::Depth => "DEPTH",
        S::Coverage => "COVERAGE",
        S::DepthGreaterEqual => "DEPTHGE",
        S::DepthLessEqual => "DEPTHLE",
        S::StencilRef => "STENCILREF",
        S::InnerCoverage => "INNERCOV",
        S::Unknown(_) => "UNKNOWN",
    }
}
