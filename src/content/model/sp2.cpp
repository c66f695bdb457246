#include "content/model/sp2.h"

#include "content/image/pcx.h"
#include "content/model/model_asset.h"
#include "content/vfs/vfs.h"
#include "core/byte_reader.h"

#include <algorithm>
#include <cmath>

namespace content {

namespace {

constexpr uint32_t kIds2 = 'I' | ('D' << 8) | ('S' << 16) | (uint32_t('2') << 24);
constexpr int32_t kSp2Version = 2;
constexpr uint64_t kHeaderBytes = 12;
constexpr uint64_t kFrameBytes = 16 + 64; // four int32, name[MAX_SKINNAME]

core::Error sp2Error(core::ErrorCode code, std::string_view what, int64_t index, std::string field,
                     std::string detail) {
    return core::makeError(code, "sp2." + std::string(what), index, std::move(field),
                           std::move(detail));
}

} // namespace

core::Result<std::vector<Sp2Frame>> parseSp2(std::span<const uint8_t> data) {
    const core::ByteReader r(data);
    if (!r.inRange(0, kHeaderBytes))
        return sp2Error(core::ErrorCode::Truncated, "header", -1, {},
                        "12 bytes beyond " + std::to_string(data.size()));
    if (r.u32(0) != kIds2)
        return sp2Error(core::ErrorCode::UnknownFormat, "header", -1, "ident", "not IDS2");
    if (r.i32(4) != kSp2Version)
        return sp2Error(core::ErrorCode::UnsupportedVersion, "header", -1, "version",
                        std::to_string(r.i32(4)) + ", expected 2");
    const int32_t count = r.i32(8);
    if (count < 1)
        return sp2Error(core::ErrorCode::BadValue, "header", -1, "numframes",
                        std::to_string(count) + ", need at least 1");
    if (uint32_t(count) > kMaxSp2Frames)
        return sp2Error(core::ErrorCode::LimitExceeded, "header", -1, "numframes",
                        std::to_string(count) + " > " + std::to_string(kMaxSp2Frames));
    if (!r.inRange(kHeaderBytes, uint64_t(count) * kFrameBytes))
        return sp2Error(core::ErrorCode::Truncated, "frames", -1, {},
                        std::to_string(uint64_t(count) * kFrameBytes) + " bytes at 12 beyond " +
                            std::to_string(data.size()));
    std::vector<Sp2Frame> frames(static_cast<size_t>(count));
    for (int32_t i = 0; i < count; ++i) {
        const uint64_t at = kHeaderBytes + uint64_t(i) * kFrameBytes;
        Sp2Frame& f = frames[size_t(i)];
        f.width = r.i32(at);
        f.height = r.i32(at + 4);
        f.origin_x = r.i32(at + 8);
        f.origin_y = r.i32(at + 12);
        f.name = r.fixedString(at + 16, 64);
        if (f.width < 1 || f.height < 1 || f.width > kMaxSpriteSide || f.height > kMaxSpriteSide)
            return sp2Error(core::ErrorCode::BadValue, "frames", i, "size",
                            std::to_string(f.width) + "x" + std::to_string(f.height) +
                                " outside 1.." + std::to_string(kMaxSpriteSide));
        if (std::abs(int64_t(f.origin_x)) > kMaxSpriteSide ||
            std::abs(int64_t(f.origin_y)) > kMaxSpriteSide)
            return sp2Error(core::ErrorCode::BadValue, "frames", i, "origin",
                            std::to_string(f.origin_x) + "," + std::to_string(f.origin_y) +
                                " beyond +-" + std::to_string(kMaxSpriteSide));
    }
    return frames;
}

Sprite buildSp2Sprite(std::span<const Sp2Frame> frames, const FileSystem& fs,
                      std::vector<std::string>& problems) {
    Sprite s;
    s.version = 2;
    s.orientation = SpriteOrientation::Parallel;
    s.render_mode = SpriteRenderMode::AlphaTest;
    for (const Sp2Frame& f : frames) {
        SpritePicture p;
        p.origin_x = -f.origin_x;
        p.origin_y = f.height - f.origin_y;
        p.width = f.width;
        p.height = f.height;
        auto bytes = fs.readChecked(f.name);
        auto pcx = bytes ? decodePcx(*bytes) : core::Result<PcxImage>(bytes.error());
        // Index 255 is transparent in Quake 2's 8-bit images (files/pcx.c GetPCXPalette clears the
        // alpha of d_8to24table[255]).
        auto rgba = pcx ? expandPaletted(pcx->width, pcx->height, pcx->indices, pcx->palette,
                                         PalettedOptions{.index255_transparent = true})
                        : core::Result<PalettedRgba>(pcx.error());
        if (rgba) {
            p.width = rgba->width;
            p.height = rgba->height;
            p.rgba = std::move(rgba->rgba);
        } else {
            problems.push_back(f.name + ": " + rgba.error().message());
            p.rgba.assign(size_t(p.width) * size_t(p.height) * 4, 0);
        }
        s.max_width = std::max(s.max_width, p.width);
        s.max_height = std::max(s.max_height, p.height);
        s.frames.push_back(SpriteFrame{TimedRun{uint32_t(s.pictures.size()), 1, {}}});
        s.pictures.push_back(std::move(p));
    }
    for (const SpritePicture& p : s.pictures)
        s.radius = std::max(s.radius, std::hypot(float(p.width), float(p.height)) / 2.0f);
    return s;
}

core::Result<ModelAsset> loadSp2Asset(const ModelSource& source) {
    auto frames = parseSp2(source.bytes);
    if (!frames)
        return frames.error();
    ModelAsset asset = singlePartAsset(ModelFormat::Quake2Sprite, source.path);
    asset.parts[0].sprite = buildSp2Sprite(*frames, source.fs, asset.parts[0].warnings);
    return asset;
}

} // namespace content
