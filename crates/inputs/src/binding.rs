#![deny(clippy::arithmetic_side_effects, clippy::indexing_slicing, clippy::string_slice)]
//! What `dxref run` binds to a shader stage, as a user writes it: the binding arguments
//! (`--cb vs:space1:2=FILE`), the 32-bit words of a constant buffer or buffer view
//! (raw little-endian bytes, or JSON), and samplers by name (`linear-clamp`).
//!
//! # JSON words
//!
//! A JSON file of words is an array of values, arrays nested in it flattened in order
//! (`[[1.0, 0, 0, 0], [0, 1.0, 0, 0]]`: a matrix row by row), each value one 32-bit
//! word:
//!
//! - a number written without a fraction or an exponent (`3`, `-1`) is an integer:
//!   0..4294967295 as that unsigned value, -2147483648..-1 as the two's-complement bits
//!   of that signed value (`-1` is `0xffffffff`); `-0` is 0;
//! - any other number (`1.0`, `0.5`, `1e3`, `-0.0`) is a float: the `f32` nearest to
//!   the decimal text (ties to even), its bits; a value beyond the `f32` range is refused
//!   (write `"inf"`);
//! - a string is a word's bits in hex (`"0x3f800000"`, one to eight hex digits; NaN
//!   payloads included), or `"NaN"` (`0x7fc00000`), `"inf"`, `"-inf"`.
//!
//! So `1` is the integer 1 (the bits of a tiny denormal float, which shaders flush to
//! 0), not 1.0: write `1.0` for a float. Errors name the line and column of the value.

use std::iter::Peekable;
use std::str::CharIndices;

use exec::resources::{AddressMode, ComparisonFunc, Filter, Sampler};
use thiserror::Error;

/// How deeply a JSON file of words may nest arrays.
pub const MAX_JSON_DEPTH: usize = 64;

/// `D3D11_REQ_CONSTANT_BUFFER_ELEMENT_COUNT`: 16-byte vectors a constant buffer may hold.
pub const MAX_CONSTANT_BUFFER_VECTORS: usize = 4096;

/// A shader stage a binding is for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Stage {
    /// The vertex shader (`vs:`).
    Vertex,
    /// The geometry shader (`gs:`).
    Geometry,
    /// The compute shader (`cs:`).
    Compute,
}

impl Stage {
    /// `vs`, `gs`, `cs`.
    pub fn prefix(self) -> &'static str {
        match self {
            Stage::Vertex => "vs",
            Stage::Geometry => "gs",
            Stage::Compute => "cs",
        }
    }
}

/// One binding argument: `[vs:|gs:][spaceN:]SLOT=VALUE`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BindingArg {
    /// `None`: both stages.
    pub stage: Option<Stage>,
    /// The Shader Model 5.1 register space (`space1:`); `None` when not written (space 0).
    pub space: Option<u32>,
    /// The register number.
    pub slot: u32,
    /// What follows `=`: a file (with an optional `:FORMAT`) or a sampler's name.
    pub value: String,
}

/// Why a binding argument cannot be read.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum BindingArgError {
    /// No `=` in the argument.
    #[error("expected [vs:|gs:][spaceN:]SLOT=VALUE, found no `=`")]
    NoEquals,
    /// Nothing after `=`.
    #[error("nothing after `=`")]
    NoValue,
    /// The slot (the text, the register letter it may carry) is not a number that fits
    /// 32 bits, with or without the letter.
    #[error("`{0}` is not a register number (0, 1, ... or {1}0, {1}1, ...)")]
    Slot(String, &'static str),
    /// A prefix before the slot that is not `vs`, `gs` or `space<N>`.
    #[error("`{0}`: expected vs, gs or spaceN before the register number")]
    Prefix(String),
    /// A stage or register space given twice (which of the two).
    #[error("`{0}` is given twice")]
    Twice(String),
}

/// Reads `arg`; `letter` is the register letter the slot may carry (`b` for constant
/// buffers, also written `cb`; `t` for resources; `s` for samplers).
pub fn binding_arg(arg: &str, letter: &'static str) -> Result<BindingArg, BindingArgError> {
    let (left, value) = arg.split_once('=').ok_or(BindingArgError::NoEquals)?;
    if value.is_empty() {
        return Err(BindingArgError::NoValue);
    }
    let mut parts: Vec<&str> = left.split(':').map(str::trim).collect();
    let slot_text = parts.pop().unwrap_or("");
    let digits = slot_text
        .strip_prefix(letter)
        .or_else(|| if letter == "b" { slot_text.strip_prefix("cb") } else { None })
        .unwrap_or(slot_text);
    let slot = digits
        .parse::<u32>()
        .ok()
        .filter(|_| digits.bytes().all(|b| b.is_ascii_digit()))
        .ok_or_else(|| BindingArgError::Slot(slot_text.to_string(), letter))?;
    let (mut stage, mut space) = (None, None);
    for part in parts {
        let lower = part.to_ascii_lowercase();
        let (taken, what) = match lower.as_str() {
            "vs" => (stage.replace(Stage::Vertex).is_some(), "the stage"),
            "gs" => (stage.replace(Stage::Geometry).is_some(), "the stage"),
            "cs" => (stage.replace(Stage::Compute).is_some(), "the stage"),
            other => match other.strip_prefix("space").and_then(|n| n.parse::<u32>().ok()) {
                Some(n) => (space.replace(n).is_some(), "the register space"),
                None => return Err(BindingArgError::Prefix(part.to_string())),
            },
        };
        if taken {
            return Err(BindingArgError::Twice(what.to_string()));
        }
    }
    Ok(BindingArg { stage, space, slot, value: value.to_string() })
}

/// The syntax [`class_instance`] reads, for messages.
pub const CLASS_INSTANCE_SYNTAX: &str = "TABLE or TABLE:CB,OFFSET,TEXTURE,SAMPLER (`ft1`, `1:2,8,3,0`)";

/// A class instance as `--interface` writes it: the function table (`ft1` or `1`),
/// then optionally its `this[]` register after a colon (constant buffer, vector offset
/// in it, first texture, first sampler: four unsigned integers); `this` is 0,0,0,0
/// when not written (functional spec 22.7.20).
pub fn class_instance(value: &str) -> Option<exec::ClassInstance> {
    let (table, this) = match value.split_once(':') {
        Some((table, this)) => {
            let words: Vec<u32> = this.split(',').map(|w| w.trim().parse::<u32>().ok()).collect::<Option<_>>()?;
            (table, <[u32; 4]>::try_from(words).ok()?)
        }
        None => (value, [0; 4]),
    };
    let table = table.trim();
    let table = table.strip_prefix("ft").unwrap_or(table).parse::<u32>().ok()?;
    Some(exec::ClassInstance { table, this })
}

/// Splits a resource argument's value `FILE[:FORMAT]` at its last `:` when what follows
/// is a name `is_format` knows (so `C:\x.png` stays whole).
pub fn file_and_format(value: &str, is_format: impl Fn(&str) -> bool) -> (&str, Option<&str>) {
    match value.rsplit_once(':') {
        Some((file, format)) if !file.is_empty() && is_format(format) => (file, Some(format)),
        _ => (value, None),
    }
}

/// A problem in a file of words, where it is.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum WordsError {
    /// In a JSON file: the 1-based line and column (in characters) of the value.
    #[error("{line}:{column}: {message}")]
    Json {
        /// 1-based line.
        line: usize,
        /// 1-based column, in characters.
        column: usize,
        /// What is wrong (JSON syntax, nesting, a value that is not a word).
        message: String,
    },
    /// A raw file whose length is not a whole number of words.
    #[error("{0} bytes: not a whole number of 32-bit words")]
    Length(usize),
    /// More 16-byte vectors than a constant buffer holds.
    #[error("{0} 16-byte vectors: a constant buffer holds at most {MAX_CONSTANT_BUFFER_VECTORS}")]
    TooLarge(usize),
}

/// The little-endian 32-bit words of raw bytes.
pub fn words_bin(bytes: &[u8]) -> Result<Vec<u32>, WordsError> {
    let (words, rest) = bytes.as_chunks::<4>();
    if !rest.is_empty() {
        return Err(WordsError::Length(bytes.len()));
    }
    Ok(words.iter().map(|w| u32::from_le_bytes(*w)).collect())
}

/// The words as little-endian bytes.
pub fn bytes_of(words: &[u32]) -> Vec<u8> {
    words.iter().flat_map(|w| w.to_le_bytes()).collect()
}

/// The words of a constant buffer as 16-byte vectors, the last one padded with zeros.
pub fn constant_buffer(words: &[u32]) -> Result<Vec<[u32; 4]>, WordsError> {
    let (whole, rest) = words.as_chunks::<4>();
    let mut vectors = whole.to_vec();
    if !rest.is_empty() {
        let mut last = [0u32; 4];
        for (d, s) in last.iter_mut().zip(rest) {
            *d = *s;
        }
        vectors.push(last);
    }
    if vectors.len() > MAX_CONSTANT_BUFFER_VECTORS {
        return Err(WordsError::TooLarge(vectors.len()));
    }
    Ok(vectors)
}

/// The words of a JSON file (see the module documentation for how values map to words).
pub fn words_json(text: &str) -> Result<Vec<u32>, WordsError> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut r = Reader { text, chars: text.char_indices().peekable(), line: 1, column: 1 };
    let mut words = Vec::new();
    r.skip_space();
    match r.peek() {
        Some('[') => r.array(&mut words, 1)?,
        Some(_) => return Err(r.error("expected an array of words (`[1.0, 0, \"0x3f800000\"]`)")),
        None => return Err(r.error("empty file: expected an array of words")),
    }
    r.skip_space();
    if r.peek().is_some() {
        return Err(r.error("text after the array"));
    }
    Ok(words)
}

struct Reader<'t> {
    text: &'t str,
    chars: Peekable<CharIndices<'t>>,
    line: usize,
    column: usize,
}

impl Reader<'_> {
    fn peek(&mut self) -> Option<char> {
        self.chars.peek().map(|&(_, c)| c)
    }

    /// The byte offset of the next character (the text's length at its end).
    fn offset(&mut self) -> usize {
        let end = self.text.len();
        self.chars.peek().map_or(end, |&(i, _)| i)
    }

    fn bump(&mut self) -> Option<char> {
        let (_, c) = self.chars.next()?;
        if c == '\n' {
            self.line = self.line.saturating_add(1);
            self.column = 1;
        } else {
            self.column = self.column.saturating_add(1);
        }
        Some(c)
    }

    fn skip_space(&mut self) {
        while matches!(self.peek(), Some(' ' | '\t' | '\r' | '\n')) {
            self.bump();
        }
    }

    fn error(&self, message: impl Into<String>) -> WordsError {
        self.error_at(self.line, self.column, message)
    }

    fn error_at(&self, line: usize, column: usize, message: impl Into<String>) -> WordsError {
        WordsError::Json { line, column, message: message.into() }
    }

    /// An array at the cursor (on its `[`), its words appended to `out`.
    fn array(&mut self, out: &mut Vec<u32>, depth: usize) -> Result<(), WordsError> {
        if depth > MAX_JSON_DEPTH {
            return Err(self.error(format!("arrays nested more than {MAX_JSON_DEPTH} deep")));
        }
        self.bump();
        self.skip_space();
        if self.peek() == Some(']') {
            self.bump();
            return Ok(());
        }
        loop {
            self.skip_space();
            self.value(out, depth)?;
            self.skip_space();
            match self.bump() {
                Some(',') => continue,
                Some(']') => return Ok(()),
                Some(c) => {
                    return Err(self.error_at(
                        self.line,
                        self.column.saturating_sub(1),
                        format!("expected `,` or `]`, found `{c}`"),
                    ))
                }
                None => return Err(self.error("the array is not closed (expected `]`)")),
            }
        }
    }

    fn value(&mut self, out: &mut Vec<u32>, depth: usize) -> Result<(), WordsError> {
        let (line, column) = (self.line, self.column);
        match self.peek() {
            Some('[') => self.array(out, depth.saturating_add(1)),
            Some('"') => {
                self.bump();
                let start = self.offset();
                loop {
                    match self.peek() {
                        Some('"') => break,
                        Some('\\') => return Err(self.error("escapes are not read in a word's string")),
                        Some('\n') | None => {
                            return Err(self.error_at(line, column, "the string is not closed (expected `\"`)"))
                        }
                        Some(_) => {
                            self.bump();
                        }
                    }
                }
                let end = self.offset();
                self.bump();
                let s = self.text.get(start..end).unwrap_or("");
                let word = string_word(s).ok_or_else(|| {
                    self.error_at(
                        line,
                        column,
                        format!("\"{s}\" is neither a hex word (\"0x3f800000\") nor \"NaN\", \"inf\" or \"-inf\""),
                    )
                })?;
                out.push(word);
                Ok(())
            }
            Some('-' | '0'..='9') => {
                let start = self.offset();
                while matches!(self.peek(), Some('-' | '+' | '.' | 'e' | 'E' | '0'..='9')) {
                    self.bump();
                }
                let end = self.offset();
                let token = self.text.get(start..end).unwrap_or("");
                let word = number_word(token).map_err(|m| self.error_at(line, column, m))?;
                out.push(word);
                Ok(())
            }
            Some(']') => Err(self.error("expected a value, found `]` (a trailing comma?)")),
            Some(c) => Err(self.error(format!("expected a number, a string or an array, found `{c}`"))),
            None => Err(self.error("the array is not closed (expected `]`)")),
        }
    }
}

/// `"0x3f800000"` (one to eight hex digits), or `NaN`/`inf`/`-inf`.
pub fn string_word(s: &str) -> Option<u32> {
    let t = s.trim();
    if let Some(hex) = t.strip_prefix("0x").or_else(|| t.strip_prefix("0X")) {
        if (1..=8).contains(&hex.len()) && hex.bytes().all(|b| b.is_ascii_hexdigit()) {
            return u32::from_str_radix(hex, 16).ok();
        }
        return None;
    }
    crate::vertices::special_float(t).map(f32::to_bits)
}

/// A JSON number's word: integers as their u32/i32 bits, other numbers as the nearest
/// f32's bits.
fn number_word(token: &str) -> Result<u32, String> {
    if !is_json_number(token) {
        return Err(format!("`{token}` is not a JSON number"));
    }
    if token.bytes().all(|b| b == b'-' || b.is_ascii_digit()) {
        let n: i64 =
            token.parse().map_err(|_| format!("{token} is out of range: integers are -2147483648..4294967295"))?;
        if let Ok(u) = u32::try_from(n) {
            return Ok(u);
        }
        return i32::try_from(n)
            .map(|i| i as u32)
            .map_err(|_| format!("{token} is out of range: integers are -2147483648..4294967295"));
    }
    let f: f32 = token.parse().map_err(|_| format!("`{token}` is not a number"))?;
    if f.is_infinite() {
        return Err(format!("{token} is beyond the range of a 32-bit float (write \"inf\" for infinity)"));
    }
    Ok(f.to_bits())
}

/// JSON's number grammar: `-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?`.
fn is_json_number(t: &str) -> bool {
    let mut b = t.bytes().peekable();
    let digits = |b: &mut Peekable<std::str::Bytes<'_>>| {
        let mut n = 0usize;
        while b.next_if(u8::is_ascii_digit).is_some() {
            n = n.saturating_add(1);
        }
        n
    };
    b.next_if_eq(&b'-');
    match b.peek() {
        Some(b'0') => {
            b.next();
        }
        Some(b'1'..=b'9') => {
            digits(&mut b);
        }
        _ => return false,
    }
    if b.next_if_eq(&b'.').is_some() && digits(&mut b) == 0 {
        return false;
    }
    if b.next_if(|c| *c == b'e' || *c == b'E').is_some() {
        b.next_if(|c| *c == b'+' || *c == b'-');
        if digits(&mut b) == 0 {
            return false;
        }
    }
    b.next().is_none()
}

/// The sampler names `--sampler` takes: `FILTER-ADDRESS[-COMPARISON]`.
pub const SAMPLER_SYNTAX: &str = "FILTER-ADDRESS[-COMPARISON]: FILTER point or linear (min, mag and mip alike), \
     ADDRESS wrap, mirror, clamp, border or mirror-once (u, v and w alike), COMPARISON never, less, equal, \
     less-equal, greater, not-equal, greater-equal or always; or `default` (linear-clamp)";

/// A sampler by name (see [`SAMPLER_SYNTAX`]): `linear-clamp`, `point-wrap`,
/// `linear-border-less`. Other fields are D3D11's defaults ([`Sampler::default`]:
/// border colour (1, 1, 1, 1), LOD bias 0, LOD range -FLT_MAX..FLT_MAX).
pub fn sampler(name: &str) -> Option<Sampler> {
    let lower = name.trim().to_ascii_lowercase();
    if lower == "default" {
        return Some(Sampler::default());
    }
    let (filter, rest) = lower.split_once('-')?;
    let filter = match filter {
        "point" => Filter::Point,
        "linear" => Filter::Linear,
        _ => return None,
    };
    const ADDRESS: [(&str, AddressMode); 5] = [
        ("mirror-once", AddressMode::MirrorOnce),
        ("wrap", AddressMode::Wrap),
        ("mirror", AddressMode::Mirror),
        ("clamp", AddressMode::Clamp),
        ("border", AddressMode::Border),
    ];
    let (address, rest) = ADDRESS.iter().find_map(|(n, a)| rest.strip_prefix(n).map(|r| (*a, r)))?;
    let comparison = match rest {
        "" => None,
        r => Some(match r.strip_prefix('-')? {
            "never" => ComparisonFunc::Never,
            "less" => ComparisonFunc::Less,
            "equal" => ComparisonFunc::Equal,
            "less-equal" => ComparisonFunc::LessEqual,
            "greater" => ComparisonFunc::Greater,
            "not-equal" => ComparisonFunc::NotEqual,
            "greater-equal" => ComparisonFunc::GreaterEqual,
            "always" => ComparisonFunc::Always,
            _ => return None,
        }),
    };
    Some(Sampler { min: filter, mag: filter, mip: filter, address: [address; 3], comparison, ..Sampler::default() })
}

#[cfg(test)]
#[allow(clippy::indexing_slicing, clippy::arithmetic_side_effects, clippy::string_slice)]
mod tests {
    use super::*;

    fn err(text: &str) -> (usize, usize, String) {
        match words_json(text) {
            Err(WordsError::Json { line, column, message }) => (line, column, message),
            other => panic!("{text}: {other:?}"),
        }
    }

    #[test]
    fn numbers_map_to_words() {
        let w = words_json("[1, -1, 0, -0, 4294967295, -2147483648, 1.0, -0.0, 0.1, 1e3, 2E-1]").unwrap();
        assert_eq!(
            w,
            vec![
                1,
                0xffff_ffff,
                0,
                0,
                u32::MAX,
                0x8000_0000,
                0x3f80_0000,
                0x8000_0000,
                0.1f32.to_bits(),
                1000f32.to_bits(),
                0.2f32.to_bits()
            ]
        );
        // The nearest f32 to the decimal text, not through f64: 1 + 2^-24 + 10^-54 is
        // nearer 1 + 2^-23 than 1, but read as an f64 first it becomes 1 + 2^-24, a tie
        // that rounds to even (1.0).
        assert_eq!(
            words_json("[1.000000059604644775390625000000000000000000000000000001]").unwrap(),
            vec![0x3f80_0001]
        );
        assert!(err("[\"0\"]").2.contains("hex word"));
        assert_eq!(
            words_json("[\"0x3f800000\", \"0X7FC00001\", \"NaN\", \"-inf\", [[\"0x1\"]], []]").unwrap(),
            vec![0x3f80_0000, 0x7fc0_0001, 0x7fc0_0000, 0xff80_0000, 1]
        );
    }

    #[test]
    fn errors_name_line_and_column() {
        assert_eq!(err("[1,\n 4294967296]").0, 2);
        assert_eq!(err("[1,\n 4294967296]").1, 2);
        assert!(err("[1, -2147483649]").2.contains("out of range"));
        assert_eq!(err("[1, 1e39]").1, 5);
        assert!(err("[1, 1e39]").2.contains("\"inf\""));
        assert_eq!(err("[1, \"0x123456789\"]").1, 5);
        assert_eq!(err("[1, 01]").1, 5);
        assert_eq!(err("[1, 1.]").1, 5);
        assert_eq!(err("[1, .5]").1, 5);
        assert_eq!(err("[1, true]").1, 5);
        assert_eq!(err("[1, 2,]").1, 7);
        assert_eq!(err("[1 2]").1, 4);
        assert_eq!(err("[1, 2").1, 6);
        assert_eq!(err("[\"ab").1, 2);
        assert_eq!(err("{}").1, 1);
        assert_eq!(err("").1, 1);
        assert_eq!(err("[1] 2").1, 5);
        assert_eq!(err("[\"a\\\"b\"]").1, 4);
        assert!(err(&"[".repeat(100)).2.contains("nested"));
        // Multi-byte characters count as one column and never split.
        assert_eq!(err("[\"é\", 1]").1, 2);
        assert_eq!(err("[1, é]").1, 5);
    }

    #[test]
    fn raw_words_and_constant_buffers() {
        assert_eq!(words_bin(&[1, 0, 0, 0, 0, 0, 0x80, 0x3f]).unwrap(), vec![1, 0x3f80_0000]);
        assert_eq!(words_bin(&[1, 2, 3]), Err(WordsError::Length(3)));
        assert_eq!(constant_buffer(&[1, 2, 3, 4, 5]).unwrap(), vec![[1, 2, 3, 4], [5, 0, 0, 0]]);
        assert!(constant_buffer(&[]).unwrap().is_empty());
        assert_eq!(constant_buffer(&vec![0; 4 * 4097]), Err(WordsError::TooLarge(4097)));
        assert_eq!(bytes_of(&[0x3f80_0000]), vec![0, 0, 0x80, 0x3f]);
    }

    #[test]
    fn binding_arguments() {
        let a = binding_arg("vs:space1:b2=C:\\m.json", "b").unwrap();
        assert_eq!(a, BindingArg { stage: Some(Stage::Vertex), space: Some(1), slot: 2, value: "C:\\m.json".into() });
        assert_eq!(binding_arg("cb3=x", "b").unwrap().slot, 3);
        assert_eq!(binding_arg("GS:0=x", "t").unwrap().stage, Some(Stage::Geometry));
        assert_eq!(binding_arg("t7=linear-clamp", "t").unwrap().slot, 7);
        assert_eq!(binding_arg("x", "b"), Err(BindingArgError::NoEquals));
        assert_eq!(binding_arg("0=", "b"), Err(BindingArgError::NoValue));
        assert!(matches!(binding_arg("ps:0=x", "b"), Err(BindingArgError::Prefix(_))));
        assert!(matches!(binding_arg("vs:gs:0=x", "b"), Err(BindingArgError::Twice(_))));
        assert!(matches!(binding_arg("s0=x", "b"), Err(BindingArgError::Slot(..))));
        assert!(matches!(binding_arg("+1=x", "b"), Err(BindingArgError::Slot(..))));
        assert!(matches!(binding_arg("99999999999=x", "b"), Err(BindingArgError::Slot(..))));
        let known = |f: &str| f == "R8G8B8A8_UNORM";
        assert_eq!(file_and_format("C:\\t.png:R8G8B8A8_UNORM", known), ("C:\\t.png", Some("R8G8B8A8_UNORM")));
        assert_eq!(file_and_format("C:\\t.png", known), ("C:\\t.png", None));
    }

    #[test]
    fn samplers_by_name() {
        let s = sampler("point-wrap").unwrap();
        assert_eq!(
            (s.min, s.mag, s.mip, s.address, s.comparison),
            (Filter::Point, Filter::Point, Filter::Point, [AddressMode::Wrap; 3], None)
        );
        assert_eq!(sampler("linear-mirror-once").unwrap().address, [AddressMode::MirrorOnce; 3]);
        assert_eq!(sampler("Linear-Border-less-equal").unwrap().comparison, Some(ComparisonFunc::LessEqual));
        assert_eq!(sampler("default"), Some(Sampler::default()));
        for bad in ["", "point", "linear-", "cubic-wrap", "point-wrap-", "point-wrapx", "point-wrap-lesser"] {
            assert_eq!(sampler(bad), None, "{bad}");
        }
    }
}
