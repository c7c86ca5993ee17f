//! `// Resource Bindings:` in its three layouts: `Slot Elements` (compilers before
//! 10.x), `HLSL Bind  Count` (10.x) and `ID      HLSL Bind  Count` (10.x, SM5.1 blobs
//! whose bindings carry a register space and range ID).

use std::fmt::Write;

use dxbc::rdef::{Rdef, ResourceBinding, ResourceDimension, ShaderInputType};

use super::names::{binding_kind, DIMENSIONS, MULTISAMPLED, NA, RETURN_TYPES, TEXTURE2DMS_ARRAY_6_3};
use super::Flavor;

pub(super) fn write_resource_bindings(out: &mut String, rdef: &Rdef<'_>, flavor: Flavor) {
    if rdef.bindings.is_empty() {
        return;
    }
    let with_id = rdef.rd11.is_some_and(|h| h.binding_size == 40);
    out.push_str("// Resource Bindings:\n//\n");
    if flavor.old_bindings {
        out.push_str("// Name                                 Type  Format         Dim Slot Elements\n");
        out.push_str("// ------------------------------ ---------- ------- ----------- ---- --------\n");
    } else if with_id {
        out.push_str(
            "// Name                                 Type  Format         Dim      ID      HLSL Bind  Count\n",
        );
        out.push_str(
            "// ------------------------------ ---------- ------- ----------- ------- -------------- ------\n",
        );
    } else {
        out.push_str("// Name                                 Type  Format         Dim      HLSL Bind  Count\n");
        out.push_str("// ------------------------------ ---------- ------- ----------- -------------- ------\n");
    }
    for b in &rdef.bindings {
        let (kind, format, dim) = columns(b, flavor);
        let _ = write!(out, "// {:<30} {kind:>10} {format:>7} {dim:>11}", b.name);
        let _ = if flavor.old_bindings {
            writeln!(out, " {:>4} {:>8}", b.bind_point, b.bind_count)
        } else {
            let (bind_prefix, id_prefix) = b.input_type.register_class();
            let mut bind = format!("{bind_prefix}{}", b.bind_point);
            if with_id {
                if b.space != 0 {
                    let _ = write!(bind, ",space{}", b.space);
                }
                let _ = write!(out, " {:>7}", format!("{id_prefix}{}", b.id));
            }
            writeln!(out, " {bind:>14} {:>6} ", count(b.bind_count))
        };
    }
    out.push_str("//\n//\n");
}

fn count(n: u32) -> String {
    if n == 0 || n == u32::MAX {
        "unbounded".to_string()
    } else {
        n.to_string()
    }
}

/// The Type, Format and Dim columns. The Dim column of the old layout adds the sample
/// count of multisampled textures.
fn columns(b: &ResourceBinding<'_>, flavor: Flavor) -> (&'static str, String, String) {
    let with_samples = flavor.old_bindings;
    let kind = binding_kind(b.input_type, b.flags);
    let type_name = match (kind, b.input_type) {
        (Some(k), _) => k.kind,
        (None, ShaderInputType::Unknown(_)) => "unknown",
        (None, _) => "UAV",
    };
    let format = match kind.and_then(|k| k.format) {
        Some(f) => f.to_string(),
        None => match RETURN_TYPES.name(b.return_type) {
            Some(base) => {
                // Two bits: 1 to 4 components, never saturates.
                let components = ((b.flags >> 2) & 3).saturating_add(1);
                if components == 1 {
                    base.to_string()
                } else {
                    format!("{base}{components}")
                }
            }
            None => NA.to_string(),
        },
    };
    let dim = match kind.and_then(|k| k.dim) {
        Some(d) => d.to_string(),
        None => {
            let name = match b.dimension {
                ResourceDimension::Texture2DMsArray if flavor.array_ms => TEXTURE2DMS_ARRAY_6_3,
                d => DIMENSIONS.name(d).unwrap_or(NA),
            };
            let samples = with_samples && b.num_samples != 0 && b.num_samples != u32::MAX;
            if samples && MULTISAMPLED.contains(&b.dimension) {
                format!("{name}{}", b.num_samples)
            } else {
                name.to_string()
            }
        }
    };
    (type_name, format, dim)
}
