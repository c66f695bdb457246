// Quake 3 shader stages: NSTAGES of them drawn by one program (scene::foldableRun). Stage 0
// gives the colour; each later stage is blended into it here, with its blendFunc, alphaFunc
// and the framebuffer's clamp and 8-bit rounding, as the framebuffer would have done over
// separate passes. With NSTAGES 1 and no SKY_BASE the fixed-function blend does stage 0's
// blendFunc. Compile-time choices (software GL pays for both sides of a runtime branch in
// every pixel), per stage k = 0..5:
//   Sk_SOURCE    SOURCE_TEXTURE, SOURCE_LIGHTMAP or SOURCE_WHITE
//   Sk_TLM       1: a collapsed lightmap + filter pair, the texture times the lightmap
//   Sk_ALPHA     ALPHA_NONE, ALPHA_GT0, ALPHA_LT128 or ALPHA_GE128 (alphaFunc)
//   Sk_BLEND, Sk_SRC, Sk_DST  blendFunc (content::BlendFactor order) of stages after the
//                first, and of the first on a SKY_BASE
// and for the whole program:
//   SKY_CLOUDS   texture coordinates from the view direction on ioquake3's cloud dome
//   SKY_BASE     SKY_BASE_BOX / SKY_BASE_FLAT: the stages are drawn over the sky's far box or
//                flat colour computed here (the box pass is not drawn)
//   ADDITIVE_RUN every stage is additive (scene::isAdditive): their amounts are summed here
//                and the fixed-function blend adds the sum to the frame
//   FOG          (NSTAGES 1 only) a blended stage on a face in a fog volume: its colour fades
//                by the fog (ioquake3 adjustColorsForFog; the curve of scene/fog.h fogAmount)
//   FOG_PASS     an opaque surface in a fog volume drawn by this one program: the result fogs
//                here, as the fog pass would have fogged it
#ifndef NSTAGES
#define NSTAGES 1
#endif

in vec3 v_world;
in vec2 v_lm_uv;
flat in float v_lm_layer;
in vec2 v_st[NSTAGES];
in vec4 v_colour[NSTAGES];

uniform sampler2D u_texture0;
#if NSTAGES > 1
uniform sampler2D u_texture1;
#endif
#if NSTAGES > 2
uniform sampler2D u_texture2;
#endif
#if NSTAGES > 3
uniform sampler2D u_texture3;
#endif
#if NSTAGES > 4
uniform sampler2D u_texture4;
#endif
#if NSTAGES > 5
uniform sampler2D u_texture5;
#endif
uniform sampler2DArray u_lightmaps;
uniform float u_cloud_height;           // skyParms cloud height
uniform mat3 u_tc_matrix[NSTAGES];

#if defined(SKY_BASE) && SKY_BASE == SKY_BASE_BOX
in vec3 v_box_dir; // skyBoxDirection, per vertex (stage.vert.glsl)
#endif
#ifdef SKY_BASE
uniform sampler2DArray u_skybox;
uniform vec4 u_flat_colour;
#endif

#if defined(FOG) || defined(FOG_PASS)
uniform float u_fog_distance; // depth at which the fog is opaque
uniform bool u_fog_has_surface;
uniform vec4 u_fog_surface;   // visible side: normal into the fog, dist
#endif
#ifdef FOG
uniform vec4 u_fog_mask;      // 1 where rgba fades: rgb (additive), a (alpha blend), rgba
#endif
#ifdef FOG_PASS
uniform vec3 u_fog_colour;
#endif

out vec4 o_colour;

#define SOURCE_TEXTURE 0
#define SOURCE_LIGHTMAP 1
#define SOURCE_WHITE 2
#define ALPHA_NONE 0
#define ALPHA_GT0 1
#define ALPHA_LT128 2
#define ALPHA_GE128 3

vec3 lightmap() {
    if (v_lm_layer < 0.0)
        return vec3(1.0); // ioquake3 binds its white image for $lightmap on such faces
    return shiftLight(texture(u_lightmaps, vec3(v_lm_uv, v_lm_layer)).rgb, u_frame.light_shift);
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

// A stage's colour before the output scale. Every argument but the sampler and st is a
// compile-time constant at each call, so the branches fold away.
vec4 stageColour(int source, int times_lightmap, sampler2D tex, vec2 st, vec4 colour) {
    vec4 t = vec4(1.0);
    if (source == SOURCE_TEXTURE)
        t = texture(tex, st);
    else if (source == SOURCE_LIGHTMAP)
        t = vec4(lightmap(), 1.0);
    if (times_lightmap != 0)
        t.rgb *= lightmap();
    return colour * t;
}

bool alphaPasses(int func, float a) {
    if (func == ALPHA_GT0)
        return a > 0.0;
    if (func == ALPHA_LT128)
        return a < 0.5;
    if (func == ALPHA_GE128)
        return a >= 0.5;
    return true;
}

// What the stage writes, clamped as a unorm colour output is. The frame holds ioquake3's
// values (the shown ones halved where the display doubles the frame: render/pass_display.cpp).
vec4 stageOutput(vec4 colour) {
    return clamp(colour, 0.0, 1.0);
}

// glBlendFunc's factor `f` (content::BlendFactor order).
vec4 blendFactor(int f, vec4 s, vec4 d) {
    if (f == 0)
        return vec4(0.0);
    if (f == 1)
        return vec4(1.0);
    if (f == 2)
        return s;
    if (f == 3)
        return vec4(1.0) - s;
    if (f == 4)
        return d;
    if (f == 5)
        return vec4(1.0) - d;
    if (f == 6)
        return vec4(s.a);
    if (f == 7)
        return vec4(1.0 - s.a);
    if (f == 8)
        return vec4(d.a);
    if (f == 9)
        return vec4(1.0 - d.a);
    float m = min(s.a, 1.0 - d.a); // GL_SRC_ALPHA_SATURATE
    return vec4(m, m, m, 1.0);
}

// A colour as an 8-bit framebuffer (or its blender) keeps it: clamped, to the nearest step.
vec4 unorm8(vec4 v) {
    return floor(clamp(v, 0.0, 1.0) * 255.0 + 0.5) / 255.0;
}

// The frame after one more stage: blended (or replaced) where its alphaFunc passes, clamped
// and rounded to the 8 bits the framebuffer would keep between passes. An 8-bit blender rounds
// each of its two products before adding them (Mesa llvmpipe, where ioquake3's references are
// taken): GL_DST_COLOR GL_SRC_COLOR gives twice one rounded product, an even step.
vec4 foldStage(vec4 frame, vec4 colour, int alpha_func, int blend, int src_factor,
               int dst_factor) {
    if (!alphaPasses(alpha_func, colour.a))
        return frame;
    vec4 s = stageOutput(colour);
    if (blend == 0)
        return unorm8(s);
    return unorm8(unorm8(s * blendFactor(src_factor, s, frame)) +
                  unorm8(frame * blendFactor(dst_factor, s, frame)));
}

vec2 stageSt(int k) {
#ifdef SKY_CLOUDS
    return (u_tc_matrix[k] * vec3(cloudSt(v_world - u_frame.eye), 1.0)).xy;
#else
    return v_st[k];
#endif
}

void main() {
    vec4 frame;
#ifdef SKY_BASE
#if SKY_BASE == SKY_BASE_BOX
    frame = vec4(textureLod(u_skybox, skyboxCoord(v_box_dir), 0.0).rgb * u_frame.frame_scale, 1.0);
#else
    frame = u_flat_colour;
#endif
    frame = floor(frame * 255.0 + 0.5) / 255.0;
    frame = foldStage(frame, stageColour(S0_SOURCE, S0_TLM, u_texture0, stageSt(0), v_colour[0]),
                      S0_ALPHA, S0_BLEND, S0_SRC, S0_DST);
#elif defined(ADDITIVE_RUN)
    // Nothing under the sum: each stage adds its amount (texels failing alphaFunc add none).
    frame = foldStage(vec4(0.0), stageColour(S0_SOURCE, S0_TLM, u_texture0, stageSt(0), v_colour[0]),
                      S0_ALPHA, S0_BLEND, S0_SRC, S0_DST);
#else
    vec4 colour = stageColour(S0_SOURCE, S0_TLM, u_texture0, stageSt(0), v_colour[0]);
#ifdef FOG
    float fog = fogAmount(v_world, u_frame.eye, u_frame.view_forward, u_fog_distance,
                          u_fog_has_surface, u_fog_surface);
    colour *= mix(vec4(1.0), vec4(1.0 - fog), u_fog_mask);
#endif
#if S0_ALPHA != ALPHA_NONE
    // Only under #if: Mesa marks a program that contains a discard at all, even one folded
    // away, as discarding, and such programs lose early depth rejection.
    if (!alphaPasses(S0_ALPHA, colour.a))
        discard;
#endif
    frame = stageOutput(colour);
#if NSTAGES > 1
    frame = floor(frame * 255.0 + 0.5) / 255.0;
#endif
#endif
#if NSTAGES > 1
    frame = foldStage(frame, stageColour(S1_SOURCE, S1_TLM, u_texture1, stageSt(1), v_colour[1]),
                      S1_ALPHA, S1_BLEND, S1_SRC, S1_DST);
#endif
#if NSTAGES > 2
    frame = foldStage(frame, stageColour(S2_SOURCE, S2_TLM, u_texture2, stageSt(2), v_colour[2]),
                      S2_ALPHA, S2_BLEND, S2_SRC, S2_DST);
#endif
#if NSTAGES > 3
    frame = foldStage(frame, stageColour(S3_SOURCE, S3_TLM, u_texture3, stageSt(3), v_colour[3]),
                      S3_ALPHA, S3_BLEND, S3_SRC, S3_DST);
#endif
#if NSTAGES > 4
    frame = foldStage(frame, stageColour(S4_SOURCE, S4_TLM, u_texture4, stageSt(4), v_colour[4]),
                      S4_ALPHA, S4_BLEND, S4_SRC, S4_DST);
#endif
#if NSTAGES > 5
    frame = foldStage(frame, stageColour(S5_SOURCE, S5_TLM, u_texture5, stageSt(5), v_colour[5]),
                      S5_ALPHA, S5_BLEND, S5_SRC, S5_DST);
#endif
#ifdef FOG_PASS
    frame = foggedColour(frame, u_fog_colour,
                         fogAmount(v_world, u_frame.eye, u_frame.view_forward, u_fog_distance,
                                   u_fog_has_surface, u_fog_surface));
#endif
    o_colour = frame;
}
