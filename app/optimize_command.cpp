#include "app/optimize_command.hpp"

#include "app/objective_evaluation.hpp"
#include "app/run_command.hpp"
#include "app/simulation.hpp"

#include "assembly/petsc_session.hpp"
#include "io/model_agreement.hpp"
#include "io/name_hint.hpp"
#include "io/optimize_output.hpp"
#include "io/output_directory.hpp"
#include "io/run_directory.hpp"
#include "io/sensitivity_models.hpp"
#include "io/stop_signals.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <limits>
#include <memory>
#include <optional>
#include <stdexcept>

namespace catena::app {

// The command is built from the readers and writers of io/ alone.
using namespace catena::io;  // NOLINT(google-build-using-namespace)

namespace {

bool is_root() { return assembly::PetscSession::rank() == 0; }

void print_error(const std::string& message) {
  if (is_root()) std::cerr << message << '\n';
}

/// A request the model cannot meet (exit code 2).
class OptimizeInputError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// What is minimized over: the parameters, their values in the model (the start) and bounds.
struct Problem {
  std::vector<std::string> names;
  std::vector<double> start;
  std::vector<solvers::VariableBounds> bounds;
};

/// `lower:upper` as --bounds takes it (a side without a bound left empty).
std::string bounds_text(const solvers::VariableBounds& b) {
  return (std::isinf(b.lower) ? "" : format_double(b.lower)) + ':' + (std::isinf(b.upper) ? "" : format_double(b.upper));
}

/// "a0 = 1.5, a1 = 2" (every digit, or 8 significant ones for the progress lines).
std::string values_text(const Problem& p, std::span<const double> x, bool every_digit = true) {
  std::string out;
  for (std::size_t i = 0; i < x.size(); ++i) {
    char short_form[32];
    std::snprintf(short_form, sizeof short_form, "%.8g", x[i]);
    out += (i == 0 ? "" : ", ") + p.names[i] + " = " + (every_digit ? format_double(x[i]) : short_form);
  }
  return out;
}

Problem problem_of(const fem::Model& model, const RunOptions& options, const OptimizeOptions& optimize) {
  if (!model.objective)
    throw OptimizeInputError(options.model.string() +
                             ": the model has no analysis.objective, the scalar to minimize (docs/model-format.md, "
                             "\"The objective\")");
  constexpr double inf = std::numeric_limits<double>::infinity();
  std::vector<std::string> declared;
  for (const auto& [name, value] : model.parameters) declared.push_back(name);
  Problem p;
  for (const std::string& name : optimize.parameters) {
    const auto it = std::find(declared.begin(), declared.end(), name);
    if (it == declared.end())
      throw OptimizeInputError(
          "--parameters: '" + name + "' is not a parameter of the model" +
          unknown_name_hint(name, declared, {.none = "the model declares no parameters (section `parameters`)",
                                             .label = "parameters"}));
    p.names.push_back(name);
    p.start.push_back(model.parameters[static_cast<std::size_t>(it - declared.begin())].second);
    p.bounds.push_back({-inf, inf});
  }
  for (const OptimizeOptions::Bounds& b : optimize.bounds) {
    const auto i = static_cast<std::size_t>(std::find(p.names.begin(), p.names.end(), b.parameter) - p.names.begin());
    p.bounds[i] = {b.lower, b.upper};
    if (p.start[i] < b.lower || p.start[i] > b.upper)
      throw OptimizeInputError("--bounds " + b.parameter + '=' + bounds_text(p.bounds[i]) + ": the start " +
                               b.parameter + " = " + format_double(p.start[i]) +
                               " (the model's value) lies outside; give bounds around it, or --set " + b.parameter +
                               "=VALUE inside them");
  }
  // What --sensitivity refuses (a parameter that changes the model's structure) is refused here,
  // before anything is written.
  try {
    (void)read_parameter_models(options, model, p.names, "--parameters");
  } catch (const SensitivityInputError& e) {
    throw OptimizeInputError(e.what());
  }
  return p;
}

/// The options of a run at the parameter values `x`, differentiated by them (--sensitivity, or
/// --gradient for the adjoint).
RunOptions run_at(const RunOptions& options, const Problem& p, std::span<const double> x, bool adjoint) {
  RunOptions o = options;
  for (std::size_t i = 0; i < x.size(); ++i) o.overrides.push_back(p.names[i] + '=' + format_double(x[i]));
  (adjoint ? o.gradient : o.sensitivity) = p.names;
  return o;
}

/// optimize.json's message for the run `run` at `x` that did not complete, `code` and `what` its
/// exit code and message as `catena run` gives them (app/objective_evaluation.hpp).
std::string evaluation_failure(int code, const std::string& what, const Problem& p, std::span<const double> x,
                               long run) {
  // SIGINT or SIGTERM (io/stop_signals.hpp): the iterations so far stay, optimize.json says so.
  if (code > 128)
    return std::string("stopped by ") + signal_name(code - 128) + " (" + what + ", run " + std::to_string(run) + ")";
  const std::string which = "run " + std::to_string(run) + " at " + values_text(p, x);
  if (code != exit_bad_input) return which + " failed: " + what;  // a solver failure: the rows so far stay
  // A parameter value the model refuses (a negative mass): the bounds should keep it out. At the
  // start (the model's own values) it is the model or the options that are refused.
  return which + ": " + what + (std::ranges::equal(x, p.start) ? "" : "; narrow --bounds to values the model accepts");
}

void print_iterate(const Problem& p, const solvers::MinimizerIterate& it, long evaluations) {
  char head[160];
  std::snprintf(head, sizeof head, "iteration %3d  runs %3ld  objective %.10e  projected gradient %.3e  ", it.iteration,
                evaluations, it.f, it.projected_gradient_norm);
  std::cout << head << values_text(p, it.x, false) << std::endl;
}

}  // namespace

int optimize_command(const RunOptions& options, const OptimizeOptions& optimize) {
  const std::optional<fem::Model> model = load_model_on_every_rank(options);
  if (!model) return exit_bad_input;
  Problem problem;
  try {
    problem = problem_of(*model, options, optimize);
  } catch (const OptimizeInputError& e) {
    print_error("catena optimize: " + std::string(e.what()));
    return exit_bad_input;
  } catch (const std::exception& e) {
    print_error("catena optimize: " + options.model.string() + ": " + e.what());
    return exit_bad_input;
  }
  const std::filesystem::path out = options.out.value_or(std::filesystem::path("out") / model->name);
  std::optional<RunDirectoryLock> lock;
  std::unique_ptr<OptimizeCsv> csv;
  if (is_root()) {
    try {
      lock.emplace(out);
      csv = std::make_unique<OptimizeCsv>(out, problem.names);
    } catch (const DirectoryInUse& e) {
      print_error(std::string("catena: ") + e.what());
      return exit_bad_input;
    } catch (const std::exception& e) {
      print_error(std::string("catena optimize: ") + e.what());
      return exit_output_failure;
    }
    if (!options.quiet) {
      std::string bounds;
      for (std::size_t i = 0; i < problem.names.size(); ++i) {
        const solvers::VariableBounds& b = problem.bounds[i];
        bounds += (i == 0 ? "" : ", ") + problem.names[i] +
                  (std::isinf(b.lower) && std::isinf(b.upper) ? " (unbounded)" : " in " + bounds_text(b));
      }
      std::cerr << "catena optimize: " << model->name << ": analysis.objective over " << bounds
                << " (each evaluation a whole run with its gradient by the " << (optimize.adjoint ? "adjoint" : "direct")
                << " method); output in " << out.string() << '\n';
    }
  }

  OptimizeResult result;
  result.model_name = model->name;
  result.parameters = problem.names;
  result.start = problem.start;
  result.bounds = problem.bounds;
  result.values = problem.start;
  result.start_objective = result.objective = result.projected_gradient_norm = std::nan("");
  result.start_projected_gradient_norm = std::nan("");
  std::vector<double> evaluated_at;
  const solvers::ObjectiveAndGradient objective = [&](std::span<const double> x, std::span<double> gradient) {
    evaluated_at.assign(x.begin(), x.end());
    ++result.evaluations;
    const ObjectiveEvaluation e = evaluate_objective(run_at(options, problem, x, optimize.adjoint));
    std::copy(e.gradient.begin(), e.gradient.end(), gradient.begin());
    return e.objective;
  };
  const solvers::IterationMonitor monitor = [&](const solvers::MinimizerIterate& it) {
    if (it.iteration == 0) {
      result.start_objective = it.f;
      result.start_projected_gradient_norm = it.projected_gradient_norm;
    }
    result.values.assign(it.x.begin(), it.x.end());
    result.objective = it.f;
    result.gradient.assign(it.gradient.begin(), it.gradient.end());
    result.projected_gradient_norm = it.projected_gradient_norm;
    result.iterations = it.iteration;
    if (csv) csv->add(it, result.evaluations);
    if (is_root() && !options.quiet) print_iterate(problem, it, result.evaluations);
  };
  int code = exit_ok;
  try {
    const solvers::MinimizerResult minimum =
        solvers::minimize_within_bounds(objective, monitor, problem.start, problem.bounds,
                                        {.max_iterations = optimize.max_iterations,
                                         .gradient_tolerance = optimize.gradient_tolerance});
    result.values = minimum.x;
    result.objective = minimum.f;
    result.gradient = minimum.gradient;
    result.projected_gradient_norm = minimum.projected_gradient_norm;
    result.iterations = minimum.iterations;
    result.reason = minimum.reason;
    result.status = minimum.converged ? "converged" : "stopped";
  } catch (const RunError& e) {
    code = e.exit_code();
    result.message = evaluation_failure(code, e.what(), problem, evaluated_at, result.evaluations);
  } catch (const OutputError& e) {
    result.message = std::string("output failed: ") + e.what();
    code = exit_output_failure;
  } catch (const std::exception& e) {
    code = exit_solver_failure;  // anything else a run met
    result.message = evaluation_failure(code, e.what(), problem, evaluated_at, result.evaluations);
  }
  if (code > 128) {
    result.status = "interrupted";
    result.reason = result.message;
    print_error("catena optimize: " + result.message + "; the iterations so far are in " +
                (out / OptimizeCsv::file_name).string());
  } else if (code != exit_ok) {
    result.status = "failed";
    result.reason = "a run failed";
    print_error("catena optimize: " + result.message + "; the iterations so far are in " +
                (out / OptimizeCsv::file_name).string());
  }
  if (is_root()) {
    try {
      replace_file_atomically(out / "optimize.json", optimize_json(result));
    } catch (const std::exception& e) {
      print_error(std::string("catena optimize: ") + e.what());
      if (code == exit_ok) code = exit_output_failure;
    }
  }
  if (code != exit_ok) return code;
  if (is_root()) {
    std::cout << "catena optimize: " << result.status << " (" << result.reason << ") after " << result.iterations
              << " iterations, " << result.evaluations << " runs: objective " << format_double(result.start_objective)
              << " -> " << format_double(result.objective) << "; " << values_text(problem, result.values) << std::endl;
  }
  // The optimum's run, with its derivatives, into the directory as `catena run` writes it.
  csv.reset();
  lock.reset();
  return app::run_command(run_at(options, problem, result.values, optimize.adjoint));
}

}  // namespace catena::app
