//! Review: exact results of arithmetic rules at their edges (denormal flush in
//! arithmetic but not in moves, NaN rules, conversions, bit fields, division by 0).
mod common_interp;
use common_interp::*;

fn one(body: &str, v: &[[u32; 4]]) -> u32 {
    eval(body, v)[0]
}

/// Exact values of spec rules (3.1 float rules, chapter 22 instruction pages); any NaN
/// matches any NaN.
#[test]
fn review_spec_rule_values() {
    let den = 0x0000_0001u32; // smallest denormal
    let nden = 0x8000_0001u32;
    let v = [[den, nden, 0x7fc0_0000, fb(1.0)]];
    let mut fails = Vec::new();
    let mut chk = |name: &str, body: &str, want: u32| {
        let got = one(body, &v);
        let nan = |x: u32| f32::from_bits(x).is_nan();
        if got != want && !(nan(got) && nan(want)) {
            fails.push(format!("{name}: got {got:#010x} want {want:#010x}"));
        }
    };
    chk("ftoi 2^31", "ftoi o0.x, l(2147483648.0)", 0x7fff_ffff);
    chk("ftoi -2^31-1", "ftoi o0.x, l(-2147483904.0)", 0x8000_0000);
    chk("ftoi nan", "ftoi o0.x, v0.z", 0);
    chk("ftou -1", "ftou o0.x, l(-1.0)", 0);
    chk("ftou 2^32", "ftou o0.x, l(4294967296.0)", 0xffff_ffff);
    chk("min nan,1", "min o0.x, v0.z, v0.w", fb(1.0));
    chk("min 1,nan", "min o0.x, v0.w, v0.z", fb(1.0));
    chk("max nan,1", "max o0.x, v0.z, v0.w", fb(1.0));
    chk("mul denorm", "mul o0.x, v0.x, l(1.0)", 0);
    chk("mul -denorm", "mul o0.x, v0.y, l(1.0)", 0x8000_0000);
    chk("add denorm", "add o0.x, v0.x, l(0.0)", 0);
    chk("mad denorm", "mad o0.x, v0.x, l(1.0), l(0.0)", 0);
    chk("mov denorm", "mov o0.x, v0.x", den);
    chk("mov -denorm neg", "mov o0.x, -v0.x", nden);
    chk("mov_sat denorm", "mov_sat o0.x, v0.x", 0);
    chk("mov_sat nan", "mov_sat o0.x, v0.z", 0);
    chk("movc -0 cond", "movc o0.x, l(0x80000000), l(1), l(2)", 1);
    chk("ubfe w0", "ubfe o0.x, l(0), l(4), l(0xffffffff)", 0);
    chk("ubfe o+w>32", "ubfe o0.x, l(8), l(28), l(0xf0000000)", 0xf);
    chk("ibfe o+w>32", "ibfe o0.x, l(8), l(28), l(0xf0000000)", 0xffff_ffff);
    chk("ubfe w32->0", "ubfe o0.x, l(32), l(0), l(0x12345678)", 0);
    chk("bfi w0", "bfi o0.x, l(0), l(4), l(0xffffffff), l(0x12345678)", 0x12345678);
    chk("udiv q /0", "udiv o0.x, null, l(7), l(0)", 0xffff_ffff);
    chk("udiv r /0", "udiv null, o0.x, l(7), l(0)", 0xffff_ffff);
    chk("rcp denorm", "rcp o0.x, v0.x", 0x7f80_0000);
    chk("rcp -denorm", "rcp o0.x, v0.y", 0xff80_0000);
    chk("rsq -0", "rsq o0.x, l(-0.0)", 0xff80_0000);
    chk("log denorm", "log o0.x, v0.x", 0xff80_0000);
    chk("exp -inf", "exp o0.x, l(-inf)", 0);
    chk("sqrt -0", "sqrt o0.x, l(-0.0)", 0x8000_0000);
    chk("frc tiny neg", "frc o0.x, l(-0.000000000000000000000000000001)", 0x3f7f_ffff);
    chk("round_ne -0.5", "round_ne o0.x, l(-0.5)", 0x8000_0000);
    chk("round_ne 2.5", "round_ne o0.x, l(2.5)", fb(2.0));
    chk("round_ni -0.5", "round_ni o0.x, l(-0.5)", fb(-1.0));
    chk("round_pi -0.5", "round_pi o0.x, l(-0.5)", 0x8000_0000);
    chk("ishl 32", "ishl o0.x, l(3), l(32)", 3);
    chk("ishr -8,33", "ishr o0.x, l(-8), l(33)", (-4i32) as u32);
    chk("ineg min", "ineg o0.x, l(0x80000000)", 0x8000_0000);
    chk("imax", "imax o0.x, l(-1), l(1)", 1);
    chk("umax", "umax o0.x, l(-1), l(1)", 0xffff_ffff);
    chk("ne nan", "ne o0.x, v0.z, v0.z", 0xffff_ffff);
    chk("eq nan", "eq o0.x, v0.z, v0.z", 0);
    chk("ge nan", "ge o0.x, v0.z, v0.w", 0);
    chk("eq -0 +0", "eq o0.x, l(-0.0), l(0.0)", 0xffff_ffff);
    chk("eq denorm 0", "eq o0.x, v0.x, l(0.0)", 0xffff_ffff);
    chk("lt -denorm 0", "lt o0.x, v0.y, l(0.0)", 0);
    chk("countbits", "countbits o0.x, l(0xf0f0f0f1)", 17);
    chk("bfrev", "bfrev o0.x, l(1)", 0x8000_0000);
    chk("itof min", "itof o0.x, l(0x80000000)", fb(-2147483648.0));
    chk("utof max", "utof o0.x, l(0xffffffff)", fb(4294967296.0));
    chk("dp2 inf*0", "dp2 o0.x, l(inf, 0.0, 0, 0), l(0.0, 1.0, 0, 0)", 0x7fc0_0000);
    chk("f32tof16 65520", "f32tof16 o0.x, l(65520.0)", 0x7bff);
    chk("f32tof16 denorm", "f32tof16 o0.x, v0.y", 0x8000);
    chk("f16tof32 denorm", "f16tof32 o0.x, l(1)", fb(2f32.powi(-24)));
    chk("max -0 denorm", "max o0.x, l(-0.0), v0.x", 0);
    chk("add abs neg", "add o0.x, -|v0.w|, l(0.0)", fb(-1.0));
    chk("iadd neg", "iadd o0.x, -l(5), l(3)", (-2i32) as u32);
    chk("div 0/0", "div o0.x, l(0.0), l(0.0)", 0x7fc0_0000);
    chk("div 1/denorm", "div o0.x, l(1.0), v0.x", 0x7f80_0000);
    chk("sincos sin inf", "sincos o0.x, null, l(inf)", 0x7fc0_0000);
    chk("firstbit_shi -1", "firstbit_shi o0.x, l(-1)", 0xffff_ffff);
    chk("firstbit_hi 1", "firstbit_hi o0.x, l(1)", 31);
    chk("umul lo", "umul null, o0.x, l(0xffffffff), l(2)", 0xffff_fffe);
    chk("imul hi", "imul o0.x, null, l(-1), l(2)", 0xffff_ffff);
    chk("uaddc carry", "uaddc null, o0.x, l(0xffffffff), l(1)", 1);
    for f in &fails {
        eprintln!("FAIL {f}");
    }
    assert!(fails.is_empty(), "{} failures", fails.len());
}
