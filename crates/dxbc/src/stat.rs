//! `STAT`: the compiler's instruction statistics.
//!
//! Shader Model 4 blobs carry 29 32-bit words, Shader Model 5 blobs 37 (the extra words
//! hold the geometry-shader instance count, the tessellation state and compute
//! counters). Field meanings follow `D3D11_SHADER_DESC`; where the reflection API has no
//! name the field is named after what the corpus shows it counting.

#![deny(clippy::arithmetic_side_effects, clippy::indexing_slicing)]

use crate::error::{Error, Result};
use crate::util::{code_enum, Bytes};

code_enum! {
    /// A primitive type (`D3D_PRIMITIVE`), the geometry-shader input primitive or the
    /// hull-shader input patch.
    #[derive(Default)]
    pub enum Primitive: u32 {
        /// Not set.
        #[default]
        Undefined = 0,
        /// Points.
        Point = 1,
        /// Lines.
        Line = 2,
        /// Triangles.
        Triangle = 3,
        /// Lines with adjacency.
        LineAdj = 6,
        /// Triangles with adjacency.
        TriangleAdj = 7,
    }
}

impl Primitive {
    /// For a patch primitive (`D3D_PRIMITIVE_n_CONTROL_POINT_PATCH`, 8..=39), its number
    /// of control points.
    pub fn patch_control_points(self) -> Option<u32> {
        match self {
            Primitive::Unknown(v @ 8..=39) => v.checked_sub(7),
            _ => None,
        }
    }
}

code_enum! {
    /// A primitive topology (`D3D_PRIMITIVE_TOPOLOGY`), the geometry-shader output.
    #[derive(Default)]
    pub enum PrimitiveTopology: u32 {
        /// Not set.
        #[default]
        Undefined = 0,
        /// Point list.
        PointList = 1,
        /// Line list.
        LineList = 2,
        /// Line strip.
        LineStrip = 3,
        /// Triangle list.
        TriangleList = 4,
        /// Triangle strip.
        TriangleStrip = 5,
    }
}

code_enum! {
    /// The tessellator's output primitive (`D3D_TESSELLATOR_OUTPUT_PRIMITIVE`).
    #[derive(Default)]
    pub enum TessellatorOutputPrimitive: u32 {
        /// Not set.
        #[default]
        Undefined = 0,
        /// Points.
        Point = 1,
        /// Lines.
        Line = 2,
        /// Clockwise triangles.
        TriangleCw = 3,
        /// Counter-clockwise triangles.
        TriangleCcw = 4,
    }
}

code_enum! {
    /// The tessellator's partitioning (`D3D_TESSELLATOR_PARTITIONING`).
    #[derive(Default)]
    pub enum TessellatorPartitioning: u32 {
        /// Not set.
        #[default]
        Undefined = 0,
        /// Integer.
        Integer = 1,
        /// Power of two.
        Pow2 = 2,
        /// Fractional odd.
        FractionalOdd = 3,
        /// Fractional even.
        FractionalEven = 4,
    }
}

code_enum! {
    /// The tessellator's domain (`D3D_TESSELLATOR_DOMAIN`).
    #[derive(Default)]
    pub enum TessellatorDomain: u32 {
        /// Not set.
        #[default]
        Undefined = 0,
        /// Isolines.
        Isoline = 1,
        /// Triangles.
        Triangle = 2,
        /// Quads.
        Quad = 3,
    }
}

/// The Shader Model 5 words of `STAT`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct StatSm5 {
    /// Geometry-shader instance count.
    pub gs_instance_count: u32,
    /// Control points of the hull shader's output patch / the domain shader's input.
    pub control_points: u32,
    /// Tessellator output primitive.
    pub hs_output_primitive: TessellatorOutputPrimitive,
    /// Tessellator partitioning.
    pub hs_partitioning: TessellatorPartitioning,
    /// Tessellator domain.
    pub tessellator_domain: TessellatorDomain,
    /// Barrier (`sync`) instructions.
    pub barrier_instructions: u32,
    /// Interlocked (atomic) instructions.
    pub interlocked_instructions: u32,
    /// UAV store instructions.
    pub texture_store_instructions: u32,
}

/// A decoded `STAT` chunk.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Stat<'a> {
    /// Instructions (the listing's "Approximately N instruction slots used").
    pub instruction_count: u32,
    /// Temporary registers.
    pub temp_register_count: u32,
    /// Constant definitions.
    pub def_count: u32,
    /// Declarations.
    pub dcl_count: u32,
    /// Floating-point arithmetic instructions.
    pub float_instruction_count: u32,
    /// Signed integer arithmetic instructions.
    pub int_instruction_count: u32,
    /// Unsigned integer arithmetic instructions.
    pub uint_instruction_count: u32,
    /// Static flow-control instructions.
    pub static_flow_control_count: u32,
    /// Dynamic flow-control instructions.
    pub dynamic_flow_control_count: u32,
    /// Macro instructions.
    pub macro_instruction_count: u32,
    /// Temporary arrays (indexable temps).
    pub temp_array_count: u32,
    /// Array instructions.
    pub array_instruction_count: u32,
    /// `cut` instructions.
    pub cut_instruction_count: u32,
    /// `emit` instructions.
    pub emit_instruction_count: u32,
    /// Non-categorised texture instructions (`sample`).
    pub texture_normal_instructions: u32,
    /// Texture load instructions.
    pub texture_load_instructions: u32,
    /// Texture comparison instructions.
    pub texture_comp_instructions: u32,
    /// Texture bias instructions.
    pub texture_bias_instructions: u32,
    /// Texture gradient instructions.
    pub texture_gradient_instructions: u32,
    /// `mov` instructions.
    pub mov_instruction_count: u32,
    /// `movc` instructions.
    pub movc_instruction_count: u32,
    /// Conversion instructions.
    pub conversion_instruction_count: u32,
    /// Bitwise instructions (word 22; zero in every corpus blob).
    pub bitwise_instruction_count: u32,
    /// Geometry-shader input primitive (or hull-shader input patch).
    pub input_primitive: Primitive,
    /// Geometry-shader output topology.
    pub gs_output_topology: PrimitiveTopology,
    /// Geometry-shader maximum output vertex count.
    pub gs_max_output_vertex_count: u32,
    /// Word 26: texture gather instructions, judging by the corpus.
    pub gather_instructions: u32,
    /// Word 27: `lod` instructions, judging by the corpus.
    pub lod_instructions: u32,
    /// Word 28: nonzero for pixel shaders that run at sample frequency.
    pub sample_frequency: u32,
    /// The Shader Model 5 words, if the chunk has them.
    pub sm5: Option<StatSm5>,
    /// Bytes after the known words (none in fxc's output).
    pub trailing: &'a [u8],
}

/// Size of the Shader Model 4 form.
pub const STAT_SM4_SIZE: usize = 29 * 4;
/// Size of the Shader Model 5 form.
pub const STAT_SM5_SIZE: usize = 37 * 4;

impl<'a> Stat<'a> {
    /// Decodes a `STAT` chunk (at least 116 bytes; 148 or more adds the SM5 words).
    pub fn parse(data: &'a [u8]) -> Result<Stat<'a>> {
        let b = Bytes::new(data);
        b.slice(0, STAT_SM4_SIZE, "STAT")?;
        let w = |i: usize| b.u32(i.saturating_mul(4), "STAT word");
        let sm5 = if data.len() >= STAT_SM5_SIZE {
            Some(StatSm5 {
                gs_instance_count: w(29)?,
                control_points: w(30)?,
                hs_output_primitive: w(31)?.into(),
                hs_partitioning: w(32)?.into(),
                tessellator_domain: w(33)?.into(),
                barrier_instructions: w(34)?,
                interlocked_instructions: w(35)?,
                texture_store_instructions: w(36)?,
            })
        } else {
            None
        };
        let end = if sm5.is_some() { STAT_SM5_SIZE } else { STAT_SM4_SIZE };
        Ok(Stat {
            instruction_count: w(0)?,
            temp_register_count: w(1)?,
            def_count: w(2)?,
            dcl_count: w(3)?,
            float_instruction_count: w(4)?,
            int_instruction_count: w(5)?,
            uint_instruction_count: w(6)?,
            static_flow_control_count: w(7)?,
            dynamic_flow_control_count: w(8)?,
            macro_instruction_count: w(9)?,
            temp_array_count: w(10)?,
            array_instruction_count: w(11)?,
            cut_instruction_count: w(12)?,
            emit_instruction_count: w(13)?,
            texture_normal_instructions: w(14)?,
            texture_load_instructions: w(15)?,
            texture_comp_instructions: w(16)?,
            texture_bias_instructions: w(17)?,
            texture_gradient_instructions: w(18)?,
            mov_instruction_count: w(19)?,
            movc_instruction_count: w(20)?,
            conversion_instruction_count: w(21)?,
            bitwise_instruction_count: w(22)?,
            input_primitive: w(23)?.into(),
            gs_output_topology: w(24)?.into(),
            gs_max_output_vertex_count: w(25)?,
            gather_instructions: w(26)?,
            lod_instructions: w(27)?,
            sample_frequency: w(28)?,
            sm5,
            trailing: data.get(end..).ok_or(Error::Truncated { offset: end, what: "STAT", needed: 0, available: 0 })?,
        })
    }

    /// Serialises the chunk.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut words = vec![
            self.instruction_count,
            self.temp_register_count,
            self.def_count,
            self.dcl_count,
            self.float_instruction_count,
            self.int_instruction_count,
            self.uint_instruction_count,
            self.static_flow_control_count,
            self.dynamic_flow_control_count,
            self.macro_instruction_count,
            self.temp_array_count,
            self.array_instruction_count,
            self.cut_instruction_count,
            self.emit_instruction_count,
            self.texture_normal_instructions,
            self.texture_load_instructions,
            self.texture_comp_instructions,
            self.texture_bias_instructions,
            self.texture_gradient_instructions,
            self.mov_instruction_count,
            self.movc_instruction_count,
            self.conversion_instruction_count,
            self.bitwise_instruction_count,
            self.input_primitive.into(),
            self.gs_output_topology.into(),
            self.gs_max_output_vertex_count,
            self.gather_instructions,
            self.lod_instructions,
            self.sample_frequency,
        ];
        if let Some(s) = &self.sm5 {
            words.extend([
                s.gs_instance_count,
                s.control_points,
                s.hs_output_primitive.into(),
                s.hs_partitioning.into(),
                s.tessellator_domain.into(),
                s.barrier_instructions,
                s.interlocked_instructions,
                s.texture_store_instructions,
            ]);
        }
        let mut out: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
        out.extend_from_slice(self.trailing);
        out
    }
}
