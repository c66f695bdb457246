// Source's number proxies (content/material/material_proxy.h): each proxy evaluated at given
// times against values worked out by hand from the engine's OnBind (mathproxy.cpp,
// timematerialproxy.cpp, matrixproxy.cpp), the keys read as their Init reads them
// (functionproxy.cpp CFloatInput::Init, CResultProxy::Init, CFunctionProxy::Init), and the
// warnings of a proxy the engine would drop.
#include "content/material/material_proxy.h"
#include "content/material/vmt.h"

#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <string>
#include <vector>

namespace {

content::Vmt vmtOf(const std::string& text) {
    auto v = content::parseVmt(text, "materials/t/m.vmt");
    EXPECT_TRUE(v.ok()) << v.error().message();
    return v.ok() ? *v : content::Vmt();
}

// A LightmappedGeneric material with `vars` and the proxies `proxies`.
content::Vmt proxyVmt(const std::string& vars, const std::string& proxies) {
    return vmtOf("LightmappedGeneric { $basetexture t/a " + vars + " Proxies { " + proxies +
                 " } }");
}

void expectMatrix(const content::TextureTransform& t, const std::array<float, 6>& want) {
    for (size_t i = 0; i < 6; ++i)
        EXPECT_NEAR(t.m[i], want[i], 1e-5f) << "element " << i;
}

} // namespace

TEST(MaterialProxy, SineBetweenItsMinAndMaxWithPeriodAndOffset) {
    // value = (max - min) * (sin(2 pi (t - offset) / period) / 2 + 1/2) + min, with period 4,
    // min .2, max .6, offset 1: t = 1 sin 0 -> .4; t = 2 sin(pi/2) = 1 -> .6; t = 3 sin(pi) -> .4;
    // t = 4 sin(3 pi / 2) = -1 -> .2; t = 2.5 sin(3 pi / 4) -> .4 + .2 sqrt(2) / 2.
    const content::Vmt v =
        proxyVmt("", "Sine { resultVar $alpha sinePeriod 4 sineMin .2 sineMax .6 timeOffset 1 }");
    ASSERT_TRUE(v.warnings.empty());
    ASSERT_EQ(v.proxies.steps.size(), 1u);
    EXPECT_EQ(v.proxies.alpha, 0);
    EXPECT_NEAR(v.proxies.evaluate(1.0).alpha, 0.4f, 1e-6f);
    EXPECT_NEAR(v.proxies.evaluate(2.0).alpha, 0.6f, 1e-6f);
    EXPECT_NEAR(v.proxies.evaluate(3.0).alpha, 0.4f, 1e-6f);
    EXPECT_NEAR(v.proxies.evaluate(4.0).alpha, 0.2f, 1e-6f);
    EXPECT_NEAR(v.proxies.evaluate(2.5).alpha, 0.4f + 0.2f * std::sqrt(2.0f) / 2.0f, 1e-6f);
    // Defaults: period 1, min 0, max 1, offset 0: t = .25 -> 1, t = .75 -> 0; a period of 0 is 1.
    const content::Vmt d = proxyVmt("", "Sine { resultVar $alpha }");
    EXPECT_NEAR(d.proxies.evaluate(0.25).alpha, 1.0f, 1e-6f);
    EXPECT_NEAR(d.proxies.evaluate(0.75).alpha, 0.0f, 1e-6f);
    const content::Vmt z = proxyVmt("", "Sine { resultVar $alpha sinePeriod 0 }");
    EXPECT_NEAR(z.proxies.evaluate(0.25).alpha, 1.0f, 1e-6f);
    // Inputs that name vars read them, "[i]" one component: period $p[1] = 2, max $m = .5:
    // t = .5 -> sin(pi/2) -> .5.
    const content::Vmt n = proxyVmt(R"($p "[9 2 9]" $m .5)",
                                    R"(Sine { resultVar $alpha sinePeriod "$p[1]" sineMax $m })");
    ASSERT_TRUE(n.warnings.empty());
    EXPECT_NEAR(n.proxies.evaluate(0.5).alpha, 0.5f, 1e-6f);
    EXPECT_NEAR(n.proxies.evaluate(1.5).alpha, 0.0f, 1e-6f);
}

TEST(MaterialProxy, LinearRampAndCurrentTimeFollowTheClock) {
    // rate * t + initialValue into a whole vector: every component (SetFloatResult).
    const content::Vmt v = proxyVmt("", "LinearRamp { resultVar $color rate 2 initialValue .5 }");
    const content::ProxyValues at = v.proxies.evaluate(1.5);
    EXPECT_EQ(at.colour, (std::array<float, 3>{3.5f, 3.5f, 3.5f}));
    // Defaults: rate 1, initial 0.
    const content::Vmt d = proxyVmt("$x 0", "LinearRamp { resultVar $x }");
    EXPECT_FLOAT_EQ(d.proxies.valueAfter(7.0, "$x")[0], 7.0f);
    const content::Vmt t = proxyVmt("$x 0", "CurrentTime { resultVar $x }");
    EXPECT_FLOAT_EQ(t.proxies.valueAfter(12.25, "$x")[0], 12.25f);
}

TEST(MaterialProxy, ArithmeticChainIntoOneComponentOfColour) {
    // $tmp = t; $tmp = $tmp * $a; $color[1] = $tmp + $a: at t = 2, .5 + .25 = .75, with $color's
    // other components as written (.5).
    const content::Vmt v = proxyVmt(R"($a .25 $tmp 0 $color "[.5 .5 .5]")", R"(
        LinearRamp { resultVar $tmp }
        Multiply { srcVar1 $tmp srcVar2 $a resultVar $tmp }
        Add { srcVar1 $tmp srcVar2 $a resultVar "$color[1]" })");
    ASSERT_TRUE(v.warnings.empty());
    EXPECT_EQ(v.proxies.evaluate(2.0).colour, (std::array<float, 3>{0.5f, 0.75f, 0.5f}));
    // At t = 6: 1.5 + .25.
    EXPECT_EQ(v.proxies.evaluate(6.0).colour, (std::array<float, 3>{0.5f, 1.75f, 0.5f}));
    // Vectors: component by component; a float divide by 0 keeps the dividend.
    const content::Vmt w = proxyVmt(R"($b "[2 3 4]" $c "[1 1 2]" $d "[0 0 0]" $e "[0 0 0]"
                                      $f 0 $zero 0 $g 0)",
                                    R"(Subtract { srcVar1 $b srcVar2 $c resultVar $d }
        Divide { srcVar1 $b srcVar2 $c resultVar $e }
        Divide { srcVar1 $c srcVar2 $zero resultVar $f }
        Multiply { srcVar1 $b srcVar2 $c resultVar "$d[2]" })");
    ASSERT_TRUE(w.warnings.empty());
    // $d = [1 2 2], then its component 2 = $b * $c as floats (first components): 2.
    EXPECT_EQ(w.proxies.valueAfter(0.0, "$d"), (std::array<float, 4>{1.0f, 2.0f, 2.0f, 0.0f}));
    EXPECT_EQ(w.proxies.valueAfter(0.0, "$e"), (std::array<float, 4>{2.0f, 3.0f, 2.0f, 0.0f}));
    EXPECT_FLOAT_EQ(w.proxies.valueAfter(0.0, "$f")[0], 1.0f);
}

TEST(MaterialProxy, OneSourceProxiesAndSelections) {
    // $x = t - 2.75 (LinearRamp with initialValue -2.75); at t = 1: -1.75.
    const content::Vmt v = proxyVmt(R"($x 0 $abs 0 $frac 0 $int 0 $eq 0 $one 1 $two 2 $le 0
                                      $sel 0 $zero 0 $exp 0)",
                                    R"(LinearRamp { resultVar $x initialValue -2.75 }
        Abs { srcVar1 $x resultVar $abs }
        Frac { srcVar1 $x resultVar $frac }
        Int { srcVar1 $x resultVar $int }
        Equals { srcVar1 $x resultVar $eq }
        LessOrEqual { srcVar1 $x srcVar2 $zero lessEqualVar $one greaterVar $two resultVar $le }
        SelectFirstIfNonZero { srcVar1 $zero srcVar2 $x resultVar $sel }
        Exponential { srcVar1 $zero scale 3 offset 1 maxVal 5 resultVar $exp })");
    ASSERT_TRUE(v.warnings.empty());
    const auto at = [&](double t, const char* var) { return v.proxies.valueAfter(t, var)[0]; };
    EXPECT_FLOAT_EQ(at(1.0, "$abs"), 1.75f);
    EXPECT_FLOAT_EQ(at(1.0, "$frac"), -0.75f); // a - (int)a, toward zero
    EXPECT_FLOAT_EQ(at(1.0, "$int"), -1.0f);
    EXPECT_FLOAT_EQ(at(1.0, "$eq"), -1.75f);
    EXPECT_FLOAT_EQ(at(1.0, "$le"), 1.0f); // -1.75 <= 0
    EXPECT_FLOAT_EQ(at(4.0, "$le"), 2.0f); // 1.25 > 0
    EXPECT_FLOAT_EQ(at(1.0, "$sel"), -1.75f);
    // 3 e^(0 + 1) = 8.15 clamped to 5.
    EXPECT_FLOAT_EQ(at(0.0, "$exp"), 5.0f);
    const content::Vmt e =
        proxyVmt("$zero 0 $exp 0", "Exponential { srcVar1 $zero scale 2 resultVar $exp }");
    EXPECT_FLOAT_EQ(e.proxies.valueAfter(0.0, "$exp")[0], 2.0f);
}

TEST(MaterialProxy, ClampAndWrapMinMaxAtTheirEdges) {
    // Clamp with min .8 above max .2: the two swap. $x = t.
    const content::Vmt c = proxyVmt("$x 0 $y 0", R"(LinearRamp { resultVar $x }
        Clamp { srcVar1 $x min .8 max .2 resultVar $y })");
    EXPECT_FLOAT_EQ(c.proxies.valueAfter(1.0, "$y")[0], 0.8f);
    EXPECT_FLOAT_EQ(c.proxies.valueAfter(0.5, "$y")[0], 0.5f);
    EXPECT_FLOAT_EQ(c.proxies.valueAfter(0.0, "$y")[0], 0.2f);
    // Clamp's defaults 0 and 1, on a vector: each component.
    const content::Vmt cv =
        proxyVmt(R"($v "[-1 .5 2]" $y "[0 0 0]")", "Clamp { srcVar1 $v resultVar $y }");
    EXPECT_EQ(cv.proxies.valueAfter(0.0, "$y"), (std::array<float, 4>{0.0f, 0.5f, 1.0f, 0.0f}));
    // WrapMinMax into [1, 3): r = (x - 1) / 2; x = 3 -> 1 -> 0 -> 1; x = .5 -> -.25, raised by
    // 1 -> .75 -> 2.5; x = 0 -> -.5 -> .5 -> 2; x = 2.5 -> .75 -> 2.5.
    const content::Vmt w = proxyVmt("$x 0 $y 0", R"(LinearRamp { resultVar $x }
        WrapMinMax { srcVar1 $x minVal 1 maxVal 3 resultVar $y })");
    EXPECT_FLOAT_EQ(w.proxies.valueAfter(3.0, "$y")[0], 1.0f);
    EXPECT_FLOAT_EQ(w.proxies.valueAfter(0.5, "$y")[0], 2.5f);
    EXPECT_FLOAT_EQ(w.proxies.valueAfter(0.0, "$y")[0], 2.0f);
    EXPECT_FLOAT_EQ(w.proxies.valueAfter(2.5, "$y")[0], 2.5f);
    // maxVal not above minVal: the minimum.
    const content::Vmt b = proxyVmt("$x 0 $y 0", R"(LinearRamp { resultVar $x }
        WrapMinMax { srcVar1 $x minVal 2 maxVal 2 resultVar $y })");
    EXPECT_FLOAT_EQ(b.proxies.valueAfter(5.5, "$y")[0], 2.0f);
}

TEST(MaterialProxy, TextureTransformBuildsTheMatrixFromItsVars) {
    // Centre (.5, .5), scale (2, 1), rotate $r, translate (.25, 0). Rotating 90 degrees: the
    // linear part R S = [0 -1; 1 0] diag(2, 1) = [0 -1; 2 0]; the offset c + t - L c =
    // (.5 + .25 + .5, .5 - 1) = (1.25, -.5). At 0 degrees: diag(2, 1) and (.5 + .25 - 1, 0).
    const content::Vmt v = proxyVmt(R"($c "[.5 .5]" $s "[2 1]" $r 0 $t "[.25 0]")", R"(
        LinearRamp { resultVar $r rate 45 }
        TextureTransform { centerVar $c scaleVar $s rotateVar $r translateVar $t
                           resultVar $basetexturetransform })");
    ASSERT_TRUE(v.warnings.empty());
    EXPECT_TRUE(v.proxies.drives_base);
    EXPECT_FALSE(v.proxies.drives_bump);
    expectMatrix(v.proxies.evaluate(2.0).base, {0, -1, 1.25f, 2, 0, -0.5f});
    expectMatrix(v.proxies.evaluate(0.0).base, {2, 0, -0.25f, 0, 1, 0});
    // The hand-built matrix of the same numbers, and the untouched bump matrix.
    const content::TextureTransform hand =
        content::centredTextureTransform({0.5f, 0.5f}, {2.0f, 1.0f}, 90.0f, {0.25f, 0.0f});
    expectMatrix(v.proxies.evaluate(2.0).base, hand.m);
    EXPECT_TRUE(v.proxies.evaluate(2.0).bump.identity());
    // No vars: the identity (centre .5, .5 and nothing else), on the bump matrix.
    const content::Vmt d = proxyVmt("", "TextureTransform { resultVar $bumptransform }");
    EXPECT_TRUE(d.proxies.drives_bump);
    EXPECT_TRUE(d.proxies.evaluate(3.0).bump.identity());
    // A var the material lacks reads as the engine's dummy var, 0: scale (0, 0).
    const content::Vmt z =
        proxyVmt("", "TextureTransform { scaleVar $nothere resultVar $basetexturetransform }");
    ASSERT_TRUE(z.warnings.empty());
    expectMatrix(z.proxies.evaluate(0.0).base, {0, 0, 0.5f, 0, 0, 0.5f});
}

TEST(MaterialProxy, LaterMatrixProxyWinsOverTheEarlierOne) {
    // A TextureScroll after a TextureTransform on the same matrix replaces it, and the reverse.
    const content::Vmt a = proxyVmt("", R"(
        TextureTransform { resultVar $basetexturetransform }
        TextureScroll { texturescrollvar $basetexturetransform texturescrollrate 1 })");
    EXPECT_TRUE(a.motion.base_scroll.enabled);
    EXPECT_FALSE(a.proxies.drives_base);
    const content::Vmt b = proxyVmt("", R"(
        TextureScroll { texturescrollvar $basetexturetransform texturescrollrate 1 }
        TextureTransform { resultVar $basetexturetransform })");
    EXPECT_FALSE(b.motion.base_scroll.enabled);
    EXPECT_TRUE(b.proxies.drives_base);
}

TEST(MaterialProxy, DrawnAndUndrawnResults) {
    // $sineout feeds the Multiply (drawn through $envmaptint); $selfillumtint and $unused drive
    // nothing drawn; UniformNoise and an entity proxy are not evaluated.
    const content::Vmt v = proxyVmt("$sineout 0 $two 2 $unused 0", R"(
        Sine { resultVar $sineout }
        Multiply { srcVar1 $sineout srcVar2 $two resultVar $envmaptint }
        Sine { resultVar $selfillumtint }
        LinearRamp { resultVar $unused }
        UniformNoise { resultVar $alpha }
        PlayerProximity { resultVar $alpha }
        Empty { })");
    ASSERT_TRUE(v.warnings.empty());
    EXPECT_EQ(v.undrawn_proxy_vars, (std::vector<std::string>{"$selfillumtint", "$unused"}));
    EXPECT_EQ(v.unevaluated_proxies, (std::vector<std::string>{"uniformnoise", "playerproximity"}));
    EXPECT_EQ(v.proxies.alpha, content::kNoVar);
    // At t = .25 the sine is 1: the tint [2 2 2].
    EXPECT_EQ(v.proxies.evaluate(0.25).envmap_tint, (std::array<float, 3>{2.0f, 2.0f, 2.0f}));
    // A still material has no program.
    EXPECT_TRUE(vmtOf("LightmappedGeneric { $basetexture t/a }").proxies.empty());
}

TEST(MaterialProxy, GarbageKeysWarnNamingMaterialProxyAndKey) {
    const content::Vmt v = proxyVmt("$x 0 $blk 0", R"(
        Sine { sineMax 2 }
        Sine { resultVar $nothere }
        Sine { resultVar $x sinePeriod $nothere }
        Sine { resultVar $x sineMax 1e999 }
        Add { srcVar1 $x resultVar $x }
        Clamp { srcVar1 "$x[0]" resultVar $x }
        LinearRamp { resultVar $x rate { a b } }
        LessOrEqual { srcVar1 $x srcVar2 $x lessEqualVar $x resultVar $x }
        LinearRamp { resultVar $x rate "nan" })");
    const std::string m = "materials/t/m.vmt: Proxies ";
    EXPECT_EQ(v.warnings,
              (std::vector<std::string>{
                  m + "Sine resultvar '': not a var of the material; the proxy is ignored",
                  m + "Sine resultvar '$nothere': not a var of the material; the proxy is ignored",
                  m + "Sine sineperiod '$nothere': neither a number nor a var of the material; "
                      "the proxy is ignored",
                  m + "Sine sinemax '1e999': not a number below 1e30 in size; the proxy is "
                      "ignored",
                  m + "Add srcvar2 '': missing; the proxy is ignored",
                  m + "Clamp srcvar1 '$x[0]': not a var of the material; the proxy is ignored",
                  m + "LinearRamp rate '': a block, not a number nor a var; the proxy is ignored",
                  m + "LessOrEqual greatervar '': missing; the proxy is ignored",
                  m + "LinearRamp rate 'nan': not a number below 1e30 in size; the proxy is "
                      "ignored"}));
    EXPECT_TRUE(v.proxies.empty());
    // Only the vars of kept proxies stay.
    EXPECT_TRUE(v.proxies.vars.empty());
}

TEST(MaterialProxy, ProgramIsBounded) {
    std::string vars, proxies;
    for (size_t i = 0; i < content::kMaxProxyVars + 4; ++i) {
        vars += " $v" + std::to_string(i) + " 0";
        proxies += " Sine { resultVar $v" + std::to_string(i) + " }";
    }
    const content::Vmt v = proxyVmt(vars, proxies);
    EXPECT_EQ(v.proxies.steps.size(), content::kMaxProxySteps);
    EXPECT_LE(v.proxies.vars.size(), content::kMaxProxyVars);
    EXPECT_EQ(v.warnings.size(), 4u);
    EXPECT_FLOAT_EQ(v.proxies.valueAfter(0.25, "$v0")[0], 1.0f);
}
