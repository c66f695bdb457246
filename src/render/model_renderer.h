// Entity models and sprites (scene/models/model_set.h): the GPU copy of every loaded model and the
// pass that draws the instances scene::Visibility kept (DrawList::models), after the opaque
// world. Alias models: every pose in one buffer, a pose chosen per draw by where the position
// and normal attributes start; skins as textures whose alpha marks fullbright texels. Sprites:
// a textured quad per picture, turned to the camera by the sprite's orientation type. How each
// range and sprite is drawn over what lies behind it is its scene::DrawState, resolved once at
// upload from the instance's render mode, its ranges' flags and the sprite's format
// (scene/models/model_draw_state.h) and applied by render::applyDrawState.
#pragma once

#include "render/gl.h"
#include "render/gl_state.h"
#include "render/glsl_library.h"
#include "render/view_mode.h"
#include "scene/models/model_set.h"
#include "scene/view/camera.h"
#include "scene/view/visibility.h"
#include "scene/world/draw_state.h"

#include <array>
#include <optional>
#include <string>
#include <vector>

namespace render {

class ModelRenderer {
public:
    bool init(const GlslLibrary& shaders, std::string* error);
    // Compiles both programs again (shader hot reload); they replace the current ones only
    // when both compile.
    bool reloadPrograms(const GlslLibrary& shaders, std::string* error);
    // The models of a new map (nullptr: none). Copies what it draws; keeps the instances.
    void upload(const scene::EntityModelSet* set);
    void clear();

    // Draws list.models at `time` seconds into the bound framebuffer, depth-tested against the
    // world. Alias models are lit in the lit view and unlit in the others. The view-projection
    // and the frame scale are the frame block's (render::UniformBlocks, filled for `camera` and
    // bound by the frame's owner), and so is the view's distance fog, which models take with
    // `fog` (the world's own switch: render::distanceFogged). State goes through `state`; leaves
    // blending off, culling off, depth writes on and program 0 bound.
    void draw(const scene::Camera& camera, double time, const scene::DrawList& list, ViewMode view,
              GlState& state, bool fog = false);

    size_t instanceCount() const { return m_instances.size(); }
    // The LOD draw() last chose for instance `index` (0 for models with one LOD).
    uint32_t drawnLod(uint32_t index) const { return index < m_lods.size() ? m_lods[index] : 0u; }
    size_t drawnCount() const { return m_drawn; }

private:
    struct AliasGpu {
        VertexArray vao;
        Buffer poses, uv, indices;
        uint32_t vertex_count = 0, index_count = 0, pose_count = 0;
        // Source studio models' coarser LODs (content::ModelMesh::lods): per LOD 1.., each
        // range's (first index, count) in the index buffer after LOD 0's indices.
        std::vector<std::vector<std::array<uint32_t, 2>>> lod_spans;
        std::vector<float> lod_switch_points; // every LOD's, LOD 0's first
        bool lod_shadow = false;
        uint32_t total_indices = 0; // LOD 0's and the coarser LODs'
        std::vector<Texture> images;
        content::ModelMesh timing; // frames, skins and draw ranges only (no vertex arrays)
    };
    struct SpriteGpu {
        std::vector<Texture> pictures;
        content::Sprite timing; // frames and picture rectangles only (no pixels)
    };
    struct ModelGpu {
        std::optional<AliasGpu> alias;
        std::optional<SpriteGpu> sprite;
    };
    // One alias program's uniform locations. There are two kinds (Programs): the alpha-tested
    // ranges' (model.frag.glsl's ALPHA_TEST, which may discard) and the rest's, which never
    // discards and so lets the rasteriser test depth before shading; each with and without the
    // view's distance fog (FOG: a define, since software GL would run a uniform's `if` body, the
    // fog's exp and distances, for every pixel of a map without fog). Each takes the instance's
    // uniforms.
    struct AliasProgram {
        Program program;
        GLint model = -1, shade = -1, light = -1, unlit = -1, alpha = -1, chrome = -1,
              chrome_right = -1, chrome_up = -1, chrome_rect = -1, chrome_scale = -1;
        GLint directed_light = -1, light_dir = -1, light_wrap = -1, flat_share = -1,
              light_bytes = -1, cube_lit = -1, cube = -1, texture_alpha = -1;
        // Source props' world lights (scene/models/prop_lights.h, shaders/model.vert.glsl).
        GLint local_count = -1, local_colour = -1, local_dir = -1, local_pos = -1, local_spot = -1,
              local_atten = -1;
    };
    struct SpriteProgram {
        Program program;
        GLint origin = -1, right = -1, up = -1, rect = -1, alpha_test = -1, alpha = -1, tint = -1;
    };
    struct Programs {
        std::array<AliasProgram, 4> aliases;  // [2 * alpha_test + fog]
        std::array<SpriteProgram, 2> sprites; // [fog]
        const AliasProgram& alias(bool alpha_test, bool fog) const {
            return aliases[2 * size_t(alpha_test) + size_t(fog)];
        }
    };
    // What draw() resolved once per instance at upload (scene/models/model_draw_state.h).
    struct InstanceDraw {
        std::vector<scene::DrawState> ranges; // parallel to the skin's content::skinRanges
        scene::DrawState sprite{};
        float alpha = 1.0f;   // u_alpha
        glm::vec3 tint{1.0f}; // sprites' u_tint
    };
    // What every draw of one frame shares.
    struct DrawContext {
        const scene::Camera& camera;
        double time;
        bool lit; // the lit view: alias models take light unless their state says Unlit
        bool fog; // the view's distance fog applies (the FOG programs)
        GlState& state;
        float viewport_height; // pixels: the LOD metric's (scene/models/studio_lod.h)
    };
    static bool buildPrograms(const GlslLibrary& shaders, Programs* out, std::string* error);
    static bool buildAliasProgram(const GlslLibrary& shaders, bool alpha_test, bool fog,
                                  AliasProgram* out, std::string* error);
    static bool buildSpriteProgram(const GlslLibrary& shaders, bool fog, SpriteProgram* out,
                                   std::string* error);
    void resolveDrawStates();
    // Instance `index`'s LOD this frame (0 for a model with one).
    uint32_t chooseLod(const DrawContext& c, uint32_t index) const;
    // One alias instance's ranges of `order`, when it has any; `alpha_test`: only the ranges
    // whose state's alpha_test is that (absent: all, in range order, switching programs).
    void drawAliasInstance(const DrawContext& c, uint32_t index, scene::DrawOrder order,
                           std::optional<bool> alpha_test);
    // Placement and light of an instance on program `p`; returns the placement's rotation
    // (chrome needs it).
    glm::mat3 setInstanceUniforms(const AliasProgram& p, const scene::EntityModelInstance& inst,
                                  double time) const;
    static void bindPose(GlState& state, const AliasGpu& g, uint32_t pose);
    // `span`: the range's (first index, index count) at the LOD drawn.
    void drawRange(const DrawContext& c, const AliasProgram& p, const AliasGpu& g,
                   const scene::EntityModelInstance& inst, const content::ModelDrawRange& range,
                   std::array<uint32_t, 2> span, const scene::DrawState& ds,
                   const glm::vec3& origin, const glm::mat3& rotation) const;
    void drawSprites(const DrawContext& c, const scene::DrawList& list);

    Programs m_programs;
    VertexArray m_quad_vao; // sprites: no attributes, corners from gl_VertexID
    std::vector<ModelGpu> m_models;
    std::vector<scene::EntityModelInstance> m_instances;
    std::vector<InstanceDraw> m_draw; // parallel to m_instances
    std::vector<uint8_t> m_counted;   // parallel to m_instances: drawn this frame
    std::vector<uint32_t> m_lods;     // parallel to m_instances: the LOD last drawn
    size_t m_drawn = 0;
};

} // namespace render
