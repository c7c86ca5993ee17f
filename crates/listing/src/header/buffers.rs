//! `// Buffer Definitions:`: constant buffers, tbuffers, interface pointers and
//! structured-buffer layouts with their variables, nested types and default values.

use std::fmt::Write;

use dxbc::rdef::{variable_flags, ConstantBuffer, Rdef, ShaderType, VariableClass};

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
    let _ = writeln!(out, "// {kind} {}", cb.name);
    out.push_str("// {\n//\n");
    let mut prev_struct = false;
    for (i, v) in cb.variables.iter().enumerate() {
        let is_struct = v.ty.class == VariableClass::Struct;
        if i > 0 && (is_struct || (prev_struct && !flavor.struct_gap_before_only)) {
            out.push_str("//   \n");
        }
        prev_struct = is_struct;
        let mut tail = format!(" Size:{:>6}", v.size);
        if v.flags & variable_flags::USED == 0 {
            tail.push_str(" [unused]");
        }
        write_variable(out, 3, &v.ty, v.name, v.start_offset, &tail);
        if let Some(d) = v.default_value {
            // Four words a line; the further lines are indented under the first word.
            for (row, words) in d.chunks(16).enumerate() {
                out.push_str(if row == 0 { "//      =" } else { "//       " });
                for w in words.chunks(4) {
                    let mut b = [0u8; 4];
                    b.iter_mut().zip(w).for_each(|(b, w)| *b = *w);
                    let _ = write!(out, " 0x{:08x}", u32::from_le_bytes(b));
                }
                out.push_str(" \n");
            }
        }
    }
    out.push_str("//\n// }\n//\n");
}

/// One declaration (a variable or a member) at `indent` spaces, followed by its
/// `// Offset:` comment and `tail` (size and `[unused]` for variables).
fn write_variable(out: &mut String, indent: usize, ty: &ShaderType<'_>, name: &str, offset: u32, tail: &str) {
    let array = if ty.elements > 0 { format!("[{}]", ty.elements) } else { String::new() };
    let pad = " ".repeat(indent);
    let decl = if ty.class == VariableClass::Struct {
        let _ = match ty.name.filter(|n| !n.is_empty()) {
            Some(n) => writeln!(out, "//{pad}struct {n}"),
            None => writeln!(out, "//{pad}struct"),
        };
        let _ = writeln!(out, "//{pad}{{");
        let inner = " ".repeat(indent.saturating_add(4));
        let mut prev_struct = false;
        for (i, m) in ty.members.iter().enumerate() {
            let is_struct = m.ty.class == VariableClass::Struct;
            if i == 0 || is_struct || prev_struct {
                let _ = writeln!(out, "//{inner}");
            }
            // Member offsets print from the start of the buffer.
            write_variable(out, indent.saturating_add(4), &m.ty, m.name, offset.wrapping_add(m.offset), "");
            prev_struct = is_struct;
        }
        out.push_str("//\n");
        format!("{pad}}} {name}{array};")
    } else {
        format!("{pad}{} {name}{array};", type_name(ty))
    };
    let _ = writeln!(out, "//{decl:<COMMENT_COLUMN$}// Offset:{offset:>5}{tail}");
}

/// The HLSL spelling of a non-structure type.
fn type_name(ty: &ShaderType<'_>) -> String {
    // The listing spells types from class and base type, not with the RDEF name
    // (which keeps typedefs such as `dword` or `half4`).
    let base = built_name(ty);
    match ty.class {
        VariableClass::InterfacePointer => format!("interface {}", ty.name.unwrap_or("")),
        VariableClass::MatrixRows => format!("row_major {base}"),
        _ => base,
    }
}

/// A type name built from class, base type and dimensions (Shader Model 4 RDEF types
/// carry no name).
fn built_name(ty: &ShaderType<'_>) -> String {
    let base = BASE_TYPES.name(ty.base).unwrap_or("<unknown>");
    match ty.class {
        VariableClass::Vector => format!("{base}{}", ty.columns),
        VariableClass::MatrixRows | VariableClass::MatrixColumns => {
            format!("{base}{}x{}", ty.rows, ty.columns)
        }
        _ => base.to_string(),
    }
}
