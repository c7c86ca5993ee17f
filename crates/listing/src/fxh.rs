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
    pub name: String,
    pub bytes: Vec<u8>,
    /// 1-based line of the array's name.
    pub line: usize,
}

/// A header could not be read.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("{line}:{column}: {message}")]
pub struct FxhError {
    pub line: usize,
    pub column: usize,
    pub message: String,
}

/// True when `bytes` look like C source rather than a binary blob: text (no NUL
/// bytes, no control characters but white space) in their first 4 KiB.
pub fn looks_like_header(bytes: &[u8]) -> bool {
    let head = &bytes[..bytes.len().min(4096)];
    !head.is_empty() && head.iter().all(|&b| b >= 0x20 || matches!(b, b'\n' | b'\r' | b'\t' | 0x0c))
}

/// Every byte array in `text`, in order.
pub fn arrays(text: &str) -> Result<Vec<Array>, FxhError> {
    let src = strip_comments(text);
    let mut out = Vec::new();
    let mut rest = 0usize;
    let (mut line, mut counted) = (1usize, 0usize);
    while let Some(found) = src[rest..].find("[]") {
        let at = rest + found;
        rest = at + 2;
        // The identifier right before `[]`: letters (beyond ASCII too, as the Microsoft
        // C/C++ compiler reads names), digits and `_`. It starts after the last other
        // character, whatever that character's length in bytes.
        let before = src[..at].trim_end();
        let name_start = before
            .char_indices()
            .rev()
            .find(|&(_, c)| !(c.is_alphanumeric() || c == '_'))
            .map_or(0, |(i, c)| i + c.len_utf8());
        let name = &before[name_start..];
        if name.is_empty() {
            continue;
        }
        // `= {` after it.
        let after = src[rest..].trim_start();
        let Some(after_eq) = after.strip_prefix('=') else {
            continue;
        };
        let open = rest + (src[rest..].len() - after.len()) + 1 + (after_eq.len() - after_eq.trim_start().len());
        if !src[open..].starts_with('{') {
            continue;
        }
        let close = src[open..]
            .find('}')
            .map(|i| open + i)
            .ok_or_else(|| err(&src, open, "this array's `{` is never closed"))?;
        let mut bytes = Vec::new();
        let mut pos = open + 1;
        for item in src[open + 1..close].split(',') {
            let lead = item.len() - item.trim_start().len();
            let literal = item.trim();
            if !literal.is_empty() {
                let value = parse_int(literal)
                    .ok_or_else(|| err(&src, pos + lead, &format!("`{literal}` is not an integer literal")))?;
                let byte = u8::try_from(value)
                    .map_err(|_| err(&src, pos + lead, &format!("`{literal}` does not fit in a byte")))?;
                bytes.push(byte);
            }
            pos += item.len() + 1;
        }
        // Lines counted incrementally from the previous array: linear in the file.
        line += src[counted..at].matches('\n').count();
        counted = at;
        out.push(Array { name: name.to_string(), bytes, line });
        rest = close + 1;
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
    let line = src[..at].matches('\n').count() + 1;
    let column = at - src[..at].rfind('\n').map_or(0, |i| i + 1) + 1;
    FxhError { line, column, message: message.to_string() }
}

fn parse_int(s: &str) -> Option<u64> {
    let s = s.trim_end_matches(['u', 'U', 'l', 'L']);
    if let Some(hex) = s.strip_prefix("0x").or_else(|| s.strip_prefix("0X")) {
        u64::from_str_radix(hex, 16).ok()
    } else if s.len() > 1 && s.starts_with('0') {
        u64::from_str_radix(&s[1..], 8).ok()
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
        for c in &mut out[from..to] {
            if *c != b'\n' {
                *c = b' ';
            }
        }
    };
    while i < b.len() {
        if b[i..].starts_with(b"//") {
            let end = b[i..].iter().position(|&c| c == b'\n').map_or(b.len(), |p| i + p);
            blank(&mut out, i, end);
            i = end;
        } else if b[i..].starts_with(b"/*") {
            let end = text[i + 2..].find("*/").map_or(b.len(), |p| i + 2 + p + 2);
            blank(&mut out, i, end);
            i = end;
        } else if (i == 0 || b[i - 1] == b'\n') && b[i..].starts_with(b"#if 0") {
            let end = text[i..].find("#endif").map_or(b.len(), |p| i + p + 6);
            blank(&mut out, i, end);
            i = end;
        } else {
            i += 1;
        }
    }
    String::from_utf8(out).unwrap_or_default()
}

#[cfg(test)]
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
