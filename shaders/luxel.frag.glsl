// Luxel grid overlay (WorldRenderer::drawFaceGroups, FaceOverlay::LuxelGrid): drawn over the
// already shaded world with depth LEQUAL; keeps only the fragments on a lightmap texel border
// of the face's lightmap page, computed from the interpolated lightmap coordinate and the
// page size, so the grid follows the luxels exactly whatever the view mode below it.
in vec2 v_lm_uv;
flat in float v_lm_layer;

uniform sampler2DArray u_lightmaps;
uniform vec4 u_flat_colour;

out vec4 o_colour;

void main() {
    if (v_lm_layer < 0.0)
        discard; // vertex-lit: no luxels
    vec2 texel = v_lm_uv * vec2(textureSize(u_lightmaps, 0).xy);
    vec2 width = max(fwidth(texel), vec2(1e-4));
    // Distance to the nearest border in pixels along each axis.
    vec2 d = min(fract(texel), 1.0 - fract(texel)) / width;
    if (min(d.x, d.y) > 0.75)
        discard;
    o_colour = u_flat_colour;
}
