//! The class-linkage tables (`// Available Class Types:`, `// Available Class
//! Instances:`, `// Interface slots, N total:`) back into an `IFCE` chunk.

use dxbc::ifce::{ClassInstance, ClassType, InterfaceSlot};
use dxbc::Ifce;

use super::text::{number, skip_blank, Cell, Diags, Line, Ruler};

/// The table rows after a header line and its rule, split into their `N` cells; `None`
/// (after an error) if the table has no header or not `N` columns.
fn rows<'h, const N: usize>(
    title: &Line<'h>,
    body: &[Line<'h>],
    what: &str,
    d: &mut Diags,
) -> Option<Vec<(Line<'h>, [Cell<'h>; N])>> {
    let header_rule = match skip_blank(body) {
        [head, rule, table @ ..] => {
            let header_ok = head.body().is_some_and(|b| b.trim_start().starts_with("Name"));
            Ruler::parse(rule).filter(|_| header_ok).map(|ruler| (rule, ruler, table))
        }
        _ => None,
    };
    let Some((rule, ruler, table)) = header_rule else {
        d.error(title, 0, format!("the {what} table has no `// Name ...` header and `// ----` rule"));
        return None;
    };
    if ruler.spans.len() != N {
        d.error(rule, 0, format!("the {what} table has {N} columns, this rule has {}", ruler.spans.len()));
        return None;
    }
    let mut out = Vec::new();
    for line in table {
        match line.body() {
            Some(b) if !b.trim().is_empty() => {}
            _ => break,
        }
        // One cell per column of the rule.
        match ruler.cells(line).and_then(|cells| <[Cell<'h>; N]>::try_from(cells).ok()) {
            Some(cells) => out.push((*line, cells)),
            None => d.error(line, 0, "the row does not line up with the table's columns"),
        }
    }
    Some(out)
}

/// A `u16` cell, or an error.
fn small(line: &Line<'_>, cell: &Cell<'_>, d: &mut Diags) -> u16 {
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
    let Some(rows) = rows(title, body, "class type", d) else { return Vec::new() };
    let mut out = Vec::new();
    for (line, [name, id, cb_stride, texture, sampler]) in rows {
        // The ID column is the type's position; the chunk's own ID field is 0 in
        // every corpus blob and not printed.
        let id_at = id.at;
        let id = small(&line, &id, d);
        if usize::from(id) != out.len() {
            d.warn(&line, id_at, format!("class type IDs count up from 0; expected {}", out.len()));
        }
        out.push(ClassType {
            name: name.text,
            id: 0,
            cb_stride: small(&line, &cb_stride, d),
            texture: small(&line, &texture, d),
            sampler: small(&line, &sampler, d),
        });
    }
    out
}

/// A binding column of a class instance: a number, or `-` for none (0xffff).
fn slot(line: &Line<'_>, cell: &Cell<'_>, d: &mut Diags) -> u16 {
    if cell.text == "-" {
        crate::header::tables::UNBOUND
    } else {
        small(line, cell, d)
    }
}

/// Reads `// Available Class Instances:`.
pub(crate) fn parse_instances<'h>(title: &Line<'h>, body: &[Line<'h>], d: &mut Diags) -> Vec<ClassInstance<'h>> {
    let Some(rows) = rows(title, body, "class instance", d) else { return Vec::new() };
    rows.into_iter()
        .map(|(line, [name, type_index, cb, cb_offset, texture, sampler])| ClassInstance {
            name: name.text,
            type_index: small(&line, &type_index, d),
            unknown: 0,
            constant_buffer: slot(&line, &cb, d),
            constant_buffer_offset: slot(&line, &cb_offset, d),
            texture: slot(&line, &texture, d),
            sampler: slot(&line, &sampler, d),
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
    let mut rest = body;
    while let Some((line, after)) = rest.split_first() {
        rest = after;
        if line.body().is_none() {
            break;
        }
        let Some((range_cell, type_cell)) = slot_cells(line, "Type ID") else { continue };
        let range = range_cell.trim();
        let (first, last) = match range.split_once('-') {
            Some((a, z)) => (number(a), number(z)),
            None => (number(range), number(range)),
        };
        let span = match (first, last) {
            (Some(a), Some(z)) if u64::from(a) == next_slot => z.checked_sub(a).and_then(|n| n.checked_add(1)),
            _ => None,
        };
        let span = span.unwrap_or_else(|| {
            d.error_at(line, range_cell, format!("expected the slots `{next_slot}` or `{next_slot}-M`"));
            0
        });
        // A sum of `u32` spans, one per line: it does not reach `u64::MAX`.
        next_slot = next_slot.saturating_add(u64::from(span));
        let type_ids: Vec<u16> = type_cell
            .split_whitespace()
            .map(|w| {
                number(w).and_then(|n| u16::try_from(n).ok()).unwrap_or_else(|| {
                    d.error_at(line, w, format!("`{w}` is not a class type ID"));
                    0
                })
            })
            .collect();
        let table = after.split_first().and_then(|(l, tail)| Some((l, slot_cells(l, "Table ID")?.1, tail)));
        let Some((table_line, table_cell, tail)) = table else {
            d.error(line, 0, "a `| Type ID |` line is followed by its `| Table ID |` line");
            continue;
        };
        rest = tail;
        let table_ids: Vec<u32> = table_cell
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
    }
    (total, slots)
}

/// The slots and IDs cells of a `// | Type ID | ...` or `// | Table ID | ...` line
/// (`label` names which).
fn slot_cells<'h>(line: &Line<'h>, label: &str) -> Option<(&'h str, &'h str)> {
    let mut cells = line.body()?.split('|');
    let (_, name, slots, ids) = (cells.next()?, cells.next()?, cells.next()?, cells.next()?);
    (name.trim() == label).then_some((slots, ids))
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
