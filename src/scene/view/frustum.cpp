#include "scene/view/frustum.h"

#include <glm/geometric.hpp>

namespace scene {

Frustum Frustum::fromMatrix(const glm::mat4& m) {
    // Gribb & Hartmann: each plane is row 3 +/- row i of the matrix (glm is column-major).
    auto row = [&](int i) { return glm::vec4(m[0][i], m[1][i], m[2][i], m[3][i]); };
    Frustum f;
    f.planes[0] = row(3) + row(0); // left
    f.planes[1] = row(3) - row(0); // right
    f.planes[2] = row(3) + row(1); // bottom
    f.planes[3] = row(3) - row(1); // top
    f.planes[4] = row(3) + row(2); // near
    f.planes[5] = row(3) - row(2); // far
    for (glm::vec4& p : f.planes) {
        const float len = glm::length(glm::vec3(p));
        if (len > 0.0f)
            p /= len;
    }
    return f;
}

Frustum Frustum::withoutFarPlane() const {
    Frustum f = *this;
    f.planes[5] = glm::vec4(0.0f, 0.0f, 0.0f, 1.0f);
    return f;
}

bool Frustum::intersectsBox(const glm::vec3& mins, const glm::vec3& maxs) const {
    for (const glm::vec4& p : planes) {
        // The box corner furthest along the plane normal.
        const glm::vec3 v(p.x >= 0.0f ? maxs.x : mins.x, p.y >= 0.0f ? maxs.y : mins.y,
                          p.z >= 0.0f ? maxs.z : mins.z);
        if (p.x * v.x + p.y * v.y + p.z * v.z + p.w < 0.0f)
            return false;
    }
    return true;
}

} // namespace scene
