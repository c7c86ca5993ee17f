//! The smaller blocks: the `Note:` feature list (SFI0), the tessellation tables
//! (STAT) and the class-linkage tables (IFCE).

use dxbc::stat::{TessellatorDomain, TessellatorOutputPrimitive, TessellatorPartitioning};
use dxbc::{Ifce, ShaderFeatures, Stat};

use tpf::ProgramType;

use super::columns::{dec, left, left_dec, left_str, right_dec, right_str};
use super::Flavor;

/// How the listing names each `D3D_SHADER_REQUIRES_*` flag.
const FEATURES: &[(ShaderFeatures, &str)] = &[
    (ShaderFeatures::DOUBLES, "Double-precision floating point"),
    (ShaderFeatures::EARLY_DEPTH_STENCIL, "Early depth-stencil"),
    (ShaderFeatures::UAVS_AT_EVERY_STAGE, "UAVs at every shader stage"),
    (ShaderFeatures::UAVS_64, "64 UAV slots"),
    (ShaderFeatures::MINIMUM_PRECISION, "Minimum-precision data types"),
    (ShaderFeatures::DOUBLE_EXTENSIONS_11_1, "Double-precision extensions for 11.1"),
    (ShaderFeatures::SHADER_EXTENSIONS_11_1, "Shader extensions for 11.1"),
    (ShaderFeatures::LEVEL_9_COMPARISON_FILTERING, "Comparison filtering for feature level 9"),
    (ShaderFeatures::TILED_RESOURCES, "Tiled resources"),
    (ShaderFeatures::STENCIL_REF, "PS Output Stencil Ref"),
    (ShaderFeatures::INNER_COVERAGE, "PS Inner Coverage"),
    (ShaderFeatures::TYPED_UAV_LOAD_ADDITIONAL_FORMATS, "Typed UAV Load Additional Formats"),
    (ShaderFeatures::ROVS, "Raster Ordered UAVs"),
    (
        ShaderFeatures::VIEWPORT_AND_RT_ARRAY_INDEX_FROM_ANY_SHADER_FEEDING_RASTERIZER,
        "SV_RenderTargetArrayIndex or SV_ViewportArrayIndex from any shader feeding rasterizer",
    ),
];

/// The `Note:` block for `features`. SFI0 bit 1 (in the container, raw and structured
/// buffers in Shader Model 4.x) shares its value with the reflection's
/// `D3D_SHADER_REQUIRES_EARLY_DEPTH_STENCIL`; d3dcompiler_47 prints "Early
/// depth-stencil" only for `forceEarlyDepthStencil` (`early_depth_stencil`), and no
/// line for the SFI0 = 2 of a vs_4_0 reading a StructuredBuffer.
pub(super) fn write_feature_note(out: &mut String, features: ShaderFeatures, early_depth_stencil: bool) {
    let mut names = FEATURES
        .iter()
        .filter(|(f, _)| features.contains(*f))
        .filter(|(f, _)| *f != ShaderFeatures::EARLY_DEPTH_STENCIL || early_depth_stencil)
        .map(|(_, n)| *n)
        .peekable();
    if names.peek().is_none() {
        return;
    }
    out.push_str("// Note: shader requires additional functionality:\n");
    for n in names {
        out.push_str("//       ");
        out.push_str(n);
        out.push('\n');
    }
    out.push_str("//\n//\n");
}

/// A class instance's binding column, right-aligned in `width`: the slot, or `-` for
/// none (0xffff), as d3dcompiler_47 prints an instance without a constant buffer,
/// texture or sampler.
fn bound(out: &mut String, v: u16, width: usize) {
    if v == UNBOUND {
        right_str(out, "-", width);
    } else {
        right_dec(out, v, width);
    }
}

/// The slot value of an unbound class-instance column.
pub(crate) const UNBOUND: u16 = 0xffff;

/// `// Pixel Shader runs at sample frequency`, from STAT.
pub(super) fn write_sample_frequency(out: &mut String, stat: &Stat<'_>, stage: Option<ProgramType>) {
    if stage == Some(ProgramType::Pixel) && stat.sample_frequency != 0 {
        out.push_str("// Pixel Shader runs at sample frequency\n//\n");
    }
}

pub(super) fn write_tessellation(out: &mut String, stat: &Stat<'_>, stage: Option<ProgramType>, flavor: Flavor) {
    let Some(sm5) = &stat.sm5 else { return };
    if !matches!(stage, Some(ProgramType::Hull | ProgramType::Domain)) {
        return;
    }
    let domain = match sm5.tessellator_domain {
        TessellatorDomain::Isoline => "Isoline",
        TessellatorDomain::Triangle => "Triangle",
        TessellatorDomain::Quad => "Quadrilateral",
        _ => return,
    };
    out.push_str("// Tessellation Domain   # of control points\n");
    out.push_str("// -------------------- --------------------\n");
    out.push_str("// ");
    left_str(out, domain, 20);
    out.push(' ');
    right_dec(out, sm5.control_points, 20);
    out.push_str("\n//\n");
    if stage != Some(ProgramType::Hull) {
        return;
    }
    let primitive = match sm5.hs_output_primitive {
        TessellatorOutputPrimitive::Point => "Point",
        TessellatorOutputPrimitive::Line => "Line",
        TessellatorOutputPrimitive::TriangleCw => "Clockwise Triangles",
        TessellatorOutputPrimitive::TriangleCcw => "Counter-Clockwise Triangles",
        _ => "Undefined",
    };
    let partitioning = match sm5.hs_partitioning {
        TessellatorPartitioning::Integer => "Integer",
        TessellatorPartitioning::Pow2 if flavor.pow2_integer => "Integer Power of 2",
        TessellatorPartitioning::Pow2 => "Power of 2",
        TessellatorPartitioning::FractionalOdd => "Odd Fractional",
        TessellatorPartitioning::FractionalEven => "Even Fractional",
        _ => "Undefined",
    };
    out.push_str("// Tessellation Output Primitive  Partitioning Type \n");
    out.push_str("// ------------------------------ ------------------\n");
    out.push_str("// ");
    left_str(out, primitive, 30);
    out.push(' ');
    left_str(out, partitioning, 18);
    out.push_str("\n//\n");
}

pub(super) fn write_class_linkage(out: &mut String, ifce: &Ifce<'_>) {
    if !ifce.types.is_empty() {
        out.push_str("//\n// Available Class Types:\n//\n");
        out.push_str("// Name                             ID CB Stride Texture Sampler\n");
        out.push_str("// ------------------------------ ---- --------- ------- -------\n");
        // The ID column is the type's position in the table.
        for (id, t) in ifce.types.iter().enumerate() {
            out.push_str("// ");
            left_str(out, t.name, 30);
            out.push(' ');
            right_dec(out, id as u64, 4);
            out.push(' ');
            right_dec(out, t.cb_stride, 9);
            out.push(' ');
            right_dec(out, t.texture, 7);
            out.push(' ');
            right_dec(out, t.sampler, 7);
            out.push('\n');
        }
        out.push_str("//\n");
    }
    if !ifce.instances.is_empty() {
        out.push_str("// Available Class Instances:\n//\n");
        out.push_str("// Name                        Type CB CB Offset Texture Sampler\n");
        out.push_str("// --------------------------- ---- -- --------- ------- -------\n");
        for i in &ifce.instances {
            out.push_str("// ");
            left_str(out, i.name, 27);
            out.push(' ');
            right_dec(out, i.type_index, 4);
            out.push(' ');
            bound(out, i.constant_buffer, 2);
            out.push(' ');
            bound(out, i.constant_buffer_offset, 9);
            out.push(' ');
            bound(out, i.texture, 7);
            out.push(' ');
            bound(out, i.sampler, 7);
            out.push('\n');
        }
        out.push_str("//\n");
    }
    if ifce.slots.is_empty() {
        return;
    }
    out.push_str("// Interface slots, ");
    dec(out, ifce.slot_count);
    out.push_str(" total:\n//\n");
    out.push_str("//             Slots\n");
    const RULE: &str = "// +----------+---------+---------------------------------------\n";
    out.push_str(RULE);
    let mut first: u64 = 0;
    for s in &ifce.slots {
        // Slot numbers only feed the text; a sum of `u32` spans cannot reach `u64::MAX`.
        let last = first.saturating_add(u64::from(s.slot_span.saturating_sub(1)));
        out.push_str("// | Type ID  |   ");
        left(out, 6, |out| {
            dec(out, first);
            if last != first {
                out.push('-');
                dec(out, last);
            }
        });
        out.push('|');
        for &t in &s.type_ids {
            left_dec(out, t, 5);
        }
        out.push_str("\n// | Table ID |         |");
        for &t in &s.table_ids {
            left_dec(out, t, 5);
        }
        out.push('\n');
        out.push_str(RULE);
        first = last.saturating_add(1);
    }
}
