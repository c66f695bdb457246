// Brush model files on point entities (scene/load/brush_model.h: Quake 1's item boxes): each file
// is a world of its own on the GPU (render/world_gpu.h: its buffers, textures and lightmap pages),
// drawn once per visible instance through the world's passes (drawWorldBatches) with the
// instance's placement, so its faces are lit by its own lightmaps and the light styles exactly
// as the map's are (QuakeSpasm r_brush.c R_DrawBrushModel draws them with the world's surface
// code). Drawn with the entity models, after the opaque world.
#pragma once

#include "render/world_gpu.h"
#include "scene/models/model_set.h"
#include "scene/view/visibility.h"

#include <glm/mat4x4.hpp>

#include <memory>
#include <string>
#include <vector>

namespace render {

struct Frame;

class BrushModelRenderer {
public:
    // The brush models of a new map (nullptr: none). Builds a GPU set per brush model of `set`
    // and keeps each instance's placement. A model whose set fails to build is left undrawn and
    // named in *error (the rest still draw); false then. They are drawn by the world's `rules`,
    // as the engine draws a brush model file with the world's renderer.
    bool upload(const scene::EntityModelSet* set, const game::MapRules& rules, std::string* error);
    void clear();

    // Draws the instances of `world.list.models` that show a brush model, each through the
    // world's passes with its own GPU set; leaves the world's vertex array and lightmap pages
    // bound again for the passes after it.
    void draw(Frame& world);

    size_t modelCount() const { return m_sets.size(); }
    size_t drawnCount() const { return m_drawn; }

private:
    struct ModelSet {
        std::unique_ptr<WorldGpu> gpu;
        scene::DrawList faces; // every face of the file's model 0 (scene::BrushModel::faces)
    };
    struct Instance {
        int32_t set = -1; // into m_sets; -1: not a brush model
        glm::mat4 placement{1.0f};
    };
    std::vector<ModelSet> m_sets;
    std::vector<Instance> m_instances; // parallel to EntityModelSet::instances
    size_t m_drawn = 0;
};

// An instance's placement as QuakeSpasm places a brush model (r_brush.c R_DrawBrushModel negates
// the pitch around R_RotateForEntity, the "stupid quake bug" that alias models keep): moved to
// the origin, turned by yaw about z, pitch about y and roll about x.
glm::mat4 brushModelPlacement(const glm::vec3& origin, const glm::vec3& angles);

} // namespace render
