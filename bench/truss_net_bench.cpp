// Hanging truss net of N nodes (a square grid held along one edge, diagonals for shear):
// time per step, Newton iterations, and the split assembly / factorization / solve, plus peak
// memory. Usage: truss_net_bench [N ...] [--steps S] [-- petsc options]
// Example: build/release/bench/truss_net_bench 1000 10000 100000 --steps 20
// symbolic_s is the one-off analysis; numeric_ms and solve_ms are per factorization / per solve.
#include "assembly/petsc_session.hpp"
#include "assembly/tableau.hpp"
#include "elements/point_mass.hpp"
#include "elements/truss.hpp"
#include "solvers/time_integrator.hpp"

#include <sys/resource.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

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
    m.add_element<elements::PointMass>("m" + std::to_string(k), m.nodes, fem::NodeId{k}, 1.0, m.gravity);
  auto bar = [&](fem::NodeId p, fem::NodeId q) {
    const double l = (m.nodes[q.index].reference_position - m.nodes[p.index].reference_position).norm();
    m.add_element<elements::Truss>("t" + std::to_string(m.elements.size()), m.nodes, p, q, elements::TrussSection{1e6}, l);
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

/// CPU seconds of this process. On a shared virtual machine the wall clock also counts time the
/// hypervisor gives to others (steal); a large gap between the two columns says so.
double cpu_seconds() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return static_cast<double>(u.ru_utime.tv_sec + u.ru_stime.tv_sec) +
         1e-6 * static_cast<double>(u.ru_utime.tv_usec + u.ru_stime.tv_usec);
}

double peak_memory_mb() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return static_cast<double>(u.ru_maxrss) / 1024.0;
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<int> sizes;
  int steps = 20;
  std::vector<char*> petsc_argv{argv[0]};
  bool petsc = false;
  for (int i = 1; i < argc; ++i) {
    const std::string s = argv[i];
    if (petsc) petsc_argv.push_back(argv[i]);
    else if (s == "--") petsc = true;
    else if (s == "--steps" && i + 1 < argc) steps = std::stoi(argv[++i]);
    else sizes.push_back(std::stoi(s));
  }
  if (sizes.empty()) sizes = {1000, 10000};
  int pc = static_cast<int>(petsc_argv.size());
  petsc_argv.push_back(nullptr);
  char** pv = petsc_argv.data();
  const assembly::PetscSession session(pc, pv);
  const bool root = assembly::PetscSession::rank() == 0;
  if (root)
    std::printf("%9s %9s %11s %7s %10s %11s %7s %8s %10s %10s %10s %9s %8s\n", "nodes", "unknowns", "nonzeros",
                "steps", "ms/step", "cpu_ms/step", "newton", "setup_s", "assembly_s", "symbolic_s", "numeric_ms", "solve_ms", "peak_MB");
  for (const int n : sizes) {
    fem::Model m = hanging_net(n);
    m.analysis.t_end = steps * m.analysis.dt;
    const auto t0 = std::chrono::steady_clock::now();
    assembly::Tableau tableau(m, PETSC_COMM_WORLD);
    solvers::TimeIntegrator integrator(m, tableau);
    const double setup = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    solvers::Observer none;
    const double cpu0 = cpu_seconds();
    const solvers::RunStatistics s = integrator.run(none);
    const double cpu = cpu_seconds() - cpu0;
    if (root)
      std::printf("%9zu %9d %11ld %7ld %10.3f %11.3f %7.2f %8.3f %10.3f %10.3f %10.3f %9.3f %8.1f\n", m.nodes.size(),
                  static_cast<int>(tableau.n_global()), tableau.n_nonzeros(), s.steps, 1e3 * s.wall_seconds / s.steps,
                  1e3 * cpu / static_cast<double>(s.steps),
                  static_cast<double>(s.newton_iterations) / s.steps, setup, s.newton.assembly_seconds,
                  s.symbolic_factorization_seconds,
                  1e3 * (s.factorization_seconds - s.symbolic_factorization_seconds) /
                      static_cast<double>(std::max(1L, s.numeric_factorizations)),
                  1e3 * s.solve_seconds / static_cast<double>(std::max(1L, s.newton_iterations)), peak_memory_mb());
  }
  return 0;
}
