//! Constants compilers fold into programs, for reading back six-decimal floats.
//!
//! A `%f` text such as `1.570796` is printed by several `f32`s; when one of them is a
//! constant HLSL's intrinsics expand to, that constant is what a compiler most likely
//! wrote. The table holds the mathematical constants of the expansions (π and its
//! fractions for `sincos`, `atan2` and `radians`/`degrees`, ln 2, log2 e and log10 2 for
//! `log`, `exp` and `log10`, e, √2) and the coefficients of the polynomial
//! approximations `acos`/`asin` and `atan` are expanded with (Abramowitz and Stegun,
//! *Handbook of Mathematical Functions*, formulas 4.4.45 and 4.4.49), each as the
//! nearest `f32`.

use core::f32::consts::{E, FRAC_1_SQRT_2, FRAC_PI_2, FRAC_PI_4, LN_10, LN_2, LOG10_2, LOG2_10, LOG2_E, PI, SQRT_2};

/// Fewest significant digits a text needs before a constant times a power of two
/// other than 1 is read from it.
const MIN_SCALED_DIGITS: usize = 4;

/// The constants, positive (a text's sign and power of two are matched separately).
pub(crate) const FOLDED_CONSTANTS: &[f32] = &[
    PI,
    FRAC_PI_2,
    FRAC_PI_4,
    2.0 * PI,
    // `radians` and `degrees`: π/180 and 180/π.
    0.017_453_292,
    57.295_78,
    LN_2,
    LN_10,
    LOG2_E,
    LOG2_10,
    LOG10_2,
    E,
    SQRT_2,
    FRAC_1_SQRT_2,
    // Abramowitz and Stegun 4.4.45: acos x ≈ √(1 - x)(a0 + a1 x + a2 x² + a3 x³).
    1.570_728_8,
    0.212_114_4,
    0.074_261,
    0.018_729_3,
    // Abramowitz and Stegun 4.4.49: atan x ≈ x(c1 + c3 x² + c5 x⁴ + c7 x⁶ + c9 x⁸).
    0.999_866,
    0.330_299_5,
    0.180_141,
    0.085_133,
    0.020_835_1,
];

/// The folded constant, or a constant times a power of two (an exact product that
/// folding `x * 2`, `x / 4` ... gives: `0.034907` is 2·π/180), with the sign and
/// exponent of `nearest`, that prints as the text (`prints_as`), if one does. A
/// scaled constant is tried only for a text with at least [`MIN_SCALED_DIGITS`]
/// significant digits (`significant`): with fewer, some power of two of one of the
/// constants prints as many texts.
pub(crate) fn folded_constant(nearest: f32, significant: usize, prints_as: impl Fn(f32) -> bool) -> Option<f32> {
    const EXPONENT: u32 = 0x7f80_0000;
    let exponent = nearest.to_bits() & EXPONENT;
    if exponent == 0 || exponent == EXPONENT {
        return None;
    }
    let sign_exponent = nearest.to_bits() & (0x8000_0000 | EXPONENT);
    FOLDED_CONSTANTS
        .iter()
        .filter(|&&c| significant >= MIN_SCALED_DIGITS || c.to_bits() & EXPONENT == exponent)
        .map(|&c| f32::from_bits(sign_exponent | (c.to_bits() & 0x007f_ffff)))
        .find(|&c| prints_as(c))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn holds_the_nearest_f32_of_each_constant() {
        assert_eq!(PI.to_bits(), 0x4049_0fdb);
        assert_eq!(0.017_453_292f32, (core::f64::consts::PI / 180.0) as f32);
        assert_eq!(0.017_453_292f32.to_bits(), 0x3c8e_fa35);
        assert_eq!(57.295_78f32, (180.0 / core::f64::consts::PI) as f32);
        assert_eq!(1.570_728_8f32.to_bits(), 0x3fc9_0da4);
        assert_eq!(0.330_299_5f32.to_bits(), 0x3ea9_1d04);
        assert_eq!(0.020_835_1f32.to_bits(), 0x3caa_ae5f);
        assert_eq!(0.018_729_3f32.to_bits(), 0x3c99_6e30);
    }

    #[test]
    fn scales_a_constant_by_the_power_of_two_of_the_text() {
        let prints = |text: &'static str| move |f: f32| format!("{:.6}", f as f64) == text;
        assert_eq!(folded_constant(FRAC_PI_2 - 5e-7, 7, prints("1.570796")), Some(FRAC_PI_2));
        assert_eq!(folded_constant(-0.069_813, 5, prints("-0.069813")).map(f32::to_bits), Some(0xbd8e_fa35));
        assert_eq!(folded_constant(0.353_553, 6, prints("0.353553")), Some(SQRT_2 / 4.0));
        // 0.085133 / 256 prints as `0.000333`, three digits: not read so.
        assert_eq!(folded_constant(0.000_333, 3, prints("0.000333")), None);
        assert_eq!(folded_constant(0.5, 1, prints("0.500000")), None);
        assert_eq!(folded_constant(0.0, 0, prints("0.000000")), None);
    }
}
