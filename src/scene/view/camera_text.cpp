#include "scene/view/camera_text.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

namespace scene {

namespace {

constexpr size_t kMaxText = 512;       // longer is not a camera string
constexpr size_t kMaxNumbers = 8;      // the longest form has 6
constexpr float kMaxCoordinate = 1e6f; // no map is larger

core::Error textError(std::string_view text, const std::string& expected) {
    std::string shown(text.substr(0, 80));
    if (text.size() > 80)
        shown += "...";
    return core::makeError(core::ErrorCode::BadArgument, {}, -1, {},
                           "expected " + expected + ", got '" + shown + "'");
}

std::string_view trim(std::string_view s) {
    while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front())))
        s.remove_prefix(1);
    while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back())))
        s.remove_suffix(1);
    return s;
}

// Numbers separated by spaces, tabs or commas; false on anything else, a non-finite or
// out-of-range value, or more than kMaxNumbers.
bool readNumbers(std::string_view s, std::vector<float>& out) {
    out.clear();
    size_t i = 0;
    while (i < s.size()) {
        const char c = s[i];
        if (c == ' ' || c == '\t' || c == ',') {
            ++i;
            continue;
        }
        size_t end = i;
        while (end < s.size() && s[end] != ' ' && s[end] != '\t' && s[end] != ',')
            ++end;
        if (out.size() == kMaxNumbers)
            return false;
        const std::string token(s.substr(i, end - i));
        char* stop = nullptr;
        const float v = std::strtof(token.c_str(), &stop);
        if (stop != token.c_str() + token.size() || !std::isfinite(v) ||
            std::fabs(v) > kMaxCoordinate)
            return false;
        out.push_back(v);
        i = end;
    }
    return true;
}

// `s` starts with `word` followed by a space, tab or the end (case-insensitive); removes it.
bool takeWord(std::string_view& s, std::string_view word) {
    if (s.size() < word.size())
        return false;
    for (size_t i = 0; i < word.size(); ++i)
        if (std::tolower(static_cast<unsigned char>(s[i])) != word[i])
            return false;
    if (s.size() > word.size() && s[word.size()] != ' ' && s[word.size()] != '\t')
        return false;
    s = trim(s.substr(word.size()));
    return true;
}

void setAngles(CameraText& c, float pitch, float yaw) {
    c.pitch = pitch;
    c.yaw = yaw;
}

// "(X Y Z) P Y R" (QuakeSpasm viewpos) or "(X Y Z) : YAW" (ioquake3 viewpos).
core::Result<CameraText> parseParenthesised(std::string_view whole, std::string_view s) {
    const size_t close = s.find(')');
    std::vector<float> xyz, rest;
    if (close == std::string_view::npos || !readNumbers(s.substr(1, close - 1), xyz) ||
        xyz.size() != 3)
        return textError(whole, "(X Y Z) followed by PITCH YAW ROLL or ': YAW'");
    CameraText c;
    c.position = glm::vec3(xyz[0], xyz[1], xyz[2]);
    std::string_view after = trim(s.substr(close + 1));
    if (!after.empty() && after.front() == ':') {
        if (!readNumbers(after.substr(1), rest) || rest.size() != 1)
            return textError(whole, "(X Y Z) : YAW (ioquake3 viewpos)");
        c.form = CameraTextForm::Ioq3Viewpos;
        setAngles(c, 0.0f, rest[0]);
        return c;
    }
    if (!readNumbers(after, rest) || (rest.size() != 2 && rest.size() != 3))
        return textError(whole, "Viewpos: (X Y Z) PITCH YAW ROLL (QuakeSpasm viewpos)");
    c.form = CameraTextForm::QuakeSpasmViewpos;
    c.player_origin = true;
    setAngles(c, rest[0], rest[1]);
    return c;
}

// setpos / setang commands, one or two separated by ';'.
core::Result<CameraText> parseSetCommands(std::string_view whole) {
    CameraText c;
    bool have_setpos = false, have_setang = false;
    std::string_view s = whole;
    std::vector<float> n;
    while (!s.empty()) {
        const size_t semi = s.find(';');
        std::string_view command = trim(s.substr(0, semi));
        s = semi == std::string_view::npos ? std::string_view() : trim(s.substr(semi + 1));
        if (command.empty())
            continue;
        if (!have_setpos && (takeWord(command, "setpos") || takeWord(command, "setpos_exact"))) {
            if (!readNumbers(command, n) || (n.size() != 3 && n.size() != 6))
                return textError(whole, "setpos X Y Z [PITCH YAW ROLL]");
            c.position = glm::vec3(n[0], n[1], n[2]);
            if (n.size() == 6)
                setAngles(c, n[3], n[4]);
            have_setpos = true;
        } else if (!have_setang &&
                   (takeWord(command, "setang") || takeWord(command, "setang_exact"))) {
            if (!readNumbers(command, n) || (n.size() != 2 && n.size() != 3))
                return textError(whole, "setang PITCH YAW [ROLL]");
            setAngles(c, n[0], n[1]);
            have_setang = true;
        } else {
            return textError(whole, "setpos X Y Z;setang PITCH YAW ROLL");
        }
    }
    if (have_setpos && have_setang) {
        c.form = CameraTextForm::SourceGetpos; // what getpos prints: the eye
    } else if (have_setpos) {
        c.form = CameraTextForm::QuakeSpasmSetpos; // the command: the player's origin
        c.player_origin = true;
    } else {
        c.form = CameraTextForm::SourceSetang;
    }
    return c;
}

// The leading word, lower-cased: letters, digits, '_', '-' and ':' up to anything else.
std::string firstWord(std::string_view s) {
    std::string w;
    for (char c : s) {
        if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_' && c != '-' && c != ':')
            break;
        w += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    }
    return w;
}

} // namespace

core::Result<CameraText> parseCameraText(std::string_view raw) {
    const std::string_view whole = trim(raw);
    const std::string kAny = "X Y Z [PITCH YAW], X,Y,Z,PITCH,YAW, or an engine's viewpos, "
                             "setpos or getpos line";
    if (whole.empty() || whole.size() > kMaxText)
        return textError(whole, kAny);
    std::string_view s = whole;
    std::vector<float> n;
    const std::string word = firstWord(s);
    if (word == "viewpos:" || s.front() == '(') {
        s = trim(s.substr(word.size()));
        if (s.empty() || s.front() != '(')
            return textError(whole, "Viewpos: (X Y Z) PITCH YAW ROLL");
        return parseParenthesised(whole, s);
    }
    if (word == "setpos" || word == "setpos_exact" || word == "setang" || word == "setang_exact")
        return parseSetCommands(whole);
    if (takeWord(s, "--camera")) {
        if (!readNumbers(s, n) || n.size() != 5)
            return textError(whole, "--camera X,Y,Z,PITCH,YAW");
    } else if (takeWord(s, "setviewpos")) {
        if (!readNumbers(s, n) || n.size() != 4)
            return textError(whole, "setviewpos X Y Z YAW (ioquake3)");
        CameraText c;
        c.form = CameraTextForm::Ioq3Setviewpos;
        c.position = glm::vec3(n[0], n[1], n[2]);
        c.player_origin = true;
        setAngles(c, 0.0f, n[3]);
        return c;
    } else if (takeWord(s, "spec_goto")) {
        if (!readNumbers(s, n) || n.size() != 5)
            return textError(whole, "spec_goto X Y Z PITCH YAW");
        CameraText c;
        c.form = CameraTextForm::SourceSpecGoto;
        c.position = glm::vec3(n[0], n[1], n[2]);
        setAngles(c, n[3], n[4]);
        return c;
    } else if (!readNumbers(s, n) || (n.size() != 3 && n.size() != 5 && n.size() != 6)) {
        return textError(whole, kAny);
    }
    CameraText c;
    c.position = glm::vec3(n[0], n[1], n[2]);
    if (n.size() >= 5)
        setAngles(c, n[3], n[4]);
    return c;
}

Camera applyCameraText(const CameraText& text, const Camera& current, float eye_height) {
    Camera c = current;
    if (text.position) {
        c.position = *text.position;
        if (text.player_origin)
            c.position.z += eye_height;
    }
    if (text.pitch)
        c.pitch = std::clamp(*text.pitch, -89.0f, 89.0f);
    if (text.yaw)
        c.yaw = *text.yaw;
    return c;
}

const char* cameraFormatName(CameraFormat format) {
    switch (format) {
    case CameraFormat::Bspview:
        return "bspview --camera";
    case CameraFormat::QuakeSpasm:
        return "QuakeSpasm setpos";
    case CameraFormat::Ioquake3:
        return "ioquake3 setviewpos";
    case CameraFormat::Source:
        return "Source getpos (setpos;setang)";
    }
    return "?";
}

std::string formatCameraText(CameraFormat format, const Camera& c, float eye_height) {
    const double x = c.position.x, y = c.position.y, z = c.position.z;
    const double feet = z - static_cast<double>(eye_height);
    const double pitch = c.pitch, yaw = c.yaw;
    char buf[200];
    switch (format) {
    case CameraFormat::Bspview:
        std::snprintf(buf, sizeof buf, "--camera %.2f,%.2f,%.2f,%.2f,%.2f", x, y, z, pitch, yaw);
        break;
    case CameraFormat::QuakeSpasm:
        std::snprintf(buf, sizeof buf, "setpos %.2f %.2f %.2f %.2f %.2f 0", x, y, feet, pitch, yaw);
        break;
    case CameraFormat::Ioquake3:
        std::snprintf(buf, sizeof buf, "setviewpos %.2f %.2f %.2f %.2f", x, y, feet, yaw);
        break;
    case CameraFormat::Source:
        std::snprintf(buf, sizeof buf, "setpos %f %f %f;setang %f %f 0.000000", x, y, z, pitch,
                      yaw);
        break;
    }
    return buf;
}

} // namespace scene
