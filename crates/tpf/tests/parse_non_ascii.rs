//! Non-ASCII characters next to the points where the Shader Model 4/5 assembler splits
//! its text (after a mnemonic, inside a mask, after `[`, `(`, `{`, in a comment): each
//! is a positioned error or the correct parse, never a panic on a char boundary.

use tpf::parse::parse_program;

const HEAD: &str = "ps_5_0\ndcl_input_ps constant v0.x\ndcl_output o0.x\n";

fn errors(text: &str) -> Vec<String> {
    match parse_program(text) {
        Ok(_) => Vec::new(),
        Err(e) => e.iter().map(ToString::to_string).collect(),
    }
}

#[test]
fn a_multi_byte_char_in_a_comment_parses() {
    let text = format!("{HEAD}mov o0.x, v0.x // é ü 𝄞\nret // ☃\n");
    assert_eq!(errors(&text), Vec::<String>::new());
}

#[test]
fn a_multi_byte_char_next_to_a_split_point_is_a_positioned_error() {
    for body in [
        "mové o0.x, v0.x",
        "mov_saté o0.x, v0.x",
        "mov o0.xé, v0.x",
        "mov o0.é, v0.x",
        "mov oé0.x, v0.x",
        "mov o0.x, v0.x é",
        "mov o0.x, v0[é].x",
        "mov o0.x, v0[0é].x",
        "mov o0.x, l(1.0é)",
        "mov o0.x, l(é",
        "mov(é o0.x, v0.x",
        "mov o0.x, v0.x {é}",
        "mov o0.x, v0.x {é",
        "sample_indexable(texture2d)(floaté,float,float,float) o0.x, v0.x, t0.xyzw, s0",
        "dcl_immediateConstantBuffer { { 1.0é, 2, 3, 4} }",
        "dcl_immediateConstantBuffer é{ { 1, 2, 3, 4} }é",
        "dcl_resource_texture2d (é) t0",
    ] {
        let text = format!("{HEAD}{body}\nret \n");
        let e = errors(&text);
        assert!(!e.is_empty(), "{body}: accepted");
        // Every error has a line and a column: `L:C: error: ...`.
        for d in &e {
            let mut parts = d.splitn(3, ':');
            let line = parts.next().and_then(|l| l.parse::<usize>().ok());
            let col = parts.next().and_then(|c| c.parse::<usize>().ok());
            assert!(line.is_some() && col.is_some(), "{body}: {d}");
        }
    }
}

#[test]
fn the_column_after_a_multi_byte_char_counts_characters() {
    let text = format!("{HEAD}mov o0.x, l(1.0) // é\nmov é\nret \n");
    let e = errors(&text);
    assert!(e.iter().any(|d| d.starts_with("5:")), "{e:?}");
}
