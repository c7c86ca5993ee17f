//! What a written operand stands for: the component count and selection mode the
//! assembler gives a register from how it is written (bare, `.x`, `.xy`, `.xyzw`), and
//! the note dxref's exact listings add where a program's encoding differs from that.
//!
//! fxc's text does not show an operand's component count or selection mode: `r1` with
//! one component, `r1` with an empty write mask and `r1` with no components print the
//! same. The printer and the assembler both ask this module, so that what the printer
//! leaves unsaid is exactly what the assembler assumes, and an exact listing
//! ([`crate::print::Format::exact_floats`]) notes every other case after the register:
//! `r1 {1 component}`, `r1.xy {mask}`, `o0.xxyz {swizzle}`.

use crate::enums::Mask;
use crate::enums::OperandType;
use crate::ir::{ComponentCount, Selection};

/// Where an operand stands: the defaults of its encoding differ.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Role {
    Dst,
    Src,
    Decl,
}

/// Register files that hold one value rather than a 4-vector.
pub(crate) fn is_scalar_file(ty: OperandType) -> bool {
    use OperandType::*;
    matches!(
        ty,
        InputPrimitiveId
            | OutputDepth
            | OutputDepthGreaterEqual
            | OutputDepthLessEqual
            | OutputCoverageMask
            | OutputStencilRef
            | OutputControlPointId
            | InputForkInstanceId
            | InputJoinInstanceId
            | InputGsInstanceId
            | InputCoverageMask
            | InputThreadIdInGroupFlattened
            | InnerCoverage
            | CycleCounter
    )
}

/// Register files that are not data (bound objects, code, streams).
pub(crate) fn is_object_file(ty: OperandType) -> bool {
    use OperandType::*;
    matches!(
        ty,
        Sampler
            | Resource
            | UnorderedAccessView
            | Stream
            | FunctionBody
            | FunctionTable
            | Interface
            | Label
            | Null
            | Rasterizer
            | ThreadGroupSharedMemory
    )
}

/// The encoding fxc uses for a register written without a selection.
pub(crate) fn bare_encoding(ty: OperandType, role: Role, sm51: bool) -> (ComponentCount, Selection) {
    use OperandType::*;
    const IDENTITY: Selection = Selection::Swizzle([0, 1, 2, 3]);
    match role {
        Role::Decl => match ty {
            ConstantBuffer => (ComponentCount::Four, IDENTITY),
            Sampler | Resource | UnorderedAccessView if sm51 => (ComponentCount::Four, IDENTITY),
            OutputDepth
            | OutputDepthGreaterEqual
            | OutputDepthLessEqual
            | InputCoverageMask
            | OutputStencilRef
            | InnerCoverage => (ComponentCount::One, Selection::None),
            _ if is_scalar_file(ty) || is_object_file(ty) => (ComponentCount::Zero, Selection::None),
            _ => (ComponentCount::Four, Selection::Mask(Mask::NONE)),
        },
        Role::Dst => match ty {
            _ if is_scalar_file(ty) && ty != Null => (ComponentCount::One, Selection::None),
            _ if is_object_file(ty) => (ComponentCount::Zero, Selection::None),
            _ => (ComponentCount::Four, Selection::Mask(Mask::NONE)),
        },
        Role::Src => match ty {
            _ if is_scalar_file(ty) => (ComponentCount::One, Selection::None),
            _ if is_object_file(ty) => (ComponentCount::Zero, Selection::None),
            _ => (ComponentCount::Four, IDENTITY),
        },
    }
}

/// The selection mode the letters after a register stand for without a note: a write
/// mask for destinations and declarations; one component or a 4-component swizzle for
/// sources.
pub(crate) fn lettered_mode(role: Role, letters: usize) -> Option<Note> {
    match (role, letters) {
        (Role::Dst | Role::Decl, 1..=4) => Some(Note::Mask),
        (Role::Src, 1) => Some(Note::Select1),
        (Role::Src, 4) => Some(Note::Swizzle),
        _ => None,
    }
}

/// The encoding note of an exact listing: what the text says beyond the letters.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Note {
    /// Four components, a write mask (the letters, possibly none).
    Mask,
    /// Four components, a swizzle (four letters).
    Swizzle,
    /// Four components, one selected component (one letter).
    Select1,
    /// Four components, selection mode 3, which the format does not define.
    Mode3,
    /// Zero, one or `N` components: no selection.
    Count(ComponentCount),
}

impl Note {
    /// Every note with its spelling inside `{...}`.
    pub(crate) const ALL: [(Note, &'static str); 7] = [
        (Note::Mask, "mask"),
        (Note::Swizzle, "swizzle"),
        (Note::Select1, "select1"),
        (Note::Mode3, "mode3"),
        (Note::Count(ComponentCount::Zero), "0 components"),
        (Note::Count(ComponentCount::One), "1 component"),
        (Note::Count(ComponentCount::N), "N components"),
    ];

    pub(crate) fn spelling(self) -> &'static str {
        Note::ALL.iter().find(|(n, _)| *n == self).map_or("", |(_, s)| s)
    }

    pub(crate) fn from_spelling(s: &str) -> Option<Note> {
        Note::ALL.iter().find(|(_, t)| *t == s).map(|(n, _)| *n)
    }

    /// The note that describes an encoding, given the letters it prints as.
    fn of(components: ComponentCount, selection: Selection) -> Note {
        match (components, selection) {
            (ComponentCount::Four, Selection::Mask(_)) => Note::Mask,
            (ComponentCount::Four, Selection::Swizzle(_)) => Note::Swizzle,
            (ComponentCount::Four, Selection::Select1(_)) => Note::Select1,
            (ComponentCount::Four, _) => Note::Mode3,
            (c, _) => Note::Count(c),
        }
    }
}

/// An encoding as the encoder writes it: no selection without four components, and
/// selection mode 3 for a four-component operand without one.
pub(crate) fn normalized(components: ComponentCount, selection: Selection) -> (ComponentCount, Selection) {
    match (components, selection) {
        (ComponentCount::Four, Selection::None) => (components, Selection::Mode3),
        (ComponentCount::Four, _) => (components, selection),
        _ => (components, Selection::None),
    }
}

/// The letters an operand's selection prints as (`selection` is ignored unless there
/// are four components, as in the encoding).
pub(crate) fn printed_letters(components: ComponentCount, selection: Selection) -> ([u8; 4], usize) {
    let mut out = [0u8; 4];
    if components != ComponentCount::Four {
        return (out, 0);
    }
    match selection {
        Selection::Mask(m) => {
            let mut n = 0;
            for c in 0..4u8 {
                if m.0 & (1 << c) != 0 {
                    out[n] = c;
                    n += 1;
                }
            }
            (out, n)
        }
        Selection::Swizzle(sw) => (sw.map(|c| c & 3), 4),
        Selection::Select1(c) => {
            out[0] = c & 3;
            (out, 1)
        }
        _ => (out, 0),
    }
}

/// The note an exact listing writes after an operand, `None` where the assembler's
/// default for the printed letters is the operand's own encoding.
pub(crate) fn needed_note(
    ty: OperandType,
    role: Role,
    sm51: bool,
    components: ComponentCount,
    selection: Selection,
) -> Option<Note> {
    let own = Note::of(components, selection);
    let (_, letters) = printed_letters(components, selection);
    let implied = if letters == 0 {
        let (c, s) = bare_encoding(ty, role, sm51);
        Note::of(c, s)
    } else {
        // Letters the assembler would refuse without a note (`.xy` on a source).
        let Some(mode) = lettered_mode(role, letters) else { return Some(own) };
        mode
    };
    // Without letters, a mask is Mask::NONE and a count carries no selection: the note
    // kind is the whole encoding. With letters, the letters carry the rest.
    (own != implied).then_some(own)
}
