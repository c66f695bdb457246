// ViewerApp: frames, map loading and reloading, settings (app/viewer_app.h).
#include "app/viewer_app.h"

#include "app/headless.h"
#include "app/ui_layout.h"
#include "bsp/load.h"
#include "content/image/image.h"
#include "content/vfs/vfs.h"
#include "core/file.h"
#include "export/export.h"
#include "render/gl.h"

#include <SDL.h>
#include <backends/imgui_impl_opengl3.h>
#include <backends/imgui_impl_sdl.h>
#include <imgui.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <fstream>
#include <span>

namespace app {

namespace {

const auto kEnv = [](const char* name) -> const char* { return std::getenv(name); };

// Plain paths become absolute and archive specs get an absolute archive, so the recent list
// opens the same file from any working folder.
std::string absoluteSpec(const std::string& spec) {
    std::error_code ec;
    if (auto ms = content::parseMapSpec(spec)) {
        const std::filesystem::path a = std::filesystem::absolute(ms->archive, ec);
        return ec ? spec : a.lexically_normal().string() + ":" + ms->member;
    }
    const std::filesystem::path a = std::filesystem::absolute(spec, ec);
    return ec ? spec : a.lexically_normal().string();
}

// The engine family of the map a spec names, from its header (loose files only; a map in an
// archive lives in its game's folder already).
std::optional<game::Family> familyOfFile(const std::string& spec) {
    if (content::parseMapSpec(spec))
        return std::nullopt;
    std::ifstream in(spec, std::ios::binary);
    char header[8] = {};
    if (!in.read(header, sizeof header))
        return std::nullopt;
    const bsp::Detected d = bsp::detect(
        std::span<const uint8_t>(reinterpret_cast<const uint8_t*>(header), sizeof header));
    if (!d.format)
        return std::nullopt;
    return game::familyOf(*d.format);
}

} // namespace

ViewerApp::ViewerApp(const Options& options) : m_options(options) {}

ViewerApp::~ViewerApp() {
    if (m_pending.valid())
        m_pending.wait();
    if (m_imgui_ready) {
        saveSettingsNow();
        ImGui_ImplOpenGL3_Shutdown();
        ImGui_ImplSDL2_Shutdown();
        ImGui::DestroyContext();
    }
}

void ViewerApp::info(const std::string& text) {
    m_notices.post(NoticeKind::Info, text);
}

void ViewerApp::error(const std::string& text) {
    std::fprintf(stderr, "bspview: %s\n", text.c_str());
    m_notices.post(NoticeKind::Error, text);
    m_last_error = text;
}

float ViewerApp::eyeHeight() const {
    return m_session.bundle() ? m_session.bundle()->profile.view.eye_height : 22.0f;
}

std::filesystem::path ViewerApp::screenshotFolder() const {
    if (!m_settings.screenshot_folder.empty())
        return m_settings.screenshot_folder;
    const std::filesystem::path def = defaultScreenshotFolder(kEnv);
    return def.empty() ? std::filesystem::temp_directory_path() / "bspview" : def;
}

void ViewerApp::captureNextFrame(std::vector<uint8_t>* rgba, int* width, int* height) {
    m_capture = rgba;
    m_capture_w = width;
    m_capture_h = height;
}

scene::LoadSettings ViewerApp::mapLoadSettings(const std::string& spec) const {
    scene::LoadSettings settings = loadSettingsOf(m_options);
    for (const std::string& folder : m_settings.game_folders)
        settings.base_dirs.emplace_back(folder);
    // Zero configuration: the detected folders of the map's own game family.
    if (m_settings.use_detected_games)
        if (const auto family = familyOfFile(spec))
            for (const content::DetectedGame& g : m_detected)
                if (g.family == *family &&
                    std::find(settings.base_dirs.begin(), settings.base_dirs.end(), g.folder) ==
                        settings.base_dirs.end())
                    settings.base_dirs.push_back(g.folder);
    if (!m_options.quake2_look)
        settings.game.quake2_look =
            game::parseQuake2Look(m_settings.quake2_look).value_or(game::Quake2Look::Yamagi);
    settings.progress = m_progress;
    return settings;
}

void ViewerApp::requestLoad(const std::string& spec) {
    if (m_pending.valid()) {
        info("a map is loading; open " + spec + " when it is done");
        return;
    }
    m_pending_spec = spec;
    m_pending_since = std::chrono::steady_clock::now();
    m_progress = std::make_shared<scene::LoadProgress>();
    m_pending_settings = mapLoadSettings(spec);
    const scene::LoadSettings settings = m_pending_settings;
    m_pending = std::async(std::launch::async,
                           [spec, settings] { return scene::loadMapBundle(spec, settings); });
}

void ViewerApp::pollLoad() {
    if (!m_pending.valid())
        return;
    if (m_pending.wait_for(std::chrono::seconds(0)) != std::future_status::ready) {
        // A progress notice while it loads: the stage and the time so far.
        const int stage = m_progress ? m_progress->stage.load() : 0;
        const double s =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - m_pending_since)
                .count();
        char line[96];
        std::snprintf(line, sizeof line, ": %s (%.1f s)",
                      scene::loadStageName(static_cast<scene::LoadStage>(stage)), s);
        m_notices.progress(
            "load", "loading " + std::filesystem::path(m_pending_spec).filename().string() + line,
            static_cast<float>(stage) / scene::kNumLoadStages);
        return;
    }
    m_notices.clear("load");
    auto result = m_pending.get();
    if (!result) {
        error(result.error().message()); // the current map stays
        return;
    }
    adoptLoaded(std::move(*result));
}

void ViewerApp::adoptLoaded(std::unique_ptr<scene::MapBundle> loaded) {
    const std::string spec = loaded->spec;
    if (auto adopted = m_session.adopt(std::move(loaded)); !adopted) {
        error(spec + ": " + adopted.error().message());
        return;
    }
    m_last_error.clear();
    m_map_settings = m_pending_settings; // a reload on change searches the same folders
    m_map_settings.progress.reset();
    const scene::MapBundle& b = *m_session.bundle();
    m_debug.setMap(&b);
    m_debug.setChanges(nullptr, nullptr);
    m_changes.reset();
    m_flipped = false;
    m_list.clear();
    m_selection = {};
    m_face_bounds = scene::faceBounds(b.map);
    m_textures.setMap(&b);
    m_model.controls = gameControlsFor(b);
    SDL_SetWindowTitle(m_window->sdl(), ("bspview - " + b.map.name).c_str());
    m_spawn = 0;
    m_model.map_key = mapKey(b.spec);
    m_model.selected_entity = -1;
    addRecent(m_settings.recent, absoluteSpec(b.spec));
    saveSettingsNow();
    const float fov = m_fly.camera.fov_x;
    if (auto cam = resolveCamera(m_options.camera_given ? m_options.camera : CameraSpec(), b))
        m_fly.camera = *cam;
    m_options.camera_given = false; // the command-line camera applies to the first map only
    m_options.pointfile.clear();    // and so do the named compile files
    m_options.prt_file.clear();
    m_styles_in_use = stylesInUse(b.map);
    m_fly.camera.fov_x = fov;
    m_list_camera = m_fly.camera;
    m_reload.follow();
    refreshMapList();
    if (!b.missing_textures.empty())
        m_notices.post(NoticeKind::Warning,
                       b.map.name + ": " + std::to_string(b.missing_textures.size()) +
                           " textures missing: add the game folder (File > Open, or drop the "
                           "folder on the window)",
                       "missing");
}

void ViewerApp::pollReload(std::chrono::steady_clock::time_point now) {
    m_reload.setEnabled(m_options.watch);
    if (m_pending.valid())
        return; // a map being opened replaces this one anyway
    std::string why;
    const MapReloader::Event event = m_reload.update(now, m_map_settings, &why);
    if (event == MapReloader::Event::Failed) {
        error("reload failed, the map on screen stays: " + why);
        return;
    }
    if (event != MapReloader::Event::Reloaded)
        return;
    m_flipped = false;
    mapReplacedInPlace();
    std::string text = "reloaded " + m_session.bundle()->map.name + " (changed on disk)";
    if (m_changes)
        text += ": " + std::to_string(m_changes->added) + " added, " +
                std::to_string(m_changes->moved) + " moved, " + std::to_string(m_changes->relit) +
                " relit, " + std::to_string(m_changes->removed.size()) + " removed (B: previous)";
    info(text);
}

void ViewerApp::reloadMap() {
    if (!m_session.bundle()) {
        info("no map to reload");
        return;
    }
    const float fov = m_fly.camera.fov_x;
    const scene::Camera keep = m_fly.camera;
    m_options.camera_given = true; // the reload keeps the view
    m_options.camera.from_spawn = false;
    m_options.camera.x = keep.position.x;
    m_options.camera.y = keep.position.y;
    m_options.camera.z = keep.position.z;
    m_options.camera.pitch = keep.pitch;
    m_options.camera.yaw = keep.yaw;
    m_fly.camera.fov_x = fov;
    requestLoad(m_session.bundle()->spec);
}

void ViewerApp::flipCompile() {
    if (!m_session.previous()) {
        info("no previous compile (it is kept when the map reloads)");
        return;
    }
    if (auto st = m_session.flipPrevious(); !st) {
        error(st.error().message());
        return;
    }
    m_flipped = !m_flipped;
    mapReplacedInPlace();
    info(m_flipped ? "showing the previous compile (B: back)" : "showing the latest compile");
}

void ViewerApp::mapReplacedInPlace() {
    // Everything the user set stays: camera, toggles, panels, bookmarks (keyed by path),
    // locked visibility (recomputed on the new map from the camera it was locked at).
    const scene::MapBundle& bundle = *m_session.bundle();
    m_debug.setMap(&bundle);
    m_changes.reset();
    if (const scene::MapBundle* previous = m_session.previous())
        m_changes = scene::diffMaps(previous->map, bundle.map);
    m_debug.setChanges(m_changes ? &*m_changes : nullptr,
                       m_session.previous() ? &m_session.previous()->map : nullptr);
    m_list.clear();
    m_face_bounds = scene::faceBounds(bundle.map);
    m_textures.setMap(&bundle);
    m_model.controls = gameControlsFor(bundle);
    m_selection = {};
    if (m_vis_options.lock) {
        scene::VisOptions unlocked = m_vis_options;
        unlocked.lock = false;
        m_session.visibility()->update(m_list_camera, unlocked, m_list);
    }
    if (m_model.selected_entity >= static_cast<int>(bundle.map.entities.size()))
        m_model.selected_entity = -1;
    m_styles_in_use = stylesInUse(bundle.map);
    if (!bundle.spawns.empty())
        m_spawn = std::min(m_spawn, static_cast<int>(bundle.spawns.size()) - 1);
}

void ViewerApp::saveScreenshot(int width, int height) {
    content::Image image;
    image.width = width;
    image.height = height;
    image.rgba = render::readFramebuffer(0, width, height);
    for (size_t i = 3; i < image.rgba.size(); i += 4)
        image.rgba[i] = 255;
    const std::time_t now = std::time(nullptr);
    char name[64];
    std::strftime(name, sizeof name, "bspview-%Y%m%d-%H%M%S.png", std::localtime(&now));
    const std::filesystem::path folder = screenshotFolder();
    std::error_code ec;
    std::filesystem::create_directories(folder, ec);
    std::filesystem::path file = folder / name;
    for (int n = 2; std::filesystem::exists(file, ec) && n < 100; ++n) // two in one second
        file =
            folder / (std::string(name, std::strlen(name) - 4) + "-" + std::to_string(n) + ".png");
    const std::filesystem::path shown = std::filesystem::absolute(file, ec);
    if (content::writePng(file, image))
        m_notices.post(NoticeKind::Info, "screenshot saved: " + shown.string(), "screenshot");
    else
        error("cannot write the screenshot " + shown.string());
}

void ViewerApp::goToSpawn(int index) {
    if (!m_session.bundle() || m_session.bundle()->spawns.empty())
        return;
    const int n = static_cast<int>(m_session.bundle()->spawns.size());
    m_spawn = ((index % n) + n) % n;
    CameraSpec spec;
    spec.spawn_index = m_spawn;
    if (auto cam = resolveCamera(spec, *m_session.bundle()))
        goToCamera(*cam);
}

void ViewerApp::goToCamera(const std::optional<scene::Camera>& camera) {
    if (!camera)
        return;
    const float fov = m_fly.camera.fov_x;
    const float aspect = m_fly.camera.aspect;
    m_fly.camera = *camera;
    m_fly.camera.fov_x = fov;
    m_fly.camera.aspect = aspect;
}

void ViewerApp::refreshMapList() {
    m_map_list.clear();
    const scene::MapBundle* b = m_session.bundle();
    if (b && b->fs)
        for (const std::string& name : b->fs->list("maps/", ".bsp"))
            m_map_list.push_back(b->fs->specOf(name));
    // Loose .bsp files beside the current map.
    if (b) {
        std::error_code ec;
        const std::filesystem::path dir = std::filesystem::path(b->spec).parent_path();
        if (!dir.empty() && std::filesystem::is_directory(dir, ec))
            for (const auto& entry : std::filesystem::directory_iterator(dir, ec))
                if (entry.is_regular_file(ec) &&
                    core::toLower(entry.path().extension().string()) == ".bsp")
                    m_map_list.push_back(entry.path().string());
    }
    std::sort(m_map_list.begin(), m_map_list.end());
    m_map_list.erase(std::unique(m_map_list.begin(), m_map_list.end()), m_map_list.end());
}

void ViewerApp::rebuildPatches(int level) {
    if (auto st = m_session.setPatchLevel(level); !st) {
        error(st.error().message());
        return;
    }
    m_options.patch_level = level;
    m_face_bounds = scene::faceBounds(m_session.bundle()->map);
}

void ViewerApp::reloadShaders() {
    std::string why;
    if (!m_renderer.reloadShaders(&why) || !m_debug.reloadShaders(m_shaders, &why)) {
        error("shader reload failed, the previous programs stay:\n" + why);
        return;
    }
    info("shaders reloaded (" + std::to_string(m_renderer.programCount()) + " programs" +
         (m_options.shader_dir.empty() ? ", embedded sources"
                                       : ", from " + m_options.shader_dir.string()) +
         ")");
}

void ViewerApp::captureSettings() {
    // A value a command-line flag imposed for this run is not saved unless it was changed
    // since (so one --no-pvs run does not turn PVS culling off for good).
    const Options& o = m_options;
    const std::string view = render::viewModeName(m_render_options.view);
    m_settings.speed = m_fly.speed;
    if (!(o.fov_given && m_fly.camera.fov_x == o.fov))
        m_settings.fov = m_fly.camera.fov_x;
    if (!(o.view_given && view == o.view))
        m_settings.view = view;
    if (!(o.wireframe && m_render_options.wireframe))
        m_settings.wireframe = m_render_options.wireframe;
    if (!(!o.pvs && !m_vis_options.pvs))
        m_settings.pvs = m_vis_options.pvs;
    if (!(!o.frustum && !m_vis_options.frustum))
        m_settings.frustum = m_vis_options.frustum;
    m_settings.neutral_lighting = m_render_options.neutral_lighting;
    m_settings.liquid_alpha = m_render_options.liquid_alpha;
    m_settings.vsync = m_vsync;
    m_settings.exposure = m_render_options.picture.exposure;
    m_settings.gamma = m_render_options.picture.gamma;
    m_settings.brightness = m_render_options.picture.brightness;
    // --auto-exposure is this run's, not saved over the user's choice.
    if (!(o.auto_exposure && m_render_options.auto_exposure))
        m_settings.auto_exposure = m_render_options.auto_exposure;
    // A filter given on the command line is this run's, not saved over the user's choice.
    if (m_options.texture_mode.empty())
        m_settings.texture_mode =
            m_render_options.texture_filter.mode
                ? std::string(game::textureModeName(*m_render_options.texture_filter.mode))
                : std::string();
    if (m_options.anisotropy <= 0.0f)
        m_settings.anisotropy = m_render_options.texture_filter.anisotropy;
    const std::pair<const char*, bool> open[] = {
        {"overview", m_windows.overview},         {"view", m_windows.view},
        {"map_info", m_windows.map_info},         {"entities", m_windows.entities},
        {"textures", m_windows.textures},         {"bookmarks", m_windows.bookmarks},
        {"light_styles", m_windows.light_styles}, {"debug", m_debug.open()}};
    for (const auto& [name, is_open] : open)
        m_settings.windows[name] = is_open;
}

void ViewerApp::saveSettingsNow() {
    if (m_config_dir.empty())
        return;
    captureSettings();
    if (auto st = saveSettings(m_config_dir / kConfigFileName, m_settings); !st)
        std::fprintf(stderr, "bspview: warning: %s\n", st.error().message().c_str());
}

void ViewerApp::loadSettingsAtStart() {
    m_config_dir = resolveConfigDir(m_options.config_dir, kEnv);
    if (!m_config_dir.empty()) {
        std::vector<std::string> warnings;
        m_settings = loadSettings(m_config_dir / kConfigFileName, &warnings);
        for (const std::string& w : warnings)
            std::fprintf(stderr, "bspview: warning: %s\n", w.c_str());
        // The next save replaces a damaged file: keep a copy of it for the user.
        if (!warnings.empty()) {
            std::error_code ec;
            const std::filesystem::path file = m_config_dir / kConfigFileName;
            std::filesystem::copy_file(file, file.string() + ".bad",
                                       std::filesystem::copy_options::overwrite_existing, ec);
            if (!ec)
                std::fprintf(stderr, "bspview: warning: kept a copy as %s.bad\n",
                             file.string().c_str());
        }
    }
    // The command line's options, as every mode reads them; the saved settings are laid over
    // them where no flag was given.
    if (auto ro = renderOptionsOf(m_options))
        m_render_options = *ro;
    m_vis_options = visOptionsOf(m_options);
    m_fly.speed = m_settings.speed;
    m_fly.camera.fov_x = m_options.fov_given ? m_options.fov : m_settings.fov;
    if (!m_options.view_given && !render::parseViewMode(m_settings.view, &m_render_options.view))
        m_render_options.view = render::ViewMode::Lit;
    m_render_options.wireframe = m_options.wireframe || m_settings.wireframe;
    m_vis_options.pvs = m_options.pvs && m_settings.pvs;
    m_vis_options.frustum = m_options.frustum && m_settings.frustum;
    m_render_options.neutral_lighting = m_settings.neutral_lighting;
    m_render_options.liquid_alpha = m_settings.liquid_alpha;
    m_render_options.picture = {m_settings.exposure, m_settings.gamma, m_settings.brightness};
    m_render_options.auto_exposure = m_options.auto_exposure || m_settings.auto_exposure;
    if (m_options.texture_mode.empty())
        m_render_options.texture_filter.mode = game::textureModeFromName(m_settings.texture_mode);
    if (m_options.anisotropy <= 0.0f)
        m_render_options.texture_filter.anisotropy = m_settings.anisotropy;
    m_vsync = m_settings.vsync;
    const auto open = [&](const char* name, bool def) {
        const auto it = m_settings.windows.find(name);
        return it == m_settings.windows.end() ? def : it->second;
    };
    m_windows.overview = open("overview", true);
    m_windows.view = open("view", false);
    m_windows.map_info = open("map_info", false);
    m_windows.entities = open("entities", false);
    m_windows.textures = open("textures", false);
    m_windows.bookmarks = open("bookmarks", false);
    m_windows.light_styles = open("light_styles", false);
    m_debug.open() = open("debug", false);
    m_ui_visible = true; // a hidden UI is never carried over
}

// Settings that change the picture and came from the last run are said at the start, so a
// lightmap-only or brightened view is never a mystery.
void ViewerApp::noticeCarriedOverSettings() {
    std::string carried;
    if (!m_options.view_given && m_render_options.view != render::ViewMode::Lit)
        carried += std::string("view ") + render::viewModeName(m_render_options.view);
    const render::PictureAdjust& p = m_render_options.picture;
    if (!p.identity()) {
        char buf[96];
        std::snprintf(buf, sizeof buf, "%sexposure %+.1f, gamma %.2f, brightness %+.2f",
                      carried.empty() ? "" : "; ", static_cast<double>(p.exposure),
                      static_cast<double>(p.gamma), static_cast<double>(p.brightness));
        carried += buf;
    }
    if (m_render_options.wireframe && !m_options.wireframe)
        carried += carried.empty() ? "wireframe" : "; wireframe";
    if (!carried.empty())
        m_notices.post(NoticeKind::Warning,
                       "from the last run: " + carried + " (View menu to change)", "carried", 12.0);
}

core::Status ViewerApp::init() {
    m_start = m_last_frame = std::chrono::steady_clock::now();
    loadSettingsAtStart();
    auto window = Window::create("bspview", m_options.width, m_options.height, false);
    if (!window)
        return window.error();
    m_window = std::move(*window);
    m_window->setVsync(m_vsync);
    m_shaders.setShaderDir(m_options.shader_dir);
    std::string why;
    if (!m_renderer.init(m_shaders, &why))
        return graphicsError(why);
    if (!m_debug.init(m_shaders, m_options.debug_views, &why))
        std::fprintf(stderr, "bspview: debug overlays unavailable: %s\n", why.c_str());
    IMGUI_CHECKVERSION();
    ImGui::CreateContext();
    clearRecordedRects();
    applyUiStyle(m_settings.ui_scale);
    m_applied_ui_scale = m_settings.ui_scale;
    // The window layout lives in the config folder, never in the working folder.
    if (!m_config_dir.empty()) {
        std::error_code ec;
        std::filesystem::create_directories(m_config_dir, ec);
        m_ini_path = (m_config_dir / kImGuiIniName).string();
    }
    ImGui::GetIO().IniFilename = m_ini_path.empty() ? nullptr : m_ini_path.c_str();
    ImGui_ImplSDL2_InitForOpenGL(m_window->sdl(), m_window->glContext());
    ImGui_ImplOpenGL3_Init("#version 330 core");
    m_imgui_ready = true;
    std::vector<std::string> warnings;
    m_detected = content::detectGameFolders(content::defaultGameSearchRoots(kEnv), &warnings);
    for (const std::string& w : warnings)
        std::fprintf(stderr, "bspview: warning: %s\n", w.c_str());
    noticeCarriedOverSettings();
    requestLoad(mapSpecOf(m_options));
    return core::okStatus();
}

void ViewerApp::drawWorld(int w, int h, float dt) {
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    glViewport(0, 0, w, h);
    m_fly.camera.aspect = h > 0 ? static_cast<float>(w) / static_cast<float>(h) : 1.0f;
    // The eye in a liquid: the frame is culled and drawn by its breathing camera.
    scene::Camera view = m_fly.camera;
    m_render_options.view_blend = glm::vec4(0.0f);
    m_render_options.screen_warp = glm::vec3(0.0f);
    if (const scene::MapBundle* b = m_session.bundle()) {
        const scene::EyeLiquid eye =
            eyeLiquidOf(*b, m_fly.camera, m_styles.time, m_render_options.liquid_view);
        view = eye.camera;
        m_render_options.view_blend = eye.blend;
        m_render_options.screen_warp = eye.screen_warp;
    }
    if (m_session.bundle() && m_session.visibility()) {
        const auto t0 = std::chrono::steady_clock::now();
        m_session.visibility()->update(view, m_vis_options, m_list);
        if (!m_vis_options.lock)
            m_list_camera = view;
        m_cpu_vis_ms =
            std::chrono::duration<float, std::milli>(std::chrono::steady_clock::now() - t0).count();
    }
    m_render_options.time = m_styles.time;
    m_render_options.frame_seconds = dt; // how far auto exposure moves
    if (m_session.bundle())
        m_render_options.clear_colour =
            clearColourOf(m_session.bundle()->profile, m_fly.camera, fogShown(m_render_options));
    const auto enabled = m_styles.enabled();
    std::span<const game::LightStyleString> spawn;
    if (m_session.bundle())
        spawn = m_session.bundle()->profile.entities.light_styles;
    m_render_options.style_values = scene::lightStyleValues(m_styles.time, &enabled, spawn);
    m_debug.beginFrame(dt * 1000.0f);
    m_render_options.timers = &m_debug.timers(); // times each pass of the world
    const scene::RegionView* region =
        m_session.skyRegion(view, m_vis_options, m_list, m_render_options.sky_region);
    const scene::ReflectionView* reflection =
        m_session.waterReflection(view, m_vis_options, m_list, m_render_options.water_reflection);
    m_renderer.draw(m_list, view, m_render_options, region, reflection);
    m_debug.setHighlightFaces(&m_textures.highlightFaces());
    m_debug.drawScene(m_renderer, m_list, view, m_vis_options);
}

void ViewerApp::frame() {
    pumpEvents();
    pollLoad();
    const auto now = std::chrono::steady_clock::now();
    pollReload(now);
    m_notices.update(std::chrono::duration<double>(now - m_start).count());
    const float dt = std::min(0.1f, std::chrono::duration<float>(now - m_last_frame).count());
    m_last_frame = now;
    m_frame_ms[static_cast<size_t>(m_frame_next)] = dt * 1000.0f;
    m_frame_next = (m_frame_next + 1) % static_cast<int>(m_frame_ms.size());
    m_frame_filled = std::min(m_frame_filled + 1, static_cast<int>(m_frame_ms.size()));
    if (!m_styles.paused)
        m_styles.time += dt;
    if (m_settings.ui_scale != m_applied_ui_scale) {
        applyUiStyle(m_settings.ui_scale);
        m_applied_ui_scale = m_settings.ui_scale;
    }

    ImGui_ImplOpenGL3_NewFrame();
    ImGui_ImplSDL2_NewFrame();
    // The mouse as the events last put it (the backend asks SDL for the pointer, which knows
    // nothing of events a test injects, and nothing while the window lacks focus).
    if (m_mouse_pos)
        ImGui::GetIO().MousePos = *m_mouse_pos;
    ImGui::NewFrame();
    clampWindowsToDisplay(m_ui_visible ? ImGui::GetFrameHeight() : 0.0f);
    updateCamera(dt);

    int w = 0, h = 0;
    m_window->drawableSize(&w, &h);
    drawWorld(w, h, dt);
    drawUi();
    ImGui::Render();
    m_debug.timers().begin("ui");
    ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
    m_debug.timers().end();
    if (m_capture) {
        *m_capture = render::readFramebuffer(0, w, h);
        *m_capture_w = w;
        *m_capture_h = h;
        m_capture = nullptr;
    }
    if (m_screenshot_requested) {
        m_screenshot_requested = false;
        saveScreenshot(w, h);
    }
    m_window->swap();
}

} // namespace app
