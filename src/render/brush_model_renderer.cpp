#include "render/brush_model_renderer.h"

#include "render/frame.h"
#include "render/world_upload.h"
#include "scene/load/brush_model.h"

#include <glm/gtc/matrix_transform.hpp>

namespace render {

glm::mat4 brushModelPlacement(const glm::vec3& origin, const glm::vec3& angles) {
    glm::mat4 m = glm::translate(glm::mat4(1.0f), origin);
    m = glm::rotate(m, glm::radians(angles.y), glm::vec3(0, 0, 1));
    m = glm::rotate(m, glm::radians(angles.x), glm::vec3(0, 1, 0));
    m = glm::rotate(m, glm::radians(angles.z), glm::vec3(1, 0, 0));
    return m;
}

void BrushModelRenderer::clear() {
    m_sets.clear();
    m_instances.clear();
    m_drawn = 0;
}

bool BrushModelRenderer::upload(const scene::EntityModelSet* set, const game::MapRules& rules,
                                std::string* error) {
    clear();
    if (!set)
        return true;
    bool ok = true;
    std::vector<int32_t> set_of_model(set->models.size(), -1);
    for (size_t i = 0; i < set->models.size(); ++i) {
        const scene::BrushModel* brush = set->models[i].brush.get();
        if (!brush)
            continue;
        // The file's drawable world, drawn by the world's rules.
        const WorldSource source = worldSourceOf(brush->map, *brush, rules);
        std::string why;
        std::unique_ptr<WorldGpu> gpu = buildWorldGpu(source, &why);
        if (!gpu) {
            ok = false;
            if (error)
                *error += set->models[i].path + ": " + why + "\n";
            continue;
        }
        set_of_model[i] = static_cast<int32_t>(m_sets.size());
        m_sets.push_back({std::move(gpu), brush->faces});
    }
    m_instances.resize(set->instances.size());
    for (size_t i = 0; i < set->instances.size(); ++i) {
        const scene::EntityModelInstance& inst = set->instances[i];
        if (inst.model < set_of_model.size() && set_of_model[inst.model] >= 0)
            m_instances[i] = {set_of_model[inst.model],
                              brushModelPlacement(inst.origin, inst.angles)};
    }
    return ok;
}

void BrushModelRenderer::draw(Frame& world) {
    m_drawn = 0;
    if (m_sets.empty())
        return;
    DebugGroup group("brush models");
    // Timed as a part of the pass that calls this (the entity models): no timers of their own.
    RenderOptions options = world.options;
    options.timers = nullptr;
    for (uint32_t index : world.list.models) {
        if (index >= m_instances.size() || m_instances[index].set < 0)
            continue;
        const ModelSet& ms = m_sets[static_cast<size_t>(m_instances[index].set)];
        Frame f{ms.faces,       world.camera, options,        *ms.gpu,
                world.programs, world.state,  world.submitter};
        f.view_projection = world.view_projection;
        f.placement = m_instances[index].placement;
        f.light_curves = world.light_curves; // the world's map block is the one bound
        world.state.bindVertexArray(ms.gpu->vao.id());
        world.state.bindTexture(kUnitLightmaps, GL_TEXTURE_2D_ARRAY, ms.gpu->lightmaps.id());
        world.state.bindTexture(kUnitDeluxemaps, GL_TEXTURE_2D_ARRAY, ms.gpu->deluxemaps.id());
        drawWorldBatches(f);
        ++m_drawn;
    }
    world.state.bindVertexArray(world.gpu.vao.id());
    world.state.bindTexture(kUnitLightmaps, GL_TEXTURE_2D_ARRAY, world.gpu.lightmaps.id());
    world.state.bindTexture(kUnitDeluxemaps, GL_TEXTURE_2D_ARRAY, world.gpu.deluxemaps.id());
}

} // namespace render
