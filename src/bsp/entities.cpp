#include "bsp/entities.h"

#include "core/text_scanner.h"

#include <charconv>
#include <cstdlib>

namespace bsp {

namespace {

// The entity lump's grammar: blanks are every byte <= ' ', "//" comments, braces are tokens,
// a word ends at a quote, no escapes. A missing closing quote ends the string at the line's
// end (the engines would swallow the rest of the lump, losing every later entity).
constexpr core::TextSyntax kEntitySyntax = core::TextSyntax()
                                               .withLineComments()
                                               .withQuote('"', core::TextSyntax::QuoteEnd::Line)
                                               .withPunctuation("{}")
                                               .withWordStops("\"");

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
    core::TextScanner tok(text, kEntitySyntax);
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
        const core::TextToken t = tok.next();
        if (t.end())
            break;
        if (t.unterminated)
            warn(warnings, t.line, "missing closing quote");
        if (t.is('{')) {
            if (inside) {
                warn(warnings, t.line, "'{' inside an entity; starting a new one");
                if (!finish(t.line))
                    return out;
            }
            inside = true;
            continue;
        }
        if (t.is('}')) {
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
            warn(warnings, t.line, "text outside an entity: \"" + std::string(t.text) + "\"");
            continue;
        }
        // A key; its value must follow on the same entity.
        const core::TextToken value = tok.next();
        if (value.end() || value.kind == core::TextToken::Kind::Punct) {
            warn(warnings, t.line, "key \"" + std::string(t.text) + "\" has no value");
            if (value.is('}')) {
                inside = false;
                if (!finish(value.line))
                    return out;
            } else if (value.is('{')) {
                if (!finish(value.line))
                    return out;
            }
            continue;
        }
        if (value.unterminated)
            warn(warnings, value.line, "missing closing quote");
        if (current.pairs.size() < kMaxEntityPairs)
            current.pairs.emplace_back(std::string(t.text), std::string(value.text));
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
