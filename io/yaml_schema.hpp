#pragma once
/// The keys each mapping of a model file may hold (docs/model-format.md). Shared by the reader,
/// which rejects any other key, and by `--set`, which may add a missing key only if it is listed
/// here. A context is the key path with sequence indices written `[]`: "" (top level),
/// "analysis", "nodes[]", "trusses[]", "beams[].section", ...
#include <array>
#include <span>
#include <string_view>

namespace catena::io::schema {

inline constexpr std::array<std::string_view, 16> top_level{
    "name",  "parameters", "nodes",      "initial_velocity", "supports", "masses",  "trusses", "beams",
    "rigid_bodies", "gravity", "loads", "beam_loads", "analysis", "sensors", "planar", "joints"};
inline constexpr std::array<std::string_view, 10> joint{"name", "kind", "nodes", "node", "at", "axis",
                                                        "x_axis", "laws", "active_from", "active_until"};
inline constexpr std::array<std::string_view, 6> joint_components{"x", "y", "z", "rx", "ry", "rz"};
inline constexpr std::array<std::string_view, 6> joint_law{"prescribed", "rate", "stiffness", "damping", "rest",
                                                           "force"};
inline constexpr std::array<std::string_view, 5> node{"name", "position", "velocity", "orientation",
                                                      "angular_velocity"};
inline constexpr std::array<std::string_view, 3> initial_velocity{"omega", "about", "velocity"};
inline constexpr std::array<std::string_view, 2> support{"node", "dofs"};
inline constexpr std::array<std::string_view, 3> mass{"name", "node", "mass"};
inline constexpr std::array<std::string_view, 4> truss{"name", "nodes", "EA", "rest_length"};
inline constexpr std::array<std::string_view, 11> beam{"name",    "nodes",   "from",     "to",    "elements",
                                                       "orientation", "section", "material", "shape", "damping_time",
                                                       "offsets"};
inline constexpr std::array<std::string_view, 11> beam_section{"EA",   "GAy",  "GAz",   "GJ",    "EIy",   "EIz",
                                                               "rhoA", "rhoJ", "rhoIy", "rhoIz", "radius"};
inline constexpr std::array<std::string_view, 4> material{"E", "G", "nu", "rho"};
inline constexpr std::array<std::string_view, 3> shape{"rectangle", "circle", "tube"};
inline constexpr std::array<std::string_view, 2> rectangle{"width", "height"};
inline constexpr std::array<std::string_view, 1> circle{"radius"};
inline constexpr std::array<std::string_view, 2> tube{"outer_radius", "inner_radius"};
inline constexpr std::array<std::string_view, 5> rigid_body{"name", "node", "mass", "inertia", "offset"};
inline constexpr std::array<std::string_view, 5> load{"name", "node", "force", "moment", "follower"};
inline constexpr std::array<std::string_view, 3> beam_load{"name", "beam", "force"};
inline constexpr std::array<std::string_view, 10> analysis{
    "type", "integrator", "dt", "t_end", "output_every", "dt_min",
    "max_newton_iterations", "newton_tolerance", "linear_solver", "initial_equilibrium"};
inline constexpr std::array<std::string_view, 7> sensor{"name",      "node",  "element", "quantity",
                                                         "component", "frame", "scale"};

/// The keys allowed in the mapping at `context`; empty for free-form mappings (`parameters`)
/// and for contexts that are not mappings.
constexpr std::span<const std::string_view> known_keys(std::string_view context) {
  if (context.empty()) return top_level;
  if (context == "nodes[]") return node;
  if (context == "initial_velocity") return initial_velocity;
  if (context == "supports[]") return support;
  if (context == "masses[]") return mass;
  if (context == "trusses[]") return truss;
  if (context == "beams[]") return beam;
  if (context == "beams[].section") return beam_section;
  if (context == "beams[].material") return material;
  if (context == "beams[].shape") return shape;
  if (context == "beams[].shape.rectangle") return rectangle;
  if (context == "beams[].shape.circle") return circle;
  if (context == "beams[].shape.tube") return tube;
  if (context == "rigid_bodies[]") return rigid_body;
  if (context == "loads[]") return load;
  if (context == "beam_loads[]") return beam_load;
  if (context == "analysis") return analysis;
  if (context == "sensors[]") return sensor;
  if (context == "joints[]") return joint;
  if (context == "joints[].laws") return joint_components;
  if (context.starts_with("joints[].laws.")) return joint_law;
  return {};
}

}  // namespace catena::io::schema
