// Headless modes: --info (no GL at all) and --screenshot (hidden window, offscreen target).
#pragma once

#include "app/cli.h"
#include "app/window.h"
#include "render/world_renderer.h"
#include "scene/camera.h"
#include "scene/map_bundle.h"

#include <memory>

namespace app {

// Both return the process exit code; output JSON goes to stdout, errors to stderr.
int runInfo(const Options& options);
int runScreenshot(const Options& options);

// The camera a CameraSpec names for a loaded map (spawn points: eye 26 units above the
// spawn origin, as the games place the view; no spawn: the centre of the world bounds).
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

// What the renderer builds a bundle's GPU set from (its mesh unless `mesh` names another).
render::WorldSource worldSourceOf(const scene::MapBundle& bundle,
                                  const scene::WorldMesh* mesh = nullptr);
// Uploads a loaded map whole; the renderer keeps its previous map on failure.
core::Status uploadBundle(render::WorldRenderer& renderer, const scene::MapBundle& bundle);
// Rebuilds the bundle's mesh at another patch level (scene::buildMapMesh, sprite data
// included) and uploads it through the same path as a load; on success the bundle holds the
// new mesh, on failure both the bundle and the renderer keep the old one. Callers rebuild
// anything that points into the mesh (scene::Visibility).
core::Status setPatchLevel(render::WorldRenderer& renderer, scene::MapBundle& bundle, int level);

// The map the options name (the default map when none) and how to load it.
std::string mapSpecOf(const Options& options);
scene::LoadSettings loadSettingsOf(const Options& options);

// Prints "bspview: error: MESSAGE" to stderr and returns exit code 1.
int reportError(const core::Error& error);

// The default map shipped in assets/ (found beside the executable or in the source tree).
std::string defaultMapPath();

} // namespace app
