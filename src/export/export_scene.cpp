#include "export/export_scene.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <map>
#include <set>
#include <tuple>

#include <glm/common.hpp>
#include <glm/geometric.hpp>
#include <glm/gtc/matrix_transform.hpp>
#include <glm/mat3x3.hpp>
#include <glm/mat4x4.hpp>

namespace exporter {

std::string_view exportLightingName(ExportLighting lighting) {
    switch (lighting) {
    case ExportLighting::Lightmap:
        return "lightmap";
    case ExportLighting::Baked:
        return "baked";
    case ExportLighting::None:
        return "none";
    }
    return "?";
}

std::string_view alphaModeName(AlphaMode mode) {
    switch (mode) {
    case AlphaMode::Opaque:
        return "OPAQUE";
    case AlphaMode::Mask:
        return "MASK";
    case AlphaMode::Blend:
        return "BLEND";
    }
    return "?";
}

glm::vec3 toExportAxes(glm::vec3 v, float scale) {
    return scale * glm::vec3(v.x, v.z, -v.y);
}

std::string textureFileStem(std::string_view name) {
    std::string out;
    std::string part;
    const auto flush = [&] {
        if (!part.empty() && part != "." && part != "..") {
            if (!out.empty())
                out += '/';
            out += part;
        }
        part.clear();
    };
    for (char c : name) {
        if (c == '/' || c == '\\') {
            flush();
            continue;
        }
        const bool safe = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
                          (c >= '0' && c <= '9') || c == '_' || c == '+' || c == '-' || c == '.';
        part += safe ? c : '_';
    }
    flush();
    return out.empty() ? std::string("_") : out;
}

namespace {

// The rotation a brush model or entity is drawn with (render::WorldGpu::modelMatrix: yaw about
// +Z, then pitch, then roll), in Quake axes.
glm::mat3 quakeRotation(glm::vec3 angles) {
    glm::mat4 m(1.0f);
    m = glm::rotate(m, glm::radians(angles.y), glm::vec3(0, 0, 1));
    m = glm::rotate(m, glm::radians(-angles.x), glm::vec3(0, 1, 0));
    m = glm::rotate(m, glm::radians(angles.z), glm::vec3(1, 0, 0));
    return glm::mat3(m);
}

// The same rotation in export axes: A R A^T with A the axis change of toExportAxes.
glm::quat exportRotation(glm::vec3 angles) {
    if (angles == glm::vec3(0.0f))
        return glm::quat(1.0f, 0.0f, 0.0f, 0.0f);
    // Columns of A (glm is column-major): A e_x = e_x, A e_y = -e_z, A e_z = e_y.
    const glm::mat3 a(glm::vec3(1, 0, 0), glm::vec3(0, 0, -1), glm::vec3(0, 1, 0));
    return glm::normalize(glm::quat_cast(a * quakeRotation(angles) * glm::transpose(a)));
}

glm::u8vec4 toColour(glm::vec3 light) {
    const glm::vec3 c = glm::clamp(light, glm::vec3(0.0f), glm::vec3(1.0f)) * 255.0f + 0.5f;
    return glm::u8vec4(static_cast<uint8_t>(c.r), static_cast<uint8_t>(c.g),
                       static_cast<uint8_t>(c.b), 255);
}

// Bilinear sample of an RGB8 page at uv in [0,1] (texel centres at (i + 0.5) / size, edges
// clamped, as the GPU samples it with GL_LINEAR and clamp-to-edge).
glm::vec3 samplePage(const bsp::LightmapPage& page, int32_t w, int32_t h, glm::vec2 uv) {
    if (w <= 0 || h <= 0 || page.rgb.size() < static_cast<size_t>(w) * static_cast<size_t>(h) * 3)
        return glm::vec3(0.0f);
    const float x = uv.x * static_cast<float>(w) - 0.5f;
    const float y = uv.y * static_cast<float>(h) - 0.5f;
    const float fx = std::floor(x), fy = std::floor(y);
    const float tx = x - fx, ty = y - fy;
    const auto texel = [&](float px, float py) {
        const int ix = std::clamp(static_cast<int>(px), 0, w - 1);
        const int iy = std::clamp(static_cast<int>(py), 0, h - 1);
        const uint8_t* p =
            &page.rgb[(static_cast<size_t>(iy) * static_cast<size_t>(w) + static_cast<size_t>(ix)) *
                      3];
        return glm::vec3(p[0], p[1], p[2]) / 255.0f;
    };
    const glm::vec3 top = glm::mix(texel(fx, fy), texel(fx + 1, fy), tx);
    const glm::vec3 bottom = glm::mix(texel(fx, fy + 1), texel(fx + 1, fy + 1), tx);
    return glm::mix(top, bottom, ty);
}

AlphaMode alphaModeOf(Pass pass) {
    switch (pass) {
    case Pass::AlphaTest:
        return AlphaMode::Mask;
    case Pass::Liquid:
    case Pass::Translucent:
        return AlphaMode::Blend;
    default:
        return AlphaMode::Opaque;
    }
}

bool exportedByDefault(const ResolvedMaterial& m, Pass pass) {
    return pass != Pass::Sky && !(m.flags & (bsp::kSurfFog | bsp::kSurfNoDraw));
}

// Opacity of a face's material as scene::worldBatchOpacity draws it (liquids at full opacity).
float faceAlpha(const ResolvedMaterial& m, Pass pass, const bsp::Submodel* model) {
    if (pass < Pass::Liquid)
        return 1.0f;
    float alpha = m.alpha;
    if (model &&
        (model->blend == bsp::BlendMode::Alpha || model->blend == bsp::BlendMode::Additive))
        alpha *= model->alpha;
    return std::clamp(alpha, 0.0f, 1.0f);
}

class Builder {
public:
    Builder(const MapBundle& bundle, const ExportOptions& options, const WorldMesh& mesh)
        : m_bundle(bundle), m_map(bundle.map), m_options(options), m_mesh(mesh),
          m_light(bundle.profile.rules.light), m_local(mesh.vertices.size(), kUnset) {
        // Quake 2 has a material per texinfo, many naming one texture: export one per name.
        std::map<std::string_view, int32_t> first;
        m_canonical.resize(m_map.materials.size());
        for (size_t i = 0; i < m_map.materials.size(); ++i)
            m_canonical[i] =
                first.emplace(m_map.materials[i].name, static_cast<int32_t>(i)).first->second;
    }

    ExportScene build() {
        m_scene.light = m_light;
        m_scene.light_scale = fullLight(m_light);
        m_scene.meshes.resize(m_map.submodels.size());
        std::vector<std::map<uint32_t, size_t>> primitive_of(m_map.submodels.size());
        for (uint32_t order = 0; order < m_mesh.order_to_face.size(); ++order)
            addFace(m_mesh.order_to_face[order], primitive_of);
        finishPrimitives();
        nameMaterials();
        buildNodes();
        computeBounds();
        return std::move(m_scene);
    }

private:
    using MaterialKey = std::tuple<int32_t, int32_t, AlphaMode, float, bool>;

    uint32_t materialIndex(const MaterialKey& key) {
        auto [it, added] =
            m_material_of.emplace(key, static_cast<uint32_t>(m_scene.materials.size()));
        if (added) {
            ExportMaterial m;
            std::tie(m.material, m.page, m.alpha_mode, m.alpha, m.double_sided) = key;
            m_scene.materials.push_back(std::move(m));
        }
        return it->second;
    }

    void addFace(uint32_t face_index, std::vector<std::map<uint32_t, size_t>>& primitive_of) {
        const MeshFace& mf = m_mesh.faces[face_index];
        if (mf.num_indices == 0 || mf.material < 0 ||
            static_cast<size_t>(mf.material) >= m_mesh.materials.size() || mf.submodel < 0 ||
            static_cast<size_t>(mf.submodel) >= m_map.submodels.size())
            return;
        const ResolvedMaterial& rm = m_mesh.materials[static_cast<size_t>(mf.material)];
        if (!m_options.include_hidden && !exportedByDefault(rm, mf.pass))
            return;
        const bsp::Submodel* model =
            mf.submodel > 0 ? &m_map.submodels[static_cast<size_t>(mf.submodel)] : nullptr;
        const WorldVertex& first = m_mesh.vertices[m_mesh.indices[mf.first_index]];
        const int32_t page = first.lm_layer < 0.0f ? -1 : static_cast<int32_t>(first.lm_layer);
        const bool lightmapped = m_options.lighting == ExportLighting::Lightmap && page >= 0;
        const MaterialKey key{m_canonical[static_cast<size_t>(mf.material)],
                              lightmapped ? page : -1, alphaModeOf(mf.pass),
                              faceAlpha(rm, mf.pass, model), (rm.flags & bsp::kSurfNoCull) != 0};
        const uint32_t material = materialIndex(key);
        auto& prims = primitive_of[static_cast<size_t>(mf.submodel)];
        auto [it, added] =
            prims.emplace(material, m_scene.meshes[static_cast<size_t>(mf.submodel)].size());
        if (added) {
            ExportPrimitive p;
            p.material = material;
            m_scene.meshes[static_cast<size_t>(mf.submodel)].push_back(std::move(p));
        }
        ExportPrimitive& prim = m_scene.meshes[static_cast<size_t>(mf.submodel)][it->second];
        const bool coloured = m_options.lighting == ExportLighting::Baked ||
                              (m_options.lighting == ExportLighting::Lightmap && page < 0);
        // A face's vertices belong to it alone (buildWorldMesh writes them per face), so each
        // is converted once, when its first index is met. The mesh winds front faces
        // clockwise, as the games draw them; glTF and OBJ front faces are counter-clockwise
        // (glTF 2.0 spec, "Meshes": front faces have counter-clockwise winding), so each
        // triangle is written as (0, 2, 1). The axis change is a rotation and keeps windings.
        static constexpr uint32_t kCounterClockwise[3] = {0, 2, 1};
        for (uint32_t k = 0; k < mf.num_indices; ++k) {
            const uint32_t corner = k - k % 3 + kCounterClockwise[k % 3];
            const uint32_t vi = m_mesh.indices[mf.first_index + corner];
            if (m_local[vi] == kUnset) {
                m_local[vi] = static_cast<uint32_t>(prim.positions.size());
                addVertex(prim, m_mesh.vertices[vi], lightmapped, coloured);
            }
            prim.indices.push_back(m_local[vi]);
        }
        m_scene.triangles += mf.num_indices / 3;
    }

    void addVertex(ExportPrimitive& prim, const WorldVertex& v, bool lightmapped, bool coloured) {
        prim.positions.push_back(toExportAxes(v.position, m_options.scale));
        glm::vec3 n = toExportAxes(v.normal, 1.0f);
        const float len = glm::length(n);
        prim.normals.push_back(len > 1e-6f && std::isfinite(len) ? n / len : glm::vec3(0, 1, 0));
        prim.uv.push_back(v.uv);
        if (lightmapped)
            prim.lm_uv.push_back(v.lm_uv);
        if (coloured)
            prim.colours.push_back(toColour(game::lightPart(m_light, lightAt(v))));
    }

    // The light at a vertex before the game's rules: style 0 of its lightmap, or its colour
    // (once per style, each at 'm', where the game lights a face without light data so).
    glm::vec3 lightAt(const WorldVertex& v) const {
        const LightmapSet& set = m_bundle.lightmaps;
        static const std::array<float, 64> kNormal = [] {
            std::array<float, 64> a{};
            a.fill(1.0f);
            return a;
        }();
        if (v.lm_layer < 0.0f)
            return scene::vertexLight(v, kNormal.data());
        const auto page = static_cast<size_t>(v.lm_layer);
        if (page >= set.pages.size())
            return glm::vec3(v.colour) / 255.0f;
        return samplePage(set.pages[page], set.width, set.height, v.lm_uv);
    }

    void finishPrimitives() {
        for (auto& prims : m_scene.meshes)
            for (ExportPrimitive& p : prims) {
                p.mins = glm::vec3(std::numeric_limits<float>::max());
                p.maxs = glm::vec3(std::numeric_limits<float>::lowest());
                for (const glm::vec3& v : p.positions) {
                    p.mins = glm::min(p.mins, v);
                    p.maxs = glm::max(p.maxs, v);
                }
            }
    }

    // Names are the map's, unique: a texture drawn several ways (lightmap pages, Quake 2
    // TRANS33 and TRANS66) gets "#lmN" and "#aNN" (opacity in percent) appended, and "#2",
    // "#3", ... if that is still not enough.
    void nameMaterials() {
        std::map<int32_t, int> variants;
        for (const ExportMaterial& m : m_scene.materials)
            ++variants[m.material];
        std::set<std::string> used;
        for (ExportMaterial& m : m_scene.materials) {
            std::string name = m_map.materials[static_cast<size_t>(m.material)].name;
            if (variants[m.material] > 1) {
                if (m.page >= 0)
                    name += "#lm" + std::to_string(m.page);
                if (m.alpha < 1.0f)
                    name += "#a" + std::to_string(static_cast<int>(std::lround(m.alpha * 100)));
            }
            m.name = name;
            for (int n = 2; !used.insert(m.name).second; ++n)
                m.name = name + "#" + std::to_string(n);
            m_scene.textures.push_back(m.material);
            if (m.page >= 0)
                m_scene.pages.push_back(m.page);
        }
        for (std::vector<int32_t>* v : {&m_scene.textures, &m_scene.pages}) {
            std::sort(v->begin(), v->end());
            v->erase(std::unique(v->begin(), v->end()), v->end());
        }
    }

    void buildNodes() {
        const size_t models = m_map.submodels.size();
        std::vector<std::vector<uint32_t>> models_of(m_map.entities.size());
        for (size_t i = 0; i < models; ++i) {
            const bsp::Submodel& sm = m_map.submodels[i];
            ExportNode n;
            n.name = i == 0 ? std::string("world") : "*" + std::to_string(i);
            n.submodel = static_cast<int32_t>(i);
            n.mesh = m_scene.meshes[i].empty() ? -1 : static_cast<int32_t>(i);
            const bool owned =
                i > 0 && sm.entity >= 0 && static_cast<size_t>(sm.entity) < m_map.entities.size();
            if (owned) {
                models_of[static_cast<size_t>(sm.entity)].push_back(static_cast<uint32_t>(i));
            } else {
                if (i > 0) {
                    n.translation = toExportAxes(sm.origin, m_options.scale);
                    n.rotation = exportRotation(sm.angles);
                }
                m_scene.roots.push_back(static_cast<uint32_t>(i));
            }
            m_scene.nodes.push_back(std::move(n));
        }
        for (size_t e = 0; e < m_map.entities.size(); ++e) {
            const bsp::Entity& ent = m_map.entities[e];
            ExportNode n;
            n.entity = static_cast<int32_t>(e);
            n.name = ent.classname().empty() ? "entity " + std::to_string(e)
                                             : std::string(ent.classname());
            if (const std::string_view target = ent.get("targetname"); !target.empty())
                n.name += " " + std::string(target);
            n.extras = ent.pairs;
            if (!models_of[e].empty()) {
                // Placed as its model is drawn (the parser copied origin and angles onto it).
                const bsp::Submodel& sm = m_map.submodels[models_of[e].front()];
                n.translation = toExportAxes(sm.origin, m_options.scale);
                n.rotation = exportRotation(sm.angles);
                n.children = models_of[e];
            } else {
                n.translation =
                    toExportAxes(ent.vec3("origin").value_or(glm::vec3(0.0f)), m_options.scale);
                n.rotation = exportRotation(entityAngles(ent));
            }
            m_scene.roots.push_back(static_cast<uint32_t>(m_scene.nodes.size()));
            m_scene.nodes.push_back(std::move(n));
        }
    }

    // A point entity's facing: "angles" (pitch yaw roll), else "angle" as yaw; -1 and -2 (up
    // and down in Quake 1) point along Z.
    static glm::vec3 entityAngles(const bsp::Entity& ent) {
        if (auto a = ent.vec3("angles"))
            return *a;
        if (auto yaw = ent.number("angle")) {
            if (*yaw == -1.0f)
                return {-90.0f, 0.0f, 0.0f};
            if (*yaw == -2.0f)
                return {90.0f, 0.0f, 0.0f};
            return {0.0f, *yaw, 0.0f};
        }
        return glm::vec3(0.0f);
    }

    void computeBounds() {
        glm::vec3 lo(std::numeric_limits<float>::max()), hi(std::numeric_limits<float>::lowest());
        std::vector<int32_t> parent(m_scene.nodes.size(), -1);
        for (size_t i = 0; i < m_scene.nodes.size(); ++i)
            for (uint32_t c : m_scene.nodes[i].children)
                parent[c] = static_cast<int32_t>(i);
        for (size_t i = 0; i < m_scene.nodes.size(); ++i) {
            const ExportNode& n = m_scene.nodes[i];
            if (n.mesh < 0)
                continue;
            glm::mat4 world(1.0f);
            for (int32_t at = static_cast<int32_t>(i); at >= 0;
                 at = parent[static_cast<size_t>(at)]) {
                const ExportNode& p = m_scene.nodes[static_cast<size_t>(at)];
                world = glm::translate(glm::mat4(1.0f), p.translation) *
                        glm::mat4_cast(p.rotation) * world;
            }
            for (const ExportPrimitive& prim : m_scene.meshes[static_cast<size_t>(n.mesh)])
                for (const glm::vec3& v : prim.positions) {
                    const glm::vec3 w = glm::vec3(world * glm::vec4(v, 1.0f));
                    lo = glm::min(lo, w);
                    hi = glm::max(hi, w);
                }
        }
        if (m_scene.triangles > 0) {
            m_scene.mins = lo;
            m_scene.maxs = hi;
        }
    }

    const MapBundle& m_bundle;
    const bsp::Map& m_map;
    const ExportOptions& m_options;
    const WorldMesh& m_mesh;
    game::LightRule m_light;
    ExportScene m_scene;
    std::map<MaterialKey, uint32_t> m_material_of;
    std::vector<int32_t> m_canonical; // map material -> first map material of the same name
    static constexpr uint32_t kUnset = std::numeric_limits<uint32_t>::max();
    std::vector<uint32_t> m_local; // mesh vertex -> index in its primitive
};

} // namespace

float fullLight(const game::LightRule& rule) {
    const glm::vec3 full = game::lightPart(rule, glm::vec3(1.0f));
    return std::max({full.r, full.g, full.b, 1e-6f});
}

namespace {

uint8_t toByte(float v) {
    return static_cast<uint8_t>(std::clamp(v, 0.0f, 1.0f) * 255.0f + 0.5f);
}

} // namespace

glm::u8vec3 savedTexel(const ExportScene& scene, glm::u8vec3 texel) {
    const glm::vec3 light =
        game::lightPart(scene.light, glm::vec3(texel) / 255.0f) / scene.light_scale;
    return glm::u8vec3(toByte(light.r), toByte(light.g), toByte(light.b));
}

bool curvesTextures(const ExportScene& scene) {
    return scene.light.output_gamma != 1.0f || scene.light.texture_max > 0.0f;
}

glm::u8vec4 exportedTexel(const ExportScene& scene, glm::u8vec4 texel) {
    if (!curvesTextures(scene))
        return texel;
    const glm::vec3 t = game::texelPart(scene.light, glm::vec3(texel) / 255.0f);
    return glm::u8vec4(toByte(t.r), toByte(t.g), toByte(t.b), texel.a);
}

content::Image exportedTexture(const ExportScene& scene, const content::Image& image) {
    content::Image out = image;
    if (!curvesTextures(scene))
        return out;
    // A lookup per byte value: every channel goes through the same curve.
    std::array<uint8_t, 256> table{};
    for (int v = 0; v < 256; ++v)
        table[static_cast<size_t>(v)] = exportedTexel(scene, glm::u8vec4(uint8_t(v), 0, 0, 255)).r;
    for (size_t i = 0; i + 3 < out.rgba.size(); i += 4)
        for (size_t c = 0; c < 3; ++c)
            out.rgba[i + c] = table[out.rgba[i + c]];
    return out;
}

ExportScene buildExportScene(const MapBundle& bundle, const ExportOptions& options) {
    const int level = options.patch_level > 0 ? options.patch_level : bundle.mesh.patch_level;
    if (!options.include_hidden && level == bundle.mesh.patch_level)
        return Builder(bundle, options, bundle.mesh).build();
    WorldMeshOptions mo;
    mo.patch_level = level;
    mo.lightmaps = &bundle.lightmaps;
    mo.include_hidden = options.include_hidden;
    const WorldMesh mesh = buildWorldMesh(bundle.map, bundle.materials, mo);
    return Builder(bundle, options, mesh).build();
}

} // namespace exporter
