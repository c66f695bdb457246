// Source's tone map settings (game::ToneMapRule, game/source.cpp): the engine's defaults, and
// what an env_tonemap_controller's inputs, fired by a logic_auto as the map starts, leave
// (env_tonemap_controller.cpp, logicauto.cpp, cbase.cpp's event queue). Entity lumps are written
// here as text and parsed as a map's would be.
#include "bsp/entities.h"
#include "game/profile.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace {

// A Source map drawing `variant` lighting whose entity lump is `lump`.
game::ToneMapRule toneMapOf(const std::string& lump, const std::string& variant = "HDR") {
    bsp::Map m;
    m.format = bsp::Format::Source;
    m.has_light_data = true;
    m.lighting_variants = {variant};
    m.lighting_variant = variant;
    std::vector<std::string> warnings;
    m.entities = bsp::parseEntities(lump, &warnings);
    EXPECT_TRUE(warnings.empty());
    return game::profileFor(m).rules.tonemap;
}

const std::string kWorld = "{\n\"classname\" \"worldspawn\"\n}\n";
const std::string kController =
    "{\n\"classname\" \"env_tonemap_controller\"\n\"targetname\" \"tonemap\"\n}\n";

// A logic_auto whose output keys are `outputs` (key, value), in order.
std::string logicAuto(const std::vector<std::pair<std::string, std::string>>& outputs) {
    std::string s = "{\n\"classname\" \"logic_auto\"\n";
    for (const auto& [k, v] : outputs)
        s += "\"" + k + "\" \"" + v + "\"\n";
    return s + "}\n";
}

void expectDefaults(const game::ToneMapRule& t) {
    EXPECT_EQ(t.scale, 1.0f);    // ResetToneMapping(1.0), mat_hdr_tonemapscale 1
    EXPECT_EQ(t.auto_min, 0.5f); // mat_autoexposure_min
    EXPECT_EQ(t.auto_max, 2.0f); // mat_autoexposure_max
    EXPECT_EQ(t.rate, 1.0f);     // mat_hdr_manual_tonemap_rate
    EXPECT_EQ(t.bloom_scale, 1.0f);
    EXPECT_EQ(t.gamma, 2.2f);
    EXPECT_EQ(t.target, 0.6f); // mat_tonemap_percent_target 60
    EXPECT_EQ(t.bright_share, 0.02f);
    EXPECT_EQ(t.min_average, 0.03f);
}

} // namespace

TEST(ToneMapRule, DefaultsWithoutAController) {
    const game::ToneMapRule t = toneMapOf(kWorld);
    EXPECT_EQ(t.source, game::ToneMapSource::Defaults);
    EXPECT_EQ(t.controllers, 0);
    EXPECT_TRUE(t.enabled); // the HDR set is drawn
    expectDefaults(t);
    // The same settings where the LDR set is drawn, but no scale applies.
    const game::ToneMapRule ldr = toneMapOf(kWorld, "LDR");
    EXPECT_FALSE(ldr.enabled);
    EXPECT_EQ(ldr.source, game::ToneMapSource::Defaults);
    expectDefaults(ldr);
    // A controller nobody fires keeps the defaults.
    const game::ToneMapRule idle = toneMapOf(kWorld + kController);
    EXPECT_EQ(idle.source, game::ToneMapSource::Defaults);
    EXPECT_EQ(idle.controllers, 1);
    expectDefaults(idle);
}

TEST(ToneMapRule, OtherGamesHaveNone) {
    bsp::Map m;
    m.format = bsp::Format::Quake3;
    const game::ToneMapRule t = game::profileFor(m).rules.tonemap;
    EXPECT_EQ(t.source, game::ToneMapSource::None);
    EXPECT_FALSE(t.enabled);
}

TEST(ToneMapRule, ControllerInputsAtSpawn) {
    const game::ToneMapRule t =
        toneMapOf(kWorld + kController +
                  logicAuto({{"OnMapSpawn", "tonemap,SetAutoExposureMin,0.8,0,-1"},
                             {"OnMapSpawn", "tonemap,SetAutoExposureMax,3.5,0,-1"},
                             {"OnMapSpawn", "tonemap,SetBloomScale,0.25,0,-1"},
                             {"OnMapSpawn", "tonemap,SetTonemapScale,1.5,0,-1"},
                             {"OnNewGame", "tonemap,SetTonemapRate,0.25,0,-1"}}));
    EXPECT_EQ(t.source, game::ToneMapSource::Controller);
    EXPECT_EQ(t.auto_min, 0.8f);
    EXPECT_EQ(t.auto_max, 3.5f);
    EXPECT_EQ(t.bloom_scale, 0.25f);
    EXPECT_EQ(t.scale, 1.5f);
    EXPECT_EQ(t.rate, 0.25f);
    EXPECT_TRUE(t.enabled);
}

TEST(ToneMapRule, EscapeSeparatedActionsAndNameMatching) {
    // Newer compilers separate an action's fields with ESC (0x1b); names compare without case,
    // a trailing '*' matches the rest.
    const std::string esc = "\x1b";
    const game::ToneMapRule t =
        toneMapOf(kWorld + kController +
                  logicAuto({{"onmapspawn", "TONE*" + esc + "setautoexposuremax" + esc + "4" + esc +
                                                "0" + esc + "-1"}}));
    EXPECT_EQ(t.auto_max, 4.0f);
    EXPECT_EQ(t.auto_min, 0.5f);
    // No entity named so: the target is tried as a classname.
    const game::ToneMapRule by_class = toneMapOf(
        kWorld + kController +
        logicAuto({{"OnMapSpawn", "env_tonemap_controller,SetAutoExposureMin,0.75,0,-1"}}));
    EXPECT_EQ(by_class.auto_min, 0.75f);
    // A name another entity answers is not tried as a classname, and reaches no controller.
    const game::ToneMapRule other = toneMapOf(
        kWorld + kController + "{\n\"classname\" \"info_target\"\n\"targetname\" \"x\"\n}\n" +
        logicAuto({{"OnMapSpawn", "x,SetAutoExposureMin,0.75,0,-1"},
                   {"OnMapSpawn", "nobody,SetAutoExposureMin,0.75,0,-1"}}));
    EXPECT_EQ(other.source, game::ToneMapSource::Defaults);
    EXPECT_EQ(other.auto_min, 0.5f);
}

TEST(ToneMapRule, FiringOrder) {
    // Later delays fire later; among equal delays an output's actions fire in the reverse of
    // their order in the entity (each parsed action is put first), so the first listed is last.
    const game::ToneMapRule t =
        toneMapOf(kWorld + kController +
                  logicAuto({{"OnMapSpawn", "tonemap,SetAutoExposureMax,6,1.5,-1"},
                             {"OnMapSpawn", "tonemap,SetAutoExposureMax,4,0,-1"},
                             {"OnMapSpawn", "tonemap,SetAutoExposureMin,0.7,0,-1"},
                             {"OnMapSpawn", "tonemap,SetAutoExposureMin,0.9,0,-1"},
                             // OnMapSpawn fires after OnNewGame, whatever the key order.
                             {"OnMapSpawn", "tonemap,SetTonemapScale,0.5,0,-1"},
                             {"OnNewGame", "tonemap,SetTonemapScale,2,0,-1"}}));
    EXPECT_EQ(t.auto_max, 6.0f);
    EXPECT_EQ(t.auto_min, 0.7f);
    EXPECT_EQ(t.scale, 0.5f);
}

TEST(ToneMapRule, EngineRulesForValues) {
    // A custom minimum counts only above 0; the maximum is raised to a larger minimum.
    const game::ToneMapRule t =
        toneMapOf(kWorld + kController +
                  logicAuto({{"OnMapSpawn", "tonemap,SetAutoExposureMin,0,0,-1"},
                             {"OnMapSpawn", "tonemap,SetAutoExposureMax,1.25,1,-1"},
                             {"OnMapSpawn", "tonemap,SetAutoExposureMin,3,2,-1"}}));
    EXPECT_EQ(t.auto_min, 3.0f);
    EXPECT_EQ(t.auto_max, 3.0f);
    // UseDefaultAutoExposure drops both custom values; an input without a parameter is not
    // called (a void value is no float); BlendTonemapScale ends at its target and needs a time;
    // SetBloomScaleRange never reads its numbers.
    const game::ToneMapRule u =
        toneMapOf(kWorld + kController +
                  logicAuto({{"OnMapSpawn", "tonemap,SetAutoExposureMin,0.6,0,-1"},
                             {"OnMapSpawn", "tonemap,UseDefaultAutoExposure,,1,-1"},
                             {"OnMapSpawn", "tonemap,SetAutoExposureMax,,2,-1"},
                             {"OnMapSpawn", "tonemap,BlendTonemapScale,0.25 10,2,-1"},
                             {"OnMapSpawn", "tonemap,BlendTonemapScale,4,3,-1"},
                             {"OnMapSpawn", "tonemap,SetBloomScaleRange,2 1,3,-1"}}));
    EXPECT_EQ(u.source, game::ToneMapSource::Controller);
    EXPECT_EQ(u.auto_min, 0.5f);
    EXPECT_EQ(u.auto_max, 2.0f);
    EXPECT_EQ(u.scale, 0.25f);
    EXPECT_EQ(u.bloom_scale, 1.0f);
}

TEST(ToneMapRule, OnlyNewMapOutputsCount) {
    // OnLoadGame, OnMapTransition and a logic_relay's OnTrigger do not fire when a map starts.
    const game::ToneMapRule t = toneMapOf(
        kWorld + kController +
        logicAuto({{"OnLoadGame", "tonemap,SetAutoExposureMin,0.8,0,-1"},
                   {"OnMapTransition", "tonemap,SetAutoExposureMin,0.8,0,-1"}}) +
        "{\n\"classname\" \"logic_relay\"\n\"OnTrigger\" \"tonemap,SetAutoExposureMin,0.8,0,-1\"\n"
        "}\n");
    EXPECT_EQ(t.source, game::ToneMapSource::Defaults);
    EXPECT_EQ(t.auto_min, 0.5f);
}
