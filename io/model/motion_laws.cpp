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
  std::vector<std::string> parameter_names;
  for (const auto& entry : context.parameters)
    if (entry.first != "pi") parameter_names.push_back(entry.first);
  std::string hint = did_you_mean(name, known);
  if (hint.empty()) hint = did_you_mean(name, parameter_names);
  c.fail("unknown name '" + name + "' in the law '" + c.node().Scalar() + "'" + hint + "; " + std::string(whose) +
         " may use " + join(variables) + ", " +
         (input_names.empty() ? std::string("no inputs (the model defines none)") : "the inputs " + joined(input_names)) +
         ", the parameters" +
         defined_names_note(parameter_names, {.none = " (none defined)", .list_at_most = 12, .counted = "defined"}) +
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

std::optional<MotionLaw> read_motion_law(const ModelContext& context, const Cursor& c,
                                         std::span<const std::string_view> variables, std::string_view whose) {
  if (!c.is_scalar()) return std::nullopt;
  const std::string& text = c.node().Scalar();  // YAML has trimmed a plain scalar
  const fem::Inputs& inputs = *context.model.inputs;
  const std::vector<std::string> names = expression_names(text);
  const bool of_motion = std::any_of(names.begin(), names.end(), [&](const std::string& n) {
    return contains(variables, n) || inputs.find(n).has_value();
  });
  if (!of_motion) return std::nullopt;
  std::vector<std::string> law_variables(variables.begin(), variables.end());
  std::vector<std::size_t> used_inputs;
  for (const std::string& name : names) {
    const bool variable = contains(variables, name), parameter = context.parameters.contains(name);
    const std::optional<std::size_t> input = inputs.find(name);
    if (variable && parameter)
      c.fail("'" + name + "' is both a parameter and " + std::string(whose) + "'s variable in '" + text +
             "'; rename the parameter");
    if (input && parameter)
      c.fail("'" + name + "' is both a parameter and an input in '" + text + "'; rename one of them");
    if (variable || parameter || name == "t" || name == "_pi" || name == "_e") continue;
    if (input) {
      if (std::find(used_inputs.begin(), used_inputs.end(), *input) != used_inputs.end()) continue;
      if (used_inputs.size() == elements::max_law_inputs)
        c.fail("expected a law that reads at most " + std::to_string(elements::max_law_inputs) + " inputs; found more in '" +
               text + "'");
      used_inputs.push_back(*input);
      law_variables.push_back(name);
      continue;
    }
    fail_unknown_name(context, c, name, variables, whose);
  }
  try {
    return MotionLaw{fem::Law(text, context.parameters, law_variables, variables.size(), place_of(c)), used_inputs};
  } catch (const fem::ExpressionError& e) {
    // "cannot differentiate 'TEXT': REASON" (or muparser's "cannot evaluate ..."): the reason alone.
    const std::string what = e.what();
    const std::size_t quoted = what.find("': ");
    c.fail("expected a law of the motion, an expression of its variables with exact derivatives; found '" + text +
           "': " + (quoted == std::string::npos ? what : what.substr(quoted + 3)));
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
