#pragma once
/// What `catena optimize` (app/optimize_command.hpp) writes besides the optimum's run:
/// - optimize.csv, one row per iterate the minimizer accepted (iteration 0: the start), written
///   and flushed as it is accepted, so that a failure later keeps every row so far: `iteration`,
///   `evaluations` (whole runs so far, the line searches' trial points included), `objective`,
///   each parameter's value, `objective:<p>` for each parameter (dΨ/dp, the column name of
///   sensitivities.csv), `projected_gradient_norm` (the gradient without the components that
///   point out of the bounds at an active bound: what the convergence test measures);
/// - optimize.json, the result: parameters (start, bounds, value at the end), objective at the
///   start and at the end, gradient, projected gradient norm at the end and at the start (the
///   convergence test's scale), iterations, evaluations, the minimizer's reason for stopping in
///   words, with what to do when it did not converge, status ("converged", "stopped": an iteration or
///   evaluation limit or a failed line search, "failed": a run failed), message.
/// Numbers with 17 significant digits; unbounded sides as null in JSON.
#include "solvers/bounded_minimizer.hpp"

#include <filesystem>
#include <fstream>
#include <span>
#include <string>
#include <vector>

namespace catena::io {

class OptimizeCsv {
 public:
  static constexpr const char* file_name = "optimize.csv";
  /// Creates `directory`/optimize.csv with its header. Throws OutputError.
  OptimizeCsv(const std::filesystem::path& directory, const std::vector<std::string>& parameters);
  /// Appends and flushes a row. Throws OutputError.
  void add(const solvers::MinimizerIterate& iterate, long evaluations);

 private:
  std::filesystem::path file_;
  std::ofstream out_;
};

struct OptimizeResult {
  std::string model_name;
  std::vector<std::string> parameters;
  std::vector<double> start;
  std::vector<solvers::VariableBounds> bounds;
  double start_objective = 0.0;  ///< nan: the start's run did not complete
  /// The last accepted iterate (the start's values when none was).
  std::vector<double> values;
  double objective = 0.0;
  std::vector<double> gradient;
  double projected_gradient_norm = 0.0;
  double start_projected_gradient_norm = 0.0;  ///< the convergence test's scale (nan: no start)
  int iterations = 0;
  long evaluations = 0;
  std::string status;  ///< converged | stopped | failed
  std::string reason;  ///< the minimizer's, in words
  std::string message;
};

/// optimize.json's text.
[[nodiscard]] std::string optimize_json(const OptimizeResult& result);

}  // namespace catena::io
