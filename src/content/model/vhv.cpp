#include "content/model/vhv.h"

#include "content/model/source_mdl.h"
#include "content/model/source_read.h"

namespace content {

namespace {

using source_read::error;
using source_read::table;
using source_read::truncated;

constexpr int32_t kVhvVersion = 2;
constexpr uint64_t kHeaderBytes = 40;
constexpr uint64_t kMeshBytes = 28;

} // namespace

core::Result<Vhv> parseVhv(std::span<const uint8_t> data) {
    const core::ByteReader r(data);
    if (r.size() < kHeaderBytes)
        return error(core::ErrorCode::UnknownFormat, "vhv.header", -1, {},
                     "shorter than a HardwareVerts::FileHeader_t");
    Vhv v;
    v.version = r.i32(0);
    if (v.version != kVhvVersion)
        return error(core::ErrorCode::UnsupportedVersion, "vhv.header", -1, "version",
                     "version " + std::to_string(v.version) + ", not 2");
    v.checksum = r.u32(4);
    v.vertex_flags = r.u32(8);
    v.vertex_size = r.u32(12);
    v.vertex_count = r.u32(16);
    if (v.vertex_count > kSourceMaxVertices)
        return error(core::ErrorCode::LimitExceeded, "vhv.header", -1, "m_nVertexes",
                     std::to_string(v.vertex_count) + " > " + std::to_string(kSourceMaxVertices));
    if (v.vertex_size < 4 || v.vertex_size > 256)
        return error(core::ErrorCode::BadValue, "vhv.header", -1, "m_nVertexSize",
                     std::to_string(v.vertex_size) + " outside 4..256");
    auto meshes = table(r, "vhv.header", -1, "m_nMeshes", r.i32(20), int32_t(kHeaderBytes), 0,
                        kMeshBytes, kMaxVhvMeshes);
    if (!meshes)
        return meshes.error();
    uint64_t total = 0;
    v.meshes.resize(meshes->count);
    for (uint32_t i = 0; i < meshes->count; ++i) {
        const uint64_t at = meshes->offset + uint64_t(i) * kMeshBytes;
        VhvMesh& m = v.meshes[i];
        m.lod = r.u32(at);
        const uint32_t count = r.u32(at + 4), offset = r.u32(at + 8);
        // Meshes may share their bytes, so the header's total bounds what is read.
        if (total + count > v.vertex_count)
            return error(core::ErrorCode::BadValue, "vhv.meshes", i, "m_nVertexes",
                         "meshes hold more than the header's " + std::to_string(v.vertex_count) +
                             " vertices");
        const uint64_t bytes = uint64_t(count) * v.vertex_size;
        if (!r.inRange(offset, bytes))
            return truncated("vhv.meshes", i, "m_nOffset", offset, bytes, r.size());
        m.colours.resize(count);
        for (uint32_t k = 0; k < count; ++k) {
            const uint64_t p = offset + uint64_t(k) * v.vertex_size;
            m.colours[k] = {r.u8(p + 2), r.u8(p + 1), r.u8(p), r.u8(p + 3)};
        }
        total += count;
    }
    if (total != v.vertex_count)
        return error(core::ErrorCode::BadValue, "vhv.header", -1, "m_nVertexes",
                     "meshes hold " + std::to_string(total) + " vertices, the header says " +
                         std::to_string(v.vertex_count));
    return v;
}

std::string staticPropLightingPath(uint32_t prop, bool hdr) {
    return (hdr ? "sp_hdr_" : "sp_") + std::to_string(prop) + ".vhv";
}

} // namespace content
