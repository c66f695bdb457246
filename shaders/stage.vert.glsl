// Quake 3 shader stages (render/world_renderer.cpp drawStages): NSTAGES of them drawn by one
// program, folded in stage.frag.glsl (scene::foldableRun). Texture coordinates and vertex
// colours are computed per vertex and per stage, as ioquake3's tr_shade_calc.c does.
//   DEFORMS   the material's shader has deformVertexes: up to three, applied in order before
//             anything else (ioquake3 RB_DeformTessGeometry); the maths is scene/deforms.cpp's.
layout(location = ATTRIB_POSITION) in vec3 a_position;
layout(location = ATTRIB_UV) in vec2 a_uv;
layout(location = ATTRIB_LM_UV) in vec2 a_lm_uv;
layout(location = ATTRIB_NORMAL) in vec3 a_normal;
layout(location = ATTRIB_COLOUR) in vec4 a_colour;
layout(location = ATTRIB_LM_LAYER) in float a_lm_layer;

uniform mat4 u_model;
#ifndef NSTAGES
#define NSTAGES 1
#endif
// Per stage:
uniform int u_tc_gen[NSTAGES];      // TCGEN_* below
uniform vec3 u_tc_vector0[NSTAGES]; // tcGen vector
uniform vec3 u_tc_vector1[NSTAGES];
uniform mat3 u_tc_matrix[NSTAGES];  // every tcMod but turb, composed
uniform vec4 u_turb[NSTAGES];       // amplitude, cycles, -, enabled
// Colour: rgb = u_colour.rgb, or the vertex colour times u_vertex_scale (COLOUR_VERTEX_RGB),
// optionally one minus it; alpha likewise. u_colour_gen holds the COLOUR_* bits.
uniform vec4 u_colour[NSTAGES];
uniform int u_colour_gen[NSTAGES];
uniform float u_vertex_scale[NSTAGES];

#define COLOUR_VERTEX_RGB 1
#define COLOUR_ONE_MINUS_VERTEX 2
#define COLOUR_VERTEX_ALPHA 4
#define COLOUR_ONE_MINUS_VERTEX_ALPHA 8

#ifdef DEFORMS
layout(location = ATTRIB_SPRITE0) in vec4 a_sprite0; // scene::SpriteVertex: centre, a
layout(location = ATTRIB_SPRITE1) in vec4 a_sprite1; // major, b
uniform int u_deform_code[3];    // DEFORM_* below
uniform int u_deform_func[3];    // content::WaveFunc
uniform vec4 u_deform_wave[3];   // scene::DeformFrame::wave
uniform vec4 u_deform_extra[3];  // scene::DeformFrame::extra

#define DEFORM_WAVE 1
#define DEFORM_NORMAL 2
#define DEFORM_BULGE 3
#define DEFORM_MOVE 4
#define DEFORM_AUTOSPRITE 5
#define DEFORM_AUTOSPRITE2 6

float hashNoise(vec3 p, float step) {
    float d = dot(p, vec3(12.9898, 78.233, 37.719)) + step * 4.1414;
    return fract(sin(d) * 43758.5453) * 2.0 - 1.0;
}

float timeNoise(vec3 p, float t) {
    float step = floor(t);
    float f = t - step;
    float s = f * f * (3.0 - 2.0 * f);
    return mix(hashNoise(p, step), hashNoise(p, step + 1.0), s);
}

float waveTable(int func, float x) {
    float f = fract(x);
    if (func == 0)
        return sin(f * 6.28318530718);
    if (func == 1)
        return f < 0.25 ? f * 4.0 : (f < 0.75 ? 2.0 - f * 4.0 : f * 4.0 - 4.0);
    if (func == 2)
        return f < 0.5 ? 1.0 : -1.0;
    if (func == 3)
        return f;
    if (func == 4)
        return 1.0 - f;
    return timeNoise(vec3(0.0), x * 8.0);
}
#endif

#define TCGEN_BASE 0
#define TCGEN_LIGHTMAP 1
#define TCGEN_ENVIRONMENT 2
#define TCGEN_VECTOR 3

out vec3 v_world;
#if defined(SKY_BASE) && SKY_BASE == SKY_BASE_BOX
out vec3 v_box_dir; // stage.frag.glsl's far box: skyBoxDirection, linear in the position
#endif
out vec2 v_lm_uv;
flat out float v_lm_layer;
out vec2 v_st[NSTAGES];
out vec4 v_colour[NSTAGES];

invariant gl_Position;

void main() {
    vec3 position = a_position;
    vec3 normal = a_normal;
    vec2 base_st = a_uv;
#ifdef DEFORMS
    // Sprites are built in world space (the view axes are); everything else in model space.
    bool sprite = false;
    vec3 sprite_world = vec3(0.0);
    vec3 sprite_normal = vec3(0.0);
    for (int i = 0; i < 3; ++i) {
        int code = u_deform_code[i];
        vec4 w = u_deform_wave[i];
        vec4 e = u_deform_extra[i];
        if (code == DEFORM_WAVE) {
            float off = (position.x + position.y + position.z) * w.w;
            position += normal * (w.x + waveTable(u_deform_func[i], w.z + off) * w.y);
        } else if (code == DEFORM_NORMAL) {
            vec3 p = position * 0.98;
            normal += w.x * vec3(timeNoise(p, w.y), timeNoise(p + vec3(100.0), w.y),
                                 timeNoise(p + vec3(200.0), w.y));
            normal = length(normal) > 0.0 ? normalize(normal) : normal;
        } else if (code == DEFORM_BULGE) {
            position += normal * (sin(a_uv.x * e.x + e.z) * e.y);
        } else if (code == DEFORM_MOVE) {
            position += e.xyz;
        } else if (code == DEFORM_AUTOSPRITE && a_sprite0.w != 0.0) {
            vec3 centre = (u_model * vec4(a_sprite0.xyz, 1.0)).xyz;
            sprite_world = centre + a_sprite0.w * u_frame.view_left + a_sprite1.w * u_frame.view_up;
            sprite_normal = -u_frame.view_forward;
            base_st = vec2(a_sprite0.w > 0.0 ? 0.0 : 1.0, a_sprite1.w > 0.0 ? 0.0 : 1.0);
            sprite = true;
        } else if (code == DEFORM_AUTOSPRITE2 && a_sprite0.w != 0.0) {
            vec3 centre = (u_model * vec4(a_sprite0.xyz, 1.0)).xyz;
            vec3 c = cross(mat3(u_model) * a_sprite1.xyz, u_frame.view_forward);
            vec3 minor = length(c) > 0.0 ? normalize(c) : vec3(0.0);
            sprite_world = centre + a_sprite0.w * minor;
            sprite_normal = mat3(u_model) * normal;
            sprite = true;
        }
    }
    vec4 world = sprite ? vec4(sprite_world, 1.0) : u_model * vec4(position, 1.0);
    vec3 world_normal = sprite ? sprite_normal : mat3(u_model) * normal;
    // tcGen vector and turbulence read model-space positions.
    if (sprite)
        position = (inverse(u_model) * world).xyz;
#else
    vec4 world = u_model * vec4(position, 1.0);
    vec3 world_normal = mat3(u_model) * normal;
#endif
    gl_Position = u_frame.view_projection * world;
    gl_ClipDistance[0] = dot(world, u_frame.clip_plane); // as world.vert.glsl
    v_world = world.xyz;
#if defined(SKY_BASE) && SKY_BASE == SKY_BASE_BOX
    v_box_dir = skyBoxDirection(world.xyz);
#endif
    v_lm_uv = a_lm_uv;
    v_lm_layer = a_lm_layer;

    for (int k = 0; k < NSTAGES; ++k) {
        vec2 st = base_st;
        if (u_tc_gen[k] == TCGEN_LIGHTMAP) {
            st = a_lm_uv;
        } else if (u_tc_gen[k] == TCGEN_ENVIRONMENT) {
            vec3 n = normalize(world_normal);
            vec3 viewer = normalize(u_frame.eye - world.xyz);
            vec3 r = n * 2.0 * dot(n, viewer) - viewer;
            st = vec2(0.5 + r.y * 0.5, 0.5 - r.z * 0.5);
        } else if (u_tc_gen[k] == TCGEN_VECTOR) {
            st = vec2(dot(position, u_tc_vector0[k]), dot(position, u_tc_vector1[k]));
        }
        vec4 turb = u_turb[k];
        if (turb.w > 0.0) {
            const float kTwoPi = 6.28318530718;
            st.x += sin(((position.x + position.z) * (0.125 / 128.0) + turb.y) * kTwoPi) * turb.x;
            st.y += sin((position.y * (0.125 / 128.0) + turb.y) * kTwoPi) * turb.x;
        }
        v_st[k] = (u_tc_matrix[k] * vec3(st, 1.0)).xy;

        vec4 colour = u_colour[k];
        int gen = u_colour_gen[k];
        if ((gen & COLOUR_VERTEX_RGB) != 0) {
            vec3 c = shiftLight(a_colour.rgb, u_frame.light_shift);
            if ((gen & COLOUR_ONE_MINUS_VERTEX) != 0)
                c = vec3(1.0) - c;
            colour.rgb = c * u_vertex_scale[k];
        }
        if ((gen & COLOUR_VERTEX_ALPHA) != 0)
            colour.a = (gen & COLOUR_ONE_MINUS_VERTEX_ALPHA) != 0 ? 1.0 - a_colour.a : a_colour.a;
        v_colour[k] = colour;
    }
}
