//! The input assembler's primitive topology: how a draw's vertices form the primitives a
//! geometry shader's `dcl_inputprimitive` takes (D3D11.3 functional spec, 8.4 "Primitive
//! Topologies"). The reference pipeline (`exec`) assembles draws with it and the compute
//! lowering of geometry shaders (`translate`) indexes vertices with it: one type for both.
//!
//! Not to be confused with [`PrimitiveTopology`], the token field of
//! `dcl_outputtopology` (what a geometry shader emits).

use crate::{Primitive, PrimitiveTopology};

/// `D3D11_PRIMITIVE_TOPOLOGY`, the ones without tessellation.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Topology {
    /// One vertex per point.
    PointList,
    /// Two vertices per line.
    LineList,
    /// Each vertex after the first ends a line.
    LineStrip,
    /// Three vertices per triangle.
    TriangleList,
    /// Each vertex after the second ends a triangle (winding alternating: an odd
    /// triangle has its last two vertices swapped, so that the leading vertex stays
    /// first).
    TriangleStrip,
    /// Four vertices per line: the line's two between two adjacent ones.
    LineListAdj,
    /// A line strip with an adjacent vertex at each end: each vertex after the third
    /// ends a line (its four vertices the last four).
    LineStripAdj,
    /// Six vertices per triangle: its corners at even positions, adjacent vertices at
    /// odd ones.
    TriangleListAdj,
    /// A triangle strip with adjacent vertices between.
    TriangleStripAdj,
}

impl Topology {
    /// Every topology, in the order above.
    pub const ALL: [Topology; 9] = [
        Topology::PointList,
        Topology::LineList,
        Topology::LineStrip,
        Topology::TriangleList,
        Topology::TriangleStrip,
        Topology::LineListAdj,
        Topology::LineStripAdj,
        Topology::TriangleListAdj,
        Topology::TriangleStripAdj,
    ];

    /// `pointlist`, `trianglestrip_adj`... (also D3D11's `D3D11_PRIMITIVE_TOPOLOGY_`
    /// names, any case).
    pub fn parse(s: &str) -> Option<Topology> {
        let s = s.trim().to_ascii_lowercase();
        let s = s.strip_prefix("d3d11_primitive_topology_").unwrap_or(&s).replace('_', "");
        Some(match s.as_str() {
            "pointlist" => Topology::PointList,
            "linelist" => Topology::LineList,
            "linestrip" => Topology::LineStrip,
            "trianglelist" => Topology::TriangleList,
            "trianglestrip" => Topology::TriangleStrip,
            "linelistadj" => Topology::LineListAdj,
            "linestripadj" => Topology::LineStripAdj,
            "trianglelistadj" => Topology::TriangleListAdj,
            "trianglestripadj" => Topology::TriangleStripAdj,
            _ => return None,
        })
    }

    /// The list topology that feeds a geometry shader's `dcl_inputprimitive` (`None`
    /// for patches and `undefined`).
    pub fn list_for(p: Primitive) -> Option<Topology> {
        Some(match p {
            Primitive::Point => Topology::PointList,
            Primitive::Line => Topology::LineList,
            Primitive::Triangle => Topology::TriangleList,
            Primitive::LineAdj => Topology::LineListAdj,
            Primitive::TriangleAdj => Topology::TriangleListAdj,
            _ => return None,
        })
    }

    /// Vertices per primitive (with the adjacent ones).
    pub fn vertices_per_primitive(self) -> u32 {
        match self {
            Topology::PointList => 1,
            Topology::LineList | Topology::LineStrip => 2,
            Topology::TriangleList | Topology::TriangleStrip => 3,
            Topology::LineListAdj | Topology::LineStripAdj => 4,
            Topology::TriangleListAdj | Topology::TriangleStripAdj => 6,
        }
    }

    /// Primitives formed by one strip (or list) of `vertices` vertices; an incomplete
    /// last one is dropped.
    pub fn primitives(self, vertices: u32) -> u32 {
        match self {
            Topology::LineStrip => vertices.saturating_sub(1),
            Topology::TriangleStrip => vertices.saturating_sub(2),
            Topology::LineStripAdj => vertices.saturating_sub(3),
            // 6 vertices for the first triangle, 2 more for each next one.
            Topology::TriangleStripAdj if vertices >= 6 => (vertices - 4) / 2,
            Topology::TriangleStripAdj => 0,
            t => vertices / t.vertices_per_primitive(),
        }
    }

    /// The topology has adjacent vertices.
    pub fn has_adjacency(self) -> bool {
        matches!(
            self,
            Topology::LineListAdj | Topology::LineStripAdj | Topology::TriangleListAdj | Topology::TriangleStripAdj
        )
    }

    /// The geometry-shader input primitive this topology feeds.
    pub fn gs_input(self) -> Primitive {
        match self {
            Topology::PointList => Primitive::Point,
            Topology::LineList | Topology::LineStrip => Primitive::Line,
            Topology::TriangleList | Topology::TriangleStrip => Primitive::Triangle,
            Topology::LineListAdj | Topology::LineStripAdj => Primitive::LineAdj,
            Topology::TriangleListAdj | Topology::TriangleStripAdj => Primitive::TriangleAdj,
        }
    }

    /// The list topology the primitives reach stream output and the rasterizer as
    /// (adjacent vertices dropped).
    pub fn list(self) -> PrimitiveTopology {
        match self.vertices_per_primitive() {
            1 => PrimitiveTopology::PointList,
            2 | 4 => PrimitiveTopology::LineList,
            _ => PrimitiveTopology::TriangleList,
        }
    }

    /// Triangle `i` of a triangle strip with adjacency (D3D11.3 functional spec, 8.4
    /// "Primitive Topologies"): its six vertices in geometry-shader order (corners at even
    /// positions, adjacent vertices at odd ones), as offsets from the strip's vertex
    /// `2i`. The first triangle (`i` = 0), the other even ones, the odd ones (turned so
    /// that the leading vertex stays first) and the last one (its far adjacent vertex
    /// one closer) each have their order.
    pub fn strip_adj_offsets(first: bool, even: bool, last: bool) -> [i8; 6] {
        let even = even || first;
        [
            0,
            if first {
                1
            } else if even {
                -2
            } else {
                3
            },
            if even { 2 } else { 4 },
            if last { 5 } else { 6 },
            if even { 4 } else { 2 },
            if even { 3 } else { -2 },
        ]
    }

    /// Which of a primitive's vertices (in geometry-shader order) remain when the
    /// adjacent ones are dropped (no geometry shader: "topologies with adjacency
    /// discard the adjacent vertices").
    pub fn interior(self) -> &'static [usize] {
        match self {
            Topology::PointList => &[0],
            Topology::LineList | Topology::LineStrip => &[0, 1],
            Topology::TriangleList | Topology::TriangleStrip => &[0, 1, 2],
            Topology::LineListAdj | Topology::LineStripAdj => &[1, 2],
            Topology::TriangleListAdj | Topology::TriangleStripAdj => &[0, 2, 4],
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_and_d3d11_spellings_parse() {
        for t in Topology::ALL {
            let name = format!("{t:?}").to_ascii_lowercase();
            assert_eq!(Topology::parse(&name), Some(t), "{name}");
        }
        assert_eq!(Topology::parse("D3D11_PRIMITIVE_TOPOLOGY_TRIANGLESTRIP_ADJ"), Some(Topology::TriangleStripAdj));
        assert_eq!(Topology::parse("trianglestrip_adj"), Some(Topology::TriangleStripAdj));
        assert_eq!(Topology::parse("patchlist"), None);
    }

    #[test]
    fn primitive_counts_follow_each_topology() {
        let counts = |n| Topology::ALL.map(|t| t.primitives(n));
        assert_eq!(counts(0), [0; 9]);
        assert_eq!(counts(5), [5, 2, 4, 1, 3, 1, 2, 0, 0]);
        assert_eq!(counts(6), [6, 3, 5, 2, 4, 1, 3, 1, 1]);
        assert_eq!(counts(9), [9, 4, 8, 3, 7, 2, 6, 1, 2]);
    }

    #[test]
    fn every_list_topology_feeds_its_own_input_primitive() {
        for t in Topology::ALL {
            let list = Topology::list_for(t.gs_input()).expect("a list feeds it");
            assert_eq!(list.gs_input(), t.gs_input());
            assert_eq!(list.vertices_per_primitive(), t.vertices_per_primitive());
        }
        assert_eq!(Topology::list_for(Primitive::Patch3), None);
    }
}
