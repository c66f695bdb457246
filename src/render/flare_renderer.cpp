#include "render/flare_renderer.h"

#include <algorithm>
#include <cmath>

#include <glm/vec4.hpp>

namespace render {

namespace {

// A white spot fading to black at its rim, for flares without an image of their own.
content::Image radialImage() {
    constexpr int kSide = 64;
    content::Image img;
    img.width = img.height = kSide;
    img.rgba.resize(size_t(kSide) * kSide * 4);
    for (int y = 0; y < kSide; ++y)
        for (int x = 0; x < kSide; ++x) {
            const float dx = (float(x) + 0.5f) / kSide * 2.0f - 1.0f;
            const float dy = (float(y) + 0.5f) / kSide * 2.0f - 1.0f;
            const float r = std::min(1.0f, std::sqrt(dx * dx + dy * dy));
            const float v = (1.0f - r) * (1.0f - r);
            uint8_t* p = &img.rgba[(size_t(y) * kSide + size_t(x)) * 4];
            p[0] = p[1] = p[2] = static_cast<uint8_t>(std::lround(v * 255.0f));
            p[3] = 255;
        }
    return img;
}

Texture uploadImage(const content::Image& img, const char* label_text) {
    Texture t = makeTexture(GL_TEXTURE_2D, label_text);
    glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
    glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, img.width, img.height, 0, GL_RGBA, GL_UNSIGNED_BYTE,
                 img.rgba.data());
    glGenerateMipmap(GL_TEXTURE_2D);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_LINEAR_MIPMAP_LINEAR);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_LINEAR);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
    glBindTexture(GL_TEXTURE_2D, 0);
    return t;
}

bool validImage(const content::Image& img) {
    return img.width > 0 && img.height > 0 && img.width <= 4096 && img.height <= 4096 &&
           img.rgba.size() == size_t(img.width) * size_t(img.height) * 4;
}

} // namespace

FlareRenderer::FlareRenderer() = default;

FlareRenderer::~FlareRenderer() {
    clear();
}

bool FlareRenderer::buildPrograms(const GlslLibrary& shaders, Programs* out, std::string* error) {
    Programs p;
    p.test =
        shaders.build("flare|test", "flare.vert.glsl", "flare.frag.glsl", "OCCLUSION_TEST", error);
    if (!p.test)
        return false;
    p.quad = shaders.build("flare", "flare.vert.glsl", "flare.frag.glsl", "", error);
    if (!p.quad)
        return false;
    p.quad_centre = glGetUniformLocation(p.quad.id(), "u_centre");
    p.quad_half = glGetUniformLocation(p.quad.id(), "u_half");
    p.quad_colour = glGetUniformLocation(p.quad.id(), "u_colour");
    GLint bound = 0;
    glGetIntegerv(GL_CURRENT_PROGRAM, &bound);
    glUseProgram(p.quad.id());
    glUniform1i(glGetUniformLocation(p.quad.id(), "u_texture"), 0);
    glUseProgram(static_cast<GLuint>(bound));
    *out = std::move(p);
    return true;
}

bool FlareRenderer::init(const GlslLibrary& shaders, std::string* error) {
    if (!buildPrograms(shaders, &m_programs, error))
        return false;
    m_quad_vao = makeVertexArray("flares/quad");
    m_radial = uploadImage(radialImage(), "flares/radial");
    return true;
}

bool FlareRenderer::reloadPrograms(const GlslLibrary& shaders, std::string* error) {
    Programs fresh;
    if (!buildPrograms(shaders, &fresh, error))
        return false;
    m_programs = std::move(fresh);
    return true;
}

void FlareRenderer::clear() {
    for (State& s : m_states)
        if (s.query)
            glDeleteQueries(1, &s.query);
    m_states.clear();
    m_flares.clear();
    m_flare_textures.clear();
    m_textures.clear();
    m_points.reset();
    m_points_vao.reset();
    m_drawn = 0;
}

void FlareRenderer::upload(const bsp::Map& map, const scene::MaterialTable& materials,
                           const std::vector<content::TextureInfo>& textures) {
    clear();
    m_flares = scene::extractFlares(map, materials);
    if (m_flares.empty())
        return;
    m_states.resize(m_flares.size());
    for (State& s : m_states)
        glGenQueries(1, &s.query);
    for (const scene::Flare& f : m_flares) {
        GLuint tex = m_radial.id();
        const size_t m = static_cast<size_t>(f.material);
        if (f.material >= 0 && m < textures.size() && !textures[m].missing &&
            validImage(textures[m].image)) {
            auto it = m_textures.find(f.material);
            if (it == m_textures.end())
                it = m_textures.emplace(f.material, uploadImage(textures[m].image, "flares/image"))
                         .first;
            tex = it->second.id();
        }
        m_flare_textures.push_back(tex);
    }
    std::vector<glm::vec3> points;
    for (const scene::Flare& f : m_flares)
        points.push_back(f.origin);
    m_points_vao = makeVertexArray("flares/points");
    m_points = makeBuffer("flares/points");
    glBindVertexArray(m_points_vao.id());
    glBindBuffer(GL_ARRAY_BUFFER, m_points.id());
    glBufferData(GL_ARRAY_BUFFER, static_cast<GLsizeiptr>(points.size() * sizeof(glm::vec3)),
                 points.data(), GL_STATIC_DRAW);
    glEnableVertexAttribArray(kAttribPosition);
    glVertexAttribPointer(kAttribPosition, 3, GL_FLOAT, GL_FALSE, sizeof(glm::vec3), nullptr);
    glBindVertexArray(0);
    glBindBuffer(GL_ARRAY_BUFFER, 0);
}

void FlareRenderer::draw(const scene::Camera& camera, double time, const scene::DrawList& list,
                         GlState& state) {
    m_drawn = 0;
    if (m_flares.empty() || !m_programs.test || !m_programs.quad)
        return;
    DebugGroup group("flares");
    readAnswers();
    const std::vector<Quad> quads = testFlares(camera, time, list, state);
    drawQuads(quads, state);
    m_drawn = quads.size();
    state.bindTexture(kUnitTexture, GL_TEXTURE_2D, 0);
    state.enable(GL_BLEND, false);
    state.enable(GL_DEPTH_TEST, true);
    state.depthMask(true);
    state.bindVertexArray(0);
    state.useProgram(0);
}

void FlareRenderer::readAnswers() {
    for (State& s : m_states) {
        if (!s.pending)
            continue;
        GLuint available = 0;
        glGetQueryObjectuiv(s.query, GL_QUERY_RESULT_AVAILABLE, &available);
        if (!available)
            continue;
        GLuint passed = 0;
        glGetQueryObjectuiv(s.query, GL_QUERY_RESULT, &passed);
        s.answer = passed != 0;
        s.pending = false;
    }
}

std::vector<FlareRenderer::Quad> FlareRenderer::testFlares(const scene::Camera& camera, double time,
                                                           const scene::DrawList& list,
                                                           GlState& state) {
    GLint viewport[4] = {0, 0, 1, 1};
    glGetIntegerv(GL_VIEWPORT, viewport);
    const float width = float(std::max(viewport[2], 1)), height = float(std::max(viewport[3], 1));
    const glm::mat4 vp = camera.viewProjection();
    std::vector<Quad> quads;
    state.useProgram(m_programs.test.id());
    state.bindVertexArray(m_points_vao.id());
    state.colourMask(false);
    state.depthMask(false);
    state.enable(GL_DEPTH_TEST, true);
    state.depthFunc(GL_LEQUAL);
    state.enable(GL_BLEND, false);
    // Both in ascending face order: one walk finds each flare's entry in the candidates.
    size_t next = 0;
    for (size_t i = 0; i < m_flares.size(); ++i) {
        const scene::Flare& f = m_flares[i];
        State& s = m_states[i];
        while (next < list.flares.size() && list.flares[next] < f.face)
            ++next;
        const bool candidate = next < list.flares.size() && list.flares[next] == f.face;
        const glm::vec4 clip = vp * glm::vec4(f.origin, 1.0f);
        const float facing = scene::flareFacing(f, camera.position);
        const bool on_screen = candidate && clip.w > camera.z_near && std::abs(clip.x) <= clip.w &&
                               std::abs(clip.y) <= clip.w && facing > 0.0f;
        if (!on_screen) {
            // Not in the draw list, off screen or turned away: not drawn, and it fades in
            // again when it returns.
            s.answer = false;
            s.fade.update(false, time);
            continue;
        }
        if (!s.pending) {
            glBeginQuery(GL_ANY_SAMPLES_PASSED, s.query);
            glDrawArrays(GL_POINTS, static_cast<GLint>(i), 1);
            glEndQuery(GL_ANY_SAMPLES_PASSED);
            s.pending = true;
        }
        const float fade = s.fade.update(s.answer, time);
        if (fade <= 0.0f)
            continue;
        const scene::FlareShape shape = scene::flareShape(clip.w, width);
        const glm::vec3 colour = f.colour * (fade * shape.intensity * facing);
        quads.push_back({glm::vec2(clip.x, clip.y) / clip.w,
                         glm::vec2(shape.half_size * 2.0f / width, shape.half_size * 2.0f / height),
                         colour, m_flare_textures[i]});
    }
    state.colourMask(true);
    return quads;
}

void FlareRenderer::drawQuads(const std::vector<Quad>& quads, GlState& state) {
    state.enable(GL_DEPTH_TEST, false);
    state.enable(GL_BLEND, true);
    state.blendFunc(GL_ONE, GL_ONE);
    state.useProgram(m_programs.quad.id());
    state.bindVertexArray(m_quad_vao.id());
    for (const Quad& q : quads) {
        state.bindTexture(kUnitTexture, GL_TEXTURE_2D, q.texture);
        glUniform2f(m_programs.quad_centre, q.centre.x, q.centre.y);
        glUniform2f(m_programs.quad_half, q.half.x, q.half.y);
        glUniform3f(m_programs.quad_colour, q.colour.r, q.colour.g, q.colour.b);
        glDrawArrays(GL_TRIANGLES, 0, 6);
    }
}

} // namespace render
