#!/usr/bin/env bash
# --info's animated_textures on a real Source file: tf2_test2 (no proxy in any of its materials:
# 0) given a --base folder that holds two of its missing materials, DEV/REFLECTIVITY_40 with an
# AnimatedTexture proxy on its $basetexture, a 1 x 1 RGBA8888 VTF 7.2 of three frames, and
# DEV/REFLECTIVITY_50 naming the same texture with a fixed $frame 1 and no proxy (a still
# material): 1. Then the proxy without its frame var: 0, and one warning naming the material,
# the proxy and the key. proxy_materials: DEV/REFLECTIVITY_50 with a Sine proxy on $alpha (1, and
# still not animated), then the Sine without its resultVar (0, one warning).
# Usage: info_animated_textures_test.sh BSPVIEW WORKDIR TF2_TEST2_BSP
set -euo pipefail
bspview=$1 work=$2 map=$3
rm -rf "$work"
mkdir -p "$work/good/materials/dev" "$work/bad/materials/dev"
python3 - "$work" <<'PY'
import struct, sys
work = sys.argv[1]
# VTFFileHeader_t 7.2 (80 bytes): 1 x 1, flags 0, 3 frames, first frame 0, reflectivity,
# bumpmap scale, RGBA8888 (0), 1 mip, no thumbnail (-1), depth 1; then frame k's texel.
header = b'VTF\0' + struct.pack('<IIIHHIHH4x3f4xfiBiBBH', 7, 2, 80, 1, 1, 0, 3, 0,
                                   0, 0, 0, 1.0, 0, 1, -1, 0, 0, 1)
header += bytes(80 - len(header))
vtf = header + bytes([200, 0, 0, 255, 0, 200, 0, 255, 0, 0, 200, 255])
for d in ('good', 'bad'):
    open(f'{work}/{d}/materials/dev/anim.vtf', 'wb').write(vtf)
proxy = ('Proxies { AnimatedTexture { animatedtexturevar $basetexture %s '
         'animatedtextureframerate 4 } }')
open(f'{work}/good/materials/dev/reflectivity_40.vmt', 'w').write(
    'LightmappedGeneric { $basetexture dev/anim %s }' % (proxy % 'animatedtextureframenumvar $frame'))
open(f'{work}/good/materials/dev/reflectivity_50.vmt', 'w').write(
    'LightmappedGeneric { $basetexture dev/anim $frame 1 '
    'Proxies { Sine { resultVar $alpha sineperiod 2 } } }')
open(f'{work}/bad/materials/dev/reflectivity_50.vmt', 'w').write(
    'LightmappedGeneric { $basetexture dev/anim Proxies { Sine { sineperiod 2 } } }')
open(f'{work}/bad/materials/dev/reflectivity_40.vmt', 'w').write(
    'LightmappedGeneric { $basetexture dev/anim %s }' % (proxy % ''))
PY
export BSPV_TEXTURE_CACHE=off
plain=$("$bspview" "$map" --info 2>/dev/null)
grep -q '"animated_textures": 0' <<<"$plain"
grep -q '"proxy_materials": 0' <<<"$plain"
good=$("$bspview" "$map" --base "$work/good" --info 2>/dev/null)
grep -q '"animated_textures": 1' <<<"$good"
grep -q '"proxy_materials": 1' <<<"$good"
bad=$("$bspview" "$map" --base "$work/bad" --info 2>&1)
grep -q '"animated_textures": 0' <<<"$bad"
grep -q '"proxy_materials": 0' <<<"$bad"
[ "$(grep -c "materials/dev/reflectivity_50.vmt: Proxies Sine resultvar '': not a var of the material; the proxy is ignored" <<<"$bad")" = 1 ]
[ "$(grep -c 'materials/dev/reflectivity_40.vmt: Proxies AnimatedTexture animatedtextureframenumvar .*: missing; the proxy is ignored' <<<"$bad")" = 1 ]
echo "info_animated_textures_test: ok"
