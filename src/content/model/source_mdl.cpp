#include "content/model/source_mdl.h"

#include "content/model/source_read.h"

#include <algorithm>

namespace content {

namespace {

using source_read::error;
using source_read::stringAt;
using source_read::table;
using source_read::vec3At;

constexpr uint32_t kIdst = 'I' | ('D' << 8) | ('S' << 16) | (uint32_t('T') << 24);
constexpr uint64_t kHeaderBytes = 240; // through bodypartindex
constexpr uint64_t kBoneBytes = 216;
constexpr uint64_t kSequenceBytes = 212;
constexpr uint64_t kTextureBytes = 64;
constexpr uint64_t kBodyPartBytes = 16;
constexpr uint64_t kModelBytes = 148;
constexpr uint64_t kMeshBytes = 116;
constexpr uint64_t kVertexBytes = 48; // mstudiovertex_t, the unit of mstudiomodel_t::vertexindex

core::Status readBones(const core::ByteReader& r, SourceMdl& m) {
    auto t = table(r, "mdl.header", -1, "numbones", r.i32(156), r.i32(160), 0, kBoneBytes,
                   kSourceMaxBones);
    if (!t)
        return t.error();
    m.bones.resize(t->count);
    for (uint32_t i = 0; i < t->count; ++i) {
        const uint64_t at = t->offset + uint64_t(i) * kBoneBytes;
        SourceMdlBone& b = m.bones[i];
        auto name = stringAt(r, "mdl.bones", i, "sznameindex", at, r.i32(at), kSourceMaxName);
        if (!name)
            return name.error();
        b.name = std::move(*name);
        b.parent = r.i32(at + 4);
        if (b.parent < -1 || b.parent >= int32_t(i))
            return error(core::ErrorCode::BadValue, "mdl.bones", i, "parent",
                         std::to_string(b.parent) + " is not an earlier bone");
        b.position = vec3At(r, at + 32);
        for (size_t k = 0; k < 4; ++k)
            b.quaternion[k] = r.f32(at + 44 + k * 4);
    }
    return core::okStatus();
}

core::Status readSequences(const core::ByteReader& r, SourceMdl& m) {
    auto t = table(r, "mdl.header", -1, "numlocalseq", r.i32(188), r.i32(192), 0, kSequenceBytes,
                   kSourceMaxRecords);
    if (!t)
        return t.error();
    m.sequences.resize(t->count);
    for (uint32_t i = 0; i < t->count; ++i) {
        const uint64_t at = t->offset + uint64_t(i) * kSequenceBytes;
        auto label =
            stringAt(r, "mdl.sequences", i, "szlabelindex", at, r.i32(at + 4), kSourceMaxName);
        if (!label)
            return label.error();
        m.sequences[i] = std::move(*label);
    }
    return core::okStatus();
}

core::Status readTextures(const core::ByteReader& r, SourceMdl& m) {
    auto t = table(r, "mdl.header", -1, "numtextures", r.i32(204), r.i32(208), 0, kTextureBytes,
                   kSourceMaxRecords);
    if (!t)
        return t.error();
    m.textures.resize(t->count);
    for (uint32_t i = 0; i < t->count; ++i) {
        const uint64_t at = t->offset + uint64_t(i) * kTextureBytes;
        auto name = stringAt(r, "mdl.textures", i, "sznameindex", at, r.i32(at), kSourceMaxName);
        if (!name)
            return name.error();
        m.textures[i] = std::move(*name);
    }
    auto cd = table(r, "mdl.header", -1, "numcdtextures", r.i32(212), r.i32(216), 0, 4,
                    kSourceMaxRecords);
    if (!cd)
        return cd.error();
    m.texture_dirs.resize(cd->count);
    for (uint32_t i = 0; i < cd->count; ++i) {
        auto dir = stringAt(r, "mdl.cdtextures", i, "offset", 0, r.i32(cd->offset + i * 4ull),
                            kSourceMaxName);
        if (!dir)
            return dir.error();
        m.texture_dirs[i] = std::move(*dir);
    }
    return core::okStatus();
}

core::Status readSkins(const core::ByteReader& r, SourceMdl& m) {
    const int32_t refs = r.i32(220), families = r.i32(224);
    if (refs < 0 || families < 0)
        return error(core::ErrorCode::BadValue, "mdl.header", -1,
                     refs < 0 ? "numskinref" : "numskinfamilies", "negative count");
    if (uint32_t(refs) > kSourceMaxRecords)
        return error(core::ErrorCode::LimitExceeded, "mdl.header", -1, "numskinref",
                     std::to_string(refs) + " > " + std::to_string(kSourceMaxRecords));
    if (uint64_t(refs) * uint64_t(families) > kSourceMaxSkinEntries)
        return error(core::ErrorCode::LimitExceeded, "mdl.header", -1, "numskinfamilies",
                     std::to_string(families) + " x " + std::to_string(refs) + " > " +
                         std::to_string(kSourceMaxSkinEntries));
    auto t = table(r, "mdl.header", -1, "skinindex", families, r.i32(228), 0, uint64_t(refs) * 2,
                   kSourceMaxSkinEntries);
    if (!t)
        return t.error();
    m.skin_refs = uint32_t(refs);
    m.skin_families.assign(t->count, std::vector<uint16_t>(m.skin_refs));
    for (uint32_t f = 0; f < t->count; ++f)
        for (uint32_t k = 0; k < m.skin_refs; ++k) {
            const int16_t v = r.get<int16_t>(t->offset + (uint64_t(f) * m.skin_refs + k) * 2);
            if (v < 0 || size_t(v) >= m.textures.size())
                return error(core::ErrorCode::IndexOutOfRange, "mdl.skins", int64_t(f),
                             "slot " + std::to_string(k),
                             "texture " + std::to_string(v) + " of " +
                                 std::to_string(m.textures.size()));
            m.skin_families[f][k] = uint16_t(v);
        }
    return core::okStatus();
}

core::Status readMeshes(const core::ByteReader& r, uint64_t model_at, int64_t model_index,
                        SourceMdlModel& model, uint64_t& meshes) {
    auto t = table(r, "mdl.models", model_index, "nummeshes", r.i32(model_at + 72),
                   r.i32(model_at + 76), model_at, kMeshBytes, kSourceMaxRecords);
    if (!t)
        return t.error();
    // Tables may overlap: bound the meshes over every model, not only per model.
    meshes += t->count;
    if (meshes > kSourceMaxMeshes)
        return error(core::ErrorCode::LimitExceeded, "mdl.models", model_index, "nummeshes",
                     std::to_string(meshes) + " meshes in all > " +
                         std::to_string(kSourceMaxMeshes));
    model.meshes.resize(t->count);
    for (uint32_t i = 0; i < t->count; ++i) {
        const uint64_t at = t->offset + uint64_t(i) * kMeshBytes;
        SourceMdlMesh& mesh = model.meshes[i];
        mesh.material = r.i32(at);
        const int32_t count = r.i32(at + 8), offset = r.i32(at + 12);
        if (count < 0 || offset < 0 || uint32_t(count) > kSourceMaxVertices ||
            uint32_t(offset) > kSourceMaxVertices)
            return error(core::ErrorCode::BadValue, "mdl.meshes", i, "numvertices",
                         std::to_string(offset) + "+" + std::to_string(count) + " outside 0.." +
                             std::to_string(kSourceMaxVertices));
        mesh.vertex_count = uint32_t(count);
        mesh.vertex_offset = uint32_t(offset);
        for (size_t k = 0; k < kSourceMaxLods; ++k) {
            const int32_t n = r.i32(at + 52 + k * 4);
            if (n < 0 || uint32_t(n) > kSourceMaxVertices)
                return error(core::ErrorCode::BadValue, "mdl.meshes", i,
                             "numLODVertexes[" + std::to_string(k) + "]",
                             std::to_string(n) + " outside 0.." +
                                 std::to_string(kSourceMaxVertices));
            mesh.lod_vertex_counts[k] = uint32_t(n);
        }
    }
    return core::okStatus();
}

core::Status readModels(const core::ByteReader& r, uint64_t part_at, int64_t part_index,
                        SourceMdlBodyPart& part, uint64_t& meshes) {
    auto t = table(r, "mdl.bodyparts", part_index, "nummodels", r.i32(part_at + 4),
                   r.i32(part_at + 12), part_at, kModelBytes, kSourceMaxRecords);
    if (!t)
        return t.error();
    part.models.resize(t->count);
    for (uint32_t i = 0; i < t->count; ++i) {
        const uint64_t at = t->offset + uint64_t(i) * kModelBytes;
        SourceMdlModel& model = part.models[i];
        model.name = r.fixedString(at, 64);
        const int32_t count = r.i32(at + 80), index = r.i32(at + 84);
        if (count < 0 || index < 0 || uint32_t(count) > kSourceMaxVertices ||
            index % int32_t(kVertexBytes) != 0)
            return error(core::ErrorCode::BadValue, "mdl.models", i, "vertexindex",
                         std::to_string(count) + " vertices at byte " + std::to_string(index) +
                             " (a multiple of 48 expected)");
        model.vertex_count = uint32_t(count);
        model.first_vertex = uint32_t(index) / uint32_t(kVertexBytes);
        if (auto s = readMeshes(r, at, i, model, meshes); !s)
            return s;
    }
    return core::okStatus();
}

core::Status readBodyParts(const core::ByteReader& r, SourceMdl& m) {
    auto t = table(r, "mdl.header", -1, "numbodyparts", r.i32(232), r.i32(236), 0, kBodyPartBytes,
                   kSourceMaxRecords);
    if (!t)
        return t.error();
    m.body_parts.resize(t->count);
    uint64_t models = 0, meshes = 0;
    for (uint32_t i = 0; i < t->count; ++i) {
        const uint64_t at = t->offset + uint64_t(i) * kBodyPartBytes;
        SourceMdlBodyPart& part = m.body_parts[i];
        auto name = stringAt(r, "mdl.bodyparts", i, "sznameindex", at, r.i32(at), kSourceMaxName);
        if (!name)
            return name.error();
        part.name = std::move(*name);
        part.base = r.i32(at + 8);
        models += uint64_t(std::max(r.i32(at + 4), 0));
        if (models > kSourceMaxRecords)
            return error(core::ErrorCode::LimitExceeded, "mdl.bodyparts", i, "nummodels",
                         std::to_string(models) + " models > " + std::to_string(kSourceMaxRecords));
        if (auto s = readModels(r, at, i, part, meshes); !s)
            return s;
    }
    return core::okStatus();
}

} // namespace

core::Result<SourceMdl> parseSourceMdl(std::span<const uint8_t> data) {
    const core::ByteReader r(data);
    if (r.size() < kHeaderBytes || r.u32(0) != kIdst)
        return error(core::ErrorCode::UnknownFormat, "mdl.header", -1, "id",
                     r.size() < kHeaderBytes ? "shorter than a studiohdr_t"
                                             : "not a studio model (IDST)");
    SourceMdl m;
    m.version = r.i32(4);
    if (m.version < kSourceMdlMinVersion || m.version > kSourceMdlMaxVersion)
        return error(core::ErrorCode::UnsupportedVersion, "mdl.header", -1, "version",
                     "version " + std::to_string(m.version) + ", not 44..49");
    m.checksum = r.i32(8);
    m.name = r.fixedString(12, 64);
    m.illum_position = vec3At(r, 92);
    m.hull_min = vec3At(r, 104);
    m.hull_max = vec3At(r, 116);
    m.view_min = vec3At(r, 128);
    m.view_max = vec3At(r, 140);
    m.flags = r.u32(152);
    for (auto step : {&readBones, &readSequences, &readTextures, &readSkins, &readBodyParts})
        if (auto s = step(r, m); !s)
            return s.error();
    // A mesh's material is a column of the skin table (the engine reads pskinref[material]).
    for (const SourceMdlBodyPart& part : m.body_parts)
        for (const SourceMdlModel& model : part.models)
            for (size_t k = 0; k < model.meshes.size(); ++k)
                if (model.meshes[k].material < 0 ||
                    (uint32_t(model.meshes[k].material) >= m.skin_refs && !m.skin_families.empty()))
                    return error(core::ErrorCode::IndexOutOfRange, "mdl.meshes", int64_t(k),
                                 "material",
                                 "slot " + std::to_string(model.meshes[k].material) + " of " +
                                     std::to_string(m.skin_refs) + " in model " + model.name);
    return m;
}

std::vector<uint32_t> sourceBodyModels(const SourceMdl& mdl, int32_t body) {
    std::vector<uint32_t> chosen;
    const int64_t value = std::max<int64_t>(body, 0);
    for (const SourceMdlBodyPart& part : mdl.body_parts) {
        const int64_t base = std::max<int64_t>(part.base, 1);
        chosen.push_back(
            part.models.empty() ? 0 : uint32_t((value / base) % int64_t(part.models.size())));
    }
    return chosen;
}

} // namespace content
