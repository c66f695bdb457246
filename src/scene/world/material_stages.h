// Quake 3 shader stages made ready to draw, without GL: which materials need drawing stage by
// stage, the images their stages name, and the per-frame values of their animated parameters.
//
// What ioquake3 (code/renderergl1) does and we follow:
//   - tr_shader.c CollapseMultitexture: a `$lightmap` stage and a texture stage blended with a
//     filter (GL_DST_COLOR GL_ZERO or GL_ZERO GL_SRC_COLOR) become one stage, texture times
//     lightmap, coloured by the first stage's rgbGen. Only stages[0] and stages[1] are ever
//     folded, and only when their rgbGen and alphaGen agree. We fold the same pairs, which
//     also keeps the framebuffer clamp where ioquake3 has it (after the product); a later
//     texture + filter pair stays two passes (the filter darkens all that came before it).
//   - tr_shade_calc.c: EvalWaveForm (sin, triangle, square, sawtooth, inverse sawtooth; noise
//     as a hash, not ioquake3's table), RB_CalcWaveColor (times identityLight), tcMod scroll
//     (scaled by time, then reduced mod 1), scale, rotate (about the texture centre, degrees
//     per second, clockwise), stretch (about the centre by 1/wave), transform, turb (a sine
//     of the vertex position, done in the vertex shader).
//   - tr_shade.c ComputeColors: identity = 1, identityLighting = identityLight (0.5 with
//     overbright), vertex = vertex colour times identityLight, exactVertex = vertex colour,
//     oneMinusVertex, const, wave.
// A material whose shader collapses into "texture times lightmap" with nothing animated is
// left to the renderer's single-texture path (it draws exactly that). Sky materials get their
// cloud layers (the sky shader's texture stages) as stages, drawn over the far box; fog and
// nodraw shaders get none.
#pragma once

#include "bsp/map.h"
#include "content/image/image.h"
#include "content/material/q3_shader.h"
#include "content/material/shader_library.h"
#include "content/vfs/vfs.h"
#include "scene/world/deforms.h"
#include "scene/world/material_table.h"

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include <glm/mat3x3.hpp>
#include <glm/vec4.hpp>

namespace scene {

struct StageImage {
    std::string name;     // as the stage names it ("textures/sfx/flame1.tga")
    std::string source;   // file that was read, empty when missing
    content::Image image; // the missing-texture tile when missing
    bool clamp = false;   // clampMap
    bool mipmaps = true;  // false for nomipmaps shaders
    bool missing = true;
};

enum class StageSource : uint8_t {
    Texture,  // frames[] images
    Lightmap, // the face's lightmap (white on faces without one, as ioquake3's whiteImage)
    White,    // $whiteimage
};

struct RenderStage {
    content::ShaderStage def; // the (first) stage as parsed: blend, gens, tcMods
    StageSource source = StageSource::White;
    std::vector<int32_t> frames; // StageImage indices: 1, or animMap's frames
    // The stage also multiplies by the face's lightmap (a collapsed lightmap + filter pair).
    bool times_lightmap = false;
    // Colour of the collapsed pair: ioquake3 uses the first stage's rgbGen/alphaGen.
    content::RgbGen rgb_gen = content::RgbGen::Identity;
    content::AlphaGen alpha_gen = content::AlphaGen::Identity;
    // Index of the shader stage(s) this draws, for the overlay's per-stage toggles.
    int shader_stage = 0;
    int shader_stage_count = 1; // 2 for a collapsed pair
};

struct StagedMaterial {
    std::vector<RenderStage> stages;            // empty: drawn by the single-texture path
    const content::ShaderDef* shader = nullptr; // the library's definition; nullptr: none
    bool sky = false;                           // stages are cloud layers over the sky box
};

struct MaterialStages {
    std::vector<StagedMaterial> materials; // parallel to bsp::Map::materials
    std::vector<StageImage> images;
    uint32_t staged = 0;         // materials with stages
    uint32_t missing_images = 0; // distinct stage images not found
};

// The world mesh of a map as every GPU upload needs it: buildWorldMesh with the resolved
// materials plus the sprite data of the faces whose shaders autosprite (WorldMesh::sprites).
// The loader and a change of patch level both build it here.
WorldMesh buildMapMesh(const bsp::Map& map, const MaterialTable& materials,
                       const MaterialStages& stages, const WorldMeshOptions& options = {});

// Texture-times-lightmap and nothing else: true when the single-texture path draws `stages`
// exactly as ioquake3 would.
bool isPlainLightmapped(const std::vector<RenderStage>& stages);

// The render stages of one shader: stages without a map dropped (as ioquake3 does), lightmap +
// filter pairs collapsed; for a sky shader only its texture stages (cloud layers). Image names
// are appended to `images` (deduplicated by name) without pixels; loadStageImages fills them.
std::vector<RenderStage> buildRenderStages(const content::ShaderDef& def,
                                           std::vector<StageImage>& images);

// Every material of the map that has a shader script: stages built, images decoded (missing
// ones become the missing-texture tile). Sky, fog and nodraw materials (by the flags in `table`,
// parallel to map.materials, from resolveMaterials) get no stages here. Also resolves in `table`
// each material's sort (the shader's, so blended surfaces draw in ioquake3's sort order) and
// blend_order (from how the renderer draws it). The map is only read.
MaterialStages buildMaterialStages(const bsp::Map& map, MaterialTable& table,
                                   const content::ShaderLibrary& shaders,
                                   const content::FileSystem& fs);

// Decodes images[i] for every entry without pixels, through content::loadImageTexture (the
// search material textures use); missing ones become the missing-texture tile.
void loadStageImages(std::vector<StageImage>& images, const content::FileSystem& fs);

// Stage folding: how many stages one program can draw in a single pass, blending them into
// each other in the fragment shader instead of in the framebuffer (on software GL every pass
// costs a full raster of the surface, and a blended one also reads the frame back).
// ioquake3 draws one pass per stage (after CollapseMultitexture); the folded result is the
// same as long as every folded stage lands on exactly the pixels of the first and nothing
// before the surface shows through:
//   - the run starts with a stage that does not blend (it replaces what is behind it), or on
//     an opaque base the caller draws in the same program (`opaque_base`: the sky's far box);
//   - later stages draw the same triangles at the same depth (the same vertex shader, so the
//     same depth bits): depthFunc lequal or equal passes where the first stage passed, and
//     their depth writes rewrite the depth already there. Their blend, alphaFunc (a stage's
//     texels that fail leave the colour as it was) and colour are done in the shader;
//   - except when the first stage cuts texels out with alphaFunc: a later lequal stage would
//     draw on the cut-out pixels over whatever is behind, so only depthFunc equal stages fold.
// A run of additive stages (isAdditive) also folds without an opaque start: each adds its own
// amount to the frame and the framebuffer clamps, so min(frame + a + b, 1) is drawn as one
// stage adding min(a + b, 1) (the first blends onto the frame, the rest are summed in the
// shader) when none writes depth and all have the same depthFunc.
// Returns at least 1 (the first stage alone) and at most `max_stages`.
size_t foldableRun(std::span<const RenderStage* const> drawn, size_t max_stages, bool opaque_base);

// A stage that adds to the frame an amount that does not depend on the frame: blendFunc with
// the destination factor GL_ONE and a source factor of one, zero or the source's own colour or
// alpha (blendFunc add, GL_SRC_ALPHA GL_ONE ...).
bool isAdditive(const content::ShaderStage& stage);

// What a stage draws with at `time`.
struct StageFrame {
    int32_t image = -1;     // StageImage index (Texture stages), -1 otherwise
    glm::vec4 colour{1.0f}; // rgb from rgbGen identity/identityLighting/const/wave, a from alphaGen
    bool vertex_rgb = false;   // rgb comes from the vertex colour (times vertex_scale)
    float vertex_scale = 1.0f; // identityLight for rgbGen vertex, 1 for exactVertex
    bool one_minus_vertex = false;
    bool vertex_alpha = false, one_minus_vertex_alpha = false;
    // Texture coordinates: st' = matrix * (st, 1) after turbulence (the affine part of every
    // tcMod but turb, composed in order).
    glm::mat3 tc_matrix{1.0f};
    glm::vec4 turb{0.0f}; // amplitude, phase + time * frequency (cycles); w = 1 when present
};

// identity_light: ioquake3's tr.identityLight (0.5 with overbright, 1 without).
StageFrame evalStage(const RenderStage& stage, double time, float identity_light);

} // namespace scene
