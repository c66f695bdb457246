#!/usr/bin/env bash
# Builds the libFuzzer targets (clang, ASan + UBSan) in build/fuzz, makes the seed corpora from
# the shared maps, and runs each target for a bounded time. Any crash, leak, UBSan report,
# timeout or out-of-memory is a finding: libFuzzer writes the input to
# fuzz/regressions/<target>/ (replayed by the FuzzRegressions ctest test from then on) and
# this script fails.
#   scripts/fuzz.sh [SECONDS_PER_TARGET] [TARGET...]     (default 60 s, every target)
# The targets and their seeds are the rows of fuzz/targets.def.
# Environment: BSPV_SHARED_MAPS_DIR (default ../shared/maps), BSPV_FUZZ_BUILD_DIR.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
seconds="${1:-60}"
shift || true
targets=("$@")
[ ${#targets[@]} -gt 0 ] ||
    mapfile -t targets < <(sed -n 's/^BSPV_FUZZ_TARGET(\([a-z0-9_]*\),.*/\1/p' "$root/fuzz/targets.def")
maps="${BSPV_SHARED_MAPS_DIR:-$root/../shared/maps}"
build="${BSPV_FUZZ_BUILD_DIR:-$root/build/fuzz}"

cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DBSPV_LINE_TABLES=ON \
      -DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++ \
      -DBSPV_BUILD_FUZZ=ON -DBSPV_BUILD_TESTS=OFF -DBSPV_BUILD_APP=OFF \
      -DBSPV_SHARED_MAPS_DIR="$maps" >/dev/null
cmake --build "$build" -j "$(nproc)"

# Seeds are rebuilt every run; inputs the fuzzer found interesting accumulate beside them.
python3 "$root/scripts/fuzz_corpus.py" "$build/seeds" --maps "$maps"

export ASAN_OPTIONS="detect_leaks=1:abort_on_error=1:symbolize=1"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
failed=()
for t in "${targets[@]}"; do
    mkdir -p "$build/corpus/$t" "$root/fuzz/regressions/$t"
    echo "== fuzz_$t for ${seconds}s"
    # -timeout: one input may take at most 10 s (a hang is a finding); -rss_limit_mb bounds
    # memory (the parsers cap allocations far below it). Inputs grow up to the largest seed
    # (1 MiB maps for load_map).
    if ! "$build/fuzz/fuzz_$t" "$build/corpus/$t" "$build/seeds/$t" \
            -max_total_time="$seconds" -timeout=10 -rss_limit_mb=4096 \
            -print_final_stats=1 -artifact_prefix="$root/fuzz/regressions/$t/" \
            2>"$build/fuzz_$t.log"; then
        failed+=("$t")
    fi
    grep -E "stat::number_of_executed_units|stat::peak_rss_mb|^Done|ERROR|SUMMARY" \
        "$build/fuzz_$t.log" || true
done
if [ ${#failed[@]} -gt 0 ]; then
    echo "fuzz findings in: ${failed[*]} (inputs in fuzz/regressions/<target>/, logs in $build)"
    exit 1
fi
echo "no findings"
