// One Quake 3 shader stage. Compile-time choices (software GL pays for both sides of a
// runtime branch in every pixel):
//   SOURCE       SOURCE_TEXTURE, SOURCE_LIGHTMAP or SOURCE_WHITE
//   TIMES_LIGHTMAP  a collapsed lightmap + filter pair: the texture times the lightmap
//   ALPHA_FUNC   ALPHA_GT0, ALPHA_LT128 or ALPHA_GE128 (alphaFunc); undefined: none
//   SKY_CLOUDS   texture coordinates from the view direction on ioquake3's cloud dome
//   FOG          a blended stage on a face in a fog volume: its colour fades by the fog
//                (ioquake3 adjustColorsForFog; the curve of scene/fog.h fogAmount)
in vec3 v_world;
in vec2 v_st;
in vec2 v_lm_uv;
in vec4 v_colour;
flat in float v_lm_layer;

uniform sampler2D u_texture;
uniform sampler2DArray u_lightmaps;
uniform float u_light_shift;   // 2: lightmap texels are over-bright (shifted left by one)
uniform float u_output_scale;  // the gamma ramp's doubling, where this stage's colour adds in
uniform vec3 u_eye;
uniform float u_cloud_height;  // skyParms cloud height
uniform mat3 u_tc_matrix;

#ifdef FOG
uniform vec3 u_fog_forward;  // unit view axis
uniform float u_fog_distance; // depth at which the fog is opaque
uniform bool u_fog_has_surface;
uniform vec4 u_fog_surface;   // visible side: normal into the fog, dist
uniform vec4 u_fog_mask;      // 1 where rgba fades: rgb (additive), a (alpha blend), rgba
#endif

out vec4 o_colour;

#define SOURCE_TEXTURE 0
#define SOURCE_LIGHTMAP 1
#define SOURCE_WHITE 2
#ifndef SOURCE
#define SOURCE SOURCE_TEXTURE
#endif

vec3 lightmap() {
    if (v_lm_layer < 0.0)
        return vec3(1.0); // ioquake3 binds its white image for $lightmap on such faces
    return shiftLight(texture(u_lightmaps, vec3(v_lm_uv, v_lm_layer)).rgb, u_light_shift);
}

#ifdef SKY_CLOUDS
// ioquake3 tr_sky.c InitSkyTexCoords: where the view ray meets a sphere of radius 4096 whose
// top sits u_cloud_height above the eye, as two angles.
vec2 cloudSt(vec3 d) {
    const float R = 4096.0;
    float h = u_cloud_height;
    float dd = dot(d, d);
    float p = (1.0 / (2.0 * dd)) *
              (-2.0 * d.z * R + 2.0 * sqrt(d.z * d.z * R * R + 2.0 * dd * R * h + dd * h * h));
    vec3 v = d * p;
    v.z += R;
    v = normalize(v);
    // In radians, as R_InitSkyTexCoords stores them (not divided by pi): the cloud image
    // repeats about once a radian, and tcMod scroll/scale act on those units.
    return vec2(acos(clamp(v.x, -1.0, 1.0)), acos(clamp(v.y, -1.0, 1.0)));
}
#endif

void main() {
    vec4 colour = v_colour;
#if SOURCE == SOURCE_TEXTURE
#ifdef SKY_CLOUDS
    vec2 st = (u_tc_matrix * vec3(cloudSt(v_world - u_eye), 1.0)).xy;
#else
    vec2 st = v_st;
#endif
    vec4 tex = texture(u_texture, st);
#elif SOURCE == SOURCE_LIGHTMAP
    vec4 tex = vec4(lightmap(), 1.0);
#else
    vec4 tex = vec4(1.0);
#endif
#ifdef TIMES_LIGHTMAP
    tex.rgb *= lightmap();
#endif
    colour *= tex;
#ifdef FOG
    float fog = fogAmount(v_world, u_eye, u_fog_forward, u_fog_distance, u_fog_has_surface,
                          u_fog_surface);
    colour *= mix(vec4(1.0), vec4(1.0 - fog), u_fog_mask);
#endif
#if defined(ALPHA_GT0)
    if (colour.a <= 0.0)
        discard;
#elif defined(ALPHA_LT128)
    if (colour.a >= 0.5)
        discard;
#elif defined(ALPHA_GE128)
    if (colour.a < 0.5)
        discard;
#endif
    o_colour = vec4(min(colour.rgb * u_output_scale, vec3(1.0)), colour.a);
}
