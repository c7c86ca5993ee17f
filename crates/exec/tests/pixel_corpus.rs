//! Every pixel shader of the corpus compiles and runs on four quads (a 4×4 block of
//! pixels, the last quad with one helper pixel) on generated inputs (as `corpus_run`
//! makes them: every declared constant buffer full of pseudo-random floats, a buffer
//! or texture of pseudo-random data for every declared `t#`, default samplers,
//! pseudo-random attributes per pixel; again with small, then positive, integers when
//! the floats make a loop run past the step limit), or is refused with the
//! instruction named. Each entry's outcome (ran, with the pixels written and
//! discarded and a hash of every written pixel's outputs; what the interpreter refuses;
//! another stage) is checked against `tests/expect/pixel_corpus.txt`. A shader that
//! evaluates attributes (`eval_*`, which needs the rasterizer's attribute planes) is
//! drawn instead with `exec::raster::draw`: two triangles over a 4×4 target (clip w
//! 1, 2, 0.5 and 1 at the corners) whose vertices carry generated attributes. The corpus is
//! optional: without it the test prints SKIP and passes (unless `DXREF_REQUIRE_CORPUS=1`).

use std::collections::BTreeMap;

use corpus::Rng;
use exec::compute::Limits;
use exec::pixel::{self, PixelOutput, Quad, QuadPixel};
use exec::raster::{self, Cull, RasterState, Viewport};
use exec::{ExecErrorKind, Plan};
use tpf::ProgramType;

mod common_corpus_data;
use common_corpus_data::{
    bind, mutate, mutations, plan_of, program_of, program_words, run_on_data, seed_of, storage, value, Mode, NoPlan,
};

/// What a run left: the pixel-shader invocations and the pixels' outputs.
type Ran = (u64, Vec<PixelOutput>);

fn exercise(plan: &Plan, program: &tpf::Program<'_>, seed: u64, mode: Mode) -> Result<Ran, exec::ExecError> {
    let mut rng = Rng(seed | 1);
    let mut store = storage(program, &mut rng, mode);
    let mut res = bind(&mut store);
    let n = plan.input_registers as usize;
    let attrs: Vec<Vec<[u32; 4]>> =
        (0..16).map(|_| (0..n).map(|_| [0; 4].map(|_| value(&mut rng, mode))).collect()).collect();
    let quads: Vec<Quad<'_>> = (0..4)
        .map(|q| {
            let p = |k: usize| QuadPixel { covered: !(q == 3 && k == 3), inputs: &attrs[q * 4 + k], z: 0.5, w: 1.0 };
            Quad { x: 2 * (q as u32 & 1), y: 2 * (q as u32 >> 1), front_face: q != 2, pixels: [p(0), p(1), p(2), p(3)] }
        })
        .collect();
    let s = pixel::shade(plan, &quads, &mut res, &Limits { step_limit: 1 << 20 })?;
    Ok((s.ps_invocations, s.quads.into_iter().flatten().collect()))
}

/// The program drawn by the rasterizer over a 4 × 4 target: two triangles, each
/// vertex with generated values in the pixel shader's input registers and the clip-
/// space position after them.
fn exercise_rasterized(plan: &Plan, program: &tpf::Program<'_>, seed: u64, mode: Mode) -> Result<Ran, exec::ExecError> {
    let mut rng = Rng(seed | 1);
    let mut store = storage(program, &mut rng, mode);
    let mut res = bind(&mut store);
    let n = plan.input_registers as usize;
    let corners = [(-1.0f32, 1.0f32, 1.0f32), (1.0, 1.0, 2.0), (-1.0, -1.0, 0.5), (1.0, -1.0, 1.0)];
    let vertices: Vec<Vec<[u32; 4]>> = corners
        .iter()
        .map(|&(x, y, w)| {
            let mut v: Vec<[u32; 4]> = (0..n).map(|_| [0; 4].map(|_| value(&mut rng, mode))).collect();
            v.push([x * w, y * w, 0.5 * w, w].map(f32::to_bits));
            v
        })
        .collect();
    let state = RasterState {
        viewport: Viewport {
            top_left_x: 0.0,
            top_left_y: 0.0,
            width: 4.0,
            height: 4.0,
            min_depth: 0.0,
            max_depth: 1.0,
        },
        target_width: 4,
        target_height: 4,
        cull: Cull::None,
        front_counter_clockwise: false,
        depth_clip: true,
        position_register: n as u32,
    };
    let v = |k: usize| &vertices[k][..];
    let drawn = raster::draw(
        plan,
        &[[v(0), v(1), v(2)], [v(1), v(3), v(2)]],
        &state,
        &mut res,
        &Limits { step_limit: 1 << 20 },
    )?;
    Ok((drawn.ps_invocations, drawn.pixels.into_iter().map(Option::unwrap_or_default).collect()))
}

#[test]
fn corpus_pixel_shaders_run_or_are_refused_by_name() {
    let Some(entries) = corpus::dxbc_entries("exec::pixel_corpus") else { return };
    let mut outcomes: BTreeMap<String, String> = BTreeMap::new();
    let mut failures = Vec::new();
    let (mut shaders, mut ran, mut refused) = (0, 0, 0);
    for e in &entries {
        let bytes = e.bytes();
        let program = program_of(&e.id(), &bytes);
        if program.version.ty != ProgramType::Pixel {
            outcomes.insert(e.id(), "not a pixel shader".to_string());
            continue;
        }
        shaders += 1;
        let plan = match plan_of(&bytes) {
            Ok(p) => p,
            Err(no) => {
                match &no {
                    NoPlan::Refused(_) => refused += 1,
                    NoPlan::Failed(err) => failures.push(format!("{}: compile: {err}", e.id())),
                }
                outcomes.insert(e.id(), no.outcome());
                continue;
            }
        };
        let seed = seed_of(&e.id());
        let (mut data, mut result) = run_on_data(|mode| exercise(&plan, &program, seed, mode));
        let mut how = "ran";
        if matches!(&result, Err(err) if matches!(&err.kind, ExecErrorKind::Unsupported(m) if m.contains("rasterized draw")))
        {
            how = "ran rasterized";
            (data, result) = run_on_data(|mode| exercise_rasterized(&plan, &program, seed, mode));
        }
        let outcome = match result {
            Ok((invocations, pixels)) => {
                ran += 1;
                // Plain: the 4 quads of the target. Rasterized: the two triangles share
                // the diagonal quads (0, 2) and (2, 0), each also covers its corner quad:
                // 6 quads shaded, helpers included.
                let quads = if how == "ran" { 4 } else { 6 };
                assert_eq!(invocations, 4 * quads, "{} ({how})", e.id());
                let written = pixels.iter().filter(|p| p.written).count();
                let discarded = pixels.iter().filter(|p| p.discarded).count();
                // Every written pixel's outputs, hashed (FNV-1a over their words), so
                // that a change in any value the program computes shows.
                let mut hash = 0xcbf2_9ce4_8422_2325u64;
                for p in pixels.iter().filter(|p| p.written) {
                    let extra = [p.depth, p.coverage_mask, p.stencil_ref].map(|w| w.unwrap_or(0));
                    for w in p.targets.iter().flatten().chain(&extra) {
                        for b in w.to_le_bytes() {
                            hash = (hash ^ u64::from(b)).wrapping_mul(0x100_0000_01b3);
                        }
                    }
                }
                format!("{how} on {data}: {written} pixels written, {discarded} discarded, outputs {hash:016x}")
            }
            Err(err) => {
                failures.push(format!("{}: run: {err}", e.id()));
                corpus::expect::one_line(&format!("run error on {data}: {err}"))
            }
        };
        outcomes.insert(e.id(), outcome);
    }
    println!("pixel_corpus: {shaders} pixel shaders, {ran} ran, {refused} refused");
    assert!(failures.is_empty(), "{} failures:\n{}", failures.len(), failures.join("\n"));
    corpus::expect::check(corpus::expect_file!("pixel_corpus.txt"), &outcomes);
}

/// Corrupted programs (random token changes in the corpus's pixel shaders) either fail
/// to decode or compile, or compile and shade a quad to an end or an error — never a
/// panic, never a hang.
#[test]
fn mutated_corpus_pixel_programs_never_panic() {
    let Some(entries) = corpus::dxbc_entries("exec::pixel_corpus (mutations)") else { return };
    let mut rng = Rng(0x5eed_c0de_0000_0002);
    let (mut tried, mut compiled, mut ran, mut errors) = (0, 0, 0, 0);
    for e in &entries {
        let Some(words) = program_words(&e.bytes(), |ty| ty == ProgramType::Pixel) else { continue };
        for _ in 0..mutations(8) {
            let bytes = mutate(&words, &mut rng);
            tried += 1;
            let Ok(p) = tpf::decode(&bytes) else { continue };
            let Ok(plan) = Plan::compile(&p, Vec::new(), Vec::new()) else { continue };
            compiled += 1;
            // Fixed memory (the declarations may be anything): constant buffers and raw
            // views in the first slots; other kinds read 0.
            let cb = vec![[0x3f80_0000u32, 1, 2, 0xffff_ffff]; 64];
            let srv = vec![7u8; 4096];
            let mut res = exec::Resources::default();
            for slot in res.constant_buffers.iter_mut() {
                *slot = Some(&cb);
            }
            res.srvs = (0..8).map(|_| Some(exec::resources::Srv::Raw { data: &srv })).collect();
            let attrs = vec![[0x3f00_0000u32, 3, 0xbf80_0000, 0]; 40];
            let p = |covered| QuadPixel { covered, inputs: &attrs, z: 0.5, w: 1.0 };
            let quad = Quad { x: 0, y: 0, front_face: true, pixels: [p(true), p(true), p(false), p(true)] };
            match pixel::shade(&plan, &[quad], &mut res, &Limits { step_limit: 20_000 }) {
                Ok(_) => ran += 1,
                Err(_) => errors += 1,
            }
        }
    }
    println!("mutated pixel shaders: {tried} tried, {compiled} compiled, {ran} ran, {errors} errors");
    assert!(compiled > 0 || tried == 0);
}
