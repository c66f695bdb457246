// Entity model draw ranges as render::ModelRenderer draws them (Mesa llvmpipe under xvfb-run):
// Half-Life studio texture flags (studio.h STUDIO_NF_MASKED, _ADDITIVE, _CHROME) on a hand-made
// mesh of four quads, each quad its own range, seen straight from above. Expected pixels are the
// texels by hand: the instance is full bright, so a texel shows as it is.
#include "content/model/model_mesh.h"
#include "gl_fixture.h"
#include "render/model_renderer.h"
#include "render/render_target.h"
#include "render/uniform_blocks.h"
#include "scene/models/model_set.h"
#include "support/skin_scene.h"

#include <glm/vec4.hpp>
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <optional>
#include <string>

namespace {

constexpr int kW = 320, kH = 180;
constexpr uint8_t kClear = 51; // 0.2 * 255

// Texels of the 2x2 skin, rows top to bottom: A (0, 0) red, B (1, 0) grey and marked in the
// mask (fullbright, or cut in a masked range), C (0, 1) brown, D (1, 1) blue.
constexpr std::array<std::array<uint8_t, 3>, 4> kTexels = {
    {{200, 0, 0}, {9, 9, 9}, {100, 50, 10}, {0, 0, 220}}};

// Quad q spans x -64 + 32q .. -32 + 32q, y -16..16 at z 0, clockwise seen from above (the
// front). Its texture coordinates all fall in one texel: plain A, masked B, additive C, chrome
// A (which the chrome coordinates replace). Normals (0.6, -0.8, 0): along the chrome axes of a
// view straight down with screen right +x (right (1, 0, 0), up (0, -1, 0)) that is
// (0.6, 0.8), so (n + 1) * 0.5 = (0.8, 0.9): texel D.
// `flat_first`: quad 0's range is flat-shaded. A second skin (the same image) draws quad 1
// plain instead of masked (ModelMesh::skin_ranges).
content::ModelMesh fourQuads(bool flat_first = false) {
    content::ModelMesh m;
    const std::array<std::array<float, 2>, 4> uv = {{{0.25f, 0.25f}, // A
                                                     {0.75f, 0.25f}, // B
                                                     {0.25f, 0.75f}, // C
                                                     {0.25f, 0.25f}}};
    for (uint32_t q = 0; q < 4; ++q) {
        const float x0 = -64.0f + 32.0f * float(q);
        const std::array<std::array<float, 3>, 4> corners = {
            {{x0, -16, 0}, {x0, 16, 0}, {x0 + 32, 16, 0}, {x0 + 32, -16, 0}}};
        for (const auto& c : corners) {
            m.positions.push_back(c);
            m.normals.push_back({0.6f, -0.8f, 0.0f});
            m.uv.push_back(uv[q]);
        }
        for (uint32_t k : {0u, 1u, 2u, 0u, 2u, 3u})
            m.indices.push_back(q * 4 + k);
        content::ModelDrawRange r;
        r.first_index = q * 6;
        r.index_count = 6;
        r.masked = q == 1;
        r.additive = q == 2;
        r.chrome = q == 3;
        r.chrome_scale = {0.5f, 0.5f}; // a 64-texel texture: 32 / 64
        r.flat = flat_first && q == 0;
        m.ranges.push_back(r);
    }
    m.skin_ranges = {{}, m.ranges};
    m.skin_ranges[1][1].masked = false;
    m.vertex_count = 16;
    m.pose_count = 1;
    m.frames.push_back({"f", {}});
    content::ModelImage img;
    img.width = img.height = 2;
    for (const auto& t : kTexels)
        img.rgba.insert(img.rgba.end(), {t[0], t[1], t[2], 255});
    img.fullbright = {0, 255, 0, 0};
    m.images.push_back(img);
    m.skins.push_back({});
    m.skins.push_back({});
    m.mins = {-64, -16, 0};
    m.maxs = {64, 16, 0};
    return m;
}

class ModelRender : public gltest::GlFixture {
protected:
    // Draws fourQuads() at (0, 0, 0) from 100 units above and returns each quad's middle pixel.
    // `lit`: the instance as set up by the caller (radius aside), else full bright.
    // `texel_a`: texel A's colour instead of kTexels[0].
    std::array<std::array<int, 3>, 4>
    render(std::optional<scene::EntityModelInstance> lit = std::nullopt, bool flat_first = false,
           int32_t skin = 0, std::optional<std::array<uint8_t, 3>> texel_a = std::nullopt) {
        scene::EntityModelSet set;
        set.models.push_back({"quads", fourQuads(flat_first), std::nullopt, {}, {}});
        if (texel_a)
            std::copy(texel_a->begin(), texel_a->end(), set.models[0].mesh->images[0].rgba.begin());
        scene::EntityModelInstance inst = lit.value_or(scene::EntityModelInstance{});
        inst.fullbright = !lit;
        inst.radius = 80.0f;
        inst.skin = skin;
        set.instances.push_back(inst);
        return renderSet(set, {-48.0f, -16.0f, 16.0f, 48.0f});
    }

    // Draws the set's first instance from `height` units above (below when negative) and returns
    // the pixels under the points (x, 0, 0).
    std::array<std::array<int, 3>, 4>
    renderSet(scene::EntityModelSet& set, const std::array<float, 4>& xs, float height = 100.0f) {
        render::ModelRenderer r;
        std::string error;
        EXPECT_TRUE(r.init(render::GlslLibrary(), &error)) << error;
        r.upload(&set);
        render::RenderTarget target;
        EXPECT_TRUE(target.create(kW, kH, &error)) << error;
        scene::Camera cam;
        cam.position = {0, 0, height};
        cam.pitch = height > 0.0f ? 90.0f : -90.0f; // straight down, or up from below
        cam.yaw = 90.0f;                            // screen right is +x
        cam.aspect = float(kW) / float(kH);
        cam.z_near = 1.0f;
        target.bind();
        glClearColor(0.2f, 0.2f, 0.2f, 1.0f);
        glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
        scene::DrawList list;
        list.models = {0};
        render::GlState state;
        // The frame's owner fills the frame block the model programs read.
        render::UniformBlocks blocks;
        render::FrameBlock frame{};
        frame.view_projection = cam.viewProjection();
        frame.eye = cam.position;
        frame.frame_scale = 1.0f;
        frame.tone_scale = m_tone; // 1: no tone map
        frame.view_forward = cam.forward();
        blocks.setFrame(frame);
        blocks.setMap(m_map);
        blocks.bind();
        r.draw(cam, 0.0, list, render::ViewMode::Lit, state, m_fog);
        EXPECT_EQ(r.drawnCount(), 1u);
        const auto img = target.readPixels();
        std::array<std::array<int, 3>, 4> out{};
        for (int q = 0; q < 4; ++q) {
            const glm::vec4 clip = cam.viewProjection() * glm::vec4(xs[size_t(q)], 0, 0, 1);
            const int x = int(std::floor((clip.x / clip.w * 0.5f + 0.5f) * kW));
            const int y = int(std::floor((0.5f - clip.y / clip.w * 0.5f) * kH));
            const uint8_t* p = gltest::pixelAt(img, kW, x, y);
            out[size_t(q)] = {p[0], p[1], p[2]};
        }
        return out;
    }

    float m_tone = 1.0f;      // the frame block's tone map factor (render/tone_map.h)
    render::MapBlock m_map{}; // the map block (its fog)
    bool m_fog = false;       // draw()'s fog switch
};

} // namespace

// Plain: texel A. Masked: texel B is cut, the clear colour shows. Additive: C added to the
// clear colour. Chrome: texel D from the normal and the view, not A from the coordinates.
TEST_F(ModelRender, HalfLifeTextureFlags) {
    const auto px = render();
    EXPECT_EQ(px[0], (std::array<int, 3>{200, 0, 0}));
    EXPECT_EQ(px[1], (std::array<int, 3>{kClear, kClear, kClear}));
    EXPECT_EQ(px[2], (std::array<int, 3>{kClear + 100, kClear + 50, kClear + 10}));
    EXPECT_EQ(px[3], (std::array<int, 3>{0, 0, 220}));
}

// The directed light's fall-off with the angle (EntityModelInstance::light_wrap). The quads'
// normals lie flat, at 90 degrees to a light straight above: d = 0. GoldSrc's hemispherical
// lambert (1, 1.495, 1) still lights them at 1 / 1.495 = 0.668896 of the shade light, Quake 3's
// Lambert (0, 1, huge) not at all. Ambient 0.1, shade 0.5, white; no shade vector (the directed
// light replaces it), so texel A (200, 0, 0) shows 200 * (0.1 + 0.5 * 0.668896) = 86.9 -> 87,
// or 200 * 0.1 = 20.
TEST_F(ModelRender, DirectedLightWrapsAsTheInstanceSays) {
    scene::EntityModelInstance inst;
    inst.light = glm::vec3(0.1f);
    inst.directed_light = glm::vec3(0.5f);
    inst.light_dir = glm::vec3(0.0f, 0.0f, 1.0f);
    inst.light_wrap = glm::vec3(1.0f, 1.495f, 1.0f);
    EXPECT_EQ(render(inst)[0], (std::array<int, 3>{87, 0, 0}));
    inst.light_wrap = glm::vec3(0.0f, 1.0f, 1e30f);
    EXPECT_EQ(render(inst)[0], (std::array<int, 3>{20, 0, 0}));
}

// The tone map's factor (an HDR-lit Source map's frame, u_frame.tone_scale) multiplies what a
// model draws, lit or full bright: 0.5 halves texel A's plain 200 and the lit 86.9 (43.4).
TEST_F(ModelRender, ToneScaleMultipliesTheModelsColour) {
    m_tone = 0.5f;
    EXPECT_EQ(render()[0], (std::array<int, 3>{100, 0, 0}));
    scene::EntityModelInstance inst;
    inst.light = glm::vec3(0.1f);
    inst.directed_light = glm::vec3(0.5f);
    inst.light_dir = glm::vec3(0.0f, 0.0f, 1.0f);
    inst.light_wrap = glm::vec3(1.0f, 1.495f, 1.0f);
    EXPECT_EQ(render(inst)[0], (std::array<int, 3>{43, 0, 0}));
}

// Skin 1's own ranges draw quad 1 plain: texel B (9, 9, 9), fullbright, where skin 0 cuts it.
TEST_F(ModelRender, TheSkinsOwnDrawRanges) {
    EXPECT_EQ(render(std::nullopt, false, 1)[1], (std::array<int, 3>{9, 9, 9}));
    EXPECT_EQ(render(std::nullopt, false, 0)[1], (std::array<int, 3>{kClear, kClear, kClear}));
}

// A flat-shaded range (STUDIO_NF_FLATSHADE) takes the shade light at flat_share 0.8 whatever
// its normal: texel A (200, 0, 0) at 200 * (0.1 + 0.5 * 0.8) = 100 under either wrap, where the
// smooth quads beside it show 87 and 20 (DirectedLightWrapsAsTheInstanceSays).
TEST_F(ModelRender, FlatShadedRangesIgnoreTheNormal) {
    scene::EntityModelInstance inst;
    inst.light = glm::vec3(0.1f);
    inst.directed_light = glm::vec3(0.5f);
    inst.light_dir = glm::vec3(0.0f, 0.0f, 1.0f);
    inst.light_wrap = glm::vec3(1.0f, 1.495f, 1.0f);
    EXPECT_EQ(render(inst, true)[0], (std::array<int, 3>{100, 0, 0}));
    inst.light_wrap = glm::vec3(0.0f, 1.0f, 1e30f);
    EXPECT_EQ(render(inst, true)[0], (std::array<int, 3>{100, 0, 0}));
    inst.flat_share = 0.2f;
    EXPECT_EQ(render(inst, true)[0], (std::array<int, 3>{40, 0, 0}));
}

// Quake 3's vertex light is bytes (tr_shade_calc.c RB_CalcDiffuseColor): ambient + directed * d
// truncated, clamped at 255, then doubled by the overbright gamma (u_light_bytes 127.5). The
// quads face (0.6, -0.8, 0), the light comes from there: d = 1.
TEST_F(ModelRender, Quake3VertexLightIsTruncatedAndClampedBytes) {
    scene::EntityModelInstance inst;
    inst.light_dir = glm::vec3(0.6f, -0.8f, 0.0f);
    inst.light_bytes = 127.5f;
    // Ambient 100.9 bytes, the directed light from behind (d = -1, none of it): 100 bytes,
    // 200 * 100 / 127.5 = 156.86 -> 157 (unquantized 200 * 100.9 / 127.5 = 158.3 -> 158).
    inst.light = glm::vec3(100.9f / 127.5f);
    inst.directed_light = glm::vec3(0.5f);
    inst.light_dir = glm::vec3(-0.6f, 0.8f, 0.0f);
    EXPECT_EQ(render(inst)[0], (std::array<int, 3>{157, 0, 0}));
    // Ambient 100 and directed 200 bytes: 300, clamped at 255 = 2.0; texel 60 shows 120
    // (unclamped 60 * 300 / 127.5 = 141.2 -> 141).
    inst.light = glm::vec3(100.0f / 127.5f);
    inst.directed_light = glm::vec3(200.0f / 127.5f);
    inst.light_dir = glm::vec3(0.6f, -0.8f, 0.0f);
    EXPECT_EQ(render(inst, false, 0, std::array<uint8_t, 3>{60, 0, 0})[0],
              (std::array<int, 3>{120, 0, 0}));
    // Without quantization (other games) the same light is 300 / 127.5.
    inst.light_bytes = 0.0f;
    EXPECT_EQ(render(inst, false, 0, std::array<uint8_t, 3>{60, 0, 0})[0],
              (std::array<int, 3>{141, 0, 0}));
}

// A misc_model with "_skin" "red" (tests/support/skin_scene.h): the flag drawn with the skin's
// shader, the body left out. The engine's fixed light (no grid data) at identity light 1/2:
// ambient 91 and directed 75 bytes from (0.428571, 0.285714, 0.857143), the flag facing up:
// 91 + 75 * 0.857143 = 155.29 -> 155 bytes, 155 / 127.5 = 1.215686; texel (60, 90, 120) shows
// (72.9, 109.4, 145.9) -> (73, 109, 146). The flag spans +-1 unit, seen from 2 units below
// (its triangles wind clockwise from there, the side drawn); beyond it (x 1.5) the clear colour.
TEST_F(ModelRender, MiscModelSkinShaderDrawn) {
    skintest::SkinScene s;
    skintest::makeSkinScene(s, "red", "models/test/thing_red.skin", "flag,models/test/red_skin\n");
    scene::EntityModelSet set =
        scene::loadEntityModels(s.map, s.fs, scene::LightmapSet{}, scene::WorldMesh{}, &s.shaders);
    ASSERT_EQ(set.instances.size(), 1u);
    const auto px = renderSet(set, {0.0f, -0.5f, 0.5f, 1.5f}, -2.0f);
    EXPECT_EQ(px[0], (std::array<int, 3>{73, 109, 146}));
    EXPECT_EQ(px[1], (std::array<int, 3>{73, 109, 146}));
    EXPECT_EQ(px[2], (std::array<int, 3>{73, 109, 146}));
    EXPECT_EQ(px[3], (std::array<int, 3>{kClear, kClear, kClear}));
}

// A prop part-way through its distance fade (Source ComputeDistanceFade) blends over what is
// behind by its opacity: fading from 50 to 150 units, seen from 100 above its centre, it is
// (150^2 - 100^2) / (150^2 - 50^2) = 0.625 opaque. Plain texel A (200, 0, 0) over the clear 51:
// 200 * 0.625 + 51 * 0.375 = 144.1, 51 * 0.375 = 19.1; additive texel C (100, 50, 10) adds
// 0.625 of itself: 51 + 62.5, 51 + 31.3, 51 + 6.3. Nearer than 50 it draws whole.
TEST_F(ModelRender, PropPartWayThroughItsFadeBlendsByItsOpacity) {
    for (const float min_dist : {50.0f, 120.0f}) {
        scene::EntityModelSet set;
        set.models.push_back({"quads", fourQuads(), std::nullopt, {}, {}});
        scene::EntityModelInstance inst;
        inst.fullbright = true;
        inst.radius = 80.0f;
        inst.fade.min_sq = min_dist * min_dist;
        inst.fade.max_sq = 150.0f * 150.0f;
        set.instances.push_back(inst);
        const auto px = renderSet(set, {-48.0f, -16.0f, 16.0f, 48.0f});
        if (min_dist > 100.0f) { // within the fade's start: as HalfLifeTextureFlags
            EXPECT_EQ(px[0], (std::array<int, 3>{200, 0, 0}));
            EXPECT_EQ(px[2], (std::array<int, 3>{kClear + 100, kClear + 50, kClear + 10}));
            continue;
        }
        const std::array<int, 3> plain{144, 19, 19}, added{114, 82, 57};
        for (size_t k = 0; k < 3; ++k) {
            EXPECT_NEAR(px[0][k], plain[k], 1) << "plain, channel " << k;
            EXPECT_NEAR(px[2][k], added[k], 1) << "additive, channel " << k;
        }
    }
}

// A sprite picture with its own quad (content::SpritePicture::world_rect, Source detail sprites):
// one texel (200, 100, 50, alpha 128) stretched over 80 x 20 units about the origin, tinted
// (0.5, 1, 1) and alpha-blended over the clear 51 (a = 128 / 255 = 0.50196):
// r 100 a + 51 (1 - a) = 75.6, g 100 a + 51 (1 - a) = 75.6, b 50 a + 51 (1 - a) = 50.5. The
// quad's 40-unit half width reaches x = +-16, not +-48 (the clear colour there).
TEST_F(ModelRender, SpriteQuadOfItsOwnSizeTintedAndBlended) {
    content::Sprite sprite;
    sprite.orientation = content::SpriteOrientation::Parallel;
    sprite.render_mode = content::SpriteRenderMode::IndexAlpha;
    content::SpritePicture p;
    p.width = p.height = 1;
    p.rgba = {200, 100, 50, 128};
    p.world_rect = std::array<float, 4>{-40.0f, -10.0f, 40.0f, 10.0f};
    sprite.pictures.push_back(p);
    sprite.frames.push_back({});
    scene::EntityModelSet set;
    scene::LoadedModel model;
    model.path = "detail";
    model.sprite = sprite;
    set.models.push_back(model);
    scene::EntityModelInstance inst;
    inst.render.blend = scene::ModelBlend::Alpha;
    inst.render.tint = glm::vec3(0.5f, 1.0f, 1.0f);
    inst.radius = 50.0f;
    set.instances.push_back(inst);
    const auto px = renderSet(set, {-48.0f, -16.0f, 16.0f, 48.0f});
    const std::array<int, 3> clear{kClear, kClear, kClear}, blended{76, 76, 50};
    EXPECT_EQ(px[0], clear);
    EXPECT_EQ(px[3], clear);
    for (size_t q : {size_t(1), size_t(2)})
        for (size_t k = 0; k < 3; ++k)
            EXPECT_NEAR(px[q][k], blended[k], 1) << "point " << q << " channel " << k;
}

// Opaque and alpha-tested ranges of one lit instance, each drawn by its own program (the
// alpha-tested one may discard, the other never does; issue 31), both with the instance's light.
// Quad 2 is masked here instead of additive: its texel C (100, 50, 10) has alpha 255, so it is
// kept, and lit like quad 0's texel A: ambient 0.1 + shade 0.5 * 1 / 1.495 (the hemispherical
// wrap of DirectedLightWrapsAsTheInstanceSays) = 0.434448, A (200, 0, 0) -> 86.9 -> 87, C ->
// (43.4, 21.7, 4.3) -> (43, 22, 4). Quad 1's masked texel B is still cut: the clear colour.
TEST_F(ModelRender, OpaqueAndAlphaTestedRangesBothTakeTheInstancesLight) {
    scene::EntityModelSet set;
    content::ModelMesh mesh = fourQuads();
    mesh.ranges[2].additive = false;
    mesh.ranges[2].masked = true;
    mesh.skin_ranges[0] = mesh.ranges;
    set.models.push_back({"quads", mesh, std::nullopt, {}, {}});
    scene::EntityModelInstance inst;
    inst.light = glm::vec3(0.1f);
    inst.directed_light = glm::vec3(0.5f);
    inst.light_dir = glm::vec3(0.0f, 0.0f, 1.0f);
    inst.light_wrap = glm::vec3(1.0f, 1.495f, 1.0f);
    inst.radius = 80.0f;
    set.instances.push_back(inst);
    const auto px = renderSet(set, {-48.0f, -16.0f, 16.0f, 48.0f});
    EXPECT_EQ(px[0], (std::array<int, 3>{87, 0, 0}));
    EXPECT_EQ(px[1], (std::array<int, 3>{kClear, kClear, kClear}));
    EXPECT_EQ(px[2], (std::array<int, 3>{43, 22, 4}));
}

// A Source model's LOD by its size on screen (scene/models/studio_lod.h): seen from 100 units
// above its origin with a 90-degree horizontal fov at 320x180 (tan(fov_y / 2) = 0.5625) in a
// 180-pixel viewport, the metric is 100 * 100 * 0.5625 / 180 = 31.25. LOD 1 draws only quad 0,
// through new vertices whose coordinates fall in texel D (0, 0, 220); the other ranges draw
// nothing there (the clear colour). A switch point of 31 picks LOD 1, 32 keeps LOD 0 (plain A,
// cut B, additive C, chrome D as HalfLifeTextureFlags).
TEST_F(ModelRender, SourceLodChosenByScreenSize) {
    for (const float switch_point : {31.0f, 32.0f}) {
        scene::EntityModelSet set;
        content::ModelMesh mesh = fourQuads();
        mesh.lod_switch_points = {0.0f, switch_point};
        content::ModelMesh::Lod lod1;
        lod1.indices = {16, 17, 18, 16, 18, 19};
        lod1.spans = {{{0, 6}, {0, 0}, {0, 0}, {0, 0}}};
        mesh.lods.push_back(lod1);
        for (uint32_t k = 0; k < 4; ++k) {
            mesh.lod_positions.push_back(mesh.positions[k]);
            mesh.lod_normals.push_back(mesh.normals[k]);
            mesh.lod_uv.push_back({0.75f, 0.75f});
        }
        set.models.push_back({"quads", mesh, std::nullopt, {}, {}});
        scene::EntityModelInstance inst;
        inst.fullbright = true;
        inst.radius = 80.0f;
        set.instances.push_back(inst);
        const auto px = renderSet(set, {-48.0f, -16.0f, 16.0f, 48.0f});
        const std::array<int, 3> clear{kClear, kClear, kClear};
        if (switch_point < 31.25f) {
            EXPECT_EQ(px[0], (std::array<int, 3>{0, 0, 220}));
            EXPECT_EQ(px[1], clear);
            EXPECT_EQ(px[2], clear);
            EXPECT_EQ(px[3], clear);
        } else {
            EXPECT_EQ(px[0], (std::array<int, 3>{200, 0, 0}));
            EXPECT_EQ(px[2], (std::array<int, 3>{kClear + 100, kClear + 50, kClear + 10}));
        }
    }
}

// The view's distance fog on models, as the world takes it (common.glsl viewFog), only with
// draw()'s fog switch: texel A (200, 0, 0) at 100 units' depth straight below the eye.
TEST_F(ModelRender, ViewFogCoversTheModelAsItCoversTheWorld) {
    m_map.distance_fog = glm::vec4(0.0f, 1.0f, 0.0f, 0.0f); // green
    m_map.linear_fog = glm::vec4(50.0f, 150.0f, 0.8f, 1.0f);
    EXPECT_EQ(render()[0], (std::array<int, 3>{200, 0, 0})) << "the switch off: no fog";
    m_fog = true;
    // Linear in depth: (100 - 50) / (150 - 50) = 0.5 of the fog: (100, 127.5, 0).
    std::array<int, 3> got = render()[0];
    EXPECT_NEAR(got[0], 100, 1);
    EXPECT_NEAR(got[1], 127.5, 1);
    EXPECT_EQ(got[2], 0);
    // Radial: quad 0's middle (-48, 0, 0) is sqrt(100^2 + 48^2) = 110.92 from the eye, so
    // 0.6092 of the fog: (78.2, 155.3, 0).
    m_map.linear_fog.w = 2.0f;
    got = render()[0];
    EXPECT_NEAR(got[0], 78.2, 1);
    EXPECT_NEAR(got[1], 155.3, 1);
    // Quake 1's GL_EXP2 at density 0.01: exp(-(100 * 0.01)^2) = 0.3679 of the model kept:
    // (73.6, 161.2, 0).
    m_map.linear_fog = glm::vec4(0.0f);
    m_map.distance_fog.a = 0.01f;
    got = render()[0];
    EXPECT_NEAR(got[0], 73.6, 1);
    EXPECT_NEAR(got[1], 161.2, 1);
}

// Skins go up with mipmaps built on the CPU (content::mipChains) in the order the renderer meets
// them: a set of two models, the second drawn from far above so that its 64x64 skin, stretched
// once over a 32-unit quad, shows ~16 texels a pixel (levels 4 and 5). Its texel columns
// alternate red (200, 0, 0) and blue (0, 0, 100): every level from 1 down is their mean
// (100, 0, 50), which level 0 never shows, and the first model's green skin is not the drawn
// one's.
TEST_F(ModelRender, FarSkinShowsItsOwnMipmapsMean) {
    const auto quadModel = [](std::array<uint8_t, 3> even, std::array<uint8_t, 3> odd) {
        content::ModelMesh m;
        const std::array<std::array<float, 3>, 4> corners = {
            {{-16, -16, 0}, {-16, 16, 0}, {16, 16, 0}, {16, -16, 0}}};
        const std::array<std::array<float, 2>, 4> uv = {{{0, 1}, {0, 0}, {1, 0}, {1, 1}}};
        for (size_t k = 0; k < 4; ++k) {
            m.positions.push_back(corners[k]);
            m.normals.push_back({0, 0, 1});
            m.uv.push_back(uv[k]);
        }
        m.indices = {0, 1, 2, 0, 2, 3};
        m.vertex_count = 4;
        m.pose_count = 1;
        m.frames.push_back({"f", {}});
        content::ModelImage img;
        img.width = img.height = 64;
        for (int i = 0; i < 64 * 64; ++i) {
            const auto& c = (i % 2) ? odd : even;
            img.rgba.insert(img.rgba.end(), {c[0], c[1], c[2], 255});
        }
        m.images.push_back(img);
        m.skins.push_back({});
        m.mins = {-16, -16, 0};
        m.maxs = {16, 16, 0};
        return m;
    };
    scene::EntityModelSet set;
    set.models.push_back({"green", quadModel({0, 255, 0}, {0, 255, 0}), std::nullopt, {}, {}});
    set.models.push_back({"stripes", quadModel({200, 0, 0}, {0, 0, 100}), std::nullopt, {}, {}});
    scene::EntityModelInstance inst;
    inst.model = 1;
    inst.fullbright = true;
    inst.radius = 30.0f;
    set.instances.push_back(inst);
    const auto px = renderSet(set, {0.0f, 0.0f, 0.0f, 0.0f}, 1280.0f);
    const std::array<int, 3> mean{100, 0, 50};
    for (size_t k = 0; k < 3; ++k)
        EXPECT_NEAR(px[0][k], mean[k], 1) << "channel " << k;
}
