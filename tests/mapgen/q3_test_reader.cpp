#include "mapgen/q3_test_reader.h"

#include "core/byte_reader.h"

#include <algorithm>
#include <vector>

namespace mapgen_test {

using mapgen::Q3Lump;

std::string checkStructure(std::span<const uint8_t> file) {
    const core::ByteReader r(file);
    if (file.size() < static_cast<size_t>(mapgen::kQ3HeaderSize))
        return "file shorter than the header\n";
    std::string out;
    if (r.fixedString(0, 4) != "IBSP")
        out += "magic is not IBSP\n";
    if (r.i32(4) != mapgen::kQ3Version)
        out += "version " + std::to_string(r.i32(4)) + "\n";
    struct Range {
        int64_t offset, length;
        int lump;
    };
    std::vector<Range> ranges;
    for (int i = 0; i < mapgen::kQ3LumpCount; ++i) {
        const int64_t offset = r.i32(8 + 8 * static_cast<uint64_t>(i));
        const int64_t length = r.i32(12 + 8 * static_cast<uint64_t>(i));
        const std::string name = mapgen::q3LumpName(static_cast<Q3Lump>(i));
        const uint32_t rec = mapgen::q3RecordSize(static_cast<Q3Lump>(i));
        if (offset < 0 || length < 0)
            out += name + ": negative offset or length\n";
        else if (offset + length > static_cast<int64_t>(file.size()))
            out += name + ": beyond the end of the file\n";
        else if (length > 0 && offset < mapgen::kQ3HeaderSize)
            out += name + ": inside the header\n";
        if (rec && length % rec)
            out += name + ": length " + std::to_string(length) + " not a multiple of " +
                   std::to_string(rec) + "\n";
        if (length > 0 && offset % 4)
            out += name + ": offset not 4-aligned\n";
        if (length > 0)
            ranges.push_back({offset, length, i});
    }
    std::sort(ranges.begin(), ranges.end(),
              [](const Range& a, const Range& b) { return a.offset < b.offset; });
    for (size_t i = 1; i < ranges.size(); ++i)
        if (ranges[i].offset < ranges[i - 1].offset + ranges[i - 1].length)
            out += std::string(mapgen::q3LumpName(static_cast<Q3Lump>(ranges[i].lump))) +
                   ": overlaps another lump\n";
    return out;
}

namespace {

struct Lump {
    core::ByteReader r;
    size_t count = 0;
};

Lump lump(const core::ByteReader& file, Q3Lump which) {
    const uint64_t at = 8 + 8 * static_cast<uint64_t>(which);
    const uint32_t offset = file.u32(at), length = file.u32(at + 4);
    const uint32_t rec = mapgen::q3RecordSize(which);
    return {file.sub(offset, length), rec ? length / rec : length};
}

glm::vec3 vec3(const core::ByteReader& r, uint64_t at) {
    return {r.f32(at), r.f32(at + 4), r.f32(at + 8)};
}

glm::ivec3 ivec3(const core::ByteReader& r, uint64_t at) {
    return {r.i32(at), r.i32(at + 4), r.i32(at + 8)};
}

} // namespace

std::optional<mapgen::Q3MapDesc> readQ3(std::span<const uint8_t> file, std::string* error) {
    const std::string problems = checkStructure(file);
    if (!problems.empty()) {
        if (error)
            *error = problems;
        return std::nullopt;
    }
    const core::ByteReader f(file);
    mapgen::Q3MapDesc d;
    {
        const Lump l = lump(f, Q3Lump::Entities);
        const auto b = l.r.bytes();
        d.entities.assign(b.begin(), std::find(b.begin(), b.end(), uint8_t{0}));
    }
    {
        const Lump l = lump(f, Q3Lump::Shaders);
        for (size_t i = 0; i < l.count; ++i)
            d.textures.push_back(
                {l.r.fixedString(i * 72, 64), l.r.i32(i * 72 + 64), l.r.i32(i * 72 + 68)});
    }
    {
        const Lump l = lump(f, Q3Lump::Planes);
        for (size_t i = 0; i < l.count; ++i)
            d.planes.push_back({vec3(l.r, i * 16), l.r.f32(i * 16 + 12)});
    }
    {
        const Lump l = lump(f, Q3Lump::Nodes);
        for (size_t i = 0; i < l.count; ++i) {
            const uint64_t o = i * 36;
            d.nodes.push_back({l.r.i32(o),
                               {l.r.i32(o + 4), l.r.i32(o + 8)},
                               ivec3(l.r, o + 12),
                               ivec3(l.r, o + 24)});
        }
    }
    {
        const Lump l = lump(f, Q3Lump::Leafs);
        for (size_t i = 0; i < l.count; ++i) {
            const uint64_t o = i * 48;
            d.leaves.push_back({l.r.i32(o), l.r.i32(o + 4), ivec3(l.r, o + 8), ivec3(l.r, o + 20),
                                l.r.i32(o + 32), l.r.i32(o + 36), l.r.i32(o + 40),
                                l.r.i32(o + 44)});
        }
    }
    for (auto [which, out] : {std::pair{Q3Lump::LeafSurfaces, &d.leaf_faces},
                              std::pair{Q3Lump::LeafBrushes, &d.leaf_brushes},
                              std::pair{Q3Lump::DrawIndexes, &d.meshverts}}) {
        const Lump l = lump(f, which);
        for (size_t i = 0; i < l.count; ++i)
            out->push_back(l.r.i32(i * 4));
    }
    {
        const Lump l = lump(f, Q3Lump::Models);
        for (size_t i = 0; i < l.count; ++i) {
            const uint64_t o = i * 40;
            d.models.push_back({vec3(l.r, o), vec3(l.r, o + 12), l.r.i32(o + 24), l.r.i32(o + 28),
                                l.r.i32(o + 32), l.r.i32(o + 36)});
        }
    }
    {
        const Lump l = lump(f, Q3Lump::Brushes);
        for (size_t i = 0; i < l.count; ++i)
            d.brushes.push_back({l.r.i32(i * 12), l.r.i32(i * 12 + 4), l.r.i32(i * 12 + 8)});
    }
    {
        const Lump l = lump(f, Q3Lump::BrushSides);
        for (size_t i = 0; i < l.count; ++i)
            d.brush_sides.push_back({l.r.i32(i * 8), l.r.i32(i * 8 + 4)});
    }
    {
        const Lump l = lump(f, Q3Lump::DrawVerts);
        for (size_t i = 0; i < l.count; ++i) {
            const uint64_t o = i * 44;
            mapgen::Q3Vertex v;
            v.position = vec3(l.r, o);
            v.uv = {l.r.f32(o + 12), l.r.f32(o + 16)};
            v.lm_uv = {l.r.f32(o + 20), l.r.f32(o + 24)};
            v.normal = vec3(l.r, o + 28);
            v.colour = {l.r.u8(o + 40), l.r.u8(o + 41), l.r.u8(o + 42), l.r.u8(o + 43)};
            d.vertices.push_back(v);
        }
    }
    {
        const Lump l = lump(f, Q3Lump::Fogs);
        for (size_t i = 0; i < l.count; ++i)
            d.fogs.push_back(
                {l.r.fixedString(i * 72, 64), l.r.i32(i * 72 + 64), l.r.i32(i * 72 + 68)});
    }
    {
        const Lump l = lump(f, Q3Lump::Surfaces);
        for (size_t i = 0; i < l.count; ++i) {
            const uint64_t o = i * 104;
            mapgen::Q3Face s;
            s.texture = l.r.i32(o);
            s.fog = l.r.i32(o + 4);
            s.type = static_cast<mapgen::Q3FaceType>(l.r.i32(o + 8));
            s.first_vertex = l.r.i32(o + 12);
            s.num_vertices = l.r.i32(o + 16);
            s.first_meshvert = l.r.i32(o + 20);
            s.num_meshverts = l.r.i32(o + 24);
            s.lightmap = l.r.i32(o + 28);
            s.lm_start = {l.r.i32(o + 32), l.r.i32(o + 36)};
            s.lm_size = {l.r.i32(o + 40), l.r.i32(o + 44)};
            s.lm_origin = vec3(l.r, o + 48);
            s.lm_vecs = {vec3(l.r, o + 60), vec3(l.r, o + 72)};
            s.normal = vec3(l.r, o + 84);
            s.patch_size = {l.r.i32(o + 96), l.r.i32(o + 100)};
            d.faces.push_back(s);
        }
    }
    {
        const Lump l = lump(f, Q3Lump::Lightmaps);
        for (size_t i = 0; i < l.count; ++i) {
            const auto b =
                l.r.bytes().subspan(i * mapgen::kQ3LightmapBytes, mapgen::kQ3LightmapBytes);
            d.lightmaps.push_back({std::vector<uint8_t>(b.begin(), b.end())});
        }
    }
    {
        const Lump l = lump(f, Q3Lump::LightGrid);
        for (size_t i = 0; i < l.count; ++i) {
            mapgen::Q3LightGridPoint p;
            for (size_t k = 0; k < 3; ++k) {
                p.ambient[k] = l.r.u8(i * 8 + k);
                p.directed[k] = l.r.u8(i * 8 + 3 + k);
            }
            p.direction = {l.r.u8(i * 8 + 6), l.r.u8(i * 8 + 7)};
            d.light_grid.push_back(p);
        }
    }
    {
        const Lump l = lump(f, Q3Lump::Visibility);
        if (l.r.size() >= 8) {
            d.vis.num_clusters = l.r.i32(0);
            d.vis.row_size = l.r.i32(4);
            const auto b = l.r.bytes().subspan(8);
            d.vis.bits.assign(b.begin(), b.end());
        }
    }
    return d;
}

} // namespace mapgen_test
