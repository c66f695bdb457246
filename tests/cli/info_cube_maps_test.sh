#!/usr/bin/env bash
# --info's cube_maps on a real Source file given a cubemaps lump: tf2_test2 (lump 42 empty, as in
# every shared map) with two dcubemapsample_t records (three ints and a size byte, padded to 16
# bytes) appended at the file's end and lump 42's header entry pointed at them; then a ragged
# lump of 20 bytes, which leaves the map open with no samples and one warning naming the lump.
# Usage: info_cube_maps_test.sh BSPVIEW WORKDIR TF2_TEST2_BSP
set -euo pipefail
bspview=$1 work=$2 map=$3
mkdir -p "$work"
python3 - "$map" "$work" <<'PY'
import struct, sys
src, work = sys.argv[1], sys.argv[2]
for name, lump in (('two', struct.pack('<iiiB3x', 64, -128, 256, 0) +
                           struct.pack('<iiiB3x', -1, 2, -3, 7)),
                   ('ragged', b'\1' * 20)):
    b = bytearray(open(src, 'rb').read())
    while len(b) % 4:
        b.append(0)
    struct.pack_into('<iii', b, 8 + 42 * 16, len(b), len(lump), 0)
    open(f'{work}/tf2_test2_{name}.bsp', 'wb').write(b + lump)
PY
"$bspview" "$map" --info 2>/dev/null | grep -q '"cube_maps": 0'
"$bspview" "$work/tf2_test2_two.bsp" --info 2>/dev/null | grep -q '"cube_maps": 2'
ragged=$("$bspview" "$work/tf2_test2_ragged.bsp" --info 2>/dev/null)
grep -q '"cube_maps": 0' <<<"$ragged"
[ "$(grep -c 'cubemaps: 20 bytes is not a multiple of 16; cube maps dropped' <<<"$ragged")" = 1 ]
echo "info_cube_maps_test: ok"
