// The Debug window's "GPU time per pass" table: the passes of render::kTimedPasses in the order
// they run (those that did not run in the frame shown as "-"), then any other timed name (the
// viewer's "debug overlays" and "ui"), and the frame from its first mark to its last. The same
// names and order as --bench's gpu_ms.passes (app/bench.h).
#pragma once

#include "render/gpu_timers.h"

#include <string>
#include <vector>

namespace app {

struct PassTimeRow {
    std::string name;
    double ms = 0.0;
    bool ran = false; // false: the pass did not run in that frame
};

// The table's rows for one frame's passes (GpuTimers::latest()). GL-free.
std::vector<PassTimeRow> passTimeRows(const std::vector<render::GpuTimers::PassTime>& passes);

// Draws the table (ImGui, inside the current window) for the timers' latest frame.
void drawPassTimesTable(const render::GpuTimers& timers);

} // namespace app
