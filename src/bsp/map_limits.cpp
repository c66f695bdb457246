#include "bsp/map_limits.h"

namespace bsp {

namespace {

// Quake 1, bspfile.h. The lighting and visibility caps are the original tools' buffers.
constexpr LumpLimit kQuake1[] = {
    {"entities", "MAX_MAP_ENTSTRING", 65536, true},
    {"planes", "MAX_MAP_PLANES", 32767, false},
    {"textures", "MAX_MAP_MIPTEX", 0x200000, true},
    {"vertexes", "MAX_MAP_VERTS", 65535, false},
    {"visibility", "MAX_MAP_VISIBILITY", 0x100000, true},
    {"nodes", "MAX_MAP_NODES", 32767, false},
    {"texinfo", "MAX_MAP_TEXINFO", 4096, false},
    {"faces", "MAX_MAP_FACES", 65535, false},
    {"lighting", "MAX_MAP_LIGHTING", 0x100000, true},
    {"clipnodes", "MAX_MAP_CLIPNODES", 32767, false},
    {"leafs", "MAX_MAP_LEAFS", 8192, false},
    {"marksurfaces", "MAX_MAP_MARKSURFACES", 65535, false},
    {"edges", "MAX_MAP_EDGES", 256000, false},
    {"surfedges", "MAX_MAP_SURFEDGES", 512000, false},
    {"models", "MAX_MAP_MODELS", 256, false},
    {"entity count", "MAX_MAP_ENTITIES", 1024, false},
};

// Half-Life, common/bspfile.h: Quake's table with more models, texinfo and light.
constexpr LumpLimit kHalfLife[] = {
    {"entities", "MAX_MAP_ENTSTRING", 128 * 1024, true},
    {"planes", "MAX_MAP_PLANES", 32767, false},
    {"textures", "MAX_MAP_MIPTEX", 0x200000, true},
    {"vertexes", "MAX_MAP_VERTS", 65535, false},
    {"visibility", "MAX_MAP_VISIBILITY", 0x200000, true},
    {"nodes", "MAX_MAP_NODES", 32767, false},
    {"texinfo", "MAX_MAP_TEXINFO", 8192, false},
    {"faces", "MAX_MAP_FACES", 65535, false},
    {"lighting", "MAX_MAP_LIGHTING", 0x200000, true},
    {"clipnodes", "MAX_MAP_CLIPNODES", 32767, false},
    {"leafs", "MAX_MAP_LEAFS", 8192, false},
    {"marksurfaces", "MAX_MAP_MARKSURFACES", 65535, false},
    {"edges", "MAX_MAP_EDGES", 256000, false},
    {"surfedges", "MAX_MAP_SURFEDGES", 512000, false},
    {"models", "MAX_MAP_MODELS", 400, false},
    {"entity count", "MAX_MAP_ENTITIES", 1024, false},
};

// Quake 2, qcommon/qfiles.h.
constexpr LumpLimit kQuake2[] = {
    {"entities", "MAX_MAP_ENTSTRING", 0x40000, true},
    {"planes", "MAX_MAP_PLANES", 65536, false},
    {"vertexes", "MAX_MAP_VERTS", 65536, false},
    {"visibility", "MAX_MAP_VISIBILITY", 0x100000, true},
    {"nodes", "MAX_MAP_NODES", 65536, false},
    {"texinfo", "MAX_MAP_TEXINFO", 8192, false},
    {"faces", "MAX_MAP_FACES", 65536, false},
    {"lighting", "MAX_MAP_LIGHTING", 0x200000, true},
    {"leafs", "MAX_MAP_LEAFS", 65536, false},
    {"leaffaces", "MAX_MAP_LEAFFACES", 65536, false},
    {"leafbrushes", "MAX_MAP_LEAFBRUSHES", 65536, false},
    {"edges", "MAX_MAP_EDGES", 128000, false},
    {"surfedges", "MAX_MAP_SURFEDGES", 256000, false},
    {"models", "MAX_MAP_MODELS", 1024, false},
    {"brushes", "MAX_MAP_BRUSHES", 8192, false},
    {"brushsides", "MAX_MAP_BRUSHSIDES", 65536, false},
    {"areas", "MAX_MAP_AREAS", 256, false},
    {"areaportals", "MAX_MAP_AREAPORTALS", 1024, false},
    {"entity count", "MAX_MAP_ENTITIES", 2048, false},
};

// Quake 3, qcommon/qfiles.h.
constexpr LumpLimit kQuake3[] = {
    {"entities", "MAX_MAP_ENTSTRING", 0x40000, true},
    {"textures", "MAX_MAP_SHADERS", 0x400, false},
    {"planes", "MAX_MAP_PLANES", 0x20000, false},
    {"nodes", "MAX_MAP_NODES", 0x20000, false},
    {"leafs", "MAX_MAP_LEAFS", 0x20000, false},
    {"leaffaces", "MAX_MAP_LEAFFACES", 0x20000, false},
    {"leafbrushes", "MAX_MAP_LEAFBRUSHES", 0x40000, false},
    {"models", "MAX_MAP_MODELS", 0x400, false},
    {"brushes", "MAX_MAP_BRUSHES", 0x8000, false},
    {"brushsides", "MAX_MAP_BRUSHSIDES", 0x20000, false},
    {"vertexes", "MAX_MAP_DRAW_VERTS", 0x80000, false},
    {"meshverts", "MAX_MAP_DRAW_INDEXES", 0x80000, false},
    {"effects", "MAX_MAP_FOGS", 0x100, false},
    {"faces", "MAX_MAP_DRAW_SURFS", 0x20000, false},
    {"lightmaps", "MAX_MAP_LIGHTING", 0x800000, true},
    {"lightvols", "MAX_MAP_LIGHTGRID", 0x800000, true},
    {"visdata", "MAX_MAP_VISIBILITY", 0x200000, true},
    {"entity count", "MAX_MAP_ENTITIES", 0x800, false},
};

// Source, public/bspfile.h of the Source SDK 2013 (the limits vbsp enforces; engine branches
// and Strata's v25 raised several).
constexpr LumpLimit kSource[] = {
    {"entities", "MAX_MAP_ENTSTRING", 0x80000, true},
    {"planes", "MAX_MAP_PLANES", 65536, false},
    {"texdata", "MAX_MAP_TEXDATA", 2048, false},
    {"vertexes", "MAX_MAP_VERTS", 65536, false},
    {"visibility", "MAX_MAP_VISIBILITY", 0x1000000, true},
    {"nodes", "MAX_MAP_NODES", 65536, false},
    {"texinfo", "MAX_MAP_TEXINFO", 12288, false},
    {"faces", "MAX_MAP_FACES", 65536, false},
    {"lighting", "MAX_MAP_LIGHTING", 0x1000000, true},
    {"leafs", "MAX_MAP_LEAFS", 65536, false},
    {"edges", "MAX_MAP_EDGES", 256000, false},
    {"surfedges", "MAX_MAP_SURFEDGES", 512000, false},
    {"models", "MAX_MAP_MODELS", 1024, false},
    {"leaffaces", "MAX_MAP_LEAFFACES", 65536, false},
    {"brushes", "MAX_MAP_BRUSHES", 8192, false},
    {"brushsides", "MAX_MAP_BRUSHSIDES", 65536, false},
    {"areas", "MAX_MAP_AREAS", 256, false},
    {"dispinfo", "MAX_MAP_DISPINFO", 2048, false},
    {"lighting_hdr", "MAX_MAP_LIGHTING", 0x1000000, true},
    {"faces_hdr", "MAX_MAP_FACES", 65536, false},
    {"entity count", "MAX_MAP_ENTITIES", 8192, false},
};

} // namespace

std::span<const LumpLimit> lumpLimits(Format format) {
    switch (format) {
    case Format::Quake1:
        return kQuake1;
    case Format::HalfLife:
        return kHalfLife;
    case Format::Quake2:
    case Format::Quake2Qbsp: // the re-release raised the limits; the original table is a guide
        return kQuake2;
    case Format::Quake3:
    case Format::Quake3Rtcw:
    case Format::Qfusion:
        return kQuake3;
    case Format::Source:
        return kSource;
    case Format::Quake1Bsp2:
    case Format::Quake1Rmq:
        break;
    }
    return {};
}

std::string_view limitsSource(Format format) {
    switch (format) {
    case Format::Quake1:
        return "Quake bspfile.h";
    case Format::HalfLife:
        return "Half-Life bspfile.h";
    case Format::Quake2:
        return "Quake 2 qfiles.h";
    case Format::Quake2Qbsp:
        return "Quake 2 qfiles.h (original limits; the re-release raised them)";
    case Format::Quake3:
        return "Quake 3 qfiles.h";
    case Format::Quake3Rtcw:
    case Format::Qfusion:
        return "Quake 3 qfiles.h (closest published table)";
    case Format::Source:
        return "Source SDK 2013 public/bspfile.h";
    case Format::Quake1Bsp2:
    case Format::Quake1Rmq:
        break;
    }
    return "none (32-bit format without fixed tables)";
}

std::vector<LimitRow> checkLimits(const Map& map) {
    const std::span<const LumpLimit> table = lumpLimits(map.format);
    auto find = [&](std::string_view name) -> const LumpLimit* {
        for (const LumpLimit& l : table)
            if (l.lump == name)
                return &l;
        return nullptr;
    };
    std::vector<LimitRow> rows;
    rows.reserve(map.lumps.size() + 1);
    for (const LumpInfo& info : map.lumps) {
        LimitRow r;
        r.lump = info.name;
        r.length = info.length;
        r.record_size = info.record_size;
        r.count = info.count;
        if (const LumpLimit* l = find(info.name)) {
            r.limit = l->max;
            r.constant = l->constant;
            r.used = l->bytes ? info.length : info.count;
        } else {
            r.used = info.record_size ? info.count : info.length;
        }
        rows.push_back(std::move(r));
    }
    LimitRow e;
    e.lump = "entity count";
    e.count = map.entities.size();
    e.used = e.count;
    if (const LumpLimit* l = find("entity count")) {
        e.limit = l->max;
        e.constant = l->constant;
    }
    rows.push_back(std::move(e));
    return rows;
}

} // namespace bsp
