// The entry point of core::TextScanner, the one tokenizer of the games' texts (entity lumps,
// VMT KeyValues, Quake 3 shader scripts, .skin files, the compile tools' .pts/.lin/.prt).
#include "entry_points.h"

#include "core/text_scanner.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace fuzz {

namespace {

using core::TextSyntax;
using core::TextToken;

// Every combination of the options the formats use: "//" and "/* */" comments, the quote and
// where an open one ends, VMT's brackets with its word stops, and the blanks and punctuation
// (every byte <= ' ' with "()", or the VMT list with "{}"). The formats' own grammars are among
// them (bsp/entities.cpp, content/material/vmt.cpp, q3_shader_parse.cpp, model/skin.cpp,
// compile/compile_text.h).
std::vector<TextSyntax> syntaxes() {
    std::vector<TextSyntax> out;
    for (unsigned mask = 0; mask < 64; ++mask) {
        if ((mask & 8) && !(mask & 4))
            continue; // where a quote ends matters only with quotes
        TextSyntax s = (mask & 32) ? TextSyntax().withBlanks(" \t\r\n").withPunctuation("{}")
                                   : TextSyntax().withPunctuation("()");
        if (mask & 1)
            s = s.withLineComments();
        if (mask & 2)
            s = s.withBlockComments();
        if (mask & 4)
            s = s.withQuote('"',
                            (mask & 8) ? TextSyntax::QuoteEnd::Line : TextSyntax::QuoteEnd::Text);
        if (mask & 16)
            s = s.withBrackets('[', ']').withWordStops("\"[,");
        out.push_back(s);
    }
    return out;
}

bool same(const TextToken& a, const TextToken& b) {
    return a.kind == b.kind && a.text.data() == b.text.data() && a.text.size() == b.text.size() &&
           a.line == b.line && a.unterminated == b.unterminated;
}

// Checks what one token says against the text: where it lies, what it holds, how it ends, the
// line it starts on, each token after where the one before it ended.
class TokenCheck {
public:
    TokenCheck(std::string_view text, const TextSyntax& s) : m_text(text), m_s(s) {}

    std::string check(const TextToken& t) {
        const char* begin = m_text.data();
        if (t.end())
            return t.text.empty() && t.line == linesBefore(m_text.size())
                       ? std::string()
                       : "the End token has text or the wrong line";
        if (t.text.data() < begin || t.text.data() + t.text.size() > begin + m_text.size())
            return "a token's text lies outside the input";
        const bool delimited =
            t.kind == TextToken::Kind::Quoted || t.kind == TextToken::Kind::Bracketed;
        const size_t start = size_t(t.text.data() - begin) - (delimited ? 1 : 0);
        if (t.text.data() == begin && delimited)
            return "a quoted token without its opening byte";
        if (start < m_from)
            return "tokens overlap or go backwards";
        if (t.unterminated && !delimited)
            return "an unterminated token that is neither quoted nor bracketed";
        if (std::string problem = shape(t, start); !problem.empty())
            return problem;
        if (t.line != linesBefore(start))
            return "token at byte " + std::to_string(start) + " says line " +
                   std::to_string(t.line) + ", the text " + std::to_string(linesBefore(start));
        m_from = size_t(t.text.data() - begin) + t.text.size() + (delimited && !t.unterminated);
        return {};
    }

private:
    std::string shape(const TextToken& t, size_t start) const {
        const size_t close_at = start + 1 + t.text.size(); // where a delimited token closes
        switch (t.kind) {
        case TextToken::Kind::Word:
            return t.text.empty() ? "an empty word" : std::string();
        case TextToken::Kind::Punct:
            return t.text.size() == 1 && m_s.punctuation.find(t.text[0]) != std::string_view::npos
                       ? std::string()
                       : "punctuation that the syntax does not list";
        case TextToken::Kind::Quoted:
        case TextToken::Kind::Bracketed: {
            const bool quoted = t.kind == TextToken::Kind::Quoted;
            const char open = quoted ? m_s.quote : m_s.bracket_open;
            const char close = quoted ? m_s.quote : m_s.bracket_close;
            if (open == 0 || m_text[start] != open)
                return "a delimited token that does not start with its opening byte";
            if (t.text.find(close) != std::string_view::npos)
                return "a delimited token that holds its closing byte";
            const bool at_line = quoted && m_s.quote_end == TextSyntax::QuoteEnd::Line;
            if (at_line && t.text.find('\n') != std::string_view::npos)
                return "a quote that should end at its line holds a line break";
            if (!t.unterminated)
                return close_at < m_text.size() && m_text[close_at] == close
                           ? std::string()
                           : "a closed token without its closing byte";
            const bool open_end =
                close_at == m_text.size() || (at_line && m_text[close_at] == '\n');
            return open_end ? std::string() : "an unterminated token that ends before the text";
        }
        case TextToken::Kind::End:
            break;
        }
        return "a token of no kind";
    }

    // 1 + the line breaks before byte `pos` (the blanks of every syntax here include '\n').
    int linesBefore(size_t pos) {
        for (; m_counted < pos && m_counted < m_text.size(); ++m_counted)
            m_lines += m_text[m_counted] == '\n';
        return m_lines;
    }

    std::string_view m_text;
    TextSyntax m_s;
    size_t m_from = 0;
    size_t m_counted = 0;
    int m_lines = 1;
};

// Every token through peek() and next(): the same token from both, each checked, the End once
// only blanks and comments are left, and no more tokens than bytes.
std::string scanAll(std::string_view text, const TextSyntax& s) {
    core::TextScanner scan(text, s);
    TokenCheck check(text, s);
    for (size_t n = 0; n <= text.size() + 1; ++n) {
        const TextToken peeked = scan.peek();
        const TextToken t = scan.next();
        if (!same(peeked, t))
            return "peek() and next() give different tokens";
        if (std::string problem = check.check(t); !problem.empty())
            return problem;
        if (t.end())
            return scan.atEnd() && scan.next().end() ? std::string() : "tokens after the End";
    }
    return "more tokens than bytes";
}

// The other calls mixed in (whole-word numbers, accept, acceptByte, restOfLine): each consumes
// something until the end, and what restOfLine gives lies in the text.
std::string mixedCalls(std::string_view text, const TextSyntax& s) {
    core::TextScanner scan(text, s);
    for (size_t n = 0; n <= text.size() + 1; ++n) {
        if (scan.atEnd())
            return {};
        const int line = scan.line();
        if (line < 1 || !scan.onLine(line))
            return "line() and onLine() disagree";
        int64_t i = 0;
        float f = 0.0f;
        if (n % 3 == 2) {
            const std::string_view rest = scan.restOfLine();
            if (rest.data() < text.data() || rest.data() + rest.size() > text.data() + text.size())
                return "restOfLine() gives bytes outside the input";
        } else if (!scan.integer(i) && !scan.number(f, 1e6f) && !scan.accept('{') &&
                   !scan.acceptByte(',')) {
            scan.next();
        }
    }
    return "the calls stop consuming the text";
}

} // namespace

Outcome runTextScanner(std::span<const uint8_t> data) {
    static const std::vector<TextSyntax> kSyntaxes = syntaxes();
    const std::string_view text(reinterpret_cast<const char*>(data.data()), data.size());
    Outcome o;
    o.accepted = true; // the scanner rejects nothing: its parsers decide what a token means
    for (size_t k = 0; k < kSyntaxes.size() && o.violation.empty(); ++k) {
        o.violation = scanAll(text, kSyntaxes[k]);
        if (o.violation.empty())
            o.violation = mixedCalls(text, kSyntaxes[k]);
        if (!o.violation.empty())
            o.violation = "syntax " + std::to_string(k) + ": " + o.violation;
    }
    return o;
}

} // namespace fuzz
