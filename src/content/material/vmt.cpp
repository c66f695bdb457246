#include "content/material/vmt.h"

#include "core/file.h"
#include "core/text_scanner.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <utility>

namespace content {
namespace {

bool iequals(std::string_view a, std::string_view b) {
    if (a.size() != b.size())
        return false;
    for (size_t i = 0; i < a.size(); ++i) {
        const auto lower = [](char c) { return c >= 'A' && c <= 'Z' ? char(c - 'A' + 'a') : c; };
        if (lower(a[i]) != lower(b[i]))
            return false;
    }
    return true;
}

enum class Tok { End, String, Open, Close, Condition };

struct Token {
    Tok kind = Tok::End;
    std::string_view text;
    int line = 1;
};

// VMT's KeyValues grammar: blanks are space, tab, CR and LF; "//" comments; quoted strings
// may span lines; "[$X360]" conditions; braces are tokens; a word ends at a quote or a '['.
constexpr core::TextSyntax kKeyValuesSyntax = core::TextSyntax()
                                                  .withBlanks(" \t\r\n")
                                                  .withLineComments()
                                                  .withQuote('"')
                                                  .withBrackets('[', ']')
                                                  .withPunctuation("{}")
                                                  .withWordStops("\"[");

class Lexer {
public:
    explicit Lexer(std::string_view text) : m_scan(text, kKeyValuesSyntax) {}

    // The next token; `error` is set (and End returned) for an unterminated string.
    Token next(bool& error) { return token(m_scan.next(), error); }
    Token peek(bool& error) const { return token(m_scan.peek(), error); }

private:
    static Token token(const core::TextToken& t, bool& error) {
        Token out;
        out.line = t.line;
        if (t.unterminated) {
            error = true;
            return out;
        }
        switch (t.kind) {
        case core::TextToken::Kind::End:
            return out;
        case core::TextToken::Kind::Punct:
            out.kind = t.is('{') ? Tok::Open : Tok::Close;
            return out;
        case core::TextToken::Kind::Bracketed:
            out.kind = Tok::Condition;
            break;
        case core::TextToken::Kind::Word:
        case core::TextToken::Kind::Quoted:
            out.kind = Tok::String;
            break;
        }
        out.text = t.text;
        return out;
    }

    core::TextScanner m_scan;
};

bool conditionTerm(std::string_view term) {
    while (!term.empty() && term.front() == ' ')
        term.remove_prefix(1);
    while (!term.empty() && term.back() == ' ')
        term.remove_suffix(1);
    bool negate = false;
    while (!term.empty() && term.front() == '!') {
        negate = !negate;
        term.remove_prefix(1);
    }
    const bool value = iequals(term, "$WIN32") || iequals(term, "$WINDOWS") || iequals(term, "$PC");
    return value != negate;
}

// "[$X360 || $PS3]": terms joined left to right by || and &&.
bool evaluateCondition(std::string_view text) {
    bool result = false;
    bool first = true;
    bool is_and = false;
    while (true) {
        const size_t or_at = text.find("||"), and_at = text.find("&&");
        const size_t at = std::min(or_at, and_at);
        const bool term = conditionTerm(text.substr(0, at));
        result = first ? term : is_and ? (result && term) : (result || term);
        first = false;
        if (at == std::string_view::npos)
            return result;
        is_and = at == and_at;
        text.remove_prefix(at + 2);
    }
}

class Parser {
public:
    Parser(std::string_view text, std::string_view name) : m_lex(text), m_name(name) {}

    core::Result<KeyValues> root() {
        KeyValues out;
        const Token key = next();
        if (m_failed)
            return m_error;
        if (key.kind == Tok::End)
            return fail(key.line, core::ErrorCode::BadValue, "no root block");
        if (key.kind != Tok::String)
            return fail(key.line, core::ErrorCode::BadValue, "expected a key");
        takeCondition();
        const Token open = next();
        if (m_failed)
            return m_error;
        if (open.kind != Tok::Open)
            return fail(open.line, core::ErrorCode::BadValue,
                        "expected '{' after \"" + std::string(key.text) + "\"");
        out.key = core::toLower(key.text);
        out.block = true;
        if (!block(out, 1))
            return m_error;
        return out;
    }

private:
    Token next() {
        bool error = false;
        Token t = m_lex.next(error);
        if (error)
            fail(t.line, core::ErrorCode::BadValue, "unterminated string or condition");
        return t;
    }
    // Consumes a conditional after an entry; true when the entry is kept.
    bool takeCondition() {
        bool error = false;
        const Token t = m_lex.peek(error);
        if (error || t.kind != Tok::Condition)
            return true;
        next();
        return evaluateCondition(t.text);
    }
    core::Error fail(int line, core::ErrorCode code, std::string detail) {
        if (!m_failed) {
            m_error = core::makeError(code, "keyvalues", -1, "line " + std::to_string(line),
                                      std::move(detail));
            m_error.file = std::string(m_name);
            m_failed = true;
        }
        return m_error;
    }

    // Entries up to the closing brace.
    bool block(KeyValues& out, int depth) {
        if (depth > kMaxKeyValuesDepth) {
            fail(0, core::ErrorCode::LimitExceeded,
                 "blocks nested deeper than " + std::to_string(kMaxKeyValuesDepth));
            return false;
        }
        while (true) {
            const Token key = next();
            if (m_failed)
                return false;
            if (key.kind == Tok::Close)
                return true;
            if (key.kind == Tok::End) {
                fail(key.line, core::ErrorCode::BadValue, "missing '}' at the end");
                return false;
            }
            if (key.kind != Tok::String) {
                fail(key.line, core::ErrorCode::BadValue, "expected a key");
                return false;
            }
            bool keep = takeCondition();
            KeyValues entry;
            entry.key = core::toLower(key.text);
            const Token value = next();
            if (m_failed)
                return false;
            if (value.kind == Tok::Open) {
                entry.block = true;
                if (!block(entry, depth + 1))
                    return false;
            } else if (value.kind == Tok::String) {
                entry.value = std::string(value.text);
            } else {
                fail(value.line, core::ErrorCode::BadValue,
                     "no value for \"" + std::string(key.text) + "\"");
                return false;
            }
            keep = takeCondition() && keep;
            if (m_failed)
                return false;
            if (keep)
                out.children.push_back(std::move(entry));
        }
    }

    Lexer m_lex;
    std::string_view m_name;
    core::Error m_error;
    bool m_failed = false;
};

bool truthy(const KeyValues& params, std::string_view key) {
    const KeyValues* kv = params.find(key);
    return kv && !kv->block && std::atof(kv->value.c_str()) != 0.0;
}

std::string stringParam(const KeyValues& params, std::string_view key) {
    const KeyValues* kv = params.find(key);
    return kv && !kv->block ? kv->value : std::string();
}

// A colour parameter: "{255 128 0}" (0..255) or "[1 0.5 0]" (0..1), each clamped to 0..1.
bool colourParam(const KeyValues& params, std::string_view key, std::array<float, 3>& out) {
    const std::string text = stringParam(params, key);
    const size_t open = text.find_first_of("{[");
    if (open == std::string::npos)
        return false;
    const bool bytes = text[open] == '{';
    const char* p = text.c_str() + open + 1;
    for (float& c : out) {
        char* end = nullptr;
        const double v = std::strtod(p, &end);
        if (end == p || !std::isfinite(v))
            return false;
        c = static_cast<float>(std::clamp(bytes ? v / 255.0 : v, 0.0, 1.0));
        p = end;
    }
    return true;
}

// A finite number parameter into `out`; false (out unchanged) when absent or unreadable.
bool floatParam(const KeyValues& params, std::string_view key, float& out) {
    const KeyValues* kv = params.find(key);
    if (!kv || kv->block)
        return false;
    const double v = std::atof(kv->value.c_str());
    if (!std::isfinite(v) || std::abs(v) > 1.0e30)
        return false;
    out = static_cast<float>(v);
    return true;
}

// An int parameter ($frame, $bumpframe): the number's whole part, bounded to +-1e6; 0 when absent
// or unreadable (the shaders' default).
int intParam(const KeyValues& params, std::string_view key) {
    float v = 0.0f;
    if (!floatParam(params, key, v))
        return 0;
    return static_cast<int>(std::clamp(v, -1.0e6f, 1.0e6f));
}

// A vector parameter "[a b]" (or bare "a b") into `out`; false (out unchanged) when absent or
// short.
template <size_t N>
bool vectorParam(const KeyValues& params, std::string_view key, std::array<float, N>& out) {
    const std::string text = stringParam(params, key);
    if (text.empty())
        return false;
    const size_t open = text.find_first_of("{[");
    const char* p = text.c_str() + (open == std::string::npos ? 0 : open + 1);
    std::array<float, N> read{};
    for (float& c : read) {
        char* end = nullptr;
        const double v = std::strtod(p, &end);
        if (end == p || !std::isfinite(v) || std::abs(v) > 1.0e30)
            return false;
        c = static_cast<float>(v);
        p = end;
    }
    out = read;
    return true;
}

// A tint: "[r g b]" as written, "{R G B}" over 255, or one number for all three (a material
// var set from a float fills every component: CMaterialVar::SetFloatValue); false (out
// unchanged) when absent or unreadable. Not clamped: the shader takes any tint.
bool tintParam(const KeyValues& params, std::string_view key, std::array<float, 3>& out) {
    const std::string text = stringParam(params, key);
    const size_t open = text.find_first_of("{[");
    std::array<float, 3> read{};
    const char* p = text.c_str() + (open == std::string::npos ? 0 : open + 1);
    for (size_t i = 0; i < read.size(); ++i) {
        char* end = nullptr;
        const double v = std::strtod(p, &end);
        if (end == p || !std::isfinite(v) || std::abs(v) > 1.0e30) {
            if (open != std::string::npos || i != 1)
                return false;
            read = {read[0], read[0], read[0]}; // a lone number
            break;
        }
        read[i] =
            static_cast<float>(open != std::string::npos && text[open] == '{' ? v / 255.0 : v);
        p = end;
    }
    out = read;
    return true;
}

// The LightmappedGeneric family's $envmap parameters (Vmt::envmap...).
void fillEnvMap(const KeyValues& p, Vmt& vmt) {
    vmt.envmap = stringParam(p, "$envmap");
    tintParam(p, "$envmaptint", vmt.envmap_tint);
    vmt.envmap_mask = stringParam(p, "$envmapmask");
    vmt.base_alpha_envmap_mask = truthy(p, "$basealphaenvmapmask");
    vmt.normalmap_alpha_envmap_mask = truthy(p, "$normalmapalphaenvmapmask");
    floatParam(p, "$envmapcontrast", vmt.envmap_contrast);
    floatParam(p, "$envmapsaturation", vmt.envmap_saturation);
    floatParam(p, "$fresnelreflection", vmt.fresnel_reflection);
}

// Water's parameters with water.cpp's defaults (Vmt::Water).
void fillWater(const KeyValues& p, Vmt& vmt) {
    Vmt::Water& w = vmt.water;
    if (vmt.has_fog_colour)
        w.fog_colour = vmt.fog_colour;
    floatParam(p, "$fogstart", w.fog_start);
    floatParam(p, "$fogend", w.fog_end);
    colourParam(p, "$reflecttint", w.reflect_tint);
    colourParam(p, "$refracttint", w.refract_tint);
    floatParam(p, "$reflectamount", w.reflect_amount);
    floatParam(p, "$refractamount", w.refract_amount);
    if (std::string s = stringParam(p, "$normalmap"); !s.empty()) {
        w.normal_map = std::move(s);
        w.has_normal_map = true;
    }
    w.bump_frame = vmt.bump_frame;
    w.bottom_material = stringParam(p, "$bottommaterial");
    floatParam(p, "$cheapwaterstartdistance", w.cheap_start);
    floatParam(p, "$cheapwaterenddistance", w.cheap_end);
    if (std::string s = stringParam(p, "$envmap"); !s.empty()) {
        w.envmap = std::move(s);
        w.has_envmap = true;
    }
    w.force_cheap = truthy(p, "$forcecheap");
    if (p.find("$forceexpensive"))
        w.force_expensive = truthy(p, "$forceexpensive");
    if (w.force_cheap)
        w.force_expensive = false;
    w.has_reflect_texture = !stringParam(p, "$reflecttexture").empty();
    w.has_refract_texture = !stringParam(p, "$refracttexture").empty();
    w.no_fresnel = truthy(p, "$nofresnel");
    floatParam(p, "$reflectblendfactor", w.reflect_blend_factor);
    vectorParam(p, "$scale", w.scale);
    if (p.find("$abovewater")) {
        w.above_water = truthy(p, "$abovewater");
        w.has_above_water = true;
    }
}

// A matrix parameter (texture_transform.h) into `out`; absent leaves it, unreadable leaves it
// too with a warning naming the file, the key and the value.
void transformParam(const KeyValues& p, std::string_view key, std::string_view name, Vmt& vmt,
                    TextureTransform& out) {
    const KeyValues* kv = p.find(key);
    if (!kv)
        return;
    std::optional<TextureTransform> t;
    if (!kv->block)
        t = parseTextureTransform(kv->value);
    if (t) {
        out = *t;
        return;
    }
    vmt.warnings.push_back(std::string(name) + ": " + std::string(key) + " '" + kv->value +
                           "': not 'center cx cy scale sx sy rotate deg translate tx ty' nor 16 "
                           "numbers in []; the texture is not transformed");
}

// One float input of a proxy (game/client/functionproxy.cpp CFloatInput::Init): absent is
// `fallback`; a number is itself; otherwise the name of one of the material's vars ("$rate"),
// read as a float. False (a warning) when the value is neither a number nor a var the material
// sets to one: the engine then fails the proxy's Init and drops it.
bool proxyFloat(const KeyValues& proxy, const KeyValues& params, std::string_view key,
                float fallback, std::string_view where, Vmt& vmt, float& out) {
    const KeyValues* kv = proxy.find(key);
    out = fallback;
    if (!kv)
        return true;
    const auto number = [](const std::string& text, float& v) {
        const char* begin = text.c_str();
        char* end = nullptr;
        const double d = std::strtod(begin, &end);
        if (end == begin || !std::isfinite(d) || std::abs(d) > 1.0e30)
            return false;
        v = static_cast<float>(d);
        return true;
    };
    if (!kv->block && number(kv->value, out))
        return true;
    if (!kv->block && !kv->value.empty() && kv->value[0] == '$')
        if (const KeyValues* var = params.find(core::toLower(kv->value));
            var && !var->block && number(var->value, out))
            return true;
    out = fallback;
    vmt.warnings.push_back(std::string(where) + " " + std::string(key) + " '" + kv->value +
                           "': neither a number nor a number var of the material; the proxy is "
                           "ignored");
    return false;
}

// A number a proxy's Init reads with KeyValues::GetFloat / GetInt (no material var): absent is
// `fallback`; anything but a finite number is a warning naming the material, proxy and key, and
// false (the proxy is dropped).
bool proxyLiteral(const KeyValues& proxy, std::string_view key, float fallback,
                  std::string_view where, Vmt& vmt, float& out) {
    out = fallback;
    const KeyValues* kv = proxy.find(key);
    if (!kv)
        return true;
    if (!kv->block) {
        const char* begin = kv->value.c_str();
        char* end = nullptr;
        const double d = std::strtod(begin, &end);
        while (end && (*end == ' ' || *end == '\t'))
            ++end;
        if (end != begin && *end == '\0' && std::isfinite(d) && std::abs(d) <= 1.0e30) {
            out = static_cast<float>(d);
            return true;
        }
    }
    vmt.warnings.push_back(std::string(where) + " " + std::string(key) + " '" + kv->value +
                           "': not a number below 1e30 in size; the proxy is ignored");
    return false;
}

// One AnimatedTexture proxy (CBaseAnimatedTextureProxy::Init): both vars must be named (else the
// engine's Init fails: a warning, the proxy dropped); the rate and the no-wrap flag are numbers.
// Kept in vmt.base_animation or bump_animation when it plays $basetexture into $frame or the
// normal map into $bumpframe; aimed at another texture var ($detail, $envmapmask, ...) or frame
// var it is named in vmt.unevaluated_proxies.
void fillAnimatedTexture(const KeyValues& proxy, std::string_view name, Vmt& vmt,
                         const std::function<void(const std::string&)>& unevaluated) {
    const std::string where = std::string(name) + ": Proxies AnimatedTexture";
    const std::string var = core::toLower(stringParam(proxy, "animatedtexturevar"));
    const std::string frame_var = core::toLower(stringParam(proxy, "animatedtextureframenumvar"));
    if (var.empty()) {
        vmt.warnings.push_back(where + " animatedtexturevar '': missing; the proxy is ignored");
        return;
    }
    if (frame_var.empty()) {
        vmt.warnings.push_back(where +
                               " animatedtextureframenumvar '': missing; the proxy is ignored");
        return;
    }
    AnimatedTexture animation;
    animation.enabled = true;
    float no_wrap = 0.0f;
    if (!proxyLiteral(proxy, "animatedtextureframerate", 15.0f, where, vmt, animation.rate) ||
        !proxyLiteral(proxy, "animationnowrap", 0.0f, where, vmt, no_wrap))
        return;
    animation.wrap = static_cast<int64_t>(no_wrap) == 0; // GetInt: the whole part
    // Water's normal map is $normalmap (water.cpp binds NORMALMAP with BUMPFRAME); the
    // LightmappedGeneric family's is $bumpmap.
    const std::string_view normal_var = vmt.shader == "water" ? "$normalmap" : "$bumpmap";
    if (var == "$basetexture" && frame_var == "$frame")
        vmt.base_animation = animation;
    else if (var == normal_var && frame_var == "$bumpframe")
        vmt.bump_animation = animation;
    else
        unevaluated("animatedtexture " + var + " " + frame_var);
}

// The `Proxies` block: TextureScroll proxies aimed at $basetexturetransform or $bumptransform
// into vmt.motion, AnimatedTexture proxies playing the base texture or the normal map into
// vmt.base_animation / bump_animation; every other proxy named once in vmt.unevaluated_proxies.
void fillProxies(const KeyValues& p, std::string_view name, Vmt& vmt) {
    const KeyValues* proxies = p.find("proxies");
    if (!proxies || !proxies->block)
        return;
    const auto unevaluated = [&vmt](const std::string& what) {
        if (std::find(vmt.unevaluated_proxies.begin(), vmt.unevaluated_proxies.end(), what) ==
            vmt.unevaluated_proxies.end())
            vmt.unevaluated_proxies.push_back(what);
    };
    const auto warn = [&vmt](std::string w) { vmt.warnings.push_back(std::move(w)); };
    // A TextureTransform and a TextureScroll aimed at the same matrix: the one bound later
    // sets it (each OnBind overwrites the var).
    const auto dropTransformsOn = [&vmt](std::string_view var) {
        std::erase_if(vmt.proxies.steps, [&](const ProxyStep& s) {
            return s.op == ProxyOp::TextureTransform &&
                   vmt.proxies.vars[static_cast<size_t>(s.result)].name == var;
        });
    };
    for (const KeyValues& proxy : proxies->children) {
        if (proxy.block && evaluatedProxy(proxy.key)) {
            const std::string where =
                std::string(name) + ": Proxies " + std::string(proxyDisplayName(proxy.key));
            if (readProxy(proxy.key, proxy, p, where, vmt.proxies, warn) &&
                proxy.key == "texturetransform") {
                const std::string& var =
                    vmt.proxies.vars[static_cast<size_t>(vmt.proxies.steps.back().result)].name;
                if (var == "$basetexturetransform")
                    vmt.motion.base_scroll = TextureScroll();
                else if (var == "$bumptransform")
                    vmt.motion.bump_scroll = TextureScroll();
            }
            continue;
        }
        if (proxy.block && proxy.key == "animatedtexture") {
            fillAnimatedTexture(proxy, name, vmt, unevaluated);
            continue;
        }
        if (!proxy.block || proxy.key != "texturescroll") {
            unevaluated(proxy.key);
            continue;
        }
        const std::string where = std::string(name) + ": Proxies TextureScroll";
        // CTextureScrollMaterialProxy::Init: the var must exist (the shader declares both
        // transforms, so a material need not write them).
        const std::string var = core::toLower(stringParam(proxy, "texturescrollvar"));
        TextureScroll* target = var == "$basetexturetransform" ? &vmt.motion.base_scroll
                                : var == "$bumptransform"      ? &vmt.motion.bump_scroll
                                                               : nullptr;
        if (var.empty()) {
            vmt.warnings.push_back(where + " texturescrollvar '': missing; the proxy is ignored");
            continue;
        }
        if (!target) {
            unevaluated("texturescroll " + var);
            continue;
        }
        TextureScroll scroll;
        scroll.enabled = true;
        if (!proxyFloat(proxy, p, "texturescrollrate", 1.0f, where, vmt, scroll.rate) ||
            !proxyFloat(proxy, p, "texturescrollangle", 0.0f, where, vmt, scroll.angle) ||
            !proxyFloat(proxy, p, "texturescale", 1.0f, where, vmt, scroll.scale))
            continue;
        *target = scroll;
        dropTransformsOn(var);
    }
    finishProxies(vmt.proxies, vmt.undrawn_proxy_vars);
}

void fillFields(Vmt& vmt, std::string_view name) {
    const KeyValues& p = vmt.params;
    vmt.motion = TextureMotion();
    vmt.base_animation = AnimatedTexture();
    vmt.bump_animation = AnimatedTexture();
    vmt.unevaluated_proxies.clear();
    vmt.proxies = MaterialProxies();
    vmt.undrawn_proxy_vars.clear();
    vmt.warnings.clear();
    transformParam(p, "$basetexturetransform", name, vmt, vmt.motion.base);
    transformParam(p, "$bumptransform", name, vmt, vmt.motion.bump);
    fillProxies(p, name, vmt);
    vmt.frame = intParam(p, "$frame");
    vmt.bump_frame = intParam(p, "$bumpframe");
    vmt.base_texture = stringParam(p, "$basetexture");
    vmt.base_texture2 = stringParam(p, "$basetexture2");
    vmt.bump_map = stringParam(p, "$bumpmap");
    vmt.ssbump = truthy(p, "$ssbump");
    fillEnvMap(p, vmt);
    vmt.hdr_base_texture = stringParam(p, "$hdrbasetexture");
    vmt.hdr_compressed_texture = stringParam(p, "$hdrcompressedtexture");
    vmt.translucent = truthy(p, "$translucent");
    vmt.alphatest = truthy(p, "$alphatest");
    vmt.additive = truthy(p, "$additive");
    vmt.selfillum = truthy(p, "$selfillum");
    vmt.nocull = truthy(p, "$nocull");
    if (const KeyValues* ref = p.find("$alphatestreference"); ref && !ref->block) {
        const double v = std::atof(ref->value.c_str());
        if (std::isfinite(v))
            vmt.alphatest_reference = static_cast<float>(std::clamp(v, 0.0, 1.0));
    }
    vmt.has_fog_colour = colourParam(p, "$fogcolor", vmt.fog_colour);
    vmt.include = vmt.shader == "patch" ? stringParam(p, "include") : std::string();
    fillWater(p, vmt);
}

// Sets `entry` in `params`: overwrites the last entry with its key, or appends it when
// `add` is true.
void applyEntry(KeyValues& params, const KeyValues& entry, bool add) {
    if (KeyValues* existing = params.find(entry.key))
        *existing = entry;
    else if (add)
        params.children.push_back(entry);
}

// A material or texture name as the engine's file system reads it: backslashes turned to
// slashes (tier1/strtools.cpp V_FixSlashes), runs of slashes made one (V_FixDoubleSlashes:
// Momentum's "momentum/World 1//White1"), "./" segments removed (V_RemoveDotSlashes), lower
// case (the game's file system ignores case), no leading slash.
std::string normalisedPath(std::string_view name) {
    std::string path;
    path.reserve(name.size());
    for (char c : core::toLower(name)) {
        if (c == '\\')
            c = '/';
        if (c == '/' && (path.empty() || path.back() == '/'))
            continue; // a leading slash, or the second of a run
        path.push_back(c);
        // "./" as a whole segment: drop it ("a/./b" -> "a/b"; "../" stays).
        const size_t n = path.size();
        if (c == '/' && n >= 2 && path[n - 2] == '.' && (n == 2 || path[n - 3] == '/'))
            path.resize(n - 2);
    }
    return path;
}

std::string texturePath(std::string_view name, std::string_view ext) {
    std::string path = normalisedPath(name);
    if (path.rfind("materials/", 0) != 0)
        path = "materials/" + path;
    if (path.size() < ext.size() || path.compare(path.size() - ext.size(), ext.size(), ext) != 0)
        path += ext;
    return path;
}

} // namespace

const KeyValues* KeyValues::find(std::string_view k) const {
    for (size_t i = children.size(); i-- > 0;)
        if (iequals(children[i].key, k))
            return &children[i];
    return nullptr;
}

KeyValues* KeyValues::find(std::string_view k) {
    return const_cast<KeyValues*>(std::as_const(*this).find(k));
}

core::Result<KeyValues> parseKeyValues(std::string_view text, std::string_view name) {
    return Parser(text, name).root();
}

core::Result<Vmt> parseVmt(std::string_view text, std::string_view name) {
    auto kv = parseKeyValues(text, name);
    if (!kv)
        return kv.error();
    Vmt vmt;
    vmt.shader = kv->key;
    vmt.params = std::move(*kv);
    fillFields(vmt, name);
    return vmt;
}

core::Result<Vmt> resolveVmt(std::string_view path, const VmtReader& read) {
    std::vector<Vmt> chain; // the file asked for first, then each include
    std::string current(path);
    for (int depth = 0;; ++depth) {
        if (depth > kMaxVmtPatchDepth) {
            core::Error e =
                core::makeError(core::ErrorCode::LimitExceeded, "patch", -1, "include",
                                "more than " + std::to_string(kMaxVmtPatchDepth) +
                                    " patch includes (a cycle?) from " + std::string(path));
            e.file = std::string(path);
            return e;
        }
        const std::optional<std::string> text = read(current);
        if (!text) {
            core::Error e = core::makeError(core::ErrorCode::NotFound, "patch", -1,
                                            depth ? "include" : "", current);
            e.file = std::string(path);
            return e;
        }
        auto vmt = parseVmt(*text, current);
        if (!vmt)
            return vmt.error();
        const bool patch = vmt->shader == "patch";
        std::string include = vmt->include;
        chain.push_back(std::move(*vmt));
        if (!patch)
            break;
        if (include.empty()) {
            core::Error e = core::makeError(core::ErrorCode::BadValue, "patch", -1, "include",
                                            "a patch material without an include");
            e.file = current;
            return e;
        }
        current = vmtPathOf(include);
    }
    // Apply the patches from the innermost include outwards.
    Vmt result = std::move(chain.back());
    for (size_t i = chain.size() - 1; i-- > 0;) {
        const KeyValues& patch = chain[i].params;
        for (const KeyValues& section : patch.children) {
            if (!section.block)
                continue;
            const bool insert = section.key == "insert";
            if (!insert && section.key != "replace")
                continue;
            for (const KeyValues& entry : section.children)
                applyEntry(result.params, entry, insert);
        }
    }
    fillFields(result, path);
    return result;
}

std::string vtfPathOf(std::string_view texture) {
    return texturePath(texture, ".vtf");
}

std::string vmtPathOf(std::string_view material) {
    return texturePath(material, ".vmt");
}

bool vmtUnlit(const Vmt& vmt) {
    return vmt.shader == "unlitgeneric" || vmt.shader == "unlittwotexture" || vmt.shader == "sky";
}

} // namespace content
