// The ImGui overlay: the main "bspview" window and its panels (map info, entities, light
// styles, bookmarks, recent files). Shared by the interactive viewer and by
// `--screenshot --overlay`, so the headless image shows the real overlay. Draws with ImGui only
// (no SDL, no GL calls): the caller owns the ImGui context and backends, and applies the
// returned actions that need the window or the renderer.
#pragma once

#include "app/settings.h"
#include "render/world_renderer.h"
#include "scene/load/map_bundle.h"
#include "scene/view/camera.h"
#include "scene/view/visibility.h"
#include "scene/world/light_styles.h"

#include <array>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace app {

// Light styles panel: per-style solo/mute and the animation clock (paused, scrubbed, stepped).
// The clock is what the viewer passes as RenderOptions::time, so pausing also freezes shader
// animation.
struct StyleControls {
    std::array<bool, scene::kNumLightStyles> mute{};
    std::array<bool, scene::kNumLightStyles> solo{};
    bool paused = false;
    double time = 0.0;
    std::array<bool, scene::kNumLightStyles> enabled() const {
        return scene::lightStyleMask(mute, solo);
    }
};

// Everything the overlay reads or edits. Pointers left null hide the controls that need them.
struct OverlayModel {
    // Read-only
    const scene::MapBundle* bundle = nullptr;
    const scene::DrawStats* stats = nullptr;
    const render::SubmitStats* submit = nullptr; // GL calls of the last frame
    const char* draw_path = "";                  // "indirect" or "multi-draw"
    const float* frame_ms = nullptr; // ring of frame_count frame times, next write at frame_next
    int frame_count = 0;
    int frame_next = 0;
    float cpu_vis_ms = 0.0f;
    std::string_view error;
    std::string_view status;
    std::string map_key; // bookmarks key of the loaded map (settings.h mapKey)
    int spawn = 0;
    std::vector<int> styles_in_use; // style slots the map's faces reference

    // Edited in place
    scene::Camera* camera = nullptr;
    float* speed = nullptr;
    render::RenderOptions* render_options = nullptr;
    scene::VisOptions* vis_options = nullptr;
    StyleControls* styles = nullptr;
    Settings* settings = nullptr;   // bookmarks and recent files
    bool* vsync = nullptr;          // null: not shown (headless)
    bool* watch = nullptr;          // reload on change; null: not shown (headless)
    bool* walk = nullptr;           // walk mode (V); null: not shown (headless)
    bool* drop_teleports = nullptr; // teleports drop to the floor; null: not shown (headless)
    int patch_level = 4;

    // Panel state kept between frames
    bool show_map_info = false;
    bool show_entities = false;
    char entity_filter[128] = {};
    int selected_entity = -1;
    char goto_field[160] = {};
    std::string goto_error;
};

// What the caller must do after the frame (things the overlay cannot do with ImGui alone).
struct OverlayActions {
    bool invalidate_visibility = false;
    bool open_panel = false;
    bool export_panel = false;      // "Export...": the Export panel (app/export_panel.h)
    bool open_game_folders = false; // the missing-textures notice's button
    bool vsync_changed = false;
    bool settings_changed = false; // bookmarks edited: save soon
    std::optional<int> go_spawn;   // spawn point index to go to (wraps around)
    bool drop_to_floor = false;    // the "drop to floor (G)" button
    std::optional<int> patch_level;
    std::optional<std::string> load;   // a recent file to open
    std::optional<std::string> status; // a one-line message for the overlay's status line
};

// The main window and the panels it opened. `interactive` false (headless) leaves out the
// controls that only make sense with a window (vsync, open, clipboard).
OverlayActions drawOverlay(OverlayModel& model, bool interactive);

// Screen rectangle (x, y, width, height) of the main window in the last drawn frame, for tests.
std::array<float, 4> overlayWindowRect();

// Where the camera goes to look at an entity: its origin (brush entities: the centre of their
// model's bounds, moved by the origin when there is one), facing its "angles" or "angle"
// ("angle" -1 looks up, -2 down, as the games use it). nullopt when it has neither.
std::optional<Bookmark> entityViewpoint(const bsp::Entity& entity, const bsp::Map& map);

// The style slots a map's faces reference, ascending (what the light styles panel lists).
std::vector<int> stylesInUse(const bsp::Map& map);

// Puts the camera at a bookmark, keeping its field of view and projection.
void applyBookmark(scene::Camera& camera, const Bookmark& b);
Bookmark bookmarkOf(const scene::Camera& camera);

} // namespace app
