// One frame of a world drawn as most render tests draw it: a new renderer and target, the
// camera's visible set, one draw, the pixels read back. Tests that compare several frames of
// one renderer (fog, sky region) keep their own renderer.
#pragma once

#include "render/render_target.h"
#include "render/world_renderer.h"
#include "scene/view/visibility.h"
#include "scene/view/water_reflection.h"
#include "scene/world/light_styles.h"

#include <glm/mat4x4.hpp>
#include <glm/matrix.hpp>
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

namespace testsupport {

// The options the render tests draw with unless they say otherwise: no fog, every light style
// at its value at time 0.
inline render::RenderOptions testRenderOptions() {
    render::RenderOptions ro;
    ro.fog = false;
    ro.style_values = scene::lightStyleValues(0.0);
    return ro;
}

// Draws `source` from `camera` into a new w x h target and returns its RGBA, top row first;
// `stats`, when given, gets the renderer's upload figures. A planar water's reflection view is
// built as the app builds it (app::MapSession::waterReflection) while the options ask for one.
inline std::vector<uint8_t> renderWorld(const render::WorldSource& source,
                                        const scene::Camera& camera, int w, int h,
                                        const render::RenderOptions& options = testRenderOptions(),
                                        render::GpuStats* stats = nullptr) {
    render::WorldRenderer r;
    std::string error;
    EXPECT_TRUE(r.init(render::GlslLibrary(), &error)) << error;
    EXPECT_TRUE(r.upload(source, &error)) << error;
    if (stats)
        *stats = r.gpuStats();
    render::RenderTarget target;
    EXPECT_TRUE(target.create(w, h, &error)) << error;
    scene::Visibility vis(source.map, source.mesh);
    scene::DrawList list;
    vis.update(camera, {}, list);
    scene::Visibility reflection_vis(source.map, source.mesh);
    scene::ReflectionView reflection;
    const bool reflected =
        options.water_reflection &&
        scene::updateReflectionView(camera, list,
                                    scene::planarWaterHeights(source.map, source.mesh.materials),
                                    reflection_vis, {}, reflection);
    target.bind();
    r.draw(list, camera, options, nullptr, reflected ? &reflection : nullptr);
    return target.readPixels();
}

// The point of the plane z = `z` that the centre of pixel (column, row) of a w x h view shows
// (row 0 at the top): the pixel's view ray through the inverse view-projection.
inline glm::vec3 pointOnPlaneZ(const scene::Camera& camera, int w, int h, int column, int row,
                               float z) {
    const glm::mat4 inverse = glm::inverse(camera.viewProjection());
    const float x = (static_cast<float>(column) + 0.5f) / static_cast<float>(w) * 2.0f - 1.0f;
    const float y = 1.0f - (static_cast<float>(row) + 0.5f) / static_cast<float>(h) * 2.0f;
    const glm::vec4 near = inverse * glm::vec4(x, y, -1.0f, 1.0f);
    const glm::vec4 far = inverse * glm::vec4(x, y, 1.0f, 1.0f);
    const glm::vec3 a = glm::vec3(near) / near.w, b = glm::vec3(far) / far.w;
    return a + ((z - a.z) / (b.z - a.z)) * (b - a);
}

} // namespace testsupport
