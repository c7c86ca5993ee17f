//! Triangles rasterized as the D3D11.3 functional spec's Rasterizer Stage (chapter 15)
//! and Rasterization Rules (3.4) say, single-sample, into quads for [`pixel::shade`].
//!
//! The input is what leaves the vertex or geometry shader: each triangle's three
//! vertices as output registers (32-bit patterns), `SV_Position` in the register
//! [`RasterState::position_register`], the attributes in the registers the pixel
//! shader reads them from (the pixel shader's `v#` is the vertex's `o#` of the same
//! number, as fxc lays out matching signatures).
//!
//! - Clipping, perspective divide, viewport scale (15.3–15.6): x, y and z are divided
//!   by w in float32 and scaled by the [`Viewport`] with the spec's float32 formulas
//!   (`Xrt = (X + 1) · Width · 0.5 + TopLeftX`, `Yrt = (1 − Y) · Height · 0.5 +
//!   TopLeftY`, `Zrt = MinDepth + Z · (MaxDepth − MinDepth)`). No geometric clipping
//!   is made: x and y are not clipped (a guard band as wide as the 16.8 range below),
//!   pixels outside the implicit scissor of the viewport (15.7: its extents
//!   `TopLeftX`, `TopLeftX + Width`... each rounded toward negative infinity, so a
//!   fractional left or top edge admits the half-pixel "non-deterministic zone" of
//!   15.6.1 and a fractional right or bottom edge drops the pixel it cuts) or the
//!   render target are not drawn. The depth clip `0 ≤ z ≤ w`
//!   ([`RasterState::depth_clip`]) is made per pixel, on the interpolated z/w, which
//!   is where a geometric clip's edge falls. A triangle with a NaN in a position is
//!   discarded (15.4, 15.16.1), and so is one whose three vertices are all outside
//!   the same plane of the clip volume (−w ≤ x ≤ w, −w ≤ y ≤ w, w > 0, and 0 ≤ z ≤ w
//!   with the depth clip: nothing of it is visible). Of the others, one whose w
//!   changes sign, or with a vertex whose render-target x or y is outside the 16.8
//!   range, would need a geometric clip (against w > 0, or to the guard band), which
//!   is not made: [`ExecErrorKind::Unsupported`].
//! - Snapping (3.4.1, 15.16): x and y are converted to 16.8 fixed point (3.2.4.1:
//!   round to nearest even, within [−32768, 32767 + 255/256]); coverage, the face
//!   and the interpolation are computed from the snapped positions, coverage exactly
//!   (integer edge functions).
//! - Coverage (3.4.2): one sample per pixel, at its centre; a centre on an edge is in
//!   the triangle when the edge is a top or a left edge (the Top-Left Rule 3.4.2.1), so
//!   that triangles sharing an edge cover each pixel along it once.
//! - Face (15.11, 15.12): clockwise in render-target space (y down) is front unless
//!   [`RasterState::front_counter_clockwise`]; a zero-area triangle is back-facing (and
//!   covers nothing); [`Cull`] drops front or back faces after snapping.
//! - Attributes (16.4 "Rasterizer / Pixel Shader Attribute Interpolation Modes"), by
//!   the mode the pixel shader declares for the register (its [`InputDecl`]s):
//!   `constant` is the leading vertex's bits untouched (the first vertex of the
//!   triangle as given, D3D11's leading vertex of a list, 8.14); `linear` is
//!   perspective-correct (Σ bᵢ·aᵢ/wᵢ ÷ Σ bᵢ/wᵢ, 15.5); `linear noperspective` is
//!   Σ bᵢ·aᵢ; the `centroid` and `sample` forms, with one sample at the pixel centre,
//!   are evaluated at the centre. bᵢ are the barycentric coordinates of the sample
//!   point in the snapped triangle (ratios of the exact integer edge functions, in
//!   float64), the sums are made in float64 and rounded to float32 once. A register
//!   declared without a mode (only as `SV_IsFrontFace`, `SV_SampleIndex`...) is
//!   constant.
//! - `SV_Position` (supplied by [`pixel::shade`]): x + 0.5, y + 0.5, z = the viewport-
//!   scaled depth interpolated without perspective, w = the clip-space w interpolated
//!   with perspective (1 ÷ Σ bᵢ/wᵢ). Nothing else is generated: `SV_PrimitiveID`,
//!   `SV_RenderTargetArrayIndex` and `SV_ViewportArrayIndex` are whatever the leading
//!   vertex holds in the register the pixel shader reads them from (constant
//!   interpolation of the caller's values; the rasterizer counts no primitives and
//!   selects no viewport or render-target slice).
//! - Quads: each triangle's covered pixels are grouped into the 2×2 quads aligned on
//!   even coordinates that hold one (row after row of quads); the quad's other pixels
//!   are helpers, their attributes evaluated at their own centres (extrapolated).
//!
//! The [`Setup`] of a triangle keeps what its attribute planes are made of (the
//! snapped positions, the edge functions' area, 1/w and every register at each
//! vertex), and evaluates any register at any point in 1/256 pixel
//! ([`Setup::evaluate`], [`Setup::pull`]): [`draw`] runs the pull-model
//! `eval_snapped` (at the pixel centre moved by the offset's sixteenths of a pixel,
//! 22.4.25), `eval_sample_index` and `eval_centroid` (one sample: the centre) with
//! them, by the register's declared interpolation (16.5 "Pull Model Attribute
//! Evaluation": its `centroid` or `sample` ignored; constant inputs give the leading
//! vertex's value). [`pixel::shade`], whose quads have no planes, refuses programs
//! that use them.
//!
//! [`draw`] runs a pixel shader over triangles and keeps the last covered, not
//! discarded pixel's outputs per render-target pixel (primitive order; no depth or
//! stencil test, blending or format conversion).
//!
//! Bounded: the render target is at most [`MAX_TARGET_DIMENSION`] on a side and
//! [`MAX_TARGET_PIXELS`] in all (a larger target is drawn band after band of rows by
//! [`draw_rows`], each band within it), the viewport within the spec's range (15.6.1), the
//! pixel shader reads at most [`MAX_INPUT_REGISTERS`] registers; a triangle's work is
//! bounded by the pixels of the target it covers, and [`draw`] shades at most
//! [`QUADS_PER_SHADE`] quads at a time. [`Drawn::pixels`] holds an
//! `Option<PixelOutput>` of 156 bytes per pixel: 156 MiB at [`MAX_TARGET_PIXELS`],
//! allocated up front by [`draw`]. Every public function returns an error or a value
//! for any input (no panics): [`Setup`]'s fields are private, and
//! [`Setup::covers`], [`Setup::barycentrics`] and [`Setup::pull`] take any point.
//!
//! ```
//! use exec::compute::Limits;
//! use exec::raster::{self, Cull, RasterState, Viewport};
//! use exec::{Plan, Resources};
//!
//! fn main() -> Result<(), Box<dyn std::error::Error>> {
//!     // o0 = v1 (perspective-correct), the position in v0.
//!     let listing = "ps_4_0\n\
//!                    dcl_input_ps linear v1.x\n\
//!                    dcl_output o0.x\n\
//!                    mov o0.x, v1.x\n\
//!                    ret\n";
//!     let bytecode = listing::asm::assemble(listing, &Default::default()).map_err(|d| format!("{d:?}"))?.bytes;
//!     let ps = Plan::from_bytecode(&bytecode)?;
//!     // A triangle over the whole 4 × 4 target (clip space), attribute 1, 2, 3.
//!     let f = |v: [f32; 4]| v.map(f32::to_bits);
//!     let v0 = [f([-1.0, 1.0, 0.0, 1.0]), f([1.0, 0.0, 0.0, 0.0])];
//!     let v1 = [f([3.0, 1.0, 0.0, 1.0]), f([2.0, 0.0, 0.0, 0.0])];
//!     let v2 = [f([-1.0, -3.0, 0.0, 1.0]), f([3.0, 0.0, 0.0, 0.0])];
//!     let state = RasterState {
//!         viewport: Viewport { top_left_x: 0.0, top_left_y: 0.0, width: 4.0, height: 4.0, min_depth: 0.0, max_depth: 1.0 },
//!         target_width: 4,
//!         target_height: 4,
//!         cull: Cull::None,
//!         front_counter_clockwise: false,
//!         depth_clip: true,
//!         position_register: 0,
//!     };
//!     let drawn = raster::draw(&ps, &[[&v0[..], &v1[..], &v2[..]]], &state, &mut Resources::default(), &Limits::default())?;
//!     // Every pixel is covered (the triangle's hypotenuse runs outside the target).
//!     assert!(drawn.pixels.iter().all(|p| p.is_some()));
//!     // Pixel (0, 0)'s centre (0.5, 0.5) has barycentrics (7/8, 1/16, 1/16).
//!     assert_eq!(drawn.pixels[0].map(|p| f32::from_bits(p.targets[0][0])), Some(1.1875));
//!     Ok(())
//! }
//! ```

use std::ops::Range;

use tpf::{InterpolationMode, ProgramType};

use crate::compute::Limits;
use crate::error::{ExecError, ExecErrorKind};
use crate::pixel::{self, PixelOutput, Quad, QuadPixel};
use crate::plan::{InputDecl, Plan};
use crate::resources::Resources;

/// The largest render target side: `D3D11_REQ_TEXTURE2D_U_OR_V_DIMENSION`.
pub const MAX_TARGET_DIMENSION: u32 = 16384;
/// The most pixels a render target of [`draw`] and [`Setup::quads`] may have (a bound
/// of this implementation, on its memory: 1024 × 1024; [`Drawn::pixels`] then takes
/// 156 MiB).
pub const MAX_TARGET_PIXELS: u64 = 1 << 20;
/// The most input registers a pixel shader reads (`D3D11_PS_INPUT_REGISTER_COUNT`).
pub const MAX_INPUT_REGISTERS: u32 = 32;
/// The most quads [`draw`] hands [`pixel::shade`] at once.
pub const QUADS_PER_SHADE: usize = 1024;
/// The viewport's range (15.6.1 "Viewport Range"): `TopLeftX`, `TopLeftX + Width` and
/// the same in y within [−32768, 32767].
pub const VIEWPORT_BOUNDS: (f32, f32) = (-32768.0, 32767.0);

/// Fraction bits of the snapped positions (16.8).
const FRACTION: u32 = 8;
/// One pixel in snapped units.
const ONE: i64 = 1 << FRACTION;
/// Half a pixel: the centre's offset.
const HALF: i64 = ONE / 2;

/// `D3D11_VIEWPORT`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Viewport {
    /// `TopLeftX`.
    pub top_left_x: f32,
    /// `TopLeftY`.
    pub top_left_y: f32,
    /// `Width`.
    pub width: f32,
    /// `Height`.
    pub height: f32,
    /// `MinDepth` (in [0, 1]).
    pub min_depth: f32,
    /// `MaxDepth` (in [`min_depth`](Self::min_depth), 1]).
    pub max_depth: f32,
}

/// `D3D11_CULL_MODE`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Cull {
    /// `D3D11_CULL_NONE`: every triangle is drawn.
    None,
    /// `D3D11_CULL_FRONT`: front-facing triangles are dropped.
    Front,
    /// `D3D11_CULL_BACK`: back-facing triangles are dropped.
    Back,
}

/// The rasterizer state of a draw (the parts of `D3D11_RASTERIZER_DESC` that apply to
/// solid, single-sample triangles) with the viewport and the render target's size.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RasterState {
    /// The one viewport.
    pub viewport: Viewport,
    /// The render target's width in pixels (1 to [`MAX_TARGET_DIMENSION`]).
    pub target_width: u32,
    /// The render target's height in pixels.
    pub target_height: u32,
    /// `CullMode`.
    pub cull: Cull,
    /// `FrontCounterClockwise`.
    pub front_counter_clockwise: bool,
    /// `DepthClipEnable`: pixels whose interpolated z/w is outside [0, 1] are not drawn.
    pub depth_clip: bool,
    /// The vertex register holding `SV_Position` (clip space).
    pub position_register: u32,
}

impl RasterState {
    /// Checks the limits [`draw`] and [`Setup::quads`] refuse the state for: the
    /// target's size ([`MAX_TARGET_DIMENSION`], [`MAX_TARGET_PIXELS`]), the viewport's
    /// range (15.6.1) and depth range ([`ExecErrorKind::Draw`]), so that a caller can
    /// refuse a draw before running the earlier stages.
    pub fn check(&self) -> Result<(), ExecError> {
        self.scissor().map(|_| ())
    }

    /// Checks the limits [`draw_rows`] refuses the state and `rows` for: as
    /// [`check`](Self::check), with [`MAX_TARGET_PIXELS`] bounding the rows' pixels
    /// instead of the target's, and `rows` within the target, starting on an even row.
    pub fn check_rows(&self, rows: Range<u32>) -> Result<(), ExecError> {
        self.scissor_rows(rows).map(|_| ())
    }

    /// Checks the limits; gives the implicit scissor (the viewport's pixels within
    /// the target): x0, y0 inclusive, x1, y1 exclusive.
    fn scissor(&self) -> Result<[i64; 4], ExecError> {
        self.scissor_rows(0..self.target_height)
    }

    /// [`scissor`](Self::scissor) restricted to `rows`.
    fn scissor_rows(&self, rows: Range<u32>) -> Result<[i64; 4], ExecError> {
        let draw = |what: String| ExecError::new(ExecErrorKind::Draw(what));
        let (w, h) = (self.target_width, self.target_height);
        if w == 0 || h == 0 || w > MAX_TARGET_DIMENSION || h > MAX_TARGET_DIMENSION {
            return Err(draw(format!("a {w} x {h} render target (1 to {MAX_TARGET_DIMENSION} pixels a side)")));
        }
        if rows.start > rows.end || rows.end > h || !rows.start.is_multiple_of(2) {
            return Err(draw(format!("rows {rows:?} of a {h}-row render target (from an even row)")));
        }
        if u64::from(w) * u64::from(rows.end - rows.start) > MAX_TARGET_PIXELS {
            return Err(draw(format!(
                "a {w} x {} render target: more than {MAX_TARGET_PIXELS} pixels",
                rows.end - rows.start
            )));
        }
        let v = &self.viewport;
        let (lo, hi) = VIEWPORT_BOUNDS;
        let within = |a: f32| a.is_finite() && (lo..=hi).contains(&a);
        let ends = [v.top_left_x, v.top_left_y, v.top_left_x + v.width, v.top_left_y + v.height];
        if !(ends.iter().all(|&e| within(e)) && v.width >= 0.0 && v.height >= 0.0) {
            return Err(draw(format!("viewport {v:?} outside the range of 15.6.1")));
        }
        if !(0.0..=1.0).contains(&v.min_depth) || !(v.min_depth..=1.0).contains(&v.max_depth) {
            return Err(draw(format!("viewport depth range [{}, {}]", v.min_depth, v.max_depth)));
        }
        // The values are within ±32768: the conversions are exact.
        let x0 = (v.top_left_x.floor() as i64).max(0);
        let y0 = (v.top_left_y.floor() as i64).max(i64::from(rows.start));
        let x1 = ((v.top_left_x + v.width).floor() as i64).min(i64::from(w));
        let y1 = ((v.top_left_y + v.height).floor() as i64).min(i64::from(rows.end));
        Ok([x0, y0, x1, y1])
    }
}

/// float32 → 16.8 fixed point (3.2.4.1): round to nearest even; `None` outside the
/// 16.8 range [−32768, 32767 + 255/256] (and for NaN and ±infinity), where clamping
/// would change the triangle's shape.
fn snap(v: f32) -> Option<i64> {
    let min = -(1i64 << 23);
    let max = (1i64 << 23) - 1;
    // NaN and ±infinity fail the range test; the conversion of what passes is exact.
    let scaled = (f64::from(v) * ONE as f64).round_ties_even();
    ((min as f64)..=(max as f64)).contains(&scaled).then_some(scaled as i64)
}

/// The triangle lies entirely outside one plane of the clip volume (15.4, the
/// homogeneous clip-space test: all three vertices beyond the same plane of
/// −w ≤ x ≤ w, −w ≤ y ≤ w, and 0 ≤ z ≤ w when `depth_clip`), so a clipper would
/// leave nothing of it, whatever the signs of its w.
fn outside_a_clip_plane(clip: &[[f32; 4]; 3], depth_clip: bool) -> bool {
    let all = |f: &dyn Fn(&[f32; 4]) -> bool| clip.iter().all(f);
    all(&|c| c[0] > c[3])
        || all(&|c| c[0] < -c[3])
        || all(&|c| c[1] > c[3])
        || all(&|c| c[1] < -c[3])
        || all(&|c| c[3] <= 0.0)
        || (depth_clip && (all(&|c| c[2] < 0.0) || all(&|c| c[2] > c[3])))
}

/// How a register is interpolated, from its declared mode.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Interpolation {
    /// The leading vertex's bits.
    Constant,
    /// With perspective correction.
    Perspective,
    /// Linear in render-target space.
    NoPerspective,
}

impl Interpolation {
    /// The interpolation of a declared mode (`centroid` and `sample` evaluate where
    /// the sample is; with one sample, at the centre). `Undefined` is constant.
    pub fn of(mode: InterpolationMode) -> Interpolation {
        match mode {
            InterpolationMode::Linear | InterpolationMode::LinearCentroid | InterpolationMode::LinearSample => {
                Interpolation::Perspective
            }
            InterpolationMode::LinearNoPerspective
            | InterpolationMode::LinearNoPerspectiveCentroid
            | InterpolationMode::LinearNoPerspectiveSample => Interpolation::NoPerspective,
            _ => Interpolation::Constant,
        }
    }
}

/// Each input register's interpolation (the first declaration with a mode decides;
/// the spec requires one mode per register), for `registers` registers.
fn modes(inputs: &[InputDecl], registers: usize) -> Vec<Interpolation> {
    let mut out = vec![None; registers];
    for d in inputs {
        if let Some(slot) = out.get_mut(d.register as usize) {
            if slot.is_none() && d.interpolation != InterpolationMode::Undefined {
                *slot = Some(Interpolation::of(d.interpolation));
            }
        }
    }
    out.into_iter().map(|m| m.unwrap_or(Interpolation::Constant)).collect()
}

/// A triangle set up for rasterization: its snapped positions, face, and everything its
/// attribute planes are made of.
#[derive(Debug, Clone, PartialEq)]
pub struct Setup {
    /// The snapped render-target positions (16.8: 256 = one pixel, each coordinate
    /// within ±2^23), in the vertices' order.
    positions: [[i64; 2]; 3],
    /// `SV_IsFrontFace`.
    front_face: bool,
    /// Twice the signed area of the snapped triangle, in (1/256 pixel)², positive when
    /// clockwise in render-target space (never 0).
    area2: i64,
    /// The vertices' z/w (before the viewport's depth scale).
    z: [f64; 3],
    /// The vertices' 1/w.
    inv_w: [f64; 3],
    /// The viewport's depth scale: `MinDepth`, `MaxDepth − MinDepth`.
    depth: (f32, f32),
    /// Each input register's interpolation (as many as `attributes`).
    modes: Vec<Interpolation>,
    /// Each input register at each vertex: `attributes[register][vertex]`.
    attributes: Vec<[[u32; 4]; 3]>,
}

/// Barycentric coordinates of a point with respect to the three vertices.
pub type Barycentrics = [f64; 3];

impl Setup {
    /// Sets up the triangle `vertices` (each vertex's registers) for the pixel shader
    /// `ps` under `state`. `Ok(None)`: nothing to draw (a NaN position, all three
    /// vertices beyond the same clip plane — behind the viewer among them —, zero
    /// area or culled).
    ///
    /// Errors: `ps` is not a pixel shader or reads more than [`MAX_INPUT_REGISTERS`]
    /// registers, a vertex has no position register ([`ExecErrorKind::Draw`]); the
    /// triangle crosses w = 0, or a vertex's render-target x or y is outside the 16.8
    /// range, and it is not beyond a clip plane ([`ExecErrorKind::Unsupported`]: it
    /// would need a geometric clip).
    pub fn new(ps: &Plan, vertices: [&[[u32; 4]]; 3], state: &RasterState) -> Result<Option<Setup>, ExecError> {
        let draw = |what: String| ExecError::new(ExecErrorKind::Draw(what));
        if ps.stage != ProgramType::Pixel {
            return Err(draw("rasterizing for a shader that is not a pixel shader".into()));
        }
        if ps.input_registers > MAX_INPUT_REGISTERS {
            return Err(draw(format!("a pixel shader reading {} input registers", ps.input_registers)));
        }
        let r = state.position_register as usize;
        let mut clip = [[0f32; 4]; 3];
        for (c, v) in clip.iter_mut().zip(vertices) {
            let p = v.get(r).ok_or_else(|| draw(format!("a vertex without its position register o{r}")))?;
            *c = p.map(f32::from_bits);
        }
        if clip.iter().flatten().any(|c| c.is_nan()) || outside_a_clip_plane(&clip, state.depth_clip) {
            return Ok(None);
        }
        if clip.iter().any(|c| c[3] <= 0.0) {
            return Err(ExecError::new(ExecErrorKind::Unsupported(
                "a triangle crossing w = 0 and not outside a clip plane (no geometric clipping against w > 0)".into(),
            )));
        }
        let v = &state.viewport;
        let mut positions = [[0i64; 2]; 3];
        let mut z = [0f64; 3];
        let mut inv_w = [0f64; 3];
        for k in 0..3 {
            let [x, y, zc, w] = clip[k];
            let (nx, ny, nz) = (x / w, y / w, zc / w);
            let xrt = (nx + 1.0) * v.width * 0.5 + v.top_left_x;
            let yrt = (1.0 - ny) * v.height * 0.5 + v.top_left_y;
            if xrt.is_nan() || yrt.is_nan() || nz.is_nan() {
                return Ok(None);
            }
            let (Some(sx), Some(sy)) = (snap(xrt), snap(yrt)) else {
                return Err(ExecError::new(ExecErrorKind::Unsupported(format!(
                    "a vertex at ({xrt}, {yrt}) in the render target, outside the 16.8 fixed-point range \
                     (no geometric clipping to a guard band)"
                ))));
            };
            positions[k] = [sx, sy];
            z[k] = f64::from(nz);
            inv_w[k] = 1.0 / f64::from(w);
        }
        let [p0, p1, p2] = positions;
        let area2 = (p1[0] - p0[0]) * (p2[1] - p0[1]) - (p1[1] - p0[1]) * (p2[0] - p0[0]);
        let clockwise = area2 > 0;
        let front_face = area2 != 0 && clockwise != state.front_counter_clockwise;
        let culled = match state.cull {
            Cull::None => false,
            Cull::Front => front_face,
            Cull::Back => !front_face,
        };
        if area2 == 0 || culled {
            return Ok(None);
        }
        let registers = ps.input_registers as usize;
        let attributes = (0..registers).map(|reg| vertices.map(|v| v.get(reg).copied().unwrap_or([0; 4]))).collect();
        Ok(Some(Setup {
            positions,
            front_face,
            area2,
            z,
            inv_w,
            depth: (v.min_depth, v.max_depth - v.min_depth),
            modes: modes(&ps.inputs, registers),
            attributes,
        }))
    }

    /// The snapped render-target positions (16.8: 256 = one pixel), in the vertices'
    /// order.
    pub fn positions(&self) -> [[i64; 2]; 3] {
        self.positions
    }

    /// `SV_IsFrontFace`.
    pub fn front_face(&self) -> bool {
        self.front_face
    }

    /// Twice the signed area of the snapped triangle, in (1/256 pixel)², positive when
    /// clockwise in render-target space (never 0).
    pub fn area2(&self) -> i64 {
        self.area2
    }

    /// The edge function of the edge opposite vertex `k` (0 to 2) at the point `p`
    /// (1/256 pixel), signed so that the inside is positive; exact for any point (the
    /// operands are below 2^25 and 2^65, the products below 2^90).
    fn edge(&self, k: usize, p: [i64; 2]) -> i128 {
        let a = self.positions[(k + 1) % 3].map(i128::from);
        let b = self.positions[(k + 2) % 3].map(i128::from);
        let p = p.map(i128::from);
        let e = (b[0] - a[0]) * (p[1] - a[1]) - (b[1] - a[1]) * (p[0] - a[0]);
        if self.area2 > 0 {
            e
        } else {
            -e
        }
    }

    /// [`Self::edge`] in 64 bits, for the pixel centres of a render target (`p`
    /// within ±2^23: the operands are below 2^25, the products below 2^50).
    fn edge_near(&self, k: usize, p: [i64; 2]) -> i64 {
        let a = self.positions[(k + 1) % 3];
        let b = self.positions[(k + 2) % 3];
        let e = (b[0] - a[0]) * (p[1] - a[1]) - (b[1] - a[1]) * (p[0] - a[0]);
        if self.area2 > 0 {
            e
        } else {
            -e
        }
    }

    /// The edge opposite vertex `k` is a top or a left edge (3.4.2.1), in the
    /// clockwise orientation the signs of [`Self::edge`] stand for.
    fn top_left(&self, k: usize) -> bool {
        let (mut a, mut b) = (self.positions[(k + 1) % 3], self.positions[(k + 2) % 3]);
        if self.area2 < 0 {
            std::mem::swap(&mut a, &mut b);
        }
        let (dx, dy) = (b[0] - a[0], b[1] - a[1]);
        // Clockwise with y down: a left edge goes up, a top edge goes right.
        dy < 0 || (dy == 0 && dx > 0)
    }

    /// The sample point `p` (1/256 pixel, anywhere) is inside the triangle (the
    /// Top-Left Rule on its edges).
    pub fn covers(&self, p: [i64; 2]) -> bool {
        (0..3).all(|k| {
            let e = self.edge(k, p);
            e > 0 || (e == 0 && self.top_left(k))
        })
    }

    /// [`Self::covers`] for a pixel centre of a render target (within ±2^23).
    fn covers_near(&self, p: [i64; 2]) -> bool {
        (0..3).all(|k| {
            let e = self.edge_near(k, p);
            e > 0 || (e == 0 && self.top_left(k))
        })
    }

    /// The barycentric coordinates of `p` (1/256 pixel, anywhere) in the snapped
    /// triangle.
    pub fn barycentrics(&self, p: [i64; 2]) -> Barycentrics {
        let area = self.area2.unsigned_abs() as f64;
        [0, 1, 2].map(|k| self.edge(k, p) as f64 / area)
    }

    /// [`Self::barycentrics`] for a pixel centre of a render target (within ±2^23).
    fn barycentrics_near(&self, p: [i64; 2]) -> Barycentrics {
        let area = self.area2.unsigned_abs() as f64;
        [0, 1, 2].map(|k| self.edge_near(k, p) as f64 / area)
    }

    /// Register `register` at the point of barycentrics `b`, interpolated as
    /// `interpolation` (a register past those set up is 0).
    pub fn evaluate(&self, register: usize, interpolation: Interpolation, b: Barycentrics) -> [u32; 4] {
        let Some(a) = self.attributes.get(register) else { return [0; 4] };
        match interpolation {
            Interpolation::Constant => a[0],
            Interpolation::NoPerspective => std::array::from_fn(|c| {
                let v = (0..3).map(|k| b[k] * f64::from(f32::from_bits(a[k][c]))).sum::<f64>();
                (v as f32).to_bits()
            }),
            Interpolation::Perspective => {
                let q = [0, 1, 2].map(|k| b[k] * self.inv_w[k]);
                let sum = q[0] + q[1] + q[2];
                std::array::from_fn(|c| {
                    let v = (0..3).map(|k| q[k] * f64::from(f32::from_bits(a[k][c]))).sum::<f64>();
                    ((v / sum) as f32).to_bits()
                })
            }
        }
    }

    /// Register `register` pulled at pixel (x, y)'s centre moved by `offset`
    /// sixteenths of a pixel, with the register's declared interpolation (its
    /// `centroid` or `sample` ignored): what `eval_snapped` reads (functional spec
    /// 16.5 "Pull Model Attribute Evaluation", 22.4.25), and with no offset
    /// `eval_sample_index` and `eval_centroid` (one sample, at the centre).
    pub fn pull(&self, register: usize, x: u32, y: u32, offset: [i32; 2]) -> [u32; 4] {
        // Below 2^41 in magnitude: no overflow.
        let p = [
            i64::from(x) * ONE + HALF + i64::from(offset[0]) * (ONE / 16),
            i64::from(y) * ONE + HALF + i64::from(offset[1]) * (ONE / 16),
        ];
        let mode = self.modes.get(register).copied().unwrap_or(Interpolation::Constant);
        self.evaluate(register, mode, self.barycentrics(p))
    }

    /// `SV_Position.z` (the viewport-scaled depth, interpolated without perspective)
    /// and `.w` (the clip-space w, with perspective) at barycentrics `b`, and whether
    /// the depth clip keeps the point.
    pub fn depth(&self, b: Barycentrics) -> (f32, f32, bool) {
        let ndc = (0..3).map(|k| b[k] * self.z[k]).sum::<f64>();
        let z = self.depth.0 + ndc as f32 * self.depth.1;
        let w = 1.0 / (0..3).map(|k| b[k] * self.inv_w[k]).sum::<f64>();
        (z, w as f32, (0.0..=1.0).contains(&ndc))
    }

    /// Visits the quads of the triangle, row after row of quads: each 2×2 quad aligned
    /// on even coordinates in which the triangle covers a pixel of the target within
    /// the viewport. Errors: [`RasterState`]'s limits ([`ExecErrorKind::Draw`]), or
    /// what `visit` returns.
    pub fn quads(
        &self,
        state: &RasterState,
        visit: impl FnMut(&RasterQuad) -> Result<(), ExecError>,
    ) -> Result<(), ExecError> {
        self.quads_within(state, state.scissor()?, visit)
    }

    /// [`Self::quads`] within the implicit scissor `scissor` (checked by the caller).
    fn quads_within(
        &self,
        state: &RasterState,
        scissor: [i64; 4],
        mut visit: impl FnMut(&RasterQuad) -> Result<(), ExecError>,
    ) -> Result<(), ExecError> {
        let [sx0, sy0, sx1, sy1] = scissor;
        let lo = |i: usize| self.positions.iter().map(|p| p[i]).min().unwrap_or(0);
        let hi = |i: usize| self.positions.iter().map(|p| p[i]).max().unwrap_or(0);
        // Pixels whose centre (256·x + 128) can be in the bounding box.
        let first = |m: i64| (m - HALF).div_euclid(ONE) + i64::from((m - HALF).rem_euclid(ONE) != 0);
        let last = |m: i64| (m - HALF).div_euclid(ONE);
        let (x0, x1) = (first(lo(0)).max(sx0), (last(hi(0)) + 1).min(sx1));
        let (y0, y1) = (first(lo(1)).max(sy0), (last(hi(1)) + 1).min(sy1));
        if x0 >= x1 || y0 >= y1 {
            return Ok(());
        }
        let registers = self.attributes.len();
        let mut quad = RasterQuad {
            x: 0,
            y: 0,
            front_face: self.front_face,
            covered: [false; 4],
            z: [0.0; 4],
            w: [0.0; 4],
            inputs: vec![[0; 4]; 4 * registers],
        };
        // The quads' pixels are within the target (0 to 16384, x0 & !1 ≥ 0 and the
        // quad's far pixel at most 16384): their centres are within ±2^23.
        let centre = |x: i64, y: i64| [x * ONE + HALF, y * ONE + HALF];
        let mut qy = y0 & !1;
        while qy < y1 {
            let mut qx = x0 & !1;
            while qx < x1 {
                // Coverage first; the quad is interpolated only when a pixel is covered.
                let mut any = false;
                let mut found: [Option<Barycentrics>; 4] = [None; 4];
                for (k, b) in found.iter_mut().enumerate() {
                    let (x, y) = (qx + (k & 1) as i64, qy + (k >> 1) as i64);
                    let inside = (sx0..sx1).contains(&x) && (sy0..sy1).contains(&y);
                    let mut covered = false;
                    if inside && self.covers_near(centre(x, y)) {
                        let at = self.barycentrics_near(centre(x, y));
                        covered = !state.depth_clip || self.depth(at).2;
                        *b = Some(at);
                    }
                    quad.covered[k] = covered;
                    any |= covered;
                }
                if any {
                    for (k, found) in found.into_iter().enumerate() {
                        let (x, y) = (qx + (k & 1) as i64, qy + (k >> 1) as i64);
                        let b = found.unwrap_or_else(|| self.barycentrics_near(centre(x, y)));
                        (quad.z[k], quad.w[k], _) = self.depth(b);
                        let slots = quad.inputs.iter_mut().skip(k * registers).take(registers);
                        for ((slot, mode), reg) in slots.zip(&self.modes).zip(0..) {
                            *slot = self.evaluate(reg, *mode, b);
                        }
                    }
                    // Within the target: 0 ≤ qx, qy < 16384.
                    (quad.x, quad.y) = (qx as u32, qy as u32);
                    visit(&quad)?;
                }
                qx += 2;
            }
            qy += 2;
        }
        Ok(())
    }
}

/// A quad of a rasterized triangle, as [`Setup::quads`] visits it.
#[derive(Debug, Clone, PartialEq)]
pub struct RasterQuad {
    /// The top-left pixel's x (even).
    pub x: u32,
    /// The top-left pixel's y (even).
    pub y: u32,
    /// `SV_IsFrontFace`.
    pub front_face: bool,
    /// Which of the four pixels (x, y), (x + 1, y), (x, y + 1), (x + 1, y + 1) the
    /// triangle covers (the others are helpers).
    pub covered: [bool; 4],
    /// Each pixel's `SV_Position.z`.
    pub z: [f32; 4],
    /// Each pixel's `SV_Position.w` (clip-space w).
    pub w: [f32; 4],
    /// Each pixel's interpolated input registers, one pixel after the other.
    pub inputs: Vec<[u32; 4]>,
}

impl RasterQuad {
    /// The quad as [`pixel::shade`] takes it.
    pub fn as_quad(&self) -> Quad<'_> {
        let n = self.inputs.len() / 4;
        Quad {
            x: self.x,
            y: self.y,
            front_face: self.front_face,
            pixels: std::array::from_fn(|k| QuadPixel {
                covered: self.covered[k],
                inputs: self.inputs.get(k * n..(k + 1) * n).unwrap_or(&[]),
                z: self.z[k],
                w: self.w[k],
            }),
        }
    }
}

/// What [`draw`] left.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Drawn {
    /// The render target's width.
    pub width: u32,
    /// Each pixel (row after row; of the rows drawn for [`draw_rows`]): the outputs of
    /// the last pixel-shader invocation that wrote it, `None` where none did (156 bytes
    /// a pixel).
    pub pixels: Vec<Option<PixelOutput>>,
    /// Triangles set up and rasterized (not discarded or culled).
    pub triangles: u64,
    /// Quads shaded.
    pub quads: u64,
    /// Pixel-shader invocations (helpers included).
    pub ps_invocations: u64,
}

/// Rasterizes `triangles` (each vertex's registers, the leading vertex first) under
/// `state` and runs the pixel shader `ps` on their quads with `resources`; each
/// render-target pixel keeps the outputs of the last invocation that wrote it (see the
/// [module documentation](self)).
///
/// Errors: those of [`Setup::new`], [`Setup::quads`] and [`pixel::shade`].
pub fn draw(
    ps: &Plan,
    triangles: &[[&[[u32; 4]]; 3]],
    state: &RasterState,
    resources: &mut Resources<'_>,
    limits: &Limits,
) -> Result<Drawn, ExecError> {
    draw_rows(ps, triangles, state, 0..state.target_height, resources, limits)
}

/// [`draw`] over the target's `rows` only (from an even row, so that no quad straddles
/// two calls; their pixels at most [`MAX_TARGET_PIXELS`]): [`Drawn::pixels`] holds
/// those rows. Drawing a target band after band gives each band's pixels, quads and
/// invocations as one [`draw`] of the whole target does; only the order of the pixel
/// shader's side effects (UAV writes) differs, band-major instead of triangle-major.
///
/// Errors: [`RasterState::check_rows`], and those of [`draw`].
pub fn draw_rows(
    ps: &Plan,
    triangles: &[[&[[u32; 4]]; 3]],
    state: &RasterState,
    rows: Range<u32>,
    resources: &mut Resources<'_>,
    limits: &Limits,
) -> Result<Drawn, ExecError> {
    let scissor = state.scissor_rows(rows.clone())?;
    let width = state.target_width;
    let first_row = u64::from(rows.start);
    // Within MAX_TARGET_PIXELS.
    let mut out = Drawn {
        width,
        pixels: vec![None; (u64::from(width) * u64::from(rows.end - rows.start)) as usize],
        ..Drawn::default()
    };
    // The quads waiting to be shaded are the first `count` of `pending`, whose
    // allocations are reused from batch to batch and triangle to triangle.
    let mut pending: Vec<RasterQuad> = Vec::new();
    let mut count = 0usize;
    let flush = |pending: &[RasterQuad], out: &mut Drawn, resources: &mut Resources<'_>, setup: &Setup| {
        let quads: Vec<Quad<'_>> = pending.iter().map(RasterQuad::as_quad).collect();
        let planes = |qi: usize, lane: usize, register: u32, offset: [i32; 2]| {
            pending.get(qi).map_or([0; 4], |q| {
                let (x, y) = (q.x + (lane & 1) as u32, q.y + (lane >> 1) as u32);
                setup.pull(register as usize, x, y, offset)
            })
        };
        let shaded = pixel::shade_with(ps, &quads, resources, limits, Some(&planes))?;
        out.quads += quads.len() as u64;
        out.ps_invocations += shaded.ps_invocations;
        for (q, result) in pending.iter().zip(&shaded.quads) {
            for (k, r) in result.iter().enumerate() {
                let (x, y) = (u64::from(q.x) + (k & 1) as u64, u64::from(q.y) + (k >> 1) as u64);
                // The scissor keeps the quads within the rows (y ≥ first_row).
                let Some(y) = y.checked_sub(first_row) else { continue };
                if r.written && x < u64::from(width) {
                    if let Some(p) = out.pixels.get_mut((y * u64::from(width) + x) as usize) {
                        *p = Some(*r);
                    }
                }
            }
        }
        Ok::<(), ExecError>(())
    };
    for t in triangles {
        let Some(setup) = Setup::new(ps, *t, state)? else { continue };
        out.triangles += 1;
        setup.quads_within(state, scissor, |q| {
            match pending.get_mut(count) {
                Some(slot) => {
                    (slot.x, slot.y, slot.front_face, slot.covered, slot.z, slot.w) =
                        (q.x, q.y, q.front_face, q.covered, q.z, q.w);
                    slot.inputs.clone_from(&q.inputs);
                }
                None => pending.push(q.clone()),
            }
            count += 1;
            if count >= QUADS_PER_SHADE {
                flush(pending.get(..count).unwrap_or(&[]), &mut out, resources, &setup)?;
                count = 0;
            }
            Ok(())
        })?;
        flush(pending.get(..count).unwrap_or(&[]), &mut out, resources, &setup)?;
        count = 0;
    }
    Ok(out)
}
