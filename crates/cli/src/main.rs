//! `dxref`: the command-line tool. Arguments here; the work and its formatting are in
//! the library (`src/lib.rs`).
//!
//! The C `main` is defined here (`no_main`) rather than through Rust's start-up code:
//! that code sets up a guard for the main thread's stack by reading and parsing
//! `/proc/self/maps`, about a quarter of the instructions of a short
//! `dxref disasm one.bin` (measured with callgrind), and the tool's recursion is
//! bounded without it (the limits modules). What the start-up code does that matters
//! here is done below: standard arguments are read by `std::env::args_os` as usual
//! (the standard library takes them from the C start-up on Linux and elsewhere), a panic
//! ends with status 101 after its message, and a write to a closed pipe is an error
//! the program handles (`SIGPIPE` ignored) rather than a signal.

#![cfg_attr(not(test), no_main)]

use std::ffi::OsString;
use std::path::PathBuf;

use clap::{Parser, Subcommand, ValueEnum};

use dxref::batch::{self, Mode};
use dxref::color::ColorChoice;
use dxref::output::{self, Output};
use dxref::{asm, check, disasm, info, roundtrip, run, status, translate, walk, Outcome};

/// The exit statuses, for every `--help`.
const EXIT_STATUS: &str = "\
Exit status:
  0  success (every shader valid, every round trip the same)
  1  a shader is refused (validate, asm --validate, run), differs (check) or is not
     translated (translate)
  2  an input cannot be read or decoded, or the command line is wrong
  3  an output cannot be written
With several inputs the highest status met is the exit status; each input that fails is
named on standard error and the others are still done. A closed standard output (as in
`dxref disasm FILE | head`) ends the command quietly with the status so far.";

#[derive(Parser, Debug)]
#[command(
    name = "dxref",
    version,
    about = "Direct3D shader bytecode toolkit: disassemble, assemble, inspect, validate and run DXBC (Shader Model 4/5, Level9) and Shader Model 1-3 shaders",
    after_help = EXIT_STATUS
)]
struct Cli {
    #[command(flatten)]
    global: Global,
    #[command(subcommand)]
    command: Command,
}

/// The options of every command.
#[derive(clap::Args, Debug)]
struct Global {
    /// When to colour listings and messages: auto (on a terminal, unless NO_COLOR is
    /// set), always, never.
    #[arg(long, value_enum, global = true, default_value_t = ColorChoice::Auto, value_name = "WHEN")]
    color: ColorChoice,
}

/// The inputs and outputs of the commands that take many inputs.
#[derive(clap::Args, Debug)]
struct Batch {
    /// Inputs: files, directories (the files directly inside; with --recursive the whole
    /// tree) or `-` for standard input. None: standard input.
    #[arg(value_name = "PATH")]
    paths: Vec<OsString>,
    /// Descend into the directories' subdirectories.
    #[arg(short = 'r', long)]
    recursive: bool,
    /// The extensions of the files taken from directories, comma-separated (`*`: every
    /// file). Files named on the command line are always read.
    #[arg(long, value_name = "EXT,...", default_value = walk::DEFAULT_EXTENSIONS)]
    ext: String,
    /// Write everything to FILE (`-`: standard output, the default).
    #[arg(short = 'o', long = "output", value_name = "FILE", conflicts_with = "out_dir")]
    output: Option<OsString>,
    /// Write one file per input into DIR, named after the input (a directory's files
    /// keep their path below it).
    #[arg(long = "out-dir", value_name = "DIR")]
    out_dir: Option<PathBuf>,
    /// Write one JSON object per line and per input: {"path", "ok", "status",
    /// "diagnostics", "summary"}.
    #[arg(long, conflicts_with = "out_dir")]
    jsonl: bool,
    /// Worker threads (default: one per core).
    #[arg(short = 'j', long, value_name = "N", default_value_t = 0)]
    jobs: usize,
    /// In an fxc /Fh header with several arrays, the one to read.
    #[arg(long = "var", value_name = "NAME")]
    var: Option<String>,
    /// Show a progress bar on standard error (a terminal) from the start; by default
    /// one appears when a batch runs for more than half a second.
    #[arg(long, overrides_with = "no_progress")]
    progress: bool,
    /// Never show a progress bar.
    #[arg(long = "no-progress")]
    no_progress: bool,
}

impl Batch {
    fn plan(self, json: bool) -> Result<batch::Plan, dxref::Failure> {
        let mode = match (self.jsonl, json) {
            (true, _) => Mode::Jsonl,
            (false, true) => Mode::Json,
            (false, false) => Mode::Text,
        };
        batch::Plan::new(
            batch::Args {
                paths: self.paths,
                recursive: self.recursive,
                ext: self.ext,
                output: self.output,
                out_dir: self.out_dir,
                jobs: self.jobs,
                progress: match (self.progress, self.no_progress) {
                    (true, _) => Some(true),
                    (_, true) => Some(false),
                    _ => None,
                },
            },
            mode,
        )
    }
}

/// The optional spellings of `disasm`: D3DDisassemble's flags and dxref's exact floats.
#[derive(clap::Args, Default, Debug)]
struct DisasmFlags {
    /// Which Microsoft disassembler's text to reproduce (default: the compiler named in the blob).
    #[arg(long, value_enum)]
    style: Option<StyleArg>,
    /// Print every float so that `dxref asm` gives back its exact bits: the shortest
    /// decimal that reads back as the same value (3.1415927, not fxc's 3.141593), and
    /// infinities and NaNs as their bits (0x7fc00001). Not Microsoft's text.
    #[arg(long = "exact-floats")]
    exact_floats: bool,
    /// Number the instructions (fxc /Ni, D3D_DISASM_ENABLE_INSTRUCTION_NUMBERING).
    #[arg(long = "number-instructions")]
    number_instructions: bool,
    /// Print each line's byte offset in the program (fxc /No, D3D_DISASM_ENABLE_INSTRUCTION_OFFSET).
    #[arg(long = "byte-offsets")]
    byte_offsets: bool,
    /// Print immediate values as hex words (fxc /Lx, D3D_DISASM_PRINT_HEX_LITERALS).
    #[arg(long = "hex-literals")]
    hex_literals: bool,
    /// The `// Generated by` text for a blob without a creator string (default: dxref's
    /// name); `microsoft` prints D3DDisassemble's own "Microsoft (R) D3D Shader Disassembler".
    #[arg(long = "generated-by", value_name = "TEXT")]
    generated_by: Option<String>,
}

impl DisasmFlags {
    fn options(&self) -> listing::Options {
        let generated_by = self.generated_by.as_deref().map(|text| match text {
            "microsoft" => listing::header::DISASSEMBLER,
            // Read once per run: the listing options hold it for the whole process.
            other => &*Box::leak(other.to_string().into_boxed_str()),
        });
        listing::Options {
            style: self.style.map(StyleArg::style),
            exact_floats: self.exact_floats,
            number_instructions: self.number_instructions,
            byte_offsets: self.byte_offsets,
            hex_literals: self.hex_literals,
            generated_by,
        }
    }
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Print Microsoft's listing (what fxc /Fc and D3DDisassemble print) of each input:
    /// DXBC blobs (.cso, .dxbc), raw Shader Model 1-3 streams (.vso, .pso), effects (.fxo)
    /// holding one shader, fxc /Fh headers. Several inputs: each listing after a
    /// `// file: PATH` line.
    #[command(after_help = EXIT_STATUS)]
    Disasm(DisasmArgs),
    /// Assemble a listing (fxc's /Fc text, or hand-written in the same grammar) into a DXBC
    /// container (Shader Model 4/5, Level9), or a raw token stream for a Shader Model 1-3 listing
    /// or hand-written Shader Model 1-3 source as D3DAssemble reads it (`vs.1.1`, `;` comments,
    /// the preprocessor; #include relative to the source's folder).
    #[command(after_help = EXIT_STATUS)]
    Asm(AsmArgs),
    /// Validate shaders as the Direct3D runtime does when it creates them
    /// (ID3D11Device::Create*Shader, ID3D10Device::Create*Shader,
    /// IDirect3DDevice9::Create*Shader): print `valid` or each diagnostic. Inputs: DXBC
    /// blobs, raw Shader Model 1-3 programs, fxc /Fh headers, listings (assembled first).
    /// A raw Shader Model 1-3 program (vs_1_1 ... ps_3_sw) is validated against its own
    /// profile (--api d3d9, the default for such a program); Direct3D 10 and 11 create
    /// calls refuse it. The Level 9 program of a `*_4_0_level_9_x` blob is validated when
    /// --feature-level is 9_x.
    #[command(after_help = EXIT_STATUS)]
    Validate(ValidateCmd),
    /// Check that each blob survives `dxref disasm` then `dxref asm`: the program chunk
    /// byte for byte, the signatures, a Level9 blob's Direct3D 9 mapping tables and
    /// program instructions, a raw Shader Model 1-3 stream's instructions (not RDEF,
    /// STAT, SFI0, IFCE or comment blocks, which a listing does not carry whole). Prints
    /// `PATH: same` or `PATH: differs: ...`; exit 1 when one differs.
    #[command(after_help = EXIT_STATUS, alias = "roundtrip")]
    Check(DisasmArgs),
    /// Run one draw through the reference pipeline (input assembly, vertex shader,
    /// geometry shader, stream output): print the primitives of every stream and the
    /// statistics; write them as JSON (--out) and draw them (--svg, --png). With --cs,
    /// one dispatch of a compute shader instead: print its UAVs after it and
    /// CSInvocations.
    #[command(after_help = EXIT_STATUS)]
    Run(Box<run::Options>),
    /// Print a completion script for SHELL on standard output (`dxref completions bash >
    /// /etc/bash_completion.d/dxref`, `dxref completions zsh > ~/.zfunc/_dxref`, ...).
    Completions {
        /// bash, elvish, fish, powershell or zsh.
        #[arg(value_enum)]
        shell: clap_complete::Shell,
    },
    /// Print the manual page (roff) on standard output (`dxref man > dxref.1`,
    /// `dxref man | man -l -`); with a command, that command's page (`dxref man disasm >
    /// dxref-disasm.1`).
    Man {
        /// The command whose page to print (default: the tool's own page).
        command: Option<String>,
    },
    /// Show each container's chunks, checksum status, shader version and reflection
    /// summary.
    #[command(after_help = EXIT_STATUS)]
    Info(InfoArgs),
    /// Translate a Shader Model 4.0-5.1 vertex, pixel or compute shader to WGSL, SPIR-V,
    /// MSL, GLSL or HLSL (through naga, validated first). Bindings: cb# group 0, t#
    /// group 1, s# group 2, u# group 3, binding = register number (a UAV's hidden
    /// counter uc# group 3, binding 64 + register), unless --bindings says otherwise;
    /// Shader Model 5.1's register space s in the class's group + 4*s, a range of
    /// several registers a binding array at its first register's binding.
    /// Typed buffer views (Buffer<T>, RWBuffer<T>) are storage buffers of their elements'
    /// bytes, converted in the shader by the format --buffer-format gives.
    /// What is not translated yet is an error naming the instruction.
    /// A geometry shader becomes a native geometry shader in SPIR-V (--to spirv) or
    /// GLSL 4.50 for Vulkan (--to glsl; --opengl: for desktop OpenGL), --so as transform
    /// feedback; naga's other back ends have no geometry stage, so other targets refuse
    /// it unless --gs-as-compute lowers it to compute passes behind a pass-through
    /// vertex shader. With --pipeline VS GS, a vertex and a geometry shader
    /// lowered to four compute passes (vertex, expand, scan, compact).
    #[command(after_help = EXIT_STATUS)]
    Translate(TranslateArgs),
}

/// `translate`.
#[derive(clap::Args, Debug)]
struct TranslateArgs {
    /// The shader: a DXBC blob or an fxc /Fh header (none or `-`: standard input).
    file: Option<OsString>,
    /// The language to write: wgsl, spirv (binary), msl, glsl or hlsl.
    #[arg(long, value_name = "LANG")]
    to: String,
    /// Where to write (`-`: standard output, the default).
    #[arg(short = 'o', long = "output", value_name = "FILE")]
    output: Option<OsString>,
    /// A file of `REGISTER = GROUP:BINDING` lines (`cb0 = 0:0`, `t3 = 1:7`; `#` comments;
    /// `t3 space1 = 2:7` for a Shader Model 5.1 register space) placing registers
    /// elsewhere than the default mapping, and `REGISTER = FORMAT` lines as
    /// --buffer-format takes.
    #[arg(long, value_name = "FILE")]
    bindings: Option<OsString>,
    /// The element format of typed buffer view REGISTER (`t3=R8G8B8A8_UNORM`,
    /// `u1=R32_UINT`), which the bytecode does not hold; repeatable. A view not named is
    /// read as R32G32B32A32_FLOAT, _UINT or _SINT (its declared return type; stride 16
    /// bytes), or R32_UINT/R32_SINT/R32_FLOAT when atomics use it. Formats: R32G32B32A32,
    /// R32G32B32, R32G32, R32 (FLOAT, UINT, SINT), R16G16B16A16, R16G16, R16 (FLOAT, UNORM,
    /// SNORM, UINT, SINT), R8G8B8A8, R8G8, R8 (UNORM, SNORM, UINT, SINT), R10G10B10A2_UNORM,
    /// R10G10B10A2_UINT, R11G11B10_FLOAT, A8_UNORM, B8G8R8A8_UNORM, B8G8R8X8_UNORM.
    #[arg(long = "buffer-format", value_name = "REGISTER=FORMAT")]
    buffer_formats: Vec<String>,
    /// The array to read from an fxc /Fh header holding several.
    #[arg(long, value_name = "NAME")]
    var: Option<String>,
    /// Binds a class instance to interface slot SLOT (`fp#` + index), as *SetShader
    /// does: function table TABLE (`ft#` or its number) and, after a colon, its `this[]`
    /// register (constant buffer, vector offset in it, first texture, first sampler);
    /// repeatable. A slot not named gets the first table its declaration lists and
    /// `this` = 0,0,0,0.
    #[arg(long = "interface", value_name = "[fp]SLOT=TABLE[:CB,OFFSET,TEXTURE,SAMPLER]")]
    interfaces: Vec<String>,
    /// A vertex and a geometry shader lowered to compute passes (no FILE then). With -o
    /// PREFIX each pass goes to PREFIX.PASS.EXT; otherwise the text passes follow each
    /// other on standard output.
    #[arg(long, num_args = 2, value_names = ["VS", "GS"], conflicts_with = "file")]
    pipeline: Option<Vec<OsString>>,
    /// With --pipeline or --gs-as-compute: the draw's topology (pointlist, linelist,
    /// linestrip, trianglelist, trianglestrip, linelist_adj, linestrip_adj,
    /// trianglelist_adj, trianglestrip_adj; default: the list the geometry shader's input primitive takes).
    #[arg(long, value_name = "NAME")]
    topology: Option<String>,
    /// A geometry shader FILE lowered to the four compute passes of --pipeline, behind a
    /// generated vertex shader that passes each element of its input signature through
    /// (from the vertex element of the same semantic), instead of a native SPIR-V
    /// geometry shader.
    #[arg(long, conflicts_with = "pipeline")]
    gs_as_compute: bool,
    /// With --to glsl and a geometry shader: GLSL for desktop OpenGL (`binding` without
    /// `set`, the position's depth in OpenGL's clip space as naga's GLSL vertex shaders
    /// write it) instead of GLSL for Vulkan.
    #[arg(long, conflicts_with_all = ["pipeline", "gs_as_compute"])]
    opengl: bool,
    /// The stream-output declaration (`SV_Position.xyzw; 1:TEXCOORD0.xy`), for
    /// --pipeline, --gs-as-compute, or a native geometry shader (transform feedback:
    /// XfbBuffer = output slot).
    #[arg(long, value_name = "DECL")]
    so: Option<String>,
    /// With --so: each slot's stride in bytes, comma-separated.
    #[arg(long, value_name = "N,N..", requires = "so")]
    so_strides: Option<String>,
    /// With --so: the rasterized stream (0..3 or `none`; default 0).
    #[arg(long, value_name = "N", requires = "so")]
    rasterized_stream: Option<String>,
}

/// `disasm` and `check`.
#[derive(clap::Args, Debug)]
struct DisasmArgs {
    #[command(flatten)]
    batch: Batch,
    #[command(flatten)]
    flags: DisasmFlags,
}

/// `asm`.
#[derive(clap::Args, Debug)]
struct AsmArgs {
    /// The listing (none or `-`: standard input).
    file: Option<OsString>,
    /// Where to write the container (`-`: standard output, the default unless it is
    /// a terminal).
    #[arg(short = 'o', long = "output", value_name = "FILE")]
    output: Option<OsString>,
    /// Write an fxc-style /Fh C header declaring the bytes as `const BYTE NAME[]`.
    #[arg(long = "fh", value_name = "NAME")]
    fh: Option<String>,
    /// Also write a STAT chunk (fxc's statistics) when the listing names no Microsoft compiler.
    #[arg(long)]
    stat: bool,
    /// Validate the result for its own stage on a feature level 11_1 device with the
    /// 11.1 runtime (a Shader Model 1-3 program: against its own Direct3D 9 profile;
    /// `dxref validate` for other devices); write nothing and exit 1 if the runtime
    /// would refuse it.
    #[arg(long)]
    validate: bool,
    /// Shader Model 1-3 source: encode what the per-version rules forbid but the token
    /// format can hold (with warnings), instead of refusing it.
    #[arg(long)]
    lenient: bool,
}

/// `validate`.
#[derive(clap::Args, Debug)]
struct ValidateCmd {
    #[command(flatten)]
    batch: Batch,
    #[command(flatten)]
    target: ValidateArgs,
    /// Print JSON instead of text (an array of reports for several inputs).
    #[arg(long)]
    json: bool,
    /// Print the table of rules (code, title, source) and exit.
    #[arg(long = "list-rules")]
    list_rules: bool,
}

/// `info`.
#[derive(clap::Args, Debug)]
struct InfoArgs {
    #[command(flatten)]
    batch: Batch,
    /// Print JSON instead of text (an array of reports for several inputs).
    #[arg(long)]
    json: bool,
}

/// The device and call `validate` checks against.
#[derive(clap::Args, Debug)]
struct ValidateArgs {
    /// The create call: vs, hs, ds, gs, ps or cs (default: the shader's own stage).
    #[arg(long)]
    stage: Option<String>,
    /// d3d11 (a device: feature level, runtime, caps; the default for a DXBC
    /// container), d3d10 (ID3D10Device at 10_0, ID3D10Device1 at 10_1), d3d9 (a raw
    /// Shader Model 1-3 program against its profile; the default for such a program)
    /// or d3d12 (Shader Model 4.0-5.1 instruction rules).
    #[arg(long)]
    api: Option<String>,
    /// The device's feature level: 9_1, 9_2, 9_3, 10_0, 10_1, 11_0, 11_1 (default
    /// 11_1; with --api d3d10: 10_0 or 10_1, default 10_0).
    #[arg(long = "feature-level")]
    feature_level: Option<String>,
    /// The Direct3D 11 runtime: 11.0 or 11.1 (default 11.1).
    #[arg(long)]
    runtime: Option<String>,
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
    /// Validate as CreateGeometryShaderWithStreamOutput with the arguments in this
    /// JSON file, as a program passes them: {"declaration": [{"stream", "semantic_name"
    /// (null: a gap), "semantic_index", "start_component", "component_count",
    /// "output_slot"}] or null, "num_entries", "strides": [...] or null,
    /// "num_strides", "rasterized_stream"}; with --api d3d10 "output_stream_stride"
    /// instead of the strides and rasterized stream (see docs/VALIDATION.md).
    #[arg(long = "so-json", value_name = "FILE")]
    so_json: Option<String>,
    /// Stream-output buffer strides in bytes, comma-separated (--api d3d10: one,
    /// the OutputStreamStride).
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
}

impl ValidateArgs {
    fn options(self) -> check::Options {
        check::Options {
            stage: self.stage,
            api: self.api,
            feature_level: self.feature_level,
            runtime: self.runtime,
            uav_all_stages: if self.uav_all_stages {
                Some(true)
            } else if self.no_uav_all_stages {
                Some(false)
            } else {
                None
            },
            no_doubles: self.no_doubles,
            so: self.so,
            so_json: self.so_json,
            so_strides: self.so_strides,
            so_rasterized: self.so_rasterized,
            caps: self.caps,
        }
    }
}

#[derive(Clone, Copy, ValueEnum, Debug)]
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

#[cfg(not(test))]
#[no_mangle]
extern "C" fn main(_argc: std::ffi::c_int, _argv: *const *const std::ffi::c_char) -> std::ffi::c_int {
    #[cfg(unix)]
    // SAFETY: setting a signal's disposition to "ignore" runs no handler code; this is
    // what Rust's own start-up does for SIGPIPE.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_IGN);
    }
    match std::panic::catch_unwind(run) {
        Ok(status) => std::ffi::c_int::from(status),
        // The panic hook has printed the message.
        Err(_) => 101,
    }
}

#[cfg_attr(test, allow(dead_code))]
fn run() -> u8 {
    let cli = parse();
    output::set_color(cli.global.color);
    let status = match command(cli.command) {
        Ok(()) => 0,
        Err(f) => {
            output::error(&f.message);
            f.status
        }
    };
    // Rust's start-up code would flush standard output at exit; `println!` buffers it.
    use std::io::Write as _;
    let _ = std::io::stdout().flush();
    status
}

/// The command line. Start-up is lazy: the usual case — one command, no `--help` —
/// builds the parser of that command alone (building all of them is most of a short
/// run's time); anything else goes through the whole parser, which then prints the
/// help or the error.
fn parse() -> Cli {
    let args: Vec<OsString> = std::env::args_os().collect();
    parse_one(&args).unwrap_or_else(|| Cli::parse_from(args))
}

fn parse_one(args: &[OsString]) -> Option<Cli> {
    use clap::{Args, FromArgMatches};
    if let Some(cli) = paths_only(args) {
        return Some(cli);
    }
    // The command's name, after the global options.
    let mut i = 1;
    let name = loop {
        let arg = args.get(i)?.to_str()?;
        match arg {
            "--color" => i += 2,
            _ if arg.starts_with("--color=") => i += 1,
            _ if arg.starts_with('-') => return None,
            _ => break arg,
        }
    };
    // Help and version texts come from the whole parser.
    if args.iter().any(|a| matches!(a.to_str(), Some("-h" | "--help" | "-V" | "--version" | "help"))) {
        return None;
    }
    let sub = match name {
        "disasm" => DisasmArgs::augment_args(clap::Command::new("disasm")),
        "check" | "roundtrip" => DisasmArgs::augment_args(clap::Command::new("check").alias("roundtrip")),
        "info" => InfoArgs::augment_args(clap::Command::new("info")),
        "validate" => ValidateCmd::augment_args(clap::Command::new("validate")),
        "asm" => AsmArgs::augment_args(clap::Command::new("asm")),
        "run" => run::Options::augment_args(clap::Command::new("run")),
        "translate" => TranslateArgs::augment_args(clap::Command::new("translate")),
        _ => return None,
    };
    let top = Global::augment_args(clap::Command::new("dxref")).subcommand(sub).subcommand_required(true);
    let matches = top.try_get_matches_from(args).ok()?;
    Cli::from_arg_matches(&matches).ok()
}

/// `dxref disasm|info|validate|check PATH...` with no option at all: no parser is
/// built (a unit test keeps these defaults equal to the parser's).
fn paths_only(args: &[OsString]) -> Option<Cli> {
    let name = args.get(1)?.to_str()?;
    let paths = args.get(2..)?;
    // `-` (standard input) is a path; anything else starting with `-` is an option.
    if paths.iter().any(|a| a.to_str().is_none_or(|s| s.starts_with('-') && s != "-")) {
        return None;
    }
    let batch = Batch {
        paths: paths.to_vec(),
        recursive: false,
        ext: walk::DEFAULT_EXTENSIONS.to_string(),
        output: None,
        out_dir: None,
        jsonl: false,
        jobs: 0,
        var: None,
        progress: false,
        no_progress: false,
    };
    let command = match name {
        "disasm" => Command::Disasm(DisasmArgs { batch, flags: DisasmFlags::default() }),
        "check" | "roundtrip" => Command::Check(DisasmArgs { batch, flags: DisasmFlags::default() }),
        "info" => Command::Info(InfoArgs { batch, json: false }),
        "validate" => Command::Validate(ValidateCmd {
            batch,
            target: ValidateArgs {
                stage: None,
                api: None,
                feature_level: None,
                runtime: None,
                uav_all_stages: false,
                no_uav_all_stages: false,
                no_doubles: false,
                so: None,
                so_json: None,
                so_strides: None,
                so_rasterized: None,
                caps: None,
            },
            json: false,
            list_rules: false,
        }),
        _ => return None,
    };
    Some(Cli { global: Global { color: ColorChoice::Auto }, command })
}

fn command(command: Command) -> Outcome {
    match command {
        Command::Disasm(DisasmArgs { batch, flags }) => {
            let command = disasm::Disasm { options: flags.options(), var: batch.var.clone() };
            batch::run(&command, batch.plan(false)?)
        }
        Command::Info(InfoArgs { batch, json }) => {
            let command = info::Info { var: batch.var.clone() };
            batch::run(&command, batch.plan(json)?)
        }
        Command::Validate(ValidateCmd { batch, target, json, list_rules }) => {
            if list_rules {
                return check::list_rules(json, &mut Output::new(batch.output.as_deref()));
            }
            let command = check::Validate { options: target.options(), var: batch.var.clone() };
            command.check_options()?;
            batch::run(&command, batch.plan(json)?)
        }
        Command::Check(DisasmArgs { batch, flags }) => {
            let command = roundtrip::Check { options: flags.options(), var: batch.var.clone() };
            batch::run(&command, batch.plan(false)?)
        }
        Command::Asm(AsmArgs { file, output, fh, stat, validate, lenient }) => asm::run(&asm::Options {
            file: file.as_deref(),
            output: output.as_deref(),
            fh: fh.as_deref(),
            statistics: stat,
            check: validate,
            lenient,
        }),
        Command::Run(options) => run::run(&options),
        Command::Translate(TranslateArgs {
            file,
            to,
            output,
            bindings,
            buffer_formats,
            var,
            interfaces,
            pipeline,
            topology,
            so,
            so_strides,
            rasterized_stream,
            gs_as_compute,
            opengl,
        }) => translate::run(&translate::Options {
            file: file.as_deref(),
            to: &to,
            output: output.as_deref(),
            bindings: bindings.as_deref(),
            buffer_formats: &buffer_formats,
            var: var.as_deref(),
            interfaces: &interfaces,
            pipeline: pipeline.as_deref().and_then(|p| match p {
                [vs, gs] => Some((vs.as_os_str(), gs.as_os_str())),
                _ => None,
            }),
            topology: topology.as_deref(),
            so: so.as_deref(),
            so_strides: so_strides.as_deref(),
            rasterized_stream: rasterized_stream.as_deref(),
            gs_as_compute,
            opengl,
        }),
        Command::Completions { shell } => {
            use clap::CommandFactory;
            let mut script = Vec::new();
            clap_complete::generate(shell, &mut Cli::command(), "dxref", &mut script);
            write_stdout(&script)
        }
        Command::Man { command } => {
            use clap::CommandFactory;
            let top = Cli::command();
            let cmd = match command {
                None => top,
                Some(name) => {
                    let Some(sub) = top.find_subcommand(&name) else {
                        return Err(dxref::Failure::input(format!("man: no command `{name}`")));
                    };
                    // The page is named after the command as a whole: dxref-disasm(1).
                    sub.clone().name(format!("dxref-{}", sub.get_name()))
                }
            };
            let mut page = Vec::new();
            clap_mangen::Man::new(cmd)
                .render(&mut page)
                .map_err(|e| dxref::Failure::output(format!("the manual page: {e}")))?;
            write_stdout(&page)
        }
    }
    .or_else(|f| if f.status == status::OK { Ok(()) } else { Err(f) })
}

/// Writes `bytes` to standard output (a closed pipe ends quietly).
fn write_stdout(bytes: &[u8]) -> Outcome {
    let mut out = Output::new(None);
    let written = out.write(bytes).and_then(|_| out.finish(false));
    output::finish(written, status::OK)
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;

    fn args(list: &[&str]) -> Vec<OsString> {
        std::iter::once("dxref").chain(list.iter().copied()).map(OsString::from).collect()
    }

    #[test]
    fn the_whole_parser_is_well_formed() {
        Cli::command().debug_assert();
    }

    #[test]
    fn one_command_is_parsed_by_its_own_parser_alone() {
        // The usual invocations take the short path...
        for list in [
            &["disasm", "a.bin"][..],
            &["--color", "always", "disasm", "-r", "dir", "--jsonl"],
            &["--color=never", "info", "a.bin", "--json"],
            &["validate", "a.bin", "--feature-level", "10_0", "--color", "always"],
            &["check", "a.bin"],
            &["roundtrip", "a.bin"],
            &["asm", "a.asm", "-o", "a.bin"],
            &["run", "--vs", "vs.asm", "--input", "v.json"],
            &["translate", "a.bin", "--to", "wgsl", "-o", "a.wgsl"],
        ] {
            let cli = parse_one(&args(list)).unwrap_or_else(|| panic!("{list:?}"));
            let full = Cli::try_parse_from(args(list)).unwrap();
            assert_eq!(cli.global.color, full.global.color, "{list:?}");
            let name = |c: &Command| match c {
                Command::Disasm(a) => ("disasm", a.batch.paths.clone()),
                Command::Check(a) => ("check", a.batch.paths.clone()),
                Command::Info(a) => ("info", a.batch.paths.clone()),
                Command::Validate(a) => ("validate", a.batch.paths.clone()),
                Command::Asm(a) => ("asm", a.file.iter().cloned().collect()),
                Command::Run(a) => ("run", a.vs.iter().cloned().collect()),
                Command::Translate(a) => ("translate", a.file.iter().cloned().collect()),
                Command::Completions { .. } => ("completions", Vec::new()),
                Command::Man { .. } => ("man", Vec::new()),
            };
            assert_eq!(name(&cli.command), name(&full.command), "{list:?}");
        }
        assert_eq!(parse_one(&args(&["--color", "always", "disasm", "x"])).unwrap().global.color, ColorChoice::Always);
        // Paths alone: no parser at all, and the same values as the parser's.
        for list in [
            &["disasm", "a.bin", "-", "dir"][..],
            &["info", "a.bin"],
            &["validate", "a.bin", "b.bin"],
            &["check", "a.bin"],
            &["roundtrip", "a.bin"],
            &["disasm"],
        ] {
            let short = paths_only(&args(list)).unwrap_or_else(|| panic!("{list:?}"));
            let full = Cli::try_parse_from(args(list)).unwrap();
            assert_eq!(format!("{short:?}"), format!("{full:?}"), "{list:?}");
        }
        for list in [&["disasm", "a.bin", "-r"][..], &["disasm", "--", "a.bin"], &["asm", "a.asm"], &["run"]] {
            assert!(paths_only(&args(list)).is_none(), "{list:?}");
        }
        // ... help, version, mistakes and unknown commands the whole parser.
        for list in [
            &["--help"][..],
            &["disasm", "--help"],
            &["-V"],
            &["help", "disasm"],
            &["disasm", "--no-such-option"],
            &["frobnicate"],
            &[],
        ] {
            assert!(parse_one(&args(list)).is_none(), "{list:?}");
        }
    }
}
