// Material names of a bsp::Map -> RGBA images, via the virtual file system.
//
// Quake 3 family lookup, as ioquake3 does for a shader with no script
// (code/renderergl1/tr_image.c R_LoadImage): the name as given when its extension is one an
// image loader handles, then the name without that extension plus each loader extension in
// preference order .tga, .jpg, .jpeg, .png, (.pcx), .bmp. A name without a known extension
// gets the extensions appended to the whole name. A file that exists but does not decode is
// skipped like a missing one (R_LoadImage moves on when a loader returns no pixels).
//
// Quake 1, Half-Life and Quake 2 materials go through the 8-bit decoders first
// (loadPalettedTexture below).
//
// Missing textures never fail a map: they become the missing-texture tile with missing = true.
#pragma once

#include "bsp/map.h"
#include "content/image/image.h"
#include "content/image/palette.h"
#include "content/material/shader_library.h"
#include "content/material/vmt.h"
#include "content/vfs/vfs.h"
#include "content/vfs/wad.h"
#include "game/profile.h"

#include <array>
#include <filesystem>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace content {

// A surface shaded as water seen from above, by the rule of the cheap path of Source's Water
// shader (Source SDK 2013 materialsystem/stdshaders/water.cpp DrawCheapWater,
// WaterCheap_ps2x.fxc main), in words the renderer needs no game for: per pixel a fresnel
// factor F = (1 - max(0, N.V))^5 from the surface normal N and the direction V to the eye, a
// reflection `reflect_tint` (times the environment's colour along the reflected view: the cube
// map TextureInfo::envmap where the material has one, $envmap; white without), N the normal
// map's (TextureInfo::bump, $normalmap, through the surface's tangent frame: docs/source.md
// "Water") where it has one, with reflect_weight >= 0 standing for F (Source
// $nofresnel: $reflectblendfactor), and
// - opaque (blended false): the colour mix(base_colour, reflection, F), alpha 1;
// - blended: the reflection alone, alpha saturate(F + saturate((d - fade_start) /
//   (fade_end - fade_start))) with d the distance to the eye, blended over what lies beneath.
// Colours in 0..1 as the material gives them.
struct WaterShading {
    bool enabled = false;
    bool blended = true;
    std::array<float, 3> base_colour{0.0f, 0.0f, 0.0f};  // Source $fogcolor
    std::array<float, 3> reflect_tint{1.0f, 1.0f, 1.0f}; // Source $reflecttint
    float fade_start = 500.0f;                           // Source $cheapwaterstartdistance, units
    float fade_end = 1000.0f;                            // Source $cheapwaterenddistance, units
    float reflect_weight = -1.0f; // < 0: the fresnel factor F; else this weight instead
    bool planar = false;          // the planar reflection drawn (the expensive path)
    bool refract = false;         // with planar: the refraction too (else the reflection alone)
    std::array<float, 3> refract_tint{1.0f, 1.0f, 1.0f}; // Source $refracttint
    float reflect_amount = 0.8f; // Source $reflectamount: screen offset per normal-map unit
    float refract_amount = 0.0f; // Source $refractamount
    float fog_start = 0.0f;      // Source $fogstart, units
    float fog_end = 0.0f;        // Source $fogend, units
};

// What scales a cube-map reflection per texel (EnvMapShading::mask).
enum class EnvMapMask : uint8_t {
    None,        // 1
    Texture,     // TextureInfo::envmap_mask's rgb (Source $envmapmask), at the base uv
    BaseAlpha,   // 1 - the base texture's alpha (Source $basealphaenvmapmask)
    NormalAlpha, // the normal map's alpha (Source $normalmapalphaenvmapmask)
};

// A reflection of the surroundings added to the lit colour, by the rule of Source's
// LightmappedGeneric (Source SDK 2013 stdshaders/lightmappedgeneric_ps2_3_x.h main, the CUBEMAP
// combo), in words the renderer needs no game for: per pixel, the cube map's colour c along the
// view direction reflected about the surface normal N, times the mask m (EnvMapMask), times
// `tint`; then c = mix(c, c * c, contrast); c = mix(grey(c), c, saturation) with grey the dot
// with (0.299, 0.587, 0.114); then times the fresnel factor (1 - N.V)^5 * (1 - fresnel) +
// fresnel, V the unit direction to the eye; added to the lit colour (after the light and the
// glow). The numbers are the ones the shader runs with (content/material/envmap.h
// envMapShading: the engine's fast path
// keeps contrast 0 or 1 and saturation and fresnel 1).
struct EnvMapShading {
    bool enabled = false; // TextureInfo::envmap holds the cube's six faces
    std::array<float, 3> tint{1.0f, 1.0f, 1.0f};
    float contrast = 0.0f;
    float saturation = 1.0f;
    float fresnel = 1.0f;
    EnvMapMask mask = EnvMapMask::None;
};

struct TextureInfo {
    Image image;
    // Quake 1 fullbright texels (palette indices 224..254, drawn without lighting): the same
    // size as `image`, those texels in their colour with alpha 255, every other texel
    // (0, 0, 0, 0), so a shader adds it after lighting. Empty (width 0) when the texture has
    // none; never set for sky textures nor for liquids the map lights (Quake 1 lit water).
    Image glow;
    // A second image blended over `image` by the vertex colour's alpha (bsp::Vertex::colour: 0
    // draws `image`, 255 this one), at the same texture coordinates: Source's $basetexture2
    // (WorldVertexTransition). Empty (width 0) when the material has none; the
    // missing-texture tile when it names one that is not found (error says which).
    Image layer2;
    // Source's $bumpmap (docs/source.md "Bump-mapped light"): a tangent-space normal map at the
    // same texture coordinates, or with bump_ssbump ($ssbump) the three bump basis weights
    // themselves. Empty (width 0) when the material has none, or when it names one that is not
    // found or does not decode (a warning naming the material; its faces draw flat-lit). For a
    // water material (water.enabled): its $normalmap, which tilts the normal of the water's
    // fresnel factor and reflection (WaterShading), never an $ssbump.
    Image bump;
    bool bump_ssbump = false;
    // Source's $envmap (docs/source.md "Cube-map reflections"): the cube map's six faces in the
    // file's order (right, left, back, front, up, down: +X, -X, +Y, -Y, +Z, -Z), square and of
    // one size, with envmap_shading.enabled; otherwise empty. envmap_mask: the $envmapmask
    // image (envmap_shading.mask Texture), else empty. envmap_source: the cube's .vtf path
    // (materials sharing one cube upload it once). envmap_error: why a material's $envmap is not
    // drawn (not found, not a cube, an unpatched env_cubemap, ...), empty otherwise; the loader
    // gathers these into one warning per map (envmap.h envMapWarning).
    std::array<Image, 6> envmap;
    Image envmap_mask;
    EnvMapShading envmap_shading;
    std::string envmap_source;
    std::string envmap_error;
    std::string source; // virtual path that was loaded ("textures/mech/crate.jpg",
                        // "textures/e1u1/floor1_3.wal"), or a label for pixels that are not a
                        // file of their own: "<embedded> + gfx/palette.lmp (pak0.pak)",
                        // "<embedded>", "<wad> halflife.wad"; empty when missing
    std::string origin; // where those bytes live: FileSystem::sourceOf(source) ("pak0.pk3" or a
                        // directory path), the map's name for embedded pixels, the WAD's path
    bool missing = true;
    std::string error; // why a candidate that exists did not decode (last one), or why an
                       // external texture was not found, for the UI
    // Through a Quake 3 shader (the overloads taking a ShaderLibrary): the script that
    // defines the material's shader ("scripts/base_wall.shader"), empty when none, and the
    // stage image that was asked for (primaryImage), empty when the material name was used.
    std::string shader_file;
    std::string shader_image;
    // How the material file (a Source .vmt) says to draw the surface, for
    // scene::resolveMaterials; the defaults change nothing.
    uint32_t surface_flags = 0;    // bsp::SurfaceFlags, ORed into the map's own
    float alpha_cutoff = 0.5f;     // kSurfAlphaTest: texels with alpha below it are cut out
    float fullbright_light = 0.0f; // > 0: drawn without lightmaps at this light (UnlitGeneric)
    WaterShading water;            // enabled: the surface is shaded as water (Source Water)
    // Source's $basetexturetransform / $bumptransform and the TextureScroll proxies on them
    // (texture_transform.h; docs/source.md "Texture transforms and proxies"): how the base
    // texture's and the normal map's coordinates move; still (identity) by default and for
    // water, whose cheap shader reads its coordinates untransformed.
    TextureMotion motion;
    // Source's number proxies (material_proxy.h; docs/source.md "Texture transforms and
    // proxies"): Sine, LinearRamp, the arithmetic ones and TextureTransform, run at the viewer's
    // clock to drive $alpha, $color, $envmaptint and the texture matrices; empty for a still
    // material.
    MaterialProxies proxies;
    // Source's AnimatedTexture proxy (texture_transform.h; docs/source.md "Texture transforms
    // and proxies") on the base texture ($basetexture into $frame) and on the normal map
    // ($bumpmap, water's $normalmap, into $bumpframe): the proxy's rate and wrap, and every frame
    // of the texture's file at its largest mip, in order (frame 0 is what `image` / `bump`
    // show); disabled and empty when nothing plays or the file has a single frame. At most
    // content::kMaxVtfFrames frames and content::kMaxVtfFrameBytes of pixels per texture.
    AnimatedTexture base_animation;
    AnimatedTexture bump_animation;
    std::vector<Image> base_frames;
    std::vector<Image> bump_frames;
    // Frames a material plays, counted for --info: base and normal-map animations both count.
    bool animated() const { return base_frames.size() > 1 || bump_frames.size() > 1; }
};

// Where a texture's pixels came from, for the viewer's texture list.
enum class TextureSourceKind { Missing, Embedded, Wad, Pak, Pk3, Folder };
TextureSourceKind sourceKindOf(const TextureInfo& info);
std::string_view sourceKindName(TextureSourceKind kind); // "missing", "embedded", "wad", ...

// The file names tried for a material name, in order (see the top of this file).
std::vector<std::string> imageCandidates(std::string_view material_name);

// The image search for one name (a material, a shader stage's image): imageCandidates(name) in
// order, each read through `fs` and decoded; the first that decodes fills info.image,
// info.source and info.origin and clears info.missing. False when none does: `info` keeps its
// image and info.error says why the last candidate that exists did not load. The one rule for
// textures and stage images alike.
bool loadImageFile(const FileSystem& fs, std::string_view name, TextureInfo& info);
// The same, with the missing-texture tile and missing = true when no candidate decodes.
TextureInfo loadImageTexture(const FileSystem& fs, std::string_view name);

// Source material files through `fs`: a .vmt with its patch includes followed (resolveVmt,
// whose errors it returns), and a .vtf read and decoded, where a file that no search path
// holds is ErrorCode::NotFound (no decode error has that code), so callers can word that case
// themselves.
core::Result<Vmt> readVmt(const FileSystem& fs, std::string_view vmt_path);
core::Result<Image> readVtf(const FileSystem& fs, std::string_view vtf_path);

// Source (game::MaterialFiles::ValveMaterials): materials/NAME.vmt read through resolveVmt
// (patch includes followed), its $basetexture decoded from materials/TEX.vtf; a name with no
// .vmt tries materials/NAME.vtf. Names are lower-cased (Source paths ignore case). On success
// fills info.image, source (the .vtf), origin, shader_file (the .vmt) and shader_image
// ($basetexture) and clears missing; false (info.error says why) otherwise. The material's
// parameters set how it is drawn (applyVmtDrawing); a Water material is shaded as water. A
// $basetexture2 (any shader: materialsystem's InitLightmappedGeneric_DX9 loads it for the
// LightmappedGeneric family, WorldVertexTransition among them) becomes info.layer2, a
// $bumpmap info.bump (info.bump_ssbump for $ssbump).
bool loadValveMaterialFile(const FileSystem& fs, std::string_view material, TextureInfo& info);

// What a .vmt's parameters mean for drawing (VDC "Material" and the shader pages; Source SDK
// 2013 materialsystem/stdshaders), into info's surface_flags, alpha_cutoff and
// fullbright_light and, for $selfillum, its image and glow:
// - $translucent: alpha-blended with the translucent surfaces; $additive: added;
//   $alphatest: cut out below $alphatestreference; $nocull: two-sided.
// - UnlitGeneric (and Sky): no lightmap, the texture at 1x.
// - $selfillum: the base alpha is a mask of full brightness, not opacity: the pixel is
//   lerp(lit, texel, alpha) (lightmappedgeneric_dx9_helper.cpp, the SELFILLUM combo), which is
//   the world shader's glow mix with the texel as glow; the image's alpha becomes 255.
// - Water (with a $fogcolor; without one it keeps the $basetexture path): info.water from its
//   $fogcolor, $reflecttint, $cheapwaterstartdistance / $cheapwaterenddistance, blended (and
//   translucent) unless $forcecheap; unlit; the image becomes a 4x4 tile of the fog colour
//   (alpha 128 when blended, else 255) for what does not shade it as water.
void applyVmtDrawing(const Vmt& vmt, TextureInfo& info);

// What the 8-bit decoders share across one map's materials, found once per map:
// - quake_palette: gfx/palette.lmp from the FileSystem, else defaultQuakePalette() (Quake 1
//   miptex carry no palette);
// - wal_palette: pics/colormap.pcx (Quake 2), else defaultQuakePalette();
// - palette_table: game::MaterialSource::palette_table;
// - files: how the game names material files (game::MaterialSource::files); Source maps read
//   .vmt files only, with no palette, WAD or .wal;
// - wads: the game's WAD list (game::MaterialSource::wads, base names), each looked up as a
//   FileSystem member
//   (the root of a game folder, as Half-Life keeps them) and then as a file in `wad_dirs`
//   (case-insensitive name match), first hit wins; WADs that are not found are listed in
//   missing_wads. Only loaded when some material needs one (external miptex).
struct PalettedSources {
    game::MaterialFiles files = game::MaterialFiles::Images;
    // The game's table for textures' own palettes (game::MaterialSource::palette_table: Half-Life
    // miptex through texgammatable); empty: as stored.
    std::optional<ByteTable> palette_table;
    Palette quake_palette;
    std::string quake_palette_label; // "gfx/palette.lmp (pak0.pak)" or "built-in palette"
    Palette wal_palette;
    std::string wal_palette_label; // "pics/colormap.pcx (aq_textures.pak)" or "built-in palette"
    struct LoadedWad {
        std::string name;   // base name from the map ("halflife.wad")
        std::string origin; // FileSystem source or file path
        Wad wad;
    };
    std::vector<LoadedWad> wads; // in the WAD list's order (the engines search in this order)
    std::vector<std::string> missing_wads;
    std::vector<std::string> wad_errors; // WADs found that did not parse
};

// Largest WAD file read from disk (Half-Life's halflife.wad is about 40 MB).
inline constexpr uint64_t kMaxWadFileBytes = 256ull * 1024 * 1024;

PalettedSources loadPalettedSources(const bsp::Map& map, const FileSystem& fs,
                                    const game::MaterialSource& source,
                                    std::span<const std::filesystem::path> wad_dirs = {});
// The same with the material source of the map's own game (game::profileFor(map).materials).
PalettedSources loadPalettedSources(const bsp::Map& map, const FileSystem& fs,
                                    std::span<const std::filesystem::path> wad_dirs = {});

// The 8-bit formats, tried before the image search. Which decoder applies is decided from the
// material's data, never from the map format:
// - Material::embedded >= 0: miptex stored in the map. Without a palette of its own (Quake 1)
//   through sources.quake_palette, with its fullbright texels in TextureInfo::glow; with one
//   (Half-Life) through that. '{' names get transparent texels for index 255.
// - a named miptex with no pixels in the map (external, Material::width > 0): looked up by name
//   in sources.wads; missing (grey tile, error says why) when no WAD has it.
// - Material::uv_in_texels (Quake 2): textures/<name>.wal through sources.wal_palette, else a
//   true-colour replacement textures/<name>.tga/.png/.jpg (yquake2 retexturing); missing when
//   none exists.
// Returns nullopt when none of these applies (Quake 3 materials), so the image search runs.
std::optional<TextureInfo> loadPalettedTexture(const bsp::Material& material, const bsp::Map& map,
                                               const FileSystem& fs,
                                               const PalettedSources& sources);
// The same, finding the sources for this one call (slow for many materials).
std::optional<TextureInfo> loadPalettedTexture(const bsp::Material& material, const bsp::Map& map,
                                               const FileSystem& fs);

// One material: the paletted hook, then the image search, then the missing-texture tile.
TextureInfo loadMaterialTexture(const bsp::Material& material, const bsp::Map& map,
                                const FileSystem& fs, const PalettedSources& sources);
TextureInfo loadMaterialTexture(const bsp::Material& material, const bsp::Map& map,
                                const FileSystem& fs);

// One TextureInfo per entry of map.materials, same order (sky and nodraw materials included).
// Decodes on up to `threads` worker threads (0: a few, by hardware); the result does not depend
// on the thread count. Never fails. `wad_dirs`: disk folders searched for the game's WADs after
// the FileSystem (see PalettedSources). The overloads without sources use the map's own game's
// material source (loadPalettedSources above).
std::vector<TextureInfo> loadMaterialTextures(const bsp::Map& map, const FileSystem& fs,
                                              int threads = 0,
                                              std::span<const std::filesystem::path> wad_dirs = {});
// The same with sources found by the caller (who may want PalettedSources::missing_wads).
std::vector<TextureInfo> loadMaterialTextures(const bsp::Map& map, const FileSystem& fs,
                                              const PalettedSources& sources, int threads = 0);

// Same, resolving a material through its Quake 3 shader first: when `shaders` defines the
// material's name, the shader's primaryImage (first map/clampMap/animMap frame that is not
// $lightmap or $whiteimage) is searched with imageCandidates; when that image is absent, or
// the shader has none (skies, fog), the material name itself is searched as before. Materials
// without a shader behave exactly as in the overloads above. `shaders` may be nullptr. Where
// decoding looks at surface flags (no fullbright glow for skies), they are the material's
// after its shader script (resolveSurfaceFlags): the map is read as parsed.
TextureInfo loadMaterialTexture(const bsp::Material& material, const bsp::Map& map,
                                const FileSystem& fs, const PalettedSources& sources,
                                const ShaderLibrary* shaders);
TextureInfo loadMaterialTexture(const bsp::Material& material, const bsp::Map& map,
                                const FileSystem& fs, const ShaderLibrary* shaders);
std::vector<TextureInfo> loadMaterialTextures(const bsp::Map& map, const FileSystem& fs,
                                              const ShaderLibrary& shaders, int threads = 0);
std::vector<TextureInfo> loadMaterialTextures(const bsp::Map& map, const FileSystem& fs,
                                              const PalettedSources& sources,
                                              const ShaderLibrary* shaders, int threads = 0);
// Only the materials listed in `which` (indices into map.materials; others are ignored), each
// into its slot of `out` (resized to map.materials.size(); other slots are left alone). Used
// to decode what the texture cache did not keep.
void loadMaterialTexturesAt(const bsp::Map& map, const FileSystem& fs,
                            const PalettedSources& sources, const ShaderLibrary* shaders,
                            std::span<const uint32_t> which, std::vector<TextureInfo>& out,
                            int threads = 0);

} // namespace content
