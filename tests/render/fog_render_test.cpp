// The Quake 3 fog pass on a real GL context (Mesa llvmpipe under xvfb-run in CI): a fogged
// face takes the fog colour more the farther it is, an unfogged one does not change, and no
// GL error is raised.
#include "gl_fixture.h"
#include "render/world_renderer.h"
#include "render/world_upload.h"
#include "scene/load/map_bundle.h"
#include "scene/view/visibility.h"
#include "scene/world/fog.h"
#include "support/map_builder.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>

namespace {

const glm::vec4 kClear{0.0f, 1.0f, 0.0f, 1.0f};

// The glow-in-fog frames: the colour at the centre (the glow over the wall) and at a corner
// (the wall alone) of a kGlowSide square frame, with the fog pass and fading on or off.
constexpr int kGlowSide = 64;
std::pair<glm::ivec3, glm::ivec3> centreAndCorner(render::WorldRenderer& r,
                                                  render::RenderTarget& target,
                                                  const scene::DrawList& list,
                                                  const scene::Camera& cam, bool fog_on) {
    target.bind();
    render::RenderOptions ro;
    ro.clear_colour = kClear;
    ro.fog = fog_on;
    ro.style_values = scene::lightStyleValues(0.0);
    r.draw(list, cam, ro);
    const std::vector<uint8_t> img = target.readPixels();
    auto at = [&](int x, int y) {
        const uint8_t* p = &img[static_cast<size_t>((y * kGlowSide + x) * 4)];
        return glm::ivec3(p[0], p[1], p[2]);
    };
    return std::pair{at(kGlowSide / 2, kGlowSide / 2), at(4, 4)};
}

// A dark grey wall at x = 100 facing the origin, split at y = 0: the left half (+y) in fog 0, the
// right half (-y) in no fog; one leaf holding both.
bsp::Map splitWall() {
    bsp::Map m;
    testsupport::addMaterial(m, "wall");
    for (int half = 0; half < 2; ++half) {
        const float y0 = half == 0 ? 0.0f : -400.0f, y1 = y0 + 400.0f;
        bsp::Face f;
        f.material = 0;
        f.normal = glm::vec3(-1, 0, 0);
        f.fog = half == 0 ? 0 : -1;
        testsupport::addQuad(
            m, {{{100, y0, -400}, {100, y1, -400}, {100, y1, 400}, {100, y0, 400}}}, f);
    }
    bsp::Fog fog;
    fog.shader = "textures/fog/red";
    m.fogs.push_back(fog);
    testsupport::addWorldLeaf(m, glm::vec3(-400), glm::vec3(400));
    return m;
}

// `count` plain grey 8x8 textures, one per material of the test maps.
std::vector<content::TextureInfo> greyTextures(size_t count) {
    std::vector<content::TextureInfo> textures(count);
    for (content::TextureInfo& t : textures) {
        t.image.width = t.image.height = 8;
        t.image.rgba.assign(8 * 8 * 4, 40);
        t.missing = false;
    }
    return textures;
}

class FogRender : public gltest::GlFixture {};

} // namespace

TEST_F(FogRender, FoggedFaceTakesTheFogColourWithDistance) {
    const bsp::Map map = splitWall();
    const scene::WorldMesh mesh = scene::buildWorldMesh(map);
    const std::vector<content::TextureInfo> textures = greyTextures(1);
    render::WorldRenderer r;
    std::string error;
    ASSERT_TRUE(r.init(render::GlslLibrary(), &error)) << error;
    ASSERT_TRUE(r.upload({map, mesh, textures}, &error)) << error;
    scene::FogVolume red;
    red.colour = glm::vec3(1.0f, 0.0f, 0.0f);
    red.distance = 400.0f; // no visible side: fogged by depth alone
    red.valid = true;
    const std::vector<scene::FogVolume> fogs1{red};

    ASSERT_TRUE(r.upload({map, mesh, textures, nullptr, nullptr, &fogs1}, &error)) << error;

    scene::Visibility vis(map, mesh);
    scene::DrawList list;
    constexpr int kSide = 128;
    render::RenderTarget target;
    ASSERT_TRUE(target.create(kSide, kSide, &error)) << error;
    // The pixel at the middle row, a quarter in from the left (fogged half) or the right.
    struct Sample {
        glm::ivec3 fogged, clear;
    };
    auto frame = [&](float x, bool fog, bool fold = true) {
        scene::Camera cam; // looking along +X: +y is the left of the image
        cam.position = glm::vec3(x, 0.0f, 0.0f);
        cam.aspect = 1.0f;
        vis.update(cam, {}, list);
        target.bind();
        render::RenderOptions ro;
        ro.clear_colour = kClear;
        ro.fog = fog;
        ro.fold_stages = fold;
        ro.style_values = scene::lightStyleValues(0.0);
        r.draw(list, cam, ro);
        const std::vector<uint8_t> img = target.readPixels();
        auto at = [&](int px) {
            const uint8_t* p = &img[static_cast<size_t>(((kSide / 2) * kSide + px) * 4)];
            return glm::ivec3(p[0], p[1], p[2]);
        };
        return Sample{at(kSide / 4), at(kSide * 3 / 4)};
    };

    const Sample off_near = frame(0.0f, false), off_far = frame(-200.0f, false);
    // Without fog both halves are the same grey, near or far.
    EXPECT_EQ(off_near.fogged, off_near.clear);
    EXPECT_EQ(off_far.fogged, off_far.clear);
    ASSERT_NE(off_near.clear, glm::ivec3(0, 255, 0)) << "the wall is not on screen";
    ASSERT_GT(off_near.clear.g, 40) << "the wall is too dark to see fog";

    const Sample near = frame(0.0f, true), far = frame(-200.0f, true); // depth 100 and 300
    // The unfogged half does not change.
    EXPECT_EQ(near.clear, off_near.clear);
    EXPECT_EQ(far.clear, off_far.clear);
    // The fogged half turns red: sqrt(100 / 400) = 0.5 near, sqrt(300 / 400) ~ 0.87 far.
    const int grey = off_near.clear.g;
    EXPECT_GT(near.fogged.r, grey + 40);
    EXPECT_LT(near.fogged.g, grey - 20);
    EXPECT_GT(far.fogged.r, near.fogged.r + 20);
    EXPECT_LT(far.fogged.g, near.fogged.g - 10);
    EXPECT_NEAR(near.fogged.g, grey / 2, 6);
    EXPECT_NEAR(far.fogged.r, static_cast<int>(255 * 0.866 + grey * 0.134), 8);

    // By default the wall's own program fogs it (render::WorldRenderer::fogInProgram); with
    // fold_stages off the fog pass does, as ioquake3 draws it: the same colours, one draw more.
    const Sample near_pass = frame(0.0f, true, false);
    const uint32_t pass_draws = r.submitStats().draw_calls;
    const Sample near_folded = frame(0.0f, true, true);
    EXPECT_EQ(r.submitStats().draw_calls + 1, pass_draws) << "no fog pass";
    for (int c = 0; c < 3; ++c) {
        EXPECT_NEAR(near_folded.fogged[c], near_pass.fogged[c], 1) << c;
        EXPECT_EQ(near_folded.clear[c], near_pass.clear[c]) << c;
    }
}

TEST_F(FogRender, FogWithoutFogParmsOrFogNumbersDrawsNothing) {
    const bsp::Map map = splitWall();
    const scene::WorldMesh mesh = scene::buildWorldMesh(map);
    const std::vector<content::TextureInfo> textures = greyTextures(1);
    render::WorldRenderer r;
    std::string error;
    ASSERT_TRUE(r.init(render::GlslLibrary(), &error)) << error;
    ASSERT_TRUE(r.upload({map, mesh, textures}, &error)) << error;
    scene::Visibility vis(map, mesh);
    scene::DrawList list;
    scene::Camera cam;
    cam.aspect = 1.0f;
    vis.update(cam, {}, list);
    render::RenderTarget target;
    ASSERT_TRUE(target.create(64, 64, &error)) << error;
    auto image = [&] {
        target.bind();
        render::RenderOptions ro;
        ro.clear_colour = kClear;
        ro.style_values = scene::lightStyleValues(0.0);
        r.draw(list, cam, ro);
        return target.readPixels();
    };
    const std::vector<uint8_t> plain = image();
    scene::FogVolume invalid; // its shader had no fogParms
    invalid.colour = glm::vec3(1.0f, 0.0f, 0.0f);
    const std::vector<scene::FogVolume> fogs1{invalid};

    ASSERT_TRUE(r.upload({map, mesh, textures, nullptr, nullptr, &fogs1}, &error)) << error;
    EXPECT_EQ(image(), plain);
    scene::FogVolume red = invalid;
    red.valid = true;
    const std::vector<scene::FogVolume> fogs2{red};

    ASSERT_TRUE(r.upload({map, mesh, textures, nullptr, nullptr, &fogs2}, &error)) << error;
    EXPECT_NE(image(), plain);
}

// OpenArena's oacmpdm1: its intermission camera looks down into a ground fog whose top was
// drawn as an opaque checker before fog volumes were drawn. With fog the floor under it is
// seen through a light grey haze (ioquake3's picture has mean 37.9 there).
TEST_F(FogRender, OacmpdmOneIntermissionLooksThroughItsGroundFog) {
    auto b = scene::loadMapBundle(
        std::string(BSPV_OPENARENA_DIR) + "/z_oacmp-volume1-v3.pk3:maps/oacmpdm1.bsp", {});
    ASSERT_TRUE(b.ok()) << b.error().message();
    const scene::MapBundle& bundle = **b;
    ASSERT_EQ(bundle.fogs.size(), 1u);
    const scene::FogVolume& fog = bundle.fogs[0];
    EXPECT_TRUE(fog.valid);
    EXPECT_TRUE(fog.has_surface);
    EXPECT_GT(fog.distance, 1.0f);
    for (int axis = 0; axis < 3; ++axis) {
        EXPECT_LT(fog.mins[axis], fog.maxs[axis]) << axis;
        EXPECT_GT(fog.mins[axis], -65536.0f) << axis;
        EXPECT_LT(fog.maxs[axis], 65536.0f) << axis;
    }
    size_t fogged = 0;
    for (const bsp::Face& f : bundle.map.faces)
        fogged += f.fog == 0 ? 1 : 0;
    EXPECT_GT(fogged, 0u);

    render::WorldRenderer r;
    std::string error;
    ASSERT_TRUE(r.init(render::GlslLibrary(), &error)) << error;
    const core::Status st = render::uploadBundle(r, bundle);
    ASSERT_TRUE(st.ok()) << (st.ok() ? "" : st.error().message());
    scene::Camera cam;
    cam.position = glm::vec3(2176, 360, -144);
    cam.yaw = -135.0f;
    cam.aspect = 16.0f / 9.0f;
    scene::Visibility vis(bundle.map, bundle.mesh);
    scene::DrawList list;
    vis.update(cam, {}, list);
    constexpr int kW = 320, kH = 180;
    render::RenderTarget target;
    ASSERT_TRUE(target.create(kW, kH, &error)) << error;
    // Mean brightness of the lower half of the image (the fogged floor).
    auto lowerMean = [&](bool fog_on) {
        target.bind();
        render::RenderOptions ro;
        ro.fog = fog_on;
        ro.style_values = scene::lightStyleValues(0.0);
        r.draw(list, cam, ro);
        const std::vector<uint8_t> img = target.readPixels();
        double sum = 0.0;
        for (int y = kH / 2; y < kH; ++y)
            for (int x = 0; x < kW; ++x)
                for (int c = 0; c < 3; ++c)
                    sum += img[static_cast<size_t>((y * kW + x) * 4 + c)];
        return sum / (kW * (kH / 2) * 3);
    };
    const double off = lowerMean(false), on = lowerMean(true);
    EXPECT_GT(on, off + 15.0) << "off " << off << ", on " << on;
    EXPECT_GT(on, 35.0);
}

namespace {

// An unfogged grey wall at x = 200 and, in front of it at x = 100, a small additive quad in fog
// 0 (material 1, one white stage blended GL_ONE GL_ONE).
// With two_glows a second, smaller glow quad in the same fog sits just behind the first: the
// two share one batch.
bsp::Map glowInFog(bool two_glows = false) {
    bsp::Map m;
    testsupport::addMaterial(m, "wall");
    testsupport::addMaterial(m, "glow", bsp::kSurfTranslucent | bsp::kSurfAdditive);
    auto quad = [&m](int32_t material, int32_t fog, float x, float h) {
        bsp::Face f;
        f.material = material;
        f.normal = glm::vec3(-1, 0, 0);
        f.fog = fog;
        testsupport::addQuad(m, {{{x, -h, -h}, {x, h, -h}, {x, h, h}, {x, -h, h}}}, f);
    };
    quad(0, -1, 200.0f, 400.0f);
    quad(1, 0, 100.0f, 30.0f);
    if (two_glows)
        quad(1, 0, 110.0f, 20.0f);
    testsupport::addWorldLeaf(m, glm::vec3(-400), glm::vec3(400));
    return m;
}

// Stages of glowInFog's materials: the glow (material 1) one additive stage of `level` grey.
scene::MaterialStages additiveGlow(float level) {
    scene::MaterialStages stages;
    stages.materials.resize(2);
    scene::RenderStage white;
    white.source = scene::StageSource::White;
    white.def.map = content::MapKind::White;
    white.def.blend = true;
    white.def.src = content::BlendFactor::One;
    white.def.dst = content::BlendFactor::One;
    white.def.depth_write = false;
    white.rgb_gen = content::RgbGen::Const;
    white.def.rgb_gen = content::RgbGen::Const;
    white.def.rgb_const = glm::vec3(level);
    stages.materials[1].stages.push_back(white);
    return stages;
}

} // namespace

// ioquake3's adjustColorsForFog: a blended shader gets no fog pass; its additive stage fades
// with the fog in front of it, to nothing where the fog is opaque.
TEST_F(FogRender, AdditiveStageFadesInFog) {
    const bsp::Map map = glowInFog();
    const scene::WorldMesh mesh = scene::buildWorldMesh(map);
    ASSERT_EQ(mesh.faces[1].pass, scene::Pass::Translucent);
    // The glow's additive stage: well under white, no clamping in the sums below.
    const std::vector<content::TextureInfo> textures = greyTextures(2);
    const scene::MaterialStages stages = additiveGlow(0.4f);
    render::WorldRenderer r;
    std::string error;
    ASSERT_TRUE(r.init(render::GlslLibrary(), &error)) << error;
    ASSERT_TRUE(r.upload({map, mesh, textures, nullptr, &stages}, &error)) << error;
    scene::FogVolume fog;
    fog.colour = glm::vec3(0.0f, 0.0f, 1.0f);
    fog.valid = true;

    scene::Visibility vis(map, mesh);
    scene::DrawList list;
    scene::Camera cam;
    cam.aspect = 1.0f;
    vis.update(cam, {}, list);
    render::RenderTarget target;
    ASSERT_TRUE(target.create(kGlowSide, kGlowSide, &error)) << error;
    auto frame = [&](bool fog_on) { return centreAndCorner(r, target, list, cam, fog_on); };
    const auto [glow_off, wall] = frame(false);
    ASSERT_GT(glow_off.g, wall.g + 60) << "the glow adds light without fog";
    fog.distance = 50.0f; // opaque at depth 100: the glow is gone
    const std::vector<scene::FogVolume> fogs1{fog};

    ASSERT_TRUE(r.upload({map, mesh, textures, nullptr, &stages, &fogs1}, &error)) << error;
    const auto [glow_thick, wall_thick] = frame(true);
    EXPECT_EQ(wall_thick, wall) << "the wall is not in the fog";
    EXPECT_EQ(glow_thick, wall);
    fog.distance = 400.0f; // half: sqrt(100 / 400)
    const std::vector<scene::FogVolume> fogs2{fog};

    ASSERT_TRUE(r.upload({map, mesh, textures, nullptr, &stages, &fogs2}, &error)) << error;
    const auto [glow_half, wall_half] = frame(true);
    EXPECT_NEAR(glow_half.g - wall.g, (glow_off.g - wall.g) / 2, 3);
    EXPECT_EQ(glow_half.b - wall.b, glow_half.g - wall.g) << "no fog colour is added";
}

// Blended faces of one fog share a batch (scene::Visibility merges them); every face of the
// batch still fades with that fog, as it would drawn alone.
TEST_F(FogRender, MergedBlendedFacesFadeWithTheirFog) {
    const bsp::Map map = glowInFog(true);
    const scene::WorldMesh mesh = scene::buildWorldMesh(map);
    const std::vector<content::TextureInfo> textures = greyTextures(2);
    const scene::MaterialStages stages = additiveGlow(0.3f);
    render::WorldRenderer r;
    std::string error;
    ASSERT_TRUE(r.init(render::GlslLibrary(), &error)) << error;
    ASSERT_TRUE(r.upload({map, mesh, textures, nullptr, &stages}, &error)) << error;

    scene::Visibility vis(map, mesh);
    scene::DrawList list;
    scene::Camera cam;
    cam.aspect = 1.0f;
    vis.update(cam, {}, list);
    ASSERT_EQ(list.batches.size(), 2u);
    ASSERT_EQ(list.batches[1].num_faces, 2u) << "the two glows in one batch";
    EXPECT_EQ(list.batches[1].fog, 0);
    render::RenderTarget target;
    ASSERT_TRUE(target.create(kGlowSide, kGlowSide, &error)) << error;
    auto frame = [&](bool fog_on) { return centreAndCorner(r, target, list, cam, fog_on); };
    const auto [glows_off, wall] = frame(false);
    ASSERT_GT(glows_off.g, wall.g + 60) << "both glows add light without fog";
    scene::FogVolume fog;
    fog.colour = glm::vec3(0.0f, 0.0f, 1.0f);
    fog.valid = true;
    fog.distance = 50.0f; // opaque from depth 50 on: both glows are gone
    const std::vector<scene::FogVolume> fogs1{fog};

    ASSERT_TRUE(r.upload({map, mesh, textures, nullptr, &stages, &fogs1}, &error)) << error;
    const auto [glows_thick, wall_thick] = frame(true);
    EXPECT_EQ(wall_thick, wall);
    EXPECT_EQ(glows_thick, wall) << "each merged face fades with the fog";
}
