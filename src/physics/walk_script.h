// Walk scripts for headless walk mode (--walk-script): one input per line, played at the fixed
// movement tick (physics/player_move.h) so that a run is reproducible.
//
//   forward|back|left|right SECONDS   move with that input held
//   jump                              one tick with jump pressed
//   up SECONDS                        jump held: swim or climb up (on the ground: jump again
//                                     on every landing)
//   crouch SECONDS                    stand still crouched (in liquid or on a ladder: go down)
//   turn DEGREES                      add to the yaw, positive to the left (Quake's yaw)
//   wait SECONDS                      stand still
// '#' starts a comment; blank lines are skipped. SECONDS are rounded to whole ticks.
#pragma once

#include "core/result.h"
#include "physics/player_move.h"

#include <string>
#include <string_view>
#include <vector>

namespace physics {

struct WalkStep {
    MoveInput input; // yaw is ignored (turns are steps of their own); pitch is the caller's
    int ticks = 0;
    float turn = 0.0f; // degrees added to the yaw before the ticks
};

// A script can ask for at most this much game time (one hour at 60 Hz).
inline constexpr int64_t kMaxWalkTicks = 216000;

// Parses script text; errors name `file` and the line ("walk.txt: line[3]: ...").
core::Result<std::vector<WalkStep>> parseWalkScript(std::string_view text, const std::string& file);

// Plays the steps from s with the given yaw (degrees, updated by turns); returns the ticks run.
int64_t playWalkScript(const PlayerMove& move, const std::vector<WalkStep>& steps, PlayerState& s,
                       float& yaw);

} // namespace physics
