// Headless modes: --info (no GL at all) and --screenshot (hidden window, offscreen target).
#pragma once

#include "app/cli.h"
#include "scene/camera.h"
#include "scene/map_bundle.h"

namespace app {

// Both return the process exit code; output JSON goes to stdout, errors to stderr.
int runInfo(const Options& options);
int runScreenshot(const Options& options);

// The camera a CameraSpec names for a loaded map (spawn points: eye 26 units above the
// spawn origin, as the games place the view; no spawn: the centre of the world bounds).
core::Result<scene::Camera> resolveCamera(const CameraSpec& spec, const scene::MapBundle& bundle);

// The default map shipped in assets/ (found beside the executable or in the source tree).
std::string defaultMapPath();

} // namespace app
