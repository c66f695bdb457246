// Walk mode (V, the engines' noclip habit in reverse): the camera is a player's eye, moved by
// physics::PlayerMove over the map's own collision at the fixed 60 Hz tick. Independent of SDL so
// it can be tested: the viewer feeds it the fly camera's key states.
#pragma once

#include "app/fly_camera.h"
#include "physics/collision.h"
#include "physics/player_move.h"

#include <memory>
#include <optional>
#include <string>

namespace app {

// "Drop to floor" (G, and teleports when the overlay's "teleports drop to floor" is on): the
// eye of the game's player standing on the floor below `eye` (the floor + Map::eye_height),
// lifted out of the floor by up to a step if it starts in it; nullopt when the map has no
// collision data, the player box is stuck there, or no floor is below inside the map's bounds.
std::optional<glm::vec3> dropEyeToFloor(const bsp::Map& map, const glm::vec3& eye);

// What walk mode tells the user when it starts in `map`: the solid brush models of a clip-hull
// map it walks through because a clip hull of theirs is empty (ZHLT writes the clipnode count as
// the head, which the parser reads as empty, with a load warning naming the model), or "".
std::string walkModeNotice(const bsp::Map& map);

class WalkMode {
public:
    // Starts walking in `map` from the camera's eye (origin = eye - the game's eye height,
    // lifted out of the floor if it starts in it). The map must outlive the walk or end() it.
    // Returns false, and stays off, when the map has no collision data.
    bool begin(const bsp::Map& map, const scene::Camera& cam);
    void end();
    bool active() const { return m_world != nullptr; }
    const bsp::Map* map() const { return m_map; }
    const physics::PlayerState& state() const { return m_state; }

    // Runs the whole ticks due after dt seconds (at most kMaxTicksPerUpdate, so a stall does
    // not turn into a burst): WASD walk along the camera's yaw, up (Space/E) jumps, down
    // (Ctrl/Q) crouches. Moves cam to the eye; its angles are left to the fly camera. A camera
    // moved since the last update (spawn, bookmark, go-to) restarts the walk where it is.
    void update(const FlyInput& in, float dt, scene::Camera& cam);

    static constexpr int kMaxTicksPerUpdate = 12;

private:
    const bsp::Map* m_map = nullptr;
    std::unique_ptr<physics::CollisionWorld> m_world;
    std::unique_ptr<physics::PlayerMove> m_move;
    physics::PlayerState m_state;
    float m_eye_height = 0.0f;
    glm::vec3 m_eye{0.0f};  // where the last update put the camera
    float m_pending = 0.0f; // seconds not yet run as ticks
};

} // namespace app
