#pragma once
/// The elements stamped once at the model's initial state, as the first step of a run stamps them,
/// without PETSc: `catena check` refuses what `catena run` would refuse at its first stamp (a beam
/// whose coordinates overflow in its length, a joint whose axes are no rotation), naming the
/// element and where the model file writes it.
#include "fem/model.hpp"

#include <optional>
#include <string>

namespace catena::fem {

/// The first element that cannot be stamped at the initial state (a dynamic step of `analysis.dt`
/// from rest, every unknown at zero), as "FILE:LINE: KIND element 'NAME': what is wrong"; nothing
/// when every element can.
[[nodiscard]] std::optional<std::string> first_unstampable_element(const Model& model);

}  // namespace catena::fem
