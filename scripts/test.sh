#!/usr/bin/env bash
# One command from a fresh clone to a full test run: installs what is missing (including the
# OpenArena map packages and Xvfb + Mesa for the rendering tests), builds with warnings as
# errors, and runs every CTest test. Rendering tests use Mesa's llvmpipe under xvfb-run.
#   scripts/test.sh
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
"$root/scripts/install-deps.sh" --test
build="${BSPV_BUILD_DIR:-$root/build/test}"
cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DBSPV_WERROR=ON \
      -DBSPV_BUILD_TESTS=ON
cmake --build "$build" -j "$(nproc)"
# Software GL for every test that opens a context, whatever the machine has.
export LIBGL_ALWAYS_SOFTWARE=1
export GALLIUM_DRIVER=llvmpipe
cd "$build"
xvfb-run -a -s "-screen 0 1280x1024x24" ctest --output-on-failure -j "$(nproc)" --timeout 600
