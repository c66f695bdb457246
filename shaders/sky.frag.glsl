// Sky surfaces drawn without shader stages. One look per program (SKY_MODE, fixed at compile
// time: software GL pays for every texture fetch a runtime branch skips):
// - SKY_BOX: the map's sky box (Quake 2, Half-Life, a Quake 3 far box);
// - SKY_LAYERS: Quake 1's two-layer sky, the texture's right half the back layer, the left half
//   the front layer (black = see-through), both projected on a flattened dome around the eye
//   and scrolling at different speeds (gl_warp.c EmitSkyPolys);
// - SKY_TEXTURE: the sky texture at full brightness;
// - SKY_FLAT: a flat colour.
in vec2 v_uv;
// SKY_BOX: the box direction (skyBoxDirection); SKY_LAYERS: the view ray with z times 3, the
// dome's flattening (world.vert.glsl computes both per vertex: they are linear in the position).
in vec3 v_sky_dir;

uniform sampler2D u_texture;
uniform sampler2DArray u_skybox; // six faces: rt bk lf ft up dn (content/skybox.h)
uniform vec4 u_flat_colour;

out vec4 o_colour;

// One layer of a Quake 1 sky: the half of u_texture that starts at texel column `first`,
// repeating every 128 units of the projected direction, filtered bilinearly within that half
// (QuakeSpasm gl_sky.c loads the halves as two textures: filtering never reaches the other
// layer, so no seam where a layer wraps). rgb is premultiplied by alpha; alpha is 0 on black
// texels of the front layer (its see-through texels) and 1 elsewhere, filtered as QuakeSpasm's
// alpha texture is, so the front layer's edges are soft.
vec4 skyLayer(vec3 dir, float speed, int first, bool cut_black) {
    ivec2 size = textureSize(u_texture, 0);
    ivec2 half_size = ivec2(size.x / 2, size.y);
    vec2 p = (vec2(speed) + dir.xy) / 128.0 * vec2(half_size) - 0.5;
    vec2 i0 = floor(p);
    vec2 f = p - i0;
    vec4 sum = vec4(0.0);
    for (int k = 0; k < 4; ++k) {
        ivec2 d = ivec2(k & 1, k >> 1);
        ivec2 t = ivec2(mod(i0 + vec2(d), vec2(half_size))); // GLSL's % is undefined below 0
        vec3 c = texelFetch(u_texture, ivec2(t.x + first, t.y), 0).rgb;
        float a = cut_black && !any(greaterThan(c, vec3(0.0))) ? 0.0 : 1.0;
        vec2 w2 = mix(1.0 - f, f, vec2(d));
        sum += w2.x * w2.y * vec4(c * a, a);
    }
    return sum;
}

#ifndef SKY_MODE
#define SKY_MODE SKY_FLAT
#endif

void main() {
#if SKY_MODE == SKY_BOX
    o_colour = vec4(textureLod(u_skybox, skyboxCoord(v_sky_dir), 0.0).rgb, 1.0);
#elif SKY_MODE == SKY_FLAT
    o_colour = u_flat_colour;
#elif SKY_MODE == SKY_TEXTURE
    o_colour = vec4(texture(u_texture, v_uv).rgb, 1.0);
#else
    vec3 dir = v_sky_dir * ((6.0 * 63.0) / length(v_sky_dir));
    int half_width = textureSize(u_texture, 0).x / 2;
    vec3 back = skyLayer(dir, u_frame.time * 8.0, half_width, false).rgb;
    vec4 front = skyLayer(dir, u_frame.time * 16.0, 0, true);
    o_colour = vec4(back * (1.0 - front.a) + front.rgb, 1.0);
#endif
#if SKY_MODE != SKY_FLAT && defined(OUTPUT_GAMMA)
    // yquake2 GL3 fragmentSrc3Dsky: the sky texel to the power 1 / vid_gamma, no intensity.
    o_colour.rgb = pow(o_colour.rgb, vec3(u_map.output_gamma));
#endif
    // The tone map's scale too (Source's sky_ps2x.fxc ends with TONEMAP_SCALE_LINEAR).
    o_colour.rgb = mix(o_colour.rgb, u_map.sky_fog.rgb, u_map.sky_fog.a) * u_frame.frame_scale *
                   u_frame.tone_scale;
}
