//! Running a command over many inputs: in parallel on a thread pool, with each input's
//! output written in input order as soon as it and every input before it are done,
//! holding at most a bounded number of finished outputs (a dump of 100,000 shaders is
//! never in memory at once), and a progress bar on standard error when it is a
//! terminal and the work takes a while.
//!
//! A command supplies [`Command::process`] (one input to a [`Report`]: its text, its
//! JSON, its messages and status); this module writes the reports in the mode the user
//! chose: text to standard output or `-o FILE` (labelled when there are several),
//! `--json` (one object, or an array of them), `--jsonl` (one line per input: `path`,
//! `ok`, `status`, `diagnostics`, `summary`) or `--out-dir` (one file per input).

use std::collections::VecDeque;
use std::ffi::OsString;
use std::ops::ControlFlow;
use std::path::PathBuf;
use std::sync::mpsc;
use std::time::{Duration, Instant};

use serde_json::{json, Value};

use crate::output::{self, Output, Stop};
use crate::walk::{self, Input};
use crate::{status, Failure, Outcome};

/// How reports are written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// The command's text.
    Text,
    /// `--json`: the command's JSON object (an array of them for several inputs).
    Json,
    /// `--jsonl`: one line per input.
    Jsonl,
}

/// What one input gave.
#[derive(Debug, Default)]
pub struct Report {
    /// 0, or the exit status this input calls for ([`status`]).
    pub status: u8,
    /// The text output (`Mode::Text`); `None` when there is none (an unreadable input).
    pub text: Option<String>,
    /// The JSON output (`--json`), or the summary (`--jsonl`).
    pub json: Option<Value>,
    /// Errors and warnings for standard error (in `--jsonl`: its `diagnostics`).
    pub messages: Vec<Message>,
    /// Further diagnostics for `--jsonl` only (a validator's: already in the text).
    pub diagnostics: Vec<Value>,
}

/// An error or a warning about one input; `text` names the input.
#[derive(Debug, Clone)]
pub struct Message {
    /// A warning (printed as such; does not change the status); else an error.
    pub warning: bool,
    /// The line printed, starting with the input's name.
    pub text: String,
}

impl Report {
    /// An input that failed: its message, its status.
    pub fn failed(f: Failure) -> Report {
        Report { status: f.status, messages: vec![Message { warning: false, text: f.message }], ..Report::default() }
    }

    fn jsonl(&self, name: &str) -> Value {
        let mut diagnostics: Vec<Value> = self
            .messages
            .iter()
            .map(|m| json!({ "severity": if m.warning { "warning" } else { "error" }, "message": m.text }))
            .collect();
        diagnostics.extend(self.diagnostics.iter().cloned());
        json!({
            "path": name,
            "ok": self.status == status::OK,
            "status": self.status,
            "diagnostics": diagnostics,
            "summary": self.json.clone().unwrap_or(Value::Null),
        })
    }
}

/// What the user asked of a batch.
pub struct Plan {
    /// The inputs in command-line order (a directory's files in name order), walk
    /// errors among them as inputs that fail.
    pub inputs: Vec<Input>,
    /// Label each output (several inputs, or a directory among the arguments).
    pub several: bool,
    /// How reports are written.
    pub mode: Mode,
    /// `-o FILE`.
    pub output: Option<OsString>,
    /// `--out-dir DIR`.
    pub out_dir: Option<PathBuf>,
    /// Worker threads; 0: one per core.
    pub jobs: usize,
    /// `--progress` (`Some(true)`: from the start), `--no-progress` (`Some(false)`);
    /// `None`: once the batch has run for half a second. Only ever on a terminal.
    pub progress: Option<bool>,
}

/// The arguments every batch command takes.
pub struct Args {
    /// Files and directories (`-`: standard input); none: standard input.
    pub paths: Vec<OsString>,
    /// `--recursive`: walk directories' subdirectories too.
    pub recursive: bool,
    /// `--ext`: the comma-separated extensions taken from directories (`*` or empty:
    /// every file).
    pub ext: String,
    /// `-o FILE`.
    pub output: Option<OsString>,
    /// `--out-dir DIR`.
    pub out_dir: Option<PathBuf>,
    /// `--jobs`: worker threads; 0: one per core.
    pub jobs: usize,
    /// `--progress` / `--no-progress` (see [`Plan::progress`]).
    pub progress: Option<bool>,
}

impl Plan {
    /// The inputs `args` name, and how to write their reports. No path and a terminal on
    /// standard input is a usage error (rather than waiting for typed bytes).
    pub fn new(args: Args, mode: Mode) -> Result<Plan, Failure> {
        if args.paths.is_empty() {
            use std::io::IsTerminal;
            if std::io::stdin().is_terminal() {
                return Err(Failure::input(
                    "no input: name files or directories, or pipe a shader into standard input (`-` reads a terminal)"
                        .into(),
                ));
            }
        }
        let (inputs, any_dir) = walk::expand(&args.paths, &walk::Walk::new(args.recursive, &args.ext));
        Ok(Plan {
            // Files under --out-dir are one per input: nothing to label.
            several: (inputs.len() > 1 || any_dir) && args.out_dir.is_none(),
            inputs,
            mode,
            output: args.output,
            out_dir: args.out_dir,
            jobs: args.jobs,
            progress: args.progress,
        })
    }
}

/// A command run over each input of a batch.
pub trait Command: Sync {
    /// One input's report; `several` when outputs are labelled.
    fn process(&self, input: &Input, several: bool, mode: Mode) -> Report;
    /// The reports of consecutive inputs, one per input in order: what
    /// [`process`](Command::process) gives for each (the default). A command that does
    /// part of its work faster on many inputs at once (`disasm`: the checksums, in
    /// vector lanes) overrides it.
    fn process_many(&self, inputs: &[&Input], several: bool, mode: Mode) -> Vec<Report> {
        inputs.iter().map(|input| self.process(input, several, mode)).collect()
    }
    /// How many consecutive inputs [`process_many`](Command::process_many) is best
    /// given at once; 1 (the default): it has no use for more.
    fn batch_len(&self) -> usize {
        1
    }
    /// The extension of each file under `--out-dir` in `mode`.
    fn extension(&self, mode: Mode) -> &'static str;
    /// What inputs of status 1 are called in a batch's closing line.
    fn refused_word(&self) -> &'static str {
        "refused"
    }
    /// The text with colours (see [`crate::color`]).
    fn colorize(&self, text: &str) -> String {
        text.to_string()
    }
}

/// Runs `work` on every item, on a pool of `jobs` threads (0: one per core; one item
/// runs on the calling thread, without a pool), and hands each result to `emit` in item
/// order as soon as it and all before it are done.
///
/// Items are handed to the workers in runs of consecutive items (up to 64, fewer when
/// there are few items, so that every thread gets some), which keeps the hand-over
/// cost (a wake-up per run, not per item) small beside work of a few microseconds per
/// item. At most `4 × threads` runs are started and not yet emitted at any time, so
/// memory is bounded whatever the number of items. `emit` returning `Break` stops
/// starting new runs (those under way finish and are dropped). A panic in `work` (a
/// bug) is given to `emit` as `Err` with its message; the batch goes on.
pub fn ordered<T, R>(
    items: &[T],
    jobs: usize,
    work: impl Fn(&T) -> R + Sync,
    emit: impl FnMut(usize, Result<R, String>) -> ControlFlow<()>,
) where
    T: Sync,
    R: Send,
{
    ordered_runs(items, jobs, 1, |run| run.iter().map(&work).collect(), emit);
}

/// [`ordered`] with `work` given a run of consecutive items at once (returning one
/// result per item, in order): runs of at least `batch` items where there are enough
/// items for every thread to have one (at most 64). A panic in `work` runs that run
/// again one item at a time (so the work of the items before the one that panics is
/// done twice), so that the panic is given to `emit` for the item that caused it.
pub fn ordered_runs<T, R>(
    items: &[T],
    jobs: usize,
    batch: usize,
    work: impl Fn(&[T]) -> Vec<R> + Sync,
    mut emit: impl FnMut(usize, Result<R, String>) -> ControlFlow<()>,
) where
    T: Sync,
    R: Send,
{
    let message = |payload: Box<dyn std::any::Any + Send>| {
        payload
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| payload.downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "panic".to_string())
    };
    let catch = |run: &[T]| std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| work(run)));
    // One result per item of the run, whatever `work` did.
    let guarded = |run: &[T]| -> Vec<Result<R, String>> {
        match catch(run) {
            Ok(results) if results.len() == run.len() => results.into_iter().map(Ok).collect(),
            Ok(_) if run.len() > 1 => (0..run.len()).map(|i| one(&catch, &message, &run[i..=i])).collect(),
            Ok(_) => vec![Err("a batch command gave no result for an input".to_string())],
            Err(_) if run.len() > 1 => (0..run.len()).map(|i| one(&catch, &message, &run[i..=i])).collect(),
            Err(payload) => vec![Err(message(payload))],
        }
    };
    let threads_wanted = if items.len() <= 1 { None } else { Some(jobs) };
    let pool = threads_wanted.and_then(|jobs| {
        rayon::ThreadPoolBuilder::new().num_threads(jobs).thread_name(|i| format!("dxref-{i}")).build().ok()
    });
    let Some(pool) = pool else {
        // One item, or no threads to be had: do the work here, in runs of `batch`.
        for (r, run) in items.chunks(batch.clamp(1, 64)).enumerate() {
            for (offset, result) in guarded(run).into_iter().enumerate() {
                if emit(r * batch.clamp(1, 64) + offset, result).is_break() {
                    return;
                }
            }
        }
        return;
    };
    let threads = pool.current_num_threads().max(1);
    let fair = items.len() / threads;
    let run_len = (items.len() / (threads * 16)).max(batch.min(fair)).clamp(1, 64);
    let runs = items.len().div_ceil(run_len);
    let window = threads.saturating_mul(4).max(2);
    type Run<R> = Vec<Result<R, String>>;
    let (tx, rx) = mpsc::channel::<(usize, Run<R>)>();
    pool.in_place_scope(|scope| {
        let guarded = &guarded;
        let mut started = 0;
        let mut next = 0;
        // Finished runs waiting for the ones before them: slot k holds run next + k.
        let mut waiting: VecDeque<Option<Run<R>>> = VecDeque::with_capacity(window);
        let mut stopped = false;
        while next < runs {
            while !stopped && started < runs && started - next < window {
                let tx = tx.clone();
                let first = started * run_len;
                let slice = &items[first..(first + run_len).min(items.len())];
                let index = started;
                scope.spawn(move |_| {
                    let _ = tx.send((index, guarded(slice)));
                });
                started += 1;
            }
            if next >= started {
                break;
            }
            let Ok((index, results)) = rx.recv() else { break };
            let k = index - next;
            while waiting.len() <= k {
                waiting.push_back(None);
            }
            waiting[k] = Some(results);
            while let Some(Some(_)) = waiting.front() {
                let Some(Some(results)) = waiting.pop_front() else { break };
                for (offset, result) in results.into_iter().enumerate() {
                    if !stopped && emit(next * run_len + offset, result).is_break() {
                        stopped = true;
                    }
                }
                next += 1;
            }
            if stopped && next >= started {
                break;
            }
        }
    });
}

/// The result of a run of one item, its panic as a message.
fn one<T, R, E>(
    catch: &impl Fn(&[T]) -> Result<Vec<R>, E>,
    message: &impl Fn(E) -> String,
    item: &[T],
) -> Result<R, String> {
    match catch(item) {
        Ok(results) => {
            results.into_iter().next().ok_or_else(|| "a batch command gave no result for an input".to_string())
        }
        Err(payload) => Err(message(payload)),
    }
}

/// A progress bar on standard error, shown once the batch has run for a while when
/// standard error is a terminal.
struct Progress {
    bar: Option<indicatif::ProgressBar>,
    start: Instant,
    total: u64,
    terminal: bool,
    delay: Duration,
}

impl Progress {
    /// Shown after this long (a batch that finishes sooner shows none).
    const DELAY: Duration = Duration::from_millis(500);

    fn new(total: usize, choice: Option<bool>) -> Progress {
        use std::io::IsTerminal;
        Progress {
            bar: None,
            start: Instant::now(),
            total: total as u64,
            terminal: total > 1 && choice != Some(false) && std::io::stderr().is_terminal(),
            delay: if choice == Some(true) { Duration::ZERO } else { Progress::DELAY },
        }
    }

    fn advance(&mut self, done: usize) {
        if !self.terminal {
            return;
        }
        if self.bar.is_none() && self.start.elapsed() >= self.delay {
            let bar = indicatif::ProgressBar::with_draw_target(
                Some(self.total),
                indicatif::ProgressDrawTarget::stderr_with_hz(10),
            );
            if let Ok(style) =
                indicatif::ProgressStyle::with_template("{bar:40} {pos}/{len} inputs, {per_sec}, {eta} left")
            {
                bar.set_style(style);
            }
            if let Ok(mut slot) = output::PROGRESS.lock() {
                *slot = Some(bar.clone());
            }
            self.bar = Some(bar);
        }
        if let Some(bar) = &self.bar {
            bar.set_position(done as u64);
        }
    }

    fn finish(&mut self) {
        if let Some(bar) = self.bar.take() {
            if let Ok(mut slot) = output::PROGRESS.lock() {
                *slot = None;
            }
            bar.finish_and_clear();
        }
    }
}

/// Tallies for the closing line of a batch.
#[derive(Default)]
struct Tally {
    total: usize,
    refused: usize,
    unreadable: usize,
}

/// One input's report, made ready for writing by the worker that made it: the
/// messages for standard error, and the bytes for the output (a file under --out-dir is
/// written by the worker itself).
struct Rendered {
    status: u8,
    messages: Vec<Message>,
    body: Option<Vec<u8>>,
    /// A failure writing this input's --out-dir file.
    failure: Option<Stop>,
}

/// How reports are turned into bytes.
#[derive(Clone, Copy)]
struct Render {
    mode: Mode,
    color: bool,
}

impl Render {
    fn render(self, command: &impl Command, name: &str, report: Report, out_path: Option<&PathBuf>) -> Rendered {
        let status = report.status;
        if self.mode == Mode::Jsonl {
            let mut line = serde_json::to_string(&report.jsonl(name)).unwrap_or_default();
            line.push('\n');
            return Rendered { status, messages: Vec::new(), body: Some(line.into_bytes()), failure: None };
        }
        let body = match self.mode {
            Mode::Json => report.json.as_ref().map(|v| serde_json::to_string_pretty(v).unwrap_or_default()),
            _ => report.text,
        };
        let messages = report.messages;
        match (body, out_path) {
            (Some(body), Some(path)) => {
                let body = if self.mode == Mode::Json { body + "\n" } else { body };
                let failure = output::write_file(path, body.as_bytes()).err();
                Rendered { status, messages, body: None, failure }
            }
            (Some(body), None) if self.color && self.mode == Mode::Text => {
                Rendered { status, messages, body: Some(command.colorize(&body).into_bytes()), failure: None }
            }
            (body, _) => Rendered { status, messages, body: body.map(String::into_bytes), failure: None },
        }
    }
}

/// Runs `command` over the plan's inputs and writes the reports.
pub fn run(command: &impl Command, plan: Plan) -> Outcome {
    let Plan { inputs, several, mode, output: out_file, out_dir, jobs, progress } = plan;
    let out_paths = match &out_dir {
        Some(dir) => Some(walk::out_paths(&inputs, dir, command.extension(mode))?),
        None => None,
    };
    let mut out = Output::new(out_file.as_deref());
    let render = Render { mode, color: out.color() };
    let mut worst = status::OK;
    let mut failure: Option<Stop> = None;
    let mut progress = Progress::new(inputs.len(), progress);
    let mut tally = Tally::default();
    let json_array = mode == Mode::Json && several && out_paths.is_none();
    if json_array {
        if let Err(stop) = out.write(b"[\n") {
            failure = Some(stop);
        }
    }
    let mut first = true;
    // A run of inputs: those the walk could not read fail alone; the others go to the
    // command together.
    let work = |run: &[(usize, &Input)]| -> Vec<Rendered> {
        let readable: Vec<&Input> = run.iter().filter(|(_, input)| input.error.is_none()).map(|&(_, i)| i).collect();
        let mut reports = command.process_many(&readable, several, mode).into_iter();
        run.iter()
            .map(|&(i, input)| {
                let name = input.name();
                let report = match &input.error {
                    Some(e) => Report::failed(Failure::input(e.clone())),
                    None => reports.next().unwrap_or_else(|| {
                        Report::failed(Failure::input(format!(
                            "{name}: internal error (a bug in dxref, please report it): no report"
                        )))
                    }),
                };
                render.render(command, &name, report, out_paths.as_ref().map(|p| &p[i]))
            })
            .collect()
    };
    let indexed: Vec<(usize, &Input)> = inputs.iter().enumerate().collect();
    if failure.is_none() {
        ordered_runs(&indexed, jobs, command.batch_len(), work, |i, result| {
            let rendered = result.unwrap_or_else(|panic| {
                let message =
                    format!("{}: internal error (a bug in dxref, please report it): {panic}", inputs[i].name());
                render.render(command, &inputs[i].name(), Report::failed(Failure::input(message)), None)
            });
            worst = worst.max(rendered.status);
            tally.total += 1;
            match rendered.status {
                status::OK => {}
                status::REFUSED => tally.refused += 1,
                _ => tally.unreadable += 1,
            }
            for m in &rendered.messages {
                if m.warning {
                    output::warning(&m.text);
                } else {
                    output::error(&m.text);
                }
            }
            let written = match (rendered.failure, rendered.body) {
                (Some(stop), _) => Err(stop),
                (None, Some(body)) if json_array => {
                    // `[` was written; items are separated by commas, `]` closes.
                    let comma = if first { Ok(()) } else { out.write(b",\n") };
                    first = false;
                    comma.and_then(|_| out.write(&body))
                }
                (None, Some(body)) if mode == Mode::Json => out.write(&body).and_then(|_| out.write(b"\n")),
                (None, Some(body)) => out.write(&body),
                (None, None) => Ok(()),
            };
            progress.advance(i + 1);
            match written {
                Ok(()) => ControlFlow::Continue(()),
                Err(stop) => {
                    failure = Some(stop);
                    ControlFlow::Break(())
                }
            }
        });
    }
    progress.finish();
    let mut result = match failure {
        Some(stop) => Err(stop),
        None => Ok(()),
    };
    if result.is_ok() && json_array {
        result = out.write(if first { b"]\n" } else { b"\n]\n" });
    }
    if result.is_ok() {
        result = out.finish(false);
    }
    if let Err(Stop::Failed(f)) = &result {
        output::error(&f.message);
        return Err(Failure::quiet(f.status));
    }
    if result.is_ok() && several && worst != status::OK && mode != Mode::Jsonl {
        let mut parts = Vec::new();
        if tally.unreadable > 0 {
            parts.push(format!("{} could not be read", tally.unreadable));
        }
        if tally.refused > 0 {
            parts.push(format!("{} {}", tally.refused, command.refused_word()));
        }
        output::error(&format!(
            "{} of {} inputs failed: {}",
            tally.unreadable + tally.refused,
            tally.total,
            parts.join(", ")
        ));
    }
    output::finish(result, worst)
}
