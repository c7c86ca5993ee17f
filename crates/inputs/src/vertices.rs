#![deny(clippy::arithmetic_side_effects, clippy::indexing_slicing)]
//! The vertices of a draw as a user writes them: JSON objects keyed by semantic, or CSV
//! with one column per component.

use serde_json::{json, Value};
use thiserror::Error;

/// Why the vertices cannot be read. The CSV errors and the JSON syntax errors have a
/// line ([`VertexError::has_line`]); the others name the vertex (0-based) and its key.
#[derive(Debug, Error)]
pub enum VertexError {
    /// The text starts like JSON (`[` or `{`) but is not JSON.
    #[error("{line}:{column}: {error}")]
    Json {
        /// 1-based line.
        line: usize,
        /// 1-based column.
        column: usize,
        /// The JSON reader's error.
        error: serde_json::Error,
    },
    /// A JSON object without a `vertices` array.
    #[error("expected an array of vertices (or {{\"vertices\": [...]}})")]
    NoVertices,
    /// JSON that is neither an array nor an object.
    #[error("expected an array of vertices")]
    NotAnArray,
    /// A vertex that is not a JSON object.
    #[error("vertex {vertex} is not an object keyed by semantic")]
    NotAnObject {
        /// The vertex, 0-based.
        vertex: usize,
    },
    /// A semantic's value that is neither a component nor an array.
    #[error("vertex {vertex}, {key}: expected a number or an array of up to 4 numbers")]
    NotAValue {
        /// The vertex, 0-based.
        vertex: usize,
        /// The key as written (`TEXCOORD1`).
        key: String,
    },
    /// More than 4 components, or one that is not a number, a special float's name or
    /// a word's bits in hex.
    #[error(
        "vertex {vertex}, {key}: expected up to 4 numbers (or \"NaN\", \"inf\", \"-inf\", or bits as \"0x3f800000\")"
    )]
    BadComponents {
        /// The vertex, 0-based.
        vertex: usize,
        /// The key as written.
        key: String,
    },
    /// A CSV header cell without `.component`.
    #[error("{line}: column {column} `{header}`: expected SEMANTIC[INDEX].x|y|z|w")]
    Column {
        /// 1-based line (the header's).
        line: usize,
        /// 1-based column (cell number).
        column: usize,
        /// The header cell.
        header: String,
    },
    /// A CSV header cell whose component is not one of `x`, `y`, `z`, `w` (or `r`, `g`,
    /// `b`, `a`).
    #[error("{line}: column {column} `{header}`: component must be x, y, z or w")]
    Component {
        /// 1-based line (the header's).
        line: usize,
        /// 1-based column (cell number).
        column: usize,
        /// The header cell.
        header: String,
    },
    /// A CSV row with another number of cells than the header.
    #[error("{line}: {values} values; the header has {columns} columns")]
    Count {
        /// 1-based line.
        line: usize,
        /// Cells in the row.
        values: usize,
        /// Cells in the header.
        columns: usize,
    },
    /// A CSV cell that is not a component value.
    #[error("{line}: `{cell}` is not a number")]
    NotANumber {
        /// 1-based line.
        line: usize,
        /// The cell, trimmed.
        cell: String,
    },
}

impl VertexError {
    /// True when the message starts with a line number (`3: ...`, `3:7: ...`).
    pub fn has_line(&self) -> bool {
        matches!(
            self,
            VertexError::Json { .. }
                | VertexError::Column { .. }
                | VertexError::Component { .. }
                | VertexError::Count { .. }
                | VertexError::NotANumber { .. }
        )
    }
}

/// One input vertex: values by (semantic name upper-cased, index).
pub type InputVertex = Vec<(String, u32, Vec<Value>)>;

/// `TEXCOORD1` -> (`TEXCOORD`, 1); `SV_Position` -> (`SV_Position`, 0).
pub fn split_semantic(key: &str) -> (String, u32) {
    let name = key.trim_end_matches(|c: char| c.is_ascii_digit());
    let index = key.get(name.len()..).unwrap_or("");
    (name.to_string(), index.parse().unwrap_or(0))
}

/// Reads the vertices from `text`: a JSON array of objects keyed by semantic
/// (`"TEXCOORD1": [u, v]`, or `{"vertices": [...]}`), or CSV with columns
/// `SEMANTIC[INDEX].c` (c in x, y, z, w; blank lines are skipped).
pub fn read(text: &str) -> Result<Vec<InputVertex>, VertexError> {
    // A UTF-8 byte-order mark is not part of the data.
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    if text.trim_start().starts_with('[') || text.trim_start().starts_with('{') {
        let value: Value = serde_json::from_str(text).map_err(|e| VertexError::Json {
            line: e.line(),
            column: e.column(),
            error: e,
        })?;
        let list = match &value {
            Value::Array(a) => a,
            Value::Object(o) => o.get("vertices").and_then(Value::as_array).ok_or(VertexError::NoVertices)?,
            _ => return Err(VertexError::NotAnArray),
        };
        let mut vertices = Vec::with_capacity(list.len());
        for (i, v) in list.iter().enumerate() {
            let Value::Object(fields) = v else {
                return Err(VertexError::NotAnObject { vertex: i });
            };
            let mut vertex = Vec::new();
            for (key, value) in fields {
                let values = match value {
                    Value::Array(a) => a.clone(),
                    Value::Number(_) | Value::String(_) => vec![value.clone()],
                    _ => return Err(VertexError::NotAValue { vertex: i, key: key.clone() }),
                };
                if values.len() > 4 || values.iter().any(|x| !is_component(x)) {
                    return Err(VertexError::BadComponents { vertex: i, key: key.clone() });
                }
                let (semantic, index) = split_semantic(key);
                vertex.push((semantic.to_ascii_uppercase(), index, values));
            }
            vertices.push(vertex);
        }
        return Ok(vertices);
    }
    // CSV.
    let mut lines = text.lines().enumerate().filter(|(_, l)| !l.trim().is_empty());
    let Some((_, header)) = lines.next() else { return Ok(Vec::new()) };
    let mut columns = Vec::new();
    for (c, h) in header.split(',').enumerate() {
        let h = h.trim();
        let (key, comp) = h.rsplit_once('.').ok_or_else(|| VertexError::Column {
            line: 1,
            column: c.saturating_add(1),
            header: h.to_string(),
        })?;
        let comp = match comp {
            "x" | "r" => 0,
            "y" | "g" => 1,
            "z" | "b" => 2,
            "w" | "a" => 3,
            _ => return Err(VertexError::Component { line: 1, column: c.saturating_add(1), header: h.to_string() }),
        };
        let (semantic, index) = split_semantic(key);
        columns.push((semantic.to_ascii_uppercase(), index, comp));
    }
    let mut vertices = Vec::new();
    for (line, row) in lines {
        let cells: Vec<&str> = row.split(',').map(str::trim).collect();
        if cells.len() != columns.len() {
            return Err(VertexError::Count {
                line: line.saturating_add(1),
                values: cells.len(),
                columns: columns.len(),
            });
        }
        let mut vertex: InputVertex = Vec::new();
        for ((semantic, index, comp), cell) in columns.iter().zip(cells) {
            let number: Value = serde_json::from_str(cell)
                .ok()
                .filter(Value::is_number)
                .or_else(|| is_component(&Value::String(cell.to_string())).then(|| Value::String(cell.to_string())))
                .ok_or_else(|| VertexError::NotANumber { line: line.saturating_add(1), cell: cell.to_string() })?;
            let slot = match vertex.iter().position(|(s, i, _)| s == semantic && i == index) {
                Some(p) => p,
                None => {
                    vertex.push((semantic.clone(), *index, Vec::new()));
                    vertex.len().saturating_sub(1)
                }
            };
            if let Some((_, _, values)) = vertex.get_mut(slot) {
                while values.len() <= *comp {
                    values.push(json!(0));
                }
                if let Some(value) = values.get_mut(*comp) {
                    *value = number;
                }
            }
        }
        vertices.push(vertex);
    }
    Ok(vertices)
}

/// `NaN`, `inf`, `-inf` (also `Infinity`, any case): the floats JSON cannot spell.
pub fn special_float(s: &str) -> Option<f32> {
    match s.trim().to_ascii_lowercase().as_str() {
        "nan" => Some(f32::NAN),
        "inf" | "+inf" | "infinity" | "+infinity" => Some(f32::INFINITY),
        "-inf" | "-infinity" => Some(f32::NEG_INFINITY),
        _ => None,
    }
}

/// A component value of an input file: a number, one of [`special_float`]'s names, or a
/// 32-bit word's bits in hex (`"0x3f800000"`, [`crate::binding::string_word`]).
pub fn is_component(v: &Value) -> bool {
    v.is_number() || v.as_str().is_some_and(|s| crate::binding::string_word(s).is_some())
}

#[cfg(test)]
#[allow(clippy::indexing_slicing, clippy::arithmetic_side_effects)]
mod tests {
    use super::*;

    #[test]
    fn json_at_its_edges() {
        let v = read("\u{feff}[{\"SV_Position\": [0, 1, \"NaN\", 1], \"texcoord1\": 2}]").unwrap();
        assert_eq!(v[0][1].0, "TEXCOORD");
        assert_eq!(v[0][1].1, 1);
        assert_eq!(read("{\"vertices\": []}").unwrap().len(), 0);
        assert!(matches!(read("[1,"), Err(VertexError::Json { line: 1, .. })));
        assert!(matches!(read("{}"), Err(VertexError::NoVertices)));
        assert!(matches!(read("[1]"), Err(VertexError::NotAnObject { vertex: 0 })));
        assert!(matches!(read("[{}, {\"A\": null}]"), Err(VertexError::NotAValue { vertex: 1, .. })));
        assert!(matches!(read("[{\"A\": [1,2,3,4,5]}]"), Err(VertexError::BadComponents { vertex: 0, .. })));
        assert!(read("[{\"A\": [\"0x3f800000\", \"0xFFFFFFFF\"]}]").is_ok());
        assert!(matches!(read("[{\"A\": [\"0x1FFFFFFFF\"]}]"), Err(VertexError::BadComponents { vertex: 0, .. })));
        assert!(matches!(read(&"[".repeat(100_000)), Err(VertexError::Json { .. })));
    }

    #[test]
    fn csv_at_its_edges() {
        assert!(read("").unwrap().is_empty());
        let v = read("POSITION.x,POSITION.w\n1, inf\n\n2,0x7fc00001\n").unwrap();
        assert_eq!(v[1][0].2[3], json!("0x7fc00001"));
        assert_eq!(v.len(), 2);
        assert_eq!(v[0][0].2.len(), 4);
        let e = read("POSITION\n").unwrap_err();
        assert!(matches!(e, VertexError::Column { line: 1, column: 1, .. }) && e.has_line());
        assert!(matches!(read("A.q\n"), Err(VertexError::Component { line: 1, .. })));
        assert!(matches!(read("A.x\n1,2\n"), Err(VertexError::Count { line: 2, values: 2, columns: 1 })));
        assert_eq!(read("A.x\n\nz\n").unwrap_err().to_string(), "3: `z` is not a number");
    }
}
