#include "scene/view/camera.h"

#include <algorithm>
#include <cmath>
#include <glm/geometric.hpp>
#include <glm/gtc/matrix_transform.hpp>
#include <glm/trigonometric.hpp>

namespace scene {

glm::vec3 Camera::forward() const {
    const float p = glm::radians(pitch), y = glm::radians(yaw);
    return {std::cos(p) * std::cos(y), std::cos(p) * std::sin(y), -std::sin(p)};
}

glm::vec3 Camera::right() const {
    // AngleVectors with roll 0: right = (sin(yaw), -cos(yaw), 0).
    const float y = glm::radians(yaw);
    return {std::sin(y), -std::cos(y), 0.0f};
}

glm::vec3 Camera::up() const {
    return glm::cross(right(), forward());
}

float Camera::fovY() const {
    const float half = std::tan(glm::radians(fov_x) * 0.5f) / aspect;
    return glm::degrees(2.0f * std::atan(half));
}

glm::mat4 Camera::view() const {
    const glm::vec3 f = forward(), r = right(), u = up();
    glm::mat4 m(1.0f);
    // Rows of the rotation are the eye axes: x = right, y = up, z = -forward.
    m[0][0] = r.x;
    m[1][0] = r.y;
    m[2][0] = r.z;
    m[0][1] = u.x;
    m[1][1] = u.y;
    m[2][1] = u.z;
    m[0][2] = -f.x;
    m[1][2] = -f.y;
    m[2][2] = -f.z;
    m[3][0] = -glm::dot(r, position);
    m[3][1] = -glm::dot(u, position);
    m[3][2] = glm::dot(f, position);
    return m;
}

glm::mat4 Camera::projection() const {
    return glm::perspective(glm::radians(fovY()), aspect, z_near, z_far);
}

float farPlaneForBounds(const glm::vec3& mins, const glm::vec3& maxs) {
    const float diag = glm::length(maxs - mins);
    return std::max(4096.0f, diag * 1.05f + 64.0f);
}

Camera overviewCamera(const glm::vec3& mins, const glm::vec3& maxs) {
    Camera cam;
    if (mins.x > maxs.x || mins.y > maxs.y || mins.z > maxs.z)
        return cam;
    cam.pitch = 30.0f;
    cam.yaw = 45.0f;
    const glm::vec3 centre = (mins + maxs) * 0.5f;
    const float radius = std::max(glm::length(maxs - mins) * 0.5f, 64.0f);
    // The sphere about the box fits a view whose narrower half-angle is a: distance r / sin(a).
    // 90 degrees across at 16:9 is 58.7 degrees high (a = 29.4, 1 / sin(a) = 2.04); wider
    // pictures crop the sphere's top and bottom a little.
    const float distance = radius * 2.1f;
    cam.position = centre - cam.forward() * distance;
    cam.z_far = std::max(farPlaneForBounds(mins, maxs), distance + radius * 1.05f + 64.0f);
    return cam;
}

} // namespace scene
