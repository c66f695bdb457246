// Fog pass: ioquake3's fog amount (common.glsl fogAmount), blended
// GL_SRC_ALPHA GL_ONE_MINUS_SRC_ALPHA over the fogged surface.
in vec3 v_world;

uniform vec3 u_fog_colour;
uniform float u_fog_distance; // depth at which the fog is opaque (>= 1)
uniform bool u_has_surface;
uniform vec4 u_surface;       // visible side: normal into the fog, dist

out vec4 o_colour;

void main() {
    o_colour = vec4(u_fog_colour, fogAmount(v_world, u_frame.eye, u_frame.view_forward,
                                             u_fog_distance, u_has_surface, u_surface));
}
