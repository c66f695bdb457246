#include "q3_writer.h"

#include <algorithm>
#include <bit>
#include <cstring>
#include <sstream>

namespace mapgen {

static_assert(std::endian::native == std::endian::little,
              "the writer stores values by memcpy; add byte swapping for big-endian hosts");

namespace {

constexpr std::array<uint32_t, kQ3LumpCount> kRecordSizes = {
    0, 72, 16, 36, 48, 4, 4, 40, 12, 8, 44, 4, 72, 104, kQ3LightmapBytes, 8, 0};

constexpr std::array<const char*, kQ3LumpCount> kLumpNames = {
    "entities",    "shaders",  "planes",    "nodes",      "leafs",     "leafsurfaces",
    "leafbrushes", "models",   "brushes",   "brushsides", "drawverts", "drawindexes",
    "fogs",        "surfaces", "lightmaps", "lightgrid",  "visibility"};

// Appends little-endian values to a byte vector.
class ByteWriter {
public:
    explicit ByteWriter(std::vector<uint8_t>& out) : m_out(out) {}

    template <class T> void put(T value) {
        static_assert(std::is_trivially_copyable_v<T>);
        const size_t at = m_out.size();
        m_out.resize(at + sizeof(T));
        std::memcpy(m_out.data() + at, &value, sizeof(T));
    }
    void i32(int32_t v) { put(v); }
    void f32(float v) { put(v); }
    void u8(uint8_t v) { put(v); }
    void vec3(const glm::vec3& v) {
        f32(v.x);
        f32(v.y);
        f32(v.z);
    }
    void ivec3(const glm::ivec3& v) {
        i32(v.x);
        i32(v.y);
        i32(v.z);
    }
    void bytes(std::span<const uint8_t> b) { m_out.insert(m_out.end(), b.begin(), b.end()); }
    // A NUL-padded fixed-size name; longer names are cut so that one NUL always remains.
    void name(const std::string& s) {
        const size_t n = std::min(s.size(), kQ3NameLength - 1);
        const size_t at = m_out.size();
        m_out.resize(at + kQ3NameLength, 0);
        std::memcpy(m_out.data() + at, s.data(), n);
    }
    void align4() {
        while (m_out.size() % 4)
            m_out.push_back(0);
    }
    size_t size() const { return m_out.size(); }

private:
    std::vector<uint8_t>& m_out;
};

void writeLump(ByteWriter& w, Q3Lump lump, const Q3MapDesc& d) {
    switch (lump) {
    case Q3Lump::Entities:
        w.bytes({reinterpret_cast<const uint8_t*>(d.entities.data()), d.entities.size()});
        w.u8(0);
        break;
    case Q3Lump::Shaders:
        for (const Q3Texture& t : d.textures) {
            w.name(t.name);
            w.i32(t.flags);
            w.i32(t.contents);
        }
        break;
    case Q3Lump::Planes:
        for (const Q3Plane& p : d.planes) {
            w.vec3(p.normal);
            w.f32(p.dist);
        }
        break;
    case Q3Lump::Nodes:
        for (const Q3Node& n : d.nodes) {
            w.i32(n.plane);
            w.i32(n.children[0]);
            w.i32(n.children[1]);
            w.ivec3(n.mins);
            w.ivec3(n.maxs);
        }
        break;
    case Q3Lump::Leafs:
        for (const Q3Leaf& l : d.leaves) {
            w.i32(l.cluster);
            w.i32(l.area);
            w.ivec3(l.mins);
            w.ivec3(l.maxs);
            w.i32(l.first_leaf_face);
            w.i32(l.num_leaf_faces);
            w.i32(l.first_leaf_brush);
            w.i32(l.num_leaf_brushes);
        }
        break;
    case Q3Lump::LeafSurfaces:
        for (int32_t v : d.leaf_faces)
            w.i32(v);
        break;
    case Q3Lump::LeafBrushes:
        for (int32_t v : d.leaf_brushes)
            w.i32(v);
        break;
    case Q3Lump::Models:
        for (const Q3Model& m : d.models) {
            w.vec3(m.mins);
            w.vec3(m.maxs);
            w.i32(m.first_face);
            w.i32(m.num_faces);
            w.i32(m.first_brush);
            w.i32(m.num_brushes);
        }
        break;
    case Q3Lump::Brushes:
        for (const Q3Brush& b : d.brushes) {
            w.i32(b.first_side);
            w.i32(b.num_sides);
            w.i32(b.texture);
        }
        break;
    case Q3Lump::BrushSides:
        for (const Q3BrushSide& s : d.brush_sides) {
            w.i32(s.plane);
            w.i32(s.texture);
        }
        break;
    case Q3Lump::DrawVerts:
        for (const Q3Vertex& v : d.vertices) {
            w.vec3(v.position);
            w.f32(v.uv.x);
            w.f32(v.uv.y);
            w.f32(v.lm_uv.x);
            w.f32(v.lm_uv.y);
            w.vec3(v.normal);
            for (uint8_t c : v.colour)
                w.u8(c);
        }
        break;
    case Q3Lump::DrawIndexes:
        for (int32_t v : d.meshverts)
            w.i32(v);
        break;
    case Q3Lump::Fogs:
        for (const Q3Fog& f : d.fogs) {
            w.name(f.shader);
            w.i32(f.brush);
            w.i32(f.visible_side);
        }
        break;
    case Q3Lump::Surfaces:
        for (const Q3Face& f : d.faces) {
            w.i32(f.texture);
            w.i32(f.fog);
            w.i32(static_cast<int32_t>(f.type));
            w.i32(f.first_vertex);
            w.i32(f.num_vertices);
            w.i32(f.first_meshvert);
            w.i32(f.num_meshverts);
            w.i32(f.lightmap);
            w.i32(f.lm_start[0]);
            w.i32(f.lm_start[1]);
            w.i32(f.lm_size[0]);
            w.i32(f.lm_size[1]);
            w.vec3(f.lm_origin);
            w.vec3(f.lm_vecs[0]);
            w.vec3(f.lm_vecs[1]);
            w.vec3(f.normal);
            w.i32(f.patch_size[0]);
            w.i32(f.patch_size[1]);
        }
        break;
    case Q3Lump::Lightmaps:
        for (const Q3Lightmap& l : d.lightmaps)
            w.bytes(l.rgb);
        break;
    case Q3Lump::LightGrid:
        for (const Q3LightGridPoint& p : d.light_grid) {
            w.bytes(p.ambient);
            w.bytes(p.directed);
            w.bytes(p.direction);
        }
        break;
    case Q3Lump::Visibility:
        if (d.vis.num_clusters > 0) {
            w.i32(d.vis.num_clusters);
            w.i32(d.vis.row_size);
            w.bytes(d.vis.bits);
        }
        break;
    }
}

// Collects problem lines up to a limit.
class Problems {
public:
    explicit Problems(size_t limit) : m_limit(limit) {}
    template <class... Args> void add(const Args&... args) {
        ++m_count;
        if (m_count > m_limit)
            return;
        std::ostringstream s;
        (s << ... << args);
        m_text += s.str();
        m_text += '\n';
    }
    std::string text() const {
        if (m_count > m_limit)
            return m_text + "... " + std::to_string(m_count - m_limit) + " more\n";
        return m_text;
    }

private:
    size_t m_limit;
    size_t m_count = 0;
    std::string m_text;
};

bool inRange(int64_t first, int64_t count, size_t size) {
    return first >= 0 && count >= 0 && first + count <= static_cast<int64_t>(size);
}

bool index(int64_t i, size_t size) {
    return i >= 0 && i < static_cast<int64_t>(size);
}

void validateTree(const Q3MapDesc& d, Problems& p) {
    if (d.nodes.empty())
        return;
    // Every node must be reached exactly once from node 0 (a tree, no cycles or sharing).
    std::vector<uint8_t> seen(d.nodes.size(), 0);
    std::vector<int32_t> stack{0};
    while (!stack.empty()) {
        const int32_t n = stack.back();
        stack.pop_back();
        if (seen[static_cast<size_t>(n)]++) {
            p.add("nodes[", n, "]: reached twice");
            return;
        }
        for (int32_t child : d.nodes[static_cast<size_t>(n)].children)
            if (child >= 0 && index(child, d.nodes.size()))
                stack.push_back(child);
    }
    for (size_t i = 0; i < seen.size(); ++i)
        if (!seen[i])
            p.add("nodes[", i, "]: not reachable from node 0");
}

void validateFace(const Q3MapDesc& d, size_t i, const Q3Face& f, Problems& p) {
    if (!index(f.texture, d.textures.size()))
        p.add("faces[", i, "].texture: ", f.texture);
    if (f.fog != -1 && !index(f.fog, d.fogs.size()))
        p.add("faces[", i, "].fog: ", f.fog);
    if (!inRange(f.first_vertex, f.num_vertices, d.vertices.size())) {
        p.add("faces[", i, "].vertex: range ", f.first_vertex, "+", f.num_vertices);
        return;
    }
    if (!inRange(f.first_meshvert, f.num_meshverts, d.meshverts.size())) {
        p.add("faces[", i, "].meshvert: range ", f.first_meshvert, "+", f.num_meshverts);
        return;
    }
    if (f.type == Q3FaceType::Polygon || f.type == Q3FaceType::Mesh) {
        if (f.num_meshverts % 3)
            p.add("faces[", i, "].meshvert: count ", f.num_meshverts, " not a multiple of 3");
        for (int32_t k = 0; k < f.num_meshverts; ++k) {
            const int32_t v = d.meshverts[static_cast<size_t>(f.first_meshvert + k)];
            if (v < 0 || v >= f.num_vertices)
                p.add("faces[", i, "].meshvert[", k, "]: ", v, " beyond ", f.num_vertices);
        }
    } else if (f.type == Q3FaceType::Patch) {
        const int32_t w = f.patch_size[0], h = f.patch_size[1];
        if (w < 3 || h < 3 || w % 2 == 0 || h % 2 == 0)
            p.add("faces[", i, "].size: patch grid ", w, "x", h, " not odd and >= 3");
        else if (int64_t{w} * h != f.num_vertices)
            p.add("faces[", i, "].size: ", w, "x", h, " != ", f.num_vertices, " vertices");
    } else if (f.type != Q3FaceType::Billboard) {
        p.add("faces[", i, "].type: ", static_cast<int32_t>(f.type));
    }
    if (f.lightmap == -1)
        return;
    if (!index(f.lightmap, d.lightmaps.size())) {
        p.add("faces[", i, "].lightmap: ", f.lightmap);
        return;
    }
    for (int a = 0; a < 2; ++a) {
        if (f.lm_start[a] < 0 || f.lm_size[a] <= 0 ||
            f.lm_start[a] + f.lm_size[a] > kQ3LightmapSize)
            p.add("faces[", i, "].lightmap: block axis ", a, " ", f.lm_start[a], "+", f.lm_size[a]);
    }
    // lm_uv must fall inside the face's own block: a texel further would sample a neighbour.
    for (int32_t k = 0; k < f.num_vertices; ++k) {
        const glm::vec2 uv = d.vertices[static_cast<size_t>(f.first_vertex + k)].lm_uv;
        for (int a = 0; a < 2; ++a) {
            const float t = uv[a] * kQ3LightmapSize;
            if (!(uv[a] >= 0.0f && uv[a] <= 1.0f) || t < static_cast<float>(f.lm_start[a]) ||
                t > static_cast<float>(f.lm_start[a] + f.lm_size[a])) {
                p.add("faces[", i, "]: vertex ", k, " lm_uv ", uv.x, ",", uv.y,
                      " outside its block");
                return;
            }
        }
    }
}

} // namespace

uint32_t q3RecordSize(Q3Lump lump) {
    return kRecordSizes[static_cast<size_t>(lump)];
}

const char* q3LumpName(Q3Lump lump) {
    return kLumpNames[static_cast<size_t>(lump)];
}

std::vector<uint8_t> writeQ3Bsp(const Q3MapDesc& desc) {
    std::vector<uint8_t> out;
    ByteWriter w(out);
    out.reserve(kQ3HeaderSize);
    const uint8_t magic[4] = {'I', 'B', 'S', 'P'};
    w.bytes(magic);
    w.i32(kQ3Version);
    for (int i = 0; i < kQ3LumpCount; ++i) {
        w.i32(0); // directory, filled in below
        w.i32(0);
    }
    for (int i = 0; i < kQ3LumpCount; ++i) {
        w.align4();
        const size_t start = w.size();
        writeLump(w, static_cast<Q3Lump>(i), desc);
        const int32_t offset = static_cast<int32_t>(start);
        const int32_t length = static_cast<int32_t>(w.size() - start);
        std::memcpy(out.data() + 8 + 8 * i, &offset, 4);
        std::memcpy(out.data() + 12 + 8 * i, &length, 4);
    }
    return out;
}

std::string validateQ3Map(const Q3MapDesc& d, size_t max_problems) {
    Problems p(max_problems);
    for (size_t i = 0; i < d.textures.size(); ++i)
        if (d.textures[i].name.empty() || d.textures[i].name.size() >= kQ3NameLength)
            p.add("shaders[", i, "].name: length ", d.textures[i].name.size());
    for (size_t i = 0; i < d.nodes.size(); ++i) {
        const Q3Node& n = d.nodes[i];
        if (!index(n.plane, d.planes.size()))
            p.add("nodes[", i, "].plane: ", n.plane);
        for (int32_t c : n.children) {
            if (c >= 0 ? !index(c, d.nodes.size()) : !index(-1 - int64_t{c}, d.leaves.size()))
                p.add("nodes[", i, "].child: ", c);
        }
    }
    validateTree(d, p);
    for (size_t i = 0; i < d.leaves.size(); ++i) {
        const Q3Leaf& l = d.leaves[i];
        if (l.cluster < -1 ||
            (l.cluster >= 0 && d.vis.num_clusters > 0 && l.cluster >= d.vis.num_clusters))
            p.add("leafs[", i, "].cluster: ", l.cluster);
        if (!inRange(l.first_leaf_face, l.num_leaf_faces, d.leaf_faces.size()))
            p.add("leafs[", i, "].leafsurface: range ", l.first_leaf_face, "+", l.num_leaf_faces);
        if (!inRange(l.first_leaf_brush, l.num_leaf_brushes, d.leaf_brushes.size()))
            p.add("leafs[", i, "].leafbrush: range ", l.first_leaf_brush, "+", l.num_leaf_brushes);
        for (int a = 0; a < 3; ++a)
            if (l.mins[a] > l.maxs[a])
                p.add("leafs[", i, "]: mins > maxs on axis ", a);
    }
    for (size_t i = 0; i < d.leaf_faces.size(); ++i)
        if (!index(d.leaf_faces[i], d.faces.size()))
            p.add("leafsurfaces[", i, "]: ", d.leaf_faces[i]);
    for (size_t i = 0; i < d.leaf_brushes.size(); ++i)
        if (!index(d.leaf_brushes[i], d.brushes.size()))
            p.add("leafbrushes[", i, "]: ", d.leaf_brushes[i]);
    if (d.models.empty())
        p.add("models: none (model 0 is the world)");
    for (size_t i = 0; i < d.models.size(); ++i) {
        const Q3Model& m = d.models[i];
        if (!inRange(m.first_face, m.num_faces, d.faces.size()))
            p.add("models[", i, "].surface: range ", m.first_face, "+", m.num_faces);
        if (!inRange(m.first_brush, m.num_brushes, d.brushes.size()))
            p.add("models[", i, "].brush: range ", m.first_brush, "+", m.num_brushes);
    }
    for (size_t i = 0; i < d.brushes.size(); ++i) {
        const Q3Brush& b = d.brushes[i];
        if (!inRange(b.first_side, b.num_sides, d.brush_sides.size()))
            p.add("brushes[", i, "].side: range ", b.first_side, "+", b.num_sides);
        if (!index(b.texture, d.textures.size()))
            p.add("brushes[", i, "].shader: ", b.texture);
    }
    for (size_t i = 0; i < d.brush_sides.size(); ++i) {
        if (!index(d.brush_sides[i].plane, d.planes.size()))
            p.add("brushsides[", i, "].plane: ", d.brush_sides[i].plane);
        if (!index(d.brush_sides[i].texture, d.textures.size()))
            p.add("brushsides[", i, "].shader: ", d.brush_sides[i].texture);
    }
    for (size_t i = 0; i < d.fogs.size(); ++i)
        if (!index(d.fogs[i].brush, d.brushes.size()))
            p.add("fogs[", i, "].brush: ", d.fogs[i].brush);
    for (size_t i = 0; i < d.faces.size(); ++i)
        validateFace(d, i, d.faces[i], p);
    for (size_t i = 0; i < d.lightmaps.size(); ++i)
        if (d.lightmaps[i].rgb.size() != kQ3LightmapBytes)
            p.add("lightmaps[", i, "]: ", d.lightmaps[i].rgb.size(), " bytes");
    const Q3Vis& v = d.vis;
    if (v.num_clusters < 0 || (v.num_clusters > 0 && v.row_size < (v.num_clusters + 7) / 8))
        p.add("visibility: row size ", v.row_size, " for ", v.num_clusters, " clusters");
    else if (int64_t{v.num_clusters} * v.row_size != static_cast<int64_t>(v.bits.size()))
        p.add("visibility: ", v.bits.size(), " bytes for ", v.num_clusters, " rows of ",
              v.row_size);
    return p.text();
}

Q3LumpEntry q3LumpEntry(std::span<const uint8_t> file, Q3Lump lump) {
    Q3LumpEntry e;
    const size_t at = 8 + 8 * static_cast<size_t>(lump);
    if (file.size() < static_cast<size_t>(kQ3HeaderSize))
        return e;
    std::memcpy(&e.offset, file.data() + at, 4);
    std::memcpy(&e.length, file.data() + at + 4, 4);
    return e;
}

} // namespace mapgen
