#include "content/model/studio.h"

#include "content/palette.h"
#include "core/byte_reader.h"

#include <glm/gtc/quaternion.hpp>
#include <glm/mat3x3.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <numbers>

namespace content {

namespace {

constexpr uint32_t kIdst = 'I' | ('D' << 8) | ('S' << 16) | (uint32_t('T') << 24);
constexpr int32_t kStudioVersion = 10;
constexpr uint64_t kHeaderBytes = 244;
constexpr uint64_t kBoneBytes = 112;
constexpr uint64_t kControllerBytes = 24;
constexpr uint64_t kSequenceBytes = 176;
constexpr uint64_t kSequenceGroupBytes = 104;
constexpr uint64_t kBodyPartBytes = 76;
constexpr uint64_t kModelBytes = 112;
constexpr uint64_t kMeshBytes = 20;
constexpr uint64_t kTextureBytes = 80;
constexpr uint64_t kBoneAnimBytes = 12; // six uint16 offsets

core::Error studioError(core::ErrorCode code, std::string_view what, int64_t index,
                        std::string field, std::string detail) {
    return core::makeError(code, "studio." + std::string(what), index, std::move(field),
                           std::move(detail));
}

core::Error truncated(std::string_view what, int64_t index, uint64_t offset, uint64_t need,
                      size_t size) {
    return studioError(core::ErrorCode::Truncated, what, index, {},
                       std::to_string(need) + " bytes at " + std::to_string(offset) + " beyond " +
                           std::to_string(size));
}

struct Table {
    uint32_t count = 0;
    uint64_t offset = 0;
};

// A (count, offset) pair of a header or record: a count in 0..limit whose records lie in the file.
core::Result<Table> table(const core::ByteReader& r, std::string_view what, int64_t index,
                          const char* field, int32_t count, int32_t offset, uint64_t record_bytes,
                          uint32_t limit) {
    if (count < 0)
        return studioError(core::ErrorCode::BadValue, what, index, field,
                           std::to_string(count) + " is negative");
    if (uint32_t(count) > limit)
        return studioError(core::ErrorCode::LimitExceeded, what, index, field,
                           std::to_string(count) + " > " + std::to_string(limit));
    const uint64_t at = uint64_t(uint32_t(offset));
    if (count > 0 && (offset < 0 || !r.inRange(at, uint64_t(count) * record_bytes)))
        return truncated(what, index, at, uint64_t(count) * record_bytes, r.size());
    return Table{uint32_t(count), at};
}

std::array<float, 3> vec3At(const core::ByteReader& r, uint64_t offset) {
    return {r.f32(offset), r.f32(offset + 4), r.f32(offset + 8)};
}

core::Status readTextures(const core::ByteReader& r, StudioModel& m) {
    auto tex = table(r, "header", -1, "numtextures", r.i32(180), r.i32(184), kTextureBytes,
                     kMaxStudioRecords);
    if (!tex)
        return tex.error();
    std::vector<StudioTexture> textures(tex->count);
    for (uint32_t i = 0; i < tex->count; ++i) {
        const uint64_t at = tex->offset + uint64_t(i) * kTextureBytes;
        StudioTexture& t = textures[i];
        t.name = r.fixedString(at, 64);
        t.flags = r.u32(at + 64);
        const int32_t w = r.i32(at + 68), h = r.i32(at + 72), index = r.i32(at + 76);
        if (w < 1 || h < 1 || w > kMaxPalettedDimension || h > kMaxPalettedDimension)
            return studioError(core::ErrorCode::BadValue, "textures", i, "size",
                               std::to_string(w) + "x" + std::to_string(h) + " outside 1.." +
                                   std::to_string(kMaxPalettedDimension));
        t.width = w;
        t.height = h;
        const uint64_t texels = uint64_t(w) * uint64_t(h);
        const uint64_t data = uint64_t(uint32_t(index));
        if (index < 0 || !r.inRange(data, texels + 768))
            return truncated("textures", i, data, texels + 768, r.size());
        const auto bytes = r.bytes();
        t.indices.assign(bytes.begin() + ptrdiff_t(data), bytes.begin() + ptrdiff_t(data + texels));
        std::copy_n(bytes.begin() + ptrdiff_t(data + texels), 768, t.palette.begin());
    }
    const int32_t refs = r.i32(192);
    auto families = table(r, "header", -1, "numskinfamilies", r.i32(196), r.i32(200),
                          uint64_t(std::max(refs, 0)) * 2, kMaxStudioRecords);
    if (!families)
        return families.error();
    if (refs < 0 || uint32_t(refs) > kMaxStudioRecords)
        return studioError(core::ErrorCode::BadValue, "header", -1, "numskinref",
                           std::to_string(refs) + " outside 0.." +
                               std::to_string(kMaxStudioRecords));
    // The drawn mesh stacks family 0's textures, one slot per reference, into an image per
    // family: bound the texels that makes (references may repeat one large texture).
    uint64_t texels = 0;
    for (uint32_t k = 0; k < uint32_t(refs) && families->count > 0; ++k) {
        const uint16_t t = r.u16(families->offset + uint64_t(k) * 2);
        if (t < textures.size())
            texels += uint64_t(textures[t].width) * uint64_t(textures[t].height);
    }
    if (texels * families->count > kMaxStudioSkinTexels)
        return studioError(core::ErrorCode::LimitExceeded, "header", -1, "numskinfamilies",
                           std::to_string(families->count) + " skins of " + std::to_string(texels) +
                               " texels > " + std::to_string(kMaxStudioSkinTexels));
    m.skin_refs = uint32_t(refs);
    m.skin_families.assign(families->count, std::vector<uint16_t>(m.skin_refs));
    for (uint32_t f = 0; f < families->count; ++f)
        for (uint32_t k = 0; k < m.skin_refs; ++k) {
            const uint16_t t = r.u16(families->offset + (uint64_t(f) * m.skin_refs + k) * 2);
            if (t >= textures.size())
                return studioError(
                    core::ErrorCode::IndexOutOfRange, "skins", f, "ref " + std::to_string(k),
                    "texture " + std::to_string(t) + " of " + std::to_string(textures.size()));
            m.skin_families[f][k] = t;
        }
    m.textures = std::move(textures);
    return core::okStatus();
}

// Expands one mesh's triangle commands: strips as GL_TRIANGLE_STRIP orders them (odd
// triangles swap their first two corners), fans around their first corner.
core::Status readMesh(const core::ByteReader& r, uint64_t at, uint32_t mesh_index,
                      const StudioSubModel& model, StudioMesh& mesh, uint64_t& triangles) {
    const int32_t tri_index = r.i32(at + 4);
    mesh.skinref = r.u32(at + 8);
    if (tri_index < 0)
        return studioError(core::ErrorCode::BadValue, "meshes", mesh_index, "triindex",
                           std::to_string(tri_index) + " is negative");
    uint64_t p = uint64_t(tri_index);
    std::vector<StudioCorner> run;
    for (;;) {
        int16_t count = 0;
        if (!r.read(p, count))
            return truncated("meshes", mesh_index, p, 2, r.size());
        p += 2;
        if (count == 0)
            break;
        const bool fan = count < 0;
        const uint32_t n = uint32_t(std::abs(int32_t(count)));
        if (!r.inRange(p, uint64_t(n) * 8))
            return truncated("meshes", mesh_index, p, uint64_t(n) * 8, r.size());
        run.resize(n);
        for (uint32_t i = 0; i < n; ++i, p += 8) {
            StudioCorner& c = run[i];
            c = {r.u16(p), r.u16(p + 2), r.get<int16_t>(p + 4), r.get<int16_t>(p + 6)};
            if (c.vertex >= model.vertices.size() || c.normal >= model.normals.size())
                return studioError(core::ErrorCode::IndexOutOfRange, "meshes", mesh_index, "corner",
                                   "vertex " + std::to_string(c.vertex) + " of " +
                                       std::to_string(model.vertices.size()) + ", normal " +
                                       std::to_string(c.normal) + " of " +
                                       std::to_string(model.normals.size()));
        }
        for (uint32_t i = 2; i < n; ++i) {
            if (++triangles > kMaxStudioTriangles)
                return studioError(core::ErrorCode::LimitExceeded, "meshes", mesh_index,
                                   "triangles", "more than " + std::to_string(kMaxStudioTriangles));
            const bool odd = (i & 1) != 0;
            const uint32_t a = fan ? 0 : (odd ? i - 1 : i - 2);
            const uint32_t b = fan ? i - 1 : (odd ? i - 2 : i - 1);
            mesh.corners.insert(mesh.corners.end(), {run[a], run[b], run[i]});
        }
    }
    return core::okStatus();
}

core::Status readModel(const core::ByteReader& r, uint64_t at, uint32_t index, uint32_t bones,
                       StudioSubModel& m, uint64_t& triangles) {
    m.name = r.fixedString(at, 64);
    auto verts = table(r, "models", index, "numverts", r.i32(at + 80), r.i32(at + 88), 12,
                       kMaxStudioVertices);
    if (!verts)
        return verts.error();
    auto vert_bones = table(r, "models", index, "vertinfoindex", int32_t(verts->count),
                            r.i32(at + 84), 1, kMaxStudioVertices);
    if (!vert_bones)
        return vert_bones.error();
    auto norms = table(r, "models", index, "numnorms", r.i32(at + 92), r.i32(at + 100), 12,
                       kMaxStudioVertices);
    if (!norms)
        return norms.error();
    auto norm_bones = table(r, "models", index, "norminfoindex", int32_t(norms->count),
                            r.i32(at + 96), 1, kMaxStudioVertices);
    if (!norm_bones)
        return norm_bones.error();
    auto meshes = table(r, "models", index, "nummesh", r.i32(at + 72), r.i32(at + 76), kMeshBytes,
                        kMaxStudioRecords);
    if (!meshes)
        return meshes.error();
    const auto read_points =
        [&](const Table& points, const Table& owners, std::vector<std::array<float, 3>>& out,
            std::vector<uint8_t>& out_bones, const char* field) -> core::Status {
        out.resize(points.count);
        out_bones.resize(points.count);
        for (uint32_t i = 0; i < points.count; ++i) {
            out[i] = vec3At(r, points.offset + uint64_t(i) * 12);
            out_bones[i] = r.u8(owners.offset + i);
            if (out_bones[i] >= bones)
                return studioError(core::ErrorCode::IndexOutOfRange, "models", index, field,
                                   "bone " + std::to_string(out_bones[i]) + " of " +
                                       std::to_string(bones) + " (point " + std::to_string(i) +
                                       ")");
        }
        return core::okStatus();
    };
    if (auto s = read_points(*verts, *vert_bones, m.vertices, m.vertex_bones, "vertinfo"); !s)
        return s;
    if (auto s = read_points(*norms, *norm_bones, m.normals, m.normal_bones, "norminfo"); !s)
        return s;
    m.meshes.resize(meshes->count);
    for (uint32_t i = 0; i < meshes->count; ++i)
        if (auto s = readMesh(r, meshes->offset + uint64_t(i) * kMeshBytes, i, m, m.meshes[i],
                              triangles);
            !s)
            return s;
    return core::okStatus();
}

core::Status checkHeader(const core::ByteReader& r) {
    if (r.inRange(0, 4) && r.u32(0) != kIdst) // a sequence group ("IDSQ") is not a model
        return studioError(core::ErrorCode::UnknownFormat, "header", -1, "ident", "not IDST");
    if (!r.inRange(0, kHeaderBytes))
        return truncated("header", -1, 0, kHeaderBytes, r.size());
    if (r.i32(4) != kStudioVersion)
        return studioError(core::ErrorCode::UnsupportedVersion, "header", -1, "version",
                           std::to_string(r.i32(4)) + ", expected 10");
    return core::okStatus();
}

glm::mat3 boneRotation(float x, float y, float z) {
    // AngleQuaternion (HLSDK mathlib.c): roll about x, then pitch about y, then yaw about z.
    const glm::quat q = glm::angleAxis(z, glm::vec3(0, 0, 1)) *
                        glm::angleAxis(y, glm::vec3(0, 1, 0)) *
                        glm::angleAxis(x, glm::vec3(1, 0, 0));
    return glm::mat3_cast(q);
}

} // namespace

core::Result<StudioModel> parseStudio(std::span<const uint8_t> data) {
    const core::ByteReader r(data);
    if (auto s = checkHeader(r); !s)
        return s.error();
    StudioModel m;
    m.name = r.fixedString(8, 64);
    m.bbmin = vec3At(r, 112);
    m.bbmax = vec3At(r, 124);

    auto bones =
        table(r, "header", -1, "numbones", r.i32(140), r.i32(144), kBoneBytes, kMaxStudioBones);
    if (!bones)
        return bones.error();
    m.bones.resize(bones->count);
    for (uint32_t i = 0; i < bones->count; ++i) {
        const uint64_t at = bones->offset + uint64_t(i) * kBoneBytes;
        StudioBone& b = m.bones[i];
        b.name = r.fixedString(at, 32);
        b.parent = r.i32(at + 32);
        if (b.parent < -1 || b.parent >= int32_t(i))
            return studioError(core::ErrorCode::BadValue, "bones", i, "parent",
                               std::to_string(b.parent) + ", need -1 or an earlier bone");
        for (size_t k = 0; k < 6; ++k) {
            b.controllers[k] = r.i32(at + 40 + 4 * k);
            b.value[k] = r.f32(at + 64 + 4 * k);
            b.scale[k] = r.f32(at + 88 + 4 * k);
        }
    }
    auto controllers = table(r, "header", -1, "numbonecontrollers", r.i32(148), r.i32(152),
                             kControllerBytes, kMaxStudioRecords);
    if (!controllers)
        return controllers.error();
    m.controllers.resize(controllers->count);
    for (uint32_t i = 0; i < controllers->count; ++i) {
        const uint64_t at = controllers->offset + uint64_t(i) * kControllerBytes;
        m.controllers[i] = {r.i32(at),      r.u32(at + 4),  r.f32(at + 8),
                            r.f32(at + 12), r.i32(at + 16), r.i32(at + 20)};
    }
    for (uint32_t i = 0; i < m.bones.size(); ++i)
        for (size_t k = 0; k < 6; ++k) {
            const int32_t c = m.bones[i].controllers[k];
            if (c < -1 || c >= int32_t(controllers->count))
                return studioError(core::ErrorCode::IndexOutOfRange, "bones", i,
                                   "bonecontroller " + std::to_string(k),
                                   std::to_string(c) + " of " + std::to_string(controllers->count));
        }

    auto groups = table(r, "header", -1, "numseqgroups", r.i32(172), r.i32(176),
                        kSequenceGroupBytes, kMaxStudioRecords);
    if (!groups)
        return groups.error();
    for (uint32_t g = 0; g < groups->count; ++g)
        m.sequence_group_names.push_back(
            r.fixedString(groups->offset + uint64_t(g) * kSequenceGroupBytes + 32, 64));
    auto seqs =
        table(r, "header", -1, "numseq", r.i32(164), r.i32(168), kSequenceBytes, kMaxStudioRecords);
    if (!seqs)
        return seqs.error();
    m.sequences.resize(seqs->count);
    for (uint32_t i = 0; i < seqs->count; ++i) {
        const uint64_t at = seqs->offset + uint64_t(i) * kSequenceBytes;
        StudioSequence& s = m.sequences[i];
        s.label = r.fixedString(at, 32);
        s.fps = r.f32(at + 32);
        const int32_t frames = r.i32(at + 56), blends = r.i32(at + 120), anim = r.i32(at + 124);
        const int32_t group = r.i32(at + 156);
        if (frames < 0 || blends < 0 || anim < 0)
            return studioError(core::ErrorCode::BadValue, "sequences", i, "numframes",
                               "frames " + std::to_string(frames) + ", blends " +
                                   std::to_string(blends) + ", animindex " + std::to_string(anim) +
                                   ": negative");
        if (group < 0 || uint32_t(group) >= std::max<uint32_t>(groups->count, 1))
            return studioError(core::ErrorCode::IndexOutOfRange, "sequences", i, "seqgroup",
                               std::to_string(group) + " of " + std::to_string(groups->count));
        s.frame_count = uint32_t(frames);
        s.blend_count = uint32_t(blends);
        s.anim_offset = uint32_t(anim);
        s.group = uint32_t(group);
    }

    if (auto s = readTextures(r, m); !s)
        return s.error();

    auto parts = table(r, "header", -1, "numbodyparts", r.i32(204), r.i32(208), kBodyPartBytes,
                       kMaxStudioRecords);
    if (!parts)
        return parts.error();
    m.body_parts.resize(parts->count);
    uint64_t triangles = 0;
    uint32_t model_index = 0; // over all parts, as errors name them ("studio.models[k]")
    for (uint32_t i = 0; i < parts->count; ++i) {
        const uint64_t at = parts->offset + uint64_t(i) * kBodyPartBytes;
        StudioBodyPart& part = m.body_parts[i];
        part.name = r.fixedString(at, 64);
        auto models = table(r, "bodyparts", i, "nummodels", r.i32(at + 64), r.i32(at + 72),
                            kModelBytes, kMaxStudioRecords);
        if (!models)
            return models.error();
        part.base = r.i32(at + 68);
        part.models.resize(models->count);
        for (uint32_t k = 0; k < models->count; ++k)
            if (auto s = readModel(r, models->offset + uint64_t(k) * kModelBytes, model_index++,
                                   bones->count, part.models[k], triangles);
                !s)
                return s.error();
    }
    return m;
}

core::Status loadStudioTextures(StudioModel& model, std::span<const uint8_t> texture_file) {
    const core::ByteReader r(texture_file);
    if (auto s = checkHeader(r); !s)
        return s;
    return readTextures(r, model);
}

core::Status decodeStudioAnimation(StudioModel& model, uint32_t sequence,
                                   std::span<const uint8_t> data) {
    if (sequence >= model.sequences.size())
        return studioError(core::ErrorCode::IndexOutOfRange, "anim", -1, "sequence",
                           std::to_string(sequence) + " of " +
                               std::to_string(model.sequences.size()));
    const StudioSequence& seq = model.sequences[sequence];
    const core::ByteReader r(data);
    const uint32_t total = std::max<uint32_t>(seq.frame_count, 1);
    const uint32_t poses = std::min(total, kMaxStudioPoses);
    std::vector<uint32_t> sampled(poses);
    for (uint32_t i = 0; i < poses; ++i)
        sampled[i] = uint32_t(uint64_t(i) * total / poses);
    std::vector<std::vector<StudioBoneFrame>> frames(
        poses, std::vector<StudioBoneFrame>(model.bones.size()));
    for (uint32_t b = 0; b < model.bones.size(); ++b) {
        const StudioBone& bone = model.bones[b];
        const uint64_t at = uint64_t(seq.anim_offset) + uint64_t(b) * kBoneAnimBytes;
        if (!r.inRange(at, kBoneAnimBytes))
            return truncated("anim", b, at, kBoneAnimBytes, data.size());
        for (size_t axis = 0; axis < 6; ++axis) {
            const uint16_t offset = r.u16(at + 2 * axis);
            if (offset == 0) { // the axis does not move
                for (uint32_t i = 0; i < poses; ++i)
                    frames[i][b][axis] = bone.value[axis];
                continue;
            }
            // R_StudioCalcBoneQuaternion: skip whole runs until the frame lies in one; the
            // sampled frames increase, so one walk serves them all.
            uint64_t p = at + offset;
            uint64_t run_first = 0;
            for (uint32_t i = 0; i < poses; ++i) {
                uint8_t valid = 0, count = 0;
                for (;;) {
                    if (!r.inRange(p, 2))
                        return truncated("anim", b, p, 2, data.size());
                    valid = r.u8(p);
                    count = r.u8(p + 1);
                    if (count == 0)
                        return studioError(core::ErrorCode::BadValue, "anim", b,
                                           "axis " + std::to_string(axis),
                                           "a run of 0 frames at " + std::to_string(p));
                    if (sampled[i] - run_first < count)
                        break;
                    run_first += count;
                    p += (uint64_t(valid) + 1) * 2;
                }
                const uint64_t k = sampled[i] - run_first;
                const uint64_t value_at = p + 2 * (valid > k ? k + 1 : valid);
                int16_t v = 0;
                if (!r.read(value_at, v))
                    return truncated("anim", b, value_at, 2, data.size());
                frames[i][b][axis] = bone.value[axis] + float(v) * bone.scale[axis];
            }
        }
    }
    const bool timed = std::isfinite(seq.fps) && seq.fps > 0.0f;
    model.frame_time = timed ? float(double(total) / seq.fps / poses) : 0.1f;
    model.frames = std::move(frames);
    model.frames_sequence = sequence;
    return core::okStatus();
}

std::string studioTextureFilePath(std::string_view path) {
    const std::string_view base = path.substr(0, path.size() >= 4 ? path.size() - 4 : 0);
    return std::string(base) + "T.mdl";
}

std::string studioSequenceGroupPath(std::string_view path, uint32_t group) {
    const std::string_view base = path.substr(0, path.size() >= 4 ? path.size() - 4 : 0);
    char digits[16];
    std::snprintf(digits, sizeof digits, "%02u", group);
    return std::string(base) + digits + ".mdl";
}

std::vector<std::array<float, 12>> studioBoneTransforms(std::span<const StudioBone> bones,
                                                        std::span<const StudioBoneFrame> frame) {
    std::vector<std::array<float, 12>> out(bones.size());
    std::vector<glm::mat3> rot(bones.size());
    std::vector<glm::vec3> pos(bones.size());
    for (size_t b = 0; b < bones.size(); ++b) {
        const StudioBoneFrame& f = b < frame.size() ? frame[b] : bones[b].value;
        glm::mat3 r = boneRotation(f[3], f[4], f[5]);
        glm::vec3 t(f[0], f[1], f[2]);
        const int32_t parent = bones[b].parent;
        if (parent >= 0 && size_t(parent) < b) { // parseStudio checks; callers may not
            t = rot[size_t(parent)] * t + pos[size_t(parent)];
            r = rot[size_t(parent)] * r;
        }
        rot[b] = r;
        pos[b] = t;
        for (int row = 0; row < 3; ++row) {
            for (int col = 0; col < 3; ++col)
                out[b][size_t(row * 4 + col)] = r[col][row];
            out[b][size_t(row * 4 + 3)] = t[row];
        }
    }
    return out;
}

std::vector<uint32_t> studioBodyModels(const StudioModel& model, int32_t body) {
    std::vector<uint32_t> chosen;
    const int64_t value = std::max<int64_t>(body, 0);
    for (const StudioBodyPart& part : model.body_parts) {
        const int64_t base = std::max<int64_t>(part.base, 1);
        chosen.push_back(
            part.models.empty() ? 0 : uint32_t((value / base) % int64_t(part.models.size())));
    }
    return chosen;
}

StudioControllerSettings studioInitControllers(const StudioModel& model) {
    StudioControllerSettings out{};
    for (int32_t index = 0; index < 4; ++index) {
        // SetController takes the first controller with the index.
        const auto c = std::find_if(model.controllers.begin(), model.controllers.end(),
                                    [&](const StudioController& sc) { return sc.index == index; });
        if (c == model.controllers.end())
            continue;
        // The arithmetic of SetController: the value and the setting in float, the range's
        // middle in double.
        float value = 0.0f;
        const float start = c->start, end = c->end;
        if ((c->type & (kStudioXR | kStudioYR | kStudioZR)) != 0 &&
            double(start) + 359.0 >= double(end)) {
            // (end < start negates the value, and a range past a full turn brings it into
            // 0..360: neither changes 0.)
            const double middle = (double(start) + double(end)) / 2.0;
            if (double(value) > middle + 180.0)
                value -= 360.0f;
            if (double(value) < middle - 180.0)
                value += 360.0f;
        }
        const float setting = 255.0f * (value - start) / (end - start);
        // Truncated toward zero as the int conversion does; a 0-wide range counts as 0.
        out[size_t(index)] =
            std::isfinite(setting) ? uint8_t(std::clamp(std::trunc(setting), 0.0f, 255.0f)) : 0;
    }
    return out;
}

std::vector<float> studioControllerAdjustments(const StudioModel& model,
                                               const StudioControllerSettings& settings) {
    std::vector<float> adj(model.controllers.size(), 0.0f);
    for (size_t j = 0; j < model.controllers.size(); ++j) {
        const StudioController& c = model.controllers[j];
        float value = 0.0f;
        if (c.index == kStudioMouth) {
            value = c.start; // mouthopen 0
        } else if (c.index >= 0 && c.index < 4) {
            const float s = float(settings[size_t(c.index)]);
            if ((c.type & kStudioRLoop) != 0)
                value = s * (360.0f / 256.0f) + c.start;
            else
                value = (1.0f - s / 255.0f) * c.start + (s / 255.0f) * c.end;
        }
        switch (c.type & kStudioTypes) {
        case kStudioXR:
        case kStudioYR:
        case kStudioZR:
            adj[j] = value * std::numbers::pi_v<float> / 180.0f;
            break;
        case kStudioX:
        case kStudioY:
        case kStudioZ:
            adj[j] = value;
            break;
        default:
            break;
        }
        if (!std::isfinite(adj[j]))
            adj[j] = 0.0f;
    }
    return adj;
}

ModelMesh buildStudioMesh(const StudioModel& model, int32_t body,
                          const StudioControllerSettings& controllers) {
    ModelMesh mesh;
    const std::vector<uint32_t> chosen = studioBodyModels(model, body);
    // The atlas: one slot per skin reference, sized by family 0's texture, placed in shelves.
    struct Slot {
        int x = 0, y = 0, w = 1, h = 1;
    };
    std::vector<Slot> slots(model.skin_refs);
    const bool textured = !model.textures.empty() && !model.skin_families.empty();
    int atlas_w = 1, atlas_h = 1;
    if (textured) {
        uint64_t area = 0;
        for (uint32_t k = 0; k < model.skin_refs; ++k) {
            const StudioTexture& t = model.textures[model.skin_families[0][k]];
            slots[k].w = t.width;
            slots[k].h = t.height;
            atlas_w = std::max(atlas_w, t.width);
            area += uint64_t(t.width) * uint64_t(t.height);
        }
        atlas_w = std::max(atlas_w, int(std::ceil(std::sqrt(double(area)))));
        int x = 0, y = 0, shelf = 0;
        for (Slot& s : slots) {
            if (x + s.w > atlas_w) {
                x = 0;
                y += shelf;
                shelf = 0;
            }
            s.x = x;
            s.y = y;
            x += s.w;
            shelf = std::max(shelf, s.h);
        }
        atlas_h = std::max(1, y + shelf);
    }

    // Drawn vertices: one per (part, mesh skin, vertex, normal, s, t).
    struct Source {
        const StudioSubModel* model;
        uint16_t vertex, normal;
    };
    std::vector<Source> sources;
    std::map<std::array<int32_t, 6>, uint32_t> drawn;
    struct DrawnMesh {
        uint32_t first_index, index_count, skinref; // skinref ~0u: no texture
    };
    std::vector<DrawnMesh> drawn_meshes;
    for (size_t p = 0; p < model.body_parts.size(); ++p) {
        if (model.body_parts[p].models.empty())
            continue;
        const StudioSubModel& sub = model.body_parts[p].models[chosen[p]];
        for (const StudioMesh& m : sub.meshes) {
            const bool has_slot = textured && m.skinref < model.skin_refs;
            const Slot slot = has_slot ? slots[m.skinref] : Slot{};
            for (const StudioCorner& c : m.corners) {
                const std::array<int32_t, 6> key{
                    int32_t(p), int32_t(m.skinref), c.vertex, c.normal, c.s, c.t};
                auto [it, added] = drawn.try_emplace(key, uint32_t(sources.size()));
                if (added) {
                    sources.push_back({&sub, c.vertex, c.normal});
                    const float s = std::clamp(float(c.s), 0.0f, float(slot.w));
                    const float t = std::clamp(float(c.t), 0.0f, float(slot.h));
                    mesh.uv.push_back({has_slot ? (float(slot.x) + s) / float(atlas_w) : 0.0f,
                                       has_slot ? (float(slot.y) + t) / float(atlas_h) : 0.0f});
                }
                mesh.indices.push_back(it->second);
            }
            drawn_meshes.push_back({uint32_t(mesh.indices.size() - m.corners.size()),
                                    uint32_t(m.corners.size()), has_slot ? m.skinref : ~0u});
        }
    }
    mesh.vertex_count = uint32_t(sources.size());

    // Poses: each sampled frame, or the bones' rest values, moved by the bone controllers.
    std::vector<std::vector<StudioBoneFrame>> frames = model.frames;
    if (frames.empty()) {
        frames.emplace_back();
        for (const StudioBone& b : model.bones)
            frames.back().push_back(b.value);
    }
    const std::vector<float> adj = studioControllerAdjustments(model, controllers);
    for (std::vector<StudioBoneFrame>& frame : frames)
        for (size_t b = 0; b < frame.size() && b < model.bones.size(); ++b)
            for (size_t k = 0; k < 6; ++k) {
                const int32_t c = model.bones[b].controllers[k];
                if (c >= 0 && size_t(c) < adj.size())
                    frame[b][k] += adj[size_t(c)];
            }
    mesh.pose_count = uint32_t(frames.size());
    mesh.positions.resize(size_t(mesh.pose_count) * mesh.vertex_count);
    mesh.normals.resize(mesh.positions.size());
    mesh.mins = {INFINITY, INFINITY, INFINITY};
    mesh.maxs = {-INFINITY, -INFINITY, -INFINITY};
    for (uint32_t f = 0; f < mesh.pose_count; ++f) {
        const auto bones = studioBoneTransforms(model.bones, frames[f]);
        for (uint32_t v = 0; v < mesh.vertex_count; ++v) {
            const Source& src = sources[v];
            const auto& m = bones[src.model->vertex_bones[src.vertex]];
            const auto& p = src.model->vertices[src.vertex];
            const auto& nm = bones[src.model->normal_bones[src.normal]];
            const auto& n = src.model->normals[src.normal];
            std::array<float, 3> out{}, nout{};
            for (size_t k = 0; k < 3; ++k) {
                out[k] = m[k * 4] * p[0] + m[k * 4 + 1] * p[1] + m[k * 4 + 2] * p[2] + m[k * 4 + 3];
                nout[k] = nm[k * 4] * n[0] + nm[k * 4 + 1] * n[1] + nm[k * 4 + 2] * n[2];
                mesh.mins[k] = std::min(mesh.mins[k], out[k]);
                mesh.maxs[k] = std::max(mesh.maxs[k], out[k]);
            }
            const float len = std::sqrt(nout[0] * nout[0] + nout[1] * nout[1] + nout[2] * nout[2]);
            mesh.normals[size_t(f) * mesh.vertex_count + v] =
                len > 0 && std::isfinite(len)
                    ? std::array<float, 3>{nout[0] / len, nout[1] / len, nout[2] / len}
                    : std::array<float, 3>{0, 0, 1};
            mesh.positions[size_t(f) * mesh.vertex_count + v] = out;
        }
    }
    ModelFrame frame;
    frame.name = model.frames_sequence < model.sequences.size()
                     ? model.sequences[model.frames_sequence].label
                     : std::string("rest");
    frame.poses.first = 0;
    frame.poses.count = mesh.pose_count;
    if (mesh.pose_count > 1)
        for (uint32_t i = 0; i < mesh.pose_count; ++i)
            frame.poses.end_times.push_back(model.frame_time * float(i + 1));
    mesh.frames.push_back(std::move(frame));

    // Each mesh a draw range by the flags of the texture family `f` gives its reference;
    // consecutive plain meshes merge.
    const auto rangesOf = [&](size_t f) {
        std::vector<ModelDrawRange> ranges;
        for (const DrawnMesh& dm : drawn_meshes) {
            const StudioTexture* t =
                dm.skinref != ~0u ? &model.textures[model.skin_families[f][dm.skinref]] : nullptr;
            const uint32_t flags = t ? t->flags : 0;
            ModelDrawRange range;
            range.first_index = dm.first_index;
            range.index_count = dm.index_count;
            // R_StudioDrawPoints tests masked before additive.
            range.masked = (flags & kStudioMasked) != 0;
            range.additive = (flags & kStudioAdditive) != 0 && !range.masked;
            range.chrome = (flags & kStudioChrome) != 0;
            range.flat = (flags & kStudioFlatShade) != 0;
            if (range.chrome) {
                // Xash3D R_StudioSetupChrome: (n + 1) * 32 texels over the texture's size; the
                // texture fills its slot, whatever its size.
                const Slot& slot = slots[dm.skinref];
                range.chrome_rect = {float(slot.x) / float(atlas_w), float(slot.y) / float(atlas_h),
                                     float(slot.x + slot.w) / float(atlas_w),
                                     float(slot.y + slot.h) / float(atlas_h)};
                range.chrome_scale = {32.0f / float(t->width), 32.0f / float(t->height)};
            }
            ModelDrawRange* last = ranges.empty() ? nullptr : &ranges.back();
            if (last && !range.chrome && !last->chrome && last->additive == range.additive &&
                last->masked == range.masked && last->flat == range.flat)
                last->index_count += range.index_count;
            else if (range.index_count > 0)
                ranges.push_back(range);
        }
        return ranges;
    };

    // One image per skin family, every slot filled from that family's texture (scaled to the
    // slot by nearest texel when its size differs from family 0's).
    const size_t families = textured ? model.skin_families.size() : 1;
    for (size_t f = 0; f < families; ++f) {
        ModelImage img;
        img.width = atlas_w;
        img.height = atlas_h;
        img.rgba.assign(size_t(atlas_w) * size_t(atlas_h) * 4, 255);
        std::vector<uint8_t> bright(size_t(atlas_w) * size_t(atlas_h), 0);
        bool any_bright = false;
        for (uint32_t k = 0; textured && k < model.skin_refs; ++k) {
            const StudioTexture& t = model.textures[model.skin_families[f][k]];
            const Slot& s = slots[k];
            // A masked texture's mask marks its cut texels (index 255) instead, so a masked
            // texture is not also fullbright.
            const bool masked = (t.flags & kStudioMasked) != 0;
            const bool fullbright = (t.flags & kStudioFullbright) != 0 && !masked;
            any_bright |= fullbright || masked;
            for (int y = 0; y < s.h; ++y)
                for (int x = 0; x < s.w; ++x) {
                    const size_t src =
                        size_t(y * t.height / s.h) * size_t(t.width) + size_t(x * t.width / s.w);
                    const uint8_t i = t.indices[src];
                    const size_t dst = size_t(s.y + y) * size_t(atlas_w) + size_t(s.x + x);
                    for (size_t c = 0; c < 3; ++c)
                        img.rgba[dst * 4 + c] = t.palette[size_t(i) * 3 + c];
                    if (fullbright || (masked && i == 255))
                        bright[dst] = 255;
                }
        }
        if (any_bright)
            img.fullbright = std::move(bright);
        mesh.images.push_back(std::move(img));
        mesh.skins.push_back({TimedRun{uint32_t(f), 1, {}}});
        // The family's draw ranges: its own textures' flags (R_StudioDrawPoints reads the flags
        // of the texture the entity's skin family puts in the mesh's reference).
        std::vector<ModelDrawRange> ranges = rangesOf(f);
        mesh.skin_ranges.emplace_back();
        if (f == 0)
            mesh.ranges = std::move(ranges);
        else if (ranges != mesh.ranges)
            mesh.skin_ranges.back() = std::move(ranges);
    }
    if (mesh.vertex_count == 0) {
        mesh.mins = {0, 0, 0};
        mesh.maxs = {0, 0, 0};
        mesh.mins[0] = 1; // mins > maxs: no vertex (model_mesh.h)
    }
    return mesh;
}

} // namespace content
