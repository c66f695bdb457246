// Quake 2 (IBSP 38, the re-release's QBSP) as yquake2's GL3 renderer draws it at its defaults,
// and id's game code; docs/fidelity.md has the measurements. Sources read for the facts
// (yquake2/yquake2 69599f5, id's ref_gl and game code; no code taken).
#include "game/families.h"

namespace game::detail {

GameProfile quake2Profile(const bsp::Map& map) {
    GameProfile p;
    p.family = Family::Quake2;
    LightRule& light = p.rules.light;
    // gl3_main.c GL3_Register and gl3_shaders.c fragmentSrc3Dlm: the texel times gl3_intensity
    // 1.5, the lightmap times gl3_overbrightbits 1.3, the product to the power 1 / vid_gamma 1.2,
    // no clamp before the gamma. 'm' is exactly 1 (client/cl_fx.c CL_SetLightstyle stores
    // (c - 'a') / ('m' - 'a'); GL3_BuildLightMap scales by lightstyles[].rgb).
    light.lightmap_scale = 1.3f;
    light.texture_scale = 1.5f;
    light.output_gamma = 1.0f / 1.2f;
    // gl3_light.c GL3_BuildLightMap ("no lightmap samples? set at least one lightmap to
    // fullbright"), id's ref_gl R_BuildLightMap ("set to full bright if no light data").
    light.unlit_faces = UnlitFaces::Fullbright;
    // gl3_shaders.c fragmentSrc3Dwater: warps move by 4 texels of 64; gl3_warp.c
    // GL3_EmitWaterPolys keeps GLQuake's 16 pi period and the time in seconds.
    p.rules.warp.amplitude = 4.0f / 64.0f;
    p.view.eye_height = 22.0f; // game/p_client.c PutClientInServer: ent->viewheight = 22
    // SV_SpawnServer / GL3_SetSky: worldspawn "sky" names env/<sky><rt|bk|lf|ft|up|dn>.
    p.skybox = skyPath(worldspawn(map), "sky", "env/");
    p.entities.model_table = EntityModelTable::Quake2;
    p.entities.model_lighting = ModelLighting::LightPoint;
    // yquake2 sv_entities.c SV_BuildClientFrame culls entities by PVS clusters and areas too,
    // with other limits than Quake 1's: not modelled (no reference draws Quake 2 brush
    // entities here), so every brush model in the frustum is drawn.
    return p;
}

} // namespace game::detail
