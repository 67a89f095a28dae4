// Cost of one element stamp, the kernel the assembly repeats: a co-rotational beam (bent,
// twisted, turned, in a midpoint step), with its Jacobian and residual-only, in microseconds.
// Dense sinks, no PETSc: what is timed is the element's own arithmetic.
// Usage: element_stamp_bench [repetitions]
#include "elements/beam.hpp"
#include "fem/dense_sinks.hpp"
#include "fem/model.hpp"

#include <chrono>
#include <cstdio>
#include <numbers>
#include <string>
#include <vector>

namespace {

using namespace catena;

/// Seconds per call of `f`, the fastest of five rounds of `n` calls (the least disturbed one on
/// a shared machine).
template <class F>
double seconds_per_call(int n, const F& f) {
  double best = 1e300;
  for (int round = 0; round < 5; ++round) {
    const auto t0 = std::chrono::steady_clock::now();
    for (int i = 0; i < n; ++i) f();
    best = std::min(best, std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() / n);
  }
  return best;
}

}  // namespace

int main(int argc, char** argv) {
  const int n = argc > 1 ? std::stoi(argv[1]) : 20000;
  fem::Model m;
  const fem::NodeId a = m.add_node("a", fem::Vec3(0, 0, 0), fem::NodeKind::Frame);
  const fem::NodeId b = m.add_node("b", fem::Vec3(0.5, 0, 0), fem::NodeKind::Frame);
  elements::BeamSection s;  // spin-up beam's section (bench/mbdyn/spinup.yaml)
  s.EA = 2.8e7;
  s.GAy = s.GAz = 1e7;
  s.GJ = s.EIy = s.EIz = 1.4e4;
  s.rhoA = 1.2;
  s.rhoJ = 1.2e-3;
  s.rhoIy = s.rhoIz = 6e-4;
  const auto& beam = m.add_element<elements::Beam>("ab", m.nodes, m.initial_state, a, b, s, fem::Vec3(0, 1, 0),
                                                   fem::Vec3::Zero());
  const fem::DofMap map = m.registry.sequential_numbering();
  std::vector<fem::NodeState> committed = m.initial_state;
  // A bent, twisted beam turned by a radian, taking a step of a spinning beam (0.06 rad).
  committed[1].position = fem::Vec3(0.49, 0.02, -0.01);
  committed[0].orientation = fem::Quaternion(Eigen::AngleAxisd(1.0, fem::Vec3(0, 0, 1)));
  committed[1].orientation = fem::Quaternion(Eigen::AngleAxisd(1.05, fem::Vec3(0.1, 0.2, 1).normalized()));
  for (fem::NodeState& x : committed) x.position = committed[0].orientation * x.position;
  std::vector<double> trial(static_cast<std::size_t>(m.registry.n_free_dofs()));
  for (std::size_t i = 0; i < trial.size(); ++i) trial[i] = 0.03 * std::sin(1.0 + 2.0 * static_cast<double>(i));
  const fem::StepState state{0.0, 0.01, fem::TimeScheme::Midpoint, m.nodes, committed, trial, &map, 1.0};
  const int dofs = static_cast<int>(trial.size());

  fem::DenseResidual r(map, dofs);
  fem::DenseJacobian j(map, dofs);
  fem::NullJacobianSink no_jacobian;
  const double with_jacobian = seconds_per_call(n, [&] { beam.stamp(state, r, j); });
  const double residual_only = seconds_per_call(n, [&] { beam.stamp(state, r, no_jacobian); });
  std::printf("%-24s %14s %14s\n", "element", "jacobian_us", "residual_us");
  std::printf("%-24s %14.2f %14.2f\n", "beam (midpoint)", 1e6 * with_jacobian, 1e6 * residual_only);
  return 0;
}
