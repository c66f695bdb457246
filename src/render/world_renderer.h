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
#include "scene/light_styles.h"
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
    double time = 0.0; // seconds, for animated styles and scrolling
    std::array<float, scene::kNumLightStyles> style_values{};
    glm::vec4 clear_colour{0.05f, 0.05f, 0.07f, 1.0f};
};

struct GpuStats {
    uint64_t vertex_bytes = 0, index_bytes = 0, texture_bytes = 0;
    uint32_t textures = 0, lightmap_pages = 0;
};

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

    void draw(const scene::DrawList& list, const scene::Camera& camera,
              const RenderOptions& options);
    // Draw calls and ranges of the last draw(), and the path it used.
    const SubmitStats& submitStats() const { return m_submitter.frameStats(); }
    DrawPath drawPath() const { return m_submitter.path(); }

private:
    struct WorldGpu;
    struct Programs;
    void setPassState(scene::Pass pass, const bsp::Material* material, float alpha,
                      bool additive_model);
    void depthPrepass(const scene::DrawList& list, const glm::mat4& view_projection);
    // Appends a batch's index ranges to the submitter; flushRanges draws them in one call.
    void appendRanges(const scene::DrawList& list, const scene::DrawBatch& batch);
    void flushRanges();
    void drawCulled(const scene::DrawList& list, const glm::mat4& view_projection);

    std::unique_ptr<Programs> m_programs;
    std::unique_ptr<WorldGpu> m_gpu;
    DrawSubmitter m_submitter;
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
