// Source (VBSP 19-21, Strata Source 25) as the Source SDK 2013's engine draws it; sources read
// for the facts (ValveSoftware/source-sdk-2013, the Valve Developer Community; no code taken).
#include "game/families.h"

namespace game::detail {

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
    // Sky faces are drawn without depth, as the engine draws the sky box behind everything
    // instead of them (game::SkyDepth).
    p.rules.sky.writes_depth = false;
    return p;
}

} // namespace game::detail
