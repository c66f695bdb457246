#include "scene/player_move.h"

#include <glm/geometric.hpp>
#include <glm/trigonometric.hpp>

#include <algorithm>
#include <cmath>

namespace scene {

namespace {

constexpr int kMaxBumps = 4;          // QuakeSpasm sv_phys.c SV_FlyMove numbumps, bg_pmove MAX_CLIP
constexpr int kMaxClipPlanes = 5;     // sv_phys.c MAX_CLIP_PLANES
constexpr float kStopEpsilon = 0.1f;  // sv_phys.c STOP_EPSILON: velocity parts this small stop
constexpr float kGroundProbe = 0.25f; // bg_pmove.c PM_GroundTrace looks this far down

// sv_phys.c ClipVelocity with overbounce 1: the part of v into the plane is removed.
glm::vec3 clipVelocity(const glm::vec3& v, const glm::vec3& normal) {
    glm::vec3 out = v - normal * glm::dot(v, normal);
    for (int i = 0; i < 3; ++i)
        if (out[i] > -kStopEpsilon && out[i] < kStopEpsilon)
            out[i] = 0.0f;
    return out;
}

float horizontalLength(const glm::vec3& v) {
    return std::sqrt(v.x * v.x + v.y * v.y);
}

// sv_user.c SV_Accelerate / bg_pmove.c PM_Accelerate: add speed along wishdir up to wishspeed.
void accelerate(glm::vec3& velocity, const glm::vec3& wishdir, float wishspeed, float accel,
                float dt) {
    const float add = wishspeed - glm::dot(velocity, wishdir);
    if (add <= 0.0f)
        return;
    velocity += wishdir * std::min(accel * dt * wishspeed, add);
}

} // namespace

MoveRules moveRulesFor(const bsp::Collision& c) {
    MoveRules r;
    const bool has_box = c.hulls.size() > 1;
    if (has_box) {
        r.mins = c.hulls[1].mins;
        r.maxs = c.hulls[1].maxs;
    }
    if (c.kind == bsp::CollisionKind::Hulls && c.hulls.size() > 3) {
        // Half-Life: hull 3 is the crouching box (Xash3D pm_shared.c PM_Duck, VEC_DUCK_VIEW),
        // jump to 45 units (PM_Jump: sqrt(2 * 800 * 45)), ducked speed 0.333.
        r.game = "half-life";
        r.can_crouch = true;
        r.crouch_mins = c.hulls[3].mins;
        r.crouch_maxs = c.hulls[3].maxs;
        r.crouch_eye = 12.0f;
        r.crouch_scale = 0.333f;
        r.jump_speed = std::sqrt(2.0f * 800.0f * 45.0f);
    } else if (c.kind == bsp::CollisionKind::Brushes) {
        // Quake 2 pmove.c and Quake 3 bg_pmove.c: friction 6, air acceleration 1 with no cap.
        r.friction = 6.0f;
        r.air_accelerate = 1.0f;
        r.air_wish_cap = 0.0f;
        r.can_crouch = true;
        r.crouch_mins = r.mins;
        r.crouch_maxs = r.maxs;
        const bool quake3 = has_box && r.maxs.x < 16.0f; // Quake 3's box is 30 wide, Quake 2's 32
        if (quake3) {
            r.game = "quake3"; // PM_CheckDuck maxs[2] 16, CROUCH_VIEWHEIGHT 12, pm_duckScale
            r.crouch_maxs.z = 16.0f;
            r.crouch_eye = 12.0f;
            r.crouch_scale = 0.25f;
        } else {
            r.game = "quake2"; // PM_CheckDuck maxs[2] 4, viewheight -2, pm_duckspeed 100
            r.crouch_maxs.z = 4.0f;
            r.crouch_eye = -2.0f;
            r.crouch_scale = 100.0f / 300.0f;
            r.max_speed = 300.0f; // pm_maxspeed
        }
    }
    return r;
}

PlayerMove::PlayerMove(const CollisionWorld& world, const MoveRules& rules)
    : m_world(&world), m_rules(rules) {}

glm::vec3 PlayerMove::mins(const PlayerState& s) const {
    return s.crouched ? m_rules.crouch_mins : m_rules.mins;
}

glm::vec3 PlayerMove::maxs(const PlayerState& s) const {
    return s.crouched ? m_rules.crouch_maxs : m_rules.maxs;
}

bool PlayerMove::fits(const PlayerState& s) const {
    const TraceResult t = m_world->trace(s.origin, s.origin, mins(s), maxs(s));
    return !t.start_solid;
}

bool PlayerMove::settle(PlayerState& s) const {
    const float z = s.origin.z;
    for (int lift = 0; lift <= int(m_rules.step_height) && !fits(s); ++lift)
        s.origin.z = z + float(lift);
    return fits(s);
}

void PlayerMove::categorize(PlayerState& s) const {
    // bg_pmove.c PM_GroundTrace: a walkable plane just below, and not moving up off it.
    const TraceResult t =
        m_world->trace(s.origin, s.origin - glm::vec3(0, 0, kGroundProbe), mins(s), maxs(s));
    s.on_ground = t.fraction < 1.0f && !t.all_solid &&
                  t.plane.normal.z >= m_rules.min_walk_normal && s.velocity.z <= 0.0f;
    if (s.on_ground)
        s.velocity.z = 0.0f;
}

void PlayerMove::updateCrouch(PlayerState& s, bool want) const {
    if (!m_rules.can_crouch || want == s.crouched)
        return;
    // The feet stay where they are: the origin moves by the difference of the boxes' bottoms
    // (Half-Life's hulls are centred; Quake 2 and 3 keep mins.z and this is 0).
    const float shift = m_rules.crouch_mins.z - m_rules.mins.z;
    PlayerState next = s;
    next.crouched = want;
    next.origin.z += want ? -shift : shift;
    if (want || fits(next)) // standing up needs room above
        s = next;
}

bool PlayerMove::slideMove(PlayerState& s, float dt) const {
    // sv_phys.c SV_FlyMove: move, and on each hit clip the velocity so that it runs along every
    // plane met this tick; two planes leave their crease, three or more stop the player.
    const glm::vec3 primal = s.velocity;
    glm::vec3 original = s.velocity;
    glm::vec3 planes[kMaxClipPlanes];
    int num_planes = 0;
    float time_left = dt;
    bool blocked = false;
    const glm::vec3 lo = mins(s), hi = maxs(s);
    for (int bump = 0; bump < kMaxBumps; ++bump) {
        if (s.velocity == glm::vec3(0.0f))
            break;
        const TraceResult t = m_world->trace(s.origin, s.origin + s.velocity * time_left, lo, hi);
        if (t.all_solid) { // stuck: stop rather than move through
            s.velocity = glm::vec3(0.0f);
            return true;
        }
        if (t.fraction > 0.0f) {
            s.origin = t.end_pos;
            original = s.velocity;
            num_planes = 0;
        }
        if (t.fraction >= 1.0f)
            break;
        blocked = true;
        time_left -= time_left * t.fraction;
        if (num_planes >= kMaxClipPlanes) {
            s.velocity = glm::vec3(0.0f);
            break;
        }
        planes[num_planes++] = t.plane.normal;
        int i = 0;
        for (; i < num_planes; ++i) {
            const glm::vec3 v = clipVelocity(original, planes[i]);
            int j = 0;
            for (; j < num_planes; ++j)
                if (j != i && glm::dot(v, planes[j]) < 0.0f)
                    break;
            if (j == num_planes) {
                s.velocity = v;
                break;
            }
        }
        if (i == num_planes) {
            if (num_planes != 2) {
                s.velocity = glm::vec3(0.0f);
                break;
            }
            const glm::vec3 crease = glm::cross(planes[0], planes[1]);
            s.velocity = crease * glm::dot(crease, s.velocity);
        }
        // Never bounce back against the tick's first direction (sv_phys.c "avoid tiny
        // occilations in sloping corners").
        if (glm::dot(s.velocity, primal) <= 0.0f) {
            s.velocity = glm::vec3(0.0f);
            break;
        }
    }
    return blocked;
}

void PlayerMove::stepSlideMove(PlayerState& s, float dt) const {
    const PlayerState start = s;
    if (!slideMove(s, dt) || !start.on_ground)
        return;
    // sv_phys.c SV_WalkMove / bg_pmove.c PM_StepSlideMove: blocked on the ground, so try the
    // same move from step_height higher and put it back down; keep it if it went further and
    // landed on walkable ground.
    const glm::vec3 lo = mins(start), hi = maxs(start);
    PlayerState up = start;
    const TraceResult rise =
        m_world->trace(start.origin, start.origin + glm::vec3(0, 0, m_rules.step_height), lo, hi);
    if (rise.all_solid)
        return;
    up.origin = rise.end_pos;
    slideMove(up, dt);
    const float raised = rise.end_pos.z - start.origin.z;
    const TraceResult down = m_world->trace(up.origin, up.origin - glm::vec3(0, 0, raised), lo, hi);
    if (down.all_solid || down.fraction >= 1.0f || down.plane.normal.z < m_rules.min_walk_normal)
        return;
    up.origin = down.end_pos;
    if (horizontalLength(up.origin - start.origin) > horizontalLength(s.origin - start.origin)) {
        s.origin = up.origin;
        s.velocity = up.velocity;
    }
}

void PlayerMove::tick(PlayerState& s, const MoveInput& in) const {
    const float dt = kMoveTick;
    updateCrouch(s, in.crouch);
    categorize(s);
    if (in.jump && s.on_ground) {
        s.velocity.z = m_rules.jump_speed;
        s.on_ground = false;
    }

    if (s.on_ground) { // sv_user.c SV_UserFriction, on the horizontal speed
        const float speed = horizontalLength(s.velocity);
        if (speed > 0.0f) {
            const float control = std::max(speed, m_rules.stop_speed);
            const float next = std::max(speed - control * m_rules.friction * dt, 0.0f);
            s.velocity.x *= next / speed;
            s.velocity.y *= next / speed;
        }
    }

    const float yaw = glm::radians(in.yaw);
    const glm::vec3 forward(std::cos(yaw), std::sin(yaw), 0.0f);
    const glm::vec3 right(std::sin(yaw), -std::cos(yaw), 0.0f);
    const glm::vec3 wish =
        (forward * std::clamp(in.forward, -1.0f, 1.0f) + right * std::clamp(in.side, -1.0f, 1.0f)) *
        m_rules.max_speed;
    float wishspeed = std::min(glm::length(wish), m_rules.max_speed);
    if (wishspeed > 0.0f) {
        const glm::vec3 wishdir = glm::normalize(wish);
        if (s.crouched)
            wishspeed *= m_rules.crouch_scale;
        if (s.on_ground) {
            accelerate(s.velocity, wishdir, wishspeed, m_rules.accelerate, dt);
        } else {
            // sv_user.c SV_AirAccelerate caps the wish speed at 30 but accelerates by the full
            // one; Quake 2 / 3 accelerate by 1 without a cap.
            const float capped =
                m_rules.air_wish_cap > 0.0f ? std::min(wishspeed, m_rules.air_wish_cap) : wishspeed;
            const float add = capped - glm::dot(s.velocity, wishdir);
            if (add > 0.0f)
                s.velocity += wishdir * std::min(m_rules.air_accelerate * dt * wishspeed, add);
        }
    }

    if (!s.on_ground) // sv_phys.c SV_AddGravity, before the move
        s.velocity.z -= m_rules.gravity * dt;

    stepSlideMove(s, dt);
    categorize(s);
}

} // namespace scene
