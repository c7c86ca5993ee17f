//! Helpers shared by the corpus tests of this crate.

/// Removes fxc 9.29's command-line comment from a listing (or its header): the line
/// `//   fxc ...`, its continuation lines (`//    ...`) and the two `//` lines after
/// it. The blob does not store the command line, so no listing printed from the blob
/// has these lines. Returns the text and the number of lines removed (0 when the text
/// has no command line).
pub fn without_command_line(text: &str) -> (String, usize) {
    let lines: Vec<&str> = text.split_inclusive('\n').collect();
    let Some(start) = lines.iter().position(|l| l.starts_with("//   fxc ")) else {
        return (text.to_string(), 0);
    };
    let mut end = start + 1;
    while end < lines.len() && lines[end].starts_with("//    ") {
        end += 1;
    }
    let mut blanks = 0;
    while blanks < 2 && end < lines.len() && lines[end] == "//\n" {
        end += 1;
        blanks += 1;
    }
    let mut out: String = lines[..start].concat();
    out.push_str(&lines[end..].concat());
    (out, end - start)
}
