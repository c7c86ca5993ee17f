//! The `--so` stream-output text form with non-ASCII characters next to its split
//! points (after a semantic name, inside a component range, after `:`): a typed error
//! or the correct entry, never a panic on a char boundary.

use validate::so::parse_entries;

#[test]
fn multi_byte_chars_next_to_split_points_are_typed_errors_or_parse() {
    for text in [
        "é",
        "0:é",
        "0:POSITIONé",
        "0:POSITION.xé",
        "0:POSITION.é",
        "0:POSITIONé.xyz",
        "é:POSITION.xyz",
        "0é:POSITION.xyz",
        "0:POSITION0é.xy",
        "0:POSITION.xyz;é",
        "0:POSITION.xyz;0:é.x",
        "0:$SKIPé.xy",
        "0:TEXCOORD1.xyz,é",
    ] {
        // None of these is a declaration: each is a typed error, not a panic.
        assert!(parse_entries(text).is_err(), "{text}: accepted");
    }
}

#[test]
fn a_multi_byte_char_inside_a_mask_is_refused() {
    assert!(parse_entries("0:POSITION.xé").is_err());
    assert!(parse_entries("0:POSITION.éx").is_err());
}
