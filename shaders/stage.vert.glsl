// One Quake 3 shader stage (render/world_renderer.cpp drawStages). Texture coordinates and
// vertex colours are computed per vertex, as ioquake3's tr_shade_calc.c does.
layout(location = ATTRIB_POSITION) in vec3 a_position;
layout(location = ATTRIB_UV) in vec2 a_uv;
layout(location = ATTRIB_LM_UV) in vec2 a_lm_uv;
layout(location = ATTRIB_NORMAL) in vec3 a_normal;
layout(location = ATTRIB_COLOUR) in vec4 a_colour;
layout(location = ATTRIB_LM_LAYER) in float a_lm_layer;

uniform mat4 u_view_projection;
uniform mat4 u_model;
uniform vec3 u_eye;          // camera position (environment mapping)
uniform int u_tc_gen;        // TCGEN_* below
uniform vec3 u_tc_vector0;   // tcGen vector
uniform vec3 u_tc_vector1;
uniform mat3 u_tc_matrix;    // every tcMod but turb, composed
uniform vec4 u_turb;         // amplitude, cycles, -, enabled
uniform float u_light_shift; // 2: vertex colours are over-bright (shifted left by one)
// Colour: rgb = u_colour.rgb, or the vertex colour times u_vertex_scale (u_vertex_rgb),
// optionally one minus it; alpha likewise.
uniform vec4 u_colour;
uniform bool u_vertex_rgb;
uniform bool u_one_minus_vertex;
uniform float u_vertex_scale;
uniform bool u_vertex_alpha;
uniform bool u_one_minus_vertex_alpha;

#define TCGEN_BASE 0
#define TCGEN_LIGHTMAP 1
#define TCGEN_ENVIRONMENT 2
#define TCGEN_VECTOR 3

out vec3 v_world;
out vec2 v_st;
out vec2 v_lm_uv;
out vec4 v_colour;
flat out float v_lm_layer;

invariant gl_Position;

vec3 shiftedVertexColour(vec3 c) {
    c *= u_light_shift;
    float m = max(c.r, max(c.g, c.b));
    return m > 1.0 ? c / m : c;
}

void main() {
    vec4 world = u_model * vec4(a_position, 1.0);
    gl_Position = u_view_projection * world;
    v_world = world.xyz;
    v_lm_uv = a_lm_uv;
    v_lm_layer = a_lm_layer;

    vec2 st = a_uv;
    if (u_tc_gen == TCGEN_LIGHTMAP) {
        st = a_lm_uv;
    } else if (u_tc_gen == TCGEN_ENVIRONMENT) {
        vec3 n = normalize(mat3(u_model) * a_normal);
        vec3 viewer = normalize(u_eye - world.xyz);
        vec3 r = n * 2.0 * dot(n, viewer) - viewer;
        st = vec2(0.5 + r.y * 0.5, 0.5 - r.z * 0.5);
    } else if (u_tc_gen == TCGEN_VECTOR) {
        st = vec2(dot(a_position, u_tc_vector0), dot(a_position, u_tc_vector1));
    }
    if (u_turb.w > 0.0) {
        const float kTwoPi = 6.28318530718;
        st.x += sin(((a_position.x + a_position.z) * (0.125 / 128.0) + u_turb.y) * kTwoPi) * u_turb.x;
        st.y += sin((a_position.y * (0.125 / 128.0) + u_turb.y) * kTwoPi) * u_turb.x;
    }
    v_st = (u_tc_matrix * vec3(st, 1.0)).xy;

    vec4 colour = u_colour;
    if (u_vertex_rgb) {
        vec3 c = shiftedVertexColour(a_colour.rgb);
        if (u_one_minus_vertex)
            c = vec3(1.0) - c;
        colour.rgb = c * u_vertex_scale;
    }
    if (u_vertex_alpha)
        colour.a = u_one_minus_vertex_alpha ? 1.0 - a_colour.a : a_colour.a;
    v_colour = colour;
}
