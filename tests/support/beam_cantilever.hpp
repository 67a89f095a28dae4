#pragma once
// A clamped cantilever of co-rotational beams (elements/beam.hpp) solved statically by the dense
// Newton of support/dense_newton.hpp, and constant nodal loads for it: the linear (Timoshenko)
// limit tests of beam_test.cpp and the section values at element ends of end_sections_test.cpp.
#include "elements/beam.hpp"
#include "fem/expression.hpp"

#include "support/dense_newton.hpp"

#include <array>
#include <string>
#include <vector>

namespace catena::testing {

/// "n3": a name with an index (appending avoids a GCC 12 -Wrestrict false positive on "n" + string).
inline std::string indexed(const char* prefix, int k) {
  std::string s(prefix);
  s += std::to_string(k);
  return s;
}

struct Cantilever {
  fem::Model model;
  std::vector<fem::NodeId> nodes;
  std::vector<const elements::Beam*> elements;
  double L = 2.0;
  elements::BeamSection section;
  /// n elements along x from the clamped node n0; with `tip_eccentricity` e the tip node sits at
  /// y = e, joined to the beam's end by a rigid offset.
  explicit Cantilever(int n, double tip_eccentricity = 0.0) {
    section.EA = 1.0e4;
    section.GAy = 50.0;
    section.GAz = 40.0;
    section.GJ = 2.0;
    section.EIy = 2.5;
    section.EIz = 3.0;
    const double e = tip_eccentricity;
    for (int k = 0; k <= n; ++k)
      nodes.push_back(
          model.add_node(indexed("n", k), fem::Vec3(L * k / n, k == n ? e : 0.0, 0), fem::NodeKind::Frame));
    for (int c = 0; c < 3; ++c) {
      model.fix(nodes[0], c);
      model.fix_rotation(nodes[0], c);
    }
    for (int k = 0; k < n; ++k)
      elements.push_back(&model.add_element<elements::Beam>(
          indexed("e", k), model.attach(nodes[k]), model.attach(nodes[k + 1]), section, fem::Vec3(0, 1, 0),
          std::array<fem::Vec3, 2>{fem::Vec3::Zero(), k == n - 1 ? fem::Vec3(0, -e, 0) : fem::Vec3::Zero()}));
  }
  /// Static solution under the model's loads, from the initial state.
  std::vector<fem::NodeState> solve() { return solve_in_increments(1); }
  /// The same reached through `increments` equal load increments (large deflections).
  std::vector<fem::NodeState> solve_in_increments(int increments) {
    TrialState s(model);
    s.scheme = fem::TimeScheme::Static;
    s.h = 1.0;
    for (int i = 1; i <= increments; ++i) {
      s.load_factor = static_cast<double>(i) / increments;
      std::fill(s.trial.begin(), s.trial.end(), 0.0);
      newton(model, s, 1e-15);
      if (i < increments) commit(model, s);
    }
    return end_states(model, s);
  }
};

inline std::array<fem::Expression, 3> constant_load(double x, double y, double z) {
  const fem::ParameterTable p{{"X", x}, {"Y", y}, {"Z", z}};
  return {fem::Expression("X", p), fem::Expression("Y", p), fem::Expression("Z", p)};
}

}  // namespace catena::testing
