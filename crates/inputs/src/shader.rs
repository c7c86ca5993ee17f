#![deny(clippy::arithmetic_side_effects, clippy::indexing_slicing)]
//! What a shader input file holds, and how to get the shader out of it.
//!
//! - a DXBC container (`.cso`, `.dxbc`, fxc `/Fo` output of a Shader Model 4/5 or Level9
//!   target);
//! - a raw Shader Model 1–3 token stream (`.vso`, `.pso`, fxc `/Fo` output of a
//!   `vs_*`/`ps_*` 1.x–3.x target): version token first, `0x0000ffff` last;
//! - an effect (`.fxo`, fxc `/T fx_2_0`, `fx_4_0`, `fx_4_1`, `fx_5_0`) holding exactly one
//!   shader: the embedded d3dbc stream or DXBC container is taken out of it;
//! - fxc `/Fh` C headers are read elsewhere (`listing::fxh`).
//!
//! Every function here takes any bytes: none panics, and each looks at a byte at most a
//! bounded number of times per candidate offset.

use std::ops::Range;

use thiserror::Error;

/// The family of a shader blob.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Family {
    /// A DXBC container: Shader Model 4 and 5, and the `*_4_0_level_9_x` targets.
    Dxbc,
    /// A raw Shader Model 1–3 token stream (`vs_1_1` … `ps_3_0`).
    D3dbc,
}

/// The family of `bytes`, from its first bytes; `None` when it is neither.
pub fn family(bytes: &[u8]) -> Option<Family> {
    if bytes.starts_with(b"DXBC") {
        return Some(Family::Dxbc);
    }
    let token = u32::from_le_bytes(bytes.get(..4)?.try_into().ok()?);
    d3dbc::Version::from_token(token).map(|_| Family::D3dbc)
}

/// True when `bytes` starts with an effect's version token (`fx_2_0`: 0xfeff0901;
/// `fx_4_0`/`fx_4_1`/`fx_5_0`: 0xfeff1001/0xfeff1011/0xfeff2001).
pub fn is_effect(bytes: &[u8]) -> bool {
    bytes.get(2..4) == Some(&[0xff, 0xfe][..])
}

/// Where a shader lies in an effect.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Embedded {
    /// A container or a raw Shader Model 1–3 stream.
    pub family: Family,
    /// Its bytes in the effect file: a container's total size, or a stream through
    /// its end token.
    pub range: Range<usize>,
}

/// Every shader embedded in an effect, in file order: DXBC containers (whose size field
/// is inside the file) and Shader Model 1–3 streams (a version token at a token-aligned
/// offset from which the whole stream decodes up to its end token).
///
/// The scan is linear in the file's size: a stream that fails to decode marks the
/// item positions it walked through as dead for its version, and a later candidate
/// whose walk reaches one stops there (from a given position, decoding depends only on
/// the version token), so a file of version tokens each followed by a comment that
/// skips the next costs one walk, not one per candidate.
pub fn embedded_shaders(bytes: &[u8]) -> Vec<Embedded> {
    embedded_shaders_scan(bytes).0
}

/// [`embedded_shaders`] and the number of stream items it decoded.
fn embedded_shaders_scan(bytes: &[u8]) -> (Vec<Embedded>, usize) {
    let mut found = Vec::new();
    let mut scan = Scan::default();
    let mut at: usize = 4;
    while at.checked_add(8).is_some_and(|end| end <= bytes.len()) {
        match shader_at(bytes, at, &mut scan) {
            Some(e) => {
                at = e.range.end.next_multiple_of(4);
                found.push(e);
            }
            None => at = at.saturating_add(4),
        }
    }
    (found, scan.items)
}

/// What a scan has learnt: per version token, the token positions (absolute, in
/// tokens) from which decoding is known to fail; and the items decoded so far.
#[derive(Default)]
struct Scan {
    dead: std::collections::HashMap<u32, Vec<u64>>,
    items: usize,
}

impl Scan {
    fn is_dead(&self, version: u32, token: usize) -> bool {
        self.dead
            .get(&version)
            .and_then(|bits| bits.get(token / 64))
            .is_some_and(|word| word & (1u64 << (token % 64)) != 0)
    }

    fn mark_dead(&mut self, version: u32, tokens: &[usize]) {
        let bits = self.dead.entry(version).or_default();
        for &t in tokens {
            let (word, bit) = (t / 64, t % 64);
            if bits.len() <= word {
                bits.resize(word.saturating_add(1), 0);
            }
            if let Some(w) = bits.get_mut(word) {
                *w |= 1u64 << bit;
            }
        }
    }
}

/// [`d3dbc_end`] for the stream at byte `at` of `bytes` (token-aligned), using and
/// extending what `scan` knows about failing positions.
fn scanned_d3dbc_end(bytes: &[u8], at: usize, scan: &mut Scan) -> Option<usize> {
    let rest = bytes.get(at..)?;
    let whole = rest.get(..rest.len().saturating_sub(rest.len().checked_rem(4)?))?;
    let version = u32::from_le_bytes(whole.get(..4)?.try_into().ok()?);
    let first = at / 4;
    let mut decoder = d3dbc::Decoder::new(whole).ok()?;
    let mut ins = d3dbc::Instruction::new(d3dbc::Opcode::Nop);
    let mut walked = vec![first];
    let fail = |scan: &mut Scan, walked: &[usize]| {
        scan.mark_dead(version, walked);
        None
    };
    while let Some(step) = decoder.next_into(&mut ins) {
        scan.items = scan.items.saturating_add(1);
        let t = match step {
            Ok(d3dbc::decode::Step::Instruction(t) | d3dbc::decode::Step::Comment(t, _)) => t,
            // The end token was read and more bytes follow: the stream ends there.
            Err(e) => {
                return match e.kind {
                    d3dbc::DecodeErrorKind::TrailingData(_) => e.token.checked_mul(4),
                    _ => fail(scan, &walked),
                };
            }
        };
        let abs = first.saturating_add(t);
        if scan.is_dead(version, abs) {
            return fail(scan, &walked);
        }
        walked.push(abs);
    }
    match decoder.end_offset() {
        Some(end) => Some(end),
        None => fail(scan, &walked),
    }
}

fn shader_at(bytes: &[u8], at: usize, scan: &mut Scan) -> Option<Embedded> {
    let rest = bytes.get(at..)?;
    if rest.starts_with(b"DXBC") {
        let size = usize::try_from(u32::from_le_bytes(rest.get(24..28)?.try_into().ok()?)).ok()?;
        let container = rest.get(..size)?;
        if size < 32 || dxbc::Container::parse(container).is_err() {
            return None;
        }
        return Some(Embedded { family: Family::Dxbc, range: at..at.checked_add(size)? });
    }
    let token = u32::from_le_bytes(rest.get(..4)?.try_into().ok()?);
    d3dbc::Version::from_token(token)?;
    let end = scanned_d3dbc_end(bytes, at, scan)?;
    // A stream of a version token and the end token alone is not a shader.
    if end > 8 {
        Some(Embedded { family: Family::D3dbc, range: at..at.checked_add(end)? })
    } else {
        None
    }
}

/// Byte length of the Shader Model 1–3 stream at the start of `bytes` (through its end
/// token), if one decodes there; bytes after the end token are allowed.
pub fn d3dbc_end(bytes: &[u8]) -> Option<usize> {
    scanned_d3dbc_end(bytes, 0, &mut Scan::default())
}

/// Why an effect does not hold exactly one shader.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum EffectError {
    /// No embedded DXBC container or Shader Model 1–3 stream was found.
    #[error("an effect file with no shader dxref can find")]
    NoShader,
    /// More than one; the byte offset of each, in file order.
    #[error(
        "an effect file with {} shaders (at byte offsets {}); dxref reads effects holding one shader",
        .offsets.len(),
        .offsets.iter().map(usize::to_string).collect::<Vec<_>>().join(", ")
    )]
    Several {
        /// Each shader's first byte in the file, in file order.
        offsets: Vec<usize>,
    },
}

/// The one shader of an effect, or why there is not exactly one.
pub fn single_shader(bytes: &[u8]) -> Result<Embedded, EffectError> {
    let shaders = embedded_shaders(bytes);
    match shaders.as_slice() {
        [one] => Ok(one.clone()),
        [] => Err(EffectError::NoShader),
        many => Err(EffectError::Several { offsets: many.iter().map(|e| e.range.start).collect() }),
    }
}

#[cfg(test)]
#[allow(clippy::indexing_slicing, clippy::arithmetic_side_effects)]
mod tests {
    use super::*;

    fn tokens(ts: &[u32]) -> Vec<u8> {
        ts.iter().flat_map(|t| t.to_le_bytes()).collect()
    }

    // ps_2_0: mov oC0, c0; end.
    const PS: [u32; 5] = [0xffff_0200, 0x0200_0001, 0x800f_0800, 0xa0e4_0000, 0x0000_ffff];

    #[test]
    fn families() {
        assert_eq!(family(&tokens(&PS)), Some(Family::D3dbc));
        assert_eq!(family(b"DXBC\0\0\0\0"), Some(Family::Dxbc));
        assert_eq!(family(b"// hello"), None);
        assert_eq!(family(&[1, 2]), None);
    }

    #[test]
    fn an_effect_with_one_stream() {
        let mut fx = tokens(&[0xfeff_0901, 7, 8]);
        fx.extend(tokens(&PS));
        fx.extend(tokens(&[9, 10]));
        assert!(is_effect(&fx));
        let one = single_shader(&fx).unwrap();
        assert_eq!(one, Embedded { family: Family::D3dbc, range: 12..32 });
        assert_eq!(d3dbc_end(&fx[12..]), Some(20));
    }

    #[test]
    fn effects_with_none_or_two() {
        let empty = tokens(&[0xfeff_0901, 1, 2, 3]);
        assert_eq!(single_shader(&empty), Err(EffectError::NoShader));
        assert!(single_shader(&empty).unwrap_err().to_string().contains("no shader"));
        let mut two = tokens(&[0xfeff_0901]);
        two.extend(tokens(&PS));
        two.extend(tokens(&PS));
        let e = single_shader(&two).unwrap_err();
        assert_eq!(e, EffectError::Several { offsets: vec![4, 24] });
        let e = e.to_string();
        assert!(e.contains("2 shaders") && e.contains("4, 24"), "{e}");
    }

    #[test]
    fn the_scan_is_linear_in_comment_chains() {
        // Version tokens each followed by a one-token comment that hides the next
        // version token, and no end token: every candidate walks to the end of the
        // file unless failed walks are remembered.
        let n = 20_000;
        let mut fx = tokens(&[0xfeff_0901]);
        for _ in 0..n {
            fx.extend(tokens(&[0xfffe_0200, 0x0001_fffe]));
        }
        let (found, items) = embedded_shaders_scan(&fx);
        assert!(found.is_empty());
        // One walk through n comment items, and a few items per later candidate.
        assert!(items <= 4 * n, "{items} items decoded for {n} candidates");
        // The scan still finds a shader after such a chain.
        fx.extend(tokens(&PS));
        let (found, _) = embedded_shaders_scan(&fx);
        assert_eq!(found.len(), 1, "{found:?}");
        assert_eq!(found[0].range.end, fx.len());
    }

    #[test]
    fn truncated_streams_are_not_shaders() {
        let mut fx = tokens(&[0xfeff_0901]);
        fx.extend(tokens(&PS[..4]));
        assert!(embedded_shaders(&fx).is_empty());
    }
}
