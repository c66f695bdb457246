// The display ramp (render/pass_display.cpp): the blend (GL_DST_COLOR, GL_ONE) turns this
// colour into frame * 1 + frame, doubled and clamped by the 8-bit framebuffer as ioquake3's
// gamma table min(255, i << 1) does; alpha 0 leaves the frame's alpha as it was.
out vec4 o_colour;

void main() {
    o_colour = vec4(1.0, 1.0, 1.0, 0.0);
}
