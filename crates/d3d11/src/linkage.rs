//! `ID3D11ClassLinkage` and `ID3D11ClassInstance`: the class types and class instances
//! that shaders created with a linkage register, and the instances an application gets
//! or creates from it.

use crate::hresult::HResult;
use dxbc::{Container, FourCc, Ifce};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

/// `IFCE` marks "no texture / no sampler" with 0xFFFF (the listing prints `-`).
const NONE_U16: u16 = 0xffff;

/// `D3D11_CLASS_INSTANCE_DESC`, as `ID3D11ClassInstance::GetDesc` returns it.
///
/// Microsoft documents that every member but `InstanceIndex` is meaningful only for an
/// instance made with `CreateClassInstance`, and `InstanceIndex` only for one got with
/// `GetClassInstance`; the members that are not meaningful keep their documented
/// defaults ([`ClassInstanceDesc::default`]). [`ClassInstance::binding`] has what the
/// model knows in both cases.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct ClassInstanceDesc {
    /// `InstanceId`: for a created instance, its number in the linkage (0, 1, ... in
    /// creation order).
    pub instance_id: u32,
    /// `InstanceIndex`: for an instance got with `GetClassInstance`, the array element.
    pub instance_index: u32,
    /// `TypeId`: for a created instance, its class type's number in the linkage.
    pub type_id: u32,
    /// `ConstantBuffer`: the constant buffer slot holding the instance's data.
    pub constant_buffer: u32,
    /// `BaseConstantBufferOffset`: the offset of the data, in four-component vectors.
    pub base_constant_buffer_offset: u32,
    /// `BaseTexture`: the first texture slot.
    pub base_texture: u32,
    /// `BaseSampler`: the first sampler slot.
    pub base_sampler: u32,
    /// `Created`: true for an instance made with `CreateClassInstance`.
    pub created: bool,
}

impl Default for ClassInstanceDesc {
    /// The documented defaults: zeros, except `BaseTexture` 127 and `BaseSampler` 15;
    /// `Created` false.
    fn default() -> ClassInstanceDesc {
        ClassInstanceDesc {
            instance_id: 0,
            instance_index: 0,
            type_id: 0,
            constant_buffer: 0,
            base_constant_buffer_offset: 0,
            base_texture: 127,
            base_sampler: 15,
            created: false,
        }
    }
}

/// Where an instance's data lives, as the model knows it: for an instance got with
/// `GetClassInstance`, from the shader's `IFCE` record (with the array element's
/// offsets); for a created one, the arguments of `CreateClassInstance`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct InstanceBinding {
    /// The class type's number in the linkage; `None` when the shader's record names a
    /// type index its own type table does not have.
    pub type_id: Option<u32>,
    /// Constant buffer slot.
    pub constant_buffer: u32,
    /// Offset in the constant buffer, in four-component vectors.
    pub constant_vector_offset: u32,
    /// First texture slot; `None` where the record has none (0xFFFF).
    pub texture: Option<u32>,
    /// First sampler slot; `None` where the record has none (0xFFFF).
    pub sampler: Option<u32>,
}

/// A class type the linkage knows (from the `IFCE` chunk of a shader created with it).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct ClassTypeInfo {
    /// Its number in the linkage (registration order); `TypeId` of created instances.
    pub type_id: u32,
    /// The class's HLSL name.
    pub name: String,
    /// Constant-buffer stride of one instance, in four-component vectors.
    pub cb_stride: u16,
    /// Textures one instance uses.
    pub texture_count: u16,
    /// Samplers one instance uses.
    pub sampler_count: u16,
}

/// A class instance declared by a shader created with the linkage (its `IFCE` record).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct ClassInstanceInfo {
    /// The instance's HLSL name (the variable's).
    pub name: String,
    /// The class type's number in the linkage, when the record's type index is valid.
    pub type_id: Option<u32>,
    /// Array elements (1 for a single instance).
    pub element_count: u32,
    /// The constant buffer slot holding the instance's data.
    pub constant_buffer: u16,
    /// Offset of element 0, in four-component vectors.
    pub constant_buffer_offset: u16,
    /// The first texture slot the instance uses; 0xFFFF: none.
    pub texture: u16,
    /// The first sampler slot the instance uses; 0xFFFF: none.
    pub sampler: u16,
}

#[derive(Debug, Default)]
struct State {
    types: Vec<ClassTypeInfo>,
    instances: Vec<ClassInstanceInfo>,
    /// `InstanceId` of the next created instance.
    next_instance_id: u32,
}

/// `ID3D11ClassLinkage`: shared by the shaders created with it and the instances got
/// or created from it. Cloning gives another reference to the same linkage (as
/// `AddRef` would); it is `Send` and `Sync`.
#[derive(Debug, Clone)]
pub struct ClassLinkage {
    state: Arc<Mutex<State>>,
}

impl ClassLinkage {
    pub(crate) fn new() -> ClassLinkage {
        ClassLinkage { state: Arc::new(Mutex::new(State::default())) }
    }

    fn state(&self) -> MutexGuard<'_, State> {
        // A panic elsewhere while holding the lock cannot leave the tables half
        // written in a way that matters here; carry on with them.
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// True when both are references to the same linkage.
    pub fn ptr_eq(&self, other: &ClassLinkage) -> bool {
        Arc::ptr_eq(&self.state, &other.state)
    }

    /// The class types registered so far, by type ID.
    pub fn class_types(&self) -> Vec<ClassTypeInfo> {
        self.state().types.clone()
    }

    /// The class instances registered so far, in registration order.
    pub fn class_instances(&self) -> Vec<ClassInstanceInfo> {
        self.state().instances.clone()
    }

    /// Registers the class types and instances of the `IFCE` chunk of `bytecode`, a
    /// container the validator accepted. A container without `IFCE` registers nothing;
    /// so does one whose `IFCE` cannot be read (the validator refuses those). A name
    /// already registered (by an earlier shader) keeps its first registration.
    pub(crate) fn register(&self, bytecode: &[u8]) {
        let Ok(container) = Container::parse(bytecode) else { return };
        let Some(chunk) = container.chunk(FourCc(*b"IFCE")) else { return };
        let Ok(ifce) = Ifce::parse(chunk.data) else { return };
        let mut state = self.state();
        // The shader's type index -> the linkage's type ID.
        let mut ids = Vec::with_capacity(ifce.types.len());
        for t in &ifce.types {
            let id = match state.types.iter().find(|k| k.name == t.name) {
                Some(known) => known.type_id,
                None => {
                    let type_id = state.types.len() as u32;
                    state.types.push(ClassTypeInfo {
                        type_id,
                        name: t.name.to_string(),
                        cb_stride: t.cb_stride,
                        texture_count: t.texture,
                        sampler_count: t.sampler,
                    });
                    type_id
                }
            };
            ids.push(id);
        }
        for i in &ifce.instances {
            if state.instances.iter().any(|k| k.name == i.name) {
                continue;
            }
            state.instances.push(ClassInstanceInfo {
                name: i.name.to_string(),
                type_id: ids.get(usize::from(i.type_index)).copied(),
                // The field after the type index: the element count (1 for a single
                // instance); 0 is read as 1.
                element_count: u32::from(i.unknown.max(1)),
                constant_buffer: i.constant_buffer,
                constant_buffer_offset: i.constant_buffer_offset,
                texture: i.texture,
                sampler: i.sampler,
            });
        }
    }

    /// `ID3D11ClassLinkage::GetClassInstance`: the class instance `name` declared by a
    /// shader created with this linkage, element `index` of it (0 for an instance that
    /// is not an array).
    ///
    /// `E_INVALIDARG` when no shader created with the linkage declares an instance of
    /// that name, or `index` is past its elements. Interface variables (the
    /// `$ThisPointer` entries of the resource table) are not class instances, and
    /// instances of classes without data members are not in the shader at all (fxc
    /// optimises them out; Microsoft's documentation says to use
    /// [`create_class_instance`](ClassLinkage::create_class_instance) for those).
    pub fn get_class_instance(&self, name: &str, index: u32) -> Result<ClassInstance, HResult> {
        let state = self.state();
        let Some(info) = state.instances.iter().find(|i| i.name == name) else {
            return Err(HResult::E_INVALIDARG);
        };
        if index >= info.element_count {
            return Err(HResult::E_INVALIDARG);
        }
        let ty = info.type_id.and_then(|id| state.types.get(id as usize));
        let step = |base: u16, per: u16| -> Option<u32> {
            (base != NONE_U16).then(|| u32::from(base).saturating_add(index.saturating_mul(u32::from(per))))
        };
        let binding = InstanceBinding {
            type_id: info.type_id,
            constant_buffer: u32::from(info.constant_buffer),
            constant_vector_offset: u32::from(info.constant_buffer_offset)
                .saturating_add(index.saturating_mul(u32::from(ty.map_or(0, |t| t.cb_stride)))),
            texture: step(info.texture, ty.map_or(0, |t| t.texture_count)),
            sampler: step(info.sampler, ty.map_or(0, |t| t.sampler_count)),
        };
        let data = InstanceData {
            linkage: self.clone(),
            instance_name: Some(info.name.clone()),
            type_name: ty.map(|t| t.name.clone()),
            desc: ClassInstanceDesc { instance_index: index, ..ClassInstanceDesc::default() },
            binding,
        };
        Ok(ClassInstance(Arc::new(data)))
    }

    /// `ID3D11ClassLinkage::CreateClassInstance`: an instance of the class type
    /// `type_name` whose data is in constant buffer `constant_buffer_offset` at
    /// `constant_vector_offset` four-component vectors, with its textures from slot
    /// `texture_offset` and its samplers from slot `sampler_offset`.
    ///
    /// `E_INVALIDARG` when no shader created with the linkage has that class type.
    pub fn create_class_instance(
        &self,
        type_name: &str,
        constant_buffer_offset: u32,
        constant_vector_offset: u32,
        texture_offset: u32,
        sampler_offset: u32,
    ) -> Result<ClassInstance, HResult> {
        let mut state = self.state();
        let Some(ty) = state.types.iter().find(|t| t.name == type_name) else {
            return Err(HResult::E_INVALIDARG);
        };
        let (type_id, name) = (ty.type_id, ty.name.clone());
        let instance_id = state.next_instance_id;
        state.next_instance_id = state.next_instance_id.wrapping_add(1);
        let data = InstanceData {
            linkage: self.clone(),
            instance_name: None,
            type_name: Some(name),
            desc: ClassInstanceDesc {
                instance_id,
                instance_index: 0,
                type_id,
                constant_buffer: constant_buffer_offset,
                base_constant_buffer_offset: constant_vector_offset,
                base_texture: texture_offset,
                base_sampler: sampler_offset,
                created: true,
            },
            binding: InstanceBinding {
                type_id: Some(type_id),
                constant_buffer: constant_buffer_offset,
                constant_vector_offset,
                texture: Some(texture_offset),
                sampler: Some(sampler_offset),
            },
        };
        Ok(ClassInstance(Arc::new(data)))
    }
}

#[derive(Debug)]
struct InstanceData {
    linkage: ClassLinkage,
    instance_name: Option<String>,
    type_name: Option<String>,
    desc: ClassInstanceDesc,
    binding: InstanceBinding,
}

/// `ID3D11ClassInstance`. Cloning gives another reference to the same instance.
#[derive(Debug, Clone)]
pub struct ClassInstance(Arc<InstanceData>);

impl ClassInstance {
    /// `ID3D11ClassInstance::GetDesc`.
    pub fn desc(&self) -> ClassInstanceDesc {
        self.0.desc
    }

    /// `ID3D11ClassInstance::GetInstanceName`: the instance's name in the shader, for
    /// an instance got with `GetClassInstance` (Microsoft documents a valid name only
    /// for those); `None` for a created one.
    pub fn instance_name(&self) -> Option<&str> {
        self.0.instance_name.as_deref()
    }

    /// `ID3D11ClassInstance::GetTypeName`: the class type's name. (Microsoft's page
    /// promises a valid name only for instances got with `GetClassInstance`; the model
    /// knows the type of created ones too.) `None` when the shader's record names a
    /// type its type table does not have.
    pub fn type_name(&self) -> Option<&str> {
        self.0.type_name.as_deref()
    }

    /// `ID3D11ClassInstance::GetClassLinkage`.
    pub fn class_linkage(&self) -> &ClassLinkage {
        &self.0.linkage
    }

    /// Where the instance's data is, as far as the model knows (see
    /// [`InstanceBinding`]).
    pub fn binding(&self) -> InstanceBinding {
        self.0.binding
    }

    /// True when both are references to the same instance object.
    pub fn ptr_eq(&self, other: &ClassInstance) -> bool {
        Arc::ptr_eq(&self.0, &other.0)
    }
}

/// The class instances of a `*SetShader` call resolved against the shader's `IFCE`
/// chunk: what the interpreter binds ([`tpf::interfaces::ClassInstances`]) and the
/// first interface slot left without an instance, if any (Microsoft's
/// ID3D11DeviceContext::VSSetShader page: "each interface used by a shader must have a
/// corresponding class instance or the shader will get disabled").
#[derive(Debug, Clone, Default)]
pub(crate) struct ResolvedInstances {
    pub(crate) bound: tpf::interfaces::ClassInstances,
    pub(crate) missing: Option<u32>,
}

/// Most class instances one `*SetShader` call takes (the remarks of Microsoft's
/// ID3D11DeviceContext::VSSetShader page).
pub const MAX_CLASS_INSTANCES: usize = 256;

/// Resolves `instances` (`ppClassInstances`, `NumClassInstances` = its length; an
/// empty slice is a NULL array) for a shader with `bytecode` created with `linkage`.
///
/// As the runtime: an empty array binds nothing (a shader with interface slots is
/// then disabled); otherwise the count must be the shader's interface slot count (the
/// `IFCE` header's; the remarks of Microsoft's ID3D11DeviceContext::PSSetShader page:
/// "the number of class instances must match the number of interfaces used in the
/// shader"), each instance must come from the shader's class linkage, and its class
/// type must be one the slot's interface can take (the `IFCE` slot record lists the
/// class types and the function table each implements it with; D3D11.3 functional
/// spec 7.19 "Subroutines / Interfaces"). The error is the message of the
/// `E_INVALIDARG` the call is refused with.
pub(crate) fn resolve_instances(
    bytecode: &[u8],
    linkage: Option<&ClassLinkage>,
    instances: &[Option<ClassInstance>],
) -> Result<ResolvedInstances, String> {
    let container = Container::parse(bytecode).ok();
    let chunk = container.as_ref().and_then(|c| c.chunk(FourCc(*b"IFCE")));
    let ifce = chunk.and_then(|c| Ifce::parse(c.data).ok());
    let slot_count = ifce.as_ref().map_or(0, |i| i.slot_count);
    if instances.len() > MAX_CLASS_INSTANCES {
        return Err(format!("{} class instances, at most {MAX_CLASS_INSTANCES}", instances.len()));
    }
    let mut resolved = ResolvedInstances::default();
    if instances.is_empty() {
        resolved.missing = (slot_count > 0).then_some(0);
        return Ok(resolved);
    }
    let Some(ifce) = ifce.filter(|_| instances.len() == slot_count as usize) else {
        return Err(format!("NumClassInstances is {}, the shader has {slot_count} interface slots", instances.len()));
    };
    let types = linkage.map(ClassLinkage::class_types).unwrap_or_default();
    // The slot records, each covering `slot_span` consecutive slots.
    let mut records = ifce.slots.iter().flat_map(|r| std::iter::repeat_n(r, r.slot_span as usize));
    for (slot, instance) in (0u32..).zip(instances) {
        let record = records.next();
        let Some(instance) = instance else {
            resolved.missing = resolved.missing.or(Some(slot));
            continue;
        };
        if !linkage.is_some_and(|l| instance.class_linkage().ptr_eq(l)) {
            return Err(format!(
                "class instance {slot} is from another class linkage than the one the shader was created with"
            ));
        }
        let binding = instance.binding();
        let name = binding.type_id.and_then(|id| types.get(id as usize)).map(|t| t.name.as_str());
        let index = name.and_then(|n| ifce.types.iter().position(|t| t.name == n));
        let table = record.zip(index).and_then(|(r, index)| {
            let k = r.type_ids.iter().position(|&t| usize::from(t) == index)?;
            r.table_ids.get(k).copied()
        });
        let Some(table) = table else {
            return Err(format!(
                "class instance {slot} is of class type {}, which interface slot {slot} cannot take",
                name.unwrap_or("(unknown)")
            ));
        };
        let this = [
            binding.constant_buffer,
            binding.constant_vector_offset,
            binding.texture.unwrap_or(0),
            binding.sampler.unwrap_or(0),
        ];
        resolved.bound.bind(slot, tpf::interfaces::ClassInstance { table, this });
    }
    Ok(resolved)
}
