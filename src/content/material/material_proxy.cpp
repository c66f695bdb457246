#include "content/material/material_proxy.h"

#include "content/material/vmt.h"
#include "core/file.h"

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdlib>

namespace content {

const std::array<DeclaredProxyVar, 9> kDeclaredProxyVars{{
    {"$alpha", 1, {1.0f, 0.0f, 0.0f, 0.0f}},
    {"$color", 3, {1.0f, 1.0f, 1.0f, 0.0f}},
    {"$color2", 3, {1.0f, 1.0f, 1.0f, 0.0f}},
    {"$envmaptint", 3, {1.0f, 1.0f, 1.0f, 0.0f}},
    {"$selfillumtint", 3, {1.0f, 1.0f, 1.0f, 0.0f}},
    {"$frame", 1, {0.0f, 0.0f, 0.0f, 0.0f}},
    {"$bumpframe", 1, {0.0f, 0.0f, 0.0f, 0.0f}},
    {"$basetexturetransform", 0, {0.0f, 0.0f, 0.0f, 0.0f}},
    {"$bumptransform", 0, {0.0f, 0.0f, 0.0f, 0.0f}},
}};

namespace {

struct ProxyName {
    std::string_view name;    // lower case, as keys are stored
    std::string_view display; // as the engine exposes it
    ProxyOp op;
};
constexpr std::array<ProxyName, 17> kProxyNames{{
    {"sine", "Sine", ProxyOp::Sine},
    {"linearramp", "LinearRamp", ProxyOp::LinearRamp},
    {"currenttime", "CurrentTime", ProxyOp::CurrentTime},
    {"add", "Add", ProxyOp::Add},
    {"subtract", "Subtract", ProxyOp::Subtract},
    {"multiply", "Multiply", ProxyOp::Multiply},
    {"divide", "Divide", ProxyOp::Divide},
    {"equals", "Equals", ProxyOp::Equals},
    {"abs", "Abs", ProxyOp::Abs},
    {"frac", "Frac", ProxyOp::Frac},
    {"int", "Int", ProxyOp::Int},
    {"clamp", "Clamp", ProxyOp::Clamp},
    {"lessorequal", "LessOrEqual", ProxyOp::LessOrEqual},
    {"selectfirstifnonzero", "SelectFirstIfNonZero", ProxyOp::SelectFirstIfNonZero},
    {"wrapminmax", "WrapMinMax", ProxyOp::WrapMinMax},
    {"exponential", "Exponential", ProxyOp::Exponential},
    {"texturetransform", "TextureTransform", ProxyOp::TextureTransform},
}};

// A number below 1e30 in size at the start of `text` (sscanf "%f" reads a leading number).
bool leadingNumber(const char* text, float& out) {
    char* end = nullptr;
    const double d = std::strtod(text, &end);
    if (end == text || !std::isfinite(d) || std::abs(d) > 1.0e30)
        return false;
    out = static_cast<float>(d);
    return true;
}

// A material var's value as the material system types it from its text (see the header).
ProxyVar varFromText(std::string name, const std::string& text) {
    ProxyVar var;
    var.name = std::move(name);
    const size_t open = text.find_first_not_of(" \t");
    if (open != std::string::npos && (text[open] == '[' || text[open] == '{')) {
        const bool bytes = text[open] == '{';
        const char* p = text.c_str() + open + 1;
        uint8_t n = 0;
        while (n < 4) {
            float v = 0.0f;
            char* end = nullptr;
            std::strtod(p, &end);
            if (!leadingNumber(p, v))
                break;
            var.value[n++] = bytes ? v / 255.0f : v;
            p = end;
        }
        var.size = n;
        if (n == 0)
            var.value = {};
        return var;
    }
    float v = 0.0f;
    if (leadingNumber(text.c_str(), v)) {
        var.size = 1;
        var.value = {v, 0.0f, 0.0f, 0.0f};
    } else {
        var.size = 0; // a texture, a matrix, a word: reads 0
    }
    return var;
}

class Reader {
public:
    Reader(const KeyValues& proxy, const KeyValues& params, std::string_view where,
           MaterialProxies& out, const std::function<void(std::string)>& warn)
        : m_proxy(proxy), m_params(params), m_where(where), m_out(out), m_warn(warn) {}

    // IMaterial::FindVar: the program's var of `name`, added from the material's block or the
    // shader's declarations; kDummyVar when neither has it (or the program is full, warned).
    int16_t findVar(std::string_view name) {
        const std::string lower = core::toLower(name);
        for (size_t i = 0; i < m_out.vars.size(); ++i)
            if (m_out.vars[i].name == lower)
                return static_cast<int16_t>(i);
        ProxyVar var;
        if (const KeyValues* kv = m_params.find(lower);
            kv && !kv->block && !lower.empty() && kv->key != "proxies")
            var = varFromText(lower, kv->value);
        else if (const auto d =
                     std::find_if(kDeclaredProxyVars.begin(), kDeclaredProxyVars.end(),
                                  [&](const DeclaredProxyVar& v) { return v.name == lower; });
                 d != kDeclaredProxyVars.end())
            var = ProxyVar{lower, d->size, d->value};
        else
            return kDummyVar;
        if (m_out.vars.size() >= kMaxProxyVars) {
            m_full = true;
            return kDummyVar;
        }
        m_out.vars.push_back(std::move(var));
        return static_cast<int16_t>(m_out.vars.size() - 1);
    }

    bool fail(std::string_view key, std::string_view value, std::string_view why) {
        m_warn(std::string(m_where) + " " + std::string(key) + " '" + std::string(value) +
               "': " + std::string(why) + "; the proxy is ignored");
        return false;
    }

    bool full() {
        if (!m_full)
            return false;
        m_warn(std::string(m_where) + ": more than " + std::to_string(kMaxProxyVars) +
               " vars in the material's proxies; the proxy is ignored");
        return true;
    }

    // "$name[i]": the name and the component (-1 without brackets; 4 for one past a vector).
    static std::string_view splitComponent(std::string_view text, int8_t& component) {
        const size_t open = text.find('[');
        component = -1;
        if (open == std::string_view::npos)
            return text;
        const std::string index(text.substr(open + 1));
        const long c = std::strtol(index.c_str(), nullptr, 10); // strtol, as the engine
        component = c < 0 ? int8_t{-1} : static_cast<int8_t>(std::min(c, 4L));
        return text.substr(0, open);
    }

    // CResultProxy::Init: resultVar must name a var.
    bool result(ProxyStep& step) {
        const std::string text = value("resultvar");
        std::string_view name = splitComponent(text, step.result_component);
        step.result = name.empty() ? kDummyVar : findVar(name);
        if (full())
            return false;
        if (step.result < 0)
            return fail("resultvar", text, "not a var of the material");
        return true;
    }

    // A var-name key (srcVar1, lessEqualVar, ...): must name a var when `required` or written.
    bool source(std::string_view key, bool required, int16_t& out) {
        const std::string text = value(key);
        out = kNoVar;
        if (text.empty() && !required)
            return true;
        out = findVar(text);
        if (full())
            return false;
        if (out < 0)
            return fail(key, text, text.empty() ? "missing" : "not a var of the material");
        return true;
    }

    // CTextureTransformProxy::Init's optional vars: FindVar without a failure, so a name the
    // material lacks reads as the dummy var (0).
    bool optionalVar(std::string_view key, int16_t& out) {
        const std::string text = value(key);
        out = text.empty() ? kNoVar : findVar(text);
        return !full();
    }

    // CFloatInput::Init.
    bool input(std::string_view key, float fallback, ProxyInput& out) {
        out = ProxyInput{kNoVar, -1, fallback};
        const KeyValues* kv = m_proxy.find(key);
        if (!kv)
            return true;
        if (kv->block)
            return fail(key, "", "a block, not a number nor a var");
        float v = 0.0f;
        if (leadingNumber(kv->value.c_str(), v)) {
            out.value = v;
            return true;
        }
        char* end = nullptr;
        std::strtod(kv->value.c_str(), &end);
        if (end != kv->value.c_str()) // a number out of range ("1e999", "nan")
            return fail(key, kv->value, "not a number below 1e30 in size");
        const std::string_view name = splitComponent(kv->value, out.component);
        out.var = findVar(name);
        if (full())
            return false;
        if (out.var < 0)
            return fail(key, kv->value, "neither a number nor a var of the material");
        return true;
    }

private:
    std::string value(std::string_view key) const {
        const KeyValues* kv = m_proxy.find(key);
        return kv && !kv->block ? kv->value : std::string();
    }

    const KeyValues& m_proxy;
    const KeyValues& m_params;
    std::string_view m_where;
    MaterialProxies& m_out;
    const std::function<void(std::string)>& m_warn;
    bool m_full = false;
};

// The evaluation's var values.
using Values = std::array<std::array<float, 4>, kMaxProxyVars>;

class Machine {
public:
    Machine(const MaterialProxies& p, Values& v) : m_p(p), m_v(v) {}

    uint8_t size(int16_t var) const {
        return var >= 0 ? m_p.vars[static_cast<size_t>(var)].size : uint8_t{0};
    }
    // GetFloatValue: a vector's first component; the dummy var 0.
    float scalar(int16_t var) const { return var >= 0 ? m_v[static_cast<size_t>(var)][0] : 0.0f; }
    // GetVecValue of `n` components: a float var's value in each.
    std::array<float, 4> vec(int16_t var) const {
        if (var < 0)
            return {};
        const std::array<float, 4>& v = m_v[static_cast<size_t>(var)];
        return size(var) == 1 ? std::array<float, 4>{v[0], v[0], v[0], v[0]} : v;
    }
    // CFloatInput::GetFloat.
    float input(const ProxyInput& in) const {
        if (in.var == kNoVar)
            return in.value;
        if (in.component < 0)
            return scalar(in.var);
        if (in.component >= std::max<int>(size(in.var), 1))
            return 0.0f;
        return m_v[static_cast<size_t>(in.var)][static_cast<size_t>(in.component)];
    }
    // CResultProxy::SetFloatResult.
    void setFloat(const ProxyStep& s, float x) {
        std::array<float, 4>& r = m_v[static_cast<size_t>(s.result)];
        const uint8_t n = size(s.result);
        if (n >= 2 && s.result_component >= 0) {
            if (s.result_component < n)
                r[static_cast<size_t>(s.result_component)] = x;
        } else {
            r = {x, x, x, x}; // a float, or every component of a vector
        }
    }
    void setVec(const ProxyStep& s, const std::array<float, 4>& x) {
        m_v[static_cast<size_t>(s.result)] = x;
    }
    // ComputeResultType: a vector op (the result's size) when the result is a whole vector, a
    // float op when it is a float or one component; nothing for a var of another type.
    int resultSize(const ProxyStep& s) const {
        const uint8_t n = size(s.result);
        if (n >= 2)
            return s.result_component >= 0 ? 1 : n;
        return n;
    }

    template <typename F> void binary(const ProxyStep& s, F f) {
        const int n = resultSize(s);
        if (n == 1) {
            setFloat(s, f(scalar(s.src[0]), scalar(s.src[1])));
        } else if (n >= 2) {
            const std::array<float, 4> a = vec(s.src[0]), b = vec(s.src[1]);
            std::array<float, 4> c{};
            for (int i = 0; i < n; ++i)
                c[static_cast<size_t>(i)] = f(a[static_cast<size_t>(i)], b[static_cast<size_t>(i)]);
            setVec(s, c);
        }
    }
    // Frac and Int change the first three components of a vector (Vector's x, y, z).
    template <typename F> void unary3(const ProxyStep& s, F f) {
        const int n = resultSize(s);
        if (n == 1) {
            setFloat(s, f(scalar(s.src[0])));
        } else if (n >= 2) {
            std::array<float, 4> a = vec(s.src[0]);
            for (size_t i = 0; i < 3; ++i)
                a[i] = f(a[i]);
            setVec(s, a);
        }
    }

    // (int)x, the value kept in range first.
    static float whole(float x) {
        return static_cast<float>(std::trunc(std::clamp(static_cast<double>(x), -2.0e9, 2.0e9)));
    }

    // CTextureTransformProxy::OnBind: into the base or bump matrix; another var's is unused.
    void textureTransform(const ProxyStep& s, TextureTransform& base,
                          TextureTransform& bump) const {
        std::array<float, 2> center{0.5f, 0.5f}, scale{1.0f, 1.0f}, translate{0.0f, 0.0f};
        float degrees = 0.0f;
        if (s.src[0] != kNoVar)
            center = {vec(s.src[0])[0], vec(s.src[0])[1]};
        if (s.src[1] != kNoVar)
            scale = {vec(s.src[1])[0], vec(s.src[1])[1]};
        if (s.src[2] != kNoVar)
            degrees = scalar(s.src[2]);
        if (s.src[3] != kNoVar)
            translate = {vec(s.src[3])[0], vec(s.src[3])[1]};
        const TextureTransform t = centredTextureTransform(center, scale, degrees, translate);
        const std::string& name = m_p.vars[static_cast<size_t>(s.result)].name;
        if (name == "$basetexturetransform")
            base = t;
        else if (name == "$bumptransform")
            bump = t;
    }

    // CWrapMinMaxProxy::OnBind.
    void wrapMinMax(const ProxyStep& s) {
        const float lo = input(s.in[0]), hi = input(s.in[1]);
        if (hi <= lo) { // the engine's "bad input": the minimum
            setFloat(s, lo);
            return;
        }
        float r = (scalar(s.src[0]) - lo) / (hi - lo);
        r -= r >= 0.0f ? whole(r) : whole(r) - 1.0f;
        setFloat(s, r * (hi - lo) + lo);
    }

    void run(const ProxyStep& s, double time, TextureTransform& base, TextureTransform& bump) {
        switch (s.op) {
        case ProxyOp::Sine: {
            float period = input(s.in[0]);
            if (period == 0.0f)
                period = 1.0f;
            const double wave =
                std::sin(2.0 * 3.14159265358979323846 * (time - input(s.in[3])) / period) * 0.5 +
                0.5;
            setFloat(s,
                     static_cast<float>((input(s.in[1]) - input(s.in[2])) * wave + input(s.in[2])));
            break;
        }
        case ProxyOp::LinearRamp:
            setFloat(s, static_cast<float>(input(s.in[0]) * time + input(s.in[1])));
            break;
        case ProxyOp::CurrentTime:
            setFloat(s, static_cast<float>(time));
            break;
        case ProxyOp::Add:
            binary(s, [](float a, float b) { return a + b; });
            break;
        case ProxyOp::Subtract:
            binary(s, [](float a, float b) { return a - b; });
            break;
        case ProxyOp::Multiply:
            binary(s, [](float a, float b) { return a * b; });
            break;
        case ProxyOp::Divide:
            if (resultSize(s) == 1) // a float divide by 0 keeps the dividend
                setFloat(s, scalar(s.src[1]) != 0.0f ? scalar(s.src[0]) / scalar(s.src[1])
                                                     : scalar(s.src[0]));
            else
                binary(s, [](float a, float b) { return a / b; });
            break;
        case ProxyOp::Equals:
            binary(s, [](float a, float) { return a; });
            break;
        case ProxyOp::Abs:
            setFloat(s, std::abs(scalar(s.src[0])));
            break;
        case ProxyOp::Frac:
            unary3(s, [](float a) { return a - whole(a); });
            break;
        case ProxyOp::Int:
            unary3(s, [](float a) { return whole(a); });
            break;
        case ProxyOp::Clamp: {
            float lo = input(s.in[0]), hi = input(s.in[1]);
            if (lo > hi)
                std::swap(lo, hi);
            binary(s, [&](float a, float) { return a < lo ? lo : a > hi ? hi : a; });
            break;
        }
        case ProxyOp::LessOrEqual: {
            const int16_t from = scalar(s.src[0]) <= scalar(s.src[1]) ? s.src[2] : s.src[3];
            const int n = resultSize(s);
            if (n == 1)
                setFloat(s, scalar(from));
            else if (n >= 2)
                setVec(s, vec(from));
            break;
        }
        case ProxyOp::SelectFirstIfNonZero: {
            const int n = resultSize(s);
            if (n == 1) {
                setFloat(s, scalar(s.src[0]) != 0.0f ? scalar(s.src[0]) : scalar(s.src[1]));
            } else if (n >= 2) {
                const std::array<float, 4> a = vec(s.src[0]);
                const bool zero = a[0] == 0.0f && a[1] == 0.0f && a[2] == 0.0f; // Vector::IsZero
                setVec(s, zero ? vec(s.src[1]) : a);
            }
            break;
        }
        case ProxyOp::WrapMinMax:
            wrapMinMax(s);
            break;
        case ProxyOp::Exponential: {
            float v = input(s.in[0]) * std::exp(scalar(s.src[0]) + input(s.in[1]));
            float lo = input(s.in[2]), hi = input(s.in[3]);
            if (lo > hi)
                std::swap(lo, hi);
            v = v < lo ? lo : v > hi ? hi : v;
            setFloat(s, v);
            break;
        }
        case ProxyOp::TextureTransform:
            textureTransform(s, base, bump);
            break;
        case ProxyOp::Count:
            break;
        }
    }

private:
    const MaterialProxies& m_p;
    Values& m_v;
};

// A finite value, else `fallback` (a proxy chain may divide by 0 or overflow).
float finite(float v, float fallback) {
    return std::isfinite(v) ? v : fallback;
}

TextureTransform finiteTransform(const TextureTransform& t, const TextureTransform& fallback) {
    for (const float v : t.m)
        if (!std::isfinite(v))
            return fallback;
    return t;
}

} // namespace

std::string_view proxyDisplayName(std::string_view name) {
    for (const ProxyName& p : kProxyNames)
        if (p.name == name)
            return p.display;
    return name == "empty" ? "Empty" : name;
}

bool evaluatedProxy(std::string_view name) {
    return name == "empty" || std::any_of(kProxyNames.begin(), kProxyNames.end(),
                                          [&](const ProxyName& p) { return p.name == name; });
}

bool readProxy(std::string_view name, const KeyValues& proxy, const KeyValues& params,
               std::string_view where, MaterialProxies& out,
               const std::function<void(std::string)>& warn) {
    if (name == "empty")
        return true; // CEmptyProxy: used to comment out proxies
    const auto entry = std::find_if(kProxyNames.begin(), kProxyNames.end(),
                                    [&](const ProxyName& p) { return p.name == name; });
    if (entry == kProxyNames.end())
        return false;
    if (out.steps.size() >= kMaxProxySteps) {
        warn(std::string(where) + ": more than " + std::to_string(kMaxProxySteps) +
             " proxies; the proxy is ignored");
        return false;
    }
    // Vars the proxy adds stay only when it is kept (a dropped proxy's vars read nothing).
    const size_t vars_before = out.vars.size();
    Reader r(proxy, params, where, out, warn);
    ProxyStep s;
    s.op = entry->op;
    bool ok = true;
    switch (s.op) {
    case ProxyOp::Sine: // CSineProxy::Init
        ok = r.result(s) && r.input("sineperiod", 1.0f, s.in[0]) &&
             r.input("sinemax", 1.0f, s.in[1]) && r.input("sinemin", 0.0f, s.in[2]) &&
             r.input("timeoffset", 0.0f, s.in[3]);
        break;
    case ProxyOp::LinearRamp: // CLinearRampProxy::Init
        ok =
            r.result(s) && r.input("rate", 1.0f, s.in[0]) && r.input("initialvalue", 0.0f, s.in[1]);
        break;
    case ProxyOp::CurrentTime:
        ok = r.result(s);
        break;
    case ProxyOp::Add: // two sources required
    case ProxyOp::Subtract:
    case ProxyOp::Multiply:
    case ProxyOp::Divide:
    case ProxyOp::SelectFirstIfNonZero:
        ok = r.result(s) && r.source("srcvar1", true, s.src[0]) &&
             r.source("srcvar2", true, s.src[1]);
        break;
    case ProxyOp::Equals: // CFunctionProxy::Init: srcVar2 optional
    case ProxyOp::Abs:
    case ProxyOp::Frac:
    case ProxyOp::Int:
        ok = r.result(s) && r.source("srcvar1", true, s.src[0]) &&
             r.source("srcvar2", false, s.src[1]);
        break;
    case ProxyOp::Clamp:
        ok = r.result(s) && r.source("srcvar1", true, s.src[0]) &&
             r.source("srcvar2", false, s.src[1]) && r.input("min", 0.0f, s.in[0]) &&
             r.input("max", 1.0f, s.in[1]);
        break;
    case ProxyOp::WrapMinMax:
        ok = r.result(s) && r.source("srcvar1", true, s.src[0]) &&
             r.source("srcvar2", false, s.src[1]) && r.input("minval", 0.0f, s.in[0]) &&
             r.input("maxval", 1.0f, s.in[1]);
        break;
    case ProxyOp::Exponential:
        ok = r.result(s) && r.source("srcvar1", true, s.src[0]) &&
             r.source("srcvar2", false, s.src[1]) && r.input("scale", 1.0f, s.in[0]) &&
             r.input("offset", 0.0f, s.in[1]) && r.input("minval", -FLT_MAX, s.in[2]) &&
             r.input("maxval", FLT_MAX, s.in[3]);
        break;
    case ProxyOp::LessOrEqual: // CLessOrEqualProxy::Init: its two vars first, then both sources
        ok = r.source("lessequalvar", true, s.src[2]) && r.source("greatervar", true, s.src[3]) &&
             r.result(s) && r.source("srcvar1", true, s.src[0]) &&
             r.source("srcvar2", true, s.src[1]);
        break;
    case ProxyOp::TextureTransform: // every var optional; then CResultProxy::Init
        ok = r.optionalVar("centervar", s.src[0]) && r.optionalVar("scalevar", s.src[1]) &&
             r.optionalVar("rotatevar", s.src[2]) && r.optionalVar("translatevar", s.src[3]) &&
             r.result(s);
        break;
    case ProxyOp::Count:
        ok = false;
        break;
    }
    if (!ok) {
        out.vars.resize(vars_before);
        return false;
    }
    out.steps.push_back(s);
    return true;
}

void finishProxies(MaterialProxies& out, std::vector<std::string>& ignored) {
    out.alpha = out.colour = out.envmap_tint = kNoVar;
    out.drives_base = out.drives_bump = false;
    for (size_t i = 0; i < out.steps.size(); ++i) {
        const ProxyStep& s = out.steps[i];
        const std::string& name = out.vars[static_cast<size_t>(s.result)].name;
        bool drawn = true;
        if (s.op == ProxyOp::TextureTransform) {
            drawn = name == "$basetexturetransform" || name == "$bumptransform";
            out.drives_base |= name == "$basetexturetransform";
            out.drives_bump |= name == "$bumptransform";
        } else if (name == "$alpha") {
            out.alpha = s.result;
        } else if (name == "$color") {
            out.colour = s.result;
        } else if (name == "$envmaptint") {
            out.envmap_tint = s.result;
        } else {
            // Drawn when a later proxy reads it (an input of the chain).
            drawn = false;
            for (size_t j = i + 1; j < out.steps.size() && !drawn; ++j) {
                const ProxyStep& t = out.steps[j];
                drawn = std::find(t.src.begin(), t.src.end(), s.result) != t.src.end() ||
                        std::any_of(t.in.begin(), t.in.end(),
                                    [&](const ProxyInput& in) { return in.var == s.result; });
            }
        }
        if (!drawn && std::find(ignored.begin(), ignored.end(), name) == ignored.end())
            ignored.push_back(name);
    }
}

ProxyValues MaterialProxies::evaluate(double time, const TextureTransform& base,
                                      const TextureTransform& bump) const {
    ProxyValues out;
    out.base = base;
    out.bump = bump;
    if (steps.empty() || vars.size() > kMaxProxyVars || !std::isfinite(time))
        return out;
    Values v;
    for (size_t i = 0; i < vars.size(); ++i)
        v[i] = vars[i].value;
    Machine m(*this, v);
    TextureTransform b = base, n = bump;
    for (const ProxyStep& s : steps)
        m.run(s, time, b, n);
    if (alpha >= 0)
        out.alpha = finite(m.scalar(alpha), 1.0f);
    if (colour >= 0) {
        const std::array<float, 4> c = m.vec(colour);
        out.colour = {finite(c[0], 1.0f), finite(c[1], 1.0f), finite(c[2], 1.0f)};
    }
    if (envmap_tint >= 0) {
        const std::array<float, 4> c = m.vec(envmap_tint);
        out.envmap_tint = {finite(c[0], 1.0f), finite(c[1], 1.0f), finite(c[2], 1.0f)};
    }
    out.base = finiteTransform(b, base);
    out.bump = finiteTransform(n, bump);
    return out;
}

std::array<float, 4> MaterialProxies::valueAfter(double time, std::string_view var) const {
    const auto at =
        std::find_if(vars.begin(), vars.end(), [&](const ProxyVar& v) { return v.name == var; });
    if (at == vars.end() || vars.size() > kMaxProxyVars || !std::isfinite(time))
        return {};
    Values v;
    for (size_t i = 0; i < vars.size(); ++i)
        v[i] = vars[i].value;
    Machine m(*this, v);
    TextureTransform b, n;
    for (const ProxyStep& s : steps)
        m.run(s, time, b, n);
    return v[static_cast<size_t>(at - vars.begin())];
}

} // namespace content
