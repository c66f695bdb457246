#include "scene/world/world_mesh.h"

#include "bsp/patch.h"
#include "game/profile.h"

#include <algorithm>
#include <numeric>
#include <optional>
#include <span>

namespace scene {

const char* passName(Pass pass) {
    switch (pass) {
    case Pass::Opaque:
        return "opaque";
    case Pass::AlphaTest:
        return "alpha-test";
    case Pass::Sky:
        return "sky";
    case Pass::Liquid:
        return "liquid";
    case Pass::Translucent:
        return "translucent";
    case Pass::Count:
        break;
    }
    return "?";
}

glm::vec3 vertexLight(const WorldVertex& v, const float* style_value) {
    const glm::vec3 colour = glm::vec3(v.colour) / 255.0f;
    if (v.lm_layer != kLayerEachStyle || v.styles[0] == bsp::kNoStyle)
        return colour;
    float sum = 0.0f;
    for (int k = 0; k < 4 && v.styles[k] != bsp::kNoStyle; ++k)
        sum += style_value[v.styles[k] & 63];
    return colour * sum;
}

namespace {

WorldVertex toWorldVertex(const bsp::Vertex& v, const bsp::Face& f, int32_t lm_layer, float lm_step,
                          const ResolvedMaterial& material) {
    WorldVertex w;
    w.position = v.position;
    w.uv = uvInRepeats(material, v.uv);
    w.lm_uv = v.lm_uv;
    w.normal = v.normal;
    w.colour = v.colour;
    w.styles = glm::u8vec4(f.styles[0], f.styles[1], f.styles[2], f.styles[3]);
    w.lm_layer = static_cast<float>(lm_layer);
    w.lm_step = lm_step;
    return w;
}

float lightmapStep(int32_t page_width, const bsp::Face& f) {
    const int styles = f.numStyles();
    // A bump-lit face's directional blocks follow its flat ones at the same step, even after one.
    if ((styles <= 1 && !f.bump_light) || styles < 1 || page_width <= 0)
        return 0.0f;
    return static_cast<float>(f.lightmap_rect.w / styles) / static_cast<float>(page_width);
}

// The array layer a face's lightmap is in; -1: none (vertex colours).
int32_t lightmapLayer(const bsp::Map& map, const LightmapSet* lightmaps, const bsp::Face& f) {
    if (lightmaps)
        return lightmaps->pageOf(f.lightmap_page);
    return f.lightmap_page < static_cast<int32_t>(map.lightmap_pages.size()) ? f.lightmap_page : -1;
}

bool drawable(const bsp::Map& map, const MaterialTable& materials, const bsp::Face& f,
              bool include_hidden) {
    if (f.material < 0 || f.material >= static_cast<int32_t>(map.materials.size()) ||
        f.material >= static_cast<int32_t>(materials.size()))
        return false;
    if (include_hidden)
        return f.kind != bsp::FaceKind::Billboard;
    if (materials[static_cast<size_t>(f.material)].flags & bsp::kSurfNoDraw)
        return false;
    if (f.submodel > 0 && f.submodel < static_cast<int32_t>(map.submodels.size()) &&
        !map.submodels[static_cast<size_t>(f.submodel)].visible)
        return false;
    return f.kind != bsp::FaceKind::Billboard;
}

// The pass a face is drawn in: its material's, moved by its brush model's own blending (Half-Life
// rendermode, Quake entity alpha) from opaque to the alpha-test or blended pass.
Pass facePass(const bsp::Map& map, const bsp::Face& f, const ResolvedMaterial& material) {
    Pass pass = material.pass;
    if (f.submodel > 0 && static_cast<size_t>(f.submodel) < map.submodels.size() &&
        (pass == Pass::Opaque || pass == Pass::AlphaTest)) {
        const bsp::BlendMode blend = map.submodels[static_cast<size_t>(f.submodel)].blend;
        if (blend == bsp::BlendMode::AlphaTest)
            pass = Pass::AlphaTest;
        else if (blend == bsp::BlendMode::Alpha || blend == bsp::BlendMode::Additive)
            pass = Pass::Translucent;
    }
    return pass;
}

// The game's rule for faces without lightmap data (bsp::Face::unlit).
game::UnlitFaces unlitRule(const bsp::Map& map, const WorldMeshOptions& options) {
    return options.unlit_faces ? *options.unlit_faces
                               : game::profileFor(map).rules.light.unlit_faces;
}

// The grey a face without lightmap data is drawn in, by the game's rule; nullopt: its vertex
// colours as stored.
std::optional<uint8_t> unlitGrey(const bsp::Map& map, const WorldMeshOptions& options) {
    switch (unlitRule(map, options)) {
    case game::UnlitFaces::Black:
        return uint8_t(0);
    case game::UnlitFaces::Fullbright:
    case game::UnlitFaces::FullbrightEachStyle:
        return uint8_t(255);
    case game::UnlitFaces::VertexColour:
        break;
    }
    return std::nullopt;
}

// Appends face f's vertices to the mesh (a patch tessellated) and its triangles to `out`.
void emitFace(const bsp::Map& map, const bsp::Face& f, const ResolvedMaterial& material,
              int32_t layer, float step, int patch_level, WorldMesh& mesh,
              std::vector<uint32_t>& out) {
    const uint32_t base = static_cast<uint32_t>(mesh.vertices.size());
    if (f.kind == bsp::FaceKind::Patch) {
        std::span<const bsp::Vertex> controls(map.vertices.data() + f.first_vertex, f.num_vertices);
        // The control points' uv in repeats first, as the tessellation interpolates them.
        std::vector<bsp::Vertex> divided;
        if (material.divide_uv) {
            divided.assign(controls.begin(), controls.end());
            for (bsp::Vertex& v : divided)
                v.uv = uvInRepeats(material, v.uv);
            controls = divided;
        }
        const ResolvedMaterial as_is; // the tessellated uv are in repeats already
        bsp::PatchMesh pm =
            bsp::tessellatePatch(controls, f.patch_width, f.patch_height, patch_level);
        for (const bsp::Vertex& v : pm.vertices)
            mesh.vertices.push_back(toWorldVertex(v, f, layer, step, as_is));
        out.reserve(pm.indices.size());
        for (uint32_t idx : pm.indices)
            out.push_back(base + idx);
    } else {
        for (uint32_t v = 0; v < f.num_vertices; ++v)
            mesh.vertices.push_back(
                toWorldVertex(map.vertices[f.first_vertex + v], f, layer, step, material));
        out.reserve(f.num_indices);
        for (uint32_t k = 0; k < f.num_indices; ++k)
            out.push_back(base + (map.indices[f.first_index + k] - f.first_vertex));
    }
}

} // namespace

WorldMesh buildWorldMesh(const bsp::Map& map, const WorldMeshOptions& options) {
    return buildWorldMesh(map, resolveMaterials(map), options);
}

WorldMesh buildWorldMesh(const bsp::Map& map, const MaterialTable& materials,
                         const WorldMeshOptions& options) {
    WorldMesh mesh;
    mesh.materials = materials;
    mesh.patch_level = std::clamp(options.patch_level, 1, 32);
    mesh.faces.resize(map.faces.size());

    // Vertices first, face by face; per-face local triangle lists are kept to be laid out in
    // sorted order afterwards.
    std::vector<std::vector<uint32_t>> face_indices(map.faces.size());
    mesh.vertices.reserve(map.vertices.size());
    const std::optional<uint8_t> unlit = unlitGrey(map, options);
    const bool each_style = unlitRule(map, options) == game::UnlitFaces::FullbrightEachStyle;
    for (size_t i = 0; i < map.faces.size(); ++i) {
        const bsp::Face& f = map.faces[i];
        MeshFace& mf = mesh.faces[i];
        mf.material = f.material;
        mf.submodel = f.submodel;
        mf.max_distance_sq = f.max_distance_sq;
        if (!drawable(map, materials, f, options.include_hidden))
            continue;
        const ResolvedMaterial& material = materials[static_cast<size_t>(f.material)];
        mf.pass = facePass(map, f, material);
        const int32_t layer = lightmapLayer(map, options.lightmaps, f);
        const float step =
            lightmapStep(options.lightmaps ? options.lightmaps->width : map.lightmap_width, f);
        const uint32_t base = static_cast<uint32_t>(mesh.vertices.size());
        emitFace(map, f, material, layer, step, mesh.patch_level, mesh, face_indices[i]);
        if (f.bump_light && layer >= 0)
            for (uint32_t v = base; v < mesh.vertices.size(); ++v)
                mesh.vertices[v].lm_layer += kBumpLitLayer;
        if (f.unlit && unlit)
            for (uint32_t v = base; v < mesh.vertices.size(); ++v) {
                mesh.vertices[v].colour = glm::u8vec4(*unlit, *unlit, *unlit, 255);
                if (each_style)
                    mesh.vertices[v].lm_layer = kLayerEachStyle;
            }
        glm::vec3 c(0.0f);
        const uint32_t n = static_cast<uint32_t>(mesh.vertices.size()) - base;
        for (uint32_t v = base; v < base + n; ++v)
            c += mesh.vertices[v].position;
        mf.center = n ? c / static_cast<float>(n) : c;
    }

    // Sorted layout: (pass, submodel, material, fog volume, face index): the faces of a batch
    // (scene/view/visibility.h) lie together, and a material's fogged faces apart from the rest.
    mesh.order_to_face.resize(map.faces.size());
    std::iota(mesh.order_to_face.begin(), mesh.order_to_face.end(), 0u);
    std::stable_sort(mesh.order_to_face.begin(), mesh.order_to_face.end(),
                     [&](uint32_t a, uint32_t b) {
                         const MeshFace& fa = mesh.faces[a];
                         const MeshFace& fb = mesh.faces[b];
                         if (fa.pass != fb.pass)
                             return fa.pass < fb.pass;
                         if (fa.submodel != fb.submodel)
                             return fa.submodel < fb.submodel;
                         if (fa.material != fb.material)
                             return fa.material < fb.material;
                         return map.faces[a].fog < map.faces[b].fog;
                     });
    size_t total = 0;
    for (const auto& fi : face_indices)
        total += fi.size();
    mesh.indices.reserve(total);
    for (uint32_t order = 0; order < mesh.order_to_face.size(); ++order) {
        const uint32_t face = mesh.order_to_face[order];
        MeshFace& mf = mesh.faces[face];
        mf.order = order;
        mf.first_index = static_cast<uint32_t>(mesh.indices.size());
        mf.num_indices = static_cast<uint32_t>(face_indices[face].size());
        mesh.indices.insert(mesh.indices.end(), face_indices[face].begin(),
                            face_indices[face].end());
        if (mf.num_indices > 0)
            ++mesh.drawable_faces;
    }
    mesh.triangles = mesh.indices.size() / 3;
    return mesh;
}

} // namespace scene
