// Quake-style player movement over physics::CollisionWorld traces, at a fixed tick.
//
// GL-free and deterministic: the same input from the same state gives the same path. One
// algorithm for every game (the engines share their shape: QuakeSpasm sv_user.c / sv_phys.c,
// Quake 2 pmove.c, Quake 3 bg_pmove.c, Xash3D pm_shared.c); what differs is data in MoveRules,
// chosen from what the map's collision says (clip hulls with a crouch hull: Half-Life; clip
// hulls: Quake 1; brushes with the 32-unit box: Quake 2; the 30-unit box: Quake 3).
// docs/movement.md lists every constant with the engine source it comes from.
//
// One tick: crouch / stand up, ground and water level, then one of four moves: a jump out of
// water in progress, swimming (waterlevel 2+: no gravity, liquid friction, jump / crouch swim
// up / down), climbing a ladder, or walking (jump, friction, acceleration towards the wish
// direction, gravity). All end in a slide move (up to four bumps, velocity clipped against
// every plane met) and, when on the ground or in liquid and blocked, the same move stepped up
// by step_height and put back down, kept if it went further.
#pragma once

#include "physics/collision.h"

#include <glm/vec3.hpp>

namespace physics {

struct MoveRules {
    const char* game = "quake";
    glm::vec3 mins{-16, -16, -24}; // standing box around the origin
    glm::vec3 maxs{16, 16, 32};
    bool can_crouch = false;
    glm::vec3 crouch_mins{0.0f}; // crouching box; its mins.z is raised to keep the feet still
    glm::vec3 crouch_maxs{0.0f};
    float crouch_eye = 0.0f;   // eye above the origin while crouched
    float crouch_scale = 1.0f; // of the wish speed while crouched
    float max_speed = 320.0f;
    float accelerate = 10.0f;
    float air_accelerate = 10.0f;
    float air_wish_cap = 30.0f; // wish speed cap in the air (Quake 1, Half-Life); 0: none
    float friction = 4.0f;
    float stop_speed = 100.0f;
    float gravity = 800.0f;
    float jump_speed = 270.0f;
    float step_height = 18.0f;
    float min_walk_normal = 0.7f; // a plane is ground if normal.z >= this

    // Liquids (docs/movement.md "Swimming").
    float view_height = 22.0f;    // standing eye above the origin: the waterlevel 3 sample
    bool waist_from_eye = false;  // waterlevel 2 sample at (mins.z + eye) / 2, else the box middle
    float swim_scale = 0.7f;      // of the wish speed at waterlevel 2+
    bool swim_scale_caps = false; // the wish speed is capped at max_speed x swim_scale, not scaled
    bool wade_scale = false;      // waterlevel 1+ on foot caps the wish speed as Quake 3 does
    float water_accelerate = 10.0f;
    float water_friction = 4.0f;          // speed lost per second: speed x this
    bool water_friction_by_level = false; // ... x waterlevel, and while wading too
    bool water_add_from_speed = true;     // addspeed = wishspeed - |v| (else - v . wishdir)
    float up_speed = 200.0f;              // swim up / down wish speed (upmove)
    bool jump_is_upmove = false;          // the jump key swims up as upmove
    float liquid_jump[3] = {100.0f, 80.0f, 50.0f}; // z speed set by jump in water, slime, lava
    // Jumping out of water at waterlevel 2 facing a ledge.
    bool waterjump_traces = true; // probe with two lines (else two point contents)
    uint32_t waterjump_clear = bsp::kMaskPlayerSolid; // contents the upper point must not have
    float waterjump_up = 225.0f;
    float waterjump_push = 50.0f;    // horizontal speed towards the ledge
    bool waterjump_hold_push = true; // the push is held each tick (else set once)
    float waterjump_gravity = 0.0f;  // times gravity taken during the jump (0: none)
    // Ladders: what marks them is data (contents or surface), the climb is one rule.
    float ladder_speed = 200.0f;     // climbing wish speed
    float ladder_side_speed = 25.0f; // horizontal wish speed cap on a ladder
};

// The rules of the game whose collision data the map carries.
MoveRules moveRulesFor(const bsp::Collision& collision);

struct MoveInput {
    float forward = 0.0f; // -1..1 of max_speed
    float side = 0.0f;    // -1..1, positive to the right
    float yaw = 0.0f;     // degrees, 0 = +x, 90 = +y
    bool jump = false;    // jumps when on the ground, swims or climbs up
    bool crouch = false;  // crouches, and swims or climbs down
    float pitch = 0.0f;   // degrees, > 0 looks down: swimming follows it, ladders read it
};

struct PlayerState {
    glm::vec3 origin{0.0f};
    glm::vec3 velocity{0.0f};
    bool on_ground = false;
    bool crouched = false;
    int waterlevel = 0;     // 0 dry, 1 feet, 2 waist, 3 eyes in liquid (the engines' levels)
    uint32_t watertype = 0; // CollisionContents of the liquid at the feet
    bool on_ladder = false;
    float waterjump_time = 0.0f; // seconds left of a jump out of water (0: none)
    glm::vec3 waterjump_push{0.0f};
};

inline constexpr float kMoveTick = 1.0f / 60.0f;

class PlayerMove {
public:
    PlayerMove(const CollisionWorld& world, const MoveRules& rules);

    const MoveRules& rules() const { return m_rules; }
    glm::vec3 mins(const PlayerState& s) const;
    glm::vec3 maxs(const PlayerState& s) const;
    // True when the player's box at s.origin is outside everything player-solid.
    bool fits(const PlayerState& s) const;
    // Lifts s.origin by whole units, up to step_height, until the box fits (spawn points sit
    // on or a little into the floor: Quake 3 g_client.c SelectSpawnPoint lifts them by 9).
    // Returns whether it fits.
    bool settle(PlayerState& s) const;
    // Stands the player on the floor below: settled, then the standing box traced at most
    // max_drop down (the engines' droptofloor, QuakeSpasm pr_cmds.c PF_droptofloor, traces
    // 256). Returns false, leaving s as it was, when the box is stuck or no floor is in reach.
    bool dropToFloor(PlayerState& s, float max_drop) const;

    // The engines' waterlevel of a player at `origin` (0..3), and in `type` the liquid's
    // CollisionContents at the feet.
    int waterLevel(const glm::vec3& origin, bool crouched, uint32_t* type = nullptr) const;
    // Eye height above the origin, standing or crouched.
    float eye(const PlayerState& s) const;

    // Advances s by one tick of kMoveTick seconds.
    void tick(PlayerState& s, const MoveInput& in) const;

private:
    void categorize(PlayerState& s) const;
    void startWaterJump(PlayerState& s, float yaw) const;
    void waterJumpMove(PlayerState& s) const;
    void swim(PlayerState& s, const MoveInput& in) const;
    bool onLadder(const PlayerState& s, float yaw) const;
    void climb(PlayerState& s, const MoveInput& in) const;
    void walk(PlayerState& s, const MoveInput& in) const;
    void updateCrouch(PlayerState& s, bool want) const;
    // Moves s.origin by s.velocity * dt, sliding along what it meets; returns true if blocked.
    bool slideMove(PlayerState& s, float dt) const;
    void stepSlideMove(PlayerState& s, float dt) const;

    const CollisionWorld* m_world;
    MoveRules m_rules;
};

} // namespace physics
