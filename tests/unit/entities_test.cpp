#include "bsp/entities.h"

#include <gtest/gtest.h>

TEST(Entities, ParsesKeyValuePairs) {
    std::vector<std::string> warnings;
    auto ents = bsp::parseEntities(
        "{\n\"classname\" \"worldspawn\"\n\"message\" \"Hello\"\n}\n"
        "{\n\"classname\" \"info_player_start\"\n\"origin\" \"1 2 3\"\n\"angle\" \"90\"\n}\n",
        &warnings);
    ASSERT_EQ(ents.size(), 2u);
    EXPECT_EQ(ents[0].classname(), "worldspawn");
    EXPECT_EQ(ents[0].get("message"), "Hello");
    EXPECT_EQ(*ents[1].vec3("origin"), glm::vec3(1, 2, 3));
    EXPECT_EQ(*ents[1].number("angle"), 90.0f);
    EXPECT_TRUE(warnings.empty());
}

TEST(Entities, MissingClosingQuoteEndsValueAtLineEnd) {
    std::vector<std::string> warnings;
    auto ents = bsp::parseEntities("{\n\"classname\" \"light\n\"origin\" \"0 0 64\"\n}\n"
                                   "{\n\"classname\" \"info_player_start\"\n}\n",
                                   &warnings);
    ASSERT_EQ(ents.size(), 2u);
    EXPECT_EQ(ents[0].classname(), "light");
    EXPECT_EQ(*ents[0].vec3("origin"), glm::vec3(0, 0, 64));
    EXPECT_EQ(ents[1].classname(), "info_player_start");
    EXPECT_FALSE(warnings.empty());
}

TEST(Entities, ToleratesStrayBracesAndUnterminatedEntity) {
    std::vector<std::string> warnings;
    auto ents = bsp::parseEntities("} junk { \"a\" \"b\" } { \"c\" ", &warnings);
    ASSERT_EQ(ents.size(), 2u);
    EXPECT_EQ(ents[0].get("a"), "b");
    EXPECT_GE(warnings.size(), 3u);
}

TEST(Entities, StopsAtNulAndIgnoresComments) {
    const std::string text("// comment\n{ \"a\" \"1\" }\0{ \"b\" \"2\" }", 35);
    auto ents = bsp::parseEntities(text, nullptr);
    ASSERT_EQ(ents.size(), 1u);
    EXPECT_EQ(ents[0].get("a"), "1");
}

TEST(Entities, BadNumbersAreRejected) {
    auto ents = bsp::parseEntities("{ \"origin\" \"1 2\" \"angle\" \"x\" }", nullptr);
    ASSERT_EQ(ents.size(), 1u);
    EXPECT_FALSE(ents[0].vec3("origin").has_value());
    EXPECT_FALSE(ents[0].number("angle").has_value());
}

TEST(Entities, SpawnPointsPreferPlayerStartThenDeathmatch) {
    bsp::Map map;
    map.entities = bsp::parseEntities(
        "{ \"classname\" \"info_player_deathmatch\" \"origin\" \"10 0 0\" \"angle\" \"45\" }"
        "{ \"classname\" \"info_player_start\" \"origin\" \"0 0 0\" }"
        "{ \"classname\" \"info_player_deathmatch\" \"origin\" \"bad\" }",
        nullptr);
    auto spawns = bsp::findSpawnPoints(map);
    ASSERT_EQ(spawns.size(), 2u);
    EXPECT_EQ(spawns[0].classname, "info_player_start");
    EXPECT_EQ(spawns[1].yaw, 45.0f);
}
