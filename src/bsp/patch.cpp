#include "bsp/patch.h"

#include <algorithm>
#include <cmath>
#include <glm/geometric.hpp>

namespace bsp {

namespace {

int clampLevel(int level) {
    return std::clamp(level, 1, kMaxPatchLevel);
}

// Quadratic Bernstein weights for step `step` of `steps`. The parameter and its complement
// are both computed from integers, so reversing an edge (step -> steps - step) swaps the
// weights exactly: b0 <-> b2, and b1 is a product of the same two factors.
struct Weights {
    float b0, b1, b2;
};

Weights weightsAt(int step, int steps) {
    const float t = static_cast<float>(step) / static_cast<float>(steps);
    const float s = static_cast<float>(steps - step) / static_cast<float>(steps);
    return {s * s, (2.0f * s) * t, t * t};
}

// The end terms are summed first: IEEE addition is commutative, so the result does not
// change when the edge is evaluated in the opposite direction. At the ends (weights 1, 0, 0)
// it returns the end point itself.
template <class T> T blend(const Weights& w, const T& a, const T& m, const T& e) {
    const T ends = w.b0 * a + w.b2 * e;
    return ends + w.b1 * m;
}

struct Attributes {
    glm::vec3 position;
    glm::vec2 uv;
    glm::vec2 lm_uv;
    glm::vec3 normal;
    glm::vec4 colour;
};

Attributes toAttributes(const Vertex& v) {
    return {v.position, v.uv, v.lm_uv, v.normal, glm::vec4(v.colour)};
}

Attributes blend(const Weights& w, const Attributes& a, const Attributes& m, const Attributes& e) {
    return {blend(w, a.position, m.position, e.position), blend(w, a.uv, m.uv, e.uv),
            blend(w, a.lm_uv, m.lm_uv, e.lm_uv), blend(w, a.normal, m.normal, e.normal),
            blend(w, a.colour, m.colour, e.colour)};
}

Vertex toVertex(const Attributes& a) {
    Vertex v;
    v.position = a.position;
    v.uv = a.uv;
    v.lm_uv = a.lm_uv;
    const float len = glm::length(a.normal);
    v.normal = (len > 1e-20f && std::isfinite(len)) ? a.normal / len : glm::vec3(0, 0, 1);
    for (int k = 0; k < 4; ++k) {
        // Clamp before rounding: converting an out-of-range float to an integer is undefined.
        const float c = std::isfinite(a.colour[k]) ? std::clamp(a.colour[k], 0.0f, 255.0f) : 0.0f;
        v.colour[k] = static_cast<uint8_t>(std::lround(c));
    }
    return v;
}

// Tessellated vertices per side of a grid with `side` control points.
size_t gridSide(int side, int level) {
    return static_cast<size_t>((side - 1) / 2) * static_cast<size_t>(level) + 1;
}

} // namespace

bool validPatchSize(int width, int height) {
    auto ok = [](int n) { return n >= 3 && n <= kMaxPatchSide && (n & 1) == 1; };
    return ok(width) && ok(height);
}

size_t patchVertexCount(int width, int height, int level) {
    if (!validPatchSize(width, height))
        return 0;
    level = clampLevel(level);
    return gridSide(width, level) * gridSide(height, level);
}

size_t patchTriangleCount(int width, int height, int level) {
    if (!validPatchSize(width, height))
        return 0;
    level = clampLevel(level);
    return (gridSide(width, level) - 1) * (gridSide(height, level) - 1) * 2;
}

PatchMesh tessellatePatch(std::span<const Vertex> controls, int width, int height, int level) {
    PatchMesh mesh;
    if (!validPatchSize(width, height) ||
        controls.size() < static_cast<size_t>(width) * static_cast<size_t>(height))
        return mesh;
    level = clampLevel(level);
    const int sub_x = (width - 1) / 2;
    const int sub_y = (height - 1) / 2;
    const size_t cols = gridSide(width, level);
    const size_t rows = gridSide(height, level);

    std::vector<Attributes> ctrl(controls.size());
    std::transform(controls.begin(), controls.end(), ctrl.begin(), toAttributes);
    auto at = [&](int row, int col) -> const Attributes& {
        return ctrl[static_cast<size_t>(row) * static_cast<size_t>(width) +
                    static_cast<size_t>(col)];
    };

    // The u weights of one column are the same for every row: compute them once.
    std::vector<Weights> wu(cols);
    std::vector<int> su(cols);
    for (size_t c = 0; c < cols; ++c) {
        su[c] = std::min(static_cast<int>(c) / level, sub_x - 1);
        wu[c] = weightsAt(static_cast<int>(c) - su[c] * level, level);
    }

    mesh.vertices.reserve(cols * rows);
    for (size_t r = 0; r < rows; ++r) {
        const int sy = std::min(static_cast<int>(r) / level, sub_y - 1);
        const Weights wv = weightsAt(static_cast<int>(r) - sy * level, level);
        for (size_t c = 0; c < cols; ++c) {
            const int x0 = su[c] * 2;
            Attributes row_value[3];
            for (int k = 0; k < 3; ++k) {
                const int y = sy * 2 + k;
                row_value[k] = blend(wu[c], at(y, x0), at(y, x0 + 1), at(y, x0 + 2));
            }
            mesh.vertices.push_back(toVertex(blend(wv, row_value[0], row_value[1], row_value[2])));
        }
    }

    mesh.indices.reserve((cols - 1) * (rows - 1) * 6);
    for (size_t r = 0; r + 1 < rows; ++r) {
        for (size_t c = 0; c + 1 < cols; ++c) {
            const auto i00 = static_cast<uint32_t>(r * cols + c);
            const auto i01 = i00 + 1;
            const auto i10 = static_cast<uint32_t>((r + 1) * cols + c);
            const auto i11 = i10 + 1;
            // (row, col), (row + 1, col), (row, col + 1): the winding the engine uses, which
            // matches the normals q3map2 stores (checked on bc_crypt and oa_dm5).
            mesh.indices.insert(mesh.indices.end(), {i00, i10, i01, i01, i10, i11});
        }
    }
    return mesh;
}

} // namespace bsp
