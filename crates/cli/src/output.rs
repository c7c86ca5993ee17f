//! Where output goes: standard output, or a file (`-o FILE`; `-o -` is standard
//! output), or one file per input (`--out-dir`); and messages on standard error.
//!
//! A closed standard output (the reader of a pipe went away: `dxref disasm ... | head
//! -1`) is not an error: writing stops and the command ends quietly ([`Stop::Closed`]).
//! Any other write failure is exit status 3. Messages on standard error never fail the
//! command and never panic, whatever standard error is.

use std::ffi::OsStr;
use std::fs::File;
use std::io::{BufWriter, IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::sync::{Mutex, OnceLock};

use crate::color::{self, ColorChoice};
use crate::Failure;

/// Why writing stopped.
#[derive(Debug)]
pub enum Stop {
    /// Standard output was closed by its reader: stop quietly.
    Closed,
    /// Writing failed (status 3, with the message).
    Failed(Failure),
}

impl From<Stop> for Failure {
    /// A closed standard output ends the command without a message; the status is
    /// the caller's to choose (see [`finish`]).
    fn from(stop: Stop) -> Failure {
        match stop {
            Stop::Closed => Failure::quiet(crate::status::OK),
            Stop::Failed(f) => f,
        }
    }
}

/// The `--color` choice of this process (set once by `main`).
static COLOR: OnceLock<ColorChoice> = OnceLock::new();

/// Sets the process's `--color` choice.
pub fn set_color(choice: ColorChoice) {
    let _ = COLOR.set(choice);
}

/// The process's `--color` choice.
pub fn color_choice() -> ColorChoice {
    COLOR.get().copied().unwrap_or_default()
}

/// Whether messages on standard error are coloured (asked once, when the first is
/// printed).
fn stderr_color() -> bool {
    static ON: OnceLock<bool> = OnceLock::new();
    *ON.get_or_init(|| color_choice().stderr())
}

/// The progress bar on standard error while a batch runs: messages are printed
/// above it.
pub(crate) static PROGRESS: Mutex<Option<indicatif::ProgressBar>> = Mutex::new(None);

/// Runs `f` with the progress bar (if one is shown) out of the way.
pub(crate) fn around_progress<R>(f: impl FnOnce() -> R) -> R {
    let bar = PROGRESS.lock().ok().and_then(|g| g.clone());
    match bar {
        Some(bar) => bar.suspend(f),
        None => f(),
    }
}

/// Writes `line` (without its line break) to standard error; failures are ignored.
pub fn eprint_line(line: &str) {
    around_progress(|| {
        let mut err = std::io::stderr().lock();
        let _ = err.write_all(line.as_bytes()).and_then(|_| err.write_all(b"\n"));
    });
}

/// `dxref: MESSAGE` on standard error.
pub fn error(message: &str) {
    if message.is_empty() {
        return;
    }
    let prefix = color::paint(stderr_color(), color::BOLD_RED, "dxref:");
    eprint_line(&format!("{prefix} {message}"));
}

/// `dxref: warning: MESSAGE` on standard error.
pub fn warning(message: &str) {
    let word = color::paint(stderr_color(), color::BOLD_YELLOW, "warning:");
    eprint_line(&format!("dxref: {word} {message}"));
}

/// Whether compiler-style reports (`asm`) on standard error are coloured.
pub fn stderr_reports_color() -> bool {
    stderr_color()
}

/// An output stream: standard output or a file created when first written (so that a
/// command that fails before writing leaves no file).
pub struct Output {
    target: Target,
    /// Colour what is written (the `--color` choice for this destination).
    color: bool,
}

enum Target {
    Stdout(std::io::Stdout),
    File { path: PathBuf, file: Option<BufWriter<File>> },
}

impl Output {
    /// `-o PATH` (`None` or `-`: standard output).
    pub fn new(path: Option<&OsStr>) -> Output {
        match path {
            Some(p) if p != "-" => Output {
                target: Target::File { path: PathBuf::from(p), file: None },
                color: color_choice().enabled(false),
            },
            _ => Output::stdout(),
        }
    }

    /// Standard output.
    pub fn stdout() -> Output {
        let stdout = std::io::stdout();
        let choice = color_choice();
        let color = match choice {
            ColorChoice::Auto => choice.enabled(stdout.is_terminal()),
            _ => choice.enabled(false),
        };
        Output { target: Target::Stdout(stdout), color }
    }

    /// Whether to colour what is written here.
    pub fn color(&self) -> bool {
        self.color
    }

    /// True when this is standard output.
    pub fn is_stdout(&self) -> bool {
        matches!(self.target, Target::Stdout(_))
    }

    /// True when this is a terminal (binary output is refused there).
    pub fn is_terminal(&self) -> bool {
        match &self.target {
            Target::Stdout(s) => s.is_terminal(),
            Target::File { .. } => false,
        }
    }

    /// The name for messages: `<stdout>` or the file's path.
    pub fn name(&self) -> String {
        match &self.target {
            Target::Stdout(_) => "<stdout>".into(),
            Target::File { path, .. } => path.to_string_lossy().into_owned(),
        }
    }

    /// Writes `bytes`, and flushes standard output (so that what is done is seen, and a
    /// closed pipe is found, input by input).
    pub fn write(&mut self, bytes: &[u8]) -> Result<(), Stop> {
        match &mut self.target {
            Target::Stdout(stdout) => around_progress(|| {
                let mut lock = stdout.lock();
                lock.write_all(bytes).and_then(|_| lock.flush()).map_err(|e| stdout_error(&e))
            }),
            Target::File { path, file } => {
                if file.is_none() {
                    let f = File::create(&*path).map_err(|e| file_error(path, &e))?;
                    *file = Some(BufWriter::with_capacity(1 << 16, f));
                }
                match file {
                    Some(f) => f.write_all(bytes).map_err(|e| file_error(path, &e)),
                    None => Ok(()),
                }
            }
        }
    }

    /// Flushes what is buffered (a file is created now if nothing was written and
    /// `create` is set: `-o FILE` with an empty result still makes the file).
    pub fn finish(&mut self, create: bool) -> Result<(), Stop> {
        if create {
            self.write(b"")?;
        }
        match &mut self.target {
            Target::Stdout(stdout) => around_progress(|| stdout.lock().flush().map_err(|e| stdout_error(&e))),
            Target::File { path, file: Some(f) } => f.flush().map_err(|e| file_error(path, &e)),
            Target::File { file: None, .. } => Ok(()),
        }
    }
}

fn stdout_error(e: &std::io::Error) -> Stop {
    if e.kind() == std::io::ErrorKind::BrokenPipe {
        Stop::Closed
    } else {
        Stop::Failed(Failure::output(format!("<stdout>: {e}")))
    }
}

fn file_error(path: &Path, e: &std::io::Error) -> Stop {
    Stop::Failed(Failure::output(format!("{}: {e}", path.to_string_lossy())))
}

/// Writes a whole file (`--out-dir`), creating its folder.
pub fn write_file(path: &Path, bytes: &[u8]) -> Result<(), Stop> {
    if let Some(parent) = path.parent().filter(|p| !p.as_os_str().is_empty()) {
        std::fs::create_dir_all(parent).map_err(|e| file_error(parent, &e))?;
    }
    std::fs::write(path, bytes).map_err(|e| file_error(path, &e))
}

/// The end of a command that wrote to `out`: `Ok`, or the status so far when standard
/// output was closed, or the write failure.
pub fn finish(result: Result<(), Stop>, status_so_far: u8) -> crate::Outcome {
    match result {
        Ok(()) if status_so_far == crate::status::OK => Ok(()),
        Ok(()) | Err(Stop::Closed) => match status_so_far {
            crate::status::OK => Ok(()),
            s => Err(Failure::quiet(s)),
        },
        Err(Stop::Failed(f)) => Err(f),
    }
}
