//! Many MD5 streams at once, one per lane of an x86_64 vector register: 4 lanes with
//! SSE2 (every x86_64 CPU), 8 with AVX2, 16 with AVX-512F.
//!
//! A kernel runs the compression function on one block of every lane per step: it loads
//! each lane's 64-byte block as vectors, transposes them so that vector `j` holds message
//! word `j` of every lane, and runs the 64 steps on four vectors of state words. Which
//! block each lane reads, and what a lane does when its stream ends, is the scheduler's
//! business (`super::run`); a kernel only sees `blocks` blocks of each lane's segment.
//!
//! The kernels are `#[target_feature]` functions; each has a zero-sized token type that
//! can only be made after the run-time check of its feature, and the token's
//! [`Lanes::compress`] is the one place that calls the kernel. `unsafe` appears only for
//! that call and for the unaligned vector loads and stores, each with its reason. The
//! whole-module lint denial of the checksum (no unchecked arithmetic or indexing) holds
//! here too: message words are indexed by constants, and arrays are taken apart by
//! destructuring.

use core::arch::x86_64::*;

use super::block::md5_steps;
use super::block::K;
use super::Lanes;

/// Stands in for a lane's block where a segment is shorter than the scheduler promised;
/// never read in practice (the scheduler checks the lengths), and it keeps the kernels
/// free of panics.
static ZERO_BLOCK: [u8; 64] = [0; 64];

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

// ---------------------------------------------------------------------------------
// AVX-512F: 16 lanes.

/// Proof that the CPU has AVX-512F: made only by [`Avx512::detect`].
#[derive(Clone, Copy)]
pub(super) struct Avx512(());

impl Avx512 {
    pub(super) fn detect() -> Option<Avx512> {
        is_x86_feature_detected!("avx512f").then_some(Avx512(()))
    }
}

impl Lanes<16> for Avx512 {
    fn compress(&self, state: &mut [[u32; 16]; 4], segments: &[&[[u8; 64]]; 16], blocks: usize) {
        // SAFETY: `compress16` needs AVX-512F, and an `Avx512` exists only where
        // `is_x86_feature_detected!("avx512f")` said the CPU has it.
        unsafe { compress16(state, segments, blocks) }
    }
}

/// The 16 words of a lane's state row, or a message block, as one vector.
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

/// One step on 16 lanes: the round function is one `vpternlogd`, the rotation one
/// `vprold`.
macro_rules! step512 {
    ($f:ident, $x:ident, $k:ident, $a:ident, $b:ident, $c:ident, $d:ident, $m:literal, $i:literal, $s:literal) => {
        $a = _mm512_add_epi32(_mm512_add_epi32($a, $x[$m]), _mm512_set1_epi32($k[$i] as i32));
        $a = _mm512_add_epi32($a, _mm512_ternarylogic_epi32::<{ table::$f }>($b, $c, $d));
        $a = _mm512_add_epi32(_mm512_rol_epi32::<$s>($a), $b);
    };
}

#[target_feature(enable = "avx512f")]
fn compress16(state: &mut [[u32; 16]; 4], segments: &[&[[u8; 64]]; 16], blocks: usize) {
    let [mut sa, mut sb, mut sc, mut sd] = state.each_ref().map(|row| load512_words(row));
    for i in 0..blocks {
        let k: &[u32; 64] = core::hint::black_box(&K);
        let x = transpose16(segments.map(|s| load512(s.get(i).unwrap_or(&ZERO_BLOCK))));
        let (mut a, mut b, mut c, mut d) = (sa, sb, sc, sd);
        md5_steps!(step512, x, k; a, b, c, d);
        sa = _mm512_add_epi32(sa, a);
        sb = _mm512_add_epi32(sb, b);
        sc = _mm512_add_epi32(sc, c);
        sd = _mm512_add_epi32(sd, d);
    }
    for (row, v) in state.iter_mut().zip([sa, sb, sc, sd]) {
        store512_words(row, v);
    }
}

// ---------------------------------------------------------------------------------
// AVX2: 8 lanes.

/// Proof that the CPU has AVX2: made only by [`Avx2::detect`].
#[derive(Clone, Copy)]
pub(super) struct Avx2(());

impl Avx2 {
    pub(super) fn detect() -> Option<Avx2> {
        is_x86_feature_detected!("avx2").then_some(Avx2(()))
    }
}

impl Lanes<8> for Avx2 {
    fn compress(&self, state: &mut [[u32; 8]; 4], segments: &[&[[u8; 64]]; 8], blocks: usize) {
        // SAFETY: `compress8` needs AVX2, and an `Avx2` exists only where
        // `is_x86_feature_detected!("avx2")` said the CPU has it.
        unsafe { compress8(state, segments, blocks) }
    }
}

/// The two halves of a 64-byte block: words 0 to 7 and 8 to 15.
#[target_feature(enable = "avx2")]
fn load256_halves(bytes: &[u8; 64]) -> [__m256i; 2] {
    let p = bytes.as_ptr();
    // SAFETY: both 32-byte reads lie inside the 64 bytes the reference covers (at 0
    // and 32); the loads have no alignment requirement.
    unsafe { [_mm256_loadu_si256(p.cast()), _mm256_loadu_si256(p.wrapping_add(32).cast())] }
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

/// One step on 8 lanes, with the round functions written as in the scalar code.
macro_rules! step256 {
    (F, $x:ident, $k:ident, $a:ident, $b:ident, $c:ident, $d:ident, $m:literal, $i:literal, $s:literal) => {
        let f = _mm256_xor_si256($d, _mm256_and_si256($b, _mm256_xor_si256($c, $d)));
        step256!(@ f, $x, $k, $a, $b, $m, $i, $s);
    };
    (G, $x:ident, $k:ident, $a:ident, $b:ident, $c:ident, $d:ident, $m:literal, $i:literal, $s:literal) => {
        // `(b & d) + (c & !d)`: the sides share no bit; the one without `b` comes first.
        $a = _mm256_add_epi32($a, _mm256_andnot_si256($d, $c));
        let f = _mm256_and_si256($b, $d);
        step256!(@ f, $x, $k, $a, $b, $m, $i, $s);
    };
    (H, $x:ident, $k:ident, $a:ident, $b:ident, $c:ident, $d:ident, $m:literal, $i:literal, $s:literal) => {
        let f = _mm256_xor_si256($b, _mm256_xor_si256($c, $d));
        step256!(@ f, $x, $k, $a, $b, $m, $i, $s);
    };
    (I, $x:ident, $k:ident, $a:ident, $b:ident, $c:ident, $d:ident, $m:literal, $i:literal, $s:literal) => {
        let not_d = _mm256_xor_si256($d, _mm256_set1_epi32(-1));
        let f = _mm256_xor_si256($c, _mm256_or_si256($b, not_d));
        step256!(@ f, $x, $k, $a, $b, $m, $i, $s);
    };
    (@ $f:ident, $x:ident, $k:ident, $a:ident, $b:ident, $m:literal, $i:literal, $s:literal) => {
        $a = _mm256_add_epi32(_mm256_add_epi32($a, $x[$m]), _mm256_set1_epi32($k[$i] as i32));
        $a = _mm256_add_epi32($a, $f);
        $a = _mm256_add_epi32(rol256!($a, $s), $b);
    };
}

#[target_feature(enable = "avx2")]
fn compress8(state: &mut [[u32; 8]; 4], segments: &[&[[u8; 64]]; 8], blocks: usize) {
    let [mut sa, mut sb, mut sc, mut sd] = state.each_ref().map(|row| load256_words(row));
    for i in 0..blocks {
        let k: &[u32; 64] = core::hint::black_box(&K);
        let halves = segments.map(|s| load256_halves(s.get(i).unwrap_or(&ZERO_BLOCK)));
        let [w0, w1, w2, w3, w4, w5, w6, w7] = transpose8(halves.map(|[lo, _]| lo));
        let [w8, w9, w10, w11, w12, w13, w14, w15] = transpose8(halves.map(|[_, hi]| hi));
        let x = [w0, w1, w2, w3, w4, w5, w6, w7, w8, w9, w10, w11, w12, w13, w14, w15];
        let (mut a, mut b, mut c, mut d) = (sa, sb, sc, sd);
        md5_steps!(step256, x, k; a, b, c, d);
        sa = _mm256_add_epi32(sa, a);
        sb = _mm256_add_epi32(sb, b);
        sc = _mm256_add_epi32(sc, c);
        sd = _mm256_add_epi32(sd, d);
    }
    for (row, v) in state.iter_mut().zip([sa, sb, sc, sd]) {
        store256_words(row, v);
    }
}

// ---------------------------------------------------------------------------------
// SSE2: 4 lanes, on every x86_64 CPU.

/// SSE2 is part of x86_64, so this kernel needs no run-time check.
#[derive(Clone, Copy)]
pub(super) struct Sse2;

impl Lanes<4> for Sse2 {
    fn compress(&self, state: &mut [[u32; 4]; 4], segments: &[&[[u8; 64]]; 4], blocks: usize) {
        // SAFETY: `compress4` needs SSE2, which every x86_64 CPU has (the target enables
        // it for all code, which the compiler cannot take as proof for a call).
        unsafe { compress4(state, segments, blocks) }
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

/// One step on 4 lanes, with the round functions written as in the scalar code.
macro_rules! step128 {
    (F, $x:ident, $k:ident, $a:ident, $b:ident, $c:ident, $d:ident, $m:literal, $i:literal, $s:literal) => {
        let f = _mm_xor_si128($d, _mm_and_si128($b, _mm_xor_si128($c, $d)));
        step128!(@ f, $x, $k, $a, $b, $m, $i, $s);
    };
    (G, $x:ident, $k:ident, $a:ident, $b:ident, $c:ident, $d:ident, $m:literal, $i:literal, $s:literal) => {
        // `(b & d) + (c & !d)`: the sides share no bit; the one without `b` comes first.
        $a = _mm_add_epi32($a, _mm_andnot_si128($d, $c));
        let f = _mm_and_si128($b, $d);
        step128!(@ f, $x, $k, $a, $b, $m, $i, $s);
    };
    (H, $x:ident, $k:ident, $a:ident, $b:ident, $c:ident, $d:ident, $m:literal, $i:literal, $s:literal) => {
        let f = _mm_xor_si128($b, _mm_xor_si128($c, $d));
        step128!(@ f, $x, $k, $a, $b, $m, $i, $s);
    };
    (I, $x:ident, $k:ident, $a:ident, $b:ident, $c:ident, $d:ident, $m:literal, $i:literal, $s:literal) => {
        let not_d = _mm_xor_si128($d, _mm_set1_epi32(-1));
        let f = _mm_xor_si128($c, _mm_or_si128($b, not_d));
        step128!(@ f, $x, $k, $a, $b, $m, $i, $s);
    };
    (@ $f:ident, $x:ident, $k:ident, $a:ident, $b:ident, $m:literal, $i:literal, $s:literal) => {
        $a = _mm_add_epi32(_mm_add_epi32($a, $x[$m]), _mm_set1_epi32($k[$i] as i32));
        $a = _mm_add_epi32($a, $f);
        $a = _mm_add_epi32(rol128!($a, $s), $b);
    };
}

#[target_feature(enable = "sse2")]
fn compress4(state: &mut [[u32; 4]; 4], segments: &[&[[u8; 64]]; 4], blocks: usize) {
    let [mut sa, mut sb, mut sc, mut sd] = state.each_ref().map(|row| load128_words(row));
    for i in 0..blocks {
        let k: &[u32; 64] = core::hint::black_box(&K);
        let [q0, q1, q2, q3] = segments.map(|s| load128_quarters(s.get(i).unwrap_or(&ZERO_BLOCK)));
        let [w0, w1, w2, w3] = transpose4([q0[0], q1[0], q2[0], q3[0]]);
        let [w4, w5, w6, w7] = transpose4([q0[1], q1[1], q2[1], q3[1]]);
        let [w8, w9, w10, w11] = transpose4([q0[2], q1[2], q2[2], q3[2]]);
        let [w12, w13, w14, w15] = transpose4([q0[3], q1[3], q2[3], q3[3]]);
        let x = [w0, w1, w2, w3, w4, w5, w6, w7, w8, w9, w10, w11, w12, w13, w14, w15];
        let (mut a, mut b, mut c, mut d) = (sa, sb, sc, sd);
        md5_steps!(step128, x, k; a, b, c, d);
        sa = _mm_add_epi32(sa, a);
        sb = _mm_add_epi32(sb, b);
        sc = _mm_add_epi32(sc, c);
        sd = _mm_add_epi32(sd, d);
    }
    for (row, v) in state.iter_mut().zip([sa, sb, sc, sd]) {
        store128_words(row, v);
    }
}
