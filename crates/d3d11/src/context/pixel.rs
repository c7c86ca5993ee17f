//! The rasterizer and pixel stages: `PSSetShader`, render target views and
//! `OMSetRenderTargets` (no depth-stencil view), `RSSetViewports`, `RSSetState`,
//! `ClearRenderTargetView`, and what a draw checks and does after the geometry stages
//! (`Context::pixel_draw`, [`check_linkage`], [`Staged`]).

use super::{BindFlags, CallError, Context, Texture2D};
use crate::device::{Device, Shader};
use crate::hresult::HResult;
use crate::linkage::ClassInstance;
use dxbc::signature::SystemValue;
use exec::format::Convert;
use exec::pipeline::StreamPrimitives;
use exec::plan::SigElement;
use exec::raster::{Cull, RasterState, Viewport};
use exec::resources::{Dimension, TextureView};
use exec::Format;
use exec::{ExecError, ExecErrorKind, Plan};
use tpf::{PrimitiveTopology, ProgramType};
use validate::FeatureLevel;

/// `D3D11_SIMULTANEOUS_RENDER_TARGET_COUNT`.
pub const SIMULTANEOUS_RENDER_TARGET_COUNT: usize = 8;
/// `D3D11_VIEWPORT_AND_SCISSORRECT_OBJECT_COUNT_PER_PIPELINE`.
pub const VIEWPORT_SLOTS: usize = 16;

/// The signature elements the rasterizer generates for the pixel shader: no earlier
/// stage provides them.
const GENERATED: [SystemValue; 4] =
    [SystemValue::IsFrontFace, SystemValue::SampleIndex, SystemValue::Coverage, SystemValue::InnerCoverage];

/// Whether textures of `format` can be render targets on a device of `level`, from
/// the RenderTarget rows of Microsoft's "Format support for Direct3D Feature Level ...
/// hardware" pages: never a depth format; at 9_1 only the 8-bit UNORM formats
/// (`R8G8B8A8`, `R8G8`, `R8`, `A8`, `B8G8R8A8`, `B8G8R8X8`, and the sRGB ones); at 9_3
/// also `R32G32B32A32_FLOAT`, `R16G16B16A16_FLOAT`/`UNORM`, `R32G32_FLOAT`,
/// `R16G16_FLOAT`/`UNORM` and `R32_FLOAT`; from 10_0 every other format of the table
/// (the optional `R32G32B32_*` taken as supported).
pub fn render_target_format(level: FeatureLevel, format: Format) -> bool {
    use Format as F;
    let unorm8 = matches!(
        format,
        F::R8G8B8A8_UNORM
            | F::R8G8B8A8_UNORM_SRGB
            | F::R8G8_UNORM
            | F::R8_UNORM
            | F::A8_UNORM
            | F::B8G8R8A8_UNORM
            | F::B8G8R8X8_UNORM
            | F::B8G8R8A8_UNORM_SRGB
    );
    let level_9_3 = matches!(
        format,
        F::R32G32B32A32_FLOAT
            | F::R16G16B16A16_FLOAT
            | F::R16G16B16A16_UNORM
            | F::R32G32_FLOAT
            | F::R16G16_FLOAT
            | F::R16G16_UNORM
            | F::R32_FLOAT
    );
    match level {
        _ if format.is_depth() => false,
        FeatureLevel::L9_1 | FeatureLevel::L9_2 => unorm8,
        FeatureLevel::L9_3 => unorm8 || level_9_3,
        _ => true,
    }
}

/// `D3D11_RENDER_TARGET_VIEW_DESC` of a 2D texture (`TEXTURE2D` or one slice of a
/// `TEXTURE2DARRAY`; the view's format is the texture's).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct RenderTargetViewDesc {
    /// `MipSlice`: the mip level drawn into.
    pub mip_slice: u32,
    /// `FirstArraySlice`: the array slice drawn into (one slice: the render-target
    /// array index is not modelled).
    pub first_array_slice: u32,
}

/// `ID3D11RenderTargetView` of one subresource of a [`Texture2D`].
#[derive(Debug, Clone)]
pub struct RenderTargetView {
    pub(super) texture: Texture2D,
    desc: RenderTargetViewDesc,
}

impl RenderTargetView {
    /// The texture drawn into.
    pub fn texture(&self) -> &Texture2D {
        &self.texture
    }
    /// The view's description.
    pub fn desc(&self) -> RenderTargetViewDesc {
        self.desc
    }
    /// Width and height of the subresource (the mip level's).
    pub fn size(&self) -> (u32, u32) {
        let (w, h, _) = self.layout().mip_size(self.desc.mip_slice);
        (w, h)
    }
    /// The texture's whole memory as exec lays it out (every slice and mip).
    fn layout(&self) -> TextureView<'static> {
        let d = self.texture.desc();
        self.texture.geometry(Dimension::Texture2DArray, 0, d.array_size).0
    }
    /// Byte offset of pixel (`x`, `y`) of the view in the texture's memory.
    fn texel_offset(&self, x: u32, y: u32) -> Option<usize> {
        self.layout().texel_offset(self.desc.first_array_slice, self.desc.mip_slice, x, y, 0)
    }
}

/// `D3D11_FILL_MODE`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum FillMode {
    /// `D3D11_FILL_SOLID`.
    #[default]
    Solid,
    /// `D3D11_FILL_WIREFRAME`: not drawn here (a draw with it is
    /// [`ExecErrorKind::Unsupported`]).
    Wireframe,
}

/// `D3D11_RASTERIZER_DESC`, the members modelled. `Default` is the runtime's default
/// state (Microsoft's D3D11_RASTERIZER_DESC page: solid, back faces culled, clockwise
/// front faces, depth clip on). Not modelled: depth bias, scissor, multisample and
/// antialiased-line enables (the rasterizer is single-sample without scissor rects).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RasterizerDesc {
    /// `FillMode`.
    pub fill_mode: FillMode,
    /// `CullMode`.
    pub cull_mode: Cull,
    /// `FrontCounterClockwise`.
    pub front_counter_clockwise: bool,
    /// `DepthClipEnable`.
    pub depth_clip_enable: bool,
}

impl Default for RasterizerDesc {
    fn default() -> RasterizerDesc {
        RasterizerDesc {
            fill_mode: FillMode::Solid,
            cull_mode: Cull::Back,
            front_counter_clockwise: false,
            depth_clip_enable: true,
        }
    }
}

/// `ID3D11RasterizerState`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RasterizerState(RasterizerDesc);

impl RasterizerState {
    /// `GetDesc`.
    pub fn desc(&self) -> RasterizerDesc {
        self.0
    }
}

impl Device {
    /// `ID3D11Device::CreateRenderTargetView` of a 2D texture (`pDesc` `None`: mip 0 of
    /// slice 0, as the runtime's default for a one-slice texture). Refused
    /// (`E_INVALIDARG`): a texture without [`BindFlags::RENDER_TARGET`]; a depth
    /// format; a mip or slice the texture does not have. A multisampled texture is
    /// `E_NOTIMPL` (the rasterizer is single-sample).
    pub fn create_render_target_view(
        &self,
        texture: &Texture2D,
        desc: Option<RenderTargetViewDesc>,
    ) -> Result<RenderTargetView, CallError> {
        let call = "CreateRenderTargetView";
        let d = texture.desc();
        let desc = desc.unwrap_or_default();
        if !d.bind_flags.contains(BindFlags::RENDER_TARGET) {
            return Err(CallError::invalid(format!("{call}: the texture lacks D3D11_BIND_RENDER_TARGET")));
        }
        if d.format.is_depth() {
            return Err(CallError::invalid(format!("{call}: {} is a depth format", d.format.name())));
        }
        if desc.mip_slice >= d.mip_levels || desc.first_array_slice >= d.array_size {
            return Err(CallError::invalid(format!(
                "{call}: mip {} of slice {} of a texture of {} mips and {} slices",
                desc.mip_slice, desc.first_array_slice, d.mip_levels, d.array_size
            )));
        }
        if d.sample_count > 1 {
            return Err(CallError {
                hr: HResult::E_NOTIMPL,
                message: format!("{call}: a multisampled render target (the rasterizer is single-sample)"),
            });
        }
        Ok(RenderTargetView { texture: texture.clone(), desc })
    }

    /// `ID3D11Device::CreateRasterizerState` (never refused here: every member
    /// modelled takes any of its values).
    pub fn create_rasterizer_state(&self, desc: &RasterizerDesc) -> RasterizerState {
        RasterizerState(*desc)
    }
}

impl Context {
    /// `PSSetShader(pPixelShader, ppClassInstances, NumClassInstances)`, with the
    /// class-instance rules of [`vs_set_shader`](Self::vs_set_shader). A shader object
    /// that is not a pixel shader, or class instances the runtime refuses, are refused
    /// (`E_INVALIDARG`, the binding unchanged).
    pub fn ps_set_shader(
        &mut self,
        shader: Option<&Shader>,
        class_instances: &[Option<ClassInstance>],
    ) -> Result<(), CallError> {
        if let Some(s) = shader {
            if s.stage() != ProgramType::Pixel {
                return Err(CallError::invalid(format!("PSSetShader: a {:?} shader object", s.stage())));
            }
        }
        let resolved = Self::resolve("PSSetShader", shader, class_instances)?;
        if let Some(s) = shader {
            self.plan_of(s);
        }
        self.ps.shader = shader.cloned();
        self.ps.class_instances = if shader.is_some() { class_instances.to_vec() } else { Vec::new() };
        self.ps.resolved = resolved;
        Ok(())
    }

    /// `PSGetShader`: as [`vs_get_shader`](Self::vs_get_shader).
    pub fn ps_get_shader(&self) -> (Option<Shader>, Vec<Option<ClassInstance>>) {
        (self.ps.shader.clone(), self.ps.class_instances.clone())
    }

    /// `OMSetRenderTargets(NumViews, ppRenderTargetViews, NULL)`: binds `views` to
    /// render-target slots 0.. and unbinds the others (no depth-stencil view is
    /// modelled). Each texture bound is unbound from every input slot (shader resource
    /// views of every stage), and a graphics UAV of a subresource bound here is unset,
    /// as the runtime's hazard tracking does (functional spec 5.3.9.4). Ignored (with a
    /// debug message) with more than 8 views, views of different sizes, or two views of
    /// one subresource (one mip of one slice).
    pub fn om_set_render_targets(&mut self, views: &[Option<RenderTargetView>]) {
        let call = "OMSetRenderTargets";
        if views.len() > SIMULTANEOUS_RENDER_TARGET_COUNT {
            self.messages.push(format!("{call}: {} views (at most 8); call ignored", views.len()));
            return;
        }
        let mut sizes = views.iter().flatten().map(RenderTargetView::size);
        if let Some(first) = sizes.next() {
            if sizes.any(|s| s != first) {
                self.messages.push(format!("{call}: the render target views are not all of one size; call ignored"));
                return;
            }
        }
        // Hazards (functional spec 5.3.9.4): one subresource at two slots ignores the
        // call; a UAV of a subresource bound here is unset.
        let new: Vec<(usize, super::hazards::Written<'_>)> =
            views.iter().enumerate().filter_map(|(i, v)| Some((i, v.as_ref()?.written()))).collect();
        if let Some((a, b)) = super::hazards::repeated(&new) {
            self.messages.push(format!("{call}: slots {a} and {b} bind one subresource; call ignored"));
            return;
        }
        self.unset_graphics_outputs(call, &new, 0..SIMULTANEOUS_RENDER_TARGET_COUNT, 0..0, 0..0);
        self.render_targets = views.to_vec();
        let bound: Vec<super::Buffer> = views.iter().flatten().map(|v| v.texture.memory().clone()).collect();
        self.unbind_inputs(call, |b| bound.iter().any(|t| t.ptr_eq(b)));
    }

    /// The render target views bound (`OMGetRenderTargets`).
    pub fn om_render_targets(&self) -> &[Option<RenderTargetView>] {
        &self.render_targets
    }

    /// `RSSetViewports`: the viewports (the first one is used: `SV_ViewportArrayIndex`
    /// is not modelled). Ignored (with a debug message) with more than 16. A viewport
    /// outside the range of the functional spec (15.6.1), or with a depth range outside
    /// [0, 1] or reversed, refuses the draw before anything runs.
    pub fn rs_set_viewports(&mut self, viewports: &[Viewport]) {
        if viewports.len() > VIEWPORT_SLOTS {
            self.messages.push(format!("RSSetViewports: {} viewports (at most 16); call ignored", viewports.len()));
            return;
        }
        self.viewports = viewports.to_vec();
    }

    /// The viewports (`RSGetViewports`).
    pub fn rs_viewports(&self) -> &[Viewport] {
        &self.viewports
    }

    /// `RSSetState` (`None`: the default state, [`RasterizerDesc::default`]).
    pub fn rs_set_state(&mut self, state: Option<&RasterizerState>) {
        self.rasterizer = state.copied();
    }

    /// The rasterizer state (`RSGetState`; `None`: the default).
    pub fn rs_state(&self) -> Option<RasterizerState> {
        self.rasterizer
    }

    /// `ClearRenderTargetView`: every pixel of the view's subresource set to `color`
    /// converted to the texture's format (the conversion of typed UAV stores,
    /// [`exec::format::Convert::encode`]: floats saturated and rounded for UNORM...;
    /// an integer format takes the floats' values converted to integers, as the
    /// runtime's page says).
    pub fn clear_render_target_view(&mut self, view: &RenderTargetView, color: [f32; 4]) {
        let format = view.texture.desc().format;
        let value = if matches!(format.numeric(), exec::format::Numeric::Float) {
            color.map(f32::to_bits)
        } else if matches!(format.numeric(), exec::format::Numeric::Sint) {
            color.map(|c| c as i32 as u32)
        } else {
            color.map(|c| c as u32)
        };
        let mut element = vec![0u8; format.size()];
        format.encode(value, &mut element);
        let (w, h) = view.size();
        let mut memory = view.texture.memory().write();
        for y in 0..h {
            let Some(start) = view.texel_offset(0, y) else { continue };
            let row = start.saturating_add(element.len().saturating_mul(w as usize));
            if let Some(row) = memory.get_mut(start..row) {
                for texel in row.chunks_exact_mut(element.len().max(1)) {
                    texel.copy_from_slice(&element);
                }
            }
        }
    }

    /// The rasterizer state a draw uses.
    pub(super) fn rasterizer_desc(&self) -> RasterizerDesc {
        self.rasterizer.map(|r| r.0).unwrap_or_default()
    }
}

/// What the pixel stage of a draw needs, checked before the geometry stages run.
#[derive(Debug)]
pub(super) struct PixelDraw {
    /// The pixel shader's plan.
    pub plan: std::sync::Arc<Plan>,
    /// The rasterized stream.
    pub stream: u32,
    /// The rasterizer state with the viewport and the target size.
    pub state: RasterState,
    /// The rows drawn at a time ([`exec::raster::draw_rows`]): even, their pixels
    /// within [`exec::raster::MAX_TARGET_PIXELS`] (the whole target when it is).
    pub band: u32,
}

/// The rasterized stream's topology is triangles.
pub(super) fn is_triangles(topology: Option<PrimitiveTopology>) -> bool {
    matches!(topology, Some(PrimitiveTopology::TriangleList | PrimitiveTopology::TriangleStrip))
}

/// The linkage check the runtime makes at draw time between the stage feeding the
/// rasterizer (`outputs`: its output signature, elements of `stream`) and the pixel
/// shader's input signature (`inputs`). Microsoft's "Signatures" page (HLSL): adjacent
/// stages share a register array, the input shader reading the locations the output
/// one wrote, and the signatures must match in type and order. Here each input element
/// that the rasterizer does not generate must be an output element of the same
/// semantic (name case-insensitively, and index) in the same register, of the same
/// component type, its components a subset of the output's (which is also what
/// `exec::raster` relies on: `v#` is the vertex's `o#`). An input `SV_PrimitiveID`
/// that no stage outputs (the rasterizer would generate it) is
/// [`ExecErrorKind::Unsupported`]. Gives the `SV_Position` register.
pub(super) fn check_linkage(
    outputs: &[SigElement],
    stream: u32,
    inputs: &[SigElement],
    feeding: &str,
) -> Result<u32, ExecError> {
    let link_error =
        |m: String| ExecError::new(ExecErrorKind::Draw(format!("{feeding} - pixel shader linkage error: {m}")));
    let outputs: Vec<&SigElement> = outputs.iter().filter(|o| o.stream == stream).collect();
    for e in inputs {
        let system_value = SystemValue::from(e.system_value);
        if GENERATED.contains(&system_value) {
            continue;
        }
        let name = super::semantic_text(&e.semantic_name, e.semantic_index);
        let Some(o) = outputs
            .iter()
            .find(|o| o.semantic_index == e.semantic_index && o.semantic_name.eq_ignore_ascii_case(&e.semantic_name))
        else {
            if system_value == SystemValue::PrimitiveId {
                return Err(ExecError::new(ExecErrorKind::Unsupported(
                    "SV_PrimitiveID generated by the rasterizer for the pixel shader (no earlier stage outputs it)"
                        .into(),
                )));
            }
            return Err(link_error(format!(
                "the pixel shader reads {name} (v{}), which the {feeding} does not output",
                e.register
            )));
        };
        if o.register != e.register {
            return Err(link_error(format!(
                "{name} is in register {} of the {feeding}'s output and v{} of the pixel shader's input",
                o.register, e.register
            )));
        }
        if e.component_type != 0 && o.component_type != 0 && e.component_type != o.component_type {
            return Err(link_error(format!(
                "{name}: component type {} in the {feeding}'s output, {} in the pixel shader's input",
                o.component_type, e.component_type
            )));
        }
        if e.mask & !o.mask != 0 {
            return Err(link_error(format!(
                "{name}: the pixel shader's components {:#06b} are not among the {feeding}'s {:#06b}",
                e.mask, o.mask
            )));
        }
    }
    outputs
        .iter()
        .find(|o| SystemValue::from(o.system_value) == SystemValue::Position)
        .map(|o| o.register)
        .ok_or_else(|| link_error(format!("the {feeding}'s rasterized output has no SV_Position")))
}

/// The triangles of a rasterized stream, each vertex's registers.
pub(super) fn triangles(stream: &StreamPrimitives) -> Vec<[&[[u32; 4]]; 3]> {
    stream
        .primitives
        .iter()
        .filter_map(|p| match p.as_slice() {
            [a, b, c] => Some([a.registers.as_slice(), b.registers.as_slice(), c.registers.as_slice()]),
            _ => None,
        })
        .collect()
}

/// A render target's pixels written by a draw, kept apart until the whole draw
/// succeeded ([`Staged::commit`]).
pub(super) struct Staged<'v> {
    slot: usize,
    view: &'v RenderTargetView,
    /// Each pixel of the view's subresource (row after row) in the target's format.
    bytes: Vec<u8>,
    /// Which pixels were written.
    written: Vec<bool>,
}

impl<'v> Staged<'v> {
    /// Render target `slot`, `view`: `None` when the program declares no `o#` for it
    /// (the target is not written).
    pub(super) fn new(plan: &Plan, slot: usize, view: &'v RenderTargetView) -> Option<Staged<'v>> {
        let declared =
            plan.outputs.iter().any(|o| o.register as usize == slot && o.system == tpf::SystemName::Undefined);
        let (w, h) = view.size();
        let pixels = (w as usize).saturating_mul(h as usize);
        let size = view.texture.desc().format.size();
        declared.then(|| Staged {
            slot,
            view,
            bytes: vec![0; pixels.saturating_mul(size)],
            written: vec![false; pixels],
        })
    }

    /// Keeps the pixel shader's outputs of `drawn` (the target's rows from
    /// `first_row`), each pixel's four values converted to the target's format by
    /// [`exec::format::Convert::encode`] (the conversion of typed UAV stores).
    pub(super) fn write(&mut self, drawn: &exec::raster::Drawn, first_row: u32) {
        let (w, h) = self.view.size();
        let width = drawn.width.max(1) as usize;
        let format = self.view.texture.desc().format;
        let size = format.size();
        for (i, p) in drawn.pixels.iter().enumerate() {
            let Some(p) = p else { continue };
            let (x, y) = ((i % width) as u32, first_row.saturating_add((i / width) as u32));
            if x >= w || y >= h {
                continue;
            }
            let at = y as usize * w as usize + x as usize;
            let (Some(value), Some(out), Some(flag)) =
                (p.targets.get(self.slot), self.bytes.get_mut(at * size..(at + 1) * size), self.written.get_mut(at))
            else {
                continue;
            };
            format.encode(*value, out);
            *flag = true;
        }
    }

    /// Writes the pixels kept into the view's subresource (the texture's memory must
    /// not be locked by the caller).
    pub(super) fn commit(&self) {
        let (w, _) = self.view.size();
        let size = self.view.texture.desc().format.size();
        let mut memory = self.view.texture.memory().write();
        for (at, _) in self.written.iter().enumerate().filter(|(_, &w)| w) {
            let (x, y) = ((at % w.max(1) as usize) as u32, (at / w.max(1) as usize) as u32);
            let (Some(to), Some(from)) = (self.view.texel_offset(x, y), self.bytes.get(at * size..(at + 1) * size))
            else {
                continue;
            };
            if let Some(out) = memory.get_mut(to..to.saturating_add(size)) {
                out.copy_from_slice(from);
            }
        }
    }
}

impl Context {
    /// What the pixel stage of a draw does, checked before the geometry stages run:
    /// `None` without a pixel shader, or when nothing is rasterized
    /// (`D3D11_SO_NO_RASTERIZED_STREAM`, a stream the geometry shader does not
    /// declare). `topology` is the input assembler's, `vs` and `gs` the geometry
    /// stages' plans, `so` the stream-output declaration of the geometry shader object.
    pub(super) fn pixel_draw(
        &mut self,
        topology: tpf::Topology,
        vs: &Plan,
        gs: Option<&Plan>,
        so: Option<&validate::StreamOutputDesc>,
    ) -> Result<Option<PixelDraw>, ExecError> {
        let draw_error = |m: String| ExecError::new(ExecErrorKind::Draw(m));
        let Some(ps) = self.ps.shader.clone() else { return Ok(None) };
        let stream = so.map_or(0, |d| d.rasterized_stream);
        if stream >= 4 {
            return Ok(None);
        }
        let stream_topology = match gs {
            Some(gs) => gs.output_topology.get(stream as usize).copied().flatten(),
            None if stream == 0 => Some(topology.list()),
            None => None,
        };
        let Some(stream_topology) = stream_topology else { return Ok(None) };
        // The pixel shader runs: its plan and class instances are needed.
        let plan = self.cached_plan(&ps)?;
        if let Some(slot) = self.ps.resolved.missing {
            return Err(draw_error(format!(
                "the pixel shader is disabled: interface slot {slot} has no class instance (PSSetShader)"
            )));
        }
        if !is_triangles(Some(stream_topology)) {
            return Err(ExecError::new(ExecErrorKind::Unsupported(format!(
                "rasterizing {stream_topology:?} primitives: exec::raster draws triangles only"
            ))));
        }
        let desc = self.rasterizer_desc();
        if desc.fill_mode == FillMode::Wireframe {
            return Err(ExecError::new(ExecErrorKind::Unsupported(
                "D3D11_FILL_WIREFRAME: exec::raster draws solid triangles only".into(),
            )));
        }
        let (outputs, feeding) = match gs {
            Some(gs) => (&gs.output_signature, "geometry shader"),
            None => (&vs.output_signature, "vertex shader"),
        };
        let position_register = check_linkage(outputs, stream, &plan.input_signature, feeding)?;
        let viewport = match self.viewports.first() {
            Some(v) => *v,
            None => {
                self.messages.push("Draw: no viewport is set (RSSetViewports); nothing is drawn".into());
                Viewport { top_left_x: 0.0, top_left_y: 0.0, width: 0.0, height: 0.0, min_depth: 0.0, max_depth: 0.0 }
            }
        };
        // The render targets' size; without one, the viewport's extent.
        let (target_width, target_height) = match self.render_targets.iter().flatten().next() {
            Some(v) => v.size(),
            None => {
                let extent =
                    |a: f32, b: f32| (a + b).ceil().clamp(1.0, exec::raster::MAX_TARGET_DIMENSION as f32) as u32;
                (extent(viewport.top_left_x, viewport.width), extent(viewport.top_left_y, viewport.height))
            }
        };
        let state = RasterState {
            viewport,
            target_width,
            target_height,
            cull: desc.cull_mode,
            front_counter_clockwise: desc.front_counter_clockwise,
            depth_clip: desc.depth_clip_enable,
            position_register,
        };
        // The target size and the viewport, checked before anything runs (a draw
        // refused here changes nothing); a target of more pixels than exec::raster
        // draws at once is drawn in bands of an even number of rows.
        let rows = (exec::raster::MAX_TARGET_PIXELS / u64::from(target_width.max(1))).min(u64::from(u32::MAX)) as u32;
        let band = (rows & !1).max(2).min(target_height);
        state.check_rows(0..band)?;
        Ok(Some(PixelDraw { plan, stream, state, band }))
    }
}
