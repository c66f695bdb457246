#include "content/material/envmap.h"

#include "bsp/map.h"
#include "content/image/vtf.h"
#include "core/file.h"

#include <utility>

namespace content {

namespace {

// The base texture's .vtf says it has alpha (VTFTexture IsTranslucent: the ONEBITALPHA or
// EIGHTBITALPHA flag).
bool baseHasAlpha(const FileSystem& fs, std::string_view base_vtf) {
    auto bytes = fs.readChecked(base_vtf);
    if (!bytes)
        return false;
    auto header = parseVtfHeader(*bytes, base_vtf);
    return header && (header->flags & (kVtfFlagOneBitAlpha | kVtfFlagEightBitAlpha)) != 0;
}

// The cube's six faces from materials/<texture>.vtf, else its .hdr.vtf; `path` is the file read.
core::Result<std::array<Image, 6>> readCube(const FileSystem& fs, std::string_view texture,
                                            std::string& path) {
    path = vtfPathOf(texture);
    auto bytes = fs.readChecked(path);
    if (!bytes && bytes.error().code == core::ErrorCode::NotFound) {
        std::string hdr = path.substr(0, path.size() - 4) + ".hdr.vtf";
        auto hdr_bytes = fs.readChecked(hdr);
        if (hdr_bytes || hdr_bytes.error().code != core::ErrorCode::NotFound) {
            path = std::move(hdr);
            bytes = std::move(hdr_bytes);
        }
    }
    if (!bytes)
        return bytes.error().code == core::ErrorCode::NotFound
                   ? core::makeError(core::ErrorCode::NotFound, {}, -1, {},
                                     path + " (or .hdr.vtf): not found")
                   : bytes.error();
    return decodeVtfCubeFaces(*bytes, path);
}

// What masks the reflection, or an error (a named $envmapmask that does not load).
core::Result<EnvMapMask> maskOf(const FileSystem& fs, const Vmt& vmt, std::string_view base_vtf,
                                TextureInfo& info) {
    if (!vmt.bump_map.empty())
        return vmt.normalmap_alpha_envmap_mask && info.bump.valid() ? EnvMapMask::NormalAlpha
                                                                    : EnvMapMask::None;
    if (!vmt.envmap_mask.empty()) {
        const std::string path = vtfPathOf(vmt.envmap_mask);
        auto mask = readVtf(fs, path);
        if (!mask)
            return core::makeError(mask.error().code, {}, -1, {},
                                   "$envmapmask " + (mask.error().code == core::ErrorCode::NotFound
                                                         ? path + ": not found"
                                                         : mask.error().message()));
        info.envmap_mask = std::move(*mask);
        return EnvMapMask::Texture;
    }
    if (vmt.base_alpha_envmap_mask && !vmt.selfillum && baseHasAlpha(fs, base_vtf))
        return EnvMapMask::BaseAlpha;
    return EnvMapMask::None;
}

} // namespace

EnvMapShading envMapShading(const Vmt& vmt, EnvMapMask mask) {
    EnvMapShading s;
    s.tint = vmt.envmap_tint;
    s.mask = mask;
    const float contrast = vmt.envmap_contrast, saturation = vmt.envmap_saturation;
    const bool slow = (contrast != 0.0f && contrast != 1.0f && saturation != 1.0f) ||
                      vmt.fresnel_reflection != 1.0f;
    if (slow) {
        s.contrast = contrast;
        s.saturation = saturation;
        s.fresnel = vmt.fresnel_reflection;
    } else {
        s.contrast = contrast == 1.0f ? 1.0f : 0.0f;
    }
    return s;
}

void loadEnvMap(const FileSystem& fs, std::string_view material, const Vmt& vmt,
                std::string_view base_vtf, TextureInfo& info) {
    if (vmt.envmap.empty())
        return;
    const std::string who = std::string(material) + ": ";
    const bool water = vmt.shader == "water";
    if (!water && vmt.shader != "lightmappedgeneric" && vmt.shader != "worldvertextransition") {
        info.envmap_error = who + "$envmap on shader " + vmt.shader + " is not drawn";
        return;
    }
    if (core::toLower(vmt.envmap) == "env_cubemap") {
        info.envmap_error = who + "$envmap env_cubemap in a material vbsp did not patch" +
                            (water ? std::string()
                                   : " (the game ignores it on world faces until the map is "
                                     "rebuilt)");
        return;
    }
    std::string path;
    auto faces = readCube(fs, vmt.envmap, path);
    if (!faces) {
        info.envmap_error = who + "$envmap " + faces.error().message();
        return;
    }
    if (water) { // the environment of the cheap water's reflection: no mask, no numbers
        info.envmap = std::move(*faces);
        info.envmap_source = path;
        info.envmap_shading = EnvMapShading{};
        info.envmap_shading.enabled = true;
        return;
    }
    auto mask = maskOf(fs, vmt, base_vtf, info);
    if (!mask) {
        info.envmap_error = who + mask.error().message();
        return;
    }
    info.envmap = std::move(*faces);
    info.envmap_source = path;
    info.envmap_shading = envMapShading(vmt, *mask);
    info.envmap_shading.enabled = true;
    if (*mask == EnvMapMask::BaseAlpha)
        info.surface_flags &= ~uint32_t(bsp::kSurfAlphaTest);
}

std::string envMapWarning(std::span<const TextureInfo> textures) {
    std::string first;
    size_t count = 0;
    for (const TextureInfo& t : textures) {
        if (t.envmap_error.empty())
            continue;
        if (++count <= 3)
            first += (count > 1 ? "; " : "") + t.envmap_error;
    }
    if (count == 0)
        return {};
    return std::to_string(count) + (count == 1 ? " material's" : " materials'") +
           " $envmap reflection not drawn: " + first + (count > 3 ? "; ..." : "");
}

} // namespace content
