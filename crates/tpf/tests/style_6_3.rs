//! Spellings of d3dcompiler_47 6.3.9600 (the oracle's DLL) that differ from the other
//! styles: each is printed in that style only and parsed back from either spelling.

use tpf::print::print_program;
use tpf::Style;

fn print(text: &str, style: Style) -> String {
    let parsed = tpf::parse::parse_program(text).unwrap_or_else(|e| panic!("{text}: {e:?}"));
    let mut out = String::new();
    print_program(&parsed.program, style, &mut out);
    out
}

/// The program `text` printed in the 6.3.9600 style and the fxc 10.1 style, each of
/// which must parse back to the same program.
fn both(text: &str) -> (String, String) {
    let old = print(text, Style::D3DCOMPILER_47_6_3);
    let new = print(text, Style::D3DCOMPILER_47);
    for t in [&old, &new] {
        assert_eq!(print(t, Style::D3DCOMPILER_47), new, "{t}");
    }
    (old, new)
}

#[test]
fn global_flags_none() {
    let (old, new) = both("ps_5_0\ndcl_globalFlagsnone\nret\n");
    assert!(old.contains("\ndcl_globalFlagsnone\n"), "{old}");
    assert!(new.contains("\ndcl_globalFlags \n") || new.contains("\ndcl_globalFlags\n"), "{new}");
}

#[test]
fn label_register_file() {
    let src = "ps_5_0\ncall l0\ncallc_z r2.x, l1\nret\nlabel l0\nret\nlabel l1\nret\n";
    let (old, new) = both(src);
    for l in ["\ncall label0\n", "\ncallc_z r2.x, label1\n", "\nlabel label0\n", "\nlabel label1\n"] {
        assert!(old.contains(l), "{l} in {old}");
    }
    for l in ["\ncall l0\n", "\ncallc_z r2.x, l1\n", "\nlabel l0\n"] {
        assert!(new.contains(l), "{l} in {new}");
    }
}
