// Face building shared by the Quake 1 family and Quake 2 parsers.
//
// Both games store a face as a run of "surfedges" (signed indices into the edge list; a
// negative one means the edge is walked backwards), each edge naming two vertices. The face's
// texture axes come from its texinfo (two vec4s: s = dot(pos, v.xyz) + v.w), and its
// lightmap is a grid of luxels every 16 texels over the face's s/t extents, computed exactly as
// the engines do (quakespasm gl_model.c and yquake2 models.c CalcSurfaceExtents): the min/max of
// s and t over the face's vertices (in double precision, matching the compilers), then
// floor(min / 16) and ceil(max / 16); the luxel grid is (bmax - bmin) + 1 in each direction.
//
// Every helper checks its indices and returns an error naming the face; nothing here trusts
// the file.
#pragma once

#include "bsp/lightmap_atlas.h"
#include "bsp/map.h"
#include "core/result.h"

#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace bsp {

// Geometry lumps as the parser decoded them (record layouts differ per version).
struct EdgeGeometry {
    std::span<const glm::vec3> vertices;
    std::span<const std::array<uint32_t, 2>> edges;
    std::span<const int32_t> surfedges;
};

// Texture axes of one texinfo: s = dot(pos, s_axis.xyz) + s_axis.w, likewise t.
struct TexAxes {
    glm::vec4 s{1.0f, 0.0f, 0.0f, 0.0f};
    glm::vec4 t{0.0f, 1.0f, 0.0f, 0.0f};
};

// Largest polygon accepted (the engines' own limits are far below: 64 in quakespasm warnings).
inline constexpr uint32_t kMaxFaceEdges = 4096;
// Most polygon vertices all faces together may emit. Faces may name overlapping surfedge
// ranges, so without this a 1 MB file of 20-byte faces, each naming the same 4096 surfedges,
// would make 200 M vertices (9 GB). Compilers give each face its own surfedges, so real maps
// emit as many vertices as they have surfedges (lq_e1m1: about 40,000).
inline constexpr uint64_t kMaxFaceVerticesTotal = 1u << 22;

// LimitExceeded naming `lump`[face_index] when emitting `adding` more vertices after
// `emitted` would pass kMaxFaceVerticesTotal.
core::Status checkFaceVertexTotal(uint64_t emitted, uint64_t adding, const std::string& lump,
                                  int64_t face_index);

// Collects the face's vertex positions following its surfedges. Fails with IndexOutOfRange
// naming `lump`[face_index] when a surfedge, edge or vertex index is outside its lump.
core::Status collectFacePolygon(const EdgeGeometry& geo, const std::string& lump,
                                int64_t face_index, int64_t first_edge, int64_t num_edges,
                                std::vector<glm::vec3>& out);

struct LightmapExtents {
    std::array<int32_t, 2> texture_mins{}; // bmin * 16, in texels
    std::array<int32_t, 2> extents{};      // (bmax - bmin) * 16, in texels
    int32_t width = 0;                     // luxels: extents / 16 + 1
    int32_t height = 0;
};

// Largest luxel grid side accepted before a face's lightmap is dropped (quakespasm rejects
// extents over 2000 texels = 126 luxels for non-special faces; some HL and Q2 compilers go
// further, so we keep a generous cap that still bounds memory).
inline constexpr int32_t kMaxLightmapSide = 256;

// Non-finite texture axes give width = height = INT32_MAX (callers drop such lightmaps).
LightmapExtents computeLightmapExtents(std::span<const glm::vec3> polygon, const TexAxes& axes);

// Appends the polygon to map.vertices (uv = s,t divided by tex_w/tex_h; pass 1 to keep texels)
// and its triangle fan (v0, vi, vi+1) to map.indices, filling face.first_vertex, num_vertices,
// first_index and num_indices. Vertices keep surfedge order, which is clockwise seen from the
// front in Quake 1/2 maps (the Quake 3 convention too, so one cull setting serves all).
// lm_uv is set later by LightmapBuilder::place (zero until then).
void emitFacePolygon(Map& map, Face& face, std::span<const glm::vec3> polygon, const TexAxes& axes,
                     float tex_w, float tex_h, const glm::vec3& normal);

// Collects lightmap blocks into atlas pages of the Map.
class LightmapBuilder {
public:
    explicit LightmapBuilder(int32_t page_size = kLightmapPageSize)
        : m_atlas(page_size, page_size) {}

    // Places the face's styles side by side (style k at x + k * ext.width) in a page, copies the
    // RGB luxels from `rgb` starting at byte `offset` (styles consecutive, width * height * 3
    // bytes each), fills face.lightmap_page / lightmap_rect and sets lm_uv of the face's
    // vertices (luxel centres, style 0). A negative offset gives a black block (the engines
    // draw an unlit face of a lit map black). Fails with BadLightmap when the data runs past
    // `rgb`, or when the atlas is full.
    core::Status place(Map& map, Face& face, const LightmapExtents& ext, const TexAxes& axes,
                       std::span<const uint8_t> rgb, int64_t offset, const std::string& lump,
                       int64_t face_index);

    // Moves the finished pages into the map (sets lightmap_width/height when any exist).
    void finish(Map& map);

private:
    LightmapAtlas m_atlas;
    std::vector<LightmapPage> m_pages;
};

// Checks that the nodes under each head form trees: every child index in range (the parser has
// checked that already) and no node reached twice in one walk (a cycle or shared subtree).
// Walks with an explicit stack bounded by the node count, never recursion.
core::Status validateNodeTrees(const Map& map, std::span<const int32_t> heads);

// Fills Submodel::entity/origin/angles from the entity whose "model" key is "*N", and marks
// models owned by trigger_* entities invisible. Shared by Q1, HL and Q2.
void bindSubmodelEntities(Map& map);

} // namespace bsp
