//! `ID3D11Device`: its description and the shader-creation calls.

use crate::hresult::HResult;
use crate::linkage::ClassLinkage;
use std::sync::Arc;
use tpf::ProgramType;
use validate::{
    Api, Caps, Diagnostic, FeatureLevel, ProgramFacts, Report, Runtime, SoArguments, StreamOutputDesc, Target,
};

/// What the device is: its feature level, the runtime it runs on, and the optional
/// capabilities its driver reports.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct DeviceDesc {
    /// The feature level the device was created at (`D3D11CreateDevice`'s
    /// `pFeatureLevel`).
    pub feature_level: FeatureLevel,
    /// The Direct3D 11 runtime: 11.0 (Windows 7) or 11.1 (Windows 8 and later).
    pub runtime: Runtime,
    /// The optional capabilities the driver reports (`CheckFeatureSupport`).
    pub caps: Caps,
}

impl DeviceDesc {
    /// A device of `feature_level` on `runtime` with the capabilities a typical device
    /// of that level reports ([`Caps::typical`]).
    pub fn new(feature_level: FeatureLevel, runtime: Runtime) -> DeviceDesc {
        DeviceDesc { feature_level, runtime, caps: Caps::typical(feature_level, runtime) }
    }

    /// All the capabilities at once.
    pub fn caps(mut self, caps: Caps) -> DeviceDesc {
        self.caps = caps;
        self
    }

    /// UAVs at every shader stage (what the remarks of Microsoft's
    /// ID3D11Device::CreateGeometryShader page call a device that supports UAVs at
    /// every shader stage; the 11.1 runtime is needed too).
    pub fn uavs_at_every_stage(mut self, on: bool) -> DeviceDesc {
        self.caps.uavs_at_every_stage = on;
        self
    }

    /// `D3D11_FEATURE_DOUBLES`.
    pub fn doubles(mut self, on: bool) -> DeviceDesc {
        self.caps.doubles = on;
        self
    }

    /// `ExtendedDoublesShaderInstructions`.
    pub fn extended_doubles(mut self, on: bool) -> DeviceDesc {
        self.caps.extended_doubles = on;
        self
    }

    /// The 11.1 shader extensions (`msad`).
    pub fn shader_extensions_11_1(mut self, on: bool) -> DeviceDesc {
        self.caps.shader_extensions_11_1 = on;
        self
    }

    /// Compute shaders and raw/structured buffers on 10.x hardware.
    pub fn compute_on_10_x(mut self, on: bool) -> DeviceDesc {
        self.caps.compute_on_10_x = on;
        self
    }

    /// Comparison filtering on feature level 9.
    pub fn level9_comparison_filtering(mut self, on: bool) -> DeviceDesc {
        self.caps.level9_comparison_filtering = on;
        self
    }

    /// What the validator checks a create call of `stage` against (`None`: the
    /// shader's own stage).
    pub fn target(&self, stage: Option<ProgramType>) -> Target {
        Target { api: Api::D3D11 { level: self.feature_level, runtime: self.runtime, caps: self.caps }, stage }
    }
}

impl Default for DeviceDesc {
    /// Feature level 11_1 on the 11.1 runtime, typical capabilities.
    fn default() -> DeviceDesc {
        DeviceDesc::new(FeatureLevel::L11_1, Runtime::D3D11_1)
    }
}

/// What a create call returns: the `HRESULT`, and the validator's diagnostics (empty
/// unless the call failed; what the debug layer would print).
#[derive(Debug, Clone, PartialEq, Eq)]
#[must_use = "the HRESULT says whether the shader was created"]
pub struct Created {
    /// `S_OK` (created), `S_FALSE` (valid, no out parameter) or `E_INVALIDARG`.
    pub hr: HResult,
    /// Why the call failed, one per rule broken (each with its stable code and
    /// where); empty when it succeeded.
    pub diagnostics: Vec<Diagnostic>,
}

impl Created {
    /// `SUCCEEDED(hr)` (`S_OK` or `S_FALSE`).
    pub fn succeeded(&self) -> bool {
        self.hr.succeeded()
    }
    /// `FAILED(hr)`.
    pub fn failed(&self) -> bool {
        self.hr.failed()
    }
    /// True when some diagnostic has `code`.
    pub fn has(&self, code: validate::Code) -> bool {
        self.diagnostics.iter().any(|d| d.code == code)
    }
}

#[derive(Debug)]
struct ShaderData {
    kind: ProgramType,
    program_stage: ProgramType,
    model: (u8, u8),
    level9: bool,
    program: bool,
    bytecode: Arc<[u8]>,
    facts: ProgramFacts,
    stream_output: Option<StreamOutputDesc>,
    linkage: Option<ClassLinkage>,
}

/// A created shader object (`ID3D11VertexShader`, ..., `ID3D11ComputeShader`: one type,
/// told apart by [`stage`](Shader::stage)). It owns a copy of its bytecode. Cloning
/// gives another reference to the same object.
#[derive(Debug, Clone)]
pub struct Shader(Arc<ShaderData>);

impl Shader {
    /// The kind of shader object the call created: the stage of the create call
    /// (`Geometry` for `CreateGeometryShaderWithStreamOutput`, whatever the bytecode).
    pub fn stage(&self) -> ProgramType {
        self.0.kind
    }
    /// The stage of the bytecode's program (a vertex or domain shader can be given to
    /// `CreateGeometryShaderWithStreamOutput`).
    pub fn program_stage(&self) -> ProgramType {
        self.0.program_stage
    }
    /// The shader model, `(major, minor)`.
    pub fn model(&self) -> (u8, u8) {
        self.0.model
    }
    /// The container carries a Level 9 program (`*_4_0_level_9_x`).
    pub fn is_level9(&self) -> bool {
        self.0.level9
    }
    /// False for a stream-output object created from an output signature alone (no
    /// geometry shader: the vertices go straight to stream output).
    pub fn has_program(&self) -> bool {
        self.0.program
    }
    /// The bytecode, as given to the create call.
    pub fn bytecode(&self) -> &[u8] {
        &self.0.bytecode
    }
    /// The shared copy of the bytecode.
    pub fn bytecode_arc(&self) -> Arc<[u8]> {
        self.0.bytecode.clone()
    }
    /// What the validator learnt about the program.
    pub fn facts(&self) -> &ProgramFacts {
        &self.0.facts
    }
    /// The stream-output declaration it was created with, if any.
    pub fn stream_output(&self) -> Option<&StreamOutputDesc> {
        self.0.stream_output.as_ref()
    }
    /// The class linkage it was created with, if any.
    pub fn class_linkage(&self) -> Option<&ClassLinkage> {
        self.0.linkage.as_ref()
    }
    /// True when both are references to the same shader object.
    pub fn ptr_eq(&self, other: &Shader) -> bool {
        Arc::ptr_eq(&self.0, &other.0)
    }
}

/// `ID3D11Device`, as far as shader creation goes.
#[derive(Debug, Clone)]
pub struct Device {
    desc: DeviceDesc,
}

impl Device {
    /// A device as `desc` describes it.
    pub fn new(desc: DeviceDesc) -> Device {
        Device { desc }
    }

    /// `ID3D11Device::GetFeatureLevel`.
    pub fn feature_level(&self) -> FeatureLevel {
        self.desc.feature_level
    }

    /// The runtime version.
    pub fn runtime(&self) -> Runtime {
        self.desc.runtime
    }

    /// The whole description.
    pub fn desc(&self) -> &DeviceDesc {
        &self.desc
    }

    /// `ID3D11Device::CreateVertexShader`.
    pub fn create_vertex_shader(
        &self,
        bytecode: &[u8],
        length: usize,
        linkage: Option<&ClassLinkage>,
        out: Option<&mut Option<Shader>>,
    ) -> Created {
        self.create(ProgramType::Vertex, bytecode, length, None, linkage, out)
    }

    /// `ID3D11Device::CreateHullShader`.
    pub fn create_hull_shader(
        &self,
        bytecode: &[u8],
        length: usize,
        linkage: Option<&ClassLinkage>,
        out: Option<&mut Option<Shader>>,
    ) -> Created {
        self.create(ProgramType::Hull, bytecode, length, None, linkage, out)
    }

    /// `ID3D11Device::CreateDomainShader`.
    pub fn create_domain_shader(
        &self,
        bytecode: &[u8],
        length: usize,
        linkage: Option<&ClassLinkage>,
        out: Option<&mut Option<Shader>>,
    ) -> Created {
        self.create(ProgramType::Domain, bytecode, length, None, linkage, out)
    }

    /// `ID3D11Device::CreateGeometryShader` (Microsoft's reference page).
    pub fn create_geometry_shader(
        &self,
        bytecode: &[u8],
        length: usize,
        linkage: Option<&ClassLinkage>,
        out: Option<&mut Option<Shader>>,
    ) -> Created {
        self.create(ProgramType::Geometry, bytecode, length, None, linkage, out)
    }

    /// `ID3D11Device::CreatePixelShader`.
    pub fn create_pixel_shader(
        &self,
        bytecode: &[u8],
        length: usize,
        linkage: Option<&ClassLinkage>,
        out: Option<&mut Option<Shader>>,
    ) -> Created {
        self.create(ProgramType::Pixel, bytecode, length, None, linkage, out)
    }

    /// `ID3D11Device::CreateComputeShader`.
    pub fn create_compute_shader(
        &self,
        bytecode: &[u8],
        length: usize,
        linkage: Option<&ClassLinkage>,
        out: Option<&mut Option<Shader>>,
    ) -> Created {
        self.create(ProgramType::Compute, bytecode, length, None, linkage, out)
    }

    /// `ID3D11Device::CreateGeometryShaderWithStreamOutput`: `so` holds
    /// `pSODeclaration`/`NumEntries`, `pBufferStrides`/`NumStrides` and
    /// `RasterizedStream`. The bytecode may be a geometry, vertex or domain shader; the
    /// object created is a geometry shader.
    pub fn create_geometry_shader_with_stream_output(
        &self,
        bytecode: &[u8],
        length: usize,
        so: &StreamOutputDesc,
        linkage: Option<&ClassLinkage>,
        out: Option<&mut Option<Shader>>,
    ) -> Created {
        self.create(ProgramType::Geometry, bytecode, length, Some(&SoArguments::from_desc(so)), linkage, out)
    }

    /// [`create_geometry_shader_with_stream_output`](Self::create_geometry_shader_with_stream_output)
    /// with the arguments exactly as a program passes them ([`SoArguments`]: a NULL
    /// `pSODeclaration` or `pBufferStrides` apart from an empty array, counts apart
    /// from the arrays). Fields Direct3D 11's call does not have
    /// (`output_stream_stride`) are refused (`E_INVALIDARG`, V613).
    pub fn create_geometry_shader_with_so_arguments(
        &self,
        bytecode: &[u8],
        length: usize,
        so: &SoArguments,
        linkage: Option<&ClassLinkage>,
        out: Option<&mut Option<Shader>>,
    ) -> Created {
        if let Err(message) = so.check_shape(self.desc.target(None).api) {
            if let Some(slot) = out {
                *slot = None;
            }
            let diagnostic = Diagnostic::new(
                validate::Code::SoFeatureLevel,
                validate::Location::StreamOutput { entry: None },
                message,
            );
            return Created { hr: HResult::E_INVALIDARG, diagnostics: vec![diagnostic] };
        }
        self.create(ProgramType::Geometry, bytecode, length, Some(so), linkage, out)
    }

    /// `ID3D11Device::CreateClassLinkage`: a new, empty linkage (this never fails in
    /// the model).
    pub fn create_class_linkage(&self) -> Result<ClassLinkage, HResult> {
        Ok(ClassLinkage::new())
    }

    /// Every create call: validate, then answer as the runtime does.
    fn create(
        &self,
        kind: ProgramType,
        bytecode: &[u8],
        length: usize,
        so: Option<&SoArguments>,
        linkage: Option<&ClassLinkage>,
        mut out: Option<&mut Option<Shader>>,
    ) -> Created {
        // The out object is empty unless the call creates one.
        if let Some(slot) = out.as_deref_mut() {
            *slot = None;
        }
        // A raw Shader Model 1-3 program is refused by the validator (V116): Direct3D 11
        // create calls take DXBC containers; feature level 9 devices run the Level 9
        // program of a `*_4_0_level_9_x` container.
        let report: Report = match so {
            // CreateGeometryShaderWithStreamOutput takes vertex, domain and geometry
            // shaders: the validator's stream-output rules check the stage, so the
            // target names none.
            Some(so) => validate::validate_with_so_arguments(bytecode, length, &self.desc.target(None), so),
            None => validate::validate_call(bytecode, length, &self.desc.target(Some(kind))),
        };
        if !report.is_valid() {
            return Created { hr: HResult::E_INVALIDARG, diagnostics: report.diagnostics };
        }
        let (Some(info), Some(facts)) = (report.shader, report.facts) else {
            // Accepted without having decoded the program: the validator never does
            // this; refuse rather than create a shader the model knows nothing about.
            return Created { hr: HResult::E_FAIL, diagnostics: Vec::new() };
        };
        let Some(slot) = out else {
            // "If this is NULL, all other parameters will be validated; if validation
            // passes, [the call] returns S_FALSE instead of S_OK." Nothing is created,
            // so nothing is registered with the linkage.
            return Created { hr: HResult::S_FALSE, diagnostics: Vec::new() };
        };
        // An accepted call has length == bytecode.len() (rule V101).
        let bytes = bytecode.get(..length).unwrap_or(bytecode);
        if let Some(linkage) = linkage {
            linkage.register(bytes);
        }
        *slot = Some(Shader(Arc::new(ShaderData {
            kind,
            program_stage: info.stage,
            model: info.model,
            level9: info.level9,
            program: info.program,
            bytecode: Arc::from(bytes),
            facts,
            stream_output: so.map(|so| so.read().0),
            linkage: linkage.cloned(),
        })));
        Created { hr: HResult::S_OK, diagnostics: Vec::new() }
    }
}
