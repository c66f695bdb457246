#include "app/map_session.h"

namespace app {

core::Status MapSession::load(const std::string& spec, const scene::LoadSettings& settings) {
    auto loaded = scene::loadMapBundle(spec, settings);
    if (!loaded)
        return loaded.error();
    return adopt(std::move(*loaded));
}

core::Status MapSession::swapIn(std::unique_ptr<scene::MapBundle> bundle, bool keep_previous) {
    if (!bundle)
        return graphicsError("no map");
    if (auto st = render::uploadBundle(m_renderer, *bundle); !st)
        return st;
    m_visibility.reset(); // it points into the old bundle
    m_region_vis.reset();
    m_reflection_vis.reset();
    m_previous = keep_previous ? std::move(m_bundle) : nullptr;
    m_bundle = std::move(bundle);
    rebuildVisibility();
    return core::okStatus();
}

std::unique_ptr<scene::Visibility> MapSession::makeVisibility() const {
    return std::make_unique<scene::Visibility>(m_bundle->map, m_bundle->mesh,
                                               &m_bundle->models.instances,
                                               m_bundle->profile.entities.brush_model_vis);
}

void MapSession::rebuildVisibility() {
    m_visibility = makeVisibility();
    m_region_vis.reset();     // made at the first frame that shows the sky region
    m_reflection_vis.reset(); // made at the first frame that asks for a water reflection
}

const scene::RegionView* MapSession::skyRegion(const scene::Camera& camera,
                                               const scene::VisOptions& options,
                                               const scene::DrawList& world_list, bool enabled) {
    if (!enabled || !m_bundle || !m_bundle->profile.sky_region)
        return nullptr;
    if (!m_region_vis)
        m_region_vis = makeVisibility();
    const bool shown = scene::updateRegionView(*m_bundle->profile.sky_region, camera, world_list,
                                               *m_region_vis, options, m_region_view);
    return shown ? &m_region_view : nullptr;
}

const scene::ReflectionView* MapSession::waterReflection(const scene::Camera& camera,
                                                         const scene::VisOptions& options,
                                                         const scene::DrawList& world_list,
                                                         bool enabled) {
    if (!enabled || !m_bundle)
        return nullptr;
    if (!m_reflection_vis)
        m_reflection_vis = makeVisibility();
    const bool shown = scene::updateReflectionView(camera, world_list, m_bundle->water_heights,
                                                   *m_reflection_vis, options, m_reflection_view);
    return shown ? &m_reflection_view : nullptr;
}

core::Status MapSession::adopt(std::unique_ptr<scene::MapBundle> bundle) {
    return swapIn(std::move(bundle), false);
}

core::Status MapSession::adoptReload(std::unique_ptr<scene::MapBundle> bundle) {
    return swapIn(std::move(bundle), m_bundle != nullptr);
}

core::Status MapSession::flipPrevious() {
    if (!m_previous)
        return graphicsError("no previous compile");
    if (auto st = render::uploadBundle(m_renderer, *m_previous); !st)
        return st;
    m_visibility.reset();
    m_region_vis.reset();
    m_reflection_vis.reset();
    std::swap(m_bundle, m_previous);
    rebuildVisibility();
    return core::okStatus();
}

core::Status MapSession::setPatchLevel(int level) {
    if (!m_bundle)
        return graphicsError("no map");
    if (auto st = render::setPatchLevel(m_renderer, *m_bundle, level); !st)
        return st;
    // The old visibility was built for the old mesh.
    rebuildVisibility();
    return core::okStatus();
}

glm::vec4 clearColourOf(const game::ViewRule& view, const glm::vec4& fallback) {
    return view.void_colour ? glm::vec4(*view.void_colour, 1.0f) : fallback;
}

glm::vec4 clearColourOf(const game::GameProfile& profile, const scene::Camera& camera, bool fog_on,
                        const glm::vec4& fallback) {
    if (const auto fog = scene::farClearColour(profile, camera, fog_on))
        return glm::vec4(*fog, 1.0f);
    return clearColourOf(profile.view, fallback);
}

bool fogShown(const render::RenderOptions& options) {
    return options.fog && options.view == render::ViewMode::Lit;
}

scene::EyeLiquid eyeLiquidOf(const scene::MapBundle& bundle, const scene::Camera& camera,
                             double time, bool enabled) {
    if (!enabled) // the liquid is still named (--screenshot's "eye_liquid")
        return {.liquid = scene::liquidAt(bundle.map, camera.position), .camera = camera};
    return scene::eyeLiquid(bundle.map, bundle.profile.view.liquid, camera, time);
}

core::Result<render::RenderOptions> renderOptionsOf(const Options& options) {
    render::RenderOptions ro;
    if (!render::parseViewMode(options.view, &ro.view))
        return core::makeError(core::ErrorCode::BadArgument, {}, -1, {},
                               "--view: unknown mode '" + options.view + "'");
    ro.wireframe = options.wireframe;
    render::parseDrawPath(options.gl_path, &ro.draw_path);
    ro.flares = options.flares;
    ro.sky_region = options.sky_region;
    ro.shader_stages = options.stages;
    ro.fold_stages = options.fold_stages;
    ro.depth_prepass = options.depth_prepass;
    ro.water_reflection = options.water_reflection;
    ro.liquid_view = options.liquid_view;
    ro.display_ramp = options.display_ramp;
    ro.hardware_gamma = options.hardware_gamma;
    ro.fog = options.fog;
    ro.auto_exposure = options.auto_exposure;
    ro.texture_filter.mode = game::textureModeFromName(options.texture_mode);
    ro.texture_filter.anisotropy = options.anisotropy;
    return ro;
}

scene::VisOptions visOptionsOf(const Options& options) {
    scene::VisOptions vo;
    vo.pvs = options.pvs;
    vo.frustum = options.frustum;
    vo.models = options.models;
    return vo;
}

} // namespace app
