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

pub mod asm;
pub mod batch;
pub mod bind;
pub mod check;
pub mod color;
pub mod disasm;
pub mod info;
pub mod input;
pub mod output;
pub mod picture;
pub mod roundtrip;
pub mod run;
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
    pub status: u8,
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
