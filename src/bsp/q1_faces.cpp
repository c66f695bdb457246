// Quake 1 family faces: face records, lit liquids, BSPX per-face lightmaps and the faces lump.
// The format is in bsp/q1.cpp.
#include "bsp/q1_parser.h"

#include "bsp/bspx.h"

#include <cmath>
#include <span>

namespace bsp::q1 {

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
    // Whether the file holds light data decides how a game draws faces without samples
    // (game::LightRule::unlit_faces).
    map.has_light_data = !lighting_rgb.empty();
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
    // the lighting rule's lightmap_scale would draw it twice as bright.
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
        if (mat && (mat->flags & kSurfWarp) && variant != Variant::HalfLife) {
            // QuakeSpasm draws a liquid with its warp image at dot(v, vecs) / 128, without the
            // texinfo's offsets (gl_model.c Mod_PolyForUnlitSurface, r_brush.c
            // BuildSurfaceDisplayList), and that image holds the texture twice whatever its
            // size (gl_warp.c WARPCALC divides by 64): uv in 64-texel tiles, the tile that
            // game/quake1.cpp's warp rule (WarpRule::tile) draws them with.
            axes.s.w = axes.t.w = 0.0f;
            tw = th = kLiquidTile;
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

} // namespace bsp::q1
