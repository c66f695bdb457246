// Fog pass: ioquake3's fog amount (scene/fog.h fogAmount, which this mirrors), blended
// GL_SRC_ALPHA GL_ONE_MINUS_SRC_ALPHA over the fogged surface.
in vec3 v_world;

uniform vec3 u_eye;
uniform vec3 u_view_forward;  // unit view axis: depth = dot(p - eye, forward)
uniform vec3 u_fog_colour;
uniform float u_fog_distance; // depth at which the fog is opaque (>= 1)
uniform bool u_has_surface;
uniform vec4 u_surface;       // visible side: normal into the fog, dist

out vec4 o_colour;

void main() {
    float clip = 1.0;
    if (u_has_surface) {
        float eye_t = dot(u_surface.xyz, u_eye) - u_surface.w;
        float t = dot(u_surface.xyz, v_world) - u_surface.w;
        if (eye_t < 0.0)
            clip = t < 1.0 ? 0.0 : t / (t - eye_t);
        else
            clip = t < 0.0 ? 0.0 : 1.0;
    }
    float depth = dot(v_world - u_eye, u_view_forward);
    float amount = sqrt(clamp(depth / u_fog_distance * clip, 0.0, 1.0));
    o_colour = vec4(u_fog_colour, amount);
}
