#include "render/view_mode.h"

#include <array>

namespace render {

namespace {

struct ViewModeInfo {
    ViewMode mode;
    const char* name;
    const char* define;
};

constexpr std::array kViewModes = {
#define BSPV_VIEW_INFO(e, name, glsl) ViewModeInfo{ViewMode::e, name, #glsl},
    BSPV_VIEW_MODES(BSPV_VIEW_INFO)
#undef BSPV_VIEW_INFO
};

const ViewModeInfo& info(ViewMode mode) {
    for (const ViewModeInfo& i : kViewModes)
        if (i.mode == mode)
            return i;
    return kViewModes[0];
}

} // namespace

const char* viewModeName(ViewMode mode) {
    return info(mode).name;
}

const char* viewModeDefine(ViewMode mode) {
    return info(mode).define;
}

bool parseViewMode(std::string_view name, ViewMode* out) {
    for (const ViewModeInfo& i : kViewModes) {
        if (name == i.name) {
            *out = i.mode;
            return true;
        }
    }
    return false;
}

} // namespace render
