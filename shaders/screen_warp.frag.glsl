// The screen warp (render/pass_display.cpp drawScreenWarp): the finished frame, read from a copy
// of it (u_frame_copy, filtered linearly and clamped to its edges), sampled at a point moved by
// two sine waves, still at the screen's edges and strongest at its centre, as yquake2's GL3
// renderer shows the view with the eye under water (gl3_shaders.c
// fragmentSrc2DpostprocessWater): u, v the pixel's place in 0..1 from the lower-left corner,
//   u += sin(rate t + v waves) (1 - 2 |0.5 - u|) amplitude,
//   v += sin(rate t + u waves) (1 - 2 |0.5 - v|) amplitude,
// then clamped to 0..1.
uniform sampler2D u_frame_copy;
uniform ivec2 u_origin; // the viewport's lower-left corner in window pixels
uniform vec2 u_size;    // the viewport's size in pixels
uniform vec3 u_warp;    // amplitude (a share of the screen), rate (radians a second), waves
out vec4 o_colour;

void main() {
    vec2 uv = (gl_FragCoord.xy - vec2(u_origin)) / u_size;
    vec2 still = 1.0 - abs(0.5 - uv) * 2.0;
    float phase = u_warp.y * u_frame.time; // the frame's clock in seconds
    vec2 shift = vec2(sin(phase + uv.y * u_warp.z) * still.x, sin(phase + uv.x * u_warp.z) * still.y);
    o_colour = texture(u_frame_copy, clamp(uv + shift * u_warp.x, 0.0, 1.0));
}
