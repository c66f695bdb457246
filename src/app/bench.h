// --bench: a deterministic fly-through (or a fixed camera) rendered offscreen, with load-time
// and frame-time statistics printed as JSON.
#pragma once

#include "app/cli.h"
#include "bsp/map.h"
#include "core/result.h"
#include "scene/view/camera.h"

#include <string>
#include <vector>

namespace app {

struct Keyframe {
    glm::vec3 position{0.0f};
    float pitch = 0.0f, yaw = 0.0f;
};

// Movement cost for --bench (#20): from every keyframe's eye, kBenchWalkTicks ticks of
// physics::PlayerMove (the map's own collision, its traces included) walking forward, turning
// 2 degrees a tick and jumping once a second; each tick timed on its own, in microseconds.
// Empty when the map has no collision data. GL-free.
inline constexpr int kBenchWalkTicks = 180;
std::vector<double> benchWalkTicks(const bsp::Map& map, const std::vector<Keyframe>& starts);

// A path file: one keyframe per line, "X Y Z PITCH YAW"; '#' starts a comment.
core::Result<std::vector<Keyframe>> parsePathFile(const std::string& text, const std::string& name);

// Camera at parameter t in [0, 1] along the keyframes (Catmull-Rom positions, shortest-arc yaw).
scene::Camera samplePath(const std::vector<Keyframe>& keys, float t);

// p-th percentile (0..100) of values (nearest rank); 0 for an empty list. Sorts a copy.
double percentile(std::vector<double> values, double p);

int runBench(const Options& options);

} // namespace app
