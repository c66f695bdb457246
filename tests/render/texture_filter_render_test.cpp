// Texture filtering and sky fallbacks as each game's engine does them (issue 32): the texture
// parameters a map's textures get from its game's rules (game::MapRules::textures) and from the
// viewer's choice over them, read back from GL; and the exact pixels of a sky whose box images
// are missing (game::SkyFallback): Xash3D's grey for Half-Life, Yamagi's gl3_notexture dots for
// Quake 2, drawn on a synthetic cube of sky faces.
#include "content/material/skybox.h"
#include "game/profile.h"
#include "gl_fixture.h"
#include "render/render_target.h"
#include "render/world_renderer.h"
#include "scene/load/map_bundle.h"
#include "scene/view/visibility.h"
#include "support/map_builder.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

namespace {

class TextureFilterRender : public gltest::GlFixture {};

bsp::Map factsOnly(bsp::Format format) {
    bsp::Map m;
    m.format = format;
    m.has_light_data = true;
    bsp::Entity e;
    e.pairs.emplace_back("classname", "worldspawn");
    m.entities.push_back(std::move(e));
    return m;
}

// A 200-unit cube around the origin, all of material 0 (flags `flags`), one leaf.
bsp::Map cube(uint32_t flags) {
    return testsupport::cubeRoomMap("tex", flags);
}

content::Image checker(int size) {
    content::Image img;
    img.width = img.height = size;
    img.rgba.resize(static_cast<size_t>(size * size * 4));
    for (int i = 0; i < size * size; ++i) {
        const uint8_t v = ((i % size) / 4 + (i / size) / 4) % 2 ? 255 : 0;
        for (int k = 0; k < 3; ++k)
            img.rgba[static_cast<size_t>(i * 4 + k)] = v;
        img.rgba[static_cast<size_t>(i * 4 + 3)] = 255;
    }
    return img;
}

struct Params {
    GLint min = 0, mag = 0;
    GLfloat anisotropy = 0.0f;
};

Params paramsOf(GLuint texture) {
    Params p;
    glBindTexture(GL_TEXTURE_2D, texture);
    glGetTexParameteriv(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, &p.min);
    glGetTexParameteriv(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, &p.mag);
    p.anisotropy = 1.0f;
    if (render::caps().max_anisotropy > 1.0f)
        glGetTexParameterfv(GL_TEXTURE_2D, GL_TEXTURE_MAX_ANISOTROPY, &p.anisotropy);
    glBindTexture(GL_TEXTURE_2D, 0);
    return p;
}

void drawOnce(render::WorldRenderer& r, const bsp::Map& map, const scene::WorldMesh& mesh,
              const render::RenderOptions& options) {
    render::RenderTarget target;
    std::string error;
    ASSERT_TRUE(target.create(16, 16, &error)) << error;
    target.bind();
    scene::Visibility vis(map, mesh);
    scene::DrawList list;
    scene::Camera cam;
    cam.aspect = 1.0f;
    cam.z_near = 1.0f;
    vis.update(cam, {}, list);
    r.draw(list, cam, options);
}

} // namespace

// Each game's texture mode and anisotropy (clamped to what the context offers) on the map's
// textures after upload, and the viewer's choice laid over them at the next frame.
TEST_F(TextureFilterRender, EachGamesFilterIsSetOnTheMapsTextures) {
    const bsp::Map map = cube(0);
    const scene::WorldMesh mesh = scene::buildWorldMesh(map);
    std::vector<content::TextureInfo> textures(1);
    textures[0].image = checker(64);
    const float most = std::max(1.0f, render::caps().max_anisotropy);
    struct Case {
        bsp::Format format;
        GLint min;
        float anisotropy;
    };
    const Case cases[] = {
        {bsp::Format::HalfLife, GL_LINEAR_MIPMAP_LINEAR, std::min(8.0f, most)},
        {bsp::Format::Quake2, GL_LINEAR_MIPMAP_NEAREST, 1.0f},
        {bsp::Format::Quake1, GL_LINEAR_MIPMAP_LINEAR, 1.0f},
        {bsp::Format::Quake3, GL_LINEAR_MIPMAP_LINEAR, 1.0f},
        {bsp::Format::Source, GL_LINEAR_MIPMAP_LINEAR, 1.0f},
    };
    for (const Case& c : cases) {
        SCOPED_TRACE(std::string(game::familyName(game::familyOf(c.format))));
        render::WorldRenderer r;
        std::string error;
        ASSERT_TRUE(r.init(render::GlslLibrary(), &error)) << error;
        render::WorldSource source{map, mesh, textures};
        source.rules = game::profileFor(factsOnly(c.format)).rules;
        ASSERT_TRUE(r.upload(source, &error)) << error;
        Params p = paramsOf(r.materialTexture(0));
        EXPECT_EQ(p.min, c.min);
        EXPECT_EQ(p.mag, GL_LINEAR);
        EXPECT_EQ(p.anisotropy, c.anisotropy);
        // The viewer's choice: nearest texels, anisotropy 2; then back to the game's.
        render::RenderOptions options;
        options.texture_filter.mode = game::TextureMode::NearestMipmapNearest;
        options.texture_filter.anisotropy = 2.0f;
        drawOnce(r, map, mesh, options);
        p = paramsOf(r.materialTexture(0));
        EXPECT_EQ(p.min, GL_NEAREST_MIPMAP_NEAREST);
        EXPECT_EQ(p.mag, GL_NEAREST);
        EXPECT_EQ(p.anisotropy, std::min(2.0f, most));
        drawOnce(r, map, mesh, render::RenderOptions());
        p = paramsOf(r.materialTexture(0));
        EXPECT_EQ(p.min, c.min);
        EXPECT_EQ(p.anisotropy, c.anisotropy);
    }
    // Anisotropy past the driver's limit is clamped to it; below 1 it is 1.
    const game::TextureFilter hl =
        game::profileFor(factsOnly(bsp::Format::HalfLife)).rules.textures;
    EXPECT_EQ(render::effectiveTextureFilter(hl, {.mode = {}, .anisotropy = 1000.0f}).anisotropy,
              most);
    EXPECT_EQ(render::effectiveTextureFilter(hl, {.mode = {}, .anisotropy = 0.5f}).anisotropy,
              1.0f);
}

namespace {

// The view along +X (yaw 0) from the centre of a cube of sky faces whose box is `family`'s
// fallback, 64 x 64, top row first.
std::vector<uint8_t> fallbackSkyView(bsp::Format format, float pitch, float yaw) {
    const bsp::Map map = cube(bsp::kSurfSky);
    const scene::WorldMesh mesh = scene::buildWorldMesh(map);
    std::vector<content::TextureInfo> textures(1);
    textures[0].image = checker(16); // the sky texture, which must not show
    const game::GameProfile profile = game::profileFor(factsOnly(format));
    const auto sky = content::fallbackSkyBox("fallback", profile.sky_fallback.face_size,
                                             profile.sky_fallback.face);
    EXPECT_TRUE(sky);
    render::WorldRenderer r;
    std::string error;
    EXPECT_TRUE(r.init(render::GlslLibrary(), &error)) << error;
    render::WorldSource source{map, mesh, textures, sky ? &*sky : nullptr};
    source.rules = profile.rules;
    EXPECT_TRUE(r.upload(source, &error)) << error;
    render::RenderTarget target;
    EXPECT_TRUE(target.create(64, 64, &error)) << error;
    target.bind();
    scene::Visibility vis(map, mesh);
    scene::DrawList list;
    scene::Camera cam;
    cam.pitch = pitch;
    cam.yaw = yaw;
    cam.aspect = 1.0f;
    cam.z_near = 1.0f;
    vis.update(cam, {}, list);
    r.draw(list, cam, render::RenderOptions());
    return target.readPixels();
}

glm::ivec3 at(const std::vector<uint8_t>& rgba, int x, int y) {
    const uint8_t* p = gltest::pixelAt(rgba, 64, x, y);
    return {p[0], p[1], p[2]};
}

} // namespace

// Half-Life without its sky box: Xash3D's tr.grayTexture, 127 grey, in every pixel of every
// direction.
TEST_F(TextureFilterRender, HalfLifeSkyWithoutItsBoxIsXashGrey) {
    for (const auto& [pitch, yaw] : {std::pair{0.0f, 0.0f}, {0.0f, 135.0f}, {-89.0f, 0.0f}}) {
        const auto img = fallbackSkyView(bsp::Format::HalfLife, pitch, yaw);
        for (int y = 0; y < 64; ++y)
            for (int x = 0; x < 64; ++x)
                ASSERT_EQ(at(img, x, y), glm::ivec3(127)) << x << "," << y;
    }
}

// Quake 2 without its sky box: gl3_notexture stretched over the side. Looking along +X the
// side fills the view, texel (u, v) at pixel 64 * u / 8 - 0.5: the 2 x 3 red block of texels
// x 2..3, y 1..3 and the black 2 x 2 block x 4..5, y 4..5 (the mask read the other way round
// would put black at the first and red next to the second).
TEST_F(TextureFilterRender, QuakeTwoSkyWithoutItsBoxIsYamagisNoTexture) {
    const auto img = fallbackSkyView(bsp::Format::Quake2, 0.0f, 0.0f);
    for (int y = 17; y <= 22; ++y)
        for (int x = 22; x <= 26; ++x)
            ASSERT_EQ(at(img, x, y), glm::ivec3(255, 0, 0)) << x << "," << y;
    for (int y = 38; y <= 41; ++y)
        for (int x = 38; x <= 41; ++x)
            ASSERT_EQ(at(img, x, y), glm::ivec3(0, 0, 0)) << x << "," << y;
}

// A real Half-Life map whose "skyname" box is absent here (and so is gfx/env/desert): the
// bundle carries the grey fallback box.
TEST_F(TextureFilterRender, RealHalfLifeMapGetsTheGreyFallbackBox) {
    auto b = scene::loadMapBundle(std::string(BSPV_SHARED_MAPS_DIR) + "/hl/cs_awp_india.bsp",
                                  scene::LoadSettings());
    ASSERT_TRUE(b.ok()) << b.error().message();
    ASSERT_TRUE((*b)->skybox);
    EXPECT_EQ((*b)->skybox->base, "fallback");
    EXPECT_TRUE((*b)->skybox->repeat);
    EXPECT_EQ((*b)->skybox->faces[3].rgba, (std::vector<uint8_t>{127, 127, 127, 255}));
}
