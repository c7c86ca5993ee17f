//! Every vertex and geometry shader of the corpus compiles and runs on generated
//! inputs: pseudo-random input registers (system values as small integers), every
//! declared constant buffer filled with pseudo-random floats, a buffer or texture of
//! pseudo-random data for every declared `t#`/`u#`, default samplers. Every entry's
//! outcome (ran, which instruction or declaration the executor does not support, or
//! another stage) is checked against `tests/expect/corpus_run.txt`. The corpus is
//! optional: without it the test prints SKIP and passes (unless `DXREF_REQUIRE_CORPUS=1`).

use std::collections::BTreeMap;

use corpus::Rng;
use exec::machine::{EmitSink, GsSystemValues, Machine};
use exec::{Plan, Resources};
use tpf::ProgramType;

mod common_corpus_data;
use common_corpus_data::{
    bind, mutate, mutations, plan_of, program_of, program_words, run_on_data, seed_of, storage, value, Mode, NoPlan,
};

struct Count {
    emits: u64,
    cuts: u64,
}

impl EmitSink for Count {
    fn emit(&mut self, _: u32, outputs: &[[u32; 4]]) {
        self.emits += 1;
        std::hint::black_box(outputs);
    }
    fn cut(&mut self, _: u32) {
        self.cuts += 1;
    }
}

/// Input registers: pseudo-random floats, system values as small integers.
fn inputs(plan: &Plan, rng: &mut Rng, vertices: u32, mode: Mode) -> Vec<[u32; 4]> {
    let regs = plan.input_registers as usize;
    let mut v = vec![[0u32; 4]; regs * vertices.max(1) as usize];
    for (k, r) in v.iter_mut().enumerate() {
        let reg = (k % regs.max(1)) as u32;
        let system = plan.inputs.iter().any(|d| d.register == reg && d.system != tpf::SystemName::Undefined);
        let int = plan.input_signature.iter().any(|e| e.register == reg && matches!(e.component_type, 1 | 2));
        for c in r.iter_mut() {
            *c = if system || int {
                rng.below(8) as u32
            } else if mode == 2 {
                (0.5 + rng.below(1501) as f32 / 1000.0).to_bits()
            } else {
                value(rng, 0)
            };
        }
    }
    v
}

/// Runs a plan a few times; `Ok(emits)` or the error.
fn exercise(plan: &Plan, program: &tpf::Program<'_>, seed: u64, small: Mode) -> Result<u64, exec::ExecError> {
    let mut rng = Rng(seed | 1);
    let mut store = storage(program, &mut rng, small);
    let mut res = bind(&mut store);
    let mut m = Machine::new(plan);
    m.set_step_limit(1 << 20);
    let mut emits = 0;
    for k in 0..8u32 {
        match plan.stage {
            ProgramType::Vertex => {
                let input = inputs(plan, &mut rng, 1, small);
                let out = m.run_vertex(plan, &input, &mut res)?;
                assert_eq!(out.len(), plan.output_registers as usize);
            }
            _ => {
                let input = inputs(plan, &mut rng, plan.input_vertices, small);
                for inst in 0..plan.instance_count {
                    let mut sink = Count { emits: 0, cuts: 0 };
                    let sys = GsSystemValues { primitive_id: k, gs_instance_id: inst };
                    let r = m.run_geometry(plan, &input, sys, &mut res, &mut sink)?;
                    assert_eq!(r.emitted as u64, sink.emits);
                    assert!(r.emitted <= plan.max_vertex_count);
                    emits += sink.emits;
                }
            }
        }
    }
    Ok(emits)
}

#[test]
fn corpus_vertex_and_geometry_shaders_run() {
    let Some(entries) = corpus::dxbc_entries("exec::corpus_run") else { return };
    let mut by_stage: BTreeMap<&str, [usize; 2]> = BTreeMap::new();
    let mut unsupported: BTreeMap<String, Vec<String>> = BTreeMap::new();
    let mut failures = Vec::new();
    let mut retried = 0;
    let mut emits = 0;
    let mut outcomes: BTreeMap<String, String> = BTreeMap::new();
    for e in &entries {
        let bytes = e.bytes();
        let program = program_of(&e.id(), &bytes);
        let stage = match program.version.ty {
            ProgramType::Vertex => "vs",
            ProgramType::Geometry => "gs",
            _ => {
                outcomes.insert(e.id(), "not a vertex or geometry shader".to_string());
                continue;
            }
        };
        let counts = by_stage.entry(stage).or_default();
        counts[0] += 1;
        let plan = match plan_of(&bytes) {
            Ok(p) => p,
            Err(no) => {
                match &no {
                    NoPlan::Refused(what) => unsupported.entry(what.clone()).or_default().push(e.id()),
                    NoPlan::Failed(err) => failures.push(format!("{}: compile: {err}", e.id())),
                }
                outcomes.insert(e.id(), no.outcome());
                continue;
            }
        };
        let seed = seed_of(&e.id());
        let (data, result) = run_on_data(|mode| exercise(&plan, &program, seed, mode));
        retried += match data {
            "floats" => 0,
            "small integers" => 1,
            _ => 2,
        };
        let outcome = match result {
            Ok(n) => {
                counts[1] += 1;
                emits += n;
                format!("ran on {data}")
            }
            Err(err) => {
                failures.push(format!("{}: run: {err}", e.id()));
                corpus::expect::one_line(&format!("run error on {data}: {err}"))
            }
        };
        outcomes.insert(e.id(), outcome);
    }
    println!("corpus_run: stage → [shaders, ran]: {by_stage:?}; {emits} GS emits; {retried} reruns with integer data");
    for (what, ids) in &unsupported {
        println!("corpus_run: unsupported ({} shaders): {what}: {}", ids.len(), ids.join(", "));
    }
    assert!(failures.is_empty(), "{} failures:\n{}", failures.len(), failures.join("\n"));
    // Which shaders run and which the executor refuses (and why), entry by entry.
    corpus::expect::check(corpus::expect_file!("corpus_run.txt"), &outcomes);
}

/// Corrupted programs (random token changes in the corpus's vertex and geometry
/// shaders) either fail to decode or compile, or compile and run to an end or an
/// error — never a panic, never a hang.
#[test]
fn mutated_corpus_programs_never_panic() {
    let Some(entries) = corpus::dxbc_entries("exec::corpus_run (mutations)") else { return };
    let mut rng = Rng(0x5eed_1234_abcd_0001);
    let (mut tried, mut compiled, mut ran, mut errors) = (0, 0, 0, 0);
    for e in &entries {
        let keep = |ty| matches!(ty, ProgramType::Vertex | ProgramType::Geometry);
        let Some(words) = program_words(&e.bytes(), keep) else { continue };
        for _ in 0..mutations(12) {
            let bytes = mutate(&words, &mut rng);
            tried += 1;
            let Ok(p) = tpf::decode(&bytes) else { continue };
            let Ok(plan) = Plan::compile(&p, Vec::new(), Vec::new()) else { continue };
            compiled += 1;
            let mut res = Resources::default();
            let cb = vec![[0x3f80_0000u32; 4]; 64];
            for slot in res.constant_buffers.iter_mut() {
                *slot = Some(&cb);
            }
            let mut m = Machine::new(&plan);
            m.set_step_limit(100_000);
            m.set_checking(rng.below(2) == 1);
            let input = vec![
                [0x3f00_0000u32, 1, 2, 0xffff_ffff];
                (plan.input_registers as usize) * plan.input_vertices.max(1) as usize
            ];
            let r = match plan.stage {
                ProgramType::Vertex => m.run_vertex(&plan, &input, &mut res).map(|_| ()),
                _ => {
                    let mut sink = Count { emits: 0, cuts: 0 };
                    m.run_geometry(&plan, &input, GsSystemValues::default(), &mut res, &mut sink).map(|_| ())
                }
            };
            match r {
                Ok(()) => ran += 1,
                Err(_) => errors += 1,
            }
        }
    }
    println!("corpus_run mutations: {tried} tried, {compiled} compiled, {ran} ran to the end, {errors} stopped with an error");
}
