//! Declaration layouts as data: for each [`DeclKind`], the fields its opcode token
//! carries (bits 23:11) and the tokens that follow it.
//!
//! The decoder reads every opcode-token field through the [`BitField`]s below and
//! derives the bits no field describes (kept as `reserved`) from [`DeclLayout::mask`];
//! the encoder writes the same fields; `docs/INSTRUCTIONS.md` prints the layouts; a test
//! walks the layouts over encoded declarations. The token layouts are those of the
//! functional spec's declaration sections and `D3D12TokenizedProgramFormat.hpp`.

use crate::table::DeclKind;

/// A field of the opcode token: `width` bits from bit `shift`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct BitField {
    pub name: &'static str,
    pub shift: u8,
    pub width: u8,
}

impl BitField {
    const fn new(name: &'static str, shift: u8, width: u8) -> BitField {
        BitField { name, shift, width }
    }

    /// The field's bits in place.
    pub const fn mask(self) -> u32 {
        let low = if self.width >= 32 { u32::MAX } else { (1u32 << self.width) - 1 };
        low << self.shift
    }

    /// The field's value in `token`.
    #[inline]
    pub const fn get(self, token: u32) -> u32 {
        (token & self.mask()) >> self.shift
    }

    /// `value` placed in the field (bits beyond its width dropped).
    #[inline]
    pub const fn put(self, value: u32) -> u32 {
        (value << self.shift) & self.mask()
    }
}

/// Resource dimension (`D3D10_SB_RESOURCE_DIMENSION`) of `dcl_resource` and `dcl_uav_typed`.
pub const DIMENSION: BitField = BitField::new("dimension", 11, 5);
/// Sample count of a multisampled `dcl_resource`.
pub const SAMPLE_COUNT: BitField = BitField::new("sample count", 16, 7);
/// `dcl_constantbuffer`'s access pattern (immediate or dynamic indexed).
pub const CB_ACCESS: BitField = BitField::new("access pattern", 11, 1);
/// `dcl_sampler`'s mode (default, comparison, mono).
pub const SAMPLER_MODE: BitField = BitField::new("sampler mode", 11, 4);
/// `dcl_outputtopology`'s primitive topology (bits 16:11; bit 17 is reserved).
pub const TOPOLOGY: BitField = BitField::new("topology", 11, 6);
/// `dcl_inputprimitive`'s primitive.
pub const PRIMITIVE: BitField = BitField::new("primitive", 11, 6);
/// `dcl_input_ps*`'s interpolation mode.
pub const INTERPOLATION: BitField = BitField::new("interpolation", 11, 4);
/// `dcl_globalFlags`' flags (bits 23:11).
pub const GLOBAL_FLAGS: BitField = BitField::new("global flags", 11, 13);
/// `dcl_interface`'s dynamic indexing flag.
pub const INTERFACE_DYNAMIC: BitField = BitField::new("dynamic", 11, 1);
/// Control-point count of `dcl_input/output_control_point_count`.
pub const CONTROL_POINTS: BitField = BitField::new("control points", 11, 6);
/// `dcl_tessellator_domain`'s domain.
pub const TESS_DOMAIN: BitField = BitField::new("domain", 11, 2);
/// `dcl_tessellator_partitioning`'s partitioning.
pub const TESS_PARTITIONING: BitField = BitField::new("partitioning", 11, 3);
/// `dcl_tessellator_output_primitive`'s primitive.
pub const TESS_OUTPUT: BitField = BitField::new("output primitive", 11, 3);
/// `globallyCoherent` of the UAV declarations.
pub const UAV_GLOBALLY_COHERENT: BitField = BitField::new("globally coherent", 16, 1);
/// `rasterizerOrdered` of the UAV declarations.
pub const UAV_RASTERIZER_ORDERED: BitField = BitField::new("rasterizer ordered", 17, 1);
/// `dcl_uav_structured`'s hidden counter (`_opc`).
pub const UAV_COUNTER: BitField = BitField::new("order-preserving counter", 23, 1);

/// `_sat` of executable instructions.
pub const SATURATE: BitField = BitField::new("saturate", 13, 1);
/// The precise mask (`[precise(xyzw)]`).
pub const PRECISE: BitField = BitField::new("precise mask", 19, 4);
/// `_nz` (set) or `_z` of the conditional instructions.
pub const TEST_NONZERO: BitField = BitField::new("test non-zero", 18, 1);
/// The return type of `resinfo`, `sampleinfo` and `samplepos`.
pub const RETURN_TYPE: BitField = BitField::new("return type", 11, 2);
/// `sync`'s flags (`_t`, `_g`, `_ugroup`, `_uglobal`).
pub const SYNC_FLAGS: BitField = BitField::new("sync flags", 11, 4);

impl crate::table::Controls {
    /// The opcode-token fields of an executable instruction with these controls.
    pub const fn fields(self) -> &'static [BitField] {
        use crate::table::Controls as C;
        match self {
            C::Plain => &[SATURATE, PRECISE],
            C::Test => &[TEST_NONZERO],
            C::ResInfo | C::ReturnType => &[RETURN_TYPE, SATURATE, PRECISE],
            C::Sync => &[SYNC_FLAGS],
            C::None => &[],
        }
    }

    /// The bits [`Self::fields`] describe.
    pub const fn mask(self) -> u32 {
        let fields = self.fields();
        let mut m = 0;
        let mut i = 0;
        while i < fields.len() {
            m |= fields[i].mask();
            i += 1;
        }
        m
    }
}

/// One token (or run of tokens) after the opcode token.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum DeclToken {
    /// The declared register: an operand token with its indices.
    Operand,
    /// One 32-bit value.
    Word(&'static str),
    /// A 32-bit value present when the instruction's length has room for it: the
    /// Shader Model 5.1 forms (register space, constant-buffer size).
    Optional(&'static str),
    /// A `ResourceReturnTypeToken`: four 4-bit return types.
    ReturnTypes,
    /// A system-value name (`D3D10_SB_NAME`, low 16 bits).
    SystemName,
    /// A count, then that many 32-bit values.
    CountedWords(&'static str),
    /// The interface declaration's packed token (table count in the low 16 bits, array
    /// length in the high 16), then the function-table indices.
    InterfaceTables,
}

/// The layout of one declaration kind.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct DeclLayout {
    /// Fields of the opcode token.
    pub fields: &'static [BitField],
    /// Tokens after the opcode token, in order.
    pub tokens: &'static [DeclToken],
}

impl DeclLayout {
    /// The opcode-token bits the fields describe; the decoder keeps the others as
    /// reserved bits.
    pub const fn mask(&self) -> u32 {
        let mut m = 0;
        let mut i = 0;
        while i < self.fields.len() {
            m |= self.fields[i].mask();
            i += 1;
        }
        m
    }
}

use DeclToken::*;

/// A `&'static DeclLayout` from its fields and tokens.
macro_rules! l {
    ([$($f:expr),*], [$($t:expr),*]) => {{
        const LAYOUT: DeclLayout = DeclLayout { fields: &[$($f),*], tokens: &[$($t),*] };
        &LAYOUT
    }};
}

impl DeclKind {
    /// The kind's layout.
    pub const fn layout(self) -> &'static DeclLayout {
        use DeclKind as K;
        match self {
            K::Resource => l!([DIMENSION, SAMPLE_COUNT], [Operand, ReturnTypes, Optional("space")]),
            K::ConstantBuffer => l!([CB_ACCESS], [Operand, Optional("size in vectors"), Optional("space")]),
            K::Sampler => l!([SAMPLER_MODE], [Operand, Optional("space")]),
            K::IndexRange => l!([], [Operand, Word("register count")]),
            K::OutputTopology => l!([TOPOLOGY], []),
            K::InputPrimitive => l!([PRIMITIVE], []),
            K::MaxOutputVertexCount => l!([], [Word("vertex count")]),
            K::Register | K::Stream => l!([], [Operand]),
            K::RegisterName => l!([], [Operand, SystemName]),
            K::InputPs => l!([INTERPOLATION], [Operand]),
            K::InputPsName => l!([INTERPOLATION], [Operand, SystemName]),
            K::Temps => l!([], [Word("register count")]),
            K::IndexableTemp => l!([], [Word("register"), Word("register count"), Word("components")]),
            K::GlobalFlags => l!([GLOBAL_FLAGS], []),
            K::FunctionBody => l!([], [Word("body")]),
            K::FunctionTable => l!([], [Word("table"), CountedWords("bodies")]),
            K::Interface => l!([INTERFACE_DYNAMIC], [Word("interface"), Word("table length"), InterfaceTables]),
            K::ControlPointCount => l!([CONTROL_POINTS], []),
            K::TessDomain => l!([TESS_DOMAIN], []),
            K::TessPartitioning => l!([TESS_PARTITIONING], []),
            K::TessOutputPrimitive => l!([TESS_OUTPUT], []),
            K::HsMaxTessFactor => l!([], [Word("max tessellation factor (float)")]),
            K::PhaseInstanceCount => l!([], [Word("instance count")]),
            K::ThreadGroup => l!([], [Word("x"), Word("y"), Word("z")]),
            K::UavTyped => {
                l!(
                    [DIMENSION, UAV_GLOBALLY_COHERENT, UAV_RASTERIZER_ORDERED],
                    [Operand, ReturnTypes, Optional("space")]
                )
            }
            K::UavRaw => l!([UAV_GLOBALLY_COHERENT, UAV_RASTERIZER_ORDERED], [Operand, Optional("space")]),
            K::UavStructured => l!(
                [UAV_GLOBALLY_COHERENT, UAV_RASTERIZER_ORDERED, UAV_COUNTER],
                [Operand, Word("stride"), Optional("space")]
            ),
            K::TgsmRaw => l!([], [Operand, Word("byte count")]),
            K::TgsmStructured => l!([], [Operand, Word("stride"), Word("count")]),
            K::ResourceRaw => l!([], [Operand, Optional("space")]),
            K::ResourceStructured => l!([], [Operand, Word("stride"), Optional("space")]),
            K::GsInstanceCount => l!([], [Word("instance count")]),
        }
    }
}

/// Every declaration kind, in the table's order of first use.
pub fn kinds() -> Vec<DeclKind> {
    let mut out = Vec::new();
    for row in crate::TABLE {
        if let crate::table::Shape::Decl(kind) = row.shape {
            if !out.contains(&kind) {
                out.push(kind);
            }
        }
    }
    out
}

/// The layouts as the Markdown rows of `docs/INSTRUCTIONS.md`.
pub fn markdown() -> String {
    use std::fmt::Write;
    let mut out = String::from(
        "| Layout | Declarations | Opcode-token fields | Tokens after the opcode token |\n|---|---|---|---|\n",
    );
    for kind in kinds() {
        let layout = kind.layout();
        let users: Vec<String> = crate::TABLE
            .iter()
            .filter(|r| r.shape == crate::table::Shape::Decl(kind))
            .map(|r| format!("`{}`", r.mnemonic))
            .collect();
        let fields: Vec<String> = layout
            .fields
            .iter()
            .map(|f| {
                let high = f.shift as u32 + f.width as u32 - 1;
                if f.width == 1 {
                    format!("{} (bit {})", f.name, f.shift)
                } else {
                    format!("{} (bits {high}:{})", f.name, f.shift)
                }
            })
            .collect();
        let tokens: Vec<String> = layout
            .tokens
            .iter()
            .map(|t| match t {
                Operand => "operand".to_string(),
                Word(name) => (*name).to_string(),
                Optional(name) => format!("{name} (if present; 5.1)"),
                ReturnTypes => "return types".to_string(),
                SystemName => "system-value name".to_string(),
                CountedWords(name) => format!("count, {name}"),
                InterfaceTables => "table count and array length, tables".to_string(),
            })
            .collect();
        let _ = writeln!(
            out,
            "| {kind:?} | {} | {} | {} |",
            users.join(", "),
            if fields.is_empty() { "-".to_string() } else { fields.join(", ") },
            if tokens.is_empty() { "-".to_string() } else { tokens.join(", ") },
        );
    }
    out
}
