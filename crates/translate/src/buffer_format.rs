//! Typed buffer views (`Buffer<T>` SRVs, `dcl_resource_buffer`; `RWBuffer<T>` UAVs,
//! `dcl_uav_typed_buffer`) as storage buffers of 32-bit words.
//!
//! WGSL has no texel buffers, so the translated shader converts each element itself:
//! element `i` of a view of format `F` is the `F.size()` bytes at byte `i * F.size()`
//! of the storage buffer (an `array<u32>`), little-endian, its components packed from
//! the lowest bit in the format's name order (`R8G8B8A8`: R in bits 0–7). The view's
//! format is not in the bytecode: it is [`BufferFormat::default_for`] unless
//! [`crate::Bindings::formats`] names one for the register.
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
//! transfer function needs a power function whose device precision is not exact).

use std::fmt::Write as _;

/// A typed buffer view's element format (the value is `DXGI_FORMAT`'s).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[repr(u32)]
#[allow(non_camel_case_types, missing_docs)]
pub enum BufferFormat {
    R32G32B32A32_FLOAT = 2,
    R32G32B32A32_UINT = 3,
    R32G32B32A32_SINT = 4,
    R32G32B32_FLOAT = 6,
    R32G32B32_UINT = 7,
    R32G32B32_SINT = 8,
    R16G16B16A16_FLOAT = 10,
    R16G16B16A16_UNORM = 11,
    R16G16B16A16_UINT = 12,
    R16G16B16A16_SNORM = 13,
    R16G16B16A16_SINT = 14,
    R32G32_FLOAT = 16,
    R32G32_UINT = 17,
    R32G32_SINT = 18,
    R10G10B10A2_UNORM = 24,
    R10G10B10A2_UINT = 25,
    R11G11B10_FLOAT = 26,
    R8G8B8A8_UNORM = 28,
    R8G8B8A8_UINT = 30,
    R8G8B8A8_SNORM = 31,
    R8G8B8A8_SINT = 32,
    R16G16_FLOAT = 34,
    R16G16_UNORM = 35,
    R16G16_UINT = 36,
    R16G16_SNORM = 37,
    R16G16_SINT = 38,
    R32_FLOAT = 41,
    R32_UINT = 42,
    R32_SINT = 43,
    R8G8_UNORM = 49,
    R8G8_UINT = 50,
    R8G8_SNORM = 51,
    R8G8_SINT = 52,
    R16_FLOAT = 54,
    R16_UNORM = 56,
    R16_UINT = 57,
    R16_SNORM = 58,
    R16_SINT = 59,
    R8_UNORM = 61,
    R8_UINT = 62,
    R8_SNORM = 63,
    R8_SINT = 64,
    A8_UNORM = 65,
    B8G8R8A8_UNORM = 87,
    B8G8R8X8_UNORM = 88,
}

/// How a format's components are stored.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Kind {
    Float,
    Unorm,
    Snorm,
    Uint,
    Sint,
}

/// What a shader reads from a format.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Numeric {
    /// Floats (FLOAT, UNORM and SNORM formats): views declared `float`, `unorm`, `snorm`.
    Float,
    /// Unsigned integers (UINT formats).
    Uint,
    /// Signed integers (SINT formats).
    Sint,
}

impl BufferFormat {
    /// Every format converted.
    pub const ALL: &'static [BufferFormat] = &[
        BufferFormat::R32G32B32A32_FLOAT,
        BufferFormat::R32G32B32A32_UINT,
        BufferFormat::R32G32B32A32_SINT,
        BufferFormat::R32G32B32_FLOAT,
        BufferFormat::R32G32B32_UINT,
        BufferFormat::R32G32B32_SINT,
        BufferFormat::R16G16B16A16_FLOAT,
        BufferFormat::R16G16B16A16_UNORM,
        BufferFormat::R16G16B16A16_UINT,
        BufferFormat::R16G16B16A16_SNORM,
        BufferFormat::R16G16B16A16_SINT,
        BufferFormat::R32G32_FLOAT,
        BufferFormat::R32G32_UINT,
        BufferFormat::R32G32_SINT,
        BufferFormat::R10G10B10A2_UNORM,
        BufferFormat::R10G10B10A2_UINT,
        BufferFormat::R11G11B10_FLOAT,
        BufferFormat::R8G8B8A8_UNORM,
        BufferFormat::R8G8B8A8_UINT,
        BufferFormat::R8G8B8A8_SNORM,
        BufferFormat::R8G8B8A8_SINT,
        BufferFormat::R16G16_FLOAT,
        BufferFormat::R16G16_UNORM,
        BufferFormat::R16G16_UINT,
        BufferFormat::R16G16_SNORM,
        BufferFormat::R16G16_SINT,
        BufferFormat::R32_FLOAT,
        BufferFormat::R32_UINT,
        BufferFormat::R32_SINT,
        BufferFormat::R8G8_UNORM,
        BufferFormat::R8G8_UINT,
        BufferFormat::R8G8_SNORM,
        BufferFormat::R8G8_SINT,
        BufferFormat::R16_FLOAT,
        BufferFormat::R16_UNORM,
        BufferFormat::R16_UINT,
        BufferFormat::R16_SNORM,
        BufferFormat::R16_SINT,
        BufferFormat::R8_UNORM,
        BufferFormat::R8_UINT,
        BufferFormat::R8_SNORM,
        BufferFormat::R8_SINT,
        BufferFormat::A8_UNORM,
        BufferFormat::B8G8R8A8_UNORM,
        BufferFormat::B8G8R8X8_UNORM,
    ];

    /// The format named `name` (`R8G8B8A8_UNORM`, with or without `DXGI_FORMAT_`, any
    /// case).
    pub fn from_name(name: &str) -> Option<BufferFormat> {
        let upper = name.trim().to_ascii_uppercase();
        let n = upper.strip_prefix("DXGI_FORMAT_").unwrap_or(&upper);
        BufferFormat::ALL.iter().copied().find(|f| f.name() == n)
    }

    /// The format whose `DXGI_FORMAT` value is `v`.
    pub fn from_dxgi(v: u32) -> Option<BufferFormat> {
        BufferFormat::ALL.iter().copied().find(|f| *f as u32 == v)
    }

    /// `R8G8B8A8_UNORM`.
    pub fn name(self) -> &'static str {
        use BufferFormat::*;
        match self {
            R32G32B32A32_FLOAT => "R32G32B32A32_FLOAT",
            R32G32B32A32_UINT => "R32G32B32A32_UINT",
            R32G32B32A32_SINT => "R32G32B32A32_SINT",
            R32G32B32_FLOAT => "R32G32B32_FLOAT",
            R32G32B32_UINT => "R32G32B32_UINT",
            R32G32B32_SINT => "R32G32B32_SINT",
            R16G16B16A16_FLOAT => "R16G16B16A16_FLOAT",
            R16G16B16A16_UNORM => "R16G16B16A16_UNORM",
            R16G16B16A16_UINT => "R16G16B16A16_UINT",
            R16G16B16A16_SNORM => "R16G16B16A16_SNORM",
            R16G16B16A16_SINT => "R16G16B16A16_SINT",
            R32G32_FLOAT => "R32G32_FLOAT",
            R32G32_UINT => "R32G32_UINT",
            R32G32_SINT => "R32G32_SINT",
            R10G10B10A2_UNORM => "R10G10B10A2_UNORM",
            R10G10B10A2_UINT => "R10G10B10A2_UINT",
            R11G11B10_FLOAT => "R11G11B10_FLOAT",
            R8G8B8A8_UNORM => "R8G8B8A8_UNORM",
            R8G8B8A8_UINT => "R8G8B8A8_UINT",
            R8G8B8A8_SNORM => "R8G8B8A8_SNORM",
            R8G8B8A8_SINT => "R8G8B8A8_SINT",
            R16G16_FLOAT => "R16G16_FLOAT",
            R16G16_UNORM => "R16G16_UNORM",
            R16G16_UINT => "R16G16_UINT",
            R16G16_SNORM => "R16G16_SNORM",
            R16G16_SINT => "R16G16_SINT",
            R32_FLOAT => "R32_FLOAT",
            R32_UINT => "R32_UINT",
            R32_SINT => "R32_SINT",
            R8G8_UNORM => "R8G8_UNORM",
            R8G8_UINT => "R8G8_UINT",
            R8G8_SNORM => "R8G8_SNORM",
            R8G8_SINT => "R8G8_SINT",
            R16_FLOAT => "R16_FLOAT",
            R16_UNORM => "R16_UNORM",
            R16_UINT => "R16_UINT",
            R16_SNORM => "R16_SNORM",
            R16_SINT => "R16_SINT",
            R8_UNORM => "R8_UNORM",
            R8_UINT => "R8_UINT",
            R8_SNORM => "R8_SNORM",
            R8_SINT => "R8_SINT",
            A8_UNORM => "A8_UNORM",
            B8G8R8A8_UNORM => "B8G8R8A8_UNORM",
            B8G8R8X8_UNORM => "B8G8R8X8_UNORM",
        }
    }

    /// (kind, bits of each stored component from the lowest bit, the shader component
    /// each stored component is).
    pub(crate) fn layout(self) -> (Kind, &'static [u32], &'static [usize]) {
        use BufferFormat::*;
        use Kind::*;
        const RGBA: &[usize] = &[0, 1, 2, 3];
        match self {
            R32G32B32A32_FLOAT => (Float, &[32; 4], RGBA),
            R32G32B32A32_UINT => (Uint, &[32; 4], RGBA),
            R32G32B32A32_SINT => (Sint, &[32; 4], RGBA),
            R32G32B32_FLOAT => (Float, &[32; 3], RGBA),
            R32G32B32_UINT => (Uint, &[32; 3], RGBA),
            R32G32B32_SINT => (Sint, &[32; 3], RGBA),
            R16G16B16A16_FLOAT => (Float, &[16; 4], RGBA),
            R16G16B16A16_UNORM => (Unorm, &[16; 4], RGBA),
            R16G16B16A16_UINT => (Uint, &[16; 4], RGBA),
            R16G16B16A16_SNORM => (Snorm, &[16; 4], RGBA),
            R16G16B16A16_SINT => (Sint, &[16; 4], RGBA),
            R32G32_FLOAT => (Float, &[32; 2], RGBA),
            R32G32_UINT => (Uint, &[32; 2], RGBA),
            R32G32_SINT => (Sint, &[32; 2], RGBA),
            R10G10B10A2_UNORM => (Unorm, &[10, 10, 10, 2], RGBA),
            R10G10B10A2_UINT => (Uint, &[10, 10, 10, 2], RGBA),
            R11G11B10_FLOAT => (Float, &[11, 11, 10], RGBA),
            R8G8B8A8_UNORM => (Unorm, &[8; 4], RGBA),
            R8G8B8A8_UINT => (Uint, &[8; 4], RGBA),
            R8G8B8A8_SNORM => (Snorm, &[8; 4], RGBA),
            R8G8B8A8_SINT => (Sint, &[8; 4], RGBA),
            R16G16_FLOAT => (Float, &[16; 2], RGBA),
            R16G16_UNORM => (Unorm, &[16; 2], RGBA),
            R16G16_UINT => (Uint, &[16; 2], RGBA),
            R16G16_SNORM => (Snorm, &[16; 2], RGBA),
            R16G16_SINT => (Sint, &[16; 2], RGBA),
            R32_FLOAT => (Float, &[32], RGBA),
            R32_UINT => (Uint, &[32], RGBA),
            R32_SINT => (Sint, &[32], RGBA),
            R8G8_UNORM => (Unorm, &[8; 2], RGBA),
            R8G8_UINT => (Uint, &[8; 2], RGBA),
            R8G8_SNORM => (Snorm, &[8; 2], RGBA),
            R8G8_SINT => (Sint, &[8; 2], RGBA),
            R16_FLOAT => (Float, &[16], RGBA),
            R16_UNORM => (Unorm, &[16], RGBA),
            R16_UINT => (Uint, &[16], RGBA),
            R16_SNORM => (Snorm, &[16], RGBA),
            R16_SINT => (Sint, &[16], RGBA),
            R8_UNORM => (Unorm, &[8], RGBA),
            R8_UINT => (Uint, &[8], RGBA),
            R8_SNORM => (Snorm, &[8], RGBA),
            R8_SINT => (Sint, &[8], RGBA),
            A8_UNORM => (Unorm, &[8], &[3]),
            B8G8R8A8_UNORM => (Unorm, &[8; 4], &[2, 1, 0, 3]),
            B8G8R8X8_UNORM => (Unorm, &[8; 3], &[2, 1, 0]),
        }
    }

    /// Bytes per element: 1, 2, 4, 8, 12 or 16.
    pub fn size(self) -> u32 {
        match self {
            BufferFormat::B8G8R8X8_UNORM => 4,
            _ => self.layout().1.iter().sum::<u32>() / 8,
        }
    }

    /// What the shader reads: floats, unsigned or signed integers.
    pub fn numeric(self) -> Numeric {
        match self.layout().0 {
            Kind::Uint => Numeric::Uint,
            Kind::Sint => Numeric::Sint,
            _ => Numeric::Float,
        }
    }

    /// The format a view gets when [`crate::Bindings::formats`] names none: the
    /// four-component 32-bit format of its declared return type
    /// (`R32G32B32A32_FLOAT`, `_UINT`, `_SINT`; stride 16), or for a UAV that atomics
    /// use, the one-component one (`R32_UINT`, `R32_SINT`: the formats Direct3D allows
    /// atomics on).
    pub fn default_for(numeric: Numeric, atomics: bool) -> BufferFormat {
        match (numeric, atomics) {
            (Numeric::Float, false) => BufferFormat::R32G32B32A32_FLOAT,
            (Numeric::Uint, false) => BufferFormat::R32G32B32A32_UINT,
            (Numeric::Sint, false) => BufferFormat::R32G32B32A32_SINT,
            (Numeric::Float, true) => BufferFormat::R32_FLOAT,
            (Numeric::Uint, true) => BufferFormat::R32_UINT,
            (Numeric::Sint, true) => BufferFormat::R32_SINT,
        }
    }
}

impl std::fmt::Display for BufferFormat {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
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

/// Where element `i` is: the condition that it is inside the view, and the index of
/// its first word (for elements narrower than a word, its word, and the shift of its
/// bits in it).
fn place(format: BufferFormat, name: &str) -> (String, String, Option<String>) {
    let size = format.size();
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

/// The bit positions of the stored components: (word, shift, bits, shader component).
fn components(format: BufferFormat) -> Vec<(u32, u32, u32, usize)> {
    let (_, bits, order) = format.layout();
    let mut at = 0u32;
    let mut out = Vec::new();
    for (&b, &c) in bits.iter().zip(order) {
        out.push((at / 32, at % 32, b, c));
        at = at.saturating_add(b);
    }
    out
}

/// `fn {fn_name}(i: u32) -> vec4<u32>`: element `i` of the view, converted (see the
/// module documentation).
pub(crate) fn load_function(fn_name: &str, storage: &Storage<'_>, format: BufferFormat) -> String {
    let (kind, _, _) = format.layout();
    let (inside, first, shift) = place(format, storage.name);
    let words = format.size().div_ceil(4);
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
    let int = matches!(kind, Kind::Uint | Kind::Sint);
    let mut out: [String; 4] =
        ["0u".into(), "0u".into(), "0u".into(), if int { "1u".into() } else { "0x3f800000u".into() }];
    for (word, sh, b, c) in components(format) {
        let w = format!("w{word}");
        let field = if b == 32 { w.clone() } else { format!("extractBits({w}, {sh}u, {b}u)") };
        let signed = if b == 32 { w.clone() } else { format!("extractBits(bitcast<i32>({w}), {sh}u, {b}u)") };
        let (mask, half) = (low_bits(b), low_bits(b.saturating_sub(1)));
        let v = match (kind, b) {
            (Kind::Uint, _) | (Kind::Float, 32) | (Kind::Sint, 32) => field,
            (Kind::Sint, _) => format!("bitcast<u32>({signed})"),
            (Kind::Float, 16) => format!("dx_half_bits({field})"),
            (Kind::Float, 11) => format!("dx_ufloat_bits({field}, 6u)"),
            (Kind::Float, _) => format!("dx_ufloat_bits({field}, 5u)"),
            (Kind::Unorm, _) => format!("dx_udivf({field}, {mask}u)"),
            (Kind::Snorm, _) => format!("dx_snorm_bits({signed}, {half}u)"),
        };
        if let Some(slot) = out.get_mut(c) {
            *slot = v;
        }
    }
    let [x, y, z, w] = out;
    let _ = writeln!(s, "    return vec4<u32>({x}, {y}, {z}, {w});\n}}");
    s
}

/// `fn {fn_name}(i: u32, v: vec4<u32>)`: `v` (what the shader stores) converted and
/// written to element `i` of the view, when it is inside.
pub(crate) fn store_function(fn_name: &str, storage: &Storage<'_>, format: BufferFormat) -> String {
    let (kind, _, _) = format.layout();
    let (inside, first, shift) = place(format, storage.name);
    let words = format.size().div_ceil(4);
    let mut s = format!("fn {fn_name}(i: u32, v: vec4<u32>) {{\n");
    let _ = writeln!(s, "    if (!({inside})) {{\n        return;\n    }}");
    let mut parts: Vec<Vec<String>> = vec![Vec::new(); words as usize];
    for (word, sh, b, c) in components(format) {
        let x = format!("v.{}", ['x', 'y', 'z', 'w'].get(c).copied().unwrap_or('x'));
        let (mask, half) = (low_bits(b), low_bits(b.saturating_sub(1)));
        let e = match (kind, b) {
            (Kind::Uint | Kind::Sint | Kind::Float, 32) => x,
            (Kind::Uint, _) => format!("min({x}, {mask}u)"),
            (Kind::Sint, _) => {
                format!(
                    "(bitcast<u32>(clamp(bitcast<i32>({x}), -{}, {half})) & {mask}u)",
                    u64::from(half).saturating_add(1)
                )
            }
            (Kind::Float, 16) => format!("(dx_f32tof16({x}) & 0xffffu)"),
            (Kind::Float, 11) => format!("dx_f_to_ufloat({x}, 6u)"),
            (Kind::Float, _) => format!("dx_f_to_ufloat({x}, 5u)"),
            (Kind::Unorm, _) => format!("dx_f_to_unorm({x}, {mask}u)"),
            (Kind::Snorm, _) => format!("(dx_f_to_snorm({x}, {half}u) & {mask}u)"),
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
            let bits = format.size().saturating_mul(8);
            let mask = low_bits(bits);
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
pub(crate) fn element_count(format: BufferFormat, name: &str) -> String {
    let size = format.size();
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
    fn names_sizes_and_layouts() {
        for f in BufferFormat::ALL {
            assert_eq!(BufferFormat::from_name(f.name()), Some(*f));
            assert_eq!(BufferFormat::from_dxgi(*f as u32), Some(*f));
            let (_, bits, order) = f.layout();
            assert!(bits.len() <= order.len());
            assert!(bits.iter().sum::<u32>() <= f.size() * 8);
            // No component straddles a word.
            for (_, sh, b, _) in components(*f) {
                assert!(sh + b <= 32, "{f}");
            }
        }
        assert_eq!(BufferFormat::from_name("dxgi_format_r8g8b8a8_unorm"), Some(BufferFormat::R8G8B8A8_UNORM));
        assert_eq!(BufferFormat::from_name("R8G8B8A8_UNORM_SRGB"), None);
        assert_eq!(BufferFormat::R32G32B32_FLOAT.size(), 12);
        assert_eq!(BufferFormat::R8_UNORM.size(), 1);
        assert_eq!(BufferFormat::default_for(Numeric::Uint, false), BufferFormat::R32G32B32A32_UINT);
        assert_eq!(BufferFormat::default_for(Numeric::Sint, true), BufferFormat::R32_SINT);
    }

    #[test]
    fn sub_word_elements_mask_their_bits() {
        let s = store_function("st", &Storage { name: "u0", atomic: true, signed: false }, BufferFormat::R8G8_UNORM);
        assert!(s.contains("0xffffu << sh"), "{s}");
        assert!(s.contains("atomicAnd(&u0[i / 2u], ~m)"), "{s}");
        let l = load_function("ld", &Storage { name: "t0", atomic: false, signed: false }, BufferFormat::R16_SINT);
        assert!(l.contains("i / 2u < arrayLength(&t0)"), "{l}");
        assert!(
            l.contains("return vec4<u32>(bitcast<u32>(extractBits(bitcast<i32>(w0), 0u, 16u)), 0u, 0u, 1u)"),
            "{l}"
        );
    }
}
