//! Every row of the Shader Model 4/5 instruction table (`tpf::TABLE`), through every
//! direction that reads it: text (parse, then print back to the same text), bytes
//! (encode, decode, re-encode to the same bytes), the validator (the row's stage and
//! shader-model columns refuse it where the table says it does not exist) and the
//! interpreter (`exec` compiles it, or names it as unsupported).
//!
//! The programs are the hand-written listings of `crates/tpf/tests/listings`, which
//! together use every opcode. The outcome of each row is kept in
//! `tests/expect/instruction_table_coverage.txt`, checked both ways: a row that starts
//! failing a direction fails, and so does one that starts passing until the file is
//! blessed (`DXREF_BLESS=1`). A row that no listing uses fails outright.

use std::collections::BTreeMap;
use std::path::Path;

use tpf::parse::parse_program;
use tpf::print::print_program;
use tpf::table::{Model, Stages};
use tpf::{Body, Instruction, InstructionRef, Op, Opcode, Program, ProgramType, Style, Version, TABLE};
use validate::{Code, FeatureLevel, Runtime, Target};

/// Stages in the order the test picks one from a set.
const STAGES: [ProgramType; 6] = [
    ProgramType::Vertex,
    ProgramType::Hull,
    ProgramType::Domain,
    ProgramType::Geometry,
    ProgramType::Pixel,
    ProgramType::Compute,
];

#[derive(Default)]
struct Row {
    /// Listings that use the opcode.
    uses: Vec<String>,
    text: Option<String>,
    bytes: Option<String>,
    exec: Option<String>,
}

fn listings() -> Vec<(String, String)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tpf/tests/listings");
    let mut paths: Vec<_> = std::fs::read_dir(&dir).expect("tpf test listings").map(|e| e.unwrap().path()).collect();
    paths.sort();
    paths
        .into_iter()
        .map(|p| (p.file_name().unwrap().to_string_lossy().into_owned(), std::fs::read_to_string(&p).unwrap()))
        .collect()
}

/// Keeps the first outcome that is not a success, or the success.
fn merge(slot: &mut Option<String>, outcome: String) {
    match slot {
        Some(s) if s == "ok" => {}
        _ if outcome == "ok" => *slot = Some(outcome),
        None => *slot = Some(outcome),
        Some(_) => {}
    }
}

/// Compiles `program` with `exec`, replacing each instruction it refuses by a `nop` and
/// trying again: the outcome of every instruction index (`ok`, or why not).
fn exec_outcomes(program: &Program<'static>) -> Vec<String> {
    let outcome = exec_attempt(program.clone());
    // The interpreter runs vertex, geometry, pixel and compute shaders: the
    // instructions of another stage's listing are compiled again in a vertex shader.
    if outcome.iter().all(|o| o.starts_with("program refused")) && program.version.ty != ProgramType::Vertex {
        let mut as_vs = program.clone();
        as_vs.version.ty = ProgramType::Vertex;
        return exec_attempt(as_vs)
            .into_iter()
            .map(|o| if o == "ok" { "ok (in a vertex shader)".to_string() } else { o })
            .collect();
    }
    outcome
}

fn exec_attempt(mut program: Program<'static>) -> Vec<String> {
    let mut outcome = vec![String::new(); program.instructions.len()];
    for _ in 0..=program.instructions.len() {
        match exec::Plan::compile(&program, Vec::new(), Vec::new()) {
            Ok(_) => break,
            Err(e) => match e.instruction {
                Some(i) if i < program.instructions.len() && outcome[i].is_empty() => {
                    outcome[i] = e.kind.to_string();
                    program.instructions[i] = Instruction::new(Opcode::Nop, Body::Op(Op::EMPTY));
                }
                _ => {
                    for o in outcome.iter_mut().filter(|o| o.is_empty()) {
                        *o = format!("program refused: {}", e.kind);
                    }
                    return outcome;
                }
            },
        }
    }
    for o in outcome.iter_mut().filter(|o| o.is_empty()) {
        *o = "ok".to_string();
    }
    outcome
}

/// What the validator says of `ins` alone in a program of `stage` and `model`.
fn validator_codes(ins: InstructionRef<'_, 'static>, stage: ProgramType, model: Model, target: &Target) -> Vec<Code> {
    let mut program = ins.to_program(Version::new(stage, model.0, model.1));
    if ins.opcode != Opcode::Ret {
        program.push_op(Opcode::Ret, &[]);
    }
    let mut text = String::new();
    print_program(&program, Style::default(), &mut text);
    let Ok(assembled) = listing::asm::assemble(&text, &listing::asm::AsmOptions::default()) else {
        return Vec::new();
    };
    validate::validate(&assembled.bytes, target).diagnostics.iter().map(|d| d.code).collect()
}

/// The validator direction: outside its stages the row is refused (`InstructionStage`),
/// below its first model it is refused (`InstructionModel`); rows with neither limit
/// say so.
fn validate_outcome(ins: InstructionRef<'_, 'static>) -> String {
    let row = ins.opcode.info();
    let mut parts = Vec::new();
    let inside: Vec<ProgramType> = STAGES.iter().copied().filter(|&s| row.stages.contains(s)).collect();
    let outside = STAGES.iter().copied().find(|&s| !row.stages.contains(s));
    // UAV rows exist outside pixel and compute shaders on a Direct3D 11.1 device with
    // UAVs at every stage: refused on 11.0, accepted on 11.1.
    let eleven_0 = Target::d3d11(FeatureLevel::L11_0, Runtime::D3D11_0);
    if let Some(stage) = outside {
        let codes = validator_codes(ins, stage, Model::SM5_0, &eleven_0);
        let name = validate::stage_name(stage);
        let refusal = if row.stages.is_uav() { Code::UavStageRuntime } else { Code::InstructionStage };
        parts.push(if codes.contains(&refusal) {
            format!("refused in {name}")
        } else {
            format!("NOT refused in {name}")
        });
        if row.stages.is_uav() {
            let codes = validator_codes(ins, stage, Model::SM5_0, &Target::default());
            parts.push(if codes.iter().any(|c| matches!(c, Code::UavStageRuntime | Code::UavStageDevice)) {
                format!("NOT accepted in {name} on 11.1")
            } else {
                format!("accepted in {name} on 11.1")
            });
        }
    }
    if let Some(&stage) = inside.iter().find(|&&s| row.min_model_in(s) > Model::SM4_0) {
        let codes = validator_codes(ins, stage, Model::SM4_0, &Target::default());
        let name = validate::stage_name(stage);
        parts.push(if codes.contains(&Code::InstructionModel) {
            format!("refused in {name}_4_0")
        } else {
            format!("NOT refused in {name}_4_0")
        });
    }
    if parts.is_empty() {
        debug_assert!(row.stages == Stages::ALL || inside.len() == STAGES.len());
        parts.push("every stage and model".to_string());
    }
    parts.join(", ")
}

#[test]
fn every_table_row_goes_through_every_direction() {
    let mut rows: BTreeMap<Opcode, Row> = BTreeMap::new();
    let mut validated: BTreeMap<Opcode, String> = BTreeMap::new();
    let files = listings();
    for (name, text) in &files {
        let parsed = parse_program(text).unwrap_or_else(|e| panic!("{name}: {e:?}"));
        let program = parsed.program;
        let mut printed = String::new();
        print_program(&program, Style::default(), &mut printed);
        let text_outcome = if &printed == text { "ok".to_string() } else { format!("{name} prints differently") };
        let bytes_outcome = match tpf::encode(&program) {
            Ok(bytes) => match tpf::decode(&bytes) {
                Ok(decoded) if decoded == program && tpf::encode(&decoded).ok().as_ref() == Some(&bytes) => "ok".into(),
                Ok(_) => format!("{name} decodes differently"),
                Err(e) => format!("{name}: {e}"),
            },
            Err(e) => format!("{name}: {e}"),
        };
        let exec = exec_outcomes(&program);
        for (i, ins) in program.iter().enumerate() {
            let row = rows.entry(ins.opcode).or_default();
            if !row.uses.contains(name) {
                row.uses.push(name.clone());
            }
            merge(&mut row.text, text_outcome.clone());
            merge(&mut row.bytes, bytes_outcome.clone());
            merge(&mut row.exec, exec[i].clone());
            validated.entry(ins.opcode).or_insert_with(|| validate_outcome(ins));
        }
    }

    let mut lines = Vec::new();
    let mut unused = Vec::new();
    for info in TABLE {
        let Some(row) = rows.get(&info.opcode) else {
            unused.push(info.mnemonic);
            continue;
        };
        lines.push(format!(
            "{}\ttext={}\tbytes={}\tvalidate={}\texec={}",
            info.mnemonic,
            row.text.as_deref().unwrap_or("-"),
            row.bytes.as_deref().unwrap_or("-"),
            validated.get(&info.opcode).map_or("-", |s| s.as_str()),
            row.exec.as_deref().unwrap_or("-"),
        ));
    }
    assert!(unused.is_empty(), "table rows no listing uses: {unused:?}");

    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/expect/instruction_table_coverage.txt");
    let header = "# The outcome of every row of tpf::TABLE in each direction (see the test's comment).\n\
                  # `DXREF_BLESS=1 cargo test -p dxref --test instruction_table_coverage` rewrites it.\n";
    let computed = format!("{header}{}\n", lines.join("\n"));
    if std::env::var_os("DXREF_BLESS").is_some() {
        std::fs::write(&path, &computed).unwrap();
        return;
    }
    let expected = std::fs::read_to_string(&path).expect("expectation file (bless with DXREF_BLESS=1)");
    let mut differences = Vec::new();
    for (e, c) in expected.lines().zip(computed.lines()) {
        if e != c {
            differences.push(format!("expected: {e}\n computed: {c}"));
        }
    }
    assert!(
        differences.is_empty() && expected.lines().count() == computed.lines().count(),
        "{} rows differ from the expectation file (DXREF_BLESS=1 to accept):\n{}",
        differences.len(),
        differences.join("\n")
    );
    // Every row prints and encodes back exactly, and the validator refuses it wherever
    // the table's columns say it does not exist.
    for line in computed.lines().filter(|l| !l.starts_with('#')) {
        assert!(line.contains("text=ok\tbytes=ok"), "{line}");
        assert!(!line.contains("NOT "), "{line}");
    }
}
