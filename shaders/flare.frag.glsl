// Flares: the image times the flare's colour and intensity, added to the frame as it holds
// colours (u_frame.frame_scale).
out vec4 o_colour;

#ifdef OCCLUSION_TEST
void main() {
    o_colour = vec4(0.0);
}
#else
in vec2 v_uv;
uniform sampler2D u_texture;
uniform vec3 u_colour;

void main() {
    o_colour = vec4(texture(u_texture, v_uv).rgb * u_colour * u_frame.frame_scale, 1.0);
}
#endif
