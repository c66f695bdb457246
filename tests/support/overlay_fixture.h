// Source overlay fixtures for the scene and render tests: doverlay_t records as the overlays lump
// holds them (352 bytes, Source SDK 2013 public/bspfile.h; the field layout bsp/overlays.h reads)
// and a lit 64-unit floor with solid-colour materials they are put on (bsp::buildOverlayFaces).
// The records go through bsp::parseOverlays, so the fixture is read as a map's lump is.
#pragma once

#include "bsp/dropped.h"
#include "bsp/map.h"
#include "bsp/overlays.h"
#include "content/image/image.h"
#include "support/map_builder.h"

#include <array>
#include <cstdint>
#include <cstring>
#include <vector>

namespace testsupport {

// One info_overlay: a square of half-size `half` around `origin` on the floor (facing +z, BasisU
// +x, texture U and V from 0 to 1), with material `texinfo`, render order `order` (0..3) and the
// squared fade distances of its doverlayfade_t.
struct OverlaySpec {
    int16_t texinfo = 1;
    glm::vec3 origin{32.0f, 32.0f, 0.0f};
    float half = 16.0f;
    uint16_t order = 0;
    float fade_min_sq = 0.0f, fade_max_sq = 0.0f;
    int32_t face = 0; // the one face the record lists (aFaces[0])
};

// The 352-byte doverlay_t of `s` listing its one face.
inline std::vector<uint8_t> overlayRecord(const OverlaySpec& s) {
    std::vector<uint8_t> b(bsp::kOverlayBytes, 0);
    const auto put = [&](size_t at, const void* p, size_t n) { std::memcpy(b.data() + at, p, n); };
    const int16_t texinfo = s.texinfo;
    put(4, &texinfo, 2);
    put(8, &s.face, 4);
    const auto packed = static_cast<uint16_t>(1u | (uint32_t(s.order) << 14)); // one face
    put(6, &packed, 2);
    const std::array<float, 4> uv = {0.0f, 1.0f, 0.0f, 1.0f};
    put(264, uv.data(), 16);
    const float h = s.half;
    // Corners (-,-), (-,+), (+,+), (+,-) with BasisU (1, 0, 0) in the z of the first three.
    const std::array<float, 12> points = {-h, -h, 1, -h, h, 0, h, h, 0, h, -h, 0};
    put(280, points.data(), 48);
    put(328, &s.origin, 12);
    const std::array<float, 3> normal = {0, 0, 1};
    put(340, normal.data(), 12);
    return b;
}

// Reads the overlays lump `lump` and its fades `fades` into `m` as a VBSP map's are read:
// parseOverlays, readOverlayFades, buildOverlayFaces. Lumps that cannot be read leave `m` without
// fragments (the tests check the fragment count).
inline void readOverlays(bsp::Map& m, const std::vector<uint8_t>& lump,
                         const std::vector<uint8_t>& fades) {
    auto read = bsp::parseOverlays(lump, 0);
    if (!read || !bsp::readOverlayFades(fades, *read))
        return;
    bsp::DroppedReferences dropped;
    m.overlay_count = static_cast<uint32_t>(read->size());
    m.overlay_faces = bsp::buildOverlayFaces(m, *read, dropped);
}

// A one-room map: material 0 "floor" on a 64-unit floor (x, y in [0, 64], z 0) lit by a lightmap
// of `luxel` everywhere, materials 1.. "overlay1".. for the overlays, and `overlays` put on the
// floor as a VBSP map's lumps are read: parseOverlays, readOverlayFades, buildOverlayFaces.
inline bsp::Map overlayFloorMap(uint8_t luxel, const std::vector<OverlaySpec>& overlays,
                                int overlay_materials = 2) {
    bsp::Map m;
    addMaterial(m, "floor");
    for (int k = 1; k <= overlay_materials; ++k)
        addMaterial(m, "overlay" + std::to_string(k));
    FloorQuad q;
    q.lightmap_page = addGreyLightmapPage(m, luxel);
    addFloorQuad(m, q);
    addWorldLeaf(m, {0, 0, -8}, {64, 64, 8});
    std::vector<uint8_t> lump, fades;
    for (const OverlaySpec& s : overlays) {
        const auto r = overlayRecord(s);
        lump.insert(lump.end(), r.begin(), r.end());
        for (const float f : {s.fade_min_sq, s.fade_max_sq}) {
            const auto* p = reinterpret_cast<const uint8_t*>(&f);
            fades.insert(fades.end(), p, p + 4);
        }
    }
    readOverlays(m, lump, fades);
    return m;
}

// overlayFloorMap's floor (face 0, the world's, x and y in [0, 64]) beside a brush entity: model
// 1, a 64-unit floor (face 1) stored as vbsp stores an entity's faces, in the model's own
// coordinates (x, y in [0, 64], z 0, lit by the same page), placed by its entity at `origin`
// turned by `angles` (pitch, yaw, roll). `overlay` lists face 1 (its `face` is set here): its
// quad is in the model's coordinates too.
inline bsp::Map overlayBrushModelMap(uint8_t luxel, OverlaySpec overlay, glm::vec3 origin,
                                     glm::vec3 angles) {
    bsp::Map m;
    addMaterial(m, "floor");
    addMaterial(m, "overlay1");
    FloorQuad q;
    q.lightmap_page = addGreyLightmapPage(m, luxel);
    addFloorQuad(m, q);
    const uint32_t door = addFloorQuad(m, q);
    m.faces[door].submodel = 1;
    // The world's leaf holds face 0 only: an entity's faces are in no world leaf.
    addLeaf(m, {0, 0, -8}, {64, 64, 8}, 0, 0, 1);
    addWorldModel(m, {0, 0, -8}, {64, 64, 8}, 1);
    bsp::Submodel model;
    model.mins = {0, 0, -1};
    model.maxs = {64, 64, 1};
    model.first_face = door;
    model.num_faces = 1;
    model.origin = origin;
    model.angles = angles;
    m.submodels.push_back(model);
    overlay.face = static_cast<int32_t>(door);
    const auto lump = overlayRecord(overlay);
    std::vector<uint8_t> fades(8);
    std::memcpy(fades.data(), &overlay.fade_min_sq, 4);
    std::memcpy(fades.data() + 4, &overlay.fade_max_sq, 4);
    readOverlays(m, lump, fades);
    return m;
}

// An 8 x 8 image of one opaque colour.
inline content::Image solidImage(std::array<uint8_t, 3> rgb) {
    content::Image img;
    img.width = img.height = 8;
    for (int i = 0; i < 64; ++i)
        img.rgba.insert(img.rgba.end(), {rgb[0], rgb[1], rgb[2], 255});
    return img;
}

} // namespace testsupport
