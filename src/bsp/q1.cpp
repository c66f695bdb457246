// Quake 1 family parser: BSP29, BSP2, 2PSB (BSP2-RMQ) and Half-Life BSP30.
//
// Formats: the id "Quake specs" (bspfile.h: 15 lumps), the BSP2/2PSB extensions as read by
// quakespasm gl_model.c (Mod_LoadNodes_L1/L2, Mod_LoadLeafs_L1/L2, Mod_LoadFaces), Half-Life's
// BSP30 (same lump list; miptex carries its own palette; RGB lighting; some tools, e.g. the
// Blue Shift compiler, swap the entities and planes directory entries), ".lit" QLIT v1 files
// and the BSPX extension directory that follows the last lump (ericw-tools).
//
// Engine behaviour followed: BSP29 node children are read as unsigned 16-bit (index >= node
// count means leaf 65535 - index, as quakespasm does for maps with more than 32767 nodes);
// leaf 0 is the shared solid leaf; leaf i's PVS row covers models[0].visleafs leaves and bit j
// means leaf j + 1; visofs -1 means "see everything". Faces with sky textures carry no
// lightmap, nor do liquid faces unless the map has lit water (QuakeSpasm r_litwater, in
// q1_faces.cpp). Every lump is read by copying (core::ByteReader), never by casting: pd_lava.bsp
// stores lumps at odd offsets, and lq_e1m1.bsp stores them out of directory order.
//
// This file holds the lump and BSPX directories, textures, texinfo, the tree and visibility;
// the faces are in q1_faces.cpp and the lighting in q1_lighting.cpp, around the private
// q1_parser.h.
#include "bsp/parsers.h"
#include "bsp/q1_parser.h"

#include "bsp/bspx.h"
#include "bsp/collision_read.h"
#include "bsp/dropped.h"
#include "bsp/entities.h"
#include "bsp/tree.h"
#include "bsp/vis.h"
#include "core/file.h"

#include <algorithm>
#include <cstring>
#include <glm/common.hpp>
#include <map>
#include <span>

namespace bsp {

namespace q1 {

namespace {

constexpr const char* kLumpNames[kNumLumps] = {
    "entities", "planes",       "textures", "vertexes",  "visibility",
    "nodes",    "texinfo",      "faces",    "lighting",  "clipnodes",
    "leafs",    "marksurfaces", "edges",    "surfedges", "models"};

RecordSizes recordSizes(Variant v) {
    switch (v) {
    case Variant::Bsp2:
        return {44, 44, 28, 4, 8, 12};
    case Variant::Rmq:
        return {32, 32, 28, 4, 8, 12};
    default:
        return {24, 28, 20, 2, 4, 8};
    }
}
} // namespace

core::Status Parser::header() {
    const bool hl = variant == Variant::HalfLife;
    for (int i = 0; i < kNumLumps; ++i) {
        LumpRef& l = lumps[i];
        l.name = kLumpNames[i];
        if (!file.read(4 + i * 8, l.offset) || !file.read(8 + i * 8, l.length))
            return core::makeError(core::ErrorCode::Truncated, "header", -1, {},
                                   "file too small for the lump directory");
    }
    // Some Half-Life compilers write planes first and entities second in the directory.
    // Entities are text starting with '{' and planes are 20-byte records: swap when the
    // entries only make sense swapped.
    if (hl && lumps[kEntities].length % 20 == 0) {
        const uint8_t ent_first = file.u8(lumps[kEntities].offset);
        const uint8_t plane_first = file.u8(lumps[kPlanes].offset);
        const bool planes_are_text =
            lumps[kPlanes].length % 20 != 0 || (plane_first == '{' && ent_first != '{');
        if (planes_are_text && lumps[kPlanes].length > 0) {
            std::swap(lumps[kEntities].offset, lumps[kPlanes].offset);
            std::swap(lumps[kEntities].length, lumps[kPlanes].length);
            map.warnings.push_back("entities and planes lumps are swapped in the directory");
        }
    }
    sizes = recordSizes(variant);
    bsp29_style = variant == Variant::Bsp29 || variant == Variant::HalfLife;
    const uint32_t record[kNumLumps] = {0,          20,
                                        0,          12,
                                        0,          sizes.node,
                                        40,         sizes.face,
                                        0,          sizes.clipnode,
                                        sizes.leaf, sizes.marksurface,
                                        sizes.edge, 4,
                                        64};
    for (int i = 0; i < kNumLumps; ++i) {
        lumps[i].record_size = record[i];
        if (auto s = checkLump(file, lumps[i], map); !s)
            return s;
    }
    return core::okStatus();
}

// BSPX: "BSPX", count, then {name[24], offset, length} right after the last lump, 4-aligned.
void Parser::bspx() {
    uint64_t end = 4 + kNumLumps * 8;
    for (const LumpRef& l : lumps)
        end = std::max<uint64_t>(end, uint64_t(l.offset) + l.length);
    end = (end + 3) & ~uint64_t(3);
    char magic[4];
    if (!file.read(end, magic) || std::memcmp(magic, "BSPX", 4) != 0)
        return;
    const uint32_t count = file.u32(end + 4);
    if (count > 256 || !file.inRange(end + 8, uint64_t(count) * 32)) {
        map.warnings.push_back(name + ": BSPX directory at " + std::to_string(end) + ": " +
                               std::to_string(count) +
                               " lumps do not fit the file (at most 256); ignored");
        return;
    }
    for (uint32_t i = 0; i < count; ++i) {
        const uint64_t at = end + 8 + uint64_t(i) * 32;
        ExtraLump x{file.fixedString(at, 24), file.u32(at + 24), file.u32(at + 28)};
        const std::string which = "BSPX lump " + std::to_string(i) + " (" + x.name + ")";
        if (!file.inRange(x.offset, x.length)) {
            map.warnings.push_back(name + ": " + which + ": " + std::to_string(x.offset) + "+" +
                                   std::to_string(x.length) + " lies outside the file (" +
                                   std::to_string(file.size()) + " bytes); ignored");
            continue;
        }
        if (findExtraLump(map, x.name)) {
            // The engines' BSPX_FindLump returns the first entry of a name.
            map.warnings.push_back(name + ": " + which + ": a second lump of that name; ignored");
            continue;
        }
        map.extra_lumps.push_back(std::move(x));
    }
}

core::Status Parser::entities() {
    readEntityLump(map, lump(kEntities).bytes());
    return core::okStatus();
}

core::Status Parser::planes() {
    readPlanes(map, lump(kPlanes));
    return core::okStatus();
}

core::Status Parser::geometry() {
    const core::ByteReader rv = lump(kVertexes);
    if (!rv.readArray(0, lumps[kVertexes].count(), vertices))
        return core::makeError(core::ErrorCode::Truncated, "vertexes");
    const core::ByteReader re = lump(kEdges);
    const uint64_t ne = lumps[kEdges].count();
    edges.resize(ne);
    for (uint64_t i = 0; i < ne; ++i) {
        if (bsp29_style)
            edges[i] = {re.u16(i * 4), re.u16(i * 4 + 2)};
        else
            edges[i] = {re.u32(i * 8), re.u32(i * 8 + 4)};
    }
    if (!lump(kSurfedges).readArray(0, lumps[kSurfedges].count(), surfedges))
        return core::makeError(core::ErrorCode::Truncated, "surfedges");
    return core::okStatus();
}

namespace {

std::string lowerName(const std::string& s) {
    return core::toLower(s);
}

bool isNoDrawName(const std::string& lower) {
    static const char* const kNames[] = {"trigger", "aaatrigger", "clip", "null",
                                         "origin",  "skip",       "hint", "hintskip"};
    for (const char* n : kNames)
        if (lower == n)
            return true;
    return false;
}

uint32_t materialFlags(const std::string& name, bool hl) {
    const std::string lower = lowerName(name);
    uint32_t flags = 0;
    if (lower.starts_with("sky"))
        flags |= hl ? kSurfSky : (kSurfSky | kSurfSkyLayers);
    else if (!lower.empty() && lower[0] == '*')
        flags |= hl ? (kSurfLiquid | kSurfWarp) : (kSurfLiquid | kSurfWarp | kSurfFullbright);
    else if (hl && !lower.empty() && lower[0] == '!')
        flags |= kSurfLiquid | kSurfWarp;
    if (!lower.empty() && lower[0] == '{')
        flags |= kSurfAlphaTest;
    if (isNoDrawName(lower))
        flags |= kSurfNoDraw;
    return flags;
}

// "+0lava".."+9lava" form one chain, "+alava".."+jlava" the alternate one (quakespasm
// Mod_LoadTextures); each chain loops through its frames in order at 5 fps.
void linkAnimations(Map& map) {
    // key: (alternate?, lower base name) -> frame -> material
    std::map<std::pair<bool, std::string>, std::map<int, int32_t>> chains;
    for (size_t i = 0; i < map.materials.size(); ++i) {
        const std::string& n = map.materials[i].name;
        if (n.size() < 3 || n[0] != '+')
            continue;
        char c = n[1];
        if (c >= 'A' && c <= 'Z')
            c = char(c - 'A' + 'a');
        bool alt = false;
        int frame = 0;
        if (c >= '0' && c <= '9')
            frame = c - '0';
        else if (c >= 'a' && c <= 'j') {
            alt = true;
            frame = c - 'a';
        } else
            continue;
        chains[{alt, lowerName(n.substr(2))}].emplace(frame, int32_t(i));
    }
    for (auto& [key, frames] : chains) {
        // Use frames 0..k-1 that are present without gaps; a gap ends the chain (the engine
        // refuses such maps; we keep the frames we can).
        std::vector<int32_t> seq;
        for (int f = 0; f < 10; ++f) {
            auto it = frames.find(f);
            if (it == frames.end())
                break;
            seq.push_back(it->second);
        }
        if (seq.size() != frames.size())
            map.warnings.push_back("textures: animation +" + key.second + " has missing frames");
        if (seq.size() < 2)
            continue;
        for (size_t k = 0; k < seq.size(); ++k) {
            Material& m = map.materials[size_t(seq[k])];
            m.anim_next = seq[(k + 1) % seq.size()];
            m.anim_fps = 5.0f;
        }
    }
}

} // namespace

core::Status Parser::textures() {
    const bool hl = variant == Variant::HalfLife;
    const core::ByteReader r = lump(kTextures);
    if (r.size() == 0)
        return core::okStatus();
    int32_t count = 0;
    if (!r.read(0, count) || count < 0 || uint64_t(count) > (r.size() - 4) / 4)
        return core::makeError(core::ErrorCode::BadValue, "textures", -1, "nummiptex",
                               "count " + std::to_string(count) + " does not fit the lump");
    map.materials.resize(size_t(count));
    DroppedReferences dropped;
    for (int32_t i = 0; i < count; ++i) {
        const int32_t ofs = r.i32(4 + uint64_t(i) * 4);
        Material& m = map.materials[size_t(i)];
        if (ofs < 0)
            continue; // unused slot (lq_e1m1 has 18): an unnamed material
        // QuakeSpasm gl_model.c Mod_LoadTextures follows the offset unchecked and skips a
        // texture of zero size with a warning; its texinfos then draw the missing texture.
        if (!r.inRange(uint64_t(ofs), 40)) {
            dropped.add(
                core::makeError(core::ErrorCode::LumpOutOfBounds, "textures", i, "offset",
                                "miptex header at " + std::to_string(ofs) + " beyond the lump"),
                "an unnamed texture (drawn missing)");
            continue;
        }
        m.name = r.fixedString(uint64_t(ofs), 16);
        const uint32_t w = r.u32(uint64_t(ofs) + 16), h = r.u32(uint64_t(ofs) + 20);
        if (w == 0 || h == 0 || w > uint32_t(kMaxTextureSide) || h > uint32_t(kMaxTextureSide)) {
            dropped.add(core::makeError(core::ErrorCode::BadValue, "textures", i, "size",
                                        m.name + " " + std::to_string(w) + "x" + std::to_string(h) +
                                            " outside 1.." + std::to_string(kMaxTextureSide)),
                        "its pixels ignored (drawn missing)");
            m.name.clear();
            continue;
        }
        m.width = int32_t(w);
        m.height = int32_t(h);
        m.flags = materialFlags(m.name, hl);
        uint32_t mip[4];
        for (int k = 0; k < 4; ++k)
            mip[k] = r.u32(uint64_t(ofs) + 24 + uint64_t(k) * 4);
        if (mip[0] == 0)
            continue; // stored in a WAD (Half-Life, some BSP2 tools)
        const uint64_t pixels = uint64_t(ofs) + mip[0];
        if (!r.inRange(pixels, uint64_t(w) * h)) {
            map.warnings.push_back("textures[" + std::to_string(i) + "] " + m.name +
                                   ": pixels lie outside the lump; treated as external");
            continue;
        }
        EmbeddedTexture tex;
        tex.width = m.width;
        tex.height = m.height;
        r.readArray(pixels, uint64_t(w) * h, tex.indices);
        if (hl) {
            // After mip level 3: a 16-bit colour count (256), then 768 bytes of RGB.
            const uint64_t pal = uint64_t(ofs) + mip[3] + uint64_t(w / 8) * (h / 8) + 2;
            if (!r.readArray(pal, 768, tex.palette))
                map.warnings.push_back("textures[" + std::to_string(i) + "] " + m.name +
                                       ": palette lies outside the lump");
        }
        m.embedded = int32_t(map.embedded_textures.size());
        map.embedded_textures.push_back(std::move(tex));
    }
    dropped.flush(map);
    linkAnimations(map);
    return core::okStatus();
}

core::Status Parser::texinfos() {
    const core::ByteReader r = lump(kTexinfo);
    const uint64_t n = lumps[kTexinfo].count();
    if (map.materials.empty() && n > 0) {
        // No textures lump (quakespasm draws r_notexture_mip): one stand-in material.
        Material m;
        m.name = "notexture";
        m.width = m.height = 16;
        map.materials.push_back(m);
    }
    texinfo.resize(n);
    const bool no_textures = lumps[kTextures].length == 0;
    const size_t textures = map.materials.size();
    DroppedReferences dropped;
    for (uint64_t i = 0; i < n; ++i) {
        TexinfoQ1& t = texinfo[i];
        r.read(i * 40, t.axes.s);
        r.read(i * 40 + 16, t.axes.t);
        const int32_t mt = r.i32(i * 40 + 32);
        t.flags = r.u32(i * 40 + 36);
        if (no_textures) {
            t.material = 0;
        } else if (mt < 0 || size_t(mt) >= textures) {
            // QuakeSpasm gl_model.c Mod_LoadTexinfo: a miptex past the textures draws the
            // missing texture (TEX_MISSING). Here: one unnamed material after the map's own.
            dropped.add(indexError("texinfo", int64_t(i), "miptex", mt, textures, "textures"),
                        "drawn with the missing texture");
            if (map.materials.size() == textures)
                map.materials.emplace_back();
            t.material = int32_t(textures);
        } else {
            t.material = mt;
        }
    }
    dropped.flush(map);
    return core::okStatus();
}
namespace {

uint32_t leafContents(int32_t c) {
    switch (c) {
    case -2: // CONTENTS_SOLID
        return kContentsSolid;
    case -3: // CONTENTS_WATER
        return kContentsLiquid;
    case -4: // CONTENTS_SLIME
        return kContentsLiquid | kContentsSlime;
    case -5: // CONTENTS_LAVA
        return kContentsLiquid | kContentsLava;
    case -6:
        return kContentsSky;
    default:
        // Half-Life currents (-9..-14) are water that pushes.
        return (c <= -9 && c >= -14) ? uint32_t(kContentsLiquid) : 0u;
    }
}

} // namespace

core::Status Parser::leafs() {
    const core::ByteReader marks = lump(kMarksurfaces);
    const uint64_t nmarks = lumps[kMarksurfaces].count();
    map.leaf_faces.resize(nmarks);
    for (uint64_t i = 0; i < nmarks; ++i) {
        const uint32_t f = bsp29_style ? marks.u16(i * 2) : marks.u32(i * 4);
        if (f >= map.faces.size())
            return indexError("marksurfaces", int64_t(i), "face", f, map.faces.size(), "faces");
        map.leaf_faces[i] = f;
    }
    const core::ByteReader r = lump(kLeafs);
    const uint64_t n = lumps[kLeafs].count();
    if (n == 0)
        return core::makeError(core::ErrorCode::BadTree, "leafs", -1, {}, "no leaves");
    map.leaves.resize(n);
    leaf_visofs.resize(n);
    for (uint64_t i = 0; i < n; ++i) {
        const uint64_t at = i * sizes.leaf;
        Leaf& leaf = map.leaves[i];
        leaf.contents = leafContents(r.i32(at));
        leaf_visofs[i] = r.i32(at + 4);
        uint64_t first, num;
        if (variant == Variant::Bsp2) {
            r.read(at + 8, leaf.mins);
            r.read(at + 20, leaf.maxs);
            first = r.u32(at + 32);
            num = r.u32(at + 36);
        } else {
            int16_t b[6];
            r.read(at + 8, b);
            leaf.mins = glm::vec3(b[0], b[1], b[2]);
            leaf.maxs = glm::vec3(b[3], b[4], b[5]);
            if (variant == Variant::Rmq) {
                first = r.u32(at + 20);
                num = r.u32(at + 24);
            } else {
                first = r.u16(at + 20);
                num = r.u16(at + 22);
            }
        }
        if (first + num > nmarks)
            return indexError("leafs", int64_t(i), "firstmarksurface", int64_t(first + num), nmarks,
                              "marksurfaces");
        leaf.first_leaf_face = uint32_t(first);
        leaf.num_leaf_faces = uint32_t(num);
        leaf.cluster = int32_t(i) - 1; // leaf 0 (shared solid) gets -1
        leaf.area = 0;
    }
    return checkLeafFaceTotal(map, nmarks);
}

core::Status Parser::nodes() {
    const core::ByteReader r = lump(kNodes);
    const uint64_t n = lumps[kNodes].count();
    map.nodes.resize(n);
    DroppedReferences dropped;
    for (uint64_t i = 0; i < n; ++i) {
        const uint64_t at = i * sizes.node;
        std::array<int64_t, 2> children{};
        for (size_t c = 0; c < 2; ++c) {
            if (bsp29_style) {
                const uint32_t p = r.u16(at + 4 + c * 2);
                children[c] = p < n ? int64_t(p) : -1 - int64_t(0xffff - p);
            } else {
                children[c] = r.i32(at + 4 + c * 4);
            }
        }
        if (auto st = setNodeLinks(map, i, r.i32(at), children, &dropped); !st)
            return st;
        Node& node = map.nodes[i];
        if (variant == Variant::Bsp2) {
            r.read(at + 12, node.mins);
            r.read(at + 24, node.maxs);
        } else {
            int16_t b[6];
            r.read(at + (bsp29_style ? 8 : 12), b);
            node.mins = glm::vec3(b[0], b[1], b[2]);
            node.maxs = glm::vec3(b[3], b[4], b[5]);
        }
    }
    dropped.flush(map);
    return core::okStatus();
}

core::Status Parser::models() {
    auto heads = readEdgeModels(map, lump(kModels), lumps[kModels].count(), 64, 56, false);
    return heads ? core::okStatus() : core::Status(heads.error());
}

core::Status Parser::validateTree() {
    std::vector<int32_t> heads;
    const core::ByteReader r = lump(kModels);
    for (size_t m = 0; m < map.submodels.size(); ++m)
        heads.push_back(r.i32(m * 64 + 36));
    return validateNodeTrees(map, heads);
}

core::Status Parser::collision() {
    return collisionOrNone(
        map,
        readHullCollision(map, HullLumps{lump(kClipnodes), !bsp29_style, lump(kLeafs), sizes.leaf,
                                         lump(kModels), variant == Variant::HalfLife}));
}

core::Status Parser::visibility() {
    const core::ByteReader vis = lump(kVisibility);
    if (vis.size() == 0 || map.leaves.size() < 2)
        return core::okStatus(); // no vis: everything visible
    const uint64_t clusters = map.leaves.size() - 1;
    const uint64_t row_size = (clusters + 7) / 8;
    if (clusters * row_size > kMaxVisBytes) {
        map.warnings.push_back("visibility: " + std::to_string(clusters) +
                               " leaves need too much memory; drawing without vis");
        return core::okStatus();
    }
    const core::ByteReader models_r = lump(kModels);
    const int64_t visleafs = std::clamp<int64_t>(models_r.i32(52), 0, int64_t(clusters));
    const uint64_t stored_row = (uint64_t(visleafs) + 7) / 8;
    map.vis.num_clusters = int32_t(clusters);
    map.vis.row_size = int32_t(row_size);
    map.vis.rows.assign(clusters * row_size, 0);
    DroppedReferences dropped;
    for (uint64_t leaf = 1; leaf <= clusters; ++leaf) {
        uint8_t* row = map.vis.rows.data() + (leaf - 1) * row_size;
        const int32_t ofs = leaf_visofs[leaf];
        if (ofs < 0 || int64_t(leaf) > visleafs) {
            std::fill(row, row + row_size, 0xff); // engine: "novis", everything
            continue;
        }
        // QuakeSpasm gl_model.c Mod_LoadLeafs points into the lump unchecked and
        // Mod_DecompressVis stops at its end with a warning: the leaf sees everything here.
        if (uint64_t(ofs) >= vis.size()) {
            dropped.add(core::makeError(core::ErrorCode::BadVis, "leafs", int64_t(leaf), "visofs",
                                        "offset " + std::to_string(ofs) + " beyond " +
                                            std::to_string(vis.size()) + " bytes of visibility"),
                        "the leaf sees every leaf");
            std::fill(row, row + row_size, 0xff);
        } else if (!decompressVisRow(vis, uint64_t(ofs), std::span<uint8_t>(row, stored_row))) {
            dropped.add(core::makeError(core::ErrorCode::BadVis, "leafs", int64_t(leaf), "visofs",
                                        "row at " + std::to_string(ofs) + " runs past the lump"),
                        "the leaf sees every leaf");
            std::fill(row, row + row_size, 0xff);
        }
    }
    dropped.flush(map);
    return core::okStatus();
}

void Parser::submodelSettings() {
    // The owning entities only: how the game places, hides and blends brush models at spawn is
    // the game layer's (game::spawnBrushModels).
    bindSubmodelEntities(map);
}
} // namespace q1

core::Result<Map> parseQuake1(std::span<const uint8_t> data, std::string_view name,
                              const Companions& companions) {
    q1::Parser p;
    p.file = core::ByteReader(data);
    p.name = std::string(name);
    p.companions = &companions;
    const Detected d = detect(data);
    if (!d.format)
        return core::makeError(core::ErrorCode::UnknownFormat, "header");
    switch (*d.format) {
    case Format::Quake1:
        p.variant = q1::Variant::Bsp29;
        break;
    case Format::Quake1Bsp2:
        p.variant = q1::Variant::Bsp2;
        break;
    case Format::Quake1Rmq:
        p.variant = q1::Variant::Rmq;
        break;
    case Format::HalfLife:
        p.variant = q1::Variant::HalfLife;
        break;
    default:
        return core::makeError(core::ErrorCode::UnknownFormat, "header", -1, {},
                               "not a Quake 1 family map");
    }
    p.map.format = *d.format;
    p.map.version = d.version;
    using q1::Parser;
    using Step = core::Status (Parser::*)();
    if (auto s = p.header(); !s)
        return s.error();
    p.bspx();
    const Step steps[] = {&Parser::entities,  &Parser::planes,       &Parser::geometry,
                          &Parser::textures,  &Parser::texinfos,     &Parser::lighting,
                          &Parser::faces,     &Parser::leafs,        &Parser::nodes,
                          &Parser::models,    &Parser::validateTree, &Parser::collision,
                          &Parser::visibility};
    for (Step step : steps)
        if (auto s = (p.*step)(); !s)
            return s.error();
    p.submodelSettings();
    return std::move(p.map);
}

} // namespace bsp