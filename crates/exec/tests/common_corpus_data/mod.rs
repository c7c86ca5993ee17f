//! Generated memory for the corpus tests that run shaders: pseudo-random constant
//! buffers, buffers and textures for every declared `cb#`, `t#` and `u#`, default
//! samplers; and the per-entry steps those tests share: the program, the plan or why
//! there is none, the data modes tried, the mutations (shared by `corpus_run`,
//! `corpus_compute` and `pixel_corpus`).

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

/// The program of a corpus entry (every corpus blob holds one that decodes: anything
/// else panics, naming the entry).
pub fn program_of<'b>(id: &str, bytes: &'b [u8]) -> tpf::Program<'b> {
    let container = dxbc::Container::parse(bytes).unwrap_or_else(|err| panic!("{id}: {err}"));
    let chunk = container
        .chunk_any(&[dxbc::FourCc::SHEX, dxbc::FourCc::SHDR])
        .unwrap_or_else(|| panic!("{id}: no program chunk"));
    tpf::decode(chunk.data).unwrap_or_else(|err| panic!("{id}: {err}"))
}

/// The seed of an entry's generated data: FNV-1a of its id.
pub fn seed_of(id: &str) -> u64 {
    id.bytes().fold(0xcbf2_9ce4_8422_2325u64, |h, b| (h ^ b as u64).wrapping_mul(0x100_0000_01b3))
}

/// Why an entry's plan did not compile: the interpreter refuses an instruction
/// (`Unsupported`, named), or another compile error (a failure of the test).
pub enum NoPlan {
    Refused(String),
    Failed(exec::ExecError),
}

impl NoPlan {
    /// The entry's outcome line.
    pub fn outcome(&self) -> String {
        corpus::expect::one_line(&match self {
            NoPlan::Refused(what) => format!("unsupported: {what}"),
            NoPlan::Failed(err) => format!("compile error: {err}"),
        })
    }
}

/// Compiles an entry's plan.
pub fn plan_of(bytes: &[u8]) -> Result<exec::Plan, NoPlan> {
    exec::Plan::from_bytecode(bytes).map_err(|err| match err.kind {
        exec::ExecErrorKind::Unsupported(what) => NoPlan::Refused(what),
        _ => NoPlan::Failed(err),
    })
}

/// Runs `exercise` on generated floats, then, while it stops at the step limit (loop
/// counts read from float data can be huge, and some loops only end for positive
/// values), on small and then positive integers: which data it ran on, and what it gave.
pub fn run_on_data<T>(
    mut exercise: impl FnMut(Mode) -> Result<T, exec::ExecError>,
) -> (&'static str, Result<T, exec::ExecError>) {
    let mut result = exercise(0);
    let mut data = "floats";
    for (mode, what) in [(1, "small integers"), (2, "positive integers")] {
        if matches!(&result, Err(err) if matches!(err.kind, exec::ExecErrorKind::StepLimit(_))) {
            data = what;
            result = exercise(mode);
        }
    }
    (data, result)
}

/// The program chunk's tokens of an entry whose program `keep` accepts (for the
/// mutation tests; entries that do not decode are left out).
pub fn program_words(bytes: &[u8], keep: impl Fn(tpf::ProgramType) -> bool) -> Option<Vec<u32>> {
    let container = dxbc::Container::parse(bytes).ok()?;
    let chunk = container.chunk_any(&[dxbc::FourCc::SHEX, dxbc::FourCc::SHDR])?;
    let program = tpf::decode(chunk.data).ok()?;
    keep(program.version.ty)
        .then(|| chunk.data.chunks_exact(4).map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]])).collect())
}

/// How many mutations of each program the mutation tests try: `MUTATIONS` from the
/// environment, or `default`.
pub fn mutations(default: usize) -> usize {
    std::env::var("MUTATIONS").ok().and_then(|s| s.parse().ok()).unwrap_or(default)
}

/// `words` with one to three random token changes past the version and length tokens
/// (a bit flipped, a random word, or a small increment), as bytes.
pub fn mutate(words: &[u32], rng: &mut Rng) -> Vec<u8> {
    let mut w = words.to_vec();
    for _ in 0..1 + rng.below(3) {
        let at = 2 + rng.below(w.len().saturating_sub(2).max(1));
        if at >= w.len() {
            continue;
        }
        w[at] = match rng.below(3) {
            0 => w[at] ^ (1 << rng.below(32)),
            1 => rng.next_u64() as u32,
            _ => w[at].wrapping_add(1 + rng.below(8) as u32),
        };
    }
    w.iter().flat_map(|t| t.to_le_bytes()).collect()
}
