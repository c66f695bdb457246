#include "bsp/source_props.h"

#include "bsp/lump_table.h"
#include "bsp/map.h"
#include "bsp/tree.h"
#include "core/byte_reader.h"
#include "core/lzma.h"

#include <cmath>
#include <optional>

namespace bsp {

namespace {

constexpr uint64_t kNameBytes = 128;
constexpr uint32_t kMaxPropRecords = 1u << 20;
constexpr uint64_t kDetailSpriteBytes = 32;
constexpr uint64_t kDetailObjectBytes = 52;
constexpr uint64_t kAmbientSampleBytes = 28;

core::Error propError(core::ErrorCode code, const char* lump, int64_t index, std::string field,
                      std::string detail) {
    return core::makeError(code, lump, index, std::move(field), std::move(detail));
}

// An int count at `at` whose `record_bytes` records follow it inside the lump.
core::Result<uint32_t> counted(const core::ByteReader& r, uint64_t at, uint64_t record_bytes,
                               const char* lump, const char* field) {
    if (!r.inRange(at, 4))
        return propError(core::ErrorCode::Truncated, lump, -1, field,
                         "the count at " + std::to_string(at) + " is past the lump's " +
                             std::to_string(r.size()) + " bytes");
    const int32_t n = r.i32(at);
    if (n < 0)
        return propError(core::ErrorCode::BadValue, lump, -1, field,
                         std::to_string(n) + " is negative");
    if (uint32_t(n) > kMaxPropRecords)
        return propError(core::ErrorCode::LimitExceeded, lump, -1, field,
                         std::to_string(n) + " > " + std::to_string(kMaxPropRecords));
    if (!r.inRange(at + 4, uint64_t(n) * record_bytes))
        return propError(core::ErrorCode::Truncated, lump, -1, field,
                         std::to_string(n) + " records of " + std::to_string(record_bytes) +
                             " bytes do not fit after " + std::to_string(at + 4));
    return uint32_t(n);
}

std::vector<std::string> names(const core::ByteReader& r, uint64_t at, uint32_t count) {
    std::vector<std::string> out(count);
    for (uint32_t i = 0; i < count; ++i)
        out[i] = r.fixedString(at + uint64_t(i) * kNameBytes, kNameBytes);
    return out;
}

// Where a version's fields lie within its record, by the record's size.
struct PropLayout {
    bool sdk2013 = false;   // StaticPropLump_t of SDK 2013 (72 bytes: u32 flags at 64)
    int fade_scale = -1;    // float
    int dx_level = -1;      // 2 x u16
    int cpu_gpu = -1;       // 4 x u8
    int diffuse = -1;       // 4 x u8
    int flags_ex = -1;      // u32
    int uniform_scale = -1; // float
    int axis_scale = -1;    // 3 x float
};

// The layout of `version` with records of `bytes`, or nullopt when the size is not the
// version's.
std::optional<PropLayout> propLayout(uint16_t version, uint64_t bytes) {
    PropLayout l;
    switch (version) {
    case 4:
        return bytes == 56 ? std::optional(l) : std::nullopt;
    case 5:
        l.fade_scale = 56;
        return bytes == 60 ? std::optional(l) : std::nullopt;
    case 6:
        l.fade_scale = 56;
        l.dx_level = 60;
        return bytes == 64 ? std::optional(l) : std::nullopt;
    case 7:
    case 10:
        l.fade_scale = 56;
        if (bytes == 72) { // SDK 2013's StaticPropLump_t
            l.sdk2013 = true;
            l.dx_level = 60;
            return l;
        }
        if (version == 7 && bytes == 68) {
            l.dx_level = 60;
            l.diffuse = 64;
            return l;
        }
        if (version == 10 && bytes == 76) {
            l.cpu_gpu = 60;
            l.diffuse = 64;
            l.flags_ex = 72;
            return l;
        }
        return std::nullopt;
    case 8:
    case 9:
        l.fade_scale = 56;
        l.cpu_gpu = 60;
        l.diffuse = 64;
        return bytes == (version == 8 ? 68u : 72u) ? std::optional(l) : std::nullopt;
    case 11:
    case 12:
        l.fade_scale = 56;
        l.cpu_gpu = 60;
        l.diffuse = 64;
        l.flags_ex = 68;
        l.uniform_scale = 72;
        return bytes == 80 ? std::optional(l) : std::nullopt;
    case 13:
        l.fade_scale = 56;
        l.cpu_gpu = 60;
        l.diffuse = 64;
        l.flags_ex = 72;
        l.axis_scale = 76;
        return bytes == 88 ? std::optional(l) : std::nullopt;
    default:
        return std::nullopt;
    }
}

StaticProp readProp(const core::ByteReader& r, uint64_t at, const PropLayout& l) {
    StaticProp p;
    p.origin = vec3At(r, at);
    p.angles = vec3At(r, at + 12);
    p.model = r.u16(at + 24);
    p.first_leaf = r.u16(at + 26);
    p.leaf_count = r.u16(at + 28);
    p.solid = r.u8(at + 30);
    p.flags = l.sdk2013 ? r.u32(at + 64) : r.u8(at + 31);
    p.skin = r.i32(at + 32);
    p.fade_min = r.f32(at + 36);
    p.fade_max = r.f32(at + 40);
    p.lighting_origin = vec3At(r, at + 44);
    if (l.fade_scale >= 0)
        p.forced_fade_scale = r.f32(at + uint64_t(l.fade_scale));
    if (l.dx_level >= 0)
        p.dx_level = {r.u16(at + uint64_t(l.dx_level)), r.u16(at + uint64_t(l.dx_level) + 2)};
    if (l.sdk2013)
        p.lightmap_resolution = {r.u16(at + 68), r.u16(at + 70)};
    for (size_t k = 0; k < 4; ++k) {
        if (l.cpu_gpu >= 0)
            p.cpu_gpu_level[k] = r.u8(at + uint64_t(l.cpu_gpu) + k);
        if (l.diffuse >= 0)
            p.diffuse_modulation[k] = r.u8(at + uint64_t(l.diffuse) + k);
    }
    if (l.flags_ex >= 0)
        p.flags_ex = r.u32(at + uint64_t(l.flags_ex));
    if (l.uniform_scale >= 0)
        p.scale = glm::vec3(r.f32(at + uint64_t(l.uniform_scale)));
    if (l.axis_scale >= 0)
        p.scale = vec3At(r, at + uint64_t(l.axis_scale));
    return p;
}

} // namespace

core::Result<StaticProps> parseStaticProps(std::span<const uint8_t> lump, uint16_t version) {
    constexpr const char* kLump = "game_lump.sprp";
    if (version < 4 || version > 13)
        return propError(core::ErrorCode::UnsupportedVersion, kLump, -1, "version",
                         "static prop lump version " + std::to_string(version) +
                             " is not one of 4..13");
    const core::ByteReader r(lump);
    StaticProps out;
    out.version = version;
    auto dict = counted(r, 0, kNameBytes, kLump, "dictionary");
    if (!dict)
        return dict.error();
    out.models = names(r, 4, *dict);
    uint64_t at = 4 + uint64_t(*dict) * kNameBytes;
    const uint64_t leaf_bytes = version >= 12 ? 4 : 2;
    auto leaves = counted(r, at, leaf_bytes, kLump, "leaves");
    if (!leaves)
        return leaves.error();
    out.leaves.resize(*leaves);
    for (uint32_t i = 0; i < *leaves; ++i)
        out.leaves[i] = leaf_bytes == 4 ? r.u32(at + 4 + i * 4ull) : r.u16(at + 4 + i * 2ull);
    at += 4 + uint64_t(*leaves) * leaf_bytes;
    auto props = counted(r, at, 0, kLump, "props");
    if (!props)
        return props.error();
    at += 4;
    if (*props == 0)
        return out;
    const uint64_t rest = r.size() - at;
    const uint64_t bytes = rest / *props;
    const auto layout = rest % *props == 0 ? propLayout(version, bytes) : std::nullopt;
    if (!layout)
        return propError(core::ErrorCode::LumpSize, kLump, -1, "props",
                         std::to_string(*props) + " props in " + std::to_string(rest) +
                             " bytes: not whole records of a version " + std::to_string(version) +
                             " size");
    out.record_bytes = uint32_t(bytes);
    out.props.reserve(*props);
    for (uint32_t i = 0; i < *props; ++i) {
        StaticProp p = readProp(r, at + uint64_t(i) * bytes, *layout);
        if (p.model >= out.models.size())
            return propError(core::ErrorCode::IndexOutOfRange, kLump, i, "model",
                             "model " + std::to_string(p.model) + " of " +
                                 std::to_string(out.models.size()));
        if (uint32_t(p.first_leaf) + p.leaf_count > out.leaves.size())
            return propError(core::ErrorCode::IndexOutOfRange, kLump, i, "first_leaf",
                             "leaves " + std::to_string(p.first_leaf) + "+" +
                                 std::to_string(p.leaf_count) + " of " +
                                 std::to_string(out.leaves.size()));
        out.props.push_back(p);
    }
    return out;
}

core::Result<DetailProps> parseDetailProps(std::span<const uint8_t> lump, uint16_t version) {
    constexpr const char* kLump = "game_lump.dprp";
    if (version != 4)
        return propError(core::ErrorCode::UnsupportedVersion, kLump, -1, "version",
                         "detail prop lump version " + std::to_string(version) + " is not 4");
    const core::ByteReader r(lump);
    DetailProps out;
    out.version = version;
    auto dict = counted(r, 0, kNameBytes, kLump, "models");
    if (!dict)
        return dict.error();
    out.models = names(r, 4, *dict);
    uint64_t at = 4 + uint64_t(*dict) * kNameBytes;
    auto sprites = counted(r, at, kDetailSpriteBytes, kLump, "sprites");
    if (!sprites)
        return sprites.error();
    out.sprites.resize(*sprites);
    for (uint32_t i = 0; i < *sprites; ++i) {
        const uint64_t s = at + 4 + uint64_t(i) * kDetailSpriteBytes;
        DetailSprite& d = out.sprites[i];
        d.upper_left = {r.f32(s), r.f32(s + 4)};
        d.lower_right = {r.f32(s + 8), r.f32(s + 12)};
        d.tex_upper_left = {r.f32(s + 16), r.f32(s + 20)};
        d.tex_lower_right = {r.f32(s + 24), r.f32(s + 28)};
    }
    at += 4 + uint64_t(*sprites) * kDetailSpriteBytes;
    auto objects = counted(r, at, kDetailObjectBytes, kLump, "objects");
    if (!objects)
        return objects.error();
    out.props.resize(*objects);
    for (uint32_t i = 0; i < *objects; ++i) {
        const uint64_t o = at + 4 + uint64_t(i) * kDetailObjectBytes;
        DetailProp& d = out.props[i];
        d.origin = vec3At(r, o);
        d.angles = vec3At(r, o + 12);
        d.model = r.u16(o + 24);
        d.leaf = r.u16(o + 26);
        d.lighting = {r.u8(o + 28), r.u8(o + 29), r.u8(o + 30), r.get<int8_t>(o + 31)};
        d.light_styles = r.u32(o + 32);
        d.light_style_count = r.u8(o + 36);
        d.sway = r.u8(o + 37);
        d.shape_angle = r.u8(o + 38);
        d.shape_size = r.u8(o + 39);
        d.orientation = r.u8(o + 40);
        const uint8_t type = r.u8(o + 44);
        d.scale = r.f32(o + 48);
        if (type > uint8_t(DetailType::ShapeTri))
            return propError(core::ErrorCode::BadValue, kLump, i, "type",
                             "detail type " + std::to_string(type) + " is not 0..3");
        d.type = DetailType(type);
        const size_t dict_size =
            d.type == DetailType::Model ? out.models.size() : out.sprites.size();
        if (d.model >= dict_size)
            return propError(core::ErrorCode::IndexOutOfRange, kLump, i, "model",
                             std::to_string(d.model) + " of " + std::to_string(dict_size) +
                                 (d.type == DetailType::Model ? " models" : " sprites"));
    }
    return out;
}

core::Result<LeafAmbientLighting> parseLeafAmbient(std::span<const uint8_t> index,
                                                   int32_t index_version,
                                                   std::span<const uint8_t> samples,
                                                   size_t leaf_count, bool hdr) {
    const char* index_lump = hdr ? "leaf_ambient_index_hdr" : "leaf_ambient_index";
    const char* sample_lump = hdr ? "leaf_ambient_lighting_hdr" : "leaf_ambient_lighting";
    LeafAmbientLighting out;
    if (index.empty())
        return out;
    if (index_version != 0 && index_version != 1)
        return propError(core::ErrorCode::UnsupportedVersion, index_lump, -1, "version",
                         "lump version " + std::to_string(index_version) + " is not 0 or 1");
    const uint64_t entry = index_version == 1 ? 8 : 4;
    if (index.size() % entry != 0 || index.size() / entry != leaf_count)
        return propError(core::ErrorCode::LumpSize, index_lump, -1, {},
                         std::to_string(index.size()) + " bytes for " + std::to_string(leaf_count) +
                             " leaves of " + std::to_string(entry) + " bytes");
    if (samples.size() % kAmbientSampleBytes != 0)
        return propError(core::ErrorCode::LumpSize, sample_lump, -1, {},
                         std::to_string(samples.size()) + " bytes is not a multiple of 28");
    const core::ByteReader ri(index), rs(samples);
    out.samples.resize(samples.size() / kAmbientSampleBytes);
    for (size_t i = 0; i < out.samples.size(); ++i) {
        const uint64_t at = i * kAmbientSampleBytes;
        LeafAmbientSample& s = out.samples[i];
        for (size_t k = 0; k < 6; ++k)
            s.cube[k] = {rs.u8(at + k * 4), rs.u8(at + k * 4 + 1), rs.u8(at + k * 4 + 2),
                         rs.get<int8_t>(at + k * 4 + 3)};
        s.position = {rs.u8(at + 24), rs.u8(at + 25), rs.u8(at + 26)};
    }
    out.leaves.resize(leaf_count);
    for (size_t i = 0; i < leaf_count; ++i) {
        LeafAmbientIndex& e = out.leaves[i];
        e.count = entry == 8 ? ri.u32(i * 8) : ri.u16(i * 4);
        e.first = entry == 8 ? ri.u32(i * 8 + 4) : ri.u16(i * 4 + 2);
        if (e.count > 0 && size_t(e.first) + e.count > out.samples.size())
            return propError(core::ErrorCode::IndexOutOfRange, index_lump, int64_t(i),
                             "firstAmbientSample",
                             std::to_string(e.first) + "+" + std::to_string(e.count) + " of " +
                                 std::to_string(out.samples.size()) + " samples");
        if (e.count == 0 && e.first >= leaf_count)
            return propError(
                core::ErrorCode::IndexOutOfRange, index_lump, int64_t(i), "firstAmbientSample",
                "stand-in leaf " + std::to_string(e.first) + " of " + std::to_string(leaf_count));
    }
    return out;
}

glm::vec3 rgbExpToLinear(const ColorRgbExp32& c) {
    const float scale = std::ldexp(1.0f, c.exponent);
    return glm::vec3(float(c.r), float(c.g), float(c.b)) * scale;
}

std::array<glm::vec3, 6> ambientCubeAt(const Map& map, const glm::vec3& point, bool hdr) {
    std::array<glm::vec3, 6> out{};
    const LeafAmbientLighting* set = hdr ? &map.leaf_ambient_hdr : &map.leaf_ambient;
    if (!set->present())
        set = hdr ? &map.leaf_ambient : &map.leaf_ambient_hdr;
    if (!set->present() || map.leaves.size() != set->leaves.size())
        return out;
    int32_t leaf = pointLeaf(map, point);
    if (leaf < 0 || size_t(leaf) >= set->leaves.size())
        return out;
    // A leaf without samples names the one that lights it (one step, as the engine follows).
    if (set->leaves[size_t(leaf)].count == 0)
        leaf = set->leaves[size_t(leaf)].first;
    const LeafAmbientIndex& e = set->leaves[size_t(leaf)];
    if (e.count == 0 || size_t(e.first) + e.count > set->samples.size())
        return out;
    const Leaf& l = map.leaves[size_t(leaf)];
    float total = 0.0f;
    for (uint32_t i = e.first; i < uint32_t(e.first) + e.count; ++i) {
        const LeafAmbientSample& s = set->samples[i];
        const glm::vec3 frac = glm::vec3(s.position[0], s.position[1], s.position[2]) / 255.0f;
        const glm::vec3 at = l.mins + (l.maxs - l.mins) * frac;
        const glm::vec3 d = at - point;
        const float factor = 1.0f / (d.x * d.x + d.y * d.y + d.z * d.z + 1.0f);
        total += factor;
        for (size_t k = 0; k < 6; ++k)
            out[k] += rgbExpToLinear(s.cube[k]) * factor;
    }
    for (glm::vec3& side : out)
        side /= total;
    return out;
}

namespace {

std::string vecText(const glm::vec3& v) {
    return std::to_string(v.x) + " " + std::to_string(v.y) + " " + std::to_string(v.z);
}

// Static props as the point entities Hammer's VMF holds before vbsp compiles them into the
// lump, after the map's own entities.
void listPropEntities(Map& map) {
    for (size_t k = 0; k < map.static_props.props.size(); ++k) {
        const StaticProp& p = map.static_props.props[k];
        Entity e;
        e.pairs.emplace_back("classname", "prop_static");
        e.pairs.emplace_back("model", map.static_props.models[p.model]);
        e.pairs.emplace_back("origin", vecText(p.origin));
        e.pairs.emplace_back("angles", vecText(p.angles));
        e.pairs.emplace_back("skin", std::to_string(p.skin));
        e.pairs.emplace_back("_sprp", std::to_string(k)); // where it came from
        map.entities.push_back(std::move(e));
    }
}

} // namespace

void readSourceGameLumps(Map& map, std::span<const uint8_t> file_bytes,
                         std::span<const uint8_t> game_bytes) {
    const core::ByteReader file(file_bytes), g(game_bytes);
    if (g.size() < 4)
        return;
    const int32_t n = g.i32(0);
    if (n < 0 || uint64_t(n) > (g.size() - 4) / 16) {
        map.warnings.push_back("game_lump: " + std::to_string(n) + " entries do not fit " +
                               std::to_string(g.size()) + " bytes");
        return;
    }
    bool seen_sprp = false, seen_dprp = false;
    for (int32_t i = 0; i < n; ++i) {
        const uint64_t at = 4 + uint64_t(i) * 16;
        const uint32_t id = g.u32(at);
        const bool sprp = id == 0x73707270u, dprp = id == 0x64707270u; // 'sprp', 'dprp'
        if ((!sprp && !dprp) || (sprp && seen_sprp) || (dprp && seen_dprp))
            continue;
        (sprp ? seen_sprp : seen_dprp) = true;
        const uint16_t flags = g.u16(at + 4), version = g.u16(at + 6);
        const int32_t ofs = g.i32(at + 8), len = g.i32(at + 12);
        const std::string what = "game_lump[" + std::to_string(i) + "] " +
                                 (sprp ? "sprp" : "dprp") + " v" + std::to_string(version);
        const char* dropped = sprp ? "; static props dropped" : "; detail props dropped";
        if (ofs < 0 || len < 0 || !file.inRange(uint64_t(ofs), uint64_t(len))) {
            map.warnings.push_back(what + ": data at " + std::to_string(ofs) + "+" +
                                   std::to_string(len) + " outside the file" + dropped);
            continue;
        }
        core::ByteReader r = file.sub(uint64_t(ofs), uint64_t(len));
        std::vector<uint8_t> unpacked;
        if ((flags & 1) || core::isValveLzma(r.bytes())) {
            auto out = core::decodeValveLzma(r.bytes());
            if (!out) {
                map.warnings.push_back(what + ": " + out.error().detail + dropped);
                continue;
            }
            unpacked = std::move(*out);
            r = core::ByteReader(unpacked);
        }
        if (sprp) {
            auto props = parseStaticProps(r.bytes(), version);
            if (props)
                map.static_props = std::move(*props);
            else
                map.warnings.push_back(what + ": " + props.error().message() + dropped);
        } else {
            auto props = parseDetailProps(r.bytes(), version);
            if (props)
                map.detail_props = std::move(*props);
            else
                map.warnings.push_back(what + ": " + props.error().message() + dropped);
        }
    }
    listPropEntities(map);
}

void readSourceLeafAmbient(Map& map, const LeafAmbientLumps& ldr, const LeafAmbientLumps& hdr,
                           std::span<const uint8_t> leafs, int32_t leaf_version) {
    for (const bool is_hdr : {false, true}) {
        const LeafAmbientLumps& l = is_hdr ? hdr : ldr;
        auto set = parseLeafAmbient(l.index, l.index_version, l.samples, map.leaves.size(), is_hdr);
        if (set)
            (is_hdr ? map.leaf_ambient_hdr : map.leaf_ambient) = std::move(*set);
        else
            map.warnings.push_back(set.error().message() + "; ambient light dropped");
    }
    constexpr uint64_t kLeafV0Bytes = 56, kCubeAt = 30;
    const core::ByteReader r(leafs);
    if (map.leaf_ambient.present() || map.leaf_ambient_hdr.present() || leaf_version != 0 ||
        r.size() != map.leaves.size() * kLeafV0Bytes)
        return;
    LeafAmbientLighting& set = map.leaf_ambient;
    set.leaves.resize(map.leaves.size());
    set.samples.resize(map.leaves.size());
    for (size_t i = 0; i < map.leaves.size(); ++i) {
        const uint64_t at = i * kLeafV0Bytes + kCubeAt;
        for (size_t k = 0; k < 6; ++k)
            set.samples[i].cube[k] = {r.u8(at + k * 4), r.u8(at + k * 4 + 1), r.u8(at + k * 4 + 2),
                                      r.get<int8_t>(at + k * 4 + 3)};
        set.leaves[i] = {1, uint32_t(i)};
    }
}

} // namespace bsp
