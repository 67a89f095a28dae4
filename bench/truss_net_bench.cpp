// Hanging truss net of N nodes (a square grid held along one edge, diagonals for shear):
// time per step, Newton iterations, and the split assembly / factorization / solve, plus peak
// memory. Usage: truss_net_bench [N ...] [--steps S] [-- petsc options]
// Example: build/release/bench/truss_net_bench 1000 10000 100000 --steps 20
// symbolic_s is the one-off analysis; numeric_ms and solve_ms are per factorization / per solve.
#include "bench_support.hpp"
#include "elements/point_mass.hpp"
#include "elements/truss.hpp"

#include <cmath>
#include <string>

namespace {

using namespace catena;

fem::Model hanging_net(int n_target) {
  const int side = std::max(2, static_cast<int>(std::lround(std::sqrt(n_target))));
  fem::Model m;
  m.name = "net";
  m.gravity = fem::Vec3(0, 0, -9.81);
  const double a = 0.5;
  auto id = [&](int i, int j) { return fem::NodeId{i * side + j}; };
  for (int i = 0; i < side; ++i)
    for (int j = 0; j < side; ++j) m.add_node("n" + std::to_string(i) + "_" + std::to_string(j), fem::Vec3(a * j, a * i, 0));
  for (int j = 0; j < side; ++j)
    for (int c = 0; c < 3; ++c) m.fix(id(0, j), c);
  for (int k = 0; k < side * side; ++k)
    m.add_element<elements::PointMass>("m" + std::to_string(k), m.attach(fem::NodeId{k}), 1.0);
  auto bar = [&](fem::NodeId p, fem::NodeId q) {
    const double l = (m.nodes[q.index].reference_position - m.nodes[p.index].reference_position).norm();
    m.add_element<elements::Truss>("t" + std::to_string(m.elements.size()), m.attach(p), m.attach(q),
                                   elements::TrussSection{1e6}, l);
  };
  for (int i = 0; i < side; ++i)
    for (int j = 0; j < side; ++j) {
      if (j + 1 < side) bar(id(i, j), id(i, j + 1));
      if (i + 1 < side) bar(id(i, j), id(i + 1, j));
      if (i + 1 < side && j + 1 < side) bar(id(i, j), id(i + 1, j + 1));
    }
  m.analysis.dt = 1e-3;
  m.update_length_scale();
  return m;
}

}  // namespace

int main(int argc, char** argv) {
  return catena::bench::run_driver(argc, argv, "nodes", {1000, 10000}, hanging_net);
}
