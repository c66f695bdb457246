// Entry points for the Source model and prop decoders (content/model/, bsp/source_props.h); the
// contract of each is in entry_points.h.
#include "entry_points.h"

#include "bsp/cube_maps.h"
#include "bsp/dropped.h"
#include "bsp/entities.h"
#include "bsp/map.h"
#include "bsp/overlays.h"
#include "bsp/source_props.h"
#include "bsp/world_lights.h"
#include "content/model/source_model.h"
#include "content/model/vhv.h"
#include "game/profile.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <string>

namespace fuzz {

namespace {

// Built meshes stay small enough to check quickly and to allocate in a fuzzer.
constexpr uint64_t kMaxCompanionVertices = 1u << 16;

Outcome rejectedWith(core::Error e) {
    Outcome o;
    if (e.code == core::ErrorCode::Ok)
        o.violation = "rejected with code Ok: " + e.message();
    else if (e.message().empty())
        o.violation = "rejected with an empty message";
    o.error = std::move(e);
    return o;
}

// What buildSourceModelMesh promises (source_model.h), or empty.
std::string sourceMeshViolation(const content::SourceModel& model, const content::ModelMesh& m) {
    const uint64_t n = m.vertex_count;
    if (m.pose_count != 1 || m.frames.size() != 1)
        return "not one pose in one frame";
    if (m.uv.size() != n || m.positions.size() != n || m.normals.size() != n)
        return "per-vertex arrays of the wrong size";
    if (m.indices.size() % 3 != 0)
        return "indices not whole triangles";
    for (uint32_t i : m.indices)
        if (i >= n)
            return "index " + std::to_string(i) + " past " + std::to_string(n) + " vertices";
    uint64_t next = 0;
    for (const content::ModelDrawRange& r : m.ranges) {
        if (r.first_index != next || uint64_t(r.first_index) + r.index_count > m.indices.size())
            return "draw ranges do not cover the indices in order";
        next = uint64_t(r.first_index) + r.index_count;
        if (!model.mdl.skin_families.empty() && r.material >= model.mdl.skin_refs)
            return "a range's material slot past the skin table";
    }
    if (next != m.indices.size())
        return "draw ranges leave indices out";
    if (m.materials.size() != model.mdl.textures.size())
        return "not one material per texture";
    for (const auto& family : m.skin_materials)
        for (uint32_t t : family)
            if (t >= m.materials.size())
                return "a skin names no material";
    return {};
}

// Assembles the three and checks the meshes of a few choices. `must_join`: the companions were
// made to fit, so a rejection is a violation.
Outcome joinAndBuild(content::SourceMdl mdl, content::Vvd vvd, content::Vtx vtx, bool must_join,
                     int32_t body) {
    auto model = content::assembleSourceModel(std::move(mdl), std::move(vvd), std::move(vtx),
                                              "fuzz.mdl", "fuzz.vvd", "fuzz.dx90.vtx");
    if (!model) {
        Outcome o = rejectedWith(std::move(model.error()));
        if (must_join && o.violation.empty())
            o.violation = "companions made to fit were refused: " + o.error.message();
        return o;
    }
    Outcome o;
    o.accepted = true;
    const uint32_t lods = content::sourceLodCount(*model);
    for (int32_t b : {0, body})
        for (uint32_t lod = 0; lod <= lods && o.violation.empty(); ++lod)
            o.violation =
                sourceMeshViolation(*model, content::buildSourceModelMesh(*model, b, lod));
    return o;
}

// A .vvd of `count` vertices (each at its index on x) that any .mdl's meshes can point into.
content::Vvd companionVvd(int32_t checksum, uint64_t count) {
    content::Vvd v;
    v.version = 4;
    v.checksum = checksum;
    v.lod_count = 1;
    v.lod_vertex_counts.fill(uint32_t(count));
    v.vertices.resize(size_t(count));
    for (size_t i = 0; i < v.vertices.size(); ++i)
        v.vertices[i].position = {float(i), 0.0f, 0.0f};
    return v;
}

// One triangle list over the first vertices of a mesh of `count`.
std::vector<uint16_t> fan(uint32_t count) {
    std::vector<uint16_t> t;
    for (uint32_t i = 2; i < std::min<uint32_t>(count, 64); ++i)
        t.insert(t.end(), {0, uint16_t(i - 1), uint16_t(i)});
    return t;
}

} // namespace

Outcome runSourceMdl(std::span<const uint8_t> data) {
    auto mdl = content::parseSourceMdl(data);
    if (!mdl)
        return rejectedWith(std::move(mdl.error()));
    // Companions made to fit: every mesh's vertices present, one LOD of fans.
    uint64_t need = 0;
    content::Vtx vtx;
    vtx.version = 7;
    vtx.checksum = mdl->checksum;
    vtx.lod_count = 1;
    for (const content::SourceMdlBodyPart& part : mdl->body_parts) {
        vtx.body_parts.emplace_back();
        for (const content::SourceMdlModel& model : part.models) {
            content::VtxModel xm;
            xm.lods.emplace_back();
            for (const content::SourceMdlMesh& mesh : model.meshes) {
                need = std::max(need, uint64_t(model.first_vertex) + mesh.vertex_offset +
                                          mesh.vertex_count);
                content::VtxMesh xmesh;
                xmesh.triangles = fan(mesh.vertex_count);
                xm.lods[0].meshes.push_back(std::move(xmesh));
            }
            vtx.body_parts.back().models.push_back(std::move(xm));
        }
    }
    if (need > kMaxCompanionVertices) {
        Outcome o;
        o.accepted = true; // parsed; too large to build companions for in a fuzzer
        return o;
    }
    content::Vvd vvd = companionVvd(mdl->checksum, need);
    return joinAndBuild(std::move(*mdl), std::move(vvd), std::move(vtx), true,
                        int32_t(data.size() % 97));
}

Outcome runVvd(std::span<const uint8_t> data) {
    auto vvd = content::parseVvd(data);
    if (!vvd)
        return rejectedWith(std::move(vvd.error()));
    if (vvd->lod_vertex_counts[0] != vvd->vertices.size() ||
        (!vvd->tangents.empty() && vvd->tangents.size() != vvd->vertices.size())) {
        Outcome o;
        o.accepted = true;
        o.violation = "vertices or tangents not numLODVertexes[0]";
        return o;
    }
    // An .mdl of one mesh over every vertex (up to 65535) and a .vtx of fans over it.
    const uint32_t count = uint32_t(std::min<size_t>(vvd->vertices.size(), 65535));
    content::SourceMdl mdl;
    mdl.version = 48;
    mdl.checksum = vvd->checksum;
    mdl.textures = {"t"};
    mdl.skin_refs = 1;
    mdl.skin_families = {{0}};
    mdl.body_parts.resize(1);
    mdl.body_parts[0].models.resize(1);
    mdl.body_parts[0].models[0].vertex_count = count;
    mdl.body_parts[0].models[0].meshes.resize(1);
    mdl.body_parts[0].models[0].meshes[0].vertex_count = count;
    content::Vtx vtx;
    vtx.version = 7;
    vtx.checksum = vvd->checksum;
    vtx.lod_count = 1;
    vtx.body_parts.resize(1);
    vtx.body_parts[0].models.resize(1);
    vtx.body_parts[0].models[0].lods.resize(1);
    vtx.body_parts[0].models[0].lods[0].meshes.resize(1);
    vtx.body_parts[0].models[0].lods[0].meshes[0].triangles = fan(count);
    return joinAndBuild(std::move(mdl), std::move(*vvd), std::move(vtx), true, 0);
}

Outcome runVtx(std::span<const uint8_t> data) {
    auto vtx = content::parseVtx(data);
    if (!vtx)
        return rejectedWith(std::move(vtx.error()));
    // An .mdl of the .vtx's shape (LOD 0's mesh counts; each mesh as many vertices as its
    // corners need over every LOD) and a .vvd holding them. LODs of other mesh counts make
    // the assembly refuse, which is then a proper rejection.
    content::SourceMdl mdl;
    mdl.version = 48;
    mdl.checksum = vtx->checksum;
    uint64_t total = 0;
    for (const content::VtxBodyPart& part : vtx->body_parts) {
        mdl.body_parts.emplace_back();
        for (const content::VtxModel& xm : part.models) {
            content::SourceMdlModel m;
            m.first_vertex = uint32_t(std::min<uint64_t>(total, kMaxCompanionVertices));
            const size_t meshes = xm.lods.empty() ? 0 : xm.lods[0].meshes.size();
            m.meshes.resize(meshes);
            for (const content::VtxLod& lod : xm.lods)
                for (size_t k = 0; k < std::min(meshes, lod.meshes.size()); ++k)
                    for (uint16_t v : lod.meshes[k].triangles)
                        m.meshes[k].vertex_count =
                            std::max(m.meshes[k].vertex_count, uint32_t(v) + 1);
            for (content::SourceMdlMesh& mesh : m.meshes) {
                mesh.vertex_offset = m.vertex_count;
                m.vertex_count += mesh.vertex_count;
            }
            total += m.vertex_count;
            mdl.body_parts.back().models.push_back(std::move(m));
        }
    }
    if (total > kMaxCompanionVertices) {
        Outcome o;
        o.accepted = true;
        return o;
    }
    bool same_meshes = true;
    for (const content::VtxBodyPart& part : vtx->body_parts)
        for (const content::VtxModel& xm : part.models)
            for (const content::VtxLod& lod : xm.lods)
                same_meshes = same_meshes && lod.meshes.size() == xm.lods[0].meshes.size();
    content::Vvd vvd = companionVvd(vtx->checksum, total);
    return joinAndBuild(std::move(mdl), std::move(vvd), std::move(*vtx), same_meshes,
                        int32_t(data.size() % 31));
}

Outcome runVhv(std::span<const uint8_t> data) {
    auto vhv = content::parseVhv(data);
    if (!vhv)
        return rejectedWith(std::move(vhv.error()));
    Outcome o;
    o.accepted = true;
    uint64_t total = 0;
    for (const content::VhvMesh& m : vhv->meshes)
        total += m.colours.size();
    if (total != vhv->vertex_count)
        o.violation = "mesh colours do not add up to the header's vertex count";
    return o;
}

Outcome runWorldLights(std::span<const uint8_t> data) {
    if (data.empty())
        return rejectedWith(
            core::makeError(core::ErrorCode::Truncated, "fuzz", -1, {}, "no version byte"));
    const int32_t version = data[0] & 1;
    const std::span<const uint8_t> lump = data.subspan(1);
    auto lights = bsp::parseWorldLights(lump, version, (data[0] & 2) != 0);
    if (!lights)
        return rejectedWith(std::move(lights.error()));
    Outcome o;
    o.accepted = true;
    const uint64_t record = version == 1 ? bsp::kWorldLightBytesV1 : bsp::kWorldLightBytesV0;
    if (lights->size() * record != lump.size())
        o.violation = "the lights are not the lump's whole records";
    for (const bsp::WorldLight& l : *lights) {
        const int32_t type = int32_t(l.type);
        const bool attenuated =
            l.constant_attn != 0.0f || l.linear_attn != 0.0f || l.quadratic_attn != 0.0f;
        if (type < 0 || type >= bsp::kEmitTypeCount)
            o.violation = "an emit type outside emittype_t";
        else if ((l.type == bsp::EmitType::Point || l.type == bsp::EmitType::Spotlight) &&
                 !attenuated)
            o.violation = "a point or spot light left without attenuation";
        else if (!std::isfinite(l.radius) || !std::isfinite(l.intensity.x))
            o.violation = "a light with a non-finite number";
    }
    return o;
}

Outcome runCubeMaps(std::span<const uint8_t> data) {
    auto samples = bsp::parseCubeMapSamples(data);
    if (!samples)
        return rejectedWith(std::move(samples.error()));
    Outcome o;
    o.accepted = true;
    if (samples->size() * bsp::kCubeMapSampleBytes != data.size())
        o.violation = "the samples are not the lump's whole records";
    else if (samples->size() > bsp::kMaxCubeMapSamples)
        o.violation = "more samples than MAX_MAP_CUBEMAPSAMPLES";
    for (const bsp::CubeMapSample& s : *samples)
        if (s.size > bsp::kMaxCubeMapSizeField)
            o.violation = "a sample with a size field past the limit";
    return o;
}

namespace {

// Two faces side by side (x 0..64 and 64..128, z 0), one per leaf; lightmap coordinates x / 128.
bsp::Map overlayFloor() {
    bsp::Map map;
    map.format = bsp::Format::Source;
    map.materials.resize(4);
    for (float x : {0.0f, 64.0f, 128.0f})
        for (float y : {0.0f, 128.0f}) {
            bsp::Vertex v;
            v.position = {x, y, 0.0f};
            v.lm_uv = {x / 128.0f, y / 128.0f};
            map.vertices.push_back(v);
        }
    map.indices = {0, 2, 3, 0, 3, 1, 2, 4, 5, 2, 5, 3};
    // Face 0 (x 0..64) is the world's, in leaf 0; face 1 (x 64..128) a brush entity's (model 1),
    // in no leaf, as vbsp stores an entity's faces.
    map.leaves.resize(2);
    map.submodels.resize(2);
    for (uint32_t k = 0; k < 2; ++k) {
        bsp::Face f;
        f.first_index = 6 * k;
        f.num_indices = 6;
        f.first_vertex = 2 * k;
        f.num_vertices = 4;
        f.submodel = int32_t(k);
        map.faces.push_back(f);
        map.submodels[k].first_face = k;
        map.submodels[k].num_faces = 1;
    }
    map.leaves[0].num_leaf_faces = 1;
    map.leaf_faces.push_back(0);
    map.leaves[1].first_leaf_face = 1;
    return map;
}

std::string overlayFragmentViolation(const bsp::Map& map) {
    for (size_t f = 2; f < map.faces.size(); ++f) {
        const bsp::Face& face = map.faces[f];
        for (uint32_t k = 0; k < face.num_indices; ++k)
            if (map.indices[face.first_index + k] >= map.vertices.size())
                return "a fragment index beyond the vertices";
        if (face.submodel != 0 && face.submodel != 1)
            return "a fragment of a model its face is not in";
        // The world's face spans x 0..64, the brush model's 64..128.
        const float lo = face.submodel == 0 ? -1.0f : 63.0f,
                    hi = face.submodel == 0 ? 65.0f : 129.0f;
        for (uint32_t k = 0; k < face.num_vertices; ++k) {
            const glm::vec3 p = map.vertices[face.first_vertex + k].position;
            if (!(p.x >= lo && p.x <= hi && p.y >= -1.0f && p.y <= 129.0f && std::abs(p.z) <= 1.0f))
                return "a fragment vertex off its face";
        }
    }
    for (const bsp::Leaf& leaf : map.leaves)
        for (uint32_t k = 0; k < leaf.num_leaf_faces; ++k) {
            if (leaf.first_leaf_face + k >= map.leaf_faces.size() ||
                map.leaf_faces[leaf.first_leaf_face + k] >= map.faces.size())
                return "a leaf naming a face the map lacks";
            if (map.faces[map.leaf_faces[leaf.first_leaf_face + k]].submodel != 0)
                return "a brush model's fragment in a world leaf";
        }
    return {};
}

} // namespace

Outcome runOverlays(std::span<const uint8_t> data) {
    if (data.size() < 2 || data.size() < 2 + bsp::kOverlayFadeBytes * data[1])
        return rejectedWith(core::makeError(core::ErrorCode::Truncated, "fuzz", -1, {},
                                            "no version byte, fade count or fades"));
    const size_t fade_bytes = bsp::kOverlayFadeBytes * data[1];
    auto overlays = bsp::parseOverlays(data.subspan(2 + fade_bytes), data[0]);
    if (!overlays)
        return rejectedWith(std::move(overlays.error()));
    if (auto fades = bsp::readOverlayFades(data.subspan(2, fade_bytes), *overlays); !fades)
        return rejectedWith(std::move(fades.error()));
    Outcome o;
    o.accepted = true;
    if (overlays->size() * bsp::kOverlayBytes != data.size() - 2 - fade_bytes)
        o.violation = "the overlays are not the lump's whole records";
    bsp::Map map = overlayFloor();
    bsp::DroppedReferences dropped;
    const bsp::OverlayFaceStats stats = bsp::buildOverlayFaces(map, *overlays, dropped);
    if (map.faces.size() != 2 + stats.fragments)
        o.violation = "fragments counted and made differ";
    for (size_t f = 2; f < map.faces.size(); ++f)
        if (!(map.faces[f].max_distance_sq >= 0.0f))
            o.violation = "a fragment's fade distance is negative or not a number";
        else if (std::string why = overlayFragmentViolation(map); !why.empty())
            o.violation = why;
    return o;
}

Outcome runToneMap(std::span<const uint8_t> data) {
    bsp::Map map;
    map.format = bsp::Format::Source;
    map.has_light_data = true;
    map.lighting_variants = {"HDR"};
    map.lighting_variant = "HDR";
    std::vector<std::string> warnings;
    map.entities = bsp::parseEntities(
        std::string_view(reinterpret_cast<const char*>(data.data()), data.size()), &warnings);
    const game::ToneMapRule t = game::profileFor(map).rules.tonemap;
    Outcome o;
    o.accepted = true;
    int32_t controllers = 0;
    for (const bsp::Entity& e : map.entities)
        controllers += e.classname() == "env_tonemap_controller" ? 1 : 0;
    for (const float v : {t.scale, t.auto_min, t.auto_max, t.rate, t.bloom_scale})
        if (!std::isfinite(v))
            o.violation = "a tone map setting is not finite";
    if (t.scale < 0.0f || t.rate < 0.0f)
        o.violation = "a negative scale or rate";
    else if (!(t.auto_min > 0.0f && t.auto_min <= t.auto_max))
        o.violation = "auto exposure's range is empty or not above 0";
    else if (!t.enabled)
        o.violation = "HDR lighting drawn without the tone map";
    else if (t.source != game::ToneMapSource::Defaults &&
             (t.source != game::ToneMapSource::Controller || t.controllers == 0))
        o.violation = "settings from a controller the map lacks";
    else if (t.controllers < controllers)
        o.violation = "controllers miscounted";
    return o;
}

Outcome runFogController(std::span<const uint8_t> data) {
    bsp::Map map;
    map.format = bsp::Format::Source;
    std::vector<std::string> warnings;
    map.entities = bsp::parseEntities(
        std::string_view(reinterpret_cast<const char*>(data.data()), data.size()), &warnings);
    const game::GameProfile p = game::profileFor(map);
    Outcome o;
    o.accepted = true;
    bool controller = false;
    for (const bsp::Entity& e : map.entities)
        controller = controller || e.classname() == "env_fog_controller";
    const float far = p.view.far_plane;
    const game::LinearFog& fog = p.rules.linear_fog;
    if (!std::isfinite(far) || far < 0.0f)
        o.violation = "the far plane is negative or not finite";
    else if (far > 0.0f && !controller)
        o.violation = "a far plane without a fog controller";
    for (const float v : {fog.start, fog.end, fog.max_density})
        if (!std::isfinite(v))
            o.violation = "a fog distance or density is not finite";
    for (const glm::vec3 c : {fog.colour, fog.colour2})
        for (int i = 0; i < 3; ++i)
            if (!(c[i] >= 0.0f && c[i] <= 1.0f))
                o.violation = "a fog colour outside 0..1";
    for (const std::string& w : p.warnings) {
        size_t at = size_t(-1);
        if (w.rfind("entity ", 0) == 0)
            std::from_chars(w.data() + 7, w.data() + w.size(), at);
        if (at >= map.entities.size() || map.entities[at].classname() != "env_fog_controller" ||
            w.find("key farz") == std::string::npos)
            o.violation = "a warning that names no fog controller's farz: " + w;
    }
    return o;
}

Outcome runPropLumps(std::span<const uint8_t> data) {
    if (data.size() < 3)
        return rejectedWith(core::makeError(core::ErrorCode::Truncated, "fuzz", -1, {},
                                            "fewer than 3 bytes (kind, version)"));
    const uint8_t kind = data[0] % 3;
    const uint16_t version = uint16_t(data[1] | (data[2] << 8));
    const std::span<const uint8_t> lump = data.subspan(3);
    Outcome o;
    if (kind == 0) {
        auto p = bsp::parseStaticProps(lump, version);
        if (!p)
            return rejectedWith(std::move(p.error()));
        o.accepted = true;
        for (const bsp::StaticProp& s : p->props)
            if (s.model >= p->models.size() ||
                uint32_t(s.first_leaf) + s.leaf_count > p->leaves.size())
                o.violation = "a static prop's model or leaves outside their tables";
    } else if (kind == 1) {
        auto d = bsp::parseDetailProps(lump, version);
        if (!d)
            return rejectedWith(std::move(d.error()));
        o.accepted = true;
        for (const bsp::DetailProp& p : d->props)
            if (p.model >=
                (p.type == bsp::DetailType::Model ? d->models.size() : d->sprites.size()))
                o.violation = "a detail prop's model or sprite outside its dictionary";
    } else {
        // The version's low byte splits the bytes into the index and the samples.
        const size_t split = std::min<size_t>(lump.size(), size_t(version & 0xff) * 4);
        const std::span<const uint8_t> index = lump.first(split);
        bsp::Map map;
        map.leaves.resize(index.size() / 4);
        for (size_t i = 0; i < map.leaves.size(); ++i)
            map.leaves[i].maxs = glm::vec3(float(i + 1) * 16.0f);
        auto set = bsp::parseLeafAmbient(index, 0, lump.subspan(split), map.leaves.size(),
                                         (version & 0x100) != 0);
        if (!set)
            return rejectedWith(std::move(set.error()));
        o.accepted = true;
        map.leaf_ambient = std::move(*set);
        (void)bsp::ambientCubeAt(map, glm::vec3(float(version >> 9)), false);
    }
    return o;
}

std::string checkSourcePropInvariants(const bsp::Map& m) {
    const bsp::StaticProps& sp = m.static_props;
    for (size_t i = 0; i < sp.props.size(); ++i)
        if (sp.props[i].model >= sp.models.size() ||
            uint32_t(sp.props[i].first_leaf) + sp.props[i].leaf_count > sp.leaves.size())
            return "static_props[" + std::to_string(i) + "] outside its tables";
    const bsp::DetailProps& dp = m.detail_props;
    for (size_t i = 0; i < dp.props.size(); ++i)
        if (dp.props[i].model >=
            (dp.props[i].type == bsp::DetailType::Model ? dp.models.size() : dp.sprites.size()))
            return "detail_props[" + std::to_string(i) + "] outside its dictionary";
    for (const bsp::LeafAmbientLighting* set : {&m.leaf_ambient, &m.leaf_ambient_hdr}) {
        if (!set->present())
            continue;
        if (set->leaves.size() != m.leaves.size())
            return "leaf ambient index not one entry per leaf";
        for (size_t i = 0; i < set->leaves.size(); ++i) {
            const bsp::LeafAmbientIndex& e = set->leaves[i];
            if ((e.count > 0 && uint64_t(e.first) + e.count > set->samples.size()) ||
                (e.count == 0 && e.first >= set->leaves.size()))
                return "leaf ambient index[" + std::to_string(i) + "] out of range";
        }
    }
    return {};
}

} // namespace fuzz
