#pragma once
// A step description for tests that assemble through the tableau, which takes the trial values
// from a vector: built from the model as the integrator builds it (CommittedState::describe),
// gravity included, but unnamed (start_id 0), so nothing is kept between assemblies.
#include "fem/model.hpp"
#include "fem/step_state.hpp"

#include <span>

namespace catena::testing {

/// A midpoint step [t_n, t_n + h] of `m` from the states `committed`, without trial values.
inline fem::StepState midpoint_step(const fem::Model& m, std::span<const fem::NodeState> committed, double t_n,
                                    double h) {
  fem::StepState s{fem::TimeElement::dynamic_step(t_n, h, fem::TimeScheme::Midpoint), m.nodes, committed, {}, nullptr};
  s.gravity = m.gravity;
  return s;
}

}  // namespace catena::testing
