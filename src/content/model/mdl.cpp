#include "content/model/mdl.h"

#include "content/model/model_asset.h"
#include "core/byte_reader.h"

#include <cmath>
#include <unordered_map>

namespace content {

namespace {

constexpr uint32_t kIdpo = 'I' | ('D' << 8) | ('P' << 16) | (uint32_t('O') << 24);
constexpr int32_t kMdlVersion = 6;
constexpr uint64_t kHeaderBytes = 84;
constexpr uint64_t kPoseHeaderBytes = 24; // bboxmin, bboxmax (packed vertices), name[16]

core::Error mdlError(core::ErrorCode code, std::string_view what, int64_t index, std::string field,
                     std::string detail) {
    return core::makeError(code, "mdl." + std::string(what), index, std::move(field),
                           std::move(detail));
}

core::Error truncated(std::string_view what, int64_t index, uint64_t offset, uint64_t need,
                      size_t size) {
    return mdlError(core::ErrorCode::Truncated, what, index, {},
                    std::to_string(need) + " bytes at " + std::to_string(offset) + " beyond " +
                        std::to_string(size));
}

// Reads `count` group intervals at `offset`; false when they do not fit.
bool readIntervals(const core::ByteReader& r, uint64_t offset, uint32_t count,
                   std::vector<float>& out) {
    return r.readArray(offset, count, out);
}

} // namespace

namespace {

struct MdlCounts {
    int32_t skins = 0, vertices = 0, triangles = 0, frames = 0;
};

// The header into `m`, every count checked (Mod_LoadAliasModel refuses models without skins,
// vertices, triangles or frames).
core::Result<MdlCounts> readHeader(const core::ByteReader& r, MdlModel& m) {
    const size_t size = r.bytes().size();
    if (!r.inRange(0, kHeaderBytes))
        return truncated("header", -1, 0, kHeaderBytes, size);
    if (r.u32(0) != kIdpo)
        return mdlError(core::ErrorCode::UnknownFormat, "header", -1, "ident", "not IDPO");
    if (r.i32(4) != kMdlVersion)
        return mdlError(core::ErrorCode::UnsupportedVersion, "header", -1, "version",
                        std::to_string(r.i32(4)) + ", expected 6");
    for (int i = 0; i < 3; ++i) {
        m.scale[size_t(i)] = r.f32(8 + 4 * uint64_t(i));
        m.translate[size_t(i)] = r.f32(20 + 4 * uint64_t(i));
        m.eye[size_t(i)] = r.f32(36 + 4 * uint64_t(i));
    }
    m.radius = r.f32(32);
    const MdlCounts c{r.i32(48), r.i32(60), r.i32(64), r.i32(68)};
    const int32_t width = r.i32(52), height = r.i32(56);
    m.sync_type = r.i32(72);
    m.flags = r.u32(76);
    const std::pair<const char*, int32_t> counts[] = {{"numskins", c.skins},
                                                      {"numverts", c.vertices},
                                                      {"numtris", c.triangles},
                                                      {"numframes", c.frames}};
    for (const auto& [field, value] : counts)
        if (value < 1)
            return mdlError(core::ErrorCode::BadValue, "header", -1, field,
                            std::to_string(value) + ", need at least 1");
    if (width < 1 || height < 1 || width > kMaxPalettedDimension || height > kMaxPalettedDimension)
        return mdlError(core::ErrorCode::BadValue, "header", -1, "skinsize",
                        std::to_string(width) + "x" + std::to_string(height) + " outside 1.." +
                            std::to_string(kMaxPalettedDimension));
    const std::pair<const char*, std::pair<int32_t, int32_t>> limits[] = {
        {"numverts", {c.vertices, int32_t(kMaxMdlVertices)}},
        {"numtris", {c.triangles, int32_t(kMaxMdlTriangles)}},
        {"numframes", {c.frames, int32_t(kMaxMdlPoses)}}};
    for (const auto& [field, value_limit] : limits)
        if (value_limit.first > value_limit.second)
            return mdlError(core::ErrorCode::LimitExceeded, "header", -1, field,
                            std::to_string(value_limit.first) + " > " +
                                std::to_string(value_limit.second));
    m.skin_width = width;
    m.skin_height = height;
    m.vertex_count = uint32_t(c.vertices);
    return c;
}

// The skins (single images and groups with intervals) from `at`, which moves past them.
core::Status readSkins(const core::ByteReader& r, uint64_t& at, int32_t num_skins, MdlModel& m) {
    const size_t size = r.bytes().size();
    const uint64_t image_bytes = uint64_t(m.skin_width) * uint64_t(m.skin_height);
    // Every skin takes at least four bytes, so a count the file cannot hold fails here.
    if (!r.inRange(at, uint64_t(num_skins) * 4))
        return truncated("skins", -1, at, uint64_t(num_skins) * 4, size);
    m.skins.reserve(size_t(num_skins));
    for (int32_t i = 0; i < num_skins; ++i) {
        MdlGroup g;
        g.first = uint32_t(m.skin_images.size());
        const int32_t type = r.i32(at);
        at += 4;
        if (type != 0) {
            if (!r.inRange(at, 4))
                return truncated("skins", i, at, 4, size);
            const int32_t n = r.i32(at);
            if (n < 1)
                return mdlError(core::ErrorCode::BadValue, "skins", i, "numskins",
                                std::to_string(n) + " in a group, need at least 1");
            g.count = uint32_t(n);
            if (!readIntervals(r, at + 4, g.count, g.intervals))
                return truncated("skins", i, at + 4, uint64_t(g.count) * 4, size);
            at += 4 + uint64_t(g.count) * 4;
        }
        if (!r.inRange(at, image_bytes * g.count))
            return truncated("skins", i, at, image_bytes * g.count, size);
        for (uint32_t k = 0; k < g.count; ++k, at += image_bytes) {
            auto bytes = r.bytes().subspan(size_t(at), size_t(image_bytes));
            m.skin_images.emplace_back(bytes.begin(), bytes.end());
        }
        m.skins.push_back(std::move(g));
    }
    return core::okStatus();
}

// The texture coordinates and triangles from `at`, every triangle's vertices checked.
core::Status readTriangles(const core::ByteReader& r, uint64_t& at, const MdlCounts& c,
                           MdlModel& m) {
    static_assert(sizeof(MdlStVert) == 12 && sizeof(MdlTriangle) == 16 &&
                  sizeof(MdlPackedVertex) == 4);
    const size_t size = r.bytes().size();
    if (!r.readArray(at, uint64_t(c.vertices), m.st))
        return truncated("stverts", -1, at, uint64_t(c.vertices) * 12, size);
    at += uint64_t(c.vertices) * 12;
    if (!r.readArray(at, uint64_t(c.triangles), m.triangles))
        return truncated("triangles", -1, at, uint64_t(c.triangles) * 16, size);
    at += uint64_t(c.triangles) * 16;
    for (size_t t = 0; t < m.triangles.size(); ++t)
        for (int32_t v : m.triangles[t].vertex)
            if (v < 0 || v >= c.vertices)
                return mdlError(
                    core::ErrorCode::IndexOutOfRange, "triangles", int64_t(t), "vertindex",
                    std::to_string(v) + " outside 0.." + std::to_string(c.vertices - 1));
    return core::okStatus();
}

// The frames (single poses and groups with intervals) from `at`.
core::Status readFrames(const core::ByteReader& r, uint64_t& at, const MdlCounts& c, MdlModel& m) {
    const size_t size = r.bytes().size();
    const uint64_t pose_bytes = kPoseHeaderBytes + uint64_t(c.vertices) * 4;
    auto readPose = [&](int32_t frame) -> core::Status {
        MdlPose p;
        p.name = r.fixedString(at + 8, 16);
        if (!r.readArray(at + kPoseHeaderBytes, uint64_t(c.vertices), p.vertices))
            return truncated("frames", frame, at, pose_bytes, size);
        at += pose_bytes;
        m.poses.push_back(std::move(p));
        return core::okStatus();
    };
    // Every frame takes at least a type word and one pose, so the count is checked first.
    if (!r.inRange(at, uint64_t(c.frames) * (4 + pose_bytes)))
        return truncated("frames", -1, at, uint64_t(c.frames) * (4 + pose_bytes), size);
    m.frames.reserve(size_t(c.frames));
    for (int32_t i = 0; i < c.frames; ++i) {
        MdlGroup g;
        g.first = uint32_t(m.poses.size());
        const int32_t type = r.i32(at);
        at += 4;
        if (type != 0) {
            if (!r.inRange(at, 12))
                return truncated("frames", i, at, 12, size);
            const int32_t n = r.i32(at);
            if (n < 1)
                return mdlError(core::ErrorCode::BadValue, "frames", i, "numframes",
                                std::to_string(n) + " in a group, need at least 1");
            g.count = uint32_t(n);
            at += 12; // count, group bboxmin, bboxmax
            if (!readIntervals(r, at, g.count, g.intervals))
                return truncated("frames", i, at, uint64_t(g.count) * 4, size);
            at += uint64_t(g.count) * 4;
            if (!r.inRange(at, pose_bytes * g.count))
                return truncated("frames", i, at, pose_bytes * g.count, size);
        }
        if (m.poses.size() + g.count > kMaxMdlPoses)
            return mdlError(core::ErrorCode::LimitExceeded, "frames", i, "numframes",
                            "more than " + std::to_string(kMaxMdlPoses) + " poses");
        for (uint32_t k = 0; k < g.count; ++k)
            if (auto s = readPose(i); !s)
                return s.error();
        m.frames.push_back(std::move(g));
    }
    return core::okStatus();
}

} // namespace

core::Result<MdlModel> parseMdl(std::span<const uint8_t> data) {
    const core::ByteReader r(data);
    MdlModel m;
    auto counts = readHeader(r, m);
    if (!counts)
        return counts.error();
    uint64_t at = kHeaderBytes;
    if (auto s = readSkins(r, at, counts->skins, m); !s)
        return s.error();
    if (auto s = readTriangles(r, at, *counts, m); !s)
        return s.error();
    if (auto s = readFrames(r, at, *counts, m); !s)
        return s.error();
    return m;
}

namespace {

TimedRun timedRun(const MdlGroup& g) {
    TimedRun run;
    run.first = g.first;
    run.count = g.count;
    if (g.count > 1)
        run.end_times = g.intervals;
    return run;
}

ModelImage skinImage(const MdlModel& m, const std::vector<uint8_t>& indices,
                     const Palette& palette) {
    ModelImage img;
    img.width = m.skin_width;
    img.height = m.skin_height;
    auto rgba = expandPaletted(m.skin_width, m.skin_height, indices, palette);
    if (rgba) // parseMdl checked the size and the pixel count, so this always holds
        img.rgba = std::move(rgba->rgba);
    bool any = false;
    std::vector<uint8_t> bright(indices.size(), 0);
    for (size_t i = 0; i < indices.size(); ++i)
        if (indices[i] >= kFirstFullbright && indices[i] <= kLastFullbright) {
            bright[i] = 255;
            any = true;
        }
    if (any)
        img.fullbright = std::move(bright);
    return img;
}

} // namespace

ModelMesh buildMdlMesh(const MdlModel& m, const Palette& palette) {
    ModelMesh mesh;
    mesh.rotates = (m.flags & kMdlFlagRotate) != 0;
    // One drawn vertex per (model vertex, s) pair: a seam vertex used by a back-facing
    // triangle reads the back half of the skin, so it becomes a vertex of its own.
    std::unordered_map<uint64_t, uint32_t> drawn;
    std::vector<uint32_t> source; // drawn vertex -> model vertex
    mesh.indices.reserve(m.triangles.size() * 3);
    for (const MdlTriangle& tri : m.triangles)
        for (int32_t v : tri.vertex) {
            const MdlStVert& st = m.st[size_t(v)];
            const bool back = tri.faces_front == 0 && st.onseam != 0;
            const int64_t s = int64_t(st.s) + (back ? m.skin_width / 2 : 0);
            const uint64_t key = uint64_t(uint32_t(v)) << 1 | (back ? 1u : 0u);
            auto [it, added] = drawn.try_emplace(key, uint32_t(source.size()));
            if (added) {
                source.push_back(uint32_t(v));
                mesh.uv.push_back({float((double(s) + 0.5) / m.skin_width),
                                   float((double(st.t) + 0.5) / m.skin_height)});
            }
            mesh.indices.push_back(it->second);
        }
    mesh.vertex_count = uint32_t(source.size());
    mesh.pose_count = uint32_t(m.poses.size());
    mesh.positions.resize(size_t(mesh.pose_count) * mesh.vertex_count);
    mesh.normals.resize(mesh.positions.size());
    mesh.mins = {INFINITY, INFINITY, INFINITY};
    mesh.maxs = {-INFINITY, -INFINITY, -INFINITY};
    std::vector<std::array<float, 3>> pos(m.vertex_count), nrm(m.vertex_count);
    for (uint32_t p = 0; p < mesh.pose_count; ++p) {
        const MdlPose& pose = m.poses[p];
        for (uint32_t v = 0; v < m.vertex_count; ++v) {
            for (size_t k = 0; k < 3; ++k) {
                pos[v][k] = m.scale[k] * float(pose.vertices[v].v[k]) + m.translate[k];
                mesh.mins[k] = std::min(mesh.mins[k], pos[v][k]);
                mesh.maxs[k] = std::max(mesh.maxs[k], pos[v][k]);
            }
            nrm[v] = {0, 0, 0};
        }
        // Area-weighted face normals summed per model vertex, so both sides of a seam agree.
        for (const MdlTriangle& tri : m.triangles) {
            const auto& a = pos[size_t(tri.vertex[0])];
            const auto& b = pos[size_t(tri.vertex[1])];
            const auto& c = pos[size_t(tri.vertex[2])];
            const float e1[3] = {b[0] - a[0], b[1] - a[1], b[2] - a[2]};
            const float e2[3] = {c[0] - a[0], c[1] - a[1], c[2] - a[2]};
            // Quake's triangles wind clockwise seen from outside, so e2 x e1 points out.
            const float n[3] = {e2[1] * e1[2] - e2[2] * e1[1], e2[2] * e1[0] - e2[0] * e1[2],
                                e2[0] * e1[1] - e2[1] * e1[0]};
            for (int32_t v : tri.vertex)
                for (size_t k = 0; k < 3; ++k)
                    nrm[size_t(v)][k] += n[k];
        }
        for (auto& n : nrm) {
            const float len = std::sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
            n = len > 0 ? std::array<float, 3>{n[0] / len, n[1] / len, n[2] / len}
                        : std::array<float, 3>{0, 0, 1};
        }
        const size_t base = size_t(p) * mesh.vertex_count;
        for (uint32_t d = 0; d < mesh.vertex_count; ++d) {
            mesh.positions[base + d] = pos[source[d]];
            mesh.normals[base + d] = nrm[source[d]];
        }
    }
    for (size_t f = 0; f < m.frames.size(); ++f) {
        const MdlPose& first = m.poses[m.frames[f].first];
        mesh.frames.push_back({first.name, timedRun(m.frames[f])});
    }
    mesh.images.reserve(m.skin_images.size());
    for (const auto& indices : m.skin_images)
        mesh.images.push_back(skinImage(m, indices, palette));
    for (const MdlGroup& g : m.skins)
        mesh.skins.push_back({timedRun(g)});
    return mesh;
}

core::Result<ModelMesh> decodeMdl(std::span<const uint8_t> data, const Palette& palette) {
    auto m = parseMdl(data);
    if (!m)
        return m.error();
    return buildMdlMesh(*m, palette);
}

core::Result<ModelAsset> loadMdlAsset(const ModelSource& source) {
    auto mesh = decodeMdl(source.bytes, defaultQuakePalette());
    if (!mesh)
        return mesh.error();
    ModelAsset asset = singlePartAsset(ModelFormat::QuakeAlias, source.path);
    asset.parts[0].mesh = std::move(*mesh);
    return asset;
}

} // namespace content
