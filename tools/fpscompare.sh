#!/usr/bin/env bash
# Frame rate and load time of bspview against OpenArena's own engine (ioquake3 opengl1 on
# the same software GL) on the same map, camera and resolution. Runs alternate between the two
# programs (interleaved) so that background load hits both alike; prints each run, the medians
# and the ratios.
#
#   tools/fpscompare.sh MAP X,Y,Z,PITCH,YAW [RUNS] [FRAMES]
#     MAP  an OpenArena map name (oa_dm1, ...); X.. the eye (Quake convention)
#   env: BSPVIEW (default build/release/bspview), REFRENDER (default ../shared/refrender),
#        SIZE (default 1280x720), LP_NUM_THREADS (passed to both; default: the core count)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
map="$1"
IFS=, read -r x y z p yw <<<"$2"
runs="${3:-3}"
frames="${4:-300}"
bspview="${BSPVIEW:-$root/build/release/bspview}"
ref="${REFRENDER:-$root/../shared/refrender}"
size="${SIZE:-1280x720}"
w="${size%x*}"
h="${size#*x}"
export LP_NUM_THREADS="${LP_NUM_THREADS:-$(nproc)}"
py=/usr/bin/python3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

pk3=$("$py" "$root/tools/oa_map_spec.py" "$map")
[[ -n "$pk3" ]] || { echo "fpscompare: $map not found" >&2; exit 1; }

for i in $(seq 1 "$runs"); do
    "$ref/oa_fps.sh" "$map" "$x" "$y" "$z" "$p" "$yw" 0 "$w" "$h" 1 "$frames" \
        --json "$tmp/oa_$i.json" >/dev/null
    # refrender pins r_flares 0 (ioquake3's default): no flares on our side either.
    xvfb-run -a -s "-screen 0 ${w}x${h}x24" "$bspview" "$pk3" --bench --no-flares --frames "$frames" \
        --camera "$x,$y,$z,$p,$yw" --size "$size" >"$tmp/bv_$i.json"
done

"$py" - "$tmp" "$runs" "$map" "$size" <<'PY'
import json, statistics, sys, glob
tmp, runs, name, size = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4]
oa_fps, oa_load, bv_fps, bv_load, bv_p50 = [], [], [], [], []
for i in range(1, runs + 1):
    oa = json.load(open("%s/oa_%d.json" % (tmp, i)))
    bv = json.load(open("%s/bv_%d.json" % (tmp, i)))
    med = oa.get("median", oa)
    oa_fps.append(float(med.get("fps")))
    oa_load.append(float(med.get("map_load_s")))
    bv_fps.append(bv["fps"])
    bv_p50.append(bv["frame_ms"]["p50"])
    bv_load.append(bv["load_ms"]["total_to_first_frame"] / 1000.0)
    print("run %d: ioquake3 %.1f fps, load %.2f s | bspview %.1f fps (p50 %.2f ms), load to first frame %.2f s"
          % (i, oa_fps[-1], oa_load[-1], bv_fps[-1], bv_p50[-1], bv_load[-1]))
m = statistics.median
print("%s %s median of %d: ioquake3 %.1f fps, load %.2f s | bspview %.1f fps, load %.2f s | fps ratio %.2f, load ratio %.2f"
      % (name, size, runs, m(oa_fps), m(oa_load), m(bv_fps), m(bv_load), m(bv_fps) / m(oa_fps), m(bv_load) / m(oa_load)))
PY
