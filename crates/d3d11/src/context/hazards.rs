//! The output hazards of the functional spec's 5.3.9.4 "Hazard Tracking" between the
//! output bindings of one side of the pipeline (graphics: render targets, UAVs and
//! stream-output targets; compute: its UAVs): a call binding one subresource at two
//! of its bind points is ignored, and binding a subresource as an output unsets the
//! other output binding it had.

use super::{Buffer, Context, RenderTargetView, UnorderedAccessView, ViewOf};
use std::ops::Range;

/// The subresources an output binding writes: mips and array slices of one resource
/// (its memory). A buffer is one subresource.
pub(super) struct Written<'a> {
    memory: &'a Buffer,
    mips: Range<u32>,
    slices: Range<u32>,
}

impl Written<'_> {
    /// Both write a subresource in common.
    fn overlaps(&self, other: &Written<'_>) -> bool {
        let meet = |a: &Range<u32>, b: &Range<u32>| a.start < b.end && b.start < a.end;
        self.memory.ptr_eq(other.memory) && meet(&self.mips, &other.mips) && meet(&self.slices, &other.slices)
    }
}

/// A buffer bound whole (a stream-output target).
pub(super) fn buffer(memory: &Buffer) -> Written<'_> {
    Written { memory, mips: 0..1, slices: 0..1 }
}

impl UnorderedAccessView {
    /// The subresources the view writes: its buffer, or mip 0 of its texture's slices.
    pub(super) fn written(&self) -> Written<'_> {
        match &self.view {
            ViewOf::Buffer(_) => buffer(&self.buffer),
            ViewOf::Texture(_, d) => Written {
                memory: &self.buffer,
                mips: 0..1,
                slices: d.first_array_slice..d.first_array_slice.saturating_add(d.array_size),
            },
        }
    }
}

impl RenderTargetView {
    /// The subresource the view writes.
    pub(super) fn written(&self) -> Written<'_> {
        let d = self.desc();
        Written {
            memory: self.texture.memory(),
            mips: d.mip_slice..d.mip_slice.saturating_add(1),
            slices: d.first_array_slice..d.first_array_slice.saturating_add(1),
        }
    }
}

/// The first pair of `bound` (index, binding) that write a subresource in common.
pub(super) fn repeated(bound: &[(usize, Written<'_>)]) -> Option<(usize, usize)> {
    bound
        .iter()
        .enumerate()
        .find_map(|(n, (i, a))| bound[n + 1..].iter().find(|(_, b)| a.overlaps(b)).map(|(j, _)| (*i, *j)))
}

/// Which of `current` (bindings, `None` where empty) write a subresource that one of
/// `new` writes, skipping the slots in `replaced`.
fn overlapping<T>(
    current: &[Option<T>],
    written: impl Fn(&T) -> Written<'_>,
    new: &[(usize, Written<'_>)],
    replaced: &Range<usize>,
) -> Vec<usize> {
    current
        .iter()
        .enumerate()
        .filter(|(slot, c)| {
            !replaced.contains(slot) && c.as_ref().is_some_and(|c| new.iter().any(|(_, w)| w.overlaps(&written(c))))
        })
        .map(|(slot, _)| slot)
        .collect()
}

impl Context {
    /// Unsets the graphics output bindings (render targets, UAVs outside
    /// `replaced_uavs`, stream-output targets) that write a subresource of `new`, with a
    /// debug message from `call` naming each.
    pub(super) fn unset_graphics_outputs(
        &mut self,
        call: &str,
        new: &[(usize, Written<'_>)],
        replaced_targets: Range<usize>,
        replaced_uavs: Range<usize>,
        replaced_so: Range<usize>,
    ) {
        for slot in overlapping(&self.render_targets, RenderTargetView::written, new, &replaced_targets) {
            self.render_targets[slot] = None;
            self.messages.push(format!("{call}: render target slot {slot} unset (its subresource is bound here)"));
        }
        for slot in overlapping(&self.uavs, UnorderedAccessView::written, new, &replaced_uavs) {
            self.uavs[slot] = None;
            self.messages.push(format!("{call}: UAV slot {slot} unset (its subresource is bound here)"));
        }
        for slot in overlapping(&self.so_targets, buffer, new, &replaced_so) {
            self.so_targets[slot] = None;
            self.messages.push(format!("{call}: stream-output slot {slot} unset (its buffer is bound here)"));
        }
    }

    /// Unsets the compute UAVs outside `replaced` that write a subresource of `new`.
    pub(super) fn unset_compute_outputs(&mut self, call: &str, new: &[(usize, Written<'_>)], replaced: Range<usize>) {
        for slot in overlapping(&self.cs_uavs, UnorderedAccessView::written, new, &replaced) {
            self.cs_uavs[slot] = None;
            self.messages.push(format!("{call}: compute UAV slot {slot} unset (its subresource is bound here)"));
        }
    }
}
