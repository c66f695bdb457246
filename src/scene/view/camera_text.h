// Camera strings: the positions the engines print and take at their consoles, read and written
// so a view can be carried between bspview and a game (issue 33). GL-free, untrusted text in
// (what a user pastes), hostile-input safe (fuzz/fuzz_camera_text.cpp).
//
// Forms read (numbers as the engines print them: integers or decimals, any sign):
//   X,Y,Z,PITCH,YAW / --camera X,Y,Z,PITCH,YAW  bspview's own: the eye
//   X Y Z [PITCH YAW [ROLL]]                     plain numbers (spaces or commas): the eye
//   Viewpos: (X Y Z) PITCH YAW ROLL               QuakeSpasm `viewpos` (cl_main.c CL_Viewpos_f
//                                                 prints cl_entities[viewentity].origin): the
//                                                 player's origin, the eye `eye_height` above
//   setpos X Y Z [PITCH YAW ROLL]                 QuakeSpasm `setpos` (host_cmd.c Host_SetPos_f
//                                                 sets sv_player->v.origin), also Source's
//                                                 setpos alone (client.cpp: SetAbsOrigin): the
//                                                 player's origin
//   (X Y Z) : YAW                                 ioquake3 `viewpos` (cg_consolecmds.c
//                                                 CG_Viewpos_f prints cg.refdef.vieworg): the eye
//   setviewpos X Y Z YAW                          ioquake3 `setviewpos` (g_cmds.c
//                                                 Cmd_SetViewpos_f -> TeleportPlayer): origin
//   setpos X Y Z;setang PITCH YAW ROLL            Source `getpos` output (view.cpp GetPos:
//                                                 MainViewOrigin, MainViewAngles): the eye
//   setang PITCH YAW [ROLL]                       Source: angles only
//   spec_goto X Y Z PITCH YAW                     Source `spec_pos` output: the eye
// Roll is read and dropped (the viewer has none). Errors name what was expected, without a
// command-line flag in front (the caller adds one where it reads a flag).
#pragma once

#include "core/result.h"
#include "scene/view/camera.h"

#include <optional>
#include <string>
#include <string_view>

#include <glm/vec3.hpp>

namespace scene {

// Which program's text it was read as (for messages and tests).
enum class CameraTextForm {
    Numbers,           // plain numbers, or bspview's X,Y,Z,PITCH,YAW
    QuakeSpasmViewpos, // Viewpos: (X Y Z) P Y R
    QuakeSpasmSetpos,  // setpos X Y Z [P Y R] (also Source's setpos alone)
    Ioq3Viewpos,       // (X Y Z) : YAW
    Ioq3Setviewpos,    // setviewpos X Y Z YAW
    SourceGetpos,      // setpos X Y Z;setang P Y R
    SourceSetang,      // setang P Y [R]
    SourceSpecGoto,    // spec_goto X Y Z P Y
};

struct CameraText {
    CameraTextForm form = CameraTextForm::Numbers;
    std::optional<glm::vec3> position; // none: angles only (setang)
    bool player_origin = false;        // position is the player's origin, not the eye
    std::optional<float> pitch, yaw;   // none: the current view's angles stay
};

// Reads one of the forms above. Numbers must be finite and within +-1e6 (no map is larger);
// anything else (extra words, missing numbers) is a BadArgument error saying what was expected.
core::Result<CameraText> parseCameraText(std::string_view text);

// The camera `text` puts the view at: `current` with the text's position (a player origin
// raised by `eye_height`, the map's bsp::Map::eye_height) and angles where it has them.
Camera applyCameraText(const CameraText& text, const Camera& current, float eye_height);

// Strings to copy, each the form its program reads back to the same view:
enum class CameraFormat {
    Bspview,    // --camera X,Y,Z,PITCH,YAW (the eye)
    QuakeSpasm, // setpos X Y Z PITCH YAW 0 (the player origin: eye - eye_height)
    Ioquake3,   // setviewpos X Y Z YAW (the player origin; the pitch is lost)
    Source,     // setpos X Y Z;setang PITCH YAW 0, as getpos prints it (the eye)
};
inline constexpr int kNumCameraFormats = 4;
const char* cameraFormatName(CameraFormat format); // "bspview --camera", "QuakeSpasm setpos", ...
std::string formatCameraText(CameraFormat format, const Camera& camera, float eye_height);

} // namespace scene
