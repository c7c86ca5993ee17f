//! A stroke font of our own for the picture's text, so that the SVG and the PNG
//! rendered from it show the same letters on any machine, with or without fonts
//! installed. Each glyph is a few polylines on a grid 4 units wide: capitals and digits
//! from y = 0 (top) to y = 6 (baseline), lower case from y = 2, descenders to y = 8.
//! The advance is 5.2 units; a text of size `s` pixels draws one unit as `s / 8` pixels.

/// Horizontal advance of one character, in units.
pub const ADVANCE: f32 = 5.2;

/// The strokes of `c` (`;` between polylines, points `x,y` separated by spaces), or
/// `None` for a character without a glyph (drawn as a small box).
fn glyph(c: char) -> Option<&'static str> {
    Some(match c {
        ' ' => "",
        '0' => "1,0 3,0 4,1 4,5 3,6 1,6 0,5 0,1 1,0;3.6,1.4 0.4,4.6",
        '1' => "1,1 2,0 2,6;1,6 3,6",
        '2' => "0,1 1,0 3,0 4,1 4,2 0,6 4,6",
        '3' => "0,0 4,0 2,2.5 3,2.5 4,3.5 4,5 3,6 1,6 0,5",
        '4' => "3,6 3,0 0,4 4,4",
        '5' => "4,0 0,0 0,2.5 3,2.5 4,3.5 4,5 3,6 1,6 0,5",
        '6' => "3,0 1,0 0,1 0,5 1,6 3,6 4,5 4,3.5 3,2.5 0,2.5",
        '7' => "0,0 4,0 1.5,6",
        '8' => "1,3 0,2 0,1 1,0 3,0 4,1 4,2 3,3 1,3 0,4 0,5 1,6 3,6 4,5 4,4 3,3",
        '9' => "4,3.5 1,3.5 0,2.5 0,1 1,0 3,0 4,1 4,5 3,6 1,6",
        'A' => "0,6 0,2 2,0 4,2 4,6;0,3.5 4,3.5",
        'B' => "0,3 3,3 4,4 4,5 3,6 0,6 0,0 3,0 4,1 4,2 3,3",
        'C' => "4,1 3,0 1,0 0,1 0,5 1,6 3,6 4,5",
        'D' => "0,0 0,6 2.5,6 4,4.5 4,1.5 2.5,0 0,0",
        'E' => "4,0 0,0 0,6 4,6;0,3 3,3",
        'F' => "4,0 0,0 0,6;0,3 3,3",
        'G' => "4,1 3,0 1,0 0,1 0,5 1,6 3,6 4,5 4,3.5 2.5,3.5",
        'H' => "0,0 0,6;4,0 4,6;0,3 4,3",
        'I' => "1,0 3,0;2,0 2,6;1,6 3,6",
        'J' => "4,0 4,5 3,6 1,6 0,5",
        'K' => "0,0 0,6;4,0 0,3.5;1.3,2.7 4,6",
        'L' => "0,0 0,6 4,6",
        'M' => "0,6 0,0 2,3 4,0 4,6",
        'N' => "0,6 0,0 4,6 4,0",
        'O' => "1,0 3,0 4,1 4,5 3,6 1,6 0,5 0,1 1,0",
        'P' => "0,6 0,0 3,0 4,1 4,2 3,3 0,3",
        'Q' => "1,0 3,0 4,1 4,5 3,6 1,6 0,5 0,1 1,0;2.5,4.5 4,6",
        'R' => "0,6 0,0 3,0 4,1 4,2 3,3 0,3;2,3 4,6",
        'S' => "4,1 3,0 1,0 0,1 0,2 1,3 3,3 4,4 4,5 3,6 1,6 0,5",
        'T' => "0,0 4,0;2,0 2,6",
        'U' => "0,0 0,5 1,6 3,6 4,5 4,0",
        'V' => "0,0 2,6 4,0",
        'W' => "0,0 1,6 2,3 3,6 4,0",
        'X' => "0,0 4,6;4,0 0,6",
        'Y' => "0,0 2,3 4,0;2,3 2,6",
        'Z' => "0,0 4,0 0,6 4,6",
        'a' => "1,2 3,2 4,3 4,6;4,3.8 1,3.8 0,4.6 0,5.2 1,6 3,6 4,5",
        'b' => "0,0 0,6;0,3 1,2 3,2 4,3 4,5 3,6 1,6 0,5",
        'c' => "4,2.5 3,2 1,2 0,3 0,5 1,6 3,6 4,5.5",
        'd' => "4,0 4,6;4,3 3,2 1,2 0,3 0,5 1,6 3,6 4,5",
        'e' => "0,4 4,4 4,3 3,2 1,2 0,3 0,5 1,6 3,6 4,5.5",
        'f' => "4,0.5 3,0 2,0 1.5,0.5 1.5,6;0,2 3.5,2",
        'g' => "4,2 4,7 3,8 1,8 0.5,7.5;4,3 3,2 1,2 0,3 0,5 1,6 3,6 4,5",
        'h' => "0,0 0,6;0,3 1,2 3,2 4,3 4,6",
        'i' => "2,2 2,6;2,0.5 2,0.9",
        'j' => "3,2 3,7 2,8 1,8 0.5,7.5;3,0.5 3,0.9",
        'k' => "0,0 0,6;3.5,2 0,4.5;1.2,3.6 4,6",
        'l' => "1.5,0 1.5,5 2.5,6 3,6",
        'm' => "0,6 0,2;0,3 1,2 2,3 2,6;2,3 3,2 4,3 4,6",
        'n' => "0,6 0,2;0,3 1,2 3,2 4,3 4,6",
        'o' => "1,2 3,2 4,3 4,5 3,6 1,6 0,5 0,3 1,2",
        'p' => "0,2 0,8;0,3 1,2 3,2 4,3 4,5 3,6 1,6 0,5",
        'q' => "4,2 4,8;4,3 3,2 1,2 0,3 0,5 1,6 3,6 4,5",
        'r' => "0,2 0,6;0,3.5 1.5,2 3,2 4,2.5",
        's' => "4,2.5 3,2 1,2 0,2.8 1,4 3,4 4,4.9 3,6 1,6 0,5.5",
        't' => "1.5,0.5 1.5,5 2.5,6 3.5,6;0,2 3.5,2",
        'u' => "0,2 0,5 1,6 3,6 4,5;4,2 4,6",
        'v' => "0,2 2,6 4,2",
        'w' => "0,2 1,6 2,3.5 3,6 4,2",
        'x' => "0,2 4,6;4,2 0,6",
        'y' => "0,2 2,6;4,2 2,6 1,8 0.5,8",
        'z' => "0,2 4,2 0,6 4,6",
        '.' => "2,5.6 2,6",
        ',' => "2,5.4 2,6 1.4,7",
        ':' => "2,2.4 2,2.8;2,5.6 2,6",
        ';' => "2,2.4 2,2.8;2,5.4 2,6 1.4,7",
        '-' => "1,3.5 3,3.5",
        '+' => "0.5,3.5 3.5,3.5;2,2 2,5",
        '=' => "0.5,2.8 3.5,2.8;0.5,4.2 3.5,4.2",
        '(' => "3,0 2,1.2 1.6,3 2,4.8 3,6",
        ')' => "1,0 2,1.2 2.4,3 2,4.8 1,6",
        '[' => "3,0 1.5,0 1.5,6 3,6",
        ']' => "1,0 2.5,0 2.5,6 1,6",
        '/' => "4,0 0,6",
        '\\' => "0,0 4,6",
        '<' => "4,1 0,3.5 4,6",
        '>' => "0,1 4,3.5 0,6",
        '_' => "0,6.6 4,6.6",
        '\'' => "2,0 2,1.5",
        '"' => "1.3,0 1.3,1.5;2.7,0 2.7,1.5",
        '!' => "2,0 2,4;2,5.6 2,6",
        '?' => "0,1 1,0 3,0 4,1 4,2 2,3.5 2,4.3;2,5.6 2,6",
        '*' => "2,1.5 2,5.5;0.5,2.5 3.5,4.5;3.5,2.5 0.5,4.5",
        '#' => "1.2,0.5 1.2,5.5;2.8,0.5 2.8,5.5;0,2 4,2;0,4 4,4",
        '%' => "0,6 4,0;0.4,0.4 1.2,0.4 1.2,1.2 0.4,1.2 0.4,0.4;2.8,4.8 3.6,4.8 3.6,5.6 2.8,5.6 2.8,4.8",
        '|' => "2,0 2,8",
        '$' => "4,1.2 3,0.6 1,0.6 0,1.6 1,3 3,3 4,4.4 3,5.4 1,5.4 0,4.8;2,0 2,6",
        '&' => "4,6 1,2 1,1 2,0 3,1 3,2 0,4 0,5 1,6 2,6 4,4",
        '@' => "3,4 3,2 1.5,2 1.5,4 3,4 4,3.5 4,1 3,0 1,0 0,1 0,5 1,6 4,6",
        '~' => "0,3.8 1,3 3,4 4,3.2",
        '^' => "0,2 2,0 4,2",
        _ => return None,
    })
}

/// The SVG path data of `text` starting at (`x`, `y`) on its baseline, one unit =
/// `scale` pixels: `M x y L x y ...` per stroke.
pub fn path(text: &str, x: f32, y: f32, scale: f32) -> String {
    let mut d = String::new();
    let top = y - 6.0 * scale;
    for (i, c) in text.chars().enumerate() {
        let left = x + i as f32 * ADVANCE * scale;
        let strokes = glyph(c).unwrap_or("0,1 4,1 4,6 0,6 0,1");
        for stroke in strokes.split(';').filter(|s| !s.is_empty()) {
            let mut points = stroke.split(' ').filter_map(|p| {
                let (a, b) = p.split_once(',')?;
                Some((a.parse::<f32>().ok()?, b.parse::<f32>().ok()?))
            });
            let Some((x0, y0)) = points.next() else { continue };
            let (mut last, mut n) = ((x0, y0), 0);
            d.push_str(&format!("M{:.2} {:.2}", left + x0 * scale, top + y0 * scale));
            for (px, py) in points {
                d.push_str(&format!("L{:.2} {:.2}", left + px * scale, top + py * scale));
                last = (px, py);
                n += 1;
            }
            if n == 0 {
                // A lone point (never in the table): a dot.
                d.push_str(&format!("L{:.2} {:.2}", left + last.0 * scale, top + last.1 * scale + 0.01));
            }
        }
    }
    d
}

/// The width of `text` in pixels at `scale` (the last character's gap excluded).
pub fn width(text: &str, scale: f32) -> f32 {
    let n = text.chars().count() as f32;
    if n == 0.0 {
        0.0
    } else {
        (n * ADVANCE - 1.2) * scale
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every glyph's strokes read as points inside its box.
    #[test]
    fn glyphs_are_well_formed() {
        let printable = (' '..='~').chain(['\u{e9}']);
        for c in printable {
            if let Some(g) = glyph(c) {
                for stroke in g.split(';').filter(|s| !s.is_empty()) {
                    let points: Vec<&str> = stroke.split(' ').collect();
                    assert!(points.len() >= 2, "{c:?}: `{stroke}`");
                    for p in points {
                        let (a, b) = p.split_once(',').unwrap_or_else(|| panic!("{c:?}: `{p}`"));
                        let (x, y): (f32, f32) = (a.parse().unwrap(), b.parse().unwrap());
                        assert!((0.0..=4.0).contains(&x) && (0.0..=8.0).contains(&y), "{c:?}: {p}");
                    }
                }
            }
        }
        for c in ('0'..='9').chain('A'..='Z').chain('a'..='z') {
            assert!(glyph(c).is_some_and(|g| !g.is_empty()), "{c:?}");
        }
        assert!(path("a b", 0.0, 10.0, 1.0).starts_with("M"));
        assert_eq!(width("", 2.0), 0.0);
    }
}
