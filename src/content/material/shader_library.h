// All Quake 3 shader scripts of a game folder, looked up by name as ioquake3 does.
//
// Load order (ioquake3 code/renderergl1/tr_shader.c ScanAndLoadShaderFiles +
// FindShaderInShaderText, code/qcommon/files.c FS_ListFilteredFiles):
//   - FS_ListFiles("scripts", ".shader") lists each file name once, walking the search path
//     from the highest-priority source down (so a file name present in several archives is
//     read from the highest one: a later pk3's scripts/base.shader replaces pak0's whole
//     file), each source's names in its own directory order, unsorted.
//   - The files are concatenated in REVERSE list order and the name index points at the
//     first definition in that text, so for one shader name defined in two different files
//     the FIRST definition wins: the file from the lowest-priority source, and within one
//     source the file whose name comes last in the directory.
//   We reproduce this with scriptLoadOrder(): by the priority of the source providing the
//   file, lowest first, then by file name descending (our archives' member order is not
//   exposed; we take it as alphabetical, which is how pak0.pk3 is stored). Files directly in
//   scripts/ count, and in archives also one folder below ("scripts/sub/x.shader", as
//   FS_ListFilteredFiles' depth test allows); at most kMaxShaderFiles (MAX_SHADER_FILES).
//   - A file that fails ioquake3's brace pre-check (a name not followed by '{', a section
//     without its '}') is ignored entirely, as ioquake3 does ("Ignoring shader file"); the
//     library records a warning naming it.
//   - Names compare case-insensitively; a looked-up name loses its extension first
//     (COM_StripExtension), so "textures/a/b.tga" finds "textures/a/b".
#pragma once

#include "bsp/map.h"
#include "content/material/q3_shader.h"
#include "content/vfs/vfs.h"

#include <cstddef>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace content {

inline constexpr size_t kMaxShaderFiles = 4096;

// The scripts of `fs` in the order their text is searched (see above), as virtual paths
// ("scripts/base_wall.shader").
std::vector<std::string> scriptLoadOrder(const FileSystem& fs);

struct ShaderLibraryWarning {
    std::string file;
    int line = 0;
    std::string message;
};

class ShaderLibrary {
public:
    ShaderLibrary() = default;

    // Every script of `fs` in scriptLoadOrder. Never fails: unreadable or rejected files
    // become warnings.
    static ShaderLibrary load(const FileSystem& fs);

    // Adds one parsed script after those already added (its definitions lose against
    // earlier ones of the same name). With `ioq3_file_check`, a script whose
    // ShaderScript::ioq3_file_ok is false is skipped with a warning, as ioquake3 does.
    void addScript(ShaderScript script, bool ioq3_file_check = true);

    // The definition ioquake3 would use for `name`, or nullptr when no script defines it.
    const ShaderDef* find(std::string_view name) const;

    // find(), or the implicit shader (implicitShader) when no script defines the name.
    ShaderDef resolve(std::string_view name, bool has_lightmap) const;

    size_t shaderCount() const { return m_index.size(); }    // distinct names
    size_t definitionCount() const { return m_defs.size(); } // duplicates included
    // Per-shader and per-file warnings of the loaded scripts, summed.
    size_t parseWarningCount() const { return m_parse_warnings; }
    const std::vector<std::string>& files() const { return m_files; } // loaded, in order
    const std::vector<ShaderLibraryWarning>& warnings() const { return m_warnings; }
    const std::vector<ShaderDef>& definitions() const { return m_defs; }

private:
    std::vector<ShaderDef> m_defs;
    std::unordered_map<std::string, size_t> m_index; // lower-case name -> first definition
    std::vector<std::string> m_files;
    std::vector<ShaderLibraryWarning> m_warnings;
    size_t m_parse_warnings = 0;
};

// A material's surface flags with those of its shader script ORed in (surfaceFlagsOf; the
// map's own flags stay), so scene::classifyMaterial sees skies, blends and cut-outs the
// scripts declare. The map's flags alone when `shaders` is null or defines no such shader.
// scene::resolveMaterials keeps the result in its table; the texture loaders ask the same.
uint32_t resolveSurfaceFlags(const bsp::Material& material, const ShaderLibrary* shaders);

// The lookup key of a shader name: lower case, extension of the last path component removed.
std::string shaderKey(std::string_view name);

} // namespace content
