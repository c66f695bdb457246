// Builds small Quake 3 (IBSP 46, and FBSP 1) files in memory for parser tests.
//
// The default map (Q3Builder::tiny()) is a consistent little world: 3 textures, 2 planes, one
// node over 2 leaves, 5 faces (polygon, triangle soup, 3x3 patch, flare, and a door polygon
// owned by model 1), 1 fog, 2 lightmap pages and a 2-cluster vis lump. Tests change one field
// and check the parser's answer.
//
// The lump list, header size and version come from the map writer (tools/mapgen/q3_writer.h).
// The records are encoded here rather than through mapgen::writeQ3Bsp because tests need what
// the writer does not write: FBSP records, raw lightmap / light grid / vis bytes of any size,
// and bytes after a lump's records (`extra`).
#pragma once

#include "mapgen/q3_writer.h"

#include <array>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

namespace q3test {

// Directory slots, named after the records this builder writes; the order itself is the map
// writer's (mapgen::Q3Lump, ioquake3 qfiles.h), the one lump list of the tests and tools.
enum Lump : int {
    kEntities = static_cast<int>(mapgen::Q3Lump::Entities),
    kTextures = static_cast<int>(mapgen::Q3Lump::Shaders),
    kPlanes = static_cast<int>(mapgen::Q3Lump::Planes),
    kNodes = static_cast<int>(mapgen::Q3Lump::Nodes),
    kLeafs = static_cast<int>(mapgen::Q3Lump::Leafs),
    kLeafFaces = static_cast<int>(mapgen::Q3Lump::LeafSurfaces),
    kLeafBrushes = static_cast<int>(mapgen::Q3Lump::LeafBrushes),
    kModels = static_cast<int>(mapgen::Q3Lump::Models),
    kBrushes = static_cast<int>(mapgen::Q3Lump::Brushes),
    kBrushSides = static_cast<int>(mapgen::Q3Lump::BrushSides),
    kVertexes = static_cast<int>(mapgen::Q3Lump::DrawVerts),
    kMeshVerts = static_cast<int>(mapgen::Q3Lump::DrawIndexes),
    kEffects = static_cast<int>(mapgen::Q3Lump::Fogs),
    kFaces = static_cast<int>(mapgen::Q3Lump::Surfaces),
    kLightmaps = static_cast<int>(mapgen::Q3Lump::Lightmaps),
    kLightVols = static_cast<int>(mapgen::Q3Lump::LightGrid),
    kVisData = static_cast<int>(mapgen::Q3Lump::Visibility),
    kNumLumps = mapgen::kQ3LumpCount
};

struct FaceRec {
    std::array<uint8_t, 4> styles = {0, 255, 255, 255}; // FBSP only
    int32_t texture = 0, effect = -1, type = 1;
    int32_t first_vertex = 0, num_vertices = 0, first_meshvert = 0, num_meshverts = 0;
    int32_t lightmap = -1, lm_x = 0, lm_y = 0, lm_w = 0, lm_h = 0;
    float origin[3] = {0, 0, 0};
    float vecs[3][3] = {{0, 0, 0}, {0, 0, 0}, {0, 0, 1}};
    int32_t patch_w = 0, patch_h = 0;
};

struct VertexRec {
    float pos[3] = {0, 0, 0};
    float st[2] = {0, 0};
    float lm[2] = {0, 0};
    float normal[3] = {0, 0, 1};
    uint8_t colour[4] = {255, 255, 255, 255};
};

class Bytes {
public:
    std::vector<uint8_t> data;
    template <class T> Bytes& put(T v) {
        uint8_t b[sizeof(T)];
        std::memcpy(b, &v, sizeof(T));
        data.insert(data.end(), b, b + sizeof(T));
        return *this;
    }
    Bytes& i32(int32_t v) { return put(v); }
    Bytes& f32(float v) { return put(v); }
    Bytes& str(const std::string& s, size_t field) {
        for (size_t i = 0; i < field; ++i)
            data.push_back(i < s.size() ? static_cast<uint8_t>(s[i]) : 0);
        return *this;
    }
};

struct Q3Builder {
    std::string magic = "IBSP";
    int32_t version = mapgen::kQ3Version;
    // FBSP 1 (Qfusion) records: 80-byte vertices, 148-byte faces, 12-byte brush sides,
    // 30-byte light-grid cells. Use fbsp() to switch a built map over.
    bool fbsp_records = false;

    void fbsp() {
        magic = "FBSP";
        version = 1;
        fbsp_records = true;
        light_vols.assign(30, 0x40);
    }

    std::string entities;
    struct Texture {
        std::string name;
        int32_t flags = 0, contents = 0;
    };
    std::vector<Texture> textures;
    std::vector<std::array<float, 4>> planes;
    struct NodeRec {
        int32_t plane = 0;
        int32_t children[2] = {-1, -2};
        int32_t mins[3] = {-64, -64, -64}, maxs[3] = {64, 64, 64};
    };
    std::vector<NodeRec> nodes;
    struct LeafRec {
        int32_t cluster = 0, area = 0;
        int32_t mins[3] = {-64, -64, -64}, maxs[3] = {64, 64, 64};
        int32_t first_face = 0, num_faces = 0, first_brush = 0, num_brushes = 0;
    };
    std::vector<LeafRec> leafs;
    std::vector<int32_t> leaf_faces, leaf_brushes;
    struct ModelRec {
        float mins[3] = {-64, -64, -64}, maxs[3] = {64, 64, 64};
        int32_t first_face = 0, num_faces = 0, first_brush = 0, num_brushes = 0;
    };
    std::vector<ModelRec> models;
    struct BrushRec {
        int32_t first_side = 0, num_sides = 0, texture = 0;
    };
    std::vector<BrushRec> brushes;
    std::vector<std::array<int32_t, 2>> brush_sides;
    std::vector<VertexRec> vertices;
    std::vector<int32_t> meshverts;
    struct FogRec {
        std::string shader;
        int32_t brush = 0, visible_side = -1;
    };
    std::vector<FogRec> fogs;
    std::vector<FaceRec> faces;
    std::vector<uint8_t> lightmaps;
    std::vector<uint8_t> light_vols;
    std::vector<uint8_t> vis;
    // Bytes appended to a lump after its records (to break record-size multiples).
    std::array<std::vector<uint8_t>, kNumLumps> extra;

    static VertexRec vertex(float x, float y, float z, float s = 0, float t = 0) {
        VertexRec v;
        v.pos[0] = x;
        v.pos[1] = y;
        v.pos[2] = z;
        v.st[0] = s;
        v.st[1] = t;
        v.lm[0] = s * 0.5f;
        v.lm[1] = t * 0.5f;
        return v;
    }

    static Q3Builder tiny() {
        Q3Builder b;
        b.entities = "{\n\"classname\" \"worldspawn\"\n}\n"
                     "{\n\"classname\" \"func_door\"\n\"model\" \"*1\"\n\"origin\" \"0 0 8\"\n}\n";
        b.textures = {{"textures/base/wall", 0, 1},
                      {"textures/skies/sky", 0x4 | 0x400, 0},
                      {"textures/fog/mist", 0x80, 0x40}};
        b.planes = {{{1, 0, 0, 0}}, {{0, 0, 1, 0}}};
        b.nodes.resize(1);
        b.leafs.resize(2);
        b.leafs[0].cluster = 0;
        b.leafs[0].first_face = 0;
        b.leafs[0].num_faces = 2;
        b.leafs[0].num_brushes = 1;
        b.leafs[1].cluster = 1;
        b.leafs[1].first_face = 2;
        b.leafs[1].num_faces = 2;
        b.leaf_faces = {0, 1, 2, 3};
        b.leaf_brushes = {0};
        b.models.resize(2);
        b.models[0].first_face = 0;
        b.models[0].num_faces = 4;
        b.models[0].num_brushes = 1;
        b.models[1].first_face = 4;
        b.models[1].num_faces = 1;
        b.brushes = {{0, 1, 0}};
        b.brush_sides = {{{0, 0}}};
        b.fogs = {{"textures/fog/mist", 0, 0}};

        // Face 0: quad, vertices 0..3.
        for (auto [x, y] : {std::pair{0.f, 0.f}, {64.f, 0.f}, {64.f, 64.f}, {0.f, 64.f}})
            b.vertices.push_back(vertex(x, y, 0, x / 64, y / 64));
        b.meshverts.insert(b.meshverts.end(), {0, 2, 1, 0, 3, 2});
        FaceRec quad;
        quad.type = 1;
        quad.first_vertex = 0;
        quad.num_vertices = 4;
        quad.first_meshvert = 0;
        quad.num_meshverts = 6;
        quad.lightmap = 0;
        quad.lm_x = 2;
        quad.lm_y = 3;
        quad.lm_w = 8;
        quad.lm_h = 9;
        b.faces.push_back(quad);

        // Face 1: triangle soup, vertices 4..6, in the fog.
        for (int i = 0; i < 3; ++i)
            b.vertices.push_back(vertex(float(i) * 8, 100, float(i % 2) * 8));
        b.meshverts.insert(b.meshverts.end(), {0, 1, 2});
        FaceRec soup;
        soup.type = 3;
        soup.first_vertex = 4;
        soup.num_vertices = 3;
        soup.first_meshvert = 6;
        soup.num_meshverts = 3;
        soup.lightmap = 1;
        soup.effect = 0;
        b.faces.push_back(soup);

        // Face 2: 3x3 patch, vertices 7..15, vertex lit (-3).
        for (int r = 0; r < 3; ++r)
            for (int c = 0; c < 3; ++c)
                b.vertices.push_back(vertex(float(c) * 32, 200 + float(r) * 32,
                                            (r == 1 && c == 1) ? 32.f : 0.f, float(c), float(r)));
        FaceRec patch;
        patch.type = 2;
        patch.first_vertex = 7;
        patch.num_vertices = 9;
        patch.lightmap = -3;
        patch.patch_w = 3;
        patch.patch_h = 3;
        b.faces.push_back(patch);

        // Face 3: flare with no vertices (position and colour in origin and vecs[0]).
        FaceRec flare;
        flare.type = 4;
        flare.texture = 1;
        flare.lightmap = 0;
        flare.origin[0] = 10;
        flare.origin[1] = 20;
        flare.origin[2] = 30;
        flare.vecs[0][0] = 1.0f;
        flare.vecs[0][1] = 0.5f;
        flare.vecs[0][2] = 0.0f;
        b.faces.push_back(flare);

        // Face 4: the door's quad, vertices 16..19.
        for (auto [x, y] : {std::pair{0.f, 0.f}, {16.f, 0.f}, {16.f, 16.f}, {0.f, 16.f}})
            b.vertices.push_back(vertex(x, y, 4));
        b.meshverts.insert(b.meshverts.end(), {0, 2, 1, 0, 3, 2});
        FaceRec door = quad;
        door.first_vertex = 16;
        door.first_meshvert = 9;
        b.faces.push_back(door);

        b.lightmaps.resize(2 * mapgen::kQ3LightmapBytes);
        for (size_t i = 0; i < b.lightmaps.size(); ++i)
            b.lightmaps[i] = static_cast<uint8_t>(i * 7 + i / mapgen::kQ3LightmapBytes);
        // The light grid of the world's bounds at the default gridsize 64 64 128: 3 x 3 x 1.
        b.light_vols.assign(9 * 8, 0x40);
        b.setVis(2, 1, {0x3, 0x2});
        return b;
    }

    void setVis(int32_t n_vecs, int32_t sz_vecs, const std::vector<uint8_t>& rows) {
        Bytes v;
        v.i32(n_vecs).i32(sz_vecs);
        v.data.insert(v.data.end(), rows.begin(), rows.end());
        vis = v.data;
    }

    std::array<std::vector<uint8_t>, kNumLumps> lumpBytes() const {
        std::array<Bytes, kNumLumps> l;
        l[kEntities].data.assign(entities.begin(), entities.end());
        l[kEntities].data.push_back(0);
        for (const auto& t : textures)
            l[kTextures].str(t.name, 64).i32(t.flags).i32(t.contents);
        for (const auto& p : planes)
            l[kPlanes].f32(p[0]).f32(p[1]).f32(p[2]).f32(p[3]);
        for (const auto& n : nodes) {
            l[kNodes].i32(n.plane).i32(n.children[0]).i32(n.children[1]);
            for (int32_t v : n.mins)
                l[kNodes].i32(v);
            for (int32_t v : n.maxs)
                l[kNodes].i32(v);
        }
        for (const auto& lf : leafs) {
            l[kLeafs].i32(lf.cluster).i32(lf.area);
            for (int32_t v : lf.mins)
                l[kLeafs].i32(v);
            for (int32_t v : lf.maxs)
                l[kLeafs].i32(v);
            l[kLeafs].i32(lf.first_face).i32(lf.num_faces).i32(lf.first_brush).i32(lf.num_brushes);
        }
        for (int32_t v : leaf_faces)
            l[kLeafFaces].i32(v);
        for (int32_t v : leaf_brushes)
            l[kLeafBrushes].i32(v);
        for (const auto& m : models) {
            for (float v : m.mins)
                l[kModels].f32(v);
            for (float v : m.maxs)
                l[kModels].f32(v);
            l[kModels].i32(m.first_face).i32(m.num_faces).i32(m.first_brush).i32(m.num_brushes);
        }
        for (const auto& br : brushes)
            l[kBrushes].i32(br.first_side).i32(br.num_sides).i32(br.texture);
        for (const auto& s : brush_sides) {
            l[kBrushSides].i32(s[0]).i32(s[1]);
            if (fbsp_records)
                l[kBrushSides].i32(-1); // surface number
        }
        for (const auto& v : vertices) {
            Bytes& o = l[kVertexes];
            o.f32(v.pos[0]).f32(v.pos[1]).f32(v.pos[2]).f32(v.st[0]).f32(v.st[1]);
            o.f32(v.lm[0]).f32(v.lm[1]);
            if (fbsp_records) // styles 1..3 coordinates, different from style 0 on purpose
                for (int k = 0; k < 6; ++k)
                    o.f32(-7.0f);
            o.f32(v.normal[0]).f32(v.normal[1]).f32(v.normal[2]);
            for (uint8_t c : v.colour)
                o.put(c);
            if (fbsp_records)
                for (int k = 0; k < 12; ++k)
                    o.put(uint8_t{9});
        }
        for (int32_t v : meshverts)
            l[kMeshVerts].i32(v);
        for (const auto& f : fogs)
            l[kEffects].str(f.shader, 64).i32(f.brush).i32(f.visible_side);
        for (const auto& f : faces) {
            Bytes& o = l[kFaces];
            o.i32(f.texture).i32(f.effect).i32(f.type).i32(f.first_vertex).i32(f.num_vertices);
            o.i32(f.first_meshvert).i32(f.num_meshverts);
            if (fbsp_records) {
                // styles[4], vertex styles[4], lightmap[4], x[4], y[4] (q3map2's order), w, h
                for (uint8_t st : f.styles)
                    o.put(st);
                for (uint8_t st : f.styles)
                    o.put(st);
                o.i32(f.lightmap).i32(-3).i32(-3).i32(-3);
                o.i32(f.lm_x).i32(0).i32(0).i32(0);
                o.i32(f.lm_y).i32(0).i32(0).i32(0);
                o.i32(f.lm_w).i32(f.lm_h);
            } else {
                o.i32(f.lightmap).i32(f.lm_x).i32(f.lm_y).i32(f.lm_w).i32(f.lm_h);
            }
            for (float v : f.origin)
                o.f32(v);
            for (const auto& vec : f.vecs)
                for (float v : vec)
                    o.f32(v);
            o.i32(f.patch_w).i32(f.patch_h);
        }
        l[kLightmaps].data = lightmaps;
        l[kLightVols].data = light_vols;
        l[kVisData].data = vis;
        std::array<std::vector<uint8_t>, kNumLumps> out;
        for (int i = 0; i < kNumLumps; ++i) {
            out[i] = std::move(l[i].data);
            out[i].insert(out[i].end(), extra[i].begin(), extra[i].end());
        }
        return out;
    }

    // Header, then the lumps in directory order, each 4-aligned.
    std::vector<uint8_t> build() const {
        const auto lumps = lumpBytes();
        Bytes file;
        file.str(magic, 4).i32(version);
        uint32_t offset = mapgen::kQ3HeaderSize;
        std::vector<uint8_t> body;
        for (const auto& l : lumps) {
            file.i32(static_cast<int32_t>(offset)).i32(static_cast<int32_t>(l.size()));
            body.insert(body.end(), l.begin(), l.end());
            while (body.size() % 4)
                body.push_back(0);
            offset = static_cast<uint32_t>(mapgen::kQ3HeaderSize + body.size());
        }
        file.data.insert(file.data.end(), body.begin(), body.end());
        return file.data;
    }
};

// Directory entry of a built file.
inline void setLump(std::vector<uint8_t>& file, int lump, int32_t offset, int32_t length) {
    std::memcpy(file.data() + 8 + 8 * lump, &offset, 4);
    std::memcpy(file.data() + 12 + 8 * lump, &length, 4);
}
inline int32_t lumpOffset(const std::vector<uint8_t>& file, int lump) {
    return static_cast<int32_t>(
        mapgen::q3LumpEntry(file, static_cast<mapgen::Q3Lump>(lump)).offset);
}
inline int32_t lumpLength(const std::vector<uint8_t>& file, int lump) {
    return static_cast<int32_t>(
        mapgen::q3LumpEntry(file, static_cast<mapgen::Q3Lump>(lump)).length);
}

} // namespace q3test
