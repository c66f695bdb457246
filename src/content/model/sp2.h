// Quake 2 sprites (.sp2, "IDS2" version 2), as yquake2 lays them out
// (src/common/header/files.h dsprite_t, dsprframe_t) and reads them
// (src/client/refresh/files/models.c Mod_LoadSP2).
//
// Layout: ident, version, frame count, then per frame width, height, origin x, origin y
// (int32) and a 64-byte PCX name. A frame's picture spans -origin_x .. width - origin_x along
// the view's right axis and -origin_y .. height - origin_y along its up axis
// (gl3_main.c GL3_DrawSpriteModel); Quake 2 sprites always face the view plane.
//
// parseSp2 is safe on untrusted input: the frame count is checked against the bytes present
// before anything is allocated.
#pragma once

#include "content/model/sprite.h"
#include "core/result.h"

#include <span>
#include <string>
#include <vector>

namespace content {

class FileSystem;

inline constexpr uint32_t kMaxSp2Frames = 256; // yquake2 caps frames at MAX_MD2SKINS (32)

struct Sp2Frame {
    int32_t width = 0;
    int32_t height = 0;
    int32_t origin_x = 0;
    int32_t origin_y = 0;
    std::string name; // PCX path
};

// Errors (lump "sp2.header" or "sp2.frames" with the frame index): UnknownFormat (not
// "IDS2"), UnsupportedVersion (not 2), BadValue (no frame; a side outside 1..kMaxSpriteSide),
// LimitExceeded (more than kMaxSp2Frames), Truncated.
core::Result<std::vector<Sp2Frame>> parseSp2(std::span<const uint8_t> data);

// The drawn sprite: one picture and one frame per .sp2 frame, each read as PCX through `fs`
// (index 255 transparent, as Quake 2 draws every 8-bit image), Parallel and alpha-tested. A
// picture that is missing or broken is a transparent one of the frame's size, its message
// added to `problems`.
Sprite buildSp2Sprite(std::span<const Sp2Frame> frames, const FileSystem& fs,
                      std::vector<std::string>& problems);

struct ModelAsset;
struct ModelSource;

// The registry's loader for "IDS2" (content/model/model_asset.h): parseSp2, then its pictures
// through the source's file system (buildSp2Sprite; their problems are the part's warnings).
core::Result<ModelAsset> loadSp2Asset(const ModelSource& source);

} // namespace content
