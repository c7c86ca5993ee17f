//! `dxref completions SHELL` and `dxref man [COMMAND]`: generated from the same argument
//! definitions as the parser (clap_complete, clap_mangen), so that every command and
//! option is in them.

mod common;
use common::*;

const COMMANDS: [&str; 7] = ["disasm", "asm", "validate", "check", "run", "info", "translate"];

#[test]
fn completion_scripts_name_every_command() {
    for (shell, marker) in [("bash", "_dxref()"), ("zsh", "#compdef dxref"), ("fish", "complete -c dxref")] {
        let out = dxref(&["completions", shell]);
        assert_eq!(out.status.code(), Some(0), "{shell}: {}", String::from_utf8_lossy(&out.stderr));
        let script = String::from_utf8(out.stdout).expect("UTF-8 script");
        assert!(script.contains(marker), "{shell} script lacks {marker:?}");
        for c in COMMANDS {
            assert!(script.contains(c), "{shell} script lacks the command {c}");
        }
        assert!(script.contains("out-dir"), "{shell} script lacks disasm's --out-dir");
    }
    let out = dxref(&["completions", "tcsh"]);
    assert_eq!(out.status.code(), Some(2), "an unknown shell is a usage error");
}

#[test]
fn manual_pages_of_the_tool_and_of_each_command() {
    let out = dxref(&["man"]);
    assert_eq!(out.status.code(), Some(0));
    let page = String::from_utf8(out.stdout).unwrap();
    assert!(page.contains(".TH dxref 1"), "{}", &page[..page.len().min(200)]);
    for c in COMMANDS {
        assert!(page.contains(c), "the tool's page lacks the command {c}");
    }
    let out = dxref(&["man", "disasm"]);
    assert_eq!(out.status.code(), Some(0));
    let page = String::from_utf8(out.stdout).unwrap();
    assert!(page.contains(".TH dxref-disasm 1"), "{}", &page[..page.len().min(200)]);
    assert!(page.contains("out\\-dir"), "disasm's page lacks --out-dir");
    let out = dxref(&["man", "nonsense"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("no command `nonsense`"));
}
