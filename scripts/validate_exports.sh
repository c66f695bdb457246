#!/usr/bin/env bash
# Exports every map in the given folders to .glb with bspview and runs the Khronos glTF
# validator on the files; fails when a map does not export or a file has a validation error.
#   scripts/validate_exports.sh BSPVIEW VALIDATOR_MODULE OUT_DIR MAP_DIR... [-- EXTRA_BSPVIEW_ARGS]
# q1/broken_lq_fw.bsp (a 12-byte file kept to test the load error) is left out.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
bspview=$1
module=$2
out=$3
shift 3
dirs=()
while [[ $# -gt 0 && "$1" != "--" ]]; do dirs+=("$1"); shift; done
[[ "${1:-}" == "--" ]] && shift
mkdir -p "$out"
files=()
for d in "${dirs[@]}"; do
    found=0
    for map in "$d"/*.bsp; do
        [[ -e "$map" ]] || continue
        [[ "$(basename "$map")" == broken_lq_fw.bsp ]] && continue
        found=1
        name=$(basename "$map" .bsp)
        "$bspview" "$map" --export "$out/$name.glb" "$@" > "$out/$name.json"
        files+=("$out/$name.glb")
    done
    if [[ $found -eq 0 ]]; then
        echo "validate_exports: no maps in $d" >&2
        exit 1
    fi
done
node "$here/gltf_validate.cjs" --module "$module" "${files[@]}"
