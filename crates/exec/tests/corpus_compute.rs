//! Every compute shader of the corpus compiles and runs a dispatch of 2 × 2 × 1 thread
//! groups on generated inputs (as `corpus_run` makes them: every declared constant
//! buffer full of pseudo-random floats, a buffer or texture of pseudo-random data for
//! every declared `t#` and `u#`, default samplers; again with small, then positive,
//! integers when the floats make a loop run past the step limit). Each entry's outcome
//! (ran, with its invocations and barriers; what the interpreter refuses; another
//! stage) is checked against `tests/expect/corpus_compute.txt`. The corpus is
//! optional: without it the test prints SKIP and passes (unless
//! `DXREF_REQUIRE_CORPUS=1`).

use std::collections::BTreeMap;

use corpus::Rng;
use exec::compute::{self, ComputeStats, Limits};
use exec::resources::{Srv, Uav};
use exec::{Plan, Resources};
use tpf::ProgramType;

mod common_corpus_data;
use common_corpus_data::{
    bind, mutate, mutations, plan_of, program_of, program_words, run_on_data, seed_of, storage, Mode, NoPlan,
};

/// The dispatch every shader runs.
const GROUPS: [u32; 3] = [2, 2, 1];

fn exercise(plan: &Plan, program: &tpf::Program<'_>, seed: u64, mode: Mode) -> Result<ComputeStats, exec::ExecError> {
    let mut rng = Rng(seed | 1);
    let mut store = storage(program, &mut rng, mode);
    let mut res = bind(&mut store);
    compute::dispatch(plan, GROUPS, &mut res, &Limits { step_limit: 1 << 20 })
}

#[test]
fn corpus_compute_shaders_run() {
    let Some(entries) = corpus::dxbc_entries("exec::corpus_compute") else { return };
    let mut outcomes: BTreeMap<String, String> = BTreeMap::new();
    let mut failures = Vec::new();
    let (mut shaders, mut ran, mut invocations, mut barriers) = (0, 0, 0u64, 0u64);
    for e in &entries {
        let bytes = e.bytes();
        let program = program_of(&e.id(), &bytes);
        if program.version.ty != ProgramType::Compute {
            outcomes.insert(e.id(), "not a compute shader".to_string());
            continue;
        }
        shaders += 1;
        let plan = match plan_of(&bytes) {
            Ok(p) => p,
            Err(no) => {
                if let NoPlan::Failed(err) = &no {
                    failures.push(format!("{}: compile: {err}", e.id()));
                }
                outcomes.insert(e.id(), no.outcome());
                continue;
            }
        };
        let seed = seed_of(&e.id());
        let (data, result) = run_on_data(|mode| exercise(&plan, &program, seed, mode));
        let outcome = match result {
            Ok(s) => {
                ran += 1;
                invocations += s.cs_invocations;
                barriers += s.barriers;
                assert_eq!(s.thread_groups, 4, "{}", e.id());
                let threads: u64 = plan.thread_group.iter().map(|&n| n as u64).product();
                assert_eq!(s.cs_invocations, 4 * threads, "{}", e.id());
                format!("ran on {data}: {} invocations, {} barriers", s.cs_invocations, s.barriers)
            }
            Err(err) => {
                failures.push(format!("{}: run: {err}", e.id()));
                corpus::expect::one_line(&format!("run error on {data}: {err}"))
            }
        };
        outcomes.insert(e.id(), outcome);
    }
    println!(
        "corpus_compute: {shaders} compute shaders, {ran} ran ({invocations} invocations, {barriers} group barriers)"
    );
    assert!(failures.is_empty(), "{} failures:\n{}", failures.len(), failures.join("\n"));
    corpus::expect::check(corpus::expect_file!("corpus_compute.txt"), &outcomes);
}

/// Corrupted programs (random token changes in the corpus's compute shaders) either
/// fail to decode or compile, or compile and dispatch to an end or an error — never a
/// panic, never a hang (divergent barriers included).
#[test]
fn mutated_corpus_compute_programs_never_panic() {
    let Some(entries) = corpus::dxbc_entries("exec::corpus_compute (mutations)") else { return };
    let mut rng = Rng(0x5eed_c0de_0000_0001);
    let (mut tried, mut compiled, mut ran, mut errors) = (0, 0, 0, 0);
    for e in &entries {
        let Some(words) = program_words(&e.bytes(), |ty| ty == ProgramType::Compute) else { continue };
        for _ in 0..mutations(8) {
            let bytes = mutate(&words, &mut rng);
            tried += 1;
            let Ok(p) = tpf::decode(&bytes) else { continue };
            let Ok(plan) = Plan::compile(&p, Vec::new(), Vec::new()) else { continue };
            compiled += 1;
            if plan.thread_group.iter().map(|&n| n as u64).product::<u64>() > 256 {
                continue;
            }
            // Fixed memory (the declarations may be anything): constant buffers, raw
            // views and raw UAVs in the first slots; other kinds read 0.
            let cb = vec![[0x3f80_0000u32, 1, 2, 0xffff_ffff]; 64];
            let srv = vec![7u8; 4096];
            let mut uav_memory: Vec<Vec<u8>> = (0..8).map(|_| vec![0u8; 4096]).collect();
            let mut res = Resources::default();
            for slot in res.constant_buffers.iter_mut() {
                *slot = Some(&cb);
            }
            res.srvs = (0..8).map(|_| Some(Srv::Raw { data: &srv })).collect();
            res.uavs = uav_memory.iter_mut().map(|data| Some(Uav::Raw { data })).collect();
            match compute::dispatch(&plan, [1, 1, 1], &mut res, &Limits { step_limit: 20_000 }) {
                Ok(_) => ran += 1,
                Err(_) => errors += 1,
            }
        }
    }
    println!("corpus_compute mutations: {tried} tried, {compiled} compiled, {ran} ran to the end, {errors} stopped with an error");
}
