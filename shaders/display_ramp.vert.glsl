// The display ramp (render/pass_display.cpp): one triangle covering the viewport, its corners
// from gl_VertexID, so no vertex data is read.
void main() {
    vec2 c = vec2(float((gl_VertexID & 1) << 2) - 1.0, float((gl_VertexID & 2) << 1) - 1.0);
    gl_Position = vec4(c, 0.0, 1.0);
}
