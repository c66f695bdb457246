#include "game/profile.h"

#include "game/families.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <iterator>

#include <glm/common.hpp>
#include <glm/exponential.hpp>
#include <glm/geometric.hpp>

namespace game {

std::string_view familyName(Family f) {
    switch (f) {
    case Family::Quake1:
        return "Quake 1";
    case Family::HalfLife:
        return "Half-Life";
    case Family::Quake2:
        return "Quake 2";
    case Family::Quake3:
        return "Quake 3";
    case Family::Source:
        return "Source";
    }
    return "unknown";
}

Family familyOf(bsp::Format format) {
    switch (format) {
    case bsp::Format::Quake1:
    case bsp::Format::Quake1Bsp2:
    case bsp::Format::Quake1Rmq:
        return Family::Quake1;
    case bsp::Format::HalfLife:
        return Family::HalfLife;
    case bsp::Format::Quake2:
    case bsp::Format::Quake2Qbsp:
        return Family::Quake2;
    case bsp::Format::Quake3:
    case bsp::Format::Quake3Rtcw:
    case bsp::Format::Qfusion:
        return Family::Quake3;
    case bsp::Format::Source:
        return Family::Source;
    }
    return Family::Quake3;
}

std::string_view unlitFacesName(UnlitFaces u) {
    switch (u) {
    case UnlitFaces::VertexColour:
        return "vertex colour";
    case UnlitFaces::Fullbright:
        return "full bright";
    case UnlitFaces::Black:
        return "black";
    case UnlitFaces::FullbrightEachStyle:
        return "full bright in each style";
    }
    return "unknown";
}

std::string_view toneMapSourceName(ToneMapSource s) {
    switch (s) {
    case ToneMapSource::None:
        return "none";
    case ToneMapSource::Defaults:
        return "defaults";
    case ToneMapSource::Controller:
        return "controller";
    }
    return "unknown";
}

namespace {

constexpr std::string_view kTextureModeNames[kTextureModeCount] = {
    "GL_NEAREST", "GL_NEAREST_MIPMAP_NEAREST", "GL_NEAREST_MIPMAP_LINEAR",
    "GL_LINEAR",  "GL_LINEAR_MIPMAP_NEAREST",  "GL_LINEAR_MIPMAP_LINEAR",
};

bool equalNoCase(std::string_view a, std::string_view b) {
    return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
               return std::tolower(static_cast<unsigned char>(x)) ==
                      std::tolower(static_cast<unsigned char>(y));
           });
}

} // namespace

std::string_view textureModeName(TextureMode m) {
    const auto i = static_cast<size_t>(m);
    return i < std::size(kTextureModeNames) ? kTextureModeNames[i] : "unknown";
}

std::optional<TextureMode> textureModeFromName(std::string_view name) {
    for (int i = 0; i < kTextureModeCount; ++i) {
        const std::string_view full = kTextureModeNames[i];
        if (equalNoCase(name, full) || equalNoCase(name, full.substr(3)))
            return static_cast<TextureMode>(i);
    }
    return std::nullopt;
}

bool magnifiesNearest(TextureMode m) {
    return m == TextureMode::Nearest || m == TextureMode::NearestMipmapNearest ||
           m == TextureMode::NearestMipmapLinear;
}

bool usesMipmaps(TextureMode m) {
    return m != TextureMode::Nearest && m != TextureMode::Linear;
}

PaletteTable texGammaTable(float gamma, float texgamma) {
    // BuildGammaTable: g1 = 1 / gamma and g2 = g1 * texgamma are floats; the power is taken in
    // double and kept as a float, then multiplied by 255 as a float and truncated.
    const float g1 = gamma != 0.0f ? float(1.0 / double(gamma)) : 0.4f;
    const float g2 = g1 * texgamma;
    PaletteTable table{};
    for (int i = 0; i < 256; ++i) {
        const float d = float(std::pow(double(i) / 255.0, double(g2)));
        table[size_t(i)] = uint8_t(std::clamp(int(d * 255.0f), 0, 255));
    }
    return table;
}

glm::vec3 scaledLight(const LightRule& rule, glm::vec3 light) {
    light *= rule.lightmap_scale * rule.light_style_scale;
    if (rule.light_max > 0.0f)
        light = glm::min(light, glm::vec3(rule.light_max));
    if (rule.overbright || rule.light_normalize) {
        const float largest = std::max({light.r, light.g, light.b});
        if (largest > 1.0f)
            light /= largest;
    }
    return light;
}

namespace {

// pow() only where a game curves the colour, as the shader does: exp2(log2(x)) need not give
// x back exactly.
glm::vec3 curve(glm::vec3 v, float exponent) {
    if (exponent == 1.0f)
        return v;
    return glm::pow(glm::max(v, glm::vec3(0.0f)), glm::vec3(exponent));
}

float outputScale(const LightRule& rule) {
    return rule.overbright ? 2.0f : 1.0f;
}

// The texel times texture_scale, saturated at texture_max.
glm::vec3 scaledTexel(const LightRule& rule, glm::vec3 texel) {
    const glm::vec3 t = rule.texture_scale * texel;
    return rule.texture_max > 0.0f ? glm::min(t, glm::vec3(rule.texture_max)) : t;
}

} // namespace

glm::vec3 apply(const LightRule& rule, glm::vec3 texel, glm::vec3 light) {
    const glm::vec3 t = scaledTexel(rule, texel);
    const glm::vec3 colour = curve(t * scaledLight(rule, light), rule.output_gamma);
    return glm::min(colour * outputScale(rule), glm::vec3(1.0f));
}

glm::vec3 texelPart(const LightRule& rule, glm::vec3 texel) {
    // min(s t, m) = s min(t, m / s): the scale stays in the light part.
    if (rule.texture_max > 0.0f && rule.texture_scale > 0.0f)
        return curve(glm::min(texel, glm::vec3(rule.texture_max / rule.texture_scale)),
                     rule.output_gamma);
    return curve(texel, rule.output_gamma);
}

glm::vec3 lightPart(const LightRule& rule, glm::vec3 light) {
    return curve(rule.texture_scale * scaledLight(rule, light), rule.output_gamma) *
           outputScale(rule);
}

std::string_view quake2LookName(Quake2Look look) {
    return look == Quake2Look::Classic ? "classic" : "yamagi";
}

std::optional<Quake2Look> parseQuake2Look(std::string_view name) {
    if (name == "yamagi")
        return Quake2Look::Yamagi;
    if (name == "classic")
        return Quake2Look::Classic;
    return std::nullopt;
}

GameProfile profileFor(const bsp::Map& map, const ProfileOptions& options) {
    switch (familyOf(map.format)) {
    case Family::Quake1:
        return detail::quake1Profile(map);
    case Family::HalfLife:
        return detail::halfLifeProfile(map);
    case Family::Quake2:
        return detail::quake2Profile(map, options.quake2_look);
    case Family::Quake3:
        return detail::quake3Profile(map);
    case Family::Source:
        return detail::sourceProfile(map);
    }
    return detail::quake3Profile(map);
}

void spawnBrushModels(const GameProfile& profile, bsp::Map& map) {
    switch (profile.family) {
    case Family::Quake1:
        detail::quake1Spawn(map);
        break;
    case Family::HalfLife:
        detail::halfLifeSpawn(map);
        break;
    case Family::Quake2:
    case Family::Quake3:
    case Family::Source:
        break;
    }
}

glm::vec3 skyRegionEye(const SkyRegion& region, glm::vec3 eye) {
    return region.origin + eye / region.scale;
}

glm::vec3 fogColourFor(const LinearFog& fog, glm::vec3 forward) {
    if (!fog.blend)
        return fog.colour;
    const float length = glm::length(fog.direction);
    const float along = length > 0.0f ? glm::dot(forward, fog.direction / length) : 0.0f;
    const float w = 0.5f * along + 0.5f;
    return fog.colour * w + fog.colour2 * (1.0f - w);
}

namespace detail {

const bsp::Entity* worldspawn(const bsp::Map& map) {
    if (map.entities.empty() || map.entities[0].classname() != "worldspawn")
        return nullptr;
    return &map.entities[0];
}

std::string skyPath(const bsp::Entity* world, std::string_view key, std::string_view prefix) {
    if (!world)
        return {};
    const std::string_view name = world->get(key);
    if (name.empty() || name.size() > 64)
        return {};
    return std::string(prefix) + std::string(name);
}

} // namespace detail

} // namespace game
