#include "bsp/tree.h"
#include "bsp/vis.h"

#include <gtest/gtest.h>

#include <vector>

TEST(VisRow, DecodesLiteralsAndZeroRuns) {
    const uint8_t in[] = {0xff, 0x00, 0x03, 0x81, 0x00, 0x02};
    std::vector<uint8_t> row(7, 0xaa);
    ASSERT_TRUE(bsp::decompressVisRow(core::ByteReader(in), 0, row));
    EXPECT_EQ(row, (std::vector<uint8_t>{0xff, 0, 0, 0, 0x81, 0, 0}));
}

TEST(VisRow, RunThatWouldOverflowTheRowStopsAtItsEnd) {
    // Row of 4 bytes; the run claims 200 zero bytes. Bytes after the row must be untouched.
    const uint8_t in[] = {0x01, 0x00, 200, 0x07};
    std::vector<uint8_t> buf(8, 0xaa);
    ASSERT_TRUE(bsp::decompressVisRow(core::ByteReader(in), 0, std::span<uint8_t>(buf.data(), 4)));
    EXPECT_EQ(buf, (std::vector<uint8_t>{1, 0, 0, 0, 0xaa, 0xaa, 0xaa, 0xaa}));
}

TEST(VisRow, TruncatedInputFailsAndZeroesTheRest) {
    const uint8_t in[] = {0x05, 0x00};
    std::vector<uint8_t> row(4, 0xaa);
    EXPECT_FALSE(bsp::decompressVisRow(core::ByteReader(in), 0, row));
    EXPECT_EQ(row, (std::vector<uint8_t>{5, 0, 0, 0}));
    EXPECT_FALSE(bsp::decompressVisRow(core::ByteReader(in), 10, row));
}

TEST(Vis, VisibleBitsAndAbsentVis) {
    bsp::Vis vis;
    EXPECT_TRUE(vis.visible(0, 5)); // no vis: everything visible
    vis.num_clusters = 3;
    vis.row_size = 1;
    vis.rows = {0b011, 0b010, 0b100};
    EXPECT_TRUE(vis.visible(0, 1));
    EXPECT_FALSE(vis.visible(0, 2));
    EXPECT_FALSE(vis.visible(1, 0));
    EXPECT_TRUE(vis.visible(2, 2));
}

TEST(Tree, PointLeafWalksPlanes) {
    bsp::Map map;
    map.planes.push_back({glm::vec3(1, 0, 0), 0.0f});
    bsp::Node n;
    n.plane = 0;
    n.children = {-1, -2}; // front: leaf 0, back: leaf 1
    map.nodes.push_back(n);
    map.leaves.resize(2);
    EXPECT_EQ(bsp::pointLeaf(map, glm::vec3(5, 0, 0)), 0);
    EXPECT_EQ(bsp::pointLeaf(map, glm::vec3(-5, 0, 0)), 1);
}

TEST(Tree, PointLeafSurvivesCycles) {
    bsp::Map map;
    map.planes.push_back({glm::vec3(1, 0, 0), 0.0f});
    bsp::Node n;
    n.plane = 0;
    n.children = {0, 0}; // points at itself
    map.nodes.push_back(n);
    map.leaves.resize(1);
    EXPECT_EQ(bsp::pointLeaf(map, glm::vec3(5, 0, 0)), -1);
}
