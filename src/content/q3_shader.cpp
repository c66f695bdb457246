// Quake 3 shader script parser. See q3_shader.h for the sources and the deviations from
// ioquake3 (all of them make broken scripts parse further, never less far).
#include "content/q3_shader.h"

#include "bsp/map.h"

#include <algorithm>
#include <charconv>
#include <cmath>

namespace content {

namespace {

char lowerAscii(char c) {
    return (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c;
}

bool iequals(std::string_view a, std::string_view b) {
    if (a.size() != b.size())
        return false;
    for (size_t i = 0; i < a.size(); ++i)
        if (lowerAscii(a[i]) != lowerAscii(b[i]))
            return false;
    return true;
}

bool istartsWith(std::string_view s, std::string_view prefix) {
    return s.size() >= prefix.size() && iequals(s.substr(0, prefix.size()), prefix);
}

// atof(): the longest numeric prefix, 0 when there is none. Non-finite values become 0 so
// that hostile scripts cannot put inf/nan into the renderer's uniforms.
float toFloat(std::string_view s) {
    if (!s.empty() && s[0] == '+')
        s.remove_prefix(1);
    float v = 0.0f;
    const auto res = std::from_chars(s.data(), s.data() + s.size(), v);
    if (res.ec != std::errc() || !std::isfinite(v))
        return 0.0f;
    return v;
}

// ------------------------------------------------------------------------------------------
// Tokenizer: COM_ParseExt's rules (white space <= ' ', // and /* */ comments, "quoted"
// tokens) plus '{' and '}' as tokens of their own. One token of look-ahead; `line` of each
// token is where it starts, so "on the same line as the keyword" is a line comparison.

struct Token {
    std::string_view text;
    int line = 0;
    bool eof = true;
    bool quoted = false;
    bool truncated = false;

    bool isBrace(char c) const { return !eof && !quoted && text.size() == 1 && text[0] == c; }
};

class Tokenizer {
public:
    explicit Tokenizer(std::string_view text) : m_text(text) {}

    const Token& peek() {
        if (!m_has_peek) {
            m_peek = scan();
            m_has_peek = true;
        }
        return m_peek;
    }
    Token take() {
        peek();
        m_has_peek = false;
        return m_peek;
    }
    // The next token when it is on `line` and not a brace (a parameter); otherwise an eof
    // token and nothing is consumed.
    Token param(int line) {
        const Token& t = peek();
        if (t.eof || t.line != line || t.isBrace('{') || t.isBrace('}'))
            return Token{{}, line, true, false, false};
        return take();
    }
    // Consumes every token left on `line`.
    void skipLine(int line) {
        while (!param(line).eof) {
        }
    }
    int line() const { return m_line; }

private:
    Token scan() {
        const size_t n = m_text.size();
        for (;;) {
            while (m_pos < n && static_cast<unsigned char>(m_text[m_pos]) <= ' ') {
                if (m_text[m_pos] == '\n')
                    ++m_line;
                ++m_pos;
            }
            if (m_pos + 1 < n && m_text[m_pos] == '/' && m_text[m_pos + 1] == '/') {
                while (m_pos < n && m_text[m_pos] != '\n')
                    ++m_pos;
                continue;
            }
            if (m_pos + 1 < n && m_text[m_pos] == '/' && m_text[m_pos + 1] == '*') {
                m_pos += 2;
                while (m_pos < n &&
                       !(m_text[m_pos] == '*' && m_pos + 1 < n && m_text[m_pos + 1] == '/')) {
                    if (m_text[m_pos] == '\n')
                        ++m_line;
                    ++m_pos;
                }
                m_pos = std::min(n, m_pos + 2); // an unclosed comment runs to the end
                continue;
            }
            break;
        }
        Token t;
        t.line = m_line;
        if (m_pos >= n)
            return t; // eof
        t.eof = false;
        const char c = m_text[m_pos];
        size_t begin = m_pos;
        size_t end = m_pos;
        if (c == '"') {
            // Up to the closing quote or the end of the text, as COM_ParseExt.
            begin = ++m_pos;
            while (m_pos < n && m_text[m_pos] != '"') {
                if (m_text[m_pos] == '\n')
                    ++m_line;
                ++m_pos;
            }
            end = m_pos;
            if (m_pos < n)
                ++m_pos;
            t.quoted = true;
        } else if (c == '{' || c == '}') {
            end = ++m_pos;
        } else {
            while (m_pos<n&& static_cast<unsigned char>(m_text[m_pos])> ' ' &&
                   m_text[m_pos] != '{' && m_text[m_pos] != '}')
                ++m_pos;
            end = m_pos;
        }
        t.text = m_text.substr(begin, end - begin);
        if (t.text.size() > kMaxShaderTokenChars) {
            t.text = t.text.substr(0, kMaxShaderTokenChars);
            t.truncated = true;
        }
        return t;
    }

    std::string_view m_text;
    size_t m_pos = 0;
    int m_line = 1;
    Token m_peek;
    bool m_has_peek = false;
};

// ------------------------------------------------------------------------------------------

void addWarning(std::vector<ShaderWarning>& list, size_t& dropped, int line, std::string msg) {
    if (list.size() < kMaxShaderWarnings)
        list.push_back({line, std::move(msg)});
    else
        ++dropped;
}

struct NamedParm {
    std::string_view name;
    uint32_t bit;
};
constexpr NamedParm kSurfaceParms[] = {
    {"water", kParmWater},
    {"slime", kParmSlime},
    {"lava", kParmLava},
    {"playerclip", kParmPlayerClip},
    {"monsterclip", kParmMonsterClip},
    {"nodrop", kParmNoDrop},
    {"nonsolid", kParmNonSolid},
    {"origin", kParmOrigin},
    {"trans", kParmTrans},
    {"detail", kParmDetail},
    {"structural", kParmStructural},
    {"areaportal", kParmAreaPortal},
    {"clusterportal", kParmClusterPortal},
    {"donotenter", kParmDoNotEnter},
    {"fog", kParmFog},
    {"sky", kParmSky},
    {"lightfilter", kParmLightFilter},
    {"alphashadow", kParmAlphaShadow},
    {"hint", kParmHint},
    {"slick", kParmSlick},
    {"noimpact", kParmNoImpact},
    {"nomarks", kParmNoMarks},
    {"ladder", kParmLadder},
    {"nodamage", kParmNoDamage},
    {"metalsteps", kParmMetalSteps},
    {"flesh", kParmFlesh},
    {"nosteps", kParmNoSteps},
    {"nodraw", kParmNoDraw},
    {"pointlight", kParmPointLight},
    {"nolightmap", kParmNoLightmap},
    {"nodlight", kParmNoDlight},
    {"dust", kParmDust},
};

bool blendFactorFromName(std::string_view name, bool source, BlendFactor& out) {
    struct Named {
        std::string_view name;
        BlendFactor f;
        bool src_ok;
        bool dst_ok;
    };
    // NameToSrcBlendMode / NameToDstBlendMode: which factors each side accepts.
    static constexpr Named kTable[] = {
        {"GL_ONE", BlendFactor::One, true, true},
        {"GL_ZERO", BlendFactor::Zero, true, true},
        {"GL_DST_COLOR", BlendFactor::DstColor, true, false},
        {"GL_ONE_MINUS_DST_COLOR", BlendFactor::OneMinusDstColor, true, false},
        {"GL_SRC_ALPHA", BlendFactor::SrcAlpha, true, true},
        {"GL_ONE_MINUS_SRC_ALPHA", BlendFactor::OneMinusSrcAlpha, true, true},
        {"GL_DST_ALPHA", BlendFactor::DstAlpha, true, true},
        {"GL_ONE_MINUS_DST_ALPHA", BlendFactor::OneMinusDstAlpha, true, true},
        {"GL_SRC_ALPHA_SATURATE", BlendFactor::SrcAlphaSaturate, true, false},
        {"GL_SRC_COLOR", BlendFactor::SrcColor, false, true},
        {"GL_ONE_MINUS_SRC_COLOR", BlendFactor::OneMinusSrcColor, false, true},
    };
    for (const Named& n : kTable)
        if (iequals(name, n.name) && (source ? n.src_ok : n.dst_ok)) {
            out = n.f;
            return true;
        }
    out = BlendFactor::One; // ioquake3 substitutes GL_ONE
    return false;
}

bool waveFuncFromName(std::string_view name, WaveFunc& out) {
    static constexpr std::pair<std::string_view, WaveFunc> kTable[] = {
        {"sin", WaveFunc::Sin},
        {"triangle", WaveFunc::Triangle},
        {"square", WaveFunc::Square},
        {"sawtooth", WaveFunc::Sawtooth},
        {"inversesawtooth", WaveFunc::InverseSawtooth},
        {"noise", WaveFunc::Noise},
    };
    for (const auto& [n, f] : kTable)
        if (iequals(name, n)) {
            out = f;
            return true;
        }
    out = WaveFunc::Sin;
    return false;
}

// Parses one script; state for the current definition lives here so that no function
// recurses.
class ScriptParser {
public:
    ScriptParser(std::string_view text, std::string_view file) : m_tok(text), m_file(file) {}

    ShaderScript run() {
        m_out.file = std::string(m_file);
        for (;;) {
            const Token t = m_tok.take();
            if (t.eof)
                break;
            if (t.isBrace('{')) {
                fileWarning(t.line, "'{' without a shader name; section skipped");
                m_out.ioq3_file_ok = false;
                skipSection(t.line);
                continue;
            }
            if (t.isBrace('}')) {
                fileWarning(t.line, "stray '}'");
                m_out.ioq3_file_ok = false;
                continue;
            }
            if (!m_tok.peek().isBrace('{')) {
                fileWarning(t.line,
                            "'" + std::string(t.text) + "' is not followed by '{'; ignored");
                m_out.ioq3_file_ok = false;
                continue;
            }
            m_tok.take();
            if (m_out.shaders.size() >= kMaxShadersPerScript) {
                if (!m_cap_warned)
                    fileWarning(t.line, "more than " + std::to_string(kMaxShadersPerScript) +
                                            " shaders in one script; the rest are skipped");
                m_cap_warned = true;
                skipSection(t.line);
                continue;
            }
            ShaderDef def;
            def.name = std::string(t.text);
            def.file = std::string(m_file);
            def.line = t.line;
            m_def = &def;
            if (t.truncated)
                warn(t.line, "shader name longer than " + std::to_string(kMaxShaderTokenChars) +
                                 " characters, truncated");
            parseBody();
            finishShader(def);
            m_def = nullptr;
            m_out.shaders.push_back(std::move(def));
        }
        return std::move(m_out);
    }

private:
    void fileWarning(int line, std::string msg) {
        addWarning(m_out.warnings, m_out.dropped_warnings, line, std::move(msg));
    }
    void warn(int line, std::string msg) {
        addWarning(m_def->warnings, m_def->dropped_warnings, line, std::move(msg));
    }

    // After a '{' that is not parsed: skips to its matching '}' (depth counter, no recursion).
    void skipSection(int open_line) {
        size_t depth = 1;
        while (depth > 0) {
            const Token t = m_tok.take();
            if (t.eof) {
                fileWarning(open_line, "section opened here has no closing '}'");
                m_out.ioq3_file_ok = false;
                return;
            }
            if (t.isBrace('{'))
                ++depth;
            else if (t.isBrace('}'))
                --depth;
        }
    }

    // A parameter of the keyword on `line`; warns when it is missing.
    bool need(int line, std::string_view keyword, Token& out) {
        out = m_tok.param(line);
        if (out.eof) {
            warn(line, "missing parameter for '" + std::string(keyword) + "'");
            return false;
        }
        if (out.truncated)
            warn(line, "parameter of '" + std::string(keyword) + "' truncated to " +
                           std::to_string(kMaxShaderTokenChars) + " characters");
        return true;
    }
    bool needFloat(int line, std::string_view keyword, float& out) {
        Token t;
        if (!need(line, keyword, t))
            return false;
        out = toFloat(t.text);
        return true;
    }
    // ParseWaveForm: <func> <base> <amplitude> <phase> <frequency>.
    bool parseWave(int line, std::string_view keyword, Wave& w) {
        Token t;
        if (!need(line, keyword, t))
            return false;
        if (!waveFuncFromName(t.text, w.func))
            warn(line, "unknown wave function '" + std::string(t.text) + "', using sin");
        return needFloat(line, keyword, w.base) && needFloat(line, keyword, w.amplitude) &&
               needFloat(line, keyword, w.phase) && needFloat(line, keyword, w.frequency);
    }
    // ParseVector: ( a b c ).
    bool parseVector(int line, std::string_view keyword, glm::vec3& v) {
        Token t = m_tok.param(line);
        if (t.eof || t.text != "(") {
            warn(line, "missing '(' in '" + std::string(keyword) + "'");
            return false;
        }
        for (int i = 0; i < 3; ++i)
            if (!needFloat(line, keyword, v[i]))
                return false;
        t = m_tok.param(line);
        if (t.eof || t.text != ")") {
            warn(line, "missing ')' in '" + std::string(keyword) + "'");
            return false;
        }
        return true;
    }

    void unknown(const Token& t, std::string_view where) {
        warn(t.line, "unknown " + std::string(where) + " keyword '" + std::string(t.text) + "'");
        m_def->ioq3_rejects = true;
        m_tok.skipLine(t.line);
    }

    // Shader body after its '{': general keywords and stages, up to the matching '}'.
    void parseBody() {
        ShaderDef& d = *m_def;
        for (;;) {
            const Token t = m_tok.take();
            if (t.eof) {
                warn(m_tok.line(), "end of file before the shader's closing '}'");
                m_out.ioq3_file_ok = false;
                return;
            }
            if (t.isBrace('}'))
                return;
            if (t.isBrace('{')) {
                ShaderStage stage;
                stage.line = t.line;
                const bool closed = parseStage(stage);
                if (d.stages.size() < static_cast<size_t>(kMaxShaderStages)) {
                    d.stages.push_back(std::move(stage));
                } else {
                    warn(t.line, "more than " + std::to_string(kMaxShaderStages) +
                                     " stages; stage ignored");
                    d.ioq3_rejects = true;
                }
                if (!closed) {
                    warn(m_tok.line(), "end of file inside a stage");
                    m_out.ioq3_file_ok = false;
                    return;
                }
                continue;
            }
            parseGeneral(t);
        }
    }

    void parseGeneral(const Token& t) {
        ShaderDef& d = *m_def;
        const std::string_view k = t.text;
        const int line = t.line;
        Token p;
        if (istartsWith(k, "qer") || istartsWith(k, "q3map") || iequals(k, "tesssize")) {
            m_tok.skipLine(line); // editor and compiler keywords
        } else if (iequals(k, "surfaceparm")) {
            if (need(line, k, p)) {
                const uint32_t bit = surfaceParmFromName(p.text);
                if (bit == 0)
                    warn(line, "unknown surfaceparm '" + std::string(p.text) + "'");
                d.surface_parms |= bit;
            }
        } else if (iequals(k, "cull")) {
            if (need(line, k, p)) {
                if (iequals(p.text, "none") || iequals(p.text, "twosided") ||
                    iequals(p.text, "disable"))
                    d.cull = CullMode::None;
                else if (iequals(p.text, "back") || iequals(p.text, "backside") ||
                         iequals(p.text, "backsided"))
                    d.cull = CullMode::Back;
                else if (iequals(p.text, "front") || iequals(p.text, "frontside") ||
                         iequals(p.text, "frontsided"))
                    d.cull = CullMode::Front;
                else
                    warn(line, "invalid cull parameter '" + std::string(p.text) + "'");
            }
        } else if (iequals(k, "sort")) {
            if (need(line, k, p)) {
                static constexpr std::pair<std::string_view, float> kSorts[] = {
                    {"portal", kSortPortal},         {"sky", kSortEnvironment},
                    {"opaque", kSortOpaque},         {"decal", kSortDecal},
                    {"seeThrough", kSortSeeThrough}, {"banner", kSortBanner},
                    {"additive", kSortBlend1},       {"nearest", kSortNearest},
                    {"underwater", kSortUnderwater},
                };
                float v = 0.0f;
                bool named = false;
                for (const auto& [n, s] : kSorts)
                    if (iequals(p.text, n)) {
                        v = s;
                        named = true;
                    }
                d.sort = named ? v : toFloat(p.text);
                d.sort_explicit = d.sort != 0.0f; // ioquake3: 0 means "not set"
            }
        } else if (iequals(k, "skyparms")) {
            d.sky.present = true;
            if (need(line, k, p))
                d.sky.far_box = p.text == "-" ? std::string() : std::string(p.text);
            else
                return;
            float h = 0.0f;
            if (!needFloat(line, k, h))
                return;
            d.sky.cloud_height = h == 0.0f ? 512.0f : h;
            if (need(line, k, p))
                d.sky.near_box = p.text == "-" ? std::string() : std::string(p.text);
        } else if (iequals(k, "fogparms")) {
            if (!parseVector(line, k, d.fog.colour))
                return;
            d.fog.present = true;
            needFloat(line, k, d.fog.distance);
            m_tok.skipLine(line); // old gradient direction parameters
        } else if (iequals(k, "polygonoffset")) {
            d.polygon_offset = true;
        } else if (iequals(k, "nomipmaps")) {
            d.no_mipmaps = true;
            d.no_picmip = true;
        } else if (iequals(k, "nopicmip")) {
            d.no_picmip = true;
        } else if (iequals(k, "portal")) {
            d.portal = true;
        } else if (iequals(k, "entitymergable")) {
            // batching hint for sprites; nothing to keep
        } else if (iequals(k, "light") || iequals(k, "clamptime")) {
            m_tok.param(line); // one value the viewer does not use
        } else if (iequals(k, "deformvertexes")) {
            parseDeform(line);
        } else {
            unknown(t, "shader");
        }
    }

    void parseDeform(int line) {
        ShaderDef& d = *m_def;
        Token p;
        if (!need(line, "deformVertexes", p))
            return;
        if (d.deforms.size() >= static_cast<size_t>(kMaxDeforms)) {
            warn(line, "more than " + std::to_string(kMaxDeforms) + " deformVertexes; ignored");
            m_tok.skipLine(line);
            return;
        }
        Deform df;
        const std::string_view k = p.text;
        bool ok = true;
        if (iequals(k, "wave")) {
            df.kind = DeformKind::Wave;
            ok = needFloat(line, "deformVertexes wave", df.spread);
            if (ok && df.spread == 0.0f)
                warn(line, "deformVertexes wave with a div of 0 (ioquake3 uses 100)");
            ok = ok && parseWave(line, "deformVertexes wave", df.wave);
        } else if (iequals(k, "normal")) {
            df.kind = DeformKind::Normal;
            ok = needFloat(line, "deformVertexes normal", df.wave.amplitude) &&
                 needFloat(line, "deformVertexes normal", df.wave.frequency);
        } else if (iequals(k, "bulge")) {
            df.kind = DeformKind::Bulge;
            ok = needFloat(line, "deformVertexes bulge", df.bulge_width) &&
                 needFloat(line, "deformVertexes bulge", df.bulge_height) &&
                 needFloat(line, "deformVertexes bulge", df.bulge_speed);
        } else if (iequals(k, "move")) {
            df.kind = DeformKind::Move;
            for (int i = 0; i < 3 && ok; ++i)
                ok = needFloat(line, "deformVertexes move", df.move[i]);
            ok = ok && parseWave(line, "deformVertexes move", df.wave);
        } else if (iequals(k, "autosprite")) {
            df.kind = DeformKind::Autosprite;
        } else if (iequals(k, "autosprite2")) {
            df.kind = DeformKind::Autosprite2;
        } else if (iequals(k, "projectionshadow")) {
            df.kind = DeformKind::ProjectionShadow;
        } else if (istartsWith(k, "text")) {
            df.kind = DeformKind::Text;
            const int n = k.size() > 4 ? k[4] - '0' : 0;
            df.text_index = (n < 0 || n > 7) ? 0 : n;
        } else {
            warn(line, "unknown deformVertexes '" + std::string(k) + "'");
            m_tok.skipLine(line);
            return;
        }
        // ioquake3 keeps a deform whose parameters ran out with what it had read.
        (void)ok;
        d.deforms.push_back(df);
    }

    // Stage body after its '{'. Returns false at end of text before the closing '}'.
    bool parseStage(ShaderStage& s) {
        bool blend_given = false;
        bool alpha_gen_given = false;
        bool tc_gen_given = false;
        for (;;) {
            const Token t = m_tok.take();
            if (t.eof) {
                finishStage(s, blend_given, tc_gen_given);
                return false;
            }
            if (t.isBrace('}'))
                break;
            if (t.isBrace('{')) {
                warn(t.line, "'{' inside a stage; section skipped");
                m_def->ioq3_rejects = true;
                skipSection(t.line);
                continue;
            }
            parseStageKeyword(t, s, blend_given, alpha_gen_given, tc_gen_given);
        }
        finishStage(s, blend_given, tc_gen_given);
        return true;
    }

    void setImage(ShaderStage& s, MapKind kind, const Token& p) {
        s.map = kind;
        s.images.assign(1, std::string(p.text));
    }

    void parseStageKeyword(const Token& t, ShaderStage& s, bool& blend_given, bool& alpha_gen_given,
                           bool& tc_gen_given) {
        const std::string_view k = t.text;
        const int line = t.line;
        Token p;
        if (iequals(k, "map")) {
            if (!need(line, k, p)) {
                m_def->ioq3_rejects = true;
                return;
            }
            if (iequals(p.text, "$lightmap")) {
                s.map = MapKind::Lightmap;
                s.images.clear();
            } else if (iequals(p.text, "$whiteimage")) {
                s.map = MapKind::White;
                s.images.clear();
            } else {
                setImage(s, MapKind::Texture, p);
            }
        } else if (iequals(k, "clampmap")) {
            if (need(line, k, p))
                setImage(s, MapKind::Clamp, p);
            else
                m_def->ioq3_rejects = true;
        } else if (iequals(k, "videomap")) {
            if (need(line, k, p))
                setImage(s, MapKind::Video, p);
            else
                m_def->ioq3_rejects = true;
        } else if (iequals(k, "animmap")) {
            if (!needFloat(line, k, s.anim_frequency)) {
                m_def->ioq3_rejects = true;
                return;
            }
            s.map = MapKind::Animated;
            s.images.clear();
            size_t total = 0;
            for (Token f = m_tok.param(line); !f.eof; f = m_tok.param(line), ++total)
                if (s.images.size() < static_cast<size_t>(kMaxAnimFrames))
                    s.images.emplace_back(f.text);
            if (total > static_cast<size_t>(kMaxAnimFrames))
                warn(line, "animMap has " + std::to_string(total) + " images; only the first " +
                               std::to_string(kMaxAnimFrames) + " are used");
            if (total == 0)
                warn(line, "animMap without images");
        } else if (iequals(k, "alphafunc")) {
            if (!need(line, k, p))
                return;
            if (iequals(p.text, "GT0"))
                s.alpha_func = AlphaFunc::Gt0;
            else if (iequals(p.text, "LT128"))
                s.alpha_func = AlphaFunc::Lt128;
            else if (iequals(p.text, "GE128"))
                s.alpha_func = AlphaFunc::Ge128;
            else
                warn(line, "invalid alphaFunc '" + std::string(p.text) + "'");
        } else if (iequals(k, "depthfunc")) {
            if (!need(line, k, p))
                return;
            if (iequals(p.text, "lequal"))
                s.depth_func = DepthFunc::LessEqual;
            else if (iequals(p.text, "equal"))
                s.depth_func = DepthFunc::Equal;
            else
                warn(line, "unknown depthFunc '" + std::string(p.text) + "'");
        } else if (iequals(k, "depthwrite")) {
            s.depth_write = true;
            s.depth_write_explicit = true;
        } else if (iequals(k, "detail")) {
            s.detail = true;
        } else if (iequals(k, "blendfunc")) {
            if (!need(line, k, p))
                return;
            if (iequals(p.text, "add")) {
                s.src = BlendFactor::One;
                s.dst = BlendFactor::One;
            } else if (iequals(p.text, "filter")) {
                s.src = BlendFactor::DstColor;
                s.dst = BlendFactor::Zero;
            } else if (iequals(p.text, "blend")) {
                s.src = BlendFactor::SrcAlpha;
                s.dst = BlendFactor::OneMinusSrcAlpha;
            } else {
                if (!blendFactorFromName(p.text, true, s.src))
                    warn(line, "unknown source blend '" + std::string(p.text) + "', using GL_ONE");
                Token q;
                if (!need(line, k, q))
                    return; // ioquake3 leaves the blend unset
                if (!blendFactorFromName(q.text, false, s.dst))
                    warn(line,
                         "unknown destination blend '" + std::string(q.text) + "', using GL_ONE");
            }
            blend_given = true;
        } else if (iequals(k, "rgbgen")) {
            if (!need(line, k, p))
                return;
            const std::string_view g = p.text;
            s.rgb_gen_explicit = true;
            if (iequals(g, "wave")) {
                s.rgb_gen = RgbGen::Wave;
                parseWave(line, "rgbGen wave", s.rgb_wave);
            } else if (iequals(g, "const")) {
                s.rgb_gen = RgbGen::Const;
                s.rgb_const = glm::vec3(0.0f);
                parseVector(line, "rgbGen const", s.rgb_const);
            } else if (iequals(g, "identity") || iequals(g, "entity") ||
                       iequals(g, "oneMinusEntity")) {
                s.rgb_gen = RgbGen::Identity; // no entity colours in a world viewer
            } else if (iequals(g, "identityLighting")) {
                s.rgb_gen = RgbGen::IdentityLighting;
            } else if (iequals(g, "vertex") || iequals(g, "lightingDiffuse")) {
                s.rgb_gen = RgbGen::Vertex;
                if (iequals(g, "vertex") && !alpha_gen_given) {
                    s.alpha_gen = AlphaGen::Vertex; // ioquake3: rgbGen vertex implies alpha
                    alpha_gen_given = true;
                }
            } else if (iequals(g, "exactVertex")) {
                s.rgb_gen = RgbGen::ExactVertex;
            } else if (iequals(g, "oneMinusVertex")) {
                s.rgb_gen = RgbGen::OneMinusVertex;
            } else {
                s.rgb_gen_explicit = false;
                warn(line, "unknown rgbGen '" + std::string(g) + "'");
            }
        } else if (iequals(k, "alphagen")) {
            if (!need(line, k, p))
                return;
            const std::string_view g = p.text;
            alpha_gen_given = true;
            if (iequals(g, "wave")) {
                s.alpha_gen = AlphaGen::Wave;
                parseWave(line, "alphaGen wave", s.alpha_wave);
            } else if (iequals(g, "const")) {
                s.alpha_gen = AlphaGen::Const;
                s.alpha_const = 0.0f;
                needFloat(line, "alphaGen const", s.alpha_const);
            } else if (iequals(g, "identity") || iequals(g, "entity") ||
                       iequals(g, "oneMinusEntity")) {
                s.alpha_gen = AlphaGen::Identity;
            } else if (iequals(g, "vertex")) {
                s.alpha_gen = AlphaGen::Vertex;
            } else if (iequals(g, "oneMinusVertex")) {
                s.alpha_gen = AlphaGen::OneMinusVertex;
            } else if (iequals(g, "lightingSpecular")) {
                s.alpha_gen = AlphaGen::LightingSpecular;
            } else if (iequals(g, "portal")) {
                // Without portal views the surface shows its texture fully (alpha 1).
                s.alpha_gen = AlphaGen::Const;
                s.alpha_const = 1.0f;
                s.portal_range = 256.0f;
                const Token r = m_tok.param(line);
                if (r.eof)
                    warn(line, "alphaGen portal without a range, using 256");
                else
                    s.portal_range = toFloat(r.text);
            } else {
                warn(line, "unknown alphaGen '" + std::string(g) + "'");
            }
        } else if (iequals(k, "tcgen") || iequals(k, "texgen")) {
            if (!need(line, k, p))
                return;
            const std::string_view g = p.text;
            tc_gen_given = true;
            if (iequals(g, "environment")) {
                s.tc_gen = TcGen::Environment;
            } else if (iequals(g, "lightmap")) {
                s.tc_gen = TcGen::Lightmap;
            } else if (iequals(g, "texture") || iequals(g, "base")) {
                s.tc_gen = TcGen::Base;
            } else if (iequals(g, "vector")) {
                s.tc_gen = TcGen::Vector;
                if (parseVector(line, "tcGen vector", s.tc_vectors[0]))
                    parseVector(line, "tcGen vector", s.tc_vectors[1]);
            } else {
                tc_gen_given = false;
                warn(line, "unknown tcGen '" + std::string(g) + "'");
            }
        } else if (iequals(k, "tcmod")) {
            parseTcMod(line, s);
        } else {
            unknown(t, "stage");
        }
    }

    void parseTcMod(int line, ShaderStage& s) {
        Token p;
        if (!need(line, "tcMod", p))
            return;
        if (s.tc_mods.size() >= static_cast<size_t>(kMaxTcMods)) {
            // ioquake3 stops the whole level load (ERR_DROP) here.
            warn(line, "more than " + std::to_string(kMaxTcMods) + " tcMods; ignored");
            m_def->ioq3_rejects = true;
            m_tok.skipLine(line);
            return;
        }
        TcMod m;
        const std::string_view k = p.text;
        bool ok = true;
        if (iequals(k, "scroll") || iequals(k, "scale")) {
            m.kind = iequals(k, "scroll") ? TcModKind::Scroll : TcModKind::Scale;
            ok = needFloat(line, "tcMod", m.s) && needFloat(line, "tcMod", m.t);
        } else if (iequals(k, "rotate")) {
            m.kind = TcModKind::Rotate;
            ok = needFloat(line, "tcMod rotate", m.s);
        } else if (iequals(k, "turb")) {
            m.kind = TcModKind::Turb;
            ok = needFloat(line, "tcMod turb", m.wave.base) &&
                 needFloat(line, "tcMod turb", m.wave.amplitude) &&
                 needFloat(line, "tcMod turb", m.wave.phase) &&
                 needFloat(line, "tcMod turb", m.wave.frequency);
        } else if (iequals(k, "stretch")) {
            m.kind = TcModKind::Stretch;
            ok = parseWave(line, "tcMod stretch", m.wave);
        } else if (iequals(k, "transform")) {
            m.kind = TcModKind::Transform;
            for (int i = 0; i < 4 && ok; ++i)
                ok = needFloat(line, "tcMod transform", m.matrix[static_cast<size_t>(i)]);
            for (int i = 0; i < 2 && ok; ++i)
                ok = needFloat(line, "tcMod transform", m.translate[static_cast<size_t>(i)]);
        } else if (iequals(k, "entityTranslate")) {
            m.kind = TcModKind::EntityTranslate;
        } else {
            warn(line, "unknown tcMod '" + std::string(k) + "'");
            m_tok.skipLine(line);
            return;
        }
        m_tok.skipLine(line); // ioquake3 reads the whole line into the tcMod
        if (ok)
            s.tc_mods.push_back(m); // an incomplete tcMod does nothing in ioquake3
    }

    // ParseStage's tail: default rgbGen, GL_ONE GL_ZERO as "no blend", depth mask.
    static void finishStage(ShaderStage& s, bool blend_given, bool tc_gen_given) {
        if (!s.rgb_gen_explicit) {
            const bool lit =
                !blend_given || s.src == BlendFactor::One || s.src == BlendFactor::SrcAlpha;
            s.rgb_gen = lit ? RgbGen::IdentityLighting : RgbGen::Identity;
        }
        s.blend = blend_given && !(s.src == BlendFactor::One && s.dst == BlendFactor::Zero);
        if (!s.blend) {
            s.src = BlendFactor::One;
            s.dst = BlendFactor::Zero;
        }
        s.depth_write = s.depth_write_explicit || !blend_given || !s.blend;
        if (!tc_gen_given)
            s.tc_gen = s.map == MapKind::Lightmap ? TcGen::Lightmap : TcGen::Base;
    }

    // FinishShader's sort rules (sky, polygonOffset, blended stages, fog-only).
    static void finishShader(ShaderDef& d) {
        float sort = d.sort_explicit ? d.sort : 0.0f;
        if (d.portal && !d.sort_explicit)
            sort = kSortPortal;
        if (d.sky.present) // ioquake3's isSky comes from skyParms only
            sort = kSortEnvironment;
        if (d.polygon_offset && sort == 0.0f)
            sort = kSortDecal;
        size_t active = 0;
        for (const ShaderStage& s : d.stages) {
            if (s.map == MapKind::None)
                continue; // ioquake3 drops stages without an image
            ++active;
            if (s.blend && d.stages[0].blend && sort == 0.0f)
                sort = s.depth_write ? kSortSeeThrough : kSortBlend0;
        }
        if (sort == 0.0f)
            sort = kSortOpaque;
        if (active == 0 && !d.sky.present)
            sort = kSortFog;
        d.sort = sort;
        if (d.stages.empty() && !d.sky.present && !(d.surface_parms & kParmFog))
            d.ioq3_rejects = true; // "ignore shaders that don't have any stages"
    }

    Tokenizer m_tok;
    std::string_view m_file;
    ShaderScript m_out;
    ShaderDef* m_def = nullptr;
    bool m_cap_warned = false;
};

} // namespace

uint32_t surfaceParmFromName(std::string_view name) {
    for (const NamedParm& p : kSurfaceParms)
        if (iequals(name, p.name))
            return p.bit;
    return 0;
}

ShaderScript parseShaderScript(std::string_view text, std::string_view file) {
    return ScriptParser(text, file).run();
}

ShaderDef implicitShader(std::string_view name, bool has_lightmap) {
    ShaderDef d;
    d.name = std::string(name);
    d.implicit = true;
    d.sort = kSortOpaque;
    ShaderStage tex;
    tex.map = MapKind::Texture;
    tex.images.emplace_back(name);
    tex.rgb_gen = RgbGen::Identity;
    if (has_lightmap) {
        // R_FindShader's "two pass lightmap": lightmap, then texture x framebuffer.
        ShaderStage lm;
        lm.map = MapKind::Lightmap;
        lm.rgb_gen = RgbGen::Identity;
        lm.tc_gen = TcGen::Lightmap;
        d.stages.push_back(lm);
        tex.blend = true;
        tex.src = BlendFactor::DstColor;
        tex.dst = BlendFactor::Zero;
        tex.depth_write = false;
    } else {
        tex.rgb_gen = RgbGen::ExactVertex; // LIGHTMAP_BY_VERTEX
    }
    d.stages.push_back(std::move(tex));
    return d;
}

std::string primaryImage(const ShaderDef& def) {
    for (const ShaderStage& s : def.stages) {
        switch (s.map) {
        case MapKind::Texture:
        case MapKind::Clamp:
        case MapKind::Animated:
            if (!s.images.empty() && !s.images[0].empty())
                return s.images[0];
            break;
        default:
            break;
        }
    }
    return {};
}

uint32_t surfaceFlagsOf(const ShaderDef& def) {
    uint32_t f = 0;
    if (def.isSky())
        f |= bsp::kSurfSky;
    if (def.surface_parms & kParmNoDraw)
        f |= bsp::kSurfNoDraw;
    if (def.surface_parms & kParmFog)
        f |= bsp::kSurfFog;
    if (def.cull == CullMode::None)
        f |= bsp::kSurfNoCull;
    if (def.surface_parms & kParmNoLightmap)
        f |= bsp::kSurfFullbright;
    if (!def.stages.empty()) {
        const ShaderStage& first = def.stages[0];
        if (first.alpha_func != AlphaFunc::None && first.depth_write) {
            f |= bsp::kSurfAlphaTest; // cut-out grate: drawn with the opaque world
        } else if (first.blend) {
            f |= bsp::kSurfTranslucent;
            if (first.src == BlendFactor::One && first.dst == BlendFactor::One)
                f |= bsp::kSurfAdditive;
        }
        if (!(f & (bsp::kSurfAlphaTest | bsp::kSurfTranslucent)))
            for (const ShaderStage& s : def.stages)
                if (s.alpha_func != AlphaFunc::None && s.depth_write) {
                    f |= bsp::kSurfAlphaTest;
                    break;
                }
    }
    return f;
}

namespace {

std::string num(float v) {
    char buf[32];
    const auto res = std::to_chars(buf, buf + sizeof(buf), v);
    return std::string(buf, res.ptr);
}

std::string waveText(const Wave& w) {
    return std::string(waveFuncName(w.func)) + " " + num(w.base) + " " + num(w.amplitude) + " " +
           num(w.phase) + " " + num(w.frequency);
}

std::string vecText(const glm::vec3& v) {
    return "( " + num(v.x) + " " + num(v.y) + " " + num(v.z) + " )";
}

std::string stageText(const ShaderStage& s) {
    std::string out;
    switch (s.map) {
    case MapKind::None:
        out = "(no map)";
        break;
    case MapKind::Texture:
        out = "map " + s.images[0];
        break;
    case MapKind::Clamp:
        out = "clampMap " + s.images[0];
        break;
    case MapKind::Video:
        out = "videoMap " + s.images[0];
        break;
    case MapKind::Lightmap:
        out = "map $lightmap";
        break;
    case MapKind::White:
        out = "map $whiteimage";
        break;
    case MapKind::Animated:
        out = "animMap " + num(s.anim_frequency);
        for (const std::string& i : s.images)
            out += " " + i;
        break;
    }
    if (s.blend)
        out += " | blendFunc " + std::string(blendFactorName(s.src)) + " " +
               std::string(blendFactorName(s.dst));
    static constexpr std::string_view kAlpha[] = {"", "GT0", "LT128", "GE128"};
    if (s.alpha_func != AlphaFunc::None)
        out += " | alphaFunc " + std::string(kAlpha[static_cast<int>(s.alpha_func)]);
    if (s.depth_write_explicit)
        out += " | depthWrite";
    if (s.depth_func == DepthFunc::Equal)
        out += " | depthFunc equal";
    out += " | rgbGen " + std::string(rgbGenName(s.rgb_gen));
    if (s.rgb_gen == RgbGen::Wave)
        out += " " + waveText(s.rgb_wave);
    else if (s.rgb_gen == RgbGen::Const)
        out += " " + vecText(s.rgb_const);
    if (s.alpha_gen != AlphaGen::Identity) {
        out += " | alphaGen " + std::string(alphaGenName(s.alpha_gen));
        if (s.alpha_gen == AlphaGen::Wave)
            out += " " + waveText(s.alpha_wave);
        else if (s.alpha_gen == AlphaGen::Const)
            out += " " + num(s.alpha_const);
    }
    if (s.tc_gen != TcGen::Base || s.map == MapKind::Lightmap) {
        out += " | tcGen " + std::string(tcGenName(s.tc_gen));
        if (s.tc_gen == TcGen::Vector)
            out += " " + vecText(s.tc_vectors[0]) + " " + vecText(s.tc_vectors[1]);
    }
    for (const TcMod& m : s.tc_mods) {
        out += " | tcMod " + std::string(tcModName(m.kind));
        switch (m.kind) {
        case TcModKind::Scroll:
        case TcModKind::Scale:
            out += " " + num(m.s) + " " + num(m.t);
            break;
        case TcModKind::Rotate:
            out += " " + num(m.s);
            break;
        case TcModKind::Turb:
            out += " " + num(m.wave.base) + " " + num(m.wave.amplitude) + " " + num(m.wave.phase) +
                   " " + num(m.wave.frequency);
            break;
        case TcModKind::Stretch:
            out += " " + waveText(m.wave);
            break;
        case TcModKind::Transform:
            for (float v : m.matrix)
                out += " " + num(v);
            for (float v : m.translate)
                out += " " + num(v);
            break;
        case TcModKind::EntityTranslate:
            break;
        }
    }
    if (s.detail)
        out += " | detail";
    return out;
}

} // namespace

std::vector<std::string> describeShader(const ShaderDef& def) {
    std::vector<std::string> out;
    out.push_back(def.implicit ? def.name + " (implicit)"
                               : def.file + ":" + std::to_string(def.line) + " " + def.name);
    std::string general = "sort " + num(def.sort);
    if (def.cull != CullMode::Front)
        general += def.cull == CullMode::None ? " | cull none" : " | cull back";
    for (const NamedParm& p : kSurfaceParms)
        if (def.surface_parms & p.bit)
            general += " | surfaceparm " + std::string(p.name);
    if (def.sky.present)
        general += " | skyParms " + (def.sky.far_box.empty() ? "-" : def.sky.far_box) + " " +
                   num(def.sky.cloud_height) + " " +
                   (def.sky.near_box.empty() ? "-" : def.sky.near_box);
    if (def.fog.present)
        general += " | fogParms " + vecText(def.fog.colour) + " " + num(def.fog.distance);
    if (def.polygon_offset)
        general += " | polygonOffset";
    if (def.no_mipmaps)
        general += " | nomipmaps";
    else if (def.no_picmip)
        general += " | nopicmip";
    for (const Deform& d : def.deforms)
        general += " | deformVertexes " + std::string(deformName(d.kind));
    out.push_back(general);
    for (size_t i = 0; i < def.stages.size(); ++i)
        out.push_back("stage " + std::to_string(i) + ": " + stageText(def.stages[i]));
    for (const ShaderWarning& w : def.warnings)
        out.push_back("warning line " + std::to_string(w.line) + ": " + w.message);
    if (def.dropped_warnings > 0)
        out.push_back(std::to_string(def.dropped_warnings) + " more warnings");
    return out;
}

std::string_view blendFactorName(BlendFactor f) {
    switch (f) {
    case BlendFactor::Zero:
        return "GL_ZERO";
    case BlendFactor::One:
        return "GL_ONE";
    case BlendFactor::SrcColor:
        return "GL_SRC_COLOR";
    case BlendFactor::OneMinusSrcColor:
        return "GL_ONE_MINUS_SRC_COLOR";
    case BlendFactor::DstColor:
        return "GL_DST_COLOR";
    case BlendFactor::OneMinusDstColor:
        return "GL_ONE_MINUS_DST_COLOR";
    case BlendFactor::SrcAlpha:
        return "GL_SRC_ALPHA";
    case BlendFactor::OneMinusSrcAlpha:
        return "GL_ONE_MINUS_SRC_ALPHA";
    case BlendFactor::DstAlpha:
        return "GL_DST_ALPHA";
    case BlendFactor::OneMinusDstAlpha:
        return "GL_ONE_MINUS_DST_ALPHA";
    case BlendFactor::SrcAlphaSaturate:
        return "GL_SRC_ALPHA_SATURATE";
    }
    return "?";
}

std::string_view waveFuncName(WaveFunc f) {
    switch (f) {
    case WaveFunc::Sin:
        return "sin";
    case WaveFunc::Triangle:
        return "triangle";
    case WaveFunc::Square:
        return "square";
    case WaveFunc::Sawtooth:
        return "sawtooth";
    case WaveFunc::InverseSawtooth:
        return "inversesawtooth";
    case WaveFunc::Noise:
        return "noise";
    }
    return "?";
}

std::string_view rgbGenName(RgbGen g) {
    switch (g) {
    case RgbGen::Identity:
        return "identity";
    case RgbGen::IdentityLighting:
        return "identityLighting";
    case RgbGen::Vertex:
        return "vertex";
    case RgbGen::ExactVertex:
        return "exactVertex";
    case RgbGen::OneMinusVertex:
        return "oneMinusVertex";
    case RgbGen::Wave:
        return "wave";
    case RgbGen::Const:
        return "const";
    }
    return "?";
}

std::string_view alphaGenName(AlphaGen g) {
    switch (g) {
    case AlphaGen::Identity:
        return "identity";
    case AlphaGen::Const:
        return "const";
    case AlphaGen::Vertex:
        return "vertex";
    case AlphaGen::OneMinusVertex:
        return "oneMinusVertex";
    case AlphaGen::Wave:
        return "wave";
    case AlphaGen::LightingSpecular:
        return "lightingSpecular";
    }
    return "?";
}

std::string_view tcGenName(TcGen g) {
    switch (g) {
    case TcGen::Base:
        return "base";
    case TcGen::Lightmap:
        return "lightmap";
    case TcGen::Environment:
        return "environment";
    case TcGen::Vector:
        return "vector";
    }
    return "?";
}

std::string_view tcModName(TcModKind k) {
    switch (k) {
    case TcModKind::Scroll:
        return "scroll";
    case TcModKind::Scale:
        return "scale";
    case TcModKind::Rotate:
        return "rotate";
    case TcModKind::Turb:
        return "turb";
    case TcModKind::Stretch:
        return "stretch";
    case TcModKind::Transform:
        return "transform";
    case TcModKind::EntityTranslate:
        return "entityTranslate";
    }
    return "?";
}

std::string_view deformName(DeformKind k) {
    switch (k) {
    case DeformKind::Wave:
        return "wave";
    case DeformKind::Normal:
        return "normal";
    case DeformKind::Bulge:
        return "bulge";
    case DeformKind::Move:
        return "move";
    case DeformKind::Autosprite:
        return "autosprite";
    case DeformKind::Autosprite2:
        return "autosprite2";
    case DeformKind::ProjectionShadow:
        return "projectionShadow";
    case DeformKind::Text:
        return "text";
    }
    return "?";
}

} // namespace content
