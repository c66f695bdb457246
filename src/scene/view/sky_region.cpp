#include "scene/view/sky_region.h"

namespace scene {

Camera skyRegionCamera(const Camera& world, const game::SkyRegion& region) {
    Camera c = world;
    c.position = game::skyRegionEye(region, world.position);
    c.z_near = 2.0f;
    return c;
}

VisOptions skyRegionVis(const game::SkyRegion& region, VisOptions options) {
    options.pvs_point = region.origin;
    return options;
}

LinearFog skyRegionFog(const game::SkyRegion& region) {
    LinearFog fog;
    fog.enabled = region.fog.enabled;
    fog.colour = region.fog.colour;
    fog.start = game::regionFogStart(region);
    fog.end = game::regionFogEnd(region);
    fog.max_density = region.fog.max_density;
    return fog;
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
    out.fog = skyRegionFog(region);
    return true;
}

} // namespace scene
