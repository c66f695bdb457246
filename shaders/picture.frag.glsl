// The picture pass (render/pass_display.cpp drawPicture): View > Picture's exposure, display
// gamma and brightness over the finished frame, read from a copy of it (u_frame_copy, the
// viewport's pixels from u_origin). Only drawn when one of them is not at its default.
uniform sampler2D u_frame_copy;
uniform ivec2 u_origin;        // the viewport's lower-left corner in window pixels
uniform float u_exposure_scale; // 2^exposure (1 in the lightmap view: its light is scaled before
                                // the clamp, render/pass_blocks.cpp mapBlock)
uniform float u_inverse_gamma;  // 1 / gamma
uniform float u_brightness;     // added last
out vec4 o_colour;

void main() {
    vec4 frame = texelFetch(u_frame_copy, ivec2(gl_FragCoord.xy) - u_origin, 0);
    vec3 c = min(frame.rgb * u_exposure_scale, vec3(1.0));
    c = pow(c, vec3(u_inverse_gamma));
    o_colour = vec4(clamp(c + vec3(u_brightness), 0.0, 1.0), frame.a);
}
