// Sky surfaces until shader-script skies land. Three looks:
// - Quake 1 two-layer sky (u_sky_layers): the texture's right half is the back layer, the
//   left half the front layer (black = see-through), both projected on a flattened dome
//   around the eye and scrolling at different speeds (gl_warp.c EmitSkyPolys);
// - the sky texture at full brightness when the map has one;
// - a flat colour.
in vec3 v_world;
in vec2 v_uv;

uniform sampler2D u_texture;
uniform bool u_sky_textured;
uniform bool u_sky_layers;
uniform vec3 u_eye;
uniform float u_time;
uniform vec4 u_flat_colour;

out vec4 o_colour;

vec2 layerUv(vec3 dir, float speed, float offset) {
    vec2 st = (vec2(speed) + dir.xy) / 128.0;
    return vec2(fract(st.x) * 0.5 + offset, fract(st.y));
}

void main() {
    if (!u_sky_textured) {
        o_colour = u_flat_colour;
        return;
    }
    if (!u_sky_layers) {
        o_colour = vec4(texture(u_texture, v_uv).rgb, 1.0);
        return;
    }
    vec3 dir = v_world - u_eye;
    dir.z *= 3.0;
    dir *= (6.0 * 63.0) / length(dir);
    vec3 back = textureLod(u_texture, layerUv(dir, u_time * 8.0, 0.5), 0.0).rgb;
    vec3 front = textureLod(u_texture, layerUv(dir, u_time * 16.0, 0.0), 0.0).rgb;
    float front_alpha = any(greaterThan(front, vec3(0.0))) ? 1.0 : 0.0;
    o_colour = vec4(mix(back, front, front_alpha), 1.0);
}
