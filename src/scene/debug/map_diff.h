// What changed between two compiles of a map (issue #18's A/B compare): every face of the new
// map classified against the old one, and the old faces that are gone.
//
// Faces are matched by what a level designer sees, not by index (a compiler renumbers faces
// whenever anything changes): the material name and the face's vertex positions as a set
// (snapped to a 1/16-unit grid, so the start vertex of a polygon and float noise do not
// matter). A face whose material and shape are found only shifted is "moved"; one matched in
// place whose lighting differs (a luxel or vertex colour channel by more than the threshold)
// is "relit". GL-free: the debug overlay tints by it, --info / --screenshot print its counts.
#pragma once

#include "bsp/map.h"
#include "scene/debug/debug_geometry.h"

#include <cstdint>
#include <vector>

namespace scene {

enum class FaceChange : uint8_t { Same, Added, Moved, Relit };

struct MapDiff {
    std::vector<FaceChange> faces; // per face of the new map
    std::vector<uint32_t> removed; // faces of the old map with no counterpart in the new one
    uint32_t same = 0, added = 0, moved = 0, relit = 0;
};

struct MapDiffOptions {
    // A luxel (or vertex colour) channel that differs by more than this makes a face relit.
    int relight_threshold = 4;
};

MapDiff diffMaps(const bsp::Map& before, const bsp::Map& after, const MapDiffOptions& options = {});

// The overlay's colours: added green, moved yellow, relit blue, removed red; Same is not drawn.
glm::u8vec4 changeColour(FaceChange change);
inline constexpr glm::u8vec4 kRemovedColour{235, 50, 40, 255};
// The triangle edges of the old map's removed faces.
void addRemovedFaces(LineList& lines, const bsp::Map& before, const MapDiff& diff);

} // namespace scene
