//! Tessellation declarations (functional spec 11.7.15, 22.3.15-22.3.20).

mod common;
use common::*;
use validate::Code;

fn hs(decls: &str) -> String {
    format!("hs_5_0\nhs_decls \n{decls}hs_fork_phase \nret \n")
}

const ALL: &str = "dcl_input_control_point_count 3\ndcl_output_control_point_count 3\ndcl_tessellator_domain domain_tri\ndcl_tessellator_partitioning partitioning_integer\ndcl_tessellator_output_primitive output_triangle_cw\n";

#[test]
fn hull_shaders_declare_the_tessellator_state() {
    accepted(&hs(ALL), &fl11_1());
    for line in ALL.lines() {
        let without = ALL.replace(&format!("{line}\n"), "");
        let report = validate::validate(&asm(&hs(&without)), &fl11_1());
        assert_eq!(codes(&report), [Code::TessMissingDeclaration], "{line}");
        let name = line.split(' ').next().unwrap();
        assert!(report.diagnostics[0].message.contains(name), "{}", report.diagnostics[0].message);
    }
    // Domain shaders declare the domain.
    accepted("ds_5_0\ndcl_input_control_point_count 3\ndcl_tessellator_domain domain_tri\nret \n", &fl11_1());
    assert_eq!(check("ds_5_0\ndcl_input_control_point_count 3\nret \n", &fl11_1()), [Code::TessMissingDeclaration]);
}

#[test]
fn control_point_counts() {
    let with = |input: u32, output: u32| {
        hs(&ALL
            .replace("dcl_input_control_point_count 3", &format!("dcl_input_control_point_count {input}"))
            .replace("dcl_output_control_point_count 3", &format!("dcl_output_control_point_count {output}")))
    };
    accepted(&with(1, 0), &fl11_1());
    accepted(&with(32, 32), &fl11_1());
    assert_eq!(check(&with(0, 3), &fl11_1()), [Code::TessControlPointCount]);
    // 33 does not assemble: patch the count (opcode token bits 16:11).
    let count33 = |t: u32| (t & !(0x3f << 11)) | (33 << 11);
    let mut bytes = asm(&with(32, 3));
    patch_opcode_token(&mut bytes, 147, count33);
    assert_eq!(codes(&validate::validate(&bytes, &fl11_1())), [Code::TessControlPointCount]);
    let mut bytes = asm(&with(3, 32));
    patch_opcode_token(&mut bytes, 148, count33);
    assert_eq!(codes(&validate::validate(&bytes, &fl11_1())), [Code::TessControlPointCount]);
}

#[test]
fn max_tess_factor_range() {
    let with = |f: &str| hs(&format!("{ALL}dcl_hs_max_tessfactor l({f})\n"));
    accepted(&with("1.000000"), &fl11_1());
    accepted(&with("64.000000"), &fl11_1());
    assert_eq!(check(&with("0.500000"), &fl11_1()), [Code::TessMaxTessFactor]);
    assert_eq!(check(&with("64.500000"), &fl11_1()), [Code::TessMaxTessFactor]);
}

/// Points suit every domain; lines only isoline; triangles only tri and quad.
#[test]
fn output_primitive_suits_the_domain() {
    let with =
        |domain: &str, output: &str| hs(&ALL.replace("domain_tri", domain).replace("output_triangle_cw", output));
    for (domain, output, ok) in [
        ("domain_isoline", "output_point", true),
        ("domain_isoline", "output_line", true),
        ("domain_isoline", "output_triangle_cw", false),
        ("domain_tri", "output_line", false),
        ("domain_tri", "output_triangle_ccw", true),
        ("domain_quad", "output_triangle_cw", true),
        ("domain_quad", "output_line", false),
        ("domain_quad", "output_point", true),
    ] {
        let codes = check(&with(domain, output), &fl11_1());
        if ok {
            assert!(codes.is_empty(), "{domain} {output}: {codes:?}");
        } else {
            assert_eq!(codes, [Code::TessOutputPrimitive], "{domain} {output}");
        }
    }
}
