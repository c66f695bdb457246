#!/usr/bin/env bash
# The shared-mime-info definition: well-formed XML, accepted by update-mime-database, and
# recognising every BSP family by magic alone (no .bsp name) and any *.bsp by name.
#   mime_test.sh MIME_XML SCRATCH SHARED_MAPS_DIR
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
xml="$1" scratch="$2" maps="$3"
need xmllint libxml2-utils
need update-mime-database shared-mime-info
need gio libglib2.0-bin
xmllint --noout "$xml" || fail "xmllint rejects $xml"
rm -rf "$scratch"
mkdir -p "$scratch/data/mime/packages" "$scratch/files"
cp "$xml" "$scratch/data/mime/packages/"
out="$(update-mime-database -V "$scratch/data/mime" 2>&1)" || fail "update-mime-database: $out"
grep -qi "warn\|error\|invalid" <<<"$out" && fail "update-mime-database complains: $out"
grep -q "application/x-bsp" "$scratch/data/mime/types" || fail "type not in the database"
content_type() {
    XDG_DATA_HOME="$scratch/data" XDG_DATA_DIRS="$scratch/data:/usr/share" \
        gio info -a standard::content-type "$1" | sed -n 's/.*standard::content-type: //p'
}
# One map per magic: IBSP 46 and 38, FBSP, BSP2, 29, 30.
for m in q3/bc_crypt.bsp q2/aq_wizs.bsp q3/fbsp_nuclide_func_chargers.bsp q1bsp2/lq_lq1m1.bsp \
         q1/lq_start.bsp hl/cs_fy_pool_day.bsp; do
    [[ -f "$maps/$m" ]] || fail "test map $maps/$m missing"
    plain="$scratch/files/$(basename "$m" .bsp)"
    head -c 4096 "$maps/$m" >"$plain"
    t="$(content_type "$plain")"
    [[ "$t" == application/x-bsp ]] || fail "$m without its name: '$t'"
    echo "magic $(head -c 4 "$plain" | od -An -c | tr -s ' '): $t"
done
# 2PSB (RMQ's BSP2 variant) has no shared map: a synthetic header.
{ printf '2PSB'; head -c 1020 /dev/zero; } >"$scratch/files/rmq"
[[ "$(content_type "$scratch/files/rmq")" == application/x-bsp ]] || fail "2PSB magic"
printf 'not a map at all\n' >"$scratch/files/notes"
[[ "$(content_type "$scratch/files/notes")" != application/x-bsp ]] || fail "text file is a bsp"
printf '\x2e\x00\x00\x00rest' >"$scratch/files/version46"
[[ "$(content_type "$scratch/files/version46")" != application/x-bsp ]] ||
    fail "a bare 46 at offset 0 is not a BSP magic"
head -c 64 /dev/zero >"$scratch/files/empty.bsp"
[[ "$(content_type "$scratch/files/empty.bsp")" == application/x-bsp ]] || fail "*.bsp glob"
echo "PASS"
