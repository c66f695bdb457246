#include "content/model/skin.h"

#include "core/file.h"

#include <algorithm>
#include <cstdio>

namespace content {
namespace {

// CommaParse over a view: tokens are quoted strings or runs of bytes above space up to a comma.
// text_scan.h's TextScan splits at white space and brackets, not commas, and knows no comments
// or quotes, hence this small cursor of its own.
class CommaScan {
public:
    explicit CommaScan(std::string_view text) : m_text(text) {}

    bool atEnd() const { return m_pos >= m_text.size(); }
    char peekChar() const { return atEnd() ? '\0' : m_text[m_pos]; }
    void skipChar() {
        if (!atEnd())
            ++m_pos;
    }
    int line() const { return m_line; }

    // The next token and the line it starts on; empty at the end of the text. A quoted token
    // that never closes runs to the end, as the engine reads it.
    std::string_view next(int* token_line) {
        skipSpaceAndComments();
        *token_line = m_line;
        if (atEnd())
            return {};
        if (m_text[m_pos] == '"') {
            const size_t start = ++m_pos;
            while (m_pos < m_text.size() && m_text[m_pos] != '"')
                advance();
            const std::string_view t = m_text.substr(start, m_pos - start);
            skipChar(); // the closing quote
            return t;
        }
        // The first byte is taken whatever it is (a comma included), the rest up to white
        // space or a comma.
        const size_t start = m_pos++;
        while (m_pos < m_text.size() && uint8_t(m_text[m_pos]) > ' ' && m_text[m_pos] != ',')
            ++m_pos;
        return m_text.substr(start, m_pos - start);
    }

private:
    void advance() {
        if (m_text[m_pos] == '\n')
            ++m_line;
        ++m_pos;
    }
    void skipSpaceAndComments() {
        for (;;) {
            while (m_pos < m_text.size() && uint8_t(m_text[m_pos]) <= ' ')
                advance();
            const std::string_view rest = m_text.substr(m_pos);
            if (rest.starts_with("//")) {
                while (m_pos < m_text.size() && m_text[m_pos] != '\n')
                    ++m_pos;
            } else if (rest.starts_with("/*")) {
                m_pos += 2;
                while (m_pos < m_text.size() && !m_text.substr(m_pos).starts_with("*/"))
                    advance();
                m_pos = std::min(m_pos + 2, m_text.size()); // an open comment ends the file
            } else {
                return;
            }
        }
    }

    std::string_view m_text;
    size_t m_pos = 0;
    int m_line = 1;
};

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
    CommaScan scan(text);
    size_t total = 0;
    for (;;) {
        int line = 0;
        const std::string_view name = scan.next(&line);
        if (name.empty())
            break; // the end, or an empty quoted name: the engine stops at either
        if (name.size() > kMaxSkinName)
            return skinError(core::ErrorCode::LimitExceeded, file, line,
                             "surface name " + quoted(name) + " has " +
                                 std::to_string(name.size()) + " bytes, the limit is " +
                                 std::to_string(kMaxSkinName));
        if (scan.peekChar() == ',')
            scan.skipChar();
        if (name.find("tag_") != std::string_view::npos)
            continue;
        int shader_line = 0;
        const std::string_view shader = scan.next(&shader_line);
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
