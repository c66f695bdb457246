// Hand-built Quake 2 maps (two rooms, a texinfo animation chain, a vis lump written by hand)
// and truncation of real small maps: every prefix must give a clean error, never a crash.
#include "bsp/load.h"
#include "core/file.h"
#include "support/q2_builder.h"

#include <gtest/gtest.h>

#include <cstring>
#include <filesystem>
#include <vector>

using q2test::buildQ2;

TEST(Quake2Synthetic, HandBuiltVisAndAnimationChain) {
    const auto bytes = buildQ2();
    auto r = bsp::loadMap(bytes, "two_rooms.bsp");
    ASSERT_TRUE(r.ok()) << r.error().message();
    ASSERT_EQ(r->vis.num_clusters, 2);
    EXPECT_TRUE(r->vis.visible(0, 0));
    EXPECT_FALSE(r->vis.visible(0, 1));
    EXPECT_TRUE(r->vis.visible(1, 0));
    EXPECT_TRUE(r->vis.visible(1, 1));
    EXPECT_EQ(r->leaves[0].cluster, -1);
    EXPECT_EQ(r->leaves[2].cluster, 1);
    ASSERT_EQ(r->materials.size(), 2u);
    EXPECT_EQ(r->materials[0].anim_next, 1);
    EXPECT_EQ(r->materials[1].anim_next, 0);
    EXPECT_FLOAT_EQ(r->materials[0].anim_fps, 2.0f);
    EXPECT_EQ(r->materials[0].name, "e1u1/Anim1");
    EXPECT_TRUE(r->materials[0].flags & bsp::kSurfFlowing);
    EXPECT_TRUE(r->materials[1].flags & bsp::kSurfTranslucent);
    EXPECT_FLOAT_EQ(r->materials[1].alpha, 0.333f); // yquake2 GL3_DrawAlphaSurfaces
    // Face 0 is lit (5x5 luxels), face 1 is TRANS33 and so unlit.
    EXPECT_EQ(r->faces[0].lightmap_page, 0);
    EXPECT_EQ(r->faces[0].lightmap_rect.w, 5);
    EXPECT_EQ(r->faces[1].lightmap_page, -1);
    EXPECT_EQ(r->faces[1].num_indices, 6u);
    EXPECT_EQ(r->areas.size(), 2u);
    // Face 1 is built from edges 5, 6, 7 and edge 2 reversed: (1,2,3,4).
    const auto& f1 = r->faces[1];
    EXPECT_EQ(r->vertices[f1.first_vertex + 3].position, glm::vec3(64, 64, 0));
}

// An animation link or a cluster out of range only drops that feature (tests/unit/
// tolerance_test.cpp); what breaks the world is refused with the exact code.
TEST(Quake2Synthetic, CorruptValuesGiveExactCodes) {
    // A lump pointing past the end of the file.
    auto bytes = buildQ2();
    const uint32_t huge = 0x7fffffff;
    std::memcpy(bytes.data() + 8 + 6 * 8 + 4, &huge, 4); // faces length
    auto oob = bsp::loadMap(bytes, "x.bsp");
    ASSERT_FALSE(oob.ok());
    EXPECT_EQ(oob.error().code, core::ErrorCode::LumpOutOfBounds);
    // Node child cycle: node 0's child pointing to itself.
    bytes = buildQ2();
    uint32_t nodes_ofs;
    std::memcpy(&nodes_ofs, bytes.data() + 8 + 4 * 8, 4);
    const int32_t self = 0;
    std::memcpy(bytes.data() + nodes_ofs + 4, &self, 4);
    auto cyc = bsp::loadMap(bytes, "x.bsp");
    ASSERT_FALSE(cyc.ok());
    EXPECT_EQ(cyc.error().code, core::ErrorCode::BadTree);
}

namespace {
void everyPrefixFailsCleanly(const std::vector<uint8_t>& bytes) {
    for (size_t n = 0; n < bytes.size(); ++n) {
        auto r = bsp::loadMap(std::span<const uint8_t>(bytes.data(), n), "prefix.bsp");
        ASSERT_FALSE(r.ok()) << "prefix " << n;
    }
}
} // namespace

// Zero bytes are an empty file, said as such (not "unrecognised header"); one byte is a header
// nobody recognises.
TEST(Truncation, EmptyFileIsSaidToBeEmpty) {
    auto empty = bsp::loadMap(std::span<const uint8_t>(), "empty.bsp");
    ASSERT_FALSE(empty.ok());
    EXPECT_EQ(empty.error().code, core::ErrorCode::EmptyFile);
    EXPECT_EQ(empty.error().file, "empty.bsp");
    const std::vector<uint8_t> one{0x1d};
    auto short_file = bsp::loadMap(one, "one.bsp");
    ASSERT_FALSE(short_file.ok());
    EXPECT_EQ(short_file.error().code, core::ErrorCode::UnknownFormat);
}

TEST(Truncation, EveryPrefixOfSyntheticQ2) {
    everyPrefixFailsCleanly(buildQ2());
}

TEST(Truncation, EveryPrefixOfSmallRealMaps) {
    for (const char* m : {"q1/ew_q1_cube.bsp", "hl/freehl_test_weapons.bsp"}) {
        auto bytes = core::readFile(std::filesystem::path(BSPV_SHARED_MAPS_DIR) / m);
        ASSERT_TRUE(bytes.ok()) << m;
        // BSPX follows the last lump: prefixes that only cut it still load (its directory is
        // then ignored); every prefix that cuts a regular lump must fail.
        uint64_t lumps_end = 4 + 15 * 8;
        for (int i = 0; i < 15; ++i) {
            uint32_t ofs, len;
            std::memcpy(&ofs, bytes->data() + 4 + i * 8, 4);
            std::memcpy(&len, bytes->data() + 8 + i * 8, 4);
            lumps_end = std::max<uint64_t>(lumps_end, uint64_t(ofs) + len);
        }
        for (size_t n = 0; n < bytes->size(); ++n) {
            auto r = bsp::loadMap(std::span<const uint8_t>(bytes->data(), n), "prefix.bsp");
            if (n < lumps_end) {
                ASSERT_FALSE(r.ok()) << m << " prefix " << n;
            }
        }
    }
    auto q2 = core::readFile(std::filesystem::path(BSPV_SHARED_MAPS_DIR) / "q2/aq_credits.bsp");
    ASSERT_TRUE(q2.ok());
    everyPrefixFailsCleanly(*q2);
}

// Quake 2 re-release "QBSP": the same maps rewritten with 32-bit fields must load to the same
// model; indices past 65535 (only the wide layout holds them) must load too.
namespace {

void expectSameModel(const bsp::Map& a, const bsp::Map& b) {
    ASSERT_EQ(a.faces.size(), b.faces.size());
    ASSERT_EQ(a.vertices.size(), b.vertices.size());
    EXPECT_EQ(a.indices, b.indices);
    for (size_t i = 0; i < a.vertices.size(); ++i) {
        ASSERT_EQ(a.vertices[i].position, b.vertices[i].position) << "vertex " << i;
        ASSERT_EQ(a.vertices[i].uv, b.vertices[i].uv) << "vertex " << i;
        ASSERT_EQ(a.vertices[i].lm_uv, b.vertices[i].lm_uv) << "vertex " << i;
    }
    for (size_t i = 0; i < a.faces.size(); ++i) {
        const bsp::Face &fa = a.faces[i], &fb = b.faces[i];
        ASSERT_EQ(fa.material, fb.material) << "face " << i;
        ASSERT_EQ(fa.lightmap_page, fb.lightmap_page) << "face " << i;
        ASSERT_EQ(fa.styles, fb.styles) << "face " << i;
        ASSERT_EQ(fa.first_index, fb.first_index) << "face " << i;
        ASSERT_EQ(fa.num_indices, fb.num_indices) << "face " << i;
        ASSERT_EQ(fa.normal, fb.normal) << "face " << i;
        ASSERT_EQ(fa.submodel, fb.submodel) << "face " << i;
    }
    ASSERT_EQ(a.leaves.size(), b.leaves.size());
    for (size_t i = 0; i < a.leaves.size(); ++i) {
        const bsp::Leaf &la = a.leaves[i], &lb = b.leaves[i];
        ASSERT_EQ(la.cluster, lb.cluster) << "leaf " << i;
        ASSERT_EQ(la.area, lb.area) << "leaf " << i;
        ASSERT_EQ(la.contents, lb.contents) << "leaf " << i;
        ASSERT_EQ(la.mins, lb.mins) << "leaf " << i;
        ASSERT_EQ(la.maxs, lb.maxs) << "leaf " << i;
        ASSERT_EQ(la.num_leaf_faces, lb.num_leaf_faces) << "leaf " << i;
    }
    ASSERT_EQ(a.nodes.size(), b.nodes.size());
    for (size_t i = 0; i < a.nodes.size(); ++i) {
        ASSERT_EQ(a.nodes[i].plane, b.nodes[i].plane) << "node " << i;
        ASSERT_EQ(a.nodes[i].children, b.nodes[i].children) << "node " << i;
        ASSERT_EQ(a.nodes[i].mins, b.nodes[i].mins) << "node " << i;
        ASSERT_EQ(a.nodes[i].maxs, b.nodes[i].maxs) << "node " << i;
    }
    ASSERT_EQ(a.materials.size(), b.materials.size());
    for (size_t i = 0; i < a.materials.size(); ++i)
        EXPECT_EQ(a.materials[i].name, b.materials[i].name);
    EXPECT_EQ(a.vis.rows, b.vis.rows);
    EXPECT_EQ(a.entity_text, b.entity_text);
    EXPECT_EQ(a.skybox, b.skybox);
    EXPECT_EQ(a.areas.size(), b.areas.size());
    ASSERT_EQ(a.lightmap_pages.size(), b.lightmap_pages.size());
    for (size_t i = 0; i < a.lightmap_pages.size(); ++i)
        EXPECT_EQ(a.lightmap_pages[i].rgb, b.lightmap_pages[i].rgb);
}

const bsp::LumpInfo* findLump(const bsp::Map& m, std::string_view name) {
    for (const auto& l : m.lumps)
        if (l.name == name)
            return &l;
    return nullptr;
}

} // namespace

TEST(Quake2Qbsp, SyntheticLoadsToTheSameModelAsIbsp) {
    const auto ibsp = buildQ2();
    auto a = bsp::loadMap(ibsp, "two_rooms.bsp");
    ASSERT_TRUE(a.ok()) << a.error().message();
    const auto qbsp = qbsp_test::ibspToQbsp(ibsp);
    EXPECT_EQ(bsp::detect(qbsp).format, bsp::Format::Quake2Qbsp);
    auto b = bsp::loadMap(qbsp, "two_rooms_qbsp.bsp");
    ASSERT_TRUE(b.ok()) << b.error().message();
    EXPECT_EQ(b->format, bsp::Format::Quake2Qbsp);
    EXPECT_EQ(bsp::formatName(b->format), "Quake 2 QBSP");
    expectSameModel(*a, *b);
    // The wide record sizes are what the directory reports.
    ASSERT_NE(findLump(*b, "nodes"), nullptr);
    EXPECT_EQ(findLump(*b, "nodes")->record_size, 44u);
    EXPECT_EQ(findLump(*b, "faces")->record_size, 28u);
    EXPECT_EQ(findLump(*b, "leafs")->record_size, 52u);
    EXPECT_EQ(findLump(*b, "edges")->record_size, 8u);
    EXPECT_EQ(findLump(*b, "leaffaces")->record_size, 4u);
    EXPECT_EQ(findLump(*a, "faces")->record_size, 20u);
}

TEST(Quake2Qbsp, IndicesBeyond16BitsLoad) {
    // 70000 dummy vertices before the real ones: every edge names a vertex > 65535; 65540
    // leaffaces before the real ones: every leaf's firstleafface is > 65535.
    qbsp_test::ConvertOptions opt;
    opt.vertex_padding = 70000;
    opt.leafface_padding = 65540;
    const auto ibsp = buildQ2();
    auto a = bsp::loadMap(ibsp, "two_rooms.bsp");
    ASSERT_TRUE(a.ok()) << a.error().message();
    auto b = bsp::loadMap(qbsp_test::ibspToQbsp(ibsp, opt), "wide.bsp");
    ASSERT_TRUE(b.ok()) << b.error().message();
    EXPECT_EQ(b->leaf_faces.size(), a->leaf_faces.size() + 65540);
    // Same geometry; the leaves' ranges are shifted past the padding.
    ASSERT_EQ(b->leaves.size(), a->leaves.size());
    for (size_t i = 1; i < a->leaves.size(); ++i) {
        EXPECT_EQ(b->leaves[i].first_leaf_face, a->leaves[i].first_leaf_face + 65540);
        EXPECT_EQ(b->leaf_faces[b->leaves[i].first_leaf_face],
                  a->leaf_faces[a->leaves[i].first_leaf_face]);
    }
    ASSERT_EQ(a->vertices.size(), b->vertices.size());
    for (size_t i = 0; i < a->vertices.size(); ++i)
        EXPECT_EQ(a->vertices[i].position, b->vertices[i].position);
    EXPECT_EQ(a->indices, b->indices);
}

TEST(Quake2Qbsp, RealMapsLoadToTheSameModelAsIbsp) {
    for (const char* m : {"q2/aq_credits.bsp", "q2/aq_wizs.bsp"}) {
        auto bytes = core::readFile(std::filesystem::path(BSPV_SHARED_MAPS_DIR) / m);
        ASSERT_TRUE(bytes.ok()) << m;
        auto a = bsp::loadMap(*bytes, m);
        ASSERT_TRUE(a.ok()) << a.error().message();
        auto b = bsp::loadMap(qbsp_test::ibspToQbsp(*bytes), m);
        ASSERT_TRUE(b.ok()) << b.error().message();
        SCOPED_TRACE(m);
        expectSameModel(*a, *b);
    }
}

TEST(Quake2Qbsp, CorruptLumpsGiveLumpAndIndexErrors) {
    const auto good = qbsp_test::ibspToQbsp(buildQ2());
    auto lumpAt = [](const std::vector<uint8_t>& b, int lump) {
        uint32_t ofs, len;
        std::memcpy(&ofs, b.data() + 8 + lump * 8, 4);
        std::memcpy(&len, b.data() + 12 + lump * 8, 4);
        return std::pair<uint32_t, uint32_t>(ofs, len);
    };
    // A node lump holding IBSP-sized records (28 bytes) is not a multiple of 44.
    auto bytes = good;
    const uint32_t short_len = 28;
    std::memcpy(bytes.data() + 12 + 4 * 8, &short_len, 4);
    auto r = bsp::loadMap(bytes, "x.bsp");
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error().code, core::ErrorCode::LumpSize);
    EXPECT_EQ(r.error().lump, "nodes");
    // A leafface naming face 70000 (two faces exist).
    bytes = good;
    const uint32_t far_face = 70000;
    std::memcpy(bytes.data() + lumpAt(bytes, 9).first, &far_face, 4);
    r = bsp::loadMap(bytes, "x.bsp");
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error().code, core::ErrorCode::IndexOutOfRange);
    EXPECT_EQ(r.error().lump, "leaffaces");
    // A face whose 32-bit planenum is 65536 + 0: IBSP would have wrapped it to plane 0.
    bytes = good;
    const uint32_t wide_plane = 65536;
    std::memcpy(bytes.data() + lumpAt(bytes, 6).first, &wide_plane, 4);
    r = bsp::loadMap(bytes, "x.bsp");
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error().code, core::ErrorCode::IndexOutOfRange);
    EXPECT_EQ(r.error().lump, "faces");
    EXPECT_EQ(r.error().field, "planenum");
    // A leaf's firstleafface + numleaffaces past the leaffaces.
    bytes = good;
    const uint32_t far_first = 65536;
    std::memcpy(bytes.data() + lumpAt(bytes, 8).first + 52 + 36, &far_first, 4);
    r = bsp::loadMap(bytes, "x.bsp");
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error().code, core::ErrorCode::IndexOutOfRange);
    EXPECT_EQ(r.error().lump, "leafs");
}

TEST(Truncation, EveryPrefixOfSyntheticQbsp) {
    everyPrefixFailsCleanly(qbsp_test::ibspToQbsp(buildQ2()));
}

TEST(Quake2Qbsp, OtherIbspAndQbspVersionsAreUnsupported) {
    // UFO:Alien Invasion (IBSP 78/79), Daikatana (IBSP 41), SiN-like and unknown QBSP versions.
    for (const char* magic : {"IBSP", "QBSP"})
        for (int32_t version : {41, 78, 79, 37, 39}) {
            auto bytes = buildQ2();
            std::memcpy(bytes.data(), magic, 4);
            std::memcpy(bytes.data() + 4, &version, 4);
            auto r = bsp::loadMap(bytes, "other.bsp");
            ASSERT_FALSE(r.ok()) << magic << " " << version;
            EXPECT_EQ(r.error().code, core::ErrorCode::UnsupportedVersion);
            EXPECT_NE(r.error().message().find(std::string("unsupported ") + magic + " version " +
                                               std::to_string(version)),
                      std::string::npos)
                << r.error().message();
        }
}
