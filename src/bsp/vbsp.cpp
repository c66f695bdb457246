// Source engine parser: "VBSP" versions 19, 20 and 21 (Valve) and 25 (Strata Source).
//
// Format: the Source SDK's public/bspfile.h (dheader_t, lump_t, dface_t, texinfo_t,
// dtexdata_t, dleaf_t, dnode_t, ddispinfo_t, CDispVert) as documented on the Valve Developer
// Community "Source BSP File Format" page, and Strata Source's "BSP v25" reference for the lump
// versions that widen records (bsp_tool's branches/strata/strata.py reads the same layouts).
//
// - Header: 64 lumps of 16 bytes. Valve's order is (offset, length, version, fourCC); Left 4
//   Dead 2 and later games on that branch write (version, offset, length, fourCC). The order
//   is not flagged, so both readings are tried and the one under which every lump lies inside
//   the file wins (Valve's order when both do). Big-endian Xbox 360 files ("PSBV") are refused.
// - Compressed lumps start with Valve's LZMA header (core/lzma.h) and are decoded whole before
//   anything reads them; the directory's length is then the compressed size.
// - Records are chosen by each lump's own version, not the file's: Strata's v25 widens nodes
//   (version 1: float bounds, 32-bit face range), faces (2), leaves (2), edges, leaf faces and
//   leaf brushes (1: 32-bit indices).
// - Geometry is Quake 2's: faces are runs of surfedges into edges into vertices (edge_faces.h).
//   Texinfo holds texture axes in texels and separate lightmap axes in luxels; a face stores its
//   lightmap's mins and size in luxels, so no extents are computed.
// - Lighting is ColorRGBExp32 (r, g, b, signed exponent) per luxel, styles consecutive; faces
//   with bump-mapped lighting (SURF_BUMPLIGHT) store four maps per style (the flat one first,
//   then one per bump basis vector); all four are kept (bsp::Face::bump_light). docs/source.md
//   gives the conversion.
// - Displacements (DISPINFO, DISP_VERTS) replace their four-sided base face with a grid of
//   (2^power + 1)^2 vertices: the base quad interpolated from the corner nearest the
//   displacement's start position, each point moved along its offset vector by its distance,
//   its alpha (the second texture's weight) in the vertex colour's alpha. They collide as that
//   grid's triangles (bsp::Collision::displacements, docs/collision.md).
// - Visibility is Quake 2's cluster PVS. Areas (darea_t) and area portals (dareaportal_t) are
//   read and checked; the leaves' areas restrict the sky region's set (scene::VisOptions::
//   own_area_only); area portals are not used to close areas.
#include "bsp/vbsp.h"
#include "bsp/vbsp_parser.h"

#include "bsp/collision_read.h"
#include "bsp/dropped.h"
#include "bsp/edge_faces.h"
#include "bsp/entities.h"
#include "bsp/lump_table.h"
#include "bsp/parsers.h"
#include "bsp/tree.h"
#include "bsp/vis.h"
#include "core/lzma.h"

#include <algorithm>
#include <cctype>
#include <climits>
#include <cmath>
#include <cstring>
#include <string_view>
#include <tuple>

#include <glm/common.hpp>
#include <glm/geometric.hpp>

namespace bsp {

namespace vbsp {

// Record size of the lumps this parser reads, by lump version; 0 for an unknown version.
uint32_t recordSize(int lump, int32_t version) {
    switch (lump) {
    case kPlanes:
        return 20;
    case kTexdata:
        return 32;
    case kVertexes:
        return 12;
    case kNodes:
        return version == 0 ? 32 : version == 1 ? 48 : 0;
    case kTexinfo:
        return 72;
    case kFaces:
    case kFacesHdr:
        return version <= 1 ? 56 : version == 2 ? 72 : 0;
    case kLeafs:
        return version == 0 ? 56 : version == 1 ? 32 : version == 2 ? 56 : 0;
    case kEdges:
        return version == 0 ? 4 : version == 1 ? 8 : 0;
    case kSurfedges:
    case kTexdataStringTable:
        return 4;
    case kModels:
        return 48;
    case kLeafFaces:
    case kLeafBrushes:
        return version == 0 ? 2 : version == 1 ? 4 : 0;
    case kBrushes:
        return 12;
    case kBrushSides:
        return version == 0 ? 8 : version == 1 ? 16 : 0;
    case kAreas:
        return 8;
    case kAreaPortals:
        return version == 0 ? 12 : version == 1 ? 20 : 0;
    case kDispInfo:
        return version == 0 ? 176 : version == 1 ? 236 : 0;
    case kDispVerts:
        return 20;
    default:
        return 0; // bytes, or a lump this parser does not read record by record
    }
}

namespace {

constexpr uint64_t kHeaderSize = 8 + kNumLumps * 16 + 4;

// Source surface flags (public/bspflags.h SURF_*), in a namespace of their own: bsp::kSurfSky
// and bsp::kSurfWarp are the common model's bits and have other values (a Source SURF_SKY
// returned as bsp::SurfaceFlags once made every sky face translucent).
namespace vsurf {
enum : uint32_t {
    kLight = 0x1,
    kSky2D = 0x2,
    kSky = 0x4,
    kWarp = 0x8,
    kTrans = 0x10,
    kTrigger = 0x40,
    kNoDraw = 0x80,
    kHint = 0x100,
    kSkip = 0x200,
    kNoLight = 0x400,
    kBumpLight = 0x800,
};
} // namespace vsurf

// Source contents (public/bspflags.h CONTENTS_*).
uint32_t leafContents(uint32_t c) {
    uint32_t out = 0;
    if (c & 0x1) // SOLID
        out |= kContentsSolid;
    if (c & (0x10 | 0x20)) // SLIME, WATER
        out |= kContentsLiquid;
    if (c & 0x10)
        out |= kContentsSlime;
    return out;
}

std::string lowered(std::string_view s) {
    std::string out(s);
    for (char& c : out)
        c = char(std::tolower(static_cast<unsigned char>(c)));
    return out;
}

// Tool textures (materials/tools/*) are editor-only: the compiler strips most of their faces,
// the rest (on brush entities, the sky's own faces aside) the engine never draws. toolsblack is
// the exception: an opaque black surface.
bool isToolTexture(std::string_view name) {
    const std::string n = lowered(name);
    return n.starts_with("tools/") && n != "tools/toolsblack";
}

uint32_t materialFlags(uint32_t flags, std::string_view name) {
    uint32_t f = 0;
    if (flags & (vsurf::kSky | vsurf::kSky2D))
        return kSurfSky;
    if (flags & vsurf::kWarp)
        f |= kSurfLiquid;
    if (flags & vsurf::kTrans)
        f |= kSurfTranslucent;
    if ((flags & (vsurf::kNoDraw | vsurf::kHint | vsurf::kSkip | vsurf::kTrigger)) ||
        isToolTexture(name))
        f |= kSurfNoDraw;
    return f;
}

// True when all 64 entries, read in the given order, lie inside the file after the header.
bool directoryFits(const core::ByteReader& file, bool l4d2, DirEntry (&out)[kNumLumps]) {
    for (int i = 0; i < kNumLumps; ++i) {
        const uint64_t at = 8 + uint64_t(i) * 16;
        DirEntry& e = out[i];
        if (l4d2) {
            e.version = file.i32(at);
            e.offset = file.i32(at + 4);
            e.length = file.i32(at + 8);
        } else {
            e.offset = file.i32(at);
            e.length = file.i32(at + 4);
            e.version = file.i32(at + 8);
        }
        if (e.length < 0 || e.offset < 0)
            return false;
        if (e.length > 0 && (uint64_t(e.offset) < kHeaderSize ||
                             !file.inRange(uint64_t(e.offset), uint64_t(e.length))))
            return false;
    }
    return true;
}

// Areas (darea_t: numareaportals, firstareaportal, both int32) and area portals (dareaportal_t:
// m_PortalKey u16, otherarea u16, m_FirstClipPortalVert u16, m_nClipPortalVerts u16, planenum
// i32; Source SDK 2013 public/bspfile.h. Strata's lump version 1 widens the four u16 to u32, 20
// bytes, as bsp_tool reads it). A lump version this reader does not know, a lump whose size is
// not a whole number of records, an area's portal range past the portals or a portal into an
// area past the areas is noted in `dropped` with kAreasDropped: the areas are then emptied by
// dropAreasIfBroken and the map opens without them (the sky region then draws every leaf of its
// PVS row).
void readAreas(const core::ByteReader& ra, const core::ByteReader& rp, int32_t portal_version,
               Map& map, DroppedReferences& dropped) {
    map.areas.clear();
    map.area_portals.clear();
    const uint64_t psize = recordSize(kAreaPortals, portal_version);
    if (psize == 0 && rp.size() > 0) {
        dropped.add(core::makeError(core::ErrorCode::UnsupportedVersion, kLumpNames[kAreaPortals],
                                    -1, "version",
                                    "lump version " + std::to_string(portal_version) +
                                        " is not one this reader knows"),
                    kAreasDropped);
        return;
    }
    for (const auto& [lump, r, size] :
         {std::tuple{kAreas, &ra, uint64_t(8)}, std::tuple{kAreaPortals, &rp, psize}}) {
        if (size == 0 || r->size() % size == 0)
            continue;
        dropped.add(core::makeError(core::ErrorCode::LumpSize, kLumpNames[lump], -1, {},
                                    std::to_string(r->size()) + " bytes is not a multiple of " +
                                        std::to_string(size)),
                    kAreasDropped);
        return;
    }
    map.areas.resize(ra.size() / 8);
    map.area_portals.resize(psize ? rp.size() / psize : 0);
    for (size_t i = 0; i < map.area_portals.size(); ++i) {
        AreaPortal& p = map.area_portals[i];
        const uint64_t at = i * psize;
        // A key past int32 (Strata's u32) is kept as its bits: it only names the portal.
        p.portal = psize == 20 ? int32_t(rp.u32(at)) : rp.u16(at);
        const uint32_t other = psize == 20 ? rp.u32(at + 4) : rp.u16(at + 2);
        p.other_area = other > uint32_t(INT32_MAX) ? -1 : int32_t(other);
        if (p.other_area < 0 || size_t(p.other_area) >= map.areas.size())
            dropped.add(indexError("areaportals", int64_t(i), "otherarea", int64_t(other),
                                   map.areas.size(), "areas"),
                        kAreasDropped);
    }
    readAreaRecords(ra, map, dropped);
}

} // namespace

core::Status Parser::header() {
    if (file.size() < kHeaderSize)
        return core::makeError(core::ErrorCode::Truncated, "header", -1, {},
                               std::to_string(file.size()) + " bytes, less than the " +
                                   std::to_string(kHeaderSize) + "-byte VBSP header");
    if (!directoryFits(file, false, dir) && !directoryFits(file, true, dir)) {
        // Name the first entry that fails in Valve's order.
        directoryFits(file, false, dir);
        for (int i = 0; i < kNumLumps; ++i) {
            const DirEntry& e = dir[i];
            if (e.length < 0 || e.offset < 0 ||
                (e.length > 0 && (uint64_t(e.offset) < kHeaderSize ||
                                  !file.inRange(uint64_t(e.offset), uint64_t(e.length)))))
                return core::makeError(core::ErrorCode::LumpOutOfBounds, kLumpNames[i], -1, {},
                                       "lump " + std::to_string(e.offset) + "+" +
                                           std::to_string(e.length) + " outside the " +
                                           std::to_string(file.size()) + "-byte file");
        }
    }
    for (int i = 0; i < kNumLumps; ++i) {
        const DirEntry& e = dir[i];
        data[i] = file.sub(uint64_t(e.offset), uint64_t(e.length));
        if (core::isValveLzma(data[i].bytes())) {
            auto out = core::decodeValveLzma(data[i].bytes());
            if (!out) {
                core::Error err = out.error();
                err.lump = kLumpNames[i];
                return err;
            }
            decoded[i] = std::move(*out);
            data[i] = core::ByteReader(decoded[i]);
        }
    }
    return core::okStatus();
}

core::Status Parser::recordSizes() {
    static constexpr int kRead[] = {
        kPlanes,      kTexdata,   kVertexes,  kNodes,     kTexinfo,
        kFaces,       kFacesHdr,  kLeafs,     kEdges,     kSurfedges,
        kModels,      kLeafFaces, kDispInfo,  kDispVerts, kTexdataStringTable,
        kLeafBrushes, kBrushes,   kBrushSides};
    for (int lump : kRead) {
        const uint32_t size = recordSize(lump, dir[lump].version);
        if (size == 0 && data[lump].size() > 0)
            return core::makeError(core::ErrorCode::UnsupportedVersion, kLumpNames[lump], -1,
                                   "version",
                                   "lump version " + std::to_string(dir[lump].version) +
                                       " is not one this reader knows");
        if (size && data[lump].size() % size)
            return core::makeError(core::ErrorCode::LumpSize, kLumpNames[lump], -1, {},
                                   std::to_string(data[lump].size()) +
                                       " bytes is not a multiple of " + std::to_string(size));
    }
    for (int i = 0; i < kNumLumps; ++i) {
        if (dir[i].length == 0)
            continue;
        const uint32_t size = recordSize(i, dir[i].version);
        map.lumps.push_back(LumpInfo{kLumpNames[i], uint32_t(dir[i].offset),
                                     uint32_t(dir[i].length), size,
                                     uint32_t(size ? data[i].size() / size : data[i].size())});
    }
    return core::okStatus();
}

core::Status Parser::entities() {
    readEntityLump(map, data[kEntities].bytes());
    return core::okStatus();
}

core::Status Parser::planes() {
    readPlanes(map, data[kPlanes]);
    return core::okStatus();
}

core::Status Parser::geometry() {
    if (!data[kVertexes].readArray(0, count(kVertexes), vertices))
        return core::makeError(core::ErrorCode::Truncated, "vertexes");
    const core::ByteReader& re = data[kEdges];
    const bool wide = dir[kEdges].version == 1;
    edges.resize(count(kEdges));
    for (size_t i = 0; i < edges.size(); ++i)
        edges[i] = wide ? std::array<uint32_t, 2>{re.u32(i * 8), re.u32(i * 8 + 4)}
                        : std::array<uint32_t, 2>{re.u16(i * 4), re.u16(i * 4 + 2)};
    if (!data[kSurfedges].readArray(0, count(kSurfedges), surfedges))
        return core::makeError(core::ErrorCode::Truncated, "surfedges");
    return core::okStatus();
}

core::Status Parser::textures() {
    constexpr std::string_view kUnnamed = "an unnamed material (drawn missing)";
    // Texture names: a table of offsets into a block of NUL-terminated strings.
    const core::ByteReader& strings = data[kTexdataStringData];
    const core::ByteReader& table = data[kTexdataStringTable];
    const core::ByteReader& td = data[kTexdata];
    texdata.resize(count(kTexdata));
    for (size_t i = 0; i < texdata.size(); ++i) {
        texdata[i].width = td.i32(i * 32 + 16);
        texdata[i].height = td.i32(i * 32 + 20);
        // A name the tables do not hold leaves the material unnamed: drawn as missing.
        const int32_t id = td.i32(i * 32 + 12);
        if (id < 0 || uint64_t(id) >= count(kTexdataStringTable)) {
            dropped.add(indexError("texdata", int64_t(i), "nameStringTableID", id,
                                   count(kTexdataStringTable), "string table entries"),
                        kUnnamed);
            continue;
        }
        const int32_t at = table.i32(uint64_t(id) * 4);
        if (at < 0 || uint64_t(at) >= strings.size()) {
            dropped.add(indexError("texdata_string_table", id, "offset", at, strings.size(),
                                   "bytes of texture names"),
                        kUnnamed);
            continue;
        }
        texdata[i].name =
            strings.fixedString(uint64_t(at), std::min<uint64_t>(256, strings.size() - at));
    }
    const core::ByteReader& r = data[kTexinfo];
    const uint64_t n = count(kTexinfo);
    tex_axes.resize(n);
    lm_axes.resize(n);
    texinfo_flags.resize(n);
    map.materials.resize(n);
    for (uint64_t i = 0; i < n; ++i) {
        const uint64_t at = i * 72;
        r.read(at, tex_axes[i].s);
        r.read(at + 16, tex_axes[i].t);
        // Lightmap axes are in luxels per unit; LightmapBuilder works in 16-texel luxels.
        r.read(at + 32, lm_axes[i].s);
        r.read(at + 48, lm_axes[i].t);
        lm_axes[i].s *= 16.0f;
        lm_axes[i].t *= 16.0f;
        const uint32_t flags = r.u32(at + 64);
        const int32_t td_index = r.i32(at + 68);
        texinfo_flags[i] = flags;
        Material& m = map.materials[i];
        m.game_flags = flags;
        if (td_index >= 0 && size_t(td_index) < texdata.size()) {
            m.name = texdata[size_t(td_index)].name;
            m.width = std::max(0, texdata[size_t(td_index)].width);
            m.height = std::max(0, texdata[size_t(td_index)].height);
        } else if (td_index != -1) {
            dropped.add(
                indexError("texinfo", int64_t(i), "texdata", td_index, texdata.size(), "texdata"),
                kUnnamed);
        }
        m.flags = materialFlags(flags, m.name);
        m.uv_in_texels = m.width <= 0 || m.height <= 0;
    }
    return core::okStatus();
}

core::Status Parser::lightFace(LightmapBuilder& lightmaps, uint64_t index, uint32_t texinfo,
                               const core::ByteReader& r, uint64_t at, bool wide) {
    Face& face = map.faces[index];
    const int32_t lightofs = r.i32(at + (wide ? 32 : 20));
    // m_LightmapTextureMinsInLuxels[2], m_LightmapTextureSizeInLuxels[2] (size is luxels - 1)
    const uint64_t lm = at + (wide ? 40 : 28);
    const int32_t mins[2] = {r.i32(lm), r.i32(lm + 4)};
    const int32_t size[2] = {r.i32(lm + 8), r.i32(lm + 12)};
    const core::ByteReader& light = data[lighting_lump];
    if (lightofs < 0 || light.size() == 0 || face.numStyles() == 0) {
        face.styles = {kNoStyle, kNoStyle, kNoStyle, kNoStyle};
        return core::okStatus();
    }
    // One face's lightmap: a grid this reader cannot place leaves the face unlit.
    const auto unlit = [&](const char* field, std::string detail) {
        dropped.add(core::makeError(core::ErrorCode::BadLightmap, kLumpNames[faces_lump],
                                    int64_t(index), field, std::move(detail)),
                    "drawn unlit");
        face.styles = {kNoStyle, kNoStyle, kNoStyle, kNoStyle};
        return core::okStatus();
    };
    if (size[0] < 0 || size[1] < 0 || size[0] >= kMaxLightmapSide || size[1] >= kMaxLightmapSide)
        return unlit("m_LightmapTextureSizeInLuxels", std::to_string(size[0]) + "x" +
                                                          std::to_string(size[1]) + " outside 0.." +
                                                          std::to_string(kMaxLightmapSide - 1));
    // Luxel coordinates of real maps stay far inside this (the largest maps, +-131072 units at
    // one luxel per unit); beyond it mins * 16 would overflow the texel mins.
    constexpr int32_t kMaxLuxelMins = 1 << 24;
    if (std::abs(int64_t(mins[0])) > kMaxLuxelMins || std::abs(int64_t(mins[1])) > kMaxLuxelMins)
        return unlit("m_LightmapTextureMinsInLuxels", std::to_string(mins[0]) + "," +
                                                          std::to_string(mins[1]) + " outside +-" +
                                                          std::to_string(kMaxLuxelMins));
    const int32_t w = size[0] + 1, h = size[1] + 1;
    const int styles = face.numStyles();
    const int maps = (texinfo_flags[texinfo] & vsurf::kBumpLight) ? 4 : 1;
    const uint64_t samples = uint64_t(w) * uint64_t(h);
    const uint64_t need = uint64_t(styles) * uint64_t(maps) * samples * 4;
    // Read as far as the lump goes (bounds-checked reads give 0 beyond it): the rest black.
    if (uint64_t(lightofs) > light.size() || need > light.size() - uint64_t(lightofs))
        dropped.add(core::makeError(core::ErrorCode::BadLightmap, kLumpNames[faces_lump],
                                    int64_t(index), "lightofs",
                                    "lightmap at " + std::to_string(lightofs) + " (" +
                                        std::to_string(need) + " bytes) beyond " +
                                        std::to_string(light.size()) + " bytes of " +
                                        kLumpNames[lighting_lump]),
                    "read to the lump's end, the rest black");
    // The file holds style 0's flat map and its three bump maps, then style 1's, ...; the
    // builder takes every flat map first, then the bump maps (LightmapExtents::blocks_per_style).
    std::vector<uint8_t> rgb(size_t(styles) * size_t(maps) * samples * 3);
    for (int s = 0; s < styles; ++s)
        for (int m = 0; m < maps; ++m) {
            const uint64_t to = m == 0 ? uint64_t(s) : uint64_t(styles + s * 3 + m - 1);
            for (uint64_t k = 0; k < samples; ++k) {
                const uint64_t src =
                    uint64_t(lightofs) + ((uint64_t(s) * maps + uint64_t(m)) * samples + k) * 4;
                const int8_t e = static_cast<int8_t>(light.u8(src + 3));
                for (int c = 0; c < 3; ++c)
                    rgb[(to * samples + k) * 3 + uint64_t(c)] =
                        sourceLightmapByte(light.u8(src + uint64_t(c)), e);
            }
        }
    LightmapExtents ext;
    ext.blocks_per_style = maps;
    ext.texture_mins = {mins[0] * 16, mins[1] * 16};
    ext.extents = {size[0] * 16, size[1] * 16};
    ext.width = w;
    ext.height = h;
    return lightmaps.place(map, face, ext, lm_axes[texinfo], rgb, 0, kLumpNames[faces_lump],
                           int64_t(index));
}

core::Status Parser::faces() {
    // The LDR lighting and faces when the map has them, else the HDR ones (a map compiled with
    // -hdr only has an empty LDR faces lump); HDR first when asked for. A map with HDR lighting
    // but no HDR faces lump lights its one set of faces from either.
    const bool ldr = data[kLighting].size() > 0, hdr = data[kLightingHdr].size() > 0;
    if (ldr)
        map.lighting_variants.push_back("LDR");
    if (hdr)
        map.lighting_variants.push_back("HDR");
    const bool use_hdr = hdr && (options.hdr_lighting || !ldr);
    if (use_hdr)
        lighting_lump = kLightingHdr;
    if (data[kFacesHdr].size() > 0 && (use_hdr || data[kFaces].size() == 0))
        faces_lump = kFacesHdr;
    if (ldr || hdr)
        map.lighting_variant = use_hdr ? "HDR" : "LDR";
    const core::ByteReader& r = data[faces_lump];
    const bool wide = dir[faces_lump].version == 2;
    const uint64_t size = wide ? 72 : 56;
    const uint64_t n = r.size() / size;
    map.has_light_data = ldr || hdr;
    EdgeFaceBuilder builder(map, EdgeGeometry{vertices, edges, surfedges}, n);
    LightmapBuilder lightmaps;
    for (uint64_t i = 0; i < n; ++i) {
        // v0/v1: planenum u16, side u8, onNode u8, firstedge i32, numedges i16, texinfo i16,
        //        dispinfo i16 (12), fogvolume i16, styles[4] (16), lightofs i32 (20), area f32,
        //        lightmap mins/size i32[4] (28)
        // v2:    planenum u32, side u8, onNode u8, pad 2, firstedge, numedges, texinfo,
        //        dispinfo (20), fogvolume (all 32-bit), styles[4] (28), lightofs (32), area,
        //        lightmap mins/size (40)
        const uint64_t at = i * size;
        EdgeFaceRecord rec;
        if (wide) {
            rec.plane = r.u32(at);
            rec.side = r.u8(at + 4);
            rec.first_edge = r.i32(at + 8);
            rec.num_edges = r.i32(at + 12);
            rec.texinfo = r.i32(at + 16);
            r.read(at + 28, rec.styles);
        } else {
            rec.plane = r.u16(at);
            rec.side = r.u8(at + 2);
            rec.first_edge = r.i32(at + 4);
            rec.num_edges = r.get<int16_t>(at + 8);
            rec.texinfo = r.get<int16_t>(at + 10);
            r.read(at + 16, rec.styles);
        }
        const bool valid = rec.texinfo >= 0 && uint64_t(rec.texinfo) < tex_axes.size();
        const Material* m = valid ? &map.materials[size_t(rec.texinfo)] : nullptr;
        const float tw = m && !m->uv_in_texels ? float(m->width) : 1.0f;
        const float th = m && !m->uv_in_texels ? float(m->height) : 1.0f;
        if (auto s = builder.emit(i, rec, tex_axes.size(), int32_t(rec.texinfo),
                                  valid ? tex_axes[size_t(rec.texinfo)] : TexAxes{}, tw, th);
            !s)
            return s;
        const uint32_t flags = texinfo_flags[size_t(rec.texinfo)];
        if (flags & (vsurf::kSky | vsurf::kSky2D | vsurf::kNoDraw))
            continue;
        if (auto s = lightFace(lightmaps, i, uint32_t(rec.texinfo), r, at, wide); !s)
            return s;
        if (map.faces[i].lightmap_page < 0)
            builder.unlit(i);
        else if (map.faces[i].bump_light)
            ++map.bump_light_face_count;
    }
    builder.finish();
    lightmaps.finish(map);
    return displacements();
}

core::Status Parser::leafs() {
    const core::ByteReader& lf = data[kLeafFaces];
    const bool wide_lf = dir[kLeafFaces].version == 1;
    map.leaf_faces.resize(count(kLeafFaces));
    for (size_t i = 0; i < map.leaf_faces.size(); ++i) {
        const uint32_t f = wide_lf ? lf.u32(i * 4) : lf.u16(i * 2);
        if (f >= map.faces.size())
            return indexError("leaffaces", int64_t(i), "face", f, map.faces.size(), "faces");
        map.leaf_faces[i] = f;
    }
    readAreas(data[kAreas], data[kAreaPortals], dir[kAreaPortals].version, map, dropped);
    const core::ByteReader& r = data[kLeafs];
    const int32_t version = dir[kLeafs].version;
    const uint64_t size = recordSize(kLeafs, version);
    map.leaves.resize(count(kLeafs));
    if (map.leaves.empty())
        return core::makeError(core::ErrorCode::BadTree, "leafs", -1, {}, "no leaves");
    for (size_t i = 0; i < map.leaves.size(); ++i) {
        const uint64_t at = i * size;
        Leaf& leaf = map.leaves[i];
        leaf.contents = leafContents(r.u32(at));
        uint64_t first = 0, num = 0;
        if (version == 2) {
            // contents, cluster i32, area:17 flags:15, mins/maxs f32, firstleafface u32, num
            leaf.cluster = r.i32(at + 4);
            leaf.area = int32_t(r.u32(at + 8) & 0x1ffff);
            r.read(at + 12, leaf.mins);
            r.read(at + 24, leaf.maxs);
            first = r.u32(at + 36);
            num = r.u32(at + 40);
        } else {
            // contents, cluster i16, area:9 flags:7, mins/maxs i16, firstleafface u16, num
            leaf.cluster = r.get<int16_t>(at + 4);
            leaf.area = int32_t(r.u16(at + 6) & 0x1ff);
            for (int k = 0; k < 3; ++k) {
                leaf.mins[k] = float(r.get<int16_t>(at + 8 + uint64_t(k) * 2));
                leaf.maxs[k] = float(r.get<int16_t>(at + 14 + uint64_t(k) * 2));
            }
            first = r.u16(at + 20);
            num = r.u16(at + 22);
        }
        if (first + num > map.leaf_faces.size())
            return indexError("leafs", int64_t(i), "firstleafface", int64_t(first + num),
                              map.leaf_faces.size(), "leaffaces");
        leaf.first_leaf_face = uint32_t(first);
        leaf.num_leaf_faces = uint32_t(num);
        checkLeafCluster(leaf, i, dropped);
        if (!map.areas.empty() && size_t(leaf.area) >= map.areas.size())
            dropped.add(
                indexError("leafs", int64_t(i), "area", leaf.area, map.areas.size(), "areas"),
                kAreasDropped);
    }
    dropAreasIfBroken(map, dropped);
    return checkLeafFaceTotal(map, map.leaf_faces.size());
}

core::Status Parser::nodes() {
    const core::ByteReader& r = data[kNodes];
    const bool wide = dir[kNodes].version == 1;
    const uint64_t size = wide ? 48 : 32;
    map.nodes.resize(count(kNodes));
    for (uint64_t i = 0; i < map.nodes.size(); ++i) {
        // planenum, children[2] (int32), then mins/maxs: int16 (v0) or float (v1)
        const uint64_t at = i * size;
        if (auto st = setNodeLinks(map, i, r.i32(at), {r.i32(at + 4), r.i32(at + 8)}); !st)
            return st;
        Node& node = map.nodes[i];
        if (wide) {
            r.read(at + 12, node.mins);
            r.read(at + 24, node.maxs);
        } else {
            for (int k = 0; k < 3; ++k) {
                node.mins[k] = float(r.get<int16_t>(at + 12 + uint64_t(k) * 2));
                node.maxs[k] = float(r.get<int16_t>(at + 18 + uint64_t(k) * 2));
            }
        }
    }
    return core::okStatus();
}

core::Status Parser::models() {
    auto heads = readEdgeModels(map, data[kModels], count(kModels), 48, 40, false);
    if (!heads)
        return heads.error();
    return validateNodeTrees(map, *heads);
}

core::Status Parser::collision() {
    return collisionOrNone(
        map,
        readSourceCollision(map, SourceBrushLumps{data[kBrushes], data[kBrushSides],
                                                  dir[kBrushSides].version == 1, data[kLeafBrushes],
                                                  dir[kLeafBrushes].version == 1, data[kLeafs],
                                                  dir[kLeafs].version, data[kModels]}));
}

// Static and detail props (game lumps "sprp", "dprp") and the leaf ambient cubes, read by
// bsp/source_props.cpp; static props are also listed as "prop_static" entities.
core::Status Parser::staticProps() {
    readSourceGameLumps(map, file.bytes(), data[kGameLump].bytes());
    readSourceLeafAmbient(map,
                          {data[kLeafAmbientIndex].bytes(), dir[kLeafAmbientIndex].version,
                           data[kLeafAmbientLighting].bytes()},
                          {data[kLeafAmbientIndexHdr].bytes(), dir[kLeafAmbientIndexHdr].version,
                           data[kLeafAmbientLightingHdr].bytes()},
                          data[kLeafs].bytes(), dir[kLeafs].version);
    // The world lights light models (scene/models/prop_lights.h); a lump that cannot be read is
    // a warning and the models keep their ambient light only.
    for (const bool hdr : {false, true}) {
        const VLump lump = hdr ? kWorldLightsHdr : kWorldLights;
        auto lights = parseWorldLights(data[lump].bytes(), dir[lump].version, hdr);
        if (lights)
            (hdr ? map.world_lights_hdr : map.world_lights) = std::move(*lights);
        else
            map.warnings.push_back(lights.error().message() + "; world lights dropped");
    }
    return core::okStatus();
}

// The cube-map samples (bsp/cube_maps.h). The engine refuses a map whose lump is not whole
// records (Mod_LoadCubemapSamples); only reflections need them, so a lump that cannot be read is
// a warning and the map has none.
void Parser::cubeMaps() {
    auto samples = parseCubeMapSamples(data[kCubemaps].bytes());
    if (samples)
        map.cube_maps = std::move(*samples);
    else
        map.warnings.push_back(samples.error().message() + "; cube maps dropped");
}

// The overlays' fragments join the faces after the displacements are linked into the leaves
// (the fragments follow their faces there). A lump that cannot be read is a warning and the map
// has no overlays.
core::Status Parser::overlays() {
    auto read = parseOverlays(data[kOverlays].bytes(), dir[kOverlays].version);
    if (!read) {
        map.warnings.push_back(read.error().message() + "; overlays not drawn");
        return core::okStatus();
    }
    if (auto fades = readOverlayFades(data[kOverlayFades].bytes(), *read); !fades)
        map.warnings.push_back(fades.error().message() + "; overlays drawn at any distance");
    map.overlay_count = uint32_t(read->size());
    map.overlay_faces = buildOverlayFaces(map, *read, dropped);
    return core::okStatus();
}

core::Status Parser::visibility() {
    return readClusterVisibility(map, data[kVisibility]);
}

} // namespace vbsp

// ColorRGBExp32 to the 8-bit lightmap texel the renderer's 2x overbright expects: the sample's
// linear value c * 2^exp / 255 (ColorSpace::TexLightToLinear), quantised to 1/1024 over 0..4,
// raised to 1 / 2.2 (the default screen gamma) and halved for the overbright factor of 2, as
// the engine's linear-to-lightmap table builds it (ColorSpace::SetGamma).
uint8_t sourceLightmapByte(uint8_t c, int8_t exponent) {
    const double linear = double(c) * std::ldexp(1.0, exponent) / 255.0;
    const long i = std::min(4095L, std::lround(std::clamp(linear, 0.0, 4.0) * 1024.0));
    const double f = std::pow(double(i) / 1024.0, 1.0 / 2.2);
    return uint8_t(std::min(255.0, std::floor(f * 255.0 * 0.5)));
}

core::Result<Map> parseSource(std::span<const uint8_t> bytes, std::string_view name,
                              const LoadOptions& options) {
    using vbsp::Parser;
    Parser p;
    p.options = options;
    p.file = core::ByteReader(bytes);
    p.name = name;
    char magic[4] = {};
    if (!p.file.read(0, magic) || std::memcmp(magic, "VBSP", 4) != 0)
        return core::makeError(core::ErrorCode::UnknownFormat, "header", -1, {},
                               "not a Source VBSP map");
    p.map.version = p.file.i32(4);
    p.map.format = Format::Source;
    using Step = core::Status (Parser::*)();
    const Step steps[] = {&Parser::header,
                          &Parser::recordSizes,
                          &Parser::entities,
                          &Parser::planes,
                          &Parser::geometry,
                          &Parser::textures,
                          &Parser::faces,
                          &Parser::leafs,
                          &Parser::nodes,
                          &Parser::models,
                          &Parser::linkDisplacements,
                          &Parser::overlays,
                          &Parser::collision,
                          &Parser::visibility};
    for (Step step : steps)
        if (auto s = (p.*step)(); !s)
            return s.error();
    bindSubmodelEntities(p.map);
    // The pakfile lump (a zip) as it is stored; the content layer mounts it.
    const auto pak = p.data[vbsp::kPakfile].bytes();
    p.map.embedded_archive.assign(pak.begin(), pak.end());
    if (auto s = p.staticProps(); !s)
        return s.error();
    p.cubeMaps();
    p.dropped.flush(p.map);
    return std::move(p.map);
}

} // namespace bsp
