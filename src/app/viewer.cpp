#include "app/viewer.h"

#include "app/debug_panels.h"
#include "app/export_mode.h"
#include "app/export_panel.h"
#include "app/fly_camera.h"
#include "app/headless.h"
#include "app/map_reload.h"
#include "app/open_panel.h"
#include "app/panels.h"
#include "app/settings.h"
#include "app/walk_mode.h"
#include "app/window.h"
#include "content/image/image.h"
#include "content/vfs/vfs.h"
#include "core/file.h"
#include "export/export.h"
#include "render/world_renderer.h"
#include "scene/debug/map_diff.h"
#include "scene/load/map_bundle.h"
#include "scene/view/visibility.h"

#include <SDL.h>
#include <backends/imgui_impl_opengl3.h>
#include <backends/imgui_impl_sdl.h>
#include <imgui.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <future>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace app {

namespace {

struct FrameTimes {
    static constexpr int kCount = 240;
    float ms[kCount] = {};
    int next = 0;
    int filled = 0; // frames recorded so far, up to kCount
    void push(float v) {
        ms[next] = v;
        next = (next + 1) % kCount;
        filled = std::min(filled + 1, kCount);
    }
};

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

class Viewer {
public:
    explicit Viewer(const Options& options) : m_options(options) {}
    int run();

private:
    void requestLoad(const std::string& spec);
    void pollLoad();
    // Reload on recompile: the map's files watched, a finished reload taken in place.
    void pollReload(std::chrono::steady_clock::time_point now);
    // B: flips between the map and its previous compile (kept by the last reload).
    void flipCompile();
    // After the map was replaced in place (a reload, an A/B flip): what points into the old
    // one is rebuilt, what the user set stays.
    void mapReplacedInPlace();
    void goToSpawn(int index);
    // Puts the view at `camera` (a leak stop), keeping the field of view; nothing on nullopt.
    void goToCamera(const std::optional<scene::Camera>& camera);
    void saveScreenshot(int width, int height);
    void handleEvent(const SDL_Event& e);
    void updateCamera(float dt);
    void updateCameraInput(float dt);
    void dropToFloor(); // G: the eye to the game's eye height above the floor below
    void drawOverlay();
    void rebuildPatches(int level);
    // F5: the GLSL programs compiled again (from --shader-dir when given); a failed compile
    // keeps the running programs and shows the log.
    void reloadShaders();
    void loadSettingsAtStart();
    void captureSettings();
    void saveSettingsNow();
    void bookmarkKey(int slot, bool save);
    void drawOpenPanel();
    // The Export panel; an export writes the map on screen synchronously (the longest shared
    // map takes under 2 s) so the bundle cannot be swapped under it.
    void drawExportPanel();
    void refreshMapList();
    // The command line's load settings with the saved game folders after its --base ones.
    scene::LoadSettings mapLoadSettings() const;

    Options m_options;
    std::unique_ptr<Window> m_window;
    render::GlslLibrary m_shaders;
    render::WorldRenderer m_renderer;
    MapSession m_session{m_renderer}; // the map on screen, its GPU copy and visibility
    MapReloader m_reload{m_session};  // reloads it when a compiler rewrites its files
    // The camera the current draw list was computed from: a reload with visibility locked
    // computes the new map's list from here.
    scene::Camera m_list_camera;
    std::optional<scene::MapDiff> m_changes; // current map against the previous compile
    scene::DrawList m_list;
    scene::VisOptions m_vis_options;
    render::RenderOptions m_render_options;
    FlyCamera m_fly;
    WalkMode m_walk;               // V: the camera walks as the game's player
    bool m_walk_on = false;        // asked for (V or the overlay's checkbox); fly is the default
    bool m_drop_teleports = false; // teleports (spawn, bookmark, entity, ...) drop to the floor
    glm::vec3 m_last_eye{0.0f};    // the camera after the last update: a change is a teleport
    int m_spawn = 0;

    std::future<core::Result<std::unique_ptr<scene::MapBundle>>> m_pending;
    std::string m_pending_spec;
    std::string m_error;
    std::string m_status;

    bool m_running = true;
    bool m_flipped = false; // B: the previous compile is on screen
    bool m_overlay = true;
    bool m_mouse_captured = false;
    bool m_right_held = false;
    CtrlChord m_ctrl; // Ctrl held: descent, or the start of a chord
    bool m_vsync = true;
    OpenPanel m_open;                    // Ctrl+O: path, file browser, game folders
    ExportPanel m_export;                // the overlay's "Export..."
    std::string m_export_status;         // the last export's result, shown in its panel
    bool m_screenshot_requested = false; // F12: saved after the next frame is drawn
    std::vector<std::string> m_map_list;
    FrameTimes m_frame_times;
    StyleControls m_styles; // light style solo/mute and the animation clock
    OverlayModel m_model;
    Settings m_settings;
    std::filesystem::path m_config_dir; // empty: nothing is saved
    std::string m_ini_path;             // ImGui keeps the pointer: lives as long as the viewer
    std::vector<int> m_styles_in_use;
    float m_cpu_vis_ms = 0.0f;
    DebugPanels m_debug; // issue #6 overlays, picking, atlas, GPU timers
};

void Viewer::requestLoad(const std::string& spec) {
    if (m_pending.valid())
        return; // one load at a time
    m_pending_spec = spec;
    m_status = "loading " + spec + " ...";
    const scene::LoadSettings settings = mapLoadSettings();
    m_pending = std::async(std::launch::async,
                           [spec, settings] { return scene::loadMapBundle(spec, settings); });
}

void Viewer::pollLoad() {
    if (!m_pending.valid() ||
        m_pending.wait_for(std::chrono::seconds(0)) != std::future_status::ready)
        return;
    auto result = m_pending.get();
    m_status.clear();
    if (!result) {
        // The current map stays; the error is shown in the overlay.
        m_error = result.error().message();
        std::fprintf(stderr, "bspview: error: %s\n", m_error.c_str());
        return;
    }
    const std::string spec = (*result)->spec;
    if (auto adopted = m_session.adopt(std::move(*result)); !adopted) {
        m_error = spec + ": " + adopted.error().message();
        return;
    }
    m_error.clear();
    m_debug.setMap(m_session.bundle());
    m_debug.setChanges(nullptr, nullptr);
    m_changes.reset();
    m_flipped = false;
    m_list.clear();
    SDL_SetWindowTitle(m_window->sdl(), ("bspview - " + m_session.bundle()->map.name).c_str());
    m_spawn = 0;
    m_model.map_key = mapKey(m_session.bundle()->spec);
    m_model.selected_entity = -1;
    addRecent(m_settings.recent, absoluteSpec(m_session.bundle()->spec));
    saveSettingsNow();
    const float fov = m_fly.camera.fov_x;
    auto cam = resolveCamera(m_options.camera_given ? m_options.camera : CameraSpec(),
                             *m_session.bundle());
    if (cam)
        m_fly.camera = *cam;
    m_options.camera_given = false; // the command-line camera applies to the first map only
    m_options.pointfile.clear();    // and so do the named compile files
    m_options.prt_file.clear();
    m_styles_in_use = stylesInUse(m_session.bundle()->map);
    m_fly.camera.fov_x = fov;
    m_list_camera = m_fly.camera;
    m_reload.follow();
    refreshMapList();
}

void Viewer::pollReload(std::chrono::steady_clock::time_point now) {
    m_reload.setEnabled(m_options.watch);
    if (m_pending.valid())
        return; // a map being opened replaces this one anyway
    std::string error;
    const MapReloader::Event event = m_reload.update(now, mapLoadSettings(), &error);
    if (event == MapReloader::Event::Failed) {
        m_error = "reload failed, the map on screen stays: " + error;
        std::fprintf(stderr, "bspview: %s\n", m_error.c_str());
        return;
    }
    if (event != MapReloader::Event::Reloaded)
        return;
    m_error.clear();
    m_flipped = false;
    mapReplacedInPlace();
    m_status = "reloaded " + m_session.bundle()->map.name + " (changed on disk)";
    if (m_changes)
        m_status += ": " + std::to_string(m_changes->added) + " added, " +
                    std::to_string(m_changes->moved) + " moved, " +
                    std::to_string(m_changes->relit) + " relit, " +
                    std::to_string(m_changes->removed.size()) + " removed (B: previous)";
}

void Viewer::flipCompile() {
    if (!m_session.previous()) {
        m_status = "no previous compile (it is kept when the map reloads)";
        return;
    }
    if (auto st = m_session.flipPrevious(); !st) {
        m_error = st.error().message();
        return;
    }
    m_flipped = !m_flipped;
    mapReplacedInPlace();
    m_status = m_flipped ? "showing the previous compile (B: back)" : "showing the latest compile";
}

void Viewer::mapReplacedInPlace() {
    // Everything the user set stays: camera, toggles, overlay, bookmarks (keyed by path),
    // locked visibility (recomputed on the new map from the camera it was locked at).
    const scene::MapBundle& bundle = *m_session.bundle();
    m_debug.setMap(m_session.bundle());
    m_changes.reset();
    if (const scene::MapBundle* previous = m_session.previous())
        m_changes = scene::diffMaps(previous->map, bundle.map);
    m_debug.setChanges(m_changes ? &*m_changes : nullptr,
                       m_session.previous() ? &m_session.previous()->map : nullptr);
    m_list.clear();
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

void Viewer::saveScreenshot(int width, int height) {
    content::Image image;
    image.width = width;
    image.height = height;
    image.rgba = render::readFramebuffer(0, width, height);
    for (size_t i = 3; i < image.rgba.size(); i += 4)
        image.rgba[i] = 255;
    const std::time_t now = std::time(nullptr);
    char name[64];
    std::strftime(name, sizeof name, "bspview-%Y%m%d-%H%M%S.png", std::localtime(&now));
    if (content::writePng(name, image))
        m_status = std::string("saved ") + name;
    else
        m_error = std::string("cannot write ") + name;
}

void Viewer::goToSpawn(int index) {
    if (!m_session.bundle() || m_session.bundle()->spawns.empty())
        return;
    const int n = static_cast<int>(m_session.bundle()->spawns.size());
    m_spawn = ((index % n) + n) % n;
    CameraSpec spec;
    spec.spawn_index = m_spawn;
    auto cam = resolveCamera(spec, *m_session.bundle());
    if (cam) {
        const float fov = m_fly.camera.fov_x;
        m_fly.camera = *cam;
        m_fly.camera.fov_x = fov;
    }
}

scene::LoadSettings Viewer::mapLoadSettings() const {
    scene::LoadSettings settings = loadSettingsOf(m_options);
    for (const std::string& folder : m_settings.game_folders)
        settings.base_dirs.emplace_back(folder);
    return settings;
}

void Viewer::goToCamera(const std::optional<scene::Camera>& camera) {
    if (!camera)
        return;
    const float fov = m_fly.camera.fov_x;
    m_fly.camera = *camera;
    m_fly.camera.fov_x = fov;
}

void Viewer::refreshMapList() {
    m_map_list.clear();
    if (m_session.bundle() && m_session.bundle()->fs)
        for (const std::string& name : m_session.bundle()->fs->list("maps/", ".bsp"))
            m_map_list.push_back(m_session.bundle()->fs->specOf(name));
    // Loose .bsp files beside the current map.
    if (m_session.bundle()) {
        std::error_code ec;
        const std::filesystem::path dir =
            std::filesystem::path(m_session.bundle()->spec).parent_path();
        if (!dir.empty() && std::filesystem::is_directory(dir, ec)) {
            for (const auto& entry : std::filesystem::directory_iterator(dir, ec)) {
                if (entry.is_regular_file(ec) &&
                    core::toLower(entry.path().extension().string()) == ".bsp")
                    m_map_list.push_back(entry.path().string());
            }
        }
    }
    std::sort(m_map_list.begin(), m_map_list.end());
    m_map_list.erase(std::unique(m_map_list.begin(), m_map_list.end()), m_map_list.end());
}

void Viewer::handleEvent(const SDL_Event& e) {
    ImGui_ImplSDL2_ProcessEvent(&e);
    const ImGuiIO& io = ImGui::GetIO();
    switch (e.type) {
    case SDL_QUIT:
        m_running = false;
        break;
    case SDL_DROPFILE:
        if (e.drop.file) {
            requestLoad(e.drop.file);
            SDL_free(e.drop.file);
        }
        break;
    case SDL_MOUSEBUTTONDOWN:
        if (e.button.button == SDL_BUTTON_RIGHT && !io.WantCaptureMouse) {
            m_right_held = true;
            SDL_SetRelativeMouseMode(SDL_TRUE);
        }
        break;
    case SDL_MOUSEBUTTONUP:
        if (e.button.button == SDL_BUTTON_RIGHT) {
            m_right_held = false;
            SDL_SetRelativeMouseMode(m_mouse_captured ? SDL_TRUE : SDL_FALSE);
        }
        break;
    case SDL_MOUSEWHEEL:
        if (!io.WantCaptureMouse)
            m_fly.changeSpeed(static_cast<float>(e.wheel.y));
        break;
    case SDL_KEYUP:
        if (e.key.keysym.sym == SDLK_LCTRL || e.key.keysym.sym == SDLK_RCTRL)
            m_ctrl.released();
        break;
    case SDL_KEYDOWN: {
        const SDL_Keycode k = e.key.keysym.sym;
        if ((k == SDLK_LCTRL || k == SDLK_RCTRL) && !e.key.repeat)
            m_ctrl.pressed(m_fly.camera);
        if (io.WantCaptureKeyboard)
            break;
        const bool ctrl = (e.key.keysym.mod & KMOD_CTRL) != 0;
        if (ctrl && k != SDLK_LCTRL && k != SDLK_RCTRL)
            m_fly.camera = m_ctrl.chord(m_fly.camera); // Ctrl was a chord, not a descent
        if (k == SDLK_F1 || k == SDLK_BACKQUOTE)
            m_overlay = !m_overlay;
        else if (k == SDLK_m || (k == SDLK_ESCAPE && m_mouse_captured)) {
            m_mouse_captured = k == SDLK_m ? !m_mouse_captured : false;
            SDL_SetRelativeMouseMode(m_mouse_captured ? SDL_TRUE : SDL_FALSE);
        } else if (k == SDLK_n)
            goToSpawn(m_spawn + ((e.key.keysym.mod & KMOD_SHIFT) ? -1 : 1));
        else if (k == SDLK_l) {
            m_vis_options.lock = !m_vis_options.lock;
        } else if (k == SDLK_o && ctrl)
            m_open.showFor(m_session.bundle() ? m_session.bundle()->spec : std::string());
        else if (k == SDLK_f && !ctrl)
            m_render_options.wireframe = !m_render_options.wireframe;
        else if (k == SDLK_F12)
            m_screenshot_requested = true;
        else if (k == SDLK_F5)
            reloadShaders();
        else if (k == SDLK_p)
            m_styles.paused = !m_styles.paused;
        else if (k == SDLK_b)
            flipCompile();
        else if (k == SDLK_g && !ctrl)
            dropToFloor();
        else if (k == SDLK_v && !ctrl)
            m_walk_on = !m_walk_on;
        else if (k >= SDLK_1 && k <= SDLK_9)
            bookmarkKey(static_cast<int>(k - SDLK_1) + 1, ctrl);
        else if (k == SDLK_LEFTBRACKET || k == SDLK_RIGHTBRACKET)
            goToCamera(m_debug.stepLeak(k == SDLK_RIGHTBRACKET ? 1 : -1, m_fly.camera));
        break;
    }
    default:
        break;
    }
}

void Viewer::dropToFloor() {
    if (!m_session.bundle())
        return;
    if (auto eye = dropEyeToFloor(m_session.bundle()->map, m_fly.camera.position))
        m_fly.camera.position = *eye;
    else
        m_status = "drop to floor: no floor below (or no collision data)";
}

void Viewer::updateCamera(float dt) {
    // Anything that moved the camera since the last update (a spawn, bookmark, entity or leak
    // step, a map load) was a teleport.
    if (m_drop_teleports && m_fly.camera.position != m_last_eye && m_session.bundle())
        if (auto eye = dropEyeToFloor(m_session.bundle()->map, m_fly.camera.position))
            m_fly.camera.position = *eye;
    updateCameraInput(dt);
    m_last_eye = m_fly.camera.position;
}

void Viewer::updateCameraInput(float dt) {
    const ImGuiIO& io = ImGui::GetIO();
    FlyInput in;
    if (!io.WantCaptureKeyboard) {
        const Uint8* keys = SDL_GetKeyboardState(nullptr);
        const SDL_Keymod mod = SDL_GetModState();
        in.forward = keys[SDL_SCANCODE_W] || keys[SDL_SCANCODE_UP];
        in.back = keys[SDL_SCANCODE_S] || keys[SDL_SCANCODE_DOWN];
        in.left = keys[SDL_SCANCODE_A] || keys[SDL_SCANCODE_LEFT];
        in.right = keys[SDL_SCANCODE_D] || keys[SDL_SCANCODE_RIGHT];
        in.up = keys[SDL_SCANCODE_SPACE] || keys[SDL_SCANCODE_E];
        in.down = ((mod & KMOD_CTRL) != 0 && m_ctrl.descends()) || keys[SDL_SCANCODE_Q];
        in.fast = (mod & KMOD_SHIFT) != 0;
    }
    if (m_right_held || m_mouse_captured) {
        int dx = 0, dy = 0;
        SDL_GetRelativeMouseState(&dx, &dy);
        in.mouse_dx = static_cast<float>(dx);
        in.mouse_dy = static_cast<float>(dy);
    } else {
        SDL_GetRelativeMouseState(nullptr, nullptr);
    }
    // Walk mode follows the map on screen: a load, reload or flip starts it again from the
    // camera in the new map (its bundle is built beside the old one, so the address differs).
    const bsp::Map* map = m_session.bundle() ? &m_session.bundle()->map : nullptr;
    if (!m_walk_on || !map)
        m_walk.end();
    else if (m_walk.map() != map && !m_walk.begin(*map, m_fly.camera)) {
        m_walk_on = false;
        m_status = "walk: this map has no collision data";
    }
    if (!m_walk.active()) {
        m_fly.update(in, dt);
        return;
    }
    FlyInput look; // the fly camera turns the view, the walk moves it
    look.mouse_dx = in.mouse_dx;
    look.mouse_dy = in.mouse_dy;
    m_fly.update(look, dt);
    m_walk.update(in, dt, m_fly.camera);
}

void Viewer::drawOpenPanel() {
    const OpenPanelActions a = m_open.draw(m_settings, m_map_list);
    if (a.settings_changed)
        saveSettingsNow();
    if (a.load)
        requestLoad(*a.load);
}

void Viewer::drawExportPanel() {
    const std::optional<ExportRequest> r = m_export.draw(m_export_status);
    const scene::MapBundle* bundle = m_session.bundle();
    if (!r || !bundle)
        return;
    auto written = exporter::exportMap(*bundle, r->path, r->options, exportGenerator());
    if (!written) {
        m_export_status = "export failed: " + written.error().message();
    } else {
        char line[256];
        std::snprintf(line, sizeof(line), "wrote %zu files, %.1f MB, %llu triangles in %.2f s",
                      written->files.size(), static_cast<double>(written->bytes) / 1e6,
                      static_cast<unsigned long long>(written->triangles),
                      written->scene_s + written->images_s + written->write_s);
        m_export_status = line;
    }
    m_status = m_export_status;
}

void Viewer::drawOverlay() {
    if (!m_overlay)
        return;
    OverlayModel& m = m_model;
    m.bundle = m_session.bundle();
    m.stats = &m_list.stats;
    m.submit = &m_renderer.submitStats();
    m.draw_path = m_renderer.drawPath() == render::DrawPath::Indirect ? "indirect" : "multi-draw";
    m.frame_ms = m_frame_times.ms;
    // Only the frames recorded so far: the curve starts at the first frame, not on zeros.
    m.frame_count = m_frame_times.filled;
    m.frame_next = m_frame_times.filled < FrameTimes::kCount ? 0 : m_frame_times.next;
    m.cpu_vis_ms = m_cpu_vis_ms;
    m.error = m_error;
    m.status = m_status;
    m.spawn = m_spawn;
    m.styles_in_use = m_styles_in_use;
    m.camera = &m_fly.camera;
    m.speed = &m_fly.speed;
    m.walk = &m_walk_on;
    m.drop_teleports = &m_drop_teleports;
    m.render_options = &m_render_options;
    m.vis_options = &m_vis_options;
    m.styles = &m_styles;
    m.settings = &m_settings;
    m.vsync = &m_vsync;
    m.watch = &m_options.watch;
    m.patch_level =
        m_session.bundle() ? m_session.bundle()->mesh.patch_level : m_options.patch_level;
    const OverlayActions a = app::drawOverlay(m, true);
    if (a.invalidate_visibility && m_session.visibility())
        m_session.visibility()->invalidate();
    if (a.vsync_changed)
        m_window->setVsync(m_vsync);
    if (a.open_game_folders) {
        m_open.showFor(m_session.bundle() ? m_session.bundle()->spec : std::string());
        m_open.showGameFolders();
    }
    if (a.open_panel)
        m_open.showFor(m_session.bundle() ? m_session.bundle()->spec : std::string());
    if (a.export_panel)
        m_export.showFor(m_session.bundle() ? m_session.bundle()->spec : std::string());
    if (a.go_spawn)
        goToSpawn(*a.go_spawn);
    if (a.drop_to_floor)
        dropToFloor();
    if (a.settings_changed)
        saveSettingsNow();
    if (a.load)
        requestLoad(*a.load);
    if (a.status)
        m_status = *a.status;
    if (a.patch_level && m_session.bundle())
        rebuildPatches(*a.patch_level);
}

void Viewer::rebuildPatches(int level) {
    if (auto st = m_session.setPatchLevel(level); !st) {
        m_error = st.error().message();
        return;
    }
    m_options.patch_level = level;
}

void Viewer::reloadShaders() {
    std::string error;
    if (!m_renderer.reloadShaders(&error) || !m_debug.reloadShaders(m_shaders, &error)) {
        m_error = "shader reload failed, the previous programs stay:\n" + error;
        std::fprintf(stderr, "bspview: %s\n", m_error.c_str());
        return;
    }
    m_error.clear();
    m_status = "shaders reloaded (" + std::to_string(m_renderer.programCount()) + " programs" +
               (m_options.shader_dir.empty() ? ", embedded sources"
                                             : ", from " + m_options.shader_dir.string()) +
               ")";
}

void Viewer::captureSettings() {
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
    m_settings.overlay = m_overlay;
}

void Viewer::saveSettingsNow() {
    if (m_config_dir.empty())
        return;
    captureSettings();
    if (auto st = saveSettings(m_config_dir / kConfigFileName, m_settings); !st)
        std::fprintf(stderr, "bspview: warning: %s\n", st.error().message().c_str());
}

void Viewer::bookmarkKey(int slot, bool save) {
    if (!m_session.bundle())
        return;
    if (save) {
        setBookmark(m_settings, m_model.map_key, slot, bookmarkOf(m_fly.camera));
        m_status = "saved bookmark " + std::to_string(slot);
        saveSettingsNow();
    } else if (auto b = bookmark(m_settings, m_model.map_key, slot)) {
        applyBookmark(m_fly.camera, *b);
        m_status = "bookmark " + std::to_string(slot);
    } else {
        m_status = "bookmark " + std::to_string(slot) + " is empty (Ctrl+" + std::to_string(slot) +
                   " saves it)";
    }
}

void Viewer::loadSettingsAtStart() {
    m_config_dir =
        resolveConfigDir(m_options.config_dir, [](const char* n) { return std::getenv(n); });
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
    m_vsync = m_settings.vsync;
    m_overlay = m_settings.overlay;
}

int Viewer::run() {
    loadSettingsAtStart();
    auto window = Window::create("bspview", m_options.width, m_options.height, false);
    if (!window) {
        std::fprintf(stderr, "bspview: error: %s\n", window.error().message().c_str());
        return 1;
    }
    m_window = std::move(*window);
    m_window->setVsync(m_vsync);
    m_shaders.setShaderDir(m_options.shader_dir);
    std::string error;
    if (!m_renderer.init(m_shaders, &error)) {
        std::fprintf(stderr, "bspview: error: %s\n", error.c_str());
        return 1;
    }
    if (!m_debug.init(m_shaders, m_options.debug_views, &error))
        std::fprintf(stderr, "bspview: debug overlays unavailable: %s\n", error.c_str());

    IMGUI_CHECKVERSION();
    ImGui::CreateContext();
    ImGui::StyleColorsDark();
    // The window layout lives in the config folder, never in the working folder.
    if (!m_config_dir.empty()) {
        std::error_code ec;
        std::filesystem::create_directories(m_config_dir, ec);
        m_ini_path = (m_config_dir / kImGuiIniName).string();
    }
    ImGui::GetIO().IniFilename = m_ini_path.empty() ? nullptr : m_ini_path.c_str();
    ImGui_ImplSDL2_InitForOpenGL(m_window->sdl(), m_window->glContext());
    ImGui_ImplOpenGL3_Init("#version 330 core");

    requestLoad(mapSpecOf(m_options));

    auto last = std::chrono::steady_clock::now();
    while (m_running) {
        SDL_Event e;
        while (SDL_PollEvent(&e))
            handleEvent(e);
        pollLoad();
        const auto now = std::chrono::steady_clock::now();
        pollReload(now);
        const float dt = std::min(0.1f, std::chrono::duration<float>(now - last).count());
        last = now;
        m_frame_times.push(dt * 1000.0f);
        if (!m_styles.paused)
            m_styles.time += dt;

        ImGui_ImplOpenGL3_NewFrame();
        ImGui_ImplSDL2_NewFrame();
        ImGui::NewFrame();
        updateCamera(dt);

        int w = 0, h = 0;
        m_window->drawableSize(&w, &h);
        glBindFramebuffer(GL_FRAMEBUFFER, 0);
        glViewport(0, 0, w, h);
        m_fly.camera.aspect = h > 0 ? static_cast<float>(w) / static_cast<float>(h) : 1.0f;
        if (m_session.bundle() && m_session.visibility()) {
            const auto t0 = std::chrono::steady_clock::now();
            m_session.visibility()->update(m_fly.camera, m_vis_options, m_list);
            if (!m_vis_options.lock)
                m_list_camera = m_fly.camera;
            m_cpu_vis_ms =
                std::chrono::duration<float, std::milli>(std::chrono::steady_clock::now() - t0)
                    .count();
        }
        m_render_options.time = m_styles.time;
        if (m_session.bundle())
            m_render_options.clear_colour = clearColourOf(m_session.bundle()->map);
        const auto enabled = m_styles.enabled();
        m_render_options.style_values = scene::lightStyleValues(
            m_styles.time, &enabled, m_session.bundle() ? &m_session.bundle()->map : nullptr);
        m_debug.beginFrame(dt * 1000.0f);
        m_render_options.timers = &m_debug.timers(); // times each pass of the world
        m_renderer.draw(m_list, m_fly.camera, m_render_options);
        m_debug.drawScene(m_renderer, m_list, m_fly.camera, m_vis_options);

        drawOverlay();
        drawOpenPanel();
        drawExportPanel();
        m_debug.drawPanel(m_list, m_overlay); // F1 hides every window, the Debug one too
        goToCamera(m_debug.takeCameraRequest());
        m_debug.drawLabels(m_fly.camera);
        ImGui::Render();
        m_debug.timers().begin("ui");
        ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
        m_debug.timers().end();
        if (m_screenshot_requested) {
            m_screenshot_requested = false;
            saveScreenshot(w, h);
        }
        m_window->swap();
    }
    if (m_pending.valid())
        m_pending.wait();
    saveSettingsNow();
    ImGui_ImplOpenGL3_Shutdown();
    ImGui_ImplSDL2_Shutdown();
    ImGui::DestroyContext();
    return 0;
}

} // namespace

int runViewer(const Options& options) {
    Viewer viewer(options);
    return viewer.run();
}

} // namespace app
