// Bezier patch tessellation: exact corners, crack-free shared edges, counts.
#include "bsp/patch.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <glm/geometric.hpp>

namespace {

// Irregular values (thirds, sevenths) so that any difference in the order of floating-point
// operations shows up in the low bits.
bsp::Vertex control(float x, float y, float z) {
    bsp::Vertex v;
    v.position = {x / 3.0f + 0.1f, y / 7.0f - 0.3f, z * 1.37f};
    v.uv = {x * 0.173f, y * 0.311f};
    v.lm_uv = {x / 9.0f, y / 11.0f};
    v.normal = glm::normalize(glm::vec3(0.1f * x, 0.2f, 1.0f + 0.05f * y));
    v.colour = {static_cast<uint8_t>(20 * x), static_cast<uint8_t>(30 * y), 100, 255};
    return v;
}

// A width x height grid with a bumpy surface.
std::vector<bsp::Vertex> grid(int width, int height, float x0 = 0, float y0 = 0) {
    std::vector<bsp::Vertex> g;
    for (int r = 0; r < height; ++r)
        for (int c = 0; c < width; ++c)
            g.push_back(control(x0 + float(c), y0 + float(r), float((c * 7 + r * 3) % 5)));
    return g;
}

bool sameBits(const bsp::Vertex& a, const bsp::Vertex& b) {
    return std::memcmp(&a.position, &b.position, sizeof a.position) == 0 &&
           std::memcmp(&a.uv, &b.uv, sizeof a.uv) == 0 &&
           std::memcmp(&a.lm_uv, &b.lm_uv, sizeof a.lm_uv) == 0 &&
           std::memcmp(&a.normal, &b.normal, sizeof a.normal) == 0 && a.colour == b.colour;
}

} // namespace

TEST(Patch, CornersAndSubPatchCornersAreControlPoints) {
    const int w = 5, h = 7, level = 6;
    const auto ctrl = grid(w, h);
    const bsp::PatchMesh mesh = bsp::tessellatePatch(ctrl, w, h, level);
    const size_t cols = size_t((w - 1) / 2 * level + 1);
    ASSERT_EQ(mesh.vertices.size(), cols * size_t((h - 1) / 2 * level + 1));
    for (int r = 0; r < h; r += 2)
        for (int c = 0; c < w; c += 2) {
            const bsp::Vertex& v =
                mesh.vertices[size_t(r / 2 * level) * cols + size_t(c / 2 * level)];
            const bsp::Vertex& k = ctrl[size_t(r * w + c)];
            EXPECT_EQ(v.position, k.position) << r << "," << c;
            EXPECT_EQ(v.uv, k.uv);
            EXPECT_EQ(v.lm_uv, k.lm_uv);
            EXPECT_EQ(v.colour, k.colour);
            EXPECT_NEAR(glm::length(v.normal - k.normal), 0.0f, 1e-6f);
        }
}

TEST(Patch, InterpolatesAndRenormalises) {
    // A flat 3x3 grid with linear spacing is its own tessellation: the middle is the middle.
    std::vector<bsp::Vertex> ctrl;
    for (int r = 0; r < 3; ++r)
        for (int c = 0; c < 3; ++c) {
            bsp::Vertex v;
            v.position = {float(c) * 10, float(r) * 10, 0};
            v.uv = {float(c), float(r)};
            v.normal = c == 1 ? glm::vec3(0, 0, 1) : glm::normalize(glm::vec3(c - 1.0f, 0, 1));
            v.colour = {static_cast<uint8_t>(c * 100), 0, 0, 255};
            ctrl.push_back(v);
        }
    const bsp::PatchMesh mesh = bsp::tessellatePatch(ctrl, 3, 3, 4);
    ASSERT_EQ(mesh.vertices.size(), 25u);
    const bsp::Vertex& mid = mesh.vertices[12];
    EXPECT_EQ(mid.position, glm::vec3(10, 10, 0));
    EXPECT_EQ(mid.uv, glm::vec2(1, 1));
    EXPECT_EQ(mid.colour.r, 100);
    const bsp::Vertex& quarter = mesh.vertices[11]; // u = 0.25 on the middle row
    EXPECT_FLOAT_EQ(quarter.position.x, 5.0f);
    for (const bsp::Vertex& v : mesh.vertices)
        EXPECT_NEAR(glm::length(v.normal), 1.0f, 1e-5f);
}

TEST(Patch, SharedEdgeIsBitIdentical) {
    // Patch A (3x5) and three neighbours sharing A's last column:
    //  B: same direction, as B's first column;
    //  C: reversed, as C's first row (different axis and direction);
    //  D: reversed, as D's last column.
    const int level = 7;
    const auto a = grid(3, 5);
    std::vector<bsp::Vertex> edge; // A's column 2, top to bottom
    for (int r = 0; r < 5; ++r)
        edge.push_back(a[size_t(r * 3 + 2)]);

    auto b = grid(5, 5, 10, 10);
    for (int r = 0; r < 5; ++r)
        b[size_t(r * 5)] = edge[size_t(r)];
    auto c = grid(5, 3, 20, 20);
    for (int col = 0; col < 5; ++col)
        c[size_t(col)] = edge[size_t(4 - col)];
    auto d = grid(3, 5, 30, 30);
    for (int r = 0; r < 5; ++r)
        d[size_t(r * 3 + 2)] = edge[size_t(4 - r)];

    const auto ma = bsp::tessellatePatch(a, 3, 5, level);
    const auto mb = bsp::tessellatePatch(b, 5, 5, level);
    const auto mc = bsp::tessellatePatch(c, 5, 3, level);
    const auto md = bsp::tessellatePatch(d, 3, 5, level);
    const size_t n = 2 * level + 1; // vertices along the shared edge
    const size_t a_cols = level + 1, b_cols = 2 * level + 1, d_cols = level + 1;
    for (size_t i = 0; i < n; ++i) {
        const bsp::Vertex& va = ma.vertices[i * a_cols + (a_cols - 1)];
        EXPECT_TRUE(sameBits(va, mb.vertices[i * b_cols])) << "B at " << i;
        EXPECT_TRUE(sameBits(va, mc.vertices[n - 1 - i])) << "C at " << i;
        EXPECT_TRUE(sameBits(va, md.vertices[(n - 1 - i) * d_cols + (d_cols - 1)])) << "D at " << i;
    }
}

TEST(Patch, TriangleCounts) {
    EXPECT_EQ(bsp::patchTriangleCount(3, 3, 1), 2u);
    EXPECT_EQ(bsp::patchTriangleCount(3, 3, 8), 128u);
    EXPECT_EQ(bsp::patchTriangleCount(5, 3, 4), 64u); // 8 x 4 quads
    EXPECT_EQ(bsp::patchVertexCount(5, 3, 4), 45u);
    for (int w : {3, 5, 9})
        for (int h : {3, 7})
            for (int level : {1, 2, 5, 16}) {
                const auto ctrl = grid(w, h);
                const auto mesh = bsp::tessellatePatch(ctrl, w, h, level);
                EXPECT_EQ(mesh.indices.size(), 3 * bsp::patchTriangleCount(w, h, level));
                EXPECT_EQ(mesh.vertices.size(), bsp::patchVertexCount(w, h, level));
                for (uint32_t i : mesh.indices)
                    ASSERT_LT(i, mesh.vertices.size());
            }
}

TEST(Patch, LevelIsClamped) {
    EXPECT_EQ(bsp::patchTriangleCount(3, 3, 0), bsp::patchTriangleCount(3, 3, 1));
    EXPECT_EQ(bsp::patchTriangleCount(3, 3, -5), 2u);
    EXPECT_EQ(bsp::patchTriangleCount(3, 3, 1000),
              bsp::patchTriangleCount(3, 3, bsp::kMaxPatchLevel));
    EXPECT_EQ(bsp::patchTriangleCount(3, 3, 1000), size_t(2 * 64 * 64));
    // The largest accepted grid at the largest level stays countable without tessellating.
    EXPECT_EQ(bsp::patchTriangleCount(65, 65, 64), size_t(2) * 2048 * 2048);
}

TEST(Patch, InvalidSizesGiveNothing) {
    const auto ctrl = grid(5, 5);
    for (auto [w, h] : {std::pair{4, 3}, {3, 4}, {1, 3}, {3, 1}, {67, 3}, {0, 0}, {-3, 3}}) {
        EXPECT_EQ(bsp::patchTriangleCount(w, h, 4), 0u) << w << "x" << h;
        EXPECT_TRUE(bsp::tessellatePatch(ctrl, w, h, 4).vertices.empty());
    }
    // Too few control points for the size.
    EXPECT_TRUE(bsp::tessellatePatch(std::span(ctrl).first(8), 3, 3, 4).vertices.empty());
}

TEST(Patch, WindingMatchesStoredNormals) {
    // A flat grid facing +Z, laid out with columns along +X and rows along +Y: Quake 3 draws
    // clockwise-from-the-front triangles, so each triangle's (b - a) x (c - a) points away
    // from the normal.
    std::vector<bsp::Vertex> ctrl;
    for (int r = 0; r < 3; ++r)
        for (int c = 0; c < 3; ++c) {
            bsp::Vertex v;
            v.position = {float(c), float(r), 0};
            v.normal = {0, 0, 1};
            ctrl.push_back(v);
        }
    const auto mesh = bsp::tessellatePatch(ctrl, 3, 3, 3);
    for (size_t t = 0; t < mesh.indices.size(); t += 3) {
        const glm::vec3 a = mesh.vertices[mesh.indices[t]].position;
        const glm::vec3 b = mesh.vertices[mesh.indices[t + 1]].position;
        const glm::vec3 c = mesh.vertices[mesh.indices[t + 2]].position;
        EXPECT_LT(glm::cross(b - a, c - a).z, 0.0f);
    }
}
