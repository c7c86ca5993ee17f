//! Typed buffer views (`Buffer<T>` SRVs, `dcl_resource_buffer`; `RWBuffer<T>` UAVs,
//! `dcl_uav_typed_buffer`) as storage buffers of 32-bit words.
//!
//! WGSL has no texel buffers, so the translated shader converts each element itself:
//! element `i` of a view of format `F` is the `F.size()` bytes at byte `i * F.size()`
//! of the storage buffer (an `array<u32>`), little-endian, its components where the
//! `dxgi` crate's table puts them (from the lowest bit in the format's name order:
//! `R8G8B8A8`, R in bits 0–7). The generated functions walk the format's components in
//! that table, each converted by its encoding, so that no format is named here. The
//! view's format is not in the bytecode: it is [`default_format`] unless
//! [`crate::Bindings::formats`] names one for the register; the formats converted are
//! the table's but the sRGB and depth ones ([`converts`]).
//!
//! Conversions (Direct3D 11.3 functional spec, 3.2 "Data Conversion"), each written
//! once as a WGSL helper in the prelude on integer bits, so that no device arithmetic
//! rounds anything:
//! - loads: UNORM `c / (2^n - 1)` and SNORM `max(c / (2^(n-1) - 1), -1)` correctly
//!   rounded to float32 (`dx_udivf`, a long division); 16-bit floats widened exactly
//!   (denormals become normal float32s, NaNs stay NaNs, quiet); 11- and 10-bit floats
//!   widened exactly (NaN becomes the float32 quiet NaN `0x7fc00000`); integers zero-
//!   or sign-extended; float32 bits as they are; components the format lacks read 0,
//!   and alpha 1 (1.0 or integer 1);
//! - stores: float to UNORM/SNORM clamps to the range (NaN gives 0), multiplies by
//!   `2^n - 1` (`2^(n-1) - 1`) and rounds to nearest even; float to 16-bit float rounds
//!   toward zero, values beyond the half range become the largest half, infinities and
//!   NaNs stay; float to 11/10-bit float as that, negative values and -0 giving 0;
//!   integers to narrower integers clamp (unsigned as unsigned, signed as signed);
//! - out of bounds (an element at or past `bytes / size`, the view's element count):
//!   a load reads the element as zero bytes (0 in the format's components, the
//!   defaults for the others), a store does nothing, an atomic does nothing and returns
//!   0 (the functional spec's out-of-bounds rules for typed resources).
//!
//! Elements narrower than a word (R8, R8G8, R16 formats) share words with their
//! neighbours: a UAV of such a format is an array of `atomic<u32>`, and a store clears
//! and sets only its own bits (`atomicAnd`, `atomicOr`), so that concurrent stores to
//! neighbouring elements do not lose each other. sRGB formats are not converted (their
//! transfer function needs a power function whose device precision is not exact), nor
//! depth formats (not buffer views).

use std::fmt::Write as _;

pub use dxgi::{Encoding, Format, Numeric};

/// Whether typed buffer views of `format` are converted: every format of the `dxgi`
/// table but the sRGB ones (see the module documentation) and the depth ones.
pub fn converts(format: Format) -> bool {
    !format.is_srgb() && !format.is_depth()
}

/// Every format typed buffer views are converted in, by `DXGI_FORMAT` value.
pub fn formats() -> impl Iterator<Item = Format> {
    Format::ALL.iter().copied().filter(|&f| converts(f))
}

/// The format a view gets when [`crate::Bindings::formats`] names none: the
/// four-component 32-bit format of its declared return type (`R32G32B32A32_FLOAT`,
/// `_UINT`, `_SINT`; stride 16), or for a UAV that atomics use, the one-component one
/// (`R32_UINT`, `R32_SINT`: the formats Direct3D allows atomics on).
pub fn default_format(numeric: Numeric, atomics: bool) -> Format {
    match (numeric, atomics) {
        (Numeric::Float, false) => Format::R32G32B32A32_FLOAT,
        (Numeric::Uint, false) => Format::R32G32B32A32_UINT,
        (Numeric::Sint, false) => Format::R32G32B32A32_SINT,
        (Numeric::Float, true) => Format::R32_FLOAT,
        (Numeric::Uint, true) => Format::R32_UINT,
        (Numeric::Sint, true) => Format::R32_SINT,
    }
}

/// How the generated functions reach the words of one view.
pub(crate) struct Storage<'a> {
    /// The variable (`t3`, `u0`).
    pub name: &'a str,
    /// `array<atomic<u32>>` (or `atomic<i32>` when `signed`).
    pub atomic: bool,
    /// The atomics are `atomic<i32>`.
    pub signed: bool,
}

impl Storage<'_> {
    fn read(&self, k: &str) -> String {
        match (self.atomic, self.signed) {
            (false, _) => format!("{}[{k}]", self.name),
            (true, false) => format!("atomicLoad(&{}[{k}])", self.name),
            (true, true) => format!("bitcast<u32>(atomicLoad(&{}[{k}]))", self.name),
        }
    }

    fn write(&self, k: &str, v: &str) -> String {
        match (self.atomic, self.signed) {
            (false, _) => format!("{}[{k}] = {v};", self.name),
            (true, false) => format!("atomicStore(&{}[{k}], {v});", self.name),
            (true, true) => format!("atomicStore(&{}[{k}], bitcast<i32>({v}));", self.name),
        }
    }
}

/// A mask of the `b` low bits.
fn low_bits(b: u32) -> u32 {
    u32::MAX.checked_shr(32u32.saturating_sub(b)).unwrap_or(0)
}

/// Bytes per element (1 to 16).
fn size(format: Format) -> u32 {
    u32::try_from(format.size()).unwrap_or(u32::MAX)
}

/// Where element `i` is: the condition that it is inside the view, and the index of
/// its first word (for elements narrower than a word, its word, and the shift of its
/// bits in it).
fn place(format: Format, name: &str) -> (String, String, Option<String>) {
    let size = size(format);
    if size >= 4 {
        let w = size / 4;
        (format!("i < arrayLength(&{name}) / {w}u"), format!("i * {w}u"), None)
    } else {
        let per = 4u32.checked_div(size).unwrap_or(1);
        (
            format!("i / {per}u < arrayLength(&{name})"),
            format!("i / {per}u"),
            Some(format!("(i % {per}u) * {}u", size.saturating_mul(8))),
        )
    }
}

/// A stored component the shader reads: its word in the element, its shift in the
/// word, its width, its encoding and its shader component (0 to 3).
struct Field {
    word: u32,
    shift: u32,
    bits: u32,
    encoding: Encoding,
    channel: usize,
}

/// The format's components from the `dxgi` table, but its unused bits.
fn fields(format: Format) -> impl Iterator<Item = Field> {
    format.components().iter().filter_map(|c| {
        let offset = u32::from(c.offset);
        Some(Field {
            word: offset / 32,
            shift: offset % 32,
            bits: u32::from(c.bits),
            encoding: c.encoding,
            channel: c.channel.index()?,
        })
    })
}

/// A `u32` literal.
fn literal(v: u32) -> String {
    if v < 10 {
        format!("{v}u")
    } else {
        format!("{v:#x}u")
    }
}

/// `fn {fn_name}(i: u32) -> vec4<u32>`: element `i` of the view, converted (see the
/// module documentation; an sRGB component would read as its UNORM value, but
/// [`converts`] refuses those formats before).
pub(crate) fn load_function(fn_name: &str, storage: &Storage<'_>, format: Format) -> String {
    let (inside, first, shift) = place(format, storage.name);
    let words = size(format).div_ceil(4);
    let mut s = format!("fn {fn_name}(i: u32) -> vec4<u32> {{\n");
    for k in 0..words {
        let _ = writeln!(s, "    var w{k} = 0u;");
    }
    let _ = writeln!(s, "    if ({inside}) {{");
    match &shift {
        Some(sh) => {
            let _ = writeln!(s, "        w0 = {} >> ({sh});", storage.read(&first));
        }
        None => {
            for k in 0..words {
                let _ = writeln!(s, "        w{k} = {};", storage.read(&format!("{first} + {k}u")));
            }
        }
    }
    s.push_str("    }\n");
    let mut out = format.defaults().map(literal);
    for Field { word, shift: sh, bits: b, encoding, channel } in fields(format) {
        let w = format!("w{word}");
        let field = if b == 32 { w.clone() } else { format!("extractBits({w}, {sh}u, {b}u)") };
        let signed = if b == 32 { w.clone() } else { format!("extractBits(bitcast<i32>({w}), {sh}u, {b}u)") };
        let (mask, half) = (low_bits(b), low_bits(b.saturating_sub(1)));
        let v = match encoding {
            Encoding::Uint | Encoding::Float => field,
            Encoding::Sint if b == 32 => field,
            Encoding::Sint => format!("bitcast<u32>({signed})"),
            Encoding::Half => format!("dx_half_bits({field})"),
            Encoding::UnsignedFloat { mantissa } => format!("dx_ufloat_bits({field}, {mantissa}u)"),
            Encoding::Unorm | Encoding::Srgb => format!("dx_udivf({field}, {mask}u)"),
            Encoding::Snorm => format!("dx_snorm_bits({signed}, {half}u)"),
        };
        if let Some(slot) = out.get_mut(channel) {
            *slot = v;
        }
    }
    let [x, y, z, w] = out;
    let _ = writeln!(s, "    return vec4<u32>({x}, {y}, {z}, {w});\n}}");
    s
}

/// `fn {fn_name}(i: u32, v: vec4<u32>)`: `v` (what the shader stores) converted and
/// written to element `i` of the view, when it is inside.
pub(crate) fn store_function(fn_name: &str, storage: &Storage<'_>, format: Format) -> String {
    let (inside, first, shift) = place(format, storage.name);
    let words = size(format).div_ceil(4);
    let mut s = format!("fn {fn_name}(i: u32, v: vec4<u32>) {{\n");
    let _ = writeln!(s, "    if (!({inside})) {{\n        return;\n    }}");
    let mut parts: Vec<Vec<String>> = vec![Vec::new(); words as usize];
    for Field { word, shift: sh, bits: b, encoding, channel } in fields(format) {
        let x = format!("v.{}", ['x', 'y', 'z', 'w'].get(channel).copied().unwrap_or('x'));
        let (mask, half) = (low_bits(b), low_bits(b.saturating_sub(1)));
        let e = match encoding {
            Encoding::Uint | Encoding::Sint | Encoding::Float if b == 32 => x,
            Encoding::Float => x,
            Encoding::Uint => format!("min({x}, {mask}u)"),
            Encoding::Sint => {
                format!(
                    "(bitcast<u32>(clamp(bitcast<i32>({x}), -{}, {half})) & {mask}u)",
                    u64::from(half).saturating_add(1)
                )
            }
            Encoding::Half => format!("(dx_f32tof16({x}) & 0xffffu)"),
            Encoding::UnsignedFloat { mantissa } => format!("dx_f_to_ufloat({x}, {mantissa}u)"),
            Encoding::Unorm | Encoding::Srgb => format!("dx_f_to_unorm({x}, {mask}u)"),
            Encoding::Snorm => format!("(dx_f_to_snorm({x}, {half}u) & {mask}u)"),
        };
        let e = if sh == 0 { e } else { format!("({e} << {sh}u)") };
        if let Some(p) = parts.get_mut(word as usize) {
            p.push(e);
        }
    }
    let word_value = |k: usize| -> String {
        let p = parts.get(k).map(|p| p.join(" | ")).unwrap_or_default();
        if p.is_empty() {
            "0u".into()
        } else {
            p
        }
    };
    match &shift {
        Some(sh) => {
            // An element inside one word, with neighbours: only its bits change.
            let mask = low_bits(size(format).saturating_mul(8));
            let _ = writeln!(s, "    let sh = {sh};\n    let m = {mask:#x}u << sh;");
            let _ = writeln!(s, "    atomicAnd(&{}[{first}], ~m);", storage.name);
            let _ = writeln!(s, "    atomicOr(&{}[{first}], (({}) << sh) & m);", storage.name, word_value(0));
        }
        None => {
            for k in 0..words {
                let line = storage.write(&format!("{first} + {k}u"), &word_value(k as usize));
                let _ = writeln!(s, "    {line}");
            }
        }
    }
    s.push_str("}\n");
    s
}

/// The element count of the view (`bufinfo`): its words' bytes / the element size.
pub(crate) fn element_count(format: Format, name: &str) -> String {
    let size = size(format);
    if size >= 4 {
        format!("(arrayLength(&{name}) / {}u)", size / 4)
    } else {
        format!("(arrayLength(&{name}) * {}u)", 4u32.checked_div(size).unwrap_or(1))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats_converted() {
        assert_eq!(formats().count(), 45);
        assert!(formats().all(|f| !f.is_srgb() && !f.is_depth()));
        for f in formats() {
            // No component straddles a word.
            for c in fields(f) {
                assert!(c.shift + c.bits <= 32, "{f}");
            }
        }
        assert!(!converts(Format::R8G8B8A8_UNORM_SRGB) && !converts(Format::D32_FLOAT));
        assert_eq!(default_format(Numeric::Uint, false), Format::R32G32B32A32_UINT);
        assert_eq!(default_format(Numeric::Sint, true), Format::R32_SINT);
    }

    #[test]
    fn sub_word_elements_mask_their_bits() {
        let s = store_function("st", &Storage { name: "u0", atomic: true, signed: false }, Format::R8G8_UNORM);
        assert!(s.contains("0xffffu << sh"), "{s}");
        assert!(s.contains("atomicAnd(&u0[i / 2u], ~m)"), "{s}");
        let l = load_function("ld", &Storage { name: "t0", atomic: false, signed: false }, Format::R16_SINT);
        assert!(l.contains("i / 2u < arrayLength(&t0)"), "{l}");
        assert!(
            l.contains("return vec4<u32>(bitcast<u32>(extractBits(bitcast<i32>(w0), 0u, 16u)), 0u, 0u, 1u)"),
            "{l}"
        );
    }
}
