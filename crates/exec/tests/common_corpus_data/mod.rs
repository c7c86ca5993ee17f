//! Generated memory for the corpus tests that run shaders: pseudo-random constant
//! buffers, buffers and textures for every declared `cb#`, `t#` and `u#`, default
//! samplers (shared by `corpus_run` and `corpus_compute`).

#![allow(dead_code)]

use std::collections::BTreeMap;

use corpus::Rng;
use exec::resources::{Dimension, Sampler, Srv, TextureView, Uav};
use exec::{Format, Resources};
use tpf::{Body, Decl, ResourceDimension, ReturnType};

/// What a declared `t#`/`u#` needs bound.
#[derive(Debug, Clone, Copy)]
pub enum Need {
    Typed(ResourceDimension, bool),
    Raw,
    Structured(u32),
}

/// Memory for the bound views (owned here, borrowed by `Resources`).
pub struct Storage {
    pub cbs: Vec<Vec<[u32; 4]>>,
    pub srvs: BTreeMap<u32, (Need, Vec<u8>)>,
    pub uavs: BTreeMap<u32, (Need, Vec<u8>)>,
}

/// How values are generated: 0 floats in [-2, 2]; 1 integers 0..3; 2 integers 1..4
/// (and positive input floats).
pub type Mode = u8;

pub fn value(rng: &mut Rng, mode: Mode) -> u32 {
    match mode {
        0 => ((rng.below(4001) as f32 - 2000.0) / 1000.0).to_bits(),
        1 => rng.below(4) as u32,
        _ => 1 + rng.below(4) as u32,
    }
}

pub fn random_floats(rng: &mut Rng, n: usize, mode: Mode) -> Vec<u8> {
    (0..n).flat_map(|_| value(rng, mode).to_le_bytes()).collect()
}

pub const TEX: u32 = 8; // texture size (8x8, 8 deep for 3D), 4 mips, 6 slices
pub const MIPS: u32 = 4;

pub fn texture_dim(d: ResourceDimension) -> Option<(Dimension, u32, u32, u32)> {
    Some(match d {
        ResourceDimension::Texture1D => (Dimension::Texture1D, 1, 1, 1),
        ResourceDimension::Texture1DArray => (Dimension::Texture1DArray, 1, 1, 6),
        ResourceDimension::Texture2D => (Dimension::Texture2D, TEX, 1, 1),
        ResourceDimension::Texture2DArray => (Dimension::Texture2DArray, TEX, 1, 6),
        ResourceDimension::Texture3D => (Dimension::Texture3D, TEX, TEX, 1),
        ResourceDimension::TextureCube => (Dimension::TextureCube, TEX, 1, 6),
        ResourceDimension::TextureCubeArray => (Dimension::TextureCube, TEX, 1, 12),
        _ => return None,
    })
}

pub fn view<'a>(need: Need, data: &'a [u8], int: bool) -> Option<TextureView<'a>> {
    let Need::Typed(d, _) = need else { return None };
    let (dimension, height, depth, array_size) = texture_dim(d)?;
    Some(TextureView {
        dimension,
        format: if int { Format::R32G32B32A32_UINT } else { Format::R32G32B32A32_FLOAT },
        width: TEX,
        height,
        depth,
        array_size,
        mip_levels: MIPS,
        data,
    })
}

pub fn bytes_for(need: Need, rng: &mut Rng, small: Mode) -> Vec<u8> {
    match need {
        Need::Typed(ResourceDimension::Buffer, _) => random_floats(rng, 4 * 256, small),
        Need::Typed(_, _) => random_floats(rng, 4 * (TEX * TEX * TEX * 12 * 2) as usize, small),
        Need::Raw => random_floats(rng, 1024, small),
        Need::Structured(stride) => random_floats(rng, (stride.max(4) as usize / 4) * 64, small),
    }
}

/// Reads the program's declarations and makes the memory to bind.
pub fn storage(program: &tpf::Program<'_>, rng: &mut Rng, small: Mode) -> Storage {
    let sm51 = program.version.is_sm51();
    let mut s = Storage { cbs: vec![Vec::new(); 14], srvs: BTreeMap::new(), uavs: BTreeMap::new() };
    // The registers a declaration covers (SM5.1: its range, at most 8).
    let slots = |o: &tpf::Operand| -> Vec<u32> {
        let idx: Vec<u32> = o.indices().iter().map(|i| i.immediate() as u32).collect();
        if sm51 && idx.len() >= 3 {
            (idx[1]..=idx[2].min(idx[1] + 7)).collect()
        } else {
            idx.first().copied().into_iter().collect()
        }
    };
    for inst in program.iter() {
        let Body::Decl(d) = &inst.body else { continue };
        let (file, need, o) = match d {
            Decl::ConstantBuffer { operand, .. } => {
                for slot in slots(inst.operand(*operand)) {
                    if let Some(cb) = s.cbs.get_mut(slot as usize) {
                        *cb = random_floats(rng, 4 * 4096, small)
                            .chunks(16)
                            .map(|c| [0, 1, 2, 3].map(|k| u32::from_le_bytes(c[4 * k..4 * k + 4].try_into().unwrap())))
                            .collect();
                    }
                }
                continue;
            }
            Decl::Resource { operand, dim, return_type, .. } => {
                let int = matches!(return_type.types[0], ReturnType::Uint | ReturnType::Sint);
                (0, Need::Typed(*dim, int), operand)
            }
            Decl::ResourceRaw { operand, .. } => (0, Need::Raw, operand),
            Decl::ResourceStructured { operand, stride, .. } => (0, Need::Structured(*stride), operand),
            Decl::UavTyped { operand, dim, return_type, .. } => {
                let int = matches!(return_type.types[0], ReturnType::Uint | ReturnType::Sint);
                (1, Need::Typed(*dim, int), operand)
            }
            Decl::UavRaw { operand, .. } => (1, Need::Raw, operand),
            Decl::UavStructured { operand, stride, .. } => (1, Need::Structured(*stride), operand),
            _ => continue,
        };
        for slot in slots(inst.operand(*o)) {
            let mem = bytes_for(need, rng, small);
            if file == 0 {
                s.srvs.insert(slot, (need, mem));
            } else {
                s.uavs.insert(slot, (need, mem));
            }
        }
    }
    s
}

pub fn bind<'a>(s: &'a mut Storage) -> Resources<'a> {
    let mut r = Resources::default();
    for (k, cb) in s.cbs.iter().enumerate() {
        if !cb.is_empty() {
            r.constant_buffers[k] = Some(cb);
        }
    }
    for (&slot, (need, data)) in &s.srvs {
        let slot = slot as usize;
        if r.srvs.len() <= slot {
            r.srvs.resize(slot + 1, None);
        }
        r.srvs[slot] = Some(match *need {
            Need::Typed(ResourceDimension::Buffer, int) => {
                Srv::Buffer { data, format: if int { Format::R32G32B32A32_UINT } else { Format::R32G32B32A32_FLOAT } }
            }
            Need::Typed(_, int) => match view(*need, data, int) {
                Some(v) => Srv::Texture(v),
                None => continue,
            },
            Need::Raw => Srv::Raw { data },
            Need::Structured(stride) => Srv::Structured { data, stride },
        });
    }
    for (&slot, (need, data)) in s.uavs.iter_mut() {
        let slot = slot as usize;
        while r.uavs.len() <= slot {
            r.uavs.push(None);
        }
        r.uavs[slot] = Some(match *need {
            Need::Typed(ResourceDimension::Buffer, int) => {
                Uav::Buffer { data, format: if int { Format::R32_UINT } else { Format::R32_FLOAT } }
            }
            Need::Typed(_, int) => {
                let Some(v) = view(*need, &[], int) else { continue };
                let v =
                    TextureView { format: if int { Format::R32_UINT } else { Format::R32_FLOAT }, mip_levels: 1, ..v };
                Uav::Texture { view: v, data }
            }
            Need::Raw => Uav::Raw { data },
            Need::Structured(stride) => Uav::Structured { data, stride, counter: 0 },
        });
    }
    for s in r.samplers.iter_mut() {
        *s = Some(Sampler::default());
    }
    r
}
