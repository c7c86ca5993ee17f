//! The names fxc's listing prints for chunk values, for reports other than the
//! listing (`dxref info`): `NONE`, `POS`, `float`, `min16f`, `cbuffer`, `texture`,
//! `2d`. They are read from the header printer's own tables, so the two never differ.

use dxbc::rdef::{CbufferType, ResourceBinding, ResourceDimension, ShaderInputType};
use dxbc::signature::{ComponentType, MinPrecision, SystemValue};

use crate::header::names::{binding_kind, format_name, BUFFER_KINDS, DIMENSIONS, NA, RETURN_TYPES, SYSTEM_VALUES};

/// The SysValue column's name of a system value (`NONE`, `POS`, `TARGET`); `UNKNOWN`
/// for values it has no name for.
pub fn system_value(value: SystemValue) -> &'static str {
    SYSTEM_VALUES.name(value).unwrap_or("UNKNOWN")
}

/// The Format column's name of a component type and minimum precision (`float`,
/// `uint`, `int`, `min16f`); `unknown` for types without a name.
pub fn format(component_type: ComponentType, min_precision: MinPrecision) -> &'static str {
    format_name(component_type, min_precision)
}

/// The word that opens a buffer's block (`cbuffer`, `tbuffer`, `interfaces`,
/// `Resource bind info for`); `cbuffer` for kinds without a name, as fxc prints them.
pub fn buffer_kind(kind: CbufferType) -> &'static str {
    BUFFER_KINDS.name(kind).unwrap_or("cbuffer")
}

/// The Resource Bindings table's Type, Format and Dim columns of a binding, as
/// d3dcompiler_47 prints them (`texture`, `float4`, `2d`; `cbuffer`, `NA`, `NA`).
pub fn binding_columns(b: &ResourceBinding<'_>) -> (&'static str, String, String) {
    let kind = binding_kind(b.input_type, b.flags);
    let type_name = match (kind, b.input_type) {
        (Some(k), _) => k.kind,
        (None, ShaderInputType::Unknown(_)) => "unknown",
        (None, _) => "UAV",
    };
    let format = match (kind.and_then(|k| k.format), RETURN_TYPES.name(b.return_type)) {
        (Some(f), _) => f.to_string(),
        (None, Some(base)) => match ((b.flags >> 2) & 3).saturating_add(1) {
            1 => base.to_string(),
            n => format!("{base}{n}"),
        },
        (None, None) => NA.to_string(),
    };
    let dim = match kind.and_then(|k| k.dim) {
        Some(d) => d.to_string(),
        None => dimension(b.dimension).to_string(),
    };
    (type_name, format, dim)
}

/// The Dim column's name of a resource dimension (`buf`, `2d`, `cubearray`); `NA` for
/// none.
pub fn dimension(d: ResourceDimension) -> &'static str {
    DIMENSIONS.name(d).unwrap_or(NA)
}
