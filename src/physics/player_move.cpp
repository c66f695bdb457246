#include "physics/player_move.h"

#include <glm/geometric.hpp>
#include <glm/trigonometric.hpp>

#include <algorithm>
#include <cmath>

namespace physics {

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
    MoveRules r; // Quake 1 (QuakeSpasm sv_user.c, client.qc): the defaults
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
        r.view_height = 28.0f; // VEC_VIEW
        r.swim_scale = 0.8f;   // PM_WaterMove
        r.up_speed = 320.0f;   // cl_upspeed
    } else if (c.kind == bsp::CollisionKind::Brushes && has_box && r.mins.z == 0.0f) {
        // Source (its box starts at the feet; Source SDK 2013 game/shared/gamemovement.cpp,
        // which keeps Half-Life's pm_shared.c movement): ducked box VEC_DUCK_HULL_MAX 16 16 36
        // and view VEC_DUCK_VIEW 28 (gamerules.cpp g_DefaultViewVectors), FinishDuck's speed
        // 0.33333, CheckJump's 268.3281572999747 (sqrt(2 * 800 * 45); Half-Life 2 itself jumps
        // lower), sv_gravity 800 (Team Fortress 2 and Counter-Strike), VEC_VIEW 64.
        r.game = "source";
        r.can_crouch = true;
        r.crouch_mins = r.mins;
        r.crouch_maxs = glm::vec3(r.maxs.x, r.maxs.y, 36.0f);
        r.crouch_eye = 28.0f;
        r.crouch_scale = 0.33333f;
        r.jump_speed = std::sqrt(2.0f * 800.0f * 45.0f);
        r.view_height = 64.0f;
    } else if (c.kind == bsp::CollisionKind::Brushes) {
        // Quake 2 pmove.c and Quake 3 bg_pmove.c: friction 6, air acceleration 1 with no cap.
        r.friction = 6.0f;
        r.air_accelerate = 1.0f;
        r.air_wish_cap = 0.0f;
        r.can_crouch = true;
        r.crouch_mins = r.mins;
        r.crouch_maxs = r.maxs;
        // Both: PM_CatagorizePosition / PM_SetWaterLevel sample the waist halfway to the eye,
        // pm_waterfriction 1 x waterlevel, PM_Accelerate, the jump key is upmove, the water
        // jump probes two points (PM_CheckSpecialMovement / PM_CheckWaterJump) and falls.
        r.waist_from_eye = true;
        r.swim_scale = 0.5f;
        r.water_friction = 1.0f;
        r.water_friction_by_level = true;
        r.water_add_from_speed = false;
        r.jump_is_upmove = true;
        r.waterjump_traces = false;
        r.waterjump_up = 350.0f;
        r.waterjump_hold_push = false;
        const bool quake3 = has_box && r.maxs.x < 16.0f; // Quake 3's box is 30 wide, Quake 2's 32
        if (quake3) {
            r.game = "quake3"; // PM_CheckDuck maxs[2] 16, CROUCH_VIEWHEIGHT 12, pm_duckScale
            r.crouch_maxs.z = 16.0f;
            r.crouch_eye = 12.0f;
            r.crouch_scale = 0.25f;
            r.view_height = 26.0f;     // DEFAULT_VIEWHEIGHT
            r.swim_scale_caps = true;  // PM_WaterMove: wishspeed capped at speed * swimScale
            r.wade_scale = true;       // PM_WalkMove: waterScale
            r.water_accelerate = 4.0f; // pm_wateraccelerate
            r.up_speed = r.max_speed;  // PM_CmdScale: upmove 127 alone wishes g_speed
            r.liquid_jump[0] = r.liquid_jump[1] = r.liquid_jump[2] = 0.0f; // PM_CheckJump
            r.waterjump_push = 200.0f;                                     // PM_CheckWaterJump
            r.waterjump_gravity = 2.0f; // PM_WaterJumpMove: PM_StepSlideMove(qtrue), then again
        } else {
            r.game = "quake2"; // PM_CheckDuck maxs[2] 4, viewheight -2, pm_duckspeed 100
            r.crouch_maxs.z = 4.0f;
            r.crouch_eye = -2.0f;
            r.crouch_scale = 100.0f / 300.0f;
            r.max_speed = 300.0f;       // pm_maxspeed
            r.waterjump_clear = ~0u;    // "if (cont) return": any contents stop it
            r.waterjump_gravity = 1.0f; // Pmove, PMF_TIME_WATERJUMP
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

bool PlayerMove::dropToFloor(PlayerState& s, float max_drop) const {
    PlayerState t;
    t.origin = s.origin;
    if (!settle(t) || !(max_drop >= 0.0f))
        return false;
    const TraceResult down =
        m_world->trace(t.origin, t.origin - glm::vec3(0, 0, max_drop), mins(t), maxs(t));
    if (down.start_solid || down.fraction >= 1.0f)
        return false;
    t.origin = down.end_pos;
    categorize(t);
    s = t;
    return true;
}

float PlayerMove::eye(const PlayerState& s) const {
    return s.crouched ? m_rules.crouch_eye : m_rules.view_height;
}

int PlayerMove::waterLevel(const glm::vec3& origin, bool crouched, uint32_t* type) const {
    // QuakeSpasm sv_phys.c SV_CheckWater, pmove.c PM_CatagorizePosition, bg_pmove.c
    // PM_SetWaterLevel, pm_shared.c PM_CheckWater: the feet (1 above the box's bottom), the
    // waist and the eye, each in liquid or not.
    PlayerState s;
    s.crouched = crouched;
    const float bottom = mins(s).z, eye_z = eye(s);
    const float waist =
        m_rules.waist_from_eye ? (bottom + eye_z) * 0.5f : (bottom + maxs(s).z) * 0.5f;
    auto liquid = [&](float dz) {
        return m_world->pointContents(origin + glm::vec3(0.0f, 0.0f, dz)) & bsp::kMaskLiquid;
    };
    const uint32_t feet = liquid(bottom + 1.0f);
    if (type)
        *type = feet;
    if (!feet)
        return 0;
    if (!liquid(waist))
        return 1;
    return liquid(eye_z) ? 3 : 2;
}

void PlayerMove::categorize(PlayerState& s) const {
    // bg_pmove.c PM_GroundTrace: a walkable plane just below, and not moving up off it.
    const TraceResult t =
        m_world->trace(s.origin, s.origin - glm::vec3(0, 0, kGroundProbe), mins(s), maxs(s));
    s.on_ground = t.fraction < 1.0f && !t.all_solid &&
                  t.plane.normal.z >= m_rules.min_walk_normal && s.velocity.z <= 0.0f;
    if (s.on_ground)
        s.velocity.z = 0.0f;
    s.waterlevel = waterLevel(s.origin, s.crouched, &s.watertype);
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
    if (!slideMove(s, dt) || (!start.on_ground && start.waterlevel == 0))
        return;
    // sv_phys.c SV_WalkMove / bg_pmove.c PM_StepSlideMove: blocked on the ground (or in liquid:
    // SV_WalkMove "don't stair up while jumping" only out of water), so try the same move from
    // step_height higher and put it back down; keep it if it went further and landed on
    // walkable ground.
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

namespace {

// Quake angles (pitch > 0 looks down, yaw 0 = +x): the view's forward and right vectors.
glm::vec3 forwardOf(float yaw_deg, float pitch_deg) {
    const float y = glm::radians(yaw_deg), p = glm::radians(pitch_deg);
    return {std::cos(p) * std::cos(y), std::cos(p) * std::sin(y), -std::sin(p)};
}

glm::vec3 rightOf(float yaw_deg) {
    const float y = glm::radians(yaw_deg);
    return {std::sin(y), -std::cos(y), 0.0f};
}

float upInput(const MoveInput& in, bool jump_counts) {
    return (jump_counts && in.jump ? 1.0f : 0.0f) - (in.crouch ? 1.0f : 0.0f);
}

// Scales v so that its length drops by `drop` (not below 0).
void applyDrop(glm::vec3& v, float speed, float drop) {
    if (speed <= 0.0f)
        return;
    v *= std::max(speed - drop, 0.0f) / speed;
}

} // namespace

void PlayerMove::startWaterJump(PlayerState& s, float yaw) const {
    const glm::vec3 flat = forwardOf(yaw, 0.0f);
    glm::vec3 push;
    if (m_rules.waterjump_traces) {
        // client.qc CheckWaterJump, pm_shared.c PM_CheckWaterJump: a line 8 above the origin
        // meets a wall within 24, the same line at the top of the box does not; the push is
        // into that wall.
        const glm::vec3 zero(0.0f), low = s.origin + glm::vec3(0, 0, 8);
        const TraceResult wall =
            m_world->trace(low, low + flat * 24.0f, zero, zero, bsp::kCollideSolid);
        if (wall.start_solid || wall.fraction >= 1.0f)
            return;
        const glm::vec3 high = s.origin + glm::vec3(0, 0, maxs(s).z);
        if (m_world->trace(high, high + flat * 24.0f, zero, zero, bsp::kCollideSolid).hit())
            return;
        push = -m_rules.waterjump_push * glm::vec3(wall.plane.normal.x, wall.plane.normal.y, 0);
    } else {
        // pmove.c PM_CheckSpecialMovement, bg_pmove.c PM_CheckWaterJump: solid 30 ahead at
        // 4 above the origin, clear 16 higher.
        glm::vec3 spot = s.origin + flat * 30.0f + glm::vec3(0, 0, 4);
        if (!(m_world->pointContents(spot) & bsp::kCollideSolid))
            return;
        spot.z += 16.0f;
        if (m_world->pointContents(spot) & m_rules.waterjump_clear)
            return;
        push = flat * m_rules.waterjump_push;
    }
    s.velocity = glm::vec3(push.x, push.y, m_rules.waterjump_up);
    s.waterjump_push = push;
    s.waterjump_time = 2.0f; // teleport_time + 2, pm_time 255 x 8 ms, pm_time 2000 ms
}

void PlayerMove::waterJumpMove(PlayerState& s) const {
    const float dt = kMoveTick;
    if (m_rules.waterjump_hold_push) { // sv_user.c SV_WaterJump
        s.velocity.x = s.waterjump_push.x;
        s.velocity.y = s.waterjump_push.y;
    }
    s.velocity.z -= m_rules.gravity * m_rules.waterjump_gravity * dt;
    slideMove(s, dt); // SV_WalkMove does not step during FL_WATERJUMP
    s.waterjump_time -= dt;
    // Quake 1 / Half-Life end it out of the water, Quake 2 / 3 once falling; 2 s at most.
    const bool over = m_rules.waterjump_gravity > 0.0f ? s.velocity.z < 0.0f
                                                       : waterLevel(s.origin, s.crouched) == 0;
    if (over || s.waterjump_time <= 0.0f)
        s.waterjump_time = 0.0f;
}

void PlayerMove::swim(PlayerState& s, const MoveInput& in) const {
    const float dt = kMoveTick;
    // Jump in liquid sets the rising speed (client.qc PlayerJump, pm_shared.c PM_Jump,
    // pmove.c PM_CheckJump): water, slime, lava.
    if (in.jump) {
        const int k = (s.watertype & bsp::kCollideWater)   ? 0
                      : (s.watertype & bsp::kCollideSlime) ? 1
                                                           : 2;
        if (m_rules.liquid_jump[k] > 0.0f)
            s.velocity.z = m_rules.liquid_jump[k];
    }
    // sv_user.c SV_WaterMove, pmove.c / bg_pmove.c PM_WaterMove: along the view, pitch
    // included; no input drifts down at 60.
    const float fmove = std::clamp(in.forward, -1.0f, 1.0f) * m_rules.max_speed;
    const float smove = std::clamp(in.side, -1.0f, 1.0f) * m_rules.max_speed;
    const float up = upInput(in, m_rules.jump_is_upmove);
    glm::vec3 wish = forwardOf(in.yaw, in.pitch) * fmove + rightOf(in.yaw) * smove;
    if (fmove == 0.0f && smove == 0.0f && up == 0.0f)
        wish.z -= 60.0f;
    else
        wish.z += up * m_rules.up_speed;
    float wishspeed = std::min(glm::length(wish), m_rules.max_speed);
    wishspeed = m_rules.swim_scale_caps
                    ? std::min(wishspeed, m_rules.max_speed * m_rules.swim_scale)
                    : wishspeed * m_rules.swim_scale;

    const float speed = glm::length(s.velocity);
    const float level = m_rules.water_friction_by_level ? float(s.waterlevel) : 1.0f;
    applyDrop(s.velocity, speed, speed * m_rules.water_friction * level * dt);
    if (wishspeed > 0.0f) {
        const glm::vec3 wishdir = glm::normalize(wish);
        const float current =
            m_rules.water_add_from_speed ? glm::length(s.velocity) : glm::dot(s.velocity, wishdir);
        const float add = wishspeed - current;
        if (add > 0.0f)
            s.velocity += wishdir * std::min(m_rules.water_accelerate * wishspeed * dt, add);
    }
    stepSlideMove(s, dt); // no gravity at waterlevel 2+
}

bool PlayerMove::onLadder(const PlayerState& s, float yaw) const {
    // pmove.c PM_CheckSpecialMovement: the box moved 1 unit ahead meets something marked as a
    // ladder (Quake 2 CONTENTS_LADDER brushes, Quake 3 SURF_LADDER sides, Half-Life func_ladder
    // volumes: bsp::kCollideLadder in the trace's contents).
    const TraceResult t = m_world->trace(s.origin, s.origin + forwardOf(yaw, 0.0f), mins(s),
                                         maxs(s), bsp::kMaskPlayerSolid | bsp::kCollideLadder);
    return t.hit() && (t.contents & bsp::kCollideLadder);
}

void PlayerMove::climb(PlayerState& s, const MoveInput& in) const {
    // pmove.c PM_AddCurrents and PM_AirMove with pml.ladder: look up / down or jump / crouch
    // to climb at 200, sideways at most 25, friction as on the ground (PM_Friction), and
    // without a climb input the vertical speed decays to 0 by gravity.
    const float dt = kMoveTick;
    if (in.jump && s.on_ground)
        s.velocity.z = m_rules.jump_speed;
    const float fmove = std::clamp(in.forward, -1.0f, 1.0f) * m_rules.max_speed;
    const float smove = std::clamp(in.side, -1.0f, 1.0f) * m_rules.max_speed;
    glm::vec3 wish = forwardOf(in.yaw, 0.0f) * fmove + rightOf(in.yaw) * smove;
    if (std::abs(s.velocity.z) <= m_rules.ladder_speed) {
        const float up = upInput(in, true);
        const float c = m_rules.ladder_speed;
        wish.z = in.pitch <= -15.0f && fmove > 0.0f  ? c
                 : in.pitch >= 15.0f && fmove > 0.0f ? -c
                                                     : up * c;
        wish.x = std::clamp(wish.x, -m_rules.ladder_side_speed, m_rules.ladder_side_speed);
        wish.y = std::clamp(wish.y, -m_rules.ladder_side_speed, m_rules.ladder_side_speed);
    }
    const float speed = glm::length(s.velocity);
    applyDrop(s.velocity, speed, std::max(speed, m_rules.stop_speed) * m_rules.friction * dt);
    const float wishspeed = std::min(glm::length(wish), m_rules.max_speed);
    if (wishspeed > 0.0f)
        accelerate(s.velocity, glm::normalize(wish), wishspeed, m_rules.accelerate, dt);
    if (wish.z == 0.0f) {
        const float g = m_rules.gravity * dt;
        s.velocity.z = s.velocity.z > 0.0f ? std::max(s.velocity.z - g, 0.0f)
                                           : std::min(s.velocity.z + g, 0.0f);
    }
    stepSlideMove(s, dt);
}

void PlayerMove::walk(PlayerState& s, const MoveInput& in) const {
    const float dt = kMoveTick;
    if (in.jump && s.on_ground) {
        s.velocity.z = m_rules.jump_speed;
        s.on_ground = false;
    }

    // sv_user.c SV_UserFriction on the horizontal speed on the ground; Quake 2 / 3 add
    // pm_waterfriction x waterlevel while wading (PM_Friction).
    const float speed = horizontalLength(s.velocity);
    float drop = 0.0f;
    if (s.on_ground)
        drop += std::max(speed, m_rules.stop_speed) * m_rules.friction * dt;
    if (m_rules.water_friction_by_level)
        drop += speed * m_rules.water_friction * float(s.waterlevel) * dt;
    if (speed > 0.0f && drop > 0.0f) {
        const float next = std::max(speed - drop, 0.0f);
        s.velocity.x *= next / speed;
        s.velocity.y *= next / speed;
    }

    const glm::vec3 forward = forwardOf(in.yaw, 0.0f);
    const glm::vec3 right = rightOf(in.yaw);
    const glm::vec3 wish =
        (forward * std::clamp(in.forward, -1.0f, 1.0f) + right * std::clamp(in.side, -1.0f, 1.0f)) *
        m_rules.max_speed;
    float wishspeed = std::min(glm::length(wish), m_rules.max_speed);
    if (wishspeed > 0.0f) {
        const glm::vec3 wishdir = glm::normalize(wish);
        if (s.crouched)
            wishspeed *= m_rules.crouch_scale;
        if (m_rules.wade_scale && s.waterlevel > 0 && s.on_ground) // bg_pmove.c PM_WalkMove
            wishspeed =
                std::min(wishspeed, m_rules.max_speed * (1.0f - (1.0f - m_rules.swim_scale) *
                                                                    float(s.waterlevel) / 3.0f));
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
}

void PlayerMove::tick(PlayerState& s, const MoveInput& in) const {
    updateCrouch(s, in.crouch);
    categorize(s);
    if (s.waterjump_time <= 0.0f && s.waterlevel == 2)
        startWaterJump(s, in.yaw);
    s.on_ladder = false;
    if (s.waterjump_time > 0.0f)
        waterJumpMove(s);
    else if (s.waterlevel >= 2)
        swim(s, in);
    else if ((s.on_ladder = onLadder(s, in.yaw)))
        climb(s, in);
    else
        walk(s, in);
    categorize(s);
}

} // namespace physics
