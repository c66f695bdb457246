// A cursor over untrusted text for the compile-tool files (.pts, .lin, .prt): white-space
// separated numbers and single-character punctuation, with the line of every token, so errors
// say "line 12". Never reads past the view, never allocates, runs in linear time.
#pragma once

#include <charconv>
#include <cmath>
#include <cstdint>
#include <string_view>

namespace content {

// Coordinates beyond this are no map's (Quake 3's grid ends at +-65536; BSP2 maps reach a few
// hundred thousand): such a point is damage, and refusing it keeps every sum and length finite.
inline constexpr float kMaxCompileCoordinate = 1048576.0f;

class TextScan {
public:
    explicit TextScan(std::string_view text) : m_text(text) {}

    // Line (1-based) of the next token, after skipping white space.
    int line() {
        skipSpace();
        return m_line;
    }
    bool atEnd() {
        skipSpace();
        return m_pos >= m_text.size();
    }
    // The rest of the current line (white space included), consumed with its line break.
    std::string_view restOfLine() {
        const size_t start = m_pos;
        while (m_pos < m_text.size() && m_text[m_pos] != '\n')
            ++m_pos;
        std::string_view out = m_text.substr(start, m_pos - start);
        if (m_pos < m_text.size()) {
            ++m_pos;
            ++m_line;
        }
        if (!out.empty() && out.back() == '\r') // files written in Windows text mode
            out.remove_suffix(1);
        return out;
    }
    // The next token, not consumed: a run of characters up to white space, '(' or ')', or one
    // of those brackets. Empty at the end.
    std::string_view peek() {
        skipSpace();
        if (m_pos >= m_text.size())
            return {};
        if (m_text[m_pos] == '(' || m_text[m_pos] == ')')
            return m_text.substr(m_pos, 1);
        size_t end = m_pos;
        while (end < m_text.size() && !isSpace(m_text[end]) && m_text[end] != '(' &&
               m_text[end] != ')')
            ++end;
        return m_text.substr(m_pos, end - m_pos);
    }
    std::string_view next() {
        const std::string_view t = peek();
        m_pos += t.size();
        return t;
    }
    // The next token when it is on the current line (nothing consumed otherwise).
    bool onLine(int line) { return !atEnd() && m_line == line; }

    // Whole-token conversions; false (nothing consumed) when the token is not one.
    bool integer(int64_t& out) {
        const std::string_view t = peek();
        int64_t v = 0;
        const auto r = std::from_chars(t.data(), t.data() + t.size(), v);
        if (t.empty() || r.ec != std::errc() || r.ptr != t.data() + t.size())
            return false;
        out = v;
        m_pos += t.size();
        return true;
    }
    // A finite number within +-kMaxCompileCoordinate.
    bool coordinate(float& out) {
        float v = 0.0f;
        const TextScan before = *this;
        if (!number(v) || std::fabs(v) > kMaxCompileCoordinate) {
            *this = before;
            return false;
        }
        out = v;
        return true;
    }
    bool number(float& out) {
        const std::string_view t = peek();
        float v = 0.0f;
        const auto r = std::from_chars(t.data(), t.data() + t.size(), v);
        if (t.empty() || r.ec != std::errc() || r.ptr != t.data() + t.size() || !std::isfinite(v))
            return false;
        out = v;
        m_pos += t.size();
        return true;
    }
    bool punct(char c) {
        if (peek() != std::string_view(&c, 1))
            return false;
        ++m_pos;
        return true;
    }

private:
    static bool isSpace(char c) {
        return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f';
    }
    void skipSpace() {
        while (m_pos < m_text.size() && isSpace(m_text[m_pos])) {
            if (m_text[m_pos] == '\n')
                ++m_line;
            ++m_pos;
        }
    }

    std::string_view m_text;
    size_t m_pos = 0;
    int m_line = 1;
};

} // namespace content
