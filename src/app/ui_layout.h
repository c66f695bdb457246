// How the viewer's panels sit on the screen (issue 33): each starts at a default place that
// leaves the view free, keeps the place the user gives it (imgui.ini in the config folder), is
// kept whole on the screen when the window shrinks, can be put back ("Reset layout"), and is
// opaque enough to read over the map and over each other. ImGui only, no SDL or GL.
#pragma once

#include <imgui.h>

#include <array>
#include <optional>
#include <string>

namespace app {

// A panel's first place: the point `anchor` (fractions of the display: (1, 0) is the top-right
// corner) moved by `offset` pixels, where the panel's `pivot` goes (its fractions likewise);
// `size` in pixels (0: fit content).
struct PanelPlace {
    ImVec2 anchor{0.0f, 0.0f};
    ImVec2 offset{10.0f, 10.0f};
    ImVec2 pivot{0.0f, 0.0f};
    ImVec2 size{0.0f, 0.0f};
};

// ImGui::Begin for a panel with a close box: placed at `place` the first time (or again after
// requestLayoutReset), its rectangle recorded for rectOf(name). Call ImGui::End either way.
bool beginPanel(const char* name, bool* open, const PanelPlace& place, ImGuiWindowFlags flags = 0);

// The next frame puts every panel back at its default place and size.
void requestLayoutReset();
// Whether this frame is a reset frame (beginPanel uses it; the Debug window asks too).
bool layoutResetThisFrame();
// Ends a reset frame; the viewer calls it once per frame after all panels.
void endLayoutFrame();

// Every top-level window drawn last frame moved (and, when larger, shrunk) to lie whole inside
// the display below `top` (the menu bar). Call right after ImGui::NewFrame.
void clampWindowsToDisplay(float top);

// The dark style with opaque panels and popups, every size times `scale`, text scaled alike.
void applyUiStyle(float scale);

// Screen rectangles (x, y, width, height) of windows and menu items drawn in the last frames,
// by name ("Debug", "Windows/Debug"): what tests click on and measure.
void recordRect(const std::string& name, ImVec2 min, ImVec2 max);
void recordLastItem(const std::string& name); // the last ImGui item's rectangle
std::optional<std::array<float, 4>> rectOf(const std::string& name);
void clearRecordedRects(); // a new ImGui context starts with none

} // namespace app
