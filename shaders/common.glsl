// Shared by every bspview program. #version, feature defines and gpu_interface.h are prepended
// at compile.

// Attribute locations, texture units, view modes and the uniform blocks (u_frame, u_map):
// gpu_interface.h, put in front of this file by render::GlslLibrary.

// Light style `style`'s brightness this frame (its slot modulo 64).
float styleValue(int style) {
    int slot = style & 63;
    return u_frame.style_values[slot >> 2][slot & 3];
}

// ioquake3's R_ColorShiftLightingBytes: a lightmap texel or vertex colour times `shift`, brought
// back under 1 by its largest channel so the hue is kept.
vec3 shiftLight(vec3 c, float shift) {
    c *= shift;
    float m = max(c.r, max(c.g, c.b));
    return m > 1.0 ? c / m : c;
}

// ioquake3's fog amount at `world` (scene/fog.h fogAmount is the same on the CPU): sqrt of the
// depth along the view axis over the fog's opaque distance; with the eye outside the fog's
// visible side (`surface`: normal into the fog, dist) only the part of the ray past it counts.
float fogAmount(vec3 world, vec3 eye, vec3 view_forward, float fog_distance, bool has_surface,
                vec4 surface) {
    float clip = 1.0;
    if (has_surface) {
        float eye_t = dot(surface.xyz, eye) - surface.w;
        float t = dot(surface.xyz, world) - surface.w;
        if (eye_t < 0.0)
            clip = t < 1.0 ? 0.0 : t / (t - eye_t);
        else
            clip = t < 0.0 ? 0.0 : 1.0;
    }
    float depth = dot(world - eye, view_forward);
    return sqrt(clamp(depth / fog_distance * clip, 0.0, 1.0));
}

// What the fog pass (fog.frag.glsl, blended GL_SRC_ALPHA GL_ONE_MINUS_SRC_ALPHA) leaves of a
// surface's colour `c` under a fog of amount `f`, for programs that fog their own surface
// (FOG_PASS): `c` rounded to the 8 bits the frame would hold, then the same blend.
vec4 foggedColour(vec4 c, vec3 fog_colour, float f) {
    c = floor(clamp(c, 0.0, 1.0) * 255.0 + 0.5) / 255.0;
    return vec4(mix(c.rgb, fog_colour, f), f * f + c.a * (1.0 - f));
}

// The sky programs' looks (SKY_MODE, sky.frag.glsl) and a stage run's sky base (SKY_BASE,
// stage.frag.glsl), here so that the vertex shaders can test them too.
#define SKY_BOX 0
#define SKY_FLAT 1
#define SKY_TEXTURE 2
#define SKY_LAYERS 3
#define SKY_BASE_BOX 1
#define SKY_BASE_FLAT 2

// The sky box direction of the world point `world`: the view ray turned by the box's rotation.
// Linear in `world`, so the vertex shaders compute it and the rasteriser interpolates it (exact
// up to float rounding): per pixel it was a subtraction and a 3x3 product, paid by every sky
// pixel on a software rasteriser.
vec3 skyBoxDirection(vec3 world) {
    return u_frame.sky_rotation * (world - u_frame.eye);
}

// Face and texture coordinates of a view direction in a Quake 2 / Half-Life sky box: each face
// is the view along its axis, top row and right edge as content/material/skybox.h says:
//   face 0 (+x): right -y, top +z    face 2 (-x): right +y, top +z
//   face 1 (+y): right +x, top +z    face 3 (-y): right -x, top +z
//   face 4 (+z): right -y, top -x    face 5 (-z): right -y, top +x
// The major axis is x where |x| >= |y| and |x| >= |z|, else y where |y| >= |z|, else z; a zero
// component counts as negative. Written with selects and one division, not an if/else per
// axis: a software rasteriser (llvmpipe) shades a block of pixels at once and runs every side
// of a branch whose condition differs between them, and the sky is most of the screen. (Mesa's
// GLSL linker already turns if/else blocks this small into selects, nir_opt_peephole_select:
// on llvmpipe this form measured the same as the branches, docs/performance.md.)
vec3 skyboxCoord(vec3 d) {
    vec3 a = abs(d);
    bool x_major = a.x >= a.y && a.x >= a.z;
    bool y_major = a.y >= a.z;
    vec3 sign_of = mix(vec3(-1.0), vec3(1.0), greaterThan(d, vec3(0.0)));
    // The right and top components before the division by the major one, and the face.
    vec2 right_top = x_major   ? vec2(-sign_of.x * d.y, d.z)
                     : y_major ? vec2(sign_of.y * d.x, d.z)
                               : vec2(-d.y, -sign_of.z * d.x);
    float face = x_major ? 1.0 - sign_of.x : y_major ? 2.0 - sign_of.y : 4.5 - 0.5 * sign_of.z;
    float half_inverse = 0.5 / max(a.x, max(a.y, a.z)); // the major component's size
    vec2 uv = vec2(0.5) + vec2(right_top.x, -right_top.y) * half_inverse;
    // Kept away from the edges as the map's game does (game::SkyBoxEdge), to hide seams.
    uv = clamp(uv, vec2(u_map.sky_edge), vec2(1.0 - u_map.sky_edge));
    return vec3(uv, face);
}

// The whole view's distance fog over `colour` at `world` (the map block): Quake 1's GL_EXP2 by
// the depth along the view axis (distance_fog.a: density per unit), or Source's linear fog
// (linear_fog.w 1: from x to y in depth, at most z; 2: by the distance to the eye instead).
vec3 viewFog(vec3 colour, vec3 world) {
    float view_depth = abs(dot(world - u_frame.eye, u_frame.view_forward));
    float fog_depth = view_depth * u_map.distance_fog.a;
    float fog_keep = exp(-fog_depth * fog_depth);
    if (u_map.linear_fog.w > 1.5) // radial: by the distance to the eye (Source's FogRadial)
        view_depth = length(world - u_frame.eye);
    if (u_map.linear_fog.w > 0.0) // Source's linear fog (scene::LinearFog): capped
        fog_keep = 1.0 - min(clamp((view_depth - u_map.linear_fog.x) /
                                       max(u_map.linear_fog.y - u_map.linear_fog.x, 1e-3),
                                   0.0, 1.0),
                             u_map.linear_fog.z);
    return mix(u_map.distance_fog.rgb, colour, fog_keep);
}
