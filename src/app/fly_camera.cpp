#include "app/fly_camera.h"

#include <algorithm>
#include <cmath>
#include <glm/geometric.hpp>

namespace app {

void FlyCamera::update(const FlyInput& in, float dt) {
    camera.yaw -= in.mouse_dx * sensitivity;
    camera.pitch = std::clamp(camera.pitch + in.mouse_dy * sensitivity, -89.0f, 89.0f);
    camera.yaw = std::fmod(camera.yaw, 360.0f);
    if (camera.yaw < 0.0f)
        camera.yaw += 360.0f;
    glm::vec3 move(0.0f);
    const glm::vec3 f = camera.forward();
    const glm::vec3 r = camera.right();
    if (in.forward)
        move += f;
    if (in.back)
        move -= f;
    if (in.right)
        move += r;
    if (in.left)
        move -= r;
    if (in.up)
        move.z += 1.0f;
    if (in.down)
        move.z -= 1.0f;
    if (glm::dot(move, move) > 0.0f)
        camera.position += glm::normalize(move) * speed * (in.fast ? 3.0f : 1.0f) * dt;
}

void FlyCamera::changeSpeed(float steps) {
    speed = std::clamp(speed * std::pow(1.25f, steps), 16.0f, 20000.0f);
}

void CtrlChord::pressed(const scene::Camera& now) {
    m_before = now;
    m_held = true;
    m_chorded = false;
}

void CtrlChord::released() {
    m_held = false;
    m_chorded = false;
}

scene::Camera CtrlChord::chord(const scene::Camera& now) {
    scene::Camera cam = now;
    if (m_held && !m_chorded) {
        // Ctrl's descent moves only the height: a turn or a move made meanwhile stays.
        cam.position.z = m_before.position.z;
        m_chorded = true;
    }
    return cam;
}

} // namespace app
