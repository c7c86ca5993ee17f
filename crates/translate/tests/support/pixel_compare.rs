//! What the lavapipe pixel-shader tests (`lavapipe_pixel`, points;
//! `lavapipe_pixel_derivatives`, triangles) share besides the draw
//! (`support/pixel_harness.rs`): the comparison of the reference's targets, depth and
//! UAVs with lavapipe's ([`compare`]), the class instances both sides bind
//! ([`class_instances`]), the decoding of a container's program.
//!
//! The driver of one shader's comparison ([`outcome_of`]: resources, class
//! instances, translation, the test's draw, the comparison) and of a trace
//! ([`trace`]) are shared too.
//!
//! Included with `#[path = "support/pixel_compare.rs"] mod pixel_compare;` next to
//! `support/cut.rs`, `support/lavapipe.rs`, `support/pixel_harness.rs`,
//! `support/resources.rs` and `support/tolerance.rs`.
#![allow(dead_code)]

use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};

use corpus::Rng;
use exec::{ClassInstance, ClassInstances, Plan};
use tpf::Opcode;

use super::cut;
use super::lavapipe::{device_or_skip, one_lavapipe_thread, Gpu};
use super::pixel_harness::{self, Kind as TargetKind, WIDTH};
use super::resources::{self, program_data, Data, Policy};
use super::tolerance::{tolerance, uav_difference, within};

/// What the reference computes for the draw: each target's words (in the interface's
/// order), the depth target and every UAV's memory (in slot order).
pub type Expected = (Vec<Vec<[u32; 4]>>, Option<Vec<f32>>, Vec<Vec<u8>>);

/// Compares the targets word by word; the outcome line.
pub fn compare(
    iface: &pixel_harness::Interface,
    slots: &[u32],
    expected: &Expected,
    got: &pixel_harness::Rendered,
    tolerance: Option<(u32, f32, Opcode)>,
) -> String {
    let mut tolerated = None;
    let mut check = |what: &str, k: usize, a: u32, b: u32, float: bool| -> Option<String> {
        if a == b {
            return None;
        }
        let (fa, fb) = (f32::from_bits(a), f32::from_bits(b));
        if float && fa.is_nan() && fb.is_nan() {
            return None;
        }
        if let (true, Some((u, abs, op))) = (float, tolerance) {
            if within(fa, fb, u, abs) {
                tolerated = Some(op);
                return None;
            }
        }
        let (x, y) = (k as u32 % WIDTH, k as u32 / WIDTH);
        Some(format!("differs: {what} pixel ({x}, {y}): exec {a:#010x} lavapipe {b:#010x}"))
    };
    // Both sides must have every target, every pixel of it, and depth alike.
    if expected.0.len() != iface.targets.len() || got.targets.len() != iface.targets.len() {
        return format!(
            "differs: {} targets, exec {} lavapipe {}",
            iface.targets.len(),
            expected.0.len(),
            got.targets.len()
        );
    }
    if let Some((location, e, g)) = iface
        .targets
        .iter()
        .zip(expected.0.iter().zip(&got.targets))
        .find_map(|((location, _), (e, g))| (e.len() != g.len()).then_some((location, e.len(), g.len())))
    {
        return format!("differs: o{location} has {e} pixels in exec, {g} in lavapipe");
    }
    match (&expected.1, &got.depth) {
        (Some(e), Some(g)) if e.len() != g.len() => {
            return format!("differs: depth has {} pixels in exec, {} in lavapipe", e.len(), g.len())
        }
        (Some(_), None) | (None, Some(_)) => {
            return format!("differs: depth written by {}", if expected.1.is_some() { "exec" } else { "lavapipe" })
        }
        _ => {}
    }
    for ((location, kind), (e, g)) in iface.targets.iter().zip(expected.0.iter().zip(&got.targets)) {
        for (k, (a, b)) in e.iter().zip(g).enumerate() {
            for c in 0..4 {
                let what = format!("o{location}.{}", b"xyzw"[c] as char);
                if let Some(d) = check(&what, k, a[c], b[c], *kind == TargetKind::Float) {
                    return d;
                }
            }
        }
    }
    if let (Some(e), Some(g)) = (&expected.1, &got.depth) {
        for (k, (a, b)) in e.iter().zip(g).enumerate() {
            if let Some(d) = check("depth", k, a.to_bits(), b.to_bits(), true) {
                return d;
            }
        }
    }
    // UAV memory, word by word (NaNs equal, tolerance as for the targets).
    if let Some(d) = uav_difference(slots, &expected.2, &got.uavs, tolerance, &mut tolerated) {
        return d;
    }
    match tolerated {
        Some(op) => format!("within tolerance ({})", op.mnemonic()),
        None => "exact".into(),
    }
}

/// The class instances both sides bind, derived from the interface declarations alone:
/// element `k` of `dcl_interface fp#[n] = {ft...}` (slot `fp# + k`) gets the table
/// listed at `(k + 1) mod count` (so that element 0 is not the default table wherever
/// there is a choice, and an array's elements differ), and `this` = (the first bound
/// constant buffer, vector `2 · slot + 1` in it, SRV slot `T + slot`, the first
/// sampler), `T` one past the highest SRV slot the program declares. A uniformly
/// indexed `t[r# + k]` (spec 7.11; undeclared, as fxc writes a class's texture) gets a
/// float 2D texture ([`Data::odd_texture`]) at every slot `this.z + k` of the binding
/// (what the translation specialises the index to); other kinds are not compared.
pub fn class_instances(program: &tpf::Program<'_>, data: &mut Data, rng: &mut Rng) -> Result<ClassInstances, String> {
    let interfaces = tpf::interfaces::Interfaces::of(program);
    let mut instances = ClassInstances::new();
    if interfaces.is_empty() {
        return Ok(instances);
    }
    let cb = data.cbs.keys().next().copied().unwrap_or(0);
    let sampler = data.samplers.first().copied().unwrap_or(0);
    let first_texture = data.srvs.keys().next_back().map_or(0, |s| s + 1);
    for f in &interfaces.interfaces {
        for k in 0..f.array_length {
            let slot = f.id + k;
            let Some(&table) = f.tables.get(((k + 1) as usize) % f.tables.len().max(1)) else { continue };
            instances.bind(slot, ClassInstance { table, this: [cb, 2 * slot + 1, first_texture + slot, sampler] });
        }
    }
    for ins in program.iter() {
        for o in ins.operands().iter().filter(|o| o.ty == tpf::OperandType::Resource) {
            let k = match o.index(0) {
                Some(tpf::Index::Relative(_)) => 0,
                Some(tpf::Index::Imm32Relative(k, _)) => k,
                _ => continue,
            };
            let dim = ins.ext().iter().find_map(|e| match e {
                tpf::ExtOpcode::ResourceDim { dim, .. } => Some(*dim),
                _ => None,
            });
            let float = ins
                .ext()
                .iter()
                .any(|e| matches!(e, tpf::ExtOpcode::ReturnType { types, .. } if types[0] == tpf::ReturnType::Float));
            if dim != Some(tpf::ResourceDimension::Texture2D) || !float {
                return Err("a uniformly indexed resource other than a float 2D texture".into());
            }
            for slot in 0..interfaces.slots() {
                data.odd_texture(instances.this(slot)[2] + k, rng);
            }
        }
    }
    Ok(instances)
}

pub fn program_of(bytes: &[u8]) -> Option<tpf::Program<'_>> {
    let container = dxbc::Container::parse(bytes).ok()?;
    let chunk = container.chunk_any(&[dxbc::FourCc::SHEX, dxbc::FourCc::SHDR])?;
    tpf::decode(chunk.data).ok()
}

/// Set by a trace: every word compared bit for bit (no tolerance), so that the first
/// difference is shown with its values.
pub static BIT_FOR_BIT: AtomicBool = AtomicBool::new(false);
/// Set by a trace: 1 + the pixel whose `o0` words both sides wrote are printed.
pub static SHOW_PIXEL: AtomicU32 = AtomicU32::new(0);

/// What a test draws for one shader, given its plan, data, class instances, translated
/// module and interface: exec's outputs and lavapipe's, or the outcome line saying why
/// they are not compared.
pub type Draw<'a> = dyn FnOnce(
        &Plan,
        &Data,
        &ClassInstances,
        naga::Module,
        &pixel_harness::Interface,
        &mut Rng,
    ) -> Result<(Expected, pixel_harness::Rendered), String>
    + 'a;

/// Runs one pixel shader (a container) both ways: its resources generated from the
/// program under `policy` (with float 2D textures of a size that is not a power of two
/// at the SRV slots `odd`), the class instances, the translation; `draw` makes both
/// sides' outputs, compared by [`compare`] within the program's tolerance. The outcome
/// line.
pub fn outcome_of(
    bytes: &[u8],
    program: &tpf::Program<'_>,
    id: &str,
    policy: Policy,
    odd: &[u32],
    draw: Box<Draw<'_>>,
) -> String {
    let plan = match Plan::from_bytecode(bytes) {
        Ok(p) => p,
        Err(err) => return corpus::expect::one_line(&format!("not compared: exec: {err}")),
    };
    let mut rng = Rng(resources::seed(id) | 1);
    let mut data = match program_data(program, &mut rng, policy, None) {
        Ok(d) => d,
        Err(why) => return format!("not compared: {why}"),
    };
    for &slot in odd {
        data.odd_texture(slot, &mut rng);
    }
    let instances = match class_instances(program, &mut data, &mut rng) {
        Ok(c) => c,
        Err(why) => return format!("not compared: {why}"),
    };
    let options =
        translate::Options { bindings: data.bindings(), class_instances: instances.clone(), ..Default::default() };
    let module = match translate::module(bytes, &options) {
        Ok(m) => m,
        Err(err) => return format!("not compared: translate: {}", corpus::expect::one_line(&err.to_string())),
    };
    let iface = match pixel_harness::interface(&module) {
        Ok(i) => i,
        Err(err) => return format!("not compared: {err}"),
    };
    let (expected, mut got) = match draw(&plan, &data, &instances, module, &iface, &mut rng) {
        Ok(both) => both,
        Err(line) => return line,
    };
    // The counters after the UAVs are not compared.
    got.uavs.truncate(data.uavs.len());
    let slots: Vec<u32> = data.uavs.keys().copied().collect();
    let tolerance = if BIT_FOR_BIT.load(Ordering::Relaxed) { None } else { tolerance(program) };
    let outcome = compare(&iface, &slots, &expected, &got, tolerance);
    if let Some(at) = SHOW_PIXEL.load(Ordering::Relaxed).checked_sub(1) {
        let words = |t: Option<&Vec<[u32; 4]>>| t.and_then(|t| t.get(at as usize).copied()).unwrap_or_default();
        let (e, g) = (words(expected.0.first()), words(got.targets.first()));
        println!(
            "        exec {e:08x?} {:?}\n        lavapipe {g:08x?} {:?}",
            e.map(f32::from_bits),
            g.map(f32::from_bits)
        );
    }
    if iface.targets.is_empty() && !iface.depth && data.uavs.is_empty() {
        return format!("{outcome}, but writes no render target");
    }
    outcome
}

/// A test's outcome line of one shader (a container, its program, its id).
pub type Outcome = dyn Fn(&Gpu, &[u8], &tpf::Program<'_>, &str) -> String;

/// `DXREF_TRACE=<entry>`: the entry cut after each instruction (`support/cut.rs`)
/// through `outcome`, up to the first cut that is not `exact`, printing the `o0` words
/// of both sides at the pixel the difference names (and the three others of its quad
/// with `quad`, a derivative or a footprint reading all four).
/// `DXREF_TRACE_TOLERANT=1`: within the program's tolerance counts as `exact` (the
/// first difference past it is found, past an approximated `log` say).
pub fn trace(test: &str, quad: bool, outcome: &Outcome) {
    let Some(id) = std::env::var("DXREF_TRACE").ok() else { return };
    let Some(entries) = corpus::dxbc_entries(test) else { return };
    one_lavapipe_thread();
    let Some(gpu) = device_or_skip(test) else { return };
    let entry = entries.iter().find(|e| e.id() == id).unwrap_or_else(|| panic!("no entry {id}"));
    let tolerant = std::env::var("DXREF_TRACE_TOLERANT").is_ok_and(|v| v == "1");
    BIT_FOR_BIT.store(!tolerant, Ordering::Relaxed);
    let run = |bytes: &[u8]| match program_of(bytes) {
        Some(p) => {
            let line = outcome(&gpu, bytes, &p, &id);
            if line.starts_with("within tolerance") {
                "exact".into()
            } else {
                line
            }
        }
        None => "no decodable program".into(),
    };
    let show = |bytes: &[u8], line: &str| {
        let Some((x, y)) = line.split("pixel (").nth(1).and_then(|r| r.split(')').next()).and_then(|xy| {
            let (x, y) = xy.split_once(", ")?;
            Some((x.parse::<u32>().ok()?, y.parse::<u32>().ok()?))
        }) else {
            return;
        };
        let pixels: Vec<(u32, u32)> =
            if quad { (0..4).map(|k| ((x & !1) + (k & 1), (y & !1) + (k >> 1))).collect() } else { vec![(x, y)] };
        for (px, py) in pixels {
            println!("      pixel ({px}, {py}):");
            SHOW_PIXEL.store(py * WIDTH + px + 1, Ordering::Relaxed);
            run(bytes);
        }
        SHOW_PIXEL.store(0, Ordering::Relaxed);
    };
    println!("{id}: {:?}", cut::first_difference(&entry.bytes(), &run, &show));
}

/// A listing assembled into a container (signatures and all), as `fxc /Fc` would give.
pub fn assembled(text: &str) -> Vec<u8> {
    listing::asm::assemble(text, &listing::asm::AsmOptions::default())
        .unwrap_or_else(|e| panic!("assembling:\n{text}\n{e:#?}"))
        .bytes
}
