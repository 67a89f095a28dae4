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

inline constexpr auto& top_level = keys_of<"">;
/// Output options besides the analysis' output_every: VTK frame cadence, checkpoints of long runs.
inline constexpr auto& output = keys_of<"output">;
/// A `repeat` block, an item of any list section: `- repeat: {index, from, to, step}` with `items`.
inline constexpr auto& repeat_item = keys_of<"*[]">;
inline constexpr auto& repeat = keys_of<"*[].repeat">;
inline constexpr auto& chain = keys_of<"chains[]">;
/// The joint of a chain (between its bodies, or to the ground at its first end).
inline constexpr auto& chain_joint = keys_of<"chains[].joint">;
inline constexpr auto& set = keys_of<"sets[]">;
inline constexpr auto& input = keys_of<"inputs[]">;
/// A sensor's frame given as a mapping: exactly one of these.
inline constexpr auto& sensor_frame = keys_of<"sensors[].frame">;
inline constexpr auto& joint = keys_of<"joints[]">;
/// The components of a joint, in the order of its relative coordinates (x, y, z, rx, ry, rz).
inline constexpr auto& joint_components = keys_of<"joints[].laws">;
inline constexpr auto& joint_law = keys_of<"joints[].laws.*">;
inline constexpr auto& node = keys_of<"nodes[]">;
inline constexpr auto& initial_velocity = keys_of<"initial_velocity">;
inline constexpr auto& support = keys_of<"supports[]">;
inline constexpr auto& mass = keys_of<"masses[]">;
inline constexpr auto& truss = keys_of<"trusses[]">;
inline constexpr auto& beam = keys_of<"beams[]">;
inline constexpr auto& beam_section = keys_of<"beams[].section">;
inline constexpr auto& arc = keys_of<"beams[].arc">;
inline constexpr auto& material = keys_of<"beams[].material">;
inline constexpr auto& shape = keys_of<"beams[].shape">;
inline constexpr auto& rectangle = keys_of<"beams[].shape.rectangle">;
inline constexpr auto& circle = keys_of<"beams[].shape.circle">;
inline constexpr auto& tube = keys_of<"beams[].shape.tube">;
inline constexpr auto& rigid_body = keys_of<"rigid_bodies[]">;
/// A rigid body's visual shape: exactly one of these (or the word `none`).
inline constexpr auto& body_shape = keys_of<"rigid_bodies[].shape">;
inline constexpr auto& body_box = keys_of<"rigid_bodies[].shape.box">;
inline constexpr auto& body_cylinder = keys_of<"rigid_bodies[].shape.cylinder">;
inline constexpr auto& body_sphere = keys_of<"rigid_bodies[].shape.sphere">;
inline constexpr auto& load = keys_of<"loads[]">;
inline constexpr auto& beam_load = keys_of<"beam_loads[]">;
inline constexpr auto& analysis = keys_of<"analysis">;
inline constexpr auto& turning_frame = keys_of<"analysis.turning_frame">;
inline constexpr auto& objective = keys_of<"analysis.objective">;
inline constexpr auto& sensor = keys_of<"sensors[]">;

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
  if (context == "beams[].arc") return arc;
  if (context == "beams[].material") return material;
  if (context == "beams[].shape") return shape;
  if (context == "beams[].shape.rectangle") return rectangle;
  if (context == "beams[].shape.circle") return circle;
  if (context == "beams[].shape.tube") return tube;
  if (context == "rigid_bodies[]") return rigid_body;
  if (context == "rigid_bodies[].shape") return body_shape;
  if (context == "rigid_bodies[].shape.box") return body_box;
  if (context == "rigid_bodies[].shape.cylinder") return body_cylinder;
  if (context == "rigid_bodies[].shape.sphere") return body_sphere;
  if (context == "loads[]") return load;
  if (context == "beam_loads[]") return beam_load;
  if (context == "analysis") return analysis;
  if (context == "output") return output;
  if (context == "analysis.turning_frame") return turning_frame;
  if (context == "analysis.objective") return objective;
  if (context == "sensors[]") return sensor;
  if (context == "sensors[].frame") return sensor_frame;
  if (context == "chains[]") return chain;
  if (context == "chains[].joint" || context == "chains[].ground") return chain_joint;
  if (context == "sets[]") return set;
  if (context == "inputs[]") return input;
  if (context == "joints[]") return joint;
  if (context == "joints[].laws") return joint_components;
  if (context.starts_with("joints[].laws.")) return joint_law;
  return {};
}

}  // namespace catena::io::schema
