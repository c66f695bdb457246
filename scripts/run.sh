#!/usr/bin/env bash
# One command from a fresh clone to the viewer: installs what is missing, builds Release and
# opens MAP (or the demo map in assets/ when none is given). Extra arguments go to bspview.
#   scripts/run.sh [MAP] [bspview options...]
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
"$root/scripts/install-deps.sh"
build="${BSPV_BUILD_DIR:-$root/build/release}"
cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DBSPV_BUILD_TESTS=OFF -DBSPV_BUILD_BENCH=OFF >/dev/null
cmake --build "$build" --target bspview
exec "$build/bspview" "$@"
