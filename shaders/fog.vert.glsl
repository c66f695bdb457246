// Fog pass (render/world_renderer.cpp drawFog): the same transform as world.vert.glsl, so
// the pass lands on the depths the surfaces left.
layout(location = ATTRIB_POSITION) in vec3 a_position;

uniform mat4 u_model;

out vec3 v_world;

invariant gl_Position;

void main() {
    vec4 world = u_model * vec4(a_position, 1.0);
    gl_Position = u_frame.view_projection * world;
    gl_ClipDistance[0] = dot(world, u_frame.clip_plane); // as world.vert.glsl
    v_world = world.xyz;
}
