//! What a shader is validated for: the API, the device's feature level, the runtime
//! version, its optional capabilities, and the stage the create call makes.

use serde::Serialize;
use tpf::ProgramType;

/// A Direct3D feature level.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
pub enum FeatureLevel {
    /// `D3D_FEATURE_LEVEL_9_1`: vertex and pixel shaders, run as the Level 9 program
    /// of a `*_4_0_level_9_1` container (Shader Model 2.0).
    L9_1,
    /// `D3D_FEATURE_LEVEL_9_2`: as 9_1.
    L9_2,
    /// `D3D_FEATURE_LEVEL_9_3`: also `*_4_0_level_9_3` containers.
    L9_3,
    /// `D3D_FEATURE_LEVEL_10_0`: Shader Model 4.0, vertex, geometry and pixel shaders
    /// (compute shaders 4.0 where the driver reports them).
    L10_0,
    /// `D3D_FEATURE_LEVEL_10_1`: Shader Model 4.1.
    L10_1,
    /// `D3D_FEATURE_LEVEL_11_0`: Shader Model 5.0, every stage.
    L11_0,
    /// `D3D_FEATURE_LEVEL_11_1`.
    L11_1,
}

impl FeatureLevel {
    /// Every level, lowest first.
    pub const ALL: [FeatureLevel; 7] = [
        FeatureLevel::L9_1,
        FeatureLevel::L9_2,
        FeatureLevel::L9_3,
        FeatureLevel::L10_0,
        FeatureLevel::L10_1,
        FeatureLevel::L11_0,
        FeatureLevel::L11_1,
    ];

    /// `"11_0"`.
    pub fn name(self) -> &'static str {
        match self {
            FeatureLevel::L9_1 => "9_1",
            FeatureLevel::L9_2 => "9_2",
            FeatureLevel::L9_3 => "9_3",
            FeatureLevel::L10_0 => "10_0",
            FeatureLevel::L10_1 => "10_1",
            FeatureLevel::L11_0 => "11_0",
            FeatureLevel::L11_1 => "11_1",
        }
    }

    /// Parses `11_0`, `11.0`, `D3D_FEATURE_LEVEL_11_0`.
    pub fn parse(s: &str) -> Option<FeatureLevel> {
        let s = s.trim();
        let s = s.strip_prefix("D3D_FEATURE_LEVEL_").unwrap_or(s).replace('.', "_");
        FeatureLevel::ALL.into_iter().find(|l| l.name() == s)
    }

    /// True for the 9_x levels.
    pub fn is_9_x(self) -> bool {
        self <= FeatureLevel::L9_3
    }
}

impl std::fmt::Display for FeatureLevel {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// The Direct3D 11 runtime version.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
pub enum Runtime {
    /// Direct3D 11.0 (Windows 7).
    D3D11_0,
    /// Direct3D 11.1 (Windows 8 and later).
    D3D11_1,
}

impl Runtime {
    /// Parses `11.0` / `11.1` (also `11_0`, `11_1`).
    pub fn parse(s: &str) -> Option<Runtime> {
        match s.trim() {
            "11.0" | "11_0" | "11" => Some(Runtime::D3D11_0),
            "11.1" | "11_1" => Some(Runtime::D3D11_1),
            _ => None,
        }
    }
    /// `"11.0"` or `"11.1"`.
    pub fn name(self) -> &'static str {
        match self {
            Runtime::D3D11_0 => "11.0",
            Runtime::D3D11_1 => "11.1",
        }
    }
}

/// The UAV slots of a Shader Model 5 stage on a Direct3D 11 device at feature level
/// 11_0 or above: `D3D11_1_UAV_SLOT_COUNT` (64) at feature level 11_1 on the 11.1
/// runtime, `D3D11_PS_CS_UAV_REGISTER_COUNT` (8) otherwise (a `cs_4_x` shader has
/// `D3D11_CS_4_X_UAV_REGISTER_COUNT`, 1).
pub fn sm5_uav_slots(level: FeatureLevel, runtime: Runtime) -> u32 {
    if runtime == Runtime::D3D11_1 && level >= FeatureLevel::L11_1 {
        64
    } else {
        8
    }
}

/// Optional device capabilities (what `CheckFeatureSupport` reports).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
pub struct Caps {
    /// UAVs at every shader stage (11.1 runtime, feature level 11_1 or a driver that
    /// reports it).
    pub uavs_at_every_stage: bool,
    /// `D3D11_FEATURE_DOUBLES`.
    pub doubles: bool,
    /// `D3D11_FEATURE_DATA_D3D11_OPTIONS.ExtendedDoublesShaderInstructions`.
    pub extended_doubles: bool,
    /// `D3D11_FEATURE_DATA_D3D11_OPTIONS` shader extensions of 11.1 (`msad`...).
    pub shader_extensions_11_1: bool,
    /// `ComputeShaders_Plus_RawAndStructuredBuffers_Via_Shader_4_x` (10.x devices).
    pub compute_on_10_x: bool,
    /// Comparison filtering on feature level 9 (`D3D11_FEATURE_D3D9_SHADOW_SUPPORT`).
    pub level9_comparison_filtering: bool,
}

impl Caps {
    /// What a typical device of `level` on `runtime` reports: everything the level
    /// can have (doubles from 11_0, UAVs at every stage with 11_1 on 11.1, ...).
    pub fn typical(level: FeatureLevel, runtime: Runtime) -> Caps {
        let d3d11 = level >= FeatureLevel::L11_0;
        let r111 = runtime == Runtime::D3D11_1;
        Caps {
            uavs_at_every_stage: r111 && level >= FeatureLevel::L11_1,
            doubles: d3d11,
            extended_doubles: d3d11 && r111,
            shader_extensions_11_1: d3d11 && r111,
            compute_on_10_x: level >= FeatureLevel::L10_0,
            level9_comparison_filtering: r111,
        }
    }
}

/// The API a shader is validated for.
///
/// Direct3D 10, 11 and 12 create calls take DXBC containers; a Direct3D 9 create call
/// (`IDirect3DDevice9::CreateVertexShader` / `CreatePixelShader`) takes a raw Shader
/// Model 1–3 token stream. Bytecode of the other kind is refused (V116).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
pub enum Api {
    /// A Direct3D 9 device: a raw Shader Model 1–3 program against its own profile's
    /// rules, with the device's [`Caps9`](crate::Caps9) (`validate_with_d3d9_caps`).
    D3D9,
    /// A Direct3D 10 device (`ID3D10Device`, feature level 10_0, Shader Model 4.0) or a
    /// Direct3D 10.1 device (`ID3D10Device1`, 10_0 or 10_1, Shader Model 4.0 and 4.1):
    /// vertex, geometry and pixel shaders, and Direct3D 10's stream output.
    D3D10 {
        /// 10_0 or 10_1.
        level: FeatureLevel,
    },
    /// A Direct3D 11 device: feature level, runtime and capabilities.
    D3D11 {
        /// The device's feature level.
        level: FeatureLevel,
        /// The runtime the application runs on.
        runtime: Runtime,
        /// The optional capabilities its driver reports.
        caps: Caps,
    },
    /// Direct3D 12: Shader Model 4.0 to 5.1, the instruction-level rules only
    /// (stage, model, registers, geometry-shader limits and streams).
    D3D12,
}

impl Api {
    /// The feature level of a Direct3D 10 or 11 device.
    pub fn level(self) -> Option<FeatureLevel> {
        match self {
            Api::D3D10 { level } | Api::D3D11 { level, .. } => Some(level),
            Api::D3D9 | Api::D3D12 => None,
        }
    }

    /// The device a Direct3D 10 or 11 create call checks a container against: its
    /// feature level, runtime and capabilities. A Direct3D 10 device is modelled as
    /// the Direct3D 11.0 runtime's device of its level with no optional capabilities
    /// (no compute shaders, no doubles, no UAVs outside pixel shaders).
    pub fn device(self) -> Option<(FeatureLevel, Runtime, Caps)> {
        match self {
            Api::D3D11 { level, runtime, caps } => Some((level, runtime, caps)),
            Api::D3D10 { level } => Some((
                level,
                Runtime::D3D11_0,
                Caps {
                    uavs_at_every_stage: false,
                    doubles: false,
                    extended_doubles: false,
                    shader_extensions_11_1: false,
                    compute_on_10_x: false,
                    level9_comparison_filtering: false,
                },
            )),
            Api::D3D9 | Api::D3D12 => None,
        }
    }

    /// `d3d9`, `d3d10`, `d3d11`, `d3d12`.
    pub fn name(self) -> &'static str {
        match self {
            Api::D3D9 => "d3d9",
            Api::D3D10 { .. } => "d3d10",
            Api::D3D11 { .. } => "d3d11",
            Api::D3D12 => "d3d12",
        }
    }
}

/// What to validate against.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
pub struct Target {
    /// The API and device.
    pub api: Api,
    /// The stage the create call makes; `None`: the shader's own.
    #[serde(skip)]
    pub stage: Option<ProgramType>,
}

impl Target {
    /// A Direct3D 11 device with the typical capabilities of its level.
    pub fn d3d11(level: FeatureLevel, runtime: Runtime) -> Target {
        Target { api: Api::D3D11 { level, runtime, caps: Caps::typical(level, runtime) }, stage: None }
    }
    /// A Direct3D 10 device of `level` (10_0 or 10_1; [`Api::D3D10`]).
    pub fn d3d10(level: FeatureLevel) -> Target {
        Target { api: Api::D3D10 { level }, stage: None }
    }
    /// A Direct3D 9 device: raw Shader Model 1–3 programs.
    pub fn d3d9() -> Target {
        Target { api: Api::D3D9, stage: None }
    }
    /// Direct3D 12.
    pub fn d3d12() -> Target {
        Target { api: Api::D3D12, stage: None }
    }
    /// The same target for a create call of `stage`.
    pub fn for_stage(mut self, stage: ProgramType) -> Target {
        self.stage = Some(stage);
        self
    }
}

impl Default for Target {
    /// Feature level 11_1 on the 11.1 runtime.
    fn default() -> Target {
        Target::d3d11(FeatureLevel::L11_1, Runtime::D3D11_1)
    }
}

/// A stage's short name (`gs`), from the table the listing uses.
pub fn stage_name(stage: ProgramType) -> &'static str {
    stage.listing_name().unwrap_or("unknown")
}

/// Parses `vs`, `hs`, `ds`, `gs`, `ps`, `cs`.
pub fn parse_stage(s: &str) -> Option<ProgramType> {
    [
        ProgramType::Vertex,
        ProgramType::Hull,
        ProgramType::Domain,
        ProgramType::Geometry,
        ProgramType::Pixel,
        ProgramType::Compute,
    ]
    .into_iter()
    .find(|t| t.listing_name() == Some(s.trim()))
}
