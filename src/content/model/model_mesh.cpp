#include "content/model/model_mesh.h"

#include <algorithm>
#include <cmath>

namespace content {

uint32_t entryAt(const TimedRun& run, double time) {
    if (run.count <= 1 || run.end_times.size() < run.count)
        return 0;
    const double full = run.end_times[run.count - 1];
    if (!(full > 0) || !std::isfinite(full) || !std::isfinite(time))
        return 0;
    const double t = time - std::floor(time / full) * full;
    for (uint32_t i = 0; i + 1 < run.count; ++i)
        if (double(run.end_times[i]) > t)
            return i;
    return run.count - 1;
}

const std::vector<ModelDrawRange>& skinRanges(const ModelMesh& mesh, int32_t skin) {
    if (mesh.skins.empty())
        return mesh.ranges;
    const size_t s = size_t(std::clamp(skin, 0, int32_t(mesh.skins.size()) - 1));
    return s < mesh.skin_ranges.size() && !mesh.skin_ranges[s].empty() ? mesh.skin_ranges[s]
                                                                       : mesh.ranges;
}

} // namespace content
