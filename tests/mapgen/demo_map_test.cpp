// The demo map builder: the written file against the ground truth the builder reports, and
// the committed assets against their generator.
#include "mapgen/demo_map.h"

#include "mapgen/demo_textures.h"
#include "mapgen/q3_test_reader.h"

#include "bsp/entities.h"
#include "bsp/tree.h"
#include "core/file.h"

#include <gtest/gtest.h>

#include <glm/geometric.hpp>

#include <cmath>
#include <set>

namespace {

using namespace mapgen;

const DemoMap& demo() {
    static const DemoMap m = buildDemoMap();
    return m;
}

const std::vector<uint8_t>& demoBytes() {
    static const std::vector<uint8_t> b = writeQ3Bsp(demo().desc);
    return b;
}

// The demo map as read back from its bytes, so checks see the file, not the description.
const Q3MapDesc& demoFile() {
    static const Q3MapDesc d = [] {
        std::string error;
        std::optional<Q3MapDesc> r = mapgen_test::readQ3(demoBytes(), &error);
        EXPECT_TRUE(r.has_value()) << error;
        return r ? *r : Q3MapDesc{};
    }();
    return d;
}

// Just enough of a bsp::Map to walk the tree with bsp::pointLeaf.
bsp::Map treeOf(const Q3MapDesc& d) {
    bsp::Map m;
    for (const Q3Plane& p : d.planes)
        m.planes.push_back({p.normal, p.dist});
    for (const Q3Node& n : d.nodes) {
        bsp::Node b;
        b.plane = n.plane;
        b.children = {n.children[0], n.children[1]};
        m.nodes.push_back(b);
    }
    for (const Q3Leaf& l : d.leaves) {
        bsp::Leaf b;
        b.cluster = l.cluster;
        m.leaves.push_back(b);
    }
    return m;
}

int32_t clusterAt(const Q3MapDesc& d, const glm::vec3& p) {
    const bsp::Map m = treeOf(d);
    const int32_t leaf = bsp::pointLeaf(m, p);
    return leaf < 0 ? -2 : m.leaves[static_cast<size_t>(leaf)].cluster;
}

bool strictlyInside(const glm::vec3& p, const glm::vec3& mins, const glm::vec3& maxs) {
    for (int a = 0; a < 3; ++a)
        if (!(p[a] > mins[a] && p[a] < maxs[a]))
            return false;
    return true;
}

bool insideClosed(const glm::vec3& p, const glm::vec3& mins, const glm::vec3& maxs) {
    for (int a = 0; a < 3; ++a)
        if (p[a] < mins[a] || p[a] > maxs[a])
            return false;
    return true;
}

bool visBit(const Q3Vis& v, int32_t from, int32_t to) {
    return (v.bits[static_cast<size_t>(from * v.row_size + to / 8)] >> (to % 8)) & 1;
}

TEST(DemoMap, DescriptionIsValid) {
    const DemoMap& m = demo();
    EXPECT_EQ(validateQ3Map(m.desc), "");
    EXPECT_EQ(m.num_clusters, static_cast<int32_t>(m.spaces.size()));
    EXPECT_EQ(m.face_space.size(), m.desc.faces.size());
    for (const DemoSpace& s : m.spaces) {
        EXPECT_FALSE(s.faces.empty()) << s.name;
        EXPECT_FALSE(s.leaves.empty()) << s.name;
    }
    EXPECT_EQ(m.desc.models.size(), 1u);
    EXPECT_EQ(m.desc.models[0].num_faces, static_cast<int32_t>(m.desc.faces.size()));
}

TEST(DemoMap, WrittenFilePassesStructureChecksAndReadsBack) {
    const std::vector<uint8_t>& b = demoBytes();
    EXPECT_EQ(mapgen_test::checkStructure(b), "");
    for (int i = 0; i < kQ3LumpCount; ++i) {
        const auto lump = static_cast<Q3Lump>(i);
        const Q3LumpEntry e = q3LumpEntry(b, lump);
        EXPECT_LE(uint64_t{e.offset} + e.length, b.size()) << q3LumpName(lump);
        if (q3RecordSize(lump)) {
            EXPECT_EQ(e.length % q3RecordSize(lump), 0u) << q3LumpName(lump);
        }
        // Every lump of the demo map has content, the fog lump excepted.
        if (lump != Q3Lump::Fogs) {
            EXPECT_GT(e.length, 0u) << q3LumpName(lump);
        }
    }
    EXPECT_TRUE(demoFile() == demo().desc);
}

TEST(DemoMap, CommittedAssetMatchesGenerator) {
    const auto file = core::readFile(std::string(BSPV_SOURCE_DIR) + "/assets/maps/demo.bsp");
    ASSERT_TRUE(file.ok()) << file.error().message();
    const std::vector<uint8_t>& fresh = demoBytes();
    ASSERT_EQ(file->size(), fresh.size()) << "run mkdemomap and commit assets/maps/demo.bsp";
    size_t first_diff = 0;
    while (first_diff < fresh.size() && (*file)[first_diff] == fresh[first_diff])
        ++first_diff;
    EXPECT_EQ(first_diff, fresh.size())
        << "assets/maps/demo.bsp differs from its generator at byte " << first_diff
        << ": run mkdemomap and commit";
}

TEST(DemoMap, CommittedTexturesMatchGenerator) {
    const std::vector<DemoTexture> textures = buildDemoTextures();
    ASSERT_EQ(textures.size(), 6u);
    for (const DemoTexture& t : textures) {
        EXPECT_EQ(t.rgb.size(), static_cast<size_t>(t.width * t.height * 3));
        const std::string path =
            std::string(BSPV_SOURCE_DIR) + "/assets/textures/demo/" + t.name + ".tga";
        const auto file = core::readFile(path);
        ASSERT_TRUE(file.ok()) << file.error().message();
        EXPECT_TRUE(*file == encodeTga(t)) << path << " differs: run mkdemomap and commit";
    }
    // Every material of the map has a texture file.
    for (const Q3Texture& t : demo().desc.textures) {
        ASSERT_EQ(t.name.rfind(kDemoMaterialPrefix, 0), 0u) << t.name;
        EXPECT_TRUE(
            core::readFile(std::string(BSPV_SOURCE_DIR) + "/assets/" + t.name + ".tga").ok())
            << t.name;
    }
}

TEST(DemoMap, GenerationIsDeterministic) {
    EXPECT_TRUE(writeQ3Bsp(buildDemoMap().desc) == demoBytes());
}

TEST(DemoMap, VisibilityBitsMatchTheGroundTruth) {
    const DemoMap& m = demo();
    const Q3Vis& v = demoFile().vis;
    ASSERT_EQ(v.num_clusters, m.num_clusters);
    ASSERT_GE(v.row_size * 8, v.num_clusters);
    EXPECT_EQ(v.row_size % 8, 0); // whole 64-bit words, as q3map2 writes them
    for (int32_t i = 0; i < v.num_clusters; ++i) {
        EXPECT_TRUE(visBit(v, i, i)) << "cluster " << i << " must see itself";
        for (int32_t j = 0; j < v.num_clusters; ++j) {
            EXPECT_EQ(visBit(v, i, j), m.expectedVisible(i, j)) << i << " -> " << j;
            EXPECT_EQ(visBit(v, i, j), visBit(v, j, i)) << "asymmetric " << i << ", " << j;
        }
    }
    const auto cluster = [&](const char* name) {
        const int32_t s = m.spaceIndex(name);
        EXPECT_GE(s, 0) << name;
        return s < 0 ? 0 : m.spaces[static_cast<size_t>(s)].cluster;
    };
    // The bent chain A - B - C: neighbours see each other, the ends do not.
    EXPECT_TRUE(visBit(v, cluster("A"), cluster("A-B")));
    EXPECT_TRUE(visBit(v, cluster("A"), cluster("B")));
    EXPECT_TRUE(visBit(v, cluster("B"), cluster("C")));
    EXPECT_FALSE(visBit(v, cluster("A"), cluster("C")));
    EXPECT_FALSE(visBit(v, cluster("C"), cluster("A")));
    EXPECT_FALSE(visBit(v, cluster("A"), cluster("E")));
    EXPECT_FALSE(visBit(v, cluster("B"), cluster("D")));
    EXPECT_FALSE(visBit(v, cluster("A"), cluster("C-D")));
}

TEST(DemoMap, TreeFindsEverySpaceAndSolidElsewhere) {
    const DemoMap& m = demo();
    const Q3MapDesc& d = demoFile();
    for (const DemoSpace& s : m.spaces) {
        EXPECT_EQ(clusterAt(d, (s.mins + s.maxs) * 0.5f), s.cluster) << s.name;
        EXPECT_EQ(clusterAt(d, s.mins + glm::vec3(1.0f)), s.cluster) << s.name;
        EXPECT_EQ(clusterAt(d, s.maxs - glm::vec3(1.0f)), s.cluster) << s.name;
        for (int32_t leaf : s.leaves) {
            const Q3Leaf& l = d.leaves[static_cast<size_t>(leaf)];
            EXPECT_EQ(l.cluster, s.cluster);
            EXPECT_EQ(glm::vec3(l.mins), s.mins) << s.name;
            EXPECT_EQ(glm::vec3(l.maxs), s.maxs) << s.name;
        }
    }
    // Between rooms A and B beside the corridor, above A, below the floor, outside the world.
    for (const glm::vec3& p :
         {glm::vec3(640, 100, 64), glm::vec3(256, 256, 280), glm::vec3(256, 256, -8),
          glm::vec3(640, 640, 64), glm::vec3(5000, 0, 0), glm::vec3(-3000, -3000, 900)})
        EXPECT_EQ(clusterAt(d, p), -1) << p.x << " " << p.y << " " << p.z;
    // Solid leaves have no area, as q3map2 writes them.
    for (const Q3Leaf& l : d.leaves) {
        if (l.cluster < 0) {
            EXPECT_EQ(l.area, -1);
        }
    }
}

TEST(DemoMap, LeavesListTheirSpacesFacesAndSolidLeavesTheirBrush) {
    const DemoMap& m = demo();
    const Q3MapDesc& d = demoFile();
    std::set<int32_t> referenced;
    for (const Q3Leaf& l : d.leaves) {
        if (l.cluster >= 0) {
            EXPECT_EQ(l.num_leaf_brushes, 0);
            for (int32_t k = 0; k < l.num_leaf_faces; ++k) {
                const int32_t f = d.leaf_faces[static_cast<size_t>(l.first_leaf_face + k)];
                EXPECT_EQ(m.face_space[static_cast<size_t>(f)], l.cluster);
                referenced.insert(f);
            }
            continue;
        }
        EXPECT_EQ(l.num_leaf_faces, 0);
        ASSERT_EQ(l.num_leaf_brushes, 1);
        const Q3Brush& b =
            d.brushes[static_cast<size_t>(d.leaf_brushes[static_cast<size_t>(l.first_leaf_brush)])];
        ASSERT_EQ(b.num_sides, 6);
        // The brush's outward planes bound exactly the leaf's box.
        for (int32_t k = 0; k < 6; ++k) {
            const Q3Plane& p = d.planes[static_cast<size_t>(
                d.brush_sides[static_cast<size_t>(b.first_side + k)].plane)];
            const int axis = k / 2;
            const float sign = k % 2 ? 1.0f : -1.0f;
            EXPECT_EQ(p.normal[axis], sign);
            EXPECT_EQ(p.dist * sign, static_cast<float>(k % 2 ? l.maxs[axis] : l.mins[axis]));
        }
    }
    EXPECT_EQ(referenced.size(), d.faces.size()) << "every face sits in some leaf";
}

TEST(DemoMap, PolygonsFaceIntoTheirSpaceAndWindClockwise) {
    const DemoMap& m = demo();
    const Q3MapDesc& d = demoFile();
    for (size_t f = 0; f < d.faces.size(); ++f) {
        const Q3Face& face = d.faces[f];
        if (face.type != Q3FaceType::Polygon)
            continue;
        const DemoSpace& s = m.spaces[static_cast<size_t>(m.face_space[f])];
        glm::vec3 centre(0.0f);
        for (int32_t k = 0; k < face.num_vertices; ++k) {
            const Q3Vertex& v = d.vertices[static_cast<size_t>(face.first_vertex + k)];
            EXPECT_TRUE(insideClosed(v.position, s.mins, s.maxs)) << "face " << f;
            EXPECT_EQ(v.normal, face.normal);
            centre += v.position / static_cast<float>(face.num_vertices);
        }
        EXPECT_TRUE(strictlyInside(centre + face.normal, s.mins, s.maxs))
            << "face " << f << " of " << s.name << " faces away from it";
        ASSERT_EQ(face.num_meshverts % 3, 0);
        for (int32_t k = 0; k < face.num_meshverts; k += 3) {
            glm::vec3 p[3];
            for (int32_t c = 0; c < 3; ++c)
                p[c] =
                    d.vertices[static_cast<size_t>(
                                   face.first_vertex +
                                   d.meshverts[static_cast<size_t>(face.first_meshvert + k + c)])]
                        .position;
            EXPECT_LT(glm::dot(glm::cross(p[1] - p[0], p[2] - p[0]), face.normal), 0.0f)
                << "face " << f << " triangle " << k / 3 << " is not clockwise from the front";
        }
    }
}

// A point of a Quake 3 patch: (w-1)/2 x (h-1)/2 biquadratic Bezier pieces over the control
// grid, s and t in [0, 1] across the whole patch.
glm::vec3 bezier(const std::vector<glm::vec3>& grid, int32_t w, int32_t h, float s, float t) {
    auto piece = [](float x, int32_t n, int32_t& k, float& f) {
        const int32_t pieces = (n - 1) / 2;
        k = std::min(static_cast<int32_t>(x * static_cast<float>(pieces)), pieces - 1);
        f = x * static_cast<float>(pieces) - static_cast<float>(k);
    };
    int32_t ks = 0, kt = 0;
    float fs = 0, ft = 0;
    piece(s, w, ks, fs);
    piece(t, h, kt, ft);
    const float bs[3] = {(1 - fs) * (1 - fs), 2 * fs * (1 - fs), fs * fs};
    const float bt[3] = {(1 - ft) * (1 - ft), 2 * ft * (1 - ft), ft * ft};
    glm::vec3 p(0.0f);
    for (int j = 0; j < 3; ++j)
        for (int i = 0; i < 3; ++i)
            p += grid[static_cast<size_t>((2 * kt + j) * w + 2 * ks + i)] * (bs[i] * bt[j]);
    return p;
}

TEST(DemoMap, PatchesHaveOddControlGridsFacingTheirSpace) {
    const DemoMap& m = demo();
    const Q3MapDesc& d = demoFile();
    size_t patches = 0;
    for (const Q3Face& f : d.faces)
        patches += f.type == Q3FaceType::Patch;
    EXPECT_EQ(patches, m.patch_faces.size());
    EXPECT_EQ(patches, 3u); // the vault of B-C and the walls above it at both ends
    for (int32_t fi : m.patch_faces) {
        const Q3Face& f = d.faces[static_cast<size_t>(fi)];
        ASSERT_EQ(f.type, Q3FaceType::Patch);
        const int32_t w = f.patch_size[0], h = f.patch_size[1];
        EXPECT_TRUE(w >= 3 && w % 2 == 1) << w;
        EXPECT_TRUE(h >= 3 && h % 2 == 1) << h;
        ASSERT_EQ(w * h, f.num_vertices);
        EXPECT_EQ(f.num_meshverts, 0);
        const DemoSpace& s = m.spaces[static_cast<size_t>(m.face_space[static_cast<size_t>(fi)])];
        std::vector<glm::vec3> grid, normals;
        for (int32_t k = 0; k < f.num_vertices; ++k) {
            const Q3Vertex& v = d.vertices[static_cast<size_t>(f.first_vertex + k)];
            EXPECT_TRUE(insideClosed(v.position, s.mins, s.maxs));
            grid.push_back(v.position);
            normals.push_back(v.normal);
        }
        // Quake 3's front of a patch is cross(dP/ds, dP/dt) of the surface (s along a row):
        // it must face into the patch's space and agree with the vertex normals.
        int oriented = 0;
        for (int j = 1; j < 10; ++j) {
            for (int i = 1; i < 10; ++i) {
                const float ps = 0.1f * static_cast<float>(i), pt = 0.1f * static_cast<float>(j);
                const float e = 1e-3f;
                const glm::vec3 p = bezier(grid, w, h, ps, pt);
                const glm::vec3 n =
                    glm::cross(bezier(grid, w, h, ps + e, pt) - bezier(grid, w, h, ps - e, pt),
                               bezier(grid, w, h, ps, pt + e) - bezier(grid, w, h, ps, pt - e));
                if (glm::length(n) < 1e-4f)
                    continue; // a collapsed row of the grid
                const glm::vec3 front = glm::normalize(n);
                EXPECT_TRUE(strictlyInside(p + front * 2.0f, s.mins, s.maxs))
                    << "patch " << fi << " faces out of " << s.name << " at " << ps << "," << pt;
                EXPECT_GT(glm::dot(front, bezier(normals, w, h, ps, pt)), 0.0f) << "patch " << fi;
                ++oriented;
            }
        }
        EXPECT_GT(oriented, 40);
        // Patches keep their bounds in lm_vecs.
        for (int32_t k = 0; k < f.num_vertices; ++k)
            EXPECT_TRUE(insideClosed(d.vertices[static_cast<size_t>(f.first_vertex + k)].position,
                                     f.lm_vecs[0], f.lm_vecs[1]));
    }
}

TEST(DemoMap, LightmapUvsLieInsideEachFacesBlock) {
    const Q3MapDesc& d = demoFile();
    ASSERT_FALSE(d.lightmaps.empty());
    std::vector<std::vector<int32_t>> owner(d.lightmaps.size(),
                                            std::vector<int32_t>(128 * 128, -1));
    for (size_t fi = 0; fi < d.faces.size(); ++fi) {
        const Q3Face& f = d.faces[fi];
        ASSERT_GE(f.lightmap, 0) << fi;
        ASSERT_LT(f.lightmap, static_cast<int32_t>(d.lightmaps.size()));
        for (int a = 0; a < 2; ++a) {
            ASSERT_GE(f.lm_start[a], 0);
            ASSERT_GE(f.lm_size[a], 1);
            ASSERT_LE(f.lm_start[a] + f.lm_size[a], kQ3LightmapSize);
        }
        for (int32_t y = 0; y < f.lm_size[1]; ++y)
            for (int32_t x = 0; x < f.lm_size[0]; ++x) {
                int32_t& o =
                    owner[static_cast<size_t>(f.lightmap)]
                         [static_cast<size_t>((f.lm_start[1] + y) * 128 + f.lm_start[0] + x)];
                ASSERT_EQ(o, -1) << "blocks of faces " << o << " and " << fi << " overlap";
                o = static_cast<int32_t>(fi);
            }
        for (int32_t k = 0; k < f.num_vertices; ++k) {
            const glm::vec2 uv = d.vertices[static_cast<size_t>(f.first_vertex + k)].lm_uv;
            for (int a = 0; a < 2; ++a) {
                EXPECT_GE(uv[a], 0.0f);
                EXPECT_LE(uv[a], 1.0f);
                // Between the centres of the block's first and last texels, so bilinear
                // filtering never reads a neighbour's texels.
                const float t = uv[a] * kQ3LightmapSize;
                EXPECT_GE(t, static_cast<float>(f.lm_start[a]) + 0.5f) << "face " << fi;
                EXPECT_LE(t, static_cast<float>(f.lm_start[a] + f.lm_size[a]) - 0.5f)
                    << "face " << fi;
            }
        }
    }
}

// Lightmap texel (i, j) of a polygon face in world space, from the face's lm_origin/lm_vecs.
glm::vec3 texelPosition(const Q3Face& f, int32_t i, int32_t j) {
    return f.lm_origin + f.lm_vecs[0] * static_cast<float>(i) +
           f.lm_vecs[1] * static_cast<float>(j);
}

int texelBrightness(const Q3MapDesc& d, const Q3Face& f, int32_t i, int32_t j) {
    const std::vector<uint8_t>& rgb = d.lightmaps[static_cast<size_t>(f.lightmap)].rgb;
    const size_t at =
        (static_cast<size_t>(f.lm_start[1] + j) * 128 + static_cast<size_t>(f.lm_start[0] + i)) * 3;
    return rgb[at] + rgb[at + 1] + rgb[at + 2];
}

TEST(DemoMap, FloorsAreBrightestUnderTheirLights) {
    const DemoMap& m = demo();
    const Q3MapDesc& d = demoFile();
    ASSERT_FALSE(m.lights.empty());
    for (const DemoLight& light : m.lights) {
        const DemoSpace& s = m.spaces[static_cast<size_t>(light.space)];
        const Q3Face* floor = nullptr;
        for (int32_t fi : s.faces)
            if (d.faces[static_cast<size_t>(fi)].normal == glm::vec3(0, 0, 1))
                floor = &d.faces[static_cast<size_t>(fi)];
        ASSERT_NE(floor, nullptr) << s.name;
        // The texel nearest below the light against the one farthest from it.
        int32_t near_i = 0, near_j = 0, far_i = 0, far_j = 0;
        float near_d = 1e9f, far_d = -1.0f;
        for (int32_t j = 0; j < floor->lm_size[1]; ++j)
            for (int32_t i = 0; i < floor->lm_size[0]; ++i) {
                const glm::vec3 p = texelPosition(*floor, i, j);
                if (!insideClosed(p, s.mins, s.maxs))
                    continue;
                const float dist = glm::length(glm::vec2(p) - glm::vec2(light.origin));
                if (dist < near_d) {
                    near_d = dist;
                    near_i = i;
                    near_j = j;
                }
                if (dist > far_d) {
                    far_d = dist;
                    far_i = i;
                    far_j = j;
                }
            }
        EXPECT_LE(near_d, 16.0f) << s.name;
        EXPECT_GT(texelBrightness(d, *floor, near_i, near_j),
                  texelBrightness(d, *floor, far_i, far_j) + 30)
            << s.name;
    }
}

TEST(DemoMap, SpawnPointsAreInsideRoomsAndMatchTheEntities) {
    const DemoMap& m = demo();
    const Q3MapDesc& d = demoFile();
    std::vector<std::string> warnings;
    bsp::Map map = treeOf(d);
    map.entities = bsp::parseEntities(d.entities, &warnings);
    EXPECT_TRUE(warnings.empty());
    ASSERT_FALSE(map.entities.empty());
    EXPECT_EQ(map.entities[0].classname(), "worldspawn");
    const std::vector<bsp::SpawnPoint> spawns = bsp::findSpawnPoints(map);
    ASSERT_EQ(spawns.size(), m.spawns.size());
    int starts = 0, deathmatch = 0, intermission = 0;
    for (const bsp::SpawnPoint& sp : spawns) {
        starts += sp.classname == "info_player_start";
        deathmatch += sp.classname == "info_player_deathmatch";
        intermission += sp.classname == "info_player_intermission";
        const DemoSpawn* truth = nullptr;
        for (const DemoSpawn& t : m.spawns)
            if (t.origin == sp.origin && t.classname == sp.classname)
                truth = &t;
        ASSERT_NE(truth, nullptr) << sp.classname << " at " << sp.origin.x << " " << sp.origin.y;
        EXPECT_EQ(sp.yaw, truth->yaw);
        const DemoSpace& room = m.spaces[static_cast<size_t>(truth->space)];
        EXPECT_FALSE(room.corridor);
        EXPECT_TRUE(strictlyInside(sp.origin, room.mins, room.maxs)) << sp.classname;
        EXPECT_EQ(clusterAt(d, sp.origin), room.cluster) << sp.classname;
    }
    EXPECT_EQ(starts, 1);
    EXPECT_GE(deathmatch, 4);
    EXPECT_EQ(intermission, 1);
    std::set<int32_t> rooms;
    for (const DemoSpawn& t : m.spawns)
        rooms.insert(t.space);
    EXPECT_GE(rooms.size(), 4u) << "spawns spread over several rooms";
    size_t lights = 0;
    for (const bsp::Entity& e : map.entities)
        lights += e.classname() == "light";
    EXPECT_EQ(lights, m.lights.size());
}

TEST(DemoMap, LightGridCoversTheWorldBox) {
    const DemoMap& m = demo();
    const Q3MapDesc& d = demoFile();
    // ioquake3 R_LoadLightGrid: points every gridsize from the world mins rounded up to the
    // maxs rounded down; a lump of another size is ignored by the engine.
    const glm::vec3 g(64, 64, 128);
    const glm::vec3 mins = d.models[0].mins, maxs = d.models[0].maxs;
    glm::ivec3 bounds;
    for (int a = 0; a < 3; ++a)
        bounds[a] =
            static_cast<int>(
                (g[a] * std::floor(maxs[a] / g[a]) - g[a] * std::ceil(mins[a] / g[a])) / g[a]) +
            1;
    EXPECT_EQ(bounds, m.light_grid_bounds);
    ASSERT_EQ(d.light_grid.size(), static_cast<size_t>(bounds.x * bounds.y * bounds.z));
    size_t lit = 0;
    for (const Q3LightGridPoint& p : d.light_grid)
        lit += p.ambient[0] > 0;
    EXPECT_GT(lit, 0u);
    EXPECT_LT(lit, d.light_grid.size()); // points in solid stay dark
}

TEST(TwoRoomMap, ClustersCannotSeeEachOther) {
    const DemoMap m = buildTwoRoomMap();
    EXPECT_EQ(validateQ3Map(m.desc), "");
    const std::vector<uint8_t> bytes = writeQ3Bsp(m.desc);
    std::string error;
    const std::optional<Q3MapDesc> d = mapgen_test::readQ3(bytes, &error);
    ASSERT_TRUE(d.has_value()) << error;
    ASSERT_EQ(m.num_clusters, 2);
    ASSERT_EQ(d->vis.num_clusters, 2);
    const int32_t a = m.spaces[static_cast<size_t>(m.spaceIndex("A"))].cluster;
    const int32_t b = m.spaces[static_cast<size_t>(m.spaceIndex("B"))].cluster;
    EXPECT_NE(a, b);
    EXPECT_TRUE(visBit(d->vis, a, a));
    EXPECT_TRUE(visBit(d->vis, b, b));
    EXPECT_FALSE(visBit(d->vis, a, b));
    EXPECT_FALSE(visBit(d->vis, b, a));
    EXPECT_FALSE(m.expectedVisible(a, b));
    for (const DemoSpace& s : m.spaces) {
        EXPECT_EQ(clusterAt(*d, (s.mins + s.maxs) * 0.5f), s.cluster);
        EXPECT_EQ(s.faces.size(), 6u) << "a closed box";
    }
    EXPECT_EQ(clusterAt(*d, {384, 128, 64}), -1); // the solid between them
    EXPECT_TRUE(m.patch_faces.empty());
}

TEST(BuildMap, RejectsInconsistentLayouts) {
    struct Case {
        const char* what;
        void (*mutate)(DemoLayout&);
    };
    const Case cases[] = {
        {"overlap", [](DemoLayout& l) { l.spaces[1].mins.x = 500; }},
        {"empty box", [](DemoLayout& l) { l.spaces[0].maxs.z = 0; }},
        {"corridor short of a wall", [](DemoLayout& l) { l.spaces[5].maxs.x = 760; }},
        {"corridor wider than the wall", [](DemoLayout& l) { l.spaces[5].maxs.z = 300; }},
        {"corridor joining a corridor", [](DemoLayout& l) { l.spaces[5].rooms[1] = 6; }},
        {"vault of the wrong height", [](DemoLayout& l) { l.spaces[6].wall_top = 120; }},
        {"spawn in solid",
         [](DemoLayout& l) {
             l.spawns[0].origin = {640, 100, 64};
         }},
        {"light in solid", [](DemoLayout& l) { l.lights[0].origin.z = 300; }},
        {"unknown texture", [](DemoLayout& l) { l.spaces[2].wall_texture = "marble"; }},
    };
    ASSERT_TRUE(buildMap(demoLayout()).ok());
    for (const Case& c : cases) {
        DemoLayout l = demoLayout();
        c.mutate(l);
        const core::Result<DemoMap> r = buildMap(l);
        ASSERT_FALSE(r.ok()) << c.what;
        EXPECT_EQ(r.error().code, core::ErrorCode::BadArgument) << c.what;
    }
}

TEST(BuildMap, LargeFacesNeedNoMoreThanOnePage) {
    DemoMapOptions o;
    o.luxel_size = 2.0f; // a 512-unit wall would need 257 texels
    const core::Result<DemoMap> r = buildMap(demoLayout(), o);
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error().code, core::ErrorCode::BadArgument);
}

} // namespace
