#include "app/panels.h"

#include "app/cli.h"
#include "app/key_bindings.h"
#include "app/ui_layout.h"
#include "core/file.h"
#include "scene/debug/debug_geometry.h"

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>

namespace app {

namespace {

const ImVec4 kErrorColour(1.0f, 0.35f, 0.3f, 1.0f);
const ImVec4 kWarnColour(1.0f, 0.8f, 0.35f, 1.0f);
std::array<float, 4> g_overview_rect{};

void tooltip(const char* text) {
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip("%s", text);
}

// The lines the Overview shows about the map on screen.
void overviewMapLines(OverlayModel& m, OverlayActions& actions, bool interactive) {
    const bsp::Map& map = m.bundle->map;
    ImGui::Text("%s  (%s v%d)", map.name.c_str(), std::string(bsp::formatName(map.format)).c_str(),
                map.version);
    const scene::Camera& c = *m.camera;
    ImGui::Text("pos %.0f %.0f %.0f  pitch %.0f yaw %.0f", c.position.x, c.position.y, c.position.z,
                c.pitch, c.yaw);
    if (m.stats)
        ImGui::Text("faces %u / %u  leaf %d  cluster %d", m.stats->faces_drawn,
                    m.stats->faces_total, m.stats->camera_leaf, m.stats->camera_cluster);
    if (m.bundle->missing_textures.empty())
        return;
    // The notice a newcomer who opened a map without its game data needs: what is wrong and
    // where to fix it.
    ImGui::TextColored(kWarnColour, "%zu of %u textures missing", m.bundle->missing_textures.size(),
                       m.bundle->drawn_texture_names);
    if (interactive) {
        ImGui::SameLine();
        if (ImGui::SmallButton("add the game folder..."))
            actions.open_game_folders = true;
    }
}

} // namespace

GameControls gameControlsFor(const scene::MapBundle& b) {
    GameControls g;
    const bsp::Map& map = b.map;
    for (const scene::StagedMaterial& sm : b.stages.materials)
        g.shader_stages |= sm.shader != nullptr;
    for (const bsp::Face& f : map.faces) {
        g.flares |= f.kind == bsp::FaceKind::Billboard;
        g.patches |= f.kind == bsp::FaceKind::Patch;
        for (uint8_t st : f.styles)
            g.styles |= st != bsp::kNoStyle && st != 0;
    }
    for (const scene::ResolvedMaterial& rm : b.materials)
        g.liquids |=
            (rm.flags & (bsp::kSurfLiquid | bsp::kSurfWarp)) != 0 || rm.pass == scene::Pass::Liquid;
    g.fog =
        !b.fogs.empty() || b.profile.rules.fog.density > 0.0f || b.profile.rules.linear_fog.enabled;
    g.sky_region = b.profile.sky_region.has_value();
    g.liquid_view = b.profile.view.liquid != game::LiquidView{};
    return g;
}

void drawOverview(OverlayModel& m, bool* open, OverlayActions& actions, bool interactive) {
    if (open && !*open)
        return;
    // Top left under the menu bar, as narrow as its lines: the default layout leaves the view
    // free (issue 33: >= 85 % of 1280x720).
    const float top = interactive ? ImGui::GetFrameHeight() : 0.0f;
    if (!beginPanel("Overview", open, {{0.0f, 0.0f}, {10.0f, top + 10.0f}, {0.0f, 0.0f}, {}},
                    ImGuiWindowFlags_AlwaysAutoResize | ImGuiWindowFlags_NoFocusOnAppearing)) {
        ImGui::End();
        return;
    }
    const ImVec2 pos = ImGui::GetWindowPos(), size = ImGui::GetWindowSize();
    g_overview_rect = {pos.x, pos.y, size.x, size.y};
    ImGui::PushTextWrapPos(340.0f);
    if (interactive) {
        const ImGuiIO& io = ImGui::GetIO();
        ImGui::Text("%.0f fps  %.1f ms", io.Framerate,
                    io.Framerate > 0.0f ? 1000.0f / io.Framerate : 0.0f);
    }
    if (!m.status.empty())
        ImGui::TextUnformatted(m.status.data(), m.status.data() + m.status.size());
    if (m.bundle && m.camera)
        overviewMapLines(m, actions, interactive);
    else if (m.status.empty())
        ImGui::TextDisabled("no map: File > Open (Ctrl+O) or drop a .bsp here");
    if (!m.error.empty()) {
        ImGui::PushStyleColor(ImGuiCol_Text, kErrorColour);
        ImGui::TextWrapped("%.*s", static_cast<int>(m.error.size()), m.error.data());
        ImGui::PopStyleColor();
    }
    if (interactive)
        ImGui::TextDisabled("F1 keys  F2 hide");
    ImGui::PopTextWrapPos();
    ImGui::End();
}

namespace {

// The game's own switches, each only where the map has what it changes.
void gameSwitches(OverlayModel& m, OverlayActions& actions) {
    render::RenderOptions& ro = *m.render_options;
    const GameControls& g = m.controls;
    if (g.shader_stages) {
        ImGui::Checkbox("shader stages", &ro.shader_stages);
        tooltip("Quake 3: draw materials stage by stage from their shader scripts (off: first "
                "image x lightmap)");
        ImGui::SameLine();
        ImGui::Checkbox("fold stages", &ro.fold_stages);
        tooltip("Quake 3: draw a run of stages in one pass where that gives the same picture "
                "(off: one pass per stage, as ioquake3)");
    }
    if (g.flares) {
        if (g.shader_stages)
            ImGui::SameLine();
        ImGui::Checkbox("flares", &ro.flares); // Quake 3 face type 4
    }
    if (g.fog) {
        ImGui::Checkbox("fog", &ro.fog);
        tooltip("Quake 3 fog volumes: surfaces in a fog brush fade to its fogParms colour with "
                "distance; Quake 1 worldspawn fog over the whole view (lit view)");
    }
    if (g.sky_region) {
        ImGui::Checkbox("3D sky", &ro.sky_region);
        tooltip("Source: the region around sky_camera drawn behind the sky at its scale, with "
                "its fog (off: the sky box alone, as r_3dsky 0 or --no-3d-sky)");
    }
    if (g.patches) {
        int level = m.patch_level;
        if (ImGui::SliderInt("patch level", &level, 1, 16) && level != m.patch_level)
            actions.patch_level = level;
    }
    if (g.liquids)
        ImGui::SliderFloat("liquid alpha", &ro.liquid_alpha, 0.1f, 1.0f, "%.2f");
    if (g.liquid_view) {
        ImGui::Checkbox("liquid view", &ro.liquid_view);
        tooltip("with the eye in water, slime or lava: the game's colour over the view and its "
                "breathing field of view (off: as in air, --no-liquid-view)");
    }
}

void cullingSwitches(OverlayModel& m, OverlayActions& actions) {
    render::RenderOptions& ro = *m.render_options;
    scene::VisOptions& vo = *m.vis_options;
    bool changed = false;
    changed |= ImGui::Checkbox("PVS culling", &vo.pvs);
    ImGui::SameLine();
    changed |= ImGui::Checkbox("frustum culling", &vo.frustum);
    ImGui::SameLine();
    changed |= ImGui::Checkbox("models", &vo.models);
    tooltip("entity models and sprites (monsters, items, torches); off: the entity boxes only "
            "(--no-models)");
    ImGui::Checkbox("lock visibility (L)", &vo.lock);
    ImGui::SameLine();
    const bool why = ImGui::Checkbox("why culled", &ro.show_culled);
    recordLastItem("View options/why culled");
    if (why) {
        vo.classify = ro.show_culled;
        // Locked, the set is not computed again: the viewer classifies it where it was locked.
        if (vo.lock)
            actions.reclassify = ro.show_culled;
        else
            changed = true;
    }
    if (ro.show_culled && m.stats)
        ImGui::TextWrapped("considered %u: drawn %u, PVS-rejected %u (red), frustum %u (blue)",
                           m.stats->faces_considered, m.stats->drawn_world, m.stats->culled_pvs,
                           m.stats->culled_frustum);
    actions.invalidate_visibility = changed;
}

} // namespace

void drawViewOptions(OverlayModel& m, bool* open, OverlayActions& actions) {
    if (!*open)
        return;
    if (!beginPanel(
            "View options", open,
            {{1.0f, 0.0f}, {-10.0f, ImGui::GetFrameHeight() + 10.0f}, {1.0f, 0.0f}, {380.0f, 0.0f}},
            ImGuiWindowFlags_AlwaysAutoResize)) {
        ImGui::End();
        return;
    }
    if (!m.bundle || !m.render_options || !m.vis_options || !m.camera) {
        ImGui::TextDisabled("no map");
        ImGui::End();
        return;
    }
    render::RenderOptions& ro = *m.render_options;
    int view = static_cast<int>(ro.view);
    ImGui::Combo("view", &view,
                 "lit\0lightmap only\0fullbright\0flat shaded\0normals\0overdraw\0deluxe map\0");
    ro.view = static_cast<render::ViewMode>(view);
    ImGui::Checkbox("wireframe (F)", &ro.wireframe);
    ImGui::SameLine();
    ImGui::Checkbox("neutral lighting", &ro.neutral_lighting);
    tooltip("leave out the map's engine colour rules (overbright, gamma, intensity)");
    if (m.styles) {
        ImGui::SameLine();
        ImGui::Checkbox("pause (P)", &m.styles->paused);
    }
    ImGui::Separator();
    cullingSwitches(m, actions);
    gameSwitches(m, actions);
    ImGui::Separator();
    if (m.speed)
        ImGui::SliderFloat("speed", m.speed, 16.0f, 4000.0f, "%.0f u/s",
                           ImGuiSliderFlags_Logarithmic);
    ImGui::SliderFloat("fov", &m.camera->fov_x, 30.0f, 140.0f, "%.0f");
    if (m.walk) {
        ImGui::Checkbox("walk (V)", m.walk);
        tooltip("Walk as the game's player: the map's own collision, gravity, steps; Space/E "
                "jump, Ctrl/Q crouch (docs/movement.md)");
    }
    if (m.drop_teleports) {
        ImGui::SameLine();
        if (ImGui::Button("drop to floor (G)"))
            actions.drop_to_floor = true;
        ImGui::Checkbox("teleports drop to floor", m.drop_teleports);
        tooltip("Spawn points, bookmarks, entities and leak steps put the eye at the game's eye "
                "height above the floor below");
    }
    if (m.vsync && ImGui::Checkbox("vsync", m.vsync))
        actions.vsync_changed = true;
    if (m.watch) {
        ImGui::SameLine();
        ImGui::Checkbox("reload on change", m.watch);
        tooltip("Load the map again, in place, when a compiler rewrites it (.bsp, .lit, .lux, "
                ".prt, .pts, .lin, external lightmaps)");
    }
    ImGui::End();
}

core::Result<GoTo> parseGoTo(std::string_view text, const scene::Camera& current,
                             const scene::MapBundle* bundle) {
    while (!text.empty() && (text.front() == ' ' || text.front() == '\t'))
        text.remove_prefix(1);
    GoTo out;
    if (text.rfind("spawn", 0) == 0 || text.rfind("leak", 0) == 0) {
        auto spec = parseCamera(text);
        if (!spec)
            return spec.error();
        if (spec->from_leak)
            return core::makeError(core::ErrorCode::BadArgument, {}, -1, {},
                                   "leak stops: the Debug window's leak buttons or [ and ]");
        const size_t n = bundle ? bundle->spawns.size() : 0;
        if (static_cast<size_t>(spec->spawn_index) >= n)
            return core::makeError(core::ErrorCode::BadArgument, {}, -1, {},
                                   "the map has " + std::to_string(n) + " spawn points");
        out.spawn = spec->spawn_index;
        return out;
    }
    auto parsed = scene::parseCameraText(text);
    if (!parsed)
        return parsed.error();
    const float eye = bundle ? bundle->profile.view.eye_height : 22.0f;
    out.camera = scene::applyCameraText(*parsed, current, eye);
    return out;
}

namespace {

void goToField(OverlayModel& m, OverlayActions& actions) {
    ImGui::SetNextItemWidth(-70);
    const bool enter = ImGui::InputTextWithHint(
        "##goto", "128 -880 46 0 90, setpos ...;setang ..., Viewpos: (...), spawn:N", m.goto_field,
        sizeof m.goto_field, ImGuiInputTextFlags_EnterReturnsTrue);
    recordLastItem("Bookmarks/go to field");
    tooltip("X Y Z [PITCH YAW], bspview's X,Y,Z,PITCH,YAW, QuakeSpasm viewpos / setpos,\n"
            "ioquake3 viewpos / setviewpos, Source getpos (setpos X Y Z;setang P Y R),\n"
            "spawn:N");
    ImGui::SameLine();
    if (ImGui::Button("go to") || enter) {
        auto go = parseGoTo(m.goto_field, *m.camera, m.bundle);
        m.goto_error.clear();
        if (!go)
            m.goto_error = go.error().message();
        else if (go->spawn)
            actions.go_spawn = *go->spawn;
        else
            actions.go_to = go->camera;
    }
    if (!m.goto_error.empty())
        ImGui::TextColored(kErrorColour, "%s", m.goto_error.c_str());
}

void copyCamera(OverlayModel& m, OverlayActions& actions) {
    const float eye = m.bundle ? m.bundle->profile.view.eye_height : 22.0f;
    ImGui::SetNextItemWidth(230);
    const char* current = scene::cameraFormatName(static_cast<scene::CameraFormat>(m.copy_format));
    if (ImGui::BeginCombo("##copy_format", current)) {
        for (int f = 0; f < scene::kNumCameraFormats; ++f)
            if (ImGui::Selectable(scene::cameraFormatName(static_cast<scene::CameraFormat>(f)),
                                  f == m.copy_format))
                m.copy_format = f;
        ImGui::EndCombo();
    }
    ImGui::SameLine();
    if (ImGui::Button("copy camera")) {
        const std::string text = scene::formatCameraText(
            static_cast<scene::CameraFormat>(m.copy_format), *m.camera, eye);
        ImGui::SetClipboardText(text.c_str());
        actions.status = "copied: " + text;
    }
}

void bookmarkRow(OverlayModel& m, OverlayActions& actions, int slot, bool interactive) {
    ImGui::PushID(slot);
    const auto b = bookmark(*m.settings, m.map_key, slot);
    char* name = m.bookmark_names[static_cast<size_t>(slot - 1)];
    ImGui::BeginDisabled(!b);
    if (ImGui::Button("go") && b) {
        scene::Camera c = *m.camera;
        applyBookmark(c, *b);
        actions.go_to = c;
    }
    ImGui::EndDisabled();
    ImGui::SameLine();
    if (ImGui::Button("save")) {
        Bookmark nb = bookmarkOf(*m.camera);
        nb.name = name;
        setBookmark(*m.settings, m.map_key, slot, nb);
        actions.settings_changed = true;
    }
    ImGui::SameLine();
    ImGui::BeginDisabled(!b);
    if (ImGui::Button("clear")) {
        clearBookmark(*m.settings, m.map_key, slot);
        name[0] = 0;
        actions.settings_changed = true;
    }
    ImGui::EndDisabled();
    ImGui::SameLine();
    ImGui::Text("%d", slot);
    ImGui::SameLine();
    ImGui::SetNextItemWidth(140);
    if (ImGui::InputTextWithHint("##name", "name", name, kMaxBookmarkName + 1) && b) {
        Bookmark nb = *b;
        nb.name = name;
        setBookmark(*m.settings, m.map_key, slot, nb);
        actions.settings_changed = true;
    }
    ImGui::SameLine();
    if (!b) {
        ImGui::TextDisabled("empty");
        ImGui::PopID();
        return;
    }
    // Copied in the form chosen above (bspview's, or an engine's console command).
    if (interactive && ImGui::SmallButton("copy")) {
        scene::Camera c = *m.camera;
        applyBookmark(c, *b);
        const float eye = m.bundle ? m.bundle->profile.view.eye_height : 22.0f;
        const std::string text =
            scene::formatCameraText(static_cast<scene::CameraFormat>(m.copy_format), c, eye);
        ImGui::SetClipboardText(text.c_str());
        actions.status = "copied bookmark " + std::to_string(slot) + ": " + text;
    }
    ImGui::SameLine();
    ImGui::TextDisabled("%s", formatCamera(*b).c_str());
    ImGui::PopID();
}

} // namespace

void drawBookmarks(OverlayModel& m, bool* open, OverlayActions& actions, bool interactive) {
    if (!*open || !m.camera)
        return;
    if (!beginPanel("Bookmarks", open,
                    {{0.0f, 1.0f}, {10.0f, -10.0f}, {0.0f, 1.0f}, {560.0f, 0.0f}},
                    ImGuiWindowFlags_AlwaysAutoResize)) {
        ImGui::End();
        return;
    }
    goToField(m, actions);
    if (interactive)
        copyCamera(m, actions);
    if (m.settings && !m.map_key.empty()) {
        if (m.names_key != m.map_key) { // the names of this map's bookmarks, to edit
            m.names_key = m.map_key;
            for (int slot = 1; slot <= kNumBookmarks; ++slot) {
                const auto b = bookmark(*m.settings, m.map_key, slot);
                std::snprintf(m.bookmark_names[static_cast<size_t>(slot - 1)], kMaxBookmarkName + 1,
                              "%s", b ? b->name.c_str() : "");
            }
        }
        ImGui::Separator();
        ImGui::TextDisabled("%.*s go to a bookmark, %.*s save one",
                            static_cast<int>(keysOf(KeyAction::Bookmark).size()),
                            keysOf(KeyAction::Bookmark).data(),
                            static_cast<int>(keysOf(KeyAction::SaveBookmark).size()),
                            keysOf(KeyAction::SaveBookmark).data());
        for (int slot = 1; slot <= kNumBookmarks; ++slot)
            bookmarkRow(m, actions, slot, interactive);
    }
    ImGui::End();
}

OverlayActions drawOverlay(OverlayModel& m, bool interactive) {
    OverlayActions actions;
    drawOverview(m, nullptr, actions, interactive);
    return actions;
}

std::array<float, 4> overlayWindowRect() {
    return g_overview_rect;
}

std::vector<int> stylesInUse(const bsp::Map& map) {
    std::array<bool, 256> used{};
    for (const bsp::Face& f : map.faces)
        for (uint8_t st : f.styles)
            if (st != bsp::kNoStyle)
                used[st] = true;
    std::vector<int> out;
    for (int i = 0; i < 256; ++i)
        if (used[static_cast<size_t>(i)])
            out.push_back(i);
    return out;
}

void applyBookmark(scene::Camera& camera, const Bookmark& b) {
    camera.position = {b.x, b.y, b.z};
    camera.pitch = b.pitch;
    camera.yaw = b.yaw;
}

Bookmark bookmarkOf(const scene::Camera& c) {
    return {c.position.x, c.position.y, c.position.z, c.pitch, c.yaw};
}

std::optional<Bookmark> entityViewpoint(const bsp::Entity& e, const bsp::Map& map) {
    std::optional<glm::vec3> pos = e.vec3("origin");
    const std::string_view model = e.get("model");
    if (model.size() > 1 && model[0] == '*') {
        // Brush entity: the centre of its submodel, which an origin key moves (Quake 2/3
        // origin brushes store the model around the entity's origin).
        char* end = nullptr;
        const std::string digits(model.substr(1));
        const long n = std::strtol(digits.c_str(), &end, 10);
        if (end == digits.c_str() + digits.size() && n > 0 &&
            static_cast<size_t>(n) < map.submodels.size()) {
            const bsp::Submodel& sm = map.submodels[static_cast<size_t>(n)];
            const glm::vec3 centre = (sm.mins + sm.maxs) * 0.5f;
            pos = centre + pos.value_or(glm::vec3(0.0f));
        }
    }
    if (!pos || !std::isfinite(pos->x) || !std::isfinite(pos->y) || !std::isfinite(pos->z))
        return std::nullopt;
    Bookmark b{pos->x, pos->y, pos->z, 0.0f, 0.0f};
    if (const auto angles = e.vec3("angles")) {
        b.pitch = angles->x;
        b.yaw = angles->y;
    } else if (const auto angle = e.number("angle")) {
        if (*angle == -1.0f)
            b.pitch = -90.0f; // up
        else if (*angle == -2.0f)
            b.pitch = 90.0f; // down
        else
            b.yaw = *angle;
    }
    if (!std::isfinite(b.pitch) || !std::isfinite(b.yaw))
        b.pitch = b.yaw = 0.0f;
    b.pitch = std::clamp(b.pitch, -89.0f, 89.0f);
    return b;
}

} // namespace app
