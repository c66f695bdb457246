// --bench: a deterministic fly-through (or a fixed camera) rendered offscreen, with load-time
// and frame-time statistics printed as JSON.
#pragma once

#include "app/cli.h"
#include "core/result.h"
#include "scene/camera.h"

#include <string>
#include <vector>

namespace app {

struct Keyframe {
    glm::vec3 position{0.0f};
    float pitch = 0.0f, yaw = 0.0f;
};

// A path file: one keyframe per line, "X Y Z PITCH YAW"; '#' starts a comment.
core::Result<std::vector<Keyframe>> parsePathFile(const std::string& text, const std::string& name);

// Camera at parameter t in [0, 1] along the keyframes (Catmull-Rom positions, shortest-arc yaw).
scene::Camera samplePath(const std::vector<Keyframe>& keys, float t);

// p-th percentile (0..100) of values (nearest rank); 0 for an empty list. Sorts a copy.
double percentile(std::vector<double> values, double p);

int runBench(const Options& options);

} // namespace app
