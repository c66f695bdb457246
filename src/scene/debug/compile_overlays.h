// GL-free geometry of the compile-file overlays: a leak line (.pts / .lin,
// content/compile/leak_file.h) as a bright ribbon with markers at its stops, portals (.prt,
// content/compile/portal_file.h) as translucent polygons with outlines, a colour per cluster, and
// the camera placed at a stop of the leak line. render/debug_overlays draws them; the app decides
// what to show.
#pragma once

#include "content/compile/leak_file.h"
#include "content/compile/portal_file.h"
#include "scene/debug/debug_geometry.h"
#include "scene/view/camera.h"

#include <cstdint>
#include <optional>

namespace scene {

// Colour of a portal: its front cluster's hashColour (as written first in the file: the side
// the compiler wrote it from), at `alpha`.
glm::u8vec4 portalColour(const content::Portal& portal, uint8_t alpha);

struct PortalOverlayStats {
    uint32_t portals = 0;
    uint32_t hints = 0;
    uint32_t clusters = 0; // distinct clusters the portals join
};
// Every portal as a fan in `fill` (its colour at fill_alpha) and its outline in `outline`
// (the colour halfway to white, opaque; hint portals outlined in white). Windings whose points lie
// outside the file's point array are skipped (the reader never makes them).
PortalOverlayStats addPortals(TriangleList& fill, LineList& outline,
                              const content::PortalFile& portals, uint8_t fill_alpha = 90);

// The nearest portal a ray crosses (either side), for picking: its index, the distance along
// the normalised direction and the point; nullopt when the ray meets none before max_distance.
struct PortalHit {
    uint32_t portal = 0;
    float distance = 0.0f;
    glm::vec3 point{0.0f};
};
std::optional<PortalHit> pickPortal(const content::PortalFile& portals, const glm::vec3& origin,
                                    const glm::vec3& dir, float max_distance = 1e9f);

// The leak line as a ribbon of two crossed quads per segment (`width` units wide, so it reads
// as a thick line from any side), coloured from red at the first point to yellow at the last,
// plus a one-pixel line along it in `lines` (seen at any distance) and a small box at every
// stop, the stop `current` (if any) larger and white.
void addLeakLine(TriangleList& ribbon, LineList& lines, const content::LeakLine& leak,
                 float width = 4.0f, int32_t current = -1);

// A camera at stop `stop` of the leak line (clamped to the stops), looking along the line
// towards the next stop (at the last stop, back from the previous one); fov and clip planes
// come from `base`. nullopt when the line has no points.
std::optional<Camera> leakStopCamera(const content::LeakLine& leak, int32_t stop,
                                     const Camera& base);

} // namespace scene
