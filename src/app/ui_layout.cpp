#include "app/ui_layout.h"

#include <imgui_internal.h>

#include <algorithm>
#include <map>

namespace app {

namespace {

bool g_reset_requested = false;
bool g_reset_frame = false;
std::map<std::string, std::array<float, 4>> g_rects;

ImVec2 resolve(const PanelPlace& p, const ImVec2& display) {
    return ImVec2(p.anchor.x * display.x + p.offset.x, p.anchor.y * display.y + p.offset.y);
}

} // namespace

bool beginPanel(const char* name, bool* open, const PanelPlace& place, ImGuiWindowFlags flags) {
    const ImVec2 display = ImGui::GetIO().DisplaySize;
    const ImGuiCond cond = g_reset_frame ? ImGuiCond_Always : ImGuiCond_FirstUseEver;
    ImGui::SetNextWindowPos(resolve(place, display), cond, place.pivot);
    if (place.size.x > 0.0f || place.size.y > 0.0f) {
        const ImVec2 size(std::min(place.size.x, display.x - 20.0f),
                          std::min(place.size.y, display.y - 40.0f));
        ImGui::SetNextWindowSize(size, cond);
    }
    const bool shown = ImGui::Begin(name, open, flags);
    const ImVec2 pos = ImGui::GetWindowPos(), size = ImGui::GetWindowSize();
    recordRect(name, pos, ImVec2(pos.x + size.x, pos.y + size.y));
    return shown;
}

void requestLayoutReset() {
    g_reset_requested = true;
}

bool layoutResetThisFrame() {
    return g_reset_frame;
}

void endLayoutFrame() {
    g_reset_frame = g_reset_requested; // a request during this frame resets the next one
    g_reset_requested = false;
}

void clampWindowsToDisplay(float top) {
    ImGuiContext& g = *ImGui::GetCurrentContext();
    const ImVec2 display = g.IO.DisplaySize;
    if (display.x <= 0.0f || display.y <= top)
        return;
    for (ImGuiWindow* w : g.Windows) {
        // Panels only: not menus, tooltips, child regions, nor the windows placed every frame
        // (the menu bar, the notices: "##" names).
        if (!w->WasActive ||
            (w->Flags &
             (ImGuiWindowFlags_ChildWindow | ImGuiWindowFlags_Tooltip | ImGuiWindowFlags_Popup)) ||
            (w->Name[0] == '#' && w->Name[1] == '#'))
            continue;
        ImVec2 size = w->Size;
        const ImVec2 room(display.x, display.y - top);
        if (size.x > room.x || size.y > room.y) {
            size = ImVec2(std::min(size.x, room.x), std::min(size.y, room.y));
            ImGui::SetWindowSize(w, size, ImGuiCond_Always);
        }
        const ImVec2 pos(std::clamp(w->Pos.x, 0.0f, room.x - size.x),
                         std::clamp(w->Pos.y, top, display.y - size.y));
        if (pos.x != w->Pos.x || pos.y != w->Pos.y)
            ImGui::SetWindowPos(w, pos, ImGuiCond_Always);
    }
}

void applyUiStyle(float scale) {
    ImGuiStyle& style = ImGui::GetStyle();
    style = ImGuiStyle();
    ImGui::StyleColorsDark(&style);
    // Panels over the map and over each other: nothing shows through the text.
    style.Colors[ImGuiCol_WindowBg].w = 1.0f;
    style.Colors[ImGuiCol_PopupBg].w = 1.0f;
    style.Colors[ImGuiCol_MenuBarBg].w = 1.0f;
    style.WindowRounding = 3.0f;
    style.ScaleAllSizes(scale);
    ImGui::GetIO().FontGlobalScale = scale;
}

void recordRect(const std::string& name, ImVec2 min, ImVec2 max) {
    g_rects[name] = {min.x, min.y, max.x - min.x, max.y - min.y};
}

void recordLastItem(const std::string& name) {
    recordRect(name, ImGui::GetItemRectMin(), ImGui::GetItemRectMax());
}

void clearRecordedRects() {
    g_rects.clear();
}

std::optional<std::array<float, 4>> rectOf(const std::string& name) {
    const auto it = g_rects.find(name);
    if (it == g_rects.end())
        return std::nullopt;
    return it->second;
}

} // namespace app
