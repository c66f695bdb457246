// How a thing is drawn over what lies behind it, in one vocabulary for every world batch, brush
// model batch, model draw range and sprite: the draw order, blending, depth test and write, back
// face culling, alpha cut-off and whether it takes light. GL-free: the scene resolves it from
// the games' own vocabularies (material flags and passes, Half-Life render modes, studio and
// Source material flags, sprite formats) and render::applyDrawState turns it into GL state.
//
// Model ranges and sprites are resolved once, when the renderer takes a new model set
// (scene/models/model_draw_state.h); a world batch is resolved when it is drawn from its loaded
// material and brush model, since its opacity follows the live liquid opacity option.
#pragma once

#include "bsp/map.h"
#include "scene/world/material_table.h"

#include <cstdint>

namespace scene {

// Which of the two model passes draws it: the opaque one, or after it (blended, no depth
// writes). World batches keep their scene::Pass order; this says which side of it they fall.
enum class DrawOrder : uint8_t { Opaque, Blended };

// The blend equation's factors (source colour, what is behind).
enum class Blend : uint8_t {
    Off,      // replaces what is behind
    Alpha,    // src * a + dst * (1 - a)
    AlphaAdd, // src * a + dst (Half-Life additive and glow modes, Quake 2 additive surfaces)
    Add,      // src + dst (Quake 3 GL_ONE GL_ONE, additive studio textures)
};
const char* blendName(Blend blend);

// Whether a model or sprite takes the light of where it stands, or shows its texels as they
// are (fullbright models, additive render modes, Source UnlitGeneric, every sprite). World
// batches: Unlit is a brush model the game draws without its lightmaps.
enum class Lighting : uint8_t { Lit, Unlit };

struct DrawState {
    DrawOrder order = DrawOrder::Opaque;
    Blend blend = Blend::Off;
    bool depth_test = true;
    bool depth_write = true;
    bool cull = true;        // back faces culled (the meshes wind front faces clockwise)
    bool alpha_test = false; // texels under the cut-off are discarded
    Lighting lighting = Lighting::Lit;
    // Every fragment's depth is the far plane's (render::kFarPlaneDepth), tested "less": of
    // several layers over a pixel the first is shaded and the rest are rejected before shading,
    // and anything nearer than the far plane drawn later covers it (game::SkyDepth).
    bool at_far_plane = false;
    bool operator==(const DrawState&) const = default;
};

// Opacity of a world batch: the material's own (Quake 2 TRANS33/66, Half-Life renderamt), times
// `liquid_alpha` (the adjustable liquid opacity) for liquids, times the brush model's own when it
// blends (Half-Life renderamt); 1 for the opaque passes and batches without a material.
float worldBatchOpacity(Pass pass, const ResolvedMaterial* material, const bsp::Submodel* submodel,
                        float liquid_alpha);

// The state of one world batch: `pass` and `material` as the mesh resolved them (material may
// be null), `submodel` the brush model it belongs to (null: the world), `alpha` its opacity
// (worldBatchOpacity). The sky is seen
// from inside (no culling) and drawn at the far plane when `sky_at_far_plane` (game::SkyDepth).
DrawState worldBatchDrawState(Pass pass, const ResolvedMaterial* material,
                              const bsp::Submodel* submodel, float alpha,
                              bool sky_at_far_plane = false);

// The overdraw view's change to any state: every face added, none hidden (no depth test), the
// sky culled as the other faces are.
DrawState overdrawState(DrawState state, bool two_sided);

} // namespace scene
