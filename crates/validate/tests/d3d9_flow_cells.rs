//! Seed 002, cell by cell: for each of the five vertex profiles and each of the 17
//! instructions of its table, a minimal program around the instruction, walked by the
//! validator; the change the instruction makes on each of the five counters (read from
//! the counter trace, `validate::d3d9::walk_program`) must be the cell's, and where the
//! whole row is "n/a" the instruction must be refused (V903).
//!
//! The tables below are transcribed from the seed (English names of its rows), not
//! taken from the validator's own data.

mod d3d9_common;
use d3d9_common::*;
use validate::{Caps9, Code};

/// Seed 002, "Contagem de profundidade por instrução": rows in the seed's order, cells
/// in its column order (static nesting, dynamic nesting, loop/rep nesting, call
/// nesting, static flow count).
const SEED: &[(&str, &str)] = &[
    (
        "vs_2_0",
        "if bool | 0 | 0 | 0 | 0 | 1
         if_comp | n/a | n/a | n/a | n/a | n/a
         if pred | n/a | n/a | n/a | n/a | n/a
         else | 0 | 0 | 0 | 0 | 1(if bool only)
         endif | -1 | 0 | 0 | 0 | 0
         rep | 0 | 0 | 1 | 0 | 1
         endrep | 0 | 0 | -1 | 0 | 0
         loop | 0 | 0 | 1 | 0 | 1
         endloop | 0 | 0 | -1 | 0 | 0
         break | n/a | n/a | n/a | n/a | n/a
         break_comp | n/a | n/a | n/a | n/a | n/a
         breakp | n/a | n/a | n/a | n/a | n/a
         call | 0 | 0 | 0 | 1 | 1
         callnz bool | 0 | 0 | 0 | 1 | 1
         callnz pred | n/a | n/a | n/a | n/a | n/a
         ret | 0 | 0 | 0 | -1 | 0
         setp_comp | n/a | n/a | n/a | n/a | n/a",
    ),
    (
        "vs_2_x",
        "if bool | 1 | 0 | 0 | 0 | 1
         if_comp | 0 | 1 | 0 | 0 | 0
         if pred | 0 | 1 | 0 | 0 | 0
         else | 0 | 0 | 0 | 0 | 1(if bool only)
         endif | -1(if bool) | -1(if pred or if_comp) | 0 | 0 | 0
         rep | 0 | 0 | 1 | 0 | 1
         endrep | 0 | 0 | -1 | 0 | 0
         loop | 0 | 0 | 1 | 0 | 1
         endloop | 0 | 0 | -1 | 0 | 0
         break | 0 | 0 | 0 | 0 | 0
         break_comp | 0 | 1, -1 | 0 | 0 | 0
         breakp | 0 | 0 | 0 | 0 | 0
         call | 0 | 0 | 0 | 1 | 1
         callnz bool | 0 | 0 | 0 | 1 | 1
         callnz pred | 0 | 1 | 0 | 1 | 0
         ret | 0 | -1(callnz pred) | 0 | -1 | 0
         setp_comp | 0 | 0 | 0 | 0 | 0",
    ),
    ("vs_2_sw", SW_3_0),
    ("vs_3_0", SW_3_0),
    ("vs_3_sw", SW_3_0),
];

/// The vs_2_sw, vs_3_0 and vs_3_sw tables (the seed gives the same cells three times).
const SW_3_0: &str = "if bool | 1 | 0 | 0 | 0 | n/a
     if_comp | 0 | 1 | 0 | 0 | n/a
     if pred | 0 | 1 | 0 | 0 | n/a
     else | 0 | 0 | 0 | 0 | n/a
     endif | -1(if bool) | -1(if pred or if_comp) | 0 | 0 | n/a
     rep | 0 | 0 | 1 | 0 | n/a
     endrep | 0 | 0 | -1 | 0 | n/a
     loop | 0 | 0 | 1 | 0 | n/a
     endloop | 0 | 0 | -1 | 0 | n/a
     break | 0 | 0 | 0 | 0 | n/a
     break_comp | 0 | 1, -1 | 0 | 0 | n/a
     breakp | 0 | 0 | 0 | 0 | n/a
     call | 0 | 0 | 0 | 1 | n/a
     callnz bool | 0 | 0 | 0 | 1 | n/a
     callnz pred | 0 | 1 | 0 | 1 | n/a
     ret | 0 | -1(callnz pred) | 0 | -1 | n/a
     setp_comp | 0 | 0 | 0 | 0 | n/a";

const COUNTERS: [&str; 5] =
    ["static nesting", "dynamic nesting", "loop/rep nesting", "call nesting", "static flow count"];

/// What opened the construct (or made the call) the measured instruction depends on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Ctx {
    None,
    IfBool,
    IfComp,
    IfPred,
    Call,
    CallnzBool,
    CallnzPred,
}

/// A minimal program around instruction `row` (in context `ctx`); returns the program
/// and the index of the measured instruction.
fn scenario(version: u32, row: &str, ctx: Ctx) -> (Prog, usize) {
    let mut p = Prog::new(version);
    let open_if = |p: &mut Prog, ctx: Ctx| match ctx {
        Ctx::IfBool => p.if_b(),
        Ctx::IfComp => p.if_c(),
        Ctx::IfPred => {
            p.setp();
            p.if_p()
        }
        _ => unreachable!(),
    };
    let at = match row {
        "if bool" => {
            let i = p.if_b();
            p.endif();
            i
        }
        "if_comp" => {
            let i = p.if_c();
            p.endif();
            i
        }
        "if pred" => {
            p.setp();
            let i = p.if_p();
            p.endif();
            i
        }
        "else" => {
            open_if(&mut p, ctx);
            let i = p.else_();
            p.endif();
            i
        }
        "endif" => {
            open_if(&mut p, ctx);
            p.mov();
            p.endif()
        }
        "rep" => {
            let i = p.rep();
            p.endrep();
            i
        }
        "endrep" => {
            p.rep();
            p.endrep()
        }
        "loop" => {
            let i = p.loop_();
            p.endloop();
            i
        }
        "endloop" => {
            p.loop_();
            p.endloop()
        }
        "break" | "break_comp" | "breakp" => {
            if row == "breakp" {
                p.setp();
            }
            p.rep();
            let i = match row {
                "break" => p.break_(),
                "break_comp" => p.break_c(),
                _ => p.break_p(),
            };
            p.endrep();
            i
        }
        "call" | "callnz bool" | "callnz pred" | "ret" => {
            let kind = match (row, ctx) {
                ("call", _) | ("ret", Ctx::Call) => Ctx::Call,
                ("callnz bool", _) | ("ret", Ctx::CallnzBool) => Ctx::CallnzBool,
                _ => Ctx::CallnzPred,
            };
            if kind == Ctx::CallnzPred {
                p.setp();
            }
            let c = match kind {
                Ctx::Call => p.call(0),
                Ctx::CallnzBool => p.callnz_b(0),
                _ => p.callnz_p(0),
            };
            p.ret();
            p.label(0);
            p.mov();
            let r = p.ret();
            if row == "ret" {
                r
            } else {
                c
            }
        }
        "setp_comp" => p.setp(),
        other => panic!("no scenario for {other}"),
    };
    (p, at)
}

/// The contexts a row is measured in.
fn contexts(row: &str) -> &'static [Ctx] {
    match row {
        "else" | "endif" => &[Ctx::IfBool, Ctx::IfComp, Ctx::IfPred],
        "ret" => &[Ctx::Call, Ctx::CallnzBool, Ctx::CallnzPred],
        _ => &[Ctx::None],
    }
}

/// The instructions a context needs (to skip contexts the profile refuses).
fn ctx_row(ctx: Ctx) -> Option<&'static str> {
    match ctx {
        Ctx::IfBool => Some("if bool"),
        Ctx::IfComp => Some("if_comp"),
        Ctx::IfPred => Some("if pred"),
        Ctx::Call => Some("call"),
        Ctx::CallnzBool => Some("callnz bool"),
        Ctx::CallnzPred => Some("callnz pred"),
        Ctx::None => None,
    }
}

/// The expected change of one cell in context `ctx`: (delta, transient peak above the
/// value before, counter absent).
fn expected(cell: &str, ctx: Ctx) -> (i32, i32, bool) {
    let cell = cell.trim();
    let d = match cell {
        "n/a" => return (0, 0, true),
        "1, -1" => return (0, 1, false),
        "1(if bool only)" => i32::from(ctx == Ctx::IfBool),
        "-1(if bool)" => -i32::from(ctx == Ctx::IfBool),
        "-1(if pred or if_comp)" => -i32::from(matches!(ctx, Ctx::IfPred | Ctx::IfComp)),
        "-1(callnz pred)" => -i32::from(ctx == Ctx::CallnzPred),
        n => n.parse().unwrap_or_else(|_| panic!("cell {n}")),
    };
    (d, d.max(0), false)
}

fn rows(profile: &str) -> Vec<(String, Vec<String>)> {
    let table = SEED.iter().find(|(p, _)| *p == profile).expect("profile").1;
    table
        .lines()
        .map(|l| {
            let mut f = l.split('|').map(|s| s.trim().to_string());
            let name = f.next().unwrap();
            (name, f.collect())
        })
        .collect()
}

/// Checks one row of one profile's table.
fn check_row(profile: &str, version: u32, row: &str) {
    let rows = rows(profile);
    assert_eq!(rows.len(), 17, "{profile}: 17 rows");
    let (_, cells) = rows.iter().find(|(n, _)| n == row).unwrap_or_else(|| panic!("{profile}: no row {row}"));
    assert_eq!(cells.len(), 5, "{profile} {row}: 5 cells");
    let refused_row = |r: &str| rows.iter().find(|(n, _)| n == r).is_some_and(|(_, c)| c.iter().all(|c| c == "n/a"));
    let caps = Caps9::default();
    if cells.iter().all(|c| c == "n/a") {
        // The instruction does not exist in the profile.
        let (p, at) = scenario(version, row, contexts(row)[0]);
        let report = run(&p, &caps);
        let hit = report.diagnostics.iter().any(|d| {
            d.code == Code::D3d9Instruction
                && matches!(d.location, validate::Location::Instruction { index, .. } if index == at)
        });
        assert!(hit, "{profile} {row}: n/a, expected V903 at instruction {at}: {:#?}", report.diagnostics);
        return;
    }
    let mut measured = 0;
    for &ctx in contexts(row) {
        if ctx_row(ctx).is_some_and(refused_row) {
            continue;
        }
        let (p, at) = scenario(version, row, ctx);
        let report = run(&p, &caps);
        assert!(report.is_valid(), "{profile} {row} ({ctx:?}): {:#?}", report.diagnostics);
        let (sites, walk) = validate::d3d9::walk_program(&p.bytes(), &caps).expect("walk");
        let k = walk
            .steps
            .iter()
            .position(|s| sites[s.site].index == at)
            .unwrap_or_else(|| panic!("{profile} {row}: instruction {at} not walked"));
        let before = if k == 0 { [0; 5] } else { walk.steps[k - 1].after };
        let step = walk.steps[k];
        for (c, cell) in cells.iter().enumerate() {
            let (delta, peak, absent) = expected(cell, ctx);
            let what = format!("{profile}, {row} ({ctx:?}), {}: cell `{cell}`", COUNTERS[c]);
            assert_eq!(step.after[c] - before[c], delta, "{what}: change");
            assert_eq!(step.peak[c] - before[c], peak, "{what}: peak");
            if absent {
                assert!(walk.steps.iter().all(|s| s.after[c] == 0 && s.peak[c] == 0), "{what}: the counter exists");
            }
        }
        measured += 1;
    }
    assert!(measured > 0, "{profile} {row}: no context measured");
}

macro_rules! cells {
    ($( $name:ident: $profile:literal, $version:expr, $row:literal; )*) => {
        $( #[test] fn $name() { check_row($profile, $version, $row); } )*
    };
}

macro_rules! profile_rows {
    ($p:ident, $profile:literal, $version:expr) => {
        mod $p {
            use super::*;
            cells! {
                if_bool: $profile, $version, "if bool";
                if_comp: $profile, $version, "if_comp";
                if_pred: $profile, $version, "if pred";
                else_: $profile, $version, "else";
                endif: $profile, $version, "endif";
                rep: $profile, $version, "rep";
                endrep: $profile, $version, "endrep";
                loop_: $profile, $version, "loop";
                endloop: $profile, $version, "endloop";
                break_: $profile, $version, "break";
                break_comp: $profile, $version, "break_comp";
                breakp: $profile, $version, "breakp";
                call: $profile, $version, "call";
                callnz_bool: $profile, $version, "callnz bool";
                callnz_pred: $profile, $version, "callnz pred";
                ret: $profile, $version, "ret";
                setp_comp: $profile, $version, "setp_comp";
            }
        }
    };
}

profile_rows!(vs_2_0, "vs_2_0", VS_2_0);
profile_rows!(vs_2_x, "vs_2_x", VS_2_X);
profile_rows!(vs_2_sw, "vs_2_sw", VS_2_SW);
profile_rows!(vs_3_0, "vs_3_0", VS_3_0);
profile_rows!(vs_3_sw, "vs_3_sw", VS_3_SW);

/// Every row of every table is exercised by the macros above (17 × 5).
#[test]
fn the_tables_have_17_rows_each() {
    for (p, _) in SEED {
        let r = rows(p);
        assert_eq!(r.len(), 17, "{p}");
        assert!(r.iter().all(|(_, c)| c.len() == 5), "{p}");
    }
}

/// The validator's own data tables say the same as the seed (same cells, with the
/// conditions kept).
#[test]
fn the_data_tables_are_the_seed() {
    use d3dbc::FlowOp;
    use validate::d3d9::flow::{self, Delta, Opener, Row};
    let tables = [&flow::VS_2_0, &flow::VS_2_X, &flow::VS_2_SW, &flow::VS_3_0, &flow::VS_3_SW];
    for t in tables {
        for (name, cells) in rows(t.name) {
            let op = FlowOp::ALL.into_iter().find(|o| o.name() == name).unwrap();
            let text = match t.row(op) {
                Row::Refused => vec!["n/a".to_string(); 5],
                Row::Counts(c) => c
                    .iter()
                    .map(|d| match d {
                        Delta::NotCounted => "n/a".to_string(),
                        Delta::Add(n) => n.to_string(),
                        Delta::UpDown => "1, -1".to_string(),
                        Delta::After(Opener::IfBool, 1) => "1(if bool only)".to_string(),
                        Delta::After(Opener::IfBool, n) => format!("{n}(if bool)"),
                        Delta::After(Opener::IfPredOrComp, n) => format!("{n}(if pred or if_comp)"),
                        Delta::After(Opener::CallnzPred, n) => format!("{n}(callnz pred)"),
                    })
                    .collect(),
            };
            assert_eq!(text, cells, "{} {name}", t.name);
        }
    }
}

/// The "n/a" rows of every flow table (vertex and pixel) are exactly the instructions
/// the profile does not have: the opcode is outside the d3dbc table's version range, or
/// (for `if pred`, `callnz pred`) the profile has no predicate register.
#[test]
fn refused_rows_agree_with_the_instruction_table() {
    use d3dbc::{Opcode, Profile};
    use validate::d3d9::{flow, profile};
    for &p in Profile::ALL {
        let Some(table) = flow::table_for(p) else {
            // No table: no flow control at all (the opcodes do not exist).
            for op in [Opcode::If, Opcode::Rep, Opcode::Call, Opcode::Ret] {
                assert!(!op.info().exists_in(p.version().kind, p.version().ver()), "{} {op:?}", p.name());
            }
            continue;
        };
        assert_eq!(table.name, p.name());
        let has_p0 = profile::register(p, profile::RegFile::Predicate).is_some();
        for op in d3dbc::FlowOp::ALL {
            use d3dbc::FlowOp as F;
            let (opcode, pred) = match op {
                F::IfBool => (Opcode::If, false),
                F::IfComp => (Opcode::Ifc, false),
                F::IfPred => (Opcode::If, true),
                F::Else => (Opcode::Else, false),
                F::Endif => (Opcode::Endif, false),
                F::Rep => (Opcode::Rep, false),
                F::Endrep => (Opcode::Endrep, false),
                F::Loop => (Opcode::Loop, false),
                F::Endloop => (Opcode::Endloop, false),
                F::Break => (Opcode::Break, false),
                F::BreakComp => (Opcode::Breakc, false),
                F::BreakP => (Opcode::Breakp, true),
                F::Call => (Opcode::Call, false),
                F::CallnzBool => (Opcode::Callnz, false),
                F::CallnzPred => (Opcode::Callnz, true),
                F::Ret => (Opcode::Ret, false),
                F::SetpComp => (Opcode::Setp, true),
            };
            let exists = opcode.info().exists_in(p.version().kind, p.version().ver()) && (!pred || has_p0);
            let refused = table.row(op) == flow::Row::Refused;
            assert_eq!(refused, !exists, "{} {}", p.name(), op.name());
        }
    }
}
