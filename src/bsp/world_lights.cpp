#include "bsp/world_lights.h"

#include "bsp/lump_table.h"
#include "core/byte_reader.h"
#include "core/error.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include <glm/geometric.hpp>

namespace bsp {

namespace {

// The record at `at` (`v1`: with shadow_cast_offset), or the reason it is refused.
std::string readLight(const core::ByteReader& r, uint64_t at, bool v1, WorldLight& l) {
    l.origin = vec3At(r, at);
    l.intensity = vec3At(r, at + 12);
    l.normal = vec3At(r, at + 24);
    uint64_t p = at + 36;
    if (v1) {
        l.shadow_cast_offset = vec3At(r, p);
        p += 12;
    }
    l.cluster = r.i32(p);
    const int32_t type = r.i32(p + 4);
    l.style = r.i32(p + 8);
    l.stopdot = r.f32(p + 12);
    l.stopdot2 = r.f32(p + 16);
    l.exponent = r.f32(p + 20);
    l.radius = r.f32(p + 24);
    l.constant_attn = r.f32(p + 28);
    l.linear_attn = r.f32(p + 32);
    l.quadratic_attn = r.f32(p + 36);
    l.flags = r.i32(p + 40);
    l.texinfo = r.i32(p + 44);
    l.owner = r.i32(p + 48);
    if (type < 0 || type >= kEmitTypeCount)
        return "type " + std::to_string(type) + " is not an emittype_t (0..5)";
    l.type = EmitType(type);
    const float numbers[] = {l.stopdot,       l.stopdot2,    l.exponent,      l.radius,
                             l.constant_attn, l.linear_attn, l.quadratic_attn};
    bool ok =
        finite(l.origin) && finite(l.intensity) && finite(l.normal) && finite(l.shadow_cast_offset);
    for (float f : numbers)
        ok = ok && std::isfinite(f);
    return ok ? std::string() : "a number is not finite";
}

// Float overflow on absurd lights (an intensity near FLT_MAX, an attenuation near 0) gives an
// infinite or NaN radius where the engine's would be infinite: the largest float instead, which
// culls nothing, as an infinite radius would.
void finishRadius(WorldLight& l) {
    if (!std::isfinite(l.radius))
        l.radius = std::numeric_limits<float>::max();
}

} // namespace

void fixUpWorldLight(WorldLight& l, bool hdr) {
    const bool no_attenuation =
        l.constant_attn == 0.0f && l.linear_attn == 0.0f && l.quadratic_attn == 0.0f;
    if (l.type == EmitType::Spotlight || l.type == EmitType::Point) {
        if (no_attenuation)
            l.quadratic_attn = 1.0f;
        if (l.type == EmitType::Spotlight && l.exponent == 0.0f)
            l.exponent = 1.0f;
    }
    if (l.radius != 0.0f)
        return; // below 1 goes to ComputeLightRadius, which keeps any radius but 0
    const float min_light = hdr ? 0.015f : 0.03f;
    const float intensity = glm::length(l.intensity);
    constexpr float kUnbounded = 2000.0f;
    if (l.quadratic_attn == 0.0f) {
        l.radius = l.linear_attn == 0.0f
                       ? kUnbounded
                       : (intensity / min_light - l.constant_attn) / l.linear_attn;
        finishRadius(l);
        return;
    }
    const float a = l.quadratic_attn, b = l.linear_attn;
    const float c = l.constant_attn - intensity / min_light;
    const float discriminant = b * b - 4.0f * a * c;
    l.radius = discriminant < 0.0f ? kUnbounded
                                   : std::max(0.0f, (-b + std::sqrt(discriminant)) / (2.0f * a));
    finishRadius(l);
}

core::Result<std::vector<WorldLight>> parseWorldLights(std::span<const uint8_t> lump,
                                                       int32_t version, bool hdr) {
    const char* name = hdr ? "worldlights_hdr" : "worldlights";
    std::vector<WorldLight> lights;
    if (lump.empty())
        return lights;
    if (version != 0 && version != 1)
        return core::makeError(core::ErrorCode::UnsupportedVersion, name, -1, "version",
                               "lump version " + std::to_string(version) + " is not 0 or 1");
    const uint64_t record = version == 1 ? kWorldLightBytesV1 : kWorldLightBytesV0;
    if (lump.size() % record != 0)
        return core::makeError(core::ErrorCode::LumpSize, name, -1, {},
                               std::to_string(lump.size()) + " bytes is not a multiple of " +
                                   std::to_string(record));
    const core::ByteReader r(lump);
    lights.resize(lump.size() / record);
    for (size_t i = 0; i < lights.size(); ++i) {
        const std::string why = readLight(r, i * record, version == 1, lights[i]);
        if (!why.empty())
            return core::makeError(core::ErrorCode::BadValue, name, int64_t(i), {}, why);
        fixUpWorldLight(lights[i], hdr);
    }
    return lights;
}

} // namespace bsp
