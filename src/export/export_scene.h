// A loaded map as a scene to export (glTF 2.0, Wavefront OBJ): nodes, meshes grouped by
// material, materials with their alpha mode and lightmap page, in metres with +Y up. GL-free;
// the writers (export/export_gltf.h, export/export_obj.h) only serialise what this builds.
//
// The conventions (units, axes, the lightmap as TEXCOORD_1 and occlusion texture, what is left
// out by default) are documented for users in docs/export.md.
#pragma once

#include "scene/load/map_bundle.h"

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include <glm/gtc/quaternion.hpp>
#include <glm/gtc/type_precision.hpp>
#include <glm/vec2.hpp>
#include <glm/vec3.hpp>
#include <glm/vec4.hpp>

namespace exporter {

// The scene types the exporter reads, by their short names.
using scene::LightmapSet;
using scene::MapBundle;
using scene::MeshFace;
using scene::Pass;
using scene::ResolvedMaterial;
using scene::WorldMesh;
using scene::WorldMeshOptions;
using scene::WorldVertex;

// How the map's lighting reaches the exported file.
enum class ExportLighting : uint8_t {
    Lightmap, // lightmap pages as images, TEXCOORD_1 into them (glTF: the occlusion texture)
    Baked,    // the light at each vertex multiplied into COLOR_0, no second uv set
    None,     // textures only
};
std::string_view exportLightingName(ExportLighting lighting); // "lightmap", "baked", "none"

struct ExportOptions {
    float scale = 0.0254f; // metres per map unit (1 Quake unit = 1 inch)
    // Keep what is not drawn by default: sky, nodraw materials (clip, trigger, hint, skip, ...),
    // invisible brush models (triggers) and fog volume surfaces.
    bool include_hidden = false;
    ExportLighting lighting = ExportLighting::Lightmap;
    // Bezier patch subdivisions; 0: the level the bundle's mesh was built with.
    int patch_level = 0;
};

enum class AlphaMode : uint8_t { Opaque, Mask, Blend };
std::string_view alphaModeName(AlphaMode mode); // glTF's "OPAQUE", "MASK", "BLEND"

// One exported material: a map material drawn one way with one lightmap page.
struct ExportMaterial {
    // Index into bsp::Map::materials (and MapBundle::textures): the first of those with this
    // name (Quake 2 maps have one per texinfo, many naming the same texture).
    int32_t material = -1;
    int32_t page = -1; // index into MapBundle::lightmaps.pages; -1: no lightmap image
    AlphaMode alpha_mode = AlphaMode::Opaque;
    float alpha = 1.0f;        // base colour factor's alpha (translucent surfaces and models)
    bool double_sided = false; // bsp::kSurfNoCull
    std::string name;          // the map's, unique (see buildExportScene)
};

// Triangles of one material in one node's mesh, vertices already converted.
struct ExportPrimitive {
    uint32_t material = 0;            // index into ExportScene::materials
    std::vector<glm::vec3> positions; // metres, +Y up, in the node's frame
    std::vector<glm::vec3> normals;   // unit length
    std::vector<glm::vec2> uv;        // texture repeats, (0,0) at the image's first texel
    std::vector<glm::vec2> lm_uv;     // into the material's lightmap page; empty without one
    std::vector<glm::u8vec4> colours; // light (baked, or vertex-lit faces); empty without
    std::vector<uint32_t> indices;    // triangles
    glm::vec3 mins{0.0f}, maxs{0.0f}; // of `positions`
};

struct ExportNode {
    std::string name;
    int32_t mesh = -1; // index into ExportScene::meshes, -1: an empty node
    glm::vec3 translation{0.0f};
    glm::quat rotation{1.0f, 0.0f, 0.0f, 0.0f};
    std::vector<uint32_t> children;
    // An entity's key/values (glTF extras), in the entity's order.
    std::vector<std::pair<std::string, std::string>> extras;
    int32_t entity = -1;   // index into bsp::Map::entities
    int32_t submodel = -1; // index into bsp::Map::submodels
};

struct ExportScene {
    // One node per submodel (index 0 the world, "*N" the brush models) and one per entity; a
    // brush model owned by an entity is that entity's child, which carries its placement.
    std::vector<ExportNode> nodes;
    std::vector<uint32_t> roots;
    std::vector<std::vector<ExportPrimitive>> meshes;
    std::vector<ExportMaterial> materials;
    std::vector<int32_t> textures; // map materials whose images the materials use, ascending
    std::vector<int32_t> pages;    // lightmap pages the materials use, ascending
    uint64_t triangles = 0;
    // Of every exported vertex placed by its node's transforms, in metres (+Y up); zero when
    // nothing is exported.
    glm::vec3 mins{0.0f}, maxs{0.0f};
    // What a viewer multiplies the exported lightmap texels by for style 0 at normal
    // brightness (2x overbright and the game's style scale, or with saturated pages only Quake
    // 3's output doubling); written to the materials' extras so an importer can reproduce the
    // brightness.
    float light_scale = 1.0f;
    // Quake 3 family: the renderer scales the light by page_scale and, where a channel passes
    // 1, scales it down by its largest channel (hue kept) before the output doubling, as
    // ioquake3 shifts lightmap bytes on load (tr_bsp.c R_ColorShiftLightingBytes). A glTF viewer
    // can only multiply, so the pages are written already saturated: savedTexel().
    bool saturate_pages = false;
    float page_scale = 1.0f;
};

// A lightmap page texel as the export writes it: as stored, or for saturate_pages the light
// the renderer multiplies the texture by before its output doubling.
glm::u8vec3 savedTexel(const ExportScene& scene, glm::u8vec3 texel);

// The map as `options` ask. Material names are the map's texture names, made unique where one
// texture is exported several ways: "#lmN" (lightmap page N) and "#aNN" (opacity in percent)
// appended, then "#2", "#3", ... Faces are taken from bundle.mesh (rebuilt when options change the
// patch level or keep hidden faces), so patches are tessellated and uv divided exactly as
// drawn. Never fails: a map with nothing to export gives nodes without meshes.
ExportScene buildExportScene(const MapBundle& bundle, const ExportOptions& options);

// Quake axes (+Z up) and units to the exported frame: (x, y, z) -> scale * (x, z, -y).
glm::vec3 toExportAxes(glm::vec3 v, float scale);

// Texture file stem for a material name: the name with every character outside
// [A-Za-z0-9_+-.] (and '/' between path parts) replaced by '_', "." and ".." parts dropped, so it
// is safe as a relative path on every file system ("textures/base_wall/concrete", "_0slime").
std::string textureFileStem(std::string_view material_name);

} // namespace exporter
