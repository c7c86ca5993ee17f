//! The direct path of the program printer: an executable instruction whose operands
//! are plain registers and immediates is printed straight from its tokens, without
//! decoding it into an [`Instruction`](crate::Instruction) first.
//!
//! Most lines of a listing are such instructions (`mul r0.xyzw, r1.xyzw, cb0[2].xyzw`,
//! `mov o0.xy, -v1.xyxx`, `add r0.x, r0.x, l(1.000000)`). For them the printer reads
//! the opcode token's table row and each operand token, and writes the same text as
//! the general path ([`Printer::instruction_at`] on the decoded instruction) from the
//! same sources: the row's mnemonic and operand types, the register prefixes and
//! selection spellings, the value formatting. Each piece is a fixed-size copy from a
//! padded table into the output bytes. Everything else goes to the general path:
//! declarations, data blocks, extended opcode tokens, relative indices, precision and
//! other operand extensions, 64-bit immediates, the controls of `resinfo`,
//! `sampleinfo` and `sync`, tokens left over after the operands; and whole programs in
//! the d3dcompiler_47 6.3.9600 style, with dxref's exact floats or with the number and
//! offset columns. A test compares the two paths on every instruction of the corpus
//! and of generated programs.

use super::{inline_first_index, looks_like_float, mask_text, push_double, register_prefix, Printer};
use crate::digits::{self, put, put_hex8, put_u32};
use crate::enums::{Mask, OperandType};
use crate::table::{Controls, Flow, OpInfo, Opcode, Shape, Ty, TABLE};

/// Reads the tokens of one instruction.
struct Tokens<'a>(&'a [u8]);

impl Tokens<'_> {
    #[inline(always)]
    fn next(&mut self) -> Option<u32> {
        let (t, rest) = self.0.split_first_chunk::<4>()?;
        self.0 = rest;
        Some(u32::from_le_bytes(*t))
    }
}

/// Operand-token field values.
const IMMEDIATE32: u32 = OperandType::Immediate32.raw() as u32;
const IMMEDIATE64: u32 = OperandType::Immediate64.raw() as u32;

/// `s` padded with zeros to `N` bytes (cut at `N`).
const fn pad<const N: usize>(s: &str) -> [u8; N] {
    let b = s.as_bytes();
    let mut out = [0u8; N];
    let mut i = 0;
    while i < b.len() && i < N {
        out[i] = b[i];
        i += 1;
    }
    out
}

/// Every opcode's mnemonic, padded, by opcode number.
static MNEMONICS: [[u8; 32]; 256] = {
    let mut t = [[0u8; 32]; 256];
    let mut i = 0;
    while i < TABLE.len() {
        t[TABLE[i].opcode as usize] = pad(TABLE[i].mnemonic);
        i += 1;
    }
    t
};

/// A register prefix, padded, and its length.
type Prefix = ([u8; 32], u8);

/// The register prefixes ([`register_prefix`]) by operand-type value: before Shader
/// Model 5.1 and from it; length 0 for a type without a name.
static PREFIXES: [[Prefix; 256]; 2] = {
    let mut t = [[([0u8; 32], 0u8); 256]; 2];
    let mut sm51 = 0;
    while sm51 < 2 {
        let mut raw = 0;
        while raw < 256 {
            let ty = OperandType::from_raw(raw as u8);
            if ty.listing_name().is_some() {
                let p = register_prefix(ty, sm51 == 1);
                t[sm51][raw] = (pad(p), p.len() as u8);
            }
            raw += 1;
        }
        sm51 += 1;
    }
    t
};

/// Every swizzle: `.` and four components, by the selection's 8 bits.
static SWIZZLES: [[u8; 8]; 256] = {
    let names = *b"xyzw";
    let mut t = [[0u8; 8]; 256];
    let mut i = 0;
    while i < 256 {
        t[i][0] = b'.';
        let mut c = 0;
        while c < 4 {
            t[i][1 + c] = names[(i >> (2 * c)) & 3];
            c += 1;
        }
        i += 1;
    }
    t
};

/// Every write mask as a selection (`.xz`), padded, and its length.
static MASKS: [([u8; 8], u8); 16] = {
    let mut t = [([0u8; 8], 0u8); 16];
    let mut m = 0;
    while m < 16 {
        let s = mask_text(Mask(m as u8));
        t[m] = (pad(s), s.len() as u8);
        m += 1;
    }
    t
};

/// Two spaces per level of indentation, as many as the deepest indentation printed.
const SPACES: [u8; 2 * crate::limits::MAX_INDENT_DEPTH] = [b' '; 2 * crate::limits::MAX_INDENT_DEPTH];

impl Printer {
    /// True when the printer's format and style let the direct path print.
    pub(super) fn direct_allowed(&self) -> bool {
        let f = self.format;
        !f.exact_floats && !f.numbering && !f.offsets && !self.style.is_d3dcompiler_47_6_3()
    }

    /// Prints the instruction at the start of `program` (the program's bytes from it
    /// on) if the direct path handles it, and returns its length in bytes; `None`, with
    /// nothing written, otherwise. Call only when [`Printer::direct_allowed`].
    #[inline]
    pub(super) fn direct(&mut self, program: &[u8], out: &mut Vec<u8>) -> Option<usize> {
        let (&tok0, _) = program.split_first_chunk::<4>()?;
        let tok0 = u32::from_le_bytes(tok0);
        let number = (tok0 & 0x7ff) as usize;
        let opcode = Opcode::from_u16(number as u16)?;
        let info: &OpInfo = opcode.info();
        // Executable instructions with their length in the opcode token and no
        // extended opcode token.
        let length = ((tok0 >> 24) & 0x7f) as usize;
        if info.shape != Shape::Ops || tok0 & 0x8000_0000 != 0 || length == 0 {
            return None;
        }
        let bytes = length * 4;
        let body = program.get(4..bytes)?;
        let (saturate, precise, test) = match info.controls {
            Controls::Plain => ((tok0 >> 13) & 1 != 0, (tok0 >> 19) & 0xf, None),
            Controls::Test => (false, 0, Some((tok0 >> 18) & 1 != 0)),
            Controls::None => (false, 0, None),
            Controls::ResInfo | Controls::ReturnType | Controls::Sync => return None,
        };
        // What to restore if an operand turns out to need the general path.
        let mark = out.len();
        // Indentation: the block closers and `else` are printed one level out.
        let closes = matches!(info.flow, Flow::Else | Flow::EndIf | Flow::EndLoop | Flow::EndSwitch);
        let depth = if closes { self.depth.saturating_sub(1) } else { self.depth };
        let indent = 2 * depth.min(crate::limits::MAX_INDENT_DEPTH);
        if indent > 0 {
            put(out, &SPACES, indent);
        }
        put(out, &MNEMONICS[number & 0xff], info.mnemonic.len());
        if let Some(nonzero) = test {
            // fxc 9.x leaves out the `_nz` of a condition that is an immediate (see
            // the general path).
            let immediate =
                body.first_chunk::<4>().is_some_and(|t| (u32::from_le_bytes(*t) >> 12) & 0xff == IMMEDIATE32);
            if !nonzero {
                out.extend_from_slice(b"_z");
            } else if !immediate || self.style.version.0 != 9 {
                out.extend_from_slice(b"_nz");
            }
        }
        if saturate {
            out.extend_from_slice(b"_sat");
        }
        if precise != 0 {
            out.extend_from_slice(b" [precise");
            if precise != 0xf {
                let (text, len) = &MASKS[precise as usize];
                out.push(b'(');
                out.extend_from_slice(text.get(1..*len as usize).unwrap_or(&[]));
                out.push(b')');
            }
            out.push(b']');
        }
        out.push(b' ');
        let mut tokens = Tokens(body);
        let mut types = info.dst.iter().chain(info.src);
        let mut first = true;
        for _ in 0..info.operand_count() {
            if !first {
                out.extend_from_slice(b", ");
            }
            first = false;
            let ty = types.next().copied().unwrap_or(Ty::Any);
            if self.direct_operand(&mut tokens, ty, out).is_none() {
                out.truncate(mark);
                return None;
            }
        }
        if !tokens.0.is_empty() {
            out.truncate(mark);
            return None;
        }
        out.push(b'\n');
        self.depth = depth;
        if matches!(info.flow, Flow::If | Flow::Else | Flow::Loop | Flow::Switch) {
            self.depth += 1;
        }
        Some(bytes)
    }

    /// One operand: a register with immediate indices, or a 32-bit immediate, with an
    /// optional modifier token (`-`, `|...|`); `None` for any other.
    #[inline(always)]
    fn direct_operand(&self, tokens: &mut Tokens<'_>, ty: Ty, out: &mut Vec<u8>) -> Option<()> {
        let t = tokens.next()?;
        let mut abs = false;
        if t & 0x8000_0000 != 0 {
            // A modifier token and nothing else: no precision, no non-uniform mark.
            let e = tokens.next()?;
            if e & 0x3f != 1 || e & !(0x3f | 0xff << 6) != 0 {
                return None;
            }
            match (e >> 6) & 0xff {
                0 => {}
                1 => out.push(b'-'),
                2 => out.push(b'|'),
                3 => out.extend_from_slice(b"-|"),
                _ => return None,
            }
            abs = (e >> 6) & 2 != 0;
        }
        let components = t & 3;
        let file = (t >> 12) & 0xff;
        let dims = (t >> 20) & 3;
        if file == IMMEDIATE32 {
            let count = match (components, dims) {
                (1, 0) => 1,
                (2, 0) => 4,
                _ => return None,
            };
            out.extend_from_slice(b"l(");
            for i in 0..count {
                if i > 0 {
                    if ty == Ty::Any {
                        out.push(b',');
                    } else {
                        out.extend_from_slice(b", ");
                    }
                }
                self.direct_value(tokens.next()?, ty, out);
            }
            out.push(b')');
        } else {
            // Immediate 32-bit indices only (every representation field 0).
            if file == IMMEDIATE64 || (t >> 22) & 0x1ff != 0 || dims == 3 {
                return None;
            }
            let (prefix, len) = &PREFIXES[self.is_sm51() as usize][file as usize];
            if *len == 0 {
                // A type without a name (printed `?`): the general path.
                return None;
            }
            put(out, prefix, *len as usize);
            let inline_first = inline_first_index(OperandType::from_raw(file as u8), dims as usize);
            for d in 0..dims {
                let v = tokens.next()?;
                if d == 0 && inline_first {
                    put_u32(out, v);
                } else {
                    out.push(b'[');
                    put_u32(out, v);
                    out.push(b']');
                }
            }
            if components == 2 {
                let bits = (t >> 4) as usize;
                match (t >> 2) & 3 {
                    0 => {
                        let (text, len) = &MASKS[bits & 0xf];
                        put(out, text, *len as usize);
                    }
                    1 => put(out, &SWIZZLES[bits & 0xff], 5),
                    2 => {
                        out.push(b'.');
                        out.push(b"xyzw"[bits & 3]);
                    }
                    _ => {}
                }
            }
        }
        if abs {
            out.push(b'|');
        }
        Some(())
    }

    /// A 32-bit immediate value in a slot of type `ty` ([`Printer::value`] without
    /// exact floats).
    #[inline]
    fn direct_value(&self, v: u32, ty: Ty, out: &mut Vec<u8>) {
        if self.format.hex_literals {
            put_hex8(out, v);
            return;
        }
        let float = match ty {
            Ty::F => true,
            Ty::Any => looks_like_float(v),
            Ty::I | Ty::U | Ty::R | Ty::D => false,
        };
        if float {
            let f = f32::from_bits(v);
            match digits::millionths(f, self.rounding) {
                Some(units) => digits::put_millionths(out, f.is_sign_negative(), units),
                None => {
                    let mut s = String::new();
                    push_double(f as f64, self.style, &mut s);
                    out.extend_from_slice(s.as_bytes());
                }
            }
        } else {
            // Decimal up to 10000 in magnitude, hex beyond ([`super::push_int`]).
            let s = v as i32;
            if s.unsigned_abs() <= super::DECIMAL_LIMIT as u32 {
                if s < 0 {
                    out.push(b'-');
                }
                put_u32(out, s.unsigned_abs());
            } else {
                put_hex8(out, v);
            }
        }
    }
}
