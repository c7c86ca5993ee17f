//! Batches of jobs for `runner.exe` (tools/oracle/runner.c) under wine.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// The HRESULT recorded for a call during which the runner died (it hung or faulted
/// beyond recovery); the runner itself answers a recovered fault with 0xDEAD0001.
pub const HUNG: u32 = 0xDEAD_0002;

/// One question for Microsoft's DLL.
#[derive(Debug, Clone)]
pub enum Job {
    /// `D3DCompile(source, entry, profile, flags1, flags2)`, then `D3DStripShader(strip)`
    /// when `strip != 0`, then `D3DDisassemble` under each of `dis`.
    Compile { source: String, entry: String, profile: String, flags1: u32, flags2: u32, strip: u32, dis: Vec<u32> },
    /// `D3DDisassemble(blob)` under each of `dis`.
    Disassemble { blob: Vec<u8>, dis: Vec<u32> },
    /// `D3DAssemble(source)` of Shader Model 1–3 assembly text named `main.asm`, with
    /// `flags`; when `includes` is not empty, those files are written beside `main.asm`
    /// and the standard file include handler is passed. Then `D3DDisassemble` of the
    /// token stream under each of `dis`.
    Assemble { source: String, includes: Vec<(String, String)>, flags: u32, dis: Vec<u32> },
}

impl Job {
    fn dis(&self) -> &[u32] {
        match self {
            Job::Compile { dis, .. } | Job::Disassemble { dis, .. } | Job::Assemble { dis, .. } => dis,
        }
    }
}

/// What came back for one job.
#[derive(Debug, Clone, Default)]
pub struct Answer {
    /// The compile HRESULT (0 for a disassembly job).
    pub hr: u32,
    /// The compiler's messages.
    pub errors: String,
    /// The compiled (and stripped) blob; empty when compiling failed.
    pub blob: Vec<u8>,
    /// `(flags, hr, text)` per disassembly flag set; the text without its NUL.
    pub listings: Vec<(u32, u32, String)>,
    /// The runner died on this job (a crash inside the DLL).
    pub crashed: bool,
}

fn put(out: &mut Vec<u8>, b: &[u8]) {
    out.extend_from_slice(&(b.len() as u32).to_le_bytes());
    out.extend_from_slice(b);
}

fn encode(jobs: &[Job], tag: &str) -> Vec<u8> {
    let mut out = Vec::new();
    for (i, j) in jobs.iter().enumerate() {
        match j {
            Job::Compile { source, entry, profile, flags1, flags2, strip, dis } => {
                out.push(b'C');
                put(&mut out, source.as_bytes());
                put(&mut out, entry.as_bytes());
                put(&mut out, profile.as_bytes());
                for v in [*flags1, *flags2, *strip, dis.len() as u32] {
                    out.extend_from_slice(&v.to_le_bytes());
                }
                for f in dis {
                    out.extend_from_slice(&f.to_le_bytes());
                }
            }
            Job::Assemble { source, includes, flags, dis } => {
                // Each job's files in a folder of their own, so that `#include` finds
                // only this job's files.
                let dir = cache().join("tmp").join(format!("asm-{tag}-{i}"));
                let _ = std::fs::remove_dir_all(&dir);
                std::fs::create_dir_all(&dir).expect("creating an include folder");
                let main = dir.join("main.asm");
                std::fs::write(&main, source).expect("writing main.asm");
                for (name, text) in includes {
                    std::fs::write(dir.join(name), text).expect("writing an include file");
                }
                out.push(b'A');
                put(&mut out, source.as_bytes());
                put(&mut out, winpath(&main).as_bytes());
                let include = u32::from(!includes.is_empty());
                for v in [*flags, include, dis.len() as u32] {
                    out.extend_from_slice(&v.to_le_bytes());
                }
                for f in dis {
                    out.extend_from_slice(&f.to_le_bytes());
                }
            }
            Job::Disassemble { blob, dis } => {
                out.push(b'D');
                put(&mut out, blob);
                out.extend_from_slice(&(dis.len() as u32).to_le_bytes());
                for f in dis {
                    out.extend_from_slice(&f.to_le_bytes());
                }
            }
        }
    }
    out
}

struct Cursor<'a>(&'a [u8], usize);
impl Cursor<'_> {
    fn u32(&mut self) -> Option<u32> {
        let b = self.0.get(self.1..self.1 + 4)?;
        self.1 += 4;
        Some(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    }
    fn bytes(&mut self) -> Option<Vec<u8>> {
        let n = self.u32()? as usize;
        let b = self.0.get(self.1..self.1 + n)?.to_vec();
        self.1 += n;
        Some(b)
    }
}

fn text(b: Vec<u8>) -> String {
    let end = b.iter().rposition(|&c| c != 0).map_or(0, |i| i + 1);
    // Microsoft's text is ASCII except for names we chose; keep bytes as Latin-1.
    b[..end].iter().map(|&c| c as char).collect()
}

/// Decodes as many answers as the results hold (a crash truncates them).
fn decode(jobs: &[Job], data: &[u8]) -> Vec<Answer> {
    let mut c = Cursor(data, 0);
    let mut out = Vec::new();
    for j in jobs {
        let Some(&kind) = data.get(c.1) else { break };
        c.1 += 1;
        let one = (|| {
            let mut a = Answer::default();
            let dis = match j {
                Job::Compile { dis, .. } | Job::Assemble { dis, .. } => {
                    if kind != if matches!(j, Job::Compile { .. }) { b'C' } else { b'A' } {
                        return None;
                    }
                    a.hr = c.u32()?;
                    a.errors = text(c.bytes()?);
                    a.blob = c.bytes()?;
                    dis
                }
                Job::Disassemble { dis, .. } => {
                    if kind != b'D' {
                        return None;
                    }
                    dis
                }
            };
            for &f in dis {
                let hr = c.u32()?;
                a.listings.push((f, hr, text(c.bytes()?)));
            }
            Some(a)
        })();
        match one {
            Some(a) => out.push(a),
            None => break,
        }
    }
    out
}

/// Where the DLL and runner.exe are (tools/oracle/.cache, made by setup.sh).
pub fn cache() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(".cache")
}

fn winpath(p: &Path) -> String {
    format!("Z:{}", p.display().to_string().replace('/', "\\"))
}

fn run_once(jobs: &[Job], tag: &str) -> Vec<Answer> {
    let dir = cache().join("tmp");
    std::fs::create_dir_all(&dir).expect("creating tools/oracle/.cache/tmp");
    let (jp, rp) = (dir.join(format!("jobs-{tag}.bin")), dir.join(format!("results-{tag}.bin")));
    std::fs::write(&jp, encode(jobs, tag)).expect("writing the job file");
    let _ = std::fs::remove_file(&rp);
    let mut child = Command::new("wine")
        .arg(cache().join("runner.exe"))
        .arg(winpath(&jp))
        .arg(winpath(&rp))
        .current_dir(cache())
        .env("WINEDEBUG", "-all")
        .env("WINEDLLOVERRIDES", "d3dcompiler_47=n")
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("starting wine (run tools/oracle/setup.sh first)");
    // A generous deadline: a hung compile must not stop the generator.
    let deadline = Instant::now() + Duration::from_secs(120 + jobs.len() as u64 / 4);
    loop {
        if child.try_wait().expect("waiting for wine").is_some() {
            break;
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            let _ = child.wait();
            break;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    let data = std::fs::read(&rp).unwrap_or_default();
    decode(jobs, &data)
}

/// Runs every job, `threads` wine processes at a time; a job on which the runner dies
/// is answered with `crashed` and the rest go on.
pub fn run(jobs: &[Job], threads: usize, batch: usize) -> Vec<Answer> {
    let chunks: Vec<&[Job]> = jobs.chunks(batch.max(1)).collect();
    let mut results: Vec<Vec<Answer>> = vec![Vec::new(); chunks.len()];
    let next = std::sync::atomic::AtomicUsize::new(0);
    let out = std::sync::Mutex::new(&mut results);
    std::thread::scope(|s| {
        for t in 0..threads.max(1) {
            let (chunks, next, out) = (&chunks, &next, &out);
            s.spawn(move || loop {
                let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                let Some(chunk) = chunks.get(i) else { break };
                let mut done = Vec::with_capacity(chunk.len());
                while done.len() < chunk.len() {
                    let got = run_once(&chunk[done.len()..], &format!("{}-{t}", std::process::id()));
                    if got.is_empty() {
                        // The runner died on the first remaining job (a hang the
                        // watchdog ended, or a fault it could not recover from).
                        let dis = chunk[done.len()].dis();
                        let listings = dis.iter().map(|&f| (f, HUNG, String::new())).collect();
                        done.push(Answer { crashed: true, hr: HUNG, listings, ..Answer::default() });
                    } else {
                        done.extend(got);
                    }
                }
                out.lock().unwrap()[i] = done;
                eprint!(".");
            });
        }
    });
    eprintln!();
    results.into_iter().flatten().collect()
}
