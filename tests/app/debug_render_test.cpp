// Debug overlays on a real GL context (Mesa llvmpipe under xvfb-run): each overlay changes the
// image where and how it should, GPU timer queries come back without stalling, and no GL error
// is raised.
#include "app/debug_panels.h"
#include "app/headless.h"
#include "render/debug_overlays.h"
#include "render/gl_fixture.h"
#include "render/gpu_timers.h"
#include "render/world_renderer.h"
#include "render/world_upload.h"
#include "scene/load/map_bundle.h"
#include "scene/view/visibility.h"
#include "support/map_builder.h"

#include <backends/imgui_impl_opengl3.h>
#include <gtest/gtest.h>
#include <imgui.h>

#include <algorithm>
#include <memory>
#include <set>
#include <string>

namespace {

const glm::vec4 kClear{0.0f, 1.0f, 0.0f, 1.0f};
constexpr int kW = 320, kH = 180;

class DebugRender : public gltest::GlFixture {
protected:
    // Loads a map, uploads it and prepares the overlays.
    void load(const std::string& spec) {
        auto b = scene::loadMapBundle(spec, scene::LoadSettings());
        ASSERT_TRUE(b.ok()) << (b.ok() ? "" : b.error().message());
        m_bundle = std::move(*b);
        m_renderer = std::make_unique<render::WorldRenderer>();
        std::string error;
        ASSERT_TRUE(m_renderer->init(m_shaders, &error)) << error;
        const core::Status st = render::uploadBundle(*m_renderer, *m_bundle);
        ASSERT_TRUE(st.ok()) << (st.ok() ? "" : st.error().message());
        m_overlays = std::make_unique<render::DebugOverlays>();
        ASSERT_TRUE(m_overlays->init(m_shaders, &error)) << error;
        m_overlays->setMap(m_bundle->map, m_bundle->mesh);
        ASSERT_TRUE(m_target.create(kW, kH, &error)) << error;
    }

    scene::Camera spawnCamera(int index = 0) {
        app::CameraSpec cs;
        cs.spawn_index = index;
        auto cam = app::resolveCamera(cs, *m_bundle);
        EXPECT_TRUE(cam.ok());
        cam->aspect = static_cast<float>(kW) / static_cast<float>(kH);
        return *cam;
    }

    // Draws the frame (visibility from vis_camera) with the given overlays and reads it back.
    std::vector<uint8_t> render(const scene::Camera& view, const scene::Camera& vis_camera,
                                const scene::DebugViews& views,
                                render::ViewMode mode = render::ViewMode::Lit,
                                int32_t highlight = -1, const std::string& filter = "") {
        scene::Visibility vis(m_bundle->map, m_bundle->mesh);
        vis.update(vis_camera, {}, m_list);
        m_target.bind();
        render::RenderOptions ro;
        ro.clear_colour = kClear;
        ro.view = mode;
        ro.style_values = scene::lightStyleValues(0.0);
        m_renderer->draw(m_list, view, ro);
        render::DebugOverlayInput in;
        in.list = &m_list;
        in.vis_camera = vis_camera;
        in.views = views;
        in.highlight_face = highlight;
        in.entity_filter = filter;
        m_overlays->draw(*m_renderer, in);
        return m_target.readPixels();
    }

    static size_t changedPixels(const std::vector<uint8_t>& a, const std::vector<uint8_t>& b) {
        size_t n = 0;
        for (size_t i = 0; i + 3 < a.size() && i + 3 < b.size(); i += 4)
            n += (a[i] != b[i] || a[i + 1] != b[i + 1] || a[i + 2] != b[i + 2]) ? 1 : 0;
        return n;
    }
    static size_t distinctColours(const std::vector<uint8_t>& img) {
        std::set<uint32_t> s;
        for (size_t i = 0; i + 3 < img.size(); i += 4)
            s.insert(uint32_t(img[i]) << 16 | uint32_t(img[i + 1]) << 8 | img[i + 2]);
        return s.size();
    }

    render::GlslLibrary m_shaders;
    std::unique_ptr<scene::MapBundle> m_bundle;
    std::unique_ptr<render::WorldRenderer> m_renderer;
    std::unique_ptr<render::DebugOverlays> m_overlays;
    render::RenderTarget m_target;
    scene::DrawList m_list;
};

TEST_F(DebugRender, LockedFrustumAndLeafBoundsAppearFromOutside) {
    load(std::string(BSPV_SOURCE_DIR) + "/assets/maps/demo.bsp");
    const scene::Camera locked = spawnCamera();
    scene::Camera outside = locked;
    outside.position = m_bundle->map.worldMaxs() + glm::vec3(600.0f);
    outside.pitch = 35.0f;
    outside.yaw = 225.0f;
    const auto base = render(outside, locked, {});
    scene::DebugViews frustum;
    frustum.frustum = true;
    const auto with_frustum = render(outside, locked, frustum);
    EXPECT_GT(m_overlays->stats().line_segments, 0u);
    // Yellow frustum lines over the dark background and the map.
    size_t yellow = 0;
    for (size_t i = 0; i + 3 < with_frustum.size(); i += 4)
        yellow += with_frustum[i] > 200 && with_frustum[i + 1] > 200 && with_frustum[i + 2] < 120;
    size_t yellow_base = 0;
    for (size_t i = 0; i + 3 < base.size(); i += 4)
        yellow_base += base[i] > 200 && base[i + 1] > 200 && base[i + 2] < 120;
    EXPECT_GT(yellow, yellow_base + 100);
    // The eye of the locked camera is the apex: the pixel it projects to is on a line.
    const glm::vec4 clip = outside.viewProjection() * glm::vec4(locked.position, 1.0f);
    ASSERT_GT(clip.w, 0.0f);
    const int px = static_cast<int>((clip.x / clip.w * 0.5f + 0.5f) * kW);
    const int py = static_cast<int>((0.5f - clip.y / clip.w * 0.5f) * kH);
    size_t near_apex = 0;
    for (int y = std::max(0, py - 2); y <= std::min(kH - 1, py + 2); ++y)
        for (int x = std::max(0, px - 2); x <= std::min(kW - 1, px + 2); ++x) {
            const size_t i = (static_cast<size_t>(y) * kW + static_cast<size_t>(x)) * 4;
            near_apex += with_frustum[i] != base[i] || with_frustum[i + 1] != base[i + 1];
        }
    EXPECT_GT(near_apex, 0u);

    scene::DebugViews leaves;
    leaves.leaf_bounds = true;
    const auto with_leaves = render(outside, locked, leaves);
    EXPECT_GT(m_overlays->stats().visible_leaves, 0u);
    EXPECT_LT(m_overlays->stats().visible_leaves, m_bundle->map.leaves.size());
    EXPECT_EQ(m_overlays->stats().line_segments, m_overlays->stats().visible_leaves * 12u);
    EXPECT_GT(changedPixels(base, with_leaves), 50u);
}

TEST_F(DebugRender, ClusterColouringShowsMoreColoursThanFlat) {
    load(std::string(BSPV_SHARED_MAPS_DIR) + "/q1/lq_e1m1.bsp");
    // From above the whole map (outside it every leaf with a cluster is drawn).
    const bsp::Map& map = m_bundle->map;
    scene::Camera cam = spawnCamera();
    cam.position = (map.worldMins() + map.worldMaxs()) * 0.5f;
    cam.position.z = map.worldMaxs().z + glm::length(map.worldMaxs() - map.worldMins()) * 0.6f;
    cam.pitch = 89.0f;
    const auto flat = render(cam, cam, {}, render::ViewMode::Flat);
    std::set<int32_t> materials;
    for (const scene::DrawBatch& b : m_list.batches)
        materials.insert(b.material);
    scene::DebugViews clusters;
    clusters.clusters = true;
    const auto tinted = render(cam, cam, clusters, render::ViewMode::Flat);
    // More clusters than materials on screen, so more distinct colours than the flat view.
    EXPECT_GT(m_overlays->stats().tinted_groups, materials.size());
    EXPECT_GT(changedPixels(flat, tinted), static_cast<size_t>(kW * kH) / 20);
    // Compare hues: quantise by the brightest channel so shading does not count as a colour.
    const auto hues = [](const std::vector<uint8_t>& img) {
        std::set<uint32_t> s;
        for (size_t i = 0; i + 3 < img.size(); i += 4) {
            const int m = std::max({img[i], img[i + 1], img[i + 2], uint8_t(1)});
            s.insert(uint32_t(img[i] * 31 / m) << 10 | uint32_t(img[i + 1] * 31 / m) << 5 |
                     uint32_t(img[i + 2] * 31 / m));
        }
        return s.size();
    };
    EXPECT_GT(hues(tinted), hues(flat))
        << "flat " << distinctColours(flat) << " tinted " << distinctColours(tinted) << ", "
        << m_overlays->stats().tinted_groups << " clusters, " << materials.size() << " materials";
}

TEST_F(DebugRender, EntityMarkersAddPixelsAtTheProjectedEntity) {
    load(std::string(BSPV_SOURCE_DIR) + "/assets/maps/demo.bsp");
    const scene::Camera cam = spawnCamera();
    const glm::mat4 vp = cam.viewProjection();
    // A marker in front of the camera and on screen.
    const scene::EntityMarker* target = nullptr;
    int px = 0, py = 0;
    for (const scene::EntityMarker& m : m_overlays->markers()) {
        const glm::vec4 clip = vp * glm::vec4(m.origin, 1.0f);
        if (clip.w < 64.0f)
            continue;
        const glm::vec3 ndc = glm::vec3(clip) / clip.w;
        if (std::abs(ndc.x) > 0.8f || std::abs(ndc.y) > 0.8f)
            continue;
        target = &m;
        px = static_cast<int>((ndc.x * 0.5f + 0.5f) * kW);
        py = static_cast<int>((0.5f - ndc.y * 0.5f) * kH);
        break;
    }
    ASSERT_NE(target, nullptr) << "no entity in view from spawn 0";
    const auto base = render(cam, cam, {});
    scene::DebugViews ents;
    ents.entities = true;
    const auto with = render(cam, cam, ents);
    EXPECT_GT(m_overlays->stats().markers, 0u);
    // The marker box (at least 8 units across) surrounds the projected origin.
    const int r = 12;
    size_t changed_near = 0;
    for (int y = std::max(0, py - r); y <= std::min(kH - 1, py + r); ++y)
        for (int x = std::max(0, px - r); x <= std::min(kW - 1, px + r); ++x) {
            const size_t i = (static_cast<size_t>(y) * kW + static_cast<size_t>(x)) * 4;
            changed_near +=
                with[i] != base[i] || with[i + 1] != base[i + 1] || with[i + 2] != base[i + 2];
        }
    EXPECT_GT(changed_near, 4u) << target->classname << " at " << px << "," << py;
    // A filter that matches nothing draws no marker.
    const auto filtered = render(cam, cam, ents, render::ViewMode::Lit, -1, "no_such_class");
    EXPECT_EQ(m_overlays->stats().markers, 0u);
    EXPECT_EQ(changedPixels(base, filtered), 0u);
}

TEST_F(DebugRender, LuxelGridAndPickedFaceHighlight) {
    load(std::string(BSPV_SHARED_MAPS_DIR) + "/q1/lq_e1m1.bsp");
    const scene::Camera cam = spawnCamera();
    const auto base = render(cam, cam, {}, render::ViewMode::Lightmap);
    scene::DebugViews luxels;
    luxels.luxels = true;
    const auto grid = render(cam, cam, luxels, render::ViewMode::Lightmap);
    const size_t changed = changedPixels(base, grid);
    // Lines at texel borders: a part of the picture, not all of it.
    EXPECT_GT(changed, static_cast<size_t>(kW * kH) / 50);
    EXPECT_LT(changed, static_cast<size_t>(kW * kH) * 9 / 10);

    // The face under the crosshair, highlighted, turns the centre pixel toward yellow.
    const auto pick = app::pickFace(*m_bundle, cam);
    ASSERT_TRUE(pick);
    const auto lit = render(cam, cam, {});
    const auto hi =
        render(cam, cam, {}, render::ViewMode::Lit, static_cast<int32_t>(pick->hit.face));
    const size_t c = (static_cast<size_t>(kH / 2) * kW + kW / 2) * 4;
    // A translucent tint (issue 33): yellow (1, 0.9, 0.1) times the flat shading, mixed at
    // render::kMarkTintAlpha over the lit surface, which stays readable under it.
    EXPECT_GT(hi[c], lit[c] + 20);
    EXPECT_GT(hi[c + 1], lit[c + 1] + 15);
    EXPECT_LE(hi[c + 2], lit[c + 2] + 2);
    EXPECT_GT(changedPixels(lit, hi), 0u);
    // The texture shows through: the tinted pixels keep many colours (an opaque fill is one
    // flat shade over the whole face).
    std::set<uint32_t> tinted;
    for (size_t i = 0; i + 3 < hi.size(); i += 4)
        if (hi[i] != lit[i] || hi[i + 1] != lit[i + 1] || hi[i + 2] != lit[i + 2])
            tinted.insert(uint32_t(hi[i]) << 16 | uint32_t(hi[i + 1]) << 8 | hi[i + 2]);
    EXPECT_GT(tinted.size(), 20u);
    // Its luxel readout comes from the map's own lightmap data.
    if (pick->luxel) {
        const bsp::Map& m = m_bundle->map;
        const auto& page = m.lightmap_pages[static_cast<size_t>(pick->luxel->page)].rgb;
        const size_t at = (static_cast<size_t>(pick->luxel->y) * m.lightmap_width +
                           static_cast<size_t>(pick->luxel->x)) *
                          3;
        EXPECT_EQ(pick->luxel->rgb[0], page[at]);
    }
}

TEST_F(DebugRender, PatchNetsDrawEveryControlRowAndColumn) {
    load(std::string(BSPV_SHARED_MAPS_DIR) + "/q3/bc_crypt.bsp");
    const scene::Camera cam = spawnCamera();
    scene::DebugViews nets;
    nets.patches = true;
    render(cam, cam, nets);
    size_t expected = 0;
    for (const bsp::Face& f : m_bundle->map.faces)
        if (f.kind == bsp::FaceKind::Patch)
            expected += static_cast<size_t>(f.patch_height) * (f.patch_width - 1u) +
                        static_cast<size_t>(f.patch_width) * (f.patch_height - 1u);
    EXPECT_GT(expected, 0u);
    EXPECT_EQ(m_overlays->stats().line_segments, expected);
}

TEST_F(DebugRender, GpuTimersReportWithoutStalling) {
    load(std::string(BSPV_SOURCE_DIR) + "/assets/maps/demo.bsp");
    const scene::Camera cam = spawnCamera();
    render::GpuTimers timers;
    scene::Visibility vis(m_bundle->map, m_bundle->mesh);
    vis.update(cam, {}, m_list);
    render::RenderOptions ro;
    for (int frame = 0; frame < 12; ++frame) {
        timers.beginFrame();
        m_target.bind();
        timers.begin("world");
        m_renderer->draw(m_list, cam, ro);
        timers.end();
        timers.begin("readback");
        (void)m_target.readPixels(); // makes every earlier query complete
        timers.end();
    }
    // Every slot was looked at once when reused (12 frames, the first kFrames never
    // reused), and none was waited for: read, or dropped as not ready or as nonsense (llvmpipe's
    // timestamps come from its rasteriser threads and may run backwards).
    EXPECT_EQ(timers.framesRead() + timers.framesNotReady() + timers.framesInvalid(),
              static_cast<uint64_t>(12 - render::GpuTimers::kFrames));
    if (timers.framesRead() > 0) {
        ASSERT_EQ(timers.latest().size(), 2u);
        EXPECT_EQ(timers.latest()[0].name, "world");
        EXPECT_EQ(timers.latest()[1].name, "readback");
        EXPECT_GE(timers.latest()[0].ms, 0.0);
        EXPECT_LE(timers.latest()[0].ms + timers.latest()[1].ms, timers.latestFrameMs() + 1e-9);
    }
}

// With RenderOptions::timers the renderer times each of its passes itself.
TEST_F(DebugRender, RendererTimesEachPass) {
    load(std::string(BSPV_SOURCE_DIR) + "/assets/maps/demo.bsp");
    const scene::Camera cam = spawnCamera();
    render::GpuTimers timers;
    scene::Visibility vis(m_bundle->map, m_bundle->mesh);
    vis.update(cam, {}, m_list);
    render::RenderOptions ro;
    ro.timers = &timers;
    ro.wireframe = true;
    for (int frame = 0; frame < 12; ++frame) {
        timers.beginFrame();
        m_target.bind();
        m_renderer->draw(m_list, cam, ro);
        (void)m_target.readPixels(); // makes every earlier query complete
    }
    std::vector<std::string> names;
    for (const auto& t : timers.latest())
        names.push_back(t.name);
    ASSERT_GE(names.size(), 4u);
    EXPECT_EQ(names[0], "clear");
    EXPECT_EQ(names[1], "depth prepass");
    EXPECT_NE(std::find(names.begin(), names.end(), "opaque"), names.end());
    EXPECT_EQ(names.back(), "world overlays");
    std::set<std::string> distinct(names.begin(), names.end());
    EXPECT_EQ(distinct.size(), names.size()) << "each pass timed once per frame";
}

TEST_F(DebugRender, ScreenshotPathDrawsTheRequestedOverlays) {
    load(std::string(BSPV_SOURCE_DIR) + "/assets/maps/demo.bsp");
    const scene::Camera cam = spawnCamera();
    scene::Visibility vis(m_bundle->map, m_bundle->mesh);
    vis.update(cam, {}, m_list);
    scene::DebugViews views;
    std::string error;
    ASSERT_TRUE(scene::parseDebugViews("leaf-bounds,entities", &views, &error)) << error;
    m_target.bind();
    m_renderer->draw(m_list, cam, render::RenderOptions());
    render::DebugOverlayStats stats;
    const core::Status st = app::drawDebugOverlaysOnce(*m_renderer, m_shaders, *m_bundle, m_list,
                                                       cam, {}, views, &stats);
    ASSERT_TRUE(st.ok());
    EXPECT_GT(stats.visible_leaves, 0u);
    EXPECT_GT(stats.markers, 0u);
    EXPECT_GT(stats.line_segments, stats.visible_leaves * 12u);
}

// A 64-unit floor quad with a 4x4 lightmap block (16 units per luxel) on an 8x8 page.
bsp::Map luxelFloor() {
    bsp::Map m;
    testsupport::addMaterial(m, "floor");
    m.lightmap_width = 8;
    m.lightmap_height = 8;
    m.lightmap_pages.push_back({std::vector<uint8_t>(8 * 8 * 3, 60)});
    bsp::Face f;
    f.material = 0;
    f.lightmap_page = 0;
    f.lightmap_rect = {0, 0, 4, 4};
    f.normal = {0, 0, 1};
    // Clockwise seen from above: the front (Quake winding).
    const glm::vec3 corners[4] = {{0, 0, 0}, {0, 64, 0}, {64, 64, 0}, {64, 0, 0}};
    const glm::vec2 lm[4] = {{0, 0}, {0, 0.5f}, {0.5f, 0.5f}, {0.5f, 0}};
    std::array<bsp::Vertex, 4> v{};
    for (size_t k = 0; k < 4; ++k) {
        v[k].position = corners[k];
        v[k].lm_uv = lm[k];
    }
    testsupport::addQuadVertices(m, v, f);
    testsupport::addWorldLeaf(m, glm::vec3(0), glm::vec3(64));
    return m;
}

TEST_F(DebugRender, LuxelGridLinesSitOnTexelBorders) {
    const bsp::Map map = luxelFloor();
    const scene::WorldMesh mesh = scene::buildWorldMesh(map);
    std::vector<content::TextureInfo> textures(1);
    textures[0].image = content::makeMissingTexture();
    render::WorldRenderer r;
    std::string error;
    ASSERT_TRUE(r.init(m_shaders, &error)) << error;
    ASSERT_TRUE(r.upload({map, mesh, textures}, &error)) << error;
    render::RenderTarget target;
    ASSERT_TRUE(target.create(kW, kH, &error)) << error;
    scene::Camera cam; // straight down onto the middle of the floor
    cam.position = {32, 32, 60};
    cam.pitch = 90.0f;
    cam.yaw = 90.0f; // screen right is +X, screen up +Y
    cam.aspect = static_cast<float>(kW) / static_cast<float>(kH);
    cam.z_near = 1.0f;
    scene::Visibility vis(map, mesh);
    scene::DrawList list;
    vis.update(cam, {}, list);
    ASSERT_EQ(list.faces.size(), 1u);
    auto frame = [&](bool grid) {
        target.bind();
        render::RenderOptions ro;
        ro.clear_colour = kClear;
        ro.view = render::ViewMode::Lightmap;
        ro.style_values = scene::lightStyleValues(0.0);
        r.draw(list, cam, ro);
        if (grid) {
            render::FaceGroup g;
            g.colour = glm::vec4(1.0f, 0.0f, 1.0f, 1.0f);
            g.faces = {0};
            r.drawFaceGroups({g}, render::FaceOverlay::LuxelGrid);
        }
        return target.readPixels();
    };
    const auto base = frame(false);
    const auto grid = frame(true);
    // Along the row through the luxel centres at y = 40: changed pixels at the world x of the
    // luxel borders (16, 32, 48), unchanged at luxel centres (8, 24, 40, 56).
    const glm::mat4 vp = cam.viewProjection();
    auto project = [&](float x, float y) {
        const glm::vec4 clip = vp * glm::vec4(x, y, 0.0f, 1.0f);
        return glm::ivec2(static_cast<int>((clip.x / clip.w * 0.5f + 0.5f) * kW),
                          static_cast<int>((0.5f - clip.y / clip.w * 0.5f) * kH));
    };
    auto column = [&](float x) { return project(x, 40.0f).x; };
    const int row_y = project(32.0f, 40.0f).y;
    ASSERT_GT(row_y, 0);
    ASSERT_LT(row_y, kH);
    ASSERT_LT(column(8.0f), column(24.0f));
    auto changedNear = [&](int px, int radius) {
        const size_t row = static_cast<size_t>(row_y) * kW;
        for (int x = std::max(0, px - radius); x <= std::min(kW - 1, px + radius); ++x) {
            const size_t i = (row + static_cast<size_t>(x)) * 4;
            if (grid[i] != base[i] || grid[i + 1] != base[i + 1] || grid[i + 2] != base[i + 2])
                return true;
        }
        return false;
    };
    for (float border : {16.0f, 32.0f, 48.0f})
        EXPECT_TRUE(changedNear(column(border), 1)) << "border at x = " << border;
    for (float centre : {8.0f, 24.0f, 40.0f, 56.0f})
        EXPECT_FALSE(changedNear(column(centre), 2)) << "luxel centre at x = " << centre;
}

// The viewer's panel without a window: ImGui frames with every overlay on, crosshair picking
// and the atlas window, drawn through ImGui's OpenGL backend as the viewer does.
class DebugPanelFrames : public DebugRender, public ::testing::WithParamInterface<const char*> {};

// A Quake 1 map, and a Quake 3 map whose crosshair face has a multi-stage shader (the panel then
// lists its stages with their toggles).
INSTANTIATE_TEST_SUITE_P(Maps, DebugPanelFrames, ::testing::Values("q1", "q3"),
                         [](const ::testing::TestParamInfo<const char*>& param) {
                             return std::string(param.param);
                         });

TEST_P(DebugPanelFrames, PanelRunsFramesWithEveryOverlayAndTheAtlas) {
    const bool q3 = std::string(GetParam()) == "q3";
    load(q3 ? std::string(BSPV_OPENARENA_DIR) + "/pak6-patch088.pk3:maps/oa_thor.bsp"
            : std::string(BSPV_SHARED_MAPS_DIR) + "/q1/lq_e1m1.bsp");
    scene::Camera cam = spawnCamera();
    if (q3) { // the intermission view, centred on the forcefield
        cam.position = glm::vec3(2560, 1656, 160);
        cam.pitch = 0.0f;
        cam.yaw = -90.0f;
    }
    ImGui::CreateContext();
    ImGuiIO& io = ImGui::GetIO();
    io.DisplaySize = ImVec2(static_cast<float>(kW), static_cast<float>(kH));
    io.IniFilename = nullptr;
    unsigned char* pixels = nullptr;
    int fw = 0, fh = 0;
    io.Fonts->GetTexDataAsRGBA32(&pixels, &fw, &fh);
    ImGui_ImplOpenGL3_Init("#version 330 core");
    {
        app::DebugPanels panels;
        scene::DebugViews all;
        std::string error;
        ASSERT_TRUE(scene::parseDebugViews("all", &all, &error));
        all.areas = false; // clusters and areas are exclusive in the panel
        ASSERT_TRUE(panels.init(m_shaders, all, &error)) << error;
        panels.setMap(m_bundle.get());
        panels.setFollowCrosshair(true);
        panels.setAtlasOpen(true);
        scene::Visibility vis(m_bundle->map, m_bundle->mesh);
        scene::VisOptions vis_options;
        for (int frame = 0; frame < 6; ++frame) {
            io.DeltaTime = 1.0f / 60.0f;
            panels.beginFrame(16.0f + static_cast<float>(frame));
            ImGui_ImplOpenGL3_NewFrame();
            ImGui::NewFrame();
            m_target.bind();
            vis_options.lock = frame >= 3; // locking keeps the frustum where it was
            vis.update(cam, vis_options, m_list);
            panels.timers().begin("world");
            m_renderer->draw(m_list, cam, render::RenderOptions());
            panels.timers().end();
            panels.drawScene(*m_renderer, m_list, cam, vis_options);
            panels.drawPanel(m_list);
            panels.drawLabels(cam);
            ImGui::Render();
            ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
        }

        ASSERT_TRUE(panels.pick().has_value());
        EXPECT_EQ(panels.highlightedFace(), static_cast<int32_t>(panels.pick()->hit.face));
        if (q3) {
            const int32_t material = m_bundle->map.faces[panels.pick()->hit.face].material;
            const scene::StagedMaterial& sm =
                m_bundle->stages.materials[static_cast<size_t>(material)];
            ASSERT_NE(sm.shader, nullptr) << m_bundle->map.materials[material].name;
            EXPECT_FALSE(sm.stages.empty()) << m_bundle->map.materials[material].name;
        }
        EXPECT_GT(panels.overlayStats().line_segments, 0u);
        EXPECT_GT(panels.overlayStats().tinted_groups, 0u);
        EXPECT_GT(ImGui::GetDrawData()->TotalVtxCount, 0);
    }
    ImGui_ImplOpenGL3_Shutdown();
    ImGui::DestroyContext();
}

// mp_lobby (Quake 3) is a 384-unit cube cut into 8 octant clusters by the 12 portals of its
// .prt, found beside the map. From (96, 96, 96), in cluster 0, looking along -X, the centre ray
// crosses exactly one portal: "4 0 4 0 (0 0 0) (0 0 192) (0 192 192) (0 192 0)", the x = 0
// square between clusters 0 and 4, before it meets the far wall.
TEST_F(DebugRender, PortalTintsTheCentreInItsClusterColour) {
    load(std::string(BSPV_SHARED_MAPS_DIR) + "/lobby/q3_mp_lobby.bsp");
    ASSERT_TRUE(m_bundle->portals);
    m_overlays->setCompileFiles(nullptr, &*m_bundle->portals);
    scene::Camera cam;
    cam.position = {96, 96, 96};
    cam.yaw = 180.0f;
    cam.aspect = static_cast<float>(kW) / static_cast<float>(kH);
    const auto base = render(cam, cam, {});
    scene::DebugViews views;
    views.portals = true;
    const auto with = render(cam, cam, views);
    EXPECT_EQ(m_overlays->stats().portals, 12u);
    EXPECT_EQ(m_overlays->stats().portal_clusters, 8u);
    EXPECT_EQ(m_overlays->stats().triangles, 24u);
    // Blended once: base * (1 - a) + colour * a with a = 90 / 255 (scene::addPortals' alpha).
    const size_t centre = (static_cast<size_t>(kH / 2) * kW + kW / 2) * 4;
    const glm::u8vec4 colour = scene::hashColour(0);
    const float a = 90.0f / 255.0f;
    for (int k = 0; k < 3; ++k) {
        const float expected = static_cast<float>(base[centre + static_cast<size_t>(k)]) * (1 - a) +
                               static_cast<float>(colour[k]) * a;
        EXPECT_NEAR(static_cast<float>(with[centre + static_cast<size_t>(k)]), expected, 2.5f)
            << "channel " << k;
    }
    // Portals cut the whole view: most pixels are tinted by one or more of them.
    EXPECT_GT(changedPixels(base, with), static_cast<size_t>(kW * kH) * 6 / 10);
    // Off again: the image is the base image.
    EXPECT_EQ(changedPixels(base, render(cam, cam, {})), 0u);
}

// A leak line outside the lobby's far wall (x = -300) still shows, through the wall, along the
// row the camera looks at; red-to-yellow pixels (no blue) are absent from the base image.
TEST_F(DebugRender, LeakLineShowsThroughWalls) {
    load(std::string(BSPV_SHARED_MAPS_DIR) + "/lobby/q3_mp_lobby.bsp");
    auto leak = content::parseLeakFile("-300 -400 96\n-300 600 96\n", "behind.lin");
    ASSERT_TRUE(leak.ok());
    m_overlays->setCompileFiles(&*leak, nullptr);
    scene::Camera cam;
    cam.position = {96, 96, 96};
    cam.yaw = 180.0f;
    cam.aspect = static_cast<float>(kW) / static_cast<float>(kH);
    const auto base = render(cam, cam, {});
    scene::DebugViews views;
    views.leak = true;
    const auto with = render(cam, cam, views);
    EXPECT_EQ(m_overlays->stats().leak_points, 2u);
    EXPECT_EQ(m_overlays->stats().triangles, 4u); // one segment: two crossed quads
    const auto leakish = [](const std::vector<uint8_t>& img, int row) {
        size_t n = 0;
        for (int x = 0; x < kW; ++x) {
            const size_t i = (static_cast<size_t>(row) * kW + static_cast<size_t>(x)) * 4;
            n += img[i] > 150 && img[i + 1] > 15 && img[i + 2] < 60 ? 1 : 0;
        }
        return n;
    };
    EXPECT_EQ(leakish(base, kH / 2), 0u);
    // The segment spans the whole view (it is 1,000 units long, 396 away).
    EXPECT_GT(leakish(with, kH / 2), static_cast<size_t>(kW) * 9 / 10);
    EXPECT_EQ(leakish(with, kH / 4), 0u); // and it is a line, not a wash
}

TEST(DebugPanels, FramePercentiles) {
    std::vector<float> ms;
    for (int i = 1; i <= 100; ++i)
        ms.push_back(static_cast<float>(i));
    const app::FramePercentiles p = app::framePercentiles(ms.data(), ms.size());
    EXPECT_DOUBLE_EQ(p.p50, 50.0);
    EXPECT_DOUBLE_EQ(p.p95, 95.0);
    EXPECT_DOUBLE_EQ(p.p99, 99.0);
    EXPECT_DOUBLE_EQ(p.max, 100.0);
    EXPECT_DOUBLE_EQ(app::framePercentiles(nullptr, 0).p99, 0.0);
}

TEST(DebugPanels, CommandLineDebugList) {
    auto o = app::parseArguments({"map.bsp", "--debug", "frustum,clusters"});
    ASSERT_TRUE(o.ok());
    EXPECT_TRUE(o->debug_views.frustum);
    EXPECT_TRUE(o->debug_views.clusters);
    EXPECT_FALSE(o->debug_views.entities);
    EXPECT_FALSE(app::parseArguments({"--debug", "nonsense"}).ok());
    EXPECT_FALSE(app::parseArguments({"--debug"}).ok());
    EXPECT_NE(app::helpText().find("--debug"), std::string::npos);
}

TEST(DebugPanels, CommandLineCompileFiles) {
    auto o = app::parseArguments({"map.bsp", "--debug", "portals,leak", "--prt", "a/b.prt",
                                  "--pointfile", "c.lin", "--camera", "leak:3"});
    ASSERT_TRUE(o.ok()) << o.error().message();
    EXPECT_TRUE(o->debug_views.portals && o->debug_views.leak);
    EXPECT_EQ(o->prt_file, "a/b.prt");
    EXPECT_EQ(o->pointfile, "c.lin");
    EXPECT_TRUE(o->camera.from_leak);
    EXPECT_FALSE(o->camera.from_spawn);
    EXPECT_EQ(o->camera.leak_stop, 3);
    EXPECT_EQ(app::loadSettingsOf(*o).portal_file, "a/b.prt");
    EXPECT_FALSE(app::parseArguments({"--prt"}).ok());
    EXPECT_FALSE(app::parseArguments({"--camera", "leak:-1"}).ok());
    EXPECT_FALSE(app::parseArguments({"--camera", "leaky"}).ok());
    EXPECT_TRUE(app::parseArguments({"--camera", "leak"})->camera.from_leak);
}

} // namespace
