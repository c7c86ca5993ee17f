//! Control-flow blocks in a Shader Model 4/5 listing: one `else` per `if` at most
//! (Microsoft's `else (sm4 - asm)` page: an `else` splits one `if` block in two; a
//! second has no branch left to start), closers matching openers, as the validator and
//! the interpreter require too (all three walk `tpf::blocks`). Instructions a token
//! stream carries anywhere (`break`, `continue`, `case`, `default`, `label`) are
//! assembled where they stand, for the validator to refuse.

use tpf::parse::parse_program;

fn errors(text: &str) -> Vec<String> {
    match parse_program(text) {
        Ok(_) => Vec::new(),
        Err(e) => e.iter().map(ToString::to_string).collect(),
    }
}

const IF: &str = "ps_5_0\ndcl_input_ps constant v0.x\ndcl_output o0.x\n";

#[test]
fn a_second_else_in_one_if_is_refused_at_its_line() {
    let text =
        format!("{IF}if_nz v0.x\nmov o0.x, l(1.0)\nelse\nmov o0.x, l(2.0)\nelse\nmov o0.x, l(3.0)\nendif\nret \n");
    let e = errors(&text);
    assert_eq!(e.len(), 1, "{e:?}");
    assert!(e[0].starts_with("8:1: error: a second `else` in one `if`"), "{e:?}");
    assert!(e[0].contains("line 6"), "names the first else: {e:?}");
}

#[test]
fn one_else_per_if_at_every_nesting_level_is_accepted() {
    let text = format!(
        "{IF}if_nz v0.x\nif_z v0.x\nmov o0.x, l(1.0)\nelse\nmov o0.x, l(2.0)\nendif\nelse\nif_nz v0.x\nelse\nendif\nendif\nret \n"
    );
    assert_eq!(errors(&text), Vec::<String>::new());
    // The inner if's else does not count for the outer one, nor the reverse.
    let text = format!("{IF}if_nz v0.x\nelse\nif_z v0.x\nelse\nendif\nendif\nret \n");
    assert_eq!(errors(&text), Vec::<String>::new());
}

#[test]
fn else_of_a_closed_if_or_inside_a_loop_is_refused() {
    let e = errors(&format!("{IF}if_nz v0.x\nelse\nendif\nelse\nret \n"));
    assert_eq!(e.len(), 1, "{e:?}");
    assert!(e[0].contains("`else` without an open `if`"), "{e:?}");
    let e = errors(&format!("{IF}if_nz v0.x\nloop\nelse\nendloop\nendif\nret \n"));
    assert!(e.iter().any(|m| m.contains("`else` without an open `if`")), "{e:?}");
}

#[test]
fn break_continue_case_default_and_labels_anywhere_are_assembled_as_written() {
    // A token stream carries them wherever they stand and Microsoft's disassembler
    // prints them there; the validator refuses them (the same block structure).
    for body in [
        "if_nz v0.x\nbreak\nendif\n",
        "breakc_nz v0.x\n",
        "switch v0.x\ncontinue\nendswitch\n",
        "loop\ncase l(0)\nendloop\n",
        "switch v0.x\ndefault\nbreak\ndefault\nbreak\nendswitch\n",
        "if_nz v0.x\nlabel l0\nendif\n",
    ] {
        assert_eq!(errors(&format!("{IF}{body}ret \n")), Vec::<String>::new(), "{body}");
    }
}
