//! One row per arithmetic opcode: the scalar expression each destination gets.
//!
//! A row's template is WGSL over scalars: `$0`…`$3` stand for the current component of
//! source 0…3, `$0x`…`$3w` for a fixed component (the dot products). Each source is
//! converted from its register bits by the type the instruction table gives its slot
//! (`tpf::table::Ty`): a float slot is read with denormals flushed (`dx_f`), an int
//! slot as `i32`, a uint or typeless slot as the bits themselves. A row marked `raw`
//! gets every source as bits (its helper applies the rules itself). The row's result
//! kind says how the value goes back into the register.
//!
//! An instruction with a double slot in the instruction table (`tpf::table::Ty::D`, a
//! source or a destination; [`is_double`]) works on two lanes, the register's `.xy` and
//! `.zw` (Microsoft's pages of the double instructions): a double slot's lane `j` is the `f64` of words
//! `2j` (low) and `2j + 1` (high), its source modifier on the high word's sign bit; a
//! 32-bit slot's lane `j` is its component `j`. A double result ([`Res::D`]) goes to the
//! words of its lane the mask names; a 32-bit result of lane `j` goes to the `j`-th
//! component the mask names (the second lane to any further one).

use tpf::Opcode;

/// What a row's template evaluates to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Res {
    /// An `f32`: stored with denormals flushed (`dx_r`), or saturated under `_sat`.
    F,
    /// Float bits already flushed by the helper (`dx_min`, `dx_max`).
    FBits,
    /// An `i32`: its bits are stored.
    I,
    /// A `u32`: stored as it is.
    U,
    /// A `bool`: stored as `0xffffffff` or `0`.
    B,
    /// An `f64` (a double instruction): its two words are stored; `_sat` clamps to [0, 1]
    /// with NaN giving 0 (`dx_dsat`).
    D,
}

/// One destination's expression.
#[derive(Debug, Clone, Copy)]
pub struct Dst {
    /// The result kind.
    pub res: Res,
    /// The template.
    pub expr: &'static str,
}

/// How an opcode computes its destinations.
#[derive(Debug, Clone, Copy)]
pub struct Row {
    /// Every source is given as its bits (after source modifiers).
    pub raw: bool,
    /// The result is the same for every component (dot products).
    pub replicate: bool,
    /// One expression per destination (two for `imul`, `udiv`, `sincos`...).
    pub dst: &'static [Dst],
}

/// The rows, keyed by opcode: `Opcode => [raw] [replicate] (Res, "template"), ...`.
macro_rules! rows {
    ($( $op:ident => $($flag:ident)* $( ($res:ident, $expr:literal) ),+ ; )*) => {
        /// The row of `op`, if it is a plain arithmetic instruction.
        pub fn row(op: Opcode) -> Option<Row> {
            match op {
                $( Opcode::$op => Some(Row {
                    raw: rows!(@flag raw $($flag)*),
                    replicate: rows!(@flag replicate $($flag)*),
                    dst: &[$( Dst { res: Res::$res, expr: $expr } ),+],
                }), )*
                _ => None,
            }
        }
        /// Every opcode that has a row (for tests and documentation).
        pub const OPCODES: &[Opcode] = &[$( Opcode::$op ),*];
    };
    (@flag $want:ident) => { false };
    (@flag raw raw $($rest:ident)*) => { true };
    (@flag replicate replicate $($rest:ident)*) => { true };
    (@flag $want:ident $other:ident $($rest:ident)*) => { rows!(@flag $want $($rest)*) };
}

rows! {
    Add => (F, "($0 + $1)");
    Mul => (F, "($0 * $1)");
    Div => (F, "($0 / $1)");
    Mad => (F, "($0 * $1 + $2)");
    Dp2 => replicate (F, "($0x * $1x + $0y * $1y)");
    Dp3 => replicate (F, "(($0x * $1x + $0y * $1y) + $0z * $1z)");
    Dp4 => replicate (F, "((($0x * $1x + $0y * $1y) + $0z * $1z) + $0w * $1w)");
    Exp => (F, "exp2($0)");
    Log => (F, "log2($0)");
    Frc => (F, "dx_frc($0)");
    Sqrt => (F, "sqrt($0)");
    Rsq => (F, "(1.0 / sqrt($0))");
    Rcp => (F, "(1.0 / $0)");
    RoundNe => (F, "round($0)");
    RoundNi => (F, "floor($0)");
    RoundPi => (F, "ceil($0)");
    RoundZ => (F, "trunc($0)");
    SinCos => (F, "sin($0)"), (F, "cos($0)");
    Min => raw (FBits, "dx_min($0, $1)");
    Max => raw (FBits, "dx_max($0, $1)");
    Eq => (B, "($0 == $1)");
    Ne => (B, "!($0 == $1)");
    Lt => (B, "($0 < $1)");
    Ge => (B, "($0 >= $1)");
    DerivRtx => (F, "dpdx($0)");
    DerivRty => (F, "dpdy($0)");
    DerivRtxCoarse => (F, "dpdxCoarse($0)");
    DerivRtyCoarse => (F, "dpdyCoarse($0)");
    DerivRtxFine => (F, "dpdxFine($0)");
    DerivRtyFine => (F, "dpdyFine($0)");
    Ftoi => raw (U, "dx_ftoi($0)");
    Ftou => raw (U, "dx_ftou($0)");
    Itof => (F, "f32($0)");
    Utof => (F, "f32($0)");
    F32ToF16 => raw (U, "dx_f32tof16($0)");
    F16ToF32 => (F, "unpack2x16float($0 & 0xffffu).x");
    Iadd => (I, "($0 + $1)");
    Imad => (I, "($0 * $1 + $2)");
    Imax => (I, "max($0, $1)");
    Imin => (I, "min($0, $1)");
    Ineg => (I, "(-$0)");
    Ieq => (B, "($0 == $1)");
    Ine => (B, "($0 != $1)");
    Ilt => (B, "($0 < $1)");
    Ige => (B, "($0 >= $1)");
    Ishl => raw (U, "($0 << ($1 & 31u))");
    Ishr => (I, "($0 >> ($1 & 31u))");
    Ushr => (U, "($0 >> ($1 & 31u))");
    Imul => raw (U, "dx_imulhi($0, $1)"), (U, "($0 * $1)");
    Umul => (U, "dx_umulhi($0, $1)"), (U, "($0 * $1)");
    Udiv => (U, "dx_udiv($0, $1)"), (U, "dx_urem($0, $1)");
    Uaddc => (U, "($0 + $1)"), (U, "select(0u, 1u, $0 + $1 < $0)");
    Usubb => (U, "($0 - $1)"), (U, "select(0u, 1u, $0 < $1)");
    Umad => (U, "($0 * $1 + $2)");
    Umax => (U, "max($0, $1)");
    Umin => (U, "min($0, $1)");
    Ult => (B, "($0 < $1)");
    Uge => (B, "($0 >= $1)");
    And => (U, "($0 & $1)");
    Or => (U, "($0 | $1)");
    Xor => (U, "($0 ^ $1)");
    Not => (U, "(~$0)");
    CountBits => (U, "countOneBits($0)");
    Msad => (U, "dx_msad($0, $1, $2)");
    FirstBitHi => (U, "dx_firstbit_hi($0)");
    FirstBitLo => (U, "dx_firstbit_lo($0)");
    FirstBitShi => raw (U, "dx_firstbit_shi($0)");
    Ubfe => (U, "dx_ubfe($0, $1, $2)");
    Ibfe => raw (U, "dx_ibfe($0, $1, $2)");
    Bfi => (U, "dx_bfi($0, $1, $2, $3)");
    Bfrev => (U, "reverseBits($0)");
    Mov => (U, "$0");
    Movc => (U, "select($2, $1, $0 != 0u)");
    Swapc => (U, "select($1, $2, $0 != 0u)"), (U, "select($2, $1, $0 != 0u)");
    // Double precision (the functional spec's 64-bit rules: IEEE-754R, denormals kept).
    Dadd => (D, "($0 + $1)");
    Dmul => (D, "($0 * $1)");
    Ddiv => (D, "($0 / $1)");
    Dfma => (D, "fma($0, $1, $2)");
    Drcp => (D, "(1.0lf / $0)");
    Dmin => (D, "dx_dmin($0, $1)");
    Dmax => (D, "dx_dmax($0, $1)");
    Dmov => (D, "$0");
    Dmovc => (D, "select($2, $1, $0 != 0u)");
    Deq => (B, "($0 == $1)");
    Dne => (B, "!($0 == $1)");
    Dlt => (B, "($0 < $1)");
    Dge => (B, "($0 >= $1)");
    Dtof => (F, "f32($0)");
    Dtoi => (U, "dx_dtoi($0)");
    Dtou => (U, "dx_dtou($0)");
    Ftod => (D, "f64($0)");
    Itod => (D, "f64($0)");
    Utod => (D, "f64($0)");
}

/// Whether `op` works on double lanes: a slot of its row in the instruction table is a
/// double (`Ty::D`).
pub fn is_double(op: Opcode) -> bool {
    let info = op.info();
    info.src.iter().chain(info.dst).any(|t| *t == tpf::table::Ty::D)
}

/// The instructions the translator refuses for every target (without
/// [`crate::Options::pull_model`], the `eval_*` ones too: with it they are translated
/// for SPIR-V and GLSL), with the reason their error gives (the crate documentation
/// lists them).
pub fn inexpressible(op: Opcode) -> Option<&'static str> {
    use Opcode as O;
    Some(match op {
        O::EvalCentroid | O::EvalSampleIndex | O::EvalSnapped => {
            "pull-model interpolation (WGSL and naga's IR have no interpolateAt*; SPIR-V and GLSL output have it \
             with Options::pull_model)"
        }
        _ => return None,
    })
}
