// Entity models (render/model_renderer.cpp). Alias models: one pose's positions and normals,
// placed by u_model. SPRITE: a quad from gl_VertexID spanning u_rect (left, bottom, right,
// top in sprite units) along u_right and u_up about u_origin. The view is the frame block's
// (u_frame.view_projection, shaders/gpu_interface.h).
out vec2 v_uv;
out vec3 v_light; // the vertex's light, 1: the texel as it is
out vec3 v_world; // the world position, for the view's fog

#ifdef SPRITE
uniform vec3 u_origin;
uniform vec3 u_right;
uniform vec3 u_up;
uniform vec4 u_rect;

void main() {
    const vec2 kCorners[6] =
        vec2[6](vec2(0, 0), vec2(1, 0), vec2(1, 1), vec2(0, 0), vec2(1, 1), vec2(0, 1));
    vec2 c = kCorners[gl_VertexID];
    vec2 p = mix(u_rect.xy, u_rect.zw, c);
    v_uv = vec2(c.x, 1.0 - c.y);
    v_light = vec3(1.0);
    v_world = u_origin + u_right * p.x + u_up * p.y;
    gl_Position = u_frame.view_projection * vec4(v_world, 1.0);
}
#else
layout(location = ATTRIB_POSITION) in vec3 a_position;
layout(location = ATTRIB_NORMAL) in vec3 a_normal;
layout(location = ATTRIB_UV) in vec2 a_uv;
uniform mat4 u_model;
uniform vec3 u_light;          // ambient: the light below (Quake 1, 2), the grid's (Quake 3)
uniform vec3 u_shade_vector;   // model space; 0 for models lit by u_directed_light
uniform vec3 u_directed_light; // 0: none
uniform vec3 u_light_dir;      // world space, unit, toward the light
uniform vec3 u_light_wrap;     // (x, y, z): directed * min(max((d + x) / y, 0), z)
uniform float u_flat_share;    // >= 0: directed * u_flat_share, whatever the normal (flat shade)
// > 0: the light is a byte per channel, u_light_bytes of them to 1 (ioquake3 tr_shade_calc.c
// RB_CalcDiffuseColor: ambient + directed * d truncated to an integer and clamped at 255 per
// vertex, before the overbright doubling that u_light_bytes = 127.5 folds in).
uniform float u_light_bytes;
// Half-Life chrome textures (Xash3D gl_studio.c R_StudioSetupChrome): texture coordinates from
// the normal along the view's chrome axes (model space), (n . axis + 1) * u_chrome_scale within
// u_chrome_rect (u0, v0, u1, v1) of the skin image.
uniform bool u_chrome;
uniform vec3 u_chrome_right;
uniform vec3 u_chrome_up;
uniform vec4 u_chrome_rect;
uniform vec2 u_chrome_scale;
// Source props (scene/models/source_props.h): lit by an ambient cube (+x, -x, +y, -y, +z, -z,
// linear light) through the world normal, each axis's squared share of the side it faces
// (Source SDK 2013 materialsystem/stdshaders/common_vs_fxc.h AmbientLight), then raised to
// 1 / 2.2 as the world's lightmaps are (docs/source.md "Lighting").
uniform bool u_cube_lit;
uniform vec3 u_cube[6];
// Plus up to four world lights (scene/models/prop_lights.h), as the engine's vertex shaders add
// them (common_vs_fxc.h DoLighting without half-Lambert, GetVertexAttenForLight), in the
// constants shaderapidx8.cpp CommitVertexShaderLighting sets: colour (w 1: directional),
// direction (w 1: spot cone), position, spot (exponent, stopdot, stopdot2, 1 / (stopdot -
// stopdot2)), attenuation (constant, linear, quadratic).
uniform int u_local_count;
uniform vec4 u_local_colour[4];
uniform vec4 u_local_dir[4];
uniform vec3 u_local_pos[4];
uniform vec4 u_local_spot[4];
uniform vec3 u_local_atten[4];

vec3 localLights(vec3 p, vec3 n) {
    vec3 sum = vec3(0.0);
    for (int i = 0; i < u_local_count; ++i) {
        vec3 to = u_local_pos[i] - p;
        float d2 = dot(to, to);
        float inv = d2 > 0.0 ? inversesqrt(d2) : 0.0;
        to *= inv;
        float atten = 1.0 / dot(u_local_atten[i], vec3(1.0, d2 * inv, d2));
        if (u_local_dir[i].w > 0.5) {
            float c = dot(u_local_dir[i].xyz, -to);
            float s = pow(max(0.0001, (c - u_local_spot[i].z) * u_local_spot[i].w),
                          u_local_spot[i].x);
            atten *= clamp(s, 0.0, 1.0);
        }
        if (u_local_colour[i].w > 0.5) {
            atten = 1.0;
            to = -u_local_dir[i].xyz;
        }
        sum += u_local_colour[i].rgb * max(dot(n, to), 0.0) * atten;
    }
    return sum;
}

vec3 ambientCube(vec3 n) {
    vec3 sq = n * n;
    return sq.x * (n.x < 0.0 ? u_cube[1] : u_cube[0]) + sq.y * (n.y < 0.0 ? u_cube[3] : u_cube[2]) +
           sq.z * (n.z < 0.0 ? u_cube[5] : u_cube[4]);
}

// QuakeSpasm r_alias.c GLAlias_CreateShaders (r_avertexnormal_dot): the shade of a vertex
// from its normal, which approximates GLQuake's anorm_dots table.
float shadeDot(vec3 n) {
    float d = dot(n, u_shade_vector);
    return d < 0.0 ? 1.0 + d * (13.0 / 44.0) : 1.0 + d;
}

void main() {
    v_uv = a_uv;
    v_world = (u_model * vec4(a_position, 1.0)).xyz;
    if (u_chrome) {
        vec2 c = vec2(dot(a_normal, u_chrome_right), dot(a_normal, u_chrome_up)) + 1.0;
        v_uv = mix(u_chrome_rect.xy, u_chrome_rect.zw, clamp(c * u_chrome_scale, 0.0, 1.0));
    }
    // ioquake3 tr_light.c R_SetupEntityLighting turns the light direction into model space by
    // the entity's axes, which carry its scale (weapons as items: 1.5), and
    // tr_shade_calc.c RB_CalcDiffuseColor dots it with the model-space normal.
    // GoldSrc's R_StudioLighting wraps the light round the model (u_light_wrap, see
    // scene::EntityModelInstance::light_wrap); Quake 3's is plain Lambert.
    vec3 light_dir = transpose(mat3(u_model)) * u_light_dir;
    float d = dot(a_normal, light_dir);
    float wrapped = min(max((d + u_light_wrap.x) / u_light_wrap.y, 0.0), u_light_wrap.z);
    vec3 directed = u_directed_light * (u_flat_share >= 0.0 ? u_flat_share : wrapped);
    v_light = u_light * shadeDot(a_normal) + directed;
    if (u_cube_lit) {
        vec3 n = normalize(mat3(u_model) * a_normal);
        v_light = pow(max(ambientCube(n) + localLights(v_world, n), vec3(0.0)), vec3(1.0 / 2.2));
    }
    if (u_light_bytes > 0.0)
        v_light = min(floor(v_light * u_light_bytes), 255.0) / u_light_bytes;
    gl_Position = u_frame.view_projection * vec4(v_world, 1.0);
}
#endif
