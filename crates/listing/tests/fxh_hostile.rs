//! The `/Fh` header reader on hostile text: names with characters that are not ASCII,
//! replacement characters where the file had bytes that are not UTF-8, and text that
//! ends in the middle of an array. Every case is a typed error or an array, never a
//! panic.

use listing::fxh::{arrays, pick};

#[test]
fn a_name_ending_in_a_non_ascii_character_before_brackets() {
    // `é` is two bytes in UTF-8. Letters beyond ASCII are part of a name (as the
    // Microsoft C/C++ compiler reads identifiers), so `--var gé` picks it.
    let all = arrays("const BYTE gé[] = { 1, 2 };").unwrap();
    assert_eq!(all.len(), 1);
    assert_eq!(all[0].name, "gé");
    assert_eq!(all[0].bytes, [1, 2]);
    assert_eq!(pick("const BYTE gé[] = { 1, 2 };", Some("gé")).unwrap().bytes, [1, 2]);
    // A name made only of them, then an ASCII one.
    let all = arrays("const BYTE é[] = { 1 };\nconst BYTE g_x[] = { 7 };").unwrap();
    assert_eq!(all.iter().map(|a| (a.name.as_str(), a.line)).collect::<Vec<_>>(), [("é", 1), ("g_x", 2)]);
}

#[test]
fn a_replacement_character_or_wide_character_right_before_brackets() {
    // Characters that are not letters end a name: nothing is named here.
    for text in ["\u{fffd}[] = { 1 };", "x\u{fffd}[]", "\u{1f600}[] = {", "a\u{80}[] = {}", "\u{2028}[] = { 3 };"] {
        let got = arrays(text);
        assert!(matches!(&got, Ok(v) if v.is_empty()), "{text:?}: {got:?}");
        assert!(pick(text, None).is_err(), "{text:?}");
    }
}

#[test]
fn non_ascii_inside_and_around_arrays_keeps_positions_true() {
    // A non-ASCII character before a bad literal: the column counts bytes of the line.
    let e = arrays("// é\nconst BYTE g[] = { é };").unwrap_err();
    assert_eq!(e.line, 2);
    assert!(e.message.contains("is not an integer literal"), "{e}");
    let e = arrays("/* ü */ const BYTE g[] = { 1, 2").unwrap_err();
    assert_eq!(e.line, 1);
    assert!(e.message.contains("never closed"), "{e}");
}
