// ViewerApp: the menu bar and the panels (app/viewer_app.h). Every panel can be opened again
// from the Windows menu; the File menu holds what used to be scattered over the overlay
// (open, recent, reload, export, screenshot, quit); the View menu the view modes, overlays,
// picture (exposure, gamma, brightness), layout and UI scale; Help the key help, generated from
// the key table (app/key_bindings.h), and About.
#include "app/viewer_app.h"

#include "app/export_mode.h"
#include "app/ui_layout.h"
#include "export/export.h"
#include "render/gl.h"
#include "render/view_mode.h"

#include <imgui.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

namespace app {

namespace {

const auto kEnv = [](const char* name) -> const char* { return std::getenv(name); };

// A menu item whose rectangle tests can find ("File/Open map...").
bool menuItem(const char* menu, const char* label, KeyAction action = KeyAction::None,
              bool* selected = nullptr, bool enabled = true) {
    const std::string_view keys = keysOf(action);
    const std::string shortcut(keys);
    const bool clicked = selected ? ImGui::MenuItem(label, shortcut.c_str(), selected, enabled)
                                  : ImGui::MenuItem(label, shortcut.c_str(), false, enabled);
    recordLastItem(std::string(menu) + "/" + label);
    return clicked;
}

bool beginMenu(const char* label) {
    const bool open = ImGui::BeginMenu(label);
    recordLastItem(label);
    return open;
}

} // namespace

void ViewerApp::drawUi() {
    if (m_ui_visible) {
        drawMenuBar();
        drawPanels();
    }
    // Asked for by name (F1, Esc, the Help menu): shown even with the panels hidden.
    drawKeyHelp();
    drawAbout();
    m_debug.drawLabels(m_fly.camera);
    const ImVec2 display = ImGui::GetIO().DisplaySize;
    m_notices.draw(display.x, display.y);
    endLayoutFrame();
}

void ViewerApp::drawMenuBar() {
    if (!ImGui::BeginMainMenuBar())
        return;
    recordLastItem("menu bar");
    drawFileMenu();
    drawViewMenu();
    drawWindowsMenu();
    drawHelpMenu();
    ImGui::EndMainMenuBar();
}

void ViewerApp::drawFileMenu() {
    if (!beginMenu("File"))
        return;
    const std::string spec = m_session.bundle() ? m_session.bundle()->spec : std::string();
    if (menuItem("File", "Open map...", KeyAction::OpenMap))
        m_open.showFor(spec);
    if (ImGui::BeginMenu("Recent", !m_settings.recent.empty())) {
        for (const std::string& r : m_settings.recent) {
            // Files that went away stay listed but greyed out until they drop off the end.
            if (ImGui::MenuItem(r.c_str(), nullptr, false, recentExists(r)))
                requestLoad(r);
        }
        ImGui::EndMenu();
    }
    if (menuItem("File", "Reload map", KeyAction::Reload, nullptr, m_session.hasMap()))
        reloadMap();
    if (menuItem("File", "Export...", KeyAction::None, nullptr, m_session.hasMap())) {
        const std::filesystem::path folder = m_settings.export_folder.empty()
                                                 ? defaultExportFolder(kEnv)
                                                 : std::filesystem::path(m_settings.export_folder);
        m_export.showFor(spec, folder);
    }
    ImGui::Separator();
    if (menuItem("File", "Screenshot", KeyAction::Screenshot))
        m_screenshot_requested = true;
    if (ImGui::BeginMenu("Screenshot folder")) {
        static char folder[1024] = {};
        if (ImGui::IsWindowAppearing())
            std::snprintf(folder, sizeof folder, "%s", screenshotFolder().string().c_str());
        ImGui::SetNextItemWidth(420);
        ImGui::InputText("##shots", folder, sizeof folder);
        if (ImGui::Button("Use this folder") && folder[0]) {
            m_settings.screenshot_folder = folder;
            saveSettingsNow();
            info("screenshots go to " + std::string(folder));
        }
        ImGui::SameLine();
        if (ImGui::Button("Default")) {
            m_settings.screenshot_folder.clear();
            std::snprintf(folder, sizeof folder, "%s", screenshotFolder().string().c_str());
            saveSettingsNow();
        }
        ImGui::EndMenu();
    }
    ImGui::Separator();
    if (menuItem("File", "Quit", KeyAction::Quit))
        m_running = false;
    ImGui::EndMenu();
}

void ViewerApp::drawPictureControls() {
    render::PictureAdjust& p = m_render_options.picture;
    ImGui::SetNextItemWidth(200);
    ImGui::SliderFloat("exposure", &p.exposure, -4.0f, 4.0f, "%+.1f stops");
    ImGui::SetNextItemWidth(200);
    ImGui::SliderFloat("gamma", &p.gamma, 0.4f, 3.0f, "%.2f");
    ImGui::SetNextItemWidth(200);
    ImGui::SliderFloat("brightness", &p.brightness, -0.5f, 0.5f, "%+.2f");
    if (ImGui::Button("as the engine draws it"))
        p = render::PictureAdjust();
    ImGui::TextDisabled("after the engine's own look; in the lightmap view the\n"
                        "exposure scales the light before it clips to white");
    drawToneMapControls();
}

// The engine's own exposure of an HDR-lit Source map (game::ToneMapRule): the tone map scale,
// fixed or followed by auto exposure (--auto-exposure; saved with the settings).
void ViewerApp::drawToneMapControls() {
    ImGui::Separator();
    ImGui::Checkbox("auto exposure", &m_render_options.auto_exposure);
    const scene::MapBundle* bundle = m_session.bundle();
    const game::ToneMapRule* rule = bundle ? &bundle->profile.rules.tonemap : nullptr;
    if (!rule || !rule->enabled) {
        ImGui::TextDisabled("tone map: only Source maps drawn with HDR\nlighting have one");
        return;
    }
    const float scale = m_renderer.toneScale(m_render_options);
    if (m_renderer.autoExposed(m_render_options))
        ImGui::Text("tone map scale %.2f, goal %.2f (%.2f..%.2f)", static_cast<double>(scale),
                    static_cast<double>(m_renderer.exposureGoal()),
                    static_cast<double>(rule->auto_min), static_cast<double>(rule->auto_max));
    else
        ImGui::Text("tone map scale %.2f, fixed (%s)", static_cast<double>(scale),
                    std::string(game::toneMapSourceName(rule->source)).c_str());
}

// The game's texture mode and anisotropy (game::MapRules::textures), or the user's choice over
// them (saved with the settings).
void ViewerApp::drawTextureFilterControls() {
    render::TextureFilterChoice& c = m_render_options.texture_filter;
    const scene::MapBundle* bundle = m_session.bundle();
    if (bundle) {
        const game::TextureFilter& g = bundle->profile.rules.textures;
        ImGui::TextDisabled("%s draws %s, anisotropy %g",
                            std::string(game::familyName(bundle->profile.family)).c_str(),
                            std::string(game::textureModeName(g.mode)).c_str(),
                            static_cast<double>(g.anisotropy));
    }
    bool game_mode = !c.mode;
    if (ImGui::MenuItem("mode: as the game", nullptr, &game_mode))
        c.mode.reset();
    for (int i = 0; i < game::kTextureModeCount; ++i) {
        const auto m = static_cast<game::TextureMode>(i);
        bool on = c.mode == m;
        if (ImGui::MenuItem(std::string(game::textureModeName(m)).c_str(), nullptr, &on))
            c.mode = m;
    }
    ImGui::Separator();
    bool game_aniso = c.anisotropy <= 0.0f;
    if (ImGui::MenuItem("anisotropy: as the game", nullptr, &game_aniso))
        c.anisotropy = 0.0f;
    for (const float level : {1.0f, 2.0f, 4.0f, 8.0f, 16.0f}) {
        bool on = c.anisotropy == level;
        const std::string label =
            level == 1.0f ? "off (1)" : std::to_string(static_cast<int>(level)) + "x";
        if (ImGui::MenuItem(label.c_str(), nullptr, &on))
            c.anisotropy = level;
    }
    ImGui::TextDisabled("driver limit %g", static_cast<double>(render::caps().max_anisotropy));
}

void ViewerApp::drawQuake2LookMenu() {
    if (!ImGui::BeginMenu("Quake 2 look"))
        return;
    const game::Quake2Look current = m_options.quake2_look.value_or(
        game::parseQuake2Look(m_settings.quake2_look).value_or(game::Quake2Look::Yamagi));
    const std::pair<game::Quake2Look, const char*> looks[] = {
        {game::Quake2Look::Yamagi, "Yamagi (GL3 renderer, vid_gamma 1.2)"},
        {game::Quake2Look::Classic, "classic (GL1 renderer, vid_gamma 1)"},
    };
    for (const auto& [look, label] : looks)
        if (ImGui::MenuItem(label, nullptr, current == look) && current != look) {
            m_settings.quake2_look = std::string(game::quake2LookName(look));
            m_options.quake2_look.reset(); // the menu's choice wins over --quake2-look
            const scene::MapBundle* b = bundle();
            if (b && b->profile.family == game::Family::Quake2)
                reloadMap();
        }
    ImGui::EndMenu();
}

void ViewerApp::drawViewMenu() {
    if (!beginMenu("View"))
        return;
    for (int mode = 0; mode <= static_cast<int>(render::ViewMode::Deluxe); ++mode) {
        const auto m = static_cast<render::ViewMode>(mode);
        bool on = m_render_options.view == m;
        if (menuItem("View", render::viewModeName(m), KeyAction::None, &on))
            m_render_options.view = m;
    }
    ImGui::Separator();
    menuItem("View", "Wireframe", KeyAction::Wireframe, &m_render_options.wireframe);
    menuItem("View", "Lock visibility", KeyAction::LockVisibility, &m_vis_options.lock);
    menuItem("View", "Pause animation", KeyAction::PauseAnimation, &m_styles.paused);
    if (ImGui::BeginMenu("Picture")) {
        recordLastItem("View/Picture");
        drawPictureControls();
        ImGui::EndMenu();
    }
    if (ImGui::BeginMenu("Texture filter")) {
        recordLastItem("View/Texture filter");
        drawTextureFilterControls();
        ImGui::EndMenu();
    }
    drawQuake2LookMenu();
    if (ImGui::BeginMenu("Debug overlays")) {
        // The Debug window's switches (--debug NAME draws the same headless).
        scene::DebugViews& v = m_debug.views();
        const std::pair<const char*, bool*> views[] = {
            {"frustum (lock visibility, fly out)", &v.frustum},
            {"leaf bounds", &v.leaf_bounds},
            {"clusters", &v.clusters},
            {"areas (Quake II)", &v.areas},
            {"entities", &v.entities},
            {"luxel grid", &v.luxels},
            {"patch control nets", &v.patches},
            {"portals (.prt)", &v.portals},
            {"leak line (.pts, .lin)", &v.leak}};
        for (const auto& [label, on] : views)
            ImGui::MenuItem(label, nullptr, on);
        ImGui::EndMenu();
    }
    ImGui::Separator();
    bool shown = m_ui_visible;
    if (menuItem("View", "Show the panels", KeyAction::ToggleUi, &shown))
        m_ui_visible = shown;
    if (menuItem("View", "Fullscreen", KeyAction::Fullscreen, &m_fullscreen)) {
        m_fullscreen = !m_fullscreen; // toggleFullscreen flips it back
        toggleFullscreen();
    }
    if (menuItem("View", "Reset layout"))
        requestLayoutReset();
    if (ImGui::BeginMenu("UI scale")) {
        for (float s : {1.0f, 1.25f, 1.5f, 2.0f}) {
            char label[16];
            std::snprintf(label, sizeof label, "%.0f %%", static_cast<double>(s * 100.0f));
            if (ImGui::MenuItem(label, nullptr, m_settings.ui_scale == s))
                m_settings.ui_scale = s;
        }
        ImGui::EndMenu();
    }
    ImGui::EndMenu();
}

void ViewerApp::drawWindowsMenu() {
    if (!beginMenu("Windows"))
        return;
    menuItem("Windows", "Overview", KeyAction::None, &m_windows.overview);
    menuItem("Windows", "View options", KeyAction::None, &m_windows.view);
    menuItem("Windows", "Map info", KeyAction::None, &m_windows.map_info);
    menuItem("Windows", "Entities", KeyAction::None, &m_windows.entities);
    menuItem("Windows", "Textures", KeyAction::None, &m_windows.textures);
    menuItem("Windows", "Bookmarks", KeyAction::None, &m_windows.bookmarks);
    ImGui::BeginDisabled(!m_model.controls.styles && m_session.hasMap());
    menuItem("Windows", "Light styles", KeyAction::None, &m_windows.light_styles);
    ImGui::EndDisabled();
    menuItem("Windows", "Debug", KeyAction::None, &m_debug.open());
    ImGui::Separator();
    bool open = m_open.visible();
    if (menuItem("Windows", "Open map", KeyAction::OpenMap, &open))
        m_open.showFor(m_session.bundle() ? m_session.bundle()->spec : std::string());
    ImGui::EndMenu();
}

void ViewerApp::drawHelpMenu() {
    if (!beginMenu("Help"))
        return;
    menuItem("Help", "Keys", KeyAction::KeyHelp, &m_windows.key_help);
    menuItem("Help", "About bspview", KeyAction::None, &m_windows.about);
    ImGui::EndMenu();
}

void ViewerApp::drawKeyHelp() {
    if (!m_windows.key_help)
        return;
    if (!beginPanel("Keys", &m_windows.key_help,
                    {{0.5f, 0.5f}, {0.0f, 0.0f}, {0.5f, 0.5f}, {620.0f, 0.0f}},
                    ImGuiWindowFlags_AlwaysAutoResize)) {
        ImGui::End();
        return;
    }
    // Every row of the key table, the same rows the event handler looks keys up in.
    std::string_view group;
    if (ImGui::BeginTable("keys", 2, ImGuiTableFlags_SizingFixedFit | ImGuiTableFlags_RowBg)) {
        for (const KeyBinding& b : keyBindings()) {
            if (b.keys[0] == 0)
                continue; // a second key of the row above ("?" of "F1 or ?")
            if (group != b.group) {
                group = b.group;
                ImGui::TableNextRow();
                ImGui::TableNextColumn();
                ImGui::TextColored(ImVec4(1.0f, 0.8f, 0.35f, 1.0f), "%s", b.group);
                ImGui::TableNextColumn();
            }
            ImGui::TableNextRow();
            ImGui::TableNextColumn();
            ImGui::TextUnformatted(b.keys);
            ImGui::TableNextColumn();
            ImGui::TextUnformatted(b.what);
        }
        ImGui::EndTable();
    }
    ImGui::TextDisabled("Esc or F1 closes this");
    ImGui::End();
}

void ViewerApp::drawAbout() {
    if (!m_windows.about)
        return;
    if (!beginPanel("About bspview", &m_windows.about,
                    {{0.5f, 0.5f}, {0.0f, 0.0f}, {0.5f, 0.5f}, {0.0f, 0.0f}},
                    ImGuiWindowFlags_AlwaysAutoResize)) {
        ImGui::End();
        return;
    }
    const std::string version = versionText();
    ImGui::TextUnformatted(version.c_str(), version.c_str() + version.size() - 1);
    ImGui::TextUnformatted("A viewer for Quake, Half-Life, Quake II, Quake III and Source maps.");
    ImGui::TextDisabled("Settings: %s", m_config_dir.string().c_str());
    ImGui::TextDisabled("Screenshots: %s", screenshotFolder().string().c_str());
    ImGui::TextDisabled("README.md and docs/ hold the reference.");
    ImGui::End();
}

void ViewerApp::fillOverlayModel() {
    OverlayModel& m = m_model;
    m.bundle = m_session.bundle();
    m.stats = &m_list.stats;
    m.submit = &m_renderer.submitStats();
    m.draw_path = m_renderer.drawPath() == render::DrawPath::Indirect ? "indirect" : "multi-draw";
    m.cpu_vis_ms = m_cpu_vis_ms;
    m.error = m_last_error;
    m.status = m_pending.valid() ? std::string_view("loading ...") : std::string_view();
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
}

void ViewerApp::drawPanels() {
    fillOverlayModel();
    OverlayActions a;
    drawOverview(m_model, &m_windows.overview, a, true);
    drawViewOptions(m_model, &m_windows.view, a);
    drawMapInfo(m_model, &m_windows.map_info);
    drawEntities(m_model, &m_windows.entities, a);
    drawLightStyles(m_model, &m_windows.light_styles);
    drawBookmarks(m_model, &m_windows.bookmarks, a, true);
    m_textures.draw(&m_windows.textures, [this](uint32_t material) {
        return static_cast<unsigned>(m_renderer.materialTexture(material));
    });
    m_debug.drawPanel(m_list, true);
    goToCamera(m_debug.takeCameraRequest());
    drawOpenPanel();
    drawExportPanel();
    applyOverlayActions(a);
}

void ViewerApp::applyOverlayActions(const OverlayActions& a) {
    if (a.invalidate_visibility && m_session.visibility())
        m_session.visibility()->invalidate();
    if (a.reclassify && m_session.visibility()) {
        // "Why culled" on a locked set: classify the set where it was locked, now (the lock
        // keeps the list, so it would otherwise wait for the next unlock).
        scene::VisOptions once = m_vis_options;
        once.lock = false;
        once.classify = true;
        m_session.visibility()->update(m_list_camera, once, m_list);
    }
    if (a.vsync_changed)
        m_window->setVsync(m_vsync);
    if (a.open_game_folders) {
        m_open.showFor(m_session.bundle() ? m_session.bundle()->spec : std::string());
        m_open.showGameFolders();
    }
    if (a.go_spawn)
        goToSpawn(*a.go_spawn);
    if (a.go_to)
        goToCamera(a.go_to);
    if (a.teleport_entity && m_session.bundle())
        goToCamera(teleportCamera(*m_session.bundle(), *a.teleport_entity, m_fly.camera));
    if (a.drop_to_floor)
        dropToFloor();
    if (a.settings_changed)
        saveSettingsNow();
    if (a.status)
        info(*a.status);
    if (a.patch_level && m_session.bundle())
        rebuildPatches(*a.patch_level);
}

void ViewerApp::drawOpenPanel() {
    const OpenPanelActions a = m_open.draw(m_settings, m_map_list, m_detected);
    if (a.settings_changed)
        saveSettingsNow();
    if (a.load)
        requestLoad(*a.load);
}

void ViewerApp::drawExportPanel() {
    const std::optional<ExportRequest> r = m_export.draw(m_export_status, m_session.hasMap());
    if (r)
        exportNow(*r);
}

void ViewerApp::exportNow(const ExportRequest& r) {
    const scene::MapBundle* bundle = m_session.bundle();
    if (!bundle)
        return;
    // Synchronous: the bundle cannot be swapped under it (the longest shared map takes
    // under 2 s).
    auto written = exporter::exportMap(*bundle, r.path, r.options, exportGenerator());
    std::error_code ec;
    const std::filesystem::path file = std::filesystem::absolute(r.path, ec);
    if (!written) {
        m_export_status = "export failed: " + written.error().message();
        error(m_export_status);
        return;
    }
    char line[256];
    std::snprintf(line, sizeof(line), "%zu files, %.1f MB, %llu triangles in %.2f s",
                  written->files.size(), static_cast<double>(written->bytes) / 1e6,
                  static_cast<unsigned long long>(written->triangles),
                  written->scene_s + written->images_s + written->write_s);
    m_export_status = "wrote " + file.string() + " (" + line + ")";
    m_notices.post(NoticeKind::Info, m_export_status, "export");
    m_settings.export_folder = file.parent_path().string(); // the next export starts here
    saveSettingsNow();
}

} // namespace app
