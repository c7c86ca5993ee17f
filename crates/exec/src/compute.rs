//! Compute shaders: one `Dispatch(X, Y, Z)` of a `cs_4_0`, `cs_4_1`, `cs_5_0` or
//! `cs_5_1` program (register space 0), as the functional spec's chapter 18 ("Compute
//! Shader Stage") describes it.
//!
//! - [`dispatch`] runs `X × Y × Z` thread groups of the program's `dcl_thread_group`
//!   size with the [`Resources`] given (constant buffers, views, samplers and the UAVs
//!   it writes) and returns the [`ComputeStats`] (`CSInvocations`).
//! - The thread-ID registers: `vThreadID` (`SV_DispatchThreadID` = group ID × group
//!   size + ID in the group), `vThreadGroupID` (`SV_GroupID`), `vThreadIDInGroup`
//!   (`SV_GroupThreadID`), `vThreadIDInGroupFlattened` (`SV_GroupIndex`,
//!   `z·X·Y + y·X + x`); the vectors' fourth component reads 0, the flattened index
//!   is in every component.
//! - Thread-group shared memory (`dcl_tgsm_raw`, `dcl_tgsm_structured`; `ld_raw`,
//!   `ld_structured`, `store_raw`, `store_structured` and every `atomic_*` and
//!   `imm_atomic_*` on `g#`) is one array per group, zeroed when the group starts
//!   (Direct3D leaves its initial contents undefined). Out-of-bounds accesses (past
//!   the `g#`'s bytes, a structure index past its count, an offset past its stride),
//!   which Direct3D leaves undefined (Microsoft's `ld_raw`/`store_raw` pages: an
//!   out-of-bounds write makes all shared memory undefined), follow the rules of UAVs
//!   here: reads give 0, writes and atomics do nothing, `imm_atomic_*` returns 0.
//!
//! # Order
//!
//! Direct3D runs the threads of a dispatch in no defined order; exec runs them in one
//! fixed order, so that a run is reproducible (and order-dependent programs — UAV
//! writes racing between threads, atomics whose returned values depend on who came
//! first — give one of the results Direct3D allows):
//! - thread groups one after another, `x` fastest, then `y`, then `z`;
//! - in a group, threads in flattened order (`vThreadIDInGroupFlattened` 0, 1, 2...),
//!   each run to its end;
//! - in a program with a thread-group barrier (`sync_*_t`: `GroupMemoryBarrierWithGroupSync`
//!   and its kin), each thread runs to the barrier, in flattened order, then each on
//!   from it to the next barrier or its end, and so on: every thread's writes before a
//!   barrier come before every thread's reads after it, as the spec's `sync` page
//!   requires. The memory fences (`_g`, `_ugroup`, `_uglobal`) without `_t` order
//!   memory, which one thread after another already is: they do nothing.
//!
//! [`dispatch_in_order`] runs the groups last first ([`GroupOrder::Reverse`]) or the
//! threads of each group last first ([`GroupOrder::ReverseThreads`]), so that a caller
//! can tell a program whose result depends on the order (a race) from one whose result
//! does not.
//!
//! A barrier is only defined where every thread of the group reaches it (flow control
//! that does not diverge). When the threads do not meet — one ends while others wait,
//! or they wait at different barriers — the dispatch stops with
//! [`ExecErrorKind::DivergentBarrier`] naming the threads and instructions (a GPU
//! would hang or go on undefined). Every thread is bounded by the step limit
//! ([`ExecErrorKind::StepLimit`]), counted over all its phases.
//!
//! # Rules checked when the plan is compiled
//!
//! `dcl_thread_group` must be present and within the limits of its profile
//! (`cs_5_0`: x, y ≤ 1024, z ≤ 64, at most 1024 threads; `cs_4_x`: x, y ≤ 768, z = 1,
//! at most 768 threads), shared memory at most 32 KB (`cs_4_x`: 16 KB, structured
//! only), and a `cs_4_x` program has one UAV, `u0`, raw or structured (Direct3D 11.0's
//! compute shaders on 10.x hardware, spec 18.6.x). What the create call checks beyond
//! that is `validate`'s. Not checked: the `cs_4_x` rule that a thread writes only its
//! own region of shared memory.
//!
//! ```
//! use exec::compute::{self, Limits};
//! use exec::resources::Uav;
//! use exec::{Plan, Resources};
//!
//! fn main() -> Result<(), Box<dyn std::error::Error>> {
//!     // Each group sums its 64 threads' IDs in shared memory, then thread 0 writes
//!     // the sum to u0[group].
//!     let listing = "cs_5_0\n\
//!                    dcl_uav_raw u0\n\
//!                    dcl_input vThreadGroupID.x\n\
//!                    dcl_input vThreadIDInGroupFlattened\n\
//!                    dcl_temps 1\n\
//!                    dcl_tgsm_raw g0, 4\n\
//!                    dcl_thread_group 64, 1, 1\n\
//!                    atomic_iadd g0, l(0), vThreadIDInGroupFlattened.x\n\
//!                    sync_g_t\n\
//!                    if_z vThreadIDInGroupFlattened.x\n\
//!                      ld_raw r0.x, l(0), g0.xxxx\n\
//!                      ishl r0.y, vThreadGroupID.x, l(2)\n\
//!                      store_raw u0.x, r0.y, r0.x\n\
//!                    endif\n\
//!                    ret\n";
//!     let bytecode = listing::asm::assemble(listing, &Default::default()).map_err(|d| format!("{d:?}"))?.bytes;
//!     let plan = Plan::from_bytecode(&bytecode)?;
//!     assert_eq!(plan.thread_group, [64, 1, 1]);
//!
//!     let mut memory = vec![0u8; 8];
//!     let mut resources = Resources::default();
//!     resources.uavs.push(Some(Uav::Raw { data: &mut memory }));
//!     let stats = compute::dispatch(&plan, [2, 1, 1], &mut resources, &Limits::default())?;
//!     assert_eq!(stats.cs_invocations, 128);
//!     drop(resources);
//!     assert_eq!(memory[..4], (0..64u32).sum::<u32>().to_le_bytes());
//!     Ok(())
//! }
//! ```

use crate::error::{ExecError, ExecErrorKind};
use crate::plan::Plan;
use crate::resources::Resources;
use crate::Machine;

/// Thread groups a dispatch may ask for in each dimension
/// (`D3D11_CS_DISPATCH_MAX_THREAD_GROUPS_PER_DIMENSION`).
pub const MAX_GROUPS_PER_DIMENSION: u32 = 65535;

/// What bounds a dispatch.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// Instructions one thread may execute (over all its phases between barriers).
    pub step_limit: u64,
}

impl Default for Limits {
    /// [`Machine::DEFAULT_STEP_LIMIT`] per thread.
    fn default() -> Limits {
        Limits { step_limit: Machine::DEFAULT_STEP_LIMIT }
    }
}

/// What a dispatch did.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct ComputeStats {
    /// `CSInvocations` (`D3D11_QUERY_DATA_PIPELINE_STATISTICS`): threads run.
    pub cs_invocations: u64,
    /// Thread groups run.
    pub thread_groups: u64,
    /// Thread-group barriers passed (once per group per barrier reached).
    pub barriers: u64,
    /// Instructions executed by all threads.
    pub instructions: u64,
}

/// Runs `Dispatch(groups[0], groups[1], groups[2])` of the compute shader `plan`
/// with `resources` bound (see the [module documentation](self) for the order, the
/// barriers and shared memory). A dimension of 0 runs nothing (as Direct3D does).
///
/// Errors: `plan` is not a compute shader, or a dimension is above
/// [`MAX_GROUPS_PER_DIMENSION`] ([`ExecErrorKind::Draw`]); a thread ran more than
/// `limits.step_limit` instructions ([`ExecErrorKind::StepLimit`]); the threads of a
/// group did not meet at a barrier ([`ExecErrorKind::DivergentBarrier`]); `abort`.
/// UAV writes made before the error stay written.
pub fn dispatch(
    plan: &Plan,
    groups: [u32; 3],
    resources: &mut Resources<'_>,
    limits: &Limits,
) -> Result<ComputeStats, ExecError> {
    dispatch_in_order(plan, groups, GroupOrder::Forward, resources, limits)
}

/// The order thread groups run in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum GroupOrder {
    /// x, then y, then z, from group (0, 0, 0) ([`dispatch`]'s order).
    #[default]
    Forward,
    /// The same order reversed, last group first. A program whose groups communicate
    /// through UAVs without synchronization (undefined in Direct3D: groups run in any
    /// order, or at once) gives other results in one order than in the other; running
    /// both finds such programs.
    Reverse,
    /// The groups in [`GroupOrder::Forward`] order, the threads of each group last
    /// first (between two barriers too). A program whose threads write the same UAV
    /// or shared-memory words with other values, or read what another thread of the
    /// group writes, without a barrier between (a race: the threads of a group run in
    /// no order Direct3D defines), gives other results in this order than in the
    /// forward one.
    ReverseThreads,
}

/// [`dispatch`] with the thread groups run in `order`.
pub fn dispatch_in_order(
    plan: &Plan,
    groups: [u32; 3],
    order: GroupOrder,
    resources: &mut Resources<'_>,
    limits: &Limits,
) -> Result<ComputeStats, ExecError> {
    let code = &plan.code;
    if !code.stage_cs {
        return Err(ExecError::new(ExecErrorKind::Draw("dispatch of a shader that is not a compute shader".into())));
    }
    if let Some(n) = groups.iter().find(|&&n| n > MAX_GROUPS_PER_DIMENSION) {
        return Err(ExecError::new(ExecErrorKind::Draw(format!(
            "dispatch of {} x {} x {} thread groups: at most {MAX_GROUPS_PER_DIMENSION} per dimension ({n})",
            groups[0], groups[1], groups[2]
        ))));
    }
    let mut machine = Machine::new(plan);
    let counts = machine.dispatch(plan, groups, resources, limits.step_limit, order)?;
    Ok(ComputeStats {
        cs_invocations: counts.invocations,
        thread_groups: counts.groups,
        barriers: counts.barriers,
        instructions: counts.steps,
    })
}
