#include "app/walk_mode.h"

#include <algorithm>

namespace app {

std::optional<glm::vec3> dropEyeToFloor(const bsp::Map& map, const glm::vec3& eye) {
    if (map.collision.kind == bsp::CollisionKind::None)
        return std::nullopt;
    const physics::CollisionWorld world(map);
    const physics::PlayerMove move(world, physics::moveRulesFor(map.collision));
    physics::PlayerState s;
    s.origin = eye - glm::vec3(0.0f, 0.0f, map.eye_height);
    if (!move.dropToFloor(s, s.origin.z - map.worldMins().z + 64.0f))
        return std::nullopt;
    return s.origin + glm::vec3(0.0f, 0.0f, map.eye_height);
}

std::string walkModeNotice(const bsp::Map& map) {
    const bsp::Collision& c = map.collision;
    if (c.kind != bsp::CollisionKind::Hulls || c.clipnodes.empty())
        return {}; // no clip hulls at all: the load warning says so
    // A solid brush model with an empty clip hull (CONTENTS_EMPTY at its head): the file put its
    // head at the clipnode count, which the parser reads as Xash3D does.
    size_t n = 0;
    for (size_t m = 1; m < c.models.size(); ++m)
        for (size_t h = 1; h < c.hulls.size() && h < 4; ++h)
            if (c.models[m].solid && c.models[m].heads[h] == -1) {
                ++n;
                break;
            }
    if (n == 0)
        return {};
    return "walk: " + std::to_string(n) + (n == 1 ? " brush model" : " brush models") +
           " with empty clip hulls in the file: the player passes through (see the warnings)";
}

bool WalkMode::begin(const bsp::Map& map, const scene::Camera& cam) {
    end();
    if (map.collision.kind == bsp::CollisionKind::None)
        return false;
    m_map = &map;
    m_world = std::make_unique<physics::CollisionWorld>(map);
    m_move = std::make_unique<physics::PlayerMove>(*m_world, physics::moveRulesFor(map.collision));
    m_eye_height = map.eye_height;
    m_state = physics::PlayerState();
    m_state.origin = cam.position - glm::vec3(0.0f, 0.0f, m_eye_height);
    m_move->settle(m_state);
    m_eye = cam.position;
    return true;
}

void WalkMode::end() {
    m_move.reset();
    m_world.reset();
    m_map = nullptr;
    m_pending = 0.0f;
}

void WalkMode::update(const FlyInput& in, float dt, scene::Camera& cam) {
    if (!active())
        return;
    if (cam.position != m_eye) {
        m_state = physics::PlayerState();
        m_state.origin = cam.position - glm::vec3(0.0f, 0.0f, m_eye_height);
        m_move->settle(m_state);
    }
    physics::MoveInput mi;
    mi.forward = float(in.forward) - float(in.back);
    mi.side = float(in.right) - float(in.left);
    mi.yaw = cam.yaw;
    mi.pitch = cam.pitch; // swimming follows the view
    mi.jump = in.up;
    mi.crouch = in.down;
    m_pending = std::min(m_pending + std::max(dt, 0.0f), kMaxTicksPerUpdate * physics::kMoveTick);
    while (m_pending >= physics::kMoveTick) {
        m_move->tick(m_state, mi);
        m_pending -= physics::kMoveTick;
    }
    const float eye = m_state.crouched ? m_move->rules().crouch_eye : m_eye_height;
    cam.position = m_state.origin + glm::vec3(0.0f, 0.0f, eye);
    m_eye = cam.position;
}

} // namespace app
