// The viewer's panels drawn from one model (issue 33 layout): the small Overview, View options
// (render and visibility switches; the game-specific ones only for maps that use them), Map
// info, Entities, Light styles and Bookmarks (the go-to field reads the engines' camera
// strings). The Overview is also what `--screenshot --overlay` draws, so the headless image
// shows the real panel. Draws with ImGui only (no SDL, no GL calls): the caller owns the ImGui
// context and backends, and applies the returned actions that need the window or the renderer.
#pragma once

#include "app/settings.h"
#include "render/world_renderer.h"
#include "scene/load/map_bundle.h"
#include "scene/view/camera.h"
#include "scene/view/camera_text.h"
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

// The controls a map's game uses, offered only for maps that have what they change (issue 33:
// Quake 3 switches do not show on a Quake 1 map). Read from what the map offers.
struct GameControls {
    bool shader_stages = false; // a material with shader stages (Quake 3 scripts)
    bool flares = false;        // flare surfaces (Quake 3 face type 4)
    bool fog = false;           // fog volumes or the map's distance fog
    bool patches = false;       // Bezier patches (the patch level slider)
    bool liquids = false;       // liquid surfaces (the liquid opacity slider)
    bool styles = false;        // faces with light styles (the Light styles panel)
    bool sky_region = false;    // a Source 3D sky box (sky_camera; the 3D sky switch)
    bool liquid_view = false;   // the game shows the eye in a liquid (game::LiquidView)
};
GameControls gameControlsFor(const scene::MapBundle& bundle);

// Everything the panels read or edit. Pointers left null hide the controls that need them.
struct OverlayModel {
    // Read-only
    const scene::MapBundle* bundle = nullptr;
    const scene::DrawStats* stats = nullptr;
    const render::SubmitStats* submit = nullptr; // GL calls of the last frame
    const char* draw_path = "";                  // "indirect" or "multi-draw"
    float cpu_vis_ms = 0.0f;
    std::string_view error;  // the last load error (the notice has gone by then)
    std::string_view status; // a load in progress
    std::string map_key;     // bookmarks key of the loaded map (settings.h mapKey)
    int spawn = 0;
    std::vector<int> styles_in_use; // style slots the map's faces reference
    GameControls controls;          // of `bundle` (gameControlsFor)

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
    char entity_filter[128] = {};
    int selected_entity = -1;
    char goto_field[200] = {};
    std::string goto_error;
    int copy_format = 0; // scene::CameraFormat of "copy camera"
    std::array<char[64], kNumBookmarks> bookmark_names{};
    std::string names_key; // the map key bookmark_names were filled for
};

// What the caller must do after the frame (things the panels cannot do with ImGui alone).
struct OverlayActions {
    bool invalidate_visibility = false;
    bool reclassify = false;        // "why culled" turned on: classify the (locked) set now
    bool open_game_folders = false; // the missing-textures notice's button
    bool vsync_changed = false;
    bool settings_changed = false;      // bookmarks edited: save soon
    std::optional<int> go_spawn;        // spawn point index to go to (wraps around)
    std::optional<int> teleport_entity; // the Entities panel's teleport
    std::optional<scene::Camera> go_to; // the go-to field or a bookmark
    bool drop_to_floor = false;         // the "drop to floor (G)" button
    std::optional<int> patch_level;
    std::optional<std::string> status; // a one-line message for a notice
};

// The small always-open panel: map, frame rate, position, what is drawn, missing textures and
// the last load error. `interactive` false (headless) leaves out the frame rate and buttons.
void drawOverview(OverlayModel& model, bool* open, OverlayActions& actions, bool interactive);
// View options: culling, view mode, lighting and the game's own switches (GameControls).
void drawViewOptions(OverlayModel& model, bool* open, OverlayActions& actions);
void drawMapInfo(OverlayModel& model, bool* open);
void drawEntities(OverlayModel& model, bool* open, OverlayActions& actions);
void drawLightStyles(OverlayModel& model, bool* open);
// Named bookmarks, the go-to field (camera strings, spawn:N) and "copy camera" in each
// engine's form. `interactive` false leaves out the clipboard.
void drawBookmarks(OverlayModel& model, bool* open, OverlayActions& actions, bool interactive);

// --screenshot --overlay: the Overview at the top left (headless, no menu bar).
OverlayActions drawOverlay(OverlayModel& model, bool interactive);

// Screen rectangle (x, y, width, height) of the Overview in the last drawn frame, for tests.
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

// The go-to field's text as a camera: "spawn[:N]" (go_spawn), "leak" (an error: the Debug
// panel's buttons), or any camera string scene::parseCameraText reads, from `current` with the
// map's eye height. Errors say what was expected, with no command-line flag in front.
struct GoTo {
    std::optional<int> spawn;
    std::optional<scene::Camera> camera;
};
core::Result<GoTo> parseGoTo(std::string_view text, const scene::Camera& current,
                             const scene::MapBundle* bundle);

} // namespace app
