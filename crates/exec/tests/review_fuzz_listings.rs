//! Review: random vertex-shader listings (arithmetic, integer and bit ops, loops with
//! breakc, switch, subroutine calls including recursion, indexable temps with relative
//! indices, immediate constant buffer reads) with random inputs: compile and run never
//! panic, every run ends within its step limit (typed `StepLimit` error) in bounded time.

use exec::{ExecErrorKind, Machine, Plan, Resources};

const OPS3: [&str; 22] = [
    "add",
    "mul",
    "div",
    "min",
    "max",
    "lt",
    "ge",
    "eq",
    "ne",
    "iadd",
    "imul null,",
    "udiv null,",
    "ishl",
    "ishr",
    "ushr",
    "and",
    "or",
    "xor",
    "imin",
    "umax",
    "ilt",
    "uge",
];
const OPS2: [&str; 16] = [
    "mov",
    "ftoi",
    "ftou",
    "itof",
    "utof",
    "frc",
    "round_ne",
    "sqrt",
    "rsq",
    "rcp",
    "exp",
    "log",
    "bfrev",
    "countbits",
    "firstbit_hi",
    "f32tof16",
];

fn reg(rng: &mut corpus::Rng) -> String {
    match rng.below(6) {
        0 => format!("v{}.{}", rng.below(2), ["x", "y", "z", "w"][rng.below(4)]),
        1 => format!("l({})", [0i64, 1, -1, 31, 32, 0x7fffffff, -2147483648, 0x7f800000][rng.below(8)]),
        2 => format!("icb[r{}.x + {}].y", rng.below(4), rng.below(3)),
        3 => format!("x0[r{}.x + {}].x", rng.below(4), rng.below(6)),
        _ => format!("r{}.{}", rng.below(4), ["x", "y", "z", "w"][rng.below(4)]),
    }
}

fn dst(rng: &mut corpus::Rng) -> String {
    match rng.below(5) {
        0 => format!("x0[r{}.y + {}].x", rng.below(4), rng.below(6)),
        1 => "o0.x".into(),
        _ => format!("r{}.{}", rng.below(4), ["x", "y", "z", "w"][rng.below(4)]),
    }
}

fn body(rng: &mut corpus::Rng, depth: u32, out: &mut String) {
    for _ in 0..1 + rng.below(8) {
        match rng.below(12) {
            0..=4 => {
                let op = OPS3[rng.below(OPS3.len())];
                *out += &format!("{op} {}, {}, {}\n", dst(rng), reg(rng), reg(rng));
            }
            5 | 6 => {
                let op = OPS2[rng.below(OPS2.len())];
                *out += &format!("{op} {}, {}\n", dst(rng), reg(rng));
            }
            7 if depth < 3 => {
                *out += &format!("loop\nuge r3.w, r3.w, l({})\nbreakc_nz r3.w\niadd r3.w, r3.w, l(1)\n", rng.below(40));
                body(rng, depth + 1, out);
                if rng.below(3) == 0 {
                    *out += &format!("continuec_z {}\n", reg(rng));
                }
                *out += "endloop\n";
            }
            8 if depth < 3 => {
                *out += &format!("if_nz {}\n", reg(rng));
                body(rng, depth + 1, out);
                *out += "else\n";
                body(rng, depth + 1, out);
                *out += "endif\n";
            }
            9 if depth < 3 => {
                *out += &format!("switch {}\ncase l(0)\n", reg(rng));
                body(rng, depth + 1, out);
                *out += "break\ncase l(1)\ncase l(-1)\n";
                body(rng, depth + 1, out);
                *out += "break\ndefault\n";
                body(rng, depth + 1, out);
                *out += "break\nendswitch\n";
            }
            10 => *out += &format!("call l{}\n", rng.below(2)),
            _ => *out += &format!("retc_nz {}\n", reg(rng)),
        }
    }
}

fn listing(rng: &mut corpus::Rng) -> String {
    let mut s = String::from(
        "vs_5_0\ndcl_immediateConstantBuffer { { 1, 2, 3, 4 }, { 5, 6, 7, 8 }, { -1, 0x7fffffff, 0, 1 } }\n\
         dcl_input v0.xyzw\ndcl_input v1.xyzw\ndcl_output o0.xyzw\ndcl_temps 4\ndcl_indexableTemp x0[4], 4\n",
    );
    body(rng, 0, &mut s);
    s += "ret\n";
    for l in 0..2 {
        s += &format!("label l{l}\n");
        let mut b = String::new();
        body(rng, 1, &mut b);
        // Recursion into the other label (forbidden by the spec; must still end).
        s += &b;
        s += &format!("call l{}\nret\n", 1 - l);
    }
    s
}

#[test]
fn review_random_listings_never_panic_or_hang() {
    let mut rng = corpus::Rng(0xdead_beef_cafe_f00d);
    let (mut ok, mut limited, mut other, mut refused) = (0, 0, 0, 0);
    for _case in 0..400 {
        let text = listing(&mut rng);
        let bytes = match listing::asm::assemble(&text, &listing::asm::AsmOptions::default()) {
            Ok(a) => a.bytes,
            Err(_) => {
                refused += 1;
                continue;
            }
        };
        let Ok(plan) = Plan::from_bytecode(&bytes) else {
            refused += 1;
            continue;
        };
        let mut m = Machine::new(&plan);
        m.set_step_limit(200_000);
        for _ in 0..4 {
            let inputs: Vec<[u32; 4]> = (0..2)
                .map(|_| [0; 4].map(|_: u32| [0, 1, 2, 0xffff_ffff, 0x7fc0_0000, 0x3f80_0000][rng.below(6)]))
                .collect();
            match m.run_vertex(&plan, &inputs, &mut Resources::default()) {
                Ok(_) => ok += 1,
                Err(e) if matches!(e.kind, ExecErrorKind::StepLimit(_)) => limited += 1,
                Err(_) => other += 1,
            }
        }
    }
    eprintln!("ok {ok} step-limited {limited} other errors {other} refused {refused}");
    assert!(ok > 100, "too few listings ran: ok {ok} refused {refused}");
}
