// The world's GLSL programs and their variants. A variant is compiled on first use from a key
// whose parts become #defines (ironwail's GL_CreateShaders): what a software rasteriser would
// otherwise pay for in every pixel is decided at compile time. A variant that fails to compile
// logs its error once and is not tried again (its getter returns nullptr).
#pragma once

#include "render/gl.h"
#include "render/glsl_library.h"
#include "render/uniform_blocks.h"
#include "render/view_mode.h"
#include "scene/world/material_stages.h"

#include <array>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <utility>

namespace render {

// Sky looks of the programs without shader stages (sky.frag.glsl SKY_MODE).
enum class SkyMode : uint8_t { Box, Flat, Textured, Layers, Count };
// How the stage pass draws a sky's cloud layers: over the far box (or flat colour) the sky
// program drew first (None), or over one computed in the same program (stage.frag.glsl
// SKY_BASE), the box pass not drawn.
enum class SkyBase : uint8_t { None, Box, Flat };

// The programs' uniforms that change from draw to draw; the frame's constants and the map's
// rules are the uniform blocks every program reads (render/uniform_blocks.h).
struct WorldProgram { // world.vert.glsl + world.frag.glsl
    Program program;
    GLint tint = -1; // u_tint: a proxy's $color
    GLint model = -1, uv_scroll = -1, alpha = -1, alpha_cutoff = -1, flat_colour = -1,
          fullbright_light = -1, solid_colour = -1;
    // FOG_PASS variants only
    GLint fog_distance = -1, fog_has_surface = -1, fog_surface = -1, fog_colour = -1;
    // WATER variants only (scene::ResolvedMaterial::water)
    GLint water_base = -1, water_reflect_tint = -1, water_fade = -1, water_weight = -1;
    // WATER_PLANAR variants only (WATER_REFRACT: the last two)
    GLint water_viewport = -1, water_amounts = -1, water_unproject = -1, water_fog = -1;
    // ENVMAP variants only (scene::ResolvedMaterial::envmap)
    GLint envmap_tint = -1, envmap_contrast = -1, envmap_saturation = -1, envmap_fresnel = -1;
    // The base texture's matrix minus the identity (u_uv_scroll is its offset), and in
    // BUMP_MOTION variants the normal map's (scene::ResolvedMaterial::motion)
    GLint uv_linear = -1, bump_linear = -1, bump_offset = -1;
};

// The steps of the map's light curve (u_map: game::LightRule, render::mapBlock) a program
// compiles in, each a define: software GL runs the body of an `if` on a uniform for every pixel
// whether or not the map needs it (the gammas are a pow() per channel), so a map pays only for
// the steps its rule has.
enum LightCurve : uint8_t {
    kCurveTextureMax = 1u << 0,     // TEXTURE_MAX: u_map.texture_max > 0
    kCurveLightMax = 1u << 1,       // LIGHT_MAX: u_map.light_max > 0
    kCurveLightNormalize = 1u << 2, // LIGHT_NORMALIZE: u_map.light_normalize != 0
    kCurveOutputGamma = 1u << 3,    // OUTPUT_GAMMA: u_map.output_gamma != 1
};

struct WorldVariant {
    ViewMode view = ViewMode::Lit;
    uint8_t curves = 0; // LightCurve bits (Frame::light_curves)
    // The batch's light is a constant (u_fullbright_light > 0: drawn without lightmaps) or its
    // colour one (u_solid_colour: a GoldSrc brush model in render mode colour).
    bool fullbright_light = false, solid_colour = false;
    int styles = 1; // light styles per face the program blends (1..4)
    bool alpha_test = false, warp = false, glow = false, fog_pass = false;
    bool layer2 = false;       // the material has a second image (WorldGpu::layers2)
    bool distance_fog = false; // game::MapRules::fog (lit view)
    // The material has a $bumpmap (WorldGpu::bumps; ssbump: it holds the weights). Lit and
    // lightmap views only: the other views draw no light.
    bool bump = false, ssbump = false;
    // The material is shaded as water (scene::ResolvedMaterial::water; water_blended: its
    // blended form). Lit and fullbright views only: the others show its image. With bump the
    // map is water's $normalmap, with envmap its environment cube (in both views).
    bool water = false, water_blended = false;
    // With water: its expensive path (content::WaterShading::planar), the planar reflection
    // drawn this frame (WaterTargets) and, with water_refract, the frame beneath it.
    bool water_planar = false, water_refract = false;
    // The material reflects a cube map (WorldGpu::envmaps, scene::ResolvedMaterial::envmap),
    // masked by a texture (envmap_mask: WorldGpu::envmap_masks), by 1 - the base alpha
    // (envmap_base_alpha) or by the normal map's alpha (envmap_normal_alpha, with bump). Lit
    // view only: the lightmap view is light alone (the engine's mat_fullbright 2 drops the
    // reflection) and the others draw no light.
    bool envmap = false, envmap_mask = false, envmap_base_alpha = false,
         envmap_normal_alpha = false;
    // With bump and not water: the material's texture matrices move
    // (scene::ResolvedMaterial::motion), so the normal map's coordinates and the tangent
    // frame's uv are interpolated apart from the base texture's (BUMP_MOTION).
    bool bump_motion = false;
};

struct DepthProgram { // depth pre-pass
    Program program;
    GLint model = -1;
};

struct SkyProgram { // world.vert.glsl + sky.frag.glsl
    Program program;
    GLint model = -1, uv_scroll = -1, flat_colour = -1;
};

struct StageProgram { // stage.vert.glsl + stage.frag.glsl
    Program program;
    GLint model = -1, tc_gen = -1, tc_vector0 = -1, tc_vector1 = -1, tc_matrix = -1, turb = -1,
          colour = -1, colour_gen = -1, vertex_scale = -1, cloud_height = -1;
    // SKY_BASE variants only.
    GLint flat_colour = -1;
    // DEFORMS variants only.
    GLint deform_code = -1, deform_func = -1, deform_wave = -1, deform_extra = -1;
    // FOG variants only (adjustColorsForFog)
    GLint fog_distance = -1, fog_has_surface = -1, fog_surface = -1, fog_mask = -1;
    // FOG_PASS variants only
    GLint fog_colour = -1;
};

// `count` stages folded into one program (scene::foldableRun) and how they are drawn.
struct StageVariant {
    const scene::RenderStage* const* stages = nullptr;
    size_t count = 0;
    bool sky = false;
    SkyBase base = SkyBase::None;
    bool deforms = false, fog = false, additive = false, fog_pass = false;
};

struct FogProgram { // fog.vert.glsl + fog.frag.glsl: the fog pass
    Program program;
    GLint model = -1, colour = -1, distance = -1, has_surface = -1, surface = -1;
};

struct LuxelProgram { // world.vert.glsl + luxel.frag.glsl: the lightmap texel grid
    Program program;
    GLint model = -1, colour = -1;
};

struct DisplayRampProgram { // display_ramp.vert.glsl + display_ramp.frag.glsl: no uniforms
    Program program;
    VertexArray vao; // no attributes: the corners come from gl_VertexID
};

struct PictureProgram { // display_ramp.vert.glsl + picture.frag.glsl: exposure, gamma, brightness
    Program program;
    VertexArray vao;
    GLint origin = -1, exposure_scale = -1, inverse_gamma = -1, brightness = -1;
};

struct ScreenWarpProgram { // display_ramp.vert.glsl + screen_warp.frag.glsl
    Program program;
    VertexArray vao;
    GLint origin = -1, size = -1, warp = -1; // the time is the frame block's
};

// Compiling a program mid-frame binds it to set its samplers; this puts back the program that
// was current, so render::GlState's idea of it stays true.
class KeepCurrentProgram {
public:
    KeepCurrentProgram() { glGetIntegerv(GL_CURRENT_PROGRAM, &m_program); }
    ~KeepCurrentProgram() { glUseProgram(static_cast<GLuint>(m_program)); }
    KeepCurrentProgram(const KeepCurrentProgram&) = delete;
    KeepCurrentProgram& operator=(const KeepCurrentProgram&) = delete;

private:
    GLint m_program = 0;
};

class ProgramCache {
public:
    // Builds the programs every frame needs (the flat-shaded world program, which also draws
    // the debug overlays, and the depth pre-pass); false with *error when they fail.
    bool init(const GlslLibrary& glsl, std::string* error);
    // A new cache with every program this one has compiled so far built again from the
    // library's current sources (--shader-dir files are read again): nullptr with the compile
    // logs in *error when any of them fails, so the caller keeps drawing with this one
    // (niagara's and ioquake3's shader reload).
    std::unique_ptr<ProgramCache> rebuilt(std::string* error) const;
    // Programs compiled so far (variants included).
    size_t size() const;
    // The sources the programs were compiled from (the other renderers reload from them too).
    const GlslLibrary& glsl() const { return m_glsl; }
    // The buffers of the uniform blocks these programs read.
    UniformBlocks& blocks() { return m_blocks; }

    const WorldProgram& flat() const { return m_flat; }
    const DepthProgram& depth() const { return m_depth; }
    const WorldProgram* world(const WorldVariant& variant);
    // `output_gamma`: the map curves the sky's texel (LightCurve kCurveOutputGamma).
    const SkyProgram* sky(SkyMode mode, bool output_gamma);
    const StageProgram* stage(const StageVariant& variant);
    const FogProgram* fog();
    const LuxelProgram* luxel();
    const DisplayRampProgram* displayRamp();
    const PictureProgram* picture();
    const ScreenWarpProgram* screenWarp();

private:
    // Builds a variant's program, or logs and remembers its error.
    Program build(std::string label, std::string_view vs, std::string_view fs,
                  const std::string& defines);
    // A program of an optional slot, compiled on first use by `compile` (failed: nullptr, and
    // not tried again).
    template <class P, class Compile>
    static const P* compiledOnce(std::optional<P>& slot, Compile&& compile);
    const StageProgram* stageFromDefines(std::pair<uint64_t, uint64_t> key,
                                         const std::string& defines, size_t count);

    GlslLibrary m_glsl;
    UniformBlocks m_blocks;
    std::string m_errors; // compile errors of variants since init()
    WorldProgram m_flat;
    DepthProgram m_depth;
    std::unordered_map<uint32_t, WorldProgram> m_world;
    std::unordered_map<uint32_t, WorldVariant> m_world_variants; // what each key was built from
    std::map<std::pair<uint64_t, uint64_t>, std::pair<std::string, size_t>> m_stage_defines;
    std::array<std::optional<SkyProgram>, 2 * static_cast<size_t>(SkyMode::Count)>
        m_sky; // [mode][gamma]
    std::map<std::pair<uint64_t, uint64_t>, StageProgram> m_stage;
    std::optional<FogProgram> m_fog;
    std::optional<LuxelProgram> m_luxel;
    std::optional<DisplayRampProgram> m_display_ramp;
    std::optional<PictureProgram> m_picture;
    std::optional<ScreenWarpProgram> m_screen_warp;
};

template <class P, class Compile>
const P* ProgramCache::compiledOnce(std::optional<P>& slot, Compile&& compile) {
    if (!slot) {
        const KeepCurrentProgram keep;
        compile(slot.emplace());
    }
    return slot->program ? &*slot : nullptr;
}

} // namespace render
