#include "content/model/source_model.h"

#include "content/vfs/vfs.h"

#include <algorithm>
#include <cmath>
#include <unordered_map>

namespace content {

namespace {

core::Error inFile(core::Error e, std::string_view file) {
    e.file = std::string(file);
    return e;
}

core::Error mismatch(std::string_view file, std::string_view what, int64_t index, std::string field,
                     std::string detail) {
    return inFile(core::makeError(core::ErrorCode::BadValue, std::string(what), index,
                                  std::move(field), std::move(detail)),
                  file);
}

std::string stem(std::string_view path) {
    std::string s(path);
    if (s.size() >= 4) {
        std::string ext = s.substr(s.size() - 4);
        std::transform(ext.begin(), ext.end(), ext.begin(),
                       [](unsigned char c) { return char(std::tolower(c)); });
        if (ext == ".mdl")
            s.resize(s.size() - 4);
    }
    return s;
}

// The .vtx's shape against the .mdl's: parts, models, LOD mesh counts, and every corner inside
// its mesh's vertices.
core::Status checkShape(const SourceMdl& mdl, const Vtx& vtx, std::string_view mdl_name,
                        std::string_view vtx_name) {
    if (vtx.body_parts.size() != mdl.body_parts.size())
        return mismatch(vtx_name, "vtx.header", -1, "numBodyParts",
                        std::to_string(vtx.body_parts.size()) + " body parts, " +
                            std::string(mdl_name) + " has " +
                            std::to_string(mdl.body_parts.size()));
    for (size_t p = 0; p < mdl.body_parts.size(); ++p) {
        const auto& mp = mdl.body_parts[p];
        const auto& xp = vtx.body_parts[p];
        if (xp.models.size() != mp.models.size())
            return mismatch(vtx_name, "vtx.bodyparts", int64_t(p), "numModels",
                            std::to_string(xp.models.size()) + " models, " + std::string(mdl_name) +
                                " has " + std::to_string(mp.models.size()));
        for (size_t m = 0; m < mp.models.size(); ++m) {
            const SourceMdlModel& model = mp.models[m];
            for (size_t l = 0; l < xp.models[m].lods.size(); ++l) {
                const VtxLod& lod = xp.models[m].lods[l];
                if (lod.meshes.size() != model.meshes.size())
                    return mismatch(vtx_name, "vtx.lods", int64_t(l), "numMeshes",
                                    std::to_string(lod.meshes.size()) + " meshes in body part " +
                                        std::to_string(p) + " model " + std::to_string(m) + ", " +
                                        std::string(mdl_name) + " has " +
                                        std::to_string(model.meshes.size()));
                for (size_t k = 0; k < lod.meshes.size(); ++k) {
                    const uint32_t count = model.meshes[k].vertex_count;
                    for (uint16_t v : lod.meshes[k].triangles)
                        if (v >= count)
                            return inFile(
                                core::makeError(
                                    core::ErrorCode::IndexOutOfRange, "vtx.meshes", int64_t(k),
                                    "origMeshVertID",
                                    "vertex " + std::to_string(v) + " of " + std::to_string(count) +
                                        " in " + std::string(mdl_name) + "'s mesh (body part " +
                                        std::to_string(p) + ", model " + std::to_string(m) +
                                        ", LOD " + std::to_string(l) + ")"),
                                vtx_name);
                }
            }
        }
    }
    return core::okStatus();
}

// Every model's meshes inside the .vvd's vertices.
core::Status checkVertices(const SourceMdl& mdl, const Vvd& vvd, std::string_view mdl_name,
                           std::string_view vvd_name) {
    for (size_t p = 0; p < mdl.body_parts.size(); ++p)
        for (size_t m = 0; m < mdl.body_parts[p].models.size(); ++m) {
            const SourceMdlModel& model = mdl.body_parts[p].models[m];
            for (size_t k = 0; k < model.meshes.size(); ++k) {
                const SourceMdlMesh& mesh = model.meshes[k];
                const uint64_t end =
                    uint64_t(model.first_vertex) + mesh.vertex_offset + mesh.vertex_count;
                if (end > vvd.vertices.size())
                    return inFile(core::makeError(core::ErrorCode::IndexOutOfRange, "mdl.meshes",
                                                  int64_t(k), "vertexoffset",
                                                  "vertices up to " + std::to_string(end) +
                                                      " in body part " + std::to_string(p) +
                                                      " model " + std::to_string(m) + ", " +
                                                      std::string(vvd_name) + " holds " +
                                                      std::to_string(vvd.vertices.size())),
                                  mdl_name);
            }
        }
    return core::okStatus();
}

std::optional<std::string> readText(const FileSystem& fs, std::string_view path) {
    auto bytes = fs.read(path);
    if (!bytes)
        return std::nullopt;
    return std::string(bytes->begin(), bytes->end());
}

} // namespace

core::Result<SourceModel> assembleSourceModel(SourceMdl mdl, Vvd vvd, Vtx vtx,
                                              std::string_view mdl_name, std::string_view vvd_name,
                                              std::string_view vtx_name) {
    if (vvd.checksum != mdl.checksum)
        return mismatch(vvd_name, "vvd.header", -1, "checksum",
                        std::to_string(vvd.checksum) + " differs from " + std::string(mdl_name) +
                            "'s " + std::to_string(mdl.checksum));
    if (vtx.checksum != mdl.checksum)
        return mismatch(vtx_name, "vtx.header", -1, "checkSum",
                        std::to_string(vtx.checksum) + " differs from " + std::string(mdl_name) +
                            "'s " + std::to_string(mdl.checksum));
    if (auto s = checkVertices(mdl, vvd, mdl_name, vvd_name); !s)
        return s.error();
    if (auto s = checkShape(mdl, vtx, mdl_name, vtx_name); !s)
        return s.error();
    SourceModel model;
    model.mdl = std::move(mdl);
    model.vvd = std::move(vvd);
    model.vtx = std::move(vtx);
    return model;
}

std::vector<std::string> sourceMaterialCandidates(const SourceMdl& mdl, size_t texture) {
    std::vector<std::string> out;
    if (texture >= mdl.textures.size())
        return out;
    for (const std::string& dir : mdl.texture_dirs) {
        std::string path = normalizeName("materials/" + dir + mdl.textures[texture] + ".vmt");
        if (std::find(out.begin(), out.end(), path) == out.end())
            out.push_back(std::move(path));
    }
    if (mdl.texture_dirs.empty())
        out.push_back(normalizeName("materials/" + mdl.textures[texture] + ".vmt"));
    return out;
}

void resolveSourceMaterials(const FileSystem& fs, SourceModel& model) {
    model.materials.assign(model.mdl.textures.size(), {});
    const VmtReader reader = [&fs](std::string_view p) { return readText(fs, p); };
    for (size_t i = 0; i < model.mdl.textures.size(); ++i) {
        SourceModelMaterial& m = model.materials[i];
        m.name = model.mdl.textures[i];
        m.tried = sourceMaterialCandidates(model.mdl, i);
        for (const std::string& candidate : m.tried)
            if (fs.exists(candidate)) {
                m.path = candidate;
                break;
            }
        if (m.path.empty()) {
            m.error = "not found";
            continue;
        }
        auto vmt = resolveVmt(m.path, reader);
        if (vmt)
            m.vmt = std::move(*vmt);
        else
            m.error = vmt.error().message();
    }
}

core::Result<SourceModel> loadSourceModel(const FileSystem& fs, std::string_view path) {
    auto mdl_bytes = fs.readChecked(path);
    if (!mdl_bytes)
        return mdl_bytes.error();
    return loadSourceModel(fs, path, *mdl_bytes);
}

core::Result<SourceModel> loadSourceModel(const FileSystem& fs, std::string_view path,
                                          std::span<const uint8_t> mdl_bytes) {
    const std::string base = stem(path);
    const std::string mdl_path(path);
    auto mdl = parseSourceMdl(mdl_bytes);
    if (!mdl)
        return inFile(mdl.error(), mdl_path);
    const std::string vvd_path = base + ".vvd";
    auto vvd_bytes = fs.readChecked(vvd_path);
    if (!vvd_bytes)
        return vvd_bytes.error();
    auto vvd = parseVvd(*vvd_bytes);
    if (!vvd)
        return inFile(vvd.error(), vvd_path);
    std::string vtx_path;
    for (const char* ext : {".dx90.vtx", ".dx80.vtx", ".sw.vtx"})
        if (fs.exists(base + ext)) {
            vtx_path = base + ext;
            break;
        }
    if (vtx_path.empty())
        return inFile(core::makeError(core::ErrorCode::NotFound, "vtx", -1, {},
                                      "none of .dx90.vtx, .dx80.vtx, .sw.vtx beside the model"),
                      base + ".dx90.vtx");
    auto vtx_bytes = fs.readChecked(vtx_path);
    if (!vtx_bytes)
        return vtx_bytes.error();
    auto vtx = parseVtx(*vtx_bytes);
    if (!vtx)
        return inFile(vtx.error(), vtx_path);
    auto model = assembleSourceModel(std::move(*mdl), std::move(*vvd), std::move(*vtx), mdl_path,
                                     vvd_path, vtx_path);
    if (!model)
        return model.error();
    model->path = mdl_path;
    model->vvd_path = vvd_path;
    model->vtx_path = vtx_path;
    resolveSourceMaterials(fs, *model);
    return model;
}

uint32_t sourceLodCount(const SourceModel& model) {
    uint32_t lods = 0;
    for (const VtxBodyPart& part : model.vtx.body_parts)
        for (const VtxModel& m : part.models)
            lods = std::max(lods, uint32_t(m.lods.size()));
    return lods;
}

std::vector<float> sourceLodSwitchPoints(const SourceModel& model) {
    std::vector<float> out;
    if (model.vtx.body_parts.empty() || model.vtx.body_parts[0].models.empty())
        return out;
    for (const VtxLod& l : model.vtx.body_parts[0].models[0].lods)
        out.push_back(l.switch_point);
    return out;
}

ModelMesh buildSourceModelMesh(const SourceModel& model, int32_t body, uint32_t lod) {
    ModelMesh mesh;
    const SourceMdl& mdl = model.mdl;
    const std::vector<uint32_t> chosen = sourceBodyModels(mdl, body);
    std::unordered_map<uint32_t, uint32_t> drawn; // .vvd vertex -> mesh vertex
    std::vector<uint32_t> sources;
    // The triangles of LOD `level` as ranges of `indices`, one per .mdl mesh.
    auto addLod = [&](uint32_t level, std::vector<uint32_t>& indices,
                      std::vector<ModelDrawRange>& ranges) {
        for (size_t p = 0; p < mdl.body_parts.size() && p < model.vtx.body_parts.size(); ++p) {
            if (mdl.body_parts[p].models.empty())
                continue;
            if (chosen[p] >= model.vtx.body_parts[p].models.size())
                continue; // assembleSourceModel makes them match; a hand-made one may not
            const SourceMdlModel& m = mdl.body_parts[p].models[chosen[p]];
            const VtxModel& xm = model.vtx.body_parts[p].models[chosen[p]];
            if (xm.lods.empty())
                continue;
            const VtxLod& xl = xm.lods[std::min<size_t>(level, xm.lods.size() - 1)];
            for (size_t k = 0; k < m.meshes.size() && k < xl.meshes.size(); ++k) {
                const uint32_t first = m.first_vertex + m.meshes[k].vertex_offset;
                ModelDrawRange range;
                range.first_index = uint32_t(indices.size());
                range.material = uint32_t(std::max(m.meshes[k].material, 0));
                for (uint16_t v : xl.meshes[k].triangles) {
                    auto [it, added] = drawn.try_emplace(first + v, uint32_t(sources.size()));
                    if (added)
                        sources.push_back(first + v);
                    indices.push_back(it->second);
                }
                range.index_count = uint32_t(indices.size()) - range.first_index;
                ranges.push_back(range);
            }
        }
    };
    addLod(lod, mesh.indices, mesh.ranges);
    mesh.vertex_count = uint32_t(sources.size());
    mesh.pose_count = 1;
    mesh.mins = {INFINITY, INFINITY, INFINITY};
    mesh.maxs = {-INFINITY, -INFINITY, -INFINITY};
    for (uint32_t v : sources) {
        const SourceVertex& s = model.vvd.vertices[v];
        mesh.uv.push_back(s.uv);
        mesh.positions.push_back(s.position);
        mesh.normals.push_back(s.normal);
        for (size_t a = 0; a < 3; ++a) {
            mesh.mins[a] = std::min(mesh.mins[a], s.position[a]);
            mesh.maxs[a] = std::max(mesh.maxs[a], s.position[a]);
        }
    }
    // LOD 0's mesh carries the coarser LODs, their new vertices after LOD 0's.
    const uint32_t lod_count = sourceLodCount(model);
    if (lod == 0 && lod_count > 1) {
        mesh.lod_switch_points = sourceLodSwitchPoints(model);
        mesh.lod_shadow = sourceHasShadowLod(mdl);
        for (uint32_t level = 1; level < lod_count; ++level) {
            ModelMesh::Lod l;
            std::vector<ModelDrawRange> ranges;
            addLod(level, l.indices, ranges);
            for (const ModelDrawRange& r : ranges)
                l.spans.push_back({r.first_index, r.index_count});
            mesh.lods.push_back(std::move(l));
        }
        for (size_t i = mesh.vertex_count; i < sources.size(); ++i) {
            const SourceVertex& v = model.vvd.vertices[sources[i]];
            mesh.lod_positions.push_back(v.position);
            mesh.lod_normals.push_back(v.normal);
            mesh.lod_uv.push_back(v.uv);
        }
    }
    mesh.frames.push_back({"bind pose", {}});
    mesh.illum_position = mdl.illum_position;
    mesh.materials.assign(mdl.textures.size(), std::string());
    for (size_t i = 0; i < model.materials.size() && i < mesh.materials.size(); ++i)
        mesh.materials[i] = model.materials[i].path;
    for (const std::vector<uint16_t>& family : mdl.skin_families)
        mesh.skin_materials.emplace_back(family.begin(), family.end());
    return mesh;
}

} // namespace content
