#!/usr/bin/env bash
# One command from a fresh clone to a full test run: installs what is missing (including the
# OpenArena map packages and Xvfb + Mesa for the rendering tests), builds with warnings as
# errors, and runs every CTest test; then the whole suite again under ASan + UBSan + LSan
# (scripts/sanitize.sh) and each libFuzzer target for a bounded time (scripts/fuzz.sh).
# Rendering tests use Mesa's llvmpipe under xvfb-run.
#   scripts/test.sh                  everything (what CI runs; docs/building.md gives its time)
#   BSPV_TEST_QUICK=1 scripts/test.sh   only the plain build and its tests (a few minutes)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
"$root/scripts/install-deps.sh" --test
build="${BSPV_BUILD_DIR:-$root/build/test}"
cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DBSPV_WERROR=ON -DBSPV_LINE_TABLES=ON \
      -DBSPV_BUILD_TESTS=ON
cmake --build "$build" -j "$(nproc)"
# Software GL for every test that opens a context, whatever the machine has.
export LIBGL_ALWAYS_SOFTWARE=1
export GALLIUM_DRIVER=llvmpipe
log="$build/ctest.log"
# -noreset: by default Xvfb resets when its last client leaves, and a client connecting during
# the reset is cut off (xserver issue 1102); with tests starting and ending side by side that
# once killed a corpus screenshot with SIGPIPE.
(cd "$build" && xvfb-run -a -s "-screen 0 1280x1024x24 -noreset" \
    ctest --output-on-failure -j "$(nproc)" --timeout 600) 2>&1 | tee "$log"
total=$(sed -n 's/.*tests passed, 0 tests failed out of \([0-9]*\).*/\1/p' "$log" | tail -n 1)
summary() { echo "tests: ${total:-0} passed, 0 failed"; }
if [[ "${BSPV_TEST_QUICK:-0}" == 1 ]]; then
    summary
    exit 0
fi
echo "== the whole suite under ASan + UBSan + LSan"
"$root/scripts/sanitize.sh"
echo "== fuzzing, ${BSPV_FUZZ_SECONDS:-10} s per target"
"$root/scripts/fuzz.sh" "${BSPV_FUZZ_SECONDS:-10}"
summary
