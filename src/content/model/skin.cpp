#include "content/model/skin.h"

#include "core/file.h"
#include "core/text_scanner.h"

#include <algorithm>
#include <cstdio>

namespace content {
namespace {

// CommaParse's grammar over a view: blanks are every byte <= ' ', "//" and "/* */" comments,
// a quoted token runs to the end of the text when left open (as the engine reads it), any
// other token is a run of bytes up to a blank or a comma (its first byte taken whatever it is,
// a comma included).
constexpr core::TextSyntax kSkinSyntax =
    core::TextSyntax().withLineComments().withBlockComments().withQuote('"').withWordStops(",");

core::Error skinError(core::ErrorCode code, std::string_view file, int line, std::string detail) {
    core::Error e =
        core::makeError(code, "line " + std::to_string(line), -1, {}, std::move(detail));
    e.file = std::string(file);
    return e;
}

// The first byte that is not text (a NUL or above '~'), with its line; 0 when there is none.
std::pair<size_t, int> firstBinaryByte(std::string_view text) {
    int line = 1;
    for (size_t i = 0; i < text.size(); ++i) {
        const uint8_t c = uint8_t(text[i]);
        if (c == 0 || c > '~')
            return {i + 1, line};
        if (c == '\n')
            ++line;
    }
    return {0, 0};
}

std::string quoted(std::string_view s) {
    return "'" + std::string(s.substr(0, 32)) + (s.size() > 32 ? "...'" : "'");
}

} // namespace

core::Result<Skin> parseSkin(std::string_view text, std::string_view file) {
    if (const auto [at, line] = firstBinaryByte(text); at != 0) {
        char hex[8];
        std::snprintf(hex, sizeof(hex), "0x%02x", unsigned(uint8_t(text[at - 1])));
        return skinError(core::ErrorCode::BadValue, file, line,
                         std::string("byte ") + hex + " at offset " + std::to_string(at - 1) +
                             ": not a text file");
    }
    Skin skin;
    skin.file = std::string(file);
    core::TextScanner scan(text, kSkinSyntax);
    size_t total = 0;
    for (;;) {
        const core::TextToken name_token = scan.next();
        const std::string_view name = name_token.text;
        const int line = name_token.line;
        if (name.empty())
            break; // the end, or an empty quoted name: the engine stops at either
        if (name.size() > kMaxSkinName)
            return skinError(core::ErrorCode::LimitExceeded, file, line,
                             "surface name " + quoted(name) + " has " +
                                 std::to_string(name.size()) + " bytes, the limit is " +
                                 std::to_string(kMaxSkinName));
        scan.acceptByte(',');
        if (name.find("tag_") != std::string_view::npos)
            continue;
        const core::TextToken shader_token = scan.next();
        const std::string_view shader = shader_token.text;
        const int shader_line = shader_token.line;
        if (shader.size() > kMaxSkinName)
            return skinError(core::ErrorCode::LimitExceeded, file, shader_line,
                             "shader name " + quoted(shader) + " has " +
                                 std::to_string(shader.size()) + " bytes, the limit is " +
                                 std::to_string(kMaxSkinName));
        ++total;
        if (skin.surfaces.size() < kMaxSkinSurfaces)
            skin.surfaces.push_back({core::toLower(name), std::string(shader), line});
        else if (total == kMaxSkinSurfaces + 1)
            skin.warnings.push_back("line " + std::to_string(line) + ": surfaces past " +
                                    std::to_string(kMaxSkinSurfaces) + " ignored");
    }
    return skin;
}

const SkinSurface* findSkinSurface(const Skin& skin, std::string_view surface_name) {
    const std::string key = core::toLower(surface_name);
    for (const SkinSurface& s : skin.surfaces)
        if (s.surface == key)
            return &s;
    return nullptr;
}

std::string q3map2SkinPath(std::string_view model, std::string_view skin) {
    if (skin.empty())
        return {};
    const bool number =
        std::all_of(skin.begin(), skin.end(), [](char c) { return c >= '0' && c <= '9'; });
    if (number)
        return std::string(model) + "_" + std::string(skin) + ".skin";
    std::string_view base = model;
    const size_t slash = base.find_last_of("/\\");
    const size_t dot = base.rfind('.');
    if (dot != std::string_view::npos && (slash == std::string_view::npos || dot > slash))
        base = base.substr(0, dot);
    return std::string(base) + "_" + std::string(skin) + ".skin";
}

} // namespace content
