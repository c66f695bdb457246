#include "bsp/edge_faces.h"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

namespace {

// A 64 x 32 quad in the z = 0 plane, texture axes along x and y.
struct Quad {
    std::vector<glm::vec3> verts{{0, 0, 0}, {64, 0, 0}, {64, 32, 0}, {0, 32, 0}};
    std::vector<std::array<uint32_t, 2>> edges{{0, 0}, {0, 1}, {1, 2}, {3, 2}, {3, 0}};
    std::vector<int32_t> surfedges{1, 2, -3, 4};
    bsp::EdgeGeometry geo() const { return {verts, edges, surfedges}; }
};

} // namespace

TEST(EdgeFaces, NegativeSurfedgeReversesTheEdge) {
    Quad q;
    std::vector<glm::vec3> poly;
    ASSERT_TRUE(bsp::collectFacePolygon(q.geo(), "faces", 0, 0, 4, poly).ok());
    ASSERT_EQ(poly.size(), 4u);
    EXPECT_EQ(poly[0], q.verts[0]);
    EXPECT_EQ(poly[1], q.verts[1]);
    EXPECT_EQ(poly[2], q.verts[2]); // edge 3 is (3,2), walked backwards starts at 2
    EXPECT_EQ(poly[3], q.verts[3]);
}

TEST(EdgeFaces, BadIndicesAreErrors) {
    Quad q;
    std::vector<glm::vec3> poly;
    auto r = bsp::collectFacePolygon(q.geo(), "faces", 5, 2, 4, poly);
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error().code, core::ErrorCode::IndexOutOfRange);
    EXPECT_EQ(r.error().index, 5);
    q.surfedges[1] = -9;
    EXPECT_EQ(bsp::collectFacePolygon(q.geo(), "faces", 0, 0, 4, poly).error().code,
              core::ErrorCode::IndexOutOfRange);
    q.surfedges[1] = 2;
    q.edges[2] = {99, 2};
    EXPECT_EQ(bsp::collectFacePolygon(q.geo(), "faces", 0, 0, 4, poly).error().code,
              core::ErrorCode::IndexOutOfRange);
    EXPECT_EQ(bsp::collectFacePolygon(q.geo(), "faces", 0, 0, -1, poly).error().code,
              core::ErrorCode::LimitExceeded);
}

TEST(EdgeFaces, LightmapExtentsAsTheEngines) {
    const std::vector<glm::vec3> quad{{0, 0, 0}, {64, 0, 0}, {64, 32, 0}, {0, 32, 0}};
    bsp::TexAxes axes; // s = x, t = y
    auto e = bsp::computeLightmapExtents(quad, axes);
    EXPECT_EQ(e.texture_mins[0], 0);
    EXPECT_EQ(e.extents[0], 64);
    EXPECT_EQ(e.width, 5);
    EXPECT_EQ(e.height, 3);

    // Offsets that straddle luxel boundaries: s in [-8+3, 56+3] -> floor(-5/16) = -1,
    // ceil(59/16) = 4 -> 5 steps + 1 = 6 luxels; mins -16.
    axes.s.w = -5.0f;
    axes.t = glm::vec4(0, 0.5f, 0, 17.0f); // t in [17, 33] -> floor 1, ceil 3 -> 3 luxels
    e = bsp::computeLightmapExtents(quad, axes);
    EXPECT_EQ(e.texture_mins[0], -16);
    EXPECT_EQ(e.extents[0], 80);
    EXPECT_EQ(e.width, 6);
    EXPECT_EQ(e.texture_mins[1], 16);
    EXPECT_EQ(e.extents[1], 32);
    EXPECT_EQ(e.height, 3);

    // Negative s, exact multiples: s in [-64, 0] -> bmin -4, bmax 0 -> 5 luxels.
    axes = bsp::TexAxes{};
    axes.s = glm::vec4(-1, 0, 0, 0);
    e = bsp::computeLightmapExtents(quad, axes);
    EXPECT_EQ(e.texture_mins[0], -64);
    EXPECT_EQ(e.width, 5);
}

TEST(EdgeFaces, FanAndTextureCoordinates) {
    bsp::Map map;
    map.vertices.resize(2); // indices must be absolute
    const std::vector<glm::vec3> quad{{0, 0, 0}, {64, 0, 0}, {64, 32, 0}, {0, 32, 0}};
    bsp::Face face;
    bsp::emitFacePolygon(map, face, quad, bsp::TexAxes{}, 64.0f, 32.0f, {0, 0, 1});
    EXPECT_EQ(face.first_vertex, 2u);
    EXPECT_EQ(face.num_vertices, 4u);
    ASSERT_EQ(face.num_indices, 6u);
    EXPECT_EQ(map.indices, (std::vector<uint32_t>{2, 3, 4, 2, 4, 5}));
    EXPECT_FLOAT_EQ(map.vertices[4].uv.x, 1.0f);
    EXPECT_FLOAT_EQ(map.vertices[4].uv.y, 1.0f);
}

TEST(EdgeFaces, LightmapBlockWithStylesSideBySide) {
    bsp::Map map;
    const std::vector<glm::vec3> quad{{0, 0, 0}, {64, 0, 0}, {64, 32, 0}, {0, 32, 0}};
    bsp::Face face;
    face.styles = {0, 1, bsp::kNoStyle, bsp::kNoStyle};
    bsp::emitFacePolygon(map, face, quad, bsp::TexAxes{}, 64.0f, 32.0f, {0, 0, 1});
    const auto ext = bsp::computeLightmapExtents(quad, bsp::TexAxes{}); // 5 x 3
    std::vector<uint8_t> rgb(4 + 2 * 5 * 3 * 3);
    for (size_t i = 0; i < rgb.size(); ++i)
        rgb[i] = uint8_t(i);
    bsp::LightmapBuilder lm(64);
    ASSERT_TRUE(lm.place(map, face, ext, bsp::TexAxes{}, rgb, 4, "faces", 0).ok());
    lm.finish(map);
    ASSERT_EQ(map.lightmap_pages.size(), 1u);
    EXPECT_EQ(map.lightmap_width, 64);
    EXPECT_EQ(face.lightmap_page, 0);
    EXPECT_EQ(face.lightmap_rect.w, 10);
    EXPECT_EQ(face.lightmap_rect.h, 3);
    const auto& page = map.lightmap_pages[0].rgb;
    auto texel = [&](int x, int y) { return page[(size_t(y) * 64 + size_t(x)) * 3]; };
    EXPECT_EQ(texel(face.lightmap_rect.x, face.lightmap_rect.y), 4);
    EXPECT_EQ(texel(face.lightmap_rect.x + 5, face.lightmap_rect.y), 4 + 45); // style 1
    EXPECT_EQ(texel(face.lightmap_rect.x + 1, face.lightmap_rect.y + 2), 4 + (2 * 5 + 1) * 3);
    // lm_uv of vertex 0 is the centre of luxel (0,0) of the block.
    EXPECT_FLOAT_EQ(map.vertices[0].lm_uv.x, (face.lightmap_rect.x + 0.5f) / 64.0f);
    EXPECT_FLOAT_EQ(map.vertices[2].lm_uv.x, (face.lightmap_rect.x + 4.5f) / 64.0f);

    // Data running past the lump is read as far as it goes, the rest black, with a warning
    // (GoldSrc and QuakeSpasm read on past the lump).
    bsp::LightmapBuilder lm2(64);
    bsp::Map map2 = map;
    bsp::Face f2 = face;
    ASSERT_TRUE(lm2.place(map2, f2, ext, bsp::TexAxes{}, rgb, 10, "faces", 1).ok());
    lm2.finish(map2);
    ASSERT_EQ(map2.warnings.size(), 1u);
    EXPECT_EQ(map2.warnings.back(), "faces[1].lightofs: lightmap at 10 (2 styles of 45 bytes) "
                                    "beyond 94 bytes of lighting; read to the lump's end, the "
                                    "rest black");
    const auto& page2 = map2.lightmap_pages[size_t(f2.lightmap_page)].rgb;
    auto texel2 = [&](int x, int y) { return page2[(size_t(y) * 64 + size_t(x)) * 3]; };
    const int x0 = f2.lightmap_rect.x, y0 = f2.lightmap_rect.y;
    EXPECT_EQ(texel2(x0, y0), 10);
    EXPECT_EQ(texel2(x0 + 5, y0), 10 + 45);              // style 1 starts inside the data
    EXPECT_EQ(texel2(x0 + 5 + 2, y0 + 2), 10 + 45 + 36); // byte 91 of 94: the last luxel there
    EXPECT_EQ(texel2(x0 + 5 + 3, y0 + 2), 0);            // byte 94: past the data, black
    EXPECT_EQ(texel2(x0 + 5 + 4, y0 + 2), 0);
}

TEST(EdgeFaces, HostileAxesGiveOversizedExtentsNotOverflow) {
    const std::vector<glm::vec3> quad{{0, 0, 0}, {64, 0, 0}, {64, 32, 0}, {0, 32, 0}};
    bsp::TexAxes axes;
    axes.s = glm::vec4(1e30f, 0, 0, 0);
    auto e = bsp::computeLightmapExtents(quad, axes);
    EXPECT_GT(e.width, bsp::kMaxLightmapSide);
    axes.s = glm::vec4(std::nanf(""), 0, 0, 0);
    e = bsp::computeLightmapExtents(quad, axes);
    EXPECT_GT(e.width, bsp::kMaxLightmapSide);
}
