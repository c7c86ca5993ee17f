//! The program part of every corpus listing, printed by `tpf::print`, equals the
//! program part of Microsoft's listing (from the version line to the line before the
//! closing `// Approximately ...` line). The comment header is tested in `listing`.

mod common;
use common::{creator, program_text, shader_chunk};

use tpf::print::print_program;
use tpf::Style;

#[test]
fn corpus_program_text_matches_fxc() {
    let Some(entries) = corpus::dxbc_entries("corpus_program_text_matches_fxc") else {
        return;
    };
    let (mut ok, mut total) = (0, 0);
    let mut failures = Vec::new();
    for e in &entries {
        let blob = e.bytes();
        let code = shader_chunk(&blob).unwrap();
        let program = tpf::decode(code).unwrap();
        let style = Style::for_creator(creator(&blob).as_deref());
        let mut text = String::new();
        print_program(&program, style, &mut text);
        let mut expected = program_text(&e.listing(), &e.profile);
        if e.trailing_ws == corpus::TrailingWs::Stripped {
            text = text.lines().map(|l| l.trim_end()).collect::<Vec<_>>().join("\n") + "\n";
            expected = expected.lines().map(|l| l.trim_end()).collect::<Vec<_>>().join("\n") + "\n";
        }
        total += 1;
        if text == expected {
            ok += 1;
        } else {
            let (line, (got, want)) = text
                .lines()
                .zip(expected.lines())
                .enumerate()
                .find(|(_, (a, b))| a != b)
                .unwrap_or((text.lines().count().min(expected.lines().count()), ("<end>", "<end>")));
            failures.push(format!(
                "{} [{:?}] line {}:\n    got:  {got:?}\n    want: {want:?}",
                e.id(),
                style.version,
                line + 1
            ));
        }
    }
    println!("program text: {ok}/{total} match fxc");
    for f in failures.iter().take(40) {
        println!("{f}");
    }
    assert!(total > 0, "no program listings were read");
    assert_eq!(ok, total, "{} listings differ", total - ok);
}
