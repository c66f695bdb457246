#include "bsp/map.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <glm/common.hpp>
#include <limits>

namespace bsp {

std::string_view formatName(Format f) {
    switch (f) {
    case Format::Quake1:
        return "Quake 1 BSP29";
    case Format::Quake1Bsp2:
        return "Quake 1 BSP2";
    case Format::Quake1Rmq:
        return "Quake 1 2PSB";
    case Format::HalfLife:
        return "Half-Life BSP30";
    case Format::Quake2:
        return "Quake 2 IBSP";
    case Format::Quake2Qbsp:
        return "Quake 2 QBSP";
    case Format::Quake3:
        return "Quake 3 IBSP";
    case Format::Quake3Rtcw:
        return "RTCW/ET IBSP";
    case Format::Qfusion:
        return "Qfusion FBSP";
    case Format::Source:
        return "Source VBSP";
    }
    return "unknown";
}

std::string_view Entity::get(std::string_view key) const {
    for (const auto& [k, v] : pairs)
        if (k == key)
            return v;
    return {};
}

bool Entity::has(std::string_view key) const {
    for (const auto& kv : pairs)
        if (kv.first == key)
            return true;
    return false;
}

namespace {
// strtof on a bounded copy: entity values are not NUL-terminated views.
bool parseFloats(std::string_view s, float* out, int n) {
    std::string buf(s);
    const char* p = buf.c_str();
    for (int i = 0; i < n; ++i) {
        char* end = nullptr;
        const float v = std::strtof(p, &end);
        if (end == p || !std::isfinite(v))
            return false;
        out[i] = v;
        p = end;
    }
    return true;
}
} // namespace

std::optional<glm::vec3> Entity::vec3(std::string_view key) const {
    const std::string_view s = get(key);
    float v[3];
    if (s.empty() || !parseFloats(s, v, 3))
        return std::nullopt;
    return glm::vec3(v[0], v[1], v[2]);
}

std::optional<float> Entity::number(std::string_view key) const {
    const std::string_view s = get(key);
    float v;
    if (s.empty() || !parseFloats(s, &v, 1))
        return std::nullopt;
    return v;
}

glm::vec3 Map::worldMins() const {
    if (!submodels.empty())
        return submodels[0].mins;
    glm::vec3 m(std::numeric_limits<float>::max());
    for (const Vertex& v : vertices)
        m = glm::min(m, v.position);
    return vertices.empty() ? glm::vec3(0.0f) : m;
}

glm::vec3 Map::worldMaxs() const {
    if (!submodels.empty())
        return submodels[0].maxs;
    glm::vec3 m(std::numeric_limits<float>::lowest());
    for (const Vertex& v : vertices)
        m = glm::max(m, v.position);
    return vertices.empty() ? glm::vec3(0.0f) : m;
}

} // namespace bsp
