#!/usr/bin/env bash
# cli.no_display: the headless modes with no display server (no X, no Wayland): --screenshot and
# --bench through SDL's offscreen EGL driver, --info and --export without GL. The screenshot must
# be the same image, pixel for pixel, as the one drawn through an X server (Xvfb: the DISPLAY
# the test runs under, else one started here with xvfb-run), and nothing may reach stderr (no
# "XDG_RUNTIME_DIR is invalid" from a Wayland probe).
#   no_display_test.sh BSPVIEW OUT_DIR MAP
set -euo pipefail
bspview="$1" out="$2" map="$3"
rm -rf "$out"
mkdir -p "$out"
fail() { echo "no_display_test: $*" >&2; exit 1; }
nox() { env -u DISPLAY -u WAYLAND_DISPLAY -u SDL_VIDEODRIVER -u XDG_RUNTIME_DIR "$@"; }
quiet() { # NAME: stderr of that run must be empty
    # Under scripts/sanitize.sh, LeakSanitizer reports the EGL driver's allocations at exit (the
    # driver is unloaded by then, so no suppression can name it; the GL tests' leaks are not
    # fatal there, see scripts/sanitize.sh): its report is not ours and is left out.
    local ours
    ours=$(awk '/ERROR: LeakSanitizer/ {skip = 1} !skip && !/^=+$/ {print}
                /^SUMMARY: AddressSanitizer: .* leaked/ {skip = 0}' "$out/$1.err")
    [[ -z "$ours" ]] || { cat "$out/$1.err" >&2; fail "$1 wrote to stderr"; }
}

nox "$bspview" "$map" --screenshot "$out/nox.png" --camera spawn --size 320x180 \
    >"$out/nox.json" 2>"$out/nox.err" || fail "--screenshot without a display failed"
quiet nox
grep -q '"video_driver": "offscreen"' "$out/nox.json" || fail "not drawn by SDL's offscreen driver"
grep -q '"gl_renderer": "[^"]' "$out/nox.json" || fail "no GPU name in the JSON"

if [[ -n "${DISPLAY:-}" ]]; then
    x=("$bspview")
else
    command -v xvfb-run >/dev/null || fail "no DISPLAY and no xvfb-run for the X image"
    x=(xvfb-run -a -s "-screen 0 640x480x24" "$bspview")
fi
env -u SDL_VIDEODRIVER "${x[@]}" "$map" --screenshot "$out/x.png" --camera spawn --size 320x180 \
    >"$out/x.json" 2>"$out/x.err" || fail "--screenshot under X failed"
grep -q '"video_driver": "x11"' "$out/x.json" || fail "the X run did not use the x11 driver"
# The PNG writer stores nothing but the pixels: the same pixels give the same file.
cmp -s "$out/nox.png" "$out/x.png" || fail "the image without X differs from the one under X"

nox "$bspview" "$map" --bench --frames 3 --size 160x90 --pass-timing finish \
    >"$out/bench.json" 2>"$out/bench.err" || fail "--bench without a display failed"
quiet bench
grep -q '"pass_timing": "glFinish per pass"' "$out/bench.json" || fail "--bench: no pass times"
grep -q '"video_driver": "offscreen"' "$out/bench.json" || fail "--bench: not offscreen"

# No GL at all: these must work even where SDL has no video driver that opens.
nox SDL_VIDEODRIVER=none "$bspview" "$map" --info >"$out/info.json" 2>"$out/info.err" ||
    fail "--info without a display failed"
quiet info
nox SDL_VIDEODRIVER=none "$bspview" "$map" --export "$out/map.glb" >"$out/export.json" \
    2>"$out/export.err" || fail "--export without a display failed"
quiet export
[[ -s "$out/map.glb" ]] || fail "--export wrote no file"
echo "no_display_test: ok"
