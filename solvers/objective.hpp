#pragma once
/// The run's objective (`analysis.objective`, fem::Objective): Ψ = Σ h/2 (g(t_n) + g(t_n+1)) over
/// the time elements + f(t_end), g the integrand and f the final value, both expressions of the
/// sensors at the committed states. The trapezoidal rule on the time elements is the quadrature
/// their own loads use (the work of a load is ½ (f(t_n) + f(t_n+1)) · Δx), second order like the
/// schemes, and needs nothing but the committed states the run keeps.
#include "fem/model.hpp"

#include <span>

namespace catena::solvers {

/// The integrand g at the committed `states` at t (0 without one).
[[nodiscard]] double objective_integrand(const fem::Model& model, std::span<const fem::NodeState> states, double t);
/// The final value f at the committed `states` at t (0 without one).
[[nodiscard]] double objective_final(const fem::Model& model, std::span<const fem::NodeState> states, double t);

/// The integral of g so far and g at the last committed state.
struct ObjectiveIntegral {
  double value = 0.0;
  double last_integrand = 0.0;
  /// Adds a time element of length h whose end has the integrand g.
  void add(double h, double g) {
    value += 0.5 * h * (last_integrand + g);
    last_integrand = g;
  }
};

}  // namespace catena::solvers
