#include "solvers/bounded_minimizer.hpp"

#include "assembly/petsc_handle.hpp"

#include <petsctao.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <exception>
#include <stdexcept>

namespace catena::solvers {

namespace {

using TaoHandle = assembly::Handle<Tao, TaoDestroy>;

/// One evaluation, kept until the monitor has seen the iterate TAO accepts: TAO's line search
/// evaluates trial points and hands the monitor the accepted one, whose gradient the monitor
/// needs (TAO keeps only the projected one).
struct Evaluation {
  std::vector<double> x;
  double f = 0.0;
  std::vector<double> gradient;
};

/// What the C callbacks reach through their context pointer.
struct Callbacks {
  const ObjectiveAndGradient& f;
  const IterationMonitor& monitor;
  std::span<const VariableBounds> bounds;
  std::vector<Evaluation> since_last_iterate;
  Evaluation last_iterate;
  double start_projected_gradient_norm = 0.0;  ///< at iteration 0
  /// The callbacks' exception, rethrown after TaoSolve: C code cannot unwind C++ frames.
  std::exception_ptr failure;

  /// The evaluation at `x`: a point TAO accepts is one it evaluated (the line search's last
  /// success, or the iterate before it when the search fails), to the bit.
  [[nodiscard]] Evaluation evaluation_at(const std::vector<double>& x) const {
    const auto found = std::find_if(since_last_iterate.rbegin(), since_last_iterate.rend(),
                                    [&](const Evaluation& e) { return e.x == x; });
    if (found != since_last_iterate.rend()) return *found;
    if (last_iterate.x == x) return last_iterate;
    throw std::logic_error("the minimizer accepted a point it did not evaluate");
  }
};

std::vector<double> values_of(Vec v) {
  PetscInt n = 0;
  assembly::check(VecGetLocalSize(v, &n), "VecGetLocalSize");
  const PetscScalar* a = nullptr;
  assembly::check(VecGetArrayRead(v, &a), "VecGetArrayRead");
  std::vector<double> out(a, a + n);
  assembly::check(VecRestoreArrayRead(v, &a), "VecRestoreArrayRead");
  return out;
}

void set_values(Vec v, std::span<const double> values) {
  PetscScalar* a = nullptr;
  assembly::check(VecGetArray(v, &a), "VecGetArray");
  std::copy(values.begin(), values.end(), a);
  assembly::check(VecRestoreArray(v, &a), "VecRestoreArray");
}

assembly::VecHandle vector_of(std::span<const double> values) {
  assembly::VecHandle v;
  assembly::check(VecCreateSeq(PETSC_COMM_SELF, static_cast<PetscInt>(values.size()), v.out()), "VecCreateSeq");
  set_values(v, values);
  return v;
}

double norm(std::span<const double> v) {
  double s = 0.0;
  for (const double x : v) s += x * x;
  return std::sqrt(s);
}

PetscErrorCode objective_and_gradient(Tao, Vec x, PetscReal* f, Vec g, void* context) {
  auto& c = *static_cast<Callbacks*>(context);
  try {
    Evaluation e{values_of(x), 0.0, {}};
    e.gradient.assign(e.x.size(), 0.0);
    e.f = c.f(e.x, e.gradient);
    *f = e.f;
    set_values(g, e.gradient);
    c.since_last_iterate.push_back(std::move(e));
    return 0;
  } catch (...) {
    c.failure = std::current_exception();
    return PETSC_ERR_USER;
  }
}

PetscErrorCode monitor_iterate(Tao tao, void* context) {
  auto& c = *static_cast<Callbacks*>(context);
  try {
    PetscInt iteration = 0;
    PetscReal f = 0.0;
    assembly::check(TaoGetSolutionStatus(tao, &iteration, &f, nullptr, nullptr, nullptr, nullptr),
                    "TaoGetSolutionStatus");
    Vec x = nullptr;
    assembly::check(TaoGetSolution(tao, &x), "TaoGetSolution");
    c.last_iterate = c.evaluation_at(values_of(x));
    c.since_last_iterate.clear();
    const std::vector<double> projected = projected_gradient(c.last_iterate.x, c.last_iterate.gradient, c.bounds);
    if (iteration == 0) c.start_projected_gradient_norm = norm(projected);
    c.monitor(MinimizerIterate{static_cast<int>(iteration), c.last_iterate.x, c.last_iterate.f,
                               c.last_iterate.gradient, norm(projected)});
    return 0;
  } catch (...) {
    c.failure = std::current_exception();
    return PETSC_ERR_USER;
  }
}

std::string short_number(double x) {
  char text[32];
  std::snprintf(text, sizeof text, "%.3g", x);
  return text;
}

/// Why TAO stopped, in terms of the command's options and with what a user can do about it.
std::string reason_in_words(TaoConvergedReason reason, const MinimizerSettings& settings, double relative_gradient) {
  const std::string where = "the projected gradient at " + short_number(relative_gradient) + " of the start's";
  const std::string tolerance = "--gradient-tolerance " + short_number(settings.gradient_tolerance);
  switch (reason) {
    case TAO_CONVERGED_GATOL: return "the projected gradient is zero";
    case TAO_CONVERGED_GTTOL:
      return "the projected gradient fell to " + short_number(relative_gradient) + " of the start's, below " + tolerance;
    case TAO_CONVERGED_GRTOL: return "projected gradient norm relative to the objective below -tao_grtol";
    case TAO_CONVERGED_STEPTOL: return "step smaller than -tao_steptol";
    case TAO_CONVERGED_MINF: return "objective below -tao_fmin";
    case TAO_CONVERGED_USER: return "stopped by a user test";
    case TAO_DIVERGED_MAXITS:
      return "--max-iterations " + std::to_string(settings.max_iterations) + " reached with " + where + " (" +
             tolerance + "): allow more iterations, or start again from the values found";
    case TAO_DIVERGED_NAN: return "a run gave an objective or a gradient that is not a number";
    case TAO_DIVERGED_MAXFCN: return "maximum number of evaluations (-tao_max_funcs) reached with " + where;
    case TAO_DIVERGED_LS_FAILURE:
      return "no lower objective along the search direction, with " + where + " (" + tolerance +
             "): the runs cannot resolve the objective any closer (tighten analysis.newton_tolerance, or "
             "accept these values), or the gradient does not match the objective";
    case TAO_DIVERGED_TR_REDUCTION: return "trust region could not be reduced further";
    case TAO_DIVERGED_USER: return "stopped by a user test";
    case TAO_CONTINUE_ITERATING: return "not finished";
  }
  return "TAO reason " + std::to_string(static_cast<int>(reason));
}

}  // namespace

std::vector<double> projected_gradient(std::span<const double> x, std::span<const double> gradient,
                                       std::span<const VariableBounds> bounds) {
  std::vector<double> out(gradient.begin(), gradient.end());
  for (std::size_t i = 0; i < out.size(); ++i)
    if ((x[i] <= bounds[i].lower && out[i] > 0.0) || (x[i] >= bounds[i].upper && out[i] < 0.0)) out[i] = 0.0;
  return out;
}

MinimizerResult minimize_within_bounds(const ObjectiveAndGradient& f, const IterationMonitor& monitor,
                                       std::span<const double> start, std::span<const VariableBounds> bounds,
                                       const MinimizerSettings& settings) {
  if (bounds.size() != start.size()) throw std::invalid_argument("minimize_within_bounds: one bound per variable");
  std::vector<double> lower, upper;
  for (const VariableBounds& b : bounds) {
    lower.push_back(std::isinf(b.lower) ? PETSC_NINFINITY : b.lower);
    upper.push_back(std::isinf(b.upper) ? PETSC_INFINITY : b.upper);
  }
  assembly::VecHandle x = vector_of(start), gradient = vector_of(start), xl = vector_of(lower), xu = vector_of(upper);
  Callbacks callbacks{f, monitor, bounds, {}, {}, 0.0, nullptr};
  TaoHandle tao;
  assembly::check(TaoCreate(PETSC_COMM_SELF, tao.out()), "TaoCreate");
  assembly::check(TaoSetType(tao, TAOBLMVM), "TaoSetType");
  assembly::check(TaoSetSolution(tao, x), "TaoSetSolution");
  assembly::check(TaoSetObjectiveAndGradient(tao, gradient, objective_and_gradient, &callbacks),
                  "TaoSetObjectiveAndGradient");
  assembly::check(TaoSetVariableBounds(tao, xl, xu), "TaoSetVariableBounds");
  // Relative to the start's projected gradient (TAO's gttol) only: Catena's objectives have units
  // of their own, so an absolute bound means a different thing per model (and per unit).
  assembly::check(TaoSetTolerances(tao, 0.0, 0.0, settings.gradient_tolerance), "TaoSetTolerances");
  assembly::check(TaoSetMaximumIterations(tao, settings.max_iterations), "TaoSetMaximumIterations");
  assembly::check(TaoSetMonitor(tao, monitor_iterate, &callbacks, nullptr), "TaoSetMonitor");
  assembly::check(TaoSetFromOptions(tao), "TaoSetFromOptions");
  // A callback's exception comes back as an error code; without a traceback printed for it.
  const PetscErrorCode solved = assembly::quietly([&] { return TaoSolve(tao); });
  if (callbacks.failure) std::rethrow_exception(callbacks.failure);
  assembly::check(solved, "TaoSolve");

  TaoConvergedReason reason = TAO_CONTINUE_ITERATING;
  PetscInt iterations = 0;
  assembly::check(TaoGetSolutionStatus(tao, &iterations, nullptr, nullptr, nullptr, nullptr, &reason),
                  "TaoGetSolutionStatus");
  Vec solution = nullptr;
  assembly::check(TaoGetSolution(tao, &solution), "TaoGetSolution");
  const Evaluation at_solution = callbacks.evaluation_at(values_of(solution));
  MinimizerResult result;
  result.x = at_solution.x;
  result.f = at_solution.f;
  result.gradient = at_solution.gradient;
  result.projected_gradient_norm = norm(projected_gradient(result.x, result.gradient, bounds));
  result.start_projected_gradient_norm = callbacks.start_projected_gradient_norm;
  result.iterations = static_cast<int>(iterations);
  result.converged = reason > 0;
  const double relative = result.start_projected_gradient_norm > 0.0
                              ? result.projected_gradient_norm / result.start_projected_gradient_norm
                              : 0.0;
  result.reason = reason_in_words(reason, settings, relative);
  return result;
}

}  // namespace catena::solvers
