//! `dxref run`'s picture of a draw: every stream's primitives at (x/w, y/w) in
//! normalized device coordinates (y up), with axes, ticks and the viewport square
//! [-1, 1] marked; triangles outlined over a translucent fill, lines as strokes, points
//! as markers; one colour per stream or GS instance with a legend, or each primitive's
//! `COLOR`; primitive and vertex numbers on request; and a message instead of an empty
//! square when nothing can be drawn. The SVG is rendered to PNG by resvg; its text is
//! drawn with a stroke font of our own (module `font`) so both look the same everywhere.
//!
//! Geometry is clipped before it is projected: against w > 0 in homogeneous
//! coordinates (the part of a primitive behind the eye is cut away; a primitive
//! wholly behind it is reported), then against the plotted square. The plotted range
//! grows past [-1, 1] to show primitives outside the viewport, up to ±10; primitives
//! beyond it, or with NaN or infinite positions, are reported.

mod font;

use std::fmt::Write as _;

use exec::pipeline::{DrawResult, StreamPrimitives, Vertex};

/// What colours the primitives.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, clap::ValueEnum)]
pub enum FillBy {
    /// The vertex `COLOR` when the drawn output has one, else the GS instance when
    /// several instances emitted, else the stream.
    #[default]
    Auto,
    /// Each primitive's first vertex's `COLOR` (what flat shading takes).
    Color,
    /// The stream the primitive was emitted to.
    Stream,
    /// The geometry-shader instance that emitted the primitive.
    Instance,
}

/// The picture's options (beside `--svg`).
#[derive(Debug, clap::Args, Default)]
pub struct PictureOptions {
    /// Also render the picture as a PNG image.
    #[arg(long, value_name = "FILE")]
    pub png: Option<std::ffi::OsString>,
    /// Number the primitives in the picture (at their centre; `stream:index` when
    /// several streams are drawn) and their vertices (0, 1, 2 inside the primitive,
    /// beside each vertex: the order and winding).
    #[arg(long)]
    pub labels: bool,
    /// What colours the primitives: auto (the vertex COLOR when the output has one,
    /// else the GS instance when there are several, else the stream), color (each
    /// primitive's first-vertex COLOR), stream or instance.
    #[arg(long = "fill-by", value_enum, value_name = "HOW", default_value_t = FillBy::Auto)]
    pub fill_by: FillBy,
}

/// A picture: the SVG text and what it says besides the primitives (also for
/// standard error).
pub struct Picture {
    /// The SVG document.
    pub svg: String,
    /// One line per thing that could not be drawn (primitives behind the eye, beyond
    /// the plotted range, with non-finite positions...).
    pub notes: Vec<String>,
    /// Nothing was drawn (the picture shows a message instead).
    pub empty: bool,
}

const WIDTH: f32 = 960.0;
const HEIGHT: f32 = 700.0;
const PLOT_X: f32 = 70.0;
const PLOT_Y: f32 = 40.0;
const PLOT: f32 = 600.0;
const PANEL_X: f32 = 700.0;
/// The viewport square's fill (the background of most primitives).
pub const VIEWPORT_FILL: [u8; 3] = [0xee, 0xf2, 0xfa];
/// The fill opacity of triangles.
pub const FILL_OPACITY: f32 = 0.45;
/// Homogeneous clipping keeps w >= this.
const W_MIN: f64 = 1e-6;
/// The plotted range is the first of these that holds every vertex, when one does.
const RANGES: [f64; 6] = [1.1, 1.25, 1.5, 2.0, 2.5, 3.0];

/// The colours of streams and instances, in order.
const PALETTE: [[u8; 3]; 10] = [
    [0x2f, 0x6f, 0xdf],
    [0xe4, 0x57, 0x2e],
    [0x29, 0xa3, 0x5a],
    [0x9b, 0x59, 0xd0],
    [0xe0, 0xa1, 0x00],
    [0x17, 0xa2, 0xb8],
    [0xd6, 0x33, 0x84],
    [0x6c, 0x75, 0x7d],
    [0x8c, 0x56, 0x4b],
    [0x3d, 0x99, 0x70],
];

/// The palette colour of group `n`.
pub fn palette(n: u32) -> [u8; 3] {
    PALETTE[n as usize % PALETTE.len()]
}

fn hex([r, g, b]: [u8; 3]) -> String {
    format!("#{r:02x}{g:02x}{b:02x}")
}

/// The outline of a fill colour: the colour darkened, so that white on white shows.
fn dark([r, g, b]: [u8; 3]) -> [u8; 3] {
    [r, g, b].map(|c| (c as f32 * 0.55) as u8)
}

fn escape(s: &str) -> String {
    s.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;")
}

#[derive(Clone, Copy, PartialEq)]
enum Anchor {
    Start,
    Middle,
    End,
}

/// `text` drawn with the stroke font, its baseline at `y`, as a group whose
/// `aria-label` carries the text.
fn text(out: &mut String, s: &str, (x, y): (f32, f32), size: f32, anchor: Anchor, colour: &str, halo: bool) {
    let scale = size / 8.0;
    let left = match anchor {
        Anchor::Start => x,
        Anchor::Middle => x - font::width(s, scale) / 2.0,
        Anchor::End => x - font::width(s, scale),
    };
    let d = font::path(s, left, y, scale);
    let stroke = (size * 0.11).max(1.0);
    let _ = write!(
        out,
        "<g aria-label=\"{}\" fill=\"none\" stroke-linecap=\"round\" stroke-linejoin=\"round\">",
        escape(s)
    );
    if halo {
        let _ = write!(out, "<path d=\"{d}\" stroke=\"#ffffff\" stroke-width=\"{:.2}\"/>", stroke + 2.6);
    }
    let _ = writeln!(out, "<path d=\"{d}\" stroke=\"{colour}\" stroke-width=\"{stroke:.2}\"/></g>");
}

/// A point in normalized device coordinates.
type P2 = (f64, f64);

/// Clips a polygon (or, with `closed` false, a polyline of two points) in homogeneous
/// coordinates against w >= [`W_MIN`].
fn clip_w(points: &[[f64; 4]], closed: bool) -> Vec<[f64; 4]> {
    let inside = |p: &[f64; 4]| p[3] >= W_MIN;
    let cross = |a: &[f64; 4], b: &[f64; 4]| {
        let t = (W_MIN - a[3]) / (b[3] - a[3]);
        [0, 1, 2, 3].map(|k| a[k] + t * (b[k] - a[k]))
    };
    let n = points.len();
    let edges = if closed { n } else { n.saturating_sub(1) };
    let mut out = Vec::new();
    if !closed {
        if n == 1 {
            return points.iter().copied().filter(inside).collect();
        }
        let (a, b) = (&points[0], &points[1]);
        match (inside(a), inside(b)) {
            (true, true) => out.extend([*a, *b]),
            (true, false) => out.extend([*a, cross(a, b)]),
            (false, true) => out.extend([cross(a, b), *b]),
            (false, false) => {}
        }
        return out;
    }
    for i in 0..edges {
        let (a, b) = (&points[i], &points[(i + 1) % n]);
        match (inside(a), inside(b)) {
            (true, true) => out.push(*b),
            (true, false) => out.push(cross(a, b)),
            (false, true) => out.extend([cross(a, b), *b]),
            (false, false) => {}
        }
    }
    out
}

/// Clips a projected polygon (`closed`) or segment against the square [-l, l]².
fn clip_square(points: &[P2], closed: bool, l: f64) -> Vec<P2> {
    // Each side: inside when (sign × coordinate) <= l.
    let sides: [(usize, f64); 4] = [(0, 1.0), (0, -1.0), (1, 1.0), (1, -1.0)];
    let get = |p: &P2, k: usize| if k == 0 { p.0 } else { p.1 };
    let mut poly: Vec<P2> = points.to_vec();
    for (k, sign) in sides {
        if poly.is_empty() {
            break;
        }
        let inside = |p: &P2| sign * get(p, k) <= l;
        let cross = |a: &P2, b: &P2| {
            let (ea, eb) = (sign * get(a, k) - l, sign * get(b, k) - l);
            let t = ea / (ea - eb);
            (a.0 + t * (b.0 - a.0), a.1 + t * (b.1 - a.1))
        };
        let mut out = Vec::new();
        if !closed || poly.len() == 1 {
            match poly.as_slice() {
                [p] => out.extend(inside(p).then_some(*p)),
                [a, b] => match (inside(a), inside(b)) {
                    (true, true) => out.extend([*a, *b]),
                    (true, false) => out.extend([*a, cross(a, b)]),
                    (false, true) => out.extend([cross(a, b), *b]),
                    (false, false) => {}
                },
                _ => {}
            }
        } else {
            let n = poly.len();
            for i in 0..n {
                let (a, b) = (&poly[i], &poly[(i + 1) % n]);
                match (inside(a), inside(b)) {
                    (true, true) => out.push(*b),
                    (true, false) => out.push(cross(a, b)),
                    (false, true) => out.extend([cross(a, b), *b]),
                    (false, false) => {}
                }
            }
        }
        poly = out;
    }
    poly
}

/// One primitive projected (clipped against w > 0).
struct Projected<'r> {
    stream: &'r StreamPrimitives,
    index: usize,
    points: Vec<P2>,
    vertices: Vec<Option<P2>>,
    kind: usize,
    colour: [u8; 3],
}

/// One primitive as drawn.
struct Shape {
    stream: u32,
    index: usize,
    /// Projected, clipped to the plotted square.
    points: Vec<P2>,
    /// The projected vertices before that clip (for the vertex labels); `None` for
    /// a vertex behind the eye.
    vertices: Vec<Option<P2>>,
    kind: usize,
    colour: [u8; 3],
}

/// The `SV_Position` element of a stream's signature.
fn position_register(stream: &StreamPrimitives) -> Option<usize> {
    stream
        .signature
        .iter()
        .find(|e| {
            e.stream == stream.stream && (e.system_value == 1 || e.semantic_name.eq_ignore_ascii_case("SV_Position"))
        })
        .map(|e| e.register as usize)
}

/// The register of a stream's float `COLOR` output with at least r, g and b.
fn colour_register(stream: &StreamPrimitives) -> Option<usize> {
    stream
        .signature
        .iter()
        .find(|e| {
            e.stream == stream.stream
                && e.semantic_name.eq_ignore_ascii_case("COLOR")
                && e.mask & 7 == 7
                && e.component_type != 1
                && e.component_type != 2
        })
        .map(|e| e.register as usize)
}

fn vertex_colour(v: &Vertex, register: usize) -> [u8; 3] {
    let r = v.registers.get(register).copied().unwrap_or([0; 4]);
    [0, 1, 2].map(|i| {
        let f = f32::from_bits(r[i]);
        if f.is_nan() {
            0
        } else {
            (f.clamp(0.0, 1.0) * 255.0).round() as u8
        }
    })
}

fn plural(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// The first of 1, 2, 2.5, 5 × 10^k at least `x` (at most 10^30).
fn round_up(x: f64) -> f64 {
    let mut scale = 1e-6;
    while scale < 1e30 {
        for m in [1.0, 2.0, 2.5, 5.0] {
            if m * scale >= x {
                return m * scale;
            }
        }
        scale *= 10.0;
    }
    1e30
}

/// `1`, `0.5`, `-0.25`, `2e6`.
fn tick_label(v: f64) -> String {
    if v.abs() >= 1e5 {
        return format!("{v:e}");
    }
    let s = format!("{v:.2}");
    let s = s.trim_end_matches('0').trim_end_matches('.');
    if s == "-0" {
        "0".into()
    } else {
        s.to_string()
    }
}

/// Draws `result`.
pub fn draw(result: &DrawResult, fill_by: FillBy, labels: bool) -> Picture {
    let mut notes = Vec::new();
    let total: usize = result.streams.iter().map(|s| s.primitives.len()).sum();
    // Streams with a position.
    let mut drawable = Vec::new();
    for s in &result.streams {
        match position_register(s) {
            Some(r) => drawable.push((s, r)),
            None if !s.primitives.is_empty() => notes.push(format!(
                "stream {}: no SV_Position output, its {} not drawn",
                s.stream,
                plural(s.primitives.len(), "primitive is", "primitives are")
            )),
            None => {}
        }
    }
    let several_streams = drawable.iter().filter(|(s, _)| !s.primitives.is_empty()).count() > 1;
    let fill_by = match fill_by {
        FillBy::Auto if drawable.iter().any(|(s, _)| colour_register(s).is_some()) => FillBy::Color,
        FillBy::Auto
            if drawable.iter().any(|(s, _)| {
                s.primitives.iter().flatten().any(|v| v.provenance.gs_instance.is_some_and(|i| i > 0))
            }) =>
        {
            FillBy::Instance
        }
        FillBy::Auto => FillBy::Stream,
        other => other,
    };

    // Clip in homogeneous coordinates and project.
    let (mut behind, mut non_finite) = (0usize, 0usize);
    let mut projected: Vec<Projected<'_>> = Vec::new();
    let mut legend: Vec<([u8; 3], String)> = Vec::new();
    let mut add_legend = |colour: [u8; 3], label: String| {
        if !legend.iter().any(|(_, l)| *l == label) {
            legend.push((colour, label));
        }
    };
    for (stream, register) in &drawable {
        let colour_reg = colour_register(stream);
        for (index, primitive) in stream.primitives.iter().enumerate() {
            let hom: Vec<[f64; 4]> = primitive
                .iter()
                .map(|v| v.registers.get(*register).copied().unwrap_or([0; 4]).map(|c| f32::from_bits(c) as f64))
                .collect();
            if hom.iter().flatten().any(|c| !c.is_finite()) {
                non_finite += 1;
                continue;
            }
            let kind = hom.len();
            let clipped = clip_w(&hom, kind >= 3);
            if clipped.is_empty() {
                behind += 1;
                continue;
            }
            let points: Vec<P2> = clipped.iter().map(|p| (p[0] / p[3], p[1] / p[3])).collect();
            let vertices = hom.iter().map(|p| (p[3] >= W_MIN).then(|| (p[0] / p[3], p[1] / p[3]))).collect();
            let colour = match (fill_by, colour_reg, primitive.first()) {
                (FillBy::Color, Some(r), Some(v)) => {
                    add_legend([0x99; 3], "fill: each primitive's first-vertex COLOR".into());
                    vertex_colour(v, r)
                }
                (FillBy::Instance, _, v) => {
                    let instance = v.and_then(|v| v.provenance.gs_instance);
                    let c = palette(instance.unwrap_or(0));
                    add_legend(c, instance.map_or("no geometry shader".into(), |i| format!("GS instance {i}")));
                    c
                }
                (FillBy::Color, None, _) => {
                    let c = palette(stream.stream);
                    add_legend(c, format!("stream {} (no COLOR)", stream.stream));
                    c
                }
                _ => {
                    let c = palette(stream.stream);
                    let r = if result.rasterized_stream == Some(stream.stream) { " (rasterized)" } else { "" };
                    add_legend(c, format!("stream {}{r}", stream.stream));
                    c
                }
            };
            projected.push(Projected { stream, index, points, vertices, kind, colour });
        }
    }
    legend.sort_by(|a, b| a.1.cmp(&b.1));

    // The plotted range: the first of RANGES that holds every projected point; if none
    // does, the last, when some primitive reaches into it (the others are reported),
    // else a round number that holds them all (the viewport then small in the middle).
    let extent = projected.iter().flat_map(|p| p.points.iter()).fold(0.0f64, |m, p| m.max(p.0.abs()).max(p.1.abs()));
    let last = RANGES[RANGES.len() - 1];
    let reaches = |p: &Vec<P2>| !clip_square(p, p.len() >= 3, last).is_empty();
    let fits = |e: f64| RANGES.iter().copied().find(|r| e * 1.02 <= *r);
    let range = match fits(extent) {
        Some(r) => r,
        None if projected.iter().any(|p| reaches(&p.points)) => {
            // The extent of the primitives that reach in, as they are clipped.
            let near = projected
                .iter()
                .flat_map(|p| clip_square(&p.points, p.points.len() >= 3, last))
                .fold(0.0f64, |m, p| m.max(p.0.abs()).max(p.1.abs()));
            fits(near).unwrap_or(last)
        }
        None => round_up(extent * 1.02),
    };
    let (mut outside_picture, mut outside_viewport) = (0usize, 0usize);
    let mut shapes = Vec::new();
    for Projected { stream, index, points, vertices, kind, colour } in projected {
        let (lo_x, hi_x) = points.iter().fold((f64::MAX, f64::MIN), |(a, b), p| (a.min(p.0), b.max(p.0)));
        let (lo_y, hi_y) = points.iter().fold((f64::MAX, f64::MIN), |(a, b), p| (a.min(p.1), b.max(p.1)));
        let clipped = clip_square(&points, kind >= 3, range);
        if clipped.is_empty() {
            outside_picture += 1;
            continue;
        }
        if hi_x < -1.0 || lo_x > 1.0 || hi_y < -1.0 || lo_y > 1.0 {
            outside_viewport += 1;
        }
        shapes.push(Shape { stream: stream.stream, index, points: clipped, vertices, kind, colour });
    }

    if behind > 0 {
        notes
            .push(format!("{} behind the eye (w <= 0): not drawn", plural(behind, "primitive lies", "primitives lie")));
    }
    if non_finite > 0 {
        notes.push(format!(
            "{} a NaN or infinite position: not drawn",
            plural(non_finite, "primitive has", "primitives have")
        ));
    }
    if outside_picture > 0 {
        notes.push(format!(
            "{} wholly outside the picture (beyond {}): not drawn",
            plural(outside_picture, "primitive lies", "primitives lie"),
            tick_label(range)
        ));
    }
    if outside_viewport > 0 {
        notes.push(format!(
            "{} outside the viewport [-1, 1] (a rasterizer clips {})",
            plural(outside_viewport, "primitive lies", "primitives lie"),
            if outside_viewport == 1 { "it" } else { "them" }
        ));
    }
    let empty = shapes.is_empty();
    let message = if !empty {
        None
    } else if total == 0 {
        Some("the draw produced no primitives".to_string())
    } else if drawable.iter().all(|(s, _)| s.primitives.is_empty()) {
        Some("no output with primitives has an SV_Position".to_string())
    } else if drawable.iter().all(|(s, r)| {
        s.primitives.iter().flatten().all(|v| v.registers.get(*r).is_none_or(|p| p.iter().all(|c| *c == 0)))
    }) {
        Some("every position is (0, 0, 0, 0) (are constant buffers unbound? they read as zeros)".to_string())
    } else if behind > 0 && non_finite == 0 && outside_picture == 0 {
        Some("every primitive lies behind the eye (w <= 0)".to_string())
    } else {
        Some("no primitive can be drawn (see the notes)".to_string())
    };
    if let Some(m) = &message {
        notes.insert(0, format!("nothing to draw: {m}"));
    }

    // The SVG.
    let mut s = String::new();
    let _ = writeln!(
        s,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{WIDTH}\" height=\"{HEIGHT}\" viewBox=\"0 0 {WIDTH} {HEIGHT}\">"
    );
    let title = match &message {
        Some(m) => format!("dxref run: nothing to draw: {m}"),
        None => format!("dxref run: {} drawn", plural(shapes.len(), "primitive", "primitives")),
    };
    let _ = writeln!(s, "<title>{}</title>", escape(&title));
    if !notes.is_empty() {
        let _ = writeln!(s, "<desc>{}</desc>", escape(&notes.join("\n")));
    }
    let _ = writeln!(s, "<rect width=\"{WIDTH}\" height=\"{HEIGHT}\" fill=\"#ffffff\"/>");
    let _ = writeln!(s, "<defs><clipPath id=\"plot\"><rect x=\"{PLOT_X}\" y=\"{PLOT_Y}\" width=\"{PLOT}\" height=\"{PLOT}\"/></clipPath></defs>");
    let px = |x: f64| PLOT_X + ((x + range) / (2.0 * range)) as f32 * PLOT;
    let py = |y: f64| PLOT_Y + ((range - y) / (2.0 * range)) as f32 * PLOT;
    // Grid, viewport, axes.
    let step = round_up(range / 5.0);
    let mut ticks = Vec::new();
    let mut t = -(range / step).floor() * step;
    while t <= range + 1e-9 {
        ticks.push(t);
        t += step;
    }
    s.push_str("<g stroke=\"#e2e2e2\" stroke-width=\"1\">\n");
    for &t in &ticks {
        let _ = writeln!(
            s,
            "<line x1=\"{:.1}\" y1=\"{PLOT_Y}\" x2=\"{:.1}\" y2=\"{}\"/><line x1=\"{PLOT_X}\" y1=\"{:.1}\" x2=\"{}\" y2=\"{:.1}\"/>",
            px(t),
            px(t),
            PLOT_Y + PLOT,
            py(t),
            PLOT_X + PLOT,
            py(t)
        );
    }
    s.push_str("</g>\n");
    let _ = writeln!(
        s,
        "<rect x=\"{:.1}\" y=\"{:.1}\" width=\"{:.1}\" height=\"{:.1}\" fill=\"{}\" fill-opacity=\"0.85\" stroke=\"#44485a\" stroke-width=\"1.5\" stroke-dasharray=\"6 4\"/>",
        px(-1.0),
        py(1.0),
        px(1.0) - px(-1.0),
        py(-1.0) - py(1.0),
        hex(VIEWPORT_FILL)
    );
    let _ = writeln!(
        s,
        "<g stroke=\"#9a9a9a\" stroke-width=\"1\"><line x1=\"{:.1}\" y1=\"{PLOT_Y}\" x2=\"{:.1}\" y2=\"{}\"/><line x1=\"{PLOT_X}\" y1=\"{:.1}\" x2=\"{}\" y2=\"{:.1}\"/></g>",
        px(0.0),
        px(0.0),
        PLOT_Y + PLOT,
        py(0.0),
        PLOT_X + PLOT,
        py(0.0)
    );
    text(&mut s, "viewport", (px(-1.0) + 5.0, py(1.0) + 14.0), 11.0, Anchor::Start, "#44485a", false);
    let _ = writeln!(
        s,
        "<rect x=\"{PLOT_X}\" y=\"{PLOT_Y}\" width=\"{PLOT}\" height=\"{PLOT}\" fill=\"none\" stroke=\"#333333\" stroke-width=\"1.2\"/>"
    );
    // Ticks.
    s.push_str("<g stroke=\"#333333\" stroke-width=\"1\">\n");
    for &t in &ticks {
        let _ = writeln!(
            s,
            "<line x1=\"{:.1}\" y1=\"{}\" x2=\"{:.1}\" y2=\"{}\"/><line x1=\"{}\" y1=\"{:.1}\" x2=\"{PLOT_X}\" y2=\"{:.1}\"/>",
            px(t),
            PLOT_Y + PLOT,
            px(t),
            PLOT_Y + PLOT + 5.0,
            PLOT_X - 5.0,
            py(t),
            py(t)
        );
    }
    s.push_str("</g>\n");
    // Every tick labelled when there are few, else every other one.
    let every = if ticks.len() <= 7 { step } else { 2.0 * step };
    for &t in &ticks {
        if ((t / every).round() * every - t).abs() > 1e-9 * every {
            continue;
        }
        let label = tick_label(t);
        text(&mut s, &label, (px(t), PLOT_Y + PLOT + 19.0), 11.0, Anchor::Middle, "#333333", false);
        text(&mut s, &label, (PLOT_X - 9.0, py(t) + 4.0), 11.0, Anchor::End, "#333333", false);
    }
    text(&mut s, "x/w", (PLOT_X + PLOT / 2.0, PLOT_Y + PLOT + 40.0), 13.0, Anchor::Middle, "#333333", false);
    text(&mut s, "y/w (up)", (PLOT_X, PLOT_Y - 14.0), 13.0, Anchor::Middle, "#333333", false);

    // The primitives.
    s.push_str("<g clip-path=\"url(#plot)\">\n");
    for shape in &shapes {
        let pts: Vec<String> = shape.points.iter().map(|&(x, y)| format!("{:.2},{:.2}", px(x), py(y))).collect();
        let (fill, outline) = (hex(shape.colour), hex(dark(shape.colour)));
        let title = format!("<title>stream {} primitive {}</title>", shape.stream, shape.index);
        match shape.kind {
            1 => {
                let (x, y) = shape.points[0];
                let _ = writeln!(
                    s,
                    "<circle cx=\"{:.2}\" cy=\"{:.2}\" r=\"4.5\" fill=\"{fill}\" stroke=\"{outline}\" stroke-width=\"1.5\">{title}</circle>",
                    px(x),
                    py(y)
                );
            }
            2 => {
                let _ = writeln!(
                    s,
                    "<g fill=\"none\" stroke-linecap=\"round\">{title}<polyline points=\"{}\" stroke=\"{outline}\" stroke-width=\"4.5\"/><polyline points=\"{}\" stroke=\"{fill}\" stroke-width=\"2.5\"/></g>",
                    pts.join(" "),
                    pts.join(" ")
                );
            }
            _ => {
                let _ = writeln!(
                    s,
                    "<polygon points=\"{}\" fill=\"{fill}\" fill-opacity=\"{FILL_OPACITY}\" stroke=\"{outline}\" stroke-width=\"1.5\" stroke-linejoin=\"round\">{title}</polygon>",
                    pts.join(" ")
                );
            }
        }
    }
    s.push_str("</g>\n");
    if labels {
        for shape in &shapes {
            let n = shape.points.len() as f64;
            let (cx, cy) = shape.points.iter().fold((0.0, 0.0), |(a, b), p| (a + p.0 / n, b + p.1 / n));
            let (cxp, cyp) = (px(cx), py(cy));
            for (k, v) in shape.vertices.iter().enumerate() {
                let Some((x, y)) = *v else { continue };
                let (vx, vy) = (px(x), py(y));
                // Inside the primitive, 14 pixels from its vertex towards the centre
                // (beside a point: up and to the right).
                let (dx, dy) = (cxp - vx, cyp - vy);
                let len = (dx * dx + dy * dy).sqrt();
                let (lx, ly) = if shape.kind == 1 || len < 1.0 {
                    (vx + 7.0, vy - 7.0)
                } else if shape.kind == 2 {
                    (vx + dy / len * 10.0, vy - dx / len * 10.0)
                } else {
                    (vx + dx / len * 14.0_f32.min(len * 0.45), vy + dy / len * 14.0_f32.min(len * 0.45))
                };
                if (PLOT_X..=PLOT_X + PLOT).contains(&lx) && (PLOT_Y..=PLOT_Y + PLOT).contains(&ly) {
                    text(&mut s, &k.to_string(), (lx, ly + 4.0), 10.0, Anchor::Middle, &hex(dark(shape.colour)), true);
                }
            }
            let label =
                if several_streams { format!("{}:{}", shape.stream, shape.index) } else { shape.index.to_string() };
            let (lx, ly) = if shape.kind == 1 { (cxp - 9.0, cyp - 8.0) } else { (cxp, cyp + 5.0) };
            text(&mut s, &label, (lx, ly), 13.0, Anchor::Middle, "#111111", true);
        }
    }
    if let Some(m) = &message {
        let (cx, cy) = (PLOT_X + PLOT / 2.0, PLOT_Y + PLOT / 2.0);
        let _ = writeln!(
            s,
            "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"70\" rx=\"6\" fill=\"#fff4e0\" stroke=\"#c07a00\" stroke-width=\"1.5\"/>",
            PLOT_X + 40.0,
            cy - 40.0,
            PLOT - 80.0
        );
        text(&mut s, "Nothing to draw", (cx, cy - 12.0), 18.0, Anchor::Middle, "#8a4b00", false);
        text(&mut s, m, (cx, cy + 16.0), 12.0, Anchor::Middle, "#8a4b00", false);
    }

    // The legend and the notes.
    let mut y = PLOT_Y + 8.0;
    text(&mut s, "Primitives", (PANEL_X, y), 14.0, Anchor::Start, "#111111", false);
    y += 22.0;
    for (stream, _) in &drawable {
        let kind = match stream.topology {
            tpf::PrimitiveTopology::PointList => ("point", "points"),
            tpf::PrimitiveTopology::LineList => ("line", "lines"),
            _ => ("triangle", "triangles"),
        };
        let r = if result.rasterized_stream == Some(stream.stream) { ", rasterized" } else { "" };
        let line = format!("stream {}{r}: {}", stream.stream, plural(stream.primitives.len(), kind.0, kind.1));
        for line in wrap(&line, 34) {
            text(&mut s, &line, (PANEL_X, y), 11.0, Anchor::Start, "#333333", false);
            y += 15.0;
        }
        y += 2.0;
    }
    y += 8.0;
    if !legend.is_empty() {
        text(&mut s, "Colours", (PANEL_X, y), 14.0, Anchor::Start, "#111111", false);
        y += 20.0;
        for (colour, label) in &legend {
            if let Some(what) = label.strip_prefix("fill: ") {
                // A strip of the vertex colours drawn.
                let mut seen: Vec<[u8; 3]> = shapes.iter().map(|sh| sh.colour).collect();
                seen.dedup();
                seen.truncate(8);
                for (i, c) in seen.iter().enumerate() {
                    let _ = writeln!(
                        s,
                        "<rect x=\"{:.1}\" y=\"{:.1}\" width=\"12\" height=\"12\" fill=\"{}\" stroke=\"{}\"/>",
                        PANEL_X + i as f32 * 14.0,
                        y - 10.0,
                        hex(*c),
                        hex(dark(*c))
                    );
                }
                y += 18.0;
                for line in wrap(what, 34) {
                    text(&mut s, &line, (PANEL_X, y), 11.0, Anchor::Start, "#333333", false);
                    y += 15.0;
                }
            } else {
                let _ = writeln!(
                    s,
                    "<rect x=\"{PANEL_X}\" y=\"{:.1}\" width=\"14\" height=\"14\" fill=\"{}\" fill-opacity=\"{}\" stroke=\"{}\" stroke-width=\"1.5\"/>",
                    y - 11.0,
                    hex(*colour),
                    FILL_OPACITY.max(0.7),
                    hex(dark(*colour))
                );
                text(&mut s, label, (PANEL_X + 22.0, y), 11.0, Anchor::Start, "#333333", false);
                y += 19.0;
            }
        }
        y += 8.0;
    }
    // (The message box says what the first note of an empty picture says.)
    let panel_notes = &notes[usize::from(message.is_some())..];
    if !panel_notes.is_empty() {
        text(&mut s, "Notes", (PANEL_X, y), 14.0, Anchor::Start, "#8a4b00", false);
        y += 20.0;
        for note in panel_notes {
            for (i, line) in wrap(note, 32).iter().enumerate() {
                let line = if i == 0 { format!("- {line}") } else { format!("  {line}") };
                text(&mut s, &line, (PANEL_X, y), 11.0, Anchor::Start, "#8a4b00", false);
                y += 15.0;
            }
            y += 4.0;
        }
    }
    s.push_str("</svg>\n");
    Picture { svg: s, notes, empty }
}

/// `text` in lines of at most `width` characters, broken at spaces.
fn wrap(text: &str, width: usize) -> Vec<String> {
    let mut lines: Vec<String> = Vec::new();
    let mut line = String::new();
    for word in text.split(' ') {
        if !line.is_empty() && line.chars().count() + 1 + word.chars().count() > width {
            lines.push(std::mem::take(&mut line));
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(word);
    }
    if !line.is_empty() {
        lines.push(line);
    }
    lines
}

/// Renders an SVG (the picture's) to PNG bytes.
pub fn png(svg: &str) -> Result<Vec<u8>, String> {
    let tree = resvg::usvg::Tree::from_str(svg, &resvg::usvg::Options::default()).map_err(|e| e.to_string())?;
    let size = tree.size().to_int_size();
    let mut pixmap = resvg::tiny_skia::Pixmap::new(size.width(), size.height()).ok_or("an empty picture")?;
    resvg::render(&tree, resvg::tiny_skia::Transform::default(), &mut pixmap.as_mut());
    pixmap.encode_png().map_err(|e| e.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clipping() {
        // A triangle half behind the eye keeps its front part.
        let t = clip_w(&[[0.0, 0.0, 0.0, 1.0], [1.0, 0.0, 0.0, 1.0], [0.0, 1.0, 0.0, -1.0]], true);
        assert_eq!(t.len(), 4);
        assert!(t.iter().all(|p| p[3] >= W_MIN * 0.999));
        assert!(clip_w(&[[0.0, 0.0, 0.0, -1.0], [1.0, 0.0, 0.0, 0.0]], false).is_empty());
        assert_eq!(clip_w(&[[0.0, 0.0, 0.0, 2.0]], false).len(), 1);
        // A square clip of a triangle poking out of [-1, 1] on the right.
        let p = clip_square(&[(0.0, 0.0), (3.0, 0.0), (0.0, 0.5)], true, 1.0);
        assert!(p.iter().all(|q| q.0 <= 1.0 + 1e-12));
        assert_eq!(p.len(), 4);
        assert!(clip_square(&[(2.0, 2.0), (3.0, 2.0)], false, 1.0).is_empty());
        assert_eq!(clip_square(&[(-2.0, 0.0), (2.0, 0.0)], false, 1.0), vec![(-1.0, 0.0), (1.0, 0.0)]);
    }

    #[test]
    fn tick_labels_and_wrapping() {
        assert_eq!(tick_label(-0.0), "0");
        assert_eq!(tick_label(0.5), "0.5");
        assert_eq!(tick_label(-1.0), "-1");
        assert_eq!(tick_label(0.25), "0.25");
        assert_eq!(tick_label(2e6), "2e6");
        assert_eq!((round_up(0.22), round_up(0.3), round_up(0.6), round_up(730.0)), (0.25, 0.5, 1.0, 1000.0));
        assert_eq!(wrap("one two three", 7), vec!["one two", "three"]);
        assert_eq!(wrap("averyverylongword x", 4), vec!["averyverylongword", "x"]);
    }
}
