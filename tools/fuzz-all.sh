#!/usr/bin/env bash
# Runs every fuzz target for SECONDS seconds each (default 60), one after the other,
# with its seed corpus (tools/fuzz-seeds.py) and dictionary, and prints one line per
# target: executions, coverage (libFuzzer's `cov:` edges and `ft:` features), and
# whether it found a crash (saved under fuzz/artifacts/TARGET/). See docs/FUZZING.md.
#
#   tools/fuzz-all.sh [SECONDS] [TARGET...]
#
# Needs cargo-fuzz. On a stable toolchain RUSTC_BOOTSTRAP=1 lets cargo-fuzz use the
# nightly-only flags it needs (set here unless the caller set it). FUZZ_SANITIZER
# (default `address`) is passed as `-s`; `none` builds without a sanitizer.
# FUZZ_RSS_MB (default 2048) and FUZZ_TIMEOUT (default 5, seconds per input) are the
# memory and hang limits. Exit status 1 if any target crashed.
#
# Without seed corpora (fuzz/corpus/, not committed) the script writes them first with
# tools/fuzz-seeds.py when the fxc corpus is there, so that short runs (CI's smoke)
# start from real shaders instead of empty inputs; FUZZ_SEEDS=0 skips that.
set -uo pipefail
cd "$(dirname "$0")/../fuzz"
if [ ! -d corpus ] && [ "${FUZZ_SEEDS:-1}" != 0 ] && command -v python3 >/dev/null 2>&1; then
    python3 ../tools/fuzz-seeds.py >/dev/null || echo "fuzz seeds: not written (no fxc corpus?); starting from empty inputs"
fi
seconds=${1:-60}
shift || true
export RUSTC_BOOTSTRAP=${RUSTC_BOOTSTRAP:-1}
sanitizer=${FUZZ_SANITIZER:-address}
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
    mapfile -t targets < <(cargo fuzz list)
fi
cargo fuzz build -O -s "$sanitizer" || exit 2
status=0
for t in "${targets[@]}"; do
    mkdir -p "corpus/$t" "artifacts/$t"
    dict=dict/binary.dict
    case $t in assemble | fxh | bindings) dict=dict/text.dict ;; esac
    dict_arg=()
    [ -f "$dict" ] && dict_arg=(-dict="$dict")
    log=$(mktemp)
    cargo fuzz run -O -s "$sanitizer" "$t" "corpus/$t" -- -max_total_time="$seconds" -timeout="${FUZZ_TIMEOUT:-5}" \
        -rss_limit_mb="${FUZZ_RSS_MB:-2048}" -print_final_stats=1 "${dict_arg[@]}" >"$log" 2>&1
    rc=$?
    execs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' | tail -1)
    cov=$(grep -o 'cov: [0-9]* ft: [0-9]*' "$log" | tail -1)
    if [ $rc -eq 0 ]; then
        echo "$t: ${execs:-?} executions in ${seconds} s, $cov, no crash"
    else
        status=1
        echo "$t: CRASH after ${execs:-?} executions ($cov); log: $log"
        grep -m3 -E 'panicked at|ERROR: libFuzzer|SUMMARY|Test unit written' "$log" | sed 's/^/    /'
        continue
    fi
    rm -f "$log"
done
exit $status
