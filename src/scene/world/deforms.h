// Quake 3 deformVertexes, without GL: the per-frame parameters the stage vertex shader reads,
// the per-vertex data autosprites need, and CPU versions of the same maths (the reference the
// shader mirrors, and what the unit tests check).
//
// ioquake3 code/renderergl1/tr_shade_calc.c, RB_DeformTessGeometry and its helpers:
//   - wave (RB_CalcDeformVertexes): each vertex moves along its normal by
//     base + amplitude * f(phase + (x + y + z) / div + time * frequency); with frequency 0 the
//     whole surface moves by one value (EvalWaveForm, no spread).
//   - normal (RB_CalcDeformNormals): the normal gets amplitude * noise(x, y, z, time * frequency)
//     added per axis (offsets 0, 100, 200) and is normalised. Our noise is a hash of the vertex
//     position blended over whole time steps, not ioquake3's random table.
//   - bulge (RB_CalcBulgeVertexes): along the normal by sin(s * width + time * speed) * height,
//     s being the vertex's texture coordinate.
//   - move (RB_CalcMoveVertexes): every vertex by vector * wave(time).
//   - autosprite (AutospriteDeform): each group of four vertices becomes a square facing the
//     viewer, centred on the group's centre, half-size |v0 - centre| * 0.707, corners
//     (left + up, -left + up, -left - up, left - up) with texture coordinates (0,0) (1,0)
//     (1,1) (0,1) (RB_AddQuadStamp).
//   - autosprite2 (Autosprite2Deform): each group of four keeps its long axis (between the
//     midpoints of its two shortest edges) and turns about it to face the viewer: the ends of
//     each short edge go to midpoint +- half its length along normalize(cross(major, forward)),
//     the sign chosen by whether the edge runs forward in the index list.
// Groups are four consecutive vertices of a face; a face whose vertex count is not a multiple
// of four is left undeformed (ioquake3 warns "odd vertex count" and skips the deform).
// projectionShadow and text deforms are not drawn.
#pragma once

#include "content/material/q3_shader.h"
#include "scene/world/world_mesh.h"

#include <array>
#include <span>
#include <vector>

#include <glm/vec2.hpp>
#include <glm/vec3.hpp>
#include <glm/vec4.hpp>

namespace scene {

// Deform kinds as the stage vertex shader numbers them (shaders/stage.vert.glsl DEFORM_*).
enum class DeformCode : int {
    None = 0,
    Wave = 1,
    Normal = 2,
    Bulge = 3,
    Move = 4,
    Autosprite = 5,
    Autosprite2 = 6,
};

// True for the deforms we draw (all but projectionShadow and text).
bool drawsDeform(content::DeformKind kind);
// The shader has a deform we draw: its surfaces need the stage path and no depth pre-pass.
bool hasDrawnDeform(const content::ShaderDef& def);

// One deform at one time, as the vertex shader reads it.
struct DeformFrame {
    DeformCode code = DeformCode::None;
    content::WaveFunc func = content::WaveFunc::Sin;
    // wave: base, amplitude, phase + time * frequency reduced to [0, 1), 1 / div (0 when the
    // frequency is 0: no spread). normal: amplitude, time * frequency.
    glm::vec4 wave{0.0f};
    // bulge: width, height, time * speed (radians, reduced mod 2 pi). move: the offset of
    // this frame (vector * wave).
    glm::vec4 extra{0.0f};
};

// The shader's deforms at `time` seconds, in order; unused slots are None.
std::array<DeformFrame, content::kMaxDeforms> evalDeforms(const content::ShaderDef& def,
                                                          double time);

// ioquake3's wave functions at phase x (cycles): sin, triangle, square, sawtooth, inverse
// sawtooth, and a hash for noise. The shader has the same table.
float waveTable(content::WaveFunc func, float x);

// ioquake3's EvalWaveForm at `time` seconds: base + waveTable(phase + time * frequency) *
// amplitude. Shader stages (rgbGen/alphaGen wave, tcMod stretch) and deforms use it.
float evalWave(const content::Wave& wave, double time);

// CPU versions of the vertex shader's deforms (the shader mirrors them).
struct DeformedVertex {
    glm::vec3 position;
    glm::vec3 normal;
};
DeformedVertex applyDeform(const DeformFrame& frame, glm::vec3 position, glm::vec3 normal,
                           glm::vec2 st);

// Sprite data for every face whose material's shader (`shaders`: per material, nullptr for
// none) has autosprite or autosprite2 (the first such deform). Empty when the map has none.
std::vector<SpriteVertex> buildSpriteVertices(const WorldMesh& mesh,
                                              std::span<const content::ShaderDef* const> shaders);

// Where a sprite vertex goes for a view with these axes (Quake: forward, left, up) and
// its texture coordinates (autosprite replaces them; autosprite2 keeps `st`).
DeformedVertex spriteVertex(DeformCode code, const SpriteVertex& s, glm::vec3 position,
                            glm::vec3 normal, glm::vec3 forward, glm::vec3 left, glm::vec3 up);
glm::vec2 spriteSt(DeformCode code, const SpriteVertex& s, glm::vec2 st);

} // namespace scene
