#pragma once
/// The keys each mapping of a model file may hold, taken from the table of io/model_keys.hpp.
/// Shared by the reader, which rejects any other key, and by `--set`, which may add a missing key
/// only if it is listed here. A context is the key path with sequence indices written `[]`: ""
/// (top level), "analysis", "nodes[]", "trusses[]", "beams[].section", ...
#include "io/model_keys.hpp"

#include <array>
#include <span>
#include <string_view>

namespace catena::io::schema {

inline constexpr std::array<std::string_view, 19> top_level{
    "name",  "parameters", "nodes",      "initial_velocity", "supports", "masses",  "trusses", "beams",
    "rigid_bodies", "gravity", "loads", "beam_loads", "analysis", "sensors", "planar", "joints",
    "chains", "sets", "output"};
/// Output options besides the analysis' output_every: VTK frame cadence, checkpoints of long runs.
inline constexpr auto& output = keys_of<"output">;
/// A `repeat` block, an item of any list section: `- repeat: {index, from, to, step}` with `items`.
inline constexpr std::array<std::string_view, 2> repeat_item{"repeat", "items"};
inline constexpr std::array<std::string_view, 4> repeat{"index", "from", "to", "step"};
inline constexpr std::array<std::string_view, 10> chain{"name",    "bodies", "from", "direction", "length",
                                                        "points", "mass",   "inertia", "joint", "ground"};
/// The joint of a chain (between its bodies, or to the ground at its first end).
inline constexpr std::array<std::string_view, 4> chain_joint{"kind", "axis", "x_axis", "laws"};
inline constexpr std::array<std::string_view, 3> set{"name", "nodes", "elements"};
/// A sensor's frame given as a mapping: exactly one of these.
inline constexpr std::array<std::string_view, 3> sensor_frame{"node", "body", "joint"};
inline constexpr std::array<std::string_view, 10> joint{"name", "kind", "nodes", "node", "at", "axis",
                                                        "x_axis", "laws", "active_from", "active_until"};
inline constexpr std::array<std::string_view, 6> joint_components{"x", "y", "z", "rx", "ry", "rz"};
inline constexpr std::array<std::string_view, 6> joint_law{"prescribed", "rate", "stiffness", "damping", "rest",
                                                           "force"};
inline constexpr std::array<std::string_view, 5> node{"name", "position", "velocity", "orientation",
                                                      "angular_velocity"};
inline constexpr std::array<std::string_view, 3> initial_velocity{"omega", "about", "velocity"};
inline constexpr std::array<std::string_view, 3> support{"node", "set", "dofs"};
inline constexpr std::array<std::string_view, 4> mass{"name", "node", "set", "mass"};
inline constexpr std::array<std::string_view, 4> truss{"name", "nodes", "EA", "rest_length"};
inline constexpr std::array<std::string_view, 12> beam{"name",    "nodes",   "from",     "to",    "elements",
                                                       "orientation", "section", "material", "shape", "damping_time",
                                                       "offsets", "mass"};
inline constexpr std::array<std::string_view, 11> beam_section{"EA",   "GAy",  "GAz",   "GJ",    "EIy",   "EIz",
                                                               "rhoA", "rhoJ", "rhoIy", "rhoIz", "radius"};
inline constexpr std::array<std::string_view, 4> material{"E", "G", "nu", "rho"};
inline constexpr std::array<std::string_view, 3> shape{"rectangle", "circle", "tube"};
inline constexpr std::array<std::string_view, 2> rectangle{"width", "height"};
inline constexpr std::array<std::string_view, 1> circle{"radius"};
inline constexpr std::array<std::string_view, 2> tube{"outer_radius", "inner_radius"};
inline constexpr std::array<std::string_view, 5> rigid_body{"name", "node", "mass", "inertia", "offset"};
inline constexpr std::array<std::string_view, 7> load{"name", "node", "set", "force", "moment", "follower", "semitangential"};
inline constexpr std::array<std::string_view, 3> beam_load{"name", "beam", "force"};
inline constexpr auto& analysis = keys_of<"analysis">;
inline constexpr auto& turning_frame = keys_of<"analysis.turning_frame">;
inline constexpr std::array<std::string_view, 8> sensor{"name",      "node",  "element", "set", "quantity",
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
  if (context == "output") return output;
  if (context == "analysis.turning_frame") return turning_frame;
  if (context == "sensors[]") return sensor;
  if (context == "sensors[].frame") return sensor_frame;
  if (context == "chains[]") return chain;
  if (context == "chains[].joint" || context == "chains[].ground") return chain_joint;
  if (context == "sets[]") return set;
  if (context == "joints[]") return joint;
  if (context == "joints[].laws") return joint_components;
  if (context.starts_with("joints[].laws.")) return joint_law;
  return {};
}

}  // namespace catena::io::schema
