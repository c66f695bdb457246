// Quake 3 .skin files: which shader each surface of an .md3 is drawn with, read as ioquake3 reads
// them (code/renderergl1/tr_image.c RE_RegisterSkin with its CommaParse tokenizer).
//
// Grammar: a stream of tokens, each a "quoted string" or a run of bytes above space that stops
// at a comma; white space (every byte up to space, line breaks included), // and /* */ comments
// separate them. Tokens pair up as surface name, shader: the name is lower-cased, one comma right
// after it is skipped, and the next token, wherever it stands, is the shader (so "h_head," on a
// line with nothing after the comma takes the next line's first token as its shader, as the
// engine does). A surface name containing "tag_" (case as written) is skipped with no shader
// read: the files list their tags as "tag_head," lines. Names past MAX_SKIN_SURFACES are
// ignored with a warning, as the engine ignores them. A file with no surface leaves the model's
// own shaders (the engine's "default skin"): `surfaces` is empty.
//
// Safe on untrusted input: linear in the text, never reads past the view. Stricter than the
// engine where the engine would silently change a name, so a user learns why a skin does not
// apply: a NUL or a byte above 126 (the engine stops at a NUL, and reads a high byte as white
// space on signed-char targets only), and a name of MAX_QPATH (64) bytes or more (the engine
// truncates it) give errors naming the file and line.
#pragma once

#include "core/result.h"

#include <string>
#include <string_view>
#include <vector>

namespace content {

// ioquake3 tr_local.h MAX_SKIN_SURFACES; q_shared.h MAX_QPATH (names hold 63 bytes and a NUL).
inline constexpr size_t kMaxSkinSurfaces = 256;
inline constexpr size_t kMaxSkinName = 63;

struct SkinSurface {
    std::string surface; // lower case
    std::string shader;  // as written (shader lookups ignore case and extension); may be empty
    int line = 0;        // of the surface name, for messages
};

struct Skin {
    std::string file;
    std::vector<SkinSurface> surfaces; // in file order, at most kMaxSkinSurfaces
    std::vector<std::string> warnings; // "line N: ..." for surfaces ignored past the limit
};

// Errors (lump "line N"): BadValue (a NUL or a byte above 126), LimitExceeded (a surface or
// shader name longer than kMaxSkinName). `file` only names the file in messages.
core::Result<Skin> parseSkin(std::string_view text, std::string_view file);

// The shader `skin` gives the md3 surface `surface_name` (compared without case, as q3map2
// model.c InsertModel does; the engine lower-cases both sides before its strcmp), or nullptr
// when the skin does not name that surface. The first of repeated names wins.
const SkinSurface* findSkinSurface(const Skin& skin, std::string_view surface_name);

// The .skin file q3map2 (netradiant-custom tools/quake3/q3map2/model.cpp InsertModel) reads for
// a misc_model's "_skin" / "skin" key: all digits "models/x.md3_N.skin" (DarkPlaces' naming),
// otherwise "models/x_NAME.skin" (Quake 3's player-skin naming, the model's extension dropped).
// Empty when `skin` is empty.
std::string q3map2SkinPath(std::string_view model, std::string_view skin);

} // namespace content
