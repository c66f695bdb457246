// Source's number proxies (GL-free): the `Proxies` block of a material read into a small
// program the renderer runs at the viewer's clock.
//
// Engine reference (Source SDK 2013, read for the rules, no code taken): game/client/
// functionproxy.cpp (CFloatInput::Init and GetFloat: an input is a literal number, or a var's
// name with an optional "[i]" component; CResultProxy::Init and SetFloatResult: "resultVar",
// "$color[1]" writes one component, a bare vector var gets the value in every component;
// CFunctionProxy::Init: srcVar1 and the optional srcVar2 are var names; ComputeResultType),
// mathproxy.cpp (Add, Subtract, Multiply, Divide, Equals, Abs, Frac, Int, Clamp, Sine,
// LinearRamp, Exponential, LessOrEqual, WrapMinMax, SelectFirstIfNonZero, Empty),
// timematerialproxy.cpp (CurrentTime) and matrixproxy.cpp (CTextureTransformProxy: centerVar,
// scaleVar, rotateVar, translateVar, each optional). The material system binds a material's
// proxies in file order each time it binds the material, each reading the vars as the proxies
// before it left them; the program does the same from the material's written values.
//
// A var is one the material writes (a "$name" key of its block) or one the shader declares
// (kDeclaredProxyVars, at its default). A var's type follows its text: "[a b c]" or "{r g b}"
// (over 255) a vector of 2 to 4 numbers, a number a float, anything else (a texture, a matrix)
// neither. Int vars are read as floats (the engine's CMaterialVar, which would keep an int
// type, is not in the SDK).
#pragma once

#include "content/material/texture_transform.h"

#include <array>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace content {

struct KeyValues;

inline constexpr size_t kMaxProxyVars = 64;
inline constexpr size_t kMaxProxySteps = 64;

enum class ProxyOp : uint8_t {
    Sine,        // in: period, max, min, time offset
    LinearRamp,  // in: rate, initial value
    CurrentTime, // -
    Add,         // src: 1, 2
    Subtract,
    Multiply,
    Divide,
    Equals, // src: 1
    Abs,
    Frac,
    Int,
    Clamp,                // src: 1; in: min, max
    LessOrEqual,          // src: 1, 2, lessEqualVar, greaterVar
    SelectFirstIfNonZero, // src: 1, 2
    WrapMinMax,           // src: 1; in: min, max
    Exponential,          // src: 1; in: scale, offset, min, max
    TextureTransform,     // src: centerVar, scaleVar, rotateVar, translateVar
    Count,
};

// A var index of a program, or kNoVar (not named), or kDummyVar (named, but the material has no
// such var: the engine's FindVar then returns its dummy var, whose value reads 0).
inline constexpr int16_t kNoVar = -1;
inline constexpr int16_t kDummyVar = -2;

struct ProxyVar {
    std::string name; // lower case, "$color"
    // 1: a float; 2..4: a vector of that size; 0: neither (a texture, a matrix, a word)
    uint8_t size = 1;
    std::array<float, 4> value{};
    bool operator==(const ProxyVar&) const = default;
};

// A number a proxy reads (CFloatInput): `value` when var is kNoVar, else the var's float value
// (component < 0) or one component (0 when the var has fewer).
struct ProxyInput {
    int16_t var = kNoVar;
    int8_t component = -1;
    float value = 0.0f;
    bool operator==(const ProxyInput&) const = default;
};

struct ProxyStep {
    ProxyOp op = ProxyOp::CurrentTime;
    int16_t result = kNoVar;      // the var written (a var of the program)
    int8_t result_component = -1; // "$color[1]": 1
    std::array<int16_t, 4> src{kNoVar, kNoVar, kNoVar, kNoVar};
    std::array<ProxyInput, 4> in{};
    bool operator==(const ProxyStep&) const = default;
};

// What the renderer takes from a program's vars after it runs.
struct ProxyValues {
    float alpha = 1.0f;                              // $alpha
    std::array<float, 3> colour{1.0f, 1.0f, 1.0f};   // $color
    std::array<float, 3> envmap_tint{1.f, 1.f, 1.f}; // $envmaptint
    TextureTransform base;                           // $basetexturetransform
    TextureTransform bump;                           // $bumptransform
};

struct MaterialProxies {
    std::vector<ProxyVar> vars;
    std::vector<ProxyStep> steps;
    // The vars the renderer draws, each kNoVar unless a step writes it.
    int16_t alpha = kNoVar, colour = kNoVar, envmap_tint = kNoVar;
    // A TextureTransform step writes the matrix (the last such step's result is drawn).
    bool drives_base = false, drives_bump = false;

    bool empty() const { return steps.empty(); }
    // The value of `var` (a name, lower case) after the steps ran at `time`; zeros for a var the
    // program does not hold. For tests and the fuzz target.
    std::array<float, 4> valueAfter(double time, std::string_view var) const;
    // Runs the steps in order at `time` seconds (the engine's curtime) and returns the drawn
    // values; `base` and `bump` are those the material wrote (used when no step sets them).
    ProxyValues evaluate(double time, const TextureTransform& base = {},
                         const TextureTransform& bump = {}) const;
    bool operator==(const MaterialProxies&) const = default;
};

// The shader-declared vars a proxy may read or write without the material writing them, with
// their defaults (the base shader's standard params and the LightmappedGeneric family's).
struct DeclaredProxyVar {
    std::string_view name;
    uint8_t size;
    std::array<float, 4> value;
};
extern const std::array<DeclaredProxyVar, 9> kDeclaredProxyVars;

// The proxy names this program evaluates ("sine", "linearramp", ... lower case), and whether
// `name` is one; "empty" is accepted and does nothing.
bool evaluatedProxy(std::string_view name);
// "linearramp" -> "LinearRamp" (the name the engine exposes), for messages.
std::string_view proxyDisplayName(std::string_view name);

// Reads one proxy of `name` (lower case) with its block `proxy`, from the material's block
// `params`, into `out`. Keys are read as the engine's Init reads them; a missing required key or
// a value that is not a number nor a var is a warning (`where` + " key 'value': ...") through
// `warn`, and false (the engine's Init fails and drops the proxy). The caller checks
// evaluatedProxy(name) first.
bool readProxy(std::string_view name, const KeyValues& proxy, const KeyValues& params,
               std::string_view where, MaterialProxies& out,
               const std::function<void(std::string)>& warn);

// The drawn outputs (alpha, colour, envmap_tint, drives_base / drives_bump) from the steps;
// called once the steps are read. Results into other vars are evaluated and unused: their names
// ("$sineoutput", "$selfillumtint") in `ignored`, once each.
void finishProxies(MaterialProxies& out, std::vector<std::string>& ignored);

} // namespace content
