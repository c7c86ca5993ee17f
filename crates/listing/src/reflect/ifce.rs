//! The class-linkage tables (`// Available Class Types:`, `// Available Class
//! Instances:`, `// Interface slots, N total:`) back into an `IFCE` chunk.

use dxbc::ifce::{ClassInstance, ClassType, InterfaceSlot};
use dxbc::Ifce;

use super::text::{number, Diags, Line, Ruler};

/// The table rows after a header line and its rule, split into cells; `None` (after an
/// error) if the table has no header or the wrong number of columns.
fn rows<'h>(
    title: &Line<'h>,
    body: &[Line<'h>],
    columns: usize,
    what: &str,
    d: &mut Diags,
) -> Option<Vec<(Line<'h>, Vec<super::text::Cell<'h>>)>> {
    let mut i = 0;
    while body.get(i).is_some_and(|l| l.is_blank_comment()) {
        i += 1;
    }
    let header_ok = body.get(i).and_then(|l| l.body()).is_some_and(|b| b.trim_start().starts_with("Name"));
    let Some(ruler) = body.get(i + 1).and_then(Ruler::parse).filter(|_| header_ok) else {
        d.error(title, 0, format!("the {what} table has no `// Name ...` header and `// ----` rule"));
        return None;
    };
    if ruler.spans.len() != columns {
        d.error(
            &body[i + 1],
            0,
            format!("the {what} table has {columns} columns, this rule has {}", ruler.spans.len()),
        );
        return None;
    }
    let mut out = Vec::new();
    for line in &body[i + 2..] {
        match line.body() {
            Some(b) if !b.trim().is_empty() => {}
            _ => break,
        }
        match ruler.cells(line) {
            Some(cells) => out.push((*line, cells)),
            None => d.error(line, 0, "the row does not line up with the table's columns"),
        }
    }
    Some(out)
}

/// A `u16` cell, or an error.
fn small(line: &Line<'_>, cell: &super::text::Cell<'_>, d: &mut Diags) -> u16 {
    match number(cell.text).and_then(|n| u16::try_from(n).ok()) {
        Some(n) => n,
        None => {
            d.error(line, cell.at, format!("expected a number below 65536, found `{}`", cell.text));
            0
        }
    }
}

/// Reads `// Available Class Types:`.
pub(crate) fn parse_types<'h>(title: &Line<'h>, body: &[Line<'h>], d: &mut Diags) -> Vec<ClassType<'h>> {
    let Some(rows) = rows(title, body, 5, "class type", d) else { return Vec::new() };
    let mut out = Vec::new();
    for (line, c) in rows {
        // The ID column is the type's position; the chunk's own ID field is 0 in
        // every corpus blob and not printed.
        let id = small(&line, &c[1], d);
        if usize::from(id) != out.len() {
            d.warn(&line, c[1].at, format!("class type IDs count up from 0; expected {}", out.len()));
        }
        out.push(ClassType {
            name: c[0].text,
            id: 0,
            cb_stride: small(&line, &c[2], d),
            texture: small(&line, &c[3], d),
            sampler: small(&line, &c[4], d),
        });
    }
    out
}

/// A binding column of a class instance: a number, or `-` for none (0xffff).
fn slot(line: &Line<'_>, cell: &super::text::Cell<'_>, d: &mut Diags) -> u16 {
    if cell.text == "-" {
        crate::header::tables::UNBOUND
    } else {
        small(line, cell, d)
    }
}

/// Reads `// Available Class Instances:`.
pub(crate) fn parse_instances<'h>(title: &Line<'h>, body: &[Line<'h>], d: &mut Diags) -> Vec<ClassInstance<'h>> {
    let Some(rows) = rows(title, body, 6, "class instance", d) else { return Vec::new() };
    rows.into_iter()
        .map(|(line, c)| ClassInstance {
            name: c[0].text,
            type_index: small(&line, &c[1], d),
            unknown: 0,
            constant_buffer: slot(&line, &c[2], d),
            constant_buffer_offset: slot(&line, &c[3], d),
            texture: slot(&line, &c[4], d),
            sampler: slot(&line, &c[5], d),
        })
        .collect()
}

/// Reads `// Interface slots, N total:` and its records; returns N and the records.
pub(crate) fn parse_slots(title: &Line<'_>, body: &[Line<'_>], d: &mut Diags) -> (u32, Vec<InterfaceSlot>) {
    let t = title.body().unwrap_or("").trim();
    let total =
        t.strip_prefix("Interface slots,").and_then(|r| r.trim().strip_suffix("total:")).and_then(|n| number(n.trim()));
    let total = total.unwrap_or_else(|| {
        d.error(title, 0, "expected `// Interface slots, N total:`");
        0
    });
    let mut slots = Vec::new();
    let mut next_slot: u64 = 0;
    let mut i = 0;
    while i < body.len() {
        let line = &body[i];
        let Some(b) = line.body() else { break };
        let cells: Vec<&str> = b.split('|').collect();
        if cells.len() < 4 || cells[1].trim() != "Type ID" {
            i += 1;
            continue;
        }
        let range = cells[2].trim();
        let (first, last) = match range.split_once('-') {
            Some((a, z)) => (number(a), number(z)),
            None => (number(range), number(range)),
        };
        let span = match (first, last) {
            (Some(a), Some(z)) if z >= a && u64::from(a) == next_slot && z - a < u32::MAX => z - a + 1,
            _ => {
                d.error_at(line, cells[2], format!("expected the slots `{next_slot}` or `{next_slot}-M`"));
                0
            }
        };
        next_slot += u64::from(span);
        let type_ids: Vec<u16> = cells[3]
            .split_whitespace()
            .map(|w| {
                number(w).and_then(|n| u16::try_from(n).ok()).unwrap_or_else(|| {
                    d.error_at(line, w, format!("`{w}` is not a class type ID"));
                    0
                })
            })
            .collect();
        let table_line = body.get(i + 1).filter(|l| {
            l.body()
                .map(|b| b.split('|').collect::<Vec<_>>())
                .is_some_and(|c| c.len() >= 4 && c[1].trim() == "Table ID")
        });
        let Some(table_line) = table_line else {
            d.error(line, 0, "a `| Type ID |` line is followed by its `| Table ID |` line");
            i += 1;
            continue;
        };
        let table_cells: Vec<&str> = table_line.body().unwrap_or("").split('|').collect();
        let table_ids: Vec<u32> = table_cells[3]
            .split_whitespace()
            .map(|w| {
                number(w).unwrap_or_else(|| {
                    d.error_at(table_line, w, format!("`{w}` is not a function table ID"));
                    0
                })
            })
            .collect();
        if table_ids.len() != type_ids.len() {
            d.error(table_line, 0, format!("{} type IDs but {} table IDs", type_ids.len(), table_ids.len()));
        }
        slots.push(InterfaceSlot { slot_span: span, type_ids, table_ids });
        i += 2;
    }
    (total, slots)
}

/// Assembles the IFCE chunk. The two header words fxc leaves uninitialised are 0.
pub(crate) fn build(
    types: Vec<ClassType<'_>>,
    instances: Vec<ClassInstance<'_>>,
    slot_count: u32,
    slots: Vec<InterfaceSlot>,
) -> Vec<u8> {
    Ifce { slot_count, reserved: [0, 0], instances, types, slots, raw_layout: None }.to_bytes()
}
