// The world's batches in pass order, and the single-texture path: a material's image times its
// lightmap (light styles blended in the shader), alpha-tested, warped, glowing or fogged as
// its program variant says. Quake 3 materials with shader stages go to the stage pass, sky
// batches to the sky pass; the fog pass runs once the opaque surfaces are down.
#include "render/draw_state.h"
#include "render/frame.h"

#include <cmath>
#include <glm/gtc/type_ptr.hpp>

namespace render {

bool distanceFogged(const Frame& f) {
    if (!f.options.fog || f.options.view != ViewMode::Lit)
        return false;
    return f.linear_fog ? f.linear_fog->enabled : f.gpu.rules.fog.density > 0.0f;
}

namespace {

// A world program made current: the flat colour its batches leave alone outside the flat view.
void useWorldProgram(Frame& f, const WorldProgram& u) {
    f.useProgram(u.program);
    glUniform4f(u.flat_colour, 1.0f, 1.0f, 1.0f, 1.0f);
}

// The light of a surface the game draws without lightmaps (a Quake 2 warp or TRANS33/66
// material, a GoldSrc brush model in render mode colour, texture, glow or additive), or 0: its
// lightmap's (the FULLBRIGHT_LIGHT variant).
float fullbrightLight(scene::Lighting lighting, const scene::ResolvedMaterial* material) {
    return lighting == scene::Lighting::Unlit ? 1.0f : material ? material->fullbright_light : 0.0f;
}

// The brush model whose colour replaces the texel (GoldSrc render mode colour: the
// SOLID_COLOUR variant), or nullptr.
const bsp::Submodel* solidColour(const Frame& f, const scene::DrawBatch& b) {
    const bsp::Submodel* submodel = f.gpu.submodel(b.submodel);
    return submodel && !submodel->textured ? submodel : nullptr;
}

void setSurfaceUniforms(const Frame& f, const WorldProgram& u, const scene::DrawBatch& b,
                        float alpha, scene::Lighting lighting, const scene::FogVolume* fog) {
    const scene::ResolvedMaterial* material = f.gpu.material(b.material);
    float scroll = 0.0f;
    if (material && (material->flags & bsp::kSurfFlowing) && material->flow_speed > 0.0f) {
        // Whole repeats dropped (64 of them) so the offset stays small in floats.
        const double speed = material->flow_speed;
        scroll = static_cast<float>(-speed * std::fmod(f.options.time, 64.0 / speed));
    }
    // Source texture matrices (content/material/texture_transform.h), the proxies' at the
    // viewer's clock; identity for every other material. Set for each batch, so a program
    // never keeps another material's.
    content::TextureTransform base =
        material ? material->motion.baseAt(f.options.time) : content::TextureTransform();
    content::TextureTransform bump =
        material ? material->motion.bumpAt(f.options.time) : content::TextureTransform();
    // Source's number proxies (content/material/material_proxy.h), run at the viewer's clock
    // for a material that has them; a still material skips this.
    std::array<float, 3> tint{1.0f, 1.0f, 1.0f};
    const std::array<float, 3>* envmap_tint = material ? &material->envmap.tint : nullptr;
    content::ProxyValues proxied;
    if (material && !material->proxies.empty()) {
        proxied = material->proxies.evaluate(f.options.time, base, bump);
        base = proxied.base;
        bump = proxied.bump;
        tint = proxied.colour;
        if (material->proxies.envmap_tint >= 0)
            envmap_tint = &proxied.envmap_tint;
        // $alpha scales a blended surface's opacity (the modulation colour's alpha); an opaque
        // one is not blended.
        if (b.pass >= scene::Pass::Liquid)
            alpha *= proxied.alpha;
    }
    glUniform3f(u.tint, tint[0], tint[1], tint[2]);
    glUniform4f(u.uv_linear, base.m[0] - 1.0f, base.m[1], base.m[3], base.m[4] - 1.0f);
    glUniform2f(u.uv_scroll, scroll + base.m[2], base.m[5]);
    glUniform4f(u.bump_linear, bump.m[0] - 1.0f, bump.m[1], bump.m[3], bump.m[4] - 1.0f);
    glUniform2f(u.bump_offset, bump.m[2], bump.m[5]);
    // No-ops (location -1) outside the FULLBRIGHT_LIGHT and SOLID_COLOUR variants.
    glUniform1f(u.fullbright_light, fullbrightLight(lighting, material));
    if (const bsp::Submodel* solid = solidColour(f, b))
        glUniform4f(u.solid_colour, solid->colour.r, solid->colour.g, solid->colour.b, 1.0f);
    glUniform1f(u.alpha_cutoff, material ? material->alpha_cutoff : 0.5f);
    glUniform1f(u.alpha, alpha);
    if (material && material->water.enabled) { // no-ops (location -1) outside WATER variants
        const content::WaterShading& w = material->water;
        glUniform3fv(u.water_base, 1, w.base_colour.data());
        glUniform3fv(u.water_reflect_tint, 1, w.reflect_tint.data());
        glUniform2f(u.water_fade, w.fade_start, w.fade_end);
        glUniform1f(u.water_weight, w.reflect_weight);
        if (f.water) { // no-ops outside WATER_PLANAR variants
            glUniform4fv(u.water_viewport, 1, glm::value_ptr(f.water->viewport));
            glUniform2f(u.water_amounts, w.reflect_amount, w.refract_amount);
            glUniformMatrix4fv(u.water_unproject, 1, GL_FALSE, glm::value_ptr(f.water->unproject));
            // The refraction view's fog: its height the plane + 2 (PushView's DF_FUDGE_UP
            // spread), over the fog range ($fogend - $fogstart; the engine's pixel fog params
            // carry its inverse, shaderapidx8 outside the SDK). A zero range fogs wholly.
            const float range = w.fog_end - w.fog_start;
            glUniform2f(u.water_fog, f.water->plane + 2.0f, range != 0.0f ? 1.0f / range : 1e30f);
        }
    }
    if (material && material->envmap.enabled) { // no-ops (location -1) outside ENVMAP variants
        const content::EnvMapShading& e = material->envmap;
        glUniform3fv(u.envmap_tint, 1, envmap_tint->data());
        glUniform1f(u.envmap_contrast, e.contrast);
        glUniform1f(u.envmap_saturation, e.saturation);
        glUniform1f(u.envmap_fresnel, e.fresnel);
    }
    if (fog) {
        glUniform1f(u.fog_distance, fog->distance);
        glUniform1i(u.fog_has_surface, fog->has_surface ? 1 : 0);
        glUniform4fv(u.fog_surface, 1, glm::value_ptr(fog->surface));
        const glm::vec3 colour = fog->colour * f.frame_scale;
        glUniform3fv(u.fog_colour, 1, glm::value_ptr(colour));
    }
    if (f.options.view == ViewMode::Flat) {
        // A stable colour per material.
        const uint32_t h = static_cast<uint32_t>(b.material) * 2654435761u;
        glUniform4f(u.flat_colour, 0.35f + 0.65f * static_cast<float>(h & 255) / 255.0f,
                    0.35f + 0.65f * static_cast<float>((h >> 8) & 255) / 255.0f,
                    0.35f + 0.65f * static_cast<float>((h >> 16) & 255) / 255.0f, 1.0f);
    }
}

// The reflection of a material with a cube map (scene::ResolvedMaterial::envmap), in the lit
// view: its mask's variant bit, when what the mask reads is bound (a normal map's alpha needs
// the BUMP variant's map). `frame` indexes the GPU set's per-material names (a textured batch).
void setEnvMapVariant(const Frame& f, const scene::ResolvedMaterial* material, int32_t frame,
                      bool bump, WorldVariant& variant) {
    const WorldGpu& gpu = f.gpu;
    // Water's cube is its environment wherever it is shaded as water (lit and fullbright).
    if (!material || !material->envmap.enabled ||
        (f.options.view != ViewMode::Lit && !variant.water) || frame < 0 ||
        static_cast<size_t>(frame) >= gpu.envmaps.size() ||
        gpu.envmaps[static_cast<size_t>(frame)] == 0)
        return;
    variant.envmap = true;
    switch (material->envmap.mask) {
    case content::EnvMapMask::Texture:
        variant.envmap_mask = gpu.envmap_masks[static_cast<size_t>(frame)] != 0;
        break;
    case content::EnvMapMask::BaseAlpha:
        variant.envmap_base_alpha = true;
        break;
    case content::EnvMapMask::NormalAlpha:
        variant.envmap_normal_alpha = bump;
        break;
    case content::EnvMapMask::None:
        break;
    }
}

// The single-texture path for one batch.
void drawSurfaceBatch(Frame& f, const scene::DrawBatch& b, const scene::DrawState& state,
                      float alpha, const scene::FogVolume* fog, SurfaceCursor& cursor) {
    const WorldGpu& gpu = f.gpu;
    const scene::ResolvedMaterial* material = gpu.material(b.material);
    const bool textured = b.material >= 0 && static_cast<size_t>(b.material) < gpu.textures.size();
    const int32_t frame = textured ? gpu.animationFrame(b.material, f.options.time) : b.material;
    const GLuint glow = textured ? gpu.glows[static_cast<size_t>(frame)] : 0;
    const GLuint layer2 = textured ? gpu.layers2[static_cast<size_t>(frame)] : 0;
    const bool lit_view = f.options.view == ViewMode::Lit || f.options.view == ViewMode::Lightmap;
    // Water is shaded where the view shows surface colour: lit and fullbright (it takes no
    // light); the lightmap and debug views show its image.
    const bool water = material && material->water.enabled &&
                       (f.options.view == ViewMode::Lit || f.options.view == ViewMode::Fullbright);
    // A $bumpmap shapes the light (lit and lightmap views); water's $normalmap its shading.
    const GLuint bump =
        textured && (lit_view || water) ? gpu.bumpTexture(frame, f.options.time) : 0;
    WorldVariant variant;
    variant.view = f.options.view;
    variant.curves = f.light_curves;
    variant.fullbright_light = fullbrightLight(state.lighting, material) > 0.0f;
    variant.solid_colour = solidColour(f, b) != nullptr;
    variant.styles = gpu.style_count;
    variant.alpha_test = state.alpha_test;
    variant.warp = material && (material->flags & bsp::kSurfWarp);
    variant.glow = glow != 0;
    variant.layer2 = layer2 != 0;
    variant.bump = bump != 0;
    variant.ssbump = bump != 0 && gpu.bumps_ssbump[static_cast<size_t>(frame)];
    variant.water = water;
    variant.water_blended = variant.water && material->water.blended;
    // The expensive path where this frame reflected its plane (pass_water.cpp).
    variant.water_planar = water && planarWaterBatch(f, b);
    variant.water_refract = variant.water_planar && material->water.refract;
    variant.bump_motion = variant.bump && !water && material &&
                          (!material->motion.still() || material->proxies.drives_base ||
                           material->proxies.drives_bump);
    setEnvMapVariant(f, material, frame, bump != 0, variant);
    variant.fog_pass = fog != nullptr;
    variant.distance_fog = distanceFogged(f);
    const WorldProgram* program = f.programs.world(variant);
    if (!program)
        return; // its compile error was logged
    if (program->program.id() != cursor.program) {
        useWorldProgram(f, *program);
        cursor = {program->program.id(), -1};
    }
    if (b.submodel != cursor.submodel) {
        const glm::mat4 model = f.modelMatrix(b.submodel);
        glUniformMatrix4fv(program->model, 1, GL_FALSE, glm::value_ptr(model));
        cursor.submodel = b.submodel;
    }
    if (glow)
        f.state.bindTexture(kUnitGlow, GL_TEXTURE_2D, glow);
    if (layer2)
        f.state.bindTexture(kUnitLayer2, GL_TEXTURE_2D, layer2);
    if (bump)
        f.state.bindTexture(kUnitBumpmap, GL_TEXTURE_2D, bump);
    if (variant.envmap)
        f.state.bindTexture(kUnitEnvmap, GL_TEXTURE_CUBE_MAP,
                            gpu.envmaps[static_cast<size_t>(frame)]);
    if (variant.water_planar) {
        f.state.bindTexture(kUnitWaterReflection, GL_TEXTURE_2D, f.water->reflection.id());
        if (variant.water_refract) {
            f.state.bindTexture(kUnitWaterScene, GL_TEXTURE_2D, f.water->scene.id());
            f.state.bindTexture(kUnitWaterDepth, GL_TEXTURE_2D, f.water->scene_depth.id());
        }
    }
    if (variant.envmap_mask)
        f.state.bindTexture(kUnitEnvmapMask, GL_TEXTURE_2D,
                            gpu.envmap_masks[static_cast<size_t>(frame)]);
    f.state.bindTexture(kUnitTexture, GL_TEXTURE_2D,
                        textured ? gpu.baseTexture(frame, f.options.time) : 0);
    setSurfaceUniforms(f, *program, b, alpha, state.lighting, fog);
    f.submit(b);
}

// The fog an opaque batch's own program applies (fogInProgram), or nullptr.
const scene::FogVolume* programFog(const Frame& f, const scene::DrawBatch& b) {
    if (!f.fog || b.pass == scene::Pass::Sky || b.fog < 0 ||
        static_cast<size_t>(b.fog) >= f.gpu.fogs.size())
        return nullptr;
    const scene::FogVolume& fog = f.gpu.fogs[static_cast<size_t>(b.fog)];
    return fog.valid && fogInProgram(f.gpu, b.material, b.pass, f.options) ? &fog : nullptr;
}

void drawBatch(Frame& f, const scene::DrawBatch& b, SurfaceCursor& cursor) {
    const scene::ResolvedMaterial* material = f.gpu.material(b.material);
    const bsp::Submodel* submodel = f.gpu.submodel(b.submodel);
    const bool sky = b.pass == scene::Pass::Sky && !f.overdraw;
    const float alpha =
        scene::worldBatchOpacity(b.pass, material, submodel, f.options.liquid_alpha);
    scene::DrawState state =
        scene::worldBatchDrawState(b.pass, material, submodel, alpha, f.gpu.rules.sky.at_far_plane);
    if (f.overdraw)
        state = scene::overdrawState(state, material && (material->flags & bsp::kSurfNoCull));
    // Shader stages then set their own blending and depth writes per stage.
    applyDrawState(f.state, state);
    if (sky) {
        if (f.sky_hidden)
            glColorMask(GL_FALSE, GL_FALSE, GL_FALSE, GL_FALSE);
        drawSkyBatch(f, b, cursor);
        if (f.sky_hidden)
            glColorMask(GL_TRUE, GL_TRUE, GL_TRUE, GL_TRUE);
        return;
    }
    const scene::FogVolume* fog = programFog(f, b);
    if (f.staged && material && drawStagedBatch(f, b, SkyBase::None, fog)) {
        cursor = {};
        return;
    }
    drawSurfaceBatch(f, b, state, alpha, fog, cursor);
}

void timedFogPass(Frame& f) {
    f.beginTimer("fog");
    drawFogPass(f);
    f.endTimer();
}

// The timer a batch's GPU time goes to (render::kTimedPasses).
const char* batchTimer(const Frame& f, const scene::DrawBatch& b) {
    if (b.pass == scene::Pass::Sky && !f.overdraw)
        return "sky";
    const GpuStagedMaterial* sm = f.staged ? f.gpu.stagedMaterial(b.material) : nullptr;
    if (sm && !sm->stages.empty())
        return b.pass >= scene::Pass::Liquid ? "blended stages" : "stages";
    return scene::passName(b.pass);
}

// The depth state the passes after the batches expect (a sky at the far plane changes it).
void resetDepth(Frame& f) {
    f.state.depthAtFarPlane(false);
    f.state.depthFunc(GL_LEQUAL);
}

} // namespace

void drawWorldBatches(Frame& f) {
    SurfaceCursor cursor;
    bool opaque_done = false;
    for (const scene::DrawBatch& b : f.list.batches) {
        if (!opaque_done && b.pass >= scene::Pass::Liquid) {
            // After the opaque surfaces, before the blended ones: the entity models, then fog.
            f.endTimer();
            resetDepth(f);
            if (f.after_opaque)
                f.after_opaque(f);
            if (f.fog)
                timedFogPass(f);
            opaque_done = true;
            cursor = {};
        }
        const scene::ResolvedMaterial* material = f.gpu.material(b.material);
        if (material && (material->flags & bsp::kSurfFog) && !(material->flags & bsp::kSurfSky))
            continue; // a fog volume's surface: only the fog pass draws it
        if (f.skip_water && material && material->water.enabled)
            continue; // the view mirrored in a water's plane draws no water
        if (f.water && !f.water->copied && refractedWaterBatch(f, b) &&
            (f.options.view == ViewMode::Lit || f.options.view == ViewMode::Fullbright)) {
            // The frame beneath the water, before the first refracting water surface.
            f.beginTimer("water copy");
            copyWaterScene(f, *f.water);
        }
        f.beginTimer(batchTimer(f, b)); // ends the one before; nothing when it is the same
        drawBatch(f, b, cursor);
    }
    f.endTimer();
    resetDepth(f);
    if (!opaque_done) {
        if (f.after_opaque)
            f.after_opaque(f);
        if (f.fog)
            timedFogPass(f);
    }
}

} // namespace render
