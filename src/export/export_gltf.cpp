// glTF 2.0 through tinygltf (syoyo/tinygltf 2.7.0, Debian's libtinygltf-dev): its object model
// and JSON serialisation (nlohmann::json inside), so no JSON text is written here by hand.
// docs/export.md records why tinygltf and what its output looks like.
#include "export/export.h"

#include "content/image/image.h"
#include "core/parallel.h"

#include <tiny_gltf.h>

#include <chrono>
#include <cstring>
#include <fstream>
#include <map>
#include <system_error>

namespace exporter {

namespace {

using Clock = std::chrono::steady_clock;

double secondsSince(Clock::time_point start) {
    return std::chrono::duration<double>(Clock::now() - start).count();
}

// glTF constants (the specification's enums; tinygltf names them the same).
constexpr int kArrayBuffer = TINYGLTF_TARGET_ARRAY_BUFFER;
constexpr int kElementArrayBuffer = TINYGLTF_TARGET_ELEMENT_ARRAY_BUFFER;

// The pixels of one exported image, PNG-encoded.
struct PendingImage {
    std::string name; // file stem ("textures/base_wall/concrete", "lightmap_003")
    const content::Image* image = nullptr;
    content::Image owned; // lightmap pages converted to RGBA, base colours without glow
    int channels = 4;
    std::vector<uint8_t> png;
};

class GltfBuilder {
public:
    GltfBuilder(const MapBundle& bundle, const ExportScene& scene)
        : m_bundle(bundle), m_scene(scene) {
        m_model.buffers.emplace_back();
    }

    tinygltf::Model& model() { return m_model; }
    std::vector<PendingImage>& images() { return m_images; }

    // Everything but the image bytes, which are encoded afterwards (in parallel) and appended
    // by embedImages or written as files by the caller.
    void build(std::string_view generator) {
        m_model.asset.version = "2.0";
        m_model.asset.generator = std::string(generator);
        addSamplers();
        addTextures();
        addMaterials();
        addMeshes();
        addNodes();
        tinygltf::Scene s;
        s.name = m_bundle.map.name;
        s.nodes.assign(m_scene.roots.begin(), m_scene.roots.end());
        tinygltf::Value::Object extras;
        extras["bsp_file"] = tinygltf::Value(m_bundle.map.name);
        extras["bsp_format"] = tinygltf::Value(std::string(bsp::formatName(m_bundle.map.format)));
        extras["lightmap_scale"] = tinygltf::Value(static_cast<double>(m_scene.light_scale));
        s.extras = tinygltf::Value(std::move(extras));
        m_model.scenes.push_back(std::move(s));
        m_model.defaultScene = 0;
    }

    // .glb: images as buffer views of the one binary buffer.
    void embedImages() {
        for (size_t i = 0; i < m_images.size(); ++i) {
            tinygltf::Image& img = m_model.images[i];
            img.bufferView = addView(m_images[i].png.data(), m_images[i].png.size(), -1);
            img.mimeType = "image/png";
        }
    }

    // .gltf: images as files under `folder` (relative to the .gltf).
    void referenceImages(const std::string& folder) {
        for (size_t i = 0; i < m_images.size(); ++i)
            m_model.images[i].uri = folder + "/" + m_images[i].name + ".png";
    }

private:
    int addView(const void* data, size_t bytes, int target) {
        std::vector<unsigned char>& buf = m_model.buffers[0].data;
        while (buf.size() % 4)
            buf.push_back(0);
        tinygltf::BufferView view;
        view.buffer = 0;
        view.byteOffset = buf.size();
        view.byteLength = bytes;
        if (target >= 0)
            view.target = target;
        const auto* p = static_cast<const unsigned char*>(data);
        buf.insert(buf.end(), p, p + bytes);
        m_model.bufferViews.push_back(std::move(view));
        return static_cast<int>(m_model.bufferViews.size()) - 1;
    }

    template <typename T>
    int addAccessor(const std::vector<T>& values, int component, int type, int target,
                    bool normalized = false) {
        tinygltf::Accessor a;
        a.bufferView = addView(values.data(), values.size() * sizeof(T), target);
        a.componentType = component;
        a.type = type;
        a.count = values.size();
        a.normalized = normalized;
        m_model.accessors.push_back(std::move(a));
        return static_cast<int>(m_model.accessors.size()) - 1;
    }

    void addSamplers() {
        tinygltf::Sampler repeat;
        repeat.magFilter = TINYGLTF_TEXTURE_FILTER_LINEAR;
        repeat.minFilter = TINYGLTF_TEXTURE_FILTER_LINEAR_MIPMAP_LINEAR;
        repeat.wrapS = repeat.wrapT = TINYGLTF_TEXTURE_WRAP_REPEAT;
        tinygltf::Sampler clamp;
        clamp.magFilter = clamp.minFilter = TINYGLTF_TEXTURE_FILTER_LINEAR;
        clamp.wrapS = clamp.wrapT = TINYGLTF_TEXTURE_WRAP_CLAMP_TO_EDGE;
        m_model.samplers = {repeat, clamp};
    }

    int addImageTexture(PendingImage pending, int sampler) {
        tinygltf::Image img;
        img.name = pending.name;
        m_model.images.push_back(std::move(img));
        m_images.push_back(std::move(pending));
        tinygltf::Texture tex;
        tex.source = static_cast<int>(m_model.images.size()) - 1;
        tex.sampler = sampler;
        m_model.textures.push_back(std::move(tex));
        return static_cast<int>(m_model.textures.size()) - 1;
    }

    void addTextures() {
        std::vector<std::string> names;
        for (int32_t m : m_scene.textures)
            names.push_back(m_bundle.map.materials[static_cast<size_t>(m)].name);
        const std::vector<std::string> stems = uniqueTextureStems(names);
        for (size_t i = 0; i < m_scene.textures.size(); ++i) {
            const auto m = static_cast<size_t>(m_scene.textures[i]);
            const content::TextureInfo* info =
                m < m_bundle.textures.size() ? &m_bundle.textures[m] : nullptr;
            if (!info || !info->image.valid())
                continue;
            PendingImage base;
            base.name = stems[i];
            base.image = &info->image;
            const bool glows = info->glow.valid() && info->glow.width == info->image.width &&
                               info->glow.height == info->image.height;
            if (glows) {
                // glTF adds the emissive colour to the lit base colour; the renderer puts a
                // fullbright texel in place of the lit one (world.frag.glsl GLOW: mix by the
                // glow's alpha). So the base colour is darkened where the texel glows: lit
                // base + emission then gives the same colour.
                base.image = nullptr;
                base.owned = info->image;
                for (size_t t = 0; t < base.owned.rgba.size(); t += 4)
                    for (size_t c = 0; c < 3; ++c)
                        base.owned.rgba[t + c] = static_cast<uint8_t>(
                            base.owned.rgba[t + c] * (255 - info->glow.rgba[t + 3]) / 255);
            }
            m_texture_of[m_scene.textures[i]] = addImageTexture(std::move(base), 0);
            if (glows) {
                PendingImage glow;
                glow.name = stems[i] + "_glow";
                glow.image = &info->glow;
                glow.channels = 3;
                m_glow_of[m_scene.textures[i]] = addImageTexture(std::move(glow), 0);
            }
        }
        const LightmapSet& set = m_bundle.lightmaps;
        for (int32_t page : m_scene.pages) {
            PendingImage p;
            char name[32];
            std::snprintf(name, sizeof(name), "lightmap_%03d", page);
            p.name = name;
            p.channels = 3;
            p.owned.width = set.width;
            p.owned.height = set.height;
            const std::vector<uint8_t>& rgb = set.pages[static_cast<size_t>(page)].rgb;
            p.owned.rgba.resize(rgb.size() / 3 * 4);
            for (size_t t = 0; t < rgb.size() / 3; ++t) {
                const glm::u8vec3 texel =
                    savedTexel(m_scene, {rgb[t * 3], rgb[t * 3 + 1], rgb[t * 3 + 2]});
                p.owned.rgba[t * 4] = texel.r;
                p.owned.rgba[t * 4 + 1] = texel.g;
                p.owned.rgba[t * 4 + 2] = texel.b;
                p.owned.rgba[t * 4 + 3] = 255;
            }
            m_page_of[page] = addImageTexture(std::move(p), 1);
        }
    }

    void addMaterials() {
        for (const ExportMaterial& em : m_scene.materials) {
            tinygltf::Material mat;
            mat.name = em.name;
            auto& pbr = mat.pbrMetallicRoughness;
            pbr.baseColorFactor = {1.0, 1.0, 1.0, static_cast<double>(em.alpha)};
            pbr.metallicFactor = 0.0;
            pbr.roughnessFactor = 1.0;
            if (auto t = m_texture_of.find(em.material); t != m_texture_of.end())
                pbr.baseColorTexture.index = t->second;
            if (auto g = m_glow_of.find(em.material); g != m_glow_of.end()) {
                mat.emissiveTexture.index = g->second;
                mat.emissiveFactor = {1.0, 1.0, 1.0};
            }
            mat.alphaMode = std::string(alphaModeName(em.alpha_mode));
            mat.doubleSided = em.double_sided;
            tinygltf::Value::Object extras;
            extras["bsp_material"] =
                tinygltf::Value(m_bundle.map.materials[static_cast<size_t>(em.material)].name);
            if (em.page >= 0) {
                mat.occlusionTexture.index = m_page_of.at(em.page);
                mat.occlusionTexture.texCoord = 1;
                extras["lightmap_page"] = tinygltf::Value(static_cast<int>(em.page));
                extras["lightmap_texture"] = tinygltf::Value(m_page_of.at(em.page));
                extras["lightmap_scale"] =
                    tinygltf::Value(static_cast<double>(m_scene.light_scale));
            }
            mat.extras = tinygltf::Value(std::move(extras));
            m_model.materials.push_back(std::move(mat));
        }
    }

    void addMeshes() {
        m_mesh_of.assign(m_scene.meshes.size(), -1);
        for (size_t i = 0; i < m_scene.meshes.size(); ++i) {
            if (m_scene.meshes[i].empty())
                continue;
            tinygltf::Mesh mesh;
            mesh.name = i == 0 ? std::string("world") : "*" + std::to_string(i);
            for (const ExportPrimitive& p : m_scene.meshes[i])
                mesh.primitives.push_back(addPrimitive(p));
            m_model.meshes.push_back(std::move(mesh));
            m_mesh_of[i] = static_cast<int>(m_model.meshes.size()) - 1;
        }
    }

    tinygltf::Primitive addPrimitive(const ExportPrimitive& p) {
        tinygltf::Primitive out;
        out.mode = TINYGLTF_MODE_TRIANGLES;
        out.material = static_cast<int>(p.material);
        const int pos = addAccessor(p.positions, TINYGLTF_COMPONENT_TYPE_FLOAT, TINYGLTF_TYPE_VEC3,
                                    kArrayBuffer);
        m_model.accessors[static_cast<size_t>(pos)].minValues = {p.mins.x, p.mins.y, p.mins.z};
        m_model.accessors[static_cast<size_t>(pos)].maxValues = {p.maxs.x, p.maxs.y, p.maxs.z};
        out.attributes["POSITION"] = pos;
        out.attributes["NORMAL"] =
            addAccessor(p.normals, TINYGLTF_COMPONENT_TYPE_FLOAT, TINYGLTF_TYPE_VEC3, kArrayBuffer);
        out.attributes["TEXCOORD_0"] =
            addAccessor(p.uv, TINYGLTF_COMPONENT_TYPE_FLOAT, TINYGLTF_TYPE_VEC2, kArrayBuffer);
        if (!p.lm_uv.empty())
            out.attributes["TEXCOORD_1"] = addAccessor(p.lm_uv, TINYGLTF_COMPONENT_TYPE_FLOAT,
                                                       TINYGLTF_TYPE_VEC2, kArrayBuffer);
        if (!p.colours.empty())
            out.attributes["COLOR_0"] =
                addAccessor(p.colours, TINYGLTF_COMPONENT_TYPE_UNSIGNED_BYTE, TINYGLTF_TYPE_VEC4,
                            kArrayBuffer, true);
        if (p.positions.size() <= 0xFFFF) {
            std::vector<uint16_t> narrow(p.indices.begin(), p.indices.end());
            out.indices = addAccessor(narrow, TINYGLTF_COMPONENT_TYPE_UNSIGNED_SHORT,
                                      TINYGLTF_TYPE_SCALAR, kElementArrayBuffer);
        } else {
            out.indices = addAccessor(p.indices, TINYGLTF_COMPONENT_TYPE_UNSIGNED_INT,
                                      TINYGLTF_TYPE_SCALAR, kElementArrayBuffer);
        }
        return out;
    }

    void addNodes() {
        for (const ExportNode& n : m_scene.nodes) {
            tinygltf::Node node;
            node.name = n.name;
            if (n.mesh >= 0)
                node.mesh = m_mesh_of[static_cast<size_t>(n.mesh)];
            if (n.translation != glm::vec3(0.0f))
                node.translation = {n.translation.x, n.translation.y, n.translation.z};
            if (n.rotation != glm::quat(1.0f, 0.0f, 0.0f, 0.0f))
                node.rotation = {n.rotation.x, n.rotation.y, n.rotation.z, n.rotation.w};
            node.children.assign(n.children.begin(), n.children.end());
            if (n.entity >= 0) {
                // Keys are unique in extras: a repeated key (rare; the games read the first)
                // gets "#2", "#3", ... appended.
                tinygltf::Value::Object extras;
                for (const auto& [key, value] : n.extras) {
                    std::string k = key;
                    for (int dup = 2; extras.count(k); ++dup)
                        k = key + "#" + std::to_string(dup);
                    extras[k] = tinygltf::Value(value);
                }
                node.extras = tinygltf::Value(std::move(extras));
            }
            m_model.nodes.push_back(std::move(node));
        }
    }

    const MapBundle& m_bundle;
    const ExportScene& m_scene;
    tinygltf::Model m_model;
    std::vector<PendingImage> m_images;
    std::map<int32_t, int> m_texture_of, m_glow_of, m_page_of;
    std::vector<int> m_mesh_of;
};

void encodeImages(std::vector<PendingImage>& images) {
    core::parallelFor(images.size(), [&](size_t i) {
        PendingImage& p = images[i];
        p.png = content::encodePng(p.image ? *p.image : p.owned, p.channels);
    });
}

core::Result<uint64_t> writeBytes(const std::filesystem::path& path,
                                  std::span<const uint8_t> bytes) {
    std::error_code ec;
    if (path.has_parent_path())
        std::filesystem::create_directories(path.parent_path(), ec);
    std::ofstream f(path, std::ios::binary | std::ios::trunc);
    if (!f || !f.write(reinterpret_cast<const char*>(bytes.data()),
                       static_cast<std::streamsize>(bytes.size())))
        return writeError(path, "cannot write " + std::to_string(bytes.size()) + " bytes");
    return static_cast<uint64_t>(bytes.size());
}

} // namespace

core::Result<ExportResult> writeGltf(const MapBundle& bundle, const ExportScene& scene,
                                     const std::filesystem::path& out, bool binary,
                                     std::string_view generator) {
    ExportResult r;
    r.format = binary ? ExportFormat::Glb : ExportFormat::Gltf;
    GltfBuilder b(bundle, scene);
    b.build(generator);

    auto start = Clock::now();
    encodeImages(b.images());
    for (const PendingImage& p : b.images())
        if (p.png.empty())
            return writeError(out, "cannot encode image '" + p.name + "' as PNG");
    r.images_s = secondsSince(start);

    start = Clock::now();
    std::error_code ec;
    if (out.has_parent_path())
        std::filesystem::create_directories(out.parent_path(), ec);
    tinygltf::TinyGLTF writer;
    writer.SetImageWriter(nullptr, nullptr); // images are written (or embedded) here
    tinygltf::Model& model = b.model();
    std::vector<std::filesystem::path> extra_files;
    if (binary) {
        b.embedImages();
    } else {
        const std::string stem = out.stem().string();
        b.referenceImages(stem + "_images");
        model.buffers[0].uri = stem + ".bin";
        for (const PendingImage& p : b.images()) {
            const std::filesystem::path file =
                out.parent_path() / (stem + "_images") / (p.name + ".png");
            auto written = writeBytes(file, p.png);
            if (!written)
                return written.error();
            extra_files.push_back(file);
        }
        extra_files.insert(extra_files.begin(), out.parent_path() / (stem + ".bin"));
    }
    if (binary) {
        // tinygltf's own .glb file writer does not report a file it could not open.
        std::ofstream f(out, std::ios::binary | std::ios::trunc);
        if (!f)
            return writeError(out, "cannot create the file");
        if (!writer.WriteGltfSceneToStream(&model, f, false, true) || !f.flush())
            return writeError(out, "write failed");
    } else if (!writer.WriteGltfSceneToFile(&model, out.string(), false, false, true, false)) {
        return writeError(out, "tinygltf could not write the file or its .bin");
    }
    r.write_s = secondsSince(start);

    r.files.push_back(out);
    r.files.insert(r.files.end(), extra_files.begin(), extra_files.end());
    for (const std::filesystem::path& f : r.files)
        r.bytes += fileSize(f);
    r.nodes = model.nodes.size();
    r.meshes = model.meshes.size();
    for (const tinygltf::Mesh& m : model.meshes)
        r.primitives += m.primitives.size();
    r.materials = model.materials.size();
    r.images = model.images.size();
    r.triangles = scene.triangles;
    r.mins = scene.mins;
    r.maxs = scene.maxs;
    return r;
}

} // namespace exporter
