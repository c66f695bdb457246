// Quake 3 flares (scene/world/flares.h): camera-facing additive squares, faded in and out by an
// occlusion query per flare whose answer is read only once the GPU has it (a frame or more
// later), so drawing never waits for the GPU; nothing is read back per flare.
#pragma once

#include "bsp/map.h"
#include "content/material/textures.h"
#include "render/gl.h"
#include "render/gl_state.h"
#include "render/glsl_library.h"
#include "scene/view/camera.h"
#include "scene/view/visibility.h"
#include "scene/world/flares.h"

#include <glm/vec2.hpp>
#include <glm/vec3.hpp>

#include <map>
#include <memory>
#include <string>
#include <vector>

namespace render {

class FlareRenderer {
public:
    FlareRenderer();
    ~FlareRenderer();
    FlareRenderer(const FlareRenderer&) = delete;
    FlareRenderer& operator=(const FlareRenderer&) = delete;

    bool init(const GlslLibrary& shaders, std::string* error);
    // Compiles the two flare programs again (shader hot reload); they replace the current
    // ones only when both compile, otherwise *error holds the log and nothing changes.
    bool reloadPrograms(const GlslLibrary& shaders, std::string* error);
    // The flares of a new map (nodraw ones left out by the resolved `materials`). Materials and
    // textures are parallel to map.materials; a flare whose material
    // has no image (a missing texture, or no texture list) is drawn with a soft radial image.
    void upload(const bsp::Map& map, const scene::MaterialTable& materials,
                const std::vector<content::TextureInfo>& textures);
    void clear();

    // Call after the world is drawn into the bound framebuffer (its depth buffer is the one
    // the occlusion tests use). `time` in seconds drives the fades. Only the flares of
    // list.flares (scene::Visibility's PVS, frustum and lock decision, the same as the world
    // faces') are tested and drawn; the others fade in again when they come back. State goes
    // through `state`; leaves blending off, depth writes on and program 0 bound. The view, the
    // eye and the frame scale the shaders read are the frame block's (render::UniformBlocks,
    // filled for `camera` and bound by the frame's owner).
    void draw(const scene::Camera& camera, double time, const scene::DrawList& list,
              GlState& state);

    size_t count() const { return m_flares.size(); }
    // Flares drawn with a non-zero intensity by the last draw().
    size_t drawnCount() const { return m_drawn; }

private:
    struct State {
        GLuint query = 0;
        bool pending = false;  // a query was issued and its answer not yet read
        bool answer = false;   // last answer: some sample of the flare's point passed
        scene::FlareFade fade; // fades between answers
    };
    std::vector<scene::Flare> m_flares; // in face order, like DrawList::flares
    std::vector<State> m_states;
    std::vector<GLuint> m_flare_textures; // per flare: a texture of m_textures or the radial
    std::map<int32_t, Texture> m_textures;
    Texture m_radial;
    // The occlusion-test program and the quad program, with the quad's uniform locations.
    struct Programs {
        Program test, quad;
        GLint quad_centre = -1, quad_half = -1, quad_colour = -1;
    };
    // A flare's square as drawn this frame: NDC centre and half size, colour, image.
    struct Quad {
        glm::vec2 centre, half;
        glm::vec3 colour;
        GLuint texture;
    };
    static bool buildPrograms(const GlslLibrary& shaders, Programs* out, std::string* error);
    // Reads the answers the GPU already has; a pending query not yet ready keeps the last one.
    void readAnswers();
    // This frame's occlusion tests against the world's depth, and the squares to draw with the
    // answers so far.
    std::vector<Quad> testFlares(const scene::Camera& camera, double time,
                                 const scene::DrawList& list, GlState& state);
    // The squares: additive, over everything (their visibility is the fade).
    void drawQuads(const std::vector<Quad>& quads, GlState& state);

    Programs m_programs;
    VertexArray m_points_vao, m_quad_vao;
    Buffer m_points;
    size_t m_drawn = 0;
};

} // namespace render
