// Shared by every bspview program. #version and feature defines are prepended at compile.

// Attribute locations: mirrored in src/render/shader_library.h (kAttrib*).
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

// Debug view modes: mirrored in src/render/world_renderer.h (ViewMode).
#define VIEW_LIT 0
#define VIEW_LIGHTMAP 1
#define VIEW_FULLBRIGHT 2
#define VIEW_FLAT 3
#define VIEW_NORMALS 4
#define VIEW_OVERDRAW 5
