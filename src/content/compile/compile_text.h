// The compile tools' text files (.pts, .lin, .prt), read with core::TextScanner: white-space
// separated numbers and the brackets '(' ')' as tokens of their own, no comments, no quotes,
// with the line of every token so errors say "line 12".
#pragma once

#include "core/text_scanner.h"

namespace content {

// Coordinates beyond this are no map's (Quake 3's grid ends at +-65536; BSP2 maps reach a few
// hundred thousand): such a point is damage, and refusing it keeps every sum and length finite.
inline constexpr float kMaxCompileCoordinate = 1048576.0f;

inline constexpr core::TextSyntax kCompileTextSyntax =
    core::TextSyntax().withBlanks(" \t\n\r\v\f").withPunctuation("()");

} // namespace content
