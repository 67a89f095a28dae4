#pragma once
/// The description of one time element [t_n, t_n + h]: when it is, which scheme stamps it, and
/// which phase of the solve it belongs to. The integrator builds it (solvers/committed_state.cpp,
/// solvers/static_equilibrium.cpp, solvers/linearized_analysis.cpp) through the named
/// constructors below, so that the phase is said once; elements ask it named questions instead of
/// comparing schemes and step sizes themselves. A new phase or scheme changes this file and the
/// integrator, not every element.
#include "fem/time_scheme.hpp"

#include <cstdint>

namespace catena::fem {

enum class StepPhase : std::uint8_t {
  /// A time step of a dynamic run: inertia, loads averaged over the step.
  Dynamic,
  /// An increment of a static analysis (`analysis.type: static`): no inertia, internal forces and
  /// loads at t_n + h, t being the load parameter.
  LoadIncrement,
  /// A static solve at the fixed time t_n (h = 0): the initial equilibrium of a dynamic run, the
  /// corrections toward it, the preload of a linearized analysis. Loads and weights are
  /// scaled by the load factor, which the solve raises toward 1.
  Equilibrium,
};

struct TimeElement {
  double t_n = 0.0;
  double h = 0.0;
  /// `Static` in both static phases, the analysis' time scheme in a dynamic step.
  TimeScheme scheme = TimeScheme::Midpoint;
  StepPhase phase = StepPhase::Dynamic;
  /// Static phases only: multiplies every load and weight (1 for a load increment).
  double load_factor = 1.0;

  [[nodiscard]] static TimeElement dynamic_step(double t_n, double h, TimeScheme scheme) {
    return {t_n, h, scheme, StepPhase::Dynamic, 1.0};
  }
  [[nodiscard]] static TimeElement load_increment(double t_n, double h) {
    return {t_n, h, TimeScheme::Static, StepPhase::LoadIncrement, 1.0};
  }
  [[nodiscard]] static TimeElement equilibrium(double t, double load_factor) {
    return {t, 0.0, TimeScheme::Static, StepPhase::Equilibrium, load_factor};
  }

  /// No inertia, no damping: forces and loads at the end of the element.
  [[nodiscard]] bool is_static() const { return phase != StepPhase::Dynamic; }
  /// A static solve at t_n itself rather than over [t_n, t_n + h].
  [[nodiscard]] bool at_fixed_time() const { return phase == StepPhase::Equilibrium; }
  /// What a static stamp multiplies its loads and weights by.
  [[nodiscard]] double external_load_factor() const { return load_factor; }
  [[nodiscard]] double t_end() const { return t_n + h; }

  friend bool operator==(const TimeElement&, const TimeElement&) = default;
};

}  // namespace catena::fem
