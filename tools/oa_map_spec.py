#!/usr/bin/env python3
"""Prints the bspview map spec (ARCHIVE.pk3:maps/NAME.bsp) of an installed OpenArena map: the
copy the engine loads, i.e. the one in the pk3 that sorts last (later pk3s override earlier).

    tools/oa_map_spec.py oa_dm1 [BASEOA_DIR]
"""
import glob
import os
import sys
import zipfile


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    name = "maps/%s.bsp" % sys.argv[1].lower()
    base = sys.argv[2] if len(sys.argv) > 2 else "/usr/share/games/openarena/baseoa"
    best = None
    pk3s = sorted(glob.glob(os.path.join(base, "*.pk3")), key=lambda p: os.path.basename(p).lower())
    for pk3 in pk3s:
        with zipfile.ZipFile(pk3) as z:
            for member in z.namelist():
                if member.lower() == name:
                    best = "%s:%s" % (pk3, member)
    if not best:
        sys.exit("oa_map_spec: %s not found in %s" % (name, base))
    print(best)


if __name__ == "__main__":
    main()
