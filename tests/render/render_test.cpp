// Rendering on a real GL context (Mesa llvmpipe under xvfb-run in CI). Every test checks that
// the KHR_debug callback saw no GL error.
#include "gl_fixture.h"
#include "render/draw_state.h"
#include "render/flare_renderer.h"
#include "render/gl_state.h"
#include "render/world_renderer.h"
#include "render/world_upload.h"
#include "scene/load/map_bundle.h"
#include "scene/view/visibility.h"
#include "support/map_builder.h"

#include <gtest/gtest.h>

#include <functional>

#include <filesystem>
#include <fstream>
#include <memory>
#include <string>

namespace {

const glm::vec4 kClear{0.0f, 1.0f, 0.0f, 1.0f}; // pure green: no map texel is exactly that

class Render : public gltest::GlFixture {
protected:
    std::unique_ptr<scene::MapBundle> load(const std::string& spec) {
        scene::LoadSettings settings;
        auto b = scene::loadMapBundle(spec, settings);
        EXPECT_TRUE(b.ok()) << (b.ok() ? "" : b.error().message());
        return b.ok() ? std::move(*b) : nullptr;
    }

    // A renderer with the bundle uploaded (the same upload path as the app's).
    static std::unique_ptr<render::WorldRenderer> uploaded(const scene::MapBundle& b) {
        auto r = std::make_unique<render::WorldRenderer>();
        std::string error;
        EXPECT_TRUE(r->init(render::GlslLibrary(), &error)) << error;
        const core::Status st = render::uploadBundle(*r, b);
        EXPECT_TRUE(st.ok()) << (st.ok() ? "" : st.error().message());
        return r;
    }

    // Renders the bundle from cam into a w x h RGBA image.
    std::vector<uint8_t> renderImage(render::WorldRenderer& r, const scene::DrawList& list,
                                     const scene::Camera& cam, int w, int h,
                                     render::ViewMode view = render::ViewMode::Lit) {
        render::RenderTarget target;
        std::string error;
        EXPECT_TRUE(target.create(w, h, &error)) << error;
        target.bind();
        render::RenderOptions ro;
        ro.clear_colour = kClear;
        ro.view = view;
        ro.style_values = scene::lightStyleValues(0.0);
        r.draw(list, cam, ro);
        return target.readPixels();
    }

    static double nonBackgroundFraction(const std::vector<uint8_t>& rgba) {
        size_t n = 0;
        for (size_t i = 0; i + 3 < rgba.size(); i += 4)
            if (!(rgba[i] == 0 && rgba[i + 1] == 255 && rgba[i + 2] == 0))
                ++n;
        return static_cast<double>(n) / static_cast<double>(rgba.size() / 4);
    }
};

TEST_F(Render, SpawnPointsOfRealMapsAreMostlyCovered) {
    for (const std::string& spec :
         {std::string(BSPV_SHARED_MAPS_DIR) + "/q3/bc_crypt.bsp",
          std::string(BSPV_OPENARENA_DIR) + "/pak1-maps.pk3:maps/oa_dm5.bsp",
          std::string(BSPV_OPENARENA_DIR) + "/z_oacmp-volume1-v3.pk3:maps/oacmpdm1.bsp"}) {
        auto b = load(spec);
        ASSERT_TRUE(b);
        auto renderer = uploaded(*b);
        render::WorldRenderer& r = *renderer;
        scene::Visibility vis(b->map, b->mesh);
        scene::DrawList list;
        const size_t spawns = std::min<size_t>(b->spawns.size(), 4);
        ASSERT_GT(spawns, 0u);
        for (size_t i = 0; i < spawns; ++i) {
            auto cam = scene::spawnCamera(*b, i);
            ASSERT_TRUE(cam.has_value());
            cam->aspect = 16.0f / 9.0f;
            vis.update(*cam, {}, list);
            const auto img = renderImage(r, list, *cam, 320, 180);
            EXPECT_GT(nonBackgroundFraction(img), 0.97) << spec << " spawn " << i;
        }
    }
}

TEST_F(Render, LockedVisibilitySurvivesCameraMoves) {
    auto b = load(std::string(BSPV_OPENARENA_DIR) + "/pak1-maps.pk3:maps/oa_dm5.bsp");
    ASSERT_TRUE(b);
    auto renderer = uploaded(*b);
    render::WorldRenderer& r = *renderer;
    scene::Visibility vis(b->map, b->mesh);
    scene::DrawList list;
    auto cam = scene::spawnCamera(*b, 0);
    ASSERT_TRUE(cam.has_value());
    scene::VisOptions opts;
    vis.update(*cam, opts, list);
    const std::vector<uint32_t> locked = list.faces;
    const auto before = renderImage(r, list, *cam, 160, 90);
    opts.lock = true;
    // Fly out of the map: the locked set is still what gets drawn, seen from outside.
    scene::Camera outside = *cam;
    outside.position = b->map.worldMaxs() + glm::vec3(256.0f);
    outside.pitch = 35.0f;
    outside.yaw = 225.0f;
    vis.update(outside, opts, list);
    EXPECT_EQ(list.faces, locked);
    const auto after = renderImage(r, list, outside, 160, 90);
    EXPECT_NE(before, after);
    EXPECT_GT(nonBackgroundFraction(after), 0.0);
    EXPECT_LT(nonBackgroundFraction(after), 0.9); // a fragment of the map, not all of it
    opts.lock = false;
    vis.update(outside, opts, list);
    EXPECT_NE(list.faces, locked);
}

TEST_F(Render, ViewModesChangeTheImage) {
    auto b = load(std::string(BSPV_SHARED_MAPS_DIR) + "/q3/bc_crypt.bsp");
    ASSERT_TRUE(b);
    auto renderer = uploaded(*b);
    render::WorldRenderer& r = *renderer;
    scene::Visibility vis(b->map, b->mesh);
    scene::DrawList list;
    auto cam = scene::spawnCamera(*b, 0);
    ASSERT_TRUE(cam.has_value());
    vis.update(*cam, {}, list);
    auto mean = [](const std::vector<uint8_t>& img) {
        double s = 0;
        for (size_t i = 0; i + 3 < img.size(); i += 4)
            s += img[i] + img[i + 1] + img[i + 2];
        return s / static_cast<double>(img.size() / 4 * 3);
    };
    const auto lit = renderImage(r, list, *cam, 160, 90, render::ViewMode::Lit);
    const auto full = renderImage(r, list, *cam, 160, 90, render::ViewMode::Fullbright);
    // bc_crypt is a dark crypt: without lightmap darkening the textures are much brighter.
    EXPECT_GT(mean(full), mean(lit) * 1.5);
    // Every other mode renders and gives a different picture.
    for (render::ViewMode mode :
         {render::ViewMode::Lightmap, render::ViewMode::Flat, render::ViewMode::Normals,
          render::ViewMode::Overdraw, render::ViewMode::Deluxe}) {
        const auto img = renderImage(r, list, *cam, 160, 90, mode);
        EXPECT_NE(img, lit) << render::viewModeName(mode);
        EXPECT_GT(nonBackgroundFraction(img), 0.5) << render::viewModeName(mode);
    }
    // Overdraw ignores depth: at least as many layers as the lit view shows anywhere.
    const auto heat = renderImage(r, list, *cam, 160, 90, render::ViewMode::Overdraw);
    int max_red = 0;
    for (size_t i = 0; i + 3 < heat.size(); i += 4)
        max_red = std::max<int>(max_red, heat[i]);
    EXPECT_GT(max_red, 2 * 26); // more than two layers somewhere (0.10 per layer)
}

TEST_F(Render, FailedUploadKeepsTheCurrentWorld) {
    auto b = load(std::string(BSPV_SHARED_MAPS_DIR) + "/q3/bc_enemyTest.bsp");
    ASSERT_TRUE(b);
    auto renderer = uploaded(*b);
    render::WorldRenderer& r = *renderer;
    const auto stats = r.gpuStats();
    std::vector<content::TextureInfo> wrong; // does not match the materials
    std::string error;
    EXPECT_FALSE(r.upload({b->map, b->mesh, wrong}, &error));
    EXPECT_TRUE(r.hasWorld());
    EXPECT_EQ(r.gpuStats().vertex_bytes, stats.vertex_bytes);
}

} // namespace

namespace {

// A 200-unit cube of sky faces around the origin, one leaf, no vis.
bsp::Map skyCube() {
    return testsupport::cubeRoomMap("sky", bsp::kSurfSky);
}

// A face image: a solid colour per face, except "rt" whose quadrants show its orientation.
content::Image skyFace(int face, int size = 16) {
    static const uint8_t kColours[6][3] = {{200, 0, 0},   {0, 200, 0},   {0, 0, 200},
                                           {200, 200, 0}, {0, 200, 200}, {200, 0, 200}};
    content::Image img;
    img.width = img.height = size;
    img.rgba.resize(static_cast<size_t>(size * size * 4));
    const int half = size / 2;
    for (int y = 0; y < size; ++y)
        for (int x = 0; x < size; ++x) {
            uint8_t* p = &img.rgba[static_cast<size_t>((y * size + x) * 4)];
            const uint8_t* col = kColours[face];
            p[0] = col[0];
            p[1] = col[1];
            p[2] = col[2];
            p[3] = 255;
            if (face == 0 && y < half) // top half of "rt" white
                p[0] = p[1] = p[2] = 255;
            if (face == 0 && y >= half && x >= half) // bottom-right quarter of "rt" black
                p[0] = p[1] = p[2] = 0;
        }
    return img;
}

// The image `list` draws from `cam` at w x h (the fixture's renderImage).
using DrawImage = std::function<std::vector<uint8_t>(render::WorldRenderer&, const scene::DrawList&,
                                                     const scene::Camera&, int, int)>;

// The six faces drawn around the eye in Quake's order and axes.
void expectQuakeSkyConvention(const content::SkyBox& sky, const DrawImage& renderImage) {
    const bsp::Map map = skyCube();
    const scene::WorldMesh mesh = scene::buildWorldMesh(map);
    std::vector<content::TextureInfo> textures(1);
    textures[0].image = content::makeMissingTexture();
    textures[0].missing = true;
    render::GlslLibrary shaders;
    render::WorldRenderer r;
    std::string error;
    ASSERT_TRUE(r.init(shaders, &error)) << error;
    ASSERT_TRUE(r.upload({map, mesh, textures, &sky}, &error)) << error;
    scene::Visibility vis(map, mesh);
    scene::DrawList list;
    auto pixel = [&](float pitch, float yaw, int x, int y) {
        scene::Camera cam;
        cam.pitch = pitch;
        cam.yaw = yaw;
        cam.aspect = 1.0f;
        cam.z_near = 1.0f;
        vis.update(cam, {}, list);
        const auto img = renderImage(r, list, cam, 64, 64);
        const uint8_t* p = &img[static_cast<size_t>((y * 64 + x) * 4)];
        return glm::ivec3(p[0], p[1], p[2]);
    };
    // Looking along +X: "rt"; its top half white, its right-bottom quarter black (right = -Y).
    EXPECT_EQ(pixel(0, 0, 32, 16), glm::ivec3(255, 255, 255));
    EXPECT_EQ(pixel(0, 0, 16, 48), glm::ivec3(200, 0, 0));
    EXPECT_EQ(pixel(0, 0, 48, 48), glm::ivec3(0, 0, 0));
    EXPECT_EQ(pixel(0, 90, 32, 32), glm::ivec3(0, 200, 0));    // +Y: bk
    EXPECT_EQ(pixel(0, 180, 32, 32), glm::ivec3(0, 0, 200));   // -X: lf
    EXPECT_EQ(pixel(0, 270, 32, 32), glm::ivec3(200, 200, 0)); // -Y: ft
    EXPECT_EQ(pixel(-89, 0, 32, 32), glm::ivec3(0, 200, 200)); // up
    EXPECT_EQ(pixel(89, 0, 32, 32), glm::ivec3(200, 0, 200));  // down
}

} // namespace

TEST_F(Render, SkyBoxFacesFollowTheQuakeConvention) {
    content::SkyBox sky;
    for (int f = 0; f < 6; ++f)
        sky.faces[static_cast<size_t>(f)] = skyFace(f);
    expectQuakeSkyConvention(sky, [this](auto&&... a) { return renderImage(a...); });
}

// Faces of other sizes are scaled to the largest (nearest texel): "rt" at 8x8 and "up" at 32x32
// make every face 32x32, and the picture is the same.
TEST_F(Render, SkyBoxFacesOfOtherSizesAreScaledToTheLargest) {
    content::SkyBox sky;
    for (int f = 0; f < 6; ++f)
        sky.faces[static_cast<size_t>(f)] = skyFace(f, f == 0 ? 8 : f == 4 ? 32 : 16);
    expectQuakeSkyConvention(sky, [this](auto&&... a) { return renderImage(a...); });
}

// A Quake 1 two-layer sky (kSurfSkyLayers): the texture's left half is the front layer, whose
// black texels are see-through, the right half the back layer. Every pixel of the view must be
// exactly the expected colour: the layers repeat many times across it (every 128 units of the
// projected direction), and where one wraps the filter must not reach the other half
// (QuakeSpasm loads the halves as two textures), which used to leave dark seams.
TEST_F(Render, QuakeOneSkyLayersHaveNoSeams) {
    bsp::Map map = skyCube();
    map.materials[0].flags |= bsp::kSurfSkyLayers;
    const scene::WorldMesh mesh = scene::buildWorldMesh(map);
    const auto layers = [](glm::u8vec3 front, glm::u8vec3 back) {
        content::Image img;
        img.width = 32;
        img.height = 8;
        img.rgba.resize(32 * 8 * 4);
        for (int i = 0; i < 32 * 8; ++i) {
            const glm::u8vec3 c = (i % 32) < 16 ? front : back;
            for (int k = 0; k < 3; ++k)
                img.rgba[static_cast<size_t>(i * 4 + k)] = c[k];
            img.rgba[static_cast<size_t>(i * 4 + 3)] = 255;
        }
        return img;
    };
    const auto allPixels = [&](const content::Image& sky, const game::DistanceFog& fog,
                               glm::ivec3 want) {
        std::vector<content::TextureInfo> textures(1);
        textures[0].image = sky;
        textures[0].missing = false;
        render::WorldRenderer r;
        std::string error;
        ASSERT_TRUE(r.init(render::GlslLibrary(), &error)) << error;
        render::WorldSource source{map, mesh, textures};
        source.rules.fog = fog;
        ASSERT_TRUE(r.upload(source, &error)) << error;
        scene::Visibility vis(map, mesh);
        scene::DrawList list;
        for (float pitch : {0.0f, -60.0f}) {
            scene::Camera cam;
            cam.pitch = pitch;
            cam.yaw = 30.0f;
            cam.aspect = 1.0f;
            cam.z_near = 1.0f;
            vis.update(cam, {}, list);
            const auto img = renderImage(r, list, cam, 64, 64);
            int wrong = 0;
            for (size_t i = 0; i + 3 < img.size(); i += 4)
                wrong += glm::ivec3(img[i], img[i + 1], img[i + 2]) != want;
            EXPECT_EQ(wrong, 0) << "pitch " << pitch << ", first pixel " << int(img[0]) << " "
                                << int(img[1]) << " " << int(img[2]);
        }
    };
    const glm::u8vec3 black(0), red(200, 0, 0), blue(0, 0, 200);
    allPixels(layers(black, blue), {}, {0, 0, 200}); // see-through front: the back layer
    allPixels(layers(red, blue), {}, {200, 0, 0});   // opaque front
    // Fog lays half its colour over the sky: 0.5 * 204 + 0.5 * (0, 0, 200) = (102, 102, 202).
    game::DistanceFog fog;
    fog.colour = glm::vec3(0.8f);
    fog.density = 0.01f;
    fog.sky = 0.5f;
    allPixels(layers(black, blue), fog, {102, 102, 202});
}

TEST_F(Render, SkyRotateTurnsTheSkyBoxOverTime) {
    const bsp::Map map = skyCube();
    const scene::WorldMesh mesh = scene::buildWorldMesh(map);
    std::vector<content::TextureInfo> textures(1);
    textures[0].image = content::makeMissingTexture();
    content::SkyBox sky;
    for (int f = 0; f < 6; ++f)
        sky.faces[static_cast<size_t>(f)] = skyFace(f);
    render::WorldRenderer r;
    std::string error;
    ASSERT_TRUE(r.init(render::GlslLibrary(), &error)) << error;
    scene::Visibility vis(map, mesh);
    scene::DrawList list;
    scene::Camera cam; // looking along +X
    cam.aspect = 1.0f;
    cam.z_near = 1.0f;
    vis.update(cam, {}, list);
    auto centre = [&](double time) {
        render::RenderTarget target;
        std::string e;
        EXPECT_TRUE(target.create(64, 64, &e)) << e;
        target.bind();
        render::RenderOptions ro;
        ro.clear_colour = kClear;
        ro.time = time;
        ro.style_values = scene::lightStyleValues(0.0);
        r.draw(list, cam, ro);
        const auto img = target.readPixels();
        const uint8_t* p = &img[static_cast<size_t>((48 * 64 + 16) * 4)];
        return glm::ivec3(p[0], p[1], p[2]);
    };
    // Still sky: "rt" (red, lower left) at any time.
    ASSERT_TRUE(r.upload({map, mesh, textures, &sky}, &error)) << error;
    EXPECT_EQ(centre(0.0), glm::ivec3(200, 0, 0));
    EXPECT_EQ(centre(1.0), glm::ivec3(200, 0, 0));
    EXPECT_EQ(centre(1000.0), glm::ivec3(200, 0, 0));
    // skyrotate 90 about +Z: after one second the box has turned a quarter counter-clockwise,
    // so looking along +X shows the face that was along -Y ("ft", yellow); after two, "lf".
    sky.rotation = scene::skyRotation([] {
        bsp::Map m;
        m.entities.resize(1);
        m.entities[0].pairs = {{"classname", "worldspawn"}, {"skyrotate", "90"}};
        return m;
    }());
    ASSERT_TRUE(sky.rotation.rotating());
    ASSERT_TRUE(r.upload({map, mesh, textures, &sky}, &error)) << error;
    EXPECT_EQ(centre(0.0), glm::ivec3(200, 0, 0));
    EXPECT_EQ(centre(1.0), glm::ivec3(200, 200, 0));
    EXPECT_EQ(centre(2.0), glm::ivec3(0, 0, 200));
    EXPECT_EQ(centre(4.0), glm::ivec3(200, 0, 0));
    // A new upload without a sky box drops the rotation with it.
    ASSERT_TRUE(r.upload({map, mesh, textures}, &error)) << error;
    EXPECT_EQ(centre(1.0), centre(0.0));
}

// The face coordinate is clamped to [inset, 1 - inset] of the map's rule (game::SkyBoxEdge).
// Looking along +X with a 90 degree view, "rt" fills the 64-pixel image and pixel x sees
// u = (x + 0.5) / 64. "rt" is 4x4 texels, its column 0 red and the rest blue. Pixel 3 sees
// u = 0.0547, texel coordinate 0.22: column 0 alone (clamped to the edge) with the games' insets
// (1/512, Quake 3's 0). An inset of 1/4 moves it to texel coordinate 1.0, halfway between the
// columns' centres: (100, 0, 100). Pixel 40 (u = 0.63) lies inside both clamps: blue.
TEST_F(Render, SkyBoxFacesAreSampledInsideTheMapsEdgeInset) {
    const bsp::Map map = skyCube();
    const scene::WorldMesh mesh = scene::buildWorldMesh(map);
    std::vector<content::TextureInfo> textures(1);
    textures[0].image = content::makeMissingTexture();
    content::SkyBox sky;
    for (int f = 0; f < 6; ++f)
        sky.faces[static_cast<size_t>(f)] = skyFace(f, 4);
    for (int y = 0; y < 4; ++y)
        for (int x = 0; x < 4; ++x) {
            uint8_t* p = &sky.faces[0].rgba[static_cast<size_t>((y * 4 + x) * 4)];
            p[0] = x == 0 ? 200 : 0;
            p[1] = 0;
            p[2] = x == 0 ? 0 : 200;
        }
    render::WorldRenderer r;
    std::string error;
    ASSERT_TRUE(r.init(render::GlslLibrary(), &error)) << error;
    scene::Visibility vis(map, mesh);
    scene::DrawList list;
    scene::Camera cam; // looking along +X
    cam.aspect = 1.0f;
    cam.z_near = 1.0f;
    vis.update(cam, {}, list);
    const auto pixels = [&](float inset) {
        render::WorldSource source{map, mesh, textures, &sky};
        source.rules.sky_box_edge.inset = inset;
        std::string e;
        EXPECT_TRUE(r.upload(source, &e)) << e;
        const auto img = renderImage(r, list, cam, 64, 64);
        const auto at = [&](int x) {
            const uint8_t* p = &img[static_cast<size_t>((32 * 64 + x) * 4)];
            return glm::ivec3(p[0], p[1], p[2]);
        };
        return std::pair(at(3), at(40));
    };
    for (const float inset : {0.0f, 1.0f / 512.0f}) {
        const auto [edge, inside] = pixels(inset);
        EXPECT_EQ(edge, glm::ivec3(200, 0, 0)) << inset;
        EXPECT_EQ(inside, glm::ivec3(0, 0, 200)) << inset;
    }
    const auto [edge, inside] = pixels(0.25f);
    EXPECT_NEAR(edge.x, 100, 1);
    EXPECT_EQ(edge.y, 0);
    EXPECT_NEAR(edge.z, 100, 1);
    EXPECT_EQ(inside, glm::ivec3(0, 0, 200));
}

namespace {

// Textures of the flare maps: a grey wall (material 0) and a missing flare image (material 1),
// so the flares use the radial image.
std::vector<content::TextureInfo> flareTextures() {
    std::vector<content::TextureInfo> textures(2);
    textures[0].image.width = textures[0].image.height = 8;
    textures[0].image.rgba.assign(8 * 8 * 4, 90);
    textures[0].missing = false;
    textures[1].image = content::makeMissingTexture();
    return textures;
}

// A grey wall at x = 200 facing the origin, a flare in front of it (150, 0, 40) and one behind
// it (250, 0, -40), both facing -X; one leaf holding everything.
bsp::Map flareWall() {
    bsp::Map m;
    testsupport::addMaterial(m, "wall");
    testsupport::addMaterial(m, "flareShader");
    bsp::Face w;
    w.material = 0;
    w.normal = glm::vec3(-1, 0, 0);
    testsupport::addQuad(
        m, {{{200, -400, -400}, {200, 400, -400}, {200, 400, 400}, {200, -400, 400}}}, w);
    for (const glm::vec3& p : {glm::vec3(150, 0, 40), glm::vec3(250, 0, -40)}) {
        bsp::Face f;
        f.material = 1;
        f.normal = glm::vec3(-1, 0, 0);
        testsupport::addFlare(m, p, f);
    }
    testsupport::addWorldLeaf(m, glm::vec3(-400), glm::vec3(400));
    return m;
}

} // namespace

TEST_F(Render, FlaresFadeInWhenSeenAndStayOutBehindWalls) {
    const bsp::Map map = flareWall();
    const scene::WorldMesh mesh = scene::buildWorldMesh(map);
    const std::vector<content::TextureInfo> textures = flareTextures();
    render::WorldRenderer r;
    std::string error;
    ASSERT_TRUE(r.init(render::GlslLibrary(), &error)) << error;
    ASSERT_TRUE(r.upload({map, mesh, textures}, &error)) << error;
    ASSERT_NE(r.flares(), nullptr);
    EXPECT_EQ(r.flares()->count(), 2u);
    scene::Visibility vis(map, mesh);
    scene::DrawList list;
    scene::Camera cam; // at the origin, looking along +X
    cam.aspect = 1.0f;
    vis.update(cam, {}, list);
    constexpr int kSide = 128;
    render::RenderTarget target;
    ASSERT_TRUE(target.create(kSide, kSide, &error)) << error;
    auto frame = [&](double time, bool flares) {
        target.bind();
        render::RenderOptions ro;
        ro.clear_colour = kClear;
        ro.time = time;
        ro.flares = flares;
        ro.style_values = scene::lightStyleValues(0.0);
        r.draw(list, cam, ro);
        return target.readPixels();
    };
    // Where each flare lands: 90 degree view, 128 pixels; rows from the top.
    auto screen = [&](glm::vec3 p) {
        const glm::vec4 clip = cam.viewProjection() * glm::vec4(p, 1.0f);
        return glm::ivec2(static_cast<int>((clip.x / clip.w * 0.5f + 0.5f) * kSide),
                          static_cast<int>((0.5f - clip.y / clip.w * 0.5f) * kSide));
    };
    const glm::ivec2 seen = screen({150, 0, 40}), hidden = screen({250, 0, -40});
    ASSERT_LT(seen.y + 4, hidden.y);
    auto sum = [&](const std::vector<uint8_t>& img, glm::ivec2 at) {
        int total = 0;
        for (int dy = -2; dy <= 2; ++dy)
            for (int dx = -2; dx <= 2; ++dx) {
                const uint8_t* p = &img[static_cast<size_t>(((at.y + dy) * kSide + at.x + dx) * 4)];
                total += p[0] + p[1] + p[2];
            }
        return total;
    };
    const auto base = frame(0.0, false);
    ASSERT_LT(sum(base, seen), 25 * 3 * 200) << "wall too bright to see a flare added";
    // First frame: no answer from the GPU yet, so nothing is added.
    const auto first = frame(0.0, true);
    EXPECT_EQ(sum(first, seen), sum(base, seen));
    std::vector<uint8_t> last;
    for (int i = 1; i <= 6; ++i)
        last = frame(0.05 * i, true);
    EXPECT_GT(sum(last, seen), sum(base, seen) + 25 * 20) << "the visible flare adds light";
    EXPECT_EQ(sum(last, hidden), sum(base, hidden)) << "the flare behind the wall stays out";
    EXPECT_EQ(r.flares()->drawnCount(), 1u);
    // Turned off: the frame is the plain world again.
    EXPECT_EQ(frame(1.0, false), base);
}

namespace {

// Two clusters split by the plane x = 100 whose PVS rows see only themselves: leaf 0 (x < 100,
// cluster 0, no faces) holds the camera, leaf 1 (x >= 100, cluster 1) a grey wall at x = 400
// facing -X (face 0) and a flare in front of it at (300, 0, 20) facing -X (face 1).
bsp::Map flareBehindThePvs() {
    bsp::Map m;
    bsp::Material wall;
    wall.name = "wall";
    m.materials.push_back(wall);
    bsp::Material flare;
    flare.name = "flareShader";
    m.materials.push_back(flare);
    m.planes.push_back({glm::vec3(1, 0, 0), 100.0f});
    bsp::Node n;
    n.plane = 0;
    n.children = {-2, -1};
    n.mins = glm::vec3(-400);
    n.maxs = glm::vec3(500, 400, 400);
    m.nodes.push_back(n);
    bsp::Face w;
    w.material = 0;
    w.normal = glm::vec3(-1, 0, 0);
    w.num_vertices = 4;
    w.num_indices = 6;
    const glm::vec3 c[4] = {{400, -400, -400}, {400, 400, -400}, {400, 400, 400}, {400, -400, 400}};
    for (const glm::vec3& p : c) {
        bsp::Vertex v;
        v.position = p;
        v.normal = w.normal;
        m.vertices.push_back(v);
    }
    m.indices = {0, 1, 2, 0, 2, 3};
    m.faces.push_back(w);
    bsp::Face f;
    f.kind = bsp::FaceKind::Billboard;
    f.material = 1;
    f.normal = glm::vec3(-1, 0, 0);
    f.first_vertex = static_cast<uint32_t>(m.vertices.size());
    f.num_vertices = 1;
    f.first_index = static_cast<uint32_t>(m.indices.size());
    bsp::Vertex v;
    v.position = glm::vec3(300, 0, 20);
    v.normal = f.normal;
    m.vertices.push_back(v);
    m.faces.push_back(f);
    m.leaves.resize(2);
    m.leaves[0].cluster = 0;
    m.leaves[0].mins = glm::vec3(-400);
    m.leaves[0].maxs = glm::vec3(100, 400, 400);
    m.leaves[1].cluster = 1;
    m.leaves[1].mins = glm::vec3(100, -400, -400);
    m.leaves[1].maxs = glm::vec3(500, 400, 400);
    m.leaves[1].num_leaf_faces = 2;
    m.leaf_faces = {0, 1};
    bsp::Submodel world;
    world.mins = glm::vec3(-400);
    world.maxs = glm::vec3(500, 400, 400);
    world.num_faces = 2;
    m.submodels.push_back(world);
    m.vis.num_clusters = 2;
    m.vis.row_size = 1;
    m.vis.rows = {0b01, 0b10};
    return m;
}

} // namespace

TEST_F(Render, FlaresFollowTheNoPvsAndLockSwitches) {
    const bsp::Map map = flareBehindThePvs();
    const scene::WorldMesh mesh = scene::buildWorldMesh(map);
    const std::vector<content::TextureInfo> textures = flareTextures();
    render::WorldRenderer r;
    std::string error;
    ASSERT_TRUE(r.init(render::GlslLibrary(), &error)) << error;
    ASSERT_TRUE(r.upload({map, mesh, textures}, &error)) << error;
    ASSERT_NE(r.flares(), nullptr);
    ASSERT_EQ(r.flares()->count(), 1u);
    scene::Visibility vis(map, mesh);
    scene::DrawList list;
    constexpr int kSide = 128;
    render::RenderTarget target;
    ASSERT_TRUE(target.create(kSide, kSide, &error)) << error;
    scene::Camera cam; // looking along +X
    cam.aspect = 1.0f;
    double time = 0.0;
    auto frame = [&](bool flares) {
        target.bind();
        render::RenderOptions ro;
        ro.clear_colour = kClear;
        ro.time = time;
        ro.flares = flares;
        ro.style_values = scene::lightStyleValues(0.0);
        r.draw(list, cam, ro);
        return target.readPixels();
    };
    // Enough frames for the occlusion answer and the whole fade (0.1 s).
    auto settled = [&]() {
        std::vector<uint8_t> img;
        for (int i = 0; i < 6; ++i) {
            time += 0.05;
            img = frame(true);
        }
        return img;
    };
    auto added = [](const std::vector<uint8_t>& with, const std::vector<uint8_t>& without) {
        long total = 0;
        for (size_t i = 0; i < with.size(); ++i)
            total += static_cast<long>(with[i]) - static_cast<long>(without[i]);
        return total;
    };
    scene::VisOptions opts;

    // From cluster 0 the PVS hides cluster 1: neither the wall nor the flare.
    vis.update(cam, opts, list);
    ASSERT_EQ(list.stats.camera_cluster, 0);
    ASSERT_FALSE(list.containsFace(0));
    std::vector<uint8_t> with = settled();
    EXPECT_EQ(r.flares()->drawnCount(), 0u);
    EXPECT_TRUE(with == frame(false)) << "the frame is the plain world";

    // PVS culling off: the world draws the wall, and the flare shows in front of it.
    opts.pvs = false;
    vis.update(cam, opts, list);
    ASSERT_TRUE(list.containsFace(0));
    with = settled();
    EXPECT_EQ(r.flares()->drawnCount(), 1u) << "pvs off";
    EXPECT_GT(added(with, frame(false)), 25 * 20) << "pvs off: the flare adds light";

    // Locked in cluster 1 (which sees the flare), then back in cluster 0: the frozen set,
    // flare included, is still what is drawn.
    opts.pvs = true;
    cam.position = glm::vec3(200, 0, 0);
    vis.update(cam, opts, list);
    ASSERT_TRUE(list.containsFace(0));
    opts.lock = true;
    cam.position = glm::vec3(0, 0, 0);
    vis.update(cam, opts, list);
    ASSERT_EQ(list.stats.camera_cluster, 0);
    ASSERT_TRUE(list.containsFace(0));
    with = settled();
    EXPECT_EQ(r.flares()->drawnCount(), 1u) << "locked with the flare in the set";
    EXPECT_GT(added(with, frame(false)), 25 * 20) << "locked: the flare adds light";

    // Locked in cluster 0 (which does not see it), then into cluster 1: still not drawn.
    opts.lock = false;
    vis.update(cam, opts, list);
    ASSERT_FALSE(list.containsFace(0));
    opts.lock = true;
    cam.position = glm::vec3(150, 0, 0);
    vis.update(cam, opts, list);
    ASSERT_EQ(list.stats.camera_cluster, 1);
    ASSERT_FALSE(list.containsFace(0));
    with = settled();
    EXPECT_EQ(r.flares()->drawnCount(), 0u) << "locked with the flare out of the set";
    EXPECT_TRUE(with == frame(false)) << "the frame is the plain world";
}

TEST_F(Render, OpenArenaTorchFlaresShowAfterAFrame) {
    // oa_dm1 has 10 flares (face type 4, shader textures/sfx/flameflare); two torches on the
    // wall at x = 501 face -X, seen here from 81 units in front of it.
    auto b = load(std::string(BSPV_OPENARENA_DIR) + "/pak1-maps.pk3:maps/oa_dm1.bsp");
    ASSERT_TRUE(b);
    auto r = uploaded(*b);
    ASSERT_NE(r->flares(), nullptr);
    EXPECT_EQ(r->flares()->count(), 10u);
    scene::Camera cam;
    cam.position = glm::vec3(420, 1520, 170);
    cam.aspect = 16.0f / 9.0f;
    scene::Visibility vis(b->map, b->mesh);
    scene::DrawList list;
    vis.update(cam, {}, list);
    render::RenderTarget target;
    std::string error;
    ASSERT_TRUE(target.create(320, 180, &error)) << error;
    auto frame = [&](double time, bool flares) {
        target.bind();
        render::RenderOptions ro;
        ro.time = time;
        ro.flares = flares;
        ro.style_values = scene::lightStyleValues(time);
        r->draw(list, cam, ro);
        return target.readPixels();
    };
    const auto without = frame(1.0, false);
    for (int i = 0; i < 4; ++i)
        frame(0.5 + 0.1 * i, true);
    const auto with = frame(1.0, true);
    EXPECT_EQ(r->flares()->drawnCount(), 2u);
    long added = 0;
    for (size_t i = 0; i < with.size(); ++i)
        added += static_cast<long>(with[i]) - static_cast<long>(without[i]);
    EXPECT_GT(added, 0);
    for (size_t i = 0; i < with.size(); ++i)
        ASSERT_GE(with[i], without[i]) << "flares only add light";
}

TEST_F(Render, QuakeOneHalfLifeAndQuakeTwoMapsFromTheirSpawnPoints) {
    for (const char* name :
         {"q1/lq_start.bsp", "q1/lq_e1m1.bsp", "q1/pd_lava.bsp", "q1/mt_sm214_mrtaufner.bsp",
          "q1bsp2/lq_lq1m1.bsp", "hl/cs_fy_pool_day.bsp", "hl/cs_awp_india.bsp",
          "hl/freehl_test_weapons.bsp", "hl/jf_trainride2.bsp", "q2/aq_credits.bsp",
          "q2/aq_wizs.bsp", "q2/aq_urbanjungle.bsp"}) {
        const std::string spec = std::string(BSPV_SHARED_MAPS_DIR) + "/" + name;
        auto b = load(spec);
        ASSERT_TRUE(b) << name;
        auto renderer = uploaded(*b);
        render::WorldRenderer& r = *renderer;
        scene::Visibility vis(b->map, b->mesh);
        scene::DrawList list;
        const size_t spawns = std::max<size_t>(1, b->spawns.size());
        for (size_t i = 0; i < spawns; ++i) {
            auto cam = scene::spawnCamera(*b, i);
            ASSERT_TRUE(cam.has_value()) << name;
            // The game's standing eye: 22 units above the spawn origin in Quake 1 and 2, 28 in
            // Half-Life (QuakeC view_ofs, p_client.c viewheight, VEC_VIEW).
            if (!b->spawns.empty()) {
                const float eye = name[0] == 'h' ? 28.0f : 22.0f;
                EXPECT_EQ(cam->position, b->spawns[i].origin + glm::vec3(0, 0, eye)) << name;
            }
            cam->aspect = 16.0f / 9.0f;
            vis.update(*cam, {}, list);
            EXPECT_GT(list.stats.faces_drawn, 0u) << name << " spawn " << i;
            const auto img = renderImage(r, list, *cam, 160, 90);
            EXPECT_GT(nonBackgroundFraction(img), 0.9) << name << " spawn " << i;
        }
    }
}

TEST_F(Render, Bsp29AndBsp2OfTheSameLevelLookTheSame) {
    // lq_e1m1 (BSP29) and lq_lq1m1 (BSP2) are the same LibreQuake level compiled twice.
    auto a = load(std::string(BSPV_SHARED_MAPS_DIR) + "/q1/lq_e1m1.bsp");
    auto b = load(std::string(BSPV_SHARED_MAPS_DIR) + "/q1bsp2/lq_lq1m1.bsp");
    ASSERT_TRUE(a && b);
    auto renderAll = [&](scene::MapBundle& m, const scene::Camera& cam) {
        auto renderer = uploaded(m);
        render::WorldRenderer& r = *renderer;
        scene::Visibility vis(m.map, m.mesh);
        scene::DrawList list;
        vis.update(cam, {}, list);
        return renderImage(r, list, cam, 320, 180, render::ViewMode::Normals);
    };
    ASSERT_FALSE(a->spawns.empty());
    size_t compared = 0;
    for (size_t i = 0; i < std::min<size_t>(a->spawns.size(), 4); ++i) {
        auto cam = scene::spawnCamera(*a, i);
        ASSERT_TRUE(cam.has_value());
        cam->aspect = 16.0f / 9.0f;
        const auto ia = renderAll(*a, *cam);
        const auto ib = renderAll(*b, *cam);
        EXPECT_GT(nonBackgroundFraction(ia), 0.9);
        double diff = 0;
        for (size_t k = 0; k < ia.size(); k += 4)
            for (int c = 0; c < 3; ++c)
                diff += std::abs(int(ia[k + c]) - int(ib[k + c]));
        const double mae = diff / static_cast<double>(ia.size() / 4 * 3);
        // Normals view: the geometry and the camera must agree. (Their lightmaps differ: the
        // BSP2 file was lit by a later compile and is brighter; their miptex slots differ too.)
        EXPECT_LT(mae, 3.0) << "spawn " << i;
        std::printf("lq_e1m1 vs lq_lq1m1 spawn %zu: normals-view MAE %.2f\n", i, mae);
        ++compared;
    }
    EXPECT_GT(compared, 0u);
}

namespace {

void writeText(const std::filesystem::path& path, const std::string& text) {
    std::ofstream(path, std::ios::binary | std::ios::trunc) << text;
}

} // namespace

// Every pass sets state through render::GlState: a repeated request does not reach GL, a
// forgotten (invalidated) one does, and what it says is what GL has.
TEST_F(Render, GlStateReachesGlOnlyOnChange) {
    render::GlState s;
    const uint64_t start = s.changes();
    s.enable(GL_BLEND, true);
    s.enable(GL_BLEND, true);
    s.blendFunc(GL_ONE, GL_ONE);
    s.blendFunc(GL_ONE, GL_ONE);
    s.depthMask(false);
    s.depthMask(false);
    EXPECT_EQ(s.changes(), start + 3);
    EXPECT_TRUE(glIsEnabled(GL_BLEND));
    GLboolean depth_write = GL_TRUE;
    glGetBooleanv(GL_DEPTH_WRITEMASK, &depth_write);
    EXPECT_EQ(depth_write, GL_FALSE);

    render::Texture t = render::makeTexture(GL_TEXTURE_2D, "test/state");
    s.bindTexture(3, GL_TEXTURE_2D, t.id());
    GLint unit = 0, bound = 0;
    glGetIntegerv(GL_ACTIVE_TEXTURE, &unit);
    glGetIntegerv(GL_TEXTURE_BINDING_2D, &bound);
    EXPECT_EQ(unit, GL_TEXTURE3);
    EXPECT_EQ(static_cast<GLuint>(bound), t.id());
    const uint64_t bound_once = s.changes();
    s.bindTexture(3, GL_TEXTURE_2D, t.id());
    EXPECT_EQ(s.changes(), bound_once);

    glDisable(GL_BLEND); // behind its back: only invalidate() makes it ask GL again
    s.invalidate();
    s.enable(GL_BLEND, true);
    EXPECT_TRUE(glIsEnabled(GL_BLEND));
    s.restoreDefaults();
    EXPECT_FALSE(glIsEnabled(GL_BLEND));
    glGetIntegerv(GL_ACTIVE_TEXTURE, &unit);
    EXPECT_EQ(unit, GL_TEXTURE0);
    glGetBooleanv(GL_DEPTH_WRITEMASK, &depth_write);
    EXPECT_EQ(depth_write, GL_TRUE);
    s.bindTexture(3, GL_TEXTURE_2D, 0);
}

// render::applyDrawState is the one place a scene::DrawState becomes GL state: each field is
// what GL then holds, and applying the same state again reaches GL not at all.
TEST_F(Render, ApplyDrawStateSetsGlAndSkipsRepeats) {
    render::GlState s;
    const auto blend_of = [] {
        GLint src = 0, dst = 0;
        glGetIntegerv(GL_BLEND_SRC_RGB, &src);
        glGetIntegerv(GL_BLEND_DST_RGB, &dst);
        return std::pair<GLint, GLint>(src, dst);
    };
    scene::DrawState glow;
    glow.order = scene::DrawOrder::Blended;
    glow.blend = scene::Blend::AlphaAdd;
    glow.depth_test = false;
    glow.depth_write = false;
    glow.cull = false;
    render::applyDrawState(s, glow);
    EXPECT_TRUE(glIsEnabled(GL_BLEND));
    EXPECT_EQ(blend_of(), (std::pair<GLint, GLint>(GL_SRC_ALPHA, GL_ONE)));
    EXPECT_FALSE(glIsEnabled(GL_DEPTH_TEST));
    EXPECT_FALSE(glIsEnabled(GL_CULL_FACE));
    GLboolean depth_write = GL_TRUE;
    glGetBooleanv(GL_DEPTH_WRITEMASK, &depth_write);
    EXPECT_EQ(depth_write, GL_FALSE);
    const uint64_t once = s.changes();
    render::applyDrawState(s, glow);
    EXPECT_EQ(s.changes(), once);

    // Opaque: blending off, its factors left alone; culling the meshes' back faces (GL_FRONT).
    render::applyDrawState(s, scene::DrawState{});
    EXPECT_FALSE(glIsEnabled(GL_BLEND));
    EXPECT_EQ(blend_of(), (std::pair<GLint, GLint>(GL_SRC_ALPHA, GL_ONE)));
    EXPECT_TRUE(glIsEnabled(GL_DEPTH_TEST));
    EXPECT_TRUE(glIsEnabled(GL_CULL_FACE));
    GLint face = 0;
    glGetIntegerv(GL_CULL_FACE_MODE, &face);
    EXPECT_EQ(face, GL_FRONT);
    glGetBooleanv(GL_DEPTH_WRITEMASK, &depth_write);
    EXPECT_EQ(depth_write, GL_TRUE);
    EXPECT_EQ(render::blendFactors(scene::Blend::Alpha),
              (std::pair<GLenum, GLenum>(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA)));
    EXPECT_EQ(render::blendFactors(scene::Blend::Add), (std::pair<GLenum, GLenum>(GL_ONE, GL_ONE)));
    s.restoreDefaults();
    s.enable(GL_CULL_FACE, false);
}

// F5's reload: programs are compiled again from --shader-dir and swapped in only when every
// one compiles; a broken file keeps the running programs and reports the compile log.
TEST_F(Render, ShaderReloadSwapsProgramsOnlyWhenAllCompile) {
    namespace fs = std::filesystem;
    const fs::path dir = fs::path(testing::TempDir()) / "bspv_shader_reload";
    fs::remove_all(dir);
    fs::create_directories(dir);
    for (const auto& e : fs::directory_iterator(fs::path(BSPV_SOURCE_DIR) / "shaders"))
        fs::copy_file(e.path(), dir / e.path().filename());
    std::string original;
    {
        std::ifstream in(dir / "world.frag.glsl", std::ios::binary);
        original.assign(std::istreambuf_iterator<char>(in), {});
    }
    auto b = load(std::string(BSPV_SOURCE_DIR) + "/assets/maps/demo.bsp");
    ASSERT_TRUE(b);
    render::GlslLibrary glsl;
    glsl.setShaderDir(dir);
    render::WorldRenderer r;
    std::string error;
    ASSERT_TRUE(r.init(glsl, &error)) << error;
    ASSERT_TRUE(render::uploadBundle(r, *b).ok());
    auto cam = scene::spawnCamera(*b, 0);
    ASSERT_TRUE(cam.has_value());
    cam->aspect = 1.0f;
    scene::Visibility vis(b->map, b->mesh);
    scene::DrawList list;
    vis.update(*cam, {}, list);
    const auto centre = [&] {
        const std::vector<uint8_t> img = renderImage(r, list, *cam, 64, 64);
        const uint8_t* p = &img[(32 * 64 + 32) * 4];
        return glm::ivec3(p[0], p[1], p[2]);
    };
    const glm::ivec3 before = centre();
    ASSERT_NE(before, glm::ivec3(255, 0, 255));
    const size_t programs = r.programCount();
    ASSERT_GT(programs, 2u) << "world variants were compiled by the first frame";

    writeText(dir / "world.frag.glsl",
              "out vec4 o_colour;\nvoid main() { o_colour = vec4(1.0, 0.0, 1.0, 1.0); }\n");
    ASSERT_TRUE(r.reloadShaders(&error)) << error;
    EXPECT_EQ(r.programCount(), programs) << "every program in use is built again";
    EXPECT_EQ(centre(), glm::ivec3(255, 0, 255));

    writeText(dir / "world.frag.glsl", "void main() { this is not GLSL }\n");
    error.clear();
    EXPECT_FALSE(r.reloadShaders(&error));
    // Mesa also reports the failed compile through KHR_debug: expected here, not a GL error.
    render::checkGlErrors("reload");
    m_errors_before = render::glErrorCount();
    EXPECT_NE(error.find("world.frag.glsl"), std::string::npos) << error;
    EXPECT_EQ(centre(), glm::ivec3(255, 0, 255)) << "the running programs stay";

    writeText(dir / "world.frag.glsl", original);
    ASSERT_TRUE(r.reloadShaders(&error)) << error;
    EXPECT_EQ(centre(), before);

    // The flares' programs reload with the world's: a broken flare shader fails the reload
    // and keeps every running program, the world's too.
    std::string flare_frag;
    {
        std::ifstream in(dir / "flare.frag.glsl", std::ios::binary);
        flare_frag.assign(std::istreambuf_iterator<char>(in), {});
    }
    writeText(dir / "world.frag.glsl",
              "out vec4 o_colour;\nvoid main() { o_colour = vec4(0.0, 1.0, 0.0, 1.0); }\n");
    writeText(dir / "flare.frag.glsl", "void main() { not GLSL either }\n");
    error.clear();
    EXPECT_FALSE(r.reloadShaders(&error));
    render::checkGlErrors("reload");
    m_errors_before = render::glErrorCount();
    EXPECT_NE(error.find("flare.frag.glsl"), std::string::npos) << error;
    EXPECT_EQ(centre(), before) << "the new world program is not taken without the flares'";
    writeText(dir / "flare.frag.glsl", flare_frag);
    ASSERT_TRUE(r.reloadShaders(&error)) << error;
    EXPECT_EQ(centre(), glm::ivec3(0, 255, 0));
    fs::remove_all(dir);
}
