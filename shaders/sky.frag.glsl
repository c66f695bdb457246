// Sky surfaces until shader-script skies land: the sky texture when the map has one, at full
// brightness, otherwise a flat colour.
in vec2 v_uv;
in vec2 v_lm_uv;
in vec3 v_normal;
in vec4 v_colour;
flat in vec4 v_styles;
flat in float v_lm_layer;
flat in float v_lm_step;

uniform sampler2D u_texture;
uniform bool u_sky_textured;
uniform vec4 u_flat_colour;

out vec4 o_colour;

void main() {
    o_colour = u_sky_textured ? vec4(texture(u_texture, v_uv).rgb, 1.0) : u_flat_colour;
}
