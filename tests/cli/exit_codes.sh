#!/bin/sh
# Every bad argument exits 2 before any window opens (bspview's usage errors); a file that
# cannot be read as a map exits 1, and an empty one says so. $1: the bspview executable,
# $2: a scratch folder.
set -u
bspview=$1
scratch=$2
mkdir -p "$scratch"
fail=0
expect() {
    want=$1
    shift
    out=$("$bspview" "$@" 2>&1 </dev/null)
    rc=$?
    if [ "$rc" -ne "$want" ]; then
        echo "FAIL: bspview $* exited $rc, expected $want: $out"
        fail=1
    fi
}
expect 2 --view bogus
expect 2 --view
expect 2 --no-such-flag
expect 2 --size 0x0
expect 2 --fov 500
expect 2 --texture-mode GL_BOGUS
expect 2 --anisotropy 0
expect 2 --anisotropy 17
expect 2 --camera 1,2
expect 2 --debug no-such-view
expect 2 --gl-path 44
expect 2 --patch-level 0
expect 2 --export out.fbx
expect 2 --walk-script walk.txt
expect 2 --screenshot x.png --view nope
: >"$scratch/empty.bsp"
out=$("$bspview" "$scratch/empty.bsp" --info 2>&1)
rc=$?
if [ "$rc" -ne 1 ]; then
    echo "FAIL: an empty map exited $rc, expected 1"
    fail=1
fi
case $out in
*"empty.bsp"*"empty file"*) ;;
*)
    echo "FAIL: an empty map says '$out', expected 'empty.bsp: ... empty file'"
    fail=1
    ;;
esac
[ $fail -eq 0 ] && echo "exit codes as expected"
exit $fail
