//! The signature tables: `// Patch Constant signature:`, `// Input signature:`,
//! `// Output signature:`.

use dxbc::signature::SystemValue;
use dxbc::SignatureElement;
use tpf::ProgramType;

use super::columns::{dec, left, left_str, right_dec, spaces};
use super::names::{self, NAMED_REGISTERS, NOT_APPLICABLE, SYSTEM_VALUES};
use super::{Chunks, Flavor};

pub(super) fn write_signatures(out: &mut String, c: &Chunks<'_>, flavor: Flavor) {
    // The hull shader writes the patch constants, the domain shader reads them.
    let patch = c.patch.as_ref().map(|p| ("Patch Constant", Some(p), c.stage != Some(ProgramType::Domain)));
    let blocks = [patch, Some(("Input", c.input.as_ref(), false)), Some(("Output", c.output.as_ref(), true))];
    for (i, (title, sig, is_output)) in blocks.into_iter().flatten().enumerate() {
        if i > 0 {
            out.push_str("//\n");
        }
        out.push_str("// ");
        out.push_str(title);
        out.push_str(" signature:\n//\n");
        if flavor.fxc_9_29 {
            out.push_str("// Name                 Index   Mask Register SysValue Format   Used\n");
            out.push_str("// -------------------- ----- ------ -------- -------- ------ ------\n");
        } else {
            out.push_str("// Name                 Index   Mask Register SysValue  Format   Used\n");
            out.push_str("// -------------------- ----- ------ -------- -------- ------- ------\n");
        }
        let elements = sig.map(|s| &s.elements[..]).unwrap_or(&[]);
        if elements.is_empty() {
            out.push_str("// no ");
            out.push_str(title);
            out.push('\n');
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

/// The letters of the components in `mask` (its low four bits), blanks for the others
/// (`xy w`), right-aligned in the 6 columns of the Mask and Used columns: one copy into
/// the listing rather than the padding and the letters apart.
fn components6(mask: u8) -> &'static str {
    const MASKS: [&str; 16] = [
        "      ", "  x   ", "   y  ", "  xy  ", "    z ", "  x z ", "   yz ", "  xyz ", "     w", "  x  w", "   y w",
        "  xy w", "    zw", "  x zw", "   yzw", "  xyzw",
    ];
    MASKS.get(usize::from(mask & 0xf)).copied().unwrap_or_default()
}

fn write_row(
    out: &mut String,
    e: &SignatureElement<'_>,
    is_output: bool,
    pixel_output: bool,
    streams: bool,
    flavor: Flavor,
) {
    let sv = system_value(e, pixel_output);
    let sysval = SYSTEM_VALUES.name(sv).unwrap_or("UNKNOWN");
    let used = if is_output { e.mask & !e.rw_mask & 0xf } else { e.rw_mask & 0xf };
    out.push_str("// ");
    if streams {
        left(out, 20, |out| {
            out.push('m');
            dec(out, e.stream);
            out.push(':');
            out.push_str(e.semantic_name);
        });
        out.push(' ');
    } else {
        left_str(out, e.semantic_name, 20);
        out.push(' ');
    }
    right_dec(out, e.semantic_index, 5);
    if e.register == u32::MAX {
        let reg = NAMED_REGISTERS.name(sv).unwrap_or(NOT_APPLICABLE);
        // `N/A` in the Mask column, right-aligned in 6 after its separator.
        out.push_str("    N/A");
        blank_right(out, reg, 8);
    } else {
        out.push(' ');
        out.push_str(components6(e.mask));
        out.push(' ');
        right_dec(out, e.register, 8);
    }
    blank_right(out, sysval, 8);
    let width = if flavor.fxc_9_29 { 6 } else { 7 };
    blank_right(out, names::format_name(e.component_type, e.min_precision), width);
    if e.register == u32::MAX {
        out.push_str(if used != 0 { "    YES\n" } else { "     NO\n" });
    } else {
        out.push(' ');
        out.push_str(components6(used));
        out.push('\n');
    }
}

/// A blank and the ASCII name `s` right-aligned in `width` columns (` {s:>width}`), the
/// blank and the padding in one fill.
fn blank_right(out: &mut String, s: &str, width: usize) {
    debug_assert!(s.is_ascii());
    spaces(out, width.saturating_sub(s.len()).saturating_add(1));
    out.push_str(s);
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

#[cfg(test)]
mod tests {
    /// Each mask's column is `{:>6}` of its letters, blanks for the others.
    #[test]
    fn mask_columns_are_the_letters_right_aligned_in_six() {
        for mask in 0u8..=255 {
            let letters: String =
                "xyzw".chars().enumerate().map(|(i, c)| if (mask >> i) & 1 != 0 { c } else { ' ' }).collect();
            assert_eq!(super::components6(mask), format!("{letters:>6}"), "{mask:#x}");
        }
    }
}
