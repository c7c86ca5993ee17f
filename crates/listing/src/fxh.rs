#![deny(clippy::arithmetic_side_effects, clippy::indexing_slicing)]
//! Reading the byte arrays of an fxc `/Fh` header.
//!
//! `fxc /Fh` writes a compiled shader as a C array, after its listing in `#if 0`:
//!
//! ```text
//! const BYTE g_main[] =
//! {
//!      68,  88,  66,  67, ...
//! };
//! ```
//!
//! [`arrays`] finds every such array (decimal, hex or octal literals, comments
//! ignored) and returns its name and bytes; errors name the line and column.

use thiserror::Error;

/// One array of a header.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Array {
    /// The array's C identifier (`g_main`).
    pub name: String,
    /// Its elements, one byte each.
    pub bytes: Vec<u8>,
    /// 1-based line of the array's name.
    pub line: usize,
}

/// A header could not be read.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("{line}:{column}: {message}")]
pub struct FxhError {
    /// The 1-based line.
    pub line: usize,
    /// The 1-based column, in characters.
    pub column: usize,
    /// What is wrong.
    pub message: String,
}

/// True when `bytes` look like C source rather than a binary blob: text (no NUL
/// bytes, no control characters but white space) in their first 4 KiB.
pub fn looks_like_header(bytes: &[u8]) -> bool {
    let head = bytes.get(..bytes.len().min(4096)).unwrap_or(bytes);
    !head.is_empty() && head.iter().all(|&b| b >= 0x20 || matches!(b, b'\n' | b'\r' | b'\t' | 0x0c))
}

/// Every byte array in `text`, in order.
pub fn arrays(text: &str) -> Result<Vec<Array>, FxhError> {
    let src = strip_comments(text);
    // Every offset below is a character boundary of `src` found by its own searches,
    // and below its length: `get` never fails and saturating never saturates.
    let at_ = |a: usize| src.get(a..).unwrap_or_default();
    let mut out = Vec::new();
    let mut rest = 0usize;
    let (mut line, mut counted) = (1usize, 0usize);
    while let Some(found) = at_(rest).find("[]") {
        let at = rest.saturating_add(found);
        rest = at.saturating_add(2);
        // The identifier right before `[]`: letters (beyond ASCII too, as the Microsoft
        // C/C++ compiler reads names), digits and `_`. It starts after the last other
        // character, whatever that character's length in bytes.
        let before = src.get(..at).unwrap_or_default().trim_end();
        let name_start = before
            .char_indices()
            .rev()
            .find(|&(_, c)| !(c.is_alphanumeric() || c == '_'))
            .map_or(0, |(i, c)| i.saturating_add(c.len_utf8()));
        let name = before.get(name_start..).unwrap_or_default();
        if name.is_empty() {
            continue;
        }
        // `= {` after it.
        let after = at_(rest).trim_start();
        let Some(after_eq) = after.strip_prefix('=') else {
            continue;
        };
        let open = rest
            .saturating_add(at_(rest).len().saturating_sub(after.len()))
            .saturating_add(1)
            .saturating_add(after_eq.len().saturating_sub(after_eq.trim_start().len()));
        if !at_(open).starts_with('{') {
            continue;
        }
        let close = at_(open)
            .find('}')
            .map(|i| open.saturating_add(i))
            .ok_or_else(|| err(&src, open, "this array's `{` is never closed"))?;
        let mut bytes = Vec::new();
        let mut pos = open.saturating_add(1);
        for item in src.get(pos..close).unwrap_or_default().split(',') {
            let lead = item.len().saturating_sub(item.trim_start().len());
            let literal = item.trim();
            if !literal.is_empty() {
                let value = parse_int(literal).ok_or_else(|| {
                    err(&src, pos.saturating_add(lead), &format!("`{literal}` is not an integer literal"))
                })?;
                let byte = u8::try_from(value)
                    .map_err(|_| err(&src, pos.saturating_add(lead), &format!("`{literal}` does not fit in a byte")))?;
                bytes.push(byte);
            }
            pos = pos.saturating_add(item.len()).saturating_add(1);
        }
        // Lines counted incrementally from the previous array: linear in the file.
        line = line.saturating_add(src.get(counted..at).unwrap_or_default().matches('\n').count());
        counted = at;
        out.push(Array { name: name.to_string(), bytes, line });
        rest = close.saturating_add(1);
    }
    Ok(out)
}

/// Picks the array named `var`, or the only array when `var` is `None`.
pub fn pick(text: &str, var: Option<&str>) -> Result<Array, FxhError> {
    let all = arrays(text)?;
    let names = || all.iter().map(|a| a.name.as_str()).collect::<Vec<_>>().join(", ");
    match var {
        Some(v) => all.iter().find(|a| a.name == v).cloned().ok_or_else(|| FxhError {
            line: 1,
            column: 1,
            message: format!("no array named `{v}` (the header has: {})", names()),
        }),
        None => match all.len() {
            0 => Err(FxhError { line: 1, column: 1, message: "no byte array (`NAME[] = { ... }`) found".into() }),
            1 => Ok(all.into_iter().next().unwrap()),
            _ => Err(FxhError {
                line: 1,
                column: 1,
                message: format!("the header has several arrays ({}); choose one with --var NAME", names()),
            }),
        },
    }
}

fn err(src: &str, at: usize, message: &str) -> FxhError {
    // `at` is a character boundary of `src` (see `arrays`); positions fit in usize.
    let before = src.get(..at).unwrap_or_default();
    let line = before.matches('\n').count().saturating_add(1);
    let column = at.saturating_sub(before.rfind('\n').map_or(0, |i| i.saturating_add(1))).saturating_add(1);
    FxhError { line, column, message: message.to_string() }
}

fn parse_int(s: &str) -> Option<u64> {
    let s = s.trim_end_matches(['u', 'U', 'l', 'L']);
    if let Some(hex) = s.strip_prefix("0x").or_else(|| s.strip_prefix("0X")) {
        u64::from_str_radix(hex, 16).ok()
    } else if s.len() > 1 && s.starts_with('0') {
        u64::from_str_radix(s.get(1..)?, 8).ok()
    } else {
        s.parse().ok()
    }
}

/// Replaces comments (and `#if 0` ... `#endif` blocks, where fxc puts the listing)
/// with spaces, keeping every other character in place so positions stay true.
fn strip_comments(text: &str) -> String {
    let mut out: Vec<u8> = text.as_bytes().to_vec();
    let b = text.as_bytes();
    let mut i = 0;
    let blank = |out: &mut Vec<u8>, from: usize, to: usize| {
        for c in out.get_mut(from..to).into_iter().flatten() {
            if *c != b'\n' {
                *c = b' ';
            }
        }
    };
    // `i` stays below `b.len()` and every `end` at most `b.len()`: saturating never
    // saturates; the `text` slices start at ASCII bytes, so on character boundaries.
    while let Some(here) = b.get(i..).filter(|r| !r.is_empty()) {
        if here.starts_with(b"//") {
            let end = here.iter().position(|&c| c == b'\n').map_or(b.len(), |p| i.saturating_add(p));
            blank(&mut out, i, end);
            i = end;
        } else if here.starts_with(b"/*") {
            let from = i.saturating_add(2);
            let end = text
                .get(from..)
                .and_then(|t| t.find("*/"))
                .map_or(b.len(), |p| from.saturating_add(p).saturating_add(2));
            blank(&mut out, i, end);
            i = end;
        } else if i.checked_sub(1).is_none_or(|p| b.get(p) == Some(&b'\n')) && here.starts_with(b"#if 0") {
            let end =
                text.get(i..).and_then(|t| t.find("#endif")).map_or(b.len(), |p| i.saturating_add(p).saturating_add(6));
            blank(&mut out, i, end);
            i = end;
        } else {
            i = i.saturating_add(1);
        }
    }
    String::from_utf8(out).unwrap_or_default()
}

#[cfg(test)]
// Test code indexes its own fixed expectations, not input.
#[allow(clippy::arithmetic_side_effects, clippy::indexing_slicing)]
mod tests {
    use super::*;

    const HEADER: &str = "#if 0\n//\n// Generated by x\n// a[] = { 9 }\n#endif\n\nconst BYTE g_vs[] =\n{\n     68,  88, 0x42,  67\n};\n/* c[] = {1} */\nconst unsigned char g_ps[] = { 1, 2 ,3, };\n";

    #[test]
    fn reads_every_array_and_skips_comments() {
        let all = arrays(HEADER).unwrap();
        assert_eq!(all.len(), 2);
        assert_eq!(all[0].name, "g_vs");
        assert_eq!(all[0].bytes, b"DXBC");
        assert_eq!(all[0].line, 7);
        assert_eq!(all[1].name, "g_ps");
        assert_eq!(all[1].bytes, [1, 2, 3]);
    }

    #[test]
    fn tells_headers_from_blobs() {
        assert!(looks_like_header(HEADER.as_bytes()));
        assert!(!looks_like_header(b"DXBC\x01\x02\x00\x00"));
        assert!(!looks_like_header(b""));
        // A long listing before the array does not matter.
        let long = format!("#if 0\n{}#endif\nconst BYTE g[] = {{ 1 }};\n", "// ps_4_0\n".repeat(1000));
        assert!(looks_like_header(long.as_bytes()));
        assert_eq!(pick(&long, None).unwrap().bytes, [1]);
    }

    #[test]
    fn picks_by_name_and_refuses_ambiguity() {
        assert_eq!(pick(HEADER, Some("g_ps")).unwrap().bytes, [1, 2, 3]);
        let e = pick(HEADER, None).unwrap_err();
        assert!(e.message.contains("g_vs, g_ps"), "{e}");
        assert!(pick(HEADER, Some("nope")).is_err());
    }

    #[test]
    fn errors_name_line_and_column() {
        let e = arrays("const BYTE a[] =\n{\n  1, 2,\n  300, 4 };").unwrap_err();
        assert_eq!((e.line, e.column), (4, 3));
        assert!(e.message.contains("does not fit"));
        let e = arrays("const BYTE a[] = { 1, x2 };").unwrap_err();
        assert_eq!((e.line, e.column), (1, 23));
        let e = arrays("const BYTE a[] = { 1, 2").unwrap_err();
        assert_eq!((e.line, e.column), (1, 18));
    }
}
