#!/usr/bin/env python3
"""Runs dxref's benchmarks beside their peers and writes the README's benchmark table.

    tools/bench-report.py                 # 5 rounds, one core, rewrite README.md's table
    tools/bench-report.py --rounds 1      # a quick look
    tools/bench-report.py --no-write      # print the table only
    tools/bench-report.py --from-results  # reuse the figures of the last rounds (no benches)
    tools/bench-report.py --add --bench gs --rounds 1   # one more round of some benches,
                                          # kept beside the saved rounds
    tools/bench-report.py --bench gs --bench corpus --filter corpus=disasm/
                                          # only the ids of `corpus` matching `disasm/`

Each round runs every criterion bench of `benches/` pinned to one core (`taskset -c CORE`;
the figures whose id ends in `all_cores` again without the pin),
then the peers that are not criterion benches in the same round, alternating with dxref's:
Mesa's lavapipe on the geometry-shader workloads (`../shared/bench/lavapipe-gs`, needs
glslang-tools, libvulkan1 and mesa-vulkan-drivers) and `vkd3d-compiler`'s start-up
(`tools/bench-startup.sh`, needs hyperfine and vkd3d-compiler). A figure is the median over
the rounds of each round's median (criterion's `estimates.json`). Peers that are missing are
reported as such, never guessed. The rounds' raw figures are kept in
`target/bench-report/rounds.json`; the table goes between the `bench-report` markers of
README.md.
"""

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CRITERION = ROOT / "target" / "criterion"
OUT = ROOT / "target" / "bench-report"
BEGIN = "<!-- bench-report:begin (tools/bench-report.py writes this table) -->"
END = "<!-- bench-report:end -->"

# (what, dxref's figure, the peer's figure, what the peer is). A figure is a criterion id
# (`group/function`) or an external measurement (`lavapipe:quad`, `startup:...`). Rows whose
# dxref figure was not measured are left out; a missing peer leaves the ratio empty.
ROWS = [
    ("SM4/5 decode, streaming (program bytes)", "decode/programs", "decode/d3dasm_ir", "d3dasm IR decode"),
    ("SM4/5 decode into the IR (program bytes)", "decode/ir", "decode/d3dasm_ir", "d3dasm IR decode"),
    ("Container parse + IR decode (blob bytes)", "decode/containers", "decode/d3dasm_containers", "d3dasm parse"),
    ("Whole listings, checksum verified (blob bytes)", "disasm/listings", "disasm/d3dasm_listings", "d3dasm listings"),
    ("Whole listings in batches, checksums in lanes (blob bytes)", "disasm/listings_batch", "disasm/d3dasm_listings", "d3dasm listings"),
    ("Checksum, corpus blobs one at a time", "single/corpus/dxref", "single/corpus/openssl", "OpenSSL MD5, same bytes"),
    ("Checksum, one 1 MiB buffer", "single/1mib/dxref", "single/1mib/openssl", "OpenSSL MD5, same bytes"),
    ("Checksum, corpus batch in AVX-512 lanes", "many/corpus/avx512", "many/corpus/single_stream", "dxref one at a time"),
    ("Checksum, corpus batch in AVX2 lanes", "many/corpus/avx2", "many/corpus/single_stream", "dxref one at a time"),
    ("Listing assembly (listing text)", "asm/listings", None, None),
    ("Create-time validation (blob bytes)", "validate/containers", None, None),
    ("SM1-3 decode (program bytes)", "d3dbc-decode/programs", None, None),
    ("SM1-3 raw listings (blob bytes)", "d3dbc-disasm/raw-listings", None, None),
    ("GS quad, emitted vertices, 1 core", "gs/quad", "lavapipe:quad", "Mesa lavapipe, 1 thread"),
    ("GS cube, emitted vertices, 1 core", "gs/cube", "lavapipe:cube", "Mesa lavapipe, 1 thread"),
    ("GS quad lowered to compute (`translate::lower`), on lavapipe, 1 thread", "gs_lavapipe/quad_lowered", "lavapipe:quad", "lavapipe, the workload's GLSL GS, 1 thread"),
    ("GS cube lowered to compute (`translate::lower`), on lavapipe, 1 thread", "gs_lavapipe/cube_lowered", "lavapipe:cube", "lavapipe, the workload's GLSL GS, 1 thread"),
    ("GS quad as a native SPIR-V geometry shader (`translate::geometry_spirv`), on lavapipe, 1 thread", "gs_native_lavapipe/quad_native", "lavapipe:quad", "lavapipe, the workload's GLSL GS, 1 thread"),
    ("GS cube as a native SPIR-V geometry shader (`translate::geometry_spirv`), on lavapipe, 1 thread", "gs_native_lavapipe/cube_native", "lavapipe:cube", "lavapipe, the workload's GLSL GS, 1 thread"),
    ("GS quad, emitted vertices, all cores", "gs/quad_all_cores", "lavapipe:quad", "Mesa lavapipe, 1 thread"),
    ("GS cube, emitted vertices, all cores", "gs/cube_all_cores", "lavapipe:cube", "Mesa lavapipe, 1 thread"),
    ("Batch validate, files/s, 1 core", "cli_batch_validate/one_core", None, None),
    ("Batch validate, files/s, all cores", "cli_batch_validate/all_cores", None, None),
    ("`dxref disasm one.bin`, processes/s", "startup:dxref", "startup:vkd3d-compiler", "vkd3d-compiler, same files"),
    ("... static build, processes/s", "startup:dxref-static", "startup:vkd3d-compiler", "vkd3d-compiler, same files"),
]


def run(cmd, **kw):
    print("+", " ".join(str(c) for c in cmd), file=sys.stderr, flush=True)
    return subprocess.run(cmd, cwd=kw.pop("cwd", ROOT), **kw)


def bench_names():
    names = []
    for line in (ROOT / "benches" / "Cargo.toml").read_text().splitlines():
        line = line.strip()
        if line.startswith("name") and "=" in line:
            value = line.split("=", 1)[1].strip().strip('"')
            if value != "dxref-benches":
                names.append(value)
    return names


def criterion_figures(since=0.0):
    """Every criterion id under target/criterion measured after `since` (a time stamp): its
    throughput per second (unit, value)."""
    figures = {}
    for bench in CRITERION.glob("**/new/benchmark.json"):
        if bench.stat().st_mtime < since:
            continue
        meta = json.loads(bench.read_text())
        est = json.loads((bench.parent / "estimates.json").read_text())
        seconds = est["median"]["point_estimate"] * 1e-9
        tp = meta.get("throughput") or {}
        if "Bytes" in tp:
            figures[meta["full_id"]] = ("MB/s", tp["Bytes"] / seconds / 1e6)
        elif "BytesDecimal" in tp:
            figures[meta["full_id"]] = ("MB/s", tp["BytesDecimal"] / seconds / 1e6)
        elif "Elements" in tp:
            figures[meta["full_id"]] = ("M/s", tp["Elements"] / seconds / 1e6)
        else:
            figures[meta["full_id"]] = ("runs/s", 1.0 / seconds)
    return figures


def lavapipe(core):
    """Mesa lavapipe's figures on the two workloads, or {} when it cannot run here."""
    src = ROOT.parent / "shared" / "bench" / "lavapipe-gs"
    if not src.is_dir() or shutil.which("glslangValidator") is None:
        print("lavapipe: SKIP (needs ../shared/bench/lavapipe-gs and glslang-tools)", file=sys.stderr)
        return {}
    build = OUT / "lavapipe-gs"
    if not (build / "Cargo.toml").exists():
        shutil.copytree(src, build, dirs_exist_ok=True)
        for p in build.rglob("*"):
            p.chmod(0o755 if p.is_dir() else 0o644)
    if run(["cargo", "build", "--release", "--quiet"], cwd=build).returncode != 0:
        return {}
    env = dict(os.environ, LP_NUM_THREADS="1")
    env.setdefault("VK_ICD_FILENAMES", "/usr/share/vulkan/icd.d/lvp_icd.x86_64.json")
    env.setdefault("XDG_RUNTIME_DIR", tempfile.mkdtemp())
    out = {}
    for name, n in (("quad", "1000000"), ("cube", "200000")):
        r = run(["taskset", "-c", core, str(build / "target/release/lavapipe-gs"), name, n],
                env=env, capture_output=True, text=True)
        if r.returncode != 0:
            print(f"lavapipe {name}: failed\n{r.stderr}", file=sys.stderr)
            continue
        line = json.loads(r.stdout.strip().splitlines()[-1])
        out[f"lavapipe:{name}"] = ("M/s", line["emitted_vertices_per_s"]["median"] / 1e6)
    return out


def startup(core):
    """Processes per second of `dxref disasm` and `vkd3d-compiler` on the same files."""
    script = ROOT / "tools" / "bench-startup.sh"
    if not script.exists():
        return {}
    r = run(["taskset", "-c", core, "bash", str(script), "--json"], capture_output=True, text=True)
    if r.returncode != 0:
        print(f"start-up: SKIP ({r.stderr.strip()[-300:]})", file=sys.stderr)
        return {}
    out = {}
    for name, per_s in json.loads(r.stdout.strip().splitlines()[-1]).items():
        out[f"startup:{name}"] = ("processes/s", per_s)
    return out


def round_(core, benches, filters):
    figures = {}
    since = time.time()
    for b in benches:
        # Alternate with the external peers: lavapipe right after dxref's GS bench.
        # One core means one lavapipe thread too (the lowered geometry shader runs on it).
        only = [filters[b]] if b in filters else []
        r = run(["taskset", "-c", core, "cargo", "bench", "-p", "dxref-benches", "--bench", b, "--", "--noplot", *only],
                env=dict(os.environ, LP_NUM_THREADS="1"))
        if r.returncode != 0:
            sys.exit(f"bench {b} failed")
        # Figures named `all_cores` are about scaling: measured again without the pin (the
        # later measurement is the one read); a filtered bench, those its filter matches.
        all_cores = f"(?:{filters[b]}).*all_cores" if b in filters else "all_cores"
        r = run(["cargo", "bench", "-p", "dxref-benches", "--bench", b, "--", "--noplot", all_cores])
        if r.returncode != 0:
            sys.exit(f"bench {b} (all cores) failed")
        if b == "gs":
            figures.update(lavapipe(core))
    figures.update(criterion_figures(since))
    figures.update(startup(core))
    return figures


def fmt(v):
    return f"{v:,.0f}" if v >= 100 else f"{v:,.1f}" if v >= 10 else f"{v:,.2f}"


def table(medians, rounds):
    lines = [
        f"Medians of {rounds} round(s) (of the rounds that measured a figure, when some measured only some "
        "benches), each pinned to one core; ratio = dxref / peer, the two alternated in each round.",
        "",
        "| what | dxref | peer | peer figure | ratio |",
        "|---|---|---|---|---|",
    ]
    for what, ours, peer, peer_name in ROWS:
        if ours not in medians:
            continue
        unit, v = medians[ours]
        if unit == "M/s" and v < 1:
            unit, v = "k/s", v * 1000
        if peer and peer in medians:
            pu, pv = medians[peer]
            if pu == "M/s" and unit == "k/s":
                pu, pv = "k/s", pv * 1000
            lines.append(f"| {what} | {fmt(v)} {unit} | {peer_name} | {fmt(pv)} {pu} | {v / pv:.2f}x |")
        elif peer:
            lines.append(f"| {what} | {fmt(v)} {unit} | {peer_name} | not measured here | |")
        else:
            lines.append(f"| {what} | {fmt(v)} {unit} | | | |")
    return "\n".join(lines)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--core", default="1", help="the core to pin to (taskset -c)")
    ap.add_argument("--bench", action="append", help="only these benches (default: all of benches/)")
    ap.add_argument("--filter", action="append", default=[], metavar="BENCH=REGEX",
                    help="run only the criterion ids of BENCH matching REGEX")
    ap.add_argument("--no-write", action="store_true", help="print the table, leave README.md alone")
    ap.add_argument("--from-results", action="store_true", help="reuse target/bench-report/rounds.json")
    ap.add_argument("--add", action="store_true", help="add the new rounds to the saved ones (a figure's median is then over the rounds that measured it)")
    args = ap.parse_args()
    OUT.mkdir(parents=True, exist_ok=True)
    saved = OUT / "rounds.json"
    if args.from_results:
        rounds = json.loads(saved.read_text())
    else:
        benches = args.bench or bench_names()
        filters = {}
        for f in args.filter:
            bench, sep, regex = f.partition("=")
            if not sep or bench not in benches:
                sys.exit(f"--filter {f}: expected BENCH=REGEX with BENCH one of {benches}")
            filters[bench] = regex
        rounds = json.loads(saved.read_text()) if args.add and saved.exists() else []
        for _ in range(args.rounds):
            rounds.append(round_(args.core, benches, filters))
            # Kept after every round: an interrupted report can be finished with
            # --from-results.
            saved.write_text(json.dumps(rounds, indent=1))
    medians = {}
    for key in {k for r in rounds for k in r}:
        values = [r[key][1] for r in rounds if key in r]
        medians[key] = (next(r[key][0] for r in rounds if key in r), statistics.median(values))
    text = table(medians, len(rounds))
    print(text)
    if not args.no_write:
        readme = ROOT / "README.md"
        body = readme.read_text()
        if BEGIN not in body or END not in body:
            sys.exit("README.md has no bench-report markers")
        head, rest = body.split(BEGIN, 1)
        _, tail = rest.split(END, 1)
        readme.write_text(f"{head}{BEGIN}\n{text}\n{END}{tail}")
        print("README.md: benchmark table rewritten", file=sys.stderr)


if __name__ == "__main__":
    main()
