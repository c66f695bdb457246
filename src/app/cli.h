// Command-line parsing. Pure (no SDL, no GL), so tests can cover it.
#pragma once

#include "core/result.h"
#include "export/export_scene.h"
#include "game/profile.h"
#include "scene/debug/debug_geometry.h"

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace app {

enum class Mode { Viewer, Info, Screenshot, Bench, Export, Help, Version };

struct CameraSpec {
    bool from_spawn = true; // "spawn[:N]" (default: the first spawn point)
    int spawn_index = 0;
    bool from_leak = false; // "leak[:N]": at stop N of the leak line (scene::leakStopCamera)
    int leak_stop = 0;
    float x = 0, y = 0, z = 0, pitch = 0, yaw = 0;
};

struct Options {
    Mode mode = Mode::Viewer;
    std::string map; // path, or ARCHIVE.pk3:maps/name.bsp; empty: the default map
    std::string screenshot_path;
    CameraSpec camera;
    bool camera_given = false;
    CameraSpec lock_camera; // --lock-camera: visibility computed here, image from --camera
    bool lock_camera_given = false;
    int width = 1280, height = 720;
    float fov = 90.0f;
    bool fov_given = false;  // --fov given: wins over the saved setting
    bool view_given = false; // --view given: likewise
    bool overlay = false;    // --screenshot --overlay: draw the ImGui overlay into the image
    std::string config_dir;  // --config-dir (empty: $BSPVIEW_CONFIG_DIR, XDG, ~/.config)
    std::vector<std::filesystem::path> base_dirs;
    std::string view = "lit";
    scene::DebugViews debug_views;   // --debug: overlays for --screenshot and the viewer
    std::filesystem::path pointfile; // --pointfile: leak file (.pts / .lin) for the first map
    std::filesystem::path prt_file;  // --prt: portal file for the first map
    bool wireframe = false;
    bool pvs = true, frustum = true;
    int patch_level = 4;
    double time = 0.0;
    std::filesystem::path shader_dir;
    std::string gl_path = "auto"; // --gl-path: auto, 33 (glMultiDrawElements) or 43 (indirect)
    std::string compare;          // --compare OLD: the earlier compile for --debug changes
    bool watch = true;            // --no-watch: no reload when the map's files change
    bool hdr = false;             // --hdr: a Source map's HDR lighting
    bool auto_exposure = false;   // --auto-exposure: a tone-mapped map's auto exposure
    bool flares = true;           // --no-flares: Quake 3 flares off (ioquake3's r_flares 0)
    bool sky_region = true;       // --no-3d-sky: the 3D sky box off (Source's r_3dsky 0)
    bool models = true;           // --no-models: entity models and sprites off (entity boxes)
    bool stages = true;           // --no-shader-stages: Quake 3 materials as first image x lightmap
    bool fold_stages = true;      // --no-stage-folding: one pass per Quake 3 shader stage
    bool depth_prepass = true;    // --no-depth-prepass: no depth-only pass before the shading
    bool water_reflection = true; // --no-water-reflection: planar water drawn as cheap water
    bool liquid_view = true;      // --no-liquid-view: the eye in a liquid sees as in air
    bool display_ramp = true;     // --no-display-ramp: no overbright doubling (half bright)
    bool hardware_gamma = true;   // --no-hardware-gamma: Quake 3 as shown without a gamma ramp
    bool fog = true;              // --no-fog: no Quake 3 fog volumes and no distance fog
    // --texture-mode MODE, --anisotropy N: over the game's texture filter (empty / 0: the game's)
    std::string texture_mode;
    float anisotropy = 0.0f;
    // --quake2-look yamagi|classic: wins over the saved setting; nullopt: the setting's
    std::optional<game::Quake2Look> quake2_look;
    std::string pass_timing = "auto"; // --bench --pass-timing: auto, queries, finish, cpu, off
    int frames = 300;                 // --bench
    std::string path_file;            // --bench --path
    std::string walk_script;          // --screenshot --walk-script: walk from --camera first
    std::string export_path;          // --export OUT.glb|.gltf|.obj
    std::string export_textures;      // --export-textures DIR
    exporter::ExportOptions export_options; // --export-all, --export-scale, --export-lighting
};

core::Result<Options> parseArguments(const std::vector<std::string>& args);
// "X,Y,Z,PITCH,YAW", "spawn[:N]" or "leak[:N]"; errors say what was expected, without the
// flag (parseArguments puts "--camera: " or "--lock-camera: " in front).
core::Result<CameraSpec> parseCamera(std::string_view text);

// One line per flag.
std::string helpText();
std::string versionText();

} // namespace app
