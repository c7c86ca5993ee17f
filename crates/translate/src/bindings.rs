//! Where each Direct3D register goes in the target's resource model.
//!
//! The default mapping puts each resource class in a group of its own and keeps the
//! register number as the binding: constant buffers `cb#` in group 0, shader resource
//! views `t#` in group 1, samplers `s#` in group 2, unordered access views `u#` in
//! group 3. The hidden counter of a UAV that `imm_atomic_alloc` or
//! `imm_atomic_consume` uses (an append, consume or counter buffer) is a storage buffer
//! of one `atomic<u32>`, `uc#`, in the UAV group at binding 64 + its UAV's register
//! (`D3D11_1_UAV_SLOT_COUNT` is 64, so it never meets a UAV's default binding). A
//! [`Bindings`] overrides single registers; its text form has one assignment per line:
//!
//! ```text
//! # register = group:binding
//! cb0 = 0:0
//! t3  = 1:7
//! s0  = 1:8
//! uc1 = 3:9
//! ```
//!
//! A typed buffer view's element format (which the bytecode does not hold; see
//! [`crate::buffer_format`]) is given the same way, with a format name instead of a slot:
//!
//! ```text
//! # register = DXGI format (typed buffer views t#, u# only)
//! t3 = R8G8B8A8_UNORM
//! u1 = R32_UINT
//! ```
//!
//! (blank lines and `#` comments are ignored), and a mistake is an error naming the line
//! and column.
//!
//! Shader Model 5.1 declares registers in register spaces (`register(t5, space1)`,
//! `dcl_resource_texture2d ... T0[5:5], space=1`). Space 0 is the mapping above; a
//! register of space `s` goes by default to the class's group plus
//! [`SPACE_GROUP_STRIDE`] · `s` (space 1: `cb#` group 4, `t#` 5, `s#` 6, `u#` and
//! `uc#` 7), binding = register as in space 0, so that no two spaces meet. A line
//! places a register of a space when the register is followed by `space<N>`:
//!
//! ```text
//! t5 space1 = 2:7
//! u0 space2 = R32_UINT
//! ```
//!
//! (`t5 space0` is `t5`). A range of registers (an array of bindings) is placed by its
//! first register: the array takes that binding, and a range of typed buffer views
//! takes the format named for its first register for every view (the conversion is
//! written once for the array).

use std::collections::BTreeMap;

use crate::buffer_format;
use dxgi::Format;

/// A resource class: the Direct3D register file a binding is for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Class {
    /// `cb#`: constant buffers.
    ConstantBuffer,
    /// `t#`: shader resource views.
    Srv,
    /// `s#`: samplers.
    Sampler,
    /// `u#`: unordered access views.
    Uav,
    /// `uc#`: the hidden counter of UAV `u#` (`imm_atomic_alloc`, `imm_atomic_consume`).
    UavCounter,
}

/// The first default binding of the UAV counters: `D3D11_1_UAV_SLOT_COUNT`.
pub const UAV_COUNTER_BINDING_BASE: u32 = 64;

/// How many groups each Shader Model 5.1 register space takes in the default mapping:
/// register space `s` starts at group `s · SPACE_GROUP_STRIDE`, one group per class as
/// in space 0.
pub const SPACE_GROUP_STRIDE: u32 = 4;

impl Class {
    /// The register prefix (`cb`, `t`, `s`, `u`, `uc`).
    pub fn prefix(self) -> &'static str {
        match self {
            Class::ConstantBuffer => "cb",
            Class::Srv => "t",
            Class::Sampler => "s",
            Class::Uav => "u",
            Class::UavCounter => "uc",
        }
    }

    /// The group of the default mapping.
    pub fn default_group(self) -> u32 {
        match self {
            Class::ConstantBuffer => 0,
            Class::Srv => 1,
            Class::Sampler => 2,
            Class::Uav | Class::UavCounter => 3,
        }
    }

    /// The group of the default mapping for register space `space` (Shader Model 5.1):
    /// [`Class::default_group`] + [`SPACE_GROUP_STRIDE`] · `space` (saturating).
    pub fn default_group_in(self, space: u32) -> u32 {
        self.default_group().saturating_add(SPACE_GROUP_STRIDE.saturating_mul(space))
    }

    /// The binding of register `register` in the default mapping: the register number,
    /// or [`UAV_COUNTER_BINDING_BASE`] plus it for a UAV counter.
    pub fn default_binding(self, register: u32) -> u32 {
        match self {
            Class::UavCounter => UAV_COUNTER_BINDING_BASE.saturating_add(register),
            _ => register,
        }
    }
}

/// A binding in the target: group (descriptor set) and binding number.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Slot {
    /// The group (`@group`, a Vulkan descriptor set).
    pub group: u32,
    /// The binding number in the group.
    pub binding: u32,
}

/// The mapping of registers to bindings: the default one with overrides.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Bindings {
    /// Registers placed explicitly, by class and register number.
    pub overrides: BTreeMap<(Class, u32), Slot>,
    /// The element format of typed buffer views (`t#`, `u#`), by class and register;
    /// a view not named gets [`buffer_format::default_format`]; [`crate::module_from_program`]
    /// refuses a format [`buffer_format::converts`] does not convert.
    pub formats: BTreeMap<(Class, u32), Format>,
    /// Shader Model 5.1: registers of register spaces other than 0 placed explicitly,
    /// by class, space and register (space 0 is [`Bindings::overrides`]).
    pub space_overrides: BTreeMap<(Class, u32, u32), Slot>,
    /// Shader Model 5.1: the element format of typed buffer views of register spaces
    /// other than 0, by class, space and register (space 0 is [`Bindings::formats`]).
    pub space_formats: BTreeMap<(Class, u32, u32), Format>,
}

/// A mistake in the text form of [`Bindings`].
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{line}:{column}: {message}")]
pub struct BindingsError {
    /// The line (from 1).
    pub line: usize,
    /// The column in characters (from 1).
    pub column: usize,
    /// What is wrong.
    pub message: String,
}

impl Bindings {
    /// Where register `register` of `class` goes.
    pub fn slot(&self, class: Class, register: u32) -> Slot {
        self.overrides
            .get(&(class, register))
            .copied()
            .unwrap_or(Slot { group: class.default_group(), binding: class.default_binding(register) })
    }

    /// Where register `register` of `class` in register space `space` goes (Shader
    /// Model 5.1; space 0 is [`Bindings::slot`]).
    pub fn slot_in(&self, class: Class, space: u32, register: u32) -> Slot {
        if space == 0 {
            return self.slot(class, register);
        }
        self.space_overrides
            .get(&(class, space, register))
            .copied()
            .unwrap_or(Slot { group: class.default_group_in(space), binding: class.default_binding(register) })
    }

    /// The format named for typed buffer view `register` of `class`, if one is.
    pub fn format(&self, class: Class, register: u32) -> Option<Format> {
        self.formats.get(&(class, register)).copied()
    }

    /// The format named for typed buffer view `register` of `class` in register space
    /// `space`, if one is (space 0 is [`Bindings::format`]).
    pub fn format_in(&self, class: Class, space: u32, register: u32) -> Option<Format> {
        if space == 0 {
            return self.format(class, register);
        }
        self.space_formats.get(&(class, space, register)).copied()
    }

    /// Reads the text form (see the module documentation).
    pub fn parse(text: &str) -> Result<Bindings, BindingsError> {
        let mut b = Bindings::default();
        b.parse_more(text)?;
        Ok(b)
    }

    /// Reads more lines of the text form into `self` (a register placed or given a
    /// format twice, here or before, is an error).
    pub fn parse_more(&mut self, text: &str) -> Result<(), BindingsError> {
        let b = self;
        for (n, line) in text.lines().enumerate() {
            let line_no = n.saturating_add(1);
            let code = line.split('#').next().unwrap_or("");
            if code.trim().is_empty() {
                continue;
            }
            let err = |at: &str, message: String| BindingsError {
                line: line_no,
                // `at` is a part of `line`: its position in characters.
                column: column_of(line, at),
                message,
            };
            let Some((reg, slot)) = code.split_once('=') else {
                return Err(err(code.trim_start(), "expected `register = group:binding`".into()));
            };
            // `t5` or `t5 space1`.
            let mut words = reg.split_whitespace();
            let reg = words.next().unwrap_or("");
            let space = match words.next() {
                None => 0,
                Some(w) => {
                    let n = w.strip_prefix("space").and_then(|d| d.parse::<u32>().ok());
                    n.ok_or_else(|| err(w, format!("`{w}` is not a register space (space0, space1...)")))?
                }
            };
            if let Some(w) = words.next() {
                return Err(err(w, format!("`{w}`: expected `=` after the register")));
            }
            if reg.is_empty() {
                return Err(err(code.trim_start(), "expected `register = group:binding`".into()));
            }
            let (class, digits) = if let Some(d) = reg.strip_prefix("cb") {
                (Class::ConstantBuffer, d)
            } else if let Some(d) = reg.strip_prefix('t') {
                (Class::Srv, d)
            } else if let Some(d) = reg.strip_prefix('s') {
                (Class::Sampler, d)
            } else if let Some(d) = reg.strip_prefix("uc") {
                (Class::UavCounter, d)
            } else if let Some(d) = reg.strip_prefix('u') {
                (Class::Uav, d)
            } else {
                return Err(err(reg, format!("`{reg}` is not a register (cb#, t#, s#, u# or uc#)")));
            };
            let register: u32 = digits.parse().map_err(|_| err(reg, format!("`{reg}`: no register number")))?;
            let slot_text = slot.trim();
            let Some((g, bnd)) = slot_text.split_once(':') else {
                if slot_text.starts_with(|c: char| c.is_ascii_alphabetic()) {
                    let format =
                        Format::from_name(slot_text).filter(|&f| buffer_format::converts(f)).ok_or_else(|| {
                            err(
                                slot_text,
                                format!("`{slot_text}` is not a typed buffer format the translator converts"),
                            )
                        })?;
                    if !matches!(class, Class::Srv | Class::Uav) {
                        return Err(err(reg, format!("`{reg}`: a format is for typed buffer views (t#, u#)")));
                    }
                    let twice = if space == 0 {
                        b.formats.insert((class, register), format).is_some()
                    } else {
                        b.space_formats.insert((class, space, register), format).is_some()
                    };
                    if twice {
                        return Err(err(reg, format!("`{reg}` is given a format twice")));
                    }
                    continue;
                }
                return Err(err(slot_text, "expected `group:binding` or a format".into()));
            };
            let group: u32 =
                g.trim().parse().map_err(|_| err(slot_text, format!("`{}` is not a group number", g.trim())))?;
            let binding: u32 = bnd
                .trim()
                .parse()
                .map_err(|_| err(bnd.trim_start(), format!("`{}` is not a binding number", bnd.trim())))?;
            let slot = Slot { group, binding };
            let twice = if space == 0 {
                b.overrides.insert((class, register), slot).is_some()
            } else {
                b.space_overrides.insert((class, space, register), slot).is_some()
            };
            if twice {
                return Err(err(reg, format!("`{reg}` is assigned twice")));
            }
        }
        Ok(())
    }
}

/// The column (in characters, from 1) where `part`, a subslice of `line`, starts.
fn column_of(line: &str, part: &str) -> usize {
    let offset = (part.as_ptr() as usize).saturating_sub(line.as_ptr() as usize).min(line.len());
    line.get(..offset).map_or(0, |p| p.chars().count()).saturating_add(1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_and_overrides() {
        let b = Bindings::parse("# comment\ncb1 = 4:5\n\n  u2=0:9 # trailing\n").unwrap();
        assert_eq!(b.slot(Class::ConstantBuffer, 1), Slot { group: 4, binding: 5 });
        assert_eq!(b.slot(Class::Uav, 2), Slot { group: 0, binding: 9 });
        assert_eq!(b.slot(Class::Srv, 2), Slot { group: 1, binding: 2 });
        assert_eq!(b.slot(Class::Sampler, 0), Slot { group: 2, binding: 0 });
        assert_eq!(b.slot(Class::UavCounter, 2), Slot { group: 3, binding: 66 });
        let b = Bindings::parse("uc2 = 5:1\nu2 = 5:0").unwrap();
        assert_eq!(b.slot(Class::UavCounter, 2), Slot { group: 5, binding: 1 });
        assert_eq!(b.slot(Class::Uav, 2), Slot { group: 5, binding: 0 });
    }

    #[test]
    fn errors_name_line_and_column() {
        let e = Bindings::parse("cb0 = 0:0\n  x1 = 0:1\n").unwrap_err();
        assert_eq!((e.line, e.column), (2, 3));
        let e = Bindings::parse("t1 = 0:z\n").unwrap_err();
        assert_eq!((e.line, e.column), (1, 8));
        let e = Bindings::parse("t1 = 0:1\nt1 = 0:2").unwrap_err();
        assert!(e.message.contains("twice"), "{e}");
        assert!(Bindings::parse("t1 0:1").is_err());
    }

    #[test]
    fn register_spaces() {
        let b = Bindings::parse("t5 space1 = 2:7\nt5 = 1:9\nu0  space2 = R32_UINT\ncb1 space0 = 0:8\n").unwrap();
        assert_eq!(b.slot_in(Class::Srv, 1, 5), Slot { group: 2, binding: 7 });
        assert_eq!(b.slot_in(Class::Srv, 0, 5), Slot { group: 1, binding: 9 });
        assert_eq!(b.slot(Class::Srv, 5), Slot { group: 1, binding: 9 });
        assert_eq!(b.slot_in(Class::ConstantBuffer, 0, 1), Slot { group: 0, binding: 8 });
        // Defaults: the class's group + 4 per space, binding = register.
        assert_eq!(b.slot_in(Class::Srv, 2, 5), Slot { group: 9, binding: 5 });
        assert_eq!(b.slot_in(Class::ConstantBuffer, 1, 0), Slot { group: 4, binding: 0 });
        assert_eq!(b.slot_in(Class::Sampler, 1, 3), Slot { group: 6, binding: 3 });
        assert_eq!(b.slot_in(Class::UavCounter, 1, 2), Slot { group: 7, binding: 66 });
        assert_eq!(b.slot_in(Class::Uav, u32::MAX, 0).group, u32::MAX);
        assert_eq!(b.format_in(Class::Uav, 2, 0), Some(Format::R32_UINT));
        assert_eq!(b.format_in(Class::Uav, 0, 0), None);
        let e = Bindings::parse("t5 space1 = 2:7\nt5 space1 = 2:8").unwrap_err();
        assert!(e.message.contains("twice"), "{e}");
        let e = Bindings::parse("t5 spaceX = 2:7").unwrap_err();
        assert_eq!((e.line, e.column), (1, 4));
        let e = Bindings::parse("t5 space1 x = 2:7").unwrap_err();
        assert_eq!((e.line, e.column), (1, 11));
        assert!(Bindings::parse(" space1 = 2:7").is_err());
    }

    #[test]
    fn formats_of_typed_buffers() {
        let b = Bindings::parse("t3 = R8G8B8A8_UNORM\nt3 = 1:0\nu1 = dxgi_format_r32_uint # atomics\n").unwrap();
        assert_eq!(b.format(Class::Srv, 3), Some(Format::R8G8B8A8_UNORM));
        assert_eq!(b.format(Class::Uav, 1), Some(Format::R32_UINT));
        assert_eq!(b.format(Class::Srv, 1), None);
        assert_eq!(b.slot(Class::Srv, 3), Slot { group: 1, binding: 0 });
        let e = Bindings::parse("t0 = R8G8B8A8_UNORM_SRGB").unwrap_err();
        assert_eq!((e.line, e.column), (1, 6));
        let e = Bindings::parse("cb0 = R32_FLOAT").unwrap_err();
        assert!(e.message.contains("typed buffer views"), "{e}");
        let e = Bindings::parse("t0 = R32_FLOAT\nt0 = R32_UINT").unwrap_err();
        assert_eq!(e.line, 2);
        let mut b = Bindings::parse("t0 = R32_FLOAT").unwrap();
        b.parse_more("t1 = R16_UNORM").unwrap();
        assert_eq!(b.formats.len(), 2);
        assert!(b.parse_more("t1 = R16_SNORM").is_err());
    }
}
