//! `// Buffer Definitions:` and `// Resource Bindings:` back into an `RDEF` chunk.
//!
//! What the listing carries is read from it; what it does not carry comes from the
//! program (sample counts of multisampled textures, structure strides) or is fxc's
//! usual value (see [`build`]).

use dxbc::rdef::{
    variable_flags, CbufferType, ConstantBuffer, Member, Rd11Header, Rdef, RdefTarget, ResourceBinding,
    ResourceDimension, ReturnType, ShaderInputType, ShaderType, Variable, VariableClass, VariableType,
};
use tpf::{Body, Decl, Program};

use super::text::{number, skip_blank, Cell, Diags, Line, Ruler};
use crate::header::names::{
    binding_kind_of, is_numeric, rdef_program_type, BASE_TYPES, BINDING_KINDS, BUFFER_KINDS, BYTE, DIMENSIONS,
    MULTISAMPLED, NA, RETURN_TYPES, STRUCT, TEXTURE2DMS_ARRAY_6_3,
};

/// How deeply structures may nest before the header is rejected (see
/// [`dxbc::limits`]).
use dxbc::limits::MAX_LISTING_STRUCT_DEPTH as MAX_DEPTH;

/// A variable's or member's type as read from a declaration.
#[derive(Debug, Clone)]
pub(crate) struct TypeModel<'h> {
    class: VariableClass,
    base: VariableType,
    rows: u16,
    columns: u16,
    elements: u16,
    members: Vec<MemberModel<'h>>,
    /// The name fxc stores in Shader Model 5 type records.
    name: Option<String>,
    subtype: Option<Box<TypeModel<'h>>>,
}

#[derive(Debug, Clone)]
struct MemberModel<'h> {
    name: &'h str,
    offset: u32,
    ty: TypeModel<'h>,
}

/// A variable of a buffer.
#[derive(Debug, Clone)]
struct VarModel<'h> {
    name: &'h str,
    offset: u32,
    size: u32,
    used: bool,
    ty: TypeModel<'h>,
    default: Option<Vec<u8>>,
}

/// One block of the Buffer Definitions.
#[derive(Debug, Clone)]
pub(crate) struct BufferModel<'h> {
    name: &'h str,
    kind: CbufferType,
    vars: Vec<VarModel<'h>>,
}

/// One row of the Resource Bindings.
#[derive(Debug, Clone)]
pub(crate) struct BindingModel<'h> {
    name: &'h str,
    input_type: ShaderInputType,
    return_type: ReturnType,
    dimension: ResourceDimension,
    /// Sample count printed by the old layout (`2dMS4`), if any.
    samples: Option<u32>,
    bind_point: u32,
    bind_count: u32,
    flags: u32,
    space: u32,
    id: Option<u32>,
}

/// A dimension digit (1 to 4).
fn dim(s: &str) -> Option<u16> {
    match s {
        "1" => Some(1),
        "2" => Some(2),
        "3" => Some(3),
        "4" => Some(4),
        _ => None,
    }
}

/// Reads a non-structure type spelling: `float`, `uint3`, `float4x4`, `Texture2D`.
fn parse_type_name(s: &str) -> Option<(VariableClass, VariableType, u16, u16)> {
    if let Some(base) = BASE_TYPES.value(s) {
        let class = if is_numeric(base) { VariableClass::Scalar } else { VariableClass::Object };
        return Some((class, base, 1, 1));
    }
    BASE_TYPES.rows().filter(|&(base, _)| is_numeric(base)).find_map(|(base, n)| {
        let rest = s.strip_prefix(n)?;
        match rest.split_once('x') {
            Some((r, c)) => Some((VariableClass::MatrixColumns, base, dim(r)?, dim(c)?)),
            None => Some((VariableClass::Vector, base, 1, dim(rest)?)),
        }
    })
}

impl<'h> TypeModel<'h> {
    /// The name a Shader Model 5 type record stores for a non-structure type: the
    /// spelling the listing prints, without `row_major`, except that fxc names the
    /// `uint` scalar `dword`. (Typedef names such as `half4` are not in the listing.)
    fn sm5_name(&self) -> Option<String> {
        let base = BASE_TYPES.name(self.base).unwrap_or("");
        Some(match self.class {
            VariableClass::Scalar if self.base == VariableType::Uint => "dword".to_string(),
            VariableClass::Vector => format!("{base}{}", self.columns),
            VariableClass::MatrixRows | VariableClass::MatrixColumns => format!("{base}{}x{}", self.rows, self.columns),
            _ => base.to_string(),
        })
    }

    /// Scalar components the type occupies (a structure's column count).
    fn components(&self) -> u32 {
        let one = match self.class {
            VariableClass::Struct => u32::from(self.columns),
            // Two `u16`s: the product fits.
            _ => u32::from(self.rows).saturating_mul(u32::from(self.columns)),
        };
        one.saturating_mul(u32::from(self.elements.max(1)))
    }

    fn to_dxbc<'m>(&'m self, sm5: bool) -> ShaderType<'m> {
        ShaderType {
            class: self.class,
            base: self.base,
            rows: self.rows,
            columns: self.columns,
            elements: self.elements,
            members: self
                .members
                .iter()
                .map(|m| Member { name: m.name, offset: m.offset, ty: m.ty.to_dxbc(sm5) })
                .collect(),
            name: if sm5 { self.name.as_deref() } else { None },
            subtype: if sm5 { self.subtype.as_ref().map(|s| Box::new(s.to_dxbc(sm5))) } else { None },
            reserved: [0; 3],
        }
    }
}

/// A declaration line split up: `TYPE NAME[N];  // Offset: O Size: S [unused]`.
struct DeclLine<'h> {
    /// Words before the name (`row_major float4x4`, `interface IFoo`, `}`).
    type_words: Vec<&'h str>,
    name: &'h str,
    elements: u16,
    offset: u32,
    size: Option<u32>,
    unused: bool,
}

fn parse_decl_line<'h>(line: &Line<'h>, text: &'h str, d: &mut Diags) -> Option<DeclLine<'h>> {
    let Some((decl, comment)) = text.split_once("// Offset:") else {
        d.error_at(line, text, "expected a declaration with its `// Offset:` comment");
        return None;
    };
    let decl = decl.trim();
    let Some(decl) = decl.strip_suffix(';') else {
        d.error_at(line, text, "a declaration ends with `;`");
        return None;
    };
    let mut words: Vec<&str> = decl.split_whitespace().collect();
    let Some(last) = words.pop() else {
        d.error_at(line, text, "the declaration has no name");
        return None;
    };
    let (name, elements) = match last.split_once('[') {
        Some((n, rest)) => {
            let count = rest.strip_suffix(']').and_then(number).and_then(|c| u16::try_from(c).ok());
            let Some(count) = count else {
                d.error_at(line, last, "bad array size");
                return None;
            };
            (n, count)
        }
        None => (last, 0),
    };
    // The printer right-aligns the offset in 5 columns and the size in 6: a wider
    // number follows its colon directly (`// Offset:100000 Size:131072`).
    let (offset_text, mut rest) = next_word(comment);
    let Some(offset) = number(offset_text) else {
        d.error_at(line, comment, "the offset is not a number");
        return None;
    };
    let (mut size, mut unused) = (None, false);
    loop {
        let (word, after) = next_word(rest);
        rest = after;
        if word.is_empty() {
            break;
        }
        if let Some(value) = word.strip_prefix("Size:") {
            let value = if value.is_empty() {
                let (value, after) = next_word(rest);
                rest = after;
                value
            } else {
                value
            };
            match number(value) {
                Some(s) => size = Some(s),
                None => {
                    d.error_at(line, word, "the size is not a number");
                    return None;
                }
            }
        } else if word == "[unused]" {
            unused = true;
        } else {
            d.error_at(line, word, format!("unexpected `{word}` after the offset"));
            return None;
        }
    }
    Some(DeclLine { type_words: words, name, elements, offset, size, unused })
}

/// The first word of `s` (after any spaces) and the text after it.
fn next_word(s: &str) -> (&str, &str) {
    let s = s.trim_start();
    let end = s.find(char::is_whitespace).unwrap_or(s.len());
    s.split_at(end)
}

/// A declaration read from a buffer body, at the buffer's level or inside a structure.
struct Item<'h> {
    line: Line<'h>,
    name: &'h str,
    /// Offset from the start of the buffer, as printed.
    offset: u32,
    size: Option<u32>,
    unused: bool,
    ty: TypeModel<'h>,
    default: Option<Vec<u8>>,
}

/// Moves the line index `i` of `body` on by one. It counts lines of the header, so it
/// cannot reach `usize::MAX`.
fn step(i: &mut usize) {
    *i = i.saturating_add(1);
}

/// Moves the line index `i` of `body` past blank comment lines.
fn skip_blank_at(body: &[Line<'_>], i: &mut usize) {
    while body.get(*i).is_some_and(|l| l.is_blank_comment()) {
        step(i);
    }
}

/// Reads declarations until a line starting with `}` (left unread) or the end.
fn parse_items<'h>(body: &[Line<'h>], i: &mut usize, depth: usize, sm5: bool, d: &mut Diags) -> Vec<Item<'h>> {
    let mut items: Vec<Item<'h>> = Vec::new();
    while let Some(line) = body.get(*i) {
        let Some(b) = line.body() else { return items };
        let t = b.trim();
        if t.starts_with('}') {
            return items;
        }
        step(i);
        if t.is_empty() {
            continue;
        }
        if let Some(values) = t.strip_prefix('=') {
            // The value goes on over the lines that hold only words (four a line).
            let mut more = Vec::new();
            while let Some(next) = body.get(*i) {
                match next.body().map(str::trim) {
                    Some(w) if w.starts_with("0x") => {
                        more.push((next, w));
                        step(i);
                    }
                    _ => break,
                }
            }
            match items.last_mut() {
                Some(item) if item.default.is_none() => item.default = parse_default(line, values, &more, item.size, d),
                _ => d.error_at(line, t, "a default value must follow a variable"),
            }
            continue;
        }
        if (t == "struct" || t.starts_with("struct ")) && !t.contains("// Offset:") {
            if depth >= MAX_DEPTH {
                d.error_at(line, t, "structures nest too deeply");
                return items;
            }
            if let Some(item) = parse_struct(line, t, body, i, depth, sm5, d) {
                items.push(item);
            }
            continue;
        }
        let Some(decl) = parse_decl_line(line, t, d) else { continue };
        let ty = match decl.type_words.as_slice() {
            ["interface", name] => TypeModel {
                class: VariableClass::InterfacePointer,
                base: VariableType::InterfacePointer,
                rows: 1,
                columns: 4,
                elements: decl.elements,
                members: Vec::new(),
                name: Some(name.to_string()),
                subtype: Some(Box::new(TypeModel {
                    class: VariableClass::InterfaceClass,
                    base: VariableType::Void,
                    rows: 1,
                    columns: 0,
                    elements: 0,
                    members: Vec::new(),
                    name: Some(name.to_string()),
                    subtype: None,
                })),
            },
            [spelling] | ["row_major", spelling] => {
                let Some((mut class, base, rows, columns)) = parse_type_name(spelling) else {
                    d.error_at(line, spelling, format!("unknown type `{spelling}`"));
                    continue;
                };
                if matches!(decl.type_words.as_slice(), ["row_major", _]) {
                    if class != VariableClass::MatrixColumns {
                        d.error_at(line, t, "`row_major` applies to matrices only");
                        continue;
                    }
                    class = VariableClass::MatrixRows;
                }
                let mut ty = TypeModel {
                    class,
                    base,
                    rows,
                    columns,
                    elements: decl.elements,
                    members: Vec::new(),
                    name: None,
                    subtype: None,
                };
                if sm5 {
                    ty.name = ty.sm5_name();
                }
                ty
            }
            _ => {
                d.error_at(line, t, "expected `TYPE NAME;`, `row_major TYPE NAME;` or `interface TYPE NAME;`");
                continue;
            }
        };
        items.push(Item {
            line: *line,
            name: decl.name,
            offset: decl.offset,
            size: decl.size,
            unused: decl.unused,
            ty,
            default: None,
        });
    }
    items
}

/// Reads `struct [NAME]`, `{`, the members, and the closing `} NAME;  // Offset: ...`.
fn parse_struct<'h>(
    line: &Line<'h>,
    t: &'h str,
    body: &[Line<'h>],
    i: &mut usize,
    depth: usize,
    sm5: bool,
    d: &mut Diags,
) -> Option<Item<'h>> {
    let type_name = t.strip_prefix("struct").unwrap_or(t).trim();
    skip_blank_at(body, i);
    if body.get(*i).and_then(|l| l.body()).map(str::trim) != Some("{") {
        d.error_at(line, t, "expected `{` after `struct`");
        return None;
    }
    step(i);
    // At most `MAX_DEPTH`.
    let members = parse_items(body, i, depth.saturating_add(1), sm5, d);
    let Some(close) = body.get(*i).copied() else {
        d.error_at(line, t, "the structure has no closing `}`");
        return None;
    };
    step(i);
    let close_text = close.body().unwrap_or("").trim();
    let decl = parse_decl_line(&close, close_text, d)?;
    if decl.type_words != ["}"] {
        d.error_at(&close, close_text, "expected `} NAME;` closing the structure");
        return None;
    }
    let mut model_members = Vec::with_capacity(members.len());
    for m in members {
        let Some(rel) = m.offset.checked_sub(decl.offset) else {
            d.error_at(&m.line, m.line.text, "a member's offset is before its structure's");
            return None;
        };
        if m.size.is_some() || m.unused || m.default.is_some() {
            d.error_at(&m.line, m.line.text, "structure members have no size, `[unused]` or default value");
        }
        model_members.push(MemberModel { name: m.name, offset: rel, ty: m.ty });
    }
    let columns = model_members.iter().fold(0u32, |n, m| n.saturating_add(m.ty.components()));
    let ty = TypeModel {
        class: VariableClass::Struct,
        base: VariableType::Void,
        rows: 1,
        columns: u16::try_from(columns).unwrap_or(u16::MAX),
        elements: decl.elements,
        members: model_members,
        name: (sm5 && !type_name.is_empty()).then(|| type_name.to_string()),
        subtype: None,
    };
    Some(Item {
        line: close,
        name: decl.name,
        offset: decl.offset,
        size: decl.size,
        unused: decl.unused,
        ty,
        default: None,
    })
}

/// Reads `= 0x3f800000 0x00000000 ...` and its continuation lines (`more`): the
/// variable's bytes, little-endian words cut to its size.
fn parse_default(
    line: &Line<'_>,
    values: &str,
    more: &[(&Line<'_>, &str)],
    size: Option<u32>,
    d: &mut Diags,
) -> Option<Vec<u8>> {
    let mut bytes = Vec::new();
    for (l, text) in std::iter::once((line, values)).chain(more.iter().copied()) {
        for w in text.split_whitespace() {
            let Some(v) = w.strip_prefix("0x").and_then(|h| u32::from_str_radix(h, 16).ok()) else {
                d.error_at(l, w, format!("`{w}` is not a hexadecimal word"));
                return None;
            };
            bytes.extend_from_slice(&v.to_le_bytes());
        }
    }
    let size = size.unwrap_or(0) as usize;
    // `bytes` holds whole words.
    let words = size.div_ceil(4);
    if bytes.len() / 4 != words {
        d.error_at(line, values, format!("a variable of {size} bytes has {words} words of default value"));
        return None;
    }
    bytes.truncate(size);
    Some(bytes)
}

/// Reads the Buffer Definitions from the lines after their title.
pub(crate) fn parse_buffers<'h>(body: &[Line<'h>], sm5: bool, d: &mut Diags) -> Vec<BufferModel<'h>> {
    let mut out = Vec::new();
    let mut i = 0;
    loop {
        skip_blank_at(body, &mut i);
        let Some(line) = body.get(i) else { break };
        let Some(t) = line.body().map(str::trim) else { break };
        let head = BUFFER_KINDS.rows().find_map(|(k, p)| t.strip_prefix(p)?.strip_prefix(' ').map(|n| (k, n.trim())));
        let Some((kind, name)) = head else {
            d.error_at(line, t, "expected `cbuffer`, `tbuffer`, `interfaces` or `Resource bind info for`");
            break;
        };
        step(&mut i);
        skip_blank_at(body, &mut i);
        if body.get(i).and_then(|l| l.body()).map(str::trim) != Some("{") {
            d.error_at(line, t, format!("expected `{{` after `{t}`"));
            break;
        }
        step(&mut i);
        let items = parse_items(body, &mut i, 0, sm5, d);
        match body.get(i).and_then(|l| l.body()).map(str::trim) {
            Some("}") => step(&mut i),
            _ => {
                d.error_at(line, t, format!("`{t}` has no closing `}}`"));
                break;
            }
        }
        let mut vars = Vec::with_capacity(items.len());
        for item in items {
            let Some(size) = item.size else {
                d.error_at(&item.line, item.line.text, "a variable's `// Offset:` comment gives its `Size:`");
                continue;
            };
            vars.push(VarModel {
                name: item.name,
                offset: item.offset,
                size,
                used: !item.unused,
                ty: item.ty,
                default: item.default,
            });
        }
        out.push(BufferModel { name, kind, vars });
    }
    out
}

/// The three layouts of the Resource Bindings table.
#[derive(Clone, Copy, PartialEq, Eq)]
enum BindingLayout {
    /// `Slot Elements` (compilers before 10.x).
    Old,
    /// `HLSL Bind  Count`.
    Bind,
    /// `ID      HLSL Bind  Count` (Shader Model 5.1).
    Id,
}

/// Reads the Resource Bindings from the lines after their title.
pub(crate) fn parse_bindings<'h>(title: Line<'h>, body: &[Line<'h>], d: &mut Diags) -> Vec<BindingModel<'h>> {
    let table = match skip_blank(body) {
        [head, rule, rows @ ..] => {
            let header = head.body().filter(|b| b.trim_start().starts_with("Name"));
            header.zip(Ruler::parse(rule)).map(|(header, ruler)| (header, rule, ruler, rows))
        }
        _ => None,
    };
    let Some((header, rule, ruler, rows)) = table else {
        d.error(&title, 0, "the Resource Bindings table has no `// Name ...` header and `// ----` rule");
        return Vec::new();
    };
    let layout = match ruler.spans.len() {
        6 if header.contains("Slot") => BindingLayout::Old,
        6 => BindingLayout::Bind,
        7 => BindingLayout::Id,
        n => {
            d.error(rule, 0, format!("the Resource Bindings table has 6 or 7 columns, this rule has {n}"));
            return Vec::new();
        }
    };
    let mut out = Vec::new();
    for line in rows {
        let Some(b) = line.body() else { break };
        if b.trim().is_empty() {
            break;
        }
        let Some(cells) = ruler.cells(line) else {
            d.error(line, 0, "the row does not line up with the table's columns");
            continue;
        };
        if let Some(b) = parse_binding(line, &cells, layout, d) {
            out.push(b);
        }
    }
    out
}

fn parse_binding<'h>(
    line: &Line<'h>,
    cells: &[Cell<'h>],
    layout: BindingLayout,
    d: &mut Diags,
) -> Option<BindingModel<'h>> {
    use ShaderInputType as S;
    let errors = d.errors.len();
    // One cell per column of the rule, whose count chose the layout.
    let (name, kind, format, dim, id_cell, bind_cell, count_cell) = match (layout, cells) {
        (BindingLayout::Id, &[name, kind, format, dim, id, bind, count]) => {
            (name, kind, format, dim, Some(id), bind, count)
        }
        (BindingLayout::Old | BindingLayout::Bind, &[name, kind, format, dim, bind, count]) => {
            (name, kind, format, dim, None, bind, count)
        }
        _ => {
            d.error(line, 0, "the row does not line up with the table's columns");
            return None;
        }
    };
    // Kind, from the Type column and (for buffers) the Format and Dim columns.
    let (input_type, mut flags) = match binding_kind_of(kind.text, format.text, dim.text) {
        Some(k) => (k.input_type, k.flags),
        None => {
            d.error(line, kind.at, format!("unknown binding type `{}`", kind.text));
            (S::Unknown(u32::MAX), 0)
        }
    };
    // Return type and component count, from the Format column.
    let return_type = match format.text {
        NA => ReturnType::None,
        STRUCT | BYTE => ReturnType::Mixed,
        f => {
            let digits = f.trim_start_matches(|c: char| c.is_ascii_alphabetic());
            let base = f.strip_suffix(digits).unwrap_or(f);
            let count = if digits.is_empty() { Some(1) } else { number(digits).filter(|n| (1..=4).contains(n)) };
            match (RETURN_TYPES.value(base), count) {
                (Some(rt), Some(n)) => {
                    // 1 to 4 components in two bits.
                    flags |= n.saturating_sub(1) << 2;
                    rt
                }
                _ => {
                    d.error(line, format.at, format!("unknown format `{f}`"));
                    ReturnType::None
                }
            }
        }
    };
    // Dimension (and the old layout's sample count), from the Dim column: a buffer
    // kind's own Dim (`r/o`, `append` ...) is a buffer.
    let mut samples = None;
    let dimension = if let Some(dimension) = DIMENSIONS.value(dim.text) {
        dimension
    } else if dim.text == TEXTURE2DMS_ARRAY_6_3 {
        ResourceDimension::Texture2DMsArray
    } else if BINDING_KINDS.iter().any(|k| k.dim == Some(dim.text)) {
        ResourceDimension::Buffer
    } else {
        // A multisampled dimension followed by its sample count (old layout only).
        let counted = MULTISAMPLED
            .iter()
            .map(|&m| (m, DIMENSIONS.name(m)))
            .chain([(ResourceDimension::Texture2DMsArray, Some(TEXTURE2DMS_ARRAY_6_3))])
            .find_map(|(m, name)| {
                let rest = dim.text.strip_prefix(name?)?;
                number(rest).map(|n| (m, n))
            });
        match counted {
            Some((m, n)) if layout == BindingLayout::Old => {
                samples = Some(n);
                m
            }
            _ => {
                d.error(line, dim.at, format!("unknown dimension `{}`", dim.text));
                ResourceDimension::Unknown0
            }
        }
    };
    // Register, space and count.
    let (reg_prefix, id_prefix) = input_type.register_class();
    let (bind_point, space) = if layout == BindingLayout::Old {
        (number(bind_cell.text), Some(0))
    } else {
        let (reg, space) = match bind_cell.text.split_once(",space") {
            Some((r, s)) => (r, number(s)),
            None => (bind_cell.text, Some(0)),
        };
        (reg.strip_prefix(reg_prefix).and_then(number), space)
    };
    let (Some(bind_point), Some(space)) = (bind_point, space) else {
        let what = if layout == BindingLayout::Old { "a slot number" } else { "a register" };
        d.error(line, bind_cell.at, format!("expected {what} (`{reg_prefix}N`), found `{}`", bind_cell.text));
        return None;
    };
    let id = match id_cell {
        Some(c) => match c.text.strip_prefix(id_prefix).and_then(number) {
            Some(n) => Some(n),
            None => {
                d.error(line, c.at, format!("expected a range ID `{id_prefix}N`, found `{}`", c.text));
                None
            }
        },
        None => None,
    };
    let bind_count = match count_cell.text {
        // fxc's value for unbounded arrays is not in the corpus; 0 is a guess (the
        // printer reads 0 and 0xFFFFFFFF alike).
        "unbounded" => 0,
        t => number(t).unwrap_or_else(|| {
            d.error(line, count_cell.at, format!("the count is not a number: `{t}`"));
            0
        }),
    };
    if name.text.is_empty() {
        d.error(line, name.at, "the binding has no name");
    }
    (d.errors.len() == errors).then_some(BindingModel {
        name: name.text,
        input_type,
        return_type,
        dimension,
        samples,
        bind_point,
        bind_count,
        flags,
        space,
        id,
    })
}

/// `D3DCOMPILE_*` flags named on fxc's command line (printed by fxc 9.29 as a comment).
const COMMAND_LINE_FLAGS: &[(&str, u32)] = &[
    ("Zi", 1 << 0),
    ("Vd", 1 << 1),
    ("Od", 1 << 2),
    ("Zpr", 1 << 3),
    ("Zpc", 1 << 4),
    ("Gpp", 1 << 5),
    ("Op", 1 << 8),
    ("Gfa", 1 << 9),
    ("Gfp", 1 << 10),
    ("Ges", 1 << 11),
    ("Gec", 1 << 12),
    ("Gis", 1 << 13),
    ("O0", 1 << 14),
    ("O1", 0),
    ("O2", 3 << 14),
    ("O3", 1 << 15),
    ("WX", 1 << 18),
    ("res_may_alias", 1 << 19),
    ("enable_unbounded_descriptor_tables", 1 << 20),
    ("all_resources_bound", 1 << 21),
];

/// `D3DCOMPILE_NO_PRESHADER`: set in every corpus blob, whatever the command line.
const NO_PRESHADER: u32 = 1 << 8;

/// The compile flags fxc stores in the RDEF header. The listing does not print them:
/// this is fxc's default (`D3DCOMPILE_NO_PRESHADER`), plus what the program shows
/// (`skipOptimization` global flag: `/Od`; `allResourcesBound`: `/all_resources_bound`),
/// plus the options of the command line fxc 9.29 prints as a comment.
pub(crate) fn compile_flags(program: &Program<'_>, command_line: Option<&str>) -> u32 {
    let mut flags = NO_PRESHADER;
    for ins in &program.instructions {
        if let Body::Decl(Decl::GlobalFlags(g)) = &ins.body {
            if g.contains(tpf::GlobalFlags::SKIP_OPTIMIZATION) {
                flags |= 1 << 2;
            }
            if g.contains(tpf::GlobalFlags::ALL_RESOURCES_BOUND) {
                flags |= 1 << 21;
            }
        }
    }
    for word in command_line.unwrap_or("").split_whitespace() {
        let Some(option) = word.strip_prefix('/').or_else(|| word.strip_prefix('-')) else { continue };
        if let Some(&(_, f)) = COMMAND_LINE_FLAGS.iter().find(|(n, _)| *n == option) {
            flags |= f;
        }
    }
    flags
}

/// A resource declared by the program: what its declaration says that the listing's
/// binding table does not.
struct Declared {
    uav: bool,
    /// Register, or in Shader Model 5.1 the range ID.
    register: u32,
    space: u32,
    stride: Option<u32>,
    samples: Option<u32>,
}

/// The program's texture and UAV declarations.
fn declared_resources(program: &Program<'_>) -> Vec<Declared> {
    let mut out = Vec::new();
    for ins in program.iter() {
        let Body::Decl(decl) = &ins.body else { continue };
        let (uav, stride, samples, space) = match decl {
            Decl::Resource { dim, sample_count, space, .. } => {
                let ms = matches!(dim, tpf::ResourceDimension::Texture2DMS | tpf::ResourceDimension::Texture2DMSArray);
                (false, None, ms.then_some(u32::from(*sample_count)), *space)
            }
            Decl::ResourceStructured { stride, space, .. } => (false, Some(*stride), None, *space),
            Decl::UavStructured { stride, space, .. } => (true, Some(*stride), None, *space),
            _ => continue,
        };
        let Some(register) = ins.decl_operand().and_then(|o| o.register()) else { continue };
        out.push(Declared { uav, register: register as u32, space: space.unwrap_or(0), stride, samples });
    }
    out
}

/// The rest of what [`build`] needs besides the tables.
pub(crate) struct RdefInputs<'a, 'h> {
    pub creator: &'h str,
    pub flags: u32,
    pub interface_slots: u32,
    pub buffers: &'a [BufferModel<'h>],
    pub bindings: &'a [BindingModel<'h>],
}

/// Assembles the RDEF chunk.
///
/// Fields the listing does not print: the compile flags (see [`compile_flags`]); the
/// `D3D_SIF_USERPACKED` flag of bindings and `D3D_SVF_USERPACKED` of variables (never
/// set here); buffer sizes (the last variable's end, rounded up to 16 bytes except for
/// structured-buffer layouts); structure strides and multisample counts (from the
/// matching buffer layout or the program's declarations); the texture and sampler
/// slots of variables (none); Shader Model 5 type names (the printed spelling, `dword`
/// for `uint`; typedef names like `half4` are lost); range IDs of a 5.1 listing without
/// the ID column (numbered per register class).
pub(crate) fn build(program: &Program<'_>, inputs: &RdefInputs<'_, '_>) -> Vec<u8> {
    let v = program.version;
    let sm5 = v.major >= 5;
    let program_type = rdef_program_type(v.ty);
    let constant_buffers: Vec<ConstantBuffer<'_>> = inputs
        .buffers
        .iter()
        .map(|b| {
            let end = b.vars.iter().map(|v| v.offset.saturating_add(v.size)).max().unwrap_or(0);
            let size = if b.kind == CbufferType::ResourceBindInfo { end } else { end.saturating_add(15) & !15 };
            ConstantBuffer {
                name: b.name,
                variables: b
                    .vars
                    .iter()
                    .map(|v| {
                        let mut flags = if v.used { variable_flags::USED } else { 0 };
                        if v.ty.class == VariableClass::InterfacePointer {
                            flags |= variable_flags::INTERFACE_POINTER;
                        }
                        Variable {
                            name: v.name,
                            start_offset: v.offset,
                            size: v.size,
                            flags,
                            ty: v.ty.to_dxbc(sm5),
                            default_value: v.default.as_deref(),
                            start_texture: u32::MAX,
                            texture_size: 0,
                            start_sampler: u32::MAX,
                            sampler_size: 0,
                        }
                    })
                    .collect(),
                size,
                flags: 0,
                kind: b.kind,
            }
        })
        .collect();
    let resources = declared_resources(program);
    let sm51 = v.is_sm51();
    let mut next_id = [0u32; 4];
    let bindings = inputs
        .bindings
        .iter()
        .map(|b| {
            use ShaderInputType as S;
            let (class, _) = b.input_type.register_class();
            // Counted per register class (`t` for anything else).
            let [next_cb, next_s, next_t, next_u] = &mut next_id;
            let next = match class {
                "cb" => next_cb,
                "s" => next_s,
                "u" => next_u,
                _ => next_t,
            };
            let id = b.id.unwrap_or(*next);
            *next = id.saturating_add(1);
            let uav = class == "u";
            let key = if sm51 { id } else { b.bind_point };
            let space = if sm51 { b.space } else { 0 };
            let declared = resources.iter().find(|r| r.uav == uav && r.register == key && r.space == space);
            let layout_size = inputs
                .buffers
                .iter()
                .find(|c| c.kind == CbufferType::ResourceBindInfo && c.name == b.name)
                .and_then(|c| c.vars.first())
                .map(|v| v.size);
            let num_samples = match b.input_type {
                S::CBuffer | S::TBuffer | S::Sampler | S::ByteAddress | S::UavRwByteAddress => 0,
                S::Structured
                | S::UavRwStructured
                | S::UavAppendStructured
                | S::UavConsumeStructured
                | S::UavRwStructuredWithCounter => layout_size.or_else(|| declared.and_then(|r| r.stride)).unwrap_or(0),
                _ if matches!(b.dimension, ResourceDimension::Texture2DMs | ResourceDimension::Texture2DMsArray) => {
                    b.samples.or_else(|| declared.and_then(|r| r.samples)).unwrap_or(0)
                }
                _ => u32::MAX,
            };
            ResourceBinding {
                name: b.name,
                input_type: b.input_type,
                return_type: b.return_type,
                dimension: b.dimension,
                num_samples,
                bind_point: b.bind_point,
                bind_count: b.bind_count,
                flags: b.flags,
                space: b.space,
                id: if sm51 { id } else { 0 },
            }
        })
        .collect();
    let rdef = Rdef {
        target: RdefTarget { program_type, major: v.major, minor: v.minor },
        flags: inputs.flags,
        creator: inputs.creator,
        rd11: sm5.then(|| Rd11Header::fxc(sm51, inputs.interface_slots)),
        constant_buffers,
        bindings,
        raw_layout: None,
    };
    rdef.to_bytes()
}
