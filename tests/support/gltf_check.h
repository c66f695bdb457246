// Reads an exported glTF back with tinygltf (the loader, not our writer) and sums up what the
// export tests compare with the map: nodes, meshes, materials, images, triangles and the
// bounds of every vertex placed by its nodes' transforms, and how triangles are wound.
#pragma once

#include <tiny_gltf.h>

#include <gtest/gtest.h>

#include <cstring>
#include <filesystem>
#include <limits>
#include <string>

#include <glm/geometric.hpp>
#include <glm/gtc/matrix_transform.hpp>
#include <glm/gtc/quaternion.hpp>
#include <glm/mat4x4.hpp>
#include <glm/vec3.hpp>

namespace gltftest {

struct Summary {
    size_t nodes = 0, meshes = 0, primitives = 0, materials = 0, images = 0;
    uint64_t triangles = 0;
    glm::vec3 mins{std::numeric_limits<float>::max()};
    glm::vec3 maxs{std::numeric_limits<float>::lowest()};
    size_t with_lightmap_uv = 0; // primitives with TEXCOORD_1
    size_t with_colour = 0;      // primitives with COLOR_0
    // Triangles by winding: the counter-clockwise normal cross(b - a, c - a) against the NORMAL
    // of the first vertex. glTF's front faces are counter-clockwise (spec, "Meshes"). Front:
    // within 60 degrees of NORMAL; clockwise: within 60 degrees of -NORMAL; the rest (no area,
    // or a NORMAL across the triangle) cannot tell. Areas in square metres: the maps' fans
    // keep slivers whose third vertex sits a float's noise past the edge, wound either way.
    uint64_t front_ccw = 0, clockwise = 0, untold = 0;
    double front_area = 0.0, clockwise_area = 0.0;
};

inline bool load(const std::filesystem::path& path, tinygltf::Model& model) {
    tinygltf::TinyGLTF loader;
    std::string err, warn;
    const bool binary = path.extension() == ".glb";
    const bool ok = binary ? loader.LoadBinaryFromFile(&model, &err, &warn, path.string())
                           : loader.LoadASCIIFromFile(&model, &err, &warn, path.string());
    EXPECT_TRUE(ok) << path << ": " << err;
    EXPECT_TRUE(err.empty()) << err;
    EXPECT_TRUE(warn.empty()) << warn;
    return ok;
}

// Element i of a float VEC3 accessor.
inline glm::vec3 vec3At(const tinygltf::Model& model, int accessor, size_t i) {
    const tinygltf::Accessor& a = model.accessors[static_cast<size_t>(accessor)];
    const tinygltf::BufferView& v = model.bufferViews[static_cast<size_t>(a.bufferView)];
    const size_t stride = v.byteStride ? v.byteStride : 12;
    glm::vec3 out;
    std::memcpy(&out,
                model.buffers[static_cast<size_t>(v.buffer)].data.data() + v.byteOffset +
                    a.byteOffset + i * stride,
                sizeof out);
    return out;
}

// Index i of an unsigned short or unsigned int index accessor.
inline uint32_t indexAt(const tinygltf::Model& model, int accessor, size_t i) {
    const tinygltf::Accessor& a = model.accessors[static_cast<size_t>(accessor)];
    const tinygltf::BufferView& v = model.bufferViews[static_cast<size_t>(a.bufferView)];
    const unsigned char* p =
        model.buffers[static_cast<size_t>(v.buffer)].data.data() + v.byteOffset + a.byteOffset;
    if (a.componentType == TINYGLTF_COMPONENT_TYPE_UNSIGNED_SHORT) {
        uint16_t x;
        std::memcpy(&x, p + i * 2, sizeof x);
        return x;
    }
    uint32_t x;
    std::memcpy(&x, p + i * 4, sizeof x);
    return x;
}

inline void countWindings(const tinygltf::Model& model, const tinygltf::Primitive& p, Summary& s) {
    const int pos = p.attributes.at("POSITION"), nrm = p.attributes.at("NORMAL");
    const size_t count = model.accessors[static_cast<size_t>(p.indices)].count;
    for (size_t t = 0; t + 2 < count; t += 3) {
        const uint32_t i0 = indexAt(model, p.indices, t), i1 = indexAt(model, p.indices, t + 1),
                       i2 = indexAt(model, p.indices, t + 2);
        const glm::vec3 a = vec3At(model, pos, i0), e1 = vec3At(model, pos, i1) - a,
                        e2 = vec3At(model, pos, i2) - a;
        const glm::vec3 n = glm::cross(e1, e2);
        const float area = 0.5f * glm::length(n);
        const float c = area > 0.0f ? glm::dot(n, vec3At(model, nrm, i0)) / (2.0f * area) : 0.0f;
        if (c > 0.5f) {
            ++s.front_ccw;
            s.front_area += area;
        } else if (c < -0.5f) {
            ++s.clockwise;
            s.clockwise_area += area;
        } else {
            ++s.untold;
        }
    }
}

inline glm::mat4 localTransform(const tinygltf::Node& n) {
    glm::mat4 m(1.0f);
    if (n.translation.size() == 3)
        m = glm::translate(m, glm::vec3(static_cast<float>(n.translation[0]),
                                        static_cast<float>(n.translation[1]),
                                        static_cast<float>(n.translation[2])));
    if (n.rotation.size() == 4)
        m = m * glm::mat4_cast(glm::quat(
                    static_cast<float>(n.rotation[3]), static_cast<float>(n.rotation[0]),
                    static_cast<float>(n.rotation[1]), static_cast<float>(n.rotation[2])));
    return m;
}

inline void visit(const tinygltf::Model& model, int node, const glm::mat4& parent, Summary& s) {
    const tinygltf::Node& n = model.nodes[static_cast<size_t>(node)];
    const glm::mat4 world = parent * localTransform(n);
    if (n.mesh >= 0) {
        for (const tinygltf::Primitive& p : model.meshes[static_cast<size_t>(n.mesh)].primitives) {
            const tinygltf::Accessor& a =
                model.accessors[static_cast<size_t>(p.attributes.at("POSITION"))];
            const tinygltf::BufferView& v = model.bufferViews[static_cast<size_t>(a.bufferView)];
            const unsigned char* base = model.buffers[static_cast<size_t>(v.buffer)].data.data() +
                                        v.byteOffset + a.byteOffset;
            const size_t stride = v.byteStride ? v.byteStride : 12;
            for (size_t i = 0; i < a.count; ++i) {
                glm::vec3 pos;
                std::memcpy(&pos, base + i * stride, sizeof pos);
                const glm::vec3 w = glm::vec3(world * glm::vec4(pos, 1.0f));
                s.mins = glm::min(s.mins, w);
                s.maxs = glm::max(s.maxs, w);
            }
            s.triangles += model.accessors[static_cast<size_t>(p.indices)].count / 3;
            s.with_lightmap_uv += p.attributes.count("TEXCOORD_1");
            s.with_colour += p.attributes.count("COLOR_0");
            countWindings(model, p, s);
            ++s.primitives;
        }
    }
    for (int c : n.children)
        visit(model, c, world, s);
}

inline Summary summarize(const tinygltf::Model& model) {
    Summary s;
    s.nodes = model.nodes.size();
    s.meshes = model.meshes.size();
    s.materials = model.materials.size();
    s.images = model.images.size();
    const int scene = model.defaultScene >= 0 ? model.defaultScene : 0;
    EXPECT_LT(static_cast<size_t>(scene), model.scenes.size());
    if (static_cast<size_t>(scene) < model.scenes.size())
        for (int root : model.scenes[static_cast<size_t>(scene)].nodes)
            visit(model, root, glm::mat4(1.0f), s);
    return s;
}

// The first node whose extras hold "classname" == classname, or nullptr.
inline const tinygltf::Node* entityNode(const tinygltf::Model& model,
                                        const std::string& classname) {
    for (const tinygltf::Node& n : model.nodes)
        if (n.extras.IsObject() && n.extras.Has("classname") &&
            n.extras.Get("classname").Get<std::string>() == classname)
            return &n;
    return nullptr;
}

} // namespace gltftest
