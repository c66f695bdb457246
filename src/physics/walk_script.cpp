#include "physics/walk_script.h"

#include <charconv>
#include <cmath>
#include <sstream>

namespace physics {

namespace {

core::Error lineError(const std::string& file, int line, const std::string& detail) {
    core::Error e = core::makeError(core::ErrorCode::BadValue, "line", line, {}, detail);
    e.file = file;
    return e;
}

bool parseFloat(const std::string& s, float* out) {
    const char* end = s.data() + s.size();
    const auto r = std::from_chars(s.data(), end, *out);
    return r.ec == std::errc() && r.ptr == end && std::isfinite(*out);
}

} // namespace

core::Result<std::vector<WalkStep>> parseWalkScript(std::string_view text,
                                                    const std::string& file) {
    std::vector<WalkStep> steps;
    std::istringstream in{std::string(text)};
    std::string line;
    int line_no = 0;
    int64_t total = 0;
    while (std::getline(in, line)) {
        ++line_no;
        if (const size_t hash = line.find('#'); hash != std::string::npos)
            line.resize(hash);
        std::istringstream ls(line);
        std::string word, arg, extra;
        if (!(ls >> word))
            continue;
        const bool has_arg = static_cast<bool>(ls >> arg);
        if (ls >> extra)
            return lineError(file, line_no, "unexpected '" + extra + "' after '" + word + "'");
        WalkStep step;
        if (word == "jump") {
            if (has_arg)
                return lineError(file, line_no, "jump takes no value");
            step.input.jump = true;
            step.ticks = 1;
        } else {
            const bool moves = word == "forward" || word == "back" || word == "left" ||
                               word == "right" || word == "crouch" || word == "up" ||
                               word == "wait";
            if (!moves && word != "turn")
                return lineError(
                    file, line_no,
                    "unknown command '" + word +
                        "' (forward, back, left, right, jump, up, crouch, turn, wait)");
            float value = 0.0f;
            if (!has_arg || !parseFloat(arg, &value))
                return lineError(file, line_no,
                                 word + " needs a number" + (has_arg ? ", got '" + arg + "'" : ""));
            if (word == "turn") {
                step.turn = value;
            } else {
                if (value < 0.0f || value * 60.0f > float(kMaxWalkTicks))
                    return lineError(file, line_no, word + ": seconds must be 0..3600");
                step.ticks = int(std::lround(value / kMoveTick));
                step.input.forward = word == "forward" ? 1.0f : word == "back" ? -1.0f : 0.0f;
                step.input.side = word == "right" ? 1.0f : word == "left" ? -1.0f : 0.0f;
                step.input.crouch = word == "crouch";
                step.input.jump = word == "up";
            }
        }
        total += step.ticks;
        if (total > kMaxWalkTicks)
            return lineError(file, line_no, "the script runs longer than an hour");
        steps.push_back(step);
    }
    return steps;
}

int64_t playWalkScript(const PlayerMove& move, const std::vector<WalkStep>& steps, PlayerState& s,
                       float& yaw) {
    int64_t ticks = 0;
    for (const WalkStep& step : steps) {
        yaw += step.turn;
        MoveInput in = step.input;
        in.yaw = yaw;
        for (int i = 0; i < step.ticks; ++i)
            move.tick(s, in);
        ticks += step.ticks;
    }
    return ticks;
}

} // namespace physics
