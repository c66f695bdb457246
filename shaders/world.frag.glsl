in vec3 v_world;
in vec2 v_uv;
in vec2 v_lm_uv;
in vec3 v_normal;
in vec4 v_colour;
flat in vec4 v_styles;
flat in float v_lm_layer;
flat in float v_lm_step;

uniform sampler2D u_texture;
uniform sampler2D u_glow;          // fullbright texels (alpha 1), black elsewhere
uniform sampler2DArray u_lightmaps;
uniform float u_style_values[64]; // brightness of each light style slot
uniform int u_view;               // VIEW_*
uniform float u_light_scale;      // lightmap and vertex colour multiplier (overbright shift)
uniform bool u_light_normalize;   // scale an over-bright colour down by its largest channel
uniform float u_output_scale;     // final multiplier (Quake 3 gamma-ramp overbright)
uniform float u_alpha;            // blended surfaces
uniform float u_alpha_cutoff;     // alpha-tested surfaces, < 0 disables
uniform vec4 u_flat_colour;       // VIEW_FLAT / sky without texture
uniform bool u_warp;              // turbulent liquid warp (Quake 1 / Quake 2)
uniform float u_time;             // seconds

out vec4 o_colour;

vec3 lighting() {
    if (v_lm_layer < 0.0)
        return v_colour.rgb;
    vec3 light = vec3(0.0);
    for (int k = 0; k < 4; ++k) {
        int style = int(v_styles[k] + 0.5);
        if (style == 255)
            break;
        vec2 uv = v_lm_uv + vec2(float(k) * v_lm_step, 0.0);
        light += texture(u_lightmaps, vec3(uv, v_lm_layer)).rgb * u_style_values[style & 63];
    }
    return light;
}

void main() {
    vec2 uv = v_uv;
    if (u_warp) {
        // Quake's turbulence: each coordinate swings by 1/8 of a 64-texel texture as a sine
        // of the other (gl_warp.c uses os + sin(ot / 8 + t) * 8 in texels).
        uv += 0.125 * sin(v_uv.yx * 8.0 + u_time);
    }
    vec4 tex = texture(u_texture, uv);
    if (u_alpha_cutoff >= 0.0 && tex.a < u_alpha_cutoff)
        discard;
    if (u_view == VIEW_FLAT) {
        o_colour = vec4(u_flat_colour.rgb * (0.55 + 0.45 * abs(normalize(v_normal).z)), 1.0);
        return;
    }
    if (u_view == VIEW_OVERDRAW) {
        // Additive, depth test off: each layer of fragments adds a step of heat.
        o_colour = vec4(0.10, 0.045, 0.015, 1.0);
        return;
    }
    if (u_view == VIEW_NORMALS) {
        o_colour = vec4(normalize(v_normal) * 0.5 + 0.5, 1.0);
        return;
    }
    vec3 light = lighting() * u_light_scale;
    if (u_light_normalize) {
        float m = max(light.r, max(light.g, light.b));
        if (m > 1.0)
            light /= m;
    }
    vec3 colour;
    if (u_view == VIEW_LIGHTMAP)
        colour = light;
    else if (u_view == VIEW_FULLBRIGHT)
        colour = tex.rgb;
    else
        colour = mix(tex.rgb * light, texture(u_glow, uv).rgb, texture(u_glow, uv).a);
    o_colour = vec4(min(colour * u_output_scale, vec3(1.0)), tex.a * u_alpha);
}
