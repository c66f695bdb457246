#!/usr/bin/env python3
"""Builds the libFuzzer seed corpora in OUT/<target>/ from the shared test maps (and, when
installed, a few OpenArena files). Nothing here is committed: run it before fuzzing.

    scripts/fuzz_corpus.py OUT [--maps DIR] [--openarena DIR]

load_map: every .bsp under the maps folder up to 1 MiB, a BSP2 conversion of a small
          Quake 1 map, that map with every BSPX lighting lump (bsp/bspx.h), and a Source map
          with LZMA-compressed lumps.
archive:  a small Quake .pak and small .pk3 files (stored and deflated members) made here
          from map and texture bytes.
image:    the shared .jpg textures, TGA (raw and RLE) and PNG made here, OpenArena icons.
entities: the entity lump of every map.
external_lightmap: 4x4 lightmap TGAs as q3map2 writes them (24-bit, bottom row first), one
          32-bit RLE one, and a PNG.
texture_cache: texture cache entry bodies (content::wrapTextureCacheBody) made here: kept
          pixels, omitted pixels, missing textures, glow images, strings.
leak_file: a dense .pts trail and a .lin polyline made here.
portal_file: every .prt under the maps folder, and PRT1-AM / PRT2 / q3map2 files made here.
walk_script: --walk-script files made here (every command, comments).
mdl:      LibreQuake's .mdl files under the maps folder (q1/progs) up to 64 KiB.
sprite:   LibreQuake's .spr files (Quake 1 version 1).
md2:      the .md2 files of Debian's assimp-testmodels, when installed, and a two-frame one
          made here.
sp2:      two-frame .sp2 sprites made here (Quake 2 has no free ones in the test data).
studio:   the Half-Life models of Debian's assimp-testmodels (--studio) up to 64 KiB, with
          their textures inside.
vtf:      the .vtf files in the Source maps' pakfile lumps (DXT5 and RGBA16161616F cube maps,
          7.4 to 7.6) and small 7.2 / 7.4 ones made here (BGRA8888 with 2 mips, DXT1).
vmt:      material files made here (comments, conditionals, nested blocks, a patch).
vpk:      VPK directory files made here (versions 1 and 2: a preload-only member, one in
          NAME_000.vpk, one split between preload bytes and the directory file's data).
md3:      OpenArena's item models from pak0.pk3 (one and several surfaces, tags, frames).
skin:     OpenArena's .skin files from pak0.pk3 (tag lines with and without commas, repeated
          surfaces) and one made here (comments, quotes, an empty shader).
brush_model: ew_q1_cube.bsp standing in for a Quake 1 item box (maps/b_*.bsp), as BSP 29
          and as BSP2.
"""
import argparse
import io
import lzma
import os
import shutil
import struct
import sys
import zipfile
import zlib


MAX_MAP_SEED = 1 << 20


def bsp_files(maps):
    out = []
    for root, _, files in os.walk(maps):
        for f in sorted(files):
            if f.lower().endswith(".bsp"):
                out.append(os.path.join(root, f))
    return sorted(out)


def entity_lump(data):
    """The entities lump (lump 0) of any supported format, or None."""
    if len(data) < 16:
        return None
    magic = data[:4]
    if magic == b"VBSP":
        off, length, _, _ = struct.unpack_from("<iiii", data, 8)
        if off == 0:  # Left 4 Dead 2 order: version, offset, length, fourCC
            _, off, length, _ = struct.unpack_from("<iiii", data, 8)
        return data[off:off + length] if off > 0 and length > 0 else None
    if magic in (b"IBSP", b"FBSP"):
        start = 8
    else:
        start = 4  # Quake 1 / Half-Life version, or BSP2 / 2PSB magic
    off, length = struct.unpack_from("<ii", data, start)
    if off < 0 or length <= 0 or off + length > len(data):
        return None
    return data[off:off + length]


def vbsp_with_lzma_lumps(data, lumps=(1, 7, 8)):
    """Rewrites a Source map with some lumps LZMA-compressed as Valve's tools store them (17-byte
    header: "LZMA", actual size, compressed size, the five LZMA1 properties), appended at the end,
    so the fuzzer reaches the decoder (no shared map has compressed lumps)."""
    out = bytearray(data)
    for i in lumps:
        off, length, version, _ = struct.unpack_from("<iiii", data, 8 + 16 * i)
        if length <= 0:
            continue
        alone = lzma.compress(data[off:off + length], format=lzma.FORMAT_ALONE)
        body = alone[13:]  # .lzma: 5 property bytes, 8-byte size, then the stream
        block = b"LZMA" + struct.pack("<II", length, len(body)) + alone[:5] + body
        while len(out) % 4:
            out.append(0)
        struct.pack_into("<iiii", out, 8 + 16 * i, len(out), len(block), version, length)
        out += block
    return bytes(out)


def bsp29_to_bsp2(data, rmq=False):
    """Rewrites a Quake 1 BSP29 file as BSP2 (32-bit indices, float bounds) or, with rmq, as
    2PSB (32-bit indices, 16-bit bounds), so the fuzzer gets small seeds of both (the only real
    BSP2 map is 3 MB, too slow to mutate; there is no 2PSB one)."""
    lumps = [struct.unpack_from("<ii", data, 4 + 8 * i) for i in range(15)]
    def records(i, size):
        off, length = lumps[i]
        return [data[off + k:off + k + size] for k in range(0, length - length % size, size)]
    conv = {}
    bounds = "3h3h" if rmq else "3f3f"
    conv[5] = b"".join(struct.pack("<iii" + bounds + "II", *struct.unpack("<ihh3h3hHH", n))
                       for n in records(5, 24))
    conv[9] = b"".join(struct.pack("<iii", *struct.unpack("<ihh", c)) for c in records(9, 8))
    conv[10] = b"".join(struct.pack("<ii" + bounds + "II4B", *struct.unpack("<ii3h3hHH4B", l))
                        for l in records(10, 28))
    conv[7] = b"".join(struct.pack("<iiiii4Bi", *struct.unpack("<HHiHH4Bi", f))
                       for f in records(7, 20))
    conv[12] = b"".join(struct.pack("<II", *struct.unpack("<HH", e)) for e in records(12, 4))
    conv[11] = b"".join(struct.pack("<I", *struct.unpack("<H", m)) for m in records(11, 2))
    out = bytearray((b"2PSB" if rmq else b"BSP2") + b"\0" * (15 * 8))
    for i, (off, length) in enumerate(lumps):
        body = conv.get(i, data[off:off + length])
        while len(out) % 4:
            out.append(0)
        struct.pack_into("<ii", out, 4 + 8 * i, len(out), len(body))
        out += body
    return bytes(out)


def with_bspx_lighting(data):
    """A BSP29 map with its BSPX block replaced by one of every lighting lump bsp/bspx.h reads,
    sized for its faces: LMSHIFT, LMOFFSET, LMSTYLE, LMSTYLE16, DECOUPLED_LM (3x2 grids),
    LIGHTING_E5BGR9 (64 samples of 1.0), LIGHTINGDIR and RGBLIGHTING to match."""
    end = 0
    for i in range(15):
        ofs, length = struct.unpack_from("<ii", data, 4 + i * 8)
        end = max(end, ofs + length)
    end = (end + 3) & ~3
    faces = struct.unpack_from("<i", data, 4 + 7 * 8 + 4)[0] // 20
    samples = 64
    decoupled = b"".join(struct.pack("<HHi8f", 3, 2, (f * 6) % samples, 1 / 16, 0, 0, 0,
                                     0, 1 / 16, 0, 0) for f in range(faces))
    lumps = [
        (b"LMSHIFT", bytes([4, 3] * faces)[:faces]),
        (b"LMOFFSET", b"".join(struct.pack("<i", (f * 6) % samples) for f in range(faces))),
        (b"LMSTYLE", bytes([0, 255] * faces)),
        (b"LMSTYLE16", struct.pack("<" + "H" * 2 * faces, *([0, 300] * faces))),
        (b"DECOUPLED_LM", decoupled),
        (b"LIGHTING_E5BGR9", struct.pack("<I", (16 << 27) | (256 << 18) | (256 << 9) | 256)
         * samples),
        (b"LIGHTINGDIR", bytes([128, 128, 255]) * samples),
        (b"RGBLIGHTING", bytes([128]) * 3 * samples),
    ]
    out = bytearray(data[:end])
    out += b"\0" * (end - len(out))
    out += b"BSPX" + struct.pack("<i", len(lumps))
    at = len(out) + 32 * len(lumps)
    payload = bytearray()
    for name, body in lumps:
        out += name.ljust(24, b"\0") + struct.pack("<ii", at + len(payload), len(body))
        payload += body + b"\0" * (-len(body) % 4)
    return bytes(out + payload)


def make_pak(members):
    body = io.BytesIO()
    body.write(b"\0" * 12)
    entries = []
    for name, data in members:
        entries.append((name, body.tell(), len(data)))
        body.write(data)
    dir_offset = body.tell()
    for name, pos, length in entries:
        body.write(name.encode()[:55].ljust(56, b"\0"))
        body.write(struct.pack("<ii", pos, length))
    out = bytearray(body.getvalue())
    out[0:12] = b"PACK" + struct.pack("<ii", dir_offset, len(entries) * 64)
    return bytes(out)


def make_zip(members, compression):
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", compression=compression) as z:
        for name, data in members:
            z.writestr(name, data)
    return buf.getvalue()


def make_tga(width, height, rle):
    pixels = bytes((x * 37 + y * 11) & 0xFF for y in range(height) for x in range(width * 4))
    header = struct.pack("<BBBHHBHHHHBB", 0, 0, 10 if rle else 2, 0, 0, 0, 0, 0,
                         width, height, 32, 8)
    if not rle:
        return header + pixels
    body = bytearray()
    for i in range(0, len(pixels), 4):  # one raw packet per pixel: simple and valid
        body.append(0)
        body += pixels[i:i + 4]
    return header + bytes(body)


def make_png(width, height):
    def chunk(kind, data):
        return (struct.pack(">I", len(data)) + kind + data +
                struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF))
    raw = b"".join(b"\0" + bytes((x * 50 + y * 20) & 0xFF for x in range(width * 3))
                   for y in range(height))
    return (b"\x89PNG\r\n\x1a\n" +
            chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)) +
            chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b""))


def cache_body(textures):
    """An entry body as content::encodeTextureCache lays it out after the key: the count, then
    per texture its flags (1 missing, 2 pixels omitted), five strings and two images."""
    def u32(v):
        return struct.pack("<I", v)

    def string(s):
        return u32(len(s)) + s

    def image(w, h, fill):
        return u32(w) + u32(h) + bytes([fill]) * (w * h * 4)

    out = u32(len(textures))
    for flags, (w, h), (gw, gh) in textures:
        out += u32(flags)
        out += string(b"textures/a.jpg") + string(b"pak0.pk3") + string(b"") + \
            string(b"scripts/a.shader") + string(b"textures/a")
        out += image(w, h, 0x40) + image(gw, gh, 0x80)
    return out


def pakfile_members(data):
    """(name, bytes) of the members of a Source map's pakfile lump (40), either directory order."""
    if data[:4] != b"VBSP":
        return []
    for first in (8 + 40 * 16, 8 + 40 * 16 + 4):  # Valve's order, then Left 4 Dead 2's
        offset, length = struct.unpack_from("<ii", data, first)
        if 0 < length and 0 <= offset and offset + length <= len(data) and \
                data[offset:offset + 2] == b"PK":
            try:
                z = zipfile.ZipFile(io.BytesIO(data[offset:offset + length]))
                return [(i.filename, z.read(i)) for i in z.infolist()]
            except zipfile.BadZipFile:
                return []
    return []


def make_vpk(version):
    """A NAME_dir.vpk (content/vpk.h): three members, one extension node each."""
    files = (("vmt", "materials/brick", "wall", b"VMT!", 0x7fff, b""),
             ("vtf", "materials/brick", "wall", b"", 0, b"VTFDA"),
             ("txt", " ", "readme", b"ab", 0x7fff, b"cde"))
    tree, embedded, archive0 = b"", b"", b""
    for ext, path, name, preload, archive, data in files:
        offset = len(embedded) if archive == 0x7fff else len(archive0)
        if archive == 0x7fff:
            embedded += data
        else:
            archive0 += data
        tree += ext.encode() + b"\0" + path.encode() + b"\0" + name.encode() + b"\0"
        tree += struct.pack("<IHHIIH", zlib.crc32(preload + data), len(preload), archive,
                            offset, len(data), 0xffff) + preload + b"\0\0"
    tree += b"\0"
    header = struct.pack("<III", 0x55aa1234, version, len(tree))
    if version == 2:
        header += struct.pack("<IIII", len(embedded), 0, 48, 0)
    return header + tree + embedded + (bytes(48) if version == 2 else b"")


def make_vtf(width, height, fmt, mips, minor, payload):
    """A VTF 7.2 (80-byte header, no thumbnail) or 7.3+ (one high-res resource entry)."""
    header = 80 if minor < 3 else 88
    h = bytearray(header)
    h[0:4] = b"VTF\0"
    struct.pack_into("<IIIHHIHH", h, 4, 7, minor, header, width, height, 0, 1, 0)
    struct.pack_into("<iBiBBH", h, 52, fmt, mips, -1, 0, 0, 1)
    if minor >= 3:
        struct.pack_into("<I", h, 68, 1)
        h[80:88] = bytes((0x30, 0, 0, 0)) + struct.pack("<I", header)
    return bytes(h) + payload


def make_md2():
    """A two-frame .md2 as tests/support/md2_builder.h makes it (content/model/md2.h layout)."""
    skins, st, tris = 68, 68 + 64, 68 + 64 + 16
    frames = tris + 24
    end = frames + 2 * 56
    out = struct.pack("<4s16i", b"IDP2", 8, 4, 2, 56, 1, 4, 4, 2, 0, 2, skins, st, tris,
                      frames, end, end)
    out += struct.pack("<64s", b"models/test/skin.pcx")
    out += struct.pack("<8h", 0, 0, 4, 0, 4, 2, 2, 1)
    out += struct.pack("<12h", 0, 1, 2, 0, 1, 2, 0, 2, 3, 3, 2, 0)
    for f, name in enumerate((b"stand01", b"run01")):
        out += struct.pack("<6f16s", 2, 0.5, 1, -10, 4, 8, name)
        for v, (x, y) in enumerate(((0, 0), (10, 0), (10, 20), (0, 20))):
            out += bytes((x, y, 0 if f == 0 else 255 if v == 3 else 5, (5, 0, 5, 84)[v]))
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("out")
    here = os.path.dirname(os.path.abspath(__file__))
    ap.add_argument("--maps", default=os.path.join(here, "..", "..", "shared", "maps"))
    ap.add_argument("--openarena", default="/usr/share/games/openarena/baseoa")
    ap.add_argument("--studio", default="/usr/share/assimp/models/MDL/MDL (HL1)")
    args = ap.parse_args()

    maps = bsp_files(args.maps)
    if not maps:
        sys.exit("no .bsp files under " + args.maps)
    dirs = {t: os.path.join(args.out, t)
            for t in ("load_map", "external_lightmap", "archive", "image", "entities",
                      "texture_cache", "leak_file", "portal_file", "walk_script", "mdl",
                      "sprite", "vtf", "vmt", "vpk", "md3", "skin", "md2", "sp2", "studio",
                      "brush_model")}
    for d in dirs.values():
        os.makedirs(d, exist_ok=True)

    small_map = None
    for m in maps:
        with open(m, "rb") as f:
            data = f.read()
        name = os.path.basename(m)
        # Multi-megabyte seeds cut the fuzzer to a few dozen runs a second; the mutation tests
        # (tests/robust) cover the large maps instead.
        if len(data) <= MAX_MAP_SEED:
            shutil.copyfile(m, os.path.join(dirs["load_map"], name))
        if name == "ew_q1_cube.bsp":
            with open(os.path.join(dirs["load_map"], "ew_q1_cube_bsp2.bsp"), "wb") as f:
                f.write(bsp29_to_bsp2(data))
            with open(os.path.join(dirs["load_map"], "ew_q1_cube_2psb.bsp"), "wb") as f:
                f.write(bsp29_to_bsp2(data, rmq=True))
            with open(os.path.join(dirs["load_map"], "ew_q1_cube_bspx_lighting.bsp"), "wb") as f:
                f.write(with_bspx_lighting(data))
            # An item box is a small Quake 1 map; the cube stands in for one (b_*.bsp).
            shutil.copyfile(m, os.path.join(dirs["brush_model"], "b_cube.bsp"))
            with open(os.path.join(dirs["brush_model"], "b_cube_bsp2.bsp"), "wb") as f:
                f.write(bsp29_to_bsp2(data))
        if name == "tf2_mp_lobby.bsp":
            with open(os.path.join(dirs["load_map"], "tf2_mp_lobby_lzma.bsp"), "wb") as f:
                f.write(vbsp_with_lzma_lumps(data))
        ent = entity_lump(data)
        if ent:
            with open(os.path.join(dirs["entities"], name + ".ent"), "wb") as f:
                f.write(ent)
        if small_map is None or len(data) < len(small_map):
            small_map = data

    images = []
    for root, _, files in os.walk(args.maps):
        for f in sorted(files):
            if f.lower().endswith((".jpg", ".tga", ".png")):
                with open(os.path.join(root, f), "rb") as fh:
                    images.append((f, fh.read()))
    images += [("raw.tga", make_tga(8, 4, False)), ("rle.tga", make_tga(8, 4, True)),
               ("small.png", make_png(8, 4))]
    for archive, member in (("pak0.pk3", "icons/icona_blue.png"),
                            ("pak0.pk3", "gfx/2d/defer.tga"),
                            ("pak0.pk3", "models/weapons2/railgun/f_railgun3.jpg")):
        path = os.path.join(args.openarena, archive)
        if os.path.exists(path):
            with zipfile.ZipFile(path) as z:
                images.append((os.path.basename(member), z.read(member)))
    md3_members = ("models/powerups/ammo/rocketam.md3", "models/powerups/armor/armor_red.md3",
                   "models/powerups/health/medium_cross.md3",
                   "models/weapons2/rocketl/rocketl.md3")
    pak0 = os.path.join(args.openarena, "pak0.pk3")
    if os.path.exists(pak0):
        with zipfile.ZipFile(pak0) as z:
            for member in md3_members:
                with open(os.path.join(dirs["md3"], os.path.basename(member)), "wb") as f:
                    f.write(z.read(member))
            for member in ("models/players/sarge/upper_default.skin",
                           "models/players/sarge/head_default.skin", "models/flags/flag.skin"):
                with open(os.path.join(dirs["skin"], os.path.basename(member)), "wb") as f:
                    f.write(z.read(member))
    with open(os.path.join(dirs["skin"], "made.skin"), "wb") as f:
        f.write(b'// made here\n/* a, b */ "Flag Pole","models/x y.tga"\nu_arm,\nu_leg,models/l\n')
    for name, data in images:
        with open(os.path.join(dirs["image"], name), "wb") as f:
            f.write(data)

    # One lm_0001 among valid 4x4 ones (fuzz::runExternalLightmap): the right size first.
    q3map2_tga = struct.pack("<BBBHHBHHHHBB", 0, 0, 2, 0, 0, 0, 0, 0, 4, 4, 24, 0) + \
        bytes((i * 5) & 0xFF for i in range(4 * 4 * 3))
    for name, data in (("q3map2.tga", q3map2_tga), ("rle32.tga", make_tga(4, 4, True)),
                       ("small.png", make_png(4, 4))):
        with open(os.path.join(dirs["external_lightmap"], name), "wb") as f:
            f.write(data)

    members = [("maps/small.bsp", small_map[:4096]), ("textures/a.tga", make_tga(8, 4, False)),
               ("scripts/x.shader", b"textures/x\n{\n\tsurfaceparm nodraw\n}\n")]
    with open(os.path.join(dirs["archive"], "small.pak"), "wb") as f:
        f.write(make_pak(members))
    with open(os.path.join(dirs["archive"], "stored.pk3"), "wb") as f:
        f.write(make_zip(members, zipfile.ZIP_STORED))
    with open(os.path.join(dirs["archive"], "deflated.pk3"), "wb") as f:
        f.write(make_zip(members, zipfile.ZIP_DEFLATED))

    bodies = {
        "kept.body": [(0, (4, 2), (0, 0))],
        "glow.body": [(0, (2, 2), (2, 2))],
        "omitted_missing.body": [(2, (0, 0), (0, 0)), (1 | 2, (0, 0), (0, 0))],
        "mixed.body": [(0, (8, 8), (0, 0)), (2, (0, 0), (0, 0)), (0, (1, 1), (1, 1))],
    }
    for name, textures in bodies.items():
        with open(os.path.join(dirs["texture_cache"], name), "wb") as f:
            f.write(cache_body(textures))

    trail = "".join("%f %f %f\n" % (i * 2.0, 0.0, 8.0) for i in range(40))
    trail += "".join("%f %f %f\n" % (78.0, i * 2.0, 8.0 + i) for i in range(1, 40))
    seeds = {
        "leak_file": {"trail.pts": trail,
                      "portals.lin": "-96.000000 32.500000 16.000000\r\n"
                                     "-96.000000 32.500000 80.000000\r\n"
                                     "128.000000 32.500000 80.000000\r\n"},
        "walk_script": {"all.txt": "# every command\nforward 1.5\nturn -90  # right\nleft 0.25\n"
                                   "jump\nup 0.5\ncrouch 0.5\nback 0.1\nright 1\nwait 2\n",
                        "short.txt": "turn 180\nforward 1\nright 0.5\njump\nwait 1\n"},
        "portal_file": {
            "prt1am.prt": "PRT1-AM\n2\n1\n3\n4 0 1 (0 0 0) (0 64 0) (0 64 64) (0 0 64)\n0\n0\n1\n",
            "prt2.prt": "PRT2\n3\n2\n1\n4 1 0 (0 0 0) (0 64 0) (0 64 64) (0 0 64)\n0 2 -1\n1 -1\n",
            "q3hint.prt": "PRT1\n2\n1\n1\n3 0 1 1 (0 0 0 ) (0 8 0 ) (0 8 8 ) \n"
                          "3 1 (1 2 3 ) (4 5 6 ) (7 8 9 ) \n",
        },
    }
    for target, files in seeds.items():
        for name, text in files.items():
            with open(os.path.join(dirs[target], name), "w", newline="") as f:
                f.write(text)
    for root, _, files in os.walk(args.maps):
        for f in sorted(files):
            if f.lower().endswith(".prt"):
                shutil.copyfile(os.path.join(root, f), os.path.join(dirs["portal_file"], f))
            path = os.path.join(root, f)
            if f.lower().endswith(".mdl") and os.path.getsize(path) <= 64 * 1024:
                shutil.copyfile(path, os.path.join(dirs["mdl"], f))
            if f.lower().endswith(".spr"):
                shutil.copyfile(path, os.path.join(dirs["sprite"], f))
    # Half-Life models: the companions ("T" textures, "NN" sequence groups) are not models.
    for root, _, files in os.walk(args.studio):
        for f in sorted(files):
            path = os.path.join(root, f)
            stem = f[:-4]
            if (f.lower().endswith(".mdl") and not stem.endswith("T")
                    and not stem[-2:].isdigit() and os.path.getsize(path) <= 64 * 1024):
                shutil.copyfile(path, os.path.join(dirs["studio"], f))

    assimp_md2 = "/usr/share/assimp/models/MD2"
    if os.path.isdir(assimp_md2):
        for f in sorted(os.listdir(assimp_md2)):
            if f.lower().endswith(".md2"):
                shutil.copyfile(os.path.join(assimp_md2, f), os.path.join(dirs["md2"], f))
    with open(os.path.join(dirs["md2"], "two_frames.md2"), "wb") as f:
        f.write(make_md2())
    for name, frames in (("one.sp2", [(8, 4, 4, 2, b"sprites/a.pcx")]),
                         ("two.sp2", [(8, 4, 4, 2, b"sprites/a.pcx"), (2, 2, 0, 0, b"b.pcx")])):
        with open(os.path.join(dirs["sp2"], name), "wb") as f:
            f.write(struct.pack("<4sii", b"IDS2", 2, len(frames)) +
                    b"".join(struct.pack("<4i64s", *fr) for fr in frames))

    for m in maps:
        with open(m, "rb") as f:
            for name, data in pakfile_members(f.read()):
                if name.lower().endswith(".vtf"):
                    out = os.path.basename(m)[:-4] + "_" + os.path.basename(name)
                    with open(os.path.join(dirs["vtf"], out), "wb") as g:
                        g.write(data)
    for name, data in (("bgra8888_2mips.vtf", make_vtf(2, 2, 12, 2, 2, bytes(range(20)))),
                       ("dxt1_74.vtf", make_vtf(4, 4, 13, 1, 4,
                                                bytes((0, 0xf8, 0x1f, 0, 0, 0x55, 0xaa, 0xff))))):
        with open(os.path.join(dirs["vtf"], name), "wb") as f:
            f.write(data)
    vmts = {
        "lightmapped.vmt": '// comment\n"LightmappedGeneric"\n{\n\t"$basetexture" "brick/wall"\n'
                           '\t$translucent 1\n\t"$envmap" "env_cubemap" [$X360]\n'
                           '\t"$nocull" "1" [!$X360 && $WIN32]\n'
                           '\t"Proxies" { "AnimatedTexture" { "animatedtexturevar" "$basetexture" } }\n}\n',
        "patch.vmt": 'patch\n{\n\tinclude "materials/fuzz.vmt"\n\tinsert { $additive 1 }\n'
                     '\treplace { $basetexture other }\n}\n',
        "wvt.vmt": 'WorldVertexTransition { $basetexture a $basetexture2 b $alphatest 1 $selfillum 1 }',
    }
    for name, text in vmts.items():
        with open(os.path.join(dirs["vmt"], name), "w", newline="") as f:
            f.write(text)

    for version in (1, 2):
        with open(os.path.join(dirs["vpk"], "v%d_dir.vpk" % version), "wb") as f:
            f.write(make_vpk(version))

    for t, d in dirs.items():
        print("%-9s %3d seed files in %s" % (t, len(os.listdir(d)), d))


if __name__ == "__main__":
    main()
