//! Mutated corpus blobs fed to every create call: an HRESULT always, never a panic;
//! E_INVALIDARG always with a diagnostic; the out object filled exactly on S_OK; the
//! linkage usable whatever the shaders registered.

mod common;
use common::*;
use corpus::Rng;
use d3d11::*;
use std::time::Instant;

const MUTATIONS_PER_BLOB: usize = 40;

/// One create call with its arguments bound but the out parameter.
type Call<'a> = dyn Fn(Option<&mut Option<Shader>>) -> Created + 'a;

/// One mutation of `bytes` and the length argument to pass with it.
fn mutate(bytes: &[u8], rng: &mut Rng) -> (Vec<u8>, usize) {
    let mut b = bytes.to_vec();
    let n = b.len();
    let mut resign = rng.below(2) == 0;
    let mut length = None;
    match rng.below(9) {
        // Flip a few bits.
        0 => {
            for _ in 0..1 + rng.below(4) {
                let at = rng.below(n);
                if let Some(byte) = b.get_mut(at) {
                    *byte ^= 1 << rng.below(8);
                }
            }
        }
        // Overwrite a word with a value likely to matter.
        1 | 2 => {
            let at = rng.below(n / 4) * 4;
            let word = match rng.below(6) {
                0 => 0,
                1 => u32::MAX,
                2 => n as u32,
                3 => rng.next_u64() as u32 & 0xff,
                4 => 0x8000_0000,
                _ => rng.next_u64() as u32,
            };
            if let Some(w) = b.get_mut(at..at + 4) {
                w.copy_from_slice(&word.to_le_bytes());
            }
        }
        // Truncate (the length says so, or says the old size).
        3 => {
            b.truncate(rng.below(n));
            resign = resign && b.len() >= 20;
            if rng.below(2) == 0 {
                length = Some(n);
            }
        }
        // The length argument alone.
        4 => {
            resign = false;
            length = Some(match rng.below(4) {
                0 => 0,
                1 => n.saturating_sub(1 + rng.below(8)),
                2 => n + 1 + rng.below(8),
                _ => usize::MAX,
            });
        }
        // The container's total size or chunk count, or a chunk's size or offset.
        5 => {
            let at = [24, 28, 32 + 4 * rng.below(8)][rng.below(3)];
            let delta = [1u32, 4, 0x100, 0x8000_0000][rng.below(4)];
            if let Some(w) = b.get_mut(at..at + 4) {
                let v = u32::from_le_bytes(w.try_into().unwrap());
                let v = if rng.below(2) == 0 { v.wrapping_add(delta) } else { v.wrapping_sub(delta) };
                w.copy_from_slice(&v.to_le_bytes());
            }
        }
        // A byte inside the program or IFCE chunk, re-signed so that the validator
        // gets past the checksum.
        6 | 7 => {
            resign = true;
            if let Ok(c) = dxbc::Container::parse(bytes) {
                let chunks: Vec<_> = c.chunks().iter().filter(|c| !c.data.is_empty()).collect();
                let pick = chunks
                    .iter()
                    .find(|c| &c.fourcc.0 == b"IFCE" && rng.below(2) == 0)
                    .or_else(|| chunks.get(rng.below(chunks.len())));
                if let Some(chunk) = pick {
                    let at = chunk.data_offset() + rng.below(chunk.data.len());
                    if let Some(byte) = b.get_mut(at) {
                        *byte = match rng.below(3) {
                            0 => *byte ^ (1 << rng.below(8)),
                            1 => 0xff,
                            _ => rng.next_u64() as u8,
                        };
                    }
                }
            }
        }
        // Append bytes.
        _ => {
            let extra = 1 + rng.below(16);
            b.extend((0..extra).map(|_| rng.next_u64() as u8));
            if rng.below(2) == 0 {
                length = Some(n);
            }
        }
    }
    if resign && b.len() >= 20 {
        let sum = dxbc::checksum_bytes(dxbc::compute_checksum(&b));
        b[4..20].copy_from_slice(&sum);
    }
    let length = length.unwrap_or(b.len());
    (b, length)
}

/// The invariants of one call.
#[track_caller]
fn check(what: &str, created: &Created, out: Option<&Option<Shader>>, linkage: &ClassLinkage, bytes: &[u8]) {
    let hr = created.hr;
    assert!(hr == S_OK || hr == S_FALSE || hr == E_INVALIDARG, "{what}: unexpected {hr}");
    if hr == E_INVALIDARG {
        assert!(!created.diagnostics.is_empty(), "{what}: E_INVALIDARG without a diagnostic");
    } else {
        assert!(created.diagnostics.is_empty(), "{what}: {hr} with diagnostics {:#?}", created.diagnostics);
    }
    match out {
        Some(slot) => {
            assert_ne!(hr, S_FALSE, "{what}: S_FALSE with an out object");
            assert_eq!(slot.is_some(), hr == S_OK, "{what}: {hr} but out object {:?}", slot.is_some());
            if let Some(shader) = slot {
                assert_eq!(shader.bytecode(), bytes, "{what}: the shader's bytecode");
                assert!(shader.class_linkage().is_some_and(|l| l.ptr_eq(linkage)));
            }
        }
        None => assert_ne!(hr, S_OK, "{what}: S_OK without an out object"),
    }
}

#[test]
fn mutated_corpus_through_every_create_call() {
    let Some(entries) = corpus::dxbc_entries("mutated_corpus_through_every_create_call") else { return };
    let start = Instant::now();
    let devices = [
        Device::new(DeviceDesc::new(FeatureLevel::L11_1, Runtime::D3D11_1)),
        Device::new(DeviceDesc::new(FeatureLevel::L11_0, Runtime::D3D11_0)),
        Device::new(DeviceDesc::new(FeatureLevel::L10_0, Runtime::D3D11_1)),
        Device::new(DeviceDesc::new(FeatureLevel::L9_3, Runtime::D3D11_1)),
    ];
    let sos = [so_empty(), so_position()];
    let mut rng = Rng(0x5eed_d3d1_1000_0001);
    let (mut calls, mut s_ok, mut s_false, mut refused) = (0usize, 0usize, 0usize, 0usize);
    for entry in &entries {
        let original = entry.bytes();
        let linkage = devices[0].create_class_linkage().unwrap();
        // The unmutated blob too, so that real shaders (and their IFCE) get created.
        let mut inputs = vec![(original.clone(), original.len())];
        inputs.extend((0..MUTATIONS_PER_BLOB).map(|_| mutate(&original, &mut rng)));
        for (i, (bytes, length)) in inputs.iter().enumerate() {
            let device = &devices[rng.below(devices.len())];
            let exact = *length == bytes.len();
            let l = &linkage;
            let mut calls_for_input: Vec<Box<Call>> = Vec::new();
            for stage in STAGES {
                calls_for_input.push(Box::new(move |out| create(device, stage, bytes, *length, Some(l), out)));
            }
            for so in &sos {
                calls_for_input.push(Box::new(move |out| {
                    device.create_geometry_shader_with_stream_output(bytes, *length, so, Some(l), out)
                }));
            }
            for (k, call) in calls_for_input.iter().enumerate() {
                let what = format!("{} input {i} call {k}", entry.id());
                let created = if rng.below(2) == 0 {
                    let mut out = if rng.below(2) == 0 { None } else { Some(devices_dummy()) };
                    let created = call(Some(&mut out));
                    check(&what, &created, Some(&out), &linkage, bytes);
                    created
                } else {
                    let created = call(None);
                    check(&what, &created, None, &linkage, bytes);
                    created
                };
                if !exact {
                    assert!(created.has(Code::BytecodeLength), "{what}: length {length} of {} bytes", bytes.len());
                }
                calls += 1;
                match created.hr {
                    S_OK => s_ok += 1,
                    S_FALSE => s_false += 1,
                    _ => refused += 1,
                }
            }
        }
        // Whatever was registered, the linkage answers.
        for info in linkage.class_instances() {
            for index in [0, info.element_count.saturating_sub(1), info.element_count, u32::MAX] {
                let got = linkage.get_class_instance(&info.name, index);
                assert_eq!(got.is_ok(), index < info.element_count, "{}: {} [{index}]", entry.id(), info.name);
                if let Ok(instance) = got {
                    assert_eq!(instance.instance_name(), Some(info.name.as_str()));
                    assert_eq!(instance.desc().instance_index, index);
                }
            }
        }
        for t in linkage.class_types() {
            let created = linkage.create_class_instance(&t.name, u32::MAX, u32::MAX, u32::MAX, u32::MAX).unwrap();
            assert_eq!(created.desc().type_id, t.type_id);
        }
        assert_eq!(linkage.create_class_instance("\u{0}no such class", 0, 0, 0, 0).unwrap_err(), E_INVALIDARG);
    }
    let elapsed = start.elapsed();
    eprintln!(
        "{} blobs, {calls} create calls in {elapsed:.2?}: {s_ok} S_OK, {s_false} S_FALSE, {refused} E_INVALIDARG",
        entries.len()
    );
    assert!(s_ok > 0 && s_false > 0 && refused > 0, "every outcome should occur");
}

/// A shader to pre-fill out objects with: a refused call must empty it.
fn devices_dummy() -> Shader {
    use std::sync::OnceLock;
    static DUMMY: OnceLock<Shader> = OnceLock::new();
    DUMMY
        .get_or_init(|| {
            let device = device_11_0();
            let vs = bytes_of(ProgramType::Vertex);
            let mut out = None;
            assert_eq!(device.create_vertex_shader(&vs, vs.len(), None, Some(&mut out)).hr, S_OK);
            out.unwrap()
        })
        .clone()
}
