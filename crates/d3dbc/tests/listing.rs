//! `d3dbc::print::listing` reproduces fxc's listing of every raw d3dbc blob in the
//! corpus byte for byte. fxc 9.29 also writes its command line into the header, which
//! the blob does not hold: those listings are compared without it (counted apart).

use d3dbc::print::{listing, print_program, slot_count};

/// Removes fxc 9.29's command-line comment (`//   fxc ...`, its `//    ...`
/// continuation lines and the two `//` lines after it); returns the lines removed.
fn without_command_line(text: &str) -> (String, usize) {
    let lines: Vec<&str> = text.split_inclusive('\n').collect();
    let Some(start) = lines.iter().position(|l| l.starts_with("//   fxc ")) else {
        return (text.to_string(), 0);
    };
    let mut end = start + 1;
    while end < lines.len() && lines[end].starts_with("//    ") {
        end += 1;
    }
    let mut n = 0;
    while n < 2 && end < lines.len() && lines[end] == "//\n" {
        end += 1;
        n += 1;
    }
    (lines[..start].concat() + &lines[end..].concat(), end - start)
}

fn first_difference(got: &str, want: &str) -> String {
    let (g, w): (Vec<&str>, Vec<&str>) = (got.lines().collect(), want.lines().collect());
    let i = (0..g.len().max(w.len())).find(|&i| g.get(i) != w.get(i)).unwrap_or(0);
    format!("line {}:\n    got:  {:?}\n    want: {:?}", i + 1, g.get(i), w.get(i))
}

#[test]
fn raw_listings_match_fxc() {
    let Some(entries) = corpus::entries("raw_listings_match_fxc") else { return };
    let raw: Vec<_> = entries.iter().filter(|e| e.container == corpus::Container::D3dbc).collect();
    let (mut exact, mut but_command_line) = (0, 0);
    let mut failures = Vec::new();
    for e in &raw {
        let got = listing(&e.bytes()).unwrap_or_else(|err| panic!("{}: {err}", e.id()));
        let want = e.listing();
        if got == want {
            exact += 1;
        } else if matches!(without_command_line(&want), (w, n) if n > 0 && w == got) {
            but_command_line += 1;
        } else {
            failures.push(format!("{}: {}", e.id(), first_difference(&got, &want)));
        }
    }
    println!(
        "raw d3dbc listings: {exact}/{} exact, {but_command_line} more exact but for fxc 9.29's command line",
        raw.len()
    );
    for f in &failures {
        println!("FAIL {f}");
    }
    assert_eq!(raw.len(), 21, "the corpus has 21 raw d3dbc blobs");
    assert!(failures.is_empty(), "{} listings differ", failures.len());
}

/// The program part alone (version line to last instruction) and the slot line agree
/// with the listing's, for every raw blob and every Level9 program.
#[test]
fn program_text_and_slots() {
    let Some(entries) = corpus::entries("program_text_and_slots") else { return };
    let mut n = 0;
    for e in entries.iter().filter(|e| e.container == corpus::Container::D3dbc) {
        let bytes = e.bytes();
        let program = d3dbc::decode(&bytes).unwrap();
        let text = print_program(&program);
        let want = e.listing();
        assert!(want.contains(&text), "{}: program text not in the listing", e.id());
        let mut line = String::new();
        slot_count(&program).write_line(&mut line);
        assert!(want.ends_with(&line), "{}: slot line {line:?}", e.id());
        n += 1;
    }
    println!("{n} programs checked");
}
