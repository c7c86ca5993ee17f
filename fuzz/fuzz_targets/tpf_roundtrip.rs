//! Shader Model 4/5 token streams: the streaming decoder and the whole-program decoder
//! agree (the same instructions, the same error); decode -> encode gives the bytes
//! back; decode -> print -> parse -> print is a text fixpoint, and what parses encodes.
#![no_main]
use libfuzzer_sys::fuzz_target;
use tpf::print::{print_program_with, Format};
use tpf::style::Style;

fuzz_target!(|data: &[u8]| {
    let (flags, data) = dxref_fuzz::split_flags(data);
    let decoded = tpf::decode(data);
    match tpf::Decoder::new(data) {
        Ok(mut decoder) => {
            let (mut i, mut error) = (0, None);
            while let Some(next) = decoder.next_instruction() {
                match (next, &decoded) {
                    (Ok((_, ins)), Ok(program)) => assert_eq!(program.get(i), Some(ins), "instruction {i} differs"),
                    (Ok(_), Err(_)) => {}
                    (Err(e), _) => error = Some(e),
                }
                i += 1;
            }
            match &decoded {
                Ok(program) => assert_eq!((i, error), (program.len(), None), "the instruction counts differ"),
                Err(e) => assert_eq!(error.as_ref(), Some(e), "the errors differ"),
            }
        }
        Err(e) => assert_eq!(decoded.as_ref().err(), Some(&e), "the header errors differ"),
    }
    let Ok(program) = decoded else { return };
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
