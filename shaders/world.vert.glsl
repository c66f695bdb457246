layout(location = ATTRIB_POSITION) in vec3 a_position;
layout(location = ATTRIB_UV) in vec2 a_uv;
layout(location = ATTRIB_LM_UV) in vec2 a_lm_uv;
layout(location = ATTRIB_NORMAL) in vec3 a_normal;
layout(location = ATTRIB_COLOUR) in vec4 a_colour;
layout(location = ATTRIB_STYLES) in vec4 a_styles;
layout(location = ATTRIB_LM_LAYER) in float a_lm_layer;
layout(location = ATTRIB_LM_STEP) in float a_lm_step;

uniform mat4 u_model;
uniform vec2 u_uv_scroll; // flowing surfaces: texture repeats per second times time

out vec3 v_world;
out vec2 v_uv;
out vec2 v_lm_uv;
out vec3 v_normal;
out vec4 v_colour;
flat out vec4 v_styles;
flat out float v_lm_layer;
flat out float v_lm_step;

invariant gl_Position;

void main() {
    vec4 world = u_model * vec4(a_position, 1.0);
    gl_Position = u_frame.view_projection * world;
    v_world = world.xyz;
    v_uv = a_uv + u_uv_scroll;
    v_lm_uv = a_lm_uv;
    v_normal = mat3(u_model) * a_normal;
    v_colour = a_colour;
    // kLayerEachStyle (-2, scene/world/world_mesh.h): a face without light data lit by its colour
    // once per style it lists (Yamagi's GL3 renderer). The styles are the face's, the same at
    // each vertex, so the sum scales the colour here rather than per pixel in world.frag.glsl.
    if (a_lm_layer < -1.5 && int(a_styles[0] + 0.5) != 255) {
        float sum = 0.0;
        for (int k = 0; k < 4; ++k) {
            int style = int(a_styles[k] + 0.5);
            if (style == 255)
                break;
            sum += styleValue(style);
        }
        v_colour.rgb *= sum;
    }
    v_styles = a_styles;
    v_lm_layer = a_lm_layer;
    v_lm_step = a_lm_step;
}
