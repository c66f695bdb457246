// Image decoding through stb_image (nothings/stb, stb_image.h v2.27 as packaged by Debian's
// libstb-dev). libstb.so already holds the implementations of stb_image and stb_image_write,
// so the headers are included for declarations only (no STB_IMAGE_IMPLEMENTATION here).
#include "content/image/image.h"

#include <stb_image.h>
#include <stb_image_write.h>

#include <algorithm>
#include <climits>
#include <memory>
#include <span>
#include <string>

namespace content {

namespace {

core::Error imageError(core::ErrorCode code, std::string_view name, std::string detail) {
    core::Error e = core::makeError(code, {}, -1, {}, std::move(detail));
    e.file = std::string(name);
    return e;
}

std::string stbReason() {
    const char* why = stbi_failure_reason();
    return why ? why : "unknown reason";
}

// stb_image 2.27 (Debian's libstb) trusts the symbol counts of a JPEG Huffman table: when the
// 16 counts of one table sum past 256, stbi__build_huffman and stbi__process_dht write past
// their 257- and 256-entry arrays (found by fuzz_image; stb fixed it later by rejecting such
// tables). It also decodes a scan with a Huffman table the file never defined, reading that
// table from uninitialised memory and indexing its values with whatever it finds (a read out
// of bounds, also found by fuzz_image). We cannot patch the system library, so the segments are
// checked here first: every table's symbol count, and that each scan's tables were defined.
// Walks the marker segments (and, after a start of scan, the entropy-coded data up to the next
// marker) in linear time; anything it cannot follow is left for stb to reject. Returns false
// only for input stb would read or write out of bounds on.
bool jpegHuffmanTablesSafe(std::span<const uint8_t> d) {
    // stb finds the start-of-image marker after any number of 0xFF fill bytes ("FF FF D8").
    size_t at = 0;
    while (at < d.size() && d[at] == 0xFF)
        ++at;
    if (at == 0 || at >= d.size() || d[at] != 0xD8)
        return true; // not a JPEG
    ++at;
    const auto byteAt = [&](size_t i) -> size_t { return i < d.size() ? d[i] : 0; };
    bool defined[2][4] = {}; // [DC = 0, AC = 1][table id], by DHT segments so far
    bool progressive = false;
    while (at + 4 <= d.size()) {
        if (d[at] != 0xFF) {
            ++at; // entropy-coded data or padding: look for the next marker
            continue;
        }
        const uint8_t marker = d[at + 1];
        if (marker == 0x00 || marker == 0xFF || (marker >= 0xD0 && marker <= 0xD7) ||
            marker == 0x01) {
            ++at; // stuffed byte, fill byte, restart marker, TEM: no length field
            continue;
        }
        if (marker == 0xD9)
            break;                                                  // end of image
        const size_t length = (size_t(d[at + 2]) << 8) | d[at + 3]; // includes its own 2 bytes
        if (length < 2)
            return true; // malformed: stb rejects it
        const size_t end = std::min(d.size(), at + 2 + length);
        if (marker == 0xC4) {
            // As stb reads it: tables follow each other while the segment length lasts, and
            // bytes past the end of the data read as zero (stbi__get8), so a table cut short
            // still counts what is there.
            int64_t left = static_cast<int64_t>(length) - 2;
            size_t t = at + 4;
            while (left > 0 && t < d.size()) {
                size_t symbols = 0;
                for (size_t i = 0; i < 16; ++i)
                    symbols += byteAt(t + 1 + i);
                if (symbols > 256)
                    return false;
                const size_t q = byteAt(t);
                if ((q >> 4) <= 1 && (q & 15) <= 3)
                    defined[q >> 4][q & 15] = true;
                left -= static_cast<int64_t>(17 + symbols);
                t += 17 + symbols;
            }
        }
        if (marker == 0xC2)
            progressive = true; // the only progressive frame stb decodes
        if (marker == 0xDA) {
            // Start of scan: Ns, then (component, DC << 4 | AC table) pairs, then Ss, Se, Ah/Al.
            // Progressive DC refinement scans read no table; progressive AC scans read only
            // the AC one; baseline scans read both.
            const size_t ns = byteAt(at + 4);
            const size_t ss = byteAt(at + 5 + 2 * ns);
            const size_t ah = byteAt(at + 7 + 2 * ns) >> 4;
            const bool needs_dc = !progressive || (ss == 0 && ah == 0);
            const bool needs_ac = !progressive || ss != 0;
            for (size_t i = 0; i < ns; ++i) {
                const size_t tables = byteAt(at + 6 + 2 * i);
                const size_t dc = tables >> 4, ac = tables & 15;
                if (dc > 3 || ac > 3)
                    continue; // stb rejects these itself
                if ((needs_dc && !defined[0][dc]) || (needs_ac && !defined[1][ac]))
                    return false;
            }
        }
        at = end;
    }
    return true;
}

} // namespace

core::Result<Image> decodeImage(std::span<const uint8_t> data, std::string_view name) {
    if (data.empty())
        return imageError(core::ErrorCode::BadImage, name, "empty file");
    if (data.size() > static_cast<size_t>(INT_MAX))
        return imageError(core::ErrorCode::LimitExceeded, name,
                          "file of " + std::to_string(data.size()) + " bytes is too large");
    const int len = static_cast<int>(data.size());
    if (!jpegHuffmanTablesSafe(data))
        return imageError(core::ErrorCode::BadImage, name,
                          "JPEG Huffman table with more than 256 symbols, or a scan using a "
                          "table that was never defined");
    int w = 0, h = 0, comp = 0;
    if (!stbi_info_from_memory(data.data(), len, &w, &h, &comp))
        return imageError(core::ErrorCode::BadImage, name,
                          "unrecognised or corrupt image header (" + stbReason() + ")");
    if (w <= 0 || h <= 0 || w > kMaxImageDimension || h > kMaxImageDimension)
        return imageError(core::ErrorCode::LimitExceeded, name,
                          "dimensions " + std::to_string(w) + "x" + std::to_string(h) +
                              " outside 1.." + std::to_string(kMaxImageDimension));
    int dw = 0, dh = 0, dcomp = 0;
    std::unique_ptr<stbi_uc, void (*)(void*)> pixels(
        stbi_load_from_memory(data.data(), len, &dw, &dh, &dcomp, 4), stbi_image_free);
    if (!pixels)
        return imageError(core::ErrorCode::BadImage, name, "cannot decode: " + stbReason());
    // The decoder re-reads the header; trust only what agrees with the checked one.
    if (dw != w || dh != h)
        return imageError(core::ErrorCode::BadImage, name,
                          "header says " + std::to_string(w) + "x" + std::to_string(h) +
                              ", decoder produced " + std::to_string(dw) + "x" +
                              std::to_string(dh));
    Image img;
    img.width = w;
    img.height = h;
    const size_t bytes = static_cast<size_t>(w) * static_cast<size_t>(h) * 4;
    img.rgba.assign(pixels.get(), pixels.get() + bytes);
    return img;
}

size_t compressedLevelBytes(CompressedMips::Format format, int width, int height) {
    const size_t block =
        format == CompressedMips::Format::Dxt1 || format == CompressedMips::Format::Dxt1Alpha ? 8
                                                                                              : 16;
    const auto blocks = [](int side) { return static_cast<size_t>((std::max(side, 1) + 3) / 4); };
    return blocks(width) * blocks(height) * block;
}

Image makeMissingTexture(int size) {
    size = std::clamp(size, 8, kMaxMissingTextureSize);
    const int cell = size / 4;
    Image img;
    img.width = size;
    img.height = size;
    img.rgba.resize(static_cast<size_t>(size) * static_cast<size_t>(size) * 4);
    for (int y = 0; y < size; ++y)
        for (int x = 0; x < size; ++x) {
            const uint8_t v = (x % cell == 0 || y % cell == 0) ? kMissingLine : kMissingFill;
            uint8_t* p = &img.rgba[(static_cast<size_t>(y) * static_cast<size_t>(size) +
                                    static_cast<size_t>(x)) *
                                   4];
            p[0] = p[1] = p[2] = v;
            p[3] = 255;
        }
    return img;
}

bool writePng(const std::filesystem::path& path, const Image& image) {
    if (!image.valid())
        return false;
    return stbi_write_png(path.string().c_str(), image.width, image.height, 4, image.rgba.data(),
                          image.width * 4) != 0;
}

std::vector<uint8_t> encodePng(const Image& image, int channels) {
    std::vector<uint8_t> out;
    if (!image.valid() || (channels != 3 && channels != 4))
        return out;
    const uint8_t* pixels = image.rgba.data();
    std::vector<uint8_t> rgb;
    if (channels == 3) {
        rgb.resize(static_cast<size_t>(image.width) * static_cast<size_t>(image.height) * 3);
        for (size_t i = 0, n = rgb.size() / 3; i < n; ++i)
            for (size_t c = 0; c < 3; ++c)
                rgb[i * 3 + c] = image.rgba[i * 4 + c];
        pixels = rgb.data();
    }
    const auto append = [](void* context, void* data, int size) {
        auto* bytes = static_cast<std::vector<uint8_t>*>(context);
        const auto* p = static_cast<const uint8_t*>(data);
        bytes->insert(bytes->end(), p, p + size);
    };
    if (!stbi_write_png_to_func(append, &out, image.width, image.height, channels, pixels,
                                image.width * channels))
        out.clear();
    return out;
}

} // namespace content
