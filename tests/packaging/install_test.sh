#!/usr/bin/env bash
# cmake --install into a scratch prefix; every installed file is where desktops and man look,
# and the installed executable finds its data from any working directory.
#   install_test.sh BUILD_DIR SCRATCH VERSION SOURCE_DIR SHARED_MAPS_DIR
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
build="$1" scratch="$2" version="$3" src="$4" maps="$5"
rm -rf "$scratch"
mkdir -p "$scratch"
prefix="$scratch/prefix"
"${CMAKE:-cmake}" --install "$build" --prefix "$prefix" >"$scratch/install.log" ||
    fail "cmake --install failed: $(cat "$scratch/install.log")"
for f in bin/bspview share/applications/bspview.desktop \
         share/icons/hicolor/scalable/apps/bspview.svg share/mime/packages/bspview.xml \
         share/man/man1/bspview.1.gz; do
    [[ -f "$prefix/$f" ]] || fail "$f not installed"
done
[[ -x "$prefix/bin/bspview" ]] || fail "bin/bspview is not executable"
if [[ -d "$src/assets" ]]; then
    # The whole assets/ tree, file for file.
    while IFS= read -r -d '' f; do
        rel="${f#"$src/assets/"}"
        cmp -s "$f" "$prefix/share/bspview/$rel" || fail "assets/$rel not installed"
    done < <(find "$src/assets" -type f -print0)
fi
zcat "$prefix/share/man/man1/bspview.1.gz" | cmp -s - "$src/packaging/bspview.1" ||
    fail "installed manual page differs from packaging/bspview.1"
check_version "$prefix/bin/bspview" "$version" "$src"
check_default_map "$prefix" "$maps/q3/bc_enemyTest.bsp" "$maps/q3/bc_crypt.bsp"
# Through a symbolic link, as from a PATH folder: the data is found beside the real binary.
mkdir -p "$scratch/linkbin"
ln -s "$prefix/bin/bspview" "$scratch/linkbin/bspview"
(cd / && "$scratch/linkbin/bspview" --info >/dev/null) || fail "--info through a symlink failed"
echo "PASS"
