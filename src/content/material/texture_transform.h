// Source texture-coordinate transforms and the material proxy that scrolls them (GL-free).
//
// A transform is the 2x3 part of the engine's texture matrix (a material var of type matrix,
// VMatrix rows 0 and 1, columns 0, 1 and 3): LightmappedGeneric's vertex shader computes a
// texture coordinate as (dot(uv, row0.xy) + row0.w, dot(uv, row1.xy) + row1.w) (Source SDK
// 2013 stdshaders/lightmappedgeneric_vs20.fxc main, cBaseTexCoordTransform and
// cDetailOrBumpTexCoordTransform), the base texture's from $basetexturetransform and the normal
// map's from $bumptransform (lightmappedgeneric_dx9_helper.cpp DrawLightmappedGeneric_DX9_Internal:
// SetVertexShaderTextureTransform with m_nBaseTextureTransform and, for a material with a bump
// map and no detail texture, m_nBumpTransform).
//
// Written in a material as "center cx cy scale sx sy rotate deg translate tx ty", every value
// present and in that order (VDC "$basetexturetransform"): translate(-center), then scale, then
// rotate about z by deg (counter-clockwise: mathlib/vmatrix.cpp MatrixBuildRotateZ), then
// translate(center), then translate(t): the order the SDK's TextureTransform proxy builds the
// same matrix in (game/client/matrixproxy.cpp CTextureTransformProxy::OnBind). A 4x4 matrix
// written as "[m00 m01 m02 m03 m10 ... m33]" (16 numbers, rows) is read as it stands.
#pragma once

#include <array>
#include <optional>
#include <string_view>

namespace content {

struct TextureTransform {
    // u' = m[0] u + m[1] v + m[2]; v' = m[3] u + m[4] v + m[5].
    std::array<float, 6> m{1.0f, 0.0f, 0.0f, 0.0f, 1.0f, 0.0f};

    bool identity() const { return m == std::array<float, 6>{1.0f, 0.0f, 0.0f, 0.0f, 1.0f, 0.0f}; }
    std::array<float, 2> apply(float u, float v) const {
        return {m[0] * u + m[1] * v + m[2], m[3] * u + m[4] * v + m[5]};
    }
    bool operator==(const TextureTransform&) const = default;
};

// The matrix of "center cx cy scale sx sy rotate deg translate tx ty" (see the top).
TextureTransform centredTextureTransform(std::array<float, 2> center, std::array<float, 2> scale,
                                         float degrees, std::array<float, 2> translate);

// A matrix material value as written in a .vmt; nullopt when it is neither form above (a value
// missing, a word out of order, a number that is not finite or above 1e30 in size, a matrix
// element that comes out not finite).
std::optional<TextureTransform> parseTextureTransform(std::string_view text);

// The TextureScroll proxy (game/client/texturescrollmaterialproxy.cpp
// CTextureScrollMaterialProxy): textureScrollRate (default 1, repeats per second),
// textureScrollAngle (0, degrees) and textureScale (1). Each time it binds it replaces its
// matrix var with a scale and an offset, dropping what the material wrote there.
struct TextureScroll {
    bool enabled = false;
    float rate = 1.0f;
    float angle = 0.0f;
    float scale = 1.0f;
    bool operator==(const TextureScroll&) const = default;
};

// The matrix the proxy sets at `time` seconds (OnBind): offsets time * rate * (cos, sin) of the
// angle, each brought into [0, 1) as it does (a negative one raised by 1 plus its whole part,
// then the whole part dropped), in the matrix (scale 0 s; 0 scale t).
TextureTransform textureScrollAt(const TextureScroll& scroll, double time);

// What moves a material's texture coordinates: its $basetexturetransform and $bumptransform,
// each replaced by a TextureScroll proxy aimed at it.
struct TextureMotion {
    TextureTransform base;
    TextureTransform bump;
    TextureScroll base_scroll;
    TextureScroll bump_scroll;

    // Nothing moves: both identity, no proxy.
    bool still() const {
        return base.identity() && bump.identity() && !base_scroll.enabled && !bump_scroll.enabled;
    }
    TextureTransform baseAt(double time) const {
        return base_scroll.enabled ? textureScrollAt(base_scroll, time) : base;
    }
    TextureTransform bumpAt(double time) const {
        return bump_scroll.enabled ? textureScrollAt(bump_scroll, time) : bump;
    }
    bool operator==(const TextureMotion&) const = default;
};

// The AnimatedTexture proxy (game/client/baseanimatedtextureproxy.cpp CBaseAnimatedTextureProxy,
// animatedtextureproxy.cpp CAnimatedTextureProxy): Init reads animatedTextureVar (the texture
// var whose frames play), animatedTextureFrameNumVar (the int var the frame goes to: $frame for
// $basetexture, $bumpframe for a normal map), animatedTextureFrameRate (default 15, frames per
// second) and animationNoWrap (default 0). Each time the material binds, OnBind sets the frame
// var from the clock (GetAnimationStartTime: 0 for this proxy, so the animation runs from the
// start of the game).
struct AnimatedTexture {
    bool enabled = false;
    float rate = 15.0f;
    bool wrap = true; // !animationNoWrap
    bool operator==(const AnimatedTexture&) const = default;
};

// The frame OnBind sets for a texture of `frames` frames at `time` seconds, `frame_time` the
// time since the previous bind: (int)(rate * time) mod frames, the time clamped at 0 first. With
// animationNoWrap the bind at which the count passed the last frame since the previous bind
// (the previous bind's frame number above this one's) shows the last frame instead; a later bind
// counts on from the start again, the proxy's start time staying 0 (only entity-driven proxies
// move it). A frame out of [0, frames) (a negative rate) is 0. `frames` < 1 gives 0.
int animatedTextureFrame(const AnimatedTexture& animation, int frames, double time,
                         double frame_time = 0.0);

} // namespace content
