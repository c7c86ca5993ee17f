//! Thread-group shared memory (`g#`, compute shaders): `ld_raw`, `ld_structured`,
//! `store_raw`, `store_structured` and the atomics on it.
//!
//! A group's shared memory is one array of 32-bit words, every `g#` one after another
//! in declaration order (`dcl_tgsm_raw g#, bytes`; `dcl_tgsm_structured g#, stride,
//! count`). Each access is bounds-checked per 32-bit word against its own `g#`: a raw
//! access is out of bounds past the declared bytes; a structured one when the
//! structure index is not below the count or the word is past the stride.
//!
//! Out-of-bounds accesses are where Direct3D and exec part: Microsoft's `ld_raw`,
//! `ld_structured`, `store_raw` and `store_structured` pages say that an out-of-bounds
//! read of `g#` gives an undefined result and an out-of-bounds write makes the whole
//! contents of all shared memory of the group undefined (unlike `u#`, whose rules are
//! defined: reads give 0, writes are dropped). exec picks the `u#` rules for `g#` too —
//! an out-of-bounds read gives 0, an out-of-bounds write or atomic does nothing (an
//! `imm_atomic_*` returns 0) — which is also what a translation under a
//! read-zero-skip-write bounds policy does, as long as the access stays inside the
//! `g#`'s array (see the `translate` crate's documentation for the one difference: a
//! structured offset past the stride).

use super::{res::atomic_result, ResKind, ResOp};

/// The index in the shared-memory array of word `k` (0..4) of an access at `a` (raw:
/// `a.x` the byte address; structured: `a.x` the structure, `b.x` the byte offset in
/// it), if inside the `g#`.
#[inline]
fn word(r: &ResOp, a: u32, b: u32, k: u32) -> Option<usize> {
    let w = if r.kind == ResKind::Structured {
        let stride = u64::from(r.g_stride);
        let offset = u64::from(b >> 2) + u64::from(k);
        if 4 * (offset + 1) > stride {
            return None;
        }
        u64::from(a) * (stride / 4) + offset
    } else {
        u64::from(a >> 2) + u64::from(k)
    };
    if w >= u64::from(r.g_words) {
        return None;
    }
    usize::try_from(u64::from(r.g_base) + w).ok()
}

/// `ld_raw` (`b` unused) or `ld_structured` of `g#`: four words, 0 where out of bounds.
pub(crate) fn load(mem: &[u32], r: &ResOp, a: [u32; 4], b: [u32; 4]) -> [u32; 4] {
    [0, 1, 2, 3].map(|k| word(r, a[0], b[0], k).and_then(|i| mem.get(i)).copied().unwrap_or(0))
}

/// `store_raw` (`b` unused) or `store_structured` of `g#`: the words of `v` the
/// destination mask selects; out-of-bounds words are dropped.
pub(crate) fn store(mem: &mut [u32], r: &ResOp, a: [u32; 4], b: [u32; 4], v: [u32; 4]) {
    for (k, &value) in v.iter().enumerate() {
        if r.umask & (1 << k) == 0 {
            continue;
        }
        if let Some(m) = word(r, a[0], b[0], k as u32).and_then(|i| mem.get_mut(i)) {
            *m = value;
        }
    }
}

/// `atomic_*` / `imm_atomic_*` on `g#` at address `a` (raw: `a.x`; structured: `a.x`
/// the structure, `a.y` the byte offset) with operands `b.x` (and `c.x`); returns the
/// previous value (0 when out of bounds, where nothing is written).
pub(crate) fn atomic(mem: &mut [u32], r: &ResOp, a: [u32; 4], b: [u32; 4], c: [u32; 4]) -> u32 {
    let Some(m) = word(r, a[0], a[1], 0).and_then(|i| mem.get_mut(i)) else { return 0 };
    let old = *m;
    *m = atomic_result(r.atomic, old, b[0], c[0]);
    old
}
