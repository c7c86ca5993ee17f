//! `// Resource Bindings:` in its three layouts: `Slot Elements` (compilers before
//! 10.x), `HLSL Bind  Count` (10.x) and `ID      HLSL Bind  Count` (10.x, SM5.1 blobs
//! whose bindings carry a register space and range ID).

use dxbc::rdef::{Rdef, ResourceBinding, ResourceDimension, ShaderInputType};

use super::columns::{dec, left_str, right, right_dec, right_str};
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
        out.push_str("// ");
        left_str(out, b.name, 30);
        out.push(' ');
        write_columns(out, b, flavor);
        if flavor.old_bindings {
            out.push(' ');
            right_dec(out, b.bind_point, 4);
            out.push(' ');
            right_dec(out, b.bind_count, 8);
            out.push('\n');
        } else {
            let (bind_prefix, id_prefix) = b.input_type.register_class();
            if with_id {
                out.push(' ');
                right(out, 7, |out| {
                    out.push_str(id_prefix);
                    dec(out, b.id);
                });
            }
            out.push(' ');
            right(out, 14, |out| {
                out.push_str(bind_prefix);
                dec(out, b.bind_point);
                if with_id && b.space != 0 {
                    out.push_str(",space");
                    dec(out, b.space);
                }
            });
            out.push(' ');
            if b.bind_count == 0 || b.bind_count == u32::MAX {
                right_str(out, "unbounded", 6);
            } else {
                right_dec(out, b.bind_count, 6);
            }
            out.push_str(" \n");
        }
    }
    out.push_str("//\n//\n");
}

/// The Type, Format and Dim columns (`{:>10} {:>7} {:>11}`). The Dim column of the old
/// layout adds the sample count of multisampled textures.
fn write_columns(out: &mut String, b: &ResourceBinding<'_>, flavor: Flavor) {
    let with_samples = flavor.old_bindings;
    let kind = binding_kind(b.input_type, b.flags);
    let type_name = match (kind, b.input_type) {
        (Some(k), _) => k.kind,
        (None, ShaderInputType::Unknown(_)) => "unknown",
        (None, _) => "UAV",
    };
    right_str(out, type_name, 10);
    out.push(' ');
    right(out, 7, |out| match kind.and_then(|k| k.format) {
        Some(f) => out.push_str(f),
        None => match RETURN_TYPES.name(b.return_type) {
            Some(base) => {
                out.push_str(base);
                // Two bits: 1 to 4 components, never saturates.
                let components = ((b.flags >> 2) & 3).saturating_add(1);
                if components != 1 {
                    dec(out, components);
                }
            }
            None => out.push_str(NA),
        },
    });
    out.push(' ');
    right(out, 11, |out| match kind.and_then(|k| k.dim) {
        Some(d) => out.push_str(d),
        None => {
            let name = match b.dimension {
                ResourceDimension::Texture2DMsArray if flavor.array_ms => TEXTURE2DMS_ARRAY_6_3,
                d => DIMENSIONS.name(d).unwrap_or(NA),
            };
            out.push_str(name);
            let samples = with_samples && b.num_samples != 0 && b.num_samples != u32::MAX;
            if samples && MULTISAMPLED.contains(&b.dimension) {
                dec(out, b.num_samples);
            }
        }
    });
}
