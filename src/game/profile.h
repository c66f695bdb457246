// A game's rules: what bspview does with a map because of the engine it was made for. GL-free.
//
// The parsers (src/bsp/) record what a file says: its format, its geometry, whether it holds
// light data, its entities. Everything an engine decides on top of that lives here, one file
// per family, each rule citing the engine function it follows (docs/fidelity.md has the
// measurements):
//
//   quake1.cpp    Quake 1, BSP2, 2PSB (QuakeSpasm, LibreQuake's QuakeC)
//   halflife.cpp  Half-Life BSP30 (Xash3D FWGS at GoldSrc's defaults, the Half-Life SDK)
//   quake2.cpp    Quake 2 IBSP 38 / QBSP (yquake2's GL3 renderer, id's game code)
//   quake3.cpp    Quake 3, RTCW / ET, Qfusion (ioquake3's opengl1 renderer, its game code)
//   source.cpp    Source VBSP (the Source SDK 2013)
//
// profileFor(map) picks the family from bsp::Map::format and fills a GameProfile from the map's
// facts (light data present, worldspawn keys). The renderer gets only MapRules, plain numbers,
// and never learns which game a map came from.
#pragma once

#include "bsp/map.h"

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <glm/vec3.hpp>

namespace game {

enum class Family : uint8_t { Quake1, HalfLife, Quake2, Quake3, Source };
std::string_view familyName(Family f); // "Quake 1", "Half-Life", "Quake 2", "Quake 3", "Source"

// The family whose rules a map of `format` follows.
Family familyOf(bsp::Format format);

// The light a face without lightmap data gets (bsp::Face::unlit marks such faces; the scene's
// mesh gives them this colour, scene::WorldMeshOptions::unlit_faces).
enum class UnlitFaces : int32_t {
    VertexColour, // the vertex colours the map stores (Quake 3)
    Fullbright,   // luxels of 255 (Quake 2's classic look, Source; Quake 1 and Half-Life maps
                  // without light data)
    Black,        // no light (Quake 1 and Half-Life maps with light data)
    // A luxel of 255 in each light style the face lists (at least one), each times its style's
    // value and summed: four styles 'm' light the face 4x (yquake2's GL3 renderer).
    FullbrightEachStyle,
};
std::string_view unlitFacesName(UnlitFaces u); // "vertex colour", "full bright", "black"

// How a game's renderer makes a pixel from a texel t and the light l of a luxel or vertex
// colour (the style-valued sum, 0..1 per 255): see apply(). Plain numbers, so that the shader
// constants, the CPU light of entity models and the exporter all read the same rule.
struct LightRule {
    // The light times lightmap_scale and light_style_scale (the brightness of style letter 'm'),
    // saturated at light_max per channel (0: no limit).
    float lightmap_scale = 2.0f;
    float light_style_scale = 1.0f;
    float light_max = 0.0f;
    // The texel as texture_scale * t, saturated at texture_max (0: no limit). A curve of the
    // texel itself is applied to the palette at load (MaterialSource::palette_table).
    float texture_scale = 1.0f;
    float texture_max = 0.0f;
    // Texel times light, to the power output_gamma.
    float output_gamma = 1.0f;
    // ioquake3's map overbright (1): the light scaled down by its largest channel where one
    // passes 1 (hue kept), and the result doubled by the display's gamma ramp; the renderer
    // draws every pass at half and doubles the finished frame once.
    int32_t overbright = 0;
    // The light scaled down by its largest channel where one passes 1 (hue kept), without the
    // doubling (overbright implies it).
    int32_t light_normalize = 0;
    // Mipmap levels made with each mean of four texels rounded down rather than to the nearest.
    int32_t mips_round_down = 0;
    UnlitFaces unlit_faces = UnlitFaces::VertexColour;
};

// The turbulent warp of liquids (bsp::kSurfWarp): texel (s, t) of the surface shows the texture
// at s + 64 amplitude sin(t * 2 pi / period + phase) texels, and the same with s and t swapped.
struct WarpRule {
    float amplitude = 0.125f;           // in 64-texel tiles
    float period = 16.0f * 3.14159265f; // texels of one ripple (GLQuake's 16 pi)
    float knot_spacing = 0.0f;          // > 0: the sine taken every this many texels, linear
                                        // between (a warp image drawn on a grid)
    int32_t phase_steps = 0;            // > 0: the phase in whole steps of 2 pi / phase_steps
    float tile = 0.0f;                  // texels per uv unit of a warped face; 0: the
                                        // texture's own size
};

// Fog over the whole view: each fragment's colour becomes mix(colour, fog colour,
// 1 - exp(-(density * depth)^2)), depth along the view axis (GL_EXP2), and the sky gets `sky` of
// the fog colour laid over it.
struct DistanceFog {
    glm::vec3 colour{0.3f};
    float density = 0.0f; // per unit; 0: no fog
    float sky = 0.0f;     // share of the fog colour over the sky, 0..1
};

// Fog linear in distance (Source's MATERIAL_FOG_LINEAR, set up by env_fog_controller for the
// world and by sky_camera for the 3D sky box): a fragment at distance d takes
// min(max_density, saturate((d - start) / (end - start))) of the fog colour, d being the depth
// along the view axis, or the distance to the eye when `radial`. With `blend` the colour
// depends on where the view looks (fogColourFor).
struct LinearFog {
    bool enabled = false;
    glm::vec3 colour{0.0f};    // 0..1
    glm::vec3 colour2{0.0f};   // 0..1: the colour looking away from `direction` (blend)
    glm::vec3 direction{0.0f}; // where `colour` is seen (fogdir, or use_angles' reversed forward)
    bool blend = false;
    bool radial = false;
    float start = 0.0f; // world units
    float end = 0.0f;
    float max_density = 1.0f;
};

// The fog's colour for a view looking along the unit `forward`: `colour`, or with `blend`
// colour * w + colour2 * (1 - w) for w = 0.5 dot(forward, normalize(direction)) + 0.5
// (game/client/viewrender.cpp GetFogColor, GetSkyboxFogColor; a zero direction weighs 0.5).
glm::vec3 fogColourFor(const LinearFog& fog, glm::vec3 forward);

// How a game's renderer samples its textures: the texture mode as gl_texturemode names it (the
// minifying filter; the magnifying filter is GL_NEAREST for the NEAREST modes, else GL_LINEAR;
// a texture without mipmaps minifies with the magnifying filter) and the anisotropic filtering
// of mipmapped textures (GL_TEXTURE_MAX_ANISOTROPY; 1: off). The renderer clamps anisotropy to
// what the context offers.
enum class TextureMode : int32_t {
    Nearest,
    NearestMipmapNearest,
    NearestMipmapLinear,
    Linear,
    LinearMipmapNearest,
    LinearMipmapLinear,
};
inline constexpr int kTextureModeCount = 6;
std::string_view textureModeName(TextureMode m); // "GL_LINEAR_MIPMAP_NEAREST", ...
// A mode by its gl_texturemode name, case-insensitive, the "GL_" prefix optional.
std::optional<TextureMode> textureModeFromName(std::string_view name);
bool magnifiesNearest(TextureMode m); // the NEAREST modes
bool usesMipmaps(TextureMode m);      // the *_MIPMAP_* modes

struct TextureFilter {
    TextureMode mode = TextureMode::LinearMipmapLinear;
    float anisotropy = 1.0f;
    bool operator==(const TextureFilter&) const = default;
};

// How sky faces meet the depth buffer. Quake-family engines draw the sky faces as world faces,
// writing their depth. Source draws no sky face: it marks the sky visible and draws the sky box
// at the far plane (engine/gl_rsurf.cpp R_DrawSurface for SURFDRAW_SKY faces, Shader_WorldEnd ->
// gl_warp.cpp R_DrawSkyBox(zFar)), so whatever lies beyond a sky brush (a prop, a world face)
// is drawn over the sky. `at_far_plane` draws the sky faces so: every fragment at the far
// plane's depth, tested "less", so the first sky face over a pixel shades it and the others
// behind it are rejected before shading (one sky box lookup per pixel, as the engine's box).
struct SkyDepth {
    bool at_far_plane = false;
    bool operator==(const SkyDepth&) const = default;
};

// How far inside each sky box face's edges the box is sampled, as a fraction of the face (the
// shaders clamp the face coordinate to [inset, 1 - inset]). Quake 2 keeps 1/512 whatever the
// face's size (yquake2 gl3_warp.c GL3_SetSky: sky_min 1/512, sky_max 511/512, which MakeSkyVec
// clamps to). QuakeSpasm (gl_sky.c Sky_EmitSkyBoxVertex) scales each face onto its texel
// centres, half a texel in (1/512 at 256 texels); Quake keeps 1/512 here. ioquake3 draws all
// of its far box (tr_sky.c DrawSkyBox: sky_min 0, sky_max 1) on clamp-to-edge faces (tr_shader.c
// ParseSkyParms), as Xash3D does for Half-Life (ref/gl/gl_warp.c MakeSkyVec: [0, 1] with
// GL_CLAMPTOEDGE_EXT; ref_common.c R_SetupSky: TF_CLAMP). docs/formats.md has the details.
struct SkyBoxEdge {
    float inset = 1.0f / 512.0f;
    bool operator==(const SkyBoxEdge&) const = default;
};

// Where a map's tone map settings come from (ToneMapRule::source).
enum class ToneMapSource : int32_t {
    None,       // the game has no tone map
    Defaults,   // the engine's defaults: no tone map controller took an input at spawn
    Controller, // a tone map controller's inputs fired at spawn (Source's env_tonemap_controller)
};
std::string_view toneMapSourceName(ToneMapSource s); // "none", "defaults", "controller"

// How a game that lights in linear light exposes the frame (Source's HDR; game/source.cpp has
// the rules and docs/source.md their sources). The frame's colours are in display space
// (linear^(1/gamma): the lightmap table's and the props' 2.2), so a linear scale s multiplies
// them by s^(1/gamma) before the clamp to 1, as the engine scales its frame in linear light and
// then writes it out. `enabled` only where the lighting drawn is the linear set (the map's HDR
// lightmaps); the other settings are reported either way.
struct ToneMapRule {
    bool enabled = false;
    float scale = 1.0f;    // the fixed exposure (linear), >= 0
    float auto_min = 0.5f; // auto exposure's range of scales, auto_min <= auto_max
    float auto_max = 2.0f;
    float rate = 1.0f;        // auto exposure: the share of the way to its goal per second, >= 0
    float bloom_scale = 1.0f; // recorded for --info: bspview draws no bloom
    float gamma = 2.2f;       // of the frame's colours (above)
    // Auto exposure's goal (Source's histogram rule, render/auto_exposure.h): the scale that
    // brings the luminance above which `bright_share` of the pixels lie to `target`, or the
    // median to `min_average` when that is brighter.
    float target = 0.6f;
    float bright_share = 0.02f;
    float min_average = 0.03f;
    ToneMapSource source = ToneMapSource::None;
    int32_t controllers = 0; // tone map controller entities in the map
    bool operator==(const ToneMapRule&) const = default;
};

// What the renderer needs of a map's rules: numbers only (floats, ints, enums, vectors of
// floats), so that they become one uniform block field by field (`textures` sets texture
// parameters and `sky` the sky pass's depth writes instead).
struct MapRules {
    LightRule light;
    WarpRule warp;
    DistanceFog fog;
    LinearFog linear_fog; // the whole view's linear fog (Source); disabled: none
    TextureFilter textures;
    SkyDepth sky;
    SkyBoxEdge sky_box_edge;
    ToneMapRule tonemap;
};

// The pixel (0..1 per channel) a game draws for texel `texel` under light `light` (a luxel or
// vertex colour as stored, 0..1, already times the light style values with 'm' = 1):
//   L = min(light * lightmap_scale * light_style_scale, light_max)   (no min when light_max 0)
//   L /= max(1, largest channel of L)                    (overbright or light_normalize only)
//   T = min(texture_scale * texel, texture_max)                      (no min when texture_max 0)
//   pixel = min(1, (T * L)^output_gamma * (overbright ? 2 : 1))
// shaders/world.frag.glsl computes the same from the same numbers (render/pass_world.cpp).
glm::vec3 apply(const LightRule& rule, glm::vec3 texel, glm::vec3 light);

// apply() as a product, for writers that can only multiply an image by a colour (glTF's base
// colour times COLOR_0 or a light map): apply(t, l) = min(1, texelPart(t) * lightPart(l)), since
// a power of a product is the product of the powers.
// texel^output_gamma, saturated at (texture_max / texture_scale)^output_gamma
glm::vec3 texelPart(const LightRule& rule, glm::vec3 texel);
glm::vec3 lightPart(const LightRule& rule, glm::vec3 light); // the rest, may pass 1
// The light the shader multiplies the texel by before the colour curves: the first two lines
// of apply(), as the world shader's `light`.
glm::vec3 scaledLight(const LightRule& rule, glm::vec3 light);

// What a game shows with the eye inside a liquid. Which liquid holds the eye is its leaf's
// contents (bsp::LeafContents); lava wins over slime and slime over water, as Quake 2's server
// tests them (game/player/view.c SV_CalcBlend).
// - The colour of that liquid blends over the finished frame: frame * (1 - a) + rgb * a, rgb
//   and a in 0..1 (a 0: none).
// - The field of view breathes: tan(fov / 2) across and up times
//   fov_base + fov_amplitude * sin(fov_rate * t), t the game time in seconds (fov_rate 0: no
//   wobble).
// - The finished picture ripples (render's screen warp, before the colour): with u, v the
//   pixel's place in 0..1, it shows the frame at u + sin(warp_rate t + v warp_waves)
//   (1 - 2 |0.5 - u|) warp_amplitude, and v likewise with u (warp_amplitude 0: none).
struct LiquidView {
    glm::vec4 water{0.0f};
    glm::vec4 slime{0.0f};
    glm::vec4 lava{0.0f};
    glm::vec2 fov_base{1.0f};
    glm::vec2 fov_amplitude{0.0f};
    float fov_rate = 0.0f;
    float warp_amplitude = 0.0f;
    float warp_rate = 0.0f;
    float warp_waves = 0.0f;
    bool operator==(const LiquidView&) const = default;
};

// Where a spawned player's view is, and what the engine shows where nothing is drawn.
struct ViewRule {
    float eye_height = 26.0f;             // above a spawn point's origin
    std::optional<glm::vec3> void_colour; // empty: not known, the viewer's own background
    // The main view's far plane in world units when the map pulls it in (Source's
    // env_fog_controller farz); 0: the viewer's own, far enough for the whole map. Where it cuts
    // the world and no sky is drawn, the view shows the clear colour: the world fog's colour
    // (rules.linear_fog) while that fog is on (scene::farClearColour).
    float far_plane = 0.0f;
    LiquidView liquid; // the eye inside water, slime or lava
};

// Which folders and archives the game searches besides the map's own game folder.
struct MountRule {
    // Folders beside the game folder whose files the engine also reads (Half-Life: "valve"),
    // searched for WADs after the map's folders.
    std::vector<std::string> shared_folders;
    // Mount the archive stored in the map (bsp::Map::embedded_archive) above every other source.
    bool embedded_archive_first = false;
};

// How material names become pixels.
enum class MaterialFiles : uint8_t {
    Images,         // image files named after the material (Quake family, material/textures.h)
    ValveMaterials, // materials/NAME.vmt, whose $basetexture names materials/TEX.vtf (Source)
};
// A table each colour byte of a palette goes through when the texture is loaded.
using PaletteTable = std::array<uint8_t, 256>;

// GoldSrc's texgammatable as Xash3D FWGS builds it (engine/client/gamma.c BuildGammaTable):
// entry i is int(255 * (i / 255)^(texgamma / gamma)), truncated, in the engine's precision (the
// exponent a float, the power a double stored to a float, times 255 as a float).
PaletteTable texGammaTable(float gamma, float texgamma);

struct MaterialSource {
    MaterialFiles files = MaterialFiles::Images;
    std::vector<std::string> wads; // WAD base names to search, in order (Half-Life "wad" key)
    // Half-Life: the table a texture's own palette goes through at load (Xash3D FWGS
    // engine/common/imagelib/img_utils.c Image_SetPalette, LUMP_TEXGAMMA: TextureToGamma on
    // each byte): miptex with a palette of their own (but '{' cut-outs and palettes equal to
    // Quake's), studio model skins (but masked ones) and sprites drawn normal or additive.
    // Empty: palettes as stored.
    std::optional<PaletteTable> palette_table;
};

// Which table says what model a point entity shows (game/entity_models.h; scene/models/ places
// them).
enum class EntityModelTable : uint8_t {
    None,        // no table
    SourceProps, // Source: static props and prop_* entities' "model" (scene/models/source_props.h)
    Quake1,      // id's progs (monster_*, weapon_*, item_*, light_torch_*, light_flame_*)
    Quake2,      // the game's itemlist (weapon_*, ammo_*, item_*, key_*) and monster_*
    Quake3,   // the game's item list (weapons, ammo, armour, health, powerups, flags), misc_model
    HalfLife, // "model" keys naming .mdl / .spr, items and weapons, render modes and amounts
};

// How point entities' models take their light.
enum class ModelLighting : uint8_t {
    LightPoint, // the lightmap straight below the origin (Quake 1: R_LightPoint)
    LightGrid,  // bsp::Map::light_grid, or a fixed light when the map has none (Quake 3)
};

// A light style slot whose letters the game's spawn code sets, overriding the viewer's standard
// table (scene/world/light_styles.h).
struct LightStyleString {
    int32_t style = 0;
    std::string letters; // 'a' dark, 'm' normal, 'z' double, played at 10 letters a second
};

// Which brush models the game's server sends to the client, which draws only those it was
// sent. With `by_pvs` a model is drawn only when a leaf its box touches (the placed bounds
// spread by `box_margin` on every side, solid leaves left out) is in the union of the PVS rows
// of every leaf within `eye_radius` of the eye; a model touching `leaf_limit` leaves or more is
// always drawn (0: no limit). Off: every brush model in the frustum is drawn.
struct BrushModelVis {
    bool by_pvs = false;
    float box_margin = 0.0f;
    float eye_radius = 0.0f;
    uint32_t leaf_limit = 0;
};

// GoldSrc's entity render keys (HLSDK common/const.h kRender*), read once for brush models and
// models alike.
enum class RenderMode : uint8_t { Normal, Colour, Texture, Glow, Solid, Additive };
struct RenderKeys {
    RenderMode mode = RenderMode::Normal;
    float amount = 0.0f;             // renderamt / 255, 0 when the key is absent
    std::optional<glm::vec3> colour; // rendercolor / 255 when given
};

struct EntityRules {
    EntityModelTable model_table = EntityModelTable::None;
    ModelLighting model_lighting = ModelLighting::LightPoint;
    // Slots the spawn code sets, sorted by style, one entry per style.
    std::vector<LightStyleString> light_styles;
    BrushModelVis brush_model_vis;
};

// What sky surfaces show where the sky box images are missing, as the game's renderer draws
// them: the sky boxes it tries next (`boxes`, in order), then a box whose every face is `face`
// (RGBA8, face_size x face_size texels stretched over the face, linear filtered). No face
// (face_size 0): the sky surfaces draw as the game draws them without a box (Quake 1's two
// layers).
struct SkyFallback {
    std::vector<std::string> boxes;
    int32_t face_size = 0;
    std::vector<uint8_t> face; // face_size * face_size * 4 bytes
};

// A region of the map the game draws behind the world from a second eye, the world's sky
// surfaces showing it (Source's 3D sky box: a scaled-down model of the distant scenery, built
// somewhere outside the playable space). Each frame the region is drawn first, from the eye
// skyRegionEye() gives for the world's eye, with the world's view angles, its own visible set
// (the region eye's cluster at `origin`, only the leaves of that eye's area:
// scene::VisOptions::own_area_only), its own fog, and the sky box
// behind it; then depth is cleared and the world is drawn over it, its sky surfaces writing
// nothing.
struct SkyRegion {
    glm::vec3 origin{0.0f}; // the region's eye when the world's eye is at the world origin
    float scale = 1.0f;     // world units per region unit (> 0)
    LinearFog fog; // distances in world units; regionFogStart/End give them in region units
};

// The region's eye for the world's eye `eye`: origin + eye / scale.
glm::vec3 skyRegionEye(const SkyRegion& region, glm::vec3 eye);

struct GameProfile {
    Family family = Family::Quake3;
    MapRules rules;
    ViewRule view;
    std::string skybox; // sky box base path from worldspawn ("gfx/env/NAME"); empty: none
    SkyFallback sky_fallback;
    std::optional<SkyRegion> sky_region; // empty: the map has none
    MountRule mount;
    MaterialSource materials;
    EntityRules entities;
    // Problems found reading the rules' entity keys (a malformed number), each naming the key,
    // the entity's index and its class; the map loads with the game's reading of the value.
    std::vector<std::string> warnings;
};

// Which of an engine's looks a family's rules follow where the players of a game see more than
// one (the viewer's setting and command-line option pick it).
enum class Quake2Look : uint8_t {
    Yamagi,  // yquake2's default renderer GL3 at its defaults (vid_gamma 1.2): game/quake2.cpp
    Classic, // yquake2's GL1 renderer, the original ref_gl's rules, vid_gamma 1
};
std::string_view quake2LookName(Quake2Look look); // "yamagi", "classic"
std::optional<Quake2Look> parseQuake2Look(std::string_view name);
struct ProfileOptions {
    Quake2Look quake2_look = Quake2Look::Yamagi;
};

// The rules of `map`'s game, from its format and facts (light data present, worldspawn keys)
// and the look `options` pick. Safe on any entity text: missing or malformed keys take the
// game's defaults.
GameProfile profileFor(const bsp::Map& map, const ProfileOptions& options = {});

// GoldSrc's render keys of `entity` (rendermode 0..5, renderamt, rendercolor), read here alone:
// game/halflife.cpp draws brush models by them at spawn, scene/models/half_life_keys.cpp its models
// and sprites.
RenderKeys halfLifeRenderKeys(const bsp::Entity& entity);

// Brush models as the game code leaves them at spawn, written into `map` once, right after it
// is parsed and before anything reads it (scene::loadMapAt): placement and visibility (Quake 1
// doors, platforms, trains, skill), and how each is blended (Half-Life render modes, Quake 1
// entity alpha). Needs the parser's entity binding (bsp::Submodel::entity).
void spawnBrushModels(const GameProfile& profile, bsp::Map& map);

} // namespace game
