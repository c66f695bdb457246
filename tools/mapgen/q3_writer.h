// Quake 3 (IBSP 46) writer: an in-memory description in, the bytes of a .bsp file out.
//
// Used to make bspview's demo map and the synthetic maps the tests load. The layout follows
// the id Tech 3 file format as documented in "Unofficial Quake 3 Map Specs" (Kekoa Proudfoot)
// and ioquake3's code/qcommon/qfiles.h (dheader_t, dshader_t, dleaf_t, dsurface_t, ...):
// "IBSP", version 46, a directory of 17 (offset, length) pairs, then the lumps.
//
// Byte layout (deterministic, so generated files can be compared byte for byte):
// - the 144-byte header, then lumps 0..16 in directory order, each starting on a 4-byte
//   boundary with zero padding between them; empty lumps get the current offset and length 0;
// - all numbers little-endian, records packed exactly as the format defines them;
// - the entity lump is the text followed by one NUL, which the length includes (as q3map2
//   writes it).
//
// The writer does not validate the description: it writes what it is given, so tests can
// also produce broken files on purpose (indices out of range, odd lump sizes). Call
// validateQ3Map() first when a correct file is wanted.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include <glm/vec2.hpp>
#include <glm/vec3.hpp>

namespace mapgen {

inline constexpr int32_t kQ3Version = 46;
inline constexpr int kQ3LumpCount = 17;
inline constexpr int kQ3HeaderSize = 8 + 8 * kQ3LumpCount;
inline constexpr int kQ3LightmapSize = 128; // texels per side of one lightmap page
inline constexpr size_t kQ3LightmapBytes = size_t{kQ3LightmapSize} * kQ3LightmapSize * 3;
inline constexpr size_t kQ3NameLength = 64; // shader and fog names, NUL-padded

// Lump order in the directory (ioquake3 qfiles.h LUMP_*).
enum class Q3Lump : int {
    Entities = 0,
    Shaders = 1,
    Planes = 2,
    Nodes = 3,
    Leafs = 4,
    LeafSurfaces = 5,
    LeafBrushes = 6,
    Models = 7,
    Brushes = 8,
    BrushSides = 9,
    DrawVerts = 10,
    DrawIndexes = 11,
    Fogs = 12,
    Surfaces = 13,
    Lightmaps = 14,
    LightGrid = 15,
    Visibility = 16,
};

// Record size of each lump in bytes, 0 for variable-size lumps (entities, visibility).
uint32_t q3RecordSize(Q3Lump lump);
const char* q3LumpName(Q3Lump lump);

// Quake 3 content and surface flags the demo maps use (ioquake3 surfaceflags.h).
inline constexpr int32_t kQ3ContentsSolid = 0x1;
inline constexpr int32_t kQ3SurfNoDraw = 0x80;

struct Q3Texture {
    std::string name; // at most 63 characters are stored
    int32_t flags = 0;
    int32_t contents = 0;

    bool operator==(const Q3Texture&) const = default;
};

struct Q3Plane {
    glm::vec3 normal{0.0f, 0.0f, 1.0f};
    float dist = 0.0f;

    bool operator==(const Q3Plane&) const = default;
};

struct Q3Node {
    int32_t plane = 0;
    std::array<int32_t, 2> children{}; // front, back; negative: leaf -(child + 1)
    glm::ivec3 mins{0};
    glm::ivec3 maxs{0};

    bool operator==(const Q3Node&) const = default;
};

struct Q3Leaf {
    int32_t cluster = -1; // -1: opaque (solid) leaf
    int32_t area = -1;
    glm::ivec3 mins{0};
    glm::ivec3 maxs{0};
    int32_t first_leaf_face = 0; // range into Q3MapDesc::leaf_faces
    int32_t num_leaf_faces = 0;
    int32_t first_leaf_brush = 0; // range into Q3MapDesc::leaf_brushes
    int32_t num_leaf_brushes = 0;

    bool operator==(const Q3Leaf&) const = default;
};

struct Q3Model {
    glm::vec3 mins{0.0f};
    glm::vec3 maxs{0.0f};
    int32_t first_face = 0;
    int32_t num_faces = 0;
    int32_t first_brush = 0;
    int32_t num_brushes = 0;

    bool operator==(const Q3Model&) const = default;
};

struct Q3Brush {
    int32_t first_side = 0;
    int32_t num_sides = 0;
    int32_t texture = 0;

    bool operator==(const Q3Brush&) const = default;
};

struct Q3BrushSide {
    int32_t plane = 0; // outward-facing plane
    int32_t texture = 0;

    bool operator==(const Q3BrushSide&) const = default;
};

struct Q3Vertex {
    glm::vec3 position{0.0f};
    glm::vec2 uv{0.0f};    // texture coordinates, in texture repeats
    glm::vec2 lm_uv{0.0f}; // lightmap coordinates in [0,1] of the face's page
    glm::vec3 normal{0.0f, 0.0f, 1.0f};
    std::array<uint8_t, 4> colour{255, 255, 255, 255};

    bool operator==(const Q3Vertex&) const = default;
};

struct Q3Fog {
    std::string shader;
    int32_t brush = -1;
    int32_t visible_side = -1;

    bool operator==(const Q3Fog&) const = default;
};

enum class Q3FaceType : int32_t { Polygon = 1, Patch = 2, Mesh = 3, Billboard = 4 };

// One drawable surface (dsurface_t). For polygons and meshes, meshverts hold triangle
// indices relative to first_vertex, clockwise when seen from the front (the side the normal
// points to), as q3map2 writes them. For patches the vertices are the control grid, row by
// row, patch_size[0] wide and patch_size[1] high (both odd), and lm_vecs hold the grid's
// bounds (mins, maxs), which the engine uses for the level-of-detail origin.
struct Q3Face {
    int32_t texture = 0;
    int32_t fog = -1;
    Q3FaceType type = Q3FaceType::Polygon;
    int32_t first_vertex = 0;
    int32_t num_vertices = 0;
    int32_t first_meshvert = 0;
    int32_t num_meshverts = 0;
    int32_t lightmap = -1; // page index, -1: none
    std::array<int32_t, 2> lm_start{};
    std::array<int32_t, 2> lm_size{};
    glm::vec3 lm_origin{0.0f};           // world position of lightmap texel (0,0)
    std::array<glm::vec3, 2> lm_vecs{};  // world step per texel in s and t
    glm::vec3 normal{0.0f, 0.0f, 1.0f};  // stored as lightmapVecs[2]
    std::array<int32_t, 2> patch_size{}; // control grid width, height (patches)

    bool operator==(const Q3Face&) const = default;
};

struct Q3Lightmap {
    std::vector<uint8_t> rgb; // kQ3LightmapBytes: 128 rows of 128 RGB texels

    bool operator==(const Q3Lightmap&) const = default;
};

// One point of the light grid: ambient colour, directed colour and the direction towards the
// light as two angles in 1/256 turns: [0] from +Z (z = cos), [1] around Z from +X. This is how
// ioquake3's R_SetupEntityLightingGrid decodes bytes 6 and 7.
struct Q3LightGridPoint {
    std::array<uint8_t, 3> ambient{};
    std::array<uint8_t, 3> directed{};
    std::array<uint8_t, 2> direction{};

    bool operator==(const Q3LightGridPoint&) const = default;
};

// Uncompressed cluster visibility: num_clusters rows of row_size bytes, bit j of row i set
// when cluster j is potentially visible from cluster i.
struct Q3Vis {
    int32_t num_clusters = 0;
    int32_t row_size = 0;
    std::vector<uint8_t> bits;

    bool operator==(const Q3Vis&) const = default;
};

struct Q3MapDesc {
    std::string entities;
    std::vector<Q3Texture> textures;
    std::vector<Q3Plane> planes;
    std::vector<Q3Node> nodes;
    std::vector<Q3Leaf> leaves;
    std::vector<int32_t> leaf_faces;
    std::vector<int32_t> leaf_brushes;
    std::vector<Q3Model> models;
    std::vector<Q3Brush> brushes;
    std::vector<Q3BrushSide> brush_sides;
    std::vector<Q3Vertex> vertices;
    std::vector<int32_t> meshverts;
    std::vector<Q3Fog> fogs;
    std::vector<Q3Face> faces;
    std::vector<Q3Lightmap> lightmaps;
    std::vector<Q3LightGridPoint> light_grid;
    Q3Vis vis; // num_clusters == 0: the visibility lump is written empty

    bool operator==(const Q3MapDesc&) const = default;
};

// The file bytes for desc, laid out as described at the top of this header.
std::vector<uint8_t> writeQ3Bsp(const Q3MapDesc& desc);

// Checks every index and range of desc against the arrays it points into, patch grid sizes,
// lightmap page sizes, lm_uv ranges against each face's block and the vis row size.
// Returns an empty string when desc describes a valid map, else one line per problem
// (at most max_problems lines).
std::string validateQ3Map(const Q3MapDesc& desc, size_t max_problems = 20);

// One entry of the lump directory of a file written by writeQ3Bsp (or any IBSP file);
// {0, 0} when the file is too short to hold the directory.
struct Q3LumpEntry {
    uint32_t offset = 0;
    uint32_t length = 0;
};
Q3LumpEntry q3LumpEntry(std::span<const uint8_t> file, Q3Lump lump);

} // namespace mapgen
