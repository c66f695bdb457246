// Quake 3 shader scripts, parsing: the tokenizer and the text -> ShaderDef / ShaderStage
// grammar. What the parsed values mean (stage defaults, sort) is q3_shader_semantics.cpp; the
// display text is q3_shader_text.cpp; the names of enum values are q3_shader_names.h. See
// q3_shader.h for the sources and the deviations from ioquake3 (all of them make broken
// scripts parse further, never less far).
#include "content/material/q3_shader.h"
#include "content/material/q3_shader_names.h"
#include "core/text_scanner.h"

#include <algorithm>
#include <charconv>
#include <cmath>

namespace content {

namespace {

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
// tokens running to the end of the text when left open) plus '{' and '}' as tokens of their
// own. One token of look-ahead; `line` of each token is where it starts, so "on the same line
// as the keyword" is a line comparison.
constexpr core::TextSyntax kShaderSyntax =
    core::TextSyntax().withLineComments().withBlockComments().withQuote('"').withPunctuation("{}");

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
    explicit Tokenizer(std::string_view text) : m_scan(text, kShaderSyntax) {}

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
    int line() { return m_scan.line(); }

private:
    Token scan() {
        const core::TextToken s = m_scan.next();
        Token t;
        t.line = s.line;
        if (s.end())
            return t; // eof
        t.eof = false;
        t.quoted = s.kind == core::TextToken::Kind::Quoted;
        t.text = s.text;
        if (t.text.size() > kMaxShaderTokenChars) {
            t.text = t.text.substr(0, kMaxShaderTokenChars);
            t.truncated = true;
        }
        return t;
    }

    core::TextScanner m_scan;
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

bool blendFactorFromName(std::string_view name, bool source, BlendFactor& out) {
    const BlendFactorName* n = findShaderName(kBlendFactorNames, name);
    if (n && (source ? n->src_ok : n->dst_ok)) {
        out = n->value;
        return true;
    }
    out = BlendFactor::One; // ioquake3 substitutes GL_ONE
    return false;
}

bool waveFuncFromName(std::string_view name, WaveFunc& out) {
    const ShaderName<WaveFunc>* n = findShaderName(kWaveFuncNames, name);
    out = n ? n->value : WaveFunc::Sin;
    return n != nullptr;
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
                if (const ShaderName<CullMode>* c = findShaderName(kCullModeNames, p.text))
                    d.cull = c->value;
                else
                    warn(line, "invalid cull parameter '" + std::string(p.text) + "'");
            }
        } else if (iequals(k, "sort")) {
            if (need(line, k, p))
                parseSort(p.text);
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

    // sort <name or number>.
    void parseSort(std::string_view value) {
        static constexpr std::pair<std::string_view, float> kSorts[] = {
            {"portal", kSortPortal},         {"sky", kSortEnvironment},
            {"opaque", kSortOpaque},         {"decal", kSortDecal},
            {"seeThrough", kSortSeeThrough}, {"banner", kSortBanner},
            {"additive", kSortBlend1},       {"nearest", kSortNearest},
            {"underwater", kSortUnderwater},
        };
        ShaderDef& d = *m_def;
        d.sort = toFloat(value);
        for (const auto& [n, v] : kSorts)
            if (iequals(value, n))
                d.sort = v;
        d.sort_explicit = d.sort != 0.0f; // ioquake3: 0 means "not set"
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
        const std::string_view text = shaderNameOf(kDeformNames, DeformKind::Text);
        if (const ShaderName<DeformKind>* n = findShaderName(kDeformNames, k)) {
            df.kind = n->value;
        } else if (istartsWith(k, text)) {
            df.kind = DeformKind::Text;
            const int i = k.size() > text.size() ? k[text.size()] - '0' : 0;
            df.text_index = (i < 0 || i > 7) ? 0 : i;
        } else {
            warn(line, "unknown deformVertexes '" + std::string(k) + "'");
            m_tok.skipLine(line);
            return;
        }
        // ioquake3 keeps a deform whose parameters ran out with what it had read.
        parseDeformParams(line, df);
        d.deforms.push_back(df);
    }

    // The parameters after deformVertexes <kind>; false when they ran out.
    bool parseDeformParams(int line, Deform& df) {
        switch (df.kind) {
        case DeformKind::Wave: {
            bool ok = needFloat(line, "deformVertexes wave", df.spread);
            if (ok && df.spread == 0.0f)
                warn(line, "deformVertexes wave with a div of 0 (ioquake3 uses 100)");
            return ok && parseWave(line, "deformVertexes wave", df.wave);
        }
        case DeformKind::Normal:
            return needFloat(line, "deformVertexes normal", df.wave.amplitude) &&
                   needFloat(line, "deformVertexes normal", df.wave.frequency);
        case DeformKind::Bulge:
            return needFloat(line, "deformVertexes bulge", df.bulge_width) &&
                   needFloat(line, "deformVertexes bulge", df.bulge_height) &&
                   needFloat(line, "deformVertexes bulge", df.bulge_speed);
        case DeformKind::Move:
            for (int i = 0; i < 3; ++i)
                if (!needFloat(line, "deformVertexes move", df.move[i]))
                    return false;
            return parseWave(line, "deformVertexes move", df.wave);
        case DeformKind::Autosprite:
        case DeformKind::Autosprite2:
        case DeformKind::ProjectionShadow:
        case DeformKind::Text:
            break;
        }
        return true;
    }

    // One stage being read: the stage and which keywords it has given so far (their defaults
    // depend on it, see finishStage).
    struct StageParse {
        ShaderStage& s;
        bool blend_given = false;
        bool alpha_gen_given = false;
        bool tc_gen_given = false;
    };

    // Stage body after its '{'. Returns false at end of text before the closing '}'.
    bool parseStage(ShaderStage& s) {
        StageParse sp{s};
        bool closed = false;
        for (;;) {
            const Token t = m_tok.take();
            if (t.eof)
                break;
            if (t.isBrace('}')) {
                closed = true;
                break;
            }
            if (t.isBrace('{')) {
                warn(t.line, "'{' inside a stage; section skipped");
                m_def->ioq3_rejects = true;
                skipSection(t.line);
                continue;
            }
            parseStageKeyword(t, sp);
        }
        finishStage(s, sp.blend_given, sp.tc_gen_given);
        return closed;
    }

    void parseStageKeyword(const Token& t, StageParse& sp) {
        ShaderStage& s = sp.s;
        const std::string_view k = t.text;
        const int line = t.line;
        Token p;
        if (const ShaderName<MapKind>* m = findShaderName(kStageMapNames, k)) {
            parseStageMap(line, k, m->value, s);
        } else if (iequals(k, "alphafunc")) {
            if (!need(line, k, p))
                return;
            if (const ShaderName<AlphaFunc>* f = findShaderName(kAlphaFuncNames, p.text))
                s.alpha_func = f->value;
            else
                warn(line, "invalid alphaFunc '" + std::string(p.text) + "'");
        } else if (iequals(k, "depthfunc")) {
            if (!need(line, k, p))
                return;
            if (const ShaderName<DepthFunc>* f = findShaderName(kDepthFuncNames, p.text))
                s.depth_func = f->value;
            else
                warn(line, "unknown depthFunc '" + std::string(p.text) + "'");
        } else if (iequals(k, "depthwrite")) {
            s.depth_write = true;
            s.depth_write_explicit = true;
        } else if (iequals(k, "detail")) {
            s.detail = true;
        } else if (iequals(k, "blendfunc")) {
            parseBlendFunc(line, k, sp);
        } else if (iequals(k, "rgbgen")) {
            parseRgbGen(line, k, sp);
        } else if (iequals(k, "alphagen")) {
            parseAlphaGen(line, k, sp);
        } else if (iequals(k, "tcgen") || iequals(k, "texgen")) {
            parseTcGen(line, k, sp);
        } else if (iequals(k, "tcmod")) {
            parseTcMod(line, s);
        } else {
            unknown(t, "stage");
        }
    }

    void setImage(ShaderStage& s, MapKind kind, const Token& p) {
        s.map = kind;
        s.images.assign(1, std::string(p.text));
    }

    // map / clampMap / videoMap / animMap (`kind` says which).
    void parseStageMap(int line, std::string_view k, MapKind kind, ShaderStage& s) {
        Token p;
        if (kind == MapKind::Animated) {
            parseAnimMap(line, k, s);
            return;
        }
        if (!need(line, k, p)) {
            m_def->ioq3_rejects = true;
            return;
        }
        const ShaderName<MapKind>* builtin =
            kind == MapKind::Texture ? findShaderName(kBuiltinImageNames, p.text) : nullptr;
        if (builtin) {
            s.map = builtin->value;
            s.images.clear();
        } else {
            setImage(s, kind, p);
        }
    }

    void parseAnimMap(int line, std::string_view k, ShaderStage& s) {
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
    }

    void parseBlendFunc(int line, std::string_view k, StageParse& sp) {
        ShaderStage& s = sp.s;
        Token p;
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
                warn(line, "unknown destination blend '" + std::string(q.text) + "', using GL_ONE");
        }
        sp.blend_given = true;
    }

    void parseRgbGen(int line, std::string_view k, StageParse& sp) {
        ShaderStage& s = sp.s;
        Token p;
        if (!need(line, k, p))
            return;
        const std::string_view g = p.text;
        const ShaderName<RgbGen>* n = findShaderName(kRgbGenNames, g);
        if (!n) {
            s.rgb_gen_explicit = false; // as ioquake3, an unknown rgbGen undoes an earlier one
            warn(line, "unknown rgbGen '" + std::string(g) + "'");
            return;
        }
        s.rgb_gen_explicit = true;
        s.rgb_gen = n->value;
        if (s.rgb_gen == RgbGen::Wave) {
            parseWave(line, "rgbGen wave", s.rgb_wave);
        } else if (s.rgb_gen == RgbGen::Const) {
            s.rgb_const = glm::vec3(0.0f);
            parseVector(line, "rgbGen const", s.rgb_const);
        } else if (iequals(g, shaderNameOf(kRgbGenNames, RgbGen::Vertex)) && !sp.alpha_gen_given) {
            s.alpha_gen = AlphaGen::Vertex; // ioquake3: rgbGen vertex implies alpha
            sp.alpha_gen_given = true;
        }
    }

    void parseAlphaGen(int line, std::string_view k, StageParse& sp) {
        ShaderStage& s = sp.s;
        Token p;
        if (!need(line, k, p))
            return;
        const std::string_view g = p.text;
        sp.alpha_gen_given = true;
        if (iequals(g, "portal")) {
            // Without portal views the surface shows its texture fully (alpha 1).
            s.alpha_gen = AlphaGen::Const;
            s.alpha_const = 1.0f;
            s.portal_range = 256.0f;
            const Token r = m_tok.param(line);
            if (r.eof)
                warn(line, "alphaGen portal without a range, using 256");
            else
                s.portal_range = toFloat(r.text);
            return;
        }
        const ShaderName<AlphaGen>* n = findShaderName(kAlphaGenNames, g);
        if (!n) {
            warn(line, "unknown alphaGen '" + std::string(g) + "'");
            return;
        }
        s.alpha_gen = n->value;
        if (s.alpha_gen == AlphaGen::Wave) {
            parseWave(line, "alphaGen wave", s.alpha_wave);
        } else if (s.alpha_gen == AlphaGen::Const) {
            s.alpha_const = 0.0f;
            needFloat(line, "alphaGen const", s.alpha_const);
        }
    }

    void parseTcGen(int line, std::string_view k, StageParse& sp) {
        ShaderStage& s = sp.s;
        Token p;
        if (!need(line, k, p))
            return;
        const ShaderName<TcGen>* n = findShaderName(kTcGenNames, p.text);
        if (!n) {
            sp.tc_gen_given = false; // the default comes back, as after no tcGen at all
            warn(line, "unknown tcGen '" + std::string(p.text) + "'");
            return;
        }
        sp.tc_gen_given = true;
        s.tc_gen = n->value;
        if (s.tc_gen == TcGen::Vector && parseVector(line, "tcGen vector", s.tc_vectors[0]))
            parseVector(line, "tcGen vector", s.tc_vectors[1]);
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
        const ShaderName<TcModKind>* n = findShaderName(kTcModNames, p.text);
        if (!n) {
            warn(line, "unknown tcMod '" + std::string(p.text) + "'");
            m_tok.skipLine(line);
            return;
        }
        TcMod m;
        m.kind = n->value;
        const bool ok = parseTcModParams(line, m);
        m_tok.skipLine(line); // ioquake3 reads the whole line into the tcMod
        if (ok)
            s.tc_mods.push_back(m); // an incomplete tcMod does nothing in ioquake3
    }

    // The parameters after tcMod <kind>; false when they ran out.
    bool parseTcModParams(int line, TcMod& m) {
        switch (m.kind) {
        case TcModKind::Scroll:
        case TcModKind::Scale:
            return needFloat(line, "tcMod", m.s) && needFloat(line, "tcMod", m.t);
        case TcModKind::Rotate:
            return needFloat(line, "tcMod rotate", m.s);
        case TcModKind::Turb:
            return needFloat(line, "tcMod turb", m.wave.base) &&
                   needFloat(line, "tcMod turb", m.wave.amplitude) &&
                   needFloat(line, "tcMod turb", m.wave.phase) &&
                   needFloat(line, "tcMod turb", m.wave.frequency);
        case TcModKind::Stretch:
            return parseWave(line, "tcMod stretch", m.wave);
        case TcModKind::Transform:
            for (float& v : m.matrix)
                if (!needFloat(line, "tcMod transform", v))
                    return false;
            for (float& v : m.translate)
                if (!needFloat(line, "tcMod transform", v))
                    return false;
            return true;
        case TcModKind::EntityTranslate:
            break;
        }
        return true;
    }

    Tokenizer m_tok;
    std::string_view m_file;
    ShaderScript m_out;
    ShaderDef* m_def = nullptr;
    bool m_cap_warned = false;
};

} // namespace

uint32_t surfaceParmFromName(std::string_view name) {
    const ShaderName<uint32_t>* n = findShaderName(kSurfaceParmNames, name);
    return n ? n->value : 0;
}

ShaderScript parseShaderScript(std::string_view text, std::string_view file) {
    return ScriptParser(text, file).run();
}

} // namespace content
