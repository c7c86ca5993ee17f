//! Seed 002's limits: for each counter of each vertex profile, the deepest program
//! accepted and one level deeper refused (at the instruction that breaks the limit:
//! index, token, byte offset and mnemonic), including the vs_2_x caps
//! (`DynamicFlowControlDepth` 0 and 24, `StaticFlowControlDepth` 1 to 4 for loop/rep
//! and call nesting independently); the call model (counters carried into subroutines,
//! forward calls, subroutines no call reaches); and the block and subroutine structure.

mod d3d9_common;
use d3d9_common::*;
use validate::{Caps9, Code};

fn caps_2_x(dynamic: u8, static_depth: u8) -> Caps9 {
    Caps9 { dynamic_flow_depth: dynamic, static_flow_depth: static_depth, ..Caps9::default() }
}

/// `n` nested blocks opened by `open` and closed by `close`, around a `mov`; returns the
/// program and the index of the last opener.
fn nested(version: u32, n: usize, open: fn(&mut Prog) -> usize, close: fn(&mut Prog) -> usize) -> (Prog, usize) {
    let mut p = Prog::new(version);
    let mut last = 0;
    for _ in 0..n {
        last = open(&mut p);
    }
    p.mov();
    for _ in 0..n {
        close(&mut p);
    }
    (p, last)
}

/// A chain of `n` calls: main calls l0, l0 calls l1, ... (call depth n); returns the
/// program and the index of the deepest call.
fn call_chain(version: u32, n: usize) -> (Prog, usize) {
    let mut p = Prog::new(version);
    let mut last = p.call(0);
    p.ret();
    for l in 0..n as u16 {
        p.label(l);
        if (l as usize) + 1 < n {
            last = p.call(l + 1);
        } else {
            p.mov();
        }
        p.ret();
    }
    (p, last)
}

fn if_b(p: &mut Prog) -> usize {
    p.if_b()
}
fn if_c(p: &mut Prog) -> usize {
    p.if_c()
}
fn endif(p: &mut Prog) -> usize {
    p.endif()
}
fn rep(p: &mut Prog) -> usize {
    p.rep()
}
fn endrep(p: &mut Prog) -> usize {
    p.endrep()
}
fn loop_(p: &mut Prog) -> usize {
    p.loop_()
}
fn endloop(p: &mut Prog) -> usize {
    p.endloop()
}

#[test]
fn vs_2_0_loop_rep_nesting_is_1() {
    let caps = Caps9::default();
    for (open, close, name) in
        [(rep as fn(&mut Prog) -> usize, endrep as fn(&mut Prog) -> usize, "rep"), (loop_, endloop, "loop")]
    {
        accepted(&nested(VS_2_0, 1, open, close).0, &caps);
        let (p, at) = nested(VS_2_0, 2, open, close);
        let m = refused_at(&p, &caps, Code::D3d9LoopNesting, at, name);
        assert!(m.contains("loop/rep nesting reaches 2") && m.contains("limit of vs_2_0 is 1"), "{m}");
    }
    // A loop inside a rep counts on the same counter.
    let mut p = Prog::new(VS_2_0);
    p.rep();
    let at = p.loop_();
    p.endloop();
    p.endrep();
    refused_at(&p, &caps, Code::D3d9LoopNesting, at, "loop");
}

#[test]
fn vs_2_0_call_nesting_is_1() {
    let caps = Caps9::default();
    accepted(&call_chain(VS_2_0, 1).0, &caps);
    let (p, at) = call_chain(VS_2_0, 2);
    let m = refused_at(&p, &caps, Code::D3d9CallNesting, at, "call");
    assert!(m.contains("call nesting reaches 2") && m.contains("is 1"), "{m}");
}

/// vs_2_0 and vs_2_x: at most 16 static flow instructions (`if bool`, `else` after
/// `if bool`, `rep`, `loop`, `call`, `callnz bool`); the 17th is refused.
#[test]
fn static_flow_count_is_16() {
    for version in [VS_2_0, VS_2_X] {
        let caps = Caps9::default();
        let ifs = |n: usize| {
            let mut p = Prog::new(version);
            let mut last = 0;
            for _ in 0..n {
                last = p.if_b();
                p.mov();
                p.endif();
            }
            (p, last)
        };
        accepted(&ifs(16).0, &caps);
        let (p, at) = ifs(17);
        let m = refused_at(&p, &caps, Code::D3d9StaticFlowCount, at, "if");
        assert!(m.contains("static flow count reaches 17") && m.contains("is 16"), "{m}");
        // else after if bool counts: 8 if/else/endif are 16; a rep after them is the 17th.
        let mut p = Prog::new(version);
        for _ in 0..8 {
            p.if_b();
            p.else_();
            p.endif();
        }
        let mut ok = p.clone();
        ok.mov();
        accepted(&ok, &caps);
        let at = p.rep();
        p.endrep();
        refused_at(&p, &caps, Code::D3d9StaticFlowCount, at, "rep");
        // Calls count once each, and a subroutine called twice counts its contents once.
        let mut p = Prog::new(version);
        for _ in 0..15 {
            p.call(0);
        }
        p.ret();
        p.label(0);
        p.if_b();
        p.endif();
        p.ret();
        accepted(&p, &caps);
        let mut p = Prog::new(version);
        let mut at = 0;
        for _ in 0..16 {
            at = p.call(0);
        }
        p.ret();
        p.label(0);
        let if_at = p.if_b();
        p.endif();
        p.ret();
        // The walk reaches the subroutine's `if` after the first call: 2 so far; the 16th
        // call is the 17th static flow instruction.
        let _ = if_at;
        refused_at(&p, &caps, Code::D3d9StaticFlowCount, at, "call");
    }
}

/// Static nesting has no limit of its own in vs_2_0 and vs_2_x (only the static flow
/// count limits it): 16 nested `if bool` are accepted.
#[test]
fn static_nesting_is_limited_by_the_flow_count_only_in_2_0_and_2_x() {
    for version in [VS_2_0, VS_2_X] {
        accepted(&nested(version, 16, if_b, endif).0, &Caps9::default());
        let (p, at) = nested(version, 17, if_b, endif);
        refused_at(&p, &Caps9::default(), Code::D3d9StaticFlowCount, at, "if");
    }
}

/// vs_2_x dynamic nesting: DynamicFlowControlDepth 24 allows 24 levels; 0 allows none
/// (and the dynamic instructions need the cap).
#[test]
fn vs_2_x_dynamic_nesting_follows_the_cap() {
    let caps = caps_2_x(24, 4);
    accepted(&nested(VS_2_X, 24, if_c, endif).0, &caps);
    let (p, at) = nested(VS_2_X, 25, if_c, endif);
    let m = refused_at(&p, &caps, Code::D3d9DynamicNesting, at, "if_gt");
    assert!(m.contains("dynamic nesting reaches 25") && m.contains("is 24 (DynamicFlowControlDepth)"), "{m}");
    // if pred counts as if_comp does.
    let mut p = Prog::new(VS_2_X);
    p.setp();
    for _ in 0..12 {
        p.if_c();
        p.if_p();
    }
    p.mov();
    for _ in 0..24 {
        p.endif();
    }
    accepted(&p, &caps);
    // Depth 0: a program without dynamic flow control is accepted; one if_comp is not.
    let none = caps_2_x(0, 4);
    let mut p = Prog::new(VS_2_X);
    p.if_b();
    p.rep();
    p.mov();
    p.endrep();
    p.endif();
    accepted(&p, &none);
    let (p, at) = nested(VS_2_X, 1, if_c, endif);
    let r = run(&p, &none);
    let codes: Vec<Code> = r.diagnostics.iter().map(|d| d.code).collect();
    assert_eq!(codes, [Code::D3d9InstructionCap, Code::D3d9DynamicNesting], "{:#?}", r.diagnostics);
    assert!(r
        .diagnostics
        .iter()
        .all(|d| matches!(d.location, validate::Location::Instruction { index, .. } if index == at)));
    // Any depth between: the limit is the cap.
    for depth in [1u8, 7, 23] {
        let caps = caps_2_x(depth, 4);
        accepted(&nested(VS_2_X, depth as usize, if_c, endif).0, &caps);
        let (p, at) = nested(VS_2_X, depth as usize + 1, if_c, endif);
        refused_at(&p, &caps, Code::D3d9DynamicNesting, at, "if_gt");
    }
}

/// `break_comp` goes one dynamic level up and back: it needs a free level.
#[test]
fn break_comp_needs_one_free_dynamic_level() {
    for (version, caps) in [(VS_2_X, caps_2_x(24, 4)), (VS_3_0, Caps9::default()), (VS_2_SW, Caps9::default())] {
        let build = |ifs: usize| {
            let mut p = Prog::new(version);
            for _ in 0..ifs {
                p.if_c();
            }
            p.rep();
            let at = p.break_c();
            p.endrep();
            for _ in 0..ifs {
                p.endif();
            }
            (p, at)
        };
        accepted(&build(23).0, &caps);
        let (p, at) = build(24);
        let m = refused_at(&p, &caps, Code::D3d9DynamicNesting, at, "break_gt");
        assert!(m.contains("reaches 25"), "{m}");
        // break and breakp count nothing: 24 levels and a breakp are fine.
        let mut p = Prog::new(version);
        p.setp();
        for _ in 0..24 {
            p.if_c();
        }
        p.rep();
        p.break_();
        p.break_p();
        p.endrep();
        for _ in 0..24 {
            p.endif();
        }
        accepted(&p, &caps);
    }
}

/// `callnz pred` is one dynamic level (and one call level) until its subroutine returns.
#[test]
fn callnz_pred_is_a_dynamic_level_until_ret() {
    for (version, caps) in [(VS_2_X, caps_2_x(24, 4)), (VS_3_SW, Caps9::default())] {
        let build = |ifs: usize, inner: usize| {
            let mut p = Prog::new(version);
            p.setp();
            for _ in 0..ifs {
                p.if_c();
            }
            let at = p.callnz_p(0);
            for _ in 0..ifs {
                p.endif();
            }
            // After the return the level is free again.
            for _ in 0..24 {
                p.if_c();
            }
            for _ in 0..24 {
                p.endif();
            }
            p.ret();
            p.label(0);
            let mut deep = at;
            for _ in 0..inner {
                deep = p.if_c();
            }
            p.mov();
            for _ in 0..inner {
                p.endif();
            }
            p.ret();
            (p, at, deep)
        };
        accepted(&build(23, 0).0, &caps);
        let (p, at, _) = build(24, 0);
        refused_at(&p, &caps, Code::D3d9DynamicNesting, at, "callnz");
        // Inside the subroutine the level is taken: 22 + callnz + 1 is 24, + 2 is 25.
        accepted(&build(22, 1).0, &caps);
        let (p, _, deep) = build(22, 2);
        refused_at(&p, &caps, Code::D3d9DynamicNesting, deep, "if_gt");
    }
}

/// vs_2_x: StaticFlowControlDepth 1..4 limits loop/rep nesting and, independently, call
/// nesting.
#[test]
fn vs_2_x_static_flow_depth_limits_loops_and_calls_independently() {
    for d in 1..=4u8 {
        let caps = caps_2_x(24, d);
        let n = d as usize;
        for (open, close, name) in
            [(rep as fn(&mut Prog) -> usize, endrep as fn(&mut Prog) -> usize, "rep"), (loop_, endloop, "loop")]
        {
            accepted(&nested(VS_2_X, n, open, close).0, &caps);
            let (p, at) = nested(VS_2_X, n + 1, open, close);
            let m = refused_at(&p, &caps, Code::D3d9LoopNesting, at, name);
            assert!(m.contains(&format!("is {d} (StaticFlowControlDepth)")), "{m}");
        }
        accepted(&call_chain(VS_2_X, n).0, &caps);
        let (p, at) = call_chain(VS_2_X, n + 1);
        let m = refused_at(&p, &caps, Code::D3d9CallNesting, at, "call");
        assert!(m.contains(&format!("call nesting reaches {}", n + 1)), "{m}");
        // Independent: d loops around a call chain of depth d is accepted (the two
        // counters are not added).
        let mut p = Prog::new(VS_2_X);
        for _ in 0..n {
            p.rep();
        }
        p.call(0);
        for _ in 0..n {
            p.endrep();
        }
        p.ret();
        for l in 0..n as u16 {
            p.label(l);
            if (l as usize) + 1 < n {
                p.call(l + 1);
            }
            p.mov();
            p.ret();
        }
        accepted(&p, &caps);
    }
}

/// vs_2_sw, vs_3_0, vs_3_sw: static 24, dynamic 24, loop/rep 4, call 4, no static flow
/// count; the vs_2_x caps do not apply.
#[test]
fn vs_3_0_family_limits() {
    let weak = caps_2_x(0, 1);
    for (name, version) in [("vs_2_sw", VS_2_SW), ("vs_3_0", VS_3_0), ("vs_3_sw", VS_3_SW)] {
        for caps in [Caps9::default(), weak] {
            accepted(&nested(version, 24, if_b, endif).0, &caps);
            let (p, at) = nested(version, 25, if_b, endif);
            let m = refused_at(&p, &caps, Code::D3d9StaticNesting, at, "if");
            assert!(
                m.contains(&format!(
                    "static nesting reaches 25 at this `if`; the static nesting limit of {name} is 24"
                )),
                "{m}"
            );
            accepted(&nested(version, 24, if_c, endif).0, &caps);
            let (p, at) = nested(version, 25, if_c, endif);
            refused_at(&p, &caps, Code::D3d9DynamicNesting, at, "if_gt");
            accepted(&nested(version, 4, rep, endrep).0, &caps);
            let (p, at) = nested(version, 5, loop_, endloop);
            refused_at(&p, &caps, Code::D3d9LoopNesting, at, "loop");
            accepted(&call_chain(version, 4).0, &caps);
            let (p, at) = call_chain(version, 5);
            refused_at(&p, &caps, Code::D3d9CallNesting, at, "call");
            // No static flow count: 100 if bool in a row.
            let mut p = Prog::new(version);
            for _ in 0..100 {
                p.if_b();
                p.else_();
                p.endif();
            }
            accepted(&p, &caps);
        }
    }
}

/// The counters carry into a subroutine: an `if` in a subroutine called from inside 20
/// `if`s is at level 21.
#[test]
fn counters_carry_into_subroutines() {
    let caps = Caps9::default();
    let build = |inner: usize| {
        let mut p = Prog::new(VS_3_0);
        for _ in 0..20 {
            p.if_b();
        }
        p.call(0);
        for _ in 0..20 {
            p.endif();
        }
        p.ret();
        p.label(0);
        let mut last = 0;
        for _ in 0..inner {
            last = p.if_b();
        }
        p.mov();
        for _ in 0..inner {
            p.endif();
        }
        p.ret();
        (p, last)
    };
    accepted(&build(4).0, &caps);
    let (p, at) = build(5);
    refused_at(&p, &caps, Code::D3d9StaticNesting, at, "if");
    // The trace shows the subroutine's `if`s at 21..25, then back to 20 at its ret.
    let (sites, walk) = validate::d3d9::walk_program(&build(5).0.bytes(), &caps).unwrap();
    let levels: Vec<i32> = walk.steps.iter().filter(|s| sites[s.site].mnemonic == "if").map(|s| s.after[0]).collect();
    assert_eq!(levels, (1..=25).collect::<Vec<_>>());
    let ret = walk.steps.iter().rev().find(|s| sites[s.site].mnemonic == "ret" && s.depth == 1).unwrap();
    assert_eq!(ret.after[0], 20);
    assert_eq!(ret.after[3], 0, "call nesting back to 0 after the subroutine's ret");
}

/// A subroutine called twice from the same counters is walked once; called from
/// different counters it is walked again.
#[test]
fn subroutine_walks() {
    let caps = Caps9::default();
    let mut p = Prog::new(VS_3_0);
    p.call(0);
    p.call(0);
    p.if_b();
    p.call(0);
    p.endif();
    let main_ret = p.ret();
    p.label(0);
    let body = p.rep();
    p.endrep();
    p.ret();
    let (sites, walk) = validate::d3d9::walk_program(&p.bytes(), &caps).unwrap();
    let rep_steps: Vec<_> = walk.steps.iter().filter(|s| sites[s.site].index == body).collect();
    assert_eq!(rep_steps.len(), 2, "walked from (0,0,0,1) and from (1,0,0,1)");
    assert_eq!(rep_steps[0].after, [0, 0, 1, 1, 0]);
    assert_eq!(rep_steps[1].after, [1, 0, 1, 1, 0]);
    // The main program's ret counts nothing.
    let k = walk.steps.iter().position(|s| sites[s.site].index == main_ret).unwrap();
    assert_eq!(walk.steps[k].after, walk.steps[k - 1].after);
    assert_eq!(walk.steps[k].after, [0; 5]);
}

/// A subroutine no call reaches is checked as if called from the main program's top
/// level (call nesting 1).
#[test]
fn uncalled_subroutines_are_checked() {
    let caps = Caps9::default();
    let mut p = Prog::new(VS_2_0);
    p.mov();
    p.ret();
    p.label(3);
    p.rep();
    let at = p.rep();
    p.endrep();
    p.endrep();
    p.ret();
    refused_at(&p, &caps, Code::D3d9LoopNesting, at, "rep");
    let mut p = Prog::new(VS_2_0);
    p.ret();
    p.label(0);
    let at = p.call(1);
    p.ret();
    p.label(1);
    p.ret();
    // l1 is called (from l0, at depth 2): refused in vs_2_0.
    refused_at(&p, &caps, Code::D3d9CallNesting, at, "call");
}

/// Block structure (V912).
#[test]
fn block_structure() {
    let caps = Caps9::default();
    let mut p = Prog::new(VS_3_0);
    let at = p.else_();
    refused_at(&p, &caps, Code::D3d9FlowStructure, at, "else");
    let mut p = Prog::new(VS_3_0);
    let at = p.endif();
    refused_at(&p, &caps, Code::D3d9FlowStructure, at, "endif");
    let mut p = Prog::new(VS_3_0);
    p.if_b();
    p.else_();
    let at = p.else_();
    p.endif();
    refused_at(&p, &caps, Code::D3d9FlowStructure, at, "else");
    // Straddling: rep / if / endrep / endif.
    let mut p = Prog::new(VS_3_0);
    p.rep();
    p.if_b();
    let at = p.endrep();
    p.endif();
    let r = run(&p, &caps);
    assert!(r.diagnostics.iter().any(|d| d.code == Code::D3d9FlowStructure
        && matches!(d.location, validate::Location::Instruction { index, .. } if index == at)));
    // endloop closing a rep.
    let mut p = Prog::new(VS_3_0);
    p.rep();
    let at = p.endloop();
    let r = run(&p, &caps);
    assert!(r.diagnostics.iter().any(|d| d.code == Code::D3d9FlowStructure
        && matches!(d.location, validate::Location::Instruction { index, .. } if index == at)));
    // break outside a loop.
    let mut p = Prog::new(VS_3_0);
    p.if_c();
    let at = p.break_();
    p.endif();
    refused_at(&p, &caps, Code::D3d9FlowStructure, at, "break");
    // A block left open: at the end, and at the ret.
    let mut p = Prog::new(VS_3_0);
    let at = p.if_b();
    p.mov();
    refused_at(&p, &caps, Code::D3d9FlowStructure, at, "if");
    let mut p = Prog::new(VS_3_0);
    let at = p.rep();
    p.ret();
    refused_at(&p, &caps, Code::D3d9FlowStructure, at, "rep");
}

/// Subroutines and labels (V913).
#[test]
fn subroutine_structure() {
    let caps = Caps9::default();
    // An instruction after the main program's ret that is not a label.
    let mut p = Prog::new(VS_2_0);
    p.ret();
    let at = p.mov();
    refused_at(&p, &caps, Code::D3d9Subroutine, at, "mov");
    // A label inside the main program.
    let mut p = Prog::new(VS_2_0);
    p.mov();
    let at = p.label(0);
    p.ret();
    refused_at(&p, &caps, Code::D3d9Subroutine, at, "label");
    // A call to a label that is not defined.
    let mut p = Prog::new(VS_2_0);
    let at = p.call(4);
    p.ret();
    let m = refused_at(&p, &caps, Code::D3d9Subroutine, at, "call");
    assert!(m.contains("l4"), "{m}");
    // A backward call: l1 calls l0, which is before it.
    let mut p = Prog::new(VS_2_X);
    p.call(0);
    p.call(1);
    p.ret();
    p.label(0);
    p.ret();
    p.label(1);
    let at = p.call(0);
    p.ret();
    let m = refused_at(&p, &caps, Code::D3d9Subroutine, at, "call");
    assert!(m.contains("forward"), "{m}");
    // A label defined twice.
    let mut p = Prog::new(VS_2_X);
    p.ret();
    p.label(2);
    p.ret();
    let at = p.label(2);
    p.ret();
    refused_at(&p, &caps, Code::D3d9Subroutine, at, "label");
    // A subroutine without ret.
    let mut p = Prog::new(VS_2_X);
    p.ret();
    p.label(0);
    p.mov();
    let r = run(&p, &caps);
    assert_eq!(r.diagnostics.len(), 1, "{:#?}", r.diagnostics);
    assert_eq!(r.diagnostics[0].code, Code::D3d9Subroutine);
    // Label numbers: 0..15 in vs_2_0 / vs_2_x and (D3DAssemble's verdict, error X5819)
    // vs_2_sw, 0..2047 in vs_3_0.
    for (version, max) in [(VS_2_0, 15u16), (VS_2_X, 15), (VS_2_SW, 15), (VS_3_0, 2047)] {
        let prog = |l: u16| {
            let mut p = Prog::new(version);
            p.call(l);
            p.ret();
            let at = p.label(l);
            p.ret();
            (p, at)
        };
        accepted(&prog(max).0, &caps);
        if max < 2047 {
            let (p, at) = prog(max + 1);
            refused_at(&p, &caps, Code::D3d9Subroutine, at, "label");
        }
    }
}

/// Raw `walk` over hand-made sites: the engine does not depend on the decoder.
#[test]
fn the_engine_walks_sites() {
    use d3dbc::FlowOp;
    use validate::d3d9::flow::{self, Site, SiteKind};
    let site = |kind, index| Site { kind, index, token: index + 1, offset: 4 * (index + 1), mnemonic: "x" };
    let f = |op| SiteKind::Flow { op, target: None };
    let sites = [site(f(FlowOp::IfComp), 0), site(f(FlowOp::BreakComp), 1), site(f(FlowOp::Endif), 2)];
    // break_comp outside a loop: a structure problem, no trace.
    let w = flow::walk(&sites, &flow::VS_3_0, [Some(24), Some(24), Some(4), Some(4), None], 2047);
    assert!(w.steps.is_empty());
    assert_eq!(w.problems.len(), 1);
    let sites = [
        site(f(FlowOp::Rep), 0),
        site(f(FlowOp::IfComp), 1),
        site(f(FlowOp::BreakComp), 2),
        site(f(FlowOp::Endif), 3),
        site(f(FlowOp::Endrep), 4),
    ];
    let w = flow::walk(&sites, &flow::VS_3_0, [Some(24), Some(1), Some(4), Some(4), None], 2047);
    assert_eq!(w.max(), [0, 2, 1, 0, 0]);
    assert_eq!(
        w.problems,
        [flow::Problem::Limit { counter: flow::Counter::DynamicNesting, limit: 1, value: 2, site: 2 }]
    );
}

/// The pixel-shader tables ("Flow Control Limitations"): ps_2_x static nesting 24 when
/// StaticFlowControlDepth > 0 (else 0), dynamic and rep/call nesting from the caps, no
/// `loop`; ps_2_sw 24/24/4/4 without `loop`; ps_3_0 24/24/4/4 with `loop`; ps_2_0 has
/// no flow control.
#[test]
fn pixel_shader_tables() {
    const PS_2_SW: u32 = 0xffff_02ff;
    let caps = Caps9::default();
    for (version, name) in [(PS_2_X, "if"), (PS_2_SW, "if"), (PS_3_0, "if")] {
        accepted(&nested(version, 24, if_b, endif).0, &caps);
        let (p, at) = nested(version, 25, if_b, endif);
        refused_at(&p, &caps, Code::D3d9StaticNesting, at, name);
        accepted(&nested(version, 24, if_c, endif).0, &caps);
        let (p, at) = nested(version, 25, if_c, endif);
        refused_at(&p, &caps, Code::D3d9DynamicNesting, at, "if_gt");
        accepted(&nested(version, 4, rep, endrep).0, &caps);
        let (p, at) = nested(version, 5, rep, endrep);
        refused_at(&p, &caps, Code::D3d9LoopNesting, at, "rep");
        accepted(&call_chain(version, 4).0, &caps);
        let (p, at) = call_chain(version, 5);
        refused_at(&p, &caps, Code::D3d9CallNesting, at, "call");
    }
    // loop: ps_3_0 only.
    accepted(&nested(PS_3_0, 4, loop_, endloop).0, &caps);
    for version in [PS_2_X, PS_2_SW] {
        let (p, at) = nested(version, 1, loop_, endloop);
        let r = run(&p, &caps);
        assert!(r.diagnostics.iter().any(|d| d.code == Code::D3d9Instruction
            && matches!(d.location, validate::Location::Instruction { index, .. } if index == at)));
    }
    // ps_2_x caps: StaticFlowControlDepth 2 limits rep and call nesting; 0 also makes
    // the static nesting limit 0.
    let two = caps_2_x(24, 2);
    accepted(&nested(PS_2_X, 2, rep, endrep).0, &two);
    let (p, at) = nested(PS_2_X, 3, rep, endrep);
    refused_at(&p, &two, Code::D3d9LoopNesting, at, "rep");
    let (p, at) = call_chain(PS_2_X, 3);
    refused_at(&p, &two, Code::D3d9CallNesting, at, "call");
    let zero = caps_2_x(24, 0);
    let (p, at) = nested(PS_2_X, 1, if_b, endif);
    let m = refused_at(&p, &zero, Code::D3d9StaticNesting, at, "if");
    assert!(m.contains("(24 when StaticFlowControlDepth > 0, else 0)"), "{m}");
    accepted(&nested(PS_2_X, 24, if_b, endif).0, &caps_2_x(24, 1));
    // Dynamic depth from the cap, any value 0..24.
    let seven = caps_2_x(7, 4);
    accepted(&nested(PS_2_X, 7, if_c, endif).0, &seven);
    let (p, at) = nested(PS_2_X, 8, if_c, endif);
    refused_at(&p, &seven, Code::D3d9DynamicNesting, at, "if_gt");
    // ps_2_0: no flow control at all.
    let (p, at) = nested(PS_2_0, 1, if_b, endif);
    let r = run(&p, &caps);
    assert!(r.diagnostics.iter().any(|d| d.code == Code::D3d9Instruction
        && matches!(d.location, validate::Location::Instruction { index, .. } if index == at)));
}

/// A call graph that would take more than `STEP_BUDGET` instruction visits (a
/// subroutine of 1100 instructions called from 1000 different nesting levels) is
/// reported as too complex (V919) rather than walked for ever.
#[test]
fn walk_budget() {
    let mut p = Prog::new(VS_3_0);
    for _ in 0..1000 {
        p.if_b();
        p.call(0);
    }
    for _ in 0..1000 {
        p.endif();
    }
    p.ret();
    p.label(0);
    for _ in 0..550 {
        p.rep();
        p.endrep();
    }
    p.ret();
    let r = run(&p, &Caps9::default());
    let codes: Vec<Code> = r.diagnostics.iter().map(|d| d.code).collect();
    assert!(codes.contains(&Code::D3d9FlowTooComplex), "{codes:?}");
    assert!(codes.contains(&Code::D3d9StaticNesting), "{codes:?}");
    // Fewer levels fit in the budget.
    let mut p = Prog::new(VS_3_0);
    for _ in 0..20 {
        p.if_b();
        p.call(0);
    }
    for _ in 0..20 {
        p.endif();
    }
    p.ret();
    p.label(0);
    for _ in 0..550 {
        p.rep();
        p.endrep();
    }
    p.ret();
    accepted(&p, &Caps9::default());
}
