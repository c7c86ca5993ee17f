//! `dxref validate` (module `check`, to keep the name `validate` for the crate): the create call's verdict on a shader, with every diagnostic.

use serde_json::{json, Value};
use validate::{Api, Caps, Caps9, FeatureLevel, Report, Runtime, SoArguments, StreamOutputDesc, Target};

use crate::batch::{self, Mode};
use crate::output::Output;
use crate::walk::Input;
use crate::{input, status, Failure, Outcome};

/// The device and call the shader is validated for.
pub struct Options {
    /// `--stage`: the create call, `vs`, `hs`, `ds`, `gs`, `ps` or `cs`; `None`: the
    /// program's own stage.
    pub stage: Option<String>,
    /// `--api`; `None`: `d3d9` for a raw Shader Model 1–3 program, else `d3d11`.
    pub api: Option<String>,
    /// `--feature-level`: `9_1` … `11_1`; `None`: 11_1 (10_0 with `--api d3d10`).
    pub feature_level: Option<String>,
    /// `--runtime`: `11.0` or `11.1`; `None`: 11.1.
    pub runtime: Option<String>,
    /// `--uav-all-stages` / `--no-uav-all-stages`: whether the device has UAVs at
    /// every shader stage; `None`: yes for 11_1 on the 11.1 runtime.
    pub uav_all_stages: Option<bool>,
    /// `--no-doubles`: the device lacks double-precision shader operations.
    pub no_doubles: bool,
    /// `--so`: a stream-output declaration in the text form (the call becomes
    /// `CreateGeometryShaderWithStreamOutput`).
    pub so: Option<String>,
    /// `--so-json`: a file with the stream-output call's arguments as JSON.
    pub so_json: Option<String>,
    /// `--so-strides`: the buffer strides in bytes, comma-separated (one with
    /// `--api d3d10`).
    pub so_strides: Option<String>,
    /// `--so-rasterized`: the rasterized stream, `0`..`3` or `none`.
    pub so_rasterized: Option<String>,
    /// `--caps key=value,...`: Direct3D 9 capabilities.
    pub caps: Option<String>,
}

impl Options {
    /// The target for `bytes`: `--api` (by default `d3d9` for a raw Shader Model 1–3
    /// program, `d3d11` for anything else) with its device options.
    fn target(&self, bytes: &[u8]) -> Result<Target, Failure> {
        let usage = |m: String| Failure::input(m);
        let api = match &self.api {
            Some(api) => api.as_str(),
            None if validate::d3d9::is_d3dbc(bytes) => "d3d9",
            None => "d3d11",
        };
        let device_option = |what: &str, given: bool| -> Result<(), Failure> {
            if given {
                Err(usage(format!(
                    "{what} applies to --api d3d10 and d3d11; this is --api {api}{}",
                    raw_note(bytes, self.api.is_none())
                )))
            } else {
                Ok(())
            }
        };
        if !matches!(api, "d3d10" | "d3d11") {
            device_option("--feature-level", self.feature_level.is_some())?;
        }
        if api != "d3d11" {
            let what =
                if self.runtime.is_some() { "--runtime" } else { "--uav-all-stages/--no-uav-all-stages/--no-doubles" };
            if self.runtime.is_some() || self.uav_all_stages.is_some() || self.no_doubles {
                return Err(usage(format!(
                    "{what} applies to --api d3d11; this is --api {api}{}",
                    raw_note(bytes, self.api.is_none())
                )));
            }
        }
        let mut target = match api {
            "d3d9" => Target::d3d9(),
            "d3d12" => Target::d3d12(),
            "d3d10" => {
                let text = self.feature_level.as_deref().unwrap_or("10_0");
                let level = FeatureLevel::parse(text)
                    .filter(|l| matches!(l, FeatureLevel::L10_0 | FeatureLevel::L10_1))
                    .ok_or_else(|| {
                        usage(format!(
                            "--feature-level {text}: --api d3d10 is a Direct3D 10 device (10_0) or a Direct3D 10.1 device (10_0 or 10_1)"
                        ))
                    })?;
                Target::d3d10(level)
            }
            "d3d11" => {
                let text = self.feature_level.as_deref().unwrap_or("11_1");
                let level = FeatureLevel::parse(text).ok_or_else(|| {
                    usage(format!("--feature-level {text}: expected 9_1, 9_2, 9_3, 10_0, 10_1, 11_0 or 11_1"))
                })?;
                let text = self.runtime.as_deref().unwrap_or("11.1");
                let runtime =
                    Runtime::parse(text).ok_or_else(|| usage(format!("--runtime {text}: expected 11.0 or 11.1")))?;
                let mut caps = Caps::typical(level, runtime);
                if let Some(uav) = self.uav_all_stages {
                    caps.uavs_at_every_stage = uav;
                }
                if self.no_doubles {
                    caps.doubles = false;
                    caps.extended_doubles = false;
                }
                Target { api: Api::D3D11 { level, runtime, caps }, stage: None }
            }
            other => return Err(usage(format!("--api {other}: expected d3d9, d3d10, d3d11 or d3d12"))),
        };
        if let Some(s) = &self.stage {
            let stage = validate::parse_stage(s)
                .ok_or_else(|| usage(format!("--stage {s}: expected vs, hs, ds, gs, ps or cs")))?;
            target = target.for_stage(stage);
        }
        Ok(target)
    }

    /// The Direct3D 9 capabilities of `--caps`, over the defaults for `target`: what a
    /// feature level 9 device promises its Level 9 programs, else the most capable
    /// device. `None` without `--caps` (the validator's own defaults are the same).
    fn caps9(&self, target: &Target) -> Result<Option<Caps9>, Failure> {
        let Some(text) = &self.caps else { return Ok(None) };
        let base = match target.api {
            Api::D3D11 { level, .. } if level.is_9_x() => Caps9::for_level(level),
            Api::D3D9 => Caps9::default(),
            api => {
                return Err(Failure::input(format!(
                    "--caps applies to Direct3D 9 programs (--api d3d9) and to Level 9 programs at feature level 9_x (--api d3d11); this is --api {}",
                    api.name()
                )))
            }
        };
        base.parse_over(text).map(Some).map_err(|e| {
            Failure::input(format!("--caps: {e}\nkeys (key=value, comma-separated):\n{}", Caps9::keys().trim_end()))
        })
    }
}

/// Why the API is `d3d9` when `--api` was not given.
fn raw_note(bytes: &[u8], defaulted: bool) -> &'static str {
    if defaulted && validate::d3d9::is_d3dbc(bytes) {
        " (a raw Shader Model 1-3 program is validated for Direct3D 9 unless --api names another API; Direct3D 10 and 11 create calls refuse it)"
    } else {
        ""
    }
}

/// The stream-output options: `--so DECL [--so-strides N,...] [--so-rasterized
/// N|none]` or `--so-json FILE` (shared by `validate` and `run`).
pub(crate) struct SoOptions<'a> {
    pub so: Option<&'a str>,
    pub json: Option<&'a str>,
    pub strides: Option<&'a str>,
    pub rasterized: Option<&'a str>,
}

impl SoOptions<'_> {
    pub fn given(&self) -> bool {
        self.so.is_some() || self.json.is_some()
    }

    /// The call's stream-output arguments for `api`. The text form's entries without
    /// a mask are resolved against the output signature in `bytes`; no entries is a
    /// NULL `pSODeclaration`. The JSON form is taken as it is.
    pub fn arguments(&self, api: Api, bytes: &[u8]) -> Result<Option<SoArguments>, Failure> {
        if self.so.is_some() && self.json.is_some() {
            return Err(Failure::input("--so and --so-json are two forms of one declaration: give one".into()));
        }
        if let Some(file) = self.json {
            if self.strides.is_some() || self.rasterized.is_some() {
                return Err(Failure::input(
                    "--so-strides and --so-rasterized go with --so; the --so-json file holds the strides and the rasterized stream".into(),
                ));
            }
            let text = std::fs::read_to_string(file).map_err(|e| Failure::input(format!("{file}: {e}")))?;
            let args = inputs::so::arguments_json(&text, api).map_err(|e| Failure::input(format!("{file}: {e}")))?;
            return Ok(Some(args));
        }
        let Some(mut desc) = stream_output(self.so, self.strides, self.rasterized)? else { return Ok(None) };
        // Entries written without a mask take the output element's components; the
        // unresolved ones are reported by the checks (V605).
        desc.resolve_masks_in(bytes);
        let mut args = SoArguments::from_desc(&desc);
        if let Api::D3D10 { .. } = api {
            if self.rasterized.is_some() {
                return Err(Failure::input(
                    "--so-rasterized: ID3D10Device::CreateGeometryShaderWithStreamOutput has no RasterizedStream (Direct3D 10 rasterizes stream 0)".into(),
                ));
            }
            if desc.strides.len() > 1 {
                return Err(Failure::input(format!(
                    "--so-strides {}: ID3D10Device::CreateGeometryShaderWithStreamOutput takes one OutputStreamStride",
                    self.strides.unwrap_or_default()
                )));
            }
            args.output_stream_stride = desc.strides.first().copied();
            args.strides = None;
            args.rasterized_stream = None;
        }
        args.check_shape(api).map_err(|e| Failure::input(format!("--so: {e}")))?;
        Ok(Some(args))
    }
}

pub(crate) fn stream_output(
    so: Option<&str>,
    strides: Option<&str>,
    rasterized: Option<&str>,
) -> Result<Option<StreamOutputDesc>, Failure> {
    let Some(decl) = so else {
        if strides.is_some() || rasterized.is_some() {
            return Err(Failure::input("--so-strides and --so-rasterized need --so DECL".into()));
        }
        return Ok(None);
    };
    let desc = inputs::so::declaration(decl, strides, rasterized).map_err(|e| {
        Failure::input(match e {
            inputs::so::SoError::Declaration(_) => format!("--so: {e}"),
            inputs::so::SoError::Strides => format!("--so-strides {}: {e}", strides.unwrap_or_default()),
            inputs::so::SoError::Rasterized => format!("--so-rasterized {}: {e}", rasterized.unwrap_or_default()),
        })
    })?;
    Ok(Some(desc))
}

/// `dxref validate`: the create call's verdict on each input.
pub struct Validate {
    /// The device and call.
    pub options: Options,
    /// `--var`: the array of an fxc /Fh header.
    pub var: Option<String>,
}

impl Validate {
    /// Checks the options that do not depend on an input (before a batch starts).
    pub fn check_options(&self) -> Result<(), Failure> {
        let so = self.so_options();
        if so.given() && self.options.caps.is_some() {
            return Err(Failure::input(
                "--caps applies to Direct3D 9 programs; --so validates a Shader Model 4+ shader with stream output"
                    .into(),
            ));
        }
        if !so.given() && (self.options.so_strides.is_some() || self.options.so_rasterized.is_some()) {
            return Err(Failure::input("--so-strides and --so-rasterized need --so DECL".into()));
        }
        Ok(())
    }

    fn so_options(&self) -> SoOptions<'_> {
        SoOptions {
            so: self.options.so.as_deref(),
            json: self.options.so_json.as_deref(),
            strides: self.options.so_strides.as_deref(),
            rasterized: self.options.so_rasterized.as_deref(),
        }
    }

    /// The verdict on one input: the target it was validated for and the report.
    fn verdict(&self, input: &Input) -> Result<(Target, Option<Caps9>, Report), Failure> {
        let bytes = input::shader(&input.source, self.var.as_deref())?;
        let options = &self.options;
        let target = options.target(&bytes)?;
        let caps9 = options.caps9(&target)?;
        let so = self.so_options().arguments(target.api, &bytes)?;
        let report = match (&so, &caps9) {
            (Some(so), _) => validate::validate_with_so_arguments(&bytes, bytes.len(), &target, so),
            (None, Some(caps)) => validate::validate_with_d3d9_caps(&bytes, bytes.len(), &target, caps),
            (None, None) => validate::validate(&bytes, &target),
        };
        Ok((target, caps9, report))
    }
}

impl batch::Command for Validate {
    fn process(&self, input: &Input, several: bool, mode: Mode) -> batch::Report {
        let (target, caps9, report) = match self.verdict(input) {
            Ok(v) => v,
            Err(f) => return batch::Report::failed(f),
        };
        let name = input.name();
        let status = if report.is_valid() { status::OK } else { status::REFUSED };
        match mode {
            Mode::Text => {
                batch::Report { status, text: Some(text_report(&name, several, &report)), ..Default::default() }
            }
            Mode::Json => batch::Report {
                status,
                json: Some(json_report(&name, &target, caps9.as_ref(), &report)),
                ..Default::default()
            },
            Mode::Jsonl => batch::Report {
                status,
                json: Some(json!({
                    "valid": report.is_valid(),
                    "target": target_json(&target),
                    "shader": shader_json(&report),
                })),
                diagnostics: report.diagnostics.iter().map(diagnostic_json).collect(),
                ..Default::default()
            },
        }
    }

    fn extension(&self, mode: Mode) -> &'static str {
        match mode {
            Mode::Text => "txt",
            _ => "json",
        }
    }

    fn colorize(&self, text: &str) -> String {
        crate::color::report(text)
    }
}

/// `valid` (`PATH: valid` among several), or a line per diagnostic and
/// `refused: N diagnostics`.
fn text_report(name: &str, several: bool, report: &Report) -> String {
    let label = if several { format!("{name}: ") } else { String::new() };
    if report.is_valid() {
        return format!("{label}valid\n");
    }
    let mut s = String::new();
    for d in &report.diagnostics {
        s.push_str(&format!("{name}: {} {}: {} [{}]\n", d.code, d.location, d.message, d.code.title()));
    }
    let n = report.diagnostics.len();
    s.push_str(&format!("{label}refused: {n} diagnostic{}\n", if n == 1 { "" } else { "s" }));
    s
}

fn diagnostic_json(d: &validate::Diagnostic) -> Value {
    json!({
        "severity": "error",
        "code": d.code,
        "title": d.code.title(),
        "message": d.message,
        "location": d.location,
    })
}

fn shader_json(report: &Report) -> Value {
    match &report.shader {
        Some(s) => json!({
            "stage": validate::stage_name(s.stage),
            "model": format!("{}.{}", s.model.0, s.model.1),
            "level9": s.level9,
        }),
        None => Value::Null,
    }
}

/// The target as the user gives it: `{"api": "d3d11", "feature_level": "11_1",
/// "runtime": "11.1", "caps": {...}}`.
fn target_json(target: &Target) -> Value {
    let mut value = json!({ "api": target.api.name() });
    if let Some(level) = target.api.level() {
        value["feature_level"] = json!(level.name());
    }
    if let Api::D3D11 { runtime, caps, .. } = target.api {
        value["runtime"] = json!(runtime.name());
        value["caps"] = json!(caps);
    }
    if let Some(stage) = target.stage {
        value["stage"] = json!(validate::stage_name(stage));
    }
    value
}

fn json_report(name: &str, target: &Target, caps9: Option<&Caps9>, report: &Report) -> Value {
    let mut value = json!({
        "file": name,
        "valid": report.is_valid(),
        "target": target_json(target),
        "shader": shader_json(report),
        "diagnostics": report.diagnostics.iter().map(diagnostic_json).collect::<Vec<_>>(),
    });
    if let Some(caps) = caps9 {
        value["d3d9_caps"] = json!(caps);
    }
    value
}

/// `dxref validate --list-rules`: the rule table, to `out`.
pub fn list_rules(json: bool, out: &mut Output) -> Outcome {
    let text = if json {
        serde_json::to_string_pretty(validate::RULES).unwrap_or_default() + "\n"
    } else {
        validate::RULES.iter().map(|r| format!("{}  {}  ({})\n", r.id, r.title, r.source)).collect()
    };
    let written = out.write(text.as_bytes()).and_then(|_| out.finish(true));
    crate::output::finish(written, status::OK)
}
