//! The direct path of the program printer: an executable instruction whose operands
//! are plain registers and immediates is printed straight from its tokens, without
//! decoding it into an [`Instruction`](crate::Instruction) first.
//!
//! Most lines of a listing are such instructions (`mul r0.xyzw, r1.xyzw, cb0[2].xyzw`,
//! `mov o0.xy, -v1.xyxx`, `add r0.x, r0.x, l(1.000000)`). For them the printer reads
//! the opcode token's table row and each operand token, and writes the same text as
//! the general path ([`Printer::instruction_at`] on the decoded instruction) from the
//! same sources: the row's mnemonic and operand types, the register prefixes and
//! selection spellings, the value formatting (immediate indices of one to three
//! dimensions: `r0`, `cb0[2]`, Shader Model 5.1's `CB0[0][2]`). Each piece is a fixed-size copy from a
//! padded table into the output bytes. The most common declarations are printed so
//! too (`dcl_input`, `dcl_output`, `dcl_output_siv`, `dcl_input_ps`, `dcl_input_ps_siv`, `dcl_temps`,
//! `dcl_sampler`, `dcl_resource_*`, `dcl_globalFlags`, below Shader Model 5.1 for the
//! register ranges; `dcl_thread_group`; `dcl_constantbuffer`, `dcl_uav_raw` and
//! `dcl_resource_raw` in every model, Shader Model 5.1's `CB0[0:0][4]`, `U0[0:0]` and
//! `, space=0` by one out-of-line function). Everything else goes to the general path: the other
//! declarations, data blocks, extended opcode tokens, relative indices, precision and
//! other operand extensions, 64-bit immediates, the controls of `resinfo`,
//! `sampleinfo` and `sync`, tokens left over after the operands; and whole programs in
//! the d3dcompiler_47 6.3.9600 style, with dxref's exact floats or with the number and
//! offset columns. A test compares the two paths on every instruction of the corpus
//! and of generated programs.

use super::{inline_first_index, looks_like_float, mask_text, push_double, register_prefix, Printer};
use crate::digits::{self, put, put_hex8, put_u32};
use crate::enums::{
    CbAccessPattern, InterpolationMode, ResourceDimension, ReturnType, SamplerMode, SystemName, GLOBAL_FLAG_NAMES,
};
use crate::enums::{Mask, OperandType};
use crate::layout::GLOBAL_FLAGS;
use crate::table::{Controls, DeclKind, Flow, Shape, Ty, TABLE};

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

/// `s` padded with zeros to `N` bytes (cut at `N`). `s` must be ASCII (checked when
/// the tables are built, at compile time): the printer's output is text because
/// every piece of it is (see [`Printer::instructions`]).
const fn pad<const N: usize>(s: &str) -> [u8; N] {
    let b = s.as_bytes();
    let mut out = [0u8; N];
    let mut i = 0;
    while i < b.len() && i < N {
        assert!(b[i].is_ascii(), "a table of the direct path holds a non-ASCII byte");
        out[i] = b[i];
        i += 1;
    }
    out
}

/// What the direct path needs of a table row, by opcode number.
#[derive(Clone, Copy)]
struct Row {
    /// The controls the direct path reads: [`NOT_DIRECT`] for a row it leaves to the
    /// general path (not an executable instruction, or controls other than `_sat`,
    /// the precise mask and `_z`/`_nz`).
    controls: u8,
    /// The mnemonic, padded, and its length.
    mnemonic: [u8; 32],
    mnemonic_len: u8,
    /// Number of operands, and their types (destinations first).
    count: u8,
    types: [Ty; 8],
    /// [`CLOSES`] and [`OPENS`]: printed one level out, opens a level.
    flow: u8,
}

const NOT_DIRECT: u8 = 0;
const PLAIN: u8 = 1;
const TEST: u8 = 2;
const NONE: u8 = 3;
/// The most common declarations, when the opcode token holds nothing but the opcode,
/// the length and the interpolation mode of `dcl_input_ps`: `dcl_input v0.xy`,
/// `dcl_output o0.xyzw` ([`DeclKind::Register`]), `dcl_output_siv o0.xyzw, position`
/// ([`DeclKind::RegisterName`]), `dcl_input_ps linear v1.xy` ([`DeclKind::InputPs`]),
/// `dcl_temps 4` ([`DeclKind::Temps`]).
const DECL_REGISTER: u8 = 4;
const DECL_NAMED: u8 = 5;
const DECL_INPUT_PS: u8 = 6;
const DECL_TEMPS: u8 = 7;
/// `dcl_constantbuffer cb0[4], immediateIndexed`, `dcl_sampler s0, mode_default`
/// (below Shader Model 5.1, without a register space), `dcl_globalFlags refactoringAllowed`.
const DECL_CB: u8 = 8;
const DECL_SAMPLER: u8 = 9;
const DECL_FLAGS: u8 = 10;
/// `dcl_resource_texture2d (float,float,float,float) t0` (below Shader Model 5.1,
/// without a register space): the dimension and sample count from the opcode token,
/// the return types from the token after the register, printed before it.
const DECL_RESOURCE: u8 = 11;
/// `dcl_input_ps_siv linear noperspective v0.xy, position` and `dcl_input_ps_sgv
/// v1.x, is_front_face` (whose interpolation mode is not printed: only a mode of 0).
const DECL_INPUT_PS_NAMED: u8 = 12;
/// `dcl_thread_group 8, 8, 1`: three numbers, nothing in the opcode token but the
/// opcode and the length.
const DECL_THREAD_GROUP: u8 = 13;
/// `dcl_uav_raw u0` and `dcl_resource_raw t0`, without `_glc` or `_rov`: the register
/// alone, bare; from Shader Model 5.1 its range and space, `dcl_uav_raw U0[0:0], space=0`.
const DECL_RAW: u8 = 14;
/// The opcode of `dcl_input_ps_siv`.
const DCL_INPUT_PS_SIV: usize = crate::Opcode::DclInputPsSiv as usize;
const CLOSES: u8 = 1;
const OPENS: u8 = 2;

static ROWS: [Row; 256] = {
    let empty =
        Row { controls: NOT_DIRECT, mnemonic: [0; 32], mnemonic_len: 0, count: 0, types: [Ty::Any; 8], flow: 0 };
    let mut t = [empty; 256];
    let mut i = 0;
    while i < TABLE.len() {
        let info = &TABLE[i];
        let controls = match info.controls {
            Controls::Plain => PLAIN,
            Controls::Test => TEST,
            Controls::None => NONE,
            Controls::ResInfo | Controls::ReturnType | Controls::Sync => NOT_DIRECT,
        };
        let count = info.dst.len() + info.src.len();
        let (controls, count) = match info.shape {
            Shape::Ops if count <= 8 => (controls, count),
            Shape::Decl(DeclKind::Register) => (DECL_REGISTER, 1),
            Shape::Decl(DeclKind::RegisterName) => (DECL_NAMED, 1),
            Shape::Decl(DeclKind::InputPs) => (DECL_INPUT_PS, 1),
            Shape::Decl(DeclKind::Temps) => (DECL_TEMPS, 0),
            Shape::Decl(DeclKind::ConstantBuffer) => (DECL_CB, 0),
            Shape::Decl(DeclKind::Sampler) => (DECL_SAMPLER, 1),
            Shape::Decl(DeclKind::GlobalFlags) => (DECL_FLAGS, 0),
            Shape::Decl(DeclKind::Resource) => (DECL_RESOURCE, 1),
            Shape::Decl(DeclKind::InputPsName) => (DECL_INPUT_PS_NAMED, 1),
            Shape::Decl(DeclKind::ThreadGroup) => (DECL_THREAD_GROUP, 0),
            // The register (from SM5.1 a range, printed after the operands' loop).
            Shape::Decl(DeclKind::UavRaw | DeclKind::ResourceRaw) => (DECL_RAW, 1),
            _ => (NOT_DIRECT, 0),
        };
        let mut row = Row {
            controls,
            mnemonic: pad(info.mnemonic),
            mnemonic_len: info.mnemonic.len() as u8,
            count: count as u8,
            types: [Ty::Any; 8],
            flow: 0,
        };
        let mut k = 0;
        while k < count && k < 8 {
            row.types[k] = if matches!(info.shape, Shape::Decl(_)) {
                // A declared register: its indices, no value.
                Ty::R
            } else if k < info.dst.len() {
                info.dst[k]
            } else {
                info.src[k - info.dst.len()]
            };
            k += 1;
        }
        if matches!(info.flow, Flow::Else | Flow::EndIf | Flow::EndLoop | Flow::EndSwitch) {
            row.flow |= CLOSES;
        }
        if matches!(info.flow, Flow::If | Flow::Else | Flow::Loop | Flow::Switch) {
            row.flow |= OPENS;
        }
        t[info.opcode as usize] = row;
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

/// Every swizzle (`.` and four components) as the bytes of a little-endian word, by
/// the selection's 8 bits.
static SWIZZLES: [u64; 256] = {
    let names = *b"xyzw";
    let mut t = [0u64; 256];
    let mut i = 0;
    while i < 256 {
        let mut w = b'.' as u64;
        let mut c = 0;
        while c < 4 {
            w |= (names[(i >> (2 * c)) & 3] as u64) << (8 * (c + 1));
            c += 1;
        }
        t[i] = w;
        i += 1;
    }
    t
};

/// Every write mask as a selection (`.xz`), as a word, and its length.
static MASKS: [(u64, u8); 16] = {
    let mut t = [(0u64, 0u8); 16];
    let mut m = 0;
    while m < 16 {
        let s = mask_text(Mask(m as u8));
        t[m] = (word(s), s.len() as u8);
        m += 1;
    }
    t
};

/// The first 8 bytes of `s` as a little-endian word; ASCII only, as for [`pad`].
const fn word(s: &str) -> u64 {
    let b = s.as_bytes();
    let mut w = 0u64;
    let mut i = 0;
    while i < b.len() && i < 8 {
        assert!(b[i].is_ascii(), "a table of the direct path holds a non-ASCII byte");
        w |= (b[i] as u64) << (8 * i);
        i += 1;
    }
    w
}

/// The register prefixes ([`register_prefix`]) that fit a word, as words, by
/// operand-type value, before Shader Model 5.1 and from it; length 0 for the others.
static SHORT_PREFIXES: [[(u64, u8); 256]; 2] = {
    let mut t = [[(0u64, 0u8); 256]; 2];
    let mut sm51 = 0;
    while sm51 < 2 {
        let mut raw = 0;
        while raw < 256 {
            let (_, len) = PREFIXES[sm51][raw];
            if len > 0 && len <= 8 {
                let p = register_prefix(OperandType::from_raw(raw as u8), sm51 == 1);
                t[sm51][raw] = (word(p), len);
            }
            raw += 1;
        }
        sm51 += 1;
    }
    t
};

/// Text being composed in a register: up to 8 bytes, stored with one copy.
struct Word {
    bits: u64,
    len: u32,
}

impl Word {
    const EMPTY: Word = Word { bits: 0, len: 0 };

    /// Appends the `len` low bytes of `bits` (`1 <= len <= 8`, the others zero),
    /// storing what is composed first if they would not fit.
    #[inline(always)]
    fn add(&mut self, out: &mut Vec<u8>, bits: u64, len: u32) {
        if self.len + len > 8 {
            self.flush(out);
        }
        self.bits |= bits.wrapping_shl(8 * self.len);
        self.len += len;
    }

    /// Stores the composed bytes.
    #[inline(always)]
    fn flush(&mut self, out: &mut Vec<u8>) {
        if self.len > 0 {
            let at = out.len();
            out.extend_from_slice(&self.bits.to_le_bytes());
            out.truncate(at + self.len as usize);
            *self = Word::EMPTY;
        }
    }

    /// Appends `v` in decimal: composed up to 999, written out beyond.
    #[inline(always)]
    fn decimal(&mut self, out: &mut Vec<u8>, v: u32) {
        if v < 10 {
            self.add(out, (b'0' + v as u8) as u64, 1);
        } else if v < 100 {
            self.add(out, pair_word(v), 2);
        } else if v < 1000 {
            self.add(out, (b'0' + (v / 100) as u8) as u64 | pair_word(v % 100) << 8, 3);
        } else {
            self.flush(out);
            put_u32(out, v);
        }
    }
}

/// The two digits of `v` (below 100) as a word.
#[inline(always)]
fn pair_word(v: u32) -> u64 {
    (b'0' + (v / 10) as u8) as u64 | ((b'0' + (v % 10) as u8) as u64) << 8
}

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
        let row = ROWS.get(number)?;
        // Executable instructions with their length in the opcode token and no
        // extended opcode token.
        let length = ((tok0 >> 24) & 0x7f) as usize;
        if row.controls == NOT_DIRECT || tok0 & 0x8000_0000 != 0 || length == 0 {
            return None;
        }
        let bytes = length * 4;
        let body = program.get(4..bytes)?;
        // What to restore if an operand turns out to need the general path.
        let mark = out.len();
        // Indentation: the block closers and `else` are printed one level out.
        let depth = if row.flow & CLOSES != 0 { self.depth.saturating_sub(1) } else { self.depth };
        let indent = 2 * depth.min(crate::limits::MAX_INDENT_DEPTH);
        if indent > 0 {
            put(out, &SPACES, indent);
        }
        put(out, &row.mnemonic, row.mnemonic_len as usize);
        match row.controls {
            PLAIN => {
                if (tok0 >> 13) & 1 != 0 {
                    out.extend_from_slice(b"_sat");
                }
                let precise = (tok0 >> 19) & 0xf;
                if precise != 0 {
                    out.extend_from_slice(b" [precise");
                    if precise != 0xf {
                        let text = mask_text(Mask(precise as u8));
                        out.push(b'(');
                        out.extend_from_slice(text.get(1..).unwrap_or("").as_bytes());
                        out.push(b')');
                    }
                    out.push(b']');
                }
            }
            TEST => {
                // fxc 9.x leaves out the `_nz` of a condition that is an immediate (see
                // the general path).
                if (tok0 >> 18) & 1 == 0 {
                    out.extend_from_slice(b"_z");
                } else {
                    let immediate =
                        body.first_chunk::<4>().is_some_and(|t| (u32::from_le_bytes(*t) >> 12) & 0xff == IMMEDIATE32);
                    if !immediate || self.style.version.0 != 9 {
                        out.extend_from_slice(b"_nz");
                    }
                }
            }
            DECL_INPUT_PS | DECL_INPUT_PS_NAMED => {
                // The interpolation mode (bits 14:11), and nothing else; `dcl_input_ps_sgv`
                // does not print it.
                let mode = (tok0 >> 11) & 0xf;
                let unprinted = row.controls == DECL_INPUT_PS_NAMED && number != DCL_INPUT_PS_SIV;
                if tok0 & 0x00ff_8000 != 0 || (unprinted && mode != 0) {
                    out.truncate(mark);
                    return None;
                }
                if mode != 0 {
                    let Some(name) = InterpolationMode::from_raw(mode as u8).listing_name() else {
                        out.truncate(mark);
                        return None;
                    };
                    // ` linear`; the operand's leading space follows the name.
                    out.push(b' ');
                    out.extend_from_slice(name.as_bytes());
                }
            }
            // Nothing in the opcode token but the opcode and the length.
            DECL_CB | DECL_RAW if self.is_sm51() => {
                // The whole line, with the register's range and space.
                if self.direct_ranged(row.controls == DECL_CB, tok0, body, out).is_none() {
                    out.truncate(mark);
                    return None;
                }
                self.depth = depth;
                return Some(bytes);
            }
            // Nothing in the opcode token but the opcode and the length (for the raw
            // declarations: no `_glc`, bit 16, nor `_rov`, bit 17).
            DECL_REGISTER | DECL_NAMED | DECL_TEMPS | DECL_THREAD_GROUP | DECL_RAW if tok0 & 0x00ff_f800 != 0 => {
                out.truncate(mark);
                return None;
            }
            DECL_CB if tok0 & 0x00ff_f000 != 0 => {
                // The access pattern (bit 11), and nothing else.
                out.truncate(mark);
                return None;
            }
            DECL_SAMPLER => {
                // The sampler mode (bits 14:11); SM5.1's ranges and spaces go to the
                // general path.
                // A sampler's register is printed bare (no selection, no modifier):
                // its operand token must hold neither.
                let bare_register = body.first_chunk::<4>().is_some_and(|t| {
                    let t = u32::from_le_bytes(*t);
                    let file = (t >> 12) & 0xff;
                    t & 0x8000_0003 == 0 && file != IMMEDIATE32 && file != IMMEDIATE64
                });
                if tok0 & 0x00ff_8000 != 0 || self.is_sm51() || !bare_register {
                    out.truncate(mark);
                    return None;
                }
            }
            DECL_RAW => {
                // `t0`: the register's token bare, with one immediate index (as for
                // `dcl_resource`), printed as an operand.
                let bare_register = body.first_chunk::<4>().is_some_and(|t| {
                    let t = u32::from_le_bytes(*t);
                    let file = (t >> 12) & 0xff;
                    t & 0xfff0_0003 == 0x0010_0000 && file != IMMEDIATE32 && file != IMMEDIATE64
                });
                if !bare_register {
                    out.truncate(mark);
                    return None;
                }
            }
            DECL_RESOURCE => {
                // `_texture2d` or `_texture2dms(4)`, then ` (float,float,float,float)`:
                // the register's token is bare, with one immediate index (below Shader
                // Model 5.1), and the return types' token follows its index.
                let dimension = ResourceDimension::from_raw(((tok0 >> 11) & 0x1f) as u8);
                let samples = (tok0 >> 16) & 0x7f;
                let multisampled =
                    matches!(dimension, ResourceDimension::Texture2DMS | ResourceDimension::Texture2DMSArray);
                let register = body.first_chunk::<4>().map(|t| u32::from_le_bytes(*t));
                let bare_register = register.is_some_and(|t| {
                    let file = (t >> 12) & 0xff;
                    t & 0xfff0_0003 == 0x0010_0000 && file != IMMEDIATE32 && file != IMMEDIATE64
                });
                let types = body.get(8..12).and_then(|t| t.first_chunk::<4>()).map(|t| u32::from_le_bytes(*t));
                let (Some(name), Some(types)) = (dimension.listing_name(), types) else {
                    out.truncate(mark);
                    return None;
                };
                if tok0 & 0x0080_0000 != 0 || self.is_sm51() || !bare_register || types >> 16 != 0 {
                    out.truncate(mark);
                    return None;
                }
                out.push(b'_');
                out.extend_from_slice(name.as_bytes());
                if multisampled {
                    out.push(b'(');
                    put_u32(out, samples);
                    out.push(b')');
                }
                out.extend_from_slice(b" (");
                for (i, shift) in [0, 4, 8, 12].into_iter().enumerate() {
                    if i > 0 {
                        out.push(b',');
                    }
                    let Some(ty) = ReturnType::from_raw(((types >> shift) & 0xf) as u8).listing_name() else {
                        out.truncate(mark);
                        return None;
                    };
                    out.extend_from_slice(ty.as_bytes());
                }
                out.push(b')');
            }
            DECL_FLAGS => {
                // Every flag set has a name; none set prints the bare mnemonic and a
                // space (the 6.3.9600 style's `none` never comes here).
                let flags = GLOBAL_FLAGS.put(GLOBAL_FLAGS.get(tok0));
                let named = GLOBAL_FLAG_NAMES.iter().fold(0, |m, (bit, _)| m | bit);
                if tok0 & 0x00ff_f800 & !flags != 0 || flags & !named != 0 || length != 1 {
                    out.truncate(mark);
                    return None;
                }
                out.push(b' ');
                let mut first = true;
                for (bit, name) in GLOBAL_FLAG_NAMES {
                    if flags & bit != 0 {
                        if !first {
                            out.extend_from_slice(b" | ");
                        }
                        out.extend_from_slice(name.as_bytes());
                        first = false;
                    }
                }
                out.push(b'\n');
                self.depth = depth;
                return Some(4);
            }
            _ => {}
        }
        let mut tokens = Tokens(body);
        let mut w = Word { bits: b' ' as u64, len: 1 };
        for (i, &ty) in row.types.iter().take(row.count as usize).enumerate() {
            if i > 0 {
                w.add(out, const { word(", ") }, 2);
            }
            if self.direct_operand(&mut tokens, ty, &mut w, out).is_none() {
                out.truncate(mark);
                return None;
            }
        }
        match row.controls {
            DECL_CB => {
                // `cb0[4]` (`CB0[4]` from fxc 10 on): the operand's two immediate
                // indices, whatever else its token says, as the general path prints it.
                let cb = tokens.next().filter(|t| {
                    let file = (t >> 12) & 0xff;
                    t & 0xfff0_0000 == 0x0020_0000 && file != IMMEDIATE32 && file != IMMEDIATE64
                });
                let (Some(_), Some(id), Some(count)) = (cb, tokens.next(), tokens.next()) else {
                    out.truncate(mark);
                    return None;
                };
                let Some(access) = CbAccessPattern::from_raw(((tok0 >> 11) & 1) as u8).listing_name() else {
                    out.truncate(mark);
                    return None;
                };
                let upper = !self.style.older_than(10, 0);
                w.add(out, if upper { const { word("CB") } } else { const { word("cb") } }, 2);
                w.decimal(out, id);
                w.add(out, b'[' as u64, 1);
                w.decimal(out, count);
                w.add(out, const { word("], ") }, 3);
                w.flush(out);
                out.extend_from_slice(access.as_bytes());
            }
            DECL_SAMPLER => {
                let Some(mode) = SamplerMode::from_raw(((tok0 >> 11) & 0xf) as u8).listing_name() else {
                    out.truncate(mark);
                    return None;
                };
                w.add(out, const { word(", ") }, 2);
                w.flush(out);
                out.extend_from_slice(mode.as_bytes());
            }
            // The return types' token, printed before the register.
            DECL_RESOURCE if tokens.next().is_none() => {
                out.truncate(mark);
                return None;
            }
            DECL_THREAD_GROUP => {
                let (Some(x), Some(y), Some(z)) = (tokens.next(), tokens.next(), tokens.next()) else {
                    out.truncate(mark);
                    return None;
                };
                w.decimal(out, x);
                w.add(out, const { word(", ") }, 2);
                w.decimal(out, y);
                w.add(out, const { word(", ") }, 2);
                w.decimal(out, z);
            }
            DECL_TEMPS => match tokens.next() {
                Some(n) => w.decimal(out, n),
                None => {
                    out.truncate(mark);
                    return None;
                }
            },
            DECL_NAMED | DECL_INPUT_PS_NAMED => {
                // A system value with a name (`position`), its token's high half 0.
                let name =
                    tokens.next().filter(|n| n >> 16 == 0).and_then(|n| SystemName::from_raw(n as u16).listing_name());
                let Some(name) = name else {
                    out.truncate(mark);
                    return None;
                };
                w.add(out, const { word(", ") }, 2);
                w.flush(out);
                out.extend_from_slice(name.as_bytes());
            }
            _ => {}
        }
        if !tokens.0.is_empty() {
            out.truncate(mark);
            return None;
        }
        w.add(out, b'\n' as u64, 1);
        w.flush(out);
        self.depth = depth + (row.flow & OPENS != 0) as usize;
        Some(bytes)
    }

    /// The rest of the line of a Shader Model 5.1 declaration of a raw buffer or a
    /// constant buffer, after its mnemonic: ` U0[0:0], space=0`, ` CB0[0:0][4],
    /// immediateIndexed, space=0` (the general path's `Exception::ConstantBuffer`,
    /// `Item::Range`, `Item::Space`); `None` for any other form. (Out of line:
    /// declarations are rare, and the common instructions run faster in a smaller
    /// `direct`.)
    #[inline(never)]
    fn direct_ranged(&self, cb: bool, tok0: u32, body: &[u8], out: &mut Vec<u8>) -> Option<()> {
        // Nothing in the opcode token but the access pattern (bit 11) of a constant
        // buffer; no `_glc` or `_rov` on a raw buffer.
        let bits = if cb { 0x00ff_f000 } else { 0x00ff_f800 };
        if tok0 & bits != 0 {
            return None;
        }
        let mut tokens = Tokens(body);
        let mut w = Word { bits: b' ' as u64, len: 1 };
        Self::direct_range(&mut tokens, cb, &mut w, out)?;
        if cb {
            let access = CbAccessPattern::from_raw(((tok0 >> 11) & 1) as u8).listing_name()?;
            let size = tokens.next()?;
            w.add(out, b'[' as u64, 1);
            w.decimal(out, size);
            w.add(out, const { word("], ") }, 3);
            w.flush(out);
            out.extend_from_slice(access.as_bytes());
        }
        if let Some(space) = tokens.next() {
            w.add(out, const { word(", space=") }, 8);
            w.decimal(out, space);
        }
        if !tokens.0.is_empty() {
            return None;
        }
        w.add(out, b'\n' as u64, 1);
        w.flush(out);
        Some(())
    }

    /// A declared register's range from Shader Model 5.1, as the general path prints it
    /// (`Printer::decl_register`, `Printer::range_indices`): `T0[0:3]`, `*` for an
    /// unbounded upper bound, `CB` before it for a constant buffer (`cb`) whatever its
    /// register type. Its token must have three immediate indices and no extended
    /// token; `None` otherwise.
    #[inline(always)]
    fn direct_range(tokens: &mut Tokens<'_>, cb: bool, w: &mut Word, out: &mut Vec<u8>) -> Option<()> {
        let t = tokens.next()?;
        let file = (t >> 12) & 0xff;
        if t & 0xfff0_0000 != 0x0030_0000 || file == IMMEDIATE32 || file == IMMEDIATE64 {
            return None;
        }
        if cb {
            w.add(out, const { word("CB") }, 2);
        } else {
            let (prefix, len) = &PREFIXES[1][file as usize];
            if *len == 0 {
                return None;
            }
            w.flush(out);
            put(out, prefix, *len as usize);
        }
        let (id, lower, upper) = (tokens.next()?, tokens.next()?, tokens.next()?);
        w.decimal(out, id);
        w.add(out, b'[' as u64, 1);
        w.decimal(out, lower);
        w.add(out, b':' as u64, 1);
        if upper == u32::MAX {
            w.add(out, b'*' as u64, 1);
        } else {
            w.decimal(out, upper);
        }
        w.add(out, b']' as u64, 1);
        Some(())
    }

    /// One operand: a register with immediate indices, or a 32-bit immediate, with an
    /// optional modifier token (`-`, `|...|`); `None` for any other.
    #[inline(always)]
    fn direct_operand(&self, tokens: &mut Tokens<'_>, ty: Ty, w: &mut Word, out: &mut Vec<u8>) -> Option<()> {
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
                1 => w.add(out, b'-' as u64, 1),
                2 => w.add(out, b'|' as u64, 1),
                3 => w.add(out, const { word("-|") }, 2),
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
            w.add(out, const { word("l(") }, 2);
            for i in 0..count {
                if i > 0 {
                    if ty == Ty::Any {
                        w.add(out, b',' as u64, 1);
                    } else {
                        w.add(out, const { word(", ") }, 2);
                    }
                }
                self.direct_value(tokens.next()?, ty, w, out);
            }
            w.add(out, b')' as u64, 1);
        } else {
            // Immediate 32-bit indices only (every representation field 0).
            if file == IMMEDIATE64 || (t >> 22) & 0x1ff != 0 {
                return None;
            }
            let sm51 = self.is_sm51() as usize;
            let (prefix, len) = SHORT_PREFIXES[sm51][file as usize];
            if len > 0 {
                w.add(out, prefix, len as u32);
            } else {
                let (prefix, len) = &PREFIXES[sm51][file as usize];
                if *len == 0 {
                    // A type without a name (printed `?`): the general path.
                    return None;
                }
                w.flush(out);
                put(out, prefix, *len as usize);
            }
            let inline_first = inline_first_index(OperandType::from_raw(file as u8), dims as usize);
            for d in 0..dims {
                let v = tokens.next()?;
                if d == 0 && inline_first {
                    w.decimal(out, v);
                } else {
                    w.add(out, b'[' as u64, 1);
                    w.decimal(out, v);
                    w.add(out, b']' as u64, 1);
                }
            }
            if components == 2 {
                let bits = (t >> 4) as usize;
                match (t >> 2) & 3 {
                    0 => {
                        let (text, len) = MASKS[bits & 0xf];
                        if len > 0 {
                            w.add(out, text, len as u32);
                        }
                    }
                    1 => w.add(out, SWIZZLES[bits & 0xff], 5),
                    2 => w.add(out, b'.' as u64 | (b"xyzw"[bits & 3] as u64) << 8, 2),
                    _ => {}
                }
            }
        }
        if abs {
            w.add(out, b'|' as u64, 1);
        }
        Some(())
    }

    /// A 32-bit immediate value in a slot of type `ty` ([`Printer::value`] without
    /// exact floats).
    #[inline]
    fn direct_value(&self, v: u32, ty: Ty, w: &mut Word, out: &mut Vec<u8>) {
        if self.format.hex_literals {
            w.flush(out);
            put_hex8(out, v);
            return;
        }
        let float = match ty {
            Ty::F => true,
            Ty::Any => looks_like_float(v),
            Ty::I | Ty::U | Ty::R | Ty::D => false,
        };
        if float {
            w.flush(out);
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
                    w.add(out, b'-' as u64, 1);
                }
                w.decimal(out, s.unsigned_abs());
            } else {
                w.flush(out);
                put_hex8(out, v);
            }
        }
    }
}
