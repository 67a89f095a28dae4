#pragma once
/// Geometric properties of a beam's cross-section computed from its shape, and the elastic
/// constants derived from a material: what a model file's `shape` and `material` give
/// (docs/model-format.md, "Shapes"). Pure functions of numbers, so that they are tested against
/// closed forms without a model file.

namespace catena::fem {

/// A cross-section's geometry in its local axes (y, z in the section plane).
struct SectionGeometry {
  double area = 0.0;               ///< A [m²]
  double second_moment_y = 0.0;    ///< I_y, about local y [m⁴]
  double second_moment_z = 0.0;    ///< I_z, about local z [m⁴]
  double torsion_constant = 0.0;   ///< J [m⁴] (the polar moment for round sections only)
  double shear_coefficient = 0.0;  ///< k in GA_s = k G A, Cowper's (below)
  double radius = 0.0;             ///< of the circle enclosing the section, for output [m]
};

/// A solid rectangle of `width` b along local y and `height` h along local z (both > 0).
/// `poisson_ratio` enters the shear coefficient only.
[[nodiscard]] SectionGeometry rectangle_section(double width, double height, double poisson_ratio);
/// A solid circle of radius r > 0.
[[nodiscard]] SectionGeometry circle_section(double radius, double poisson_ratio);
/// A circular tube, outer radius R > inner radius r ≥ 0 (r = 0: the solid circle).
[[nodiscard]] SectionGeometry tube_section(double outer_radius, double inner_radius, double poisson_ratio);

/// Cowper's shear coefficients (G. R. Cowper, "The shear coefficient in Timoshenko's beam theory",
/// J. Appl. Mech. 33(2), 1966, 335–340, Table 1), functions of Poisson's ratio ν.
/// Rectangle: 10 (1 + ν) / (12 + 11 ν); 5/6 at ν = 0.
[[nodiscard]] double cowper_rectangle(double poisson_ratio);
/// Solid circle: 6 (1 + ν) / (7 + 6 ν); 6/7 at ν = 0.
[[nodiscard]] double cowper_circle(double poisson_ratio);
/// Hollow circle with m = r/R: 6 (1 + ν)(1 + m²)² / ((7 + 6 ν)(1 + m²)² + (20 + 12 ν) m²);
/// the solid circle at m = 0, 2 (1 + ν) / (4 + 3 ν) (1/2 at ν = 0) for a thin tube (m → 1).
[[nodiscard]] double cowper_tube(double radius_ratio, double poisson_ratio);

/// The shear modulus of an isotropic material, G = E / (2 (1 + ν)).
[[nodiscard]] double shear_modulus(double youngs_modulus, double poisson_ratio);

}  // namespace catena::fem
