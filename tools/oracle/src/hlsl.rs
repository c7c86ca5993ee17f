//! A seeded, deterministic HLSL program generator for the Microsoft oracle.
//!
//! Every program is a small random composition: a stage template (entry point, inputs
//! with system values and interpolation modifiers, outputs), a few globals (cbuffers,
//! tbuffers, resources, UAVs, interfaces and classes, static arrays) and a short body
//! of statements (nested control flow with attributes, intrinsic-rich expressions,
//! texture methods, atomics, doubles, minimum precision). What each profile may use
//! follows Microsoft's HLSL reference pages ("Shader Model 4", "Shader Model 5",
//! "Intrinsic Functions", "Resource types", "Compute shader overview",
//! "Feature level 9 support") and what d3dcompiler_47 was measured to accept.
//! A program is a pure function of (profile, seed, index); the RNG is our own splitmix64.

use std::fmt::Write;

/// One generated program.
pub struct Shader {
    pub name: String,
    pub source: String,
    pub entry: String,
    pub profile: &'static str,
}

/// Every profile the generator targets, in this order.
pub const PROFILES: &[&str] = &[
    "vs_4_0",
    "vs_4_1",
    "vs_5_0",
    "hs_5_0",
    "ds_5_0",
    "gs_4_0",
    "gs_4_1",
    "gs_5_0",
    "ps_4_0",
    "ps_4_1",
    "ps_5_0",
    "cs_4_0",
    "cs_4_1",
    "cs_5_0",
    "vs_4_0_level_9_1",
    "vs_4_0_level_9_3",
    "ps_4_0_level_9_1",
    "ps_4_0_level_9_3",
    "vs_2_0",
    "vs_2_a",
    "vs_3_0",
    "ps_2_0",
    "ps_2_a",
    "ps_2_b",
    "ps_3_0",
];

/// `count` programs for `profile`, deterministic in (`profile`, `seed`); names unique
/// within the call (e.g. "vs_5_0-s1-00042"). A profile not in [`PROFILES`] gives none.
pub fn generate(profile: &str, seed: u64, count: usize) -> Vec<Shader> {
    let Some(&prof) = PROFILES.iter().find(|p| **p == profile) else {
        return Vec::new();
    };
    let Some(caps) = Caps::parse(prof) else {
        return Vec::new();
    };
    let base = mix(fnv(prof) ^ mix(seed));
    (0..count)
        .map(|i| {
            let rng = Rng(mix(base ^ (i as u64).wrapping_mul(0xA24B_AED4_963E_E407)));
            let mut g = Gen::new(caps, rng);
            let source = g.program();
            Shader { name: format!("{prof}-s{seed}-{i:05}"), source, entry: "main".to_string(), profile: prof }
        })
        .collect()
}

fn fnv(s: &str) -> u64 {
    let mut h = 0xcbf2_9ce4_8422_2325u64;
    for b in s.bytes() {
        h ^= b as u64;
        h = h.wrapping_mul(0x100_0000_01b3);
    }
    h
}

fn mix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// splitmix64.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        mix(self.0.wrapping_sub(0x9E37_79B9_7F4A_7C15))
    }
    /// Uniform in 0..n (n > 0; 0 gives 0).
    fn below(&mut self, n: usize) -> usize {
        if n == 0 {
            return 0;
        }
        (self.next() % n as u64) as usize
    }
    fn range(&mut self, lo: usize, hi: usize) -> usize {
        lo + self.below(hi - lo + 1)
    }
    /// True with probability pct/100.
    fn chance(&mut self, pct: u32) -> bool {
        (self.next() % 100) < pct as u64
    }
    fn pick<'a, T>(&mut self, xs: &'a [T]) -> &'a T {
        &xs[self.below(xs.len())]
    }
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Stage {
    Vs,
    Hs,
    Ds,
    Gs,
    Ps,
    Cs,
}

#[derive(Clone, Copy, Debug)]
struct Caps {
    stage: Stage,
    /// 20 (2_0), 21 (2_a), 22 (2_b), 30, 40, 41, 50.
    sm: u8,
    /// 0, or the 9_x level (1 or 3) of a vs/ps_4_0_level_9_x profile.
    l9: u8,
}

impl Caps {
    fn parse(p: &str) -> Option<Caps> {
        let stage = match p.get(0..2)? {
            "vs" => Stage::Vs,
            "hs" => Stage::Hs,
            "ds" => Stage::Ds,
            "gs" => Stage::Gs,
            "ps" => Stage::Ps,
            "cs" => Stage::Cs,
            _ => return None,
        };
        let l9 = if p.ends_with("level_9_1") {
            1
        } else if p.ends_with("level_9_3") {
            3
        } else {
            0
        };
        let sm = match p.get(3..6)? {
            "2_0" => 20,
            "2_a" => 21,
            "2_b" => 22,
            "3_0" => 30,
            "4_0" => 40,
            "4_1" => 41,
            "5_0" => 50,
            _ => return None,
        };
        Some(Caps { stage, sm, l9 })
    }
    fn legacy(&self) -> bool {
        self.sm < 40
    }
    /// SM4/5 proper (not level 9, not SM2/3).
    fn modern(&self) -> bool {
        self.sm >= 40 && self.l9 == 0
    }
    fn ints(&self) -> bool {
        self.modern()
    }
    fn sm5(&self) -> bool {
        self.sm >= 50
    }
    fn sm41(&self) -> bool {
        self.sm >= 41 && self.l9 == 0
    }
    fn ps(&self) -> bool {
        self.stage == Stage::Ps
    }
    fn derivs(&self) -> bool {
        self.ps() && (self.modern() || self.l9 == 3 || self.sm == 21 || self.sm == 30)
    }
    /// Profiles with tight instruction limits (ps_2_0-class pixel shaders).
    fn tiny(&self) -> bool {
        self.ps() && (self.sm == 20 || self.sm == 22 || self.sm == 21 || self.l9 != 0)
    }
    fn dyn_flow(&self) -> bool {
        self.modern() || self.sm == 30 || (self.sm == 21 && self.stage == Stage::Vs)
    }
    fn minp(&self) -> bool {
        self.sm >= 40 && self.l9 == 0
    }
    fn cs4(&self) -> bool {
        self.stage == Stage::Cs && self.sm < 50
    }
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum B {
    F,
    I,
    U,
    Bo,
    D,
    H,
    H10,
    I16,
    U16,
}

impl B {
    fn name(self) -> &'static str {
        match self {
            B::F => "float",
            B::I => "int",
            B::U => "uint",
            B::Bo => "bool",
            B::D => "double",
            B::H => "min16float",
            B::H10 => "min10float",
            B::I16 => "min16int",
            B::U16 => "min16uint",
        }
    }
    fn floaty(self) -> bool {
        matches!(self, B::F | B::H | B::H10)
    }
    fn inty(self) -> bool {
        matches!(self, B::I | B::U | B::I16 | B::U16)
    }
}

fn tn(b: B, n: u8) -> String {
    if n == 1 {
        b.name().to_string()
    } else {
        format!("{}{}", b.name(), n)
    }
}

#[derive(Clone)]
struct Var {
    name: String,
    b: B,
    n: u8,
    mutable: bool,
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Res {
    T1,
    T1A,
    T2,
    T2A,
    T2MS,
    T2MSA,
    T3,
    TC,
    TCA,
    Buf,
    SB,
    BAB,
}

impl Res {
    fn decl(self) -> &'static str {
        match self {
            Res::T1 => "Texture1D",
            Res::T1A => "Texture1DArray",
            Res::T2 => "Texture2D",
            Res::T2A => "Texture2DArray",
            Res::T2MS => "Texture2DMS",
            Res::T2MSA => "Texture2DMSArray",
            Res::T3 => "Texture3D",
            Res::TC => "TextureCube",
            Res::TCA => "TextureCubeArray",
            Res::Buf => "Buffer",
            Res::SB => "StructuredBuffer",
            Res::BAB => "ByteAddressBuffer",
        }
    }
    /// Float coordinate components for Sample*.
    fn coord(self) -> u8 {
        match self {
            Res::T1 => 1,
            Res::T1A | Res::T2 => 2,
            Res::T2A | Res::T3 | Res::TC => 3,
            Res::TCA => 4,
            _ => 0,
        }
    }
    /// Offset / gradient components (0: no offsets).
    fn off(self) -> u8 {
        match self {
            Res::T1 | Res::T1A => 1,
            Res::T2 | Res::T2A => 2,
            Res::T3 => 3,
            _ => 0,
        }
    }
    fn grad(self) -> u8 {
        match self {
            Res::TC | Res::TCA => 3,
            r => r.off(),
        }
    }
    /// Integer components of Load's location (with the mip level where there is one).
    fn load(self) -> u8 {
        match self {
            Res::Buf => 1,
            Res::T1 | Res::T2MS => 2,
            Res::T1A | Res::T2 | Res::T2MSA => 3,
            Res::T2A | Res::T3 => 4,
            _ => 0,
        }
    }
    fn sampled(self) -> bool {
        self.coord() > 0
    }
    fn cmp(self) -> bool {
        matches!(self, Res::T1 | Res::T1A | Res::T2 | Res::T2A | Res::TC | Res::TCA)
    }
    fn gather(self) -> bool {
        matches!(self, Res::T2 | Res::T2A | Res::TC | Res::TCA)
    }
    /// Number of uint outputs of GetDimensions without and with the mip argument.
    fn dims(self) -> (usize, usize) {
        match self {
            Res::T1 => (1, 2),
            Res::T1A | Res::T2 | Res::TC => (2, 3),
            Res::T2A | Res::T3 | Res::TCA => (3, 4),
            Res::T2MS => (3, 0),
            Res::T2MSA => (4, 0),
            Res::Buf | Res::BAB => (1, 0),
            Res::SB => (2, 0),
        }
    }
}

struct Tex {
    name: String,
    res: Res,
    /// Element: components and whether float.
    n: u8,
    float: bool,
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Uav {
    T1,
    T1A,
    T2,
    T2A,
    T3,
    Buf,
    SB,
    BAB,
    Append,
    Consume,
}

struct UavV {
    name: String,
    kind: Uav,
    /// Element type of typed UAVs (F with n=4, or a scalar F/U/I); SB element is a struct.
    b: B,
    n: u8,
    counter: bool,
}

struct Gen {
    r: Rng,
    c: Caps,
    glob: String,
    body: String,
    ind: usize,
    vars: Vec<Var>,
    next: u32,
    /// Nesting depth of non-uniform control flow (no gradients inside).
    div: u32,
    loops: u32,
    mats: Vec<(String, u8, u8)>,
    arrays: Vec<(String, B, u8, usize)>,
    texs: Vec<Tex>,
    samplers: Vec<String>,
    cmp_samplers: Vec<String>,
    uavs: Vec<UavV>,
    ifaces: Vec<String>,
    gshared: Option<(String, bool, usize)>,
    budget: i32,
    max_depth: u32,
    sb_struct: bool,
    /// Set while writing a patch-constant function: dynamically indexed arrays there
    /// make d3dcompiler_47 abort ("compilation aborted unexpectedly").
    no_arrays: bool,
}

const SAFE_FLITS: &[&str] = &["0.5", "0.25", "0.125", "0.75", "0.333", "0.9", "0.6"];

const FLITS: &[&str] = &["0.5", "1.0", "2.0", "-1.5", "0.25", "3.0", "10.0", "0.125", "-0.75", "0.001", "100.0", "-4.0", "0.333", "7.5"];

impl Gen {
    fn new(c: Caps, r: Rng) -> Gen {
        let max_depth = if c.tiny() {
            1
        } else if c.legacy() || c.l9 != 0 {
            2
        } else {
            3
        };
        Gen {
            r,
            c,
            glob: String::new(),
            body: String::new(),
            ind: 1,
            vars: Vec::new(),
            next: 0,
            div: 0,
            loops: 0,
            mats: Vec::new(),
            arrays: Vec::new(),
            texs: Vec::new(),
            samplers: Vec::new(),
            cmp_samplers: Vec::new(),
            uavs: Vec::new(),
            ifaces: Vec::new(),
            gshared: None,
            budget: 0,
            max_depth,
            sb_struct: false,
            no_arrays: false,
        }
    }

    fn fresh(&mut self, p: &str) -> String {
        self.next += 1;
        format!("{p}{}", self.next)
    }

    fn line(&mut self, s: &str) {
        for _ in 0..self.ind {
            self.body.push_str("    ");
        }
        self.body.push_str(s);
        self.body.push('\n');
    }

    fn var(&mut self, name: &str, b: B, n: u8, mutable: bool) {
        self.vars.push(Var { name: name.to_string(), b, n, mutable });
    }

    fn depth(&mut self) -> u32 {
        self.r.range(0, self.max_depth as usize) as u32
    }

    // ---------------------------------------------------------------- expressions

    fn swz(&mut self, v: &str, have: u8, want: u8) -> String {
        if have == want && (have == 1 || self.r.chance(60)) {
            return v.to_string();
        }
        let comps = b"xyzw";
        let mut s = String::new();
        for i in 0..want {
            let k = if have == 1 {
                0
            } else if self.r.chance(50) && i < have {
                i as usize
            } else {
                self.r.below(have as usize)
            };
            s.push(comps[k] as char);
        }
        format!("{v}.{s}")
    }

    /// A variable of the wanted class converted to exactly `b`/`n`.
    fn leaf(&mut self, b: B, n: u8) -> Option<String> {
        let class = |x: B| -> u8 {
            if x.floaty() {
                0
            } else if x.inty() {
                1
            } else if x == B::D {
                2
            } else {
                3
            }
        };
        let cands: Vec<usize> = (0..self.vars.len()).filter(|&i| class(self.vars[i].b) == class(b)).collect();
        if cands.is_empty() {
            return None;
        }
        let i = *self.r.pick(&cands);
        let v = self.vars[i].clone();
        let s = self.swz(&v.name, v.n, n);
        if v.b == b {
            Some(s)
        } else {
            Some(format!("(({}){s})", tn(b, n)))
        }
    }

    fn flit(&mut self, n: u8) -> String {
        // SM2/3 and level 9 refuse NaN/infinity literals, which constant folding of
        // negative or large literals produces; they get small positive ones.
        let set = if self.c.modern() { FLITS } else { SAFE_FLITS };
        if n == 1 {
            return self.r.pick(set).to_string();
        }
        let xs: Vec<&str> = (0..n).map(|_| *self.r.pick(set)).collect();
        format!("float{n}({})", xs.join(", "))
    }

    fn ilit(&mut self, n: u8, signed: bool) -> String {
        let one = |r: &mut Rng| -> String {
            if signed {
                format!("{}", *r.pick(&[0i32, 1, 2, 3, -1, 5, 7, -8, 16, 255, 1000]))
            } else {
                format!("{}u", *r.pick(&[0u32, 1, 2, 3, 4, 5, 7, 8, 15, 31, 255, 4096, 0xffff]))
            }
        };
        if n == 1 {
            return one(&mut self.r);
        }
        let xs: Vec<String> = (0..n).map(|_| one(&mut self.r)).collect();
        format!("{}{}({})", if signed { "int" } else { "uint" }, n, xs.join(", "))
    }

    fn fx(&mut self, n: u8, d: u32) -> String {
        if d == 0 || self.r.chance(20) {
            if self.r.chance(if self.c.modern() { 80 } else { 92 }) {
                if let Some(s) = self.leaf(B::F, n) {
                    return s;
                }
            }
            return self.flit(n);
        }
        let d1 = d - 1;
        let c = self.c;
        loop {
            match self.r.below(16) {
                0..=2 => {
                    let op = *self.r.pick(&["+", "-", "*", "*", "+", "/"]);
                    let a = self.fx(n, d1);
                    let b = if self.r.chance(25) { self.fx(1, d1) } else { self.fx(n, d1) };
                    return format!("({a} {op} {b})");
                }
                3 | 4 => {
                    let mut fs: Vec<&str> = vec!["abs", "frac", "floor", "saturate", "exp2", "log2", "sqrt", "rsqrt", "sin", "cos", "ceil"];
                    if !c.tiny() {
                        fs.extend_from_slice(&[
                            "exp", "log", "tan", "asin", "acos", "atan", "sinh", "cosh", "tanh", "log10", "degrees", "radians", "round",
                            "trunc", "-",
                        ]);
                    }
                    if c.sm5() {
                        fs.push("rcp");
                    }
                    if c.derivs() && self.div == 0 {
                        fs.extend_from_slice(&["ddx", "ddy", "fwidth"]);
                        if c.sm5() {
                            fs.extend_from_slice(&["ddx_coarse", "ddx_fine", "ddy_coarse", "ddy_fine"]);
                        }
                    }
                    let f = *self.r.pick(&fs);
                    let a = self.fx(n, d1);
                    return format!("{f}({a})");
                }
                5 => {
                    let mut fs = vec!["min", "max", "step"];
                    if !c.tiny() {
                        fs.extend_from_slice(&["pow", "atan2", "fmod", "ldexp"]);
                    }
                    let f = *self.r.pick(&fs);
                    let a = self.fx(n, d1);
                    let b = self.fx(n, d1);
                    return format!("{f}({a}, {b})");
                }
                6 => {
                    let f = *self.r.pick(&["lerp", "clamp", "smoothstep", "mad"]);
                    if c.tiny() && f == "smoothstep" {
                        continue;
                    }
                    let a = self.fx(n, d1);
                    let b = self.fx(n, d1);
                    let e = if f == "lerp" && self.r.chance(40) { self.fx(1, d1) } else { self.fx(n, d1) };
                    return format!("{f}({a}, {b}, {e})");
                }
                7 => {
                    if n == 1 {
                        let m = self.r.range(2, 4) as u8;
                        let a = self.fx(m, d1);
                        let f = *self.r.pick(&["dot", "distance", "length", "dot"]);
                        if f == "length" {
                            return format!("length({a})");
                        }
                        let b = self.fx(m, d1);
                        return format!("{f}({a}, {b})");
                    }
                    let a = self.fx(n, d1);
                    match self.r.below(5) {
                        0 if n == 3 => {
                            let b = self.fx(3, d1);
                            return format!("cross({a}, {b})");
                        }
                        1 => {
                            let b = self.fx(n, d1);
                            return format!("reflect({a}, {b})");
                        }
                        2 if !c.tiny() => {
                            let b = self.fx(n, d1);
                            let e = self.fx(1, d1);
                            return format!("refract({a}, {b}, {e})");
                        }
                        3 if !c.tiny() => {
                            let b = self.fx(n, d1);
                            let e = self.fx(n, d1);
                            return format!("faceforward({a}, {b}, {e})");
                        }
                        _ => return format!("normalize({a})"),
                    }
                }
                8 if c.ints() => {
                    let s = self.r.chance(50);
                    let a = self.ix(n, s, d1);
                    return format!("(({}){a})", tn(B::F, n));
                }
                8 => {
                    let a = self.fx(n, d1);
                    return format!("sign({a})");
                }
                9 => {
                    let cnd = self.cond(n, d1);
                    let a = self.fx(n, d1);
                    let b = self.fx(n, d1);
                    return format!("({cnd} ? {a} : {b})");
                }
                10 if !self.mats.is_empty() => {
                    let (m, rows, cols) = self.mats[self.r.below(self.mats.len())].clone();
                    if cols == n && self.r.chance(50) {
                        let v = self.fx(rows, d1);
                        return format!("mul({v}, {m})");
                    }
                    if rows == n {
                        let v = self.fx(cols, d1);
                        return format!("mul({m}, {v})");
                    }
                    if n == 1 && rows == cols && !c.tiny() {
                        return format!("determinant({m})");
                    }
                    if rows == n && self.r.chance(50) {
                        let v = self.fx(rows, d1);
                        return format!("mul({v}, transpose({m}))");
                    }
                    if cols == n && c.modern() {
                        let i = self.ix(1, true, 0);
                        return format!("{m}[{i} & {}]", if rows == 4 { 3 } else { 1 });
                    }
                }
                11 if !self.arrays.is_empty() => {
                    let k = self.r.below(self.arrays.len());
                    let (a, b, an, len) = self.arrays[k].clone();
                    if !b.floaty() {
                        continue;
                    }
                    let idx = self.index(len);
                    let e = format!("{a}[{idx}]");
                    let s = self.swz(&e, an, n);
                    return s;
                }
                12 if c.ints() => {
                    let a = self.ix(n, false, d1);
                    if c.sm5() && self.r.chance(40) {
                        return format!("f16tof32({a})");
                    }
                    return format!("asfloat({a} & 0x3fffffffu)");
                }
                13 if c.minp() && !c.tiny() => {
                    let t = *self.r.pick(&[B::H, B::H, B::H10]);
                    if t == B::H10 && !c.ps() {
                        continue;
                    }
                    let a = self.fx(n, d1);
                    let b = self.fx(n, d1);
                    return format!("(({})(({})({a}) * ({})({b})))", tn(B::F, n), tn(t, n), tn(t, n));
                }
                14 if c.sm5() && !self.vars.iter().any(|v| v.b == B::D) => {
                    continue;
                }
                14 if c.sm5() => {
                    let a = self.dx(n, d1);
                    return format!("(({}){a})", tn(B::F, n));
                }
                15 if !c.tiny() || self.r.chance(30) => {
                    let a = self.fx(n, d1);
                    if a.contains('[') {
                        continue;
                    }
                    let f = *self.r.pick(&["isnan", "isinf", "isfinite"]);
                    let b = self.fx(n, d1);
                    return format!("({f}({a}) ? {b} : {a})");
                }
                _ => {}
            }
        }
    }

    fn dx(&mut self, n: u8, d: u32) -> String {
        if d == 0 || self.r.chance(30) {
            if let Some(s) = self.leaf(B::D, n) {
                return s;
            }
            let a = self.fx(n, 0);
            return format!("(({}){a})", tn(B::D, n));
        }
        let d1 = d - 1;
        match self.r.below(6) {
            0 | 1 => {
                let op = *self.r.pick(&["+", "-", "*", "/"]);
                let a = self.dx(n, d1);
                let b = self.dx(n, d1);
                format!("({a} {op} {b})")
            }
            2 => {
                let f = *self.r.pick(&["min", "max"]);
                let a = self.dx(n, d1);
                let b = self.dx(n, d1);
                format!("{f}({a}, {b})")
            }
            3 => {
                let a = self.dx(n, d1);
                let b = self.dx(n, d1);
                let e = self.dx(n, d1);
                format!("fma({a}, {b}, {e})")
            }
            4 => {
                let a = self.dx(n, d1);
                let f = *self.r.pick(&["abs", "rcp", "-", "saturate"]);
                format!("{f}({a})")
            }
            _ => {
                let a = self.dx(n, d1);
                let b = self.dx(n, d1);
                let e = self.dx(n, d1);
                format!("(({a} < {b}) ? {e} : {a})")
            }
        }
    }

    fn ix(&mut self, n: u8, signed: bool, d: u32) -> String {
        let b = if signed { B::I } else { B::U };
        if d == 0 || self.r.chance(20) {
            if self.r.chance(75) {
                if let Some(s) = self.leaf(b, n) {
                    return s;
                }
            }
            return self.ilit(n, signed);
        }
        let d1 = d - 1;
        let t = tn(b, n);
        let c = self.c;
        loop {
            match self.r.below(12) {
                0..=2 => {
                    let op = *self.r.pick(&["+", "-", "*", "&", "|", "^"]);
                    let a = self.ix(n, signed, d1);
                    let e = self.ix(n, signed, d1);
                    return format!("({a} {op} {e})");
                }
                3 => {
                    let op = *self.r.pick(&["<<", ">>"]);
                    let a = self.ix(n, signed, d1);
                    let e = self.ix(n, signed, d1);
                    return format!("({a} {op} ({e} & 31))");
                }
                4 => {
                    let op = *self.r.pick(&["/", "%"]);
                    let a = self.ix(n, signed, d1);
                    let e = self.ix(n, signed, d1);
                    if signed {
                        return format!("({a} {op} (({e} & 7) + 1))");
                    }
                    return format!("({a} {op} ({e} | 1u))");
                }
                5 => {
                    let f = *self.r.pick(&["min", "max"]);
                    let a = self.ix(n, signed, d1);
                    let e = self.ix(n, signed, d1);
                    return format!("{f}({a}, {e})");
                }
                6 if c.sm5() => {
                    let f = *self.r.pick(&["countbits", "firstbithigh", "firstbitlow", "reversebits"]);
                    let a = self.ix(n, signed, d1);
                    return format!("(({t}){f}({a}))");
                }
                7 => {
                    let a = self.fx(n, d1);
                    match self.r.below(3) {
                        0 => return format!("(({t}){a})"),
                        1 if c.sm5() => return format!("(({t})f32tof16({a}))"),
                        _ => return format!("(({t}){}({a}))", if signed { "asint" } else { "asuint" }),
                    }
                }
                8 => {
                    let cnd = self.cond(n, d1);
                    let a = self.ix(n, signed, d1);
                    let e = self.ix(n, signed, d1);
                    return format!("({cnd} ? {a} : {e})");
                }
                9 if signed => {
                    let a = self.ix(n, signed, d1);
                    let f = *self.r.pick(&["abs", "-", "~", "sign"]);
                    return format!("(({t}){f}({a}))");
                }
                9 => {
                    let a = self.ix(n, signed, d1);
                    return format!("(~{a})");
                }
                10 if c.sm5() => {
                    let a = self.ix(n, signed, d1);
                    let e = self.ix(n, signed, d1);
                    let g = self.ix(n, signed, d1);
                    return format!("mad({a}, {e}, {g})");
                }
                11 => {
                    let a = self.ix(n, !signed, d1);
                    return format!("(({t}){a})");
                }
                _ => {}
            }
        }
    }

    /// A bool (n = 1) or bool vector condition.
    fn cond(&mut self, n: u8, d: u32) -> String {
        let op = *self.r.pick(&["<", ">", "<=", ">=", "==", "!="]);
        if self.c.ints() && self.r.chance(30) {
            let s = self.r.chance(50);
            let a = self.ix(n, s, d);
            let b = self.ix(n, s, d);
            return format!("({a} {op} {b})");
        }
        let a = self.fx(n, d);
        let b = self.fx(n, d);
        format!("({a} {op} {b})")
    }

    fn bx(&mut self, d: u32) -> String {
        match self.r.below(8) {
            0 => {
                let m = self.r.range(2, 4) as u8;
                let f = *self.r.pick(&["any", "all"]);
                let c = self.cond(m, d);
                format!("{f}({c})")
            }
            1 if !self.c.tiny() => {
                let a = self.bx(d.saturating_sub(1));
                let b = self.bx(d.saturating_sub(1));
                let op = *self.r.pick(&["&&", "||"]);
                format!("({a} {op} {b})")
            }
            2 if self.c.ints() => {
                let a = self.ix(1, false, d);
                format!("(({a} & {}u) != 0)", 1 << self.r.below(4))
            }
            3 => {
                if let Some(s) = self.leaf(B::Bo, 1) {
                    return s;
                }
                self.cond(1, d)
            }
            4 if !self.c.tiny() => {
                let f = *self.r.pick(&["isnan", "isinf", "isfinite"]);
                let a = self.fx(1, d);
                if a.contains('[') {
                    return self.cond(1, d);
                }
                format!("{f}({a})")
            }
            _ => self.cond(1, d),
        }
    }

    /// A dynamic index into an array of `len` elements.
    fn index(&mut self, len: usize) -> String {
        if !self.c.ints() {
            let a = self.fx(1, 0);
            return format!("(int)clamp({a}, 0, {})", len - 1);
        }
        if self.r.chance(20) {
            return format!("{}", self.r.below(len));
        }
        let s = self.r.chance(50);
        let a = self.ix(1, s, 1);
        if len.is_power_of_two() {
            format!("({a} & {})", len - 1)
        } else {
            format!("(uint)({a}) % {len}u")
        }
    }

    /// A multisample index: a literal in range (SM4.0 wants literals), else dynamic.
    fn sample_index(&mut self) -> String {
        if self.c.sm41() && self.r.chance(50) {
            let e = self.ix(1, true, 0);
            format!("({e} & 1)")
        } else {
            format!("{}", self.r.below(2))
        }
    }

    fn rexpr_to4(&self, e: &str, n: u8) -> String {
        match n {
            1 | 4 => format!("(float4)({e})"),
            2 => format!("float4({e}, 0.0, 1.0)"),
            _ => format!("float4({e}, 1.0)"),
        }
    }

    // ---------------------------------------------------------------- statements

    fn accumulate(&mut self) {
        let n = self.r.range(1, 4) as u8;
        let mask = &"xyzw"[..n as usize];
        let op = *self.r.pick(&["+=", "+=", "*=", "=", "-="]);
        let d = self.depth();
        let e = self.fx(n, d);
        if n == 4 {
            self.line(&format!("r {op} {e};"));
        } else {
            self.line(&format!("r.{mask} {op} {e};"));
        }
    }

    fn new_local(&mut self) {
        let c = self.c;
        let n = self.r.range(1, 4) as u8;
        let d = self.depth();
        if c.ints() && self.r.chance(30) {
            let s = self.r.chance(50);
            let b = if s { B::I } else { B::U };
            let e = self.ix(n, s, d);
            let v = self.fresh("i");
            self.line(&format!("{} {v} = {e};", tn(b, n)));
            self.var(&v, b, n, true);
            return;
        }
        let e = self.fx(n, d);
        let v = self.fresh("f");
        let pre = if c.sm >= 40 && self.r.chance(10) { "precise " } else { "" };
        self.line(&format!("{pre}{} {v} = {e};", tn(B::F, n)));
        self.var(&v, B::F, n, true);
    }

    fn modify(&mut self) {
        let cands: Vec<usize> =
            (0..self.vars.len()).filter(|&i| self.vars[i].mutable && (self.vars[i].b == B::F || self.vars[i].b.inty())).collect();
        if cands.is_empty() {
            return self.accumulate();
        }
        let v = self.vars[*self.r.pick(&cands)].clone();
        let d = self.depth();
        let e = if v.b == B::F { self.fx(v.n, d) } else { self.ix(v.n, v.b == B::I, d) };
        let op = *self.r.pick(&["=", "+=", "*="]);
        self.line(&format!("{} {op} {e};", v.name));
    }

    fn block(&mut self, n: usize) {
        let keep = self.vars.len();
        let keep_arr = self.arrays.len();
        let keep_mats = self.mats.len();
        self.ind += 1;
        self.div += 1;
        for _ in 0..n {
            self.stmt();
        }
        self.div -= 1;
        self.ind -= 1;
        self.vars.truncate(keep);
        self.arrays.truncate(keep_arr);
        self.mats.truncate(keep_mats);
    }

    fn stmt(&mut self) {
        self.budget -= 1;
        let c = self.c;
        let nest = self.budget > 2 && self.ind < 4;
        match self.r.below(20) {
            0..=2 => self.accumulate(),
            3..=5 => self.new_local(),
            6 => self.modify(),
            7 | 8 if nest => self.if_stmt(),
            9 if nest && (!c.tiny() || self.r.chance(30)) => self.loop_stmt(),
            10 if nest && c.ints() => self.switch_stmt(),
            11 | 12 | 13 => self.feature(),
            14 if !c.tiny() => self.out_params(),
            15 if c.ps() && self.r.chance(40) => {
                if self.r.chance(50) {
                    let n = self.r.range(1, 4) as u8;
                    let e = self.fx(n, 1);
                    self.line(&format!("clip({e});"));
                } else {
                    let b = self.bx(1);
                    self.line(&format!("if ({b}) discard;"));
                }
            }
            16 if !self.no_arrays && (!self.arrays.is_empty() || self.r.chance(50)) => self.local_array(),
            17 if c.minp() && !c.tiny() => self.minp_block(),
            18 if c.sm5() && !c.cs4() => self.double_block(),
            19 if !c.tiny() => self.local_matrix(),
            _ => self.accumulate(),
        }
    }

    fn if_stmt(&mut self) {
        let c = self.c;
        let attr = if c.dyn_flow() { *self.r.pick(&["", "[branch] ", "[flatten] ", ""]) } else { *self.r.pick(&["", "[flatten] "]) };
        let b = self.bx(1);
        let at = self.body.len();
        self.line(&format!("if ({b})"));
        self.line("{");
        let k = self.r.range(1, 2);
        self.block(k);
        self.line("}");
        if self.r.chance(50) {
            self.line("else");
            self.line("{");
            self.block(1);
            self.line("}");
        }
        let attr = if attr == "[flatten] " && side_effects(&self.body[at..]) { "" } else { attr };
        let pad = self.body[at..].len() - self.body[at..].trim_start().len();
        self.body.insert_str(at + pad, attr);
    }

    fn loop_stmt(&mut self) {
        let c = self.c;
        let i = self.fresh("k");
        let lit = self.r.range(2, if c.tiny() { 3 } else { 6 });
        let dynamic = c.ints() && self.r.chance(50);
        let bound = if dynamic {
            let e = self.ix(1, true, 0);
            format!("({e} & 7)")
        } else {
            lit.to_string()
        };
        let attr = if dynamic {
            *self.r.pick(&["[loop] ", "", "[fastopt] ", "[allow_uav_condition] "])
        } else if c.dyn_flow() {
            *self.r.pick(&["[loop] ", "[unroll] ", "", "[unroll(8)] "])
        } else {
            *self.r.pick(&["[unroll] ", ""])
        };
        let kind = if c.legacy() || c.l9 != 0 { 0 } else { self.r.below(3) };
        let ity = if c.ints() && self.r.chance(30) { "uint" } else { "int" };
        self.loops += 1;
        match kind {
            0 => {
                self.line(&format!("{attr}for ({ity} {i} = 0; {i} < {bound}; ++{i})"));
                self.line("{");
            }
            1 => {
                self.line(&format!("{ity} {i} = 0;"));
                self.line(&format!("{attr}while ({i} < {bound})"));
                self.line("{");
                self.line(&format!("    {i}++;"));
            }
            _ => {
                self.line(&format!("{ity} {i} = 0;"));
                self.line(&format!("{attr}do"));
                self.line("{");
                self.line(&format!("    {i}++;"));
            }
        }
        let keep = self.vars.len();
        if c.ints() {
            self.var(&i, if ity == "int" { B::I } else { B::U }, 1, false);
        } else {
            self.var(&i, B::F, 1, false);
        }
        let k = self.r.range(1, 2);
        self.block(k);
        if c.dyn_flow() && self.r.chance(40) {
            let b = self.bx(1);
            let w = *self.r.pick(&["break", "continue"]);
            self.line(&format!("    if ({b}) {w};"));
        }
        self.vars.truncate(keep);
        self.line("}");
        if kind == 2 {
            self.body.pop();
            self.body.push_str(&format!(" while ({i} < {bound});\n"));
        }
        self.loops -= 1;
    }

    fn switch_stmt(&mut self) {
        let attr = *self.r.pick(&["", "[branch] ", "[flatten] ", "[forcecase] ", "[call] "]);
        let e = self.ix(1, true, 1);
        let cases = self.r.range(1, 4);
        let at = self.body.len();
        self.line(&format!("switch ({e} & 3)"));
        self.line("{");
        for k in 0..cases {
            self.line(&format!("case {k}:"));
            if k + 1 < cases && self.r.chance(25) {
                continue;
            }
            self.line("    {");
            self.ind += 1;
            self.block(1);
            self.line("    break;");
            self.ind -= 1;
            self.line("    }");
        }
        if self.r.chance(60) {
            self.line("default:");
            self.line("    {");
            self.ind += 1;
            self.block(1);
            self.line("    break;");
            self.ind -= 1;
            self.line("    }");
        }
        self.line("}");
        let attr = if attr == "[flatten] " && side_effects(&self.body[at..]) { "" } else { attr };
        let pad = self.body[at..].len() - self.body[at..].trim_start().len();
        self.body.insert_str(at + pad, attr);
    }

    fn out_params(&mut self) {
        let n = self.r.range(1, 4) as u8;
        let t = tn(B::F, n);
        let a = self.fresh("o");
        let b = self.fresh("o");
        let e = self.fx(n, 1);
        match self.r.below(3) {
            0 => {
                self.line(&format!("{t} {a}, {b};"));
                self.line(&format!("sincos({e}, {a}, {b});"));
            }
            1 => {
                self.line(&format!("{t} {b};"));
                self.line(&format!("{t} {a} = modf({e}, {b});"));
            }
            _ => {
                self.line(&format!("{t} {b};"));
                self.line(&format!("{t} {a} = frexp({e}, {b});"));
            }
        }
        self.var(&a, B::F, n, true);
        self.var(&b, B::F, n, true);
    }

    fn local_matrix(&mut self) {
        let (rows, cols) = *self.r.pick(&[(3u8, 3u8), (4, 4), (2, 3), (3, 4), (2, 2)]);
        let m = self.fresh("mx");
        let maj = if self.c.sm >= 40 { *self.r.pick(&["", "row_major ", "column_major "]) } else { "" };
        let rs: Vec<String> = (0..rows).map(|_| self.fx(cols, 1)).collect();
        self.line(&format!("{maj}float{rows}x{cols} {m} = float{rows}x{cols}({});", rs.join(", ")));
        if self.r.chance(40) {
            let e = self.fx(cols, 1);
            // a matrix row is written with a literal index (rows are not addressable)
            let i = self.r.below(rows as usize);
            self.line(&format!("{m}[{i}] = {e};"));
        }
        let v = self.fx(rows, 1);
        let r4 = self.rexpr_to4(&format!("mul({v}, {m})"), cols);
        self.line(&format!("r += {r4};"));
        self.mats.push((m, rows, cols));
    }

    fn local_array(&mut self) {
        let c = self.c;
        let len = *self.r.pick(&[2usize, 3, 4, 8]);
        let n = self.r.range(1, 4) as u8;
        let t = tn(B::F, n);
        let a = self.fresh("la");
        let inits: Vec<String> = (0..len).map(|_| self.fx(n, 0)).collect();
        self.line(&format!("{t} {a}[{len}] = {{ {} }};", inits.join(", ")));
        if c.ints() && self.r.chance(60) {
            let i = self.index(len);
            let e = self.fx(n, 1);
            self.line(&format!("{a}[{i}] = {e};"));
        }
        self.arrays.push((a.clone(), B::F, n, len));
        let i = self.index(len);
        let e = format!("{a}[{i}]");
        let s = self.rexpr_to4(&e, n);
        self.line(&format!("r += {s};"));
    }

    fn minp_block(&mut self) {
        let c = self.c;
        let n = self.r.range(1, 4) as u8;
        let mut ts = vec![B::H, B::H];
        if c.ps() {
            ts.push(B::H10);
        }
        if c.ints() {
            ts.extend_from_slice(&[B::I16, B::U16]);
        }
        let b = *self.r.pick(&ts);
        let v = self.fresh("m");
        let t = tn(b, n);
        if b.floaty() {
            let e = self.fx(n, 1);
            let e2 = self.fx(n, 1);
            self.line(&format!("{t} {v} = ({t})({e});"));
            self.line(&format!("{v} = {v} * {v} + ({t})({e2});"));
            let r4 = self.rexpr_to4(&format!("(float{n}){v}", n = if n == 1 { "".to_string() } else { n.to_string() }), n);
            self.line(&format!("r += {r4};"));
        } else {
            let e = self.ix(n, b == B::I16, 1);
            self.line(&format!("{t} {v} = ({t})({e});"));
            let op = *self.r.pick(&["+", "*", "&", "|", "^"]);
            self.line(&format!("{v} = {v} {op} ({t})({v} >> 1);"));
            let fty = tn(B::F, n);
            let r4 = self.rexpr_to4(&format!("({fty}){v}"), n);
            self.line(&format!("r += {r4};"));
        }
        self.var(&v, b, n, true);
    }

    fn double_block(&mut self) {
        let n = self.r.range(1, 2) as u8;
        let v = self.fresh("d");
        let t = tn(B::D, n);
        let e = self.fx(n, 1);
        self.line(&format!("{t} {v} = ({t})({e});"));
        self.var(&v, B::D, n, true);
        if self.c.ints() && self.r.chance(30) {
            let lo = self.fresh("u");
            let hi = self.fresh("u");
            self.line(&format!("uint {lo}, {hi};"));
            self.line(&format!("asuint({v}.x, {lo}, {hi});"));
            self.line(&format!("{v}.x = asdouble({lo} ^ 1u, {hi});"));
        }
        let e = self.dx(n, 2);
        self.line(&format!("{v} = {e};"));
        let ft = tn(B::F, n);
        let r4 = self.rexpr_to4(&format!("({ft}){v}"), n);
        self.line(&format!("r += {r4};"));
        if self.c.ints() && self.r.chance(30) {
            self.line(&format!("r.w += (float)((int){v}.x + (uint){v}.x);"));
        }
    }

    // ---------------------------------------------------------------- features

    fn feature(&mut self) {
        let mut opts: Vec<u8> = Vec::new();
        if !self.texs.is_empty() {
            opts.extend_from_slice(&[0, 0, 0]);
        }
        if !self.uavs.is_empty() {
            opts.extend_from_slice(&[1, 1]);
        }
        if !self.ifaces.is_empty() {
            opts.push(2);
        }
        if self.gshared.is_some() {
            opts.push(3);
        }
        if opts.is_empty() {
            return self.accumulate();
        }
        match *self.r.pick(&opts) {
            0 => self.tex_op(),
            1 => self.uav_op(),
            2 => {
                let mut i = self.ifaces[self.r.below(self.ifaces.len())].clone();
                if i == "g_if[]" {
                    // the index of an interface call must be uniform
                    i = format!("g_if[{}]", self.r.below(2));
                }
                self.line(&format!("r = {i}.f(r);"));
            }
            _ => self.gshared_op(),
        }
    }

    fn tex_op(&mut self) {
        let c = self.c;
        if c.legacy() {
            return self.legacy_tex();
        }
        let k = self.r.below(self.texs.len());
        let (name, res, n, float) = {
            let t = &self.texs[k];
            (t.name.clone(), t.res, t.n, t.float)
        };
        let ps_ok = c.ps() && self.div == 0;
        let v = self.fresh("s");
        let mut out_n = n;
        let mut out_b = if float { B::F } else { B::U };
        let elem = if float { tn(B::F, n) } else { tn(B::U, n) };
        let off = |g: &mut Gen| -> String {
            let d = res.off();
            let xs: Vec<String> = (0..d).map(|_| format!("{}", g.r.range(0, 15) as i32 - 8)).collect();
            if d == 1 {
                xs[0].clone()
            } else {
                format!("int{d}({})", xs.join(", "))
            }
        };
        let want_off = res.off() > 0 && c.l9 == 0 && self.r.chance(40);
        let e: String;
        let mut methods: Vec<u8> = Vec::new();
        if res.sampled() && float {
            if ps_ok {
                // pixel-only methods are weighted up: they are only possible outside flow control
                methods.extend_from_slice(&[0, 0, 0, 0]);
                if c.l9 == 0 {
                    methods.extend_from_slice(&[3, 3]);
                }
                if res.cmp() && !self.cmp_samplers.is_empty() && c.l9 == 0 && (c.sm41() || matches!(res, Res::T1 | Res::T2)) {
                    methods.extend_from_slice(&[4, 4, 4]);
                }
                if c.sm41() {
                    methods.extend_from_slice(&[7, 7]);
                }
            }
            if c.l9 == 0 {
                methods.extend_from_slice(&[1, 1, 2]);
                if res.cmp() && !self.cmp_samplers.is_empty() && (c.sm41() || matches!(res, Res::T1 | Res::T2)) {
                    methods.push(5);
                }
                if res.gather() && c.sm41() && (res != Res::TCA || c.sm5()) {
                    methods.extend_from_slice(&[6, 6]);
                }
            } else if ps_ok && c.l9 == 3 {
                methods.push(3);
            }
        }
        if res.load() > 0 && c.l9 == 0 {
            methods.extend_from_slice(&[8, 8, 10]);
        }
        if matches!(res, Res::SB | Res::BAB) {
            methods.extend_from_slice(&[8, 8, 8]);
        }
        if c.l9 == 0 && (c.sm5() || !matches!(res, Res::Buf | Res::SB | Res::BAB)) {
            methods.push(9);
        }
        if methods.is_empty() {
            return self.accumulate();
        }
        let s = if self.samplers.is_empty() { String::new() } else { self.samplers[self.r.below(self.samplers.len())].clone() };
        let cd = res.coord();
        match *self.r.pick(&methods) {
            0 => {
                let uv = self.fx(cd, 1);
                let o = if want_off { format!(", {}", off(self)) } else { String::new() };
                e = format!("{name}.Sample({s}, {uv}{o})");
            }
            1 => {
                let uv = self.fx(cd, 1);
                let l = self.fx(1, 0);
                let o = if want_off { format!(", {}", off(self)) } else { String::new() };
                e = format!("{name}.SampleLevel({s}, {uv}, {l}{o})");
            }
            2 => {
                let uv = self.fx(cd, 1);
                let gd = res.grad();
                let gx = self.fx(gd, 0);
                let gy = self.fx(gd, 0);
                let o = if want_off { format!(", {}", off(self)) } else { String::new() };
                e = format!("{name}.SampleGrad({s}, {uv}, {gx}, {gy}{o})");
            }
            3 => {
                let uv = self.fx(cd, 1);
                let l = self.fx(1, 0);
                let o = if want_off { format!(", {}", off(self)) } else { String::new() };
                e = format!("{name}.SampleBias({s}, {uv}, {l}{o})");
            }
            4 | 5 => {
                let sc = self.cmp_samplers[self.r.below(self.cmp_samplers.len())].clone();
                let uv = self.fx(cd, 1);
                let l = self.fx(1, 0);
                let o = if want_off { format!(", {}", off(self)) } else { String::new() };
                let m = if self.r.chance(50) && ps_ok { "SampleCmp" } else { "SampleCmpLevelZero" };
                e = format!("{name}.{m}({sc}, {uv}, {l}{o})");
                out_n = 1;
            }
            6 => {
                let uv = self.fx(cd, 1);
                let cmp = c.sm5() && !self.cmp_samplers.is_empty() && self.r.chance(30);
                let ch = if c.sm5() { *self.r.pick(&["", "Red", "Green", "Blue", "Alpha"]) } else { "" };
                let o = if (res == Res::T2 || res == Res::T2A) && self.r.chance(40) {
                    if c.sm5() && self.r.chance(50) {
                        let oo = self.ix(2, true, 0);
                        format!(", {oo}")
                    } else {
                        format!(", {}", off(self))
                    }
                } else {
                    String::new()
                };
                if cmp {
                    let sc = self.cmp_samplers[self.r.below(self.cmp_samplers.len())].clone();
                    let l = self.fx(1, 0);
                    e = format!("{name}.GatherCmp{ch}({sc}, {uv}, {l}{o})");
                } else {
                    e = format!("{name}.Gather{ch}({s}, {uv}{o})");
                }
                out_n = 4;
            }
            7 => {
                let uv = self.fx(cd, 1);
                let m = *self.r.pick(&["CalculateLevelOfDetail", "CalculateLevelOfDetailUnclamped"]);
                e = format!("{name}.{m}({s}, {uv})");
                out_n = 1;
                out_b = B::F;
            }
            8 => match res {
                Res::SB => {
                    let i = self.ix(1, false, 1);
                    if self.sb_struct {
                        let m = *self.r.pick(&["a", "b"]);
                        e = format!("{name}[{i}].{m}");
                        out_n = if m == "a" { 4 } else { 2 };
                        out_b = B::F;
                    } else {
                        e = if c.sm5() && self.r.chance(50) { format!("{name}.Load({i})") } else { format!("{name}[{i}]") };
                    }
                }
                Res::BAB => {
                    let i = self.ix(1, false, 1);
                    let k = self.r.range(1, 4);
                    let suf = if k == 1 { String::new() } else { k.to_string() };
                    e = format!("{name}.Load{suf}(({i}) << 2)");
                    out_n = k as u8;
                    out_b = B::U;
                }
                _ => {
                    let l = self.ix(res.load(), true, 1);
                    let sample = if matches!(res, Res::T2MS | Res::T2MSA) {
                        let si = self.sample_index();
                        format!(", {si}")
                    } else {
                        String::new()
                    };
                    let o = if want_off && res != Res::Buf { format!(", {}", off(self)) } else { String::new() };
                    e = format!("{name}.Load({l}{sample}{o})");
                }
            },
            10 => {
                let l = match res {
                    Res::Buf => 1,
                    Res::T2MS => 2,
                    Res::T2MSA => 3,
                    r => r.load() - 1,
                };
                if matches!(res, Res::T2MS | Res::T2MSA) {
                    if c.sm41() && self.r.chance(50) {
                        let si = self.sample_index();
                        e = format!("{name}.GetSamplePosition({si})");
                        out_n = 2;
                        out_b = B::F;
                    } else {
                        let si = self.sample_index();
                        let l = self.ix(l, false, 1);
                        e = format!("{name}.sample[{si}][{l}]");
                    }
                } else if res != Res::Buf && self.r.chance(40) {
                    let m = self.ix(1, false, 0);
                    let l = self.ix(l, false, 1);
                    e = format!("{name}.mips[{m}][{l}]");
                } else {
                    let l = self.ix(l, false, 1);
                    e = format!("{name}[{l}]");
                }
            }
            _ => {
                let (a, b) = res.dims();
                let mip = b > 0 && self.r.chance(50);
                let cnt = if mip { b } else { a };
                let names: Vec<String> = (0..cnt).map(|_| self.fresh("w")).collect();
                self.line(&format!("uint {};", names.join(", ")));
                let args = if mip {
                    let m = self.ix(1, false, 0);
                    format!("{m}, {}", names.join(", "))
                } else {
                    names.join(", ")
                };
                self.line(&format!("{name}.GetDimensions({args});"));
                let sum = names.join(" + ");
                self.line(&format!("r.x += (float)({sum});"));
                for w in names {
                    self.var(&w, B::U, 1, false);
                }
                return;
            }
        }
        let _ = elem;
        let t = tn(out_b, out_n);
        self.line(&format!("{t} {v} = {e};"));
        self.var(&v, out_b, out_n, true);
        let f = if out_b == B::F { v.clone() } else { format!("({}){v}", tn(B::F, out_n)) };
        let r4 = self.rexpr_to4(&f, out_n);
        self.line(&format!("r += {r4};"));
    }

    fn legacy_tex(&mut self) {
        let c = self.c;
        let k = self.r.below(self.texs.len());
        let (name, res) = (self.texs[k].name.clone(), self.texs[k].res);
        let v = self.fresh("s");
        let (f, cd) = match res {
            Res::T1 => ("tex1D", 1),
            Res::T3 => ("tex3D", 3),
            Res::TC => ("texCUBE", 3),
            _ => ("tex2D", 2),
        };
        let ps_ok = c.ps() && self.div == 0;
        let e = if c.stage == Stage::Vs || (c.sm == 30 && self.r.chance(30)) {
            let uv = self.fx(4, 1);
            format!("{f}lod({name}, {uv})")
        } else {
            let m = if ps_ok { self.r.below(5) } else { 4 };
            match m {
                0 | 1 => {
                    let uv = self.fx(cd, if c.tiny() { 0 } else { 1 });
                    format!("{f}({name}, {uv})")
                }
                2 => {
                    let uv = self.fx(4, 0);
                    format!("{f}proj({name}, {uv})")
                }
                3 => {
                    let uv = self.fx(4, 0);
                    format!("{f}bias({name}, {uv})")
                }
                _ if c.sm == 21 || c.sm == 30 => {
                    let uv = self.fx(cd, 0);
                    let gx = self.fx(cd, 0);
                    let gy = self.fx(cd, 0);
                    format!("{f}grad({name}, {uv}, {gx}, {gy})")
                }
                _ => {
                    if !ps_ok {
                        return self.accumulate();
                    }
                    let uv = self.fx(cd, 0);
                    format!("{f}({name}, {uv})")
                }
            }
        };
        self.line(&format!("float4 {v} = {e};"));
        self.var(&v, B::F, 4, true);
        self.line(&format!("r += {v};"));
    }

    fn uav_op(&mut self) {
        let c = self.c;
        let k = self.r.below(self.uavs.len());
        let (name, kind, b, n, counter) = {
            let u = &self.uavs[k];
            (u.name.clone(), u.kind, u.b, u.n, u.counter)
        };
        let atomics = !c.cs4();
        let coord = |g: &mut Gen| -> String {
            let d = match kind {
                Uav::T1 | Uav::Buf | Uav::SB => 1,
                Uav::T1A | Uav::T2 => 2,
                _ => 3,
            };
            g.ix(d, false, 1)
        };
        match kind {
            Uav::Append => {
                let e = self.fx(4, 1);
                self.line(&format!("{name}.Append({e});"));
            }
            Uav::Consume => {
                let v = self.fresh("cv");
                self.line(&format!("float4 {v} = {name}.Consume();"));
                self.line(&format!("r += {v};"));
                self.var(&v, B::F, 4, true);
            }
            Uav::BAB => {
                let a = self.ix(1, false, 1);
                match self.r.below(4) {
                    0 => {
                        let k = self.r.range(1, 4) as u8;
                        let e = self.ix(k, false, 1);
                        let suf = if k == 1 { String::new() } else { k.to_string() };
                        self.line(&format!("{name}.Store{suf}(({a}) << 2, {e});"));
                    }
                    1 => {
                        let v = self.fresh("ul");
                        self.line(&format!("uint2 {v} = {name}.Load2(({a}) << 2);"));
                        self.line(&format!("r.xy += (float2){v};"));
                        self.var(&v, B::U, 2, true);
                    }
                    2 if atomics => {
                        let f = *self.r.pick(&["Add", "Min", "Max", "And", "Or", "Xor", "Exchange"]);
                        let e = self.ix(1, false, 1);
                        if f != "Exchange" && self.r.chance(40) {
                            self.line(&format!("{name}.Interlocked{f}(({a}) << 2, {e});"));
                        } else {
                            let o = self.fresh("old");
                            self.line(&format!("uint {o};"));
                            self.line(&format!("{name}.Interlocked{f}(({a}) << 2, {e}, {o});"));
                            self.line(&format!("r.y += (float){o};"));
                        }
                    }
                    2 | 3 if atomics => {
                        let e = self.ix(1, false, 1);
                        let e2 = self.ix(1, false, 1);
                        if self.r.chance(50) {
                            self.line(&format!("{name}.InterlockedCompareStore(({a}) << 2, {e}, {e2});"));
                        } else {
                            let o = self.fresh("old");
                            self.line(&format!("uint {o};"));
                            self.line(&format!("{name}.InterlockedCompareExchange(({a}) << 2, {e}, {e2}, {o});"));
                            self.line(&format!("r.z += (float){o};"));
                        }
                    }
                    _ => {
                        let w = self.fresh("w");
                        self.line(&format!("uint {w};"));
                        self.line(&format!("{name}.GetDimensions({w});"));
                        self.line(&format!("r.w += (float){w};"));
                    }
                }
            }
            Uav::SB => {
                let i = coord(self);
                if counter && self.r.chance(30) {
                    let cv = self.fresh("cnt");
                    self.line(&format!("uint {cv} = {name}.IncrementCounter();"));
                    self.var(&cv, B::U, 1, false);
                    let e = self.fx(4, 1);
                    self.line(&format!("{name}[{cv}].a = {e};"));
                    return;
                }
                match self.r.below(4) {
                    0 => {
                        let e = self.fx(4, 1);
                        self.line(&format!("{name}[{i}].a = {e};"));
                    }
                    1 => {
                        let v = self.fresh("sv");
                        self.line(&format!("float4 {v} = {name}[{i}].a;"));
                        self.line(&format!("r += {v};"));
                        self.var(&v, B::F, 4, true);
                    }
                    2 if atomics => {
                        let f = *self.r.pick(&["Add", "Min", "Max", "Or", "Exchange"]);
                        let e = self.ix(1, false, 1);
                        let o = self.fresh("old");
                        self.line(&format!("uint {o};"));
                        self.line(&format!("Interlocked{f}({name}[{i}].c, {e}, {o});"));
                        self.line(&format!("r.x += (float){o};"));
                    }
                    _ => {
                        let e = self.ix(1, false, 1);
                        self.line(&format!("{name}[{i}].c = {e};"));
                    }
                }
            }
            _ => {
                let i = coord(self);
                let scalar32 = n == 1;
                match self.r.below(4) {
                    0 | 1 => {
                        let e = if b == B::F { self.fx(n, 1) } else { self.ix(n, b == B::I, 1) };
                        self.line(&format!("{name}[{i}] = {e};"));
                    }
                    2 if scalar32 => {
                        let v = self.fresh("uv");
                        self.line(&format!("{} {v} = {name}[{i}];", tn(b, 1)));
                        self.line(&format!("r.x += (float){v};"));
                        self.var(&v, b, 1, true);
                    }
                    3 if scalar32 && b != B::F && atomics => {
                        let f = *self.r.pick(&["Add", "Min", "Max", "And", "Or", "Xor", "Exchange", "CompareExchange"]);
                        let e = self.ix(1, b == B::I, 1);
                        let o = self.fresh("old");
                        self.line(&format!("{} {o};", tn(b, 1)));
                        if f == "CompareExchange" {
                            let e2 = self.ix(1, b == B::I, 1);
                            self.line(&format!("InterlockedCompareExchange({name}[{i}], {e}, {e2}, {o});"));
                        } else {
                            self.line(&format!("Interlocked{f}({name}[{i}], {e}, {o});"));
                        }
                        self.line(&format!("r.y += (float){o};"));
                    }
                    _ => {
                        let d = match kind {
                            Uav::T1 | Uav::Buf => 1,
                            Uav::T1A | Uav::T2 => 2,
                            _ => 3,
                        };
                        let ws: Vec<String> = (0..d).map(|_| self.fresh("w")).collect();
                        self.line(&format!("uint {};", ws.join(", ")));
                        self.line(&format!("{name}.GetDimensions({});", ws.join(", ")));
                        self.line(&format!("r.z += (float)({});", ws.join(" + ")));
                    }
                }
            }
        }
    }

    fn gshared_op(&mut self) {
        let Some((g, is_uint, len)) = self.gshared.clone() else {
            return;
        };
        let c = self.c;
        let own = if c.cs4() { "gi".to_string() } else { format!("(gi + {}) % {len}", self.r.below(len)) };
        if is_uint {
            let e = self.ix(1, false, 1);
            if c.sm5() && self.r.chance(50) {
                let f = *self.r.pick(&["Add", "Min", "Max", "And", "Or", "Xor"]);
                self.line(&format!("Interlocked{f}({g}[{own}], {e});"));
            } else {
                self.line(&format!("{g}[{own}] = {e};"));
            }
        } else {
            let e = self.fx(4, 1);
            self.line(&format!("{g}[{own}] = {e};"));
        }
        if self.div == 0 {
            let b = *self.r.pick(&[
                "GroupMemoryBarrierWithGroupSync",
                "GroupMemoryBarrierWithGroupSync",
                "GroupMemoryBarrier",
                "DeviceMemoryBarrierWithGroupSync",
                "DeviceMemoryBarrier",
                "AllMemoryBarrierWithGroupSync",
                "AllMemoryBarrier",
            ]);
            self.line(&format!("{b}();"));
        }
        let i = self.index(len);
        if is_uint {
            self.line(&format!("r.x += (float){g}[{i}];"));
        } else {
            self.line(&format!("r += {g}[{i}];"));
        }
    }

    // ---------------------------------------------------------------- globals

    fn globals(&mut self) {
        let c = self.c;
        if c.legacy() {
            return self.legacy_globals();
        }
        // a struct for cbuffers and structured buffers
        let need_struct = self.r.chance(40) || c.sm5() || c.stage == Stage::Cs;
        if need_struct {
            self.glob.push_str("struct S0\n{\n    float4 a;\n    float2 b;\n");
            self.glob.push_str(if c.ints() { "    uint c;\n" } else { "    float c;\n" });
            self.glob.push_str("};\n");
        }
        let ncb = self.r.range(1, 2);
        for k in 0..ncb {
            let kw = if k == 1 && c.modern() && self.r.chance(40) { "tbuffer" } else { "cbuffer" };
            let reg = if kw == "cbuffer" && self.r.chance(25) { format!(" : register(b{})", k + 1) } else { String::new() };
            let _ = writeln!(self.glob, "{kw} CB{k}{reg}\n{{");
            let nm = self.r.range(2, 6);
            for j in 0..nm {
                let name = format!("c{k}_{j}");
                let choice = self.r.below(if kw == "tbuffer" { 3 } else { 9 });
                match choice {
                    0..=2 => {
                        let n = self.r.range(1, 4) as u8;
                        let t = if c.ints() && self.r.chance(25) { *self.r.pick(&[B::I, B::U]) } else { B::F };
                        let _ = writeln!(self.glob, "    {} {name};", tn(t, n));
                        self.var(&name, t, n, false);
                    }
                    3 | 4 => {
                        let (rows, cols) = *self.r.pick(&[(4u8, 4u8), (3, 3), (4, 3), (3, 4), (2, 2), (4, 2)]);
                        let maj = *self.r.pick(&["", "row_major ", "column_major "]);
                        let _ = writeln!(self.glob, "    {maj}float{rows}x{cols} {name};");
                        self.mats.push((name, rows, cols));
                    }
                    5 | 6 => {
                        let len = *self.r.pick(&[2usize, 4, 3, 8]);
                        let n = self.r.range(1, 4) as u8;
                        let _ = writeln!(self.glob, "    float{n} {name}[{len}];");
                        self.arrays.push((name, B::F, n, len));
                    }
                    7 if need_struct => {
                        let _ = writeln!(self.glob, "    S0 {name};");
                        self.var(&format!("{name}.a"), B::F, 4, false);
                        self.var(&format!("{name}.b"), B::F, 2, false);
                    }
                    _ if c.ints() => {
                        let _ = writeln!(self.glob, "    bool {name};");
                        self.var(&name, B::Bo, 1, false);
                    }
                    _ => {
                        let _ = writeln!(self.glob, "    float4 {name};");
                        self.var(&name, B::F, 4, false);
                    }
                }
            }
            self.glob.push_str("};\n");
        }
        if self.r.chance(30) {
            let n = self.r.range(1, 4) as u8;
            let init = self.flit(n);
            let _ = writeln!(self.glob, "{} g_def = {init};", tn(B::F, n));
            self.var("g_def", B::F, n, false);
        }
        if self.r.chance(35) {
            let len = *self.r.pick(&[4usize, 8, 5]);
            let n = self.r.range(1, 4) as u8;
            let items: Vec<String> = (0..len).map(|_| self.flit(n)).collect();
            let _ = writeln!(self.glob, "static const {} g_icb[{len}] = {{ {} }};", tn(B::F, n), items.join(", "));
            self.arrays.push(("g_icb".to_string(), B::F, n, len));
        }
        // resources
        let mut res: Vec<Res> = vec![Res::T2, Res::T2, Res::TC];
        if c.l9 == 0 {
            res.extend_from_slice(&[Res::T1, Res::T1A, Res::T2A, Res::T3, Res::Buf, Res::T2A, Res::T3]);
            if c.ps() || c.sm41() {
                res.extend_from_slice(&[Res::T2MS, Res::T2MSA]);
            }
            if c.sm41() {
                res.push(Res::TCA);
            }
            if c.sm5() || c.stage == Stage::Cs {
                res.extend_from_slice(&[Res::SB, Res::BAB, Res::SB]);
            }
        }
        let want_tex = !(c.l9 != 0 && c.stage == Stage::Vs);
        let ntex = if want_tex { self.r.range(0, 3) } else { 0 };
        for k in 0..ntex {
            let rs = *self.r.pick(&res);
            let name = format!("t{k}");
            let (n, float) = if rs == Res::BAB {
                (1, false)
            } else if rs == Res::SB {
                if need_struct && self.r.chance(60) {
                    self.sb_struct = true;
                    let _ = writeln!(self.glob, "StructuredBuffer<S0> {name};");
                    self.texs.push(Tex { name, res: rs, n: 4, float: true });
                    continue;
                }
                (4, true)
            } else if c.l9 == 0 && !rs.sampled() && self.r.chance(30) {
                (self.r.range(1, 4) as u8, false)
            } else if c.l9 == 0 && self.r.chance(20) && !matches!(rs, Res::TC | Res::TCA) {
                (self.r.range(1, 4) as u8, false)
            } else {
                (*self.r.pick(&[4u8, 4, 1, 2, 3]), true)
            };
            let elem = if float { tn(B::F, n) } else { tn(B::U, n) };
            let decl = match rs {
                Res::BAB => format!("ByteAddressBuffer {name};"),
                Res::T2MS | Res::T2MSA => {
                    let s = *self.r.pick(&[2, 4, 8]);
                    format!("{}<{elem}, {s}> {name};", rs.decl())
                }
                _ if self.r.chance(20) && n == 4 && float && rs != Res::SB => format!("{} {name};", rs.decl()),
                _ => format!("{}<{elem}> {name};", rs.decl()),
            };
            self.glob.push_str(&decl);
            self.glob.push('\n');
            self.texs.push(Tex { name, res: rs, n, float });
        }
        if self.texs.iter().any(|t| t.res.sampled()) {
            let ns = self.r.range(1, 2);
            for k in 0..ns {
                let _ = writeln!(self.glob, "SamplerState ss{k};");
                self.samplers.push(format!("ss{k}"));
            }
            if c.l9 == 0 && self.r.chance(40) {
                self.glob.push_str("SamplerComparisonState sc0;\n");
                self.cmp_samplers.push("sc0".to_string());
            }
        }
        // UAVs
        let uav_stage = c.sm5() || c.stage == Stage::Cs;
        if uav_stage {
            let nu = if c.cs4() {
                0
            } else if c.stage == Stage::Cs || c.ps() {
                self.r.range(0, 2)
            } else if self.r.chance(25) {
                1
            } else {
                0
            };
            for k in 0..nu {
                let kind = *self.r.pick(&[
                    Uav::T1,
                    Uav::T1A,
                    Uav::T2,
                    Uav::T2,
                    Uav::T2A,
                    Uav::T3,
                    Uav::Buf,
                    Uav::SB,
                    Uav::SB,
                    Uav::BAB,
                    Uav::BAB,
                    Uav::Append,
                    Uav::Consume,
                ]);
                let name = format!("rw{}", k + 1);
                let (b, n) = *self.r.pick(&[(B::F, 4u8), (B::U, 1), (B::I, 1), (B::F, 1), (B::U, 1)]);
                let mut counter = false;
                let decl = match kind {
                    Uav::SB => {
                        self.ensure_struct(need_struct);
                        counter = self.r.chance(30);
                        format!("RWStructuredBuffer<S0> {name};")
                    }
                    Uav::BAB => format!("RWByteAddressBuffer {name};"),
                    Uav::Append => format!("AppendStructuredBuffer<float4> {name};"),
                    Uav::Consume => format!("ConsumeStructuredBuffer<float4> {name};"),
                    _ => {
                        let d = match kind {
                            Uav::T1 => "RWTexture1D",
                            Uav::T1A => "RWTexture1DArray",
                            Uav::T2 => "RWTexture2D",
                            Uav::T2A => "RWTexture2DArray",
                            Uav::T3 => "RWTexture3D",
                            _ => "RWBuffer",
                        };
                        format!("{d}<{}> {name};", tn(b, n))
                    }
                };
                self.glob.push_str(&decl);
                self.glob.push('\n');
                self.uavs.push(UavV { name, kind, b, n, counter });
            }
        }
        // interfaces and classes
        if c.sm5() && self.r.chance(20) {
            self.glob.push_str("interface IF0\n{\n    float4 f(float4 x);\n};\n");
            let ncls = self.r.range(1, 3);
            let save = std::mem::take(&mut self.vars);
            let save_arr = std::mem::take(&mut self.arrays);
            let save_mats = std::mem::take(&mut self.mats);
            self.div += 1;
            for k in 0..ncls {
                self.vars = vec![Var { name: "x".into(), b: B::F, n: 4, mutable: false }];
                let data = self.r.chance(40);
                if data {
                    self.vars.push(Var { name: "k".into(), b: B::F, n: 4, mutable: false });
                }
                let e = self.fx(4, 2);
                let _ = writeln!(self.glob, "class CL{k} : IF0\n{{");
                if data {
                    self.glob.push_str("    float4 k;\n");
                }
                let _ = writeln!(self.glob, "    float4 f(float4 x) {{ return {e}; }}\n}};");
                let _ = writeln!(self.glob, "CL{k} g_cl{k};");
            }
            self.div -= 1;
            self.vars = save;
            self.arrays = save_arr;
            self.mats = save_mats;
            if self.r.chance(30) {
                self.glob.push_str("IF0 g_if[2];\n");
                self.ifaces.push("g_if[]".to_string());
            } else {
                self.glob.push_str("IF0 g_if;\n");
                self.ifaces.push("g_if".to_string());
            }
        }
    }

    fn ensure_struct(&mut self, have: bool) {
        if !have && !self.glob.contains("struct S0") {
            let s = format!("struct S0\n{{\n    float4 a;\n    float2 b;\n    uint c;\n}};\n{}", self.glob);
            self.glob = s;
        }
    }

    fn legacy_globals(&mut self) {
        let c = self.c;
        let nm = self.r.range(1, 4);
        for j in 0..nm {
            let name = format!("lg{j}");
            match self.r.below(6) {
                0..=2 => {
                    let n = self.r.range(1, 4) as u8;
                    if self.r.chance(25) {
                        let init = self.flit(n);
                        let _ = writeln!(self.glob, "{} {name} = {init};", tn(B::F, n));
                    } else {
                        let _ = writeln!(self.glob, "{} {name};", tn(B::F, n));
                    }
                    self.var(&name, B::F, n, false);
                }
                3 => {
                    let (rows, cols) = *self.r.pick(&[(4u8, 4u8), (3, 3), (4, 3)]);
                    let maj = *self.r.pick(&["", "row_major ", "column_major "]);
                    let _ = writeln!(self.glob, "{maj}float{rows}x{cols} {name};");
                    self.mats.push((name, rows, cols));
                }
                4 if c.stage == Stage::Vs => {
                    let len = *self.r.pick(&[2usize, 4, 8]);
                    let _ = writeln!(self.glob, "float4 {name}[{len}];");
                    self.arrays.push((name, B::F, 4, len));
                }
                _ => {
                    let _ = writeln!(self.glob, "bool {name};");
                    self.var(&name, B::Bo, 1, false);
                }
            }
        }
        let tex_ok = c.ps() || c.sm == 30;
        if tex_ok {
            let nt = self.r.range(0, if c.tiny() { 2 } else { 3 });
            for k in 0..nt {
                let (d, rs) = if c.stage == Stage::Vs {
                    *self.r.pick(&[("sampler2D", Res::T2)])
                } else {
                    *self.r.pick(&[
                        ("sampler2D", Res::T2),
                        ("sampler2D", Res::T2),
                        ("samplerCUBE", Res::TC),
                        ("sampler3D", Res::T3),
                        ("sampler1D", Res::T1),
                    ])
                };
                let name = format!("smp{k}");
                let _ = writeln!(self.glob, "{d} {name};");
                self.texs.push(Tex { name, res: rs, n: 4, float: true });
            }
        }
    }

    // ---------------------------------------------------------------- body and templates

    fn body_stmts(&mut self, n: i32) {
        self.budget = n;
        while self.budget > 0 {
            self.stmt();
        }
        // an interface declared but never called is an internal compiler error
        for i in self.ifaces.clone() {
            if i == "g_if[]" {
                self.line("r = g_if[1].f(g_if[0].f(r));");
            } else {
                self.line(&format!("r = {i}.f(r);"));
            }
        }
    }

    fn stmt_count(&mut self) -> i32 {
        if self.c.tiny() {
            self.r.range(2, 4) as i32
        } else if self.c.legacy() || self.c.l9 != 0 {
            self.r.range(3, 6) as i32
        } else {
            self.r.range(4, 10) as i32
        }
    }

    fn program(&mut self) -> String {
        self.globals();
        let mut src = String::new();
        let head = self.template();
        src.push_str(&self.glob);
        src.push_str(&head);
        src
    }

    fn template(&mut self) -> String {
        match (self.c.legacy(), self.c.stage) {
            (true, Stage::Vs) => self.legacy_vs(),
            (true, _) => self.legacy_ps(),
            (false, Stage::Vs) => self.vs(),
            (false, Stage::Ps) => self.ps(),
            (false, Stage::Gs) => self.gs(),
            (false, Stage::Hs) => self.hs(),
            (false, Stage::Ds) => self.ds(),
            (false, Stage::Cs) => self.cs(),
        }
    }

    fn take_body(&mut self) -> String {
        std::mem::take(&mut self.body)
    }

    fn vs(&mut self) -> String {
        let c = self.c;
        let mut out = String::new();
        let clip = c.l9 == 0 && self.r.chance(25);
        let cull = c.l9 == 0 && self.r.chance(15);
        let extra = self.r.range(0, 2);
        out.push_str("struct VSOut\n{\n    float4 pos : SV_Position;\n");
        for k in 0..extra {
            let _ = writeln!(out, "    float4 o{k} : TEXCOORD{k};");
        }
        if clip {
            out.push_str("    float2 clip : SV_ClipDistance0;\n");
        }
        if cull {
            out.push_str("    float cull : SV_CullDistance0;\n");
        }
        out.push_str("};\n");
        let mut params = vec!["float4 p : POSITION".to_string(), "float4 a0 : TEXCOORD0".to_string()];
        self.var("p", B::F, 4, false);
        self.var("a0", B::F, 4, false);
        if self.r.chance(30) {
            params.push("float3 nrm : NORMAL".into());
            self.var("nrm", B::F, 3, false);
        }
        if c.ints() {
            if self.r.chance(60) {
                params.push("uint vid : SV_VertexID".into());
                self.var("vid", B::U, 1, false);
            }
            if self.r.chance(40) {
                params.push("uint iid : SV_InstanceID".into());
                self.var("iid", B::U, 1, false);
            }
            if self.r.chance(20) {
                params.push("int4 ia : BLENDINDICES".into());
                self.var("ia", B::I, 4, false);
            }
        }
        self.line("float4 r = p;");
        self.var("r", B::F, 4, true);
        let n = self.stmt_count();
        self.body_stmts(n);
        self.line("VSOut o;");
        self.line("o.pos = r;");
        for k in 0..extra {
            let e = self.fx(4, 1);
            self.line(&format!("o.o{k} = {e};"));
        }
        if clip {
            self.line("o.clip = r.xy;");
        }
        if cull {
            self.line("o.cull = r.z;");
        }
        self.line("return o;");
        let body = self.take_body();
        let _ = write!(out, "VSOut main({})\n{{\n{body}}}\n", params.join(", "));
        out
    }

    fn ps(&mut self) -> String {
        let c = self.c;
        let mut out = String::new();
        out.push_str("struct PSIn\n{\n    @POS@float4 pos : SV_Position;\n");
        let nin = self.r.range(1, 3);
        for k in 0..nin {
            let mut mods = vec!["", "", "linear ", "centroid ", "noperspective ", "linear centroid ", "noperspective centroid "];
            if c.sm41() {
                mods.extend_from_slice(&["sample ", "linear sample ", "noperspective sample "]);
            }
            if c.ints() && self.r.chance(25) {
                let n = self.r.range(1, 4) as u8;
                let _ = writeln!(out, "    nointerpolation {} v{k} : TEXCOORD{k};", tn(B::U, n));
                self.var(&format!("i.v{k}"), B::U, n, false);
                continue;
            }
            let m = if c.l9 == 0 { *self.r.pick(&mods) } else { "" };
            let m = if c.l9 == 0 && self.r.chance(5) { "nointerpolation " } else { m };
            let n = self.r.range(2, 4) as u8;
            let _ = writeln!(out, "    {m}{} v{k} : TEXCOORD{k};", tn(B::F, n));
            self.var(&format!("i.v{k}"), B::F, n, false);
        }
        out.push_str("};\n");
        if c.l9 == 0 {
            self.var("i.pos", B::F, 4, false);
        }
        let mut params = vec!["PSIn i".to_string()];
        if c.modern() {
            if self.r.chance(20) {
                params.push("uint pid : SV_PrimitiveID".into());
                self.var("pid", B::U, 1, false);
            }
            if self.r.chance(25) {
                params.push("bool ff : SV_IsFrontFace".into());
                self.var("ff", B::Bo, 1, false);
            }
            if c.sm41() && self.r.chance(15) {
                params.push("uint si : SV_SampleIndex".into());
                self.var("si", B::U, 1, false);
            }
            if c.sm5() && self.r.chance(15) {
                params.push("uint cin : SV_Coverage".into());
                self.var("cin", B::U, 1, false);
            }
        }
        let maxrt = if c.l9 == 1 {
            1
        } else if c.l9 == 3 {
            4
        } else {
            8
        };
        let nrt = if self.r.chance(70) { 1 } else { self.r.range(1, maxrt) };
        let depth = if self.r.chance(20) {
            if c.sm5() {
                *self.r.pick(&["SV_Depth", "SV_DepthGreaterEqual", "SV_DepthLessEqual"])
            } else {
                "SV_Depth"
            }
        } else {
            ""
        };
        let cov = c.sm41() && self.r.chance(10);
        let posmod = if depth.len() > 8 { *self.r.pick(&["noperspective centroid ", "noperspective sample "]) } else { "" };
        out = out.replace("@POS@", posmod);
        out.push_str("struct PSOut\n{\n");
        let mut slots: Vec<usize> = (0..maxrt).collect();
        let mut used = Vec::new();
        for _ in 0..nrt {
            let k = self.r.below(slots.len());
            used.push(slots.remove(k));
        }
        used.sort();
        if c.l9 != 0 {
            used = (0..nrt).collect();
        }
        for &k in &used {
            let t = if c.ints() && self.r.chance(15) { "uint4" } else { "float4" };
            let _ = writeln!(out, "    {t} c{k} : SV_Target{k};");
        }
        if !depth.is_empty() {
            let _ = writeln!(out, "    float d : {depth};");
        }
        if cov {
            out.push_str("    uint cov : SV_Coverage;\n");
        }
        out.push_str("};\n");
        if c.l9 == 0 {
            self.line("float4 r = i.pos;");
        } else {
            let v0 = self.vars[0].clone();
            let init = self.rexpr_to4(&v0.name, v0.n);
            self.line(&format!("float4 r = {init};"));
        }
        self.var("r", B::F, 4, true);
        let n = self.stmt_count();
        self.body_stmts(n);
        self.line("PSOut o;");
        let outs = out.clone();
        for &k in &used {
            let e = if k == used[0] { "r".to_string() } else { self.fx(4, 1) };
            if outs.contains(&format!("uint4 c{k} ")) {
                self.line(&format!("o.c{k} = (uint4)({e});"));
            } else {
                self.line(&format!("o.c{k} = {e};"));
            }
        }
        if !depth.is_empty() {
            self.line("o.d = saturate(r.z);");
        }
        if cov {
            self.line("o.cov = (uint)r.w;");
        }
        self.line("return o;");
        let body = self.take_body();
        if c.sm5() && self.uavs.is_empty() && self.r.chance(10) {
            out.push_str("[earlydepthstencil]\n");
        }
        let _ = write!(out, "PSOut main({})\n{{\n{body}}}\n", params.join(", "));
        out
    }

    fn gs(&mut self) -> String {
        let c = self.c;
        let mut out = String::new();
        out.push_str("struct GSIn\n{\n    float4 pos : SV_Position;\n    float4 v0 : TEXCOORD0;\n};\n");
        let rtai = self.r.chance(20);
        let vpai = self.r.chance(15);
        out.push_str("struct GSOut\n{\n    float4 pos : SV_Position;\n    float4 v0 : TEXCOORD0;\n");
        if rtai {
            out.push_str("    uint rt : SV_RenderTargetArrayIndex;\n");
        }
        if vpai {
            out.push_str("    uint vp : SV_ViewportArrayIndex;\n");
        }
        out.push_str("};\n");
        let (prim, nv) = *self.r.pick(&[("point", 1), ("line", 2), ("triangle", 3), ("triangle", 3), ("lineadj", 4), ("triangleadj", 6)]);
        let streams = if c.sm5() && self.r.chance(25) { self.r.range(2, 4) } else { 1 };
        let st = if streams > 1 { "PointStream" } else { *self.r.pick(&["PointStream", "LineStream", "TriangleStream", "TriangleStream"]) };
        let maxv = self.r.range(1, 12);
        let inst = c.sm5() && self.r.chance(25);
        let mut params = vec![format!("{prim} GSIn gi[{nv}]")];
        if self.r.chance(30) {
            params.push("uint pid : SV_PrimitiveID".into());
            self.var("pid", B::U, 1, false);
        }
        if inst {
            params.push("uint gsi : SV_GSInstanceID".into());
            self.var("gsi", B::U, 1, false);
        }
        for s in 0..streams {
            params.push(format!("inout {st}<GSOut> os{s}"));
        }
        self.var("gi[0].pos", B::F, 4, false);
        self.var("gi[0].v0", B::F, 4, false);
        if nv > 1 {
            self.var(&format!("gi[{}].pos", nv - 1), B::F, 4, false);
        }
        self.line("float4 r = gi[0].pos;");
        self.var("r", B::F, 4, true);
        let n = self.stmt_count();
        self.body_stmts(n);
        self.line("GSOut o;");
        let emit = maxv.min(nv + 1);
        self.line(&format!("[unroll] for (uint v = 0; v < {emit}; ++v)"));
        self.line("{");
        self.line(&format!("    o.pos = gi[v % {nv}].pos + r;"));
        let e = self.fx(4, 1);
        self.line(&format!("    o.v0 = gi[v % {nv}].v0 * {e};"));
        if rtai {
            self.line("    o.rt = v;");
        }
        if vpai {
            self.line("    o.vp = (uint)r.x & 7;");
        }
        let s = self.r.below(streams);
        self.line(&format!("    os{s}.Append(o);"));
        if self.r.chance(30) {
            self.line(&format!("    if (v == 1) os{s}.RestartStrip();"));
        }
        self.line("}");
        for k in 0..streams {
            if k != s {
                self.line(&format!("os{k}.Append(o);"));
            }
        }
        if self.r.chance(50) {
            self.line(&format!("os{s}.RestartStrip();"));
        }
        let body = self.take_body();
        let mut attrs = format!("[maxvertexcount({maxv})]\n");
        let _ = c;
        if inst {
            let _ = writeln!(attrs, "[instance({})]", self.r.range(1, 8));
        }
        let _ = write!(out, "{attrs}void main({})\n{{\n{body}}}\n", params.join(", "));
        out
    }

    fn patch(&mut self) -> (&'static str, usize, usize, String) {
        let dom = *self.r.pick(&["tri", "quad", "isoline"]);
        let (e, i) = match dom {
            "tri" => (3, 1),
            "quad" => (4, 2),
            _ => (2, 0),
        };
        let mut pc = format!("struct PC\n{{\n    float e[{e}] : SV_TessFactor;\n");
        if i == 1 {
            pc.push_str("    float ins : SV_InsideTessFactor;\n");
        } else if i == 2 {
            pc.push_str("    float ins[2] : SV_InsideTessFactor;\n");
        }
        pc.push_str("    float4 extra : TEXCOORD5;\n};\n");
        (dom, e, i, pc)
    }

    fn hs(&mut self) -> String {
        let mut out = String::new();
        out.push_str("struct CP\n{\n    float4 pos : POSITION;\n    float4 v0 : TEXCOORD0;\n};\n");
        let (dom, e, i, pc) = self.patch();
        out.push_str(&pc);
        let nin = *self.r.pick(&[1usize, 3, 3, 4, 4, 16, 32]);
        let nout = *self.r.pick(&[1usize, 3, 3, 4, 4, 16]);
        // patch-constant function
        self.var("ip[0].pos", B::F, 4, false);
        self.var("ip[0].v0", B::F, 4, false);
        self.var("pid", B::U, 1, false);
        self.line("float4 r = ip[0].pos;");
        self.var("r", B::F, 4, true);
        let n = self.r.range(1, 4) as i32;
        let arrays = std::mem::take(&mut self.arrays);
        self.no_arrays = true;
        self.body_stmts(n);
        self.no_arrays = false;
        self.arrays = arrays;
        self.line("PC o;");
        for k in 0..e {
            self.line(&format!("o.e[{k}] = abs(r[{}]) + 1.0;", k % 4));
        }
        if i == 1 {
            self.line("o.ins = r.w;");
        } else if i == 2 {
            self.line("o.ins[0] = r.z;");
            self.line("o.ins[1] = r.w;");
        }
        self.line("o.extra = r;");
        self.line("return o;");
        let body = self.take_body();
        let _ = write!(out, "PC pcf(InputPatch<CP, {nin}> ip, uint pid : SV_PrimitiveID)\n{{\n{body}}}\n");
        // control-point function
        self.vars.clear();
        self.arrays.retain(|a| !a.0.starts_with("la"));
        self.mats.retain(|m| !m.0.starts_with("mx"));
        self.var("ip[0].pos", B::F, 4, false);
        self.var("ip[0].v0", B::F, 4, false);
        self.var("id", B::U, 1, false);
        self.line(&format!("float4 r = ip[id % {nin}].pos;"));
        self.var("r", B::F, 4, true);
        let n = self.stmt_count();
        self.body_stmts(n);
        self.line("CP o;");
        self.line("o.pos = r;");
        let e2 = self.fx(4, 1);
        self.line(&format!("o.v0 = {e2};"));
        self.line("return o;");
        let body = self.take_body();
        let part = *self.r.pick(&["integer", "fractional_even", "fractional_odd", "pow2"]);
        let topo = if dom == "isoline" {
            *self.r.pick(&["line", "point"])
        } else {
            *self.r.pick(&["triangle_cw", "triangle_ccw", "triangle_cw", "point"])
        };
        let _ = writeln!(out, "[domain(\"{dom}\")]");
        let _ = writeln!(out, "[partitioning(\"{part}\")]");
        let _ = writeln!(out, "[outputtopology(\"{topo}\")]");
        let _ = writeln!(out, "[outputcontrolpoints({nout})]");
        let _ = writeln!(out, "[patchconstantfunc(\"pcf\")]");
        if self.r.chance(60) {
            let _ = writeln!(out, "[maxtessfactor({}.0)]", self.r.range(1, 64));
        }
        let _ =
            write!(out, "CP main(InputPatch<CP, {nin}> ip, uint id : SV_OutputControlPointID, uint pid : SV_PrimitiveID)\n{{\n{body}}}\n");
        out
    }

    fn ds(&mut self) -> String {
        let mut out = String::new();
        out.push_str("struct CP\n{\n    float4 pos : POSITION;\n    float4 v0 : TEXCOORD0;\n};\n");
        let (dom, _e, _i, pc) = self.patch();
        out.push_str(&pc);
        let ncp = *self.r.pick(&[1usize, 3, 4, 16]);
        let dl = if dom == "tri" { 3 } else { 2 };
        self.var("uvw", B::F, dl, false);
        self.var("op[0].pos", B::F, 4, false);
        self.var(&format!("op[{}].v0", ncp - 1), B::F, 4, false);
        self.var("pc.extra", B::F, 4, false);
        self.var("pc.e[0]", B::F, 1, false);
        let mut params =
            vec!["PC pc".to_string(), format!("float{dl} uvw : SV_DomainLocation"), format!("const OutputPatch<CP, {ncp}> op")];
        if self.r.chance(30) {
            params.push("uint pid : SV_PrimitiveID".into());
            self.var("pid", B::U, 1, false);
        }
        self.line("float4 r = op[0].pos * uvw.x;");
        self.var("r", B::F, 4, true);
        let n = self.stmt_count();
        self.body_stmts(n);
        self.line("return r;");
        let body = self.take_body();
        let _ = write!(out, "[domain(\"{dom}\")]\nfloat4 main({}) : SV_Position\n{{\n{body}}}\n", params.join(", "));
        out
    }

    fn cs(&mut self) -> String {
        let c = self.c;
        let mut out = String::new();
        let (x, y, z) = if c.cs4() {
            *self.r.pick(&[(64usize, 1usize, 1usize), (8, 8, 1), (16, 4, 1), (1, 1, 1), (32, 2, 1), (256, 1, 1)])
        } else {
            *self.r.pick(&[(64, 1, 1), (8, 8, 1), (4, 4, 4), (1, 1, 1), (16, 16, 1), (32, 2, 2), (1024, 1, 1)])
        };
        // one output UAV (cs_4_x allows a single structured or raw one)
        let raw = self.r.chance(40);
        if raw {
            out.push_str("RWByteAddressBuffer uo;\n");
        } else {
            out.push_str("RWStructuredBuffer<float4> uo;\n");
        }
        let threads = x * y * z;
        if self.r.chance(50) {
            let is_uint = c.sm5() && self.r.chance(50);
            let len = threads.next_power_of_two().max(4);
            let len = if c.cs4() { threads } else { len };
            let t = if is_uint { "uint" } else { "float4" };
            let _ = writeln!(out, "groupshared {t} g_sh[{len}];");
            self.gshared = Some(("g_sh".to_string(), is_uint, len));
        }
        let mut params = vec![];
        params.push("uint3 dtid : SV_DispatchThreadID".to_string());
        params.push("uint3 gid : SV_GroupID".to_string());
        params.push("uint3 gtid : SV_GroupThreadID".to_string());
        params.push("uint gi : SV_GroupIndex".to_string());
        self.var("dtid", B::U, 3, false);
        self.var("gid", B::U, 3, false);
        self.var("gtid", B::U, 3, false);
        self.var("gi", B::U, 1, false);
        self.line("float4 r = (float4)dtid.xyzx;");
        if let Some((g, _, len)) = self.gshared.clone() {
            self.line(&format!("{g}[gi % {len}] = 0;"));
            self.line("GroupMemoryBarrierWithGroupSync();");
        }
        self.var("r", B::F, 4, true);
        let n = self.stmt_count();
        self.body_stmts(n);
        if raw {
            self.line("uo.Store4(dtid.x << 4, asuint(r));");
        } else {
            self.line("uo[dtid.x] = r;");
        }
        let body = self.take_body();
        let _ = write!(out, "[numthreads({x}, {y}, {z})]\nvoid main({})\n{{\n{body}}}\n", params.join(", "));
        out
    }

    fn legacy_vs(&mut self) -> String {
        let c = self.c;
        let mut out = String::new();
        let psize = self.r.chance(15);
        let fog = self.r.chance(15);
        let ntc = self.r.range(0, 2);
        out.push_str("struct VOut\n{\n    float4 pos : POSITION;\n");
        for k in 0..ntc {
            let _ = writeln!(out, "    float4 t{k} : TEXCOORD{k};");
        }
        if self.r.chance(40) {
            out.push_str("    float4 col : COLOR0;\n");
        }
        if psize {
            out.push_str("    float ps : PSIZE;\n");
        }
        if fog {
            out.push_str("    float fog : FOG;\n");
        }
        out.push_str("};\n");
        let mut params = vec!["float4 p : POSITION".to_string(), "float4 a0 : TEXCOORD0".to_string()];
        self.var("p", B::F, 4, false);
        self.var("a0", B::F, 4, false);
        if self.r.chance(40) {
            params.push("float3 nrm : NORMAL".into());
            self.var("nrm", B::F, 3, false);
        }
        if self.r.chance(30) {
            params.push("float4 col : COLOR0".into());
            self.var("col", B::F, 4, false);
        }
        self.line("float4 r = p;");
        self.var("r", B::F, 4, true);
        let n = self.stmt_count();
        self.body_stmts(n);
        self.line("VOut o;");
        self.line("o.pos = r;");
        for k in 0..ntc {
            let e = self.fx(4, 1);
            self.line(&format!("o.t{k} = {e};"));
        }
        if out.contains("col : COLOR0;") {
            self.line("o.col = saturate(r);");
        }
        if psize {
            self.line("o.ps = r.x;");
        }
        if fog {
            self.line("o.fog = r.w;");
        }
        self.line("return o;");
        let _ = c;
        let body = self.take_body();
        let _ = write!(out, "VOut main({})\n{{\n{body}}}\n", params.join(", "));
        out
    }

    fn legacy_ps(&mut self) -> String {
        let c = self.c;
        let mut out = String::new();
        let ntc = self.r.range(1, 3);
        let mut params = vec![];
        for k in 0..ntc {
            let n = self.r.range(2, 4) as u8;
            params.push(format!("{} t{k} : TEXCOORD{k}", tn(B::F, n)));
            self.var(&format!("t{k}"), B::F, n, false);
        }
        if self.r.chance(30) {
            params.push("float4 col : COLOR0".into());
            self.var("col", B::F, 4, false);
        }
        if c.sm == 30 {
            if self.r.chance(20) {
                params.push("float vf : VFACE".into());
                self.var("vf", B::F, 1, false);
            }
            if self.r.chance(20) {
                params.push("float2 vpos : VPOS".into());
                self.var("vpos", B::F, 2, false);
            }
        }
        let col1 = self.r.chance(15);
        let depth = self.r.chance(15);
        out.push_str("struct POut\n{\n    float4 c0 : COLOR0;\n");
        if col1 {
            out.push_str("    float4 c1 : COLOR1;\n");
        }
        if depth {
            out.push_str("    float d : DEPTH;\n");
        }
        out.push_str("};\n");
        let first = params[0].split(' ').nth(1).unwrap_or("t0").to_string();
        let fnum = match params[0].split(' ').next() {
            Some("float2") => 2,
            Some("float3") => 3,
            _ => 4,
        };
        let init = self.rexpr_to4(&first, fnum);
        self.line(&format!("float4 r = {init};"));
        self.var("r", B::F, 4, true);
        let n = self.stmt_count();
        self.body_stmts(n);
        self.line("POut o;");
        self.line("o.c0 = r;");
        if col1 {
            let e = self.fx(4, 0);
            self.line(&format!("o.c1 = {e};"));
        }
        if depth {
            self.line("o.d = r.z;");
        }
        self.line("return o;");
        let body = self.take_body();
        let _ = write!(out, "POut main({})\n{{\n{body}}}\n", params.join(", "));
        out
    }
}

/// Whether generated statements write memory or stop the invocation ([flatten] refuses them).
fn side_effects(s: &str) -> bool {
    ["Store", "Interlocked", "Append", "Consume", "Counter", "rw", "g_sh[", "discard", "clip(", "uo"].iter().any(|k| s.contains(k))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn deterministic_and_named() {
        for p in PROFILES {
            let a = generate(p, 7, 20);
            let b = generate(p, 7, 20);
            assert_eq!(a.len(), 20);
            for (x, y) in a.iter().zip(&b) {
                assert_eq!(x.source, y.source);
                assert_eq!(x.name, y.name);
                assert_eq!(x.profile, *p);
            }
            let mut names: Vec<&str> = a.iter().map(|s| s.name.as_str()).collect();
            names.sort();
            names.dedup();
            assert_eq!(names.len(), 20);
        }
        assert!(generate("xs_9_9", 1, 3).is_empty());
    }
}
