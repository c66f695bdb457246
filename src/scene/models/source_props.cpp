#include "scene/models/source_props.h"

#include "bsp/source_props.h"
#include "content/image/image.h"
#include "content/image/vtf.h"
#include "content/material/textures.h"
#include "physics/collision.h"
#include "scene/models/entity_keys.h"
#include "scene/models/placement.h"

#include <glm/gtc/matrix_transform.hpp>

#include <algorithm>
#include <optional>
#include <string>

namespace scene {

namespace {

// "materials/models/x/y.vmt" -> "models/x/y", the name content's Valve loader takes.
std::string materialName(std::string_view path) {
    if (path.starts_with("materials/"))
        path.remove_prefix(10);
    if (path.ends_with(".vmt"))
        path.remove_suffix(4);
    return std::string(path);
}

// The image a range draws: the material's $basetexture, opaque unless the material cuts or
// blends by its alpha (the model shader otherwise reads alpha as a fullbright mask), with the
// VTF's own mips where it has S3TC blocks (decoded: an $alphatest material is then cut by its
// file's mips as the engine samples them, not by mips averaged here).
content::ModelImage imageOf(const content::TextureInfo& info) {
    content::ModelImage img;
    img.width = info.image.width;
    img.height = info.image.height;
    img.rgba = info.image.rgba;
    constexpr uint32_t kKeepsAlpha = bsp::kSurfAlphaTest | bsp::kSurfTranslucent;
    if (info.image.compressed)
        img.mips = content::decodeCompressedMips(*info.image.compressed, img.width, img.height);
    if ((info.surface_flags & kKeepsAlpha) == 0) {
        for (size_t i = 3; i < img.rgba.size(); i += 4)
            img.rgba[i] = 255;
        for (content::Image& mip : img.mips)
            for (size_t i = 3; i < mip.rgba.size(); i += 4)
                mip.rgba[i] = 255;
    }
    return img;
}

// Gives a Source studio mesh one image per material (missing ones the missing-texture tile) and
// each skin family ranges that name their image and how their material draws (once per model).
void resolvePropMaterials(const content::FileSystem& fs, LoadedModel& model) {
    if (!model.mesh || model.mesh->materials.empty() || !model.mesh->images.empty())
        return;
    content::ModelMesh& mesh = *model.mesh;
    std::vector<uint32_t> flags(mesh.materials.size(), 0);
    std::vector<bool> unlit(mesh.materials.size(), false);
    for (size_t i = 0; i < mesh.materials.size(); ++i) {
        content::TextureInfo info;
        if (mesh.materials[i].empty() ||
            !content::loadValveMaterialFile(fs, materialName(mesh.materials[i]), info) ||
            !info.image.valid()) { // a Water material with only a fog colour has no image
            if (!mesh.materials[i].empty())
                model.warnings.push_back(mesh.materials[i] + ": " +
                                         (info.error.empty() ? "not drawn" : info.error));
            info = {};
            info.image = content::makeMissingTexture();
        }
        flags[i] = info.surface_flags;
        unlit[i] = info.fullbright_light > 0.0f;
        mesh.images.push_back(imageOf(info));
    }
    const std::vector<content::ModelDrawRange> base =
        mesh.ranges.empty()
            ? std::vector<content::ModelDrawRange>{{0, uint32_t(mesh.indices.size())}}
            : mesh.ranges;
    mesh.skins.clear();
    mesh.skin_ranges.clear();
    for (const std::vector<uint32_t>& family : mesh.skin_materials) {
        std::vector<content::ModelDrawRange> ranges = base;
        for (content::ModelDrawRange& r : ranges) {
            const uint32_t texture = r.material < family.size() ? family[r.material] : 0;
            if (texture >= mesh.images.size())
                continue; // the decoder checks the table; a hand-made mesh may not match
            r.image = int32_t(texture);
            r.masked = (flags[texture] & bsp::kSurfAlphaTest) != 0;
            r.translucent = (flags[texture] & bsp::kSurfTranslucent) != 0;
            r.additive = (flags[texture] & bsp::kSurfAdditive) != 0;
            r.two_sided = (flags[texture] & bsp::kSurfNoCull) != 0;
            r.unlit = unlit[texture];
        }
        mesh.skin_ranges.push_back(std::move(ranges));
        mesh.skins.push_back({});
    }
    if (!mesh.skin_ranges.empty())
        mesh.ranges = mesh.skin_ranges.front();
}

// What a prop entity says of itself: the sprp record it came from, or its own keys.
struct PropKeys {
    glm::vec3 origin{0.0f};
    glm::vec3 angles{0.0f};
    int32_t skin = 0;
    int32_t body = 0;
    float fade_min = 0.0f, fade_max = 0.0f; // <= 0 both: never fades
    const bsp::StaticProp* record = nullptr;
    int32_t record_index = -1;
};

std::optional<PropKeys> propKeys(const bsp::Map& map, const bsp::Entity& e) {
    PropKeys k;
    const auto origin = e.vec3("origin");
    if (!origin)
        return std::nullopt;
    k.origin = *origin;
    k.angles = entityAngles(e);
    k.skin = intKey(e, "skin", 0);
    k.body = intKey(e, "body", 0);
    // prop_dynamic / prop_physics: their own keys (baseanimating.cpp's m_fadeMinDist/MaxDist).
    k.fade_min = floatKey(e, "fademindist", 0.0f);
    k.fade_max = floatKey(e, "fademaxdist", 0.0f);
    if (e.has("_sprp")) {
        const int32_t i = intKey(e, "_sprp", -1);
        if (i >= 0 && size_t(i) < map.static_props.props.size()) {
            k.record = &map.static_props.props[size_t(i)];
            k.record_index = i;
            k.origin = k.record->origin;
            k.angles = k.record->angles;
            k.skin = k.record->skin;
            // Static props fade only with STATIC_PROP_FLAG_FADES, which vbsp sets when the
            // prop_static had a fade max (utils/vbsp/staticprop.cpp EmitStaticProps).
            const bool fades = (k.record->flags & bsp::kStaticPropFades) != 0;
            k.fade_min = fades ? k.record->fade_min : 0.0f;
            k.fade_max = fades ? k.record->fade_max : 0.0f;
        }
    }
    return k;
}

// The leaf ambient cube at the prop's lighting origin (header comment), in linear light: vrad
// stores the cube's sides so that ColorRGBExp32ToVector (bsp::ambientCubeAt) gives linear light
// with 1 full (background_01's sky-lit sides are about 0.04 0.06 0.11), not the lightmaps'
// 0..255 scale.
void lightProp(const bsp::Map& map, const content::FileSystem& fs,
               const physics::CollisionWorld* world, const PropKeys& k,
               const content::ModelMesh& mesh, EntityModelInstance& inst) {
    const bool from_record = k.record && (k.record->flags & bsp::kStaticPropUseLightingOrigin) != 0;
    const glm::vec3 illum(mesh.illum_position[0], mesh.illum_position[1], mesh.illum_position[2]);
    const glm::vec3 at =
        from_record ? k.record->lighting_origin : sourcePropToWorld(k.origin, k.angles, illum);
    const bool hdr = !map.leaf_ambient.present() && map.leaf_ambient_hdr.present();
    if (!map.leaf_ambient.present() && !map.leaf_ambient_hdr.present()) {
        inst.light = glm::vec3(1.0f);
        inst.lighting = "full bright (the map has no ambient light)";
        return;
    }
    const std::vector<bsp::WorldLight>& lights =
        hdr || map.world_lights.empty() ? map.world_lights_hdr : map.world_lights;
    const SourcePropLight light =
        lightSourceProp(map, lights, world, at, bsp::ambientCubeAt(map, at, hdr));
    inst.ambient_cube = light.cube;
    inst.cube_lit = true;
    inst.local_lights = light.lights;
    inst.local_light_count = light.light_count;
    inst.lighting = std::string(hdr ? "HDR" : "LDR") + " leaf ambient cube at " + vtos(at) +
                    (from_record ? " (the prop's lighting origin)" : " (illumposition)");
    if (light.light_count > 0) {
        inst.lighting += " + world lights";
        for (uint32_t i = 0; i < light.light_count; ++i)
            inst.lighting += " " + std::to_string(light.world_light[i]);
    }
    if (k.record_index >= 0 && (k.record->flags & bsp::kStaticPropNoPerVertexLighting) == 0) {
        const std::string n = std::to_string(k.record_index);
        for (const std::string& vhv : {"sp_hdr_" + n + ".vhv", "sp_" + n + ".vhv"})
            if (fs.exists(vhv)) {
                inst.lighting += "; " + vhv + " present, its per-vertex light not drawn yet";
                break;
            }
    }
}

void addProp(const bsp::Map& map, const content::FileSystem& fs, ModelFiles& files,
             const physics::CollisionWorld* world, EntityModelSet& set, uint32_t entity) {
    const bsp::Entity& e = map.entities[entity];
    const auto keys = propKeys(map, e);
    if (!keys || !e.has("model"))
        return;
    if (keys->record && (keys->record->flags & bsp::kStaticPropNoDraw) != 0)
        return; // STATIC_PROP_NO_DRAW: the engine never draws it
    ++set.wanted;
    content::ModelRequest request;
    request.studio.body = keys->body;
    const PathModels& pm = files.get(e.get("model"), request);
    for (uint32_t index = pm.first; index < pm.first + pm.count; ++index) {
        LoadedModel& model = set.models[index];
        if (!model.drawable() || !model.mesh) {
            set.missing.push_back(std::string(e.classname()) + ": " + model.path + " (" +
                                  (model.error.empty() ? "not a studio mesh" : model.error) + ")");
            continue;
        }
        resolvePropMaterials(fs, model);
        EntityModelInstance inst;
        inst.entity = entity;
        inst.model = index;
        inst.origin = keys->origin;
        inst.angles = keys->angles;
        inst.pitch_down = true;
        const int32_t skins = int32_t(model.mesh->skin_ranges.size());
        inst.skin = skins > 0 ? std::clamp(keys->skin, 0, skins - 1) : 0;
        lightProp(map, fs, world, *keys, *model.mesh, inst);
        const content::ModelMesh& mesh = *model.mesh;
        const glm::vec3 centre = 0.5f * (glm::vec3(mesh.mins[0], mesh.mins[1], mesh.mins[2]) +
                                         glm::vec3(mesh.maxs[0], mesh.maxs[1], mesh.maxs[2]));
        inst.fade = sourcePropFade(keys->fade_min, keys->fade_max,
                                   sourcePropToWorld(keys->origin, keys->angles, centre));
        finishPlacement(inst, model, map);
        set.instances.push_back(std::move(inst));
    }
}

} // namespace

bool isSourcePropClass(std::string_view c) {
    return c == "prop_static" || c.starts_with("prop_dynamic") || c.starts_with("prop_physics");
}

void addSourceProps(const bsp::Map& map, const content::FileSystem& fs, ModelFiles& files,
                    EntityModelSet& set) {
    // The shadow and sky rays of the props' world lights (prop_lights.h), built when used.
    std::optional<physics::CollisionWorld> world;
    const bool any_prop =
        std::any_of(map.entities.begin(), map.entities.end(),
                    [](const bsp::Entity& e) { return isSourcePropClass(e.classname()); });
    if (any_prop && (!map.world_lights.empty() || !map.world_lights_hdr.empty()))
        world.emplace(map);
    // The props' studio models decoded on the worker threads first (addProp finds them loaded).
    std::vector<std::pair<std::string_view, content::ModelRequest>> requests;
    for (const bsp::Entity& e : map.entities) {
        if (!isSourcePropClass(e.classname()) || !e.has("model"))
            continue;
        const auto keys = propKeys(map, e);
        if (!keys || (keys->record && (keys->record->flags & bsp::kStaticPropNoDraw) != 0))
            continue;
        content::ModelRequest request;
        request.studio.body = keys->body;
        requests.emplace_back(e.get("model"), request);
    }
    files.prefetch(requests);
    for (uint32_t i = 0; i < map.entities.size(); ++i)
        if (isSourcePropClass(map.entities[i].classname()))
            addProp(map, fs, files, world ? &*world : nullptr, set, i);
}

DistanceFade sourcePropFade(float min_dist, float max_dist, const glm::vec3& centre) {
    DistanceFade f;
    if (!(min_dist > 0.0f) && !(max_dist > 0.0f))
        return f; // also NaN: never fades
    if (min_dist > max_dist)
        std::swap(min_dist, max_dist);
    if (min_dist < 0.0f)
        min_dist = std::max(max_dist - 400.0f, 0.0f);
    f.min_sq = min_dist * min_dist;
    f.max_sq = max_dist * max_dist;
    f.centre = centre;
    return f;
}

glm::mat4 sourcePropMatrix(const glm::vec3& origin, const glm::vec3& angles) {
    glm::mat4 m = glm::translate(glm::mat4(1.0f), origin);
    m = glm::rotate(m, glm::radians(angles.y), glm::vec3(0, 0, 1));
    m = glm::rotate(m, glm::radians(angles.x), glm::vec3(0, 1, 0));
    return glm::rotate(m, glm::radians(angles.z), glm::vec3(1, 0, 0));
}

glm::vec3 sourcePropToWorld(const glm::vec3& origin, const glm::vec3& angles,
                            const glm::vec3& model_point) {
    return glm::vec3(sourcePropMatrix(origin, angles) * glm::vec4(model_point, 1.0f));
}

glm::vec3 ambientCubeLight(const std::array<glm::vec3, 6>& cube, const glm::vec3& n) {
    const glm::vec3 sq = n * n;
    return sq.x * cube[n.x < 0.0f ? 1 : 0] + sq.y * cube[n.y < 0.0f ? 3 : 2] +
           sq.z * cube[n.z < 0.0f ? 5 : 4];
}

} // namespace scene
