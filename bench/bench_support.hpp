#pragma once
// What the performance drivers share: command line (sizes, --steps, PETSc options after --),
// CPU time and peak memory of the process, and one table row per run.
#include "assembly/petsc_session.hpp"
#include "assembly/tableau.hpp"
#include "solvers/time_integrator.hpp"

#include <sys/resource.h>

#include <chrono>
#include <cstdio>
#include <functional>
#include <string>
#include <vector>

namespace catena::bench {

/// CPU seconds of this process. On a shared virtual machine the wall clock also counts time the
/// hypervisor gives to others (steal); a large gap between the two columns says so.
inline double cpu_seconds() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return static_cast<double>(u.ru_utime.tv_sec + u.ru_stime.tv_sec) +
         1e-6 * static_cast<double>(u.ru_utime.tv_usec + u.ru_stime.tv_usec);
}

inline double peak_memory_mb() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return static_cast<double>(u.ru_maxrss) / 1024.0;
}

/// Parses `[size ...] [--steps S] [--threads T] [-- petsc options]`, starts PETSc, builds the model
/// of each size with `make(size)`, runs `steps` time elements and prints one row per size. Threads
/// stamp the elements as in `catena run --threads T` (default 1: the kernels on one thread; 0: as
/// many as OpenMP gives).
inline int run_driver(int argc, char** argv, const char* size_name, std::vector<int> default_sizes,
                      const std::function<fem::Model(int)>& make) {
  std::vector<int> sizes;
  int steps = 20, threads = 1;
  std::vector<char*> petsc_argv{argv[0]};
  bool petsc = false;
  for (int i = 1; i < argc; ++i) {
    const std::string s = argv[i];
    if (petsc) petsc_argv.push_back(argv[i]);
    else if (s == "--") petsc = true;
    else if (s == "--steps" && i + 1 < argc) steps = std::stoi(argv[++i]);
    else if (s == "--threads" && i + 1 < argc) threads = std::stoi(argv[++i]);
    else if (!s.empty() && s.find_first_not_of("0123456789") == std::string::npos) sizes.push_back(std::stoi(s));
    else {
      std::fprintf(stderr, "usage: %s [%s ...] [--steps S] [--threads T] [-- petsc options]\n", argv[0], size_name);
      return s == "--help" || s == "-h" ? 0 : 2;
    }
  }
  if (sizes.empty()) sizes = std::move(default_sizes);
  int pc = static_cast<int>(petsc_argv.size());
  petsc_argv.push_back(nullptr);
  char** pv = petsc_argv.data();
  const assembly::PetscSession session(pc, pv);
  const bool root = assembly::PetscSession::rank() == 0;
  if (root)
    std::printf("%9s %9s %11s %7s %10s %11s %7s %9s %8s %10s %10s %10s %9s %8s\n", size_name, "unknowns", "nonzeros",
                "steps", "ms/step", "cpu_ms/step", "newton", "jacobians", "setup_s", "assembly_s", "symbolic_s", "numeric_ms",
                "solve_ms", "peak_MB");
  for (const int n : sizes) {
    fem::Model m = make(n);
    m.analysis.t_end = steps * m.analysis.dt;
    const auto t0 = std::chrono::steady_clock::now();
    assembly::Tableau tableau(m, PETSC_COMM_WORLD);
    tableau.set_threads(threads);
    solvers::TimeIntegrator integrator(m, tableau);
    const double setup = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    solvers::Observer none;
    const double cpu0 = cpu_seconds();
    const solvers::RunStatistics s = integrator.run(none);
    const double cpu = cpu_seconds() - cpu0;
    if (root)
      std::printf("%9d %9d %11ld %7ld %10.3f %11.3f %7.2f %9ld %8.3f %10.3f %10.3f %10.3f %9.3f %8.1f\n", n,
                  static_cast<int>(tableau.n_global()), tableau.n_nonzeros(), s.steps, 1e3 * s.wall_seconds / s.steps,
                  1e3 * cpu / static_cast<double>(s.steps),
                  static_cast<double>(s.newton_iterations) / s.steps, s.numeric_factorizations, setup, s.assembly_seconds,
                  s.symbolic_factorization_seconds,
                  1e3 * (s.factorization_seconds - s.symbolic_factorization_seconds) /
                      static_cast<double>(std::max(1L, s.numeric_factorizations)),
                  1e3 * s.solve_seconds / static_cast<double>(std::max(1L, s.newton_iterations)), peak_memory_mb());
  }
  return 0;
}

}  // namespace catena::bench
