// The per-game lighting rules (game/*.cpp, docs/fidelity.md cites the engines) over the facts the
// parsers record: faces without lightmap data, the light style scale, the saturation limit and
// the standing eye height, on hand-built Quake 1 and Quake 2 files.
#include "bsp/load.h"
#include "game/profile.h"
#include "support/q1_builder.h"
#include "support/q2_builder.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <utility>

namespace {

// Every vertex colour of face `f` as the parser stores it, which must all be `rgb`.
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

// A face the file has no lightmap data for: no page, marked unlit (the game's rule lights it),
// its vertices left white by the parser.
void expectUnlit(const bsp::Map& m, size_t f) {
    EXPECT_EQ(m.faces[f].lightmap_page, -1) << "face " << f;
    EXPECT_TRUE(m.faces[f].unlit) << "face " << f;
    expectFaceColour(m, f, 255);
}

game::LightRule ruleOf(const bsp::Map& m) {
    return game::profileFor(m).rules.light;
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
    EXPECT_TRUE(m.has_light_data);
    EXPECT_EQ(ruleOf(m).unlit_faces, game::UnlitFaces::Black);
    EXPECT_EQ(m.unlit_face_count, 0u);
}

TEST(LightingRules, Quake1FaceWithoutSamplesIsBlackInALitMap) {
    q1test::Q1Options o;
    o.face1_lightofs = -1;
    const bsp::Map m = loadOrFail(q1test::buildQ1(o), "q1_lightofs.bsp");
    ASSERT_EQ(m.faces.size(), 2u);
    EXPECT_EQ(m.faces[0].lightmap_page, 0);
    EXPECT_FALSE(m.faces[0].unlit);
    expectUnlit(m, 1);
    EXPECT_EQ(ruleOf(m).unlit_faces, game::UnlitFaces::Black);
    EXPECT_EQ(m.unlit_face_count, 1u);
}

TEST(LightingRules, Quake1FaceWithoutStylesIsBlackInALitMap) {
    // QuakeSpasm R_BuildLightMap adds no lightmap when styles[0] is 255, whatever lightofs says.
    q1test::Q1Options o;
    o.face1_style0 = 255;
    const bsp::Map m = loadOrFail(q1test::buildQ1(o), "q1_styles.bsp");
    expectUnlit(m, 1);
    EXPECT_EQ(ruleOf(m).unlit_faces, game::UnlitFaces::Black);
    EXPECT_EQ(m.unlit_face_count, 1u);
}

TEST(LightingRules, Quake1MapWithoutLightingIsFullBright) {
    q1test::Q1Options o;
    o.lighting = false;
    const bsp::Map m = loadOrFail(q1test::buildQ1(o), "q1_unlit.bsp");
    EXPECT_TRUE(m.lightmap_pages.empty());
    EXPECT_FALSE(m.has_light_data);
    for (size_t f = 0; f < 2; ++f)
        expectUnlit(m, f);
    EXPECT_EQ(ruleOf(m).unlit_faces, game::UnlitFaces::Fullbright);
    EXPECT_EQ(m.unlit_face_count, 2u);
}

TEST(LightingRules, Quake1StyleScaleAndSaturation) {
    const game::GameProfile p = game::profileFor(loadOrFail(q1test::buildQ1(), "q1_two_faces.bsp"));
    // 'm' = ('m' - 'a') * 22 = 264 of 256; the 8-bit lightmap saturates before the 2x overbright.
    EXPECT_EQ(p.rules.light.light_style_scale, 1.03125f);
    EXPECT_EQ(p.rules.light.light_max, 2.0f);
    EXPECT_EQ(p.view.eye_height, 22.0f);            // QuakeC PutClientInServer: view_ofs '0 0 22'
    EXPECT_EQ(p.view.void_colour, glm::vec3(0.0f)); // QuakeSpasm shows black where nothing is

    // A luxel of 128 under style 'm' and the 2x overbright, as the shader computes it:
    // 128 / 255 * 2 * 264 / 256 = 264 / 255 (QuakeSpasm: (128 * 264) >> 8 = 132, doubled).
    const float light = 128.0f / 255.0f * 2.0f * p.rules.light.light_style_scale;
    EXPECT_FLOAT_EQ(game::scaledLight(p.rules.light, glm::vec3(128.0f / 255.0f)).r, light);
    EXPECT_FLOAT_EQ(light, 264.0f / 255.0f);
    EXPECT_FLOAT_EQ(light, 2.0f * 132.0f / 255.0f);
}

// QuakeSpasm r_litwater (gl_model.c Mod_LoadFaces, r_world.c R_DrawTextureChains_Water): a map
// with any liquid face that has samples and no TEX_SPECIAL has lit water. Its liquid faces keep
// their luxels like walls, and one without samples is black.
TEST(LightingRules, Quake1LitWaterKeepsItsLuxels) {
    q1test::Q1Options o;
    o.texture = "*water";
    o.face1_lightofs = -1;
    const bsp::Map m = loadOrFail(q1test::buildQ1(o), "q1_litwater.bsp");
    ASSERT_EQ(m.faces.size(), 2u);
    ASSERT_EQ(m.materials.size(), 1u);
    EXPECT_EQ(m.materials[0].flags & bsp::kSurfLiquid, uint32_t(bsp::kSurfLiquid));
    EXPECT_EQ(m.materials[0].flags & bsp::kSurfFullbright, 0u); // lit, so no fullbright
    const bsp::Face& lit = m.faces[0];
    ASSERT_EQ(lit.lightmap_page, 0);
    EXPECT_EQ(lit.lightmap_rect.w, 5);
    EXPECT_EQ(lit.lightmap_rect.h, 5);
    const auto& page = m.lightmap_pages[0].rgb;
    const size_t at =
        (size_t(lit.lightmap_rect.y) * size_t(m.lightmap_width) + lit.lightmap_rect.x) * 3;
    EXPECT_EQ(page[at], 128);
    // Luxel centres: the face spans s 0..64 on a 5-luxel grid starting at texel 0, so vertex
    // (0, 0) samples luxel 0's centre, half a luxel into the block.
    const float lm_u = m.vertices[lit.first_vertex].lm_uv.x;
    EXPECT_FLOAT_EQ(lm_u, (float(lit.lightmap_rect.x) + 0.5f) / float(m.lightmap_width));
    expectUnlit(m, 1);
    EXPECT_EQ(ruleOf(m).unlit_faces, game::UnlitFaces::Black);
    EXPECT_EQ(m.unlit_face_count, 1u);
}

// QuakeSpasm draws a liquid with its warp image at dot(v, vecs) / 128, an image that holds the
// texture twice whatever its size (gl_model.c Mod_PolyForUnlitSurface, r_brush.c
// BuildSurfaceDisplayList, gl_warp.c WARPCALC): a Quake 1 liquid's uv are in 64-texel tiles
// without the texinfo's offsets. With offsets (16, -32) on the 16-texel texture (whole luxels, so
// the 5 x 5 luxel blocks stay), vertex (64, 0, 0) is at uv (1, 0) on a liquid and at
// ((64 + 16) / 16, -32 / 16) = (5, -2) on a wall; the lit liquid's luxels keep the offsets, as
// the wall's do. Half-Life liquids keep them too.
TEST(LightingRules, Quake1LiquidUvAreQuakeSpasmsWarpCoordinates) {
    const auto vertexAt = [](const bsp::Map& m, glm::vec3 p) {
        const bsp::Face& f = m.faces[0];
        for (uint32_t k = 0; k < f.num_vertices; ++k)
            if (m.vertices[f.first_vertex + k].position == p)
                return m.vertices[f.first_vertex + k];
        ADD_FAILURE() << "no vertex at " << p.x << " " << p.y << " " << p.z;
        return bsp::Vertex{};
    };
    q1test::Q1Options o;
    o.texinfo_offset = {16.0f, -32.0f};
    const bsp::Map wall = loadOrFail(q1test::buildQ1(o), "q1_offsets.bsp");
    const bsp::Vertex wall_corner = vertexAt(wall, {64, 0, 0});
    EXPECT_EQ(wall_corner.uv, glm::vec2(5.0f, -2.0f));
    const game::WarpRule q1_warp = game::profileFor(wall).rules.warp;
    EXPECT_EQ(q1_warp.tile, 64.0f);
    EXPECT_EQ(q1_warp.knot_spacing, 16.0f);
    EXPECT_EQ(q1_warp.phase_steps, 256);
    o.texture = "*water";
    const bsp::Map liquid = loadOrFail(q1test::buildQ1(o), "q1_litwater_offsets.bsp");
    ASSERT_EQ(liquid.faces[0].lightmap_page, 0); // lit water
    const bsp::Vertex liquid_corner = vertexAt(liquid, {64, 0, 0});
    EXPECT_EQ(liquid_corner.uv, glm::vec2(1.0f, 0.0f));
    EXPECT_EQ(vertexAt(liquid, {0, 64, 0}).uv, glm::vec2(0.0f, 1.0f));
    EXPECT_EQ(liquid_corner.lm_uv, wall_corner.lm_uv);
    o.half_life = true;
    const bsp::Map hl = loadOrFail(q1test::buildQ1(o), "hl_water_offsets.bsp");
    ASSERT_NE(hl.materials[0].flags & bsp::kSurfWarp, 0u);
    EXPECT_EQ(vertexAt(hl, {64, 0, 0}).uv, glm::vec2(5.0f, -2.0f));
    const game::WarpRule hl_warp = game::profileFor(hl).rules.warp;
    EXPECT_EQ(hl_warp.tile, 0.0f);
    EXPECT_EQ(hl_warp.knot_spacing, 0.0f);
    EXPECT_EQ(hl_warp.phase_steps, 0);
}

// The same liquid faces with TEX_SPECIAL (the compiler lit none of them): no lit water, both
// drawn without lightmaps in white as before, neither counted as unlit.
TEST(LightingRules, Quake1SpecialLiquidStaysUnlit) {
    q1test::Q1Options o;
    o.texture = "*water";
    o.texinfo_flags = 1; // TEX_SPECIAL
    const bsp::Map m = loadOrFail(q1test::buildQ1(o), "q1_water.bsp");
    ASSERT_EQ(m.faces.size(), 2u);
    EXPECT_NE(m.materials[0].flags & bsp::kSurfFullbright, 0u);
    for (size_t f = 0; f < 2; ++f) {
        EXPECT_EQ(m.faces[f].lightmap_page, -1) << f;
        EXPECT_FALSE(m.faces[f].unlit) << f;
        expectFaceColour(m, f, 255);
    }
    EXPECT_EQ(m.unlit_face_count, 0u);
    EXPECT_TRUE(m.lightmap_pages.empty());
}

// Half-Life's engines draw liquids without lightmaps whatever the file stores.
TEST(LightingRules, HalfLifeLiquidIgnoresSamples) {
    q1test::Q1Options o;
    o.half_life = true;
    o.texture = "*water";
    const bsp::Map m = loadOrFail(q1test::buildQ1(o), "hl_water.bsp");
    ASSERT_EQ(m.faces.size(), 2u);
    for (size_t f = 0; f < 2; ++f) {
        EXPECT_EQ(m.faces[f].lightmap_page, -1) << f;
        EXPECT_FALSE(m.faces[f].unlit) << f;
        expectFaceColour(m, f, 255);
    }
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
    expectUnlit(m, 0);
    // A luxel of 255 per style it lists under Yamagi's GL3 renderer, one under the classic GL1.
    const game::GameProfile p = game::profileFor(m);
    EXPECT_EQ(p.rules.light.unlit_faces, game::UnlitFaces::FullbrightEachStyle);
    EXPECT_EQ(game::profileFor(m, {game::Quake2Look::Classic}).rules.light.unlit_faces,
              game::UnlitFaces::Fullbright);
    EXPECT_EQ(m.unlit_face_count, 1u);
    // Quake 2's 'm' is exactly 1 and its lightmaps are not clamped per channel here.
    EXPECT_EQ(p.rules.light.light_style_scale, 1.0f);
    EXPECT_EQ(p.rules.light.light_max, 0.0f);
    EXPECT_EQ(p.view.eye_height, 22.0f); // p_client.c PutClientInServer: viewheight 22
    EXPECT_FALSE(p.view.void_colour);    // not measured: the viewer's background
}

TEST(LightingRules, Quake2LitFaceIsNotCountedUnlit) {
    const bsp::Map m = loadOrFail(q2test::buildQ2(), "q2.bsp");
    EXPECT_EQ(m.faces[0].lightmap_page, 0);
    EXPECT_EQ(m.unlit_face_count, 0u);
}

TEST(LightingRules, HalfLifeLightCurve) {
    q1test::Q1Options o;
    o.half_life = true;
    o.face1_lightofs = -1;
    const bsp::Map m = loadOrFail(q1test::buildQ1(o), "hl_two_faces.bsp");
    ASSERT_EQ(m.faces.size(), 2u);
    EXPECT_EQ(m.format, bsp::Format::HalfLife);
    EXPECT_EQ(m.faces[0].lightmap_page, 0);
    // Xash3D R_BuildLightMap: a face without samples stays black in a lit map.
    expectUnlit(m, 1);
    const game::GameProfile p = game::profileFor(m);
    const game::LightRule& r = p.rules.light;
    EXPECT_EQ(r.unlit_faces, game::UnlitFaces::Black);
    EXPECT_EQ(p.view.eye_height, 28.0f); // Half-Life SDK VEC_VIEW

    // No 2x overbright: light times int(2^(1/2.5) * 256 + 0.5) = 338 of 256, clamped at 1023 of
    // 1023; nothing else curved (textures go through texgammatable at load: below).
    EXPECT_EQ(r.light_style_scale, 264.0f / 256.0f);
    EXPECT_EQ(r.lightmap_scale, 338.0f / 256.0f);
    EXPECT_EQ(int(std::pow(2.0, 1.0 / 2.5) * 256.0 + 0.5), 338);
    EXPECT_EQ(r.light_max, 1.0f);
    EXPECT_EQ(r.texture_scale, 1.0f);
    EXPECT_EQ(r.output_gamma, 1.0f);

    // A luxel of 128 under 'm': the engine sums 128 * 264 = 33792, scales it to
    // 33792 * 338 >> 14 = 697 of 1023 and stores 697 >> 2 = 174 of 255. The rule as the shader
    // computes it: 128 / 255 * 264 / 256 * 338 / 256 = 0.68345, 174.3 of 255.
    EXPECT_EQ((128 * 264 * 338) >> 14, 697);
    const float light = game::scaledLight(r, glm::vec3(128.0f / 255.0f)).r;
    EXPECT_EQ(int(light * 255.0f), 697 >> 2);
    // A luxel of 200 passes the clamp: 200 * 264 * 338 >> 14 = 1089 > 1023, light 1.
    EXPECT_EQ((200 * 264 * 338) >> 14, 1089);
    EXPECT_EQ(game::scaledLight(r, glm::vec3(200.0f / 255.0f)).r, 1.0f);
}

// GoldSrc's gamma tables at the engine's defaults (Xash3D FWGS engine/client/gamma.c
// BuildGammaTable: gamma 2.5, brightness 0, texgamma 2.0, lightgamma 2.5), computed here as the
// engine does, against the rule the parser states.
TEST(LightingRules, HalfLifeGammaTables) {
    const game::LightRule r = [] {
        q1test::Q1Options o;
        o.half_life = true;
        return ruleOf(loadOrFail(q1test::buildQ1(o), "hl.bsp"));
    }();
    // texgammatable[i] = 255 * (i / 255)^(texgamma / gamma), truncated, by hand:
    // 1: e^(0.8 ln(1/255)) = e^-4.4331 = 0.011875, x 255 = 3.03 -> 3; 2: 0.020686 -> 5.27 -> 5;
    // 64: 84.6 -> 84; 128: e^(0.8 ln(128/255)) = e^-0.55139 = 0.57619 -> 146.93 -> 146;
    // 192: 203.5 -> 203; 254: 0.996862 -> 254.2 -> 254; the ends stay.
    const game::PaletteTable t = game::texGammaTable(2.5f, 2.0f);
    for (const auto& [in, out] : {std::pair{0, 0},
                                  {1, 3},
                                  {2, 5},
                                  {64, 84},
                                  {128, 146},
                                  {192, 203},
                                  {254, 254},
                                  {255, 255}})
        EXPECT_EQ(t[size_t(in)], out) << in;
    // The map's game gives that table to its materials; the light rule no longer curves texels.
    const game::GameProfile p = [] {
        q1test::Q1Options o;
        o.half_life = true;
        return game::profileFor(loadOrFail(q1test::buildQ1(o), "hl.bsp"));
    }();
    ASSERT_TRUE(p.materials.palette_table);
    EXPECT_EQ(*p.materials.palette_table, t);
    // The texel reaches the light rule as loaded: apply() no longer curves it.
    EXPECT_FLOAT_EQ(game::apply(r, glm::vec3(146.0f / 255.0f), glm::vec3(0.5f)).r,
                    146.0f / 255.0f * 0.5f * 338.0f / 256.0f * 264.0f / 256.0f);
    // Not decreasing, and every value in 1..249 lifted (an exponent below 1; 250..254 stay).
    for (size_t i = 1; i < 256; ++i) {
        EXPECT_LE(t[i - 1], t[i]) << i;
        EXPECT_EQ(t[i] > i, i < 250) << i;
    }
    // texgamma = gamma: the exponent 0.4f * 2.5f rounds to 1 and the table is the identity.
    const game::PaletteTable same = game::texGammaTable(2.5f, 2.5f);
    for (size_t i = 0; i < 256; ++i)
        EXPECT_EQ(same[i], i) << i;
    // lightgammatable: (i / 1023)^lightgamma, shifted by brightness (the identity at 0:
    // g3 = 0.125 maps both branches onto themselves), then to the power 1 / gamma. With
    // lightgamma = gamma the table gives i back, or i - 1 where float rounding falls short, so
    // the rule leaves it out: the 8-bit light it yields is off by at most one level.
    const float g1 = 1.0f / 2.5f, g3 = 0.125f;
    int short_by_one = 0;
    for (int i = 0; i < 1024; ++i) {
        float f = float(std::pow(i / 1023.0, 2.5));
        f = f <= g3 ? (f / g3) * 0.125f : ((f - g3) / (1.0f - g3)) * 0.875f + 0.125f;
        const int inf = int(std::pow(double(f), double(g1)) * 1023.0);
        ASSERT_TRUE(inf == i || inf == i - 1) << i << " -> " << inf;
        short_by_one += inf == i - 1 ? 1 : 0;
        EXPECT_LE((i >> 2) - (inf >> 2), 1) << i;
    }
    EXPECT_GT(short_by_one, 0); // the table is not exactly the identity
}

TEST(LightingRules, Quake2GL3Rules) {
    const bsp::Map m = loadOrFail(q2test::buildQ2(), "q2.bsp");
    const game::GameProfile p = game::profileFor(m);
    const game::LightRule& r = p.rules.light;
    // yquake2 GL3 defaults: gl3_intensity 1.5, gl3_overbrightbits 1.3, vid_gamma 1.2.
    EXPECT_EQ(r.lightmap_scale, 1.3f);
    EXPECT_EQ(r.texture_scale, 1.5f);
    EXPECT_FLOAT_EQ(r.output_gamma, 1.0f / 1.2f);
    EXPECT_EQ(r.light_max, 0.0f);
    EXPECT_EQ(p.rules.warp.amplitude, 4.0f / 64.0f);
    ASSERT_EQ(m.materials.size(), 2u);
    // texinfo 0 is FLOWING and lit: 64 repeats per 40 s; texinfo 1 TRANS33: 0.333, no lightmap.
    EXPECT_EQ(m.materials[0].flow_speed, 1.6f);
    EXPECT_EQ(m.materials[0].fullbright_light, 0.0f);
    EXPECT_EQ(m.materials[1].alpha, 0.333f);
    EXPECT_EQ(m.materials[1].fullbright_light, 1.0f);
    // A luxel of 128 on a texel of 100: (100 / 255 * 1.5 * 128 / 255 * 1.3)^(1 / 1.2)
    // = 0.383851^0.833333 = 0.450270, 114.8 of 255.
    const float lit = game::apply(r, glm::vec3(100.0f / 255.0f), glm::vec3(128.0f / 255.0f)).r;
    EXPECT_NEAR(lit, 0.450270f, 1e-5f);
}

TEST(LightingRules, Quake2WarpLightAndFlow) {
    // Texinfo 1 made WARP | FLOWING: half light (not lava), one 64-texel tile per 2 s.
    std::vector<uint8_t> bytes = q2test::buildQ2();
    uint32_t texinfo_ofs;
    std::memcpy(&texinfo_ofs, bytes.data() + 8 + 5 * 8, 4);
    const uint32_t flags = 0x8 | 0x40;
    std::memcpy(bytes.data() + texinfo_ofs + 76 + 32, &flags, 4);
    const bsp::Map m = loadOrFail(bytes, "q2_warp.bsp");
    ASSERT_EQ(m.materials.size(), 2u);
    EXPECT_TRUE(m.materials[1].flags & bsp::kSurfWarp);
    EXPECT_EQ(m.materials[1].fullbright_light, 0.5f);
    EXPECT_EQ(m.materials[1].flow_speed, 0.5f);
    EXPECT_EQ(m.materials[1].alpha, 1.0f);
}
