#!/usr/bin/env bash
# Start-up cost of `dxref disasm ONE.bin` against `vkd3d-compiler` on the same blob:
# one process per file, the tools in the same hyperfine run (so that the machine's
# load falls on all alike), over a few corpus blobs of different sizes; prints the
# time of each and the ratios. Two builds of dxref are timed: the default release
# build (dynamically linked) and a static one (`-C target-feature=+crt-static`: no
# dynamic loader at start, the build to ship for per-file scripts). Not part of CI.
#
#   tools/bench-startup.sh [--install] [--runs N] [--json] [BLOB...]
#
# --install   apt-get install hyperfine and vkd3d-compiler (Debian packages) first.
# --runs N    runs per command (default 300, after 30 warm-up runs).
# --json      end with one JSON line: processes per second of each command (one over the
#             mean of its median times over the blobs), for tools/bench-report.py.
# BLOB...     the blobs to time (default: the smallest, a middle-sized and the largest
#             DXBC container of the corpus, $DXREF_CORPUS or ../shared/corpus).
#
# vkd3d-compiler disassembles DXBC (`-b d3d-asm`) from vkd3d 1.3 on; older builds (Debian
# 12 has 1.2) only translate it to SPIR-V (`-b spirv-binary`), more work than a
# disassembly: the script uses what the installed build offers and says which.
# Each command runs pinned to one CPU (taskset) when taskset is there.
set -euo pipefail

here="$(cd "$(dirname "$0")/.." && pwd)"
runs=300
install=0
as_json=0
blobs=()
while [ $# -gt 0 ]; do
    case "$1" in
        --install) install=1 ;;
        --runs) runs="$2"; shift ;;
        --json) as_json=1 ;;
        -h|--help) sed -n '2,20p' "$0"; exit 0 ;;
        *) blobs+=("$1") ;;
    esac
    shift
done

if [ "$install" = 1 ]; then
    apt-get update -qq
    apt-get install -y -qq hyperfine vkd3d-compiler
fi
for tool in hyperfine vkd3d-compiler; do
    command -v "$tool" >/dev/null || { echo "bench-startup: $tool is missing (run with --install)" >&2; exit 2; }
done

cargo build --release --quiet -p dxref --manifest-path "$here/Cargo.toml"
dxref="${CARGO_TARGET_DIR:-$here/target}/release/dxref"
# The static build needs an explicit --target (so that proc-macros stay dynamic).
host="$(rustc -vV | sed -n 's/^host: //p')"
RUSTFLAGS="-C target-feature=+crt-static" cargo build --release --quiet -p dxref \
    --target "$host" --manifest-path "$here/Cargo.toml"
dxref_static="${CARGO_TARGET_DIR:-$here/target}/$host/release/dxref"

if [ ${#blobs[@]} -eq 0 ]; then
    corpus="${DXREF_CORPUS:-$here/../shared/corpus}"
    [ -d "$corpus" ] || { echo "bench-startup: no corpus at $corpus; name blobs" >&2; exit 2; }
    # DXBC containers only (vkd3d reads no raw Shader Model 1-3 streams), by size.
    mapfile -t sorted < <(find "$corpus" -name '*.bin' -size +0 -print0 | xargs -0 ls -S | tac |
        while read -r f; do [ "$(head -c 4 "$f")" = "DXBC" ] && echo "$f"; done)
    n=${#sorted[@]}
    blobs=("${sorted[0]}" "${sorted[$((n / 2))]}" "${sorted[$((n - 1))]}")
fi

if vkd3d-compiler -x dxbc-tpf --print-target-types 2>/dev/null | grep -q d3d-asm; then
    target=d3d-asm
    what="disassembles"
else
    target=spirv-binary
    what="translates to SPIR-V (this build has no d3d-asm target)"
fi
pin=()
command -v taskset >/dev/null && pin=(taskset -c 1)

echo "dxref: $("$dxref" --version); $(vkd3d-compiler --version 2>&1 | head -1) $what"
echo "machine: $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg)"
json="$(mktemp)"
medians="$(mktemp)"
trap 'rm -f "$json" "$medians"' EXIT
for blob in "${blobs[@]}"; do
    if ! vkd3d-compiler -x dxbc-tpf -b "$target" -o /dev/null "$blob" 2>/dev/null; then
        echo "skip $blob: vkd3d-compiler refuses it"
        continue
    fi
    "${pin[@]}" hyperfine -N --warmup 30 --runs "$runs" --style none --export-json "$json" \
        "$dxref disasm $blob" "$dxref_static disasm $blob" \
        "vkd3d-compiler -x dxbc-tpf -b $target -o /dev/null $blob" >/dev/null
    python3 - "$json" "$blob" "$medians" <<'EOF'
import json, os, sys
r = json.load(open(sys.argv[1]))["results"]
with open(sys.argv[3], "a") as m:
    m.write(json.dumps([x["median"] for x in r]) + "\n")
d, st, v = r[0], r[1], r[2]
print(f"{os.path.basename(sys.argv[2])} ({os.path.getsize(sys.argv[2])} bytes):")
for name, x in (("dxref disasm        ", d), ("dxref disasm, static", st), ("vkd3d-compiler      ", v)):
    print(f"  {name}  mean {x['mean']*1e3:6.3f} ms  median {x['median']*1e3:6.3f} ms  min {x['min']*1e3:6.3f} ms")
for name, x in (("dxref / vkd3d        ", d), ("dxref static / vkd3d ", st)):
    print(f"  {name}: mean {x['mean']/v['mean']:.2f}, median {x['median']/v['median']:.2f}, min {x['min']/v['min']:.2f}")
EOF
done

if [ "$as_json" = 1 ]; then
    python3 - "$medians" <<'EOF'
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
if not rows:
    sys.exit("bench-startup: no blob was timed")
names = ["dxref", "dxref-static", "vkd3d-compiler"]
print(json.dumps({n: len(rows) / sum(r[i] for r in rows) for i, n in enumerate(names)}))
EOF
fi
