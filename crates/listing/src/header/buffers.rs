//! `// Buffer Definitions:`: constant buffers, tbuffers, interface pointers and
//! structured-buffer layouts with their variables, nested types and default values.

use dxbc::rdef::{variable_flags, ConstantBuffer, Rdef, ShaderType, VariableClass};

use super::columns::{dec, hex8, left, right_dec, spaces};
use super::names::{BASE_TYPES, BUFFER_KINDS};
use super::Flavor;

/// Column (after the leading `//`) where a variable's `// Offset:` comment starts.
const COMMENT_COLUMN: usize = 38;

pub(super) fn write_buffer_definitions(out: &mut String, rdef: &Rdef<'_>, flavor: Flavor) {
    if rdef.constant_buffers.is_empty() {
        return;
    }
    out.push_str("// Buffer Definitions: \n//\n");
    for cb in &rdef.constant_buffers {
        write_buffer(out, cb, flavor);
    }
    out.push_str("//\n");
}

fn write_buffer(out: &mut String, cb: &ConstantBuffer<'_>, flavor: Flavor) {
    // A kind the table does not name prints as a `cbuffer`.
    let kind = BUFFER_KINDS.name(cb.kind).unwrap_or("cbuffer");
    out.push_str("// ");
    out.push_str(kind);
    out.push(' ');
    out.push_str(cb.name);
    out.push_str("\n// {\n//\n");
    let mut prev_struct = false;
    for (i, v) in cb.variables.iter().enumerate() {
        let is_struct = v.ty.class == VariableClass::Struct;
        if i > 0 && (is_struct || (prev_struct && !flavor.struct_gap_before_only)) {
            out.push_str("//   \n");
        }
        prev_struct = is_struct;
        let tail = Tail::Variable { size: v.size, unused: v.flags & variable_flags::USED == 0 };
        write_variable(out, 3, &v.ty, v.name, v.start_offset, tail);
        if let Some(d) = v.default_value {
            // Four words a line; the further lines are indented under the first word.
            for (row, words) in d.chunks(16).enumerate() {
                out.push_str(if row == 0 { "//      =" } else { "//       " });
                for w in words.chunks(4) {
                    let mut b = [0u8; 4];
                    b.iter_mut().zip(w).for_each(|(b, w)| *b = *w);
                    out.push_str(" 0x");
                    hex8(out, u32::from_le_bytes(b));
                }
                out.push_str(" \n");
            }
        }
    }
    out.push_str("//\n// }\n//\n");
}

/// What follows a declaration's `// Offset:` column.
#[derive(Clone, Copy)]
enum Tail {
    /// A structure member: nothing.
    Member,
    /// A variable: its size, and `[unused]` when the shader does not read it.
    Variable { size: u32, unused: bool },
}

/// One declaration (a variable or a member) at `indent` spaces, followed by its
/// `// Offset:` comment and `tail`.
fn write_variable(out: &mut String, indent: usize, ty: &ShaderType<'_>, name: &str, offset: u32, tail: Tail) {
    if ty.class == VariableClass::Struct {
        out.push_str("//");
        spaces(out, indent);
        match ty.name.filter(|n| !n.is_empty()) {
            Some(n) => {
                out.push_str("struct ");
                out.push_str(n);
            }
            None => out.push_str("struct"),
        }
        out.push_str("\n//");
        spaces(out, indent);
        out.push_str("{\n");
        let mut prev_struct = false;
        for (i, m) in ty.members.iter().enumerate() {
            let is_struct = m.ty.class == VariableClass::Struct;
            if i == 0 || is_struct || prev_struct {
                out.push_str("//");
                spaces(out, indent.saturating_add(4));
                out.push('\n');
            }
            // Member offsets print from the start of the buffer.
            write_variable(out, indent.saturating_add(4), &m.ty, m.name, offset.wrapping_add(m.offset), Tail::Member);
            prev_struct = is_struct;
        }
        out.push_str("//\n");
    }
    out.push_str("//");
    left(out, COMMENT_COLUMN, |out| {
        spaces(out, indent);
        if ty.class == VariableClass::Struct {
            out.push('}');
        } else {
            type_name(out, ty);
        }
        out.push(' ');
        out.push_str(name);
        if ty.elements > 0 {
            out.push('[');
            dec(out, ty.elements);
            out.push(']');
        }
        out.push(';');
    });
    out.push_str("// Offset:");
    right_dec(out, offset, 5);
    if let Tail::Variable { size, unused } = tail {
        out.push_str(" Size:");
        right_dec(out, size, 6);
        if unused {
            out.push_str(" [unused]");
        }
    }
    out.push('\n');
}

/// The HLSL spelling of a non-structure type.
fn type_name(out: &mut String, ty: &ShaderType<'_>) {
    // The listing spells types from class and base type, not with the RDEF name
    // (which keeps typedefs such as `dword` or `half4`).
    match ty.class {
        VariableClass::InterfacePointer => {
            out.push_str("interface ");
            out.push_str(ty.name.unwrap_or(""));
        }
        VariableClass::MatrixRows => {
            out.push_str("row_major ");
            built_name(out, ty);
        }
        _ => built_name(out, ty),
    }
}

/// A type name built from class, base type and dimensions (Shader Model 4 RDEF types
/// carry no name).
fn built_name(out: &mut String, ty: &ShaderType<'_>) {
    out.push_str(BASE_TYPES.name(ty.base).unwrap_or("<unknown>"));
    match ty.class {
        VariableClass::Vector => dec(out, ty.columns),
        VariableClass::MatrixRows | VariableClass::MatrixColumns => {
            dec(out, ty.rows);
            out.push('x');
            dec(out, ty.columns);
        }
        _ => {}
    }
}
