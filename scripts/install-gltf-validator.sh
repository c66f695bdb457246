#!/usr/bin/env bash
# Installs the Khronos glTF validator (npm package gltf-validator, pinned) into DIR/node_modules
# with Debian's node and npm, for scripts/gltf_validate.cjs and the export_validate tests.
#   scripts/install-gltf-validator.sh DIR
# Does nothing when that version is already there; needs the npm registry the first time.
set -euo pipefail
version=2.0.0-dev.3.10
dir=${1:?usage: install-gltf-validator.sh DIR}
pkg="$dir/node_modules/gltf-validator/package.json"
if [[ -f "$pkg" ]] && grep -q "\"version\": \"$version\"" "$pkg"; then
    exit 0
fi
command -v node >/dev/null || { echo "install-gltf-validator: node not found (apt-get install nodejs)" >&2; exit 1; }
command -v npm >/dev/null || { echo "install-gltf-validator: npm not found (apt-get install npm)" >&2; exit 1; }
mkdir -p "$dir"
npm install --prefix "$dir" --no-audit --no-fund --no-save "gltf-validator@$version"
