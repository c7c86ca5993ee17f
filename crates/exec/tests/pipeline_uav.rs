//! UAVs shared by the graphics stages (D3D11.1: one set for every graphics stage,
//! bound in `vs_resources.uavs`): a vertex and a geometry shader counting on the same
//! UAV word in one draw, in the order the pipeline runs them.

mod common_pipeline;
use common_pipeline::*;
use exec::pipeline::Topology;
use exec::resources::Uav;
use exec::Plan;

/// `TEXCOORD0` = (VALUE.x, the old counter after adding 1), the counter at u0 byte 0.
fn counting_vs() -> Plan {
    plan(&format!(
        "{}{}vs_5_0\ndcl_globalFlags refactoringAllowed\ndcl_uav_raw u0\ndcl_input v0.x\ndcl_output o0.xy\n\
         mov o0.x, v0.x\nimm_atomic_iadd o0.y, u0, l(0), l(1)\nret\n",
        signature("Input signature", &[("VALUE", 0, "x", 0, "NONE", "uint")]),
        signature("Output signature", &[("TEXCOORD", 0, "xy", 0, "NONE", "uint")]),
    ))
}

/// Emits (VALUE, the VS's old counter, its own old counter after adding 10) per point.
fn counting_gs() -> Plan {
    plan(&format!(
        "{}{}gs_5_0\ndcl_globalFlags refactoringAllowed\ndcl_uav_raw u0\ndcl_input v[1][0].xy\ndcl_temps 1\n\
         dcl_inputprimitive point\ndcl_outputtopology pointlist\ndcl_output o0.xyz\ndcl_maxout 1\n\
         imm_atomic_iadd r0.x, u0, l(0), l(10)\nmov o0.xy, v[0][0].xyxx\nmov o0.z, r0.x\nemit\nret\n",
        signature("Input signature", &[("TEXCOORD", 0, "xy", 0, "NONE", "uint")]),
        signature("Output signature", &[("TEXCOORD", 0, "xyz", 0, "NONE", "uint")]),
    ))
}

#[test]
fn vs_and_gs_share_one_uav() {
    let (vs, gs) = (counting_vs(), counting_gs());
    let data = value_data(3);
    let mut counter = u32_bytes(&[1000, 0]);
    let points = {
        let mut s =
            Setup::new(Topology::PointList, Some(&vs), Some(&gs)).layout(value_layout()).buffer(0, &data, 16, 0);
        s.vs_resources.uavs = vec![Some(Uav::Raw { data: &mut counter })];
        let r = s.draw(draw(3)).unwrap();
        register(stream(&r, 0), 0)
    };
    // Each vertex runs through the VS, then its point through the GS: VS +1, GS +10.
    assert_eq!(points, vec![vec![[100, 1000, 1001, 0]], vec![[101, 1011, 1012, 0]], vec![[102, 1022, 1023, 0]]]);
    assert_eq!(words(&counter), vec![1033, 0]);
}

#[test]
fn the_gs_sees_the_graphics_uavs_without_a_vs_and_gs_bindings_are_refused() {
    let gs = plan(&format!(
        "{}{}gs_5_0\ndcl_globalFlags refactoringAllowed\ndcl_uav_raw u0\ndcl_input v[1][0].x\ndcl_temps 1\n\
         dcl_inputprimitive point\ndcl_outputtopology pointlist\ndcl_output o0.x\ndcl_maxout 1\n\
         imm_atomic_iadd r0.x, u0, l(4), v[0][0].x\nmov o0.x, r0.x\nemit\nret\n",
        signature("Input signature", &[("VALUE", 0, "x", 0, "NONE", "uint")]),
        signature("Output signature", &[("TEXCOORD", 0, "x", 0, "NONE", "uint")]),
    ));
    let data = value_data(2);
    let mut memory = u32_bytes(&[0, 5]);
    let points = {
        let mut s = Setup::new(Topology::PointList, None, Some(&gs)).layout(value_layout()).buffer(0, &data, 16, 0);
        s.vs_resources.uavs = vec![Some(Uav::Raw { data: &mut memory })];
        let r = s.draw(draw(2)).unwrap();
        component(stream(&r, 0), 0, 0)
    };
    assert_eq!(points, vec![vec![5], vec![105]]);
    assert_eq!(words(&memory), vec![0, 5 + 100 + 101]);

    let mut other = vec![0u8; 8];
    let mut s = Setup::new(Topology::PointList, None, Some(&gs)).layout(value_layout()).buffer(0, &data, 16, 0);
    s.gs_resources.uavs = vec![Some(Uav::Raw { data: &mut other })];
    let e = s.draw(draw(2)).unwrap_err();
    assert!(e.to_string().contains("vs_resources.uavs"), "{e}");
}
