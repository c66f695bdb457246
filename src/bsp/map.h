// The common map model: what every BSP parser produces and everything after it consumes.
//
// Plain structs and index arrays, no pointers, no GL ids and no per-frame fields, so a worker
// thread can build a Map and hand it over whole. It holds what the file says (facts): its
// format, geometry, lumps, whether it has light data, its entities. What a game does with them
// (lighting curves, warp, eye height, sky naming, entity tables) is the game's rule, in
// src/game/ (game::profileFor). Brush models' placement and blending (Submodel::origin,
// visible, blend, ...) are the spawn state the game layer writes once after parsing
// (game::spawnBrushModels).
//
// Conventions
// - Units and axes are the games' own: Quake units, right-handed, +Z up.
// - Node children: >= 0 is a node index, < 0 is a leaf, leaf index = -1 - child.
// - Indices in Face, Leaf and Submodel ranges are absolute into the Map's arrays.
// - All lightmap pages of one map have the same size (one array texture on the GPU).
#pragma once

#include "bsp/collision.h"
#include "bsp/cube_maps.h"
#include "bsp/overlays.h"
#include "bsp/source_props.h"
#include "bsp/world_lights.h"

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <glm/vec2.hpp>
#include <glm/vec3.hpp>
#include <glm/vec4.hpp>

namespace bsp {

enum class Format : uint8_t {
    Quake1,     // BSP29
    Quake1Bsp2, // "BSP2": 32-bit faces/edges/marksurfaces/clipnodes, float node/leaf bounds
    Quake1Rmq,  // "2PSB": BSP2 records with 16-bit node/leaf bounds
    HalfLife,   // BSP30
    Quake2,     // IBSP 38
    Quake2Qbsp, // "QBSP" 38 (Quake 2 re-release): 32-bit indices, float node/leaf bounds
    Quake3,     // IBSP 46
    Quake3Rtcw, // IBSP 47 (Return to Castle Wolfenstein / Enemy Territory), same layout as 46
    Qfusion,    // FBSP 1 (Warsow / Qfusion / Nuclide)
    Source,     // VBSP 19-21 (Valve) and 25 (Strata Source)
};

std::string_view formatName(Format f);

// One entry of the file's lump directory, as found and as interpreted (for --info).
struct LumpInfo {
    std::string name;
    uint32_t offset = 0;
    uint32_t length = 0;
    uint32_t record_size = 0; // 0 for lumps without fixed-size records (entities, vis)
    uint32_t count = 0;       // records (length / record_size) or bytes when record_size is 0
};

// A BSPX extension lump found after the last regular lump (Quake 1 family).
struct ExtraLump {
    std::string name;
    uint32_t offset = 0;
    uint32_t length = 0;
    bool used = false; // the parser drew on it (a lump of the wrong size, or unknown, is not)
};

struct Plane {
    glm::vec3 normal{0.0f, 0.0f, 1.0f};
    float dist = 0.0f;
};

struct Node {
    int32_t plane = 0;
    std::array<int32_t, 2> children{}; // >= 0 node, < 0 leaf (-1 - child)
    glm::vec3 mins{0.0f};
    glm::vec3 maxs{0.0f};
};

struct Leaf {
    int32_t cluster = -1; // -1: outside the map or solid, never drawn through the PVS
    int32_t area = 0;
    uint32_t contents = 0; // game-neutral LeafContents bits; 0: empty
    glm::vec3 mins{0.0f};
    glm::vec3 maxs{0.0f};
    uint32_t first_leaf_face = 0; // range into Map::leaf_faces
    uint32_t num_leaf_faces = 0;
};

enum LeafContents : uint32_t {
    kContentsSolid = 1u << 0,
    kContentsLiquid = 1u << 1, // any liquid; water unless one of the two below is set too
    kContentsSky = 1u << 2,
    kContentsSlime = 1u << 3, // with kContentsLiquid
    kContentsLava = 1u << 4,  // with kContentsLiquid
};

// How a brush model (door, platform, ...) is blended; the game layer translates entity keys
// into this (game::spawnBrushModels).
enum class BlendMode : uint8_t { Opaque, AlphaTest, Alpha, Additive };

// The placement and draw fields below the bounds are spawn state: the parser binds the owning
// entity and copies its origin and angles; the game layer then moves, hides and blends the model
// as the game code does at spawn (game::spawnBrushModels).
struct Submodel {
    glm::vec3 mins{0.0f};
    glm::vec3 maxs{0.0f};
    uint32_t first_face = 0;
    uint32_t num_faces = 0;
    // Placement: models other than 0 are drawn translated by origin and rotated by angles
    // (pitch, yaw, roll in degrees), both taken from the entity that owns the model.
    glm::vec3 origin{0.0f};
    glm::vec3 angles{0.0f};
    int32_t entity = -1; // owning entity index, -1 for the world and unowned models
    BlendMode blend = BlendMode::Opaque;
    float alpha = 1.0f;
    glm::vec3 colour{1.0f};
    bool visible = true; // false for triggers and other brushes a game never draws
    // false: drawn without its lightmaps, the texture at full light (game/halflife.cpp).
    bool lightmapped = true;
    // false: `colour` alone, no texture (game/halflife.cpp).
    bool textured = true;
};

enum class FaceKind : uint8_t {
    Polygon,   // planar polygon, already triangulated into indices
    Mesh,      // triangle soup (Quake 3 misc_model)
    Patch,     // Bezier patch: vertices are the control grid, tessellated by the scene
    Billboard, // flare: first vertex holds the position
};

// Surface properties in a game-neutral vocabulary; set on materials by each parser.
enum SurfaceFlags : uint32_t {
    kSurfSky = 1u << 0,         // draw with the sky, not as a world face
    kSurfLiquid = 1u << 1,      // turbulent warp (water, slime, lava)
    kSurfTranslucent = 1u << 2, // blended after opaque surfaces (Material::alpha)
    kSurfAlphaTest = 1u << 3,   // fence / grate: transparent texels are cut out
    kSurfNoDraw = 1u << 4,      // never drawn (tool, trigger, clip, hint)
    kSurfFullbright = 1u << 5,  // no lightmap: the texture at full intensity
    kSurfFlowing = 1u << 6,     // texture scrolls
    kSurfAdditive = 1u << 7,    // additive blending
    kSurfFog = 1u << 8,         // fog volume surface
    kSurfNoCull = 1u << 9,      // two-sided
    kSurfWarp = 1u << 10,       // turbulent texture warp (Quake 1 / Quake 2 liquids)
    kSurfSkyLayers = 1u << 11,  // sky texture of two scrolling layers side by side (Quake 1):
                                // left half the front layer (alpha 0 = see-through), right the back
};

// One texture or shader name as the map refers to it. The content layer turns it into pixels.
// As parsed: what the content adds (shader-script flags, texture sizes) and how the scene draws
// the material (pass, sort, blend order) are resolved beside the map (scene/material_table.h).
struct Material {
    std::string name;        // as stored in the map ("textures/base_wall/concrete", "+0slime")
    uint32_t flags = 0;      // SurfaceFlags the map itself declares
    uint32_t game_flags = 0; // the game's own surface flags, for display only
    uint32_t game_contents = 0;
    int32_t width = 0;  // texel size when the map knows it (Q1/HL miptex, Q2 texinfo/wal);
    int32_t height = 0; // 0 when unknown (Quake 3)
    float alpha = 1.0f; // for kSurfTranslucent
    // Light of a surface the game draws without any lightmap, in place of the vertex colour
    // times the lighting rule's lightmap_scale (game::LightRule); 0: lit as usual. Quake 2's GL3
    // renderer draws TRANS33 / TRANS66 at 1 (the texture times intensity) and warped surfaces at
    // 0.5, lava at 1 (yquake2 gl3_warp.c GL3_EmitWaterPolys, lightScaleForTurb).
    float fullbright_light = 0.0f;
    // kSurfFlowing: texture repeats per second the texture scrolls towards -s. Quake 2's GL3
    // renderer: 64 repeats per 40 s on lit surfaces (gl3_surf.c GL3_DrawGLFlowingPoly), one
    // 64-texel tile per 2 s on warped ones (gl3_warp.c GL3_EmitWaterPolys).
    float flow_speed = 0.0f;
    int32_t embedded = -1;  // index into Map::embedded_textures, -1 when stored elsewhere
    int32_t anim_next = -1; // next material of an animation chain, -1 for none
    float anim_fps = 0.0f;  // frames per second of that chain
    // True when the map does not know the texture's size (Quake 2: sizes live in the .wal),
    // so the vertices' uv are in texels; the scene's mesh divides them by the decoded size.
    bool uv_in_texels = false;
};

// Texture pixels stored in the BSP itself (Quake 1 / Half-Life miptex).
struct EmbeddedTexture {
    int32_t width = 0;
    int32_t height = 0;
    std::vector<uint8_t> indices; // width * height palette indices (mip level 0)
    std::vector<uint8_t> palette; // 768 bytes when the texture carries its own (Half-Life)
};

struct Vertex {
    glm::vec3 position{0.0f};
    glm::vec2 uv{0.0f};    // texture coordinates, in texture repeats
    glm::vec2 lm_uv{0.0f}; // lightmap coordinates in [0,1] of the face's page, style 0
    glm::vec3 normal{0.0f, 0.0f, 1.0f};
    // Vertex colour (vertex-lit faces). The alpha is also the weight of a material's second
    // layer (content::TextureInfo::layer2: 0 the first texture, 255 the second), as Source's
    // vertex format carries a displacement's painted alpha in its colour's alpha
    // (lightmappedgeneric_vs20.fxc). One channel serves both: no map has a face whose material
    // has a second layer and whose alpha means anything else (Quake 3's alphaGen vertex reads
    // it only on shader-script stages, which never have a second layer), and a new field would
    // widen every vertex of every map.
    glm::u8vec4 colour{255, 255, 255, 255};
};

inline constexpr int kMaxLightStyles = 4;
inline constexpr uint8_t kNoStyle = 255;

// A face's block in a lightmap page, in texels. With several styles the blocks sit side by
// side: style k occupies [x + k * w / styles, ...), so the shader offsets lm_uv by k * step.
struct LightmapRect {
    uint16_t x = 0, y = 0, w = 0, h = 0;
};

struct Face {
    FaceKind kind = FaceKind::Polygon;
    int32_t material = -1;      // index into Map::materials
    int32_t lightmap_page = -1; // -1: no lightmap (vertex colours, or fullbright)
    LightmapRect lightmap_rect;
    std::array<uint8_t, kMaxLightStyles> styles{0, kNoStyle, kNoStyle, kNoStyle};
    uint32_t first_vertex = 0; // range into Map::vertices
    uint32_t num_vertices = 0;
    uint32_t first_index = 0; // range into Map::indices (absolute vertex indices, triangles)
    uint32_t num_indices = 0;
    uint16_t patch_width = 0; // control grid size for FaceKind::Patch (odd, >= 3)
    uint16_t patch_height = 0;
    glm::vec3 normal{0.0f, 0.0f, 1.0f};
    int32_t fog = -1; // index into Map::fogs
    int32_t submodel = 0;
    // The face should carry a lightmap but the file has no samples for it (lightofs -1, or no
    // styles): its vertices are white and lightmap_page is -1; the game's rule decides its light
    // (game::LightRule::unlit_faces, applied by the scene's mesh). Counted in
    // Map::unlit_face_count.
    bool unlit = false;
    // Over 0: the face is not drawn while the eye is farther than its square root from the face's
    // centre (a Source overlay's fade distance, bsp/overlays.h). 0: drawn at any distance.
    float max_distance_sq = 0.0f;
    // Source radiosity normal mapping (SURF_BUMPLIGHT): after the face's style blocks
    // (lightmap_rect, which covers those only) its page holds three more blocks per style, the
    // light arriving along each bump basis direction: style k's direction b at
    // x + (styles + 3 * k + b) * w / styles (docs/source.md "Bump-mapped light").
    bool bump_light = false;

    int numStyles() const {
        int n = 0;
        while (n < kMaxLightStyles && styles[n] != kNoStyle)
            ++n;
        return n;
    }
};

struct LightmapPage {
    std::vector<uint8_t> rgb; // Map::lightmap_width * Map::lightmap_height * 3
};

// Where the lightmap pages that faces name are stored.
enum class LightmapStorage : uint8_t {
    InMap,    // Map::lightmap_pages (or none at all)
    External, // q3map2 -external: the lump is empty and page N is the image maps/NAME/lm_NNNN
              // beside the map; faces keep their page numbers and their vertices' lm_uv span
              // [0,1] of that image. The scene loads them (scene/lightmap_set.h).
};

// q3map2 -deluxe stores a light direction map after each lightmap: even page numbers are
// light, odd ones direction, and faces name the even ones. How a map says so:
enum class DeluxeMaps : uint8_t {
    None,         // the format has none
    Auto,         // no worldspawn key: decided from the pages as DarkPlaces does
    ModelSpace,   // worldspawn "deluxeMaps" "1"
    TangentSpace, // worldspawn "deluxeMaps" "2"
};

// Decompressed potentially-visible sets: one row of row_size bytes per cluster, bit j of a
// row set when cluster j may be seen from the row's cluster.
struct Vis {
    int32_t num_clusters = 0;
    int32_t row_size = 0;
    std::vector<uint8_t> rows;

    bool present() const { return num_clusters > 0 && !rows.empty(); }
    const uint8_t* row(int32_t cluster) const {
        if (cluster < 0 || cluster >= num_clusters)
            return nullptr;
        return rows.data() + static_cast<size_t>(cluster) * static_cast<size_t>(row_size);
    }
    bool visible(int32_t from, int32_t to) const {
        const uint8_t* r = row(from);
        if (!r || to < 0 || to >= num_clusters)
            return !present();
        return (r[to >> 3] >> (to & 7)) & 1;
    }
};

struct Entity {
    std::vector<std::pair<std::string, std::string>> pairs;

    // Value of the first pair with this key (keys compare case-sensitively, as the games do),
    // or an empty view.
    std::string_view get(std::string_view key) const;
    bool has(std::string_view key) const;
    std::string_view classname() const { return get("classname"); }
    // "x y z" -> vec3; nullopt when missing or not three numbers.
    std::optional<glm::vec3> vec3(std::string_view key) const;
    std::optional<float> number(std::string_view key) const;
};

struct SpawnPoint {
    glm::vec3 origin{0.0f};
    float yaw = 0.0f; // degrees
    float pitch = 0.0f;
    std::string classname;
};

// Quake 3 fog volume.
struct Fog {
    std::string shader;
    int32_t brush = -1; // -1: q3map2's global fog (no brush; the box is open on every side)
    int32_t visible_side = -1;
    // The brush's box, from its axial sides (fog brushes are boxes; ioquake3 R_LoadFogs reads
    // the same planes).
    glm::vec3 mins{0.0f};
    glm::vec3 maxs{0.0f};
    // The visible side's plane turned inward (normal into the fog, as ioquake3's
    // fog->surface), so dot(normal, p) - dist > 0 inside. Only with visible_side >= 0.
    Plane surface;
};

// A lattice of light samples for lighting models (Quake 3's light grid: ioquake3 tr_bsp.c
// R_LoadLightGrid). Point (x, y, z) sits at origin + (x, y, z) * cell_size and is stored at
// x + counts.x * (y + counts.y * z). Colours are the compiler's bytes, before any overbright
// shift; a point with zero ambient light lies in solid and is skipped when sampling.
struct LightGridPoint {
    std::array<uint8_t, 3> ambient{};
    std::array<uint8_t, 3> directed{};
    glm::vec3 direction{0.0f, 0.0f, 1.0f}; // unit vector toward the directed light
};
struct LightGrid {
    glm::vec3 origin{0.0f};
    glm::vec3 cell_size{64.0f, 64.0f, 128.0f};
    std::array<int32_t, 3> counts{}; // points along x, y, z; each >= 1
    std::vector<LightGridPoint> points;
};

// Quake 2 areas: leaves carry an area, areas list the portals (doors) that join them.
struct Area {
    int32_t num_portals = 0;
    int32_t first_portal = 0; // range into Map::area_portals
};
struct AreaPortal {
    int32_t portal = 0;     // portal number, opened and closed by doors at run time
    int32_t other_area = 0; // area on the other side
};

struct Map {
    // Identity
    std::string name; // file name, for messages and the UI
    Format format = Format::Quake3;
    int32_t version = 0;
    std::vector<LumpInfo> lumps;
    std::vector<ExtraLump> extra_lumps; // BSPX
    std::vector<std::string> warnings;  // non-fatal problems found while loading

    // Tree
    std::vector<Plane> planes;
    std::vector<Node> nodes;
    std::vector<Leaf> leaves;
    std::vector<uint32_t> leaf_faces; // indices into faces
    std::vector<Submodel> submodels;  // 0 is the world

    // Surfaces
    std::vector<Material> materials;
    std::vector<EmbeddedTexture> embedded_textures;
    std::vector<Face> faces;
    std::vector<Vertex> vertices;
    std::vector<uint32_t> indices;

    // Lighting
    int32_t lightmap_width = 0;
    int32_t lightmap_height = 0;
    std::vector<LightmapPage> lightmap_pages;
    // The file holds lighting data (a lighting lump, a .lit beside it, a BSPX lighting lump,
    // Source's LDR or HDR lighting, q3map2's pages), whatever its faces use. How a game draws
    // a map with or without it is the game's rule (game/profile.h).
    bool has_light_data = false;
    LightmapStorage lightmap_storage = LightmapStorage::InMap;
    DeluxeMaps deluxe_maps = DeluxeMaps::None;
    // Light directions beside the pages, page for page and texel for texel (Quake 1 BSPX
    // LIGHTINGDIR or a .lux file: ericw-tools writes each luxel's direction in the face's
    // tangent space, s and t texture axes and the normal, mapped from [-1,1] to [0,255]).
    // Empty when the map has none; q3map2's deluxe maps are pages of their own (deluxe_maps).
    std::vector<LightmapPage> deluxe_pages;
    // The sets of lighting the file holds ("LDR", "HDR": Source) and the one drawn; empty for
    // formats with one.
    std::vector<std::string> lighting_variants;
    std::string lighting_variant;
    // Faces without lightmap data (Face::unlit).
    uint32_t unlit_face_count = 0;
    // Faces that keep three directional lightmaps beside their flat one (Face::bump_light).
    uint32_t bump_light_face_count = 0;

    // Visibility
    Vis vis;

    // Entities
    std::string entity_text;
    std::vector<Entity> entities;

    // Per-format extras
    std::vector<Fog> fogs;
    // An archive stored in the map itself (Source's pakfile lump: a zip of the map's own
    // materials and cube maps); empty when none.
    std::vector<uint8_t> embedded_archive;
    std::vector<Area> areas;              // Quake 2
    std::vector<AreaPortal> area_portals; // Quake 2
    std::optional<LightGrid> light_grid;  // absent: none in the file, or one that did not fit
    // Source: the static and detail props of the game lump and the leaf ambient cubes (LDR and
    // HDR sets), as stored (bsp/source_props.h); empty for other formats.
    StaticProps static_props;
    DetailProps detail_props;
    LeafAmbientLighting leaf_ambient;
    LeafAmbientLighting leaf_ambient_hdr;
    // Source: the worldlights lumps (15 and 54), fixed up as the engine loads them
    // (bsp/world_lights.h); empty for other formats or when the lump is absent.
    std::vector<WorldLight> world_lights;
    std::vector<WorldLight> world_lights_hdr;
    // Source: the cube-map samples of the cubemaps lump (42, bsp/cube_maps.h), as stored; empty
    // for other formats, when the lump is empty, or when it could not be read (a warning).
    std::vector<CubeMapSample> cube_maps;
    // Source overlays (bsp/overlays.h): how many the overlays lump holds and what became of
    // them; their fragments are faces after the map's own.
    uint32_t overlay_count = 0;
    OverlayFaceStats overlay_faces;

    // Collision: clip hulls (Quake 1 family) or brushes (Quake 2 / 3), see collision.h
    Collision collision;

    glm::vec3 worldMins() const;
    glm::vec3 worldMaxs() const;
};

} // namespace bsp
