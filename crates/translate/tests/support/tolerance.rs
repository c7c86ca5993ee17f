//! The precision Direct3D leaves to the device, for the tests that compare translated
//! shaders on lavapipe with the reference interpreter word by word: per instruction, how
//! far a float result may be from the reference's.
//!
//! Included by each such test with `#[path = "support/tolerance.rs"] mod tolerance;`.
#![allow(dead_code)]

use tpf::Opcode;

/// Per instruction: the units in the last place and the absolute difference a float
/// word may differ by when the program uses it (the device's `exp2`, `log2`, `sin`,
/// `cos`, square root and division may be approximations; the reference's are correctly
/// rounded or close to it). `log` and `sincos` also get an absolute bound, for results
/// near zero. `lod` is a `log2` too (of a footprint the translation makes orthogonal in
/// float32, the reference in double precision), with `log`'s bounds.
pub const TOLERANCES: &[(Opcode, u32, f32)] = &[
    (Opcode::Div, 2, 0.0),
    (Opcode::Rcp, 2, 0.0),
    (Opcode::Rsq, 2, 0.0),
    (Opcode::Sqrt, 2, 0.0),
    (Opcode::Exp, 4, 0.0),
    (Opcode::Log, 4, 1.0 / 2_097_152.0),
    (Opcode::SinCos, 4, 1.0 / 2_097_152.0),
    (Opcode::Lod, 4, 1.0 / 2_097_152.0),
];

/// Units in the last place between two finite floats of the same sign (or a huge
/// number when the signs differ and neither is zero).
pub fn ulps(a: f32, b: f32) -> u32 {
    let key = |x: f32| -> i64 {
        let bits = x.to_bits() as i64;
        if bits & 0x8000_0000 != 0 {
            -(bits & 0x7fff_ffff)
        } else {
            bits
        }
    };
    (key(a) - key(b)).unsigned_abs().min(u64::from(u32::MAX)) as u32
}

/// The loosest tolerance of the instructions `program` uses (the largest units in the
/// last place and the largest absolute difference of [`TOLERANCES`] over them), with
/// the instruction that last loosened it.
pub fn tolerance(program: &tpf::Program<'_>) -> Option<(u32, f32, Opcode)> {
    let mut t: Option<(u32, f32, Opcode)> = None;
    for inst in program.iter() {
        if let Some(&(op, u, abs)) = TOLERANCES.iter().find(|(op, ..)| *op == inst.opcode) {
            let (u0, a0, _) = t.unwrap_or((0, 0.0, op));
            if u > u0 || abs > a0 {
                t = Some((u.max(u0), abs.max(a0), op));
            }
        }
    }
    t
}

/// Whether the floats `a` (the reference's) and `b` (the device's) are both finite and
/// at most `ulps_max` units in the last place or `abs` apart.
pub fn within(a: f32, b: f32, ulps_max: u32, abs: f32) -> bool {
    a.is_finite() && b.is_finite() && (ulps(a, b) <= ulps_max || (a - b).abs() <= abs)
}

/// The first difference of the UAVs' memory `expected` (the reference's) and `got`
/// (lavapipe's), slot by slot (`slots`, in order) and word by word, as an outcome line:
/// words equal, both NaN, or floats `within` the program's `tolerance` (which sets
/// `tolerated` to its instruction) are not differences. A UAV one side has and the
/// other lacks (the lists' lengths differ) is a difference.
pub fn uav_difference(
    slots: &[u32],
    expected: &[Vec<u8>],
    got: &[Vec<u8>],
    tolerance: Option<(u32, f32, Opcode)>,
    tolerated: &mut Option<Opcode>,
) -> Option<String> {
    if expected.len() != got.len() || expected.len() != slots.len() {
        let missing = slots.get(expected.len().min(got.len())).map_or_else(|| "?".to_string(), |s| format!("u{s}"));
        return Some(format!(
            "differs: {} UAVs from exec, {} from lavapipe, {} slots ({missing} missing on one side)",
            expected.len(),
            got.len(),
            slots.len()
        ));
    }
    for ((slot, e), g) in slots.iter().zip(expected).zip(got) {
        if e.len() != g.len() {
            return Some(format!("differs: u{slot}: {} bytes from exec, {} from lavapipe", e.len(), g.len()));
        }
        for (k, (a, b)) in e.chunks_exact(4).zip(g.chunks_exact(4)).enumerate() {
            let a = u32::from_le_bytes([a[0], a[1], a[2], a[3]]);
            let b = u32::from_le_bytes([b[0], b[1], b[2], b[3]]);
            let (fa, fb) = (f32::from_bits(a), f32::from_bits(b));
            if a == b || (fa.is_nan() && fb.is_nan()) {
                continue;
            }
            if let Some((u, abs, op)) = tolerance {
                if within(fa, fb, u, abs) {
                    *tolerated = Some(op);
                    continue;
                }
            }
            return Some(format!("differs: u{slot} word {k} (byte {}): exec {a:#010x} lavapipe {b:#010x}", 4 * k));
        }
    }
    None
}
