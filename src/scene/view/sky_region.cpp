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

} // namespace scene
