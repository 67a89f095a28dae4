#include "fem/cross_section.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>

namespace catena::fem {

namespace {

constexpr double pi = std::numbers::pi;

/// The torsion constant of a solid rectangle of sides a ≥ c: β a c³ with
/// β = 1/3 − 0.21 (c/a)(1 − c⁴/(12 a⁴)), Roark's approximation (W. C. Young, R. G. Budynas,
/// "Roark's Formulas for Stress and Strain", 7th ed., Table 10.7, case 4, there written with the
/// half sides: K = a b³ (16/3 − 3.36 (b/a)(1 − b⁴/(12 a⁴)))); within 4 % for every ratio and
/// exact as c/a → 0 (1/3 a c³).
double rectangle_torsion_constant(double long_side, double short_side) {
  constexpr double roark_coefficient = 0.21;
  const double ratio = short_side / long_side;
  return long_side * short_side * short_side * short_side *
         (1.0 / 3.0 - roark_coefficient * ratio * (1.0 - std::pow(ratio, 4) / 12.0));
}

}  // namespace

SectionGeometry rectangle_section(double width, double height, double poisson_ratio) {
  const double b = width, h = height;
  const double big = std::max(b, h), small = std::min(b, h);
  SectionGeometry g;
  g.area = b * h;
  g.second_moment_y = b * h * h * h / 12.0;
  g.second_moment_z = h * b * b * b / 12.0;
  g.torsion_constant = rectangle_torsion_constant(big, small);
  g.shear_coefficient = cowper_rectangle(poisson_ratio);
  g.radius = big / 2.0;
  return g;
}

SectionGeometry circle_section(double radius, double poisson_ratio) {
  const double r = radius;
  SectionGeometry g;
  g.area = pi * r * r;
  g.second_moment_y = g.second_moment_z = pi * std::pow(r, 4) / 4.0;
  g.torsion_constant = pi * std::pow(r, 4) / 2.0;
  g.shear_coefficient = cowper_circle(poisson_ratio);
  g.radius = r;
  return g;
}

SectionGeometry tube_section(double outer_radius, double inner_radius, double poisson_ratio) {
  const double ro = outer_radius, ri = inner_radius;
  SectionGeometry g;
  g.area = pi * (ro * ro - ri * ri);
  g.second_moment_y = g.second_moment_z = pi * (std::pow(ro, 4) - std::pow(ri, 4)) / 4.0;
  g.torsion_constant = pi * (std::pow(ro, 4) - std::pow(ri, 4)) / 2.0;
  g.shear_coefficient = cowper_tube(ri / ro, poisson_ratio);
  g.radius = ro;
  return g;
}

double cowper_rectangle(double poisson_ratio) {
  const double nu = poisson_ratio;
  return 10.0 * (1.0 + nu) / (12.0 + 11.0 * nu);
}

double cowper_circle(double poisson_ratio) {
  const double nu = poisson_ratio;
  return 6.0 * (1.0 + nu) / (7.0 + 6.0 * nu);
}

double cowper_tube(double radius_ratio, double poisson_ratio) {
  const double nu = poisson_ratio;
  const double m2 = radius_ratio * radius_ratio;
  return 6.0 * (1.0 + nu) * (1.0 + m2) * (1.0 + m2) /
         ((7.0 + 6.0 * nu) * (1.0 + m2) * (1.0 + m2) + (20.0 + 12.0 * nu) * m2);
}

double shear_modulus(double youngs_modulus, double poisson_ratio) {
  return youngs_modulus / (2.0 * (1.0 + poisson_ratio));
}

}  // namespace catena::fem
