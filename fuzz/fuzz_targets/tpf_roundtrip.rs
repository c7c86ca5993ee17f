//! Shader Model 4/5 token streams: decode -> encode gives the bytes back; decode ->
//! print -> parse -> print is a text fixpoint, and what parses encodes.
#![no_main]
use libfuzzer_sys::fuzz_target;
use tpf::print::{print_program_with, Format};
use tpf::style::Style;

fuzz_target!(|data: &[u8]| {
    let (flags, data) = dxref_fuzz::split_flags(data);
    let Ok(program) = tpf::decode(data) else { return };
    let bytes = tpf::encode(&program).expect("a decoded program encodes");
    assert_eq!(bytes, data[..bytes.len()], "a decoded program re-encodes to its bytes");
    // Exact floats: the text carries every bit the program holds.
    let format = Format { exact_floats: true, hex_literals: flags & 1 != 0, numbering: false, offsets: false };
    let mut text = String::new();
    print_program_with(&program, Style::default(), format, &mut text);
    let Ok(parsed) = tpf::parse::parse_program(&text) else { return };
    let mut again = String::new();
    print_program_with(&parsed.program, Style::default(), format, &mut again);
    assert_eq!(text, again, "print(parse(print(p))) == print(p)");
    tpf::encode(&parsed.program).expect("a parsed program encodes");
});
