// Quake 1 (version 1) and Half-Life (version 2) sprites (.spr, "IDSP"), as Quake's
// spritegn.h and Xash3D's engine/sprite.h lay them out and the engines read them (QuakeSpasm
// gl_model.c Mod_LoadSpriteModel / Mod_LoadSpriteFrame / Mod_LoadSpriteGroup, r_sprite.c
// R_GetSpriteFrame; Xash3D engine/common/mod_sprite.c Mod_LoadSpriteModel).
//
// Header: ident, version, orientation type, then for version 2 a render mode (texFormat),
// bounding radius, largest width and height, frame count, beam length, sync type (36 bytes
// for version 1, 40 for version 2). Version 2 follows it with a 16-bit colour count and that
// many RGB triples: the sprite's own palette. Frames: a type word, 0 one picture, 1 a group
// (count, count cumulative intervals, count pictures). A picture is origin x, origin y (its
// top-left corner relative to the entity, y up), width, height and width * height palette
// indices.
//
// Colours: version 1 uses the Quake palette with index 255 transparent (Mod_LoadSpriteFrame
// loads with TEXPREF_ALPHA). Version 2 by render mode: normal and additive keep every
// texel opaque (additive adds them, so black shows nothing); index-alpha draws the palette's
// last colour with alpha = index; alpha-test makes index 255 transparent.
#pragma once

#include "content/image/palette.h"
#include "content/model/model_mesh.h"

#include <array>
#include <optional>
#include <span>
#include <vector>

namespace content {

// Largest frame count and picture side accepted (Quake sprites are at most a few hundred
// pixels; Half-Life's engine caps frames at 512 per sprite in practice).
inline constexpr uint32_t kMaxSpriteFrames = 4096;
inline constexpr int kMaxSpriteSide = 4096;

// spritegn.h / sprite.h orientation types, in file order.
enum class SpriteOrientation : uint8_t {
    ParallelUpright = 0, // faces the view plane, stays upright (turns about z)
    FacingUpright = 1,   // faces the viewer's position, stays upright
    Parallel = 2,        // faces the view plane (the common case)
    Oriented = 3,        // fixed by the entity's angles
    ParallelOriented = 4 // faces the view plane, rolled by the entity's roll
};

// Half-Life texFormat; Quake 1 sprites are AlphaTest.
enum class SpriteRenderMode : uint8_t { Normal = 0, Additive = 1, IndexAlpha = 2, AlphaTest = 3 };

struct SpritePicture {
    int origin_x = 0; // left edge, from the entity's origin along the sprite's right axis
    int origin_y = 0; // top edge, along the sprite's up axis
    int width = 0;
    int height = 0;
    std::vector<uint8_t> rgba; // rows top to bottom
    // The quad in world units (left, bottom, right, top along the right and up axes) when it is
    // not the picture's texel size at its origin: Source detail sprites, whose dictionary gives
    // the quad and the texture rectangle apart (scene/models/detail_props.h).
    std::optional<std::array<float, 4>> world_rect;
};

// The quad a picture covers: left, bottom, right, top in sprite units (before the instance's
// scale), from world_rect or else from the origin and the size.
inline std::array<float, 4> spritePictureRect(const SpritePicture& p) {
    if (p.world_rect)
        return *p.world_rect;
    return {float(p.origin_x), float(p.origin_y - p.height), float(p.origin_x + p.width),
            float(p.origin_y)};
}

struct SpriteFrame {
    TimedRun pictures; // into Sprite::pictures
};

struct Sprite {
    int version = 1;
    SpriteOrientation orientation = SpriteOrientation::Parallel;
    SpriteRenderMode render_mode = SpriteRenderMode::AlphaTest;
    float radius = 0;
    int max_width = 0;
    int max_height = 0;
    int32_t sync_type = 0;
    std::vector<SpritePicture> pictures;
    std::vector<SpriteFrame> frames;
};

// Errors (lump "spr", index the frame): UnknownFormat (not "IDSP"), UnsupportedVersion (not 1
// or 2), Truncated, BadValue (an orientation or render mode outside the lists, a frame or
// group count below 1, a picture side outside 1..kMaxSpriteSide, a palette count outside 1..256;
// indices past a shorter palette are black), LimitExceeded (more than kMaxSpriteFrames pictures).
// `quake_palette` colours version 1 sprites. `palette_table` (the game's, ModelRequest::
// palette_table), when given, maps each byte of a version 2 sprite's own palette when it is
// drawn normal or additive: Xash3D FWGS engine/client/cl_sprite.c Mod_SpriteLoadTextures loads
// those palettes as "#texgamma.pal" (LUMP_TEXGAMMA), index-alpha and alpha-test ones as
// "#gradient.pal" and "#masked.pal" (as stored).
core::Result<Sprite> decodeSprite(std::span<const uint8_t> data, const Palette& quake_palette,
                                  const ByteTable* palette_table = nullptr);

struct ModelAsset;
struct ModelSource;

// The registry's loader for "IDSP" (content/model/model_asset.h): decodeSprite with the
// Quake palette for version 1, one part.
core::Result<ModelAsset> loadSpriteAsset(const ModelSource& source);

} // namespace content
