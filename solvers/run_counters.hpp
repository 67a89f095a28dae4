#pragma once
/// What a run counts and times, declared once: the integrator, Newton and the PETSc event log
/// count into a `RunCounters`; summary.json (io/summary_writer.cpp) and checkpoints
/// (io/checkpoint.cpp) write it field by field from `run_counter_fields` below. A new counter is
/// a member and a line of that list, nothing else.
#include <string>
#include <string_view>
#include <tuple>
#include <type_traits>

namespace catena::solvers {

struct RunCounters {
  long steps = 0;                   ///< converged time elements (a cut step counts each part)
  long equilibrium_increments = 0;  ///< load increments of the initial static equilibrium
  /// Of the Newton iterations, the corrections of pseudo-transient continuation: the static
  /// equilibria of mechanisms (solvers/pseudo_transient.hpp), initial or in a static analysis.
  long equilibrium_iterations = 0;
  /// The last such equilibrium (solvers/equilibrium_stability.hpp): "stable", "unstable", or
  /// "unchecked" (too large for the dense test); its constrained stiffness' lowest eigenvalue
  /// [N/m] (0 when unchecked); the directions it leaves without stiffness, comma-separated.
  std::string equilibrium_stability;
  double equilibrium_lowest_eigenvalue = 0.0;
  std::string free_directions;
  /// Dynamic runs with joints: the largest change the projection of the initial velocities onto
  /// the joints' constraints made (solvers/consistent_start.hpp) [m/s; angular ones times the
  /// model's size], and where.
  double initial_velocity_change = 0.0;
  std::string initial_velocity_change_at;
  long cut_steps = 0;               ///< failed attempts answered by halving h
  long newton_iterations = 0;
  long residual_evaluations = 0;  ///< element passes that produced a residual
  long jacobian_evaluations = 0;  ///< element passes that produced a Jacobian (each then factored)
  long linear_solves = 0;
  std::string linear_solver;  ///< the factorization package in use: petsc, superlu, mumps, ...
  long symbolic_factorizations = 0;
  long numeric_factorizations = 0;
  double wall_seconds = 0.0;
  double assembly_seconds = 0.0;
  double factorization_seconds = 0.0;           ///< symbolic + numeric
  double symbolic_factorization_seconds = 0.0;  ///< the one-off analysis (MUMPS: also its start-up)
  double solve_seconds = 0.0;
  double t_reached = 0.0;
  double max_energy_drift = 0.0;  ///< max |balance − balance(0)| [J]; NaN for static analyses
};

/// Whether a continued run (--restart) carries a counter on from its checkpoint or measures it
/// afresh in its own process.
enum class Carry : bool {
  Afresh,  ///< this process's own: times, the one symbolic factorization, the time reached
  Across,  ///< the checkpoint holds it, so that summary.json adds up as for an uninterrupted run
};

/// Where summary.json writes a counter.
enum class Report : unsigned char {
  Always,        ///< in the list's order
  WhenSet,       ///< in the list's order, when not empty
  TrailingWhenSet,  ///< when not zero, after the run's files (`checkpoint`, `restarted_from`)
};

/// One counter: its key in summary.json (and its name in a checkpoint), its member and its ways.
template <class T>
struct CounterField {
  std::string_view name;
  T RunCounters::*member;
  Carry carry;
  Report report;
};

/// Every counter. The order is summary.json's (users script against it: add, do not rename or
/// reorder) and, for the carried ones, that of a checkpoint's `counters` line (a carried counter
/// added here changes that line: raise io/checkpoint.cpp's format version).
inline constexpr std::tuple run_counter_fields{
    CounterField<long>{"steps", &RunCounters::steps, Carry::Across, Report::Always},
    CounterField<long>{"equilibrium_increments", &RunCounters::equilibrium_increments, Carry::Across,
                       Report::TrailingWhenSet},
    CounterField<long>{"equilibrium_iterations", &RunCounters::equilibrium_iterations, Carry::Across,
                       Report::TrailingWhenSet},
    CounterField<std::string>{"equilibrium_stability", &RunCounters::equilibrium_stability, Carry::Afresh,
                              Report::TrailingWhenSet},
    CounterField<double>{"equilibrium_lowest_eigenvalue", &RunCounters::equilibrium_lowest_eigenvalue,
                         Carry::Afresh, Report::TrailingWhenSet},
    CounterField<std::string>{"free_directions", &RunCounters::free_directions, Carry::Afresh,
                              Report::TrailingWhenSet},
    CounterField<double>{"initial_velocity_change", &RunCounters::initial_velocity_change, Carry::Afresh,
                         Report::TrailingWhenSet},
    CounterField<std::string>{"initial_velocity_change_at", &RunCounters::initial_velocity_change_at,
                              Carry::Afresh, Report::TrailingWhenSet},
    CounterField<long>{"cut_steps", &RunCounters::cut_steps, Carry::Across, Report::Always},
    CounterField<long>{"newton_iterations", &RunCounters::newton_iterations, Carry::Across, Report::Always},
    CounterField<long>{"residual_evaluations", &RunCounters::residual_evaluations, Carry::Across, Report::Always},
    CounterField<long>{"jacobian_evaluations", &RunCounters::jacobian_evaluations, Carry::Across, Report::Always},
    CounterField<long>{"linear_solves", &RunCounters::linear_solves, Carry::Across, Report::Always},
    CounterField<std::string>{"linear_solver", &RunCounters::linear_solver, Carry::Afresh, Report::WhenSet},
    CounterField<long>{"symbolic_factorizations", &RunCounters::symbolic_factorizations, Carry::Afresh,
                       Report::Always},
    CounterField<long>{"numeric_factorizations", &RunCounters::numeric_factorizations, Carry::Across,
                       Report::Always},
    CounterField<double>{"wall_seconds", &RunCounters::wall_seconds, Carry::Afresh, Report::Always},
    CounterField<double>{"assembly_seconds", &RunCounters::assembly_seconds, Carry::Afresh, Report::Always},
    CounterField<double>{"factorization_seconds", &RunCounters::factorization_seconds, Carry::Afresh,
                         Report::Always},
    CounterField<double>{"symbolic_factorization_seconds", &RunCounters::symbolic_factorization_seconds,
                         Carry::Afresh, Report::Always},
    CounterField<double>{"solve_seconds", &RunCounters::solve_seconds, Carry::Afresh, Report::Always},
    CounterField<double>{"t_reached", &RunCounters::t_reached, Carry::Afresh, Report::Always},
    CounterField<double>{"max_energy_drift", &RunCounters::max_energy_drift, Carry::Across, Report::Always},
};

/// Calls `visit(field)` for every counter field, in the list's order.
template <class Visitor>
constexpr void for_each_counter_field(Visitor&& visit) {
  std::apply([&](const auto&... field) { (visit(field), ...); }, run_counter_fields);
}

// A checkpoint writes the carried counters as numbers (io/checkpoint.cpp).
static_assert([] {
  bool numbers = true;
  for_each_counter_field([&](const auto& field) {
    if constexpr (!std::is_arithmetic_v<std::remove_cvref_t<decltype(RunCounters{}.*field.member)>>)
      numbers = numbers && field.carry == Carry::Afresh;
  });
  return numbers;
}());

/// The counters a checkpoint holds (Carry::Across) copied from `from` into `to`; the others are
/// left as they are.
inline void copy_carried(const RunCounters& from, RunCounters& to) {
  for_each_counter_field([&](const auto& field) {
    if (field.carry == Carry::Across) to.*field.member = from.*field.member;
  });
}

}  // namespace catena::solvers
