//! MD5's compression function (RFC 1321, "The MD5 Message-Digest Algorithm", section
//! 3.4), one 64-byte block after another, for one stream.
//!
//! Written for the latency of the chain that runs through the four state words: each
//! step's new word depends on the step before it through the round function, one add,
//! the rotation and one more add, and everything else (the message word, the round
//! constant, the parts of the round function that do not involve the newest word) is
//! summed off that chain. The round constants are read through
//! [`core::hint::black_box`] once per block: with their values in sight the optimiser
//! moves each constant to the end of its sum, which puts one more add on the chain of
//! every step (about a fifth slower). The hint changes only the instructions chosen,
//! never a value.

/// The round constants: the integer part of `abs(sin(i + 1)) * 2^32` for step `i`
/// (RFC 1321, section 3.4).
pub(crate) const K: [u32; 64] = [
    0xd76a_a478,
    0xe8c7_b756,
    0x2420_70db,
    0xc1bd_ceee,
    0xf57c_0faf,
    0x4787_c62a,
    0xa830_4613,
    0xfd46_9501,
    0x6980_98d8,
    0x8b44_f7af,
    0xffff_5bb1,
    0x895c_d7be,
    0x6b90_1122,
    0xfd98_7193,
    0xa679_438e,
    0x49b4_0821,
    0xf61e_2562,
    0xc040_b340,
    0x265e_5a51,
    0xe9b6_c7aa,
    0xd62f_105d,
    0x0244_1453,
    0xd8a1_e681,
    0xe7d3_fbc8,
    0x21e1_cde6,
    0xc337_07d6,
    0xf4d5_0d87,
    0x455a_14ed,
    0xa9e3_e905,
    0xfcef_a3f8,
    0x676f_02d9,
    0x8d2a_4c8a,
    0xfffa_3942,
    0x8771_f681,
    0x6d9d_6122,
    0xfde5_380c,
    0xa4be_ea44,
    0x4bde_cfa9,
    0xf6bb_4b60,
    0xbebf_bc70,
    0x289b_7ec6,
    0xeaa1_27fa,
    0xd4ef_3085,
    0x0488_1d05,
    0xd9d4_d039,
    0xe6db_99e5,
    0x1fa2_7cf8,
    0xc4ac_5665,
    0xf429_2244,
    0x432a_ff97,
    0xab94_23a7,
    0xfc93_a039,
    0x655b_59c3,
    0x8f0c_cc92,
    0xffef_f47d,
    0x8584_5dd1,
    0x6fa8_7e4f,
    0xfe2c_e6e0,
    0xa301_4314,
    0x4e08_11a1,
    0xf753_7e82,
    0xbd3a_f235,
    0x2ad7_d2bb,
    0xeb86_d391,
];

/// The initial state (RFC 1321, section 3.3), which Microsoft's checksum keeps.
pub(crate) const INIT: [u32; 4] = [0x6745_2301, 0xefcd_ab89, 0x98ba_dcfe, 0x1032_5476];

/// The 64 steps of one block, in order: for each, the round (`F`, `G`, `H`, `I`), the
/// message words `$x` and constants `$k` passed through, the four state words in the
/// step's order (the one written first), the message word's index, the step's index
/// (its constant) and the rotation. `$step` is the backend's macro for one step.
macro_rules! md5_steps {
    ($step:ident, $x:ident, $k:ident; $a:ident, $b:ident, $c:ident, $d:ident) => {
        // Round 1: F, message words 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15.
        $step!(F, $x, $k, $a, $b, $c, $d, 0, 0, 7);
        $step!(F, $x, $k, $d, $a, $b, $c, 1, 1, 12);
        $step!(F, $x, $k, $c, $d, $a, $b, 2, 2, 17);
        $step!(F, $x, $k, $b, $c, $d, $a, 3, 3, 22);
        $step!(F, $x, $k, $a, $b, $c, $d, 4, 4, 7);
        $step!(F, $x, $k, $d, $a, $b, $c, 5, 5, 12);
        $step!(F, $x, $k, $c, $d, $a, $b, 6, 6, 17);
        $step!(F, $x, $k, $b, $c, $d, $a, 7, 7, 22);
        $step!(F, $x, $k, $a, $b, $c, $d, 8, 8, 7);
        $step!(F, $x, $k, $d, $a, $b, $c, 9, 9, 12);
        $step!(F, $x, $k, $c, $d, $a, $b, 10, 10, 17);
        $step!(F, $x, $k, $b, $c, $d, $a, 11, 11, 22);
        $step!(F, $x, $k, $a, $b, $c, $d, 12, 12, 7);
        $step!(F, $x, $k, $d, $a, $b, $c, 13, 13, 12);
        $step!(F, $x, $k, $c, $d, $a, $b, 14, 14, 17);
        $step!(F, $x, $k, $b, $c, $d, $a, 15, 15, 22);
        // Round 2: G, message words 1, 6, 11, 0, 5, 10, 15, 4, 9, 14, 3, 8, 13, 2, 7, 12.
        $step!(G, $x, $k, $a, $b, $c, $d, 1, 16, 5);
        $step!(G, $x, $k, $d, $a, $b, $c, 6, 17, 9);
        $step!(G, $x, $k, $c, $d, $a, $b, 11, 18, 14);
        $step!(G, $x, $k, $b, $c, $d, $a, 0, 19, 20);
        $step!(G, $x, $k, $a, $b, $c, $d, 5, 20, 5);
        $step!(G, $x, $k, $d, $a, $b, $c, 10, 21, 9);
        $step!(G, $x, $k, $c, $d, $a, $b, 15, 22, 14);
        $step!(G, $x, $k, $b, $c, $d, $a, 4, 23, 20);
        $step!(G, $x, $k, $a, $b, $c, $d, 9, 24, 5);
        $step!(G, $x, $k, $d, $a, $b, $c, 14, 25, 9);
        $step!(G, $x, $k, $c, $d, $a, $b, 3, 26, 14);
        $step!(G, $x, $k, $b, $c, $d, $a, 8, 27, 20);
        $step!(G, $x, $k, $a, $b, $c, $d, 13, 28, 5);
        $step!(G, $x, $k, $d, $a, $b, $c, 2, 29, 9);
        $step!(G, $x, $k, $c, $d, $a, $b, 7, 30, 14);
        $step!(G, $x, $k, $b, $c, $d, $a, 12, 31, 20);
        // Round 3: H, message words 5, 8, 11, 14, 1, 4, 7, 10, 13, 0, 3, 6, 9, 12, 15, 2.
        $step!(H, $x, $k, $a, $b, $c, $d, 5, 32, 4);
        $step!(H, $x, $k, $d, $a, $b, $c, 8, 33, 11);
        $step!(H, $x, $k, $c, $d, $a, $b, 11, 34, 16);
        $step!(H, $x, $k, $b, $c, $d, $a, 14, 35, 23);
        $step!(H, $x, $k, $a, $b, $c, $d, 1, 36, 4);
        $step!(H, $x, $k, $d, $a, $b, $c, 4, 37, 11);
        $step!(H, $x, $k, $c, $d, $a, $b, 7, 38, 16);
        $step!(H, $x, $k, $b, $c, $d, $a, 10, 39, 23);
        $step!(H, $x, $k, $a, $b, $c, $d, 13, 40, 4);
        $step!(H, $x, $k, $d, $a, $b, $c, 0, 41, 11);
        $step!(H, $x, $k, $c, $d, $a, $b, 3, 42, 16);
        $step!(H, $x, $k, $b, $c, $d, $a, 6, 43, 23);
        $step!(H, $x, $k, $a, $b, $c, $d, 9, 44, 4);
        $step!(H, $x, $k, $d, $a, $b, $c, 12, 45, 11);
        $step!(H, $x, $k, $c, $d, $a, $b, 15, 46, 16);
        $step!(H, $x, $k, $b, $c, $d, $a, 2, 47, 23);
        // Round 4: I, message words 0, 7, 14, 5, 12, 3, 10, 1, 8, 15, 6, 13, 4, 11, 2, 9.
        $step!(I, $x, $k, $a, $b, $c, $d, 0, 48, 6);
        $step!(I, $x, $k, $d, $a, $b, $c, 7, 49, 10);
        $step!(I, $x, $k, $c, $d, $a, $b, 14, 50, 15);
        $step!(I, $x, $k, $b, $c, $d, $a, 5, 51, 21);
        $step!(I, $x, $k, $a, $b, $c, $d, 12, 52, 6);
        $step!(I, $x, $k, $d, $a, $b, $c, 3, 53, 10);
        $step!(I, $x, $k, $c, $d, $a, $b, 10, 54, 15);
        $step!(I, $x, $k, $b, $c, $d, $a, 1, 55, 21);
        $step!(I, $x, $k, $a, $b, $c, $d, 8, 56, 6);
        $step!(I, $x, $k, $d, $a, $b, $c, 15, 57, 10);
        $step!(I, $x, $k, $c, $d, $a, $b, 6, 58, 15);
        $step!(I, $x, $k, $b, $c, $d, $a, 13, 59, 21);
        $step!(I, $x, $k, $a, $b, $c, $d, 4, 60, 6);
        $step!(I, $x, $k, $d, $a, $b, $c, 11, 61, 10);
        $step!(I, $x, $k, $c, $d, $a, $b, 2, 62, 15);
        $step!(I, $x, $k, $b, $c, $d, $a, 9, 63, 21);
    };
}
#[cfg(target_arch = "x86_64")]
pub(crate) use md5_steps;

/// One step for scalar words: `a = b + ((a + f(b, c, d) + x[m] + k[i]) <<< s)`.
macro_rules! scalar_step {
    (F, $x:ident, $k:ident, $a:ident, $b:ident, $c:ident, $d:ident, $m:literal, $i:literal, $s:literal) => {
        // `d ^ (b & (c ^ d))`: `c ^ d` is ready before `b` is.
        $a = $a.wrapping_add($x[$m]).wrapping_add($k[$i]).wrapping_add($d ^ ($b & ($c ^ $d)));
        $a = $a.rotate_left($s).wrapping_add($b);
    };
    (G, $x:ident, $k:ident, $a:ident, $b:ident, $c:ident, $d:ident, $m:literal, $i:literal, $s:literal) => {
        // `(b & d) | (c & !d)`: the two sides share no bit, so `|` is `+`, and the side
        // without `b` joins the sum early.
        $a = $a.wrapping_add($x[$m]).wrapping_add($k[$i]).wrapping_add($c & !$d).wrapping_add($b & $d);
        $a = $a.rotate_left($s).wrapping_add($b);
    };
    (H, $x:ident, $k:ident, $a:ident, $b:ident, $c:ident, $d:ident, $m:literal, $i:literal, $s:literal) => {
        $a = $a.wrapping_add($x[$m]).wrapping_add($k[$i]).wrapping_add($b ^ ($c ^ $d));
        $a = $a.rotate_left($s).wrapping_add($b);
    };
    (I, $x:ident, $k:ident, $a:ident, $b:ident, $c:ident, $d:ident, $m:literal, $i:literal, $s:literal) => {
        $a = $a.wrapping_add($x[$m]).wrapping_add($k[$i]).wrapping_add($c ^ ($b | !$d));
        $a = $a.rotate_left($s).wrapping_add($b);
    };
}

/// Runs MD5's compression function over `blocks`, in order, updating `state`.
pub fn compress(state: &mut [u32; 4], blocks: &[[u8; 64]]) {
    let [mut sa, mut sb, mut sc, mut sd] = *state;
    for block in blocks {
        let k: &[u32; 64] = core::hint::black_box(&K);
        let mut x = [0u32; 16];
        for (w, bytes) in x.iter_mut().zip(block.as_chunks::<4>().0) {
            *w = u32::from_le_bytes(*bytes);
        }
        let (mut a, mut b, mut c, mut d) = (sa, sb, sc, sd);
        md5_steps!(scalar_step, x, k; a, b, c, d);
        sa = sa.wrapping_add(a);
        sb = sb.wrapping_add(b);
        sc = sc.wrapping_add(c);
        sd = sd.wrapping_add(d);
    }
    *state = [sa, sb, sc, sd];
}
