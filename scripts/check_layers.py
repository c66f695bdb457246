#!/usr/bin/env python3
"""Checks that no file in src/ includes a folder above its own (docs/architecture.md, Layers).

Every `#include "folder/..."` of a file in src/LIB/ (or src/LIB/SUB/) must name a library (or
sub-folder) that LIB (SUB) may use. The include path is src/ for every library, so the compiler
does not catch an upward include; linking catches some (test_physics links physics alone),
this catches the rest. Run by CTest as `layers_check`; exit status 1 lists every violation.

usage: check_layers.py [SRC_DIR]
"""
import os
import re
import sys

# What each library may include besides itself: core <- bsp <- game <- content <- scene <-
# {export, render} <- app, and physics beside content on bsp alone (scene uses it). A folder of
# src/ missing from this table is an error, so a new library states its place here.
LIBRARIES = {
    "core": set(),
    "bsp": {"core"},
    "game": {"core", "bsp"},
    "physics": {"core", "bsp"},
    "content": {"core", "bsp", "game"},
    "scene": {"core", "bsp", "game", "content", "physics"},
    "export": {"core", "bsp", "game", "content", "physics", "scene"},
    "render": {"core", "bsp", "game", "content", "physics", "scene"},
    "app": {"core", "bsp", "game", "content", "physics", "scene", "export", "render"},
}

# Sub-folders of one library and the sub-folders of the same library each may include. Files
# directly in the library's folder (none in content/ and scene/ since the model files moved to
# content/model/ and scene/models/) are not constrained, and every sub-folder may include them.
SUBFOLDERS = {
    "content": {
        "image": set(),
        "compile": set(),
        "vfs": {"image"},  # wad.h hands out miptex records
        "material": {"image", "vfs"},
        "model": {"image", "vfs", "material"},
    },
    "scene": {
        "world": set(),
        "view": {"world", "models"},  # visibility culls the models' instances
        "debug": {"world", "view"},
        "load": {"world", "view", "models"},
        "models": {"world", "view", "debug", "load"},
    },
}

INCLUDE = re.compile(r'^\s*#\s*include\s+"([a-z_]+)/(?:([a-z_]+)/)?[^"]*"', re.M)


def check_file(path, lib, sub):
    problems = []
    with open(path, encoding="utf-8", errors="replace") as f:
        text = f.read()
    for match in INCLUDE.finditer(text):
        target, target_sub = match.group(1), match.group(2)
        line = text.count("\n", 0, match.start()) + 1
        if target not in LIBRARIES:
            continue  # third-party headers with a folder ("glm/...", "SDL2/...")
        if target != lib:
            if target not in LIBRARIES[lib]:
                problems.append(f"{path}:{line}: {lib} includes {target} (above it)")
            continue
        subs = SUBFOLDERS.get(lib, {})
        if sub is None or target_sub is None or target_sub not in subs or target_sub == sub:
            continue
        if target_sub not in subs.get(sub, set()):
            problems.append(f"{path}:{line}: {lib}/{sub} includes {lib}/{target_sub}")
    return problems


def main():
    src = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..", "src")
    problems = []
    checked = 0
    for lib in sorted(os.listdir(src)):
        root = os.path.join(src, lib)
        if not os.path.isdir(root):
            continue
        if lib not in LIBRARIES:
            problems.append(f"{root}: library unknown to check_layers.py")
            continue
        for folder, _, names in os.walk(root):
            rel = os.path.relpath(folder, root)
            sub = None if rel == "." else rel.split(os.sep)[0]
            if sub is not None and sub not in SUBFOLDERS.get(lib, {}):
                problems.append(f"{folder}: sub-folder unknown to check_layers.py")
                continue
            for name in sorted(names):
                if name.endswith((".h", ".cpp")):
                    checked += 1
                    problems += check_file(os.path.join(folder, name), lib, sub)
    for p in problems:
        print(p)
    print(f"{checked} files checked, {len(problems)} problems")
    return 1 if problems or checked == 0 else 0


if __name__ == "__main__":
    sys.exit(main())
