// Draws a WorldMesh from a DrawList. The GPU copy of a map (buffers, textures, lightmaps) is
// built beside the current one and swapped in only when complete, so a failed load keeps the
// map on screen.
#pragma once

#include "bsp/map.h"
#include "content/skybox.h"
#include "content/textures.h"
#include "render/draw_submitter.h"
#include "render/gl.h"
#include "render/shader_library.h"
#include "scene/camera.h"
#include "scene/fog.h"
#include "scene/light_styles.h"
#include "scene/material_stages.h"
#include "scene/visibility.h"
#include "scene/world_mesh.h"

#include <array>
#include <memory>
#include <string>
#include <vector>

namespace render {

// Mirrored in shaders/common.glsl (VIEW_*).
enum class ViewMode : int {
    Lit = 0,
    Lightmap = 1,
    Fullbright = 2,
    Flat = 3,
    Normals = 4,
    Overdraw = 5
};
const char* viewModeName(ViewMode mode);
bool parseViewMode(std::string_view name, ViewMode* out);

class GpuTimers;

struct RenderOptions {
    ViewMode view = ViewMode::Lit;
    bool wireframe = false;
    bool neutral_lighting = false; // ignore the map's overbright rules
    // Lay down depth for opaque surfaces first with a position-only program, so the shaded
    // pass runs each pixel's fragment shader once (overdraw is the cost on software GL).
    bool depth_prepass = true;
    // How index ranges are submitted (multi-draw indirect on GL 4.3+, or the GL 3.3
    // glMultiDrawElements fallback); the images are the same, tests and benches compare both.
    DrawPath draw_path = DrawPath::Auto;
    float liquid_alpha = 1.0f; // opacity of liquid surfaces (r_wateralpha)
    // "Why culled": also draw DrawList::culled_pvs (red) and culled_frustum (blue) faces;
    // meant for a locked visibility set seen from outside.
    bool show_culled = false;
    // Quake 3 materials drawn stage by stage from their shader scripts (lit view only);
    // false: every material through the single-texture path (its first image x lightmap).
    bool shader_stages = true;
    // Fold runs of a material's stages into one program where the result is the same
    // (scene::foldableRun; the sky's far box too); false: one pass per stage, as ioquake3.
    bool fold_stages = true;
    // When set, each pass of draw() (depth pre-pass, opaque, alpha-test, sky, liquid,
    // translucent, overlays, flares) is timed with it; the caller must not have a timer running.
    GpuTimers* timers = nullptr;
    double time = 0.0;  // seconds: styles, scrolling, shader stages, sky rotation, flare fades
    bool flares = true; // Quake 3 flares (face type 4), see render/flare_renderer.h
    bool fog = true;    // Quake 3 fog volumes (lit view), see scene/fog.h
    std::array<float, scene::kNumLightStyles> style_values{};
    glm::vec4 clear_colour{0.05f, 0.05f, 0.07f, 1.0f};
};

// A set of faces drawn in one colour by WorldRenderer::drawFaceGroups.
struct FaceGroup {
    glm::vec4 colour{1.0f};
    int32_t submodel = 0; // placement of the faces (0: the world)
    std::vector<uint32_t> faces;
};

// How drawFaceGroups draws: Fill replaces the shaded surface with the group's colour
// (flat-shaded, as VIEW_FLAT); LuxelGrid draws lines on the lightmap texel borders only,
// blended over whatever is there.
enum class FaceOverlay { Fill, LuxelGrid };

struct GpuStats {
    uint64_t vertex_bytes = 0, index_bytes = 0, texture_bytes = 0;
    uint32_t textures = 0, lightmap_pages = 0;
};

class FlareRenderer;

class WorldRenderer {
public:
    WorldRenderer();
    ~WorldRenderer();

    // Compiles the programs; false (with *error) when a shader fails.
    bool init(const ShaderLibrary& shaders, std::string* error);

    // Uploads a map. Textures are parallel to map.materials. On success the new set replaces
    // the current one; on failure the current one stays and false is returned.
    bool upload(const bsp::Map& map, const scene::WorldMesh& mesh,
                const std::vector<content::TextureInfo>& textures, std::string* error);
    bool hasWorld() const { return m_gpu != nullptr; }
    // Sky box for the current world (nullptr: none). Faces of different sizes are scaled to
    // the largest. Call after upload(); a new upload() drops it.
    void uploadSkyBox(const content::SkyBox* sky);
    const GpuStats& gpuStats() const;
    // Quake 3 shader stages of the current world (scene::MaterialStages, parallel to the
    // map's materials) and their images. Call after upload(); a new upload() drops them.
    void uploadStages(const scene::MaterialStages& stages);
    // Quake 3 fog volumes of the current world, parallel to the map's fogs (faces name them
    // by bsp::Face::fog). Call after upload(); a new upload() drops them.
    void uploadFogs(const std::vector<scene::FogVolume>& fogs);
    // Overlay toggles: skip one stage (its index in the shader script) of a material.
    void setStageEnabled(int32_t material, int shader_stage, bool enabled);
    bool stageEnabled(int32_t material, int shader_stage) const;
    // Stage draws in the last frame (a collapsed pair, and a folded run, count once).
    uint32_t stageDraws() const { return m_stage_draws; }
    // The current world's flares (nullptr before init()).
    const FlareRenderer* flares() const { return m_flares.get(); }

    void draw(const scene::DrawList& list, const scene::Camera& camera,
              const RenderOptions& options);
    // Draw calls and ranges of the last draw(), and the path it used.
    const SubmitStats& submitStats() const { return m_submitter.frameStats(); }
    DrawPath drawPath() const { return m_submitter.path(); }

    // Debug overlays: redraws the listed faces over the current frame (depth LEQUAL on the
    // depth draw() left, so only the visible surface of each face changes). Generalises the
    // "why culled" tint; call after draw() with the same camera.
    void drawFaceGroups(const std::vector<FaceGroup>& groups, const scene::Camera& camera,
                        FaceOverlay overlay = FaceOverlay::Fill);

private:
    struct WorldGpu;
    struct Programs;
    void setPassState(scene::Pass pass, const bsp::Material* material, float alpha,
                      bool additive_model);
    void depthPrepass(const scene::DrawList& list, const glm::mat4& view_projection);
    // Appends a batch's index ranges to the submitter; flushRanges draws them in one call.
    void appendRanges(const scene::DrawList& list, const scene::DrawBatch& batch);
    void flushRanges();
    // The fog pass (scene/fog.h) over the visible fogged opaque faces and fog surfaces.
    void drawFog(const scene::DrawList& list, const scene::Camera& camera,
                 const RenderOptions& options);
    void drawCulled(const scene::DrawList& list, const glm::mat4& view_projection);
    struct StageVariant;
    // How drawStages draws a sky's cloud layers: over the far box (or flat colour) the sky
    // program drew first (None), or over one computed in the same program (stage.frag.glsl
    // SKY_BASE), the box pass not drawn.
    enum class SkyBase : uint8_t { None, Box, Flat };
    // The program drawing `count` stages folded into one pass (scene::foldableRun), compiled
    // on first use; nullptr when it failed to compile (logged).
    StageVariant* stageProgram(const scene::RenderStage* const* stages, size_t count, bool sky,
                               SkyBase base, bool deforms, bool fog, bool additive, bool fog_pass);
    // Whether an opaque or alpha-tested surface of `material` in a fog volume is fogged by
    // the program that draws it (FOG_PASS) rather than by the fog pass: with fold_stages, for
    // the single-texture path and for shaders whose drawn stages fold into one run.
    bool fogInProgram(int32_t material, scene::Pass pass, const RenderOptions& options) const;
    // The fog of a blended batch's face, for fading its stages (nullptr: none).
    const scene::FogVolume* blendedFaceFog(const scene::DrawList& list,
                                           const scene::DrawBatch& batch,
                                           const RenderOptions& options) const;
    // Draws a batch's ranges through its shader stages, one draw per run of stages folded
    // into one program (RenderOptions::fold_stages) or per stage; returns false when the
    // material has none.
    bool drawStages(const scene::DrawList& list, const scene::DrawBatch& batch,
                    const glm::mat4& view_projection, const glm::mat4& model,
                    const scene::Camera& camera, const RenderOptions& options,
                    SkyBase base = SkyBase::None, const scene::FogVolume* fog_pass = nullptr);

    std::unique_ptr<Programs> m_programs;
    std::unique_ptr<WorldGpu> m_gpu;
    std::unique_ptr<FlareRenderer> m_flares;
    DrawSubmitter m_submitter;
    uint32_t m_stage_draws = 0;
};

// Offscreen colour + depth target with readback, for --screenshot and tests.
class RenderTarget {
public:
    bool create(int width, int height, std::string* error);
    void bind() const;
    // RGBA8, top row first.
    std::vector<uint8_t> readPixels() const;
    int width() const { return m_width; }
    int height() const { return m_height; }

private:
    Framebuffer m_fbo;
    Renderbuffer m_colour, m_depth;
    int m_width = 0, m_height = 0;
};

} // namespace render
