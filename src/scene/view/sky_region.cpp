#include "scene/view/sky_region.h"

namespace scene {

Camera skyRegionCamera(const Camera& world, const game::SkyRegion& region) {
    Camera c = world;
    c.position = game::skyRegionEye(region, world.position);
    c.z_near = 2.0f;
    c.z_far = kSkyRegionFarPlane;
    return c;
}

VisOptions skyRegionVis(const game::SkyRegion& region, VisOptions options) {
    options.pvs_point = region.origin;
    options.own_area_only = true;
    return options;
}

LinearFog viewFog(const game::LinearFog& fog, const Camera& camera, float scale) {
    LinearFog out;
    out.enabled = fog.enabled;
    out.colour = game::fogColourFor(fog, camera.forward());
    out.start = fog.start / scale;
    out.end = fog.end / scale;
    out.max_density = fog.max_density;
    out.radial = fog.radial;
    return out;
}

LinearFog skyRegionFog(const game::SkyRegion& region, const Camera& region_camera) {
    return viewFog(region.fog, region_camera, region.scale);
}

std::optional<glm::vec3> farClearColour(const game::GameProfile& profile, const Camera& camera,
                                        bool fog_on) {
    if (profile.view.far_plane <= 0.0f || !fog_on || !profile.rules.linear_fog.enabled)
        return std::nullopt;
    return game::fogColourFor(profile.rules.linear_fog, camera.forward());
}

bool hasSkyBatch(const DrawList& list) {
    for (const DrawBatch& b : list.batches)
        if (b.pass == Pass::Sky)
            return true;
    return false;
}

bool updateRegionView(const game::SkyRegion& region, const Camera& world,
                      const DrawList& world_list, Visibility& vis, const VisOptions& options,
                      RegionView& out) {
    if (!hasSkyBatch(world_list))
        return false;
    out.camera = skyRegionCamera(world, region);
    VisOptions region_options = skyRegionVis(region, options);
    region_options.classify = false;
    region_options.lock = false;
    vis.update(out.camera, region_options, out.list);
    out.fog = skyRegionFog(region, out.camera);
    return true;
}

} // namespace scene
