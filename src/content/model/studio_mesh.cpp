// Half-Life studio models posed and drawn (studio.h): bone transforms, body choices, bone
// controllers, and the ModelMesh every frame, body part and skin family gives.
#include "content/model/studio.h"

#include <glm/gtc/quaternion.hpp>
#include <glm/mat3x3.hpp>

#include <algorithm>
#include <cmath>
#include <map>
#include <numbers>

namespace content {

namespace {

glm::mat3 boneRotation(float x, float y, float z) {
    // AngleQuaternion (HLSDK mathlib.c): roll about x, then pitch about y, then yaw about z.
    const glm::quat q = glm::angleAxis(z, glm::vec3(0, 0, 1)) *
                        glm::angleAxis(y, glm::vec3(0, 1, 0)) *
                        glm::angleAxis(x, glm::vec3(1, 0, 0));
    return glm::mat3_cast(q);
}

// The atlas the skin references' textures are stacked in: one slot per reference, sized by
// family 0's texture, placed in shelves.
struct Slot {
    int x = 0, y = 0, w = 1, h = 1;
};
struct Atlas {
    std::vector<Slot> slots;
    int width = 1, height = 1;
    bool textured = false;
};

Atlas packAtlas(const StudioModel& model) {
    Atlas a;
    a.slots.resize(model.skin_refs);
    a.textured = !model.textures.empty() && !model.skin_families.empty();
    if (!a.textured)
        return a;
    uint64_t area = 0;
    for (uint32_t k = 0; k < model.skin_refs; ++k) {
        const StudioTexture& t = model.textures[model.skin_families[0][k]];
        a.slots[k].w = t.width;
        a.slots[k].h = t.height;
        a.width = std::max(a.width, t.width);
        area += uint64_t(t.width) * uint64_t(t.height);
    }
    a.width = std::max(a.width, int(std::ceil(std::sqrt(double(area)))));
    int x = 0, y = 0, shelf = 0;
    for (Slot& s : a.slots) {
        if (x + s.w > a.width) {
            x = 0;
            y += shelf;
            shelf = 0;
        }
        s.x = x;
        s.y = y;
        x += s.w;
        shelf = std::max(shelf, s.h);
    }
    a.height = std::max(1, y + shelf);
    return a;
}

// The drawn vertices, one per (part, mesh skin, vertex, normal, s, t), and the meshes' index runs.
struct Source {
    const StudioSubModel* model;
    uint16_t vertex, normal;
};
struct DrawnMesh {
    uint32_t first_index, index_count, skinref; // skinref ~0u: no texture
};
struct Drawn {
    std::vector<Source> sources;
    std::vector<DrawnMesh> meshes;
};

// The chosen model of every body part into mesh.uv and mesh.indices.
Drawn gatherVertices(const StudioModel& model, const std::vector<uint32_t>& chosen,
                     const Atlas& atlas, ModelMesh& mesh) {
    Drawn d;
    std::map<std::array<int32_t, 6>, uint32_t> drawn;
    for (size_t p = 0; p < model.body_parts.size(); ++p) {
        if (model.body_parts[p].models.empty())
            continue;
        const StudioSubModel& sub = model.body_parts[p].models[chosen[p]];
        for (const StudioMesh& m : sub.meshes) {
            const bool has_slot = atlas.textured && m.skinref < model.skin_refs;
            const Slot slot = has_slot ? atlas.slots[m.skinref] : Slot{};
            for (const StudioCorner& c : m.corners) {
                const std::array<int32_t, 6> key{
                    int32_t(p), int32_t(m.skinref), c.vertex, c.normal, c.s, c.t};
                auto [it, added] = drawn.try_emplace(key, uint32_t(d.sources.size()));
                if (added) {
                    d.sources.push_back({&sub, c.vertex, c.normal});
                    const float s = std::clamp(float(c.s), 0.0f, float(slot.w));
                    const float t = std::clamp(float(c.t), 0.0f, float(slot.h));
                    mesh.uv.push_back(
                        {has_slot ? (float(slot.x) + s) / float(atlas.width) : 0.0f,
                         has_slot ? (float(slot.y) + t) / float(atlas.height) : 0.0f});
                }
                mesh.indices.push_back(it->second);
            }
            d.meshes.push_back({uint32_t(mesh.indices.size() - m.corners.size()),
                                uint32_t(m.corners.size()), has_slot ? m.skinref : ~0u});
        }
    }
    mesh.vertex_count = uint32_t(d.sources.size());
    return d;
}

// Each sampled frame, or the bones' rest values, moved by the bone controllers.
std::vector<std::vector<StudioBoneFrame>> posedFrames(const StudioModel& model,
                                                      const StudioControllerSettings& controllers) {
    std::vector<std::vector<StudioBoneFrame>> frames = model.frames;
    if (frames.empty()) {
        frames.emplace_back();
        for (const StudioBone& b : model.bones)
            frames.back().push_back(b.value);
    }
    const std::vector<float> adj = studioControllerAdjustments(model, controllers);
    for (std::vector<StudioBoneFrame>& frame : frames)
        for (size_t b = 0; b < frame.size() && b < model.bones.size(); ++b)
            for (size_t k = 0; k < 6; ++k) {
                const int32_t c = model.bones[b].controllers[k];
                if (c >= 0 && size_t(c) < adj.size())
                    frame[b][k] += adj[size_t(c)];
            }
    return frames;
}

// Every vertex in every frame: moved by its bone, its normal turned by its normal's bone; the
// bounds over them all.
void poseVertices(const StudioModel& model, const std::vector<std::vector<StudioBoneFrame>>& frames,
                  const std::vector<Source>& sources, ModelMesh& mesh) {
    mesh.pose_count = uint32_t(frames.size());
    mesh.positions.resize(size_t(mesh.pose_count) * mesh.vertex_count);
    mesh.normals.resize(mesh.positions.size());
    mesh.mins = {INFINITY, INFINITY, INFINITY};
    mesh.maxs = {-INFINITY, -INFINITY, -INFINITY};
    for (uint32_t f = 0; f < mesh.pose_count; ++f) {
        const auto bones = studioBoneTransforms(model.bones, frames[f]);
        for (uint32_t v = 0; v < mesh.vertex_count; ++v) {
            const Source& src = sources[v];
            const auto& m = bones[src.model->vertex_bones[src.vertex]];
            const auto& p = src.model->vertices[src.vertex];
            const auto& nm = bones[src.model->normal_bones[src.normal]];
            const auto& n = src.model->normals[src.normal];
            std::array<float, 3> out{}, nout{};
            for (size_t k = 0; k < 3; ++k) {
                out[k] = m[k * 4] * p[0] + m[k * 4 + 1] * p[1] + m[k * 4 + 2] * p[2] + m[k * 4 + 3];
                nout[k] = nm[k * 4] * n[0] + nm[k * 4 + 1] * n[1] + nm[k * 4 + 2] * n[2];
                mesh.mins[k] = std::min(mesh.mins[k], out[k]);
                mesh.maxs[k] = std::max(mesh.maxs[k], out[k]);
            }
            const float len = std::sqrt(nout[0] * nout[0] + nout[1] * nout[1] + nout[2] * nout[2]);
            mesh.normals[size_t(f) * mesh.vertex_count + v] =
                len > 0 && std::isfinite(len)
                    ? std::array<float, 3>{nout[0] / len, nout[1] / len, nout[2] / len}
                    : std::array<float, 3>{0, 0, 1};
            mesh.positions[size_t(f) * mesh.vertex_count + v] = out;
        }
    }
}

// The one frame: the sampled sequence's poses, frame_time apart.
ModelFrame sequenceFrame(const StudioModel& model, uint32_t pose_count) {
    ModelFrame frame;
    frame.name = model.frames_sequence < model.sequences.size()
                     ? model.sequences[model.frames_sequence].label
                     : std::string("rest");
    frame.poses.first = 0;
    frame.poses.count = pose_count;
    if (pose_count > 1)
        for (uint32_t i = 0; i < pose_count; ++i)
            frame.poses.end_times.push_back(model.frame_time * float(i + 1));
    return frame;
}

// A drawn mesh's range by the flags of the texture `t` (nullptr: none) in `slot`.
ModelDrawRange rangeOf(const DrawnMesh& dm, const StudioTexture* t, const Slot& slot,
                       const Atlas& atlas) {
    const uint32_t flags = t ? t->flags : 0;
    ModelDrawRange range;
    range.first_index = dm.first_index;
    range.index_count = dm.index_count;
    // R_StudioDrawPoints tests masked before additive.
    range.masked = (flags & kStudioMasked) != 0;
    range.additive = (flags & kStudioAdditive) != 0 && !range.masked;
    range.chrome = (flags & kStudioChrome) != 0;
    range.flat = (flags & kStudioFlatShade) != 0;
    if (range.chrome) {
        // Xash3D R_StudioSetupChrome: (n + 1) * 32 texels over the texture's size; the texture
        // fills its slot, whatever its size.
        range.chrome_rect = {float(slot.x) / float(atlas.width),
                             float(slot.y) / float(atlas.height),
                             float(slot.x + slot.w) / float(atlas.width),
                             float(slot.y + slot.h) / float(atlas.height)};
        range.chrome_scale = {32.0f / float(t->width), 32.0f / float(t->height)};
    }
    return range;
}

// Each mesh a draw range by the flags of the texture family `f` gives its reference;
// consecutive plain meshes merge.
std::vector<ModelDrawRange> familyRanges(const StudioModel& model, const Atlas& atlas,
                                         const std::vector<DrawnMesh>& meshes, size_t f) {
    std::vector<ModelDrawRange> ranges;
    for (const DrawnMesh& dm : meshes) {
        const bool textured = dm.skinref != ~0u;
        const StudioTexture* t =
            textured ? &model.textures[model.skin_families[f][dm.skinref]] : nullptr;
        const ModelDrawRange range =
            rangeOf(dm, t, textured ? atlas.slots[dm.skinref] : Slot{}, atlas);
        ModelDrawRange* last = ranges.empty() ? nullptr : &ranges.back();
        if (last && !range.chrome && !last->chrome && last->additive == range.additive &&
            last->masked == range.masked && last->flat == range.flat)
            last->index_count += range.index_count;
        else if (range.index_count > 0)
            ranges.push_back(range);
    }
    return ranges;
}

// Family `f`'s image: every slot filled from that family's texture (scaled to the slot by
// nearest texel when its size differs from family 0's). A masked texture's mask marks its cut
// texels (index 255) instead of fullbright ones, so a masked texture is not also fullbright.
ModelImage familyImage(const StudioModel& model, const Atlas& atlas, size_t f,
                       const ByteTable* table) {
    ModelImage img;
    img.width = atlas.width;
    img.height = atlas.height;
    img.rgba.assign(size_t(atlas.width) * size_t(atlas.height) * 4, 255);
    std::vector<uint8_t> bright(size_t(atlas.width) * size_t(atlas.height), 0);
    bool any_bright = false;
    for (uint32_t k = 0; atlas.textured && k < model.skin_refs; ++k) {
        const StudioTexture& t = model.textures[model.skin_families[f][k]];
        const Slot& s = atlas.slots[k];
        const bool masked = (t.flags & kStudioMasked) != 0;
        const bool fullbright = (t.flags & kStudioFullbright) != 0 && !masked;
        any_bright |= fullbright || masked;
        for (int y = 0; y < s.h; ++y)
            for (int x = 0; x < s.w; ++x) {
                const size_t src =
                    size_t(y * t.height / s.h) * size_t(t.width) + size_t(x * t.width / s.w);
                const uint8_t i = t.indices[src];
                const size_t dst = size_t(s.y + y) * size_t(atlas.width) + size_t(s.x + x);
                for (size_t c = 0; c < 3; ++c) {
                    const uint8_t v = t.palette[size_t(i) * 3 + c];
                    img.rgba[dst * 4 + c] = table && !masked ? (*table)[v] : v;
                }
                if (fullbright || (masked && i == 255))
                    bright[dst] = 255;
            }
    }
    if (any_bright)
        img.fullbright = std::move(bright);
    return img;
}

} // namespace

std::vector<std::array<float, 12>> studioBoneTransforms(std::span<const StudioBone> bones,
                                                        std::span<const StudioBoneFrame> frame) {
    std::vector<std::array<float, 12>> out(bones.size());
    std::vector<glm::mat3> rot(bones.size());
    std::vector<glm::vec3> pos(bones.size());
    for (size_t b = 0; b < bones.size(); ++b) {
        const StudioBoneFrame& f = b < frame.size() ? frame[b] : bones[b].value;
        glm::mat3 r = boneRotation(f[3], f[4], f[5]);
        glm::vec3 t(f[0], f[1], f[2]);
        const int32_t parent = bones[b].parent;
        if (parent >= 0 && size_t(parent) < b) { // parseStudio checks; callers may not
            t = rot[size_t(parent)] * t + pos[size_t(parent)];
            r = rot[size_t(parent)] * r;
        }
        rot[b] = r;
        pos[b] = t;
        for (int row = 0; row < 3; ++row) {
            for (int col = 0; col < 3; ++col)
                out[b][size_t(row * 4 + col)] = r[col][row];
            out[b][size_t(row * 4 + 3)] = t[row];
        }
    }
    return out;
}

std::vector<uint32_t> studioBodyModels(const StudioModel& model, int32_t body) {
    std::vector<uint32_t> chosen;
    const int64_t value = std::max<int64_t>(body, 0);
    for (const StudioBodyPart& part : model.body_parts) {
        const int64_t base = std::max<int64_t>(part.base, 1);
        chosen.push_back(
            part.models.empty() ? 0 : uint32_t((value / base) % int64_t(part.models.size())));
    }
    return chosen;
}

StudioControllerSettings studioInitControllers(const StudioModel& model) {
    StudioControllerSettings out{};
    for (int32_t index = 0; index < 4; ++index) {
        // SetController takes the first controller with the index.
        const auto c = std::find_if(model.controllers.begin(), model.controllers.end(),
                                    [&](const StudioController& sc) { return sc.index == index; });
        if (c == model.controllers.end())
            continue;
        // The arithmetic of SetController: the value and the setting in float, the range's
        // middle in double.
        float value = 0.0f;
        const float start = c->start, end = c->end;
        if ((c->type & (kStudioXR | kStudioYR | kStudioZR)) != 0 &&
            double(start) + 359.0 >= double(end)) {
            // (end < start negates the value, and a range past a full turn brings it into
            // 0..360: neither changes 0.)
            const double middle = (double(start) + double(end)) / 2.0;
            if (double(value) > middle + 180.0)
                value -= 360.0f;
            if (double(value) < middle - 180.0)
                value += 360.0f;
        }
        const float setting = 255.0f * (value - start) / (end - start);
        // Truncated toward zero as the int conversion does; a 0-wide range counts as 0.
        out[size_t(index)] =
            std::isfinite(setting) ? uint8_t(std::clamp(std::trunc(setting), 0.0f, 255.0f)) : 0;
    }
    return out;
}

std::vector<float> studioControllerAdjustments(const StudioModel& model,
                                               const StudioControllerSettings& settings) {
    std::vector<float> adj(model.controllers.size(), 0.0f);
    for (size_t j = 0; j < model.controllers.size(); ++j) {
        const StudioController& c = model.controllers[j];
        float value = 0.0f;
        if (c.index == kStudioMouth) {
            value = c.start; // mouthopen 0
        } else if (c.index >= 0 && c.index < 4) {
            const float s = float(settings[size_t(c.index)]);
            if ((c.type & kStudioRLoop) != 0)
                value = s * (360.0f / 256.0f) + c.start;
            else
                value = (1.0f - s / 255.0f) * c.start + (s / 255.0f) * c.end;
        }
        switch (c.type & kStudioTypes) {
        case kStudioXR:
        case kStudioYR:
        case kStudioZR:
            adj[j] = value * std::numbers::pi_v<float> / 180.0f;
            break;
        case kStudioX:
        case kStudioY:
        case kStudioZ:
            adj[j] = value;
            break;
        default:
            break;
        }
        if (!std::isfinite(adj[j]))
            adj[j] = 0.0f;
    }
    return adj;
}

ModelMesh buildStudioMesh(const StudioModel& model, int32_t body,
                          const StudioControllerSettings& controllers,
                          const ByteTable* palette_table) {
    ModelMesh mesh;
    const Atlas atlas = packAtlas(model);
    const Drawn drawn = gatherVertices(model, studioBodyModels(model, body), atlas, mesh);
    poseVertices(model, posedFrames(model, controllers), drawn.sources, mesh);
    mesh.frames.push_back(sequenceFrame(model, mesh.pose_count));
    // An image per skin family, and the family's draw ranges: its own textures' flags
    // (R_StudioDrawPoints reads the flags of the texture the entity's skin family puts in the
    // mesh's reference).
    const size_t families = atlas.textured ? model.skin_families.size() : 1;
    for (size_t f = 0; f < families; ++f) {
        mesh.images.push_back(familyImage(model, atlas, f, palette_table));
        mesh.skins.push_back({TimedRun{uint32_t(f), 1, {}}});
        std::vector<ModelDrawRange> ranges = familyRanges(model, atlas, drawn.meshes, f);
        mesh.skin_ranges.emplace_back();
        if (f == 0)
            mesh.ranges = std::move(ranges);
        else if (ranges != mesh.ranges)
            mesh.skin_ranges.back() = std::move(ranges);
    }
    if (mesh.vertex_count == 0) {
        mesh.mins = {0, 0, 0};
        mesh.maxs = {0, 0, 0};
        mesh.mins[0] = 1; // mins > maxs: no vertex (model_mesh.h)
    }
    return mesh;
}

} // namespace content
