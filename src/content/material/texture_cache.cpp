#include "content/material/texture_cache.h"

#include "content/image/vtf.h"
#include "core/byte_reader.h"
#include "core/file.h"

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <random>
#include <system_error>

namespace content {

namespace fs = std::filesystem;

namespace {

constexpr char kMagic[8] = {'B', 'S', 'P', 'V', 'T', 'E', 'X', '\0'};
constexpr uint32_t kMaxStringBytes = 64 * 1024;
// Images in an entry obey the decoders' limit: everything downstream relies on it.
constexpr int32_t kMaxSide = kMaxImageDimension;
constexpr size_t kMaxFolderFiles = 20000; // a loose folder with more is not fingerprinted
constexpr uint32_t kFlagMissing = 1;
constexpr uint32_t kFlagPixelsOmitted = 2; // see texturePixelsWorthCaching
constexpr uint32_t kFlagSsbump = 4;        // TextureInfo::bump_ssbump
// TextureInfo::water.enabled, followed by its numbers (waterNumbers); and water.blended.
constexpr uint32_t kFlagWater = 8;
constexpr uint32_t kFlagWaterBlended = 16;
// TextureInfo::envmap_shading.enabled (with kept pixels only), followed by its numbers
// (envMapNumbers), the mask kind, then after the other images the six faces and the mask image.
constexpr uint32_t kFlagEnvMap = 32;
// TextureInfo::motion is not still, followed by its numbers (motionNumbers).
constexpr uint32_t kFlagMotion = 64;
// TextureInfo::animated() (with kept pixels only): after the other images, for the base texture
// and then the normal map, the frame count (0: none, else at least 2), and for a count, the
// rate, wrap (0 or 1) and the frames.
constexpr uint32_t kFlagAnimation = 128;
// TextureInfo::proxies not empty, after the motion's numbers (putProxies).
constexpr uint32_t kFlagProxies = 256;
// With kFlagWater only: TextureInfo::water.planar and water.refract (refract needs planar).
constexpr uint32_t kFlagWaterPlanar = 512;
constexpr uint32_t kFlagWaterRefract = 1024;
constexpr uint32_t kAllFlags = kFlagMissing | kFlagPixelsOmitted | kFlagSsbump | kFlagWater |
                               kFlagWaterBlended | kFlagEnvMap | kFlagMotion | kFlagAnimation |
                               kFlagProxies | kFlagWaterPlanar | kFlagWaterRefract;

// 64-bit FNV-1a, for names and keys.
uint64_t fnv1a(std::string_view s, uint64_t h = 14695981039346656037ull) {
    for (const char c : s) {
        h ^= static_cast<uint8_t>(c);
        h *= 1099511628211ull;
    }
    return h;
}

// A word-at-a-time checksum of the payload: catches flipped bits in the pixels at memory speed
// (FNV byte by byte would cost more than reading the file).
uint64_t checksum(std::span<const uint8_t> data) {
    uint64_t h = 0x9E3779B97F4A7C15ull ^ data.size();
    size_t i = 0;
    for (; i + 8 <= data.size(); i += 8) {
        uint64_t w;
        std::memcpy(&w, data.data() + i, 8);
        h = (h ^ w) * 0xFF51AFD7ED558CCDull;
        h ^= h >> 29;
    }
    for (; i < data.size(); ++i)
        h = (h ^ data[i]) * 0x100000001B3ull;
    return h;
}

// "size mtime" of a file, or nullopt.
std::optional<std::string> statText(const fs::path& path) {
    std::error_code ec;
    const auto size = fs::file_size(path, ec);
    if (ec)
        return std::nullopt;
    const auto time = fs::last_write_time(path, ec);
    if (ec)
        return std::nullopt;
    return std::to_string(size) + " " + std::to_string(time.time_since_epoch().count());
}

// Every regular file under `dir` (recursive, or only the top level) by relative name, size and
// time, hashed; nullopt past kMaxFolderFiles or on an error.
std::optional<std::string> folderText(const fs::path& dir, bool recursive, std::string_view ext) {
    std::error_code ec;
    std::vector<std::string> lines;
    auto add = [&](const fs::directory_entry& e) {
        if (!e.is_regular_file(ec))
            return;
        const fs::path p = e.path();
        if (!ext.empty() && core::toLower(p.extension().string()) != ext)
            return;
        if (auto st = statText(p))
            lines.push_back(p.lexically_relative(dir).string() + " " + *st);
    };
    if (recursive) {
        fs::recursive_directory_iterator it(dir, fs::directory_options::skip_permission_denied, ec);
        for (; !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
            add(*it);
            if (lines.size() > kMaxFolderFiles)
                return std::nullopt;
        }
    } else {
        fs::directory_iterator it(dir, fs::directory_options::skip_permission_denied, ec);
        for (; !ec && it != fs::directory_iterator(); it.increment(ec)) {
            add(*it);
            if (lines.size() > kMaxFolderFiles)
                return std::nullopt;
        }
    }
    if (ec)
        return std::nullopt;
    std::sort(lines.begin(), lines.end()); // directory order is not stable
    uint64_t h = fnv1a("");
    for (const std::string& l : lines)
        h = fnv1a(l + "\n", h);
    return std::to_string(lines.size()) + " " + std::to_string(h);
}

void putBytes(std::vector<uint8_t>& out, const void* data, size_t n) {
    const size_t at = out.size();
    out.resize(at + n);
    if (n)
        std::memcpy(out.data() + at, data, n);
}

void putU32(std::vector<uint8_t>& out, uint32_t v) {
    putBytes(out, &v, 4);
}

void putString(std::vector<uint8_t>& out, std::string_view s) {
    const auto n = static_cast<uint32_t>(std::min<size_t>(s.size(), kMaxStringBytes));
    putU32(out, n);
    putBytes(out, s.data(), n);
}

void putImage(std::vector<uint8_t>& out, const Image& img) {
    if (!img.valid() || img.width > kMaxSide || img.height > kMaxSide) {
        putU32(out, 0);
        putU32(out, 0);
        return;
    }
    putU32(out, static_cast<uint32_t>(img.width));
    putU32(out, static_cast<uint32_t>(img.height));
    putBytes(out, img.rgba.data(), img.rgba.size());
}

// TextureInfo::water's numbers in file order: base colour, reflect tint, fade start and end,
// reflect weight.
constexpr size_t kWaterNumbers = 16;
std::array<float, kWaterNumbers> waterNumbers(const WaterShading& w) {
    return {w.base_colour[0],  w.base_colour[1],  w.base_colour[2],  w.reflect_tint[0],
            w.reflect_tint[1], w.reflect_tint[2], w.fade_start,      w.fade_end,
            w.reflect_weight,  w.refract_tint[0], w.refract_tint[1], w.refract_tint[2],
            w.reflect_amount,  w.refract_amount,  w.fog_start,       w.fog_end};
}

constexpr size_t kEnvMapNumbers = 6;
std::array<float, kEnvMapNumbers> envMapNumbers(const EnvMapShading& e) {
    return {e.tint[0], e.tint[1], e.tint[2], e.contrast, e.saturation, e.fresnel};
}

// TextureInfo::motion's numbers in file order: the base and bump matrices, then each scroll's
// enabled (0 or 1), rate, angle and scale.
constexpr size_t kMotionNumbers = 20;
std::array<float, kMotionNumbers> motionNumbers(const TextureMotion& m) {
    std::array<float, kMotionNumbers> v{};
    std::copy(m.base.m.begin(), m.base.m.end(), v.begin());
    std::copy(m.bump.m.begin(), m.bump.m.end(), v.begin() + 6);
    size_t i = 12;
    for (const TextureScroll* s : {&m.base_scroll, &m.bump_scroll}) {
        v[i++] = s->enabled ? 1.0f : 0.0f;
        v[i++] = s->rate;
        v[i++] = s->angle;
        v[i++] = s->scale;
    }
    return v;
}

TextureMotion motionFrom(const std::array<float, kMotionNumbers>& v) {
    TextureMotion m;
    std::copy(v.begin(), v.begin() + 6, m.base.m.begin());
    std::copy(v.begin() + 6, v.begin() + 12, m.bump.m.begin());
    size_t i = 12;
    for (TextureScroll* s : {&m.base_scroll, &m.bump_scroll}) {
        s->enabled = v[i++] != 0.0f;
        s->rate = v[i++];
        s->angle = v[i++];
        s->scale = v[i++];
    }
    return m;
}

// Sequential reader over a ByteReader: every read checked, the first failure sticks.
class Cursor {
public:
    explicit Cursor(core::ByteReader r) : m_r(r) {}
    bool ok() const { return m_ok; }
    uint64_t offset() const { return m_at; }
    uint32_t u32() {
        uint32_t v = 0;
        if (m_ok && !m_r.read(m_at, v))
            m_ok = false;
        m_at += 4;
        return m_ok ? v : 0;
    }
    std::string string() {
        const uint32_t n = u32();
        if (!m_ok || n > kMaxStringBytes || !m_r.inRange(m_at, n)) {
            m_ok = false;
            return {};
        }
        std::string s(reinterpret_cast<const char*>(m_r.bytes().data() + m_at), n);
        m_at += n;
        return s;
    }
    bool image(Image& img) {
        const uint32_t w = u32(), h = u32();
        if (!m_ok || w > static_cast<uint32_t>(kMaxSide) || h > static_cast<uint32_t>(kMaxSide) ||
            (w == 0) != (h == 0)) {
            m_ok = false;
            return false;
        }
        const uint64_t bytes = static_cast<uint64_t>(w) * h * 4;
        if (!m_r.inRange(m_at, bytes)) {
            m_ok = false;
            return false;
        }
        img.width = static_cast<int>(w);
        img.height = static_cast<int>(h);
        const uint8_t* p = m_r.bytes().data() + m_at;
        img.rgba.assign(p, p + bytes);
        m_at += bytes;
        return true;
    }

private:
    core::ByteReader m_r;
    uint64_t m_at = 0;
    bool m_ok = true;
};

// `v.size()` floats in file order into `v`: false at the first one that is not finite.
bool readFinite(Cursor& body, std::span<float> v) {
    for (float& x : v) {
        x = std::bit_cast<float>(body.u32());
        if (!std::isfinite(x))
            return false;
    }
    return true;
}

// An entry's water numbers (kFlagWater) and the water flags: finite numbers, refraction only
// with the planar path.
bool readWater(Cursor& body, uint32_t flags, WaterShading& w) {
    std::array<float, kWaterNumbers> v{};
    if (!readFinite(body, v))
        return false;
    w.enabled = true;
    w.blended = (flags & kFlagWaterBlended) != 0;
    w.base_colour = {v[0], v[1], v[2]};
    w.reflect_tint = {v[3], v[4], v[5]};
    w.fade_start = v[6];
    w.fade_end = v[7];
    w.reflect_weight = v[8];
    w.refract_tint = {v[9], v[10], v[11]};
    w.reflect_amount = v[12];
    w.refract_amount = v[13];
    w.fog_start = v[14];
    w.fog_end = v[15];
    w.planar = (flags & kFlagWaterPlanar) != 0;
    w.refract = (flags & kFlagWaterRefract) != 0;
    return !w.refract || w.planar;
}

// An entry's envmap numbers and mask kind (kFlagEnvMap): finite numbers, a known mask.
bool readEnvMapNumbers(Cursor& body, EnvMapShading& e) {
    std::array<float, kEnvMapNumbers> v{};
    if (!readFinite(body, v))
        return false;
    const uint32_t mask = body.u32();
    if (!body.ok() || mask > static_cast<uint32_t>(EnvMapMask::NormalAlpha))
        return false;
    e.enabled = true;
    e.tint = {v[0], v[1], v[2]};
    e.contrast = v[3];
    e.saturation = v[4];
    e.fresnel = v[5];
    e.mask = static_cast<EnvMapMask>(mask);
    return true;
}

// An entry's cube faces (square, one size) and mask image (there exactly for a Texture mask).
bool readEnvMapImages(Cursor& body, TextureInfo& t) {
    for (Image& face : t.envmap)
        if (!body.image(face) || !face.valid() || face.width != face.height ||
            face.width != t.envmap[0].width)
            return false;
    return body.image(t.envmap_mask) &&
           t.envmap_mask.valid() == (t.envmap_shading.mask == EnvMapMask::Texture);
}

// A proxy program: the var count, each var's size, four numbers and name; the step count, each
// step's op, result var and component, four source vars and four inputs (var, component,
// number). Indices are stored as their two's-complement bits.
void putProxies(std::vector<uint8_t>& out, const MaterialProxies& p) {
    const auto putI = [&out](int v) { putU32(out, static_cast<uint32_t>(v)); };
    putU32(out, static_cast<uint32_t>(p.vars.size()));
    for (const ProxyVar& v : p.vars) {
        putU32(out, v.size);
        for (const float x : v.value)
            putU32(out, std::bit_cast<uint32_t>(x));
        putString(out, v.name);
    }
    putU32(out, static_cast<uint32_t>(p.steps.size()));
    for (const ProxyStep& s : p.steps) {
        putU32(out, static_cast<uint32_t>(s.op));
        putI(s.result);
        putI(s.result_component);
        for (const int16_t v : s.src)
            putI(v);
        for (const ProxyInput& in : s.in) {
            putI(in.var);
            putI(in.component);
            putU32(out, std::bit_cast<uint32_t>(in.value));
        }
    }
}

// A program as putProxies writes it, checked so that evaluating it stays in its vars: at most
// kMaxProxyVars vars of size 0..4 with finite numbers, 1..kMaxProxySteps steps of a known op
// whose result is a var, whose sources are a var, kNoVar or kDummyVar, and components -1..4.
bool readProxies(Cursor& body, MaterialProxies& p) {
    const auto readI = [&body]() { return static_cast<int32_t>(body.u32()); };
    const uint32_t var_count = body.u32();
    if (!body.ok() || var_count > kMaxProxyVars)
        return false;
    p.vars.resize(var_count);
    for (ProxyVar& v : p.vars) {
        const uint32_t size = body.u32();
        for (float& x : v.value)
            x = std::bit_cast<float>(body.u32());
        v.name = body.string();
        if (!body.ok() || size > 4 ||
            !std::all_of(v.value.begin(), v.value.end(), [](float x) { return std::isfinite(x); }))
            return false;
        v.size = static_cast<uint8_t>(size);
    }
    const uint32_t step_count = body.u32();
    if (!body.ok() || step_count == 0 || step_count > kMaxProxySteps)
        return false;
    const auto var = [&](int32_t v, bool result) {
        return (v >= 0 && static_cast<uint32_t>(v) < var_count) ||
               (!result && (v == kNoVar || v == kDummyVar));
    };
    const auto component = [](int32_t c) { return c >= -1 && c <= 4; };
    p.steps.resize(step_count);
    for (ProxyStep& s : p.steps) {
        const uint32_t op = body.u32();
        const int32_t result = readI(), result_component = readI();
        if (!body.ok() || op >= static_cast<uint32_t>(ProxyOp::Count) || !var(result, true) ||
            !component(result_component))
            return false;
        s.op = static_cast<ProxyOp>(op);
        s.result = static_cast<int16_t>(result);
        s.result_component = static_cast<int8_t>(result_component);
        for (int16_t& v : s.src) {
            const int32_t x = readI();
            if (!var(x, false))
                return false;
            v = static_cast<int16_t>(x);
        }
        for (ProxyInput& in : s.in) {
            const int32_t v = readI(), c = readI();
            in.value = std::bit_cast<float>(body.u32());
            if (!body.ok() || !var(v, false) || !component(c) || !std::isfinite(in.value))
                return false;
            in.var = static_cast<int16_t>(v);
            in.component = static_cast<int8_t>(c);
        }
    }
    std::vector<std::string> undrawn;
    finishProxies(p, undrawn);
    return body.ok();
}

void putAnimation(std::vector<uint8_t>& out, const AnimatedTexture& a,
                  const std::vector<Image>& frames) {
    if (frames.size() < 2) {
        putU32(out, 0);
        return;
    }
    putU32(out, static_cast<uint32_t>(frames.size()));
    putU32(out, std::bit_cast<uint32_t>(a.rate));
    putU32(out, a.wrap ? 1 : 0);
    for (const Image& frame : frames)
        putImage(out, frame);
}

// One animation as putAnimation writes it: a count of 0 or 2..kMaxVtfFrames, a finite rate, a
// wrap of 0 or 1, and frames that are whole images of one size.
bool readAnimation(Cursor& body, AnimatedTexture& a, std::vector<Image>& frames) {
    const uint32_t count = body.u32();
    if (!body.ok() || count == 1 || count > kMaxVtfFrames)
        return false;
    if (count == 0)
        return true;
    a.enabled = true;
    a.rate = std::bit_cast<float>(body.u32());
    const uint32_t wrap = body.u32();
    if (!body.ok() || !std::isfinite(a.rate) || wrap > 1)
        return false;
    a.wrap = wrap == 1;
    frames.resize(count);
    for (Image& frame : frames)
        if (!body.image(frame) || !frame.valid() || frame.width != frames[0].width ||
            frame.height != frames[0].height)
            return false;
    return true;
}

} // namespace

std::optional<fs::path> defaultTextureCacheDir() {
    if (const char* dir = std::getenv("BSPV_TEXTURE_CACHE")) {
        const std::string d(dir);
        if (d.empty() || d == "off")
            return std::nullopt;
        return fs::path(d);
    }
    if (const char* xdg = std::getenv("XDG_CACHE_HOME"); xdg && *xdg == '/')
        return fs::path(xdg) / "bspview" / "textures";
    if (const char* home = std::getenv("HOME"); home && *home == '/')
        return fs::path(home) / ".cache" / "bspview" / "textures";
    return std::nullopt;
}

std::optional<std::string> textureCacheKey(const MapLocation& where, const bsp::Map& map,
                                           const FileSystem& fs,
                                           std::span<const fs::path> wad_dirs) {
    std::string key = "bspview-textures " + std::to_string(kTextureCacheVersion) + "\n";
    key += "spec ";
    key += where.spec;
    key += "\n";
    const fs::path map_file = where.file();
    const auto map_stat = statText(map_file);
    if (!map_stat)
        return std::nullopt;
    key += "map " + fs::absolute(map_file).lexically_normal().string() + " " + *map_stat + "\n";
    uint64_t names = fnv1a("");
    for (const bsp::Material& m : map.materials)
        names = fnv1a(m.name + "|" + std::to_string(m.width) + "x" + std::to_string(m.height) +
                          "|" + std::to_string(m.embedded) + "\n",
                      names);
    key += "materials " + std::to_string(map.materials.size()) + " " + std::to_string(names) + "\n";
    std::error_code ec;
    for (const fs::path& src : fs.sourcePaths()) {
        const fs::path abs = fs::absolute(src, ec).lexically_normal();
        if (fs::is_directory(src, ec)) {
            const auto text = folderText(src, true, {});
            if (!text)
                return std::nullopt;
            key += "folder " + abs.string() + " " + *text + "\n";
        } else {
            const auto text = statText(src);
            if (!text)
                return std::nullopt;
            key += "archive " + abs.string() + " " + *text + "\n";
        }
    }
    for (const fs::path& dir : wad_dirs) {
        if (!fs::is_directory(dir, ec))
            continue;
        const auto text = folderText(dir, false, ".wad");
        if (!text)
            return std::nullopt;
        key += "wads " + fs::absolute(dir, ec).lexically_normal().string() + " " + *text + "\n";
    }
    return key;
}

bool texturePixelsWorthCaching(const TextureInfo& t) {
    if (t.missing || !t.image.valid())
        return false; // the missing-texture tile
    const std::string source = core::toLower(t.source);
    const auto ends = [&](std::string_view ext) {
        return source.size() >= ext.size() &&
               source.compare(source.size() - ext.size(), ext.size(), ext) == 0;
    };
    if (ends(".jpg") || ends(".jpeg") || ends(".png"))
        return true;
    const std::string origin = core::toLower(t.origin);
    const bool zipped = origin.size() >= 4 && (origin.compare(origin.size() - 4, 4, ".pk3") == 0 ||
                                               origin.compare(origin.size() - 4, 4, ".zip") == 0);
    return ends(".tga") && zipped;
}

namespace {

void putHeader(std::vector<uint8_t>& out, std::string_view key) {
    putBytes(out, kMagic, sizeof(kMagic));
    putU32(out, kTextureCacheVersion);
    putU32(out, static_cast<uint32_t>(key.size()));
    putBytes(out, key.data(), key.size());
}

void putChecksum(std::vector<uint8_t>& out) {
    const uint64_t sum = checksum(out);
    putBytes(out, &sum, 8);
}

} // namespace

namespace {
size_t frameBytes(const std::vector<Image>& frames) {
    size_t n = 0;
    for (const Image& f : frames)
        n += f.rgba.size();
    return n;
}
} // namespace

std::vector<uint8_t> encodeTextureCache(std::string_view key,
                                        const std::vector<TextureInfo>& textures) {
    size_t pixels = 0;
    for (const TextureInfo& t : textures)
        if (texturePixelsWorthCaching(t))
            pixels += t.image.rgba.size() + t.glow.rgba.size() + t.layer2.rgba.size() +
                      frameBytes(t.base_frames) + frameBytes(t.bump_frames) + t.bump.rgba.size() +
                      t.envmap_mask.rgba.size() + t.envmap[0].rgba.size() * t.envmap.size();
    std::vector<uint8_t> out;
    out.reserve(pixels + key.size() + textures.size() * 128 + 64);
    putHeader(out, key);
    putU32(out, static_cast<uint32_t>(textures.size()));
    for (const TextureInfo& t : textures) {
        const bool keep = texturePixelsWorthCaching(t);
        const bool envmap = keep && t.envmap_shading.enabled; // omitted: decoded again
        const bool animated = keep && t.animated();
        putU32(out, (t.missing ? kFlagMissing : 0) | (keep ? 0 : kFlagPixelsOmitted) |
                        (t.bump_ssbump ? kFlagSsbump : 0) | (t.water.enabled ? kFlagWater : 0) |
                        (t.water.enabled && t.water.blended ? kFlagWaterBlended : 0) |
                        (t.water.enabled && t.water.planar ? kFlagWaterPlanar : 0) |
                        (t.water.enabled && t.water.refract ? kFlagWaterRefract : 0) |
                        (envmap ? kFlagEnvMap : 0) | (t.motion.still() ? 0 : kFlagMotion) |
                        (animated ? kFlagAnimation : 0) | (t.proxies.empty() ? 0 : kFlagProxies));
        putString(out, t.source);
        putString(out, t.origin);
        putString(out, t.error);
        putString(out, t.shader_file);
        putString(out, t.shader_image);
        putString(out, t.envmap_source);
        putString(out, t.envmap_error);
        putU32(out, t.surface_flags);
        putU32(out, std::bit_cast<uint32_t>(t.alpha_cutoff));
        putU32(out, std::bit_cast<uint32_t>(t.fullbright_light));
        if (t.water.enabled)
            for (const float v : waterNumbers(t.water))
                putU32(out, std::bit_cast<uint32_t>(v));
        if (envmap) {
            for (const float v : envMapNumbers(t.envmap_shading))
                putU32(out, std::bit_cast<uint32_t>(v));
            putU32(out, static_cast<uint32_t>(t.envmap_shading.mask));
        }
        if (!t.motion.still())
            for (const float v : motionNumbers(t.motion))
                putU32(out, std::bit_cast<uint32_t>(v));
        if (!t.proxies.empty())
            putProxies(out, t.proxies);
        putImage(out, keep ? t.image : Image());
        putImage(out, keep ? t.glow : Image());
        putImage(out, keep ? t.layer2 : Image());
        putImage(out, keep ? t.bump : Image());
        if (envmap) {
            for (const Image& face : t.envmap)
                putImage(out, face);
            putImage(out, t.envmap_mask);
        }
        if (animated) {
            putAnimation(out, t.base_animation, t.base_frames);
            putAnimation(out, t.bump_animation, t.bump_frames);
        }
    }
    putChecksum(out);
    return out;
}

std::vector<uint8_t> wrapTextureCacheBody(std::string_view key, std::span<const uint8_t> body) {
    std::vector<uint8_t> out;
    out.reserve(body.size() + key.size() + 32);
    putHeader(out, key);
    putBytes(out, body.data(), body.size());
    putChecksum(out);
    return out;
}

std::optional<std::vector<TextureInfo>>
decodeTextureCache(std::span<const uint8_t> bytes, std::string_view key, size_t expected_count) {
    if (bytes.size() < sizeof(kMagic) + 8 + 8 ||
        std::memcmp(bytes.data(), kMagic, sizeof(kMagic)) != 0)
        return std::nullopt;
    const std::span<const uint8_t> payload = bytes.first(bytes.size() - 8);
    uint64_t stored = 0;
    std::memcpy(&stored, bytes.data() + payload.size(), 8);
    Cursor c(core::ByteReader(payload).sub(sizeof(kMagic), payload.size() - sizeof(kMagic)));
    if (c.u32() != kTextureCacheVersion)
        return std::nullopt;
    const uint32_t key_len = c.u32();
    if (!c.ok() || key_len != key.size() || payload.size() - sizeof(kMagic) < 8 + key_len ||
        std::memcmp(payload.data() + sizeof(kMagic) + 8, key.data(), key_len) != 0)
        return std::nullopt;
    // The key matches: now the whole payload is worth checking.
    if (checksum(payload) != stored)
        return std::nullopt;
    Cursor body(core::ByteReader(payload).sub(sizeof(kMagic) + 8 + key_len,
                                              payload.size() - sizeof(kMagic) - 8 - key_len));
    const uint32_t count = body.u32();
    // Each texture takes at least its flags, seven string lengths, three drawing fields and four
    // image sizes: a count the bytes cannot hold is refused before anything is allocated for it.
    constexpr uint64_t kMinTextureBytes = 4 + 7 * 4 + 3 * 4 + 4 * 8;
    if (!body.ok() || count != expected_count ||
        count > (payload.size() - sizeof(kMagic) - 8 - key_len) / kMinTextureBytes)
        return std::nullopt;
    std::vector<TextureInfo> out(count);
    for (TextureInfo& t : out) {
        const uint32_t flags = body.u32();
        t.missing = (flags & kFlagMissing) != 0;
        t.source = body.string();
        t.origin = body.string();
        t.error = body.string();
        t.shader_file = body.string();
        t.shader_image = body.string();
        t.envmap_source = body.string();
        t.envmap_error = body.string();
        t.surface_flags = body.u32();
        t.alpha_cutoff = std::bit_cast<float>(body.u32());
        t.fullbright_light = std::bit_cast<float>(body.u32());
        if (!std::isfinite(t.alpha_cutoff) || !std::isfinite(t.fullbright_light))
            return std::nullopt;
        if ((flags & kFlagWater)
                ? !readWater(body, flags, t.water)
                : (flags & (kFlagWaterBlended | kFlagWaterPlanar | kFlagWaterRefract)) != 0)
            return std::nullopt;
        if ((flags & kFlagEnvMap) && !readEnvMapNumbers(body, t.envmap_shading))
            return std::nullopt;
        if (flags & kFlagMotion) {
            std::array<float, kMotionNumbers> v{};
            if (!readFinite(body, v))
                return std::nullopt;
            t.motion = motionFrom(v);
        }
        if ((flags & kFlagProxies) && !readProxies(body, t.proxies))
            return std::nullopt;
        body.image(t.image);
        body.image(t.glow);
        body.image(t.layer2);
        body.image(t.bump);
        if ((flags & kFlagEnvMap) && !readEnvMapImages(body, t))
            return std::nullopt;
        if ((flags & kFlagAnimation) &&
            (!readAnimation(body, t.base_animation, t.base_frames) ||
             !readAnimation(body, t.bump_animation, t.bump_frames) || !t.animated()))
            return std::nullopt;
        t.bump_ssbump = (flags & kFlagSsbump) != 0;
        if (!body.ok() || (flags & ~kAllFlags) != 0)
            return std::nullopt;
        // Kept pixels are a whole image; omitted ones are none at all.
        const bool omitted = (flags & kFlagPixelsOmitted) != 0;
        if (omitted ? (t.image.width != 0 || t.glow.width != 0 || t.layer2.width != 0 ||
                       t.bump.width != 0 || (flags & (kFlagEnvMap | kFlagAnimation)))
                    : !t.image.valid())
            return std::nullopt;
    }
    if (body.offset() != payload.size() - sizeof(kMagic) - 8 - key_len)
        return std::nullopt; // trailing bytes: not a file this code wrote
    return out;
}

TextureCache::TextureCache(fs::path dir, uint64_t max_bytes)
    : m_dir(std::move(dir)), m_max_bytes(max_bytes) {}

fs::path TextureCache::pathFor(const std::string& key) const {
    char name[32];
    std::snprintf(name, sizeof(name), "%016llx.tex", static_cast<unsigned long long>(fnv1a(key)));
    return m_dir / name;
}

std::optional<std::vector<TextureInfo>> TextureCache::load(const std::string& key,
                                                           size_t expected_count) const {
    const fs::path path = pathFor(key);
    std::error_code ec;
    if (!fs::is_regular_file(path, ec))
        return std::nullopt;
    // Mapped, not read: entries are replaced by rename (store), never rewritten in place.
    auto file = core::MappedFile::open(path);
    if (!file)
        return std::nullopt;
    auto textures = decodeTextureCache(file->bytes(), key, expected_count);
    if (textures)
        fs::last_write_time(path, fs::file_time_type::clock::now(), ec); // recently used
    return textures;
}

bool TextureCache::store(const std::string& key, const std::vector<TextureInfo>& textures) const {
    const std::vector<uint8_t> bytes = encodeTextureCache(key, textures);
    if (bytes.size() > m_max_bytes)
        return false;
    std::error_code ec;
    fs::create_directories(m_dir, ec);
    if (ec)
        return false;
    const fs::path path = pathFor(key);
    // A unique temporary name, renamed into place: readers see the old file or the whole new
    // one, and two viewers writing the same entry do not interleave.
    std::random_device rd;
    const fs::path tmp = path.string() + ".tmp" + std::to_string(rd());
    {
        std::ofstream f(tmp, std::ios::binary | std::ios::trunc);
        f.write(reinterpret_cast<const char*>(bytes.data()),
                static_cast<std::streamsize>(bytes.size()));
        if (!f) {
            f.close();
            fs::remove(tmp, ec);
            return false;
        }
    }
    fs::rename(tmp, path, ec);
    if (ec) {
        fs::remove(tmp, ec);
        return false;
    }
    // Trim to the cap, least recently used (oldest time) first.
    struct Entry {
        fs::path path;
        uint64_t size;
        fs::file_time_type time;
    };
    std::vector<Entry> entries;
    uint64_t total = 0;
    for (fs::directory_iterator it(m_dir, ec); !ec && it != fs::directory_iterator();
         it.increment(ec)) {
        if (it->path().extension() != ".tex" || !it->is_regular_file(ec))
            continue;
        const uint64_t size = it->file_size(ec);
        const auto time = it->last_write_time(ec);
        if (ec)
            break;
        entries.push_back({it->path(), size, time});
        total += size;
    }
    std::sort(entries.begin(), entries.end(),
              [](const Entry& a, const Entry& b) { return a.time < b.time; });
    for (const Entry& e : entries) {
        if (total <= m_max_bytes)
            break;
        if (e.path == path)
            continue;
        if (fs::remove(e.path, ec))
            total -= e.size;
    }
    return true;
}

} // namespace content
