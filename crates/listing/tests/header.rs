//! fxc's listing header, byte for byte, for every non-Level9 DXBC blob of the corpus.
//!
//! The only lines not compared are those the bytes cannot give: the command line that
//! fxc 9.29 prints as a comment (`//   fxc /T ... `, its continuation lines and the two
//! `//` lines after it), removed from the expected text and counted separately.

use std::collections::BTreeMap;

use dxbc::Container;

// The header module is compiled here from its source until `listing` exports it
// (`pub mod header;` in lib.rs); `crate::Style` inside it resolves through this import.
#[path = "../src/header/mod.rs"]
#[allow(dead_code)]
mod header;
use header::{style_for, write_header};
#[allow(unused_imports)]
use listing::Style;

/// The listing's lines before the shader-version line.
fn expected_header(listing: &str) -> String {
    let mut out = String::new();
    for line in listing.split_inclusive('\n') {
        if !line.starts_with("//") {
            break;
        }
        out.push_str(line);
    }
    out
}

/// Removes fxc 9.29's command-line comment; returns the text and the lines removed.
fn without_command_line(text: &str) -> (String, usize) {
    let lines: Vec<&str> = text.split_inclusive('\n').collect();
    let Some(start) = lines.iter().position(|l| l.starts_with("//   fxc ")) else {
        return (text.to_string(), 0);
    };
    let mut end = start + 1;
    while end < lines.len() && lines[end].starts_with("//    ") {
        end += 1;
    }
    let mut blanks = 0;
    while blanks < 2 && end < lines.len() && lines[end] == "//\n" {
        end += 1;
        blanks += 1;
    }
    let mut out: String = lines[..start].concat();
    out.push_str(&lines[end..].concat());
    (out, end - start)
}

fn strip_trailing(s: &str) -> String {
    s.lines().map(|l| format!("{}\n", l.trim_end())).collect()
}

#[test]
fn header_matches_fxc() {
    let Some(entries) = corpus::dxbc_entries("header_matches_fxc") else {
        return;
    };
    let mut per_style: BTreeMap<String, (usize, usize)> = BTreeMap::new();
    let (mut pass, mut total, mut skipped_lines) = (0, 0, 0);
    let mut shown = 0;
    for e in entries.iter().filter(|e| !e.is_level9()) {
        total += 1;
        let bytes = e.bytes();
        let c = Container::parse(&bytes).unwrap();
        let style = style_for(&c);
        let mut got = String::new();
        write_header(&mut got, &c, style).unwrap();
        let (mut want, removed) = without_command_line(&expected_header(&e.listing()));
        skipped_lines += removed;
        if e.trailing_ws == corpus::TrailingWs::Stripped {
            got = strip_trailing(&got);
            want = strip_trailing(&want);
        }
        let slot = per_style.entry(e.creator.clone()).or_default();
        slot.1 += 1;
        if got == want {
            pass += 1;
            slot.0 += 1;
        } else if shown < 12 {
            shown += 1;
            let (g, w): (Vec<&str>, Vec<&str>) = (got.lines().collect(), want.lines().collect());
            let i = (0..g.len().max(w.len()))
                .find(|&i| g.get(i) != w.get(i))
                .unwrap_or(0);
            println!(
                "FAIL {} line {}:\n  got:  {:?}\n  want: {:?}",
                e.id(),
                i + 1,
                g.get(i),
                w.get(i)
            );
        }
    }
    for (style, (p, t)) in &per_style {
        println!("{style}: {p}/{t}");
    }
    println!(
        "header matches: {pass}/{total} (9.29 command-line lines not derivable: {skipped_lines})"
    );
    assert!(total > 0);
    assert!(pass >= 312, "only {pass}/{total} headers match");
}

#[test]
fn level9_header_is_a_prefix_of_the_listing() {
    // The Aon9-derived blocks ("Constant buffer to DX9 shader constant mappings", ...)
    // follow the signatures; everything before them must already match.
    let Some(entries) = corpus::dxbc_entries("level9_header_is_a_prefix_of_the_listing") else {
        return;
    };
    let (mut pass, mut total) = (0, 0);
    for e in entries.iter().filter(|e| e.is_level9()) {
        total += 1;
        let bytes = e.bytes();
        let c = Container::parse(&bytes).unwrap();
        let mut got = String::new();
        write_header(&mut got, &c, style_for(&c)).unwrap();
        let mut listing = e.listing();
        if e.trailing_ws == corpus::TrailingWs::Stripped {
            got = strip_trailing(&got);
            listing = strip_trailing(&listing);
        }
        let rest = listing.get(got.len()..).unwrap_or("");
        let aon9_next = [
            "//\n// Constant buffer to DX9 shader constant mappings:",
            "//\n// Sampler/Resource to DX9 shader sampler mappings:",
            "//\n// Runtime generated constant mappings:",
            "//\n// Level9 shader bytecode:",
        ]
        .iter()
        .any(|t| rest.starts_with(t));
        if listing.starts_with(&got) && aon9_next {
            pass += 1;
        } else if total - pass <= 3 {
            println!("FAIL {}", e.id());
        }
    }
    println!("Level9 header prefixes: {pass}/{total}");
    assert!(total > 0);
    assert_eq!(pass, total);
}

#[test]
fn mutated_blobs_never_panic() {
    // Bit flips and overwritten words in every chunk: the header printer returns an
    // error or some text, never panics.
    let Some(entries) = corpus::dxbc_entries("mutated_blobs_never_panic") else {
        return;
    };
    let mut state: u64 = 0x2545_f491_4f6c_dd1d;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    let (mut printed, mut errors) = (0, 0);
    for e in &entries {
        let bytes = e.bytes();
        for _ in 0..6 {
            let mut m = bytes.clone();
            for _ in 0..1 + next() % 3 {
                let i = (next() % m.len() as u64) as usize & !3;
                if next() % 2 == 0 {
                    m[i] ^= 1 << (next() % 8);
                } else if i + 4 <= m.len() {
                    let w =
                        [0u32, u32::MAX, 0x7fff_ffff, (next() % 512) as u32][(next() % 4) as usize];
                    m[i..i + 4].copy_from_slice(&w.to_le_bytes());
                }
            }
            let Ok(c) = Container::parse(&m) else {
                continue;
            };
            let mut out = String::new();
            match write_header(&mut out, &c, style_for(&c)) {
                Ok(()) => printed += 1,
                Err(_) => errors += 1,
            }
        }
    }
    println!("mutated headers: {printed} printed, {errors} rejected");
    assert!(printed > 0 && errors > 0);
}
