// GL-free geometry of the debug overlays: line lists (frustum, leaf bounds, area borders,
// entity markers, patch control nets), per-face colour keys (cluster, area), picking by ray
// cast and lightmap (luxel) lookup. render/debug_draw.* draws the lines; the app decides what
// to show. Everything here is plain data, so tests check it without a GPU.
#pragma once

#include "bsp/map.h"
#include "scene/view/camera.h"
#include "scene/world/lightmap_set.h"
#include "scene/world/world_mesh.h"

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <glm/vec3.hpp>
#include <glm/vec4.hpp>

namespace scene {

// Which debug overlays are on (overlay checkboxes, `--debug a,b,c`).
struct DebugViews {
    bool frustum = false;      // the visibility camera's frustum as lines
    bool leaf_bounds = false;  // bounds of the leaves the visibility camera draws through
    bool clusters = false;     // visible faces tinted by the cluster of their leaf
    bool areas = false;        // visible faces tinted by their leaf's area (Quake 2)
    bool area_borders = false; // boxes where leaves of different areas meet (Quake 2)
    bool entities = false;     // point-entity markers and target -> targetname lines
    bool luxels = false;       // lightmap texel grid over the surfaces
    bool patches = false;      // Quake 3 patch control nets
    bool portals = false;      // the compiler's portal file (.prt), a colour per cluster
    bool leak = false;         // the compiler's leak line (.pts / .lin)
    bool changes = false;      // faces tinted by what changed since the previous compile
    bool hull1 = false;        // clip hulls 1-3 (Quake 1, Half-Life): where a player box's
    bool hull2 = false;        // origin cannot go, as translucent solids
    bool hull3 = false;
    bool brushes = false; // Quake 2 / 3 brushes by contents (DebugOverlayInput's mask)

    bool any() const {
        return frustum || leaf_bounds || clusters || areas || area_borders || entities || luxels ||
               patches || portals || leak || changes || hull1 || hull2 || hull3 || brushes;
    }
};
// The names `--debug` accepts, comma-separated, in the order of the fields above.
inline constexpr const char* kDebugViewNames =
    "frustum,leaf-bounds,clusters,areas,area-borders,entities,luxels,patches,portals,leak,changes,"
    "hull1,hull2,hull3,brushes";
// Parses "frustum,leaf-bounds,..." (also "all" and "none"); false with *error naming the
// first unknown word.
bool parseDebugViews(std::string_view text, DebugViews* out, std::string* error);

struct LineVertex {
    glm::vec3 position{0.0f};
    glm::u8vec4 colour{255, 255, 255, 255};
};
static_assert(sizeof(LineVertex) == 16, "LineVertex layout is mirrored in render/debug_draw.cpp");

// Pairs of vertices, one segment each (GL_LINES).
struct LineList {
    std::vector<LineVertex> vertices;

    void clear() { vertices.clear(); }
    size_t segments() const { return vertices.size() / 2; }
    void add(const glm::vec3& a, const glm::vec3& b, glm::u8vec4 colour);
    // The 12 edges of an axis-aligned box.
    void addBox(const glm::vec3& mins, const glm::vec3& maxs, glm::u8vec4 colour);
    // An arrow from `from` along `dir` (length |dir|) with a two-stroke head.
    void addArrow(const glm::vec3& from, const glm::vec3& dir, glm::u8vec4 colour);
};

// Triples of vertices, one triangle each (GL_TRIANGLES), in the line vertex layout: the
// translucent debug surfaces (portals, the leak ribbon).
struct TriangleList {
    std::vector<LineVertex> vertices;

    void clear() { vertices.clear(); }
    size_t triangles() const { return vertices.size() / 3; }
    // A convex polygon as a fan from its first point.
    void addFan(const glm::vec3* points, uint32_t count, glm::u8vec4 colour);
};

// A stable, well-spread colour for a small integer key (cluster, area, classname hash):
// the same key always gives the same colour, neighbouring keys give unlike ones.
glm::u8vec4 hashColour(uint32_t key);

// The 8 corners of a camera's view volume: near plane (bottom-left, bottom-right, top-right,
// top-left), then the far plane in the same order. far_distance > 0 replaces the camera's
// far plane (a frustum 16,000 units deep hides everything else when drawn).
std::array<glm::vec3, 8> frustumCorners(const Camera& camera, float far_distance = 0.0f);
// The frustum's 12 edges plus 4 lines from the eye to the near corners.
void addFrustum(LineList& lines, const Camera& camera, glm::u8vec4 colour,
                float far_distance = 0.0f);

// Leaves a camera would draw through: in the PVS of the camera's cluster (every leaf with a
// cluster when the map has no vis or use_pvs is false) and, with use_frustum, intersecting
// the view frustum. Only leaves that hold faces, as scene::Visibility considers them.
std::vector<uint32_t> visibleLeaves(const bsp::Map& map, const Camera& camera, bool use_pvs,
                                    bool use_frustum);

// Per face: the cluster (or area) of the first leaf that lists it, -1 when no leaf does
// (brush-model faces, faces outside the tree).
std::vector<int32_t> faceClusters(const bsp::Map& map);
std::vector<int32_t> faceAreas(const bsp::Map& map);

// Quake 2 area borders: for every pair of leaves with a cluster in different areas whose
// bounds touch or overlap, the box where they meet (a flat slab where they share a side).
// Swept along x, so a map of n leaves costs about n log n plus the touching pairs.
struct AreaBorder {
    glm::vec3 mins{0.0f}, maxs{0.0f};
    int32_t area_a = 0, area_b = 0;
};
std::vector<AreaBorder> areaBorders(const bsp::Map& map, size_t max_borders = 20000);

// Point entities (those with an "origin" and no brush model) as the marker overlay shows them.
struct EntityMarker {
    uint32_t entity = 0;
    std::string classname;
    glm::vec3 origin{0.0f};
    float yaw = 0.0f; // degrees, from "angle" (or the yaw of "angles")
    bool has_facing = false;
    glm::vec3 half_size{8.0f};
};
std::vector<EntityMarker> entityMarkers(const bsp::Map& map);

// Where an entity is: its origin, or the centre of its brush model ("model" "*N"), or nullopt.
std::optional<glm::vec3> entityPosition(const bsp::Map& map, const bsp::Entity& entity);

// One line per (entity with "target" X) -> (entity with "targetname" X), both placed.
struct TargetLink {
    uint32_t from = 0, to = 0;
    glm::vec3 a{0.0f}, b{0.0f};
};
std::vector<TargetLink> targetLinks(const bsp::Map& map, size_t max_links = 20000);

// True when a marker's classname passes a filter: empty filter passes all; otherwise a
// case-insensitive substring match.
bool classnameMatches(std::string_view classname, std::string_view filter);

// Markers (box + facing arrow) for the markers that pass the filter, and the links whose
// either end passes it.
void addEntityMarkers(LineList& lines, const bsp::Map& map,
                      const std::vector<EntityMarker>& markers,
                      const std::vector<TargetLink>& links, std::string_view filter);

// Quake 3 patch control nets: the rows and columns of every patch's control grid.
void addPatchNets(LineList& lines, const bsp::Map& map, glm::u8vec4 colour);
// One face's net (nothing when it is not a patch or its grid is out of range).
void addPatchNet(LineList& lines, const bsp::Map& map, uint32_t face, glm::u8vec4 colour);
size_t patchCount(const bsp::Map& map);

// A ray against the map's faces (their triangles as stored in the Map; patches through their
// tessellation at `patch_level`). Skips faces the mesh does not draw (nodraw, sky is kept).
struct RayHit {
    uint32_t face = 0;
    float distance = 0.0f;
    glm::vec3 point{0.0f};
    glm::vec2 lm_uv{0.0f}; // interpolated lightmap coordinate (style 0 block)
};
// Bounds of each face's vertices in the Map (for patches the control points, whose hull holds
// the surface at every tessellation level, so the bounds survive a level change). Passed to
// rayCast they let it skip the triangles of every face whose box the ray misses.
struct FaceBounds {
    glm::vec3 mins{0.0f}, maxs{0.0f};
};
std::vector<FaceBounds> faceBounds(const bsp::Map& map);
std::optional<RayHit> rayCast(const bsp::Map& map, const WorldMesh& mesh, const glm::vec3& origin,
                              const glm::vec3& dir, float max_distance = 1e9f,
                              const std::vector<FaceBounds>* bounds = nullptr);

// The luxel under a lightmap coordinate of a face: texel position in the page and its RGB.
struct Luxel {
    int32_t page = -1;
    int32_t x = 0, y = 0;                // texel in the page
    int32_t local_x = 0, local_y = 0;    // texel in the face's block
    std::array<uint8_t, 3> rgb{0, 0, 0}; // style 0 value as stored
};
// The map's own pages, numbered as the parser numbered them.
std::optional<Luxel> luxelAt(const bsp::Map& map, uint32_t face, const glm::vec2& lm_uv);
// The pages drawn (MapBundle::lightmaps): `page` is the set's page. A q3map2 external image
// has no blocks: the face's block is the whole page.
std::optional<Luxel> luxelAt(const bsp::Map& map, const LightmapSet& set, uint32_t face,
                             const glm::vec2& lm_uv);

} // namespace scene
