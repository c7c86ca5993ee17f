//! The rules, one row each: a stable code, a short title, and where the rule comes
//! from. Diagnostics carry a [`Code`]; `docs/VALIDATION.md` lists the same table (a
//! test keeps the two equal).

use serde::Serialize;

macro_rules! codes {
    ($( $(#[$m:meta])* $variant:ident = $id:literal, $title:literal, $source:literal; )*) => {
        /// A rule of the validator. The string form (`V303`) never changes meaning.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum Code {
            $( $(#[$m])* $variant, )*
        }

        /// Every rule: its code, its id, its title and its source.
        pub static RULES: &[Rule] = &[
            $( Rule { code: Code::$variant, id: $id, title: $title, source: $source }, )*
        ];

        impl Code {
            /// The stable id (`V303`).
            pub fn id(self) -> &'static str {
                match self { $( Code::$variant => $id, )* }
            }
        }
    };
}

/// One row of [`RULES`].
#[derive(Debug, Clone, Copy, Serialize)]
pub struct Rule {
    /// The rule.
    #[serde(skip)]
    pub code: Code,
    /// Its stable id (`V303`): the first digit is the family (1 the call and the
    /// container, 2 instructions and registers, 3 geometry-shader output limits, 4
    /// geometry-shader streams, 5 UAVs and optional features, 6 stream output, 7
    /// register files and resource limits, 8 tessellation declarations, 9 Direct3D 9
    /// profiles).
    pub id: &'static str,
    /// A short statement of what is refused.
    pub title: &'static str,
    /// Where the rule is written: a Microsoft reference page, a section of the
    /// Direct3D 11.3 functional spec, or a `d3d11.h` constant.
    pub source: &'static str,
}

impl Code {
    /// This code's row.
    pub fn rule(self) -> &'static Rule {
        RULES.iter().find(|r| r.code == self).expect("every code has a row")
    }
    /// The rule's title.
    pub fn title(self) -> &'static str {
        self.rule().title
    }
    /// The code whose id is `id` (`"V303"`).
    pub fn from_id(id: &str) -> Option<Code> {
        RULES.iter().find(|r| r.id.eq_ignore_ascii_case(id)).map(|r| r.code)
    }
}

impl std::fmt::Display for Code {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.id())
    }
}

impl Serialize for Code {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.id())
    }
}

codes! {
    // ---- V1xx: the call and the container ----
    /// The length passed with the bytecode is not the container's size.
    BytecodeLength = "V101", "bytecode length disagrees with the container size", "Microsoft's ID3D11Device::CreateGeometryShader page: pShaderBytecode, BytecodeLength";
    /// The container cannot be parsed.
    ContainerUnreadable = "V102", "container cannot be read", "DXBC container format";
    /// The stored checksum is not the checksum of the bytes.
    Checksum = "V103", "container checksum does not match its contents", "DXBC container format";
    /// No `SHDR`/`SHEX` chunk.
    MissingProgram = "V104", "no program chunk (SHDR/SHEX)", "DXBC container format";
    /// More than one program chunk.
    DuplicateProgram = "V105", "more than one program chunk", "DXBC container format";
    /// The program cannot be decoded.
    ProgramUnreadable = "V106", "program cannot be decoded", "D3D12TokenizedProgramFormat.hpp";
    /// A signature chunk the stage needs is missing.
    MissingSignature = "V107", "required signature chunk missing", "functional spec 4.4 (signatures)";
    /// A chunk the runtime reads cannot be parsed.
    ChunkUnreadable = "V108", "chunk cannot be read", "DXBC container format";
    /// The shader's type is not the one the create call makes.
    WrongStage = "V109", "shader type does not match the create call", "ID3D11Device::Create*Shader";
    /// The shader model needs a higher feature level.
    ModelFeatureLevel = "V110", "shader model not supported at this feature level", "Direct3D feature levels";
    /// The stage does not exist at the device's feature level.
    StageFeatureLevel = "V111", "shader stage not supported at this feature level", "Direct3D feature levels";
    /// Shader Model 5.1 and later are Direct3D 12 shaders.
    Direct3D12Only = "V112", "Shader Model 5.1 shaders are Direct3D 12 shaders", "Direct3D 12: Shader Model 5.1";
    /// The version token names no known stage or model.
    UnknownModel = "V113", "unknown shader type or model", "D3D12TokenizedProgramFormat.hpp";
    /// A feature level 9 device runs the Level 9 program, which is missing.
    Level9ProgramMissing = "V114", "no Level 9 program (Aon9) for a feature level 9 device", "Direct3D feature levels: 9_x";
    /// The Level 9 program needs a higher 9_x level.
    Level9Version = "V115", "Level 9 program needs a higher feature level", "Direct3D feature levels: 9_x";
    /// A raw Shader Model 1–3 program given to a Direct3D 10, 11 or 12 create call, or
    /// a DXBC container given to a Direct3D 9 one.
    BytecodeApi = "V116", "bytecode of another API's format", "Microsoft's ID3D11Device::CreateVertexShader and ID3D10Device::CreateVertexShader pages (a compiled shader, Getting a Pointer to a Compiled Shader); IDirect3DDevice9::CreateVertexShader page (pFunction: the shader function token array)";
    /// Hull, domain and compute shaders have no create call in Direct3D 10.
    StageApi = "V117", "no create call for this stage in Direct3D 10", "Microsoft's ID3D10Device interface page (CreateVertexShader, CreateGeometryShader, CreatePixelShader)";

    // ---- V2xx: instruction and register tables ----
    /// The instruction does not exist in this stage.
    InstructionStage = "V201", "instruction not available in this stage", "instruction reference pages (stage tables)";
    /// The instruction does not exist in this shader model.
    InstructionModel = "V202", "instruction not available in this shader model", "instruction reference pages (minimum shader model)";
    /// The register type does not exist in this stage.
    OperandStage = "V203", "register type not available in this stage", "functional spec 22.1 (register files per stage)";
    /// The register type does not exist in this shader model.
    OperandModel = "V204", "register type not available in this shader model", "functional spec 22.1 (register files per stage)";
    /// A declaration that may appear once appears again.
    DuplicateDeclaration = "V205", "declaration repeated", "functional spec 22.3";
    /// Flow control nested deeper than 64 levels.
    FlowControlNesting = "V206", "flow control nested deeper than 64", "D3D11_COMMONSHADER_FLOWCONTROL_NESTING_LIMIT";
    /// `else`/`endif`/`endloop`/`case`/`break`... without the construct they belong to,
    /// or a construct left open.
    FlowControlStructure = "V207", "flow-control instruction outside its construct", "functional spec 22.7 (flow control)";

    // ---- V3xx: geometry-shader output limits and declarations ----
    /// `dcl_inputprimitive`, `dcl_outputtopology` or `dcl_maxout` missing.
    GsMissingDeclaration = "V301", "geometry shader declaration missing", "functional spec 22.3.5, 22.3.6, 22.3.8";
    /// `dcl_maxout` outside 1..=1024.
    GsMaxVertexCount = "V302", "dcl_maxOutputVertexCount outside 1..1024", "Microsoft's dcl_maxOutputVertexCount page; D3D11_GS_MAX_OUTPUT_VERTEX_COUNT_ACROSS_INSTANCES";
    /// Declared output scalars × maximum vertex count over 1024.
    GsOutputRecordSize = "V303", "output scalars x max vertex count exceeds 1024", "Microsoft's dcl_maxOutputVertexCount page; functional spec 13.3, 22.3.5";
    /// `dcl_gsinstances` outside 1..=32.
    GsInstanceCount = "V304", "GS instance count outside 1..32", "functional spec 22.3.7; D3D11_GS_MAX_INSTANCE_COUNT";
    /// Instance count × maximum vertex count over 1024.
    GsInstanceVertexCount = "V305", "GS instances x max vertex count exceeds 1024", "functional spec 22.3.7; D3D11_GS_MAX_OUTPUT_VERTEX_COUNT_ACROSS_INSTANCES";
    /// Input declarations disagree with the input primitive's vertex count.
    GsInputVertexCount = "V306", "GS input array size does not match the input primitive", "functional spec 13.10, 22.3.6";
    /// Output topology other than pointlist, linestrip, trianglestrip.
    GsOutputTopology = "V307", "GS output topology not pointlist, linestrip or trianglestrip", "functional spec 22.3.8";
    /// Input primitive undefined, or a patch before Shader Model 5.
    GsInputPrimitive = "V308", "GS input primitive invalid", "functional spec 22.3.6";

    // ---- V4xx: geometry-shader streams ----
    /// The stream operand is not an immediate `m0`..`m3`.
    StreamOperand = "V401", "stream operand is not an immediate stream 0..3", "Microsoft's cut_stream page; functional spec 22.8.2, 22.8.4, 22.8.6";
    /// The stream named is not declared.
    StreamNotDeclared = "V402", "stream not declared", "Microsoft's cut_stream page; functional spec 22.8.2";
    /// `emit`, `cut` or `emit_then_cut` when streams are declared.
    PlainEmitWithStreams = "V403", "emit/cut used although streams are declared", "functional spec 22.8.1, 22.8.3, 22.8.5";
    /// `emit_stream`, `cut_stream` or `emit_then_cut_stream` when no stream is declared.
    StreamEmitWithoutStreams = "V404", "_stream instruction used although no stream is declared", "Microsoft's cut_stream page; functional spec 22.8.2";
    /// A stream declared twice.
    StreamDeclaredTwice = "V405", "stream declared twice", "functional spec 22.3.9";
    /// `dcl_stream` after an output or topology declaration.
    StreamAfterOutputs = "V406", "first dcl_stream after output declarations", "functional spec 22.3.9";
    /// Several streams but a topology other than pointlist.
    MultiStreamTopology = "V407", "several streams require pointlist output", "functional spec 13.5.2";
    /// A declared stream has no `dcl_outputtopology`.
    StreamTopologyMissing = "V408", "stream has no output topology declaration", "functional spec 13.5.2";

    // ---- V5xx: UAVs and optional features ----
    /// UAV use outside pixel and compute shaders on the 11.0 runtime.
    UavStageRuntime = "V501", "UAVs outside pixel and compute shaders need the Direct3D 11.1 runtime", "Microsoft's ID3D11Device::CreateGeometryShader page, remarks";
    /// UAV use outside pixel and compute shaders on a device without UAVs at every stage.
    UavStageDevice = "V502", "device does not support UAVs at every shader stage", "Microsoft's ID3D11Device::CreateGeometryShader page, remarks";
    /// A UAV slot beyond the device's range.
    UavSlot = "V503", "UAV slot beyond the device's supported range", "Microsoft's ID3D11Device::CreateGeometryShader page; D3D11_PS_CS_UAV_REGISTER_COUNT, D3D11_1_UAV_SLOT_COUNT, D3D11_CS_4_X_UAV_REGISTER_COUNT";
    /// The shader needs an optional feature the device does not have.
    FeatureUnsupported = "V504", "shader requires a feature the device does not support", "SFI0 / D3D_SHADER_REQUIRES_*; ID3D11Device::CheckFeatureSupport";
    /// A Shader Model 4.x compute shader uses a UAV kind it cannot have.
    Cs4xUav = "V505", "Shader Model 4.x compute shaders have one raw or structured UAV, u0", "Compute shaders on Direct3D 10.x hardware";

    // ---- V6xx: stream-output declarations ----
    /// Stream output given for a shader that is not a VS, DS or GS.
    SoStage = "V601", "stream output needs a vertex, domain or geometry shader", "CreateGeometryShaderWithStreamOutput";
    /// Too many declaration entries, or none where the call creates only stream output.
    SoEntryCount = "V602", "stream-output entry count out of range", "Microsoft's ID3D11Device::CreateGeometryShaderWithStreamOutput and ID3D10Device::CreateGeometryShaderWithStreamOutput pages (pSODeclaration, NumEntries); functional spec 14.3 (NumEntries)";
    /// An entry's stream is not 0..3, or not 0 where only one stream exists.
    SoStream = "V603", "stream-output entry names an invalid stream", "D3D11_SO_STREAM_COUNT; functional spec 14";
    /// An entry's output slot is not 0..3.
    SoOutputSlot = "V604", "stream-output slot outside 0..3", "D3D11_SO_BUFFER_SLOT_COUNT";
    /// Start component / component count out of range.
    SoComponents = "V605", "stream-output component range invalid", "D3D11_SO_DECLARATION_ENTRY; D3D10_SO_DECLARATION_ENTRY";
    /// The semantic is not an output of the shader (on that stream).
    SoSemanticNotFound = "V606", "stream-output semantic not in the output signature", "D3D11_SO_DECLARATION_ENTRY";
    /// The components are not all written by the output element.
    SoComponentsNotOutput = "V607", "stream-output components not in the output element's mask", "D3D11_SO_DECLARATION_ENTRY (StartComponent); functional spec 14.3 (offsets within elements; RegisterMask a subset of the output's mask)";
    /// One buffer receives data from more than one stream.
    SoSlotStreams = "V608", "one stream-output buffer receives data from several streams", "functional spec 13.5.1";
    /// Stride count or stride value invalid.
    SoStride = "V609", "stream-output buffer stride invalid", "Microsoft's CreateGeometryShaderWithStreamOutput pages (pBufferStrides, NumStrides; OutputStreamStride); functional spec 14.3; D3D11_SO_BUFFER_MAX_STRIDE_IN_BYTES";
    /// Rasterized stream not 0..3 or D3D11_SO_NO_RASTERIZED_STREAM.
    SoRasterizedStream = "V610", "rasterized stream invalid", "D3D11_SO_NO_RASTERIZED_STREAM";
    /// Too many components in one stream.
    SoComponentCount = "V611", "too many stream-output components", "D3D11_SO_OUTPUT_COMPONENT_COUNT";
    /// The same output component written twice.
    SoDuplicate = "V612", "stream-output component declared twice", "CreateGeometryShaderWithStreamOutput";
    /// Restrictions of feature level 10.x stream output.
    SoFeatureLevel = "V613", "stream-output declaration not supported at this feature level", "functional spec 14 (changes from D3D10); Microsoft's ID3D10Device::CreateGeometryShaderWithStreamOutput page";
    /// An output slot that receives nothing but gaps.
    SoOnlyGaps = "V614", "stream-output buffer receives only gaps", "D3D11_MESSAGE_ID_CREATEGEOMETRYSHADERWITHSTREAMOUTPUT_CANTHAVEONLYGAPS";

    // ---- V8xx: tessellation declarations ----
    /// A hull or domain shader without a declaration it needs.
    TessMissingDeclaration = "V801", "tessellation declaration missing", "functional spec 10.6, 11.7.15, 22.3.15-22.3.19";
    /// Control point count out of range.
    TessControlPointCount = "V802", "control point count out of range", "functional spec 11.7.15, 22.3.18, 22.3.19";
    /// maxTessFactor outside 1.0..64.0.
    TessMaxTessFactor = "V803", "maxTessFactor outside 1.0..64.0", "functional spec 22.3.20";
    /// Output primitive not valid for the domain, or an undefined value.
    TessOutputPrimitive = "V804", "tessellator output primitive invalid for the domain", "functional spec 11.7.15";

    // ---- V7xx: register files and resource limits ----
    /// A register index beyond its file.
    RegisterRange = "V701", "register index beyond the register file", "functional spec 22.1; d3d11.h register counts";
    /// More than 4096 temporaries (r# plus x#).
    TempCount = "V702", "more than 4096 temporary registers", "D3D11_COMMONSHADER_TEMP_REGISTER_COUNT";
    /// A constant buffer over 4096 vectors.
    ConstantBufferSize = "V703", "constant buffer larger than 4096 vectors", "D3D11_REQ_CONSTANT_BUFFER_ELEMENT_COUNT";
    /// Thread-group size out of range.
    ThreadGroupSize = "V704", "compute thread-group size out of range", "D3D11_CS_THREAD_GROUP_MAX_*; D3D11_CS_4_X_THREAD_GROUP_MAX_*";
    /// Thread-group shared memory over the limit.
    TgsmSize = "V705", "thread-group shared memory over the limit", "D3D11_CS_TGSM_REGISTER_COUNT";
    /// A compute shader without `dcl_thread_group`.
    ThreadGroupMissing = "V706", "compute shader without dcl_thread_group", "functional spec 22.3.x (thread group declaration)";

    // ---- V9xx: Direct3D 9 profiles (SM1-3 programs, Level 9 programs) ----
    /// The SM1–3 program cannot be decoded.
    D3d9Unreadable = "V901", "Direct3D 9 program cannot be decoded", "Direct3D 9 shader codes (instruction, parameter, comment, end tokens)";
    /// The version token is not a Direct3D 9 profile.
    D3d9Profile = "V902", "version is not a Direct3D 9 shader profile", "vs and ps version instruction pages (main and sub versions)";
    /// An instruction the profile does not have.
    D3d9Instruction = "V903", "instruction not available in this Direct3D 9 profile", "instruction pages (shader version tables), via the d3dbc instruction table";
    /// A vs_2_x / ps_2_x instruction that needs a capability the device lacks.
    D3d9InstructionCap = "V904", "instruction needs a device capability (vs_2_x, ps_2_x)", "vs_2_x, ps_2_x pages: D3DVS20CAPS, D3DPSHADERCAPS2_0";
    /// A register type or file the profile does not have, or used the wrong way.
    D3d9RegisterType = "V905", "register not available in this Direct3D 9 profile", "Registers - vs_1_1 ... vs_3_0, ps_1_x ... ps_3_0 (register types, R/W)";
    /// A register index beyond the profile's register file.
    D3d9RegisterRange = "V906", "register index beyond the profile's register file", "Registers - vs_*/ps_* (Count); Software Shaders; D3DCAPS9";
    /// Relative addressing the profile does not allow on that register.
    D3d9RelativeAddressing = "V907", "relative addressing not allowed on this register", "Registers - vs_*/ps_* (RelAddr)";
    /// A register that requires a declaration used without one.
    D3d9Declaration = "V908", "register used without its declaration", "Registers - vs_*/ps_* (Requires DCL)";
    /// An instruction or source modifier the profile does not have.
    D3d9Modifier = "V909", "modifier not available in this Direct3D 9 profile", "Instruction Modifiers (vs); Modifiers for ps_2_0 and Above; Source Register Modifiers (vs, ps)";
    /// A pixel-shader source swizzle the profile does not allow.
    D3d9Swizzle = "V910", "source swizzle not available in this pixel shader profile", "Source Register Swizzling (ps)";
    /// More instruction slots than the profile allows.
    D3d9Slots = "V911", "more instruction slots than the profile allows", "vs_*/ps_* profile pages (Instruction Count); instruction pages (slots)";
    /// A flow-control instruction outside its construct.
    D3d9FlowStructure = "V912", "Direct3D 9 flow-control instruction outside its construct", "if, else, endif, rep, loop, break pages (nesting, no straddling)";
    /// Labels, calls and returns out of place.
    D3d9Subroutine = "V913", "subroutine, label or call invalid", "label, call, callnz, ret pages";
    /// Static nesting over the limit.
    D3d9StaticNesting = "V914", "static flow-control nesting over the limit", "Microsoft's vertex-shader flow-control limits page (vs); Flow Control Limitations (ps)";
    /// Dynamic nesting over the limit.
    D3d9DynamicNesting = "V915", "dynamic flow-control nesting over the limit", "Microsoft's vertex-shader flow-control limits page (vs); Flow Control Limitations (ps); DynamicFlowControlDepth";
    /// Loop/rep nesting over the limit.
    D3d9LoopNesting = "V916", "loop/rep nesting over the limit", "Microsoft's vertex-shader flow-control limits page (vs); Flow Control Limitations (ps); StaticFlowControlDepth";
    /// Call nesting over the limit.
    D3d9CallNesting = "V917", "call nesting over the limit", "Microsoft's vertex-shader flow-control limits page (vs); Flow Control Limitations (ps); StaticFlowControlDepth";
    /// Static flow count over the limit.
    D3d9StaticFlowCount = "V918", "static flow count over the limit", "Microsoft's vertex-shader flow-control limits page (vs_2_0, vs_2_x: 16)";
    /// The call graph is too large to walk.
    D3d9FlowTooComplex = "V919", "flow control too complex to check", "dxref (walk budget)";
    /// The Level 9 program's type is not the container program's.
    Level9Stage = "V920", "Level 9 program's shader type differs from the container's program", "Direct3D feature levels: 9_x";
    /// The loop counter register aL read outside a `loop` block.
    D3d9LoopCounter = "V921", "aL used outside a loop...endloop block", "Loop Counter Register (vs, ps); loop - vs, loop - ps";
    /// An operand that must use a replicate swizzle does not.
    D3d9Replicate = "V922", "operand needs a replicate swizzle", "if_comp, break_comp, if pred, callnz pred, breakp pages (vs, ps); Shader Code Tokens (relative-addressing token)";
    /// A bit the token format reserves is not as the format requires.
    D3d9Reserved = "V923", "reserved token bits set", "Shader Code Tokens: instruction, destination and source parameter, relative-addressing, comment and dcl tokens";
    /// An instruction reads more different registers of a file than it has read ports.
    D3d9ReadPorts = "V924", "more different registers of one type read than its read ports", "Registers - vs_1_1 ... vs_3_0, ps_1_x ... ps_3_0 (# Read ports)";
    /// An operand an instruction page restricts (masks, swizzles, negation, dst = src).
    D3d9Operands = "V925", "operand restriction of the instruction not met", "instruction pages (vs, ps): m4x4, m4x3, m3x4, m3x3, m3x2, sincos, nrm, crs, pow, dp2add, texldl, texld/texldp/texldb, cnd, cmp, bem, dp4";
    /// A `dcl` the profile does not allow (register, usage, sampler type, mask, place).
    D3d9Dcl = "V926", "dcl not valid in this Direct3D 9 profile", "dcl_usage input/output (vs), dcl (ps), dcl_semantics (ps), dcl_samplerType (vs, ps); ps_3_0 Registers (vPos)";
    /// A ps_2_0 / ps_2_x texture read dependent beyond third order.
    D3d9DependentRead = "V927", "dependent texture read beyond third order", "texld, texldp, texldb - ps_2_0 and up (D3DPS20CAPS_NODEPENDENTREADLIMIT)";
    /// A ps_1_x texm3x2 / texm3x3 matrix sequence incomplete or out of order.
    D3d9TexMatrix = "V928", "texm3x2/texm3x3 instruction sequence invalid", "texm3x2pad, texm3x2tex, texm3x2depth, texm3x3pad, texm3x3, texm3x3tex, texm3x3spec, texm3x3vspec - ps";
    /// A dcl usage+index the register cannot carry: a vertex input semantic declared
    /// twice, positiont0 or tessfactor on a vertex input, position0 (a ps_3_0 `dcl v#`
    /// without a usage) / psize0 / positiont0 / tessfactor / sample on a pixel input, sample on a vertex output, tessfactor on an
    /// output other than index 0 with an .x mask.
    D3d9DclUsage = "V929", "dcl usage+index not allowed on this register", "dcl_usage input (vs); dcl_usage output (vs); dcl_semantics (ps); recorded D3DAssemble verdicts, errors X5637, X5638, X5537, X5971-X5978, X5980, X5982";
    /// ps_1_4: an r#'s alpha read after the phase marker before being written again.
    D3d9PhaseAlpha = "V930", "r# alpha read after phase before it is written", "phase - ps; recorded D3DAssemble verdicts, error X5119";
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_are_unique_and_round_trip() {
        let mut ids: Vec<_> = RULES.iter().map(|r| r.id).collect();
        ids.sort();
        let n = ids.len();
        ids.dedup();
        assert_eq!(ids.len(), n);
        for r in RULES {
            assert_eq!(Code::from_id(r.id), Some(r.code));
            assert_eq!(r.code.rule().id, r.id);
        }
    }
}
