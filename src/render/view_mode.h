// The world's view modes (debug views), numbered as shaders/gpu_interface.h numbers them.
#pragma once

#include "gpu_interface.h"

#include <string_view>

namespace render {

// X(enumerator, name on the command line and in the config, GLSL define)
#define BSPV_VIEW_MODES(X)                                                                         \
    X(Lit, "lit", VIEW_LIT)                                                                        \
    X(Lightmap, "lightmap", VIEW_LIGHTMAP)                                                         \
    X(Fullbright, "fullbright", VIEW_FULLBRIGHT)                                                   \
    X(Flat, "flat", VIEW_FLAT)                                                                     \
    X(Normals, "normals", VIEW_NORMALS)                                                            \
    X(Overdraw, "overdraw", VIEW_OVERDRAW)                                                         \
    X(Deluxe, "deluxe", VIEW_DELUXE)

enum class ViewMode : int {
#define BSPV_VIEW_ENUM(e, name, glsl) e = glsl,
    BSPV_VIEW_MODES(BSPV_VIEW_ENUM)
#undef BSPV_VIEW_ENUM
};

// "lit", "lightmap", ...; "lit" for a value out of range.
const char* viewModeName(ViewMode mode);
// The GLSL define the world program is compiled with ("VIEW_LIT", ...).
const char* viewModeDefine(ViewMode mode);
bool parseViewMode(std::string_view name, ViewMode* out);

} // namespace render
