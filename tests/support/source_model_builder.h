// Hand-made Source studio models (.mdl v44-49, .vvd v4, .vtx v7) for the decoder tests, written
// from the Source SDK 2013 headers (public/studio.h studiohdr_t, mstudiobone_t (216 bytes),
// mstudioseqdesc_t (212), mstudiotexture_t (64), mstudiobodyparts_t (16), mstudiomodel_t (148),
// mstudiomesh_t (116); vertexFileHeader_t (64), vertexFileFixup_t (12), mstudiovertex_t (48);
// public/optimize.h, pack(1): FileHeader_t (36), BodyPartHeader_t, ModelHeader_t (8),
// ModelLODHeader_t (12), MeshHeader_t (9), StripGroupHeader_t (25), Vertex_t (9),
// StripHeader_t (27)), not from bspview's readers.
//
// Vertices get values a test can compute: the vertex with global index g (its model's first
// vertex + its mesh's offset + i) sits at (g, part * 100 + model * 10 + mesh, i), its normal is
// (0, 0, 1), its texture coordinate (i / 8, g / 16), its tangent (1, 0, 0, -1).
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>
#include <map>
#include <string>
#include <vector>

namespace srcmdltest {

struct MeshSpec {
    int32_t material = 0;
    uint32_t vertex_count = 3;
    // Per LOD: corners as mesh vertex ids, 3 per triangle (or, with tristrip, a strip order).
    std::vector<std::vector<uint16_t>> lods = {{0, 1, 2}};
    bool tristrip = false;
    // Two strip groups: the first triangle in one, the rest in the other (a triangle list).
    bool two_groups = false;
};

struct ModelSpec {
    std::string name = "model";
    std::vector<MeshSpec> meshes = {MeshSpec{}};
};

struct PartSpec {
    std::string name = "body";
    int32_t base = 1;
    std::vector<ModelSpec> models = {ModelSpec{}};
};

struct Spec {
    int32_t version = 48;
    int32_t checksum = 1234;
    int32_t vvd_checksum = 1234;
    int32_t vtx_checksum = 1234;
    std::vector<std::string> bones = {"root"};
    std::vector<std::string> textures = {"tex"};
    std::vector<std::string> cd_dirs = {"models\\test\\"};
    std::vector<std::vector<int16_t>> skins = {{0}};
    std::vector<PartSpec> parts = {PartSpec{}};
    uint32_t lods = 1;
    bool fixups = false;   // store the .vvd's vertices halves swapped, with fixups to undo it
    bool topology = false; // the post-2013 .vtx layout (33-byte strip groups, 35-byte strips)
};

struct Files {
    std::vector<uint8_t> mdl, vvd, vtx;
};

class Buffer {
public:
    std::vector<uint8_t> b;
    size_t reserve(size_t n) {
        const size_t at = b.size();
        b.resize(at + n, 0);
        return at;
    }
    template <class T> void put(size_t at, T v) { std::memcpy(b.data() + at, &v, sizeof(T)); }
    // Appends a NUL-terminated string and stores its offset from `record` at `field`.
    void string(size_t record, size_t field, const std::string& s) {
        const size_t at = reserve(s.size() + 1);
        std::memcpy(b.data() + at, s.data(), s.size());
        put<int32_t>(field, int32_t(at) - int32_t(record));
    }
};

// The total vertices of every mesh, in file order, and each mesh's first global vertex.
inline uint32_t totalVertices(const Spec& s) {
    uint32_t n = 0;
    for (const PartSpec& p : s.parts)
        for (const ModelSpec& m : p.models)
            for (const MeshSpec& k : m.meshes)
                n += k.vertex_count;
    return n;
}

inline std::vector<uint8_t> buildMdl(const Spec& s) {
    Buffer w;
    w.reserve(408); // studiohdr_t
    std::memcpy(w.b.data(), "IDST", 4);
    w.put<int32_t>(4, s.version);
    w.put<int32_t>(8, s.checksum);
    std::memcpy(w.b.data() + 12, "test/handmade.mdl", 17);
    const size_t bones = w.reserve(216 * s.bones.size());
    w.put<int32_t>(156, int32_t(s.bones.size()));
    w.put<int32_t>(160, int32_t(bones));
    const size_t seq = w.reserve(212);
    w.put<int32_t>(188, 1);
    w.put<int32_t>(192, int32_t(seq));
    const size_t tex = w.reserve(64 * s.textures.size());
    w.put<int32_t>(204, int32_t(s.textures.size()));
    w.put<int32_t>(208, int32_t(tex));
    const size_t cd = w.reserve(4 * s.cd_dirs.size());
    w.put<int32_t>(212, int32_t(s.cd_dirs.size()));
    w.put<int32_t>(216, int32_t(cd));
    const size_t refs = s.skins.empty() ? 0 : s.skins[0].size();
    const size_t skins = w.reserve(2 * refs * s.skins.size());
    w.put<int32_t>(220, int32_t(refs));
    w.put<int32_t>(224, int32_t(s.skins.size()));
    w.put<int32_t>(228, int32_t(skins));
    for (size_t f = 0; f < s.skins.size(); ++f)
        for (size_t k = 0; k < refs; ++k)
            w.put<int16_t>(skins + (f * refs + k) * 2, s.skins[f][k]);
    const size_t parts = w.reserve(16 * s.parts.size());
    w.put<int32_t>(232, int32_t(s.parts.size()));
    w.put<int32_t>(236, int32_t(parts));
    uint32_t vertex = 0;
    struct Pending {
        size_t record, field;
        std::string text;
    };
    std::vector<Pending> strings;
    for (size_t p = 0; p < s.parts.size(); ++p) {
        const size_t pa = parts + p * 16;
        strings.push_back({pa, pa, s.parts[p].name});
        w.put<int32_t>(pa + 4, int32_t(s.parts[p].models.size()));
        w.put<int32_t>(pa + 8, s.parts[p].base);
        const size_t models = w.reserve(148 * s.parts[p].models.size());
        w.put<int32_t>(pa + 12, int32_t(models - pa));
        for (size_t m = 0; m < s.parts[p].models.size(); ++m) {
            const ModelSpec& ms = s.parts[p].models[m];
            const size_t ma = models + m * 148;
            std::memcpy(w.b.data() + ma, ms.name.data(), std::min<size_t>(ms.name.size(), 63));
            const size_t meshes = w.reserve(116 * ms.meshes.size());
            w.put<int32_t>(ma + 72, int32_t(ms.meshes.size()));
            w.put<int32_t>(ma + 76, int32_t(meshes - ma));
            uint32_t in_model = 0;
            for (size_t k = 0; k < ms.meshes.size(); ++k) {
                const size_t ka = meshes + k * 116;
                w.put<int32_t>(ka, ms.meshes[k].material);
                w.put<int32_t>(ka + 4, int32_t(ma) - int32_t(ka));
                w.put<int32_t>(ka + 8, int32_t(ms.meshes[k].vertex_count));
                w.put<int32_t>(ka + 12, int32_t(in_model));
                w.put<int32_t>(ka + 32, int32_t(k)); // meshid
                for (size_t l = 0; l < 8; ++l)
                    w.put<int32_t>(ka + 52 + l * 4, int32_t(ms.meshes[k].vertex_count));
                in_model += ms.meshes[k].vertex_count;
            }
            w.put<int32_t>(ma + 80, int32_t(in_model));
            w.put<int32_t>(ma + 84, int32_t(vertex * 48));
            w.put<int32_t>(ma + 88, int32_t(vertex * 16));
            vertex += in_model;
        }
    }
    for (size_t i = 0; i < s.bones.size(); ++i) {
        const size_t ba = bones + i * 216;
        strings.push_back({ba, ba, s.bones[i]});
        w.put<int32_t>(ba + 4, int32_t(i) - 1); // a chain: each bone's parent the one before
        for (size_t k = 0; k < 6; ++k)
            w.put<int32_t>(ba + 8 + k * 4, -1);
        w.put<float>(ba + 32, float(i)); // pos
        w.put<float>(ba + 56, 1.0f);     // quat w
    }
    strings.push_back({seq, seq + 4, "idle"});
    for (size_t i = 0; i < s.textures.size(); ++i)
        strings.push_back({tex + i * 64, tex + i * 64, s.textures[i]});
    for (size_t i = 0; i < s.cd_dirs.size(); ++i)
        strings.push_back({0, cd + i * 4, s.cd_dirs[i]});
    for (const Pending& p : strings)
        w.string(p.record, p.field, p.text);
    w.put<int32_t>(76, int32_t(w.b.size())); // length
    return w.b;
}

inline std::vector<uint8_t> buildVvd(const Spec& s) {
    Buffer w;
    w.reserve(64);
    std::memcpy(w.b.data(), "IDSV", 4);
    w.put<int32_t>(4, 4);
    w.put<int32_t>(8, s.vvd_checksum);
    w.put<int32_t>(12, int32_t(s.lods));
    const uint32_t n = totalVertices(s);
    for (size_t l = 0; l < 8; ++l)
        w.put<int32_t>(16 + l * 4, int32_t(n));
    // Mesh-order vertices, each with the values the header comment promises.
    std::vector<std::array<float, 8>> verts;
    for (size_t p = 0; p < s.parts.size(); ++p)
        for (size_t m = 0; m < s.parts[p].models.size(); ++m)
            for (size_t k = 0; k < s.parts[p].models[m].meshes.size(); ++k)
                for (uint32_t i = 0; i < s.parts[p].models[m].meshes[k].vertex_count; ++i) {
                    const float g = float(verts.size());
                    verts.push_back({g, float(p * 100 + m * 10 + k), float(i), 0, 0, 1,
                                     float(i) / 8.0f, g / 16.0f});
                }
    // Stored order: with fixups, the second half first (fixups bring it back).
    const uint32_t half = n / 2;
    std::vector<uint32_t> order;
    if (s.fixups) {
        for (uint32_t i = half; i < n; ++i)
            order.push_back(i);
        for (uint32_t i = 0; i < half; ++i)
            order.push_back(i);
        w.put<int32_t>(48, 2);
        const size_t fix = w.reserve(24);
        w.put<int32_t>(52, int32_t(fix));
        // Run 1: mesh vertices 0..half, stored at n - half. Run 2: the rest, stored at 0.
        w.put<int32_t>(fix, 1);
        w.put<int32_t>(fix + 4, int32_t(n - half));
        w.put<int32_t>(fix + 8, int32_t(half));
        w.put<int32_t>(fix + 12, 0);
        w.put<int32_t>(fix + 16, 0);
        w.put<int32_t>(fix + 20, int32_t(n - half));
    } else {
        for (uint32_t i = 0; i < n; ++i)
            order.push_back(i);
    }
    const size_t vstart = w.reserve(48 * size_t(n));
    w.put<int32_t>(56, int32_t(vstart));
    for (size_t j = 0; j < order.size(); ++j) {
        const auto& v = verts[order[j]];
        const size_t at = vstart + j * 48;
        w.put<float>(at, 1.0f);     // weight[0]
        w.put<uint8_t>(at + 15, 1); // numbones
        for (size_t c = 0; c < 8; ++c)
            w.put<float>(at + 16 + c * 4, v[c]);
    }
    const size_t tstart = w.reserve(16 * size_t(n));
    w.put<int32_t>(60, int32_t(tstart));
    for (size_t j = 0; j < n; ++j) {
        w.put<float>(tstart + j * 16, 1.0f);
        w.put<float>(tstart + j * 16 + 12, -1.0f);
    }
    return w.b;
}

// One strip group (two with two_groups) and one strip per group for each mesh and LOD; a
// group's vertices are the mesh vertices its corners use, in first-use order, so group indices
// differ from mesh vertex ids.
inline void buildVtxGroup(Buffer& w, const Spec& s, size_t group,
                          const std::vector<uint16_t>& corners, bool tristrip) {
    const size_t strip_bytes = s.topology ? 35 : 27;
    std::vector<uint16_t> ids, indices;
    std::map<uint16_t, uint16_t> seen;
    for (uint16_t c : corners) {
        auto [it, added] = seen.try_emplace(c, uint16_t(ids.size()));
        if (added)
            ids.push_back(c);
        indices.push_back(it->second);
    }
    const size_t verts = w.reserve(9 * ids.size());
    for (size_t v = 0; v < ids.size(); ++v) {
        w.put<uint8_t>(verts + v * 9 + 3, 1);
        w.put<uint16_t>(verts + v * 9 + 4, ids[v]);
    }
    const size_t idx = w.reserve(2 * indices.size());
    for (size_t i = 0; i < indices.size(); ++i)
        w.put<uint16_t>(idx + i * 2, indices[i]);
    const size_t strip = w.reserve(strip_bytes);
    w.put<int32_t>(group, int32_t(ids.size()));
    w.put<int32_t>(group + 4, int32_t(verts - group));
    w.put<int32_t>(group + 8, int32_t(indices.size()));
    w.put<int32_t>(group + 12, int32_t(idx - group));
    w.put<int32_t>(group + 16, 1);
    w.put<int32_t>(group + 20, int32_t(strip - group));
    w.put<uint8_t>(group + 24, 2); // STRIPGROUP_IS_HWSKINNED
    w.put<int32_t>(strip, int32_t(indices.size()));
    w.put<int32_t>(strip + 8, int32_t(ids.size()));
    w.put<int16_t>(strip + 16, 1);
    w.put<uint8_t>(strip + 18, tristrip ? 2 : 1);
}

inline void buildVtxMesh(Buffer& w, const Spec& s, size_t mesh_at, const MeshSpec& mesh,
                         size_t lod) {
    const size_t group_bytes = s.topology ? 33 : 25;
    const std::vector<uint16_t>& corners = mesh.lods[std::min(lod, mesh.lods.size() - 1)];
    std::vector<std::vector<uint16_t>> groups = {corners};
    if (mesh.two_groups && corners.size() > 3)
        groups = {std::vector<uint16_t>(corners.begin(), corners.begin() + 3),
                  std::vector<uint16_t>(corners.begin() + 3, corners.end())};
    const size_t first = w.reserve(group_bytes * groups.size());
    w.put<int32_t>(mesh_at, int32_t(groups.size()));
    w.put<int32_t>(mesh_at + 4, int32_t(first - mesh_at));
    for (size_t g = 0; g < groups.size(); ++g)
        buildVtxGroup(w, s, first + g * group_bytes, groups[g], mesh.tristrip);
}

inline std::vector<uint8_t> buildVtx(const Spec& s) {
    Buffer w;
    w.reserve(36);
    w.put<int32_t>(0, 7);
    w.put<int32_t>(4, 24);
    w.put<uint16_t>(8, 53);
    w.put<uint16_t>(10, 9);
    w.put<int32_t>(12, 3);
    w.put<int32_t>(16, s.vtx_checksum);
    w.put<int32_t>(20, int32_t(s.lods));
    const size_t parts = w.reserve(8 * s.parts.size());
    w.put<int32_t>(28, int32_t(s.parts.size()));
    w.put<int32_t>(32, int32_t(parts));
    for (size_t p = 0; p < s.parts.size(); ++p) {
        const size_t pa = parts + p * 8;
        const size_t models = w.reserve(8 * s.parts[p].models.size());
        w.put<int32_t>(pa, int32_t(s.parts[p].models.size()));
        w.put<int32_t>(pa + 4, int32_t(models - pa));
        for (size_t m = 0; m < s.parts[p].models.size(); ++m) {
            const ModelSpec& ms = s.parts[p].models[m];
            const size_t ma = models + m * 8;
            const size_t lods = w.reserve(12 * s.lods);
            w.put<int32_t>(ma, int32_t(s.lods));
            w.put<int32_t>(ma + 4, int32_t(lods - ma));
            for (size_t l = 0; l < s.lods; ++l) {
                const size_t la = lods + l * 12;
                const size_t meshes = w.reserve(9 * ms.meshes.size());
                w.put<int32_t>(la, int32_t(ms.meshes.size()));
                w.put<int32_t>(la + 4, int32_t(meshes - la));
                w.put<float>(la + 8, float(l) * 10.0f);
                for (size_t k = 0; k < ms.meshes.size(); ++k)
                    buildVtxMesh(w, s, meshes + k * 9, ms.meshes[k], l);
            }
        }
    }
    return w.b;
}

inline Files build(const Spec& s) {
    return {buildMdl(s), buildVvd(s), buildVtx(s)};
}

} // namespace srcmdltest
