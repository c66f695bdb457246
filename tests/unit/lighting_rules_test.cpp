// The per-game rules the parsers write into bsp::Map (docs/fidelity.md cites the engines):
// faces without lightmap data, the light style scale, the saturation limit and the standing
// eye height, on hand-built Quake 1 and Quake 2 files.
#include "bsp/load.h"
#include "support/q1_builder.h"
#include "support/q2_builder.h"

#include <gtest/gtest.h>

#include <cstring>

namespace {

// Every vertex colour of face `f`, which must all be `rgb`.
void expectFaceColour(const bsp::Map& m, size_t f, uint8_t rgb) {
    const bsp::Face& face = m.faces[f];
    ASSERT_GT(face.num_vertices, 0u);
    for (uint32_t i = 0; i < face.num_vertices; ++i)
        EXPECT_EQ(m.vertices[face.first_vertex + i].colour, glm::u8vec4(rgb, rgb, rgb, 255))
            << "face " << f << " vertex " << i;
}

bsp::Map loadOrFail(const std::vector<uint8_t>& bytes, const char* name) {
    auto r = bsp::loadMap(bytes, name);
    EXPECT_TRUE(r.ok()) << (r.ok() ? "" : r.error().message());
    return r.ok() ? std::move(*r) : bsp::Map{};
}

} // namespace

TEST(LightingRules, Quake1LitFaceKeepsItsLuxels) {
    const bsp::Map m = loadOrFail(q1test::buildQ1(), "q1_two_faces.bsp");
    ASSERT_EQ(m.faces.size(), 2u);
    EXPECT_EQ(m.format, bsp::Format::Quake1);
    // Both faces carry data: 5x5 luxels each (64 texels / 16 + 1), grey 128 in RGB.
    for (size_t f = 0; f < 2; ++f) {
        const bsp::Face& face = m.faces[f];
        ASSERT_EQ(face.lightmap_page, 0) << f;
        EXPECT_EQ(face.lightmap_rect.w, 5);
        EXPECT_EQ(face.lightmap_rect.h, 5);
        const auto& page = m.lightmap_pages[0].rgb;
        const size_t at =
            (size_t(face.lightmap_rect.y) * size_t(m.lightmap_width) + face.lightmap_rect.x) * 3;
        EXPECT_EQ(page[at], 128);
        EXPECT_EQ(page[at + 2], 128);
    }
    EXPECT_EQ(m.unlit_faces, bsp::UnlitFaces::Black);
    EXPECT_EQ(m.unlit_face_count, 0u);
}

TEST(LightingRules, Quake1FaceWithoutSamplesIsBlackInALitMap) {
    q1test::Q1Options o;
    o.face1_lightofs = -1;
    const bsp::Map m = loadOrFail(q1test::buildQ1(o), "q1_lightofs.bsp");
    ASSERT_EQ(m.faces.size(), 2u);
    EXPECT_EQ(m.faces[0].lightmap_page, 0);
    EXPECT_EQ(m.faces[1].lightmap_page, -1);
    expectFaceColour(m, 1, 0);
    EXPECT_EQ(m.unlit_faces, bsp::UnlitFaces::Black);
    EXPECT_EQ(m.unlit_face_count, 1u);
}

TEST(LightingRules, Quake1FaceWithoutStylesIsBlackInALitMap) {
    // QuakeSpasm R_BuildLightMap adds no lightmap when styles[0] is 255, whatever lightofs says.
    q1test::Q1Options o;
    o.face1_style0 = 255;
    const bsp::Map m = loadOrFail(q1test::buildQ1(o), "q1_styles.bsp");
    EXPECT_EQ(m.faces[1].lightmap_page, -1);
    expectFaceColour(m, 1, 0);
    EXPECT_EQ(m.unlit_face_count, 1u);
}

TEST(LightingRules, Quake1MapWithoutLightingIsFullBright) {
    q1test::Q1Options o;
    o.lighting = false;
    const bsp::Map m = loadOrFail(q1test::buildQ1(o), "q1_unlit.bsp");
    EXPECT_TRUE(m.lightmap_pages.empty());
    for (size_t f = 0; f < 2; ++f) {
        EXPECT_EQ(m.faces[f].lightmap_page, -1);
        expectFaceColour(m, f, 255);
    }
    EXPECT_EQ(m.unlit_faces, bsp::UnlitFaces::Fullbright);
    EXPECT_EQ(m.unlit_face_count, 2u);
}

TEST(LightingRules, Quake1StyleScaleAndSaturation) {
    const bsp::Map m = loadOrFail(q1test::buildQ1(), "q1_two_faces.bsp");
    // 'm' = ('m' - 'a') * 22 = 264 of 256; the 8-bit lightmap saturates before the 2x overbright.
    EXPECT_EQ(m.light_style_scale, 1.03125f);
    EXPECT_EQ(m.light_max, 2.0f);
    EXPECT_EQ(m.eye_height, 22.0f);            // QuakeC PutClientInServer: view_ofs '0 0 22'
    EXPECT_EQ(m.void_colour, glm::vec3(0.0f)); // QuakeSpasm shows black where nothing is drawn

    // A luxel of 128 under style 'm' and the 2x overbright, as the shader computes it:
    // 128 / 255 * 2 * 264 / 256 = 264 / 255 (QuakeSpasm: (128 * 264) >> 8 = 132, doubled).
    const float light = 128.0f / 255.0f * 2.0f * m.light_style_scale;
    EXPECT_FLOAT_EQ(light, 264.0f / 255.0f);
    EXPECT_FLOAT_EQ(light, 2.0f * 132.0f / 255.0f);
}

TEST(LightingRules, Quake2FaceWithoutSamplesIsFullBright) {
    // buildQ2's face 0 is lit at lightofs 0 (face 1 is TRANS33, never lit); give it none.
    std::vector<uint8_t> bytes = q2test::buildQ2();
    uint32_t faces_ofs;
    std::memcpy(&faces_ofs, bytes.data() + 8 + 6 * 8, 4);
    const int32_t none = -1;
    std::memcpy(bytes.data() + faces_ofs + 16, &none, 4); // face 0 lightofs
    const bsp::Map m = loadOrFail(bytes, "q2_lightofs.bsp");
    ASSERT_EQ(m.faces.size(), 2u);
    EXPECT_EQ(m.faces[0].lightmap_page, -1);
    expectFaceColour(m, 0, 255);
    EXPECT_EQ(m.unlit_faces, bsp::UnlitFaces::Fullbright);
    EXPECT_EQ(m.unlit_face_count, 1u);
    // Quake 2's 'm' is exactly 1 and its lightmaps are not clamped per channel here.
    EXPECT_EQ(m.light_style_scale, 1.0f);
    EXPECT_EQ(m.light_max, 0.0f);
    EXPECT_EQ(m.eye_height, 22.0f); // p_client.c PutClientInServer: viewheight 22
    EXPECT_FALSE(m.void_colour);    // not measured: the viewer's background
    // A luxel of 128 under the 2x overbright: 256 / 255.
    EXPECT_FLOAT_EQ(128.0f / 255.0f * 2.0f * m.light_style_scale, 256.0f / 255.0f);
}

TEST(LightingRules, Quake2LitFaceIsNotCountedUnlit) {
    const bsp::Map m = loadOrFail(q2test::buildQ2(), "q2.bsp");
    EXPECT_EQ(m.faces[0].lightmap_page, 0);
    EXPECT_EQ(m.unlit_face_count, 0u);
}
