//! `docs/INSTRUCTIONS.md`'s section for this family is the instruction table, generated
//! by `tpf::table::markdown`: a row added, removed or changed in the table and not in the
//! page (or the reverse) fails. `DXREF_BLESS=1` rewrites the section.

#[test]
fn instruction_reference_matches_the_table() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/INSTRUCTIONS.md");
    let page = std::fs::read_to_string(&path).expect("docs/INSTRUCTIONS.md");
    let (begin, end) = ("<!-- tpf-table:begin -->\n", "<!-- tpf-table:end -->");
    let start = page.find(begin).expect("begin marker") + begin.len();
    let stop = page.find(end).expect("end marker");
    assert!(start <= stop, "markers out of order");
    let generated = tpf::table::markdown();
    assert_eq!(generated.lines().count(), tpf::table::TABLE.len() + 2, "a header, a rule and one row per opcode");
    if std::env::var_os("DXREF_BLESS").is_some() {
        let updated = format!("{}{}{}", &page[..start], generated, &page[stop..]);
        std::fs::write(&path, updated).expect("write docs/INSTRUCTIONS.md");
        return;
    }
    let current = &page[start..stop];
    for (i, (a, b)) in current.lines().zip(generated.lines()).enumerate() {
        assert_eq!(
            a,
            b,
            "docs/INSTRUCTIONS.md tpf row {} differs from the table (DXREF_BLESS=1 regenerates it)",
            i + 1
        );
    }
    assert_eq!(
        current, generated,
        "docs/INSTRUCTIONS.md tpf section differs from the table (DXREF_BLESS=1 regenerates it)"
    );
}
