#pragma once
/// The readers of a model file's sections, each building its part of the model into the shared
/// context (io/model/model_context.hpp). io/model_reader.cpp calls them in the order that the
/// sections depend on each other (names must exist before they are used). A new top-level key
/// gets its reader here, in a file of its own or in the file of the section it extends.
#include "elements/joint.hpp"
#include "io/model/model_context.hpp"

#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace catena::io::reader {

// parameters.cpp: the model's name, its parameters and gravity.
void read_model_name(ModelContext& context);
void read_parameters(ModelContext& context);
void read_gravity(ModelContext& context);
/// A parameter (or repeat index) name: an identifier that is not reserved.
void check_parameter_name(const Cursor& c, const std::string& name);
/// A name that expressions do not reserve: not `t` (time), not a predefined constant (pi, _pi, _e),
/// not a built-in function; else fails with "...; expected another <what>".
void check_unreserved_name(const Cursor& c, const std::string& name, std::string_view what);

// inputs.cpp: `inputs`, the named values laws of the motion read (fem/inputs.hpp), into the
// model's; after the parameters (an input may not be one), before the sections with laws.
void read_inputs(ModelContext& context);

// motion_laws.cpp: laws of the motion (fem/law.hpp) in forces.
/// Whether `name` is a variable of a law of the motion (reserved: no input may be called so).
[[nodiscard]] bool is_law_variable(std::string_view name);
/// Those variables, for messages.
[[nodiscard]] std::string law_variables_note();
/// A law of the motion and the inputs it reads (indices of fem::Inputs, in the order of its
/// variables after `variables`).
struct MotionLaw {
  fem::Law law;
  std::vector<std::size_t> inputs;
  std::vector<std::size_t> sensors;  ///< indices of fem::LawSensors, in the order of its variables
};
/// The force at `c` as a law of the motion when its text names one of `variables` (those of
/// `whose`: "a joint law"), an input or a sensor (among those scan_sensor_names found; bound by
/// bind_law_sensors once the sensors are read); nothing when it names none (a function of time,
/// read as before). Fails, at `c`, for a name that is unknown (listing what the law may use) or that is
/// both a parameter and a variable or an input, and for a text muparser or the derivative rules
/// refuse.
[[nodiscard]] std::optional<MotionLaw> read_motion_law(ModelContext& context, const Cursor& c,
                                                       std::span<const std::string_view> variables,
                                                       std::string_view whose);
/// Fails when the constant `key` at `c` (a stiffness, a damping) names a variable of the motion
/// or an input, saying to write the law in `force:`.
void refuse_motion_variables(const ModelContext& context, const Cursor& c, std::span<const std::string_view> variables,
                             std::string_view key);

/// The names of the `sensors` section's items (a set's: its prefix), before the sections whose
/// laws may read them; what is not a plain name is left for read_sensors to report.
void scan_sensor_names(ModelContext& context);
/// Binds the sensors the laws read (after read_sensors). Fails at the law for a sensor the model
/// does not define (listing what it may use) and for one a law cannot read (an element field).
void bind_law_sensors(ModelContext& context);

// nodes.cpp: nodes, and what applies to every node once all exist.
void read_nodes(ModelContext& context);
void read_initial_velocity(ModelContext& context);
/// The rigid field for every node without its own velocity, and its angular velocity for every
/// frame node without its own angular_velocity. Last, when every node exists and every frame
/// node is known.
void apply_initial_velocity(ModelContext& context);

// planar.cpp: `planar: xy` (or yz, zx), every node kept to its plane parallel to the given one.
/// Reads the plane into `context.plane`, before the sections whose loads must lie in it.
void read_planar(ModelContext& context);
/// Removes the normal translation of every node and the rotations about the two in-plane axes of
/// every frame node, once every section has decided which nodes are frame nodes.
void apply_planar(ModelContext& context);
/// In a planar model a load must lie in the plane: a force's component along the normal, or a
/// moment's about an in-plane axis, would be taken by the plane's constraint and do nothing.
/// `components` are the load's as written at `c` (a list of 3), `what` names it ("follower
/// force"); `axes` turns them into global ones (the identity for dead loads, the node's axes at
/// t = 0 for a follower load, whose part along the normal keeps that value as the node turns in
/// the plane). `laws`: the components that are laws of the motion (their functions read 0), which
/// vary. Fails at the component (or the list) that leaves the plane.
void check_load_in_plane(const ModelContext& context, const Cursor& c, const std::array<fem::Expression, 3>& components,
                         bool moment, std::string_view what, const fem::Mat3& axes = fem::Mat3::Identity(),
                         const std::array<bool, 3>& laws = {});
/// `gravity` (at `c`) in a planar model: in the plane, or the weights would do nothing.
void check_gravity_in_plane(const ModelContext& context, const Cursor& c);

// beam_sections.cpp: a beam's `section`, or its `material` and `shape`.
[[nodiscard]] elements::BeamSection read_beam_section(const ModelContext& context, const Cursor& item);

// beams.cpp: beams (which generate nodes) and the loads distributed along them.
void read_beams(ModelContext& context);
void read_beam_loads(ModelContext& context);

// supports_masses_trusses.cpp
void read_supports(ModelContext& context);
void read_masses(ModelContext& context);
void read_trusses(ModelContext& context);

// rigid_bodies.cpp
void read_rigid_bodies(ModelContext& context);
/// `inertia`: 3 principal values, 6 values [Ixx, Iyy, Izz, Ixy, Iyz, Ixz] or a 3×3 list; the
/// tensor must be symmetric, positive definite and physical (triangle inequality).
[[nodiscard]] fem::Mat3 read_inertia(const ModelContext& context, const Cursor& c);

// joints.cpp
void read_joints(ModelContext& context);
/// `kind`: one of elements::joint_kinds.
[[nodiscard]] std::string_view read_joint_kind(const Cursor& item);
/// The joint axes at t = 0 (global): z along `axis` (default global z), x along `x_axis` made
/// normal to z (default: global x, or global y when z is along x).
[[nodiscard]] fem::Mat3 read_joint_axes(const ModelContext& context, const Cursor& item);
/// `laws: {rz: {prescribed: "2*t"}, x: {stiffness: 1e3, damping: 5}}` on top of the kind's switches.
void read_joint_laws(ModelContext& context, const Cursor& c, std::string_view kind, elements::JointDefinition& d);
/// Adds a joint whose frames A (on node `a`, or the ground) and B (on node `b`) coincide at t = 0,
/// at `point` with the global `axes`; `item` (the joint's mapping) is where messages point.
void add_joint(ModelContext& context, const std::string& name, elements::JointDefinition def,
               std::optional<fem::NodeId> a, fem::NodeId b, const fem::Vec3& point, const fem::Mat3& axes,
               const Cursor& item);

// chains.cpp: chains of rigid bodies (which generate nodes, bodies and joints).
void read_chains(ModelContext& context);

// sets.cpp: named sets of nodes (read once every node exists) or of elements (once every element
// but the loads exists).
void read_sets(ModelContext& context, bool element_sets);

// loads.cpp: nodal forces and moments.
void read_loads(ModelContext& context);

// sensors.cpp
void read_sensors(ModelContext& context);
/// `analysis.objective` (after the sensors, whose names it uses).
void read_objective(ModelContext& context);

// analysis.cpp: the analysis and output settings.
void read_analysis(ModelContext& context);
void read_output(ModelContext& context);

// final_checks.cpp: what only the whole model shows.
/// Dynamic analyses: every free translation needs mass, every free rotation rotary inertia or a
/// beam (otherwise the Newton matrix is singular).
void check_free_nodes_have_inertia(const ModelContext& context);

}  // namespace catena::io::reader
