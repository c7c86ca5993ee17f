//! `docs/VALIDATION.md` lists every rule of `validate::RULES`, and nothing else.

#[test]
fn the_rule_table_in_the_docs_is_the_code_table() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/VALIDATION.md");
    let doc = std::fs::read_to_string(&path).unwrap();
    let rows: Vec<&str> = doc.lines().filter(|l| l.starts_with("| V")).collect();
    assert_eq!(rows.len(), validate::RULES.len(), "one row per rule");
    for (row, rule) in rows.iter().zip(validate::RULES) {
        let expected = format!("| {} | {} | {} |", rule.id, rule.title, rule.source);
        assert_eq!(
            *row, expected,
            "docs/VALIDATION.md is out of date: regenerate with `dxref validate --list-rules --json`"
        );
    }
}
