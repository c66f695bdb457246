#include "app/notices.h"

#include <imgui.h>

#include <algorithm>

namespace app {

void Notices::post(NoticeKind kind, std::string text, std::string key, double seconds) {
    if (seconds <= 0.0)
        seconds = kind == NoticeKind::Error ? kErrorSeconds : kInfoSeconds;
    if (!key.empty())
        clear(key);
    Notice n;
    n.kind = kind;
    n.text = std::move(text);
    n.key = std::move(key);
    n.expires = m_now + seconds;
    m_items.push_back(std::move(n));
    while (m_items.size() > kMaxShown * 2) // far more than are shown: the oldest go
        m_items.erase(m_items.begin());
}

void Notices::progress(const std::string& key, std::string text, float fraction) {
    for (Notice& n : m_items)
        if (n.key == key && n.kind == NoticeKind::Progress) {
            n.text = std::move(text);
            n.progress = fraction;
            return;
        }
    Notice n;
    n.kind = NoticeKind::Progress;
    n.text = std::move(text);
    n.key = key;
    n.progress = fraction;
    m_items.push_back(std::move(n));
}

void Notices::clear(const std::string& key) {
    m_items.erase(std::remove_if(m_items.begin(), m_items.end(),
                                 [&](const Notice& n) { return n.key == key; }),
                  m_items.end());
}

void Notices::update(double now) {
    m_now = std::max(m_now, now);
    m_items.erase(std::remove_if(m_items.begin(), m_items.end(),
                                 [&](const Notice& n) {
                                     return n.kind != NoticeKind::Progress && n.expires <= m_now;
                                 }),
                  m_items.end());
}

const Notice* Notices::find(const std::string& needle) const {
    for (auto it = m_items.rbegin(); it != m_items.rend(); ++it)
        if (it->text.find(needle) != std::string::npos)
            return &*it;
    return nullptr;
}

void Notices::draw(float width, float height, float bottom_margin) const {
    if (m_items.empty())
        return;
    const float pad = 10.0f;
    ImGui::SetNextWindowPos(ImVec2(pad, height - pad - bottom_margin), ImGuiCond_Always,
                            ImVec2(0.0f, 1.0f));
    ImGui::SetNextWindowBgAlpha(0.88f);
    // As wide as the text needs, up to most of the window: long paths wrap.
    ImGui::SetNextWindowSizeConstraints(
        ImVec2(0, 0), ImVec2(std::max(200.0f, width * 0.6f), std::max(100.0f, height * 0.5f)));
    const ImGuiWindowFlags flags = ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoInputs |
                                   ImGuiWindowFlags_AlwaysAutoResize | ImGuiWindowFlags_NoNav |
                                   ImGuiWindowFlags_NoFocusOnAppearing |
                                   ImGuiWindowFlags_NoSavedSettings;
    if (!ImGui::Begin("##notices", nullptr, flags)) {
        ImGui::End();
        return;
    }
    const size_t first = m_items.size() > kMaxShown ? m_items.size() - kMaxShown : 0;
    ImGui::PushTextWrapPos(std::max(200.0f, width * 0.6f) - 2 * ImGui::GetStyle().WindowPadding.x);
    for (size_t i = first; i < m_items.size(); ++i) {
        const Notice& n = m_items[i];
        const ImVec4 colour = n.kind == NoticeKind::Error     ? ImVec4(1.0f, 0.45f, 0.4f, 1.0f)
                              : n.kind == NoticeKind::Warning ? ImVec4(1.0f, 0.8f, 0.35f, 1.0f)
                                                              : ImVec4(0.92f, 0.92f, 0.92f, 1.0f);
        ImGui::PushStyleColor(ImGuiCol_Text, colour);
        ImGui::TextUnformatted(n.text.c_str());
        ImGui::PopStyleColor();
        if (n.progress >= 0.0f)
            ImGui::ProgressBar(std::min(n.progress, 1.0f), ImVec2(260.0f, 0.0f));
    }
    ImGui::PopTextWrapPos();
    ImGui::End();
}

} // namespace app
