#!/usr/bin/env bash
# Renders a map in bspview and its glTF export in a real glTF viewer (three.js's GLTFLoader in
# headless Chromium) from the same camera, and prints the image similarity (SSIM, MAE, PSNR).
#
#   tools/gltf_compare.sh MAP CAMERA [OUTDIR]
#     MAP     anything bspview opens (a .bsp, ARCHIVE.pk3:maps/NAME.bsp)
#     CAMERA  any bspview --camera (X,Y,Z,PITCH,YAW, spawn[:N], leak[:N]); the three.js page
#             takes the position and angles bspview reports in its --screenshot JSON
#   writes OUTDIR/NAME_bspview.png, NAME.glb, NAME_three.png, NAME_diff.png
#   env: BSPVIEW (default build/release/bspview, else build/test/bspview), SIZE (default
#        1280x720), FOV (horizontal, default 90), LIGHTING (--export-lighting: lightmap or
#        baked, default lightmap), COLOUR (game: texels and light multiplied as stored, as the
#        game does; spec: three.js's glTF colour management, sRGB decode and encode; default
#        game), BSPVIEW_ARGS (more flags for both bspview runs, e.g. --patch-level 8),
#        MODULES (where three and playwright-core are installed, default build/gltf_view;
#        installed there from tools/gltf_view/package-lock.json when missing), CHROMIUM
#        (default /usr/bin/chromium, Debian package chromium), REFRENDER (where compare.py
#        is, default ../shared/refrender).
# bspview draws with --no-models --no-flares: the export carries neither entity models nor
# flares. docs/export.md "Compared with a glTF viewer" has the figures and what differs.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
if [[ $# -lt 2 ]]; then
    sed -n '2,19p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//' >&2
    exit 2
fi
map="$1"
camera="$2"
out="${3:-$(mktemp -d)}"
bspview="${BSPVIEW:-}"
if [[ -z "$bspview" ]]; then
    bspview="$root/build/release/bspview"
    [[ -x "$bspview" ]] || bspview="$root/build/test/bspview"
fi
size="${SIZE:-1280x720}"
fov="${FOV:-90}"
lighting="${LIGHTING:-lightmap}"
colour="${COLOUR:-game}"
modules="${MODULES:-$root/build/gltf_view}"
read -r -a extra <<<"${BSPVIEW_ARGS:-}"
py=/usr/bin/python3
ref="${REFRENDER:-$root/../shared/refrender}"
scale=0.0254
mkdir -p "$out"

if ! command -v node >/dev/null; then
    echo "gltf_compare: node not found (apt-get install nodejs npm)" >&2
    exit 1
fi
if [[ ! -x "${CHROMIUM:-/usr/bin/chromium}" ]]; then
    echo "gltf_compare: ${CHROMIUM:-/usr/bin/chromium} not found (apt-get install chromium)" >&2
    exit 1
fi
if [[ ! -d "$modules/node_modules/three" || ! -d "$modules/node_modules/playwright-core" ]] ||
    ! cmp -s "$root/tools/gltf_view/package-lock.json" "$modules/package-lock.json"; then
    mkdir -p "$modules"
    cp "$root/tools/gltf_view/package.json" "$root/tools/gltf_view/package-lock.json" "$modules/"
    # playwright-core drives the system Chromium: no browser download.
    (cd "$modules" && PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm ci --no-audit --no-fund >&2)
fi

name="$(basename "${map##*:}" .bsp)"
w="${size%x*}"
h="${size#*x}"
json=$(LIBGL_ALWAYS_SOFTWARE=1 GALLIUM_DRIVER=llvmpipe xvfb-run -a -s "-screen 0 ${w}x${h}x24" \
    "$bspview" "$map" --screenshot "$out/${name}_bspview.png" --camera "$camera" --size "$size" \
    --fov "$fov" --no-models --no-flares "${extra[@]}")
# The camera bspview resolved (spawn, leak), in plain decimals.
cam=$("$py" -c 'import json, sys
c = json.load(sys.stdin)["camera"]
print(",".join("%.4f" % v for v in c["position"] + [c["pitch"], c["yaw"]]))' <<<"$json")

"$bspview" "$map" --export "$out/$name.glb" --export-lighting "$lighting" \
    --export-scale "$scale" "${extra[@]}" >/dev/null
view=$(node "$root/tools/gltf_view/shoot.cjs" "$modules/node_modules" "$out/$name.glb" \
    "$out/${name}_three.png" "$size" "$cam" "$fov" "$scale" "$colour")
echo "three.js: $view" >&2
result=$("$py" "$ref/compare.py" "$out/${name}_bspview.png" \
    "$out/${name}_three.png" --diff "$out/${name}_diff.png")
echo "$name camera=($cam) lighting=$lighting colour=$colour: $result"
