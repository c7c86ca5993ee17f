//! The flow-control nesting counters of Direct3D 9 shaders (Microsoft's "Flow Control
//! Nesting Limits" page for vertex shaders and "Flow Control Limitations" for pixel
//! shaders), as data, and the walk that applies them to a program.
//!
//! # The tables
//!
//! Each [`FlowTable`] is one of Microsoft's tables: one [`Row`] per instruction (the 17
//! of [`FlowOp`], in the tables' order) giving its change ([`Delta`]) on each of the
//! five [`Counter`]s, or [`Row::Refused`] where every cell is "n/a" (the instruction
//! does not exist in the profile); and one [`Limit`] per counter. A cell "n/a" in a row
//! that otherwise counts means the profile has no such counter ([`Delta::NotCounted`]:
//! the static flow count of `vs_2_sw`, `vs_3_0`, `vs_3_sw` and of every pixel shader).
//! Conditional cells are kept as written: `endif` is −1 static nesting "(if bool)" and
//! −1 dynamic nesting "(if pred or if_comp)", `else` +1 static flow count "(if bool
//! only)", `ret` −1 dynamic nesting "(callnz pred)" ([`Delta::After`]); `break_comp`'s
//! "1, −1" is [`Delta::UpDown`] (the counter goes one level up and back: the instruction
//! needs one free level).
//!
//! `vs_2_0`'s table is applied as written, including `endif`'s −1 static nesting after
//! an `if bool` that counts 0: static nesting has no limit of its own in `vs_2_0`
//! ("only limited by the static flow count"), so the counter (which goes below zero in
//! the trace) never refuses a program.
//!
//! # The walk
//!
//! The program is split into routines: the main program runs from the first
//! instruction to its first `ret` (Microsoft: "the first return statement is treated as
//! the end of the main program or subroutine"); each subroutine starts at a `label`,
//! which may only follow a `ret`, and ends at its own first `ret`. Calls go forward
//! only ("the location of the label ... should be after the call instruction"), so the
//! call graph has no cycle.
//!
//! The walk starts at the main program with every counter 0 and visits the
//! instructions in order. A `call`/`callnz` applies its row, then walks the called
//! subroutine's body from there (the counters carry into the body, so an `if` in a
//! subroutine called from inside an `if` is two levels deep); the subroutine's `ret`
//! applies the `ret` row — the −1 call nesting undoes the call, and the −1 dynamic
//! nesting applies when the call was a `callnz pred` — and the walk continues after the
//! call. The main program's `ret` has no call to undo and counts nothing. A subroutine
//! that no call reaches is walked after the main program, as if called once by `call`
//! from the main program's top level (call nesting 1). A call whose call nesting is
//! already over the limit is reported and not entered. A subroutine body already
//! walked from the same counters is not walked again (it would reach the same values);
//! the trace then shows the call and the subroutine's `ret` only.
//!
//! The static flow count counts instructions of the program text: each instruction
//! counts the first time the walk reaches it (a subroutine called twice counts once).
//!
//! Each counter is checked after every instruction against its limit (the peak of the
//! instruction for `break_comp`); the first instruction, in walk order, that takes a
//! counter over its limit is reported, once per counter.

use super::caps::Caps9;
use d3dbc::{FlowOp, Profile};
use std::collections::{HashMap, HashSet};

/// The five counters of the tables, in their column order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Counter {
    /// "Static nesting": `if bool` blocks open.
    StaticNesting,
    /// "Dynamic nesting": `if pred`, `if_comp` blocks and `callnz pred` calls open.
    DynamicNesting,
    /// "Loop/rep nesting": `loop` and `rep` blocks open.
    LoopNesting,
    /// "Call nesting": subroutine calls open.
    CallNesting,
    /// "Static flow count": flow-control instructions in the program text (`vs_2_0`,
    /// `vs_2_x` only).
    StaticFlowCount,
}

impl Counter {
    /// The five, in the tables' column order (the order of every `[_; 5]` here).
    pub const ALL: [Counter; 5] = [
        Counter::StaticNesting,
        Counter::DynamicNesting,
        Counter::LoopNesting,
        Counter::CallNesting,
        Counter::StaticFlowCount,
    ];

    /// The column's name in Microsoft's tables.
    pub fn name(self) -> &'static str {
        match self {
            Counter::StaticNesting => "static nesting",
            Counter::DynamicNesting => "dynamic nesting",
            Counter::LoopNesting => "loop/rep nesting",
            Counter::CallNesting => "call nesting",
            Counter::StaticFlowCount => "static flow count",
        }
    }

    /// This counter's cell of `cells` (one per counter, in [`Counter::ALL`] order).
    pub fn cell<T>(self, cells: &[T; 5]) -> &T {
        let [s, d, l, c, f] = cells;
        match self {
            Counter::StaticNesting => s,
            Counter::DynamicNesting => d,
            Counter::LoopNesting => l,
            Counter::CallNesting => c,
            Counter::StaticFlowCount => f,
        }
    }

    /// This counter's cell of `cells`, to change.
    pub fn cell_mut<T>(self, cells: &mut [T; 5]) -> &mut T {
        let [s, d, l, c, f] = cells;
        match self {
            Counter::StaticNesting => s,
            Counter::DynamicNesting => d,
            Counter::LoopNesting => l,
            Counter::CallNesting => c,
            Counter::StaticFlowCount => f,
        }
    }
}

/// What opened the construct a conditional cell depends on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Opener {
    /// `if bool`.
    IfBool,
    /// `if pred` or `if_comp`.
    IfPredOrComp,
    /// The subroutine being left was called by `callnz pred`.
    CallnzPred,
}

/// One cell: the change an instruction makes on one counter.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Delta {
    /// "n/a" in a row that counts: the profile has no such counter.
    NotCounted,
    /// A fixed change.
    Add(i8),
    /// A change only when the construct was opened by (or the subroutine called by)
    /// `Opener`: "−1 (if bool)", "1 (if bool only)", "−1 (callnz pred)".
    After(Opener, i8),
    /// "1, −1": one level up, then back.
    UpDown,
}

/// One row: the instruction is refused by the profile ("n/a" in every column), or its
/// change on each counter.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Row {
    /// "n/a" in every column: the profile has no such instruction.
    Refused,
    /// The change on each counter, in [`Counter::ALL`] order.
    Counts([Delta; 5]),
}

/// A counter's maximum.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Limit {
    /// No limit of its own ("only limited by the static flow count", "no limit").
    Unlimited,
    /// "n/a": the profile has no such counter (nothing counts on it).
    NotCounted,
    /// A fixed maximum.
    Fixed(u32),
    /// `DynamicFlowControlDepth` of the device (`D3DVS20CAPS` / `D3DPSHADERCAPS2_0`).
    DynamicFlowDepth,
    /// `StaticFlowControlDepth` of the device.
    StaticFlowDepth,
    /// ps_2_x static nesting: "24 if StaticFlowControlDepth > 0; 0 otherwise".
    FixedIfStaticFlow(u32),
}

/// One of Microsoft's tables: the rows and the limits of a family of profiles.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FlowTable {
    /// The profile the table is written for (`vs_2_x`).
    pub name: &'static str,
    /// Rows in [`FlowOp::ALL`] order.
    pub rows: [Row; 17],
    /// Limits in [`Counter::ALL`] order.
    pub limits: [Limit; 5],
    /// Where the table is written.
    pub source: &'static str,
}

impl FlowTable {
    /// The row of `op`.
    pub fn row(&self, op: FlowOp) -> Row {
        // Every instruction has a row (17 of each), so the fallback is never taken.
        debug_assert!(op.index() < self.rows.len(), "{op:?} has no row in the flow-control table");
        self.rows.get(op.index()).copied().unwrap_or(Row::Refused)
    }

    /// The limits for a device with `caps`: `None` where the counter has no limit or
    /// does not exist.
    pub fn resolve(&self, caps: &Caps9) -> [Option<u32>; 5] {
        self.limits.map(|l| match l {
            Limit::Unlimited | Limit::NotCounted => None,
            Limit::Fixed(n) => Some(n),
            Limit::DynamicFlowDepth => Some(caps.dynamic_flow_depth as u32),
            Limit::StaticFlowDepth => Some(caps.static_flow_depth as u32),
            Limit::FixedIfStaticFlow(n) => Some(if caps.static_flow_depth > 0 { n } else { 0 }),
        })
    }
}

const fn a(n: i8) -> Delta {
    Delta::Add(n)
}
const Z: Delta = Delta::Add(0);
const NA: Delta = Delta::NotCounted;
const R: Row = Row::Refused;
const fn row(s: Delta, d: Delta, l: Delta, c: Delta, f: Delta) -> Row {
    Row::Counts([s, d, l, c, f])
}
const ENDIF_STATIC: Delta = Delta::After(Opener::IfBool, -1);
const ENDIF_DYNAMIC: Delta = Delta::After(Opener::IfPredOrComp, -1);
const RET_DYNAMIC: Delta = Delta::After(Opener::CallnzPred, -1);

/// The rows of the vs_2_sw, vs_3_0, vs_3_sw and ps_3_0, ps_3_sw tables (identical):
/// the vs_2_x counts without a static flow count.
const ROWS_3_0: [Row; 17] = [
    row(a(1), Z, Z, Z, NA),                     // if bool
    row(Z, a(1), Z, Z, NA),                     // if_comp
    row(Z, a(1), Z, Z, NA),                     // if pred
    row(Z, Z, Z, Z, NA),                        // else
    row(ENDIF_STATIC, ENDIF_DYNAMIC, Z, Z, NA), // endif
    row(Z, Z, a(1), Z, NA),                     // rep
    row(Z, Z, a(-1), Z, NA),                    // endrep
    row(Z, Z, a(1), Z, NA),                     // loop
    row(Z, Z, a(-1), Z, NA),                    // endloop
    row(Z, Z, Z, Z, NA),                        // break
    row(Z, Delta::UpDown, Z, Z, NA),            // break_comp
    row(Z, Z, Z, Z, NA),                        // breakp
    row(Z, Z, Z, a(1), NA),                     // call
    row(Z, Z, Z, a(1), NA),                     // callnz bool
    row(Z, a(1), Z, a(1), NA),                  // callnz pred
    row(Z, RET_DYNAMIC, Z, a(-1), NA),          // ret
    row(Z, Z, Z, Z, NA),                        // setp_comp
];

const fn without_loop(rows: [Row; 17]) -> [Row; 17] {
    const LOOP: usize = FlowOp::Loop as usize;
    const ENDLOOP: usize = FlowOp::Endloop as usize;
    let mut rows = rows;
    rows[LOOP] = R;
    rows[ENDLOOP] = R;
    rows
}

const SOURCE_VS: &str = "Microsoft's Flow Control Nesting Limits page (vs)";
const SOURCE_PS: &str = "Flow Control Limitations (ps): Pixel Shader Instruction Depth Counts";

/// `vs_2_0`.
pub static VS_2_0: FlowTable = FlowTable {
    name: "vs_2_0",
    rows: [
        row(Z, Z, Z, Z, a(1)),                            // if bool
        R,                                                // if_comp
        R,                                                // if pred
        row(Z, Z, Z, Z, Delta::After(Opener::IfBool, 1)), // else
        row(a(-1), Z, Z, Z, Z),                           // endif
        row(Z, Z, a(1), Z, a(1)),                         // rep
        row(Z, Z, a(-1), Z, Z),                           // endrep
        row(Z, Z, a(1), Z, a(1)),                         // loop
        row(Z, Z, a(-1), Z, Z),                           // endloop
        R,                                                // break
        R,                                                // break_comp
        R,                                                // breakp
        row(Z, Z, Z, a(1), a(1)),                         // call
        row(Z, Z, Z, a(1), a(1)),                         // callnz bool
        R,                                                // callnz pred
        row(Z, Z, Z, a(-1), Z),                           // ret
        R,                                                // setp_comp
    ],
    limits: [Limit::Unlimited, Limit::NotCounted, Limit::Fixed(1), Limit::Fixed(1), Limit::Fixed(16)],
    source: SOURCE_VS,
};

/// `vs_2_x`.
pub static VS_2_X: FlowTable = FlowTable {
    name: "vs_2_x",
    rows: [
        row(a(1), Z, Z, Z, a(1)),                         // if bool
        row(Z, a(1), Z, Z, Z),                            // if_comp
        row(Z, a(1), Z, Z, Z),                            // if pred
        row(Z, Z, Z, Z, Delta::After(Opener::IfBool, 1)), // else
        row(ENDIF_STATIC, ENDIF_DYNAMIC, Z, Z, Z),        // endif
        row(Z, Z, a(1), Z, a(1)),                         // rep
        row(Z, Z, a(-1), Z, Z),                           // endrep
        row(Z, Z, a(1), Z, a(1)),                         // loop
        row(Z, Z, a(-1), Z, Z),                           // endloop
        row(Z, Z, Z, Z, Z),                               // break
        row(Z, Delta::UpDown, Z, Z, Z),                   // break_comp
        row(Z, Z, Z, Z, Z),                               // breakp
        row(Z, Z, Z, a(1), a(1)),                         // call
        row(Z, Z, Z, a(1), a(1)),                         // callnz bool
        row(Z, a(1), Z, a(1), Z),                         // callnz pred
        row(Z, RET_DYNAMIC, Z, a(-1), Z),                 // ret
        row(Z, Z, Z, Z, Z),                               // setp_comp
    ],
    limits: [
        Limit::Unlimited,
        Limit::DynamicFlowDepth,
        Limit::StaticFlowDepth,
        Limit::StaticFlowDepth,
        Limit::Fixed(16),
    ],
    source: SOURCE_VS,
};

const LIMITS_3_0: [Limit; 5] =
    [Limit::Fixed(24), Limit::Fixed(24), Limit::Fixed(4), Limit::Fixed(4), Limit::NotCounted];

/// `vs_2_sw`.
pub static VS_2_SW: FlowTable = FlowTable { name: "vs_2_sw", rows: ROWS_3_0, limits: LIMITS_3_0, source: SOURCE_VS };
/// `vs_3_0`.
pub static VS_3_0: FlowTable = FlowTable { name: "vs_3_0", rows: ROWS_3_0, limits: LIMITS_3_0, source: SOURCE_VS };
/// `vs_3_sw`.
pub static VS_3_SW: FlowTable = FlowTable { name: "vs_3_sw", rows: ROWS_3_0, limits: LIMITS_3_0, source: SOURCE_VS };

/// `ps_2_x` (no `loop` in the table: ps_2_x has no `loop` instruction).
pub static PS_2_X: FlowTable = FlowTable {
    name: "ps_2_x",
    rows: without_loop(ROWS_3_0),
    limits: [
        Limit::FixedIfStaticFlow(24),
        Limit::DynamicFlowDepth,
        Limit::StaticFlowDepth,
        Limit::StaticFlowDepth,
        Limit::NotCounted,
    ],
    source: SOURCE_PS,
};
/// `ps_2_sw` (`loop`, `endloop`: n/a).
pub static PS_2_SW: FlowTable =
    FlowTable { name: "ps_2_sw", rows: without_loop(ROWS_3_0), limits: LIMITS_3_0, source: SOURCE_PS };
/// `ps_3_0`.
pub static PS_3_0: FlowTable = FlowTable { name: "ps_3_0", rows: ROWS_3_0, limits: LIMITS_3_0, source: SOURCE_PS };
/// `ps_3_sw`.
pub static PS_3_SW: FlowTable = FlowTable { name: "ps_3_sw", rows: ROWS_3_0, limits: LIMITS_3_0, source: SOURCE_PS };

/// The table of `profile`; `None` for the profiles without flow control (`vs_1_1`,
/// `ps_1_x`, `ps_2_0`).
pub fn table_for(profile: Profile) -> Option<&'static FlowTable> {
    Some(match profile {
        Profile::Vs2_0 => &VS_2_0,
        Profile::Vs2_x => &VS_2_X,
        Profile::Vs2_sw => &VS_2_SW,
        Profile::Vs3_0 => &VS_3_0,
        Profile::Vs3_sw => &VS_3_SW,
        Profile::Ps2_x => &PS_2_X,
        Profile::Ps2_sw => &PS_2_SW,
        Profile::Ps3_0 => &PS_3_0,
        Profile::Ps3_sw => &PS_3_SW,
        Profile::Vs1_1 | Profile::Ps1_1 | Profile::Ps1_2 | Profile::Ps1_3 | Profile::Ps1_4 | Profile::Ps2_0 => {
            return None
        }
    })
}

/// The highest label number of a profile: 15 in `vs_2_0`, `vs_2_x` and `vs_2_sw`, 2047
/// in `ps_2_x`, `ps_2_sw` and 3_0. The `label` pages give 15 for ps_2_x and 2047 for the
/// software profiles; D3DAssemble's validator (recorded verdicts) accepts `l2047` in
/// ps_2_x and refuses it in vs_2_sw (error X5819, "Maximum label number is 15").
pub fn max_label(profile: Profile) -> u32 {
    match profile {
        Profile::Vs2_0 | Profile::Vs2_x | Profile::Vs2_sw => 15,
        _ => 2047,
    }
}

// ---------------------------------------------------------------------------------
// The program as the walk sees it.

/// What an instruction is to the walk.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum SiteKind {
    /// One of the seventeen; `target` is the label of a call.
    Flow {
        /// Which of the seventeen.
        op: FlowOp,
        /// The called label's number (`call l3`: 3); `None` for the others.
        target: Option<u32>,
    },
    /// `label l#`.
    Label(u32),
    /// Any other instruction (it matters only to where labels may stand).
    Other,
}

/// One instruction of the program, with where it is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Site {
    /// What the instruction is to the walk.
    pub kind: SiteKind,
    /// Instruction index (0 = the first after the version token).
    pub index: usize,
    /// Token index in the program (the version token is token 0).
    pub token: usize,
    /// Byte offset in the bytes given to the validator.
    pub offset: usize,
    /// The instruction's mnemonic.
    pub mnemonic: &'static str,
}

/// The counters, in [`Counter::ALL`] order.
pub type Counters = [i32; 5];

/// One instruction the walk visited, and the counters after it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Step {
    /// Index into the sites given to [`walk`] (the instruction).
    pub site: usize,
    /// The counters after the instruction.
    pub after: Counters,
    /// The highest value each counter had during the instruction (`after`, except
    /// for `break_comp`'s transient level).
    pub peak: Counters,
    /// How many calls deep the walk is (0 in the main program).
    pub depth: u32,
}

/// What is wrong with the structure (the walk needs a well-formed program).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum StructureKind {
    /// A block instruction outside its construct: `else`/`endif` without `if`,
    /// `endrep`/`endloop` without its opener, straddling, a `break` outside a loop, a
    /// construct left open at the end of its routine.
    Construct,
    /// Subroutines and labels: a `label` not directly after a `ret`, a label defined
    /// twice or out of range, a call to a label that is not defined or not after the
    /// call, instructions after the last `ret` outside any subroutine, a subroutine
    /// without `ret`.
    Subroutine,
}

/// A finding of the walk.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Problem {
    /// A counter went over its limit at `site` (the first time, in walk order).
    Limit {
        /// The counter.
        counter: Counter,
        /// Its limit for the device.
        limit: u32,
        /// The value it reached (the instruction's peak).
        value: i32,
        /// Index into the sites given to [`walk`].
        site: usize,
    },
    /// The instruction's row is "n/a": the profile does not have it.
    Refused {
        /// Index into the sites given to [`walk`].
        site: usize,
    },
    /// The program's structure is broken.
    Structure {
        /// Block constructs or subroutines.
        kind: StructureKind,
        /// Index into the sites given to [`walk`]; `None`: at the end of the program.
        site: Option<usize>,
        /// What is wrong, for a person.
        message: String,
    },
    /// The walk would take more than [`STEP_BUDGET`] steps.
    TooComplex,
}

/// The most instructions one walk visits (calls expand subroutines; a body already
/// walked from the same counters is not walked again). A program whose call graph
/// needs more is reported as too complex to check rather than walked.
pub const STEP_BUDGET: usize = 1 << 20;

/// The walk's result: the counter trace (empty when the structure is broken) and the
/// findings.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Walk {
    /// Every instruction visited, in walk order (a subroutine's body once per call that
    /// walks it), with the counters after it.
    pub steps: Vec<Step>,
    /// The findings, in walk order.
    pub problems: Vec<Problem>,
}

impl Walk {
    /// The highest value each counter reached.
    pub fn max(&self) -> Counters {
        let mut m = [0i32; 5];
        for s in &self.steps {
            for (mi, p) in m.iter_mut().zip(s.peak) {
                *mi = (*mi).max(p);
            }
        }
        m
    }

    /// The steps of instruction `index` (instruction index, not site index), given the
    /// sites the walk was made over.
    pub fn steps_of<'s>(&'s self, sites: &'s [Site], index: usize) -> impl Iterator<Item = &'s Step> + 's {
        self.steps.iter().filter(move |s| sites.get(s.site).is_some_and(|site| site.index == index))
    }
}

/// A routine: the main program or a subroutine, as a range of sites.
#[derive(Debug, Clone, Copy)]
struct Routine {
    /// First site of the body (after the `label`).
    start: usize,
    /// The `ret` that ends it (`None`: the main program without `ret`).
    ret: Option<usize>,
    /// One past the last site of the body (the `ret`, or the end).
    end: usize,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Block {
    If { opener: Opener, has_else: bool },
    Rep,
    Loop,
}

/// Checks the structure of `sites` and walks it with `table`'s rows against `limits`
/// (see the module documentation).
pub fn walk(sites: &[Site], table: &FlowTable, limits: [Option<u32>; 5], max_label: u32) -> Walk {
    let mut result = Walk::default();
    for (i, s) in sites.iter().enumerate() {
        if let SiteKind::Flow { op, .. } = s.kind {
            if table.row(op) == Row::Refused {
                result.problems.push(Problem::Refused { site: i });
            }
        }
    }
    let Some((main, subs)) = structure(sites, max_label, &mut result.problems) else {
        return result;
    };
    if result.problems.iter().any(|p| matches!(p, Problem::Refused { .. })) {
        return result;
    }
    let mut walker = Walker {
        sites,
        table,
        limits,
        subs: &subs,
        by_label: subs.iter().enumerate().map(|(k, (n, _))| (*n, k)).collect(),
        visited: vec![false; sites.len()],
        reported: [false; 5],
        memo: HashSet::new(),
        called: vec![false; subs.len()],
        result: &mut result,
        budget: STEP_BUDGET,
    };
    let mut counters = [0i32; 5];
    if walker.routine(main, &mut counters, 0, None).is_err() {
        walker.too_complex();
        return result;
    }
    // Subroutines no call reaches: as if called from the main program's top level.
    for (i, (_, sub)) in subs.iter().enumerate() {
        if walker.mark_called(i) {
            let mut counters = [0i32; 5];
            *Counter::CallNesting.cell_mut(&mut counters) = 1;
            if walker.routine(*sub, &mut counters, 1, Some(FlowOp::Call)).is_err() {
                walker.too_complex();
                return result;
            }
        }
    }
    result
}

/// Splits the sites into the main program and the subroutines (`(label, routine)`,
/// in program order), checking the block structure of each. `None` when broken.
fn structure(sites: &[Site], max_label: u32, problems: &mut Vec<Problem>) -> Option<(Routine, Vec<(u32, Routine)>)> {
    let before = problems.len();
    let mut push =
        |kind, site: Option<usize>, message: String| problems.push(Problem::Structure { kind, site, message });
    let mut routines: Vec<(Option<u32>, Routine)> = Vec::new();
    let mut current: Option<(Option<u32>, usize)> = Some((None, 0));
    let mut blocks: Vec<(Block, usize)> = Vec::new();
    for (i, site) in sites.iter().enumerate() {
        match current {
            None => {
                // Between routines: only a label may stand here.
                match site.kind {
                    SiteKind::Label(n) => {
                        // `i` indexes `sites`, so `i + 1` is at most its length.
                        current = Some((Some(n), i.saturating_add(1)));
                    }
                    _ => push(
                        StructureKind::Subroutine,
                        Some(i),
                        format!(
                            "`{}` after the `ret` that ends the {}: only a `label` may follow a `ret`",
                            site.mnemonic,
                            routines.last().map_or("main program".to_string(), |r| routine_name(r.0))
                        ),
                    ),
                }
            }
            Some((label, start)) => match site.kind {
                SiteKind::Label(_) => push(
                    StructureKind::Subroutine,
                    Some(i),
                    format!("`label` inside the {}: a label may only follow a `ret`", routine_name(label)),
                ),
                SiteKind::Other => {}
                SiteKind::Flow { op, .. } => {
                    if op == FlowOp::Ret {
                        for (_, open) in blocks.drain(..).rev() {
                            push(
                                StructureKind::Construct,
                                Some(open),
                                format!(
                                    "`{}` is not closed before the `ret` that ends the {}",
                                    mnemonic(sites, open),
                                    routine_name(label)
                                ),
                            );
                        }
                        routines.push((label, Routine { start, ret: Some(i), end: i }));
                        current = None;
                    } else {
                        block(op, i, site.mnemonic, &mut blocks, &mut push);
                    }
                }
            },
        }
    }
    if let Some((label, start)) = current {
        for (_, open) in blocks.drain(..).rev() {
            push(
                StructureKind::Construct,
                Some(open),
                format!("`{}` is not closed at the end of the {}", mnemonic(sites, open), routine_name(label)),
            );
        }
        if label.is_some() {
            push(StructureKind::Subroutine, None, format!("the {} has no `ret`", routine_name(label)));
        }
        routines.push((label, Routine { start, ret: None, end: sites.len() }));
    }
    // Labels: defined once, in range; calls: to a defined label after the call.
    let mut subs: Vec<(u32, Routine)> = Vec::new();
    let mut by_label: HashMap<u32, usize> = HashMap::new();
    for (label, r) in routines.iter().skip(1) {
        let Some(n) = *label else { continue };
        // A subroutine's body starts one past its `label`, so `start` is at least 1.
        let at = r.start.saturating_sub(1);
        if n > max_label {
            push(StructureKind::Subroutine, Some(at), format!("label l{n} is out of range (l0..l{max_label})"));
        }
        match by_label.entry(n) {
            std::collections::hash_map::Entry::Occupied(_) => {
                push(StructureKind::Subroutine, Some(at), format!("label l{n} is defined twice"))
            }
            std::collections::hash_map::Entry::Vacant(v) => {
                v.insert(subs.len());
                subs.push((n, *r));
            }
        }
    }
    for (i, s) in sites.iter().enumerate() {
        if let SiteKind::Flow { op, target } = s.kind {
            if !op.is_call() {
                continue;
            }
            match target.and_then(|t| by_label.get(&t).and_then(|&k| subs.get(k)).map(|&(_, r)| (t, r))) {
                None => push(
                    StructureKind::Subroutine,
                    Some(i),
                    match target {
                        Some(t) => format!("call to label l{t}, which is not defined"),
                        None => "call without a label operand".to_string(),
                    },
                ),
                Some((t, r)) if r.start <= i => push(
                    StructureKind::Subroutine,
                    Some(i),
                    format!("call to label l{t}, which is before the call (only forward calls are allowed)"),
                ),
                Some(_) => {}
            }
        }
    }
    if problems.len() > before {
        return None;
    }
    let main = routines.first().map(|r| r.1).unwrap_or(Routine { start: 0, ret: None, end: 0 });
    Some((main, subs))
}

/// The mnemonic of site `i` (sites' indices come from `sites` itself).
fn mnemonic(sites: &[Site], i: usize) -> &'static str {
    sites.get(i).map_or("?", |s| s.mnemonic)
}

fn routine_name(label: Option<u32>) -> String {
    match label {
        None => "main program".to_string(),
        Some(n) => format!("subroutine l{n}"),
    }
}

/// The block structure of one instruction.
fn block(
    op: FlowOp,
    i: usize,
    mnemonic: &str,
    blocks: &mut Vec<(Block, usize)>,
    push: &mut impl FnMut(StructureKind, Option<usize>, String),
) {
    let mut outside = |what: &str| {
        push(StructureKind::Construct, Some(i), format!("`{mnemonic}` {what}"));
    };
    match op {
        FlowOp::IfBool => blocks.push((Block::If { opener: Opener::IfBool, has_else: false }, i)),
        FlowOp::IfComp | FlowOp::IfPred => {
            blocks.push((Block::If { opener: Opener::IfPredOrComp, has_else: false }, i))
        }
        FlowOp::Rep => blocks.push((Block::Rep, i)),
        FlowOp::Loop => blocks.push((Block::Loop, i)),
        FlowOp::Else => match blocks.last_mut() {
            Some((Block::If { has_else: false, .. }, _)) => {
                if let Some((Block::If { has_else, .. }, _)) = blocks.last_mut() {
                    *has_else = true;
                }
            }
            Some((Block::If { has_else: true, .. }, _)) => outside("after the `else` of the same `if`"),
            Some(_) => outside("inside a loop that is inside its `if` (a block may not straddle another)"),
            None => outside("without an open `if`"),
        },
        FlowOp::Endif => match blocks.last() {
            Some((Block::If { .. }, _)) => {
                blocks.pop();
            }
            Some(_) => outside("closes an `if` across an open loop (a block may not straddle another)"),
            None => outside("without an open `if`"),
        },
        FlowOp::Endrep | FlowOp::Endloop => {
            let want = if op == FlowOp::Endrep { Block::Rep } else { Block::Loop };
            match blocks.last() {
                Some((b, _)) if *b == want => {
                    blocks.pop();
                }
                Some(_) => outside("does not close the innermost open block (a block may not straddle another)"),
                None => outside("without an open loop"),
            }
        }
        FlowOp::Break | FlowOp::BreakComp | FlowOp::BreakP => {
            if !blocks.iter().any(|(b, _)| matches!(b, Block::Rep | Block::Loop)) {
                outside("outside a `rep` or `loop` block");
            }
        }
        FlowOp::Call | FlowOp::CallnzBool | FlowOp::CallnzPred | FlowOp::SetpComp | FlowOp::Ret => {}
    }
}

struct Walker<'a> {
    sites: &'a [Site],
    table: &'a FlowTable,
    limits: [Option<u32>; 5],
    subs: &'a [(u32, Routine)],
    by_label: HashMap<u32, usize>,
    visited: Vec<bool>,
    reported: [bool; 5],
    memo: HashSet<(usize, [i32; 4])>,
    called: Vec<bool>,
    result: &'a mut Walk,
    budget: usize,
}

struct OverBudget;

impl Walker<'_> {
    fn too_complex(&mut self) {
        self.result.steps.clear();
        self.result.problems.push(Problem::TooComplex);
    }

    /// Marks subroutine `k` called; true the first time.
    fn mark_called(&mut self, k: usize) -> bool {
        self.called.get_mut(k).is_some_and(|c| !std::mem::replace(c, true))
    }

    /// Marks `site` visited; true the first time.
    fn visit(&mut self, site: usize) -> bool {
        self.visited.get_mut(site).is_some_and(|v| !std::mem::replace(v, true))
    }

    /// Records the step of `site` and checks the counters against their limits.
    fn step(&mut self, site: usize, before: Counters, after: Counters, extra: Counters, depth: u32) {
        let mut peak = after;
        for ((p, b), e) in peak.iter_mut().zip(before).zip(extra) {
            *p = (*p).max(b.saturating_add(e));
        }
        let cells = peak.iter().zip(self.limits).zip(self.reported.iter_mut()).zip(Counter::ALL);
        for (((&value, limit), reported), counter) in cells {
            if let Some(limit) = limit {
                if over(value, limit) && !*reported {
                    *reported = true;
                    self.result.problems.push(Problem::Limit { counter, limit, value, site });
                }
            }
        }
        self.result.steps.push(Step { site, after, peak, depth });
    }

    /// Applies `op`'s row. `opener`: what opened the construct the instruction
    /// continues or closes (or how the subroutine being left was called). Returns the
    /// counters after and the transient extra of `break_comp`.
    fn apply(&mut self, site: usize, op: FlowOp, counters: &mut Counters, opener: Option<Opener>) -> Counters {
        let mut extra = [0i32; 5];
        let Row::Counts(cells) = self.table.row(op) else { return extra };
        let first_visit = self.visit(site);
        for (((cell, count), extra), counter) in
            cells.iter().zip(counters.iter_mut()).zip(extra.iter_mut()).zip(Counter::ALL)
        {
            let d = match *cell {
                Delta::NotCounted => 0,
                Delta::Add(n) => i32::from(n),
                Delta::After(o, n) => {
                    if Some(o) == opener {
                        i32::from(n)
                    } else {
                        0
                    }
                }
                Delta::UpDown => {
                    *extra = 1;
                    0
                }
            };
            if counter == Counter::StaticFlowCount && !first_visit {
                continue;
            }
            // Each step changes a counter by at most 1 and a walk has at most
            // `STEP_BUDGET` steps, so the counters never saturate.
            *count = count.saturating_add(d);
        }
        extra
    }

    /// Walks a routine's body from `counters`; `called_by`: the call that entered it
    /// (`None`: the main program).
    fn routine(
        &mut self,
        r: Routine,
        counters: &mut Counters,
        depth: u32,
        called_by: Option<FlowOp>,
    ) -> Result<(), OverBudget> {
        let mut openers: Vec<Option<Opener>> = Vec::new();
        for i in r.start..r.end {
            // Every instruction visited counts against the budget.
            self.budget = self.budget.checked_sub(1).ok_or(OverBudget)?;
            let Some(&Site { kind: SiteKind::Flow { op, target }, .. }) = self.sites.get(i) else { continue };
            let before = *counters;
            match op {
                FlowOp::IfBool => openers.push(Some(Opener::IfBool)),
                FlowOp::IfComp | FlowOp::IfPred => openers.push(Some(Opener::IfPredOrComp)),
                FlowOp::Rep | FlowOp::Loop => openers.push(None),
                _ => {}
            }
            let opener = match op {
                FlowOp::Else | FlowOp::Endif => openers.last().copied().flatten(),
                _ => None,
            };
            if matches!(op, FlowOp::Endif | FlowOp::Endrep | FlowOp::Endloop) {
                openers.pop();
            }
            let extra = self.apply(i, op, counters, opener);
            self.step(i, before, *counters, extra, depth);
            if op.is_call() {
                self.call(op, target, counters, depth)?;
            }
        }
        if let Some(ret) = r.ret {
            let before = *counters;
            if called_by.is_some() {
                let opener = (called_by == Some(FlowOp::CallnzPred)).then_some(Opener::CallnzPred);
                self.apply(ret, FlowOp::Ret, counters, opener);
            } else {
                self.visit(ret);
            }
            self.step(ret, before, *counters, [0; 5], depth);
        }
        Ok(())
    }

    /// After a call's own step: walks the called subroutine (or only its return, when
    /// the call is over the call-nesting limit or the body was walked from the same
    /// counters).
    fn call(&mut self, op: FlowOp, target: Option<u32>, counters: &mut Counters, depth: u32) -> Result<(), OverBudget> {
        let Some(k) = target.and_then(|t| self.by_label.get(&t).copied()) else { return Ok(()) };
        let Some(&(_, r)) = self.subs.get(k) else { return Ok(()) };
        self.mark_called(k);
        // Calls go forward only, so the walk is at most as many calls deep as there are
        // sites: `depth + 1` never saturates.
        let inner = depth.saturating_add(1);
        let ci = Counter::CallNesting;
        if let Some(limit) = *ci.cell(&self.limits) {
            if over(*ci.cell(counters), limit) {
                // Reported at the call; entering would only repeat it.
                let opener = (op == FlowOp::CallnzPred).then_some(Opener::CallnzPred);
                if let Some(ret) = r.ret {
                    let before = *counters;
                    self.apply(ret, FlowOp::Ret, counters, opener);
                    self.step(ret, before, *counters, [0; 5], inner);
                }
                return Ok(());
            }
        }
        let [s, d, l, c, _] = *counters;
        let key = (k, [s, d, l, c]);
        if self.memo.contains(&key) && r.ret.is_some() {
            // Already walked from these counters: only the return.
            let ret = r.ret.unwrap_or(r.end);
            let opener = (op == FlowOp::CallnzPred).then_some(Opener::CallnzPred);
            let before = *counters;
            self.apply(ret, FlowOp::Ret, counters, opener);
            self.step(ret, before, *counters, [0; 5], inner);
            return Ok(());
        }
        self.memo.insert(key);
        self.routine(r, counters, inner, Some(op))
    }
}

/// Whether a counter's `value` is over its `limit`.
fn over(value: i32, limit: u32) -> bool {
    i64::from(value) > i64::from(limit)
}
