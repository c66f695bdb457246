#!/usr/bin/env bash
# --info's sky_region on a real Source file given a sky_camera: tf2_test2 (which has none) with
# one appended to its entity lump (moved to the file's end, lump 0's header entry pointed at it,
# as tests/support/vbsp_patch.h does), then the region's origin, scale and fog read back; and
# the world's fog (--info `fog`) from an env_fog_controller appended the same way.
# Usage: info_sky_region_test.sh BSPVIEW WORKDIR TF2_TEST2_BSP
set -euo pipefail
bspview=$1 work=$2 map=$3
mkdir -p "$work"
python3 - "$map" "$work/tf2_test2_sky.bsp" <<'PY'
import struct, sys
b = bytearray(open(sys.argv[1], 'rb').read())
ofs, ln = struct.unpack_from('<ii', b, 8)
text = bytes(b[ofs:ofs + ln]).rstrip(b'\0') + (
    b'{\n"classname" "sky_camera"\n"origin" "-64 -512 -128"\n"scale" "16"\n'
    b'"fogenable" "1"\n"fogcolor" "255 0 0"\n"fogstart" "100"\n"fogend" "2000"\n}\n'
    b'{\n"classname" "env_fog_controller"\n"fogenable" "1"\n"fogcolor" "0 255 0"\n'
    b'"fogstart" "64"\n"fogend" "512"\n"fogradial" "1"\n}\n\0')
while len(b) % 4:
    b.append(0)
struct.pack_into('<ii', b, 8, len(b), len(text))
open(sys.argv[2], 'wb').write(b + text)
PY
json=$("$bspview" "$work/tf2_test2_sky.bsp" --info 2>/dev/null)
python3 - "$json" <<'PY'
import json, sys
r = json.loads(sys.argv[1])['sky_region']
assert r['origin'] == [-64, -512, -128], r
assert r['scale'] == 16, r
assert r['fog']['enabled'] and r['fog']['colour'] == [1, 0, 0], r
assert (r['fog']['start'], r['fog']['end']) == (100, 2000), r
assert not r['fog']['radial'], r
f = json.loads(sys.argv[1])['fog']
assert f['enabled'] and f['colour'] == [0, 1, 0] and f['radial'] and not f['blend'], f
assert (f['start'], f['end'], f['max_density']) == (64, 512, 1), f
PY
"$bspview" "$map" --info 2>/dev/null | grep -q '"sky_region": null'
"$bspview" "$map" --info 2>/dev/null | python3 -c "import json,sys; assert not json.load(sys.stdin)['fog']['enabled']"
echo "info_sky_region_test: ok"
