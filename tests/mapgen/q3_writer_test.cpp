// The Quake 3 writer: byte layout, round trip through a reader, validation, block packing.
#include "mapgen/q3_writer.h"

#include "mapgen/demo_map.h"
#include "mapgen/lightmap_packer.h"
#include "mapgen/q3_test_reader.h"

#include <gtest/gtest.h>

#include <cstring>

namespace {

using namespace mapgen;

int32_t i32At(const std::vector<uint8_t>& b, size_t at) {
    int32_t v = 0;
    std::memcpy(&v, b.data() + at, 4);
    return v;
}

// A description with at least one record of every lump and every face type.
Q3MapDesc everyLump() {
    Q3MapDesc d;
    d.entities = "{\n\"classname\" \"worldspawn\"\n}\n";
    d.textures = {{"textures/demo/brick", 0, kQ3ContentsSolid},
                  {"textures/demo/fog", kQ3SurfNoDraw, 0x40}};
    d.planes = {{{1, 0, 0}, 8}, {{-1, 0, 0}, -8}, {{0, 0, 1}, -4.5f}, {{0, 0, -1}, 4.5f}};
    d.nodes = {{0, {-1, -2}, {-16, -16, -16}, {16, 16, 16}}};
    d.leaves = {{0, 0, {8, -16, -16}, {16, 16, 16}, 0, 4, 0, 0},
                {-1, -1, {-16, -16, -16}, {8, 16, 16}, 4, 0, 0, 1}};
    d.leaf_faces = {0, 1, 2, 3};
    d.leaf_brushes = {0};
    d.models = {{{-16, -16, -16}, {16, 16, 16}, 0, 4, 0, 1}};
    d.brushes = {{0, 2, 0}};
    d.brush_sides = {{0, 0}, {1, 1}};
    for (int i = 0; i < 13; ++i) {
        Q3Vertex v;
        v.position = {8.0f + static_cast<float>(i % 3), static_cast<float>(i / 3), 0.25f};
        v.uv = {0.5f * static_cast<float>(i), -1.0f};
        v.lm_uv = {(0.5f + static_cast<float>(i % 3)) / 128.0f,
                   (0.5f + static_cast<float>(i / 3 % 3)) / 128.0f};
        v.normal = {-1, 0, 0};
        v.colour = {static_cast<uint8_t>(i), 2, 3, 255};
        d.vertices.push_back(v);
    }
    d.meshverts = {0, 2, 1, 0, 3, 2};
    d.fogs = {{"textures/demo/fog", 0, 1}};
    Q3Face poly;
    poly.type = Q3FaceType::Polygon;
    poly.num_vertices = 4;
    poly.num_meshverts = 6;
    poly.lightmap = 0;
    poly.lm_start = {0, 0};
    poly.lm_size = {3, 3};
    poly.lm_origin = {8, 0, 0};
    poly.lm_vecs = {glm::vec3(0, 16, 0), glm::vec3(0, 0, 16)};
    poly.normal = {-1, 0, 0};
    Q3Face patch = poly;
    patch.type = Q3FaceType::Patch;
    patch.first_vertex = 4;
    patch.num_vertices = 9;
    patch.num_meshverts = 0;
    patch.patch_size = {3, 3};
    Q3Face mesh = poly;
    mesh.type = Q3FaceType::Mesh;
    mesh.fog = 0;
    Q3Face flare;
    flare.type = Q3FaceType::Billboard;
    flare.first_vertex = 12;
    flare.num_vertices = 1;
    d.faces = {poly, patch, mesh, flare};
    d.lightmaps = {{std::vector<uint8_t>(kQ3LightmapBytes, 7)}};
    d.lightmaps[0].rgb[5] = 200;
    d.light_grid = {{{1, 2, 3}, {4, 5, 6}, {7, 8}}, {{9, 10, 11}, {12, 13, 14}, {15, 16}}};
    d.vis = {2, 8, std::vector<uint8_t>(16, 0)};
    d.vis.bits[0] = 1;
    d.vis.bits[8] = 3;
    return d;
}

TEST(Q3Writer, EmptyDescriptionHasHeaderAndAllLumps) {
    const std::vector<uint8_t> b = writeQ3Bsp({});
    ASSERT_GE(b.size(), static_cast<size_t>(kQ3HeaderSize));
    EXPECT_EQ(std::memcmp(b.data(), "IBSP", 4), 0);
    EXPECT_EQ(i32At(b, 4), 46);
    // The entity lump always holds its terminating NUL; every other lump is empty.
    EXPECT_EQ(i32At(b, 8), kQ3HeaderSize);
    EXPECT_EQ(i32At(b, 12), 1);
    for (int i = 1; i < kQ3LumpCount; ++i)
        EXPECT_EQ(i32At(b, 12 + 8 * static_cast<size_t>(i)), 0)
            << q3LumpName(static_cast<Q3Lump>(i));
    EXPECT_EQ(b.size(), static_cast<size_t>(kQ3HeaderSize) + 4);
    EXPECT_EQ(mapgen_test::checkStructure(b), "");
}

TEST(Q3Writer, LumpsFollowEachOtherInDirectoryOrderOnFourByteBoundaries) {
    const std::vector<uint8_t> b = writeQ3Bsp(everyLump());
    ASSERT_EQ(mapgen_test::checkStructure(b), "");
    uint32_t expected = kQ3HeaderSize;
    for (int i = 0; i < kQ3LumpCount; ++i) {
        const Q3LumpEntry e = q3LumpEntry(b, static_cast<Q3Lump>(i));
        EXPECT_EQ(e.offset, expected) << q3LumpName(static_cast<Q3Lump>(i));
        EXPECT_GT(e.length, 0u) << q3LumpName(static_cast<Q3Lump>(i));
        expected = (e.offset + e.length + 3u) & ~3u;
    }
    const Q3LumpEntry last = q3LumpEntry(b, Q3Lump::Visibility);
    EXPECT_EQ(b.size(), static_cast<size_t>(last.offset + last.length));
    EXPECT_EQ(q3LumpEntry(b, Q3Lump::Surfaces).length, 4u * 104u);
    EXPECT_EQ(q3LumpEntry(b, Q3Lump::DrawVerts).length, 13u * 44u);
    EXPECT_EQ(q3LumpEntry(b, Q3Lump::Visibility).length, 8u + 16u);
}

TEST(Q3Writer, RoundTripsEveryField) {
    const Q3MapDesc d = everyLump();
    ASSERT_EQ(validateQ3Map(d), "");
    std::string error;
    const std::optional<Q3MapDesc> back = mapgen_test::readQ3(writeQ3Bsp(d), &error);
    ASSERT_TRUE(back.has_value()) << error;
    EXPECT_EQ(back->entities, d.entities);
    EXPECT_EQ(back->textures, d.textures);
    EXPECT_EQ(back->planes, d.planes);
    EXPECT_EQ(back->nodes, d.nodes);
    EXPECT_EQ(back->leaves, d.leaves);
    EXPECT_EQ(back->leaf_faces, d.leaf_faces);
    EXPECT_EQ(back->leaf_brushes, d.leaf_brushes);
    EXPECT_EQ(back->models, d.models);
    EXPECT_EQ(back->brushes, d.brushes);
    EXPECT_EQ(back->brush_sides, d.brush_sides);
    EXPECT_EQ(back->vertices, d.vertices);
    EXPECT_EQ(back->meshverts, d.meshverts);
    EXPECT_EQ(back->fogs, d.fogs);
    EXPECT_EQ(back->faces, d.faces);
    EXPECT_EQ(back->lightmaps, d.lightmaps);
    EXPECT_EQ(back->light_grid, d.light_grid);
    EXPECT_EQ(back->vis, d.vis);
    EXPECT_TRUE(*back == d);
}

TEST(Q3Writer, LongNamesAreCutAndKeepTheirTerminator) {
    Q3MapDesc d;
    d.textures = {{std::string(100, 'x'), 0, 0}};
    const std::vector<uint8_t> b = writeQ3Bsp(d);
    const Q3LumpEntry e = q3LumpEntry(b, Q3Lump::Shaders);
    ASSERT_EQ(e.length, 72u);
    EXPECT_EQ(b[e.offset + 62], 'x');
    EXPECT_EQ(b[e.offset + 63], 0);
    EXPECT_NE(validateQ3Map(d), ""); // the validator refuses names that do not fit
}

TEST(Q3Writer, WritesBrokenDescriptionsAsGiven) {
    // Tests of the parser need broken files: the writer must not repair them.
    Q3MapDesc d = everyLump();
    d.faces[0].texture = 99;
    d.lightmaps[0].rgb.resize(100);
    std::string error;
    const std::vector<uint8_t> b = writeQ3Bsp(d);
    EXPECT_EQ(q3LumpEntry(b, Q3Lump::Lightmaps).length, 100u);
    EXPECT_NE(mapgen_test::checkStructure(b).find("lightmaps"), std::string::npos);
}

TEST(Q3Validate, FindsEachKindOfBrokenReference) {
    const Q3MapDesc good = everyLump();
    struct Case {
        const char* expect;
        void (*mutate)(Q3MapDesc&);
    };
    const Case cases[] = {
        {"faces[0].texture", [](Q3MapDesc& d) { d.faces[0].texture = 2; }},
        {"faces[0].vertex", [](Q3MapDesc& d) { d.faces[0].num_vertices = 14; }},
        {"faces[0].meshvert[1]", [](Q3MapDesc& d) { d.meshverts[1] = 4; }},
        {"faces[1].size",
         [](Q3MapDesc& d) {
             d.faces[1].patch_size = {2, 3};
         }},
        {"faces[1].size",
         [](Q3MapDesc& d) {
             d.faces[1].patch_size = {3, 5};
         }},
        {"outside its block", [](Q3MapDesc& d) { d.vertices[2].lm_uv.x = 10.0f / 128.0f; }},
        {"faces[0].lightmap", [](Q3MapDesc& d) { d.faces[0].lightmap = 1; }},
        {"faces[2].fog", [](Q3MapDesc& d) { d.faces[2].fog = 1; }},
        {"nodes[0].child", [](Q3MapDesc& d) { d.nodes[0].children[1] = -3; }},
        {"nodes[0]: reached twice", [](Q3MapDesc& d) { d.nodes[0].children[0] = 0; }},
        {"leafs[0].leafsurface", [](Q3MapDesc& d) { d.leaves[0].num_leaf_faces = 5; }},
        {"leafsurfaces[3]", [](Q3MapDesc& d) { d.leaf_faces[3] = 4; }},
        {"leafs[1].cluster", [](Q3MapDesc& d) { d.leaves[1].cluster = 2; }},
        {"brushsides[1].plane", [](Q3MapDesc& d) { d.brush_sides[1].plane = 4; }},
        {"models[0].surface", [](Q3MapDesc& d) { d.models[0].num_faces = 5; }},
        {"lightmaps[0]", [](Q3MapDesc& d) { d.lightmaps[0].rgb.pop_back(); }},
        {"visibility", [](Q3MapDesc& d) { d.vis.bits.pop_back(); }},
        {"visibility: row size", [](Q3MapDesc& d) { d.vis.num_clusters = 65; }},
    };
    for (const Case& c : cases) {
        Q3MapDesc d = good;
        c.mutate(d);
        const std::string problems = validateQ3Map(d);
        EXPECT_NE(problems.find(c.expect), std::string::npos)
            << "expected '" << c.expect << "', got:\n"
            << problems;
    }
}

TEST(LightmapPacker, PlacesBlocksWithoutOverlapInsidePages) {
    std::vector<std::pair<int32_t, int32_t>> sizes;
    for (int i = 0; i < 60; ++i)
        sizes.push_back({3 + (i * 7) % 40, 2 + (i * 11) % 30});
    sizes.push_back({128, 128});
    sizes.push_back({129, 4}); // too wide for any page
    int32_t pages = 0;
    const std::vector<PackedBlock> p = packBlocks(sizes, 128, &pages);
    ASSERT_EQ(p.size(), sizes.size());
    EXPECT_EQ(p.back().page, -1);
    std::vector<std::vector<uint8_t>> used(static_cast<size_t>(pages),
                                           std::vector<uint8_t>(128 * 128, 0));
    for (size_t i = 0; i + 1 < sizes.size(); ++i) {
        ASSERT_GE(p[i].page, 0);
        ASSERT_LT(p[i].page, pages);
        ASSERT_LE(p[i].x + sizes[i].first, 128);
        ASSERT_LE(p[i].y + sizes[i].second, 128);
        for (int32_t y = 0; y < sizes[i].second; ++y)
            for (int32_t x = 0; x < sizes[i].first; ++x) {
                uint8_t& t = used[static_cast<size_t>(p[i].page)]
                                 [static_cast<size_t>((p[i].y + y) * 128 + p[i].x + x)];
                ASSERT_EQ(t, 0) << "block " << i << " overlaps";
                t = 1;
            }
    }
    EXPECT_EQ(packBlocks(sizes, 128, nullptr).size(), p.size());
}

} // namespace
