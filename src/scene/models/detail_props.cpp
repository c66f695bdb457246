#include "scene/models/detail_props.h"

#include "content/material/textures.h"
#include "scene/models/placement.h"
#include "scene/models/source_props.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <tuple>

namespace scene {

namespace {

// The texels of `image` inside the texture rectangle (upper-left, lower-right in 0..1), at
// least one texel each way; mirrored left to right when `mirror`.
content::SpritePicture cutPicture(const content::Image& image, const bsp::DetailSprite& sprite,
                                  bool mirror) {
    const auto texel = [](float t, int size) {
        return std::clamp(static_cast<int>(std::lround(t * float(size))), 0, size);
    };
    int x0 = texel(sprite.tex_upper_left[0], image.width);
    int x1 = texel(sprite.tex_lower_right[0], image.width);
    int y0 = texel(sprite.tex_upper_left[1], image.height);
    int y1 = texel(sprite.tex_lower_right[1], image.height);
    if (x1 < x0)
        std::swap(x0, x1);
    if (y1 < y0)
        std::swap(y0, y1);
    x1 = std::max(x1, std::min(x0 + 1, image.width));
    y1 = std::max(y1, std::min(y0 + 1, image.height));
    x0 = std::min(x0, x1 - 1);
    y0 = std::min(y0, y1 - 1);
    content::SpritePicture p;
    p.width = x1 - x0;
    p.height = y1 - y0;
    p.rgba.reserve(size_t(p.width) * size_t(p.height) * 4);
    for (int y = y0; y < y1; ++y)
        for (int i = 0; i < p.width; ++i) {
            const int x = mirror ? x1 - 1 - i : x0 + i;
            const uint8_t* t = &image.rgba[(size_t(y) * size_t(image.width) + size_t(x)) * 4];
            p.rgba.insert(p.rgba.end(), t, t + 4);
        }
    // CDetailModel::DrawTypeSprite: the quad from origin + ul.x right + ul.y up to lr, the
    // texture's upper left at ul (ul.y the top edge).
    p.world_rect = std::array<float, 4>{sprite.upper_left[0], sprite.lower_right[1],
                                        sprite.lower_right[0], sprite.upper_left[1]};
    return p;
}

content::SpriteOrientation orientationOf(uint8_t detail_orientation) {
    switch (detail_orientation) {
    case 1: // faces the eye (CDetailModel::ComputeAngles)
        return content::SpriteOrientation::Parallel;
    case 2: // faces the eye about z only
        return content::SpriteOrientation::FacingUpright;
    default: // the lump's angles
        return content::SpriteOrientation::Oriented;
    }
}

struct SpriteModels {
    const bsp::Map& map;
    const content::TextureInfo& material;
    EntityModelSet& set;
    // (dictionary entry, orientation, mirrored) -> index into set.models
    std::map<std::tuple<uint16_t, uint8_t, bool>, uint32_t> made;

    uint32_t get(uint16_t sprite, uint8_t orientation, bool mirror) {
        const auto key = std::make_tuple(sprite, orientation, mirror);
        if (const auto it = made.find(key); it != made.end())
            return it->second;
        content::Sprite s;
        s.version = 2;
        s.orientation = orientationOf(orientation);
        s.render_mode = (material.surface_flags & bsp::kSurfAlphaTest) != 0
                            ? content::SpriteRenderMode::AlphaTest
                            : content::SpriteRenderMode::IndexAlpha;
        s.pictures.push_back(cutPicture(material.image, map.detail_props.sprites[sprite], mirror));
        s.frames.push_back({});
        LoadedModel m;
        m.path = material.source + "#detail" + std::to_string(sprite);
        m.sprite = std::move(s);
        set.models.push_back(std::move(m));
        made.emplace(key, uint32_t(set.models.size() - 1));
        return uint32_t(set.models.size() - 1);
    }
};

DistanceFade detailFade(const glm::vec3& at) {
    DistanceFade f;
    const float start = kDetailFadeEnd - kDetailFadeLength;
    f.min_sq = start * start;
    f.max_sq = kDetailFadeEnd * kDetailFadeEnd;
    f.centre = at;
    return f;
}

void addModelProp(const bsp::DetailProp& d, const bsp::Map& map, ModelFiles& files,
                  EntityModelSet& set, uint32_t& not_drawn) {
    const PathModels& pm = files.get(map.detail_props.models[d.model]);
    for (uint32_t index = pm.first; index < pm.first + pm.count; ++index) {
        const LoadedModel& model = set.models[index];
        if (!model.mesh) {
            ++not_drawn;
            continue;
        }
        EntityModelInstance inst;
        inst.model = index;
        inst.origin = d.origin;
        inst.angles = d.angles;
        inst.pitch_down = true;
        inst.light = detailSpriteLight(d.lighting);
        inst.fade = detailFade(d.origin);
        inst.lighting = "detail prop lighting";
        finishPlacement(inst, model, map);
        set.instances.push_back(std::move(inst));
    }
}

} // namespace

std::string detailMaterialName(const bsp::Map& map) {
    for (const bsp::Entity& e : map.entities)
        if (e.classname() == "worldspawn" && !e.get("detailmaterial").empty())
            return std::string(e.get("detailmaterial"));
    return "detail/detailsprites";
}

glm::vec3 detailSpriteLight(const bsp::ColorRgbExp32& c) {
    const glm::vec3 linear = bsp::rgbExpToLinear(c) / 255.0f;
    const auto gamma = [](float x) {
        return std::min(std::pow(std::max(x, 0.0f), 1.0f / 2.2f), 1.0f);
    };
    return {gamma(linear.r), gamma(linear.g), gamma(linear.b)};
}

void addDetailProps(const bsp::Map& map, const content::FileSystem& fs, ModelFiles& files,
                    EntityModelSet& set) {
    const bsp::DetailProps& dp = map.detail_props;
    if (dp.props.empty())
        return;
    content::TextureInfo material;
    const std::string material_name = detailMaterialName(map);
    const bool any_sprite = std::any_of(dp.props.begin(), dp.props.end(), [](const auto& d) {
        return d.type != bsp::DetailType::Model;
    });
    const bool have_material = any_sprite &&
                               content::loadValveMaterialFile(fs, material_name, material) &&
                               material.image.valid();
    SpriteModels sprites{map, material, set, {}};
    uint32_t no_material = 0, not_drawn = 0;
    for (size_t k = 0; k < dp.props.size(); ++k) {
        const bsp::DetailProp& d = dp.props[k];
        if (d.type == bsp::DetailType::Model) {
            if (d.model < dp.models.size())
                addModelProp(d, map, files, set, not_drawn);
            continue;
        }
        if (!have_material || d.model >= dp.sprites.size()) {
            ++no_material;
            continue;
        }
        EntityModelInstance inst;
        const bool mirror = k % 2 == 0; // the first object is not flipped: mirrored
        inst.model = sprites.get(d.model, d.orientation, mirror);
        inst.origin = d.origin;
        inst.angles = d.angles;
        inst.pitch_down = true;
        inst.scale = d.scale;
        inst.render.blend = ModelBlend::Alpha; // translucent, tinted by its light
        inst.render.tint = detailSpriteLight(d.lighting);
        inst.fade = detailFade(d.origin);
        inst.lighting = "detail sprite lighting";
        finishPlacement(inst, set.models[inst.model], map);
        set.instances.push_back(std::move(inst));
    }
    if (no_material > 0)
        set.warnings.push_back("detail props: " + std::to_string(no_material) +
                               " sprites not drawn (material " + material_name + ": " +
                               (material.error.empty() ? "not found" : material.error) + ")");
    if (not_drawn > 0)
        set.warnings.push_back("detail props: " + std::to_string(not_drawn) +
                               " models not drawn (not studio meshes or not found)");
}

} // namespace scene
