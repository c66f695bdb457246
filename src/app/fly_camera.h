// Fly-through camera control, independent of SDL so it can be tested: the viewer feeds it
// key states and mouse motion.
#pragma once

#include "scene/camera.h"

namespace app {

struct FlyInput {
    bool forward = false, back = false, left = false, right = false, up = false, down = false;
    bool fast = false;
    float mouse_dx = 0.0f, mouse_dy = 0.0f; // pixels since the last frame (mouse look active)
};

struct FlyCamera {
    scene::Camera camera;
    float speed = 320.0f;      // units per second
    float sensitivity = 0.15f; // degrees per pixel

    void update(const FlyInput& input, float dt);
    void changeSpeed(float wheel_steps); // each step x1.25
};

} // namespace app
