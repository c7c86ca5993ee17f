//! Shader Model 5 interfaces: the class instances an application binds with a shader,
//! and the program's interface declarations that say what a binding means.
//!
//! D3D11.3 functional spec 7.19 "Subroutines / Interfaces", 22.3.49–22.3.51
//! (`dcl_function_body`, `dcl_function_table`, `dcl_interface`), 22.7.19 (`fcall`) and
//! 22.7.20 (the `this` register): the API binds one class instance per interface slot
//! when the shader is set (`*SetShader(shader, ppClassInstances, NumClassInstances)`). A
//! `dcl_interface fp#[n][sites] = {ft#...}` occupies slots `fp#`…`fp# + n - 1`; each
//! slot's instance chooses one of the listed function tables (`fcall fp#[k][site]` runs
//! body `site` of the table bound to slot `fp# + k`) and supplies the slot's `this[]`
//! register: x the constant buffer holding the instance's data, y its first element
//! (vector) there, z its first texture slot, w its first sampler slot.
//!
//! [`ClassInstances`] is that binding, one type for the interpreter (`exec`, per draw
//! in its `Resources`) and the translator (`translate`, fixed at translation time in its
//! `Options`); [`Interfaces`] reads a program's declarations and resolves a binding
//! against them, so both apply the same rules and the same default:
//!
//! - a slot the binding does not name gets the **first table its declaration lists**,
//!   and `this` = (0, 0, 0, 0) ([`ClassInstances::this`] of an unbound slot). This
//!   default is **our choice**, not Direct3D's: the runtime requires a class instance in
//!   every slot the shader declares (the `d3d11` model refuses a draw with an empty
//!   slot), so no Direct3D behaviour exists to follow; it lets a shader run (and
//!   translate) without a binding;
//! - `fcall fp#[k][site]` with a static `k` at or beyond the declaration's array length
//!   is an [`InterfaceError`] even when another declaration covers slot `fp# + k`
//!   (functional spec 22.7.19 bounds the array index by the interface's array size);
//!   [`Interfaces::call`] resolves a call through that check;
//! - more than [`MAX_SLOTS`] slots is an [`InterfaceError`] ([`Interfaces::check`]);
//! - a bound table the slot's declaration does not list, or one the program does not
//!   declare, is an [`InterfaceError`] (the runtime refuses a class instance that does
//!   not implement the interface);
//! - a call site beyond the bound table's bodies is an [`InterfaceError`].

use std::collections::BTreeMap;

use crate::{Body, Decl, Program};

/// Most interface slots (`this[]` entries) a program may declare: the sum of its
/// `dcl_interface` array sizes (functional spec 22.3.51, restriction 1;
/// `D3D11_SHADER_MAX_INTERFACES`).
pub const MAX_SLOTS: u32 = 253;

/// One class instance bound to an interface slot.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct ClassInstance {
    /// The function table (`ft#`) the instance's class implements the interface with.
    pub table: u32,
    /// The slot's `this[]` register: constant buffer, first element in it (vectors),
    /// first texture slot, first sampler slot.
    pub this: [u32; 4],
}

/// The class instances bound to a shader, by interface slot (`fp# + array index`).
/// Slots not named are unbound: see the module documentation for their default.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default)]
pub struct ClassInstances {
    /// Slot → instance.
    pub slots: BTreeMap<u32, ClassInstance>,
}

impl ClassInstances {
    /// No instance bound (every slot takes the default).
    pub fn new() -> ClassInstances {
        ClassInstances::default()
    }

    /// Binds `instance` to `slot` (replacing what was there).
    pub fn bind(&mut self, slot: u32, instance: ClassInstance) -> &mut Self {
        self.slots.insert(slot, instance);
        self
    }

    /// The instance bound to `slot`, if one is.
    pub fn get(&self, slot: u32) -> Option<&ClassInstance> {
        self.slots.get(&slot)
    }

    /// The `this[]` register of `slot`: the bound instance's, else zeros.
    pub fn this(&self, slot: u32) -> [u32; 4] {
        self.get(slot).map_or([0; 4], |c| c.this)
    }
}

/// A binding that does not fit the program's declarations.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum InterfaceError {
    /// No `dcl_interface` covers the slot.
    #[error("interface slot {slot} is not declared")]
    SlotNotDeclared {
        /// The slot.
        slot: u32,
    },
    /// The slot's declaration lists no function table (so it has no default).
    #[error("interface slot {slot}: its declaration lists no function table")]
    NoTables {
        /// The slot.
        slot: u32,
    },
    /// The bound table is not one the slot's declaration lists.
    #[error("interface slot {slot} is bound to ft{table}, which fp{interface} does not list")]
    TableNotListed {
        /// The slot.
        slot: u32,
        /// The table bound.
        table: u32,
        /// The declaration covering the slot.
        interface: u32,
    },
    /// The table is listed but not declared (`dcl_function_table`).
    #[error("ft{table} is not declared")]
    TableNotDeclared {
        /// The table.
        table: u32,
    },
    /// `fcall fp#[index]` with an index at or beyond the declaration's array length.
    #[error("fcall fp{interface}[{index}]: fp{interface} is an array of {array_length}")]
    IndexOutOfRange {
        /// The declaration (`fp#`).
        interface: u32,
        /// The array index.
        index: u32,
        /// Its array length.
        array_length: u32,
    },
    /// `fcall` of an `fp#` no `dcl_interface` declares.
    #[error("fp{interface} is not declared")]
    InterfaceNotDeclared {
        /// The `fp#`.
        interface: u32,
    },
    /// The declarations occupy more than [`MAX_SLOTS`] slots (the sum of their array
    /// sizes, or one past the last slot numbered, whichever is larger).
    #[error("{slots} interface slots (the limit is {MAX_SLOTS}, D3D11_SHADER_MAX_INTERFACES)")]
    TooManySlots {
        /// The slots declared.
        slots: u64,
    },
    /// The call site is beyond the table's bodies.
    #[error("ft{table} has {bodies} bodies, no call site {site}")]
    CallSiteOutOfRange {
        /// The table.
        table: u32,
        /// The call site asked for.
        site: u32,
        /// The bodies the table has.
        bodies: u32,
    },
}

/// One `dcl_interface` / `dcl_interface_dynamicindexed`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Interface {
    /// `fp#`: its first slot.
    pub id: u32,
    /// Indexed by a register (`dcl_interface_dynamicindexed`).
    pub dynamic: bool,
    /// Slots it occupies (the array size; at least 1).
    pub array_length: u32,
    /// Call sites (bodies per table).
    pub call_sites: u32,
    /// The function tables an instance may bind, in declaration order.
    pub tables: Vec<u32>,
}

/// A program's interface declarations.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Interfaces {
    /// `dcl_function_table`: `ft#` → its bodies (`fb#`) per call site.
    pub tables: BTreeMap<u32, Vec<u32>>,
    /// `dcl_interface`s, in declaration order.
    pub interfaces: Vec<Interface>,
}

impl Interfaces {
    /// The declarations of `program` (empty when it has none).
    pub fn of(program: &Program<'_>) -> Interfaces {
        let mut out = Interfaces::default();
        for ins in program.iter() {
            match ins.body {
                Body::Decl(Decl::FunctionTable { id, bodies }) => {
                    out.tables.insert(id, ins.words(bodies).iter().collect());
                }
                Body::Decl(Decl::Interface { dynamic, id, table_length, array_length, tables }) => {
                    out.interfaces.push(Interface {
                        id,
                        dynamic,
                        array_length: u32::from(array_length).max(1),
                        call_sites: table_length,
                        tables: ins.words(tables).iter().collect(),
                    })
                }
                _ => {}
            }
        }
        out
    }

    /// True when the program declares no interface.
    pub fn is_empty(&self) -> bool {
        self.interfaces.is_empty()
    }

    /// The number of slots (`this[]` entries): one past the last slot declared, at most
    /// [`MAX_SLOTS`] (a program beyond it fails [`Interfaces::check`]).
    pub fn slots(&self) -> u32 {
        u32::try_from(self.extent()).map_or(MAX_SLOTS, |n| n.min(MAX_SLOTS))
    }

    /// One past the last slot declared, uncapped.
    fn extent(&self) -> u64 {
        self.interfaces.iter().map(|f| u64::from(f.id) + u64::from(f.array_length)).max().unwrap_or(0)
    }

    /// Refuses declarations beyond [`MAX_SLOTS`] slots: the sum of the array sizes
    /// (functional spec 22.3.51, `D3D11_SHADER_MAX_INTERFACES`) and the slot numbers
    /// (`this[]` has one entry per slot) must both stay within it.
    pub fn check(&self) -> Result<(), InterfaceError> {
        let declared: u64 = self.interfaces.iter().map(|f| u64::from(f.array_length)).sum();
        let slots = declared.max(self.extent());
        if slots > u64::from(MAX_SLOTS) {
            return Err(InterfaceError::TooManySlots { slots });
        }
        Ok(())
    }

    /// The declaration `fp#` = `id`.
    pub fn interface(&self, id: u32) -> Option<&Interface> {
        self.interfaces.iter().find(|f| f.id == id)
    }

    /// The declaration whose slots include `slot`.
    pub fn covering(&self, slot: u32) -> Option<&Interface> {
        self.interfaces.iter().find(|f| slot >= f.id && slot - f.id < f.array_length)
    }

    /// The function table bound to `slot`: the instance's (checked against the slot's
    /// declaration), or the first the declaration lists.
    pub fn table(&self, instances: &ClassInstances, slot: u32) -> Result<u32, InterfaceError> {
        let f = self.covering(slot).ok_or(InterfaceError::SlotNotDeclared { slot })?;
        match instances.get(slot) {
            Some(c) if f.tables.contains(&c.table) => Ok(c.table),
            Some(c) => Err(InterfaceError::TableNotListed { slot, table: c.table, interface: f.id }),
            None => f.tables.first().copied().ok_or(InterfaceError::NoTables { slot }),
        }
    }

    /// The slot `fcall fp{interface}[index]` names: `interface + index`, refused when
    /// `interface` is not declared or `index` is not below its array length (functional
    /// spec 22.7.19: the array index selects within the interface's array), even if
    /// another declaration covers that slot.
    pub fn slot_of(&self, interface: u32, index: u32) -> Result<u32, InterfaceError> {
        let f = self.interface(interface).ok_or(InterfaceError::InterfaceNotDeclared { interface })?;
        if index >= f.array_length {
            return Err(InterfaceError::IndexOutOfRange { interface, index, array_length: f.array_length });
        }
        Ok(interface.saturating_add(index))
    }

    /// The function body (`fb#`) `fcall fp{interface}[index][site]` runs:
    /// [`Interfaces::slot_of`], then [`Interfaces::body`].
    pub fn call(
        &self,
        instances: &ClassInstances,
        interface: u32,
        index: u32,
        site: u32,
    ) -> Result<u32, InterfaceError> {
        self.body(instances, self.slot_of(interface, index)?, site)
    }

    /// The function body (`fb#`) `fcall` runs for call site `site` of `slot`.
    pub fn body(&self, instances: &ClassInstances, slot: u32, site: u32) -> Result<u32, InterfaceError> {
        let table = self.table(instances, slot)?;
        let bodies = self.tables.get(&table).ok_or(InterfaceError::TableNotDeclared { table })?;
        bodies.get(site as usize).copied().ok_or(InterfaceError::CallSiteOutOfRange {
            table,
            site,
            bodies: u32::try_from(bodies.len()).unwrap_or(u32::MAX),
        })
    }
}
