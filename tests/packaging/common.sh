# Shared helpers of the packaging tests (sourced, not run).
set -euo pipefail

fail() {
    echo "FAIL: $*" >&2
    exit 1
}

need() {
    command -v "$1" >/dev/null 2>&1 ||
        fail "$1 not found (Debian package $2; scripts/install-deps.sh --test installs it)"
}

# info_without_file BINARY ARGS...: --info output, run from an unrelated working directory, less
# its "file" line (which holds only the file name).
info_without_file() {
    local bin="$1"
    shift
    local elsewhere out rc=0
    elsewhere="$(mktemp -d)"
    out="$(cd "$elsewhere" && "$bin" "$@" --info)" || rc=$?
    rmdir "$elsewhere"
    [[ $rc -eq 0 ]] || fail "$bin $* --info failed ($rc)"
    grep -v '^  "file": ' <<<"$out"
}

# check_default_map ROOT STANDIN...: ROOT/bin/bspview --info without a map, from an unrelated
# working directory, opens ROOT/share/bspview/maps/demo.bsp. The installed demo map (when
# assets/ has one) is first compared with itself, then replaced, in this scratch tree only, by
# the first STANDIN whose bytes differ from it, so that a run that fell back to another copy
# (the source tree's assets/) would show.
check_default_map() {
    local root="$1"
    shift
    local bin="$root/bin/bspview"
    local demo="$root/share/bspview/maps/demo.bsp"
    if [[ -f "$demo" ]]; then
        [[ "$(info_without_file "$bin")" == "$(info_without_file "$bin" "$demo")" ]] ||
            fail "--info without a map does not describe the installed $demo"
        echo "installed demo map is the default: $demo"
    else
        echo "no demo map installed (assets/maps/demo.bsp not in this checkout)"
        mkdir -p "$(dirname "$demo")"
    fi
    local standin=""
    for s in "$@"; do
        [[ -f "$s" ]] || fail "stand-in map $s missing"
        if [[ ! -f "$demo" ]] || ! cmp -s "$s" "$demo"; then
            standin="$s"
            break
        fi
    done
    [[ -n "$standin" ]] || fail "no stand-in differs from $demo"
    cp "$standin" "$demo"
    local expected actual
    expected="$(info_without_file "$bin" "$standin")"
    actual="$(info_without_file "$bin")"
    [[ "$actual" == "$expected" ]] ||
        fail "--info without a map did not open $demo (stand-in $standin): $(head -c 300 <<<"$actual")"
    echo "default map from another directory: $demo (stand-in $(basename "$standin"))"
}

# check_version BINARY VERSION SOURCE_DIR: "bspview VERSION (REVISION)", REVISION being the
# checkout's HEAD when the source is a git checkout.
check_version() {
    local bin="$1" version="$2" src="$3"
    local out
    out="$("$bin" --version)" || fail "$bin --version failed"
    echo "$out"
    [[ "$out" =~ ^bspview\ ${version//./\\.}\ \(([A-Za-z0-9._+-]+)\)$ ]] ||
        fail "unexpected --version output '$out'"
    local revision="${BASH_REMATCH[1]}"
    if command -v git >/dev/null 2>&1 && git -C "$src" rev-parse --git-dir >/dev/null 2>&1; then
        local head
        head="$(git -C "$src" rev-parse --short=12 HEAD)"
        [[ "$revision" == "$head" || "$revision" == "$head-dirty" ]] ||
            fail "--version says revision '$revision', the checkout is at $head"
    fi
}
