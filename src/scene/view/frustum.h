// View frustum planes and box tests.
#pragma once

#include <array>
#include <glm/mat4x4.hpp>
#include <glm/vec3.hpp>
#include <glm/vec4.hpp>

namespace scene {

struct Frustum {
    // Planes as (normal, d) with normal pointing inside: dot(n, p) + d >= 0 inside.
    std::array<glm::vec4, 6> planes{};

    // Extracts the planes of a view-projection matrix (OpenGL clip space, -w <= z <= w).
    static Frustum fromMatrix(const glm::mat4& view_projection);

    // False only when the box is entirely outside one plane (conservative).
    bool intersectsBox(const glm::vec3& mins, const glm::vec3& maxs) const;

    // The same frustum with no far plane (its plane passes everything): what lies beyond the
    // far plane but inside the other five.
    Frustum withoutFarPlane() const;
};

} // namespace scene
