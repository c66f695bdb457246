// Quake 3 (IBSP 46), RTCW / Enemy Territory (IBSP 47) and Qfusion (FBSP) as ioquake3's opengl1
// renderer draws them with OpenArena's settings (fullscreen, r_mapOverBrightBits 2,
// r_overBrightBits 1), and ioquake3's game code; docs/fidelity.md has the measurements. Sources
// read for the facts (ioquake/ioq3 5956299; no code taken).
#include "game/families.h"

namespace game::detail {

GameProfile quake3Profile(const bsp::Map&) {
    GameProfile p;
    p.family = Family::Quake3;
    LightRule& light = p.rules.light;
    // code/renderergl1/tr_bsp.c R_ColorShiftLightingBytes: lightmap bytes and vertex colours
    // shifted left by r_mapOverBrightBits - r_overBrightBits = 1 (times 2), a colour passing 255
    // scaled down by its largest channel (hue kept); tr_image.c R_SetColorMappings: the gamma
    // table doubles the finished frame (s_gammatable[i] = min(255, i << overbrightBits)), every
    // surface drawn at tr.identityLight 1/2 (docs/fidelity.md, "The overbright doubling once per
    // frame"). No light styles: 'm' is 1.
    light.lightmap_scale = 2.0f;
    light.overbright = 1;
    // tr_image.c R_MipMap with r_simpleMipMaps 1 (its default): each level a 2x2 mean shifted
    // right by two, so rounded down.
    light.mips_round_down = 1;
    // tr_bsp.c ParseFace hands a negative lightmap number to R_FindShader, which selects the
    // shader's vertex-lit form (q3map2 writes LIGHTMAP_BY_VERTEX for such surfaces): a face
    // without lightmap data keeps its vertex colours.
    light.unlit_faces = UnlitFaces::VertexColour;
    // Liquids have no turbulent warp here (shader scripts deform them): the defaults.
    p.view.eye_height = 26.0f; // code/game/bg_public.h DEFAULT_VIEWHEIGHT
    // The sky box comes from the sky shader's skyParms (tr_shader.c ParseSkyParms), found by the
    // scene among the map's materials: no worldspawn key.
    p.entities.model_table = EntityModelTable::Quake3;
    // tr_light.c R_SetupEntityLighting: models lit from the light grid (tr_bsp.c
    // R_LoadLightGrid), or a fixed light when the map has none (scene/model_light.h).
    p.entities.model_lighting = ModelLighting::LightGrid;
    return p;
}

} // namespace game::detail
