//! Pixel shaders: `ps_4_0`, `ps_4_1`, `ps_5_0` and `ps_5_1` (register space 0)
//! programs run on 2×2 quads of pixels, as the functional spec's chapter 16 ("Pixel
//! Shader Stage") describes them. The caller gives each pixel's inputs (attributes
//! already interpolated) and says which pixels of a quad the primitive covers:
//! [`crate::raster`] makes such quads from triangles ([`crate::raster::draw`] shades
//! them).
//!
//! - [`shade`] runs the quads with the [`Resources`] given and returns each pixel's
//!   outputs ([`PixelOutput`]): `o0`–`o7` (`SV_Target0`–`7`), `oDepth` (also
//!   `oDepthGE`/`oDepthLE`, written as given: the rasterizer's checks of the
//!   conservative forms are not made), `oMask` (`SV_Coverage`), `oStencilRef`.
//! - Inputs: `v#` from [`QuadPixel::inputs`], except the system values `shade`
//!   supplies in the components declared: `SV_Position` = (x + 0.5, y + 0.5,
//!   [`QuadPixel::z`], [`QuadPixel::w`]) at the pixel's centre, `SV_IsFrontFace`
//!   (`0xFFFFFFFF` or 0, [`Quad::front_face`]), `SV_SampleIndex` (0: one sample per
//!   pixel) and `vCoverage` (`SV_Coverage` in: 1 for a covered pixel, 0 for a helper).
//!   Other inputs (`SV_PrimitiveID`, `SV_ClipDistance`...) are the caller's values.
//! - The quad: the four pixels run together. `deriv_rtx_coarse` is the difference
//!   along the quad's top row and `deriv_rty_coarse` along its left column, for all
//!   four pixels (the example of Microsoft's deriv_rtx_coarse page); the `_fine` forms
//!   take the pixel's own row or column (deriv_rtx_fine page); `deriv_rtx`/`deriv_rty`,
//!   which Direct3D lets be either, are fine. `sample`, `sample_b`, `sample_c` (and
//!   their `_cl_s` forms) and `lod` compute the LOD as `sample_d` does (spec 7.18.11)
//!   from the coarse derivatives of the address: one footprint per quad; `sample_b`'s
//!   bias is clamped to [-16, 15.99].
//! - Helper pixels: a pixel the primitive does not cover ([`QuadPixel::covered`]
//!   false) runs only to feed its quad's derivatives; `discard` makes a pixel one
//!   (its outputs are dropped; it runs on to its end, so that the derivatives after
//!   the `discard` still have four pixels). A helper's UAV writes and atomics do
//!   nothing (the functional spec's helper pixels have no side effects); the
//!   returning atomics (`imm_atomic_*`, including the counter's) give it 0. A quad
//!   with no covered pixel is not run.
//! - UAV accesses run in the order the pixels run, which Direct3D leaves open: the
//!   quads in the order given, and in a quad pixel after pixel up to each quad
//!   operation, then on from it (a program whose pixels race through a UAV gets one
//!   of the results Direct3D allows).
//! - Derivatives in flow control that diverges within the quad are undefined in
//!   Direct3D; here a pixel that is not at the same instruction contributes the
//!   values its registers hold (it waits at a later quad operation, or ended).
//!
//! Refused when the plan is compiled ([`ExecErrorKind::Unsupported`]):
//! `vInnerCoverage`; refused by `shade` (the quads it is given have no
//! attribute planes): `eval_snapped`, `eval_sample_index`, `eval_centroid`, which
//! [`crate::raster::draw`] runs. Every pixel is bounded by the step limit
//! ([`ExecErrorKind::StepLimit`]), counted over all its phases.
//!
//! ```
//! use exec::compute::Limits;
//! use exec::pixel::{self, Quad, QuadPixel};
//! use exec::{Plan, Resources};
//!
//! fn main() -> Result<(), Box<dyn std::error::Error>> {
//!     // o0.x = the x derivative of v0.x * SV_Position.x; o0.y = SV_Position.y.
//!     let listing = "ps_5_0\n\
//!                    dcl_input_ps linear v0.x\n\
//!                    dcl_input_ps_siv linear noperspective v1.xy, position\n\
//!                    dcl_output o0.xy\n\
//!                    dcl_temps 1\n\
//!                    mul r0.x, v0.x, v1.x\n\
//!                    deriv_rtx_fine o0.x, r0.x\n\
//!                    mov o0.y, v1.y\n\
//!                    ret\n";
//!     let bytecode = listing::asm::assemble(listing, &Default::default()).map_err(|d| format!("{d:?}"))?.bytes;
//!     let plan = Plan::from_bytecode(&bytecode)?;
//!     let attributes = [[3.0f32.to_bits(), 0, 0, 0]];
//!     let p = QuadPixel { covered: true, inputs: &attributes, z: 0.5, w: 1.0 };
//!     let quad = Quad { x: 4, y: 2, front_face: true, pixels: [p; 4] };
//!     let shaded = pixel::shade(&plan, &[quad], &mut Resources::default(), &Limits::default())?;
//!     let top_left = &shaded.quads[0][0];
//!     assert_eq!(top_left.targets[0][0], 3.0f32.to_bits()); // d(3x)/dx
//!     assert_eq!(top_left.targets[0][1], 2.5f32.to_bits()); // y + 0.5
//!     assert_eq!(shaded.ps_invocations, 4);
//!     Ok(())
//! }
//! ```

use tpf::{ProgramType, SystemName};

use crate::compute::Limits;
use crate::error::{ExecError, ExecErrorKind};
use crate::machine::{quad, Core, PS_DEPTH, PS_MASK, PS_STENCIL};
use crate::plan::Plan;
use crate::resources::Resources;

/// Render targets a pixel shader writes (`o0`–`o7`).
pub const TARGETS: usize = 8;

/// One pixel of a quad: what the rasterizer would give the pixel shader.
#[derive(Debug, Clone, Copy)]
pub struct QuadPixel<'a> {
    /// The primitive covers the pixel. A pixel that is not covered is a helper: it
    /// runs for its quad's derivatives, and its outputs are dropped.
    pub covered: bool,
    /// The `v#` registers by register number (interpolated attributes, as 32-bit
    /// patterns); missing registers read 0. The system values `shade` supplies
    /// replace the components declared for them.
    pub inputs: &'a [[u32; 4]],
    /// `SV_Position.z`: the pixel's depth.
    pub z: f32,
    /// `SV_Position.w`: the pixel's clip-space w (Direct3D's, not its reciprocal, which
    /// is what Vulkan's `FragCoord.w` and WGSL's `position.w` hold).
    pub w: f32,
}

/// A 2×2 quad: pixels (x, y), (x + 1, y), (x, y + 1), (x + 1, y + 1) in that order.
#[derive(Debug, Clone, Copy)]
pub struct Quad<'a> {
    /// The top-left pixel's x.
    pub x: u32,
    /// The top-left pixel's y.
    pub y: u32,
    /// `SV_IsFrontFace` of the primitive.
    pub front_face: bool,
    /// The four pixels.
    pub pixels: [QuadPixel<'a>; 4],
}

/// What one pixel wrote.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct PixelOutput {
    /// The pixel's outputs go on to the output merger: it is covered and was not
    /// discarded.
    pub written: bool,
    /// It ran a `discard` that took effect.
    pub discarded: bool,
    /// `o0`–`o7` as 32-bit patterns (0 where the program declares no such register).
    pub targets: [[u32; 4]; TARGETS],
    /// `oDepth` (or `oDepthGE`/`oDepthLE`), when the program declares it.
    pub depth: Option<u32>,
    /// `oMask`, when declared.
    pub coverage_mask: Option<u32>,
    /// `oStencilRef`, when declared.
    pub stencil_ref: Option<u32>,
}

/// What [`shade`] did.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Shaded {
    /// Each quad's pixels' outputs, in the order of the quads given.
    pub quads: Vec<[PixelOutput; 4]>,
    /// Pixel-shader invocations run (helpers included; quads without a covered pixel
    /// are not run).
    pub ps_invocations: u64,
    /// Instructions executed by all invocations.
    pub instructions: u64,
}

/// Runs the pixel shader `plan` on `quads` with `resources` bound (see the [module
/// documentation](self)).
///
/// Errors: `plan` is not a pixel shader ([`ExecErrorKind::Draw`]); an invocation ran
/// more than `limits.step_limit` instructions ([`ExecErrorKind::StepLimit`]); `abort`.
pub fn shade(
    plan: &Plan,
    quads: &[Quad<'_>],
    resources: &mut Resources<'_>,
    limits: &Limits,
) -> Result<Shaded, ExecError> {
    if plan.code.has_eval {
        return Err(ExecError::new(ExecErrorKind::Unsupported(
            "eval_snapped, eval_sample_index and eval_centroid need the attribute planes of a rasterized draw \
             (exec::raster::draw), not quads described by their caller"
                .into(),
        )));
    }
    shade_with(plan, quads, resources, limits, None)
}

/// Evaluates input register `v#` of pixel `lane` of quad `quad` at an offset from the
/// pixel's centre in sixteenths of a pixel (`raster`'s attribute planes).
pub(crate) type QuadEval<'e> = &'e dyn Fn(usize, usize, u32, [i32; 2]) -> [u32; 4];

/// [`shade`], with `eval` evaluating attributes for `eval_*`.
pub(crate) fn shade_with(
    plan: &Plan,
    quads: &[Quad<'_>],
    resources: &mut Resources<'_>,
    limits: &Limits,
    eval: Option<QuadEval<'_>>,
) -> Result<Shaded, ExecError> {
    let code = &plan.code;
    if plan.stage != ProgramType::Pixel || !code.stage_ps {
        return Err(ExecError::new(ExecErrorKind::Draw("shade of a shader that is not a pixel shader".into())));
    }
    let mut cores: [Core; 4] = std::array::from_fn(|_| Core::new());
    let mut out = Shaded { quads: Vec::with_capacity(quads.len()), ..Shaded::default() };
    let mut inputs = vec![[0u32; 4]; plan.input_registers as usize];
    let l = code.layout;
    for (qi, q) in quads.iter().enumerate() {
        let mut result = [PixelOutput::default(); 4];
        if !q.pixels.iter().any(|p| p.covered) {
            out.quads.push(result);
            continue;
        }
        for (k, (core, p)) in cores.iter_mut().zip(&q.pixels).enumerate() {
            let (x, y) = (q.x.wrapping_add(k as u32 & 1), q.y.wrapping_add(k as u32 >> 1));
            let n = p.inputs.len().min(inputs.len());
            inputs[..n].copy_from_slice(&p.inputs[..n]);
            inputs[n..].fill([0; 4]);
            for d in &plan.inputs {
                let value = match d.system {
                    SystemName::Position => {
                        [(x as f32 + 0.5).to_bits(), (y as f32 + 0.5).to_bits(), p.z.to_bits(), p.w.to_bits()]
                    }
                    SystemName::IsFrontFace => [if q.front_face { u32::MAX } else { 0 }; 4],
                    SystemName::SampleIndex => [0; 4],
                    _ => continue,
                };
                if let Some(r) = inputs.get_mut(d.register as usize) {
                    for c in 0..4 {
                        if d.mask & (1 << c) != 0 {
                            r[c] = value[c];
                        }
                    }
                }
            }
            core.start(code, &inputs, u32::from(p.covered), 0);
            core.helper = !p.covered;
        }
        let per_quad = eval.map(|f| move |l: usize, r: u32, o: [i32; 2]| f(qi, l, r, o));
        let per_quad = per_quad.as_ref().map(|f| f as &dyn Fn(usize, u32, [i32; 2]) -> [u32; 4]);
        out.instructions += quad::run_quad(&mut cores, code, resources, limits.step_limit, per_quad)?;
        out.ps_invocations += 4;
        for (r, (core, p)) in result.iter_mut().zip(cores.iter().zip(&q.pixels)) {
            r.discarded = p.covered && core.discarded;
            r.written = p.covered && !core.discarded;
            let reg = |i: u32| core.regs.get(i as usize).copied().unwrap_or([0; 4]);
            for (t, target) in r.targets.iter_mut().enumerate().take(plan.output_registers as usize) {
                *target = reg(t as u32);
            }
            let special = |bit: u8, k: u32| (code.ps_outputs & bit != 0).then(|| reg(l.depth + k)[0]);
            r.depth = special(PS_DEPTH, 0);
            r.coverage_mask = special(PS_MASK, 1);
            r.stencil_ref = special(PS_STENCIL, 2);
        }
        out.quads.push(result);
    }
    Ok(out)
}
