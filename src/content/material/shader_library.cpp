#include "content/material/shader_library.h"

#include "core/file.h"

#include <algorithm>
#include <utility>

namespace content {

std::string shaderKey(std::string_view name) {
    std::string key = core::toLower(name);
    const size_t slash = key.find_last_of("/\\");
    const size_t dot = key.find_last_of('.');
    if (dot != std::string::npos && (slash == std::string::npos || dot > slash))
        key.resize(dot);
    return key;
}

std::vector<std::string> scriptLoadOrder(const FileSystem& fs) {
    const std::vector<std::string> labels = fs.sources(); // lowest priority first
    struct Item {
        size_t priority;
        std::string key;
        std::string name;
    };
    std::vector<Item> items;
    for (std::string& name : fs.list("scripts/", ".shader")) {
        const std::string norm = normalizeName(name);
        // FS_ListFilteredFiles takes archive members up to one folder below scripts/
        // ("scripts/sub/x.shader": depth difference <= 2) but lists loose folders with the
        // non-recursive Sys_ListFiles.
        const size_t slash = norm.find('/', 8);
        if (slash != std::string::npos) {
            const bool in_archive = parseMapSpec(fs.specOf(name)).has_value();
            if (!in_archive || norm.find('/', slash + 1) != std::string::npos)
                continue;
        }
        // The source that provides the file; when two sources share a label the higher one
        // is taken (labels are archive file names or directory paths).
        const std::string from = fs.sourceOf(name);
        size_t priority = 0;
        for (size_t i = 0; i < labels.size(); ++i)
            if (labels[i] == from)
                priority = i;
        items.push_back({priority, core::toLower(norm), std::move(name)});
    }
    std::sort(items.begin(), items.end(), [](const Item& a, const Item& b) {
        if (a.priority != b.priority)
            return a.priority < b.priority;
        return a.key > b.key;
    });
    // MAX_SHADER_FILES keeps the first entries of ioquake3's list, which are the last here.
    if (items.size() > kMaxShaderFiles)
        items.erase(items.begin(), items.end() - static_cast<std::ptrdiff_t>(kMaxShaderFiles));
    std::vector<std::string> out;
    out.reserve(items.size());
    for (Item& it : items)
        out.push_back(std::move(it.name));
    return out;
}

ShaderLibrary ShaderLibrary::load(const FileSystem& fs) {
    ShaderLibrary lib;
    for (const std::string& file : scriptLoadOrder(fs)) {
        auto bytes = fs.readChecked(file);
        if (!bytes) {
            lib.m_warnings.push_back({file, 0, bytes.error().message()});
            continue;
        }
        const std::string_view text(reinterpret_cast<const char*>(bytes->data()), bytes->size());
        lib.addScript(parseShaderScript(text, file));
    }
    return lib;
}

void ShaderLibrary::addScript(ShaderScript script, bool ioq3_file_check) {
    const std::string& file = script.file;
    m_parse_warnings += script.warnings.size() + script.dropped_warnings;
    for (const ShaderDef& d : script.shaders)
        m_parse_warnings += d.warnings.size() + d.dropped_warnings;
    if (ioq3_file_check && !script.ioq3_file_ok) {
        const int line = script.warnings.empty() ? 0 : script.warnings[0].line;
        m_warnings.push_back(
            {file, line, "ignored: broken braces (ioquake3 skips the whole file)"});
        return;
    }
    m_files.push_back(file);
    for (ShaderDef& d : script.shaders) {
        const size_t index = m_defs.size();
        // Definitions match by their name as written (Q_stricmp against the stripped
        // lookup name), so only the looked-up name loses its extension.
        m_index.emplace(core::toLower(d.name), index); // emplace keeps the first definition
        m_defs.push_back(std::move(d));
    }
}

const ShaderDef* ShaderLibrary::find(std::string_view name) const {
    const auto it = m_index.find(shaderKey(name));
    return it == m_index.end() ? nullptr : &m_defs[it->second];
}

ShaderDef ShaderLibrary::resolve(std::string_view name, bool has_lightmap) const {
    if (const ShaderDef* d = find(name))
        return *d;
    return implicitShader(name, has_lightmap);
}

uint32_t resolveSurfaceFlags(const bsp::Material& material, const ShaderLibrary* shaders) {
    const ShaderDef* d = shaders ? shaders->find(material.name) : nullptr;
    return d ? material.flags | surfaceFlagsOf(*d) : material.flags;
}

} // namespace content
