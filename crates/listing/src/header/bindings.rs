//! `// Resource Bindings:` in its three layouts: `Slot Elements` (compilers before
//! 10.x), `HLSL Bind  Count` (10.x) and `ID      HLSL Bind  Count` (10.x, SM5.1 blobs
//! whose bindings carry a register space and range ID).

use std::fmt::Write;

use dxbc::rdef::{input_flags, Rdef, ResourceBinding, ResourceDimension, ReturnType, ShaderInputType};

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
        let _ =
            write!(out, "// {:<30} {:>10} {:>7} {:>11}", b.name, kind(b), format(b), dimension(b, flavor.old_bindings));
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

fn kind(b: &ResourceBinding<'_>) -> &'static str {
    use ShaderInputType as S;
    match b.input_type {
        S::CBuffer => "cbuffer",
        S::TBuffer => "tbuffer",
        S::Sampler if b.flags & input_flags::COMPARISON_SAMPLER != 0 => "sampler_c",
        S::Sampler => "sampler",
        S::Texture | S::Structured | S::ByteAddress => "texture",
        S::RtAccelerationStructure => "rtaccel",
        S::Unknown(_) => "unknown",
        _ => "UAV",
    }
}

fn format(b: &ResourceBinding<'_>) -> String {
    use ShaderInputType as S;
    match b.input_type {
        S::CBuffer | S::TBuffer | S::Sampler => return "NA".into(),
        S::Structured
        | S::UavRwStructured
        | S::UavAppendStructured
        | S::UavConsumeStructured
        | S::UavRwStructuredWithCounter => return "struct".into(),
        S::ByteAddress | S::UavRwByteAddress => return "byte".into(),
        _ => {}
    }
    let base = match b.return_type {
        ReturnType::Unorm => "unorm",
        ReturnType::Snorm => "snorm",
        ReturnType::Sint => "sint",
        ReturnType::Uint => "uint",
        ReturnType::Float => "float",
        ReturnType::Mixed => "mixed",
        ReturnType::Double => "double",
        ReturnType::Continued => "continued",
        ReturnType::None | ReturnType::Unknown(_) => return "NA".into(),
    };
    let components = ((b.flags >> 2) & 3) + 1;
    if components == 1 {
        base.into()
    } else {
        format!("{base}{components}")
    }
}

fn dimension(b: &ResourceBinding<'_>, with_samples: bool) -> String {
    use ShaderInputType as S;
    match b.input_type {
        S::CBuffer | S::TBuffer | S::Sampler => return "NA".into(),
        S::Structured | S::ByteAddress => return "r/o".into(),
        S::UavRwStructured | S::UavRwByteAddress => return "r/w".into(),
        S::UavAppendStructured => return "append".into(),
        S::UavConsumeStructured => return "consume".into(),
        S::UavRwStructuredWithCounter => return "r/w+cnt".into(),
        _ => {}
    }
    use ResourceDimension as D;
    let samples = |name: &str| {
        if with_samples && b.num_samples != 0 && b.num_samples != u32::MAX {
            format!("{name}{}", b.num_samples)
        } else {
            name.to_string()
        }
    };
    match b.dimension {
        D::Buffer => "buf".into(),
        D::Texture1D => "1d".into(),
        D::Texture1DArray => "1darray".into(),
        D::Texture2D => "2d".into(),
        D::Texture2DArray => "2darray".into(),
        D::Texture2DMs => samples("2dMS"),
        D::Texture2DMsArray => samples("2dMSarray"),
        D::Texture3D => "3d".into(),
        D::TextureCube => "cube".into(),
        D::TextureCubeArray => "cubearray".into(),
        D::BufferEx => "bufex".into(),
        D::Unknown0 | D::Unknown(_) => "NA".into(),
    }
}
