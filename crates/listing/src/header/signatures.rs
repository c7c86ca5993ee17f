//! The signature tables: `// Patch Constant signature:`, `// Input signature:`,
//! `// Output signature:`.

use std::fmt::Write;

use dxbc::signature::SystemValue;
use dxbc::{Signature, SignatureElement};
use tpf::ProgramType;

use super::names::{self, NAMED_REGISTERS, NOT_APPLICABLE, SYSTEM_VALUES};
use super::{Chunks, Flavor};

pub(super) fn write_signatures(out: &mut String, c: &Chunks<'_>, flavor: Flavor) {
    let mut blocks: Vec<(&str, &str, Option<&Signature<'_>>, bool)> = Vec::new();
    if let Some(p) = &c.patch {
        // The hull shader writes the patch constants, the domain shader reads them.
        blocks.push(("Patch Constant", "Patch Constant", Some(p), c.stage != Some(ProgramType::Domain)));
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
        let pixel_output = is_output && c.stage == Some(ProgramType::Pixel);
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
    let sv = system_value(e, pixel_output);
    let sysval = SYSTEM_VALUES.name(sv).unwrap_or("UNKNOWN");
    let used = if is_output { e.mask & !e.rw_mask & 0xf } else { e.rw_mask & 0xf };
    let (mask, register, used) = if e.register == u32::MAX {
        let reg = NAMED_REGISTERS.name(sv).unwrap_or(NOT_APPLICABLE);
        (NOT_APPLICABLE.to_string(), reg.to_string(), if used != 0 { "YES" } else { "NO" }.to_string())
    } else {
        (components(e.mask), e.register.to_string(), components(used))
    };
    let width = if flavor.fxc_9_29 { 6 } else { 7 };
    let _ = writeln!(
        out,
        "// {name:<20} {:>5} {mask:>6} {register:>8} {sysval:>8} {:>width$} {used:>6}",
        e.semantic_index,
        names::format_name(e.component_type, e.min_precision),
    );
}

/// The SysValue column. Pixel-shader outputs carry no system value in the chunk; the
/// column then follows the semantic name.
fn system_value(e: &SignatureElement<'_>, pixel_output: bool) -> SystemValue {
    if pixel_output && e.system_value == SystemValue::Undefined {
        names::pixel_output_system_value(e.semantic_name)
    } else {
        e.system_value
    }
}
