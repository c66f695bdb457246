#include "content/model/md3.h"

#include "core/byte_reader.h"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <optional>
#include <tuple>

namespace content {

namespace {

constexpr uint32_t kIdp3 = 'I' | ('D' << 8) | ('P' << 16) | (uint32_t('3') << 24);
constexpr int32_t kMd3Version = 15;
constexpr uint64_t kHeaderBytes = 108;
constexpr uint64_t kFrameBytes = 56;
constexpr uint64_t kTagBytes = 112;
constexpr uint64_t kSurfaceHeaderBytes = 108;
constexpr uint64_t kShaderBytes = 68;
constexpr uint64_t kTriangleBytes = 12;
constexpr uint64_t kStBytes = 8;
constexpr uint64_t kXyzNormalBytes = 8;
constexpr float kXyzScale = 1.0f / 64.0f; // qfiles.h MD3_XYZ_SCALE

core::Error md3Error(core::ErrorCode code, std::string_view what, int64_t index, std::string field,
                     std::string detail) {
    return core::makeError(code, "md3." + std::string(what), index, std::move(field),
                           std::move(detail));
}

core::Error truncated(std::string_view what, int64_t index, std::string field, uint64_t offset,
                      uint64_t need, size_t size) {
    return md3Error(core::ErrorCode::Truncated, what, index, std::move(field),
                    std::to_string(need) + " bytes at " + std::to_string(offset) + " beyond " +
                        std::to_string(size));
}

// A count read from the file: negative is BadValue, above `limit` LimitExceeded.
std::optional<core::Error> checkCount(std::string_view what, int64_t index, const char* field,
                                      int32_t value, uint32_t limit) {
    if (value < 0)
        return md3Error(core::ErrorCode::BadValue, what, index, field,
                        std::to_string(value) + " is negative");
    if (uint32_t(value) > limit)
        return md3Error(core::ErrorCode::LimitExceeded, what, index, field,
                        std::to_string(value) + " > " + std::to_string(limit));
    return std::nullopt;
}

std::array<float, 3> vec3At(const core::ByteReader& r, uint64_t offset) {
    return {r.f32(offset), r.f32(offset + 4), r.f32(offset + 8)};
}

void growBounds(std::array<float, 3>& mins, std::array<float, 3>& maxs,
                const std::array<float, 3>& p) {
    for (size_t k = 0; k < 3; ++k) {
        mins[k] = std::min(mins[k], p[k]);
        maxs[k] = std::max(maxs[k], p[k]);
    }
}

core::Result<Md3Surface> readSurface(const core::ByteReader& file, uint64_t start, uint64_t length,
                                     int64_t index, uint32_t frame_count) {
    const core::ByteReader r = file.sub(start, length);
    Md3Surface s;
    if (r.u32(0) != kIdp3)
        return md3Error(core::ErrorCode::UnknownFormat, "surface", index, "ident", "not IDP3");
    s.name = r.fixedString(4, 64);
    const int32_t num_frames = r.i32(72), num_shaders = r.i32(76);
    const int32_t num_verts = r.i32(80), num_tris = r.i32(84);
    if (num_frames < 0 || uint32_t(num_frames) != frame_count)
        return md3Error(core::ErrorCode::BadValue, "surface", index, "numFrames",
                        std::to_string(num_frames) + ", the model has " +
                            std::to_string(frame_count));
    if (auto e = checkCount("surface", index, "numShaders", num_shaders, kMaxMd3Shaders))
        return *e;
    if (auto e = checkCount("surface", index, "numVerts", num_verts, kMaxMd3Vertices))
        return *e;
    if (auto e = checkCount("surface", index, "numTriangles", num_tris, kMaxMd3Triangles))
        return *e;
    const uint64_t ofs_tris = r.u32(88), ofs_shaders = r.u32(92), ofs_st = r.u32(96),
                   ofs_xyz = r.u32(100);
    const uint64_t verts = uint64_t(num_verts);
    const std::tuple<const char*, uint64_t, uint64_t> records[] = {
        {"ofsTriangles", ofs_tris, uint64_t(num_tris) * kTriangleBytes},
        {"ofsShaders", ofs_shaders, uint64_t(num_shaders) * kShaderBytes},
        {"ofsSt", ofs_st, verts * kStBytes},
        {"ofsXyzNormals", ofs_xyz, verts * frame_count * kXyzNormalBytes}};
    for (const auto& [field, offset, bytes] : records)
        if (!r.inRange(offset, bytes))
            return truncated("surface", index, field, start + offset, bytes, file.size());

    for (int32_t i = 0; i < num_shaders; ++i)
        s.shaders.push_back(r.fixedString(ofs_shaders + uint64_t(i) * kShaderBytes, 64));

    ModelMesh& m = s.mesh;
    m.vertex_count = uint32_t(num_verts);
    m.indices.resize(size_t(num_tris) * 3);
    for (size_t i = 0; i < m.indices.size(); ++i) {
        const int32_t v = r.i32(ofs_tris + 4 * uint64_t(i));
        if (v < 0 || v >= num_verts)
            return md3Error(core::ErrorCode::IndexOutOfRange, "surface", index, "triangles",
                            "triangle " + std::to_string(i / 3) + " names vertex " +
                                std::to_string(v) + " of " + std::to_string(num_verts));
        m.indices[i] = uint32_t(v);
    }
    m.uv.resize(verts);
    for (uint64_t v = 0; v < verts; ++v) {
        const float st[2] = {r.f32(ofs_st + v * kStBytes), r.f32(ofs_st + v * kStBytes + 4)};
        // Hostile files carry NaN or huge values; the renderer wraps (GL_REPEAT), so anything
        // not finite becomes 0.
        m.uv[v] = {std::isfinite(st[0]) ? st[0] : 0.0f, std::isfinite(st[1]) ? st[1] : 0.0f};
    }
    m.pose_count = frame_count;
    m.positions.resize(size_t(verts * frame_count));
    m.normals.resize(m.positions.size());
    m.mins = {INFINITY, INFINITY, INFINITY};
    m.maxs = {-INFINITY, -INFINITY, -INFINITY};
    for (size_t i = 0; i < m.positions.size(); ++i) {
        const uint64_t o = ofs_xyz + i * kXyzNormalBytes;
        m.positions[i] = {float(r.get<int16_t>(o)) * kXyzScale,
                          float(r.get<int16_t>(o + 2)) * kXyzScale,
                          float(r.get<int16_t>(o + 4)) * kXyzScale};
        m.normals[i] = md3Normal(r.u16(o + 6));
        growBounds(m.mins, m.maxs, m.positions[i]);
    }
    m.frames.resize(frame_count);
    for (uint32_t f = 0; f < frame_count; ++f)
        m.frames[f].poses.first = f;
    return s;
}

} // namespace

std::array<float, 3> md3Normal(uint16_t packed) {
    const float step = 2.0f * std::numbers::pi_v<float> / 256.0f;
    const float lat = float((packed >> 8) & 0xff) * step;
    const float lng = float(packed & 0xff) * step;
    return {std::cos(lat) * std::sin(lng), std::sin(lat) * std::sin(lng), std::cos(lng)};
}

core::Result<Md3Model> decodeMd3(std::span<const uint8_t> data) {
    const core::ByteReader r(data);
    if (!r.inRange(0, kHeaderBytes))
        return truncated("header", -1, {}, 0, kHeaderBytes, data.size());
    if (r.u32(0) != kIdp3)
        return md3Error(core::ErrorCode::UnknownFormat, "header", -1, "ident", "not IDP3");
    if (r.i32(4) != kMd3Version)
        return md3Error(core::ErrorCode::UnsupportedVersion, "header", -1, "version",
                        std::to_string(r.i32(4)) + ", expected 15");
    Md3Model model;
    model.name = r.fixedString(8, 64);
    const int32_t num_frames = r.i32(76), num_tags = r.i32(80), num_surfaces = r.i32(84);
    // R_LoadMD3 refuses a model without frames ("has no frames").
    if (num_frames < 1)
        return md3Error(core::ErrorCode::BadValue, "header", -1, "numFrames",
                        std::to_string(num_frames) + ", need at least 1");
    if (auto e = checkCount("header", -1, "numFrames", num_frames, kMaxMd3Frames))
        return *e;
    if (auto e = checkCount("header", -1, "numTags", num_tags, kMaxMd3Tags))
        return *e;
    if (auto e = checkCount("header", -1, "numSurfaces", num_surfaces, kMaxMd3Surfaces))
        return *e;
    const uint64_t ofs_frames = r.u32(92), ofs_tags = r.u32(96), ofs_surfaces = r.u32(100);
    const uint32_t frames = uint32_t(num_frames);
    model.tag_count = uint32_t(num_tags);
    const uint64_t frame_bytes = uint64_t(frames) * kFrameBytes;
    if (!r.inRange(ofs_frames, frame_bytes))
        return truncated("frame", -1, "ofsFrames", ofs_frames, frame_bytes, data.size());
    const uint64_t tag_bytes = uint64_t(frames) * model.tag_count * kTagBytes;
    if (!r.inRange(ofs_tags, tag_bytes))
        return truncated("tag", -1, "ofsTags", ofs_tags, tag_bytes, data.size());

    model.frames.resize(frames);
    for (uint32_t f = 0; f < frames; ++f) {
        const uint64_t o = ofs_frames + f * kFrameBytes;
        Md3Frame& fr = model.frames[f];
        fr.mins = vec3At(r, o);
        fr.maxs = vec3At(r, o + 12);
        fr.origin = vec3At(r, o + 24);
        fr.radius = r.f32(o + 36);
        fr.name = r.fixedString(o + 40, 16);
    }
    model.tags.resize(size_t(frames) * model.tag_count);
    for (size_t t = 0; t < model.tags.size(); ++t) {
        const uint64_t o = ofs_tags + t * kTagBytes;
        Md3Tag& tag = model.tags[t];
        tag.name = r.fixedString(o, 64);
        tag.origin = vec3At(r, o + 64);
        for (uint64_t k = 0; k < 3; ++k)
            tag.axis[k] = vec3At(r, o + 76 + 12 * k);
    }

    model.mins = {INFINITY, INFINITY, INFINITY};
    model.maxs = {-INFINITY, -INFINITY, -INFINITY};
    uint64_t at = ofs_surfaces;
    for (int32_t i = 0; i < num_surfaces; ++i) {
        if (!r.inRange(at, kSurfaceHeaderBytes))
            return truncated("surface", i, "ofsSurfaces", at, kSurfaceHeaderBytes, data.size());
        // A surface's records lie before its end; the next surface starts there.
        const uint64_t end = r.u32(at + 104);
        if (end < kSurfaceHeaderBytes)
            return md3Error(core::ErrorCode::BadValue, "surface", i, "ofsEnd",
                            std::to_string(end) + ", shorter than the surface header");
        if (!r.inRange(at, end))
            return truncated("surface", i, "ofsEnd", at, end, data.size());
        auto s = readSurface(r, at, end, i, frames);
        if (!s)
            return std::move(s.error());
        for (size_t f = 0; f < frames; ++f)
            s->mesh.frames[f].name = model.frames[f].name;
        if (!s->mesh.positions.empty()) {
            growBounds(model.mins, model.maxs, s->mesh.mins);
            growBounds(model.mins, model.maxs, s->mesh.maxs);
        }
        model.surfaces.push_back(std::move(*s));
        at += end;
    }
    return model;
}

} // namespace content
