#include "core/text_scanner.h"

#include <charconv>
#include <cmath>

namespace core {

TextScanner::TextScanner(std::string_view text, const TextSyntax& syntax)
    : m_text(text), m_syntax(syntax) {
    for (size_t c = 0; c < m_class.size(); ++c) {
        const char ch = static_cast<char>(c);
        const bool blank =
            syntax.blanks.empty() ? c <= ' ' : syntax.blanks.find(ch) != std::string_view::npos;
        m_class[c] = uint8_t((blank ? kBlank : 0) |
                             (syntax.punctuation.find(ch) != std::string_view::npos ? kPunct : 0) |
                             (syntax.word_stops.find(ch) != std::string_view::npos ? kStop : 0));
    }
}

void TextScanner::skip(size_t& pos, int& line) const {
    const size_t n = m_text.size();
    while (pos < n) {
        const char c = m_text[pos];
        if (m_class[uint8_t(c)] & kBlank) {
            if (c == '\n')
                newLine(line);
            ++pos;
        } else if (c == '/' && pos + 1 < n && m_text[pos + 1] == '/' && m_syntax.line_comments) {
            while (pos < n && m_text[pos] != '\n')
                ++pos;
        } else if (c == '/' && pos + 1 < n && m_text[pos + 1] == '*' && m_syntax.block_comments) {
            pos += 2;
            while (pos < n && !(m_text[pos] == '*' && pos + 1 < n && m_text[pos + 1] == '/')) {
                if (m_text[pos] == '\n')
                    newLine(line);
                ++pos;
            }
            pos = pos < n ? pos + 2 : n; // an open comment runs to the end
        } else {
            return;
        }
    }
}

// From just after the opening byte to the closing one (returned, not consumed), or to where an
// open token ends: the text's end, or its line break when the syntax stops quotes there.
size_t TextScanner::delimited(size_t pos, int& line, char close, bool stop_at_line,
                              bool& unterminated) const {
    while (pos < m_text.size() && m_text[pos] != close) {
        if (m_text[pos] == '\n') {
            if (stop_at_line)
                break;
            newLine(line);
        }
        ++pos;
    }
    unterminated = pos >= m_text.size() || m_text[pos] != close;
    return pos;
}

TextToken TextScanner::scan(size_t& pos, int& line) const {
    skip(pos, line);
    TextToken t;
    t.line = line;
    if (pos >= m_text.size())
        return t;
    const char c = m_text[pos];
    const size_t start = pos;
    if (c != 0 && (c == m_syntax.quote || c == m_syntax.bracket_open)) {
        const bool quoted = c == m_syntax.quote;
        const size_t end =
            delimited(pos + 1, line, quoted ? c : m_syntax.bracket_close,
                      quoted && m_syntax.quote_end == TextSyntax::QuoteEnd::Line, t.unterminated);
        t.kind = quoted ? TextToken::Kind::Quoted : TextToken::Kind::Bracketed;
        t.text = m_text.substr(start + 1, end - start - 1);
        pos = t.unterminated ? end : end + 1;
        return t;
    }
    if (m_class[uint8_t(c)] & kPunct) {
        t.kind = TextToken::Kind::Punct;
        t.text = m_text.substr(pos++, 1);
        return t;
    }
    // A word: its first byte whatever it is, then up to a blank, punctuation or a stop.
    ++pos;
    while (pos < m_text.size() && !(m_class[uint8_t(m_text[pos])] & (kBlank | kPunct | kStop)))
        ++pos;
    t.kind = TextToken::Kind::Word;
    t.text = m_text.substr(start, pos - start);
    return t;
}

TextToken TextScanner::next() {
    return scan(m_pos, m_line);
}

TextToken TextScanner::peek() const {
    size_t pos = m_pos;
    int line = m_line;
    return scan(pos, line);
}

int TextScanner::line() {
    skip(m_pos, m_line);
    return m_line;
}

bool TextScanner::atEnd() {
    skip(m_pos, m_line);
    return m_pos >= m_text.size();
}

bool TextScanner::accept(char c) {
    if (!peek().is(c))
        return false;
    next();
    return true;
}

bool TextScanner::acceptByte(char c) {
    if (m_pos >= m_text.size() || m_text[m_pos] != c)
        return false;
    if (c == '\n')
        newLine(m_line);
    ++m_pos;
    return true;
}

std::string_view TextScanner::restOfLine() {
    const size_t start = m_pos;
    while (m_pos < m_text.size() && m_text[m_pos] != '\n')
        ++m_pos;
    std::string_view out = m_text.substr(start, m_pos - start);
    if (m_pos < m_text.size()) {
        ++m_pos;
        newLine(m_line);
    }
    if (!out.empty() && out.back() == '\r') // files written in Windows text mode
        out.remove_suffix(1);
    return out;
}

bool TextScanner::integer(int64_t& out) {
    const TextToken t = peek();
    if (t.kind != TextToken::Kind::Word)
        return false;
    int64_t v = 0;
    const auto r = std::from_chars(t.text.data(), t.text.data() + t.text.size(), v);
    if (r.ec != std::errc() || r.ptr != t.text.data() + t.text.size())
        return false;
    out = v;
    next();
    return true;
}

bool TextScanner::number(float& out, float max_abs) {
    const TextToken t = peek();
    if (t.kind != TextToken::Kind::Word)
        return false;
    float v = 0.0f;
    const auto r = std::from_chars(t.text.data(), t.text.data() + t.text.size(), v);
    if (r.ec != std::errc() || r.ptr != t.text.data() + t.text.size() || !std::isfinite(v) ||
        std::fabs(v) > max_abs)
        return false;
    out = v;
    next();
    return true;
}

} // namespace core
