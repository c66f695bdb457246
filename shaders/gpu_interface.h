// The contract between the C++ renderer and the GLSL programs, in the subset both languages
// read: C++ includes this file (render/glsl_library.h turns the numbers into typed constants)
// and render::GlslLibrary puts it in front of every program, so the two can never drift
// (niagara's config.h, sokol-shdc's generated slot constants).
//
// Only #define lines and comments here, but for the GLSL declarations of the uniform blocks
// at the end, which only GLSL compiles (GL_core_profile: "#version 330 core").
#ifndef BSPV_GPU_INTERFACE_H
#define BSPV_GPU_INTERFACE_H

// Vertex attribute locations: scene::WorldVertex (0-7), scene::SpriteVertex (8-9).
#define ATTRIB_POSITION 0
#define ATTRIB_UV 1
#define ATTRIB_LM_UV 2
#define ATTRIB_NORMAL 3
#define ATTRIB_COLOUR 4
#define ATTRIB_STYLES 5
#define ATTRIB_LM_LAYER 6
#define ATTRIB_LM_STEP 7
#define ATTRIB_SPRITE0 8
#define ATTRIB_SPRITE1 9

// Texture units. GLSL 330 has no layout(binding): samplers are pointed at these after linking.
#define UNIT_TEXTURE 0   // u_texture: the material's image
#define UNIT_LIGHTMAPS 1 // u_lightmaps: the lightmap atlas, a 2D array of pages
#define UNIT_GLOW 2      // u_glow: fullbright texels
#define UNIT_SKYBOX 3    // u_skybox: the six faces of the sky box, a 2D array
#define UNIT_STAGE0 4    // u_texture0..5: the images of a folded run of Quake 3 stages
#define MAX_FOLDED_STAGES 6
#define UNIT_DELUXEMAPS 10 // u_deluxemaps: light directions (q3map2 deluxe maps), a 2D array
#define UNIT_LAYER2 11     // u_layer2: a material's second image, mixed in by vertex alpha
#define UNIT_BUMPMAP 13    // u_bumpmap: a Source $bumpmap (normal map or $ssbump weights)
#define UNIT_ENVMAP 14     // u_envmap: a Source $envmap, a cube map
#define UNIT_ENVMAPMASK 15 // u_envmapmask: a Source $envmapmask
// A planar water's pictures (world.frag.glsl WATER_PLANAR). The world program's water variants
// read no stage images, so two stage units stand in (16 units are all GL 3.3 promises).
#define UNIT_WATER_REFLECTION 4 // u_water_reflection: the view mirrored in the water's plane
#define UNIT_WATER_SCENE 5      // u_water_scene: the frame's colour before the water
#define UNIT_WATER_DEPTH 12     // u_water_depth: the frame's depth before the water

// Debug view modes (render::ViewMode).
#define VIEW_LIT 0
#define VIEW_LIGHTMAP 1
#define VIEW_FULLBRIGHT 2
#define VIEW_FLAT 3
#define VIEW_NORMALS 4
#define VIEW_OVERDRAW 5
#define VIEW_DELUXE 6 // the deluxe map's light direction as colour, grey where there is none

// The uniform blocks (std140): the frame's constants and the map's lighting rule, one buffer
// each, uploaded by render::UniformBlocks and bound to these points once per view. GLSL 330 has
// no layout(binding): every program's blocks are pointed at them after linking. Each block is a
// list of fields that both languages expand: GLSL to the block below (read as u_frame.name,
// u_map.name), C++ to a struct with std140's offsets (render/uniform_blocks.h, which checks
// them at compile time; tests/render/uniform_block_test.cpp against the driver). Field types:
// float, int, vec3 (followed by a float), vec4, mat3, mat4; ARRAY: vec4 only.
#define BLOCK_FRAME 0
#define BLOCK_MAP 1

// Per frame (render::Frame): the view, the time and the light styles.
#define FRAME_BLOCK_FIELDS(FIELD, ARRAY)                                                           \
    FIELD(mat4, view_projection) /* world -> clip */                                               \
    FIELD(mat3, sky_rotation)    /* world direction -> sky box direction */                        \
    FIELD(vec3, eye)             /* camera position */                                             \
    FIELD(float, time)           /* seconds, modulo 4096 */                                        \
    FIELD(vec3, view_forward)    /* unit view axis: depth = dot(p - eye, view_forward) */          \
    FIELD(float, frame_scale)    /* what the framebuffer holds of the shown colour */              \
    FIELD(vec3, view_left)       /* Quake's view axes (autosprite deforms) */                      \
    FIELD(float, light_shift)    /* ioquake3's lightmap and vertex colour shift, a factor */       \
    FIELD(vec3, view_up)                                                                           \
    FIELD(float, warp_phase)      /* the liquid ripple's phase, radians */                         \
    ARRAY(vec4, style_values, 16) /* light style k's brightness: [k / 4][k % 4] */                 \
    FIELD(float, tone_scale)      /* the tone map's linear scale as a display-space factor */ \
    FIELD(vec4, clip_plane)       /* world.vert.glsl gl_ClipDistance[0]: dot((p, 1), plane) */

// The map's rules (game::MapRules) as the view options apply them: changes with the map, or
// with an option the rules read (neutral lighting, the view, exposure, fog, hardware gamma).
#define MAP_BLOCK_FIELDS(FIELD, ARRAY)                                                             \
    FIELD(vec4, distance_fog)    /* rgb: colour as the frame holds it, a: density per unit */      \
    FIELD(vec4, sky_fog)         /* rgb: fog colour, a: its share over the sky (0: none) */        \
    FIELD(vec4, linear_fog)      /* w 1: linear in depth from x to y, at most z; w 2: radial */    \
    FIELD(float, light_scale)    /* lightmap and vertex colour multiplier (overbright shift) */    \
    FIELD(float, light_max)      /* saturation of the scaled light per channel, 0: none */         \
    FIELD(float, output_scale)   /* final multiplier (Quake 3 gamma-ramp overbright) */            \
    FIELD(float, texture_scale)  /* texel multiplier (Quake 2 intensity) */                        \
    FIELD(float, texture_max)    /* saturation of the scaled texel, 0: none (Quake 2 GL1) */       \
    FIELD(float, output_gamma)   /* exponent of the lit colour (Quake 2 1 / vid_gamma) */          \
    FIELD(float, warp_amplitude) /* turbulence in 64-texel tiles (8 texels: 0.125) */              \
    FIELD(float, warp_frequency) /* radians per texel of the ripple (2 pi / period) */             \
    FIELD(float, warp_knot)      /* > 0: the sine sampled every this many texels */                \
    FIELD(float, warp_tile)      /* texels per uv unit, 0: the texture's size */                   \
    FIELD(int, light_normalize)  /* 1: scale an over-bright colour down by its largest channel */ \
    FIELD(float, sky_edge)       /* sky box faces sampled in [sky_edge, 1 - sky_edge] */

#ifdef GL_core_profile
#define GLSL_BLOCK_FIELD(type, name) type name;
#define GLSL_BLOCK_ARRAY(type, name, count) type name[count];
layout(std140) uniform FrameBlock{FRAME_BLOCK_FIELDS(GLSL_BLOCK_FIELD, GLSL_BLOCK_ARRAY)} u_frame;
layout(std140) uniform MapBlock{MAP_BLOCK_FIELDS(GLSL_BLOCK_FIELD, GLSL_BLOCK_ARRAY)} u_map;
#endif

#endif
