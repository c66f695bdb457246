#include "content/model/vvd.h"

#include "content/model/source_read.h"

namespace content {

namespace {

using source_read::error;
using source_read::table;
using source_read::truncated;
using source_read::vec3At;

constexpr uint32_t kIdsv = 'I' | ('D' << 8) | ('S' << 16) | (uint32_t('V') << 24);
constexpr int32_t kVvdVersion = 4;
constexpr uint64_t kHeaderBytes = 64;
constexpr uint64_t kVertexBytes = 48;
constexpr uint64_t kTangentBytes = 16;
constexpr uint64_t kFixupBytes = 12;

SourceVertex vertexAt(const core::ByteReader& r, uint64_t at) {
    SourceVertex v;
    for (size_t k = 0; k < 3; ++k) {
        v.weights[k] = r.f32(at + k * 4);
        v.bones[k] = r.u8(at + 12 + k);
    }
    v.bone_count = r.u8(at + 15);
    v.position = vec3At(r, at + 16);
    v.normal = vec3At(r, at + 28);
    v.uv = {r.f32(at + 40), r.f32(at + 44)};
    return v;
}

struct Run {
    uint32_t first = 0;
    uint32_t count = 0;
};

// The runs of stored vertices that make root LOD 0, in order: the fixups, or the first `need`.
core::Result<std::vector<Run>> lodZeroRuns(const core::ByteReader& r, const Vvd& vvd,
                                           uint64_t stored) {
    const uint32_t need = vvd.lod_vertex_counts[0];
    if (vvd.fixup_count == 0) {
        if (need > stored)
            return error(core::ErrorCode::Truncated, "vvd.header", -1, "numLODVertexes[0]",
                         std::to_string(need) + " vertices, " + std::to_string(stored) + " stored");
        return std::vector<Run>{{0, need}};
    }
    auto t = table(r, "vvd.header", -1, "numFixups", int32_t(vvd.fixup_count), r.i32(52), 0,
                   kFixupBytes, kSourceMaxRecords);
    if (!t)
        return t.error();
    std::vector<Run> runs;
    uint64_t total = 0;
    for (uint32_t i = 0; i < t->count; ++i) {
        const uint64_t at = t->offset + uint64_t(i) * kFixupBytes;
        const int32_t lod = r.i32(at), first = r.i32(at + 4), count = r.i32(at + 8);
        if (first < 0 || count < 0 || uint64_t(first) + uint64_t(count) > stored)
            return error(core::ErrorCode::IndexOutOfRange, "vvd.fixups", i, "sourceVertexID",
                         std::to_string(first) + "+" + std::to_string(count) + " beyond " +
                             std::to_string(stored) + " stored vertices");
        if (lod < 0) // Studio_LoadVertexes skips lod < rootLOD (0)
            continue;
        runs.push_back({uint32_t(first), uint32_t(count)});
        total += uint64_t(count);
    }
    if (total != need)
        return error(core::ErrorCode::BadValue, "vvd.fixups", -1, "numVertexes",
                     "runs add up to " + std::to_string(total) + ", not numLODVertexes[0] " +
                         std::to_string(need));
    return runs;
}

} // namespace

core::Result<Vvd> parseVvd(std::span<const uint8_t> data) {
    const core::ByteReader r(data);
    if (r.size() < kHeaderBytes || r.u32(0) != kIdsv)
        return error(core::ErrorCode::UnknownFormat, "vvd.header", -1, "id",
                     r.size() < kHeaderBytes ? "shorter than a vertexFileHeader_t"
                                             : "not a vertex file (IDSV)");
    Vvd vvd;
    vvd.version = r.i32(4);
    if (vvd.version != kVvdVersion)
        return error(core::ErrorCode::UnsupportedVersion, "vvd.header", -1, "version",
                     "version " + std::to_string(vvd.version) + ", not 4");
    vvd.checksum = r.i32(8);
    const int32_t lods = r.i32(12);
    if (lods < 1 || uint32_t(lods) > kSourceMaxLods)
        return error(core::ErrorCode::BadValue, "vvd.header", -1, "numLODs",
                     std::to_string(lods) + " outside 1..8");
    vvd.lod_count = uint32_t(lods);
    for (uint32_t k = 0; k < kSourceMaxLods; ++k) {
        const int32_t n = r.i32(16 + k * 4ull);
        if (n < 0 || uint32_t(n) > kSourceMaxVertices)
            return error(core::ErrorCode::BadValue, "vvd.header", -1,
                         "numLODVertexes[" + std::to_string(k) + "]",
                         std::to_string(n) + " outside 0.." + std::to_string(kSourceMaxVertices));
        vvd.lod_vertex_counts[k] = uint32_t(n);
        if (k > 0 && k < vvd.lod_count && vvd.lod_vertex_counts[k] > vvd.lod_vertex_counts[k - 1])
            return error(core::ErrorCode::BadValue, "vvd.header", -1,
                         "numLODVertexes[" + std::to_string(k) + "]",
                         "more vertices than the LOD before it");
    }
    const int32_t fixups = r.i32(48);
    if (fixups < 0)
        return error(core::ErrorCode::BadValue, "vvd.header", -1, "numFixups", "negative");
    vvd.fixup_count = uint32_t(fixups);
    const int32_t vstart = r.i32(56), tstart = r.i32(60);
    if (vstart < int32_t(kHeaderBytes) || uint64_t(vstart) > r.size())
        return truncated("vvd.header", -1, "vertexDataStart", uint64_t(std::max(vstart, 0)), 0,
                         r.size());
    // Vertices stored: up to the tangents when they follow, else to the end of the file.
    const bool has_tangents = tstart != 0;
    if (has_tangents && (tstart < vstart || uint64_t(tstart) > r.size()))
        return truncated("vvd.header", -1, "tangentDataStart", uint64_t(std::max(tstart, 0)), 0,
                         r.size());
    const uint64_t end = has_tangents ? uint64_t(tstart) : r.size();
    const uint64_t stored =
        std::min<uint64_t>((end - uint64_t(vstart)) / kVertexBytes, kSourceMaxVertices);
    auto runs = lodZeroRuns(r, vvd, stored);
    if (!runs)
        return runs.error();
    if (has_tangents && !r.inRange(uint64_t(tstart), stored * kTangentBytes))
        return truncated("vvd.tangents", -1, {}, uint64_t(tstart), stored * kTangentBytes,
                         r.size());
    vvd.vertices.reserve(vvd.lod_vertex_counts[0]);
    if (has_tangents)
        vvd.tangents.reserve(vvd.lod_vertex_counts[0]);
    for (const Run& run : *runs)
        for (uint32_t i = run.first; i < run.first + run.count; ++i) {
            vvd.vertices.push_back(vertexAt(r, uint64_t(vstart) + i * kVertexBytes));
            if (has_tangents) {
                const uint64_t at = uint64_t(tstart) + i * kTangentBytes;
                vvd.tangents.push_back({r.f32(at), r.f32(at + 4), r.f32(at + 8), r.f32(at + 12)});
            }
        }
    return vvd;
}

} // namespace content
