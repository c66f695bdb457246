// One frame of the world as its passes see it, and the passes themselves. WorldRenderer::draw
// is the list of passes; each pass lives in its own file (pass_*.cpp) and sets every piece of
// GL state it relies on through the frame's GlState, so passes can be read, reordered and
// tested one at a time.
#pragma once

#include "render/draw_submitter.h"
#include "render/gl_state.h"
#include "render/gpu_timers.h"
#include "render/programs.h"
#include "render/render_options.h"
#include "render/world_gpu.h"
#include "scene/view/camera.h"
#include "scene/view/sky_region.h"
#include "scene/view/visibility.h"
#include "scene/view/water_reflection.h"

#include <glm/mat4x4.hpp>

#include <functional>
#include <optional>
#include <vector>

namespace render {

// A planar water's pictures for one frame (render/pass_water.cpp): the view mirrored in its
// plane, and the frame's colour and depth before the water, copied when the first such water
// surface is drawn. Kept by the WorldRenderer from frame to frame, resized with the viewport.
struct WaterTargets {
    Framebuffer fbo;
    Texture reflection;  // RGBA8, viewport-sized
    Renderbuffer depth;  // the reflection's depth
    Texture scene;       // RGBA8 copy of the frame
    Texture scene_depth; // its depth
    int width = 0, height = 0, copy_width = 0, copy_height = 0;
    // This frame: the plane's height, whether the reflection is drawn and the frame copied, the
    // viewport (x, y, w, h) and the main view's clip -> world matrix.
    float plane = 0.0f;
    bool reflected = false, copied = false;
    glm::vec4 viewport{0.0f};
    glm::mat4 unproject{1.0f};
};

struct Frame {
    const scene::DrawList& list;
    const scene::Camera& camera;
    const RenderOptions& options;
    const WorldGpu& gpu;
    ProgramCache& programs;
    GlState& state;
    DrawSubmitter& submitter;
    glm::mat4 view_projection{1.0f};
    bool overdraw = false; // the overdraw view: additive, no depth test
    bool staged = false;   // Quake 3 materials drawn stage by stage (lit view)
    bool fog = false;      // Quake 3 fog volumes drawn (lit view)
    // What the framebuffer holds of the shown colour until drawDisplayRamp: 1, or 1/2 where the
    // map's display doubles the finished frame (game::LightRule::overbright, lit view): every
    // pass then writes ioquake3's identityLight-scaled values, not the shown ones.
    float frame_scale = 1.0f;
    // The tone map (game::ToneMapRule) as a factor of the frame's display-space colours:
    // scale^(1 / gamma), applied before the clamp to 1 by the world, sky and model programs
    // (u_frame.tone_scale); 1 where the map has no tone map or the view shows no light.
    float tone_scale = 1.0f;
    // The steps of the map's light curve the world and sky programs compile in (LightCurve
    // bits, lightCurves(mapBlock)): those of the view whose blocks the frame's programs read.
    uint8_t light_curves = 0;
    uint32_t stage_draws = 0;
    // The view of a sky region (scene::RegionView) drawn behind the world: its linear fog in
    // place of the map's distance fog (nullptr: the world's own view).
    const scene::LinearFog* linear_fog = nullptr;
    // The world's view over a sky region: its sky batches write depth as the sky pass does but
    // no colour, so the region drawn first shows through them.
    bool sky_hidden = false;
    // gl_ClipDistance[0]'s plane (u_frame.clip_plane; world.vert.glsl), used where the pass
    // enables GL_CLIP_DISTANCE0: a planar water's reflection.
    glm::vec4 clip_plane{0.0f};
    // The view mirrored in a water's plane: no water surface drawn (the engine's reflection
    // view leaves out DF_RENDER_WATER: viewrender.cpp CAboveWaterView::CReflectionView::Setup).
    bool skip_water = false;
    // The frame's planar water pictures (reflected: drawn this frame); nullptr: none.
    WaterTargets* water = nullptr;

    // ioquake3's tr.overbrightBits for this map (tr_image.c R_SetColorMappings): 1 where the
    // map is overbright (game::LightRule::overbright) and the display's gamma ramp doubles the
    // frame (fullscreen with hardware gamma, RenderOptions::hardware_gamma), else 0.
    int overbrightBits() const { return gpu.rules.light.overbright && options.hardware_gamma; }
    // The shift ioquake3 gives lightmap texels and vertex colours (tr_bsp.c
    // R_ColorShiftLightingBytes: r_mapOverBrightBits 2 - tr.overbrightBits) as a factor: 2 with
    // the gamma ramp, 4 without it (then clamped by the largest channel), 1 for other games.
    float lightShift() const {
        return gpu.rules.light.overbright ? (overbrightBits() ? 2.0f : 4.0f) : 1.0f;
    }
    // tr.identityLight: the colour of an rgbGen identity stage, 1 / 2^overbrightBits.
    float identityLight() const { return overbrightBits() ? 0.5f : 1.0f; }
    // Drawn once after the opaque world and before the blended faces and fog (the entity
    // models, render/model_renderer.h); empty: nothing.
    std::function<void(Frame&)> after_opaque{};
    // Where the whole set is placed: identity for the map, an entity's origin and angles for a
    // brush model file drawn on it (render/brush_model_renderer.h).
    glm::mat4 placement{1.0f};

    // Placement of a brush model's faces, the set's placement included.
    glm::mat4 modelMatrix(int32_t submodel) const { return placement * gpu.modelMatrix(submodel); }

    // Makes `program` current; its view-projection matrix is the frame block's (useBlocks).
    void useProgram(const Program& program) { state.useProgram(program.id()); }
    // A batch's index ranges, appended for the next flush (one draw call).
    void append(const scene::DrawBatch& batch) {
        for (uint32_t r = 0; r < batch.num_ranges; ++r) {
            const scene::DrawRange& range = list.ranges[batch.first_range + r];
            submitter.append(range.first_index, range.count);
        }
    }
    void submit(const scene::DrawBatch& batch) {
        append(batch);
        submitter.flush();
    }
    // The batches `keep` accepts, one multi-draw per run of one brush model, its placement
    // loaded into `model_location` of the bound program (the depth pre-pass, the wireframe).
    template <class Keep> void submitByModel(GLint model_location, Keep keep) {
        int32_t submodel = -1;
        for (const scene::DrawBatch& b : list.batches) {
            if (!keep(b))
                continue;
            if (b.submodel != submodel) {
                submitter.flush();
                const glm::mat4 model = modelMatrix(b.submodel);
                glUniformMatrix4fv(model_location, 1, GL_FALSE, &model[0][0]);
                submodel = b.submodel;
            }
            append(b);
        }
        submitter.flush();
    }
    // GPU time of a pass, when RenderOptions::timers is set (one pass timed at a time).
    void beginTimer(const char* pass) const {
        if (options.timers)
            options.timers->begin(pass);
    }
    void endTimer() const {
        if (options.timers)
            options.timers->end();
    }
};

// What the single-texture and sky paths last set up (pass_world.cpp): the program whose frame
// uniforms are set and the brush model whose matrix it holds. Reset after any other draw.
struct SurfaceCursor {
    GLuint program = 0;
    int32_t submodel = -1;
};

// pass_depth.cpp: depth of the opaque surfaces, so the shaded passes run each pixel once.
void drawDepthPrepass(Frame& f);
// pass_world.cpp: every batch in pass order (opaque, alpha-tested, sky, liquid, translucent),
// each through the stage pass, the sky pass or the single-texture path; the fog pass runs after
// the opaque surfaces.
void drawWorldBatches(Frame& f);
// pass_stages.cpp: a batch through its Quake 3 shader stages, one draw per run of stages folded
// into one program (RenderOptions::fold_stages) or per stage; false when the material has none
// (or, over a sky base, when every layer is switched off). `fog_pass`: the fog folded in.
bool drawStagedBatch(Frame& f, const scene::DrawBatch& batch, SkyBase base = SkyBase::None,
                     const scene::FogVolume* fog_pass = nullptr);
// pass_sky.cpp: the sky's far box, flat colour or Quake 1 layers for one batch; with shader
// stages, the cloud layers over it (or folded with it). False when its program failed.
bool drawSkyBatch(Frame& f, const scene::DrawBatch& batch, SurfaceCursor& cursor);
// pass_water.cpp: whether this frame draws a planar water's reflection when it is given one
// (scene::ReflectionView): RenderOptions::water_reflection on, the view lit or fullbright.
bool planarWaterShown(const Frame& f);
// pass_water.cpp: the world seen by `view`'s mirrored camera (its own visible set, its plane)
// into targets.reflection (sized to the current viewport), clipped below plane - 2; the bound
// framebuffer and viewport restored.
void drawWaterReflection(const Frame& f, const scene::ReflectionView& view, WaterTargets& targets);
// Whether batch `b` is drawn as planar water this frame (its material's plane reflected), and
// whether it needs the frame's copy (refraction).
bool planarWaterBatch(const Frame& f, const scene::DrawBatch& b);
bool refractedWaterBatch(const Frame& f, const scene::DrawBatch& b);
// pass_water.cpp: the bound framebuffer's colour and depth over the viewport into
// targets.scene and scene_depth, once a frame (WaterTargets::copied).
void copyWaterScene(const Frame& f, WaterTargets& targets);

// pass_fog.cpp: the fog pass over the visible fogged opaque faces and fog surfaces.
void drawFogPass(Frame& f);
// Whether an opaque or alpha-tested surface of `material` in a fog volume is fogged by the
// program that draws it (FOG_PASS) rather than by the fog pass: with fold_stages, for the
// single-texture path and for shaders whose drawn stages fold into one run.
bool fogInProgram(const WorldGpu& gpu, int32_t material, scene::Pass pass,
                  const RenderOptions& options);
// The fog of a blended batch's face, for fading its stages (nullptr: none).
const scene::FogVolume* blendedFaceFog(const Frame& f, const scene::DrawBatch& batch);
// pass_display.cpp: with frame_scale 1/2, the frame doubled once and clamped (ioquake3's gamma
// ramp), after every world pass and before the overlays; nothing otherwise.
void drawDisplayRamp(Frame& f);
// pass_display.cpp: `blend` (rgb, a in 0..1) over the finished frame, frame * (1 - a) + rgb * a:
// the colour of the liquid holding the eye (scene::EyeLiquid); nothing when a is 0.
void drawViewBlend(Frame& f, const glm::vec4& blend);
// A copy of the finished frame a pass reads, kept between frames (made or resized to the
// viewport by the pass that uses it).
struct FrameCopy {
    Texture texture;
    int width = 0, height = 0;
};
// pass_display.cpp: the finished frame moved by RenderOptions::screen_warp (amplitude, rate,
// waves; nothing when the amplitude is 0) at RenderOptions::time, read through `copy`.
void drawScreenWarp(Frame& f, const glm::vec3& warp, FrameCopy& copy);
// pass_display.cpp: RenderOptions::picture (exposure, gamma, brightness) over the finished
// frame through a copy of it in `copy`; nothing at the defaults.
void drawPicture(Frame& f, FrameCopy& copy);
// pass_overlays.cpp: "why culled" (DrawList::culled_pvs red, culled_frustum blue) and the
// wireframe on top.
void drawCulled(Frame& f);
void drawWireframe(Frame& f);

// pass_blocks.cpp: the uniform blocks every program reads (shaders/gpu_interface.h). The
// frame's constants: view, time, light styles, the frame scale.
FrameBlock frameBlock(const Frame& f);
// The map's lighting, warp and fog rules as the frame's options apply them: light scaled,
// saturated and normalised, the texel and the lit colour curved, the output doubled.
MapBlock mapBlock(const Frame& f);
// The LightCurve steps a map block asks of the programs (each a define, not a branch).
uint8_t lightCurves(const MapBlock& b);
// Uploads both blocks where they changed and binds them: once per view, by the frame's owner
// (WorldRenderer::draw) before its first pass. The passes, the entity models, the flares, the
// brush model files' frames (the same view, their placement a per-draw model matrix) and the
// overlays drawn after the frame all read these blocks; nothing rewrites them until the next
// view.
void useBlocks(const Frame& f);
// Whether the map's distance fog (game::MapRules::fog) is drawn this frame: lit view, fog on.
bool distanceFogged(const Frame& f);

// Sky surfaces with no box and no texture.
inline constexpr glm::vec4 kSkyFlatColour{0.32f, 0.40f, 0.55f, 1.0f};

} // namespace render
