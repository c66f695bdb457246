#include "content/material/textures.h"

#include "content/image/embedded_texture.h"
#include "content/image/miptex.h"
#include "content/image/pcx.h"
#include "content/image/vtf.h"
#include "content/image/wal.h"
#include "content/material/envmap.h"
#include "content/material/vmt.h"

#include "core/file.h"
#include "core/log.h"
#include "core/parallel.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <unordered_map>

namespace content {

namespace {

// ioquake3 imageLoaders[] order. PCX sits between png and bmp there; it joins this table when
// content/pcx exists (stb_image cannot read PCX).
constexpr std::array<std::string_view, 5> kImageExtensions = {"tga", "jpg", "jpeg", "png", "bmp"};

constexpr int kMaxThreads = 8;

// Extension of the last path component without the dot, lower case; empty when none.
std::string extensionOf(std::string_view name) {
    const size_t slash = name.find_last_of("/\\");
    const size_t dot = name.find_last_of('.');
    if (dot == std::string_view::npos || (slash != std::string_view::npos && dot < slash))
        return {};
    return core::toLower(name.substr(dot + 1));
}

} // namespace

TextureSourceKind sourceKindOf(const TextureInfo& info) {
    if (info.missing)
        return TextureSourceKind::Missing;
    if (info.source.starts_with("<embedded>"))
        return TextureSourceKind::Embedded;
    if (info.source.starts_with("<wad>"))
        return TextureSourceKind::Wad;
    const std::string origin = core::toLower(info.origin);
    if (origin.ends_with(".pk3") || origin.ends_with(".pk4"))
        return TextureSourceKind::Pk3;
    if (origin.ends_with(".pak"))
        return TextureSourceKind::Pak;
    return TextureSourceKind::Folder;
}

std::string_view sourceKindName(TextureSourceKind kind) {
    switch (kind) {
    case TextureSourceKind::Missing:
        return "missing";
    case TextureSourceKind::Embedded:
        return "embedded";
    case TextureSourceKind::Wad:
        return "wad";
    case TextureSourceKind::Pak:
        return "pak";
    case TextureSourceKind::Pk3:
        return "pk3";
    case TextureSourceKind::Folder:
        return "folder";
    }
    return "?";
}

std::vector<std::string> imageCandidates(std::string_view material_name) {
    std::string name(material_name);
    std::replace(name.begin(), name.end(), '\\', '/');
    std::vector<std::string> out;
    if (name.empty())
        return out;
    const std::string ext = extensionOf(name);
    std::string base = name;
    std::string_view skip;
    for (std::string_view known : kImageExtensions)
        if (ext == known) {
            out.push_back(name);
            base = name.substr(0, name.size() - ext.size() - 1);
            skip = known;
            break;
        }
    for (std::string_view known : kImageExtensions)
        if (known != skip)
            out.push_back(base + "." + std::string(known));
    return out;
}

bool loadImageFile(const FileSystem& fs, std::string_view name, TextureInfo& info) {
    for (const std::string& candidate : imageCandidates(name)) {
        if (!fs.exists(candidate))
            continue;
        auto bytes = fs.readChecked(candidate);
        if (!bytes) {
            info.error = bytes.error().message();
            continue;
        }
        auto image = decodeImage(*bytes, candidate);
        if (!image) {
            info.error = image.error().message();
            continue;
        }
        info.image = std::move(*image);
        info.source = candidate;
        info.origin = fs.sourceOf(candidate);
        info.missing = false;
        return true; // error keeps the candidate skipped before, if any
    }
    return false;
}

void applyVmtDrawing(const Vmt& vmt, TextureInfo& info) {
    uint32_t f = 0;
    if (vmt.translucent)
        f |= bsp::kSurfTranslucent;
    if (vmt.additive)
        f |= bsp::kSurfAdditive;
    if (vmt.alphatest)
        f |= bsp::kSurfAlphaTest;
    if (vmt.nocull)
        f |= bsp::kSurfNoCull;
    if (vmt.shader == "unlitgeneric" || vmt.shader == "sky") {
        f |= bsp::kSurfFullbright;
        info.fullbright_light = 1.0f;
    }
    if (vmt.shader == "water" && vmt.has_fog_colour) {
        // water.cpp SHADER_DRAW calls DrawCheapWater with bBlend = !$forcecheap: blended by
        // EnableAlphaBlending(SRC_ALPHA, ONE_MINUS_SRC_ALPHA), or opaque over $fogcolor.
        const Vmt::Water& w = vmt.water;
        info.water.enabled = true;
        info.water.blended = !w.force_cheap;
        info.water.base_colour = w.fog_colour;
        info.water.reflect_tint = w.reflect_tint;
        info.water.fade_start = w.cheap_start;
        info.water.fade_end = w.cheap_end;
        // The FRESNEL combo is `$nofresnel == 0`; without it F is $reflectblendfactor.
        info.water.reflect_weight = w.no_fresnel ? std::max(w.reflect_blend_factor, 0.0f) : -1.0f;
        // The expensive path: SHADER_DRAW draws DrawReflectionRefraction with bReflection =
        // $forceexpensive && $reflecttexture, never with $forcecheap (SHADER_INIT_PARAMS clears
        // $forceexpensive then), and draws no cheap pass over it; viewrender.cpp
        // CViewRender::DetermineWaterRenderInfo renders the reflection for such a material
        // whatever the distance (bLocalReflection) and the refraction with it when
        // $refracttexture is named. Refraction without reflection waits on the water LOD
        // distance (water_lod_control), not read: that water stays cheap here.
        info.water.planar = w.force_expensive && !w.force_cheap && w.has_reflect_texture;
        info.water.refract = info.water.planar && w.has_refract_texture;
        info.water.refract_tint = w.refract_tint;
        info.water.reflect_amount = w.reflect_amount;
        info.water.refract_amount = w.refract_amount;
        info.water.fog_start = w.fog_start;
        info.water.fog_end = w.fog_end;
        f |= bsp::kSurfFullbright;
        if (info.water.blended)
            f |= bsp::kSurfTranslucent;
        info.fullbright_light = 1.0f;
        // The image the views without the water shading (lightmap, flat) and the exporters
        // show: a tile of the fog colour, half opaque when the water blends.
        constexpr int kSide = 4;
        info.image = Image{};
        info.image.width = kSide;
        info.image.height = kSide;
        info.image.rgba.resize(size_t(kSide) * kSide * 4);
        for (size_t i = 0; i < info.image.rgba.size(); i += 4) {
            for (size_t c = 0; c < 3; ++c)
                info.image.rgba[i + c] = uint8_t(std::lround(w.fog_colour[c] * 255.0f));
            info.image.rgba[i + 3] = info.water.blended ? 128 : 255;
        }
        info.glow = Image{};
    }
    if (vmt.selfillum && vmt.shader != "water" && info.image.valid()) {
        info.glow = info.image;
        for (size_t i = 3; i < info.image.rgba.size(); i += 4)
            info.image.rgba[i] = 255;
    }
    info.surface_flags = f;
    info.alpha_cutoff = vmt.alphatest_reference;
}

namespace {

// A material's further texture (Source $basetexture2): its decoded pixels, or the
// missing-texture tile with `error` saying why.
Image loadVtfLayer(const FileSystem& fs, const std::string& vtf_path, std::string& error) {
    auto image = readVtf(fs, vtf_path);
    if (!image) {
        error = image.error().code == core::ErrorCode::NotFound
                    ? vtf_path + ": not found ($basetexture2)"
                    : image.error().message();
        return makeMissingTexture();
    }
    return std::move(*image);
}

// A material's normal map (`param` "$bumpmap" or water's "$normalmap", naming `texture`): its
// decoded pixels, or none (a warning naming the material, the parameter and the texture, and
// what is drawn instead: `without`).
Image loadNormalMap(const FileSystem& fs, std::string_view material, std::string_view param,
                    std::string_view texture, std::string_view without) {
    const std::string vtf_path = vtfPathOf(texture);
    auto image = readVtf(fs, vtf_path);
    if (image && image->valid())
        return std::move(*image);
    const std::string why =
        !image ? (image.error().code == core::ErrorCode::NotFound ? vtf_path + ": not found"
                                                                  : image.error().message())
               : vtf_path + ": no pixels";
    core::logWarning(std::string(material) + ": " + std::string(param) + " " + why + "; " +
                     std::string(without));
    return Image();
}

// The frames of `vtf_path` for a texture an AnimatedTexture proxy plays (`animation`), or for
// its static frame var `frame` ($frame, $bumpframe) when none does. With a proxy and a file of
// more than one frame, `out_frames` gets them all (decodeVtfFrames: frame 0 is `image` already)
// and `out_animation` the proxy. Without a proxy, a `frame` other than 0 replaces `image` by that
// frame, the one the shader binds (BindTexture with the frame var); a frame the file does not
// have is a warning naming the material, the parameter and the frame, and frame 0 stays.
void loadFrames(const FileSystem& fs, std::string_view material, std::string_view param,
                const std::string& vtf_path, const AnimatedTexture& animation, int frame,
                Image& image, AnimatedTexture& out_animation, std::vector<Image>& out_frames) {
    if ((!animation.enabled && frame == 0) || !image.valid())
        return;
    auto bytes = fs.readChecked(vtf_path);
    if (!bytes)
        return; // read once already: frame 0 stays
    auto frames = decodeVtfFrames(*bytes, vtf_path);
    if (!frames) {
        core::logWarning(std::string(material) + ": " + std::string(param) +
                         " frames: " + frames.error().message() + "; frame 0 is drawn");
        return;
    }
    if (animation.enabled) {
        if (frames->size() > 1) {
            out_animation = animation;
            out_frames = std::move(*frames);
        }
        return;
    }
    if (frame < 0 || static_cast<size_t>(frame) >= frames->size()) {
        core::logWarning(std::string(material) + ": " + std::string(param) + " " +
                         std::to_string(frame) + ": " + vtf_path + " has " +
                         std::to_string(frames->size()) + " frame(s); frame 0 is drawn");
        return;
    }
    image = std::move((*frames)[static_cast<size_t>(frame)]);
}

} // namespace

core::Result<Vmt> readVmt(const FileSystem& fs, std::string_view vmt_path) {
    const VmtReader read = [&fs](std::string_view path) -> std::optional<std::string> {
        auto bytes = fs.read(path);
        if (!bytes)
            return std::nullopt;
        return std::string(bytes->begin(), bytes->end());
    };
    return resolveVmt(vmt_path, read);
}

core::Result<Image> readVtf(const FileSystem& fs, std::string_view vtf_path) {
    auto bytes = fs.readChecked(vtf_path);
    if (!bytes)
        return bytes.error();
    return decodeVtf(*bytes, vtf_path);
}

bool loadValveMaterialFile(const FileSystem& fs, std::string_view material, TextureInfo& info) {
    const std::string vmt_path = vmtPathOf(material);
    std::string vtf_path = vtfPathOf(material);
    std::optional<Vmt> vmt;
    if (fs.exists(vmt_path)) {
        auto resolved = readVmt(fs, vmt_path);
        if (!resolved) {
            info.error = resolved.error().message();
            return false;
        }
        vmt = std::move(*resolved);
        info.shader_file = vmt_path;
        info.shader_image = vmt->base_texture;
        if (vmt->shader == "water" && vmt->has_fog_colour) {
            // Drawn as its fog colour for now: no texture to read.
            applyVmtDrawing(*vmt, info);
            info.source = vmt_path + " $fogcolor";
            info.origin = fs.sourceOf(vmt_path);
            info.missing = false;
            // water.cpp SHADER_INIT loads $normalmap (LoadBumpMap) and $envmap (LoadCubeMap)
            // only when the material names them; the world shader's WATER variant reads them
            // as TextureInfo::bump and TextureInfo::envmap.
            if (vmt->water.has_normal_map) {
                info.bump = loadNormalMap(fs, material, "$normalmap", vmt->water.normal_map,
                                          "the water is drawn with its face normal");
                loadFrames(fs, material, "$bumpframe", vtfPathOf(vmt->water.normal_map),
                           vmt->bump_animation, vmt->bump_frame, info.bump, info.bump_animation,
                           info.bump_frames);
            }
            for (const std::string& warning : vmt->warnings)
                core::logWarning(warning);
            loadEnvMap(fs, material, *vmt, {}, info);
            return true;
        }
        if (vmt->base_texture.empty()) {
            info.error = vmt_path + ": no $basetexture (shader " + vmt->shader + ")";
            return false;
        }
        vtf_path = vtfPathOf(vmt->base_texture);
    }
    auto image = readVtf(fs, vtf_path);
    if (!image) {
        info.error = image.error().code == core::ErrorCode::NotFound ? vtf_path + ": not found"
                                                                     : image.error().message();
        return false;
    }
    info.image = std::move(*image);
    info.source = vtf_path;
    info.origin = fs.sourceOf(vtf_path);
    info.missing = false;
    if (vmt) {
        applyVmtDrawing(*vmt, info);
        info.motion = vmt->motion;
        info.proxies = vmt->proxies;
        for (const std::string& warning : vmt->warnings)
            core::logWarning(warning);
        if (!vmt->unevaluated_proxies.empty()) {
            std::string names;
            for (const std::string& n : vmt->unevaluated_proxies)
                names += (names.empty() ? "" : ", ") + n;
            core::logInfo(vmt_path + ": proxies not evaluated (drawn still): " + names);
        }
        if (!vmt->undrawn_proxy_vars.empty()) {
            std::string names;
            for (const std::string& n : vmt->undrawn_proxy_vars)
                names += (names.empty() ? "" : ", ") + n;
            core::logInfo(vmt_path + ": proxies evaluated, results not drawn: " + names);
        }
    }
    if (vmt)
        loadFrames(fs, material, "$frame", vtf_path, vmt->base_animation, vmt->frame, info.image,
                   info.base_animation, info.base_frames);
    if (vmt && !vmt->base_texture2.empty())
        info.layer2 = loadVtfLayer(fs, vtfPathOf(vmt->base_texture2), info.error);
    if (vmt && !vmt->bump_map.empty()) {
        info.bump = loadNormalMap(fs, material, "$bumpmap", vmt->bump_map,
                                  "its faces are drawn with their flat lightmap");
        info.bump_ssbump = vmt->ssbump && info.bump.valid();
        loadFrames(fs, material, "$bumpframe", vtfPathOf(vmt->bump_map), vmt->bump_animation,
                   vmt->bump_frame, info.bump, info.bump_animation, info.bump_frames);
    }
    if (vmt)
        loadEnvMap(fs, material, *vmt, vtf_path, info);
    return true;
}

TextureInfo loadImageTexture(const FileSystem& fs, std::string_view name) {
    TextureInfo info;
    if (!loadImageFile(fs, name, info)) {
        info.image = makeMissingTexture();
        info.missing = true;
    }
    return info;
}

namespace {

Image toImage(PalettedRgba&& rgba) {
    Image out;
    out.width = rgba.width;
    out.height = rgba.height;
    out.rgba = std::move(rgba.rgba);
    return out;
}

// Fullbright mask -> glow image: the colour of the masked texels, everything else (0,0,0,0).
Image glowImage(const Image& colour, const std::vector<uint8_t>& mask) {
    Image glow;
    glow.width = colour.width;
    glow.height = colour.height;
    glow.rgba.assign(colour.rgba.size(), 0);
    for (size_t i = 0; i < mask.size() && i * 4 + 3 < colour.rgba.size(); ++i)
        if (mask[i]) {
            std::copy_n(colour.rgba.begin() + std::ptrdiff_t(i * 4), 3,
                        glow.rgba.begin() + std::ptrdiff_t(i * 4));
            glow.rgba[i * 4 + 3] = 255;
        }
    return glow;
}

// A palette file from the FileSystem, or the built-in one. `decode` turns bytes into a palette.
template <typename Decode>
void findPalette(const FileSystem& fs, std::string_view name, Decode decode, Palette& out,
                 std::string& label) {
    if (fs.exists(name))
        if (auto bytes = fs.read(name))
            if (auto palette = decode(*bytes)) {
                out = *palette;
                label = std::string(name) + " (" + fs.sourceOf(name) + ")";
                return;
            }
    out = defaultQuakePalette();
    label = "built-in palette";
}

// A named miptex whose pixels are not in the map (Half-Life textures in WADs).
bool isExternalMiptex(const bsp::Material& material) {
    return material.embedded < 0 && !material.uv_in_texels && material.width > 0 &&
           material.height > 0 && !material.name.empty();
}

// `name` in `dir`, ignoring case (wad keys say "Halflife.wad" for "halflife.wad").
std::optional<std::filesystem::path> findFileNoCase(const std::filesystem::path& dir,
                                                    const std::string& lower_name) {
    std::error_code ec;
    const auto exact = dir / lower_name;
    if (std::filesystem::is_regular_file(exact, ec))
        return exact;
    uint64_t seen = 0; // a folder is not trusted to be small
    for (std::filesystem::directory_iterator it(dir, ec), end;
         !ec && it != end && seen < kMaxArchiveEntries; it.increment(ec), ++seen) {
        if (core::toLower(it->path().filename().string()) == lower_name && it->is_regular_file(ec))
            return it->path();
    }
    return std::nullopt;
}

// `flags`: the material's surface flags after its shader script (resolveSurfaceFlags).
TextureInfo fromEmbedded(const bsp::Material& material, uint32_t flags, const bsp::Map& map,
                         const PalettedSources& sources) {
    TextureInfo info;
    const bool own_palette = !map.embedded_textures[size_t(material.embedded)].palette.empty();
    auto decoded = decodeEmbeddedTexture(map, material, sources.quake_palette,
                                         sources.palette_table ? &*sources.palette_table : nullptr);
    if (!decoded) {
        info.image = makeMissingTexture();
        info.error = decoded.error().message();
        return info;
    }
    info.image = toImage(std::move(decoded->colour));
    // QuakeSpasm loads sky and liquid ('*') textures without a fullbright mask (gl_model.c
    // Mod_LoadTextures): a liquid the map lights (Quake 1 lit water) is its texture times the
    // lightmap in every texel. Unlit liquids keep the glow, which holds their fullbright texels
    // at the texture's own colour as the engine draws them.
    const bool lit_liquid = (flags & bsp::kSurfLiquid) && !(flags & bsp::kSurfFullbright);
    if (decoded->has_fullbright && !(flags & bsp::kSurfSky) && !lit_liquid)
        info.glow = glowImage(info.image, decoded->fullbright);
    info.source = own_palette ? "<embedded>" : "<embedded> + " + sources.quake_palette_label;
    info.origin = map.name;
    info.missing = false;
    return info;
}

// WAD3 textures carry their palette; WAD2 (Quake) ones use the Quake palette.
core::Result<PalettedRgba> decodeWadMiptex(const std::string& name, const Miptex& tex,
                                           const PalettedSources& sources) {
    if (tex.palette)
        return decodeHalfLifeMiptex(name, tex.width, tex.height, tex.indices, *tex.palette,
                                    sources.palette_table ? &*sources.palette_table : nullptr);
    const Palette& quake_palette = sources.quake_palette;
    auto quake = decodeQuakeMiptex(name, tex.width, tex.height, tex.indices, quake_palette);
    if (!quake)
        return quake.error();
    return std::move(quake->colour);
}

TextureInfo fromWads(const bsp::Material& material, const PalettedSources& sources) {
    TextureInfo info;
    for (const auto& loaded : sources.wads) {
        if (!loaded.wad.find(material.name))
            continue;
        auto tex = loaded.wad.miptex(material.name);
        if (!tex) {
            info.error = tex.error().message();
            continue;
        }
        auto rgba = decodeWadMiptex(material.name, *tex, sources);
        if (!rgba) {
            info.error = rgba.error().message();
            continue;
        }
        info.image = toImage(std::move(*rgba));
        info.source = "<wad> " + loaded.name;
        info.origin = loaded.origin;
        info.missing = false;
        info.error.clear();
        return info;
    }
    info.image = makeMissingTexture();
    if (info.error.empty()) {
        info.error = "external texture not in any WAD";
        if (!sources.wads.empty()) {
            info.error += " (searched";
            for (const auto& loaded : sources.wads)
                info.error += " " + loaded.name;
            info.error += ")";
        }
        if (!sources.missing_wads.empty()) {
            info.error += "; not found:";
            for (const auto& name : sources.missing_wads)
                info.error += " " + name;
        }
    }
    return info;
}

TextureInfo fromWal(const bsp::Material& material, const FileSystem& fs,
                    const PalettedSources& sources) {
    TextureInfo info;
    const std::string stem = "textures/" + material.name;
    const std::string wal = stem + ".wal";
    if (fs.exists(wal)) {
        auto bytes = fs.readChecked(wal);
        if (!bytes) {
            info.error = bytes.error().message();
        } else if (auto rgba = decodeWal(*bytes, sources.wal_palette); !rgba) {
            info.error = rgba.error().message();
        } else {
            info.image = toImage(std::move(*rgba));
            info.source = wal;
            info.origin = fs.sourceOf(wal);
            info.missing = false;
            return info;
        }
    }
    if (loadImageFile(fs, stem, info))
        return info;
    info.image = makeMissingTexture();
    return info;
}

} // namespace

PalettedSources loadPalettedSources(const bsp::Map& map, const FileSystem& fs,
                                    std::span<const std::filesystem::path> wad_dirs) {
    return loadPalettedSources(map, fs, game::profileFor(map).materials, wad_dirs);
}

PalettedSources loadPalettedSources(const bsp::Map& map, const FileSystem& fs,
                                    const game::MaterialSource& source,
                                    std::span<const std::filesystem::path> wad_dirs) {
    PalettedSources out;
    out.files = source.files;
    out.palette_table = source.palette_table;
    bool need_quake = false, need_wal = false, need_wads = false;
    // Source maps read .vmt files only (loadMaterialTexture): no palette, WAD or .wal.
    const bool vmt_only = source.files == game::MaterialFiles::ValveMaterials;
    for (const bsp::Material& m : map.materials) {
        if (vmt_only)
            break;
        if (m.embedded >= 0 && size_t(m.embedded) < map.embedded_textures.size() &&
            map.embedded_textures[size_t(m.embedded)].palette.empty())
            need_quake = true;
        need_wal |= m.uv_in_texels;
        need_wads |= isExternalMiptex(m);
    }
    if (need_quake || need_wads)
        findPalette(
            fs, "gfx/palette.lmp", [](const std::vector<uint8_t>& b) { return parsePalette(b); },
            out.quake_palette, out.quake_palette_label);
    else {
        out.quake_palette = defaultQuakePalette();
        out.quake_palette_label = "built-in palette";
    }
    if (need_wal)
        findPalette(
            fs, "pics/colormap.pcx",
            [](const std::vector<uint8_t>& b) { return paletteFromPcx(b); }, out.wal_palette,
            out.wal_palette_label);
    else {
        out.wal_palette = defaultQuakePalette();
        out.wal_palette_label = "built-in palette";
    }
    if (!need_wads)
        return out;
    for (const std::string& wad_name : source.wads) {
        const std::string lower = core::toLower(core::baseName(wad_name));
        if (lower.empty())
            continue;
        std::optional<std::vector<uint8_t>> bytes;
        std::string origin;
        if (fs.exists(lower)) {
            bytes = fs.read(lower);
            origin = fs.sourceOf(lower);
        }
        for (size_t d = 0; !bytes && d < wad_dirs.size(); ++d) {
            auto path = findFileNoCase(wad_dirs[d], lower);
            if (!path)
                continue;
            std::error_code ec;
            const uint64_t size = std::filesystem::file_size(*path, ec);
            if (ec || size > kMaxWadFileBytes) {
                out.wad_errors.push_back(path->string() + ": too large or unreadable");
                continue;
            }
            auto data = core::readFile(*path);
            if (!data) {
                out.wad_errors.push_back(data.error().message());
                continue;
            }
            bytes = std::move(*data);
            origin = path->string();
        }
        if (!bytes) {
            out.missing_wads.push_back(wad_name);
            continue;
        }
        auto wad = Wad::parse(std::move(*bytes), wad_name);
        if (!wad) {
            out.wad_errors.push_back(wad.error().message());
            continue;
        }
        out.wads.push_back({wad_name, origin, std::move(*wad)});
    }
    return out;
}

namespace {

std::optional<TextureInfo> palettedTexture(const bsp::Material& material, uint32_t flags,
                                           const bsp::Map& map, const FileSystem& fs,
                                           const PalettedSources& sources) {
    if (material.embedded >= 0 && size_t(material.embedded) < map.embedded_textures.size())
        return fromEmbedded(material, flags, map, sources);
    if (isExternalMiptex(material))
        return fromWads(material, sources);
    if (material.uv_in_texels)
        return fromWal(material, fs, sources);
    return std::nullopt;
}

} // namespace

std::optional<TextureInfo> loadPalettedTexture(const bsp::Material& material, const bsp::Map& map,
                                               const FileSystem& fs,
                                               const PalettedSources& sources) {
    return palettedTexture(material, material.flags, map, fs, sources);
}

std::optional<TextureInfo> loadPalettedTexture(const bsp::Material& material, const bsp::Map& map,
                                               const FileSystem& fs) {
    return loadPalettedTexture(material, map, fs, loadPalettedSources(map, fs));
}

TextureInfo loadMaterialTexture(const bsp::Material& material, const bsp::Map& map,
                                const FileSystem& fs, const PalettedSources& sources,
                                const ShaderLibrary* shaders) {
    TextureInfo info;
    // Source materials are .vmt files wherever they lie (the map's pakfile, a game folder, a
    // VPK): a texdata size is not a Half-Life WAD texture's, nor a zero one a Quake 2 .wal.
    if (sources.files == game::MaterialFiles::ValveMaterials) {
        if (!loadValveMaterialFile(fs, material.name, info)) {
            info.image = makeMissingTexture();
            info.missing = true;
        }
        return info;
    }
    if (auto paletted =
            palettedTexture(material, resolveSurfaceFlags(material, shaders), map, fs, sources))
        return std::move(*paletted);
    if (const ShaderDef* def = shaders ? shaders->find(material.name) : nullptr) {
        info.shader_file = def->file;
        info.shader_image = primaryImage(*def);
        if (!info.shader_image.empty() && loadImageFile(fs, info.shader_image, info))
            return info;
    }
    if (loadImageFile(fs, material.name, info))
        return info;
    info.image = makeMissingTexture();
    info.missing = true;
    return info;
}

TextureInfo loadMaterialTexture(const bsp::Material& material, const bsp::Map& map,
                                const FileSystem& fs, const PalettedSources& sources) {
    return loadMaterialTexture(material, map, fs, sources, nullptr);
}

TextureInfo loadMaterialTexture(const bsp::Material& material, const bsp::Map& map,
                                const FileSystem& fs) {
    return loadMaterialTexture(material, map, fs, loadPalettedSources(map, fs), nullptr);
}

TextureInfo loadMaterialTexture(const bsp::Material& material, const bsp::Map& map,
                                const FileSystem& fs, const ShaderLibrary* shaders) {
    return loadMaterialTexture(material, map, fs, loadPalettedSources(map, fs), shaders);
}

std::vector<TextureInfo> loadMaterialTextures(const bsp::Map& map, const FileSystem& fs,
                                              int threads,
                                              std::span<const std::filesystem::path> wad_dirs) {
    return loadMaterialTextures(map, fs, loadPalettedSources(map, fs, wad_dirs), nullptr, threads);
}

std::vector<TextureInfo> loadMaterialTextures(const bsp::Map& map, const FileSystem& fs,
                                              const PalettedSources& sources, int threads) {
    return loadMaterialTextures(map, fs, sources, nullptr, threads);
}

std::vector<TextureInfo> loadMaterialTextures(const bsp::Map& map, const FileSystem& fs,
                                              const ShaderLibrary& shaders, int threads) {
    return loadMaterialTextures(map, fs, loadPalettedSources(map, fs), &shaders, threads);
}

std::vector<TextureInfo> loadMaterialTextures(const bsp::Map& map, const FileSystem& fs,
                                              const PalettedSources& sources,
                                              const ShaderLibrary* shaders, int threads) {
    std::vector<TextureInfo> out(map.materials.size());
    std::vector<uint32_t> all(out.size());
    for (size_t i = 0; i < all.size(); ++i)
        all[i] = static_cast<uint32_t>(i);
    loadMaterialTexturesAt(map, fs, sources, shaders, all, out, threads);
    return out;
}

void loadMaterialTexturesAt(const bsp::Map& map, const FileSystem& fs,
                            const PalettedSources& sources, const ShaderLibrary* shaders,
                            std::span<const uint32_t> which, std::vector<TextureInfo>& out,
                            int threads) {
    out.resize(map.materials.size());
    // Materials that differ only in what decoding ignores (Quake 2 has one material per
    // texinfo: aq_urbanjungle's 1,460 name about 100 textures) are decoded once and copied.
    std::vector<uint32_t> todo;
    std::vector<std::pair<uint32_t, uint32_t>> copies; // (to, from)
    std::unordered_map<std::string, uint32_t> first_of;
    for (const uint32_t i : which) {
        if (i >= map.materials.size())
            continue;
        const bsp::Material& m = map.materials[i];
        std::string key = m.name;
        key += '\0';
        key += std::to_string(resolveSurfaceFlags(m, shaders)) + "," + std::to_string(m.embedded) +
               "," + std::to_string(m.width) + "," + std::to_string(m.height) + "," +
               (m.uv_in_texels ? "t" : "f");
        const auto [it, inserted] = first_of.emplace(std::move(key), i);
        if (inserted)
            todo.push_back(i);
        else
            copies.emplace_back(i, it->second);
    }
    // One material at a time per thread (core::parallelFor), each into its own slot.
    core::parallelFor(
        todo.size(),
        [&](size_t k) {
            const uint32_t i = todo[k];
            out[i] = loadMaterialTexture(map.materials[i], map, fs, sources, shaders);
        },
        threads > 0 ? static_cast<size_t>(threads) : core::workerThreads(kMaxThreads));
    for (const auto& [to, from] : copies)
        out[to] = out[from];
}

} // namespace content
