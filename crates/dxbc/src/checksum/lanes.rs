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
//! The kernels are `#[target_feature]` functions; each has a zero-sized token type that
//! can only be made after the run-time check of its feature, and the token's
//! [`Lanes::compress`] is the one place that calls the kernel. `unsafe` appears only for
//! that call and for the unaligned vector loads and stores, each with its reason. The
//! whole-module lint denial of the checksum (no unchecked arithmetic or indexing) holds
//! here too: message words are indexed by constants, groups are walked with iterators,
//! and arrays are taken apart by destructuring.

use core::arch::x86_64::*;

use super::block::md5_steps;
use super::block::K;
use super::schedule::{Lanes, Segment};

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

/// The body of a kernel, the same for every register width: load the state of every
/// group, then for each block load and transpose every group's blocks and run the 64
/// steps, then store the state. `$width` lanes per register, `$vec` the register type,
/// `$load_state`/`$store_state` move one register of state words, `$load_group` loads
/// and transposes the blocks of one group, `$add` adds lane by lane, `$step` is one step.
macro_rules! kernel_body {
    (
        $state:ident, $segments:ident, $blocks:ident, $width:literal, $groups:ident, $vec:ty, $zero:expr,
        $load_state:ident, $store_state:ident, $load_group:ident, $add:ident, $step:ident
    ) => {{
        let zero: $vec = $zero;
        let mut s = [[zero; $groups]; 4];
        for (regs, row) in s.iter_mut().zip($state.iter()) {
            for (r, words) in regs.iter_mut().zip(row.as_chunks::<$width>().0) {
                *r = $load_state(words);
            }
        }
        let [mut sa, mut sb, mut sc, mut sd] = s;
        let lane_groups = $segments.as_chunks::<$width>().0;
        for i in 0..$blocks {
            let k: &[u32; 64] = core::hint::black_box(&K);
            let mut x = [[zero; 16]; $groups];
            for (words, group) in x.iter_mut().zip(lane_groups) {
                *words = $load_group(group, i);
            }
            let (mut a, mut b, mut c, mut d) = (sa, sb, sc, sd);
            md5_steps!($step, x, k; a, b, c, d);
            for (s, v) in sa.iter_mut().zip(a) {
                *s = $add(*s, v);
            }
            for (s, v) in sb.iter_mut().zip(b) {
                *s = $add(*s, v);
            }
            for (s, v) in sc.iter_mut().zip(c) {
                *s = $add(*s, v);
            }
            for (s, v) in sd.iter_mut().zip(d) {
                *s = $add(*s, v);
            }
        }
        for (regs, row) in [sa, sb, sc, sd].iter().zip($state.iter_mut()) {
            for (r, words) in regs.iter().zip(row.as_chunks_mut::<$width>().0) {
                $store_state(words, *r);
            }
        }
    }};
}

/// One step for every group: `a = b + ((a + f(b, c, d) + x[m] + k[i]) <<< s)`, where
/// `$f` computes the round function of one group's `(b, c, d)` and `$rol` rotates.
macro_rules! step_groups {
    ($x:ident, $k:ident, $a:ident, $b:ident, $c:ident, $d:ident, $m:literal, $i:literal, $s:literal,
     $add:ident, $set1:ident, |$vb:ident, $vc:ident, $vd:ident| $f:expr, $rol:ident) => {
        let kv = $set1($k[$i] as i32);
        for (((a, $vb), ($vc, $vd)), x) in $a.iter_mut().zip($b).zip($c.into_iter().zip($d)).zip(&$x) {
            let t = $add($add(*a, x[$m]), kv);
            let t = $add(t, $f);
            *a = $add($rol!(t, $s), $vb);
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

impl Lanes<LANES_512> for Avx512 {
    fn compress(&self, state: &mut [[u32; LANES_512]; 4], segments: &[Segment; LANES_512], blocks: usize) {
        // SAFETY: `compress512` needs AVX-512F, and an `Avx512` exists only where
        // `is_x86_feature_detected!("avx512f")` said the CPU has it.
        unsafe { compress512(state, segments, blocks) }
    }
}

#[target_feature(enable = "avx512f")]
fn load512(bytes: &[u8; 64]) -> __m512i {
    // SAFETY: the reference covers the 64 bytes read; the load has no alignment
    // requirement.
    unsafe { _mm512_loadu_si512(bytes.as_ptr().cast()) }
}

#[target_feature(enable = "avx512f")]
fn load512_words(words: &[u32; 16]) -> __m512i {
    // SAFETY: the reference covers the 64 bytes read; the load has no alignment
    // requirement.
    unsafe { _mm512_loadu_si512(words.as_ptr().cast()) }
}

#[target_feature(enable = "avx512f")]
fn store512_words(words: &mut [u32; 16], v: __m512i) {
    // SAFETY: the exclusive reference covers the 64 bytes written; the store has no
    // alignment requirement.
    unsafe { _mm512_storeu_si512(words.as_mut_ptr().cast(), v) }
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

macro_rules! rol512 {
    ($v:expr, $s:literal) => {
        _mm512_rol_epi32::<$s>($v)
    };
}

/// One step on 16 lanes per group: the round function is one `vpternlogd`, the
/// rotation one `vprold`.
macro_rules! step512 {
    ($f:ident, $x:ident, $k:ident, $a:ident, $b:ident, $c:ident, $d:ident, $m:literal, $i:literal, $s:literal) => {
        step_groups!(
            $x,
            $k,
            $a,
            $b,
            $c,
            $d,
            $m,
            $i,
            $s,
            _mm512_add_epi32,
            _mm512_set1_epi32,
            |b, c, d| _mm512_ternarylogic_epi32::<{ table::$f }>(b, c, d),
            rol512
        );
    };
}

#[target_feature(enable = "avx512f")]
fn compress512(state: &mut [[u32; LANES_512]; 4], segments: &[Segment; LANES_512], blocks: usize) {
    kernel_body!(
        state,
        segments,
        blocks,
        16,
        GROUPS_512,
        __m512i,
        _mm512_setzero_si512(),
        load512_words,
        store512_words,
        load_group512,
        _mm512_add_epi32,
        step512
    );
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

impl Lanes<LANES_256> for Avx2 {
    fn compress(&self, state: &mut [[u32; LANES_256]; 4], segments: &[Segment; LANES_256], blocks: usize) {
        // SAFETY: `compress256` needs AVX2, and an `Avx2` exists only where
        // `is_x86_feature_detected!("avx2")` said the CPU has it.
        unsafe { compress256(state, segments, blocks) }
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

#[target_feature(enable = "avx2")]
fn load256_words(words: &[u32; 8]) -> __m256i {
    // SAFETY: the reference covers the 32 bytes read; the load has no alignment
    // requirement.
    unsafe { _mm256_loadu_si256(words.as_ptr().cast()) }
}

#[target_feature(enable = "avx2")]
fn store256_words(words: &mut [u32; 8], v: __m256i) {
    // SAFETY: the exclusive reference covers the 32 bytes written; the store has no
    // alignment requirement.
    unsafe { _mm256_storeu_si256(words.as_mut_ptr().cast(), v) }
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

/// `x <<< s` for 8 lanes: two shifts and an or (AVX2 has no rotation).
macro_rules! rol256 {
    ($v:expr, $s:literal) => {{
        let v = $v;
        _mm256_or_si256(_mm256_slli_epi32::<$s>(v), _mm256_srli_epi32::<{ 32i32.wrapping_sub($s) }>(v))
    }};
}

/// One step on 8 lanes per group, with the round functions written as in the scalar
/// code.
macro_rules! step256 {
    (F, $x:ident, $k:ident, $a:ident, $b:ident, $c:ident, $d:ident, $m:literal, $i:literal, $s:literal) => {
        step_groups!(
            $x,
            $k,
            $a,
            $b,
            $c,
            $d,
            $m,
            $i,
            $s,
            _mm256_add_epi32,
            _mm256_set1_epi32,
            |b, c, d| _mm256_xor_si256(d, _mm256_and_si256(b, _mm256_xor_si256(c, d))),
            rol256
        );
    };
    (G, $x:ident, $k:ident, $a:ident, $b:ident, $c:ident, $d:ident, $m:literal, $i:literal, $s:literal) => {
        // `(b & d) | (c & !d)`: the sides share no bit, so `|` is `+`.
        step_groups!(
            $x,
            $k,
            $a,
            $b,
            $c,
            $d,
            $m,
            $i,
            $s,
            _mm256_add_epi32,
            _mm256_set1_epi32,
            |b, c, d| _mm256_add_epi32(_mm256_andnot_si256(d, c), _mm256_and_si256(b, d)),
            rol256
        );
    };
    (H, $x:ident, $k:ident, $a:ident, $b:ident, $c:ident, $d:ident, $m:literal, $i:literal, $s:literal) => {
        step_groups!(
            $x,
            $k,
            $a,
            $b,
            $c,
            $d,
            $m,
            $i,
            $s,
            _mm256_add_epi32,
            _mm256_set1_epi32,
            |b, c, d| _mm256_xor_si256(b, _mm256_xor_si256(c, d)),
            rol256
        );
    };
    (I, $x:ident, $k:ident, $a:ident, $b:ident, $c:ident, $d:ident, $m:literal, $i:literal, $s:literal) => {
        step_groups!(
            $x,
            $k,
            $a,
            $b,
            $c,
            $d,
            $m,
            $i,
            $s,
            _mm256_add_epi32,
            _mm256_set1_epi32,
            |b, c, d| _mm256_xor_si256(c, _mm256_or_si256(b, _mm256_xor_si256(d, _mm256_set1_epi32(-1)))),
            rol256
        );
    };
}

#[target_feature(enable = "avx2")]
fn compress256(state: &mut [[u32; LANES_256]; 4], segments: &[Segment; LANES_256], blocks: usize) {
    kernel_body!(
        state,
        segments,
        blocks,
        8,
        GROUPS_256,
        __m256i,
        _mm256_setzero_si256(),
        load256_words,
        store256_words,
        load_group256,
        _mm256_add_epi32,
        step256
    );
}

// ---------------------------------------------------------------------------------
// SSE2: 4 lanes per register, on every x86_64 CPU.

/// Groups of 4 lanes per SSE2 kernel call.
const GROUPS_128: usize = 3;
/// Lanes per SSE2 kernel call.
pub(super) const LANES_128: usize = 4 * GROUPS_128;

/// SSE2 is part of x86_64, so this kernel needs no run-time check.
#[derive(Clone, Copy)]
pub(super) struct Sse2;

impl Lanes<LANES_128> for Sse2 {
    fn compress(&self, state: &mut [[u32; LANES_128]; 4], segments: &[Segment; LANES_128], blocks: usize) {
        // SAFETY: `compress128` needs SSE2, which every x86_64 CPU has (the target
        // enables it for all code, which the compiler does not take as proof for a call).
        unsafe { compress128(state, segments, blocks) }
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

#[target_feature(enable = "sse2")]
fn load128_words(words: &[u32; 4]) -> __m128i {
    // SAFETY: the reference covers the 16 bytes read; the load has no alignment
    // requirement.
    unsafe { _mm_loadu_si128(words.as_ptr().cast()) }
}

#[target_feature(enable = "sse2")]
fn store128_words(words: &mut [u32; 4], v: __m128i) {
    // SAFETY: the exclusive reference covers the 16 bytes written; the store has no
    // alignment requirement.
    unsafe { _mm_storeu_si128(words.as_mut_ptr().cast(), v) }
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

/// `x <<< s` for 4 lanes: two shifts and an or.
macro_rules! rol128 {
    ($v:expr, $s:literal) => {{
        let v = $v;
        _mm_or_si128(_mm_slli_epi32::<$s>(v), _mm_srli_epi32::<{ 32i32.wrapping_sub($s) }>(v))
    }};
}

/// One step on 4 lanes per group, with the round functions written as in the scalar
/// code.
macro_rules! step128 {
    (F, $x:ident, $k:ident, $a:ident, $b:ident, $c:ident, $d:ident, $m:literal, $i:literal, $s:literal) => {
        step_groups!(
            $x,
            $k,
            $a,
            $b,
            $c,
            $d,
            $m,
            $i,
            $s,
            _mm_add_epi32,
            _mm_set1_epi32,
            |b, c, d| _mm_xor_si128(d, _mm_and_si128(b, _mm_xor_si128(c, d))),
            rol128
        );
    };
    (G, $x:ident, $k:ident, $a:ident, $b:ident, $c:ident, $d:ident, $m:literal, $i:literal, $s:literal) => {
        // `(b & d) | (c & !d)`: the sides share no bit, so `|` is `+`.
        step_groups!(
            $x,
            $k,
            $a,
            $b,
            $c,
            $d,
            $m,
            $i,
            $s,
            _mm_add_epi32,
            _mm_set1_epi32,
            |b, c, d| _mm_add_epi32(_mm_andnot_si128(d, c), _mm_and_si128(b, d)),
            rol128
        );
    };
    (H, $x:ident, $k:ident, $a:ident, $b:ident, $c:ident, $d:ident, $m:literal, $i:literal, $s:literal) => {
        step_groups!(
            $x,
            $k,
            $a,
            $b,
            $c,
            $d,
            $m,
            $i,
            $s,
            _mm_add_epi32,
            _mm_set1_epi32,
            |b, c, d| _mm_xor_si128(b, _mm_xor_si128(c, d)),
            rol128
        );
    };
    (I, $x:ident, $k:ident, $a:ident, $b:ident, $c:ident, $d:ident, $m:literal, $i:literal, $s:literal) => {
        step_groups!(
            $x,
            $k,
            $a,
            $b,
            $c,
            $d,
            $m,
            $i,
            $s,
            _mm_add_epi32,
            _mm_set1_epi32,
            |b, c, d| _mm_xor_si128(c, _mm_or_si128(b, _mm_xor_si128(d, _mm_set1_epi32(-1)))),
            rol128
        );
    };
}

#[target_feature(enable = "sse2")]
fn compress128(state: &mut [[u32; LANES_128]; 4], segments: &[Segment; LANES_128], blocks: usize) {
    kernel_body!(
        state,
        segments,
        blocks,
        4,
        GROUPS_128,
        __m128i,
        _mm_setzero_si128(),
        load128_words,
        store128_words,
        load_group128,
        _mm_add_epi32,
        step128
    );
}
