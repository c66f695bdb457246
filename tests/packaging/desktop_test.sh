#!/usr/bin/env bash
# The desktop entry passes desktop-file-validate and opens files through bspview's MAP argument.
#   desktop_test.sh DESKTOP_FILE
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
desktop="$1"
need desktop-file-validate desktop-file-utils
out="$(desktop-file-validate "$desktop" 2>&1)" || fail "desktop-file-validate: $out"
[[ -z "$out" ]] || fail "desktop-file-validate warns: $out"
grep -qx 'Exec=bspview %f' "$desktop" || fail "Exec must be 'bspview %f'"
grep -qx 'MimeType=application/x-bsp;' "$desktop" || fail "MimeType must name application/x-bsp"
grep -qx 'Icon=bspview' "$desktop" || fail "Icon must be bspview"
echo "PASS"
