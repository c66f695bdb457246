// Regression tests for bugs found by the robustness tests and the fuzzers (docs/robustness.md
// lists each with its input). Inputs the fuzzers found also live in fuzz/regressions/.
#include "robust/mutate.h"
#include "support/q3_builder.h"

#include "bsp/edge_faces.h"
#include "bsp/entities.h"
#include "bsp/load.h"
#include "content/image/image.h"
#include "core/file.h"

#include <gtest/gtest.h>

#include <cstring>
#include <string>

namespace {

// "{{{{..." ended every entity through the "'{' inside an entity" path, which did not check
// kMaxEntities, so a 1 MiB lump made a million entities.
TEST(Regressions, EntityCapHoldsForOpenBraceRuns) {
    const std::string text(bsp::kMaxEntities * 2, '{');
    std::vector<std::string> warnings;
    const auto entities = bsp::parseEntities(text, &warnings);
    EXPECT_EQ(entities.size(), bsp::kMaxEntities);
    // And through keys without values followed by '{' or '}'.
    std::string keys;
    for (size_t i = 0; i < bsp::kMaxEntities + 10; ++i)
        keys += "{ k {";
    EXPECT_LE(bsp::parseEntities(keys, nullptr).size(), bsp::kMaxEntities);
}

// Appends `faces` copies of face 0, each naming the same `edges` surfedges (a new lump of
// zeros: every surfedge is edge 0), and points the faces and surfedges lumps at them. Quake 1
// BSP29 and Quake 2 share the face fields used here (firstedge +4, numedges +8).
std::vector<uint8_t> shareSurfedges(std::vector<uint8_t> file, uint64_t dir, int faces_lump,
                                    int surfedges_lump, int faces, int edges) {
    const int32_t face0 = robust::readI32(file, dir + uint64_t(faces_lump) * 8);
    std::vector<uint8_t> face(file.begin() + face0, file.begin() + face0 + 20);
    const int32_t first_edge = 0;
    const int16_t num_edges = static_cast<int16_t>(edges);
    std::memcpy(face.data() + 4, &first_edge, 4);
    std::memcpy(face.data() + 8, &num_edges, 2);
    const auto surf_at = static_cast<int32_t>(file.size());
    file.resize(file.size() + size_t(edges) * 4, 0);
    const auto faces_at = static_cast<int32_t>(file.size());
    for (int i = 0; i < faces; ++i)
        file.insert(file.end(), face.begin(), face.end());
    robust::writeI32(file, dir + uint64_t(surfedges_lump) * 8, surf_at);
    robust::writeI32(file, dir + uint64_t(surfedges_lump) * 8 + 4, edges * 4);
    robust::writeI32(file, dir + uint64_t(faces_lump) * 8, faces_at);
    robust::writeI32(file, dir + uint64_t(faces_lump) * 8 + 4, faces * 20);
    return file;
}

// 1,100 faces sharing 4,000 surfedges: 4.4 M polygon vertices (200 MB) from a 38 KB file was
// accepted; the total is now capped at kMaxFaceVerticesTotal.
TEST(Regressions, SharedSurfedgesAreCappedQuake1) {
    auto cube = core::readFile(std::string(BSPV_SHARED_MAPS_DIR) + "/q1/ew_q1_cube.bsp");
    ASSERT_TRUE(cube.ok());
    ASSERT_TRUE(bsp::loadMap(*cube, "cube.bsp").ok());
    // Below the cap the same construction loads (so the test measures the cap, not a side
    // effect of the edit).
    EXPECT_TRUE(bsp::loadMap(shareSurfedges(*cube, 4, 7, 13, 1000, 100), "ok.bsp").ok());
    const auto r = bsp::loadMap(shareSurfedges(*cube, 4, 7, 13, 1100, 4000), "shared.bsp");
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error().code, core::ErrorCode::LimitExceeded) << r.error().message();
    EXPECT_EQ(r.error().lump, "faces");
}

TEST(Regressions, SharedSurfedgesAreCappedQuake2) {
    auto map = core::readFile(std::string(BSPV_SHARED_MAPS_DIR) + "/q2/aq_credits.bsp");
    ASSERT_TRUE(map.ok());
    const auto ok = bsp::loadMap(shareSurfedges(*map, 8, 6, 12, 1000, 100), "ok.bsp");
    EXPECT_TRUE(ok.ok()) << ok.error().message();
    const auto r = bsp::loadMap(shareSurfedges(*map, 8, 6, 12, 1100, 4000), "shared.bsp");
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error().code, core::ErrorCode::LimitExceeded) << r.error().message();
    EXPECT_EQ(r.error().lump, "faces");
}

// Quake 3 faces naming the same vertex range: the world mesh copies each face's vertices.
TEST(Regressions, OverlappingFaceVertexRangesAreCappedQuake3) {
    auto build = [](int faces) {
        q3test::Q3Builder b = q3test::Q3Builder::tiny();
        b.vertices.resize(40000, b.vertices[0]);
        for (int i = 0; i < faces; ++i) {
            q3test::FaceRec f = b.faces[0];
            f.type = 1;
            f.first_vertex = 0;
            f.num_vertices = 40000;
            f.first_meshvert = 0;
            f.num_meshverts = 3;
            b.faces.push_back(f);
        }
        return b.build();
    };
    EXPECT_TRUE(bsp::loadMap(build(10), "ok.bsp").ok());
    const auto r = bsp::loadMap(build(110), "shared.bsp");
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error().code, core::ErrorCode::LimitExceeded) << r.error().message();
    EXPECT_EQ(r.error().lump, "faces");
}

// Leaves naming overlapping leaf-face ranges: visibility walks each visible leaf's range every
// frame, so 2,000 leaves over the same 60,000 marksurfaces cost 120 M steps a frame.
TEST(Regressions, OverlappingLeafFaceRangesAreCappedQuake1) {
    auto cube = core::readFile(std::string(BSPV_SHARED_MAPS_DIR) + "/q1/ew_q1_cube.bsp");
    ASSERT_TRUE(cube.ok());
    auto build = [&](int leaves, uint16_t marks) {
        std::vector<uint8_t> file = *cube;
        const uint64_t dir = 4;
        const int kLeafs = 10, kMarksurfaces = 11;
        const int32_t leaf1 = robust::readI32(file, dir + kLeafs * 8) + 28;
        std::vector<uint8_t> leaf(file.begin() + leaf1, file.begin() + leaf1 + 28);
        const uint16_t first = 0;
        std::memcpy(leaf.data() + 20, &first, 2);
        std::memcpy(leaf.data() + 22, &marks, 2);
        const auto marks_at = static_cast<int32_t>(file.size());
        file.resize(file.size() + size_t(marks) * 2, 0); // every entry names face 0
        const int32_t old_leafs = robust::readI32(file, dir + kLeafs * 8);
        const int32_t old_count = robust::readI32(file, dir + kLeafs * 8 + 4) / 28;
        const auto leafs_at = static_cast<int32_t>(file.size());
        // Keep the original leaves (nodes name them), then add the overlapping ones.
        std::vector<uint8_t> original(file.begin() + old_leafs,
                                      file.begin() + old_leafs + old_count * 28);
        for (int i = 0; i < old_count; ++i) // their ranges now start at 0 of the new lump
            std::memcpy(original.data() + i * 28 + 20, &first, 2);
        file.insert(file.end(), original.begin(), original.end());
        for (int i = 0; i < leaves; ++i)
            file.insert(file.end(), leaf.begin(), leaf.end());
        robust::writeI32(file, dir + kMarksurfaces * 8, marks_at);
        robust::writeI32(file, dir + kMarksurfaces * 8 + 4, int32_t(marks) * 2);
        robust::writeI32(file, dir + kLeafs * 8, leafs_at);
        robust::writeI32(file, dir + kLeafs * 8 + 4, (old_count + leaves) * 28);
        return file;
    };
    const auto ok = bsp::loadMap(build(3, 60000), "ok.bsp");
    EXPECT_TRUE(ok.ok()) << ok.error().message();
    const auto r = bsp::loadMap(build(2000, 60000), "overlap.bsp");
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error().code, core::ErrorCode::BadValue) << r.error().message();
    EXPECT_EQ(r.error().lump, "leafs");
}

TEST(Regressions, OverlappingLeafFaceRangesAreCappedQuake3) {
    auto build = [](int leaves) {
        q3test::Q3Builder b = q3test::Q3Builder::tiny();
        b.leaf_faces.resize(70000, 0);
        for (int i = 0; i < leaves; ++i) {
            auto l = b.leafs[0];
            l.first_face = 0;
            l.num_faces = 70000;
            b.leafs.push_back(l);
        }
        return b.build();
    };
    const auto ok = bsp::loadMap(build(2), "ok.bsp");
    EXPECT_TRUE(ok.ok()) << ok.error().message();
    const auto r = bsp::loadMap(build(2000), "overlap.bsp");
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error().code, core::ErrorCode::BadValue) << r.error().message();
    EXPECT_EQ(r.error().lump, "leafs");
}

// fuzz_load_map (Quake 2 input): a texinfo with huge axes made computeLightmapExtents compute
// (bmax - bmin) * 16 = 3.2e9 in an int32 (UBSan: signed overflow). Extents are now clamped to
// values whose products fit.
TEST(Regressions, HugeTextureAxesDoNotOverflowLightmapExtents) {
    const std::vector<glm::vec3> polygon = {{-1e6f, -1e6f, 0.0f}, {1e6f, 1e6f, 0.0f}};
    bsp::TexAxes axes;
    axes.s = glm::vec4(1e4f, 0.0f, 0.0f, 0.0f);
    axes.t = glm::vec4(0.0f, -1e4f, 0.0f, 0.0f);
    const bsp::LightmapExtents ext = bsp::computeLightmapExtents(polygon, axes);
    EXPECT_GT(ext.width, bsp::kMaxLightmapSide); // dropped by the parsers, never placed
    EXPECT_GT(ext.height, bsp::kMaxLightmapSide);
    EXPECT_GE(ext.extents[0], 0);
    EXPECT_GE(ext.extents[1], 0);
}

// fuzz_image: a JPEG whose Huffman table counts sum past 256 made stb_image 2.27 write past
// its arrays (UBSan: index 257 out of bounds for stbi_uc[257]). decodeImage now rejects the
// table before stb sees it. The fuzzer's input is fuzz/regressions/image/.
TEST(Regressions, JpegHuffmanTableOverflowIsRejected) {
    auto bytes = core::readFile(std::string(BSPV_SOURCE_DIR) +
                                "/fuzz/regressions/image/jpeg_dht_over_256_symbols.jpg");
    ASSERT_TRUE(bytes.ok()) << bytes.error().message();
    const auto img = content::decodeImage(*bytes, "dht.jpg");
    ASSERT_FALSE(img.ok());
    EXPECT_EQ(img.error().code, core::ErrorCode::BadImage);
    // A minimal JPEG header with one DHT table of 16 x 17 = 272 symbols.
    std::vector<uint8_t> jpeg = {0xFF, 0xD8, 0xFF, 0xC4, 0x01, 0x23, 0x00};
    for (int i = 0; i < 16; ++i)
        jpeg.push_back(17);
    jpeg.resize(jpeg.size() + 272, 0);
    jpeg.insert(jpeg.end(), {0xFF, 0xD9});
    const auto img2 = content::decodeImage(jpeg, "dht2.jpg");
    ASSERT_FALSE(img2.ok());
    EXPECT_EQ(img2.error().code, core::ErrorCode::BadImage);
}

} // namespace
