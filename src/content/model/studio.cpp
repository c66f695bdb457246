#include "content/model/studio.h"

#include "content/image/palette.h"
#include "core/byte_reader.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

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

} // namespace

namespace {

core::Status readBones(const core::ByteReader& r, StudioModel& m) {
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
    return core::okStatus();
}

// The bone controllers, and every bone's controller index checked against them.
core::Status readControllers(const core::ByteReader& r, StudioModel& m) {
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
    return core::okStatus();
}

// The sequence groups' names and the sequences, each naming a group that exists.
core::Status readSequences(const core::ByteReader& r, StudioModel& m) {
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
    return core::okStatus();
}

core::Status readBodyParts(const core::ByteReader& r, StudioModel& m) {
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
                                   uint32_t(m.bones.size()), part.models[k], triangles);
                !s)
                return s.error();
    }
    return core::okStatus();
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
    for (auto read : {&readBones, &readControllers, &readSequences, &readTextures, &readBodyParts})
        if (auto s = read(r, m); !s)
            return s.error();
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

} // namespace content
