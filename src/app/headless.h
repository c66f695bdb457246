// Headless modes: --info (no GL at all) and --screenshot (hidden window, offscreen target;
// without a display server, SDL's offscreen EGL driver: app/window.h).
#pragma once

#include "app/cli.h"
#include "app/map_session.h"
#include "app/window.h"
#include "core/json.h"
#include "render/world_renderer.h"
#include "scene/load/map_bundle.h"
#include "scene/view/camera.h"

#include <memory>
#include <string_view>

#include <glm/vec3.hpp>

namespace app {

// Both return the process exit code; output JSON goes to stdout, errors to stderr.
int runInfo(const Options& options);
int runScreenshot(const Options& options);

// The camera a CameraSpec names for a loaded map (spawn points: the eye bsp::Map::eye_height
// above the spawn origin, as the game places the view; no spawn: the centre of the world
// bounds).
core::Result<scene::Camera> resolveCamera(const CameraSpec& spec, const scene::MapBundle& bundle);

// What --screenshot and --bench share: a hidden window's GL context, the renderer and an
// offscreen target of the requested size. Members are destroyed renderer first, window last,
// so GL objects go while their context is still current.
struct OffscreenRenderer {
    std::unique_ptr<Window> window;
    render::GlslLibrary shaders;
    render::WorldRenderer renderer;
    render::RenderTarget target;
};
core::Result<std::unique_ptr<OffscreenRenderer>> createOffscreenRenderer(const Options& options,
                                                                         const char* title);

// The map the options name (the default map when none) and how to load it.
std::string mapSpecOf(const Options& options);
scene::LoadSettings loadSettingsOf(const Options& options);

// Prints "bspview: error: MESSAGE" to stderr and returns exit code 1.
int reportError(const core::Error& error);

// The default map shipped in assets/ (found beside the executable or in the source tree).
std::string defaultMapPath();

// "gl_renderer" (the GPU's name), "gl_vendor", "gl_version" and "video_driver" (SDL's: x11,
// wayland, offscreen) in the JSON of the modes that draw.
void writeGlIdentity(core::JsonWriter& j);

// "key": [x, y, z] in the JSON the headless modes print.
void writeVec3(core::JsonWriter& j, std::string_view key, const glm::vec3& v);

} // namespace app
