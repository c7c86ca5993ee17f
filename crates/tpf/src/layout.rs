//! Declaration layouts as data: for each [`DeclKind`], the fields its opcode token
//! carries (bits 23:11), the tokens that follow it, and how a listing spells them.
//!
//! One description per kind ([`DeclKind::layout`]) serves the four directions: the
//! decoder reads the opcode-token fields through the [`BitField`]s below (the bits no
//! field describes are kept as `reserved`, [`DeclLayout::mask`]) and then the
//! [`DeclToken`]s; the encoder writes both; the printer spells the [`Item`]s of the
//! mnemonic and the line, and the assembler reads them back, checking the register
//! file, the [`Limit`]s and the duplicate rule ([`Once`]). The spellings that are not a
//! function of one value are the named [`Exception`]s. [`DeclValues`] carries a
//! declaration's values between them; `Decl::values` and `Decl::from_values` bind them
//! to the typed IR. `docs/INSTRUCTIONS.md` prints the layouts; tests walk them over
//! encoded declarations (every opcode-token bit) and over declarations that exercise
//! every field and token in every direction. The token layouts are those of the
//! functional spec's declaration sections and `D3D12TokenizedProgramFormat.hpp`.

use crate::table::DeclKind;

/// A field of the opcode token: `width` bits from bit `shift`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct BitField {
    /// The field's name (for messages and tests).
    pub name: &'static str,
    /// The lowest bit.
    pub shift: u8,
    /// The number of bits.
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

    /// The largest value the field holds.
    pub const fn max(self) -> u32 {
        self.mask() >> self.shift
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

impl DeclToken {
    /// What the token holds, as the documentation and the assembler's messages name it.
    pub const fn name(self) -> &'static str {
        match self {
            Operand => "register",
            Word(name) | Optional(name) | CountedWords(name) => name,
            ReturnTypes => "return types",
            SystemName => "system-value name",
            InterfaceTables => "array length",
        }
    }
}

/// One of a declaration's values: an opcode-token field or a token after it, by its
/// position in the layout.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Slot {
    /// The field `fields[i]`.
    Field(u8),
    /// The token `tokens[i]`.
    Token(u8),
}

const F0: Slot = Slot::Field(0);
const F1: Slot = Slot::Field(1);
const F2: Slot = Slot::Field(2);
const T0: Slot = Slot::Token(0);
const T1: Slot = Slot::Token(1);
const T2: Slot = Slot::Token(2);

/// A declaration's values in the order of its layout, whatever its kind: what the
/// decoder reads, the encoder writes, the printer spells and the assembler reads back.
/// [`crate::Decl::values`] and [`crate::Decl::from_values`] bind them to the typed IR.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct DeclValues {
    /// One per field of the layout, each as its bits (shifted down).
    pub fields: [u32; 3],
    /// One per token of the layout, `None` for an absent optional token: an operand's
    /// id, a value, a return-type or name token; for `InterfaceTables` the array length
    /// (the table count is the length of `words`); nothing for `CountedWords`.
    pub tokens: [Option<u32>; 3],
    /// The run of tokens of `CountedWords` / `InterfaceTables`.
    pub words: crate::ir::WordsId,
}

impl DeclValues {
    /// The value of `slot` (0 for an absent token).
    pub fn get(&self, slot: Slot) -> u32 {
        self.opt(slot).unwrap_or(0)
    }

    /// The value of `slot`, `None` for an absent token.
    pub fn opt(&self, slot: Slot) -> Option<u32> {
        match slot {
            Slot::Field(i) => self.fields.get(i as usize).copied(),
            Slot::Token(i) => self.tokens.get(i as usize).copied().flatten(),
        }
    }

    /// Sets `slot` (`None`: an absent token, or a field of 0).
    pub fn set(&mut self, slot: Slot, value: Option<u32>) {
        match slot {
            Slot::Field(i) => {
                if let Some(f) = self.fields.get_mut(i as usize) {
                    *f = value.unwrap_or(0);
                }
            }
            Slot::Token(i) => {
                if let Some(t) = self.tokens.get_mut(i as usize) {
                    *t = value;
                }
            }
        }
    }
}

/// How a declaration reads in a listing: one item after another, each a function of one
/// value of the layout (or one of the named [`Exception`]s).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Item {
    /// Literal text. The assembler reads its punctuation and words with any blanks
    /// around them.
    Text(&'static str),
    /// A value in decimal.
    Number(Slot),
    /// A value spelled by the listing names of a field's enum.
    Name(Slot, Names),
    /// `spelling` when the value is 1, nothing when it is 0 (a flag suffix of the
    /// mnemonic: `_glc`); the assembler reads a mnemonic's flags in any order.
    Flag(Slot, &'static str),
    /// The declared register written as an operand, with its components and precision
    /// (`v0.xy {min16f}`).
    Register(Slot),
    /// A declared resource-like register: `t0`; from Shader Model 5.1 its range
    /// `T0[0:3]`.
    Range(Slot),
    /// `, space=N`: the optional register space (Shader Model 5.1).
    Space(Slot),
    /// A return-type token: `(float,float,float,float)`.
    Types(Slot),
    /// A system-value name token: `position`.
    SystemValue(Slot),
    /// An interpolation mode and a blank (`linear centroid `); nothing for `Undefined`.
    Interpolation(Slot),
    /// A float's bits as an immediate: `l(64.000000)`.
    Float(Slot),
    /// The run of tokens as a list, each with `prefix`: `{fb0, fb1}`.
    List(&'static str),
    /// A spelling that is not a function of one value.
    Exception(Exception),
}

/// The declarations' spellings that are not a function of one value, each with its
/// reason. The printer and the assembler each handle them in one place.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Exception {
    /// `dcl_globalFlags`: the flags' names in fxc's order, which is not bit order
    /// ([`crate::GLOBAL_FLAG_NAMES`]), joined by `|`; no flag at all is
    /// `dcl_globalFlagsnone` in d3dcompiler 6.3's listings
    /// ([`crate::Style::spells_no_global_flags_none`]).
    GlobalFlags,
    /// `dcl_constantbuffer`'s register and size: before Shader Model 5.1 the size is the
    /// register's second index (`cb0[4]`), from 5.1 a token of its own after the range
    /// (`CB0[0:0][4]`); fxc 10 and Shader Model 5.1 write `CB`, older compilers `cb`.
    ConstantBuffer,
    /// A resource's sample count, `(4)` after the dimension, written (and read) for
    /// the multisampled dimensions only.
    SampleCount {
        /// Where the dimension is.
        dimension: Slot,
        /// Where the sample count is.
        count: Slot,
    },
    /// `dcl_input_ps_sgv`'s interpolation mode: fxc writes none (and encodes
    /// `constant`); `dcl_input_ps_siv` writes it as [`Item::Interpolation`] does.
    SgvInterpolation(Slot),
    /// `dcl_resource_structured` ends in a blank when it has no register space
    /// (fxc's text for Shader Model 4 and 5.0); otherwise as [`Item::Space`].
    SpaceOrBlank(Slot),
}

/// The field enums whose listing names spell a value.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Names {
    /// [`crate::ResourceDimension`].
    Dimension,
    /// [`crate::SamplerMode`].
    SamplerMode,
    /// [`crate::CbAccessPattern`].
    CbAccess,
    /// [`crate::PrimitiveTopology`].
    Topology,
    /// [`crate::Primitive`].
    Primitive,
    /// [`crate::TessDomain`].
    TessDomain,
    /// [`crate::TessPartitioning`].
    TessPartitioning,
    /// [`crate::TessOutputPrimitive`].
    TessOutput,
}

impl Names {
    /// The name of `value`, if the enum has one.
    pub fn name(self, value: u32) -> Option<&'static str> {
        use crate::enums::*;
        let v = value as u8;
        match self {
            Names::Dimension => ResourceDimension::from_raw(v).listing_name(),
            Names::SamplerMode => SamplerMode::from_raw(v).listing_name(),
            Names::CbAccess => CbAccessPattern::from_raw(v).listing_name(),
            Names::Topology => PrimitiveTopology::from_raw(v).listing_name(),
            Names::Primitive => Primitive::from_raw(v).listing_name(),
            Names::TessDomain => TessDomain::from_raw(v).listing_name(),
            Names::TessPartitioning => TessPartitioning::from_raw(v).listing_name(),
            Names::TessOutput => TessOutputPrimitive::from_raw(v).listing_name(),
        }
    }

    /// The value named `text`.
    pub fn value(self, text: &str) -> Option<u32> {
        use crate::enums::*;
        let raw = match self {
            Names::Dimension => ResourceDimension::from_listing_name(text)?.raw(),
            Names::SamplerMode => SamplerMode::from_listing_name(text)?.raw(),
            Names::CbAccess => CbAccessPattern::from_listing_name(text)?.raw(),
            Names::Topology => PrimitiveTopology::from_listing_name(text)?.raw(),
            Names::Primitive => Primitive::from_listing_name(text)?.raw(),
            Names::TessDomain => TessDomain::from_listing_name(text)?.raw(),
            Names::TessPartitioning => TessPartitioning::from_listing_name(text)?.raw(),
            Names::TessOutput => TessOutputPrimitive::from_listing_name(text)?.raw(),
        };
        Some(raw as u32)
    }

    /// Every named value with its name.
    pub fn all(self) -> Vec<(u32, &'static str)> {
        (0..=u8::MAX as u32).filter_map(|v| self.name(v).map(|n| (v, n))).collect()
    }

    /// What fxc writes for a value without a name. (A resource dimension's is the
    /// printer's, which depends on the compiler: [`crate::Style`].)
    pub fn unknown(self) -> &'static str {
        match self {
            Names::SamplerMode => "mode_unknown",
            Names::TessDomain => "domain_unknown",
            Names::TessPartitioning => "partitioning_unknown",
            Names::TessOutput => "output_unknown",
            Names::Dimension | Names::CbAccess | Names::Topology | Names::Primitive => "unknown",
        }
    }

    /// What the assembler says it expected.
    pub fn expected(self) -> &'static str {
        match self {
            Names::Dimension => "a resource dimension such as texture2d",
            Names::SamplerMode => "mode_default, mode_comparison or mode_mono",
            Names::CbAccess => "immediateIndexed or dynamicIndexed",
            Names::Topology => "pointlist, linestrip or trianglestrip",
            Names::Primitive => "point, line, triangle, lineadj or triangleadj",
            Names::TessDomain => "domain_isoline, domain_tri or domain_quad",
            Names::TessPartitioning => {
                "partitioning_integer, partitioning_pow2, partitioning_fractional_odd or partitioning_fractional_even"
            }
            Names::TessOutput => "output_point, output_line, output_triangle_cw or output_triangle_ccw",
        }
    }
}

/// What makes a second declaration of a kind a duplicate, in one program (or hull-shader
/// phase, or geometry-shader stream); the assembler refuses it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Once {
    /// Any number.
    Never,
    /// One per program: the name says which.
    Program(&'static str),
    /// One per register: its file and first index (its number, or in Shader Model 5.1
    /// the range's ID).
    Register,
    /// One per input or output register (file, indices and components), for each
    /// direction (`dcl_input*`, `dcl_output*`).
    Io,
    /// As [`Once::Io`], for each mnemonic (`dcl_input`, `dcl_output`).
    IoMnemonic,
    /// One per value of a slot: `prefix` and the number (`x1`, `fb0`).
    Number(&'static str, Slot),
}

/// A range the assembler holds a value to (beyond the width of its field or token).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Limit {
    /// The value held.
    pub slot: Slot,
    /// The least value allowed.
    pub min: u32,
    /// The greatest value allowed.
    pub max: u32,
    /// The error when the value is outside.
    pub message: &'static str,
}

/// The layout of one declaration kind: the tokens it is made of, and how its listing
/// text spells them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct DeclLayout {
    /// Fields of the opcode token.
    pub fields: &'static [BitField],
    /// Tokens after the opcode token, in order.
    pub tokens: &'static [DeclToken],
    /// The text after the table's mnemonic within the mnemonic word (`_texture2d`,
    /// `_glc`).
    pub mnemonic: &'static [Item],
    /// The text after the mnemonic word.
    pub text: &'static [Item],
    /// The register file the declared register must be in, if one.
    pub file: Option<crate::enums::OperandType>,
    /// Which declarations of the kind clash.
    pub once: Once,
    /// Ranges the assembler checks.
    pub limits: &'static [Limit],
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

    /// The name of `slot` (its field's or token's).
    pub fn slot_name(&self, slot: Slot) -> &'static str {
        match slot {
            Slot::Field(i) => self.fields.get(i as usize).map_or("?", |f| f.name),
            Slot::Token(i) => self.tokens.get(i as usize).map_or("?", |t| t.name()),
        }
    }

    /// Every item of the text, the mnemonic's first.
    pub fn items(&self) -> impl Iterator<Item = &'static Item> {
        self.mnemonic.iter().chain(self.text)
    }
}

use DeclToken::*;
use Item::*;

/// A `&'static DeclLayout`: fields, tokens, mnemonic items, text items, then any of
/// `file:`, `once:`, `limits:`.
macro_rules! l {
    ([$($f:expr),*], [$($t:expr),*], [$($m:expr),*], [$($x:expr),*] $(, $k:ident: $v:expr)* $(,)?) => {{
        const LAYOUT: DeclLayout = DeclLayout {
            fields: &[$($f),*],
            tokens: &[$($t),*],
            mnemonic: &[$($m),*],
            text: &[$($x),*],
            $($k: $v,)*
            ..BASE
        };
        &LAYOUT
    }};
}

/// What [`l!`] leaves out.
const BASE: DeclLayout =
    DeclLayout { fields: &[], tokens: &[], mnemonic: &[], text: &[], file: None, once: Once::Never, limits: &[] };

use crate::enums::OperandType as File;

impl DeclKind {
    /// The kind's layout.
    pub const fn layout(self) -> &'static DeclLayout {
        use DeclKind as K;
        match self {
            K::Resource => l!(
                [DIMENSION, SAMPLE_COUNT],
                [Operand, ReturnTypes, Optional("space")],
                [Text("_"), Name(F0, Names::Dimension), Exception(Exception::SampleCount { dimension: F0, count: F1 })],
                [Text(" "), Types(T1), Text(" "), Range(T0), Space(T2)],
                file: Some(File::Resource),
                once: Once::Register,
            ),
            K::ConstantBuffer => l!(
                [CB_ACCESS],
                [Operand, Optional("size in vectors"), Optional("space")],
                [],
                [Text(" "), Exception(Exception::ConstantBuffer), Text(", "), Name(F0, Names::CbAccess), Space(T2)],
                file: Some(File::ConstantBuffer),
                once: Once::Register,
            ),
            K::Sampler => l!(
                [SAMPLER_MODE],
                [Operand, Optional("space")],
                [],
                [Text(" "), Range(T0), Text(", "), Name(F0, Names::SamplerMode), Space(T1)],
                file: Some(File::Sampler),
                once: Once::Register,
            ),
            K::IndexRange => {
                l!([], [Operand, Word("register count")], [], [Text(" "), Register(T0), Text(" "), Number(T1)])
            }
            K::OutputTopology => l!(
                [TOPOLOGY],
                [],
                [],
                [Text(" "), Name(F0, Names::Topology), Text(" ")],
                once: Once::Program("outputtopology"),
            ),
            K::InputPrimitive => l!(
                [PRIMITIVE],
                [],
                [],
                [Text(" "), Name(F0, Names::Primitive), Text(" ")],
                once: Once::Program("inputprimitive"),
            ),
            K::MaxOutputVertexCount => {
                l!([], [Word("vertex count")], [], [Text(" "), Number(T0)], once: Once::Program("maxout"))
            }
            K::Register => l!([], [Operand], [], [Text(" "), Register(T0)], once: Once::IoMnemonic),
            K::Stream => l!([], [Operand], [], [Text(" "), Register(T0)], file: Some(File::Stream)),
            K::RegisterName => l!(
                [],
                [Operand, SystemName],
                [],
                [Text(" "), Register(T0), Text(", "), SystemValue(T1)],
                once: Once::Io,
            ),
            K::InputPs => {
                l!([INTERPOLATION], [Operand], [], [Text(" "), Interpolation(F0), Register(T0)], once: Once::Io)
            }
            K::InputPsName => l!(
                [INTERPOLATION],
                [Operand, SystemName],
                [],
                [
                    Text(" "),
                    Exception(Exception::SgvInterpolation(F0)),
                    Register(T0),
                    Text(", "),
                    SystemValue(T1)
                ],
                once: Once::Io,
            ),
            K::Temps => l!([], [Word("register count")], [], [Text(" "), Number(T0)], once: Once::Program("temps")),
            K::IndexableTemp => l!(
                [],
                [Word("register"), Word("register count"), Word("components")],
                [],
                [Text(" x"), Number(T0), Text("["), Number(T1), Text("], "), Number(T2)],
                once: Once::Number("x", T0),
                limits: &[Limit { slot: T2, min: 1, max: 4, message: "an indexable temp has 1 to 4 components" }],
            ),
            K::GlobalFlags => l!(
                [GLOBAL_FLAGS],
                [],
                [],
                [Exception(Exception::GlobalFlags)],
                once: Once::Program("globalFlags"),
            ),
            K::FunctionBody => {
                l!([], [Word("body")], [], [Text(" fb"), Number(T0)], once: Once::Number("fb", T0))
            }
            K::FunctionTable => l!(
                [],
                [Word("table"), CountedWords("bodies")],
                [],
                [Text(" ft"), Number(T0), Text(" = "), List("fb")],
                once: Once::Number("ft", T0),
            ),
            K::Interface => l!(
                [INTERFACE_DYNAMIC],
                [Word("interface"), Word("table length"), InterfaceTables],
                [Flag(F0, "_dynamicindexed")],
                [
                    Text(" fp"),
                    Number(T0),
                    Text("["),
                    Number(T2),
                    Text("]["),
                    Number(T1),
                    Text("] = "),
                    List("ft")
                ],
                once: Once::Number("fp", T0),
                limits: &[Limit {
                    slot: T2,
                    min: 0,
                    max: 0xffff,
                    message: "the array length does not fit in 16 bits",
                }],
            ),
            K::ControlPointCount => l!(
                [CONTROL_POINTS],
                [],
                [],
                [Text(" "), Number(F0)],
                limits: &[Limit { slot: F0, min: 0, max: 32, message: "at most 32 control points" }],
            ),
            K::TessDomain => l!([TESS_DOMAIN], [], [], [Text(" "), Name(F0, Names::TessDomain)]),
            K::TessPartitioning => {
                l!([TESS_PARTITIONING], [], [], [Text(" "), Name(F0, Names::TessPartitioning)])
            }
            K::TessOutputPrimitive => l!([TESS_OUTPUT], [], [], [Text(" "), Name(F0, Names::TessOutput)]),
            K::HsMaxTessFactor => l!([], [Word("max tessellation factor (float)")], [], [Text(" "), Float(T0)]),
            K::PhaseInstanceCount => l!([], [Word("instance count")], [], [Text(" "), Number(T0)]),
            K::ThreadGroup => l!(
                [],
                [Word("x"), Word("y"), Word("z")],
                [],
                [Text(" "), Number(T0), Text(", "), Number(T1), Text(", "), Number(T2)],
                once: Once::Program("thread_group"),
            ),
            K::UavTyped => l!(
                [DIMENSION, UAV_GLOBALLY_COHERENT, UAV_RASTERIZER_ORDERED],
                [Operand, ReturnTypes, Optional("space")],
                [Text("_"), Name(F0, Names::Dimension), Flag(F1, "_glc"), Flag(F2, "_rov")],
                [Text(" "), Types(T1), Text(" "), Range(T0), Space(T2)],
                file: Some(File::UnorderedAccessView),
                once: Once::Register,
            ),
            K::UavRaw => l!(
                [UAV_GLOBALLY_COHERENT, UAV_RASTERIZER_ORDERED],
                [Operand, Optional("space")],
                [Flag(F0, "_glc"), Flag(F1, "_rov")],
                [Text(" "), Range(T0), Space(T1)],
                file: Some(File::UnorderedAccessView),
                once: Once::Register,
            ),
            K::UavStructured => l!(
                [UAV_GLOBALLY_COHERENT, UAV_RASTERIZER_ORDERED, UAV_COUNTER],
                [Operand, Word("stride"), Optional("space")],
                [Flag(F0, "_glc"), Flag(F1, "_rov"), Flag(F2, "_opc")],
                [Text(" "), Range(T0), Text(", "), Number(T1), Space(T2)],
                file: Some(File::UnorderedAccessView),
                once: Once::Register,
            ),
            K::TgsmRaw => l!(
                [],
                [Operand, Word("byte count")],
                [],
                [Text(" "), Range(T0), Text(", "), Number(T1)],
                file: Some(File::ThreadGroupSharedMemory),
                once: Once::Register,
            ),
            K::TgsmStructured => l!(
                [],
                [Operand, Word("stride"), Word("count")],
                [],
                [Text(" "), Range(T0), Text(", "), Number(T1), Text(", "), Number(T2)],
                file: Some(File::ThreadGroupSharedMemory),
                once: Once::Register,
            ),
            K::ResourceRaw => l!(
                [],
                [Operand, Optional("space")],
                [],
                [Text(" "), Range(T0), Space(T1)],
                file: Some(File::Resource),
                once: Once::Register,
            ),
            K::ResourceStructured => l!(
                [],
                [Operand, Word("stride"), Optional("space")],
                [],
                [Text(" "), Range(T0), Text(", "), Number(T1), Exception(Exception::SpaceOrBlank(T2))],
                file: Some(File::Resource),
                once: Once::Register,
            ),
            K::GsInstanceCount => {
                l!([], [Word("instance count")], [], [Text(" "), Number(T0)], once: Once::Program("gsinstances"))
            }
        }
    }
}

impl crate::ir::ReturnTypes {
    /// Reads a `ResourceReturnTypeToken`.
    pub fn from_token(t: u32) -> crate::ir::ReturnTypes {
        crate::ir::ReturnTypes {
            types: [0, 4, 8, 12].map(|shift| crate::enums::ReturnType::from_raw(((t >> shift) & 0xf) as u8)),
            reserved: (t >> 16) as u16,
        }
    }

    /// The token.
    pub fn token(&self) -> u32 {
        self.types
            .iter()
            .zip([0, 4, 8, 12])
            .fold((self.reserved as u32) << 16, |acc, (t, shift)| acc | ((t.raw() as u32 & 0xf) << shift))
    }
}

/// A name token: the system value (low 16 bits) and the bits above.
fn name_token(name: crate::enums::SystemName, reserved: u16) -> u32 {
    name.raw() as u32 | ((reserved as u32) << 16)
}

impl crate::ir::Decl {
    /// The declaration's kind (whose layout [`Decl::values`] follows).
    ///
    /// [`Decl::values`]: crate::ir::Decl::values
    pub fn kind(&self) -> DeclKind {
        use crate::ir::Decl as D;
        use DeclKind as K;
        match self {
            D::Resource { .. } => K::Resource,
            D::ConstantBuffer { .. } => K::ConstantBuffer,
            D::Sampler { .. } => K::Sampler,
            D::IndexRange { .. } => K::IndexRange,
            D::OutputTopology(_) => K::OutputTopology,
            D::InputPrimitive(_) => K::InputPrimitive,
            D::MaxOutputVertexCount(_) => K::MaxOutputVertexCount,
            D::Register(_) => K::Register,
            D::RegisterName { .. } => K::RegisterName,
            D::InputPs { .. } => K::InputPs,
            D::InputPsName { .. } => K::InputPsName,
            D::Temps(_) => K::Temps,
            D::IndexableTemp { .. } => K::IndexableTemp,
            D::GlobalFlags(_) => K::GlobalFlags,
            D::Stream(_) => K::Stream,
            D::FunctionBody(_) => K::FunctionBody,
            D::FunctionTable { .. } => K::FunctionTable,
            D::Interface { .. } => K::Interface,
            D::ControlPointCount(_) => K::ControlPointCount,
            D::TessDomain(_) => K::TessDomain,
            D::TessPartitioning(_) => K::TessPartitioning,
            D::TessOutputPrimitive(_) => K::TessOutputPrimitive,
            D::HsMaxTessFactor(_) => K::HsMaxTessFactor,
            D::PhaseInstanceCount(_) => K::PhaseInstanceCount,
            D::ThreadGroup(_) => K::ThreadGroup,
            D::UavTyped { .. } => K::UavTyped,
            D::UavRaw { .. } => K::UavRaw,
            D::UavStructured { .. } => K::UavStructured,
            D::TgsmRaw { .. } => K::TgsmRaw,
            D::TgsmStructured { .. } => K::TgsmStructured,
            D::ResourceRaw { .. } => K::ResourceRaw,
            D::ResourceStructured { .. } => K::ResourceStructured,
            D::GsInstanceCount(_) => K::GsInstanceCount,
        }
    }

    /// The declaration's values in the order of its kind's layout: where each typed
    /// field of the IR sits in the tokens. (With [`Decl::from_values`], the one place
    /// that binds the typed declarations to [`DeclKind::layout`].)
    ///
    /// [`Decl::from_values`]: crate::ir::Decl::from_values
    pub fn values(&self) -> DeclValues {
        use crate::ir::Decl as D;
        let mut v = DeclValues::default();
        let flags = |f: &crate::enums::UavFlags| {
            [f.globally_coherent as u32, f.rasterizer_ordered as u32, f.order_preserving_counter as u32]
        };
        match *self {
            D::Resource { operand, dim, sample_count, return_type, space } => {
                v.fields = [dim.raw() as u32, sample_count as u32, 0];
                v.tokens = [Some(operand.0), Some(return_type.token()), space];
            }
            D::ConstantBuffer { operand, access, size, space } => {
                v.fields[0] = access.raw() as u32;
                v.tokens = [Some(operand.0), size, space];
            }
            D::Sampler { operand, mode, space } => {
                v.fields[0] = mode.raw() as u32;
                v.tokens = [Some(operand.0), space, None];
            }
            D::IndexRange { operand, count } => v.tokens = [Some(operand.0), Some(count), None],
            D::OutputTopology(t) => v.fields[0] = t.raw() as u32,
            D::InputPrimitive(p) => v.fields[0] = p.raw() as u32,
            D::Register(operand) | D::Stream(operand) => v.tokens[0] = Some(operand.0),
            D::RegisterName { operand, name, reserved } => {
                v.tokens = [Some(operand.0), Some(name_token(name, reserved)), None];
            }
            D::InputPs { interpolation, operand } => {
                v.fields[0] = interpolation.raw() as u32;
                v.tokens[0] = Some(operand.0);
            }
            D::InputPsName { interpolation, operand, name, reserved } => {
                v.fields[0] = interpolation.raw() as u32;
                v.tokens = [Some(operand.0), Some(name_token(name, reserved)), None];
            }
            D::MaxOutputVertexCount(n)
            | D::Temps(n)
            | D::FunctionBody(n)
            | D::HsMaxTessFactor(n)
            | D::PhaseInstanceCount(n)
            | D::GsInstanceCount(n) => v.tokens[0] = Some(n),
            D::IndexableTemp { register, count, components } => {
                v.tokens = [Some(register), Some(count), Some(components)];
            }
            D::GlobalFlags(f) => v.fields[0] = GLOBAL_FLAGS.get(f.0),
            D::FunctionTable { id, bodies } => {
                v.tokens[0] = Some(id);
                v.words = bodies;
            }
            D::Interface { dynamic, id, table_length, array_length, tables } => {
                v.fields[0] = dynamic as u32;
                v.tokens = [Some(id), Some(table_length), Some(array_length as u32)];
                v.words = tables;
            }
            D::ControlPointCount(n) => v.fields[0] = n as u32,
            D::TessDomain(d) => v.fields[0] = d.raw() as u32,
            D::TessPartitioning(p) => v.fields[0] = p.raw() as u32,
            D::TessOutputPrimitive(p) => v.fields[0] = p.raw() as u32,
            D::ThreadGroup([x, y, z]) => v.tokens = [Some(x), Some(y), Some(z)],
            D::UavTyped { operand, dim, flags: f, return_type, space } => {
                let [glc, rov, _] = flags(&f);
                v.fields = [dim.raw() as u32, glc, rov];
                v.tokens = [Some(operand.0), Some(return_type.token()), space];
            }
            D::UavRaw { operand, flags: f, space } => {
                let [glc, rov, _] = flags(&f);
                v.fields = [glc, rov, 0];
                v.tokens = [Some(operand.0), space, None];
            }
            D::UavStructured { operand, flags: f, stride, space } => {
                v.fields = flags(&f);
                v.tokens = [Some(operand.0), Some(stride), space];
            }
            D::TgsmRaw { operand, byte_count } => v.tokens = [Some(operand.0), Some(byte_count), None],
            D::TgsmStructured { operand, stride, count } => v.tokens = [Some(operand.0), Some(stride), Some(count)],
            D::ResourceRaw { operand, space } => v.tokens = [Some(operand.0), space, None],
            D::ResourceStructured { operand, stride, space } => v.tokens = [Some(operand.0), Some(stride), space],
        }
        v
    }

    /// The declaration of kind `kind` whose values are `v` (the inverse of
    /// [`Decl::values`]; a value wider than its typed field keeps its low bits).
    ///
    /// [`Decl::values`]: crate::ir::Decl::values
    pub fn from_values(kind: DeclKind, v: &DeclValues) -> crate::ir::Decl {
        use crate::enums::*;
        use crate::ir::{Decl as D, OperandId};
        use DeclKind as K;
        let [f0, f1, f2] = v.fields;
        let [t0, t1, t2] = v.tokens;
        let (w0, w1, w2) = (t0.unwrap_or(0), t1.unwrap_or(0), t2.unwrap_or(0));
        let operand = OperandId(w0);
        let name = SystemName::from_raw(w1 as u16);
        let reserved = (w1 >> 16) as u16;
        let flags = |glc: u32, rov: u32, opc: u32| UavFlags {
            globally_coherent: glc != 0,
            rasterizer_ordered: rov != 0,
            order_preserving_counter: opc != 0,
        };
        match kind {
            K::Resource => D::Resource {
                operand,
                dim: ResourceDimension::from_raw(f0 as u8),
                sample_count: f1 as u8,
                return_type: crate::ir::ReturnTypes::from_token(w1),
                space: t2,
            },
            K::ConstantBuffer => {
                D::ConstantBuffer { operand, access: CbAccessPattern::from_raw(f0 as u8), size: t1, space: t2 }
            }
            K::Sampler => D::Sampler { operand, mode: SamplerMode::from_raw(f0 as u8), space: t1 },
            K::IndexRange => D::IndexRange { operand, count: w1 },
            K::OutputTopology => D::OutputTopology(PrimitiveTopology::from_raw(f0 as u8)),
            K::InputPrimitive => D::InputPrimitive(Primitive::from_raw(f0 as u8)),
            K::MaxOutputVertexCount => D::MaxOutputVertexCount(w0),
            K::Register => D::Register(operand),
            K::Stream => D::Stream(operand),
            K::RegisterName => D::RegisterName { operand, name, reserved },
            K::InputPs => D::InputPs { interpolation: InterpolationMode::from_raw(f0 as u8), operand },
            K::InputPsName => {
                D::InputPsName { interpolation: InterpolationMode::from_raw(f0 as u8), operand, name, reserved }
            }
            K::Temps => D::Temps(w0),
            K::IndexableTemp => D::IndexableTemp { register: w0, count: w1, components: w2 },
            K::GlobalFlags => D::GlobalFlags(GlobalFlags(GLOBAL_FLAGS.put(f0))),
            K::FunctionBody => D::FunctionBody(w0),
            K::FunctionTable => D::FunctionTable { id: w0, bodies: v.words },
            K::Interface => {
                D::Interface { dynamic: f0 != 0, id: w0, table_length: w1, array_length: w2 as u16, tables: v.words }
            }
            K::ControlPointCount => D::ControlPointCount(f0 as u8),
            K::TessDomain => D::TessDomain(TessDomain::from_raw(f0 as u8)),
            K::TessPartitioning => D::TessPartitioning(TessPartitioning::from_raw(f0 as u8)),
            K::TessOutputPrimitive => D::TessOutputPrimitive(TessOutputPrimitive::from_raw(f0 as u8)),
            K::HsMaxTessFactor => D::HsMaxTessFactor(w0),
            K::PhaseInstanceCount => D::PhaseInstanceCount(w0),
            K::ThreadGroup => D::ThreadGroup([w0, w1, w2]),
            K::UavTyped => D::UavTyped {
                operand,
                dim: ResourceDimension::from_raw(f0 as u8),
                flags: flags(f1, f2, 0),
                return_type: crate::ir::ReturnTypes::from_token(w1),
                space: t2,
            },
            K::UavRaw => D::UavRaw { operand, flags: flags(f0, f1, 0), space: t1 },
            K::UavStructured => D::UavStructured { operand, flags: flags(f0, f1, f2), stride: w1, space: t2 },
            K::TgsmRaw => D::TgsmRaw { operand, byte_count: w1 },
            K::TgsmStructured => D::TgsmStructured { operand, stride: w1, count: w2 },
            K::ResourceRaw => D::ResourceRaw { operand, space: t1 },
            K::ResourceStructured => D::ResourceStructured { operand, stride: w1, space: t2 },
            K::GsInstanceCount => D::GsInstanceCount(w0),
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
        "| Layout | Declarations | Opcode-token fields | Tokens after the opcode token | Listing text | Irregular spellings |\n|---|---|---|---|---|---|\n",
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
        let exceptions: Vec<String> = layout
            .items()
            .filter_map(|i| match i {
                Exception(e) => Some(format!("{e:?}").split(['(', ' ']).next().unwrap_or("").to_string()),
                _ => None,
            })
            .collect();
        let _ = writeln!(
            out,
            "| {kind:?} | {} | {} | {} | `<mnemonic>{}` | {} |",
            users.join(", "),
            if fields.is_empty() { "-".to_string() } else { fields.join(", ") },
            if tokens.is_empty() { "-".to_string() } else { tokens.join(", ") },
            layout.items().map(|i| item_text(layout, i)).collect::<String>(),
            if exceptions.is_empty() { "-".to_string() } else { exceptions.join(", ") },
        );
    }
    out
}

/// An item as the documentation writes it: `<name>` for a value, `[...]` for what
/// may be absent.
fn item_text(layout: &DeclLayout, item: &Item) -> String {
    let name = |slot: Slot| layout.slot_name(slot);
    match *item {
        Text(t) => t.to_string(),
        Number(slot) | Name(slot, _) => format!("<{}>", name(slot)),
        Flag(_, spelling) => format!("[{spelling}]"),
        Register(_) => "<register>".to_string(),
        Range(_) => "<register or 5.1 range>".to_string(),
        Space(slot) => format!("[, space=<{}>]", name(slot)),
        Types(_) => "(<return types>)".to_string(),
        SystemValue(_) => "<system value>".to_string(),
        Interpolation(slot) => format!("[<{}> ]", name(slot)),
        Float(slot) => format!("l(<{}>)", name(slot)),
        List(prefix) => format!("{{{prefix}<n>, ...}}"),
        Exception(Exception::GlobalFlags) => " <flag names>".to_string(),
        Exception(Exception::ConstantBuffer) => "<register and size>".to_string(),
        Exception(Exception::SampleCount { count, .. }) => format!("[(<{}>)]", name(count)),
        Exception(Exception::SgvInterpolation(slot)) => format!("[<{}> ]", name(slot)),
        Exception(Exception::SpaceOrBlank(slot)) => format!("[, space=<{}>]", name(slot)),
    }
}
