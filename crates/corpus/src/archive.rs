//! What both oracle archive formats share: length-prefixed strings and byte runs, a
//! cursor that names the byte offset of a truncation, and zstd unpacking.

pub(crate) const ZSTD_MAGIC: [u8; 4] = [0x28, 0xb5, 0x2f, 0xfd];

pub(crate) fn put(out: &mut Vec<u8>, b: &[u8]) {
    out.extend_from_slice(&(b.len() as u32).to_le_bytes());
    out.extend_from_slice(b);
}

pub(crate) struct Cursor<'a> {
    pub(crate) data: &'a [u8],
    pub(crate) at: usize,
}

impl<'a> Cursor<'a> {
    pub(crate) fn take(&mut self, n: usize) -> Result<&'a [u8], String> {
        let end = self.at.checked_add(n).filter(|&e| e <= self.data.len());
        let end = end.ok_or_else(|| format!("truncated at byte {} (wanted {n} more bytes)", self.at))?;
        let s = &self.data[self.at..end];
        self.at = end;
        Ok(s)
    }
    pub(crate) fn u32(&mut self) -> Result<u32, String> {
        let b = self.take(4)?;
        Ok(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    }
    pub(crate) fn bytes(&mut self) -> Result<&'a [u8], String> {
        let n = self.u32()? as usize;
        self.take(n)
    }
    pub(crate) fn string(&mut self) -> Result<String, String> {
        let at = self.at;
        let b = self.bytes()?;
        String::from_utf8(b.to_vec()).map_err(|e| format!("string at byte {at} is not UTF-8: {e}"))
    }
}

/// `data` unpacked when it is zstd-compressed, as it is otherwise.
pub(crate) fn unpack(data: &[u8]) -> Result<std::borrow::Cow<'_, [u8]>, String> {
    if !data.starts_with(&ZSTD_MAGIC) {
        return Ok(std::borrow::Cow::Borrowed(data));
    }
    use std::io::Read;
    let mut d = ruzstd::decoding::StreamingDecoder::new(data).map_err(|e| format!("zstd: {e}"))?;
    let mut v = Vec::new();
    d.read_to_end(&mut v).map_err(|e| format!("zstd: {e}"))?;
    Ok(std::borrow::Cow::Owned(v))
}

/// The rows of `dir/MANIFEST.tsv` (`file`, `records` columns), each archive read with
/// `read` and checked against its pinned record count; panics naming the file and row on
/// any fault, and when the manifest lists no archive.
pub(crate) fn pinned<R>(dir: &std::path::Path, read: impl Fn(&std::path::Path) -> Vec<R>) -> Vec<(String, Vec<R>)> {
    let manifest = dir.join("MANIFEST.tsv");
    let text = std::fs::read_to_string(&manifest).unwrap_or_else(|e| panic!("reading {}: {e}", manifest.display()));
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate().skip(1).filter(|(_, l)| !l.trim().is_empty()) {
        let f: Vec<&str> = line.split('\t').collect();
        let [file, count, ..] = f[..] else {
            panic!("{}:{}: expected `file<TAB>records`, found {line:?}", manifest.display(), i + 1)
        };
        let count: usize =
            count.parse().unwrap_or_else(|_| panic!("{}:{}: bad record count {count:?}", manifest.display(), i + 1));
        let records = read(&dir.join(file));
        assert_eq!(
            records.len(),
            count,
            "{}:{}: {file} holds {} records, the manifest pins {count}",
            manifest.display(),
            i + 1,
            records.len()
        );
        out.push((file.to_string(), records));
    }
    assert!(!out.is_empty(), "{}: lists no archive", manifest.display());
    out
}
