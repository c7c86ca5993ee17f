//! Shader Model 1-3 token streams: decode -> encode gives the bytes back; decode ->
//! print -> parse -> print is a text fixpoint, and what parses encodes.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(program) = d3dbc::decode(data) else { return };
    let bytes = d3dbc::encode(&program).expect("a decoded program encodes");
    assert_eq!(bytes, data, "a decoded program re-encodes to its bytes");
    let _ = d3dbc::print::disassemble(data);
    let text = d3dbc::print::print_program(&program);
    let Ok(parsed) = d3dbc::parse::parse_program(&text) else { return };
    let again = d3dbc::print::print_program(&parsed.program);
    assert_eq!(text, again, "print(parse(print(p))) == print(p)");
    d3dbc::encode(&parsed.program).expect("a parsed program encodes");
});
