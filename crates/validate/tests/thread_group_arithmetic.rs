//! Compute thread-group sizes and thread-group shared memory at the extremes of their
//! 32-bit fields: the product of the three sizes and the sum of the shared-memory
//! declarations are computed without overflow, and the messages name the true numbers.

mod common;
use common::*;
use validate::{Code, Report};

fn report(text: &str) -> Report {
    validate::validate(&asm(text), &fl11_1())
}

#[test]
fn three_maximal_thread_group_sizes() {
    let r = report("cs_5_0\ndcl_thread_group 4294967295, 4294967295, 4294967295\nret \n");
    assert_eq!(codes(&r), [Code::ThreadGroupSize]);
    let message = &r.diagnostics[0].message;
    assert!(message.contains("4294967295x4294967295x4294967295"), "{message}");
    // The true product, 79228162458924105385300197375 (not a wrapped 64-bit number).
    assert!(message.contains("79228162458924105385300197375 threads"), "{message}");
    // Sizes each in range whose product is not.
    let r = report("cs_5_0\ndcl_thread_group 1024, 1024, 64\nret \n");
    assert_eq!(codes(&r), [Code::ThreadGroupSize]);
    assert!(r.diagnostics[0].message.contains("67108864 threads"), "{}", r.diagnostics[0].message);
}

#[test]
fn maximal_structured_shared_memory_declared_twice() {
    let r = report(
        "cs_5_0\ndcl_thread_group 1, 1, 1\ndcl_tgsm_structured g0, 4294967295, 4294967295\ndcl_tgsm_structured g1, 4294967295, 4294967295\nret \n",
    );
    assert_eq!(codes(&r), [Code::TgsmSize, Code::TgsmSize]);
    // (2^32 - 1)^2 = 18446744065119617025, then twice that.
    assert!(r.diagnostics[0].message.starts_with("18446744065119617025 bytes"), "{}", r.diagnostics[0].message);
    assert!(r.diagnostics[1].message.starts_with("36893488130239234050 bytes"), "{}", r.diagnostics[1].message);
}

#[test]
fn maximal_raw_shared_memory_declared_many_times() {
    let mut text = String::from("cs_5_0\ndcl_thread_group 1, 1, 1\n");
    for g in 0..3 {
        text.push_str(&format!("dcl_tgsm_raw g{g}, 4294967292\n"));
    }
    text.push_str("ret \n");
    let r = report(&text);
    assert_eq!(codes(&r), [Code::TgsmSize; 3]);
    assert!(r.diagnostics[2].message.starts_with("12884901876 bytes"), "{}", r.diagnostics[2].message);
}
