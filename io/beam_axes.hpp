#pragma once
/// What `catena check` says about the section axes of each beam definition: which plane each
/// bending stiffness bends the beam in, in global terms. Local z = x × y takes working out, and a
/// beam bent about its stiff axis instead of its weak one gives wrong results without an error.
#include "fem/model.hpp"

#include <string>
#include <vector>

namespace catena::io {

/// One line per beam definition (`model.element_groups` of beams), or per group of definitions
/// that read the same: "beam arm: EIy = 1000 N m^2 bends in the global x-z plane, EIz = ...
/// in the global x-y plane; local x = global x, y = global y, z = global z". A plane is named
/// when its normal is a global axis, otherwise given by its normal; local axes are named when
/// they are global ones, otherwise given as global vectors, or said to turn along the beam (an
/// arc).
[[nodiscard]] std::vector<std::string> describe_beam_axes(const fem::Model& model);

}  // namespace catena::io
