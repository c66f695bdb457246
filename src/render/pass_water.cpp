// A planar water's pictures: the world mirrored in the water's plane, drawn before the frame
// into a texture, and the frame's colour and depth copied before the first such water surface
// is drawn, which world.frag.glsl's WATER_PLANAR variant reads (docs/source.md "Water").
//
// The engine's rules (Source SDK 2013 game/client/viewrender.cpp): one water plane per view
// (CViewRender::DetermineWaterRenderInfo takes the material of the fog volume the eye sees);
// the reflection view (CAboveWaterView::CReflectionView) is the main view with its origin
// mirrored in the plane and its pitch negated (CBaseWorldView::PushView's mirror), with its own
// visible set (scene/view/water_reflection.h: the eye's PVS, the mirrored frustum), drawn with
// the world and the sky but no water (DF_RENDER_REFLECTION | DF_CLIP_Z | DF_CLIP_BELOW |
// DF_DRAWSKYBOX), entities only with $reflectentities (not read: none here), clipped to what
// lies above the plane less 2 units (PushView: the height spread by 2 downwards without
// DF_FUDGE_UP, MATERIAL_HEIGHTCLIPMODE_RENDER_ABOVE_HEIGHT). The engine's render targets are
// 1024 x 1024 (baseclientrendertargets.cpp CreateWaterReflectionTexture, the default
// iWaterTextureSize) holding the whole view's frustum; here they are the viewport's own size,
// so a screen pixel and a texel are the same place. The refraction view (CRefractionView:
// everything below the plane + 2, drawn with the water's height fog, its fog factor in alpha)
// is taken from the frame itself: for an eye above the water, what a water pixel's ray meets
// beyond the surface is what the frame drew there before the water, so the frame's copy and its
// depth give the same picture and fog (world.frag.glsl waterRefraction), without drawing the
// world a third time. Where the normal map's offset reaches past the water's edge the frame
// holds the shore; the shader shows the engine's clear colour there (the fog colour), not what
// the clipped world would show under the water behind the shore; and the copy carries the map's
// own distance fog.
#include "render/frame.h"

#include "core/log.h"

#include <cmath>
#include <limits>

namespace render {

namespace {

// A material of the GPU set with the expensive water path.
const content::WaterShading* planarWater(const WorldGpu& gpu, int32_t material) {
    const scene::ResolvedMaterial* m = gpu.material(material);
    return m && m->water.enabled && m->water.planar ? &m->water : nullptr;
}

float waterHeight(const WorldGpu& gpu, int32_t material) {
    return material >= 0 && static_cast<size_t>(material) < gpu.water_heights.size()
               ? gpu.water_heights[static_cast<size_t>(material)]
               : std::numeric_limits<float>::quiet_NaN();
}

// (Re)allocates a viewport-sized 2D texture of `format` on the current unit's binding.
void sizeTexture(GLenum internal, GLenum format, GLenum type, int w, int h) {
    glTexImage2D(GL_TEXTURE_2D, 0, static_cast<GLint>(internal), w, h, 0, format, type, nullptr);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_LINEAR);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_LINEAR);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE); // TEXTUREFLAGS_CLAMPS
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAX_LEVEL, 0);
}

bool sizeReflection(GlState& s, WaterTargets& t, int w, int h) {
    if (t.fbo && t.width == w && t.height == h)
        return true;
    GLuint fbo = 0, rb = 0;
    glGenFramebuffers(1, &fbo);
    glGenRenderbuffers(1, &rb);
    t.fbo = Framebuffer(fbo);
    t.depth = Renderbuffer(rb);
    t.reflection = makeTexture(GL_TEXTURE_2D, "water/reflection");
    s.bindTexture(kUnitWaterReflection, GL_TEXTURE_2D, t.reflection.id());
    sizeTexture(GL_RGBA8, GL_RGBA, GL_UNSIGNED_BYTE, w, h);
    glBindRenderbuffer(GL_RENDERBUFFER, rb);
    glRenderbufferStorage(GL_RENDERBUFFER, GL_DEPTH_COMPONENT24, w, h);
    glBindFramebuffer(GL_FRAMEBUFFER, fbo);
    glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, t.reflection.id(),
                           0);
    glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_DEPTH_ATTACHMENT, GL_RENDERBUFFER, rb);
    label(GL_FRAMEBUFFER, fbo, "water/reflection");
    const GLenum status = glCheckFramebufferStatus(GL_FRAMEBUFFER);
    if (status != GL_FRAMEBUFFER_COMPLETE) {
        core::logWarning("water reflection framebuffer incomplete (status " +
                         std::to_string(status) + "): water drawn cheap");
        t.fbo = Framebuffer();
        t.width = t.height = 0;
        return false;
    }
    t.width = w;
    t.height = h;
    return true;
}

} // namespace

bool planarWaterShown(const Frame& f) {
    return f.options.water_reflection && !f.overdraw &&
           (f.options.view == ViewMode::Lit || f.options.view == ViewMode::Fullbright);
}

bool planarWaterBatch(const Frame& f, const scene::DrawBatch& b) {
    return f.water && f.water->reflected && b.submodel == 0 && planarWater(f.gpu, b.material) &&
           waterHeight(f.gpu, b.material) == f.water->plane;
}

bool refractedWaterBatch(const Frame& f, const scene::DrawBatch& b) {
    return planarWaterBatch(f, b) && planarWater(f.gpu, b.material)->refract;
}

void drawWaterReflection(const Frame& f, const scene::ReflectionView& view, WaterTargets& t) {
    GLint vp[4] = {0, 0, 0, 0}, bound = 0;
    glGetIntegerv(GL_VIEWPORT, vp);
    glGetIntegerv(GL_DRAW_FRAMEBUFFER_BINDING, &bound);
    t.reflected = false;
    t.copied = false;
    if (vp[2] <= 0 || vp[3] <= 0 || !sizeReflection(f.state, t, vp[2], vp[3])) {
        glBindFramebuffer(GL_FRAMEBUFFER, static_cast<GLuint>(bound));
        return;
    }
    DebugGroup group("water reflection");
    glBindFramebuffer(GL_FRAMEBUFFER, t.fbo.id());
    glViewport(0, 0, vp[2], vp[3]);
    const glm::vec4 clear = f.options.clear_colour * f.frame_scale;
    glClearColor(clear.r, clear.g, clear.b, 1.0f);
    f.state.depthMask(true);
    glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
    // The mirrored eye (scene::reflectionCamera: its picture is the reflection upside down;
    // world.frag.glsl reads it with v flipped) and its own visible set.
    const scene::Camera& mirrored = view.camera;
    const float plane = view.plane;
    RenderOptions options = f.options;
    options.timers = nullptr; // timed as one pass, "water reflection", by the caller
    Frame r{view.list, mirrored, options, f.gpu, f.programs, f.state, f.submitter};
    r.view_projection = mirrored.viewProjection();
    r.staged = f.staged;
    r.fog = f.fog;
    r.frame_scale = f.frame_scale;
    r.tone_scale = f.tone_scale;
    r.light_curves = f.light_curves;
    r.linear_fog = f.linear_fog;
    r.clip_plane = glm::vec4(0.0f, 0.0f, 1.0f, -(plane - 2.0f)); // keeps z > plane - 2
    r.skip_water = true;
    useBlocks(r);
    glEnable(GL_CLIP_DISTANCE0);
    if (options.depth_prepass)
        drawDepthPrepass(r);
    drawWorldBatches(r);
    glDisable(GL_CLIP_DISTANCE0);
    glBindFramebuffer(GL_FRAMEBUFFER, static_cast<GLuint>(bound));
    glViewport(vp[0], vp[1], vp[2], vp[3]);
    f.state.bindVertexArray(f.gpu.vao.id());
    f.state.enable(GL_DEPTH_TEST, true);
    f.state.depthFunc(GL_LEQUAL);
    f.state.cullFace(GL_FRONT);
    t.plane = plane;
    t.viewport = glm::vec4(vp[0], vp[1], vp[2], vp[3]);
    t.unproject = glm::inverse(f.view_projection);
    t.reflected = true;
}

void copyWaterScene(const Frame& f, WaterTargets& t) {
    if (t.copied)
        return;
    const int w = static_cast<int>(t.viewport.z), h = static_cast<int>(t.viewport.w);
    const bool resize = !t.scene || t.copy_width != w || t.copy_height != h;
    if (!t.scene) {
        t.scene = makeTexture(GL_TEXTURE_2D, "water/frame copy");
        t.scene_depth = makeTexture(GL_TEXTURE_2D, "water/frame depth copy");
    }
    // The bound framebuffer's pixels (the window's back buffer or an offscreen target).
    const GLint x = static_cast<GLint>(t.viewport.x), y = static_cast<GLint>(t.viewport.y);
    f.state.bindTexture(kUnitWaterScene, GL_TEXTURE_2D, t.scene.id());
    if (resize)
        sizeTexture(GL_RGBA8, GL_RGBA, GL_UNSIGNED_BYTE, w, h);
    glCopyTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, x, y, w, h);
    f.state.bindTexture(kUnitWaterDepth, GL_TEXTURE_2D, t.scene_depth.id());
    if (resize) {
        sizeTexture(GL_DEPTH_COMPONENT24, GL_DEPTH_COMPONENT, GL_UNSIGNED_INT, w, h);
        // Depth read as a number, nearest: a filtered depth would mix a near and a far surface.
        glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
        glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    }
    glCopyTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, x, y, w, h);
    t.copy_width = w;
    t.copy_height = h;
    t.copied = true;
}

} // namespace render
