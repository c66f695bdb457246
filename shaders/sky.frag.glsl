// Sky surfaces drawn without shader stages. One look per program (SKY_MODE, fixed at compile
// time: software GL pays for every texture fetch a runtime branch skips):
// - SKY_BOX: the map's sky box (Quake 2, Half-Life, a Quake 3 far box);
// - SKY_LAYERS: Quake 1's two-layer sky, the texture's right half the back layer, the left half
//   the front layer (black = see-through), both projected on a flattened dome around the eye
//   and scrolling at different speeds (gl_warp.c EmitSkyPolys);
// - SKY_TEXTURE: the sky texture at full brightness;
// - SKY_FLAT: a flat colour.
in vec3 v_world;
in vec2 v_uv;

uniform sampler2D u_texture;
uniform sampler2DArray u_skybox; // six faces: rt bk lf ft up dn (content/skybox.h)
uniform mat3 u_sky_rotation; // world direction -> box direction (Quake 2 skyrotate/skyaxis)
uniform vec3 u_eye;
uniform float u_time;
uniform vec4 u_flat_colour;
uniform vec4 u_sky_fog; // rgb: the map's fog colour, a: its share over the sky (0: none)

out vec4 o_colour;

vec2 layerUv(vec3 dir, float speed, float offset) {
    vec2 st = (vec2(speed) + dir.xy) / 128.0;
    return vec2(fract(st.x) * 0.5 + offset, fract(st.y));
}

#define SKY_BOX 0
#define SKY_FLAT 1
#define SKY_TEXTURE 2
#define SKY_LAYERS 3
#ifndef SKY_MODE
#define SKY_MODE SKY_FLAT
#endif

void main() {
#if SKY_MODE == SKY_BOX
    o_colour = vec4(textureLod(u_skybox, skyboxCoord(u_sky_rotation * (v_world - u_eye)), 0.0).rgb, 1.0);
#elif SKY_MODE == SKY_FLAT
    o_colour = u_flat_colour;
#elif SKY_MODE == SKY_TEXTURE
    o_colour = vec4(texture(u_texture, v_uv).rgb, 1.0);
#else
    vec3 dir = v_world - u_eye;
    dir.z *= 3.0;
    dir *= (6.0 * 63.0) / length(dir);
    vec3 back = textureLod(u_texture, layerUv(dir, u_time * 8.0, 0.5), 0.0).rgb;
    vec3 front = textureLod(u_texture, layerUv(dir, u_time * 16.0, 0.0), 0.0).rgb;
    float front_alpha = any(greaterThan(front, vec3(0.0))) ? 1.0 : 0.0;
    o_colour = vec4(mix(back, front, front_alpha), 1.0);
#endif
    o_colour.rgb = mix(o_colour.rgb, u_sky_fog.rgb, u_sky_fog.a);
}
