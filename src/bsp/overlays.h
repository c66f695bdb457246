// Source overlays (VBSP lump 45 "overlays"): the info_overlay decals vbsp took out of the entity
// lump, each a quad in its own plane with a material and the faces it lies on (Source SDK 2013
// public/bspfile.h doverlay_t; utils/vbsp/overlay.cpp Overlay_EmitOverlayFace writes them; the
// quad's corners and texture coordinates as Hammer's CMapOverlay gives them,
// hammer/mapoverlay.cpp MaterialUpdateTexCoordsFromUVs). The engine's own fragment code was
// never published: buildOverlayFaces clips each face to the quad, which is what an overlay is.
// GL-free.
#pragma once

#include "core/result.h"

#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include <glm/vec2.hpp>
#include <glm/vec3.hpp>

namespace bsp {

struct Map;
class DroppedReferences;

// OVERLAY_BSP_FACE_COUNT: the face slots of one record.
inline constexpr uint32_t kOverlayFaceSlots = 64;
// sizeof(doverlay_t): id, texinfo (i16), face count and render order (u16: count in the low 14
// bits, order in the top 2), faces[64], U[2], V[2], UV points[4] (vec3), origin, basis normal.
inline constexpr uint64_t kOverlayBytes = 352;
// How far a fragment stands off its face along the face's normal, so that it wins the depth test
// against the face it lies on without a polygon offset (units).
inline constexpr float kOverlayLift = 0.1f;
// OVERLAY_NUM_RENDER_ORDERS: the two top bits of m_nFaceCountAndRenderOrder.
inline constexpr uint32_t kOverlayRenderOrders = 4;
// The lift of a fragment of render order `order` (0..3): one kOverlayLift more per order, so a
// later order stands over an earlier one where they overlap instead of fighting it for depth.
constexpr float overlayLift(uint32_t order) {
    return kOverlayLift * float(1 + order);
}

struct Overlay {
    int32_t id = 0;
    int32_t texinfo = -1; // index into the texinfo lump (= Map::materials)
    uint32_t render_order = 0;
    std::vector<int32_t> faces; // indices into the faces lump (= Map::faces)
    glm::vec2 u{0.0f}, v{0.0f}; // texture coordinates at the quad's edges: U[0..1], V[0..1]
    // The quad's corners in the overlay plane (along basis_u, basis_v from origin), in Hammer's
    // handle order: (-,-), (-,+), (+,+), (+,-). Their texture coordinates are (U0,V0), (U0,V1),
    // (U1,V1), (U1,V0).
    std::array<glm::vec2, 4> corners{};
    glm::vec3 origin{0.0f};
    glm::vec3 basis_u{1.0f, 0.0f, 0.0f}; // vbsp packs it into the z of UV points 0..2
    glm::vec3 basis_v{0.0f, 1.0f, 0.0f}; // cross(normal, U), negated when UV point 3's z is 1
    glm::vec3 basis_normal{0.0f, 0.0f, 1.0f};
    // From the overlay fades lump (doverlayfade_t): the squares of Hammer's fademindist and
    // fademaxdist, 0 when the mapper left them off (vbsp squares only positive ones).
    float fade_min_sq = 0.0f;
    float fade_max_sq = 0.0f;
};

// sizeof(doverlayfade_t): flFadeDistMinSq, flFadeDistMaxSq.
inline constexpr uint64_t kOverlayFadeBytes = 8;

// Reads the overlays lump of `version` (0, the only one the Source SDK 2013 writes). Errors name
// the lump and the record: an unknown version, a size that is not whole records, a face count
// over the 64 slots, a number that is not finite. References are not checked here
// (buildOverlayFaces drops what a map does not hold).
core::Result<std::vector<Overlay>> parseOverlays(std::span<const uint8_t> lump, int32_t version);

// Reads the overlay fades lump (LUMP_OVERLAY_FADES, 60: one doverlayfade_t per overlay, in the
// overlays lump's order) into `overlays`. An empty lump leaves every overlay unfaded. Errors name
// the lump and the record: a size that is not whole records, a record count other than the
// overlays', a distance that is not finite; `overlays` is then left as it was.
core::Status readOverlayFades(std::span<const uint8_t> lump, std::vector<Overlay>& overlays);

// What buildOverlayFaces made and left out.
struct OverlayFaceStats {
    uint32_t fragments = 0;        // faces added to the map (brush models' included)
    uint32_t on_displacements = 0; // of the fragments, those on displacements
    uint32_t not_polygons = 0;     // pairs on faces neither polygons nor displacements: not drawn
    uint32_t missed = 0;           // pairs whose face lies outside the quad or edge-on to it
};

// Appends to `map.faces` (with their vertices and indices) one fragment per (overlay, face)
// pair: the face's polygon clipped to the overlay's quad in the overlay plane, put back on the
// face's plane (a displacement's triangles each on their own) and lifted along its normal,
// textured by the quad's corners (bilinearly) with the overlay's material (texinfo), lit by the
// face's own lightmap, and linked into every leaf that holds the face. A brush model's face is
// cut in the coordinates it is stored in and its fragment keeps its submodel (drawn with that
// model; it lies outside the model's face range, after the map's own faces). Fragments follow in
// render order, lifted by overlayLift of theirs; a positive fade_max_sq becomes the fragment's
// Face::max_distance_sq. An overlay whose material or basis is bad, and a face reference out of
// range, are dropped into `dropped` (naming the overlays lump and record).
OverlayFaceStats buildOverlayFaces(Map& map, const std::vector<Overlay>& overlays,
                                   DroppedReferences& dropped);

} // namespace bsp
