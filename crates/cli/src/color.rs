//! Colour: when to use it (`--color auto|always|never`, `NO_COLOR`, a terminal) and
//! what it looks like.
//!
//! Listings (what `disasm` prints), in the spirit of fxc's colour-coded `/Cc` listings:
//! comments (`//` to the end of the line, `#line` directives) green, declarations
//! (`dcl_*`, `def*`, the version line) cyan, every other instruction's mnemonic bold,
//! operands plain. Diagnostics: `error` red, `warning` yellow, a validator's code (V303)
//! bold red, `valid` and `same` green, `refused` and `differs` red.

use std::io::IsTerminal;

/// `--color`.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default, clap::ValueEnum)]
pub enum ColorChoice {
    /// Colour when writing to a terminal and `NO_COLOR` is not set (or empty).
    #[default]
    Auto,
    /// Always colour (also into a file or a pipe, and despite `NO_COLOR`).
    Always,
    /// Never colour.
    Never,
}

impl ColorChoice {
    /// Whether to colour a stream that is (`terminal`) or is not a terminal.
    pub fn enabled(self, terminal: bool) -> bool {
        match self {
            ColorChoice::Always => true,
            ColorChoice::Never => false,
            ColorChoice::Auto => {
                terminal
                    && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
                    && std::env::var_os("TERM").is_none_or(|t| t != "dumb")
            }
        }
    }

    /// Whether to colour what goes to standard error.
    pub fn stderr(self) -> bool {
        // Only asked when there is something to print: no terminal query before then.
        match self {
            ColorChoice::Auto => self.enabled(std::io::stderr().is_terminal()),
            _ => self.enabled(false),
        }
    }
}

/// Ends a style (SGR 0).
pub const RESET: &str = "\x1b[0m";
/// Bold: instruction mnemonics.
pub const BOLD: &str = "\x1b[1m";
/// Red: `refused`, `differs`.
pub const RED: &str = "\x1b[31m";
/// Green: comments, `valid`, `same`.
pub const GREEN: &str = "\x1b[32m";
/// Yellow.
pub const YELLOW: &str = "\x1b[33m";
/// Cyan: declarations and the version line.
pub const CYAN: &str = "\x1b[36m";
/// Bold red: a validator's code (`V303`), the `dxref:` before an error.
pub const BOLD_RED: &str = "\x1b[1;31m";
/// Bold yellow: `warning:`.
pub const BOLD_YELLOW: &str = "\x1b[1;33m";

/// `text` in `style`, or as it is.
pub fn paint(on: bool, style: &str, text: &str) -> String {
    if on {
        format!("{style}{text}{RESET}")
    } else {
        text.to_string()
    }
}

/// True for a listing's version line word: `vs_5_0`, `ps_4_0_level_9_1`, `vs.1.1`,
/// `ps_2_x`.
fn is_version(word: &str) -> bool {
    let b = word.as_bytes();
    b.len() >= 6
        && matches!(&b[..2], b"vs" | b"ps" | b"gs" | b"hs" | b"ds" | b"cs" | b"tx")
        && matches!(b[2], b'_' | b'.')
        && b[3].is_ascii_digit()
}

/// A listing with ANSI colours (see the module's documentation for the scheme).
pub fn listing(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + text.len() / 4);
    for line in text.split_inclusive('\n') {
        let (body, end) = match line.strip_suffix('\n') {
            Some(b) => (b, "\n"),
            None => (line, ""),
        };
        if body.trim_start().starts_with('#') {
            out.push_str(GREEN);
            out.push_str(body);
            out.push_str(RESET);
            out.push_str(end);
            continue;
        }
        let (code, comment) = match body.find("//") {
            Some(i) => body.split_at(i),
            None => (body, ""),
        };
        // The columns of --number-instructions / --byte-offsets (`12`, `0x0000001c:`)
        // come before the mnemonic.
        let mut rest = code;
        let mut lead = 0;
        loop {
            let trimmed = rest.trim_start();
            lead += rest.len() - trimmed.len();
            rest = trimmed;
            let word_len = rest.find(char::is_whitespace).unwrap_or(rest.len());
            let word = &rest[..word_len];
            let is_column = !word.is_empty()
                && (word.bytes().all(|b| b.is_ascii_digit())
                    || (word.starts_with("0x") && word.ends_with(':') && word.len() > 3));
            if !is_column {
                break;
            }
            lead += word_len;
            rest = &rest[word_len..];
        }
        out.push_str(&code[..lead]);
        let word_len = rest.find(|c: char| c.is_whitespace() || c == ',').unwrap_or(rest.len());
        let (word, operands) = rest.split_at(word_len);
        if !word.is_empty() {
            let declaration = word.starts_with("dcl") || word.starts_with("def") || is_version(word);
            out.push_str(if declaration { CYAN } else { BOLD });
            out.push_str(word);
            out.push_str(RESET);
        }
        out.push_str(operands);
        if !comment.is_empty() {
            out.push_str(GREEN);
            out.push_str(comment);
            out.push_str(RESET);
        }
        out.push_str(end);
    }
    out
}

/// A report (`validate`, `check`) with its verdict words and diagnostic codes coloured.
pub fn report(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 64);
    for line in text.split_inclusive('\n') {
        let mut rest = line;
        // `PATH: ` prefixes are left as they are; the verdict word or the code follows.
        let mut done = false;
        for (word, style) in [("valid", GREEN), ("same", GREEN), ("refused", RED), ("differs", RED)] {
            if let Some(i) = find_word(rest, word) {
                out.push_str(&rest[..i]);
                out.push_str(style);
                out.push_str(word);
                out.push_str(RESET);
                rest = &rest[i + word.len()..];
                done = true;
                break;
            }
        }
        if !done {
            if let Some(i) = find_code(rest) {
                out.push_str(&rest[..i]);
                out.push_str(BOLD_RED);
                out.push_str(&rest[i..i + 4]);
                out.push_str(RESET);
                rest = &rest[i + 4..];
            }
        }
        out.push_str(rest);
    }
    out
}

/// Where `word` stands at the start of `line` or after `": "`, followed by the end of
/// the line or `:`.
fn find_word(line: &str, word: &str) -> Option<usize> {
    let at = |i: usize| {
        let after = &line[i + word.len()..];
        (i == 0 || line[..i].ends_with(": ")) && (after.starts_with(':') || after.trim().is_empty())
    };
    if line.starts_with(word) && at(0) {
        return Some(0);
    }
    let mut from = 0;
    while let Some(j) = line[from..].find(": ") {
        let i = from + j + 2;
        if line[i..].starts_with(word) && at(i) {
            return Some(i);
        }
        from = i;
    }
    None
}

/// Where a validator's code (`V303`) stands after `": "`.
fn find_code(line: &str) -> Option<usize> {
    let mut from = 0;
    while let Some(j) = line[from..].find(": V") {
        let i = from + j + 2;
        let code = line.as_bytes().get(i..i + 5)?;
        if code[1..4].iter().all(u8::is_ascii_digit) && code[4] == b' ' {
            return Some(i);
        }
        from = i;
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn listing_colours() {
        let text = "// comment\nvs_5_0\ndcl_input v0.xyzw\nmov o0.xyzw, v0.xyzw  // copy\n   0  0x00000010: ret \n";
        let c = listing(text);
        assert_eq!(
            c,
            format!(
                "{GREEN}// comment{RESET}\n{CYAN}vs_5_0{RESET}\n{CYAN}dcl_input{RESET} v0.xyzw\n{BOLD}mov{RESET} o0.xyzw, v0.xyzw  {GREEN}// copy{RESET}\n   0  0x00000010: {BOLD}ret{RESET} \n"
            )
        );
        // Without the escapes it is the same text.
        let plain = c.replace(GREEN, "").replace(CYAN, "").replace(BOLD, "").replace(RESET, "");
        assert_eq!(plain, text);
    }

    #[test]
    fn report_colours() {
        assert_eq!(report("valid\n"), format!("{GREEN}valid{RESET}\n"));
        assert_eq!(report("a.bin: valid\n"), format!("a.bin: {GREEN}valid{RESET}\n"));
        assert_eq!(
            report("a.bin: V303 instruction 3: x [t]\n"),
            format!("a.bin: {BOLD_RED}V303{RESET} instruction 3: x [t]\n")
        );
        assert_eq!(report("a.bin: differs: SHEX\n"), format!("a.bin: {RED}differs{RESET}: SHEX\n"));
        assert_eq!(report("invalid.bin: 2\n"), "invalid.bin: 2\n");
    }

    #[test]
    fn choice() {
        assert!(ColorChoice::Always.enabled(false));
        assert!(!ColorChoice::Never.enabled(true));
        assert!(!ColorChoice::Auto.enabled(false));
    }
}
