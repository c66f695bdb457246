// The per-game lighting rules (game::MapRules from game::profileFor) as the world renderer draws
// them (Mesa llvmpipe under xvfb-run): the missing-texture tile lit by the lightmap, faces without
// lightmap data in their vertex colour, the light style scale and the saturation limit. Expected
// pixels are computed by hand from the texel, the luxel and the rule.
#include "bsp/load.h"
#include "content/image/image.h"
#include "content/image/miptex.h"
#include "game/profile.h"
#include "gl_fixture.h"
#include "render/render_target.h"
#include "render/world_renderer.h"
#include "scene/view/visibility.h"
#include "scene/world/light_styles.h"
#include "scene/world/world_mesh.h"
#include "support/map_builder.h"
#include "support/q1_builder.h"
#include "support/q2_builder.h"

#include <gtest/gtest.h>

#include <array>
#include <string>
#include <utility>

namespace {

constexpr int kW = 320, kH = 180;
const glm::vec4 kClear{0.0f, 1.0f, 0.0f, 1.0f};

// Two 64-unit floor quads side by side at z = 0: face 0 (x 0..64) with a lightmap whose every
// luxel is `luxel`, face 1 (x 64..128) without lightmap data, its vertices coloured
// `unlit_colour` (what the parser gives such faces). Every vertex samples the texture at
// (0.3, 0.3) repeats, so each face shows one texel value: texel (19, 19) of a 64-texel tile.
bsp::Map twoFloors(uint8_t luxel, uint8_t unlit_colour) {
    bsp::Map m;
    testsupport::addMaterial(m, "floor");
    testsupport::FloorQuad lit;
    lit.lightmap_page = testsupport::addGreyLightmapPage(m, luxel);
    lit.uv = glm::vec2(0.3f, 0.3f);
    testsupport::addFloorQuad(m, lit);
    testsupport::FloorQuad unlit = lit;
    unlit.x0 = 64.0f;
    unlit.lightmap_page = -1;
    unlit.colour = {unlit_colour, unlit_colour, unlit_colour, 255};
    testsupport::addFloorQuad(m, unlit);
    testsupport::addWorldLeaf(m, {0, 0, -8}, {128, 64, 8});
    return m;
}

content::Image greyImage(uint8_t v) {
    content::Image img;
    img.width = img.height = 8;
    img.rgba.assign(8 * 8 * 4, v);
    for (size_t i = 3; i < img.rgba.size(); i += 4)
        img.rgba[i] = 255;
    return img;
}

class LightingRender : public gltest::GlFixture {
protected:
    // Renders `map` with `texture` on its material, straight down onto x = 64, and returns the
    // red channel at the middle of face 0 (left) and face 1 (right).
    // `rules`: the map's rules as the renderer gets them (the defaults: a 2x overbright).
    std::array<int, 2> render(const bsp::Map& map, const content::Image& texture,
                              const game::MapRules& rules = {}, double time = 0.0,
                              bool fog = true) {
        scene::WorldMeshOptions mesh_options;
        mesh_options.unlit_faces = rules.light.unlit_faces;
        const scene::WorldMesh mesh = scene::buildWorldMesh(map, mesh_options);
        std::vector<content::TextureInfo> textures(1);
        textures[0].image = texture;
        render::WorldRenderer r;
        std::string error;
        EXPECT_TRUE(r.init(render::GlslLibrary(), &error)) << error;
        render::WorldSource source{map, mesh, textures};
        source.rules = rules;
        EXPECT_TRUE(r.upload(source, &error)) << error;
        render::RenderTarget target;
        EXPECT_TRUE(target.create(kW, kH, &error)) << error;
        scene::Camera cam;
        cam.position = {64, 32, 60};
        cam.pitch = 90.0f;
        cam.yaw = 90.0f; // screen right is +X
        cam.aspect = static_cast<float>(kW) / static_cast<float>(kH);
        cam.z_near = 1.0f;
        scene::Visibility vis(map, mesh);
        scene::DrawList list;
        vis.update(cam, {}, list);
        EXPECT_EQ(list.faces.size(), 2u);
        target.bind();
        render::RenderOptions ro;
        ro.clear_colour = kClear;
        ro.fog = fog;
        ro.style_values = scene::lightStyleValues(0.0); // style 0: 'm'
        ro.time = time;
        r.draw(list, cam, ro);
        const auto img = target.readPixels();
        const uint8_t* left = gltest::pixelAt(img, kW, kW / 4, kH / 2);
        const uint8_t* right = gltest::pixelAt(img, kW, 3 * kW / 4, kH / 2);
        EXPECT_EQ(left[0], left[1]);
        EXPECT_EQ(right[0], right[2]);
        return {left[0], right[0]};
    }
};

} // namespace

// The missing-texture tile is a texture like any other: its grey texel (176) times the light.
TEST_F(LightingRender, MissingTextureIsLitByTheLightmap) {
    const content::Image tile = content::makeMissingTexture();
    ASSERT_EQ(tile.rgba[(19 * 64 + 19) * 4], content::kMissingFill);
    // Luxel 64 under the 2x overbright: 176 * (64 / 255 * 2) = 88.3 -> 88. The unlit face in
    // black stays black, in white it saturates (176 * 2 > 255).
    EXPECT_EQ(render(twoFloors(64, 0), tile), (std::array<int, 2>{88, 0}));
    EXPECT_EQ(render(twoFloors(64, 255), tile), (std::array<int, 2>{88, 255}));
}

// Quake 1 (QuakeSpasm): 'm' is 264 of 256. A texel of 100 under a luxel of 128:
// 100 * 128 / 255 * 2 * 264 / 256 = 103.5 -> 104, where 'm' = 1 gives 100.4 -> 100.
TEST_F(LightingRender, QuakeOneStyleScale) {
    const bsp::Map map = twoFloors(128, 0);
    EXPECT_EQ(render(map, greyImage(100)), (std::array<int, 2>{100, 0}));
    game::MapRules rules;
    rules.light.light_style_scale = 264.0f / 256.0f;
    EXPECT_EQ(render(map, greyImage(100), rules), (std::array<int, 2>{104, 0}));
}

// Quake 1 saturates the summed lightmap at 255 before doubling: a luxel of 250 under 'm' is
// 250 * 264 / 256 = 257.8 -> 255, so 100 * 2 * 255 / 255 = 200. Without the limit:
// 100 * 250 / 255 * 2 * 1.03125 = 202.2 -> 202.
TEST_F(LightingRender, QuakeOneLightSaturatesBeforeTheOverbright) {
    const bsp::Map map = twoFloors(250, 0);
    game::MapRules rules;
    rules.light.light_style_scale = 264.0f / 256.0f;
    EXPECT_EQ(render(map, greyImage(100), rules)[0], 202);
    rules.light.light_max = 2.0f;
    EXPECT_EQ(render(map, greyImage(100), rules)[0], 200);
}

namespace {

bsp::Map parsed(const std::vector<uint8_t>& bytes) {
    auto m = bsp::loadMap(bytes, "rule.bsp");
    EXPECT_TRUE(m.ok());
    return m.ok() ? std::move(*m) : bsp::Map{};
}

// The rules of a map the parser read, for drawing a synthetic one by them.
game::MapRules rulesOf(const bsp::Map& from) {
    return game::profileFor(from).rules;
}

game::GameProfile halfLifeProfile() {
    q1test::Q1Options o;
    o.half_life = true;
    return game::profileFor(parsed(q1test::buildQ1(o)));
}

game::MapRules halfLifeRules() {
    return halfLifeProfile().rules;
}

// An 8 x 8 Half-Life miptex of palette colour (v, v, v) decoded as the map's game loads it:
// through its palette table (texgammatable), the texel the renderer then draws as it is.
content::Image halfLifeTexture(uint8_t v) {
    const game::GameProfile p = halfLifeProfile();
    EXPECT_TRUE(p.materials.palette_table);
    content::Palette palette;
    palette.rgb.fill(v);
    auto rgba = content::decodeHalfLifeMiptex(
        "wall", 8, 8, std::vector<uint8_t>(64, 0), palette,
        p.materials.palette_table ? &*p.materials.palette_table : nullptr);
    EXPECT_TRUE(rgba.ok());
    content::Image img;
    img.width = img.height = 8;
    if (rgba.ok())
        img.rgba = std::move(rgba->rgba);
    return img;
}

// 64 x 8 texels, grey 4 x column: a texel's value tells where the texture was sampled.
content::Image rampImage(int height = 8) {
    content::Image ramp;
    ramp.width = 64;
    ramp.height = height;
    ramp.rgba.resize(64 * size_t(height) * 4);
    for (size_t i = 0; i < 64 * size_t(height); ++i) {
        const auto v = static_cast<uint8_t>(4 * (i % 64));
        ramp.rgba[i * 4] = ramp.rgba[i * 4 + 1] = ramp.rgba[i * 4 + 2] = v;
        ramp.rgba[i * 4 + 3] = 255;
    }
    return ramp;
}

// Face 0 of twoFloors made brush model 1, as a GoldSrc brush entity.
void makeBrushModel(bsp::Map& map, bsp::BlendMode blend) {
    map.leaf_faces = {1, 0};
    map.leaves[0].first_leaf_face = 0;
    map.leaves[0].num_leaf_faces = 1;
    map.submodels[0].first_face = 1;
    map.submodels[0].num_faces = 1;
    bsp::Submodel model;
    model.mins = {0, 0, -8};
    model.maxs = {64, 64, 8};
    model.first_face = 0;
    model.num_faces = 1;
    model.blend = blend;
    map.submodels.push_back(model);
    map.faces[0].submodel = 1;
}

} // namespace

// Half-Life (Xash3D FWGS at GoldSrc's defaults, the rule the HL parser states): palette colour
// 128 is loaded through texgammatable as int(255 * (128 / 255)^0.8) = int(146.93) = 146 (the
// engine's table, applied at load, not per pixel); a luxel of 128 under 'm' is
// 128 / 255 * 264 / 256 * 338 / 256 = 0.68345 (no 2x overbright), so 146 * 0.68345 = 99.8 ->
// 100 (the engine's integer tables: 146 * 174 / 255 = 99.6 -> 100). The unlit face is black.
TEST_F(LightingRender, HalfLifeLightCurve) {
    const content::Image t128 = halfLifeTexture(128);
    ASSERT_EQ(t128.rgba.size(), 8u * 8u * 4u);
    EXPECT_EQ(t128.rgba[0], 146);
    EXPECT_EQ(render(twoFloors(128, 0), t128, halfLifeRules()), (std::array<int, 2>{100, 0}));
    // A luxel of 200 passes the engine's clamp (1089 of 1023): light 1, so palette colour 64
    // shows as its table entry int(255 * (64 / 255)^0.8) = int(84.6) = 84, where the 2x
    // overbright would give 100. The renderer does not curve the texel again: grey 84 drawn
    // directly under the same rule is 84 too (the per-pixel curve made it 255 * (84 / 255)^0.8 =
    // 104.9).
    EXPECT_EQ(render(twoFloors(200, 0), halfLifeTexture(64), halfLifeRules())[0], 84);
    EXPECT_EQ(render(twoFloors(200, 0), greyImage(84), halfLifeRules())[0], 84);
}

// GoldSrc render modes texture / glow / additive draw a brush model without its lightmap:
// palette colour 64 (84 after texgammatable) at light 1 is 84, whatever the luxels (here 10).
// Mode colour draws rendercolor alone: 102 of 255 stays 102 (no texture gamma on it).
TEST_F(LightingRender, HalfLifeRenderModesWithoutLightmaps) {
    bsp::Map map = twoFloors(10, 255);
    const game::MapRules hl = halfLifeRules();
    makeBrushModel(map, bsp::BlendMode::Alpha);
    // Lit as usual first: 10 / 255 * 264 / 256 * 338 / 256 * 84 = 4.5 -> 4 or 5.
    EXPECT_LE(render(map, halfLifeTexture(64), hl)[0], 5);
    map.submodels[1].lightmapped = false;
    // The world face (vertex colour 255 -> light 1 after the clamp) is 84 too.
    EXPECT_EQ(render(map, halfLifeTexture(64), hl), (std::array<int, 2>{84, 84}));
    map.submodels[1].textured = false;
    map.submodels[1].colour = glm::vec3(102.0f / 255.0f);
    EXPECT_EQ(render(map, halfLifeTexture(64), hl), (std::array<int, 2>{102, 84}));
}

// Quake 2 (yquake2 GL3 at its defaults, the rule the Quake 2 parser states): a texel of 100
// under a luxel of 128 is (100 / 255 * 1.5 * 128 / 255 * 1.3)^(1 / 1.2) = 0.450270 -> 114.8
// -> 115; the face without lightmap data is lit fully: (100 / 255 * 1.5 * 1.3)^(1 / 1.2)
// = 0.799696 -> 203.9 -> 204. The 2x overbright gave 100 and 200.
TEST_F(LightingRender, Quake2GL3Curve) {
    bsp::Map map = twoFloors(128, 255);
    EXPECT_EQ(render(map, greyImage(100)), (std::array<int, 2>{100, 200}));
    const game::MapRules q2 = rulesOf(parsed(q2test::buildQ2()));
    EXPECT_EQ(render(map, greyImage(100), q2), (std::array<int, 2>{115, 204}));
    // A warped surface other than lava: light 0.5 in place of any lightmap,
    // (100 / 255 * 1.5 * 0.5)^(1 / 1.2) = 0.360668 -> 92.0 -> 92; TRANS33 / 66 and lava at 1:
    // (100 / 255 * 1.5)^(1 / 1.2) = 0.642627 -> 163.9 -> 164.
    map.materials[0].fullbright_light = 0.5f;
    EXPECT_EQ(render(map, greyImage(100), q2), (std::array<int, 2>{92, 92}));
    map.materials[0].fullbright_light = 1.0f;
    EXPECT_EQ(render(map, greyImage(100), q2), (std::array<int, 2>{164, 164}));
}

// A Quake 2 map's face without light data (bsp::Face::unlit) beside a lit one (luxel 128) under
// each look (game::Quake2Look). Yamagi's GL3 renderer gives each style the face lists a luxel of
// 255 (gl3_light.c GL3_BuildLightMap): qbsp3 writes style 0 four times on a map compiled without
// light, so the light is 4 x 1.3 and a texel of 20 becomes (20 / 255 * 1.5 * 5.2)^(1 / 1.2)
// = 0.663979 -> 169.3 -> 169; with one style (20 / 255 * 1.5 * 1.3)^(1 / 1.2) -> 53.3 -> 53.
// The lit face: (20 / 255 * 1.5 * 1.3 * 128 / 255)^(1 / 1.2) -> 30.0 -> 30, and a texel of 200
// -> 204.6 -> 205 (the unlit face saturates). The classic look (GL1: textures doubled and
// saturated at upload, one luxel of 255 whatever the styles, no curve): a texel of 20 is 40 on
// the unlit face and 40 x 128 / 255 = 20.1 -> 20 on the lit one; a texel of 200 saturates at
// 255 before the light, so the lit face is 128 (not 200 x 2 x 128 / 255 = 201) and the unlit 255.
TEST_F(LightingRender, Quake2FacesWithoutLightDataUnderEachLook) {
    bsp::Map map = twoFloors(128, 255);
    map.faces[1].unlit = true;
    map.faces[1].styles = {0, 0, 0, 0};
    const bsp::Map q2 = parsed(q2test::buildQ2());
    const game::MapRules yamagi = game::profileFor(q2, {game::Quake2Look::Yamagi}).rules;
    const game::MapRules classic = game::profileFor(q2, {game::Quake2Look::Classic}).rules;
    EXPECT_EQ(yamagi.light.unlit_faces, game::UnlitFaces::FullbrightEachStyle);
    EXPECT_EQ(classic.light.unlit_faces, game::UnlitFaces::Fullbright);
    EXPECT_EQ(render(map, greyImage(20), yamagi), (std::array<int, 2>{30, 169}));
    EXPECT_EQ(render(map, greyImage(200), yamagi), (std::array<int, 2>{205, 255}));
    EXPECT_EQ(render(map, greyImage(20), classic), (std::array<int, 2>{20, 40}));
    EXPECT_EQ(render(map, greyImage(200), classic), (std::array<int, 2>{128, 255}));
    map.faces[1].styles = {0, bsp::kNoStyle, bsp::kNoStyle, bsp::kNoStyle};
    EXPECT_EQ(render(map, greyImage(20), yamagi), (std::array<int, 2>{30, 53}));
}

// Quake 2 SURF_FLOWING as yquake2 GL3 scrolls it: 64 repeats per 40 s towards -s, 1.6 a second.
// A 64-texel ramp (grey 4 x column) sampled at s = 0.3 repeats, 19.2 texels: linear filtering
// between columns 18 and 19 gives 4 x 18.7 = 74.8 at time 0. After 1/16 s the texture has moved
// by 0.1 repeats, so s = 0.2, 4 x (12.8 - 0.5) = 49.2 -> 49 (the old 0.5 repeats a second gave
// s = 0.26875, 66.8). Light 1.0039 (luxel and vertex colour 128 under the default 2x).
TEST_F(LightingRender, Quake2FlowingSpeed) {
    bsp::Map map = twoFloors(128, 128);
    map.materials[0].flags |= bsp::kSurfFlowing;
    map.materials[0].flow_speed = parsed(q2test::buildQ2()).materials[0].flow_speed;
    ASSERT_EQ(map.materials[0].flow_speed, 1.6f);
    const content::Image ramp = rampImage();
    EXPECT_EQ(render(map, ramp, {}, 0.0), (std::array<int, 2>{75, 75}));
    EXPECT_EQ(render(map, ramp, {}, 1.0 / 16.0), (std::array<int, 2>{49, 49}));
}

// The turbulent warp moves a texel by game::WarpRule::amplitude times sin(8 x the other coordinate
// + time) on a 64 x 64 ramp: at s = t = 0.3 and time 0, sin(2.4) = 0.675463. Quake 2 (GL3, 4 texels
// of 64): s = 0.3 + 0.0625 x 0.675463 = 0.342216, 4 x (21.902 - 0.5) x 1.0039 = 85.9; Quake 1 (8
// texels): s = 0.384433, 96.8. llvmpipe draws 86 and 96 (the Quake 1 sample lands about a fifth of
// a texel short, also at other times; not explained), so one level is allowed; the two amplitudes
// stay ten levels apart.
TEST_F(LightingRender, WarpAmplitude) {
    bsp::Map map = twoFloors(128, 128);
    map.materials[0].flags |= bsp::kSurfWarp;
    const std::array<int, 2> quake1 = render(map, rampImage(64));
    game::MapRules q2;
    q2.warp.amplitude = rulesOf(parsed(q2test::buildQ2())).warp.amplitude;
    const std::array<int, 2> quake2 = render(map, rampImage(64), q2);
    for (size_t k = 0; k < 2; ++k) {
        EXPECT_NEAR(quake1[k], 96.8, 1.0) << k;
        EXPECT_NEAR(quake2[k], 85.9, 1.0) << k;
    }
}

// QuakeSpasm's warp image (gl_warp.c R_UpdateWarpTextures and WARPCALC, r_waterquality 8), as
// the Quake 1 parser sets it up: surface texel (s, t) shows the texture at
// s + 8 sin(2 pi t / 128 + phase), the sine taken every 16 texels and linear between, the phase
// whole steps of 2 pi / 256 of the time. A 64 x 64 ramp (texel i is 4 i) seen at s = t = 24,
// midway between the samples at 16 and 32, under the light 128 / 255 x 2 = 1.00392. Time 0:
// 24 + 8 (sin(pi / 4) + sin(pi / 2)) / 2 = 30.8284 texels, 4 x 30.3284 x 1.00392 = 121.79,
// where a true sine (24 + 8 sin(3 pi / 8)) gives 124.05. Times 1.5954 and 1.6198 both reach
// step 65 (time x 128 / pi = 65.002, 65.997), 1.59534 radians: 24 + 8 (sin(pi / 4 + 1.59534) +
// sin(pi / 2 + 1.59534)) / 2 = 26.6599 texels, 105.05 for both, where a phase following the
// time would give 105.9 and 105.2. One level is allowed for llvmpipe's filtering.
TEST_F(LightingRender, Quake1WarpIsQuakeSpasmsWarpImage) {
    bsp::Map map = twoFloors(128, 128);
    map.materials[0].flags |= bsp::kSurfWarp;
    game::MapRules rules; // the 2x overbright with 'm' = 1, and Quake 1's warp
    rules.warp = rulesOf(parsed(q1test::buildQ1({}))).warp;
    ASSERT_EQ(rules.warp.period, 128.0f);
    ASSERT_EQ(rules.warp.tile, 64.0f);
    for (bsp::Vertex& v : map.vertices)
        v.uv = {0.375f, 0.375f}; // texel 24 of a 64-texel tile
    const content::Image ramp = rampImage(64);
    const std::array<int, 2> at0 = render(map, ramp, rules, 0.0);
    const std::array<int, 2> step_first = render(map, ramp, rules, 1.5954);
    const std::array<int, 2> step_last = render(map, ramp, rules, 1.6198);
    for (size_t k = 0; k < 2; ++k) {
        EXPECT_NEAR(at0[k], 121.79, 1.0) << k;
        EXPECT_NEAR(step_first[k], 105.05, 1.0) << k;
    }
    EXPECT_EQ(step_first, step_last);
}

// Quake 1 lit water (QuakeSpasm r_litwater 1, r_world.c R_DrawTextureChains_Water): the
// parser's liquid faces, warped, times their lightmap like a wall. A texel of 100 under a luxel
// of 128: 100 * 128 / 255 * 2 * 264 / 256 = 103.5 -> 104; the face without samples is black.
// The same faces with TEX_SPECIAL are unlit: the warped texture as it is, 100 (QuakeSpasm binds
// the warp image alone; a white vertex colour through the 2x overbright would give 200).
TEST_F(LightingRender, Quake1LitWaterIsWarpTimesLightmap) {
    // buildQ1's quads wind counter-clockwise seen from above; turned over so that the camera
    // above sees their fronts.
    const auto liquid = [](const q1test::Q1Options& o) {
        bsp::Map m = parsed(q1test::buildQ1(o));
        for (size_t i = 0; i + 2 < m.indices.size(); i += 3)
            std::swap(m.indices[i + 1], m.indices[i + 2]);
        return m;
    };
    q1test::Q1Options o;
    o.texture = "*water";
    o.face1_lightofs = -1;
    const bsp::Map lit = liquid(o);
    ASSERT_NE(lit.materials[0].flags & bsp::kSurfWarp, 0u);
    EXPECT_EQ(render(lit, greyImage(100), rulesOf(lit), 1.0), (std::array<int, 2>{104, 0}));
    o.texinfo_flags = 1; // TEX_SPECIAL
    o.face1_lightofs = 25;
    const bsp::Map special = liquid(o);
    EXPECT_EQ(render(special, greyImage(100), rulesOf(special), 1.0),
              (std::array<int, 2>{100, 100}));
}

// Quake 1 worldspawn fog (QuakeSpasm, GL_EXP2): the camera is 60 units above the floor and
// looks straight down, so every floor point is 60 deep. A density of sqrt(ln 2) / 60 leaves
// exp(-(60 d)^2) = 1/2 of the surface: texel 100 under luxel 128 (100.4) becomes
// (100.4 + 0.8 * 255) / 2 = 152.2 -> 152, the black unlit face 0.4 * 255 = 102.
TEST_F(LightingRender, DistanceFogIsExp2ByDepth) {
    const bsp::Map map = twoFloors(128, 0);
    game::MapRules rules;
    rules.fog.colour = glm::vec3(0.8f);
    rules.fog.density = 0.83255461f / 60.0f;
    EXPECT_EQ(render(map, greyImage(100), rules), (std::array<int, 2>{152, 102}));
    EXPECT_EQ(render(map, greyImage(100), rules, 0.0, false),
              (std::array<int, 2>{100, 0})); // fog off
}
