// Sky surfaces until shader-script skies land. Three looks:
// - Quake 1 two-layer sky (u_sky_layers): the texture's right half is the back layer, the
//   left half the front layer (black = see-through), both projected on a flattened dome
//   around the eye and scrolling at different speeds (gl_warp.c EmitSkyPolys);
// - the sky texture at full brightness when the map has one;
// - a flat colour.
in vec3 v_world;
in vec2 v_uv;

uniform sampler2D u_texture;
uniform sampler2DArray u_skybox; // six faces: rt bk lf ft up dn (content/skybox.h)
uniform bool u_has_skybox;
uniform mat3 u_sky_rotation; // world direction -> box direction (Quake 2 skyrotate/skyaxis)
uniform bool u_sky_textured;
uniform bool u_sky_layers;
uniform vec3 u_eye;
uniform float u_time;
uniform vec4 u_flat_colour;

out vec4 o_colour;

vec2 layerUv(vec3 dir, float speed, float offset) {
    vec2 st = (vec2(speed) + dir.xy) / 128.0;
    return vec2(fract(st.x) * 0.5 + offset, fract(st.y));
}

// Face and texture coordinates of a view direction in a Quake 2 / Half-Life sky box: each face
// is the view along its axis, top row and right edge as documented in content/skybox.h.
vec3 skyboxCoord(vec3 d) {
    vec3 a = abs(d);
    int face;
    vec3 right, top;
    float m;
    if (a.x >= a.y && a.x >= a.z) {
        m = a.x;
        face = d.x > 0.0 ? 0 : 2;
        right = d.x > 0.0 ? vec3(0, -1, 0) : vec3(0, 1, 0);
        top = vec3(0, 0, 1);
    } else if (a.y >= a.z) {
        m = a.y;
        face = d.y > 0.0 ? 1 : 3;
        right = d.y > 0.0 ? vec3(1, 0, 0) : vec3(-1, 0, 0);
        top = vec3(0, 0, 1);
    } else {
        m = a.z;
        face = d.z > 0.0 ? 4 : 5;
        right = vec3(0, -1, 0);
        top = d.z > 0.0 ? vec3(-1, 0, 0) : vec3(1, 0, 0);
    }
    vec2 uv = vec2(0.5 + 0.5 * dot(d, right) / m, 0.5 - 0.5 * dot(d, top) / m);
    // Keep half a texel away from the edges, as the engines do, to hide seams.
    uv = clamp(uv, vec2(1.0 / 512.0), vec2(511.0 / 512.0));
    return vec3(uv, float(face));
}

void main() {
    if (u_has_skybox) {
        o_colour = vec4(textureLod(u_skybox, skyboxCoord(u_sky_rotation * (v_world - u_eye)), 0.0).rgb, 1.0);
        return;
    }
    if (!u_sky_textured) {
        o_colour = u_flat_colour;
        return;
    }
    if (!u_sky_layers) {
        o_colour = vec4(texture(u_texture, v_uv).rgb, 1.0);
        return;
    }
    vec3 dir = v_world - u_eye;
    dir.z *= 3.0;
    dir *= (6.0 * 63.0) / length(dir);
    vec3 back = textureLod(u_texture, layerUv(dir, u_time * 8.0, 0.5), 0.0).rgb;
    vec3 front = textureLod(u_texture, layerUv(dir, u_time * 16.0, 0.0), 0.0).rgb;
    float front_alpha = any(greaterThan(front, vec3(0.0))) ? 1.0 : 0.0;
    o_colour = vec4(mix(back, front, front_alpha), 1.0);
}
