#include "content/model_mesh.h"

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

} // namespace content
