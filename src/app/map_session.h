// The map being shown and what is derived from it, shared by every mode that draws one: the
// viewer, --screenshot and --bench (and --export later). A map arrives whole through adopt()
// (the viewer loads on a worker thread, the headless modes inline through load()); its GPU
// copy is built beside the current one, and bundle, GPU copy and visibility are swapped
// together, so a map that fails anywhere leaves the current one exactly as it was.
#pragma once

#include "app/cli.h"
#include "core/result.h"
#include "render/world_renderer.h"
#include "render/world_upload.h"
#include "scene/load/map_bundle.h"
#include "scene/view/eye_liquid.h"
#include "scene/view/sky_region.h"
#include "scene/view/visibility.h"
#include "scene/view/water_reflection.h"

#include <memory>
#include <string>

namespace app {

// Graphics errors and the upload of a loaded map are the renderer's (render/world_upload.h).
using render::graphicsError;

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
    // The current map's patches at another tessellation level (render::setPatchLevel).
    core::Status setPatchLevel(int level);

    bool hasMap() const { return m_bundle != nullptr; }
    // nullptr before the first map.
    scene::MapBundle* bundle() { return m_bundle.get(); }
    const scene::MapBundle* bundle() const { return m_bundle.get(); }
    scene::Visibility* visibility() { return m_visibility.get(); }
    // The map's sky region (game::SkyRegion) for a frame whose world camera is `camera` and
    // whose visible set is `world_list`: its camera, visible batches and fog, for
    // render::WorldRenderer::draw. nullptr when the map has none, `enabled` is false
    // (--no-3d-sky) or the frame shows no sky surface. Valid until the next call.
    const scene::RegionView* skyRegion(const scene::Camera& camera,
                                       const scene::VisOptions& options,
                                       const scene::DrawList& world_list, bool enabled);
    // A planar water's reflection view (scene::updateReflectionView) for the same frame: the
    // mirrored camera and its own visible set, for render::WorldRenderer::draw. nullptr when
    // `enabled` is false (--no-water-reflection) or no planar water below the eye is in
    // `world_list`. Valid until the next call.
    const scene::ReflectionView* waterReflection(const scene::Camera& camera,
                                                 const scene::VisOptions& options,
                                                 const scene::DrawList& world_list, bool enabled);
    render::WorldRenderer& renderer() { return m_renderer; }

private:
    render::WorldRenderer& m_renderer;
    core::Status swapIn(std::unique_ptr<scene::MapBundle> bundle, bool keep_previous);

    std::unique_ptr<scene::MapBundle> m_bundle;
    std::unique_ptr<scene::MapBundle> m_previous;
    std::unique_ptr<scene::Visibility> m_visibility;
    std::unique_ptr<scene::Visibility> m_region_vis; // the sky region's own visible set
    scene::RegionView m_region_view;
    // The reflection's own visible set, made at the first frame that asks for a reflection; the
    // water heights it looks for are the bundle's (scene::DrawableWorld::water_heights).
    std::unique_ptr<scene::Visibility> m_reflection_vis;
    scene::ReflectionView m_reflection_view;
    void rebuildVisibility();
    // A visible set of the current bundle's map, mesh and entity models.
    std::unique_ptr<scene::Visibility> makeVisibility() const;
};

// The command line's say on every frame, read in one place for every mode: --view (an error
// for an unknown mode), --wireframe, --gl-path, --no-flares, --no-shader-stages and
// --no-stage-folding. The viewer lays its saved settings over this.
core::Result<render::RenderOptions> renderOptionsOf(const Options& options);
// --no-pvs and --no-frustum.
scene::VisOptions visOptionsOf(const Options& options);
// The clear colour of a frame: the game's own (game::ViewRule::void_colour) where it is known,
// else `fallback`, the viewer's background.
glm::vec4 clearColourOf(const game::ViewRule& view,
                        const glm::vec4& fallback = render::RenderOptions{}.clear_colour);
// The clear colour of a frame seen by `camera`: where the game pulls the far plane in, the world
// fog's colour while `fog_on` (scene::farClearColour), else clearColourOf(profile.view).
glm::vec4 clearColourOf(const game::GameProfile& profile, const scene::Camera& camera, bool fog_on,
                        const glm::vec4& fallback = render::RenderOptions{}.clear_colour);
// Whether the frame drawn with `options` shows distance fog (the fog switch, the lit view).
bool fogShown(const render::RenderOptions& options);
// The eye's liquid in a frame of `bundle` seen by `camera` at game time `time` (scene::eyeLiquid:
// the camera to cull and draw the frame with, the colour blended over it); with `enabled` false
// (--no-liquid-view, the View options switch) none, and the camera as it is.
scene::EyeLiquid eyeLiquidOf(const scene::MapBundle& bundle, const scene::Camera& camera,
                             double time, bool enabled);

} // namespace app
