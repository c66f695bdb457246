// core::TextScanner: the exact tokens each option gives, and hostile input (open quotes and
// comments, NUL bytes, a token the size of the text, no blanks at all).
#include "core/text_scanner.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace {

using core::TextScanner;
using core::TextSyntax;
using core::TextToken;
using Kind = core::TextToken::Kind;

// "W:text@line" per token: W word, Q quoted, B bracketed, P punctuation; "!" marks an
// unterminated one. The End token is not listed.
std::vector<std::string> tokens(std::string_view text, const TextSyntax& syntax) {
    TextScanner scan(text, syntax);
    std::vector<std::string> out;
    for (TextToken t = scan.next(); !t.end(); t = scan.next()) {
        static constexpr char kKinds[] = {'E', 'W', 'Q', 'B', 'P'};
        out.push_back(std::string(1, kKinds[static_cast<int>(t.kind)]) + ":" + std::string(t.text) +
                      "@" + std::to_string(t.line) + (t.unterminated ? "!" : ""));
    }
    return out;
}

using List = std::vector<std::string>;

TEST(TextScanner, PlainSyntaxSplitsAtControlBytesOnly) {
    // No options: words between bytes <= ' '; slashes, quotes and braces are word bytes.
    EXPECT_EQ(tokens("  a\tb//c \"d e\" {f}\n\n g\r\n", TextSyntax()),
              (List{"W:a@1", "W:b//c@1", "W:\"d@1", "W:e\"@1", "W:{f}@1", "W:g@3"}));
    EXPECT_EQ(tokens("", TextSyntax()), List{});
    EXPECT_EQ(tokens(" \n\t ", TextSyntax()), List{});
}

TEST(TextScanner, ExplicitBlanksMakeOtherControlBytesWordBytes) {
    const TextSyntax s = TextSyntax().withBlanks(" \n");
    EXPECT_EQ(tokens("a\tb c\n\rd", s), (List{"W:a\tb@1", "W:c@1", "W:\rd@2"}));
}

TEST(TextScanner, LineCommentsStartOnlyWhereATokenWould) {
    const TextSyntax s = TextSyntax().withLineComments();
    EXPECT_EQ(tokens("a // b c\nd//e\n//\n/x / /", s),
              (List{"W:a@1", "W:d//e@2", "W:/x@4", "W:/@4", "W:/@4"}));
    // Without the option "//" is a word.
    EXPECT_EQ(tokens("// b", TextSyntax()), (List{"W://@1", "W:b@1"}));
}

TEST(TextScanner, BlockCommentsCountTheirLinesAndAnOpenOneEndsTheText) {
    const TextSyntax s = TextSyntax().withLineComments().withBlockComments();
    EXPECT_EQ(tokens("a /* b\n c */ d /**/e/*x*/ f", s),
              (List{"W:a@1", "W:d@2", "W:e/*x*/@2", "W:f@2"}));
    EXPECT_EQ(tokens("a /* b\n\n c", s), List{"W:a@1"});
    EXPECT_EQ(tokens("a /*", s), List{"W:a@1"});
    EXPECT_EQ(tokens("a /*/", s), List{"W:a@1"});
    // Only "//" without the block option: "/*" is a word.
    EXPECT_EQ(tokens("/* a */", TextSyntax().withLineComments()),
              (List{"W:/*@1", "W:a@1", "W:*/@1"}));
}

TEST(TextScanner, QuotesRunToTheTextsEndOrStopAtTheLine) {
    const TextSyntax to_end = TextSyntax().withQuote('"');
    EXPECT_EQ(tokens("\"a b\" \"\" c\"d\"", to_end), (List{"Q:a b@1", "Q:@1", "W:c\"d\"@1"}));
    EXPECT_EQ(tokens("\"a\nb\" c", to_end), (List{"Q:a\nb@1", "W:c@2"}));
    EXPECT_EQ(tokens("x \"open\nrest", to_end), (List{"W:x@1", "Q:open\nrest@1!"}));

    const TextSyntax to_line = TextSyntax().withQuote('"', TextSyntax::QuoteEnd::Line);
    EXPECT_EQ(tokens("\"open\n\"b\"", to_line), (List{"Q:open@1!", "Q:b@2"}));
    EXPECT_EQ(tokens("\"open", to_line), List{"Q:open@1!"});
    // No escapes: a backslash is an ordinary byte and the next quote closes.
    EXPECT_EQ(tokens("\"a\\\" b\"", to_end), (List{"Q:a\\@1", "W:b\"@1"}));
}

TEST(TextScanner, BracketsAreTakenWholeAndDoNotNest) {
    const TextSyntax s = TextSyntax().withQuote('"').withBrackets('[', ']').withWordStops("\"[");
    EXPECT_EQ(tokens("a[$X360 || $PS3] \"b\"[!$PC]\n[[x]]", s),
              (List{"W:a@1", "B:$X360 || $PS3@1", "Q:b@1", "B:!$PC@1", "B:[x@2", "W:]@2"}));
    EXPECT_EQ(tokens("[open\n", s), List{"B:open\n@1!"});
}

TEST(TextScanner, PunctuationAndWordStops) {
    const TextSyntax braces = TextSyntax().withPunctuation("{}");
    EXPECT_EQ(tokens("{a}{ b{c}}", braces), (List{"P:{@1", "W:a@1", "P:}@1", "P:{@1", "W:b@1",
                                                  "P:{@1", "W:c@1", "P:}@1", "P:}@1"}));
    // A stop ends a word but a word may start with it (.skin's "name,shader").
    const TextSyntax commas = TextSyntax().withWordStops(",");
    EXPECT_EQ(tokens("a,b ,c,,d", commas), (List{"W:a@1", "W:,b@1", "W:,c@1", "W:,@1", "W:,d@1"}));
}

TEST(TextScanner, UnbalancedBracesAreTokensAndTheEndComesOnce) {
    // A missing or extra brace is the parser's to judge: the scanner gives the braces as they
    // stand, then the End (on the last line), again and again.
    const TextSyntax s = TextSyntax().withLineComments().withQuote('"').withPunctuation("{}");
    EXPECT_EQ(tokens("{ \"a\" { b\n", s), (List{"P:{@1", "Q:a@1", "P:{@1", "W:b@1"}));
    EXPECT_EQ(tokens("} }\n{", s), (List{"P:}@1", "P:}@1", "P:{@2"}));
    TextScanner scan("{ // open\n", s);
    EXPECT_TRUE(scan.next().is('{'));
    for (int k = 0; k < 3; ++k) {
        const TextToken end = scan.next();
        EXPECT_TRUE(end.end());
        EXPECT_EQ(end.line, 2);
        EXPECT_TRUE(end.text.empty());
    }
}

TEST(TextScanner, EntityGrammarGivesTheEnginesTokens) {
    const TextSyntax s = TextSyntax()
                             .withLineComments()
                             .withQuote('"', TextSyntax::QuoteEnd::Line)
                             .withPunctuation("{}")
                             .withWordStops("\"");
    EXPECT_EQ(tokens("{\n\"classname\" \"worldspawn\" // c\nkey\"v\"}\n", s),
              (List{"P:{@1", "Q:classname@2", "Q:worldspawn@2", "W:key@3", "Q:v@3", "P:}@3"}));
}

TEST(TextScanner, PeekDoesNotConsumeAndLineSkipsBlanks) {
    TextScanner scan("\n\n  a b\nc", TextSyntax());
    EXPECT_EQ(scan.peek().text, "a");
    EXPECT_EQ(scan.peek().line, 3);
    EXPECT_EQ(scan.line(), 3);
    EXPECT_EQ(scan.next().text, "a");
    EXPECT_TRUE(scan.onLine(3));
    EXPECT_EQ(scan.next().text, "b");
    EXPECT_FALSE(scan.onLine(3));
    EXPECT_TRUE(scan.onLine(4));
    EXPECT_FALSE(scan.atEnd());
    EXPECT_EQ(scan.next().text, "c");
    EXPECT_TRUE(scan.atEnd());
    const TextToken end = scan.next();
    EXPECT_TRUE(end.end());
    EXPECT_EQ(end.line, 4);
    EXPECT_TRUE(end.text.empty());
}

TEST(TextScanner, RestOfLineKeepsBlanksAndDropsACarriageReturn) {
    TextScanner scan("PRT1 x \r\n2\n  tail", TextSyntax());
    EXPECT_EQ(scan.restOfLine(), "PRT1 x ");
    EXPECT_EQ(scan.line(), 2);
    EXPECT_EQ(scan.next().text, "2");
    EXPECT_EQ(scan.restOfLine(), "");
    EXPECT_EQ(scan.restOfLine(), "  tail");
    EXPECT_TRUE(scan.atEnd());
    EXPECT_EQ(scan.restOfLine(), "");
}

TEST(TextScanner, AcceptTakesOnlyPunctuationAndAcceptByteTakesTheVeryNextByte) {
    TextScanner scan("( x) ,y", TextSyntax().withPunctuation("()"));
    EXPECT_FALSE(scan.accept(')'));
    EXPECT_TRUE(scan.accept('('));
    EXPECT_FALSE(scan.accept('x')); // a word, not punctuation
    EXPECT_EQ(scan.next().text, "x");
    EXPECT_TRUE(scan.accept(')'));
    EXPECT_FALSE(scan.acceptByte(',')); // a blank comes first
    EXPECT_EQ(scan.next().text, ",y");
    EXPECT_FALSE(scan.acceptByte(','));
}

TEST(TextScanner, NumbersAreWholeWordsAndFailedConversionsConsumeNothing) {
    TextScanner scan("12 -7 1.5e3 12x inf 2e6 \"3\" 9223372036854775808",
                     TextSyntax().withQuote('"'));
    int64_t i = 0;
    float f = 0.0f;
    EXPECT_TRUE(scan.integer(i));
    EXPECT_EQ(i, 12);
    EXPECT_TRUE(scan.integer(i));
    EXPECT_EQ(i, -7);
    EXPECT_FALSE(scan.integer(i)); // "1.5e3" is not an integer
    EXPECT_TRUE(scan.number(f));
    EXPECT_EQ(f, 1500.0f);
    EXPECT_FALSE(scan.number(f)); // "12x"
    EXPECT_EQ(scan.next().text, "12x");
    EXPECT_FALSE(scan.number(f)); // inf is not finite
    EXPECT_EQ(scan.next().text, "inf");
    EXPECT_FALSE(scan.number(f, 1048576.0f)); // over the limit, left in place
    EXPECT_TRUE(scan.number(f));
    EXPECT_EQ(f, 2e6f);
    EXPECT_FALSE(scan.integer(i)); // quoted: not a word
    EXPECT_EQ(scan.next().text, "3");
    EXPECT_FALSE(scan.integer(i)); // out of int64 range
    EXPECT_EQ(scan.next().text, "9223372036854775808");
    EXPECT_FALSE(scan.integer(i)); // the end
    EXPECT_EQ(i, -7);
}

TEST(TextScanner, NulBytesAreBlanksOnlyWhenControlBytesAre) {
    const std::string text("a\0b \"c\0d\"", 9);
    EXPECT_EQ(tokens(text, TextSyntax().withQuote('"')),
              (List{"W:a@1", "W:b@1", "Q:" + std::string("c\0d", 3) + "@1"}));
    EXPECT_EQ(tokens(text, TextSyntax().withBlanks(" ").withQuote('"')),
              (List{"W:" + std::string("a\0b", 3) + "@1", "Q:" + std::string("c\0d", 3) + "@1"}));
    // A NUL never opens a quote or a bracket, even where those are "unset" (0).
    EXPECT_EQ(tokens(std::string("\0x", 2), TextSyntax().withBlanks(" ")),
              List{"W:" + std::string("\0x", 2) + "@1"});
}

TEST(TextScanner, HugeTokensAndLongLinesAreViewsOfTheText) {
    const std::string word(1 << 20, 'w');
    const std::string text = word + " \"" + word;
    TextScanner scan(text, TextSyntax().withQuote('"'));
    const TextToken a = scan.next();
    EXPECT_EQ(a.kind, Kind::Word);
    EXPECT_EQ(a.text.size(), word.size());
    const TextToken b = scan.next();
    EXPECT_EQ(b.kind, Kind::Quoted);
    EXPECT_TRUE(b.unterminated);
    EXPECT_EQ(b.text.size(), word.size());
    EXPECT_TRUE(scan.next().end());

    // A million line breaks inside one open comment: counted, and the text ends.
    const std::string lines = "/*" + std::string(1000000, '\n');
    TextScanner comment(lines, TextSyntax().withBlockComments());
    EXPECT_TRUE(comment.atEnd());
    EXPECT_EQ(comment.line(), 1000001);
}

TEST(TextScanner, EveryPrefixOfAGrammarsTextScansToTheEnd) {
    // Truncated anywhere (inside a quote, a comment, a bracket): the scanner ends, each token
    // inside the text, and the tokens before the cut are unchanged.
    const std::string text = "a \"b c\" /* d */ [e] {f} // g\n\"h\nx";
    const TextSyntax s = TextSyntax()
                             .withLineComments()
                             .withBlockComments()
                             .withQuote('"')
                             .withBrackets('[', ']')
                             .withPunctuation("{}");
    for (size_t n = 0; n <= text.size(); ++n) {
        const std::string_view prefix(text.data(), n);
        TextScanner scan(prefix, s);
        size_t count = 0;
        for (TextToken t = scan.next(); !t.end(); t = scan.next(), ++count) {
            ASSERT_GE(t.text.data(), prefix.data());
            ASSERT_LE(t.text.data() + t.text.size(), prefix.data() + prefix.size());
            ASSERT_LT(count, prefix.size());
        }
    }
}

} // namespace
