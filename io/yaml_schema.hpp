#pragma once
/// The keys each mapping of a model file may hold (docs/model-format.md). Shared by the reader,
/// which rejects any other key, and by `--set`, which may add a missing key only if it is listed
/// here. A context is the key path with sequence indices written `[]`: "" (top level),
/// "analysis", "nodes[]", "trusses[]", ...
#include <array>
#include <span>
#include <string_view>

namespace catena::io::schema {

inline constexpr std::array<std::string_view, 11> top_level{
    "name", "parameters", "nodes", "initial_velocity", "supports", "masses",
    "trusses", "gravity", "loads", "analysis", "sensors"};
inline constexpr std::array<std::string_view, 3> node{"name", "position", "velocity"};
inline constexpr std::array<std::string_view, 3> initial_velocity{"omega", "about", "velocity"};
inline constexpr std::array<std::string_view, 2> support{"node", "dofs"};
inline constexpr std::array<std::string_view, 3> mass{"name", "node", "mass"};
inline constexpr std::array<std::string_view, 4> truss{"name", "nodes", "EA", "rest_length"};
inline constexpr std::array<std::string_view, 3> load{"name", "node", "force"};
inline constexpr std::array<std::string_view, 9> analysis{
    "type", "integrator", "dt", "t_end", "output_every", "dt_min",
    "max_newton_iterations", "newton_tolerance", "linear_solver"};
inline constexpr std::array<std::string_view, 5> sensor{"name", "node", "quantity", "component", "frame"};

/// The keys allowed in the mapping at `context`; empty for free-form mappings (`parameters`)
/// and for contexts that are not mappings.
constexpr std::span<const std::string_view> known_keys(std::string_view context) {
  if (context.empty()) return top_level;
  if (context == "nodes[]") return node;
  if (context == "initial_velocity") return initial_velocity;
  if (context == "supports[]") return support;
  if (context == "masses[]") return mass;
  if (context == "trusses[]") return truss;
  if (context == "loads[]") return load;
  if (context == "analysis") return analysis;
  if (context == "sensors[]") return sensor;
  return {};
}

}  // namespace catena::io::schema
