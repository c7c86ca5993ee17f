//! A pass over SPIR-V words that decorates every float arithmetic result
//! `NoContraction`, so that a Vulkan driver evaluates each `OpFMul`, `OpFAdd`... as
//! written: it may neither fuse a multiply and an add into one rounding (an FMA) nor
//! reassociate a sum.
//!
//! Why: the translation writes each instruction's arithmetic in the order the reference
//! interpreter uses (`mad` a multiply then an add, `dp#` left to right). naga's SPIR-V
//! writer never marks an operation `NoContraction` (WGSL has no way to ask for it), and
//! drivers then contract freely (Mesa's NIR treats every operation not marked exact as
//! free to fuse and reorder). Direct3D does allow a device to fuse or reorder *within*
//! `mad` and `dp#` (D3D11.3 functional spec, 3.1.3.2 "Complete Listing of Deviations or
//! Additional Requirements vs. IEEE-754": a fused operation must be no less accurate than
//! the worst serial ordering of its unfused expansion), and *across* instructions only
//! when the program declares `refactoringAllowed` (22.3.2 "Global Flags Declaration
//! Statement"); the strict order is one of the results Direct3D allows in every case,
//! and the only one the translation can be checked against bit for bit.
//!
//! The pass adds one `OpDecorate %id NoContraction` per result, at the end of the
//! annotation section (before the first type declaration); ids already so decorated are
//! left alone, so the pass can run twice. No id is created: the header's bound stays.

/// `OpDecorate`.
const OP_DECORATE: u32 = 71;
/// The `NoContraction` decoration.
const NO_CONTRACTION: u32 = 42;
/// The SPIR-V magic number (first word).
pub(crate) const MAGIC: u32 = 0x0723_0203;
/// Words in the module header.
pub(crate) const HEADER: usize = 5;

/// The float arithmetic opcodes whose result may be contracted: `OpFNegate`,
/// `OpFAdd`, `OpFSub`, `OpFMul`, `OpFDiv`, `OpFRem`, `OpFMod`, `OpVectorTimesScalar`,
/// `OpMatrixTimesScalar`, `OpVectorTimesMatrix`, `OpMatrixTimesVector`,
/// `OpMatrixTimesMatrix`, `OpOuterProduct`, `OpDot` (each `result type, result id,
/// operands...`).
const FLOAT_ARITHMETIC: [u32; 14] = [127, 129, 131, 133, 136, 140, 141, 142, 143, 144, 145, 146, 147, 148];

/// The opcodes of the sections before the types (capabilities, extensions, imports,
/// memory model, entry points, execution modes, debug names and sources, annotations).
pub(crate) const PREAMBLE: [u32; 24] = [
    17, 10, 11, 14, 15, 16, 331, // OpCapability ... OpExecutionModeId
    7, 3, 2, 4, 5, 6,
    330, // OpString, OpSource, OpSourceContinued, OpSourceExtension, OpName, OpMemberName, OpModuleProcessed
    71, 72, 73, 74, 75, 332, 5632, 5633, // OpDecorate ... OpMemberDecorateString
    8, 317, // OpLine, OpNoLine
];

/// Why the words are not a module the pass can read (the word index at fault).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SpirvError {
    /// Fewer than the five header words, or a first word that is not the magic number.
    #[error("not a SPIR-V module (no header)")]
    Header,
    /// An instruction whose word count is 0 or runs past the end.
    #[error("word {word}: instruction length {count} runs past the end ({len} words)")]
    Length {
        /// The instruction's first word.
        word: usize,
        /// Its word count.
        count: usize,
        /// The module's length in words.
        len: usize,
    },
    /// A float arithmetic instruction without a result id.
    #[error("word {word}: opcode {opcode} has no result id")]
    Operands {
        /// The instruction's first word.
        word: usize,
        /// Its opcode.
        opcode: u32,
    },
}

/// An instruction: its first word's index, its opcode, its words.
pub(crate) type Inst<'w> = (usize, u32, &'w [u32]);

/// Each instruction of `words` after the header.
pub(crate) fn instructions(words: &[u32]) -> Result<Vec<Inst<'_>>, SpirvError> {
    if words.first() != Some(&MAGIC) || words.len() < HEADER {
        return Err(SpirvError::Header);
    }
    let mut out = Vec::new();
    let mut at = HEADER;
    while let Some(&first) = words.get(at) {
        let count = (first >> 16) as usize;
        let end = at.checked_add(count).filter(|&e| count > 0 && e <= words.len());
        let Some(inst) = end.and_then(|e| words.get(at..e)) else {
            return Err(SpirvError::Length { word: at, count, len: words.len() });
        };
        out.push((at, first & 0xffff, inst));
        at = at.saturating_add(count);
    }
    Ok(out)
}

/// Decorates every float arithmetic result of the module `words` `NoContraction`;
/// the number of decorations added.
pub fn forbid_contraction(words: &mut Vec<u32>) -> Result<usize, SpirvError> {
    let insts = instructions(words)?;
    let mut decorated = std::collections::BTreeSet::new();
    let mut targets = Vec::new();
    let mut insert_at = words.len();
    let mut in_preamble = true;
    for &(at, opcode, inst) in &insts {
        if in_preamble && !PREAMBLE.contains(&opcode) {
            in_preamble = false;
            insert_at = at;
        }
        if opcode == OP_DECORATE && inst.get(2) == Some(&NO_CONTRACTION) {
            if let Some(&id) = inst.get(1) {
                decorated.insert(id);
            }
        }
        if FLOAT_ARITHMETIC.contains(&opcode) {
            let id = *inst.get(2).ok_or(SpirvError::Operands { word: at, opcode })?;
            targets.push(id);
        }
    }
    let mut added = Vec::new();
    for id in targets {
        if decorated.insert(id) {
            added.extend_from_slice(&[(3 << 16) | OP_DECORATE, id, NO_CONTRACTION]);
        }
    }
    let n = added.len() / 3;
    words.splice(insert_at..insert_at, added);
    Ok(n)
}

#[cfg(test)]
#[allow(clippy::indexing_slicing, clippy::arithmetic_side_effects)]
mod tests {
    use super::*;

    fn op(opcode: u32, operands: &[u32]) -> Vec<u32> {
        let mut v = vec![((operands.len() as u32 + 1) << 16) | opcode];
        v.extend_from_slice(operands);
        v
    }

    /// A header, a capability, a name, a decoration, a float type, then a function with
    /// an `OpFMul` (%10) and an `OpFAdd` (%11) and an `OpIAdd` (%12).
    fn module() -> Vec<u32> {
        let mut w = vec![MAGIC, 0x0001_0000, 0, 20, 0];
        w.extend(op(17, &[1])); // OpCapability Shader
        w.extend(op(5, &[3, 0x0061])); // OpName %3 "a"
        w.extend(op(71, &[3, 30, 0])); // OpDecorate %3 Location 0
        w.extend(op(22, &[2, 32])); // OpTypeFloat %2 32
        w.extend(op(133, &[2, 10, 4, 5])); // OpFMul
        w.extend(op(129, &[2, 11, 10, 6])); // OpFAdd
        w.extend(op(128, &[7, 12, 8, 9])); // OpIAdd
        w
    }

    fn decorations(w: &[u32]) -> Vec<(usize, u32)> {
        instructions(w)
            .unwrap()
            .into_iter()
            .filter(|(_, o, i)| *o == OP_DECORATE && i[2] == NO_CONTRACTION)
            .map(|(at, _, i)| (at, i[1]))
            .collect()
    }

    #[test]
    fn float_results_are_decorated_after_the_annotations() {
        let mut w = module();
        assert_eq!(forbid_contraction(&mut w), Ok(2));
        // Header 5, capability 2, name 3, decoration 4: the new ones at 14 and 17,
        // before OpTypeFloat; the integer add is left alone.
        assert_eq!(decorations(&w), vec![(14, 10), (17, 11)]);
        assert_eq!(w[20] & 0xffff, 22);
        assert_eq!(w[3], 20, "the bound is unchanged");
        assert_eq!(instructions(&w).unwrap().len(), 9);
    }

    #[test]
    fn the_pass_is_idempotent() {
        let mut w = module();
        forbid_contraction(&mut w).unwrap();
        let once = w.clone();
        assert_eq!(forbid_contraction(&mut w), Ok(0));
        assert_eq!(w, once);
    }

    #[test]
    fn a_module_without_arithmetic_is_unchanged() {
        let mut w = vec![MAGIC, 0x0001_0000, 0, 1, 0];
        w.extend(op(17, &[1]));
        let before = w.clone();
        assert_eq!(forbid_contraction(&mut w), Ok(0));
        assert_eq!(w, before);
    }

    #[test]
    fn malformed_words_are_errors_with_their_position() {
        assert_eq!(forbid_contraction(&mut vec![]), Err(SpirvError::Header));
        assert_eq!(forbid_contraction(&mut vec![0x1234_5678, 0, 0, 0, 0]), Err(SpirvError::Header));
        assert_eq!(forbid_contraction(&mut vec![MAGIC, 0, 0]), Err(SpirvError::Header));
        let mut w = module();
        w.push(5 << 16 | 129); // OpFAdd claiming 5 words, 1 present
        let len = w.len();
        assert_eq!(forbid_contraction(&mut w), Err(SpirvError::Length { word: len - 1, count: 5, len }));
        let mut w = module();
        w.push(17); // word count 0
        let len = w.len();
        assert_eq!(forbid_contraction(&mut w), Err(SpirvError::Length { word: len - 1, count: 0, len }));
        let mut w = module();
        w.extend(op(129, &[2])); // OpFAdd without a result id
        assert_eq!(forbid_contraction(&mut w), Err(SpirvError::Operands { word: len - 1, opcode: 129 }));
    }

    #[test]
    fn naga_output_gets_one_decoration_per_float_operation() {
        let src = "@compute @workgroup_size(1) fn main() { var a: f32 = 2.0; var b: f32 = 3.0; \
                   let c = a * b + a; let d = -c / b; a = d; b = dot(vec2(a, b), vec2(b, a)); }";
        let m = naga::front::wgsl::parse_str(src).unwrap();
        let bytes = crate::write(&m, crate::Target::Spirv).unwrap();
        let w: Vec<u32> = bytes.chunks_exact(4).map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]])).collect();
        let insts = instructions(&w).unwrap();
        let float_ops: Vec<_> = insts.iter().filter(|(_, o, _)| FLOAT_ARITHMETIC.contains(o)).collect();
        // OpFNegate, OpFAdd, OpFMul, OpFDiv, OpDot: the source's five float operations.
        let mut opcodes: Vec<u32> = float_ops.iter().map(|(_, o, _)| *o).collect();
        opcodes.sort_unstable();
        assert_eq!(opcodes, [127, 129, 133, 136, 148]);
        let arithmetic: Vec<u32> = float_ops.iter().map(|(_, _, i)| i[2]).collect();
        let decorated: Vec<u32> = decorations(&w).into_iter().map(|(_, id)| id).collect();
        assert_eq!(decorated, arithmetic, "write decorates every float operation, once");
    }
}
