#pragma once
/// How a solver gives up: a SolverFailure naming the time, the iteration, the largest residual
/// and its owner (solvers/time_integrator.hpp, solvers/static_equilibrium.hpp).
#include <cstdio>
#include <stdexcept>
#include <string>

namespace catena::solvers {

class SolverFailure : public std::runtime_error {
 public:
  SolverFailure(const std::string& message, double t) : std::runtime_error(message), t_(t) {}
  [[nodiscard]] double time() const { return t_; }

 private:
  double t_;
};

/// A model whose joints contradict each other, found when a run starts: redundant constraints (an
/// over-constrained loop), drives a linkage cannot follow. Bad input rather than a failed solve:
/// `catena run` exits 2 for it, as for an invalid model file.
class InconsistentJoints : public SolverFailure {
 public:
  explicit InconsistentJoints(const std::string& message) : SolverFailure(message, 0.0) {}
};

/// A stop asked for while an analysis that cannot pause between steps ran (an eigen or buckling
/// analysis: LinearizedAnalysis::set_stop): it ends there, with what it had written.
class Interrupted : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// Up to two numbers in a printf format, for the solvers' messages.
inline std::string format_numbers(const char* fmt, double a, double b = 0.0) {
  char buf[128];
  std::snprintf(buf, sizeof buf, fmt, a, b);
  return buf;
}

}  // namespace catena::solvers
