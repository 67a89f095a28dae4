#pragma once
/// The joint library as a table: each kind is a choice, per relative coordinate (ε_x, ε_y, ε_z,
/// ρ_x, ρ_y, ρ_z in the joint axes of frame A), between prescribed (held at 0 unless a drive
/// law is given) and free (zero force unless a spring, damper or force law is given). Axis
/// conventions: revolute, prismatic and cylindrical joints move along/about the joint z axis; a
/// planar joint keeps the joint x–y plane; a universal joint turns about A's x axis and B's y
/// axis (Cardan angles α, β free, the twist γ held).
#include "elements/joint.hpp"

#include <span>
#include <string_view>

namespace catena::elements {

/// Every kind, in the order of the documentation.
inline constexpr std::array<std::string_view, 8> joint_kinds{"clamp",       "spherical", "revolute",  "prismatic",
                                                             "cylindrical", "universal", "planar",    "free"};

/// The switches of a kind (a name of joint_kinds); throws std::invalid_argument otherwise.
JointDefinition joint_definition(std::string_view kind);

}  // namespace catena::elements
