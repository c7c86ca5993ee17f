//! Token streams the `tpf_roundtrip` fuzz target found (fuzz/fuzz_targets/tpf_roundtrip.rs):
//! operands whose component count or selection mode is not the one fxc's text implies
//! (a one-component `r1`, a source with a write mask, a destination with a swizzle).
//! An exact listing notes their encoding (`r1 {1 component}`), so that printing,
//! assembling and printing again gives the same text, and what it assembles encodes.
//! Each file is the fuzz input: one option byte (bit 0: hex literals), then the stream.
use tpf::print::{print_program_with, Format};
use tpf::style::Style;

#[test]
fn every_found_stream_prints_to_a_fixpoint() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fuzz_found");
    let mut files: Vec<_> = std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().path()).collect();
    files.sort();
    assert_eq!(files.len(), 156, "the saved fuzz inputs");
    let mut noted = 0;
    for path in files {
        let all = std::fs::read(&path).unwrap();
        let (flags, data) = all.split_first().map_or((0, &all[..]), |(f, r)| (*f, r));
        let program = tpf::decode(data).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let format = Format { exact_floats: true, hex_literals: flags & 1 != 0, numbering: false, offsets: false };
        let mut text = String::new();
        print_program_with(&program, Style::default(), format, &mut text);
        noted += usize::from(
            text.contains(" {")
                && (text.contains("component")
                    || text.contains("{mask}")
                    || text.contains("{swizzle}")
                    || text.contains("{select1}")
                    || text.contains("{mode3}")),
        );
        let parsed = tpf::parse::parse_program(&text).unwrap_or_else(|e| panic!("{}: {e:?}\n{text}", path.display()));
        let mut again = String::new();
        print_program_with(&parsed.program, Style::default(), format, &mut again);
        assert_eq!(text, again, "{}", path.display());
        tpf::encode(&parsed.program).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    }
    assert!(noted > 0, "some found stream needs an encoding note");
}

#[test]
fn notes_read_back_to_their_encodings() {
    // A bare source is a 4-component identity swizzle; the notes say otherwise.
    for (line, want) in [
        ("mov r0.x, r1 {1 component}\n", "r1 {1 component}"),
        ("add r0.xy, r1.xy {mask}, r2.xyzw\n", "r1.xy {mask}"),
        ("mov r0.xxyz {swizzle}, r1.xyzw\n", "r0.xxyz {swizzle}"),
        ("mov r0.x, r1 {0 components}\n", "r1 {0 components}"),
    ] {
        let text = format!("vs_5_0\n{line}ret \n");
        let parsed = tpf::parse::parse_program(&text).unwrap_or_else(|e| panic!("{line}: {e:?}"));
        let format = Format { exact_floats: true, ..Format::default() };
        let mut out = String::new();
        print_program_with(&parsed.program, Style::default(), format, &mut out);
        assert!(out.contains(want), "{line}: {out}");
        // Microsoft's own text shows none of it.
        let mut plain = String::new();
        print_program_with(&parsed.program, Style::default(), Format::default(), &mut plain);
        assert!(!plain.contains(" {"), "{plain}");
    }
    // Letters that a note does not fit are an error, not a guess.
    assert!(tpf::parse::parse_program("vs_5_0\nmov r0.x, r1.xy {select1}\nret \n").is_err());
}
