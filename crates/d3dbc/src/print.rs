//! fxc's listing of a Shader Model 1–3 program, byte for byte.
//!
//! - [`Printer`] prints one instruction at a time into a caller's `String` (no
//!   allocation beyond the string's own growth): indentation (four spaces, two more per
//!   open `if` / `rep` / `loop`), co-issue `+`, predication `(p0.x)`, the mnemonic with
//!   its comparison suffix, shift scale and result modifiers, then the operands with
//!   fxc's register names, masks, shortened swizzles, source modifiers and relative
//!   addressing; `def` values with `%.9g` and the Microsoft C runtime's three-digit
//!   exponents (`1.#INF`, `-1.#IND`, `1.#QNAN`);
//! - [`print_program`]: the version line and every instruction;
//! - [`SlotCount`] / [`slot_count`]: the closing `// approximately N instruction slots
//!   used` line;
//! - [`listing`] / [`listing_program`]: the whole listing of a raw d3dbc stream, the
//!   comment header printed from the constant table (`CTAB`) as fxc writes it
//!   ([`HeaderStyle`]), and [`disassemble`] for `D3DDisassemble`'s variant of it.

use std::fmt::{self, Write as _};

use crate::ctab::ConstantTable;
use crate::ir::*;
use crate::table::{Controls, Opcode};

/// Why a listing could not be printed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ListingError {
    /// The token stream does not decode.
    Decode(crate::DecodeError),
}

impl fmt::Display for ListingError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ListingError::Decode(e) => write!(f, "the program does not decode: {e}"),
        }
    }
}

impl std::error::Error for ListingError {}

impl From<crate::DecodeError> for ListingError {
    fn from(e: crate::DecodeError) -> ListingError {
        ListingError::Decode(e)
    }
}

/// The deepest nesting the printer indents for (see [`crate::limits`]).
pub use crate::limits::MAX_INDENT_DEPTH;

/// What `D3DDisassemble`'s disassembly flags add to the listing of a Shader Model 1–3
/// program (learned from d3dcompiler_47 on the oracle's programs; see Microsoft's
/// `D3DDisassemble` page for the flags).
///
/// The columns come before the instruction's indentation, on instruction lines only (not
/// on the version line, the comment header, `#line` lines or the slot line):
///
/// - `numbering` (`D3D_DISASM_ENABLE_INSTRUCTION_NUMBERING`, fxc `/Ni`): a six-character
///   column, `%4d: ` (`%4d  ` when the offsets follow), holding the arithmetic slots
///   counted before the instruction (the count [`SlotCount`] keeps, so a texture
///   instruction shows the number of the next arithmetic one and a three-slot `if`
///   advances it by three); blank for the instructions
///   [`crate::table::numbered_in_listing`] leaves out (`dcl`, the `def`s, `nop`,
///   `label`, co-issued instructions);
/// - `offsets` (`D3D_DISASM_ENABLE_INSTRUCTION_OFFSET`, fxc `/No`): `0x%08X: `, the
///   byte offset of the instruction token in the token stream (the version token at 0,
///   comment blocks included);
/// - `hex_literals` (`D3D_DISASM_PRINT_HEX_LITERALS`, fxc `/Lx`): `def` values as their
///   bits, `0x%08x`; `defi` and `defb` values are printed as without the flag.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Format {
    /// Instruction numbering.
    pub numbering: bool,
    /// Byte offsets.
    pub offsets: bool,
    /// Hexadecimal `def` values.
    pub hex_literals: bool,
}

/// Prints instructions of one program, keeping the flow-control nesting between calls.
#[derive(Debug, Clone)]
pub struct Printer {
    version: Version,
    depth: usize,
    format: Format,
    slots: SlotCount,
}

const SPACES: &str = "                                                                ";

#[inline]
fn indent(out: &mut String, n: usize) {
    let mut n = n;
    while n > 0 {
        let k = n.min(SPACES.len());
        out.push_str(&SPACES[..k]);
        n -= k;
    }
}

impl Printer {
    /// A printer for a program of `version`, at nesting depth 0.
    pub fn new(version: Version) -> Printer {
        Printer::with_format(version, Format::default())
    }

    /// A printer for a program of `version` in `format`.
    pub fn with_format(version: Version, format: Format) -> Printer {
        Printer { version, depth: 0, format, slots: SlotCount::default() }
    }

    /// The columns the printer adds.
    pub fn format(&self) -> Format {
        self.format
    }

    /// Writes one instruction line that starts at byte `offset` of the token stream,
    /// with its newline.
    pub fn instruction_at(&mut self, ins: &Instruction, offset: u32, out: &mut String) {
        self.instruction_text_at(ins, offset, out);
        out.push('\n');
    }

    /// Writes one instruction line that starts at byte `offset` of the token stream,
    /// with the columns of the printer's [`Format`] and without its newline.
    pub fn instruction_text_at(&mut self, ins: &Instruction, offset: u32, out: &mut String) {
        let number = self.slots.arithmetic;
        self.slots.add(self.version, ins);
        if self.format.numbering {
            if !crate::table::numbered_in_listing(self.version, ins) {
                out.push_str("      ");
            } else {
                push_padded(out, number, 4);
                out.push_str(if self.format.offsets { "  " } else { ": " });
            }
        }
        if self.format.offsets {
            push_hex8(out, offset, true);
            out.push_str(": ");
        }
        self.instruction_text(ins, out);
    }

    /// The program's version.
    pub fn version(&self) -> Version {
        self.version
    }

    /// The current flow-control nesting depth.
    pub fn depth(&self) -> usize {
        self.depth
    }

    /// Writes the version line (`    ps_2_0\n`).
    pub fn version_line(&self, out: &mut String) {
        out.push_str("    ");
        write_version(out, self.version);
        out.push('\n');
    }

    /// Writes one instruction line, with its newline.
    pub fn instruction(&mut self, ins: &Instruction, out: &mut String) {
        self.instruction_text(ins, out);
        out.push('\n');
    }

    /// Writes one instruction line without its newline (for a caller that appends a
    /// comment to it), and updates the nesting depth.
    pub fn instruction_text(&mut self, ins: &Instruction, out: &mut String) {
        let v = self.version;
        let flow = ins.opcode.info().flow;
        use crate::table::Flow;
        // Microsoft's disassembler keeps a depth counter: `else` prints one level out
        // and opens one level below where it printed, end markers close one level
        // (never below zero).
        let this_depth = match flow {
            Flow::Else | Flow::Endif | Flow::Endrep | Flow::Endloop => self.depth.saturating_sub(1),
            _ => self.depth,
        };
        self.depth = match flow {
            Flow::If | Flow::IfComp | Flow::Rep | Flow::Loop => self.depth + 1,
            Flow::Else => this_depth + 1,
            Flow::Endif | Flow::Endrep | Flow::Endloop => this_depth,
            _ => self.depth,
        };
        // Four spaces and two a level (`+ ` in the last two for a co-issued
        // instruction), each piece pushed as a constant, without a call to `memcpy`.
        if ins.coissue {
            out.push_str("  ");
        } else {
            out.push_str("    ");
        }
        for _ in 0..this_depth.min(MAX_INDENT_DEPTH) {
            out.push_str("  ");
        }
        if ins.coissue {
            out.push_str("+ ");
        }
        if let Some(p) = &ins.predicate {
            // Only `!` of the predicate's modifiers is shown.
            out.push('(');
            if p.modifier == SrcModifier::Not {
                out.push('!');
            }
            write_register(out, v, p.reg);
            write_relative(out, v, &p.rel);
            write_swizzle(out, p.swizzle);
            out.push_str(") ");
        }
        if ins.opcode == Opcode::Breakp && ins.dst.is_none() && ins.srcs.len() == 1 {
            // Microsoft's disassembler prints `breakp` as `break` with its operand read
            // as a destination parameter (swizzle bits as write mask and result
            // modifiers, source-modifier bits as shift scale): `break p0.` for
            // `breakp p0.x`.
            let s = &ins.srcs[0];
            let d = DstParam {
                reg: s.reg,
                mask: Mask(s.swizzle.0 & 15),
                modifiers: ResultModifiers(s.swizzle.0 >> 4),
                shift: s.modifier.to_u8(),
                rel: s.rel,
                reserved: 0,
            };
            out.push_str("break");
            write_dst_modifiers(out, &d);
            out.push(' ');
            write_dst(out, v, &d);
            return;
        }
        write_mnemonic(out, v, ins);
        if let Some(d) = &ins.dst {
            if ins.opcode != Opcode::Dcl {
                write_dst_modifiers(out, d);
            }
        }
        match ins.body {
            Body::Dcl(t) => {
                let Some(d) = &ins.dst else { return };
                write_dcl_suffix(out, v, &t, d);
                write_dst_modifiers(out, d);
                out.push(' ');
                write_dst(out, v, d);
                return;
            }
            Body::Def(vals) => {
                if let Some(d) = &ins.dst {
                    out.push(' ');
                    write_dst(out, v, d);
                }
                for x in vals {
                    out.push_str(", ");
                    if self.format.hex_literals {
                        push_hex8(out, x, false);
                    } else {
                        write_float(out, f32::from_bits(x));
                    }
                }
                return;
            }
            Body::DefI(vals) => {
                if let Some(d) = &ins.dst {
                    out.push(' ');
                    write_dst(out, v, d);
                }
                for x in vals {
                    out.push_str(", ");
                    push_signed(out, x as i32);
                }
                return;
            }
            Body::DefB(b) => {
                if let Some(d) = &ins.dst {
                    out.push(' ');
                    write_dst(out, v, d);
                }
                out.push_str(if b != 0 { ", true" } else { ", false" });
                return;
            }
            Body::None => {}
        }
        let mut first = true;
        let mut sep = |out: &mut String| {
            if first {
                out.push(' ');
            } else {
                out.push_str(", ");
            }
            first = false;
        };
        if let Some(d) = &ins.dst {
            sep(out);
            write_dst(out, v, d);
        }
        for s in &ins.srcs {
            sep(out);
            write_src(out, v, s);
        }
    }
}

/// `vs_2_0`, `ps_2_x`, `ps_3_sw`, `vs_1_5`... as fxc writes the version line.
fn write_version(out: &mut String, v: Version) {
    out.push_str(v.kind.prefix());
    match v.minor {
        0xff if v.major == 2 || v.major == 3 => {
            out.push('_');
            push_decimal(out, u32::from(v.major));
            out.push_str("_sw");
        }
        1 if v.major == 2 => out.push_str("_2_x"),
        m => {
            out.push('_');
            push_decimal(out, u32::from(v.major));
            out.push('_');
            push_decimal(out, u32::from(m));
        }
    }
}

fn write_mnemonic(out: &mut String, v: Version, ins: &Instruction) {
    let info = ins.opcode.info();
    if ins.opcode == Opcode::Dcl {
        out.push_str("dcl");
        return;
    }
    out.push_str(info.mnemonic_for(v.kind, v.ver()));
    match info.controls {
        Controls::Compare => {
            if let Some(c) = Comparison::from_u8(ins.controls) {
                out.push('_');
                out.push_str(c.name());
            }
        }
        // `texldp` / `texldb` from pixel 1.4 on, for exactly one of the two bits.
        Controls::TexLd if v.ver() >= crate::table::V1_4 => match ins.controls {
            texld::PROJECT => out.push('p'),
            texld::BIAS => out.push('b'),
            _ => {}
        },
        _ => {}
    }
}

/// `_x2` ... the shift scale, then `_sat`, `_pp`, `_centroid`: a test inlined, the
/// text (rare) out of line.
#[inline(always)]
fn write_dst_modifiers(out: &mut String, d: &DstParam) {
    let m = d.modifiers;
    if d.shift & 15 != 0 || m.saturate() || m.partial_precision() || m.centroid() {
        write_dst_modifier_text(out, d);
    }
}

/// [`write_dst_modifiers`] of a destination with some.
fn write_dst_modifier_text(out: &mut String, d: &DstParam) {
    let s = match d.shift & 15 {
        1 => "_x2",
        2 => "_x4",
        3 => "_x8",
        13 => "_d8",
        14 => "_d4",
        15 => "_d2",
        _ => "",
    };
    if !s.is_empty() {
        out.push_str(s);
    }
    if d.modifiers.saturate() {
        out.push_str("_sat");
    }
    if d.modifiers.partial_precision() {
        out.push_str("_pp");
    }
    if d.modifiers.centroid() {
        out.push_str("_centroid");
    }
}

/// The `_<usage><index>` / `_<texture type>` part of a `dcl` (nothing for a plain `dcl`).
fn write_dcl_suffix(out: &mut String, v: Version, t: &DclToken, d: &DstParam) {
    if d.reg.ty == RegisterType::Sampler {
        match t.texture_type {
            0 => {}
            2 => return out.push_str("_2d"),
            3 => return out.push_str("_cube"),
            4 => return out.push_str("_volume"),
            _ => return out.push_str("_unknown"),
        }
    }
    let usage = t.usage & 15;
    if v.is_pixel() && usage == 0 && t.usage_index == 0 {
        return;
    }
    out.push('_');
    out.push_str(Usage::from_u8(usage).name().unwrap_or("unknown"));
    if t.usage_index != 0 {
        push_decimal(out, u32::from(t.usage_index));
    }
}

/// A register's name: `r0`, `c4`, `oPos`, `oT1` / `o1`, `a0` / `t0`, `vPos`, `aL`...
#[inline]
pub fn write_register(out: &mut String, v: Version, r: Register) {
    use RegisterType as T;
    let n = r.num as u32;
    // The one-letter names with their number, the common case, pushed as a letter;
    // the others (a longer name, or none) from `write_other_register`.
    let (letter, number) = match r.ty {
        T::Temp => (b'r', n),
        T::Input => (b'v', n),
        T::Const => (b'c', n),
        T::Const2 => (b'c', n + 2048),
        T::Const3 => (b'c', n + 4096),
        T::Const4 => (b'c', n + 6144),
        T::AddrOrTexture if v.is_pixel() => (b't', n),
        T::AddrOrTexture => (b'a', n),
        T::Output if v.major >= 3 => (b'o', n),
        T::ConstInt => (b'i', n),
        T::Sampler => (b's', n),
        T::ConstBool => (b'b', n),
        T::Label => (b'l', n),
        T::Predicate => (b'p', n),
        T::TempFloat16 | T::Unknown(_) => (b'x', n),
        _ => return write_other_register(out, r),
    };
    out.push(char::from(letter));
    push_decimal(out, number);
}

/// [`write_register`] for the registers whose name is not one letter and a number.
#[inline(never)]
fn write_other_register(out: &mut String, r: Register) {
    use RegisterType as T;
    let n = r.num as u32;
    // The name's letters, and the number after them (none for the named registers).
    let (prefix, number) = match r.ty {
        T::RastOut => match n {
            0 => ("oPos", None),
            1 => ("oFog", None),
            2 => ("oPts", None),
            _ => ("oX", Some(n)),
        },
        T::AttrOut => ("oD", Some(n)),
        // Below Shader Model 3 (`o#` is a one-letter name).
        T::Output => ("oT", Some(n)),
        T::ColorOut => ("oC", Some(n)),
        T::DepthOut => ("oDepth", None),
        T::Loop => ("aL", None),
        T::Misc => match n {
            0 => ("vPos", None),
            1 => ("vFace", None),
            _ => ("m", Some(n)),
        },
        // The one-letter names, written by `write_register`.
        _ => ("", None),
    };
    out.push_str(prefix);
    if let Some(n) = number {
        push_decimal(out, n);
    }
}

/// `00` to `99`, for two digits pushed as one string.
const PAIRS: &str = "00010203040506070809101112131415161718192021222324252627282930313233343536373839\
                     40414243444546474849505152535455565758596061626364656667686970717273747576777879\
                     8081828384858687888990919293949596979899";

/// `n` right-aligned in `width` columns (`%4d`), without `core::fmt`.
fn push_padded(out: &mut String, n: u32, width: usize) {
    let mut digits = 1;
    let mut m = n;
    while m >= 10 {
        m /= 10;
        digits += 1;
    }
    indent(out, width.saturating_sub(digits));
    push_decimal(out, n);
}

/// `n` in signed decimal (`%d`), without `core::fmt`.
fn push_signed(out: &mut String, n: i32) {
    if n < 0 {
        out.push('-');
    }
    push_decimal(out, n.unsigned_abs());
}

/// `0x` and `n` as eight hexadecimal digits (`0x%08X` / `0x%08x`), without `core::fmt`.
fn push_hex8(out: &mut String, n: u32, upper: bool) {
    let digits: &[u8; 16] = if upper { b"0123456789ABCDEF" } else { b"0123456789abcdef" };
    out.push_str("0x");
    for shift in (0..8).rev() {
        out.push(char::from(digits[((n >> (4 * shift)) & 15) as usize]));
    }
}

/// `n` in decimal, without `core::fmt`: one digit in line (most register numbers and
/// components), longer numbers out of line.
#[inline(always)]
pub(crate) fn push_decimal(out: &mut String, n: u32) {
    if n < 10 {
        out.push(char::from(b'0' + n as u8));
    } else {
        push_decimal_long(out, n);
    }
}

/// [`push_decimal`] of 10 and more.
#[inline(never)]
fn push_decimal_long(out: &mut String, n: u32) {
    if n < 100 {
        let i = 2 * n as usize;
        out.push_str(PAIRS.get(i..i + 2).unwrap_or(""));
        return;
    }
    let mut digits = [0u8; 10];
    let mut start = digits.len();
    let mut n = n;
    loop {
        start -= 1;
        digits[start] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    for &d in &digits[start..] {
        out.push(char::from(d));
    }
}

const COMP: [char; 4] = ['x', 'y', 'z', 'w'];

/// A swizzle as fxc shortens it: nothing for `.xyzw`, one letter for a replicate, all
/// four otherwise.
#[inline(always)]
pub fn write_swizzle(out: &mut String, s: Swizzle) {
    if s != Swizzle::IDENTITY {
        write_swizzle_text(out, s);
    }
}

/// [`write_swizzle`] of a swizzle other than `.xyzw`.
fn write_swizzle_text(out: &mut String, s: Swizzle) {
    out.push('.');
    let c = s.components();
    if c.iter().all(|&x| x == c[0]) {
        out.push(COMP[c[0] as usize]);
    } else {
        for x in c {
            out.push(COMP[x as usize]);
        }
    }
}

#[inline(always)]
fn write_mask(out: &mut String, m: Mask) {
    if m.0 & 15 != 15 {
        write_mask_text(out, m);
    }
}

/// [`write_mask`] of a mask other than `.xyzw`.
fn write_mask_text(out: &mut String, m: Mask) {
    out.push('.');
    for (i, c) in COMP.iter().enumerate() {
        if m.has(i) {
            out.push(*c);
        }
    }
}

#[inline(always)]
fn write_relative(out: &mut String, v: Version, rel: &Relative) {
    // Most registers have none: no call for them.
    if *rel != Relative::None {
        write_relative_index(out, v, rel);
    }
}

/// [`write_relative`] of a relative index.
fn write_relative_index(out: &mut String, v: Version, rel: &Relative) {
    match rel {
        Relative::None => {}
        Relative::Implicit => {
            out.push('[');
            write_register(out, v, Register::new(RegisterType::AddrOrTexture, 0));
            out.push_str(".x]");
        }
        Relative::Token(t) => {
            out.push('[');
            write_register(out, v, t.reg);
            write_swizzle(out, t.swizzle);
            out.push(']');
        }
    }
}

/// A destination parameter: register, relative index, write mask.
#[inline]
pub fn write_dst(out: &mut String, v: Version, d: &DstParam) {
    write_register(out, v, d.reg);
    write_relative(out, v, &d.rel);
    write_mask(out, d.mask);
}

/// A source parameter: modifier prefix, register, relative index, modifier suffix,
/// swizzle.
#[inline]
pub fn write_src(out: &mut String, v: Version, s: &SrcParam) {
    use SrcModifier as M;
    let (pre, post) = match s.modifier {
        M::None | M::Unknown(_) => ("", ""),
        M::Neg => ("-", ""),
        M::Bias => ("", "_bias"),
        M::BiasNeg => ("-", "_bias"),
        M::Sign => ("", "_bx2"),
        M::SignNeg => ("-", "_bx2"),
        M::Comp => ("1-", ""),
        M::X2 => ("", "_x2"),
        M::X2Neg => ("-", "_x2"),
        M::Dz => ("", "_dz"),
        M::Dw => ("", "_dw"),
        M::Abs => ("", "_abs"),
        M::AbsNeg => ("-", "_abs"),
        M::Not => ("!", ""),
    };
    // Most sources have neither.
    if !pre.is_empty() {
        out.push_str(pre);
    }
    write_register(out, v, s.reg);
    write_relative(out, v, &s.rel);
    if !post.is_empty() {
        out.push_str(post);
    }
    write_swizzle(out, s.swizzle);
}

/// A fixed-capacity text buffer on the stack.
struct StackText {
    buf: [u8; 64],
    len: usize,
}

impl fmt::Write for StackText {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        let end = self.len + s.len();
        if end > self.buf.len() {
            return Err(fmt::Error);
        }
        self.buf[self.len..end].copy_from_slice(s.as_bytes());
        self.len = end;
        Ok(())
    }
}

impl StackText {
    fn as_str(&self) -> &str {
        std::str::from_utf8(&self.buf[..self.len]).unwrap_or("")
    }
}

/// A float as fxc prints a `def` value: C's `%.9g` of the value widened to double, with
/// the Microsoft C runtime's spellings (`1.#INF`, `-1.#INF`, `1.#QNAN`, `-1.#IND`, a
/// sign and at least three exponent digits: `1.00000002e+020`).
pub fn write_float(out: &mut String, x: f32) {
    if x.is_nan() {
        out.push_str(if x.is_sign_negative() { "-1.#IND" } else { "1.#QNAN" });
        return;
    }
    if x.is_infinite() {
        out.push_str(if x < 0.0 { "-1.#INF" } else { "1.#INF" });
        return;
    }
    if x == 0.0 {
        out.push_str(if x.is_sign_negative() { "-0" } else { "0" });
        return;
    }
    const P: i32 = 9;
    // An integer below 10^9 has at most nine digits: `%.9g` prints it whole, with no
    // point or exponent.
    if x == x.trunc() && x.abs() < 1e9 {
        if x < 0.0 {
            out.push('-');
        }
        push_decimal(out, x.abs() as u32);
        return;
    }
    let d = x as f64;
    // Nine significant digits, correctly rounded: d.dddddddde±X.
    let mut t = StackText { buf: [0; 64], len: 0 };
    let _ = write!(t, "{:.*e}", (P - 1) as usize, d);
    let s = t.as_str();
    let (mant, exp) = s.split_once('e').unwrap_or((s, "0"));
    let exp: i32 = exp.parse().unwrap_or(0);
    let (neg, mant) = match mant.strip_prefix('-') {
        Some(m) => (true, m),
        None => (false, mant),
    };
    let digits: StackText = {
        let mut dt = StackText { buf: [0; 64], len: 0 };
        for c in mant.chars().filter(|c| c.is_ascii_digit()) {
            let _ = dt.write_char(c);
        }
        dt
    };
    let digits = digits.as_str();
    // `%g` drops trailing zeros.
    let digits = digits.trim_end_matches('0');
    let digits = if digits.is_empty() { "0" } else { digits };
    if neg {
        out.push('-');
    }
    if !(-4..P).contains(&exp) {
        out.push_str(&digits[..1]);
        if digits.len() > 1 {
            out.push('.');
            out.push_str(&digits[1..]);
        }
        let _ = write!(out, "e{}{:03}", if exp < 0 { '-' } else { '+' }, exp.abs());
    } else if exp < 0 {
        out.push_str("0.");
        for _ in 0..(-exp - 1) {
            out.push('0');
        }
        out.push_str(digits);
    } else {
        let int_len = exp as usize + 1;
        if digits.len() <= int_len {
            out.push_str(digits);
            for _ in digits.len()..int_len {
                out.push('0');
            }
        } else {
            out.push_str(&digits[..int_len]);
            out.push('.');
            out.push_str(&digits[int_len..]);
        }
    }
}

/// The instruction slots fxc's closing line counts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct SlotCount {
    /// Texture instructions (pixel shaders).
    pub texture: u32,
    /// Arithmetic instructions.
    pub arithmetic: u32,
    /// Instructions added so far (a co-issued instruction after another costs nothing).
    pub instructions: u32,
}

impl SlotCount {
    /// The total.
    pub fn total(&self) -> u32 {
        self.texture + self.arithmetic
    }

    /// Adds one instruction of a program of `version`, counted by
    /// [`crate::table::listing_slots`] (the table's listing column).
    pub fn add(&mut self, version: Version, ins: &Instruction) {
        let (t, a) = crate::table::listing_slots(version, ins, self.instructions > 0);
        self.instructions += 1;
        self.texture += t;
        self.arithmetic += a;
    }

    /// Writes `// approximately N instruction slot(s) used` and, when there are texture
    /// instructions, ` (T texture, A arithmetic)`, with the newline.
    pub fn write_line(&self, out: &mut String) {
        let n = self.total();
        out.push_str("// approximately ");
        push_decimal(out, n);
        out.push_str(if n == 1 { " instruction slot used" } else { " instruction slots used" });
        if self.texture > 0 {
            out.push_str(" (");
            push_decimal(out, self.texture);
            out.push_str(" texture, ");
            push_decimal(out, self.arithmetic);
            out.push_str(" arithmetic)");
        }
        out.push('\n');
    }
}

/// The slot count of a whole program.
pub fn slot_count(program: &Program<'_>) -> SlotCount {
    let mut s = SlotCount::default();
    for ins in program.instructions() {
        s.add(program.version, ins);
    }
    s
}

/// The program as fxc prints it: the version line and one line per instruction
/// (comment blocks are not shown).
pub fn print_program(program: &Program<'_>) -> String {
    let mut out = String::with_capacity(64 + 32 * program.items.len());
    let mut p = Printer::new(program.version);
    p.version_line(&mut out);
    for ins in program.instructions() {
        p.instruction(ins, &mut out);
    }
    out
}

/// The debug information a Level9 listing prints around its instructions: the `#line`
/// lines before them and the annotations after them, from an owning
/// [`DebugInfo`](crate::dbug::DebugInfo) or read in place from the block
/// ([`DebugView`](crate::dbug::DebugView)).
struct DebugLines<'d> {
    source: DebugSource<'d>,
    lines: crate::dbug::LineTracker,
    annotations: crate::dbug::Annotations<'d>,
}

#[derive(Clone, Copy)]
enum DebugSource<'d> {
    Info(&'d crate::dbug::DebugInfo<'d>),
    View(crate::dbug::DebugView<'d>),
}

impl<'d> DebugLines<'d> {
    fn of_info(info: &'d crate::dbug::DebugInfo<'_>) -> DebugLines<'d> {
        let annotations = info.annotations();
        DebugLines { source: DebugSource::Info(info), lines: crate::dbug::LineTracker::new(), annotations }
    }

    fn of_view(view: crate::dbug::DebugView<'d>) -> DebugLines<'d> {
        let annotations = view.annotations();
        DebugLines { source: DebugSource::View(view), lines: crate::dbug::LineTracker::new(), annotations }
    }

    /// The `#line` line due before instruction `index`, if any.
    fn before(&mut self, index: usize, out: &mut String) {
        match self.source {
            DebugSource::Info(d) => {
                if let Some(info) = d.instructions.get(index) {
                    self.lines.before(info, &d.files, out);
                }
            }
            DebugSource::View(v) => {
                if let Some(info) = v.instruction(index) {
                    self.lines.before_named(&info, |f| v.file(f), out);
                }
            }
        }
    }

    /// The annotation of instruction `index`, if any.
    fn after(&mut self, index: usize, out: &mut String) {
        self.annotations.write(index as u32, out);
    }
}

/// The program as a Level9 listing prints it: [`print_program`] with, when `debug` is
/// given, the `#line` lines (a blank line, then `#line N "file"` on a change of file or
/// `#line N` on a jump of three lines or more) and the `  // name<…>` annotation of
/// every instruction a variable maps.
pub fn print_program_with_debug(program: &Program<'_>, debug: Option<&crate::dbug::DebugInfo<'_>>, out: &mut String) {
    print_program_with_lines(program, debug.map(DebugLines::of_info), out);
}

fn print_program_with_lines(program: &Program<'_>, mut debug: Option<DebugLines<'_>>, out: &mut String) {
    let mut p = Printer::new(program.version);
    p.version_line(out);
    for (index, ins) in program.instructions().enumerate() {
        if let Some(d) = &mut debug {
            d.before(index, out);
        }
        p.instruction_text(ins, out);
        if let Some(d) = &mut debug {
            d.after(index, out);
        }
        out.push('\n');
    }
}

/// As [`print_program_with_debug`], for the token stream `bytes`, with the columns of
/// `format` (the byte offsets are those of the instructions in `bytes`).
pub fn print_stream_with_debug(
    bytes: &[u8],
    debug: Option<&crate::dbug::DebugInfo<'_>>,
    format: Format,
    out: &mut String,
) -> Result<(), crate::DecodeError> {
    print_stream_with_lines(bytes, debug.map(DebugLines::of_info), format, out)
}

fn print_stream_with_lines(
    bytes: &[u8],
    mut debug: Option<DebugLines<'_>>,
    format: Format,
    out: &mut String,
) -> Result<(), crate::DecodeError> {
    let mut dec = crate::Decoder::new(bytes)?;
    let mut p = Printer::with_format(dec.version(), format);
    p.version_line(out);
    let mut ins = Instruction::new(Opcode::Nop);
    let mut index = 0usize;
    while let Some(step) = dec.next_into(&mut ins) {
        let crate::decode::Step::Instruction(at) = step? else { continue };
        if let Some(d) = &mut debug {
            d.before(index, out);
        }
        p.instruction_text_at(&ins, 4 * at as u32, out);
        if let Some(d) = &mut debug {
            d.after(index, out);
        }
        out.push('\n');
        index += 1;
    }
    Ok(())
}

/// The Level9 part of a listing after its `// Level9 shader bytecode:` and `//` lines:
/// the Shader Model 2 program with the debug information of its `DBUG` block (when it
/// has one that parses), a blank line and the slot line.
pub fn level9_program(program: &Program<'_>) -> String {
    let debug = program.comment_with(b"DBUG").and_then(|b| crate::dbug::DebugView::parse_comment(b).ok());
    let mut out = String::with_capacity(64 + 48 * program.items.len());
    print_program_with_lines(program, debug.map(DebugLines::of_view), &mut out);
    out.push('\n');
    slot_count(program).write_line(&mut out);
    out
}

/// As [`level9_program`], for the Shader Model 2 token stream `bytes`, with the
/// columns of `format`.
pub fn level9_stream(bytes: &[u8], format: Format) -> Result<String, ListingError> {
    let mut out = String::with_capacity(64 + 4 * bytes.len());
    write_level9_stream(bytes, format, &mut out)?;
    Ok(out)
}

/// [`level9_stream`] appended to `out` (left as it was on an error).
pub fn write_level9_stream(bytes: &[u8], format: Format, out: &mut String) -> Result<(), ListingError> {
    let mark = out.len();
    out.reserve(64 + 4 * bytes.len());
    let done = level9_stream_in_one_pass(bytes, format, out).inspect_err(|_| out.truncate(mark))?;
    if !done {
        // A debug block after the first instruction (fxc writes it first): decode the
        // program first to find it, then print.
        out.truncate(mark);
        let program = crate::decode(bytes)?;
        let debug = program.comment_with(b"DBUG").and_then(|b| crate::dbug::DebugView::parse_comment(b).ok());
        print_stream_with_lines(bytes, debug.map(DebugLines::of_view), format, out)
            .inspect_err(|_| out.truncate(mark))?;
        out.push('\n');
        slot_count(&program).write_line(out);
    }
    Ok(())
}

/// [`level9_stream`] as the program is decoded, one reused instruction at a time, when
/// the first `DBUG` block comes before the first instruction; `false` (with part of the
/// text in `out`) when it comes later.
fn level9_stream_in_one_pass(bytes: &[u8], format: Format, out: &mut String) -> Result<bool, ListingError> {
    use crate::dbug::{DebugView, FOURCC};
    use crate::decode::Step;
    use std::borrow::Cow;
    let mut dec = crate::Decoder::new(bytes)?;
    let version = dec.version();
    let mut ins = Instruction::new(Opcode::Nop);
    // The items before the first instruction, where fxc writes the debug block.
    let (mut seen_debug, mut debug) = (false, None);
    let mut next = None;
    while let Some(step) = dec.next_into(&mut ins) {
        match step? {
            Step::Instruction(at) => {
                next = Some(at);
                break;
            }
            Step::Comment(_, c) if !seen_debug && c.fourcc() == Some(FOURCC) => {
                seen_debug = true;
                debug = match c.data {
                    Cow::Borrowed(b) => DebugView::parse_comment(b).ok(),
                    Cow::Owned(_) => return Ok(false),
                };
            }
            Step::Comment(..) => {}
        }
    }
    let mut debug = debug.map(DebugLines::of_view);
    let mut p = Printer::with_format(version, format);
    p.version_line(out);
    let mut index = 0usize;
    while let Some(at) = next {
        if let Some(d) = &mut debug {
            d.before(index, out);
        }
        p.instruction_text_at(&ins, 4 * at as u32, out);
        if let Some(d) = &mut debug {
            d.after(index, out);
        }
        out.push('\n');
        index += 1;
        next = None;
        while let Some(step) = dec.next_into(&mut ins) {
            match step? {
                Step::Instruction(at) => {
                    next = Some(at);
                    break;
                }
                Step::Comment(_, c) if !seen_debug && c.fourcc() == Some(FOURCC) => return Ok(false),
                Step::Comment(..) => {}
            }
        }
    }
    out.push('\n');
    // The printer counted the slots of every instruction it printed.
    p.slots.write_line(out);
    Ok(true)
}

/// How the comment header before the program is laid out; the compilers differ.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HeaderStyle {
    /// `D3DDisassemble` (d3dcompiler_47): `//`, `// Generated by <creator>`, then the
    /// parameter and register tables (`//` first) if there are constants.
    Disassembler,
    /// fxc 9.30: `//`, `// Generated by <creator>`, `//`, then `/` glued to what the
    /// disassembler prints after its creator line (`///` before `// Parameters:`, or
    /// `/` before the version line of a program without constants).
    Slash,
    /// fxc 9.29 and 10.x: `//`, `// Generated by <creator>`, `//`, then the tables
    /// without their leading `//`. (fxc 9.29 also prints its command line there, which
    /// the blob does not hold.)
    Plain,
}

impl HeaderStyle {
    /// The style of the compiler named in a creator string.
    /// (Measured on the corpus: 9.30.9200 writes the slash, 9.29.952 and 10.1 do not.
    /// d3dcompiler_47 names itself 6.3.9600 and prints its own disassembler's layout:
    /// no `//` after the creator line of a program without constants.)
    pub fn for_creator(creator: &str) -> HeaderStyle {
        let version = creator.rsplit(' ').next().unwrap_or("");
        if version.starts_with("9.30.") {
            HeaderStyle::Slash
        } else if version.starts_with("6.3.") {
            HeaderStyle::Disassembler
        } else {
            HeaderStyle::Plain
        }
    }
}

/// The parameter and register tables, as `D3DDisassemble` prints them after the creator
/// line (empty when the table has no constants).
pub fn write_constant_tables(out: &mut String, table: &ConstantTable<'_>) {
    if table.constants.is_empty() {
        return;
    }
    out.push_str("//\n// Parameters:\n//\n");
    for c in &table.constants {
        for line in c.declaration_lines() {
            out.push_str("//   ");
            out.push_str(&line);
            out.push('\n');
        }
    }
    out.push_str("//\n//\n// Registers:\n//\n");
    let regs = table.registers();
    let name_w = regs.iter().map(|c| c.name.chars().count()).max().unwrap_or(0).max(12);
    let _ = writeln!(out, "//   {:<name_w$} Reg   Size", "Name");
    let _ = writeln!(out, "//   {} ----- ----", "-".repeat(name_w));
    for c in regs {
        let reg = c.register_name();
        let _ = writeln!(out, "//   {:<name_w$} {:<5} {:>4}", c.name, reg, c.register_count);
    }
    out.push_str("//\n\n");
}

/// The comment header of a program: `None` when it has no constant table.
pub fn header(program: &Program<'_>, style: HeaderStyle) -> Option<String> {
    let body = program.comment_with(b"CTAB")?;
    let mut out = String::new();
    match ConstantTable::parse_comment(body) {
        Ok(table) => {
            out.push_str("//\n// Generated by ");
            out.push_str(&table.creator);
            out.push('\n');
            match style {
                HeaderStyle::Disassembler => {}
                HeaderStyle::Slash => out.push_str("//\n/"),
                HeaderStyle::Plain => out.push_str("//\n"),
            }
            let mut tables = String::new();
            write_constant_tables(&mut tables, &table);
            match style {
                HeaderStyle::Plain => out.push_str(tables.strip_prefix("//\n").unwrap_or(&tables)),
                _ => out.push_str(&tables),
            }
        }
        Err(_) => out.push_str("//\n// Generated by Microsoft (R) D3DX9 Shader Disassembler\n"),
    }
    Some(out)
}

/// The whole listing of a decoded program in `style`.
pub fn listing_program(program: &Program<'_>, style: HeaderStyle) -> String {
    let mut out = header(program, style).unwrap_or_default();
    out.push_str(&print_program(program));
    out.push('\n');
    slot_count(program).write_line(&mut out);
    out
}

/// The whole listing of the raw d3dbc stream `bytes` in `style` (`None`: the style of
/// the compiler its constant table names), with the columns of `format`.
pub fn listing_with(bytes: &[u8], style: Option<HeaderStyle>, format: Format) -> Result<String, ListingError> {
    let program = crate::decode(bytes)?;
    let style = style.unwrap_or_else(|| style_of(&program));
    let mut out = header(&program, style).unwrap_or_default();
    out.reserve(64 + 48 * program.items.len());
    print_stream_with_debug(bytes, None, format, &mut out)?;
    out.push('\n');
    slot_count(&program).write_line(&mut out);
    Ok(out)
}

fn style_of(program: &Program<'_>) -> HeaderStyle {
    program
        .comment_with(b"CTAB")
        .and_then(|b| ConstantTable::parse_comment(b).ok())
        .map(|t| HeaderStyle::for_creator(&t.creator))
        .unwrap_or(HeaderStyle::Disassembler)
}

/// fxc's listing (`fxc /Fc`) of a raw d3dbc stream: the header in the style of the
/// compiler its constant table names, the program, the slot line.
pub fn listing(bytes: &[u8]) -> Result<String, ListingError> {
    let program = crate::decode(bytes)?;
    Ok(listing_program(&program, style_of(&program)))
}

/// What `D3DDisassemble` prints for a raw d3dbc stream.
pub fn disassemble(bytes: &[u8]) -> Result<String, ListingError> {
    let program = crate::decode(bytes)?;
    Ok(listing_program(&program, HeaderStyle::Disassembler))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn f(x: f32) -> String {
        let mut s = String::new();
        write_float(&mut s, x);
        s
    }

    #[test]
    fn floats() {
        assert_eq!(f(0.0), "0");
        assert_eq!(f(-0.0), "-0");
        assert_eq!(f(1.0), "1");
        assert_eq!(f(0.5), "0.5");
        assert_eq!(f(0.1), "0.100000001");
        assert_eq!(f(1e-6), "9.99999997e-007");
        assert_eq!(f(1e20), "1.00000002e+020");
        assert_eq!(f(f32::from_bits(1)), "1.40129846e-045");
        assert_eq!(f(f32::from_bits(0xb5d00d01)), "-1.55009923e-006");
        assert_eq!(f(f32::from_bits(0x4ceb79a3)), "123456792");
        assert_eq!(f(f32::INFINITY), "1.#INF");
        assert_eq!(f(f32::NEG_INFINITY), "-1.#INF");
        assert_eq!(f(f32::from_bits(0x7fc00000)), "1.#QNAN");
        assert_eq!(f(f32::from_bits(0xffc00000)), "-1.#IND");
        assert_eq!(f(f32::from_bits(0x3f6147ae)), "0.879999995");
        assert_eq!(f(1e-4), "9.99999975e-005");
        assert_eq!(f(100.0), "100");
    }
}
