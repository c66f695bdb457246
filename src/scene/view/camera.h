// The viewer camera in the Quake convention, and its matrices for OpenGL.
//
// Quake convention (README "Camera"): +Z up, yaw 0 looks along +X and 90 along +Y, positive
// pitch looks down, fov is horizontal in degrees; the position is the eye.
#pragma once

#include <glm/mat4x4.hpp>
#include <glm/vec3.hpp>

namespace scene {

struct Camera {
    glm::vec3 position{0.0f};
    float pitch = 0.0f; // degrees, > 0 looks down
    float yaw = 0.0f;   // degrees, counter-clockwise seen from above, 0 = +X
    float fov_x = 90.0f;
    float aspect = 16.0f / 9.0f; // width / height
    float z_near = 4.0f;
    float z_far = 16384.0f;

    glm::vec3 forward() const;
    glm::vec3 right() const;
    glm::vec3 up() const;
    float fovY() const; // vertical fov in degrees from fov_x and aspect

    glm::mat4 view() const;       // world -> eye (OpenGL: looking down -Z)
    glm::mat4 projection() const; // eye -> clip
    glm::mat4 viewProjection() const { return projection() * view(); }
};

// A far plane that covers the whole world from any point inside its bounds.
float farPlaneForBounds(const glm::vec3& mins, const glm::vec3& maxs);

// The camera for a map without spawn points: above the box [mins, maxs] on its -X -Y side
// (yaw 45, pitch 30 down), looking at its centre from far enough that a view 90 degrees across
// at 16:9 holds the box's bounding sphere, as an editor's first 3D view shows a level. Callers
// pass the bounds of the architecture (no sky, no tool faces), so a test map's sky room does not
// hide what it holds. mins > maxs (nothing to look at) gives the default camera at the origin.
Camera overviewCamera(const glm::vec3& mins, const glm::vec3& maxs);

} // namespace scene
