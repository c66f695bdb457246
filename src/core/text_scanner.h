// One scanner for the games' token texts: entity lumps, Source VMT KeyValues, Quake 3 shader
// scripts, Quake 3 .skin files and the compile tools' .pts/.lin/.prt files. They share one
// shape (blanks, comments, quoted strings, a few bytes that are tokens of their own, words
// between them) and differ in details that matter for compatibility; a TextSyntax names those
// details, so each grammar is one constant next to its parser instead of one lexer per format.
//
// Input: any bytes (NUL, control bytes and bytes above 0x7f are ordinary bytes unless the
// syntax lists them as blanks). Output: tokens as views into the text (nothing is copied or
// allocated), each with the 1-based line it starts on. Never reads past the text; every call
// runs in time linear in what it consumes; an unterminated quote or comment ends at the end of
// the text (or, for quotes, at the line break when the syntax says so) and is reported on the
// token, not as an error: the caller decides what it means in its format.
//
// No grammar here has escape sequences: Quake's COM_Parse and COM_ParseExt (ioquake3
// qcommon/q_shared.c) take a quoted string up to the next quote byte, and Source's KeyValues
// reads escapes only when asked to (source-sdk-2013 tier1/KeyValues.h m_bHasEscapeSequences,
// off by default), which the material system does not.
#pragma once

#include <array>
#include <cstdint>
#include <limits>
#include <string_view>

namespace core {

// The details in which the grammars differ, spelled as a chain next to each parser:
//   constexpr auto kSyntax = core::TextSyntax().withLineComments().withQuote('"')
//                                .withPunctuation("{}");
struct TextSyntax {
    // Where an open quoted token ends: at the end of the text, or at the line break (which is
    // not consumed).
    enum class QuoteEnd : uint8_t { Text, Line };

    // Bytes skipped between tokens. Empty: every byte <= ' ' (NUL and control bytes included),
    // as Quake's COM_Parse skips them.
    std::string_view blanks;
    bool line_comments = false;  // "//" up to the line break (only where a token would start)
    bool block_comments = false; // "/* ... */"; one left open runs to the end of the text
    char quote = 0;              // opens and closes a Quoted token; 0: no quoted tokens
    QuoteEnd quote_end = QuoteEnd::Text;
    char bracket_open = 0;        // opens a Bracketed token (VMT's "[$X360]"); 0: none
    char bracket_close = 0;       // closes it; brackets do not nest
    std::string_view punctuation; // bytes that are tokens of their own: "{}", "()"
    // Bytes that end a word without being part of it (besides blanks and punctuation): '"' in
    // entity text, ',' in .skin files. A word's first byte is taken whatever it is.
    std::string_view word_stops;

    constexpr TextSyntax withBlanks(std::string_view bytes) const {
        TextSyntax s = *this;
        s.blanks = bytes;
        return s;
    }
    constexpr TextSyntax withLineComments() const {
        TextSyntax s = *this;
        s.line_comments = true;
        return s;
    }
    constexpr TextSyntax withBlockComments() const {
        TextSyntax s = *this;
        s.block_comments = true;
        return s;
    }
    constexpr TextSyntax withQuote(char q, QuoteEnd end = QuoteEnd::Text) const {
        TextSyntax s = *this;
        s.quote = q;
        s.quote_end = end;
        return s;
    }
    constexpr TextSyntax withBrackets(char open, char close) const {
        TextSyntax s = *this;
        s.bracket_open = open;
        s.bracket_close = close;
        return s;
    }
    constexpr TextSyntax withPunctuation(std::string_view bytes) const {
        TextSyntax s = *this;
        s.punctuation = bytes;
        return s;
    }
    constexpr TextSyntax withWordStops(std::string_view bytes) const {
        TextSyntax s = *this;
        s.word_stops = bytes;
        return s;
    }
};

struct TextToken {
    enum class Kind : uint8_t { End, Word, Quoted, Bracketed, Punct };
    Kind kind = Kind::End;
    std::string_view text;     // Quoted and Bracketed: without their delimiters
    int line = 1;              // where the token starts (End: where the text ends)
    bool unterminated = false; // a Quoted or Bracketed token without its closing byte

    bool end() const { return kind == Kind::End; }
    // A punctuation token `c` (a quoted "{" is not one).
    bool is(char c) const { return kind == Kind::Punct && text.size() == 1 && text[0] == c; }
};

class TextScanner {
public:
    TextScanner(std::string_view text, const TextSyntax& syntax);

    // The next token, consumed / not consumed. End (empty text) once only blanks and comments
    // are left.
    TextToken next();
    TextToken peek() const;

    // Line of the next token (blanks and comments before it are skipped).
    int line();
    bool atEnd();
    // True when the next token starts on `line`.
    bool onLine(int line) { return !atEnd() && m_line == line; }

    // Consumes the next token when it is punctuation `c`.
    bool accept(char c);
    // Consumes `c` when it is the very next byte, blanks not skipped (.skin's "name,shader").
    bool acceptByte(char c);
    // The rest of the current line from the current position (blanks kept), consumed with its
    // line break; a trailing '\r' (Windows text mode) is dropped.
    std::string_view restOfLine();

    // Whole-word conversions: the next token is consumed only when it is a Word that is the
    // number, entirely. `number` also refuses non-finite values and |value| > max_abs.
    bool integer(int64_t& out);
    bool number(float& out, float max_abs = std::numeric_limits<float>::max());

private:
    enum : uint8_t { kBlank = 1, kPunct = 2, kStop = 4 };

    void skip(size_t& pos, int& line) const;
    TextToken scan(size_t& pos, int& line) const;
    size_t delimited(size_t pos, int& line, char close, bool stop_at_line,
                     bool& unterminated) const;
    static void newLine(int& line) {
        if (line < std::numeric_limits<int>::max())
            ++line;
    }

    std::string_view m_text;
    TextSyntax m_syntax;
    std::array<uint8_t, 256> m_class{};
    size_t m_pos = 0;
    int m_line = 1;
};

} // namespace core
