#include "scene/models/studio_lod.h"

#include <algorithm>
#include <cmath>

namespace scene {

float studioLodMetric(float view_depth, float fov_y_degrees, float viewport_height) {
    if (!(viewport_height > 0.0f))
        return 0.0f;
    constexpr float kPi = 3.14159265358979f;
    const float p11 = 1.0f / std::tan(fov_y_degrees * (kPi / 360.0f));
    // Clip w at least 0.001: the engine multiplies clip y by 1000 below that.
    const float width = viewport_height * p11 / std::max(view_depth, 0.001f);
    return width != 0.0f ? 100.0f / width : 0.0f;
}

uint32_t studioLodForMetric(std::span<const float> switch_points, float metric,
                            bool has_shadow_lod) {
    const size_t n = switch_points.size();
    if (n == 0)
        return 0;
    // GetLODForMetric: a trailing negative switch point is the shadow LOD, never chosen.
    const size_t usable = switch_points[n - 1] < 0.0f ? n - 1 : n;
    size_t lod = usable == 0 ? 0 : usable - 1;
    for (size_t i = 0; i + 1 < usable; ++i)
        if (switch_points[i + 1] > metric) {
            lod = i;
            break;
        }
    // ComputeRenderLOD: clamp to the last LOD, less one with STUDIOHDR_FLAGS_HASSHADOWLOD.
    const size_t last = has_shadow_lod && n >= 2 ? n - 2 : n - 1;
    return uint32_t(std::min(lod, last));
}

} // namespace scene
