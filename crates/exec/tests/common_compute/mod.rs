//! Shared helpers of the compute-shader tests: assemble a listing, dispatch it over
//! raw or structured UAVs, read the words back.

#![allow(dead_code)]

use exec::compute::{self, ComputeStats, GroupOrder, Limits};
use exec::resources::Uav;
use exec::{ExecError, Plan, Resources};

/// Assembles a listing (fxc's syntax) and compiles it.
pub fn plan(text: &str) -> Plan {
    try_plan(text).unwrap_or_else(|e| panic!("compiling:\n{text}\n{e}"))
}

/// Assembles (panicking on a listing the assembler refuses) and compiles.
pub fn try_plan(text: &str) -> Result<Plan, ExecError> {
    let bytes = listing::asm::assemble(text, &listing::asm::AsmOptions::default())
        .unwrap_or_else(|e| panic!("assembling:\n{text}\n{e:#?}"))
        .bytes;
    Plan::from_bytecode(&bytes)
}

/// A UAV's memory: raw, or structured with its stride.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Mem {
    Raw(Vec<u32>),
    Structured(Vec<u32>, u32),
}

impl Mem {
    /// `n` zero words, raw.
    pub fn raw(n: usize) -> Mem {
        Mem::Raw(vec![0; n])
    }

    pub fn words(&self) -> &[u32] {
        match self {
            Mem::Raw(w) | Mem::Structured(w, _) => w,
        }
    }
}

fn bytes(w: &[u32]) -> Vec<u8> {
    w.iter().flat_map(|x| x.to_le_bytes()).collect()
}

fn words(b: &[u8]) -> Vec<u32> {
    b.chunks_exact(4).map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]])).collect()
}

/// Dispatches `plan` for `groups` with `uavs` bound at `u0`, `u1`...; the memories are
/// updated in place (also when the dispatch fails).
pub fn dispatch_plan(
    plan: &Plan,
    groups: [u32; 3],
    uavs: &mut [Mem],
    limits: &Limits,
) -> Result<ComputeStats, ExecError> {
    dispatch_plan_in_order(plan, groups, GroupOrder::Forward, uavs, limits)
}

/// [`dispatch_plan`] with the groups run in `order`.
pub fn dispatch_plan_in_order(
    plan: &Plan,
    groups: [u32; 3],
    order: GroupOrder,
    uavs: &mut [Mem],
    limits: &Limits,
) -> Result<ComputeStats, ExecError> {
    let mut memory: Vec<Vec<u8>> = uavs.iter().map(|m| bytes(m.words())).collect();
    let result = {
        let mut res = Resources::default();
        for (m, data) in uavs.iter().zip(memory.iter_mut()) {
            res.uavs.push(Some(match m {
                Mem::Raw(_) => Uav::Raw { data },
                Mem::Structured(_, stride) => Uav::Structured { data, stride: *stride, counter: 0 },
            }));
        }
        compute::dispatch_in_order(plan, groups, order, &mut res, limits)
    };
    for (m, data) in uavs.iter_mut().zip(&memory) {
        match m {
            Mem::Raw(w) | Mem::Structured(w, _) => *w = words(data),
        }
    }
    result
}

/// Assembles `text` and dispatches it (default limits); panics on an error.
pub fn run(text: &str, groups: [u32; 3], uavs: &mut [Mem]) -> ComputeStats {
    let p = plan(text);
    dispatch_plan(&p, groups, uavs, &Limits::default()).unwrap_or_else(|e| panic!("dispatching:\n{text}\n{e}"))
}

/// Assembles `text` and dispatches it with `limits`, returning the result.
pub fn try_run(text: &str, groups: [u32; 3], uavs: &mut [Mem], limits: &Limits) -> Result<ComputeStats, ExecError> {
    dispatch_plan(&plan(text), groups, uavs, limits)
}
