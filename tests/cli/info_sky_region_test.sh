#!/usr/bin/env bash
# --info's sky_region on a real Source file given a sky_camera: tf2_test2 (which has none) with
# one appended to its entity lump (moved to the file's end, lump 0's header entry pointed at it,
# as tests/support/vbsp_patch.h does), then the region's origin, scale and fog read back; and
# the world's fog (--info `fog`, with its `farz`) from an env_fog_controller appended the same
# way, a malformed farz warned about; the region's area is the area of the leaf at its origin
# (tf2_test2's room: area 1), null once a broken area-portals lump drops the areas.
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
    b'"fogstart" "64"\n"fogend" "512"\n"fogradial" "1"\n"farz" "1200"\n}\n\0')
while len(b) % 4:
    b.append(0)
struct.pack_into('<ii', b, 8, len(b), len(text))
open(sys.argv[2], 'wb').write(b + text)
PY
json=$("$bspview" "$work/tf2_test2_sky.bsp" --info 2>/dev/null)
python3 - "$json" "$map" <<'PY'
import json, struct, sys
r = json.loads(sys.argv[1])['sky_region']
assert r['origin'] == [-64, -512, -128], r
assert r['scale'] == 16, r
assert r['fog']['enabled'] and r['fog']['colour'] == [1, 0, 0], r
assert (r['fog']['start'], r['fog']['end']) == (100, 2000), r
assert not r['fog']['radial'], r
# The area of the leaf at the origin, found by walking the file's tree here: dnode_t (planenum,
# children[2] as int32 first, 32 bytes), dplane_t (normal, dist: 20 bytes), dleaf_t version 1
# (area in the low 9 bits of the u16 at 6, 32 bytes); Source SDK 2013 public/bspfile.h.
b = open(sys.argv[2], 'rb').read()
lump = lambda i: struct.unpack_from('<ii', b, 8 + 16 * i)
(po, _), (no, _), (lo, _) = lump(1), lump(5), lump(10)
node, o = 0, (-64.0, -512.0, -128.0)
while node >= 0:
    plane, front, back = struct.unpack_from('<iii', b, no + 32 * node)
    nx, ny, nz, d = struct.unpack_from('<ffff', b, po + 20 * plane)
    node = front if nx * o[0] + ny * o[1] + nz * o[2] - d >= 0 else back
area = struct.unpack_from('<H', b, lo + 32 * (-1 - node) + 6)[0] & 0x1ff
assert area == 1 and r['area'] == area, (area, r)
f = json.loads(sys.argv[1])['fog']
assert f['enabled'] and f['colour'] == [0, 1, 0] and f['radial'] and not f['blend'], f
assert (f['start'], f['end'], f['max_density']) == (64, 512, 1), f
assert f['farz'] == 1200, f
PY
# A farz that is not a number: read as atof reads it (its leading number) with a warning naming
# the key and the controller's entity index.
python3 - "$work/tf2_test2_sky.bsp" "$work/tf2_test2_farz.bsp" <<'PY'
import sys
b = open(sys.argv[1], 'rb').read()
assert b.count(b'"farz" "1200"') == 1
open(sys.argv[2], 'wb').write(b.replace(b'"farz" "1200"', b'"farz" "120x"'))
PY
json=$("$bspview" "$work/tf2_test2_farz.bsp" --info 2>/dev/null)
python3 - "$json" <<'PY'
import json, re, sys
d = json.loads(sys.argv[1])
assert d['fog']['farz'] == 120, d['fog']
w = [x for x in d['warnings'] if 'farz' in x]
assert len(w) == 1 and re.fullmatch(r'entity \d+ \(env_fog_controller\): key farz "120x" is not a '
                                    r'number; read as 120', w[0]), d['warnings']
PY
# A ragged area-portals lump (13 bytes, lump 21's header entry pointed at them): the map opens,
# the areas are dropped with one warning and the region has no area (nothing restricted).
python3 - "$work/tf2_test2_sky.bsp" "$work/tf2_test2_sky_ragged.bsp" <<'PY'
import struct, sys
b = bytearray(open(sys.argv[1], 'rb').read())
struct.pack_into('<ii', b, 8 + 21 * 16, len(b), 13)
open(sys.argv[2], 'wb').write(b + bytes(13))
PY
json=$("$bspview" "$work/tf2_test2_sky_ragged.bsp" --info 2>/dev/null)
python3 - "$json" <<'PY'
import json, sys
d = json.loads(sys.argv[1])
assert d['sky_region']['area'] is None, d['sky_region']
w = [x for x in d['warnings'] if 'areaportals' in x]
assert w == ['tf2_test2_sky_ragged.bsp: areaportals: 13 bytes is not a multiple of 12; no '
             'areas: the area views and area restrictions are off'], d['warnings']
PY
"$bspview" "$map" --info 2>/dev/null | grep -q '"sky_region": null'
"$bspview" "$map" --info 2>/dev/null | python3 -c "import json,sys; f = json.load(sys.stdin)['fog']; assert not f['enabled'] and f['farz'] == 0"
echo "info_sky_region_test: ok"
