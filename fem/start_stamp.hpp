#pragma once
/// The elements stamped once at the model's initial state, as the first step of a run stamps them,
/// without PETSc: `catena check` refuses what `catena run` would refuse at its first stamp (a beam
/// whose coordinates overflow in its length, a joint whose axes are no rotation, a law of the
/// motion exactly at a kink), naming the element and where the model file writes it.
#include "fem/model.hpp"

#include <optional>
#include <string>
#include <vector>

namespace catena::fem {

/// The unknowns, numbered by `map`, that Newton starts the first time element `time` of a run from
/// (solvers::CommittedState::predict on the first step): in a dynamic analysis each node's
/// displacement h v_0 and rotation h ω_0 of the initial state (constant velocity), zero in the
/// others; the elements' own unknowns (joints' multipliers) as the elements predict them.
[[nodiscard]] std::vector<double> first_predictor(const Model& model, const DofMap& map, const TimeElement& time);

/// The first element that cannot be stamped at the initial state, as "FILE:LINE: KIND element
/// 'NAME': what is wrong"; nothing when every element can. Stamped as the run's first Newton
/// iterate meets it: a dynamic step of `analysis.dt` from first_predictor, so that a law of a
/// joint's rate with a kink at rest (Coulomb friction, sign(e_rate)) passes when the body starts
/// moving and is refused when it starts at rest; from zero increments when the run starts from a
/// static equilibrium (`analysis.initial_equilibrium`), whose first iterate has the rates zero.
[[nodiscard]] std::optional<std::string> first_unstampable_element(const Model& model);

}  // namespace catena::fem
