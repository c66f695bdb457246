// GLSL programs built from shaders/ (embedded at build time, or read from --shader-dir).
//
// Every program is "#version 330 core" + feature defines + gpu_interface.h + common.glsl + the
// stage file. (Quake 3's shader scripts are another thing: content::ShaderLibrary.)
// A failed compile or link logs the program, stage and info log and returns an empty Program,
// so a failed reload can keep the last good one.
#pragma once

#include "render/gl.h"

#include "gpu_interface.h"

#include <cstddef>
#include <filesystem>
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

namespace render {

struct EmbeddedShader {
    const char* name;
    const char* source;
};
extern const EmbeddedShader kEmbeddedShaders[];
extern const size_t kNumEmbeddedShaders;

// Attribute locations and texture units of shaders/gpu_interface.h, typed.
enum AttribLocation : GLuint {
    kAttribPosition = ATTRIB_POSITION,
    kAttribUv = ATTRIB_UV,
    kAttribLmUv = ATTRIB_LM_UV,
    kAttribNormal = ATTRIB_NORMAL,
    kAttribColour = ATTRIB_COLOUR,
    kAttribStyles = ATTRIB_STYLES,
    kAttribLmLayer = ATTRIB_LM_LAYER,
    kAttribLmStep = ATTRIB_LM_STEP,
    kAttribSprite0 = ATTRIB_SPRITE0, // scene::SpriteVertex centre, a (stage shader, DEFORMS)
    kAttribSprite1 = ATTRIB_SPRITE1, // scene::SpriteVertex major, b
};
enum TextureUnit : GLuint {
    kUnitTexture = UNIT_TEXTURE,
    kUnitLightmaps = UNIT_LIGHTMAPS,
    kUnitGlow = UNIT_GLOW,
    kUnitSkybox = UNIT_SKYBOX,
    kUnitStage0 = UNIT_STAGE0, // stage k of a folded run: kUnitStage0 + k
    kUnitDeluxemaps = UNIT_DELUXEMAPS,
    kUnitLayer2 = UNIT_LAYER2,
    kUnitBumpmap = UNIT_BUMPMAP,
    kUnitEnvmap = UNIT_ENVMAP,
    kUnitEnvmapMask = UNIT_ENVMAPMASK,
    kUnitWaterReflection = UNIT_WATER_REFLECTION,
    kUnitWaterScene = UNIT_WATER_SCENE,
    kUnitWaterDepth = UNIT_WATER_DEPTH,
};
constexpr size_t kMaxFoldedStages = MAX_FOLDED_STAGES;

class GlslLibrary {
public:
    // Empty dir: embedded sources only.
    void setShaderDir(std::filesystem::path dir) { m_dir = std::move(dir); }

    std::optional<std::string> source(std::string_view name) const;

    // Builds a program from "<vs>" and "<fs>" files with the given defines ("A B=1").
    // Returns an empty Program and fills *error on failure.
    Program build(std::string_view label, std::string_view vs, std::string_view fs,
                  std::string_view defines, std::string* error) const;

private:
    std::filesystem::path m_dir;
};

// Uniform locations of a linked program, by name.
inline void locateAll(GLuint program,
                      std::initializer_list<std::pair<GLint*, const char*>> uniforms) {
    for (const auto& [location, name] : uniforms)
        *location = glGetUniformLocation(program, name);
}

// GLSL 330 has no layout(binding): samplers are pointed at their units after linking. Leaves
// `program` current.
inline void bindSampler(GLuint program, const char* name, GLuint unit) {
    glUseProgram(program);
    glUniform1i(glGetUniformLocation(program, name), static_cast<GLint>(unit));
}

} // namespace render
