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
// lightmap, nor do liquid faces unless the map has lit water (QuakeSpasm r_litwater, below). Every
// lump is read by copying (core::ByteReader), never by casting: pd_lava.bsp stores lumps at odd
// offsets, and lq_e1m1.bsp stores them out of directory order.
#include "bsp/bspx.h"
#include "bsp/collision_read.h"
#include "bsp/dropped.h"
#include "bsp/edge_faces.h"
#include "bsp/entities.h"
#include "bsp/lump_table.h"
#include "bsp/parsers.h"
#include "bsp/q1_spawn.h"
#include "bsp/tree.h"
#include "bsp/vis.h"
#include "core/file.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <glm/common.hpp>
#include <map>
#include <span>

namespace bsp {

namespace {

enum Q1Lump {
    kEntities,
    kPlanes,
    kTextures,
    kVertexes,
    kVisibility,
    kNodes,
    kTexinfo,
    kFaces,
    kLighting,
    kClipnodes,
    kLeafs,
    kMarksurfaces,
    kEdges,
    kSurfedges,
    kModels,
    kNumLumps
};

constexpr const char* kLumpNames[kNumLumps] = {
    "entities", "planes",       "textures", "vertexes",  "visibility",
    "nodes",    "texinfo",      "faces",    "lighting",  "clipnodes",
    "leafs",    "marksurfaces", "edges",    "surfedges", "models"};

enum class Variant { Bsp29, Bsp2, Rmq, HalfLife };

constexpr uint32_t kTexSpecial = 1; // texinfo flag: sky or liquid, no lightmap
constexpr int32_t kMaxTextureSide = 8192;

struct RecordSizes {
    uint32_t node, leaf, face, marksurface, edge, clipnode;
};

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

struct TexinfoQ1 {
    TexAxes axes;
    int32_t material = 0;
    uint32_t flags = 0;
};

struct Parser {
    core::ByteReader file;
    Variant variant = Variant::Bsp29;
    RecordSizes sizes{};
    LumpRef lumps[kNumLumps];
    const Companions* companions = nullptr;
    std::string name; // the file, for warnings
    Map map;
    std::vector<glm::vec3> vertices;
    std::vector<std::array<uint32_t, 2>> edges;
    std::vector<int32_t> surfedges;
    std::vector<TexinfoQ1> texinfo;
    std::vector<int32_t> leaf_visofs;
    std::vector<uint8_t> lighting_rgb;
    std::vector<uint8_t> lighting_dirs; // .lux or BSPX LIGHTINGDIR, laid out as lighting_rgb
    int32_t lighting_scale = 3;         // bytes of lighting_rgb per byte offset of face lightofs
    bool bsp29_style = true;            // 16-bit records (BSP29, HL)

    core::ByteReader lump(int i) const { return lumpReader(file, lumps[i]); }

    core::Status header();
    void bspx();
    core::Status entities();
    core::Status planes();
    core::Status geometry();
    core::Status textures();
    core::Status texinfos();
    core::Status lighting();
    bool bspxLighting(uint64_t samples);
    void lightDirections();
    EdgeFaceRecord faceRecord(const core::ByteReader& r, uint64_t index) const;
    bool hasLitLiquids(const core::ByteReader& r, uint64_t count) const;
    core::Status faces();
    core::Status leafs();
    core::Status nodes();
    core::Status models();
    core::Status visibility();
    core::Status validateTree();
    core::Status collision();
    void submodelSettings();
};

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
constexpr int32_t kLitVersion = 1;
constexpr int32_t kLitVersionHdr = 0x10001; // QLIT with E5BGR9 samples (ericw-tools, FTE)

// `count` E5BGR9 samples from `r` at `at`, as RGB8 (decodeE5bgr9).
std::vector<uint8_t> decodeHdr(const core::ByteReader& r, uint64_t at, uint64_t count) {
    std::vector<uint8_t> rgb(size_t(count) * 3);
    for (uint64_t i = 0; i < count; ++i) {
        const auto c = decodeE5bgr9(r.u32(at + i * 4));
        std::copy(c.begin(), c.end(), rgb.begin() + ptrdiff_t(i * 3));
    }
    return rgb;
}
} // namespace

// Lighting as FTE's Mod_LoadLighting picks it: a .lit beside the map (QLIT v1 RGB, or the HDR
// version 0x10001), then BSPX LIGHTING_E5BGR9, then BSPX RGBLIGHTING, then the lump itself;
// each must hold as many samples as the lighting lump (any whole number when it is empty).
// Half-Life's lump is RGB already and its lightofs count bytes.
core::Status Parser::lighting() {
    const core::ByteReader r = lump(kLighting);
    const uint64_t len = r.size();
    const bool hl = variant == Variant::HalfLife;
    lighting_scale = hl ? 1 : 3;
    const uint64_t samples = hl ? len / 3 : len;
    const std::vector<uint8_t>& lit = companions ? companions->lit : std::vector<uint8_t>{};
    if (!hl && !lit.empty() && len > 0) {
        const core::ByteReader lr(lit);
        char magic[4] = {};
        lr.read(0, magic);
        const bool qlit = std::memcmp(magic, "QLIT", 4) == 0;
        if (qlit && lr.i32(4) == kLitVersion && lit.size() == 8 + 3 * len) {
            lighting_rgb.assign(lit.begin() + 8, lit.end());
        } else if (qlit && lr.i32(4) == kLitVersionHdr && lit.size() == 8 + 4 * len) {
            lighting_rgb = decodeHdr(lr, 8, len);
        } else {
            map.warnings.push_back(name + ": .lit file does not match this map (needs QLIT v1 " +
                                   "with " + std::to_string(8 + 3 * len) + " bytes or HDR with " +
                                   std::to_string(8 + 4 * len) + "); using the map's lighting");
        }
    }
    if (lighting_rgb.empty() && !bspxLighting(samples) && len > 0) {
        if (hl) {
            lighting_rgb.assign(r.bytes().begin(), r.bytes().end());
        } else {
            lighting_rgb.resize(size_t(len) * 3);
            const auto b = r.bytes();
            for (size_t i = 0; i < b.size(); ++i)
                lighting_rgb[i * 3] = lighting_rgb[i * 3 + 1] = lighting_rgb[i * 3 + 2] = b[i];
        }
    }
    lightDirections();
    return core::okStatus();
}

// LIGHTING_E5BGR9 or RGBLIGHTING for `samples` samples (0: the lighting lump is empty).
bool Parser::bspxLighting(uint64_t samples) {
    struct Candidate {
        const char* lump;
        uint64_t bytes_per_sample;
    };
    for (const Candidate c : {Candidate{"LIGHTING_E5BGR9", 4}, Candidate{"RGBLIGHTING", 3}}) {
        ExtraLump* x = findExtraLump(map, c.lump);
        if (!x)
            continue;
        const bool fits = samples ? x->length == samples * c.bytes_per_sample
                                  : x->length > 0 && x->length % c.bytes_per_sample == 0;
        if (!fits) {
            map.warnings.push_back(
                name + ": BSPX " + x->name + ": " + std::to_string(x->length) + " bytes, needs " +
                (samples ? std::to_string(samples * c.bytes_per_sample)
                         : "a multiple of " + std::to_string(c.bytes_per_sample)) +
                " (" + std::to_string(c.bytes_per_sample) + " per lighting sample); ignored");
            continue;
        }
        const core::ByteReader xr = file.sub(x->offset, x->length);
        if (c.bytes_per_sample == 4)
            lighting_rgb = decodeHdr(xr, 0, x->length / 4);
        else
            lighting_rgb.assign(xr.bytes().begin(), xr.bytes().end());
        x->used = true;
        return true;
    }
    return false;
}

// Light directions laid out as lighting_rgb: a .lux beside the map (QLIT v1), else BSPX
// LIGHTINGDIR (FTE Mod_LoadLighting looks in the same order).
void Parser::lightDirections() {
    if (lighting_rgb.empty())
        return;
    const uint64_t need = lighting_rgb.size();
    const std::vector<uint8_t>& lux = companions ? companions->lux : std::vector<uint8_t>{};
    if (!lux.empty()) {
        const core::ByteReader lr(lux);
        char magic[4] = {};
        lr.read(0, magic);
        if (std::memcmp(magic, "QLIT", 4) == 0 && lr.i32(4) == kLitVersion &&
            lux.size() == 8 + need) {
            lighting_dirs.assign(lux.begin() + 8, lux.end());
            return;
        }
        map.warnings.push_back(name + ": .lux file does not match this map (needs QLIT v1 with " +
                               std::to_string(8 + need) + " bytes); ignored");
    }
    if (ExtraLump* x = findExtraLump(map, "LIGHTINGDIR")) {
        if (x->length != need) {
            map.warnings.push_back(name + ": BSPX LIGHTINGDIR: " + std::to_string(x->length) +
                                   " bytes, needs " + std::to_string(need) +
                                   " (3 per lighting sample); ignored");
            return;
        }
        const auto b = file.sub(x->offset, x->length).bytes();
        lighting_dirs.assign(b.begin(), b.end());
        x->used = true;
    }
}

namespace {

// Where a face's luxels come from: its grid on its axes, the byte offset of its samples in
// the lighting, and its styles.
struct FaceLightmap {
    LightmapExtents ext;
    TexAxes axes;
    int64_t offset = -1;
    std::array<uint8_t, kMaxLightStyles> styles{};
    std::string problem; // why a BSPX grid cannot be used, empty when it can
};

// Faces whose BSPX lightmap does not fit the lighting and fall back to their own.
struct BspxFallback {
    uint64_t count = 0;
    std::string first;

    void note(uint64_t face, const std::string& lumps, const std::string& why) {
        if (count++ == 0)
            first = "BSPX " + lumps + " of faces[" + std::to_string(face) + "]: " + why;
    }
    void warn(Map& map, const std::string& name) const {
        if (count)
            map.warnings.push_back(name + ": " + first + "; " + std::to_string(count) +
                                   " face(s) use their standard lightmap");
    }
};

// Lays face `i`'s BSPX overrides over `use` (which holds its standard lightmap); returns the
// names of the lumps that applied, empty when none did. A DECOUPLED_LM record gives the grid,
// axes and offset (a zero size or negative offset: no samples); otherwise LMSHIFT the grid and
// LMOFFSET the offset. A shift outside 0..12 or non-finite decoupled axes are a `problem`: the
// face keeps its standard lightmap (the fallback warning counts it).
std::string bspxLightmap(const BspxFaceLighting& bspx, uint64_t i,
                         std::span<const glm::vec3> polygon, int32_t scale, FaceLightmap& use) {
    std::string lumps;
    const auto add = [&](const char* lump) {
        lumps += (lumps.empty() ? "" : "+") + std::string(lump);
    };
    if (!bspx.styles.empty()) {
        use.styles = bspx.styles[i];
        add("LMSTYLE");
    }
    const auto samples = [&](int64_t ofs) { return ofs < 0 ? int64_t(-1) : ofs * scale; };
    if (!bspx.decoupled.empty()) {
        const DecoupledLightmap& d = bspx.decoupled[i];
        add("DECOUPLED_LM");
        const glm::vec4 a = d.world_to_luxel.s, b = d.world_to_luxel.t;
        if (!std::isfinite(a.x + a.y + a.z + a.w + b.x + b.y + b.z + b.w)) {
            use.problem = "world-to-luxel axes are not finite";
            return lumps;
        }
        use.axes = d.world_to_luxel;
        use.ext = LightmapExtents{{0, 0}, {d.width - 1, d.height - 1}, d.width, d.height, 1};
        use.offset = d.width && d.height ? samples(d.offset) : -1;
        return lumps;
    }
    if (!bspx.shifts.empty()) {
        add("LMSHIFT");
        const uint8_t shift = bspx.shifts[i];
        if (shift > 12) {
            use.problem = "shift " + std::to_string(shift) + " is over 12";
            return lumps;
        }
        use.ext = computeLightmapExtents(polygon, use.axes, 1 << shift);
    }
    if (!bspx.offsets.empty()) {
        add("LMOFFSET");
        use.offset = samples(bspx.offsets[i]);
    }
    return lumps;
}

} // namespace

// One record of the faces lump. BSP29 stores plane, side, edge count and texinfo as unsigned
// 16-bit, BSP2 every field as 32-bit (bspfile.h dface_t / dface_bsp2_t).
EdgeFaceRecord Parser::faceRecord(const core::ByteReader& r, uint64_t index) const {
    EdgeFaceRecord rec;
    uint64_t off = index * sizes.face;
    const auto field = [&](bool short_in_bsp29) -> int32_t {
        const bool narrow = bsp29_style && short_in_bsp29;
        const int32_t v = narrow ? int32_t(r.u16(off)) : r.i32(off);
        off += narrow ? 2 : 4;
        return v;
    };
    rec.plane = field(true);
    rec.side = field(true);
    rec.first_edge = field(false);
    rec.num_edges = field(true);
    rec.texinfo = field(true);
    r.read(off, rec.styles);
    rec.lightofs = r.i32(off + 4);
    return rec;
}

// QuakeSpasm 0.95 gl_model.c Mod_LoadFaces: a map "has lit water" when any face with a liquid
// ('*') texture and without TEX_SPECIAL in its texinfo has samples (lightofs other than -1),
// as ericw-tools' light writes them for -splitturb / _litwater maps. Half-Life's engines draw
// liquids without lightmaps whatever the file holds.
bool Parser::hasLitLiquids(const core::ByteReader& r, uint64_t count) const {
    if (variant == Variant::HalfLife)
        return false;
    for (uint64_t i = 0; i < count; ++i) {
        const EdgeFaceRecord rec = faceRecord(r, i);
        if (rec.texinfo < 0 || uint64_t(rec.texinfo) >= texinfo.size() || rec.lightofs == -1)
            continue;
        const TexinfoQ1& ti = texinfo[size_t(rec.texinfo)];
        if (!(ti.flags & kTexSpecial) && (map.materials[size_t(ti.material)].flags & kSurfLiquid))
            return true;
    }
    return false;
}

core::Status Parser::faces() {
    const core::ByteReader r = lump(kFaces);
    const uint64_t n = lumps[kFaces].count();
    EdgeFaceBuilder builder(map, EdgeGeometry{vertices, edges, surfedges}, n);
    // QuakeSpasm R_BuildLightMap and Xash3D R_BuildLightMap: a face without samples stays black
    // when the map has light data; a map with none is drawn with every luxel at 255.
    map.unlit_faces = lighting_rgb.empty() ? UnlitFaces::Fullbright : UnlitFaces::Black;
    // A style letter is (c - 'a') * 22 of 256 (QuakeSpasm R_AnimateLight, Xash3D
    // CL_RunLightStyles), and QuakeSpasm's summed lightmap saturates at 255 before its 2x
    // overbright (R_BuildLightMap).
    map.light_style_scale = 264.0f / 256.0f;
    map.light_max = 2.0f;
    if (variant == Variant::HalfLife) {
        // GoldSrc's light curve, with the engine's defaults (Xash3D FWGS, docs/fidelity.md): no
        // 2x overbright; R_BuildLightMap scales the summed styles by 2^(1/lightgamma 2.5)
        // rounded to 338/256 and clamps at 1023 of 1023 (so 1); the light gamma table is then
        // the identity (gamma 2.5 = lightgamma 2.5, brightness 0). Palettes go through
        // texgamma 2.0 / gamma 2.5 (gamma.c BuildGammaTable, TextureToGamma).
        map.lightmap_scale = 338.0f / 256.0f;
        map.light_max = 1.0f;
        map.texture_gamma = 2.0f / 2.5f;
    }
    // In a map with lit water (r_litwater 1, QuakeSpasm's default) every liquid face without
    // TEX_SPECIAL gets its lightmap like a wall, and one without samples is black
    // (gl_model.c Mod_LoadFaces leaves SURF_DRAWTILED off, so r_brush.c GL_BuildLightmaps
    // builds its lightmap; r_world.c R_DrawTextureChains_Water draws it warp x lightmap). The
    // others, and every liquid face of a map without lit water, stay unlit as before.
    const bool lit_liquids = hasLitLiquids(r, n);
    if (lit_liquids)
        for (Material& m : map.materials)
            if (m.flags & kSurfLiquid)
                m.flags &= ~uint32_t(kSurfFullbright);
    // An unlit liquid is its warped texture as it is: R_DrawTextureChains_Water binds the warp
    // image alone (no lightmap, so no overbright doubling), where a white vertex colour through
    // Map::lightmap_scale would draw it twice as bright.
    if (variant != Variant::HalfLife)
        for (Material& m : map.materials)
            if ((m.flags & kSurfLiquid) && (m.flags & kSurfFullbright))
                m.fullbright_light = 1.0f;
    const BspxFaceLighting bspx = readBspxFaceLighting(file, map, n, name);
    BspxFallback fallback;
    for (uint64_t i = 0; i < n; ++i) {
        const EdgeFaceRecord rec = faceRecord(r, i);
        const TexinfoQ1* ti = rec.texinfo >= 0 && uint64_t(rec.texinfo) < texinfo.size()
                                  ? &texinfo[size_t(rec.texinfo)]
                                  : nullptr;
        const Material* mat = ti ? &map.materials[size_t(ti->material)] : nullptr;
        float tw = mat && mat->width > 0 ? float(mat->width) : 64.0f;
        float th = mat && mat->height > 0 ? float(mat->height) : 64.0f;
        TexAxes axes = ti ? ti->axes : TexAxes{};
        if (mat && (mat->flags & kSurfWarp) && variant != Variant::HalfLife &&
            map.warp_tile > 0.0f) {
            // QuakeSpasm draws a liquid with its warp image at dot(v, vecs) / 128, without the
            // texinfo's offsets (gl_model.c Mod_PolyForUnlitSurface, r_brush.c
            // BuildSurfaceDisplayList), and that image holds the texture twice whatever its
            // size (gl_warp.c WARPCALC divides by 64): uv in 64-texel tiles (Map::warp_tile).
            axes.s.w = axes.t.w = 0.0f;
            tw = th = map.warp_tile;
        }
        if (auto s = builder.emit(i, rec, texinfo.size(), ti ? ti->material : -1, axes, tw, th); !s)
            return s;
        const bool lit_liquid = lit_liquids && !(ti->flags & kTexSpecial);
        const bool special = (ti->flags & kTexSpecial) || (mat->flags & kSurfSky) ||
                             ((mat->flags & kSurfLiquid) && !lit_liquid);
        if (special)
            continue;
        if (lighting_rgb.empty()) {
            builder.unlit(i);
            continue;
        }
        const FaceLightmap standard{computeLightmapExtents(builder.polygon(), ti->axes),
                                    ti->axes,
                                    rec.lightofs < 0 ? -1 : int64_t(rec.lightofs) * lighting_scale,
                                    rec.styles,
                                    {}};
        FaceLightmap use = standard;
        if (const std::string from = bspxLightmap(bspx, i, builder.polygon(), lighting_scale, use);
            !from.empty()) {
            Face styled;
            styled.styles = use.styles;
            const int styles = styled.numStyles();
            if (!use.problem.empty()) {
                fallback.note(i, from, use.problem);
                use = standard;
            } else if (use.offset >= 0 && styles > 0 &&
                       !lightmapFits(use.ext, styles, use.offset, lighting_rgb.size())) {
                fallback.note(i, from,
                              std::to_string(use.ext.width) + "x" + std::to_string(use.ext.height) +
                                  " luxels x " + std::to_string(styles) + " styles at sample " +
                                  std::to_string(use.offset / lighting_scale) + " run past " +
                                  std::to_string(lighting_rgb.size() / 3) + " samples");
                use = standard;
            }
        }
        map.faces[i].styles = use.styles;
        if (auto s = builder.light(i, use.axes, use.ext, lighting_rgb, use.offset, lighting_dirs);
            !s)
            return s;
    }
    fallback.warn(map, name);
    builder.finish();
    return core::okStatus();
}

uint32_t leafContents(int32_t c) {
    switch (c) {
    case -2: // CONTENTS_SOLID
        return kContentsSolid;
    case -3: // WATER, SLIME, LAVA
    case -4:
    case -5:
        return kContentsLiquid;
    case -6:
        return kContentsSky;
    default:
        // Half-Life currents (-9..-14) are water that pushes.
        return (c <= -9 && c >= -14) ? uint32_t(kContentsLiquid) : 0u;
    }
}

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
    bindSubmodelEntities(map);
    const bool hl = variant == Variant::HalfLife;
    for (Submodel& sm : map.submodels) {
        if (sm.entity < 0)
            continue;
        const Entity& ent = map.entities[size_t(sm.entity)];
        if (hl) {
            // GoldSrc kRenderNormal, TransColor, TransTexture, Glow, TransAlpha, TransAdd, as
            // Xash3D FWGS draws brush models (ref/gl/gl_rsurf.c R_SetRenderMode, R_HasLightmap;
            // gl_rmain.c: a mode other than normal whose renderamt, 0 when the key is absent, is
            // 0 is not drawn).
            const int mode = int(ent.number("rendermode").value_or(0.0f));
            const float amt = std::clamp(ent.number("renderamt").value_or(0.0f), 0.0f, 255.0f);
            if (mode >= 1 && mode <= 5 && amt <= 0.0f)
                sm.visible = false;
            switch (mode) {
            case 1: // the colour alone, blended by renderamt
                sm.blend = BlendMode::Alpha;
                if (auto c = ent.vec3("rendercolor"))
                    sm.colour = glm::clamp(*c / 255.0f, glm::vec3(0.0f), glm::vec3(1.0f));
                else
                    sm.colour = glm::vec3(0.0f);
                sm.alpha = amt / 255.0f;
                sm.lightmapped = false;
                sm.textured = false;
                break;
            case 2: // texture, glow: the texture without lightmaps, blended by renderamt
            case 3:
                sm.blend = BlendMode::Alpha;
                sm.alpha = amt / 255.0f;
                sm.lightmapped = false;
                break;
            case 4: // solid: alpha-tested and lit
                sm.blend = BlendMode::AlphaTest;
                break;
            case 5: // additive: the texture times renderamt added, without lightmaps
                sm.blend = BlendMode::Additive;
                sm.alpha = amt / 255.0f;
                sm.lightmapped = false;
                break;
            default:
                break;
            }
        } else if (auto a = ent.number("alpha"); a && *a > 0.0f && *a < 1.0f) {
            // quakespasm/fitzquake entity alpha
            sm.blend = BlendMode::Alpha;
            sm.alpha = *a;
        }
    }
    if (!hl)
        applyQuake1SpawnState(map);
    if (!map.entities.empty() && map.entities[0].classname() == "worldspawn") {
        // Half-Life reads "skyname"; quakespasm and ironwail accept "sky" or "skyname". Both
        // load gfx/env/<name><rt|bk|lf|ft|up|dn>.tga.
        const Entity& world = map.entities[0];
        std::string_view sky = world.get("skyname");
        if (sky.empty() && !hl)
            sky = world.get("sky");
        if (!sky.empty() && sky.size() <= 64)
            map.skybox = "gfx/env/" + std::string(sky);
    }
    if (hl && !map.entities.empty() && map.entities[0].classname() == "worldspawn") {
        const std::string_view wad = map.entities[0].get("wad");
        size_t start = 0;
        while (start <= wad.size()) {
            size_t end = wad.find(';', start);
            if (end == std::string_view::npos)
                end = wad.size();
            const std::string base = core::baseName(wad.substr(start, end - start));
            if (!base.empty() && map.wad_files.size() < 256)
                map.wad_files.push_back(base);
            start = end + 1;
        }
    }
}

} // namespace

core::Result<Map> parseQuake1(std::span<const uint8_t> data, std::string_view name,
                              const Companions& companions) {
    Parser p;
    p.file = core::ByteReader(data);
    p.name = std::string(name);
    p.companions = &companions;
    const Detected d = detect(data);
    if (!d.format)
        return core::makeError(core::ErrorCode::UnknownFormat, "header");
    switch (*d.format) {
    case Format::Quake1:
        p.variant = Variant::Bsp29;
        break;
    case Format::Quake1Bsp2:
        p.variant = Variant::Bsp2;
        break;
    case Format::Quake1Rmq:
        p.variant = Variant::Rmq;
        break;
    case Format::HalfLife:
        p.variant = Variant::HalfLife;
        break;
    default:
        return core::makeError(core::ErrorCode::UnknownFormat, "header", -1, {},
                               "not a Quake 1 family map");
    }
    p.map.format = *d.format;
    p.map.version = d.version;
    // The game code's view offset: QuakeC client.qc PutClientInServer (view_ofs '0 0 22'),
    // Half-Life dlls/util.h VEC_VIEW (0 0 28).
    p.map.eye_height = p.variant == Variant::HalfLife ? 28.0f : 22.0f;
    if (p.variant != Variant::HalfLife) {
        p.map.void_colour = glm::vec3(0.0f);
        // QuakeSpasm gl_warp.c WARPCALC (r_oldwater 0): the warp image repeats every 128
        // texels and its sine index advances 2 steps of 256 per texel, the time truncated to
        // whole steps ((int) of 2 t + time * 128 / pi). R_UpdateWarpTextures draws the image
        // on a grid of 128 / r_waterquality texels (its default 8: every 16 texels), so the
        // ripple is linear between those. The texture repeats every 64 texels of it.
        p.map.warp_period = 128.0f;
        p.map.warp_knot_spacing = 16.0f;
        p.map.warp_phase_steps = 256;
        p.map.warp_tile = 64.0f;
        p.map.entity_models = EntityModelTable::Quake1;
        // QuakeSpasm's server sends an entity only when one of the leaves it is linked into is
        // in the eye's fat PVS (sv_main.c SV_WriteEntitiesToClient), and the client drops
        // what it was not sent (cl_main.c CL_RelinkEntities). The fat PVS joins every leaf
        // within 8 units of the eye (SV_AddToFatPVS); the links are the leaves the entity's
        // box touches (world.c SV_FindTouchedLeafs), that box being the model's bounds spread
        // by 1 (gl_model.c Mod_LoadSubmodels) and by 1 more (world.c SV_LinkEdict); an entity
        // linked into MAX_ENT_LEAFS (32, progs.h) leaves is always sent.
        p.map.brush_model_vis = {true, 2.0f, 8.0f, 32};
    } else {
        p.map.entity_models = EntityModelTable::HalfLife;
    }
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
