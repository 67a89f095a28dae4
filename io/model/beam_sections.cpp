// A beam's cross-section: given directly (`section`), or from a `material` and a `shape` whose
// geometry fem/cross_section.hpp computes.
#include "fem/cross_section.hpp"
#include "io/model/section_readers.hpp"
#include "io/model/values.hpp"
#include "io/yaml_schema.hpp"

#include <cmath>
#include <string>

namespace catena::io::reader {

namespace {

/// `section: {EA, GAy, GAz, GJ, EIy, EIz, rhoA, rhoJ, rhoIy, rhoIz, radius}`.
elements::BeamSection read_direct_section(const ModelContext& context, const Cursor& c) {
  c.expect_map("a beam section {EA, GAy, GAz, GJ, EIy, EIz, rhoA, rhoJ, rhoIy, rhoIz, radius}");
  c.check_keys(schema::beam_section);
  const auto required = [&](std::string_view key, std::string noun, std::string unit) {
    const std::string what = "the " + noun + " [" + unit + "]";
    return read_number(c.get(key, what), context.parameters, Quantity{std::move(noun), std::move(unit), Bound::Positive});
  };
  const auto optional = [&](std::string_view key, std::string noun, std::string unit, Bound bound) {
    const auto v = c.find(key);
    return v ? read_number(*v, context.parameters, Quantity{std::move(noun), std::move(unit), bound}) : 0.0;
  };
  elements::BeamSection s;
  s.EA = required("EA", "axial stiffness EA", "N");
  s.GAy = optional("GAy", "shear stiffness GAy", "N", Bound::Positive);
  s.GAz = optional("GAz", "shear stiffness GAz", "N", Bound::Positive);
  s.GJ = required("GJ", "torsional stiffness GJ", "N m^2");
  s.EIy = required("EIy", "bending stiffness EIy", "N m^2");
  s.EIz = required("EIz", "bending stiffness EIz", "N m^2");
  s.rhoA = optional("rhoA", "mass per length rhoA", "kg/m", Bound::NonNegative);
  s.rhoJ = optional("rhoJ", "polar mass moment per length rhoJ", "kg m", Bound::NonNegative);
  s.rhoIy = optional("rhoIy", "mass moment per length rhoIy", "kg m", Bound::NonNegative);
  s.rhoIz = optional("rhoIz", "mass moment per length rhoIz", "kg m", Bound::NonNegative);
  // For output only (ParaView's tubes). Not given: the radius of the solid circle with the
  // section's radius of gyration, r = 2 √(I/A) with I/A = √(EIy EIz)/EA, so that tubes show
  // whatever the section (a zero radius made them vanish).
  s.radius = c.find("radius") ? optional("radius", "radius", "m", Bound::NonNegative)
                              : 2.0 * std::sqrt(std::sqrt(s.EIy * s.EIz) / s.EA);
  return s;
}

/// `shape: {rectangle: {width, height}} | {circle: {radius}} | {tube: {outer_radius, inner_radius}}`.
fem::SectionGeometry read_shape(const ModelContext& context, const Cursor& c) {
  const std::string what = "a shape: rectangle {width, height}, circle {radius} or tube {outer_radius, inner_radius}";
  c.expect_map(what);
  c.check_keys(schema::shape);
  if (c.size() != 1)
    c.fail("expected exactly one shape (rectangle, circle or tube); found " + std::to_string(c.size()));
  const auto length = [&](const Cursor& s, std::string_view key, std::string noun, Bound bound = Bound::Positive) {
    return read_number(s.get(key, "the " + noun + " [m]"), context.parameters, Quantity{std::move(noun), "m", bound});
  };
  // The shear coefficients are Cowper's at ν = 0 whatever the material's ν
  // (docs/model-format.md, "Shapes").
  constexpr double shear_coefficient_poisson_ratio = 0.0;
  if (const auto r = c.find("rectangle")) {
    r->expect_map("a rectangle {width, height}");
    r->check_keys(schema::rectangle);
    const double b = length(*r, "width", "width (along local y)");
    const double h = length(*r, "height", "height (along local z)");
    return fem::rectangle_section(b, h, shear_coefficient_poisson_ratio);
  }
  if (const auto circle = c.find("circle")) {
    circle->expect_map("a circle {radius}");
    circle->check_keys(schema::circle);
    return fem::circle_section(length(*circle, "radius", "radius"), shear_coefficient_poisson_ratio);
  }
  if (const auto tube = c.find("tube")) {
    tube->expect_map("a tube {outer_radius, inner_radius}");
    tube->check_keys(schema::tube);
    const double ro = length(*tube, "outer_radius", "outer radius");
    const Cursor inner = tube->get("inner_radius", "the inner radius [m]");
    const double ri =
        read_number(inner, context.parameters,
                    key_quantity<"beams[].shape.tube", "inner_radius">("inner radius", Bound::NonNegative));
    if (!(ri < ro))
      inner.fail("expected an inner radius [m] smaller than the outer radius " + format_number(ro) + "; found " +
                 inner.found());
    return fem::tube_section(ro, ri, shear_coefficient_poisson_ratio);
  }
  return {};
}

/// `material: {E, G or nu, rho}` with `shape`.
elements::BeamSection read_material_section(const ModelContext& context, const Cursor& material, const Cursor& shape) {
  const fem::ParameterTable& parameters = context.parameters;
  material.expect_map("a material {E, G or nu, rho}");
  material.check_keys(schema::material);
  const double E = read_number(material.get("E", "Young's modulus E [Pa]"), parameters,
                               key_quantity<"beams[].material", "E">("Young's modulus E", Bound::Positive));
  const auto G_cursor = material.find("G");
  const auto nu_cursor = material.find("nu");
  double G = 0.0;
  if (G_cursor && nu_cursor) nu_cursor->fail("expected either the shear modulus G or Poisson's ratio nu; found both");
  if (G_cursor) {
    G = read_number(*G_cursor, parameters, key_quantity<"beams[].material", "G">("shear modulus G", Bound::Positive));
  } else if (nu_cursor) {
    const double nu = read_number(*nu_cursor, parameters, Quantity{"Poisson's ratio nu", ""});
    if (!(nu > -1.0 && nu <= 0.5))
      nu_cursor->fail("expected a Poisson's ratio nu with -1 < nu <= 0.5; found " + nu_cursor->found());
    G = fem::shear_modulus(E, nu);
  } else {
    static_cast<void>(material.get("G", "the shear modulus G [Pa], or Poisson's ratio nu"));
  }
  double rho = 0.0;
  if (const auto r = material.find("rho"))
    rho = read_number(*r, parameters, key_quantity<"beams[].material", "rho">("density rho", Bound::NonNegative));
  const fem::SectionGeometry g = read_shape(context, shape);
  elements::BeamSection s;
  s.EA = E * g.area;
  s.GAy = s.GAz = g.shear_coefficient * G * g.area;
  s.GJ = G * g.torsion_constant;
  s.EIy = E * g.second_moment_y;
  s.EIz = E * g.second_moment_z;
  s.rhoA = rho * g.area;
  s.rhoJ = rho * (g.second_moment_y + g.second_moment_z);  // the polar moment, not the torsion constant
  s.rhoIy = rho * g.second_moment_y;
  s.rhoIz = rho * g.second_moment_z;
  s.radius = g.radius;
  return s;
}

}  // namespace

elements::BeamSection read_beam_section(const ModelContext& context, const Cursor& item) {
  const auto section = item.find("section");
  const auto material = item.find("material");
  const auto shape = item.find("shape");
  if (section && (material || shape))
    (material ? *material : *shape).fail("expected either section or material and shape; found both");
  if (section) return read_direct_section(context, *section);
  if (!material && !shape)
    static_cast<void>(item.get("section", "the cross-section: section {EA, GJ, EIy, EIz, ...}, or material and shape"));
  const Cursor m = item.get("material", "the material {E, G or nu, rho}, with shape");
  const Cursor s = item.get("shape", "the cross-section shape: rectangle, circle or tube, with material");
  return read_material_section(context, m, s);
}

}  // namespace catena::io::reader
