#pragma once
/// What the readers of a model file's sections share while they build one `fem::Model`: the
/// document, the model so far, the parameters, what each node has been given (for the final
/// checks), the names already used (for duplicate and unknown-name messages) and the lookups of
/// nodes, elements and sets by name that several sections make. Each section's reader is a
/// function of this context (io/model/section_readers.hpp).
#include "elements/beam.hpp"
#include "elements/joint.hpp"
#include "fem/model.hpp"
#include "fem/sensor.hpp"
#include "io/model/size_budget.hpp"
#include "io/yaml_cursor.hpp"

#include <array>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace catena::io::reader {

/// What the sections have given a node, in model order; the final checks read it.
struct NodeRecord {
  Cursor cursor;                      ///< its `name` value (its beam's or chain's, if generated), for messages
  bool has_velocity = false;          ///< its own `velocity`
  bool has_angular_velocity = false;  ///< its own `angular_velocity`
  std::array<bool, 6> fixed{};        ///< x, y, z, rx, ry, rz removed by supports (or `planar`)
  double mass = 0.0;                  ///< total translational mass [kg]
  bool turns = false;                 ///< carries a rigid body, a beam or a joint (rotations are not singular)
};

/// A beam definition: its elements, for `beam_loads`.
struct BeamDefinition {
  int line = 0;
  std::vector<const elements::Beam*> elements;
  std::vector<fem::NodeId> chain;  ///< nodes a, intermediate..., b
};

/// A rigid velocity field v = velocity + omega × (x − about), angular velocity omega.
struct VelocityField {
  fem::Vec3 omega = fem::Vec3::Zero();
  fem::Vec3 about = fem::Vec3::Zero();
  fem::Vec3 velocity = fem::Vec3::Zero();
};

/// `planar: xy` (or yz, zx): read before the sections whose loads must lie in the plane, applied
/// after all of them (apply_planar).
struct Plane {
  Cursor cursor;          ///< the `planar` value, for messages
  std::string_view name;  ///< "xy", "yz" or "zx"
  int normal = 2;         ///< the global axis normal to the plane (0: x, 1: y, 2: z)
};

/// A law of the motion that reads sensors (fem/law_sensors.hpp), kept until the sensors are read
/// (bind_law_sensors): where it is written, what it belongs to and which sensors it reads.
struct LawSensorReader {
  Cursor cursor;
  std::string whose;                  ///< "a joint law", "a nodal force"
  std::vector<std::string> variables;  ///< the variables of its own it may use (for messages)
  std::vector<std::size_t> sensors;    ///< indices in model.law_sensors
};

struct ModelContext {
  explicit ModelContext(Cursor document) : root(std::move(document)) {}

  Cursor root;
  fem::Model model;
  fem::ParameterTable parameters;
  std::vector<NodeRecord> nodes;  ///< one per node of `model`
  std::vector<std::pair<elements::Joint*, Cursor>> joints;  ///< with where each was defined
  std::map<std::string, int> node_lines;     ///< node name -> line of definition
  std::map<std::string, fem::NodeId, std::less<>> node_ids;  ///< node name -> node (Model::find_node is linear)
  std::map<std::string, int> element_lines;  ///< element name -> line of first use
  std::map<std::string, BeamDefinition> beams;
  std::map<std::string, int> set_lines;          ///< set name -> line of definition
  std::map<std::string, std::size_t> set_index;  ///< set name -> index in model.sets
  std::map<std::string, fem::SensorFrame> body_frames;   ///< rigid body name -> its frame (centre, node axes)
  std::map<std::string, fem::SensorFrame> joint_frames;  ///< joint name -> its frame A
  /// The sensors' names, scanned before the sections whose laws may read them (scan_sensor_names),
  /// and the prefixes `<name>_` of the sensors a set generates, one per member.
  std::vector<std::string> sensor_names, sensor_set_prefixes;
  std::vector<LawSensorReader> law_sensor_readers;
  std::optional<VelocityField> initial_velocity;
  std::optional<Plane> plane;  ///< `planar`; none: a 3D model
  SizeBudget budget;  ///< the model's projected size against the memory limit

  [[nodiscard]] NodeRecord& record(fem::NodeId id) { return nodes[static_cast<std::size_t>(id.index)]; }
  [[nodiscard]] const std::string& node_name(fem::NodeId id) const {
    return model.nodes[static_cast<std::size_t>(id.index)].name;
  }
  [[nodiscard]] const fem::Vec3& reference_position(fem::NodeId id) const {
    return model.nodes[static_cast<std::size_t>(id.index)].reference_position;
  }

  /// Adds a node to the model and its record; `cursor` is where messages about the node point.
  fem::NodeId add_node(const std::string& name, const fem::Vec3& position, const Cursor& cursor, int line,
                       fem::NodeKind kind = fem::NodeKind::Point);

  /// An optional list section; an empty value counts as an empty list.
  [[nodiscard]] std::optional<Cursor> list_section(std::string_view key, std::string_view what) const;

  /// A name or a reference to one; `{expression}` parts are evaluated (repeat indices, parameters).
  [[nodiscard]] std::string name_at(const Cursor& c, std::string_view what) const;

  /// Lookups by name; an unknown name fails with a hint (io/name_hint.hpp).
  [[nodiscard]] fem::NodeId read_node(const Cursor& c) const;
  [[nodiscard]] const fem::Element& read_element(const Cursor& c) const;
  /// A reference to a set; `kind` "nodes" or "elements" requires that kind, "" takes either.
  [[nodiscard]] const fem::NamedSet& read_set(const Cursor& c, std::string_view kind) const;
  /// The nodes an item applies to: its `node`, or every node of its `set`.
  [[nodiscard]] std::vector<fem::NodeId> target_nodes(const Cursor& item, std::string_view what) const;

  /// Reserves an element name (unique among all elements); errors point at `c`.
  void claim_element_name(const std::string& name, const Cursor& c);
  /// The element's `name`, or `<prefix>_<index>`; claimed.
  std::string element_name(const Cursor& item, std::string_view prefix, std::size_t index);
  /// The names of the elements an item with `node` or `set` generates: its `name` (or
  /// `<prefix>_<index>`), followed by `_<member>` for each member of a set; each is claimed.
  std::vector<std::string> element_names(const Cursor& item, std::string_view prefix, std::size_t index,
                                         std::span<const fem::NodeId> members);

  /// Two different nodes at distinct positions, for a truss or beam between them.
  void check_two_ends(const Cursor& where, const Cursor& second, fem::NodeId a, fem::NodeId b,
                      std::string_view element) const;
};

}  // namespace catena::io::reader
