// Debug lines: the vertex colour, scaled by u_alpha (occluded segments are drawn dimmer).
in vec4 v_colour;

uniform float u_alpha;

out vec4 o_colour;

void main() {
    o_colour = vec4(v_colour.rgb, v_colour.a * u_alpha);
}
