// A real map set up as the viewer sets it up (scene::loadMapBundle, render::uploadBundle) with its
// own renderer and an offscreen target: the start of every test that draws whole frames.
#pragma once

#include "render/world_renderer.h"
#include "render/world_upload.h"
#include "scene/load/map_bundle.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>

namespace gltest {

struct RealMap {
    std::unique_ptr<scene::MapBundle> bundle;
    render::WorldRenderer renderer;
    render::RenderTarget target;
};

// Fills `out` for `spec` with a width x height target; any failure fails the test (call with
// ASSERT_NO_FATAL_FAILURE).
inline void loadRealMap(const std::string& spec, int width, int height, RealMap& out) {
    auto bundle = scene::loadMapBundle(spec, scene::LoadSettings());
    ASSERT_TRUE(bundle.ok()) << bundle.error().message();
    out.bundle = std::move(*bundle);
    std::string error;
    ASSERT_TRUE(out.renderer.init(render::GlslLibrary(), &error)) << error;
    const core::Status st = render::uploadBundle(out.renderer, *out.bundle);
    ASSERT_TRUE(st.ok()) << st.error().message();
    ASSERT_TRUE(out.target.create(width, height, &error)) << error;
}

} // namespace gltest
