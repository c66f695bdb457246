#include "app/headless.h"

#include "app/debug_panels.h"
#include "app/panels.h"
#include "app/window.h"
#include "bsp/map_limits.h"
#include "bsp/tree.h"
#include "content/image/image.h"
#include "content/material/texture_cache.h"
#include "content/model/source_model.h"
#include "content/vfs/game_hints.h"
#include "content/vfs/vfs.h"
#include "core/file.h"
#include "core/json.h"
#include "physics/walk_script.h"
#include "render/flare_renderer.h"
#include "render/world_renderer.h"
#include "scene/debug/map_diff.h"
#include "scene/view/camera.h"
#include "scene/view/visibility.h"

#include <SDL.h>
#include <backends/imgui_impl_opengl3.h>
#include <glm/common.hpp>
#include <imgui.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <limits>
#include <optional>

#ifndef BSPV_SOURCE_ASSETS_DIR
#define BSPV_SOURCE_ASSETS_DIR ""
#endif

namespace app {

void writeVec3(core::JsonWriter& j, std::string_view key, const glm::vec3& v) {
    j.key(key).beginArray().value(v.x).value(v.y).value(v.z).endArray();
}

void writeGlIdentity(core::JsonWriter& j) {
    const render::GlCaps& caps = render::caps();
    j.field("gl_renderer", caps.renderer).field("gl_vendor", caps.vendor);
    j.field("gl_version", caps.version).field("video_driver", Window::videoDriver());
}

namespace {

// --overlay: the viewer's overlay drawn over the frame in the bound target, through an ImGui
// context that has no platform window (display size and time step are set by hand). Two
// frames are built because ImGui hides auto-sized windows for their first frame while it
// measures them. Returns the main window's rectangle.
std::array<float, 4> drawOverlayOffscreen(const Options& options, const scene::MapBundle& bundle,
                                          const scene::DrawList& list, scene::Camera camera,
                                          render::RenderOptions ro, scene::VisOptions vo) {
    IMGUI_CHECKVERSION();
    ImGuiContext* context = ImGui::CreateContext();
    ImGui::StyleColorsDark();
    ImGuiIO& io = ImGui::GetIO();
    io.IniFilename = nullptr;
    io.LogFilename = nullptr;
    io.DisplaySize = ImVec2(static_cast<float>(options.width), static_cast<float>(options.height));
    io.DeltaTime = 1.0f / 60.0f;
    ImGui_ImplOpenGL3_Init("#version 330 core");
    OverlayModel model;
    model.bundle = &bundle;
    model.stats = &list.stats;
    model.camera = &camera;
    model.render_options = &ro;
    model.vis_options = &vo;
    StyleControls styles;
    styles.paused = true;
    styles.time = options.time;
    model.styles = &styles;
    model.styles_in_use = stylesInUse(bundle.map);
    model.patch_level = bundle.mesh.patch_level;
    for (int frame = 0; frame < 2; ++frame) {
        ImGui_ImplOpenGL3_NewFrame();
        ImGui::NewFrame();
        drawOverlay(model, false);
        ImGui::Render();
    }
    ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
    const std::array<float, 4> rect = overlayWindowRect();
    ImGui_ImplOpenGL3_Shutdown();
    ImGui::DestroyContext(context);
    return rect;
}

// "q1_mp_lobby.prt": the companion file of the map with `ext`, as looked for beside it.
std::string compileFileName(const scene::MapBundle& b, const char* ext) {
    return std::filesystem::path(b.map.name).replace_extension(ext).filename().string();
}

} // namespace

int reportError(const core::Error& e) {
    std::fprintf(stderr, "bspview: error: %s\n", e.message().c_str());
    return 1;
}

std::string mapSpecOf(const Options& options) {
    return options.map.empty() ? defaultMapPath() : options.map;
}

scene::LoadSettings loadSettingsOf(const Options& options) {
    scene::LoadSettings settings;
    settings.base_dirs = options.base_dirs;
    settings.patch_level = options.patch_level;
    settings.texture_cache_dir = content::defaultTextureCacheDir();
    settings.pointfile = options.pointfile;
    settings.portal_file = options.prt_file;
    settings.parse.hdr_lighting = options.hdr;
    settings.game.quake2_look = options.quake2_look.value_or(game::Quake2Look::Yamagi);
    return settings;
}

core::Result<std::unique_ptr<OffscreenRenderer>> createOffscreenRenderer(const Options& options,
                                                                         const char* title) {
    auto gl = std::make_unique<OffscreenRenderer>();
    auto window = Window::create(title, options.width, options.height, true);
    if (!window)
        return window.error();
    gl->window = std::move(*window);
    gl->shaders.setShaderDir(options.shader_dir);
    std::string error;
    if (!gl->renderer.init(gl->shaders, &error))
        return graphicsError(error);
    if (!gl->target.create(options.width, options.height, &error))
        return graphicsError(error);
    return gl;
}

std::string defaultMapPath() {
    namespace fs = std::filesystem;
    std::vector<fs::path> candidates;
    if (char* base = SDL_GetBasePath()) {
        const fs::path exe_dir(base);
        SDL_free(base);
        candidates.push_back(exe_dir / "../share/bspview/maps/demo.bsp");
        candidates.push_back(exe_dir / "assets/maps/demo.bsp");
    }
    candidates.push_back(fs::path(BSPV_SOURCE_ASSETS_DIR) / "maps/demo.bsp");
    std::error_code ec;
    for (const auto& p : candidates)
        if (fs::is_regular_file(p, ec))
            return fs::weakly_canonical(p, ec).string();
    return candidates.back().string();
}

core::Result<scene::Camera> resolveCamera(const CameraSpec& spec, const scene::MapBundle& bundle) {
    scene::Camera cam;
    cam.z_far = scene::viewFarPlane(bundle);
    if (spec.from_leak) {
        const auto at =
            bundle.leak ? scene::leakStopCamera(*bundle.leak, spec.leak_stop, cam) : std::nullopt;
        if (!at)
            return core::makeError(core::ErrorCode::BadArgument, {}, -1, {},
                                   "--camera leak: the map has no leak file (a .pts or .lin "
                                   "beside it, or --pointfile FILE)");
        if (spec.leak_stop >= static_cast<int>(bundle.leak->stops.size()))
            return core::makeError(core::ErrorCode::BadArgument, {}, -1, {},
                                   "--camera leak:" + std::to_string(spec.leak_stop) +
                                       ": the leak line has " +
                                       std::to_string(bundle.leak->stops.size()) + " stops");
        return *at;
    }
    if (!spec.from_spawn) {
        cam.position = {spec.x, spec.y, spec.z};
        cam.pitch = spec.pitch;
        cam.yaw = spec.yaw;
        return cam;
    }
    const auto at = spec.spawn_index >= 0
                        ? scene::spawnCamera(bundle, static_cast<size_t>(spec.spawn_index))
                        : std::nullopt;
    if (!at && bundle.spawns.empty())
        return core::makeError(core::ErrorCode::BadArgument, {}, -1, {},
                               "--camera spawn:" + std::to_string(spec.spawn_index) +
                                   ": the map has no spawn points");
    if (!at)
        return core::makeError(core::ErrorCode::BadArgument, {}, -1, {},
                               "--camera spawn:" + std::to_string(spec.spawn_index) +
                                   ": the map has " + std::to_string(bundle.spawns.size()) +
                                   " spawn points");
    return *at;
}

namespace {

// --walk-script: where the walk ends, for the JSON.
struct WalkResult {
    glm::vec3 eye{0.0f};
    bool on_ground = false;
    int waterlevel = 0; // 0 dry .. 3 under (physics::PlayerState::waterlevel)
    int64_t ticks = 0;
};

// Plays the script from the camera's eye (origin = eye - the game's eye height) and moves the
// camera to the eye at the end (the crouched eye if the walk ends crouched).
core::Result<WalkResult> walkCamera(const std::string& script, const bsp::Map& map,
                                    float eye_height, scene::Camera& cam) {
    auto text = core::readFile(script);
    if (!text)
        return text.error();
    auto steps = physics::parseWalkScript(std::string(text->begin(), text->end()), script);
    if (!steps)
        return steps.error();
    if (map.collision.kind == bsp::CollisionKind::None)
        return core::makeError(core::ErrorCode::BadArgument, {}, -1, {},
                               "--walk-script: the map has no collision data");
    const physics::CollisionWorld world(map);
    const physics::PlayerMove move(world, physics::moveRulesFor(map.collision));
    physics::PlayerState s;
    s.origin = cam.position - glm::vec3(0.0f, 0.0f, eye_height);
    move.settle(s);
    float yaw = cam.yaw;
    for (physics::WalkStep& step : *steps)
        step.input.pitch = cam.pitch; // swimming goes where the camera looks, as in the viewer
    WalkResult r;
    r.ticks = physics::playWalkScript(move, *steps, s, yaw);
    const float eye = s.crouched ? move.rules().crouch_eye : eye_height;
    r.eye = s.origin + glm::vec3(0.0f, 0.0f, eye);
    r.on_ground = s.on_ground;
    r.waterlevel = s.waterlevel;
    cam.position = r.eye;
    cam.yaw = yaw;
    return r;
}

// What one --screenshot frame drew and measured, for its JSON.
struct ScreenshotFrame {
    scene::Camera cam;
    scene::Camera vis_camera;
    scene::VisOptions vis_options;
    scene::DrawList list;
    const scene::RegionView* region = nullptr;         // the sky region drawn behind (MapSession)
    const scene::ReflectionView* reflection = nullptr; // a planar water's (MapSession)
    std::optional<WalkResult> walk;
    std::optional<bsp::Map> compare_map;
    std::optional<scene::MapDiff> changes;
    render::DebugOverlayStats debug_stats;
    std::array<float, 4> overlay_rect{};
    int exposure_frames = 0; // frames drawn for auto exposure to settle (settleExposure)
    scene::Liquid liquid = scene::Liquid::None; // holding the eye (scene::eyeLiquid)
};

// The camera the picture is drawn from: --camera with the image's shape, then --walk-script.
core::Status placeCamera(const Options& options, const scene::MapBundle& bundle,
                         ScreenshotFrame& f) {
    auto cam = resolveCamera(options.camera, bundle);
    if (!cam)
        return cam.error();
    f.cam = *cam;
    f.cam.fov_x = options.fov;
    f.cam.aspect = static_cast<float>(options.width) / static_cast<float>(options.height);
    if (options.walk_script.empty())
        return core::okStatus();
    auto w = walkCamera(options.walk_script, bundle.map, bundle.profile.view.eye_height, f.cam);
    if (!w)
        return w.error();
    f.walk = *w;
    return core::okStatus();
}

// Visibility from the camera, or from --lock-camera (then culled faces are classified).
core::Status computeVisibility(const Options& options, const scene::MapBundle& b,
                               MapSession& session, ScreenshotFrame& f) {
    f.vis_options = visOptionsOf(options);
    f.vis_camera = f.cam;
    if (options.lock_camera_given) {
        auto locked = resolveCamera(options.lock_camera, b);
        if (!locked)
            return locked.error();
        f.vis_camera = *locked;
        f.vis_camera.fov_x = f.cam.fov_x;
        f.vis_camera.aspect = f.cam.aspect;
        f.vis_options.classify = true;
    }
    session.visibility()->update(f.vis_camera, f.vis_options, f.list);
    f.region = session.skyRegion(f.cam, f.vis_options, f.list, options.sky_region);
    f.reflection = session.waterReflection(f.cam, f.vis_options, f.list, options.water_reflection);
    return core::okStatus();
}

// --auto-exposure: the exposure settles before the frame that is saved, as a player's eyes
// have after the first seconds on a map. Frames of the same view a tenth of a second apart,
// each waited for so that its measure is in for the next, until the scale is within 0.1 % of
// its goal once the client's moving average is full (ten measures), at most 100 (10 s). The
// frame saved then moves no further (frame_seconds 0). Returns the frames drawn.
int settleExposure(const Options& options, render::WorldRenderer& renderer,
                   const ScreenshotFrame& f, render::RenderOptions& ro) {
    constexpr int kMaxFrames = 100;
    int frames = 0;
    ro.time = options.time;
    ro.frame_seconds = 0.1f;
    while (renderer.autoExposed(ro) && frames < kMaxFrames) {
        renderer.draw(f.list, f.cam, ro, f.region, f.reflection);
        glFinish();
        ++frames;
        const float goal = renderer.exposureGoal();
        if (frames > 11 && std::fabs(renderer.toneScale(ro) - goal) <= 1e-3f * goal)
            break;
    }
    ro.frame_seconds = 0.0f;
    return frames;
}

// Draws the frame at --time into the bound target.
void drawFrame(const Options& options, render::WorldRenderer& renderer, ScreenshotFrame& f,
               render::RenderOptions& ro) {
    f.exposure_frames = settleExposure(options, renderer, f, ro);
    // Flares fade in once their occlusion queries have answered, a frame later: two lead-in
    // frames (waited for, as nobody is watching) let them settle before the one that is saved.
    if (ro.flares && renderer.flares() && renderer.flares()->count() > 0)
        for (double lead : {0.3, 0.15}) {
            ro.time = options.time - lead;
            renderer.draw(f.list, f.cam, ro, f.region, f.reflection);
            glFinish();
        }
    ro.time = options.time;
    renderer.draw(f.list, f.cam, ro, f.region, f.reflection);
}

// --compare: what changed since an earlier compile (the A/B view of issue #18).
core::Status loadComparison(const Options& options, const scene::MapBundle& b, ScreenshotFrame& f) {
    if (!options.compare.empty()) {
        auto old = scene::loadMapSpec(options.compare, loadSettingsOf(options).parse);
        if (!old)
            return old.error();
        f.compare_map = std::move(*old);
        f.changes = scene::diffMaps(*f.compare_map, b.map);
    } else if (options.debug_views.changes) {
        return core::makeError(core::ErrorCode::BadArgument, {}, -1, {},
                               "--debug changes needs --compare OLD.bsp");
    }
    return core::okStatus();
}

// --debug: the overlays over the frame, with a warning for each compile file they lack.
core::Status drawDebugViews(const Options& options, OffscreenRenderer& gl,
                            const scene::MapBundle& b, ScreenshotFrame& f) {
    if (!options.debug_views.any())
        return core::okStatus();
    if (options.debug_views.portals && !b.portals)
        std::fprintf(stderr,
                     "bspview: warning: --debug portals: no portal file (%s beside "
                     "the map, or --prt FILE)\n",
                     compileFileName(b, ".prt").c_str());
    if (options.debug_views.leak && !b.leak)
        std::fprintf(stderr,
                     "bspview: warning: --debug leak: no leak file (%s or %s beside "
                     "the map, or --pointfile FILE)\n",
                     compileFileName(b, ".pts").c_str(), compileFileName(b, ".lin").c_str());
    const int32_t leak_stop = options.camera.from_leak ? options.camera.leak_stop : -1;
    return drawDebugOverlaysOnce(gl.renderer, gl.shaders, b, f.list, f.vis_camera, f.vis_options,
                                 options.debug_views, &f.debug_stats, leak_stop,
                                 f.changes ? &*f.changes : nullptr,
                                 f.compare_map ? &*f.compare_map : nullptr);
}

// The target's pixels, opaque, to --screenshot's PNG.
core::Status savePicture(const Options& options, render::RenderTarget& target) {
    content::Image image;
    image.width = options.width;
    image.height = options.height;
    image.rgba = target.readPixels();
    for (size_t i = 3; i < image.rgba.size(); i += 4)
        image.rgba[i] = 255;
    render::checkGlErrors("screenshot");
    if (!content::writePng(options.screenshot_path, image))
        return core::makeError(core::ErrorCode::FileOpen, {}, -1, {},
                               "cannot write " + options.screenshot_path);
    return core::okStatus();
}

// The camera, what visibility kept and what the renderer submitted.
void writeDrawStats(core::JsonWriter& j, const Options& options, const ScreenshotFrame& f,
                    const render::WorldRenderer& renderer) {
    const scene::DrawStats& s = f.list.stats;
    j.key("camera").beginObject();
    writeVec3(j, "position", f.cam.position);
    j.field("pitch", f.cam.pitch).field("yaw", f.cam.yaw).field("fov", f.cam.fov_x);
    j.field("width", options.width).field("height", options.height).endObject();
    j.field("camera_leaf", s.camera_leaf).field("camera_cluster", s.camera_cluster);
    j.field("eye_liquid", scene::liquidName(f.liquid));
    j.field("pvs_leaves", s.pvs_leaves).field("visible_leaves", s.visible_leaves);
    j.field("faces_drawn", s.faces_drawn).field("faces_total", s.faces_total);
    j.field("triangles", s.triangles).field("draw_calls", s.draw_calls);
    j.field("models_drawn", s.models_drawn).field("models_total", s.models_total);
    j.field("models_faded", s.models_faded);
    j.field("gl_path", render::drawPathName(renderer.drawPath()));
    j.field("gl_draw_calls", renderer.submitStats().draw_calls);
    j.field("gl_ranges", renderer.submitStats().ranges_drawn);
    if (options.lock_camera_given) {
        j.key("why_culled").beginObject().field("considered", s.faces_considered);
        j.field("drawn", s.drawn_world).field("pvs", s.culled_pvs);
        j.field("frustum", s.culled_frustum).endObject();
    }
}

// The tone map the frame was drawn with, for maps that have one (game::ToneMapRule).
void writeToneMap(core::JsonWriter& j, const game::ToneMapRule& rule,
                  const render::WorldRenderer& renderer, const render::RenderOptions& ro,
                  const ScreenshotFrame& f) {
    if (rule.source == game::ToneMapSource::None)
        return;
    const bool autoexp = renderer.autoExposed(ro);
    j.key("tone_map").beginObject().field("applied", rule.enabled);
    j.field("auto_exposure", autoexp).field("scale", renderer.toneScale(ro));
    if (autoexp)
        j.field("goal", renderer.exposureGoal()).field("settle_frames", f.exposure_frames);
    j.endObject();
}

// --debug's counts and --compare's changes.
void writeDebugStats(core::JsonWriter& j, const Options& options, const ScreenshotFrame& f) {
    if (options.debug_views.any()) {
        const render::DebugOverlayStats& d = f.debug_stats;
        j.key("debug").beginObject().field("line_segments", d.line_segments);
        j.field("visible_leaves", d.visible_leaves);
        j.field("tinted_groups", d.tinted_groups).field("markers", d.markers);
        j.field("area_borders", d.area_borders);
        j.field("portals", d.portals).field("portal_clusters", d.portal_clusters);
        j.field("hint_portals", d.hint_portals);
        j.field("leak_points", d.leak_points).field("leak_stops", d.leak_stops);
        j.field("triangles", d.triangles);
        j.field("changed_faces", d.changed_faces);
        j.field("collision_solids", d.collision_solids);
        j.field("collision_polygons", d.collision_polygons).endObject();
    }
    if (f.changes) {
        j.key("changes").beginObject().field("compared_with", options.compare);
        j.field("same", f.changes->same).field("added", f.changes->added);
        j.field("moved", f.changes->moved).field("relit", f.changes->relit);
        j.field("removed", static_cast<uint64_t>(f.changes->removed.size())).endObject();
    }
}

// What lies under the crosshair: the portal (--debug portals) and the face with its luxel
// (--debug luxels).
void writeCrosshairPicks(core::JsonWriter& j, const Options& options, const scene::MapBundle& b,
                         const scene::Camera& cam) {
    if (options.debug_views.portals) // the portal under the crosshair and what it joins
        if (const auto hit = pickPortal(b, cam)) {
            const content::Portal& p = b.portals->portals[hit->portal];
            j.key("portal_at_crosshair").beginObject().field("portal", hit->portal);
            j.field("front", p.a).field("back", p.b).field("hint", p.hint);
            j.field("distance", hit->distance).endObject();
        }
    if (options.debug_views.luxels) // luxel readout: the face under the crosshair
        if (const auto pick = pickFace(b, cam)) {
            j.key("crosshair").beginObject().field("face", pick->hit.face);
            writeVec3(j, "point", pick->hit.point);
            if (pick->luxel) {
                const scene::Luxel& l = *pick->luxel;
                j.field("lightmap_page", l.page).key("luxel").beginArray().value(l.x).value(l.y);
                j.endArray().key("rgb").beginArray().value(l.rgb[0]).value(l.rgb[1]);
                j.value(l.rgb[2]).endArray();
            }
            j.endObject();
        }
}

// --walk-script's end and --overlay's window rectangle.
void writeWalkAndOverlay(core::JsonWriter& j, const Options& options, const ScreenshotFrame& f) {
    if (f.walk) {
        j.key("walk").beginObject();
        writeVec3(j, "end", f.walk->eye);
        j.field("on_ground", f.walk->on_ground)
            .field("ticks", static_cast<uint64_t>(f.walk->ticks));
        j.field("waterlevel", static_cast<uint64_t>(f.walk->waterlevel));
        j.endObject();
    }
    if (options.overlay) {
        j.key("overlay").beginArray();
        for (float v : f.overlay_rect)
            j.value(v);
        j.endArray();
    }
}

// Draws the loaded map as the options ask into gl's target and writes the PNG.
core::Status drawScreenshot(const Options& options, OffscreenRenderer& gl, MapSession& session,
                            render::RenderOptions& ro, ScreenshotFrame& f) {
    scene::MapBundle& b = *session.bundle();
    ro.clear_colour = clearColourOf(b.profile, f.cam, fogShown(ro), ro.clear_colour);
    // The eye in a liquid: the frame is culled and drawn by its breathing camera.
    const scene::EyeLiquid eye = eyeLiquidOf(b, f.cam, options.time, ro.liquid_view);
    f.cam = eye.camera;
    f.liquid = eye.liquid;
    ro.view_blend = eye.blend;
    ro.screen_warp = eye.screen_warp;
    if (auto st = computeVisibility(options, b, session, f); !st)
        return st;
    ro.show_culled = options.lock_camera_given;
    ro.style_values =
        scene::lightStyleValues(options.time, nullptr, b.profile.entities.light_styles);
    gl.target.bind();
    drawFrame(options, gl.renderer, f, ro);
    if (auto st = loadComparison(options, b, f); !st)
        return st;
    if (auto st = drawDebugViews(options, gl, b, f); !st)
        return st;
    if (options.overlay)
        f.overlay_rect = drawOverlayOffscreen(options, b, f.list, f.cam, ro, f.vis_options);
    return savePicture(options, gl.target);
}

} // namespace

int runScreenshot(const Options& options) {
    using Clock = std::chrono::steady_clock;
    const auto t_start = Clock::now();
    auto render_options = renderOptionsOf(options);
    if (!render_options)
        return reportError(render_options.error());
    auto loaded = scene::loadMapBundle(mapSpecOf(options), loadSettingsOf(options));
    if (!loaded)
        return reportError(loaded.error());
    ScreenshotFrame f;
    if (auto st = placeCamera(options, **loaded, f); !st)
        return reportError(st.error());

    auto gl = createOffscreenRenderer(options, "bspview (headless)");
    if (!gl)
        return reportError(gl.error());
    MapSession session((*gl)->renderer);
    if (auto st = session.adopt(std::move(*loaded)); !st)
        return reportError(st.error());
    if (auto st = drawScreenshot(options, **gl, session, *render_options, f); !st)
        return reportError(st.error());

    const scene::MapBundle& b = *session.bundle();
    core::JsonWriter j;
    j.beginObject();
    j.field("file", b.map.name).field("screenshot", options.screenshot_path);
    writeDrawStats(j, options, f, (*gl)->renderer);
    writeToneMap(j, b.profile.rules.tonemap, (*gl)->renderer, *render_options, f);
    writeDebugStats(j, options, f);
    writeCrosshairPicks(j, options, b, f.cam);
    j.field("missing_textures", static_cast<uint64_t>(b.missing_textures.size()));
    writeWalkAndOverlay(j, options, f);
    j.field("gl_errors", render::glErrorCount());
    writeGlIdentity(j);
    j.field("seconds", std::chrono::duration<double>(Clock::now() - t_start).count());
    j.endObject();
    std::cout << j.str() << "\n";
    return render::glErrorCount() == 0 ? 0 : 2;
}

} // namespace app
