#include "io/model_reader.hpp"

#include "elements/nodal_load.hpp"
#include "elements/point_mass.hpp"
#include "elements/truss.hpp"
#include "io/yaml_cursor.hpp"
#include "io/yaml_overrides.hpp"
#include "io/yaml_schema.hpp"

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <map>
#include <numbers>

namespace catena::io {

namespace {

std::string format_error(const std::string& file, int line, int column, const std::string& key,
                         const std::string& message) {
  std::string out = file;
  if (line > 0) out += ":" + std::to_string(line) + ":" + std::to_string(column);
  out += ": ";
  if (!key.empty()) out += key + ": ";
  return out + message;
}

}  // namespace

InputError::InputError(std::string file, int line, int column, std::string key, std::string message)
    : std::runtime_error(format_error(file, line, column, key, message)),
      file_(std::move(file)),
      line_(line),
      column_(column),
      key_(std::move(key)),
      message_(std::move(message)) {}

namespace {

constexpr std::array<std::string_view, 3> axis_names{"x", "y", "z"};
constexpr std::array<std::string_view, 2> integrators{"midpoint", "newmark"};
constexpr std::array<std::string_view, 5> linear_solvers{"mumps", "klu", "umfpack", "superlu", "petsc"};
constexpr std::array<std::string_view, 3> sensor_quantities{"position", "displacement", "velocity"};
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
std::string list_components(const std::array<bool, 3>& which) {
  std::vector<std::string_view> names;
  for (std::size_t c = 0; c < 3; ++c)
    if (which[c]) names.push_back(axis_names[c]);
  std::string out;
  for (std::size_t i = 0; i < names.size(); ++i) {
    if (i > 0) out += i + 1 == names.size() ? " and " : ", ";
    out += names[i];
  }
  return out;
}

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
    read_supports();
    read_masses();
    read_trusses();
    read_loads();
    read_analysis();
    read_sensors();
    check_free_nodes_have_mass();
    model_.update_length_scale();
    return std::move(model_);
  }

 private:
  void read_name() {
    const Cursor c = root_.get("name", "the model name; results go to out/<name>/");
    const std::string name = read_string(c, "a model name");
    if (name == "." || name == ".." || name.find_first_of("/\\") != std::string::npos)
      c.fail_expected("a model name usable as a folder name (no '/' or '\\')");
    model_.name = name;
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
      if (!is_identifier(name))
        key.fail_expected("a parameter name (letters, digits and _, not starting with a digit)");
      if (name == "t") key.fail("the name 't' is reserved for time; expected another parameter name");
      if (name == "pi" || name == "_pi" || name == "_e")
        key.fail("'" + name + "' is predefined (pi = 3.14159...); expected another parameter name");
      if (std::find(builtin_functions.begin(), builtin_functions.end(), name) != builtin_functions.end())
        key.fail("'" + name + "' is a built-in function; expected another parameter name");
      if (value.is_scalar())
        for (const std::string& used : expression_names(value.node().Scalar()))
          if (!parameters_.contains(used) && declared_on_line.contains(used))
            value.fail("parameter '" + used + "' is used before its definition (line " +
                       std::to_string(declared_on_line.at(used)) + "); expected an expression of earlier parameters");
      parameters_[name] = read_number(value, parameters_, Quantity{"parameter value", ""});
    }
  }

  void read_gravity() {
    if (const auto c = root_.find("gravity"))
      model_.gravity = read_vec3(*c, parameters_, Quantity{"gravity acceleration", "m/s^2"});
  }

  void read_nodes() {
    const Cursor list = root_.get("nodes", "the list of nodes");
    list.expect_sequence("a list of nodes {name, position}");
    if (list.size() == 0) list.fail_expected("at least one node");
    std::map<std::string, int> first_line;
    for (std::size_t i = 0; i < list.size(); ++i) {
      const Cursor item = list[i];
      item.expect_map("a node {name, position, velocity}");
      item.check_keys(schema::node);
      const Cursor name_cursor = item.get("name", "the node's name");
      const std::string name = read_string(name_cursor, "a node name");
      const int line = name_cursor.node().Mark().line + 1;
      if (const auto it = first_line.find(name); it != first_line.end())
        name_cursor.fail("duplicate node name '" + name + "' (first defined on line " + std::to_string(it->second) +
                         "); expected a new name");
      first_line.emplace(name, line);
      const fem::Vec3 position = read_vec3(item.get("position", "the node's position [m]"), parameters_,
                                           Quantity{"position", "m"});
      const fem::NodeId id = model_.add_node(name, position);
      node_cursors_.push_back(name_cursor);
      node_names_.push_back(name);
      const auto velocity = item.find("velocity");
      if (velocity)
        model_.initial_state[id.index].velocity = read_vec3(*velocity, parameters_, Quantity{"velocity", "m/s"});
      has_velocity_.push_back(velocity.has_value());
    }
    fixed_.assign(model_.nodes.size(), {false, false, false});
    mass_.assign(model_.nodes.size(), 0.0);
  }

  void read_initial_velocity() {
    const auto c = root_.find("initial_velocity");
    if (!c) return;
    c->expect_map("a rigid velocity field {omega, about, velocity}");
    c->check_keys(schema::initial_velocity);
    fem::Vec3 omega = fem::Vec3::Zero(), about = fem::Vec3::Zero(), v0 = fem::Vec3::Zero();
    if (const auto w = c->find("omega")) omega = read_vec3(*w, parameters_, Quantity{"angular velocity", "rad/s"});
    if (const auto a = c->find("about")) about = read_vec3(*a, parameters_, Quantity{"point", "m"});
    if (const auto v = c->find("velocity")) v0 = read_vec3(*v, parameters_, Quantity{"velocity", "m/s"});
    for (std::size_t i = 0; i < model_.nodes.size(); ++i)
      if (!has_velocity_[i])
        model_.initial_state[i].velocity = v0 + omega.cross(model_.nodes[i].reference_position - about);
  }

  /// An optional list section; an empty value counts as an empty list.
  std::optional<Cursor> list_section(std::string_view key, std::string_view what) const {
    auto c = root_.find(key);
    if (!c || c->node().IsNull()) return std::nullopt;
    c->expect_sequence(what);
    return c;
  }

  fem::NodeId read_node(const Cursor& c) const {
    const std::string name = read_string(c, "a node name");
    if (const auto id = model_.find_node(name)) return *id;
    std::string hint = did_you_mean(name, node_names_);
    if (hint.empty()) {
      if (node_names_.size() <= 12) {
        const std::vector<std::string_view> views(node_names_.begin(), node_names_.end());
        hint = " (defined: " + join(views) + ")";
      } else {
        hint = " (" + std::to_string(node_names_.size()) + " nodes are defined)";
      }
    }
    c.fail("unknown node '" + name + "'" + hint);
  }

  /// The element's `name`, or `<prefix>_<index>`; element names are unique.
  std::string element_name(const Cursor& item, std::string_view prefix, std::size_t index) {
    const auto c = item.find("name");
    const std::string name = c ? read_string(*c, "an element name") : std::string(prefix) + "_" + std::to_string(index);
    const int line = c ? c->node().Mark().line + 1 : item.node().Mark().line + 1;
    if (const auto it = element_lines_.find(name); it != element_lines_.end()) {
      const std::string message = "duplicate element name '" + name + "' (first used on line " +
                                  std::to_string(it->second) + "); expected a new name";
      if (c) c->fail(message);
      item.fail(message);
    }
    element_lines_.emplace(name, line);
    return name;
  }

  void read_supports() {
    const auto list = list_section("supports", "a list of supports {node, dofs}");
    if (!list) return;
    for (std::size_t i = 0; i < list->size(); ++i) {
      const Cursor item = (*list)[i];
      item.expect_map("a support {node, dofs}");
      item.check_keys(schema::support);
      const fem::NodeId node = read_node(item.get("node", "the supported node"));
      std::array<bool, 3> fix{true, true, true};
      if (const auto dofs = item.find("dofs")) {
        fix = {false, false, false};
        if (dofs->is_scalar()) {
          fix[read_choice(*dofs, axis_names, "a component")] = true;
        } else {
          if (!dofs->is_sequence() || dofs->size() == 0) dofs->fail_expected("a list of components from x, y, z");
          for (std::size_t k = 0; k < dofs->size(); ++k) fix[read_choice((*dofs)[k], axis_names, "a component")] = true;
        }
      }
      for (int c = 0; c < 3; ++c) {
        if (!fix[static_cast<std::size_t>(c)]) continue;
        model_.fix(node, c);
        fixed_[static_cast<std::size_t>(node.index)][static_cast<std::size_t>(c)] = true;
      }
    }
  }

  void read_masses() {
    const auto list = list_section("masses", "a list of point masses {node, mass}");
    if (!list) return;
    for (std::size_t i = 0; i < list->size(); ++i) {
      const Cursor item = (*list)[i];
      item.expect_map("a point mass {node, mass}");
      item.check_keys(schema::mass);
      const std::string name = element_name(item, "mass", i);
      const fem::NodeId node = read_node(item.get("node", "the node carrying the mass"));
      const double m = read_number(item.get("mass", "the mass [kg]"), parameters_, Quantity{"mass", "kg", Bound::Positive});
      mass_[static_cast<std::size_t>(node.index)] += m;
      model_.add_element<elements::PointMass>(name, model_.nodes, node, m, model_.gravity);
    }
  }

  void read_trusses() {
    const auto list = list_section("trusses", "a list of trusses {name, nodes, EA}");
    if (!list) return;
    for (std::size_t i = 0; i < list->size(); ++i) {
      const Cursor item = (*list)[i];
      item.expect_map("a truss {name, nodes, EA, rest_length}");
      item.check_keys(schema::truss);
      const std::string name = element_name(item, "truss", i);
      const Cursor ends = item.get("nodes", "the truss's two nodes [a, b]");
      if (!ends.is_sequence() || ends.size() != 2) ends.fail_expected("the truss's two node names [a, b]");
      const fem::NodeId a = read_node(ends[0]);
      const fem::NodeId b = read_node(ends[1]);
      if (a == b) ends[1].fail("expected two different nodes; found '" + node_names_[static_cast<std::size_t>(a.index)] + "' twice");
      const double EA = read_number(item.get("EA", "the axial stiffness EA [N]"), parameters_,
                                    Quantity{"axial stiffness EA", "N", Bound::Positive});
      const fem::Vec3 chord = model_.nodes[static_cast<std::size_t>(b.index)].reference_position -
                              model_.nodes[static_cast<std::size_t>(a.index)].reference_position;
      const double distance = chord.norm();
      if (!(distance > 0.0))
        ends.fail("expected nodes at distinct positions (a truss of non-zero length); found '" +
                  node_names_[static_cast<std::size_t>(a.index)] + "' and '" +
                  node_names_[static_cast<std::size_t>(b.index)] + "' at the same point");
      double rest_length = distance;
      if (const auto l0 = item.find("rest_length"))
        rest_length = read_number(*l0, parameters_, Quantity{"rest length", "m", Bound::Positive});
      model_.add_element<elements::Truss>(name, model_.nodes, a, b, elements::TrussSection{EA}, rest_length);
    }
  }

  void read_loads() {
    const auto list = list_section("loads", "a list of nodal loads {node, force}");
    if (!list) return;
    for (std::size_t i = 0; i < list->size(); ++i) {
      const Cursor item = (*list)[i];
      item.expect_map("a nodal load {name, node, force}");
      item.check_keys(schema::load);
      const std::string name = element_name(item, "load", i);
      const fem::NodeId node = read_node(item.get("node", "the loaded node"));
      const Cursor force = item.get("force", "the force [N] as [x, y, z], functions of t");
      if (!force.is_sequence() || force.size() != 3)
        force.fail_expected("a force [N] as a list of 3 numbers or expressions of t [x, y, z]");
      const Quantity component{"force component", "N"};
      std::array<fem::Expression, 3> f{read_time_function(force[0], parameters_, component),
                                       read_time_function(force[1], parameters_, component),
                                       read_time_function(force[2], parameters_, component)};
      model_.add_element<elements::NodalLoad>(name, model_.nodes, node, std::move(f));
    }
  }

  void read_analysis() {
    const Cursor c = root_.get("analysis", "the analysis settings: type, dt, t_end, ...");
    c.expect_map("analysis settings {type, integrator, dt, t_end, ...}");
    c.check_keys(schema::analysis);
    fem::AnalysisSettings& a = model_.analysis;
    if (const auto type = c.find("type")) {
      if (type->is_scalar() && (type->node().Scalar() == "static" || type->node().Scalar() == "eigen"))
        type->fail("expected analysis type dynamic (static and eigen analyses are not available yet); found '" +
                   type->node().Scalar() + "'");
      constexpr std::array<std::string_view, 1> types{"dynamic"};
      read_choice(*type, types, "an analysis type");
    }
    if (const auto integrator = c.find("integrator"))
      a.scheme = read_choice(*integrator, integrators, "an integrator") == 0 ? fem::TimeScheme::Midpoint
                                                                               : fem::TimeScheme::Trapezoidal;
    const Cursor dt = c.get("dt", "the time step [s]");
    a.dt = read_number(dt, parameters_, Quantity{"time step", "s", Bound::Positive});
    a.t_end = read_number(c.get("t_end", "the end time [s]"), parameters_, Quantity{"end time", "s", Bound::Positive});
    if (const auto n = c.find("output_every")) a.output_every = read_integer(*n, parameters_, "steps between outputs", 1);
    if (const auto dt_min = c.find("dt_min")) {
      a.dt_min = read_number(*dt_min, parameters_, Quantity{"minimum time step", "s", Bound::NonNegative});
      if (a.dt_min > a.dt) {
        char text[64];
        std::snprintf(text, sizeof text, "%g", a.dt);
        dt_min->fail("expected a minimum time step [s] no larger than dt = " + std::string(text) + "; found " +
                     dt_min->found());
      }
    }
    if (const auto n = c.find("max_newton_iterations"))
      a.max_newton_iterations = read_integer(*n, parameters_, "Newton iterations", 1);
    if (const auto tol = c.find("newton_tolerance"))
      a.newton_tolerance = read_number(*tol, parameters_, Quantity{"Newton tolerance", "", Bound::Positive});
    if (const auto solver = c.find("linear_solver"))
      a.linear_solver = std::string(linear_solvers[read_choice(*solver, linear_solvers, "a linear solver")]);
  }

  void read_sensors() {
    const auto list = list_section("sensors", "a list of sensors {name, node, quantity, component}");
    if (!list) return;
    std::map<std::string, int> first_line;
    for (std::size_t i = 0; i < list->size(); ++i) {
      const Cursor item = (*list)[i];
      item.expect_map("a sensor {name, node, quantity, component, frame}");
      item.check_keys(schema::sensor);
      const Cursor name_cursor = item.get("name", "the sensor's name, a column of sensors.csv");
      fem::Sensor s;
      s.name = read_string(name_cursor, "a sensor name");
      if (s.name.find_first_of(",\"\n\r") != std::string::npos)
        name_cursor.fail_expected("a sensor name without commas, quotes or line breaks (it heads a CSV column)");
      if (const auto it = first_line.find(s.name); it != first_line.end())
        name_cursor.fail("duplicate sensor name '" + s.name + "' (first defined on line " + std::to_string(it->second) +
                         "); expected a new name");
      first_line.emplace(s.name, name_cursor.node().Mark().line + 1);
      s.node = read_node(item.get("node", "the node measured"));
      s.quantity = static_cast<fem::SensorQuantity>(
          read_choice(item.get("quantity", "position, displacement or velocity"), sensor_quantities, "a quantity"));
      s.component = static_cast<int>(read_choice(item.get("component", "x, y or z"), axis_names, "a component"));
      if (const auto frame = item.find("frame")) s.frame = read_node(*frame);
      model_.sensors.push_back(std::move(s));
    }
  }

  void check_free_nodes_have_mass() const {
    for (std::size_t i = 0; i < model_.nodes.size(); ++i) {
      if (mass_[i] > 0.0) continue;
      std::array<bool, 3> free{!fixed_[i][0], !fixed_[i][1], !fixed_[i][2]};
      if (!free[0] && !free[1] && !free[2]) continue;
      node_cursors_[i].fail("node '" + node_names_[i] + "' is free in " + list_components(free) +
                            " but has no mass; add a mass or a support");
    }
  }

  Cursor root_;
  fem::Model model_;
  fem::ParameterTable parameters_;
  std::vector<std::string> node_names_;
  std::vector<Cursor> node_cursors_;  ///< each node's `name` value, for messages about the node
  std::vector<bool> has_velocity_;    ///< node has its own `velocity`
  std::vector<std::array<bool, 3>> fixed_;
  std::vector<double> mass_;                ///< total point mass per node [kg]
  std::map<std::string, int> element_lines_;  ///< element name -> line of first use
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
