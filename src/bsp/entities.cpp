#include "bsp/entities.h"

#include <charconv>
#include <cstdlib>

namespace bsp {

namespace {

class Tokenizer {
public:
    explicit Tokenizer(std::string_view text) : m_text(text) {}

    enum class Kind { End, Open, Close, String };
    struct Token {
        Kind kind = Kind::End;
        std::string text;
        bool unterminated = false;
        size_t line = 1;
    };

    Token next() {
        skipSpaceAndComments();
        Token t;
        t.line = m_line;
        if (m_pos >= m_text.size())
            return t;
        const char c = m_text[m_pos];
        if (c == '{' || c == '}') {
            ++m_pos;
            t.kind = c == '{' ? Kind::Open : Kind::Close;
            return t;
        }
        t.kind = Kind::String;
        if (c == '"') {
            ++m_pos;
            while (m_pos < m_text.size() && m_text[m_pos] != '"') {
                // A missing closing quote ends the string at the line's end (the engines
                // would swallow the rest of the lump, losing every later entity).
                if (m_text[m_pos] == '\n') {
                    t.unterminated = true;
                    break;
                }
                t.text += m_text[m_pos++];
            }
            if (m_pos < m_text.size() && m_text[m_pos] == '"')
                ++m_pos;
            else
                t.unterminated = true;
            return t;
        }
        while (m_pos < m_text.size() && !isSpace(m_text[m_pos]) && m_text[m_pos] != '"' &&
               m_text[m_pos] != '{' && m_text[m_pos] != '}')
            t.text += m_text[m_pos++];
        return t;
    }

private:
    static bool isSpace(char c) { return static_cast<unsigned char>(c) <= ' '; }

    void skipSpaceAndComments() {
        while (m_pos < m_text.size()) {
            const char c = m_text[m_pos];
            if (c == '\n') {
                ++m_line;
                ++m_pos;
            } else if (isSpace(c)) {
                ++m_pos;
            } else if (c == '/' && m_pos + 1 < m_text.size() && m_text[m_pos + 1] == '/') {
                while (m_pos < m_text.size() && m_text[m_pos] != '\n')
                    ++m_pos;
            } else {
                break;
            }
        }
    }

    std::string_view m_text;
    size_t m_pos = 0;
    size_t m_line = 1;
};

void warn(std::vector<std::string>* warnings, size_t line, const std::string& what) {
    if (warnings && warnings->size() < 100)
        warnings->push_back("entities: line " + std::to_string(line) + ": " + what);
}

} // namespace

std::vector<Entity> parseEntities(std::string_view text, std::vector<std::string>* warnings) {
    // The lump is NUL-terminated in the games; ignore anything after the first NUL.
    if (const size_t nul = text.find('\0'); nul != std::string_view::npos)
        text = text.substr(0, nul);

    std::vector<Entity> out;
    Tokenizer tok(text);
    bool inside = false;
    Entity current;
    // Every place that ends an entity goes through here, so the kMaxEntities cap holds on all
    // of them (a lump of "{{{{..." once ended entities only through '{' and bypassed it).
    // False once the cap is reached: the caller stops parsing.
    auto finish = [&](size_t line) {
        out.push_back(std::move(current));
        current = Entity();
        if (out.size() < kMaxEntities)
            return true;
        warn(warnings, line,
             "more than " + std::to_string(kMaxEntities) + " entities; the rest are ignored");
        return false;
    };
    for (;;) {
        Tokenizer::Token t = tok.next();
        if (t.kind == Tokenizer::Kind::End)
            break;
        if (t.unterminated)
            warn(warnings, t.line, "missing closing quote");
        if (t.kind == Tokenizer::Kind::Open) {
            if (inside) {
                warn(warnings, t.line, "'{' inside an entity; starting a new one");
                if (!finish(t.line))
                    return out;
            }
            inside = true;
            continue;
        }
        if (t.kind == Tokenizer::Kind::Close) {
            if (!inside) {
                warn(warnings, t.line, "'}' outside an entity");
                continue;
            }
            inside = false;
            if (!finish(t.line))
                return out;
            continue;
        }
        if (!inside) {
            warn(warnings, t.line, "text outside an entity: \"" + t.text + "\"");
            continue;
        }
        // A key; its value must follow on the same entity.
        Tokenizer::Token value = tok.next();
        if (value.kind != Tokenizer::Kind::String) {
            warn(warnings, t.line, "key \"" + t.text + "\" has no value");
            if (value.kind == Tokenizer::Kind::Close) {
                inside = false;
                if (!finish(value.line))
                    return out;
            } else if (value.kind == Tokenizer::Kind::Open) {
                if (!finish(value.line))
                    return out;
            }
            continue;
        }
        if (value.unterminated)
            warn(warnings, value.line, "missing closing quote");
        if (current.pairs.size() < kMaxEntityPairs)
            current.pairs.emplace_back(std::move(t.text), std::move(value.text));
    }
    if (inside) {
        warn(warnings, 0, "last entity has no closing '}'");
        out.push_back(std::move(current));
    }
    return out;
}

void readEntityLump(Map& map, std::span<const uint8_t> lump) {
    size_t n = 0;
    while (n < lump.size() && lump[n] != 0)
        ++n;
    map.entity_text.assign(reinterpret_cast<const char*>(lump.data()), n);
    map.entities = parseEntities(map.entity_text, &map.warnings);
}

std::vector<SpawnPoint> findSpawnPoints(const Map& map) {
    static constexpr std::string_view kClasses[] = {
        "info_player_start", "info_player_deathmatch", "info_player_coop", "team_CTF_redplayer",
        "team_CTF_blueplayer", "team_CTF_redspawn", "team_CTF_bluespawn", "info_player_teamspawn",
        "info_player_intermission", "info_intermission",
        // Source games
        "info_player_terrorist", "info_player_counterterrorist", "info_player_combine",
        "info_player_rebel"};
    std::vector<SpawnPoint> out;
    for (std::string_view cls : kClasses) {
        for (const Entity& e : map.entities) {
            if (e.classname() != cls)
                continue;
            const auto origin = e.vec3("origin");
            if (!origin)
                continue;
            SpawnPoint s;
            s.origin = *origin;
            s.classname = std::string(cls);
            if (const auto angles = e.vec3("angles")) {
                s.pitch = angles->x;
                s.yaw = angles->y;
            } else if (const auto angle = e.number("angle")) {
                s.yaw = *angle;
            }
            out.push_back(std::move(s));
        }
    }
    return out;
}

} // namespace bsp
