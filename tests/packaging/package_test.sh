#!/usr/bin/env bash
# Builds the Debian package with cpack, checks its control fields, extracts it with dpkg -x
# into a scratch root and runs the packaged executable from there.
#   package_test.sh BUILD_DIR SCRATCH VERSION SOURCE_DIR SHARED_MAPS_DIR
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
build="$1" scratch="$2" version="$3" src="$4" maps="$5"
need dpkg-deb dpkg
need dpkg-shlibdeps dpkg-dev
rm -rf "$scratch"
mkdir -p "$scratch/out" "$scratch/root"
"${CPACK:-cpack}" --config "$build/CPackConfig.cmake" -G DEB -B "$scratch/out" >"$scratch/cpack.log" 2>&1 ||
    fail "cpack failed: $(cat "$scratch/cpack.log")"
debs=("$scratch/out"/bspview_*.deb)
[[ ${#debs[@]} -eq 1 && -f "${debs[0]}" ]] || fail "expected one bspview_*.deb, got ${debs[*]}"
deb="${debs[0]}"
echo "package: $(basename "$deb")"
[[ "$(dpkg-deb -f "$deb" Package)" == bspview ]] || fail "Package field"
[[ "$(dpkg-deb -f "$deb" Version)" == "$version" ]] || fail "Version field"
[[ "$(dpkg-deb -f "$deb" Section)" == graphics ]] || fail "Section field"
[[ -n "$(dpkg-deb -f "$deb" Maintainer)" ]] || fail "no Maintainer"
[[ -n "$(dpkg-deb -f "$deb" Description)" ]] || fail "no Description"
depends="$(dpkg-deb -f "$deb" Depends)"
echo "Depends: $depends"
# What the executable links must be named (found by dpkg-shlibdeps), plus GL by hand.
names=" $(sed -E 's/ *\([^)]*\)//g; s/,/ /g' <<<"$depends") "
for p in libsdl2-2.0-0 libzip4 libdeflate0 libstb0 libstdc++6 libc6 libgl1; do
    [[ "$names" == *" $p "* ]] || fail "Depends lacks $p"
done
dpkg-deb -c "$deb" >"$scratch/contents.txt"
for f in ./usr/bin/bspview ./usr/share/applications/bspview.desktop \
         ./usr/share/icons/hicolor/scalable/apps/bspview.svg \
         ./usr/share/mime/packages/bspview.xml ./usr/share/man/man1/bspview.1.gz; do
    grep -Fq " $f" "$scratch/contents.txt" || fail "$f not in the package"
done
dpkg -x "$deb" "$scratch/root"
bin="$scratch/root/usr/bin/bspview"
check_version "$bin" "$version" "$src"
(cd / && "$bin" "$maps/q3/bc_crypt.bsp" --info >"$scratch/info.json") ||
    fail "packaged bspview --info on bc_crypt.bsp failed"
grep -q '"format"' "$scratch/info.json" || fail "--info printed no format"
grep -q '"patch": 22' "$scratch/info.json" || fail "--info on bc_crypt.bsp: expected 22 patches"
check_default_map "$scratch/root/usr" "$maps/q3/bc_enemyTest.bsp" "$maps/q3/bc_crypt.bsp"
echo "PASS"
