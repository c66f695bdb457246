// Reads an exported glTF back with tinygltf (the loader, not our writer) and sums up what the
// export tests compare with the map: nodes, meshes, materials, images, triangles and the
// bounds of every vertex placed by its nodes' transforms.
#pragma once

#include <tiny_gltf.h>

#include <gtest/gtest.h>

#include <cstring>
#include <filesystem>
#include <limits>
#include <string>

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
