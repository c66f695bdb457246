#include "content/model/vtx.h"

#include "content/model/source_read.h"

namespace content {

namespace {

using source_read::error;
using source_read::table;

constexpr int32_t kVtxVersion = 7;
constexpr uint64_t kHeaderBytes = 36;
constexpr uint64_t kBodyPartBytes = 8;
constexpr uint64_t kModelBytes = 8;
constexpr uint64_t kLodBytes = 12;
constexpr uint64_t kMeshBytes = 9;
constexpr uint64_t kVertexBytes = 9;
constexpr uint8_t kStripTriList = 1;
constexpr uint8_t kStripTriStrip = 2;

struct Reader {
    const core::ByteReader& r;
    uint64_t group_bytes = 25; // StripGroupHeader_t; 33 with the topology pair
    uint64_t strip_bytes = 27; // StripHeader_t; 35 with the topology pair
    uint64_t triangles = 0;    // so far, over the file
    // Tables may overlap, so every table read counts against one budget for the file.
    uint64_t records = 0;
    uint64_t group_vertices = 0;

    core::Status spend(std::string_view what, int64_t index, const char* field, uint64_t records_,
                       uint64_t vertices) {
        records += records_;
        group_vertices += vertices;
        if (records > kSourceMaxVtxRecords || group_vertices > kSourceMaxTriangles * 3)
            return error(core::ErrorCode::LimitExceeded, what, index, field,
                         "more than " + std::to_string(kSourceMaxVtxRecords) + " records or " +
                             std::to_string(kSourceMaxTriangles * 3) +
                             " strip group vertices in the file");
        return core::okStatus();
    }
};

core::Status readStrips(Reader& x, uint64_t group_at, int64_t group_index, VtxMesh& mesh,
                        const std::vector<uint16_t>& ids) {
    const core::ByteReader& r = x.r;
    const int32_t num_indices = r.i32(group_at + 8);
    auto indices = table(r, "vtx.stripgroups", group_index, "numIndices", num_indices,
                         r.i32(group_at + 12), group_at, 2, kSourceMaxTriangles * 3);
    if (!indices)
        return indices.error();
    auto strips = table(r, "vtx.stripgroups", group_index, "numStrips", r.i32(group_at + 16),
                        r.i32(group_at + 20), group_at, x.strip_bytes, kSourceMaxRecords);
    if (!strips)
        return strips.error();
    if (auto s = x.spend("vtx.stripgroups", group_index, "numStrips", strips->count, 0); !s)
        return s;
    mesh.strips += strips->count;
    for (uint32_t s = 0; s < strips->count; ++s) {
        const uint64_t at = strips->offset + uint64_t(s) * x.strip_bytes;
        const int32_t count = r.i32(at), first = r.i32(at + 4);
        const uint8_t flags = r.u8(at + 18);
        if (count < 0 || first < 0 || uint64_t(first) + uint64_t(count) > indices->count)
            return error(core::ErrorCode::IndexOutOfRange, "vtx.strips", s, "indexOffset",
                         std::to_string(first) + "+" + std::to_string(count) + " beyond " +
                             std::to_string(indices->count) + " indices of its group");
        const bool list = (flags & kStripTriList) != 0;
        if (!list && (flags & kStripTriStrip) == 0)
            return error(core::ErrorCode::BadValue, "vtx.strips", s, "flags",
                         "neither a triangle list nor a strip (" + std::to_string(flags) + ")");
        if (list && count % 3 != 0)
            return error(core::ErrorCode::BadValue, "vtx.strips", s, "numIndices",
                         std::to_string(count) + " is not a multiple of 3");
        const uint32_t tris = list ? uint32_t(count) / 3 : uint32_t(std::max(count - 2, 0));
        x.triangles += tris;
        if (x.triangles > kSourceMaxTriangles)
            return error(core::ErrorCode::LimitExceeded, "vtx.strips", s, "numIndices",
                         "more than " + std::to_string(kSourceMaxTriangles) + " triangles");
        auto corner = [&](uint32_t k) -> core::Result<uint16_t> {
            const uint16_t v = r.u16(indices->offset + (uint64_t(first) + k) * 2);
            if (v >= ids.size())
                return error(core::ErrorCode::IndexOutOfRange, "vtx.strips", s, "index",
                             "vertex " + std::to_string(v) + " of " + std::to_string(ids.size()));
            return ids[v];
        };
        for (uint32_t t = 0; t < tris; ++t) {
            std::array<uint16_t, 3> tri{};
            for (uint32_t k = 0; k < 3; ++k) {
                auto c = corner(list ? t * 3 + k : t + k);
                if (!c)
                    return c.error();
                tri[k] = *c;
            }
            if (!list && (t & 1))
                std::swap(tri[1], tri[2]);
            if (!list && (tri[0] == tri[1] || tri[1] == tri[2] || tri[0] == tri[2]))
                continue;
            mesh.triangles.insert(mesh.triangles.end(), tri.begin(), tri.end());
        }
    }
    return core::okStatus();
}

core::Status readMesh(Reader& x, uint64_t mesh_at, int64_t mesh_index, VtxMesh& mesh) {
    const core::ByteReader& r = x.r;
    mesh.flags = r.u8(mesh_at + 8);
    auto groups = table(r, "vtx.meshes", mesh_index, "numStripGroups", r.i32(mesh_at),
                        r.i32(mesh_at + 4), mesh_at, x.group_bytes, kSourceMaxRecords);
    if (!groups)
        return groups.error();
    if (auto s = x.spend("vtx.meshes", mesh_index, "numStripGroups", groups->count, 0); !s)
        return s;
    mesh.strip_groups = groups->count;
    for (uint32_t g = 0; g < groups->count; ++g) {
        const uint64_t at = groups->offset + uint64_t(g) * x.group_bytes;
        auto verts = table(r, "vtx.stripgroups", g, "numVerts", r.i32(at), r.i32(at + 4), at,
                           kVertexBytes, 65536);
        if (!verts)
            return verts.error();
        if (auto s = x.spend("vtx.stripgroups", g, "numVerts", 0, verts->count); !s)
            return s;
        std::vector<uint16_t> ids(verts->count);
        for (uint32_t v = 0; v < verts->count; ++v)
            ids[v] = r.u16(verts->offset + uint64_t(v) * kVertexBytes + 4);
        if (auto s = readStrips(x, at, g, mesh, ids); !s)
            return s;
    }
    return core::okStatus();
}

core::Status readLods(Reader& x, uint64_t model_at, int64_t model_index, VtxModel& model) {
    const core::ByteReader& r = x.r;
    auto lods = table(r, "vtx.models", model_index, "numLODs", r.i32(model_at), r.i32(model_at + 4),
                      model_at, kLodBytes, kSourceMaxLods);
    if (!lods)
        return lods.error();
    model.lods.resize(lods->count);
    for (uint32_t l = 0; l < lods->count; ++l) {
        const uint64_t at = lods->offset + uint64_t(l) * kLodBytes;
        model.lods[l].switch_point = r.f32(at + 8);
        auto meshes = table(r, "vtx.lods", l, "numMeshes", r.i32(at), r.i32(at + 4), at, kMeshBytes,
                            kSourceMaxRecords);
        if (!meshes)
            return meshes.error();
        if (auto s = x.spend("vtx.lods", l, "numMeshes", meshes->count, 0); !s)
            return s;
        model.lods[l].meshes.resize(meshes->count);
        for (uint32_t m = 0; m < meshes->count; ++m)
            if (auto s = readMesh(x, meshes->offset + uint64_t(m) * kMeshBytes, m,
                                  model.lods[l].meshes[m]);
                !s)
                return s;
    }
    return core::okStatus();
}

core::Status readBodyParts(Reader& x, Vtx& vtx) {
    const core::ByteReader& r = x.r;
    auto parts = table(r, "vtx.header", -1, "numBodyParts", r.i32(28), r.i32(32), 0, kBodyPartBytes,
                       kSourceMaxRecords);
    if (!parts)
        return parts.error();
    vtx.body_parts.assign(parts->count, {});
    for (uint32_t p = 0; p < parts->count; ++p) {
        const uint64_t at = parts->offset + uint64_t(p) * kBodyPartBytes;
        auto models = table(r, "vtx.bodyparts", p, "numModels", r.i32(at), r.i32(at + 4), at,
                            kModelBytes, kSourceMaxRecords);
        if (!models)
            return models.error();
        if (auto s = x.spend("vtx.bodyparts", p, "numModels", models->count, 0); !s)
            return s;
        vtx.body_parts[p].models.resize(models->count);
        for (uint32_t m = 0; m < models->count; ++m)
            if (auto s = readLods(x, models->offset + uint64_t(m) * kModelBytes, m,
                                  vtx.body_parts[p].models[m]);
                !s)
                return s;
    }
    return core::okStatus();
}

} // namespace

core::Result<Vtx> parseVtx(std::span<const uint8_t> data) {
    const core::ByteReader r(data);
    if (r.size() < kHeaderBytes)
        return error(core::ErrorCode::UnknownFormat, "vtx.header", -1, {},
                     "shorter than an OptimizedModel::FileHeader_t");
    Vtx vtx;
    vtx.version = r.i32(0);
    if (vtx.version != kVtxVersion)
        return error(core::ErrorCode::UnsupportedVersion, "vtx.header", -1, "version",
                     "version " + std::to_string(vtx.version) + ", not 7");
    vtx.checksum = r.i32(16);
    const int32_t lods = r.i32(20);
    if (lods < 1 || uint32_t(lods) > kSourceMaxLods)
        return error(core::ErrorCode::BadValue, "vtx.header", -1, "numLODs",
                     std::to_string(lods) + " outside 1..8");
    vtx.lod_count = uint32_t(lods);
    Reader first{r};
    auto status = readBodyParts(first, vtx);
    if (status)
        return vtx;
    // The later layout, when the first reading found a strip or index outside its group.
    const core::ErrorCode code = status.error().code;
    if (code != core::ErrorCode::IndexOutOfRange && code != core::ErrorCode::Truncated &&
        code != core::ErrorCode::BadValue)
        return status.error();
    Reader later{r, 33, 35};
    Vtx retry = vtx;
    if (auto s = readBodyParts(later, retry); !s)
        return status.error(); // the SDK 2013 reading's complaint
    retry.topology_fields = true;
    return retry;
}

} // namespace content
