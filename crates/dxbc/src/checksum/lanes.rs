//! Many MD5 streams at once, one per lane of an x86_64 vector register: 4 lanes per
//! register with SSE2 (every x86_64 CPU), 8 with AVX2, 16 with AVX-512F.
//!
//! A kernel runs the compression function on one block of every lane per step: it loads
//! each lane's 64-byte block as vectors, transposes them so that vector `j` holds message
//! word `j` of every lane, and runs the 64 steps on four vectors of state words. Which
//! block each lane reads, and what a lane does when its stream ends, is the scheduler's
//! business (`super::schedule`); a kernel only sees `blocks` blocks of each lane's segment.
//!
//! Each step of MD5 waits for the step before it, so one register's worth of lanes
//! leaves most of the vector units idle (on the CPUs this was measured on, a vector add
//! takes two cycles and a step chains four to six operations). A kernel therefore runs
//! several independent groups of lanes side by side, each in its own registers, and
//! the CPU overlaps their chains: `GROUPS_*` below, chosen by measurement
//! (`benches/benches/checksum.rs`).
//!
//! The kernel is written once, [`kernel`], generic over [`LaneOps`] (the operations on
//! one register of lanes: add, the bitwise operations, rotation, broadcast, loads and
//! stores), with the 64 steps of the schedule the single-stream code runs too
//! ([`md5_steps`]). Each width is a zero-sized token type that can only be made after
//! the run-time check of its feature, and [`lane_ops!`] gives it [`LaneOps`] from its
//! intrinsics and a [`Lanes::compress`] that calls the kernel through a
//! `#[target_feature]` entry point, where the kernel, the operations and the width's
//! block load and transpose are inlined and compiled for that feature. `unsafe` appears
//! only for that call, for each operation's intrinsic (sound because a token exists)
//! and for the unaligned vector loads and stores, each with its reason. The
//! whole-module lint denial of the checksum (no unchecked arithmetic or indexing) holds
//! here too: message words are indexed by constants, groups are walked with iterators,
//! and arrays are taken apart by destructuring.

use core::arch::x86_64::*;

use super::block::md5_steps;
use super::block::K;
use super::schedule::{Lanes, Segment};

/// The round functions of MD5 (RFC 1321, section 3.4), each of a step's words `(b, c, d)`.
#[derive(Clone, Copy)]
enum Round {
    /// Round 1: `(b & c) | (!b & d)`.
    F,
    /// Round 2: `(b & d) | (c & !d)`.
    G,
    /// Round 3: `b ^ c ^ d`.
    H,
    /// Round 4: `c ^ (b | !d)`.
    I,
}

/// The 8-bit truth tables of the four round functions for `vpternlogd`, whose three
/// inputs are the step's words `(b, c, d)` (newest first): an expression in the bit
/// patterns of the inputs is the table of that expression.
mod table {
    const B: u8 = 0xf0;
    const C: u8 = 0xcc;
    const D: u8 = 0xaa;
    /// Round 1: `(b & c) | (!b & d)`.
    pub(super) const F: i32 = ((B & C) | (!B & D)) as i32;
    /// Round 2: `(b & d) | (c & !d)`.
    pub(super) const G: i32 = ((B & D) | (C & !D)) as i32;
    /// Round 3: `b ^ c ^ d`.
    pub(super) const H: i32 = (B ^ C ^ D) as i32;
    /// Round 4: `c ^ (b | !d)`.
    pub(super) const I: i32 = (C ^ (B | !D)) as i32;
}

/// The operations the kernel is written in, on registers of `W` 32-bit lanes: all that
/// differs between the register widths but the load of a block of every lane (see
/// [`kernel`]). Implemented by the token types, which exist only where the CPU has the
/// instructions; every method is inlined into the `#[target_feature]` entry point of
/// its width.
trait LaneOps<const W: usize>: Copy {
    /// A register of `W` lanes.
    type V: Copy;
    /// `w` in every lane.
    fn splat(self, w: u32) -> Self::V;
    /// Lane `l` from `words[l]`.
    fn load(self, words: &[u32; W]) -> Self::V;
    /// Lane `l` into `words[l]`.
    fn store(self, words: &mut [u32; W], v: Self::V);
    /// `a + b` lane by lane, wrapping.
    fn add(self, a: Self::V, b: Self::V) -> Self::V;
    /// `a & b`.
    fn and(self, a: Self::V, b: Self::V) -> Self::V;
    /// `a | b`.
    fn or(self, a: Self::V, b: Self::V) -> Self::V;
    /// `a ^ b`.
    fn xor(self, a: Self::V, b: Self::V) -> Self::V;
    /// `!a & b`.
    fn andnot(self, a: Self::V, b: Self::V) -> Self::V;
    /// `v <<< S` lane by lane; `R` is `32 - S` (a const generic cannot compute it), for
    /// the widths that rotate with two shifts.
    fn rol<const S: i32, const R: i32>(self, v: Self::V) -> Self::V;
    /// Round function `r` of `(b, c, d)`, lane by lane; by default written as in the
    /// scalar code.
    #[inline(always)]
    fn round(self, r: Round, b: Self::V, c: Self::V, d: Self::V) -> Self::V {
        match r {
            Round::F => self.xor(d, self.and(b, self.xor(c, d))),
            // `(b & d) | (c & !d)`: the sides share no bit, so `|` is `+`.
            Round::G => self.add(self.andnot(d, c), self.and(b, d)),
            Round::H => self.xor(b, self.xor(c, d)),
            Round::I => self.xor(c, self.or(b, self.xor(d, self.splat(u32::MAX)))),
        }
    }
}

/// The compression function on `blocks` blocks of each of `L = W * G` lanes: `G` groups
/// of `W` lanes, each group in its own registers. Loads the state of every group, then
/// for each block loads every group's blocks with `load_block` (block `i` of each lane,
/// transposed: word `j` of every lane in vector `j`) and runs the 64 steps, then stores
/// the state. Inlined into each width's `#[target_feature]` entry point, whose closure
/// `load_block` calls that width's `#[target_feature]` block load with no `unsafe` and
/// is inlined with it (through a [`LaneOps`] method the block load would be a function
/// other crates may call, and the compiler declines to inline the widest one).
#[inline(always)]
fn kernel<O: LaneOps<W>, const W: usize, const G: usize, const L: usize>(
    o: O,
    load_block: impl Fn(&[Segment; W], usize) -> [O::V; 16],
    state: &mut [[u32; L]; 4],
    segments: &[Segment; L],
    blocks: usize,
) {
    const { assert!(matches!(W.checked_mul(G), Some(l) if l == L)) };
    let zero = o.splat(0);
    let mut s = [[zero; G]; 4];
    for (regs, row) in s.iter_mut().zip(state.iter()) {
        for (r, words) in regs.iter_mut().zip(row.as_chunks::<W>().0) {
            *r = o.load(words);
        }
    }
    let lane_groups = segments.as_chunks::<W>().0;
    // One step for every group: `a = b + ((a + f(b, c, d) + x[m] + k[i]) <<< s)`.
    macro_rules! step {
        ($f:ident, $x:ident, $k:ident, $a:ident, $b:ident, $c:ident, $d:ident, $m:literal, $i:literal, $s:literal) => {
            let kv = o.splat($k[$i]);
            for (((a, b), (c, d)), x) in $a.iter_mut().zip($b).zip($c.into_iter().zip($d)).zip(&$x) {
                let t = o.add(o.add(*a, x[$m]), kv);
                let t = o.add(t, o.round(Round::$f, b, c, d));
                *a = o.add(o.rol::<$s, { 32i32.wrapping_sub($s) }>(t), b);
            }
        };
    }
    for i in 0..blocks {
        let k: &[u32; 64] = core::hint::black_box(&K);
        let mut x = [[zero; 16]; G];
        for (words, group) in x.iter_mut().zip(lane_groups) {
            *words = load_block(group, i);
        }
        let [mut a, mut b, mut c, mut d] = s;
        md5_steps!(step, x, k; a, b, c, d);
        for (regs, new) in s.iter_mut().zip([a, b, c, d]) {
            for (r, v) in regs.iter_mut().zip(new) {
                *r = o.add(*r, v);
            }
        }
    }
    for (regs, row) in s.iter().zip(state.iter_mut()) {
        for (r, words) in regs.iter().zip(row.as_chunks_mut::<W>().0) {
            o.store(words, *r);
        }
    }
}

/// One width: [`LaneOps`] for the token `$token` (`$w` lanes of `$v` with the
/// instructions of `$feature`) from the intrinsics named for broadcast, loads and stores,
/// the rotation (`native`, or `shifts` left and right joined by `or`), each binary
/// operation `$op` (every one [`LaneOps`] lists, as the compiler checks), then the
/// methods in `$more` (a round function of its own); and its [`Lanes`] of `$lanes` lanes
/// in `$groups` groups, through a `#[target_feature]` entry point whose closure calls
/// `$block`, the function that loads a block of every lane.
///
/// Every `unsafe` below calls an intrinsic or a `#[target_feature]` function of
/// `$feature` (and the loads and stores read or write through a pointer): sound because
/// a value of `$token` exists only where the CPU has `$feature`.
macro_rules! lane_ops {
    (
        $token:ident: $feature:literal, $w:literal lanes of $v:ty, $groups:ident groups, $lanes:ident lanes {
            splat: $splat:ident, load: $load:ident, store: $store:ident,
            rotate: $rotate:ident $rol:tt, block: $block:ident,
            $($op:ident: $intrinsic:ident),+ $(,)?
        }
        $($more:tt)*
    ) => {
        impl LaneOps<$w> for $token {
            type V = $v;
            lane_ops!(@rol $v, $rotate $rol);
            #[inline(always)]
            fn splat(self, w: u32) -> $v {
                // SAFETY: `self` proves the CPU has the instruction (see `lane_ops!`).
                unsafe { $splat(w as i32) }
            }
            #[inline(always)]
            fn load(self, words: &[u32; $w]) -> $v {
                // SAFETY: `self` proves the CPU has the instruction; the reference covers
                // the bytes of the register read; the load has no alignment requirement.
                unsafe { $load(words.as_ptr().cast()) }
            }
            #[inline(always)]
            fn store(self, words: &mut [u32; $w], v: $v) {
                // SAFETY: `self` proves the CPU has the instruction; the exclusive
                // reference covers the bytes of the register written; the store has no
                // alignment requirement.
                unsafe { $store(words.as_mut_ptr().cast(), v) }
            }
            $(
                #[inline(always)]
                fn $op(self, a: $v, b: $v) -> $v {
                    // SAFETY: `self` proves the CPU has the instruction (see `lane_ops!`).
                    unsafe { $intrinsic(a, b) }
                }
            )+
            $($more)*
        }

        impl Lanes<$lanes> for $token {
            fn compress(&self, state: &mut [[u32; $lanes]; 4], segments: &[Segment; $lanes], blocks: usize) {
                /// The kernel compiled for the token's instructions.
                #[target_feature(enable = $feature)]
                fn entry(o: $token, state: &mut [[u32; $lanes]; 4], segments: &[Segment; $lanes], blocks: usize) {
                    kernel::<$token, $w, $groups, $lanes>(o, |group, i| $block(group, i), state, segments, blocks);
                }
                // SAFETY: `entry` needs the token's feature, and `self` proves the CPU
                // has it.
                unsafe { entry(*self, state, segments, blocks) }
            }
        }
    };
    (@rol $v:ty, native($rol:ident)) => {
        #[inline(always)]
        fn rol<const S: i32, const R: i32>(self, v: $v) -> $v {
            // SAFETY: `self` proves the CPU has the instruction (see `lane_ops!`).
            unsafe { $rol::<S>(v) }
        }
    };
    (@rol $v:ty, shifts($shl:ident, $shr:ident, $or:ident)) => {
        #[inline(always)]
        fn rol<const S: i32, const R: i32>(self, v: $v) -> $v {
            const { assert!(matches!(S.checked_add(R), Some(32))) };
            // SAFETY: `self` proves the CPU has the instructions (see `lane_ops!`).
            unsafe { $or($shl::<S>(v), $shr::<R>(v)) }
        }
    };
}

// ---------------------------------------------------------------------------------
// AVX-512F: 16 lanes per register.

/// Groups of 16 lanes per AVX-512 kernel call.
const GROUPS_512: usize = 2;
/// Lanes per AVX-512 kernel call.
pub(super) const LANES_512: usize = 16 * GROUPS_512;

/// Proof that the CPU has AVX-512F: made only by [`Avx512::detect`].
#[derive(Clone, Copy)]
pub(super) struct Avx512(());

impl Avx512 {
    pub(super) fn detect() -> Option<Avx512> {
        is_x86_feature_detected!("avx512f").then_some(Avx512(()))
    }
}

lane_ops! {
    Avx512: "avx512f", 16 lanes of __m512i, GROUPS_512 groups, LANES_512 lanes {
        splat: _mm512_set1_epi32, load: _mm512_loadu_si512, store: _mm512_storeu_si512,
        rotate: native(_mm512_rol_epi32), block: load_group512,
        add: _mm512_add_epi32, and: _mm512_and_si512, or: _mm512_or_si512,
        xor: _mm512_xor_si512, andnot: _mm512_andnot_si512,
    }
    /// One `vpternlogd`.
    #[inline(always)]
    fn round(self, r: Round, b: __m512i, c: __m512i, d: __m512i) -> __m512i {
        // SAFETY: `self` proves the CPU has AVX-512F.
        unsafe {
            match r {
                Round::F => _mm512_ternarylogic_epi32::<{ table::F }>(b, c, d),
                Round::G => _mm512_ternarylogic_epi32::<{ table::G }>(b, c, d),
                Round::H => _mm512_ternarylogic_epi32::<{ table::H }>(b, c, d),
                Round::I => _mm512_ternarylogic_epi32::<{ table::I }>(b, c, d),
            }
        }
    }
}

#[target_feature(enable = "avx512f")]
fn load512(bytes: &[u8; 64]) -> __m512i {
    // SAFETY: the reference covers the 64 bytes read; the load has no alignment
    // requirement.
    unsafe { _mm512_loadu_si512(bytes.as_ptr().cast()) }
}

/// Block `i` of each of 16 lanes, transposed: word `j` of every lane in vector `j`.
#[target_feature(enable = "avx512f")]
fn load_group512(segments: &[Segment; 16], i: usize) -> [__m512i; 16] {
    let [s0, s1, s2, s3, s4, s5, s6, s7, s8, s9, s10, s11, s12, s13, s14, s15] = segments;
    macro_rules! row {
        ($s:ident) => {
            load512($s.block(i))
        };
    }
    transpose16([
        row!(s0),
        row!(s1),
        row!(s2),
        row!(s3),
        row!(s4),
        row!(s5),
        row!(s6),
        row!(s7),
        row!(s8),
        row!(s9),
        row!(s10),
        row!(s11),
        row!(s12),
        row!(s13),
        row!(s14),
        row!(s15),
    ])
}

/// Rows (one lane's block each) to columns (one message word of every lane each): a
/// 16 x 16 transpose of 32-bit words in four rounds of shuffles. After the 32-bit and
/// 64-bit interleaves, vector `4m + j` holds in its 128-bit part `q` word `4q + j` of
/// lanes `4m..4m + 4`; the two 128-bit shuffles then gather part `q` of the four
/// vectors `j, 4 + j, 8 + j, 12 + j` into word `4q + j`.
#[target_feature(enable = "avx512f")]
fn transpose16(rows: [__m512i; 16]) -> [__m512i; 16] {
    let [r0, r1, r2, r3, r4, r5, r6, r7, r8, r9, r10, r11, r12, r13, r14, r15] = rows;
    let lo32 = |x, y| _mm512_unpacklo_epi32(x, y);
    let hi32 = |x, y| _mm512_unpackhi_epi32(x, y);
    let lo64 = |x, y| _mm512_unpacklo_epi64(x, y);
    let hi64 = |x, y| _mm512_unpackhi_epi64(x, y);
    let (a0, a1, a2, a3) = (lo32(r0, r1), hi32(r0, r1), lo32(r2, r3), hi32(r2, r3));
    let (a4, a5, a6, a7) = (lo32(r4, r5), hi32(r4, r5), lo32(r6, r7), hi32(r6, r7));
    let (a8, a9, a10, a11) = (lo32(r8, r9), hi32(r8, r9), lo32(r10, r11), hi32(r10, r11));
    let (a12, a13, a14, a15) = (lo32(r12, r13), hi32(r12, r13), lo32(r14, r15), hi32(r14, r15));
    let (b0, b1, b2, b3) = (lo64(a0, a2), hi64(a0, a2), lo64(a1, a3), hi64(a1, a3));
    let (b4, b5, b6, b7) = (lo64(a4, a6), hi64(a4, a6), lo64(a5, a7), hi64(a5, a7));
    let (b8, b9, b10, b11) = (lo64(a8, a10), hi64(a8, a10), lo64(a9, a11), hi64(a9, a11));
    let (b12, b13, b14, b15) = (lo64(a12, a14), hi64(a12, a14), lo64(a13, a15), hi64(a13, a15));
    // For one `j`: parts 0, 1 of `j` and `4 + j`, parts 2, 3 of them, and the same of
    // `8 + j` and `12 + j`; then word `j` (parts 0 in order), `4 + j`, `8 + j`, `12 + j`.
    let gather = |v0, v4, v8, v12| {
        let c0 = _mm512_shuffle_i32x4::<0x44>(v0, v4);
        let c1 = _mm512_shuffle_i32x4::<0xee>(v0, v4);
        let c2 = _mm512_shuffle_i32x4::<0x44>(v8, v12);
        let c3 = _mm512_shuffle_i32x4::<0xee>(v8, v12);
        (
            _mm512_shuffle_i32x4::<0x88>(c0, c2),
            _mm512_shuffle_i32x4::<0xdd>(c0, c2),
            _mm512_shuffle_i32x4::<0x88>(c1, c3),
            _mm512_shuffle_i32x4::<0xdd>(c1, c3),
        )
    };
    let (w0, w4, w8, w12) = gather(b0, b4, b8, b12);
    let (w1, w5, w9, w13) = gather(b1, b5, b9, b13);
    let (w2, w6, w10, w14) = gather(b2, b6, b10, b14);
    let (w3, w7, w11, w15) = gather(b3, b7, b11, b15);
    [w0, w1, w2, w3, w4, w5, w6, w7, w8, w9, w10, w11, w12, w13, w14, w15]
}

// ---------------------------------------------------------------------------------
// AVX2: 8 lanes per register.

/// Groups of 8 lanes per AVX2 kernel call.
const GROUPS_256: usize = 3;
/// Lanes per AVX2 kernel call.
pub(super) const LANES_256: usize = 8 * GROUPS_256;

/// Proof that the CPU has AVX2: made only by [`Avx2::detect`].
#[derive(Clone, Copy)]
pub(super) struct Avx2(());

impl Avx2 {
    pub(super) fn detect() -> Option<Avx2> {
        is_x86_feature_detected!("avx2").then_some(Avx2(()))
    }
}

lane_ops! {
    Avx2: "avx2", 8 lanes of __m256i, GROUPS_256 groups, LANES_256 lanes {
        splat: _mm256_set1_epi32, load: _mm256_loadu_si256, store: _mm256_storeu_si256,
        // AVX2 has no rotation.
        rotate: shifts(_mm256_slli_epi32, _mm256_srli_epi32, _mm256_or_si256), block: load_group256,
        add: _mm256_add_epi32, and: _mm256_and_si256, or: _mm256_or_si256,
        xor: _mm256_xor_si256, andnot: _mm256_andnot_si256,
    }
}

/// The two halves of a 64-byte block: words 0 to 7 and 8 to 15.
#[target_feature(enable = "avx2")]
fn load256_halves(bytes: &[u8; 64]) -> (__m256i, __m256i) {
    let p = bytes.as_ptr();
    // SAFETY: both 32-byte reads lie inside the 64 bytes the reference covers (at 0
    // and 32); the loads have no alignment requirement.
    unsafe { (_mm256_loadu_si256(p.cast()), _mm256_loadu_si256(p.wrapping_add(32).cast())) }
}

/// Block `i` of each of 8 lanes, transposed: word `j` of every lane in vector `j`.
#[target_feature(enable = "avx2")]
fn load_group256(segments: &[Segment; 8], i: usize) -> [__m256i; 16] {
    let [s0, s1, s2, s3, s4, s5, s6, s7] = segments;
    macro_rules! row {
        ($s:ident) => {
            load256_halves($s.block(i))
        };
    }
    let (l0, h0) = row!(s0);
    let (l1, h1) = row!(s1);
    let (l2, h2) = row!(s2);
    let (l3, h3) = row!(s3);
    let (l4, h4) = row!(s4);
    let (l5, h5) = row!(s5);
    let (l6, h6) = row!(s6);
    let (l7, h7) = row!(s7);
    let [w0, w1, w2, w3, w4, w5, w6, w7] = transpose8([l0, l1, l2, l3, l4, l5, l6, l7]);
    let [w8, w9, w10, w11, w12, w13, w14, w15] = transpose8([h0, h1, h2, h3, h4, h5, h6, h7]);
    [w0, w1, w2, w3, w4, w5, w6, w7, w8, w9, w10, w11, w12, w13, w14, w15]
}

/// An 8 x 8 transpose of 32-bit words: as in [`transpose16`], after the two interleaves
/// vector `4m + j` holds in its 128-bit half `q` word `4q + j` of lanes `4m..4m + 4`,
/// and one 128-bit permute per word pairs the halves `q` of vectors `j` and `4 + j`.
#[target_feature(enable = "avx2")]
fn transpose8(rows: [__m256i; 8]) -> [__m256i; 8] {
    let [r0, r1, r2, r3, r4, r5, r6, r7] = rows;
    let lo32 = |x, y| _mm256_unpacklo_epi32(x, y);
    let hi32 = |x, y| _mm256_unpackhi_epi32(x, y);
    let lo64 = |x, y| _mm256_unpacklo_epi64(x, y);
    let hi64 = |x, y| _mm256_unpackhi_epi64(x, y);
    let (a0, a1, a2, a3) = (lo32(r0, r1), hi32(r0, r1), lo32(r2, r3), hi32(r2, r3));
    let (a4, a5, a6, a7) = (lo32(r4, r5), hi32(r4, r5), lo32(r6, r7), hi32(r6, r7));
    let (b0, b1, b2, b3) = (lo64(a0, a2), hi64(a0, a2), lo64(a1, a3), hi64(a1, a3));
    let (b4, b5, b6, b7) = (lo64(a4, a6), hi64(a4, a6), lo64(a5, a7), hi64(a5, a7));
    let low = |x, y| _mm256_permute2x128_si256::<0x20>(x, y);
    let high = |x, y| _mm256_permute2x128_si256::<0x31>(x, y);
    [low(b0, b4), low(b1, b5), low(b2, b6), low(b3, b7), high(b0, b4), high(b1, b5), high(b2, b6), high(b3, b7)]
}

// ---------------------------------------------------------------------------------
// SSE2: 4 lanes per register, on every x86_64 CPU.

/// Groups of 4 lanes per SSE2 kernel call.
const GROUPS_128: usize = 3;
/// Lanes per SSE2 kernel call.
pub(super) const LANES_128: usize = 4 * GROUPS_128;

/// SSE2 is part of x86_64, so this kernel needs no run-time check (the target enables
/// it for all code, but the compiler does not take that as proof for a call of a
/// `#[target_feature]` function).
#[derive(Clone, Copy)]
pub(super) struct Sse2;

lane_ops! {
    Sse2: "sse2", 4 lanes of __m128i, GROUPS_128 groups, LANES_128 lanes {
        splat: _mm_set1_epi32, load: _mm_loadu_si128, store: _mm_storeu_si128,
        rotate: shifts(_mm_slli_epi32, _mm_srli_epi32, _mm_or_si128), block: load_group128,
        add: _mm_add_epi32, and: _mm_and_si128, or: _mm_or_si128,
        xor: _mm_xor_si128, andnot: _mm_andnot_si128,
    }
}

/// The four quarters of a 64-byte block: words 0 to 3, 4 to 7, 8 to 11, 12 to 15.
#[target_feature(enable = "sse2")]
fn load128_quarters(bytes: &[u8; 64]) -> [__m128i; 4] {
    let p = bytes.as_ptr();
    // SAFETY: the four 16-byte reads lie inside the 64 bytes the reference covers (at
    // 0, 16, 32, 48); the loads have no alignment requirement.
    unsafe {
        [
            _mm_loadu_si128(p.cast()),
            _mm_loadu_si128(p.wrapping_add(16).cast()),
            _mm_loadu_si128(p.wrapping_add(32).cast()),
            _mm_loadu_si128(p.wrapping_add(48).cast()),
        ]
    }
}

/// Block `i` of each of 4 lanes, transposed: word `j` of every lane in vector `j`.
#[target_feature(enable = "sse2")]
fn load_group128(segments: &[Segment; 4], i: usize) -> [__m128i; 16] {
    let [s0, s1, s2, s3] = segments;
    let [q00, q01, q02, q03] = load128_quarters(s0.block(i));
    let [q10, q11, q12, q13] = load128_quarters(s1.block(i));
    let [q20, q21, q22, q23] = load128_quarters(s2.block(i));
    let [q30, q31, q32, q33] = load128_quarters(s3.block(i));
    let [w0, w1, w2, w3] = transpose4([q00, q10, q20, q30]);
    let [w4, w5, w6, w7] = transpose4([q01, q11, q21, q31]);
    let [w8, w9, w10, w11] = transpose4([q02, q12, q22, q32]);
    let [w12, w13, w14, w15] = transpose4([q03, q13, q23, q33]);
    [w0, w1, w2, w3, w4, w5, w6, w7, w8, w9, w10, w11, w12, w13, w14, w15]
}

/// A 4 x 4 transpose of 32-bit words: the 32-bit interleave pairs lanes 0, 1 and 2, 3;
/// the 64-bit interleave then joins the pairs.
#[target_feature(enable = "sse2")]
fn transpose4(rows: [__m128i; 4]) -> [__m128i; 4] {
    let [r0, r1, r2, r3] = rows;
    let (a0, a1) = (_mm_unpacklo_epi32(r0, r1), _mm_unpackhi_epi32(r0, r1));
    let (a2, a3) = (_mm_unpacklo_epi32(r2, r3), _mm_unpackhi_epi32(r2, r3));
    [_mm_unpacklo_epi64(a0, a2), _mm_unpackhi_epi64(a0, a2), _mm_unpacklo_epi64(a1, a3), _mm_unpackhi_epi64(a1, a3)]
}
