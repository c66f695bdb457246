#include "content/model/sprite.h"

#include "content/model/model_asset.h"
#include "core/byte_reader.h"

#include <cstring>

namespace content {

namespace {

constexpr uint32_t kIdsp = 'I' | ('D' << 8) | ('S' << 16) | (uint32_t('P') << 24);
constexpr uint64_t kPictureHeaderBytes = 16; // origin[2], width, height

core::Error sprError(core::ErrorCode code, std::string_view what, int64_t index, std::string field,
                     std::string detail) {
    return core::makeError(code, "spr." + std::string(what), index, std::move(field),
                           std::move(detail));
}

core::Error truncated(std::string_view what, int64_t index, uint64_t offset, uint64_t need,
                      size_t size) {
    return sprError(core::ErrorCode::Truncated, what, index, {},
                    std::to_string(need) + " bytes at " + std::to_string(offset) + " beyond " +
                        std::to_string(size));
}

struct Colouring {
    const Palette* palette = nullptr;
    uint32_t palette_colours = 256;
    SpriteRenderMode mode = SpriteRenderMode::AlphaTest;
};

void colour(uint8_t index, const Colouring& c, uint8_t* out) {
    const uint8_t* rgb = c.palette->rgb.data();
    if (c.mode == SpriteRenderMode::IndexAlpha) {
        const uint32_t last = c.palette_colours - 1;
        out[0] = rgb[last * 3];
        out[1] = rgb[last * 3 + 1];
        out[2] = rgb[last * 3 + 2];
        out[3] = index;
        return;
    }
    if (c.mode == SpriteRenderMode::AlphaTest && index == 255) {
        out[0] = out[1] = out[2] = out[3] = 0;
        return;
    }
    if (index < c.palette_colours) {
        out[0] = rgb[size_t(index) * 3];
        out[1] = rgb[size_t(index) * 3 + 1];
        out[2] = rgb[size_t(index) * 3 + 2];
    } else {
        out[0] = out[1] = out[2] = 0;
    }
    out[3] = 255;
}

// The header into `spr`: the frame count, checked. `at` moves past the header.
core::Result<int32_t> readHeader(const core::ByteReader& r, Sprite& spr, uint64_t& at) {
    const size_t size = r.bytes().size();
    if (!r.inRange(0, 8))
        return truncated("header", -1, 0, 8, size);
    if (r.u32(0) != kIdsp)
        return sprError(core::ErrorCode::UnknownFormat, "header", -1, "ident", "not IDSP");
    spr.version = r.i32(4);
    if (spr.version != 1 && spr.version != 2)
        return sprError(core::ErrorCode::UnsupportedVersion, "header", -1, "version",
                        std::to_string(spr.version) + ", expected 1 or 2");
    const bool hl = spr.version == 2;
    const uint64_t header_bytes = hl ? 40 : 36;
    if (!r.inRange(0, header_bytes))
        return truncated("header", -1, 0, header_bytes, size);
    const int32_t orientation = r.i32(8);
    if (orientation < 0 || orientation > int32_t(SpriteOrientation::ParallelOriented))
        return sprError(core::ErrorCode::BadValue, "header", -1, "type",
                        std::to_string(orientation) + " outside 0..4");
    spr.orientation = SpriteOrientation(orientation);
    at = 12;
    if (hl) {
        const int32_t mode = r.i32(at);
        if (mode < 0 || mode > int32_t(SpriteRenderMode::AlphaTest))
            return sprError(core::ErrorCode::BadValue, "header", -1, "texFormat",
                            std::to_string(mode) + " outside 0..3");
        spr.render_mode = SpriteRenderMode(mode);
        at += 4;
    }
    spr.radius = r.f32(at);
    spr.max_width = r.i32(at + 4);
    spr.max_height = r.i32(at + 8);
    const int32_t num_frames = r.i32(at + 12);
    spr.sync_type = r.i32(at + 20);
    at = header_bytes;
    if (num_frames < 1)
        return sprError(core::ErrorCode::BadValue, "header", -1, "numframes",
                        std::to_string(num_frames) + ", need at least 1");
    if (uint32_t(num_frames) > kMaxSpriteFrames)
        return sprError(core::ErrorCode::LimitExceeded, "header", -1, "numframes",
                        std::to_string(num_frames) + " > " + std::to_string(kMaxSpriteFrames));
    return num_frames;
}

// A Half-Life sprite's own palette (count, then count colours) into `own`, which colours it.
core::Status readPalette(const core::ByteReader& r, uint64_t& at, Palette& own,
                         Colouring& colouring) {
    const size_t size = r.bytes().size();
    if (!r.inRange(at, 2))
        return truncated("palette", -1, at, 2, size);
    const uint16_t count = r.u16(at);
    if (count < 1 || count > 256)
        return sprError(core::ErrorCode::BadValue, "palette", -1, "count",
                        std::to_string(count) + " outside 1..256");
    if (!r.inRange(at + 2, uint64_t(count) * 3))
        return truncated("palette", -1, at + 2, uint64_t(count) * 3, size);
    std::memcpy(own.rgb.data(), r.bytes().data() + at + 2, size_t(count) * 3);
    colouring.palette = &own;
    colouring.palette_colours = count;
    at += 2 + uint64_t(count) * 3;
    return core::okStatus();
}

// One picture of frame `frame` at `at`, which moves past it.
core::Status readPicture(const core::ByteReader& r, uint64_t& at, int32_t frame,
                         const Colouring& colouring, Sprite& spr) {
    const size_t size = r.bytes().size();
    if (!r.inRange(at, kPictureHeaderBytes))
        return truncated("frames", frame, at, kPictureHeaderBytes, size);
    SpritePicture p;
    p.origin_x = r.i32(at);
    p.origin_y = r.i32(at + 4);
    const int32_t w = r.i32(at + 8), h = r.i32(at + 12);
    if (w < 1 || h < 1 || w > kMaxSpriteSide || h > kMaxSpriteSide)
        return sprError(core::ErrorCode::BadValue, "frames", frame, "size",
                        std::to_string(w) + "x" + std::to_string(h) + " outside 1.." +
                            std::to_string(kMaxSpriteSide));
    const uint64_t n = uint64_t(w) * uint64_t(h);
    at += kPictureHeaderBytes;
    if (!r.inRange(at, n))
        return truncated("frames", frame, at, n, size);
    if (spr.pictures.size() >= kMaxSpriteFrames)
        return sprError(core::ErrorCode::LimitExceeded, "frames", frame, "numframes",
                        "more than " + std::to_string(kMaxSpriteFrames) + " pictures");
    p.width = w;
    p.height = h;
    p.rgba.resize(size_t(n) * 4);
    for (uint64_t i = 0; i < n; ++i)
        colour(r.bytes()[size_t(at + i)], colouring, p.rgba.data() + i * 4);
    at += n;
    spr.pictures.push_back(std::move(p));
    return core::okStatus();
}

// Frame `i`: a single picture, or a group with its intervals.
core::Status readFrame(const core::ByteReader& r, uint64_t& at, int32_t i,
                       const Colouring& colouring, Sprite& spr) {
    const size_t size = r.bytes().size();
    if (!r.inRange(at, 4))
        return truncated("frames", i, at, 4, size);
    SpriteFrame f;
    f.pictures.first = uint32_t(spr.pictures.size());
    const int32_t type = r.i32(at);
    at += 4;
    if (type != 0) {
        if (!r.inRange(at, 4))
            return truncated("frames", i, at, 4, size);
        const int32_t n = r.i32(at);
        if (n < 1 || uint32_t(n) > kMaxSpriteFrames)
            return sprError(core::ErrorCode::BadValue, "frames", i, "numframes",
                            std::to_string(n) + " in a group, outside 1.." +
                                std::to_string(kMaxSpriteFrames));
        f.pictures.count = uint32_t(n);
        if (!r.readArray(at + 4, f.pictures.count, f.pictures.end_times))
            return truncated("frames", i, at + 4, uint64_t(n) * 4, size);
        at += 4 + uint64_t(n) * 4;
        if (n == 1)
            f.pictures.end_times.clear();
    }
    for (uint32_t k = 0; k < f.pictures.count; ++k)
        if (auto s = readPicture(r, at, i, colouring, spr); !s)
            return s.error();
    spr.frames.push_back(std::move(f));
    return core::okStatus();
}

} // namespace

core::Result<Sprite> decodeSprite(std::span<const uint8_t> data, const Palette& quake_palette,
                                  const ByteTable* palette_table) {
    const core::ByteReader r(data);
    Sprite spr;
    uint64_t at = 0;
    auto num_frames = readHeader(r, spr, at);
    if (!num_frames)
        return num_frames.error();
    Colouring colouring;
    colouring.palette = &quake_palette;
    colouring.mode = spr.render_mode;
    Palette own;
    if (spr.version == 2)
        if (auto s = readPalette(r, at, own, colouring); !s)
            return s.error();
    if (spr.version == 2 && palette_table &&
        (spr.render_mode == SpriteRenderMode::Normal ||
         spr.render_mode == SpriteRenderMode::Additive))
        own = throughTable(own, *palette_table);
    for (int32_t i = 0; i < *num_frames; ++i)
        if (auto s = readFrame(r, at, i, colouring, spr); !s)
            return s.error();
    return spr;
}

core::Result<ModelAsset> loadSpriteAsset(const ModelSource& source) {
    auto sprite =
        decodeSprite(source.bytes, defaultQuakePalette(),
                     source.request.palette_table ? &*source.request.palette_table : nullptr);
    if (!sprite)
        return sprite.error();
    ModelAsset asset = singlePartAsset(ModelFormat::Sprite, source.path);
    asset.parts[0].sprite = std::move(*sprite);
    return asset;
}

} // namespace content
