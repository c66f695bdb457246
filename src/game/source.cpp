// Source (VBSP 19-21, Strata Source 25) as the Source SDK 2013's engine draws it; sources read
// for the facts (ValveSoftware/source-sdk-2013, the Valve Developer Community; no code taken).
#include "game/entity_keys.h"
#include "game/families.h"

#include <charconv>
#include <cstdint>

namespace game::detail {

namespace {

// A colour32 key "r g b [a]" as 0..1 per channel: each number read as an int and stored in a
// byte (its low 8 bits), a missing one 0 (game/shared/util_shared.cpp UTIL_StringToColor32).
glm::vec3 colour32Key(const bsp::Entity& e, std::string_view key) {
    const std::string_view v = e.get(key);
    glm::vec3 c{0.0f};
    size_t at = 0;
    for (int i = 0; i < 3; ++i) {
        while (at < v.size() && (v[at] == ' ' || v[at] == '\t'))
            ++at;
        int32_t n = 0;
        const auto r = std::from_chars(v.data() + at, v.data() + v.size(), n);
        if (r.ec != std::errc())
            break;
        at = size_t(r.ptr - v.data());
        c[i] = float(uint8_t(uint32_t(n) & 0xFFu)) / 255.0f;
    }
    return c;
}

// The 3D sky box of the map's sky_camera (game/server/SkyCamera.cpp CSkyCamera's key fields and
// Spawn; game/client/viewrender.cpp CSkyboxView::DrawInternal and Enable3dSkyboxFog). Each
// sky_camera joins the head of a list whose head is the current one
// (game/server/entitylist.h CEntityClassList::Insert, SkyCamera.cpp GetCurrentSkyCamera), so
// the last one in the entity lump wins; none: no 3D sky (playerlocaldata.cpp ClientData_Update
// sets area 255, which CSkyboxView::PreRender3dSkyboxWorld reads as no sky).
std::optional<SkyRegion> skyCamera(const bsp::Map& map) {
    const bsp::Entity* camera = nullptr;
    for (const bsp::Entity& e : map.entities)
        if (e.classname() == "sky_camera")
            camera = &e;
    if (!camera)
        return std::nullopt;
    SkyRegion r;
    r.origin = camera->vec3("origin").value_or(glm::vec3(0.0f));
    // An integer key; the eye is divided by it only when it is above 0.
    const int32_t scale = intKey(*camera, "scale", 0);
    r.scale = scale > 0 ? float(scale) : 1.0f;
    r.fog.enabled = intKey(*camera, "fogenable", 0) != 0;
    r.fog.colour = colour32Key(*camera, "fogcolor");
    r.fog.start = floatKey(*camera, "fogstart", 0.0f);
    r.fog.end = floatKey(*camera, "fogend", 0.0f);
    r.fog.max_density = floatKey(*camera, "fogmaxdensity", 1.0f); // the constructor's 1
    return r;
}

} // namespace

GameProfile sourceProfile(const bsp::Map& map) {
    GameProfile p;
    p.family = Family::Source;
    LightRule& light = p.rules.light;
    // A face without lighting is drawn full bright, as the engine does (mat_fullbright). With no
    // lighting lump at all the engine shows each texture as it is (the look of mat_fullbright
    // 1): the 2x overbright belongs to luxels, and such a map has none, so the full light of its
    // faces is 1x, not 2x (bspsrc's *_tooltextures samples).
    light.unlit_faces = UnlitFaces::Fullbright;
    light.lightmap_scale = map.has_light_data ? 2.0f : 1.0f;
    p.view.eye_height = 64.0f; // VEC_VIEW: Half-Life 2, Counter-Strike: Source and TF2 alike
    // Worldspawn "skyname" names the sky box materials/skybox/<skyname>{rt,bk,lf,ft,up,dn}.vmt
    // (VDC "Skybox (2D)"; the sides are materials, usually UnlitGeneric or Sky).
    p.skybox = skyPath(worldspawn(map), "skyname", "skybox/");
    // The pakfile lump (a zip of the map's own materials and cube maps) is searched before every
    // other source, as the engine mounts it first (filesystem: the BSP's pack file).
    p.mount.embedded_archive_first = true;
    p.materials.files = MaterialFiles::ValveMaterials;
    // Static props (sprp) and prop_dynamic / prop_physics draw their studio models
    // (scene/models/source_props.h), not a table's.
    p.entities.model_table = EntityModelTable::SourceProps;
    // public/materialsystem/materialsystem_config.h MaterialSystem_Config_t: trilinear filtering
    // forced on (MATSYS_VIDCFG_FLAGS_FORCE_TRILINEAR); the anisotropy level is the engine's
    // mat_forceaniso, whose default the SDK does not hold: 1 (off) here.
    p.rules.textures = {.mode = TextureMode::LinearMipmapLinear, .anisotropy = 1.0f};
    // Sky faces are drawn at the far plane, as the engine draws the sky box behind everything
    // instead of them (game::SkyDepth).
    p.rules.sky.at_far_plane = true;
    p.sky_region = skyCamera(map);
    return p;
}

} // namespace game::detail
