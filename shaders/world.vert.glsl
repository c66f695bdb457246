layout(location = ATTRIB_POSITION) in vec3 a_position;
layout(location = ATTRIB_UV) in vec2 a_uv;
layout(location = ATTRIB_LM_UV) in vec2 a_lm_uv;
layout(location = ATTRIB_NORMAL) in vec3 a_normal;
layout(location = ATTRIB_COLOUR) in vec4 a_colour;
layout(location = ATTRIB_STYLES) in vec4 a_styles;
layout(location = ATTRIB_LM_LAYER) in float a_lm_layer;
layout(location = ATTRIB_LM_STEP) in float a_lm_step;

uniform mat4 u_model;
// The texture coordinates' move: uv' = uv + (dot(u_uv_linear.xy, uv), dot(u_uv_linear.zw, uv))
// + u_uv_scroll. u_uv_scroll: flowing surfaces' repeats per second times time, or the offset
// column of a Source texture matrix; u_uv_linear: that matrix's 2x2 part minus the identity
// (m00 - 1, m01, m10, m11 - 1), so the default 0 of both leaves the uv as they are
// (content/material/texture_transform.h; lightmappedgeneric_vs20.fxc computes the base
// coordinate from cBaseTexCoordTransform in its vertex shader, as here).
uniform vec2 u_uv_scroll;
uniform vec4 u_uv_linear;
#ifdef BUMP_MOTION
// BUMP_MOTION (BUMP variants, not water, of a material whose matrices move): the normal map's
// coordinates, from $bumptransform the same way (cDetailOrBumpTexCoordTransform), and the
// untransformed uv the tangent frame is taken from (the engine's vertex tangents come from the
// face's texture axes, not from a texture matrix).
uniform vec4 u_bump_linear;
uniform vec2 u_bump_offset;
out vec2 v_bump_uv;
out vec2 v_frame_uv;
#endif

out vec3 v_world;
#if defined(SKY_MODE) && (SKY_MODE == SKY_BOX || SKY_MODE == SKY_LAYERS)
out vec3 v_sky_dir; // sky.frag.glsl: the direction its look projects, per vertex (linear)
#endif
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
    // Used only where GL_CLIP_DISTANCE0 is on: a planar water's reflection keeps what lies above
    // the plane (WorldRenderer::drawWaterReflection).
    gl_ClipDistance[0] = dot(world, u_frame.clip_plane);
    v_world = world.xyz;
#if defined(SKY_MODE) && SKY_MODE == SKY_BOX
    v_sky_dir = skyBoxDirection(world.xyz);
#elif defined(SKY_MODE) && SKY_MODE == SKY_LAYERS
    // Quake 1's dome flattened three times in height (gl_warp.c EmitSkyPolys: dir[2] *= 3).
    v_sky_dir = (world.xyz - u_frame.eye) * vec3(1.0, 1.0, 3.0);
#endif
    v_uv = a_uv + vec2(dot(u_uv_linear.xy, a_uv), dot(u_uv_linear.zw, a_uv)) + u_uv_scroll;
#ifdef BUMP_MOTION
    v_bump_uv = a_uv + vec2(dot(u_bump_linear.xy, a_uv), dot(u_bump_linear.zw, a_uv)) +
                u_bump_offset;
    v_frame_uv = a_uv;
#endif
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
