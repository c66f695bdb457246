// Debug lines (render/debug_draw.cpp): world-space segments with a colour per vertex, seen
// through the frame's view (u_frame.view_projection).
layout(location = ATTRIB_POSITION) in vec3 a_position;
layout(location = ATTRIB_COLOUR) in vec4 a_colour;

out vec4 v_colour;

void main() {
    gl_Position = u_frame.view_projection * vec4(a_position, 1.0);
    v_colour = a_colour;
}
