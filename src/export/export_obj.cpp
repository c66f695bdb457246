// Wavefront OBJ + MTL. OBJ has no node hierarchy and one uv set: every node's mesh is written
// placed by its node's transforms as one `o` object, and lighting can only travel as vertex
// colours ("v x y z r g b", read by Blender, MeshLab and three.js's OBJLoader).
#include "export/export.h"

#include "content/image/image.h"
#include "core/parallel.h"

#include <charconv>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <memory>
#include <system_error>

#include <glm/gtc/matrix_transform.hpp>
#include <glm/mat3x3.hpp>
#include <glm/mat4x4.hpp>

namespace exporter {

namespace {

// Buffered text output with shortest round-trip float formatting (std::to_chars).
class TextOut {
public:
    explicit TextOut(const std::filesystem::path& path)
        : m_file(std::fopen(path.string().c_str(), "wb")) {}
    ~TextOut() {
        if (m_file)
            std::fclose(m_file);
    }
    TextOut(const TextOut&) = delete;
    TextOut& operator=(const TextOut&) = delete;

    bool open() const { return m_file != nullptr; }
    TextOut& operator<<(std::string_view s) {
        m_buf.append(s);
        flushIfFull();
        return *this;
    }
    TextOut& operator<<(char c) {
        m_buf.push_back(c);
        return *this;
    }
    template <typename T> TextOut& num(T v) {
        char tmp[32];
        const auto r = std::to_chars(tmp, tmp + sizeof(tmp), v);
        m_buf.append(tmp, r.ptr);
        flushIfFull();
        return *this;
    }
    // Flushes and closes; false when any write failed.
    bool close() {
        bool ok = m_file && flush();
        if (m_file && std::fclose(m_file) != 0)
            ok = false;
        m_file = nullptr;
        return ok;
    }

private:
    bool flush() {
        const bool ok = std::fwrite(m_buf.data(), 1, m_buf.size(), m_file) == m_buf.size();
        m_buf.clear();
        m_failed |= !ok;
        return ok && !m_failed;
    }
    void flushIfFull() {
        if (m_buf.size() > (1u << 20))
            flush();
    }

    std::FILE* m_file = nullptr;
    std::string m_buf;
    bool m_failed = false;
};

// Node -> its transform in the export frame, parents applied.
std::vector<glm::mat4> nodeTransforms(const ExportScene& scene) {
    std::vector<glm::mat4> world(scene.nodes.size(), glm::mat4(1.0f));
    std::vector<int32_t> parent(scene.nodes.size(), -1);
    for (size_t i = 0; i < scene.nodes.size(); ++i)
        for (uint32_t c : scene.nodes[i].children)
            parent[c] = static_cast<int32_t>(i);
    for (size_t i = 0; i < scene.nodes.size(); ++i)
        for (int32_t at = static_cast<int32_t>(i); at >= 0; at = parent[static_cast<size_t>(at)]) {
            const ExportNode& n = scene.nodes[static_cast<size_t>(at)];
            world[i] = glm::translate(glm::mat4(1.0f), n.translation) * glm::mat4_cast(n.rotation) *
                       world[i];
        }
    return world;
}

// The textures written beside the OBJ: per map material, its PNG's path relative to the OBJ
// (empty: none), and every file written.
struct ObjTextures {
    std::vector<std::string> file_of;
    std::vector<std::filesystem::path> image_files;
};

// One PNG per map material the scene uses, into `dir`/`tex_folder`.
core::Result<ObjTextures> writeObjTextures(const MapBundle& bundle, const ExportScene& scene,
                                           const std::filesystem::path& dir,
                                           const std::string& tex_folder) {
    std::vector<std::string> tex_names;
    for (int32_t m : scene.textures)
        tex_names.push_back(bundle.map.materials[static_cast<size_t>(m)].name);
    const std::vector<std::string> tex_stems = uniqueTextureStems(tex_names);
    std::vector<std::vector<uint8_t>> pngs(scene.textures.size());
    core::parallelFor(scene.textures.size(), [&](size_t i) {
        const auto m = static_cast<size_t>(scene.textures[i]);
        if (m < bundle.textures.size())
            pngs[i] = content::encodePng(curvesTextures(scene)
                                             ? exportedTexture(scene, bundle.textures[m].image)
                                             : bundle.textures[m].image);
    });
    ObjTextures t;
    t.file_of.resize(bundle.map.materials.size());
    std::error_code ec;
    for (size_t i = 0; i < scene.textures.size(); ++i) {
        if (pngs[i].empty())
            continue;
        const std::string rel = tex_folder + "/" + tex_stems[i] + ".png";
        const std::filesystem::path path = dir / rel;
        std::filesystem::create_directories(path.parent_path(), ec);
        std::ofstream f(path, std::ios::binary | std::ios::trunc);
        if (!f || !f.write(reinterpret_cast<const char*>(pngs[i].data()),
                           static_cast<std::streamsize>(pngs[i].size())))
            return writeError(path, "cannot write the texture");
        t.file_of[static_cast<size_t>(scene.textures[i])] = rel;
        t.image_files.push_back(path);
    }
    return t;
}

// The MTL: one material per export material, named `mtl_names`, with its texture.
core::Status writeMtl(const MapBundle& bundle, const ExportScene& scene,
                      const std::vector<std::string>& mtl_names,
                      const std::vector<std::string>& file_of,
                      const std::filesystem::path& mtl_path) {
    TextOut mtl(mtl_path);
    if (!mtl.open())
        return writeError(mtl_path, "cannot create the file");
    mtl << "# bspview export of " << bundle.map.name << "\n";
    for (size_t i = 0; i < scene.materials.size(); ++i) {
        const ExportMaterial& m = scene.materials[i];
        mtl << "\nnewmtl " << mtl_names[i] << "\nKa 1 1 1\nKd 1 1 1\nKs 0 0 0\nillum 1\n";
        if (m.alpha_mode == AlphaMode::Blend) {
            mtl << "d ";
            mtl.num(m.alpha) << "\n";
        }
        const std::string& file = file_of[static_cast<size_t>(m.material)];
        if (!file.empty()) {
            mtl << "map_Kd " << file << "\n";
            if (m.alpha_mode != AlphaMode::Opaque)
                mtl << "map_d " << file << "\n";
        }
    }
    if (!mtl.close())
        return writeError(mtl_path, "write failed");
    return core::okStatus();
}

// One primitive placed by `xf`: its vertices (v with the colour, vt, vn) and faces, whose
// indices start at `base` (OBJ's are 1-based and global).
void writeObjPrimitive(TextOut& obj, const ExportPrimitive& p, const glm::mat4& xf,
                       const std::string& mtl_name, uint64_t base) {
    const glm::mat3 rot(xf);
    for (size_t v = 0; v < p.positions.size(); ++v) {
        const glm::vec3 pos = glm::vec3(xf * glm::vec4(p.positions[v], 1.0f));
        obj << "v ";
        obj.num(pos.x) << ' ';
        obj.num(pos.y) << ' ';
        obj.num(pos.z);
        if (!p.colours.empty()) {
            const glm::u8vec4 c = p.colours[v];
            for (int k = 0; k < 3; ++k) {
                obj << ' ';
                obj.num(static_cast<float>(c[k]) / 255.0f);
            }
        }
        obj << "\nvt ";
        obj.num(p.uv[v].x) << ' ';
        obj.num(1.0f - p.uv[v].y) << "\nvn ";
        const glm::vec3 nrm = rot * p.normals[v];
        obj.num(nrm.x) << ' ';
        obj.num(nrm.y) << ' ';
        obj.num(nrm.z) << '\n';
    }
    obj << "usemtl " << mtl_name << "\n";
    for (size_t t = 0; t + 2 < p.indices.size(); t += 3) {
        obj << 'f';
        for (int k = 0; k < 3; ++k) {
            const uint64_t i = base + p.indices[t + static_cast<size_t>(k)];
            obj << ' ';
            obj.num(i) << '/';
            obj.num(i) << '/';
            obj.num(i);
        }
        obj << '\n';
    }
}

// The OBJ: one `o` object per node with a mesh, placed by the node's transforms; counts the
// meshes and primitives into `r`.
core::Status writeObjFile(const MapBundle& bundle, const ExportScene& scene,
                          const std::vector<std::string>& mtl_names,
                          const std::filesystem::path& mtl_path, const std::filesystem::path& out,
                          ExportResult& r) {
    TextOut obj(out);
    if (!obj.open())
        return writeError(out, "cannot create the file");
    obj << "# bspview export of " << bundle.map.name << ": metres, +Y up\n";
    obj << "mtllib " << mtl_path.filename().string() << "\n";
    const std::vector<glm::mat4> world = nodeTransforms(scene);
    uint64_t base = 1; // OBJ indices are 1-based and global
    for (size_t ni = 0; ni < scene.nodes.size(); ++ni) {
        const ExportNode& n = scene.nodes[ni];
        if (n.mesh < 0)
            continue;
        obj << "o " << textureFileStem(n.name) << "\n";
        ++r.meshes;
        for (const ExportPrimitive& p : scene.meshes[static_cast<size_t>(n.mesh)]) {
            ++r.primitives;
            writeObjPrimitive(obj, p, world[ni], mtl_names[p.material], base);
            base += p.positions.size();
        }
    }
    if (!obj.close())
        return writeError(out, "write failed");
    return core::okStatus();
}

} // namespace

core::Result<ExportResult> writeObj(const MapBundle& bundle, const ExportScene& scene,
                                    const std::filesystem::path& out) {
    ExportResult r;
    r.format = ExportFormat::Obj;
    const std::string stem = out.stem().string();
    const std::filesystem::path dir = out.parent_path();
    const std::filesystem::path mtl_path = dir / (stem + ".mtl");
    std::error_code ec;
    if (!dir.empty())
        std::filesystem::create_directories(dir, ec);

    // Textures first: one PNG per map material the scene uses.
    auto start = std::chrono::steady_clock::now();
    auto textures = writeObjTextures(bundle, scene, dir, stem + "_textures");
    if (!textures)
        return textures.error();
    r.images_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    start = std::chrono::steady_clock::now();

    std::vector<std::string> mat_names;
    for (const ExportMaterial& m : scene.materials)
        mat_names.push_back(m.name);
    const std::vector<std::string> mtl_names = uniqueTextureStems(mat_names);
    if (auto st = writeMtl(bundle, scene, mtl_names, textures->file_of, mtl_path); !st)
        return st.error();
    if (auto st = writeObjFile(bundle, scene, mtl_names, mtl_path, out, r); !st)
        return st.error();
    r.write_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();

    const std::vector<std::filesystem::path>& image_files = textures->image_files;
    r.files = {out, mtl_path};
    r.files.insert(r.files.end(), image_files.begin(), image_files.end());
    for (const std::filesystem::path& f : r.files) {
        const auto n = std::filesystem::file_size(f, ec);
        r.bytes += ec ? 0 : static_cast<uint64_t>(n);
    }
    r.nodes = scene.nodes.size();
    r.materials = scene.materials.size();
    r.images = image_files.size();
    r.triangles = scene.triangles;
    r.mins = scene.mins;
    r.maxs = scene.maxs;
    return r;
}

} // namespace exporter
