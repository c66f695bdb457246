// Map info limits, entity teleport targets, light style solo/mute, and the overlay panels
// drawn through a GL-free ImGui context (every panel open, real maps).
#include "app/panels.h"
#include "app/ui_layout.h"
#include "bsp/entities.h"
#include "bsp/load.h"
#include "bsp/map_limits.h"

#include <imgui.h>

#include <gtest/gtest.h>

#include <set>

namespace fs = std::filesystem;

namespace {

const fs::path kMaps = BSPV_SHARED_MAPS_DIR;

bsp::Map load(const fs::path& p) {
    auto m = bsp::loadMapFile(p);
    EXPECT_TRUE(m.ok()) << p << ": " << (m.ok() ? "" : m.error().message());
    return m.ok() ? std::move(*m) : bsp::Map();
}

const bsp::LumpLimit* findLimit(bsp::Format f, std::string_view lump) {
    for (const bsp::LumpLimit& l : bsp::lumpLimits(f))
        if (l.lump == lump)
            return &l;
    return nullptr;
}

} // namespace

TEST(MapLimits, TablesHoldTheEnginesValues) {
    using bsp::Format;
    EXPECT_EQ(findLimit(Format::Quake1, "planes")->max, 32767u);
    EXPECT_EQ(findLimit(Format::Quake1, "models")->max, 256u);
    EXPECT_EQ(findLimit(Format::Quake1, "entities")->max, 65536u);
    EXPECT_TRUE(findLimit(Format::Quake1, "lighting")->bytes);
    EXPECT_EQ(findLimit(Format::HalfLife, "models")->max, 400u);
    EXPECT_EQ(findLimit(Format::Quake2, "brushes")->max, 8192u);
    EXPECT_EQ(findLimit(Format::Quake2, "areaportals")->max, 1024u);
    EXPECT_EQ(findLimit(Format::Quake3, "faces")->constant, "MAX_MAP_DRAW_SURFS");
    EXPECT_EQ(findLimit(Format::Quake3, "vertexes")->max, 0x80000u);
    EXPECT_EQ(findLimit(Format::Quake3, "entity count")->max, 0x800u);
    EXPECT_TRUE(bsp::lumpLimits(Format::Quake1Bsp2).empty());
    EXPECT_TRUE(bsp::lumpLimits(Format::Quake1Rmq).empty());
    for (Format f : {Format::Quake1, Format::HalfLife, Format::Quake2, Format::Quake3}) {
        std::set<std::string_view> seen;
        for (const bsp::LumpLimit& l : bsp::lumpLimits(f)) {
            EXPECT_GT(l.max, 0u);
            EXPECT_TRUE(seen.insert(l.lump).second) << l.lump << " twice";
            EXPECT_EQ(l.constant.rfind("MAX_MAP_", 0), 0u);
        }
    }
}

// Every limit names a lump the parser of that format really records (names must not drift).
TEST(MapLimits, LimitNamesMatchTheParsersLumps) {
    for (const char* rel :
         {"q1/lq_start.bsp", "hl/cs_fy_pool_day.bsp", "q2/aq_credits.bsp", "q3/bc_crypt.bsp"}) {
        const bsp::Map map = load(kMaps / rel);
        ASSERT_FALSE(map.lumps.empty()) << rel;
        std::set<std::string> names;
        for (const bsp::LumpInfo& l : map.lumps)
            names.insert(l.name);
        const auto table = bsp::lumpLimits(map.format);
        ASSERT_FALSE(table.empty()) << rel;
        for (const bsp::LumpLimit& l : table) {
            if (l.lump != "entity count") {
                EXPECT_TRUE(names.count(std::string(l.lump))) << rel << ": " << l.lump;
            }
        }
        const auto rows = bsp::checkLimits(map);
        ASSERT_EQ(rows.size(), map.lumps.size() + 1);
        EXPECT_EQ(rows.back().lump, "entity count");
        EXPECT_EQ(rows.back().count, map.entities.size());
        for (const bsp::LimitRow& r : rows) {
            EXPECT_FALSE(r.over()) << rel << ": " << r.lump; // these maps ran in their games
            if (r.lump == "planes") {
                EXPECT_GT(r.limit, 0u);
                EXPECT_EQ(r.used, r.count);
                EXPECT_GT(r.fraction(), 0.0);
            }
        }
    }
}

TEST(MapLimits, OverALimitIsFlagged) {
    bsp::Map map;
    map.format = bsp::Format::Quake1;
    map.lumps.push_back({"planes", 0, 40000 * 20, 20, 40000});
    map.lumps.push_back({"lighting", 0, 0x100001, 0, 0x100001});
    map.lumps.push_back({"faces", 0, 20 * 10, 20, 10});
    map.lumps.push_back({"unknown", 0, 7, 0, 7});
    map.entities.resize(1025);
    const auto rows = bsp::checkLimits(map);
    ASSERT_EQ(rows.size(), 5u);
    EXPECT_TRUE(rows[0].over());
    EXPECT_TRUE(rows[1].over()); // a byte limit compares the length
    EXPECT_EQ(rows[1].used, 0x100001u);
    EXPECT_FALSE(rows[2].over());
    EXPECT_EQ(rows[3].limit, 0u);
    EXPECT_FALSE(rows[3].over());
    EXPECT_TRUE(rows[4].over());
    map.format = bsp::Format::Quake1Bsp2; // no table: nothing is over
    for (const bsp::LimitRow& r : bsp::checkLimits(map))
        EXPECT_FALSE(r.over());
}

TEST(EntityViewpoint, OriginAngleModelCentre) {
    bsp::Map map;
    map.submodels.resize(3);
    map.submodels[2].mins = {0, 0, 0};
    map.submodels[2].maxs = {100, 200, 300};
    auto ent = [](std::vector<std::pair<std::string, std::string>> kv) {
        bsp::Entity e;
        e.pairs = std::move(kv);
        return e;
    };
    auto a = app::entityViewpoint(ent({{"origin", "1 2 3"}, {"angle", "90"}}), map);
    ASSERT_TRUE(a);
    EXPECT_EQ(*a, (app::Bookmark{1, 2, 3, 0, 90}));
    auto up = app::entityViewpoint(ent({{"origin", "0 0 0"}, {"angle", "-1"}}), map);
    EXPECT_LT(up->pitch, -80.0f);
    auto down = app::entityViewpoint(ent({{"origin", "0 0 0"}, {"angle", "-2"}}), map);
    EXPECT_GT(down->pitch, 80.0f);
    auto angles = app::entityViewpoint(ent({{"origin", "0 0 0"}, {"angles", "30 45 0"}}), map);
    EXPECT_EQ(angles->pitch, 30.0f);
    EXPECT_EQ(angles->yaw, 45.0f);
    auto brush = app::entityViewpoint(ent({{"model", "*2"}}), map);
    ASSERT_TRUE(brush);
    EXPECT_EQ(*brush, (app::Bookmark{50, 100, 150, 0, 0}));
    auto moved = app::entityViewpoint(ent({{"model", "*2"}, {"origin", "10 0 0"}}), map);
    EXPECT_EQ(moved->x, 60.0f);
    EXPECT_FALSE(app::entityViewpoint(ent({{"model", "*9"}}), map)); // bad model, no origin
    EXPECT_FALSE(app::entityViewpoint(ent({{"model", "*x"}}), map));
    EXPECT_FALSE(app::entityViewpoint(ent({{"classname", "worldspawn"}}), map));
    EXPECT_FALSE(app::entityViewpoint(ent({{"origin", "1 2"}}), map));
    EXPECT_TRUE(app::entityViewpoint(ent({{"model", "*0"}, {"origin", "1 1 1"}}), map));
}

TEST(LightStyles, SoloWinsOverMute) {
    app::StyleControls st;
    auto e = st.enabled();
    EXPECT_TRUE(e[0] && e[5] && e[63]);
    st.mute[5] = true;
    e = st.enabled();
    EXPECT_TRUE(e[0]);
    EXPECT_FALSE(e[5]);
    st.solo[2] = true;
    st.solo[5] = true;
    e = st.enabled();
    EXPECT_FALSE(e[0]);
    EXPECT_TRUE(e[2]);
    EXPECT_TRUE(e[5]); // soloed beats muted
    const auto values = scene::lightStyleValues(0.0, &e);
    EXPECT_EQ(values[0], 0.0f);
    EXPECT_GT(values[5], 0.0f);
}

// The overlay with every panel open, built frame by frame without any GL: proves the panels
// run on real maps of each family and report their rectangle.
TEST(Overlay, DrawsEveryPanelWithoutGl) {
    for (const char* rel :
         {"q1/lq_e1m1.bsp", "q2/aq_credits.bsp", "q3/bc_crypt.bsp", "q1bsp2/lq_lq1m1.bsp"}) {
        scene::MapBundle bundle;
        bundle.spec = (kMaps / rel).string();
        bundle.map = load(kMaps / rel);
        bundle.spawns = bsp::findSpawnPoints(bundle.map);
        ASSERT_FALSE(bundle.map.entities.empty()) << rel;
        ImGuiContext* ctx = ImGui::CreateContext();
        ImGuiIO& io = ImGui::GetIO();
        io.IniFilename = nullptr;
        io.DisplaySize = ImVec2(1280, 720);
        io.DeltaTime = 1.0f / 60.0f;
        unsigned char* pixels = nullptr;
        int w = 0, h = 0;
        io.Fonts->GetTexDataAsRGBA32(&pixels, &w, &h);
        scene::Camera camera;
        render::RenderOptions ro;
        scene::VisOptions vo;
        scene::DrawStats stats;
        app::StyleControls styles;
        app::Settings settings;
        app::OverlayModel m;
        m.bundle = &bundle;
        m.stats = &stats;
        m.camera = &camera;
        m.render_options = &ro;
        m.vis_options = &vo;
        m.styles = &styles;
        m.settings = &settings;
        m.map_key = "k";
        m.styles_in_use = app::stylesInUse(bundle.map);
        m.selected_entity = 0;
        m.controls = app::gameControlsFor(bundle);
        app::setBookmark(settings, "k", 3, {1, 2, 3, 4, 5, "named"});
        settings.recent = {"/does/not/exist.bsp"};
        bool open[6] = {true, true, true, true, true, true};
        for (int frame = 0; frame < 3; ++frame) {
            ImGui::NewFrame();
            const bool interactive = frame == 2;
            const app::OverlayActions a = app::drawOverlay(m, interactive);
            app::OverlayActions b;
            app::drawViewOptions(m, &open[0], b);
            app::drawMapInfo(m, &open[1]);
            app::drawEntities(m, &open[2], b);
            app::drawLightStyles(m, &open[3]);
            app::drawBookmarks(m, &open[4], b, interactive);
            EXPECT_FALSE(a.settings_changed || b.settings_changed);
            EXPECT_FALSE(b.go_to || b.go_spawn || b.teleport_entity);
            ImGui::Render();
            EXPECT_GT(ImGui::GetDrawData()->TotalVtxCount, 0);
        }
        // The Overview: small, at the top left (headless: no menu bar above it).
        const auto rect = app::overlayWindowRect();
        EXPECT_EQ(rect[0], 10.0f);
        EXPECT_EQ(rect[1], 10.0f);
        EXPECT_GT(rect[2], 100.0f);
        EXPECT_GT(rect[3], 40.0f);
        EXPECT_LT(rect[2] * rect[3], 1280.0f * 720.0f * 0.06f) << rect[2] << "x" << rect[3];
        ImGui::DestroyContext(ctx);
    }
}

// Issue 33: the panels widened when a status line appeared, and showed each other's text
// through. The Overview wraps what it says (a long error keeps it narrow), and every panel
// is opaque.
TEST(Overlay, OverviewStaysNarrowAndPanelsAreOpaque) {
    ImGuiContext* ctx = ImGui::CreateContext();
    ImGuiIO& io = ImGui::GetIO();
    io.IniFilename = nullptr;
    io.DisplaySize = ImVec2(1280, 720);
    io.DeltaTime = 1.0f / 60.0f;
    unsigned char* pixels = nullptr;
    int w = 0, h = 0;
    io.Fonts->GetTexDataAsRGBA32(&pixels, &w, &h);
    app::applyUiStyle(1.0f);
    EXPECT_EQ(ImGui::GetStyle().Colors[ImGuiCol_WindowBg].w, 1.0f);
    EXPECT_EQ(ImGui::GetStyle().Colors[ImGuiCol_PopupBg].w, 1.0f);
    scene::MapBundle bundle;
    bundle.map = load(kMaps / "q1/lq_e1m1.bsp");
    scene::Camera camera;
    app::OverlayModel m;
    m.bundle = &bundle;
    m.camera = &camera;
    const std::string error =
        "/a/very/long/path/to/some/game/folder/maps/" + std::string(200, 'x') +
        ".bsp: faces[1234].edge: range 4000+12 beyond 3999 surfedges, and more words after it";
    m.error = error;
    bool open = true;
    for (int frame = 0; frame < 3; ++frame) {
        ImGui::NewFrame();
        app::OverlayActions a;
        app::drawOverview(m, &open, a, true);
        ImGui::Render();
    }
    const auto rect = app::overlayWindowRect();
    EXPECT_LT(rect[2], 380.0f);
    EXPECT_GT(rect[3], 60.0f); // the error wrapped onto more lines instead
    ImGui::DestroyContext(ctx);
}
