//! The reference pipeline's side of the geometry-shader comparisons on lavapipe
//! (`lavapipe_gs`, `lavapipe_gs_native`): the input layout of their draws, the
//! stream-output targets and the geometry shader's constant buffers.
//!
//! Included with `#[path = "support/gs_reference.rs"] mod gs_reference;`.
#![allow(dead_code)]

use std::collections::BTreeMap;

use exec::pipeline::{InputElement, SoTarget};
use exec::{Format, Resources};

/// One vertex buffer of `[u32; 4]` registers, register `r` at byte 16 × `r`:
/// `POSITION` floats (`position`), or `TEXCOORD r` unsigned integers.
pub fn input_layout(registers: impl IntoIterator<Item = u32>, position: bool) -> Vec<InputElement> {
    registers
        .into_iter()
        .map(|r| InputElement {
            semantic_name: if position { "POSITION".into() } else { "TEXCOORD".into() },
            semantic_index: if position { 0 } else { r },
            format: if position { Format::R32G32B32A32_FLOAT } else { Format::R32G32B32A32_UINT },
            input_slot: 0,
            aligned_byte_offset: 16 * r,
            per_instance: false,
            instance_data_step_rate: 0,
        })
        .collect()
}

/// Stream-output targets over `memory`, one per slot; an empty slot is unbound.
pub fn so_targets(memory: &mut [Vec<u8>]) -> [Option<SoTarget<'_>>; 4] {
    let mut it = memory.iter_mut();
    std::array::from_fn(|_| {
        let m = it.next()?;
        (!m.is_empty()).then_some(SoTarget { data: m.as_mut_slice(), offset: 0 })
    })
}

/// Resources with the constant buffers `cbs` bound at their slots.
pub fn with_constant_buffers(cbs: &BTreeMap<u32, Vec<[u32; 4]>>) -> Resources<'_> {
    let mut resources = Resources::default();
    for (&r, cb) in cbs {
        if let Some(slot) = resources.constant_buffers.get_mut(r as usize) {
            *slot = Some(cb.as_slice());
        }
    }
    resources
}
