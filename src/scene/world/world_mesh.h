// Map -> GPU-ready arrays (no GL here, so tests can count triangles).
//
// Vertices are in the layout the world shader reads; the index buffer is laid out sorted by
// (pass, submodel, material), so the visible faces of one material form few contiguous index
// runs that merge into one multi-draw. Patches are tessellated at a chosen level.
#pragma once

#include "bsp/map.h"
#include "game/profile.h"
#include "scene/world/lightmap_set.h"
#include "scene/world/material_table.h"

#include <cstdint>
#include <optional>
#include <vector>

#include <glm/vec2.hpp>
#include <glm/vec3.hpp>
#include <glm/vec4.hpp>

namespace scene {

struct WorldVertex {
    glm::vec3 position;
    glm::vec2 uv;
    glm::vec2 lm_uv;
    glm::vec3 normal;
    glm::u8vec4 colour;
    glm::u8vec4 styles; // light style per lightmap slot, 255 = unused
    float lm_layer;     // lightmap page (array layer); < 0: no lightmap (vertex colour),
                        // kLayerEachStyle: the colour once for each of its styles
    float lm_step;      // u offset between style blocks of this face in the page
};
// The lightmap layer of a face without light data lit by game::UnlitFaces::FullbrightEachStyle:
// its light is the vertex colour times each of its styles' values, summed (the colour alone
// when it lists none).
inline constexpr float kLayerEachStyle = -2.0f;
// Added to the lightmap layer of a bump-lit face (bsp::Face::bump_light: three directional
// blocks per style after its flat ones, lm_step apart): the page is still the nearest whole
// layer, as GL picks an array layer (floor(layer + 0.5)), so only the world shader's BUMP
// variant reads the mark (fract > 0.125) and no vertex grows a field.
inline constexpr float kBumpLitLayer = 0.25f;
// The light of `v` at the style values `style_value` (values of styles 0..63), before the
// game's rule, where it has no lightmap: the colour, or for kLayerEachStyle the colour per style.
glm::vec3 vertexLight(const WorldVertex& v, const float* style_value);
static_assert(sizeof(WorldVertex) == 56, "WorldVertex layout is mirrored in render/world_gpu.cpp");

// Per-vertex data for Quake 3 autosprite and autosprite2 faces (scene/world/deforms.h), parallel to
// WorldMesh::vertices (zero for vertices of other faces and of groups left undeformed).
struct SpriteVertex {
    glm::vec3 centre{0.0f}; // autosprite: group centre; autosprite2: this vertex's edge midpoint
    float a = 0.0f;         // autosprite: +-radius along the view's left; autosprite2: +-half the
                            // short edge along the minor axis. 0: leave the vertex alone
    glm::vec3 major{0.0f};  // autosprite2: midpoint of the other short edge minus centre
    float b = 0.0f;         // autosprite: +-radius along the view's up
};
static_assert(sizeof(SpriteVertex) == 32, "SpriteVertex is uploaded as two vec4 attributes");

struct MeshFace {
    uint32_t first_index = 0; // into WorldMesh::indices
    uint32_t num_indices = 0; // 0: not drawn (nodraw, billboard, degenerate)
    int32_t material = -1;
    int32_t submodel = 0;
    Pass pass = Pass::Opaque;
    uint32_t order = 0;           // position of this face in the sorted index layout
    glm::vec3 center{0.0f};       // for back-to-front sorting of blended faces
    float max_distance_sq = 0.0f; // bsp::Face::max_distance_sq: culled beyond it from center
};

struct WorldMeshOptions {
    int patch_level = 4; // subdivisions per Bezier segment edge
    // The pages the mesh is drawn with (MapBundle::lightmaps): faces' lightmap layers and
    // style steps come from it. nullptr: the map's own pages as the parser numbered them.
    const LightmapSet* lightmaps = nullptr;
    // Also build the faces a game never draws: nodraw materials (clip, trigger, hint, ...) and
    // invisible brush models (triggers). The viewer never sets it; export --export-all does.
    bool include_hidden = false;
    // The light of faces without lightmap data (bsp::Face::unlit) by the game's rule
    // (game::LightRule::unlit_faces); nullopt: the rule of the map's own game. A brush model
    // file drawn in a map takes the world's (scene/brush_model.h).
    std::optional<game::UnlitFaces> unlit_faces;
};

struct WorldMesh {
    std::vector<WorldVertex> vertices;
    std::vector<uint32_t> indices;
    std::vector<MeshFace> faces;         // parallel to bsp::Map::faces
    std::vector<uint32_t> order_to_face; // sorted layout position -> face index
    // Autosprite data parallel to `vertices`, empty when no face needs it: it lives with the
    // vertices it describes, so a rebuilt mesh can never be drawn with another mesh's sprites
    // (scene::buildMapMesh fills it).
    std::vector<SpriteVertex> sprites;
    // The resolved materials the mesh was built from (parallel to bsp::Map::materials), so
    // what is built from the mesh (scene::Visibility, flares, the GPU set) cannot see another
    // resolution than its passes and uv came from.
    MaterialTable materials;
    int patch_level = 0;
    uint32_t drawable_faces = 0; // faces with num_indices > 0
    uint64_t triangles = 0;
};

// The mesh of `map` as `materials` (resolveMaterials, parallel to map.materials) resolve it:
// their flags pick each face's pass and leave nodraw faces out, and uv in texels are divided
// by the resolved texel size. The map is only read.
WorldMesh buildWorldMesh(const bsp::Map& map, const MaterialTable& materials,
                         const WorldMeshOptions& options = {});
// The same with the table resolved from the map alone (no shader scripts, no texture sizes):
// what a map built in code needs.
WorldMesh buildWorldMesh(const bsp::Map& map, const WorldMeshOptions& options = {});

} // namespace scene
