#include "io/model_reader.hpp"

#include "elements/beam.hpp"
#include "elements/joint.hpp"
#include "elements/joint_kinds.hpp"
#include "elements/nodal_load.hpp"
#include "elements/point_mass.hpp"
#include "elements/rigid_body.hpp"
#include "elements/truss.hpp"
#include "fem/cross_section.hpp"
#include "fem/rotation.hpp"
#include "io/yaml_cursor.hpp"
#include "io/yaml_overrides.hpp"
#include "io/yaml_schema.hpp"

#include <Eigen/Eigenvalues>

#include <algorithm>
#include <array>
#include <cctype>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <map>
#include <numbers>

namespace catena::io {

namespace {

constexpr std::array<std::string_view, 3> axis_names{"x", "y", "z"};
constexpr std::array<std::string_view, 4> quaternion_components{"x", "y", "z", "w"};
/// Support components: translations, then rotations (about the node's global axes).
constexpr std::array<std::string_view, 6> dof_names{"x", "y", "z", "rx", "ry", "rz"};
constexpr std::array<std::string_view, 7> dof_choices{"x", "y", "z", "rx", "ry", "rz", "all"};
constexpr std::array<std::string_view, 2> integrators{"midpoint", "newmark"};
constexpr std::array<std::string_view, 4> analysis_types{"dynamic", "static", "eigen", "buckling"};
constexpr std::array<std::string_view, 6> linear_solvers{"auto", "mumps", "klu", "umfpack", "superlu", "petsc"};
/// In the order of fem::SensorQuantity.
constexpr std::array<std::string_view, 6> sensor_quantities{"position", "displacement",  "velocity",
                                                            "rotation", "orientation", "angular_velocity"};
constexpr std::array<std::string_view, 2> booleans{"false", "true"};
constexpr std::array<std::string_view, 3> planes{"xy", "yz", "zx"};
/// muparser's built-in functions: a parameter may not shadow them.
constexpr std::array<std::string_view, 25> builtin_functions{
    "sin",  "cos",  "tan", "asin", "acos", "atan", "sinh", "cosh", "tanh", "asinh", "acosh", "atanh", "log2",
    "log10", "log", "ln", "exp", "sqrt", "sign", "rint", "abs", "min", "max", "sum", "avg"};

bool is_identifier(std::string_view s) {
  if (s.empty() || (s.front() >= '0' && s.front() <= '9')) return false;
  return std::all_of(s.begin(), s.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
  });
}

/// "x", "x and z", "x, y and z"
template <std::size_t N>
std::string list_components(const std::array<bool, N>& which, std::span<const std::string_view> names) {
  std::vector<std::string_view> chosen;
  for (std::size_t c = 0; c < N; ++c)
    if (which[c]) chosen.push_back(names[c]);
  std::string out;
  for (std::size_t i = 0; i < chosen.size(); ++i) {
    if (i > 0) out += i + 1 == chosen.size() ? " and " : ", ";
    out += chosen[i];
  }
  return out;
}

std::string format_vector(const fem::Vec3& v) {
  return "[" + format_number(v.x()) + ", " + format_number(v.y()) + ", " + format_number(v.z()) + "]";
}

/// `true` or `false` (YAML's spellings True, TRUE, ... too).
bool read_bool(const Cursor& c, std::string_view what) {
  if (c.is_scalar()) {
    std::string text = c.node().Scalar();
    std::transform(text.begin(), text.end(), text.begin(),
                   [](char ch) { return static_cast<char>(std::tolower(static_cast<unsigned char>(ch))); });
    if (text == "true") return true;
    if (text == "false") return false;
  }
  return read_choice(c, booleans, what) == 1;  // fails with "expected <what>: one of false, true"
}

/// A beam definition: its name and its elements, for `beam_loads`.
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

/// Builds a model from a document, section by section, validating as it goes.
class ModelBuilder {
 public:
  explicit ModelBuilder(Cursor root) : root_(std::move(root)) {}

  fem::Model build() {
    root_.expect_map("a model");
    root_.check_keys(schema::top_level);
    read_name();
    read_parameters();
    read_gravity();
    read_nodes();
    read_initial_velocity();
    read_beams();   // generates nodes: every later section may use them
    read_chains();  // generates nodes, rigid bodies and joints
    read_sets(/*element_sets=*/false);
    read_supports();
    read_masses();
    read_trusses();
    read_rigid_bodies();
    read_joints();
    read_sets(/*element_sets=*/true);
    read_loads();
    read_beam_loads();
    read_analysis();
    read_output();
    read_sensors();
    apply_initial_velocity();
    apply_planar();
    check_joint_velocities();
    if (model_.analysis.type == fem::AnalysisType::Dynamic) check_free_nodes_have_inertia();
    model_.update_length_scale();
    return std::move(model_);
  }

 private:
  using Index = std::size_t;
  static Index at(fem::NodeId id) { return static_cast<Index>(id.index); }

  void read_name() {
    const Cursor c = root_.get("name", "the model name; results go to out/<name>/");
    const std::string name = read_string(c, "a model name");
    if (name == "." || name == ".." || name.find_first_of("/\\") != std::string::npos)
      c.fail_expected("a model name usable as a folder name (no '/' or '\\')");
    model_.name = name;
  }

  /// A parameter (or repeat index) name: an identifier that is not reserved.
  static void check_parameter_name(const Cursor& c, const std::string& name) {
    if (!is_identifier(name)) c.fail_expected("a parameter name (letters, digits and _, not starting with a digit)");
    if (name == "t") c.fail("the name 't' is reserved for time; expected another parameter name");
    if (name == "pi" || name == "_pi" || name == "_e")
      c.fail("'" + name + "' is predefined (pi = 3.14159...); expected another parameter name");
    if (std::find(builtin_functions.begin(), builtin_functions.end(), name) != builtin_functions.end())
      c.fail("'" + name + "' is a built-in function; expected another parameter name");
  }

  void read_parameters() {
    parameters_["pi"] = std::numbers::pi;
    const auto section = root_.find("parameters");
    if (!section || section->node().IsNull()) return;
    section->expect_map("parameters (a mapping name: value, in order of use)");
    section->check_keys({});
    const auto entries = section->entries();
    std::map<std::string, int> declared_on_line;  // every parameter, to explain a forward use
    for (const auto& [key, value] : entries)
      if (key.is_scalar()) declared_on_line.emplace(key.node().Scalar(), key.node().Mark().line + 1);
    for (const auto& [key, value] : entries) {
      const std::string name = key.is_scalar() ? key.node().Scalar() : std::string();
      check_parameter_name(key, name);
      if (value.is_scalar())
        for (const std::string& used : expression_names(value.node().Scalar()))
          if (!parameters_.contains(used) && declared_on_line.contains(used))
            value.fail("parameter '" + used + "' is used before its definition (line " +
                       std::to_string(declared_on_line.at(used)) + "); expected an expression of earlier parameters");
      parameters_[name] = read_number(value, parameters_, Quantity{"parameter value", "", Bound::Any, true});
    }
  }

  void read_gravity() {
    if (const auto c = root_.find("gravity"))
      model_.gravity = read_vec3(*c, parameters_, Quantity{"gravity acceleration", "m/s^2"});
  }

  /// Adds a node with its bookkeeping; `cursor` is where messages about the node point.
  fem::NodeId add_node(const std::string& name, const fem::Vec3& position, const Cursor& cursor, int line,
                       fem::NodeKind kind = fem::NodeKind::Point) {
    const fem::NodeId id = model_.add_node(name, position, kind);
    node_lines_.emplace(name, line);
    node_cursors_.push_back(cursor);
    node_names_.push_back(name);
    has_velocity_.push_back(false);
    has_angular_velocity_.push_back(false);
    fixed_.push_back({});
    mass_.push_back(0.0);
    turns_.push_back(false);
    return id;
  }

  void read_nodes() {
    if (!root_.find("nodes") && root_.find("chains")) return;  // a model of chains alone
    const Cursor list = root_.get("nodes", "the list of nodes");
    list.expect_sequence("a list of nodes {name, position}");
    if (list.size() == 0) list.fail_expected("at least one node");
    for_each_item(list, [&](const Cursor& item, std::size_t) {
      item.expect_map("a node {name, position, velocity, orientation, angular_velocity}");
      item.check_keys(schema::node);
      const Cursor name_cursor = item.get("name", "the node's name");
      const std::string name = name_at(name_cursor, "a node name");
      const int line = name_cursor.node().Mark().line + 1;
      if (const auto it = node_lines_.find(name); it != node_lines_.end())
        name_cursor.fail("duplicate node name '" + name + "' (first defined on line " + std::to_string(it->second) +
                         "); expected a new name");
      const fem::Vec3 position = read_vec3(item.get("position", "the node's position [m]"), parameters_,
                                           Quantity{"position", "m"});
      const fem::NodeId id = add_node(name, position, name_cursor, line);
      fem::NodeState& state = model_.initial_state[at(id)];
      if (const auto velocity = item.find("velocity")) {
        state.velocity = read_vec3(*velocity, parameters_, Quantity{"velocity", "m/s"});
        has_velocity_[at(id)] = true;
      }
      if (const auto orientation = item.find("orientation")) {
        model_.make_frame(id);
        state.orientation = fem::quaternion_from_rotation_vector(read_vec3(*orientation, parameters_, Quantity{"rotation vector", "rad"}));
      }
      if (const auto omega = item.find("angular_velocity")) {
        model_.make_frame(id);
        state.angular_velocity = read_vec3(*omega, parameters_, Quantity{"angular velocity", "rad/s"});
        has_angular_velocity_[at(id)] = true;
      }
    });
  }

  void read_initial_velocity() {
    const auto c = root_.find("initial_velocity");
    if (!c) return;
    c->expect_map("a rigid velocity field {omega, about, velocity}");
    c->check_keys(schema::initial_velocity);
    VelocityField field;
    if (const auto w = c->find("omega"))
      field.omega = read_vec3(*w, parameters_, Quantity{"angular velocity", "rad/s"});
    if (const auto a = c->find("about")) field.about = read_vec3(*a, parameters_, Quantity{"point", "m"});
    if (const auto v = c->find("velocity")) field.velocity = read_vec3(*v, parameters_, Quantity{"velocity", "m/s"});
    initial_velocity_ = field;
  }

  /// `planar: xy` (or yz, zx): every node keeps to its plane parallel to the given one. Removes
  /// the normal translation of every node and the rotations about the two in-plane axes of every
  /// frame node, once every section has decided which nodes are frame nodes.
  void apply_planar() {
    const auto c = root_.find("planar");
    if (!c) return;
    const std::size_t plane = read_choice(*c, planes, "a plane");
    const int normal = plane == 0 ? 2 : plane == 1 ? 0 : 1;
    for (std::size_t i = 0; i < model_.nodes.size(); ++i) {
      const fem::NodeId id{static_cast<std::int32_t>(i)};
      const fem::NodeState& s = model_.initial_state[i];
      const double v = s.velocity[normal];
      if (v != 0.0)
        c->fail("node '" + node_names_[i] + "' starts with velocity " + format_number(v) + " m/s along " +
                std::string(axis_names[static_cast<std::size_t>(normal)]) + ", out of the " + std::string(planes[plane]) +
                " plane; expected a planar model to start in its plane");
      model_.fix(id, normal);
      fixed_[i][static_cast<std::size_t>(normal)] = true;
      if (model_.nodes[i].kind != fem::NodeKind::Frame) continue;
      for (int k = 0; k < 3; ++k) {
        if (k == normal) continue;
        if (s.angular_velocity[k] != 0.0)
          c->fail("node '" + node_names_[i] + "' starts turning about " + std::string(axis_names[static_cast<std::size_t>(k)]) +
                  " (" + format_number(s.angular_velocity[k]) + " rad/s), out of the " + std::string(planes[plane]) +
                  " plane; expected a planar model to start in its plane");
        model_.fix_rotation(id, k);
        fixed_[i][static_cast<std::size_t>(3 + k)] = true;
      }
    }
    for (auto& [joint, cursor] : joints_) {
      try {
        joint->release_out_of_plane(fem::Vec3::Unit(normal), model_.registry);
      } catch (const std::invalid_argument& e) {
        cursor.fail(e.what());
      }
    }
  }

  /// Initial velocities must respect every joint: a prescribed component must start changing at
  /// the rate its law gives at t = 0.
  void check_joint_velocities() {
    model_.update_length_scale();
    const double L = model_.length_scale;
    double speed = 0.0;
    for (const fem::NodeState& s : model_.initial_state)
      speed = std::max({speed, s.velocity.norm(), s.angular_velocity.norm() * L});
    for (const auto& [joint, cursor] : joints_) {
      const Eigen::Matrix<double, 6, 1> rates = joint->relative_rates(model_.initial_state);
      for (std::size_t k = 0; k < 6; ++k) {
        const elements::JointLaw& law = joint->definition().laws[k];
        double expected = 0.0;
        if (law.kind == elements::JointLawKind::PrescribedRate) {
          expected = law.function ? (*law.function)(0.0) : 0.0;
        } else if (law.kind == elements::JointLawKind::Prescribed) {
          const double dt = 1e-7;  // one-sided: laws may be defined from t = 0 on only
          if (law.function) expected = ((*law.function)(dt) - (*law.function)(0.0)) / dt;
        } else {
          continue;
        }
        const bool rotation = k >= 3;
        const double rate = rates[static_cast<Eigen::Index>(k)];
        const double tolerance = 1e-6 * ((1.0 + speed) / (rotation ? L : 1.0) + std::abs(expected));
        if (std::abs(rate - expected) > tolerance)
          cursor.fail("joint '" + joint->name() + "': the initial velocities make component " +
                      std::string(schema::joint_components[k]) + " change at " + format_number(rate) +
                      (rotation ? " rad/s" : " m/s") + " where its law gives " + format_number(expected) +
                      "; expected initial velocities that respect the joint (a rigid field initial_velocity, or "
                      "matching node velocities)");
      }
    }
  }

  /// The rigid field for every node without its own velocity, and its angular velocity for every
  /// frame node without its own angular_velocity. Last, when every node exists and every frame
  /// node is known.
  void apply_initial_velocity() {
    if (!initial_velocity_) return;
    const VelocityField& f = *initial_velocity_;
    for (std::size_t i = 0; i < model_.nodes.size(); ++i) {
      if (!has_velocity_[i])
        model_.initial_state[i].velocity = f.velocity + f.omega.cross(model_.nodes[i].reference_position - f.about);
      if (model_.nodes[i].kind == fem::NodeKind::Frame && !has_angular_velocity_[i])
        model_.initial_state[i].angular_velocity = f.omega;
    }
  }

  /// An optional list section; an empty value counts as an empty list.
  std::optional<Cursor> list_section(std::string_view key, std::string_view what) const {
    auto c = root_.find(key);
    if (!c || c->node().IsNull()) return std::nullopt;
    c->expect_sequence(what);
    return c;
  }

  /// A name or a reference to one; `{expression}` parts are evaluated (repeat indices, parameters).
  std::string name_at(const Cursor& c, std::string_view what) const { return io::read_name(c, parameters_, what); }

  /// Calls `visit(item, n)` for every item of a list, in order, with `repeat` blocks expanded
  /// (docs/model-format.md, "repeat"): n counts the items visited, for default names.
  template <class Visit>
  void for_each_item(const Cursor& list, Visit&& visit) {
    std::size_t count = 0;
    visit_items(list, visit, count);
  }

  template <class Visit>
  void visit_items(const Cursor& list, Visit& visit, std::size_t& count) {
    for (std::size_t i = 0; i < list.size(); ++i) {
      const Cursor item = list[i];
      if (const auto range = item.find("repeat")) {
        visit_repeat(item, *range, visit, count);
      } else {
        visit(item, count++);
      }
    }
  }

  /// A whole number (a repeat bound or step), any sign.
  long read_whole(const Cursor& c, std::string_view noun) const {
    const double v = read_number(c, parameters_, Quantity{std::string(noun), ""});
    if (v != std::floor(v) || std::abs(v) > 1e9) {
      const std::string text = c.node().Scalar();
      double literal = 0.0;
      const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), literal);
      const bool plain = error == std::errc() && end == text.data() + text.size();
      c.fail("expected a whole number (" + std::string(noun) + "); found " +
             (plain ? text : "'" + text + "' = " + format_number(v)));
    }
    return static_cast<long>(v);
  }

  /// `- repeat: {index: k, from: 1, to: n, step: 1}` with `items: [...]`: the items once for each
  /// value of k, which is a parameter while they are read. An error inside names the value.
  template <class Visit>
  void visit_repeat(const Cursor& item, const Cursor& range, Visit& visit, std::size_t& count) {
    item.check_keys(schema::repeat_item);
    range.expect_map("a repeat range {index, from, to, step}");
    range.check_keys(schema::repeat);
    const Cursor index_cursor = range.get("index", "the name of the index variable");
    const std::string index = read_string(index_cursor, "an index name");
    check_parameter_name(index_cursor, index);
    if (parameters_.contains(index))
      index_cursor.fail("the name '" + index + "' is already a parameter or an enclosing index; expected a new index name");
    const long from = read_whole(range.get("from", "the first index value"), "the first index value");
    const long to = read_whole(range.get("to", "the last index value"), "the last index value");
    long step = 1;
    if (const auto s = range.find("step")) {
      step = read_whole(*s, "the index step");
      if (step == 0) s->fail("expected a nonzero index step; found 0");
    }
    const long n = (to - from) / step + 1;
    if (n > 100000) range.fail("expected at most 100000 repetitions; found " + std::to_string(n));
    const Cursor items = item.get("items", "the list of items repeated for each index value");
    items.expect_sequence("a list of items to repeat");
    for (long k = from; step > 0 ? k <= to : k >= to; k += step) {
      parameters_[index] = static_cast<double>(k);
      try {
        visit_items(items, visit, count);
      } catch (const InputError& e) {
        throw InputError(e.file(), e.line(), e.column(), e.key(),
                         e.message() + " (in repeat " + index + " = " + std::to_string(k) + ")");
      }
    }
    parameters_.erase(index);
  }

  fem::NodeId read_node(const Cursor& c) const {
    const std::string name = name_at(c, "a node name");
    if (const auto id = model_.find_node(name)) return *id;
    c.fail("unknown node '" + name + "'" +
           unknown_name_hint(name, node_names_, {.list_at_most = 12, .counted = "nodes are defined"}));
  }

  /// Reserves an element name (unique among all elements); errors point at `c`.
  void claim_element_name(const std::string& name, const Cursor& c) {
    if (const auto it = element_lines_.find(name); it != element_lines_.end())
      c.fail("duplicate element name '" + name + "' (first used on line " + std::to_string(it->second) +
             "); expected a new name");
    element_lines_.emplace(name, c.node().Mark().line + 1);
  }

  /// The names of the elements an item with `node` or `set` generates: its `name` (or
  /// `<prefix>_<index>`), followed by `_<member>` for each member of a set; each is claimed.
  std::vector<std::string> element_names(const Cursor& item, std::string_view prefix, std::size_t index,
                                         std::span<const fem::NodeId> nodes) {
    if (!item.find("set")) return {element_name(item, prefix, index)};
    const auto c = item.find("name");
    const std::string base = c ? name_at(*c, "an element name") : std::string(prefix) + "_" + std::to_string(index);
    std::vector<std::string> names;
    for (const fem::NodeId node : nodes) {
      names.push_back(base + "_" + node_names_[at(node)]);
      claim_element_name(names.back(), c ? *c : item);
    }
    return names;
  }

  /// The element's `name`, or `<prefix>_<index>`; element names are unique.
  std::string element_name(const Cursor& item, std::string_view prefix, std::size_t index) {
    const auto c = item.find("name");
    const std::string name = c ? name_at(*c, "an element name") : std::string(prefix) + "_" + std::to_string(index);
    claim_element_name(name, c ? *c : item);
    return name;
  }

  void read_supports() {
    const auto list = list_section("supports", "a list of supports {node, dofs}");
    if (!list) return;
    for_each_item(*list, [&](const Cursor& item, std::size_t) {
      item.expect_map("a support {node, dofs}");
      item.check_keys(schema::support);
      const std::vector<fem::NodeId> nodes = target_nodes(item, "support");
      std::array<bool, 6> fix{true, true, true, false, false, false};
      if (const auto dofs = item.find("dofs")) {
        fix = {};
        if (dofs->is_scalar()) {
          const std::size_t c = read_choice(*dofs, dof_choices, "a component or all");
          if (c == 6) {
            fix = {true, true, true, true, true, true};
          } else {
            fix[c] = true;
          }
        } else {
          if (!dofs->is_sequence() || dofs->size() == 0)
            dofs->fail_expected("a list of components from x, y, z, rx, ry, rz (or all)");
          for (std::size_t k = 0; k < dofs->size(); ++k) fix[read_choice((*dofs)[k], dof_names, "a component")] = true;
        }
      }
      for (const fem::NodeId node : nodes) {
        if (fix[3] || fix[4] || fix[5]) model_.make_frame(node);
        for (int c = 0; c < 6; ++c) {
          if (!fix[static_cast<std::size_t>(c)]) continue;
          if (c < 3) {
            model_.fix(node, c);
          } else {
            model_.fix_rotation(node, c - 3);
          }
          fixed_[at(node)][static_cast<std::size_t>(c)] = true;
        }
      }
    });
  }

  void read_masses() {
    const auto list = list_section("masses", "a list of point masses {node, mass}");
    if (!list) return;
    for_each_item(*list, [&](const Cursor& item, std::size_t i) {
      item.expect_map("a point mass {node, mass}");
      item.check_keys(schema::mass);
      const std::vector<fem::NodeId> nodes = target_nodes(item, "mass");
      const std::vector<std::string> names = element_names(item, "mass", i, nodes);
      const double m = read_number(item.get("mass", "the mass [kg]"), parameters_, Quantity{"mass", "kg", Bound::Positive});
      for (std::size_t k = 0; k < nodes.size(); ++k) {
        mass_[at(nodes[k])] += m;
        model_.add_element<elements::PointMass>(names[k], model_.nodes, nodes[k], m, model_.gravity);
      }
    });
  }

  /// Two different nodes at distinct positions, for a truss or beam between them.
  void check_two_ends(const Cursor& where, const Cursor& second, fem::NodeId a, fem::NodeId b,
                      std::string_view element) const {
    if (a == b) second.fail("expected two different nodes; found '" + node_names_[at(a)] + "' twice");
    const double distance = (model_.nodes[at(b)].reference_position - model_.nodes[at(a)].reference_position).norm();
    if (!(distance > 0.0))
      where.fail("expected nodes at distinct positions (a " + std::string(element) + " of non-zero length); found '" +
                 node_names_[at(a)] + "' and '" + node_names_[at(b)] + "' at the same point");
  }

  void read_trusses() {
    const auto list = list_section("trusses", "a list of trusses {name, nodes, EA}");
    if (!list) return;
    for_each_item(*list, [&](const Cursor& item, std::size_t i) {
      item.expect_map("a truss {name, nodes, EA, rest_length}");
      item.check_keys(schema::truss);
      const std::string name = element_name(item, "truss", i);
      const Cursor ends = item.get("nodes", "the truss's two nodes [a, b]");
      if (!ends.is_sequence() || ends.size() != 2) ends.fail_expected("the truss's two node names [a, b]");
      const fem::NodeId a = read_node(ends[0]);
      const fem::NodeId b = read_node(ends[1]);
      if (a == b) ends[1].fail("expected two different nodes; found '" + node_names_[at(a)] + "' twice");
      const double EA = read_number(item.get("EA", "the axial stiffness EA [N]"), parameters_,
                                    Quantity{"axial stiffness EA", "N", Bound::Positive});
      check_two_ends(ends, ends[1], a, b, "truss");
      const double distance = (model_.nodes[at(b)].reference_position - model_.nodes[at(a)].reference_position).norm();
      double rest_length = distance;
      if (const auto l0 = item.find("rest_length"))
        rest_length = read_number(*l0, parameters_, Quantity{"rest length", "m", Bound::Positive});
      model_.add_element<elements::Truss>(name, model_.nodes, a, b, elements::TrussSection{EA}, rest_length);
    });
  }

  // ---- beams ----

  /// `section: {EA, GAy, GAz, GJ, EIy, EIz, rhoA, rhoJ, rhoIy, rhoIz, radius}`.
  elements::BeamSection read_direct_section(const Cursor& c) const {
    c.expect_map("a beam section {EA, GAy, GAz, GJ, EIy, EIz, rhoA, rhoJ, rhoIy, rhoIz, radius}");
    c.check_keys(schema::beam_section);
    const auto required = [&](std::string_view key, std::string noun, std::string unit) {
      const std::string what = "the " + noun + " [" + unit + "]";
      return read_number(c.get(key, what), parameters_, Quantity{std::move(noun), std::move(unit), Bound::Positive});
    };
    const auto optional = [&](std::string_view key, std::string noun, std::string unit, Bound bound) {
      const auto v = c.find(key);
      return v ? read_number(*v, parameters_, Quantity{std::move(noun), std::move(unit), bound}) : 0.0;
    };
    elements::BeamSection s;
    s.EA = required("EA", "axial stiffness EA", "N");
    s.GAy = optional("GAy", "shear stiffness GAy", "N", Bound::Positive);
    s.GAz = optional("GAz", "shear stiffness GAz", "N", Bound::Positive);
    s.GJ = required("GJ", "torsional stiffness GJ", "N m^2");
    s.EIy = required("EIy", "bending stiffness EIy", "N m^2");
    s.EIz = required("EIz", "bending stiffness EIz", "N m^2");
    s.rhoA = optional("rhoA", "mass per length rhoA", "kg/m", Bound::NonNegative);
    s.rhoJ = optional("rhoJ", "polar mass moment per length rhoJ", "kg m", Bound::NonNegative);
    s.rhoIy = optional("rhoIy", "mass moment per length rhoIy", "kg m", Bound::NonNegative);
    s.rhoIz = optional("rhoIz", "mass moment per length rhoIz", "kg m", Bound::NonNegative);
    s.radius = optional("radius", "radius", "m", Bound::NonNegative);
    return s;
  }

  /// `shape: {rectangle: {width, height}} | {circle: {radius}} | {tube: {outer_radius, inner_radius}}`.
  fem::SectionGeometry read_shape(const Cursor& c) const {
    const std::string what = "a shape: rectangle {width, height}, circle {radius} or tube {outer_radius, inner_radius}";
    c.expect_map(what);
    c.check_keys(schema::shape);
    if (c.size() != 1)
      c.fail("expected exactly one shape (rectangle, circle or tube); found " + std::to_string(c.size()));
    const auto length = [&](const Cursor& s, std::string_view key, std::string noun, Bound bound = Bound::Positive) {
      return read_number(s.get(key, "the " + noun + " [m]"), parameters_, Quantity{std::move(noun), "m", bound});
    };
    // The shear coefficients are Cowper's at ν = 0 whatever the material's ν
    // (docs/model-format.md, "Shapes").
    constexpr double shear_coefficient_poisson_ratio = 0.0;
    if (const auto r = c.find("rectangle")) {
      r->expect_map("a rectangle {width, height}");
      r->check_keys(schema::rectangle);
      const double b = length(*r, "width", "width (along local y)");
      const double h = length(*r, "height", "height (along local z)");
      return fem::rectangle_section(b, h, shear_coefficient_poisson_ratio);
    }
    if (const auto circle = c.find("circle")) {
      circle->expect_map("a circle {radius}");
      circle->check_keys(schema::circle);
      return fem::circle_section(length(*circle, "radius", "radius"), shear_coefficient_poisson_ratio);
    }
    if (const auto tube = c.find("tube")) {
      tube->expect_map("a tube {outer_radius, inner_radius}");
      tube->check_keys(schema::tube);
      const double ro = length(*tube, "outer_radius", "outer radius");
      const Cursor inner = tube->get("inner_radius", "the inner radius [m]");
      const double ri = read_number(inner, parameters_, Quantity{"inner radius", "m", Bound::NonNegative});
      if (!(ri < ro))
        inner.fail("expected an inner radius [m] smaller than the outer radius " + format_number(ro) + "; found " +
                   inner.found());
      return fem::tube_section(ro, ri, shear_coefficient_poisson_ratio);
    }
    return {};
  }

  /// `material: {E, G or nu, rho}` with `shape`.
  elements::BeamSection read_material_section(const Cursor& material, const Cursor& shape) const {
    material.expect_map("a material {E, G or nu, rho}");
    material.check_keys(schema::material);
    const double E = read_number(material.get("E", "Young's modulus E [Pa]"), parameters_,
                                 Quantity{"Young's modulus E", "Pa", Bound::Positive});
    const auto G_cursor = material.find("G");
    const auto nu_cursor = material.find("nu");
    double G = 0.0;
    if (G_cursor && nu_cursor) nu_cursor->fail("expected either the shear modulus G or Poisson's ratio nu; found both");
    if (G_cursor) {
      G = read_number(*G_cursor, parameters_, Quantity{"shear modulus G", "Pa", Bound::Positive});
    } else if (nu_cursor) {
      const double nu = read_number(*nu_cursor, parameters_, Quantity{"Poisson's ratio nu", ""});
      if (!(nu > -1.0 && nu <= 0.5))
        nu_cursor->fail("expected a Poisson's ratio nu with -1 < nu <= 0.5; found " + nu_cursor->found());
      G = fem::shear_modulus(E, nu);
    } else {
      static_cast<void>(material.get("G", "the shear modulus G [Pa], or Poisson's ratio nu"));
    }
    double rho = 0.0;
    if (const auto r = material.find("rho"))
      rho = read_number(*r, parameters_, Quantity{"density rho", "kg/m^3", Bound::NonNegative});
    const fem::SectionGeometry g = read_shape(shape);
    elements::BeamSection s;
    s.EA = E * g.area;
    s.GAy = s.GAz = g.shear_coefficient * G * g.area;
    s.GJ = G * g.torsion_constant;
    s.EIy = E * g.second_moment_y;
    s.EIz = E * g.second_moment_z;
    s.rhoA = rho * g.area;
    s.rhoJ = rho * (g.second_moment_y + g.second_moment_z);  // the polar moment, not the torsion constant
    s.rhoIy = rho * g.second_moment_y;
    s.rhoIz = rho * g.second_moment_z;
    s.radius = g.radius;
    return s;
  }

  elements::BeamSection read_beam_section(const Cursor& item) const {
    const auto section = item.find("section");
    const auto material = item.find("material");
    const auto shape = item.find("shape");
    if (section && (material || shape))
      (material ? *material : *shape).fail("expected either section or material and shape; found both");
    if (section) return read_direct_section(*section);
    if (!material && !shape)
      static_cast<void>(item.get("section", "the cross-section: section {EA, GJ, EIy, EIz, ...}, or material and shape"));
    const Cursor m = item.get("material", "the material {E, G or nu, rho}, with shape");
    const Cursor s = item.get("shape", "the cross-section shape: rectangle, circle or tube, with material");
    return read_material_section(m, s);
  }

  void read_beams() {
    const auto list = list_section("beams", "a list of beams {name, nodes, section}");
    if (!list) return;
    for_each_item(*list, [&](const Cursor& item, std::size_t) {
      item.expect_map("a beam {name, nodes or from/to/elements, section or material and shape, orientation}");
      item.check_keys(schema::beam);
      const Cursor name_cursor = item.get("name", "the beam's name; its elements and generated nodes are named after it");
      const std::string name = name_at(name_cursor, "a beam name");
      const int line = name_cursor.node().Mark().line + 1;
      if (const auto it = beams_.find(name); it != beams_.end())
        name_cursor.fail("duplicate beam name '" + name + "' (first defined on line " + std::to_string(it->second.line) +
                         "); expected a new name");

      // Ends, and the number of elements.
      const auto nodes = item.find("nodes");
      const auto from = item.find("from");
      const auto to = item.find("to");
      const auto count = item.find("elements");
      fem::NodeId a, b;
      int n = 1;
      if (nodes) {
        if (from || to || count)
          (from ? *from : to ? *to : *count).fail("expected either nodes: [a, b] or from, to and elements; found both");
        if (!nodes->is_sequence() || nodes->size() != 2) nodes->fail_expected("the beam's two node names [a, b]");
        a = read_node((*nodes)[0]);
        b = read_node((*nodes)[1]);
        check_two_ends(*nodes, (*nodes)[1], a, b, "beam");
      } else {
        if (!from && !to) static_cast<void>(item.get("nodes", "the beam's two nodes [a, b], or from, to and elements"));
        const Cursor from_cursor = item.get("from", "the node at the beam's start");
        const Cursor to_cursor = item.get("to", "the node at the beam's end");
        a = read_node(from_cursor);
        b = read_node(to_cursor);
        if (count) n = read_integer(*count, parameters_, "elements along the beam", 1);
        check_two_ends(to_cursor, to_cursor, a, b, "beam");
      }

      const elements::BeamSection section = [&] {
        elements::BeamSection s = read_beam_section(item);
        if (const auto eta = item.find("damping_time"))
          s.damping_time = read_number(*eta, parameters_, Quantity{"damping time", "s", Bound::NonNegative});
        if (const auto mass = item.find("mass")) {
          static constexpr std::array<std::string_view, 3> kinds{"lumped", "mixed", "consistent"};
          s.mass_coupling = 0.5 * static_cast<double>(read_choice(*mass, kinds, "a beam mass: lumped, mixed or consistent"));
        }
        return s;
      }();

      // Rigid eccentric connections: the beam's end points from its end nodes, global axes.
      std::array<fem::Vec3, 2> offsets{fem::Vec3::Zero(), fem::Vec3::Zero()};
      if (const auto o = item.find("offsets")) {
        if (!o->is_sequence() || o->size() != 2)
          o->fail_expected("the offsets [m] of the beam's two end points from its end nodes, [[x, y, z], [x, y, z]]");
        for (std::size_t k = 0; k < 2; ++k) offsets[k] = read_vec3((*o)[k], parameters_, Quantity{"end offset", "m"});
      }

      // Orientation: a vector in the local x-y plane, not along the chord.
      const fem::Vec3 Xa = model_.nodes[at(a)].reference_position + offsets[0];
      const fem::Vec3 chord = model_.nodes[at(b)].reference_position + offsets[1] - Xa;
      if (!(chord.norm() > 0.0)) name_cursor.fail("the beam's end points coincide; expected a beam of nonzero length");
      fem::Vec3 orientation;
      if (const auto o = item.find("orientation")) {
        orientation = read_vec3(*o, parameters_, Quantity{"orientation vector", ""});
        if (!(orientation.cross(chord).norm() > 1e-9 * orientation.norm() * chord.norm()))
          o->fail("expected an orientation vector not parallel to the beam's axis " + format_vector(chord / chord.norm()) +
                  " (a vector in the local x-y plane); found " + format_vector(orientation));
      } else {
        orientation = fem::Vec3::UnitZ().cross(chord);
        if (!(orientation.norm() > 1e-9 * chord.norm())) orientation = fem::Vec3::UnitY();
      }

      // Nodes: the ends become frame nodes; n − 1 generated nodes between them.
      model_.make_frame(a);
      model_.make_frame(b);
      BeamDefinition def;
      def.line = line;
      def.chain.push_back(a);
      const fem::Quaternion& qa = model_.initial_state[at(a)].orientation;
      const fem::Quaternion& qb = model_.initial_state[at(b)].orientation;
      const fem::Quaternion q_mid = qa.angularDistance(qb) < 1e-12 ? qa : fem::Quaternion::Identity();
      for (int k = 1; k < n; ++k) {
        const std::string node_name = name + "_" + std::to_string(k);
        if (const auto it = node_lines_.find(node_name); it != node_lines_.end())
          name_cursor.fail("the beam's generated node '" + node_name + "' has the name of a node defined on line " +
                           std::to_string(it->second) + "; expected a beam name whose generated names are new");
        const fem::Vec3 position = Xa + (static_cast<double>(k) / n) * chord;
        const fem::NodeId id = add_node(node_name, position, name_cursor, line, fem::NodeKind::Frame);
        model_.initial_state[at(id)].orientation = q_mid;
        def.chain.push_back(id);
      }
      def.chain.push_back(b);

      // Elements.
      for (int k = 0; k < n; ++k) {
        const std::string element = n == 1 ? name : name + "_" + std::to_string(k + 1);
        claim_element_name(element, name_cursor);
        const fem::NodeId p = def.chain[static_cast<std::size_t>(k)];
        const fem::NodeId q = def.chain[static_cast<std::size_t>(k) + 1];
        const std::array<fem::Vec3, 2> ends{k == 0 ? offsets[0] : fem::Vec3::Zero(),
                                            k == n - 1 ? offsets[1] : fem::Vec3::Zero()};
        const auto& beam = model_.add_element<elements::Beam>(element, model_.nodes, model_.initial_state, p, q,
                                                              section, orientation, model_.gravity, ends);
        def.elements.push_back(&beam);
        const double L = beam.length();
        for (const fem::NodeId end : {p, q}) {
          mass_[at(end)] += section.rhoA * L / 2.0;
          turns_[at(end)] = true;
        }
      }
      beams_.emplace(name, std::move(def));
    });
  }

  // ---- rigid bodies ----

  /// `inertia`: 3 principal values, 6 values [Ixx, Iyy, Izz, Ixy, Iyz, Ixz] or a 3×3 list; the
  /// tensor must be symmetric, positive definite and physical (triangle inequality).
  fem::Mat3 read_inertia(const Cursor& c) const {
    const std::string expected =
        "an inertia tensor [kg m^2] as 3 principal values [Ixx, Iyy, Izz], 6 values [Ixx, Iyy, Izz, Ixy, Iyz, Ixz] "
        "or a 3x3 list";
    const Quantity component{"moment of inertia", "kg m^2"};
    if (!c.is_sequence()) c.fail_expected(expected);
    const auto all_scalars = [&] {
      for (std::size_t k = 0; k < c.size(); ++k)
        if (c[k].is_sequence() || c[k].is_map()) return false;
      return true;
    };
    fem::Mat3 J = fem::Mat3::Zero();
    if (c.size() == 3 && all_scalars()) {
      for (int k = 0; k < 3; ++k) J(k, k) = read_number(c[static_cast<std::size_t>(k)], parameters_, component);
    } else if (c.size() == 6 && all_scalars()) {
      double v[6];
      for (std::size_t k = 0; k < 6; ++k) v[k] = read_number(c[k], parameters_, component);
      J << v[0], v[3], v[5],  //
          v[3], v[1], v[4],   //
          v[5], v[4], v[2];
    } else if (c.size() == 3) {
      for (std::size_t r = 0; r < 3; ++r) {
        const Cursor row = c[r];
        if (!row.is_sequence() || row.size() != 3) row.fail_expected("a row of the inertia tensor, a list of 3 numbers");
        for (std::size_t k = 0; k < 3; ++k)
          J(static_cast<Eigen::Index>(r), static_cast<Eigen::Index>(k)) = read_number(row[k], parameters_, component);
      }
      const double scale = J.cwiseAbs().maxCoeff();
      for (int r = 0; r < 3; ++r)
        for (int k = r + 1; k < 3; ++k)
          if (std::abs(J(r, k) - J(k, r)) > 1e-12 * scale)
            c.fail("expected a symmetric inertia tensor; found row " + std::to_string(r) + ", column " +
                   std::to_string(k) + " = " + format_number(J(r, k)) + " but row " + std::to_string(k) +
                   ", column " + std::to_string(r) + " = " + format_number(J(k, r)));
    } else {
      c.fail_expected(expected);
    }
    const Eigen::SelfAdjointEigenSolver<fem::Mat3> eigen(J, Eigen::EigenvaluesOnly);
    const fem::Vec3 l = eigen.eigenvalues();  // ascending
    const std::string moments = format_number(l[0]) + ", " + format_number(l[1]) + ", " + format_number(l[2]);
    if (!(l[0] > 0.0))
      c.fail("expected a positive-definite inertia tensor [kg m^2]; found principal moments " + moments);
    if (l[0] + l[1] < l[2] * (1.0 - 1e-12))
      c.fail("expected principal moments of inertia that satisfy the triangle inequality (I1 + I2 >= I3, as for "
             "any body); found principal moments " + moments);
    return J;
  }

  void read_rigid_bodies() {
    const auto list = list_section("rigid_bodies", "a list of rigid bodies {name, node, mass, inertia, offset}");
    if (!list) return;
    for_each_item(*list, [&](const Cursor& item, std::size_t i) {
      item.expect_map("a rigid body {name, node, mass, inertia, offset}");
      item.check_keys(schema::rigid_body);
      const std::string name = element_name(item, "body", i);
      const fem::NodeId node = read_node(item.get("node", "the frame node carrying the body"));
      elements::RigidBodyProperties body;
      body.mass = read_number(item.get("mass", "the mass [kg]"), parameters_, Quantity{"mass", "kg", Bound::NonNegative});
      body.inertia = read_inertia(item.get("inertia", "the inertia tensor about the centre of mass [kg m^2], node axes"));
      if (const auto offset = item.find("offset"))
        body.offset = read_vec3(*offset, parameters_, Quantity{"centre-of-mass offset", "m"});
      model_.make_frame(node);
      mass_[at(node)] += body.mass;
      turns_[at(node)] = true;
      model_.add_element<elements::RigidBody>(name, model_.nodes, node, body, model_.gravity);
      body_frames_.emplace(name, fem::SensorFrame{node, body.offset, fem::Mat3::Identity()});
    });
  }

  // ---- joints ----

  /// The joint axes at t = 0 (global): z along `axis` (default global z), x along `x_axis` made
  /// normal to z (default: global x, or global y when z is along x).
  fem::Mat3 read_joint_axes(const Cursor& item) const {
    fem::Vec3 z = fem::Vec3::UnitZ();
    if (const auto a = item.find("axis")) {
      z = read_vec3(*a, parameters_, Quantity{"joint axis", ""});
      if (!(z.norm() > 0.0)) a->fail_expected("a nonzero joint axis [x, y, z]");
    }
    z.normalize();
    fem::Vec3 x = std::abs(z.x()) < 0.9 ? fem::Vec3::UnitX() : fem::Vec3::UnitY();
    if (const auto a = item.find("x_axis")) {
      x = read_vec3(*a, parameters_, Quantity{"joint x axis", ""});
      if (!((x - x.dot(z) * z).norm() > 1e-9 * x.norm()))
        a->fail("expected an x axis not parallel to the joint axis " + format_vector(z) + "; found " + format_vector(x));
    }
    x = (x - x.dot(z) * z).normalized();
    fem::Mat3 J;
    J << x, z.cross(x), z;
    return J;
  }

  /// `laws: {rz: {prescribed: "2*t"}, x: {stiffness: 1e3, damping: 5}}` on top of the kind's switches.
  void read_joint_laws(const Cursor& c, std::string_view kind, elements::JointDefinition& d) const {
    c.expect_map("the laws of the joint's components {x, y, z, rx, ry, rz: {prescribed, rate, stiffness, damping, rest, force}}");
    c.check_keys(schema::joint_components);
    for (std::size_t k = 0; k < 6; ++k) {
      const auto law_cursor = c.find(schema::joint_components[k]);
      if (!law_cursor) continue;
      const Cursor& lc = *law_cursor;
      lc.expect_map("a component law {prescribed, rate, stiffness, damping, rest, force}");
      lc.check_keys(schema::joint_law);
      const bool rotation = k >= 3;
      const std::string unit = rotation ? "rad" : "m";
      elements::JointLaw& law = d.laws[k];
      const auto prescribed = lc.find("prescribed"), rate = lc.find("rate");
      const std::array<std::string_view, 4> force_keys{"stiffness", "damping", "rest", "force"};
      for (const std::string_view key : force_keys)
        if (const auto f = lc.find(key); f && (prescribed || rate))
          f->fail("expected either a prescribed motion (prescribed, rate) or a force law (stiffness, damping, rest, "
                  "force) for one component; found both");
      if (prescribed && rate) rate->fail("expected either prescribed or rate for one component; found both");
      if (prescribed || rate) {
        law.kind = prescribed ? elements::JointLawKind::Prescribed : elements::JointLawKind::PrescribedRate;
        law.function = read_time_function(prescribed ? *prescribed : *rate, parameters_,
                                          Quantity{prescribed ? "prescribed coordinate" : "prescribed rate",
                                                   prescribed ? unit : unit + "/s"});
        continue;
      }
      if (law.kind != elements::JointLawKind::Free)
        lc.fail("component " + std::string(schema::joint_components[k]) + " is held by a " + std::string(kind) +
                " joint; expected a force law (stiffness, damping, rest, force) on a free component only, or a "
                "prescribed motion (prescribed, rate)");
      const std::string force_unit = rotation ? "N m" : "N";
      if (const auto f = lc.find("stiffness"))
        law.stiffness = read_number(*f, parameters_, Quantity{"stiffness", force_unit + "/" + unit, Bound::NonNegative});
      if (const auto f = lc.find("damping"))
        law.damping = read_number(*f, parameters_, Quantity{"damping", force_unit + " s/" + unit, Bound::NonNegative});
      if (const auto f = lc.find("rest")) law.rest = read_number(*f, parameters_, Quantity{"rest value", unit});
      if (const auto f = lc.find("force"))
        law.function = read_time_function(*f, parameters_, Quantity{rotation ? "moment" : "force", force_unit});
      if (law.stiffness > 0.0 || law.damping > 0.0) law.kind = elements::JointLawKind::Spring;
    }
  }

  void read_joints() {
    const auto list = list_section("joints", "a list of joints {name, kind, nodes or node, at, axis}");
    if (!list) return;
    for_each_item(*list, [&](const Cursor& item, std::size_t i) {
      item.expect_map("a joint {name, kind, nodes or node, at, axis, laws}");
      item.check_keys(schema::joint);
      const std::string name = element_name(item, "joint", i);
      const Cursor kind_cursor = item.get("kind", "the joint kind: " + join(elements::joint_kinds));
      const std::string_view kind = elements::joint_kinds[read_choice(kind_cursor, elements::joint_kinds, "a joint kind")];
      elements::JointDefinition def = elements::joint_definition(kind);

      // Frames: two nodes, or one node and the ground.
      const auto nodes = item.find("nodes");
      const auto single = item.find("node");
      std::optional<fem::NodeId> a;
      fem::NodeId b;
      if (nodes && single) single->fail("expected either nodes: [a, b] or node: b (joined to the ground); found both");
      if (nodes) {
        if (!nodes->is_sequence() || nodes->size() != 2) nodes->fail_expected("the joint's two node names [a, b]");
        a = read_node((*nodes)[0]);
        b = read_node((*nodes)[1]);
        if (*a == b) (*nodes)[1].fail("expected two different nodes; found '" + node_names_[at(b)] + "' twice");
      } else {
        b = read_node(item.get("node", "the joined node (joined to the ground), or nodes: [a, b]"));
      }
      const fem::Vec3 point = [&] {
        if (const auto p = item.find("at")) return read_vec3(*p, parameters_, Quantity{"joint point", "m"});
        return model_.nodes[at(b)].reference_position;
      }();
      const fem::Mat3 axes = read_joint_axes(item);
      if (const auto laws = item.find("laws")) read_joint_laws(*laws, kind, def);
      if (const auto t = item.find("active_from")) def.active_from = read_number(*t, parameters_, Quantity{"time", "s"});
      if (const auto t = item.find("active_until")) def.active_until = read_number(*t, parameters_, Quantity{"time", "s"});

      add_joint(name, std::move(def), a, b, point, axes, item);
    });
  }

  /// Adds a joint whose frames A (on node `a`, or the ground) and B (on node `b`) coincide at t = 0,
  /// at `point` with the global `axes`; `item` (the joint's mapping) is where messages point.
  void add_joint(const std::string& name, elements::JointDefinition def, std::optional<fem::NodeId> a, fem::NodeId b,
                 const fem::Vec3& point, const fem::Mat3& axes, const Cursor& item) {
    auto frame_on = [&](fem::NodeId n) {
      model_.make_frame(n);
      turns_[at(n)] = true;
      const fem::NodeState& s = model_.initial_state[at(n)];
      const fem::Mat3 R = s.orientation.toRotationMatrix();
      elements::JointFrame f;
      f.node = n;
      f.offset = R.transpose() * (point - s.position);
      f.axes = R.transpose() * axes;
      return f;
    };
    elements::JointFrame fa;
    if (a) {
      fa = frame_on(*a);
    } else {
      fa.offset = point;
      fa.axes = axes;
    }
    const elements::JointFrame fb = frame_on(b);
    const double length = std::max({a ? (model_.nodes[at(b)].reference_position - model_.nodes[at(*a)].reference_position).norm() : 0.0,
                                    fa.node ? fa.offset.norm() : 0.0, fb.offset.norm(), 1e-3});
    auto& joint = model_.add_element<elements::Joint>(name, model_.nodes, model_.initial_state, fa, fb,
                                                      std::move(def), length);
    joints_.emplace_back(&joint, item);
    joint_frames_.emplace(name, fem::SensorFrame{fa.node, fa.offset, fa.axes});
    // A prescribed law must start where the joint starts (its coordinates are 0 at t = 0).
    for (std::size_t k = 0; k < 6; ++k) {
      const elements::JointLaw& law = joint.definition().laws[k];
      if (law.kind != elements::JointLawKind::Prescribed || !law.function) continue;
      const double g0 = (*law.function)(0.0);
      if (std::abs(g0) > 1e-12 * std::max(1.0, length))
        item.get("laws", "").fail("joint '" + name + "': component " + std::string(schema::joint_components[k]) +
                                  " starts at 0 (the joint is assembled at t = 0) but its prescribed law gives " +
                                  format_number(g0) + " at t = 0; expected a law that starts at 0");
    }
  }

  // ---- chains ----

  /// The joint of a chain, `{kind, axis, x_axis, laws}`: its definition and global axes.
  std::pair<elements::JointDefinition, fem::Mat3> read_chain_joint(const Cursor& c) const {
    c.expect_map("a chain joint {kind, axis, x_axis, laws}");
    c.check_keys(schema::chain_joint);
    const Cursor kind_cursor = c.get("kind", "the joint kind: " + join(elements::joint_kinds));
    const std::string_view kind = elements::joint_kinds[read_choice(kind_cursor, elements::joint_kinds, "a joint kind")];
    elements::JointDefinition def = elements::joint_definition(kind);
    const fem::Mat3 axes = read_joint_axes(c);
    if (const auto laws = c.find("laws")) read_joint_laws(*laws, kind, def);
    return {std::move(def), axes};
  }

  /// `chains`: n rigid bodies in series, each between two consecutive joint points (given, or
  /// along a line), jointed at every shared point and optionally to the ground at the first one.
  /// Generates nodes and bodies `<name>_<k>` (k = 1..n, at the bodies' centres, x axis along the
  /// body) and joints `<name>_joint_<k>` at the first end of body k.
  void read_chains() {
    const auto list = list_section("chains", "a list of chains of rigid bodies {name, bodies, from, direction, "
                                             "length or points, mass, inertia, joint, ground}");
    if (!list) return;
    for_each_item(*list, [&](const Cursor& item, std::size_t) {
      item.expect_map("a chain {name, bodies, from, direction, length or points, mass, inertia, joint, ground}");
      item.check_keys(schema::chain);
      const Cursor name_cursor = item.get("name", "the chain's name; its nodes, bodies and joints are named after it");
      const std::string name = name_at(name_cursor, "a chain name");
      const int line = name_cursor.node().Mark().line + 1;

      // The joint points: given, or n + 1 along a line.
      std::vector<fem::Vec3> points;
      std::vector<Cursor> point_cursors;
      const auto given = item.find("points");
      const auto from = item.find("from");
      const auto direction = item.find("direction");
      const auto length = item.find("length");
      const auto bodies = item.find("bodies");
      if (given) {
        if (from || direction || length)
          (from ? *from : direction ? *direction : *length)
              .fail("expected either points or from, direction and length; found both");
        given->expect_sequence("the chain's joint points, a list of points [[x, y, z], ...]");
        for_each_item(*given, [&](const Cursor& point, std::size_t) {
          point_cursors.push_back(point);
          points.push_back(read_vec3(point, parameters_, Quantity{"chain point", "m"}));
        });
        if (points.size() < 2)
          given->fail("expected at least 2 chain points (the ends of one body); found " + std::to_string(points.size()));
        if (bodies) {
          const int n = read_integer(*bodies, parameters_, "bodies in the chain", 1);
          if (static_cast<std::size_t>(n) + 1 != points.size())
            bodies->fail("expected " + std::to_string(points.size() - 1) + " bodies (one between each two of the " +
                         std::to_string(points.size()) + " points); found " + std::to_string(n));
        }
      } else {
        if (!bodies && !from) static_cast<void>(item.get("points", "the joint points, or bodies, from, direction and length"));
        const int n = read_integer(item.get("bodies", "the number of bodies"), parameters_, "bodies in the chain", 1);
        const fem::Vec3 start = read_vec3(item.get("from", "the chain's first end [m]"), parameters_, Quantity{"point", "m"});
        const Cursor direction_cursor = item.get("direction", "the direction of the chain [x, y, z]");
        const fem::Vec3 d = read_vec3(direction_cursor, parameters_, Quantity{"direction", ""});
        if (!(d.norm() > 0.0)) direction_cursor.fail("expected a nonzero direction vector; found " + format_vector(d));
        const double L = read_number(item.get("length", "the length of each body [m]"), parameters_,
                                     Quantity{"body length", "m", Bound::Positive});
        for (int k = 0; k <= n; ++k) {
          points.push_back(start + (k * L) * d.normalized());
          point_cursors.push_back(direction_cursor);
        }
      }
      for (std::size_t k = 1; k < points.size(); ++k)
        if (!((points[k] - points[k - 1]).norm() > 0.0))
          point_cursors[k].fail("expected distinct consecutive chain points (bodies of nonzero length); found points " +
                                std::to_string(k - 1) + " and " + std::to_string(k) + " both at " + format_vector(points[k]));

      elements::RigidBodyProperties body;
      body.mass = read_number(item.get("mass", "the mass of each body [kg]"), parameters_,
                              Quantity{"mass", "kg", Bound::Positive});
      body.inertia = read_inertia(
          item.get("inertia", "the inertia of each body about its centre [kg m^2], body axes (x along the body)"));
      const Cursor joint_cursor = item.get("joint", "the joint between consecutive bodies {kind, axis, x_axis, laws}");
      const auto ground = item.find("ground");

      // Bodies at the centres. The nodes keep the global axes at t = 0 and the inertia is turned
      // into them (the body axes, x along the body, become the bodies' sensor frames): a chain
      // reads exactly as the same bodies written by hand with global inertia tensors.
      std::vector<fem::NodeId> ids;
      const int n = static_cast<int>(points.size()) - 1;
      for (int k = 1; k <= n; ++k) {
        const std::string body_name = name + "_" + std::to_string(k);
        if (const auto it = node_lines_.find(body_name); it != node_lines_.end())
          name_cursor.fail("the chain's generated node '" + body_name + "' has the name of a node defined on line " +
                           std::to_string(it->second) + "; expected a chain name whose generated names are new");
        const fem::Vec3& p = points[static_cast<std::size_t>(k - 1)];
        const fem::Vec3& q = points[static_cast<std::size_t>(k)];
        const fem::NodeId id = add_node(body_name, (p + q) / 2.0, name_cursor, line, fem::NodeKind::Frame);
        const fem::Mat3 axes = fem::Quaternion::FromTwoVectors(fem::Vec3::UnitX(), q - p).toRotationMatrix();
        elements::RigidBodyProperties turned = body;
        const fem::Mat3 J = axes * body.inertia * axes.transpose();
        turned.inertia = 0.5 * (J + J.transpose());
        claim_element_name(body_name, name_cursor);
        mass_[at(id)] += body.mass;
        turns_[at(id)] = true;
        model_.add_element<elements::RigidBody>(body_name, model_.nodes, id, turned, model_.gravity);
        body_frames_.emplace(body_name, fem::SensorFrame{id, fem::Vec3::Zero(), axes});
        ids.push_back(id);
      }

      // Joints at the first end of each body: to the body before it, to the ground for body 1.
      for (int k = 1; k <= n; ++k) {
        if (k == 1 && !ground) continue;
        const Cursor& spec = k == 1 ? *ground : joint_cursor;
        auto [def, axes] = read_chain_joint(spec);
        const std::string joint_name = name + "_joint_" + std::to_string(k);
        claim_element_name(joint_name, name_cursor);
        const std::optional<fem::NodeId> previous =
            k == 1 ? std::nullopt : std::optional<fem::NodeId>(ids[static_cast<std::size_t>(k - 2)]);
        add_joint(joint_name, std::move(def), previous, ids[static_cast<std::size_t>(k - 1)],
                  points[static_cast<std::size_t>(k - 1)], axes, spec);
      }
    });
  }

  // ---- sets ----

  /// `sets`: named lists of nodes or of elements. Node sets are read once every node exists
  /// (before supports), element sets once every element but the loads exists (before loads).
  void read_sets(bool element_sets) {
    const auto list = list_section("sets", "a list of named sets {name, nodes or elements}");
    if (!list) return;
    for_each_item(*list, [&](const Cursor& item, std::size_t) {
      item.expect_map("a set {name, nodes or elements}");
      item.check_keys(schema::set);
      const auto nodes = item.find("nodes");
      const auto elements = item.find("elements");
      if (nodes && elements) elements->fail("expected either nodes or elements in one set; found both");
      if (!nodes && !elements) static_cast<void>(item.get("nodes", "the members: nodes: [...] or elements: [...]"));
      if (element_sets != elements.has_value()) return;
      const Cursor name_cursor = item.get("name", "the set's name");
      fem::NamedSet set;
      set.name = name_at(name_cursor, "a set name");
      if (const auto it = set_lines_.find(set.name); it != set_lines_.end())
        name_cursor.fail("duplicate set name '" + set.name + "' (first defined on line " + std::to_string(it->second) +
                         "); expected a new name");
      const Cursor members = nodes ? *nodes : *elements;
      members.expect_sequence(nodes ? "a list of node names" : "a list of element names");
      std::map<std::string, int> member_lines;
      for_each_item(members, [&](const Cursor& member, std::size_t) {
        const std::string member_name = nodes ? node_names_[at(read_node(member))] : read_element(member).name();
        if (const auto it = member_lines.find(member_name); it != member_lines.end())
          member.fail("duplicate member '" + member_name + "' of set '" + set.name + "' (first given on line " +
                      std::to_string(it->second) + "); expected each member once");
        member_lines.emplace(member_name, member.node().Mark().line + 1);
        if (nodes) {
          set.nodes.push_back(read_node(member));
        } else {
          set.elements.push_back(&read_element(member));
        }
      });
      if (member_lines.empty()) members.fail("expected a set with at least one member; found none");
      set_lines_.emplace(set.name, name_cursor.node().Mark().line + 1);
      set_index_.emplace(set.name, model_.sets.size());
      model_.sets.push_back(std::move(set));
    });
  }

  /// A reference to a set; `kind` "nodes" or "elements" requires that kind, "" takes either.
  const fem::NamedSet& read_set(const Cursor& c, std::string_view kind) const {
    const std::string name = name_at(c, "a set name");
    const auto it = set_index_.find(name);
    if (it == set_index_.end()) {
      std::vector<std::string> names;
      for (const fem::NamedSet& s : model_.sets) names.push_back(s.name);
      const std::string none = "the model has no sets" + std::string(kind.empty() ? "" : " of ") + std::string(kind);
      c.fail("unknown set '" + name + "'" + unknown_name_hint(name, names, {.none = none}));
    }
    const fem::NamedSet& set = model_.sets[it->second];
    const std::string_view has = set.nodes.empty() ? "elements" : "nodes";
    if (!kind.empty() && kind != has)
      c.fail("set '" + name + "' is a set of " + std::string(has) + "; expected a set of " + std::string(kind));
    return set;
  }

  /// The nodes an item applies to: its `node`, or every node of its `set`.
  std::vector<fem::NodeId> target_nodes(const Cursor& item, std::string_view what) const {
    const auto node = item.find("node");
    const auto set = item.find("set");
    if (node && set) set->fail("expected either a node or a set in one " + std::string(what) + "; found both");
    if (set) return read_set(*set, "nodes").nodes;
    return {read_node(item.get("node", "the node (or a set of nodes)"))};
  }

  // ---- loads ----

  std::array<fem::Expression, 3> read_load_vector(const Cursor& c, bool moment) const {
    const std::string what = moment ? "a moment [N m]" : "a force [N]";
    if (!c.is_sequence() || c.size() != 3)
      c.fail_expected(what + " as a list of 3 numbers or expressions of t [x, y, z]");
    const Quantity component{moment ? "moment component" : "force component", moment ? "N m" : "N"};
    return {read_time_function(c[0], parameters_, component), read_time_function(c[1], parameters_, component),
            read_time_function(c[2], parameters_, component)};
  }

  void read_loads() {
    const auto list = list_section("loads", "a list of nodal loads {node, force or moment}");
    if (!list) return;
    for_each_item(*list, [&](const Cursor& item, std::size_t i) {
      item.expect_map("a nodal load {name, node, force or moment, follower}");
      item.check_keys(schema::load);
      const std::vector<fem::NodeId> nodes = target_nodes(item, "load");
      const std::vector<std::string> names = element_names(item, "load", i, nodes);
      const auto force = item.find("force");
      const auto moment = item.find("moment");
      if (force && moment) moment->fail("expected either a force or a moment in one load; found both");
      const Cursor values = force    ? *force
                            : moment ? *moment
                                     : item.get("force", "the force [N] as [x, y, z], functions of t (or a moment [N m])");
      const bool is_moment = moment.has_value();
      bool follower = false;
      if (const auto f = item.find("follower")) follower = read_bool(*f, "a boolean");
      bool semitangential = false;
      if (const auto f = item.find("semitangential")) {
        semitangential = read_bool(*f, "a boolean");
        if (semitangential && (!is_moment || follower))
          f->fail(std::string("expected semitangential only on a moment that is not a follower; found it on ") +
                  (is_moment ? "a follower moment" : "a force"));
      }
      const elements::LoadAxes axes = semitangential ? elements::LoadAxes::Semitangential
                                      : follower     ? elements::LoadAxes::Follower
                                                     : elements::LoadAxes::Global;
      for (std::size_t k = 0; k < nodes.size(); ++k) {
        std::array<fem::Expression, 3> g = read_load_vector(values, is_moment);
        if (is_moment || follower) model_.make_frame(nodes[k]);
        model_.add_element<elements::NodalLoad>(names[k], model_.nodes, nodes[k], std::move(g),
                                                is_moment ? elements::LoadKind::Moment : elements::LoadKind::Force,
                                                axes, 1.0, model_.initial_state[at(nodes[k])].orientation);
      }
    });
  }

  /// Distributed dead forces per unit length along every element of a beam definition, lumped:
  /// q L/2 on each end of each element.
  void read_beam_loads() {
    const auto list = list_section("beam_loads", "a list of distributed beam loads {name, beam, force}");
    if (!list) return;
    for_each_item(*list, [&](const Cursor& item, std::size_t i) {
      item.expect_map("a distributed beam load {name, beam, force}");
      item.check_keys(schema::beam_load);
      const auto name_cursor = item.find("name");
      const std::string name =
          name_cursor ? name_at(*name_cursor, "a load name") : "beam_load_" + std::to_string(i);
      const Cursor beam_cursor = item.get("beam", "the name of a beam definition");
      const std::string beam = name_at(beam_cursor, "a beam name");
      const auto it = beams_.find(beam);
      if (it == beams_.end()) {
        std::vector<std::string> names;
        for (const auto& entry : beams_) names.push_back(entry.first);
        beam_cursor.fail("unknown beam '" + beam + "'" +
                         unknown_name_hint(beam, names, {.none = "the model has no beams"}));
      }
      const Cursor force = item.get("force", "the force per unit length [N/m] as [x, y, z], functions of t");
      if (!force.is_sequence() || force.size() != 3)
        force.fail_expected("a force per length [N/m] as a list of 3 numbers or expressions of t [x, y, z]");
      const Quantity component{"force per length component", "N/m"};
      std::array<std::string, 3> texts;
      for (std::size_t k = 0; k < 3; ++k) texts[k] = read_time_function(force[k], parameters_, component).text();
      const BeamDefinition& def = it->second;
      for (std::size_t e = 0; e < def.elements.size(); ++e) {
        const double half = def.elements[e]->length() / 2.0;
        for (const auto& [end, suffix] : {std::pair{def.chain[e], "_a"}, std::pair{def.chain[e + 1], "_b"}}) {
          const std::string element = name + "_" + def.elements[e]->name() + suffix;
          claim_element_name(element, name_cursor ? *name_cursor : item);
          std::array<fem::Expression, 3> g{fem::Expression(texts[0], parameters_, true),
                                           fem::Expression(texts[1], parameters_, true),
                                           fem::Expression(texts[2], parameters_, true)};
          model_.add_element<elements::NodalLoad>(element, model_.nodes, end, std::move(g), elements::LoadKind::Force,
                                                  elements::LoadAxes::Global, half);
        }
      }
    });
  }

  void read_analysis() {
    const Cursor c = root_.get("analysis", "the analysis settings: type, dt, t_end, ...");
    c.expect_map("analysis settings {type, integrator, dt, t_end, ...}");
    c.check_keys(schema::analysis);
    fem::AnalysisSettings& a = model_.analysis;
    if (const auto type = c.find("type"))
      a.type = static_cast<fem::AnalysisType>(read_choice(*type, analysis_types, "an analysis type"));
    const bool linearized = a.type == fem::AnalysisType::Eigen || a.type == fem::AnalysisType::Buckling;
    if (linearized) read_linearized_settings(c);
    if (const auto integrator = c.find("integrator"))  // validated, but ignored by static analyses
      a.scheme = read_choice(*integrator, integrators, "an integrator") == 0 ? fem::TimeScheme::Midpoint
                                                                               : fem::TimeScheme::Trapezoidal;
    // Eigen and buckling analyses have no time steps (dt and t_end are optional there).
    if (const auto dt = linearized ? c.find("dt") : std::optional<Cursor>(c.get("dt", "the time step [s]")))
      a.dt = read_number(*dt, parameters_, Quantity{"time step", "s", Bound::Positive});
    if (const auto t_end = linearized ? c.find("t_end") : std::optional<Cursor>(c.get("t_end", "the end time [s]")))
      a.t_end = read_number(*t_end, parameters_, Quantity{"end time", "s", Bound::Positive});
    if (const auto n = c.find("output_every")) a.output_every = read_integer(*n, parameters_, "steps between outputs", 1);
    if (const auto dt_min = c.find("dt_min")) {
      a.dt_min = read_number(*dt_min, parameters_, Quantity{"minimum time step", "s", Bound::NonNegative});
      if (a.dt_min > a.dt)
        dt_min->fail("expected a minimum time step [s] no larger than dt = " + format_number(a.dt) + "; found " +
                     dt_min->found());
    }
    if (const auto n = c.find("max_newton_iterations"))
      a.max_newton_iterations = read_integer(*n, parameters_, "Newton iterations", 1);
    if (const auto tol = c.find("newton_tolerance"))
      a.newton_tolerance = read_number(*tol, parameters_, Quantity{"Newton tolerance", "", Bound::Positive});
    if (const auto solver = c.find("linear_solver"))
      a.linear_solver = std::string(linear_solvers[read_choice(*solver, linear_solvers, "a linear solver")]);
    if (const auto eq = c.find("initial_equilibrium")) {
      a.initial_equilibrium = read_bool(*eq, "true or false");
      if (a.initial_equilibrium && a.type == fem::AnalysisType::Static)
        eq->fail("expected initial_equilibrium only in a dynamic analysis (a static analysis is an equilibrium "
                 "already); found true");
    }
  }

  void read_linearized_settings(const Cursor& c) {
    fem::LinearizedSettings& l = model_.analysis.linearized;
    const bool buckling = model_.analysis.type == fem::AnalysisType::Buckling;
    for (const char* key : {"load_factor_max", "increments", "preload"})
      if (const auto k = c.find(key); k && !buckling) k->fail("expected " + std::string(key) + " only in a buckling analysis");
    for (const char* key : {"about", "turning_frame", "shift", "export_matrices"})
      if (const auto k = c.find(key); k && buckling) k->fail("expected " + std::string(key) + " only in an eigen analysis");
    if (const auto n = c.find("modes")) l.modes = read_integer(*n, parameters_, "modes wanted", 1);
    if (const auto about = c.find("about")) {
      static constexpr std::array<std::string_view, 2> points{"equilibrium", "configuration"};
      l.about_equilibrium = read_choice(*about, points, "what to linearize about") == 0;
    }
    if (const auto f = c.find("turning_frame")) {
      f->expect_map("a steady rotation {angular_velocity, centre}");
      f->check_keys(schema::turning_frame);
      l.frame_angular_velocity = read_vec3(f->get("angular_velocity", "the frame's angular velocity [rad/s]"),
                                           parameters_, Quantity{"angular velocity", "rad/s"});
      if (const auto p = f->find("centre")) l.frame_centre = read_vec3(*p, parameters_, Quantity{"position", "m"});
    }
    if (const auto s = c.find("shift")) {
      // Given as a frequency: the shift-and-invert target is its ω².
      const double f = read_number(*s, parameters_, Quantity{"frequency", "Hz", Bound::Positive});
      l.shift = std::pow(2.0 * std::numbers::pi * f, 2);
    }
    if (const auto e = c.find("export_matrices")) l.export_matrices = read_bool(*e, "true or false");
    if (const auto n = c.find("mode_frames")) l.mode_frames = read_integer(*n, parameters_, "frames per mode", 2);
    if (const auto m = c.find("mode_amplitude"))
      l.mode_amplitude = read_number(*m, parameters_, Quantity{"mode amplitude", "m", Bound::Positive});
    if (const auto m = c.find("load_factor_max"))
      l.load_factor_max = read_number(*m, parameters_, Quantity{"load factor", "", Bound::Positive});
    if (const auto n = c.find("increments")) l.increments = read_integer(*n, parameters_, "load increments", 1);
    if (const auto p = c.find("preload")) {
      l.preload = read_number(*p, parameters_, Quantity{"load factor", "", Bound::NonNegative});
      if (l.preload >= l.load_factor_max)
        p->fail("expected a preload below load_factor_max = " + format_number(l.load_factor_max) + "; found " + p->found());
    }
  }

  void read_output() {
    const auto c = root_.find("output");
    if (!c) return;
    c->expect_map("output options {vtk_every, dt, checkpoint_every}");
    c->check_keys(schema::output);
    fem::AnalysisSettings& a = model_.analysis;
    if (const auto n = c->find("checkpoint_every"))
      a.checkpoint_every = read_integer(*n, parameters_, "steps between checkpoints", 0);
    if (const auto n = c->find("vtk_every")) a.vtk_every = read_integer(*n, parameters_, "steps between VTK frames", 1);
    if (const auto dt = c->find("dt")) {
      if (c->find("vtk_every"))
        dt->fail("expected either vtk_every (VTK frames by steps) or dt (by time), not both; found both");
      a.vtk_dt = read_number(*dt, parameters_, Quantity{"time between VTK frames", "s", Bound::Positive});
    }
  }

  // ---- sensors ----

  const fem::Element& read_element(const Cursor& c) const {
    const std::string name = name_at(c, "an element name");
    std::vector<std::string> names;
    for (const auto& e : model_.elements) {
      if (e->name() == name) return *e;
      names.push_back(e->name());
    }
    c.fail("unknown element '" + name + "'" +
           unknown_name_hint(name, names,
                             {.none = "the model has no elements", .list_at_most = 12, .counted = "elements are defined"}));
  }

  /// The fields an element writes in `cell_values`, found by asking it once at t = 0.
  std::vector<std::string> fields_of(const fem::Element& e) const {
    struct Collector final : fem::CellValueSink {
      std::vector<std::string> names;
      void set(std::string_view field, double) override {
        if (std::find(names.begin(), names.end(), field) == names.end()) names.emplace_back(field);
      }
    } collector;
    e.cell_values(model_.initial_state, collector);
    return collector.names;
  }

  /// An element sensor on `element`: the field named by `quantity`; `where` is the element's place.
  void read_element_sensor(const Cursor& item, const Cursor& where, const fem::Element& element, fem::Sensor& s) const {
    if (const auto component = item.find("component"))
      component->fail("expected no component in an element sensor (an element field is one number); found " +
                      component->found());
    if (const auto frame = item.find("frame"))
      frame->fail("expected no frame in an element sensor (element fields are in element axes); found " +
                  frame->found());
    const std::vector<std::string> fields = fields_of(element);
    if (fields.empty())
      where.fail("element '" + element.name() + "' (" + std::string(element.kind()) +
                 ") writes no output fields; expected an element with fields, such as a truss or a beam");
    const std::vector<std::string_view> choices(fields.begin(), fields.end());
    const Cursor quantity = item.get("quantity", "the element field: " + join(choices));
    s.quantity = fem::SensorQuantity::ElementField;
    s.field = fields[read_choice(quantity, choices, "a field of " + std::string(element.kind()) + " '" +
                                                         element.name() + "'")];
    s.element = &element;
  }

  /// A frame looked up by name in `frames` (rigid bodies or joints); unknown: a suggestion.
  static fem::SensorFrame find_frame(const Cursor& c, const std::string& name,
                                     const std::map<std::string, fem::SensorFrame>& frames, std::string_view noun) {
    if (const auto it = frames.find(name); it != frames.end()) return it->second;
    std::vector<std::string> names;
    for (const auto& entry : frames) names.push_back(entry.first);
    const DefinedNamesWording wording{
        .none = "the model has no " + std::string(noun) + "s", .list_at_most = 12, .counted = "are defined"};
    c.fail("unknown " + std::string(noun) + " '" + name + "'" + unknown_name_hint(name, names, wording));
  }

  /// `frame: <node>`, or one of `{node: n}`, `{body: b}` (a rigid body: origin at its centre of
  /// mass, the node axes) and `{joint: j}` (the joint's frame A: its point and axes).
  fem::SensorFrame read_sensor_frame(const Cursor& c) const {
    if (c.is_scalar()) return fem::SensorFrame{read_node(c), fem::Vec3::Zero(), fem::Mat3::Identity()};
    c.expect_map("a frame: a node name, or one of {node: name}, {body: name}, {joint: name}");
    c.check_keys(schema::sensor_frame);
    if (c.size() != 1)
      c.fail("expected exactly one of node, body or joint in a frame; found " + std::to_string(c.size()));
    if (const auto n = c.find("node")) return fem::SensorFrame{read_node(*n), fem::Vec3::Zero(), fem::Mat3::Identity()};
    if (const auto b = c.find("body")) return find_frame(*b, name_at(*b, "a rigid body name"), body_frames_, "rigid body");
    const Cursor j = *c.find("joint");
    return find_frame(j, name_at(j, "a joint name"), joint_frames_, "joint");
  }

  /// A node sensor on `node` (`where`: the place that named it).
  void read_node_sensor(const Cursor& item, const Cursor& where, fem::NodeId node, fem::Sensor& s) const {
    s.node = node;
    s.quantity = static_cast<fem::SensorQuantity>(
        read_choice(item.get("quantity", join(sensor_quantities)), sensor_quantities, "a quantity"));
    const bool rotational = s.quantity == fem::SensorQuantity::Rotation ||
                            s.quantity == fem::SensorQuantity::Orientation ||
                            s.quantity == fem::SensorQuantity::AngularVelocity;
    if (rotational && model_.nodes[at(node)].kind != fem::NodeKind::Frame)
      where.fail("node '" + node_names_[at(node)] + "' has no orientation (a point node); expected a frame " +
                 "node for quantity '" + std::string(sensor_quantities[static_cast<std::size_t>(s.quantity)]) +
                 "' (a node of a beam or rigid body, or one given an orientation)");
    if (s.quantity == fem::SensorQuantity::Orientation) {
      s.component = static_cast<int>(
          read_choice(item.get("component", "x, y, z or w"), quaternion_components, "a quaternion component"));
    } else {
      s.component = static_cast<int>(read_choice(item.get("component", "x, y or z"), axis_names, "a component"));
    }
    if (const auto frame = item.find("frame")) s.frame = read_sensor_frame(*frame);
  }

  void read_sensors() {
    const auto list = list_section("sensors", "a list of sensors {name, node, quantity, component}");
    if (!list) return;
    std::map<std::string, int> first_line;
    // Sensor names are unique: they head the columns of sensors.csv.
    const auto claim = [&](const std::string& name, const Cursor& where) {
      if (const auto it = first_line.find(name); it != first_line.end())
        where.fail("duplicate sensor name '" + name + "' (first defined on line " + std::to_string(it->second) +
                   "); expected a new name");
      first_line.emplace(name, where.node().Mark().line + 1);
    };
    for_each_item(*list, [&](const Cursor& item, std::size_t) {
      item.expect_map("a sensor {name, node, element or set, quantity, component, frame}");
      item.check_keys(schema::sensor);
      const Cursor name_cursor = item.get("name", "the sensor's name, a column of sensors.csv");
      const std::string name = name_at(name_cursor, "a sensor name");
      if (name.find_first_of(",\"\n\r") != std::string::npos)
        name_cursor.fail_expected("a sensor name without commas, quotes or line breaks (it heads a CSV column)");
      double scale = 1.0;
      if (const auto c = item.find("scale"))
        scale = read_number(*c, parameters_, Quantity{"sensor scale (a factor on the value)", ""});
      const auto node = item.find("node");
      const auto element = item.find("element");
      const auto set = item.find("set");
      if (node && element) node->fail("expected either a node or an element in one sensor; found both");
      if (set && (node || element))
        set->fail("expected either a set or a single node or element in one sensor; found both");
      const auto add = [&](const std::string& sensor_name, auto&& fill) {
        fem::Sensor s;
        s.name = sensor_name;
        s.scale = scale;
        claim(s.name, name_cursor);
        fill(s);
        model_.sensors.push_back(std::move(s));
      };
      if (set) {  // one sensor per member, named <sensor>_<member>
        const fem::NamedSet& members = read_set(*set, "");
        for (const fem::NodeId id : members.nodes)
          add(name + "_" + node_names_[at(id)], [&](fem::Sensor& s) { read_node_sensor(item, *set, id, s); });
        for (const fem::Element* e : members.elements)
          add(name + "_" + e->name(), [&](fem::Sensor& s) { read_element_sensor(item, *set, *e, s); });
      } else if (element) {
        add(name, [&](fem::Sensor& s) { read_element_sensor(item, *element, read_element(*element), s); });
      } else {
        const Cursor node_cursor = item.get("node", "the node measured (or an element, or a set)");
        add(name, [&](fem::Sensor& s) { read_node_sensor(item, node_cursor, read_node(node_cursor), s); });
      }
    });
  }

  // ---- final checks ----

  /// Dynamic analyses: every free translation needs mass, every free rotation rotary inertia or a
  /// beam (otherwise the Newton matrix is singular).
  void check_free_nodes_have_inertia() const {
    for (std::size_t i = 0; i < model_.nodes.size(); ++i) {
      if (!(mass_[i] > 0.0)) {
        const std::array<bool, 3> free{!fixed_[i][0], !fixed_[i][1], !fixed_[i][2]};
        if (free[0] || free[1] || free[2])
          node_cursors_[i].fail("node '" + node_names_[i] + "' is free in " + list_components(free, axis_names) +
                                " but has no mass; add a mass or a support");
      }
      if (model_.nodes[i].kind == fem::NodeKind::Frame && !turns_[i]) {
        const std::array<bool, 3> free{!fixed_[i][3], !fixed_[i][4], !fixed_[i][5]};
        if (free[0] || free[1] || free[2])
          node_cursors_[i].fail("node '" + node_names_[i] + "' is free to rotate about " +
                                list_components(free, axis_names) +
                                " but has no rotary inertia and no beam; add a rigid body or a support (dofs " +
                                list_components(free, std::span<const std::string_view>(dof_names).subspan(3)) + ")");
      }
    }
  }

  Cursor root_;
  fem::Model model_;
  fem::ParameterTable parameters_;
  // Per node, in model order:
  std::vector<std::string> node_names_;
  std::vector<Cursor> node_cursors_;          ///< each node's `name` value (its beam's, if generated), for messages
  std::vector<bool> has_velocity_;            ///< node has its own `velocity`
  std::vector<bool> has_angular_velocity_;    ///< node has its own `angular_velocity`
  std::vector<std::array<bool, 6>> fixed_;    ///< x, y, z, rx, ry, rz removed by supports
  std::vector<std::pair<elements::Joint*, Cursor>> joints_;  ///< with where each was defined
  std::vector<double> mass_;                  ///< total translational mass per node [kg]
  std::vector<bool> turns_;                   ///< carries a rigid body or a beam (rotations are not singular)
  std::map<std::string, int> node_lines_;     ///< node name -> line of definition
  std::map<std::string, int> element_lines_;  ///< element name -> line of first use
  std::map<std::string, BeamDefinition> beams_;
  std::map<std::string, int> set_lines_;            ///< set name -> line of definition
  std::map<std::string, std::size_t> set_index_;    ///< set name -> index in model_.sets
  std::map<std::string, fem::SensorFrame> body_frames_;   ///< rigid body name -> its frame (centre, node axes)
  std::map<std::string, fem::SensorFrame> joint_frames_;  ///< joint name -> its frame A
  std::optional<VelocityField> initial_velocity_;
};

YAML::Node load_document(const std::filesystem::path& file, const std::string& display) {
  std::error_code ec;
  if (std::filesystem::is_directory(file, ec))
    throw InputError(display, 0, 0, "", "expected a model file; found a directory");
  std::ifstream in(file);
  if (!in) throw InputError(display, 0, 0, "", std::string("cannot open the model file: ") + std::strerror(errno));
  try {
    return YAML::Load(in);
  } catch (const YAML::Exception& e) {
    const int line = e.mark.is_null() ? 0 : e.mark.line + 1;
    const int column = e.mark.is_null() ? 0 : e.mark.column + 1;
    throw InputError(display, line, column, "", "malformed YAML: " + e.msg);
  }
}

}  // namespace

fem::Model read_model(const std::filesystem::path& file, std::span<const std::string> overrides) {
  const std::string display = file.string();
  const YAML::Node root = load_document(file, display);
  Source source(display);
  try {
    apply_overrides(root, overrides, source);
    return ModelBuilder(Cursor(source, root)).build();
  } catch (const YAML::Exception& e) {
    // Not expected (every access is checked first), but a model file must never crash the reader.
    const int line = e.mark.is_null() ? 0 : e.mark.line + 1;
    const int column = e.mark.is_null() ? 0 : e.mark.column + 1;
    throw InputError(display, line, column, "", "cannot read the model: " + e.msg);
  }
}

}  // namespace catena::io
