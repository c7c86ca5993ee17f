//! Finding the first instruction whose result differs between the reference and a
//! device: the program is changed to give, in `o0`, the value instruction `k`'s
//! destination register holds right after the `n`-th time `k` runs ([`cut_after`]),
//! and each such container is run through both sides by the caller's test (the same
//! data, bindings and inputs as the whole program's run: every declaration is kept),
//! in the order the instructions run ([`first_difference`]), until one is not `exact`.
//!
//! The rest of the program still runs (flow control is left whole, so that a branch or
//! a loop count computed from data behaves as in the whole program), but its writes to
//! output registers go to a spare temp instead, and `o0` is written from the saved
//! value before each `ret`/`retc`. An instruction not run `n` times leaves the saved
//! value 0 on both sides (`exact`).
//!
//! Included by the lavapipe tests with `#[path = "support/cut.rs"] mod cut;`; their
//! `DXREF_TRACE=<entry>` tests (ignored by default) print the trace.
#![allow(dead_code)]

use tpf::{Body, ComponentCount, Decl, Mask, Opcode, Operand, OperandType, Program, Selection};

fn program_of(bytes: &[u8]) -> Result<(dxbc::Container<'_>, Program<'_>), String> {
    let container = dxbc::Container::parse(bytes).map_err(|e| e.to_string())?;
    let chunk = container.chunk_any(&[dxbc::FourCc::SHEX, dxbc::FourCc::SHDR]).ok_or("no program chunk")?;
    let program = tpf::decode(chunk.data).map_err(|e| e.to_string())?;
    Ok((container, program))
}

fn temp(r: u32, selection: Selection) -> Operand {
    Operand::new(OperandType::Temp, ComponentCount::Four, selection, &[r])
}

fn literal(v: u32) -> Operand {
    let mut o = Operand::new(OperandType::Immediate32, ComponentCount::One, Selection::None, &[]);
    o.imm = [v, 0, 0, 0];
    o
}

const XYZW: Selection = Selection::Swizzle([0, 1, 2, 3]);

/// The temp register `k` writes (its first destination that is not `null`), or `o#`
/// (`Some(None)`), or `None` when `k` writes neither (a declaration, flow control, a
/// store, a destination of another kind).
fn destination(program: &Program<'_>, k: usize) -> Option<Option<u32>> {
    let ins = program.get(k)?;
    let Body::Op(_) = ins.instruction().body else { return None };
    let info = ins.opcode.info();
    let dst = ins.operands().iter().take(info.dst.len()).find(|o| o.ty != OperandType::Null)?;
    match dst.ty {
        OperandType::Temp => Some(Some(dst.register()? as u32)),
        OperandType::Output => Some(None),
        _ => None,
    }
}

/// The container `bytes` changed to write to `o0.xyzw` the value of the register
/// instruction `k` (counting every instruction, declarations too) writes, right after
/// its `n`-th run (`n` from 1). Three temps are added: the saved value, the run
/// counter, and where the program's own output writes go. `None` when `k` writes
/// neither a temp nor an output.
pub fn cut_after(bytes: &[u8], k: usize, n: u32) -> Result<Option<Vec<u8>>, String> {
    cut(bytes, k, n, None)
}

/// As [`cut_after`], or with `register`, the value of that temp right before the
/// `n`-th run of instruction `k` (a source of `k`, say).
pub fn cut(bytes: &[u8], k: usize, n: u32, register: Option<u32>) -> Result<Option<Vec<u8>>, String> {
    let (container, program) = program_of(bytes)?;
    let written = match register {
        Some(r) => Some(r),
        None => match destination(&program, k) {
            Some(w) => w,
            None => return Ok(None),
        },
    };
    let temps = program
        .iter()
        .find_map(|i| match &i.instruction().body {
            Body::Decl(Decl::Temps(n)) => Some(*n),
            _ => None,
        })
        .unwrap_or(0);
    let (save, count, outputs) = (temps, temps + 1, temps + 2);
    let mut cut = Program::new(program.version);
    let mut started = false;
    for (at, ins) in program.iter().enumerate() {
        let decl = !matches!(ins.instruction().body, Body::Op(_)) || ins.opcode == Opcode::Label;
        if !decl && !started {
            started = true;
            if !program.iter().any(|i| matches!(i.instruction().body, Body::Decl(Decl::Temps(_)))) {
                cut.push_decl(Opcode::DclTemps, Decl::Temps(3));
            }
            cut.push_op(Opcode::Mov, &[temp(save, Selection::Mask(Mask::XYZW)), literal(0)]);
            cut.push_op(Opcode::Mov, &[temp(count, Selection::Mask(Mask::X)), literal(0)]);
        }
        if matches!(ins.opcode, Opcode::Ret | Opcode::Retc) {
            let o0 = Operand::new(OperandType::Output, ComponentCount::Four, Selection::Mask(Mask::XYZW), &[0]);
            cut.push_op(Opcode::Mov, &[o0, temp(save, XYZW)]);
        }
        if at == k && register.is_some() {
            save_on_run(&mut cut, n, written.unwrap_or(outputs), (save, count));
        }
        let copy = cut.push_from(ins);
        if let Body::Decl(Decl::Temps(t)) = &mut copy.body {
            *t += 3;
        }
        // The program's own output writes go to the spare temp.
        if let Body::Op(op) = copy.body {
            let n_dst = ins.opcode.info().dst.len();
            for o in cut.operands_mut(op.operands).iter_mut().take(n_dst) {
                if o.ty == OperandType::Output {
                    let selection = o.selection();
                    *o = temp(outputs, selection);
                }
            }
        }
        if at == k && register.is_none() {
            save_on_run(&mut cut, n, written.unwrap_or(outputs), (save, count));
        }
    }
    let tokens = tpf::encode(&cut).map_err(|e| e.to_string())?;
    let mut builder = dxbc::Builder::new();
    for c in container.chunks() {
        if matches!(c.fourcc, dxbc::FourCc::SHEX | dxbc::FourCc::SHDR) {
            builder.push(c.fourcc, tokens.clone());
        } else {
            builder.push(c.fourcc, c.data);
        }
    }
    builder.build().map(Some).map_err(|e| e.to_string())
}

/// Counts a run in `count.x` and copies `source` to `save` on the `n`-th.
fn save_on_run(cut: &mut Program<'_>, n: u32, source: u32, (save, count): (u32, u32)) {
    let counter = temp(count, Selection::Select1(0));
    cut.push_op(Opcode::Iadd, &[temp(count, Selection::Mask(Mask::X)), counter, literal(1)]);
    cut.push_op(Opcode::Ieq, &[temp(count, Selection::Mask(Mask::Y)), counter, literal(n)]);
    cut.push_op(
        Opcode::Movc,
        &[
            temp(save, Selection::Mask(Mask::XYZW)),
            temp(count, Selection::Swizzle([1, 1, 1, 1])),
            temp(source, XYZW),
            temp(save, XYZW),
        ],
    );
}

/// The temp registers instruction `k` reads.
pub fn source_temps(bytes: &[u8], k: usize) -> Vec<u32> {
    let Ok((_, program)) = program_of(bytes) else { return Vec::new() };
    let Some(ins) = program.get(k) else { return Vec::new() };
    let n_dst = ins.opcode.info().dst.len();
    let mut out: Vec<u32> = ins
        .operands()
        .iter()
        .skip(n_dst)
        .filter(|o| o.ty == OperandType::Temp)
        .filter_map(|o| o.register().map(|r| r as u32))
        .collect();
    out.dedup();
    out
}

/// The listing line of instruction `k` of the container's program.
pub fn instruction_text(bytes: &[u8], k: usize) -> String {
    let Ok((_, program)) = program_of(bytes) else { return String::new() };
    let Some(ins) = program.get(k) else { return String::new() };
    let mut p = tpf::print::Printer::new(program.version, tpf::Style::default());
    let mut out = String::new();
    p.instruction(ins, &mut out);
    out.trim().to_string()
}

/// The runs to check, in the order they happen: `(instruction, n)`; the instructions of
/// a top-level loop (`loop` ... `endloop`) repeated for its first `iterations` runs.
fn schedule(program: &Program<'_>, iterations: u32) -> Vec<(usize, u32)> {
    let mut out = Vec::new();
    let mut k = 0;
    while k < program.len() {
        let op = program.get(k).map(|i| i.opcode);
        if op == Some(Opcode::Loop) {
            let mut depth = 0;
            let mut end = k;
            for (at, ins) in program.iter().enumerate().skip(k) {
                match ins.opcode {
                    Opcode::Loop => depth += 1,
                    Opcode::EndLoop => depth -= 1,
                    _ => {}
                }
                if depth == 0 {
                    end = at;
                    break;
                }
            }
            for n in 1..=iterations {
                out.extend((k + 1..end).map(|i| (i, n)));
            }
            k = end + 1;
        } else {
            out.push((k, 1));
            k += 1;
        }
    }
    out
}

/// Runs the program of `bytes` changed by [`cut_after`] for each instruction in the
/// order they run (a loop's body for its first `DXREF_TRACE_ITERATIONS` runs, 16 unless
/// set) with `run` (which gives the outcome line of a container: `exact`, or the
/// difference), printing each with its outcome, up to the first that is not `exact`;
/// that one's number, run, text and outcome (`None` when every one is exact).
/// `show` is given a container and the difference line, to print the values read.
pub fn first_difference(
    bytes: &[u8],
    run: &dyn Fn(&[u8]) -> String,
    show: &dyn Fn(&[u8], &str),
) -> Option<(usize, u32, String, String)> {
    let iterations = std::env::var("DXREF_TRACE_ITERATIONS").ok().and_then(|s| s.parse().ok()).unwrap_or(16);
    let program = program_of(bytes).ok()?.1;
    for (k, n) in schedule(&program, iterations) {
        let changed = match cut_after(bytes, k, n) {
            Ok(Some(c)) => c,
            Ok(None) => continue,
            Err(e) => {
                println!("{k:4}: cannot cut: {e}");
                continue;
            }
        };
        let outcome = run(&changed);
        let text = instruction_text(bytes, k);
        println!("{k:4} (run {n}): {text:<60} {outcome}");
        if outcome != "exact" {
            // The values the instruction read there (the caller's `show` prints them).
            for r in source_temps(bytes, k) {
                if let Ok(Some(c)) = cut(bytes, k, n, Some(r)) {
                    println!("      r{r} before it:");
                    show(&c, &outcome);
                }
            }
            return Some((k, n, text, outcome));
        }
    }
    None
}
