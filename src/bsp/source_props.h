// Source engine prop and ambient-light lumps, as facts of a map (GL-free): the static props of
// the "sprp" game lump, the detail props of "dprp", and the leaf ambient cubes
// (LEAF_AMBIENT_LIGHTING / _HDR with LEAF_AMBIENT_INDEX / _HDR). The map parser
// (bsp/vbsp.cpp) stores them on bsp::Map; the scene decides what to draw with them.
//
// Layouts (Source SDK 2013 public/gamebspfile.h and public/bspfile.h, little-endian):
//  - Game lump directory (lump 35): int count, then dgamelump_t { int id ('sprp', 'dprp', ...),
//    u16 flags (1: LZMA-compressed), u16 version, int fileofs (from the start of the file), int
//    filelen }.
//  - sprp: int dictionary count, char[128] model names (StaticPropDictLump_t); int leaf count,
//    u16 leaves (StaticPropLeafLump_t; u32 in Strata Source's versions 12 and 13); int prop
//    count, then the records, all of one size, whose fields grow with the version:
//      4 (56 bytes: StaticPropLumpV4_t): origin, angles (pitch yaw roll), u16 model (PropType),
//        u16 first leaf, u16 leaf count, u8 solid, u8 flags, int skin, float fade min, fade
//        max, lighting origin;
//      5 (60: V5): + float forced fade scale;
//      6 (64: V6): + u16 min and max DirectX level;
//      7 (68, Left 4 Dead): V6 + colour32 diffuse modulation; 7 and 10 written by SDK 2013
//        (72, StaticPropLump_t): V6 with one u8 of padding where the flags byte was, then u32
//        flags and u16 lightmap resolution x, y;
//      8 (68, Left 4 Dead): V5 + u8 min/max CPU and GPU level + colour32 diffuse modulation;
//      9 (72, Left 4 Dead 2): 8 + a 4-byte DisableX360;
//      10 (76, Counter-Strike: Global Offensive / Portal 2 family): 9 + u32 FlagsEx;
//      11 (80): 8 + u32 FlagsEx + float uniform scale + 4 bytes (bsp_tool's sdk_2013
//        StaticPropv11);
//      12 (80, Strata Source): 11 with u32 leaves; 13 (88, Strata): 9 + u32 FlagsEx + a
//        per-axis scale (bsp_tool branches/strata/strata.py StaticPropv13).
//    The record size is the rest of the lump divided by the prop count; a version whose size
//    is not one of its sizes, or any other version, is an error naming the lump.
//  - dprp (version 4): int count, char[128] model names (DetailObjectDictLump_t); int count,
//    sprites (DetailSpriteDictLump_t: upper-left, lower-right, texture upper-left, lower-right,
//    each a vector2, 32 bytes); int count, objects (DetailObjectLump_t, 52 bytes: origin,
//    angles, u16 model or sprite, u16 leaf, ColorRGBExp32 lighting, u32 light styles, u8 style
//    count, sway, shape angle, shape size, orientation, 3 padding, u8 type, 3 padding, float
//    scale). Read as the client's detail object system does (SDK 2013
//    game/client/detailobjectsystem.cpp, CDetailObjectSystem::LevelInitPreEntity and its
//    Unserialize* functions).
//  - Leaf ambient lighting: LEAF_AMBIENT_INDEX[_HDR] (52 / 51) holds a dleafambientindex_t per
//    leaf (u16 sample count, u16 first sample); LEAF_AMBIENT_LIGHTING[_HDR] (56 / 55) the
//    samples, dleafambientlighting_t (28 bytes: CompressedLightCube, six ColorRGBExp32 for +x,
//    -x, +y, -y, +z, -z, then x, y, z as fractions 0..255 of the leaf's bounds, and a pad).
//    vrad gives a leaf without samples the index of a neighbouring leaf that has some in
//    firstAmbientSample with a count of 0 (utils/vrad/leaf_ambient_lighting.cpp,
//    ComputePerLeafAmbientLighting). Version 19 maps keep one cube in each leaf instead
//    (dleaf_version_0_t::m_AmbientLighting), read as one sample at the leaf's centre.
#pragma once

#include "core/result.h"

#include <glm/vec3.hpp>

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace bsp {

struct Map;

// ColorRGBExp32 as stored: a colour is c * 2^exponent on a 0..255 scale.
struct ColorRgbExp32 {
    uint8_t r = 0, g = 0, b = 0;
    int8_t exponent = 0;
    bool operator==(const ColorRgbExp32&) const = default;
};

// Static prop flags (gamebspfile.h STATIC_PROP_*).
inline constexpr uint32_t kStaticPropFades = 0x1;
inline constexpr uint32_t kStaticPropUseLightingOrigin = 0x2;
inline constexpr uint32_t kStaticPropNoDraw = 0x4;
inline constexpr uint32_t kStaticPropIgnoreNormals = 0x8;
inline constexpr uint32_t kStaticPropNoShadow = 0x10;
inline constexpr uint32_t kStaticPropNoPerVertexLighting = 0x40;

// Solid types of a static prop (SOLID_NONE 0, SOLID_BBOX 2, SOLID_VPHYSICS 6).
struct StaticProp {
    glm::vec3 origin{0.0f};
    glm::vec3 angles{0.0f}; // pitch, yaw, roll in degrees
    uint16_t model = 0;     // into StaticProps::models
    uint16_t first_leaf = 0;
    uint16_t leaf_count = 0; // a range of StaticProps::leaves
    uint8_t solid = 0;
    uint32_t flags = 0; // kStaticProp*
    int32_t skin = 0;
    float fade_min = 0.0f;
    float fade_max = 0.0f;
    glm::vec3 lighting_origin{0.0f};
    float forced_fade_scale = 1.0f;                   // from version 5
    std::array<uint16_t, 2> dx_level{0, 0};           // versions 6, 7 and SDK 2013's 10
    std::array<uint8_t, 4> cpu_gpu_level{0, 0, 0, 0}; // min/max CPU, min/max GPU: 8 and later
    std::array<uint8_t, 4> diffuse_modulation{255, 255, 255, 255}; // rgba, from 7 / 8
    uint32_t flags_ex = 0;                                         // from 10 (76-byte) / 11
    glm::vec3 scale{1.0f};                                         // 11, 12 uniform; 13 per axis
    std::array<uint16_t, 2> lightmap_resolution{0, 0};             // SDK 2013's 72-byte records
};

struct StaticProps {
    uint16_t version = 0;
    uint32_t record_bytes = 0; // 0 when there are no props
    std::vector<std::string> models;
    std::vector<uint32_t> leaves;
    std::vector<StaticProp> props;
};

struct DetailSprite {
    std::array<float, 2> upper_left{}, lower_right{};
    std::array<float, 2> tex_upper_left{}, tex_lower_right{};
};

enum class DetailType : uint8_t { Model = 0, Sprite = 1, ShapeCross = 2, ShapeTri = 3 };

struct DetailProp {
    glm::vec3 origin{0.0f};
    glm::vec3 angles{0.0f};
    uint16_t model = 0; // into DetailProps::models (Model) or ::sprites (the others)
    uint16_t leaf = 0;
    ColorRgbExp32 lighting;
    uint32_t light_styles = 0;
    uint8_t light_style_count = 0;
    uint8_t sway = 0;
    uint8_t shape_angle = 0;
    uint8_t shape_size = 0;
    uint8_t orientation = 0; // 0 normal, 1 screen aligned, 2 screen aligned vertical
    DetailType type = DetailType::Model;
    float scale = 1.0f;
};

struct DetailProps {
    uint16_t version = 0;
    std::vector<std::string> models;
    std::vector<DetailSprite> sprites;
    std::vector<DetailProp> props;
};

// Six sides: +x, -x, +y, -y, +z, -z.
using AmbientCube = std::array<ColorRgbExp32, 6>;

struct LeafAmbientSample {
    AmbientCube cube{};
    std::array<uint8_t, 3> position{128, 128, 128}; // fraction of the leaf's bounds, 0..255
};

struct LeafAmbientIndex {
    uint32_t count = 0;
    uint32_t first = 0; // first sample; with count 0, a leaf whose samples stand in
};

// One set of leaf ambient lighting (LDR or HDR): an index entry per leaf, or none.
struct LeafAmbientLighting {
    std::vector<LeafAmbientIndex> leaves;
    std::vector<LeafAmbientSample> samples;
    bool present() const { return !leaves.empty(); }
};

// Parses an "sprp" lump's bytes (already decompressed) of `version`. Errors (lump
// "game_lump.sprp", index the record): UnsupportedVersion (a version outside 4..13),
// LumpSize (records whose size is not the version's), Truncated, BadValue (negative counts),
// IndexOutOfRange (a prop's model outside the dictionary or its leaves outside the list).
core::Result<StaticProps> parseStaticProps(std::span<const uint8_t> lump, uint16_t version);

// Parses a "dprp" lump of `version` (4). Errors (lump "game_lump.dprp"): UnsupportedVersion,
// Truncated, BadValue, IndexOutOfRange (an object's model or sprite outside its dictionary,
// an unknown type).
core::Result<DetailProps> parseDetailProps(std::span<const uint8_t> lump, uint16_t version);

// Parses the index and sample lumps of one set for a map of `leaf_count` leaves. The index
// lump's version 0 holds u16 pairs (4 bytes a leaf), Strata Source's version 1 u32 pairs (8;
// bsp_tool branches/strata/strata.py LeafAmbientIndex). Errors (lumps
// "leaf_ambient_index[_hdr]", "leaf_ambient_lighting[_hdr]"): UnsupportedVersion, LumpSize
// (not one entry per leaf, not whole samples), IndexOutOfRange (a range past the samples, a
// stand-in leaf past the leaves).
core::Result<LeafAmbientLighting> parseLeafAmbient(std::span<const uint8_t> index,
                                                   int32_t index_version,
                                                   std::span<const uint8_t> samples,
                                                   size_t leaf_count, bool hdr);

// The lumps of one ambient set as the map parser hands them over.
struct LeafAmbientLumps {
    std::span<const uint8_t> index;
    int32_t index_version = 0;
    std::span<const uint8_t> samples;
};

// The map parser's part for ambient light: the LDR and HDR sets into map.leaf_ambient and
// map.leaf_ambient_hdr (map.leaves already read); with neither and leaf lump version 0 (`leafs`,
// 56-byte dleaf_version_0_t records), each leaf's own cube (at 30) as one sample at its centre
// into map.leaf_ambient. A set that cannot be read is a warning naming its lump and is dropped.
void readSourceLeafAmbient(Map& map, const LeafAmbientLumps& ldr, const LeafAmbientLumps& hdr,
                           std::span<const uint8_t> leafs, int32_t leaf_version);

// The map parser's part: every "sprp" and "dprp" entry of the game lump (lump 35 as `game`,
// entry offsets into `file`; compressed entries decoded) into map.static_props and
// map.detail_props, each static prop also appended to map.entities as a "prop_static" entity
// (model, origin, angles, skin, _sprp: its index) for the entity list and inspector. A lump that
// cannot be read is a warning naming it and its props are dropped: the world loads without them.
void readSourceGameLumps(Map& map, std::span<const uint8_t> file, std::span<const uint8_t> game);

// ColorRGBExp32 to linear light on the engine's 0..255 scale: c * 2^exponent
// (mathlib/color_conversion.cpp ColorRGBExp32ToVector, 255 times TexLightToLinear).
glm::vec3 rgbExpToLinear(const ColorRgbExp32& c);

// The ambient cube at `point` (+x, -x, +y, -y, +z, -z, linear on the 0..255 scale) as the
// engine reconstructs it (SDK 2013 utils/vrad/leaf_ambient_lighting.cpp
// Mod_LeafAmbientColorAtPos): the leaf holding the point (or the leaf it stands in for), each
// of its samples at mins + (maxs - mins) * position / 255 weighted by 1 / (distance^2 + 1), the
// sum divided by the weights. `hdr` picks the set (falling back to the other when the map has
// only one). All zero when the map has no ambient lighting or the leaf has no sample.
std::array<glm::vec3, 6> ambientCubeAt(const Map& map, const glm::vec3& point, bool hdr);

} // namespace bsp
