#include "scene/world/deforms.h"

#include <algorithm>
#include <cmath>
#include <numbers>

#include <glm/geometric.hpp>

namespace scene {

using content::DeformKind;
using content::WaveFunc;

namespace {

constexpr double kTwoPi = 2.0 * std::numbers::pi;

float fract(float x) {
    return x - std::floor(x);
}

// Hash of a position and a whole time step in [-1, 1] (stage.vert.glsl hashNoise).
float hashNoise(glm::vec3 p, float step) {
    const float d = glm::dot(p, glm::vec3(12.9898f, 78.233f, 37.719f)) + step * 4.1414f;
    return fract(std::sin(d) * 43758.5453f) * 2.0f - 1.0f;
}

// A value per position that changes smoothly from one whole time step to the next.
float timeNoise(glm::vec3 p, float t) {
    const float step = std::floor(t);
    const float f = t - step;
    const float s = f * f * (3.0f - 2.0f * f);
    return hashNoise(p, step) * (1.0f - s) + hashNoise(p, step + 1.0f) * s;
}

DeformCode codeOf(DeformKind kind) {
    switch (kind) {
    case DeformKind::Wave:
        return DeformCode::Wave;
    case DeformKind::Normal:
        return DeformCode::Normal;
    case DeformKind::Bulge:
        return DeformCode::Bulge;
    case DeformKind::Move:
        return DeformCode::Move;
    case DeformKind::Autosprite:
        return DeformCode::Autosprite;
    case DeformKind::Autosprite2:
        return DeformCode::Autosprite2;
    case DeformKind::ProjectionShadow:
    case DeformKind::Text:
        break;
    }
    return DeformCode::None;
}

// The sprite deform of a shader, None when it has neither autosprite.
DeformCode spriteCode(const content::ShaderDef* def) {
    if (!def)
        return DeformCode::None;
    for (const content::Deform& d : def->deforms)
        if (d.kind == DeformKind::Autosprite || d.kind == DeformKind::Autosprite2)
            return codeOf(d.kind);
    return DeformCode::None;
}

void autospriteGroup(std::span<const WorldVertex> verts, std::span<SpriteVertex> out) {
    glm::vec3 mid(0.0f);
    for (const WorldVertex& v : verts)
        mid += v.position * 0.25f;
    const float radius = glm::length(verts[0].position - mid) * 0.707f;
    if (!(radius > 0.0f))
        return;
    static constexpr float kLeft[4] = {1.0f, -1.0f, -1.0f, 1.0f};
    static constexpr float kUp[4] = {1.0f, 1.0f, -1.0f, -1.0f};
    for (size_t k = 0; k < 4; ++k)
        out[k] = {mid, kLeft[k] * radius, glm::vec3(0.0f), kUp[k] * radius};
}

// `indices`: the group's six indices, local to the group (0..3), or empty when unknown.
void autosprite2Group(std::span<const WorldVertex> verts, std::span<const uint32_t> indices,
                      std::span<SpriteVertex> out) {
    static constexpr int kEdges[6][2] = {{0, 1}, {0, 2}, {0, 3}, {1, 2}, {1, 3}, {2, 3}};
    int nums[2] = {0, 0};
    float lengths[2] = {1e30f, 1e30f};
    for (int i = 0; i < 6; ++i) {
        const glm::vec3 d = verts[static_cast<size_t>(kEdges[i][0])].position -
                            verts[static_cast<size_t>(kEdges[i][1])].position;
        const float l = glm::dot(d, d);
        if (l < lengths[0]) {
            nums[1] = nums[0];
            lengths[1] = lengths[0];
            nums[0] = i;
            lengths[0] = l;
        } else if (l < lengths[1]) {
            nums[1] = i;
            lengths[1] = l;
        }
    }
    glm::vec3 mid[2];
    for (int j = 0; j < 2; ++j) {
        const auto e0 = static_cast<size_t>(kEdges[nums[j]][0]);
        const auto e1 = static_cast<size_t>(kEdges[nums[j]][1]);
        mid[j] = 0.5f * (verts[e0].position + verts[e1].position);
    }
    const glm::vec3 major = mid[1] - mid[0];
    for (int j = 0; j < 2; ++j) {
        const auto e0 = static_cast<uint32_t>(kEdges[nums[j]][0]);
        const auto e1 = static_cast<uint32_t>(kEdges[nums[j]][1]);
        const float l = 0.5f * std::sqrt(lengths[j]);
        if (!(l > 0.0f))
            continue;
        // Does the edge run forward somewhere in the index list? It decides which end goes
        // to which side (ioquake3 looks at index pairs k, k + 1 for k < 5).
        bool forward = false;
        for (size_t k = 0; k + 1 < indices.size() && k < 5; ++k)
            if (indices[k] == e0 && indices[k + 1] == e1)
                forward = true;
        const float s = forward ? -l : l;
        out[e0] = {mid[j], s, major, 0.0f};
        out[e1] = {mid[j], -s, major, 0.0f};
    }
}

} // namespace

bool drawsDeform(DeformKind kind) {
    return codeOf(kind) != DeformCode::None;
}

bool hasDrawnDeform(const content::ShaderDef& def) {
    return std::any_of(def.deforms.begin(), def.deforms.end(),
                       [](const content::Deform& d) { return drawsDeform(d.kind); });
}

float waveTable(WaveFunc func, float x) {
    const float f = fract(x);
    switch (func) {
    case WaveFunc::Sin:
        return static_cast<float>(std::sin(f * kTwoPi));
    case WaveFunc::Triangle:
        return f < 0.25f ? f * 4.0f : f < 0.75f ? 2.0f - f * 4.0f : f * 4.0f - 4.0f;
    case WaveFunc::Square:
        return f < 0.5f ? 1.0f : -1.0f;
    case WaveFunc::Sawtooth:
        return f;
    case WaveFunc::InverseSawtooth:
        return 1.0f - f;
    case WaveFunc::Noise:
        return timeNoise(glm::vec3(0.0f), x * 8.0f);
    }
    return 0.0f;
}

float evalWave(const content::Wave& w, double time) {
    const double x = w.phase + time * w.frequency;
    // The periodic shapes take the position within the cycle, reduced in double so that it
    // keeps its precision at large times; noise takes the running position (it has no cycle).
    const double at = w.func == WaveFunc::Noise ? x : x - std::floor(x);
    return static_cast<float>(w.base + waveTable(w.func, static_cast<float>(at)) * w.amplitude);
}

std::array<DeformFrame, content::kMaxDeforms> evalDeforms(const content::ShaderDef& def,
                                                          double time) {
    std::array<DeformFrame, content::kMaxDeforms> out{};
    size_t n = 0;
    for (const content::Deform& d : def.deforms) {
        if (n >= out.size())
            break;
        DeformFrame& f = out[n];
        f.code = codeOf(d.kind);
        if (f.code == DeformCode::None)
            continue;
        ++n;
        f.func = d.wave.func;
        switch (d.kind) {
        case DeformKind::Wave: {
            const double x = d.wave.phase + time * d.wave.frequency;
            // ioquake3: div 0 means 100; a still wave (frequency 0) has no spread.
            const float spread = d.wave.frequency == 0.0f ? 0.0f
                                 : d.spread == 0.0f       ? 1.0f / 100.0f
                                                          : 1.0f / d.spread;
            f.wave = glm::vec4(d.wave.base, d.wave.amplitude, static_cast<float>(x - std::floor(x)),
                               spread);
            break;
        }
        case DeformKind::Normal: {
            const double t = time * d.wave.frequency;
            f.wave =
                glm::vec4(d.wave.amplitude, static_cast<float>(std::fmod(t, 4096.0)), 0.0f, 0.0f);
            break;
        }
        case DeformKind::Bulge: {
            const double now = std::fmod(time * d.bulge_speed, kTwoPi);
            f.extra = glm::vec4(d.bulge_width, d.bulge_height, static_cast<float>(now), 0.0f);
            break;
        }
        case DeformKind::Move:
            f.extra = glm::vec4(d.move * evalWave(d.wave, time), 0.0f);
            break;
        case DeformKind::Autosprite:
        case DeformKind::Autosprite2:
        case DeformKind::ProjectionShadow:
        case DeformKind::Text:
            break;
        }
    }
    return out;
}

DeformedVertex applyDeform(const DeformFrame& f, glm::vec3 position, glm::vec3 normal,
                           glm::vec2 st) {
    DeformedVertex v{position, normal};
    switch (f.code) {
    case DeformCode::Wave: {
        const float off = (position.x + position.y + position.z) * f.wave.w;
        v.position += normal * (f.wave.x + waveTable(f.func, f.wave.z + off) * f.wave.y);
        break;
    }
    case DeformCode::Normal: {
        const glm::vec3 p = position * 0.98f;
        v.normal.x += f.wave.x * timeNoise(p, f.wave.y);
        v.normal.y += f.wave.x * timeNoise(p + glm::vec3(100.0f), f.wave.y);
        v.normal.z += f.wave.x * timeNoise(p + glm::vec3(200.0f), f.wave.y);
        const float len = glm::length(v.normal);
        if (len > 0.0f)
            v.normal /= len;
        break;
    }
    case DeformCode::Bulge:
        v.position += normal * (std::sin(st.x * f.extra.x + f.extra.z) * f.extra.y);
        break;
    case DeformCode::Move:
        v.position += glm::vec3(f.extra);
        break;
    case DeformCode::None:
    case DeformCode::Autosprite:
    case DeformCode::Autosprite2:
        break;
    }
    return v;
}

std::vector<SpriteVertex> buildSpriteVertices(const WorldMesh& mesh,
                                              std::span<const content::ShaderDef* const> shaders) {
    std::vector<SpriteVertex> out;
    for (const MeshFace& f : mesh.faces) {
        if (f.material < 0 || static_cast<size_t>(f.material) >= shaders.size() ||
            f.num_indices == 0 ||
            static_cast<size_t>(f.first_index) + f.num_indices > mesh.indices.size())
            continue;
        const DeformCode code = spriteCode(shaders[static_cast<size_t>(f.material)]);
        if (code == DeformCode::None)
            continue;
        const std::span<const uint32_t> idx(mesh.indices.data() + f.first_index, f.num_indices);
        const auto [lo, hi] = std::minmax_element(idx.begin(), idx.end());
        const uint32_t base = *lo;
        const size_t count = static_cast<size_t>(*hi - *lo) + 1;
        if (*hi >= mesh.vertices.size() || count % 4 != 0 || idx.size() != count / 4 * 6)
            continue; // ioquake3: "odd vertex count" / "odd index count", left as it is
        if (out.empty())
            out.resize(mesh.vertices.size());
        for (size_t g = 0; g < count / 4; ++g) {
            const std::span<const WorldVertex> verts(mesh.vertices.data() + base + g * 4, 4);
            const std::span<SpriteVertex> dst(out.data() + base + g * 4, 4);
            if (code == DeformCode::Autosprite) {
                autospriteGroup(verts, dst);
                continue;
            }
            uint32_t local[6];
            bool inside = true;
            for (size_t k = 0; k < 6; ++k) {
                const uint32_t v = idx[g * 6 + k] - base;
                inside = inside && v >= g * 4 && v < g * 4 + 4;
                local[k] = v - static_cast<uint32_t>(g * 4);
            }
            autosprite2Group(
                verts, inside ? std::span<const uint32_t>(local, 6) : std::span<const uint32_t>(),
                dst);
        }
    }
    return out;
}

DeformedVertex spriteVertex(DeformCode code, const SpriteVertex& s, glm::vec3 position,
                            glm::vec3 normal, glm::vec3 forward, glm::vec3 left, glm::vec3 up) {
    if (s.a == 0.0f)
        return {position, normal};
    if (code == DeformCode::Autosprite)
        return {s.centre + s.a * left + s.b * up, -forward};
    if (code == DeformCode::Autosprite2) {
        const glm::vec3 c = glm::cross(s.major, forward);
        const float len = glm::length(c);
        const glm::vec3 minor = len > 0.0f ? c / len : glm::vec3(0.0f);
        return {s.centre + s.a * minor, normal};
    }
    return {position, normal};
}

glm::vec2 spriteSt(DeformCode code, const SpriteVertex& s, glm::vec2 st) {
    if (code != DeformCode::Autosprite || s.a == 0.0f)
        return st;
    return {s.a > 0.0f ? 0.0f : 1.0f, s.b > 0.0f ? 0.0f : 1.0f};
}

} // namespace scene
