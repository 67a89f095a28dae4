// The MBDyn comparison of docs/benchmarks.md: a horizontal chain of N rigid bars
// (1 kg, 1 m, uniform slender bars, spherical joints between neighbours, the first bar pinned to
// the ground at its free end), falling under g = 9.81 from rest, Δt = 1 ms, midpoint rule.
// Per bar: a frame node at its centre with a rigid body (6 unknowns), and one spherical joint
// (3 multipliers): 9 unknowns per bar.
// Usage: falling_chain_bench [N ...] [--steps S] [--threads T] [-- petsc options]
// Example: build/release/bench/falling_chain_bench 15 100 1000 10000 --steps 50
//          mpirun -n 2 build/release/bench/falling_chain_bench 10000 --steps 20
#include "bench_support.hpp"
#include "elements/joint.hpp"
#include "elements/joint_kinds.hpp"
#include "elements/rigid_body.hpp"

#include <string>

namespace {

using namespace catena;

std::string indexed(const char* prefix, int k) {
  std::string s(prefix);
  s += std::to_string(k);
  return s;
}

fem::Model falling_chain(int n_bars) {
  fem::Model m;
  m.name = "falling-chain";
  m.gravity = fem::Vec3(0, 0, -9.81);
  const double length = 1.0, mass = 1.0, J = mass * length * length / 12;
  elements::RigidBodyProperties bar;
  bar.mass = mass;
  bar.inertia = fem::Vec3(1e-4 * J, J, J).asDiagonal();  // a bar along x
  std::vector<fem::NodeId> nodes;
  for (int k = 0; k < n_bars; ++k) {
    nodes.push_back(m.add_node(indexed("bar", k + 1), fem::Vec3((k + 0.5) * length, 0, 0), fem::NodeKind::Frame));
    m.add_element<elements::RigidBody>(indexed("body", k + 1), m.attach(nodes.back()), bar);
  }
  for (int k = 0; k < n_bars; ++k) {
    elements::JointFrame a, b;
    b.node = nodes[static_cast<std::size_t>(k)];
    b.offset = fem::Vec3(-0.5 * length, 0, 0);
    if (k > 0) {
      a.node = nodes[static_cast<std::size_t>(k - 1)];
      a.offset = fem::Vec3(0.5 * length, 0, 0);
    }
    m.add_element<elements::Joint>(indexed("joint", k + 1), elements::attach_frames(m, a, b), a, b,
                                   elements::joint_definition("spherical"), length);
  }
  m.analysis.dt = 1e-3;
  m.update_length_scale();
  return m;
}

}  // namespace

int main(int argc, char** argv) {
  return catena::bench::run_driver(argc, argv, "bars", {15, 100, 1000}, falling_chain);
}
