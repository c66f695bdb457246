// The Open panel's file browser (issue #18), without ImGui so tests drive it: a folder's
// sub-folders, its .bsp files and the maps inside its .pk3 / .pak / .zip archives, filtered by
// typed text, sorted by name or date, walked with the keyboard (type to filter, Up/Down to
// select, Enter to open, Backspace to go up).
//
// A folder that cannot be read or an archive that does not open gives an error line in the
// listing (with the reason), never an exception: listing runs on whatever the user points at.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace app {

struct BrowserEntry {
    enum class Kind : uint8_t { Parent, Folder, Map, ArchiveMap, Error };
    Kind kind = Kind::Map;
    std::string label; // as listed: "e1m1.bsp", "pak0.pak: maps/e1m1.bsp", "textures/"
    std::string spec;  // what opening it loads (a map spec) or the folder to enter
    int64_t mtime = 0; // seconds since the epoch, 0 when unknown (for sorting by date)
};

enum class BrowserSort : uint8_t { Name, Date };

class FileBrowser {
public:
    // Lists `folder` (made absolute); false when it is not a readable folder, and the listing
    // then holds one error line and the parent link.
    bool open(const std::filesystem::path& folder);
    void up() { open(m_folder.parent_path()); }
    void refresh() { open(m_folder); }
    const std::filesystem::path& folder() const { return m_folder; }

    // Case-insensitive substring of the label; the selection moves to the first match.
    void setFilter(std::string filter);
    const std::string& filter() const { return m_filter; }
    void setSort(BrowserSort sort);
    BrowserSort sort() const { return m_sort; }

    // The listing after filter and sort: ".." first, then folders, then maps.
    const std::vector<BrowserEntry>& entries() const { return m_shown; }
    int selected() const { return m_selected; }
    void select(int index);
    void moveSelection(int delta) { select(m_selected + delta); }

    // What Enter does on the selection: enters a folder (or goes up) and returns an empty
    // string, or returns the map spec to open.
    std::string activate();

private:
    void apply();

    std::filesystem::path m_folder;
    std::vector<BrowserEntry> m_all, m_shown;
    std::string m_filter;
    BrowserSort m_sort = BrowserSort::Name;
    int m_selected = 0;
};

// Recent folders: moves or inserts `folder` at the front, at most `max` kept.
void addRecentFolder(std::vector<std::string>& folders, const std::string& folder, size_t max = 10);

} // namespace app
