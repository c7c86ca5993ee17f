//! `dxref run --cs`: one dispatch of a compute shader through the reference interpreter
//! (`exec::compute`), its UAVs from files (`--uav`) or zero-filled, printing every
//! UAV's words after the dispatch and `CSInvocations`, and writing them as JSON
//! (`--out`).

use std::fmt::Write as _;

use exec::compute::{self, Limits};
use exec::resources::Uav;
use exec::{BindingKind, Format, Plan};
use inputs::binding::{self as reader, Stage};
use serde_json::{json, Value};

use crate::bind::{file_name, is_json, read_file, read_words, Declared, File, StageShader};
use crate::output::Output;
use crate::run::Options;
use crate::{status, Failure, Outcome};

/// The largest UAV `dxref run` allocates.
const MAX_UAV_BYTES: u32 = 256 << 20;
/// The most bytes all UAVs of a dispatch may take together.
const MAX_TOTAL_UAV_BYTES: u64 = 1 << 30;

/// UAV slots (`D3D11_1_UAV_SLOT_COUNT`).
const UAV_SLOTS: u32 = 64;

/// How a UAV's memory is viewed.
#[derive(Debug, Clone, Copy)]
enum Kind {
    Raw,
    Structured(u32),
    Typed(Format),
}

impl Kind {
    fn name(self) -> String {
        match self {
            Kind::Raw => "raw".into(),
            Kind::Structured(stride) => format!("structured, stride {stride}"),
            Kind::Typed(f) => format!("typed buffer, {}", f.name()),
        }
    }
}

struct UavMemory {
    slot: u32,
    kind: Kind,
    data: Vec<u8>,
}

/// `X,Y,Z` (each 0..65535).
fn groups(text: Option<&str>) -> Result<[u32; 3], Failure> {
    let Some(text) = text else { return Ok([1, 1, 1]) };
    let bad = || Failure::input(format!("--dispatch {text}: expected X,Y,Z (thread groups, each 0..65535)"));
    let parts: Vec<u32> =
        text.split(',').map(|p| p.trim().parse::<u32>()).collect::<Result<_, _>>().map_err(|_| bad())?;
    match parts.as_slice() {
        &[x, y, z] if [x, y, z].iter().all(|&n| n <= compute::MAX_GROUPS_PER_DIMENSION) => Ok([x, y, z]),
        _ => Err(bad()),
    }
}

/// The view a UAV declaration takes, with `format` for a typed buffer.
fn kind_of(d: &Declared, slot: u32, format: Option<Format>, name: &str) -> Result<Kind, Failure> {
    match d.kind {
        BindingKind::RawUav => Ok(Kind::Raw),
        BindingKind::StructuredUav { stride } => Ok(Kind::Structured(stride)),
        BindingKind::TypedUav { dimension: tpf::ResourceDimension::Buffer } => match format {
            Some(f) => Ok(Kind::Typed(f)),
            None => Err(Failure::input(format!(
                "{name}: u{slot} is a typed buffer: give its format, e.g. --uav {slot}=FILE:R32_UINT"
            ))),
        },
        _ => Err(Failure::input(format!(
            "{name}: {}: dxref run binds buffer UAVs only (raw, structured, typed buffers)",
            d.describe(slot)
        ))),
    }
}

/// Runs the dispatch `options` asks for of the compute shader `plan` (from file `name`,
/// declaring `declared`), and reports it.
pub fn run(options: &Options, name: &str, plan: &Plan, declared: &[Declared]) -> Outcome {
    let groups = groups(options.dispatch.as_deref())?;
    if options.uav_size > MAX_UAV_BYTES {
        return Err(Failure::input(format!("--uav-size {}: at most {MAX_UAV_BYTES} bytes", options.uav_size)));
    }
    let shader = StageShader { stage: Stage::Compute, name, declared };
    let (bindings, mut warnings) = crate::bind::Bindings::read(&options.bind, std::slice::from_ref(&shader))?;
    let mut uavs: Vec<UavMemory> = Vec::new();
    for arg in &options.uav {
        let a = reader::binding_arg(arg, "u").map_err(|e| Failure::input(format!("--uav {arg}: {e}")))?;
        if a.stage.is_some_and(|s| s != Stage::Compute) {
            return Err(Failure::input(format!("--uav {arg}: UAVs are bound for the compute shader (cs:) only")));
        }
        if a.slot >= UAV_SLOTS {
            return Err(Failure::input(format!("--uav {arg}: register {} is past the last u slot (63)", a.slot)));
        }
        if uavs.iter().any(|u| u.slot == a.slot) {
            return Err(Failure::input(format!("--uav {arg}: u{} is bound twice", a.slot)));
        }
        let (file, format) = reader::file_and_format(&a.value, |f| Format::from_name(f).is_some());
        let format = format.and_then(Format::from_name);
        let space = a.space.unwrap_or(0);
        let d = declared.iter().find(|d| d.file == File::Uav && d.space == space && d.covers(a.slot));
        let kind = match d {
            Some(d) => kind_of(d, a.slot, format, name)?,
            None => {
                warnings.push(format!("--uav {arg}: {name} declares no u{}: bound, but nothing reads it", a.slot));
                format.map_or(Kind::Raw, Kind::Typed)
            }
        };
        let data = if is_json(file) { reader::bytes_of(&read_words(file)?) } else { read_file(file)? };
        if let Kind::Structured(stride) = kind {
            if stride != 0 && data.len() % stride as usize != 0 {
                warnings.push(format!(
                    "{name}: u{}: {} holds {} bytes, not a whole number of {stride}-byte structures",
                    a.slot,
                    file_name(file),
                    data.len()
                ));
            }
        }
        uavs.push(UavMemory { slot: a.slot, kind, data });
    }
    for d in declared.iter().filter(|d| d.file == File::Uav) {
        for slot in d.lo..=d.hi.min(d.lo.saturating_add(UAV_SLOTS)).min(UAV_SLOTS - 1) {
            if uavs.iter().any(|u| u.slot == slot) {
                continue;
            }
            let kind = match d.kind {
                // Without a file, a typed buffer holds 32-bit unsigned integers.
                BindingKind::TypedUav { dimension: tpf::ResourceDimension::Buffer } => Kind::Typed(Format::R32_UINT),
                _ => kind_of(d, slot, None, name)?,
            };
            warnings.push(format!(
                "{name}: {} is not bound (--uav {slot}=FILE): {} zero bytes{}",
                d.describe(slot),
                options.uav_size,
                if matches!(kind, Kind::Typed(_)) { " of R32_UINT" } else { "" }
            ));
            let total = uavs.iter().map(|u| u.data.len() as u64).sum::<u64>() + u64::from(options.uav_size);
            if total > MAX_TOTAL_UAV_BYTES {
                return Err(Failure::input(format!(
                    "{name}: the UAVs would take {total} bytes with --uav-size {} for each unbound one: at most \
                     {MAX_TOTAL_UAV_BYTES}",
                    options.uav_size
                )));
            }
            uavs.push(UavMemory { slot, kind, data: vec![0; options.uav_size as usize] });
        }
    }
    uavs.sort_by_key(|u| u.slot);
    for w in &warnings {
        eprintln!("warning: {w}");
    }

    let stats = {
        let mut res = bindings.resources(Stage::Compute);
        for u in uavs.iter_mut() {
            let slot = u.slot as usize;
            while res.uavs.len() <= slot {
                res.uavs.push(None);
            }
            res.uavs[slot] = Some(match u.kind {
                Kind::Raw => Uav::Raw { data: &mut u.data },
                Kind::Structured(stride) => Uav::Structured { data: &mut u.data, stride, counter: 0 },
                Kind::Typed(format) => Uav::Buffer { data: &mut u.data, format },
            });
        }
        compute::dispatch(plan, groups, &mut res, &Limits::default()).map_err(|e| match e.kind {
            exec::ExecErrorKind::Draw(_) => Failure::refused(format!("{name}: {e}")),
            _ => Failure::refused(format!("{name}: dispatch: {e}")),
        })?
    };
    let words = |u: &UavMemory| -> Vec<u32> {
        u.data.chunks_exact(4).map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]])).collect()
    };

    // Text.
    let json_to_stdout = options.out.as_deref().is_some_and(|o| o == "-");
    if !options.quiet && (!json_to_stdout || options.output.as_deref().is_some_and(|o| o != "-")) {
        let mut text = String::new();
        for u in &uavs {
            let _ = writeln!(text, "u{} ({}, {} bytes):", u.slot, u.kind.name(), u.data.len());
            for (row, chunk) in words(u).chunks(8).enumerate() {
                let line: Vec<String> = chunk.iter().map(|w| format!("{w:#010x}")).collect();
                let _ = writeln!(text, "  {:06x}: {}", row * 32, line.join(" "));
            }
        }
        let _ = writeln!(
            text,
            "CSInvocations={} thread_groups={} barriers={}",
            stats.cs_invocations, stats.thread_groups, stats.barriers
        );
        let mut out = Output::new(options.output.as_deref());
        let written = out.write(text.as_bytes()).and_then(|_| out.finish(true));
        if written.is_err() {
            return crate::output::finish(written, status::OK);
        }
    }
    // JSON.
    if let Some(out) = &options.out {
        let uav_values: Vec<Value> = uavs
            .iter()
            .map(|u| {
                let w: Vec<Value> = words(u)
                    .into_iter()
                    .map(|w| if options.hex { json!(format!("{w:#010x}")) } else { json!(w) })
                    .collect();
                json!({ "slot": u.slot, "view": u.kind.name(), "bytes": u.data.len(), "words": w })
            })
            .collect();
        let value = json!({
            "dispatch": groups,
            "uavs": uav_values,
            "statistics": {
                "CSInvocations": stats.cs_invocations,
                "thread_groups": stats.thread_groups,
                "barriers": stats.barriers,
            },
        });
        let text = serde_json::to_string_pretty(&value).unwrap_or_default() + "\n";
        let mut out = Output::new(Some(out));
        let written = out.write(text.as_bytes()).and_then(|_| out.finish(true));
        if written.is_err() {
            return crate::output::finish(written, status::OK);
        }
    }
    Ok(())
}
