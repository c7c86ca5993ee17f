//! The program part of fxc's listing: the version line, then one line per
//! instruction, spelled, spaced and indented exactly as Microsoft's disassembler does.
//!
//! Number formatting follows fxc: a float-typed slot prints `%f`; an integer slot
//! prints decimal, or `0x%08x` when the value is large; a typeless slot (`mov`,
//! `movc`, the immediate constant buffer) prints each value as a float when its bits
//! look like a float and as an integer otherwise.
//!
//! [`Format`] holds the optional spellings: `D3DDisassemble`'s instruction numbering,
//! byte offsets and hex literals (`D3D_DISASM_ENABLE_INSTRUCTION_NUMBERING`,
//! `D3D_DISASM_ENABLE_INSTRUCTION_OFFSET`, `D3D_DISASM_PRINT_HEX_LITERALS` on the
//! `D3DDisassemble` reference page; fxc `/Ni`, `/No`, `/Lx`), and dxref's exact floats.

use std::fmt::Write;

mod direct;

use crate::digits::{self, push_hex8, push_i64, push_u32, push_u64, Rounding};
use crate::enums::*;
use crate::ir::*;
use crate::layout::{DeclValues, Exception, Item, Names, Slot};
use crate::style::Style;
use crate::table::{Flow, OpInfo, Opcode, Shape, Ty};
use crate::words::Words;
use crate::written::{bare_encoding, needed_note, normalized, Role};

/// Prints a whole program: the version line and every instruction, each line ending
/// in `\n`.
pub fn print_program(program: &Program<'_>, style: Style, out: &mut String) {
    print_program_with(program, style, Format::default(), out)
}

/// As [`print_program`], with the optional spellings of `format`. Byte offsets are
/// those of the program's encoding (an instruction that cannot be encoded counts as
/// its opcode token alone).
pub fn print_program_with(program: &Program<'_>, style: Style, format: Format, out: &mut String) {
    let mut p = Printer::with_format(program.version, style, format);
    p.version_line(out);
    for ins in program.iter() {
        p.instruction(ins, out);
    }
}

/// The optional spellings of a program listing.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Format {
    /// dxref's exact floats: every float is printed as the shortest decimal that reads
    /// back as the same value (`3.1415927`, `1e-6`, never six decimals in `%f`'s
    /// shape), and infinities and NaNs as their bits (`0x7fc00001`), so that the
    /// listing assembles to the same bytes.
    pub exact_floats: bool,
    /// `D3D_DISASM_PRINT_HEX_LITERALS` (fxc `/Lx`): every value of an `l(...)` or
    /// `d(...)` immediate and of the immediate constant buffer as `0x%08x` (a double
    /// as its low and high words); `dcl_hs_max_tessfactor` keeps its decimal.
    pub hex_literals: bool,
    /// `D3D_DISASM_ENABLE_INSTRUCTION_NUMBERING` (fxc `/Ni`): `%4d: ` before each
    /// instruction, counting from 0; six spaces before the version line and each
    /// declaration (`dcl_*`, `hs_decls`, the immediate constant buffer).
    pub numbering: bool,
    /// `D3D_DISASM_ENABLE_INSTRUCTION_OFFSET` (fxc `/No`): `0x%08X: `, the byte offset
    /// in the program chunk, before every line. With numbering, an instruction's number
    /// and its offset are separated by two spaces (`%4d  0x%08X: `).
    pub offsets: bool,
}

/// Prints instructions one at a time, keeping the indentation state between them.
pub struct Printer {
    version: Version,
    style: Style,
    depth: usize,
    format: Format,
    /// The next instruction number.
    number: usize,
    /// The byte offset of the next instruction, for [`Printer::instruction`].
    offset: u32,
    /// How `style`'s `%f` rounds.
    rounding: Rounding,
    /// `version.is_sm51()`, read for every register printed.
    sm51: bool,
}

impl Printer {
    /// A printer for a program of `version` in `style`'s text, with the default
    /// [`Format`], at indentation depth 0.
    pub fn new(version: Version, style: Style) -> Printer {
        Printer::with_format(version, style, Format::default())
    }

    /// A printer with the optional spellings of `format`.
    pub fn with_format(version: Version, style: Style, format: Format) -> Printer {
        let (rounding, sm51) = (rounding_of(style), version.is_sm51());
        Printer { version, style, depth: 0, format, number: 0, offset: 8, rounding, sm51 }
    }

    /// `vs_5_0` and a newline.
    pub fn version_line(&mut self, out: &mut String) {
        self.line_prefix(None, 0, out);
        self.version.push_profile(out);
        out.push('\n');
    }

    /// The numbering and offset columns of one line: `number` is `None` for the
    /// version line and declarations.
    fn line_prefix(&mut self, number: Option<usize>, offset: u32, out: &mut String) {
        let f = self.format;
        if f.numbering {
            match number {
                Some(n) => {
                    // `%4d`
                    for _ in decimal_len(n as u64)..4 {
                        out.push(' ');
                    }
                    push_u64(out, n as u64);
                    out.push_str(if f.offsets { "  " } else { ": " });
                }
                None => out.push_str("      "),
            }
        }
        if f.offsets {
            push_hex8(out, offset, true);
            out.push_str(": ");
        }
    }

    /// Prints every instruction `decoder` has left, each as it is decoded; `data` sees
    /// the class and length in tokens of each custom-data block. Instructions of the
    /// common kinds are printed straight from their tokens (see `print::direct`), with
    /// the same text.
    pub fn instructions(
        &mut self,
        decoder: &mut crate::Decoder<'_>,
        out: &mut String,
        data: impl FnMut(CustomDataClass, usize),
    ) -> Result<(), crate::DecodeError> {
        self.instructions_beside(decoder, out, data, || {})
    }

    /// [`Printer::instructions`], calling `beside` after each instruction printed: for
    /// independent work done a little at a time (a listing's checksum, a few blocks at
    /// a time), which the out-of-order core then runs beside the printing.
    pub fn instructions_beside(
        &mut self,
        decoder: &mut crate::Decoder<'_>,
        out: &mut String,
        mut data: impl FnMut(CustomDataClass, usize),
        mut beside: impl FnMut(),
    ) -> Result<(), crate::DecodeError> {
        if !self.direct_allowed() {
            while let Some(item) = decoder.next_instruction() {
                let (start, ins) = item?;
                if let Some((class, words)) = ins.custom_data() {
                    data(class, words.len());
                }
                self.instruction_at(ins, 4 * start as u32, out);
                beside();
            }
            return Ok(());
        }
        // The direct path writes bytes; the general path a line of text, appended.
        let mut bytes = std::mem::take(out).into_bytes();
        // Room for any common line, so that it is not grown line after line.
        let mut line = String::with_capacity(256);
        let result = loop {
            if let Some(n) = self.direct(decoder.rest(), &mut bytes) {
                decoder.skip(n);
                beside();
                continue;
            }
            match decoder.next_instruction() {
                None => break Ok(()),
                Some(Err(e)) => break Err(e),
                Some(Ok((start, ins))) => {
                    if let Some((class, words)) = ins.custom_data() {
                        data(class, words.len());
                    }
                    line.clear();
                    self.instruction_at(ins, 4 * start as u32, &mut line);
                    bytes.extend_from_slice(line.as_bytes());
                    beside();
                }
            }
        };
        // Every piece appended is text: whole `String`s and `&str`s (the general path's
        // lines, names from the enums' tables), and from the direct path whole lines,
        // committed once complete, of bytes of its padded tables, each checked to be
        // ASCII when the table is built at compile time (`direct::pad`, `direct::word`),
        // ASCII digits and punctuation, and whole `&str`s, each piece kept to its own
        // length (the padding stored past it is overwritten or left past the line's end,
        // never inside a character). Checking the whole listing again cost about 1.5% of
        // the instructions of a listing (callgrind, corpus one blob at a time), so the
        // check runs in builds with debug assertions (every test run: the corpus and its
        // mutated programs go through this path) and not in release builds.
        debug_assert!(std::str::from_utf8(&bytes).is_ok(), "the direct path wrote bytes that are not UTF-8");
        // SAFETY: `bytes` is UTF-8, as argued above: the listing that came in as a
        // `String`, then text and ASCII bytes only.
        *out = unsafe { String::from_utf8_unchecked(bytes) };
        result
    }

    /// One instruction (one or more lines for data blocks). The byte offset shown
    /// under [`Format::offsets`] is counted from the instructions printed before; use
    /// [`Printer::instruction_at`] to give it.
    pub fn instruction(&mut self, ins: InstructionRef<'_, '_>, out: &mut String) {
        let offset = self.offset;
        self.instruction_at(ins, offset, out);
        if self.format.offsets {
            let mut tokens = Vec::new();
            let len = match crate::encode::encode_instruction(ins, self.number, &mut tokens) {
                Ok(()) => tokens.len().max(1),
                Err(_) => 1,
            };
            self.offset = offset.wrapping_add(4 * len as u32);
        }
    }

    /// One instruction that starts at byte `offset` of the program.
    pub fn instruction_at(&mut self, ins: InstructionRef<'_, '_>, offset: u32, out: &mut String) {
        let info = ins.opcode.info();
        self.begin_line(ins.opcode, info, offset, out);
        match &ins.body {
            Body::Op(op) => self.op(ins, op, out),
            Body::InterfaceCall { function, interface } => {
                out.push_str("fcall ");
                let interface = ins.operand(*interface);
                self.operand_in(ins.pool(), interface, Ty::R, None, None, out);
                out.push('[');
                push_u32(out, *function);
                out.push(']');
                self.encoding_note(interface, Role::Src, out);
            }
            Body::Decl(d) => self.decl(ins, d, out),
            Body::CustomData(c) => self.custom_data(c.class, ins.words(c.data), out),
        }
        self.end_line(info, out);
    }

    /// The start of an instruction's line: its number and offset columns, and the
    /// indentation of the blocks it is in.
    #[inline]
    fn begin_line(&mut self, opcode: Opcode, info: &OpInfo, offset: u32, out: &mut String) {
        if self.format.numbering || self.format.offsets {
            // Declarations (and `hs_decls`, the immediate constant buffer) are not numbered.
            let declaration = matches!(info.shape, Shape::Decl(_) | Shape::CustomData) || opcode == Opcode::HsDecls;
            let number = if declaration {
                None
            } else {
                self.number += 1;
                Some(self.number - 1)
            };
            self.line_prefix(number, offset, out);
        }
        // Indentation: the block closers and `else` are printed one level out.
        if matches!(info.flow, Flow::Else | Flow::EndIf | Flow::EndLoop | Flow::EndSwitch) {
            self.depth = self.depth.saturating_sub(1);
        }
        // Microsoft's indentation, up to a depth no runtime accepts (the listing of a
        // deeper program would grow with the square of its nesting).
        let depth = self.depth.min(crate::limits::MAX_INDENT_DEPTH);
        if depth > 0 {
            push_indent(out, depth);
        }
    }

    /// The end of an instruction's line: the newline, and the blocks it opens.
    #[inline]
    fn end_line(&mut self, info: &OpInfo, out: &mut String) {
        out.push('\n');
        if matches!(info.flow, Flow::If | Flow::Else | Flow::Loop | Flow::Switch) {
            self.depth += 1;
        }
    }

    /// A 32-bit immediate value in a slot of type `ty`, in the printer's format.
    fn value(&self, v: u32, ty: Ty, out: &mut String) {
        if self.format.hex_literals {
            push_hex8(out, v, false);
        } else if self.format.exact_floats {
            let as_float = match ty {
                Ty::F => true,
                Ty::Any => looks_like_float(v),
                _ => false,
            };
            if as_float {
                push_exact_float(f32::from_bits(v), out)
            } else {
                push_int(v, out)
            }
        } else {
            push_value(v, ty, self.style, out)
        }
    }

    /// A float outside an immediate's values (`dcl_hs_max_tessfactor`).
    fn float(&self, f: f32, out: &mut String) {
        if self.format.exact_floats {
            push_exact_float(f, out)
        } else {
            push_float(f, self.style, out)
        }
    }

    fn is_sm51(&self) -> bool {
        self.sm51
    }

    /// The `_aoffimmi(...)`, `_indexable(...)` and `(types)` suffixes of a
    /// resource instruction's extended opcode tokens. Microsoft prints the words first,
    /// then `_sat` and ` [precise]`, then the groups:
    /// `sample_l_aoffimmi_indexable [precise](1,-1,0)(texture2d)(float,float,float,float)`.
    fn ext_suffixes(&self, ins: InstructionRef<'_, '_>, op: &Op, out: &mut String) {
        let mut offsets = None;
        let mut dim = None;
        let mut types = None;
        for e in ins.ext() {
            match *e {
                ExtOpcode::SampleControls { offsets: o, .. } => offsets = Some(o),
                ExtOpcode::ResourceDim { dim: d, stride, .. } => dim = Some((d, stride)),
                ExtOpcode::ReturnType { types: t, .. } => types = Some(t),
                ExtOpcode::Other { .. } => {}
            }
        }
        // fxc 9.29 writes `sample_l(1,0,0)`; later versions `sample_l_aoffimmi(1,0,0)`.
        let old = self.style.version.0 == 9 && self.style.version.1 < 30;
        if offsets.is_some() && !old {
            out.push_str("_aoffimmi");
        }
        if dim.is_some() {
            out.push_str("_indexable");
        }
        if op.saturate {
            out.push_str("_sat");
        }
        if !op.precise.is_empty() {
            out.push_str(" [precise");
            if op.precise != Mask::XYZW {
                out.push('(');
                push_mask(op.precise, out);
                out.push(')');
            }
            out.push(']');
        }
        if let Some(o) = offsets {
            out.push('(');
            for (i, v) in o.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                push_i64(out, *v as i64);
            }
            out.push(')');
        }
        if let Some((d, stride)) = dim {
            out.push('(');
            let structured = d == ResourceDimension::StructuredBuffer;
            out.push_str(if structured { "structured_buffer" } else { self.dimension_name(d) });
            if structured || (stride != 0 && self.style.shows_stride_of_every_dimension()) {
                out.push_str(", stride=");
                push_u32(out, stride as u32);
            }
            out.push(')');
        }
        if let Some(t) = types {
            out.push('(');
            for (i, rt) in t.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                out.push_str(return_type_name(*rt));
            }
            out.push(')');
        }
    }

    fn op(&mut self, ins: InstructionRef<'_, '_>, op: &Op, out: &mut String) {
        let info = ins.opcode.info();
        let operands = ins.operands();
        out.push_str(info.mnemonic);
        if let OpControl::Test(t) = op.control {
            // fxc 9.x leaves out the `_nz` of a condition that is an immediate
            // (`discard l(-1)`); d3dcompiler_47 (which names itself 6.3.9600) and fxc 10
            // print it (`discard_nz l(-1)`).
            let immediate = operands.first().is_some_and(|o| o.ty == OperandType::Immediate32);
            if t == Test::Zero || !immediate || self.style.version.0 != 9 {
                out.push_str(t.suffix());
            }
        }
        if let OpControl::Sync(f) = op.control {
            let sat_spelling = self.style.spells_sync_group_bit_sat();
            if sat_spelling && f.0 & SyncFlags::UAV_GROUP != 0 {
                out.push_str("_sat");
            }
            if f.0 & SyncFlags::UAV_GLOBAL != 0 {
                out.push_str("_uglobal");
            }
            if f.0 & SyncFlags::UAV_GROUP != 0 && !(sat_spelling && f.0 & SyncFlags::UAV_GLOBAL != 0) {
                out.push_str("_ugroup");
            }
            if f.0 & SyncFlags::TGSM != 0 {
                out.push_str("_g");
            }
            if f.0 & SyncFlags::THREADS_IN_GROUP != 0 {
                out.push_str("_t");
            }
        }
        self.ext_suffixes(ins, op, out);
        // The return type comes last (`resinfo_sat [precise(x)]_uint`).
        match op.control {
            OpControl::ResInfo(rt) => out.push_str(rt.listing_name().unwrap_or("")),
            OpControl::ReturnType(rt) => out.push_str(rt.listing_name().unwrap_or("")),
            _ => {}
        }
        if operands.is_empty() && ins.opcode == Opcode::Sync {
            return; // the one operand-less instruction fxc prints without a trailing space
        }
        out.push(' ');
        let dst_precision = operands.first().filter(|_| !info.dst.is_empty()).map(|o| o.min_precision());
        let ndst = info.dst.len();
        for (i, operand) in operands.iter().enumerate() {
            if i > 0 {
                out.push_str(", ");
            }
            let (ty, is_dst) = if i < ndst {
                (info.dst[i], true)
            } else {
                (info.src.get(i - ndst).copied().unwrap_or(Ty::Any), false)
            };
            let by_type = self.style.notes_precision_conversion_by_type();
            let precision_ctx = if is_dst || (by_type && !takes_destination_precision_6_3(ins.opcode, i - ndst)) {
                None
            } else {
                dst_precision
            };
            let ty = if ty == Ty::F
                && self.style.prints_rcp_and_lod_immediates_as_integers()
                && INTEGER_IMMEDIATES_6_3.contains(&ins.opcode)
            {
                Ty::U
            } else {
                ty
            };
            let at = out.len();
            self.operand(ins.pool(), operand, ty, precision_ctx, is_dst, out);
            if operand.ty == OperandType::Immediate32
                && self.style.packs_condition_and_address_immediates()
                && PACKED_IMMEDIATES_6_3.contains(&(ins.opcode, i))
            {
                let packed = out[at..].replace(", ", ",");
                out.truncate(at);
                out.push_str(&packed);
            }
        }
    }

    /// Prints an operand. `dst_precision` is the precision of the instruction's
    /// destination (for a source's `{a as b}` note); `is_dst` marks destinations.
    pub fn operand(
        &self,
        pool: Pool<'_, '_>,
        o: &Operand,
        ty: Ty,
        dst_precision: Option<MinPrecision>,
        is_dst: bool,
        out: &mut String,
    ) {
        let role = if is_dst { Role::Dst } else { Role::Src };
        self.operand_in(pool, o, ty, dst_precision, Some(role), out);
    }

    /// [`Printer::operand`] for an operand standing as `role` (`None`: write no
    /// encoding note, the caller writes it where the assembler reads it).
    fn operand_in(
        &self,
        pool: Pool<'_, '_>,
        o: &Operand,
        ty: Ty,
        dst_precision: Option<MinPrecision>,
        role: Option<Role>,
        out: &mut String,
    ) {
        let is_dst = role != Some(Role::Src);
        let ext = o.ext();
        let modifier = ext.map_or(Modifier::None, |e| e.modifier);
        match modifier {
            Modifier::Neg => out.push('-'),
            Modifier::Abs => out.push('|'),
            Modifier::AbsNeg => out.push_str("-|"),
            _ => {}
        }
        match o.ty {
            OperandType::Immediate32 => {
                out.push_str("l(");
                let n = o.immediate_count();
                for (i, v) in o.imm[..n].iter().enumerate() {
                    if i > 0 {
                        out.push_str(if ty == Ty::Any { "," } else { ", " });
                    }
                    self.value(*v, ty, out);
                }
                out.push(')');
            }
            OperandType::Immediate64 if self.format.hex_literals => {
                // Each double as its low and high words.
                out.push_str("d(");
                for (i, v) in o.imm[..o.immediate_count()].iter().enumerate() {
                    if i > 0 {
                        out.push_str(", ");
                    }
                    push_hex8(out, *v, false);
                }
                out.push(')');
            }
            OperandType::Immediate64 => {
                out.push_str("d(");
                let n = o.immediate_count() / 2;
                for i in 0..n {
                    if i > 0 {
                        out.push_str(", ");
                    }
                    let bits = (o.imm[2 * i] as u64) | ((o.imm[2 * i + 1] as u64) << 32);
                    if self.format.exact_floats {
                        push_exact_double(f64::from_bits(bits), out);
                    } else {
                        push_double(f64::from_bits(bits), self.style, out);
                    }
                    // d3dcompiler_47 marks every double `l`: `d(0.159155l, 1.#INF00l)`.
                    out.push('l');
                }
                out.push(')');
            }
            _ => {
                self.register(pool, o, false, out);
                if o.components == ComponentCount::Four {
                    self.selection(o.selection(), out);
                }
                if let Some(role) = role {
                    self.encoding_note(o, role, out);
                }
            }
        }
        if ext.is_none() {
            // No modifier and no precision: nothing to note, unless a source stands
            // in an instruction whose destination has a precision.
            match dst_precision {
                Some(d) if !is_dst && d != MinPrecision::Default => {}
                _ => return,
            }
        }
        let abs = matches!(modifier, Modifier::Abs | Modifier::AbsNeg);
        let inside = abs && self.style.notes_precision_inside_absolute_value();
        if abs && !inside {
            out.push('|');
        }
        let own = ext.map_or(MinPrecision::Default, |e| e.min_precision);
        match (is_dst, dst_precision) {
            (false, Some(d)) if d != own => {
                out.push_str(" {");
                out.push_str(precision_name(own));
                out.push_str(" as ");
                out.push_str(precision_name(d));
                out.push('}');
            }
            _ if own != MinPrecision::Default => {
                out.push_str(" {");
                out.push_str(precision_name(own));
                out.push('}');
            }
            _ => {}
        }
        if inside {
            out.push('|');
        }
        if ext.is_some_and(|e| e.non_uniform) {
            out.push_str(" {nonuniform}");
        }
    }

    /// In exact listings, ` {1 component}`, ` {mask}`...: the encoding where the
    /// assembler would take the printed register for another one ([`crate::written`]).
    fn encoding_note(&self, o: &Operand, role: Role, out: &mut String) {
        if !self.format.exact_floats {
            return;
        }
        if let Some(note) = needed_note(o.ty, role, self.is_sm51(), o.components, o.selection()) {
            out.push_str(" {");
            out.push_str(note.spelling());
            out.push('}');
        }
    }

    fn selection(&self, s: Selection, out: &mut String) {
        match s {
            Selection::Mask(m) => out.push_str(mask_text(m)),
            Selection::Swizzle(sw) => {
                let i = sw.iter().rev().fold(0usize, |acc, &c| acc << 2 | (c as usize & 3));
                out.push_str(SWIZZLE_TEXT.get(5 * i..5 * i + 5).unwrap_or(""));
            }
            Selection::Select1(c) => out.push_str(SELECT1_TEXT[c as usize & 3]),
            _ => {}
        }
    }

    /// A resource dimension's name, `unknown` (or 6.3.9600's `<unknown dimension>`) for
    /// one without a name.
    fn dimension_name(&self, d: ResourceDimension) -> &'static str {
        let unknown = if self.style.spells_unknown_dimension_in_angles() { "<unknown dimension>" } else { "unknown" };
        d.listing_name().unwrap_or(unknown)
    }

    /// The register name with its indices: `r0`, `v[2][1]`, `cb0[r0.x + 3]`, `CB1[1][4]`.
    /// `immediates_only` prints the immediate part of each index alone (the register of
    /// a relative index, see [`Printer::rel`]).
    fn register(&self, pool: Pool<'_, '_>, o: &Operand, immediates_only: bool, out: &mut String) {
        let ty = o.ty;
        let name = match ty {
            OperandType::Label if self.style.spells_label_register_label() => "label",
            _ => register_prefix(ty, self.is_sm51()),
        };
        out.push_str(name);
        let dims = o.dims();
        let inline_first = inline_first_index(ty, dims);
        for d in 0..dims {
            let Some(mut index) = o.index(d) else { break };
            if immediates_only {
                index = Index::Imm64(index.immediate());
            }
            match index {
                Index::Imm32(v) if d == 0 && inline_first => push_u32(out, v),
                Index::Imm64(v) if d == 0 && inline_first => push_u64(out, v),
                _ => {
                    out.push('[');
                    self.index(pool, &index, out);
                    out.push(']');
                }
            }
        }
    }

    fn index(&self, pool: Pool<'_, '_>, index: &Index, out: &mut String) {
        match *index {
            Index::Imm32(v) => push_u32(out, v),
            Index::Imm64(v) => push_u64(out, v),
            Index::Relative(r) => {
                self.rel(pool, pool.operand(r), out);
                out.push_str(" + 0");
            }
            Index::Imm32Relative(v, r) => {
                self.rel(pool, pool.operand(r), out);
                out.push_str(" + ");
                push_u32(out, v);
            }
            Index::Imm64Relative(v, r) => {
                self.rel(pool, pool.operand(r), out);
                out.push_str(" + ");
                push_u64(out, v);
            }
        }
    }

    /// A relative index's register: `r0.x`. Its indices are immediate (the decoder
    /// refuses others); the immediate part is printed of any other in a hand-built
    /// program (which the encoder refuses), so that printing never recurses.
    fn rel(&self, pool: Pool<'_, '_>, r: &Operand, out: &mut String) {
        self.register(pool, r, true, out);
        self.selection(r.selection(), out);
    }

    /// A declaration, spelled item by item as its kind's layout says
    /// ([`crate::layout::DeclLayout::text`]).
    fn decl(&mut self, ins: InstructionRef<'_, '_>, d: &Decl, out: &mut String) {
        let layout = d.kind().layout();
        let v = d.values();
        out.push_str(ins.opcode.info().mnemonic);
        for item in layout.items() {
            self.decl_item(ins, *item, &v, out);
        }
    }

    fn decl_item(&mut self, ins: InstructionRef<'_, '_>, item: Item, v: &DeclValues, out: &mut String) {
        let pool = ins.pool();
        let operand = |slot: Slot| ins.operand(OperandId(v.get(slot)));
        match item {
            Item::Text(t) => out.push_str(t),
            Item::Number(slot) => push_u32(out, v.get(slot)),
            Item::Name(slot, Names::Dimension) => {
                out.push_str(self.dimension_name(ResourceDimension::from_raw(v.get(slot) as u8)))
            }
            Item::Name(slot, names) => out.push_str(names.name(v.get(slot)).unwrap_or(names.unknown())),
            Item::Flag(slot, spelling) => {
                if v.get(slot) != 0 {
                    out.push_str(spelling);
                }
            }
            Item::Register(slot) => self.operand_in(pool, operand(slot), Ty::R, None, Some(Role::Decl), out),
            Item::Range(slot) => self.decl_register(pool, operand(slot), out),
            Item::Space(slot) => self.space(v.opt(slot), out),
            Item::Types(slot) => push_return_types(&ReturnTypes::from_token(v.get(slot)), out),
            Item::SystemValue(slot) => out.push_str(&system_name(SystemName::from_raw(v.get(slot) as u16), self.style)),
            Item::Interpolation(slot) => push_interpolation(InterpolationMode::from_raw(v.get(slot) as u8), out),
            Item::Float(slot) => {
                out.push_str("l(");
                // Printed as a float even with hex literals (as `D3DDisassemble` does).
                self.float(f32::from_bits(v.get(slot)), out);
                out.push(')');
            }
            Item::List(prefix) => {
                out.push('{');
                for (i, w) in ins.words(v.words).iter().enumerate() {
                    if i > 0 {
                        out.push_str(", ");
                    }
                    out.push_str(prefix);
                    push_u32(out, w);
                }
                out.push('}');
            }
            Item::Exception(e) => self.decl_exception(ins, e, v, out),
        }
    }

    /// The spellings of [`Exception`], each explained there.
    fn decl_exception(&mut self, ins: InstructionRef<'_, '_>, e: Exception, v: &DeclValues, out: &mut String) {
        match e {
            Exception::GlobalFlags => {
                let flags = GlobalFlags(crate::layout::GLOBAL_FLAGS.put(v.fields[0]));
                if flags.0 == 0 && self.style.spells_no_global_flags_none() {
                    out.push_str("none");
                    return;
                }
                out.push(' ');
                let mut first = true;
                for (bit, name) in GLOBAL_FLAG_NAMES {
                    if flags.0 & bit != 0 {
                        if !first {
                            out.push_str(" | ");
                        }
                        out.push_str(name);
                        first = false;
                    }
                }
            }
            Exception::ConstantBuffer => {
                let sm51 = self.is_sm51();
                let operand = ins.operand(OperandId(v.get(Slot::Token(0))));
                let upper = sm51 || !self.style.older_than(10, 0);
                out.push_str(if upper { "CB" } else { "cb" });
                if sm51 {
                    self.range_indices(operand, out);
                    out.push('[');
                    push_u32(out, v.get(Slot::Token(1)));
                    out.push(']');
                } else {
                    let id = operand.index(0).map_or(0, |i| i.immediate());
                    let count = operand.index(1).map_or(0, |i| i.immediate());
                    push_u64(out, id);
                    out.push('[');
                    push_u64(out, count);
                    out.push(']');
                }
            }
            Exception::SampleCount { dimension, count } => {
                let dim = ResourceDimension::from_raw(v.get(dimension) as u8);
                if matches!(dim, ResourceDimension::Texture2DMS | ResourceDimension::Texture2DMSArray) {
                    out.push('(');
                    push_u32(out, v.get(count));
                    out.push(')');
                }
            }
            Exception::SgvInterpolation(slot) => {
                if ins.opcode == Opcode::DclInputPsSiv {
                    push_interpolation(InterpolationMode::from_raw(v.get(slot) as u8), out);
                }
            }
            Exception::SpaceOrBlank(slot) => match v.opt(slot) {
                Some(_) => self.space(v.opt(slot), out),
                None => out.push(' '),
            },
        }
    }

    /// A declared resource register: `t0` (SM4/5.0) or `T0[0:3]` (SM5.1).
    fn decl_register(&self, pool: Pool<'_, '_>, o: &Operand, out: &mut String) {
        if self.is_sm51() {
            out.push_str(register_prefix(o.ty, true));
            self.range_indices(o, out);
        } else {
            self.register(pool, o, false, out);
        }
        // fxc writes a declared register bare; an exact listing writes the letters and
        // note of any other encoding.
        let bare = bare_encoding(o.ty, Role::Decl, self.is_sm51());
        if self.format.exact_floats && normalized(o.components, o.selection()) != bare {
            if o.components == ComponentCount::Four {
                self.selection(o.selection(), out);
            }
            self.encoding_note(o, Role::Decl, out);
        }
    }

    /// SM5.1 `ID[lower:upper]` (an upper bound of 0xffffffff prints as unbounded).
    fn range_indices(&self, o: &Operand, out: &mut String) {
        let idx = |i: usize| o.index(i).map_or(0, |x| x.immediate());
        let (id, lo, hi) = (idx(0), idx(1), idx(2));
        push_u64(out, id);
        out.push('[');
        push_u64(out, lo);
        out.push(':');
        if hi == u32::MAX as u64 {
            out.push('*');
        } else {
            push_u64(out, hi);
        }
        out.push(']');
    }

    fn space(&self, space: Option<u32>, out: &mut String) {
        if let Some(s) = space {
            out.push_str(", space=");
            push_u32(out, s);
        }
    }

    fn custom_data(&mut self, class: CustomDataClass, data: &Words<'_>, out: &mut String) {
        match class {
            CustomDataClass::ImmediateConstantBuffer => {
                out.push_str("dcl_immediateConstantBuffer { ");
                // Rows of four; a buffer whose length is not a multiple of four (not
                // fxc's) ends with a shorter row, so that nothing is lost.
                let values: Vec<u32> = data.iter().collect();
                for (row, chunk) in values.chunks(4).enumerate() {
                    if row > 0 {
                        out.push_str(",\n                              ");
                    }
                    out.push_str("{ ");
                    for (col, v) in chunk.iter().enumerate() {
                        if col > 0 {
                            out.push_str(", ");
                        }
                        self.value(*v, Ty::Any, out);
                    }
                    out.push('}');
                }
                out.push_str(" }");
            }
            // Microsoft's disassembler prints this one line for every other class
            // (comment, debug information, opaque, shader messages, unknown ones).
            _ => out.push_str(UNDECIPHERABLE_CUSTOM_DATA),
        }
    }
}

/// The line d3dcompiler_47 prints for a custom-data block that is not an immediate
/// constant buffer.
pub const UNDECIPHERABLE_CUSTOM_DATA: &str = "undecipherable custom data";

/// The instructions whose float immediates d3dcompiler_47 6.3.9600 prints as integers
/// ([`Style::prints_rcp_and_lod_immediates_as_integers`]).
const INTEGER_IMMEDIATES_6_3: &[Opcode] = &[Opcode::Rcp, Opcode::Lod];

/// The operands (instruction, operand position) whose immediates d3dcompiler_47
/// 6.3.9600 writes with `,` between values although their table type is an integer:
/// `movc`'s condition and `store_uav_typed`'s address
/// ([`Style::packs_condition_and_address_immediates`]).
const PACKED_IMMEDIATES_6_3: &[(Opcode, usize)] = &[(Opcode::Movc, 1), (Opcode::StoreUavTyped, 1)];

/// The sources d3dcompiler_47 6.3.9600 treats unlike their table types when it notes a
/// precision: the source positions that take the destination's precision (`{a as b}`),
/// for the instructions where these are not the sources typed like the destination.
/// Its listings (the oracle's HLSL archives) show `ushr r1.x {min16u}, r0.x {def32 as
/// min16u}, l(1)` (the shift count noted as its own), `ubfe r1.x {min16u}, l(31) {def32
/// as min16u}, l(0), vPrim` and `ibfe r1.x {min16i}, l(31) {def32 as min16i}, l(0),
/// vGSInstanceID.x` (the width alone), `uge r0.z, r1.x {min16u}, l(255)` and `ult`
/// likewise (comparisons).
const PRECISION_SOURCES_6_3: &[(Opcode, &[usize])] =
    &[(Opcode::Ushr, &[0]), (Opcode::Ubfe, &[0]), (Opcode::Ibfe, &[0]), (Opcode::Uge, &[]), (Opcode::Ult, &[])];

/// True when d3dcompiler_47 6.3.9600 notes source `i` of `opcode` as converted to the
/// destination's precision (`{def32 as min16u}`): a source typed like the destination,
/// of an instruction that reads no resource, except as [`PRECISION_SOURCES_6_3`] says.
/// Conversions (`utof`), comparisons (`lt`) and resource reads (`sample`, `lod`) note
/// their sources' own precision only.
fn takes_destination_precision_6_3(opcode: Opcode, i: usize) -> bool {
    if let Some((_, sources)) = PRECISION_SOURCES_6_3.iter().find(|(op, _)| *op == opcode) {
        return sources.contains(&i);
    }
    let info = opcode.info();
    if info.src.contains(&Ty::R) {
        return false;
    }
    info.src.get(i).is_some_and(|t| Some(t) == info.dst.first())
}

/// True when a register's first index is written after its prefix (`r0`, `cb0[1]`),
/// false when in brackets (`v[2][1]`, `icb[3]`): inputs and control points of more
/// than one dimension, the immediate constant buffer, `this`.
#[inline]
const fn inline_first_index(ty: OperandType, dims: usize) -> bool {
    match ty {
        OperandType::Input | OperandType::InputControlPoint | OperandType::OutputControlPoint => dims == 1,
        OperandType::ImmediateConstantBuffer | OperandType::ThisPointer => false,
        _ => true,
    }
}

/// The register-file prefix: `r`, `v`, `cb`, or (SM5.1) `CB`, `T`, `S`, `U`.
const fn register_prefix(ty: OperandType, sm51: bool) -> &'static str {
    if sm51 {
        match ty {
            OperandType::ConstantBuffer => return "CB",
            OperandType::Resource => return "T",
            OperandType::Sampler => return "S",
            OperandType::UnorderedAccessView => return "U",
            _ => {}
        }
    }
    match ty.listing_name() {
        Some(name) => name,
        None => "?",
    }
}

fn push_mask(m: Mask, out: &mut String) {
    out.push_str(mask_text(m).get(1..).unwrap_or(""));
}

/// A write mask as a selection: `.xz` (nothing for an empty mask).
const fn mask_text(m: Mask) -> &'static str {
    const MASKS: [&str; 16] =
        ["", ".x", ".y", ".xy", ".z", ".xz", ".yz", ".xyz", ".w", ".xw", ".yw", ".xyw", ".zw", ".xzw", ".yzw", ".xyzw"];
    MASKS[m.0 as usize & 15]
}

/// One component selected: `.x`.
const SELECT1_TEXT: [&str; 4] = [".x", ".y", ".z", ".w"];

/// Every swizzle, `.` and four components, the swizzle `[a, b, c, d]` at
/// `5 * (a | b << 2 | c << 4 | d << 6)`.
const SWIZZLE_TEXT: &str = {
    const BYTES: [u8; 1280] = {
        let names = *b"xyzw";
        let mut t = [0u8; 1280];
        let mut i = 0;
        while i < 256 {
            t[5 * i] = b'.';
            let mut c = 0;
            while c < 4 {
                t[5 * i + 1 + c] = names[(i >> (2 * c)) & 3];
                c += 1;
            }
            i += 1;
        }
        t
    };
    match std::str::from_utf8(&BYTES) {
        Ok(s) => s,
        Err(_) => panic!("the swizzle table is ASCII"),
    }
};

/// `depth` levels of two-space indentation.
fn push_indent(out: &mut String, depth: usize) {
    const SPACES: &str = "                                                                ";
    let mut left = depth.saturating_mul(2);
    while left > 0 {
        let n = left.min(SPACES.len());
        out.push_str(SPACES.get(..n).unwrap_or(""));
        left -= n;
    }
}

/// Number of decimal digits of `v`.
fn decimal_len(v: u64) -> usize {
    let mut n = 1;
    let mut v = v;
    while v >= 10 {
        v /= 10;
        n += 1;
    }
    n
}

fn precision_name(p: MinPrecision) -> &'static str {
    p.listing_name().unwrap_or("min_unknown")
}

fn system_name(n: SystemName, style: Style) -> String {
    match n.listing_name() {
        Some(s) => s.to_string(),
        None if style.spells_unknown_system_name_empty() => String::new(),
        None => format!("name{}", n.raw()),
    }
}

fn return_type_name(rt: ReturnType) -> &'static str {
    rt.listing_name().unwrap_or("unknown")
}

fn push_return_types(rt: &ReturnTypes, out: &mut String) {
    out.push('(');
    for (i, t) in rt.types.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        out.push_str(return_type_name(*t));
    }
    out.push(')');
}

fn push_interpolation(mode: InterpolationMode, out: &mut String) {
    if mode != InterpolationMode::Undefined {
        out.push_str(mode.listing_name().unwrap_or("unknown"));
        out.push(' ');
    }
}

/// Integers with magnitude up to this print in decimal; larger ones in hex.
const DECIMAL_LIMIT: i64 = 10000;

/// Prints a 32-bit value in a slot of type `ty`.
pub fn push_value(v: u32, ty: Ty, style: Style, out: &mut String) {
    match ty {
        Ty::F => push_float(f32::from_bits(v), style, out),
        Ty::I | Ty::U | Ty::R | Ty::D => push_int(v, out),
        Ty::Any => {
            if looks_like_float(v) {
                push_float(f32::from_bits(v), style, out)
            } else {
                push_int(v, out)
            }
        }
    }
}

/// True when a typeless value's bits are better shown as a float: a normal float
/// (exponent neither all zeros nor all ones), or negative zero, which
/// d3dcompiler_47's disassembler prints as `-0.000000` (denormals, infinities and
/// NaNs print as integers: `0x807fffff`, `0x7f800000`).
fn looks_like_float(v: u32) -> bool {
    let exp = (v >> 23) & 0xff;
    (exp != 0 && exp != 0xff) || v == 0x8000_0000
}

fn push_int(v: u32, out: &mut String) {
    let s = v as i32 as i64;
    if s.abs() <= DECIMAL_LIMIT {
        push_i64(out, s);
    } else {
        push_hex8(out, v, false);
    }
}

/// A float as the shortest decimal that reads back as the same `f32` ([`Format::
/// exact_floats`]): always with a decimal point or an exponent, in exponent form when
/// that is shorter or when the decimal form has exactly six decimals (the shape of
/// `%f`, whose text the parser may read as a recovered fraction); infinities and NaNs
/// as their bits, `0x%08x`.
pub fn push_exact_float(f: f32, out: &mut String) {
    if !f.is_finite() {
        push_hex8(out, f.to_bits(), false);
        return;
    }
    shortest(format!("{f}"), format!("{f:e}"), out)
}

/// A double as the shortest decimal that reads back as the same `f64`, in the form of
/// [`push_exact_float`]; infinities and NaNs as their 64 bits, `0x%016x`.
pub fn push_exact_double(d: f64, out: &mut String) {
    if !d.is_finite() {
        digits::push_hex16(out, d.to_bits());
        return;
    }
    shortest(format!("{d}"), format!("{d:e}"), out)
}

fn shortest(mut plain: String, exponent: String, out: &mut String) {
    if !plain.contains('.') {
        plain.push_str(".0");
    }
    let decimals = plain.rsplit('.').next().map_or(0, str::len);
    if decimals == 6 || exponent.len() < plain.len() {
        out.push_str(&exponent);
    } else {
        out.push_str(&plain);
    }
}

/// Adds one unit in the last place of the decimal digits `digits` (a carry out of the
/// first digit prepends a 1): the half-away-from-zero rounding of Microsoft's `%f`.
fn round_up(digits: &mut Vec<u8>) {
    let mut i = digits.len();
    loop {
        if i == 0 {
            digits.insert(0, 1);
            return;
        }
        i -= 1;
        if digits[i] == 9 {
            digits[i] = 0;
        } else {
            digits[i] += 1;
            return;
        }
    }
}

/// `digits` (the integer part, then six decimals) as `%f` text, with `d`'s sign.
fn push_six_decimals(d: f64, digits: &[u8], out: &mut String) {
    if d.is_sign_negative() {
        out.push('-');
    }
    let split = digits.len() - 6;
    for (i, &dg) in digits.iter().enumerate() {
        if i == split {
            out.push('.');
        }
        out.push((b'0' + dg) as char);
    }
}

/// `%f` of a finite `d` from its exact decimal expansion, the 7th decimal and beyond
/// rounding the 6th half away from zero ([`Style::rounds_exact_digits_half_away`]).
fn push_exact_half_away(d: f64, out: &mut String) {
    // Every finite double's expansion ends within 1074 decimals: this is exact.
    let exact = format!("{:.1100}", d.abs());
    let (int, frac) = exact.split_once('.').unwrap_or((&exact, ""));
    let mut digits: Vec<u8> = int.bytes().chain(frac.bytes().take(6)).map(|b| b - b'0').collect();
    if frac.as_bytes().get(6).is_some_and(|&b| b >= b'5') {
        round_up(&mut digits);
    }
    push_six_decimals(d, &digits, out);
}

/// `%f` as Microsoft's C runtime prints it.
pub fn push_float(f: f32, style: Style, out: &mut String) {
    match digits::millionths(f, rounding_of(style)) {
        Some(units) => digits::push_millionths(out, f.is_sign_negative(), units),
        None => push_double(f as f64, style, out),
    }
}

/// How `style`'s C runtime rounds `%f` (the cases of [`push_double`]).
fn rounding_of(style: Style) -> Rounding {
    if style.rounds_exact_digits_half_away() {
        Rounding::ExactAway
    } else if style.rounds_from_17_digits() {
        Rounding::SeventeenDigits
    } else {
        Rounding::ExactEven
    }
}

fn push_double(d: f64, style: Style, out: &mut String) {
    if d.is_nan() {
        out.push_str(if d.is_sign_negative() { "-1.#IND00" } else { "1.#QNAN0" });
        return;
    }
    if d.is_infinite() {
        out.push_str(if d < 0.0 { "-1.#INF00" } else { "1.#INF00" });
        return;
    }
    if style.rounds_exact_digits_half_away() {
        push_exact_half_away(d, out);
        return;
    }
    if !style.rounds_from_17_digits() {
        let _ = write!(out, "{d:.6}");
        return;
    }
    // Microsoft's C runtime formats `%f` from the value's 17 significant digits,
    // then rounds that decimal string half away from zero.
    let sci = format!("{:.16e}", d.abs());
    let (mantissa, exp) = sci.split_once('e').unwrap_or((&sci, "0"));
    let exp: i32 = exp.parse().unwrap_or(0);
    let sig: Vec<u8> = mantissa.bytes().filter(u8::is_ascii_digit).map(|b| b - b'0').collect();
    // Digit at position p has weight 10^(exp - p). Keep digits with weight >= 10^-6.
    // `digits` holds the integer part followed by 6 decimals.
    let int_len = (exp + 1).max(1) as usize;
    let total = int_len + 6;
    let mut digits = vec![0u8; total];
    let mut round_digit = 0u8;
    for (p, &dg) in sig.iter().enumerate() {
        let weight = exp - p as i32; // power of ten of this digit
        let pos = int_len as i32 - 1 - weight; // index into `digits`
        if pos >= 0 && (pos as usize) < total {
            digits[pos as usize] = dg;
        } else if pos == total as i32 {
            round_digit = dg;
        }
    }
    if round_digit >= 5 {
        round_up(&mut digits);
    }
    push_six_decimals(d, &digits, out);
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The styles of the three `%f` roundings.
    const STYLES: [Style; 3] =
        [Style::D3DCOMPILER_47, Style::D3DCOMPILER_47_6_3, Style { disassembler: false, ..Style::D3DCOMPILER_47 }];

    /// xorshift64*: a fixed, repeatable sequence.
    fn next(state: &mut u64) -> u64 {
        *state ^= *state >> 12;
        *state ^= *state << 25;
        *state ^= *state >> 27;
        state.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    fn check(bits: u32) {
        let f = f32::from_bits(bits);
        for style in STYLES {
            let (mut fast, mut general) = (String::new(), String::new());
            push_float(f, style, &mut fast);
            push_double(f as f64, style, &mut general);
            assert_eq!(fast, general, "{bits:#010x} ({f:e}) in {style:?}");
        }
    }

    /// The integer path of `%f` gives the general path's text: for every exponent and
    /// sign, the mantissas at the ends and in the middle, a run of random ones, and
    /// those whose six-decimal rounding falls nearest a tie.
    #[test]
    fn fast_six_decimals_equal_the_general_path() {
        assert_eq!(STYLES.map(rounding_of), [Rounding::SeventeenDigits, Rounding::ExactAway, Rounding::ExactEven]);
        let mut state = 0x9e37_79b9_7f4a_7c15u64;
        for exponent in 0u32..256 {
            for sign in [0u32, 1] {
                let base = sign << 31 | exponent << 23;
                for m in (0u32..64).chain((0..64).map(|i| 0x7f_ffff - i)).chain([0x40_0000, 0x3f_ffff, 0x40_0001]) {
                    check(base | m);
                }
                for _ in 0..1500 {
                    check(base | (next(&mut state) as u32 & 0x7f_ffff));
                }
                // m * 10^6 / 2^k nearest j + 1/2: m = ((2j + 1) 2^(k-1)) / 10^6, rounded
                // either way, for j spread over the exponent's range.
                let k = 150i64 - exponent.max(1) as i64;
                if (1..48).contains(&k) {
                    for _ in 0..200 {
                        let m = (next(&mut state) & 0x7f_ffff) | 0x80_0000;
                        let j = (m as u128 * 1_000_000) >> k;
                        let target = (2 * j + 1) << (k - 1);
                        for m in [target / 1_000_000, target / 1_000_000 + 1] {
                            if let Ok(m) = u32::try_from(m) {
                                if (0x80_0000..0x100_0000).contains(&m) || (exponent == 0 && m < 0x80_0000) {
                                    check(base | (m & 0x7f_ffff));
                                }
                            }
                        }
                    }
                }
            }
        }
    }
}
