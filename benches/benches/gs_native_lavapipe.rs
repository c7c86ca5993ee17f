//! The geometry-shader workloads of `../shared/bench/GS-WORKLOADS.md` as native SPIR-V
//! geometry shaders (`translate::geometry_spirv`) in a Vulkan graphics pipeline on
//! Mesa's lavapipe (through `ash`: the translated vertex shader, the native geometry
//! shader, rasterizer discard, transform feedback of the stream-output declaration),
//! at the sizes of `gs_lavapipe` (whose `*_lowered` functions time the same draws
//! lowered to compute), in emitted vertices per second:
//!
//! - `gs_native_lavapipe/quad_native`: 1,000,000 points to quads;
//! - `gs_native_lavapipe/cube_native`: 100,000 triangles to six faces through
//!   `dcl_gsinstances 6`.
//!
//! An iteration is one submission of the recorded draw (with its queries) and the wait
//! for it (buffers and the pipeline are made once); lavapipe uses its own threads
//! (`LP_NUM_THREADS` sets how many). Before timing, the draw's transform-feedback
//! bytes and statistics are checked equal to the reference's (`exec::pipeline::draw`;
//! all but `GSInvocations`, which lavapipe counts per input primitive).
//! Without a lavapipe device with geometry shaders and transform feedback the
//! benchmark prints SKIP and times nothing.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};

#[path = "../../crates/translate/tests/support/gs_cases.rs"]
mod gs_cases;
#[path = "../../crates/translate/tests/support/gs_reference.rs"]
mod gs_reference;
#[path = "../../crates/translate/tests/support/gs_shaders.rs"]
mod gs_shaders;
#[path = "../../crates/translate/tests/support/vulkan_gs.rs"]
mod vulkan_gs;

use gs_reference::GsResources;
use vulkan_gs::Draw;

fn bench_workload(c: &mut Criterion, vk: &vulkan_gs::Vk, name: &str, d: &Draw, emitted: u64) {
    let want = gs_cases::reference(d, &GsResources { cbs: d.cbs.clone(), ..Default::default() }).expect("reference");
    let prepared = vk.prepare(d).unwrap_or_else(|e| panic!("{name}: {e}"));
    prepared.run().expect("draw");
    let got = prepared.read().expect("read back");
    assert!(got.so[0] == want.so[0], "{name}: the native draw wrote other transform-feedback bytes");
    // Every statistic but GSInvocations, which lavapipe counts per input primitive
    // rather than per instance (tests/lavapipe_gs_native.rs records it).
    let skip_invocations = |s: [u64; 5]| [s[0], s[1], s[2], s[4]];
    assert_eq!(
        (skip_invocations(got.stats), got.so_stats[0]),
        (skip_invocations(want.stats), want.so_stats[0]),
        "{name}: statistics"
    );
    let mut g = c.benchmark_group("gs_native_lavapipe");
    g.sample_size(10);
    g.throughput(Throughput::Elements(emitted));
    g.bench_function(format!("{name}_native"), |b| b.iter(|| prepared.run().expect("draw")));
    g.finish();
}

fn workloads(c: &mut Criterion) {
    let vk = match vulkan_gs::vk() {
        Ok(vk) => vk,
        Err(why) => {
            println!("SKIP gs_native_lavapipe: {}: {why}", vulkan_gs::NO_LAVAPIPE);
            return;
        }
    };
    const QUAD: u32 = 1_000_000;
    const CUBE: u32 = 100_000;
    let quad = gs_cases::quad_of(QUAD, 6 * QUAD as usize * 16);
    bench_workload(c, &vk, "quad", &quad, 4 * u64::from(QUAD));
    drop(quad);
    let cube = gs_cases::cube_of(CUBE, 18 * CUBE as usize * 20);
    bench_workload(c, &vk, "cube", &cube, 18 * u64::from(CUBE));
}

criterion_group!(gs_native_lavapipe_benches, workloads);
criterion_main!(gs_native_lavapipe_benches);
