#include "content/model/md2.h"

#include "content/image/pcx.h"
#include "content/model/model_asset.h"
#include "content/vfs/vfs.h"
#include "core/byte_reader.h"

#include <cmath>
#include <optional>
#include <unordered_map>

namespace content {

namespace {

constexpr uint32_t kIdp2 = 'I' | ('D' << 8) | ('P' << 16) | (uint32_t('2') << 24);
constexpr int32_t kMd2Version = 8;
constexpr uint64_t kHeaderBytes = 68;
constexpr uint64_t kSkinNameBytes = 64;    // MAX_SKINNAME
constexpr uint64_t kTriangleBytes = 12;    // dtriangle_t: index_xyz[3], index_st[3] (int16)
constexpr uint64_t kFrameHeaderBytes = 40; // daliasframe_t: scale, translate, name[16]

core::Error md2Error(core::ErrorCode code, std::string_view what, int64_t index, std::string field,
                     std::string detail) {
    return core::makeError(code, "md2." + std::string(what), index, std::move(field),
                           std::move(detail));
}

core::Error truncated(std::string_view what, uint64_t offset, uint64_t need, size_t size) {
    return md2Error(core::ErrorCode::Truncated, what, -1, {},
                    std::to_string(need) + " bytes at " + std::to_string(offset) + " beyond " +
                        std::to_string(size));
}

struct Header {
    int32_t skin_width, skin_height, frame_size;
    int32_t num_skins, num_xyz, num_st, num_tris, num_glcmds, num_frames;
    int32_t ofs_skins, ofs_st, ofs_tris, ofs_frames;
};

// Counts below `least` or above `limit` are errors (Mod_LoadMD2 refuses models without
// vertices, triangles or frames; skins may be absent).
std::optional<core::Error> checkCount(const char* field, int32_t value, int32_t least,
                                      uint32_t limit) {
    if (value < least)
        return md2Error(core::ErrorCode::BadValue, "header", -1, field,
                        std::to_string(value) + ", need at least " + std::to_string(least));
    if (uint32_t(value) > limit)
        return md2Error(core::ErrorCode::LimitExceeded, "header", -1, field,
                        std::to_string(value) + " > " + std::to_string(limit));
    return std::nullopt;
}

core::Result<Header> readHeader(const core::ByteReader& r) {
    if (!r.inRange(0, kHeaderBytes))
        return truncated("header", 0, kHeaderBytes, r.size());
    if (r.u32(0) != kIdp2)
        return md2Error(core::ErrorCode::UnknownFormat, "header", -1, "ident", "not IDP2");
    if (r.i32(4) != kMd2Version)
        return md2Error(core::ErrorCode::UnsupportedVersion, "header", -1, "version",
                        std::to_string(r.i32(4)) + ", expected 8");
    Header h{};
    int32_t* fields[] = {&h.skin_width, &h.skin_height, &h.frame_size, &h.num_skins,  &h.num_xyz,
                         &h.num_st,     &h.num_tris,    &h.num_glcmds, &h.num_frames, &h.ofs_skins,
                         &h.ofs_st,     &h.ofs_tris,    &h.ofs_frames};
    for (size_t i = 0; i < std::size(fields); ++i)
        *fields[i] = r.i32(8 + 4 * uint64_t(i));
    if (h.skin_width < 1 || h.skin_height < 1 || h.skin_width > kMaxPalettedDimension ||
        h.skin_height > kMaxPalettedDimension)
        return md2Error(core::ErrorCode::BadValue, "header", -1, "skinsize",
                        std::to_string(h.skin_width) + "x" + std::to_string(h.skin_height) +
                            " outside 1.." + std::to_string(kMaxPalettedDimension));
    if (auto e = checkCount("num_skins", h.num_skins, 0, kMaxMd2Skins))
        return *e;
    if (auto e = checkCount("num_xyz", h.num_xyz, 1, kMaxMd2Vertices))
        return *e;
    if (auto e = checkCount("num_st", h.num_st, 1, kMaxMd2Vertices))
        return *e;
    if (auto e = checkCount("num_tris", h.num_tris, 1, kMaxMd2Triangles))
        return *e;
    if (auto e = checkCount("num_frames", h.num_frames, 1, kMaxMd2Frames))
        return *e;
    if (int64_t(h.frame_size) < int64_t(kFrameHeaderBytes) + 4 * int64_t(h.num_xyz))
        return md2Error(core::ErrorCode::BadValue, "header", -1, "framesize",
                        std::to_string(h.frame_size) + " cannot hold " + std::to_string(h.num_xyz) +
                            " vertices");
    const std::pair<const char*, std::pair<int32_t, uint64_t>> tables[] = {
        {"skins", {h.ofs_skins, uint64_t(h.num_skins) * kSkinNameBytes}},
        {"st", {h.ofs_st, uint64_t(h.num_st) * 4}},
        {"triangles", {h.ofs_tris, uint64_t(h.num_tris) * kTriangleBytes}},
        {"frames", {h.ofs_frames, uint64_t(h.num_frames) * uint64_t(h.frame_size)}}};
    for (const auto& [what, at] : tables)
        if (at.first < 0 || !r.inRange(uint64_t(at.first), at.second))
            return truncated(what, uint64_t(uint32_t(at.first)), at.second, r.size());
    return h;
}

ModelImage checkerSkin() {
    ModelImage img;
    img.width = img.height = 8;
    img.rgba.resize(8 * 8 * 4);
    for (int y = 0; y < 8; ++y)
        for (int x = 0; x < 8; ++x) {
            const uint8_t c = ((x ^ y) & 1) ? 96 : 160;
            uint8_t* p = &img.rgba[size_t(y * 8 + x) * 4];
            p[0] = p[1] = p[2] = c;
            p[3] = 255;
        }
    return img;
}

} // namespace

const std::array<std::array<float, 3>, kMd2NormalCount>& md2Normals() {
    // yquake2 src/client/refresh/constants/anorms.h (id's table, shared with Quake 1).
    static constexpr std::array<std::array<float, 3>, kMd2NormalCount> kNormals = {
        {{-0.525731, 0.000000, 0.850651},   {-0.442863, 0.238856, 0.864188},
         {-0.295242, 0.000000, 0.955423},   {-0.309017, 0.500000, 0.809017},
         {-0.162460, 0.262866, 0.951056},   {0.000000, 0.000000, 1.000000},
         {0.000000, 0.850651, 0.525731},    {-0.147621, 0.716567, 0.681718},
         {0.147621, 0.716567, 0.681718},    {0.000000, 0.525731, 0.850651},
         {0.309017, 0.500000, 0.809017},    {0.525731, 0.000000, 0.850651},
         {0.295242, 0.000000, 0.955423},    {0.442863, 0.238856, 0.864188},
         {0.162460, 0.262866, 0.951056},    {-0.681718, 0.147621, 0.716567},
         {-0.809017, 0.309017, 0.500000},   {-0.587785, 0.425325, 0.688191},
         {-0.850651, 0.525731, 0.000000},   {-0.864188, 0.442863, 0.238856},
         {-0.716567, 0.681718, 0.147621},   {-0.688191, 0.587785, 0.425325},
         {-0.500000, 0.809017, 0.309017},   {-0.238856, 0.864188, 0.442863},
         {-0.425325, 0.688191, 0.587785},   {-0.716567, 0.681718, -0.147621},
         {-0.500000, 0.809017, -0.309017},  {-0.525731, 0.850651, 0.000000},
         {0.000000, 0.850651, -0.525731},   {-0.238856, 0.864188, -0.442863},
         {0.000000, 0.955423, -0.295242},   {-0.262866, 0.951056, -0.162460},
         {0.000000, 1.000000, 0.000000},    {0.000000, 0.955423, 0.295242},
         {-0.262866, 0.951056, 0.162460},   {0.238856, 0.864188, 0.442863},
         {0.262866, 0.951056, 0.162460},    {0.500000, 0.809017, 0.309017},
         {0.238856, 0.864188, -0.442863},   {0.262866, 0.951056, -0.162460},
         {0.500000, 0.809017, -0.309017},   {0.850651, 0.525731, 0.000000},
         {0.716567, 0.681718, 0.147621},    {0.716567, 0.681718, -0.147621},
         {0.525731, 0.850651, 0.000000},    {0.425325, 0.688191, 0.587785},
         {0.864188, 0.442863, 0.238856},    {0.688191, 0.587785, 0.425325},
         {0.809017, 0.309017, 0.500000},    {0.681718, 0.147621, 0.716567},
         {0.587785, 0.425325, 0.688191},    {0.955423, 0.295242, 0.000000},
         {1.000000, 0.000000, 0.000000},    {0.951056, 0.162460, 0.262866},
         {0.850651, -0.525731, 0.000000},   {0.955423, -0.295242, 0.000000},
         {0.864188, -0.442863, 0.238856},   {0.951056, -0.162460, 0.262866},
         {0.809017, -0.309017, 0.500000},   {0.681718, -0.147621, 0.716567},
         {0.850651, 0.000000, 0.525731},    {0.864188, 0.442863, -0.238856},
         {0.809017, 0.309017, -0.500000},   {0.951056, 0.162460, -0.262866},
         {0.525731, 0.000000, -0.850651},   {0.681718, 0.147621, -0.716567},
         {0.681718, -0.147621, -0.716567},  {0.850651, 0.000000, -0.525731},
         {0.809017, -0.309017, -0.500000},  {0.864188, -0.442863, -0.238856},
         {0.951056, -0.162460, -0.262866},  {0.147621, 0.716567, -0.681718},
         {0.309017, 0.500000, -0.809017},   {0.425325, 0.688191, -0.587785},
         {0.442863, 0.238856, -0.864188},   {0.587785, 0.425325, -0.688191},
         {0.688191, 0.587785, -0.425325},   {-0.147621, 0.716567, -0.681718},
         {-0.309017, 0.500000, -0.809017},  {0.000000, 0.525731, -0.850651},
         {-0.525731, 0.000000, -0.850651},  {-0.442863, 0.238856, -0.864188},
         {-0.295242, 0.000000, -0.955423},  {-0.162460, 0.262866, -0.951056},
         {0.000000, 0.000000, -1.000000},   {0.295242, 0.000000, -0.955423},
         {0.162460, 0.262866, -0.951056},   {-0.442863, -0.238856, -0.864188},
         {-0.309017, -0.500000, -0.809017}, {-0.162460, -0.262866, -0.951056},
         {0.000000, -0.850651, -0.525731},  {-0.147621, -0.716567, -0.681718},
         {0.147621, -0.716567, -0.681718},  {0.000000, -0.525731, -0.850651},
         {0.309017, -0.500000, -0.809017},  {0.442863, -0.238856, -0.864188},
         {0.162460, -0.262866, -0.951056},  {0.238856, -0.864188, -0.442863},
         {0.500000, -0.809017, -0.309017},  {0.425325, -0.688191, -0.587785},
         {0.716567, -0.681718, -0.147621},  {0.688191, -0.587785, -0.425325},
         {0.587785, -0.425325, -0.688191},  {0.000000, -0.955423, -0.295242},
         {0.000000, -1.000000, 0.000000},   {0.262866, -0.951056, -0.162460},
         {0.000000, -0.850651, 0.525731},   {0.000000, -0.955423, 0.295242},
         {0.238856, -0.864188, 0.442863},   {0.262866, -0.951056, 0.162460},
         {0.500000, -0.809017, 0.309017},   {0.716567, -0.681718, 0.147621},
         {0.525731, -0.850651, 0.000000},   {-0.238856, -0.864188, -0.442863},
         {-0.500000, -0.809017, -0.309017}, {-0.262866, -0.951056, -0.162460},
         {-0.850651, -0.525731, 0.000000},  {-0.716567, -0.681718, -0.147621},
         {-0.716567, -0.681718, 0.147621},  {-0.525731, -0.850651, 0.000000},
         {-0.500000, -0.809017, 0.309017},  {-0.238856, -0.864188, 0.442863},
         {-0.262866, -0.951056, 0.162460},  {-0.864188, -0.442863, 0.238856},
         {-0.809017, -0.309017, 0.500000},  {-0.688191, -0.587785, 0.425325},
         {-0.681718, -0.147621, 0.716567},  {-0.442863, -0.238856, 0.864188},
         {-0.587785, -0.425325, 0.688191},  {-0.309017, -0.500000, 0.809017},
         {-0.147621, -0.716567, 0.681718},  {-0.425325, -0.688191, 0.587785},
         {-0.162460, -0.262866, 0.951056},  {0.442863, -0.238856, 0.864188},
         {0.162460, -0.262866, 0.951056},   {0.309017, -0.500000, 0.809017},
         {0.147621, -0.716567, 0.681718},   {0.000000, -0.525731, 0.850651},
         {0.425325, -0.688191, 0.587785},   {0.587785, -0.425325, 0.688191},
         {0.688191, -0.587785, 0.425325},   {-0.955423, 0.295242, 0.000000},
         {-0.951056, 0.162460, 0.262866},   {-1.000000, 0.000000, 0.000000},
         {-0.850651, 0.000000, 0.525731},   {-0.955423, -0.295242, 0.000000},
         {-0.951056, -0.162460, 0.262866},  {-0.864188, 0.442863, -0.238856},
         {-0.951056, 0.162460, -0.262866},  {-0.809017, 0.309017, -0.500000},
         {-0.864188, -0.442863, -0.238856}, {-0.951056, -0.162460, -0.262866},
         {-0.809017, -0.309017, -0.500000}, {-0.681718, 0.147621, -0.716567},
         {-0.681718, -0.147621, -0.716567}, {-0.850651, 0.000000, -0.525731},
         {-0.688191, 0.587785, -0.425325},  {-0.587785, 0.425325, -0.688191},
         {-0.425325, 0.688191, -0.587785},  {-0.425325, -0.688191, -0.587785},
         {-0.587785, -0.425325, -0.688191}, {-0.688191, -0.587785, -0.425325}}};
    return kNormals;
}

core::Result<Md2Model> decodeMd2(std::span<const uint8_t> data) {
    const core::ByteReader r(data);
    auto header = readHeader(r);
    if (!header)
        return header.error();
    const Header& h = *header;
    Md2Model out;
    out.skin_width = h.skin_width;
    out.skin_height = h.skin_height;
    for (int32_t i = 0; i < h.num_skins; ++i)
        out.skin_names.push_back(
            r.fixedString(uint64_t(h.ofs_skins) + uint64_t(i) * kSkinNameBytes, kSkinNameBytes));

    // One mesh vertex per distinct (xyz, st) pair, in the order the triangles use them.
    ModelMesh& mesh = out.mesh;
    std::vector<uint32_t> source_xyz;
    std::unordered_map<uint32_t, uint32_t> vertex_of;
    mesh.indices.reserve(size_t(h.num_tris) * 3);
    for (int32_t t = 0; t < h.num_tris; ++t) {
        const uint64_t at = uint64_t(h.ofs_tris) + uint64_t(t) * kTriangleBytes;
        for (uint64_t k = 0; k < 3; ++k) {
            const int32_t xyz = int16_t(r.u16(at + 2 * k));
            const int32_t st = int16_t(r.u16(at + 6 + 2 * k));
            if (xyz < 0 || xyz >= h.num_xyz)
                return md2Error(core::ErrorCode::IndexOutOfRange, "triangles", t, "index_xyz",
                                std::to_string(xyz) + " outside 0.." +
                                    std::to_string(h.num_xyz - 1));
            if (st < 0 || st >= h.num_st)
                return md2Error(core::ErrorCode::IndexOutOfRange, "triangles", t, "index_st",
                                std::to_string(st) + " outside 0.." + std::to_string(h.num_st - 1));
            const uint32_t key = uint32_t(xyz) << 16 | uint32_t(st);
            auto [it, fresh] = vertex_of.emplace(key, uint32_t(source_xyz.size()));
            if (fresh) {
                source_xyz.push_back(uint32_t(xyz));
                const uint64_t st_at = uint64_t(h.ofs_st) + uint64_t(st) * 4;
                mesh.uv.push_back({float(int16_t(r.u16(st_at))) / float(h.skin_width),
                                   float(int16_t(r.u16(st_at + 2))) / float(h.skin_height)});
            }
            mesh.indices.push_back(it->second);
        }
    }
    mesh.vertex_count = uint32_t(source_xyz.size());
    mesh.pose_count = uint32_t(h.num_frames);
    const size_t total = size_t(mesh.pose_count) * mesh.vertex_count;
    mesh.positions.resize(total);
    mesh.normals.resize(total);
    mesh.frames.resize(size_t(h.num_frames));
    mesh.mins = {INFINITY, INFINITY, INFINITY};
    mesh.maxs = {-INFINITY, -INFINITY, -INFINITY};
    const auto& normals = md2Normals();
    for (uint32_t f = 0; f < mesh.pose_count; ++f) {
        const uint64_t at = uint64_t(h.ofs_frames) + uint64_t(f) * uint64_t(h.frame_size);
        std::array<float, 3> scale{}, translate{};
        for (uint64_t k = 0; k < 3; ++k) {
            scale[k] = r.f32(at + 4 * k);
            translate[k] = r.f32(at + 12 + 4 * k);
        }
        mesh.frames[f].name = r.fixedString(at + 24, 16);
        mesh.frames[f].poses.first = f;
        for (uint32_t v = 0; v < mesh.vertex_count; ++v) {
            const uint64_t vert = at + kFrameHeaderBytes + 4 * uint64_t(source_xyz[v]);
            std::array<float, 3>& p = mesh.positions[size_t(f) * mesh.vertex_count + v];
            for (uint64_t k = 0; k < 3; ++k) {
                p[k] = scale[k] * float(r.u8(vert + k)) + translate[k];
                mesh.mins[k] = std::min(mesh.mins[k], p[k]);
                mesh.maxs[k] = std::max(mesh.maxs[k], p[k]);
            }
            const uint8_t n = r.u8(vert + 3);
            mesh.normals[size_t(f) * mesh.vertex_count + v] =
                n < kMd2NormalCount ? normals[n] : std::array<float, 3>{0, 0, 1};
        }
    }
    // Hostile scales and translations can be infinite or NaN: bounds stay finite.
    for (size_t k = 0; k < 3; ++k)
        if (!std::isfinite(mesh.mins[k]) || !std::isfinite(mesh.maxs[k]))
            mesh.mins[k] = mesh.maxs[k] = 0.0f;
    return out;
}

void attachPcxSkins(Md2Model& model, const FileSystem& fs, std::vector<std::string>& problems) {
    ModelMesh& mesh = model.mesh;
    for (const std::string& name : model.skin_names) {
        mesh.skins.push_back(ModelSkin{TimedRun{uint32_t(mesh.images.size()), 1, {}}});
        auto bytes = fs.readChecked(name);
        auto pcx = bytes ? decodePcx(*bytes) : core::Result<PcxImage>(bytes.error());
        auto rgba = pcx ? pcxToRgba(*pcx) : core::Result<PalettedRgba>(pcx.error());
        if (!rgba) {
            problems.push_back(name + ": " + rgba.error().message());
            mesh.images.push_back(checkerSkin());
            continue;
        }
        ModelImage img;
        img.width = rgba->width;
        img.height = rgba->height;
        img.rgba = std::move(rgba->rgba);
        mesh.images.push_back(std::move(img));
    }
    if (mesh.skins.empty()) {
        mesh.skins.push_back(ModelSkin{TimedRun{0, 1, {}}});
        mesh.images.push_back(checkerSkin());
    }
}

core::Result<ModelAsset> loadMd2Asset(const ModelSource& source) {
    auto md2 = decodeMd2(source.bytes);
    if (!md2)
        return md2.error();
    ModelAsset asset = singlePartAsset(ModelFormat::Quake2Alias, source.path);
    attachPcxSkins(*md2, source.fs, asset.parts[0].warnings);
    asset.parts[0].mesh = std::move(md2->mesh);
    return asset;
}

} // namespace content
