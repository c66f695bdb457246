// GLSL programs built from shaders/ (embedded at build time, or read from --shader-dir).
//
// Every program is "#version 330 core" + feature defines + common.glsl + the stage file.
// A failed compile or link logs the program, stage and info log and returns an empty Program,
// so a failed reload can keep the last good one.
#pragma once

#include "render/gl.h"

#include <cstddef>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

namespace render {

struct EmbeddedShader {
    const char* name;
    const char* source;
};
extern const EmbeddedShader kEmbeddedShaders[];
extern const size_t kNumEmbeddedShaders;

// Attribute locations, mirrored in shaders/common.glsl.
enum AttribLocation : GLuint {
    kAttribPosition = 0,
    kAttribUv = 1,
    kAttribLmUv = 2,
    kAttribNormal = 3,
    kAttribColour = 4,
    kAttribStyles = 5,
    kAttribLmLayer = 6,
    kAttribLmStep = 7,
    kAttribSprite0 = 8, // scene::SpriteVertex centre, a (stage shader, DEFORMS)
    kAttribSprite1 = 9, // scene::SpriteVertex major, b
};

class ShaderLibrary {
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

} // namespace render
