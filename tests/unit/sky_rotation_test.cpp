// Quake 2 sky rotation from worldspawn keys: "skyrotate" degrees per second about "skyaxis".
#include "bsp/entities.h"
#include "content/material/skybox.h"
#include "scene/load/map_bundle.h"

#include <gtest/gtest.h>

#include <glm/geometric.hpp>

namespace {

bsp::Map withWorldspawn(const std::string& keys) {
    bsp::Map m;
    m.entity_text = "{\n\"classname\" \"worldspawn\"\n" + keys + "}\n";
    m.entities = bsp::parseEntities(m.entity_text, &m.warnings);
    return m;
}

void expectNear(const glm::vec3& a, const glm::vec3& b) {
    EXPECT_NEAR(a.x, b.x, 1e-4f);
    EXPECT_NEAR(a.y, b.y, 1e-4f);
    EXPECT_NEAR(a.z, b.z, 1e-4f);
}

} // namespace

TEST(SkyRotation, FromWorldspawnKeys) {
    const content::SkyRotation r =
        scene::skyRotation(withWorldspawn("\"sky\" \"unit1_\"\n\"skyrotate\" \"10\"\n"));
    EXPECT_TRUE(r.rotating());
    EXPECT_FLOAT_EQ(r.degrees_per_second, 10.0f);
    expectNear(r.axis, {0, 0, 1}); // skyaxis absent: +Z

    const content::SkyRotation tilted =
        scene::skyRotation(withWorldspawn("\"skyrotate\" \"-5.5\"\n\"skyaxis\" \"2 0 0\"\n"));
    EXPECT_FLOAT_EQ(tilted.degrees_per_second, -5.5f);
    expectNear(tilted.axis, {1, 0, 0}); // normalised

    EXPECT_FALSE(scene::skyRotation(withWorldspawn("\"sky\" \"unit1_\"\n")).rotating());
    EXPECT_FALSE(scene::skyRotation(bsp::Map{}).rotating());
    // A zero axis (the game's default) and junk fall back to a still sky about +Z.
    const content::SkyRotation zero =
        scene::skyRotation(withWorldspawn("\"skyrotate\" \"4\"\n\"skyaxis\" \"0 0 0\"\n"));
    EXPECT_TRUE(zero.rotating());
    expectNear(zero.axis, {0, 0, 1});
    EXPECT_FALSE(content::parseSkyRotation("fast", "1 2").rotating());
    expectNear(content::parseSkyRotation("1", "1 2").axis, {0, 0, 1});
    EXPECT_FALSE(content::parseSkyRotation("nan", "").rotating());
}

TEST(SkyRotation, OrientationTurnsAboutTheAxisOverTime) {
    const content::SkyRotation r = content::parseSkyRotation("90", "0 0 1");
    // After one second the box's +X face looks along +Y (counter-clockwise seen from above,
    // as glRotatef with a positive angle about +Z).
    expectNear(r.orientation(1.0) * glm::vec3(1, 0, 0), {0, 1, 0});
    expectNear(r.orientation(0.0) * glm::vec3(1, 0, 0), {1, 0, 0});
    expectNear(r.orientation(4.0) * glm::vec3(1, 0, 0), {1, 0, 0});
    // Long sessions: the angle is reduced before single precision sees it.
    expectNear(r.orientation(1e7 + 1.0) * glm::vec3(1, 0, 0), {0, 1, 0});
    const content::SkyRotation still;
    expectNear(still.orientation(123.0) * glm::vec3(0.3f, 0.4f, 0.5f), {0.3f, 0.4f, 0.5f});
    // The axis itself never moves.
    const content::SkyRotation x = content::parseSkyRotation("33", "1 0 0");
    expectNear(x.orientation(2.5) * glm::vec3(1, 0, 0), {1, 0, 0});
}
