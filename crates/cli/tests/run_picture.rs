//! `dxref run --svg/--png`: the picture rendered to pixels by resvg, as a person sees
//! it. Each triangle covers pixels of its colour at its centroid (mapped through the
//! viewport square the picture marks, so the projection x/w, y/w with y up is checked
//! too); white on white stays visible by its outline; primitives outside the viewport,
//! outside the picture or behind the eye are reported in the picture and on standard
//! error; a picture with nothing to draw says so instead of showing an empty square;
//! colours by GS instance follow the legend; points and lines are drawn.

mod common;
use common::*;

/// A picture rendered by resvg: RGBA rows (the background is opaque, so premultiplied
/// and straight alpha agree).
struct Pixels {
    width: u32,
    data: Vec<u8>,
}

impl Pixels {
    fn render(svg: &str) -> Pixels {
        let tree = resvg::usvg::Tree::from_str(svg, &resvg::usvg::Options::default()).unwrap();
        let size = tree.size().to_int_size();
        let mut pixmap = resvg::tiny_skia::Pixmap::new(size.width(), size.height()).unwrap();
        resvg::render(&tree, resvg::tiny_skia::Transform::default(), &mut pixmap.as_mut());
        Pixels { width: size.width(), data: pixmap.data().to_vec() }
    }

    fn at(&self, x: f64, y: f64) -> [u8; 3] {
        let i = (y.floor() as usize * self.width as usize + x.floor() as usize) * 4;
        [self.data[i], self.data[i + 1], self.data[i + 2]]
    }
}

/// An attribute's number in an SVG element's text.
fn attr(element: &str, name: &str) -> f64 {
    let start = element.find(&format!(" {name}=\"")).unwrap_or_else(|| panic!("{name} in {element}")) + name.len() + 3;
    element[start..].split('"').next().unwrap().parse().unwrap()
}

/// Where NDC (x, y) lands in the picture, from the viewport square it marks (the dashed
/// rectangle from (-1, 1) to (1, -1)).
fn mapping(svg: &str) -> impl Fn(f64, f64) -> (f64, f64) {
    let rect = svg.lines().find(|l| l.contains("stroke-dasharray")).expect("the viewport square");
    let (x, y, w, h) = (attr(rect, "x"), attr(rect, "y"), attr(rect, "width"), attr(rect, "height"));
    move |nx, ny| (x + (nx + 1.0) / 2.0 * w, y + (1.0 - ny) / 2.0 * h)
}

fn blend(colour: [f64; 3], alpha: f64, background: [f64; 3]) -> [f64; 3] {
    [0, 1, 2].map(|i| alpha * colour[i] + (1.0 - alpha) * background[i])
}

fn close(got: [u8; 3], want: [f64; 3], tolerance: f64) -> bool {
    (0..3).all(|i| (got[i] as f64 - want[i]).abs() <= tolerance)
}

/// The viewport square's background: its fill (0xee, 0xf2, 0xfa) at 0.85 over white.
const VIEWPORT: [f64; 3] = [0.85 * 238.0 + 0.15 * 255.0, 0.85 * 242.0 + 0.15 * 255.0, 0.85 * 250.0 + 0.15 * 255.0];
const WHITE: [f64; 3] = [255.0; 3];
/// Triangles' fill opacity.
const ALPHA: f64 = 0.45;

/// Runs a draw writing the picture; returns the SVG and standard error.
fn picture(args: &[&str]) -> (String, String) {
    static COUNTER: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let n = COUNTER.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let svg = temp_file(&format!("picture{n}.svg"), "");
    let mut all = vec!["run", "--quiet", "--svg", &svg];
    all.extend_from_slice(args);
    let out = dxref(&all);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    (std::fs::read_to_string(&svg).unwrap(), text(&out.stderr))
}

/// Six triangles through the pass-through VS: red, green (w = 2), blue (outside the
/// viewport, inside the picture), white (on the light viewport), one far away and one
/// behind the eye.
fn scene() -> String {
    let triangles: [([[f64; 4]; 3], [f64; 3]); 6] = [
        ([[-0.8, -0.8, 0.5, 1.0], [-0.3, -0.8, 0.5, 1.0], [-0.8, -0.3, 0.5, 1.0]], [1.0, 0.0, 0.0]),
        ([[0.4, 0.4, 0.5, 2.0], [1.4, 0.4, 0.5, 2.0], [0.4, 1.4, 0.5, 2.0]], [0.0, 1.0, 0.0]),
        ([[1.2, -0.5, 0.5, 1.0], [1.6, -0.5, 0.5, 1.0], [1.2, -0.1, 0.5, 1.0]], [0.0, 0.0, 1.0]),
        ([[-0.6, 0.3, 0.5, 1.0], [-0.2, 0.3, 0.5, 1.0], [-0.6, 0.7, 0.5, 1.0]], [1.0, 1.0, 1.0]),
        ([[50.0, 50.0, 0.5, 1.0], [51.0, 50.0, 0.5, 1.0], [50.0, 51.0, 0.5, 1.0]], [1.0, 0.0, 1.0]),
        ([[0.0, 0.0, 0.5, -1.0], [1.0, 0.0, 0.5, -1.0], [0.0, 1.0, 0.5, -1.0]], [0.0, 1.0, 1.0]),
    ];
    let vertices: Vec<String> = triangles
        .iter()
        .flat_map(|(p, c)| {
            p.iter().map(move |v| {
                format!(
                    "{{\"POSITION\": [{}, {}, {}, {}], \"COLOR\": [{}, {}, {}, 1.0]}}",
                    v[0], v[1], v[2], v[3], c[0], c[1], c[2]
                )
            })
        })
        .collect();
    temp_file("scene.json", &format!("[{}]", vertices.join(",\n")))
}

#[test]
fn each_triangle_covers_pixels_of_its_colour() {
    let (svg, stderr) =
        picture(&["--vs", &example("passthrough_vs.asm"), "--input", &scene(), "--topology", "trianglelist"]);
    let pixels = Pixels::render(&svg);
    let to_pixel = mapping(&svg);
    // (NDC centroid, colour, background).
    let cases = [
        ((-0.8 - 0.3 - 0.8) / 3.0, (-0.8 - 0.8 - 0.3) / 3.0, [255.0, 0.0, 0.0], VIEWPORT),
        ((0.2 + 0.7 + 0.2) / 3.0, (0.2 + 0.2 + 0.7) / 3.0, [0.0, 255.0, 0.0], VIEWPORT),
        ((1.2 + 1.6 + 1.2) / 3.0, (-0.5 - 0.5 - 0.1) / 3.0, [0.0, 0.0, 255.0], WHITE),
    ];
    for (x, y, colour, background) in cases {
        let (px, py) = to_pixel(x, y);
        let got = pixels.at(px, py);
        let want = blend(colour, ALPHA, background);
        assert!(close(got, want, 3.0), "centroid ({x:.3}, {y:.3}) at pixel ({px:.0}, {py:.0}): {got:?}, want {want:?}");
        // The pixel is nearer its own colour than any other triangle's.
        for (_, _, other, _) in cases.iter().filter(|c| c.2 != colour) {
            let d = |w: [f64; 3]| (0..3).map(|i| (got[i] as f64 - w[i]).powi(2)).sum::<f64>();
            assert!(d(want) < d(blend(*other, ALPHA, background)));
        }
    }
    // White on the light viewport: a visible outline along each edge (the left edge,
    // x = -0.6, from y = 0.3 to 0.7), and the fill inside.
    let (px, py) = to_pixel(-0.6, 0.5);
    let edge = (-2..=2)
        .map(|d| pixels.at(px + d as f64, py))
        .min_by_key(|c| c.iter().map(|&v| v as u32).sum::<u32>())
        .unwrap();
    assert!(edge.iter().all(|&c| c < 175), "the white triangle's outline: {edge:?}");
    let (px, py) = to_pixel(-0.467, 0.433);
    assert!(close(pixels.at(px, py), blend(WHITE, ALPHA, VIEWPORT), 3.0), "{:?}", pixels.at(px, py));
    // Four triangles drawn; the far one and the one behind the eye reported.
    assert_eq!(svg.matches("<polygon").count(), 4, "{svg}");
    for note in [
        "1 primitive lies behind the eye (w <= 0): not drawn",
        "1 primitive lies wholly outside the picture (beyond 2): not drawn",
        "1 primitive lies outside the viewport [-1, 1] (a rasterizer clips it)",
    ] {
        assert!(stderr.contains(&format!("note: picture: {note}")), "{note}\n{stderr}");
        // (XML escapes `<`.)
        assert!(svg.contains("<desc>") && svg.contains(&note.replace('<', "&lt;")), "{note}");
    }
    // The picture shows ticks labelled in normalized device coordinates.
    for label in ["aria-label=\"-1\"", "aria-label=\"2\"", "aria-label=\"x/w\"", "aria-label=\"viewport\""] {
        assert!(svg.contains(label), "{label}");
    }
}

#[test]
fn a_picture_with_nothing_to_draw_says_why() {
    let vs = example("passthrough_vs.asm");
    // Everything behind the eye.
    let behind = temp_file(
        "behind.json",
        r#"[{"POSITION": [0, 0, 0, -1], "COLOR": 1}, {"POSITION": [1, 0, 0, -1], "COLOR": 1}, {"POSITION": [0, 1, 0, -1], "COLOR": 1}]"#,
    );
    let (svg, stderr) = picture(&["--vs", &vs, "--input", &behind, "--topology", "trianglelist"]);
    let message = "nothing to draw: every primitive lies behind the eye (w <= 0)";
    assert!(stderr.contains(&format!("warning: picture: {message}")), "{stderr}");
    assert!(svg.contains("aria-label=\"Nothing to draw\"") && svg.contains(&message.replace('<', "&lt;")), "{svg}");
    // The message is in the middle of the plot, in its box's colour.
    let pixels = Pixels::render(&svg);
    let (x, y) = mapping(&svg)(0.9, 0.0);
    assert_eq!(pixels.at(x, y), [0xff, 0xf4, 0xe0]);

    // No output has a position.
    let no_position = temp_file(
        "no_position_vs.asm",
        "//\n// Input signature:\n//\n// Name                 Index   Mask Register SysValue  Format   Used\n\
         // -------------------- ----- ------ -------- -------- ------- ------\n\
         // POSITION                 0   xyzw        0     NONE   float   xyzw\n\
         // COLOR                    0   xyzw        1     NONE   float   xyzw\n//\n//\n// Output signature:\n//\n\
         // Name                 Index   Mask Register SysValue  Format   Used\n\
         // -------------------- ----- ------ -------- -------- ------- ------\n\
         // COLOR                    0   xyzw        0     NONE   float   xyzw\n//\n\
         vs_4_0\ndcl_input v0.xyzw\ndcl_input v1.xyzw\ndcl_output o0.xyzw\nmov o0.xyzw, v1.xyzw\nret\n",
    );
    let (svg, stderr) = picture(&["--vs", &no_position, "--input", &example("points.json")]);
    assert!(stderr.contains("stream 0: no SV_Position output, its 4 primitives are not drawn"), "{stderr}");
    assert!(stderr.contains("warning: picture: nothing to draw: no output with primitives has an SV_Position"));
    assert!(svg.contains("aria-label=\"Nothing to draw\""));
    // No primitives at all.
    let (svg, stderr) = picture(&["--vs", &vs, "--input", &example("points.json"), "--instances", "0"]);
    assert!(stderr.contains("nothing to draw: the draw produced no primitives"), "{stderr}");
    assert!(svg.contains("aria-label=\"Nothing to draw\""));
    // And a picture that has primitives has no such message.
    let (svg, stderr) =
        picture(&["--vs", &vs, "--gs", &example("point_to_quad_gs.asm"), "--input", &example("points.json")]);
    assert!(!svg.contains("Nothing to draw") && !stderr.contains("nothing to draw"), "{stderr}");
}

/// Two GS instances, each emitting the input triangle shifted by instance × 0.8 in x:
/// coloured by instance, as the legend says.
#[test]
fn colours_by_gs_instance_follow_the_legend() {
    let gs = temp_file(
        "two_instances_gs.asm",
        "//\n// Input signature:\n//\n// Name                 Index   Mask Register SysValue  Format   Used\n\
         // -------------------- ----- ------ -------- -------- ------- ------\n\
         // SV_Position              0   xyzw        0      POS   float   xyzw\n//\n//\n// Output signature:\n//\n\
         // Name                 Index   Mask Register SysValue  Format   Used\n\
         // -------------------- ----- ------ -------- -------- ------- ------\n\
         // SV_Position              0   xyzw        0      POS   float   xyzw\n//\n\
         gs_5_0\ndcl_input_siv v[3][0].xyzw, position\ndcl_input vGSInstanceID\ndcl_inputprimitive triangle\n\
         dcl_outputtopology trianglestrip\ndcl_output_siv o0.xyzw, position\ndcl_maxout 3\ndcl_gsinstances 2\n\
         dcl_temps 1\nutof r0.x, vGSInstanceID.x\nmul r0.x, r0.x, l(0.8)\n\
         add o0.x, v[0][0].x, r0.x\nmov o0.yzw, v[0][0].yyzw\nemit\n\
         add o0.x, v[1][0].x, r0.x\nmov o0.yzw, v[1][0].yyzw\nemit\n\
         add o0.x, v[2][0].x, r0.x\nmov o0.yzw, v[2][0].yyzw\nemit\nret\n",
    );
    let input = temp_file(
        "triangle.csv",
        "SV_Position.x,SV_Position.y,SV_Position.z,SV_Position.w\n-0.7,-0.4,0,1\n-0.1,-0.4,0,1\n-0.7,0.2,0,1\n",
    );
    let (svg, _) = picture(&["--gs", &gs, "--input", &input, "--fill-by", "instance"]);
    let pixels = Pixels::render(&svg);
    let to_pixel = mapping(&svg);
    for instance in 0..2 {
        // The legend's swatch for this instance: the rectangle just before its label.
        let label = svg.find(&format!("aria-label=\"GS instance {instance}\"")).expect("legend entry");
        let swatch = svg[..label].rfind("<rect").unwrap();
        let fill = svg[swatch..].split("fill=\"#").nth(1).unwrap();
        let colour = [0, 2, 4].map(|k| u8::from_str_radix(&fill[k..k + 2], 16).unwrap() as f64);
        let dx = 0.8 * instance as f64;
        let (px, py) = to_pixel((-0.7 - 0.1 - 0.7) / 3.0 + dx, -0.2);
        let got = pixels.at(px, py);
        assert!(close(got, blend(colour, ALPHA, VIEWPORT), 3.0), "instance {instance}: {got:?} vs {colour:?}");
    }
    // Auto picks the instances too (no COLOR output, two instances).
    let (auto, _) = picture(&["--gs", &gs, "--input", &input]);
    assert!(auto.contains("aria-label=\"GS instance 1\""));
}

/// Points are markers, lines strokes, in their colour; labels number primitives and
/// vertices.
#[test]
fn points_lines_and_labels() {
    let vs = example("passthrough_vs.asm");
    let input = temp_file(
        "line.json",
        r#"[{"POSITION": [-0.8, 0.1, 0, 1], "COLOR": [0, 0, 1, 1]}, {"POSITION": [0.8, 0.1, 0, 1], "COLOR": [0, 0, 1, 1]},
            {"POSITION": [-0.4, -0.6, 0, 1], "COLOR": [1, 0, 0, 1]}, {"POSITION": [0.3, -0.6, 0, 1], "COLOR": [1, 0, 0, 1]}]"#,
    );
    let (svg, _) = picture(&["--vs", &vs, "--input", &input, "--topology", "linelist", "--labels"]);
    let pixels = Pixels::render(&svg);
    let to_pixel = mapping(&svg);
    let (x, y) = to_pixel(0.3, 0.1);
    assert!(close(pixels.at(x, y), [0.0, 0.0, 255.0], 2.0), "{:?}", pixels.at(x, y));
    let (x, y) = to_pixel(-0.2, -0.6);
    assert!(close(pixels.at(x, y), [255.0, 0.0, 0.0], 2.0), "{:?}", pixels.at(x, y));
    // `--labels` numbers the two lines (0, 1) and each line's two vertices (0, 1): each
    // number three times more (the axes' tick labels are there either way).
    let (plain, _) = picture(&["--vs", &vs, "--input", &input, "--topology", "linelist"]);
    for label in ["aria-label=\"0\"", "aria-label=\"1\""] {
        assert_eq!(
            svg.matches(label).count(),
            plain.matches(label).count() + 3,
            "{label}: primitive and vertex numbers"
        );
    }
    // The points of the same vertices: markers.
    let (svg, _) = picture(&["--vs", &vs, "--input", &input, "--topology", "pointlist"]);
    assert_eq!(svg.matches("<circle").count(), 4);
    let pixels = Pixels::render(&svg);
    let (x, y) = mapping(&svg)(-0.4, -0.6);
    assert!(close(pixels.at(x, y), [255.0, 0.0, 0.0], 2.0), "{:?}", pixels.at(x, y));
}

/// `--png` writes the same picture as pixels.
#[test]
fn png_of_the_bundled_example() {
    let png = temp_file("quads.png", "");
    let svg = temp_file("quads.svg", "");
    let out = dxref(&[
        "run",
        "--vs",
        &example("passthrough_vs.asm"),
        "--gs",
        &example("point_to_quad_gs.asm"),
        "--input",
        &example("points.json"),
        "--svg",
        &svg,
        "--png",
        &png,
        "--quiet",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let decoder = png::Decoder::new(std::io::BufReader::new(std::fs::File::open(&png).unwrap()));
    let mut reader = decoder.read_info().unwrap();
    let mut buf = vec![0; reader.output_buffer_size().unwrap()];
    let info = reader.next_frame(&mut buf).unwrap();
    let svg = std::fs::read_to_string(&svg).unwrap();
    let pixels = Pixels::render(&svg);
    assert_eq!(info.width, pixels.width);
    // The red quad around (-0.6, -0.5), drawn from the first point's COLOR (1, 0.2, 0.2).
    let (x, y) = mapping(&svg)(-0.62, -0.53);
    let i = (y as usize * info.width as usize + x as usize) * 4;
    let got = [buf[i], buf[i + 1], buf[i + 2]];
    assert_eq!(got, pixels.at(x, y));
    assert!(close(got, blend([255.0, 51.0, 51.0], ALPHA, VIEWPORT), 3.0), "{got:?}");
    // An unwritable place is an output error (exit 3, the status of every output that
    // cannot be written).
    let out = dxref(&[
        "run",
        "--vs",
        &example("passthrough_vs.asm"),
        "--input",
        &example("points.json"),
        "--png",
        "/nonexistent/dir/x.png",
        "--quiet",
    ]);
    assert_eq!(out.status.code(), Some(3), "{}", text(&out.stderr));
}
