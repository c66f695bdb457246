// Entity models: the skin lit by the entity's light (the lightmap below it, / 200) and the
// vertex shade; the skin's alpha is 0 on fullbright texels, which keep their colour (cut ones
// when ALPHA_TEST). SPRITE:
// the picture, alpha-tested (u_alpha_test) or blended as the pass sets up, tinted by u_tint.
// Models come in two programs: ALPHA_TEST for the alpha-tested ranges, and one without, since a
// shader that may `discard` keeps the rasteriser from testing depth before it runs (llvmpipe
// then shades every covered pixel of an opaque range, hidden or not; issue 31).
// Both take u_alpha as their alpha (the pass blends by it for translucent render modes), the
// tone map's scale (u_frame.tone_scale: Source's vertexlit_and_unlit_generic FinalOutput with
// TONEMAP_SCALE_LINEAR) and, with FOG, the view's distance fog as the world takes it
// (common.glsl viewFog: QuakeSpasm's GL fog and the Source engine's fog cover models too): a
// define, not a uniform, since software GL would run the fog for every pixel of a map without.
in vec2 v_uv;
in vec3 v_light; // model.vert.glsl: ambient * shade + the directed light's share
in vec3 v_world;
out vec4 o_colour;
uniform sampler2D u_texture;
uniform bool u_unlit; // full bright entities and unlit views
#ifdef SPRITE
uniform bool u_alpha_test;
#endif
uniform float u_alpha; // the entity's render amount when blended (Half-Life renderamt), else 1
uniform vec3 u_tint;   // SPRITE: the entity's render colour, else (1, 1, 1)
uniform bool u_texture_alpha; // a translucent material (Source $translucent): blended by the
                              // texel's alpha, which marks no fullbright texels

void main() {
    vec4 t = texture(u_texture, v_uv);
#ifdef SPRITE
    if (u_alpha_test && t.a < 0.5)
        discard;
    o_colour = vec4(t.rgb * u_tint * u_frame.frame_scale * u_frame.tone_scale, t.a * u_alpha);
#ifdef FOG
    o_colour.rgb = viewFog(o_colour.rgb, v_world);
#endif
#else
    // ALPHA_TEST: a Half-Life masked texture, whose mask (alpha 0) marks the cut texels, or a
    // Source $alphatest material, sampled through its VTF's own mips as the engine does.
#ifdef ALPHA_TEST
    if (t.a < 0.5)
        discard;
    t.a = 1.0;
#endif
    vec3 lit = u_unlit ? t.rgb : t.rgb * v_light;
    if (u_texture_alpha)
        o_colour = vec4(lit * u_frame.frame_scale * u_frame.tone_scale, t.a * u_alpha);
    else
        o_colour = vec4(mix(t.rgb, lit, t.a) * u_frame.frame_scale * u_frame.tone_scale, u_alpha);
#ifdef FOG
    o_colour.rgb = viewFog(o_colour.rgb, v_world);
#endif
#endif
}
