// A long steel cantilever (10 m, solid circular section r = 5 cm) of N co-rotational beam
// elements, released under gravity: time per step, Newton iterations, and the split assembly /
// factorization / solve, plus peak memory. The beam stamp (nested automatic differentiation)
// is the assembly share; the block-tridiagonal tableau factors in O(N).
// Usage: long_beam_bench [N ...] [--steps S] [-- petsc options]
// Example: build/release/bench/long_beam_bench 1000 10000 100000 --steps 5
#include "bench_support.hpp"
#include "elements/beam.hpp"

#include <numbers>
#include <string>

namespace {

using namespace catena;

fem::Model long_cantilever(int n_elements) {
  fem::Model m;
  m.name = "long-beam";
  m.gravity = fem::Vec3(0, 0, -9.81);
  const double length = 10.0, r = 0.05, E = 210e9, G = 81e9, rho = 7850;
  const double A = std::numbers::pi * r * r, I = std::numbers::pi * r * r * r * r / 4;
  elements::BeamSection s;
  s.EA = E * A;
  s.GAy = s.GAz = 6.0 / 7.0 * G * A;
  s.GJ = G * 2 * I;
  s.EIy = s.EIz = E * I;
  s.rhoA = rho * A;
  s.rhoJ = rho * 2 * I;
  s.rhoIy = s.rhoIz = rho * I;
  s.radius = r;
  for (int k = 0; k <= n_elements; ++k)
    m.add_node("n" + std::to_string(k), fem::Vec3(length * k / n_elements, 0, 0), fem::NodeKind::Frame);
  for (int c = 0; c < 3; ++c) {
    m.fix(fem::NodeId{0}, c);
    m.fix_rotation(fem::NodeId{0}, c);
  }
  for (int k = 0; k < n_elements; ++k)
    m.add_element<elements::Beam>("b" + std::to_string(k), m.attach(fem::NodeId{k}), m.attach(fem::NodeId{k + 1}), s,
                                  fem::Vec3(0, 1, 0));
  m.analysis.dt = 1e-3;
  m.update_length_scale();
  return m;
}

}  // namespace

int main(int argc, char** argv) {
  return catena::bench::run_driver(argc, argv, "elements", {1000, 10000}, long_cantilever);
}
