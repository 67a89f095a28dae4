// Cross-section properties from shapes (fem/cross_section.hpp) against closed forms and published
// values.
#include "fem/cross_section.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <numbers>

namespace catena::fem {
namespace {

constexpr double pi = std::numbers::pi;

TEST(CrossSection, CircleHasTheClosedFormAreaMomentsAndPolarMoment) {
  const double r = 0.05;
  const SectionGeometry g = circle_section(r, 0.0);
  EXPECT_DOUBLE_EQ(g.area, pi * r * r);
  EXPECT_DOUBLE_EQ(g.second_moment_y, pi * r * r * r * r / 4.0);
  EXPECT_DOUBLE_EQ(g.second_moment_z, g.second_moment_y);
  EXPECT_DOUBLE_EQ(g.torsion_constant, pi * r * r * r * r / 2.0);
  EXPECT_DOUBLE_EQ(g.radius, r);
}

TEST(CrossSection, RectangleHasTheClosedFormAreaAndMoments) {
  const double b = 0.2, h = 0.1;  // b along local y, h along local z
  const SectionGeometry g = rectangle_section(b, h, 0.0);
  EXPECT_DOUBLE_EQ(g.area, 0.02);
  EXPECT_DOUBLE_EQ(g.second_moment_y, b * h * h * h / 12.0);
  EXPECT_DOUBLE_EQ(g.second_moment_z, h * b * b * b / 12.0);
  EXPECT_DOUBLE_EQ(g.radius, 0.1);
  // Turned a quarter: the moments swap, the torsion constant stays.
  const SectionGeometry turned = rectangle_section(h, b, 0.0);
  EXPECT_DOUBLE_EQ(turned.second_moment_y, g.second_moment_z);
  EXPECT_DOUBLE_EQ(turned.torsion_constant, g.torsion_constant);
}

TEST(CrossSection, RectangleTorsionConstantIsWithinRoarksAccuracyOfTheExactSeries) {
  // Saint-Venant's exact β (J = β a c³, a ≥ c) from the series solution (Timoshenko & Goodier,
  // "Theory of Elasticity", 3rd ed., §109, table): 0.141 for a square, 0.229 for 2:1, 0.291 for
  // 5:1; 1/3 for a thin strip.
  const struct {
    double ratio, beta;
  } exact[] = {{1.0, 0.1406}, {2.0, 0.2287}, {5.0, 0.2913}};
  for (const auto& e : exact) {
    const double c = 0.01, a = e.ratio * c;
    const double J = rectangle_section(a, c, 0.0).torsion_constant;
    EXPECT_NEAR(J / (a * c * c * c), e.beta, 2e-3 * e.beta) << "a/c = " << e.ratio;
  }
  const double thin = rectangle_section(1.0, 1e-4, 0.0).torsion_constant;
  EXPECT_NEAR(thin / (1.0 * 1e-12), 1.0 / 3.0, 1e-4);
}

TEST(CrossSection, TubeIsTheDifferenceOfTwoCirclesAndASolidOneWithoutHole) {
  const double R = 0.1, r = 0.08;
  const SectionGeometry tube = tube_section(R, r, 0.0);
  const SectionGeometry outer = circle_section(R, 0.0), inner = circle_section(r, 0.0);
  EXPECT_NEAR(tube.area, outer.area - inner.area, 1e-15);
  EXPECT_NEAR(tube.second_moment_y, outer.second_moment_y - inner.second_moment_y, 1e-18);
  EXPECT_NEAR(tube.torsion_constant, outer.torsion_constant - inner.torsion_constant, 1e-18);
  EXPECT_DOUBLE_EQ(tube.radius, R);
  const SectionGeometry solid = tube_section(R, 0.0, 0.3);
  const SectionGeometry circle = circle_section(R, 0.3);
  EXPECT_DOUBLE_EQ(solid.area, circle.area);
  EXPECT_DOUBLE_EQ(solid.torsion_constant, circle.torsion_constant);
  EXPECT_DOUBLE_EQ(solid.shear_coefficient, circle.shear_coefficient);
}

TEST(CrossSection, CowperCoefficientsAtZeroPoissonRatioAreTheTextbookFractions) {
  EXPECT_DOUBLE_EQ(cowper_rectangle(0.0), 5.0 / 6.0);
  EXPECT_DOUBLE_EQ(cowper_circle(0.0), 6.0 / 7.0);
  EXPECT_DOUBLE_EQ(cowper_tube(0.0, 0.0), 6.0 / 7.0);
  EXPECT_NEAR(cowper_tube(1.0 - 1e-9, 0.0), 0.5, 1e-8);  // thin-walled tube
}

TEST(CrossSection, CowperCoefficientsFollowCowpersTableForOtherPoissonRatios) {
  // Cowper (1966), Table 1, evaluated by hand: ν = 0.3 and ν = 0.5.
  EXPECT_NEAR(cowper_rectangle(0.3), 13.0 / 15.3, 1e-15);  // 0.8497
  EXPECT_NEAR(cowper_rectangle(0.5), 15.0 / 17.5, 1e-15);  // 0.8571
  EXPECT_NEAR(cowper_circle(0.3), 7.8 / 8.8, 1e-15);       // 0.8864
  EXPECT_NEAR(cowper_circle(0.5), 9.0 / 10.0, 1e-15);
  EXPECT_NEAR(cowper_tube(1.0 - 1e-9, 0.3), 2.6 / 4.9, 1e-8);  // thin tube: 2 (1 + ν) / (4 + 3 ν)
  // m = 1/2, ν = 0.3: 6 · 1.3 · 1.5625 / (8.8 · 1.5625 + 23.6 · 0.25)
  EXPECT_NEAR(cowper_tube(0.5, 0.3), 12.1875 / 19.65, 1e-15);
  EXPECT_DOUBLE_EQ(rectangle_section(0.2, 0.1, 0.3).shear_coefficient, cowper_rectangle(0.3));
}

TEST(CrossSection, ShearModulusOfAnIsotropicMaterial) {
  EXPECT_DOUBLE_EQ(shear_modulus(210e9, 0.3), 210e9 / 2.6);
  EXPECT_DOUBLE_EQ(shear_modulus(1.0, 0.5), 1.0 / 3.0);
}

}  // namespace
}  // namespace catena::fem
