// Builder for synthetic Quake 3 maps made of axis-aligned rooms joined by corridors.
//
// bspview's default map (assets/maps/demo.bsp, written by tools/mkdemomap) and the synthetic maps
// the tests load come from here. A layout lists boxes of air ("spaces": rooms and the
// corridors between them), lights and spawn points; buildMap() turns it into a complete
// Q3MapDesc plus the ground truth tests check a loader and renderer against:
//
// - faces: each room is a box of polygon faces seen from inside; a wall where a corridor
//   joins is split into rectangles around the opening. Corridors have floor, ceiling and two
//   side walls and are open at both ends. A vaulted corridor has a Bezier patch arch (5x3
//   control grid) for its ceiling, and flat 5x3 patches close the wall above the arch at
//   both ends.
// - tree: axis-aligned split planes taken from the space boxes (planes that cut no box are
//   preferred), so every air leaf is exactly one space box (cluster = space index) and the
//   rest of the world box is solid leaves (cluster -1), each with one box brush.
// - visibility: cluster j is visible from cluster i when the spaces are at most
//   DemoMapOptions::vis_steps steps apart in the room-corridor graph (3 by default: a room
//   sees its corridors, the rooms they lead to and those rooms' corridors, never a room two
//   corridors away). Layouts must bend so that this is conservative: in the demo map a
//   corridor that continues from a room always leaves through another wall or far off the
//   line of the one that enters.
// - lighting: a direct light pass (point lights, Lambert term, 1/(1 + (d/384)^2) falloff, no
//   shadows; a light reaches its own space and the spaces next to it) baked into per-face
//   lightmap blocks packed into 128x128 pages, plus vertex colours and the light grid.
//   Values are stored at half intensity, as q3map2 does for the engine's overbright shift.
//
// Output is deterministic: the same layout and options give the same bytes (only +, -, *, /
// and sqrt in double precision feed the stored floats and lightmap bytes, and the library is
// compiled without floating-point contraction).
#pragma once

#include "q3_writer.h"

#include "core/result.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include <glm/vec3.hpp>

namespace mapgen {

// A room or corridor: an axis-aligned box of air.
struct DemoSpace {
    std::string name; // rooms "A", "B", ...; corridors "A-B"
    bool corridor = false;
    glm::vec3 mins{0.0f};
    glm::vec3 maxs{0.0f};
    // Corridors: the two rooms joined (indices into DemoLayout::spaces). The corridor must
    // touch each room's wall with one end, along x or y, and its cross-section must lie
    // inside that wall.
    int32_t rooms[2] = {-1, -1};
    // Vaulted corridors: side walls end at wall_top and a half-round arch of radius
    // (corridor width / 2) spans them; maxs.z must be wall_top + radius.
    bool vaulted = false;
    float wall_top = 0.0f;
    // Texture short names (see demo_textures.h); the material is "textures/demo/<name>".
    std::string wall_texture = "brick";
    std::string floor_texture = "floor";
    std::string ceiling_texture = "ceiling";

    // Filled by buildMap():
    int32_t cluster = -1;
    std::vector<int32_t> faces;  // indices into Q3MapDesc::faces that belong to this space
    std::vector<int32_t> leaves; // air leaves of this space
};

struct DemoLight {
    glm::vec3 origin{0.0f};
    float intensity = 300.0f; // the entity's "light" value; 300 is the usual Quake 3 default
    glm::vec3 colour{1.0f};
    int32_t space = -1; // filled by buildMap(): the space containing origin
};

struct DemoSpawn {
    std::string classname; // info_player_start, info_player_deathmatch, ...intermission
    glm::vec3 origin{0.0f};
    float yaw = 0.0f; // degrees, 0 = +X, 90 = +Y
    float pitch = 0.0f;
    int32_t space = -1; // filled by buildMap(): the space containing origin
};

struct DemoLayout {
    std::string message; // worldspawn "message"
    std::vector<DemoSpace> spaces;
    std::vector<DemoLight> lights;
    std::vector<DemoSpawn> spawns;
};

struct DemoMapOptions {
    float luxel_size = 16.0f;      // world units per lightmap texel
    float texture_repeat = 128.0f; // world units per texture repeat
    float ambient = 0.2f;          // light level everywhere, 1 = full texture brightness
    float wall_thickness = 16.0f;  // solid margin around the spaces (the world box)
    int32_t vis_steps = 3;         // PVS reach in the room-corridor graph
    glm::vec3 light_grid_size{64.0f, 64.0f, 128.0f}; // Quake 3's default gridsize
};

struct DemoMap {
    Q3MapDesc desc;
    std::vector<DemoSpace> spaces; // cluster i is spaces[i]
    std::vector<DemoLight> lights;
    std::vector<DemoSpawn> spawns;
    std::vector<int32_t> face_space; // per face: owning space
    std::vector<int32_t> patch_faces;
    int32_t num_clusters = 0;
    std::vector<uint8_t> expected_pvs; // num_clusters * num_clusters, 1 = visible
    glm::vec3 world_mins{0.0f};        // model 0 bounds (the world box)
    glm::vec3 world_maxs{0.0f};
    glm::vec3 light_grid_origin{0.0f};
    glm::ivec3 light_grid_bounds{0};

    bool expectedVisible(int32_t from_cluster, int32_t to_cluster) const;
    int32_t spaceIndex(std::string_view name) const; // -1 when absent
};

// Builds the description and ground truth for a layout. Fails with BadArgument when the
// layout is inconsistent: empty or overlapping boxes, a corridor that does not join its two
// rooms, a light or spawn outside every space, a face too large for one lightmap page.
core::Result<DemoMap> buildMap(const DemoLayout& layout, const DemoMapOptions& options = {});

// The scene of assets/maps/demo.bsp: rooms A-E, corridors A-B, B-C (vaulted), B-E, C-D.
// A and C are at the ends of a bent chain A - B - C, so A cannot see C.
DemoLayout demoLayout();
DemoMap buildDemoMap(const DemoMapOptions& options = {});

// Two closed rooms "A" and "B" with no connection: neither cluster sees the other.
DemoLayout twoRoomLayout();
DemoMap buildTwoRoomMap(const DemoMapOptions& options = {});

} // namespace mapgen
