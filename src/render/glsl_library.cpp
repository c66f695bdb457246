#include "render/glsl_library.h"

#include "render/uniform_blocks.h"

#include "core/file.h"
#include "core/log.h"

#include <sstream>
#include <vector>

namespace render {

std::optional<std::string> GlslLibrary::source(std::string_view name) const {
    if (!m_dir.empty()) {
        auto bytes = core::readFile(m_dir / std::string(name));
        if (bytes)
            return std::string(bytes->begin(), bytes->end());
    }
    for (size_t i = 0; i < kNumEmbeddedShaders; ++i)
        if (name == kEmbeddedShaders[i].name)
            return std::string(kEmbeddedShaders[i].source);
    return std::nullopt;
}

namespace {

std::string header(std::string_view defines) {
    std::string h = "#version 330 core\n";
    std::istringstream in{std::string(defines)};
    std::string def;
    while (in >> def) {
        const size_t eq = def.find('=');
        if (eq == std::string::npos)
            h += "#define " + def + " 1\n";
        else
            h += "#define " + def.substr(0, eq) + " " + def.substr(eq + 1) + "\n";
    }
    return h;
}

// The info log of a shader or program object (glGetShaderiv + glGetShaderInfoLog, or the
// program pair).
template <class GetIv, class GetLog>
std::string infoLog(GLuint object, GetIv getiv, GetLog getlog) {
    GLint len = 0;
    getiv(object, GL_INFO_LOG_LENGTH, &len);
    std::vector<char> log(static_cast<size_t>(len > 1 ? len : 1), '\0');
    getlog(object, len, nullptr, log.data());
    return log.data();
}

GLuint compile(GLenum stage, const std::string& text, std::string_view label, std::string_view file,
               std::string* error) {
    const GLuint s = glCreateShader(stage);
    const char* src = text.c_str();
    glShaderSource(s, 1, &src, nullptr);
    glCompileShader(s);
    GLint ok = 0;
    glGetShaderiv(s, GL_COMPILE_STATUS, &ok);
    if (!ok) {
        if (error)
            *error = std::string(label) + ": " + std::string(file) + ": " +
                     infoLog(s, glGetShaderiv, glGetShaderInfoLog);
        glDeleteShader(s);
        return 0;
    }
    return s;
}

} // namespace

Program GlslLibrary::build(std::string_view label, std::string_view vs, std::string_view fs,
                           std::string_view defines, std::string* error) const {
    const auto iface = source("gpu_interface.h");
    const auto common = source("common.glsl");
    const auto vs_src = source(vs);
    const auto fs_src = source(fs);
    if (!iface || !common || !vs_src || !fs_src) {
        if (error)
            *error = std::string(label) + ": missing shader source";
        return Program();
    }
    const std::string prefix = header(defines) + *iface + *common + "\n#line 1\n";
    const GLuint v = compile(GL_VERTEX_SHADER, prefix + *vs_src, label, vs, error);
    if (!v)
        return Program();
    const GLuint f = compile(GL_FRAGMENT_SHADER, prefix + *fs_src, label, fs, error);
    if (!f) {
        glDeleteShader(v);
        return Program();
    }
    const GLuint p = glCreateProgram();
    glAttachShader(p, v);
    glAttachShader(p, f);
    glLinkProgram(p);
    glDeleteShader(v);
    glDeleteShader(f);
    GLint ok = 0;
    glGetProgramiv(p, GL_LINK_STATUS, &ok);
    if (!ok) {
        if (error)
            *error =
                std::string(label) + ": link: " + infoLog(p, glGetProgramiv, glGetProgramInfoLog);
        glDeleteProgram(p);
        return Program();
    }
    render::label(GL_PROGRAM, p, std::string(label).c_str());
    bindUniformBlocks(p);
    return Program(p);
}

} // namespace render
