// Depth pre-pass: the same transform as world.vert.glsl, so depths match exactly.
layout(location = ATTRIB_POSITION) in vec3 a_position;

uniform mat4 u_model;

invariant gl_Position;

void main() {
    vec4 world = u_model * vec4(a_position, 1.0);
    gl_Position = u_frame.view_projection * world;
    gl_ClipDistance[0] = dot(world, u_frame.clip_plane); // as world.vert.glsl
}
