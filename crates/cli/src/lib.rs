//! The work behind the `dxref` command, as a library so that the benchmarks time the
//! same code: reading inputs ([`input`], [`walk`]), running a command over many of them
//! in parallel with its output in input order ([`batch`]), writing outputs ([`output`],
//! [`color`]), and each command's formatting (`disasm`, `info`, `check` for
//! `validate`, `roundtrip` for `check`, `asm`, `run` with its bindings in [`bind`] and its
//! picture in [`picture`]). `main.rs` holds the arguments.
//!
//! Exit statuses (the highest one met wins when a batch has several outcomes):
//! [`status::OK`] 0, [`status::REFUSED`] 1 (a shader the runtime refuses, a round trip
//! that differs, a draw that fails), [`status::INPUT`] 2 (an input that cannot be
//! read or decoded, a usage error), [`status::OUTPUT`] 3 (an output that cannot be
//! written). A closed standard output (`dxref disasm ... | head -1`) is not a failure:
//! the command stops quietly with the status of what it did so far.
//!
//! ```
//! use std::ops::ControlFlow;
//!
//! use dxref::{asm, batch, color, input, roundtrip};
//!
//! fn main() -> Result<(), Box<dyn std::error::Error>> {
//!     // `dxref asm`'s assembly of a listing.
//!     let text = "vs_4_0\n\
//!                 dcl_input v0.xyzw\n\
//!                 dcl_output_siv o0.xyzw, position\n\
//!                 mov o0.xyzw, v0.xyzw\n\
//!                 ret\n";
//!     let options = listing::asm::AsmOptions::default();
//!     let assembled = asm::assemble_text(text, &options, None).map_err(|d| format!("{d:?}"))?;
//!     // Without a comment header, each signature is derived, with a warning.
//!     assert_eq!(assembled.warnings.len(), 2);
//!     assert!(assembled.warnings[0].message.contains("no input signature table"));
//!
//!     // What every command reads: a binary file is the blob itself.
//!     let blob = input::blob_of(assembled.bytes.clone(), "vs.cso", None).map_err(|f| f.message)?;
//!     assert_eq!(blob, assembled.bytes);
//!     // `--var` applies to fxc /Fh headers only: a usage error, exit status 2.
//!     let failure = input::blob_of(blob.clone(), "vs.cso", Some("g_vs")).unwrap_err();
//!     assert_eq!(failure.status, dxref::status::INPUT);
//!
//!     // `dxref check`'s comparison: nothing differs between a blob and itself; a
//!     // changed byte is reported.
//!     assert!(roundtrip::compare(&blob, &blob).is_empty());
//!     let mut changed = blob.clone();
//!     *changed.last_mut().ok_or("empty blob")? ^= 1;
//!     assert!(!roundtrip::compare(&blob, &changed).is_empty());
//!
//!     // The batch runner: work on a pool of threads, results in input order.
//!     let mut lengths = Vec::new();
//!     batch::ordered(&[text, "ps_4_0\nret\n"], 2, |t| t.len(), |i, r| {
//!         lengths.push((i, r));
//!         ControlFlow::Continue(())
//!     });
//!     assert_eq!(lengths, [(0, Ok(text.len())), (1, Ok(11))]);
//!
//!     // `disasm`'s colours: mnemonics bold, declarations cyan, comments green.
//!     let painted = color::listing("mov r0.x, r1.x  // copy\n");
//!     assert_eq!(painted, "\x1b[1mmov\x1b[0m r0.x, r1.x  \x1b[32m// copy\x1b[0m\n");
//!     Ok(())
//! }
//! ```

#![warn(missing_docs)]

pub mod asm;
pub mod batch;
pub mod bind;
pub mod check;
pub mod color;
pub mod disasm;
pub mod dispatch;
pub mod info;
pub mod input;
pub mod output;
pub mod picture;
pub mod roundtrip;
pub mod run;
pub mod translate;
pub mod walk;

/// The exit statuses.
pub mod status {
    /// Success.
    pub const OK: u8 = 0;
    /// The shader is refused (validation, the device, a failing draw) or differs (a
    /// round trip).
    pub const REFUSED: u8 = 1;
    /// An input cannot be read or decoded, or the command line is wrong.
    pub const INPUT: u8 = 2;
    /// An output cannot be written.
    pub const OUTPUT: u8 = 3;
}

/// A failure, with the exit status it maps to.
#[derive(Debug, Clone)]
pub struct Failure {
    /// The exit status, one of [`status`]'s.
    pub status: u8,
    /// What to print on standard error (empty: nothing more to say).
    pub message: String,
}

impl Failure {
    /// An input that cannot be read or decoded, or a usage error (status 2).
    pub fn input(message: String) -> Failure {
        Failure { status: status::INPUT, message }
    }
    /// An output that cannot be written (status 3).
    pub fn output(message: String) -> Failure {
        Failure { status: status::OUTPUT, message }
    }
    /// A shader refused, a round trip that differs (status 1).
    pub fn refused(message: String) -> Failure {
        Failure { status: status::REFUSED, message }
    }
    /// Ends with `status` and no message (what to say was said already).
    pub fn quiet(status: u8) -> Failure {
        Failure { status, message: String::new() }
    }
}

/// What the command's process ends with: `Ok` or a failure; a closed standard output
/// ends the command early and quietly.
pub type Outcome = Result<(), Failure>;

/// The file name as messages show it: `<stdin>` for `-`, else the name as given.
pub fn display_name(file: &str) -> &str {
    if file == "-" {
        "<stdin>"
    } else {
        file
    }
}
