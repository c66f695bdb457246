#!/usr/bin/env bash
# Where bspview's frame goes, pass by pass, on one map, camera and size: the time of each pass
# (`--bench --pass-timing cpu`: a glFinish at every pass boundary, timed by the process's CPU
# time over all its threads, which is llvmpipe's drawing work and which other jobs on the
# machine do not inflate; PASS_TIMING=queries on a GPU) and the frame with each optional pass
# switched off (`--pass-timing off`, the frame as tools/fpscompare.sh times it: wall p50 and
# the process's CPU time per frame). Runs are interleaved (every variant once per round) so
# background load hits them alike; prints the medians over rounds as Markdown tables.
#
#   tools/passtable.sh MAP X,Y,Z,PITCH,YAW [ROUNDS] [FRAMES]
#     MAP  an OpenArena map name (oa_dm1, ...) or a .bsp path / ARCHIVE.pk3:maps/NAME.bsp
#   env: BSPVIEW (default build/release/bspview), SIZE (default 1280x720),
#        SWITCHES (default: --no-depth-prepass --no-display-ramp --no-fog --no-models),
#        EXTRA (more bspview arguments for every run; default --no-flares, as fpscompare.sh),
#        PASS_TIMING (default cpu; queries on a GPU, finish for wall time per pass)
# No X server needed: without DISPLAY bspview uses SDL's offscreen EGL driver.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
map="$1"
camera="$2"
rounds="${3:-3}"
frames="${4:-60}"
bspview="${BSPVIEW:-$root/build/release/bspview}"
size="${SIZE:-1280x720}"
timing="${PASS_TIMING:-cpu}"
read -r -a switches <<<"${SWITCHES:---no-depth-prepass --no-display-ramp --no-fog --no-models}"
read -r -a extra <<<"${EXTRA:---no-flares}"
py=/usr/bin/python3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

spec="$map"
if [[ "$map" != *.bsp ]]; then
    spec=$("$py" "$root/tools/oa_map_spec.py" "$map")
    [[ -n "$spec" ]] || { echo "passtable: $map not found" >&2; exit 1; }
fi
run() { # OUT.json ARGS...
    local out="$1"
    shift
    "$bspview" "$spec" --bench --frames "$frames" --camera "$camera" --size "$size" \
        "${extra[@]}" "$@" >"$out"
}
for r in $(seq 1 "$rounds"); do
    run "$tmp/finish_$r.json" --pass-timing "$timing"
    run "$tmp/base_$r.json" --pass-timing off
    for s in "${switches[@]}"; do
        run "$tmp/${s#--}_$r.json" --pass-timing off "$s"
    done
done

"$py" - "$tmp" "$rounds" "$map" "$size" "$frames" "${switches[@]}" <<'PY'
import json, statistics, sys
tmp, rounds, name, size, frames = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4], sys.argv[5]
switches = sys.argv[6:]
med = statistics.median
load = lambda tag, r: json.load(open("%s/%s_%d.json" % (tmp, tag, r)))
fin = [load("finish", r) for r in range(1, rounds + 1)]
base = [load("base", r) for r in range(1, rounds + 1)]
print("%s %s, %d rounds x %s frames, %s (%s), passes: %s" % (name, size, rounds, frames,
      fin[0]["gl_renderer"], fin[0]["video_driver"], fin[0]["gpu_ms"]["pass_timing"]))
print()
print("| pass | ms (p50) | share |")
print("|---|---:|---:|")
passes = fin[0]["gpu_ms"]["passes"]
p50 = {p: med(f["gpu_ms"]["passes"][p]["p50"] for f in fin) for p in passes}
total = sum(p50.values())
for p in passes:
    if p50[p] > 0:
        print("| %s | %.2f | %.0f %% |" % (p, p50[p], 100 * p50[p] / total if total else 0))
print("| sum of passes | %.2f | |" % total)
print("| frame, timed per pass (p50) | %.2f | |" % med(f["gpu_ms"]["world"]["p50"] for f in fin))
print()
wall = lambda runs: med(x["frame_ms"]["p50"] for x in runs)
cpu = lambda runs: med(x["cpu_ms"]["process"]["p50"] for x in runs)
print("| switch | frame p50 ms (wall) | change | process CPU ms per frame | change |")
print("|---|---:|---:|---:|---:|")
bw, bc = wall(base), cpu(base)
print("| (none) | %.2f | | %.2f | |" % (bw, bc))
for s in switches:
    runs = [load(s[2:], r) for r in range(1, rounds + 1)]
    w, c = wall(runs), cpu(runs)
    print("| %s | %.2f | %+.1f %% | %.2f | %+.1f %% |" % (s, w, 100 * (w - bw) / bw, c, 100 * (c - bc) / bc))
PY
