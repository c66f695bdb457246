// Draws a map's world from a DrawList. The GPU copy of a map (render/world_gpu.h) is built
// beside the current one and swapped in only when complete, so a failed load keeps the map on
// screen. draw() is the list of passes (render/frame.h); each pass is a file of its own.
#pragma once

#include "render/draw_submitter.h"
#include "render/exposure_meter.h"
#include "render/frame.h"
#include "render/gl.h"
#include "render/gl_state.h"
#include "render/glsl_library.h"
#include "render/programs.h"
#include "render/render_options.h"
#include "render/render_target.h"
#include "render/tone_map.h"
#include "render/view_mode.h"
#include "render/world_gpu.h"
#include "scene/view/camera.h"
#include "scene/view/sky_region.h"
#include "scene/view/visibility.h"
#include "scene/view/water_reflection.h"

#include <memory>
#include <string>
#include <vector>

namespace render {

// A set of faces drawn in one colour by WorldRenderer::drawFaceGroups.
struct FaceGroup {
    glm::vec4 colour{1.0f};
    int32_t submodel = 0; // placement of the faces (0: the world)
    std::vector<uint32_t> faces;
};

// How drawFaceGroups draws: Fill lays the group's colour (flat-shaded, as VIEW_FLAT) over the
// shaded surface, opaque at colour alpha 1 (the cluster and area views) and as a translucent
// tint below it (a picked face, changes since the previous compile: the surface stays
// readable under the mark); LuxelGrid draws lines on the lightmap texel borders only,
// blended over whatever is there.
enum class FaceOverlay { Fill, LuxelGrid };

class BrushModelRenderer;
struct Frame;
class FlareRenderer;
class ModelRenderer;

class WorldRenderer {
public:
    WorldRenderer();
    ~WorldRenderer();

    // Compiles the programs; false (with *error) when a shader fails.
    bool init(const GlslLibrary& shaders, std::string* error);

    // Compiles every program in use again from the shader sources (--shader-dir files are
    // read again), the flares' included, and swaps them in only when all compile; otherwise
    // the current programs stay and *error holds the compile logs. Not during draw().
    bool reloadShaders(std::string* error);
    // GLSL programs compiled so far, variants included.
    size_t programCount() const { return m_programs ? m_programs->size() : 0; }

    // The one way a map reaches the GPU: the first load, a reload and every rebuild (a new
    // patch level) alike. The whole set (buffers, lightmaps, textures, sky box, shader stages,
    // fogs, flares) is built beside the current one and replaces it only on success; on
    // failure the current map stays drawn and false is returned with *error.
    bool upload(const WorldSource& source, std::string* error);
    bool hasWorld() const { return m_gpu != nullptr; }
    const GpuStats& gpuStats() const;
    // Overlay toggles: skip one stage (its index in the shader script) of a material.
    void setStageEnabled(int32_t material, int shader_stage, bool enabled);
    bool stageEnabled(int32_t material, int shader_stage) const;
    // Stage draws in the last frame (a collapsed pair, and a folded run, count once).
    uint32_t stageDraws() const { return m_stage_draws; }
    // The current world's flares (nullptr before init()).
    const FlareRenderer* flares() const { return m_flares.get(); }
    // The current map's entity models (nullptr before init()).
    const ModelRenderer* models() const { return m_models.get(); }
    // The current map's brush model files on entities (nullptr before init()).
    const BrushModelRenderer* brushModels() const { return m_brush_models.get(); }

    // `region`: a part of the map drawn first from its own eye (scene::RegionView, e.g. a sky
    // region), its sky batches showing the sky box behind it; then depth is cleared and the
    // world's sky batches write depth but no colour. nullptr: the world alone.
    // `reflection`: a planar water's reflection view (scene::ReflectionView: the mirrored
    // camera and its own visible set), drawn into the water's reflection before the frame.
    // nullptr: planar water drawn by its cheap path, as with RenderOptions::water_reflection off.
    void draw(const scene::DrawList& list, const scene::Camera& camera,
              const RenderOptions& options, const scene::RegionView* region = nullptr,
              const scene::ReflectionView* reflection = nullptr);
    // The GL texture a material's faces show (its first animation frame; 0 before a map or for
    // an index out of range), for the texture browser's thumbnails.
    GLuint materialTexture(size_t material) const;
    // Draw calls and ranges of the last draw(), and the path it used.
    const SubmitStats& submitStats() const { return m_submitter.frameStats(); }
    DrawPath drawPath() const { return m_submitter.path(); }
    // The tone map's linear scale a frame drawn with `options` gets (game::ToneMapRule: the
    // map's fixed scale in the views that show light, or auto exposure's scale with
    // RenderOptions::auto_exposure, as the last draw() left it); 1 for maps without a tone map.
    float toneScale(const RenderOptions& options) const;
    // Whether draw() runs auto exposure with `options` (render/tone_map.h): asked for, and a
    // view of a map with a tone map.
    bool autoExposed(const RenderOptions& options) const;
    // Auto exposure's goal scale (what it moves toward), for the viewer's display.
    float exposureGoal() const { return m_exposure.goal(); }
    // The state cache every pass goes through; the debug overlays drawn after draw() use it too.
    GlState& glState() { return m_state; }

    // Binds the uniform blocks of the last draw() again (its view and the map's rules), for
    // drawing over its frame: the debug overlays. False, with nothing bound, when that draw()
    // drew no world.
    bool bindFrameBlocks();
    // Debug overlays: redraws the listed faces over the current frame (depth LEQUAL on the
    // depth draw() left, so only the visible surface of each face changes) with its view.
    // Generalises the "why culled" tint; call after draw().
    void drawFaceGroups(const std::vector<FaceGroup>& groups,
                        FaceOverlay overlay = FaceOverlay::Fill);

private:
    // toneScale() as the factor of the frame's display-space colours (Frame::tone_scale).
    float toneScaleOf(const RenderOptions& options) const;
    // Auto exposure's step at the start of a frame: the last measured frame's goal, the move
    // toward it by RenderOptions::frame_seconds (or a fresh start when it was off).
    void updateExposure(const RenderOptions& options);
    // Clears the target to the options' colour at the frame's scale.
    void clear(const RenderOptions& options, float frame_scale);
    // After the world's passes: the flares, the display ramp, the picture and the world
    // overlays (why culled, wireframe).
    void drawOverWorld(Frame& f);
    // The region's view before the world's: its blocks, its batches, then depth cleared.
    void drawRegion(const Frame& world, const scene::RegionView& region);
    // The program, blend and depth state of a face-group overlay; the model matrix and colour
    // locations of its program in *model, *colour. False when the program is missing.
    bool useFaceGroupProgram(FaceOverlay overlay, GLint* model, GLint* colour);

    std::unique_ptr<ProgramCache> m_programs;
    std::unique_ptr<WorldGpu> m_gpu;
    std::unique_ptr<FlareRenderer> m_flares;
    std::unique_ptr<ModelRenderer> m_models;
    std::unique_ptr<BrushModelRenderer> m_brush_models;
    DrawSubmitter m_submitter;
    GlState m_state;
    uint32_t m_stage_draws = 0;
    bool m_frame_drawn = false; // the blocks hold the last draw()'s frame (bindFrameBlocks)
    AutoExposure m_exposure;    // auto exposure's scale and goal (render/tone_map.h)
    ExposureMeter m_meter;      // the finished frame's samples it measures
    bool m_exposure_on = false; // the last draw() ran auto exposure
    FrameCopy m_picture_copy;   // the frame the picture pass reads (drawPicture)
    FrameCopy m_warp_copy;      // the frame the screen warp reads (drawScreenWarp)
    WaterTargets m_water;       // a planar water's pictures (render/pass_water.cpp)
};

} // namespace render
