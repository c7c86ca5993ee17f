//! `dxref`: the command-line tool. Argument parsing and output formatting only; the
//! work is done by the library crates.
//!
//! Exit status: 0 on success, 2 when an input cannot be read or decoded (and for
//! usage errors), 1 when output cannot be written.

use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::{Parser, Subcommand, ValueEnum};

mod asm;
mod check;
mod info;
mod input;
mod run;

#[derive(Parser)]
#[command(
    name = "dxref",
    version,
    about = "Direct3D shader bytecode toolkit: disassemble, assemble, inspect, validate and run DXBC (Shader Model 4/5, Level9) and Shader Model 1-3 shaders"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Print Microsoft's listing (what fxc /Fc and D3DDisassemble print) of each input.
    Disasm {
        /// DXBC blobs (.cso, .dxbc), raw Shader Model 1-3 streams (.vso, .pso), effects
        /// (.fxo) holding one shader, fxc /Fh headers, or `-` for standard input.
        #[arg(required = true)]
        files: Vec<String>,
        /// Write one listing per input into DIR (as NAME.asm) instead of standard output.
        #[arg(short = 'o', long = "output", value_name = "DIR")]
        output: Option<PathBuf>,
        /// In an fxc /Fh header with several arrays, the one to read.
        #[arg(long = "var", value_name = "NAME")]
        var: Option<String>,
        /// Which Microsoft disassembler's text to reproduce (default: the compiler named in the blob).
        #[arg(long, value_enum)]
        style: Option<StyleArg>,
    },
    /// Assemble a listing (fxc's /Fc text, or hand-written in the same grammar) into a DXBC
    /// container (Shader Model 4/5, Level9), or a raw token stream for a Shader Model 1-3 listing.
    Asm {
        /// The listing, or `-` for standard input.
        file: String,
        /// Where to write the container; `-` for standard output.
        #[arg(short = 'o', long = "output", value_name = "OUT", required = true)]
        output: String,
        /// Write an fxc-style /Fh C header declaring the bytes as `const BYTE NAME[]`.
        #[arg(long = "fh", value_name = "NAME")]
        fh: Option<String>,
        /// Also write a STAT chunk (fxc's statistics) when the listing names no Microsoft compiler.
        #[arg(long)]
        stat: bool,
        /// Validate the result for its own stage on a feature level 11_1 device with the
        /// 11.1 runtime (`dxref validate` for other devices); write nothing and exit 1 if
        /// the runtime would refuse it.
        #[arg(long)]
        validate: bool,
    },
    /// Validate a shader as the Direct3D runtime does when it is created
    /// (ID3D11Device::Create*Shader): print `valid` or each diagnostic; exit 0 when
    /// valid, 1 when refused, 2 when the input cannot be read. A raw Shader Model 1-3
    /// program (vs_1_1 ... ps_3_sw) is validated against its own profile; the Level 9
    /// program of a `*_4_0_level_9_x` blob is validated when --feature-level is 9_x.
    Validate {
        /// A DXBC blob, a raw Shader Model 1-3 program, an fxc /Fh header, a listing
        /// (assembled first), or `-`.
        #[arg(required_unless_present = "list_rules")]
        file: Option<String>,
        /// The create call: vs, hs, ds, gs, ps or cs (default: the shader's own stage).
        #[arg(long)]
        stage: Option<String>,
        /// d3d11 (a device: feature level, runtime, caps) or d3d12 (Shader Model 4.0-5.1 instruction rules).
        #[arg(long, default_value = "d3d11")]
        api: String,
        /// The device's feature level: 9_1, 9_2, 9_3, 10_0, 10_1, 11_0, 11_1.
        #[arg(long = "feature-level", default_value = "11_1")]
        feature_level: String,
        /// The Direct3D 11 runtime: 11.0 or 11.1.
        #[arg(long, default_value = "11.1")]
        runtime: String,
        /// The device supports UAVs at every shader stage (default: yes for 11_1 on the 11.1 runtime).
        #[arg(long = "uav-all-stages", overrides_with = "no_uav_all_stages")]
        uav_all_stages: bool,
        /// The device does not support UAVs at every shader stage.
        #[arg(long = "no-uav-all-stages")]
        no_uav_all_stages: bool,
        /// The device has no double-precision support.
        #[arg(long = "no-doubles")]
        no_doubles: bool,
        /// Validate as CreateGeometryShaderWithStreamOutput with this declaration
        /// (`s1:0:TEXCOORD0.xy; $SKIP.x; ...`, see the README).
        #[arg(long, value_name = "DECL")]
        so: Option<String>,
        /// Stream-output buffer strides in bytes, comma-separated.
        #[arg(long = "so-strides", value_name = "N,...")]
        so_strides: Option<String>,
        /// The rasterized stream: 0..3 or `none`.
        #[arg(long = "so-rasterized", value_name = "N|none")]
        so_rasterized: Option<String>,
        /// Direct3D 9 device caps for vs_2_x / ps_2_x programs (and the slot and constant
        /// counts of 3_0), as key=value,... : dynamic-flow-depth=0..24,
        /// static-flow-depth=0..4 (loop/rep and call nesting; vs_2_x devices have 1..4),
        /// temps=12..32, predication=0|1, arbitrary-swizzle=0|1, gradients=0|1,
        /// no-tex-limit=0|1, no-dependent-read-limit=0|1, ps-slots=96..512,
        /// slots-3-0=512..32768, vs-constants=96..8192. Keys not given keep their default:
        /// the most capable device (24, 4, 32, 1, 1, 1, 1, 1, 512, 32768, 256) for a raw program, what the feature level promises for the
        /// Level 9 program at 9_x (9_1/9_2: 0, 1, 12, no predication; 9_3: the most capable).
        #[arg(long, value_name = "KEY=N,...")]
        caps: Option<String>,
        /// Print JSON instead of text.
        #[arg(long)]
        json: bool,
        /// Print the table of rules (code, title, source) and exit.
        #[arg(long = "list-rules")]
        list_rules: bool,
    },
    /// Run one draw through the reference pipeline (input assembly, vertex shader,
    /// geometry shader, stream output): print the primitives of every stream and the
    /// statistics; write them as JSON (--out) and the rasterized stream as SVG (--svg).
    Run(run::Options),
    /// Show a container's chunks, checksum status, shader version and reflection summary.
    Info {
        /// A DXBC blob, an fxc /Fh header, or `-` for standard input.
        file: String,
        /// In an fxc /Fh header with several arrays, the one to read.
        #[arg(long = "var", value_name = "NAME")]
        var: Option<String>,
        /// Print JSON instead of text.
        #[arg(long)]
        json: bool,
    },
}

#[derive(Clone, Copy, ValueEnum)]
enum StyleArg {
    /// fxc 9.29.952 (June 2010 DirectX SDK).
    #[value(name = "fxc-9.29")]
    Fxc929,
    /// fxc 9.30.9200 (Windows 8 SDK).
    #[value(name = "fxc-9.30")]
    Fxc930,
    /// fxc 10.1 (Windows 10 SDK).
    #[value(name = "fxc-10.1")]
    Fxc101,
    /// D3DDisassemble of d3dcompiler_43.dll (June 2010 DirectX SDK, 9.29.952.3111).
    #[value(name = "d3dcompiler_43")]
    D3dcompiler43,
    /// D3DDisassemble of d3dcompiler_46.dll (Windows 8 SDK, 9.30.9200).
    #[value(name = "d3dcompiler_46")]
    D3dcompiler46,
    /// D3DDisassemble of d3dcompiler_47.dll 6.3.9600 (Windows 8.1 SDK).
    #[value(name = "d3dcompiler_47-6.3")]
    D3dcompiler47Win81,
    /// D3DDisassemble of today's d3dcompiler_47.dll (Windows 10 SDK, fxc 10.1's), as on
    /// a blob without compiler information.
    #[value(name = "d3dcompiler_47", alias = "disassembler")]
    D3dcompiler47,
}

impl StyleArg {
    fn style(self) -> listing::Style {
        use listing::{CompilerVersion as V, Style};
        match self {
            StyleArg::Fxc929 => Style { version: V(9, 29, 952, 3111), disassembler: false },
            StyleArg::Fxc930 => Style { version: V(9, 30, 9200, 20499), disassembler: false },
            StyleArg::Fxc101 => Style { version: V::LATEST, disassembler: false },
            StyleArg::D3dcompiler43 => Style::D3DCOMPILER_43,
            StyleArg::D3dcompiler46 => Style::D3DCOMPILER_46,
            StyleArg::D3dcompiler47Win81 => Style::D3DCOMPILER_47_6_3,
            StyleArg::D3dcompiler47 => Style::D3DCOMPILER_47,
        }
    }
}

/// A failure, with the exit status it maps to.
struct Failure {
    status: u8,
    message: String,
}

impl Failure {
    fn input(message: String) -> Failure {
        Failure { status: 2, message }
    }
    fn output(message: String) -> Failure {
        Failure { status: 1, message }
    }
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Disasm { files, output, var, style } => disasm(&files, output.as_deref(), var.as_deref(), style),
        Command::Info { file, var, json } => info::run(&file, var.as_deref(), json),
        Command::Asm { file, output, fh, stat, validate } => asm::run(&file, &output, fh.as_deref(), stat, validate),
        Command::Run(options) => run::run(&options),
        Command::Validate {
            file,
            stage,
            api,
            feature_level,
            runtime,
            uav_all_stages,
            no_uav_all_stages,
            no_doubles,
            so,
            so_strides,
            so_rasterized,
            caps,
            json,
            list_rules,
        } => {
            if list_rules {
                check::list_rules(json)
            } else {
                let options = check::Options {
                    stage,
                    api,
                    feature_level,
                    runtime,
                    uav_all_stages: if uav_all_stages {
                        Some(true)
                    } else if no_uav_all_stages {
                        Some(false)
                    } else {
                        None
                    },
                    no_doubles,
                    so,
                    so_strides,
                    so_rasterized,
                    caps,
                    json,
                };
                check::run(file.as_deref().unwrap_or("-"), &options)
            }
        }
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(f) => {
            if !f.message.is_empty() {
                eprintln!("dxref: {}", f.message);
            }
            ExitCode::from(f.status)
        }
    }
}

/// Reads an input's blob: a binary file, an fxc /Fh header, or standard input.
pub(crate) fn read_blob(file: &str, var: Option<&str>) -> Result<Vec<u8>, Failure> {
    let bytes = if file == "-" {
        let mut buf = Vec::new();
        std::io::stdin().read_to_end(&mut buf).map_err(|e| Failure::input(format!("<stdin>: {e}")))?;
        buf
    } else {
        std::fs::read(file).map_err(|e| Failure::input(format!("{file}: {e}")))?
    };
    if input::is_effect(&bytes) {
        if var.is_some() {
            return Err(Failure::input(format!("{file}: --var applies to fxc /Fh headers; this is an effect file")));
        }
        let one = input::single_shader(&bytes).map_err(|e| Failure::input(format!("{}: {e}", display_name(file))))?;
        return Ok(bytes[one.range].to_vec());
    }
    if input::family(&bytes) == Some(input::Family::D3dbc) {
        if var.is_some() {
            return Err(Failure::input(format!("{file}: --var applies to fxc /Fh headers; this is a binary file")));
        }
        return Ok(bytes);
    }
    if bytes.starts_with(b"DXBC") || !listing::text::is_text(&bytes) {
        if var.is_some() {
            return Err(Failure::input(format!("{file}: --var applies to fxc /Fh headers; this is a binary file")));
        }
        return Ok(bytes);
    }
    // UTF-8 (with or without a byte-order mark), UTF-16, a terminating NUL.
    let text = listing::text::decode(&bytes).map_err(|e| Failure::input(format!("{}: {e}", display_name(file))))?;
    listing::fxh::pick(&text, var).map(|a| a.bytes).map_err(|e| Failure::input(format!("{file}:{e}")))
}

pub(crate) fn display_name(file: &str) -> &str {
    if file == "-" {
        "<stdin>"
    } else {
        file
    }
}

/// The listing's file name under `-o DIR`: the input's stem with `.asm`.
fn output_name(file: &str) -> String {
    let stem = match file {
        "-" => "stdin".to_string(),
        _ => Path::new(file).file_stem().map_or("stdin".into(), |s| s.to_string_lossy().into_owned()),
    };
    format!("{stem}.asm")
}

fn disasm(files: &[String], output: Option<&Path>, var: Option<&str>, style: Option<StyleArg>) -> Result<(), Failure> {
    let options = listing::Options { style: style.map(StyleArg::style) };
    if let Some(dir) = output {
        // One listing per input: two inputs with the same name would overwrite each other.
        let mut seen = std::collections::HashMap::new();
        for file in files {
            if let Some(first) = seen.insert(output_name(file), file) {
                return Err(Failure::input(format!(
                    "{first} and {file} would both be written to {}",
                    dir.join(output_name(file)).display()
                )));
            }
        }
        std::fs::create_dir_all(dir).map_err(|e| Failure::output(format!("{}: {e}", dir.display())))?;
    }
    let stdout = std::io::stdout();
    let mut first_error = None;
    for file in files {
        let result = read_blob(file, var).and_then(|blob| {
            listing::disassemble(&blob, &options).map_err(|e| Failure::input(format!("{}: {e}", display_name(file))))
        });
        let listing = match result {
            Ok(l) => l,
            Err(f) => {
                eprintln!("dxref: {}", f.message);
                first_error.get_or_insert(f.status);
                continue;
            }
        };
        for w in &listing.warnings {
            eprintln!("dxref: warning: {}: {w}", display_name(file));
        }
        match output {
            Some(dir) => {
                let path = dir.join(output_name(file));
                std::fs::write(&path, &listing.text)
                    .map_err(|e| Failure::output(format!("{}: {e}", path.display())))?;
            }
            None => {
                let mut lock = stdout.lock();
                lock.write_all(listing.text.as_bytes())
                    .and_then(|_| lock.flush())
                    .map_err(|e| Failure::output(format!("<stdout>: {e}")))?;
            }
        }
    }
    match first_error {
        Some(status) if files.len() > 1 => {
            Err(Failure { status, message: "some inputs could not be disassembled".into() })
        }
        Some(status) => Err(Failure { status, message: String::new() }),
        None => Ok(()),
    }
}
