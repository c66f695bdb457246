#!/usr/bin/env python3
"""Builds the libFuzzer seed corpora in OUT/<target>/, one folder per row of fuzz/targets.def,
from each row's inputs: files from the shared test maps, OpenArena's archives (when installed)
and Debian's assimp-testmodels, and seeds made here (SEED_MAKERS, named "seed:NAME" in the
table). Inputs the mutation test makes ("test:NAME") are not seeds. Nothing here is committed:
run it before fuzzing.

    scripts/fuzz_corpus.py OUT [--maps DIR] [--openarena DIR]
"""
import argparse
import fnmatch
import io
import lzma
import os
import re
import struct
import sys
import zipfile
import zlib



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
    """An entry body as content::encodeTextureCache lays it out after the key (format 13): the
    count, then per texture its flags (1 missing, 2 pixels omitted, 4 ssbump, 8 water, 16 water
    blended, 32 cube map, 64 texture motion, 128 played frames, 256 proxies (no seed here), 512
    planar water, 1024 refracting water), seven strings, the surface flags, alpha cutoff and
    fullbright light, water's 16 numbers (flag 8), the cube map's 6
    numbers and mask kind (flag 32), the motion's 20 numbers (flag 64: two 2x3 matrices, two
    scrolls' enabled, rate, angle, scale), the image, glow, second layer and bump images, then
    (flag 32) six cube faces and the mask image, then (flag 128) the base texture's and the
    normal map's played frames: each a count (0, or 2 and more), and for a count the rate, wrap
    (0 or 1) and the frames (here three base frames at 4 a second, wrapping, and two normal-map
    frames at 15, not wrapping)."""
    def u32(v):
        return struct.pack("<I", v)

    def f32(v):
        return struct.pack("<f", v)

    def string(s):
        return u32(len(s)) + s

    def image(w, h, fill):
        return u32(w) + u32(h) + bytes([fill]) * (w * h * 4)

    out = u32(len(textures))
    for flags, (w, h), (gw, gh) in textures:
        out += u32(flags)
        out += string(b"materials/a.vtf") + string(b"pak0.pk3") + string(b"") + \
            string(b"scripts/a.shader") + string(b"textures/a") + \
            string(b"materials/c.vtf" if flags & 32 else b"") + string(b"")
        out += u32(0) + f32(0.5) + f32(0.0)
        if flags & 8:
            out += b"".join(f32(v) for v in (0.1, 0.2, 0.3, 1.0, 1.0, 1.0, 100.0, 400.0, -1.0,
                                             1.0, 1.0, 1.0, 0.8, 0.1, 0.0, 64.0))
        if flags & 32:
            out += b"".join(f32(v) for v in (1.0, 1.0, 1.0, 0.0, 1.0, 1.0)) + u32(1)
        if flags & 64:
            out += b"".join(f32(v) for v in (2.0, 0.0, -0.5, 0.0, 1.0, 0.0,
                                             1.0, 0.0, 0.0, 0.0, 1.0, 0.25,
                                             1.0, 0.25, 90.0, 1.0, 0.0, 0.0, 0.0, 1.0))
        out += image(w, h, 0x40) + image(gw, gh, 0x80) + image(0, 0, 0) + \
            image(w if flags & 4 else 0, h if flags & 4 else 0, 0x7f)
        if flags & 32:
            out += b"".join(image(1, 1, 0x20 * (k + 1)) for k in range(6)) + image(w, h, 0xff)
        if flags & 128:
            out += u32(3) + f32(4.0) + u32(1) + b"".join(image(w, h, 0x10 * k) for k in range(3))
            out += u32(2) + f32(15.0) + u32(0) + image(1, 1, 0x30) + image(1, 1, 0x31)
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
    """A NAME_dir.vpk (content/vfs/vpk.h): three members, one extension node each."""
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


def read_text(path):
    with open(path, "rb") as f:
        return f.read()

def make_sprp(version, sdk2013=False, props=2):
    """A static prop lump (bsp/source_props.h layouts), as tests/unit/source_props_test.cpp."""
    out = struct.pack("<i", 2) + b"models/a.mdl".ljust(128, b"\0") + b"models/b.mdl".ljust(128, b"\0")
    out += struct.pack("<i", props)
    out += b"".join(struct.pack("<I" if version >= 12 else "<H", k) for k in range(props))
    out += struct.pack("<i", props)
    for k in range(props):
        rec = struct.pack("<6f3H2Bi5f", k, 2 * k, 3 * k, 0, 90 * k, 0, k % 2, k, 1, 6,
                          0 if sdk2013 else 8, k, 100, 200, 1, 2, 3)
        if version >= 5:
            rec += struct.pack("<f", 0.5)
        if sdk2013:
            rec += struct.pack("<2HI2H", 80, 95, 8, 32, 16)
        else:
            if version in (6, 7):
                rec += struct.pack("<2H", 80, 95)
            elif version >= 8:
                rec += bytes((1, 2, 3, 4))
            if version >= 7:
                rec += bytes((10, 20, 30, 40))
            if version in (9, 10, 13):
                rec += struct.pack("<I", 1)
            if version >= 10:
                rec += struct.pack("<I", 0x77)
            if version in (11, 12):
                rec += struct.pack("<fI", 2.0, 0)
            if version == 13:
                rec += struct.pack("<3f", 2, 3, 4)
        out += rec
    return out


def prop_lump_seeds(maps):
    """fuzz::runPropLumps inputs: kind byte, u16 version, lump."""
    seeds = {}
    for version in range(4, 14):
        seeds["sprp_v%d" % version] = bytes((0,)) + struct.pack("<H", version) + make_sprp(version)
    seeds["sprp_v10_sdk2013"] = bytes((0,)) + struct.pack("<H", 10) + make_sprp(10, True)
    for m in maps:
        with open(m, "rb") as f:
            data = f.read()
        if data[:4] != b"VBSP" or len(data) < 1036:
            continue
        name = os.path.basename(m)[:-4]
        entries = [struct.unpack_from("<iiii", data, 8 + 16 * i) for i in range(64)]
        off, length = entries[35][0], entries[35][1]
        if 0 < off and off + length <= len(data) and length >= 4:
            count = struct.unpack_from("<i", data, off)[0]
            for i in range(max(0, min(count, 16))):
                gid, _, ver, fo, fl = struct.unpack_from("<4sHHii", data, off + 4 + 16 * i)
                if gid in (b"prps", b"prpd") and 0 < fo and fo + fl <= len(data):
                    kind = 0 if gid == b"prps" else 1
                    seeds["%s_%s" % (name, gid[::-1].decode())] = (
                        bytes((kind,)) + struct.pack("<H", ver) + data[fo:fo + fl])
        io_, il = entries[52][0], entries[52][1]
        so, sl = entries[56][0], entries[56][1]
        if 0 < io_ and 0 < il <= 255 * 4 and io_ + il <= len(data) and so + sl <= len(data):
            seeds["%s_ambient" % name] = (bytes((2,)) + struct.pack("<H", il // 4) +
                                          data[io_:io_ + il] + data[so:so + sl])
    return seeds


def make_vhv():
    """HardwareVerts::FileHeader_t, two MeshHeader_t, 4-byte BGRA vertices at 512."""
    head = struct.pack("<iIIIIi4I", 2, 1234, 2, 4, 5, 2, 0, 0, 0, 0)
    meshes = struct.pack("<3I4I", 0, 3, 512, 0, 0, 0, 0) + struct.pack("<3I4I", 1, 2, 524, 0, 0, 0, 0)
    body = (head + meshes).ljust(512, b"\0")
    return body + bytes(range(20))



def map_bytes(ctx, rel):
    return read_text(os.path.join(ctx.maps, rel))


def seed_bsp2(ctx):
    """The smallest Quake 1 map as BSP2 and 2PSB (the only real BSP2 map is 3 MB)."""
    cube = map_bytes(ctx, "q1/ew_q1_cube.bsp")
    return [("ew_q1_cube_bsp2.bsp", bsp29_to_bsp2(cube)),
            ("ew_q1_cube_2psb.bsp", bsp29_to_bsp2(cube, rmq=True))]


def seed_bspx_lighting(ctx):
    return [("ew_q1_cube_bspx_lighting.bsp",
             with_bspx_lighting(map_bytes(ctx, "q1/ew_q1_cube.bsp")))]


def seed_vbsp_lzma(ctx):
    return [("tf2_mp_lobby_lzma.bsp", vbsp_with_lzma_lumps(map_bytes(ctx, "source/tf2_mp_lobby.bsp")))]


def seed_bsp2_cube(ctx):
    """An item box is a small Quake 1 map; the cube stands in for one (b_*.bsp), as BSP2."""
    return [("b_cube_bsp2.bsp", bsp29_to_bsp2(map_bytes(ctx, "q1/ew_q1_cube.bsp")))]


def seed_external_lightmaps(ctx):
    """One lm_0001 among valid 4x4 ones (fuzz::runExternalLightmap): the right size first."""
    q3map2_tga = struct.pack("<BBBHHBHHHHBB", 0, 0, 2, 0, 0, 0, 0, 0, 4, 4, 24, 0) + \
        bytes((i * 5) & 0xFF for i in range(4 * 4 * 3))
    return [("q3map2.tga", q3map2_tga), ("rle32.tga", make_tga(4, 4, True)),
            ("small.png", make_png(4, 4))]


def seed_archives(ctx):
    """A small .pak and .pk3 files (stored and deflated members) of map and texture bytes."""
    small_map = min((read_text(m) for m in bsp_files(ctx.maps)), key=len)
    members = [("maps/small.bsp", small_map[:4096]), ("textures/a.tga", make_tga(8, 4, False)),
               ("scripts/x.shader", b"textures/x\n{\n\tsurfaceparm nodraw\n}\n")]
    return [("small.pak", make_pak(members)),
            ("stored.pk3", make_zip(members, zipfile.ZIP_STORED)),
            ("deflated.pk3", make_zip(members, zipfile.ZIP_DEFLATED))]


def seed_images(ctx):
    return [("raw.tga", make_tga(8, 4, False)), ("rle.tga", make_tga(8, 4, True)),
            ("small.png", make_png(8, 4))]


def seed_cache_bodies(ctx):
    """Kept pixels, omitted pixels, missing textures, glow images, bump maps, water, cube
    maps, texture motion, played frames, strings."""
    bodies = {
        "ssbump.body": [(4, (2, 2), (0, 0))],
        "water.body": [(8 | 16, (2, 2), (0, 0))],
        "planar_water.body": [(8 | 512 | 1024, (2, 2), (0, 0))],
        "envmap.body": [(32, (2, 2), (0, 0))],
        "motion.body": [(64 | 4, (2, 2), (0, 0))],
        "frames.body": [(128 | 8, (2, 2), (0, 0))],
        "kept.body": [(0, (4, 2), (0, 0))],
        "glow.body": [(0, (2, 2), (2, 2))],
        "omitted_missing.body": [(2, (0, 0), (0, 0)), (1 | 2, (0, 0), (0, 0))],
        "mixed.body": [(0, (8, 8), (0, 0)), (2, (0, 0), (0, 0)), (0, (1, 1), (1, 1))],
    }
    return [(name, cache_body(textures)) for name, textures in bodies.items()]


def seed_leak_files(ctx):
    """A dense .pts trail and a .lin polyline."""
    trail = "".join("%f %f %f\n" % (i * 2.0, 0.0, 8.0) for i in range(40))
    trail += "".join("%f %f %f\n" % (78.0, i * 2.0, 8.0 + i) for i in range(1, 40))
    lin = ("-96.000000 32.500000 16.000000\r\n-96.000000 32.500000 80.000000\r\n"
           "128.000000 32.500000 80.000000\r\n")
    return [("trail.pts", trail.encode()), ("portals.lin", lin.encode())]


def seed_portal_files(ctx):
    """PRT1-AM, PRT2 and q3map2 hint-portal files."""
    return [
        ("prt1am.prt", b"PRT1-AM\n2\n1\n3\n4 0 1 (0 0 0) (0 64 0) (0 64 64) (0 0 64)\n0\n0\n1\n"),
        ("prt2.prt", b"PRT2\n3\n2\n1\n4 1 0 (0 0 0) (0 64 0) (0 64 64) (0 0 64)\n0 2 -1\n1 -1\n"),
        ("q3hint.prt", b"PRT1\n2\n1\n1\n3 0 1 1 (0 0 0 ) (0 8 0 ) (0 8 8 ) \n"
                       b"3 1 (1 2 3 ) (4 5 6 ) (7 8 9 ) \n"),
    ]


def seed_walk_scripts(ctx):
    """--walk-script files: every command, comments."""
    return [("all.txt", b"# every command\nforward 1.5\nturn -90  # right\nleft 0.25\n"
                        b"jump\nup 0.5\ncrouch 0.5\nback 0.1\nright 1\nwait 2\n"),
            ("short.txt", b"turn 180\nforward 1\nright 0.5\njump\nwait 1\n")]


def seed_skins(ctx):
    return [("made.skin",
             b'// made here\n/* a, b */ "Flag Pole","models/x y.tga"\nu_arm,\nu_leg,models/l\n')]


def seed_md2(ctx):
    return [("two_frames.md2", make_md2())]


def seed_sp2(ctx):
    """Two-frame .sp2 sprites (Quake 2 has no free ones in the test data)."""
    out = []
    for name, frames in (("one.sp2", [(8, 4, 4, 2, b"sprites/a.pcx")]),
                         ("two.sp2", [(8, 4, 4, 2, b"sprites/a.pcx"), (2, 2, 0, 0, b"b.pcx")])):
        out.append((name, struct.pack("<4sii", b"IDS2", 2, len(frames)) +
                    b"".join(struct.pack("<4i64s", *fr) for fr in frames)))
    return out


def seed_vtf(ctx):
    """Small 7.2 / 7.4 files: BGRA8888 with 2 mips, DXT1."""
    return [("bgra8888_2mips.vtf", make_vtf(2, 2, 12, 2, 2, bytes(range(20)))),
            ("dxt1_74.vtf", make_vtf(4, 4, 13, 1, 4,
                                     bytes((0, 0xf8, 0x1f, 0, 0, 0x55, 0xaa, 0xff))))]


def seed_vmt(ctx):
    """Comments, conditionals, nested blocks, a patch, AnimatedTexture proxies and frame vars."""
    vmts = {
        "lightmapped.vmt": '// comment\n"LightmappedGeneric"\n{\n\t"$basetexture" "brick/wall"\n'
                           '\t$translucent 1\n\t"$envmap" "env_cubemap" [$X360]\n'
                           '\t"$nocull" "1" [!$X360 && $WIN32]\n'
                           '\t"Proxies" { "AnimatedTexture" { "animatedtexturevar" "$basetexture" } }\n}\n',
        "patch.vmt": 'patch\n{\n\tinclude "materials/fuzz.vmt"\n\tinsert { $additive 1 }\n'
                     '\treplace { $basetexture other }\n}\n',
        "wvt.vmt": 'WorldVertexTransition { $basetexture a $basetexture2 b $alphatest 1 $selfillum 1 }',
        "animated.vmt": 'LightmappedGeneric { $basetexture a $bumpmap n $frame 1 $bumpframe 2\n'
                        '\tProxies {\n\t\tAnimatedTexture { animatedtexturevar $basetexture '
                        'animatedtextureframenumvar $frame animatedtextureframerate 7.5 }\n'
                        '\t\tAnimatedTexture { animatedtexturevar $bumpmap '
                        'animatedtextureframenumvar $bumpframe animationnowrap 1 }\n\t}\n}\n',
        "water_animated.vmt": 'Water { $normalmap n $fogcolor "{1 2 3}" $bumpframe 1\n'
                              '\tProxies { AnimatedTexture { animatedtexturevar $normalmap '
                              'animatedtextureframenumvar $bumpframe } }\n}\n',
    }
    return [(name, text.encode()) for name, text in vmts.items()]


def seed_vpk(ctx):
    """Versions 1 and 2: a preload-only member, one in NAME_000.vpk, one split."""
    return [("v%d_dir.vpk" % v, make_vpk(v)) for v in (1, 2)]


def seed_camera_texts(ctx):
    """One camera string per form scene/view/camera_text.h reads."""
    texts = {"bspview.txt": "--camera 128,-880,46,0,90",
             "numbers.txt": "128 -880 46 0 90",
             "quakespasm.txt": "Viewpos: (544 -312 48) 10 90 0",
             "qs_setpos.txt": "setpos 544 -312 26 10 90 0",
             "ioq3.txt": "(1024 512 88) : 270",
             "setviewpos.txt": "setviewpos 1024 512 62 270",
             "getpos.txt": "setpos -1.5 2.25 64.03125;setang 12.5 -90 0.000000",
             "spec_goto.txt": "spec_goto 10.0 20.0 30.0 5.0 45.0"}
    return [(name, text.encode()) for name, text in texts.items()]


def seed_steam_libraries(ctx):
    """libraryfolders.vdf in the 2021+ and the older layout."""
    texts = {"new.vdf": "\"libraryfolders\"\n{\n\t\"0\"\n\t{\n\t\t\"path\"\t\t"
                        "\"/home/u/.local/share/Steam\"\n\t\t\"apps\"\n\t\t{\n"
                        "\t\t\t\"2310\"\t\t\"123\"\n\t\t}\n\t}\n\t\"1\"\n\t{\n"
                        "\t\t\"path\"\t\t\"D:\\\\SteamLibrary\"\n\t}\n}\n",
             "old.vdf": "\"LibraryFolders\"\n{\n\t\"TimeNextStatsReport\"\t\t\"1\"\n"
                        "\t\"1\"\t\t\"E:\\\\Games\\\\Steam\"  // old layout\n}\n"}
    return [(name, text.encode()) for name, text in texts.items()]


def seed_vhv(ctx):
    """Static prop vertex lighting: two meshes, 4-byte BGRA vertices."""
    return [("two_meshes.vhv", make_vhv())]


def seed_prop_lumps(ctx):
    """The Source maps' sprp, dprp and leaf ambient lumps, and sprp lumps of every version."""
    return sorted(prop_lump_seeds(bsp_files(ctx.maps)).items())


SEED_MAKERS = {
    "bsp2": seed_bsp2, "bspx_lighting": seed_bspx_lighting, "vbsp_lzma": seed_vbsp_lzma,
    "bsp2_cube": seed_bsp2_cube, "external_lightmaps": seed_external_lightmaps,
    "archives": seed_archives, "images": seed_images, "cache_bodies": seed_cache_bodies,
    "leak_files": seed_leak_files, "portal_files": seed_portal_files,
    "walk_scripts": seed_walk_scripts, "skins": seed_skins, "md2": seed_md2, "sp2": seed_sp2,
    "vtf": seed_vtf, "vmt": seed_vmt, "vpk": seed_vpk, "camera_texts": seed_camera_texts,
    "steam_libraries": seed_steam_libraries, "vhv": seed_vhv, "prop_lumps": seed_prop_lumps,
}

ROW = re.compile(r'^BSPV_FUZZ_TARGET\(([a-z0-9_]+),\s*\w+,\s*\d+,\s*\d+,\s*\w+,\s*"([^"]*)"\)')


def table_rows(path):
    """(name, [source, ...]) for every row of fuzz/targets.def."""
    rows = []
    with open(path) as f:
        for line in f:
            m = ROW.match(line)
            if m:
                rows.append((m.group(1), [s for s in m.group(2).split("|") if s]))
            elif line.startswith("BSPV_FUZZ_TARGET"):
                sys.exit("fuzz/targets.def: cannot read the row " + line.strip())
    return rows


def size_limit(pattern):
    """("pattern", bytes or None) from "pattern@64K"."""
    if "@" not in pattern:
        return pattern, None
    pattern, size = pattern.rsplit("@", 1)
    scale = {"K": 1 << 10, "M": 1 << 20}[size[-1]]
    return pattern, int(size[:-1]) * scale


def files_under(root, pattern):
    """Files under `root` whose path from it matches `pattern` ('*' matches '/' too)."""
    out = []
    for base, _, files in os.walk(root):
        for f in sorted(files):
            path = os.path.join(base, f)
            if fnmatch.fnmatchcase(os.path.relpath(path, root), pattern):
                out.append(path)
    return sorted(out)


def seed_name(path):
    return path.replace("/", "_").replace(" ", "_")


def resolve(ctx, source):
    """(file name, bytes) of every seed one source stands for; [] for a test-made input."""
    kind, _, rest = source.lstrip("+").partition(":")
    rest, limit = size_limit(rest)
    out = []
    if kind == "maps":
        out = [(seed_name(os.path.relpath(p, ctx.maps)), read_text(p))
               for p in files_under(ctx.maps, rest)]
    elif kind == "models":
        root = os.path.join(ctx.maps, "..", "models")
        out = [(seed_name(os.path.relpath(p, root)), read_text(p)) for p in files_under(root, rest)]
    elif kind == "file":
        root = os.path.dirname(rest.split("*")[0])
        out = [(os.path.basename(p), read_text(p))
               for p in files_under(root, os.path.relpath(rest, root))]
    elif kind == "entities":
        for p in files_under(ctx.maps, rest):
            ent = entity_lump(read_text(p))
            if ent:
                out.append((seed_name(os.path.relpath(p, ctx.maps)) + ".ent", ent))
    elif kind == "oa":
        archive, _, member = rest.partition(":")
        path = os.path.join(ctx.openarena, archive)
        if os.path.exists(path):  # OpenArena is optional for the corpus
            with zipfile.ZipFile(path) as z:
                out = [(seed_name(n), z.read(n)) for n in sorted(z.namelist())
                       if fnmatch.fnmatchcase(n, member)]
    elif kind == "pak":
        maps, _, member = rest.partition(":")
        for p in files_under(ctx.maps, maps):
            stem = os.path.basename(p)[:-4]
            out += [(stem + "_" + os.path.basename(n), data)
                    for n, data in pakfile_members(read_text(p))
                    if fnmatch.fnmatchcase(n.lower(), member.lower())]
    elif kind == "seed":
        if rest not in SEED_MAKERS:
            sys.exit("fuzz/targets.def names seed:%s, which SEED_MAKERS lacks" % rest)
        out = SEED_MAKERS[rest](ctx)
    elif kind != "test":
        sys.exit("fuzz/targets.def: unknown source " + source)
    return [(n, d) for n, d in out if limit is None or len(d) <= limit]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("out")
    here = os.path.dirname(os.path.abspath(__file__))
    ap.add_argument("--maps", default=os.path.join(here, "..", "..", "shared", "maps"))
    ap.add_argument("--openarena", default="/usr/share/games/openarena/baseoa")
    ctx = ap.parse_args()
    if not bsp_files(ctx.maps):
        sys.exit("no .bsp files under " + ctx.maps)
    for target, sources in table_rows(os.path.join(here, "..", "fuzz", "targets.def")):
        folder = os.path.join(ctx.out, target)
        os.makedirs(folder, exist_ok=True)
        count = 0
        for source in sources:
            for name, data in resolve(ctx, source):
                with open(os.path.join(folder, name), "wb") as f:
                    f.write(data)
                count += 1
        print("%-17s %3d seed files in %s" % (target, count, folder))


if __name__ == "__main__":
    main()
