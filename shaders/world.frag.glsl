// World surfaces. Compiled per variant (render/world_renderer.cpp): the defines below are
// fixed at compile time, because software GL runs both sides of a runtime branch, so every
// texture fetch that a uniform `if` skips would still cost its full price.
//   VIEW        one of the VIEW_* modes (common.glsl)
//   STYLES      light styles to sum per texel, 1..4 (the most any face of the map uses)
//   ALPHA_TEST  cut out texels with alpha < u_alpha_cutoff (only this variant may discard:
//               a shader that can discard loses early depth rejection)
//   WARP        Quake 1 / Quake 2 turbulent liquid warp
//   GLOW        Quake 1 fullbright texels from u_glow
//   LAYER2      a second image (u_layer2) mixed over u_texture by the vertex colour's alpha
//               (Source $basetexture2); only materials that have one pay for the fetch
//   BUMP        Source radiosity normal mapping: faces marked bump-lit (lm_layer's fraction,
//               scene/world/world_mesh.h kBumpLitLayer) weight their three directional
//               lightmaps by u_bumpmap's normal (SSBUMP: by its texel, the $ssbump weights);
//               BUMP_MOTION: the material's texture matrices move, so the normal map has its
//               own coordinates ($bumptransform) and the tangent frame the face's own uv
//   WATER       shaded as water instead of textured (scene::ResolvedMaterial::water): Source's
//               cheap water (WaterCheap_ps2x.fxc), opaque over u_water_base; WATER_BLEND: its
//               blended form, alpha from the fresnel factor and the distance to the eye. With
//               BUMP, u_bumpmap is the water's $normalmap (no bump lighting: water takes no
//               light); with ENVMAP, u_envmap is its environment (no LightmappedGeneric
//               reflection added). WATER_PLANAR: the expensive path instead (water_ps2x_helper.h
//               DrawWater): u_water_reflection, the view mirrored in the water's plane, and with
//               WATER_REFRACT the frame beneath (u_water_scene, u_water_depth), looked up at the
//               pixel's screen position moved by the normal map
//   ENVMAP      Source $envmap: a cube map's colour along the reflected view added to the lit
//               colour (scene::ResolvedMaterial::envmap), masked by u_envmapmask's rgb
//               (ENVMAP_MASK), 1 - the base alpha (ENVMAP_BASE_ALPHA, the alpha then no
//               opacity) or the normal map's alpha (ENVMAP_NORMAL_ALPHA, with BUMP)
//   DISTANCE_FOG  the map's fog over the whole view (Quake 1 worldspawn fog): GL_EXP2 by the
//               depth along the view axis, as fixed-function GL fogs it in QuakeSpasm
//   TEXTURE_MAX, LIGHT_MAX, LIGHT_NORMALIZE, OUTPUT_GAMMA  the steps of the map's
//               light curve (u_map) that its rule has (render::LightCurve)
//   FULLBRIGHT_LIGHT  the batch's light is u_fullbright_light, not its lightmap
//   SOLID_COLOUR  u_solid_colour instead of the texel (GoldSrc render mode colour)
//   FOG_PASS    the surface is in a Quake 3 fog volume: its colour fogs here, as the fog pass
//               would have fogged it (render/world_renderer.cpp fogInProgram)
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
#ifdef LAYER2
uniform sampler2D u_layer2; // the second layer, at the same uv as u_texture
#endif
#ifdef BUMP
// Tangent-space normal map (SSBUMP: weights): at BUMP_UV, the tangent frame from FRAME_UV. With
// BUMP_MOTION (a material whose texture matrices move: scene::ResolvedMaterial::motion) these are
// $bumptransform's coordinates and the face's own uv, interpolated apart; otherwise both are v_uv,
// the face's own, so a still material pays for no extra interpolants. Water's are v_uv,
// untransformed.
uniform sampler2D u_bumpmap;
#ifdef BUMP_MOTION
in vec2 v_bump_uv;
in vec2 v_frame_uv;
#define BUMP_UV v_bump_uv
#define FRAME_UV v_frame_uv
#else
#define BUMP_UV v_uv
#define FRAME_UV v_uv
#endif
#endif
#ifdef ENVMAP
uniform samplerCube u_envmap; // +X, -X, +Y, -Y, +Z, -Z: Source's right, left, back, front, up, down
#ifdef ENVMAP_MASK
uniform sampler2D u_envmapmask; // at u_texture's uv
#endif
uniform vec3 u_envmap_tint;      // $envmaptint
uniform float u_envmap_contrast; // the numbers the engine's shader runs with (envMapShading)
uniform float u_envmap_saturation;
uniform float u_envmap_fresnel; // $fresnelreflection: the reflection's share seen head-on
#endif
uniform sampler2DArray u_lightmaps;
uniform sampler2DArray u_deluxemaps; // VIEW_DELUXE: light directions, layers as u_lightmaps
uniform float u_fullbright_light; // > 0: the light of a surface drawn without lightmaps
uniform vec4 u_solid_colour;      // a > 0: this colour instead of the texture's (GoldSrc
                                  // kRenderTransColor)
uniform float u_alpha;            // blended surfaces
// Source's $color as a proxy sets it (1 otherwise): scales the lit colour, as the engine's
// modulation colour scales the diffuse light (lightmappedgeneric_ps2_3_x.h,
// g_TintValuesAndLightmapScale).
uniform vec3 u_tint;
uniform float u_alpha_cutoff;     // alpha-tested surfaces
uniform vec4 u_flat_colour;       // VIEW_FLAT
// The light rule (u_map), the view and the light styles (u_frame): gpu_interface.h.
#ifdef WATER
uniform vec3 u_water_base;         // opaque water: the colour under the reflection
uniform vec3 u_water_reflect_tint; // the reflection's colour
uniform vec2 u_water_fade;         // WATER_BLEND: eye distances where the alpha ramp starts, ends
uniform float u_water_weight;      // >= 0: the reflection's weight instead of the fresnel factor
#ifdef WATER_PLANAR
// The engine's reflection view (viewrender.cpp CAboveWaterView::CReflectionView): the eye
// mirrored in the plane, pitch negated, so its picture is the reflection upside down.
uniform sampler2D u_water_reflection;
uniform vec4 u_water_viewport; // the frame's viewport: x, y, width, height in pixels
uniform vec2 u_water_amounts;  // $reflectamount, $refractamount: screen offset per normal unit
#ifdef WATER_REFRACT
uniform sampler2D u_water_scene; // the frame's colour before the water, viewport-sized
uniform sampler2D u_water_depth; // its depth
uniform mat4 u_water_unproject;  // clip -> world, for a depth sample's position
uniform vec2 u_water_fog;        // the fog's plane height, 1 / ($fogend - $fogstart)
#endif
#endif
#endif
#ifdef FOG_PASS
uniform float u_fog_distance; // depth at which the fog is opaque
uniform bool u_fog_has_surface;
uniform vec4 u_fog_surface;   // visible side: normal into the fog, dist
uniform vec3 u_fog_colour;
#endif

out vec4 o_colour;

#ifndef VIEW
#define VIEW VIEW_LIT
#endif
#ifndef STYLES
#define STYLES 1
#endif

vec3 lighting() {
    vec3 light = vec3(0.0);
    // No lightmap: the vertex colour (for kLayerEachStyle already summed per style by
    // world.vert.glsl, so that this branch, which software GL runs for every pixel, stays short).
    if (v_lm_layer < 0.0)
        return v_colour.rgb;
    for (int k = 0; k < STYLES; ++k) {
        int style = int(v_styles[k] + 0.5);
        if (style == 255)
            break;
        vec2 uv = v_lm_uv + vec2(float(k) * v_lm_step, 0.0);
        light += texture(u_lightmaps, vec3(uv, v_lm_layer)).rgb * styleValue(style);
    }
    return light;
}

#ifdef BUMP
// The tangent frame at this pixel, as columns (X, Y, N): X the unit direction in which the
// texture's u grows along the surface, Y = N x X turned, when the texture is mirrored, to the
// side where v grows, N the unit normal `n`. No tangents travel with the vertices: the gradients
// of u and v along the surface come from the screen-space derivatives of the world position and
// the uv (the "cotangent frame" of normal mapping without precomputed tangents: with
// dp1 = dFdx(p), dp2 = dFdy(p), grad u = ((dp2 x N) du/dx + (N x dp1) du/dy) / (N . (dp1 x dp2)),
// and grad v alike).
// Handedness, Source's: mathlib/bumpvects.cpp GetBumpNormals, the basis vrad lights the bumped
// lightmaps in, builds X from the texinfo s axis projected onto the face, Y = N x s normalised
// and negated when (s x t) . N < 0, and takes a tangent-space vector b to b.x X + b.y Y + b.z N
// (VectorIRotate), as WaterCheap_vs20.fxc and lightmappedgeneric_vs20.fxc take the vertex
// tangents S, T and N as tangentSpaceTranspose rows. The engine fills those brush-vertex
// tangents outside the SDK; they are taken here to be that basis (s and t, t turned to the
// side of N x s that t lies on), the one the bumped lightmaps need to match. The uv here are
// Source's own (s, t over the texture size, not flipped: scene/world/world_mesh.cpp), so a VTF
// normal map's green is +t, towards the image's bottom row (the DirectX way round), and is used
// as stored: common_ps_fxc.h DecompressNormal only maps 0..1 to -1..1 (NORM_DECODE_NONE).
// Without a uv gradient (a texture coordinate constant across the face) X and Y are 0: the
// normal map's tilt is dropped, its z still scales N.
mat3 tangentFrame(vec3 n, vec3 p, vec2 uv) {
    vec3 dp1 = dFdx(p), dp2 = dFdy(p);
    vec2 duv1 = dFdx(uv), duv2 = dFdy(uv);
    vec3 dp2perp = cross(dp2, n), dp1perp = cross(n, dp1);
    float area = dot(dp1, dp2perp); // N . (dp1 x dp2): its sign turns the sums into gradients
    vec3 grad_u = (dp2perp * duv1.x + dp1perp * duv2.x) * sign(area);
    vec3 grad_v = (dp2perp * duv1.y + dp1perp * duv2.y) * sign(area);
    if (!(dot(grad_u, grad_u) > 1e-30))
        return mat3(vec3(0.0), vec3(0.0), n);
    vec3 x = normalize(grad_u);
    vec3 y = cross(n, x);
    return mat3(x, dot(y, grad_v) < 0.0 ? -y : y, n);
}

// The normal map's texel at uv as a direction about the unit normal n (not renormalised, as the
// engine's shaders use it: DecompressNormal's 2 t - 1 through the tangent frame of frame_uv).
vec3 normalMapNormal(vec3 n, vec2 uv, vec2 frame_uv) {
    return tangentFrame(n, v_world, frame_uv) * (texture(u_bumpmap, uv).rgb * 2.0 - 1.0);
}
#endif

#if defined(BUMP) && !defined(WATER)
// Source SDK 2013 lightmappedgeneric_ps2_3_x.h main: the light along the three bump basis
// directions (mathlib/bumpvects.h g_localBumpBasis, tangent space, z out of the face) weighted
// by dp = saturate(dot(normal, basis))^2 over their sum; $ssbump's texel is the weights as they
// are. Style k's direction b lies (styles + 3k + b) blocks along the face's row
// (bsp::Face::bump_light).
vec3 bumpLighting(vec2 uv) {
    vec3 weights = texture(u_bumpmap, uv).rgb;
#ifndef SSBUMP
    vec3 n = weights * 2.0 - 1.0;
    vec3 dp = clamp(vec3(dot(n, vec3(0.81649658, 0.0, 0.57735027)),
                         dot(n, vec3(-0.40824829, 0.70710678, 0.57735027)),
                         dot(n, vec3(-0.40824829, -0.70710678, 0.57735027))),
                    0.0, 1.0);
    dp *= dp;
    weights = dp / max(dp.x + dp.y + dp.z, 1e-6);
#endif
    int styles = 0;
    for (int k = 0; k < 4; ++k)
        if (int(v_styles[k] + 0.5) != 255)
            styles = k + 1;
    vec3 light = vec3(0.0);
    for (int k = 0; k < STYLES; ++k) {
        int style = int(v_styles[k] + 0.5);
        if (style == 255)
            break;
        vec3 at = vec3(v_lm_uv + vec2(float(styles + 3 * k) * v_lm_step, 0.0), v_lm_layer);
        vec3 step = vec3(v_lm_step, 0.0, 0.0);
        vec3 l0 = texture(u_lightmaps, at).rgb;
        vec3 l1 = texture(u_lightmaps, at + step).rgb;
        vec3 l2 = texture(u_lightmaps, at + 2.0 * step).rgb;
        light += (weights.x * l0 + weights.y * l1 + weights.z * l2) * styleValue(style);
    }
    return light;
}
#endif

#if defined(ENVMAP) && !defined(WATER)
// Source SDK 2013 lightmappedgeneric_ps2_3_x.h main, the CUBEMAP combo: the cube map along the
// view reflected about the normal (common_fxc.h CalcReflectionVectorUnnormalized: 2 (N.E) N - E
// for the unit normal N and E the vector to the eye), times the mask, times $envmaptint, with
// contrast (a mix towards its square) and saturation (a mix from its luminance), times the
// fresnel factor (1 - N.V)^5 (1 - R) + R for the unit V to the eye (1 with the default R 1).
// The engine's ENV_MAP_SCALE (common_ps_fxc.h cLightScale.z) is taken as 1, the LDR value.
// With BUMP, N is the normal map's (as the shader's worldSpaceNormal = mul(vNormal,
// tangentSpaceTranspose)): its texel 2 t - 1 through the tangent frame (tangentFrame), not
// renormalised, so the reflection is 2 (N.E) N - (N.N) E; an $ssbump texel's weights make the
// normal normalize(sum of weight k times bump basis k) first (the SSBUMP branch). Without a
// normal map, the face's interpolated normal. The mask is read at the base texture's uv (the
// engine's $envmapmasktransform is not read).
vec3 envMapReflection(vec2 uv, float base_alpha) {
    vec3 n = normalize(v_normal);
#ifdef BUMP
#ifdef SSBUMP
    vec3 w = texture(u_bumpmap, BUMP_UV).rgb;
    n = tangentFrame(n, v_world, FRAME_UV) *
        normalize(w.x * vec3(0.81649658, 0.0, 0.57735027) +
                  w.y * vec3(-0.40824829, 0.70710678, 0.57735027) +
                  w.z * vec3(-0.40824829, -0.70710678, 0.57735027));
#else
    n = normalMapNormal(n, BUMP_UV, FRAME_UV);
#endif
#endif
    vec3 to_eye = u_frame.eye - v_world;
    vec3 c = texture(u_envmap, 2.0 * dot(n, to_eye) * n - dot(n, n) * to_eye).rgb;
#ifdef ENVMAP_MASK
    c *= texture(u_envmapmask, uv).rgb;
#endif
#ifdef ENVMAP_BASE_ALPHA
    c *= 1.0 - base_alpha;
#endif
#ifdef ENVMAP_NORMAL_ALPHA
    c *= texture(u_bumpmap, BUMP_UV).a;
#endif
    c *= u_envmap_tint;
    c = mix(c, c * c, u_envmap_contrast);
    c = mix(vec3(dot(c, vec3(0.299, 0.587, 0.114))), c, u_envmap_saturation);
    float edge = 1.0 - dot(n, normalize(to_eye));
    float edge2 = edge * edge;
    return c * (edge2 * edge2 * edge * (1.0 - u_envmap_fresnel) + u_envmap_fresnel);
}
#endif

#ifdef WARP
// The ripple at surface texel c (game::WarpRule period, knot_spacing): a sine, or
// QuakeSpasm's warp image grid, where the sine is taken at every u_map.warp_knot texels and the
// texture coordinates are interpolated linearly between.
vec2 ripple(vec2 c) {
    if (u_map.warp_knot <= 0.0)
        return sin(c * u_map.warp_frequency + u_frame.warp_phase);
    vec2 k0 = floor(c / u_map.warp_knot) * u_map.warp_knot;
    vec2 a = sin(k0 * u_map.warp_frequency + u_frame.warp_phase);
    vec2 b = sin((k0 + u_map.warp_knot) * u_map.warp_frequency + u_frame.warp_phase);
    return mix(a, b, (c - k0) / u_map.warp_knot);
}
#endif

#ifdef WATER
// The environment's colour seen along `dir` (unnormalised) from the water: the material's cube
// map (ENVMAP: $envmap, or the nearest env_cubemap vbsp patched in) as WaterCheap_ps2x.fxc's
// texCUBE(EnvmapSampler, reflectVect) reads it, times the engine's ENV_MAP_SCALE taken as 1 (the
// LDR value, as for LightmappedGeneric); white without one.
vec3 waterEnvironment(vec3 dir) {
#ifdef ENVMAP
    return texture(u_envmap, dir).rgb;
#else
    return vec3(1.0);
#endif
}

#ifdef WATER_PLANAR
#ifdef WATER_REFRACT
// The refraction texture's alpha at screen position s (common_ps_fxc.h CalcWaterFogAlpha, the
// height fog the engine's refraction view draws the world with and writes to destination
// alpha): the share of the view ray to the surface there that lies under the fog plane,
// saturate((plane - z) / (eye z - z)), times its depth along the view axis over the fog range.
// Where the frame holds nothing under the fog plane (a surface above it, or nothing drawn),
// the engine's refraction view, clipped to what lies below that plane and cleared to the fog
// colour (viewrender.cpp CAboveWaterView::CRefractionView::Draw, SetClearColorToFogColor),
// shows its clear colour: the fog colour, taken at alpha 1.
float waterFogAlpha(vec2 s) {
    float d = texture(u_water_depth, s).r;
    vec4 w = u_water_unproject * vec4(s * 2.0 - 1.0, d * 2.0 - 1.0, 1.0);
    vec3 p = w.xyz / w.w;
    if (d >= 1.0 || p.z > u_water_fog.x)
        return 1.0;
    float under = clamp((u_water_fog.x - p.z) / (u_frame.eye.z - p.z), 0.0, 1.0);
    float depth = dot(p - u_frame.eye, u_frame.view_forward);
    return clamp(under * depth * u_water_fog.y, 0.0, 1.0);
}

// The refraction texture at s: the frame's colour mixed toward the fog colour by its alpha
// (BlendPixelFog, PIXEL_FOG_TYPE_HEIGHT), and that alpha.
vec4 waterRefraction(vec2 s) {
    float fog = waterFogAlpha(s);
    return vec4(mix(texture(u_water_scene, s).rgb, u_water_base, fog), fog);
}
#endif

// Source SDK 2013 water_ps2x_helper.h DrawWater, above the water (ABOVEWATER), one normal-map
// sample, no base texture, no blurred refraction. t is the normal map's texel 2 t - 1 in
// tangent space (0, 0, 1 without a map) with its alpha a; the reflection and refraction are
// read at this pixel's screen position plus t.xy a times $reflectamount / $refractamount, the
// offsets first scaled by the refraction's alpha at the unmoved position. Texture space is
// Direct3D's in the engine (v down the picture; the reflection's v up, its picture being upside
// down): both offsets move up the screen by -t.y, so here (v up) both add (t.x, -t.y). F is
// the cheap path's fresnel factor times saturate((alpha - 0.05) 20) at the moved position; the
// refraction mixed toward the fog colour by saturate(alpha - 0.05); the colour mix(refraction,
// reflection $reflecttint, F), alpha 1. The non-blurred path does not apply $refracttint.
// Without refraction (REFRACT 0): the tinted reflection alone.
vec4 waterPlanar(vec3 n_world, float n_dot_v) {
#ifdef BUMP
    vec4 texel = texture(u_bumpmap, v_uv);
    vec3 t = texel.rgb * 2.0 - 1.0;
    float a = texel.a;
#else
    vec3 t = vec3(0.0, 0.0, 1.0);
    float a = 1.0;
#endif
    vec2 s = (gl_FragCoord.xy - u_water_viewport.xy) / u_water_viewport.zw;
    vec2 scale = u_water_amounts;
#ifdef WATER_REFRACT
    scale *= waterFogAlpha(s);
#endif
    vec2 offset = vec2(t.x, -t.y) * a;
    vec2 r = s + offset * scale.x;
    vec3 reflection = texture(u_water_reflection, vec2(r.x, 1.0 - r.y)).rgb * u_water_reflect_tint;
#ifdef WATER_REFRACT
    vec4 refraction = waterRefraction(s + offset * scale.y);
    float edge = 1.0 - clamp(n_dot_v, 0.0, 1.0);
    float edge2 = edge * edge;
    float fresnel = edge2 * edge2 * edge * clamp((refraction.a - 0.05) * 20.0, 0.0, 1.0);
    vec3 below = mix(refraction.rgb, u_water_base, clamp(refraction.a - 0.05, 0.0, 1.0));
    return vec4(mix(below, reflection, fresnel), 1.0);
#else
    return vec4(reflection, 1.0);
#endif
}
#endif

// Source SDK 2013 WaterCheap_ps2x.fxc main (one normal-map sample: no MULTITEXTURE): N is the
// $normalmap texel through the tangent frame (BUMP; tangentFrame), else the face normal. The
// reflection is the environment along the view reflected about N (common_fxc.h
// CalcReflectionVectorUnnormalized: 2 (N.V) N - (N.N) V) times the tint, weighted by the fresnel
// factor F = (1 - max(0, V.N))^5 (the FRESNEL combo) or by u_water_weight where that is not
// negative (no FRESNEL: $reflectblendfactor). Opaque: mixed over the base colour, alpha 1.
// WATER_BLEND: the reflection alone with alpha saturate(F + saturate((d - start) / (end -
// start))), d the eye distance (the shader's flWorldSpaceDist * g_CheapWaterDeltaRecip -
// g_CheapWaterStartDivDelta, water.cpp DrawCheapWater's constants). The normal map is read at
// the face's own uv: WaterCheap_vs20.fxc passes the texture coordinate through untransformed
// (its $bumptransform lines are commented out), so cheap water ignores $bumptransform.
vec4 waterShading() {
    vec3 to_eye = u_frame.eye - v_world;
    float dist = length(to_eye);
    vec3 v = dist > 0.0 ? to_eye / dist : vec3(0.0, 0.0, 1.0);
    vec3 n = normalize(v_normal);
#ifdef BUMP
    n = normalMapNormal(n, v_uv, v_uv);
#endif
    float n_dot_v = dot(v, n);
#ifdef WATER_PLANAR
    return waterPlanar(n, n_dot_v);
#else
    vec3 reflection = waterEnvironment(2.0 * n_dot_v * n - dot(n, n) * v) * u_water_reflect_tint;
    float edge = 1.0 - max(0.0, n_dot_v);
    float edge2 = edge * edge;
    float fresnel = u_water_weight >= 0.0 ? u_water_weight : edge2 * edge2 * edge;
#ifdef WATER_BLEND
    float span = u_water_fade.y - u_water_fade.x;
    float far_share = span != 0.0 ? clamp((dist - u_water_fade.x) / span, 0.0, 1.0)
                                  : (dist >= u_water_fade.x ? 1.0 : 0.0);
    return vec4(reflection, clamp(fresnel + far_share, 0.0, 1.0));
#else
    return vec4(mix(u_water_base, reflection, fresnel), 1.0);
#endif
#endif
}
#endif

void main() {
#if VIEW == VIEW_OVERDRAW
    // Additive, depth test off: each layer of fragments adds a step of heat.
    o_colour = vec4(0.10, 0.045, 0.015, 1.0);
#elif VIEW == VIEW_NORMALS
    o_colour = vec4(normalize(v_normal) * 0.5 + 0.5, 1.0);
#elif VIEW == VIEW_DELUXE
    // As q3map2 stored it: a direction mapped from [-1,1] to [0,1], so light from +z is blue.
    vec3 dir = v_lm_layer < 0.0 ? vec3(0.5) : texture(u_deluxemaps, vec3(v_lm_uv, v_lm_layer)).rgb;
    o_colour = vec4(dir, 1.0);
#elif VIEW == VIEW_FLAT && !defined(ALPHA_TEST)
    o_colour = vec4(u_flat_colour.rgb * (0.55 + 0.45 * abs(normalize(v_normal).z)), 1.0);
#else
    vec2 uv = v_uv;
#ifdef WARP
    // Quake's turbulence: each coordinate swings as a sine of the other. The map sets how far
    // (game::WarpRule::amplitude: Quake 1 gl_warp.c 8 texels of a 64-texel tile, Quake 2's GL3
    // renderer 4), the ripple's period (game::WarpRule::period: GLQuake 16 pi texels,
    // QuakeSpasm 128), how it is sampled and how many texels a uv unit spans (warp_tile).
    vec2 size = u_map.warp_tile > 0.0 ? vec2(u_map.warp_tile) : vec2(textureSize(u_texture, 0));
    uv += (u_map.warp_amplitude * 64.0 / size) * ripple(v_uv.yx * size.yx);
#endif
#ifdef WATER
    // Shaded, not textured: the colour and opacity stand where the texel would.
    vec4 tex = waterShading();
#else
    vec4 tex = texture(u_texture, uv);
#ifdef LAYER2
    // Source's WorldVertexTransition (lightmappedgeneric_ps2_3_x.h): the colour goes linearly
    // from the first layer (alpha 0) to the second (alpha 1); opacity stays the first's.
    tex.rgb = mix(tex.rgb, texture(u_layer2, uv).rgb, v_colour.a);
#endif
#ifdef SOLID_COLOUR
    tex = vec4(u_solid_colour.rgb, 1.0);
#endif
#endif
#ifdef ALPHA_TEST
    if (tex.a < u_alpha_cutoff)
        discard;
#endif
#if VIEW == VIEW_FLAT
    o_colour = vec4(u_flat_colour.rgb * (0.55 + 0.45 * abs(normalize(v_normal).z)), 1.0);
#elif VIEW == VIEW_FULLBRIGHT
    o_colour = vec4(tex.rgb * u_tint, tex.a * u_alpha);
#else
#if defined(BUMP) && !defined(WATER)
    // Bump-lit faces only (the vertex's layer carries the mark); the others of the material
    // keep their flat lightmap.
    vec3 light =
        (v_lm_layer >= 0.0 && fract(v_lm_layer) > 0.125 ? bumpLighting(BUMP_UV) : lighting()) *
        u_map.light_scale;
#else
    vec3 light = lighting() * u_map.light_scale;
#endif
#ifdef LIGHT_MAX
    light = min(light, vec3(u_map.light_max));
#endif
#ifdef FULLBRIGHT_LIGHT
    light = vec3(u_fullbright_light);
#endif
#ifdef LIGHT_NORMALIZE
    light /= max(1.0, max(light.r, max(light.g, light.b)));
#endif
#if VIEW == VIEW_LIGHTMAP
    vec3 colour = light;
#else
    vec3 colour = tex.rgb * u_map.texture_scale;
#ifdef TEXTURE_MAX
    colour = min(colour, vec3(u_map.texture_max));
#endif
    colour *= light * u_tint;
#ifdef GLOW
    vec4 glow = texture(u_glow, uv);
    colour = mix(colour, glow.rgb, glow.a);
#endif
#if defined(ENVMAP) && !defined(WATER)
    // After the light and the self-illumination, as the engine adds specularLighting.
    colour += envMapReflection(uv, tex.a);
#endif
#endif
#ifdef OUTPUT_GAMMA
    colour = pow(max(colour, vec3(0.0)), vec3(u_map.output_gamma));
#endif
#ifdef ENVMAP_BASE_ALPHA
    tex.a = 1.0; // the mask, not opacity (the engine's alpha stays 1 with BASEALPHAENVMAPMASK)
#endif
    // The tone map's scale before the clamp (Source HDR: FinalOutput's TONEMAP_SCALE_LINEAR).
#ifdef WATER_PLANAR
    // Its pictures hold the frame's colours already: no scale again (the engine's water shader
    // writes with TONEMAP_SCALE_NONE).
    o_colour = vec4(min(tex.rgb, vec3(1.0)), 1.0);
#else
    o_colour = vec4(min(colour * u_map.output_scale * u_frame.tone_scale, vec3(1.0)),
                    tex.a * u_alpha);
#endif
#ifdef DISTANCE_FOG
    o_colour.rgb = viewFog(o_colour.rgb, v_world);
#endif
#ifdef FOG_PASS
    o_colour = foggedColour(o_colour, u_fog_colour,
                            fogAmount(v_world, u_frame.eye, u_frame.view_forward, u_fog_distance,
                                      u_fog_has_surface, u_fog_surface));
#endif
#endif
#endif
}
