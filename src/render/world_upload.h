// A loaded map to the renderer: what its GPU set is built from (WorldSource) and the upload of
// a whole map (scene/load/map_bundle.h) or of its mesh at another patch level. Every mode that
// draws a map (the viewer, --screenshot, --bench, the render tests) uploads through here; brush
// model files on entities go through worldSourceOf's DrawableWorld form
// (render/brush_model_renderer.h).
#pragma once

#include "core/result.h"
#include "render/world_renderer.h"
#include "scene/load/drawable_world.h"
#include "scene/load/map_bundle.h"

#include <string>

namespace render {

// A core::Error of code Graphics with `detail` (GL and upload failures).
core::Error graphicsError(const std::string& detail);

// What the renderer builds a drawable world's GPU set from: its mesh unless `mesh` names
// another; drawn by `rules` (a brush model file: the world's), with `models` on its entities.
WorldSource worldSourceOf(const bsp::Map& map, const scene::DrawableWorld& world,
                          const game::MapRules& rules,
                          const scene::EntityModelSet* models = nullptr,
                          const scene::WorldMesh* mesh = nullptr);
// The same for a loaded map: its rules (profile.rules) and entity models.
WorldSource worldSourceOf(const scene::MapBundle& bundle, const scene::WorldMesh* mesh = nullptr);

// Uploads a loaded map whole; the renderer keeps its previous map on failure.
core::Status uploadBundle(WorldRenderer& renderer, const scene::MapBundle& bundle);

// Rebuilds the bundle's mesh at another patch level (scene::buildMapMesh, sprite data
// included) and uploads it through the same path as a load; on success the bundle holds the
// new mesh, on failure both the bundle and the renderer keep the old one. Callers rebuild
// anything that points into the mesh (scene::Visibility).
core::Status setPatchLevel(WorldRenderer& renderer, scene::MapBundle& bundle, int level);

} // namespace render
