// The interactive viewer as a class (issue 33), so tests can run its frames and drive it with
// SDL events the way a user does: window, fly camera, menu bar and panels, map loading off the
// render thread, notices. runViewer (app/viewer.h) is init() and frame() until the window is
// closed.
//
// Split by concern: viewer_app.cpp (frames, loading, settings), viewer_input.cpp (events, the
// key table's actions, camera input, click to select), viewer_ui.cpp (menu bar, panels).
#pragma once

#include "app/cli.h"
#include "app/debug_panels.h"
#include "app/event_queue.h"
#include "app/export_panel.h"
#include "app/fly_camera.h"
#include "app/key_bindings.h"
#include "app/map_reload.h"
#include "app/map_session.h"
#include "app/notices.h"
#include "app/open_panel.h"
#include "app/panels.h"
#include "app/selection.h"
#include "app/settings.h"
#include "app/texture_browser.h"
#include "app/walk_mode.h"
#include "app/window.h"
#include "content/vfs/game_install.h"
#include "render/world_renderer.h"
#include "scene/debug/map_diff.h"
#include "scene/view/visibility.h"

#include <SDL_events.h>
#include <imgui.h>

#include <array>
#include <bitset>
#include <chrono>
#include <filesystem>
#include <future>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace app {

// The panels a user opens and closes from the Windows menu (the Debug window's flag lives in
// DebugPanels::open()). The defaults leave the view free: only the small overview is open.
struct WindowFlags {
    bool overview = true;
    bool view = false; // the View options panel (render and visibility switches, picture)
    bool map_info = false;
    bool entities = false;
    bool textures = false;
    bool bookmarks = false;
    bool light_styles = false;
    bool key_help = false;
    bool about = false;
};

class ViewerApp {
public:
    explicit ViewerApp(const Options& options);
    ~ViewerApp();
    ViewerApp(const ViewerApp&) = delete;
    ViewerApp& operator=(const ViewerApp&) = delete;

    // Settings, window, renderer, ImGui; asks for the first map. An error ends the program.
    core::Status init();
    // One frame: this frame's events, a finished load, the camera, the world, the UI, swap.
    void frame();
    bool running() const { return m_running; }

    // ---- What tests look at and drive (tests/app/viewer_ui_test.cpp) ----
    bool loading() const { return m_pending.valid(); }
    const scene::MapBundle* bundle() const { return m_session.bundle(); }
    WindowFlags& windows() { return m_windows; }
    bool& debugWindow() { return m_debug.open(); }
    bool uiVisible() const { return m_ui_visible; }
    bool openPanelVisible() { return m_open.visible(); }
    bool exportPanelVisible() { return m_export.visible(); }
    Notices& notices() { return m_notices; }
    scene::Camera& camera() { return m_fly.camera; }
    render::RenderOptions& renderOptions() { return m_render_options; }
    scene::VisOptions& visOptions() { return m_vis_options; }
    const scene::DrawList& drawList() const { return m_list; }
    const Selection& selection() const { return m_selection; }
    Settings& settings() { return m_settings; }
    const std::vector<content::DetectedGame>& detectedGames() const { return m_detected; }
    TextureBrowser& textureBrowser() { return m_textures; }
    DebugPanels& debugPanels() { return m_debug; }
    ExportPanel& exportPanel() { return m_export; }
    // Freezes the animation clock (light styles, shaders) so two frames draw the same picture.
    void setAnimationPaused(bool paused) { m_styles.paused = paused; }
    // The next frame's pixels, UI and notices included, read before the swap (RGBA, top row
    // first).
    void captureNextFrame(std::vector<uint8_t>* rgba, int* width, int* height);
    // Where F12 writes (the setting, else the default picture folder).
    std::filesystem::path screenshotFolder() const;
    // The map's eye height for camera strings (22 before a map).
    float eyeHeight() const;

private:
    // viewer_app.cpp
    void requestLoad(const std::string& spec);
    void pollLoad();
    void adoptLoaded(std::unique_ptr<scene::MapBundle> bundle);
    void pollReload(std::chrono::steady_clock::time_point now);
    void reloadMap(); // Ctrl+R: the map on screen again from disk
    void flipCompile();
    void mapReplacedInPlace();
    void goToSpawn(int index);
    void goToCamera(const std::optional<scene::Camera>& camera);
    void saveScreenshot(int width, int height);
    void rebuildPatches(int level);
    void reloadShaders();
    void loadSettingsAtStart();
    void noticeCarriedOverSettings();
    void captureSettings();
    void saveSettingsNow();
    void refreshMapList();
    scene::LoadSettings mapLoadSettings(const std::string& spec) const;
    void drawWorld(int width, int height, float dt);
    void info(const std::string& text);
    void error(const std::string& text);

    // viewer_input.cpp
    void pumpEvents();
    void handleEvent(const SDL_Event& e);
    void handleKeyDown(const SDL_KeyboardEvent& key);
    void runKeyAction(const KeyHit& hit, bool ctrl);
    void handleDrop(const std::string& path);
    void addGameFolder(const std::string& folder);
    void updateCamera(float dt);
    void updateCameraInput(float dt);
    void dropToFloor();
    void bookmarkKey(int slot, bool save);
    void selectAtCursor(float x, float y);
    void lookAtSelection();
    void pickCentre();
    bool closeTopDialog();
    void toggleFullscreen();
    void setMouseCaptured(bool captured);

    // viewer_ui.cpp
    void drawUi();
    void drawMenuBar();
    void drawFileMenu();
    void drawViewMenu();
    void drawWindowsMenu();
    void drawHelpMenu();
    void drawPictureControls();
    void drawToneMapControls();
    void drawTextureFilterControls();
    void drawQuake2LookMenu(); // View > Quake 2 look: a choice reloads a Quake 2 map
    void drawPanels();
    void drawViewOptionsPanel();
    void drawOpenPanel();
    void drawExportPanel();
    void drawKeyHelp();
    void drawAbout();
    void drawTexturesPanel();
    void applyOverlayActions(const OverlayActions& a);
    void fillOverlayModel();
    void exportNow(const ExportRequest& request);

    Options m_options;
    std::unique_ptr<Window> m_window;
    bool m_imgui_ready = false;
    render::GlslLibrary m_shaders;
    render::WorldRenderer m_renderer;
    MapSession m_session{m_renderer};
    MapReloader m_reload{m_session};
    scene::Camera m_list_camera; // the camera the current draw list was computed from
    std::optional<scene::MapDiff> m_changes;
    scene::DrawList m_list;
    scene::VisOptions m_vis_options;
    render::RenderOptions m_render_options;
    FlyCamera m_fly;
    WalkMode m_walk;
    bool m_walk_on = false;
    bool m_drop_teleports = false;
    glm::vec3 m_last_eye{0.0f};
    int m_spawn = 0;

    std::future<core::Result<std::unique_ptr<scene::MapBundle>>> m_pending;
    std::shared_ptr<scene::LoadProgress> m_progress;
    std::string m_pending_spec;
    scene::LoadSettings m_pending_settings; // what the pending load searches
    scene::LoadSettings m_map_settings;     // what the map on screen was loaded with
    std::chrono::steady_clock::time_point m_pending_since;
    std::string m_last_error; // the overview repeats the last load error

    bool m_running = true;
    bool m_flipped = false;
    bool m_ui_visible = true;
    bool m_mouse_captured = false;
    bool m_right_held = false;
    bool m_fullscreen = false;
    CtrlChord m_ctrl;
    bool m_vsync = true;
    EventQueue m_events;
    std::bitset<SDL_NUM_SCANCODES> m_keys_down; // from the events, never from SDL's state
    uint16_t m_mods = 0;                        // KMOD_* of the last key event
    std::optional<ImVec2> m_mouse_pos;          // from the events
    std::optional<ImVec2> m_left_down_at;       // a left press in the 3D view, not yet released
    WindowFlags m_windows;
    Notices m_notices;
    OpenPanel m_open;
    ExportPanel m_export;
    std::string m_export_status;
    bool m_screenshot_requested = false;
    std::vector<uint8_t>* m_capture = nullptr;
    int* m_capture_w = nullptr;
    int* m_capture_h = nullptr;
    std::vector<std::string> m_map_list;
    std::array<float, 240> m_frame_ms{};
    int m_frame_next = 0, m_frame_filled = 0;
    StyleControls m_styles;
    OverlayModel m_model;
    Settings m_settings;
    std::filesystem::path m_config_dir;
    std::string m_ini_path;
    std::vector<int> m_styles_in_use;
    float m_cpu_vis_ms = 0.0f;
    float m_applied_ui_scale = 0.0f;
    DebugPanels m_debug;
    Selection m_selection;
    std::vector<scene::FaceBounds> m_face_bounds; // of the map on screen, for picking
    TextureBrowser m_textures;
    std::vector<content::DetectedGame> m_detected;
    std::chrono::steady_clock::time_point m_start, m_last_frame;
};

} // namespace app
