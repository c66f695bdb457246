#include "app/pass_times_panel.h"

#include "render/gl.h"

#include <imgui.h>

#include <algorithm>
#include <iterator>

namespace app {

std::vector<PassTimeRow> passTimeRows(const std::vector<render::GpuTimers::PassTime>& passes) {
    std::vector<PassTimeRow> rows;
    for (const char* name : render::kTimedPasses)
        rows.push_back({name, 0.0, false});
    const size_t known = rows.size();
    for (const render::GpuTimers::PassTime& p : passes) {
        const auto end = rows.begin() + static_cast<std::ptrdiff_t>(known);
        auto it =
            std::find_if(rows.begin(), end, [&](const PassTimeRow& r) { return r.name == p.name; });
        if (it == end) {
            rows.push_back({p.name, p.ms, true});
        } else {
            it->ms = p.ms;
            it->ran = true;
        }
    }
    return rows;
}

void drawPassTimesTable(const render::GpuTimers& timers) {
    if (!ImGui::TreeNodeEx("GPU time per pass", ImGuiTreeNodeFlags_DefaultOpen))
        return;
    const double frame = timers.latestFrameMs();
    constexpr ImGuiTableFlags kFlags =
        ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerV | ImGuiTableFlags_SizingFixedFit;
    if (ImGui::BeginTable("pass times", 3, kFlags)) {
        ImGui::TableSetupColumn("pass");
        ImGui::TableSetupColumn("ms");
        ImGui::TableSetupColumn("% of frame");
        ImGui::TableHeadersRow();
        auto row = [&](const char* name, double ms, bool ran) {
            ImGui::TableNextRow();
            ImGui::TableNextColumn();
            ImGui::TextUnformatted(name);
            ImGui::TableNextColumn();
            if (ran)
                ImGui::Text("%7.3f", ms);
            else
                ImGui::TextDisabled("      -");
            ImGui::TableNextColumn();
            if (ran && frame > 0.0)
                ImGui::Text("%5.1f", 100.0 * ms / frame);
        };
        for (const PassTimeRow& r : passTimeRows(timers.latest()))
            row(r.name.c_str(), r.ms, r.ran);
        row("frame", frame, timers.framesRead() > 0);
        ImGui::EndTable();
    }
    ImGui::TextDisabled("read %d frames late; %llu frames not ready in time",
                        render::GpuTimers::kFrames - 1,
                        static_cast<unsigned long long>(timers.framesNotReady()));
    if (!render::timerQueriesMeaningful(render::caps().renderer))
        ImGui::TextDisabled("%s: its timer queries time one tile, not the pass\n"
                            "(bspview --bench --pass-timing finish measures it)",
                            render::caps().renderer.c_str());
    ImGui::TreePop();
}

} // namespace app
