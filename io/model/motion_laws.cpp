// Laws of the motion (fem/law.hpp) in a joint component's force or a nodal load: which names they
// may use, the refusals of names that are unknown or mean two things, and constants that name the
// motion.
#include "elements/joint.hpp"
#include "elements/nodal_load.hpp"
#include "io/model/section_readers.hpp"

#include <algorithm>

namespace catena::io::reader {

namespace {

std::string joined(const std::vector<std::string>& words) {
  std::string s;
  for (const std::string& w : words) s += (s.empty() ? "" : ", ") + w;
  return s;
}

bool contains(std::span<const std::string_view> names, std::string_view name) {
  return std::find(names.begin(), names.end(), name) != names.end();
}

/// The place an error about `c` names, "model.yaml:12:14: joints[0].laws.rz.force": what the
/// cursor's InputError writes before its message.
std::string place_of(const Cursor& c) {
  std::string place = c.error("").what();
  if (place.ends_with(": ")) place.resize(place.size() - 2);
  return place;
}

/// Fails at `c`: `name` in its law is none of what `whose` may use, which the message lists.
[[noreturn]] void fail_unknown_name(const ModelContext& context, const Cursor& c, const std::string& name,
                                    std::span<const std::string_view> variables, std::string_view whose) {
  std::vector<std::string> known(variables.begin(), variables.end());
  const std::vector<std::string> input_names = context.model.inputs->names();
  known.insert(known.end(), input_names.begin(), input_names.end());
  std::vector<std::string> sensor_names;
  for (const fem::Sensor& s : context.model.sensors) sensor_names.push_back(s.name);
  if (sensor_names.empty()) sensor_names = context.sensor_names;  // the laws are read before the sensors
  known.insert(known.end(), sensor_names.begin(), sensor_names.end());
  std::vector<std::string> parameter_names;
  for (const auto& entry : context.parameters)
    if (entry.first != "pi") parameter_names.push_back(entry.first);
  std::string hint = did_you_mean(name, known);
  if (hint.empty()) hint = did_you_mean(name, parameter_names);
  c.fail("unknown name '" + name + "' in the law '" + c.node().Scalar() + "'" + hint + "; " + std::string(whose) +
         " may use " + join(variables) + ", " +
         (input_names.empty() ? std::string("no inputs (the model defines none)") : "the inputs " + joined(input_names)) +
         ", " +
         (sensor_names.empty() ? std::string("no sensors (the model defines none)")
                               : "the sensors " + joined(sensor_names)) +
         ", the parameters" +
         defined_names_note(parameter_names, {.none = "none defined", .list_at_most = 12, .counted = "defined"}) +
         " and t");
}

}  // namespace

bool is_law_variable(std::string_view name) {
  return contains(elements::joint_law_variables, name) || contains(elements::nodal_load_variables, name);
}

std::string law_variables_note() {
  return "a joint law's are " + join(elements::joint_law_variables) + "; a nodal load's " +
         join(elements::nodal_load_variables);
}

namespace {

/// Whether `name` is one of the sensors scan_sensor_names found (a set's: after its prefix).
bool names_sensor(const ModelContext& context, const std::string& name) {
  const auto& prefixes = context.sensor_set_prefixes;
  return std::find(context.sensor_names.begin(), context.sensor_names.end(), name) != context.sensor_names.end() ||
         std::any_of(prefixes.begin(), prefixes.end(), [&](const std::string& p) { return name.starts_with(p); });
}

}  // namespace

std::optional<MotionLaw> read_motion_law(ModelContext& context, const Cursor& c,
                                         std::span<const std::string_view> variables, std::string_view whose) {
  if (!c.is_scalar()) return std::nullopt;
  const std::string& text = c.node().Scalar();  // YAML has trimmed a plain scalar
  const fem::Inputs& inputs = *context.model.inputs;
  const std::vector<std::string> names = expression_names(text);
  const auto is_sensor = [&](const std::string& n) {
    return !context.parameters.contains(n) && !inputs.find(n) && names_sensor(context, n);
  };
  const bool of_motion = std::any_of(names.begin(), names.end(), [&](const std::string& n) {
    return contains(variables, n) || inputs.find(n).has_value() || is_sensor(n);
  });
  if (!of_motion) {
    // A function of time; but a name close to a sensor's (mistyped) is meant as a law: say what a
    // law may use rather than that no such parameter exists.
    for (const std::string& name : names)
      if (!context.parameters.contains(name) && !did_you_mean(name, context.sensor_names).empty())
        fail_unknown_name(context, c, name, variables, whose);
    return std::nullopt;
  }
  std::vector<std::string> input_names, sensor_names;
  std::vector<std::size_t> input_indices, sensor_indices;
  for (const std::string& name : names) {
    const bool variable = contains(variables, name), parameter = context.parameters.contains(name);
    const std::optional<std::size_t> input = inputs.find(name);
    if (variable && parameter)
      c.fail("'" + name + "' is both a parameter and " + std::string(whose) + "'s variable in '" + text +
             "'; rename the parameter");
    if (input && parameter)
      c.fail("'" + name + "' is both a parameter and an input in '" + text + "'; rename one of them");
    if (variable || parameter || name == "t" || name == "_pi" || name == "_e") continue;
    const bool sensor = !input && names_sensor(context, name);
    if (!input && !sensor) fail_unknown_name(context, c, name, variables, whose);
    std::vector<std::string>& used = input ? input_names : sensor_names;
    if (std::find(used.begin(), used.end(), name) != used.end()) continue;
    if (used.size() == elements::max_law_inputs)
      c.fail("expected a law that reads at most " + std::to_string(elements::max_law_inputs) + (input ? " inputs" : " sensors") +
             "; found more in '" + text + "'");
    used.push_back(name);
    if (input) input_indices.push_back(*input);
    else sensor_indices.push_back(context.model.law_sensors->add(name));
  }
  // Its variables: the motion's, the sensors' (both differentiated), then the inputs'.
  std::vector<std::string> law_variables(variables.begin(), variables.end());
  law_variables.insert(law_variables.end(), sensor_names.begin(), sensor_names.end());
  law_variables.insert(law_variables.end(), input_names.begin(), input_names.end());
  std::optional<fem::Law> law;
  try {
    law.emplace(text, context.parameters, law_variables, variables.size() + sensor_names.size(), place_of(c));
  } catch (const fem::ExpressionError& e) {
    // "cannot differentiate 'TEXT': REASON" (or muparser's "cannot evaluate ..."): the reason alone.
    const std::string what = e.what();
    const std::size_t quoted = what.find("': ");
    c.fail("expected a law of the motion, an expression of its variables with exact derivatives; found '" + text +
           "': " + (quoted == std::string::npos ? what : what.substr(quoted + 3)));
  }
  if (!sensor_indices.empty())
    context.law_sensor_readers.push_back(
        {c, std::string(whose), std::vector<std::string>(variables.begin(), variables.end()), sensor_indices});
  return MotionLaw{std::move(*law), std::move(input_indices), std::move(sensor_indices)};
}

void bind_law_sensors(ModelContext& context) {
  fem::LawSensors& table = *context.model.law_sensors;
  for (const LawSensorReader& reader : context.law_sensor_readers) {
    for (const std::size_t index : reader.sensors) {
      if (table.bound(index)) continue;
      const std::string& name = table.name(index);
      const auto& sensors = context.model.sensors;
      const auto it = std::find_if(sensors.begin(), sensors.end(), [&](const fem::Sensor& s) { return s.name == name; });
      if (it == sensors.end()) {
        const std::vector<std::string_view> variables(reader.variables.begin(), reader.variables.end());
        fail_unknown_name(context, reader.cursor, name, variables, reader.whose);
      }
      try {
        table.bind(index, *it, context.model.nodes, context.model.initial_state);
      } catch (const std::invalid_argument& e) {
        reader.cursor.fail("the law reads sensor '" + name + "', which a law cannot read: " + e.what());
      }
    }
  }
}

void refuse_motion_variables(const ModelContext& context, const Cursor& c, std::span<const std::string_view> variables,
                             std::string_view key) {
  if (!c.is_scalar()) return;
  for (const std::string& name : expression_names(c.node().Scalar()))
    if (!context.parameters.contains(name) && (contains(variables, name) || context.model.inputs->find(name)))
      c.fail(std::string(key) + " is a constant (a number or an expression of parameters); found '" + name +
             "', which varies with the motion: write the whole law in force: (for a stiffening spring force: \"-k*(1 "
             "+ 100*e^2)*e\"), where e, e_rate, x, ..., rz_rate and the inputs may be used");
}

}  // namespace catena::io::reader
