//! Review: random geometry shaders (emits, cuts, early returns on vPrim bits, random
//! output topology, dcl_maxout, instances) drawn as point lists; the pipeline's
//! captured primitives and statistics must equal a simple model of the functional spec's section 13 (Geometry Shader Stage) and the `dcl_maxOutputVertexCount` and `cut_stream` pages
//! applied to what the machine emits invocation by invocation.

mod common_pipeline;
use common_pipeline::*;
use exec::machine::{EmitSink, GsSystemValues, Machine};
use exec::Resources;
use tpf::PrimitiveTopology;

#[derive(Default)]
struct Rec(Vec<Option<u32>>); // Some(value) = emit, None = cut

impl EmitSink for Rec {
    fn emit(&mut self, _stream: u32, outputs: &[[u32; 4]]) {
        self.0.push(Some(outputs[0][0]));
    }
    fn cut(&mut self, _stream: u32) {
        self.0.push(None);
    }
}

fn model(topo: &str, events: &[Option<u32>], maxout: u32, out: &mut Vec<Vec<u32>>) {
    let mut strip: Vec<u32> = Vec::new();
    let mut emitted = 0;
    for e in events {
        match e {
            Some(v) => {
                assert!(emitted < maxout, "machine emitted past dcl_maxout");
                emitted += 1;
                strip.push(*v);
                let n = strip.len();
                match topo {
                    "pointlist" => out.push(vec![*v]),
                    "linestrip" if n >= 2 => out.push(vec![strip[n - 2], strip[n - 1]]),
                    "trianglestrip" if n >= 3 => {
                        let k = n - 3;
                        if k.is_multiple_of(2) {
                            out.push(vec![strip[k], strip[k + 1], strip[k + 2]]);
                        } else {
                            out.push(vec![strip[k], strip[k + 2], strip[k + 1]]);
                        }
                    }
                    _ => {}
                }
            }
            None => strip.clear(),
        }
    }
}

fn random_gs(rng: &mut corpus::Rng) -> (String, &'static str, u32, u32) {
    let topo = ["pointlist", "linestrip", "trianglestrip"][rng.below(3)];
    let maxout = 1 + rng.below(9) as u32;
    let instances = 1 + rng.below(3) as u32;
    let mut body = String::new();
    let mut k = 0;
    for _ in 0..rng.below(14) {
        match rng.below(10) {
            0..=4 => {
                body += &format!(
                    "imad r0.x, vPrim, l(4096), l({k})\nimad o0.x, vGSInstanceID.x, l(256), r0.x\nmov o0.y, v[0][0].x\nemit\n"
                );
                k += 1;
            }
            5 => {
                body += &format!(
                    "imad r0.x, vPrim, l(4096), l({k})\nimad o0.x, vGSInstanceID.x, l(256), r0.x\nmov o0.y, v[0][0].x\nemit_then_cut\n"
                );
                k += 1;
            }
            6 | 7 => body += "cut\n",
            8 => body += &format!("and r1.x, vPrim, l({})\nretc_nz r1.x\n", 1 << rng.below(3)),
            _ => body += &format!("ieq r1.x, vGSInstanceID.x, l({})\nretc_nz r1.x\n", rng.below(3)),
        }
    }
    let text = format!(
        "{}{}gs_5_0\ndcl_input v[1][0].x\ndcl_input vPrim\ndcl_input vGSInstanceID\ndcl_temps 2\ndcl_inputprimitive point\n\
         dcl_outputtopology {topo}\ndcl_output o0.xy\ndcl_maxout {maxout}\ndcl_gsinstances {instances}\n{body}ret\n",
        signature("Input signature", &[("TEXCOORD", 0, "x", 0, "NONE", "uint")]),
        signature("Output signature", &[("TEXCOORD", 0, "xy", 0, "NONE", "uint")]),
    );
    (text, topo, maxout, instances)
}

#[test]
fn review_random_gs_matches_model() {
    let mut rng = corpus::Rng(0x9e37_79b9_7f4a_7c15);
    let vs = ids_vs();
    let data = value_data(16);
    for case in 0..300 {
        let (text, topo, maxout, instances) = random_gs(&mut rng);
        let gs = plan(&text);
        let points = rng.below(9) as u32;
        let r = Setup::new(exec::pipeline::Topology::PointList, Some(&vs), Some(&gs))
            .layout(value_layout())
            .buffer(0, &data, 16, 0)
            .draw(draw(points))
            .unwrap_or_else(|e| panic!("case {case}: {e}\n{text}"));
        // The model: each invocation alone, in primitive then instance order.
        let mut want = Vec::new();
        let mut m = Machine::new(&gs);
        for p in 0..points {
            for i in 0..instances {
                let mut rec = Rec::default();
                let inputs = [[100 + p, 0, 0, 0]];
                m.run_geometry(
                    &gs,
                    &inputs,
                    GsSystemValues { primitive_id: p, gs_instance_id: i },
                    &mut Resources::default(),
                    &mut rec,
                )
                .unwrap();
                model(topo, &rec.0, maxout, &mut want);
            }
        }
        let got = r.streams.iter().find(|s| s.stream == 0).map(|s| component(s, 0, 0)).unwrap_or_default();
        assert_eq!(got, want, "case {case}: {points} points\n{text}");
        if let Some(s) = r.streams.iter().find(|s| s.stream == 0) {
            let list = match topo {
                "pointlist" => PrimitiveTopology::PointList,
                "linestrip" => PrimitiveTopology::LineList,
                _ => PrimitiveTopology::TriangleList,
            };
            assert_eq!(s.topology, list);
            // o0.y is the input vertex's VALUE, 100 + vPrim.
            for p in &s.primitives {
                for v in p {
                    assert_eq!(v.registers[0][1], 100 + v.registers[0][0] / 4096, "case {case}");
                }
            }
        }
        let st = r.statistics;
        assert_eq!(st.ia_primitives, points as u64);
        assert_eq!(st.gs_invocations, (points * instances) as u64, "case {case}");
        assert_eq!(st.gs_primitives, want.len() as u64, "case {case}");
        assert_eq!(st.c_primitives, want.len() as u64, "case {case}");
    }
}
