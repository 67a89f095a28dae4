// The model's top-level values: its name, its parameters (which every later number may use) and
// gravity.
#include "io/model/section_readers.hpp"
#include "io/model/values.hpp"

#include <algorithm>
#include <array>
#include <map>
#include <numbers>

namespace catena::io::reader {

namespace {

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

}  // namespace

void read_model_name(ModelContext& context) {
  const Cursor c = context.root.get("name", "the model name; results go to out/<name>/");
  const std::string name = read_string(c, "a model name");
  if (name == "." || name == ".." || name.find_first_of("/\\") != std::string::npos)
    c.fail_expected("a model name usable as a folder name (no '/' or '\\')");
  context.model.name = name;
}

void check_unreserved_name(const Cursor& c, const std::string& name, std::string_view what) {
  const std::string another = "; expected another " + std::string(what);
  if (name == "t") c.fail("the name 't' is reserved for time" + another);
  if (name == "pi" || name == "_pi" || name == "_e") c.fail("'" + name + "' is predefined (pi = 3.14159...)" + another);
  if (std::find(builtin_functions.begin(), builtin_functions.end(), name) != builtin_functions.end())
    c.fail("'" + name + "' is a built-in function" + another);
}

void check_parameter_name(const Cursor& c, const std::string& name) {
  if (!is_identifier(name)) c.fail_expected("a parameter name (letters, digits and _, not starting with a digit)");
  check_unreserved_name(c, name, "parameter name");
}

void read_parameters(ModelContext& context) {
  fem::ParameterTable& parameters = context.parameters;
  parameters["pi"] = std::numbers::pi;
  const auto section = context.root.find("parameters");
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
        if (!parameters.contains(used) && declared_on_line.contains(used))
          value.fail("parameter '" + used + "' is used before its definition (line " +
                     std::to_string(declared_on_line.at(used)) + "); expected an expression of earlier parameters");
    parameters[name] = read_number(value, parameters, Quantity{"parameter value", "", Bound::Any, true});
    context.model.parameters.emplace_back(name, parameters[name]);
  }
}

void read_gravity(ModelContext& context) {
  if (const auto c = context.root.find("gravity")) {
    context.model.gravity = read_vec3(*c, context.parameters, key_quantity<"", "gravity">("gravity acceleration"));
    check_gravity_in_plane(context, *c);
  }
}

}  // namespace catena::io::reader
