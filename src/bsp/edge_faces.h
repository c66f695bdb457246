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

#include "bsp/dropped.h"
#include "bsp/lightmap_atlas.h"
#include "bsp/map.h"
#include "core/byte_reader.h"
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

// A face's luxel grid. Luxel (i, j) lies at texel (texture_mins + (i, j) * luxel_size) of the
// axes the grid was made with; texture axes for the standard grid, or a DECOUPLED_LM face's
// world-to-luxel axes with luxel_size 1 and texture_mins 0.
struct LightmapExtents {
    std::array<int32_t, 2> texture_mins{}; // bmin * luxel_size, in texels
    std::array<int32_t, 2> extents{};      // (bmax - bmin) * luxel_size, in texels
    int32_t width = 0;                     // luxels: extents / luxel_size + 1
    int32_t height = 0;
    int32_t luxel_size = 16; // texels per luxel: 16, or 1 << LMSHIFT (BSPX)
    // Blocks per style in the data: 1, or 4 for Source's bump-lit faces (the flat one, then the
    // three bump basis directions). The extra blocks go to the page after all the flat ones
    // (Face::bump_light); the data holds the flat blocks of every style first, then style 0's
    // three directions, style 1's, ...
    int32_t blocks_per_style = 1;
};

// Largest luxel grid side accepted before a face's lightmap is dropped (quakespasm rejects
// extents over 2000 texels = 126 luxels for non-special faces; some HL and Q2 compilers go
// further, so we keep a generous cap that still bounds memory).
inline constexpr int32_t kMaxLightmapSide = 256;

// The grid of `luxel_size` texels per luxel (a power of two, 1..kMaxLuxelSize): bmin =
// floor(min / luxel_size), bmax = ceil(max / luxel_size), as quakespasm's CalcSurfaceExtents
// does with 16 and QuakeSpasm-Spiked / FTE with 1 << LMSHIFT. Non-finite texture axes give
// width = height = INT32_MAX (callers drop such lightmaps).
inline constexpr int32_t kMaxLuxelSize = 1 << 12;
LightmapExtents computeLightmapExtents(std::span<const glm::vec3> polygon, const TexAxes& axes,
                                       int32_t luxel_size = 16);

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
    // draw an unlit face of a lit map black). `dirs`, when not empty, holds light directions
    // laid out as `rgb`; they are copied to the same place in pages parallel to the light
    // (Map::deluxe_pages). A block that runs past `rgb` or `dirs` is copied as far as they go,
    // the rest black, with a warning (finish() adds it). Fails with BadLightmap when the grid is
    // outside 1..kMaxLightmapSide luxels or the atlas is full.
    core::Status place(Map& map, Face& face, const LightmapExtents& ext, const TexAxes& axes,
                       std::span<const uint8_t> rgb, int64_t offset, const std::string& lump,
                       int64_t face_index, std::span<const uint8_t> dirs = {});

    // Moves the finished pages into the map (sets lightmap_width/height when any exist) and
    // adds the warnings of blocks that ran past their data.
    void finish(Map& map);

private:
    LightmapAtlas m_atlas;
    DroppedReferences m_dropped;
    std::vector<LightmapPage> m_pages;
    std::vector<LightmapPage> m_deluxe; // parallel to m_pages once any face brings directions
};

// True when `styles` blocks of ext.width * ext.height luxels of `bytes_per_luxel` bytes at byte
// `offset` lie inside `size` bytes of lighting (and the grid is within kMaxLightmapSide).
bool lightmapFits(const LightmapExtents& ext, int styles, int64_t offset, uint64_t size,
                  int bytes_per_luxel = 3);

// One record of the faces lump of an edge-based format (Quake 1, Half-Life, Quake 2), decoded
// from whichever record layout the version uses.
struct EdgeFaceRecord {
    int64_t plane = 0, side = 0, first_edge = 0, num_edges = 0, texinfo = 0;
    std::array<uint8_t, 4> styles{};
    int32_t lightofs = -1;
};

// Builds the faces of an edge-based map, one record at a time: the polygon from the edges, its
// vertices and triangles in the map, and its lightmap in the atlas. What differs per game
// (record layout, which texinfo a face names, which faces are lit, the lighting data) stays
// with the parser.
class EdgeFaceBuilder {
public:
    // Sizes map.faces for `face_count` records and reserves vertices for the surfedges.
    EdgeFaceBuilder(Map& map, const EdgeGeometry& geo, uint64_t face_count);

    // Checks the record's plane and texinfo (against `texinfo_count`), collects its polygon and
    // emits it as map.faces[index] with `material`, the record's styles, `axes` and the
    // texture size its uv are divided by (1: texels). Errors name faces[index].
    core::Status emit(uint64_t index, const EdgeFaceRecord& record, uint64_t texinfo_count,
                      int32_t material, const TexAxes& axes, float tex_w, float tex_h);
    // The lightmap of the face emit() just made, from `lighting` at byte `offset`. A face with
    // no lightmap data (negative offset, or no styles) gets none: it is marked Face::unlit (the
    // game's rule gives it its light) and counted in map.unlit_face_count. One wider than
    // kMaxLightmapSide luxels is left unlit too, counted apart.
    core::Status light(uint64_t index, const TexAxes& axes, std::span<const uint8_t> lighting,
                       int64_t offset);
    // As light(), with the luxel grid given (`ext`, on `axes`) rather than the standard one,
    // and light directions (`dirs`, laid out as `lighting`, or empty).
    core::Status light(uint64_t index, const TexAxes& axes, const LightmapExtents& ext,
                       std::span<const uint8_t> lighting, int64_t offset,
                       std::span<const uint8_t> dirs);
    // The polygon of the face emit() just made.
    std::span<const glm::vec3> polygon() const { return m_poly; }
    // Marks the face emit() just made as having no lightmap data (see light()).
    void unlit(uint64_t index);
    // Moves the lightmap pages into the map and warns about the faces left unlit.
    void finish();

private:
    Map& m_map;
    EdgeGeometry m_geo;
    LightmapBuilder m_lightmaps;
    std::vector<glm::vec3> m_poly;
    size_t m_oversized = 0;
};

// The model lump of Quake 1, Half-Life and Quake 2: `count` records of `record_size` bytes
// holding mins and maxs (floats) at 0 and 12, the head node (int32) at 36 and the face range
// (firstface, numfaces int32) at `faces_at`, given to each model with setModelFaces. A head
// must name a node, or with `head_may_be_leaf` (Quake 2) a leaf (-1 - leaf). The heads are
// returned for validateNodeTrees. Errors: no world model, a head or face range out of range.
core::Result<std::vector<int32_t>> readEdgeModels(Map& map, const core::ByteReader& r,
                                                  uint64_t count, uint64_t record_size,
                                                  uint64_t faces_at, bool head_may_be_leaf);

// Gives model `index` the faces [first, first + num) and marks them as its own (the world,
// model 0, leaves its faces' submodel at 0). IndexOutOfRange naming models[index].firstface
// when the range is outside the faces.
core::Status setModelFaces(Map& map, uint64_t index, int64_t first, int64_t num);

// Checks that the nodes under each head form trees: every child index in range (the parser has
// checked that already) and no node reached twice in one walk (a cycle or shared subtree).
// Walks with an explicit stack bounded by the node count, never recursion.
core::Status validateNodeTrees(const Map& map, std::span<const int32_t> heads);

// Fills Submodel::entity/origin/angles from the entity whose "model" key is "*N", and marks
// models owned by trigger_* entities invisible. Shared by Q1, HL and Q2.
void bindSubmodelEntities(Map& map);

} // namespace bsp
