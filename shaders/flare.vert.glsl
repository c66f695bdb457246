// Flares (render/flare_renderer.cpp). OCCLUSION_TEST: the flare's point, pulled a little toward
// the eye so the surface it sits on does not hide it. Otherwise: a screen-space square from
// gl_VertexID, centred at u_centre (NDC) with half size u_half (NDC).
#ifdef OCCLUSION_TEST
layout(location = ATTRIB_POSITION) in vec3 a_position;

void main() {
    vec3 to_eye = u_frame.eye - a_position;
    float len = length(to_eye);
    vec3 p = a_position + (len > 4.0 ? to_eye * (2.0 / len) : vec3(0.0));
    gl_Position = u_frame.view_projection * vec4(p, 1.0);
}
#else
uniform vec2 u_centre;
uniform vec2 u_half;
out vec2 v_uv;

void main() {
    const vec2 kCorners[6] =
        vec2[6](vec2(-1, -1), vec2(1, -1), vec2(1, 1), vec2(-1, -1), vec2(1, 1), vec2(-1, 1));
    vec2 c = kCorners[gl_VertexID];
    v_uv = vec2(c.x * 0.5 + 0.5, 0.5 - c.y * 0.5);
    gl_Position = vec4(u_centre + c * u_half, 0.0, 1.0);
}
#endif
