//! The Level9 part of the corpus listings: the `DBUG` debug information of the Aon9
//! programs (typed parse, byte-exact re-encode, fxc's layout) and the Shader Model 2
//! program with its `#line` lines, annotations and slot line.

use d3dbc::dbug::DebugInfo;

/// The Aon9 program of every Level9 corpus blob, with the entry.
fn level9_programs(test: &str) -> Option<Vec<(corpus::Entry, Vec<u8>)>> {
    let entries = corpus::dxbc_entries(test)?;
    let mut out = Vec::new();
    for e in entries.into_iter().filter(|e| e.is_level9()) {
        let bytes = e.bytes();
        let c = dxbc::Container::parse(&bytes).unwrap_or_else(|err| panic!("{}: {err}", e.id()));
        let chunk = c.chunk(dxbc::FourCc(*b"Aon9")).expect("Aon9 chunk");
        let aon9 = dxbc::aon9::Aon9::parse(chunk.data).expect("Aon9");
        out.push((e, aon9.program.to_vec()));
    }
    Some(out)
}

#[test]
fn debug_info_round_trips() {
    let Some(programs) = level9_programs("debug_info_round_trips") else { return };
    let (mut n, mut fresh) = (0, 0);
    for (e, program) in &programs {
        let p = d3dbc::decode(program).unwrap();
        let Some(body) = p.comment_with(b"DBUG") else { continue };
        n += 1;
        let info = DebugInfo::parse_comment(body).unwrap_or_else(|err| panic!("{}: {err}", e.id()));
        assert_eq!(info.to_comment(), body, "{}", e.id());
        assert_eq!(info.instructions.len(), p.instructions().count(), "{}: one record per instruction", e.id());
        if info.raw_layout.is_none() {
            fresh += 1;
        } else if n - fresh <= 3 {
            let f = info.fresh_bytes();
            let i = f.iter().zip(&body[4..]).position(|(a, b)| a != b).unwrap_or(f.len().min(body.len() - 4));
            println!("{}: fxc layout differs at byte {i} (len {} vs {})", e.id(), f.len(), body.len() - 4);
        }
    }
    println!("DBUG blocks: {n}, all re-encoded byte for byte; {fresh}/{n} in fxc's layout from the typed fields");
    assert_eq!(n, 121);
    assert_eq!(fresh, n, "fxc's layout no longer reproduces every block");
}

const TITLE: &str = "// Level9 shader bytecode:\n//\n";

/// The text of the listing from after the `// Level9 shader bytecode:` and `//` lines
/// to the slot line, inclusive.
fn level9_text(listing: &str) -> &str {
    let start = listing.find(TITLE).expect("Level9 title") + TITLE.len();
    let rest = &listing[start..];
    let end = rest.find("\n// approximately ").expect("slot line") + 1;
    let end = end + rest[end..].find('\n').expect("end of slot line") + 1;
    &rest[..end]
}

#[test]
fn level9_programs_print_as_fxc() {
    let Some(programs) = level9_programs("level9_programs_print_as_fxc") else { return };
    let (mut n, mut exact) = (0, 0);
    let mut failures = Vec::new();
    for (e, program) in &programs {
        n += 1;
        let p = d3dbc::decode(program).unwrap();
        let got = d3dbc::print::level9_program(&p);
        let listing = e.listing();
        let want = level9_text(&listing);
        if got == want {
            exact += 1;
        } else {
            let (g, w): (Vec<&str>, Vec<&str>) = (got.lines().collect(), want.lines().collect());
            let i = (0..g.len().max(w.len())).find(|&i| g.get(i) != w.get(i)).unwrap_or(0);
            failures.push(format!("{} line {}: got {:?} want {:?}", e.id(), i + 1, g.get(i), w.get(i)));
        }
    }
    println!("Level9 programs: {exact}/{n} print as fxc's listing");
    for f in &failures {
        println!("FAIL {f}");
    }
    assert_eq!(n, 129);
    assert!(failures.is_empty(), "{} differ", failures.len());
}

/// Byte size of each instruction of a program (comments left out), in order.
fn instruction_sizes(program: &[u8]) -> Vec<u32> {
    let mut dec = d3dbc::Decoder::new(program).unwrap();
    let mut ins = d3dbc::Instruction::new(d3dbc::Opcode::Nop);
    let mut starts = Vec::new();
    let mut end = None;
    while let Some(step) = dec.next_into(&mut ins) {
        match step.unwrap() {
            d3dbc::decode::Step::Instruction(at) => starts.push(at),
            d3dbc::decode::Step::Comment(at, _) => {
                if end.is_none() && !starts.is_empty() {
                    end = Some(at);
                }
            }
        }
    }
    let total = program.len() / 4 - 1; // the end token
    let mut sizes: Vec<u32> = starts.windows(2).map(|w| (w[1] - w[0]) as u32 * 4).collect();
    if let Some(&last) = starts.last() {
        sizes.push((total - last) as u32 * 4);
    }
    sizes
}

/// Reads what a Level9 listing shows of the debug information: files, each
/// instruction's position (the last printed `#line`), annotations.
type Annotation<'t> = (u32, Option<&'t str>, &'t str, Vec<u16>);
type Position = Option<(u16, u16)>;
fn read_listing<'t>(text: &'t str, entry: &'t str) -> (Vec<&'t str>, Vec<Position>, Vec<Annotation<'t>>) {
    let (mut files, mut positions, mut annotations) = (Vec::new(), Vec::new(), Vec::new());
    let mut current: Option<(u16, u16)> = None;
    for line in text.lines().skip(1) {
        if line.is_empty() || line.starts_with("// approximately") {
            continue;
        }
        if let Some(rest) = line.strip_prefix("#line ") {
            let (n, file) = match rest.split_once(' ') {
                Some((n, f)) => (n, Some(f.trim_matches('"'))),
                None => (rest, None),
            };
            let n: u16 = n.parse().unwrap();
            let f = match file {
                Some(f) => match files.iter().position(|x| *x == f) {
                    Some(i) => i as u16,
                    None => {
                        files.push(f);
                        files.len() as u16 - 1
                    }
                },
                None => current.unwrap().1,
            };
            current = Some((n, f));
            continue;
        }
        let index = positions.len() as u32;
        // Declarations and definitions before the first `#line` have no position.
        positions.push(current);
        if let Some((_, ann)) = line.split_once("  // ") {
            for a in ann.split(">, ") {
                let a = a.trim_end_matches('>');
                let (name, comps) = a.split_once('<').unwrap();
                let comps = comps.split(',').map(|c| c.parse().unwrap()).collect();
                let (scope, name) = match name.rsplit_once("::") {
                    Some(("", n)) => (None, n),
                    Some((s, n)) => (Some(s), n),
                    None => (Some(entry), name),
                };
                annotations.push((index, scope, name, comps));
            }
        }
    }
    (files, positions, annotations)
}

/// `DebugInfo::build` from what each listing shows (the entry point's name, which the
/// listing does not show, is taken from the original block): the rebuilt block prints
/// the same Level9 program text; how much of the original block it reproduces is
/// checked entry by entry against `tests/expect/listing_level9_dbug.txt`.
#[test]
fn debug_info_rebuilt_from_listings() {
    let Some(programs) = level9_programs("debug_info_rebuilt_from_listings") else { return };
    let (mut n, mut same_text, mut same_positions, mut same_offsets, mut same_bytes) = (0, 0, 0, 0, 0);
    let mut outcomes = std::collections::BTreeMap::new();
    for (e, program) in &programs {
        let p = d3dbc::decode(program).unwrap();
        let Some(body) = p.comment_with(b"DBUG") else {
            outcomes.insert(e.id(), "no DBUG".to_string());
            continue;
        };
        n += 1;
        let original = DebugInfo::parse_comment(body).unwrap();
        let listing = e.listing();
        let text = level9_text(&listing);
        let entry = original.entry_point.as_deref().unwrap_or("");
        let (files, positions, annotations) = read_listing(text, entry);
        let sizes = instruction_sizes(program);
        assert_eq!(sizes.len(), positions.len(), "{}", e.id());
        let pos: Vec<_> = positions.into_iter().zip(sizes).collect();
        let built = DebugInfo::build(&original.creator, Some(entry), &files, &pos, &annotations);
        let mut printed = String::new();
        d3dbc::print::print_program_with_debug(&p, Some(&built), &mut printed);
        let mut differ = Vec::new();
        if text.starts_with(&printed) {
            same_text += 1;
        } else {
            let (g, w): (Vec<&str>, Vec<&str>) = (printed.lines().collect(), text.lines().collect());
            let i = (0..g.len()).find(|&i| g.get(i) != w.get(i)).unwrap_or(0);
            differ.push(format!("text at line {}", i + 1));
            if n - same_text <= 3 {
                println!("{} line {}: rebuilt {:?}, listing {:?}", e.id(), i + 1, g.get(i), w.get(i));
            }
        }
        let positions =
            built.instructions.iter().zip(&original.instructions).all(|(a, b)| (a.line, a.file) == (b.line, b.file));
        let offsets = built.instructions.iter().zip(&original.instructions).all(|(a, b)| a.offset == b.offset);
        let bytes = built.to_comment() == body;
        same_positions += positions as usize;
        same_offsets += offsets as usize;
        same_bytes += bytes as usize;
        for (ok, what) in [(positions, "line/file records"), (offsets, "offsets"), (bytes, "block bytes")] {
            if !ok {
                differ.push(what.to_string());
            }
        }
        let outcome = if differ.is_empty() { "exact".to_string() } else { format!("differs in {}", differ.join(", ")) };
        outcomes.insert(e.id(), outcome);
    }
    println!(
        "DBUG rebuilt from the listing: {same_text}/{n} print the same text; every line/file record equal in \
         {same_positions}/{n} (the listing omits jumps under three lines); offsets equal in {same_offsets}/{n}; \
         whole block equal in {same_bytes}/{n} (types are not in the listing)"
    );
    assert_eq!(n, 121);
    // Those whose text differs print a `#line N` less than three lines from the last
    // printed one: the hidden line of the instruction before it (which the listing does
    // not show) made the jump.
    corpus::expect::check(corpus::expect_file!("listing_level9_dbug.txt"), &outcomes);
}

/// Truncated and mutated `DBUG` blocks never panic; whatever parses re-encodes to its
/// input; printing a program with any parsed block never panics.
#[test]
fn broken_debug_info_never_panics() {
    let Some(programs) = level9_programs("broken_debug_info_never_panics") else { return };
    let mut rng = corpus::Rng(0x5eed_db09);
    let (mut parsed, mut refused) = (0, 0);
    for (_, program) in programs.iter().take(40) {
        let p = d3dbc::decode(program).unwrap();
        let Some(body) = p.comment_with(b"DBUG") else { continue };
        let mut check = |bytes: &[u8]| match DebugInfo::parse_comment(bytes) {
            Ok(info) => {
                parsed += 1;
                assert_eq!(info.to_comment(), bytes);
                let mut out = String::new();
                d3dbc::print::print_program_with_debug(&p, Some(&info), &mut out);
                let _ = info.type_info(0);
            }
            Err(_) => refused += 1,
        };
        for len in (0..body.len()).step_by(3) {
            check(&body[..len]);
        }
        for _ in 0..200 {
            let mut b = body.to_vec();
            for _ in 0..1 + rng.below(4) {
                let i = 4 + rng.below(b.len() - 4);
                b[i] = rng.next_u64() as u8;
            }
            check(&b);
        }
    }
    println!("mutated DBUG blocks: {parsed} parsed (and re-encoded exactly), {refused} refused");
    assert!(parsed > 0 && refused > 0);
}

/// What a reader gets from a `DBUG` block (`parse_comment_fields`, and the annotations
/// found through `annotations`) is what `parse_comment` and `annotation` give, for
/// the corpus blocks and mutated ones.
#[test]
fn debug_info_read_for_the_listing_is_the_parsed_one() {
    let Some(programs) = level9_programs("debug_info_read_for_the_listing_is_the_parsed_one") else { return };
    let mut rng = corpus::Rng(0xdb09_0f1e);
    let (mut parsed, mut annotated, mut refused) = (0, 0, 0);
    for (_, program) in &programs {
        let p = d3dbc::decode(program).unwrap();
        let Some(body) = p.comment_with(b"DBUG") else { continue };
        let mut check = |bytes: &[u8]| {
            let full = DebugInfo::parse_comment(bytes).map(|d| DebugInfo { raw_layout: None, ..d });
            let read = DebugInfo::parse_comment_fields(bytes);
            assert_eq!(read, full);
            let Ok(info) = read else {
                refused += 1;
                return;
            };
            parsed += 1;
            let mut index = info.annotations();
            let count = info.instructions.len() as u32;
            // In order (as a listing asks), then out of order: backwards, and repeated.
            let backwards = (0..count + 2).rev().flat_map(|i| [i, i]);
            for i in (0..count + 2).chain([u32::MAX, u32::MAX - 1]).chain(backwards) {
                let (mut want, mut got) = (String::new(), String::new());
                let wrote = info.annotation(i, &mut want);
                assert_eq!(index.write(i, &mut got), wrote);
                assert_eq!(got, want, "instruction {i}");
                annotated += wrote as usize;
            }
        };
        check(body);
        for _ in 0..40 {
            let mut b = body.to_vec();
            for _ in 0..1 + rng.below(4) {
                let i = 4 + rng.below(b.len() - 4);
                b[i] = rng.next_u64() as u8;
            }
            check(&b);
        }
    }
    println!("DBUG blocks read: {parsed} ({annotated} annotations), {refused} refused");
    assert!(parsed > 0 && annotated > 0 && refused > 0);
}

/// `level9_stream` reads the debug block in the same pass as the program when it comes
/// first (as fxc writes it); moved after the first instruction, it is still found and
/// the listing (without byte offsets) is the same.
#[test]
fn level9_stream_finds_a_debug_block_after_the_first_instruction() {
    let Some(programs) = level9_programs("level9_stream_finds_a_debug_block_after_the_first_instruction") else {
        return;
    };
    let format = d3dbc::print::Format::default();
    let mut moved = 0;
    for (e, program) in &programs {
        let want = d3dbc::print::level9_stream(program, format).unwrap();
        // Token positions of the first two items: the DBUG comment, the first instruction.
        let mut dec = d3dbc::Decoder::new(program).unwrap();
        let mut ins = d3dbc::Instruction::new(d3dbc::Opcode::Nop);
        let mut starts = Vec::new();
        let mut kinds = Vec::new();
        while let Some(step) = dec.next_into(&mut ins) {
            match step.unwrap() {
                d3dbc::decode::Step::Instruction(at) => {
                    starts.push(at);
                    kinds.push(None);
                }
                d3dbc::decode::Step::Comment(at, c) => {
                    starts.push(at);
                    kinds.push(c.fourcc());
                }
            }
            if starts.len() == 3 {
                break;
            }
        }
        if kinds.len() < 3 || kinds[0] != Some(*b"DBUG") || kinds[1].is_some() {
            continue;
        }
        let (comment, first) = (starts[0] * 4..starts[1] * 4, starts[1] * 4..starts[2] * 4);
        let mut swapped = program[..comment.start].to_vec();
        swapped.extend_from_slice(&program[first.clone()]);
        swapped.extend_from_slice(&program[comment]);
        swapped.extend_from_slice(&program[first.end..]);
        assert_eq!(swapped.len(), program.len());
        assert_eq!(d3dbc::print::level9_stream(&swapped, format).unwrap(), want, "{}", e.id());
        moved += 1;
    }
    println!("Level9 programs with the debug block moved after the first instruction: {moved}");
    assert_eq!(moved, 121);
}
