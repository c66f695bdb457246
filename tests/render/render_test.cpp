// Rendering on a real GL context (Mesa llvmpipe under xvfb-run in CI). Every test checks that
// the KHR_debug callback saw no GL error.
#include "app/headless.h"
#include "app/window.h"
#include "render/world_renderer.h"
#include "scene/map_bundle.h"
#include "scene/visibility.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>

namespace {

const glm::vec4 kClear{0.0f, 1.0f, 0.0f, 1.0f}; // pure green: no map texel is exactly that

class Render : public ::testing::Test {
protected:
    static void SetUpTestSuite() {
        auto w = app::Window::create("bspview tests", 320, 180, true);
        ASSERT_TRUE(w.ok()) << w.error().message();
        s_window = std::move(*w).release();
    }
    static void TearDownTestSuite() {
        delete s_window;
        s_window = nullptr;
    }
    void SetUp() override {
        ASSERT_NE(s_window, nullptr) << "no GL context (run under xvfb-run)";
        m_errors_before = render::glErrorCount();
    }
    void TearDown() override { EXPECT_EQ(render::glErrorCount(), m_errors_before) << "GL errors"; }

    std::unique_ptr<scene::MapBundle> load(const std::string& spec) {
        scene::LoadSettings settings;
        auto b = scene::loadMapBundle(spec, settings);
        EXPECT_TRUE(b.ok()) << (b.ok() ? "" : b.error().message());
        return b.ok() ? std::move(*b) : nullptr;
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

    static app::Window* s_window;
    uint64_t m_errors_before = 0;
};

app::Window* Render::s_window = nullptr;

TEST_F(Render, SpawnPointsOfRealMapsAreMostlyCovered) {
    for (const std::string& spec :
         {std::string(BSPV_SHARED_MAPS_DIR) + "/q3/bc_crypt.bsp",
          std::string(BSPV_OPENARENA_DIR) + "/pak1-maps.pk3:maps/oa_dm5.bsp",
          std::string(BSPV_OPENARENA_DIR) + "/z_oacmp-volume1-v3.pk3:maps/oacmpdm1.bsp"}) {
        auto b = load(spec);
        ASSERT_TRUE(b);
        render::ShaderLibrary shaders;
        render::WorldRenderer r;
        std::string error;
        ASSERT_TRUE(r.init(shaders, &error)) << error;
        ASSERT_TRUE(r.upload(b->map, b->mesh, b->textures, &error)) << error;
        scene::Visibility vis(b->map, b->mesh);
        scene::DrawList list;
        const size_t spawns = std::min<size_t>(b->spawns.size(), 4);
        ASSERT_GT(spawns, 0u);
        for (size_t i = 0; i < spawns; ++i) {
            app::CameraSpec cs;
            cs.spawn_index = static_cast<int>(i);
            auto cam = app::resolveCamera(cs, *b);
            ASSERT_TRUE(cam.ok());
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
    render::ShaderLibrary shaders;
    render::WorldRenderer r;
    std::string error;
    ASSERT_TRUE(r.init(shaders, &error)) << error;
    ASSERT_TRUE(r.upload(b->map, b->mesh, b->textures, &error)) << error;
    scene::Visibility vis(b->map, b->mesh);
    scene::DrawList list;
    auto cam = app::resolveCamera(app::CameraSpec(), *b);
    ASSERT_TRUE(cam.ok());
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
    render::ShaderLibrary shaders;
    render::WorldRenderer r;
    std::string error;
    ASSERT_TRUE(r.init(shaders, &error)) << error;
    ASSERT_TRUE(r.upload(b->map, b->mesh, b->textures, &error)) << error;
    scene::Visibility vis(b->map, b->mesh);
    scene::DrawList list;
    auto cam = app::resolveCamera(app::CameraSpec(), *b);
    ASSERT_TRUE(cam.ok());
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
    for (render::ViewMode mode : {render::ViewMode::Lightmap, render::ViewMode::Flat,
                                  render::ViewMode::Normals, render::ViewMode::Overdraw}) {
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
    render::ShaderLibrary shaders;
    render::WorldRenderer r;
    std::string error;
    ASSERT_TRUE(r.init(shaders, &error)) << error;
    ASSERT_TRUE(r.upload(b->map, b->mesh, b->textures, &error)) << error;
    const auto stats = r.gpuStats();
    std::vector<content::TextureInfo> wrong; // does not match the materials
    EXPECT_FALSE(r.upload(b->map, b->mesh, wrong, &error));
    EXPECT_TRUE(r.hasWorld());
    EXPECT_EQ(r.gpuStats().vertex_bytes, stats.vertex_bytes);
}

} // namespace
