// content::likelyGameOf: the game a missing Source material's path suggests.
#include "content/vfs/game_hints.h"

#include <gtest/gtest.h>

namespace {

TEST(GameHints, FoldersAndPrefixesNameTheirGame) {
    using content::likelyGameOf;
    EXPECT_EQ(likelyGameOf("PROPS_2FORT/WOOD_BEAM001"), "Team Fortress 2");
    EXPECT_EQ(likelyGameOf("tf/concrete/floor"), "Team Fortress 2");
    EXPECT_EQ(likelyGameOf("maps\\ctf_2fort\\c0_0_0"), "Team Fortress 2");
    EXPECT_EQ(likelyGameOf("DE_DUST/SITEBWALL03A"), "Counter-Strike");
    EXPECT_EQ(likelyGameOf("cs_italy/plaster"), "Counter-Strike");
    EXPECT_EQ(likelyGameOf("models/props_l4d2/wall"), "Left 4 Dead");
    EXPECT_EQ(likelyGameOf("halflife/black"), "Half-Life 2");
    EXPECT_EQ(likelyGameOf("props_c17/fence01a"), "Half-Life 2");
    EXPECT_EQ(likelyGameOf("portal/metalwall"), "Portal");
    EXPECT_EQ(likelyGameOf("momentum/bhop_wall"), "Momentum Mod");
    EXPECT_EQ(likelyGameOf("gm_construct/grass"), "Garry's Mod");
    EXPECT_EQ(likelyGameOf("dod_flash/wall"), "Day of Defeat: Source");
}

TEST(GameHints, FirstMatchingFolderDecidesAndPlainNamesHaveNone) {
    using content::likelyGameOf;
    // cs_ (Counter-Strike) comes before props_2fort in the path.
    EXPECT_EQ(likelyGameOf("cs_assault/props_2fort/x"), "Counter-Strike");
    // Whole components only for "tf" and "cstrike"; prefixes must start the component.
    EXPECT_EQ(likelyGameOf("tfx/wall"), "");
    EXPECT_EQ(likelyGameOf("brick/code_wall"), "");
    EXPECT_EQ(likelyGameOf("concrete/concretefloor001a"), "");
    EXPECT_EQ(likelyGameOf(""), "");
    EXPECT_EQ(likelyGameOf("//"), "");
}

} // namespace
