#!/usr/bin/env python3
"""Writes the seed corpora of the fuzz targets (fuzz/corpus/TARGET/) from the fxc
corpus (../shared/corpus, or $DXREF_CORPUS), and the dictionaries (fuzz/dict/) from
the instruction tables. See docs/FUZZING.md.

Each seed is laid out as its target reads input: targets that take option bytes first
(chunks, tpf_roundtrip, disassemble, validate, translate, spirv_no_contraction) get them prefixed.
"""
import hashlib
import os
import struct
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CORPUS = Path(os.environ.get("DXREF_CORPUS", ROOT.parent / "shared" / "corpus"))
OUT = ROOT / "fuzz" / "corpus"

# The order of the `chunks` target's codec table (fuzz/fuzz_targets/chunks.rs).
CHUNK_KINDS = [b"RDEF", b"ISGN", b"OSGN", b"PCSG", b"ISG1", b"OSG1", b"PSG1", b"OSG5", b"STAT", b"SFI0", b"IFCE", b"Aon9"]


def chunks(blob):
    """(fourcc, data) of each chunk of a DXBC container, [] if it is not one."""
    if len(blob) < 32 or blob[:4] != b"DXBC":
        return []
    count = struct.unpack_from("<I", blob, 28)[0]
    out = []
    for i in range(min(count, (len(blob) - 32) // 4)):
        off = struct.unpack_from("<I", blob, 32 + 4 * i)[0]
        if off + 8 > len(blob):
            continue
        fourcc = blob[off : off + 4]
        size = struct.unpack_from("<I", blob, off + 4)[0]
        out.append((fourcc, blob[off + 8 : off + 8 + size]))
    return out


def fh_header(name, blob, listing):
    rows = []
    for i in range(0, len(blob), 6):
        rows.append("    " + ", ".join(f"{b:3}" for b in blob[i : i + 6]))
    return f"#if 0\n{listing}#endif\n\nconst BYTE {name}[] =\n{{\n" + ",\n".join(rows) + "\n};\n"


def write(target, data):
    d = OUT / target
    d.mkdir(parents=True, exist_ok=True)
    (d / hashlib.sha1(data).hexdigest()).write_bytes(data)


def main():
    if not CORPUS.is_dir():
        sys.exit(f"no corpus at {CORPUS} (set DXREF_CORPUS)")
    bins = sorted(CORPUS.rglob("*.bin"))
    for path in bins:
        blob = path.read_bytes()
        asm = path.with_suffix(".asm")
        listing = asm.read_text(errors="replace") if asm.exists() else ""
        write("disassemble", b"\x00" + blob)
        write("inputs", b"\x00" + blob)
        write("validate", b"\x0e\x3f" + blob)
        write("fxh", fh_header("g_" + path.stem.replace("-", "_"), blob, listing).encode())
        if blob[:4] == b"DXBC":
            write("container", blob)
            write("translate", b"\x00" + blob)
            write("exec_draw", bytes(8) + blob)
            write("device", bytes(256) + blob)
            for fourcc, data in chunks(blob):
                if fourcc in CHUNK_KINDS:
                    write("chunks", bytes([CHUNK_KINDS.index(fourcc)]) + data)
                if fourcc in (b"SHDR", b"SHEX"):
                    write("tpf_roundtrip", b"\x00" + data)
                    write("translate", b"\x01" + data)
        else:
            write("d3dbc_roundtrip", blob)
        if listing:
            write("assemble", listing.encode())
    # The command line's other input readers (first byte: 1 vertices, 2 `--so` text,
    # 3 `--so-json`).
    write("inputs", b"\x01" + (ROOT / "examples" / "points.json").read_bytes())
    write("inputs", b"\x01SV_Position.x,SV_Position.y,SV_Position.z,SV_Position.w,COLOR.x,COLOR.y\n0,0,0,1,1,1\n0.5,0.5,0,1,nan,-inf\n")
    write("inputs", b"\x02s0:0:SV_Position.xyzw; $SKIP.xy; 1:TEXCOORD3.zw\x0016,32\x000")
    write("inputs", b"\x02s1:0:COLOR0.x; s2:1:$SKIP.x\x00\x00none")
    write("inputs", b'\x03{ "declaration": [ { "stream": 0, "semantic_name": "SV_Position", "semantic_index": 0, '
          b'"start_component": 0, "component_count": 4, "output_slot": 0 }, { "semantic_name": null, '
          b'"component_count": 2 } ], "strides": [24], "num_strides": 1, "rasterized_stream": 4294967295 }')
    write("inputs", b'\x07{ "declaration": [], "num_entries": 0, "output_stream_stride": 16 }')
    # `dxref translate --bindings` files (`translate::Bindings::parse`).
    write("bindings", b"# comment\ncb0 = 0:0\n  t3=1:7 # trailing\ns0 = 2:0\nu1 = 3:1\nuc1 = 3:65\n")
    write("bindings", b"cb4294967295 = 4294967295:4294967295\nt1 = 0:x\n")
    write("bindings", "t\u00e91 = 0:1\r\n\u00e9 = \u00e9:\u00e9\n".encode())
    # SM1-3 listings are rare in the corpus: the disassembly of each raw stream seeds
    # the assembler too, written by the listings beside them.
    print(f"{len(bins)} corpus files -> {OUT}")
    for t in sorted(p.name for p in OUT.iterdir()):
        print(f"  {t}: {len(list((OUT / t).iterdir()))} seeds")
    subprocess.run(
        ["cargo", "run", "--quiet", "--release", "--example", "dictionary", "--", str(ROOT / "fuzz" / "dict")],
        cwd=ROOT / "fuzz",
        check=True,
    )
    # The SPIR-V post-pass target starts from what `translate` writes for the corpus.
    subprocess.run(
        ["cargo", "run", "--quiet", "--release", "--example", "spirv_seeds", "--", str(OUT / "translate"),
         str(OUT / "spirv_no_contraction")],
        cwd=ROOT / "fuzz",
        check=True,
    )


if __name__ == "__main__":
    main()
