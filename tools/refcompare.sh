#!/usr/bin/env bash
# Renders the same OpenArena map from the same camera in bspview and in OpenArena's own engine
# (ioquake3, via ../shared/refrender) and prints the image similarity (SSIM, MAE, PSNR).
#
#   tools/refcompare.sh MAP CAMERA [OUTDIR]
#     MAP     an OpenArena map name (oa_dm1, oasago2, ...), looked up in the installed pk3s
#     CAMERA  @intermission, @spawnN, or X,Y,Z,PITCH,YAW (eye position, Quake convention)
#   env: BSPVIEW (default build/release/bspview), REFRENDER (default ../shared/refrender),
#        SIZE (default 1280x720), TIME (shader time of bspview's frame in seconds, default 0;
#        the reference frame is at about 1.2 s: refrender's synthetic demo starts at
#        serverTime 1000 ms and plays at 50 ms a frame under timedemo, and its screenshot
#        comes after `wait 5`. TIME=1.2 matches animated shaders to it)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
map="$1"
camera="$2"
out="${3:-$(mktemp -d)}"
bspview="${BSPVIEW:-$root/build/release/bspview}"
ref="${REFRENDER:-$root/../shared/refrender}"
size="${SIZE:-1280x720}"
w="${size%x*}"
h="${size#*x}"
mkdir -p "$out"
py=/usr/bin/python3

# The camera, resolved by the reference tool so both sides use exactly the same numbers.
if [[ "$camera" == @* ]]; then
    line=$("$py" "$ref/oa_ref.py" info "$map" | grep -E "^${camera} " | head -n 1)
    if [[ -z "$line" ]]; then
        echo "refcompare: $map has no camera $camera" >&2
        exit 1
    fi
    # "@intermission eye X Y Z angles(p y r) P Y R" or "@spawnN ... (eye z +26 = Z) angles(p y r) P Y R"
    read -r x y z p yw < <("$py" - "$line" <<'PY'
import re, sys
s = sys.argv[1]
m = re.search(r"eye ([-+\deE.]+) ([-+\deE.]+) ([-+\deE.]+)", s)
if m:
    x, y, z = m.groups()
else:
    o = re.search(r"origin ([-+\deE.]+) ([-+\deE.]+) ([-+\deE.]+)", s).groups()
    x, y = o[0], o[1]
    z = re.search(r"eye z \+26 = ([-+\deE.]+)", s).group(1)
a = re.search(r"angles\(p y r\) ([-+\deE.]+) ([-+\deE.]+) ([-+\deE.]+)", s).groups()
# Plain decimals: a tiny "-1.4e-14" would read as an option to the reference tool.
print(" ".join("%.4f" % float(v) for v in (x, y, z, a[0], a[1])))
PY
)
else
    IFS=, read -r x y z p yw <<<"$camera"
fi

# Which pk3 provides the map (the one the engine loads: highest priority).
pk3=$("$py" "$root/tools/oa_map_spec.py" "$map")
if [[ -z "$pk3" ]]; then
    echo "refcompare: map $map not found in the OpenArena pk3s" >&2
    exit 1
fi

"$ref/oa_shot.sh" "$map" "$x" "$y" "$z" "$p" "$yw" 0 "$out/${map}_ref.png" "$w" "$h" >/dev/null
# refrender pins r_flares 0 (ioquake3's default): no flares on our side either; and its demo
# draws the world only (no items or players), so no entity models.
xvfb-run -a -s "-screen 0 ${w}x${h}x24" "$bspview" "$pk3" --screenshot "$out/${map}_bspview.png" \
    --camera "$x,$y,$z,$p,$yw" --size "$size" --time "${TIME:-0}" --no-flares --no-models >/dev/null
result=$("$py" "$ref/compare.py" "$out/${map}_ref.png" "$out/${map}_bspview.png" \
         --diff "$out/${map}_diff.png")
echo "$map $camera eye=($x $y $z) angles=($p $yw): $result"
