// A brush model file drawn on a point entity: Quake 1's item boxes (items.qc gives health and
// ammo the models "maps/b_bh25.bsp", "maps/b_shell0.bsp", ...). QuakeSpasm loads such a file as
// it loads a map (gl_model.c Mod_LoadBrushModel: its own miptex, faces and lightmaps, the
// lightmaps built into the same atlas as the world's) and draws its model 0 at the entity's
// origin and angles with the world's surface code (r_brush.c R_DrawBrushModel), lit by its own
// lightmaps and the light styles, not by the light below it (R_LightPoint).
//
// Here the file goes through the same loading path as a map (bsp::loadMap, then
// scene::buildDrawableWorld: textures, materials, lightmap set, mesh) into a GL-free set that
// the renderer uploads as a world of its own (render/world_upload.h) and draws once per instance
// with the instance's placement. GL-free.
#pragma once

#include "bsp/map.h"
#include "content/vfs/vfs.h"
#include "core/result.h"
#include "game/profile.h"
#include "scene/load/drawable_world.h"
#include "scene/view/visibility.h"

#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

namespace scene {

// The file's drawable world (DrawableWorld: textures, materials, lightmap pages, mesh; no
// shader scripts, so no stages, fogs or sky) and what drawing it as one model needs.
struct BrushModel : DrawableWorld {
    bsp::Map map; // as the parser made it
    // Every face of the file's model 0, batched as a world frame batches them (the drawn model
    // is a whole file: nothing in it is culled on its own).
    DrawList faces;
    glm::vec3 mins{0.0f}, maxs{0.0f}; // model 0's bounds
};

// Builds the set above from a brush model file parsed as a map (content::decodeBrushModel, the
// model registry's brush row: a map with a model 0), the file at virtual path `path` read
// through `fs`; textures come from the file's own miptex (or `fs`, as for a map).
//
// `world_unlit` is the rule of the map the model is drawn in (game::LightRule::unlit_faces): the
// engine lights a brush model by the world's light data, not the file's (QuakeSpasm r_brush.c
// R_BuildLightMap tests cl.worldmodel->lightdata). In a map without light data (Fullbright)
// every face of the model is full bright, its lightmaps unused; in a map with it (Black) a face
// without samples is black, even when the model's file has no light data at all. VertexColour
// keeps the file's own rule.
core::Result<BrushModel> buildBrushModel(bsp::Map map, std::string_view path,
                                         const content::FileSystem& fs,
                                         game::UnlitFaces world_unlit);

// decodeBrushModel, then buildBrushModel. Errors are the parser's: code, file, lump and index.
// Safe on hostile input (bsp::loadMap is).
core::Result<BrushModel> loadBrushModel(std::span<const uint8_t> bytes, std::string_view path,
                                        const content::FileSystem& fs,
                                        game::UnlitFaces world_unlit);

} // namespace scene
