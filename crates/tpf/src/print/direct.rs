//! The direct path of the program printer: an executable instruction whose operands
//! are plain registers and immediates is printed straight from its tokens, without
//! decoding it into an [`Instruction`](crate::Instruction) first.
//!
//! Most lines of a listing are such instructions (`mul r0.xyzw, r1.xyzw, cb0[2].xyzw`,
//! `mov o0.xy, -v1.xyxx`, `add r0.x, r0.x, l(1.000000)`). For them the printer reads
//! the opcode token's table row and each operand token, and writes the same text as
//! the general path ([`Printer::instruction_at`] on the decoded instruction) from the
//! same sources: the row's mnemonic and operand types, the register prefixes and
//! selection spellings, the value formatting (indices of one to three dimensions:
//! `r0`, `cb0[2]`, Shader Model 5.1's `CB0[0][2]`, relative ones `cb4[r0.x + 1]`), the
//! extended opcode tokens of plain instructions (`sample_aoffimmi_indexable(1,0,0)
//! (texture2d)(float,float,float,float)`). Each piece is a fixed-size copy from a padded
//! table into a line written in the output's spare capacity and committed whole (see
//! `Line`). The most common declarations are printed so
//! too (`dcl_input`, `dcl_output`, `dcl_output_siv`, `dcl_input_ps`, `dcl_input_ps_siv`, `dcl_temps`,
//! `dcl_sampler`, `dcl_resource_*`, `dcl_globalFlags`, below Shader Model 5.1 for the
//! register ranges; `dcl_thread_group`; `dcl_constantbuffer`, `dcl_uav_raw` and
//! `dcl_resource_raw` in every model, Shader Model 5.1's `CB0[0:0][4]`, `U0[0:0]` and
//! `, space=0` by one out-of-line function). Everything else goes to the general path: the other
//! declarations, data blocks, extended opcode tokens of other instructions, relative
//! indices whose register has an extended operand token, precision and other operand
//! extensions, 64-bit immediates, the controls of `resinfo`,
//! `sampleinfo` and `sync`, tokens left over after the operands; and whole programs in
//! the d3dcompiler_47 6.3.9600 style, with dxref's exact floats or with the number and
//! offset columns. A test compares the two paths on every instruction of the corpus
//! and of generated programs.

use super::{inline_first_index, looks_like_float, mask_text, push_double, register_prefix, Printer};
use crate::digits;
use crate::enums::{
    CbAccessPattern, InterpolationMode, ResourceDimension, ReturnType, SamplerMode, SystemName, GLOBAL_FLAG_NAMES,
};
use crate::enums::{Mask, OperandType};
use crate::layout::GLOBAL_FLAGS;
use crate::table::{Controls, DeclKind, Flow, Shape, Ty, TABLE};
use std::mem::MaybeUninit;

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

/// Whether a register's first index is written after its prefix
/// ([`inline_first_index`]), by operand-type value: bit `d` for `d` dimensions.
static INLINE_FIRST: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut raw = 0;
    while raw < 256 {
        let ty = OperandType::from_raw(raw as u8);
        let mut dims = 0;
        while dims < 8 {
            if inline_first_index(ty, dims) {
                t[raw] |= 1 << dims;
            }
            dims += 1;
        }
        raw += 1;
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

/// One line of the direct path, written into the spare capacity of the output (after
/// its length, which moves only once the whole line is written).
///
/// Every piece is stored with one fixed-size copy (a word of up to 8 bytes, a padded
/// table entry) and the position moves on by the piece's length: the bytes stored past
/// it are overwritten by the next piece, or left past the line's end. No capacity check
/// or length update per piece, and the position stays in a register. A piece that does
/// not fit in the room reserved makes the line fail (`None`), and the instruction goes
/// to the general path with nothing committed.
struct Line<'a> {
    buf: &'a mut [MaybeUninit<u8>; WINDOW],
    /// Bytes written: every byte of `buf[..pos]` has been stored.
    pos: usize,
}

impl Line<'_> {
    /// Stores `piece` (all `N` bytes) and keeps its first `len` (at most `N`).
    #[inline(always)]
    fn put<const N: usize>(&mut self, piece: &[u8; N], len: usize) -> Option<()> {
        // One comparison (`pos + N` within the window) checks the whole piece.
        let end = self.pos.checked_add(N)?;
        let dst: *mut [MaybeUninit<u8>; N] = self.buf.get_mut(self.pos..end)?.first_chunk_mut::<N>()?;
        // SAFETY: `dst` is `N` bytes of the buffer, writable, and `[MaybeUninit<u8>; N]`
        // has the layout of `[u8; N]` (alignment 1). (One copy of `N` bytes: an
        // element-wise copy into the `MaybeUninit`s compiles to `N` byte copies.)
        unsafe { dst.cast::<[u8; N]>().write(*piece) };
        self.pos += len.min(N);
        Some(())
    }

    /// Appends the `len` low bytes of `bits` (`len <= 8`).
    #[inline(always)]
    fn word(&mut self, bits: u64, len: usize) -> Option<()> {
        self.put(&bits.to_le_bytes(), len)
    }

    /// Appends one byte.
    #[inline(always)]
    fn byte(&mut self, b: u8) -> Option<()> {
        self.word(b as u64, 1)
    }

    /// Appends the `_sat` and ` [precise(xy)]` of the opcode token `tok0`.
    #[inline(always)]
    fn sat_precise(&mut self, tok0: u32) -> Option<()> {
        if (tok0 >> 13) & 1 != 0 {
            self.word(const { word("_sat") }, 4)?;
        }
        let precise = (tok0 >> 19) & 0xf;
        if precise != 0 {
            self.put(b" [precise", 9)?;
            if precise != 0xf {
                // `(xy)`: the mask's letters without the dot.
                let (text, len) = MASKS[precise as usize];
                self.word(text & !0xff | b'(' as u64, len as usize)?;
                self.byte(b')')?;
            }
            self.byte(b']')?;
        }
        Some(())
    }

    /// Appends the register prefix of operand type `file` (before Shader Model 5.1 and
    /// from it, `sm51` 0 or 1); `None` for a type without a name (printed `?` by the
    /// general path).
    #[inline(always)]
    fn prefix(&mut self, file: u32, sm51: usize) -> Option<()> {
        let (prefix, len) = SHORT_PREFIXES[sm51][file as usize & 0xff];
        if len > 0 {
            self.word(prefix, len as usize)
        } else {
            let (prefix, len) = &PREFIXES[sm51][file as usize & 0xff];
            if *len == 0 {
                return None;
            }
            self.put(prefix, *len as usize)
        }
    }

    /// Appends the selection of the four-component operand token `t`: `.xz`, `.xyzw`,
    /// `.y` (its mask, swizzle or one component).
    #[inline(always)]
    fn selection(&mut self, t: u32) -> Option<()> {
        let bits = (t >> 4) as usize;
        match (t >> 2) & 3 {
            0 => {
                let (text, len) = MASKS[bits & 0xf];
                self.word(text, len as usize)
            }
            1 => self.word(SWIZZLES[bits & 0xff], 5),
            2 => self.word(b'.' as u64 | (b"xyzw"[bits & 3] as u64) << 8, 2),
            _ => Some(()),
        }
    }

    /// Appends `s` (names of declarations: rare, of any length).
    #[inline(always)]
    fn bytes(&mut self, s: &[u8]) -> Option<()> {
        self.pos = store_bytes(self.buf.as_mut_slice(), self.pos, s)?;
        Some(())
    }

    /// Appends `v` in decimal (`%u`): up to 999 composed in a word, more digits out
    /// of line.
    #[inline(always)]
    fn decimal(&mut self, v: u32) -> Option<()> {
        if v < 10 {
            self.word((b'0' + v as u8) as u64, 1)
        } else if v < 100 {
            self.word(pair_word(v), 2)
        } else if v < 1000 {
            self.word((b'0' + (v / 100) as u8) as u64 | pair_word(v % 100) << 8, 3)
        } else {
            self.long_decimal(v as u64)
        }
    }

    /// [`Line::decimal`] of any `u64`.
    #[inline(always)]
    fn long_decimal(&mut self, v: u64) -> Option<()> {
        self.pos = store_decimal(self.buf.as_mut_slice(), self.pos, v)?;
        Some(())
    }

    /// Appends `v` as `0x%08x`.
    #[inline(always)]
    fn hex8(&mut self, v: u32) -> Option<()> {
        self.word(const { word("0x") }, 2)?;
        self.word(hex_digits(v), 8)
    }

    /// Appends `%f` of a value of `millionths` (a sign when `negative`): the integer
    /// part, then `.` and the six decimals composed in one word.
    #[inline(always)]
    fn millionths(&mut self, negative: bool, millionths: u64) -> Option<()> {
        if negative {
            self.byte(b'-')?;
        }
        let int = millionths / 1_000_000;
        let frac = (millionths % 1_000_000) as u32;
        match u32::try_from(int) {
            Ok(int) => self.decimal(int)?,
            Err(_) => self.long_decimal(int)?,
        }
        let decimals = b'.' as u64
            | pair_word(frac / 10_000) << 8
            | pair_word(frac / 100 % 100) << 24
            | pair_word(frac % 100) << 40;
        self.word(decimals, 7)
    }
}

/// `v`'s eight hexadecimal digits (`%08x`) as the bytes of a little-endian word,
/// computed side by side: each nibble spread to a byte of its own, then made a digit.
#[inline(always)]
fn hex_digits(v: u32) -> u64 {
    let mut x = v as u64;
    x = (x | x << 16) & 0x0000_ffff_0000_ffff;
    x = (x | x << 8) & 0x00ff_00ff_00ff_00ff;
    // Byte k holds nibble k (the least significant first).
    x = (x | x << 4) & 0x0f0f_0f0f_0f0f_0f0f;
    // 1 in each byte whose nibble is 10 or more (no byte carries into the next).
    let letters = ((x + 0x0606_0606_0606_0606) >> 4) & 0x0101_0101_0101_0101;
    // `0` + n below 10, `a` + (n - 10) from it: `a` is `0` + 10 + 39.
    let digits = x + 0x3030_3030_3030_3030 + letters * 39;
    // The most significant nibble first.
    digits.swap_bytes()
}

/// The indices of a register whose operand token `t` has relative ones, read from
/// `tokens` (the operand's tokens after `t`) and stored at `pos` of `buf`: `[r0.x + 2]`,
/// `[r1.y + 0]` for a relative index without an immediate part, immediate indices as
/// [`Printer::direct_operand`] prints them (the general path's `Printer::register`,
/// `Printer::index`). The register of a relative index must have immediate indices
/// only and no extended operand token; `None` otherwise. The tokens left and the
/// position after the indices.
#[inline(never)]
fn direct_relative_indices<'t>(
    tokens: &'t [u8],
    t: u32,
    inline_first: bool,
    sm51: usize,
    buf: &mut [MaybeUninit<u8>; WINDOW],
    pos: usize,
) -> Option<(&'t [u8], usize)> {
    let mut tokens = Tokens(tokens);
    let line = &mut Line { buf, pos };
    let dims = (t >> 20) & 3;
    // No representation given for an index the register does not have.
    if ((t >> 22) & 0x1ff) >> (3 * dims) != 0 {
        return None;
    }
    for d in 0..dims {
        let repr = (t >> (22 + 3 * d)) & 7;
        if repr == 0 {
            let v = tokens.next()?;
            if d == 0 && inline_first {
                line.decimal(v)?;
            } else {
                line.byte(b'[')?;
                line.decimal(v)?;
                line.byte(b']')?;
            }
            continue;
        }
        // The immediate part (if any) comes before the register.
        let imm = match repr {
            2 => 0,
            3 => tokens.next()?,
            _ => return None,
        };
        line.byte(b'[')?;
        let r = tokens.next()?;
        let (file, dims) = ((r >> 12) & 0xff, (r >> 20) & 3);
        if r & 0x8000_0000 != 0 || (r >> 22) & 0x1ff != 0 || file == IMMEDIATE32 || file == IMMEDIATE64 {
            return None;
        }
        line.prefix(file, sm51)?;
        let inline_first = (INLINE_FIRST[file as usize] >> dims) & 1 != 0;
        for d in 0..dims {
            let v = tokens.next()?;
            if d == 0 && inline_first {
                line.decimal(v)?;
            } else {
                line.byte(b'[')?;
                line.decimal(v)?;
                line.byte(b']')?;
            }
        }
        if r & 3 == 2 {
            line.selection(r)?;
        }
        line.word(const { word(" + ") }, 3)?;
        line.decimal(imm)?;
        line.byte(b']')?;
    }
    Some((tokens.0, line.pos))
}

/// The number of extended opcode tokens at the start of `body`: each but the last has
/// bit 31 set. `None` past the body or beyond three (one of each kind the direct path
/// prints).
#[inline(never)]
fn extended_count(body: &[u8]) -> Option<usize> {
    let mut tokens = Tokens(body);
    for n in 1..=3 {
        if tokens.next()? & 0x8000_0000 == 0 {
            return Some(n);
        }
    }
    None
}

/// Stores `s` at `pos` of `buf`; the position after it. (Out of line, as the other
/// rare pieces: the position of a line stays in a register only if no call sees it.)
#[inline(never)]
fn store_bytes(buf: &mut [MaybeUninit<u8>], pos: usize, s: &[u8]) -> Option<usize> {
    let dst = buf.get_mut(pos..)?.get_mut(..s.len())?;
    for (d, s) in dst.iter_mut().zip(s) {
        *d = MaybeUninit::new(*s);
    }
    pos.checked_add(s.len())
}

/// Stores `%f` of `f` at `pos` of `buf` by the general formatting (a magnitude of
/// 2^43 or more, an infinity, a NaN); the position after it.
#[inline(never)]
fn store_double(buf: &mut [MaybeUninit<u8>], pos: usize, f: f32, style: crate::style::Style) -> Option<usize> {
    let mut s = String::new();
    push_double(f as f64, style, &mut s);
    store_bytes(buf, pos, s.as_bytes())
}

/// Stores `v` in decimal at `pos` of `buf`; the position after it.
#[inline(never)]
fn store_decimal(buf: &mut [MaybeUninit<u8>], pos: usize, v: u64) -> Option<usize> {
    // Right-aligned in a buffer of the longest (20 digits), then stored.
    let mut text = [0u8; 20];
    let mut i = text.len();
    let mut v = v;
    while i > 0 {
        i -= 1;
        text[i] = b'0' + (v % 10) as u8;
        v /= 10;
        if v == 0 {
            break;
        }
    }
    store_bytes(buf, pos, text.get(i..)?)
}

/// The two digits of `v` (below 100) as a word.
#[inline(always)]
fn pair_word(v: u32) -> u64 {
    (b'0' + (v / 10) as u8) as u64 | ((b'0' + (v % 10) as u8) as u64) << 8
}

/// Two spaces per level of indentation, as many as the deepest indentation printed.
const SPACES: [u8; 2 * crate::limits::MAX_INDENT_DEPTH] = [b' '; 2 * crate::limits::MAX_INDENT_DEPTH];

/// The room a line is written in: the deepest indentation and the longest mnemonic
/// (both stored whole), and lines of common instructions are far shorter; a line that
/// does not fit goes to the general path. A fixed size, so that a piece's bounds are
/// one comparison of its end with a constant.
const WINDOW: usize = 512;

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
        // Executable instructions with their length in the opcode token; extended
        // opcode tokens (`sample_indexable(texture2d)...`) on plain ones only.
        let length = ((tok0 >> 24) & 0x7f) as usize;
        if row.controls == NOT_DIRECT || length == 0 {
            return None;
        }
        let bytes = length * 4;
        let body = program.get(4..bytes)?;
        if tok0 & 0x8000_0000 != 0 {
            self.direct_extended_instruction(tok0, row, body, out)?;
        } else {
            self.direct_commit(tok0, row, &[], body, out)?;
        }
        Some(bytes)
    }

    /// [`Printer::direct`] of an instruction with extended opcode tokens, at the start
    /// of `body`: a plain instruction's only. (Out of line, so that the common lines'
    /// code is compiled without them.)
    #[inline(never)]
    fn direct_extended_instruction(&mut self, tok0: u32, row: &Row, body: &[u8], out: &mut Vec<u8>) -> Option<()> {
        if row.controls != PLAIN {
            return None;
        }
        let (ext, body) = body.split_at_checked(4 * extended_count(body)?)?;
        self.direct_commit(tok0, row, ext, body, out)
    }

    /// Writes the line of an instruction (extended opcode tokens `ext`, operand tokens
    /// `body`) into `out` if the direct path prints it, and moves the indentation on.
    #[inline(always)]
    fn direct_commit(&mut self, tok0: u32, row: &Row, ext: &[u8], body: &[u8], out: &mut Vec<u8>) -> Option<()> {
        // Indentation: the block closers and `else` are printed one level out.
        let depth = if row.flow & CLOSES != 0 { self.depth.saturating_sub(1) } else { self.depth };
        out.reserve(WINDOW);
        let start = out.len();
        let mut line = Line { buf: out.spare_capacity_mut().first_chunk_mut::<WINDOW>()?, pos: 0 };
        self.direct_line(tok0, row, depth, ext, body, &mut line)?;
        let end = start + line.pos;
        // SAFETY: `line` wrote every byte of the spare capacity below `line.pos` (its
        // invariant), all of them ASCII (see `Printer::instructions`), and `line.pos`
        // is within the spare capacity (each piece was stored in it).
        unsafe { out.set_len(end) };
        self.depth = depth + (row.flow & OPENS != 0) as usize;
        Some(())
    }

    /// The line of [`Printer::direct`]: `None` when the general path prints it.
    #[inline(always)]
    fn direct_line(
        &self,
        tok0: u32,
        row: &Row,
        depth: usize,
        ext: &[u8],
        body: &[u8],
        line: &mut Line<'_>,
    ) -> Option<()> {
        let number = (tok0 & 0x7ff) as usize;
        let length = ((tok0 >> 24) & 0x7f) as usize;
        let indent = 2 * depth.min(crate::limits::MAX_INDENT_DEPTH);
        if indent > 0 {
            line.put(&SPACES, indent)?;
        }
        line.put(&row.mnemonic, row.mnemonic_len as usize)?;
        match row.controls {
            PLAIN if !ext.is_empty() => {
                line.pos = self.direct_extended(tok0, ext, line.buf, line.pos)?;
            }
            PLAIN => line.sat_precise(tok0)?,
            TEST => {
                // fxc 9.x leaves out the `_nz` of a condition that is an immediate (see
                // the general path).
                if (tok0 >> 18) & 1 == 0 {
                    line.word(const { word("_z") }, 2)?;
                } else {
                    let immediate =
                        body.first_chunk::<4>().is_some_and(|t| (u32::from_le_bytes(*t) >> 12) & 0xff == IMMEDIATE32);
                    if !immediate || self.style.version.0 != 9 {
                        line.word(const { word("_nz") }, 3)?;
                    }
                }
            }
            DECL_INPUT_PS | DECL_INPUT_PS_NAMED => {
                // The interpolation mode (bits 14:11), and nothing else; `dcl_input_ps_sgv`
                // does not print it.
                let mode = (tok0 >> 11) & 0xf;
                let unprinted = row.controls == DECL_INPUT_PS_NAMED && number != DCL_INPUT_PS_SIV;
                if tok0 & 0x00ff_8000 != 0 || (unprinted && mode != 0) {
                    return None;
                }
                if mode != 0 {
                    let name = InterpolationMode::from_raw(mode as u8).listing_name()?;
                    // ` linear`; the operand's leading space follows the name.
                    line.byte(b' ')?;
                    line.bytes(name.as_bytes())?;
                }
            }
            // Nothing in the opcode token but the opcode and the length.
            DECL_CB | DECL_RAW if self.is_sm51() => {
                // The whole line, with the register's range and space.
                line.pos = self.direct_ranged(row.controls == DECL_CB, tok0, body, line.buf, line.pos)?;
                return Some(());
            }
            // Nothing in the opcode token but the opcode and the length (for the raw
            // declarations: no `_glc`, bit 16, nor `_rov`, bit 17).
            DECL_REGISTER | DECL_NAMED | DECL_TEMPS | DECL_THREAD_GROUP | DECL_RAW if tok0 & 0x00ff_f800 != 0 => {
                return None;
            }
            DECL_CB if tok0 & 0x00ff_f000 != 0 => {
                // The access pattern (bit 11), and nothing else.
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
                let types = body.get(8..12).and_then(|t| t.first_chunk::<4>()).map(|t| u32::from_le_bytes(*t))?;
                let name = dimension.listing_name()?;
                if tok0 & 0x0080_0000 != 0 || self.is_sm51() || !bare_register || types >> 16 != 0 {
                    return None;
                }
                line.byte(b'_')?;
                line.bytes(name.as_bytes())?;
                if multisampled {
                    line.byte(b'(')?;
                    line.decimal(samples)?;
                    line.byte(b')')?;
                }
                line.word(const { word(" (") }, 2)?;
                for (i, shift) in [0, 4, 8, 12].into_iter().enumerate() {
                    if i > 0 {
                        line.byte(b',')?;
                    }
                    let ty = ReturnType::from_raw(((types >> shift) & 0xf) as u8).listing_name()?;
                    line.bytes(ty.as_bytes())?;
                }
                line.byte(b')')?;
            }
            DECL_FLAGS => {
                // Every flag set has a name; none set prints the bare mnemonic and a
                // space (the 6.3.9600 style's `none` never comes here).
                let flags = GLOBAL_FLAGS.put(GLOBAL_FLAGS.get(tok0));
                let named = GLOBAL_FLAG_NAMES.iter().fold(0, |m, (bit, _)| m | bit);
                if tok0 & 0x00ff_f800 & !flags != 0 || flags & !named != 0 || length != 1 {
                    return None;
                }
                line.byte(b' ')?;
                let mut first = true;
                for (bit, name) in GLOBAL_FLAG_NAMES {
                    if flags & bit != 0 {
                        if !first {
                            line.word(const { word(" | ") }, 3)?;
                        }
                        line.bytes(name.as_bytes())?;
                        first = false;
                    }
                }
                return line.byte(b'\n');
            }
            _ => {}
        }
        let mut tokens = Tokens(body);
        line.byte(b' ')?;
        let sm51 = self.is_sm51() as usize;
        for (i, &ty) in row.types.iter().take(row.count as usize).enumerate() {
            if i > 0 {
                line.word(const { word(", ") }, 2)?;
            }
            self.direct_operand(&mut tokens, ty, sm51, line)?;
        }
        match row.controls {
            DECL_CB => {
                // `cb0[4]` (`CB0[4]` from fxc 10 on): the operand's two immediate
                // indices, whatever else its token says, as the general path prints it.
                tokens.next().filter(|t| {
                    let file = (t >> 12) & 0xff;
                    t & 0xfff0_0000 == 0x0020_0000 && file != IMMEDIATE32 && file != IMMEDIATE64
                })?;
                let (id, count) = (tokens.next()?, tokens.next()?);
                let access = CbAccessPattern::from_raw(((tok0 >> 11) & 1) as u8).listing_name()?;
                let upper = !self.style.older_than(10, 0);
                line.word(if upper { const { word("CB") } } else { const { word("cb") } }, 2)?;
                line.decimal(id)?;
                line.byte(b'[')?;
                line.decimal(count)?;
                line.word(const { word("], ") }, 3)?;
                line.bytes(access.as_bytes())?;
            }
            DECL_SAMPLER => {
                let mode = SamplerMode::from_raw(((tok0 >> 11) & 0xf) as u8).listing_name()?;
                line.word(const { word(", ") }, 2)?;
                line.bytes(mode.as_bytes())?;
            }
            // The return types' token, printed before the register.
            DECL_RESOURCE => {
                tokens.next()?;
            }
            DECL_THREAD_GROUP => {
                let (x, y, z) = (tokens.next()?, tokens.next()?, tokens.next()?);
                line.decimal(x)?;
                line.word(const { word(", ") }, 2)?;
                line.decimal(y)?;
                line.word(const { word(", ") }, 2)?;
                line.decimal(z)?;
            }
            DECL_TEMPS => line.decimal(tokens.next()?)?,
            DECL_NAMED | DECL_INPUT_PS_NAMED => {
                // A system value with a name (`position`), its token's high half 0.
                let name = tokens
                    .next()
                    .filter(|n| n >> 16 == 0)
                    .and_then(|n| SystemName::from_raw(n as u16).listing_name())?;
                line.word(const { word(", ") }, 2)?;
                line.bytes(name.as_bytes())?;
            }
            _ => {}
        }
        if !tokens.0.is_empty() {
            return None;
        }
        line.byte(b'\n')
    }

    /// The suffixes of an instruction with extended opcode tokens `ext`, after its
    /// mnemonic, as the general path's `Printer::ext_suffixes` writes them:
    /// `_aoffimmi_indexable_sat [precise](1,-1,0)(texture2d)(float,float,float,float)`.
    /// Each kind once, without reserved bits, with names for the dimension and
    /// return types; `None` otherwise. The position after them. (Out of line: rare.)
    #[inline(never)]
    fn direct_extended(&self, tok0: u32, ext: &[u8], buf: &mut [MaybeUninit<u8>; WINDOW], pos: usize) -> Option<usize> {
        let line = &mut Line { buf, pos };
        let (mut offsets, mut dim, mut types) = (None, None, None);
        let mut tokens = Tokens(ext);
        while let Some(e) = tokens.next() {
            // The kind's fields, and the chain bit.
            let (slot, fields) = match e & 0x3f {
                1 => (&mut offsets, 0xfff << 9),
                2 => (&mut dim, 0x1f << 6 | 0xfff << 11),
                3 => (&mut types, 0xffff << 6),
                _ => return None,
            };
            if slot.is_some() || e & !(0x3f | fields | 0x8000_0000) != 0 {
                return None;
            }
            *slot = Some(e);
        }
        // fxc 9.29 writes `sample_l(1,0,0)`; later versions `sample_l_aoffimmi(1,0,0)`.
        let old = self.style.version.0 == 9 && self.style.version.1 < 30;
        if offsets.is_some() && !old {
            line.put(b"_aoffimmi", 9)?;
        }
        if dim.is_some() {
            line.put(b"_indexable", 10)?;
        }
        line.sat_precise(tok0)?;
        if let Some(e) = offsets {
            for (i, shift) in [9, 13, 17].into_iter().enumerate() {
                line.byte(if i == 0 { b'(' } else { b',' })?;
                // A signed 4-bit offset.
                let v = ((((e >> shift) & 0xf) as i8) << 4) >> 4;
                if v < 0 {
                    line.byte(b'-')?;
                }
                line.decimal(v.unsigned_abs() as u32)?;
            }
            line.byte(b')')?;
        }
        if let Some(e) = dim {
            let d = ResourceDimension::from_raw(((e >> 6) & 0x1f) as u8);
            let stride = (e >> 11) & 0xfff;
            line.byte(b'(')?;
            let structured = d == ResourceDimension::StructuredBuffer;
            line.bytes(if structured { "structured_buffer" } else { d.listing_name()? }.as_bytes())?;
            if structured || (stride != 0 && self.style.shows_stride_of_every_dimension()) {
                line.put(b", stride=", 9)?;
                line.decimal(stride)?;
            }
            line.byte(b')')?;
        }
        if let Some(e) = types {
            for (i, shift) in [6, 10, 14, 18].into_iter().enumerate() {
                line.byte(if i == 0 { b'(' } else { b',' })?;
                line.bytes(ReturnType::from_raw(((e >> shift) & 0xf) as u8).listing_name()?.as_bytes())?;
            }
            line.byte(b')')?;
        }
        Some(line.pos)
    }

    /// The rest of the line of a Shader Model 5.1 declaration of a raw buffer or a
    /// constant buffer, after its mnemonic: ` U0[0:0], space=0`, ` CB0[0:0][4],
    /// immediateIndexed, space=0` (the general path's `Exception::ConstantBuffer`,
    /// `Item::Range`, `Item::Space`); `None` for any other form. (Out of line:
    /// declarations are rare, and the common instructions run faster in a smaller
    /// `direct`.)
    #[inline(never)]
    fn direct_ranged(
        &self,
        cb: bool,
        tok0: u32,
        body: &[u8],
        buf: &mut [MaybeUninit<u8>; WINDOW],
        pos: usize,
    ) -> Option<usize> {
        let line = &mut Line { buf, pos };
        // Nothing in the opcode token but the access pattern (bit 11) of a constant
        // buffer; no `_glc` or `_rov` on a raw buffer.
        let bits = if cb { 0x00ff_f000 } else { 0x00ff_f800 };
        if tok0 & bits != 0 {
            return None;
        }
        let mut tokens = Tokens(body);
        line.byte(b' ')?;
        Self::direct_range(&mut tokens, cb, line)?;
        if cb {
            let access = CbAccessPattern::from_raw(((tok0 >> 11) & 1) as u8).listing_name()?;
            let size = tokens.next()?;
            line.byte(b'[')?;
            line.decimal(size)?;
            line.word(const { word("], ") }, 3)?;
            line.bytes(access.as_bytes())?;
        }
        if let Some(space) = tokens.next() {
            line.word(const { word(", space=") }, 8)?;
            line.decimal(space)?;
        }
        if !tokens.0.is_empty() {
            return None;
        }
        line.byte(b'\n')?;
        Some(line.pos)
    }

    /// A declared register's range from Shader Model 5.1, as the general path prints it
    /// (`Printer::decl_register`, `Printer::range_indices`): `T0[0:3]`, `*` for an
    /// unbounded upper bound, `CB` before it for a constant buffer (`cb`) whatever its
    /// register type. Its token must have three immediate indices and no extended
    /// token; `None` otherwise.
    #[inline(always)]
    fn direct_range(tokens: &mut Tokens<'_>, cb: bool, line: &mut Line<'_>) -> Option<()> {
        let t = tokens.next()?;
        let file = (t >> 12) & 0xff;
        if t & 0xfff0_0000 != 0x0030_0000 || file == IMMEDIATE32 || file == IMMEDIATE64 {
            return None;
        }
        if cb {
            line.word(const { word("CB") }, 2)?;
        } else {
            let (prefix, len) = &PREFIXES[1][file as usize];
            if *len == 0 {
                return None;
            }
            line.put(prefix, *len as usize)?;
        }
        let (id, lower, upper) = (tokens.next()?, tokens.next()?, tokens.next()?);
        line.decimal(id)?;
        line.byte(b'[')?;
        line.decimal(lower)?;
        line.byte(b':')?;
        if upper == u32::MAX {
            line.byte(b'*')?;
        } else {
            line.decimal(upper)?;
        }
        line.byte(b']')
    }

    /// One operand: a register with immediate indices, or a 32-bit immediate, with an
    /// optional modifier token (`-`, `|...|`); `None` for any other.
    #[inline(always)]
    fn direct_operand(&self, tokens: &mut Tokens<'_>, ty: Ty, sm51: usize, line: &mut Line<'_>) -> Option<()> {
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
                1 => line.byte(b'-')?,
                2 => line.byte(b'|')?,
                3 => line.word(const { word("-|") }, 2)?,
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
            line.word(const { word("l(") }, 2)?;
            for i in 0..count {
                if i > 0 {
                    if ty == Ty::Any {
                        line.byte(b',')?;
                    } else {
                        line.word(const { word(", ") }, 2)?;
                    }
                }
                self.direct_value(tokens.next()?, ty, line)?;
            }
            line.byte(b')')?;
        } else {
            if file == IMMEDIATE64 {
                return None;
            }
            let (prefix, len) = SHORT_PREFIXES[sm51][file as usize];
            if len > 0 {
                line.word(prefix, len as usize)?;
            } else {
                let (prefix, len) = &PREFIXES[sm51][file as usize];
                if *len == 0 {
                    // A type without a name (printed `?`): the general path.
                    return None;
                }
                line.put(prefix, *len as usize)?;
            }
            let inline_first = (INLINE_FIRST[file as usize] >> dims) & 1 != 0;
            if (t >> 22) & 0x1ff == 0 {
                // Immediate 32-bit indices only (every representation field 0).
                for d in 0..dims {
                    let v = tokens.next()?;
                    if d == 0 && inline_first {
                        line.decimal(v)?;
                    } else {
                        line.byte(b'[')?;
                        line.decimal(v)?;
                        line.byte(b']')?;
                    }
                }
            } else {
                let (rest, pos) = direct_relative_indices(tokens.0, t, inline_first, sm51, line.buf, line.pos)?;
                (tokens.0, line.pos) = (rest, pos);
            }
            if components == 2 {
                let bits = (t >> 4) as usize;
                match (t >> 2) & 3 {
                    0 => {
                        let (text, len) = MASKS[bits & 0xf];
                        line.word(text, len as usize)?;
                    }
                    1 => line.word(SWIZZLES[bits & 0xff], 5)?,
                    2 => line.word(b'.' as u64 | (b"xyzw"[bits & 3] as u64) << 8, 2)?,
                    _ => {}
                }
            }
        }
        if abs {
            line.byte(b'|')?;
        }
        Some(())
    }

    /// A 32-bit immediate value in a slot of type `ty` ([`Printer::value`] without
    /// exact floats).
    #[inline(always)]
    fn direct_value(&self, v: u32, ty: Ty, line: &mut Line<'_>) -> Option<()> {
        if self.format.hex_literals {
            return line.hex8(v);
        }
        let float = match ty {
            Ty::F => true,
            Ty::Any => looks_like_float(v),
            Ty::I | Ty::U | Ty::R | Ty::D => false,
        };
        if float {
            let f = f32::from_bits(v);
            match digits::millionths(f, self.rounding) {
                Some(units) => line.millionths(f.is_sign_negative(), units),
                None => {
                    line.pos = store_double(line.buf.as_mut_slice(), line.pos, f, self.style)?;
                    Some(())
                }
            }
        } else {
            // Decimal up to 10000 in magnitude, hex beyond ([`super::push_int`]).
            let s = v as i32;
            if s.unsigned_abs() <= super::DECIMAL_LIMIT as u32 {
                if s < 0 {
                    line.byte(b'-')?;
                }
                line.decimal(s.unsigned_abs())
            } else {
                line.hex8(v)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The text of `f` writing a line.
    fn text(f: impl FnOnce(&mut Line<'_>) -> Option<()>) -> String {
        let mut out = Vec::with_capacity(WINDOW);
        let mut line = Line { buf: out.spare_capacity_mut().first_chunk_mut::<WINDOW>().unwrap(), pos: 0 };
        f(&mut line).expect("the piece fits");
        let end = line.pos;
        // SAFETY: the line wrote its first `end` bytes.
        unsafe { out.set_len(end) };
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn numbers_written_in_a_line_are_those_of_the_formatter() {
        let mut values: Vec<u32> = (0..2000).collect();
        values.extend((0..32).flat_map(|k| [1u32 << k, (1u32 << k) - 1, (1u32 << k).wrapping_add(1)]));
        values.extend((1..10u32).flat_map(|k| [10u32.pow(k) - 1, 10u32.pow(k), 10u32.pow(k) + 1]));
        values.extend([u32::MAX, 0x0123_4567, 0x89ab_cdef, 0x9a9a_a9a9, 0xf0f0_0f0f]);
        values.extend((0..16u32).map(|n| n * 0x1111_1111));
        for v in values {
            assert_eq!(text(|l| l.decimal(v)), v.to_string());
            assert_eq!(text(|l| l.hex8(v)), format!("0x{v:08x}"));
            assert_eq!(
                text(|l| {
                    l.byte(b'a')?;
                    l.decimal(v)?;
                    l.byte(b'b')
                }),
                format!("a{v}b")
            );
        }
        for v in [0u64, 9, 10, 4_294_967_296, 12345678901234567890, u64::MAX] {
            assert_eq!(text(|l| l.long_decimal(v)), v.to_string());
        }
        for (neg, v) in [
            (false, 0u64),
            (true, 1),
            (false, 999_999),
            (false, 1_000_000),
            (false, 9_999_999),
            (false, 10_000_000),
            (true, 123_456_789_012),
            (false, 4_294_967_295_999_999),
            (false, 4_294_967_296_000_001),
            (true, 8_796_093_022_208_000_000),
        ] {
            let mut s = String::new();
            digits::push_millionths(&mut s, neg, v);
            assert_eq!(text(|l| l.millionths(neg, v)), s);
        }
    }

    #[test]
    fn a_piece_that_does_not_fit_fails() {
        let mut out: Vec<u8> = Vec::with_capacity(WINDOW);
        let mut line = Line { buf: out.spare_capacity_mut().first_chunk_mut::<WINDOW>().unwrap(), pos: 0 };
        // A byte is stored as a word: the last seven bytes of the window take none.
        for _ in 0..WINDOW - 7 {
            assert!(line.byte(b'x').is_some());
        }
        assert!(line.byte(b'x').is_none());
        assert!(line.put(&[b' '; 32], 1).is_none());
        assert!(line.bytes(b"x").is_some());
        assert!(line.bytes(b"xyzzyxyz").is_none());
        assert!(line.long_decimal(123_456_789).is_none());
        assert_eq!(line.pos, WINDOW - 6);
    }
}
