#!/usr/bin/env python3
"""Every map we can install opens (issue 29): one shard of the corpus.

The corpus is every .bsp of the shared test data, the committed demo map, every map of the
Debian OpenArena packages (every copy in every pk3, also those a later pk3 overrides) and every
map of nexuiz-data. For each map of shard I of N (maps I, I + N, ...):

  bspview MAP --info                           exits 0 and prints JSON
  bspview MAP --screenshot OUT.png --size 160x90 --camera spawn
                                               exits 0, writes the PNG, "gl_errors": 0

(`--camera spawn` is the first spawn point, or an overview of a map without one.) Maps listed in
MUST_REFUSE must instead fail --info with an error naming the file. A missing package or folder
is a failure naming what to install, never a skip. Prints one line per map, then the count,
failures and time; exits 1 on any failure.

    corpus_test.py --bspview PATH --shard I --shards N --out DIR
                   [--shared DIR] [--demo FILE] [--openarena DIR] [--nexuiz PK3] [--list]
"""
import argparse
import glob
import json
import os
import subprocess
import sys
import time
import zipfile

# Shared maps that are damaged on purpose: the viewer must refuse them with an error.
MUST_REFUSE = {"q1/broken_lq_fw.bsp"}  # 12 bytes: a truncated header


def pk3_maps(game_dir):
    """Every maps/*.bsp member of a game folder's pk3s, also the copies a later pk3 overrides
    (OpenArena's pak1-maps.pk3:maps/aggressor.bsp, replaced by pak6-patch088.pk3's, is one)."""
    found = []
    for pk3 in sorted(glob.glob(os.path.join(game_dir, "*.pk3")),
                      key=lambda p: os.path.basename(p).lower()):
        with zipfile.ZipFile(pk3) as z:
            for member in sorted(z.namelist()):
                low = member.lower()
                if low.startswith("maps/") and low.endswith(".bsp") and low.count("/") == 1:
                    found.append("%s:%s" % (pk3, member))
    return found


def corpus(args):
    """(label, spec, must_refuse) for every map, in a fixed order; errors for what is absent."""
    maps, missing = [], []
    if not os.path.isdir(args.shared):
        missing.append("shared maps folder %s" % args.shared)
    else:
        for path in sorted(glob.glob(os.path.join(args.shared, "**", "*.bsp"), recursive=True)):
            rel = os.path.relpath(path, args.shared)
            maps.append(("shared/" + rel, path, rel in MUST_REFUSE))
    if not os.path.isfile(args.demo):
        missing.append("demo map %s" % args.demo)
    else:
        maps.append(("demo", args.demo, False))
    oa = []
    for game in sorted(glob.glob(os.path.join(args.openarena, "*"))):
        if os.path.isdir(game):
            oa += pk3_maps(game)
    if not oa:
        missing.append("OpenArena maps in %s (apt-get install openarena-data "
                       "openarena-085-data openarena-088-data openarena-oacmp1)" % args.openarena)
    maps += [("openarena/" + os.path.basename(s.split(":")[0]) + ":" + s.split(":", 1)[1], s, False)
             for s in oa]
    if not os.path.isfile(args.nexuiz):
        missing.append("%s (apt-get install nexuiz-data)" % args.nexuiz)
    else:
        with zipfile.ZipFile(args.nexuiz) as z:
            names = sorted(m for m in z.namelist()
                           if m.lower().startswith("maps/") and m.lower().endswith(".bsp"))
        maps += [("nexuiz/" + m, "%s:%s" % (args.nexuiz, m), False) for m in names]
    return maps, missing


def run(cmd, timeout):
    t0 = time.monotonic()
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
        return p.returncode, p.stdout, p.stderr, time.monotonic() - t0
    except subprocess.TimeoutExpired:
        return None, "", "timed out after %d s" % timeout, time.monotonic() - t0


def last_line(text):
    lines = [l for l in text.strip().splitlines() if l.strip()]
    return lines[-1] if lines else "(no output)"


def check_map(args, label, spec, must_refuse, out_png):
    """Returns (problem or None, summary text)."""
    rc, out, err, t_info = run([args.bspview, spec, "--info"], args.timeout)
    if must_refuse:
        if rc == 0:
            return "opened, but must be refused", ""
        if rc is None or "error" not in err:
            return "no clean error when refused: " + last_line(err), ""
        return None, "refused as it must be (%s)" % last_line(err)
    if rc != 0:
        return "--info exit %s: %s" % (rc, last_line(err)), ""
    try:
        info = json.loads(out)
    except ValueError as e:
        return "--info printed no JSON (%s)" % e, ""
    rc, out, err, t_shot = run([args.bspview, spec, "--screenshot", out_png, "--size", "160x90",
                                "--camera", "spawn"], args.timeout)
    if rc != 0:
        return "--screenshot exit %s: %s" % (rc, last_line(err)), ""
    try:
        shot = json.loads(out)
    except ValueError as e:
        return "--screenshot printed no JSON (%s)" % e, ""
    if shot.get("gl_errors") != 0:
        return "%s GL errors" % shot.get("gl_errors"), ""
    if not os.path.isfile(out_png) or os.path.getsize(out_png) == 0:
        return "no screenshot written", ""
    faces = info.get("faces", {})
    return None, "info %.2f s, shot %.2f s, %d faces (%d drawn), %d warnings, %d of %d " \
        "textures missing" % (t_info, t_shot, faces.get("total", 0) if isinstance(faces, dict)
                              else faces, shot.get("faces_drawn", 0),
                              len(info.get("warnings", [])), len(info.get("missing_textures", [])),
                              info.get("texture_names", 0))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--bspview", required=True)
    ap.add_argument("--shard", type=int, default=0)
    ap.add_argument("--shards", type=int, default=1)
    ap.add_argument("--out", required=True)
    here = os.path.dirname(os.path.abspath(__file__))
    root = os.path.dirname(os.path.dirname(here))
    ap.add_argument("--shared", default=os.path.join(root, "..", "shared", "maps"))
    ap.add_argument("--demo", default=os.path.join(root, "assets", "maps", "demo.bsp"))
    ap.add_argument("--openarena", default="/usr/share/games/openarena")
    ap.add_argument("--nexuiz", default="/usr/share/games/nexuiz/data/data.pk3")
    ap.add_argument("--timeout", type=int, default=120, help="seconds per bspview run")
    ap.add_argument("--list", action="store_true", help="print the corpus and exit")
    args = ap.parse_args()
    args.shared = os.path.normpath(args.shared)

    maps, missing = corpus(args)
    if args.list:
        for label, spec, refuse in maps:
            print("%s%s" % (spec, "  (must be refused)" if refuse else ""))
        print("%d maps" % len(maps))
        return 1 if missing else 0
    os.makedirs(args.out, exist_ok=True)
    mine = maps[args.shard::args.shards]
    failures = ["missing: " + m for m in missing]
    t0 = time.monotonic()
    for i, (label, spec, refuse) in enumerate(mine):
        png = os.path.join(args.out, "%03d_%s.png" % (args.shard + i * args.shards,
                                                      os.path.basename(spec).replace(":", "_")))
        problem, summary = check_map(args, label, spec, refuse, png)
        if problem:
            failures.append("%s: %s" % (label, problem))
            print("FAIL %s: %s" % (label, problem), flush=True)
        else:
            print("ok   %s: %s" % (label, summary), flush=True)
    elapsed = time.monotonic() - t0
    print("corpus shard %d of %d: %d of %d maps, %d failures, %.1f s" % (
        args.shard + 1, args.shards, len(mine), len(maps), len(failures), elapsed))
    for f in failures:
        print("  failure: " + f)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
