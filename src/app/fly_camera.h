// Fly-through camera control, independent of SDL so it can be tested: the viewer feeds it
// key states and mouse motion.
#pragma once

#include "scene/view/camera.h"

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

// Ctrl both moves the camera down (Quake's crouch key) and starts chords (Ctrl+1..9 saves a
// bookmark, Ctrl+O opens a map). A chord must not save, or leave behind, the view the Ctrl
// press has already lowered by a few frames' worth: the height the camera had when Ctrl went
// down is restored, and Ctrl stops moving the camera until it is released.
class CtrlChord {
public:
    void pressed(const scene::Camera& now); // Ctrl went down (not a key repeat)
    void released();
    // A chord key was pressed with Ctrl held: the camera to continue from (and to save).
    scene::Camera chord(const scene::Camera& now);
    // Whether a held Ctrl moves the camera down: not once it has made a chord.
    bool descends() const { return !m_chorded; }

private:
    scene::Camera m_before;
    bool m_held = false, m_chorded = false;
};

} // namespace app
