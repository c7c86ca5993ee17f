//! The compute stage: `CSSetShader`, `CSSetUnorderedAccessViews`, `Dispatch`,
//! `DispatchIndirect` (the other `CSSet*` calls share the graphics stages' code).

use super::{
    bind_stage, stage_constants, uav_of, with_constants, Buffer, BufferView, CallError, Context, Lent,
    UnorderedAccessView, ViewOf, RESOURCE_MISC_DRAWINDIRECT_ARGS,
};
use crate::device::Shader;
use crate::linkage::ClassInstance;
use exec::compute::{Limits, MAX_GROUPS_PER_DIMENSION};
use exec::{ExecError, ExecErrorKind};
use std::sync::atomic::Ordering;
use std::sync::{RwLockReadGuard, RwLockWriteGuard};
use tpf::ProgramType;
use validate::target::sm5_uav_slots;
use validate::FeatureLevel;

/// `D3D11_CS_4_X_DISPATCH_MAX_THREAD_GROUPS_IN_Z_DIMENSION`: a `Dispatch` on a
/// feature level 10_x device runs one layer of groups in z.
pub const CS_4_X_DISPATCH_MAX_THREAD_GROUPS_IN_Z_DIMENSION: u32 = 1;
/// `D3D11_PS_CS_UAV_REGISTER_COUNT`: the compute stage's UAV slots at feature level 11_0.
pub const PS_CS_UAV_REGISTER_COUNT: u32 = 8;
/// `D3D11_CS_4_X_UAV_REGISTER_COUNT`: the compute stage's UAV slots at feature level 10_x.
pub const CS_4_X_UAV_REGISTER_COUNT: u32 = 1;

impl Context {
    /// The compute stage's UAV slots on this device: `D3D11_1_UAV_SLOT_COUNT` (64) at
    /// feature level 11_1 on the 11.1 runtime, [`PS_CS_UAV_REGISTER_COUNT`] (8) at 11_0,
    /// [`CS_4_X_UAV_REGISTER_COUNT`] (1) at 10_x, none at 9_x (no compute shaders).
    pub fn cs_uav_slot_count(&self) -> u32 {
        let desc = self.device.desc();
        match desc.feature_level {
            l if l >= FeatureLevel::L11_0 => sm5_uav_slots(l, desc.runtime),
            l if l >= FeatureLevel::L10_0 => CS_4_X_UAV_REGISTER_COUNT,
            _ => 0,
        }
    }

    /// The graphics stages' UAV slots on this device (`UAVStartSlot + NumUAVs` of
    /// `OMSetRenderTargetsAndUnorderedAccessViews`): `D3D11_1_UAV_SLOT_COUNT` (64) at
    /// feature level 11_1 on the 11.1 runtime, [`PS_CS_UAV_REGISTER_COUNT`] (8) at
    /// 11_0, none below (pixel shaders have UAVs from Shader Model 5.0).
    pub fn om_uav_slot_count(&self) -> u32 {
        let desc = self.device.desc();
        match desc.feature_level {
            l if l >= FeatureLevel::L11_0 => sm5_uav_slots(l, desc.runtime),
            _ => 0,
        }
    }

    /// `CSSetShader(pComputeShader, ppClassInstances, NumClassInstances)`, with the
    /// class-instance rules of [`vs_set_shader`](Self::vs_set_shader). A shader object
    /// that is not a compute shader, or class instances the runtime refuses, are refused
    /// (`E_INVALIDARG`, the binding unchanged).
    pub fn cs_set_shader(
        &mut self,
        shader: Option<&Shader>,
        class_instances: &[Option<ClassInstance>],
    ) -> Result<(), CallError> {
        if let Some(s) = shader {
            if s.stage() != ProgramType::Compute {
                return Err(CallError::invalid(format!("CSSetShader: a {:?} shader object", s.stage())));
            }
        }
        let resolved = Self::resolve("CSSetShader", shader, class_instances)?;
        if let Some(s) = shader {
            self.plan_of(s);
        }
        self.cs.shader = shader.cloned();
        self.cs.class_instances = if shader.is_some() { class_instances.to_vec() } else { Vec::new() };
        self.cs.resolved = resolved;
        Ok(())
    }

    /// `CSGetShader`: as [`vs_get_shader`](Self::vs_get_shader).
    pub fn cs_get_shader(&self) -> (Option<Shader>, Vec<Option<ClassInstance>>) {
        (self.cs.shader.clone(), self.cs.class_instances.clone())
    }

    /// `CSSetUnorderedAccessViews(StartSlot, NumUAVs, ppUnorderedAccessViews,
    /// pUAVInitialCounts)`: binds `views` to the compute stage's slots from
    /// `start_slot`. `initial_counts[i]` sets view `i`'s hidden counter (the
    /// append/consume and counter value `imm_atomic_alloc`/`consume` start from, on the
    /// structured views, which are the ones that have it here); `u32::MAX` (-1) keeps
    /// the current value, and so does a missing entry (an empty slice is `NULL`).
    /// A buffer or texture bound here is unbound from every input slot (vertex, index
    /// and constant buffers, shader resource views of every stage), as the runtime's
    /// hazard tracking does; another compute UAV slot of a subresource bound here is
    /// unset, and one subresource under two of the views ignores the call (a debug
    /// message, `Ok`; functional spec 5.3.9.4). Refused (`E_INVALIDARG`, nothing
    /// bound) for slots past
    /// [`cs_uav_slot_count`](Self::cs_uav_slot_count).
    pub fn cs_set_unordered_access_views(
        &mut self,
        start_slot: u32,
        views: &[Option<UnorderedAccessView>],
        initial_counts: &[u32],
    ) -> Result<(), CallError> {
        let call = "CSSetUnorderedAccessViews";
        let slots = self.cs_uav_slot_count();
        if start_slot as u64 + views.len() as u64 > slots as u64 {
            return Err(CallError::invalid(format!(
                "{call}: slots {start_slot}..{} (the device has {slots} compute UAV slots)",
                start_slot as u64 + views.len() as u64
            )));
        }
        // Hazards (functional spec 5.3.9.4): one subresource at two slots ignores the
        // call; another compute UAV of a subresource bound here is unset.
        let start = start_slot as usize;
        let new: Vec<(usize, super::hazards::Written<'_>)> =
            views.iter().enumerate().filter_map(|(i, v)| Some((start + i, v.as_ref()?.written()))).collect();
        if let Some((a, b)) = super::hazards::repeated(&new) {
            self.messages.push(format!("{call}: UAV slots {a} and {b} bind one subresource; call ignored"));
            return Ok(());
        }
        self.unset_compute_outputs(call, &new, start..start + views.len());
        for (i, v) in views.iter().enumerate() {
            if let Some(v) = v {
                let count = initial_counts.get(i).copied().unwrap_or(u32::MAX);
                if count != u32::MAX && matches!(v.view, ViewOf::Buffer(BufferView::Structured { .. })) {
                    v.counter.store(count, Ordering::Relaxed);
                }
            }
            if let Some(slot) = self.cs_uavs.get_mut(start_slot as usize + i) {
                *slot = v.clone();
            }
        }
        let bound: Vec<Buffer> = views.iter().flatten().map(|v| v.buffer.clone()).collect();
        self.unbind_inputs(call, |b| bound.iter().any(|u| u.ptr_eq(b)));
        Ok(())
    }

    /// The compute stage's UAVs (`CSGetUnorderedAccessViews`).
    pub fn cs_unordered_access_views(&self) -> &[Option<UnorderedAccessView>] {
        let n = (self.cs_uav_slot_count() as usize).min(self.cs_uavs.len());
        &self.cs_uavs[..n]
    }

    /// `Dispatch(ThreadGroupCountX, ThreadGroupCountY, ThreadGroupCountZ)`: runs the
    /// compute shader's thread groups with the compute stage's bindings
    /// ([`exec::compute::dispatch`]: its thread order, shared memory and barriers), adds
    /// the threads run to `CSInvocations` and keeps the structured views' hidden
    /// counters. A dimension of 0 runs nothing.
    ///
    /// - No compute shader bound: nothing runs, the debug layer's complaint is kept in
    ///   [`messages`](Self::messages), and the call returns `Ok`.
    /// - Refused ([`ExecErrorKind::Draw`], nothing run, a message kept): a dimension
    ///   above `D3D11_CS_DISPATCH_MAX_THREAD_GROUPS_PER_DIMENSION` (65535), or, on a
    ///   feature level 10_x device, a z above
    ///   [`CS_4_X_DISPATCH_MAX_THREAD_GROUPS_IN_Z_DIMENSION`] (Microsoft's
    ///   ID3D11DeviceContext::Dispatch page and "Compute Shader on Downlevel
    ///   Hardware"); a shader with an interface slot without a class instance.
    /// - The interpreter's errors (step limit, a divergent barrier...) stop the dispatch
    ///   where they happen; UAV writes made until then stay, and the counters are kept.
    ///
    /// A buffer under two of the compute stage's UAVs is written through the first
    /// only (the other slot reads as unbound, with a message).
    pub fn dispatch(&mut self, x: u32, y: u32, z: u32) -> Result<(), ExecError> {
        self.run_dispatch("Dispatch", [x, y, z])
    }

    /// `DispatchIndirect(pBufferForArgs, AlignedByteOffsetForArgs)`: [`dispatch`](Self::dispatch)
    /// with the three group counts read (32-bit little-endian words) from `buffer` at
    /// `offset`. Refused ([`ExecErrorKind::Draw`], nothing run): a buffer created
    /// without [`RESOURCE_MISC_DRAWINDIRECT_ARGS`], an offset that is not a multiple of
    /// 4, or arguments past the end of the buffer.
    pub fn dispatch_indirect(&mut self, buffer: &Buffer, offset: u32) -> Result<(), ExecError> {
        let call = "DispatchIndirect";
        let refuse = |this: &mut Context, m: String| {
            this.messages.push(format!("{call}: {m}; call ignored"));
            Err(ExecError::new(ExecErrorKind::Draw(format!("{call}: {m}"))))
        };
        if buffer.desc().misc_flags & RESOURCE_MISC_DRAWINDIRECT_ARGS == 0 {
            return refuse(self, "the buffer lacks D3D11_RESOURCE_MISC_DRAWINDIRECT_ARGS".into());
        }
        if !offset.is_multiple_of(4) {
            return refuse(self, format!("AlignedByteOffsetForArgs {offset} is not a multiple of 4"));
        }
        let args = {
            let bytes = buffer.read();
            let start = offset as usize;
            bytes.get(start..start.saturating_add(12)).map(|a| {
                let w = |k: usize| u32::from_le_bytes([a[k], a[k + 1], a[k + 2], a[k + 3]]);
                [w(0), w(4), w(8)]
            })
        };
        let Some(groups) = args else {
            return refuse(
                self,
                format!("12 bytes of arguments at {offset} do not fit the {}-byte buffer", buffer.desc().byte_width),
            );
        };
        self.run_dispatch(call, groups)
    }

    fn run_dispatch(&mut self, call: &str, groups: [u32; 3]) -> Result<(), ExecError> {
        let refuse = |this: &mut Context, m: String| {
            this.messages.push(format!("{call}: {m}; call ignored"));
            Err(ExecError::new(ExecErrorKind::Draw(format!("{call}: {m}"))))
        };
        let Some(shader) = self.cs.shader.clone() else {
            self.messages.push(format!("{call}: no compute shader is bound; nothing is run"));
            return Ok(());
        };
        if let Some(n) = groups.iter().find(|&&n| n > MAX_GROUPS_PER_DIMENSION) {
            return refuse(
                self,
                format!(
                    "{} x {} x {} thread groups: {n} is above \
                     D3D11_CS_DISPATCH_MAX_THREAD_GROUPS_PER_DIMENSION ({MAX_GROUPS_PER_DIMENSION})",
                    groups[0], groups[1], groups[2]
                ),
            );
        }
        if self.device.desc().feature_level < FeatureLevel::L11_0
            && groups[2] > CS_4_X_DISPATCH_MAX_THREAD_GROUPS_IN_Z_DIMENSION
        {
            return refuse(
                self,
                format!(
                    "ThreadGroupCountZ {} on a feature level 10_x device \
                     (D3D11_CS_4_X_DISPATCH_MAX_THREAD_GROUPS_IN_Z_DIMENSION is 1)",
                    groups[2]
                ),
            );
        }
        if let Some(slot) = self.cs.resolved.missing {
            return refuse(
                self,
                format!("the compute shader is disabled: interface slot {slot} has no class instance (CSSetShader)"),
            );
        }
        let plan = self.cached_plan(&shader)?;

        // The UAVs' buffers locked for writing, every other bound buffer for reading.
        let slots = (self.cs_uav_slot_count() as usize).min(self.cs_uavs.len());
        let mut outputs: Vec<Buffer> = Vec::new();
        for u in self.cs_uavs[..slots].iter().flatten() {
            if !outputs.iter().any(|o| o.ptr_eq(&u.buffer)) {
                outputs.push(u.buffer.clone());
            }
        }
        let mut inputs: Vec<Buffer> = Vec::new();
        {
            let mut add_input = |b: &Buffer| {
                if !outputs.iter().any(|o| o.ptr_eq(b)) && !inputs.iter().any(|i| i.ptr_eq(b)) {
                    inputs.push(b.clone());
                }
            };
            self.cs.constant_buffers.iter().flatten().for_each(&mut add_input);
            self.cs.resources.iter().flatten().for_each(|v| add_input(&v.buffer));
        }
        let read_guards: Vec<RwLockReadGuard<'_, Vec<u8>>> = inputs.iter().map(|b| b.read()).collect();
        let mut write_guards: Vec<RwLockWriteGuard<'_, Vec<u8>>> = outputs.iter().map(|b| b.write()).collect();
        let constants = stage_constants(&self.cs, &inputs, &read_guards);
        let mut resources = with_constants(&constants);
        bind_stage(&self.cs, &mut resources, &inputs, &read_guards);
        let mut memory = Lent::new(write_guards.iter_mut().map(|g| g.as_mut_slice()));
        let mut bound_slots: Vec<Option<usize>> = Vec::new();
        let mut messages = Vec::new();
        for (slot, u) in self.cs_uavs[..slots].iter().enumerate() {
            let Some(u) = u else {
                resources.uavs.push(None);
                bound_slots.push(None);
                continue;
            };
            let k = outputs.iter().position(|o| o.ptr_eq(&u.buffer));
            let data = k.and_then(|k| memory.take(k, u.range));
            if data.is_none() {
                messages.push(format!("{call}: UAV slot {slot}: its bytes are under another UAV; NULL"));
            }
            bound_slots.push(data.as_ref().map(|_| slot));
            resources.uavs.push(data.map(|data| uav_of(u, data)));
        }
        while resources.uavs.last().is_some_and(|u| u.is_none()) {
            resources.uavs.pop();
        }
        let result = exec::compute::dispatch(&plan, groups, &mut resources, &Limits { step_limit: self.step_limit });
        // The hidden counters, also after a failed dispatch.
        for (u, slot) in resources.uavs.iter().zip(&bound_slots) {
            if let (Some(exec::resources::Uav::Structured { counter, .. }), Some(slot)) = (u, slot) {
                if let Some(Some(view)) = self.cs_uavs.get(*slot) {
                    view.counter.store(*counter, Ordering::Relaxed);
                }
            }
        }
        drop(resources);
        drop(write_guards);
        drop(read_guards);
        self.messages.extend(messages);
        let stats = result?;
        self.totals.pipeline.cs_invocations += stats.cs_invocations;
        Ok(())
    }
}
