// The map being shown and what is derived from it, shared by every mode that draws one: the
// viewer, --screenshot and --bench (and --export later). A map arrives whole through adopt()
// (the viewer loads on a worker thread, the headless modes inline through load()); its GPU
// copy is built beside the current one, and bundle, GPU copy and visibility are swapped
// together, so a map that fails anywhere leaves the current one exactly as it was.
#pragma once

#include "app/cli.h"
#include "core/result.h"
#include "render/world_renderer.h"
#include "scene/load/map_bundle.h"
#include "scene/view/visibility.h"

#include <memory>
#include <string>

namespace app {

// A core::Error of code Graphics with `detail` (GL and upload failures of every mode).
core::Error graphicsError(const std::string& detail);

// What the renderer builds a bundle's GPU set from (its mesh unless `mesh` names another).
render::WorldSource worldSourceOf(const scene::MapBundle& bundle,
                                  const scene::WorldMesh* mesh = nullptr);
// Uploads a loaded map whole; the renderer keeps its previous map on failure.
core::Status uploadBundle(render::WorldRenderer& renderer, const scene::MapBundle& bundle);
// Rebuilds the bundle's mesh at another patch level (scene::buildMapMesh, sprite data
// included) and uploads it through the same path as a load; on success the bundle holds the
// new mesh, on failure both the bundle and the renderer keep the old one. Callers rebuild
// anything that points into the mesh (scene::Visibility); MapSession does.
core::Status setPatchLevel(render::WorldRenderer& renderer, scene::MapBundle& bundle, int level);

class MapSession {
public:
    explicit MapSession(render::WorldRenderer& renderer) : m_renderer(renderer) {}

    // scene::loadMapBundle, then adopt().
    core::Status load(const std::string& spec, const scene::LoadSettings& settings);
    // Makes a loaded bundle the current map: uploaded whole, then swapped in with a fresh
    // visibility. On failure nothing changes. A previous compile kept by adoptReload is
    // dropped: it belonged to another map.
    core::Status adopt(std::unique_ptr<scene::MapBundle> bundle);
    // The same for a new compile of the current map (reload on change): the map it replaces
    // stays in memory as the previous compile, for A/B flipping and the changes view.
    core::Status adoptReload(std::unique_ptr<scene::MapBundle> bundle);
    // A/B: the previous compile becomes the current map and the current one the previous
    // (uploaded again: a flip costs a map upload). Nothing changes on failure.
    core::Status flipPrevious();
    const scene::MapBundle* previous() const { return m_previous.get(); }
    // The current map's patches at another tessellation level (see app::setPatchLevel).
    core::Status setPatchLevel(int level);

    bool hasMap() const { return m_bundle != nullptr; }
    // nullptr before the first map.
    scene::MapBundle* bundle() { return m_bundle.get(); }
    const scene::MapBundle* bundle() const { return m_bundle.get(); }
    scene::Visibility* visibility() { return m_visibility.get(); }
    render::WorldRenderer& renderer() { return m_renderer; }

private:
    render::WorldRenderer& m_renderer;
    core::Status swapIn(std::unique_ptr<scene::MapBundle> bundle, bool keep_previous);

    std::unique_ptr<scene::MapBundle> m_bundle;
    std::unique_ptr<scene::MapBundle> m_previous;
    std::unique_ptr<scene::Visibility> m_visibility;
};

// The command line's say on every frame, read in one place for every mode: --view (an error
// for an unknown mode), --wireframe, --gl-path, --no-flares, --no-shader-stages and
// --no-stage-folding. The viewer lays its saved settings over this.
core::Result<render::RenderOptions> renderOptionsOf(const Options& options);
// --no-pvs and --no-frustum.
scene::VisOptions visOptionsOf(const Options& options);
// The clear colour of a frame of `map`: the game's own (bsp::Map::void_colour) when the map
// states one, else `fallback`, the viewer's background.
glm::vec4 clearColourOf(const bsp::Map& map,
                        const glm::vec4& fallback = render::RenderOptions{}.clear_colour);

} // namespace app
