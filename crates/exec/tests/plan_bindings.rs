//! `Plan::bindings`: the slots a program declares and how, in declaration order, so
//! that a caller (a test harness, a fuzzer) can bind resources of the declared kinds.

use exec::{Binding, BindingKind, Plan};
use tpf::ResourceDimension as D;

fn plan(text: &str) -> Plan {
    let bytes = listing::asm::assemble(text, &listing::asm::AsmOptions::default())
        .unwrap_or_else(|e| panic!("{:?}", &e[..1]))
        .bytes;
    Plan::from_bytecode(&bytes).unwrap()
}

#[test]
fn every_kind_of_declaration_is_listed_with_its_slot() {
    let p = plan(
        "vs_5_0\n\
         dcl_globalFlags refactoringAllowed\n\
         dcl_constantbuffer CB3[4], immediateIndexed\n\
         dcl_sampler s2, mode_default\n\
         dcl_sampler s5, mode_comparison\n\
         dcl_resource_texture2d (float,float,float,float) t1\n\
         dcl_resource_texture2dms(4) (float,float,float,float) t6\n\
         dcl_resource_buffer (uint,uint,uint,uint) t7\n\
         dcl_resource_raw t8\n\
         dcl_resource_structured t9, 12\n\
         dcl_uav_typed_texture2d (float,float,float,float) u1\n\
         dcl_uav_raw u2\n\
         dcl_uav_structured u3, 20\n\
         dcl_output_siv o0.xyzw, position\n\
         mov o0.xyzw, l(0,0,0,0)\n\
         ret \n",
    );
    assert_eq!(
        p.bindings,
        [
            Binding { slot: 3, kind: BindingKind::ConstantBuffer { vectors: 4 } },
            Binding { slot: 2, kind: BindingKind::Sampler { comparison: false } },
            Binding { slot: 5, kind: BindingKind::Sampler { comparison: true } },
            Binding { slot: 1, kind: BindingKind::Texture { dimension: D::Texture2D, samples: 0 } },
            Binding { slot: 6, kind: BindingKind::Texture { dimension: D::Texture2DMS, samples: 4 } },
            Binding { slot: 7, kind: BindingKind::Texture { dimension: D::Buffer, samples: 0 } },
            Binding { slot: 8, kind: BindingKind::RawBuffer },
            Binding { slot: 9, kind: BindingKind::StructuredBuffer { stride: 12 } },
            Binding { slot: 1, kind: BindingKind::TypedUav { dimension: D::Texture2D } },
            Binding { slot: 2, kind: BindingKind::RawUav },
            Binding { slot: 3, kind: BindingKind::StructuredUav { stride: 20 } },
        ]
    );
}

#[test]
fn a_program_without_declared_slots_has_none() {
    let p = plan("vs_4_0\ndcl_output_siv o0.xyzw, position\nmov o0.xyzw, l(0,0,0,0)\nret \n");
    assert!(p.bindings.is_empty());
}
