// The contract between the C++ renderer and the GLSL programs, in the subset both languages
// read: C++ includes this file (render/glsl_library.h turns the numbers into typed constants)
// and render::GlslLibrary puts it in front of every program, so the two can never drift
// (niagara's config.h, sokol-shdc's generated slot constants).
//
// Only #define lines and comments here.
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

// Debug view modes (render::ViewMode).
#define VIEW_LIT 0
#define VIEW_LIGHTMAP 1
#define VIEW_FULLBRIGHT 2
#define VIEW_FLAT 3
#define VIEW_NORMALS 4
#define VIEW_OVERDRAW 5
#define VIEW_DELUXE 6 // the deluxe map's light direction as colour, grey where there is none

#endif
