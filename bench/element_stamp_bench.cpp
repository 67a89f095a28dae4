// Cost of one element stamp, the kernel the assembly repeats, with its Jacobian and residual-only,
// in microseconds: a co-rotational beam (bent, twisted, turned, in a midpoint step), and a rigid
// bar with the spherical joint that hangs it from another (a falling chain's link).
// Dense sinks, no PETSc: what is timed is the element's own arithmetic.
// Usage: element_stamp_bench [repetitions]
#include "elements/beam.hpp"
#include "elements/joint.hpp"
#include "elements/joint_kinds.hpp"
#include "elements/rigid_body.hpp"
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

/// A node's state turned by `angle` about `axis` (through the origin) and moving.
void turn(fem::NodeState& n, double angle, const fem::Vec3& axis) {
  const fem::Quaternion q(Eigen::AngleAxisd(angle, axis.normalized()));
  n.position = q * n.position;
  n.orientation = q * n.orientation;
  n.velocity = fem::Vec3(0.1, -0.2, 0.3);
  n.angular_velocity = fem::Vec3(0.5, 1.0, -0.3);
}

/// Times `element`'s stamp on `m` with small nonzero trial unknowns; prints one row.
void time_stamps(const char* label, const fem::Model& m, const fem::Element& element,
                 const std::vector<fem::NodeState>& committed, int n) {
  const fem::DofMap map = m.registry.sequential_numbering();
  std::vector<double> trial(static_cast<std::size_t>(m.registry.n_free_dofs()));
  for (std::size_t i = 0; i < trial.size(); ++i) trial[i] = 0.03 * std::sin(1.0 + 2.0 * static_cast<double>(i));
  const fem::StepState state{.time = fem::TimeElement::dynamic_step(0.0, 0.01, fem::TimeScheme::Midpoint),
                             .nodes = m.nodes,
                             .committed = committed,
                             .trial = trial,
                             .map = &map,
                             .gravity = m.gravity};
  const int dofs = static_cast<int>(trial.size());
  fem::DenseResidual r(map, dofs);
  fem::DenseJacobian j(map, dofs);
  fem::NullJacobianSink no_jacobian;
  const double with_jacobian = seconds_per_call(n, [&] { element.stamp(state, r, j); });
  const double residual_only = seconds_per_call(n, [&] { element.stamp(state, r, no_jacobian); });
  std::printf("%-24s %14.2f %14.2f\n", label, 1e6 * with_jacobian, 1e6 * residual_only);
}

}  // namespace

int main(int argc, char** argv) {
  const int n = argc > 1 ? std::stoi(argv[1]) : 20000;
  std::printf("%-24s %14s %14s\n", "element", "jacobian_us", "residual_us");
  {
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
    const auto& beam = m.add_element<elements::Beam>("ab", m.attach(a), m.attach(b), s, fem::Vec3(0, 1, 0));
    // A bent, twisted beam turned by a radian, taking a step of a spinning beam (0.06 rad).
    std::vector<fem::NodeState> committed = m.initial_state;
    committed[1].position = fem::Vec3(0.49, 0.02, -0.01);
    turn(committed[0], 1.0, fem::Vec3(0, 0, 1));
    turn(committed[1], 1.05, fem::Vec3(0.1, 0.2, 1));
    time_stamps("beam (midpoint)", m, beam, committed, n);
  }
  {
    // Two bars of chain15 (bench/mbdyn/chain15.yaml) and the spherical joint between them.
    fem::Model m;
    m.gravity = fem::Vec3(0, 0, -9.81);
    elements::RigidBodyProperties bar;
    bar.mass = 1.0;
    bar.inertia = fem::Vec3(1e-4, 1.0 / 12, 1.0 / 12).asDiagonal();
    const fem::NodeId a = m.add_node("a", fem::Vec3(0.5, 0, 0), fem::NodeKind::Frame);
    const fem::NodeId b = m.add_node("b", fem::Vec3(1.5, 0, 0), fem::NodeKind::Frame);
    const auto& body = m.add_element<elements::RigidBody>("body", m.attach(b), bar);
    elements::JointFrame fa, fb;
    fa.node = a;
    fa.offset = fem::Vec3(0.5, 0, 0);
    fb.node = b;
    fb.offset = fem::Vec3(-0.5, 0, 0);
    const auto& joint = m.add_element<elements::Joint>("joint", elements::attach_frames(m, fa, fb), fa, fb,
                                                       elements::joint_definition("spherical"), 1.0);
    std::vector<fem::NodeState> committed = m.initial_state;
    turn(committed[0], 0.3, fem::Vec3(0, 1, 0.2));
    turn(committed[1], 0.35, fem::Vec3(0, 1, 0.1));
    time_stamps("rigid body", m, body, committed, n);
    time_stamps("spherical joint", m, joint, committed, n);
  }
  return 0;
}
