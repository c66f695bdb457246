#include "render/world_renderer.h"

#include "render/brush_model_renderer.h"
#include "render/flare_renderer.h"
#include "render/frame.h"
#include "render/gpu_timers.h"
#include "render/model_renderer.h"
#include "render/tone_map.h"

#include "core/log.h"

#include <glm/gtc/type_ptr.hpp>

namespace render {

WorldRenderer::WorldRenderer() = default;
WorldRenderer::~WorldRenderer() = default;

const GpuStats& WorldRenderer::gpuStats() const {
    static const GpuStats kEmpty;
    return m_gpu ? m_gpu->stats : kEmpty;
}

bool WorldRenderer::init(const GlslLibrary& shaders, std::string* error) {
    auto programs = std::make_unique<ProgramCache>();
    if (!programs->init(shaders, error))
        return false;
    // Quake 3 flares: their own module, drawn after the world (render/flare_renderer.h).
    auto flares = std::make_unique<FlareRenderer>();
    if (!flares->init(shaders, error))
        return false;
    // Entity models and sprites: drawn after the opaque world (render/model_renderer.h).
    auto models = std::make_unique<ModelRenderer>();
    if (!models->init(shaders, error))
        return false;
    m_programs = std::move(programs);
    m_flares = std::move(flares);
    m_models = std::move(models);
    m_brush_models = std::make_unique<BrushModelRenderer>();
    // Cube maps ($envmap reflections) filter across their face edges, as Direct3D's do.
    glEnable(GL_TEXTURE_CUBE_MAP_SEAMLESS);
    return true;
}

bool WorldRenderer::reloadShaders(std::string* error) {
    if (!m_programs)
        return false;
    // Both sets compile or neither is replaced.
    std::unique_ptr<ProgramCache> fresh = m_programs->rebuilt(error);
    if (!fresh || !m_flares->reloadPrograms(fresh->glsl(), error) ||
        !m_models->reloadPrograms(fresh->glsl(), error))
        return false;
    m_programs = std::move(fresh);
    return true;
}

bool WorldRenderer::upload(const WorldSource& source, std::string* error) {
    std::unique_ptr<WorldGpu> gpu = buildWorldGpu(source, error);
    if (!gpu)
        return false;
    gpu->water_heights = source.water_heights
                             ? *source.water_heights
                             : scene::planarWaterHeights(source.map, gpu->materials);
    m_gpu = std::move(gpu);
    // A new map starts its exposure over (the client's ResetToneMapping at level start).
    m_exposure_on = false;
    m_meter.reset();
    if (m_flares)
        m_flares->upload(source.map, source.mesh.materials, source.textures);
    if (m_models)
        m_models->upload(source.models);
    // A brush model that fails to upload is left undrawn; the map is drawn all the same.
    if (std::string why;
        m_brush_models && !m_brush_models->upload(source.models, source.rules, &why))
        core::logWarning("brush models not uploaded: " + why);
    return true;
}

void WorldRenderer::setStageEnabled(int32_t material, int shader_stage, bool enabled) {
    if (!m_gpu || material < 0 || static_cast<size_t>(material) >= m_gpu->staged.size() ||
        shader_stage < 0 || shader_stage >= 32)
        return;
    uint32_t& bits = m_gpu->staged[static_cast<size_t>(material)].disabled;
    const uint32_t bit = 1u << shader_stage;
    bits = enabled ? bits & ~bit : bits | bit;
}

bool WorldRenderer::stageEnabled(int32_t material, int shader_stage) const {
    const GpuStagedMaterial* sm = m_gpu ? m_gpu->stagedMaterial(material) : nullptr;
    return !sm || shader_stage < 0 || shader_stage >= 32 || !(sm->disabled & (1u << shader_stage));
}

GLuint WorldRenderer::materialTexture(size_t material) const {
    return m_gpu && material < m_gpu->textures.size() ? m_gpu->textures[material] : 0;
}

void WorldRenderer::clear(const RenderOptions& options, float frame_scale) {
    const glm::vec4 clear = options.clear_colour;
    glClearColor(clear.r * frame_scale, clear.g * frame_scale, clear.b * frame_scale, clear.a);
    m_state.depthMask(true);
    if (options.timers)
        options.timers->begin("clear");
    glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
    if (options.timers)
        options.timers->end();
}

bool WorldRenderer::autoExposed(const RenderOptions& options) const {
    return m_gpu && options.auto_exposure &&
           toneMapped(m_gpu->rules.tonemap, options.view, options.neutral_lighting);
}

float WorldRenderer::toneScale(const RenderOptions& options) const {
    if (!m_gpu || !toneMapped(m_gpu->rules.tonemap, options.view, options.neutral_lighting))
        return 1.0f;
    return autoExposed(options) && m_exposure_on ? m_exposure.scale() : m_gpu->rules.tonemap.scale;
}

void WorldRenderer::updateExposure(const RenderOptions& options) {
    const bool on = autoExposed(options);
    if (on) {
        const game::ToneMapRule& rule = m_gpu->rules.tonemap;
        // Switched on: from the fixed scale shown until now (the map's start).
        if (!m_exposure_on) {
            m_exposure.reset(rule.scale);
            m_meter.reset();
        }
        if (const auto h = m_meter.poll())
            m_exposure.measured(*h, rule);
        m_exposure.advance(options.frame_seconds, rule);
    }
    m_exposure_on = on;
}

float WorldRenderer::toneScaleOf(const RenderOptions& options) const {
    return m_gpu ? toneScaleFactor(m_gpu->rules.tonemap, toneScale(options)) : 1.0f;
}

void WorldRenderer::draw(const scene::DrawList& list, const scene::Camera& camera,
                         const RenderOptions& options, const scene::RegionView* region,
                         const scene::ReflectionView* reflection) {
    if (m_gpu) // binds textures: before the state cache is reset
        applyTextureFilter(*m_gpu,
                           effectiveTextureFilter(m_gpu->rules.textures, options.texture_filter));
    m_state.invalidate(); // names may have been deleted and reused since the last frame
    // A map whose display doubles the frame (game::LightRule::overbright) is drawn at half
    // the shown value and doubled once at the end (pass_display.cpp), in the lit view.
    const float frame_scale = m_gpu && m_gpu->rules.light.overbright && options.hardware_gamma &&
                                      options.view == ViewMode::Lit && !options.neutral_lighting
                                  ? 0.5f
                                  : 1.0f;
    clear(options, frame_scale);
    m_frame_drawn = false;
    if (!m_gpu || !m_programs)
        return;
    DebugGroup group("world");
    m_submitter.beginFrame(options.draw_path);
    Frame f{list, camera, options, *m_gpu, *m_programs, m_state, m_submitter};
    f.view_projection = camera.viewProjection();
    f.overdraw = options.view == ViewMode::Overdraw;
    f.staged = options.shader_stages && options.view == ViewMode::Lit && !m_gpu->staged.empty();
    f.fog = options.fog && options.view == ViewMode::Lit && !m_gpu->fogs.empty();
    f.frame_scale = frame_scale;
    updateExposure(options);
    f.tone_scale = toneScaleOf(options);
    f.light_curves = lightCurves(mapBlock(f));
    // The whole view's linear fog (Source's env_fog_controller), its colour for this view.
    scene::LinearFog view_fog;
    if (m_gpu->rules.linear_fog.enabled) {
        view_fog = scene::viewFog(m_gpu->rules.linear_fog, camera);
        f.linear_fog = &view_fog;
    }
    m_state.enable(GL_DEPTH_TEST, true);
    m_state.depthFunc(GL_LEQUAL);
    m_state.cullFace(GL_FRONT); // the meshes wind front faces clockwise
    m_state.bindVertexArray(m_gpu->vao.id());
    m_state.bindTexture(kUnitLightmaps, GL_TEXTURE_2D_ARRAY, m_gpu->lightmaps.id());
    m_state.bindTexture(kUnitDeluxemaps, GL_TEXTURE_2D_ARRAY, m_gpu->deluxemaps.id());
    m_state.bindTexture(kUnitSkybox, GL_TEXTURE_2D_ARRAY, m_gpu->skybox.id());
    if (region && options.sky_region && !f.overdraw) {
        drawRegion(f, *region);
        f.sky_hidden = true;
    }
    // A planar water's reflection, drawn into its texture before the frame's own blocks.
    m_water.reflected = false;
    if (reflection && planarWaterShown(f)) {
        f.beginTimer("water reflection");
        drawWaterReflection(f, *reflection, m_water);
        f.endTimer();
        if (m_water.reflected)
            f.water = &m_water;
    }
    // The view's blocks, read by every program of the frame and of the overlays after it.
    useBlocks(f);
    m_frame_drawn = true;

    if (options.depth_prepass && !f.overdraw) {
        f.beginTimer("depth prepass");
        drawDepthPrepass(f);
        f.endTimer();
    }
    if (m_models && !f.overdraw && !list.models.empty())
        f.after_opaque = [this, &camera, &options](Frame& frame) {
            frame.beginTimer("models");
            m_models->draw(camera, options.time, frame.list, options.view, m_state,
                           distanceFogged(frame));
            if (m_brush_models)
                m_brush_models->draw(frame);
            frame.endTimer();
            // The world's passes after this one expect its vertex array bound.
            m_state.bindVertexArray(m_gpu->vao.id());
        };
    drawWorldBatches(f);
    m_stage_draws = f.stage_draws;
    drawOverWorld(f);
    m_submitter.endFrame();
    m_state.restoreDefaults();
}

void WorldRenderer::drawRegion(const Frame& world, const scene::RegionView& region) {
    DebugGroup group("sky region");
    Frame r{region.list,    region.camera, world.options,  world.gpu,
            world.programs, world.state,   world.submitter};
    r.view_projection = region.camera.viewProjection();
    r.staged = world.staged;
    r.fog = world.fog;
    r.frame_scale = world.frame_scale;
    r.tone_scale = world.tone_scale;
    r.light_curves = world.light_curves;
    r.linear_fog = &region.fog;
    // The models standing in the region (the sky box's props), drawn by the region's camera
    // after its opaque surfaces as the main view's are (CSkyboxView::DrawInternal draws the
    // sky box's world and its renderables alike), in the region's fog.
    if (m_models && !world.overdraw && !region.list.models.empty())
        r.after_opaque = [this, &region, &world](Frame& frame) {
            frame.beginTimer("models");
            m_models->draw(region.camera, world.options.time, frame.list, world.options.view,
                           m_state, distanceFogged(frame));
            frame.endTimer();
            m_state.bindVertexArray(m_gpu->vao.id());
        };
    useBlocks(r);
    // Its passes are timed as the world's; the shaded passes expect the pre-pass's depth.
    if (world.options.depth_prepass)
        drawDepthPrepass(r);
    drawWorldBatches(r);
    m_state.bindVertexArray(m_gpu->vao.id());
    m_state.enable(GL_DEPTH_TEST, true);
    m_state.depthFunc(GL_LEQUAL);
    m_state.cullFace(GL_FRONT);
    // The world is drawn over the region: depth only is cleared (CSkyboxView::Setup).
    m_state.depthMask(true);
    glClear(GL_DEPTH_BUFFER_BIT);
}

void WorldRenderer::drawOverWorld(Frame& f) {
    const RenderOptions& options = f.options;
    // The flares and overlays show every face; later passes expect no culling.
    m_state.enable(GL_DEPTH_TEST, true);
    m_state.enable(GL_CULL_FACE, false);
    if (m_flares && options.flares && !f.overdraw) {
        const bool timed = m_flares->count() > 0;
        if (timed)
            f.beginTimer("flares");
        m_flares->draw(f.camera, options.time, f.list, m_state);
        if (timed)
            f.endTimer();
    }
    // A full-screen pass (pass_display.cpp), timed; the passes after it expect the world's
    // vertex array and the depth test back.
    const auto full_screen = [&](const char* timer, const auto& draw) {
        f.beginTimer(timer);
        draw();
        f.endTimer();
        m_state.bindVertexArray(m_gpu->vao.id());
        m_state.enable(GL_DEPTH_TEST, true);
    };
    if (f.frame_scale != 1.0f && options.display_ramp)
        full_screen("display ramp", [&] { drawDisplayRamp(f); });

    // The liquid holding the eye, over the game's finished frame (QuakeSpasm draws its
    // polygon blend after the view, yquake2 in its post-process, after its warp).
    const bool game_look = options.view == ViewMode::Lit || options.view == ViewMode::Fullbright;
    if (options.screen_warp.x > 0.0f && game_look)
        full_screen("screen warp", [&] { drawScreenWarp(f, options.screen_warp, m_warp_copy); });
    if (options.view_blend.a > 0.0f && game_look)
        full_screen("view blend", [&] { drawViewBlend(f, options.view_blend); });

    // Auto exposure measures the finished frame, before the viewer's own picture settings.
    if (m_exposure_on) {
        f.beginTimer("exposure");
        m_meter.capture();
        f.endTimer();
    }

    // View > Picture (exposure, gamma, brightness) over the engine's finished look.
    if (!options.picture.identity())
        full_screen("picture", [&] { drawPicture(f, m_picture_copy); });

    // The overlays come after the ramp: their colours are the shown ones.
    if (options.show_culled || options.wireframe)
        f.beginTimer("world overlays");
    if (options.show_culled)
        drawCulled(f);
    if (options.wireframe)
        drawWireframe(f);
    f.endTimer();
}

bool WorldRenderer::bindFrameBlocks() {
    if (!m_frame_drawn || !m_programs)
        return false;
    m_programs->blocks().bind();
    return true;
}

bool WorldRenderer::useFaceGroupProgram(FaceOverlay overlay, GLint* model, GLint* colour) {
    GlState& s = m_state;
    if (overlay == FaceOverlay::LuxelGrid) {
        const LuxelProgram* p = m_programs->luxel();
        if (!p)
            return false;
        s.useProgram(p->program.id());
        *model = p->model;
        *colour = p->colour;
        s.bindTexture(kUnitLightmaps, GL_TEXTURE_2D_ARRAY, m_gpu->lightmaps.id());
        s.enable(GL_BLEND, true);
        s.blendFunc(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA);
        s.depthMask(false);
    } else {
        const WorldProgram& p = m_programs->flat();
        s.useProgram(p.program.id());
        glUniform2f(p.uv_scroll, 0.0f, 0.0f);
        glUniform1f(p.alpha, 1.0f);
        *model = p.model;
        *colour = p.flat_colour;
        s.enable(GL_BLEND, false);
        s.depthMask(true);
    }
    s.enable(GL_DEPTH_TEST, true);
    s.depthFunc(GL_LEQUAL);
    // Both sides: a locked set seen from outside the map shows the backs of its walls.
    s.enable(GL_CULL_FACE, false);
    s.bindVertexArray(m_gpu->vao.id());
    return true;
}

void WorldRenderer::drawFaceGroups(const std::vector<FaceGroup>& groups, FaceOverlay overlay) {
    if (!m_gpu || !m_programs || groups.empty())
        return;
    DebugGroup group(overlay == FaceOverlay::Fill ? "face groups" : "luxel grid");
    GlState& s = m_state;
    s.invalidate(); // called after draw(), with other drawing in between
    // The view is the frame's (its blocks); each group's placement is the model matrix.
    GLint model_location = -1, colour_location = -1;
    if (!bindFrameBlocks() || !useFaceGroupProgram(overlay, &model_location, &colour_location))
        return;
    // Called outside draw()'s submitter frame (overlays come after the world), so these debug
    // draws use plain glMultiDrawElements rather than the frame's indirect ring.
    std::vector<GLsizei> counts;
    std::vector<const void*> offsets;
    for (const FaceGroup& g : groups) {
        const glm::mat4 model = m_gpu->modelMatrix(g.submodel);
        glUniformMatrix4fv(model_location, 1, GL_FALSE, glm::value_ptr(model));
        glUniform4f(colour_location, g.colour.r, g.colour.g, g.colour.b, g.colour.a);
        if (overlay == FaceOverlay::Fill) {
            // The flat program writes alpha 1: a tint's opacity comes from the blend colour.
            const bool tint = g.colour.a < 1.0f;
            s.enable(GL_BLEND, tint);
            s.depthMask(!tint);
            if (tint) {
                glBlendColor(0.0f, 0.0f, 0.0f, g.colour.a);
                s.blendFunc(GL_CONSTANT_ALPHA, GL_ONE_MINUS_CONSTANT_ALPHA);
            }
        }
        counts.clear();
        offsets.clear();
        for (uint32_t face : g.faces) {
            if (face >= m_gpu->face_ranges.size() || m_gpu->face_ranges[face].count == 0)
                continue;
            const scene::DrawRange& range = m_gpu->face_ranges[face];
            counts.push_back(static_cast<GLsizei>(range.count));
            offsets.push_back(
                reinterpret_cast<const void*>(static_cast<uintptr_t>(range.first_index) * 4));
        }
        if (!counts.empty())
            glMultiDrawElements(GL_TRIANGLES, counts.data(), GL_UNSIGNED_INT, offsets.data(),
                                static_cast<GLsizei>(counts.size()));
    }
    glBlendColor(0.0f, 0.0f, 0.0f, 0.0f);
    s.restoreDefaults();
}

} // namespace render
