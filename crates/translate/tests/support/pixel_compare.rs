//! What the lavapipe pixel-shader tests (`lavapipe_pixel`, points;
//! `lavapipe_pixel_derivatives`, triangles) share besides the draw
//! (`support/pixel_harness.rs`): the comparison of the reference's targets, depth and
//! UAVs with lavapipe's ([`compare`]), the class instances both sides bind
//! ([`class_instances`]), the decoding of a container's program.
//!
//! Included with `#[path = "support/pixel_compare.rs"] mod pixel_compare;` next to
//! `support/pixel_harness.rs`, `support/resources.rs` and `support/tolerance.rs`.
#![allow(dead_code)]

use corpus::Rng;
use exec::{ClassInstance, ClassInstances};
use tpf::Opcode;

use super::pixel_harness::{self, Kind as TargetKind, WIDTH};
use super::resources::Data;
use super::tolerance::{uav_difference, within};

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
